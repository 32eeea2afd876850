//! The label-reachability query as TChecker's `tck-reach -l`: runs the search, rebuilds the
//! symbolic and concrete traces of a hit, and builds the [`Answer`] every command prints.

use crate::concrete_trace::{concretize, TimedTrace};
use crate::dbm::Dbm;
use crate::model::{ClockAtom, EvalError, Model};
use crate::reach::{reach, reach_until, Algo, HitPred, Search, Stats};
use crate::zone_graph::{Discrete, Extrapolation, Transition, ZoneGraph};
use serde_json::{json, Value};
use std::time::Instant;
use verikit_diag::{Answer, Budget, Diagnostic, Exhausted, Verdict};

/// How to search.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub search: Search,
    pub algo: Algo,
    pub extrapolation: Extrapolation,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            search: Search::Bfs,
            algo: Algo::Covreach,
            extrapolation: Extrapolation::LuLocal,
        }
    }
}

/// One step of the symbolic trace.
#[derive(Clone, Debug)]
pub struct SymbolicStep {
    /// The move that led here (`None` for the initial state).
    pub transition: Option<Transition>,
    pub discrete: Discrete,
    /// The zone as constraints (`x1<=10 && …`).
    pub zone: String,
}

/// The result of a label query.
#[derive(Clone, Debug)]
pub struct ReachResult {
    /// `Some(true)` reachable, `Some(false)` unreachable, `None` budget exhausted.
    pub reachable: Option<bool>,
    pub stats: Stats,
    pub exhausted: Option<Exhausted>,
    pub symbolic: Vec<SymbolicStep>,
    pub timed: Option<TimedTrace>,
    /// Label ids of the query.
    pub labels: Vec<u32>,
    pub seconds: f64,
    /// A run-time error met by the search (UPPAAL models: an enabled move whose update failed);
    /// `symbolic`/`timed` then lead to the state where the move is enabled.
    pub runtime_error: Option<String>,
}

/// Resolves label names (comma-separated lists allowed); an unknown label is an error.
pub fn resolve_labels(model: &Model, labels: &[String]) -> Result<Vec<u32>, Diagnostic> {
    let mut out = Vec::new();
    for l in labels.iter().flat_map(|s| s.split(',')) {
        let l = l.trim();
        if l.is_empty() {
            continue;
        }
        match model.label(l) {
            Some(id) => {
                if !out.contains(&id) {
                    out.push(id)
                }
            }
            None => {
                return Err(Diagnostic::error(format!(
                    "unknown label `{l}` (no location of the model carries it)"
                )))
            }
        }
    }
    Ok(out)
}

/// Chooses, in the exact (not extrapolated) zone of the state a trace reaches, the valuations the
/// trace must end in (`None`: no valuation qualifies).
pub(crate) type EndZone<'a> = &'a dyn Fn(&ZoneGraph<'_>, &Discrete, &Dbm) -> Option<Dbm>;

/// Is a symbolic state satisfying `hit` reachable? (The search and trace reconstruction of
/// [`check_labels`], for any predicate on symbolic states; `end` narrows the last valuation of
/// the timed trace, which otherwise ends right after its last move.)
pub(crate) fn check_pred(
    model: &Model,
    hit: HitPred<'_>,
    end: Option<EndZone<'_>>,
    query_atoms: &[ClockAtom],
    opts: Options,
    budget: &Budget,
) -> Result<ReachResult, Diagnostic> {
    let t0 = Instant::now();
    model.refuse_diagonals()?;
    let mut zg = ZoneGraph::new(model, opts.extrapolation);
    zg.set_strict_updates(true);
    zg.raise_bounds(query_atoms);
    let out = reach_until(&mut zg, hit, opts.search, opts.algo, budget);
    finish(model, &zg, out, Vec::new(), end, t0)
}

/// [`check_pred`] for a predicate on valuations (`deadlock`, clock constraints), which LU
/// abstractions do not preserve. The search first runs under the requested LU abstraction with
/// covering by inclusion: every reachable valuation lies in a stored zone (extrapolations only
/// add valuations, covering keeps the larger zone), and `hit` is tested on each zone closed
/// under delay within the invariants, where it is exact per valuation, so a search without a
/// hit proves that no reachable valuation satisfies the predicate. A hit is confirmed on the
/// exact zone of its path (`end`); an unconfirmed one may be a valuation added by the
/// abstraction, and the search starts again under ExtraM with local bounds, a bisimulation
/// (decision 0610). Returns the result and the options of the search that gave it.
pub(crate) fn check_pred_coarse_first(
    model: &Model,
    hit: HitPred<'_>,
    end: EndZone<'_>,
    query_atoms: &[ClockAtom],
    opts: Options,
    budget: &Budget,
) -> Result<(ReachResult, Options), Diagnostic> {
    let mut exact = opts;
    if exact.algo == Algo::AluCovreach {
        exact.algo = Algo::Covreach;
    }
    if !matches!(
        opts.extrapolation,
        Extrapolation::LuLocal | Extrapolation::LuGlobal
    ) {
        let r = check_pred(model, hit, Some(end), query_atoms, exact, budget)?;
        return Ok((r, exact));
    }
    let t0 = Instant::now();
    model.refuse_diagonals()?;
    let coarse = exact;
    exact.extrapolation = Extrapolation::MLocal;
    let mut zg = ZoneGraph::new(model, coarse.extrapolation);
    zg.set_strict_updates(true);
    zg.raise_bounds(query_atoms);
    let closed_hit = |zg: &ZoneGraph<'_>, d: &Discrete, z: &Dbm| {
        zg.delay_closure(d, z).is_some_and(|c| hit(zg, d, &c))
    };
    let out = reach_until(&mut zg, &closed_hit, coarse.search, coarse.algo, budget);
    let confirmed = match out.hit {
        None => true,
        Some(h) => {
            let path = out.path(h);
            let init = path.first().map(|p| p.1.clone()).unwrap_or_default();
            let moves: Vec<Transition> = path.iter().filter_map(|p| p.0.clone()).collect();
            zg.exact_path(&init, &moves)
                .is_some_and(|(last, z)| end(&zg, &last, &z).is_some())
        }
    };
    if confirmed {
        return Ok((finish(model, &zg, out, Vec::new(), Some(end), t0)?, coarse));
    }
    let r = check_pred(model, hit, Some(end), query_atoms, exact, budget)?;
    Ok((r, exact))
}

/// Is a state whose locations carry all `labels` reachable? (No labels: explore everything.)
pub fn check_labels(
    model: &Model,
    labels: &[String],
    opts: Options,
    budget: &Budget,
) -> Result<ReachResult, Diagnostic> {
    let t0 = Instant::now();
    model.refuse_diagonals()?;
    let ids = resolve_labels(model, labels)?;
    let mut zg = ZoneGraph::new(model, opts.extrapolation);
    let out = reach(&mut zg, &ids, opts.search, opts.algo, budget);
    finish(model, &zg, out, ids, None, t0)
}

fn finish(
    model: &Model,
    zg: &ZoneGraph<'_>,
    out: crate::reach::Outcome,
    ids: Vec<u32>,
    end: Option<EndZone<'_>>,
    t0: Instant,
) -> Result<ReachResult, Diagnostic> {
    let mut symbolic = Vec::new();
    let mut timed = None;
    let runtime_error = match (out.error_at, zg.runtime_error()) {
        (Some(_), Some((t, err))) => Some(format!(
            "run-time error: {} in the update of {}",
            match err {
                EvalError::OutOfRange => "a value out of its variable's range",
                EvalError::IndexOutOfBounds => "an array index out of bounds",
                EvalError::DivisionByZero => "a division by zero",
                EvalError::Overflow => "an arithmetic overflow",
                _ => "an ill-defined statement",
            },
            move_names(model, &t, None).join(" + ")
        )),
        _ => None,
    };
    let end = if runtime_error.is_some() { None } else { end };
    if let Some(hit) = out.hit.or(out.error_at) {
        let path = out.path(hit);
        let mut moves = Vec::new();
        for (t, d, z) in &path {
            if let Some(t) = t {
                moves.push(t.clone());
            }
            symbolic.push(SymbolicStep {
                transition: t.clone(),
                discrete: (*d).clone(),
                zone: z.describe(&model.clocks),
            });
        }
        let init = path.first().map(|p| p.1.clone()).unwrap_or_default();
        let target = match end {
            None => None,
            Some(f) => {
                let (last, exact) = zg.exact_path(&init, &moves).ok_or_else(|| {
                    Diagnostic::error("internal error: the path found is infeasible on exact zones")
                })?;
                Some(f(zg, &last, &exact).ok_or_else(|| {
                    Diagnostic::error(
                        "internal error: the state found has no qualifying valuation on its exact zone",
                    )
                })?)
            }
        };
        timed = Some(concretize(zg, &init, &moves, target.as_ref()).map_err(|e| {
            Diagnostic::error(format!(
                "internal error: concrete trace reconstruction failed: {e}"
            ))
        })?);
    }
    let reachable = if out.hit.is_some() {
        Some(true)
    } else if out.exhausted.is_some() || runtime_error.is_some() {
        None
    } else {
        Some(false)
    };
    Ok(ReachResult {
        reachable,
        stats: out.stats,
        exhausted: out.exhausted,
        symbolic,
        timed,
        labels: ids,
        seconds: t0.elapsed().as_secs_f64(),
        runtime_error,
    })
}

fn state_json(model: &Model, d: &Discrete) -> Value {
    let n = model.processes.len();
    let locs: Vec<u32> = d.iter().take(n).map(|&l| l as u32).collect();
    let ints: serde_json::Map<String, Value> = model
        .ints
        .iter()
        .zip(d.iter().skip(n))
        .map(|(v, x)| (v.name.clone(), json!(x)))
        .collect();
    json!({"locations": model.location_names(&locs), "ints": ints})
}

/// The names of a move's edges; `before` is the discrete state the move is taken in (for the
/// channel element a channel-array edge selects there).
fn move_names(model: &Model, t: &Transition, before: Option<&Discrete>) -> Vec<String> {
    let ints = before.and_then(|d| d.get(model.processes.len()..));
    t.iter()
        .filter(|pe| pe.0 & crate::model::STAY_OUT == 0)
        .map(|&(p, e)| model.edge_name_at(p, e, ints))
        .collect()
}

/// The answer printed by `verikit ta reach`.
pub fn to_answer(model: &Model, r: &ReachResult, opts: Options) -> Answer {
    let (verdict, word) = match (r.reachable, r.exhausted) {
        _ if r.runtime_error.is_some() => (Verdict::Error, "run-time error"),
        (Some(true), _) => (Verdict::True, "reachable"),
        (Some(false), _) => (Verdict::False, "unreachable"),
        (None, Some(e)) if e.verdict_word() == "timeout" => (Verdict::Timeout, "unknown"),
        (None, _) => (Verdict::Unknown, "unknown"),
    };
    answer_with(model, r, opts, verdict, word, None)
}

/// The answer of a search with the verdict and result word chosen by the caller (a query whose
/// truth is the negation of reachability, as `A[]`).
pub(crate) fn answer_with(
    model: &Model,
    r: &ReachResult,
    opts: Options,
    verdict: Verdict,
    word: &str,
    head: Option<&str>,
) -> Answer {
    let labels: Vec<&str> = r
        .labels
        .iter()
        .filter_map(|&l| model.labels.get(l as usize).map(|s| s.as_str()))
        .collect();
    let mut a = Answer::decision(verdict)
        .detail("result", word)
        .detail("labels", &labels)
        .detail(
            "search",
            match opts.search {
                Search::Bfs => "bfs",
                Search::Dfs => "dfs",
            },
        )
        .detail(
            "algo",
            match opts.algo {
                Algo::Reach => "reach",
                Algo::Covreach => "covreach",
                Algo::AluCovreach => "alu-covreach",
            },
        )
        .detail("extrapolation", opts.extrapolation.name())
        .input("processes", model.processes.len())
        .input("clocks", model.clocks.len())
        .input("ints", model.ints.len())
        .input(
            "locations",
            model
                .processes
                .iter()
                .map(|p| p.locations.len())
                .sum::<usize>(),
        )
        .input(
            "edges",
            model.processes.iter().map(|p| p.edges.len()).sum::<usize>(),
        )
        .stat("visited", r.stats.visited)
        .stat("stored", r.stats.stored)
        .stat("covered", r.stats.covered)
        .stat("transitions", r.stats.transitions)
        .stat("discrete_states", r.stats.discrete)
        .time("total_s", r.seconds);
    if let Some(e) = r.exhausted {
        a = a.detail("reason", e.to_string());
    }
    let head = if let Some(h) = head {
        format!("{word}: {h}")
    } else if labels.is_empty() {
        format!("{word}: full exploration (no labels)")
    } else {
        format!("{word}: {}", labels.join(","))
    };
    a = a.line(format!("{verdict}: {head}")).line(format!(
        "visited {} stored {} covered {} transitions {}",
        r.stats.visited, r.stats.stored, r.stats.covered, r.stats.transitions
    ));
    if let Some(tt) = &r.timed {
        let symbolic: Vec<Value> = r
            .symbolic
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let mut v = state_json(model, &s.discrete);
                if let Some(o) = v.as_object_mut() {
                    o.insert("zone".into(), json!(s.zone));
                    if let Some(t) = &s.transition {
                        let before = i.checked_sub(1).and_then(|j| r.symbolic.get(j));
                        let names = move_names(model, t, before.map(|b| &b.discrete));
                        o.insert("move".into(), json!(names));
                    }
                }
                v
            })
            .collect();
        // the timed steps follow the symbolic ones when there is one per move
        let before_step = |i: usize| {
            (r.symbolic.len() == tt.steps.len() + 1)
                .then(|| r.symbolic.get(i).map(|s| &s.discrete))
                .flatten()
        };
        let timed: Vec<Value> = tt
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let names = move_names(model, &s.transition, before_step(i));
                json!({"delay": s.delay.to_string(), "move": names})
            })
            .collect();
        a = a.witness(json!({"symbolic": symbolic, "timed": timed}));
        a = a.line("timed trace:");
        for (i, s) in tt.steps.iter().enumerate() {
            a = a.line(format!(
                "  delay {}; {}",
                s.delay,
                move_names(model, &s.transition, before_step(i)).join(" | ")
            ));
        }
        if let Some(last) = r.symbolic.last() {
            let n = model.processes.len();
            let locs: Vec<u32> = last.discrete.iter().take(n).map(|&l| l as u32).collect();
            a = a.line(format!(
                "  reached ({}) with {}",
                model.location_names(&locs).join(", "),
                last.zone
            ));
        }
    }
    a
}
