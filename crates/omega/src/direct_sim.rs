//! Reduction by direct simulation on transition-based generalized Büchi automata.
//!
//! Direct simulation (Dill, Hu, Wong-Toi, CAV'91; used for Büchi automata reduction by Somenzi
//! and Bloem, CAV'00, §4, and by Etessami, Wilke, Schuller, "Fair simulation relations, parity
//! games, and state space reduction for Büchi automata", ICALP'01), adapted to transition marks
//! as in Spot's reductions (Babiak, Badie, Duret-Lutz, Křetínský, Strejček, "Compositional
//! approach to suspension and other improvements to LTL translation", SPIN'13): `q` simulates
//! `p` iff for every edge `p -(σ, M)-> p'` there is an edge `q -(σ, M')-> q'` with `M ⊆ M'` and
//! `q'` simulating `p'`. The greatest such relation is computed by refinement from the full
//! relation; letters are handled symbolically (the labels of the matching edges of `q` must cover
//! the label of `p`'s edge). Simulation-equivalent states are merged (edges of all members, which
//! preserves the language for direct simulation), then "little brothers" are removed: the letters
//! of an edge are dropped where another edge of the same state reaches a simulating state with at
//! least its marks. This is the cheap baseline of simulation-based minimisation; the fair and
//! delayed simulations of Juvekar–Piterman (CAV'06) are separate.

use crate::twa::Twa;
use std::collections::HashMap;

/// Largest automaton (states) the reduction is tried on.
pub(crate) const MAX_STATES: usize = 300;

/// Labels as truth tables when there are few atomic propositions (bit `v` = valuation `v`).
pub(crate) fn truth_tables(aut: &Twa) -> Option<Vec<Vec<Vec<u64>>>> {
    let nap = aut.aps.len();
    if nap > 8 {
        return None;
    }
    Some(crate::sim_game::tables(aut))
}

/// The direct simulation preorder: `sim[p * n + q]` iff `q` simulates `p`.
///
/// The relation compares marks as generalized Büchi sets: for any other acceptance condition it
/// is only the identity (no state simulates another), so no caller merges states by it.
pub(crate) fn direct_simulation(aut: &Twa) -> Vec<bool> {
    let n = aut.num_states();
    if !aut.is_generalized_buchi() {
        return (0..n * n).map(|i| i / n.max(1) == i % n.max(1)).collect();
    }
    let mut sim = vec![true; n * n];
    let tables = truth_tables(aut);
    loop {
        let mut changed = false;
        for p in 0..n {
            for q in 0..n {
                if p == q || !sim[p * n + q] {
                    continue;
                }
                let ok = match &tables {
                    Some(t) => aut.states[p].iter().enumerate().all(|(i, ep)| {
                        let need = &t[p][i];
                        let mut cover = vec![0u64; need.len()];
                        for (j, eq) in aut.states[q].iter().enumerate() {
                            if ep.marks & eq.marks == ep.marks
                                && sim[ep.dst as usize * n + eq.dst as usize]
                            {
                                for (c, x) in cover.iter_mut().zip(&t[q][j]) {
                                    *c |= x;
                                }
                            }
                        }
                        need.iter().zip(&cover).all(|(a, c)| a & !c == 0)
                    }),
                    None => aut.states[p].iter().all(|ep| {
                        let mut cover = aut.ff();
                        for eq in &aut.states[q] {
                            if ep.marks & eq.marks == ep.marks
                                && sim[ep.dst as usize * n + eq.dst as usize]
                            {
                                cover = cover.or(&eq.label);
                            }
                        }
                        ep.label.imp(&cover).is_true()
                    }),
                };
                if !ok {
                    sim[p * n + q] = false;
                    changed = true;
                }
            }
        }
        if !changed {
            return sim;
        }
    }
}

/// Equivalence classes of a preorder given as a matrix (`rel[p * n + q]`: p ≤ q): each state's
/// class id and each class's representative (its smallest state).
pub(crate) fn preorder_classes(rel: &[bool], n: usize) -> (Vec<u32>, Vec<usize>) {
    let mut class = vec![u32::MAX; n];
    let mut reps: Vec<usize> = Vec::new();
    for p in 0..n {
        if class[p] != u32::MAX {
            continue;
        }
        let c = reps.len() as u32;
        reps.push(p);
        for q in p..n {
            if class[q] == u32::MAX && rel[p * n + q] && rel[q * n + p] {
                class[q] = c;
            }
        }
    }
    (class, reps)
}

/// Quotient by direct-simulation equivalence followed by little-brother edge pruning. Returns the
/// input unchanged when it is larger than [`MAX_STATES`] or its acceptance is not generalized
/// Büchi.
pub(crate) fn reduce(aut: &Twa) -> Twa {
    let n = aut.num_states();
    if n <= 1 || n > MAX_STATES || aut.acc_false || !aut.is_generalized_buchi() {
        return aut.clone();
    }
    let sim = direct_simulation(aut);
    let (class, reps) = preorder_classes(&sim, n);
    let nc = reps.len();
    let csim = |a: u32, b: u32| sim[reps[a as usize] * n + reps[b as usize]];
    let mut out = aut.quotient_shell(&reps);
    // Edges of all members, merged per (class of target, marks).
    let mut merged: Vec<HashMap<(u32, u64), biodivine_lib_bdd::Bdd>> = vec![HashMap::new(); nc];
    let mut order: Vec<Vec<(u32, u64)>> = vec![Vec::new(); nc];
    for p in 0..n {
        let c = class[p] as usize;
        for e in &aut.states[p] {
            let key = (class[e.dst as usize], e.marks);
            match merged[c].get_mut(&key) {
                Some(l) => *l = l.or(&e.label),
                None => {
                    merged[c].insert(key, e.label.clone());
                    order[c].push(key);
                }
            }
        }
    }
    for c in 0..nc {
        let edges: Vec<((u32, u64), biodivine_lib_bdd::Bdd)> = order[c]
            .iter()
            .map(|k| (*k, merged[c][k].clone()))
            .collect();
        for (i, ((d1, m1), l1)) in edges.iter().enumerate() {
            let mut l = l1.clone();
            for (j, ((d2, m2), l2)) in edges.iter().enumerate() {
                if i != j && m1 & m2 == *m1 && csim(*d1, *d2) {
                    l = l.and_not(l2);
                    if l.is_false() {
                        break;
                    }
                }
            }
            if !l.is_false() {
                out.add_edge(c as u32, *d1, l, *m1);
            }
        }
    }
    let mut init: Vec<u32> = aut.init.iter().map(|&i| class[i as usize]).collect();
    init.sort_unstable();
    init.dedup();
    // Initial states simulated by another initial state are redundant.
    let init2: Vec<u32> = init
        .iter()
        .copied()
        .filter(|&a| !init.iter().any(|&b| b != a && csim(a, b)))
        .collect();
    out.init = if init2.is_empty() { init } else { init2 };
    out.state_based = aut.state_based && out.compute_state_based();
    out
}
