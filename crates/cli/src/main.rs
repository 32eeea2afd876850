//! `verikit`: the command-line front end. Each subcommand group lives in `cmd/<group>.rs` and only
//! parses arguments, calls its library crate and returns its `Answer`; this file handles the
//! global options (`--json`, `--timeout`, `-q`, `-v`), printing, and exit codes.

mod cmd;
mod demo;
mod progress;
// Some report helpers serve only some engines; a build with a subset of the features must not warn.
#[cfg_attr(
    not(all(
        feature = "nfa",
        feature = "smt",
        feature = "omega",
        feature = "bn",
        feature = "prism",
        feature = "ta",
        feature = "mc",
        feature = "prog",
        feature = "aig",
        feature = "synt"
    )),
    allow(dead_code)
)]
mod report;

use clap::{Args, Parser, Subcommand};
use report::{emit, failure_exit, CliError, Ctx, Output, EXIT_INTERNAL, EXIT_LIMIT, EXIT_OK};
use std::time::{Duration, Instant};
use verikit_diag::{Answer, Budget, Param, Params, Verdict};

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
        #[cfg(feature = "synt")]
        ("synt", verikit_synt::PARAMS),
    ]
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Finite automata: universality, inclusion, equivalence, reduction, random NFAs.
    #[cfg(feature = "nfa")]
    #[command(subcommand)]
    Nfa(cmd::nfa::NfaCmd),
    /// SMT-LIB 2.6 solver for linear arithmetic (QF_LRA, QF_RDL, QF_LIA, QF_IDL).
    #[cfg(feature = "smt")]
    Smt(cmd::smt::SmtArgs),
    /// LTL formulas: parse, simplify, translate to Büchi automata, random formulas.
    #[cfg(feature = "omega")]
    #[command(subcommand)]
    Ltl(cmd::ltl::LtlCmd),
    /// omega-automata in HOA: statistics, product, emptiness, membership, complement.
    #[cfg(feature = "omega")]
    #[command(subcommand)]
    Aut(cmd::aut::AutCmd),
    /// Boolean networks: attractors of synchronous networks, model information, random networks.
    #[cfg(feature = "bn")]
    #[command(subcommand)]
    Bn(cmd::bn::BnCmd),
    /// Probabilistic models in the PRISM language: build, check PCTL/CSL properties.
    #[cfg(feature = "prism")]
    #[command(subcommand)]
    Prism(cmd::prism::PrismCmd),
    /// Timed automata (TChecker .tck): zone-graph reachability of location labels, timed traces.
    #[cfg(feature = "ta")]
    #[command(subcommand)]
    Ta(cmd::ta::TaCmd),
    /// Explicit-state model checking of DVE (DiVinE/BEEM) models: state spaces, deadlocks,
    /// assertions, LTL by nested DFS.
    #[cfg(feature = "mc")]
    #[command(subcommand)]
    Mc(cmd::mc::McCmd),
    /// C programs (SV-COMP conventions): unreach-call by IMPACT and bounded model checking, CFA, CHC.
    #[cfg(feature = "prog")]
    #[command(subcommand)]
    Prog(cmd::prog::ProgCmd),
    /// Hardware model checking of AIGER circuits (.aag/.aig): BMC, k-induction, IC3/PDR.
    #[cfg(feature = "aig")]
    #[command(subcommand)]
    Aig(cmd::aig::AigCmd),
    /// SAT: DIMACS CNF solving with DRAT proofs; unsatisfiable cores (Trimmer, MUS) of .cnf/.gcnf.
    #[cfg(feature = "sat")]
    Sat(cmd::sat::SatArgs),
    /// Reactive synthesis from LTL (TLSF, or -f with --ins/--outs): realizability, AIGER controllers.
    #[cfg(feature = "synt")]
    #[command(subcommand)]
    Synt(cmd::synt::SyntCmd),
    /// The web playground: a local HTTP server with a page per engine (LTL, SMT-LIB, NFA, PRISM,
    /// Boolean networks); the global `--timeout` (default 10 s) limits each request.
    #[cfg(feature = "serve")]
    Serve(cmd::serve::ServeArgs),
    /// Run one real example of every engine from files embedded in the binary.
    Demo,
}

fn dispatch(cmd: Cmd, ctx: &Ctx) -> Result<Output, CliError> {
    match cmd {
        #[cfg(feature = "nfa")]
        Cmd::Nfa(c) => cmd::nfa::run(c, ctx),
        #[cfg(feature = "smt")]
        Cmd::Smt(a) => cmd::smt::run(a, ctx),
        #[cfg(feature = "omega")]
        Cmd::Ltl(c) => cmd::ltl::run(c, ctx),
        #[cfg(feature = "omega")]
        Cmd::Aut(c) => cmd::aut::run(c, ctx),
        #[cfg(feature = "bn")]
        Cmd::Bn(c) => cmd::bn::run(c, ctx),
        #[cfg(feature = "prism")]
        Cmd::Prism(c) => cmd::prism::run(c, ctx),
        #[cfg(feature = "ta")]
        Cmd::Ta(c) => cmd::ta::run(c, ctx),
        #[cfg(feature = "mc")]
        Cmd::Mc(c) => cmd::mc::run(c, ctx),
        #[cfg(feature = "prog")]
        Cmd::Prog(c) => cmd::prog::run(c, ctx),
        #[cfg(feature = "aig")]
        Cmd::Aig(c) => cmd::aig::run(c, ctx),
        #[cfg(feature = "synt")]
        Cmd::Synt(c) => cmd::synt::run(c, ctx),
        #[cfg(feature = "serve")]
        Cmd::Serve(_) => Err(CliError::Internal("serve runs outside the watchdog".into())),
        #[cfg(feature = "sat")]
        Cmd::Sat(c) => cmd::sat::run(c, ctx),
        Cmd::Demo => demo::run(ctx),
    }
}

fn init_tracing(g: &Global) {
    use tracing::Level;
    let level = if g.quiet {
        Level::WARN
    } else {
        match g.verbose {
            0 => Level::INFO,
            1 => Level::DEBUG,
            _ => Level::TRACE,
        }
    };
    let _ = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        .with_target(false)
        .without_time()
        .try_init();
}

fn print_output(ctx: &Ctx, r: &Output) {
    if ctx.json {
        emit(&format!("{}\n", r.to_json()));
    } else {
        let t = &r.text;
        if !t.is_empty() {
            if t.ends_with('\n') {
                emit(t);
            } else {
                emit(&format!("{t}\n"));
            }
        }
    }
}

fn usage_exit(msg: &str) -> ! {
    eprintln!("error: {msg}");
    std::process::exit(report::EXIT_INPUT);
}

/// How long after the deadline the watchdog waits for an engine to stop by itself.
const GRACE: Duration = Duration::from_millis(500);

fn main() {
    let cli = Cli::parse();
    init_tracing(&cli.global);
    let tables = param_tables();
    if cli.global.help_params {
        let mut out = String::from("Tuning parameters (-x KEY=VALUE):\n");
        for (engine, table) in &tables {
            out.push_str(&format!("{engine}:\n"));
            for p in table.iter() {
                out.push_str(&format!("{p}\n"));
            }
        }
        if tables.is_empty() {
            out.push_str("  (none)\n");
        }
        emit(&out);
        std::process::exit(EXIT_OK);
    }
    let Some(cmd) = cli.cmd else {
        usage_exit("a subcommand is required (try `verikit --help`)");
    };
    if let Some(t) = cli.global.timeout {
        if !(t.is_finite() && t > 0.0) {
            usage_exit("--timeout must be a positive number of seconds");
        }
    }
    #[cfg(feature = "serve")]
    if let Cmd::Serve(args) = &cmd {
        std::process::exit(cmd::serve::run(args, cli.global.timeout));
    }
    let params = Params::parse(&cli.global.params).unwrap_or_else(|e| usage_exit(&e));
    let known: Vec<&[Param]> = tables.iter().map(|(_, t)| *t).collect();
    if let Err(e) = params.validate(&known) {
        usage_exit(&e);
    }
    let start = Instant::now();
    let ctx = Ctx {
        json: cli.global.json,
        quiet: cli.global.quiet,
        timeout: cli.global.timeout,
        budget: Budget::from_secs(cli.global.timeout),
        params,
        start,
        sink: Default::default(),
    };
    // The command runs on a worker thread with a large stack; the main thread is the watchdog:
    // at the deadline every engine sees the budget run out and returns what it has; if one does
    // not within GRACE, the watchdog prints the batch items computed so far and exits.
    let (tx, rx) = std::sync::mpsc::channel();
    let wctx = ctx.clone();
    let spawned = std::thread::Builder::new()
        .name("verikit-worker".into())
        .stack_size(512 << 20)
        .spawn(move || {
            let r = dispatch(cmd, &wctx);
            let _ = tx.send(r);
        });
    if let Err(e) = spawned {
        eprintln!("internal error: cannot start worker thread: {e}");
        std::process::exit(EXIT_INTERNAL);
    }
    let display = progress::Display::start(ctx.budget.progress(), ctx.quiet, cli.global.verbose);
    let wait = ctx.budget.remaining().and_then(|r| r.checked_add(GRACE));
    let outcome = match wait {
        Some(w) => rx.recv_timeout(w).map_err(|e| match e {
            std::sync::mpsc::RecvTimeoutError::Timeout => true,
            std::sync::mpsc::RecvTimeoutError::Disconnected => false,
        }),
        None => rx.recv().map_err(|_| false),
    };
    // An engine that honours the budget stops with a resource-limit error at the deadline:
    // report it as the timeout it is.
    let deadline_passed = ctx.deadline().is_some_and(|d| Instant::now() >= d);
    display.stop();
    let outcome = match outcome {
        Ok(Err(e)) if deadline_passed && failure_exit(&e) == EXIT_LIMIT => Err(true),
        other => other,
    };
    let code = match outcome {
        Ok(Ok(r)) => {
            print_output(&ctx, &r);
            report::exit_code(&r)
        }
        Ok(Err(e)) => {
            if ctx.json {
                let verdict = if failure_exit(&e) == EXIT_LIMIT {
                    "resource-limit"
                } else {
                    "error"
                };
                emit(&format!(
                    "{}\n",
                    serde_json::json!({"verdict": verdict, "error": e.message()})
                ));
            }
            eprint!("{}", e.render());
            failure_exit(&e)
        }
        Err(true) => {
            ctx.budget.cancel();
            let t = ctx.timeout.unwrap_or_default();
            let done = ctx.sink.take();
            if ctx.json {
                let mut a = Answer::decision(Verdict::Timeout).detail("timeout_s", t);
                a.results = done;
                emit(&format!("{}\n", a.to_json()));
            } else {
                // Items already computed were printed as they finished.
                emit(&format!("timeout: no (further) answer within {t} s\n"));
            }
            EXIT_LIMIT
        }
        Err(false) => {
            // The worker panicked (its message is already on stderr).
            eprintln!("internal error (please report): the command crashed");
            EXIT_INTERNAL
        }
    };
    std::process::exit(code);
}
