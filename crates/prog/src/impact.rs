//! Lazy abstraction with interpolants — K. L. McMillan, "Lazy Abstraction with Interpolants",
//! CAV 2006, §3 (the unwinding, covering, the `Expand`/`Refine`/`Close` procedures) and §4
//! (interpolants for linear arithmetic from the refutation of a path).
//!
//! The abstract reachability tree (unwinding) starts from the initial location with label
//! `true`. A node at the error (or cut) location is refined: the path formula (SSA, one
//! constraint row per assume atom and assignment) is decided over the rationals by the one exact
//! LP of `verikit-num`; its Farkas certificate, summed over each prefix of the path, gives the
//! sequence interpolant `I_1 … I_n = false` (McMillan's linear-arithmetic interpolants: the prefix
//! sum mentions only the variables current at the cut). A rational refutation is a sound
//! integer refutation, so the labels stay over-approximations over the integers. When the path is
//! feasible over the rationals the engine stops (the portfolio hands over to bounded model
//! checking, which finds the integer counterexample or not). A node is covered by an earlier
//! uncovered node at the same location whose label it implies (implication checked with the
//! same LP); strengthening a label uncovers the nodes it covered. Forced covering and large-block
//! encoding are not implemented.
//!
//! When no uncovered node is left to expand, the disjunction of the labels of the uncovered
//! nodes of each location is an inductive invariant that excludes the error location.

use crate::cfa::{Atom, Cfa, Lin, Loc, Var};
use crate::path_interp::{falsum, is_false, path_interpolants, Lp, PathInterp};
use verikit_diag::{Budget, Exhausted};
use verikit_num::exact_lp::Feasibility;

/// The outcome of IMPACT.
pub(crate) enum ImpactResult {
    /// Safe, with an invariant per location (a disjunction of conjunctions of atoms).
    Safe(Vec<Vec<Vec<Atom>>>),
    /// A path to the error (or to a cut call) that is feasible over the rationals.
    FeasiblePath,
    /// A path longer than the LP handles, or an interpolant outside the linear fragment.
    GaveUp(String),
}

struct Node {
    loc: Loc,
    label: Vec<Atom>,
    parent: Option<usize>,
    edge: Option<usize>,
    covered_by: Option<usize>,
    expanded: bool,
}

/// integers; `¬(l ≤ 0)` is `l ≥ 1`).
fn implies(a: &[Atom], b: &[Atom]) -> bool {
    if is_false(a) {
        return true;
    }
    'atoms: for atom in b {
        if a.contains(atom) {
            continue;
        }
        let negs: Vec<Lin> = if atom.eq {
            vec![
                atom.lin.add_const(1).unwrap_or_default(),
                atom.lin
                    .scale(-1)
                    .and_then(|l| l.add_const(1))
                    .unwrap_or_default(),
            ]
        } else {
            vec![atom
                .lin
                .scale(-1)
                .and_then(|l| l.add_const(1))
                .unwrap_or_default()]
        };
        for neg in negs {
            let mut vars: Vec<Var> = a
                .iter()
                .flat_map(|x| x.lin.coeffs.keys().copied())
                .collect();
            vars.extend(neg.coeffs.keys().copied());
            vars.sort_unstable();
            vars.dedup();
            let mut lp = Lp::new();
            let mut cols = Vec::new();
            for _ in &vars {
                cols.push(lp.fresh());
            }
            let col = |x: Var| {
                vars.binary_search(&x)
                    .ok()
                    .and_then(|i| cols.get(i).copied())
                    .unwrap_or(0)
            };
            for x in a {
                lp.add(&x.lin, &col, x.eq);
            }
            lp.add(&neg, &col, false);
            if let Feasibility::Feasible(_) = lp.solve() {
                return false;
            }
            continue;
        }
        continue 'atoms;
    }
    true
}

/// Runs IMPACT on the automaton (the cut location counts as an error).
pub(crate) fn impact(cfa: &Cfa, budget: &Budget) -> Result<ImpactResult, Exhausted> {
    let out = cfa.out_edges();
    let mut nodes: Vec<Node> = vec![Node {
        loc: cfa.init,
        label: Vec::new(),
        parent: None,
        edge: None,
        covered_by: None,
        expanded: false,
    }];
    let mut by_loc: Vec<Vec<usize>> = vec![Vec::new(); cfa.nlocs];
    if let Some(b) = by_loc.get_mut(cfa.init) {
        b.push(0);
    }
    let mut work = vec![0usize];
    while let Some(v) = work.pop() {
        budget.spend(1)?;
        if dead(&nodes, v) {
            continue;
        }
        let loc = nodes.get(v).map(|n| n.loc).unwrap_or(0);
        // Close: cover v by an earlier uncovered node at the same location.
        let label = nodes.get(v).map(|n| n.label.clone()).unwrap_or_default();
        let mut coverer = None;
        for &w in by_loc.get(loc).into_iter().flatten() {
            if w >= v || dead(&nodes, w) {
                continue;
            }
            let wl = nodes.get(w).map(|n| n.label.as_slice()).unwrap_or(&[]);
            if implies(&label, wl) {
                coverer = Some(w);
                break;
            }
        }
        if let Some(w) = coverer {
            if let Some(n) = nodes.get_mut(v) {
                n.covered_by = Some(w);
            }
            continue;
        }
        if loc == cfa.error || loc == cfa.cut {
            match refine(cfa, &mut nodes, v)? {
                Refined::Feasible => return Ok(ImpactResult::FeasiblePath),
                Refined::GaveUp(why) => return Ok(ImpactResult::GaveUp(why)),
                Refined::Strengthened(list) => {
                    // Uncover what the strengthened nodes covered.
                    for i in 0..nodes.len() {
                        let c = nodes.get(i).and_then(|n| n.covered_by);
                        if c.is_some_and(|c| list.contains(&c)) {
                            if let Some(n) = nodes.get_mut(i) {
                                n.covered_by = None;
                            }
                            work.push(i);
                        }
                    }
                }
            }
            continue;
        }
        if nodes.get(v).is_some_and(|n| n.expanded) {
            continue;
        }
        if let Some(n) = nodes.get_mut(v) {
            n.expanded = true;
        }
        for &e in out.get(loc).into_iter().flatten().rev() {
            let to = cfa.edges.get(e).map(|e| e.to).unwrap_or(0);
            let id = nodes.len();
            nodes.push(Node {
                loc: to,
                label: Vec::new(),
                parent: Some(v),
                edge: Some(e),
                covered_by: None,
                expanded: false,
            });
            if let Some(b) = by_loc.get_mut(to) {
                b.push(id);
            }
            work.push(id);
        }
    }
    // The invariant: per location, the labels of the nodes that are neither covered nor false.
    let mut inv: Vec<Vec<Vec<Atom>>> = vec![Vec::new(); cfa.nlocs];
    for (i, n) in nodes.iter().enumerate() {
        if !dead(&nodes, i) {
            if let Some(d) = inv.get_mut(n.loc) {
                d.push(n.label.clone());
            }
        }
    }
    Ok(ImpactResult::Safe(inv))
}

/// A node is dead when it or an ancestor is covered, or its label is false.
fn dead(nodes: &[Node], v: usize) -> bool {
    let mut cur = Some(v);
    while let Some(c) = cur {
        let Some(n) = nodes.get(c) else { return true };
        if n.covered_by.is_some() || is_false(&n.label) {
            return true;
        }
        cur = n.parent;
    }
    false
}

enum Refined {
    Strengthened(Vec<usize>),
    Feasible,
    GaveUp(String),
}

fn refine(cfa: &Cfa, nodes: &mut [Node], v: usize) -> Result<Refined, Exhausted> {
    // The path root → v.
    let mut path = Vec::new();
    let mut cur = v;
    while let Some(n) = nodes.get(cur) {
        match (n.parent, n.edge) {
            (Some(p), Some(e)) => {
                path.push((cur, e));
                cur = p;
            }
            _ => break,
        }
    }
    path.reverse();
    let edges: Vec<usize> = path.iter().map(|p| p.1).collect();
    let interps = match path_interpolants(cfa, &edges) {
        PathInterp::Feasible => return Ok(Refined::Feasible),
        PathInterp::GaveUp(why) => return Ok(Refined::GaveUp(why)),
        PathInterp::Refuted(i) => i,
    };
    let mut strengthened = Vec::new();
    for ((node, _), interp) in path.iter().zip(interps) {
        let Some(a) = interp else { continue };
        let Some(nd) = nodes.get_mut(*node) else {
            continue;
        };
        if is_false(std::slice::from_ref(&a)) {
            if !is_false(&nd.label) {
                nd.label = vec![falsum()];
                strengthened.push(*node);
            }
        } else if !implies(&nd.label, std::slice::from_ref(&a)) {
            nd.label.push(a);
            strengthened.push(*node);
        }
    }
    Ok(Refined::Strengthened(strengthened))
}
