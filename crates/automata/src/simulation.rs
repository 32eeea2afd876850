//! The simulation preorder of an NFA and simulation-based reduction, as used in "On Equivalence
//! Checking of Nondeterministic Finite Automata" (Fu, Deng, Jansen, Zhang, SETTA 2017), Section 2
//! (Definition 1: `x ≾ y` iff `x` accepting ⇒ `y` accepting and every `a`-successor of `x` is
//! simulated by some `a`-successor of `y`) and Sections 3.5–3.6 (simulation subsumption).
//!
//! Computed as a greatest fixed point on bit matrices: `Sim(x)` (the states simulating `x`) starts
//! at the states with compatible acceptance and letters, and is refined by
//! `Sim(x) := Sim(x) ∩ pre_a(Sim(x'))` for every transition `x -a-> x'` until stable, driven by a
//! worklist of states whose row shrank (only their predecessors are revisited). Each visit of `x'`
//! costs `O(Σ_a (|pre_a(Sim(x'))| + |pre_a(x')|·n/64))`. This is a plain worklist fixed point, not
//! the Ranzato–Tapparo or Holík–Šimáček algorithm the paper uses: it is meant for automata of up to
//! a few thousand states (its relation is an `n × n` bit matrix). It is the test oracle of
//! [`crate::holik_simacek`] and [`crate::lrt`], and, being the fastest of the three on the measured
//! automata (decision 0104), the algorithm behind [`preorder`] (used by [`reduce`], saturation and
//! antichains with simulation).

use crate::bisim::quotient;
use crate::error::AutomataError;
use crate::nfa::{Letter, Nfa, State};
use fixedbitset::FixedBitSet;
use verikit_diag::{Budget, Exhausted};

/// The largest simulation, as rows `sim[x]` = the states that simulate `x`.
#[derive(Clone, Debug)]
pub(crate) struct Simulation {
    rows: Vec<FixedBitSet>,
}

impl Simulation {
    /// A relation given by its rows (`rows[x]` = the states simulating `x`).
    pub(crate) fn from_rows(rows: Vec<FixedBitSet>) -> Simulation {
        Simulation { rows }
    }
    /// The identity relation on `n` states (a simulation, the least useful one).
    pub(crate) fn identity(n: usize) -> Simulation {
        let rows = (0..n)
            .map(|x| {
                let mut r = FixedBitSet::with_capacity(n);
                r.insert(x);
                r
            })
            .collect();
        Simulation { rows }
    }
    /// `x ≾ y`.
    #[inline]
    pub(crate) fn le(&self, x: State, y: State) -> bool {
        self.rows[x as usize].contains(y as usize)
    }
    pub(crate) fn simulators(&self, x: State) -> &FixedBitSet {
        &self.rows[x as usize]
    }
}

/// Bytes of the `n × n` relation.
pub(crate) fn relation_bytes(n: usize) -> usize {
    n.saturating_mul(n.div_ceil(64)).saturating_mul(8)
}

/// The initial relation: `v` may simulate `u` iff `u` accepting ⇒ `v` accepting and `v` reads
/// every letter `u` reads.
pub(crate) fn initial_rows(a: &Nfa) -> Vec<FixedBitSet> {
    let n = a.num_states();
    let nl = a.num_letters();
    let reads: Vec<FixedBitSet> = (0..n as State)
        .map(|q| {
            let mut s = FixedBitSet::with_capacity(nl);
            for (l, _) in a.forward().out(q) {
                s.insert(l as usize);
            }
            s
        })
        .collect();
    (0..n as State)
        .map(|x| {
            let mut r = FixedBitSet::with_capacity(n);
            for y in 0..n as State {
                if (!a.is_final(x) || a.is_final(y))
                    && reads[x as usize].is_subset(&reads[y as usize])
                {
                    r.insert(y as usize);
                }
            }
            r
        })
        .collect()
}

/// Computes the simulation preorder of `a` (the unbudgeted test oracle; a budget nobody else
/// holds never runs out).
#[cfg(test)]
pub(crate) fn simulation(a: &Nfa) -> Simulation {
    simulation_within(a, &Budget::unlimited())
        .unwrap_or_else(|_| Simulation::identity(a.num_states()))
}

/// [`simulation`] within `budget`.
pub(crate) fn simulation_within(a: &Nfa, budget: &Budget) -> Result<Simulation, Exhausted> {
    let mut ticker = budget.ticker(64);
    let n = a.num_states();
    let nl = a.num_letters() as Letter;
    let mut rows = initial_rows(a);
    // Worklist refinement: when Sim(x') shrinks, only the rows of the a-predecessors x of x' can
    // shrink next (Sim(x) ⊆ pre_a(Sim(x')) for every x ∈ pre_a(x')).
    let mut queued = vec![true; n];
    let mut queue: std::collections::VecDeque<State> = (0..n as State).collect();
    let mut allowed = FixedBitSet::with_capacity(n);
    while let Some(x2) = queue.pop_front() {
        ticker.tick()?;
        queued[x2 as usize] = false;
        for l in 0..nl {
            let preds = a.pre(x2, l);
            if preds.is_empty() {
                continue;
            }
            allowed.clear();
            for y2 in rows[x2 as usize].ones() {
                for &y in a.pre(y2 as State, l) {
                    allowed.insert(y as usize);
                }
            }
            for &x in preds {
                let row = &mut rows[x as usize];
                let before = row.count_ones(..);
                row.intersect_with(&allowed);
                if row.count_ones(..) != before && !queued[x as usize] {
                    queued[x as usize] = true;
                    queue.push_back(x);
                }
            }
        }
    }
    Ok(Simulation { rows })
}

/// Similarity by the algorithm measured fastest (decision 0104, `bench/results/nfa-sim.md`): the
/// bit-parallel fixed point of this module — on the ARMC and email-filter automata its median time
/// is below Holík–Šimáček's ([`crate::holik_simacek`]) and LRT's ([`crate::lrt`]), which stay
/// selectable (`nfa reduce --method sim-hs | sim-lrt`). [`AutomataError::Limit`] when the relation
/// exceeds `memory` bytes, [`AutomataError::Exhausted`] when the budget runs out.
pub(crate) fn preorder(
    a: &Nfa,
    memory: usize,
    budget: &Budget,
) -> Result<Simulation, AutomataError> {
    check_memory(a, memory)?;
    Ok(simulation_within(a, budget)?)
}

/// [`AutomataError::Limit`] when the simulation relation of `a` would exceed `memory` bytes.
pub(crate) fn check_memory(a: &Nfa, memory: usize) -> Result<(), AutomataError> {
    let n = a.num_states();
    within_memory(n, relation_bytes(n), memory)
}

/// [`AutomataError::Limit`] when computing the simulation of `n` states needs `need` bytes, more
/// than `memory` (the one message of every simulation algorithm's memory limit).
pub(crate) fn within_memory(n: usize, need: usize, memory: usize) -> Result<(), AutomataError> {
    if need > memory {
        return Err(AutomataError::Limit(format!(
            "the simulation of {n} states needs at least {} MiB (budget {} MiB)",
            need >> 20,
            memory >> 20
        )));
    }
    Ok(())
}

/// Quotient by simulation equivalence (`x ≾ y` and `y ≾ x`): same language, at most as many states
/// as the bisimulation quotient. The relation is computed by [`preorder`];
/// [`AutomataError::Limit`] when even the relation exceeds the memory budget.
pub(crate) fn reduce(a: &Nfa, memory: usize, budget: &Budget) -> Result<Nfa, AutomataError> {
    let sim = preorder(a, memory, budget)?;
    Ok(reduce_by(a, &sim))
}

/// Quotient of `a` by the equivalence of a given simulation preorder of `a`.
pub(crate) fn reduce_by(a: &Nfa, sim: &Simulation) -> Nfa {
    let n = a.num_states();
    let mut block = vec![u32::MAX; n];
    let mut k = 0u32;
    for x in 0..n {
        if block[x] != u32::MAX {
            continue;
        }
        block[x] = k;
        for y in sim.simulators(x as State).ones() {
            if y > x && block[y] == u32::MAX && sim.le(y as State, x as State) {
                block[y] = k;
            }
        }
        k += 1;
    }
    quotient(a, &block)
}

/// The other simulation algorithms compute exactly this module's fixed point and keep to their
/// memory budget.
#[cfg(test)]
mod oracle {
    use super::{simulation, Simulation};
    use crate::error::AutomataError;
    use crate::gen::{tabakov_vardi, TvParams};
    use crate::nfa::{Nfa, State};
    use verikit_diag::Budget;

    type Algo = fn(&Nfa, usize, &Budget) -> Result<Simulation, AutomataError>;

    /// (name, algorithm, seeds, states modulus, density base, density modulus): the algorithm on
    /// random automata `0..seeds` with `2 + seed % states_mod` states, `1 + seed % 4` letters and
    /// transition density `base + (seed % density_mod) · 0.3`.
    const ALGOS: [(&str, Algo, u64, u64, f64, u64); 2] = [
        (
            "holik-simacek",
            crate::holik_simacek::simulation_within,
            300,
            40,
            0.3,
            6,
        ),
        ("lrt", crate::lrt::simulation_within, 200, 30, 0.5, 5),
    ];

    fn random(states: usize, letters: usize, density: f64, final_density: f64, seed: u64) -> Nfa {
        let initial = 0;
        tabakov_vardi(&TvParams {
            states,
            letters,
            density,
            final_density,
            initial,
            seed,
        })
    }

    #[test]
    fn agree_with_the_fixed_point_on_random_automata() {
        for (name, algo, seeds, states_mod, base, density_mod) in ALGOS {
            for seed in 0..seeds {
                let states = 2 + (seed % states_mod) as usize;
                let density = base + (seed % density_mod) as f64 * 0.3;
                let a = random(states, 1 + (seed % 4) as usize, density, 0.3, seed);
                let got = algo(&a, crate::lrt::MEMORY_BUDGET, &Budget::unlimited()).unwrap();
                let fix = simulation(&a);
                for x in 0..states as State {
                    assert_eq!(
                        got.simulators(x),
                        fix.simulators(x),
                        "{name}: seed {seed} state {x}"
                    );
                }
            }
        }
    }

    /// With a memory budget of 100 bytes, a 50-state automaton is refused with a limit error.
    #[test]
    fn memory_budget_is_enforced() {
        let a = random(50, 2, 1.25, 0.5, 7);
        for (name, algo, ..) in ALGOS {
            let r = algo(&a, 100, &Budget::unlimited());
            assert!(matches!(r, Err(AutomataError::Limit(_))), "{name}");
        }
    }
}
