//! Property directed reachability for constrained Horn clauses, linear and nonlinear — K. Hoder,
//! N. Bjørner, "Generalized Property Directed Reachability", SAT 2012 (GPDR: per-predicate
//! frames of lemmas, proof obligations on a predicate at a level, a nonlinear clause
//! decomposed into one obligation per body predicate), with the must summaries of A.
//! Komuravelli, A. Gurfinkel, S. Chaki, "SMT-Based Model Checking for Recursive Programs", CAV
//! 2014 (Spacer: an obligation is first discharged against the under-approximation of what is
//! known to be derivable, then against the over-approximating frames).
//!
//! - A **frame** `F_k(P)` is the conjunction of the lemmas of `P` whose level is at least `k`; it
//!   over-approximates the facts of `P` derivable by derivations of height at most `k`.
//! - The **must summary** of `P` is the set of concrete facts derived so far, each with its clause,
//!   the clause's variable values and the facts of its body: a derivation tree.
//! - An **obligation** is a point of `P` at level `k`. It is reached when a clause derives it from
//!   known facts (the must query); otherwise a model of a clause with bodies in `F_{k-1}` gives a
//!   point of a body predicate that is not yet known (a child obligation at `k-1`); when every
//!   clause is unsatisfiable the point is blocked.
//! - **Generalisation** of a blocked point: the point is written as interval and octagon literals
//!   (`x ≤ v`, `x ≥ v`, `x ± y ≤ d`, …); the union of the unsat cores over the clauses (with the
//!   candidate itself excluded from the bodies of `P`, IC3's relative induction) keeps the literals
//!   that matter, then literals are dropped while the cube stays blocked, and the bounds of the rest
//!   are weakened as far as they stay blocked (exponential then binary search). The lemma is the
//!   negated cube.
//! - **Propagation** pushes a lemma from level `k` to `k+1` when it is blocked there; when no lemma
//!   is left at some level `k`, `F_{k+1}` is closed under every clause: the model.
//!
//! Queries go to `verikit-smt` (linear integer arithmetic), each a fresh solver polled by the
//! budget and counted as one unit of its work. The caller checks the model and the derivation independently (`horn_check`).

use crate::cfa::{Atom, Lin};
use crate::horn::HornSystem;
use crate::horn_cfa::{convert_clause, ClauseIr};
use crate::horn_check::ChcStep;
use crate::invariant_check::{atom, dnf, lin};
use std::collections::HashMap;
use verikit_diag::{Budget, Exhausted};
use verikit_smt::{SatResult, Solver, Sort, TermId, TermOp, Value};

/// Facts of a predicate offered to one must query (the most recent ones).
const MUST_CAP: usize = 256;
/// Integer arguments beyond which no octagon literals are generated.
const OCTAGON_MAX: usize = 12;

/// The result of the engine.
pub(crate) enum SpacerOutcome {
    /// Per predicate, the cubes whose negations make up its interpretation.
    Sat(Vec<Vec<Vec<Atom>>>),
    /// A derivation of `false`, facts in derivation order.
    Unsat(Vec<ChcStep>),
    /// The budget ran out at this level.
    Stopped(Exhausted, usize),
}

struct Lemma {
    cube: Vec<Atom>,
    level: usize,
}

struct Fact {
    clause: usize,
    vars: Vec<i128>,
    vals: Vec<i128>,
    children: Vec<usize>,
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Bodies among the known facts.
    Must,
    /// Bodies in the frames one level down (with the cube excluded from bodies of the head's
    /// predicate when `induct`).
    Frames { induct: bool },
}

enum Query {
    /// Indices of the cube literals in an unsat core.
    Unsat(Vec<usize>),
    /// A model: the body points, the head point and the clause's variables.
    Sat {
        body: Vec<Vec<i128>>,
        head: Vec<i128>,
        vars: Vec<i128>,
    },
}

struct Pdr<'a> {
    irs: Vec<ClauseIr>,
    decl_vars: Vec<usize>,
    heads: Vec<usize>,
    by_head: Vec<Vec<usize>>,
    bools: Vec<Vec<bool>>,
    lemmas: Vec<Vec<Lemma>>,
    facts: Vec<Fact>,
    facts_of: Vec<Vec<usize>>,
    known: HashMap<(usize, Vec<i128>), usize>,
    budget: &'a Budget,
}

fn int_of(v: Option<Value>) -> i128 {
    match v {
        Some(Value::Num(n)) => {
            let (p, _) = n.parts();
            p.to_string().parse::<i128>().unwrap_or(0)
        }
        Some(Value::Bool(b)) => i128::from(b),
        None => 0,
    }
}

fn and_all(s: &mut Solver, ts: Vec<TermId>) -> TermId {
    match ts.len() {
        0 => s.terms.mk_true(),
        1 => ts.into_iter().next().unwrap_or(TermId(0)),
        _ => s.terms.mk(TermOp::And, ts, Sort::Bool),
    }
}

/// The literals describing a point: bounds of each argument, and of sums and differences of
/// pairs of integer arguments.
fn point_literals(point: &[i128], bools: &[bool]) -> Vec<Atom> {
    let mut out = Vec::new();
    let mut push = |l: Result<Lin, crate::cfa::Overflow>| {
        if let Ok(l) = l {
            out.push(Atom::le0(l));
        }
    };
    for (i, &v) in point.iter().enumerate() {
        push(Lin::var(i).add_const(-v));
        push(Lin::var(i).scale(-1).and_then(|l| l.add_const(v)));
    }
    let ints: Vec<usize> = (0..point.len())
        .filter(|&i| !bools.get(i).copied().unwrap_or(false))
        .collect();
    if ints.len() <= OCTAGON_MAX {
        for (a, &i) in ints.iter().enumerate() {
            for &j in ints.iter().skip(a + 1) {
                let (vi, vj) = (point.get(i).copied(), point.get(j).copied());
                let (Some(vi), Some(vj)) = (vi, vj) else {
                    continue;
                };
                let d = Lin::var(i).sub(&Lin::var(j));
                let s = Lin::var(i).add(&Lin::var(j));
                if let (Ok(d), Some(dv)) = (d, vi.checked_sub(vj)) {
                    push(d.add_const(-dv));
                    push(d.scale(-1).and_then(|l| l.add_const(dv)));
                }
                if let (Ok(s), Some(sv)) = (s, vi.checked_add(vj)) {
                    push(s.add_const(-sv));
                    push(s.scale(-1).and_then(|l| l.add_const(sv)));
                }
            }
        }
    }
    out
}

impl Pdr<'_> {
    fn false_pred(&self) -> usize {
        self.bools.len() - 1
    }

    /// One query on clause `ci`: a head in `cube` at `level`.
    fn query(
        &self,
        ci: usize,
        cube: &[Atom],
        level: usize,
        mode: Mode,
    ) -> Result<Query, Exhausted> {
        self.budget.spend(1)?;
        let (Some(ir), Some(&head)) = (self.irs.get(ci), self.heads.get(ci)) else {
            return Ok(Query::Unsat(Vec::new()));
        };
        if level == 0 && !ir.body.is_empty() && mode != Mode::Must {
            return Ok(Query::Unsat(Vec::new()));
        }
        let mut s = Solver::new();
        s.set_budget(self.budget);
        let zero = s.terms.mk_const(verikit_num::Num::ZERO, Sort::Int);
        let vars: Vec<TermId> = (0..ir.nvars)
            .map(|i| s.declare(&format!("v{i}"), Sort::Int))
            .collect();
        let v = |x: usize| vars.get(x).copied().unwrap_or(zero);
        for part in &ir.parts {
            let t = dnf(&mut s, part, &v);
            s.assert(t);
        }
        let mut body_terms = Vec::new();
        for (q, args) in &ir.body {
            let at: Vec<TermId> = args.iter().map(|a| lin(&mut s, a, &v)).collect();
            let w = |x: usize| at.get(x).copied().unwrap_or(zero);
            match mode {
                Mode::Must => {
                    let fs = self.facts_of.get(*q).map(Vec::as_slice).unwrap_or(&[]);
                    let mut ors = Vec::new();
                    for &f in fs.iter().rev().take(MUST_CAP) {
                        let vals = self.facts.get(f).map(|f| f.vals.as_slice()).unwrap_or(&[]);
                        let mut eqs = Vec::new();
                        for (i, &k) in vals.iter().enumerate() {
                            let c = s.terms.mk_const(crate::invariant_check::num(k), Sort::Int);
                            eqs.push(s.terms.mk(TermOp::Eq, vec![w(i), c], Sort::Bool));
                        }
                        ors.push(and_all(&mut s, eqs));
                    }
                    let t = match ors.len() {
                        0 => return Ok(Query::Unsat(Vec::new())),
                        1 => ors.remove(0),
                        _ => s.terms.mk(TermOp::Or, ors, Sort::Bool),
                    };
                    s.assert(t);
                }
                Mode::Frames { induct } => {
                    for l in self.lemmas.get(*q).map(Vec::as_slice).unwrap_or(&[]) {
                        if l.level + 1 >= level {
                            let c: Vec<TermId> =
                                l.cube.iter().map(|a| atom(&mut s, a, &w)).collect();
                            let c = and_all(&mut s, c);
                            let n = s.terms.mk_not(c);
                            s.assert(n);
                        }
                    }
                    if induct && *q == head {
                        let c: Vec<TermId> = cube.iter().map(|a| atom(&mut s, a, &w)).collect();
                        let c = and_all(&mut s, c);
                        let n = s.terms.mk_not(c);
                        s.assert(n);
                    }
                }
            }
            body_terms.push(at);
        }
        let head_terms: Vec<TermId> = match &ir.head {
            Some((_, args)) => args.iter().map(|a| lin(&mut s, a, &v)).collect(),
            None => Vec::new(),
        };
        let h = |x: usize| head_terms.get(x).copied().unwrap_or(zero);
        let assumptions: Vec<TermId> = cube.iter().map(|a| atom(&mut s, a, &h)).collect();
        match s.check(&assumptions) {
            SatResult::Unsat => {
                let core = s.unsat_core();
                Ok(Query::Unsat(
                    assumptions
                        .iter()
                        .enumerate()
                        .filter(|(_, t)| core.contains(t))
                        .map(|(i, _)| i)
                        .collect(),
                ))
            }
            SatResult::Unknown => Err(self.budget.check().err().unwrap_or(Exhausted::Timeout)),
            SatResult::Sat => {
                let mut memo = HashMap::new();
                let mut val = |t: TermId| int_of(s.model_value(t, &mut memo));
                let body = body_terms
                    .iter()
                    .map(|at| at.iter().map(|&t| val(t)).collect())
                    .collect();
                let head = head_terms.iter().map(|&t| val(t)).collect();
                let nd = self.decl_vars.get(ci).copied().unwrap_or(0);
                let vars = vars.iter().take(nd).map(|&t| val(t)).collect();
                Ok(Query::Sat { body, head, vars })
            }
        }
    }

    /// Whether `cube` of `pred` is blocked at `level` (with relative induction); the union of
    /// the cores when it is.
    fn blocked(
        &self,
        pred: usize,
        cube: &[Atom],
        level: usize,
    ) -> Result<Option<Vec<usize>>, Exhausted> {
        let mut core: Vec<usize> = Vec::new();
        for &ci in self.by_head.get(pred).map(Vec::as_slice).unwrap_or(&[]) {
            match self.query(ci, cube, level, Mode::Frames { induct: true })? {
                Query::Unsat(c) => core.extend(c),
                Query::Sat { .. } => return Ok(None),
            }
        }
        core.sort_unstable();
        core.dedup();
        Ok(Some(core))
    }

    fn add_fact(
        &mut self,
        pred: usize,
        ci: usize,
        vars: Vec<i128>,
        vals: Vec<i128>,
        children: Vec<usize>,
    ) -> usize {
        if let Some(&f) = self.known.get(&(pred, vals.clone())) {
            return f;
        }
        let id = self.facts.len();
        self.known.insert((pred, vals.clone()), id);
        self.facts.push(Fact {
            clause: ci,
            vars,
            vals,
            children,
        });
        if let Some(v) = self.facts_of.get_mut(pred) {
            v.push(id);
        }
        id
    }

    /// A blocked point of `pred` at `level`, generalised to a cube.
    fn generalise(
        &self,
        pred: usize,
        point: &[i128],
        level: usize,
    ) -> Result<Vec<Atom>, Exhausted> {
        let bools = self.bools.get(pred).map(Vec::as_slice).unwrap_or(&[]);
        let lits = point_literals(point, bools);
        let Some(core) = self.blocked(pred, &lits, level)? else {
            // Not blocked with relative induction (cannot happen: it was blocked without); keep
            // the point itself.
            return Ok(lits);
        };
        let mut cube: Vec<Atom> = core.iter().filter_map(|&i| lits.get(i).cloned()).collect();
        // Drop literals.
        let mut i = 0;
        while i < cube.len() {
            self.budget.check()?;
            let mut cand = cube.clone();
            cand.remove(i);
            match self.blocked(pred, &cand, level)? {
                Some(core) => {
                    cube = core.iter().filter_map(|&k| cand.get(k).cloned()).collect();
                }
                None => i += 1,
            }
        }
        // Weaken bounds: `l + c ≤ 0` to `l + c - d ≤ 0` for the largest `d` still blocked.
        for i in 0..cube.len() {
            if cube.get(i).is_none_or(|a| a.eq) {
                continue;
            }
            let with = |d: i128| -> Option<Vec<Atom>> {
                let mut c = cube.clone();
                let a = c.get_mut(i)?;
                a.lin = a.lin.add_const(-d).ok()?;
                Some(c)
            };
            let mut good = 0i128;
            let mut bad: Option<i128> = None;
            let mut d = 1i128;
            while d <= 1 << 20 {
                let Some(c) = with(d) else { break };
                if self.blocked(pred, &c, level)?.is_some() {
                    good = d;
                    d *= 2;
                } else {
                    bad = Some(d);
                    break;
                }
            }
            if let Some(mut hi) = bad {
                while hi - good > 1 {
                    let mid = good + (hi - good) / 2;
                    let Some(c) = with(mid) else { break };
                    if self.blocked(pred, &c, level)?.is_some() {
                        good = mid;
                    } else {
                        hi = mid;
                    }
                }
            }
            if good > 0 {
                if let Some(c) = with(good) {
                    cube = c;
                }
            }
        }
        Ok(cube)
    }

    fn add_lemma(&mut self, pred: usize, cube: Vec<Atom>, level: usize) {
        let Some(ls) = self.lemmas.get_mut(pred) else {
            return;
        };
        if let Some(l) = ls.iter_mut().find(|l| l.cube == cube) {
            l.level = l.level.max(level);
            return;
        }
        ls.push(Lemma { cube, level });
    }

    /// Decides an obligation: `Some(fact)` when reached, `None` when blocked.
    fn solve(
        &mut self,
        pred: usize,
        point: Vec<i128>,
        level: usize,
    ) -> Result<Option<usize>, Exhausted> {
        let mut stack = vec![(pred, point, level)];
        while let Some((p, pt, k)) = stack.last().cloned() {
            self.budget.check()?;
            if let Some(&f) = self.known.get(&(p, pt.clone())) {
                stack.pop();
                if stack.is_empty() {
                    return Ok(Some(f));
                }
                continue;
            }
            let eqs: Vec<Atom> = pt
                .iter()
                .enumerate()
                .filter_map(|(i, &v)| Lin::var(i).add_const(-v).ok().map(Atom::eq0))
                .collect();
            let clauses = self.by_head.get(p).cloned().unwrap_or_default();
            let mut progressed = false;
            for &ci in &clauses {
                if let Query::Sat { body, head, vars } = self.query(ci, &eqs, k, Mode::Must)? {
                    let children = self.children(ci, &body);
                    if let Some(children) = children {
                        self.add_fact(p, ci, vars, head, children);
                        progressed = true;
                        break;
                    }
                }
            }
            if progressed {
                continue;
            }
            for &ci in &clauses {
                if let Query::Sat { body, head, vars } =
                    self.query(ci, &eqs, k, Mode::Frames { induct: false })?
                {
                    let preds: Vec<usize> = self
                        .irs
                        .get(ci)
                        .map(|ir| ir.body.iter().map(|b| b.0).collect())
                        .unwrap_or_default();
                    let unknown = preds
                        .iter()
                        .zip(&body)
                        .find(|(q, b)| !self.known.contains_key(&(**q, (*b).clone())));
                    match unknown {
                        Some((&q, b)) => stack.push((q, b.clone(), k.saturating_sub(1))),
                        None => {
                            if let Some(children) = self.children(ci, &body) {
                                self.add_fact(p, ci, vars, head, children);
                            }
                        }
                    }
                    progressed = true;
                    break;
                }
            }
            if progressed {
                continue;
            }
            let cube = self.generalise(p, &pt, k)?;
            self.add_lemma(p, cube, k);
            stack.pop();
            if stack.is_empty() {
                return Ok(None);
            }
        }
        Ok(None)
    }

    /// The known facts of a clause's body points (`None` if one is not known).
    fn children(&self, ci: usize, body: &[Vec<i128>]) -> Option<Vec<usize>> {
        let ir = self.irs.get(ci)?;
        ir.body
            .iter()
            .zip(body)
            .map(|((q, _), b)| self.known.get(&(*q, b.clone())).copied())
            .collect()
    }

    /// Pushes lemmas up to `n`; `Some(k)` when `F_k` is closed under the clauses.
    fn propagate(&mut self, n: usize) -> Result<Option<usize>, Exhausted> {
        let fp = self.false_pred();
        for k in 0..n {
            for p in 0..self.lemmas.len() {
                for li in 0..self.lemmas.get(p).map(Vec::len).unwrap_or(0) {
                    let Some(l) = self.lemmas.get(p).and_then(|ls| ls.get(li)) else {
                        continue;
                    };
                    if l.level != k {
                        continue;
                    }
                    let cube = l.cube.clone();
                    if self.blocked(p, &cube, k + 1)?.is_some() {
                        if let Some(l) = self.lemmas.get_mut(p).and_then(|ls| ls.get_mut(li)) {
                            l.level = k + 1;
                        }
                    }
                }
            }
            let left = self
                .lemmas
                .iter()
                .enumerate()
                .any(|(p, ls)| p != fp && ls.iter().any(|l| l.level == k));
            if !left {
                return Ok(Some(k + 1));
            }
        }
        Ok(None)
    }

    /// The derivation of fact `root` in an order where every body fact comes first.
    fn derivation(&self, root: usize) -> Vec<ChcStep> {
        let mut seen = vec![false; self.facts.len()];
        let mut out = Vec::new();
        let mut stack = vec![(root, false)];
        while let Some((f, done)) = stack.pop() {
            let Some(fact) = self.facts.get(f) else {
                continue;
            };
            if done {
                out.push(ChcStep {
                    clause: fact.clause,
                    vars: fact.vars.clone(),
                    fact: fact.vals.clone(),
                });
                continue;
            }
            if seen.get(f).copied().unwrap_or(true) {
                continue;
            }
            if let Some(s) = seen.get_mut(f) {
                *s = true;
            }
            stack.push((f, true));
            for &c in fact.children.iter().rev() {
                stack.push((c, false));
            }
        }
        out
    }
}

/// Runs the engine on a system of Horn clauses.
pub(crate) fn spacer(
    sys: &HornSystem,
    text: &str,
    budget: &Budget,
) -> Result<SpacerOutcome, crate::error::ProgError> {
    let npreds = sys.preds.len();
    let mut irs = Vec::new();
    let mut heads = Vec::new();
    let mut by_head = vec![Vec::new(); npreds + 1];
    for (ci, c) in sys.clauses.iter().enumerate() {
        let ir = convert_clause(sys, c, text, 0)?;
        let h = ir.head.as_ref().map(|(p, _)| *p).unwrap_or(npreds);
        heads.push(h);
        if let Some(v) = by_head.get_mut(h) {
            v.push(ci);
        }
        irs.push(ir);
    }
    let mut bools: Vec<Vec<bool>> = sys.preds.iter().map(|p| p.bools.clone()).collect();
    bools.push(Vec::new());
    let mut pdr = Pdr {
        decl_vars: sys.clauses.iter().map(|c| c.vars.len()).collect(),
        irs,
        heads,
        by_head,
        bools,
        lemmas: (0..=npreds).map(|_| Vec::new()).collect(),
        facts: Vec::new(),
        facts_of: vec![Vec::new(); npreds + 1],
        known: HashMap::new(),
        budget,
    };
    let mut n = 0usize;
    loop {
        match pdr.solve(npreds, Vec::new(), n) {
            Ok(Some(f)) => return Ok(SpacerOutcome::Unsat(pdr.derivation(f))),
            Ok(None) => {}
            Err(e) => return Ok(SpacerOutcome::Stopped(e, n)),
        }
        match pdr.propagate(n) {
            Ok(Some(k)) => {
                let model = pdr
                    .lemmas
                    .iter()
                    .take(npreds)
                    .map(|ls| {
                        ls.iter()
                            .filter(|l| l.level >= k)
                            .map(|l| l.cube.clone())
                            .collect()
                    })
                    .collect();
                return Ok(SpacerOutcome::Sat(model));
            }
            Ok(None) => {}
            Err(e) => return Ok(SpacerOutcome::Stopped(e, n)),
        }
        n += 1;
    }
}
