//! AutoSTE's choice of inputs to refine (Tzoref, Grumberg, *Automatic refinement and vacuity
//! detection for STE*, CAV'06 C20, §4):
//!
//! * the refinement goal `(root, tt)`: the undecided consequent node with the fewest inputs in
//!   its bounded cone of influence (BCOI, §2), then the fewest nodes;
//! * `relevant(n,t)`: the valuations under which `(n,t)` lies on an all-X path to the goal,
//!   computed backwards from `relevant(root,tt) = ¬f¹ ∧ ¬f⁰ ∧ (g¹ ∨ g⁰)` as
//!   `(∨ sinks relevant) ∧ ¬f¹ ∧ ¬f⁰`; `PI(root,tt)` the leaves with `relevant ≢ 0`;
//! * the candidate heuristics: a leaf of `PI` is its own candidate; a gate takes the candidates
//!   common to all its sources' non-empty candidate sets (rule 1), otherwise those of its control
//!   sources (rule 2), otherwise the candidates occurring most often among them (rule 3). An AIG
//!   carries no clocks, so its control sources are the select signals of multiplexers, found
//!   structurally: in `¬(c∧a) ∧ ¬(¬c∧b)` (`if c then a else b`, the shape of a latch's load
//!   enable or a memory's write enable) the two inner gates have the control source `c` and the
//!   data sources `a`, `b`. The vector grouping of candidates is not applied.
//!
//! The caller adds `relevant → N^t (in is v_fresh)` for the chosen leaves (the paper's
//! optimised refinement), which preserves the assertion's meaning (Theorem 1).

use crate::ste::SteRun;
use crate::ste_sim::Leaf;
use std::collections::{BTreeMap, BTreeSet};
use verikit_aiger::{Aig, Kind};
use verikit_bdd::Bdd;
use verikit_diag::{Budget, Exhausted};

/// The refinement goal and the leaves chosen for it, each with its `relevant` valuations.
pub(crate) struct Choice {
    pub(crate) goal: (usize, u32),
    pub(crate) chosen: Vec<(Leaf, Bdd)>,
    /// |PI(root,tt)|: leaves relevant to the goal.
    pub(crate) relevant_inputs: usize,
}

/// A candidate goal: its key (leaves, nodes in the cone), node, cone, undecided valuations.
type Goal = ((usize, usize), (usize, u32), Vec<(usize, u32)>, Bdd);

/// Evaluation rank of a variable inside one frame (constants, inputs, latches, gates in order).
fn rank(kinds: &[Kind], var: u32) -> usize {
    match kinds.get(var as usize) {
        Some(Kind::Input(_)) => 1,
        Some(Kind::Latch(_)) => 2,
        Some(Kind::And(k)) => 3 + k,
        _ => 0,
    }
}

fn sources(aig: &Aig, kinds: &[Kind], (t, var): (usize, u32)) -> Vec<(usize, u32)> {
    match kinds.get(var as usize) {
        Some(Kind::Latch(k)) if t > 0 => aig
            .latches
            .get(*k)
            .map(|l| vec![(t - 1, l.next >> 1)])
            .unwrap_or_default(),
        Some(Kind::And(k)) => aig
            .ands
            .get(*k)
            .map(|g| vec![(t, g.rhs0 >> 1), (t, g.rhs1 >> 1)])
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

fn is_leaf(kinds: &[Kind], (t, var): (usize, u32)) -> bool {
    match kinds.get(var as usize) {
        Some(Kind::Input(_)) => true,
        Some(Kind::Latch(_)) => t == 0,
        _ => false,
    }
}

/// The multiplexers' inner gates: AND variable → the variable of its control source (rule 2).
fn mux_controls(aig: &Aig, kinds: &[Kind]) -> BTreeMap<u32, u32> {
    let fanins = |l: u32| match kinds.get((l >> 1) as usize) {
        Some(Kind::And(k)) if l & 1 == 1 => aig.ands.get(*k).map(|g| [g.rhs0, g.rhs1]),
        _ => None,
    };
    let mut out = BTreeMap::new();
    for g in &aig.ands {
        let (Some(x), Some(y)) = (fanins(g.rhs0), fanins(g.rhs1)) else {
            continue;
        };
        if let Some(&c) = x.iter().find(|&&l| y.contains(&(l ^ 1))) {
            out.entry(g.rhs0 >> 1).or_insert(c >> 1);
            out.entry(g.rhs1 >> 1).or_insert(c >> 1);
        }
    }
    out
}

/// The BCOI of a node, in evaluation order.
fn bcoi(aig: &Aig, kinds: &[Kind], root: (usize, u32)) -> Vec<(usize, u32)> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if seen.insert(n) {
            stack.extend(sources(aig, kinds, n));
        }
    }
    let mut v: Vec<(usize, u32)> = seen.into_iter().collect();
    v.sort_by_key(|&(t, var)| (t, rank(kinds, var)));
    v
}

/// Chooses the goal and at most `limit` leaves to make symbolic; `None` without undecided nodes.
pub(crate) fn choose(
    aig: &Aig,
    run: &SteRun,
    limit: usize,
    budget: &Budget,
) -> Result<Option<Choice>, Exhausted> {
    let kinds = aig.kinds();
    // The goal: fewest leaves in the BCOI, then fewest nodes.
    let mut best: Option<Goal> = None;
    for (node, x) in &run.undecided {
        budget.check()?;
        let cone = bcoi(aig, &kinds, *node);
        let key = (
            cone.iter().filter(|&&n| is_leaf(&kinds, n)).count(),
            cone.len(),
        );
        if best.as_ref().is_none_or(|b| key < b.0) {
            best = Some((key, *node, cone, x.clone()));
        }
    }
    let Some((_, goal, cone, root_x)) = best else {
        return Ok(None);
    };
    let x_of = |(t, var): (usize, u32)| -> Bdd {
        match run.traj.rails.get(t).and_then(|fr| fr.get(var as usize)) {
            Some(r) => r.one.not().and(&r.zero.not()),
            None => run.alg.vars.mk_false(),
        }
    };
    // relevant, backwards over the cone.
    let mut rel: BTreeMap<(usize, u32), Bdd> = BTreeMap::new();
    rel.insert(goal, root_x);
    for &n in cone.iter().rev() {
        budget.check()?;
        let Some(r) = rel.get(&n).cloned() else {
            continue;
        };
        if r.is_false() {
            continue;
        }
        for s in sources(aig, &kinds, n) {
            let add = r.and(&x_of(s));
            let e = rel.entry(s).or_insert_with(|| run.alg.vars.mk_false());
            *e = e.or(&add);
        }
    }
    let pi: BTreeSet<(usize, u32)> = cone
        .iter()
        .copied()
        .filter(|&n| is_leaf(&kinds, n) && rel.get(&n).is_some_and(|b| !b.is_false()))
        .collect();
    // Candidates, forwards over the cone (rules 1, 2 and 3).
    let controls = mux_controls(aig, &kinds);
    let mut cand: BTreeMap<(usize, u32), BTreeSet<(usize, u32)>> = BTreeMap::new();
    for &n in &cone {
        let c: BTreeSet<(usize, u32)> = if is_leaf(&kinds, n) {
            pi.iter().copied().filter(|&p| p == n).collect()
        } else {
            let sets: Vec<&BTreeSet<(usize, u32)>> = sources(aig, &kinds, n)
                .iter()
                .filter_map(|s| cand.get(s))
                .filter(|c| !c.is_empty())
                .collect();
            match sets.split_first() {
                None => BTreeSet::new(),
                Some((first, rest)) => {
                    let common: BTreeSet<(usize, u32)> = first
                        .iter()
                        .copied()
                        .filter(|p| rest.iter().all(|s| s.contains(p)))
                        .collect();
                    let control = controls
                        .get(&n.1)
                        .and_then(|&c| cand.get(&(n.0, c)))
                        .filter(|c| !c.is_empty());
                    if !common.is_empty() {
                        common
                    } else if let Some(control) = control {
                        control.clone()
                    } else {
                        let mut count: BTreeMap<(usize, u32), usize> = BTreeMap::new();
                        for s in &sets {
                            for &p in s.iter() {
                                *count.entry(p).or_default() += 1;
                            }
                        }
                        let max = count.values().copied().max().unwrap_or(0);
                        count
                            .into_iter()
                            .filter(|&(_, k)| k == max)
                            .map(|(p, _)| p)
                            .collect()
                    }
                }
            }
        };
        cand.insert(n, c);
    }
    let mut final_set: Vec<(usize, u32)> = cand
        .get(&goal)
        .map(|c| c.iter().copied().collect())
        .unwrap_or_default();
    if final_set.is_empty() {
        final_set = pi.iter().copied().collect();
    }
    let chosen = final_set
        .into_iter()
        .take(limit.max(1))
        .filter_map(|n| {
            rel.get(&n).map(|b| {
                (
                    Leaf {
                        time: n.0,
                        var: n.1,
                    },
                    b.clone(),
                )
            })
        })
        .collect();
    Ok(Some(Choice {
        goal,
        chosen,
        relevant_inputs: pi.len(),
    }))
}
