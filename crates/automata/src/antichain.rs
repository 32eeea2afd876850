//! Antichain algorithms for universality and language inclusion of NFAs, from "Antichains: A New
//! Algorithm for Checking Universality of Finite Automata" (De Wulf, Doyen, Henzinger, Raskin,
//! CAV 2006):
//!
//! * [`universal_backward`] — Section 3, Theorem 2 and Algorithm 1: the least fixed point of
//!   `CPre(q) ⊔ {Loc∖Fin}` on the lattice of antichains of *maximal* state sets, computed on the
//!   frontier only; `A` is not universal iff `{Init}` is below it. The witness word is rebuilt from
//!   the proof of Theorem 2 (each set remembers the letter and the set it was a `cpre_σ` of).
//! * [`universal_forward`] — Section 3, Theorem 3: the forward variant with `Post` on the dual
//!   lattice (antichains of *minimal* sets), i.e. a subset construction that keeps only minimal sets.
//! * [`included`] — Section 5 ("Language Inclusion"), in the forward form of the SETTA 2017 paper
//!   ("On Equivalence Checking of Nondeterministic Finite Automata", Fu, Deng, Jansen, Zhang,
//!   Section 3.6, "AC"): pairs `(p, Y) ∈ Q_A × 2^{Q_B}`, where `(p, Y)` is subsumed by `(p, Y')` when
//!   `Y' ⊆ Y`; a pair is bad when `p` is accepting and `Y` is not. The todo list is memoised
//!   (Section 3.3): a pair enters it at most once. Breadth-first order gives a shortest
//!   counterexample among the explored pairs.
//!
//! The pair search of [`included`] ([`PairSearch`]) is parameterised by what subsumes what
//! ([`PairOrder`]); [`crate::antichain_sim`] runs the same search with simulation subsumption.

use crate::macrostate::{is_subset, word_to, Parent, SetStore, ROOT};
use crate::nfa::{Letter, Nfa, State};
use crate::outcome::Outcome;
use fixedbitset::FixedBitSet;
use std::collections::VecDeque;
use verikit_diag::{Budget, Exhausted};

/// Backward antichain universality (CAV'06 Algorithm 1).
pub(crate) fn universal_backward(a: &Nfa, budget: &Budget) -> Result<Outcome, Exhausted> {
    let n = a.num_states();
    let nl = a.num_letters() as Letter;
    // Start = Init, F = {Loc \ Fin}.
    let mut init = FixedBitSet::with_capacity(n);
    for &q in a.initial() {
        init.insert(q as usize);
    }
    let mut nonfinal = FixedBitSet::with_capacity(n);
    nonfinal.insert_range(..);
    nonfinal.difference_with(a.final_set());
    let mut sets: Vec<FixedBitSet> = vec![nonfinal];
    let mut parents: Vec<Parent> = vec![Parent {
        parent: ROOT,
        letter: Letter::MAX,
    }];
    let mut alive: Vec<bool> = vec![true];
    let mut frontier: Vec<u32> = vec![0];
    let mut explored = 0usize;
    let found = |f: &[u32], sets: &[FixedBitSet]| {
        f.iter()
            .copied()
            .find(|&i| init.is_subset(&sets[i as usize]))
    };
    if let Some(hit) = found(&frontier, &sets) {
        return Ok(Outcome::fails(word_rev(&parents, hit), 1, 1));
    }
    // Complement scratch: Loc \ s'.
    while !frontier.is_empty() {
        let mut next: Vec<u32> = Vec::new();
        for &fi in &frontier {
            if !alive[fi as usize] {
                continue;
            }
            explored += 1;
            budget.spend(sets.len() as u64)?;
            for sigma in 0..nl {
                // cpre_σ(s') = Loc \ pre_σ(Loc \ s').
                let sp = &sets[fi as usize];
                let mut s = FixedBitSet::with_capacity(n);
                s.insert_range(..);
                for q in 0..n {
                    if !sp.contains(q) {
                        for &p in a.pre(q as State, sigma) {
                            s.set(p as usize, false);
                        }
                    }
                }
                // Keep only sets not below an element of F (F ⊔ Frontier keeps maximal sets).
                if (0..sets.len()).any(|j| alive[j] && s.is_subset(&sets[j])) {
                    continue;
                }
                for j in 0..sets.len() {
                    if alive[j] && sets[j].is_subset(&s) {
                        alive[j] = false;
                    }
                }
                sets.push(s);
                parents.push(Parent {
                    parent: fi,
                    letter: sigma,
                });
                alive.push(true);
                next.push((sets.len() - 1) as u32);
            }
        }
        next.retain(|&i| alive[i as usize]);
        if let Some(hit) = found(&next, &sets) {
            let size = alive.iter().filter(|&&b| b).count();
            return Ok(Outcome::fails(word_rev(&parents, hit), size, explored));
        }
        frontier = next;
    }
    let size = alive.iter().filter(|&&b| b).count();
    Ok(Outcome::holds(size, explored))
}

/// The default universality check: a short forward run (most non-universal automata reject a
/// short word, which the forward search meets first), then the backward algorithm, which is several
/// times faster on universal automata (see `bench/results/nfa-grids.md` and decision 0101).
pub(crate) fn universal_auto(a: &Nfa, budget: &Budget) -> Result<Outcome, Exhausted> {
    // A small constant: the rejected words of non-universal random automata are met within a
    // few dozen sets, and on universal ones the wasted forward work stays negligible.
    let bound = 128;
    match universal_forward_bounded(a, bound, budget)? {
        Some(o) => Ok(o),
        None => universal_backward(a, budget),
    }
}

/// In the backward algorithm the letters read from the found set back to the root `Loc∖Fin`
/// form the rejected word in reading order.
fn word_rev(parents: &[Parent], mut node: u32) -> Vec<Letter> {
    let mut w = Vec::new();
    while node != ROOT {
        let p = parents[node as usize];
        if p.parent == ROOT {
            break;
        }
        w.push(p.letter);
        node = p.parent;
    }
    w
}

/// Forward antichain universality (CAV'06 Theorem 3): minimal sets of the subset construction.
pub(crate) fn universal_forward(a: &Nfa, budget: &Budget) -> Result<Outcome, Exhausted> {
    Ok(universal_forward_bounded(a, usize::MAX, budget)?.unwrap_or_else(|| Outcome::holds(0, 0)))
}

/// The forward algorithm stopped after `bound` sets have been expanded (`None` then).
pub(crate) fn universal_forward_bounded(
    a: &Nfa,
    bound: usize,
    budget: &Budget,
) -> Result<Option<Outcome>, Exhausted> {
    let mut ticker = budget.ticker(64);
    let nl = a.num_letters() as Letter;
    let mut store = SetStore::new(a);
    let start = store.intern(a.initial());
    let mut nodes: Vec<u32> = vec![start];
    let mut parents = vec![Parent {
        parent: ROOT,
        letter: Letter::MAX,
    }];
    if !store.accepting(start) {
        return Ok(Some(Outcome::fails(Vec::new(), 1, 0)));
    }
    let mut alive = vec![true];
    let mut queue: VecDeque<u32> = VecDeque::from([0]);
    let mut explored = 0usize;
    let mut live_nodes: Vec<u32> = vec![0];
    while let Some(ni) = queue.pop_front() {
        if !alive[ni as usize] {
            continue;
        }
        if explored >= bound {
            return Ok(None);
        }
        ticker.tick()?;
        explored += 1;
        for sigma in 0..nl {
            let t = store.post(nodes[ni as usize], sigma);
            if !store.accepting(t) {
                nodes.push(t);
                parents.push(Parent {
                    parent: ni,
                    letter: sigma,
                });
                return Ok(Some(Outcome::fails(
                    word_to(&parents, (nodes.len() - 1) as u32),
                    live_nodes.len(),
                    explored,
                )));
            }
            let ts = store.get(t);
            if live_nodes
                .iter()
                .any(|&j| is_subset(store.get(nodes[j as usize]), ts))
            {
                continue;
            }
            drop_covered(&mut live_nodes, &mut alive, |j| {
                is_subset(ts, store.get(nodes[j as usize]))
            });
            let id = nodes.len() as u32;
            nodes.push(t);
            parents.push(Parent {
                parent: ni,
                letter: sigma,
            });
            alive.push(true);
            live_nodes.push(id);
            queue.push_back(id);
        }
    }
    Ok(Some(Outcome::holds(live_nodes.len(), explored)))
}

/// Antichain inclusion `L(A) ⊆ L(B)` over `Q_A × 2^{Q_B}`, forward, with a counterexample word.
/// Both automata must share the alphabet (see [`crate::nfa::reconcile`]).
///
/// Useless states are ignored: pairs whose `A` state cannot reach an accepting state are dropped,
/// and macrostates of `B` keep only states that can. A pair `(p, ∅)` is then already a
/// counterexample: the word leading to it, followed by a shortest word from `p` to an accepting
/// state of `A`, is accepted by `A` and rejected by `B`.
///
/// Exploration order: a depth-first probe bounded by `2·(|Q_A| + |Q_B|)` expanded pairs first (it
/// meets the counterexamples of the ARMC benchmarks after far fewer pairs than breadth-first
/// search), then, if it has not decided, breadth-first search from scratch (depth-first search
/// alone can be catastrophically slow when the inclusion holds: it builds large macrostates that
/// breadth-first search never needs, e.g. seconds instead of 30 ms on Tabakov–Vardi automata
/// with 150 states, |Σ| = 2, d = 1.25).
pub(crate) fn included(a: &Nfa, b: &Nfa, budget: &Budget) -> Result<Outcome, Exhausted> {
    included_auto(a, b, true, budget)
}

/// The strategy of [`included`] with or without ignoring useless states.
pub(crate) fn included_auto(
    a: &Nfa,
    b: &Nfa,
    prune: bool,
    budget: &Budget,
) -> Result<Outcome, Exhausted> {
    let bound = 2 * (a.num_states() + b.num_states()).max(64);
    Ok(
        match included_with(a, b, Order::Dfs, prune, bound, budget)? {
            Some(o) => o,
            None => included_with(a, b, Order::Bfs, prune, usize::MAX, budget)?
                .unwrap_or_else(|| Outcome::holds(0, 0)),
        },
    )
}

/// Exploration order of the antichain inclusion check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    Bfs,
    Dfs,
}

/// Shortest word from `p` to an accepting state (`p` is co-reachable, so one exists).
fn word_to_final(a: &Nfa, p: State) -> Vec<Letter> {
    let n = a.num_states();
    let mut prev: Vec<(u32, Letter)> = vec![(u32::MAX, 0); n];
    let mut seen = FixedBitSet::with_capacity(n);
    seen.insert(p as usize);
    let mut q = VecDeque::from([p]);
    while let Some(x) = q.pop_front() {
        if a.is_final(x) {
            let mut w = Vec::new();
            let mut y = x;
            while y != p {
                let (py, l) = prev[y as usize];
                w.push(l);
                y = py;
            }
            w.reverse();
            return w;
        }
        for (l, ts) in a.forward().out(x) {
            for &t in ts {
                if !seen.put(t as usize) {
                    prev[t as usize] = (x, l);
                    q.push_back(t);
                }
            }
        }
    }
    Vec::new()
}

/// [`included`] with an explicit exploration order; `prune: false` keeps useless states (the
/// SETTA'17 random-automata experiments have no accepting states and turn this pruning off, which
/// would otherwise answer at once).
/// Returns `None` if `bound` pairs were expanded without an answer.
pub(crate) fn included_with(
    a: &Nfa,
    b: &Nfa,
    order: Order,
    prune: bool,
    bound: usize,
    budget: &Budget,
) -> Result<Option<Outcome>, Exhausted> {
    // Useful states: co-reachable ones (unreachable ones are never visited).
    let useful_a = if prune {
        a.coreachable()
    } else {
        let mut all = FixedBitSet::with_capacity(a.num_states());
        all.insert_range(..);
        all
    };
    let store = if prune {
        SetStore::with_filter(b, b.coreachable())
    } else {
        SetStore::new(b)
    };
    let mut search = PairSearch::new(store, a.num_states());
    let init_b = search.store.intern_filtered(b.initial());
    // Without pruning, the empty macrostate is an ordinary one (never matched: u32::MAX).
    let empty = if prune {
        search.store.intern(&[])
    } else {
        u32::MAX
    };
    let mut subsumption = SubsetSubsumption { a, useful_a, empty };
    let stop = search.run(a, init_b, &mut subsumption, order, bound, budget)?;
    let size = search.chains_size();
    Ok(match stop {
        Stop::Bound => None,
        Stop::Holds => Some(Outcome::holds(size, search.explored)),
        Stop::Bad(bad) => {
            let mut w = word_to(&search.parents, bad);
            let (p, y) = search.pair(bad);
            if y == empty {
                // Any continuation to an accepting state of A is rejected by B.
                w.extend(word_to_final(a, p));
            }
            Some(Outcome::fails(w, size, search.explored))
        }
    })
}

/// The plain antichain order on pairs: `(p, Y)` is subsumed by `(p, Y')` when `Y' ⊆ Y`; pairs
/// whose `A` state is useless are dropped, and `(p, ∅)` (the empty macrostate `empty`) is bad.
struct SubsetSubsumption<'a> {
    a: &'a Nfa,
    useful_a: FixedBitSet,
    empty: u32,
}

impl PairOrder for SubsetSubsumption<'_> {
    fn useful(&self, p: State) -> bool {
        // A `p` that cannot reach an accepting state leaves nothing to check below its pairs.
        self.useful_a.contains(p as usize)
    }
    fn bad(&self, p: State, y: u32, store: &SetStore<'_>) -> bool {
        y == self.empty || (self.a.is_final(p) && !store.accepting(y))
    }
    fn subsumed(&self, p: State, y: u32, search: &PairSearch<'_>) -> bool {
        let ys = search.store.get(y);
        search.chains[p as usize].iter().any(|&j| {
            let yj = search.pset[j as usize];
            yj == y || is_subset(search.store.get(yj), ys)
        })
    }
    fn covers(&self, ys: &[State], old: &[State]) -> bool {
        is_subset(ys, old)
    }
}

/// What distinguishes the forward antichain inclusion searches over pairs `(p, Y) ∈ Q_A × 2^{Q_B}`
/// ([`included_with`], and with simulation subsumption [`crate::antichain_sim::included`]).
pub(crate) trait PairOrder {
    /// Whether pairs with the `A` state `p` are worth storing at all.
    fn useful(&self, _p: State) -> bool {
        true
    }
    /// Whether `(p, Y)` is a counterexample pair.
    fn bad(&self, p: State, y: u32, store: &SetStore<'_>) -> bool;
    /// Whether the stored pairs make the good pair `(p, Y)` redundant (it is then dropped).
    fn subsumed(&self, p: State, y: u32, search: &PairSearch<'_>) -> bool;
    /// Whether a new pair `(p, ys)` makes the stored `(p, old)` redundant (it is then removed).
    fn covers(&self, ys: &[State], old: &[State]) -> bool;
    /// The macrostate `Y` moves to on `sigma`.
    fn successor(&mut self, store: &mut SetStore<'_>, y: u32, sigma: Letter) -> u32 {
        store.post(y, sigma)
    }
}

/// How a [`PairSearch`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The stored pair with this id is bad.
    Bad(u32),
    /// Every pair was expanded without meeting a bad one.
    Holds,
    /// The bound on expanded pairs was reached first.
    Bound,
}

/// The pairs of a forward antichain inclusion search: for each `A` state the antichain of its
/// stored pairs, and for each pair its state, macrostate, parent (for the witness word) and
/// whether a later pair removed it.
pub(crate) struct PairSearch<'s> {
    pub(crate) store: SetStore<'s>,
    /// Per `A` state, the ids of its pairs in the antichain.
    pub(crate) chains: Vec<Vec<u32>>,
    pub(crate) pstate: Vec<State>,
    pub(crate) pset: Vec<u32>,
    pub(crate) parents: Vec<Parent>,
    pub(crate) alive: Vec<bool>,
    queue: VecDeque<u32>,
    /// Pairs expanded so far.
    pub(crate) explored: usize,
}

impl<'s> PairSearch<'s> {
    pub(crate) fn new(store: SetStore<'s>, num_a_states: usize) -> Self {
        PairSearch {
            store,
            chains: vec![Vec::new(); num_a_states],
            pstate: Vec::new(),
            pset: Vec::new(),
            parents: Vec::new(),
            alive: Vec::new(),
            queue: VecDeque::new(),
            explored: 0,
        }
    }

    /// The state and macrostate of pair `id`.
    pub(crate) fn pair(&self, id: u32) -> (State, u32) {
        (self.pstate[id as usize], self.pset[id as usize])
    }

    /// Pairs in the antichains.
    pub(crate) fn chains_size(&self) -> usize {
        self.chains.iter().map(Vec::len).sum()
    }

    /// Pairs stored and not removed (the antichains and a bad pair that stopped the search).
    pub(crate) fn alive_count(&self) -> usize {
        self.alive.iter().filter(|&&x| x).count()
    }

    /// Stores `(p, Y)` reached from `parent` by `letter` unless `order` finds it useless or
    /// subsumed; `Some(id)` if it is bad.
    fn push<O: PairOrder>(
        &mut self,
        order: &O,
        (p, y): (State, u32),
        parent: u32,
        letter: Letter,
    ) -> Option<u32> {
        if !order.useful(p) {
            return None;
        }
        let id = self.pstate.len() as u32;
        let bad = order.bad(p, y, &self.store);
        if !bad {
            if order.subsumed(p, y, self) {
                return None;
            }
            let ys = self.store.get(y);
            let (store, pset) = (&self.store, &self.pset);
            let chain = &mut self.chains[p as usize];
            drop_covered(chain, &mut self.alive, |j| {
                order.covers(ys, store.get(pset[j as usize]))
            });
            chain.push(id);
        }
        self.pstate.push(p);
        self.pset.push(y);
        self.parents.push(Parent { parent, letter });
        self.alive.push(true);
        self.queue.push_back(id);
        bad.then_some(id)
    }

    /// Stores the initial pairs `(p, init_b)` and expands pairs in `order` until a bad pair is
    /// stored, none is left, or `bound` pairs have been expanded.
    pub(crate) fn run<O: PairOrder>(
        &mut self,
        a: &Nfa,
        init_b: u32,
        order: &mut O,
        exploration: Order,
        bound: usize,
        budget: &Budget,
    ) -> Result<Stop, Exhausted> {
        let mut ticker = budget.ticker(256);
        let mut next_report = 1_000_000usize;
        for &p in a.initial() {
            if let Some(bad) = self.push(order, (p, init_b), ROOT, Letter::MAX) {
                return Ok(Stop::Bad(bad));
            }
        }
        let nl = a.num_letters() as Letter;
        loop {
            let next = match exploration {
                Order::Bfs => self.queue.pop_front(),
                Order::Dfs => self.queue.pop_back(),
            };
            let Some(ni) = next else { break };
            if !self.alive[ni as usize] {
                continue;
            }
            if self.explored >= bound {
                return Ok(Stop::Bound);
            }
            ticker.tick()?;
            self.explored += 1;
            if self.explored >= next_report {
                next_report += 1_000_000;
                tracing::info!(
                    "antichain inclusion: {} pairs expanded, {} macrostates",
                    self.explored,
                    self.store.len()
                );
            }
            let (p, y) = self.pair(ni);
            for sigma in 0..nl {
                let succ_a = a.post(p, sigma);
                if succ_a.is_empty() {
                    continue;
                }
                let y2 = order.successor(&mut self.store, y, sigma);
                for &p2 in succ_a {
                    if let Some(bad) = self.push(order, (p2, y2), ni, sigma) {
                        return Ok(Stop::Bad(bad));
                    }
                }
            }
        }
        Ok(Stop::Holds)
    }
}

/// Removes from an antichain the members `covered` by a new element, marking them dead.
fn drop_covered(chain: &mut Vec<u32>, alive: &mut [bool], covered: impl Fn(u32) -> bool) {
    chain.retain(|&j| {
        let keep = !covered(j);
        if !keep {
            alive[j as usize] = false;
        }
        keep
    });
}
