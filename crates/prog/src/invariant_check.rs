//! The independent check of a safety invariant (one disjunction of conjunctions of linear atoms
//! per location) with the SMT solver over the integers: initiation (`true` at the initial
//! location), consecution along every edge (`Inv(l) ∧ op ⇒ Inv(l')`, one query per edge), and
//! safety (`false` at the error and cut locations).

use crate::cfa::{Atom, Cfa, Lin, Op, Var};
use verikit_num::Num;
use verikit_smt::{SatResult, Solver, Sort, TermId, TermOp};

/// An invariant: per location, a disjunction of conjunctions.
pub type Invariant = Vec<Vec<Vec<Atom>>>;

pub(crate) fn lin(s: &mut Solver, l: &Lin, v: &dyn Fn(Var) -> TermId) -> TermId {
    let mut args = Vec::new();
    for (&x, &c) in &l.coeffs {
        let k = s.terms.mk_const(Num::integer(c), Sort::Int);
        args.push(s.terms.mk(TermOp::Mul, vec![k, v(x)], Sort::Int));
    }
    args.push(s.terms.mk_const(Num::integer(l.konst), Sort::Int));
    s.terms.mk(TermOp::Add, args, Sort::Int)
}

pub(crate) fn atom(s: &mut Solver, a: &Atom, v: &dyn Fn(Var) -> TermId) -> TermId {
    let t = lin(s, &a.lin, v);
    let z = s.terms.mk_const(Num::ZERO, Sort::Int);
    s.terms.mk(
        if a.eq { TermOp::Eq } else { TermOp::Le },
        vec![t, z],
        Sort::Bool,
    )
}

pub(crate) fn dnf(s: &mut Solver, d: &[Vec<Atom>], v: &dyn Fn(Var) -> TermId) -> TermId {
    let mut ors = Vec::new();
    for conj in d {
        let mut ands = Vec::new();
        for a in conj {
            ands.push(atom(s, a, v));
        }
        ors.push(if ands.is_empty() {
            s.terms.mk_true()
        } else {
            s.terms.mk(TermOp::And, ands, Sort::Bool)
        });
    }
    match ors.len() {
        0 => s.terms.mk_false(),
        _ => s.terms.mk(TermOp::Or, ors, Sort::Bool),
    }
}

/// Checks the invariant; the error names the first failing obligation.
pub fn check_invariant(cfa: &Cfa, inv: &Invariant) -> Result<(), String> {
    let at = |l: usize| inv.get(l).map(|d| d.as_slice()).unwrap_or(&[]);
    if !at(cfa.init).iter().any(|c| c.is_empty()) {
        return Err("initiation: the invariant of the initial location is not `true`".into());
    }
    if !at(cfa.error).is_empty() || !at(cfa.cut).is_empty() {
        return Err("safety: the invariant of the error (or cut) location is not `false`".into());
    }
    for (i, e) in cfa.edges.iter().enumerate() {
        if at(e.from).is_empty() {
            continue;
        }
        let mut s = Solver::new();
        let pre: Vec<TermId> = (0..cfa.vars.len())
            .map(|x| s.declare(&format!("x{x}"), Sort::Int))
            .collect();
        let mut post = pre.clone();
        let pv = |x: Var| pre.get(x).copied().unwrap_or(TermId(0));
        let src = dnf(&mut s, at(e.from), &pv);
        s.assert(src);
        match &e.op {
            Op::Assume(atoms) => {
                for a in atoms {
                    let t = atom(&mut s, a, &pv);
                    s.assert(t);
                }
            }
            Op::Assign(asg) => {
                for (x, t) in asg {
                    let fresh = s.declare(&format!("x{x}'"), Sort::Int);
                    let rhs = lin(&mut s, t, &pv);
                    let eq = s.terms.mk(TermOp::Eq, vec![fresh, rhs], Sort::Bool);
                    s.assert(eq);
                    if let Some(p) = post.get_mut(*x) {
                        *p = fresh;
                    }
                }
            }
            Op::Havoc { vars, .. } => {
                for &x in vars {
                    let fresh = s.declare(&format!("x{x}'"), Sort::Int);
                    if let Some(p) = post.get_mut(x) {
                        *p = fresh;
                    }
                }
            }
        }
        let qv = |x: Var| post.get(x).copied().unwrap_or(TermId(0));
        let dst = dnf(&mut s, at(e.to), &qv);
        let ndst = s.terms.mk_not(dst);
        s.assert(ndst);
        match s.check(&[]) {
            SatResult::Unsat => {}
            SatResult::Sat => {
                return Err(format!(
                    "consecution fails on edge {i} ({} -> {}: {})",
                    e.from,
                    e.to,
                    cfa.show_op(&e.op)
                ))
            }
            SatResult::Unknown => return Err(format!("consecution undecided on edge {i}")),
        }
    }
    Ok(())
}
