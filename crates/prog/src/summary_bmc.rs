//! Bounded procedure summaries for recursive programs — A. Komuravelli, A. Gurfinkel, S. Chaki,
//! "SMT-Based Model Checking for Recursive Programs", CAV 2014 (FMSD 2016), §3: reachability
//! in a recursive program decided with an under-approximating (*must*) and an
//! over-approximating (*may*) summary per procedure, each a union of cubes computed by
//! model-based projection (module `mbp`) of the procedure's body with the callees' summaries
//! substituted for its calls.
//!
//! Here the summaries are those of a bounded call depth, computed level by level (Kleene
//! iteration on the summary relation, as in bounded model checking, without Spacer's lemmas):
//!
//! - `must_d(p)`: every input/output pair of an execution of `p` whose calls nest at most `d`
//!   deep — the projection onto `p`'s interface (parameters and globals on entry, globals and
//!   the result on exit) of its loop-free body with `must_{d−1}` at every call, enumerated cube
//!   by cube (a model, its path, the path's literals projected, the cube blocked) until the
//!   solver finds no more;
//! - `cut_d(p)`: the inputs from which some execution reaches a call whose input lies in
//!   `cut_{d−1}` of its callee (`cut_0`: every input) — outside `cut_d(p)`, `must_d(p)` is exact.
//!
//! A summary with more than [`MAX_CUBES`] cubes is truncated (still an under-approximation) and, from
//! then on, its inputs are all cut. At each level the program's entry function, with `must_d` at its calls,
//! is asked whether the error is reachable (a model is a real execution: a counterexample whose
//! nondeterministic values are read off its path) and whether a call with an input in `cut_d`
//! is (if not, the depth-`d` unwinding covers every execution and the program is safe; the
//! summaries that show it are re-validated by fresh solvers, see [`validate`]). Each region is
//! encoded once and kept across depths; a query asserts the summaries it uses in a scope. The
//! bodies must be loop-free (loops are refused by name) and `reach_error` must be called from
//! the entry function.

use crate::cfa::{show_dnf, Atom, Cfa, Lin, Loc, Op, Var};
use crate::invariant_check::atom;
use crate::mbp::{project, subst_args, Lit};
use std::collections::{BTreeMap, HashMap, HashSet};
use verikit_diag::{Budget, Exhausted};
use verikit_smt::{SatResult, Solver, Sort, TermId, TermOp, Value};

/// Largest number of cubes of one summary (beyond it the summary is truncated and cut).
pub(crate) const MAX_CUBES: usize = 2048;

/// The outcome of the summary iteration.
pub(crate) enum SummaryResult {
    /// The error is reachable: nondeterministic values (with their lines) in order, and the depth.
    Counterexample(Vec<(i128, u32)>, usize),
    /// At this depth no execution reaches the error or a cut call: the program is safe. With
    /// the depth, every procedure's summary (see [`validate`]), re-validated.
    Safe(usize, Vec<Certified>),
    /// Outside what the engine handles, or the summaries stopped changing with calls still cut.
    GaveUp(String),
}

/// A procedure's re-validated summary: its name and its cubes as text over the interface.
pub(crate) struct Certified {
    pub(crate) name: String,
    pub(crate) summary: String,
}

/// The model's value per value id.
type Model = HashMap<usize, i128>;

/// A union of cubes over a procedure's interface positions (see [`Iface`]).
type Cubes = Vec<Vec<Lit>>;

/// The summaries of one procedure at one depth.
#[derive(Clone, PartialEq)]
struct Summary {
    must: Cubes,
    /// Inputs cut at this depth; `None`: every input.
    cut: Option<Cubes>,
}

/// A loop-free region: the locations reachable from `start` in topological order, and per
/// location its incoming transitions.
struct Region {
    order: Vec<Loc>,
    /// Per location: incoming (edge index or call index, is a call).
    incoming: HashMap<Loc, Vec<(usize, bool)>>,
    /// Calls after which no call is reachable: their summaries do not matter to whether a call
    /// is reached, so the queries about cut calls leave them out.
    last_calls: HashSet<usize>,
}

fn region(cfa: &Cfa, start: Loc, name: &str) -> Result<Region, String> {
    let out = cfa.out_edges();
    let mut succ: HashMap<Loc, Vec<(Loc, usize, bool)>> = HashMap::new();
    let mut seen = vec![start];
    let mut seen_set: HashSet<Loc> = HashSet::from([start]);
    let mut stack = vec![start];
    let mut incoming: HashMap<Loc, Vec<(usize, bool)>> = HashMap::new();
    while let Some(l) = stack.pop() {
        let mut next = Vec::new();
        for &e in out.get(l).into_iter().flatten() {
            if let Some(ed) = cfa.edges.get(e) {
                if ed.to != cfa.cut {
                    next.push((ed.to, e, false));
                }
            }
        }
        for (i, c) in cfa.calls.iter().enumerate() {
            if c.from == l {
                next.push((c.to, i, true));
            }
        }
        for &(to, i, call) in &next {
            incoming.entry(to).or_default().push((i, call));
            if seen_set.insert(to) {
                seen.push(to);
                stack.push(to);
            }
        }
        succ.insert(l, next);
    }
    // A topological order and the loop check from the graph kernel's SCCs: every component a
    // single location without a self-loop, in reverse of Tarjan's (sinks-first) numbering.
    let index: HashMap<Loc, u32> = seen
        .iter()
        .enumerate()
        .map(|(i, &l)| (l, i as u32))
        .collect();
    let targets = |v: u32| -> Vec<u32> {
        seen.get(v as usize)
            .and_then(|l| succ.get(l))
            .into_iter()
            .flatten()
            .filter_map(|(to, _, _)| index.get(to).copied())
            .collect()
    };
    let sccs = verikit_graph::tarjan(seen.len(), targets);
    let looped = (0..sccs.len()).any(|c| sccs.is_nontrivial(c, |v| targets(v).contains(&v)));
    let order: Vec<Loc> = sccs
        .members
        .iter()
        .rev()
        .filter_map(|m| m.first().and_then(|&v| seen.get(v as usize)).copied())
        .collect();
    if looped || order.first() != Some(&start) {
        return Err(format!(
            "a loop in `{name}` (the summaries engine handles loop-free function bodies)"
        ));
    }
    // Locations from which a call is reachable, in reverse topological order.
    let mut leads: HashSet<Loc> = HashSet::new();
    for &l in order.iter().rev() {
        let hit = succ
            .get(&l)
            .into_iter()
            .flatten()
            .any(|&(to, _, call)| call || leads.contains(&to));
        if hit {
            leads.insert(l);
        }
    }
    let last_calls = succ
        .values()
        .flatten()
        .filter(|&&(to, _, call)| call && !leads.contains(&to))
        .map(|&(_, i, _)| i)
        .collect();
    Ok(Region {
        order,
        incoming,
        last_calls,
    })
}

/// One encoded region, kept across depths: the solver, the symbolic values of the variables per
/// location (linear terms over value ids), and per transition its selector, literals and (for a
/// call) cubes.
struct Enc<'a> {
    cfa: &'a Cfa,
    s: Solver,
    ids: Vec<TermId>,
    vals: HashMap<Loc, Vec<Lin>>,
    reach: HashMap<Loc, TermId>,
    /// Per (transition, is call): selector, literals, the callee's cubes instantiated, and the
    /// value ids of nondeterministic calls.
    trans: HashMap<(usize, bool), Step>,
    region: &'a Region,
}

/// One transition into a location: its selector, the literals it asserts (its guard and the
/// join's equalities), the callee's cubes on its arguments (a call), and the value ids of the
/// nondeterministic calls it makes.
struct Step {
    sel: TermId,
    atoms: Vec<Atom>,
    cubes: Vec<Vec<Atom>>,
    nondet: Vec<usize>,
    /// A call's arguments, globals and results: the callee's interface positions.
    args: Vec<Lin>,
    /// A call's summary (`None` for an edge, and for a call a cut query leaves out).
    link: Option<Link>,
}

/// The summary at a call: its cubes as terms, built once (summaries only grow). A query's scope
/// asserts that taking the call implies one of them — or, for the call a semi-naive query
/// restricts, one of the cubes new at the last depth — so a deeper summary extends the same
/// encoding instead of encoding the region again, and no query carries cubes it does not use.
struct Link {
    cubes: Vec<TermId>,
    /// The callee's cubes already built.
    synced: usize,
}

/// The interface of procedure `p` in a state: parameters and globals on entry, globals and the
/// result now.
fn iface(cfa: &Cfa, p: usize, v: &[Lin]) -> Vec<Lin> {
    let get = |x: Var| v.get(x).cloned().unwrap_or_default();
    let Some(pr) = cfa.procs.get(p) else {
        return Vec::new();
    };
    let mut out: Vec<Lin> = pr.in_params.iter().map(|&x| get(x)).collect();
    out.extend(pr.in_globals.iter().map(|&x| get(x)));
    out.extend(cfa.globals.iter().map(|&x| get(x)));
    out.extend(pr.ret.iter().map(|&x| get(x)));
    out
}

fn inst(cubes: &Cubes, args: &[Lin]) -> Vec<Vec<Atom>> {
    cubes
        .iter()
        .filter_map(|c| {
            c.iter()
                .map(|l| match l {
                    Lit::Lin(a) => subst_args(&a.lin, args).map(|lin| Atom { lin, eq: a.eq }),
                    Lit::Mod(..) | Lit::NotMod(..) => None,
                })
                .collect::<Option<Vec<_>>>()
        })
        .collect()
}

impl<'a> Enc<'a> {
    fn fresh(&mut self) -> usize {
        let i = self.ids.len();
        let t = self.s.declare(&format!("v{i}"), Sort::Int);
        self.ids.push(t);
        i
    }
    fn term(&mut self, a: &Atom) -> TermId {
        let z = self.s.terms.mk_true();
        let Enc { s, ids, .. } = self;
        atom(s, a, &|x| ids.get(x).copied().unwrap_or(z))
    }
    fn and(&mut self, xs: Vec<TermId>) -> TermId {
        match xs.len() {
            0 => self.s.terms.mk_true(),
            _ => self.s.terms.mk(TermOp::And, xs, Sort::Bool),
        }
    }
    fn or(&mut self, xs: Vec<TermId>) -> TermId {
        match xs.len() {
            0 => self.s.terms.mk_false(),
            _ => self.s.terms.mk(TermOp::Or, xs, Sort::Bool),
        }
    }
    fn cubes_term(&mut self, cubes: &[Vec<Atom>]) -> TermId {
        let mut ors = Vec::new();
        for c in cubes {
            let xs: Vec<TermId> = c.iter().map(|a| self.term(a)).collect();
            ors.push(self.and(xs));
        }
        self.or(ors)
    }

    /// Encodes `region` from its start without the calls' summaries ([`Enc::sync`] builds their
    /// cubes, [`Enc::scope`] asserts them per query); with `cuts_only` the calls after which no
    /// call is reachable are left out (never taken).
    fn new(
        cfa: &'a Cfa,
        region: &'a Region,
        cuts_only: bool,
        entry: &[Atom],
        budget: &Budget,
    ) -> Result<Enc<'a>, Exhausted> {
        let mut s = Solver::new();
        s.set_budget(budget);
        let mut e = Enc {
            cfa,
            s,
            ids: Vec::new(),
            vals: HashMap::new(),
            reach: HashMap::new(),
            trans: HashMap::new(),
            region,
        };
        let nv = cfa.vars.len();
        let mut ticker = budget.ticker(16);
        for (k, &l) in region.order.iter().enumerate() {
            ticker.tick()?;
            let b = e.s.declare(&format!("b{l}"), Sort::Bool);
            e.reach.insert(l, b);
            if k == 0 {
                let v: Vec<Lin> = (0..nv).map(|_| Lin::var(e.fresh())).collect();
                for a in entry {
                    if let Some(lin) = subst_args(&a.lin, &v) {
                        let t = e.term(&Atom { lin, eq: a.eq });
                        e.s.assert(t);
                    }
                }
                e.vals.insert(l, v);
                e.s.assert(b);
                continue;
            }
            let mut outs = Vec::new();
            for &(i, call) in region.incoming.get(&l).into_iter().flatten() {
                let linked = call && !(cuts_only && region.last_calls.contains(&i));
                outs.push(e.transfer(i, call, linked));
            }
            // Join: a fresh value where the incoming values differ.
            let mut v: Vec<Lin> = outs.first().map(|o| o.1.clone()).unwrap_or_default();
            for (x, vx) in v.iter_mut().enumerate() {
                if outs.iter().all(|o| o.1.get(x) == Some(vx)) {
                    continue;
                }
                let f = e.fresh();
                *vx = Lin::var(f);
                for o in outs.iter_mut() {
                    let ox = o.1.get(x).cloned().unwrap_or_default();
                    if let Ok(d) = Lin::var(f).sub(&ox) {
                        o.2.atoms.push(Atom::eq0(d));
                    }
                }
            }
            let mut sels = Vec::new();
            for ((i, call), _, mut step) in outs {
                let sel =
                    e.s.declare(&format!("t{i}{}", if call { "c" } else { "e" }), Sort::Bool);
                let from = if call {
                    cfa.calls.get(i).map(|c| c.from)
                } else {
                    cfa.edges.get(i).map(|x| x.from)
                };
                let bf = from.and_then(|f| e.reach.get(&f).copied());
                let mut xs: Vec<TermId> = step.atoms.iter().map(|a| e.term(a)).collect();
                xs.extend(bf);
                if call && step.link.is_none() {
                    // A left-out call is not taken; a linked one gets its summary per query.
                    xs.push(e.s.terms.mk_false());
                }
                let body = e.and(xs);
                let imp = e.s.terms.mk(TermOp::Implies, vec![sel, body], Sort::Bool);
                e.s.assert(imp);
                sels.push(sel);
                step.sel = sel;
                e.trans.insert((i, call), step);
            }
            let any = e.or(sels);
            let imp = e.s.terms.mk(TermOp::Implies, vec![b, any], Sort::Bool);
            e.s.assert(imp);
            e.vals.insert(l, v);
        }
        Ok(e)
    }

    /// The values after a transition, and its step (the selector is set by the caller); a
    /// `linked` call gets its summary in each query's scope.
    fn transfer(&mut self, i: usize, call: bool, linked: bool) -> ((usize, bool), Vec<Lin>, Step) {
        let cfa = self.cfa;
        let tt = self.s.terms.mk_true();
        let step = |atoms, nondet, args, link| Step {
            sel: tt,
            atoms,
            cubes: Vec::new(),
            nondet,
            args,
            link,
        };
        let (mut atoms, mut nd) = (Vec::new(), Vec::new());
        if call {
            let Some(c) = cfa.calls.get(i) else {
                return ((i, call), Vec::new(), step(atoms, nd, Vec::new(), None));
            };
            let v = self.vals.get(&c.from).cloned().unwrap_or_default();
            let mut args: Vec<Lin> = c
                .args
                .iter()
                .map(|a| subst_args(a, &v).unwrap_or_default())
                .collect();
            args.extend(
                cfa.globals
                    .iter()
                    .map(|&g| v.get(g).cloned().unwrap_or_default()),
            );
            let mut w = v.clone();
            for &g in &cfa.globals {
                let f = self.fresh();
                if let Some(s) = w.get_mut(g) {
                    *s = Lin::var(f);
                }
                args.push(Lin::var(f));
            }
            if let Some(r) = c.ret {
                let f = self.fresh();
                if let Some(s) = w.get_mut(r) {
                    *s = Lin::var(f);
                }
                args.push(Lin::var(f));
            }
            let link = linked.then(|| Link {
                cubes: Vec::new(),
                synced: 0,
            });
            return ((i, call), w, step(atoms, nd, args, link));
        }
        let Some(ed) = cfa.edges.get(i) else {
            return ((i, call), Vec::new(), step(atoms, nd, Vec::new(), None));
        };
        let v = self.vals.get(&ed.from).cloned().unwrap_or_default();
        let mut w = v.clone();
        match &ed.op {
            Op::Assume(xs) => {
                for a in xs {
                    if let Some(lin) = subst_args(&a.lin, &v) {
                        atoms.push(Atom { lin, eq: a.eq });
                    }
                }
            }
            Op::Assign(asg) => {
                for (x, t) in asg {
                    if let (Some(s), Some(t)) = (w.get_mut(*x), subst_args(t, &v)) {
                        *s = t;
                    }
                }
            }
            Op::Havoc { vars, nondet } => {
                for &x in vars {
                    let f = self.fresh();
                    if let Some(s) = w.get_mut(x) {
                        *s = Lin::var(f);
                    }
                    if *nondet {
                        nd.push(f);
                    }
                }
            }
        }
        ((i, call), w, step(atoms, nd, Vec::new(), None))
    }

    /// Builds the terms of the cubes each call's callee gained since the last sync.
    fn sync(&mut self, sums: &[Summary]) {
        let cfa = self.cfa;
        let mut keys: Vec<usize> = self
            .trans
            .iter()
            .filter(|(k, st)| k.1 && st.link.is_some())
            .map(|(k, _)| k.0)
            .collect();
        keys.sort_unstable();
        for i in keys {
            let Some(must) = cfa
                .calls
                .get(i)
                .and_then(|c| sums.get(c.proc))
                .map(|s| &s.must)
            else {
                continue;
            };
            let Some((synced, args)) = self
                .trans
                .get(&(i, true))
                .and_then(|st| st.link.as_ref().map(|k| (k.synced, st.args.clone())))
            else {
                continue;
            };
            if synced >= must.len() {
                continue;
            }
            let fresh = inst(&must.get(synced..).unwrap_or_default().to_vec(), &args);
            let terms: Vec<TermId> = fresh
                .iter()
                .map(|c| self.cubes_term(std::slice::from_ref(c)))
                .collect();
            if let Some(st) = self.trans.get_mut(&(i, true)) {
                st.cubes.extend(fresh);
                if let Some(k) = st.link.as_mut() {
                    k.cubes.extend(terms);
                    k.synced = must.len();
                }
            }
        }
    }

    /// Opens a scope for one query: every linked call implies one of its summary's cubes, and
    /// with `only` the call `c` one of `cubes` (the semi-naive step). The caller pops it.
    fn scope(&mut self, only: Option<(usize, &Cubes)>) {
        self.s.push();
        let mut links: Vec<(usize, TermId, Vec<TermId>, Vec<Lin>)> = self
            .trans
            .iter()
            .filter_map(|(k, st)| {
                let l = st.link.as_ref()?;
                Some((k.0, st.sel, l.cubes.clone(), st.args.clone()))
            })
            .collect();
        links.sort_unstable_by_key(|l| l.0);
        for (i, sel, cubes, args) in links {
            let any = match only {
                Some((c, only)) if c == i => {
                    let t = inst(only, &args);
                    self.cubes_term(&t)
                }
                _ => self.or(cubes),
            };
            let imp = self.s.terms.mk(TermOp::Implies, vec![sel, any], Sort::Bool);
            self.s.assert(imp);
        }
    }

    fn value(&self, x: usize, memo: &mut HashMap<TermId, Value>) -> i128 {
        match self.ids.get(x).and_then(|&t| self.s.model_value(t, memo)) {
            Some(Value::Num(n)) => {
                let (p, _) = n.parts();
                p.to_string().parse::<i128>().unwrap_or(0)
            }
            _ => 0,
        }
    }

    /// The path of the current model into `target`: its literals (the cube of each call that
    /// holds) and its nondeterministic values with their lines, in execution order.
    fn path(&self, target: Loc) -> (Vec<Atom>, Vec<(usize, u32)>, Model) {
        let mut memo = HashMap::new();
        let mut vals: HashMap<usize, i128> = HashMap::new();
        for x in 0..self.ids.len() {
            vals.insert(x, self.value(x, &mut memo));
        }
        let val = |x: Var| vals.get(&x).copied().unwrap_or(0);
        let (mut lits, mut nds) = (Vec::new(), Vec::new());
        let mut l = target;
        let start = self.region.order.first().copied();
        let mut steps = 0;
        while Some(l) != start && steps <= self.region.order.len() {
            steps += 1;
            let mut next = None;
            for key in self.region.incoming.get(&l).into_iter().flatten() {
                let Some(Step {
                    sel,
                    atoms,
                    cubes,
                    nondet: nd,
                    ..
                }) = self.trans.get(key)
                else {
                    continue;
                };
                if !matches!(self.s.model_value(*sel, &mut memo), Some(Value::Bool(true))) {
                    continue;
                }
                lits.extend(atoms.iter().cloned());
                if key.1 {
                    // Newest first: a semi-naive query's call takes a cube of the last depth.
                    if let Some(c) = cubes.iter().rev().find(|c| c.iter().all(|a| a.holds(&val))) {
                        lits.extend(c.iter().cloned());
                    }
                    next = self.cfa.calls.get(key.0).map(|c| c.from);
                } else {
                    if let Some(ed) = self.cfa.edges.get(key.0) {
                        for &f in nd.iter().rev() {
                            nds.push((f, ed.line));
                        }
                    }
                    next = self.cfa.edges.get(key.0).map(|e| e.from);
                }
                break;
            }
            match next {
                Some(n) => l = n,
                None => break,
            }
        }
        nds.reverse();
        (lits, nds, vals)
    }

    /// Enumerates the cubes over `iface_at(target)` of the executions reaching `target` under
    /// `extra`, beyond the cubes `known` (returned with them); `None` when more than
    /// [`MAX_CUBES`].
    fn enumerate(
        &mut self,
        target: Loc,
        positions: &[Lin],
        extra: &[Vec<Atom>],
        known: Cubes,
        room: usize,
    ) -> Result<Option<Cubes>, Exhausted> {
        let mut found = known;
        self.s.push();
        let b = self.reach.get(&target).copied();
        let Some(b) = b else {
            self.s.pop(1);
            return Ok(Some(found));
        };
        self.s.assert(b);
        let x = self.cubes_term(extra);
        self.s.assert(x);
        for c in inst(&found, positions) {
            let t = self.cubes_term(&[c]);
            let n = self.s.terms.mk_not(t);
            self.s.assert(n);
        }
        loop {
            match self.s.check(&[]) {
                SatResult::Unsat => break,
                SatResult::Unknown => {
                    self.s.pop(1);
                    return Err(Exhausted::Timeout);
                }
                SatResult::Sat => {}
            }
            if found.len() >= room {
                self.s.pop(1);
                return Ok(None);
            }
            let (mut lits, _, mut vals) = self.path(target);
            let holds = |c: &&Vec<Atom>| {
                c.iter()
                    .all(|a| a.holds(&|x| vals.get(&x).copied().unwrap_or(0)))
            };
            if let Some(c) = extra.iter().find(holds) {
                lits.extend(c.iter().cloned());
            }
            // The positions as fresh ids, then every other id eliminated.
            let base = self.ids.len();
            for (j, p) in positions.iter().enumerate() {
                let v = p.eval(&|x| vals.get(&x).copied().unwrap_or(0));
                vals.insert(base + j, v);
                if let Ok(d) = Lin::var(base + j).sub(p) {
                    lits.push(Atom::eq0(d));
                }
            }
            let lits: Vec<Lit> = lits.into_iter().map(Lit::Lin).collect();
            let elim: Vec<Var> = (0..base).collect();
            let val = |x: Var| vals.get(&x).copied().unwrap_or(0);
            let cube = project(lits, &elim, &val)
                .map(|c| {
                    c.into_iter()
                        .filter_map(|l| l.map(|lin| Some(lin.rename(&|x| x - base))))
                        .collect::<Vec<_>>()
                })
                .unwrap_or_else(|| point(positions, &val));
            let cube = tighten(cube);
            let block = inst(&vec![cube.clone()], positions);
            let t = self.cubes_term(&block);
            let n = self.s.terms.mk_not(t);
            self.s.assert(n);
            found.push(cube);
        }
        self.s.pop(1);
        Ok(Some(found))
    }
}

/// The cube without duplicate literals and with one bound per linear form: of `t + k ≤ 0` and
/// `t + k' ≤ 0` only the one with the larger constant is kept. A cut cube is projected from its
/// callee's cut cube conjoined with the path, so without this its bounds pile up one pair per
/// depth (`id(x)`: `x ≥ 1 ∧ x ≥ 2 ∧ … ∧ x ≥ d`) and every query grows with the depth.
fn tighten(cube: Vec<Lit>) -> Vec<Lit> {
    let mut out: Vec<Lit> = Vec::with_capacity(cube.len());
    let mut bound: HashMap<BTreeMap<Var, i128>, usize> = HashMap::new();
    for l in cube {
        if let Lit::Lin(a) = &l {
            if !a.eq {
                if let Some(&i) = bound.get(&a.lin.coeffs) {
                    if let Some(Lit::Lin(b)) = out.get_mut(i) {
                        b.lin.konst = b.lin.konst.max(a.lin.konst);
                    }
                    continue;
                }
                bound.insert(a.lin.coeffs.clone(), out.len());
            }
        }
        if !out.contains(&l) {
            out.push(l);
        }
    }
    out
}

/// The model's values of the positions as a cube (when projection fails).
fn point(positions: &[Lin], val: &dyn Fn(Var) -> i128) -> Vec<Lit> {
    positions
        .iter()
        .enumerate()
        .map(|(j, p)| {
            let mut l = Lin::var(j);
            l.konst = -p.eval(val);
            Lit::Lin(Atom::eq0(l))
        })
        .collect()
}

/// The inputs of call `c` that lie in its callee's cut, as cubes over the caller's values at
/// `c.from` (`[[]]`: every input).
fn cut_cubes(e: &Enc, cfa: &Cfa, sums: &[Summary], c: usize) -> Option<Vec<Vec<Atom>>> {
    let call = cfa.calls.get(c)?;
    let v = e.vals.get(&call.from)?;
    let mut args: Vec<Lin> = call
        .args
        .iter()
        .map(|a| subst_args(a, v).unwrap_or_default())
        .collect();
    args.extend(
        cfa.globals
            .iter()
            .map(|&g| v.get(g).cloned().unwrap_or_default()),
    );
    Some(match sums.get(call.proc).and_then(|s| s.cut.as_ref()) {
        None => vec![Vec::new()],
        Some(cubes) => inst(cubes, &args),
    })
}

/// The ranges of a summarised function's unsigned parameters on entry: every call site converts
/// its argument to the parameter's type, which for an unsigned type wraps it into range (a
/// signed argument stays unbounded on mathematical integers, so it gets no range).
fn ranges(cfa: &Cfa, params: &[Var]) -> Vec<Atom> {
    let mut out = Vec::new();
    for &x in params {
        let Some(ty) = cfa.vars.get(x).map(|v| v.ty) else {
            continue;
        };
        if ty.signed {
            continue;
        }
        out.push(Atom::le0(
            Lin::var(x)
                .scale(-1)
                .unwrap_or_default()
                .add_const(ty.min())
                .unwrap_or_default(),
        ));
        out.push(Atom::le0(
            Lin::var(x).add_const(-ty.max()).unwrap_or_default(),
        ));
    }
    out
}

/// Re-validates the summaries of a complete depth `d` with fresh solvers. `S(p)` is `p`'s must
/// cubes, and any output for an input in its cut: outside `cut_d(p)` every call reaches callee
/// inputs outside `cut_{d−1} ⊇ cut_d`, where `must_d` is exact, so `S` is inductive — `p`'s body
/// with `S` at its calls ends in `S(p)` — and the entry function with `S` at its calls does not
/// reach the error. Both are checked; `Err` names what failed (a cube with a divisibility
/// literal is refused: calls do not encode them).
fn validate(
    cfa: &Cfa,
    main: &Region,
    bodies: &[Region],
    sums: &[Summary],
    budget: &Budget,
) -> Result<Result<Vec<Certified>, String>, Exhausted> {
    let mut cert: Vec<Summary> = Vec::new();
    for s in sums {
        let mut c = s.must.clone();
        match &s.cut {
            None => c.push(Vec::new()),
            Some(cut) => c.extend(cut.iter().cloned()),
        }
        if c.iter().flatten().any(|l| !matches!(l, Lit::Lin(_))) {
            return Ok(Err("a summary cube has a divisibility literal".into()));
        }
        cert.push(Summary {
            must: c,
            cut: Some(Vec::new()),
        });
    }
    let unsat = |e: &mut Enc, b: TermId| -> Result<bool, Exhausted> {
        match e.s.check(&[b]) {
            SatResult::Unsat => Ok(true),
            SatResult::Sat => Ok(false),
            SatResult::Unknown => Err(budget.check().err().unwrap_or(Exhausted::Timeout)),
        }
    };
    let mut out = Vec::new();
    for (p, body) in bodies.iter().enumerate() {
        let (Some(pr), Some(sp)) = (cfa.procs.get(p), cert.get(p)) else {
            continue;
        };
        let mut e = Enc::new(cfa, body, false, &ranges(cfa, &pr.params), budget)?;
        e.sync(&cert);
        e.scope(None);
        let exit_vals = e.vals.get(&pr.exit).cloned().unwrap_or_default();
        let inside = inst(&sp.must, &iface(cfa, p, &exit_vals));
        let t = e.cubes_term(&inside);
        let n = e.s.terms.mk_not(t);
        e.s.assert(n);
        if let Some(&b) = e.reach.get(&pr.exit) {
            if !unsat(&mut e, b)? {
                return Ok(Err(format!(
                    "the summary of `{}` is not inductive",
                    pr.name
                )));
            }
        }
        let mut names: Vec<String> = pr.in_params.iter().map(|&x| cfa.var_name(x)).collect();
        names.extend(pr.in_globals.iter().map(|&x| cfa.var_name(x)));
        names.extend(cfa.globals.iter().map(|&x| cfa.var_name(x)));
        names.extend(pr.ret.iter().map(|_| format!("{}()", pr.name)));
        let name = |j: Var| names.get(j).cloned().unwrap_or_else(|| format!("v{j}"));
        // Only linear literals are left (checked above).
        let dnf: Vec<Vec<Atom>> = sp
            .must
            .iter()
            .map(|c| {
                c.iter()
                    .filter_map(|l| match l {
                        Lit::Lin(a) => Some(a.clone()),
                        Lit::Mod(..) | Lit::NotMod(..) => None,
                    })
                    .collect()
            })
            .collect();
        out.push(Certified {
            name: pr.name.clone(),
            summary: show_dnf(&dnf, &name),
        });
    }
    let mut e = Enc::new(cfa, main, false, &[], budget)?;
    e.sync(&cert);
    e.scope(None);
    if let Some(&b) = e.reach.get(&cfa.error) {
        if !unsat(&mut e, b)? {
            return Ok(Err(
                "the entry function reaches the error with the summaries".into(),
            ));
        }
    }
    Ok(Ok(out))
}

/// Runs the summary iteration on an automaton lowered with procedure summaries.
pub(crate) fn summary_bmc(
    cfa: &Cfa,
    max_depth: usize,
    budget: &Budget,
) -> Result<SummaryResult, Exhausted> {
    if cfa.cuts != cfa.calls.len() {
        return Ok(SummaryResult::GaveUp(
            "a recursive call is cut without a summary".into(),
        ));
    }
    let main = match region(cfa, cfa.init, "main") {
        Ok(r) => r,
        Err(why) => return Ok(SummaryResult::GaveUp(why)),
    };
    let mut bodies = Vec::new();
    for p in &cfa.procs {
        let r = match region(cfa, p.entry, &p.name) {
            Ok(r) => r,
            Err(why) => return Ok(SummaryResult::GaveUp(why)),
        };
        if r.order.contains(&cfa.error) {
            return Ok(SummaryResult::GaveUp(format!(
                "`{}` calls reach_error (the summaries engine handles errors in the entry function)",
                p.name
            )));
        }
        bodies.push(r);
    }
    let calls_in = |r: &Region| -> Vec<usize> {
        (0..cfa.calls.len())
            .filter(|&c| cfa.calls.get(c).is_some_and(|c| r.order.contains(&c.from)))
            .collect()
    };
    let main_calls = calls_in(&main);
    let body_nondet = bodies.iter().any(|r| {
        cfa.edges
            .iter()
            .any(|e| matches!(e.op, Op::Havoc { nondet: true, .. }) && r.order.contains(&e.from))
    });
    let body_calls: Vec<Vec<usize>> = bodies.iter().map(calls_in).collect();
    let mut sums: Vec<Summary> = cfa
        .procs
        .iter()
        .map(|_| Summary {
            must: Vec::new(),
            cut: None,
        })
        .collect();
    // The cubes each summary gained at the last depth: a new execution at the next depth
    // passes through one of them (semi-naive iteration), so each query restricts one call to them.
    let mut delta: Vec<Cubes> = vec![Vec::new(); cfa.procs.len()];
    // A summary once truncated misses cubes for good (the semi-naive queries never look for them
    // again), so its inputs stay cut at every later depth.
    let mut truncated = vec![false; cfa.procs.len()];
    // One encoding per region and kind of query, kept across depths (each depth builds the
    // cubes the summaries gained): the entry function for the error and for the cut calls,
    // each body for its must and its cut summary.
    let mut main_err = Enc::new(cfa, &main, false, &[], budget)?;
    let mut main_cut = Enc::new(cfa, &main, true, &[], budget)?;
    let mut body_encs = Vec::new();
    for (p, body) in bodies.iter().enumerate() {
        let entry = cfa
            .procs
            .get(p)
            .map(|pr| ranges(cfa, &pr.params))
            .unwrap_or_default();
        body_encs.push((
            Enc::new(cfa, body, false, &entry, budget)?,
            Enc::new(cfa, body, true, &entry, budget)?,
        ));
    }
    for d in 0..=max_depth {
        budget.check()?;
        main_err.sync(&sums);
        main_cut.sync(&sums);
        for (m, c) in body_encs.iter_mut() {
            m.sync(&sums);
            c.sync(&sums);
        }
        // The entry function with the depth-d summaries: the error first.
        let mut queries: Vec<Option<(usize, &Cubes)>> = Vec::new();
        if d == 0 {
            queries.push(None);
        } else {
            for &c in &main_calls {
                if let Some(dl) = cfa.calls.get(c).and_then(|x| delta.get(x.proc)) {
                    if !dl.is_empty() {
                        queries.push(Some((c, dl)));
                    }
                }
            }
        }
        for only in queries {
            let e = &mut main_err;
            let Some(&b) = e.reach.get(&cfa.error) else {
                continue;
            };
            e.scope(only);
            let r = e.s.check(&[b]);
            let found = (r == SatResult::Sat).then(|| e.path(cfa.error));
            e.s.pop(1);
            match r {
                SatResult::Sat if body_nondet => {
                    return Ok(SummaryResult::GaveUp(format!("the error is reachable at call depth {d}, through a recursive function that calls __VERIFIER_nondet_* (its values are not read off the summaries)")));
                }
                SatResult::Sat => {
                    let (_, nds, vals) = found.unwrap_or_default();
                    let cex = nds
                        .into_iter()
                        .map(|(x, line)| (vals.get(&x).copied().unwrap_or(0), line))
                        .collect();
                    return Ok(SummaryResult::Counterexample(cex, d));
                }
                SatResult::Unknown => {
                    return Err(budget.check().err().unwrap_or(Exhausted::Timeout))
                }
                SatResult::Unsat => {}
            }
        }
        // Then a call with a cut input.
        let e = &mut main_cut;
        e.scope(None);
        let mut cuts = Vec::new();
        for &c in &main_calls {
            let (Some(cs), Some(&b)) = (
                cut_cubes(e, cfa, &sums, c),
                cfa.calls.get(c).and_then(|c| e.reach.get(&c.from)),
            ) else {
                continue;
            };
            let t = e.cubes_term(&cs);
            cuts.push(e.and(vec![b, t]));
        }
        let any = e.or(cuts);
        let r = e.s.check(&[any]);
        e.s.pop(1);
        match r {
            SatResult::Unsat => {
                return Ok(match validate(cfa, &main, &bodies, &sums, budget)? {
                    Ok(cert) => SummaryResult::Safe(d, cert),
                    Err(why) => SummaryResult::GaveUp(format!(
                        "complete at call depth {d}, but its summaries did not re-validate: {why}"
                    )),
                })
            }
            SatResult::Unknown => return Err(budget.check().err().unwrap_or(Exhausted::Timeout)),
            SatResult::Sat => {}
        }
        // The depth-(d+1) summaries from the depth-d ones.
        // Per procedure the cubes its must summary gains and its cut at the next depth (the
        // summaries are extended in place afterwards: they only grow).
        let mut next: Vec<(Cubes, Option<Cubes>)> = Vec::new();
        let mut next_delta = Vec::new();
        for (p, (body_must, body_cut)) in body_encs.iter_mut().enumerate() {
            let (Some(pr), Some(old)) = (cfa.procs.get(p), sums.get(p)) else {
                next.push((Vec::new(), None));
                next_delta.push(Vec::new());
                continue;
            };
            let mut queries: Vec<Option<(usize, &Cubes)>> = Vec::new();
            if d == 0 {
                queries.push(None);
            } else {
                for &c in body_calls.get(p).into_iter().flatten() {
                    if let Some(dl) = cfa.calls.get(c).and_then(|x| delta.get(x.proc)) {
                        if !dl.is_empty() {
                            queries.push(Some((c, dl)));
                        }
                    }
                }
            }
            let mut complete = true;
            let mut added: Cubes = Vec::new();
            for only in queries {
                let e = &mut *body_must;
                let exit_vals = e.vals.get(&pr.exit).cloned().unwrap_or_default();
                let positions = iface(cfa, p, &exit_vals);
                let room = MAX_CUBES.saturating_sub(old.must.len());
                e.scope(only);
                let r = e.enumerate(pr.exit, &positions, &[Vec::new()], added.clone(), room);
                e.s.pop(1);
                match r? {
                    None => {
                        complete = false;
                        break;
                    }
                    Some(found) => added = found,
                }
            }
            let fresh: Cubes = if complete {
                added
                    .into_iter()
                    .filter(|c| !old.must.contains(c))
                    .collect()
            } else {
                if let Some(t) = truncated.get_mut(p) {
                    *t = true;
                }
                Vec::new()
            };
            next_delta.push(fresh.clone());
            let e = &mut *body_cut;
            e.scope(None);
            let exact = !truncated.get(p).copied().unwrap_or(true);
            let mut cut = exact.then(Vec::new);
            for &c in body_calls.get(p).into_iter().flatten() {
                let Some(found) = cut.take() else { break };
                let (Some(from), Some(t)) = (
                    cfa.calls.get(c).map(|c| c.from),
                    cut_cubes(e, cfa, &sums, c),
                ) else {
                    cut = Some(found);
                    continue;
                };
                let fv = e.vals.get(&from).cloned().unwrap_or_default();
                let n_in = pr.in_params.len() + pr.in_globals.len();
                let pos: Vec<Lin> = iface(cfa, p, &fv).into_iter().take(n_in).collect();
                cut = match e.enumerate(from, &pos, &t, found, MAX_CUBES) {
                    Ok(c) => c,
                    Err(x) => {
                        e.s.pop(1);
                        return Err(x);
                    }
                };
            }
            e.s.pop(1);
            next.push((fresh, cut));
        }
        let mut changed = false;
        for ((fresh, cut), s) in next.into_iter().zip(sums.iter_mut()) {
            changed |= !fresh.is_empty() || cut != s.cut;
            s.must.extend(fresh);
            s.cut = cut;
        }
        if !changed {
            return Ok(SummaryResult::GaveUp(format!(
                "the summaries stopped changing at depth {d} with recursive calls still cut"
            )));
        }
        delta = next_delta;
    }
    Ok(SummaryResult::GaveUp(format!(
        "calls nest deeper than {max_depth} (prog.max-bound)"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfa::{Edge, IntTy, VarInfo};

    fn cfa(edges: &[(Loc, Loc)]) -> Cfa {
        Cfa {
            vars: vec![VarInfo {
                name: "x".into(),
                ty: IntTy::UINT,
                aux: false,
            }],
            nlocs: 6,
            init: 0,
            error: 4,
            cut: 5,
            edges: edges
                .iter()
                .map(|&(from, to)| Edge {
                    from,
                    to,
                    op: Op::Assume(Vec::new()),
                    line: 0,
                })
                .collect(),
            ..Cfa::default()
        }
    }

    #[test]
    fn regions_are_topologically_ordered_and_loops_refused() {
        let diamond = cfa(&[(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (1, 5)]);
        let r = region(&diamond, 0, "main").expect("loop-free");
        let pos = |l: Loc| r.order.iter().position(|&x| x == l).expect("in order");
        assert_eq!(r.order.first(), Some(&0));
        assert!(pos(1) < pos(3) && pos(2) < pos(3) && pos(3) < pos(4));
        // Edges into `cut` (a summarised call's stand-in) are not part of the region.
        assert!(!r.order.contains(&5));
        let looping = cfa(&[(0, 1), (1, 2), (2, 1), (2, 4)]);
        let e = region(&looping, 0, "f").err().expect("a loop");
        assert!(e.contains("a loop in `f`"), "{e}");
    }

    /// A complete depth's summaries re-validate; a summary too small (not inductive) or too
    /// large (the entry function then reaches the error) is rejected by name.
    #[test]
    fn summaries_revalidate_and_wrong_ones_are_rejected() {
        let text = "void reach_error(void);\nint __VERIFIER_nondet_int(void);\n\
            int f(int n) { if (n <= 0) return 0; return f(n - 1) + 1; }\n\
            int main(void) { int x = __VERIFIER_nondet_int(); if (x < 0 || x > 3) return 0;\n\
            if (f(x) > 3) reach_error(); return 0; }\n";
        let opts = crate::lower::LowerOptions {
            summaries: true,
            max_recursion: 1,
            ..crate::lower::LowerOptions::default()
        };
        let c = crate::load::lower_preprocessed(text, "t.c", opts).expect("lowers");
        let b = Budget::unlimited();
        match summary_bmc(&c, 100, &b) {
            Ok(SummaryResult::Safe(_, cert)) => {
                assert_eq!(cert.len(), 1);
                assert!(cert
                    .iter()
                    .all(|s| s.name == "f" && s.summary.contains("f()")));
            }
            _ => panic!("expected a proof"),
        }
        let main = region(&c, c.init, "main").expect("loop-free");
        let bodies: Vec<Region> = c
            .procs
            .iter()
            .map(|p| region(&c, p.entry, &p.name).expect("loop-free"))
            .collect();
        let with = |must: Cubes, cut: Option<Cubes>| {
            validate(&c, &main, &bodies, &[Summary { must, cut }], &b).expect("within budget")
        };
        // Nothing returns: `n ≤ 0` returns 0.
        let e = with(Vec::new(), Some(Vec::new()))
            .err()
            .expect("not inductive");
        assert!(e.contains("summary of `f` is not inductive"), "{e}");
        // Anything returns: then `f(x) > 3` is reachable.
        let e = with(Vec::new(), None).err().expect("too weak");
        assert!(e.contains("reaches the error"), "{e}");
    }

    #[test]
    fn unsigned_parameters_get_their_range() {
        let c = cfa(&[]);
        let r = ranges(&c, &[0]);
        assert_eq!(r.len(), 2);
        for (v, ok) in [
            (0, true),
            (u32::MAX as i128, true),
            (-1, false),
            (1 << 32, false),
        ] {
            assert_eq!(r.iter().all(|a| a.holds(&|_| v)), ok, "{v}");
        }
    }

    #[test]
    fn tighten_keeps_one_bound_per_linear_form() {
        // x ≥ 1, x ≤ 2^32 − 1, x ≥ 2, x ≤ 2^32, x = 5 twice: the tighter bounds and one x = 5.
        let le = |c: i128, k: i128| {
            let mut l = Lin::var(0).scale(c).expect("small");
            l.konst = k;
            Lit::Lin(Atom::le0(l))
        };
        let eq5 = Lit::Lin(Atom::eq0(Lin::var(0).add_const(-5).expect("small")));
        let cube = vec![
            le(-1, 1),
            le(1, -(1 << 32) + 1),
            le(-1, 2),
            le(1, -(1 << 32)),
            eq5.clone(),
            eq5.clone(),
        ];
        let t = tighten(cube.clone());
        assert_eq!(t, vec![le(-1, 2), le(1, -(1 << 32) + 1), eq5]);
        // The same set of integers: compare on a window around every constant.
        let holds = |c: &[Lit], v: i128| {
            c.iter().all(|l| match l {
                Lit::Lin(a) => a.holds(&|_| v),
                Lit::Mod(..) | Lit::NotMod(..) => true,
            })
        };
        for v in (-3..10).chain((1 << 32) - 3..(1 << 32) + 3) {
            assert_eq!(holds(&cube, v), holds(&t, v), "{v}");
        }
    }
}
