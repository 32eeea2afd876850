//! Some outputs of a circuit read back as a machine: their cone of influence (the latches and
//! gates they depend on, transitively through the latches' next-state functions), explored from
//! the reset values by symbolic simulation.
//!
//! Paper: B. Finkbeiner, G. Geier, N. Passing, *Specification decomposition for reactive
//! synthesis*, NFM 2021 (the controllers of independent parts run side by side); S. Husien,
//! S. Schewe, N. Berthier, *PranCS*, SETTA 2017 (S20: the circuit checked before use).
//!
//! The orchestrator uses it on the controller it prints for a decomposed specification: each
//! part's outputs are read from the *composed* circuit (not from the part's own circuit) as a
//! Mealy or Moore machine over the part's game dictionary, and that machine is model-checked
//! (`model_check`) against the part's forbidden behaviours. A state is a valuation of the cone's
//! latches; its rows split the input letters by the latches' next values, each row answering with
//! the outputs' functions of the inputs. A cone that reads an input the part does not mention, a
//! latch without a defined reset value, or (Moore) an output that reads the current input is an
//! error: the machine would not be the part's.

use crate::error::SyntError;
use crate::mealy::{Machine, Row};
use crate::model_check::Basis;
use rustc_hash::FxHashMap;
use verikit_aiger::{Aig, Kind, Reset};
use verikit_bdd::Bdd;
use verikit_diag::Budget;

/// Largest number of machine states explored.
const MAX_STATES: usize = 1 << 16;

/// The machine of the outputs `basis.ctl` of `aig` (whose inputs and outputs are named
/// `all_in`/`all_out`), over the dictionary of `basis.letters`, reading the inputs `basis.unc`.
pub(crate) fn cone_machine(
    aig: &Aig,
    all_in: &[String],
    all_out: &[String],
    basis: &Basis,
    budget: &Budget,
) -> Result<Machine, SyntError> {
    let (dict, unc, ctl, moore) = (&basis.letters.dict, &basis.unc, &basis.ctl, basis.moore);
    let internal = |m: String| SyntError::Internal(m);
    let outs: Vec<usize> = ctl
        .iter()
        .map(|n| {
            all_out
                .iter()
                .position(|x| x == n)
                .ok_or_else(|| internal(format!("output {n} is not declared")))
        })
        .collect::<Result<_, _>>()?;
    // The cone: every variable the outputs depend on.
    let kinds = aig.kinds();
    let mut seen = vec![false; kinds.len()];
    let mut stack: Vec<u32> = Vec::new();
    for &k in &outs {
        let l = aig
            .outputs
            .get(k)
            .ok_or_else(|| internal(format!("the circuit has no output {k}")))?;
        stack.push(l / 2);
    }
    let mut cone_latches = Vec::new();
    while let Some(v) = stack.pop() {
        match seen.get_mut(v as usize) {
            Some(s) if !*s => *s = true,
            Some(_) => continue,
            None => return Err(internal(format!("variable {v} out of range"))),
        }
        match kinds.get(v as usize) {
            Some(Kind::Const) => {}
            Some(Kind::And(i)) => {
                let g = aig
                    .ands
                    .get(*i)
                    .ok_or_else(|| internal(format!("gate {i} out of range")))?;
                stack.push(g.rhs0 / 2);
                stack.push(g.rhs1 / 2);
            }
            Some(Kind::Latch(i)) => {
                let l = aig
                    .latches
                    .get(*i)
                    .ok_or_else(|| internal(format!("latch {i} out of range")))?;
                cone_latches.push(*i);
                stack.push(l.next / 2);
            }
            Some(Kind::Input(i)) => {
                let name = all_in.get(*i).map(String::as_str).unwrap_or("?");
                if !unc.iter().any(|x| x == name) {
                    return Err(internal(format!(
                        "outputs {} read input {name}, which their part does not mention",
                        ctl.join(",")
                    )));
                }
            }
            Some(Kind::Undefined) | None => {
                return Err(internal(format!("variable {v} is not defined")))
            }
        }
    }
    cone_latches.sort_unstable();
    let init: Vec<bool> = cone_latches
        .iter()
        .map(|&i| match aig.latches.get(i).map(|l| l.reset) {
            Some(Reset::Zero) => Ok(false),
            Some(Reset::One) => Ok(true),
            _ => Err(internal(format!("latch {i} has no reset value"))),
        })
        .collect::<Result<_, _>>()?;
    let var = |n: &String| {
        dict.var_of(n)
            .ok_or_else(|| internal(format!("{n} is not in the game")))
    };
    let ff = dict.ff();
    let tt = ff.not();
    let inputs: Vec<Bdd> = all_in
        .iter()
        .map(|n| match dict.var_of(n) {
            Some(v) if unc.contains(n) => dict.vars().mk_var(v),
            _ => ff.clone(),
        })
        .collect();
    let mut index: FxHashMap<Vec<bool>, u32> = FxHashMap::default();
    let mut states = vec![init.clone()];
    index.insert(init, 0);
    let mut rows = Vec::new();
    let mut ticker = budget.ticker(16);
    let mut i = 0;
    while let Some(state) = states.get(i).cloned() {
        ticker.tick()?;
        i += 1;
        let mut latches = vec![false; aig.latches.len()];
        for (&j, &b) in cone_latches.iter().zip(&state) {
            if let Some(x) = latches.get_mut(j) {
                *x = b;
            }
        }
        let (o, next) = crate::aig::eval(aig, &inputs, &latches, &ff);
        let answer: Vec<Bdd> = outs
            .iter()
            .map(|&k| o.get(k).cloned().unwrap_or_else(|| ff.clone()))
            .collect();
        if moore && answer.iter().any(|a| !a.is_true() && !a.is_false()) {
            return Err(internal(format!(
                "a Moore controller's outputs {} read the current input",
                ctl.join(",")
            )));
        }
        // The input letters split by the cone latches' next values.
        let mut split: Vec<(Bdd, Vec<bool>)> = vec![(tt.clone(), Vec::new())];
        for &j in &cone_latches {
            let f = next.get(j).cloned().unwrap_or_else(|| ff.clone());
            let mut out = Vec::with_capacity(split.len() * 2);
            for (g, v) in split {
                for (b, part) in [(true, g.and(&f)), (false, g.and_not(&f))] {
                    if !part.is_false() {
                        let mut w = v.clone();
                        w.push(b);
                        out.push((part, w));
                    }
                }
            }
            split = out;
        }
        let mut row = Vec::with_capacity(split.len());
        for (guard, target) in split {
            let t = match index.get(&target) {
                Some(&t) => t,
                None => {
                    if states.len() >= MAX_STATES {
                        return Err(SyntError::Limit(format!(
                            "more than {MAX_STATES} states in a composed controller's cone"
                        )));
                    }
                    let t = states.len() as u32;
                    index.insert(target.clone(), t);
                    states.push(target);
                    t
                }
            };
            row.push(Row {
                guard,
                answer: answer.clone(),
                target: t,
            });
        }
        rows.push(row);
    }
    Ok(Machine {
        moore,
        dict: dict.clone(),
        unc: unc.iter().map(var).collect::<Result<_, _>>()?,
        ctl: ctl.iter().map(var).collect::<Result<_, _>>()?,
        rows,
        allowed: None,
    })
}
