//! Bounded model checking (Biere, Cimatti, Clarke, Zhu, TACAS'99; the incremental SAT encoding
//! framework that Heljanko et al., *Bounded model checking for weak alternating Büchi automata*,
//! CAV'06 C12 §2–3, build their encoding on): one incremental solver, the circuit unrolled one
//! frame at a time, the invariant constraints asserted in every frame, and at depth `k` the
//! question "bad at frame `k`?" asked under an assumption; once refuted, `¬bad_k` is added as a
//! permanent clause. The first satisfiable depth is the shortest counterexample.
//!
//! The solver is the own CDCL core, or CaDiCaL when the crate is built with the `cadical`
//! feature (decision 0008: CaDiCaL is several times faster on hard single calls, and BMC's deep
//! frames are such calls); the default build is unchanged.

use crate::outcome::{witness_from_model, Outcome};
use crate::unroll::Unroller;
use verikit_aiger::Aig;
use verikit_diag::Budget;
use verikit_sat::{SatBackend, SatResult};

/// BMC's solver: CaDiCaL with the `cadical` feature, the own CDCL core otherwise.
fn bmc_solver() -> Box<dyn SatBackend> {
    #[cfg(feature = "cadical")]
    let s: Box<dyn SatBackend> = Box::new(verikit_sat::CadicalBackend::new());
    #[cfg(not(feature = "cadical"))]
    let s: Box<dyn SatBackend> = Box::new(verikit_sat::CdclBackend::new());
    s
}

/// Incremental BMC up to `max_depth` transitions (`None`: until the budget runs out).
pub(crate) fn bmc(aig: &Aig, prop: usize, max_depth: Option<usize>, budget: &Budget) -> Outcome {
    bmc_observed(aig, prop, max_depth, budget, &mut |_| {})
}

/// [`bmc`], calling `refuted(d)` once no counterexample of depth `d` exists.
pub(crate) fn bmc_observed(
    aig: &Aig,
    prop: usize,
    max_depth: Option<usize>,
    budget: &Budget,
    refuted: &mut dyn FnMut(usize),
) -> Outcome {
    let Some(&bad) = aig.properties().get(prop) else {
        return Outcome::Unknown {
            reason: format!("no safety property {prop}"),
        };
    };
    let mut sat = bmc_solver();
    let sat = &mut *sat;
    let mut un = Unroller::new(aig, sat, true);
    let mut depth = 0usize;
    loop {
        if let Some(m) = max_depth {
            if depth > m {
                return Outcome::Unknown {
                    reason: format!("no counterexample up to depth {m} (BMC bound)"),
                };
            }
        }
        if let Err(why) = budget.check() {
            return exhausted(why, depth);
        }
        for &c in &aig.constraints {
            let l = un.lit(sat, depth, c);
            sat.add_clause(&[l]);
        }
        let b = un.lit(sat, depth, bad);
        match sat.solve(&[b], budget) {
            SatResult::Sat => {
                return Outcome::Unsafe {
                    witness: witness_from_model(&un, sat, prop, depth),
                    depth,
                }
            }
            SatResult::Unsat => {
                sat.add_clause(&[!b]);
                refuted(depth);
            }
            SatResult::Unknown => {
                return exhausted(
                    sat.exhausted().unwrap_or(verikit_diag::Exhausted::Timeout),
                    depth,
                )
            }
        }
        depth += 1;
    }
}

fn exhausted(why: verikit_diag::Exhausted, depth: usize) -> Outcome {
    Outcome::Exhausted {
        why,
        reached: format!("BMC: no counterexample of depth < {depth}, stopped at depth {depth}"),
    }
}

#[cfg(test)]
mod tests {
    use super::{bmc, bmc_solver};
    use crate::outcome::Outcome;
    use verikit_aiger::{replay, Aig, Reset};
    use verikit_diag::Budget;

    /// A 4-bit counter from 0 whose bad state is 1111: the shortest counterexample has depth 15,
    /// found by whichever solver the build has (CaDiCaL under the `cadical` feature).
    #[test]
    fn finds_the_shortest_counterexample_with_the_builds_solver() {
        let want = if cfg!(feature = "cadical") {
            "cadical"
        } else {
            "cdcl"
        };
        assert_eq!(bmc_solver().name(), want);
        let mut a = Aig::new();
        let bits: Vec<u32> = (0..4).map(|_| a.add_latch(0, Reset::Zero)).collect();
        let mut carry = 1;
        for (j, &b) in bits.iter().enumerate() {
            let t = a.and(b, carry ^ 1);
            let u = a.and(b ^ 1, carry);
            let sum = a.or(t, u);
            a.set_next(j, sum);
            carry = a.and(b, carry);
        }
        let all = bits.iter().fold(1, |acc, &b| a.and(acc, b));
        a.bad.push(all);
        a.validate().unwrap();
        match bmc(&a, 0, None, &Budget::unlimited()) {
            Outcome::Unsafe { witness, depth } => {
                assert_eq!(depth, 15);
                assert!(replay(&a, &witness, 0).is_ok());
            }
            o => panic!("{o:?}"),
        }
        assert!(matches!(
            bmc(&a, 0, Some(14), &Budget::unlimited()),
            Outcome::Unknown { .. }
        ));
    }
}
