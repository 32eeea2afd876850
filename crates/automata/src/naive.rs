//! The naive equivalence check, "On Equivalence Checking of Nondeterministic Finite Automata"
//! (Fu, Deng, Jansen, Zhang, SETTA 2017), Section 3.1, Algorithm 1: a pair is skipped only if it is
//! literally in `R` (so `R` ends as a bisimulation between `A♯` and `B♯`).

use crate::macrostate::SetStore;
use crate::nfa::Nfa;
use crate::outcome::Outcome;
use crate::pairs::{run, Relation};
use rustc_hash::FxHashSet;

#[derive(Default)]
struct Plain(FxHashSet<(u32, u32)>);

impl Relation for Plain {
    fn contains(&mut self, x: u32, y: u32, _: &SetStore<'_>, _: &[(u32, u32)]) -> bool {
        self.0.contains(&(x, y))
    }
    fn insert(&mut self, x: u32, y: u32, _: &SetStore<'_>) {
        self.0.insert((x, y));
    }
    fn size(&self) -> usize {
        self.0.len()
    }
}

/// `L(A) = L(B)` by the naive algorithm (`memo`: memoised `todo`).
pub(crate) fn equivalent(
    a: &Nfa,
    b: &Nfa,
    memo: bool,
    budget: &verikit_diag::Budget,
) -> Result<Outcome, verikit_diag::Exhausted> {
    run(a, b, memo, Plain::default(), budget)
}
