//! Negation normal form of LTL formulas: `!` only on atomic propositions; `->`, `<->`, `xor`
//! expanded; `!(a U b) = !a R !b`, `!X a = X !a`, … (the first of the basic rewritings of Duret-Lutz,
//! "Manipulating LTL formulas using Spot 1.0", ATVA'13, §3). Below both the simplifier and the
//! implication rewritings that it calls.

use super::ast::{Arena, Node, F};
use std::collections::HashMap;

/// Negation normal form.
pub fn nnf(a: &mut Arena, f: F) -> F {
    let mut memo = HashMap::new();
    nnf_rec(a, f, false, &mut memo)
}

fn nnf_rec(a: &mut Arena, f: F, neg: bool, memo: &mut HashMap<(F, bool), F>) -> F {
    if let Some(&r) = memo.get(&(f, neg)) {
        return r;
    }
    let n = a.node(f).clone();
    let r = match n {
        Node::True | Node::False => a.constant(a.is_true(f) != neg),
        Node::Ap(_) => {
            if neg {
                a.not(f)
            } else {
                f
            }
        }
        Node::Not(x) => nnf_rec(a, x, !neg, memo),
        Node::X(x) => {
            let y = nnf_rec(a, x, neg, memo);
            a.x(y)
        }
        Node::Ev(x) => {
            let y = nnf_rec(a, x, neg, memo);
            if neg {
                a.gl(y)
            } else {
                a.ev(y)
            }
        }
        Node::Gl(x) => {
            let y = nnf_rec(a, x, neg, memo);
            if neg {
                a.ev(y)
            } else {
                a.gl(y)
            }
        }
        Node::And(v) | Node::Or(v) => {
            let is_and = matches!(a.node(f), Node::And(_)) != neg;
            let ops: Vec<F> = v.iter().map(|&x| nnf_rec(a, x, neg, memo)).collect();
            if is_and {
                a.and(ops)
            } else {
                a.or(ops)
            }
        }
        Node::Implies(x, y) => {
            // a -> b  ==  !a | b ;  !(a -> b) == a & !b
            let nx = nnf_rec(a, x, !neg, memo);
            let ny = nnf_rec(a, y, neg, memo);
            if neg {
                a.and2(nx, ny)
            } else {
                a.or2(nx, ny)
            }
        }
        Node::Equiv(x, y) | Node::Xor(x, y) => {
            let same = matches!(a.node(f), Node::Equiv(..)) != neg;
            let px = nnf_rec(a, x, false, memo);
            let nx = nnf_rec(a, x, true, memo);
            let py = nnf_rec(a, y, false, memo);
            let ny = nnf_rec(a, y, true, memo);
            if same {
                let l = a.and2(px, py);
                let r = a.and2(nx, ny);
                a.or2(l, r)
            } else {
                let l = a.and2(px, ny);
                let r = a.and2(nx, py);
                a.or2(l, r)
            }
        }
        Node::U(x, y) | Node::R(x, y) | Node::W(x, y) | Node::M(x, y) => {
            let px = nnf_rec(a, x, neg, memo);
            let py = nnf_rec(a, y, neg, memo);
            match (a.node(f).clone(), neg) {
                (Node::U(..), false) | (Node::R(..), true) => a.u(px, py),
                (Node::R(..), false) | (Node::U(..), true) => a.r(px, py),
                (Node::W(..), false) | (Node::M(..), true) => a.w(px, py),
                _ => a.m(px, py),
            }
        }
        // !{r}<>-> f == {r}[]-> !f ; !{r}[]-> f == {r}<>-> !f ; !{r} and {r} swap.
        Node::EConcat(r, x, m) => {
            let y = nnf_rec(a, x, neg, memo);
            if neg {
                a.uconcat(r, y)
            } else {
                a.econcat(r, y, m)
            }
        }
        Node::UConcat(r, x) => {
            let y = nnf_rec(a, x, neg, memo);
            if neg {
                a.econcat(r, y, false)
            } else {
                a.uconcat(r, y)
            }
        }
        Node::Closure(r) => {
            if neg {
                a.neg_closure(r, false)
            } else {
                f
            }
        }
        Node::NegClosure(r, _) => {
            if neg {
                a.closure(r)
            } else {
                f
            }
        }
    };
    memo.insert((f, neg), r);
    r
}
