//! The writers: ASCII as stored, binary after renumbering into the strict binary order (inputs,
//! latches, then ANDs in topological order).

use crate::aig::{Aig, Reset};
use std::fmt::Write as _;

fn header(a: &Aig, word: &str) -> String {
    let mut h = format!(
        "{word} {} {} {} {} {}",
        a.maxvar,
        a.inputs.len(),
        a.latches.len(),
        a.outputs.len(),
        a.ands.len()
    );
    let ext = [
        a.bad.len(),
        a.constraints.len(),
        a.justice.len(),
        a.fairness.len(),
    ];
    let keep = ext.iter().rposition(|&n| n > 0).map_or(0, |p| p + 1);
    for n in ext.iter().take(keep) {
        let _ = write!(h, " {n}");
    }
    h.push('\n');
    h
}

fn reset_word(lit: u32, r: Reset) -> String {
    match r {
        Reset::Zero => String::new(),
        Reset::One => " 1".into(),
        Reset::Uninit => format!(" {lit}"),
    }
}

fn props_and_trailer(a: &Aig, out: &mut String, tail: bool) {
    if !tail {
        for l in a.outputs.iter().chain(&a.bad).chain(&a.constraints) {
            let _ = writeln!(out, "{l}");
        }
        for j in &a.justice {
            let _ = writeln!(out, "{}", j.len());
        }
        for l in a.justice.iter().flatten().chain(&a.fairness) {
            let _ = writeln!(out, "{l}");
        }
        return;
    }
    for (k, i, s) in &a.symbols {
        let _ = writeln!(out, "{k}{i} {s}");
    }
    if !a.comments.is_empty() {
        out.push_str("c\n");
        for c in &a.comments {
            let _ = writeln!(out, "{c}");
        }
    }
}

impl Aig {
    /// ASCII AIGER (`aag`), items in their stored order.
    pub fn to_aag(&self) -> String {
        let mut s = header(self, "aag");
        for i in &self.inputs {
            let _ = writeln!(s, "{i}");
        }
        for l in &self.latches {
            let _ = writeln!(s, "{} {}{}", l.lit, l.next, reset_word(l.lit, l.reset));
        }
        props_and_trailer(self, &mut s, false);
        for g in &self.ands {
            let _ = writeln!(s, "{} {} {}", g.lhs, g.rhs0, g.rhs1);
        }
        props_and_trailer(self, &mut s, true);
        s
    }

    /// The same circuit renumbered: inputs `1..=I`, latches `I+1..=I+L`, ANDs after them in
    /// topological order with `lhs > rhs0 ≥ rhs1`; `maxvar = I + L + A`.
    pub fn renumbered(&self) -> Aig {
        let mut map = vec![0u32; self.maxvar as usize + 1];
        let mut next = 1u32;
        for &l in &self.inputs {
            if let Some(m) = map.get_mut((l >> 1) as usize) {
                *m = next;
            }
            next += 1;
        }
        for l in &self.latches {
            if let Some(m) = map.get_mut((l.lit >> 1) as usize) {
                *m = next;
            }
            next += 1;
        }
        for g in &self.ands {
            if let Some(m) = map.get_mut((g.lhs >> 1) as usize) {
                *m = next;
            }
            next += 1;
        }
        let f = |l: u32| 2 * map.get((l >> 1) as usize).copied().unwrap_or(0) + (l & 1);
        let mut out = self.clone();
        out.maxvar = next - 1;
        out.inputs = self.inputs.iter().map(|&l| f(l)).collect();
        for l in &mut out.latches {
            l.lit = f(l.lit);
            l.next = f(l.next);
        }
        for v in [
            &mut out.outputs,
            &mut out.bad,
            &mut out.constraints,
            &mut out.fairness,
        ] {
            for l in v.iter_mut() {
                *l = f(*l);
            }
        }
        for j in &mut out.justice {
            for l in j.iter_mut() {
                *l = f(*l);
            }
        }
        for g in &mut out.ands {
            let (a, b) = (f(g.rhs0), f(g.rhs1));
            g.lhs = f(g.lhs);
            g.rhs0 = a.max(b);
            g.rhs1 = a.min(b);
        }
        out
    }

    /// Binary AIGER (`aig`), after [`Aig::renumbered`].
    pub fn to_aig(&self) -> Vec<u8> {
        let a = self.renumbered();
        let mut s = header(&a, "aig");
        for l in &a.latches {
            let _ = writeln!(s, "{}{}", l.next, reset_word(l.lit, l.reset));
        }
        props_and_trailer(&a, &mut s, false);
        let mut out = s.into_bytes();
        let put = |mut x: u32, out: &mut Vec<u8>| {
            while x >= 0x80 {
                out.push((x & 0x7f) as u8 | 0x80);
                x >>= 7;
            }
            out.push(x as u8);
        };
        for g in &a.ands {
            put(g.lhs.saturating_sub(g.rhs0), &mut out);
            put(g.rhs0.saturating_sub(g.rhs1), &mut out);
        }
        let mut t = String::new();
        props_and_trailer(&a, &mut t, true);
        out.extend_from_slice(t.as_bytes());
        out
    }
}
