//! Antichain inclusion with simulation subsumption ("AC" enhanced by similarity in "On Equivalence
//! Checking of Nondeterministic Finite Automata", Fu, Deng, Jansen, Zhang, SETTA 2017, Section 3.6,
//! after Abdulla, Chen, Holík, Mayr and Vojnar, "When simulation meets antichains", TACAS 2010).
//!
//! The simulation preorder `≾` is computed on the disjoint union `A ⊕ B`. Compared with the plain
//! forward antichain algorithm ([`crate::antichain::included`]):
//! * a pair `(p, Y)` is discharged at once if `p ≾ y` for some `y ∈ Y` (then `L(p) ⊆ L(Y)`);
//! * `Y` is kept as its `≾`-maximal elements (a state simulated by another member adds nothing);
//! * `(p, Y)` is subsumed by a stored `(p', Y')` when `p ≾ p'` and every `y' ∈ Y'` is simulated by
//!   some `y ∈ Y`.
//!
//! A bad pair (`p` accepting, no accepting state in `Y`) is still a real counterexample: dropping
//! simulated states from `Y` never changes whether `Y` contains an accepting state.

use crate::antichain::{Order, PairOrder, PairSearch, Stop};
use crate::macrostate::{word_to, SetStore};
use crate::nfa::{Letter, Nfa, State};
use crate::outcome::Outcome;
use crate::simulation::Simulation;
use rustc_hash::FxHashMap;

/// `≾`-maximal elements of a sorted set (of union states), sorted; among mutually simulating states
/// the smallest is kept.
fn maximise(sim: &Simulation, set: &[State], out: &mut Vec<State>) {
    out.clear();
    for (i, &y) in set.iter().enumerate() {
        let dominated = set
            .iter()
            .enumerate()
            .any(|(j, &z)| j != i && sim.le(y, z) && (!sim.le(z, y) || j < i));
        if !dominated {
            out.push(y);
        }
    }
}

/// `Y'` is below `Y`: every element of `Y'` is simulated by an element of `Y`.
fn below(sim: &Simulation, y_small: &[State], y_big: &[State]) -> bool {
    y_small.iter().all(|&a| y_big.iter().any(|&b| sim.le(a, b)))
}

/// `L(A) ⊆ L(B)` by antichains with simulation subsumption.
pub(crate) fn included(
    a: &Nfa,
    b: &Nfa,
    budget: &verikit_diag::Budget,
) -> Result<Outcome, verikit_diag::Exhausted> {
    let u = a.disjoint_union(b);
    let off = a.num_states() as State;
    // Similarity (the measured-fastest algorithm); the identity, a simulation too (the plain
    // antichain subsumption), when the relation exceeds the memory budget.
    let sim = match crate::simulation::preorder(&u, crate::lrt::MEMORY_BUDGET, budget) {
        Ok(s) => s,
        Err(crate::error::AutomataError::Exhausted(e)) => return Err(e),
        Err(_) => Simulation::identity(u.num_states()),
    };
    // Simulators of each A state within A (for subsumption across A states).
    let sims_a: Vec<Vec<State>> = (0..a.num_states() as State)
        .map(|p| {
            sim.simulators(p)
                .ones()
                .filter(|&q| (q as State) < off)
                .map(|q| q as State)
                .collect()
        })
        .collect();
    let mut order = SimSubsumption {
        a,
        sim,
        sims_a,
        maxed: FxHashMap::default(),
        scratch: Vec::new(),
    };
    // Macrostates are sets of union states (all in the B part).
    let mut search = PairSearch::new(SetStore::new(&u), a.num_states());
    let yb: Vec<State> = b.initial().iter().map(|&q| q + off).collect();
    let raw0 = search.store.intern(&yb);
    let init_b = order.canon(&mut search.store, raw0);
    let stop = search.run(a, init_b, &mut order, Order::Bfs, usize::MAX, budget)?;
    Ok(match stop {
        // An initial pair is bad: nothing explored.
        Stop::Bad(bad) if search.explored == 0 => {
            Outcome::fails(word_to(&search.parents, bad), 0, 0)
        }
        Stop::Bad(bad) => Outcome::fails(
            word_to(&search.parents, bad),
            search.alive_count(),
            search.explored,
        ),
        Stop::Holds | Stop::Bound => Outcome::holds(search.alive_count(), search.explored),
    })
}

/// Subsumption by simulation: a pair is discharged when `p ≾ y` for some `y ∈ Y`, and subsumed by
/// a stored `(p', Y')` with `p ≾ p'` and `Y'` below `Y`; macrostates are kept `≾`-maximal.
struct SimSubsumption<'a> {
    a: &'a Nfa,
    sim: Simulation,
    sims_a: Vec<Vec<State>>,
    /// Macrostate id → id of its `≾`-maximal elements.
    maxed: FxHashMap<u32, u32>,
    scratch: Vec<State>,
}

impl SimSubsumption<'_> {
    /// The id of the `≾`-maximal elements of macrostate `id`.
    fn canon(&mut self, store: &mut SetStore<'_>, id: u32) -> u32 {
        if let Some(&m) = self.maxed.get(&id) {
            return m;
        }
        maximise(&self.sim, store.get(id), &mut self.scratch);
        let m = store.intern(&self.scratch);
        self.maxed.insert(id, m);
        self.maxed.insert(m, m);
        m
    }
}

impl PairOrder for SimSubsumption<'_> {
    fn bad(&self, p: State, y: u32, store: &SetStore<'_>) -> bool {
        self.a.is_final(p) && !store.accepting(y)
    }
    fn subsumed(&self, p: State, y: u32, search: &PairSearch<'_>) -> bool {
        let ys = search.store.get(y);
        // Discharged by simulation: p ≾ y for some y in Y.
        ys.iter().any(|&q| self.sim.le(p, q))
            || self.sims_a[p as usize].iter().any(|&p2| {
                search.chains[p2 as usize]
                    .iter()
                    .any(|&j| below(&self.sim, search.store.get(search.pset[j as usize]), ys))
            })
    }
    fn covers(&self, ys: &[State], old: &[State]) -> bool {
        below(&self.sim, ys, old)
    }
    fn successor(&mut self, store: &mut SetStore<'_>, y: u32, sigma: Letter) -> u32 {
        let raw = store.post(y, sigma);
        self.canon(store, raw)
    }
}
