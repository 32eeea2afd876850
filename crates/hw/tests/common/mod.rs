//! The independent checks the engine tests use: counterexamples are replayed by the `aiger`
//! simulator (`verikit_aiger::replay`); invariants are checked here with an encoding of one
//! transition written from scratch (not the engines' unroller).

#![allow(dead_code)]

use verikit_aiger::{Aig, Reset};
use verikit_diag::Budget;
use verikit_sat::{CdclBackend, Lit, SatBackend, SatResult};

/// One copy of the circuit: a solver variable per AIG variable (inputs, latches, gates), the
/// latch next-state variables as separate variables tied by equivalences.
struct Copy {
    var: Vec<Lit>,
    next: Vec<Lit>,
}

fn encode(aig: &Aig, s: &mut CdclBackend) -> Copy {
    let var: Vec<Lit> = (0..=aig.maxvar).map(|_| Lit::pos(s.new_var())).collect();
    let lit = |l: u32| {
        let x = var[(l >> 1) as usize];
        if l & 1 == 1 {
            !x
        } else {
            x
        }
    };
    s.add_clause(&[!var[0]]);
    for g in &aig.ands {
        let (o, a, b) = (lit(g.lhs), lit(g.rhs0), lit(g.rhs1));
        s.add_clause(&[!o, a]);
        s.add_clause(&[!o, b]);
        s.add_clause(&[o, !a, !b]);
    }
    let mut next = Vec::new();
    for l in &aig.latches {
        let n = Lit::pos(s.new_var());
        let f = lit(l.next);
        s.add_clause(&[!n, f]);
        s.add_clause(&[n, !f]);
        next.push(n);
    }
    Copy { var, next }
}

/// Checks that `clauses` (AIGER latch literals) is an inductive invariant excluding property
/// `prop`'s bad states: initiation exactly on the reset values, safety and consecution by SAT.
pub fn check_invariant_independently(
    aig: &Aig,
    prop: usize,
    clauses: &[Vec<u32>],
) -> Result<(), String> {
    let latch_index = |l: u32| aig.latches.iter().position(|x| x.lit == l & !1);
    // initiation: every initial state satisfies every clause
    for (k, c) in clauses.iter().enumerate() {
        let ok = c.iter().any(|&l| {
            let j = latch_index(l).expect("clause literal is a latch");
            match aig.latches[j].reset {
                Reset::Zero => l & 1 == 1,
                Reset::One => l & 1 == 0,
                Reset::Uninit => false,
            }
        });
        if !ok {
            return Err(format!("initiation fails for clause {k}"));
        }
    }
    let mut s = CdclBackend::new();
    let cp = encode(aig, &mut s);
    let cur = |l: u32| {
        let x = cp.var[(l >> 1) as usize];
        if l & 1 == 1 {
            !x
        } else {
            x
        }
    };
    for c in clauses {
        let lits: Vec<Lit> = c.iter().map(|&l| cur(l)).collect();
        s.add_clause(&lits);
    }
    for &c in &aig.constraints {
        s.add_clause(&[cur(c)]);
    }
    let bad = cur(aig.properties()[prop]);
    let b = Budget::unlimited();
    if s.solve(&[bad], &b) != SatResult::Unsat {
        return Err("a state of the invariant is bad".into());
    }
    // consecution: for each clause separately, Inv ∧ C ∧ T ∧ ¬clause' is unsatisfiable
    for (k, c) in clauses.iter().enumerate() {
        let neg: Vec<Lit> = c
            .iter()
            .map(|&l| {
                let n = cp.next[latch_index(l).unwrap()];
                if l & 1 == 1 {
                    n
                } else {
                    !n
                }
            })
            .collect();
        if s.solve(&neg, &b) != SatResult::Unsat {
            return Err(format!("clause {k} is not preserved by a transition"));
        }
    }
    Ok(())
}
