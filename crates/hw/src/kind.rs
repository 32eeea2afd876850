//! k-induction with simple-path constraints (Sheeran, Singh, Stålmarck, FMCAD 2000; the
//! completeness argument BMC needs, Heljanko et al., CAV'06 C12 §1 refs [6–9]). Two incremental
//! solvers: the base case is BMC from the initial states; the step case unrolls a path from any
//! state on which the property holds (with the invariant constraints) for `k+1` frames, requires
//! the states of the cone of influence to be pairwise distinct, and asks for a bad state at frame
//! `k+1`. Base case satisfiable: a counterexample; step case unsatisfiable: the property is
//! `k`-inductive, hence safe.

use crate::outcome::{witness_from_model, Outcome, Proof};
use crate::unroll::{coi_latches, Unroller};
use verikit_aiger::Aig;
use verikit_diag::{Budget, Exhausted};
use verikit_sat::{CdclBackend, Lit, SatBackend, SatResult};

pub(crate) fn kind(aig: &Aig, prop: usize, simple_path: bool, budget: &Budget) -> Outcome {
    let Some(&bad) = aig.properties().get(prop) else {
        return Outcome::Unknown {
            reason: format!("no safety property {prop}"),
        };
    };
    let mut roots = vec![bad];
    roots.extend(&aig.constraints);
    let coi = coi_latches(aig, &roots);
    let mut base = CdclBackend::new();
    let mut bu = Unroller::new(aig, &mut base, true);
    let mut step = CdclBackend::new();
    let mut su = Unroller::new(aig, &mut step, false);
    let stop = |why: Exhausted, k: usize| Outcome::Exhausted {
        why,
        reached: format!(
            "k-induction: no counterexample of depth < {k}, induction depth {k} not reached"
        ),
    };
    let mut k = 0usize;
    loop {
        if let Err(why) = budget.check() {
            return stop(why, k);
        }
        // base case: a counterexample of exactly k transitions?
        for &c in &aig.constraints {
            let l = bu.lit(&mut base, k, c);
            base.add_clause(&[l]);
        }
        let b = bu.lit(&mut base, k, bad);
        match base.solve(&[b], budget) {
            SatResult::Sat => {
                return Outcome::Unsafe {
                    witness: witness_from_model(&bu, &base, prop, k),
                    depth: k,
                }
            }
            SatResult::Unsat => base.add_clause(&[!b]),
            SatResult::Unknown => return stop(base.exhausted().unwrap_or(Exhausted::Timeout), k),
        }
        // step case: good at frames 0..=k, bad at k+1, all states distinct
        for f in [k, k + 1] {
            for &c in &aig.constraints {
                let l = su.lit(&mut step, f, c);
                step.add_clause(&[l]);
            }
        }
        let gk = su.lit(&mut step, k, bad);
        step.add_clause(&[!gk]);
        if simple_path {
            let cur: Vec<Lit> = coi.iter().map(|&j| su.latch(&mut step, k + 1, j)).collect();
            for f in 0..=k {
                let mut diff = Vec::with_capacity(coi.len());
                for (&j, &x) in coi.iter().zip(&cur) {
                    let y = su.latch(&mut step, f, j);
                    let d = Lit::pos(step.new_var());
                    step.add_clause(&[!d, x, y]);
                    step.add_clause(&[!d, !x, !y]);
                    diff.push(d);
                }
                step.add_clause(&diff);
            }
        }
        let b1 = su.lit(&mut step, k + 1, bad);
        match step.solve(&[b1], budget) {
            SatResult::Unsat => return Outcome::Safe(Proof::KInduction { k: k + 1 }),
            SatResult::Sat => {}
            SatResult::Unknown => return stop(step.exhausted().unwrap_or(Exhausted::Timeout), k),
        }
        k += 1;
    }
}
