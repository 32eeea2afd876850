//! PSL's Sequential Extended Regular Expressions (SEREs) and the SERE–LTL binding operators, as
//! Spot reads them (A. Duret-Lutz, "Spot's Temporal Logic Formulas", `doc/tl/tl.pdf`, §2.5 SERE
//! operators and §2.6 SERE–LTL binding operators).
//!
//! SEREs are hash-consed in the formula [`Arena`] (ids [`S`]) with Spot's trivial identities
//! (flattening, `[*0]` as unit of `;`, `0` absorbing, sorting of `|`, `&`, `&&`, Boolean operands
//! of `|`, `&`, `&&` merged into one letter). Sugar is expanded when parsed: `r[+]` is `r[*1..]`,
//! `b[->i..j]` is `{!b[*];b}[*i..j]`, `b[=i..j]` is `{!b[*];b}[*i..j];!b[*]`, `r[:+]` is
//! `r[:*1..]`, `{r}|=> f` is `{r;1}[]-> f` and `{r}<>=> f` is `{r;1}<>-> f`.
//!
//! Semantics (on a word σ; a letter is a valuation; `σ^{0..k-1}` is its prefix of length k):
//! a Boolean `b` matches one letter satisfying it; `[*0]` the empty word; `;` concatenation;
//! `r:s` fusion (`u·a·v` with `u·a ⊨ r`, `a·v ⊨ s`); `|` union; `&&` both match the same word;
//! `r & s` both match, one of them a prefix of the word (`{r && {s;[*]}} | {{r;[*]} && s}`);
//! `r[*i..j]` i to j concatenated copies; `r[:*i..j]` i to j fused copies (`[:*0]` is `[*0]`).
//! The binding operators consider non-empty matches only:
//! - `{r}<>-> f`: some k ≥ 1 with `σ^{0..k-1} ⊨ r` and f holds from position k-1 (overlapping);
//! - `{r}[]-> f`: for every such k, f holds from position k-1;
//! - `{r}!` is `{r}<>-> 1`;
//! - `{r}`: `{r}!`, or every non-empty prefix of σ is a prefix of a word matching r.

use super::ast::{Arena, Node, F};
pub(crate) use super::ast::{Sere, S};

/// The SERE `[*0]`.
pub(crate) const EMPTY: S = S(0);
/// The SERE `0` (no word).
pub(crate) const NONE: S = S(1);

impl Arena {
    pub(super) fn sere_init(&mut self) {
        self.sere_intern(Sere::Empty);
        let ff = self.ff();
        self.sere_intern(Sere::Bool(ff));
    }

    fn sere_intern(&mut self, n: Sere) -> S {
        if let Some(&s) = self.sere_map.get(&n) {
            return s;
        }
        let s = S(self.seres.len() as u32);
        self.seres.push(n.clone());
        self.sere_map.insert(n, s);
        s
    }

    /// The node of a SERE id (`[*0]` for an id of another arena).
    pub fn sere(&self, s: S) -> &Sere {
        self.seres.get(s.0 as usize).unwrap_or(&Sere::Empty)
    }

    /// The letter `b` (a Boolean formula).
    pub fn s_bool(&mut self, b: F) -> S {
        if self.is_false(b) {
            return NONE;
        }
        self.sere_intern(Sere::Bool(b))
    }

    fn flat(&self, v: Vec<S>, pick: fn(&Sere) -> Option<&Vec<S>>) -> Vec<S> {
        let mut out = Vec::with_capacity(v.len());
        for s in v {
            match pick(self.sere(s)) {
                Some(w) => out.extend(w.iter().copied()),
                None => out.push(s),
            }
        }
        out
    }

    /// `r1;r2;…`.
    pub fn s_concat(&mut self, v: Vec<S>) -> S {
        let v = self.flat(v, |n| match n {
            Sere::Concat(w) => Some(w),
            _ => None,
        });
        if v.contains(&NONE) {
            return NONE;
        }
        let v: Vec<S> = v.into_iter().filter(|&s| s != EMPTY).collect();
        match v.len() {
            0 => EMPTY,
            1 => v[0],
            _ => self.sere_intern(Sere::Concat(v)),
        }
    }

    /// `r1:r2:…` (an operand matching only the empty word makes it match nothing).
    pub fn s_fusion(&mut self, v: Vec<S>) -> S {
        let v = self.flat(v, |n| match n {
            Sere::Fusion(w) => Some(w),
            _ => None,
        });
        if v.contains(&NONE) || (v.len() > 1 && v.contains(&EMPTY)) {
            return NONE;
        }
        match v.len() {
            0 => EMPTY,
            1 => v[0],
            _ => self.sere_intern(Sere::Fusion(v)),
        }
    }

    /// `r1|r2|…`.
    pub fn s_or(&mut self, v: Vec<S>) -> S {
        let mut v = self.flat(v, |n| match n {
            Sere::Or(w) => Some(w),
            _ => None,
        });
        v.retain(|&s| s != NONE);
        v.sort_unstable();
        v.dedup();
        if v.len() > 1 {
            if let Some(bs) = self.all_bools(&v) {
                let b = self.or(bs);
                return self.s_bool(b);
            }
        }
        match v.len() {
            0 => NONE,
            1 => v[0],
            _ => self.sere_intern(Sere::Or(v)),
        }
    }

    fn all_bools(&self, v: &[S]) -> Option<Vec<F>> {
        v.iter()
            .map(|&s| match self.sere(s) {
                Sere::Bool(b) => Some(*b),
                _ => None,
            })
            .collect()
    }

    fn s_and(&mut self, v: Vec<S>, len: bool) -> S {
        let mut v = if len {
            self.flat(v, |n| match n {
                Sere::AndLen(w) => Some(w),
                _ => None,
            })
        } else {
            self.flat(v, |n| match n {
                Sere::AndNlm(w) => Some(w),
                _ => None,
            })
        };
        if v.contains(&NONE) {
            return NONE;
        }
        v.sort_unstable();
        v.dedup();
        if v.len() > 1 {
            if let Some(bs) = self.all_bools(&v) {
                let b = self.and(bs);
                return self.s_bool(b);
            }
        }
        match v.len() {
            0 => EMPTY,
            1 => v[0],
            _ if len => self.sere_intern(Sere::AndLen(v)),
            _ => self.sere_intern(Sere::AndNlm(v)),
        }
    }

    /// `r1&&r2&&…` (length-matching).
    pub fn s_and_len(&mut self, v: Vec<S>) -> S {
        self.s_and(v, true)
    }

    /// `r1&r2&…` (non-length-matching).
    pub fn s_and_nlm(&mut self, v: Vec<S>) -> S {
        self.s_and(v, false)
    }

    /// `r[*lo..hi]`.
    pub fn s_star(&mut self, r: S, lo: u32, hi: Option<u32>) -> S {
        if hi == Some(0) || r == EMPTY {
            return EMPTY;
        }
        if r == NONE {
            return if lo == 0 { EMPTY } else { NONE };
        }
        if lo == 1 && hi == Some(1) {
            return r;
        }
        if let (Sere::Star(x, 0, None), 0, None) = (self.sere(r).clone(), lo, hi) {
            return self.s_star(x, 0, None);
        }
        self.sere_intern(Sere::Star(r, lo, hi.map(|h| h.max(lo))))
    }

    /// `r[:*lo..hi]`.
    pub fn s_fstar(&mut self, r: S, lo: u32, hi: Option<u32>) -> S {
        if hi == Some(0) {
            return EMPTY;
        }
        if r == NONE {
            return if lo == 0 { EMPTY } else { NONE };
        }
        if r == EMPTY {
            // One copy of `[*0]` is `[*0]`; two fused copies match nothing.
            return if lo <= 1 { EMPTY } else { NONE };
        }
        if lo == 1 && hi == Some(1) {
            return r;
        }
        self.sere_intern(Sere::FStar(r, lo, hi.map(|h| h.max(lo))))
    }

    /// True when `r` matches the empty word.
    pub fn nullable(&self, r: S) -> bool {
        match self.sere(r) {
            Sere::Empty => true,
            Sere::Bool(_) | Sere::Fusion(_) => false,
            Sere::Concat(v) | Sere::AndLen(v) | Sere::AndNlm(v) => {
                v.iter().all(|&x| self.nullable(x))
            }
            Sere::Or(v) => v.iter().any(|&x| self.nullable(x)),
            Sere::Star(x, lo, _) => *lo == 0 || self.nullable(*x),
            Sere::FStar(x, lo, _) => *lo == 0 || (*lo == 1 && self.nullable(*x)),
        }
    }

    /// The Boolean letters of `r`.
    pub fn sere_bools(&self, r: S) -> Vec<F> {
        let mut out = Vec::new();
        let mut todo = vec![r];
        let mut seen = std::collections::HashSet::new();
        while let Some(s) = todo.pop() {
            if !seen.insert(s) {
                continue;
            }
            match self.sere(s) {
                Sere::Empty => {}
                Sere::Bool(b) => out.push(*b),
                Sere::Concat(v)
                | Sere::Fusion(v)
                | Sere::Or(v)
                | Sere::AndLen(v)
                | Sere::AndNlm(v) => todo.extend(v.iter().copied()),
                Sere::Star(x, ..) | Sere::FStar(x, ..) => todo.push(*x),
            }
        }
        out
    }

    /// `{r}` (weak closure).
    pub fn closure(&mut self, r: S) -> F {
        if r == NONE || r == EMPTY {
            return self.ff();
        }
        if let Sere::Bool(b) = self.sere(r) {
            return *b;
        }
        self.intern(Node::Closure(r))
    }

    /// `!{r}`.
    pub fn neg_closure(&mut self, r: S, marked: bool) -> F {
        if r == NONE || r == EMPTY {
            return self.tt();
        }
        if let Sere::Bool(b) = self.sere(r).clone() {
            return self.not(b);
        }
        self.intern(Node::NegClosure(r, marked))
    }

    /// `{r}<>-> f` (`{[*0]}<>-> f` and `{r}<>-> 0` are `0`; `{b}<>-> f` is `b & f`).
    pub fn econcat(&mut self, r: S, f: F, marked: bool) -> F {
        if r == NONE || r == EMPTY || self.is_false(f) {
            return self.ff();
        }
        if let Sere::Bool(b) = self.sere(r).clone() {
            return self.and2(b, f);
        }
        self.intern(Node::EConcat(r, f, marked))
    }

    /// `{r}[]-> f` (`{[*0]}[]-> f` and `{r}[]-> 1` are `1`; `{b}[]-> f` is `!b | f`).
    pub fn uconcat(&mut self, r: S, f: F) -> F {
        if r == NONE || r == EMPTY || self.is_true(f) {
            return self.tt();
        }
        if let Sere::Bool(b) = self.sere(r).clone() {
            let nb = self.not(b);
            return self.or2(nb, f);
        }
        self.intern(Node::UConcat(r, f))
    }

    /// A formula id that no formula uses: the promise of the PSL breakpoint in the translation.
    pub fn breakpoint_token(&mut self) -> F {
        self.intern(Node::NegClosure(EMPTY, true))
    }

    /// True when `f` contains a SERE operator.
    pub fn has_sere(&self, f: F) -> bool {
        self.any_subformula(f, |n| {
            matches!(
                n,
                Node::Closure(_) | Node::NegClosure(..) | Node::EConcat(..) | Node::UConcat(..)
            )
        })
    }
}
