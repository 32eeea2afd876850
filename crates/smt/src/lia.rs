//! Integer feasibility on top of the rational simplex, as in Dutertre & de Moura, "A Fast
//! Linear-Arithmetic Solver for DPLL(T)" (CAV 2006), Section 4: when the relaxation is feasible
//! but an integer variable has a fractional value `v`, branch and bound creates the atom
//! `x ≤ ⌊v⌋` (its negation is `x ≥ ⌊v⌋ + 1`) and lets the SAT search decide it, so branches are
//! ordinary literals that take part in learning and backjumping.
//!
//! Not implemented: Gomory cuts (the paper's other integer technique); see the crate docs.

use crate::arith::Arith;
use crate::cdcl::{Final, Lit};

pub fn final_check(th: &mut Arith, num_vars: u32) -> Final {
    // Branch on the fractional integer variable with the smallest index (deterministic, and
    // avoids cycling between variables).
    let mut pick = None;
    for &x in th.int_vars() {
        let b = &th.simplex.beta[x as usize];
        if !b.c.is_integer() || !b.k.is_zero() {
            pick = Some(x);
            break;
        }
    }
    let x = match pick {
        None => return Final::Sat,
        Some(x) => x,
    };
    let v = th.simplex.beta[x as usize].c.clone();
    let fl = v.floor();
    if let Some(l) = th.has_atom(x, false, &fl) {
        // Cannot be unassigned here; ask the search to decide it anyway (defensive).
        return Final::Lemmas {
            new_vars: 0,
            clauses: Vec::new(),
            decide: Some(l),
        };
    }
    th.branches += 1;
    let lit: Lit = th.branch_atom(x, fl, num_vars);
    // Prefer the side nearer to the current value.
    let frac = v.sub(&v.floor());
    let up = frac > crate::numbers::Num::S(1, 2);
    Final::Lemmas {
        new_vars: 1,
        clauses: Vec::new(),
        decide: Some(if up { !lit } else { lit }),
    }
}
