//! The `verikit smt` task: runs a script read from a file (stopping at its first error) or
//! command by command from a reader (an interactive session, continuing after errors), and turns
//! the responses into the one [`Answer`]: verdict `true` for `sat`, `false` for `unsat`,
//! `unknown`/`timeout` otherwise, the SMT-LIB word under `"result"`, the model of the last
//! `sat` under `"witness"`, and — with `check` — every model and Farkas certificate verified.
//! The text of the answer is the SMT-LIB responses exactly, then `;` comment lines.

use crate::interp::{Interp, OnError, ResponseSink, RunOptions, ScriptOutput, Tuning};
use crate::smtlib::stream::CommandSplitter;
use std::io::BufRead;
use verikit_diag::{Answer, Budget, Diagnostic, Param, Params, Verdict};

/// The tuning parameters of the SMT engine (`-x key=value`).
pub const PARAMS: &[Param] = &[DIFFERENCE_LOGIC, DL_MATRIX_NODES];

const DIFFERENCE_LOGIC: Param = Param {
    name: "smt.difference-logic",
    default: "true",
    range: "true|false",
    doc: "decide checks whose atoms are all difference atoms by the difference-logic solver (false: always the simplex)",
};

const DL_MATRIX_NODES: Param = Param {
    name: "smt.dl-matrix-nodes",
    default: "600",
    range: "0..=100000",
    doc: "largest difference-logic graph (nodes) decided by the incremental all-pairs distance matrix (decision 0220)",
};

/// The solver tuning `params` ask for (unknown keys are the caller's to reject).
pub fn tuning(params: &Params) -> Result<Tuning, String> {
    Ok(Tuning {
        difference_logic: params.get(&DIFFERENCE_LOGIC)?,
        dl_matrix_nodes: params.get_in(&DL_MATRIX_NODES, 0, 100_000)?,
    })
}

/// What the `smt` command was asked for.
#[derive(Clone, Debug, Default)]
pub struct SmtTask {
    /// Verify every model and every theory conflict's Farkas certificate.
    pub check: bool,
    /// Print the solver's statistics after the responses.
    pub stats: bool,
    /// The time budget of the whole script.
    pub budget: Budget,
    /// Solver tuning (from `-x`, see [`PARAMS`] and [`tuning`]).
    pub tuning: Tuning,
}

/// How a script ended.
#[derive(Debug)]
pub enum Outcome {
    /// Every command ran (or the budget ran out: verdict `timeout`).
    Done(Answer),
    /// A command failed: the first error, located in the script; the answer holds the responses
    /// up to it (a file stops there; an interactive session went on).
    Failed(Answer, Box<Diagnostic>),
    /// `check` found an invalid model or certificate, or an answer contradicting `:status`.
    CheckFailed(Answer),
}

impl SmtTask {
    /// The interpreter for this task; `file`: the whole script comes from a file, so execution
    /// stops at the first error. `sink` receives each response as soon as it is produced.
    pub fn interp(&self, file: bool, sink: Option<ResponseSink>) -> Interp {
        let interp = Interp::new(RunOptions {
            check: self.check,
            budget: self.budget.clone(),
            on_error: if file {
                OnError::Stop
            } else {
                OnError::Continue
            },
            tuning: self.tuning,
        });
        match sink {
            Some(s) => interp.with_sink(s),
            None => interp,
        }
    }
}

/// Runs a whole script given as text, as a file is run (stopping at the first error), and
/// answers it: the entry point for callers that hold the script in memory (the web playground,
/// bindings).
pub fn run_text(task: &SmtTask, text: &str) -> Outcome {
    let t0 = std::time::Instant::now();
    let mut interp = task.interp(true, None);
    interp.feed(text);
    let out = interp.finish();
    answer(task, &out, t0.elapsed().as_secs_f64(), false)
}

/// Feeds `interp` command by command from `input` (each complete command runs as soon as its
/// line is read). Errors are I/O or encoding failures of the input, as text.
pub fn feed_reader(interp: &mut Interp, mut input: impl BufRead) -> Result<(), String> {
    let mut splitter = CommandSplitter::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = input
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        if n == 0 {
            break;
        }
        let text = std::str::from_utf8(&line).map_err(|e| {
            format!(
                "standard input is not UTF-8 text (byte {})",
                interp.text().len() + e.valid_up_to()
            )
        })?;
        if let Some(chunk) = splitter.push_line(text) {
            if !interp.feed(&chunk) {
                return Ok(());
            }
        }
    }
    if let Some(rest) = splitter.finish() {
        interp.feed(&rest);
    }
    Ok(())
}

fn verdict_of(word: &str) -> Verdict {
    match word {
        "sat" => Verdict::True,
        "unsat" => Verdict::False,
        _ => Verdict::Unknown,
    }
}

/// The answer to a finished script. `streamed`: the responses were already printed as they came
/// (the answer's text then holds only the `;` lines of `check`/`stats`).
pub fn answer(task: &SmtTask, out: &ScriptOutput, time_s: f64, streamed: bool) -> Outcome {
    let last = out.checks.last();
    let verdict = if out.timed_out {
        Verdict::Timeout
    } else {
        last.map_or(Verdict::Unknown, |c| verdict_of(&c.answer))
    };
    let mut a = Answer::decision(verdict)
        .detail("result", last.map_or("none", |c| c.answer.as_str()))
        .detail("responses", &out.responses)
        .detail("checks", &out.checks)
        .input("commands_answered", out.responses.len())
        .time("total_s", time_s);
    if let Some(r) = last.and_then(|c| c.reason.as_deref()) {
        a = a.detail("reason", r);
    }
    if let Some(m) = last.and_then(|c| c.model.as_ref()) {
        a = a.witness(m);
    }
    if let Some(st) = &out.status {
        a = a.detail("status", st);
    }
    if !streamed {
        for r in &out.responses {
            a = a.line(r);
        }
    }
    let mut check_ok = true;
    if task.check {
        for (i, c) in out.checks.iter().enumerate() {
            let model = match c.model_valid {
                Some(true) => "model valid",
                Some(false) => {
                    check_ok = false;
                    "MODEL INVALID"
                }
                None => "no model",
            };
            check_ok &= c.certificate_failures.is_empty();
            a = a.line(format!(
                "; check {}: {} — {model}, {} Farkas certificates verified, {} failed",
                i + 1,
                c.answer,
                c.certificates_checked,
                c.certificate_failures.len()
            ));
            for f in &c.certificate_failures {
                a = a.line(format!(";   certificate failure: {f}"));
            }
        }
        if let (Some(st), Some(last)) = (&out.status, last) {
            let decided = |w: &str| w == "sat" || w == "unsat";
            if decided(st) && decided(&last.answer) && *st != last.answer {
                check_ok = false;
                a = a.line(format!(
                    "; answer {} CONTRADICTS the script's :status {st}",
                    last.answer
                ));
            }
        }
    }
    if task.stats {
        a = stats_lines(a, out, time_s);
    }
    if let Ok(Some(m)) = serde_json::to_value(&out.stats).map(|v| v.as_object().cloned()) {
        for (k, v) in m {
            a = a.stat(&k, v);
        }
    }
    if out.timed_out {
        a = a.line("; timeout: the time limit was reached");
    }
    if let Some(d) = out.errors.first() {
        return Outcome::Failed(a.with_verdict(Verdict::Error), Box::new(d.clone()));
    }
    if !check_ok {
        return Outcome::CheckFailed(a.with_verdict(Verdict::Error));
    }
    Outcome::Done(a)
}

fn stats_lines(mut a: Answer, out: &ScriptOutput, time_s: f64) -> Answer {
    let s = &out.stats;
    a = a.line(format!(
        "; stats: decisions {} conflicts {} propagations {} theory-conflicts {} theory-propagations {} pivots {} branches {} cuts {} restarts {} atoms {} rows {} nonzeros {} eliminated {} time {time_s:.3}s",
        s.sat.decisions, s.sat.conflicts, s.sat.propagations, s.sat.theory_conflicts, s.sat.theory_propagations,
        s.pivots, s.branches, s.cuts, s.sat.restarts, s.atoms, s.rows, s.nonzeros, s.eliminated
    ));
    if s.cond_defs.cond_def_tables > 0 {
        a = a.line(format!(
            "; conditional definitions: tables {} affine {}",
            s.cond_defs.cond_def_tables, s.cond_defs.cond_def_affine
        ));
    }
    if s.rebuilds > 0 {
        a = a.line(format!(
            "; incremental: encoding rebuilt on pop {} times",
            s.rebuilds
        ));
    }
    if s.dl.dl_used {
        a = a.line(format!(
            "; difference logic: nodes {} edges {} relaxations {} conflicts {} searches {} skipped {} propagations {}",
            s.dl.dl_nodes, s.dl.dl_edges, s.dl.dl_relaxations, s.dl.dl_conflicts, s.dl.dl_searches, s.dl.dl_skipped, s.dl.dl_propagations
        ));
    }
    a
}
