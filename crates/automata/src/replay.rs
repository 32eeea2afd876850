//! Independent membership checking used to replay counterexample words: the set of states reached
//! after each letter is recomputed by scanning the whole transition list (no CSR lookups, no
//! macrostate caches), so a wrong witness from any algorithm is caught.

use crate::nfa::{Letter, Nfa};

/// Whether `nfa` accepts `word`.
pub(crate) fn accepts(nfa: &Nfa, word: &[Letter]) -> bool {
    let edges = nfa.transitions();
    let mut cur = vec![false; nfa.num_states()];
    for &q in nfa.initial() {
        cur[q as usize] = true;
    }
    for &l in word {
        let mut next = vec![false; nfa.num_states()];
        for &(s, a, t) in &edges {
            if a == l && cur[s as usize] {
                next[t as usize] = true;
            }
        }
        cur = next;
    }
    cur.iter()
        .enumerate()
        .any(|(q, &on)| on && nfa.is_final(q as u32))
}

/// What a counterexample word is meant to show, checked independently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)] // the claims read as the answers they check: "not universal", …
pub(crate) enum Claim {
    /// The word is rejected by the automaton (non-universality).
    NotUniversal,
    /// The word is accepted by the first automaton and rejected by the second (non-inclusion).
    NotIncluded,
    /// The word is accepted by exactly one of the two automata (non-equivalence).
    NotEquivalent,
}

/// Replays `word`; returns `(accepted by A, accepted by B, claim confirmed)`.
pub(crate) fn check(
    claim: Claim,
    a: &Nfa,
    b: Option<&Nfa>,
    word: &[Letter],
) -> (bool, Option<bool>, bool) {
    let in_a = accepts(a, word);
    let in_b = b.map(|b| accepts(b, word));
    let ok = match (claim, in_b) {
        (Claim::NotUniversal, _) => !in_a,
        (Claim::NotIncluded, Some(y)) => in_a && !y,
        (Claim::NotEquivalent, Some(y)) => in_a != y,
        _ => false,
    };
    (in_a, in_b, ok)
}
