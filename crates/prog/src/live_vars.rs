//! Live variables of an automaton (the classic backward data-flow analysis, Kildall's worklist):
//! `live(l)` holds the variables whose value at `l` can still matter — read by an edge (or a
//! summarised call's arguments, or a summary at a function's exit) before being overwritten.
//! The Horn-clause emitter (`chc`) gives each location's predicate only its live variables: a
//! dead variable's value cannot influence reaching the error, so dropping it keeps every clause
//! system equisatisfiable and makes the predicates much smaller (the lowering's temporaries die
//! right after their use).

use crate::cfa::{Cfa, Op, Var};
use std::collections::BTreeSet;

fn lin_vars(l: &crate::cfa::Lin, into: &mut BTreeSet<Var>) {
    into.extend(l.coeffs.keys().copied());
}

/// The live variables before each location, sorted. Edges into `cut` are ignored when every
/// cut is a summarised call (`skip_cut`), as the emitter ignores them.
pub(crate) fn live_vars(cfa: &Cfa, skip_cut: bool) -> Vec<Vec<Var>> {
    let n = cfa.nlocs;
    let mut live: Vec<BTreeSet<Var>> = vec![BTreeSet::new(); n];
    // Variables the summary reads at a function's exit.
    for p in &cfa.procs {
        if let Some(s) = live.get_mut(p.exit) {
            s.extend(p.in_globals.iter().copied());
            s.extend(p.in_params.iter().copied());
            s.extend(cfa.globals.iter().copied());
            s.extend(p.ret);
        }
    }
    // Predecessors: edges and calls into each location (for the worklist).
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in &cfa.edges {
        if let Some(p) = preds.get_mut(e.to) {
            p.push(e.from);
        }
    }
    for c in &cfa.calls {
        if let Some(p) = preds.get_mut(c.to) {
            p.push(c.from);
        }
        if let Some(p) = cfa.procs.get(c.proc).and_then(|p| preds.get_mut(p.entry)) {
            p.push(c.from);
        }
    }
    let out = cfa.out_edges();
    let mut calls_from: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, c) in cfa.calls.iter().enumerate() {
        if let Some(v) = calls_from.get_mut(c.from) {
            v.push(i);
        }
    }
    let mut work: Vec<usize> = (0..n).collect();
    let mut queued = vec![true; n];
    while let Some(l) = work.pop() {
        if let Some(q) = queued.get_mut(l) {
            *q = false;
        }
        let mut new = live.get(l).cloned().unwrap_or_default();
        for &ei in out.get(l).into_iter().flatten() {
            let Some(e) = cfa.edges.get(ei) else { continue };
            if skip_cut && e.to == cfa.cut {
                continue;
            }
            let mut after = live.get(e.to).cloned().unwrap_or_default();
            match &e.op {
                Op::Assume(atoms) => {
                    for a in atoms {
                        lin_vars(&a.lin, &mut after);
                    }
                }
                Op::Assign(asg) => {
                    for (x, _) in asg {
                        after.remove(x);
                    }
                    for (_, t) in asg {
                        lin_vars(t, &mut after);
                    }
                }
                Op::Havoc { vars, .. } => {
                    for x in vars {
                        after.remove(x);
                    }
                }
            }
            new.extend(after);
        }
        for &ci in calls_from.get(l).into_iter().flatten() {
            let Some(c) = cfa.calls.get(ci) else { continue };
            let Some(p) = cfa.procs.get(c.proc) else {
                continue;
            };
            for a in &c.args {
                lin_vars(a, &mut new);
            }
            new.extend(cfa.globals.iter().copied());
            // The return: everything live after it but the globals and the result.
            for &x in live.get(c.to).into_iter().flatten() {
                if !cfa.globals.contains(&x) && Some(x) != c.ret {
                    new.insert(x);
                }
            }
            // The calling context: what the callee's entry reads, but its parameters.
            for &x in live.get(p.entry).into_iter().flatten() {
                if !p.params.contains(&x) {
                    new.insert(x);
                }
            }
        }
        if live.get(l).is_some_and(|old| old.len() != new.len()) {
            if let Some(s) = live.get_mut(l) {
                *s = new;
            }
            for &p in preds.get(l).into_iter().flatten() {
                if let Some(q) = queued.get_mut(p) {
                    if !*q {
                        *q = true;
                        work.push(p);
                    }
                }
            }
        }
    }
    live.into_iter().map(|s| s.into_iter().collect()).collect()
}
