//! The abstract post-image of one automaton edge over a set of predicates, computed with the SMT
//! solver — S. K. Lahiri, R. Nieuwenhuis, A. Oliveras, "SMT Techniques for Fast Predicate
//! Abstraction", CAV 2006, §3 (`G_P(φ)`: the minterms over `P` that are satisfiable together with
//! `φ`, enumerated by projecting each model onto the predicates and adding a blocking clause) —
//! and its cheaper cartesian over-approximation (one entailment query per predicate and sign).
//!
//! `φ` is `CI_src ∧ cube(x) ∧ T_e(x, x')` (the source's statically computed bounds, the source
//! abstract state and the edge's transition relation); the predicates are those of the target
//! location over `x'`. The boolean mode enumerates on one incremental solver with the blocking
//! clauses kept as ordinary assertions (the solver's search is not modified, as §3.1 would);
//! the cartesian mode returns at most one cube.

use crate::cfa::{Atom, Op, Var};
use crate::invariant_check::atom;
use std::collections::HashMap;
use verikit_diag::{Budget, Exhausted};
use verikit_smt::{SatResult, Solver, Sort, TermId, TermOp, Value};

/// An abstract state: the value of each predicate of its location (`None`: unknown).
pub(crate) type Cube = Vec<Option<bool>>;

/// How the post-image is abstracted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Abstraction {
    /// One cube: the predicates entailed and the ones whose negation is entailed.
    Cartesian,
    /// Every satisfiable minterm (all-SAT over the predicate literals).
    Boolean,
}

/// Most minterms enumerated for one edge before the boolean mode falls back to the cartesian one.
const MAX_MINTERMS: usize = 64;

/// The negation of a `≤` atom over the integers (`¬(l ≤ 0)` is `−l + 1 ≤ 0`).
pub(crate) fn negate(a: &Atom) -> Atom {
    let l = a
        .lin
        .scale(-1)
        .and_then(|l| l.add_const(1))
        .unwrap_or_default();
    Atom::le0(l)
}

/// The atoms a cube stands for.
pub(crate) fn cube_atoms(preds: &[Atom], cube: &[Option<bool>]) -> Vec<Atom> {
    preds
        .iter()
        .zip(cube)
        .filter_map(|(p, v)| match v {
            Some(true) => Some(p.clone()),
            Some(false) => Some(negate(p)),
            None => None,
        })
        .collect()
}

/// The abstract successors of `src` along an edge with operation `op` (empty: infeasible).
#[allow(clippy::too_many_arguments)]
pub(crate) fn abstract_post(
    nvars: usize,
    op: &Op,
    strengthen: &[Atom],
    src_preds: &[Atom],
    src: &[Option<bool>],
    dst_preds: &[Atom],
    mode: Abstraction,
    budget: &Budget,
) -> Result<Vec<Cube>, Exhausted> {
    budget.spend(1)?;
    let mut s = Solver::new();
    s.set_budget(budget);
    let mut pre: HashMap<Var, TermId> = HashMap::new();
    let var = |s: &mut Solver, m: &mut HashMap<Var, TermId>, x: Var| -> TermId {
        *m.entry(x)
            .or_insert_with(|| s.declare(&format!("x{x}"), Sort::Int))
    };
    // Declare what is read, then build the pre-state constraints.
    let mut pre_atoms: Vec<Atom> = strengthen.to_vec();
    pre_atoms.extend(cube_atoms(src_preds, src));
    let mut post: HashMap<Var, TermId> = HashMap::new();
    match op {
        Op::Assume(atoms) => pre_atoms.extend(atoms.iter().cloned()),
        Op::Assign(asg) => {
            for (x, t) in asg {
                for &y in t.coeffs.keys() {
                    var(&mut s, &mut pre, y);
                }
                let fresh = s.declare(&format!("x{x}'"), Sort::Int);
                post.insert(*x, fresh);
            }
        }
        Op::Havoc { vars, .. } => {
            for &x in vars {
                let fresh = s.declare(&format!("x{x}'"), Sort::Int);
                post.insert(x, fresh);
            }
        }
    }
    for a in &pre_atoms {
        for &y in a.lin.coeffs.keys() {
            var(&mut s, &mut pre, y);
        }
    }
    for a in dst_preds {
        for &y in a.lin.coeffs.keys() {
            if !post.contains_key(&y) {
                var(&mut s, &mut pre, y);
            }
        }
    }
    let _ = nvars;
    let zero_pre = pre.clone();
    let pv = |x: Var| zero_pre.get(&x).copied().unwrap_or(TermId(0));
    for a in &pre_atoms {
        let t = atom(&mut s, a, &pv);
        s.assert(t);
    }
    if let Op::Assign(asg) = op {
        for (x, t) in asg {
            let rhs = crate::invariant_check::lin(&mut s, t, &pv);
            if let Some(&f) = post.get(x) {
                let eq = s.terms.mk(TermOp::Eq, vec![f, rhs], Sort::Bool);
                s.assert(eq);
            }
        }
    }
    let qv = |x: Var| {
        post.get(&x)
            .or_else(|| zero_pre.get(&x))
            .copied()
            .unwrap_or(TermId(0))
    };
    let lits: Vec<TermId> = dst_preds.iter().map(|a| atom(&mut s, a, &qv)).collect();
    match s.check(&[]) {
        SatResult::Unsat => return Ok(Vec::new()),
        SatResult::Unknown => return Err(budget.check().err().unwrap_or(Exhausted::Timeout)),
        SatResult::Sat => {}
    }
    if mode == Abstraction::Boolean {
        let mut cubes = Vec::new();
        loop {
            budget.check()?;
            let mut memo = HashMap::new();
            let mut cube = Vec::with_capacity(lits.len());
            for &l in &lits {
                cube.push(match s.model_value(l, &mut memo) {
                    Some(Value::Bool(b)) => Some(b),
                    _ => None,
                });
            }
            if cube.iter().any(|c| c.is_none()) || cubes.len() >= MAX_MINTERMS {
                break; // no projection: fall back to the cartesian image below
            }
            // Blocking clause: some predicate literal differs.
            let block: Vec<TermId> = lits
                .iter()
                .zip(&cube)
                .map(|(&l, v)| {
                    if *v == Some(true) {
                        s.terms.mk_not(l)
                    } else {
                        l
                    }
                })
                .collect();
            cubes.push(cube);
            let clause = match block.len() {
                0 => s.terms.mk_false(),
                1 => block.first().copied().unwrap_or(TermId(0)),
                _ => s.terms.mk(TermOp::Or, block, Sort::Bool),
            };
            s.assert(clause);
            match s.check(&[]) {
                SatResult::Unsat => return Ok(cubes),
                SatResult::Unknown => {
                    return Err(budget.check().err().unwrap_or(Exhausted::Timeout))
                }
                SatResult::Sat => {}
            }
        }
        // Too many minterms: start over on the cartesian image.
        return abstract_post(
            nvars,
            op,
            strengthen,
            src_preds,
            src,
            dst_preds,
            Abstraction::Cartesian,
            budget,
        );
    }
    let mut cube = Vec::with_capacity(lits.len());
    for &l in &lits {
        let nl = s.terms.mk_not(l);
        let v = match s.check(&[nl]) {
            SatResult::Unsat => Some(true),
            SatResult::Unknown => return Err(budget.check().err().unwrap_or(Exhausted::Timeout)),
            SatResult::Sat => match s.check(&[l]) {
                SatResult::Unsat => Some(false),
                SatResult::Unknown => {
                    return Err(budget.check().err().unwrap_or(Exhausted::Timeout))
                }
                SatResult::Sat => None,
            },
        };
        cube.push(v);
    }
    Ok(vec![cube])
}
