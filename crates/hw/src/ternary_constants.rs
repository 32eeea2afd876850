//! Constant latches by ternary simulation to a fixpoint, the structural simplification run before
//! IC3. Not a seed paper: X-valued simulation over-approximates the reachable states (Seger,
//! Bryant, *Formal verification by symbolic evaluation of partially-ordered trajectories*, FMSD
//! 1995 — the simulation STE builds on, CAV'06 C19 §2); starting from the reset state with every
//! input X and joining each step into the current ternary state (`s ⊔ T(s)`) reaches, after at
//! most one step per latch, a ternary state `S*` with `Init ⊆ S*` and `T(S*) ⊑ S*`. A latch that is
//! 0 or 1 in `S*` has that value in every reachable state, whatever the inputs and constraints,
//! so `latch = value` is an inductive fact: IC3 asserts it in every frame (unit propagation then
//! simplifies the cone, as constant propagation would) and adds it to the invariant it returns.

use verikit_aiger::{Aig, Sim, Ternary};
use verikit_diag::{Budget, Exhausted};

/// Per latch: `Some(v)` when the latch is `v` in every reachable state (found by ternary
/// simulation), `None` otherwise.
pub(crate) fn ternary_constants(
    aig: &Aig,
    budget: &Budget,
) -> Result<Vec<Option<bool>>, Exhausted> {
    let mut sim = Sim::new(aig);
    let mut state = sim.latches();
    // each round that changes the state turns at least one latch to X: at most one per latch
    for _ in 0..=aig.latches.len() {
        budget.check()?;
        sim.set_latches(&state);
        sim.eval(&[]);
        let next: Vec<Ternary> = aig.latches.iter().map(|l| sim.lit(l.next)).collect();
        let mut changed = false;
        for (s, n) in state.iter_mut().zip(next) {
            if s.lane(0) != n.lane(0) && s.lane(0).is_some() {
                *s = Ternary::X;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    Ok(state.iter().map(|s| s.lane(0)).collect())
}

#[cfg(test)]
mod tests {
    use super::ternary_constants;
    use verikit_aiger::{Aig, Reset};
    use verikit_diag::Budget;

    #[test]
    fn finds_stuck_latches_and_keeps_toggling_ones() {
        let mut a = Aig::new();
        let i = a.add_input();
        // l0 resets to 0 and stays 0 (next = l0 ∧ i); l1 toggles; l2 resets to 1 and is
        // re-set to 1 whenever l0 is 0 (always); l3 is uninitialised (never constant)
        let l0 = a.add_latch(0, Reset::Zero);
        let l1 = a.add_latch(0, Reset::Zero);
        let l2 = a.add_latch(0, Reset::One);
        let l3 = a.add_latch(0, Reset::Uninit);
        let n0 = a.and(l0, i);
        a.set_next(0, n0);
        a.set_next(1, l1 ^ 1);
        let n2 = a.and(l0 ^ 1, l2);
        a.set_next(2, n2);
        a.set_next(3, l3);
        let c = ternary_constants(&a, &Budget::unlimited()).unwrap();
        assert_eq!(c, vec![Some(false), None, Some(true), None]);
    }
}
