//! Vacuity detection and concrete counterexamples for STE by bounded model checking (Tzoref,
//! Grumberg, *Automatic refinement and vacuity detection for STE*, CAV'06 C20, §5): a SAT search
//! for a valuation φ of the symbolic variables and a *concrete* trajectory of the circuit (every
//! input at every time and every latch at time 0 a fresh Boolean) on which the antecedent holds —
//! no ⊥ where it meets the circuit — and, for a vacuous-pass check, the consequent requires
//! something; for a counterexample, the consequent is violated. No solution means the STE pass
//! is vacuous, or the STE counterexample spurious (§5 "fails vacuously").

use crate::ste_algebra::{Algebra, CnfAlg};
use crate::ste_sim::{assertion_run, Leaf, Rail, Resolved};
use std::collections::HashMap;
use verikit_aiger::Aig;
use verikit_diag::{Budget, Exhausted};
use verikit_sat::{CdclBackend, Lit, SatBackend, SatResult};

/// What the concrete trajectory must show besides the antecedent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Goal {
    /// The consequent is violated at some node (a real counterexample).
    Violation,
    /// The consequent imposes some requirement (a non-vacuous witness).
    Requirement,
}

/// A concrete run: values of the symbolic variables, latches at time 0, inputs per frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConcreteRun {
    pub valuation: Vec<bool>,
    pub latches: Vec<bool>,
    pub inputs: Vec<Vec<bool>>,
}

/// Searches a concrete run; `Ok(None)` when there is none.
pub(crate) fn concrete_run(
    aig: &Aig,
    r: &Resolved,
    goal: Goal,
    budget: &Budget,
) -> Result<Option<ConcreteRun>, Exhausted> {
    let mut sat = CdclBackend::new();
    let mut free: HashMap<Leaf, Lit> = HashMap::new();
    let syms = {
        let mut alg = CnfAlg::new(&mut sat);
        let (traj, cons) = assertion_run(
            &mut alg,
            aig,
            r,
            &mut |alg: &mut CnfAlg, l| {
                let v = alg.fresh();
                free.insert(l, v);
                Some(Rail { one: v, zero: !v })
            },
            budget,
        )?;
        let mut any = alg.konst(false);
        for (&(t, var), g) in &cons {
            let Some(f) = traj.rails.get(t).and_then(|fr| fr.get(var as usize)) else {
                continue;
            };
            let c = match goal {
                Goal::Violation => {
                    let a = alg.and(&g.one, &f.zero);
                    let b = alg.and(&g.zero, &f.one);
                    alg.or(&a, &b)
                }
                Goal::Requirement => alg.or(&g.one, &g.zero),
            };
            any = alg.or(&any, &c);
        }
        let nb = alg.not(&traj.bottom);
        alg.sat.add_clause(&[nb]);
        alg.sat.add_clause(&[any]);
        (0..r.nvars as u32)
            .map(|i| alg.sym(i))
            .collect::<Vec<Lit>>()
    };
    match sat.solve(&[], budget) {
        SatResult::Sat => {}
        SatResult::Unsat => return Ok(None),
        SatResult::Unknown => return Err(sat.exhausted().unwrap_or(Exhausted::Cancelled)),
    }
    let val = |l: Option<Lit>| l.and_then(|l| sat.model_value(l)).unwrap_or(false);
    let valuation = syms.iter().map(|&l| val(Some(l))).collect();
    let get = |leaf: Leaf| val(free.get(&leaf).copied());
    let latches = aig
        .latches
        .iter()
        .map(|l| {
            get(Leaf {
                time: 0,
                var: l.lit >> 1,
            })
        })
        .collect();
    let inputs = (0..r.depth)
        .map(|time| {
            aig.inputs
                .iter()
                .map(|&i| get(Leaf { time, var: i >> 1 }))
                .collect()
        })
        .collect();
    Ok(Some(ConcreteRun {
        valuation,
        latches,
        inputs,
    }))
}
