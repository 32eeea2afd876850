//! SCC-local acceptance-set sharing for generalized Büchi automata: each accepting strongly
//! connected component keeps only its *essential* sets (a set whose marks are implied, on every
//! edge of the component, by another kept set is dropped there), the essential sets of each
//! component are renumbered from 0, and the automaton needs only as many sets as its most
//! demanding component instead of the union of all components' sets.
//!
//! This is the SCC-wise view of acceptance that Spot's post-processor uses for its acceptance
//! simplifications (A. Duret-Lutz et al., "Spot 2.0 — a framework for LTL and ω-automata
//! manipulation", ATVA'16, §3; the SCC-based acceptance analysis of Somenzi–Bloem, "Efficient
//! Büchi automata from LTL formulae", CAV'00, §4): whether a run is accepting only depends on the
//! edges of the SCC it finally stays in, so sets can be named independently in each SCC. A
//! translation of `φ1 | φ2` whose disjuncts have their own eventualities, e.g., then needs
//! `max(k1, k2)` sets instead of `k1 + k2`.
//!
//! Exactness: inside a component `c` with essential sets `K_c = [i_0, …, i_{m-1}]`, an edge gets
//! new mark `n < m` iff it had old mark `i_n`, and every new mark `n ≥ m`. A cycle of `c` sees all
//! new marks iff it sees every `i ∈ K_c`, iff (the dropped sets being implied edge-wise by kept
//! ones) it sees all old marks. Edges of non-accepting components and edges between components get
//! no marks: no cycle uses the latter, and a cycle of a non-accepting component stays rejecting.
//! State-based automata stay state-based: the mapping of a component applies to every edge that
//! leaves one of its states.

use crate::twa::{Marks, Twa};

/// The essential sets of the components and the resulting number of sets, or `None` when no
/// component can use fewer sets than the automaton has.
fn essential_sets(aut: &Twa, info: &crate::scc_info::SccInfo) -> Option<(Vec<Vec<u32>>, u32)> {
    let k = aut.num_sets;
    let n_c = info.sccs.len();
    let inside = crate::scc_info::accepting_inner_marks(aut, info);
    let mut kept: Vec<Vec<u32>> = vec![Vec::new(); n_c];
    let mut need = 0u32;
    for c in 0..n_c {
        if !info.accepting[c] {
            continue;
        }
        let mut ks: Vec<u32> = (0..k).collect();
        drop_implied_sets(&mut ks, &inside[c]);
        need = need.max(ks.len() as u32);
        kept[c] = ks;
    }
    if need >= k || need == 0 {
        return None;
    }
    Some((kept, need))
}

/// Renames the acceptance sets per accepting SCC so that the automaton uses as few sets as its
/// most demanding SCC needs. Returns the automaton unchanged when that saves nothing.
pub(crate) fn share_sets(aut: &Twa) -> Twa {
    if aut.num_sets < 2 || aut.acc_false {
        return aut.clone();
    }
    let info = crate::scc_info::scc_info(aut);
    let Some((kept, need)) = essential_sets(aut, &info) else {
        return aut.clone();
    };
    let all_new: Marks = if need >= 64 {
        u64::MAX
    } else {
        (1u64 << need) - 1
    };
    let mut out = aut.clone();
    out.num_sets = need;
    for (s, es) in out.states.iter_mut().enumerate() {
        let c = info.sccs.comp[s] as usize;
        for e in es {
            let inner = info.sccs.comp[e.dst as usize] as usize == c;
            e.marks = if !info.accepting[c] || (!inner && !aut.state_based) {
                0
            } else {
                let ks = &kept[c];
                let mut m = all_new & !((1u64 << ks.len()) - 1);
                for (n, &i) in ks.iter().enumerate() {
                    m |= ((e.marks >> i) & 1) << n;
                }
                m
            };
        }
    }
    out.state_based = aut.state_based && out.compute_state_based();
    out
}

/// Removes from `sets` every acceptance set implied by another kept one on the edges `inside`
/// (set `i` is implied by `j` when every edge marked `j` is also marked `i`), first ones first.
pub(crate) fn drop_implied_sets(sets: &mut Vec<u32>, inside: &[Marks]) {
    let mut i = 0;
    while i < sets.len() {
        let mi = sets[i];
        let implied = sets.iter().any(|&mj| {
            mj != mi
                && inside
                    .iter()
                    .all(|&m| (m >> mj) & 1 == 0 || (m >> mi) & 1 == 1)
        });
        if implied {
            sets.remove(i);
        } else {
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two SCCs where sets 0, 1 (resp. 2, 3) are pending and the others on every edge, both
    /// reached from a transient initial state: four sets become two, and each SCC keeps its
    /// acceptance.
    #[test]
    fn disjoint_sccs_share_sets() {
        let t = crate::tests::one_ap(
            3,
            4,
            &[
                (0, 1, 'a', 0),
                (0, 2, '!', 0),
                (1, 1, 'a', 0b1101),
                (1, 1, '!', 0b1110),
                (2, 2, 'a', 0b0111),
                (2, 2, '!', 0b1011),
            ],
        );
        let r = share_sets(&t);
        assert_eq!(r.num_sets, 2);
        let marks: Vec<u64> = r.states.iter().flatten().map(|e| e.marks).collect();
        assert_eq!(marks, vec![0, 0, 0b01, 0b10, 0b01, 0b10]);
    }

    /// A set implied by another one inside an SCC is dropped there; the SCC that needs both keeps
    /// the count at two.
    #[test]
    fn implied_sets_are_dropped_per_scc() {
        // SCC 1: sets 0 and 1 always together, set 2 separate -> 2 essential.
        // SCC 2: every edge has set 2; sets 0 and 1 separate -> 2 essential.
        let t = crate::tests::one_ap(
            3,
            3,
            &[
                (0, 1, 'a', 0),
                (0, 2, '!', 0),
                (1, 1, 'a', 0b011),
                (1, 1, '!', 0b100),
                (2, 2, 'a', 0b101),
                (2, 2, '!', 0b110),
            ],
        );
        let a = t.ap_var(0);
        let r = share_sets(&t);
        assert_eq!(r.num_sets, 2);
        // Unchanged when every SCC needs all sets.
        let mut u = t.clone();
        u.states[1][0].marks = 0b001;
        u.states[1][1].marks = 0b010;
        u.states[1].push(crate::twa::Edge {
            dst: 1,
            label: a.clone(),
            marks: 0b100,
        });
        assert_eq!(share_sets(&u).num_sets, 3);
    }
}
