//! Reduction by co-simulation (reverse direct simulation) on transition-based generalized Büchi
//! automata.
//!
//! Papers: F. Somenzi, R. Bloem, "Efficient Büchi automata from LTL formulae", CAV'00, §4
//! ("reverse simulation"); the quotient and pruning by backward direct simulation of
//! L. Clemente, R. Mayr, "Advanced automata minimization", POPL'13, §5–6; with acceptance on
//! transitions as in Spot's `cosimulation` (Babiak, Badie, Duret-Lutz, Křetínský, Strejček,
//! "Compositional approach to suspension and other improvements to LTL translation", SPIN'13, §4).
//!
//! `q` co-simulates `p` (`p ≤co q`) iff `p` initial implies `q` initial, and for every edge
//! `p' -(σ, M)-> p` there is an edge `q' -(σ, M')-> q` with `M ⊆ M'` and `p' ≤co q'`; on
//! state-based automata the state's own marks must also be included (so that the quotient stays
//! state-based). The greatest relation is computed by refinement from the full one, letters are
//! handled as truth tables (few propositions) or BDD covers. Every finite run reaching `p` is
//! matched by one reaching `q` with at least its marks, so the quotient by mutual co-simulation
//! preserves the language (König's lemma on the dominating runs), and so does dropping the letters
//! of an edge `p -> r` that an edge `p' -> r` with `p <co p'` (strictly) and at least its marks
//! also reads.

use crate::twa::Twa;
use biodivine_lib_bdd::Bdd;
use std::collections::HashMap;

/// Largest automaton (states) the reduction is tried on.
pub(crate) const MAX_STATES: usize = 300;

/// The co-simulation preorder: `co[p * n + q]` iff `q` co-simulates `p`.
pub(crate) fn co_simulation(aut: &Twa) -> Vec<bool> {
    let n = aut.num_states();
    let tables = crate::direct_sim::truth_tables(aut);
    // Incoming edges: (source, index of the edge in the source's list).
    let mut inc: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (s, es) in aut.states.iter().enumerate() {
        for (i, e) in es.iter().enumerate() {
            if !e.label.is_false() {
                inc[e.dst as usize].push((s, i));
            }
        }
    }
    let mut is_init = vec![false; n];
    for &i in &aut.init {
        if let Some(x) = is_init.get_mut(i as usize) {
            *x = true;
        }
    }
    let mut co = vec![true; n * n];
    for p in 0..n {
        for q in 0..n {
            if p == q {
                continue;
            }
            let sm = |s: usize| aut.states[s].first().map_or(0, |e| e.marks);
            if (is_init[p] && !is_init[q]) || (aut.state_based && sm(p) & sm(q) != sm(p)) {
                co[p * n + q] = false;
            }
        }
    }
    loop {
        let mut changed = false;
        for p in 0..n {
            for q in 0..n {
                if p == q || !co[p * n + q] {
                    continue;
                }
                let ok = inc[p].iter().all(|&(ps, pi)| {
                    let ep = &aut.states[ps][pi];
                    match &tables {
                        Some(t) => {
                            let need = &t[ps][pi];
                            let mut cover = vec![0u64; need.len()];
                            for &(qs, qi) in &inc[q] {
                                let eq = &aut.states[qs][qi];
                                if ep.marks & eq.marks == ep.marks && co[ps * n + qs] {
                                    for (c, x) in cover.iter_mut().zip(&t[qs][qi]) {
                                        *c |= x;
                                    }
                                }
                            }
                            need.iter().zip(&cover).all(|(a, c)| a & !c == 0)
                        }
                        None => {
                            let mut cover = aut.ff();
                            for &(qs, qi) in &inc[q] {
                                let eq = &aut.states[qs][qi];
                                if ep.marks & eq.marks == ep.marks && co[ps * n + qs] {
                                    cover = cover.or(&eq.label);
                                }
                            }
                            ep.label.imp(&cover).is_true()
                        }
                    }
                });
                if !ok {
                    co[p * n + q] = false;
                    changed = true;
                }
            }
        }
        if !changed {
            return co;
        }
    }
}

/// Quotient by co-simulation equivalence, then pruning of edges whose source is strictly
/// co-simulated by the source of another edge to the same state with at least its marks. Returns
/// the input unchanged when it is larger than [`MAX_STATES`].
pub(crate) fn reduce(aut: &Twa) -> Twa {
    let n = aut.num_states();
    if n <= 1 || n > MAX_STATES || aut.acc_false || !aut.is_generalized_buchi() {
        return aut.clone();
    }
    let co = co_simulation(aut);
    let (class, reps) = crate::direct_sim::preorder_classes(&co, n);
    let nc = reps.len();
    // `a <co b` strictly, on classes.
    let strictly = |a: u32, b: u32| a != b && co[reps[a as usize] * n + reps[b as usize]];
    // Edges of all members, merged per (source class, target class, marks).
    type Key = (u32, u32, u64);
    let mut merged: HashMap<Key, Bdd> = HashMap::new();
    let mut order: Vec<Key> = Vec::new();
    for p in 0..n {
        for e in &aut.states[p] {
            if e.label.is_false() {
                continue;
            }
            let key = (class[p], class[e.dst as usize], e.marks);
            match merged.get_mut(&key) {
                Some(l) => *l = l.or(&e.label),
                None => {
                    merged.insert(key, e.label.clone());
                    order.push(key);
                }
            }
        }
    }
    // Incoming edges of each target class.
    let mut into: Vec<Vec<Key>> = vec![Vec::new(); nc];
    for k in &order {
        into[k.1 as usize].push(*k);
    }
    let mut out = aut.quotient_shell(&reps);
    for k in &order {
        let (c1, d, m1) = *k;
        let mut l = merged[k].clone();
        for k2 in &into[d as usize] {
            let (c2, _, m2) = *k2;
            if m1 & m2 == m1 && strictly(c1, c2) {
                l = l.and_not(&merged[k2]);
                if l.is_false() {
                    break;
                }
            }
        }
        if !l.is_false() {
            out.add_edge(c1, d, l, m1);
        }
    }
    let mut init: Vec<u32> = aut.init.iter().map(|&i| class[i as usize]).collect();
    init.sort_unstable();
    init.dedup();
    out.init = init;
    out.state_based = aut.state_based && out.compute_state_based();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accepts::accepts_lasso;
    use crate::ltl::eval::Lasso;

    #[test]
    fn merges_states_with_the_same_past() {
        // 0 -a-> 1 -b-> 3, 0 -a-> 2 -c-> 3, 3 -t{0}-> 3: states 1 and 2 have the same past
        // (co-simulation equivalent) but different futures (no direct simulation).
        let mut t = Twa::new(vec!["a".into(), "b".into(), "c".into()]);
        for _ in 0..4 {
            t.add_state();
        }
        t.num_sets = 1;
        let (a, b, c) = (t.ap_var(0), t.ap_var(1), t.ap_var(2));
        t.add_edge(0, 1, a.clone(), 0);
        t.add_edge(0, 2, a, 0);
        t.add_edge(1, 3, b, 0);
        t.add_edge(2, 3, c, 0);
        t.add_edge(3, 3, t.tt(), 1);
        t.init = vec![0];
        let co = co_simulation(&t);
        assert!(co[4 + 2] && co[2 * 4 + 1], "1 and 2 co-simulate each other");
        assert!(!co[3]);
        let r = reduce(&t);
        assert_eq!(r.num_states(), 3);
        for (w, acc) in [
            (vec![0b001, 0b010], true),
            (vec![0b001, 0b100], true),
            (vec![0b001, 0b001], false),
            (vec![0b010, 0b010], false),
        ] {
            let l = Lasso {
                prefix: w,
                cycle: vec![0],
            };
            assert_eq!(accepts_lasso(&t, &l), acc);
            assert_eq!(accepts_lasso(&r, &l), acc);
        }
    }
}
