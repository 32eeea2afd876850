//! Re-checks a safety proof before it is reported: an inductive invariant (clauses over latches)
//! must hold in every initial state (exactly: each clause has a literal agreeing with a latch's
//! reset value — uninitialised latches agree with nothing), exclude the bad states under the
//! invariant constraints, and be preserved by every transition whose current state and inputs
//! satisfy the constraints. Two SAT queries on a fresh one-step unrolling.

use crate::unroll::Unroller;
use verikit_aiger::{Aig, Kind, Reset};
use verikit_diag::Budget;
use verikit_sat::{CdclBackend, Lit, SatBackend, SatResult};

/// `Ok(())` if `clauses` is an inductive invariant proving safety property `prop`.
pub fn check_invariant(
    aig: &Aig,
    prop: usize,
    clauses: &[Vec<u32>],
    budget: &Budget,
) -> Result<(), String> {
    let bad = *aig
        .properties()
        .get(prop)
        .ok_or_else(|| format!("no safety property {prop}"))?;
    let kinds = aig.kinds();
    let latch = |l: u32| match kinds.get((l >> 1) as usize) {
        Some(Kind::Latch(j)) => aig.latches.get(*j).map(|x| (*j, x.reset)),
        _ => None,
    };
    for (k, cl) in clauses.iter().enumerate() {
        let mut holds = false;
        for &l in cl {
            let (_, reset) =
                latch(l).ok_or_else(|| format!("clause {k}: literal {l} is not a latch"))?;
            holds |= match reset {
                Reset::Zero => l & 1 == 1,
                Reset::One => l & 1 == 0,
                Reset::Uninit => false,
            };
        }
        if !holds {
            return Err(format!("clause {k} does not hold in every initial state"));
        }
    }
    let mut sat = CdclBackend::new();
    let mut un = Unroller::new(aig, &mut sat, false);
    for cl in clauses {
        let lits: Vec<Lit> = cl.iter().map(|&l| un.lit(&mut sat, 0, l)).collect();
        sat.add_clause(&lits);
    }
    for &c in &aig.constraints {
        let l = un.lit(&mut sat, 0, c);
        sat.add_clause(&[l]);
    }
    let b = un.lit(&mut sat, 0, bad);
    match sat.solve(&[b], budget) {
        SatResult::Unsat => {}
        SatResult::Sat => return Err("the invariant does not exclude the bad states".into()),
        SatResult::Unknown => return Err("ran out of budget while checking safety".into()),
    }
    // consecution: some clause false in the next state?
    let act = Lit::pos(sat.new_var());
    let mut some = vec![!act];
    for cl in clauses {
        let d = Lit::pos(sat.new_var());
        for &l in cl {
            let (j, _) = latch(l).ok_or("not a latch")?;
            let x = un.latch(&mut sat, 1, j);
            let x = if l & 1 == 1 { !x } else { x };
            sat.add_clause(&[!d, !x]);
        }
        some.push(d);
    }
    sat.add_clause(&some);
    match sat.solve(&[act], budget) {
        SatResult::Unsat => Ok(()),
        SatResult::Sat => Err("the invariant is not inductive".into()),
        SatResult::Unknown => Err("ran out of budget while checking consecution".into()),
    }
}
