//! SCC information of an automaton: its strongly connected components (by `verikit-graph`'s
//! Tarjan), which contain a cycle, and which are accepting. Shared by the
//! acceptance cleanups, degeneralisations, WDBA minimisation and the inclusion checks.

use crate::twa::{Marks, Twa};

/// SCC information of an automaton.
pub(crate) struct SccInfo {
    pub sccs: verikit_graph::Sccs,
    /// True if the SCC contains an edge (a cycle).
    pub nontrivial: Vec<bool>,
    /// True if some cycle of the SCC is accepting.
    pub accepting: Vec<bool>,
}

pub(crate) fn scc_info(aut: &Twa) -> SccInfo {
    let g = aut.graph();
    let sccs = verikit_graph::sccs(&g);
    let n = sccs.len();
    let mut marks = vec![0u64; n];
    let mut nontrivial = vec![false; n];
    for (s, es) in aut.states.iter().enumerate() {
        let c = sccs.comp[s] as usize;
        for e in es {
            if !e.label.is_false() && sccs.comp[e.dst as usize] as usize == c {
                marks[c] |= e.marks;
                nontrivial[c] = true;
            }
        }
    }
    let all = aut.all_marks();
    let accepting = (0..n)
        .map(|c| nontrivial[c] && !aut.acc_false && marks[c] & all == all)
        .collect();
    SccInfo {
        sccs,
        nontrivial,
        accepting,
    }
}

/// The marks of every edge with a satisfiable label that stays inside an accepting SCC, listed per
/// SCC (empty for the other SCCs): what the SCC-wise acceptance analyses (`scc_sets`'s essential
/// sets, `degen`'s frequency orders) look at.
pub(crate) fn accepting_inner_marks(aut: &Twa, info: &SccInfo) -> Vec<Vec<Marks>> {
    let mut inside: Vec<Vec<Marks>> = vec![Vec::new(); info.sccs.len()];
    for (s, es) in aut.states.iter().enumerate() {
        let c = info.sccs.comp[s] as usize;
        if !info.accepting[c] {
            continue;
        }
        for e in es {
            if !e.label.is_false() && info.sccs.comp[e.dst as usize] as usize == c {
                inside[c].push(e.marks);
            }
        }
    }
    inside
}

/// For each SCC: is every edge inside it marked with every acceptance set (a *weak* SCC when it
/// is accepting: all its cycles accept)? The degeneralisations give such SCCs one copy only.
pub(crate) fn all_marks_inside(aut: &Twa, info: &SccInfo) -> Vec<bool> {
    let all = aut.all_marks();
    let mut full = vec![true; info.sccs.len()];
    for (s, es) in aut.states.iter().enumerate() {
        let c = info.sccs.comp[s] as usize;
        for e in es {
            if info.sccs.comp[e.dst as usize] as usize == c && e.marks & all != all {
                full[c] = false;
            }
        }
    }
    full
}
