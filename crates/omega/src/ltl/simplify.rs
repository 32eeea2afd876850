//! Formula rewriting: negation normal form and the basic, always-sound rewritings of Spot's
//! simplifier (Duret-Lutz, "Manipulating LTL formulas using Spot 1.0", ATVA'13, §3 "basic
//! rewritings"; the eventual/universal classes of Etessami–Holzmann, CONCUR'00, and
//! Somenzi–Bloem, CAV'00):
//!
//! * NNF: `!` only on atomic propositions; `->`, `<->`, `xor` expanded; `!(a U b) = !a R !b`, …
//! * constants and contradictions: `a & !a = 0`, `a | !a = 1`;
//! * `X` merging and pushing: `Xa & Xb = X(a & b)`, `F X a = X F a`, `G X a = X G a`;
//! * grouping of eventualities and invariants: `Fa | Fb = F(a | b)`, `Ga & Gb = G(a & b)`;
//! * `F(a U b) = Fb`, `F(a M b) = F(a & b)`, `G(a R b) = Gb`, `G(a W b) = G(a | b)`;
//! * eventual formulas `e` (`Fe = e`) and universal ones `u` (`Gu = u`): `Fe = e`, `Gu = u`,
//!   `a U e = e`, `a R u = u`, `X s = s` for `s` both (e.g. `FGFa = GFa`, `GFGa = FGa`,
//!   `XGFa = GFa`), `F(f & s) = Ff & s`, `G(f | s) = Gf | s`.

use super::ast::{Arena, Node, F};
use super::nnf::nnf;
use std::collections::HashMap;

/// True if `F f == f` (purely eventual), syntactically.
pub(crate) fn is_eventual(a: &Arena, f: F) -> bool {
    match a.node(f) {
        Node::True | Node::False | Node::Ev(_) => true,
        Node::Gl(x) | Node::X(x) => is_eventual(a, *x),
        Node::U(_, y) => is_eventual(a, *y),
        Node::M(x, y) => is_eventual(a, *x) && is_eventual(a, *y),
        Node::And(v) | Node::Or(v) => v.iter().all(|&x| is_eventual(a, x)),
        _ => false,
    }
}

/// True if `G f == f` (purely universal), syntactically.
pub(crate) fn is_universal(a: &Arena, f: F) -> bool {
    match a.node(f) {
        Node::True | Node::False | Node::Gl(_) => true,
        Node::Ev(x) | Node::X(x) => is_universal(a, *x),
        Node::R(_, y) => is_universal(a, *y),
        Node::W(x, y) => is_universal(a, *x) && is_universal(a, *y),
        Node::And(v) | Node::Or(v) => v.iter().all(|&x| is_universal(a, x)),
        _ => false,
    }
}

fn suffix_invariant(a: &Arena, f: F) -> bool {
    is_eventual(a, f) && is_universal(a, f)
}

/// NNF followed by the basic rewritings, to a fixpoint. The result is equivalent to `f`.
pub fn simplify(a: &mut Arena, f: F) -> F {
    let g = nnf(a, f);
    // The rewritings are written for LTL; PSL formulas are only put in negation normal form.
    if a.has_sere(g) {
        return g;
    }
    let mut memo = HashMap::new();
    let mut cur = g;
    for _ in 0..8 {
        let next = simp(a, cur, &mut memo);
        if next == cur {
            break;
        }
        cur = next;
    }
    cur
}

/// Bound on the rewriting work per formula (memo entries); a safety net against rule cycles.
const MAX_REWRITES: usize = 200_000;

fn simp(a: &mut Arena, f: F, memo: &mut HashMap<F, F>) -> F {
    if let Some(&r) = memo.get(&f) {
        return r;
    }
    // A rewriting cycle would revisit `f` before it is memoised: stop at `f` then.
    memo.insert(f, f);
    let r = match a.node(f) {
        Node::True | Node::False | Node::Ap(_) | Node::Not(_) => f,
        _ => {
            let kids: Vec<F> = a.children(f).iter().map(|&c| simp(a, c, memo)).collect();
            let rebuilt = a.with_children(f, kids);
            let mut top = rules(a, rebuilt);
            if top == rebuilt {
                top = super::synt_impl::rewrite(a, rebuilt);
            }
            if top != rebuilt && memo.len() < MAX_REWRITES {
                simp(a, top, memo)
            } else {
                top
            }
        }
    };
    memo.insert(f, r);
    r
}

/// Under `GF` (`conj == false`, rewriting the disjuncts of `f`) or `FG` (`conj == true`, the
/// conjuncts): `GF(X a) = GF a`, `GF(a U b) = GF b`, `GF(a M b) = GF(a & b)`, `FG(X a) = FG a`,
/// `FG(a R b) = FG b`, `FG(a W b) = FG(a | b)`.
fn strip_x(a: &mut Arena, f: F, conj: bool) -> F {
    match a.node(f).clone() {
        Node::X(g) => strip_x(a, g, conj),
        Node::U(_, g) if !conj => strip_x(a, g, conj),
        Node::R(_, g) if conj => strip_x(a, g, conj),
        Node::M(x, y) if !conj => a.and2(x, y),
        Node::W(x, y) if conj => a.or2(x, y),
        Node::Or(v) if !conj => {
            let w: Vec<F> = v.iter().map(|&x| strip_x(a, x, conj)).collect();
            a.or(w)
        }
        Node::And(v) if conj => {
            let w: Vec<F> = v.iter().map(|&x| strip_x(a, x, conj)).collect();
            a.and(w)
        }
        _ => f,
    }
}

/// `G(… & F(X a | b) & …) = G(… & F(a | b) & …)` and `F(… | G(X a & b) | …) = F(… | G(a & b) | …)`.
fn strip_x_under(a: &mut Arena, outer_g: bool, x: F) -> F {
    let ops: Vec<F> = match a.node(x) {
        Node::And(v) if outer_g => v.clone(),
        Node::Or(v) if !outer_g => v.clone(),
        _ => vec![x],
    };
    let mut out = Vec::with_capacity(ops.len());
    for o in ops {
        let n = match a.node(o).clone() {
            // G(X e & r) = G(e & r) for e eventual (X G e = G e); dually under F.
            Node::X(p) if outer_g && is_eventual(a, p) => p,
            Node::X(p) if !outer_g && is_universal(a, p) => p,
            Node::Ev(p) if outer_g => {
                let q = strip_x(a, p, false);
                // G(F(x W y) & r) = G((GF y | FG x) & r): x W y = (x U y) | G x.
                if let Node::W(x, y) = a.node(q).clone() {
                    let y = strip_x(a, y, false);
                    let fy = a.ev(y);
                    let gfy = a.gl(fy);
                    let gx = a.gl(x);
                    let fgx = a.ev(gx);
                    out.push(a.or2(gfy, fgx));
                    continue;
                }
                // G(F(x & e) & r) = G(F x & e & r) for e eventual.
                if let Node::And(v) = a.node(q).clone() {
                    let (e, rest): (Vec<F>, Vec<F>) = v.iter().partition(|&&y| is_eventual(a, y));
                    if !e.is_empty() {
                        let inner = a.and(rest);
                        out.push(a.ev(inner));
                        out.extend(e);
                        continue;
                    }
                }
                a.ev(q)
            }
            Node::Gl(p) if !outer_g => {
                let q = strip_x(a, p, true);
                // F(G(x | u) | r) = F(G x | u | r) for u universal.
                if let Node::Or(v) = a.node(q).clone() {
                    let (u, rest): (Vec<F>, Vec<F>) = v.iter().partition(|&&y| is_universal(a, y));
                    if !u.is_empty() {
                        let inner = a.or(rest);
                        out.push(a.gl(inner));
                        out.extend(u);
                        continue;
                    }
                }
                a.gl(q)
            }
            _ => o,
        };
        out.push(n);
    }
    if outer_g {
        a.and(out)
    } else {
        a.or(out)
    }
}

/// For an eventual `e` (`universal == false`), a `b` with `e = F b`; for a universal `u`, a `b`
/// with `u = G b`: `X F b = F X b`, `F a | F b = F(a | b)`, `x U e = e` (and the duals).
fn body(a: &mut Arena, f: F, universal: bool) -> Option<F> {
    match a.node(f).clone() {
        Node::Ev(y) if !universal => Some(y),
        Node::Gl(y) if universal => Some(y),
        Node::X(y) => {
            let b = body(a, y, universal)?;
            Some(a.x(b))
        }
        Node::Or(v) if !universal => {
            let mut bs = Vec::with_capacity(v.len());
            for y in v {
                bs.push(body(a, y, universal)?);
            }
            Some(a.or(bs))
        }
        Node::And(v) if universal => {
            let mut bs = Vec::with_capacity(v.len());
            for y in v {
                bs.push(body(a, y, universal)?);
            }
            Some(a.and(bs))
        }
        Node::U(_, y) if !universal => body(a, y, universal),
        Node::R(_, y) if universal => body(a, y, universal),
        _ => None,
    }
}

/// In the operands `v` of a disjunction, a pair `F(a & e)`, `G b` with `b = nnf(!a)` and `e` the
/// (non-empty) conjunction of the eventual conjuncts: the disjunction with the pair replaced by
/// `b W (a & e)` (or `true` when there is no eventual conjunct).
fn first_occurrence_w(a: &mut Arena, v: &[F]) -> Option<F> {
    for &o in v {
        let Node::Ev(z) = a.node(o).clone() else {
            continue;
        };
        let conj: Vec<F> = match a.node(z) {
            Node::And(w) => w.clone(),
            _ => vec![z],
        };
        let (e, rest): (Vec<F>, Vec<F>) = conj.iter().partition(|&&y| is_eventual(a, y));
        if rest.is_empty() {
            continue;
        }
        let pos = a.and(rest);
        let np = a.not(pos);
        let neg = nnf(a, np);
        let gneg = a.gl(neg);
        if !v.contains(&gneg) {
            continue;
        }
        let mut out: Vec<F> = v.iter().copied().filter(|&y| y != o && y != gneg).collect();
        if e.is_empty() {
            return Some(a.tt());
        }
        out.push(a.w(neg, z));
        return Some(a.or(out));
    }
    None
}

/// One rewriting step at the root (children already simplified).
fn rules(a: &mut Arena, f: F) -> F {
    let n = a.node(f).clone();
    match n {
        Node::X(x) => {
            if suffix_invariant(a, x) {
                return x;
            }
            f
        }
        Node::Ev(x) => {
            if is_eventual(a, x) {
                return x;
            }
            // F u = F G b for a universal u = G b.
            if is_universal(a, x) && !matches!(a.node(x), Node::Gl(_)) {
                if let Some(b) = body(a, x, true) {
                    let b = strip_x(a, b, true);
                    if !matches!(a.node(b), Node::X(_)) {
                        let gb = a.gl(b);
                        return a.ev(gb);
                    }
                }
            }
            let y = strip_x_under(a, false, x);
            if y != x {
                return a.ev(y);
            }
            match a.node(x).clone() {
                Node::X(y) => {
                    let fy = a.ev(y);
                    a.x(fy)
                }
                Node::U(_, y) => a.ev(y),
                Node::M(y, z) => {
                    let c = a.and2(y, z);
                    a.ev(c)
                }
                Node::And(v) => {
                    let (s, o): (Vec<F>, Vec<F>) = v.iter().partition(|&&y| suffix_invariant(a, y));
                    if s.is_empty() {
                        return f;
                    }
                    let inner = a.and(o);
                    let fo = a.ev(inner);
                    let mut all = s;
                    all.push(fo);
                    a.and(all)
                }
                Node::Or(v) => {
                    // F(a | b | e) where e is eventual: pull e out (but keep suffix-invariant
                    // operands inside, see the grouping rule of `|`).
                    let (s, o): (Vec<F>, Vec<F>) = v
                        .iter()
                        .partition(|&&y| is_eventual(a, y) && !suffix_invariant(a, y));
                    if s.is_empty() {
                        return f;
                    }
                    let inner = a.or(o);
                    let fo = a.ev(inner);
                    let mut all = s;
                    all.push(fo);
                    a.or(all)
                }
                _ => f,
            }
        }
        Node::Gl(x) => {
            if is_universal(a, x) {
                return x;
            }
            // G e = G F b for an eventual e = F b (then X is stripped under GF).
            if is_eventual(a, x) && !matches!(a.node(x), Node::Ev(_)) {
                if let Some(b) = body(a, x, false) {
                    let b = strip_x(a, b, false);
                    if !matches!(a.node(b), Node::X(_)) {
                        let fb = a.ev(b);
                        return a.gl(fb);
                    }
                }
            }
            let y = strip_x_under(a, true, x);
            if y != x {
                return a.gl(y);
            }
            match a.node(x).clone() {
                Node::X(y) => {
                    let gy = a.gl(y);
                    a.x(gy)
                }
                Node::R(_, y) => a.gl(y),
                Node::W(y, z) => {
                    let c = a.or2(y, z);
                    a.gl(c)
                }
                Node::Or(v) => {
                    let (s, o): (Vec<F>, Vec<F>) = v.iter().partition(|&&y| suffix_invariant(a, y));
                    if s.is_empty() {
                        return f;
                    }
                    let inner = a.or(o);
                    let go = a.gl(inner);
                    let mut all = s;
                    all.push(go);
                    a.or(all)
                }
                Node::And(v) => {
                    let (s, o): (Vec<F>, Vec<F>) = v.iter().partition(|&&y| is_universal(a, y));
                    if s.is_empty() {
                        return f;
                    }
                    let inner = a.and(o);
                    let go = a.gl(inner);
                    let mut all = s;
                    all.push(go);
                    a.and(all)
                }
                _ => f,
            }
        }
        Node::U(x, y) | Node::R(x, y) | Node::W(x, y) | Node::M(x, y)
            if matches!((a.node(x), a.node(y)), (Node::X(_), Node::X(_))) =>
        {
            // X a U X b = X(a U b), and the same for R, W, M.
            let (Node::X(p), Node::X(q)) = (a.node(x).clone(), a.node(y).clone()) else {
                return f;
            };
            let inner = match n {
                Node::U(..) => a.u(p, q),
                Node::R(..) => a.r(p, q),
                Node::W(..) => a.w(p, q),
                _ => a.m(p, q),
            };
            a.x(inner)
        }
        Node::U(x, y) => {
            if is_eventual(a, y) {
                return y;
            }
            // x U (y | G x) = x W y.
            if let Node::Or(v) = a.node(y).clone() {
                let gx = a.gl(x);
                if v.contains(&gx) {
                    let rest: Vec<F> = v.iter().copied().filter(|&z| z != gx).collect();
                    let r = a.or(rest);
                    return a.w(x, r);
                }
            }
            f
        }
        Node::R(x, y) => {
            if is_universal(a, y) {
                return y;
            }
            // x R e = G e | F(x & e) for e eventual: e holding at a position holds at every
            // earlier one, so only the position where x releases e matters.
            if is_eventual(a, y) && !a.is_boolean(y) {
                let ge = a.gl(y);
                let xe = a.and2(x, y);
                let fxe = a.ev(xe);
                return a.or2(ge, fxe);
            }
            // x R (y & F x) = x M y.
            if let Node::And(v) = a.node(y).clone() {
                let fx = a.ev(x);
                if v.contains(&fx) {
                    let rest: Vec<F> = v.iter().copied().filter(|&z| z != fx).collect();
                    let r = a.and(rest);
                    return a.m(x, r);
                }
            }
            f
        }
        // x M e = F(x & e) and x W u = G(x | u) for e eventual, u universal (the position where
        // x holds with e, resp. the positions before u, need not be the first ones).
        Node::M(x, y) if is_eventual(a, y) && !a.is_boolean(y) => {
            let xe = a.and2(x, y);
            a.ev(xe)
        }
        Node::W(x, y) if is_universal(a, y) && !a.is_boolean(y) => {
            let xu = a.or2(x, y);
            a.gl(xu)
        }
        Node::And(v) | Node::Or(v) => {
            let is_and = matches!(a.node(f), Node::And(_));
            // Contradictions / tautologies on literals.
            for &x in &v {
                if let Node::Not(y) = a.node(x) {
                    if v.contains(y) {
                        return a.constant(!is_and);
                    }
                }
            }
            // (x U y) | G x = x W y; (x R y) & F x = x M y.
            for &o in &v {
                let (x, y) = match a.node(o).clone() {
                    Node::U(x, y) if !is_and => (x, y),
                    Node::R(x, y) if is_and => (x, y),
                    _ => continue,
                };
                let other = if is_and { a.ev(x) } else { a.gl(x) };
                if v.contains(&other) {
                    let mut rest: Vec<F> = v
                        .iter()
                        .copied()
                        .filter(|&z| z != o && z != other)
                        .collect();
                    rest.push(if is_and { a.m(x, y) } else { a.w(x, y) });
                    return if is_and { a.and(rest) } else { a.or(rest) };
                }
            }
            // F(a & e) | G !a = !a W (a & e) for e eventual (at the first position where a holds,
            // e holds too, since e is true before any position where it is); F a | G !a = true.
            // The eventuality F(a & e) becomes the non-eventuality W: one promise fewer.
            if !is_and {
                if let Some(r) = first_occurrence_w(a, &v) {
                    return r;
                }
            }
            // Group X operands, and F operands of `|`, G operands of `&`.
            let mut xs = Vec::new();
            let mut grouped = Vec::new();
            let mut rest = Vec::new();
            for &x in &v {
                match a.node(x).clone() {
                    Node::X(y) => xs.push(y),
                    Node::Ev(y) if !is_and => grouped.push(y),
                    Node::Gl(y) if is_and => grouped.push(y),
                    _ => rest.push(x),
                }
            }
            // `F a | s = F(a | s)` for s suffix-invariant (`s = F s`): the waiting state of
            // `F a` then also waits for `s` (as `FGa | GFb` in Spot, 3 states).
            if !is_and && !grouped.is_empty() {
                let (si, r): (Vec<F>, Vec<F>) = rest
                    .iter()
                    .partition(|&&y| suffix_invariant(a, y) && !a.is_boolean(y));
                if !si.is_empty() {
                    grouped.extend(si);
                    rest = r;
                }
            }
            if xs.len() < 2 && grouped.len() < 2 {
                return f;
            }
            let mut out = rest;
            if xs.len() >= 2 {
                let inner = if is_and { a.and(xs) } else { a.or(xs) };
                out.push(a.x(inner));
            } else {
                for y in xs {
                    out.push(a.x(y));
                }
            }
            if grouped.len() >= 2 {
                if is_and {
                    let inner = a.and(grouped);
                    out.push(a.gl(inner));
                } else {
                    let inner = a.or(grouped);
                    out.push(a.ev(inner));
                }
            } else {
                for y in grouped {
                    out.push(if is_and { a.gl(y) } else { a.ev(y) });
                }
            }
            if is_and {
                a.and(out)
            } else {
                a.or(out)
            }
        }
        _ => f,
    }
}

#[cfg(test)]
mod tests {
    use crate::ltl::simplified as s;

    #[test]
    fn basic_rules() {
        assert_eq!(s("!(a U b)"), "!a R !b");
        assert_eq!(s("FGFa"), "GFa");
        assert_eq!(s("GFGa"), "FGa");
        assert_eq!(s("XGFa"), "GFa");
        assert_eq!(s("Fa | Fb"), "F(a | b)");
        assert_eq!(s("Ga & Gb"), "G(a & b)");
        assert_eq!(s("F(a U b)"), "Fb");
        assert_eq!(s("a & !a"), "0");
        assert_eq!(s("FXa"), "XFa");
        assert_eq!(s("Xa & Xb"), "X(a & b)");
        assert_eq!(s("a U GFb"), "GFb");
        assert_eq!(s("G(Fa & F(Xb | c))"), "G(Fa & F(b | c))");
        assert_eq!(s("FG(Xa & b)"), "FG(a & b)");
        assert_eq!(s("GF(a U b)"), "GFb");
        assert_eq!(s("FG(a W b)"), "FG(a | b)");
        assert_eq!(s("a U (b | Ga)"), "a W b");
        assert_eq!(s("G(Fa | XFb)"), "GF(a | b)");
        assert_eq!(s("GXFa"), "GFa");
        assert_eq!(s("FXGa"), "FGa");
        assert_eq!(s("F(Ga & XGb)"), "FG(a & b)");
        assert_eq!(s("(a U b) | Ga"), "a W b");
        assert_eq!(s("a R (b & Fa)"), "a M b");
        assert_eq!(s("(a R b) & Fa"), "a M b");
    }
}
