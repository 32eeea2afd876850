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

use crate::macrostate::{word_to, Parent, SetStore, ROOT};
use crate::nfa::{Letter, Nfa, State};
use crate::outcome::Outcome;
use crate::simulation::Simulation;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

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
    let mut ticker = budget.ticker(256);
    let u = a.disjoint_union(b);
    let off = a.num_states() as State;
    // Similarity (the measured-fastest algorithm); the identity, a simulation too (the plain
    // antichain subsumption), when the relation exceeds the memory budget.
    let sim = match crate::simulation::preorder(&u, crate::lrt::MEMORY_BUDGET, budget) {
        Ok(s) => s,
        Err(crate::error::AutomataError::Exhausted(e)) => return Err(e),
        Err(_) => Simulation::identity(u.num_states()),
    };
    let nl = a.num_letters() as Letter;
    // Macrostates are sets of union states (all in the B part).
    let mut store = SetStore::new(&u);
    let mut maxed: FxHashMap<u32, u32> = FxHashMap::default();
    let mut scratch = Vec::new();
    let mut canon = |store: &mut SetStore<'_>, id: u32, scratch: &mut Vec<State>| -> u32 {
        if let Some(&m) = maxed.get(&id) {
            return m;
        }
        maximise(&sim, store.get(id), scratch);
        let m = store.intern(scratch);
        maxed.insert(id, m);
        maxed.insert(m, m);
        m
    };
    let yb: Vec<State> = b.initial().iter().map(|&q| q + off).collect();
    let raw0 = store.intern(&yb);
    let init_b = canon(&mut store, raw0, &mut scratch);
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
    let mut chains: Vec<Vec<u32>> = vec![Vec::new(); a.num_states()];
    let mut pstate: Vec<State> = Vec::new();
    let mut pset: Vec<u32> = Vec::new();
    let mut parents: Vec<Parent> = Vec::new();
    let mut alive: Vec<bool> = Vec::new();
    let mut queue: VecDeque<u32> = VecDeque::new();
    let mut explored = 0usize;
    let mut push = |p: State,
                    y: u32,
                    parent: u32,
                    letter: Letter,
                    store: &SetStore<'_>,
                    pstate: &mut Vec<State>,
                    pset: &mut Vec<u32>,
                    parents: &mut Vec<Parent>,
                    alive: &mut Vec<bool>,
                    queue: &mut VecDeque<u32>|
     -> Option<u32> {
        let ys = store.get(y);
        let bad = a.is_final(p) && !store.accepting(y);
        if !bad {
            // Discharged by simulation: p ≾ y for some y in Y.
            if ys.iter().any(|&q| sim.le(p, q)) {
                return None;
            }
            for &p2 in &sims_a[p as usize] {
                if chains[p2 as usize]
                    .iter()
                    .any(|&j| below(&sim, store.get(pset[j as usize]), ys))
                {
                    return None;
                }
            }
            let chain = &mut chains[p as usize];
            chain.retain(|&j| {
                let keep = !below(&sim, ys, store.get(pset[j as usize]));
                if !keep {
                    alive[j as usize] = false;
                }
                keep
            });
            chain.push(pstate.len() as u32);
        }
        let id = pstate.len() as u32;
        pstate.push(p);
        pset.push(y);
        parents.push(Parent { parent, letter });
        alive.push(true);
        queue.push_back(id);
        if bad {
            Some(id)
        } else {
            None
        }
    };
    for &p in a.initial() {
        if let Some(bad) = push(
            p,
            init_b,
            ROOT,
            Letter::MAX,
            &store,
            &mut pstate,
            &mut pset,
            &mut parents,
            &mut alive,
            &mut queue,
        ) {
            return Ok(Outcome::fails(word_to(&parents, bad), 0, 0));
        }
    }
    while let Some(ni) = queue.pop_front() {
        if !alive[ni as usize] {
            continue;
        }
        ticker.tick()?;
        explored += 1;
        let p = pstate[ni as usize];
        let y = pset[ni as usize];
        for sigma in 0..nl {
            let succ_a = a.post(p, sigma);
            if succ_a.is_empty() {
                continue;
            }
            let raw = store.post(y, sigma);
            let y2 = canon(&mut store, raw, &mut scratch);
            for &p2 in succ_a {
                if let Some(bad) = push(
                    p2,
                    y2,
                    ni,
                    sigma,
                    &store,
                    &mut pstate,
                    &mut pset,
                    &mut parents,
                    &mut alive,
                    &mut queue,
                ) {
                    return Ok(Outcome::fails(
                        word_to(&parents, bad),
                        alive.iter().filter(|&&x| x).count(),
                        explored,
                    ));
                }
            }
        }
    }
    let size = alive.iter().filter(|&&x| x).count();
    Ok(Outcome::holds(size, explored))
}
