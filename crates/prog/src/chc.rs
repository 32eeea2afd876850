//! Constrained Horn clauses (SMT-LIB `HORN`, CHC-COMP style) from an automaton: one predicate
//! per location over all variables; `sat` means the error location is unreachable. A cut
//! recursive call is treated like the error (so `sat` stays a proof of safety).

use crate::cfa::{Cfa, Op};
use std::fmt::Write as _;

/// Largest `locations × variables` emitted.
pub const MAX_CHC_SIZE: usize = 4_000_000;

/// The clauses as SMT-LIB text, or `None` when the automaton is too large.
pub fn to_chc(cfa: &Cfa) -> Option<String> {
    let n = cfa.vars.len();
    if cfa.nlocs.saturating_mul(n.max(1)) > MAX_CHC_SIZE {
        return None;
    }
    let r = cfa.reachable();
    let name = |x: usize| format!("|x{x}|");
    let pname = |l: usize| format!("|L{l}|");
    let mut s = String::from("(set-logic HORN)\n");
    let _ = writeln!(
        s,
        "; variables: {}",
        cfa.vars
            .iter()
            .enumerate()
            .map(|(i, v)| format!("x{i}={}", v.name))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let sorts = vec!["Int"; n].join(" ");
    for l in 0..cfa.nlocs {
        if r.get(l).copied().unwrap_or(false) || l == cfa.error || l == cfa.cut {
            let _ = writeln!(s, "(declare-fun {} ({sorts}) Bool)", pname(l));
        }
    }
    let xs: Vec<String> = (0..n).map(name).collect();
    let decl = |extra: &[String]| {
        let mut v: Vec<String> = xs.iter().map(|x| format!("({x} Int)")).collect();
        v.extend(extra.iter().map(|x| format!("({x} Int)")));
        if v.is_empty() {
            v.push("(|dummy| Int)".into());
        }
        v.join(" ")
    };
    let app = |l: usize, args: &[String]| {
        if args.is_empty() {
            pname(l)
        } else {
            format!("({} {})", pname(l), args.join(" "))
        }
    };
    let _ = writeln!(
        s,
        "(assert (forall ({}) {}))",
        decl(&[]),
        app(cfa.init, &xs)
    );
    for e in &cfa.edges {
        let (mut head, mut guard, mut extra) = (xs.clone(), Vec::new(), Vec::new());
        match &e.op {
            Op::Assume(atoms) => {
                guard = atoms.iter().map(|a| a.smt(&name)).collect();
            }
            Op::Assign(asg) => {
                for (x, t) in asg {
                    if let Some(h) = head.get_mut(*x) {
                        *h = t.smt(&name);
                    }
                }
            }
            Op::Havoc { vars, .. } => {
                for &x in vars {
                    let f = format!("|h{x}|");
                    if let Some(h) = head.get_mut(x) {
                        *h = f.clone();
                    }
                    extra.push(f);
                }
            }
        }
        let mut body = vec![app(e.from, &xs)];
        body.extend(guard);
        let body = if body.len() == 1 {
            body.remove(0)
        } else {
            format!("(and {})", body.join(" "))
        };
        let _ = writeln!(
            s,
            "(assert (forall ({}) (=> {body} {})))",
            decl(&extra),
            app(e.to, &head)
        );
    }
    let _ = writeln!(
        s,
        "(assert (forall ({}) (=> {} false)))",
        decl(&[]),
        app(cfa.error, &xs)
    );
    if cfa.cuts > 0 {
        let _ = writeln!(
            s,
            "; a recursive call beyond the inlining bound: treated as an error"
        );
        let _ = writeln!(
            s,
            "(assert (forall ({}) (=> {} false)))",
            decl(&[]),
            app(cfa.cut, &xs)
        );
    }
    s.push_str("(check-sat)\n(exit)\n");
    Some(s)
}
