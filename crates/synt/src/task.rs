//! `verikit synt`: the orchestrator. A problem (a TLSF specification or an LTL formula with its
//! input/output partition) → its conjuncts (`compositional`, C06 §5) → the automata of `¬φ` (the
//! union of the conjuncts' negations) and of `φ` and of each conjunct (omega) → bounded games for
//! the system on `¬φ`'s automaton and for the environment on each conjunct's and on `φ`'s, bound
//! `k = 0, 1, 2, …` alternating between them until one side wins (C06 §4, the incremental
//! algorithm) → the winning strategy minimised, model-checked against an automaton of the whole
//! specification's forbidden behaviours (`model_check`), encoded as an AIGER circuit whose
//! simulation is compared with the machine → the [`Answer`]. A decomposed specification's parts
//! are solved so, and the composed circuit is checked part by part (`check_composed`). The
//! automata are translated once per specification (`Translations`), shared by the routes.

use crate::aig::{self, Circuit};
use crate::bounded::{Game, GameStats};
use crate::compositional;
use crate::dpa_game::{self, Colouring};
use crate::error::SyntError;
use crate::letters::Letters;
use crate::mealy::Machine;
use crate::model_check;
use crate::state_merging;
use crate::tlsf::{parse_tlsf, Semantics, Spec};
use std::time::{Duration, Instant};
use verikit_aiger::Aig;
use verikit_bdd::Bdd;
use verikit_diag::{Answer, Budget, Exhausted, Param, Params, Verdict};
use verikit_omega::{Arena, Twa, F};

pub const PARAMS: &[Param] = &[
    Param {
        name: "synt.max-bound",
        default: "16",
        range: "0..=100",
        doc: "largest counter bound k of the bounded games (then: unknown)",
    },
    Param {
        name: "synt.compositional",
        default: "1",
        range: "0..=1",
        doc:
            "1: split the guarantees into conjuncts (C06 §5); 0: translate the specification whole",
    },
    Param {
        name: "synt.max-positions",
        default: "300000",
        range: "1..=100000000",
        doc: "a bounded game gives up beyond this many positions (the parity game: three times as many vertices)",
    },
    Param {
        name: "synt.engine",
        default: "portfolio",
        range: "bounded|parity|portfolio",
        doc: "bounded: C06 bounded games; parity: deterministic parity automaton + parity-game solver; portfolio: the bounded games first, handing the CPU to the parity route at a bound (synt.yield-bound) or after a time (synt.parity-after), the first to decide wins",
    },
    Param {
        name: "synt.parity-solver",
        default: "zielonka",
        range: "zielonka|pp",
        doc: "the parity-game solver of the parity route: zielonka or pp (priority promotion; not faster on these games, decision 0803)",
    },
    Param {
        name: "synt.parity-after",
        default: "0.25",
        range: "0..=1",
        doc: "portfolio: the bounded games run alone for this fraction of the time left (of CPU time under a CPU limit; 2 s without a limit), then the parity route joins them (at once if they give up, never once they have won a game)",
    },
    Param {
        name: "synt.yield-bound",
        default: "1",
        range: "0..=101",
        doc: "portfolio: at the start of the first bound above this one the bounded games hand the CPU to the parity route and wait until it ends undecided (101: never)",
    },
    Param {
        name: "synt.merge-states",
        default: "1",
        range: "0..=1",
        doc: "1: merge machine states while the specification check passes, keep the smaller circuit (state_merging); 0: Moore minimisation only",
    },
    Param {
        name: "synt.decompose",
        default: "1",
        range: "0..=1",
        doc: "1: split the specification into parts over disjoint outputs, solve each, run the controllers side by side (decompose); 0: solve it whole",
    },
    Param {
        name: "synt.polarity",
        default: "1",
        range: "0..=1",
        doc: "1: fix propositions that occur with one polarity only to their owner's best constant before solving (polarity); 0: keep them",
    },
    Param {
        name: "synt.memin",
        default: "1",
        range: "0..=1",
        doc: "1: minimise the winner's Mealy machine by SAT with the answers the game leaves free (memin, MeMin), keep the smaller checked circuit; 0: Moore minimisation only",
    },
    Param {
        name: "synt.parity-turn",
        default: "1",
        range: "0..=1",
        doc: "portfolio: once handed the CPU, the parity route runs alone for this fraction of the time left (4 s without a limit), then the bounded games resume beside it (1: they wait until it ends)",
    },
    Param {
        name: "synt.parallel",
        default: "auto",
        range: "auto|0|1",
        doc: "portfolio: 1: both routes from the start, side by side (no turns); 0: turns; auto: side by side when the 1-minute load average leaves a core free for the second route",
    },
];

/// What to compute.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Only answer realizable/unrealizable (no controller circuit printed).
    pub realizability: bool,
    /// Also write the circuit to this file: binary AIGER when the name ends in `.aig`, ASCII
    /// (`aag`) otherwise.
    pub aiger_file: Option<std::path::PathBuf>,
}

/// A synthesis problem.
#[derive(Clone, Debug)]
pub struct Problem {
    pub formula: String,
    pub inputs: Vec<String>,
    pub outputs: Vec<String>,
    pub semantics: Semantics,
}

impl From<Spec> for Problem {
    fn from(s: Spec) -> Problem {
        Problem {
            formula: s.formula,
            inputs: s.inputs,
            outputs: s.outputs,
            semantics: s.semantics,
        }
    }
}

impl Problem {
    /// A formula with Spot `ltlsynt`'s partition rules: `--ins` and/or `--outs` (the other side
    /// is every remaining proposition of the formula).
    pub fn from_formula(
        formula: &str,
        ins: Option<Vec<String>>,
        outs: Option<Vec<String>>,
        semantics: Semantics,
    ) -> Result<Problem, SyntError> {
        let mut arena = Arena::new();
        let f = verikit_omega::task::parse_formula(formula, 0, &mut arena)
            .map_err(|e| SyntError::from(e).in_source("<formula>", formula))?;
        let aps: Vec<String> = arena
            .aps_of(f)
            .iter()
            .map(|&i| arena.ap_name(i).to_string())
            .collect();
        let (inputs, outputs) = match (ins, outs) {
            (Some(i), Some(o)) => (i, o),
            (Some(i), None) => {
                let o = aps.iter().filter(|a| !i.contains(a)).cloned().collect();
                (i, o)
            }
            (None, Some(o)) => {
                let i = aps.iter().filter(|a| !o.contains(a)).cloned().collect();
                (i, o)
            }
            (None, None) => {
                return Err(SyntError::Usage(
                    "give the inputs (--ins) or the outputs (--outs), or both".into(),
                ))
            }
        };
        if let Some(both) = inputs.iter().find(|x| outputs.contains(x)) {
            return Err(SyntError::Usage(format!(
                "`{both}` is both an input and an output"
            )));
        }
        let undeclared: Vec<&str> = aps
            .iter()
            .filter(|a| !inputs.contains(a) && !outputs.contains(a))
            .map(|s| s.as_str())
            .collect();
        if !undeclared.is_empty() {
            return Err(SyntError::Usage(format!(
                "the formula uses propositions that are neither inputs nor outputs: {}",
                undeclared.join(", ")
            )));
        }
        Ok(Problem {
            formula: formula.to_string(),
            inputs,
            outputs,
            semantics,
        })
    }
}

/// `verikit synt convert`: the formula and the partition, as syfco prints them.
pub fn convert(text: &str, budget: &Budget) -> Result<Answer, SyntError> {
    let s = parse_tlsf(text, budget)?;
    let ins = s.inputs.join(",");
    let outs = s.outputs.join(",");
    Ok(Answer::new()
        .detail("formula", &s.formula)
        .detail("ins", &ins)
        .detail("outs", &outs)
        .detail("semantics", s.semantics.as_str())
        .detail("strict", s.strict)
        .detail("target", s.target.as_str())
        .input("inputs", s.inputs.len())
        .input("outputs", s.outputs.len())
        .line(&s.formula)
        .line(format!("--ins={ins}"))
        .line(format!("--outs={outs}")))
}

/// The result of the games, before printing.
pub struct Solution {
    /// `Some(true)` realizable, `Some(false)` unrealizable, `None` undecided.
    pub realizable: Option<bool>,
    /// The checked circuit (the controller, or the environment's counter-strategy).
    pub circuit: Option<Aig>,
    pub machine_states: usize,
    pub bound: Option<u32>,
    pub positions: usize,
    pub product_states: usize,
    /// Why it is undecided.
    pub reason: Option<String>,
    /// The route that decided (`bounded` or `parity`; `mixed` when the parts of a decomposed
    /// specification were decided by both).
    pub engine: &'static str,
    /// The number of parts the specification was solved in (`decompose`; 1 when whole).
    pub parts: usize,
    /// The number of propositions fixed to a constant before solving (`polarity`).
    pub fixed: usize,
    /// With fixed propositions, how the circuit was checked against the original specification
    /// (`check_original`): `model-checked`, or `replayed` when that check ran out of its time
    /// share and the fixing was replayed instead; empty otherwise.
    pub polarity_check: &'static str,
    /// What the controller was model-checked against (`None` for a counter-strategy), to check
    /// it again inside a composed circuit.
    pub(crate) basis: Option<model_check::Basis>,
}

/// The automata translated so far, by formula text and state-based flag: shared by the
/// portfolio's two routes (both translate `¬φ`, and `φ` for the environment's games and the
/// parity route), so that a route taking over from the other does not translate again what it
/// has already translated.
#[derive(Clone, Default)]
struct Translations(std::sync::Arc<std::sync::Mutex<rustc_hash::FxHashMap<(String, bool), Twa>>>);

impl Translations {
    fn get(&self, key: &(String, bool)) -> Option<Twa> {
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        map.get(key).cloned()
    }

    /// The automaton of `f` (state-based Büchi when `sba`), translated unless already known.
    fn translate(
        &self,
        arena: &mut Arena,
        f: verikit_omega::F,
        sba: bool,
        budget: &Budget,
    ) -> Result<Twa, SyntError> {
        let key = (verikit_omega::ltl_to_string(arena, f), sba);
        if let Some(a) = self.get(&key) {
            return Ok(a);
        }
        let opts = verikit_omega::TranslateOptions {
            sba,
            redirect_merges: false,
            budget: budget.clone(),
            ..Default::default()
        };
        let a = verikit_omega::translate(arena, f, &opts)?;
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        map.insert(key, a.clone());
        Ok(a)
    }

    /// A transition-based Büchi automaton with at most one acceptance set (the game counts
    /// marked edges), degeneralised to state-based Büchi when the translation has more sets.
    fn one_set(
        &self,
        arena: &mut Arena,
        f: verikit_omega::F,
        budget: &Budget,
    ) -> Result<Twa, SyntError> {
        let tgba = self.translate(arena, f, false, budget)?;
        if tgba.num_sets <= 1 {
            Ok(tgba)
        } else {
            self.translate(arena, f, true, budget)
        }
    }
}

/// The two routes a problem can be solved by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Route {
    Bounded,
    Parity,
}

/// Solves a problem within `budget` with the engine `-x synt.engine` names (default: the
/// portfolio).
pub fn solve_problem(p: &Problem, params: &Params, budget: &Budget) -> Result<Solution, SyntError> {
    let polarity = params
        .get_in::<u32>(&PARAMS[9], 0, 1)
        .map_err(SyntError::Usage)?
        == 1;
    if polarity {
        let (q, fixed) = fix_polarities(p)?;
        if !fixed.is_empty() {
            tracing::info!(fixed = fixed.len(), "propositions fixed by polarity");
            let mut s = solve_decomposed(&q, params, budget)?;
            wire_constants(&mut s, p, &fixed)?;
            let (product, how) = check_original(p, &s, &fixed, budget)?;
            s.product_states += product;
            s.polarity_check = how;
            return Ok(s);
        }
    }
    solve_decomposed(p, params, budget)
}

/// The problem's formula, parsed into a new arena.
fn parse_problem(p: &Problem) -> Result<(Arena, F), SyntError> {
    let mut arena = Arena::new();
    let phi = verikit_omega::task::parse_formula(&p.formula, 0, &mut arena)
        .map_err(|e| SyntError::from(e).in_source("<formula>", &p.formula))?;
    Ok((arena, phi))
}

/// `p` with its single-polarity propositions fixed (`polarity`), and those (name, value).
fn fix_polarities(p: &Problem) -> Result<(Problem, Vec<(String, bool)>), SyntError> {
    let (mut arena, phi) = parse_problem(p)?;
    let outs: Vec<u32> = p.outputs.iter().map(|o| arena.ap_id(o)).collect();
    let (f, fixed) = crate::polarity::simplify(&mut arena, phi, &|i| outs.contains(&i));
    let q = Problem {
        formula: verikit_omega::ltl_to_string(&arena, f),
        ..p.clone()
    };
    let fixed = fixed
        .into_iter()
        .map(|(i, b)| (arena.ap_name(i).to_string(), b))
        .collect();
    Ok((q, fixed))
}

/// The propositions `polarity` fixed, wired as constants: in a controller its outputs fixed to
/// true, in a counter-strategy (whose outputs are the system's inputs) its inputs fixed to true
/// (the circuits give 0 for every proposition the solved formula did not mention).
fn wire_constants(
    s: &mut Solution,
    p: &Problem,
    fixed: &[(String, bool)],
) -> Result<(), SyntError> {
    s.fixed = fixed.len();
    let names = match s.realizable {
        Some(true) => &p.outputs,
        Some(false) => &p.inputs,
        None => return Ok(()),
    };
    let c = s
        .circuit
        .as_mut()
        .ok_or_else(|| SyntError::Internal("a decided problem without a circuit".into()))?;
    for (name, value) in fixed {
        if let Some(k) = names.iter().position(|x| x == name) {
            if let Some(slot) = c.outputs.get_mut(k) {
                if *slot != 0 {
                    return Err(SyntError::Internal(format!(
                        "{name} was fixed but the circuit drives it"
                    )));
                }
                *slot = u32::from(*value);
            }
        }
    }
    Ok(())
}

/// The circuit of a problem solved with propositions fixed by `polarity` (constants wired)
/// checked against the *original* specification `φ`. The circuit's own fixed signals (outputs
/// of a controller, inputs of a counter-strategy) must be those constants, so on its plays `φ`
/// equals `φ` with them substituted — exactly, not by an argument; the circuit is read back as a
/// machine (`cone_machine`) over that formula's propositions, the opponent's fixed ones
/// included, and model-checked (`model_check`) against an automaton of its forbidden behaviours
/// — for a controller `¬φ` (the union of the conjuncts' negations when `clause_cover` shows
/// they conjoin to `φ`, as the bounded route does), for a counter-strategy `φ`. That
/// translation can cost far more than the simplified formula's (the reason for fixing), so it
/// gets a quarter of the time left (2 s without a limit); past that — even past the deadline,
/// the replay being syntactic — the opponent's fixed
/// propositions are justified by replaying the fixing (`polarity::justified`: each one of a
/// single polarity when fixed, at its owner's best value). Returns the product states explored
/// and how the opponent's fixed propositions were checked.
fn check_original(
    p: &Problem,
    s: &Solution,
    fixed: &[(String, bool)],
    budget: &Budget,
) -> Result<(usize, &'static str), SyntError> {
    let (system, circuit) = match (s.realizable, &s.circuit) {
        (Some(r), Some(c)) => (r, c),
        (None, _) => return Ok((0, "")),
        (Some(_), None) => {
            return Err(SyntError::Internal(
                "a decided problem without a circuit".into(),
            ))
        }
    };
    let all_out = if system { &p.outputs } else { &p.inputs };
    let (mut arena, phi) = parse_problem(p)?;
    let outs: Vec<u32> = p.outputs.iter().map(|o| arena.ap_id(o)).collect();
    let mut own = Vec::new();
    for (name, value) in fixed {
        if let Some(k) = all_out.iter().position(|x| x == name) {
            if circuit.outputs.get(k) != Some(&u32::from(*value)) {
                return Err(SyntError::Internal(format!(
                    "polarity check failed: {name} is not wired to {}",
                    u32::from(*value)
                )));
            }
            own.push((arena.ap_id(name), *value));
        }
    }
    let ids: Vec<(u32, bool)> = fixed.iter().map(|(n, v)| (arena.ap_id(n), *v)).collect();
    let f = crate::polarity::substituted(&mut arena, phi, &own);
    let share = budget.share(0.25, Some(Duration::from_secs(2)));
    let checked = check_formula(p, &mut arena, f, system, circuit, &share);
    match checked {
        Ok(product) => Ok((product, "model-checked")),
        Err(SyntError::Exhausted(_) | SyntError::Limit(_)) => {
            // The replay is syntactic (rounds of polarities over the formula, no automaton), so
            // it runs even when the whole budget has run out: a decided problem is answered.
            if budget.is_cancelled() {
                return Err(SyntError::Exhausted(Exhausted::Cancelled));
            }
            let is_out = |i: u32| outs.contains(&i);
            if crate::polarity::justified(&mut arena, phi, &ids, &is_out).is_none() {
                return Err(SyntError::Internal(
                    "polarity check failed: the fixed propositions are not justified".into(),
                ));
            }
            tracing::info!(
                "the original specification's check ran out of its time share; the fixing replayed"
            );
            Ok((0, "replayed"))
        }
        Err(e) => Err(e),
    }
}

/// The circuit of a controller (`system`) or of a counter-strategy of `p`, read back as a machine
/// over `f`'s propositions (`cone_machine`) and model-checked (`model_check`) against an
/// automaton of its forbidden behaviours: for a controller `¬f` (the union of the conjuncts'
/// negations when `clause_cover` shows they conjoin to `f`, as the bounded route does), for a
/// counter-strategy `f`. Returns the product states explored; an `Internal` error is a failed
/// check.
fn check_formula(
    p: &Problem,
    arena: &mut Arena,
    f: F,
    system: bool,
    circuit: &Aig,
    budget: &Budget,
) -> Result<usize, SyntError> {
    let (all_in, all_out) = if system {
        (&p.inputs, &p.outputs)
    } else {
        (&p.outputs, &p.inputs)
    };
    let used: Vec<u32> = arena.aps_of(f);
    let mentioned = |names: &[String]| -> Vec<String> {
        names
            .iter()
            .filter(|n| used.iter().any(|&i| arena.ap_name(i) == n.as_str()))
            .cloned()
            .collect()
    };
    let (ins, outs_used) = (mentioned(&p.inputs), mentioned(&p.outputs));
    let moore = p.semantics == Semantics::Moore;
    let (first, second) = if moore {
        (&outs_used, &ins)
    } else {
        (&ins, &outs_used)
    };
    let names: Vec<String> = first.iter().chain(second.iter()).cloned().collect();
    let n_first = first.len();
    let (unc, ctl) = if system {
        (ins.clone(), outs_used.clone())
    } else {
        (outs_used.clone(), ins.clone())
    };
    let dict = Letters::dict(&names)?;
    let cache = Translations::default();
    let bad = if system {
        let comps = compositional::components(arena, f);
        if comps.len() > 1 && crate::clause_cover::entails(arena, &comps, f) {
            let mut parts = Vec::with_capacity(comps.len());
            for &c in &comps {
                let n = arena.not(c);
                parts.push(cache.one_set(arena, n, budget)?);
            }
            compositional::union(&parts, budget)?
        } else {
            let neg = arena.not(f);
            cache.translate(arena, neg, false, budget)?
        }
    } else {
        cache.translate(arena, f, false, budget)?
    };
    let letters = Letters::edges_only(&bad, &dict, n_first, budget)?;
    let basis = model_check::Basis {
        bad,
        letters,
        unc,
        ctl,
        // The controlled player moves first: the system of a Moore specification, the
        // environment of a Mealy one.
        moore: moore == system,
    };
    let m = crate::cone_machine::cone_machine(circuit, all_in, all_out, &basis, budget)?;
    model_check::check(&m, &basis.bad, &basis.letters, budget)
}

/// Solves `p` in parts (`decompose`, unless `-x synt.decompose=0`) or whole.
fn solve_decomposed(p: &Problem, params: &Params, budget: &Budget) -> Result<Solution, SyntError> {
    let decompose = params
        .get_in::<u32>(&PARAMS[8], 0, 1)
        .map_err(SyntError::Usage)?
        == 1;
    if decompose {
        let parts = split(p)?;
        if parts.len() > 1 {
            return solve_parts(p, &parts, params, budget);
        }
    }
    solve_whole(p, params, budget)
}

/// A part of a decomposed problem: a problem over all the declared inputs and outputs, the
/// outputs it controls, and whether the specification implies it (`decompose::Part::exact`).
struct PartProblem {
    problem: Problem,
    owned: Vec<String>,
    exact: bool,
}

/// `p` cut by `decompose` into parts over disjoint outputs.
fn split(p: &Problem) -> Result<Vec<PartProblem>, SyntError> {
    let (mut arena, phi) = parse_problem(p)?;
    let outs: Vec<u32> = p.outputs.iter().map(|o| arena.ap_id(o)).collect();
    let parts = crate::decompose::decompose(&mut arena, phi, &outs);
    Ok(parts
        .into_iter()
        .map(|part| {
            let q = Problem {
                formula: verikit_omega::ltl_to_string(&arena, part.formula),
                ..p.clone()
            };
            let owned = part
                .outputs
                .iter()
                .map(|&o| arena.ap_name(o).to_string())
                .collect();
            PartProblem {
                problem: q,
                owned,
                exact: part.exact,
            }
        })
        .collect())
}

/// The parts solved one after the other (smallest first): an unrealizable exact part answers for
/// the whole (its counter-strategy, checked against the part, beats the specification); an
/// unrealizable inexact part leaves the specification to be solved whole; if all parts are
/// realizable, their checked controllers run side by side (`aig::compose`).
fn solve_parts(
    p: &Problem,
    parts: &[PartProblem],
    params: &Params,
    budget: &Budget,
) -> Result<Solution, SyntError> {
    tracing::info!(parts = parts.len(), "specification decomposed");
    let mut total = empty_solution("bounded");
    total.parts = parts.len();
    let mut circuits = Vec::with_capacity(parts.len());
    let mut bases = Vec::with_capacity(parts.len());
    let mut owner: Vec<Option<usize>> = vec![None; p.outputs.len()];
    let mut engines = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        budget
            .progress()
            .detail(&format!("part {} of {}", i + 1, parts.len()));
        let s = solve_whole(&part.problem, params, budget)?;
        total.positions += s.positions;
        total.product_states += s.product_states;
        total.machine_states += s.machine_states;
        total.bound = total.bound.max(s.bound);
        engines.push(s.engine);
        match s.realizable {
            Some(true) => {}
            Some(false) if part.exact => {
                // The counter-strategy beats the part; it beats φ because φ implies the part.
                let (mut arena, phi) = parse_problem(p)?;
                let f = verikit_omega::task::parse_formula(&part.problem.formula, 0, &mut arena)
                    .map_err(|e| {
                        SyntError::Internal(format!("a part's formula does not parse: {e}"))
                    })?;
                if !crate::clause_cover::entails(&mut arena, &[phi], f) {
                    return Err(SyntError::Internal(format!(
                        "composition check failed: the specification does not imply part {}",
                        i + 1
                    )));
                }
                return Ok(Solution {
                    parts: parts.len(),
                    ..s
                });
            }
            Some(false) => {
                tracing::info!(
                    part = i + 1,
                    "an inexact part is unrealizable: solved whole"
                );
                return solve_whole(p, params, budget);
            }
            None => {
                total.engine = s.engine;
                total.reason = Some(format!(
                    "part {} of {}: {}",
                    i + 1,
                    parts.len(),
                    s.reason.unwrap_or_default()
                ));
                return Ok(total);
            }
        }
        let (c, basis) = s.circuit.zip(s.basis).ok_or_else(|| {
            SyntError::Internal("a realizable part without a checked controller".into())
        })?;
        bases.push(basis);
        for o in &part.owned {
            if let Some(k) = p.outputs.iter().position(|x| x == o) {
                if let Some(slot) = owner.get_mut(k) {
                    *slot = Some(circuits.len());
                }
            }
        }
        circuits.push(c);
    }
    let composed = aig::compose(&circuits, &owner, &p.inputs, &p.outputs)?;
    total.product_states += check_composed(p, parts, &bases, &composed, budget)?;
    total.circuit = Some(composed);
    total.realizable = Some(true);
    total.engine = match engines.first() {
        Some(&e) if engines.iter().all(|&x| x == e) => e,
        _ => "mixed",
    };
    Ok(total)
}

/// The composed controller checked against the whole specification `p`, by parts: the parts'
/// formulas conjoin to `p`'s (`clause_cover`), and each part's outputs, read from the composed
/// circuit through their cone of influence (`cone_machine`), pass the model check their part's
/// own controller passed (`model_check`, against the part's forbidden behaviours). Returns the
/// product states explored.
fn check_composed(
    p: &Problem,
    parts: &[PartProblem],
    bases: &[model_check::Basis],
    composed: &Aig,
    budget: &Budget,
) -> Result<usize, SyntError> {
    let (mut arena, phi) = parse_problem(p)?;
    let mut fs = Vec::with_capacity(parts.len());
    for part in parts {
        let f = verikit_omega::task::parse_formula(&part.problem.formula, 0, &mut arena)
            .map_err(|e| SyntError::Internal(format!("a part's formula does not parse: {e}")))?;
        fs.push(f);
    }
    if !crate::clause_cover::entails(&mut arena, &fs, phi) {
        return Err(SyntError::Internal(
            "composition check failed: the parts' formulas do not conjoin to the specification"
                .into(),
        ));
    }
    let mut product = 0;
    for basis in bases {
        let m = crate::cone_machine::cone_machine(composed, &p.inputs, &p.outputs, basis, budget)?;
        product += model_check::check(&m, &basis.bad, &basis.letters, budget)?;
    }
    Ok(product)
}

/// Solves a problem whole with the engine `-x synt.engine` names.
fn solve_whole(p: &Problem, params: &Params, budget: &Budget) -> Result<Solution, SyntError> {
    let engine: String = params.get(&PARAMS[3]).map_err(SyntError::Usage)?;
    match engine.as_str() {
        "bounded" | "parity" => {
            let route = if engine == "bounded" {
                Route::Bounded
            } else {
                Route::Parity
            };
            let cache = Translations::default();
            solve_route(p, params, route, &cache, budget, &mut |_| Ok(()))
        }
        "portfolio" => portfolio(p, params, budget),
        other => Err(SyntError::Usage(format!(
            "-x synt.engine={other}: expected bounded, parity or portfolio"
        ))),
    }
}

/// What a route tells its caller as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    /// The bounded games start bound `k`.
    Bound(u32),
    /// A game was won: the problem is decided, the winner's machine is now minimised, checked
    /// and encoded (`finish`).
    Won,
}

/// What a route's thread reports to the portfolio.
enum Msg {
    /// The bounded games hand the CPU over to the parity route (they now wait for it).
    HandOver,
    /// A route won its game (`Event::Won`): the other route is not needed.
    Won(Route),
    /// A route ended.
    Done(Route, Box<Result<Solution, SyntError>>),
}

/// The portfolio (decision 0804): the bounded games run alone; at the start of the first bound
/// above `synt.yield-bound` (once a fifth of their head start has passed) they hand the CPU over
/// to the parity route and wait, their work kept, until it ends — decided (it wins) or not (they
/// resume) — or until its turn (`synt.parity-turn` of the time left, decision 0808) runs out,
/// when they resume beside it. With `synt.parallel` (by default when the load leaves a core
/// free) both routes run side by side from the start instead. If they reach neither that
/// bound nor a decision within the fraction `synt.parity-after` of the time left (2 s without a
/// limit), the parity route starts beside them (and they still hand over at that bound); if
/// they give up undecided, it starts at once. The time shares are shares of both clocks
/// (`Budget::share`): under a CPU-time deadline (`ulimit -t`) they are the same amount of work
/// however loaded the machine (decision 0809). A route that wins its game (`Event::Won`) keeps
/// the CPU for its answer: the other is cancelled, or never started. The first route to decide
/// cancels the other and is returned without waiting for it (a translation or determinisation
/// polls its budget only between steps).
fn portfolio(p: &Problem, params: &Params, budget: &Budget) -> Result<Solution, SyntError> {
    let after: f64 = params
        .get_in(&PARAMS[5], 0.0, 1.0)
        .map_err(SyntError::Usage)?;
    let parity_turn: f64 = params
        .get_in(&PARAMS[11], 0.0, 1.0)
        .map_err(SyntError::Usage)?;
    let mut yield_bound: u32 = params
        .get_in(&PARAMS[6], 0, 101)
        .map_err(SyntError::Usage)?;
    let parallel = match params
        .get::<String>(&PARAMS[12])
        .map_err(SyntError::Usage)?
        .as_str()
    {
        "auto" => a_core_is_free(),
        "1" => true,
        "0" => false,
        other => {
            return Err(SyntError::Usage(format!(
                "-x synt.parallel={other}: expected auto, 0 or 1"
            )))
        }
    };
    // The bounded games' head start, and the part of it during which they keep the CPU
    // whatever their bound: shares of the time left on each clock (`Budget::share`: of CPU
    // time under a CPU-time limit, so that the split is the same however loaded the machine).
    let mut head = budget.share(after, Some(Duration::from_secs(2)));
    // A specification decided at a high bound is often cheap (ltl2dba23: bound 3 in 0.02 s).
    let alone = budget.share(after / 5.0, Some(Duration::from_millis(400)));
    if parallel {
        // Both routes from the start, each on its own core: nothing to hand over.
        tracing::debug!("portfolio: the routes side by side");
        head = budget.share(0.0, Some(Duration::ZERO));
        yield_bound = 101;
    }
    let subs = [budget.sub(None), budget.sub(None)];
    let cancel_all = || subs.iter().for_each(Budget::cancel);
    let turn = std::sync::Arc::new(crate::turns::Turn::new());
    let cache = Translations::default();
    let (tx, rx) = std::sync::mpsc::channel::<Msg>();
    let spawn = |route: Route, sub: &Budget| {
        let tx = tx.clone();
        let (p, params, sub) = (p.clone(), params.clone(), sub.clone());
        let turn = std::sync::Arc::clone(&turn);
        let (cache, alone) = (cache.clone(), alone.clone());
        std::thread::Builder::new()
            .name(format!("synt-{route:?}"))
            .stack_size(256 << 20)
            .spawn(move || {
                let mut on_event = |e: Event| -> Result<(), SyntError> {
                    let Event::Bound(k) = e else {
                        let _ = tx.send(Msg::Won(route));
                        return Ok(());
                    };
                    if route == Route::Bounded
                        && k > yield_bound
                        && alone.check().is_err()
                        && turn.hand_over()
                    {
                        let _ = tx.send(Msg::HandOver);
                        let until = (parity_turn < 1.0)
                            .then(|| sub.share(parity_turn, Some(Duration::from_secs(4))));
                        turn.wait(&sub, until.as_ref())?;
                    }
                    Ok(())
                };
                let r = solve_route(&p, &params, route, &cache, &sub, &mut on_event);
                let _ = tx.send(Msg::Done(route, Box::new(r)));
            })
            .map(|_| ())
            .map_err(|e| {
                cancel_all();
                SyntError::Internal(format!("cannot start a thread: {e}"))
            })
    };
    spawn(Route::Bounded, &subs[0])?;
    let mut parity_started = false;
    let mut won = false;
    let mut running = 1;
    let mut reasons = Vec::new();
    let mut exhausted = None;
    while running > 0 {
        let got = if parity_started {
            rx.recv().ok()
        } else {
            // The head start is polled: under a CPU-time deadline it is not a wall-clock wait.
            match rx.recv_timeout(POLL) {
                Ok(x) => Some(x),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout)
                    if !won && head.check().is_err() =>
                {
                    Some(Msg::HandOver)
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => None,
            }
        };
        let (route, r) = match got {
            None => break,
            Some(Msg::HandOver) => {
                if !parity_started && !won {
                    parity_started = true;
                    running += 1;
                    spawn(Route::Parity, &subs[1])?;
                }
                continue;
            }
            Some(Msg::Won(route)) => {
                // The winner keeps the CPU for its answer: the other route is cancelled (or
                // never started).
                won = true;
                tracing::debug!(?route, "portfolio: a route won its game");
                let other = usize::from(route == Route::Bounded);
                if let Some(b) = subs.get(other) {
                    b.cancel();
                }
                continue;
            }
            Some(Msg::Done(route, r)) => (route, *r),
        };
        running -= 1;
        if route == Route::Parity {
            // Undecided or not, the bounded games may go on (a decision returns below).
            turn.finish();
        }
        let name = match route {
            Route::Bounded => "bounded",
            Route::Parity => "parity",
        };
        match r {
            Ok(sol) if sol.realizable.is_some() => {
                cancel_all();
                return Ok(sol);
            }
            Ok(sol) => reasons.push(format!("{name}: {}", sol.reason.unwrap_or_default())),
            Err(SyntError::Limit(why)) => reasons.push(format!("{name}: {why}")),
            Err(SyntError::Exhausted(e)) => exhausted = Some(e),
            Err(e) => {
                cancel_all();
                return Err(e);
            }
        }
        // The bounded games gave up before handing over: the parity route now.
        if !parity_started && !won && exhausted.is_none() {
            parity_started = true;
            running += 1;
            spawn(Route::Parity, &subs[1])?;
        }
    }
    // Neither decided: out of time if either ran out, else both gave up.
    if let Some(e) = exhausted {
        budget.check()?;
        return Err(SyntError::Exhausted(e));
    }
    let mut sol = empty_solution("portfolio");
    sol.reason = Some(reasons.join("; "));
    Ok(sol)
}

/// How often the portfolio looks whether the bounded games' head start has run out.
const POLL: Duration = Duration::from_millis(20);

/// Whether the machine has a core to spare for the portfolio's second route: the 1-minute load
/// average (Linux's `/proc/loadavg`; unknown elsewhere: no) at most the cores less one and a
/// half — one for the first route, half a core of slack.
fn a_core_is_free() -> bool {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .is_some_and(|load| load <= cores - 1.5)
}

/// Solves a problem by one route.
fn solve_route(
    p: &Problem,
    params: &Params,
    route: Route,
    cache: &Translations,
    budget: &Budget,
    on_event: &mut dyn FnMut(Event) -> Result<(), SyntError>,
) -> Result<Solution, SyntError> {
    let max_bound: u32 = params
        .get_in(&PARAMS[0], 0, 100)
        .map_err(SyntError::Usage)?;
    let max_positions: usize = params
        .get_in(&PARAMS[2], 1, 100_000_000)
        .map_err(SyntError::Usage)?;
    let compositional: bool = params
        .get_in::<u32>(&PARAMS[1], 0, 1)
        .map_err(SyntError::Usage)?
        == 1;
    let (mut arena, phi) = parse_problem(p)?;
    let used: Vec<String> = arena
        .aps_of(phi)
        .iter()
        .map(|&i| arena.ap_name(i).to_string())
        .collect();
    if let Some(x) = used
        .iter()
        .find(|a| !p.inputs.contains(a) && !p.outputs.contains(a))
    {
        return Err(SyntError::Usage(format!(
            "proposition `{x}` is neither an input nor an output"
        )));
    }
    let unc: Vec<String> = p
        .inputs
        .iter()
        .filter(|x| used.contains(x))
        .cloned()
        .collect();
    let ctl: Vec<String> = p
        .outputs
        .iter()
        .filter(|x| used.contains(x))
        .cloned()
        .collect();
    let moore = p.semantics == Semantics::Moore;
    // Game order: the first mover's propositions first.
    let (first, second) = if moore { (&ctl, &unc) } else { (&unc, &ctl) };
    let names: Vec<String> = first.iter().chain(second.iter()).cloned().collect();
    let dict = Letters::dict(&names)?;
    let neg = arena.not(phi);
    let n_first = first.len();
    let merge_states = params
        .get_in::<u32>(&PARAMS[7], 0, 1)
        .map_err(SyntError::Usage)?
        == 1;
    let memin = params
        .get_in::<u32>(&PARAMS[10], 0, 1)
        .map_err(SyntError::Usage)?
        == 1;
    let setup = Setup {
        cache,
        merge_states,
        memin,
        p,
        unc,
        ctl,
        moore,
        n_first,
        dict,
        phi,
        neg,
    };
    match route {
        Route::Bounded => {
            let bounded = BoundedOptions {
                compositional,
                max_bound,
                max_positions,
            };
            bounded_route(&mut arena, &setup, &bounded, budget, on_event)
        }
        Route::Parity => {
            let solver = match params
                .get::<String>(&PARAMS[4])
                .map_err(SyntError::Usage)?
                .as_str()
            {
                "pp" => dpa_game::Solver::PriorityPromotion,
                "zielonka" => dpa_game::Solver::Zielonka,
                other => {
                    return Err(SyntError::Usage(format!(
                        "-x synt.parity-solver={other}: expected pp or zielonka"
                    )))
                }
            };
            parity_route(&mut arena, &setup, max_positions, solver, budget, on_event)
        }
    }
}

/// What the routes share: the problem, its partition in game order, the dictionary, `φ`, `¬φ`.
struct Setup<'a> {
    cache: &'a Translations,
    p: &'a Problem,
    unc: Vec<String>,
    ctl: Vec<String>,
    moore: bool,
    n_first: usize,
    dict: verikit_bdd::BddDict,
    phi: F,
    neg: F,
    merge_states: bool,
    memin: bool,
}

struct BoundedOptions {
    compositional: bool,
    max_bound: u32,
    max_positions: usize,
}

/// A winning machine of the system (`system`) or of the environment, minimised, model-checked
/// against `bad` (an automaton of the winner's forbidden behaviours: of `¬φ` for the system, of
/// `φ` for the environment), encoded as a circuit whose simulation is compared with the machine.
fn finish(
    s: &Setup,
    m: &Machine,
    system: bool,
    bad: &Twa,
    sol: &mut Solution,
    budget: &Budget,
) -> Result<(), SyntError> {
    let raw = m;
    let m = raw.minimise(budget)?;
    let check_letters = Letters::edges_only(bad, &s.dict, s.n_first, budget)?;
    let mut checker = model_check::Checker::new(bad, &check_letters);
    sol.product_states = checker.check(&m, budget)?;
    let (m_unc, m_ctl) = if system {
        (&s.unc, &s.ctl)
    } else {
        (&s.ctl, &s.unc)
    };
    let (all_in, all_out) = if system {
        (&s.p.inputs, &s.p.outputs)
    } else {
        (&s.p.outputs, &s.p.inputs)
    };
    let size = |c: &Circuit| (c.aig.ands.len(), c.aig.latches.len());
    let circuit = aig::encode(&m, m_unc, m_ctl, all_in, all_out, budget)?;
    // The candidates: the Moore-minimised machine and, when the game left answers free, the
    // SAT-minimised one (`memin`); each is then reduced by state merging, and the smallest
    // circuit is kept (a SAT-minimised machine answers with constants per input atom, which
    // can make a larger circuit than the game's answer functions, and merging from it can end
    // elsewhere).
    let mut candidates = vec![(sol.product_states, m, circuit)];
    if s.memin && raw.allowed.is_some() && candidates[0].1.states() > 1 {
        // Within a quarter of the time left; the result is model-checked like every machine. A
        // limit, the budget or a failed check leaves the Moore-minimised machine alone.
        let small = budget.share(0.25, None);
        let budget = &small;
        let t0 = Instant::now();
        let found = (|| -> Result<Option<(usize, Machine, Circuit)>, SyntError> {
            let Some(r) = crate::memin::minimise(raw, candidates[0].1.states(), budget)? else {
                return Ok(None);
            };
            let product = match checker.check(&r, budget) {
                Ok(p) => p,
                Err(SyntError::Internal(why)) => {
                    tracing::warn!(%why, "the SAT-minimised machine failed its check; not used");
                    return Ok(None);
                }
                Err(e) => return Err(e),
            };
            let cr = aig::encode(&r, m_unc, m_ctl, all_in, all_out, budget)?;
            Ok(Some((product, r, cr)))
        })();
        match found {
            Ok(Some(x)) => {
                tracing::info!(
                    from = candidates[0].1.states(),
                    to = x.1.states(),
                    ands_from = candidates[0].2.aig.ands.len(),
                    ands_to = x.2.aig.ands.len(),
                    secs = t0.elapsed().as_secs_f64(),
                    "machine minimised by SAT"
                );
                candidates.push(x);
            }
            Ok(None) | Err(SyntError::Limit(_) | SyntError::Exhausted(_)) => {}
            Err(e) => return Err(e),
        }
    }
    let mut best: Option<(usize, Machine, Circuit)> = None;
    let n_candidates = candidates.len();
    for (product, m, circuit) in candidates {
        let (product, m, circuit) = if s.merge_states && m.states() > 1 {
            // Merged states, judged by the same product check; kept only for a smaller
            // circuit. The reduction gets a quarter of the time left (shared by the
            // candidates), so that a decision near the deadline is still answered in time; a
            // limit or its budget running out keeps the checked machine.
            let small = budget.share(0.25 / n_candidates as f64, None);
            let budget = &small;
            let mut accepts = |c: &Machine| match checker.check(c, budget) {
                Ok(_) => Ok(true),
                Err(SyntError::Internal(_)) => Ok(false),
                Err(e) => Err(e),
            };
            let smaller = (|| -> Result<Option<(Machine, Circuit)>, SyntError> {
                let r = state_merging::reduce(&m, &mut accepts, budget)?;
                if r.states() >= m.states() {
                    return Ok(None);
                }
                let r = r.minimise(budget)?;
                let cr = aig::encode(&r, m_unc, m_ctl, all_in, all_out, budget)?;
                if size(&cr) >= size(&circuit) {
                    return Ok(None);
                }
                Ok(Some((r, cr)))
            })();
            // The merged machine, minimised, is checked again (its rows' relations already
            // built); a limit or the reduction's budget running out keeps the checked machine.
            let checked = smaller.and_then(|x| match x {
                Some((r, cr)) => Ok(Some((checker.check(&r, budget)?, r, cr))),
                None => Ok(None),
            });
            match checked {
                Ok(Some((product, r, cr))) => {
                    tracing::info!(
                        from = m.states(),
                        to = r.states(),
                        ands_from = circuit.aig.ands.len(),
                        ands_to = cr.aig.ands.len(),
                        "states merged"
                    );
                    (product, r, cr)
                }
                Ok(None) | Err(SyntError::Limit(_) | SyntError::Exhausted(_)) => {
                    (product, m, circuit)
                }
                Err(e) => return Err(e),
            }
        } else {
            (product, m, circuit)
        };
        if best.as_ref().is_none_or(|b| size(&circuit) < size(&b.2)) {
            best = Some((product, m, circuit));
        }
    }
    let (product, m, circuit) =
        best.ok_or_else(|| SyntError::Internal("no controller candidate".into()))?;
    sol.product_states = product;
    replay_circuit(&m, &circuit, m_ctl, all_in, all_out)?;
    if system {
        sol.basis = Some(model_check::Basis {
            bad: bad.clone(),
            letters: check_letters,
            unc: m_unc.clone(),
            ctl: m_ctl.clone(),
            moore: s.moore,
        });
    }
    sol.realizable = Some(system);
    sol.machine_states = m.states();
    sol.circuit = Some(circuit.aig);
    Ok(())
}

fn empty_solution(engine: &'static str) -> Solution {
    Solution {
        realizable: None,
        circuit: None,
        machine_states: 0,
        bound: None,
        positions: 0,
        product_states: 0,
        reason: None,
        engine,
        parts: 1,
        fixed: 0,
        polarity_check: "",
        basis: None,
    }
}

/// The deterministic route: a deterministic parity automaton of `φ` (omega's determinisation,
/// competing with the complement of `¬φ`'s), the product game with the input/output split
/// (`dpa_game`), Zielonka's algorithm, the winner's machine checked as the bounded route's.
fn parity_route(
    arena: &mut Arena,
    s: &Setup,
    max_positions: usize,
    solver: dpa_game::Solver,
    budget: &Budget,
    on_event: &mut dyn FnMut(Event) -> Result<(), SyntError>,
) -> Result<Solution, SyntError> {
    let t0 = Instant::now();
    let pos = s.cache.translate(arena, s.phi, false, budget)?;
    let neg = s.cache.translate(arena, s.neg, false, budget)?;
    let o = verikit_omega::DetOptions {
        deterministic: true,
        parity: true,
        complete: true,
        kind: None,
        det: verikit_omega::DeterminizeOptions {
            budget: budget.clone(),
            ..Default::default()
        },
        checked_merges: false,
        sat_minimize: None,
    };
    let det = verikit_omega::deterministic_pair(&pos, Some(&neg), &o)?;
    let colouring = match verikit_omega::ParityAut::from_twa(&det) {
        Some(pa) => Colouring::Parity(pa),
        None if det.acceptance().is_t() => Colouring::Constant(true),
        None if det.acceptance().is_f() => Colouring::Constant(false),
        None => {
            return Err(SyntError::Internal(format!(
                "the deterministic automaton is not a parity automaton: {}",
                det.acceptance_description()
            )))
        }
    };
    tracing::info!(
        states = det.num_states(),
        colours = det.num_sets,
        secs = t0.elapsed().as_secs_f64(),
        "deterministic parity automaton of φ"
    );
    let init = det
        .init
        .first()
        .copied()
        .ok_or_else(|| SyntError::Internal("automaton without an initial state".into()))?;
    let letters = Letters::new(&det, &s.dict, s.n_first, budget)?;
    let mut sol = empty_solution("parity");
    let (system, m, stats) = dpa_game::solve(
        &letters,
        &colouring,
        init,
        s.moore,
        max_positions.saturating_mul(3),
        solver,
        budget,
    )?;
    sol.positions = stats.vertices;
    tracing::info!(
        vertices = stats.vertices,
        automaton_states = stats.automaton_states,
        system_wins = system,
        "parity game solved"
    );
    on_event(Event::Won)?;
    // The winner's forbidden behaviours: ¬φ for the system, φ for the environment.
    let bad = if system { &neg } else { &pos };
    finish(s, &m, system, bad, &mut sol, budget)?;
    Ok(sol)
}

/// The Safraless route (C06): bounded games of increasing bound for both sides.
fn bounded_route(
    arena: &mut Arena,
    s: &Setup,
    o: &BoundedOptions,
    budget: &Budget,
    on_event: &mut dyn FnMut(Event) -> Result<(), SyntError>,
) -> Result<Solution, SyntError> {
    let (phi, neg) = (s.phi, s.neg);
    let moore = s.moore;
    // C06 §5: the conjuncts of φ; the forbidden behaviours are the union of their negations'
    // automata, and the environment is tried on each conjunct before the whole.
    let comps = if o.compositional {
        compositional::components(arena, phi)
    } else {
        vec![phi]
    };
    let t0 = Instant::now();
    let sys_aut = if comps.len() > 1 {
        let mut parts = Vec::with_capacity(comps.len());
        for &c in &comps {
            let n = arena.not(c);
            parts.push(s.cache.one_set(arena, n, budget)?);
        }
        compositional::union(&parts, budget)?
    } else {
        s.cache.one_set(arena, neg, budget)?
    };
    tracing::info!(
        states = sys_aut.num_states(),
        components = comps.len(),
        secs = t0.elapsed().as_secs_f64(),
        "automaton of ¬φ"
    );
    let sys_letters = Letters::new(&sys_aut, &s.dict, s.n_first, budget)?;
    // The environment's games: on each conjunct (when there are several), then on φ. Their
    // automata are built when first played (bound 1): many realizable specifications are won by
    // the system at bound 0 or 1.
    let mut env_targets: Vec<F> = if comps.len() > 1 {
        comps.clone()
    } else {
        Vec::new()
    };
    env_targets.push(phi);
    let last = env_targets.len() - 1;
    let mut env: Vec<Option<(Twa, Letters)>> = env_targets.iter().map(|_| None).collect();
    let mut env_alive = vec![true; env_targets.len()];
    let mut sol = empty_solution("bounded");
    let mut sys_alive = true;
    let mut limits = Vec::new();
    for k in 0..=o.max_bound.max(1) {
        on_event(Event::Bound(k))?;
        budget.check()?;
        let n_games = 1 + if k == 0 { 0 } else { env_targets.len() };
        for g in 0..n_games {
            let system = g == 0;
            let j = g.wrapping_sub(1);
            if if system { !sys_alive } else { !env_alive[j] } {
                continue;
            }
            if !system && env[j].is_none() {
                let t1 = Instant::now();
                let a = s.cache.one_set(arena, env_targets[j], budget)?;
                tracing::info!(
                    states = a.num_states(),
                    secs = t1.elapsed().as_secs_f64(),
                    component = j,
                    "automaton of φ"
                );
                let l = Letters::new(&a, &s.dict, s.n_first, budget)?;
                env[j] = Some((a, l));
            }
            let (aut, letters) = match env.get(j) {
                Some(Some((a, l))) if !system => (a, l),
                _ => (&sys_aut, &sys_letters),
            };
            let game = Game {
                letters,
                states: aut.num_states(),
                init: &aut.init,
                controlled_first: if system { moore } else { !moore },
                k: k as i8,
                max_positions: o.max_positions,
            };
            let r = game.solve(budget);
            let (m, stats): (Option<Machine>, GameStats) = match r {
                Ok(x) => x,
                Err(SyntError::Limit(why)) => {
                    limits.push(format!(
                        "{}: {why}",
                        if system { "system" } else { "environment" }
                    ));
                    if system {
                        sys_alive = false
                    } else {
                        env_alive[j] = false
                    }
                    continue;
                }
                Err(e) => return Err(e),
            };
            sol.positions += stats.positions;
            tracing::info!(
                bound = k,
                side = if system { "system" } else { "environment" },
                positions = stats.positions,
                options = stats.options,
                won = m.is_some(),
                "bounded game"
            );
            let Some(m) = m else { continue };
            on_event(Event::Won)?;
            // The automaton the winner is checked against, of the whole specification: when φ
            // was not split, the game's own automaton of ¬φ (system) or φ (environment) — a
            // second translation of the same formula was the 74 → 67 regression (decision
            // 0802); a split specification against the union of its conjuncts' automata, or
            // the won conjunct's, when `clause_cover` shows that is sound, else against ¬φ or φ
            // translated whole.
            let whole;
            let bad = match (system, env.get(j)) {
                (true, _) if comps.len() == 1 => &sys_aut,
                (false, Some(Some((a, _)))) if j == last => a,
                // The union of the conjuncts' negations is an automaton of ¬φ when the
                // conjuncts conjoin to φ; a conjunct's automaton is one of the environment's
                // forbidden behaviours when φ implies the conjunct.
                (true, _) if crate::clause_cover::entails(arena, &comps, phi) => &sys_aut,
                (false, Some(Some((a, _))))
                    if crate::clause_cover::entails(arena, &[phi], env_targets[j]) =>
                {
                    a
                }
                _ => {
                    whole =
                        s.cache
                            .translate(arena, if system { neg } else { phi }, false, budget)?;
                    &whole
                }
            };
            finish(s, &m, system, bad, &mut sol, budget)?;
            sol.bound = Some(k);
            return Ok(sol);
        }
        if !sys_alive && env_alive.iter().all(|a| !a) {
            break;
        }
    }
    sol.reason = Some(if limits.is_empty() {
        format!("no winner up to bound {} (synt.max-bound)", o.max_bound)
    } else {
        limits.join("; ")
    });
    Ok(sol)
}

/// The circuit evaluated symbolically (gate by gate, as BDDs over its inputs) from every machine
/// state must give the machine's answers and successors on every input letter.
fn replay_circuit(
    m: &Machine,
    c: &Circuit,
    ctl: &[String],
    all_in: &[String],
    all_out: &[String],
) -> Result<(), SyntError> {
    // Every declared input gets a variable, also those the game does not read.
    let dict = m
        .dict
        .extend(all_in.iter().map(String::as_str))
        .map_err(|e| SyntError::Limit(e.to_string()))?;
    let ff = dict.ff();
    let inputs: Vec<Bdd> = all_in
        .iter()
        .map(|n| {
            dict.var_of(n)
                .map(|v| dict.vars().mk_var(v))
                .ok_or_else(|| SyntError::Internal(format!("input {n} has no variable")))
        })
        .collect::<Result<_, _>>()?;
    for (s, rows) in m.rows.iter().enumerate() {
        let latches = c
            .codes
            .get(s)
            .ok_or_else(|| SyntError::Internal(format!("machine state {s} has no latch code")))?;
        let (outs, next) = c.step(&inputs, latches, &ff);
        let mut cover = ff.clone();
        for r in rows {
            let guard = dict.lift(&r.guard);
            cover = cover.or(&guard);
            let mut wrong = ff.clone();
            for (name, out) in all_out.iter().zip(&outs) {
                let want = match ctl.iter().position(|x| x == name) {
                    Some(j) => r
                        .answer
                        .get(j)
                        .map(|a| dict.lift(a))
                        .unwrap_or_else(|| ff.clone()),
                    None => ff.clone(),
                };
                wrong = wrong.or(&want.xor(out));
            }
            let target = c.codes.get(r.target as usize).ok_or_else(|| {
                SyntError::Internal(format!("machine state {} has no latch code", r.target))
            })?;
            for (j, nx) in next.iter().enumerate() {
                let want = if target.get(j).copied().unwrap_or(false) {
                    ff.not()
                } else {
                    ff.clone()
                };
                wrong = wrong.or(&want.xor(nx));
            }
            if !guard.and(&wrong).is_false() {
                return Err(SyntError::Internal(format!(
                    "the circuit differs from the machine in state {s}"
                )));
            }
        }
        if !cover.is_true() {
            return Err(SyntError::Internal(format!(
                "machine state {s} does not answer every input letter"
            )));
        }
    }
    Ok(())
}

/// `verikit synt solve`: the answer (verdict `true` = realizable, detail `result`, the checked
/// controller — or the environment's counter-strategy — as witness).
pub fn solve(
    p: &Problem,
    opts: &Options,
    params: &Params,
    budget: &Budget,
) -> Result<Answer, SyntError> {
    let t0 = Instant::now();
    let r = solve_problem(p, params, budget);
    let secs = t0.elapsed().as_secs_f64();
    let base = |v: Verdict| {
        Answer::decision(v)
            .input("inputs", p.inputs.len())
            .input("outputs", p.outputs.len())
            .detail("semantics", p.semantics.as_str())
            .time("solve_s", secs)
    };
    let sol = match r {
        Ok(s) => s,
        Err(SyntError::Exhausted(Exhausted::Timeout | Exhausted::Cancelled)) => {
            return Ok(base(Verdict::Timeout)
                .detail("result", "timeout")
                .line("timeout"))
        }
        Err(e) => return Err(e),
    };
    let mut a = match sol.realizable {
        Some(true) => base(Verdict::True)
            .detail("result", "realizable")
            .line("realizable"),
        Some(false) => base(Verdict::False)
            .detail("result", "unrealizable")
            .line("unrealizable"),
        None => base(Verdict::Unknown)
            .detail("result", "unknown")
            .detail("reason", sol.reason.as_deref().unwrap_or(""))
            .line("unknown"),
    };
    a = a
        .stat("game_positions", sol.positions)
        .stat("parts", sol.parts)
        .stat("fixed_by_polarity", sol.fixed)
        .detail("polarity_check", sol.polarity_check)
        .detail("engine", sol.engine);
    if let Some(k) = sol.bound {
        a = a.stat("bound", k);
    }
    if let Some(c) = &sol.circuit {
        a = a
            .stat("machine_states", sol.machine_states)
            .stat("product_states_checked", sol.product_states)
            .stat("and_gates", c.ands.len())
            .stat("latches", c.latches.len());
        let kind = if sol.realizable == Some(true) {
            "controller"
        } else {
            "counter-strategy"
        };
        let text = c.to_aag();
        if let Some(path) = &opts.aiger_file {
            let bytes = if path.extension().is_some_and(|e| e == "aig") {
                c.to_aig()
            } else {
                text.clone().into_bytes()
            };
            std::fs::write(path, bytes)
                .map_err(|e| SyntError::Usage(format!("cannot write {}: {e}", path.display())))?;
        }
        a = a.witness(serde_json::json!({
            "kind": kind,
            "aiger": text,
            "states": sol.machine_states,
            "and_gates": c.ands.len(),
            "latches": c.latches.len(),
            "checked": true,
        }));
        if !opts.realizability && sol.realizable == Some(true) {
            a = a.line(text.trim_end());
        }
    }
    Ok(a)
}

/// What `verikit synt solve` reads.
#[derive(Clone, Debug)]
pub enum Input {
    /// A TLSF specification: its file name (for messages) and text.
    Tlsf { name: String, text: String },
    /// An LTL formula with Spot `ltlsynt`'s `--ins`/`--outs` (one of them may be inferred).
    Formula {
        formula: String,
        ins: Option<Vec<String>>,
        outs: Option<Vec<String>>,
        moore: bool,
    },
}

/// The one entry point of `verikit synt solve`: reads the input, solves, answers.
pub fn synthesize(
    input: &Input,
    opts: &Options,
    params: &Params,
    budget: &Budget,
) -> Result<Answer, SyntError> {
    let (p, file) = match input {
        Input::Tlsf { name, text } => {
            let spec = parse_tlsf(text, budget).map_err(|e| e.in_source(name, text))?;
            (Problem::from(spec), Some(name.as_str()))
        }
        Input::Formula {
            formula,
            ins,
            outs,
            moore,
        } => {
            let sem = if *moore {
                Semantics::Moore
            } else {
                Semantics::Mealy
            };
            (
                Problem::from_formula(formula, ins.clone(), outs.clone(), sem)?,
                None,
            )
        }
    };
    let mut a = solve(&p, opts, params, budget)?;
    if let Some(f) = file {
        a = a.input("file", f);
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A CPU-time deadline alone (no wall-clock one, as under `ulimit -t`) bounds the portfolio
    /// and its time shares: past it, a timeout; far from it, the answer (the head start and the
    /// turns are then shares of CPU time, polled).
    #[test]
    fn the_portfolio_works_under_a_cpu_time_deadline() {
        let p = Problem::from_formula(
            "G (r -> F g) & G (g -> X !g)",
            Some(vec!["r".into()]),
            None,
            Semantics::Mealy,
        )
        .unwrap();
        let params = Params::default();
        let past = Budget::unlimited().with_cpu_deadline(Some(Duration::ZERO));
        assert!(matches!(
            solve_problem(&p, &params, &past),
            Err(SyntError::Exhausted(Exhausted::Timeout))
        ));
        let Some(now) = verikit_diag::process_cpu_time() else {
            return;
        };
        let far = Budget::unlimited().with_cpu_deadline(Some(now + Duration::from_secs(600)));
        for engine in ["portfolio", "bounded", "parity"] {
            let params = Params::parse(&[&format!("synt.engine={engine}")]).unwrap();
            let s = solve_problem(&p, &params, &far).unwrap();
            assert_eq!(s.realizable, Some(true), "{engine}");
            assert!(s.circuit.is_some(), "{engine}: a checked controller");
        }
    }

    /// The parts of `f`, their checked controllers composed, and the bases of their checks.
    fn composed(
        f: &str,
        sem: Semantics,
    ) -> (Problem, Vec<PartProblem>, Vec<model_check::Basis>, Aig) {
        let p = Problem {
            formula: f.into(),
            inputs: vec!["r0".into(), "r1".into()],
            outputs: vec!["g0".into(), "g1".into()],
            semantics: sem,
        };
        let parts = split(&p).unwrap();
        assert_eq!(parts.len(), 2, "{f}");
        let params = Params::default();
        let (mut circuits, mut bases) = (Vec::new(), Vec::new());
        let mut owner = vec![None; 2];
        for part in &parts {
            let s = solve_whole(&part.problem, &params, &Budget::unlimited()).unwrap();
            for o in &part.owned {
                let k = p.outputs.iter().position(|x| x == o).unwrap();
                owner[k] = Some(circuits.len());
            }
            circuits.push(s.circuit.unwrap());
            bases.push(s.basis.unwrap());
        }
        let c = aig::compose(&circuits, &owner, &p.inputs, &p.outputs).unwrap();
        (p, parts, bases, c)
    }

    /// A controller and a counter-strategy of specifications with propositions fixed by
    /// polarity pass the check against the original formula; with a wired constant flipped
    /// they fail it.
    #[test]
    fn polarity_fixed_circuits_are_checked_against_the_original_formula() {
        // (formula, inputs, outputs, realizable, the fixed signal flipped)
        type Case<'a> = (&'a str, &'a [&'a str], &'a [&'a str], bool, &'a str);
        let cases: &[Case] = &[
            // a positive only: wired to 1; 0 breaks G(r -> a).
            ("G(r -> a) & G(r <-> X g)", &["r"], &["a", "g"], true, "a"),
            // r positive only, an input: the counter-strategy plays r = 0; 1 satisfies F r.
            ("F r & G(g <-> X g)", &["r"], &["g"], false, "r"),
        ];
        for &(f, ins, outs, want, flip) in cases {
            for sem in [Semantics::Mealy, Semantics::Moore] {
                let p = Problem {
                    formula: f.into(),
                    inputs: ins.iter().map(|x| x.to_string()).collect(),
                    outputs: outs.iter().map(|x| x.to_string()).collect(),
                    semantics: sem,
                };
                let budget = Budget::unlimited();
                let mut s = solve_problem(&p, &Params::default(), &budget).unwrap();
                assert_eq!(s.realizable, Some(want), "{f}");
                assert_eq!(s.polarity_check, "model-checked", "{f}");
                let (_, fixed) = fix_polarities(&p).unwrap();
                let (product, how) = check_original(&p, &s, &fixed, &budget).unwrap();
                assert!(product > 0 && how == "model-checked", "{f}");
                // Past the deadline the decided answer is kept: the fixing is replayed
                // (decision 0808); a cancelled run is not answered.
                let expired = Budget::with_timeout(Duration::ZERO);
                let (_, how) = check_original(&p, &s, &fixed, &expired).unwrap();
                assert_eq!(how, "replayed", "{f}");
                let cancelled = Budget::unlimited();
                cancelled.cancel();
                assert!(check_original(&p, &s, &fixed, &cancelled).is_err(), "{f}");
                let names = if want { &p.outputs } else { &p.inputs };
                let k = names.iter().position(|x| x == flip).unwrap();
                let mut wrong = s.circuit.clone().unwrap();
                assert!(wrong.outputs[k] <= 1, "{f}: {flip} is not a constant");
                wrong.outputs[k] ^= 1;
                let broken = |c: Aig| {
                    let b = Solution {
                        circuit: Some(c),
                        ..empty_solution("bounded")
                    };
                    let b = Solution {
                        realizable: Some(want),
                        ..b
                    };
                    matches!(
                        check_original(&p, &b, &fixed, &budget),
                        Err(SyntError::Internal(_))
                    )
                };
                assert!(broken(wrong), "{f} ({sem:?}): {flip} flipped was accepted");
                // A signal the solved formula drives, negated: the model check rejects it.
                if let Some(j) =
                    (0..names.len()).find(|&j| s.circuit.as_ref().unwrap().outputs[j] > 1)
                {
                    let mut negated = s.circuit.take().unwrap();
                    negated.outputs[j] ^= 1;
                    assert!(
                        broken(negated),
                        "{f} ({sem:?}): a negated output was accepted"
                    );
                }
            }
        }
    }

    #[test]
    fn the_composed_controller_is_checked_part_by_part() {
        for sem in [Semantics::Mealy, Semantics::Moore] {
            let (p, parts, bases, c) = composed("G(r0 <-> X g0) & G(r1 <-> X !g1)", sem);
            let budget = Budget::unlimited();
            assert!(check_composed(&p, &parts, &bases, &c, &budget).unwrap() > 0);
            // The outputs exchanged: each part's cone now answers the other part's formula.
            let mut swapped = c.clone();
            swapped.outputs.swap(0, 1);
            assert!(check_composed(&p, &parts, &bases, &swapped, &budget).is_err());
            // An output negated.
            let mut negated = c.clone();
            negated.outputs[1] ^= 1;
            assert!(check_composed(&p, &parts, &bases, &negated, &budget).is_err());
            // A part missing from the conjunction.
            let (one, first) = (&parts[..1], &bases[..1]);
            assert!(check_composed(&p, one, first, &c, &budget).is_err());
        }
    }
}
