//! The naive equivalence check, "On Equivalence Checking of Nondeterministic Finite Automata"
//! (Fu, Deng, Jansen, Zhang, SETTA 2017), Section 3.1, Algorithm 1: a pair is skipped only if it is
//! literally in `R` (so `R` ends as a bisimulation between `A♯` and `B♯`).

use crate::macrostate::SetStore;
use crate::pairs::Relation;
use rustc_hash::FxHashSet;

/// The naive algorithm's relation: `R` itself (run by [`crate::pairs::run`]).
#[derive(Default)]
pub(crate) struct Plain(FxHashSet<(u32, u32)>);

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
