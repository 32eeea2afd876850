//! Liveness and LTL properties of a circuit, as `verikit aig check --justice N | --ltl φ` asks
//! them: the lasso search of Heljanko et al. (CAV'06 C12 §3, `waba_bmc` on the automaton of
//! `vwaba`) finds counterexamples, liveness-to-safety (`l2s`) with IC3 or k-induction proves
//! justice properties and, on the product with a monitor of `¬φ`'s Büchi automaton (`monitor`),
//! LTL properties, and every answer is checked before it is reported — a lasso is replayed on
//! the circuit by `verikit-aiger`'s simulator (justice: every literal 1 on the loop; LTL: the
//! lasso word, evaluated by `verikit-omega`'s direct LTL evaluator, violates the formula), an
//! invariant of the liveness-to-safety circuit is re-checked by SAT.

use crate::certify::check_invariant;
use crate::coi_reduce::{reduce_for, Keep};
use crate::ic3::{ic3, Ic3Options};
use crate::kind::kind;
use crate::l2s::{l2s, lasso_of};
use crate::ltl_formula::{justice_violation, parse_ltl, Ltl, LtlProperty};
use crate::monitor::{product, MAX_APS};
use crate::outcome::{exhausted_answer, Outcome, Proof};
use crate::vwaba::vwaba;
use crate::waba_bmc::{waba_bmc, LassoOutcome};
use std::time::Duration;
use verikit_aiger::{replay_lasso, Aig, Sim, Ternary, Witness};
use verikit_diag::{Answer, Budget, Diagnostic, Verdict};
use verikit_omega::{holds, Lasso as Word};
use verikit_omega::{translate, TranslateOptions};

/// A liveness property of a circuit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Liveness {
    /// AIGER justice property `N` (with the circuit's fairness constraints): some fair run must
    /// not visit every literal of the justice set infinitely often.
    Justice(usize),
    /// An LTL formula (Spot syntax) over the circuit's inputs, latches, outputs, bad and
    /// constraint literals, by symbol name or as `iN`, `lN`, `oN`, `bN`, `cN`.
    Ltl(String),
}

/// The engine choice for a liveness property.
#[derive(Clone, Copy, Debug)]
pub(crate) enum LiveEngine {
    /// Lasso BMC only.
    Bmc,
    /// k-induction on the liveness-to-safety circuit.
    Kind,
    /// IC3 on the liveness-to-safety circuit.
    Ic3,
    /// Lasso BMC for `share` of the time (at most `depth` frames), then IC3.
    Portfolio { share: u32, depth: usize },
}

/// Settings of [`check_live`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct LiveSettings {
    pub(crate) engine: LiveEngine,
    pub(crate) max_bound: Option<usize>,
    pub(crate) ic3: Ic3Options,
    pub(crate) simple_path: bool,
    /// Justice properties run on the circuit reduced for them.
    pub(crate) reduce: bool,
}

enum Prop {
    /// The fairness literals of `aig` (`fair`) and of the circuit the engines run on.
    Justice {
        fair: Vec<u32>,
        work_fair: Vec<u32>,
    },
    Ltl(Box<LtlProperty>),
}

/// The answer, the lasso of a `false` answer, and statistics.
pub(crate) type LiveResult = (Answer, Option<Witness>, Vec<(String, String)>);

/// Decides a liveness property; the answer and, for `false`, the lasso witness. A formula that
/// does not parse or names an unknown proposition is an error.
pub(crate) fn check_live(
    aig: &Aig,
    what: &Liveness,
    set: &LiveSettings,
    budget: &Budget,
) -> Result<LiveResult, Diagnostic> {
    // a justice property runs on the circuit reduced for it (constants, cone of influence); its
    // lassos are lifted to `aig` and replayed there, its invariants are of `l2s` of that circuit
    let reduced = match (what, set.reduce) {
        (Liveness::Justice(j), true) => reduce_for(aig, Keep::Justice(*j), budget).ok().flatten(),
        _ => None,
    };
    let work: &Aig = reduced.as_ref().map_or(aig, |r| &r.aig);
    let (negated, prop, tag): (Ltl, Prop, (char, usize)) = match what {
        Liveness::Justice(j) => {
            let (f, fair) = justice_violation(aig, *j).ok_or_else(|| {
                Diagnostic::error(format!(
                    "no justice property {j}: the circuit has {}",
                    aig.justice.len()
                ))
            })?;
            let (f, work_fair) = match reduced {
                Some(_) => justice_violation(work, 0).ok_or_else(|| {
                    Diagnostic::error("internal: the reduced circuit lost its justice property")
                })?,
                None => (f, fair.clone()),
            };
            (f, Prop::Justice { fair, work_fair }, ('j', *j))
        }
        Liveness::Ltl(text) => {
            let p = parse_ltl(aig, text)?;
            (p.negated.clone(), Prop::Ltl(Box::new(p)), ('j', 0))
        }
    };
    let aut = vwaba(&negated);
    let mut stats = vec![("automaton_states".to_string(), aut.states.len().to_string())];
    if let Some(r) = &reduced {
        stats.extend(r.stats());
    }
    let lasso_bmc = |b: &Budget, max: Option<usize>| match waba_bmc(work, &aut, tag, max, b) {
        LassoOutcome::Found(l) => Ok(l.witness),
        LassoOutcome::None(o) => Err(o),
    };
    let has_proof = !matches!(&prop, Prop::Ltl(p) if p.ap_lits.len() > MAX_APS);
    let prove = |b: &Budget, use_kind: bool| -> Result<Witness, (Outcome, Option<Box<Aig>>)> {
        let (circuit, fair) = match &prop {
            Prop::Justice { work_fair, .. } => (work.clone(), work_fair.clone()),
            Prop::Ltl(p) => {
                monitor_product(aig, p, b).map_err(|reason| (Outcome::Unknown { reason }, None))?
            }
        };
        let safe = l2s(&circuit, &fair);
        let o = if use_kind {
            kind(&safe, 0, set.simple_path, b)
        } else {
            ic3(&safe, 0, set.ic3, b).0
        };
        match o {
            Outcome::Unsafe { witness, depth } => Ok(lasso_of(work, &witness, tag, depth)),
            o => Err((o, Some(Box::new(safe)))),
        }
    };
    let mut engine = "waba-bmc";
    let result = match set.engine {
        LiveEngine::Bmc => lasso_bmc(budget, set.max_bound).map_err(|o| (o, None)),
        LiveEngine::Kind => {
            engine = "l2s-kind";
            prove(budget, true)
        }
        LiveEngine::Ic3 => {
            engine = "l2s-ic3";
            prove(budget, false)
        }
        LiveEngine::Portfolio { share, depth } => {
            let slice = match budget.remaining() {
                Some(r) => r.mul_f64(f64::from(share) / 100.0),
                None => Duration::from_secs(2),
            };
            match lasso_bmc(&budget.sub(Some(slice)), Some(depth)) {
                Ok(w) => Ok(w),
                Err(first) => {
                    let note = match &first {
                        Outcome::Exhausted { reached, .. } => reached.clone(),
                        Outcome::Unknown { reason } => reason.clone(),
                        _ => String::new(),
                    };
                    stats.push(("waba_bmc".into(), note));
                    if !has_proof {
                        Err((first, None))
                    } else {
                        engine = "l2s-ic3";
                        prove(budget, false)
                    }
                }
            }
        }
    };
    stats.push(("engine".into(), engine.into()));
    let result = match (result, &reduced, &prop) {
        (Ok(w), Some(r), Prop::Justice { work_fair, .. }) => {
            let lifted = (replay_lasso(work, &w, work_fair).ok())
                .and_then(|l| r.lift_lasso(aig, &w, l.loop_start));
            match lifted {
                Some(w) => Ok(w),
                // the latches outside the cone do not come back: search the whole circuit
                None => {
                    let whole = LiveSettings {
                        reduce: false,
                        ..*set
                    };
                    return check_live(aig, what, &whole, budget);
                }
            }
        }
        (result, _, _) => result,
    };
    let answer = match result {
        Ok(w) => {
            let replayed = match &prop {
                Prop::Justice { fair, .. } => replay_lasso(aig, &w, fair)
                    .map(|r| r.loop_start)
                    .map_err(|e| format!("the lasso does not replay: {e}")),
                Prop::Ltl(p) => ltl_lasso_violates(aig, p, &w),
            };
            match replayed {
                Ok(l) => {
                    let n = w.inputs.len();
                    let a = Answer::decision(Verdict::False)
                        .detail("result", "violated")
                        .detail("loop_start", l)
                        .detail("length", n)
                        .detail(
                            "replay",
                            format!("ok: frames {l}..{n} loop back to frame {l}"),
                        )
                        .witness(serde_json::json!({
                            "aiger": w.to_text(), "loop_start": l, "length": n
                        }))
                        .line(format!(
                            "violated: lasso of {n} frames looping back to frame {l} (replayed on the circuit)"
                        ));
                    return Ok((a, Some(w), stats));
                }
                Err(e) => internal(&e),
            }
        }
        Err((Outcome::Safe(proof), Some(safe))) => {
            let (cert, check, text) = match &proof {
                Proof::Invariant(cl) => (
                    serde_json::json!({ "invariant": cl, "circuit": "liveness-to-safety", "reduced": reduced.is_some() }),
                    check_invariant(&safe, 0, cl, &Budget::unlimited()),
                    format!("holds: inductive invariant of {} clauses of the liveness-to-safety circuit", cl.len()),
                ),
                Proof::KInduction { k } => (
                    serde_json::json!({ "k_induction": k, "circuit": "liveness-to-safety", "reduced": reduced.is_some() }),
                    Ok(()),
                    format!("holds: the liveness-to-safety circuit is {k}-inductive"),
                ),
            };
            match check {
                Ok(()) => Answer::decision(Verdict::True)
                    .detail("result", "holds")
                    .witness(cert)
                    .line(text),
                Err(e) => internal(&format!("the invariant failed its check: {e}")),
            }
        }
        Err((Outcome::Safe(_), None)) => internal("a proof without its circuit"),
        Err((Outcome::Unknown { reason }, _)) => Answer::decision(Verdict::Unknown)
            .detail("reason", &reason)
            .line(format!("unknown: {reason}")),
        Err((Outcome::Exhausted { why, reached }, _)) => exhausted_answer(&why, &reached),
        Err((Outcome::Unsafe { .. }, _)) => internal("unexpected safety counterexample"),
    };
    Ok((answer, None, stats))
}

/// The product of the circuit with a monitor of the automaton of `¬φ` and its justice literals.
fn monitor_product(aig: &Aig, p: &LtlProperty, b: &Budget) -> Result<(Aig, Vec<u32>), String> {
    let mut arena = p.arena.clone();
    let neg = arena.not(p.formula);
    let opts = TranslateOptions {
        budget: b.clone(),
        ..TranslateOptions::default()
    };
    let aut = translate(&mut arena, neg, &opts).map_err(|e| format!("LTL translation: {e}"))?;
    aut.require_gba("the monitor").map_err(|e| e.to_string())?;
    if aut.acc_false {
        return Ok((aig.clone(), vec![0]));
    }
    product(aig, &aut, p.arena.aps(), &p.ap_lits).ok_or_else(|| {
        format!("the automaton of the negated formula reads more than {MAX_APS} propositions")
    })
}

fn internal(e: &str) -> Answer {
    Answer::decision(Verdict::Error)
        .detail("error", format!("internal: {e}"))
        .line(format!("internal error: {e}"))
}

/// The independent check of an LTL counterexample: simulate the witness, find the frames whose
/// state equals the state after the last frame, and evaluate the formula on the lasso word of
/// each such loop; `Ok(l)` for a loop start whose word violates it.
pub(crate) fn ltl_lasso_violates(aig: &Aig, p: &LtlProperty, w: &Witness) -> Result<usize, String> {
    let mut sim = Sim::new(aig);
    let init: Vec<Ternary> = w.latches.iter().map(|&b| Ternary::from_opt(b)).collect();
    sim.set_latches(&init);
    let mut states = Vec::new();
    let mut letters = Vec::new();
    for (f, inp) in w.inputs.iter().enumerate() {
        states.push(sim.latches().iter().map(|t| t.lane(0)).collect::<Vec<_>>());
        let iv: Vec<Ternary> = inp.iter().map(|&b| Ternary::from_opt(b)).collect();
        sim.eval(&iv);
        if aig
            .constraints
            .iter()
            .any(|&c| sim.lit(c).lane(0) != Some(true))
        {
            return Err(format!("an invariant constraint is not 1 at frame {f}"));
        }
        let mut letter = 0u64;
        for (k, &l) in p.ap_lits.iter().enumerate() {
            match sim.lit(l).lane(0) {
                Some(true) => letter |= 1 << k,
                Some(false) => {}
                None => return Err(format!("proposition {k} is undetermined at frame {f}")),
            }
        }
        letters.push(letter);
        sim.step();
    }
    let last: Vec<Option<bool>> = sim.latches().iter().map(|t| t.lane(0)).collect();
    if last.iter().any(Option::is_none) {
        return Err("the state after the last frame is undetermined".into());
    }
    for (l, s) in states.iter().enumerate() {
        if *s != last {
            continue;
        }
        let word = Word {
            prefix: letters.get(..l).unwrap_or_default().to_vec(),
            cycle: letters.get(l..).unwrap_or_default().to_vec(),
        };
        if !holds(&p.arena, p.formula, &word) {
            return Ok(l);
        }
    }
    Err("no loop of the trace gives a word violating the formula".into())
}
