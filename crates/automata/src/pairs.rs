//! The common skeleton of the equivalence checks of "On Equivalence Checking of Nondeterministic
//! Finite Automata" (Fu, Deng, Jansen, Zhang, SETTA 2017), Section 3.1, Algorithm 1: explore pairs
//! `(X, Y)` of macrostates of `A♯` and `B♯` on the fly from `(I_A, I_B)`, fail on a bad pair (one
//! side accepting, the other not), otherwise add the pair to `R` and its successors under every
//! letter to `todo`. The test on line 4 ("is the pair already justified by `R`?") is what tells the
//! naive algorithm ([`crate::naive`]), HK ([`crate::hk`]) and HKC ([`crate::hkc`]) apart; with
//! memoisation (Section 3.3) a pair is inserted into `todo` at most once.
//!
//! Both automata are embedded in their disjoint union so that one macrostate table serves both
//! sides (HKC's congruence closure relates sets of the union).

use crate::macrostate::{word_to, Parent, SetStore, ROOT};
use crate::nfa::{Letter, Nfa, State};
use crate::outcome::Outcome;
use rustc_hash::FxHashSet;
use std::collections::VecDeque;
use verikit_diag::{Budget, Exhausted};

/// The line-4 test of Algorithm 1 and the update of `R` on line 11.
pub(crate) trait Relation {
    /// Whether `(x, y)` (macrostate ids) is already in the closure of `R` (and, for HKC, of
    /// `todo`, whose pairs are given as `(x, y)` id pairs).
    fn contains(&mut self, x: u32, y: u32, store: &SetStore<'_>, todo: &[(u32, u32)]) -> bool;
    /// Adds `(x, y)` to `R`.
    fn insert(&mut self, x: u32, y: u32, store: &SetStore<'_>);
    /// The number of pairs in `R`.
    fn size(&self) -> usize;
    /// Whether `contains` reads `todo` (HKC); the driver then keeps `todo` as a slice.
    fn needs_todo(&self) -> bool {
        false
    }
}

/// Runs Algorithm 1 with relation `rel`; `memo` enables memoisation of `todo`.
pub(crate) fn run<R: Relation>(
    a: &Nfa,
    b: &Nfa,
    memo: bool,
    mut rel: R,
    budget: &Budget,
) -> Result<Outcome, Exhausted> {
    let mut ticker = budget.ticker(16);
    let u = a.disjoint_union(b);
    let off = a.num_states() as State;
    let nl = u.num_letters() as Letter;
    let mut store = SetStore::new(&u);
    let x0 = store.intern(a.initial());
    let yb: Vec<State> = b.initial().iter().map(|&q| q + off).collect();
    let y0 = store.intern(&yb);
    // Nodes of the search tree (for witnesses).
    let mut nx: Vec<(u32, u32)> = vec![(x0, y0)];
    let mut parents = vec![Parent {
        parent: ROOT,
        letter: Letter::MAX,
    }];
    let mut todo: VecDeque<u32> = VecDeque::from([0]);
    let mut todo_pairs: Vec<(u32, u32)> = Vec::new();
    let mut inserted: FxHashSet<(u32, u32)> = FxHashSet::default();
    if memo {
        inserted.insert((x0, y0));
    }
    let mut next_report = 100_000usize;
    let mut explored = 0usize;
    while let Some(ni) = todo.pop_front() {
        ticker.tick()?;
        let (x, y) = nx[ni as usize];
        if rel.needs_todo() {
            todo_pairs.clear();
            todo_pairs.extend(todo.iter().map(|&i| nx[i as usize]));
        }
        if x == y || rel.contains(x, y, &store, &todo_pairs) {
            continue;
        }
        if store.accepting(x) != store.accepting(y) {
            return Ok(Outcome::fails(word_to(&parents, ni), rel.size(), explored));
        }
        explored += 1;
        if explored >= next_report {
            next_report += 100_000;
            tracing::info!(
                "equivalence: {explored} pairs processed, {} in todo, |R| = {}",
                todo.len(),
                rel.size()
            );
        }
        for l in 0..nl {
            let x2 = store.post(x, l);
            let y2 = store.post(y, l);
            if memo && !inserted.insert((x2, y2)) {
                continue;
            }
            nx.push((x2, y2));
            parents.push(Parent {
                parent: ni,
                letter: l,
            });
            todo.push_back((nx.len() - 1) as u32);
        }
        rel.insert(x, y, &store);
    }
    Ok(Outcome::holds(rel.size(), explored))
}
