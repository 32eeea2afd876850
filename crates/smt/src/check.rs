//! Independent checking of answers (`--check`):
//!
//! * models: every assertion is evaluated under the model in exact arithmetic, directly on the
//!   elaborated terms (no CNF, no linearisation, no simplex involved);
//! * theory conflicts: each explanation produced by the simplex (Dutertre & de Moura, CAV 2006,
//!   Section 4.2: a row with the bounds of its variables) or by unate propagation comes with
//!   Farkas coefficients; the checker rebuilds each literal's linear constraint over the problem
//!   variables itself (including the integer tightening of a negated `t ≤ b` to `t ≥ ⌊b⌋ + 1`,
//!   only when every variable is an integer and every coefficient is integral) and the one
//!   Farkas verifier of `verikit-num` checks that the positive combination cancels all variables
//!   and yields `0 < 0` or `0 ≤ −c`.

use crate::terms::{Op, Sort, TermId, Terms};
use std::collections::HashMap;
use verikit_num::{Constraint, Num};

/// A literal's atom as the checker sees it.
#[derive(Clone, Debug)]
pub struct AtomDef {
    /// `t = Σ a_i x_i` over problem variables.
    pub lin: Vec<(u32, Num)>,
    /// `t < bound` (true) or `t ≤ bound` (false).
    pub strict: bool,
    pub bound: Num,
    /// Every variable of `t` is an integer.
    pub int_vars: bool,
    /// Polarity of the literal.
    pub positive: bool,
}

#[derive(Default, Debug, Clone)]
pub struct CertChecker {
    pub checked: u64,
    pub failures: Vec<String>,
}

impl CertChecker {
    pub fn new() -> CertChecker {
        CertChecker::default()
    }

    /// Verifies that the literals (with coefficients `lambda`) are jointly infeasible.
    pub fn check_farkas(&mut self, atoms: &[Option<AtomDef>], lambda: &[Num]) {
        self.checked += 1;
        if let Err(e) = farkas(atoms, lambda) {
            if self.failures.len() < 20 {
                self.failures.push(e);
            }
        }
    }
}

/// `Σ c x ≤ r` (or `<` when strict), as the checker derives it from a literal.
fn constraint(a: &AtomDef) -> Constraint {
    let neg_t = |l: &[(u32, Num)]| l.iter().map(|(x, c)| (*x, c.neg())).collect::<Vec<_>>();
    let (lin, rhs, strict) = if a.positive {
        (a.lin.clone(), a.bound.clone(), a.strict)
    } else if a.strict {
        // ¬(t < b): t ≥ b  →  -t ≤ -b
        (neg_t(&a.lin), a.bound.neg(), false)
    } else {
        // ¬(t ≤ b): t > b; over the integers t ≥ ⌊b⌋ + 1
        let integral = a.int_vars && a.lin.iter().all(|(_, c)| c.is_integer());
        if integral {
            (neg_t(&a.lin), a.bound.floor().add(&Num::ONE).neg(), false)
        } else {
            (neg_t(&a.lin), a.bound.neg(), true)
        }
    };
    Constraint { lin, rhs, strict }
}

/// Checks a Farkas certificate; Err describes why it is not one. Every literal must be an
/// arithmetic atom with a positive coefficient; the combination itself is checked by the one
/// Farkas verifier of `verikit-num`.
pub(crate) fn farkas(atoms: &[Option<AtomDef>], lambda: &[Num]) -> Result<(), String> {
    if atoms.len() != lambda.len() {
        return Err("certificate length mismatch".into());
    }
    let mut cs = Vec::with_capacity(atoms.len());
    for (a, l) in atoms.iter().zip(lambda) {
        let a = a
            .as_ref()
            .ok_or("certificate mentions a literal that is not an arithmetic atom")?;
        if !l.is_pos() {
            return Err(format!("non-positive Farkas coefficient {l}"));
        }
        cs.push(constraint(a));
    }
    verikit_num::farkas::verify(&cs, lambda).map_err(|e| e.to_string())
}

/// A value of a term under a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Bool(bool),
    Num(Num),
}

impl Value {
    pub fn to_smtlib(&self, sort: Sort) -> String {
        match self {
            Value::Bool(b) => b.to_string(),
            Value::Num(n) => n.to_smtlib(sort == Sort::Real),
        }
    }
}

/// Evaluates `root` under `model` (values of declared constants). Iterative, memoised.
pub(crate) fn eval(
    terms: &Terms,
    root: TermId,
    model: &dyn Fn(u32) -> Value,
    memo: &mut HashMap<TermId, Value>,
) -> Value {
    let mut stack = vec![(root, false)];
    while let Some((t, done)) = stack.pop() {
        if memo.contains_key(&t) {
            continue;
        }
        let n = terms.node(t);
        if !done {
            stack.push((t, true));
            for &a in n.args.iter() {
                if !memo.contains_key(&a) {
                    stack.push((a, false));
                }
            }
            continue;
        }
        let b = |i: usize| match memo.get(&n.args[i]) {
            Some(Value::Bool(x)) => *x,
            _ => false,
        };
        let x = |i: usize| match memo.get(&n.args[i]) {
            Some(Value::Num(v)) => v.clone(),
            _ => Num::ZERO,
        };
        let v = match &n.op {
            Op::True => Value::Bool(true),
            Op::False => Value::Bool(false),
            Op::Const(c) => Value::Num(c.clone()),
            Op::Var(i) => model(*i),
            Op::Not => Value::Bool(!b(0)),
            Op::And => Value::Bool((0..n.args.len()).all(b)),
            Op::Or => Value::Bool((0..n.args.len()).any(b)),
            Op::Xor => Value::Bool(b(0) != b(1)),
            Op::Implies => Value::Bool(!b(0) || b(1)),
            Op::Iff => Value::Bool(b(0) == b(1)),
            Op::Ite => {
                let i = if b(0) { 1 } else { 2 };
                memo.get(&n.args[i]).cloned().unwrap_or(Value::Bool(false))
            }
            Op::Add => Value::Num((0..n.args.len()).fold(Num::ZERO, |s, i| s.add(&x(i)))),
            Op::Neg => Value::Num(x(0).neg()),
            Op::Mul => Value::Num((0..n.args.len()).fold(Num::ONE, |s, i| s.mul(&x(i)))),
            Op::Div => {
                let d = x(1);
                Value::Num(if d.is_zero() { Num::ZERO } else { x(0).div(&d) })
            }
            Op::IntDiv | Op::Mod => {
                let (a, k) = (x(0), x(1));
                if k.is_zero() {
                    Value::Num(Num::ZERO)
                } else {
                    let q = if k.is_pos() {
                        a.div(&k).floor()
                    } else {
                        a.div(&k).ceil()
                    };
                    if *n.op == Op::IntDiv {
                        Value::Num(q)
                    } else {
                        Value::Num(a.sub(&k.mul(&q)))
                    }
                }
            }
            Op::Abs => Value::Num(x(0).abs()),
            Op::Le => Value::Bool(x(0) <= x(1)),
            Op::Lt => Value::Bool(x(0) < x(1)),
            Op::Eq => Value::Bool(x(0) == x(1)),
            Op::ToReal => Value::Num(x(0)),
            Op::ToInt => Value::Num(x(0).floor()),
            Op::IsInt => Value::Bool(x(0).is_integer()),
        };
        memo.insert(t, v);
    }
    memo.get(&root).cloned().unwrap_or(Value::Bool(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(
        lin: Vec<(u32, i64)>,
        strict: bool,
        bound: i64,
        int_vars: bool,
        positive: bool,
    ) -> Option<AtomDef> {
        Some(AtomDef {
            lin: lin.into_iter().map(|(x, c)| (x, Num::int(c))).collect(),
            strict,
            bound: Num::int(bound),
            int_vars,
            positive,
        })
    }

    #[test]
    fn farkas_accepts_and_rejects() {
        // x ≤ 1, y ≤ 2, ¬(x + y < 4)  i.e. x + y ≥ 4
        let good = [
            at(vec![(0, 1)], false, 1, false, true),
            at(vec![(1, 1)], false, 2, false, true),
            at(vec![(0, 1), (1, 1)], true, 4, false, false),
        ];
        let one = vec![Num::ONE, Num::ONE, Num::ONE];
        assert!(farkas(&good, &one).is_ok());
        // x ≤ 1, y ≤ 3, x + y ≥ 4 is feasible
        let bad = [
            at(vec![(0, 1)], false, 1, false, true),
            at(vec![(1, 1)], false, 3, false, true),
            at(vec![(0, 1), (1, 1)], true, 4, false, false),
        ];
        assert!(farkas(&bad, &one).is_err());
        // integers: x ≤ 0 and ¬(x ≤ 0) → x ≥ 1
        let ints = [
            at(vec![(0, 1)], false, 0, true, true),
            at(vec![(0, 1)], false, 0, true, false),
        ];
        assert!(farkas(&ints, &[Num::ONE, Num::ONE]).is_ok());
    }
}
