//! The `verikit prog` commands as library calls: the engine by name, the `-x prog.*` parameters
//! (`prog.wrap` included), counterexample replay in a private temporary directory removed
//! afterwards, and program errors as the one [`Failure`].

use crate::chc_task::solve_chc;
use crate::error::ProgError;
use crate::options::{Engine, VerifyOptions};
use crate::task::{dump_cfa, to_chc_text, to_smt_text, verify};
use std::path::{Path, PathBuf};
use verikit_diag::{Answer, Ctx, Failure};

/// Engine names of `--engine`.
pub const ENGINE_NAMES: &[&str] = &[
    "bmc",
    "impact",
    "cegar",
    "kind",
    "spacer",
    "summaries",
    "portfolio",
];

impl From<ProgError> for Failure {
    fn from(e: ProgError) -> Failure {
        Failure::from_error(e, None)
    }
}

fn engine(name: &str) -> Result<Engine, Failure> {
    Ok(match name {
        "bmc" => Engine::Bmc,
        "impact" => Engine::Impact,
        "cegar" => Engine::Cegar,
        "kind" => Engine::Kind,
        "spacer" => Engine::Spacer,
        "summaries" => Engine::Summaries,
        "portfolio" => Engine::Portfolio,
        e => return Err(Failure::Usage(format!("unknown engine `{e}`"))),
    })
}

/// `-x prog.wrap=true`: wrap the program (see the `prog.wrap` parameter).
fn wrap(ctx: &Ctx) -> bool {
    ctx.params
        .raw("prog.wrap")
        .is_some_and(|v| v == "true" || v == "1")
}

fn options(engine_name: &str, ctx: &Ctx) -> Result<VerifyOptions, Failure> {
    VerifyOptions::from_params(engine(engine_name)?, &ctx.params).map_err(Failure::Usage)
}

/// `verikit prog verify`: is `reach_error()` unreachable in the task or C file `input`?
/// A counterexample is replayed with gcc unless `no_replay`; an SV-COMP witness (YAML 2.0) is
/// written to `witness` when given.
pub fn verify_command(
    input: &Path,
    engine_name: &str,
    no_replay: bool,
    witness: Option<PathBuf>,
    ctx: &Ctx,
) -> Result<Answer, Failure> {
    let mut opts = options(engine_name, ctx)?;
    opts.witness = witness;
    if !no_replay {
        let dir = format!("verikit-replay-{}", std::process::id());
        opts.replay_dir = Some(std::env::temp_dir().join(dir));
    }
    // Under a CPU-time limit (`ulimit -t`) the budget has a CPU-time deadline, and the
    // portfolio's time shares are shares of CPU time.
    let a = verify(input, &opts, &ctx.budget);
    if let Some(d) = &opts.replay_dir {
        let _ = std::fs::remove_dir_all(d);
    }
    Ok(with_text(a?))
}

/// The text mode of a `verify` answer: the verdict, then the engine and what stands behind it
/// (the proof, the counterexample's nondeterministic values and their replay, or the reason).
fn with_text(a: Answer) -> Answer {
    if !a.text.is_empty() {
        return a;
    }
    let word = a.verdict.map_or("unknown", |v| v.as_str());
    let field = |k: &str| a.detail.get(k).and_then(|v| v.as_str()).map(str::to_string);
    let mut lines = vec![word.to_string()];
    if let Some(e) = field("engine") {
        lines.push(format!("engine: {e}"));
    }
    if let Some(p) = field("proof") {
        lines.push(format!("proof: {p}"));
    }
    let witness = a.witness.as_ref();
    if let Some(inv) = witness.and_then(|w| w.get("invariants")?.as_array()) {
        lines.push(format!(
            "invariants: {} locations (--json prints them)",
            inv.len()
        ));
    }
    if let Some(sums) = witness.and_then(|w| w.get("summaries")?.as_array()) {
        lines.push(format!(
            "summaries: {} functions (--json prints them)",
            sums.len()
        ));
    }
    if let Some(vals) = witness.and_then(|w| w.get("nondet")?.as_array()) {
        let vals: Vec<String> = vals
            .iter()
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
            .collect();
        lines.push(format!("nondet values: [{}]", vals.join(", ")));
    }
    if let Some(r) = field("replay") {
        lines.push(format!("replay: {r}"));
    }
    if let Some(r) = field("reason") {
        lines.push(format!("reason: {r}"));
    }
    lines.into_iter().fold(a, |a, l| a.line(l))
}

/// `verikit prog verify --dump-cfa`: the control-flow automaton as DOT.
pub fn cfa_command(input: &Path, ctx: &Ctx) -> Result<Answer, Failure> {
    Ok(Answer::new().line(dump_cfa(input, wrap(ctx))?))
}

/// `verikit prog to-chc`: the program as constrained Horn clauses.
pub fn to_chc_command(input: &Path, depth: usize, ctx: &Ctx) -> Result<Answer, Failure> {
    Ok(Answer::new().line(to_chc_text(input, wrap(ctx), depth)?))
}

/// `verikit prog to-smt`: the bounded model checking query at one bound as SMT-LIB.
/// Running out of `--timeout` while unwinding is a resource limit (exit 3).
pub fn to_smt_command(input: &Path, bound: usize, ctx: &Ctx) -> Result<Answer, Failure> {
    match to_smt_text(input, wrap(ctx), bound, &ctx.budget) {
        Ok(text) => Ok(Answer::new().line(text)),
        Err(e) => Err(match ctx.budget.check() {
            Err(limit) => Failure::Limit(limit.verdict_word().to_string()),
            Ok(()) => e.into(),
        }),
    }
}

/// `verikit prog chc`: linear Horn clauses solved, the model or derivation checked.
pub fn chc_command(input: &Path, engine_name: &str, ctx: &Ctx) -> Result<Answer, Failure> {
    if engine_name == "summaries" {
        return Err(Failure::Usage(
            "the summaries engine reads C programs (prog verify), not Horn clauses".into(),
        ));
    }
    // As in `verify`: under a CPU-time limit the portfolio's shares are shares of CPU time too.
    Ok(solve_chc(input, &options(engine_name, ctx)?, &ctx.budget)?)
}
