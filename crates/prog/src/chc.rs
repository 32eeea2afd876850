//! Constrained Horn clauses (SMT-LIB `HORN`, CHC-COMP style) from an automaton: one predicate
//! per location over its live variables (`live_vars`); `sat` means the error location is unreachable. A cut
//! recursive call is treated like the error (so `sat` stays a proof of safety).
//!
//! Recursion through procedure summaries (the modular Horn encoding of procedures, as in
//! Grebenshchikov, Lopes, Popeea, Rybalchenko, *Synthesizing software verifiers from proof
//! rules*, PLDI 2012, §3, and Bjørner, Gurfinkel, McMillan, Rybalchenko, *Horn clause solvers for
//! program verification*, 2015, §4): an automaton lowered with summaries (`Cfa::procs`) gets a
//! predicate `S_f(globals on entry, parameters, globals on exit, result)` per summarised
//! function `f`, defined by its exit location (`L_exit(x) ⇒ S_f(…)`, the entry values read from
//! the ghost copies the body's first edge takes). A call `from → to` gives two clauses: the
//! calling context `L_from(x) ⇒ L_entry(x[params := args])`, and the return `L_from(x) ∧
//! S_f(G(x), args(x), g′, r′) ⇒ L_to(x[G := g′, ret := r′])` — nonlinear, so solvers of
//! nonlinear CHC (Spacer) decide it. Every call is then analysed (no cut), so `unsat` is a real
//! path to the error.

use crate::cfa::{Cfa, Edge, Op};
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
    // Every cut is a summarised call: the stand-in edges to `cut` are not clauses.
    let summarised = !cfa.calls.is_empty() && cfa.cuts == cfa.calls.len();
    // Each location's predicate ranges over its live variables only.
    let live = crate::live_vars::live_vars(cfa, summarised);
    let kept = kept_locations(cfa, summarised);
    let is_kept = |l: usize| kept.get(l).copied().unwrap_or(true);
    for l in 0..cfa.nlocs {
        if (r.get(l).copied().unwrap_or(false) && is_kept(l)) || l == cfa.error || l == cfa.cut {
            let arity = live.get(l).map_or(0, Vec::len);
            let sorts = vec!["Int"; arity].join(" ");
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
    // `args` gives a term for every variable; the predicate takes those of its live ones.
    let app = |l: usize, all: &[String]| {
        let args: Vec<&str> = live
            .get(l)
            .into_iter()
            .flatten()
            .filter_map(|&x| all.get(x).map(String::as_str))
            .collect();
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
    summaries(cfa, &mut s, &xs, &decl, &app);
    // Straight-line chains (locations with one edge in and one out that no call or function
    // boundary needs) are composed into one clause: large-block encoding of sequences.
    let out = cfa.out_edges();
    let usable = |e: &Edge| !(summarised && e.to == cfa.cut);
    for e in &cfa.edges {
        if !usable(e) || !is_kept(e.from) {
            continue;
        }
        let (mut cur, mut guard, mut extra) = (xs.clone(), Vec::new(), Vec::new());
        let mut edge = e;
        for _ in 0..=cfa.edges.len() {
            step(&edge.op, &mut cur, &mut guard, &mut extra);
            if is_kept(edge.to) {
                break;
            }
            let next = out
                .get(edge.to)
                .into_iter()
                .flatten()
                .filter_map(|&i| cfa.edges.get(i))
                .find(|n| usable(n));
            match next {
                Some(n) => edge = n,
                None => break,
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
            app(edge.to, &cur)
        );
    }
    let _ = writeln!(
        s,
        "(assert (forall ({}) (=> {} false)))",
        decl(&[]),
        app(cfa.error, &xs)
    );
    if cfa.cuts > cfa.calls.len() {
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

/// The summary predicates of the summarised functions, their defining clauses and the two
/// clauses of every call (see the module documentation).
fn summaries(
    cfa: &Cfa,
    s: &mut String,
    xs: &[String],
    decl: &dyn Fn(&[String]) -> String,
    app: &dyn Fn(usize, &[String]) -> String,
) {
    let name = |x: usize| format!("|x{x}|");
    let sname = |p: usize| format!("|S{p}|");
    let sapp = |p: usize, args: &[String]| {
        if args.is_empty() {
            sname(p)
        } else {
            format!("({} {})", sname(p), args.join(" "))
        }
    };
    for (i, p) in cfa.procs.iter().enumerate() {
        let arity = 2 * cfa.globals.len() + p.params.len() + usize::from(p.ret.is_some());
        let _ = writeln!(
            s,
            "; summary of `{}`: globals on entry, parameters, globals on exit, result",
            p.name
        );
        let _ = writeln!(
            s,
            "(declare-fun {} ({}) Bool)",
            sname(i),
            vec!["Int"; arity].join(" ")
        );
        let mut args: Vec<String> = p.in_globals.iter().map(|&x| name(x)).collect();
        args.extend(p.in_params.iter().map(|&x| name(x)));
        args.extend(cfa.globals.iter().map(|&x| name(x)));
        args.extend(p.ret.iter().map(|&x| name(x)));
        let _ = writeln!(
            s,
            "(assert (forall ({}) (=> {} {})))",
            decl(&[]),
            app(p.exit, xs),
            sapp(i, &args)
        );
    }
    for c in &cfa.calls {
        let Some(p) = cfa.procs.get(c.proc) else {
            continue;
        };
        let args: Vec<String> = c.args.iter().map(|t| t.smt(&name)).collect();
        // The calling context: the callee's entry with the parameters bound.
        let mut head = xs.to_vec();
        for (&x, a) in p.params.iter().zip(&args) {
            if let Some(h) = head.get_mut(x) {
                *h = a.clone();
            }
        }
        let _ = writeln!(
            s,
            "(assert (forall ({}) (=> {} {})))",
            decl(&[]),
            app(c.from, xs),
            app(p.entry, &head)
        );
        // The return: globals and the result from the summary.
        let mut extra = Vec::new();
        let mut head = xs.to_vec();
        let mut sargs: Vec<String> = cfa.globals.iter().map(|&x| name(x)).collect();
        sargs.extend(args.iter().cloned());
        for &g in &cfa.globals {
            let f = format!("|g{g}|");
            if let Some(h) = head.get_mut(g) {
                *h = f.clone();
            }
            sargs.push(f.clone());
            extra.push(f);
        }
        if let (Some(r), Some(_)) = (c.ret, p.ret) {
            let f = "|r|".to_string();
            if let Some(h) = head.get_mut(r) {
                *h = f.clone();
            }
            sargs.push(f.clone());
            extra.push(f);
        } else if p.ret.is_some() {
            let f = "|r|".to_string();
            sargs.push(f.clone());
            extra.push(f);
        }
        let _ = writeln!(
            s,
            "(assert (forall ({}) (=> (and {} {}) {})))",
            decl(&extra),
            app(c.from, xs),
            sapp(c.proc, &sargs),
            app(c.to, &head)
        );
    }
}

/// Locations that keep a predicate: the initial, error and cut locations, functions' entries
/// and exits, calls' ends, and every location without exactly one edge in and one out.
fn kept_locations(cfa: &Cfa, summarised: bool) -> Vec<bool> {
    let n = cfa.nlocs;
    let (mut indeg, mut outdeg) = (vec![0usize; n], vec![0usize; n]);
    for e in &cfa.edges {
        if summarised && e.to == cfa.cut {
            continue;
        }
        if let Some(d) = indeg.get_mut(e.to) {
            *d += 1;
        }
        if let Some(d) = outdeg.get_mut(e.from) {
            *d += 1;
        }
    }
    let mut kept: Vec<bool> = indeg
        .iter()
        .zip(&outdeg)
        .map(|(&i, &o)| i != 1 || o != 1)
        .collect();
    let mut keep = |l: usize| {
        if let Some(k) = kept.get_mut(l) {
            *k = true;
        }
    };
    for l in [cfa.init, cfa.error, cfa.cut] {
        keep(l);
    }
    for p in &cfa.procs {
        keep(p.entry);
        keep(p.exit);
    }
    for c in &cfa.calls {
        keep(c.from);
        keep(c.to);
    }
    kept
}

/// One operation of a chain applied to the current terms of the variables: guards collected,
/// assigned and havocked variables renamed to fresh clause variables (`extra`).
fn step(op: &Op, cur: &mut [String], guard: &mut Vec<String>, extra: &mut Vec<String>) {
    let fresh = |extra: &mut Vec<String>| {
        let f = format!("|t{}|", extra.len());
        extra.push(f.clone());
        f
    };
    let term = |cur: &[String], x: usize| cur.get(x).cloned().unwrap_or_default();
    match op {
        Op::Assume(atoms) => {
            for a in atoms {
                guard.push(a.smt(&|x| term(cur, x)));
            }
        }
        Op::Assign(asg) => {
            let vals: Vec<(usize, String)> = asg
                .iter()
                .map(|(x, t)| (*x, t.smt(&|y| term(cur, y))))
                .collect();
            for (x, v) in vals {
                let v = if v.contains(' ') {
                    let f = fresh(extra);
                    guard.push(format!("(= {f} {v})"));
                    f
                } else {
                    v
                };
                if let Some(c) = cur.get_mut(x) {
                    *c = v;
                }
            }
        }
        Op::Havoc { vars, .. } => {
            for &x in vars {
                let f = fresh(extra);
                if let Some(c) = cur.get_mut(x) {
                    *c = f;
                }
            }
        }
    }
}
