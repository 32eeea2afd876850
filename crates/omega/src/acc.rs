//! Emerson–Lei acceptance conditions, as in the HOA format (Babiak et al., "The Hanoi
//! Omega-Automata Format", CAV'15, §"Acceptance" and §"acc-name") and Spot's `acc_cond::acc_code`:
//! positive Boolean formulas over `Inf(m)` (every mark of the set `m` is seen infinitely often)
//! and `Fin(m)` (some mark of `m` is seen finitely often), with `t = Inf({})` and `f = Fin({})`.
//!
//! The representation mirrors Spot's so that printing is Spot's byte for byte: an `Inf` node
//! holds a set of marks (`Inf(0)&Inf(1)` is one node), a `Fin` node likewise (`Fin(0)|Fin(1)`),
//! and `And`/`Or` nodes hold their children in printing order. The constructors of the named
//! conditions ([`Acc::buchi`], [`Acc::rabin`], [`Acc::parity`], …) build the very formulas Spot
//! builds, and [`Acc::name`] recognises them back as Spot's HOA printer names them (`acc-name:`).

use std::fmt;

/// A set of acceptance marks (bit `i` = mark `i`); at most 64 sets.
pub type Marks = u64;

/// An Emerson–Lei acceptance condition over transition marks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Acc {
    /// Every mark of the set is seen infinitely often (`t` when the set is empty).
    Inf(Marks),
    /// Some mark of the set is seen only finitely often (`f` when the set is empty).
    Fin(Marks),
    /// All children hold (at least two children).
    And(Vec<Acc>),
    /// Some child holds (at least two children).
    Or(Vec<Acc>),
}

/// The parity flavour of a parity condition: `max`/`min` and `odd`/`even`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parity {
    pub max: bool,
    pub odd: bool,
}

fn bit(i: u32) -> Marks {
    if i < 64 {
        1u64 << i
    } else {
        0
    }
}

fn first_n(n: u32) -> Marks {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

impl Acc {
    /// `t`: every run is accepting.
    pub fn t() -> Acc {
        Acc::Inf(0)
    }
    /// `f`: no run is accepting.
    pub fn f() -> Acc {
        Acc::Fin(0)
    }
    pub fn is_t(&self) -> bool {
        *self == Acc::Inf(0)
    }
    pub fn is_f(&self) -> bool {
        *self == Acc::Fin(0)
    }
    /// `Inf(i)`.
    pub fn inf(i: u32) -> Acc {
        Acc::Inf(bit(i))
    }
    /// `Fin(i)`.
    pub fn fin(i: u32) -> Acc {
        Acc::Fin(bit(i))
    }
    /// Büchi: `Inf(0)`.
    pub fn buchi() -> Acc {
        Acc::inf(0)
    }
    /// co-Büchi: `Fin(0)`.
    pub fn co_buchi() -> Acc {
        Acc::fin(0)
    }
    /// Generalized Büchi over `n` sets: `Inf(0)&…&Inf(n-1)` (`t` for `n = 0`).
    pub fn generalized_buchi(n: u32) -> Acc {
        Acc::Inf(first_n(n))
    }
    /// Generalized co-Büchi over `n` sets: `Fin(0)|…|Fin(n-1)` (`f` for `n = 0`).
    pub fn generalized_co_buchi(n: u32) -> Acc {
        Acc::Fin(first_n(n))
    }
    /// Rabin with `n` pairs: `(Fin(0) & Inf(1)) | … | (Fin(2n-2) & Inf(2n-1))` (`f` for `n = 0`).
    pub fn rabin(n: u32) -> Acc {
        Acc::generalized_rabin(&vec![1; n as usize])
    }
    /// Streett with `n` pairs: `(Fin(0) | Inf(1)) & … & (Fin(2n-2) | Inf(2n-1))` (`t` for `n = 0`).
    pub fn streett(n: u32) -> Acc {
        let mut terms: Vec<Acc> = (0..n)
            .map(|i| Acc::or(Acc::fin(2 * i), Acc::inf(2 * i + 1)))
            .collect();
        match terms.len() {
            0 => Acc::t(),
            1 => terms.pop().unwrap_or_else(Acc::t),
            _ => Acc::And(terms),
        }
    }
    /// Generalized Rabin: pair `i` is `Fin(a) & Inf(a+1)&…&Inf(a+k_i)` with `k_i = infs[i]`
    /// (`f` without pairs).
    pub fn generalized_rabin(infs: &[u32]) -> Acc {
        let mut next = 0u32;
        let mut terms = Vec::new();
        for &k in infs {
            let f = Acc::fin(next);
            let i = Acc::Inf(first_n(k) << (next + 1).min(63));
            next += k + 1;
            terms.push(Acc::and(f, i));
        }
        match terms.len() {
            0 => Acc::f(),
            1 => terms.pop().unwrap_or_else(Acc::f),
            _ => Acc::Or(terms),
        }
    }
    /// Parity over `n` colours, built as Spot's `acc_code::parity` does (from the least
    /// significant colour outward), e.g. `parity min even 3` = `Inf(0) | (Fin(1) & Inf(2))`.
    pub fn parity(p: Parity, n: u32) -> Acc {
        let odd = p.odd as u32;
        let mut res = if p.max {
            if p.odd {
                Acc::t()
            } else {
                Acc::f()
            }
        } else if (n & 1) == odd {
            Acc::t()
        } else {
            Acc::f()
        };
        let order: Vec<u32> = if p.max {
            (0..n).collect()
        } else {
            (0..n).rev().collect()
        };
        for i in order {
            res = if (i & 1) == odd {
                Acc::or(Acc::inf(i), res)
            } else {
                Acc::and(Acc::fin(i), res)
            };
        }
        res
    }

    /// Conjunction, simplified as Spot's `&=`: `t` and `f` absorbed, `Inf` sets merged,
    /// nested conjunctions flattened; `a`'s terms are printed first.
    pub fn and(a: Acc, b: Acc) -> Acc {
        if a.is_f() || b.is_f() {
            return Acc::f();
        }
        if a.is_t() {
            return b;
        }
        if b.is_t() {
            return a;
        }
        let mut v = Vec::new();
        for x in [a, b] {
            match x {
                Acc::And(c) => v.extend(c),
                other => v.push(other),
            }
        }
        Acc::merge(v, true)
    }
    /// Disjunction, dual of [`Acc::and`] (`Fin` sets merged).
    pub fn or(a: Acc, b: Acc) -> Acc {
        if a.is_t() || b.is_t() {
            return Acc::t();
        }
        if a.is_f() {
            return b;
        }
        if b.is_f() {
            return a;
        }
        let mut v = Vec::new();
        for x in [a, b] {
            match x {
                Acc::Or(c) => v.extend(c),
                other => v.push(other),
            }
        }
        Acc::merge(v, false)
    }
    /// Merges the `Inf` (for a conjunction) or `Fin` (disjunction) children into the first one.
    fn merge(v: Vec<Acc>, conj: bool) -> Acc {
        let mut out: Vec<Acc> = Vec::with_capacity(v.len());
        let mut at: Option<usize> = None;
        for x in v {
            match (&x, conj) {
                (Acc::Inf(m), true) | (Acc::Fin(m), false) => match at {
                    Some(k) => {
                        if let Some(Acc::Inf(n) | Acc::Fin(n)) = out.get_mut(k) {
                            *n |= *m;
                        }
                    }
                    None => {
                        at = Some(out.len());
                        out.push(x);
                    }
                },
                _ => out.push(x),
            }
        }
        if out.len() == 1 {
            return out.pop().unwrap_or_else(Acc::t);
        }
        if conj {
            Acc::And(out)
        } else {
            Acc::Or(out)
        }
    }
    /// The conjunction of several conditions.
    pub fn all(v: impl IntoIterator<Item = Acc>) -> Acc {
        v.into_iter().fold(Acc::t(), Acc::and)
    }
    /// The disjunction of several conditions.
    pub fn any(v: impl IntoIterator<Item = Acc>) -> Acc {
        v.into_iter().fold(Acc::f(), Acc::or)
    }

    /// True if a run whose marks seen infinitely often are `inf` is accepting.
    pub fn accepting(&self, inf: Marks) -> bool {
        match self {
            Acc::Inf(m) => m & inf == *m,
            Acc::Fin(m) => m & !inf != 0,
            Acc::And(v) => v.iter().all(|c| c.accepting(inf)),
            Acc::Or(v) => v.iter().any(|c| c.accepting(inf)),
        }
    }
    /// The marks the condition mentions.
    pub fn used_marks(&self) -> Marks {
        match self {
            Acc::Inf(m) | Acc::Fin(m) => *m,
            Acc::And(v) | Acc::Or(v) => v.iter().fold(0, |a, c| a | c.used_marks()),
        }
    }
    /// The marks under a `Fin`.
    pub fn fin_marks(&self) -> Marks {
        match self {
            Acc::Inf(_) => 0,
            Acc::Fin(m) => *m,
            Acc::And(v) | Acc::Or(v) => v.iter().fold(0, |a, c| a | c.fin_marks()),
        }
    }
    /// The marks under an `Inf`.
    pub fn inf_marks(&self) -> Marks {
        match self {
            Acc::Fin(_) => 0,
            Acc::Inf(m) => *m,
            Acc::And(v) | Acc::Or(v) => v.iter().fold(0, |a, c| a | c.inf_marks()),
        }
    }
    /// Substitutes constants: marks in `fin_true` make `Fin` true, marks in `fin_false` make
    /// `Fin(m)` drop `m`, marks in `inf_false` make `Inf` false, marks in `inf_true` make
    /// `Inf(m)` drop `m`; the result is simplified.
    pub fn assign(
        &self,
        fin_true: Marks,
        fin_false: Marks,
        inf_true: Marks,
        inf_false: Marks,
    ) -> Acc {
        match self {
            Acc::Inf(m) => {
                if m & inf_false != 0 {
                    Acc::f()
                } else {
                    Acc::Inf(m & !inf_true)
                }
            }
            Acc::Fin(m) => {
                if m & fin_true != 0 {
                    Acc::t()
                } else {
                    Acc::Fin(m & !fin_false)
                }
            }
            Acc::And(v) => Acc::all(
                v.iter()
                    .map(|c| c.assign(fin_true, fin_false, inf_true, inf_false)),
            ),
            Acc::Or(v) => Acc::any(
                v.iter()
                    .map(|c| c.assign(fin_true, fin_false, inf_true, inf_false)),
            ),
        }
    }
    /// The condition on runs that only see marks of `present`: `Inf` of an absent mark is false,
    /// `Fin` of an absent mark is true.
    pub fn restrict(&self, present: Marks) -> Acc {
        self.assign(!present, 0, 0, !present)
    }
    /// The negation (De Morgan, `Inf` ↔ `Fin`): a run is accepted by `c.complement()` iff it is
    /// rejected by `c`. A multi-mark `Inf(m)` becomes `Fin(m)` (`Fin(a)|Fin(b)`), and dually.
    pub fn complement(&self) -> Acc {
        match self {
            Acc::Inf(m) => Acc::Fin(*m),
            Acc::Fin(m) => Acc::Inf(*m),
            Acc::And(v) => Acc::any(v.iter().map(Acc::complement)),
            Acc::Or(v) => Acc::all(v.iter().map(Acc::complement)),
        }
    }
    /// The same condition over marks shifted up by `k` (the right operand of a product).
    pub fn shift(&self, k: u32) -> Acc {
        let sh = |m: Marks| if k >= 64 { 0 } else { m << k };
        match self {
            Acc::Inf(m) => Acc::Inf(sh(*m)),
            Acc::Fin(m) => Acc::Fin(sh(*m)),
            Acc::And(v) => Acc::And(v.iter().map(|c| c.shift(k)).collect()),
            Acc::Or(v) => Acc::Or(v.iter().map(|c| c.shift(k)).collect()),
        }
    }
    /// The disjunctive normal form as `(fin, inf)` clauses — `Fin(f)` for every single mark `f`
    /// of `fin` and `Inf(i)` for every mark of `inf` — or `None` beyond `max` clauses.
    pub fn dnf(&self, max: usize) -> Option<Vec<(Marks, Marks)>> {
        let v = match self {
            Acc::Inf(m) => vec![(0, *m)],
            Acc::Fin(m) => (0..64)
                .filter(|i| (m >> i) & 1 == 1)
                .map(|i| (1u64 << i, 0))
                .collect(),
            Acc::Or(c) => {
                let mut out = Vec::new();
                for x in c {
                    out.extend(x.dnf(max)?);
                    if out.len() > max {
                        return None;
                    }
                }
                out
            }
            Acc::And(c) => {
                let mut out = vec![(0, 0)];
                for x in c {
                    let d = x.dnf(max)?;
                    let mut next = Vec::new();
                    for &(f1, i1) in &out {
                        for &(f2, i2) in &d {
                            next.push((f1 | f2, i1 | i2));
                            if next.len() > max {
                                return None;
                            }
                        }
                    }
                    out = next;
                }
                out
            }
        };
        Some(v)
    }
    /// True if the condition is `t` or a conjunction of `Inf` only (generalized Büchi, possibly
    /// over some of the sets).
    pub fn is_inf_only(&self) -> bool {
        matches!(self, Acc::Inf(_))
    }

    /// The name Spot's HOA printer gives this condition over `num_sets` sets (`Buchi`,
    /// `generalized-Buchi 3`, `co-Buchi`, `Rabin 2`, `Streett 2`, `generalized-Rabin 2 1 2`,
    /// `parity max odd 4`, `all`, `none`), or `None` for other Emerson–Lei conditions.
    pub fn name(&self, num_sets: u32) -> Option<String> {
        let n = num_sets;
        if *self == Acc::generalized_buchi(n) {
            return Some(match n {
                0 => "all".into(),
                1 => "Buchi".into(),
                _ => format!("generalized-Buchi {n}"),
            });
        }
        if *self == Acc::generalized_co_buchi(n) {
            return Some(match n {
                0 => "none".into(),
                1 => "co-Buchi".into(),
                _ => format!("generalized-co-Buchi {n}"),
            });
        }
        if n.is_multiple_of(2) && *self == Acc::rabin(n / 2) {
            return Some(format!("Rabin {}", n / 2));
        }
        if n.is_multiple_of(2) && *self == Acc::streett(n / 2) {
            return Some(format!("Streett {}", n / 2));
        }
        if let Some(v) = self.generalized_rabin_pairs(n) {
            let s: Vec<String> = v.iter().map(|k| k.to_string()).collect();
            return Some(format!("generalized-Rabin {} {}", v.len(), s.join(" ")));
        }
        for max in [true, false] {
            for odd in [true, false] {
                let p = Parity { max, odd };
                if *self == Acc::parity(p, n) {
                    return Some(format!(
                        "parity {} {} {n}",
                        if max { "max" } else { "min" },
                        if odd { "odd" } else { "even" }
                    ));
                }
            }
        }
        None
    }
    /// The `Inf` counts of a generalized Rabin condition over exactly `n` sets, if it is one.
    fn generalized_rabin_pairs(&self, n: u32) -> Option<Vec<u32>> {
        let terms: Vec<&Acc> = match self {
            Acc::Or(v) => v.iter().collect(),
            Acc::And(_) => vec![self],
            _ => return None,
        };
        let mut ks = Vec::new();
        for t in terms {
            let k = match t {
                Acc::And(v) if v.len() == 2 => match (&v[0], &v[1]) {
                    (Acc::Fin(_), Acc::Inf(m)) => m.count_ones(),
                    _ => return None,
                },
                _ => return None,
            };
            ks.push(k);
        }
        (*self == Acc::generalized_rabin(&ks) && ks.iter().map(|k| k + 1).sum::<u32>() == n)
            .then_some(ks)
    }

    /// The parity flavour if this is `parity … n` over `n` sets (as [`Acc::name`] recognises
    /// it; Büchi, co-Büchi, `t` and `f` also count as parity conditions with their sets).
    pub fn parity_kind(&self, n: u32) -> Option<Parity> {
        for max in [true, false] {
            for odd in [true, false] {
                let p = Parity { max, odd };
                if *self == Acc::parity(p, n) {
                    return Some(p);
                }
            }
        }
        None
    }
}

impl fmt::Display for Acc {
    /// Spot's text syntax (`acc_code::to_text`): `Inf(0)&Inf(1)` for a multi-mark `Inf` at the
    /// top, parenthesised below it, ` & ` / ` | ` between children.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        print(self, f, true)
    }
}

fn print(a: &Acc, f: &mut fmt::Formatter<'_>, top: bool) -> fmt::Result {
    match a {
        Acc::Inf(m) | Acc::Fin(m) => {
            let inf = matches!(a, Acc::Inf(_));
            if *m == 0 {
                return f.write_str(if inf { "t" } else { "f" });
            }
            let paren = !top && m.count_ones() > 1;
            if paren {
                f.write_str("(")?;
            }
            let mut sep = "";
            for i in 0..64 {
                if (m >> i) & 1 == 1 {
                    write!(f, "{sep}{}({i})", if inf { "Inf" } else { "Fin" })?;
                    sep = if inf { "&" } else { "|" };
                }
            }
            if paren {
                f.write_str(")")?;
            }
            Ok(())
        }
        Acc::And(v) | Acc::Or(v) => {
            let op = if matches!(a, Acc::And(_)) {
                " & "
            } else {
                " | "
            };
            if !top {
                f.write_str("(")?;
            }
            for (i, c) in v.iter().enumerate() {
                if i > 0 {
                    f.write_str(op)?;
                }
                print(c, f, false)?;
            }
            if !top {
                f.write_str(")")?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spot_texts() {
        let p = |max, odd| Parity { max, odd };
        assert_eq!(Acc::buchi().to_string(), "Inf(0)");
        assert_eq!(
            Acc::generalized_buchi(3).to_string(),
            "Inf(0)&Inf(1)&Inf(2)"
        );
        assert_eq!(Acc::generalized_co_buchi(2).to_string(), "Fin(0)|Fin(1)");
        assert_eq!(
            Acc::rabin(2).to_string(),
            "(Fin(0) & Inf(1)) | (Fin(2) & Inf(3))"
        );
        assert_eq!(
            Acc::streett(2).to_string(),
            "(Fin(0) | Inf(1)) & (Fin(2) | Inf(3))"
        );
        assert_eq!(
            Acc::generalized_rabin(&[1, 2]).to_string(),
            "(Fin(0) & Inf(1)) | (Fin(2) & (Inf(3)&Inf(4)))"
        );
        assert_eq!(
            Acc::parity(p(false, false), 5).to_string(),
            "Inf(0) | (Fin(1) & (Inf(2) | (Fin(3) & Inf(4))))"
        );
        assert_eq!(
            Acc::parity(p(true, true), 4).to_string(),
            "Inf(3) | (Fin(2) & (Inf(1) | Fin(0)))"
        );
        assert_eq!(
            Acc::parity(p(true, false), 3).to_string(),
            "Inf(2) | (Fin(1) & Inf(0))"
        );
        assert_eq!(
            Acc::parity(p(false, true), 3).to_string(),
            "Fin(0) & (Inf(1) | Fin(2))"
        );
    }

    #[test]
    fn names() {
        assert_eq!(Acc::t().name(0).as_deref(), Some("all"));
        assert_eq!(Acc::f().name(0).as_deref(), Some("none"));
        assert_eq!(Acc::buchi().name(1).as_deref(), Some("Buchi"));
        assert_eq!(Acc::co_buchi().name(1).as_deref(), Some("co-Buchi"));
        assert_eq!(Acc::rabin(2).name(4).as_deref(), Some("Rabin 2"));
        assert_eq!(Acc::streett(3).name(6).as_deref(), Some("Streett 3"));
        assert_eq!(
            Acc::generalized_rabin(&[1, 2]).name(5).as_deref(),
            Some("generalized-Rabin 2 1 2")
        );
        let p = Parity {
            max: true,
            odd: true,
        };
        assert_eq!(
            Acc::parity(p, 4).name(4).as_deref(),
            Some("parity max odd 4")
        );
        assert_eq!(Acc::buchi().name(2), None);
        assert_eq!(Acc::and(Acc::fin(0), Acc::fin(1)).name(2), None);
    }

    /// Semantics against the definitions: parity min even accepts iff the least colour seen
    /// infinitely often is even, Rabin iff some pair has its Fin finite and Inf infinite.
    #[test]
    fn semantics_brute_force() {
        for n in 0..6u32 {
            for inf in 0..(1u64 << n) {
                for max in [false, true] {
                    for odd in [false, true] {
                        let a = Acc::parity(Parity { max, odd }, n);
                        let c = if max {
                            (0..n).rev().find(|&i| (inf >> i) & 1 == 1)
                        } else {
                            (0..n).find(|&i| (inf >> i) & 1 == 1)
                        };
                        // No colour seen: Spot's convention (as a neutral colour beyond the range).
                        let expect = match c {
                            Some(c) => (c % 2 == 1) == odd,
                            None => a.accepting(0),
                        };
                        assert_eq!(a.accepting(inf), expect, "{a} on {inf:b}");
                        assert_eq!(a.complement().accepting(inf), !a.accepting(inf));
                    }
                }
                if n % 2 == 0 {
                    let r = Acc::rabin(n / 2);
                    let e = (0..n / 2)
                        .any(|i| (inf >> (2 * i)) & 1 == 0 && (inf >> (2 * i + 1)) & 1 == 1);
                    assert_eq!(r.accepting(inf), e);
                    let s = Acc::streett(n / 2);
                    let e = (0..n / 2)
                        .all(|i| (inf >> (2 * i)) & 1 == 0 || (inf >> (2 * i + 1)) & 1 == 1);
                    assert_eq!(s.accepting(inf), e);
                }
            }
        }
    }
}
