//! Saturation of an NFA with respect to similarity, the "Sim" preprocessing of "On Equivalence
//! Checking of Nondeterministic Finite Automata" (Fu, Deng, Jansen, Zhang, SETTA 2017), Section 3.5
//! (after Bonchi and Pous, POPL 2013): for every similarity pair `x ≾ y`, `{x, y}` and `{y}` have
//! the same language in the determinised automaton, so the NFA may be saturated: every transition
//! `p -a-> q` gains `p -a-> q'` for each `q' ≾ q`, and every initial state `q` makes each `q' ≾ q`
//! initial. Languages of states are unchanged (`L(q') ⊆ L(q)`), and every macrostate the
//! determinisation reaches becomes `≾`-downward closed, so sets that differ only by simulated
//! states coincide and HK/HKC/antichains meet fewer distinct pairs. The paper (Section 4.4) finds
//! that computing similarity often costs more than it saves; bisimulation quotienting
//! ([`crate::bisim`]) is the cheaper preprocessing.
//!
//! For two automata the preorder is computed on the disjoint union `A ⊕ B`
//! ([`crate::simulation::preorder`]), so a state of `A` may be saturated with states of `B` and
//! conversely; both results are automata over the saturated union, with `A`'s or `B`'s (saturated)
//! initial states.

use crate::error::AutomataError;
use crate::nfa::{Nfa, NfaBuilder, State};
use crate::simulation::Simulation;
use fixedbitset::FixedBitSet;
use verikit_diag::Budget;

/// `below[q]` = the states `q' ≾ q`, sorted.
fn below(sim: &Simulation, n: usize) -> Vec<Vec<State>> {
    let mut below = vec![Vec::new(); n];
    for x in 0..n as State {
        for y in sim.simulators(x).ones() {
            below[y].push(x);
        }
    }
    below
}

/// `a` saturated with respect to the simulation preorder `sim` of `a` (any simulation contained in
/// similarity gives the same language).
pub(crate) fn saturate_with(a: &Nfa, sim: &Simulation) -> Nfa {
    let n = a.num_states();
    let below = below(sim, n);
    let mut b = NfaBuilder::with_states(a.alphabet.clone(), n);
    b.state_names = a.state_names.clone();
    let mut set = FixedBitSet::with_capacity(n);
    for &q in a.initial() {
        for &q2 in &below[q as usize] {
            set.insert(q2 as usize);
        }
    }
    for q in set.ones() {
        b.add_initial(q as State);
    }
    for &f in a.finals() {
        b.add_final(f);
    }
    for p in 0..n as State {
        for (l, succ) in a.forward().out(p) {
            set.clear();
            for &q in succ {
                for &q2 in &below[q as usize] {
                    set.insert(q2 as usize);
                }
            }
            for q in set.ones() {
                b.add_transition(p, l, q as State);
            }
        }
    }
    b.build()
}

/// `a` saturated with respect to its similarity ([`crate::simulation::preorder`]).
/// [`AutomataError::Limit`] when the relation exceeds `memory` bytes.
pub(crate) fn saturate(a: &Nfa, memory: usize, budget: &Budget) -> Result<Nfa, AutomataError> {
    let sim = crate::simulation::preorder(a, memory, budget)?;
    Ok(saturate_with(a, &sim))
}

/// `A` and `B` (same alphabet) saturated with respect to the similarity of `A ⊕ B`: two automata
/// over the same saturated union, one with `A`'s initial states and one with `B`'s.
pub(crate) fn saturate_pair(
    a: &Nfa,
    b: &Nfa,
    memory: usize,
    budget: &Budget,
) -> Result<(Nfa, Nfa), AutomataError> {
    let u = a.disjoint_union(b);
    let sim = crate::simulation::preorder(&u, memory, budget)?;
    let off = a.num_states() as State;
    let with_initial = |init: Vec<State>| -> Nfa {
        let mut bld = NfaBuilder::with_states(u.alphabet.clone(), u.num_states());
        init.into_iter().for_each(|q| bld.add_initial(q));
        u.finals().iter().for_each(|&f| bld.add_final(f));
        for (s, l, t) in u.transitions() {
            bld.add_transition(s, l, t);
        }
        saturate_with(&bld.build(), &sim)
    };
    let ia = a.initial().to_vec();
    let ib = b.initial().iter().map(|&q| q + off).collect();
    Ok((with_initial(ia), with_initial(ib)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{tabakov_vardi, TvParams};

    #[test]
    fn saturation_keeps_the_language_and_closes_downwards() {
        for seed in 0..60u64 {
            let a = tabakov_vardi(&TvParams {
                states: 3 + (seed % 9) as usize,
                letters: 1 + (seed % 3) as usize,
                density: 0.8 + (seed % 4) as f64 * 0.3,
                final_density: 0.4,
                initial: 0,
                seed,
            });
            let s = saturate(&a, crate::lrt::MEMORY_BUDGET, &Budget::unlimited()).unwrap();
            assert!(s.num_transitions() >= a.num_transitions());
            assert!(crate::subset::equivalent(&a, &s).holds, "seed {seed}");
            // Initial set and successor sets are downward closed.
            let sim = crate::simulation::simulation(&a);
            for p in 0..s.num_states() as State {
                for (_, succ) in s.forward().out(p) {
                    for &q in succ {
                        for x in 0..a.num_states() as State {
                            if sim.le(x, q) {
                                assert!(succ.contains(&x), "seed {seed}");
                            }
                        }
                    }
                }
            }
        }
    }
}
