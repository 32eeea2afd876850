//! `verikit aig ste`: symbolic trajectory evaluation of `.ste` assertions on an AIGER circuit,
//! with the refinement loop of either STAR (Roorda, Claessen, CAV'06 C19) or AutoSTE (Tzoref,
//! Grumberg, CAV'06 C20) and C20's vacuity detection. The algorithms (`ste`, `star`, `autoste`,
//! `ste_vacuity`) never import this module.
//!
//! Per assertion: STE in BDDs (`ste`). A real counter-model is concretised by SAT
//! (`ste_vacuity::concrete_run`, C20 §5) and replayed by `verikit-aiger`'s simulator
//! ([`replay_ste`]); when no concrete run exists the STE counterexample is spurious (§5
//! "fails vacuously"). An X result (the consequent wants 0/1 where the simulation has X) is
//! refined: fresh symbolic variables on chosen leaves (inputs at a time, latches at time 0),
//! guarded so the assertion's meaning is kept (C20 Theorem 1), until it holds, fails, or the
//! refinement budget is spent. A pass is checked for vacuity (C20 §5) when the antecedent
//! constrains internal nodes.

use crate::autoste;
use crate::star::{weakest_strengthening, Mode};
use crate::ste::ste;
use crate::ste_parse::{Assertion, SteFile};
use crate::ste_replay::replay_ste;
use crate::ste_sim::{resolve, var_name, Leaf, Resolved, VarAtom};
use crate::ste_vacuity::{concrete_run, ConcreteRun, Goal};
use std::collections::BTreeMap;
use verikit_aiger::{Aig, Kind};
use verikit_bdd::{to_expr, BddValuation, Limits};
use verikit_diag::{Answer, Budget, Diagnostic, Exhausted, Param, Params, Verdict};
use verikit_logic::BoolExpr;

/// The refinement scheme for X results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Refine {
    /// Report the X result (STE's "unknown").
    #[default]
    None,
    /// STAR (C19): the leaves of a weakest satisfying (else contradicting) strengthening.
    Star,
    /// AutoSTE (C20 §4): relevant inputs of the easiest undecided node.
    Tg,
}

/// Options of `verikit aig ste`.
#[derive(Clone, Debug)]
pub struct SteOptions {
    pub refine: Refine,
    pub max_refinements: usize,
    pub tg_inputs: usize,
}

impl Default for SteOptions {
    fn default() -> Self {
        SteOptions {
            refine: Refine::None,
            max_refinements: 64,
            tg_inputs: 1,
        }
    }
}

/// The `-x ste.*` tuning parameters.
pub const STE_PARAMS: &[Param] = &[
    Param {
        name: "ste.refine",
        default: "none",
        range: "none|star|tg",
        doc: "STE: refinement of X results (none, STAR's strengthenings C19, Tzoref-Grumberg C20)",
    },
    Param {
        name: "ste.max-refinements",
        default: "64",
        range: "0..=100000",
        doc: "STE: refinement iterations before answering unknown",
    },
    Param {
        name: "ste.tg-inputs",
        default: "1",
        range: "1..=1000",
        doc: "STE, tg refinement: inputs made symbolic per iteration (the paper uses 1)",
    },
];

impl SteOptions {
    /// Reads the `-x ste.*` parameters.
    pub fn with_params(mut self, p: &Params) -> Result<Self, String> {
        let [r, m, k] = [0, 1, 2].map(|i| &STE_PARAMS[i]);
        if let Some(v) = p.raw(r.name) {
            self.refine = match v {
                "none" => Refine::None,
                "star" => Refine::Star,
                "tg" => Refine::Tg,
                _ => return Err(format!("-x {}: expected none, star or tg", r.name)),
            };
        }
        self.max_refinements = p.get_in(m, 0, 100_000)?;
        self.tg_inputs = p.get_in(k, 1, 1000)?;
        Ok(self)
    }
}

/// The result for one assertion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SteOutcome {
    /// The assertion holds. `vacuous`: no concrete run satisfies the antecedent where the
    /// consequent requires something (C20 §5); `spurious`: STE found a counter-model but no
    /// concrete run realises it; `antecedent_failure`: ⊥ for some valuations.
    Holds {
        vacuous: bool,
        spurious: bool,
        antecedent_failure: bool,
    },
    /// A concrete counterexample, replayed.
    Fails {
        run: ConcreteRun,
        violated: Vec<String>,
    },
    /// X: the simulation leaves consequent nodes undecided (STE's inconclusive case).
    Unknown {
        valuation: Vec<bool>,
        undecided: Vec<String>,
        reason: String,
    },
    /// An internal error (a counterexample that does not replay).
    Error(String),
}

/// One assertion's outcome, with the refinements made.
#[derive(Clone, Debug)]
pub struct SteReport {
    pub name: String,
    pub outcome: SteOutcome,
    /// One line per refinement step: which leaves became which fresh variables.
    pub refinements: Vec<String>,
    pub iterations: usize,
}

/// Checks one assertion.
pub fn ste_assertion(
    aig: &Aig,
    a: &Assertion,
    opts: &SteOptions,
    budget: &Budget,
) -> Result<Result<SteReport, Exhausted>, Diagnostic> {
    let r0 = resolve(a, aig)?;
    Ok(refine_loop(aig, a, &r0, opts, budget))
}

fn refine_loop(
    aig: &Aig,
    a: &Assertion,
    r0: &Resolved,
    opts: &SteOptions,
    budget: &Budget,
) -> Result<SteReport, Exhausted> {
    let kinds = aig.kinds();
    let mut r = r0.clone();
    let mut names = a.vars.clone();
    let mut fresh: BTreeMap<Leaf, u32> = BTreeMap::new();
    let mut log = Vec::new();
    let report = |outcome, log, iterations| SteReport {
        name: a.name.clone(),
        outcome,
        refinements: log,
        iterations,
    };
    // A pass: vacuous when no valuation escapes ⊥ where the consequent requires something, or
    // (antecedent on internal nodes) when no concrete run satisfies the antecedent there.
    let holds = |run: &crate::ste::SteRun, spurious: bool| -> Result<SteOutcome, Exhausted> {
        let internal = r0.ante.iter().any(|x| !is_leaf(&kinds, x));
        let vacuous = if run.traj.bottom.not().and(&run.required).is_false() {
            true
        } else if internal {
            concrete_run(aig, r0, Goal::Requirement, budget)?.is_none()
        } else {
            false
        };
        Ok(SteOutcome::Holds {
            vacuous,
            spurious,
            antecedent_failure: !run.traj.bottom.is_false(),
        })
    };
    for iter in 0.. {
        budget.check()?;
        let run = ste(aig, &r, budget)?;
        if !run.fail.is_false() {
            // A real counter-model needs a concrete run; without one no concrete run violates
            // the assertion at all (the search is complete for its depth): it holds, and the
            // STE counterexample was spurious (C20 §5).
            let outcome = match concrete_run(aig, r0, Goal::Violation, budget)? {
                Some(c) => match replay_ste(aig, a, &c) {
                    Ok(violated) => SteOutcome::Fails { run: c, violated },
                    Err(e) => SteOutcome::Error(format!("the counterexample does not replay: {e}")),
                },
                None => holds(&run, true)?,
            };
            return Ok(report(outcome, log, iter));
        }
        if run.incomplete.is_false() {
            return Ok(report(holds(&run, false)?, log, iter));
        }
        let phi_full = run
            .incomplete
            .sat_witness()
            .map(BddValuation::into_vector)
            .unwrap_or_default();
        let undecided: Vec<String> = run
            .undecided
            .iter()
            .filter(|(_, x)| eval(x, &phi_full))
            .map(|((t, v), _)| format!("{}@{t}", var_name(aig, &kinds, *v)))
            .collect();
        let unknown = |reason: String, log| {
            report(
                SteOutcome::Unknown {
                    valuation: phi_full.iter().take(a.vars.len()).copied().collect(),
                    undecided: undecided.clone(),
                    reason,
                },
                log,
                iter,
            )
        };
        if opts.refine == Refine::None {
            return Ok(unknown("X in the consequent's nodes".into(), log));
        }
        if iter >= opts.max_refinements {
            return Ok(unknown(
                format!("still X after {iter} refinements (-x ste.max-refinements)"),
                log,
            ));
        }
        // Leaves to make symbolic, each with the condition under which to do so.
        let mut add: Vec<(Leaf, BoolExpr)> = Vec::new();
        match opts.refine {
            Refine::None => {}
            Refine::Star => {
                let cands: Vec<Leaf> = crate::ste_sim::leaves(aig, r.depth)
                    .into_iter()
                    .filter(|l| {
                        run.traj
                            .rails
                            .get(l.time)
                            .and_then(|fr| fr.get(l.var as usize))
                            .is_some_and(|x| !eval(&x.one, &phi_full) && !eval(&x.zero, &phi_full))
                    })
                    .collect();
                let gamma = match weakest_strengthening(
                    aig,
                    &r,
                    &phi_full,
                    &cands,
                    Mode::Satisfying,
                    budget,
                )? {
                    Some(g) => Some(g),
                    None => weakest_strengthening(
                        aig,
                        &r,
                        &phi_full,
                        &cands,
                        Mode::Contradicting,
                        budget,
                    )?,
                };
                match gamma {
                    Some(g) if !g.is_empty() => {
                        add = g.into_iter().map(|(l, _)| (l, BoolExpr::Const(true))).collect()
                    }
                    _ => {
                        return Ok(unknown(
                            "no strengthening under the X valuation (the antecedent has no trajectory there)".into(),
                            log,
                        ))
                    }
                }
            }
            Refine::Tg => {
                let Some(choice) = autoste::choose(aig, &run, opts.tg_inputs, budget)? else {
                    return Ok(unknown("no undecided node".into(), log));
                };
                for (leaf, rel) in choice.chosen {
                    // The paper's optimisation `relevant → in is v`; for large `relevant`
                    // BDDs the unguarded form (also meaning-preserving, Theorem 1).
                    let g = if rel.size() <= 200 {
                        to_expr(&rel, &Limits::new(Some(100_000), budget.clone()))
                            .unwrap_or(BoolExpr::Const(true))
                    } else {
                        BoolExpr::Const(true)
                    };
                    add.push((leaf, g));
                }
                log.push(format!(
                    "goal {}@{} ({} relevant inputs)",
                    var_name(aig, &kinds, choice.goal.1),
                    choice.goal.0,
                    choice.relevant_inputs
                ));
                if add.is_empty() {
                    return Ok(unknown("no relevant input to refine".into(), log));
                }
            }
        }
        let mut step = Vec::new();
        for (leaf, cond) in add {
            let next = names.len() as u32;
            let v = *fresh.entry(leaf).or_insert(next);
            if v == next {
                names.push(format!(
                    "v_{}_{}",
                    var_name(aig, &kinds, leaf.var),
                    leaf.time
                ));
            }
            // p: where the written antecedent does not constrain the leaf (C20 §3).
            let constrained: Vec<BoolExpr> = r0
                .ante
                .iter()
                .filter(|x| x.time == leaf.time && x.var == leaf.var)
                .map(|x| x.guard.clone())
                .collect();
            let p = if constrained.is_empty() {
                BoolExpr::Const(true)
            } else {
                BoolExpr::not(BoolExpr::Or(constrained))
            };
            step.push(format!(
                "{}@{} is {}",
                var_name(aig, &kinds, leaf.var),
                leaf.time,
                names.get(v as usize).cloned().unwrap_or_default()
            ));
            r.ante.push(VarAtom {
                var: leaf.var,
                time: leaf.time,
                guard: crate::ste_parse::and(p, cond),
                value: BoolExpr::Var(v),
            });
        }
        log.push(format!("refine: {}", step.join(", ")));
        r.nvars = names.len();
    }
    Err(Exhausted::Cancelled)
}

fn eval(b: &verikit_bdd::Bdd, phi: &[bool]) -> bool {
    if phi.is_empty() {
        return b.is_true();
    }
    b.eval_in(&BddValuation::new(phi.to_vec()))
}

fn is_leaf(kinds: &[Kind], x: &VarAtom) -> bool {
    match kinds.get(x.var as usize) {
        Some(Kind::Input(_)) | Some(Kind::Const) => true,
        Some(Kind::Latch(_)) => x.time == 0,
        _ => false,
    }
}

/// `verikit aig ste`: every assertion of `file`, one result each; the verdict is `false` if one
/// fails, `unknown`/`timeout` if one is inconclusive, `true` if all hold.
pub fn ste_check(
    aig: &Aig,
    file: &SteFile,
    opts: &SteOptions,
    budget: &Budget,
) -> Result<Answer, Diagnostic> {
    let mut items = Vec::new();
    let mut first_cex = None;
    for a in &file.assertions {
        let rep =
            ste_assertion(aig, a, opts, budget).map_err(|d| d.with_source(file.source.clone()))?;
        if let (
            None,
            Ok(SteReport {
                outcome: SteOutcome::Fails { run, .. },
                ..
            }),
        ) = (&first_cex, &rep)
        {
            let mut w = run_json(a, run);
            w["assertion"] = a.name.clone().into();
            first_cex = Some(w);
        }
        items.push(assertion_answer(a, rep));
    }
    let verdict = Answer::combined_verdict(&items).unwrap_or(Verdict::True);
    let mut ans = Answer::decision(verdict)
        .input("inputs", aig.inputs.len())
        .input("latches", aig.latches.len())
        .input("ands", aig.ands.len())
        .input("assertions", file.assertions.len())
        .detail(
            "refine",
            match opts.refine {
                Refine::None => "none",
                Refine::Star => "star",
                Refine::Tg => "tg",
            },
        );
    if let Some(w) = first_cex {
        ans = ans.witness(w);
    }
    for it in items {
        ans.push_result(it);
    }
    Ok(ans)
}

/// Parses the `.ste` source and checks it ([`ste_check`]): what `verikit aig ste` calls.
pub fn ste_text(
    aig: &Aig,
    src: &verikit_diag::SourceFile,
    opts: &SteOptions,
    budget: &Budget,
) -> Result<Answer, Diagnostic> {
    let file = crate::ste_parse::parse_ste(&src.name, &src.text)?;
    ste_check(aig, &file, opts, budget)
}

fn bits(v: &[bool]) -> String {
    v.iter().map(|&b| if b { '1' } else { '0' }).collect()
}

/// A concrete run as JSON: the valuation by variable name, latch and input bit strings.
fn run_json(a: &Assertion, run: &ConcreteRun) -> serde_json::Value {
    let valuation: serde_json::Map<String, serde_json::Value> = a
        .vars
        .iter()
        .zip(&run.valuation)
        .map(|(n, &b)| (n.clone(), serde_json::Value::from(u8::from(b))))
        .collect();
    serde_json::json!({
        "valuation": valuation,
        "latches": bits(&run.latches),
        "inputs": run.inputs.iter().map(|f| bits(f)).collect::<Vec<_>>(),
    })
}

fn assertion_answer(a: &Assertion, rep: Result<SteReport, Exhausted>) -> Answer {
    let rep = match rep {
        Ok(r) => r,
        Err(why) => {
            return crate::outcome::exhausted_answer(&why, "assertion not decided")
                .detail("assertion", &a.name)
        }
    };
    let valuation = |v: &[bool]| -> serde_json::Value {
        a.vars
            .iter()
            .zip(v)
            .map(|(n, &b)| (n.clone(), serde_json::Value::from(u8::from(b))))
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    let base = |ans: Answer| {
        ans.detail("assertion", &a.name)
            .stat("refinements", rep.iterations)
            .detail("refinement_log", &rep.refinements)
    };
    match &rep.outcome {
        SteOutcome::Holds {
            vacuous,
            spurious,
            antecedent_failure,
        } => {
            let word = if *vacuous { "holds vacuously" } else { "holds" };
            base(
                Answer::decision(Verdict::True)
                    .detail("result", if *vacuous { "vacuous" } else { "holds" })
                    .detail("vacuous", vacuous)
                    .detail("spurious_counterexample", spurious)
                    .detail("antecedent_failure", antecedent_failure)
                    .line(format!("{}: {word}", a.name)),
            )
        }
        SteOutcome::Fails { run, violated } => base(
            Answer::decision(Verdict::False)
                .detail("result", "fails")
                .detail("violated", violated)
                .witness(run_json(a, run))
                .line(format!("{}: fails ({})", a.name, violated.join(", "))),
        ),
        SteOutcome::Error(e) => base(
            Answer::decision(Verdict::Error)
                .detail("error", e)
                .line(format!("{}: internal error: {e}", a.name)),
        ),
        SteOutcome::Unknown {
            valuation: v,
            undecided,
            reason,
        } => base(
            Answer::decision(Verdict::Unknown)
                .detail("result", "x")
                .detail("reason", reason)
                .detail("undecided", undecided)
                .detail("valuation", valuation(v))
                .line(format!(
                    "{}: unknown (X at {}): {reason}",
                    a.name,
                    undecided.join(", ")
                )),
        ),
    }
}
