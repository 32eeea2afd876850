//! Minimisation of obligation properties into weak deterministic Büchi automata (WDBA).
//!
//! Paper: C. Dax, J. Eisinger, F. Klaedtke, "Mechanizing the powerset construction for restricted
//! classes of ω-automata", ATVA'07, §3–4 (as Spot's `minimize_obligation` uses it). The powerset
//! of the automaton `A` is built; an SCC of the powerset automaton `D` is accepting iff the
//! product of `A` with that SCC has an accepting cycle; `D` is then weak and deterministic and is
//! reduced by a Moore-style partition refinement that keeps accepting and rejecting SCCs apart.
//! The construction is exact only for obligation languages, so the result is *verified*:
//! `L(D) ⊆ L(A)` by `D ⊗ A(¬φ) = ∅` and `L(A) ⊆ L(D)` by `A ⊗ D̄ = ∅`, where `D̄` (complete `D`
//! and swap accepting and rejecting SCCs) is the complement of a weak deterministic automaton.
//! When either check fails, the powerset grows beyond a bound, or the budget runs out, `None` is
//! returned (the minimisation is optional: the caller keeps its automaton).

use crate::twa::Twa;
use biodivine_lib_bdd::Bdd;
use std::collections::{HashMap, VecDeque};
use verikit_diag::Budget;

/// Bound on the number of powerset states.
pub(crate) const MAX_POWERSET: usize = 2000;

/// The subset construction of `a` (acceptance ignored), or `None` beyond [`MAX_POWERSET`] states;
/// the deterministic monitor of [`crate::monitor`].
pub(crate) fn powerset_states(a: &Twa) -> Option<Twa> {
    powerset(a, MAX_POWERSET, &Budget::unlimited()).map(|(d, _)| d)
}

/// The powerset automaton: deterministic, complete except for the empty subset (omitted),
/// with the subset of each state; `None` beyond `max` states or when `budget` runs out (polled
/// per subset and per edge split: one subset's letters can take many BDD operations).
fn powerset(a: &Twa, max: usize, budget: &Budget) -> Option<(Twa, Vec<Vec<u32>>)> {
    let mut d = Twa::new(a.aps.clone());
    d.vars = a.vars.clone();
    let mut init: Vec<u32> = a.init.clone();
    init.sort_unstable();
    init.dedup();
    let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
    let mut sets: Vec<Vec<u32>> = Vec::new();
    let mut todo = VecDeque::new();
    if init.is_empty() {
        return None;
    }
    ids.insert(init.clone(), 0);
    sets.push(init.clone());
    d.add_state();
    todo.push_back(init);
    while let Some(s) = todo.pop_front() {
        budget.check().ok()?;
        let src = ids[&s];
        // Split the letters by the edges of the subset.
        let mut parts: Vec<(Bdd, Vec<u32>)> = vec![(a.tt(), Vec::new())];
        for &q in &s {
            for e in &a.states[q as usize] {
                budget.check().ok()?;
                let mut next = Vec::with_capacity(parts.len() * 2);
                for (l, t) in parts {
                    let inside = l.and(&e.label);
                    let outside = l.and_not(&e.label);
                    if !inside.is_false() {
                        let mut t2 = t.clone();
                        if let Err(pos) = t2.binary_search(&e.dst) {
                            t2.insert(pos, e.dst);
                        }
                        next.push((inside, t2));
                    }
                    if !outside.is_false() {
                        next.push((outside, t));
                    }
                }
                parts = next;
                if parts.len() > 4096 {
                    return None;
                }
            }
        }
        // Merge parts with the same target.
        let mut by_target: Vec<(Vec<u32>, Bdd)> = Vec::new();
        for (l, t) in parts {
            if t.is_empty() {
                continue;
            }
            match by_target.iter_mut().find(|(x, _)| *x == t) {
                Some((_, bl)) => *bl = bl.or(&l),
                None => by_target.push((t, l)),
            }
        }
        for (t, l) in by_target {
            let dst = match ids.get(&t) {
                Some(&x) => x,
                None => {
                    if sets.len() >= max {
                        return None;
                    }
                    let x = d.add_state();
                    ids.insert(t.clone(), x);
                    sets.push(t.clone());
                    todo.push_back(t);
                    x
                }
            };
            d.add_edge(src, dst, l, 0);
        }
    }
    d.init = vec![0];
    Some((d, sets))
}

/// Tries to build a minimal-ish weak deterministic automaton equivalent to `a`, given an
/// automaton `neg` for the complement language (used to verify the result).
///
/// `None` (no minimisation) unless both automata have generalized Büchi acceptance, and when
/// `budget` runs out (polled between the steps and per SCC of the powerset).
pub(crate) fn minimize_obligation(a: &Twa, neg: &Twa, budget: &Budget) -> Option<Twa> {
    if a.acc_false || !a.is_generalized_buchi() || !neg.is_generalized_buchi() {
        return None;
    }
    let max = MAX_POWERSET.min(8 * a.num_states() + 64);
    let (mut d, sets) = powerset(a, max, budget)?;
    // Accepting SCCs of d.
    let g = d.graph();
    let sccs = verikit_graph::sccs(&g);
    let all = a.all_marks();
    let mut acc_scc = vec![false; sccs.len()];
    for (c, members) in sccs.members.iter().enumerate() {
        budget.check().ok()?;
        // Product of `a` with the SCC: states (q, x) with q in sets[x].
        let mut pid: HashMap<(u32, u32), u32> = HashMap::new();
        let mut prod = Twa::new(Vec::new());
        prod.num_sets = a.num_sets;
        for &x in members {
            for &q in &sets[x as usize] {
                let id = prod.add_state();
                pid.insert((q, x), id);
            }
        }
        let mut any = false;
        for &x in members {
            for de in &d.states[x as usize] {
                if sccs.comp[de.dst as usize] as usize != c {
                    continue;
                }
                for &q in &sets[x as usize] {
                    for ae in &a.states[q as usize] {
                        if let Some(&to) = pid.get(&(ae.dst, de.dst)) {
                            if !ae.label.and(&de.label).is_false() {
                                let t = prod.tt();
                                prod.add_edge(pid[&(q, x)], to, t, ae.marks & all);
                                any = true;
                            }
                        }
                    }
                }
            }
        }
        if any {
            prod.init = (0..prod.num_states() as u32).collect();
            acc_scc[c] = !crate::emptiness::is_empty(&prod);
        }
    }
    d.num_sets = 1;
    for s in 0..d.num_states() {
        let c = sccs.comp[s] as usize;
        let m = if acc_scc[c] { 1 } else { 0 };
        for e in &mut d.states[s] {
            e.marks = m;
        }
    }
    d.state_based = true;
    // Reduce: bisimulation keeps accepting/rejecting states apart through the marks.
    let d = crate::bisim::merge_bisimilar(&d);
    budget.check().ok()?;
    // Verify L(d) ⊆ L(a): d ⊗ neg empty.
    let p = crate::product::product(&d, neg).ok()?;
    if !crate::emptiness::is_empty(&p) {
        return None;
    }
    budget.check().ok()?;
    // Verify L(a) ⊆ L(d): a ⊗ complement(d) empty.
    let dc = complement_weak_deterministic(&d);
    let p2 = crate::product::product(a, &dc).ok()?;
    if !crate::emptiness::is_empty(&p2) {
        return None;
    }
    Some(d)
}

/// Complement of a weak deterministic automaton whose marks are state-based (`{0}` on states of
/// accepting SCCs): complete it with a rejecting sink, then swap accepting and rejecting SCCs.
fn complement_weak_deterministic(d: &Twa) -> Twa {
    let mut c = d.clone();
    let sink = c.add_state();
    let t = c.tt();
    c.add_edge(sink, sink, t, 0);
    for s in 0..d.num_states() {
        let mut covered = c.ff();
        for e in &c.states[s] {
            covered = covered.or(&e.label);
        }
        if !covered.is_true() {
            let m = c.states[s].first().map_or(0, |e| e.marks);
            let rest = covered.not();
            c.add_edge(s as u32, sink, rest, m);
        }
    }
    let info = crate::scc_info::scc_info(&c);
    for s in 0..c.num_states() {
        let comp = info.sccs.comp[s] as usize;
        let accepting = info.accepting[comp];
        for e in &mut c.states[s] {
            e.marks = if accepting { 0 } else { 1 };
        }
    }
    c.num_sets = 1;
    c
}
