//! The independent check of an STE counterexample: the concrete run is simulated by
//! `verikit-aiger`'s simulator (not the dual-rail STE simulator), the written assertion's
//! formulas are evaluated under the run's valuation of the symbolic variables, and the run must
//! satisfy every antecedent constraint and violate at least one consequent constraint.

use crate::ste_parse::{Assertion, Atom};
use crate::ste_sim::node_literal;
use crate::ste_vacuity::ConcreteRun;
use verikit_aiger::{Aig, Sim, Ternary};

/// Replays `run` on `aig` against `a`: `Ok` with the violated consequent constraints
/// (`node@time expected v`), or `Err` with why the run is not a counterexample.
pub fn replay_ste(aig: &Aig, a: &Assertion, run: &ConcreteRun) -> Result<Vec<String>, String> {
    let depth = a
        .ante
        .iter()
        .chain(&a.cons)
        .map(|x| x.time + 1)
        .max()
        .unwrap_or(1);
    if run.inputs.len() < depth || run.latches.len() != aig.latches.len() {
        return Err(format!(
            "the run has {} frames and {} latch values; the assertion needs {depth} frames and the circuit has {} latches",
            run.inputs.len(),
            run.latches.len(),
            aig.latches.len()
        ));
    }
    if run.valuation.len() != a.vars.len() {
        return Err("the valuation does not match the assertion's variables".into());
    }
    let phi = |i: u32| run.valuation.get(i as usize).copied().unwrap_or(false);
    let mut sim = Sim::new(aig);
    let init: Vec<Ternary> = run.latches.iter().map(|&b| Ternary::from_bool(b)).collect();
    sim.set_latches(&init);
    let mut violated = Vec::new();
    for (t, frame) in run.inputs.iter().enumerate().take(depth) {
        let ins: Vec<Ternary> = frame.iter().map(|&b| Ternary::from_bool(b)).collect();
        sim.eval(&ins);
        let value = |at: &Atom| -> Result<bool, String> {
            let lit = node_literal(aig, &at.node).ok_or(format!("no node `{}`", at.node))?;
            sim.lit(lit)
                .lane(0)
                .ok_or(format!("`{}` is X at time {t} in a concrete run", at.node))
        };
        for at in a.ante.iter().filter(|x| x.time == t && x.guard.eval(&phi)) {
            if value(at)? != at.value.eval(&phi) {
                return Err(format!(
                    "the antecedent does not hold: `{}` at time {t}",
                    at.node
                ));
            }
        }
        for at in a.cons.iter().filter(|x| x.time == t && x.guard.eval(&phi)) {
            let want = at.value.eval(&phi);
            if value(at)? != want {
                violated.push(format!("{}@{t} expected {}", at.node, u8::from(want)));
            }
        }
        sim.step();
    }
    if violated.is_empty() {
        Err("the consequent holds on the run".into())
    } else {
        Ok(violated)
    }
}
