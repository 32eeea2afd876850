//! Feasibility of an abstract counterexample over the integers, with loops summarised by closed
//! forms — D. Kroening, G. Weissenbacher, "Counterexamples with Loops for Predicate
//! Abstraction", CAV 2006, §3 (a counterexample `prefix · body^n · suffix` standing for every
//! number of iterations) and §4 (simulation: the loop in SSA form, the recurrence `i⟨n⟩ =
//! i⟨n−1⟩ + β` of each updated variable solved to `i⟨0⟩ + β·n`, `n` left to the solver).
//!
//! A path is encoded in SSA form into one query of the SMT solver (`verikit-smt`, linear integer
//! arithmetic); a model gives the values of the `__VERIFIER_nondet_*` calls in execution order.
//! A loop body is summarised only when it is a *counting* loop: assumptions and assignments
//! `x := x + c` (constant `c`), no `havoc`. Then every variable is affine in the iteration index
//! `j`, so each atom of the body is affine in `j` and holds on all of `0 … n−1` exactly when it
//! holds at `j = 0` and `j = n − 1` — the summary is exact, not an approximation, and a model is a
//! real execution with `n` iterations (the paper's closed form with `γ = 0`). Bodies outside this
//! shape are not summarised (the caller reports the divergence instead).

use crate::cfa::{Atom, Cfa, Lin, Op, Var};
use crate::invariant_check::{atom, lin};
use std::collections::{BTreeMap, HashMap};
use verikit_diag::{Budget, Exhausted};
use verikit_num::Num;
use verikit_smt::{SatResult, Solver, Sort, TermId, TermOp, Value};

/// One piece of a path.
pub(crate) enum Segment<'a> {
    /// Edges taken once each, in order.
    Plain(&'a [usize]),
    /// A loop body (edges from the loop head back to it) taken `n ≥ 1` times.
    Loop(&'a [usize]),
}

/// The outcome of a feasibility query.
pub(crate) enum Feasible {
    /// A real execution: the nondeterministic values in order, and the iteration count of the
    /// summarised loop (if any).
    Yes(Vec<(i128, u32)>, Option<i128>),
    No,
    /// A loop body outside the summarised shape.
    NotCounting,
}

/// Per-variable increment of a counting-loop body (`None`: not a counting loop).
fn increments(cfa: &Cfa, body: &[usize]) -> Option<BTreeMap<Var, i128>> {
    let mut inc: BTreeMap<Var, i128> = BTreeMap::new();
    for &e in body {
        match &cfa.edges.get(e)?.op {
            Op::Assume(_) => {}
            Op::Havoc { .. } => return None,
            Op::Assign(asg) => {
                for (x, t) in asg {
                    let mut rest = t.clone();
                    if rest.coeffs.remove(x) != Some(1) || !rest.coeffs.is_empty() {
                        return None;
                    }
                    let s = inc.entry(*x).or_insert(0);
                    *s = s.checked_add(rest.konst)?;
                }
            }
        }
    }
    Some(inc)
}

/// Decides whether the path can be executed.
pub(crate) fn feasible(
    cfa: &Cfa,
    path: &[Segment<'_>],
    budget: &Budget,
) -> Result<Feasible, Exhausted> {
    let mut s = Solver::new();
    s.set_budget(budget);
    let mut cur: HashMap<Var, TermId> = HashMap::new();
    let mut fresh = 0usize;
    let mut nondets: Vec<(TermId, u32)> = Vec::new();
    let mut iters: Option<TermId> = None;
    let zero = s.terms.mk_const(Num::ZERO, Sort::Int);
    let val = |s: &mut Solver, cur: &mut HashMap<Var, TermId>, x: Var| -> TermId {
        *cur.entry(x)
            .or_insert_with(|| s.declare(&format!("x{x}@0"), Sort::Int))
    };
    for seg in path {
        match seg {
            Segment::Plain(edges) => {
                for &e in edges.iter() {
                    let Some(edge) = cfa.edges.get(e) else {
                        continue;
                    };
                    match &edge.op {
                        Op::Assume(atoms) => {
                            for a in atoms {
                                for &y in a.lin.coeffs.keys() {
                                    val(&mut s, &mut cur, y);
                                }
                                let c = cur.clone();
                                let t = atom(&mut s, a, &|y| c.get(&y).copied().unwrap_or(zero));
                                s.assert(t);
                            }
                        }
                        Op::Assign(asg) => {
                            for (_, t) in asg {
                                for &y in t.coeffs.keys() {
                                    val(&mut s, &mut cur, y);
                                }
                            }
                            let c = cur.clone();
                            for (x, t) in asg {
                                let v = lin(&mut s, t, &|y| c.get(&y).copied().unwrap_or(zero));
                                cur.insert(*x, v);
                            }
                        }
                        Op::Havoc { vars, nondet } => {
                            for &x in vars {
                                fresh += 1;
                                let v = s.declare(&format!("x{x}@h{fresh}"), Sort::Int);
                                cur.insert(x, v);
                                if *nondet {
                                    nondets.push((v, edge.line));
                                }
                            }
                        }
                    }
                }
            }
            Segment::Loop(body) => {
                let Some(inc) = increments(cfa, body) else {
                    return Ok(Feasible::NotCounting);
                };
                let n = s.declare("n", Sort::Int);
                iters = Some(n);
                let one = s.terms.mk_const(Num::int(1), Sort::Int);
                let ge1 = s.terms.mk(TermOp::Le, vec![one, n], Sort::Bool);
                s.assert(ge1);
                let mone = s.terms.mk_const(Num::integer(-1), Sort::Int);
                let last = s.terms.mk(TermOp::Add, vec![n, mone], Sort::Int);
                // Values at the loop head before iteration j: v0 + inc·j.
                for &e in body.iter() {
                    if let Some(edge) = cfa.edges.get(e) {
                        for y in edge_vars(&edge.op) {
                            val(&mut s, &mut cur, y);
                        }
                    }
                }
                let v0 = cur.clone();
                let at =
                    |s: &mut Solver, j: TermId, partial: &BTreeMap<Var, i128>, x: Var| -> TermId {
                        let base = v0.get(&x).copied().unwrap_or(zero);
                        let d = inc.get(&x).copied().unwrap_or(0);
                        let p = partial.get(&x).copied().unwrap_or(0);
                        let dk = s.terms.mk_const(Num::integer(d), Sort::Int);
                        let dj = s.terms.mk(TermOp::Mul, vec![dk, j], Sort::Int);
                        let pk = s.terms.mk_const(Num::integer(p), Sort::Int);
                        s.terms.mk(TermOp::Add, vec![base, dj, pk], Sort::Int)
                    };
                for j in [zero, last] {
                    let mut partial: BTreeMap<Var, i128> = BTreeMap::new();
                    for &e in body.iter() {
                        let Some(edge) = cfa.edges.get(e) else {
                            continue;
                        };
                        match &edge.op {
                            Op::Assume(atoms) => {
                                for a in atoms {
                                    let mut m: HashMap<Var, TermId> = HashMap::new();
                                    for &y in a.lin.coeffs.keys() {
                                        let t = at(&mut s, j, &partial, y);
                                        m.insert(y, t);
                                    }
                                    let t =
                                        atom(&mut s, a, &|y| m.get(&y).copied().unwrap_or(zero));
                                    s.assert(t);
                                }
                            }
                            Op::Assign(asg) => {
                                for (x, t) in asg {
                                    *partial.entry(*x).or_insert(0) += t.konst;
                                }
                            }
                            Op::Havoc { .. } => return Ok(Feasible::NotCounting),
                        }
                    }
                }
                let empty = BTreeMap::new();
                for (&x, _) in inc.iter() {
                    let t = at(&mut s, n, &empty, x);
                    cur.insert(x, t);
                }
            }
        }
    }
    match s.check(&[]) {
        SatResult::Unsat => Ok(Feasible::No),
        SatResult::Unknown => Err(budget.check().err().unwrap_or(Exhausted::Timeout)),
        SatResult::Sat => {
            let mut memo = HashMap::new();
            let get = |s: &Solver, t: TermId, memo: &mut HashMap<TermId, Value>| match s
                .model_value(t, memo)
            {
                Some(Value::Num(n)) => {
                    let (p, _) = n.parts();
                    p.to_string().parse::<i128>().ok()
                }
                _ => None,
            };
            let mut values = Vec::new();
            for (t, line) in nondets {
                values.push((get(&s, t, &mut memo).unwrap_or(0), line));
            }
            let n = iters.and_then(|t| get(&s, t, &mut memo));
            Ok(Feasible::Yes(values, n))
        }
    }
}

fn edge_vars(op: &Op) -> Vec<Var> {
    match op {
        Op::Assume(atoms) => atoms
            .iter()
            .flat_map(|a: &Atom| a.lin.coeffs.keys().copied())
            .collect(),
        Op::Assign(asg) => asg
            .iter()
            .flat_map(|(x, t): &(Var, Lin)| std::iter::once(*x).chain(t.coeffs.keys().copied()))
            .collect(),
        Op::Havoc { vars, .. } => vars.clone(),
    }
}
