//! SCC-wise simplification of generalized Büchi acceptance: inside a strongly connected component
//! where every cycle that sees all acceptance sets also crosses an edge carrying all of them, the
//! acceptance of the component is `Inf(edges with all marks)`, a single Büchi set.
//!
//! This is the SCC-local acceptance simplification Spot's post-processor performs before
//! degeneralisation (A. Duret-Lutz et al., "Spot 2.0 — a framework for LTL and ω-automata
//! manipulation", ATVA'16, §3 "acceptance simplifications"; the SCC-based view of Somenzi–Bloem,
//! CAV'00, §4, "SCC-based acceptance simplification"). Exactness: a cycle of the component that
//! avoids every all-marks edge lies inside one SCC of the component without those edges; when no
//! such SCC sees all marks, that cycle is rejecting both before and after, and a cycle through an
//! all-marks edge is accepting both before and after. The edges of such a component keep all marks
//! when they had them and lose them otherwise, so [`crate::prune::prune`] can then merge the
//! sets and bisimulation/simulation see fewer distinctions.

use crate::twa::Twa;

/// Applies the simplification to every accepting SCC with two or more sets. State-based automata
/// are returned unchanged (the rewriting is per edge).
pub(crate) fn simplify_marks(aut: &Twa) -> Twa {
    if aut.num_sets < 2 || aut.acc_false || aut.state_based {
        return aut.clone();
    }
    let all = aut.all_marks();
    let info = crate::scc_info::scc_info(aut);
    let n = aut.num_states();
    let mut out = aut.clone();
    let mut changed = false;
    for c in 0..info.sccs.len() {
        if !info.accepting[c] {
            continue;
        }
        let members = &info.sccs.members[c];
        // Edges inside c without all marks.
        let mut edges: Vec<(u32, u32)> = Vec::new();
        let mut partial = false;
        for &s in members {
            for e in &aut.states[s as usize] {
                if e.label.is_false() || info.sccs.comp[e.dst as usize] as usize != c {
                    continue;
                }
                if e.marks & all != all {
                    edges.push((s, e.dst));
                    if e.marks != 0 {
                        partial = true;
                    }
                }
            }
        }
        if !partial {
            continue;
        }
        let g = verikit_graph::Csr::from_edges(n, &edges);
        let sub = verikit_graph::sccs(&g);
        let mut sub_marks = vec![0u64; sub.len()];
        for &s in members {
            for e in &aut.states[s as usize] {
                if !e.label.is_false()
                    && info.sccs.comp[e.dst as usize] as usize == c
                    && e.marks & all != all
                    && sub.comp[s as usize] == sub.comp[e.dst as usize]
                {
                    sub_marks[sub.comp[s as usize] as usize] |= e.marks;
                }
            }
        }
        if sub_marks.iter().any(|&m| m & all == all) {
            continue;
        }
        for &s in members {
            for e in &mut out.states[s as usize] {
                if info.sccs.comp[e.dst as usize] as usize == c && e.marks & all != all {
                    e.marks = 0;
                }
            }
        }
        changed = true;
    }
    if changed {
        out.state_based = false;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_set_when_all_accepting_cycles_cross_a_full_edge() {
        // 0 -{0}-> 1 -{0,1}-> 0, 1 -{1}-> 1: every cycle seeing both sets uses 1 -> 0.
        let mut t = Twa::new(vec!["a".into()]);
        t.add_state();
        t.add_state();
        t.num_sets = 2;
        t.add_edge(0, 1, t.tt(), 1);
        t.add_edge(1, 0, t.tt(), 3);
        t.add_edge(1, 1, t.tt(), 2);
        t.init = vec![0];
        let r = simplify_marks(&t);
        let marks: Vec<u64> = r.states.iter().flatten().map(|e| e.marks).collect();
        assert_eq!(marks, vec![0, 3, 0]);
        // With a second cycle seeing both sets without a full edge, nothing changes.
        t.add_edge(1, 0, t.tt(), 2);
        let r = simplify_marks(&t);
        let marks: Vec<u64> = r.states.iter().flatten().map(|e| e.marks).collect();
        assert_eq!(marks, vec![1, 3, 2, 2]);
    }
}
