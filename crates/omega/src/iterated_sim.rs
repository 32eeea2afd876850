//! Iterated simulation-based reduction: direct simulation and co-simulation alternated until the
//! automaton stops shrinking, as Spot's `iterated_simulations` (the default of its
//! post-processor at the `--high` level).
//!
//! Paper: Babiak, Badie, Duret-Lutz, Křetínský, Strejček, "Compositional approach to suspension
//! and other improvements to LTL translation", SPIN'13, §4 (iterated simulation and
//! co-simulation on TGBA); each step is language-preserving on its own
//! ([`crate::direct_sim`], [`crate::cosim`]), and `cleanup` (pruning, bisimulation quotient) runs
//! between steps.

use crate::twa::Twa;

/// At most this many rounds of (direct, co-) simulation.
pub(crate) const MAX_ROUNDS: usize = 8;

fn size(a: &Twa) -> (usize, usize) {
    (a.num_states(), a.num_edges())
}

/// Alternates [`crate::direct_sim::reduce`] and [`crate::cosim::reduce`], each followed by
/// `cleanup`, while the automaton shrinks (states, then edges).
///
/// An automaton whose acceptance is not generalized Büchi is returned unchanged.
pub(crate) fn iterated_simulations(aut: &Twa, cleanup: &dyn Fn(&Twa) -> Twa) -> Twa {
    let mut a = aut.clone();
    if !aut.is_generalized_buchi() {
        return a;
    }
    for _ in 0..MAX_ROUNDS {
        let before = size(&a);
        let b = crate::direct_sim::reduce(&a);
        if size(&b) < size(&a) {
            a = cleanup(&b);
        }
        let c = crate::cosim::reduce(&a);
        if size(&c) < size(&a) {
            a = cleanup(&c);
        }
        if size(&a) >= before {
            break;
        }
    }
    a
}
