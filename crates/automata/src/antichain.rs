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
            live_nodes.retain(|&j| {
                let keep = !is_subset(ts, store.get(nodes[j as usize]));
                if !keep {
                    alive[j as usize] = false;
                }
                keep
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
    let mut ticker = budget.ticker(256);
    // Useful states: co-reachable ones (unreachable ones are never visited).
    let useful_a = if prune {
        a.coreachable()
    } else {
        let mut all = FixedBitSet::with_capacity(a.num_states());
        all.insert_range(..);
        all
    };
    let nl = a.num_letters() as Letter;
    let mut store = if prune {
        SetStore::with_filter(b, b.coreachable())
    } else {
        SetStore::new(b)
    };
    let init_b = store.intern_filtered(b.initial());
    // Without pruning, the empty macrostate is an ordinary one (never matched: u32::MAX).
    let empty = if prune { store.intern(&[]) } else { u32::MAX };
    // Per A-state, the node ids of the antichain (minimal Y's).
    let mut chains: Vec<Vec<u32>> = vec![Vec::new(); a.num_states()];
    let mut pstate: Vec<State> = Vec::new();
    let mut pset: Vec<u32> = Vec::new();
    let mut parents: Vec<Parent> = Vec::new();
    let mut alive: Vec<bool> = Vec::new();
    let mut queue: VecDeque<u32> = VecDeque::new();
    let mut next_report = 1_000_000usize;
    let mut explored = 0usize;
    // Returns Some(node) if the new pair is bad.
    macro_rules! push {
        ($p:expr, $y:expr, $parent:expr, $letter:expr) => {{
            let (p, y): (State, u32) = ($p, $y);
            let id = pstate.len() as u32;
            if !useful_a.contains(p as usize) {
                // p cannot reach an accepting state: nothing to check below this pair.
                None
            } else {
                let bad = y == empty || (a.is_final(p) && !store.accepting(y));
                let mut add = true;
                if !bad {
                    let ys = store.get(y);
                    let chain = &mut chains[p as usize];
                    if chain.iter().any(|&j| {
                        pset[j as usize] == y || is_subset(store.get(pset[j as usize]), ys)
                    }) {
                        add = false;
                    } else {
                        chain.retain(|&j| {
                            let keep = !is_subset(ys, store.get(pset[j as usize]));
                            if !keep {
                                alive[j as usize] = false;
                            }
                            keep
                        });
                        chain.push(id);
                    }
                }
                if add {
                    pstate.push(p);
                    pset.push(y);
                    parents.push(Parent {
                        parent: $parent,
                        letter: $letter,
                    });
                    alive.push(true);
                    queue.push_back(id);
                }
                if bad {
                    Some(id)
                } else {
                    None
                }
            }
        }};
    }
    let witness = |parents: &[Parent], pstate: &[State], pset: &[u32], bad: u32| {
        let mut w = word_to(parents, bad);
        let (p, y) = (pstate[bad as usize], pset[bad as usize]);
        if y == empty {
            // Any continuation to an accepting state of A is rejected by B.
            w.extend(word_to_final(a, p));
        }
        w
    };
    for &p in a.initial() {
        if let Some(bad) = push!(p, init_b, ROOT, Letter::MAX) {
            return Ok(Some(Outcome::fails(
                witness(&parents, &pstate, &pset, bad),
                chains.iter().map(Vec::len).sum(),
                0,
            )));
        }
    }
    loop {
        let next = match order {
            Order::Bfs => queue.pop_front(),
            Order::Dfs => queue.pop_back(),
        };
        let Some(ni) = next else { break };
        if !alive[ni as usize] {
            continue;
        }
        if explored >= bound {
            return Ok(None);
        }
        ticker.tick()?;
        explored += 1;
        if explored >= next_report {
            next_report += 1_000_000;
            tracing::info!(
                "antichain inclusion: {explored} pairs expanded, {} macrostates",
                store.len()
            );
        }
        let p = pstate[ni as usize];
        let y = pset[ni as usize];
        for sigma in 0..nl {
            let succ_a = a.post(p, sigma);
            if succ_a.is_empty() {
                continue;
            }
            let y2 = store.post(y, sigma);
            for &p2 in succ_a {
                if let Some(bad) = push!(p2, y2, ni, sigma) {
                    let size = chains.iter().map(Vec::len).sum();
                    return Ok(Some(Outcome::fails(
                        witness(&parents, &pstate, &pset, bad),
                        size,
                        explored,
                    )));
                }
            }
        }
    }
    Ok(Some(Outcome::holds(
        chains.iter().map(Vec::len).sum(),
        explored,
    )))
}
