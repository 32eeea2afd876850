//! State-based acceptance (Spot's `sbacc`, `ltl2tgba -S`): every state is split by the marks of
//! the edge that will leave it. A copy `(q, m)` keeps the edges of `q` that carry exactly the
//! marks `m`, and every edge entering `q` is duplicated towards each copy `(q, m)`; a run of the
//! new automaton guesses, on entering a state, which marks its next edge carries. The accepting
//! runs correspond one to one (the marks seen along a run are unchanged), so the language and the
//! acceptance condition — any Emerson–Lei condition — are kept, and all edges leaving a state
//! carry the same marks. This generalises [`crate::degen::sba_by_outgoing`] (one Büchi set) to
//! any number of sets.

use crate::twa::{Marks, Twa};

/// The automaton with state-based acceptance; an automaton that already has it is returned as is.
pub(crate) fn state_based(aut: &Twa) -> Twa {
    if aut.compute_state_based() {
        let mut a = aut.clone();
        a.state_based = true;
        return a;
    }
    let mut out = aut.quotient_shell(&[]);
    // The copies of each state: one per distinct mark set on its (non-false) edges.
    let mut copies: Vec<Vec<(Marks, u32)>> = Vec::with_capacity(aut.num_states());
    for (q, es) in aut.states.iter().enumerate() {
        let mut ms: Vec<Marks> = es
            .iter()
            .filter(|e| !e.label.is_false())
            .map(|e| e.marks)
            .collect();
        ms.sort_unstable();
        ms.dedup();
        if ms.is_empty() {
            // A state without edges keeps one (dead) copy.
            ms.push(0);
        }
        let name = aut.state_names.get(q).cloned().flatten();
        let ids = ms
            .into_iter()
            .map(|m| {
                let s = out.add_state();
                if let Some(slot) = out.state_names.get_mut(s as usize) {
                    *slot = name.clone();
                }
                (m, s)
            })
            .collect();
        copies.push(ids);
    }
    for (q, es) in aut.states.iter().enumerate() {
        for e in es.iter().filter(|e| !e.label.is_false()) {
            let Some(srcs) = copies.get(q) else { continue };
            let Some(&(_, src)) = srcs.iter().find(|(m, _)| *m == e.marks) else {
                continue;
            };
            let dsts = copies.get(e.dst as usize).cloned().unwrap_or_default();
            for (_, dst) in dsts {
                out.add_edge(src, dst, e.label.clone(), e.marks);
            }
        }
    }
    out.init = aut
        .init
        .iter()
        .flat_map(|&i| {
            copies
                .get(i as usize)
                .into_iter()
                .flatten()
                .map(|&(_, s)| s)
        })
        .collect();
    out.state_based = true;
    out
}
