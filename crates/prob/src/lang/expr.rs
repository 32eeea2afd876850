//! Resolved expressions: variables are indices into a state's value vector, constants are folded.
//! Evaluation follows PRISM's semantics (`/` is real division, `mod`/`pow` on integers stay integers).

use super::ast::{BinOp, Func, Type, UnOp};
use std::sync::Arc;
use verikit_diag::{Diagnostic, Span};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    I(i64),
    D(f64),
    B(bool),
}

impl Value {
    pub fn as_f64(self) -> f64 {
        match self {
            Value::I(i) => i as f64,
            Value::D(d) => d,
            Value::B(b) => b as i64 as f64,
        }
    }
    pub fn as_bool(self) -> bool {
        match self {
            Value::B(b) => b,
            Value::I(i) => i != 0,
            Value::D(d) => d != 0.0,
        }
    }
    pub fn as_int(self) -> i64 {
        match self {
            Value::I(i) => i,
            Value::D(d) => d as i64,
            Value::B(b) => b as i64,
        }
    }
    pub fn ty(self) -> Type {
        match self {
            Value::I(_) => Type::Int,
            Value::D(_) => Type::Double,
            Value::B(_) => Type::Bool,
        }
    }
    /// Converts to a declared type (int → double allowed).
    pub fn coerce(self, ty: Type) -> Option<Value> {
        match (self, ty) {
            (Value::I(i), Type::Double) => Some(Value::D(i as f64)),
            (v, t) if v.ty() == t => Some(v),
            _ => None,
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::I(i) => write!(f, "{i}"),
            Value::D(d) => write!(f, "{d}"),
            Value::B(b) => write!(f, "{b}"),
        }
    }
}

#[derive(Clone, Debug)]
pub enum CExpr {
    Const(Value),
    Var(u32),
    /// A value per state (results of nested P/R/S operators in properties).
    StateVec(Arc<Vec<f64>>, Type),
    Unary(UnOp, Box<CExpr>),
    Binary(BinOp, Box<CExpr>, Box<CExpr>, Span),
    Ite(Box<CExpr>, Box<CExpr>, Box<CExpr>),
    Call(Func, Vec<CExpr>, Span),
}

pub(crate) type EvalResult = Result<Value, Diagnostic>;

impl CExpr {
    pub fn constant(&self) -> Option<Value> {
        match self {
            CExpr::Const(v) => Some(*v),
            _ => None,
        }
    }

    /// Evaluates on a state's variable values (`state` indexes [`CExpr::StateVec`] nodes).
    pub fn eval(&self, vals: &[i64], state: usize) -> EvalResult {
        Ok(match self {
            CExpr::Const(v) => *v,
            CExpr::Var(i) => Value::I(vals.get(*i as usize).copied().unwrap_or(0)),
            CExpr::StateVec(v, t) => {
                let x = v.get(state).copied().unwrap_or(0.0);
                match t {
                    Type::Bool => Value::B(x != 0.0),
                    Type::Int => Value::I(x as i64),
                    Type::Double => Value::D(x),
                }
            }
            CExpr::Unary(op, a) => {
                let a = a.eval(vals, state)?;
                match (op, a) {
                    (UnOp::Not, v) => Value::B(!v.as_bool()),
                    (UnOp::Neg, Value::I(i)) => Value::I(i.wrapping_neg()),
                    (UnOp::Neg, v) => Value::D(-v.as_f64()),
                }
            }
            CExpr::Binary(op, a, b, sp) => {
                // Short-circuit Boolean operators.
                match op {
                    BinOp::And => {
                        return Ok(Value::B(
                            a.eval(vals, state)?.as_bool() && b.eval(vals, state)?.as_bool(),
                        ))
                    }
                    BinOp::Or => {
                        return Ok(Value::B(
                            a.eval(vals, state)?.as_bool() || b.eval(vals, state)?.as_bool(),
                        ))
                    }
                    BinOp::Implies => {
                        return Ok(Value::B(
                            !a.eval(vals, state)?.as_bool() || b.eval(vals, state)?.as_bool(),
                        ))
                    }
                    _ => {}
                }
                let x = a.eval(vals, state)?;
                let y = b.eval(vals, state)?;
                binop(*op, x, y, *sp)?
            }
            CExpr::Ite(c, a, b) => {
                if c.eval(vals, state)?.as_bool() {
                    a.eval(vals, state)?
                } else {
                    b.eval(vals, state)?
                }
            }
            CExpr::Call(f, args, sp) => {
                let mut vs = Vec::with_capacity(args.len());
                for a in args {
                    vs.push(a.eval(vals, state)?);
                }
                call(*f, &vs, *sp)?
            }
        })
    }

    pub fn eval_bool(&self, vals: &[i64], state: usize) -> Result<bool, Diagnostic> {
        Ok(self.eval(vals, state)?.as_bool())
    }
    pub fn eval_f64(&self, vals: &[i64], state: usize) -> Result<f64, Diagnostic> {
        Ok(self.eval(vals, state)?.as_f64())
    }

    /// Folds constant sub-expressions (errors such as division by zero are kept for run time).
    pub fn fold(self) -> CExpr {
        let is_const = |e: &CExpr| matches!(e, CExpr::Const(_));
        match self {
            CExpr::Unary(op, a) => {
                let a = a.fold();
                let e = CExpr::Unary(op, Box::new(a));
                if let CExpr::Unary(_, a) = &e {
                    if is_const(a) {
                        if let Ok(v) = e.eval(&[], 0) {
                            return CExpr::Const(v);
                        }
                    }
                }
                e
            }
            CExpr::Binary(op, a, b, sp) => {
                let (a, b) = (a.fold(), b.fold());
                let both = is_const(&a) && is_const(&b);
                let e = CExpr::Binary(op, Box::new(a), Box::new(b), sp);
                if both {
                    if let Ok(v) = e.eval(&[], 0) {
                        return CExpr::Const(v);
                    }
                }
                e
            }
            CExpr::Ite(c, a, b) => {
                let c = c.fold();
                if let CExpr::Const(v) = c {
                    return if v.as_bool() { a.fold() } else { b.fold() };
                }
                CExpr::Ite(Box::new(c), Box::new(a.fold()), Box::new(b.fold()))
            }
            CExpr::Call(f, args, sp) => {
                let args: Vec<CExpr> = args.into_iter().map(|a| a.fold()).collect();
                let all = args.iter().all(is_const);
                let e = CExpr::Call(f, args, sp);
                if all {
                    if let Ok(v) = e.eval(&[], 0) {
                        return CExpr::Const(v);
                    }
                }
                e
            }
            e => e,
        }
    }

    /// The variables this expression reads.
    pub fn vars(&self, out: &mut Vec<u32>) {
        match self {
            CExpr::Var(i) => out.push(*i),
            CExpr::Unary(_, a) => a.vars(out),
            CExpr::Binary(_, a, b, _) => {
                a.vars(out);
                b.vars(out)
            }
            CExpr::Ite(a, b, c) => {
                a.vars(out);
                b.vars(out);
                c.vars(out)
            }
            CExpr::Call(_, args, _) => args.iter().for_each(|a| a.vars(out)),
            _ => {}
        }
    }
}

fn binop(op: BinOp, x: Value, y: Value, sp: Span) -> EvalResult {
    use Value::*;
    Ok(match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul => match (x, y) {
            (I(a), I(b)) => {
                let r = match op {
                    BinOp::Add => a.checked_add(b),
                    BinOp::Sub => a.checked_sub(b),
                    _ => a.checked_mul(b),
                };
                match r {
                    Some(r) => I(r),
                    None => return Err(Diagnostic::at(sp, "integer overflow")),
                }
            }
            _ => {
                let (a, b) = (x.as_f64(), y.as_f64());
                D(match op {
                    BinOp::Add => a + b,
                    BinOp::Sub => a - b,
                    _ => a * b,
                })
            }
        },
        BinOp::Div => D(x.as_f64() / y.as_f64()),
        BinOp::Eq | BinOp::Ne => {
            let eq = match (x, y) {
                (I(a), I(b)) => a == b,
                (B(a), B(b)) => a == b,
                _ => x.as_f64() == y.as_f64(),
            };
            B(if op == BinOp::Eq { eq } else { !eq })
        }
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            let c = match (x, y) {
                (I(a), I(b)) => a.cmp(&b),
                _ => match x.as_f64().partial_cmp(&y.as_f64()) {
                    Some(o) => o,
                    None => return Ok(B(false)),
                },
            };
            use std::cmp::Ordering::*;
            B(match op {
                BinOp::Lt => c == Less,
                BinOp::Le => c != Greater,
                BinOp::Gt => c == Greater,
                _ => c != Less,
            })
        }
        BinOp::Iff => B(x.as_bool() == y.as_bool()),
        BinOp::And => B(x.as_bool() && y.as_bool()),
        BinOp::Or => B(x.as_bool() || y.as_bool()),
        BinOp::Implies => B(!x.as_bool() || y.as_bool()),
    })
}

fn call(f: Func, v: &[Value], sp: Span) -> EvalResult {
    use Value::*;
    let all_int = v.iter().all(|x| matches!(x, I(_)));
    Ok(match f {
        Func::Min | Func::Max => {
            if all_int {
                let it = v.iter().map(|x| x.as_int());
                I(if f == Func::Min {
                    it.min().unwrap_or(0)
                } else {
                    it.max().unwrap_or(0)
                })
            } else {
                let it = v.iter().map(|x| x.as_f64());
                D(if f == Func::Min {
                    it.fold(f64::INFINITY, f64::min)
                } else {
                    it.fold(f64::NEG_INFINITY, f64::max)
                })
            }
        }
        Func::Floor | Func::Ceil | Func::Round => {
            let a = v.first().map_or(0.0, |x| x.as_f64());
            let r = match f {
                Func::Floor => a.floor(),
                Func::Ceil => a.ceil(),
                _ => (a + 0.5).floor(),
            };
            if !r.is_finite() || r.abs() > 9.2e18 {
                return Err(Diagnostic::at(sp, "value out of integer range"));
            }
            I(r as i64)
        }
        Func::Pow => {
            let (a, b) = (
                v.first().copied().unwrap_or(I(0)),
                v.get(1).copied().unwrap_or(I(0)),
            );
            match (a, b) {
                // Integer base and exponent give an integer (PRISM's typing); a negative
                // exponent has no integer value and PRISM refuses it.
                (I(_), I(y)) if y < 0 => {
                    return Err(Diagnostic::at(
                        sp,
                        format!(
                            "negative exponent {y} in an integer power (write a double, e.g. 2.0)"
                        ),
                    ))
                }
                (I(x), I(y)) => match u32::try_from(y).ok().and_then(|y| x.checked_pow(y)) {
                    Some(r) => I(r),
                    None => return Err(Diagnostic::at(sp, "integer overflow in pow")),
                },
                _ => D(a.as_f64().powf(b.as_f64())),
            }
        }
        Func::Mod => {
            let (a, b) = (
                v.first().map_or(0, |x| x.as_int()),
                v.get(1).map_or(0, |x| x.as_int()),
            );
            if b == 0 {
                return Err(Diagnostic::at(sp, "modulo by zero"));
            }
            I(a.rem_euclid(b))
        }
        Func::Log => {
            let (a, b) = (
                v.first().map_or(0.0, |x| x.as_f64()),
                v.get(1).map_or(0.0, |x| x.as_f64()),
            );
            D(a.ln() / b.ln())
        }
    })
}
