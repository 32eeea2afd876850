//! Linear forms of SEREs: Antimirov's partial derivatives (V. Antimirov, "Partial derivatives of
//! regular expressions and finite automaton constructions", TCS 155, 1996), extended to PSL's
//! `&&`, `&`, `:`, bounded and fused repetitions as Spot's translator does (A. Duret-Lutz,
//! "Manipulating LTL formulas using Spot 1.0", ATVA 2013, §3: SEREs are translated by rewriting
//! them into linear forms `⋁ bᵢ ∧ X rᵢ`).
//!
//! `lf(r)` is a list of pairs `(b, r')`: reading one letter satisfying the Boolean `b`, what is
//! left to match is `r'`. The SEREs reachable this way are finitely many (the hash-consed
//! constructors normalise `;` and `[*0]`), so they are the states of an NFA of `r` whose
//! accepting states are the [`Arena::nullable`] ones.

use super::ast::{Arena, F};
use super::sere::{Sere, EMPTY, NONE, S};
use std::collections::HashMap;

/// Memoised linear forms over one arena.
#[derive(Default)]
pub(crate) struct LinearForms {
    memo: HashMap<S, Vec<(F, S)>>,
}

fn push(out: &mut Vec<(F, S)>, a: &Arena, p: (F, S)) {
    if p.1 != NONE && !a.is_false(p.0) && !out.contains(&p) {
        out.push(p);
    }
}

impl LinearForms {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// The linear form of `r`.
    pub(crate) fn lf(&mut self, a: &mut Arena, r: S) -> Vec<(F, S)> {
        if let Some(v) = self.memo.get(&r) {
            return v.clone();
        }
        let mut out = Vec::new();
        match a.sere(r).clone() {
            Sere::Empty => {}
            Sere::Bool(b) => push(&mut out, a, (b, EMPTY)),
            Sere::Concat(v) => {
                let (head, rest) = (v[0], v[1..].to_vec());
                let tail = a.s_concat(rest);
                for (b, h) in self.lf(a, head) {
                    let t = a.s_concat(vec![h, tail]);
                    push(&mut out, a, (b, t));
                }
                if a.nullable(head) {
                    for p in self.lf(a, tail) {
                        push(&mut out, a, p);
                    }
                }
            }
            Sere::Fusion(v) => {
                let (head, rest) = (v[0], v[1..].to_vec());
                let tail = a.s_fusion(rest);
                let ltail = self.lf(a, tail);
                for (b, h) in self.lf(a, head) {
                    if h != EMPTY {
                        let t = a.s_fusion(vec![h, tail]);
                        push(&mut out, a, (b, t));
                    }
                    if a.nullable(h) {
                        for &(c, t) in &ltail {
                            let bc = a.and2(b, c);
                            push(&mut out, a, (bc, t));
                        }
                    }
                }
            }
            Sere::Or(v) => {
                for x in v {
                    for p in self.lf(a, x) {
                        push(&mut out, a, p);
                    }
                }
            }
            Sere::AndLen(v) => {
                let mut acc: Vec<(F, Vec<S>)> = vec![(a.tt(), vec![])];
                for x in v {
                    let lx = self.lf(a, x);
                    let mut next = Vec::new();
                    for (b, ts) in &acc {
                        for &(c, t) in &lx {
                            let bc = a.and2(*b, c);
                            if !a.is_false(bc) {
                                let mut ts2 = ts.clone();
                                ts2.push(t);
                                next.push((bc, ts2));
                            }
                        }
                    }
                    acc = next;
                }
                for (b, ts) in acc {
                    let t = a.s_and_len(ts);
                    push(&mut out, a, (b, t));
                }
            }
            Sere::AndNlm(v) => {
                // r & s == {r && {s;[*]}} | {{r;[*]} && s}
                let (r0, rest) = (v[0], v[1..].to_vec());
                let s0 = a.s_and_nlm(rest);
                let tt = a.tt();
                let any = a.s_bool(tt);
                let any_star = a.s_star(any, 0, None);
                let s_any = a.s_concat(vec![s0, any_star]);
                let r_any = a.s_concat(vec![r0, any_star]);
                let l = a.s_and_len(vec![r0, s_any]);
                let rr = a.s_and_len(vec![r_any, s0]);
                let d = a.s_or(vec![l, rr]);
                out = self.lf(a, d);
            }
            Sere::Star(x, lo, hi) => {
                let next = a.s_star(x, lo.saturating_sub(1), hi.map(|h| h - 1));
                for (b, h) in self.lf(a, x) {
                    let t = a.s_concat(vec![h, next]);
                    push(&mut out, a, (b, t));
                }
                if lo > 0 && a.nullable(x) {
                    for p in self.lf(a, next) {
                        push(&mut out, a, p);
                    }
                }
            }
            Sere::FStar(x, lo, hi) => {
                if lo == 0 {
                    let one = a.s_fstar(x, 1, hi);
                    out = self.lf(a, one);
                } else {
                    out = self.fstar(a, r, x, lo, hi);
                }
            }
        }
        self.memo.insert(r, out.clone());
        out
    }

    /// `x[:*lo..hi]` with `lo ≥ 1`: one copy ends here (if `lo ≤ 1`), or the copy goes on fused
    /// with `x[:*lo-1..hi-1]`; a copy that ends on its first letter fuses that letter with the
    /// next copy, so for `x[:*1..]` (its own continuation) the pairs are a least fixed point.
    fn fstar(&mut self, a: &mut Arena, me: S, x: S, lo: u32, hi: Option<u32>) -> Vec<(F, S)> {
        let lx = self.lf(a, x);
        let more = hi.is_none_or(|h| h >= 2);
        let next = if more {
            a.s_fstar(x, (lo - 1).max(1), hi.map(|h| h - 1))
        } else {
            NONE
        };
        let mut out = Vec::new();
        for &(b, h) in &lx {
            if lo <= 1 {
                push(&mut out, a, (b, h));
            }
            if more && h != EMPTY {
                let t = a.s_fusion(vec![h, next]);
                push(&mut out, a, (b, t));
            }
        }
        if !more {
            return out;
        }
        let ends: Vec<F> = lx
            .iter()
            .filter(|(_, h)| a.nullable(*h))
            .map(|&(b, _)| b)
            .collect();
        if ends.is_empty() {
            return out;
        }
        if next != me {
            let ln = self.lf(a, next);
            for &b in &ends {
                for &(c, t) in &ln {
                    let bc = a.and2(b, c);
                    push(&mut out, a, (bc, t));
                }
            }
            return out;
        }
        // Least fixed point: out ∪ {(b ∧ c, t) | b ends a copy, (c, t) ∈ out}.
        loop {
            let before = out.len();
            let cur = out.clone();
            for &b in &ends {
                for &(c, t) in &cur {
                    let bc = a.and2(b, c);
                    push(&mut out, a, (bc, t));
                }
            }
            if out.len() == before {
                return out;
            }
        }
    }
}
