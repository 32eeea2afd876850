//! Liveness properties reduced to lasso searches on the zone graph of `liveness` (split along
//! the clock constraints of the formulas by `atom_split`, so that each node gives them one truth
//! value), and their witnesses as timed traces:
//! - `E[] φ` (UPPAAL): a path from the initial state inside the φ-restricted graph to a node on a
//!   cycle or where a maximal path can stop (deadlock, or time diverging), searched on the fly
//!   (`lasso_dfs`: the search stops at the first lasso);
//! - `A<> φ` = `not E[] not φ`;
//! - `φ --> ψ` = `A[] (φ imply A<> ψ)`, as UPPAAL reduces it: it fails iff some reachable state
//!   satisfies `φ ∧ ¬ψ` and `E[] ¬ψ` holds there; the graph is explored breadth-first and, from
//!   each `φ ∧ ¬ψ` node met, the ¬ψ part is searched on the fly (finished nodes shared between
//!   these searches);
//! - Büchi emptiness with accepting labels (TChecker's `tck-liveness -l`): an accepting node on a
//!   cycle reachable from the initial state, searched on the fly by Couvreur's algorithm
//!   (`couvreur_scc`, TChecker's `couvscc`: the search stops at the first accepting component).
//!
//! The witness is a lasso: the moves to the loop node, then the cycle taken twice, concretised
//! along exact zones inside the pieces of the path (`AtomSplit::concretize`) so that the
//! independent checkers (`replay`, `replay_formula`) can confirm that the cycle is re-entered
//! (same discrete state after each turn), that the formula holds as required at every instant,
//! and that a path that stops ends in a deadlocked valuation or a state where time diverges.
//!
//! Seed: Herbreteau, Srivathsan, Walukiewicz, "Efficient emptiness check for timed Büchi
//! automata" (CAV 2010), §2–§3 (soundness of cycle detection on abstract zone graphs); Behrmann,
//! David, Larsen, "A Tutorial on UPPAAL" (2004), §2.2 (the query semantics and `-->`).

use crate::atom_split::{AtomSplit, Piece};
use crate::couvreur_scc::{couvreur_scc, SccOutcome};
use crate::lasso_dfs::{dfs_lasso, DfsOutcome};
use crate::liveness::{moves_of, path_from_initial, Explorer, LiveGraph};
use crate::model::{ClockAtom, Model};
use crate::query::{ReachResult, SymbolicStep};
use crate::uppaal::QueryKind;
use crate::zone_graph::{Discrete, Extrapolation, Transition, ZoneGraph};
use std::time::Instant;
use verikit_diag::{Answer, Budget, Diagnostic};

/// The shape of a liveness witness: its timed trace has `prefix` steps to the loop node, then
/// the cycle (`cycle` steps) twice; `cycle == 0` means the path stops (deadlock or diverging
/// time) after `prefix` steps. The property part starts after `stem` steps (the `φ ∧ ¬ψ` state
/// of a leads-to counterexample; 0 otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LassoShape {
    pub stem: usize,
    pub prefix: usize,
    pub cycle: usize,
    /// The cycle resets a clock and waits for it to reach 1 (`non_zeno::cycle_progresses`): its
    /// repetition is a non-Zeno run. When false, the search (as UPPAAL's and TChecker's) did not
    /// exclude Zeno cycles and this one may be Zeno.
    pub cycle_progresses: bool,
}

/// A state predicate: the discrete state and the truth values of the formula's clock
/// constraints (bit `k` for constraint `k`).
pub(crate) type StatePred<'a> = &'a dyn Fn(&Discrete, u32) -> bool;

/// What to search for.
pub(crate) enum Goal<'a> {
    /// A maximal path staying in the states satisfying the predicate (`E[]`).
    Globally(StatePred<'a>),
    /// A reachable state satisfying the first predicate and not the second, from which a
    /// maximal path avoids the second (a counterexample to `-->`).
    LeadsToViolation(StatePred<'a>, StatePred<'a>),
    /// A reachable cycle through an accepting state.
    Buchi(&'a dyn Fn(&Discrete) -> bool),
}

/// The result of a lasso search: `search.reachable` is `Some(true)` when a witness was found
/// (its trace in `search.timed`, its shape in `shape`).
pub(crate) struct LiveOutcome {
    pub(crate) search: ReachResult,
    pub(crate) shape: Option<LassoShape>,
}

/// Runs the lasso search for `goal` on the zone graph under `extrapolation`, split along the
/// clock constraints `atoms` of the goal's predicates (`atom_split`).
pub(crate) fn search_lasso(
    model: &Model,
    extrapolation: Extrapolation,
    atoms: &[ClockAtom],
    goal: &Goal<'_>,
    budget: &Budget,
) -> Result<LiveOutcome, Diagnostic> {
    let t0 = Instant::now();
    model.refuse_diagonals()?;
    let split = AtomSplit::new(atoms)?;
    let mut zg = ZoneGraph::new(model, extrapolation);
    zg.raise_bounds(atoms);
    let all = |_: &Discrete, _: u32| true;
    let keep: StatePred<'_> = match goal {
        Goal::Globally(phi) => *phi,
        _ => &all,
    };
    let mut ex = Explorer::new(&mut zg, &split, keep)?;
    let truth = |g: &LiveGraph, v: u32| split.truth(g.piece(v));
    let mut colours = Vec::new();
    let mut exhausted = None;
    let mut lasso = None;
    match goal {
        Goal::Buchi(acc) => {
            // on the fly: Couvreur's algorithm stops at the first accepting component
            budget
                .progress()
                .phase("zone graph (liveness, couvscc): nodes", None);
            let a = |g: &LiveGraph, v: u32| acc(g.disc(v));
            match couvreur_scc(&mut ex, &a, budget)? {
                SccOutcome::Found(l) => lasso = Some(l),
                SccOutcome::NotFound => {}
                SccOutcome::Exhausted(e) => exhausted = Some(e),
            }
        }
        Goal::Globally(_) => {
            budget
                .progress()
                .phase("zone graph (liveness, on the fly): nodes", None);
            let sources = ex.g.initial.clone();
            match dfs_lasso(&mut ex, &sources, &|_, _| true, &mut colours, budget)? {
                DfsOutcome::Found(l) => lasso = Some(l),
                DfsOutcome::NotFound => {}
                DfsOutcome::Exhausted(e) => exhausted = Some(e),
            }
        }
        Goal::LeadsToViolation(phi, psi) => {
            // every reachable node, breadth-first; from each `φ ∧ ¬ψ` one, a depth-first search
            // of the `¬ψ` part (sharing what earlier searches finished)
            budget
                .progress()
                .phase("zone graph (liveness, on the fly): nodes", None);
            let sub = |g: &LiveGraph, v: u32| !psi(g.disc(v), truth(g, v));
            let mut ticker = budget.ticker(256);
            let mut next = 0u32;
            while (next as usize) < ex.g.nodes.len() {
                if let Err(e) = ticker.tick() {
                    exhausted = Some(e);
                    break;
                }
                let v = next;
                next += 1;
                ex.expand(v)?;
                if ex.zg.overflowed() {
                    break;
                }
                if !(phi(ex.g.disc(v), truth(&ex.g, v)) && sub(&ex.g, v)) {
                    continue;
                }
                match dfs_lasso(&mut ex, &[v], &sub, &mut colours, budget)? {
                    DfsOutcome::Found(l) => {
                        lasso = Some(l);
                        break;
                    }
                    DfsOutcome::NotFound => {}
                    DfsOutcome::Exhausted(e) => {
                        exhausted = Some(e);
                        break;
                    }
                }
            }
        }
    }
    let g = ex.g;
    // moves cut short (too many broadcast combinations): no witness can be trusted
    let (lasso, exhausted) = if zg.overflowed() {
        (None, Some(verikit_diag::Exhausted::Work))
    } else {
        (lasso, exhausted)
    };
    let mut search = ReachResult {
        reachable: match (&lasso, exhausted) {
            (Some(_), _) => Some(true),
            (None, Some(_)) => None,
            (None, None) => Some(false),
        },
        stats: g.stats,
        exhausted,
        symbolic: Vec::new(),
        timed: None,
        labels: Vec::new(),
        seconds: 0.0,
        runtime_error: None,
    };
    let mut shape = None;
    if let Some(l) = lasso {
        let first = *l.path.first().ok_or_else(internal)?;
        let stem_nodes = path_from_initial(&g, first).ok_or_else(internal)?;
        let mut nodes = stem_nodes.clone();
        nodes.extend(l.path.iter().skip(1));
        // the node sequence of the trace: to the loop node, then the cycle twice
        let mut all_nodes = nodes.clone();
        all_nodes.extend(&l.cycle);
        all_nodes.extend(&l.cycle);
        let edges = moves_of(&g, &all_nodes).ok_or_else(internal)?;
        let actions = |from: usize, to: usize| {
            edges
                .get(from..to)
                .map_or(0, |es| es.iter().filter(|t| !t.is_empty()).count())
        };
        let prefix = actions(0, nodes.len() - 1);
        let stem = actions(0, stem_nodes.len() - 1);
        let cyc_from = nodes.len() - 1;
        let cycle_moves: Vec<Transition> = edges
            .get(cyc_from..cyc_from + l.cycle.len())
            .unwrap_or_default()
            .iter()
            .filter(|t| !t.is_empty())
            .cloned()
            .collect();
        let states: Vec<(Discrete, Piece)> = all_nodes
            .iter()
            .map(|&v| (g.disc(v).clone(), g.piece(v)))
            .collect();
        let tt = split
            .concretize(&zg, &states, &edges, l.cycle.is_empty())
            .map_err(|e| {
                Diagnostic::error(format!(
                    "internal error: concrete lasso reconstruction failed: {e}"
                ))
            })?;
        search.symbolic = symbolic(model, &g, &nodes, &l.cycle);
        search.timed = Some(tt);
        shape = Some(LassoShape {
            stem,
            prefix,
            cycle: cycle_moves.len(),
            cycle_progresses: crate::non_zeno::cycle_progresses(model, &cycle_moves),
        });
    }
    search.seconds = t0.elapsed().as_secs_f64();
    Ok(LiveOutcome { search, shape })
}

fn internal() -> Diagnostic {
    Diagnostic::error("internal error: inconsistent liveness witness")
}

fn symbolic(model: &Model, g: &LiveGraph, nodes: &[u32], cycle: &[u32]) -> Vec<SymbolicStep> {
    let mut out = Vec::new();
    let mut prev: Option<u32> = None;
    for &v in nodes.iter().chain(cycle) {
        let (_, z) = &g.nodes[v as usize];
        out.push(SymbolicStep {
            transition: prev.and_then(|p| g.move_to(p, v).cloned()),
            discrete: g.disc(v).clone(),
            zone: z.describe(&model.clocks),
        });
        prev = Some(v);
    }
    out
}

/// Büchi emptiness as TChecker's `tck-liveness -l`: is there a run visiting states whose
/// locations carry all `labels` infinitely often? `Some(true)` with a lasso, `Some(false)`, or
/// `None` when the budget ran out. The zone graph uses the chosen extrapolation (ExtraLU+ local by
/// default: sound for cycles, HSW CAV'10 §3); the search order and covering options do not apply
/// (no covering: it is unsound for cycles).
pub fn check_buchi(
    model: &Model,
    labels: &[String],
    opts: crate::query::Options,
    budget: &Budget,
) -> Result<(ReachResult, Option<LassoShape>), Diagnostic> {
    let ids = crate::query::resolve_labels(model, labels)?;
    if ids.is_empty() {
        return Err(Diagnostic::error(
            "liveness needs accepting labels (`-l`): a state is accepting when its locations carry all of them",
        ));
    }
    let n = model.processes.len();
    let acc = |d: &Discrete| {
        ids.iter().all(|lab| {
            d.iter().take(n).zip(&model.processes).any(|(&l, p)| {
                p.locations
                    .get(l as usize)
                    .is_some_and(|l| l.labels.contains(lab))
            })
        })
    };
    let out = search_lasso(model, opts.extrapolation, &[], &Goal::Buchi(&acc), budget)?;
    let mut r = out.search;
    r.labels = ids;
    Ok((r, out.shape))
}

/// The answer printed by `verikit ta liveness`: `true` = an accepting cycle exists (the language
/// is non-empty), with the lasso as witness.
pub fn buchi_answer(
    model: &Model,
    r: &ReachResult,
    shape: Option<LassoShape>,
    opts: crate::query::Options,
) -> verikit_diag::Answer {
    use verikit_diag::Verdict;
    let (verdict, word) = match (r.reachable, r.exhausted) {
        (Some(true), _) => (Verdict::True, "accepting cycle"),
        (Some(false), _) => (Verdict::False, "no accepting cycle"),
        (None, Some(e)) if e.verdict_word() == "timeout" => (Verdict::Timeout, "unknown"),
        (None, _) => (Verdict::Unknown, "unknown"),
    };
    let mut opts = opts;
    opts.algo = crate::reach::Algo::Reach;
    let mut a = crate::query::answer_with(model, r, opts, verdict, word, None)
        .detail("search", lasso_search_name(None));
    if let Some(l) = shape {
        a = lasso_details(a, l);
    }
    a
}

/// The name of the search `search_lasso` runs, as answers report it (`search`): Couvreur's
/// algorithm for Büchi emptiness (`kind` = `None`), the on-the-fly lasso search for `E[]`/`A<>`,
/// and a breadth-first search with lasso searches from its `φ ∧ ¬ψ` nodes for `-->`.
pub(crate) fn lasso_search_name(kind: Option<QueryKind>) -> &'static str {
    match kind {
        None => "couvreur-scc",
        Some(QueryKind::LeadsTo) => "bfs+lasso-dfs",
        Some(_) => "lasso-dfs",
    }
}

/// The shape of a liveness witness in an answer.
pub(crate) fn lasso_details(a: Answer, l: LassoShape) -> Answer {
    let a = a
        .detail("lasso_stem", l.stem)
        .detail("lasso_prefix", l.prefix)
        .detail("lasso_cycle", l.cycle);
    if l.cycle == 0 {
        a.line(format!(
            "  witness: a maximal path that stops after {} moves (deadlock or diverging time)",
            l.prefix
        ))
    } else {
        a.detail("witness_non_zeno", l.cycle_progresses)
            .line(format!(
                "  witness: a lasso, {} moves then a cycle of {} moves (shown twice)",
                l.prefix, l.cycle
            ))
            .line(if l.cycle_progresses {
                "  the cycle resets a clock and waits for it to reach 1: repeating it lets time diverge (non-Zeno)"
            } else {
                "  the cycle's time progress is not established: Zeno cycles are not excluded (as in UPPAAL and TChecker)"
            })
    }
}
