//! The classical subset construction (the "subset algorithm" that "Antichains: A New Algorithm for
//! Checking Universality of Finite Automata", CAV 2006, Section 3 ("Comparison with Explicit
//! Determinization") and Section 4 compare against): determinise on the fly, breadth first, and stop
//! at the first rejecting (universality) or bad (inclusion, equivalence) macrostate.
//!
//! Deliberately simple and independent of the other modules (`BTreeSet` macrostates, no antichain
//! pruning, no shared caches): it is the oracle the property tests compare every algorithm with.

use crate::nfa::{Letter, Nfa};
use crate::outcome::Outcome;
use std::collections::{BTreeSet, HashMap, VecDeque};
use verikit_diag::{Budget, Exhausted};

type Set = BTreeSet<u32>;

fn post(a: &Nfa, s: &Set, l: Letter) -> Set {
    let mut out = Set::new();
    for &q in s {
        out.extend(a.post(q, l).iter().copied());
    }
    out
}

fn accepting(a: &Nfa, s: &Set) -> bool {
    s.iter().any(|&q| a.is_final(q))
}

/// Explores pairs of macrostates `(post_w(I_A), post_w(I_B))` breadth first and returns the first
/// word `w` whose pair is `bad`, or the number of pairs explored.
fn search(
    a: &Nfa,
    b: &Nfa,
    bad: impl Fn(bool, bool) -> bool,
    budget: &Budget,
) -> Result<Outcome, Exhausted> {
    let mut ticker = budget.ticker(64);
    let nl = a.num_letters().max(b.num_letters()) as Letter;
    let start = (
        a.initial().iter().copied().collect::<Set>(),
        b.initial().iter().copied().collect::<Set>(),
    );
    let mut seen: HashMap<(Set, Set), (usize, Letter)> = HashMap::new();
    let mut order: Vec<(Set, Set)> = vec![start.clone()];
    seen.insert(start.clone(), (usize::MAX, 0));
    let mut queue = VecDeque::from([0usize]);
    let word =
        |order: &Vec<(Set, Set)>, seen: &HashMap<(Set, Set), (usize, Letter)>, mut i: usize| {
            let mut w = Vec::new();
            while let Some(&(p, l)) = seen.get(&order[i]) {
                if p == usize::MAX {
                    break;
                }
                w.push(l);
                i = p;
            }
            w.reverse();
            w
        };
    while let Some(i) = queue.pop_front() {
        ticker.tick()?;
        let (x, y) = order[i].clone();
        if bad(accepting(a, &x), accepting(b, &y)) {
            return Ok(Outcome::fails(word(&order, &seen, i), seen.len(), i + 1));
        }
        for l in 0..nl {
            let x2 = if (l as usize) < a.num_letters() {
                post(a, &x, l)
            } else {
                Set::new()
            };
            let y2 = if (l as usize) < b.num_letters() {
                post(b, &y, l)
            } else {
                Set::new()
            };
            let key = (x2, y2);
            if !seen.contains_key(&key) {
                seen.insert(key.clone(), (i, l));
                order.push(key);
                queue.push_back(order.len() - 1);
            }
        }
    }
    Ok(Outcome::holds(seen.len(), seen.len()))
}

/// The test-oracle form: a budget nobody else holds has no deadline, no work limit and cannot be
/// cancelled, so the search always completes.
#[cfg(test)]
fn complete(r: Result<Outcome, Exhausted>) -> Outcome {
    r.unwrap_or_else(|_| Outcome::holds(0, 0))
}

/// `L(A) = Σ*` by determinisation (the unbudgeted test oracle).
#[cfg(test)]
pub(crate) fn universal(a: &Nfa) -> Outcome {
    complete(universal_within(a, &Budget::unlimited()))
}

/// `L(A) ⊆ L(B)` by determinising both (the unbudgeted test oracle).
#[cfg(test)]
pub(crate) fn included(a: &Nfa, b: &Nfa) -> Outcome {
    complete(included_within(a, b, &Budget::unlimited()))
}

/// `L(A) = L(B)` by determinising both (the unbudgeted test oracle).
#[cfg(test)]
pub(crate) fn equivalent(a: &Nfa, b: &Nfa) -> Outcome {
    complete(equivalent_within(a, b, &Budget::unlimited()))
}

/// [`universal`] within `budget`.
pub(crate) fn universal_within(a: &Nfa, budget: &Budget) -> Result<Outcome, Exhausted> {
    // Pair A with itself and look at the first component only.
    search(a, a, |x, _| !x, budget)
}

/// [`included`] within `budget`.
pub(crate) fn included_within(a: &Nfa, b: &Nfa, budget: &Budget) -> Result<Outcome, Exhausted> {
    search(a, b, |x, y| x && !y, budget)
}

/// [`equivalent`] within `budget`.
pub(crate) fn equivalent_within(a: &Nfa, b: &Nfa, budget: &Budget) -> Result<Outcome, Exhausted> {
    search(a, b, |x, y| x != y, budget)
}

/// The reachable part of the subset construction of `A` as a DFA (macrostates numbered in breadth
/// first order; the empty macrostate is kept as a sink if reachable).
#[cfg(test)]
pub(crate) fn determinize(a: &Nfa) -> Nfa {
    use crate::nfa::NfaBuilder;
    let nl = a.num_letters() as Letter;
    let start: Set = a.initial().iter().copied().collect();
    let mut ids: HashMap<Set, u32> = HashMap::new();
    let mut sets = vec![start.clone()];
    ids.insert(start, 0);
    let mut b = NfaBuilder::with_states(a.alphabet.clone(), 1);
    b.add_initial(0);
    let mut i = 0;
    while i < sets.len() {
        let s = sets[i].clone();
        if accepting(a, &s) {
            b.add_final(i as u32);
        }
        for l in 0..nl {
            let t = post(a, &s, l);
            let id = match ids.get(&t) {
                Some(&id) => id,
                None => {
                    let id = sets.len() as u32;
                    ids.insert(t.clone(), id);
                    sets.push(t);
                    id
                }
            };
            b.add_transition(i as u32, l, id);
        }
        i += 1;
    }
    b.ensure_states(sets.len());
    b.build()
}
