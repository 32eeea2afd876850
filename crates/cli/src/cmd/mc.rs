//! `verikit mc`: explicit-state model checking of DVE (DiVinE) and Promela models.

use crate::report::{read_input, CliError, Ctx};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use verikit_diag::{Answer, Budget, SourceFile};
use verikit_explicit::{
    check_with, info_with, load_source, parse_ap_defs, Check, CycleAlgo, Engine, McOptions,
};

#[derive(Args, Debug, Default)]
pub struct Limits {
    /// Stop (exit 3, with the counts reached) beyond this many MiB of visited states.
    #[arg(long, value_name = "MIB")]
    max_memory: Option<usize>,
    /// Workers over a hash-partitioned state space (default 1: the sequential engines, with
    /// shortest traces and partial-order reduction).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Accepting-cycle algorithm (default: ndfs on one thread, owcty on several).
    #[arg(long, value_name = "ALGO", value_parser = clap::builder::PossibleValuesParser::new(CycleAlgo::NAMES))]
    algorithm: Option<String>,
}

fn engine(l: &Limits) -> Engine {
    Engine::from_options(l.threads.map(usize::from), l.algorithm.as_deref())
}

#[derive(Subcommand, Debug)]
pub enum McCmd {
    /// Check `--ltl φ`, `--deadlock` (none reachable) or `--assert`; by default the model's
    /// property process, else deadlocks. `true` = holds; `false` has a shortest trace or a lasso.
    Check {
        /// The model (`.dve`, or Promela `.pm`/`.pml`; `-` for standard input).
        model: PathBuf,
        /// LTL (Spot syntax) over `--ap` names or quoted DVE expressions: `G("P_0.cs" -> F "x>0")`.
        #[arg(long, conflicts_with_all = ["deadlock", "assert"])]
        ltl: Option<String>,
        /// A proposition of the formula: `NAME=DVE-EXPRESSION` (repeatable).
        #[arg(long = "ap", value_name = "NAME=EXPR", requires = "ltl")]
        aps: Vec<String>,
        /// Is a deadlock reachable?
        #[arg(long, conflicts_with = "assert")]
        deadlock: bool,
        /// Is an assertion violated?
        #[arg(long)]
        assert: bool,
        #[command(flatten)]
        limits: Limits,
    },
    /// Generate the whole state space: states, transitions, deadlocks, time, memory.
    Info {
        /// The model (`.dve`, or Promela `.pm`/`.pml`; `-` for standard input).
        model: PathBuf,
        #[command(flatten)]
        limits: Limits,
    },
}

fn budget(ctx: &Ctx, l: &Limits) -> Budget {
    let b = ctx.budget.clone();
    l.max_memory.map_or(b.clone(), |m| {
        b.with_memory_limit(m.saturating_mul(1 << 20))
    })
}

fn run_check(src: &SourceFile, q: Check, ctx: &Ctx, l: &Limits) -> Result<Answer, CliError> {
    let o = McOptions {
        engine: engine(l),
        ..McOptions::from_params(&ctx.params).map_err(CliError::Usage)?
    };
    let m = load_source(src).map_err(|d| CliError::from_error(d, Some(src)))?;
    check_with(&m, src, &q, &o, &budget(ctx, l)).map_err(|e| CliError::from_error(e, Some(src)))
}

pub fn run(cmd: McCmd, ctx: &Ctx) -> Result<Answer, CliError> {
    match cmd {
        McCmd::Check {
            model,
            ltl,
            aps,
            deadlock,
            assert,
            limits,
        } => {
            let src = read_input(&model)?;
            let defs = parse_ap_defs(&aps).map_err(CliError::Usage)?;
            let q = match (ltl, deadlock, assert) {
                (Some(formula), _, _) => Check::Ltl { formula, aps: defs },
                (None, true, _) => Check::Deadlock,
                (None, _, true) => Check::Assert,
                _ => Check::Default,
            };
            run_check(&src, q, ctx, &limits)
        }
        McCmd::Info { model, limits } => {
            let src = read_input(&model)?;
            let m = load_source(&src).map_err(|d| CliError::from_error(d, Some(&src)))?;
            info_with(&m, &src, &engine(&limits), &budget(ctx, &limits))
                .map_err(|e| CliError::from_error(e, Some(&src)))
        }
    }
}

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let src = SourceFile::new(
        "demo/mc/peterson2.dve",
        include_str!("../../demo/mc/peterson2.dve"),
    );
    let ltl = |f: &str| Check::Ltl {
        formula: f.into(),
        aps: Vec::new(),
    };
    [
        (
            "Peterson's algorithm, two processes: no deadlock",
            Check::Deadlock,
        ),
        (
            "Peterson: mutual exclusion",
            ltl("G !(\"P_0.cs\" && \"P_1.cs\")"),
        ),
        (
            "Peterson: P_0 may stay idle, G(P_0.idle -> F P_0.cs) fails",
            ltl("G(\"P_0.idle\" -> F \"P_0.cs\")"),
        ),
    ]
    .into_iter()
    .map(|(t, q)| Ok((t.to_string(), run_check(&src, q, ctx, &Limits::default())?)))
    .collect()
}
