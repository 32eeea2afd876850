//! `verikit`: the command-line front end. Each subcommand group lives in `cmd/<group>.rs` and only
//! parses arguments, calls its library crate and returns its `Answer`; this file handles the global
//! options (`--json`, `--timeout`, `-q`, `-v`), printing, and exit codes.

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

/// Declares the command modules (`cmd/<module>.rs`, each behind its group's cargo feature), the
/// `Cmd` enum (one variant per group), `dispatch`, which calls the group's `run`, and
/// `param_tables`: every engine's tuning-parameter table (`-x key=value`), by engine name.
macro_rules! groups {
    ($($(#[$doc:meta])* $feature:literal $m:ident::$variant:ident($args:ident)
        => [$(($engine:literal, $table:path)),*];)*) => {
        mod cmd {
            $(#[cfg(feature = $feature)] pub mod $m;)*
            #[cfg(feature = "omega")]
            pub mod omega_common;
            #[cfg(feature = "serve")]
            pub mod serve;
        }

        #[derive(Subcommand, Debug)]
        enum Cmd {
            $($(#[$doc])* #[cfg(feature = $feature)] $variant(cmd::$m::$args),)*
            /// The web playground: a local HTTP server with a page per engine (LTL, SMT-LIB, NFA,
            /// PRISM, Boolean networks); the global `--timeout` (default 10 s) limits each request.
            #[cfg(feature = "serve")]
            Serve(cmd::serve::ServeArgs),
            /// Run one real example of every engine from files embedded in the binary.
            Demo,
        }

        fn dispatch(cmd: Cmd, ctx: &Ctx) -> Result<Output, CliError> {
            match cmd {
                $(#[cfg(feature = $feature)] Cmd::$variant(c) => cmd::$m::run(c, ctx),)*
                #[cfg(feature = "serve")]
                Cmd::Serve(_) => Err(CliError::Internal("serve runs outside the watchdog".into())),
                Cmd::Demo => demo::run(ctx),
            }
        }

        fn param_tables() -> Vec<(&'static str, &'static [Param])> {
            vec![$($(#[cfg(feature = $feature)] ($engine, $table),)*)*]
        }
    };
}

groups! {
    /// Finite automata: universality, inclusion, equivalence, reduction, random NFAs.
    #[command(subcommand)]
    "nfa" nfa::Nfa(NfaCmd) => [("nfa", verikit_automata::PARAMS)];
    /// SMT-LIB 2.6 solver for linear arithmetic (QF_LRA, QF_RDL, QF_LIA, QF_IDL).
    "smt" smt::Smt(SmtArgs) => [("smt", verikit_smt::PARAMS)];
    /// LTL formulas: parse, simplify, translate to Büchi automata, random formulas.
    #[command(subcommand)]
    "omega" ltl::Ltl(LtlCmd) => [("omega", verikit_omega::PARAMS)];
    /// omega-automata in HOA: statistics, product, emptiness, membership, complement.
    #[command(subcommand)]
    "omega" aut::Aut(AutCmd) => [];
    /// Boolean networks: attractors of synchronous networks, model information, random networks.
    #[command(subcommand)]
    "bn" bn::Bn(BnCmd) => [("bn", verikit_boolnet::PARAMS)];
    /// Probabilistic models in the PRISM language: build, check PCTL/CSL properties.
    #[command(subcommand)]
    "prism" prism::Prism(PrismCmd) => [("prism", verikit_prob::PARAMS)];
    /// Timed automata (TChecker .tck): zone-graph reachability of location labels, timed traces.
    #[command(subcommand)]
    "ta" ta::Ta(TaCmd) => [("ta", verikit_ta::PARAMS)];
    /// Explicit-state model checking of DVE (DiVinE/BEEM) models: state spaces, deadlocks,
    /// assertions, LTL by nested DFS.
    #[command(subcommand)]
    "mc" mc::Mc(McCmd) => [("mc", verikit_explicit::PARAMS)];
    /// C programs (SV-COMP conventions): unreach-call by IMPACT and bounded model checking, CFA,
    /// CHC.
    #[command(subcommand)]
    "prog" prog::Prog(ProgCmd) => [("prog", verikit_prog::PARAMS)];
    /// Hardware model checking of AIGER circuits (.aag/.aig): BMC, k-induction, IC3/PDR.
    #[command(subcommand)]
    "aig" aig::Aig(AigCmd) => [("hw", verikit_hw::PARAMS), ("ste", verikit_hw::STE_PARAMS)];
    /// SAT: DIMACS CNF solving with DRAT proofs; unsatisfiable cores (Trimmer, MUS) of .cnf/.gcnf.
    "sat" sat::Sat(SatArgs) => [("sat", verikit_hw::SAT_PARAMS)];
    /// Reactive synthesis from LTL (TLSF, or -f with --ins/--outs): realizability, AIGER
    /// controllers.
    #[command(subcommand)]
    "synt" synt::Synt(SyntCmd) => [("synt", verikit_synt::PARAMS)];
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
