//! The plain LTL formulas a TLSF specification expands to (syfco's `Formula`): built with light
//! constant folding (`true ∧ φ = φ`, …, which never changes the meaning) and printed in Spot's
//! syntax, so that the omega kernel's parser reads them back.

use std::fmt::Write;
use std::rc::Rc;

/// A plain LTL formula over signal names.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ltl {
    True,
    False,
    Ap(String),
    Not(Rc<Ltl>),
    X(Rc<Ltl>),
    F(Rc<Ltl>),
    G(Rc<Ltl>),
    And(Vec<Rc<Ltl>>),
    Or(Vec<Rc<Ltl>>),
    Implies(Rc<Ltl>, Rc<Ltl>),
    Equiv(Rc<Ltl>, Rc<Ltl>),
    U(Rc<Ltl>, Rc<Ltl>),
    R(Rc<Ltl>, Rc<Ltl>),
    W(Rc<Ltl>, Rc<Ltl>),
}

pub(crate) type L = Rc<Ltl>;

pub(crate) fn tt() -> L {
    Rc::new(Ltl::True)
}
pub(crate) fn ff() -> L {
    Rc::new(Ltl::False)
}
pub(crate) fn constant(b: bool) -> L {
    if b {
        tt()
    } else {
        ff()
    }
}
pub(crate) fn ap(name: &str) -> L {
    Rc::new(Ltl::Ap(name.to_string()))
}
pub(crate) fn not(a: L) -> L {
    match &*a {
        Ltl::True => ff(),
        Ltl::False => tt(),
        Ltl::Not(b) => b.clone(),
        _ => Rc::new(Ltl::Not(a)),
    }
}
pub(crate) fn next(a: L) -> L {
    match &*a {
        Ltl::True | Ltl::False => a,
        _ => Rc::new(Ltl::X(a)),
    }
}
pub(crate) fn eventually(a: L) -> L {
    match &*a {
        Ltl::True | Ltl::False => a,
        _ => Rc::new(Ltl::F(a)),
    }
}
pub(crate) fn globally(a: L) -> L {
    match &*a {
        Ltl::True | Ltl::False => a,
        _ => Rc::new(Ltl::G(a)),
    }
}
pub(crate) fn and(ops: Vec<L>) -> L {
    let mut v = Vec::new();
    for o in ops {
        match &*o {
            Ltl::True => {}
            Ltl::False => return ff(),
            Ltl::And(xs) => v.extend(xs.iter().cloned()),
            _ => v.push(o),
        }
    }
    match v.len() {
        0 => tt(),
        1 => v.pop().unwrap_or_else(tt),
        _ => Rc::new(Ltl::And(v)),
    }
}
pub(crate) fn or(ops: Vec<L>) -> L {
    let mut v = Vec::new();
    for o in ops {
        match &*o {
            Ltl::False => {}
            Ltl::True => return tt(),
            Ltl::Or(xs) => v.extend(xs.iter().cloned()),
            _ => v.push(o),
        }
    }
    match v.len() {
        0 => ff(),
        1 => v.pop().unwrap_or_else(ff),
        _ => Rc::new(Ltl::Or(v)),
    }
}
pub(crate) fn implies(a: L, b: L) -> L {
    match (&*a, &*b) {
        (Ltl::True, _) => b,
        (Ltl::False, _) | (_, Ltl::True) => tt(),
        (_, Ltl::False) => not(a),
        _ => Rc::new(Ltl::Implies(a, b)),
    }
}
pub(crate) fn equiv(a: L, b: L) -> L {
    match (&*a, &*b) {
        (Ltl::True, _) => b,
        (_, Ltl::True) => a,
        (Ltl::False, _) => not(b),
        (_, Ltl::False) => not(a),
        _ => Rc::new(Ltl::Equiv(a, b)),
    }
}
pub(crate) fn until(a: L, b: L) -> L {
    match (&*a, &*b) {
        (_, Ltl::True | Ltl::False) => b,
        (Ltl::False, _) => b,
        (Ltl::True, _) => eventually(b),
        _ => Rc::new(Ltl::U(a, b)),
    }
}
pub(crate) fn release(a: L, b: L) -> L {
    match (&*a, &*b) {
        (_, Ltl::True | Ltl::False) => b,
        (Ltl::True, _) => b,
        (Ltl::False, _) => globally(b),
        _ => Rc::new(Ltl::R(a, b)),
    }
}
pub(crate) fn weak(a: L, b: L) -> L {
    match (&*a, &*b) {
        (_, Ltl::True) => b,
        (Ltl::True, _) => tt(),
        (Ltl::False, _) => b,
        (_, Ltl::False) => globally(a),
        _ => Rc::new(Ltl::W(a, b)),
    }
}

impl Ltl {
    /// Number of nodes of the formula tree.
    pub fn size(&self) -> usize {
        match self {
            Ltl::True | Ltl::False | Ltl::Ap(_) => 1,
            Ltl::Not(a) | Ltl::X(a) | Ltl::F(a) | Ltl::G(a) => 1 + a.size(),
            Ltl::And(v) | Ltl::Or(v) => 1 + v.iter().map(|x| x.size()).sum::<usize>(),
            Ltl::Implies(a, b) | Ltl::Equiv(a, b) | Ltl::U(a, b) | Ltl::R(a, b) | Ltl::W(a, b) => {
                1 + a.size() + b.size()
            }
        }
    }

    /// The formula in Spot's syntax (fully parenthesised binary operators; names quoted where
    /// Spot's scanner would misread them).
    pub fn to_spot(&self) -> String {
        let mut s = String::new();
        self.write(&mut s);
        s
    }

    fn write(&self, s: &mut String) {
        let bin = |s: &mut String, a: &Ltl, op: &str, b: &Ltl| {
            s.push('(');
            a.write(s);
            let _ = write!(s, " {op} ");
            b.write(s);
            s.push(')');
        };
        match self {
            Ltl::True => s.push_str("true"),
            Ltl::False => s.push_str("false"),
            Ltl::Ap(n) => s.push_str(&verikit_omega::ap_text(n)),
            Ltl::Not(a) => {
                s.push('!');
                match &**a {
                    Ltl::Ap(_) | Ltl::True | Ltl::False | Ltl::Not(_) => a.write(s),
                    _ => a.write_operand(s),
                }
            }
            Ltl::X(a) => {
                s.push('X');
                a.write_operand(s)
            }
            Ltl::F(a) => {
                s.push('F');
                a.write_operand(s)
            }
            Ltl::G(a) => {
                s.push('G');
                a.write_operand(s)
            }
            Ltl::And(v) | Ltl::Or(v) => {
                let op = if matches!(self, Ltl::And(_)) {
                    " & "
                } else {
                    " | "
                };
                s.push('(');
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        s.push_str(op);
                    }
                    x.write(s);
                }
                s.push(')');
            }
            Ltl::Implies(a, b) => bin(s, a, "->", b),
            Ltl::Equiv(a, b) => bin(s, a, "<->", b),
            Ltl::U(a, b) => bin(s, a, "U", b),
            Ltl::R(a, b) => bin(s, a, "R", b),
            Ltl::W(a, b) => bin(s, a, "W", b),
        }
    }

    fn write_operand(&self, s: &mut String) {
        match self {
            Ltl::Ap(_)
            | Ltl::True
            | Ltl::False
            | Ltl::Not(_)
            | Ltl::X(_)
            | Ltl::F(_)
            | Ltl::G(_) => {
                // A space keeps `X` + `Fa` from reading as one name.
                s.push(' ');
                self.write(s)
            }
            _ => self.write(s),
        }
    }
}
