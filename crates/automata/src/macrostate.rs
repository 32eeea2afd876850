//! Macrostates (sets of NFA states) shared by the subset-construction-style algorithms: sorted
//! duplicate-free `u32` vectors, interned to ids, with a cache of their successor under each letter
//! (`post_σ(S)` of the CAV'06 paper, Section 2; `δ♯(S, a)` of the SETTA'17 paper, Section 2).

use crate::nfa::{Letter, Nfa, State};
use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;

/// `a ⊆ b` for sorted duplicate-free slices.
#[inline]
pub(crate) fn is_subset(a: &[State], b: &[State]) -> bool {
    if a.len() > b.len() {
        return false;
    }
    let mut j = 0;
    for &x in a {
        // Galloping is not worth it for the small sets seen in practice.
        while j < b.len() && b[j] < x {
            j += 1;
        }
        if j == b.len() || b[j] != x {
            return false;
        }
        j += 1;
    }
    true
}

/// `post_a(set)` into `out` (sorted, deduplicated).
pub(crate) fn post_into(nfa: &Nfa, set: &[State], a: Letter, out: &mut Vec<State>) {
    out.clear();
    for &q in set {
        out.extend_from_slice(nfa.post(q, a));
    }
    if set.len() > 1 {
        out.sort_unstable();
        out.dedup();
    }
}

/// Interned macrostates of one automaton with a lazily filled successor table.
pub(crate) struct SetStore<'a> {
    nfa: &'a Nfa,
    sets: Vec<Box<[State]>>,
    /// Whether each set contains a final state.
    accepting: Vec<bool>,
    index: FxHashMap<Box<[State]>, u32>,
    /// `succ[id * |Σ| + a]`, `u32::MAX` when not computed yet.
    succ: Vec<u32>,
    nletters: usize,
    scratch: Vec<State>,
    /// When set, successors outside this set are dropped (e.g. states that cannot reach an
    /// accepting state).
    filter: Option<FixedBitSet>,
}

impl<'a> SetStore<'a> {
    pub(crate) fn new(nfa: &'a Nfa) -> Self {
        SetStore {
            nfa,
            sets: Vec::new(),
            accepting: Vec::new(),
            index: FxHashMap::default(),
            succ: Vec::new(),
            nletters: nfa.num_letters(),
            scratch: Vec::new(),
            filter: None,
        }
    }
    /// A store whose successor sets keep only the states in `keep`.
    pub(crate) fn with_filter(nfa: &'a Nfa, keep: FixedBitSet) -> Self {
        SetStore {
            filter: Some(keep),
            ..SetStore::new(nfa)
        }
    }
    /// Interns `set` restricted to the filter (if any).
    pub(crate) fn intern_filtered(&mut self, set: &[State]) -> u32 {
        match &self.filter {
            Some(f) => {
                let v: Vec<State> = set
                    .iter()
                    .copied()
                    .filter(|&q| f.contains(q as usize))
                    .collect();
                self.intern(&v)
            }
            None => self.intern(set),
        }
    }
    /// The id of a sorted duplicate-free set (added if new).
    pub(crate) fn intern(&mut self, set: &[State]) -> u32 {
        if let Some(&id) = self.index.get(set) {
            return id;
        }
        let id = self.sets.len() as u32;
        let b: Box<[State]> = set.into();
        self.accepting
            .push(set.iter().any(|&q| self.nfa.is_final(q)));
        self.sets.push(b.clone());
        self.index.insert(b, id);
        self.succ
            .extend(std::iter::repeat_n(u32::MAX, self.nletters));
        id
    }
    #[inline]
    pub(crate) fn get(&self, id: u32) -> &[State] {
        &self.sets[id as usize]
    }
    #[inline]
    pub(crate) fn accepting(&self, id: u32) -> bool {
        self.accepting[id as usize]
    }
    pub(crate) fn len(&self) -> usize {
        self.sets.len()
    }
    /// The id of `post_a(set id)`.
    pub(crate) fn post(&mut self, id: u32, a: Letter) -> u32 {
        let k = id as usize * self.nletters + a as usize;
        let c = self.succ[k];
        if c != u32::MAX {
            return c;
        }
        let mut out = std::mem::take(&mut self.scratch);
        post_into(self.nfa, &self.sets[id as usize], a, &mut out);
        if let Some(f) = &self.filter {
            out.retain(|&q| f.contains(q as usize));
        }
        let r = self.intern(&out);
        self.scratch = out;
        self.succ[k] = r;
        r
    }
}

/// A search tree node used to rebuild witness words: the letter read to get here and the parent.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Parent {
    pub parent: u32,
    pub letter: Letter,
}

pub(crate) const ROOT: u32 = u32::MAX;

/// The word spelled by the path from a root to `node`.
pub(crate) fn word_to(parents: &[Parent], mut node: u32) -> Vec<Letter> {
    let mut w = Vec::new();
    while node != ROOT {
        let p = parents[node as usize];
        if p.parent == ROOT && p.letter == Letter::MAX {
            break;
        }
        w.push(p.letter);
        node = p.parent;
    }
    w.reverse();
    w
}

/// Whether two sorted slices share an element.
#[inline]
#[cfg(test)]
pub(crate) fn intersects(a: &[State], b: &[State]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subset_and_intersection() {
        assert!(is_subset(&[1, 3], &[0, 1, 2, 3]));
        assert!(!is_subset(&[1, 4], &[0, 1, 2, 3]));
        assert!(is_subset(&[], &[]));
        assert!(intersects(&[1, 5], &[2, 5]));
        assert!(!intersects(&[1, 4], &[2, 5]));
    }
}
