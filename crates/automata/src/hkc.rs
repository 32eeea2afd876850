//! HKC, Hopcroft and Karp's algorithm up to congruence (Bonchi and Pous, POPL 2013), as studied in
//! "On Equivalence Checking of Nondeterministic Finite Automata" (Fu, Deng, Jansen, Zhang,
//! SETTA 2017), Section 3.2 ("HKC Algorithm"): a pair `(X, Y)` is skipped when it is in the
//! congruence closure `rstu(R ∪ todo)`. As in Bonchi and Pous, membership is decided by set
//! rewriting: the normal form `X↑` saturates `X` with `Z := Z ∪ V` whenever `U ⊆ Z` for a pair
//! `(U, V)` (in either direction) of `R ∪ todo`; then `(X, Y) ∈ rstu(R ∪ todo)` iff `X↑ = Y↑`,
//! checked as `Y ⊆ X↑` and `X ⊆ Y↑`. The rewriting scans all pairs, which is why the SETTA paper
//! finds HKC slow when `R` grows.

use crate::macrostate::SetStore;
use crate::nfa::Nfa;
use crate::outcome::Outcome;
use crate::pairs::{run, Relation};
use fixedbitset::FixedBitSet;

struct Congruence {
    n: usize,
    r: Vec<(u32, u32)>,
    z: FixedBitSet,
}

impl Congruence {
    /// Whether `target ⊆ from↑` (saturating `from` with the rules until it covers `target` or is
    /// stable).
    fn covers(
        &mut self,
        from: &[u32],
        target: &[u32],
        store: &SetStore<'_>,
        todo: &[(u32, u32)],
    ) -> bool {
        self.z.clear();
        self.z.grow(self.n);
        for &q in from {
            self.z.insert(q as usize);
        }
        let done = |z: &FixedBitSet| target.iter().all(|&q| z.contains(q as usize));
        if done(&self.z) {
            return true;
        }
        loop {
            let mut changed = false;
            for &(u, v) in self.r.iter().chain(todo.iter()) {
                let (us, vs) = (store.get(u), store.get(v));
                let u_in = us.iter().all(|&q| self.z.contains(q as usize));
                let v_in = vs.iter().all(|&q| self.z.contains(q as usize));
                if u_in && !v_in {
                    vs.iter().for_each(|&q| self.z.insert(q as usize));
                    changed = true;
                } else if v_in && !u_in {
                    us.iter().for_each(|&q| self.z.insert(q as usize));
                    changed = true;
                }
            }
            if done(&self.z) {
                return true;
            }
            if !changed {
                return false;
            }
        }
    }
}

impl Relation for Congruence {
    fn contains(&mut self, x: u32, y: u32, store: &SetStore<'_>, todo: &[(u32, u32)]) -> bool {
        let (xs, ys) = (store.get(x).to_vec(), store.get(y).to_vec());
        self.covers(&xs, &ys, store, todo) && self.covers(&ys, &xs, store, todo)
    }
    fn insert(&mut self, x: u32, y: u32, _: &SetStore<'_>) {
        self.r.push((x, y));
    }
    fn size(&self) -> usize {
        self.r.len()
    }
    fn needs_todo(&self) -> bool {
        true
    }
}

/// `L(A) = L(B)` by HKC (`memo`: memoised `todo`).
pub(crate) fn equivalent(
    a: &Nfa,
    b: &Nfa,
    memo: bool,
    budget: &verikit_diag::Budget,
) -> Result<Outcome, verikit_diag::Exhausted> {
    let n = a.num_states() + b.num_states();
    run(
        a,
        b,
        memo,
        Congruence {
            n,
            r: Vec::new(),
            z: FixedBitSet::with_capacity(n),
        },
        budget,
    )
}
