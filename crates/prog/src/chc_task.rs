//! `verikit prog chc` as a library call: a CHC file → the clause automaton (`horn_cfa`) → IMPACT
//! for `sat` (its invariant at each predicate location is the model) and bounded model checking
//! for `unsat` (the marked values along the counterexample are the derivation) → both witnesses
//! checked by `horn_check` on the clauses as written → the `Answer`.

use crate::bmc::{check_bound, BmcResult};
use crate::error::ProgError;
use crate::horn::{read_horn, HornSystem};
use crate::horn_cfa::{horn_to_cfa, HornCfa};
use crate::horn_check::{check_chc_derivation, check_chc_model, define, ChcModel, ChcStep};
use crate::horn_inline::{inline, Inlined};
use crate::horn_slice::slice;
use crate::impact::{impact, ImpactResult};
use crate::mbp::Lit;
use crate::options::{Engine, VerifyOptions};
use crate::spacer::{spacer, SpacerOutcome};
use std::path::Path;
use verikit_diag::{Answer, Budget, Exhausted, SourceFile, Verdict};

fn unknown(reason: &str) -> Answer {
    Answer::decision(Verdict::Unknown)
        .detail("result", "unknown")
        .detail("reason", reason)
}

/// The name of argument `x` of `pred` in a definition (a `Bool` argument as 0/1).
fn arg_name(pred: &crate::horn::Pred, x: usize) -> String {
    match pred.bools.get(x) {
        Some(true) => format!("(ite |p!{x}| 1 0)"),
        _ => format!("|p!{x}|"),
    }
}

/// `(and …)` / `(or …)` of SMT-LIB texts (`empty` for none).
fn join(op: &str, items: Vec<String>, empty: &str) -> String {
    match items.len() {
        0 => empty.to_string(),
        1 => items.concat(),
        _ => format!("({op} {})", items.join(" ")),
    }
}

/// The interpretation of every predicate from IMPACT's invariant (`None` when an invariant
/// mentions something other than the predicate's own arguments).
fn model(sys: &HornSystem, h: &HornCfa, inv: &crate::Invariant) -> Option<ChcModel> {
    let mut defs = Vec::new();
    for (p, pred) in sys.preds.iter().enumerate() {
        let d = h.pred_loc.get(p).and_then(|&l| inv.get(l))?;
        let n = pred.bools.len();
        let name = |x: usize| arg_name(pred, x);
        let mut disj = Vec::new();
        for conj in d {
            if conj
                .iter()
                .any(|a| a.lin.coeffs.keys().any(|&x| x >= n || x >= h.slots))
            {
                return None;
            }
            disj.push(join(
                "and",
                conj.iter().map(|a| a.smt(&name)).collect(),
                "true",
            ));
        }
        defs.push(define(sys, p, &join("or", disj, "false")));
    }
    Some(ChcModel { defs })
}

/// The interpretation of every predicate of `sys` from the lemmas of `spacer` (each the
/// negation of a cube over the predicate's arguments); argument `x` of predicate `p` is
/// parameter `pos(p, x)` of `named[p]`.
fn lemma_bodies(
    named: &[crate::horn::Pred],
    cubes: &[Vec<Vec<Lit>>],
    pos: &dyn Fn(usize, usize) -> usize,
) -> Vec<String> {
    named
        .iter()
        .enumerate()
        .map(|(p, pred)| {
            let name = |x: usize| arg_name(pred, pos(p, x));
            let lemmas = cubes
                .get(p)
                .map(|cs| {
                    cs.iter()
                        .map(|c| {
                            let cube =
                                join("and", c.iter().map(|a| a.smt(&name)).collect(), "true");
                            format!("(not {cube})")
                        })
                        .collect()
                })
                .unwrap_or_default();
            join("and", lemmas, "true")
        })
        .collect()
}

/// The derivation encoded by the marked havoc values of a counterexample: per step the tag
/// (clause), the clause's variables and the derived fact.
fn derivation(sys: &HornSystem, values: &[i128]) -> Option<Vec<ChcStep>> {
    let mut it = values.iter().copied();
    let mut steps = Vec::new();
    while let Some(tag) = it.next() {
        let ci = usize::try_from(tag).ok()?;
        let c = sys.clauses.get(ci)?;
        let vars: Vec<i128> = it.by_ref().take(c.vars.len()).collect();
        let arity = c
            .head
            .as_ref()
            .and_then(|h| sys.preds.get(h.pred))
            .map(|p| p.bools.len())
            .unwrap_or(0);
        let fact: Vec<i128> = it.by_ref().take(arity).collect();
        if vars.len() != c.vars.len() || fact.len() != arity {
            return None;
        }
        steps.push(ChcStep {
            clause: ci,
            vars,
            fact,
        });
    }
    Some(steps)
}

/// Solves the CHC file at `path`.
pub fn solve_chc(path: &Path, opts: &VerifyOptions, budget: &Budget) -> Result<Answer, ProgError> {
    let src = SourceFile::read(path).map_err(|d| ProgError::Input(Box::new(d)))?;
    let text = src.text.clone();
    let b = budget.clone();
    let o = opts.clone();
    let a = crate::options::big_stack(move || solve_text(&text, &o, &b)).map_err(|e| match e {
        // A located error in the clauses is rendered against the file.
        ProgError::Input(d) if d.file.is_none() => ProgError::Input(Box::new(d.with_source(src))),
        e => e,
    })?;
    Ok(a.input("file", path.display().to_string()))
}

/// Solves CHC text (the clauses of one file).
pub fn solve_chc_text(
    text: &str,
    opts: &VerifyOptions,
    budget: &Budget,
) -> Result<Answer, ProgError> {
    let (t, o, b) = (text.to_string(), opts.clone(), budget.clone());
    crate::options::big_stack(move || solve_text(&t, &o, &b))
}

/// The answer with the result word first, as CHC-COMP solvers print it (`sat`, `unsat`,
/// `unknown` with its reason), then the model or the derivation.
fn solve_text(text: &str, opts: &VerifyOptions, budget: &Budget) -> Result<Answer, ProgError> {
    let mut a = solve_clauses(text, opts, budget)?;
    let word = a
        .detail
        .get("result")
        .and_then(|v| v.as_str())
        .unwrap_or("unknown")
        .to_string();
    let head = match a.detail.get("reason").and_then(|v| v.as_str()) {
        Some(r) if word == "unknown" => format!("unknown: {r}\n"),
        _ => format!("{word}\n"),
    };
    a.text.insert_str(0, &head);
    Ok(a)
}

/// SMT queries Spacer may spend on a linear system in the portfolio before IMPACT and BMC run.
const PORTFOLIO_QUERIES: u64 = 2_000;

/// Spacer's share of a time limit (of what is left on each clock) on a linear system in the
/// portfolio; IMPACT gets half of the rest and BMC what remains.
const SPACER_SHARE: f64 = 0.9;

/// A checked `sat` answer.
fn sat_answer(m: &ChcModel, engine: &str) -> Answer {
    let mut a = Answer::decision(Verdict::True)
        .detail("result", "sat")
        .detail("engine", engine)
        .detail(
            "proof",
            "model checked by the SMT solver against every clause as written",
        );
    for d in &m.defs {
        a = a.line(d);
    }
    a.witness(serde_json::json!({ "model": m.defs }))
}

/// A checked `unsat` answer: one line per derivation step.
fn unsat_answer(sys: &HornSystem, text: &str, steps: &[ChcStep], engine: &str) -> Answer {
    let mut a = Answer::decision(Verdict::False)
        .detail("result", "unsat")
        .detail("engine", engine)
        .detail(
            "proof",
            "derivation of false checked step by step by the SMT solver against the clauses as written",
        )
        .stat("steps", steps.len());
    for s in steps {
        let head = sys
            .clauses
            .get(s.clause)
            .and_then(|c| c.head.as_ref())
            .and_then(|h| sys.preds.get(h.pred))
            .map(|p| {
                let args: Vec<String> = s.fact.iter().map(|v| v.to_string()).collect();
                format!("{}({})", p.name, args.join(", "))
            })
            .unwrap_or_else(|| "false".into());
        let line = sys
            .clauses
            .get(s.clause)
            .map(|c| crate::horn::line_of(text, c.span.start))
            .unwrap_or(0);
        a = a.line(format!("clause {} (line {line}) ⊢ {head}", s.clause));
    }
    a.witness(serde_json::json!({ "derivation": steps }))
}

/// Which preprocessing runs before Spacer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Preprocess {
    /// Inline predicates defined by one clause (`horn_inline`).
    pub(crate) inline: bool,
    /// Drop unused arguments (`horn_slice`).
    pub(crate) slice: bool,
}

/// The `spacer` engine with its answer checked; `Err` is the reason it did not decide. Spacer
/// runs on the clauses after the preprocessing `pre`, and its model or derivation is
/// translated back to the clauses as written before the check.
pub(crate) fn run_spacer(
    sys: &HornSystem,
    text: &str,
    budget: &Budget,
    pre: Preprocess,
) -> Result<Answer, String> {
    let inl = pre.inline.then(|| inline(sys));
    let inner = inl.as_ref().map_or(sys, |i| &i.sys);
    let sl = pre.slice.then(|| slice(inner));
    let red = sl.as_ref().map_or(inner, |s| &s.sys);
    let stats = |mut a: Answer| {
        if let Some(i) = &inl {
            a = a.stat("inlined predicates", i.count());
        }
        if let Some(s) = &sl {
            a = a.stat("sliced arguments", s.count(inner));
        }
        a
    };
    let name = match (&inl, &sl) {
        (None, None) => "spacer".to_string(),
        _ => format!(
            "spacer (after inlining {} predicates and dropping {} arguments)",
            inl.as_ref().map_or(0, Inlined::count),
            sl.as_ref().map_or(0, |s| s.count(inner))
        ),
    };
    let outcome = spacer(red, text, budget);
    match outcome {
        Err(e) => Err(format!("{name}: {e}")),
        Ok(SpacerOutcome::Sat(cubes)) => {
            let pos = |p: usize, x: usize| sl.as_ref().and_then(|s| s.position(p, x)).unwrap_or(x);
            let bodies = lemma_bodies(&inner.preds, &cubes, &pos);
            let m = match &inl {
                Some(i) => i.model(sys, &bodies),
                None => ChcModel {
                    defs: (0..sys.preds.len())
                        .zip(&bodies)
                        .map(|(p, b)| define(sys, p, b))
                        .collect(),
                },
            };
            match check_chc_model(text, &m) {
                Ok(()) => Ok(stats(sat_answer(&m, "spacer"))),
                Err(why) => Err(format!("spacer model rejected by the checker: {why}")),
            }
        }
        Ok(SpacerOutcome::Unsat(steps)) => {
            let back =
                "spacer: the derivation could not be translated back through the preprocessing";
            let steps = match &sl {
                Some(s) => s.derivation(inner, &steps).ok_or(back)?,
                None => steps,
            };
            let steps = match &inl {
                Some(i) => i.derivation(sys, &steps).ok_or(back)?,
                None => steps,
            };
            match check_chc_derivation(text, &steps) {
                Ok(()) => Ok(stats(unsat_answer(sys, text, &steps, "spacer"))),
                Err(why) => Err(format!("spacer derivation rejected by the checker: {why}")),
            }
        }
        Ok(SpacerOutcome::Failed(why)) => Err(format!("{name}: {why}")),
        Ok(SpacerOutcome::Stopped(e, n, st)) => Err(format!(
            "{name}: {} at level {n} ({} lemmas, {} facts, {} queries)",
            e.verdict_word(),
            st.lemmas,
            st.facts,
            st.queries
        )),
    }
}

/// `unknown` (or `timeout` when the budget is spent) with a reason.
fn undecided(budget: &Budget, reason: String) -> Answer {
    let v = if budget.check().is_err() {
        Verdict::Timeout
    } else {
        Verdict::Unknown
    };
    Answer::decision(v)
        .detail("result", "unknown")
        .detail("reason", reason)
}

fn solve_clauses(text: &str, opts: &VerifyOptions, budget: &Budget) -> Result<Answer, ProgError> {
    let sys = match read_horn(text) {
        Ok(s) => s,
        Err(ProgError::Unsupported(why)) => return Ok(unknown(&why)),
        Err(e) => return Err(e),
    };
    let sizes = |a: Answer| {
        a.input("predicates", sys.preds.len())
            .input("clauses", sys.clauses.len())
    };
    let linear = match horn_to_cfa(&sys, text) {
        Ok(h) => Ok(h),
        Err(ProgError::Unsupported(why)) => Err(why),
        Err(e) => return Err(e),
    };
    let pre = Preprocess {
        inline: opts.preprocess,
        slice: opts.preprocess,
    };
    let mut spacer_note: Option<String> = None;
    if matches!(opts.engine, Engine::Spacer | Engine::Portfolio) {
        // In the portfolio a linear system keeps a tenth of the time for IMPACT and BMC, on
        // both clocks (wall-clock and CPU time); without either limit Spacer stops after
        // `PORTFOLIO_QUERIES` SMT queries instead.
        let limited = budget.remaining().is_some() || budget.cpu_deadline().is_some();
        let sub = match (opts.engine, &linear, limited) {
            (Engine::Portfolio, Ok(_), true) => budget.share(SPACER_SHARE, None),
            (Engine::Portfolio, Ok(_), false) => {
                budget.sub(None).with_work_limit(PORTFOLIO_QUERIES)
            }
            _ => budget.sub(None),
        };
        match run_spacer(&sys, text, &sub, pre) {
            Ok(a) => return Ok(sizes(a)),
            Err(why) => spacer_note = Some(why),
        }
    }
    let h = match linear {
        Ok(h) if opts.engine != Engine::Spacer => h,
        Ok(_) => return Ok(sizes(undecided(budget, spacer_note.unwrap_or_default()))),
        Err(why) => {
            let reason = match spacer_note {
                Some(n) => format!("{n}; {why}"),
                None => why,
            };
            return Ok(sizes(undecided(budget, reason)));
        }
    };
    let sizes = |a: Answer| {
        let a = sizes(a).stat("locations", h.cfa.nlocs);
        match &spacer_note {
            Some(n) => a.detail("spacer", n.clone()),
            None => a,
        }
    };
    let mut note: Option<String> = None;
    if opts.engine != Engine::Bmc {
        let sub = match opts.engine {
            Engine::Portfolio => budget.share(0.5, None),
            _ => budget.sub(None),
        };
        match impact(&h.cfa, &sub) {
            Ok(ImpactResult::Safe(inv)) => match model(&sys, &h, &inv) {
                Some(m) => match check_chc_model(text, &m) {
                    Ok(()) => return Ok(sizes(sat_answer(&m, "impact"))),
                    Err(why) => note = Some(format!("impact model rejected by the checker: {why}")),
                },
                None => note = Some(
                    "impact: an invariant mentions variables other than the predicate's arguments"
                        .into(),
                ),
            },
            Ok(ImpactResult::FeasiblePath) => {
                note = Some("impact: a derivation of false is feasible over the rationals".into())
            }
            Ok(ImpactResult::GaveUp(why)) => note = Some(format!("impact gave up: {why}")),
            Err(e) => note = Some(format!("impact: {}", e.verdict_word())),
        }
        if opts.engine == Engine::Impact {
            return Ok(sizes(undecided(budget, note.unwrap_or_default())));
        }
    }
    let with_note = |a: Answer| match &note {
        Some(n) => a.detail("impact", n.clone()),
        None => a,
    };
    let mut k = 1usize;
    let mut reached = 0usize;
    loop {
        match check_bound(&h.cfa, k, budget) {
            Err(e) => {
                let v = if e == Exhausted::Cancelled || e == Exhausted::Timeout {
                    Verdict::Timeout
                } else {
                    Verdict::Unknown
                };
                let a = Answer::decision(v)
                    .detail("result", "unknown")
                    .detail(
                        "reason",
                        format!(
                            "{}; no derivation of false up to bound {reached}",
                            e.verdict_word()
                        ),
                    )
                    .stat("bound", reached);
                return Ok(with_note(sizes(a)));
            }
            Ok(BmcResult::Counterexample(values, bound, _)) => {
                let Some(steps) = derivation(&sys, &values) else {
                    return Ok(with_note(sizes(unknown(
                        "bounded model checking found a derivation whose values could not be read back",
                    ))));
                };
                if let Err(why) = check_chc_derivation(text, &steps) {
                    return Ok(with_note(sizes(unknown(&format!(
                        "derivation rejected by the checker: {why}"
                    )))));
                }
                let a = unsat_answer(&sys, text, &steps, "bmc").stat("bound", bound);
                return Ok(with_note(sizes(a)));
            }
            Ok(BmcResult::Safe) => {
                // The clause graph is acyclic (unwound completely): Spacer's levels are bounded
                // by its depth, so with the rest of the budget it gives the model, checked like
                // every other. It gets as many queries as in the portfolio (CI's demo inputs
                // stay quick); when they run out the `sat` stands without a model and says so.
                let sub = budget.sub(None).with_work_limit(PORTFOLIO_QUERIES);
                let a = match run_spacer(&sys, text, &sub, pre) {
                    Ok(m) => m
                        .detail("engine", "bmc")
                        .detail("proof", format!("complete unwinding: at bound {k} no derivation of false exists and the clause graph is unwound completely; the model (spacer on the acyclic clause graph) checked by the SMT solver against every clause as written")),
                    Err(why) => Answer::decision(Verdict::True)
                        .detail("result", "sat")
                        .detail("engine", "bmc")
                        .detail("proof", format!("complete unwinding: at bound {k} no derivation of false exists and the clause graph is unwound completely (no model: {why})")),
                };
                return Ok(with_note(sizes(a.stat("bound", k))));
            }
            Ok(BmcResult::Bounded { .. }) => {
                reached = k;
                if k >= opts.max_bound {
                    let a = unknown(&format!(
                        "no derivation of false up to bound {k} (prog.max-bound), and the unwinding is not complete"
                    ))
                    .stat("bound", k);
                    return Ok(with_note(sizes(a)));
                }
                k = (k * 2).min(opts.max_bound);
            }
        }
    }
}
