//! Simulation-based pruning of the macro-states of the Safra determinisation: a state of the
//! input that is simulated by another state of the same macro-state, from whose SCC it cannot
//! be reached, is dropped from the macro-state.
//!
//! Paper: A. Lewkowicz, "Improving the determinization of Büchi automata", LRDE technical
//! report 1601 (2016), the second strategy (states made redundant by a simulation relation are
//! removed from the Safra tree), as used by Spot's `tgba_determinize` with `use_simulation`
//! (Duret-Lutz et al., "Spot 2.0 — a framework for LTL and ω-automata manipulation", ATVA'16,
//! §3, determinisation); the same idea for language inclusions is C. Löding, A. Pirogov, "New
//! optimizations and heuristics for determinization of Büchi automata", ATVA'19.
//!
//! The relation is direct simulation ([`crate::direct_sim::direct_simulation`]) on the
//! transition-based Büchi automaton being determinised, whose accepting edges are exactly those
//! the Safra construction treats as accepting (inside accepting SCCs): `p` simulates `q` when
//! every run from `q` is matched step by step from `p` with at least its accepting edges. `q` is
//! *dominated* by `p` when `p` simulates `q`, `q` is not reachable from `p` (so the removal of a
//! run's state can only happen finitely often along the SCC order), and, if the two simulate
//! each other, `p < q` (so the relation is acyclic). In a macro-state, a state is dropped when a
//! dominating state of the same macro-state is itself not dominated by any state there — every
//! dropped state keeps a witness that stays. Every accepting run from a dropped state is thus
//! matched by an accepting run from a kept one, and the language of the macro-state's parity
//! automaton is unchanged (checked against the Büchi translation in the tests).

use crate::direct_sim::{direct_simulation, MAX_STATES};
use crate::twa::Twa;
use std::collections::BTreeMap;

/// For each state of the input, the states that dominate it (see the module docs).
pub(crate) struct Pruner {
    dominators: Vec<Vec<u32>>,
}

impl Pruner {
    /// The pruner of `tba` (a transition-based Büchi automaton whose one set marks the edges the
    /// determinisation treats as accepting); `None` when no state dominates another, or beyond
    /// the size the simulation is computed for.
    pub(crate) fn new(tba: &Twa) -> Option<Pruner> {
        let n = tba.num_states();
        if !(2..=MAX_STATES).contains(&n) || !tba.is_generalized_buchi() {
            return None;
        }
        let sim = direct_simulation(tba);
        let g = tba.graph();
        let mut dominators = vec![Vec::new(); n];
        let mut any = false;
        for p in 0..n {
            let reach = verikit_graph::reachable(&g, &[p as u32]);
            for (q, doms) in dominators.iter_mut().enumerate() {
                let p_sim_q = sim.get(q * n + p).copied().unwrap_or(false);
                let q_sim_p = sim.get(p * n + q).copied().unwrap_or(false);
                let reached = reach.get(q).copied().unwrap_or(true);
                if p != q && p_sim_q && !reached && (!q_sim_p || p < q) {
                    doms.push(p as u32);
                    any = true;
                }
            }
        }
        any.then_some(Pruner { dominators })
    }

    fn dominated_in(&self, q: u32, present: &BTreeMap<u32, u32>) -> bool {
        self.dominators
            .get(q as usize)
            .is_some_and(|d| d.iter().any(|p| present.contains_key(p)))
    }

    /// Drops from a macro-state (input state → brace) the states dominated by a state of it
    /// that is not itself dominated there.
    pub(crate) fn prune(&self, nodes: &mut BTreeMap<u32, u32>) {
        let drop: Vec<u32> = nodes
            .keys()
            .copied()
            .filter(|&q| {
                self.dominators.get(q as usize).is_some_and(|d| {
                    d.iter()
                        .any(|p| nodes.contains_key(p) && !self.dominated_in(*p, nodes))
                })
            })
            .collect();
        for q in drop {
            nodes.remove(&q);
        }
    }
}
