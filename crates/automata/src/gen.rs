//! The Tabakov–Vardi random NFA model (Tabakov and Vardi, LPAR 2005), as used by "Antichains: A New
//! Algorithm for Checking Universality of Finite Automata" (CAV 2006), Section 4 ("The Randomized
//! Model"), and by "On Equivalence Checking of Nondeterministic Finite Automata" (SETTA 2017),
//! Section 4 ("Random automata"): for each letter `σ`, `k_σ = round(r·|Q|)` distinct state pairs
//! `(ℓ, ℓ')` are chosen uniformly at random and `(ℓ, σ, ℓ')` added (`r` is the transition density,
//! the average out-degree per letter); `round(f·|Q|)` distinct accepting states are chosen uniformly;
//! there is one initial state.
//!
//! Deterministic: the same parameters and seed give the same automaton (a `SmallRng` seeded from
//! `seed`; rand 0.8's `SmallRng` is stable for a given rand version on 64-bit targets).

use crate::nfa::{Alphabet, Nfa, NfaBuilder, State};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rustc_hash::FxHashSet;

/// Parameters of the model (also the `verikit nfa gen` arguments, with the `clap` feature).
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct TvParams {
    /// Number of states |Q|.
    #[cfg_attr(feature = "clap", arg(long, short = 'n'))]
    pub states: usize,
    /// Number of letters |Σ|.
    #[cfg_attr(feature = "clap", arg(long, short = 'k', default_value_t = 2))]
    pub letters: usize,
    /// Transition density r (transitions per state and letter).
    #[cfg_attr(feature = "clap", arg(long, short = 'r', default_value_t = 2.0))]
    pub density: f64,
    /// Final-state density f (fraction of accepting states).
    #[cfg_attr(feature = "clap", arg(long, short = 'f', default_value_t = 1.0))]
    pub final_density: f64,
    /// The initial state.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 0))]
    pub initial: State,
    /// Seed of the random generator.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 0))]
    pub seed: u64,
}

/// Draws an automaton. `states >= 1`; densities are clamped to their meaningful range.
pub(crate) fn tabakov_vardi(p: &TvParams) -> Nfa {
    let n = p.states.max(1);
    let mut rng = SmallRng::seed_from_u64(p.seed);
    let names: Vec<String> = (0..p.letters).map(|i| format!("a{i}")).collect();
    let mut b = NfaBuilder::with_states(Alphabet::from_names(&names), n);
    b.add_initial(p.initial.min(n as State - 1));
    let max_pairs = (n * n) as f64;
    let k = ((p.density.max(0.0) * n as f64).round()).min(max_pairs) as usize;
    for a in 0..p.letters as u32 {
        if (k as f64) * 2.0 > max_pairs {
            // Dense: shuffle all pairs and take k.
            let mut all: Vec<(State, State)> = (0..n as State)
                .flat_map(|s| (0..n as State).map(move |t| (s, t)))
                .collect();
            for i in 0..k {
                let j = rng.gen_range(i..all.len());
                all.swap(i, j);
                b.add_transition(all[i].0, a, all[i].1);
            }
        } else {
            let mut seen: FxHashSet<(State, State)> = FxHashSet::default();
            while seen.len() < k {
                let s = rng.gen_range(0..n as State);
                let t = rng.gen_range(0..n as State);
                if seen.insert((s, t)) {
                    b.add_transition(s, a, t);
                }
            }
        }
    }
    let m = ((p.final_density.clamp(0.0, 1.0) * n as f64).round() as usize).min(n);
    let mut perm: Vec<State> = (0..n as State).collect();
    for i in 0..m {
        let j = rng.gen_range(i..n);
        perm.swap(i, j);
        b.add_final(perm[i]);
    }
    b.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_determinism() {
        let p = TvParams {
            states: 50,
            letters: 2,
            density: 2.0,
            final_density: 0.5,
            initial: 0,
            seed: 7,
        };
        let a = tabakov_vardi(&p);
        let b = tabakov_vardi(&p);
        assert_eq!(a.num_transitions(), 200);
        assert_eq!(a.finals().len(), 25);
        assert_eq!(a.transitions(), b.transitions());
        let c = tabakov_vardi(&TvParams { seed: 8, ..p });
        assert_ne!(a.transitions(), c.transitions());
        let d = tabakov_vardi(&TvParams {
            states: 3,
            density: 3.0,
            ..p
        });
        assert_eq!(d.num_transitions(), 18);
    }
}
