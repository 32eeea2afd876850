//! Predicate abstraction with counterexample-guided refinement over the automaton, in the
//! setting of the CAV 2006 papers it combines:
//! - the abstract post by the SMT solver, cartesian or boolean (all-SAT with blocking clauses):
//!   Lahiri, Nieuwenhuis, Oliveras, "SMT Techniques for Fast Predicate Abstraction", §3
//!   (`abstract_post`);
//! - transition relations strengthened by statically computed invariants (intervals): Jain et
//!   al., "Using Statically Computed Invariants inside the Predicate Abstraction and Refinement
//!   Loop", §3 (`intervals`);
//! - counterexamples with loops simulated with closed forms: Kroening, Weissenbacher,
//!   "Counterexamples with Loops for Predicate Abstraction", §3–4 (`path_feasibility`);
//! - refinement by the path interpolants of McMillan's "Lazy Abstraction with Interpolants", §4
//!   (`path_interp`), each interpolant becoming a predicate of the location it belongs to.
//!
//! Each round builds the abstract reachability graph from scratch: abstract states are cubes over
//! the predicates of their location; a new state is dropped when a reached state of the same
//! location is weaker (fewer literals, all agreeing). When the error (or cut) location is
//! reached, the abstract path is analysed: a repeated loop body is first simulated with its
//! closed form (a real counterexample with `n` iterations, or not); then the plain path is
//! interpolated; a path feasible over the integers is a counterexample (its nondeterministic
//! values come from the SMT model). When no error state is reachable, the reached states'
//! concretisations (conjoined with the interval bounds) are an inductive invariant per location.
//! Refinement that adds no predicate, or that unrolls the same loop once more on each of several
//! consecutive rounds while its body is not a counting loop, stops with the reason (divergence).

use crate::abstract_post::{abstract_post, cube_atoms, Abstraction, Cube};
use crate::cfa::{Atom, Cfa, Loc};
use crate::intervals::{bound_atoms, intervals};
use crate::invariant_check::Invariant;
use crate::path_feasibility::{feasible, Feasible, Segment};
use crate::path_interp::{is_false, path_interpolants, PathInterp};
use verikit_diag::{Budget, Exhausted};

/// The outcome of the CEGAR loop.
pub(crate) enum CegarOutcome {
    /// Safe, with an invariant per location.
    Safe(Invariant),
    /// A real execution to the error: nondeterministic values in order; the iteration count of
    /// the summarised loop when the counterexample went through one.
    Counterexample(Vec<(i128, u32)>, Option<i128>),
    /// A path to a cut recursive call (not an error of the program), or a reason to stop.
    GaveUp(String),
}

/// What the loop did.
pub(crate) struct Cegar {
    pub(crate) outcome: CegarOutcome,
    pub(crate) refinements: usize,
    pub(crate) predicates: usize,
    pub(crate) states: usize,
}

/// Most refinement rounds (a portfolio without a time limit must end).
const MAX_ROUNDS: usize = 200;

/// Consecutive rounds that unroll the same loop once more before the engine reports divergence.
const DIVERGENCE: usize = 12;

struct Node {
    loc: Loc,
    cube: Cube,
    parent: Option<(usize, usize)>,
}

/// Whether `w` is weaker than (covers) `c`.
fn covers(w: &[Option<bool>], c: &[Option<bool>]) -> bool {
    w.iter().zip(c).all(|(a, b)| a.is_none() || a == b)
}

/// The location of a path visited most often, its positions (in the node path).
fn repeated_loop(locs: &[Loc]) -> Option<(Loc, Vec<usize>)> {
    let mut best: Option<(Loc, Vec<usize>)> = None;
    for &l in locs {
        let pos: Vec<usize> = locs
            .iter()
            .enumerate()
            .filter(|(_, &m)| m == l)
            .map(|(i, _)| i)
            .collect();
        if pos.len() >= 3 && best.as_ref().is_none_or(|b| pos.len() > b.1.len()) {
            best = Some((l, pos));
        }
    }
    best
}

/// Runs predicate abstraction with refinement.
pub(crate) fn cegar(cfa: &Cfa, mode: Abstraction, budget: &Budget) -> Result<Cegar, Exhausted> {
    let itv = intervals(cfa, budget)?;
    let ci: Vec<Vec<Atom>> = itv
        .iter()
        .map(|st| {
            st.as_ref()
                .map(|s| bound_atoms(s, &|_| true))
                .unwrap_or_default()
        })
        .collect();
    let out = cfa.out_edges();
    let mut preds: Vec<Vec<Atom>> = vec![Vec::new(); cfa.nlocs];
    let mut refinements = 0usize;
    let mut streak: (Option<Loc>, usize, usize) = (None, 0, 0);
    let mut states = 0usize;
    let done = |outcome, refinements, preds: &Vec<Vec<Atom>>, states| Cegar {
        outcome,
        refinements,
        predicates: preds.iter().map(|p| p.len()).sum(),
        states,
    };
    loop {
        budget.check()?;
        if refinements >= MAX_ROUNDS {
            return Ok(done(
                CegarOutcome::GaveUp(format!(
                    "{MAX_ROUNDS} refinements without a proof or a counterexample"
                )),
                refinements,
                &preds,
                states,
            ));
        }
        let mut nodes = vec![Node {
            loc: cfa.init,
            cube: vec![None; preds.get(cfa.init).map_or(0, |p| p.len())],
            parent: None,
        }];
        let mut reached: Vec<Vec<usize>> = vec![Vec::new(); cfa.nlocs];
        if let Some(r) = reached.get_mut(cfa.init) {
            r.push(0);
        }
        let mut stack = vec![0usize];
        let mut target = None;
        while let Some(v) = stack.pop() {
            budget.spend(1)?;
            let Some(node) = nodes.get(v) else { continue };
            let (loc, cube) = (node.loc, node.cube.clone());
            if loc == cfa.error || loc == cfa.cut {
                target = Some(v);
                break;
            }
            for &e in out.get(loc).into_iter().flatten() {
                let Some(edge) = cfa.edges.get(e) else {
                    continue;
                };
                let to = edge.to;
                if itv.get(to).is_none_or(|s| s.is_none()) {
                    continue; // unreachable by the interval invariant
                }
                let empty = Vec::new();
                let posts = abstract_post(
                    cfa.vars.len(),
                    &edge.op,
                    ci.get(loc).unwrap_or(&empty),
                    preds.get(loc).unwrap_or(&empty),
                    &cube,
                    preds.get(to).unwrap_or(&empty),
                    mode,
                    budget,
                )?;
                for c in posts {
                    let seen = reached
                        .get(to)
                        .into_iter()
                        .flatten()
                        .any(|&w| nodes.get(w).is_some_and(|n| covers(&n.cube, &c)));
                    if seen {
                        continue;
                    }
                    let id = nodes.len();
                    nodes.push(Node {
                        loc: to,
                        cube: c,
                        parent: Some((v, e)),
                    });
                    if let Some(r) = reached.get_mut(to) {
                        r.push(id);
                    }
                    stack.push(id);
                }
            }
        }
        states += nodes.len();
        let Some(t) = target else {
            // Safe: the reached states' concretisations, with the bounds.
            let mut inv: Invariant = vec![Vec::new(); cfa.nlocs];
            for n in &nodes {
                let mut c = cube_atoms(preds.get(n.loc).map_or(&[], |p| p.as_slice()), &n.cube);
                if n.loc != cfa.init {
                    c.extend(ci.get(n.loc).into_iter().flatten().cloned());
                }
                if let Some(d) = inv.get_mut(n.loc) {
                    d.push(c);
                }
            }
            return Ok(done(CegarOutcome::Safe(inv), refinements, &preds, states));
        };
        // The abstract counterexample.
        let mut edges = Vec::new();
        let mut locs = Vec::new();
        let mut cur = t;
        while let Some(n) = nodes.get(cur) {
            locs.push(n.loc);
            match n.parent {
                Some((p, e)) => {
                    edges.push(e);
                    cur = p;
                }
                None => break,
            }
        }
        edges.reverse();
        locs.reverse();
        let to_cut = locs.last() == Some(&cfa.cut) && cfa.cut != cfa.error;
        // C16: a loop unrolled at least twice is simulated with its closed form.
        let mut counting = None;
        if let Some((head, pos)) = repeated_loop(&locs) {
            let (first, last) = (
                pos.first().copied().unwrap_or(0),
                pos.last().copied().unwrap_or(0),
            );
            let bodies: Vec<&[usize]> = pos
                .windows(2)
                .filter_map(|w| edges.get(w.first().copied()?..w.get(1).copied()?))
                .collect();
            let same = bodies.windows(2).all(|b| b.first() == b.get(1));
            if same {
                if let (Some(prefix), Some(body), Some(suffix)) =
                    (edges.get(..first), bodies.first(), edges.get(last..))
                {
                    let segs = [
                        Segment::Plain(prefix),
                        Segment::Loop(body),
                        Segment::Plain(suffix),
                    ];
                    match feasible(cfa, &segs, budget)? {
                        Feasible::Yes(values, n) if !to_cut => {
                            return Ok(done(
                                CegarOutcome::Counterexample(values, n),
                                refinements,
                                &preds,
                                states,
                            ))
                        }
                        Feasible::NotCounting => counting = Some(false),
                        _ => counting = Some(true),
                    }
                }
            }
            // Divergence: the same loop unrolled once more than in the previous round.
            if streak.0 == Some(head) && pos.len() > streak.1 {
                streak = (Some(head), pos.len(), streak.2 + 1);
            } else {
                streak = (Some(head), pos.len(), 0);
            }
            if streak.2 >= DIVERGENCE && counting != Some(true) {
                let line = edges
                    .get(first)
                    .and_then(|&e| cfa.edges.get(e))
                    .map_or(0, |e| e.line);
                return Ok(done(
                    CegarOutcome::GaveUp(format!(
                        "refinement diverges: each of the last {DIVERGENCE} rounds unrolled the loop at line {line} once more, and its body is not a counting loop the closed form summarises"
                    )),
                    refinements,
                    &preds,
                    states,
                ));
            }
        } else {
            streak = (None, 0, 0);
        }
        match path_interpolants(cfa, &edges) {
            PathInterp::GaveUp(why) => {
                return Ok(done(CegarOutcome::GaveUp(why), refinements, &preds, states))
            }
            PathInterp::Feasible => {
                let outcome = match feasible(cfa, &[Segment::Plain(&edges)], budget)? {
                    Feasible::Yes(_, _) if to_cut => CegarOutcome::GaveUp(
                        "a path to a recursive call beyond the inlining depth is feasible".into(),
                    ),
                    Feasible::Yes(values, _) => CegarOutcome::Counterexample(values, None),
                    _ => CegarOutcome::GaveUp(
                        "a path to the error is feasible over the rationals but not over the integers (no interpolant)".into(),
                    ),
                };
                return Ok(done(outcome, refinements, &preds, states));
            }
            PathInterp::Refuted(itps) => {
                refinements += 1;
                let mut added = false;
                for (i, itp) in itps.into_iter().enumerate() {
                    let Some(a) = itp else { continue };
                    if is_false(std::slice::from_ref(&a)) {
                        continue;
                    }
                    let Some(&l) = locs.get(i + 1) else { continue };
                    if let Some(p) = preds.get_mut(l) {
                        if !p.contains(&a) {
                            p.push(a);
                            added = true;
                        }
                    }
                }
                if !added {
                    return Ok(done(
                        CegarOutcome::GaveUp(
                            "refinement found no new predicate for a spurious counterexample"
                                .into(),
                        ),
                        refinements,
                        &preds,
                        states,
                    ));
                }
            }
        }
    }
}
