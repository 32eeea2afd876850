//! Syntactic implication and the rewritings based on it, as in Spot's formula simplifier
//! (`tl_simplifier` option `synt_impl`, on by default in `ltl2tgba`).
//!
//! Papers: F. Somenzi, R. Bloem, "Efficient Büchi automata from LTL formulae", CAV'00, §3
//! (the syntactic implication relation `⪯` and the rewritings it justifies); A. Duret-Lutz,
//! "Manipulating LTL formulas using Spot 1.0", ATVA'13, §3 ("syntactic implication").
//!
//! [`implies`] is sound and incomplete (bounded depth): `implies(p, o)` only when every word
//! satisfying `p` satisfies `o`. The rewritings ([`rewrite`]) are, for formulas in negation normal
//! form, with `¬x` the NNF of the negation:
//!
//! * `x | y = y` and `x & y = x` when `x ⇒ y`; `x | y = 1` when `¬x ⇒ y`; `x & y = 0` when
//!   `y ⇒ ¬x`;
//! * `x U y = y`, `x W y = y` when `x ⇒ y`; `x U y = F y` and `x W y = 1` when `¬x ⇒ y`;
//! * `x R y = y`, `x M y = y` when `y ⇒ x`; `x R y = G y` and `x M y = 0` when `y ⇒ ¬x`.

use super::ast::{Arena, Node, F};

/// Recursion depth of [`implies`].
pub(crate) const DEPTH: u32 = 5;

/// Syntactic implication `p ⇒ o` (sound, incomplete).
pub(crate) fn implies(a: &Arena, p: F, o: F, depth: u32) -> bool {
    if p == o || a.is_true(o) || a.is_false(p) {
        return true;
    }
    if depth == 0 || a.is_true(p) || a.is_false(o) {
        return false;
    }
    let d = depth - 1;
    let via_o = match a.node(o) {
        Node::Or(v) => v.iter().any(|&x| implies(a, p, x, d)),
        Node::And(v) => v.iter().all(|&x| implies(a, p, x, d)),
        Node::Ev(q) => {
            implies(a, p, *q, d) || matches!(a.node(p), Node::Ev(r) if implies(a, *r, *q, d))
        }
        // G r ⇒ G q if G r ⇒ q (G r holds at every suffix).
        Node::Gl(q) => {
            (matches!(a.node(p), Node::Gl(_)) && implies(a, p, *q, d))
                // F G r ⇒ G F q if r ⇒ q.
                || match (a.node(p), a.node(*q)) {
                    (Node::Ev(pg), Node::Ev(qf)) => {
                        matches!(a.node(*pg), Node::Gl(r) if implies(a, *r, *qf, d))
                    }
                    _ => false,
                }
        }
        // G r ⇒ X q if G r ⇒ q (G r ⇒ X G r).
        Node::X(q) => match a.node(p) {
            Node::X(r) => implies(a, *r, *q, d),
            Node::Gl(_) => implies(a, p, *q, d),
            _ => false,
        },
        Node::U(x, y) | Node::W(x, y) => {
            let (x, y) = (*x, *y);
            implies(a, p, y, d)
                || match a.node(p) {
                    Node::U(r, s) => implies(a, *r, x, d) && implies(a, *s, y, d),
                    Node::W(r, s) if matches!(a.node(o), Node::W(..)) => {
                        implies(a, *r, x, d) && implies(a, *s, y, d)
                    }
                    Node::Gl(q) if matches!(a.node(o), Node::W(..)) => implies(a, *q, x, d),
                    _ => false,
                }
        }
        Node::R(x, y) | Node::M(x, y) => {
            let (x, y) = (*x, *y);
            (implies(a, p, x, d) && implies(a, p, y, d))
                || match a.node(p) {
                    Node::M(r, s) => implies(a, *r, x, d) && implies(a, *s, y, d),
                    Node::R(r, s) if matches!(a.node(o), Node::R(..)) => {
                        implies(a, *r, x, d) && implies(a, *s, y, d)
                    }
                    Node::Gl(q) if matches!(a.node(o), Node::R(..)) => implies(a, *q, y, d),
                    _ => false,
                }
        }
        _ => false,
    };
    via_o
        || match a.node(p) {
            Node::Gl(q) => implies(a, *q, o, d),
            Node::And(v) => v.iter().any(|&x| implies(a, x, o, d)),
            Node::Or(v) => v.iter().all(|&x| implies(a, x, o, d)),
            Node::R(_, y) => implies(a, *y, o, d),
            Node::M(x, y) => implies(a, *x, o, d) && implies(a, *y, o, d),
            Node::U(x, y) | Node::W(x, y) => implies(a, *x, o, d) && implies(a, *y, o, d),
            _ => false,
        }
}

/// The NNF of `!f`.
fn neg(a: &mut Arena, f: F) -> F {
    let n = a.not(f);
    super::nnf::nnf(a, n)
}

/// One syntactic-implication rewriting at the root of `f` (in NNF, children already
/// simplified); returns `f` when no rule applies.
pub(crate) fn rewrite(a: &mut Arena, f: F) -> F {
    rewrite_with(a, f, &mut |a: &mut Arena, p: F, o: F| {
        implies(a, p, o, DEPTH)
    })
}

/// The rewritings of [`rewrite`] with another (sound) implication oracle `imp(arena, p, o)`, e.g.
/// the language-containment checks of [`crate::containment`].
pub(crate) fn rewrite_with(
    a: &mut Arena,
    f: F,
    imp: &mut dyn FnMut(&mut Arena, F, F) -> bool,
) -> F {
    match a.node(f).clone() {
        Node::And(v) | Node::Or(v) => {
            let is_and = matches!(a.node(f), Node::And(_));
            if v.len() > 24 {
                return f;
            }
            let mut keep = vec![true; v.len()];
            for i in 0..v.len() {
                for j in 0..v.len() {
                    if i == j || !keep[j] {
                        continue;
                    }
                    // Or: drop v[i] if v[i] ⇒ v[j]; And: drop v[i] if v[j] ⇒ v[i].
                    let (p, o) = if is_and { (v[j], v[i]) } else { (v[i], v[j]) };
                    if imp(a, p, o) {
                        keep[i] = false;
                        break;
                    }
                }
            }
            let kept: Vec<F> = v
                .iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(x, _)| *x)
                .collect();
            // x | y with ¬x ⇒ y is valid; x & y with y ⇒ ¬x is unsatisfiable.
            if kept.len() <= 8 {
                for &x in &kept {
                    if a.is_boolean(x) && matches!(a.node(x), Node::Ap(_) | Node::Not(_)) {
                        continue; // literals: handled by the contradiction rule
                    }
                    let nx = neg(a, x);
                    for &y in &kept {
                        if y != x && ((!is_and && imp(a, nx, y)) || (is_and && imp(a, y, nx))) {
                            return a.constant(!is_and);
                        }
                    }
                }
            }
            if kept.len() == v.len() {
                f
            } else if is_and {
                a.and(kept)
            } else {
                a.or(kept)
            }
        }
        Node::U(x, y) | Node::W(x, y) => {
            let is_u = matches!(a.node(f), Node::U(..));
            if imp(a, x, y) {
                return y;
            }
            let nx = neg(a, x);
            if imp(a, nx, y) {
                return if is_u { a.ev(y) } else { a.tt() };
            }
            f
        }
        Node::R(x, y) | Node::M(x, y) => {
            let is_r = matches!(a.node(f), Node::R(..));
            if imp(a, y, x) {
                return y;
            }
            let nx = neg(a, x);
            if imp(a, y, nx) {
                return if is_r { a.gl(y) } else { a.ff() };
            }
            f
        }
        _ => f,
    }
}

#[cfg(test)]
mod tests {
    use crate::ltl::simplified as s;

    #[test]
    fn implication_rewritings() {
        assert_eq!(s("a | Fa"), "Fa");
        assert_eq!(s("Ga & a"), "Ga");
        assert_eq!(s("(a U b) | !(a U b)"), "1");
        assert_eq!(s("(a U b) & (!a R !b)"), "0");
        assert_eq!(s("(a & b) U b"), "b");
        assert_eq!(s("!a U a"), "Fa");
        assert_eq!(s("b R (a & b)"), "b & a");
        assert_eq!(s("G((p0 -> F!p0) & (!p0 -> Fp0))"), "G(F!p0 & Fp0)");
        assert_eq!(s("FGa | GFa"), "GFa");
        assert_eq!(s("GF(b W Xb)"), "GFb");
    }
}
