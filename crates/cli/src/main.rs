//! `verikit`: the command-line front end. Each subcommand group lives in `cmd/<group>.rs` and only
//! parses arguments, calls its library crate and returns its `Answer`; this file handles the global
//! options (`--json`, `--timeout`, `-q`, `-v`), printing, and exit codes.

mod cmd;
mod demo;
mod report;

use clap::{Args, Parser, Subcommand};
use report::{CliError, Ctx, Output};
use verikit_diag::{
    emit, init_tracing, params_help, run_watched, Param, Params, EXIT_INPUT, EXIT_OK,
};

#[derive(Parser, Debug)]
#[command(
    name = "verikit",
    version,
    about = "verikit: automata, SMT, LTL/omega-automata, Boolean networks and probabilistic model checking",
    after_help = "Exit codes: 0 completed (whatever the verdict), 2 bad input or usage, 3 timeout or resource limit, 1 internal error."
)]
struct Cli {
    #[command(flatten)]
    global: Global,
    #[command(subcommand)]
    cmd: Option<Cmd>,
}

#[derive(Args, Debug, Clone)]
struct Global {
    /// Print one JSON object (with a top-level "verdict" for decision commands) instead of text.
    #[arg(long, global = true)]
    json: bool,
    /// Give up after SECS seconds (verdict "timeout", exit code 3).
    #[arg(long, global = true, value_name = "SECS")]
    timeout: Option<f64>,
    /// No progress messages on stderr.
    #[arg(short, long, global = true)]
    quiet: bool,
    /// More detail on stderr (repeat for more).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
    /// Tuning parameter KEY=VALUE (repeatable, or comma-separated; `--help-params` lists them).
    #[arg(short = 'x', global = true, value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    params: Vec<String>,
    /// List every tuning parameter with its default, range and meaning, then exit.
    #[arg(long, global = true)]
    help_params: bool,
}

/// Every engine's tuning-parameter table (`-x key=value`), by engine name.
fn param_tables() -> Vec<(&'static str, &'static [Param])> {
    vec![
        #[cfg(feature = "nfa")]
        ("nfa", verikit_automata::PARAMS),
        #[cfg(feature = "smt")]
        ("smt", verikit_smt::PARAMS),
        #[cfg(feature = "bn")]
        ("bn", verikit_boolnet::PARAMS),
        #[cfg(feature = "prism")]
        ("prism", verikit_prob::PARAMS),
        #[cfg(feature = "omega")]
        ("omega", verikit_omega::PARAMS),
        #[cfg(feature = "mc")]
        ("mc", verikit_explicit::PARAMS),
        #[cfg(feature = "prog")]
        ("prog", verikit_prog::PARAMS),
        #[cfg(feature = "aig")]
        ("hw", verikit_hw::PARAMS),
        #[cfg(feature = "aig")]
        ("ste", verikit_hw::STE_PARAMS),
        #[cfg(feature = "sat")]
        ("sat", verikit_hw::SAT_PARAMS),
        #[cfg(feature = "synt")]
        ("synt", verikit_synt::PARAMS),
        #[cfg(feature = "ta")]
        ("ta", verikit_ta::PARAMS),
    ]
}

/// Declares the `Cmd` enum (one variant per group behind its cargo feature) and `dispatch`, which
/// calls the group's `run`.
macro_rules! groups {
    ($($(#[$doc:meta])* $feature:literal $variant:ident($args:ty) => $run:path;)*) => {
        #[derive(Subcommand, Debug)]
        enum Cmd {
            $($(#[$doc])* #[cfg(feature = $feature)] $variant($args),)*
            /// The web playground: a local HTTP server with a page per engine (LTL, SMT-LIB, NFA,
            /// PRISM, Boolean networks); the global `--timeout` (default 10 s) limits each request.
            #[cfg(feature = "serve")]
            Serve(cmd::serve::ServeArgs),
            /// Run one real example of every engine from files embedded in the binary.
            Demo,
        }

        fn dispatch(cmd: Cmd, ctx: &Ctx) -> Result<Output, CliError> {
            match cmd {
                $(#[cfg(feature = $feature)] Cmd::$variant(c) => $run(c, ctx),)*
                #[cfg(feature = "serve")]
                Cmd::Serve(_) => Err(CliError::Internal("serve runs outside the watchdog".into())),
                Cmd::Demo => demo::run(ctx),
            }
        }
    };
}

groups! {
    /// Finite automata: universality, inclusion, equivalence, reduction, random NFAs.
    #[command(subcommand)]
    "nfa" Nfa(cmd::nfa::NfaCmd) => cmd::nfa::run;
    /// SMT-LIB 2.6 solver for linear arithmetic (QF_LRA, QF_RDL, QF_LIA, QF_IDL).
    "smt" Smt(cmd::smt::SmtArgs) => cmd::smt::run;
    /// LTL formulas: parse, simplify, translate to Büchi automata, random formulas.
    #[command(subcommand)]
    "omega" Ltl(cmd::ltl::LtlCmd) => cmd::ltl::run;
    /// omega-automata in HOA: statistics, product, emptiness, membership, complement.
    #[command(subcommand)]
    "omega" Aut(cmd::aut::AutCmd) => cmd::aut::run;
    /// Boolean networks: attractors of synchronous networks, model information, random networks.
    #[command(subcommand)]
    "bn" Bn(cmd::bn::BnCmd) => cmd::bn::run;
    /// Probabilistic models in the PRISM language: build, check PCTL/CSL properties.
    #[command(subcommand)]
    "prism" Prism(cmd::prism::PrismCmd) => cmd::prism::run;
    /// Timed automata (TChecker .tck): zone-graph reachability of location labels, timed traces.
    #[command(subcommand)]
    "ta" Ta(cmd::ta::TaCmd) => cmd::ta::run;
    /// Explicit-state model checking of DVE (DiVinE/BEEM) models: state spaces, deadlocks,
    /// assertions, LTL by nested DFS.
    #[command(subcommand)]
    "mc" Mc(cmd::mc::McCmd) => cmd::mc::run;
    /// C programs (SV-COMP conventions): unreach-call by IMPACT and bounded model checking, CFA,
    /// CHC.
    #[command(subcommand)]
    "prog" Prog(cmd::prog::ProgCmd) => cmd::prog::run;
    /// Hardware model checking of AIGER circuits (.aag/.aig): BMC, k-induction, IC3/PDR.
    #[command(subcommand)]
    "aig" Aig(cmd::aig::AigCmd) => cmd::aig::run;
    /// SAT: DIMACS CNF solving with DRAT proofs; unsatisfiable cores (Trimmer, MUS) of .cnf/.gcnf.
    "sat" Sat(cmd::sat::SatArgs) => cmd::sat::run;
    /// Reactive synthesis from LTL (TLSF, or -f with --ins/--outs): realizability, AIGER
    /// controllers.
    #[command(subcommand)]
    "synt" Synt(cmd::synt::SyntCmd) => cmd::synt::run;
}

fn usage_exit(msg: &str) -> ! {
    eprintln!("error: {msg}");
    std::process::exit(EXIT_INPUT);
}

fn main() {
    let cli = Cli::parse();
    init_tracing(cli.global.quiet, cli.global.verbose);
    let tables = param_tables();
    if cli.global.help_params {
        emit(&params_help(&tables));
        std::process::exit(EXIT_OK);
    }
    let Some(cmd) = cli.cmd else {
        usage_exit("a subcommand is required (try `verikit --help`)");
    };
    let g = cli.global;
    if g.timeout.is_some_and(|t| !(t.is_finite() && t > 0.0)) {
        usage_exit("--timeout must be a positive number of seconds");
    }
    #[cfg(feature = "serve")]
    if let Cmd::Serve(args) = &cmd {
        std::process::exit(cmd::serve::run(args, g.timeout));
    }
    let params = Params::parse(&g.params).unwrap_or_else(|e| usage_exit(&e));
    let known: Vec<&[Param]> = tables.iter().map(|(_, t)| *t).collect();
    if let Err(e) = params.validate(&known) {
        usage_exit(&e);
    }
    let ctx = Ctx::new(g.json, g.quiet, g.timeout, params);
    std::process::exit(run_watched(&ctx, g.verbose, move |c| dispatch(cmd, c)));
}
