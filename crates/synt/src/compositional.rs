//! Compositional treatment of conjunctions of guarantees.
//!
//! Paper: O. Kupferman, N. Piterman, M. Y. Vardi, *Safraless compositional synthesis*, CAV 2006
//! (C06), §5 "Compositional Synthesis": for a specification `ψ ∧ ψ′` the universal co-Büchi
//! automaton is the two automata of `ψ` and `ψ′` put *side by side* (`P = ⟨Σ, Q ∪ Q′, δ ∪ δ′,
//! {q_in, q′_in}, …⟩`, two initial states), so the automaton of the conjunction never has to be
//! translated as a whole; and a position of the conjunction's game whose restriction to one
//! component is lost in that component's game is lost (the environment beating one component
//! beats the conjunction).
//!
//! Here: [`components`] splits `φ` into its conjuncts, distributing an implication from the
//! assumptions over the guarantees (`A → (G₁ ∧ G₂)` ≡ `(A → G₁) ∧ (A → G₂)`, the shape of every
//! TLSF specification with assumptions); the forbidden behaviours `¬φ` are then the disjoint
//! [`union`] of the Büchi automata of the `¬φᵢ`, translated one by one. The orchestrator also
//! plays the environment's game on each component before the whole (a counter-strategy for one
//! conjunct is one for `φ`, and is model-checked against the automaton of the full `φ`).

use crate::error::SyntError;
use verikit_bdd::{BddDict, Limits};
use verikit_diag::Budget;
use verikit_omega::{Arena, Node, Twa, F};

/// The conjuncts of `f`: the operands of top-level conjunctions, and `A → Gᵢ` for each conjunct
/// `Gᵢ` of the conclusion of a top-level implication.
pub(crate) fn components(arena: &mut Arena, f: F) -> Vec<F> {
    match arena.node(f).clone() {
        Node::And(ops) => ops.into_iter().flat_map(|g| components(arena, g)).collect(),
        Node::Implies(a, g) => {
            let gs = components(arena, g);
            if gs.len() <= 1 {
                return vec![f];
            }
            gs.into_iter().map(|g| arena.implies(a, g)).collect()
        }
        _ => vec![f],
    }
}

/// The disjoint union of automata with at most one acceptance set (a run of the union is a run of
/// one of them): the propositions joined by name, acceptance `Inf(0)`. An automaton without
/// acceptance sets (every infinite run accepted) has every edge marked; one with acceptance `f`
/// contributes nothing.
pub(crate) fn union(auts: &[Twa], budget: &Budget) -> Result<Twa, SyntError> {
    let mut aps: Vec<String> = Vec::new();
    for a in auts {
        for p in &a.aps {
            if !aps.contains(p) {
                aps.push(p.clone());
            }
        }
    }
    let mut u = Twa::new(aps.clone());
    let dict: BddDict = u.vars.clone();
    let limits = Limits::new(None, budget.clone());
    let mut any = false;
    for a in auts {
        if a.acc_false {
            continue;
        }
        if a.num_sets > 1 {
            return Err(SyntError::Internal(
                "union of automata with more than one acceptance set".into(),
            ));
        }
        any = true;
        let base = u.num_states() as u32;
        for _ in 0..a.num_states() {
            u.add_state();
        }
        for (q, st) in a.states.iter().enumerate() {
            for e in st {
                budget.check()?;
                let label = dict
                    .import(&a.vars, &e.label, &limits)
                    .map_err(|e| SyntError::Limit(e.to_string()))?;
                let marks = if a.num_sets == 0 { 1 } else { e.marks & 1 };
                u.add_edge(base + q as u32, base + e.dst, label, marks);
            }
        }
        u.init.extend(a.init.iter().map(|&q| base + q));
    }
    u.num_sets = 1;
    u.acc_false = !any;
    u.state_based = false;
    Ok(u)
}
