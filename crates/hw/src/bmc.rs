//! Bounded model checking (Biere, Cimatti, Clarke, Zhu, TACAS'99; the incremental SAT encoding
//! framework that Heljanko et al., *Bounded model checking for weak alternating Büchi automata*,
//! CAV'06 C12 §2–3, build their encoding on): one incremental solver, the circuit unrolled one
//! frame at a time, the invariant constraints asserted in every frame, and at depth `k` the
//! question "bad at frame `k`?" asked under an assumption; once refuted, `¬bad_k` is added as a
//! permanent clause. The first satisfiable depth is the shortest counterexample.

use crate::outcome::{witness_from_model, Outcome};
use crate::unroll::Unroller;
use verikit_aiger::Aig;
use verikit_diag::Budget;
use verikit_sat::{CdclBackend, SatBackend, SatResult};

/// Incremental BMC up to `max_depth` transitions (`None`: until the budget runs out).
pub(crate) fn bmc(aig: &Aig, prop: usize, max_depth: Option<usize>, budget: &Budget) -> Outcome {
    let Some(&bad) = aig.properties().get(prop) else {
        return Outcome::Unknown {
            reason: format!("no safety property {prop}"),
        };
    };
    let mut sat = CdclBackend::new();
    let mut un = Unroller::new(aig, &mut sat, true);
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
            let l = un.lit(&mut sat, depth, c);
            sat.add_clause(&[l]);
        }
        let b = un.lit(&mut sat, depth, bad);
        match sat.solve(&[b], budget) {
            SatResult::Sat => {
                return Outcome::Unsafe {
                    witness: witness_from_model(&un, &sat, prop, depth),
                    depth,
                }
            }
            SatResult::Unsat => sat.add_clause(&[!b]),
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
