//! Bisimulation quotient, the preprocessing "On Equivalence Checking of Nondeterministic Finite
//! Automata" (Fu, Deng, Jansen, Zhang, SETTA 2017) recommends (Section 3.5: "taking a quotient
//! according to bisimilarity"; Section 6: "minimize the automata by bisimilarity").
//!
//! Bisimilarity here is the largest relation `∼` with `x ∼ y` ⇒ same acceptance and, for every
//! letter, every successor of one is bisimilar to a successor of the other. It is computed by
//! signature refinement: start from the partition {accepting, non-accepting} and repeatedly split
//! blocks by the signature `{(a, block(t)) | (q, a, t) ∈ δ}` until the number of blocks is stable.
//! Each round costs `O(m log m)`; the number of rounds is at most the number of blocks. This
//! simple version is the test oracle of [`crate::paige_tarjan`], the `O(m log n)` algorithm that
//! [`reduce`] uses.

#[cfg(test)]
use crate::nfa::Letter;
use crate::nfa::{Nfa, NfaBuilder, State};
#[cfg(test)]
use rustc_hash::FxHashMap;

/// The coarsest bisimulation as a block number per state (blocks numbered `0..k`).
#[cfg(test)]
pub(crate) fn bisimilarity(a: &Nfa) -> Vec<u32> {
    let n = a.num_states();
    let mut block: Vec<u32> = (0..n as State).map(|q| a.is_final(q) as u32).collect();
    let mut count = renumber(&mut block);
    let mut sig: Vec<(Letter, u32)> = Vec::new();
    loop {
        let mut ids: FxHashMap<(u32, Vec<(Letter, u32)>), u32> = FxHashMap::default();
        let mut next = vec![0u32; n];
        for q in 0..n as State {
            sig.clear();
            for (l, ts) in a.forward().out(q) {
                sig.extend(ts.iter().map(|&t| (l, block[t as usize])));
            }
            sig.sort_unstable();
            sig.dedup();
            let len = ids.len() as u32;
            next[q as usize] = *ids.entry((block[q as usize], sig.clone())).or_insert(len);
        }
        let c = ids.len();
        block = next;
        if c == count {
            return block;
        }
        count = c;
    }
}

#[cfg(test)]
fn renumber(block: &mut [u32]) -> usize {
    let mut ids: FxHashMap<u32, u32> = FxHashMap::default();
    for b in block.iter_mut() {
        let len = ids.len() as u32;
        *b = *ids.entry(*b).or_insert(len);
    }
    ids.len()
}

/// The quotient of `a` by a partition given as a block number per state.
pub(crate) fn quotient(a: &Nfa, block: &[u32]) -> Nfa {
    let k = block.iter().map(|&b| b as usize + 1).max().unwrap_or(0);
    let mut b = NfaBuilder::with_states(a.alphabet.clone(), k);
    for &q in a.initial() {
        b.add_initial(block[q as usize]);
    }
    for &q in a.finals() {
        b.add_final(block[q as usize]);
    }
    for (s, l, t) in a.transitions() {
        b.add_transition(block[s as usize], l, block[t as usize]);
    }
    // Name each block after its first state.
    let mut names = vec![String::new(); k];
    for q in (0..a.num_states()).rev() {
        names[block[q] as usize] = a.state_name(q as State);
    }
    b.state_names = names;
    b.build()
}

/// The quotient of `a` by bisimilarity (same language), computed in `O(m log n)` by
/// [`crate::paige_tarjan::bisimilarity`].
pub(crate) fn reduce(a: &Nfa) -> Nfa {
    quotient(a, &crate::paige_tarjan::bisimilarity(a))
}
