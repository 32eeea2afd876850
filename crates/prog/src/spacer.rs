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
//! - A **must summary** of `P` is a cube every point of which is derivable: the model-based
//!   projection (`mbp`) of a clause's constraint (the disjunct of each part true in the query's
//!   model) and of its body applications' must summaries onto the head's arguments, with its
//!   clause and the facts of its body (CAV 2014 §4: symbolic, not a concrete point). An `unsat`
//!   answer is concretised top-down: the query's clause is solved with its body applications in
//!   their summaries, which gives each child a point, and so on down to the clauses without
//!   body applications; the concrete derivation tree is what `horn_check` re-checks.
//! - An **obligation** is a cube of `P` at level `k`, with a point of it. It is reached when a
//!   clause derives a point of it from must summaries (the must query); otherwise a model of a
//!   clause with bodies in `F_{k-1}` is taken, its body applications are covered by must
//!   summaries from the first on as long as the query stays satisfiable with them, and the first
//!   application left uncovered gets a child obligation at `k-1`: the projection of the clause,
//!   the cube, the must summaries of the applications before it and the may summaries (lemmas)
//!   of those after it onto its arguments (one body predicate at a time, CAV 2014 §4). When
//!   every clause is unsatisfiable the cube is blocked.
//! - **Generalisation** of a blocked cube: its point is written as interval and octagon literals
//!   (`x ≤ v`, `x ≥ v`, `x ± y ≤ d`, …; a Boolean argument as one literal, `b ≤ 0` or `b ≥ 1`); the union of the unsat cores over the clauses (with the
//!   candidate itself excluded from the bodies of `P`, IC3's relative induction) keeps the literals
//!   that matter, then literals are dropped while the cube stays blocked, and the bounds of the rest
//!   are weakened as far as they stay blocked (exponential then binary search). The lemma is the
//!   negated cube.
//! - **Global guidance** (Vediramana Krishnan et al., CAV 2020): a new lemma that joins a
//!   cluster of lemmas differing only in constants is followed by one lemma for the whole cluster
//!   when `global_guidance`'s subsume candidate is blocked (a congruence, or the sum of two
//!   bounds whose constants move together); when the cluster enumerates one bound, the
//!   obligation without that bound is conjectured (the conjecture rule) and kept if blocked.
//!   Equalities of an obligation that pin one argument are split into two bounds before
//!   generalisation (as z3's Spacer does), so each side can be dropped or weakened.
//! - **Propagation** pushes a lemma from level `k` to `k+1` when it is blocked there; when no lemma
//!   is left at some level `k`, `F_{k+1}` is closed under every clause: the model.
//!
//! Queries go to `verikit-smt` (linear integer arithmetic): one incremental solver per clause
//! (its constraint asserted once, lemmas under activation literals, rebuilt every
//! `RESET_QUERIES` queries), polled by the budget, each query counted as one unit of its work.
//! Points are described with congruences modulo 2 and the divisors of the clauses' `div`/`mod`
//! terms; obligations also carry `t mod m = r` and `t mod m ≠ r` from the projection of those
//! terms' quotients and remainders (`mbp::project_congruent`). The caller checks the model and
//! the derivation independently (`horn_check`).

use crate::cfa::{Atom, Lin, Var};
use crate::global_guidance::{conjecture_candidate, subsume_candidates};
use crate::horn::HornSystem;
use crate::horn_cfa::{convert_clause, ClauseIr};
use crate::horn_check::ChcStep;
use crate::invariant_check::{atom, dnf, lin};
use crate::mbp::{project_congruent, subst_args, Lit};
use crate::path_interp::{interpolant, Lp};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use verikit_diag::{Budget, Exhausted};
use verikit_num::exact_lp::Feasibility;
use verikit_num::Num;
use verikit_smt::{SatResult, Solver, Sort, TermId, TermOp, Value};

/// Facts of a predicate offered to one must query (the most recent ones).
const MUST_CAP: usize = 256;
/// Integer arguments beyond which no octagon literals are generated.
const OCTAGON_MAX: usize = 12;

/// Queries after which a clause's incremental solver is built afresh (the atoms of old cubes
/// stay in a solver and slow it down).
const RESET_QUERIES: usize = 30;

/// Most moduli of congruence literals describing a point (`x mod m = v mod m`): 2 and the
/// smallest divisors of the system's `div`/`mod` terms.
const MAX_MODULI: usize = 4;
/// Most nodes of a derivation tree read from the must summaries.
const MAX_DERIVATION: usize = 100_000;
/// Largest modulus of a congruence literal.
const MODULUS_MAX: i128 = 64;

fn lit_term(s: &mut Solver, l: &Lit, v: &dyn Fn(Var) -> TermId) -> TermId {
    match l {
        Lit::Lin(a) => atom(s, a, v),
        Lit::Mod(l, m, r) => {
            let t = lin(s, l, v);
            let mc = s.terms.mk_const(Num::integer(*m), Sort::Int);
            let md = s.terms.mk(TermOp::Mod, vec![t, mc], Sort::Int);
            let rc = s.terms.mk_const(Num::integer(*r), Sort::Int);
            s.terms.mk(TermOp::Eq, vec![md, rc], Sort::Bool)
        }
        Lit::NotMod(l, m, r) => {
            let eq = lit_term(s, &Lit::Mod(l.clone(), *m, *r), v);
            s.terms.mk_not(eq)
        }
    }
}

/// The result of the engine.
pub(crate) enum SpacerOutcome {
    /// Per predicate, the cubes whose negations make up its interpretation.
    Sat(Vec<Vec<Vec<Lit>>>),
    /// A derivation of `false`, facts in derivation order.
    Unsat(Vec<ChcStep>),
    /// The budget ran out at this level.
    Stopped(Exhausted, usize, SpacerStats),
    /// The engine could not produce its witness (the reason).
    Failed(String),
}

/// Sizes of a run that stopped: lemmas, must facts and queries made.
pub(crate) struct SpacerStats {
    pub(crate) lemmas: usize,
    pub(crate) facts: usize,
    pub(crate) queries: usize,
}

struct Lemma {
    cube: Vec<Lit>,
    level: usize,
}

/// The first body application of a query's model not covered by a must summary: its
/// position, the must summaries covering the applications before it, and its point.
struct Uncovered<'m> {
    pos: usize,
    known: &'m [usize],
    point: &'m [i128],
}

/// A clause solved with its head at a point: its declared variables and its body points.
type Replayed = (Vec<i128>, Vec<Vec<i128>>);

/// A must summary: a cube of the predicate's arguments every point of which is derivable by
/// `clause` from points of the `children` facts (one per body application).
struct Fact {
    clause: usize,
    cube: Vec<Lit>,
    children: Vec<usize>,
}

/// Where the body applications of a query range: those before position `must` among the
/// must summaries, the others in the frames one level down (with the cube excluded from
/// bodies of the head's predicate when `induct`: relative induction).
#[derive(Clone, Copy, PartialEq)]
struct Mode {
    must: usize,
    induct: bool,
}

impl Mode {
    /// Every body application among the must summaries.
    const MUST: Mode = Mode {
        must: usize::MAX,
        induct: false,
    };
    /// Every body application in the frames.
    fn frames(induct: bool) -> Mode {
        Mode { must: 0, induct }
    }
}

enum Query {
    /// Indices of the cube literals in an unsat core.
    Unsat(Vec<usize>),
    /// A model: the body points, the head point and the values of all the clause's variables
    /// (auxiliary ones too).
    Sat {
        body: Vec<Vec<i128>>,
        head: Vec<i128>,
        all: Vec<i128>,
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
    solvers: RefCell<Vec<Option<ClauseSolver>>>,
    queries: Cell<usize>,
    moduli: Vec<i128>,
    budget: &'a Budget,
}

/// The incremental solver of one clause: its constraint asserted once, each lemma of a body
/// predicate asserted once per body position under an activation literal (assumed when the
/// lemma belongs to the queried frame), the rest of a query (cube, facts, the excluded cube of
/// relative induction) as assumptions or in a scope popped afterwards.
struct ClauseSolver {
    s: Solver,
    zero: TermId,
    vars: Vec<TermId>,
    body: Vec<Vec<TermId>>,
    head: Vec<TermId>,
    acts: HashMap<(usize, usize), TermId>,
    queries: usize,
}

impl ClauseSolver {
    fn new(ir: &ClauseIr, budget: &Budget) -> ClauseSolver {
        let mut s = Solver::new();
        s.set_budget(budget);
        let zero = s.terms.mk_const(Num::ZERO, Sort::Int);
        let vars: Vec<TermId> = (0..ir.nvars)
            .map(|i| s.declare(&format!("v{i}"), Sort::Int))
            .collect();
        let v = |x: usize| vars.get(x).copied().unwrap_or(zero);
        for part in &ir.parts {
            let t = dnf(&mut s, part, &v);
            s.assert(t);
        }
        let body = ir
            .body
            .iter()
            .map(|(_, args)| args.iter().map(|a| lin(&mut s, a, &v)).collect())
            .collect();
        let head = match &ir.head {
            Some((_, args)) => args.iter().map(|a| lin(&mut s, a, &v)).collect(),
            None => Vec::new(),
        };
        ClauseSolver {
            s,
            zero,
            vars,
            body,
            head,
            acts: HashMap::new(),
            queries: 0,
        }
    }

    /// The values of the clause's variables in the last model.
    fn model_vars(&self) -> Vec<i128> {
        let mut memo = HashMap::new();
        self.vars
            .iter()
            .map(|&t| int_of(self.s.model_value(t, &mut memo)))
            .collect()
    }

    /// `cube` over the arguments of body position `j`.
    fn cube(&mut self, j: usize, cube: &[Lit]) -> TermId {
        let args = self.body.get(j).cloned().unwrap_or_default();
        let zero = self.zero;
        let w = |x: usize| args.get(x).copied().unwrap_or(zero);
        let c: Vec<TermId> = cube.iter().map(|a| lit_term(&mut self.s, a, &w)).collect();
        and_all(&mut self.s, c)
    }

    /// `¬cube` over the arguments of body position `j`.
    fn not_cube(&mut self, j: usize, cube: &[Lit]) -> TermId {
        let c = self.cube(j, cube);
        self.s.terms.mk_not(c)
    }

    /// The activation literal of lemma `li` at body position `j` (asserting `act → ¬cube` the
    /// first time).
    fn lemma_act(&mut self, j: usize, li: usize, cube: &[Lit]) -> TermId {
        if let Some(&a) = self.acts.get(&(j, li)) {
            return a;
        }
        let a = self.s.declare(&format!("act{j}_{li}"), Sort::Bool);
        let n = self.not_cube(j, cube);
        let na = self.s.terms.mk_not(a);
        let t = self.s.terms.mk(TermOp::Or, vec![na, n], Sort::Bool);
        self.s.assert(t);
        self.acts.insert((j, li), a);
        a
    }
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

/// The literals describing a point: a Boolean argument as one literal (`b ≤ 0` for false,
/// `b ≥ 1` for true), bounds of each integer argument, and of sums and differences of pairs of
/// integer arguments.
fn point_literals(point: &[i128], bools: &[bool], moduli: &[i128]) -> Vec<Lit> {
    let mut out = Vec::new();
    let mut push = |l: Result<Lin, crate::cfa::Overflow>| {
        if let Ok(l) = l {
            out.push(Lit::Lin(Atom::le0(l)));
        }
    };
    for (i, &v) in point.iter().enumerate() {
        let is_bool = bools.get(i).copied().unwrap_or(false);
        if !is_bool || v <= 0 {
            push(Lin::var(i).add_const(-v));
        }
        if !is_bool || v > 0 {
            push(Lin::var(i).scale(-1).and_then(|l| l.add_const(v)));
        }
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
    for (i, &v) in point.iter().enumerate() {
        if bools.get(i).copied().unwrap_or(false) {
            continue;
        }
        for &m in moduli {
            out.push(Lit::Mod(Lin::var(i), m, v.rem_euclid(m)));
        }
    }
    out
}

impl Pdr<'_> {
    fn false_pred(&self) -> usize {
        self.bools.len() - 1
    }

    /// One query on clause `ci`: a head in `cube` at `level`, on the clause's incremental
    /// solver (built on first use, rebuilt after `RESET_QUERIES` queries).
    fn query(&self, ci: usize, cube: &[Lit], level: usize, mode: Mode) -> Result<Query, Exhausted> {
        self.budget.spend(1)?;
        self.queries.set(self.queries.get() + 1);
        let (Some(ir), Some(&head)) = (self.irs.get(ci), self.heads.get(ci)) else {
            return Ok(Query::Unsat(Vec::new()));
        };
        if level == 0 && ir.body.len() > mode.must {
            return Ok(Query::Unsat(Vec::new()));
        }
        let mut solvers = self.solvers.borrow_mut();
        let Some(slot) = solvers.get_mut(ci) else {
            return Ok(Query::Unsat(Vec::new()));
        };
        if slot.as_ref().is_none_or(|c| c.queries >= RESET_QUERIES) {
            *slot = Some(ClauseSolver::new(ir, self.budget));
        }
        let Some(cs) = slot.as_mut() else {
            return Ok(Query::Unsat(Vec::new()));
        };
        cs.queries += 1;
        if ir
            .body
            .iter()
            .take(mode.must)
            .any(|(q, _)| self.facts_of.get(*q).is_none_or(Vec::is_empty))
        {
            return Ok(Query::Unsat(Vec::new()));
        }
        // The lemmas' activation literals first, each `act → ¬cube` asserted at the base
        // level (asserted inside the query's scope it would be popped while its literal stays
        // recorded as asserted).
        let mut assumptions = Vec::new();
        for (j, (q, _)) in ir.body.iter().enumerate().skip(mode.must) {
            let ls = self.lemmas.get(*q).map(Vec::as_slice).unwrap_or(&[]);
            for (li, l) in ls.iter().enumerate() {
                if l.level + 1 >= level {
                    assumptions.push(cs.lemma_act(j, li, &l.cube));
                }
            }
        }
        let mut scoped = false;
        for (j, (q, _)) in ir.body.iter().enumerate() {
            let t = if j < mode.must {
                let fs = self.facts_of.get(*q).map(Vec::as_slice).unwrap_or(&[]);
                let mut ors = Vec::new();
                for &f in fs.iter().rev().take(MUST_CAP) {
                    let cube = self.facts.get(f).map(|f| f.cube.as_slice()).unwrap_or(&[]);
                    let c = cs.cube(j, cube);
                    ors.push(c);
                }
                match ors.len() {
                    0 | 1 => and_all(&mut cs.s, ors),
                    _ => cs.s.terms.mk(TermOp::Or, ors, Sort::Bool),
                }
            } else if mode.induct && *q == head {
                cs.not_cube(j, cube)
            } else {
                continue;
            };
            if !scoped {
                cs.s.push();
                scoped = true;
            }
            cs.s.assert(t);
        }
        let first_cube = assumptions.len();
        for l in cube {
            let t = {
                let hs = cs.head.clone();
                let zero = cs.zero;
                let h = |x: usize| hs.get(x).copied().unwrap_or(zero);
                lit_term(&mut cs.s, l, &h)
            };
            assumptions.push(t);
        }
        let r = cs.s.check(&assumptions);
        let out = match r {
            SatResult::Unsat => {
                let core = cs.s.unsat_core();
                Ok(Query::Unsat(
                    assumptions
                        .iter()
                        .skip(first_cube)
                        .enumerate()
                        .filter(|(_, t)| core.contains(t))
                        .map(|(i, _)| i)
                        .collect(),
                ))
            }
            SatResult::Unknown => Err(self.budget.check().err().unwrap_or(Exhausted::Timeout)),
            SatResult::Sat => {
                let all = cs.model_vars();
                let (body, head) = args_at(ir, &all);
                Ok(Query::Sat { body, head, all })
            }
        };
        if scoped {
            cs.s.pop(1);
        }
        out
    }

    /// Whether `cube` of `pred` is blocked at `level` (with relative induction); the union of
    /// the cores when it is.
    fn blocked(
        &self,
        pred: usize,
        cube: &[Lit],
        level: usize,
    ) -> Result<Option<Vec<usize>>, Exhausted> {
        let mut core: Vec<usize> = Vec::new();
        for &ci in self.by_head.get(pred).map(Vec::as_slice).unwrap_or(&[]) {
            match self.query(ci, cube, level, Mode::frames(true))? {
                Query::Unsat(c) => core.extend(c),
                Query::Sat { .. } => return Ok(None),
            }
        }
        core.sort_unstable();
        core.dedup();
        Ok(Some(core))
    }

    /// Records a must summary of `pred` (an identical cube is not added twice).
    fn add_fact(&mut self, pred: usize, ci: usize, cube: Vec<Lit>, children: Vec<usize>) -> usize {
        let fs = self.facts_of.get(pred).map(Vec::as_slice).unwrap_or(&[]);
        if let Some(&f) = fs
            .iter()
            .find(|&&f| self.facts.get(f).is_some_and(|x| x.cube == cube))
        {
            return f;
        }
        let id = self.facts.len();
        self.facts.push(Fact {
            clause: ci,
            cube,
            children,
        });
        if let Some(v) = self.facts_of.get_mut(pred) {
            v.push(id);
        }
        id
    }

    /// A must summary of `pred` containing `point` (the most recent first).
    fn fact_of(&self, pred: usize, point: &[i128]) -> Option<usize> {
        let at = |x: Var| point.get(x).copied().unwrap_or(0);
        self.facts_of.get(pred)?.iter().rev().copied().find(|&f| {
            self.facts
                .get(f)
                .is_some_and(|x| x.cube.iter().all(|l| l.holds(&at)))
        })
    }

    /// The literals of clause `ci` that hold in the model `all` (one disjunct per part), over
    /// the clause's variables.
    fn model_disjuncts(&self, ci: usize, all: &[i128]) -> Option<Vec<Lit>> {
        let ir = self.irs.get(ci)?;
        let val = |x: Var| all.get(x).copied().unwrap_or(0);
        let mut lits = Vec::new();
        for part in &ir.parts {
            let conj = part.iter().find(|c| c.iter().all(|a| a.holds(&val)))?;
            lits.extend(conj.iter().cloned().map(Lit::Lin));
        }
        Some(lits)
    }

    /// `cube` (over the arguments of body position `j` of clause `ci`) over the clause's
    /// variables.
    fn body_cube(&self, ci: usize, j: usize, cube: &[Lit]) -> Option<Vec<Lit>> {
        let args = &self.irs.get(ci)?.body.get(j)?.1;
        cube.iter()
            .map(|l| l.map(|x| subst_args(x, args)))
            .collect()
    }

    /// The must summary of the head of clause `ci` from a model `all` of its must query whose
    /// body points lie in the facts `children`: the model-based projection of the clause's
    /// constraint (the disjunct of each part true in the model) and of the children's cubes
    /// onto the head's arguments — every point of it is derivable from points of the
    /// children (CAV 2014 §4, a symbolic must summary). The head point alone when the
    /// projection fails.
    fn must_cube(&self, ci: usize, all: &[i128], head: &[i128], children: &[usize]) -> Vec<Lit> {
        let point = || point_cube(head);
        let Some(ir) = self.irs.get(ci) else {
            return point();
        };
        let Some(mut lits) = self.model_disjuncts(ci, all) else {
            return point();
        };
        for (j, &f) in children.iter().enumerate() {
            let cube = self.facts.get(f).map(|f| f.cube.as_slice()).unwrap_or(&[]);
            match self.body_cube(ci, j, cube) {
                Some(c) => lits.extend(c),
                None => return point(),
            }
        }
        let hargs: &[Lin] = ir.head.as_ref().map(|h| h.1.as_slice()).unwrap_or(&[]);
        self.project_onto(ir.nvars, lits, hargs, all, head)
            .unwrap_or_else(point)
    }

    /// Projects `lits` (over the `n` clause variables, true in `all`) onto the arguments
    /// `args` (whose values are `point`): the result is over argument positions and contains
    /// `point`.
    fn project_onto(
        &self,
        n: usize,
        mut lits: Vec<Lit>,
        args: &[Lin],
        all: &[i128],
        point: &[i128],
    ) -> Option<Vec<Lit>> {
        for (i, t) in args.iter().enumerate() {
            lits.push(Lit::Lin(Atom::eq0(Lin::var(n + i).sub(t).ok()?)));
        }
        let val = |x: Var| {
            if x < n {
                all.get(x).copied().unwrap_or(0)
            } else {
                point.get(x - n).copied().unwrap_or(0)
            }
        };
        let elim: Vec<Var> = (0..n).collect();
        let p = project_congruent(lits, &elim, &val)?;
        let p: Vec<Lit> = p
            .iter()
            .map(|l| l.map(|x| Some(x.rename(&|v| v.saturating_sub(n)))))
            .collect::<Option<Vec<_>>>()?;
        let at = |x: Var| point.get(x).copied().unwrap_or(0);
        p.iter().all(|l| l.holds(&at)).then_some(p)
    }

    /// A blocked point of `pred` at `level`, generalised to a cube.
    fn generalise(
        &self,
        pred: usize,
        obligation: &[Lit],
        point: &[i128],
        level: usize,
    ) -> Result<Vec<Lit>, Exhausted> {
        let bools = self.bools.get(pred).map(Vec::as_slice).unwrap_or(&[]);
        let mut lits = split_equalities(obligation);
        for l in point_literals(point, bools, &self.moduli) {
            if !lits.contains(&l) {
                lits.push(l);
            }
        }
        let Some(mut cube) = self.shrink(pred, &lits, level)? else {
            // Not blocked with relative induction (cannot happen: it was blocked without); keep
            // the point itself.
            return Ok(lits);
        };
        // Congruence literals alone (a parity lemma): the cores above rarely keep them, since
        // the bounds of the point refute the clauses as well.
        let mods: Vec<Lit> = lits
            .iter()
            .filter(|l| matches!(l, Lit::Mod(..) | Lit::NotMod(..)))
            .cloned()
            .collect();
        if !mods.is_empty() && cube.iter().any(|l| matches!(l, Lit::Lin(_))) {
            if let Some(core) = self.blocked(pred, &mods, level)? {
                let c: Vec<Lit> = core.iter().filter_map(|&k| mods.get(k).cloned()).collect();
                if !c.is_empty() && self.blocked(pred, &c, level)?.is_some() {
                    return Ok(c);
                }
                return Ok(mods);
            }
        }
        // A lemma from the Farkas certificates of the clauses' refutations of the cube.
        if let Some(c) = self.farkas(pred, &cube, level)? {
            return Ok(c);
        }
        // Weaken bounds: `l + c ≤ 0` to `l + c - d ≤ 0` for the largest `d` still blocked.
        let is_bool = |x: &Var| bools.get(*x).copied().unwrap_or(false);
        for i in 0..cube.len() {
            // Bounds over Boolean arguments alone are literals already.
            if !matches!(cube.get(i), Some(Lit::Lin(a)) if !a.eq && !a.lin.coeffs.keys().all(is_bool))
            {
                continue;
            }
            let with = |d: i128| -> Option<Vec<Lit>> {
                let mut c = cube.clone();
                if let Some(Lit::Lin(a)) = c.get_mut(i) {
                    a.lin = a.lin.add_const(-d).ok()?;
                }
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

    /// `lits` reduced to the union of its unsat cores, then literals dropped while it stays
    /// blocked at `level` (relative induction); `None` when `lits` is not blocked.
    fn shrink(
        &self,
        pred: usize,
        lits: &[Lit],
        level: usize,
    ) -> Result<Option<Vec<Lit>>, Exhausted> {
        let Some(core) = self.blocked(pred, lits, level)? else {
            return Ok(None);
        };
        let mut cube: Vec<Lit> = core.iter().filter_map(|&i| lits.get(i).cloned()).collect();
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
        Ok(Some(cube))
    }

    /// The cubes of the lemmas of `pred` (a cluster's candidates).
    fn lemma_cubes(&self, pred: usize) -> Vec<&[Lit]> {
        self.lemmas
            .get(pred)
            .map(|ls| ls.iter().map(|l| l.cube.as_slice()).collect())
            .unwrap_or_default()
    }

    /// Global guidance's conjecture rule (`global_guidance`): when the new lemma `new` of
    /// `pred` joins a cluster of lemmas whose constants vary, the obligation it came from
    /// without its literals on the varying terms, shrunk, when that is blocked at `level`.
    fn conjecture(
        &self,
        pred: usize,
        obligation: &[Lit],
        new: &[Lit],
        level: usize,
    ) -> Result<Option<Vec<Lit>>, Exhausted> {
        let others = self.lemma_cubes(pred);
        match conjecture_candidate(new, &others, obligation) {
            Some(cand) => self.shrink(pred, &cand, level),
            None => Ok(None),
        }
    }

    /// Interpolation by Farkas' lemma (Spacer's lemma generalisation): for each clause deriving
    /// `pred`, the linear conjuncts of its constraint, the single-literal lemmas of its body
    /// predicates one level down and the head equations (side A) against the linear literals of
    /// the cube (side B) as one exact LP over the rationals; when it is infeasible, the part of
    /// the Farkas combination from side A is an inequality `I` over the head's arguments that A
    /// implies and the cube contradicts. `¬I` is the candidate cube, kept when it is blocked at
    /// `level` (relative induction), so the lemma is `I` itself.
    fn farkas(
        &self,
        pred: usize,
        cube: &[Lit],
        level: usize,
    ) -> Result<Option<Vec<Lit>>, Exhausted> {
        let arity = self.bools.get(pred).map(Vec::len).unwrap_or(0);
        let side_b: Vec<&Atom> = cube
            .iter()
            .filter_map(|l| match l {
                Lit::Lin(a) => Some(a),
                Lit::Mod(..) | Lit::NotMod(..) => None,
            })
            .collect();
        if side_b.is_empty() {
            return Ok(None);
        }
        let mut cands: Vec<Atom> = Vec::new();
        for &ci in self.by_head.get(pred).map(Vec::as_slice).unwrap_or(&[]) {
            self.budget.spend(1)?;
            let Some(ir) = self.irs.get(ci) else { continue };
            if level == 0 && !ir.body.is_empty() {
                continue;
            }
            let Some((_, hargs)) = &ir.head else { continue };
            // LP variable `i < arity`: head argument `i`; `arity + j`: clause variable `j`.
            let nv = arity + ir.nvars;
            let shift = |x: Var| x + arity;
            let mut side_a: Vec<(Lin, bool)> = Vec::new();
            for part in &ir.parts {
                if let [conj] = part.as_slice() {
                    side_a.extend(conj.iter().map(|a| (a.lin.rename(&shift), a.eq)));
                }
            }
            for (q, args) in &ir.body {
                for l in self.lemmas.get(*q).map(Vec::as_slice).unwrap_or(&[]) {
                    let [Lit::Lin(a)] = l.cube.as_slice() else {
                        continue;
                    };
                    if l.level + 1 < level || a.eq {
                        continue;
                    }
                    // ¬(L ≤ 0) over the integers: 1 - L ≤ 0.
                    let neg = a.lin.scale(-1).and_then(|n| n.add_const(1)).ok();
                    if let Some(n) = neg.and_then(|n| subst_args(&n, args)) {
                        side_a.push((n.rename(&shift), false));
                    }
                }
            }
            for (i, h) in hargs.iter().enumerate() {
                if let Ok(d) = Lin::var(i).sub(&h.rename(&shift)) {
                    side_a.push((d, true));
                }
            }
            // Only the rows connected to the cube's variables through shared variables: a
            // minimal Farkas certificate that uses the cube is connected, and the LP is dense.
            let seeds = side_b.iter().flat_map(|a| a.lin.coeffs.keys().copied());
            let (kept, reach) = connected_rows(&side_a, seeds, nv);
            let mut lp = Lp::new();
            let mut col_of = vec![0usize; nv];
            let mut col_var = Vec::new();
            let mut cols = vec![None; nv];
            for x in (0..nv).filter(|&x| reach.get(x).copied().unwrap_or(false)) {
                let c = lp.fresh();
                col_var.push(x);
                col_var.push(x);
                if let Some(slot) = col_of.get_mut(x) {
                    *slot = c;
                }
                if x < arity {
                    if let Some(slot) = cols.get_mut(x) {
                        *slot = Some(c);
                    }
                }
            }
            let col = |x: Var| col_of.get(x).copied().unwrap_or(0);
            let mut rows = 0usize;
            for ((l, eq), _) in side_a.iter().zip(&kept).filter(|(_, &k)| k) {
                lp.add(l, &col, *eq);
                rows += 1;
            }
            for a in &side_b {
                lp.add(&a.lin, &col, a.eq);
            }
            if let Feasibility::Infeasible(y) = lp.solve() {
                if let Ok(Some(i)) = interpolant(&lp, &y, rows, &cols, &col_var) {
                    if !i.lin.coeffs.is_empty() && !cands.contains(&i) {
                        cands.push(i);
                    }
                }
            }
        }
        for i in cands {
            let Ok(n) = i.lin.scale(-1).and_then(|n| n.add_const(1)) else {
                continue;
            };
            let c = vec![Lit::Lin(Atom::le0(n))];
            if self.blocked(pred, &c, level)?.is_some() {
                return Ok(Some(c));
            }
        }
        Ok(None)
    }

    /// Global guidance's subsume rule (`global_guidance`): when the new lemma `cube` of
    /// `pred` joins a cluster of lemmas that differ only in constants, the first candidate for
    /// the whole cluster that is blocked at `level`, reduced to its core when that stays blocked.
    fn subsume(
        &self,
        pred: usize,
        cube: &[Lit],
        level: usize,
    ) -> Result<Option<Vec<Lit>>, Exhausted> {
        let others = self.lemma_cubes(pred);
        for cand in subsume_candidates(cube, &others).into_iter().rev() {
            let Some(core) = self.blocked(pred, &cand, level)? else {
                continue;
            };
            let small: Vec<Lit> = core.iter().filter_map(|&i| cand.get(i).cloned()).collect();
            if !small.is_empty()
                && small.len() < cand.len()
                && self.blocked(pred, &small, level)?.is_some()
            {
                return Ok(Some(small));
            }
            return Ok(Some(cand));
        }
        Ok(None)
    }

    fn add_lemma(&mut self, pred: usize, cube: Vec<Lit>, level: usize) {
        let Some(ls) = self.lemmas.get_mut(pred) else {
            return;
        };
        if let Some(l) = ls.iter_mut().find(|l| l.cube == cube) {
            l.level = l.level.max(level);
            return;
        }
        ls.push(Lemma { cube, level });
    }

    /// The obligation for body position `pos` of clause `ci` from a model `all` of its query
    /// with the head in `cube` (Spacer's nonlinear step, CAV 2014 §4): the model-based
    /// projection onto that position's arguments of the clause's constraint (the disjunct of
    /// each part that holds in the model), the cube, the must summaries `known` of the
    /// positions before it and, for the positions after it, the may summaries (each lemma
    /// of the queried frame by the negation of a literal of its cube that the model falsifies).
    /// The body point itself when the projection fails.
    fn obligation(
        &self,
        ci: usize,
        cube: &[Lit],
        level: usize,
        all: &[i128],
        at: Uncovered<'_>,
    ) -> Vec<Lit> {
        let Uncovered { pos, known, point } = at;
        let eqs = || point_cube(point);
        let Some(ir) = self.irs.get(ci) else {
            return eqs();
        };
        let Some((_, bargs)) = ir.body.get(pos) else {
            return eqs();
        };
        let Some(mut lits) = self.model_disjuncts(ci, all) else {
            return eqs();
        };
        let hargs: &[Lin] = ir.head.as_ref().map(|h| h.1.as_slice()).unwrap_or(&[]);
        for l in cube {
            match l.map(|x| subst_args(x, hargs)) {
                Some(l) => lits.push(l),
                None => return eqs(),
            }
        }
        let val = |x: Var| all.get(x).copied().unwrap_or(0);
        for (j, (q, _)) in ir.body.iter().enumerate() {
            if j < pos {
                let f = known.get(j).and_then(|&f| self.facts.get(f));
                match f.and_then(|f| self.body_cube(ci, j, &f.cube)) {
                    Some(c) => lits.extend(c),
                    None => return eqs(),
                }
            } else if j > pos {
                for l in self.lemmas.get(*q).map(Vec::as_slice).unwrap_or(&[]) {
                    if l.level + 1 < level {
                        continue;
                    }
                    let Some(c) = self.body_cube(ci, j, &l.cube) else {
                        return eqs();
                    };
                    if let Some(n) = c.iter().find_map(|x| negation_in(x, &val)) {
                        lits.push(n);
                    }
                }
            }
        }
        self.project_onto(ir.nvars, lits, bargs, all, point)
            .unwrap_or_else(eqs)
    }

    /// Decides an obligation (a cube of `pred` containing `point`): `Some(fact)` when a fact in
    /// the cube is derived, `None` when the cube is blocked at `level`.
    fn solve(
        &mut self,
        pred: usize,
        cube: Vec<Lit>,
        point: Vec<i128>,
        level: usize,
    ) -> Result<Option<usize>, Exhausted> {
        let mut stack = vec![(pred, cube, point, level)];
        while let Some((p, cube, pt, k)) = stack.last().cloned() {
            self.budget.check()?;
            let clauses = self.by_head.get(p).cloned().unwrap_or_default();
            // Reached: a clause derives a point of the cube from known facts.
            let mut reached = None;
            for &ci in &clauses {
                if let Query::Sat {
                    body, head, all, ..
                } = self.query(ci, &cube, k, Mode::MUST)?
                {
                    if let Some(children) = self.children(ci, &body) {
                        let c = self.must_cube(ci, &all, &head, &children);
                        reached = Some(self.add_fact(p, ci, c, children));
                        break;
                    }
                }
            }
            if let Some(f) = reached {
                stack.pop();
                if stack.is_empty() {
                    return Ok(Some(f));
                }
                continue;
            }
            let mut progressed = false;
            for &ci in &clauses {
                let Query::Sat {
                    mut body,
                    mut head,
                    mut all,
                } = self.query(ci, &cube, k, Mode::frames(false))?
                else {
                    continue;
                };
                let preds: Vec<usize> = self
                    .irs
                    .get(ci)
                    .map(|ir| ir.body.iter().map(|b| b.0).collect())
                    .unwrap_or_default();
                // The first body point not covered by a must summary; while the query stays
                // satisfiable with the applications up to it among the must summaries, the
                // model is replaced (so a child obligation is only made when no covered point
                // serves, and reaching it adds a new must summary).
                let (known, unknown) = loop {
                    let mut known = Vec::new();
                    let mut unknown = None;
                    for (j, (&q, b)) in preds.iter().zip(&body).enumerate() {
                        match self.fact_of(q, b) {
                            Some(f) => known.push(f),
                            None => {
                                unknown = Some(j);
                                break;
                            }
                        }
                    }
                    let Some(j) = unknown else {
                        break (known, None);
                    };
                    // With every application among the must summaries it is the must query,
                    // unsatisfiable above.
                    if j + 1 >= preds.len() {
                        break (known, Some(j));
                    }
                    match self.query(
                        ci,
                        &cube,
                        k,
                        Mode {
                            must: j + 1,
                            induct: false,
                        },
                    )? {
                        Query::Sat {
                            body: b,
                            head: h,
                            all: a,
                        } => {
                            (body, head, all) = (b, h, a);
                        }
                        Query::Unsat(_) => break (known, Some(j)),
                    }
                };
                match unknown {
                    Some(j) => {
                        let (Some(&q), Some(b)) = (preds.get(j), body.get(j)) else {
                            continue;
                        };
                        let at = Uncovered {
                            pos: j,
                            known: &known,
                            point: b,
                        };
                        let c = self.obligation(ci, &cube, k, &all, at);
                        stack.push((q, c, b.clone(), k.saturating_sub(1)));
                    }
                    None => {
                        let c = self.must_cube(ci, &all, &head, &known);
                        self.add_fact(p, ci, c, known);
                    }
                }
                progressed = true;
                break;
            }
            if progressed {
                continue;
            }
            let g = self.generalise(p, &cube, &pt, k)?;
            if let Some(c) = self.conjecture(p, &cube, &g, k)? {
                self.add_lemma(p, c, k);
            }
            if let Some(c) = self.subsume(p, &g, k)? {
                self.add_lemma(p, c, k);
            }
            self.add_lemma(p, g, k);
            stack.pop();
            if stack.is_empty() {
                return Ok(None);
            }
        }
        Ok(None)
    }

    fn stats(&self) -> SpacerStats {
        SpacerStats {
            lemmas: self.lemmas.iter().map(Vec::len).sum(),
            facts: self.facts.len(),
            queries: self.queries.get(),
        }
    }

    /// The must summaries containing a clause's body points (`None` if one is not covered).
    fn children(&self, ci: usize, body: &[Vec<i128>]) -> Option<Vec<usize>> {
        let ir = self.irs.get(ci)?;
        ir.body
            .iter()
            .zip(body)
            .map(|((q, _), b)| self.fact_of(*q, b))
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

    /// Solves clause `ci` with the head at `point` and body application `j` in the cube of
    /// fact `children[j]`: the clause's declared variables and the body points.
    fn replay(
        &self,
        ci: usize,
        children: &[usize],
        point: &[i128],
    ) -> Result<Option<Replayed>, Exhausted> {
        self.budget.spend(1)?;
        self.queries.set(self.queries.get() + 1);
        let Some(ir) = self.irs.get(ci) else {
            return Ok(None);
        };
        let mut solvers = self.solvers.borrow_mut();
        let Some(slot) = solvers.get_mut(ci) else {
            return Ok(None);
        };
        if slot.is_none() {
            *slot = Some(ClauseSolver::new(ir, self.budget));
        }
        let Some(cs) = slot.as_mut() else {
            return Ok(None);
        };
        cs.s.push();
        for (j, &f) in children.iter().enumerate() {
            let cube = self.facts.get(f).map(|f| f.cube.as_slice()).unwrap_or(&[]);
            let t = cs.cube(j, cube);
            cs.s.assert(t);
        }
        for (h, &v) in cs.head.clone().iter().zip(point) {
            let c = cs.s.terms.mk_const(Num::integer(v), Sort::Int);
            let e = cs.s.terms.mk(TermOp::Eq, vec![*h, c], Sort::Bool);
            cs.s.assert(e);
        }
        let out = match cs.s.check(&[]) {
            SatResult::Sat => {
                let all = cs.model_vars();
                let nd = self.decl_vars.get(ci).copied().unwrap_or(0);
                let vars = all.iter().take(nd).copied().collect();
                Ok(Some((vars, args_at(ir, &all).0)))
            }
            SatResult::Unsat => Ok(None),
            SatResult::Unknown => Err(self.budget.check().err().unwrap_or(Exhausted::Timeout)),
        };
        cs.s.pop(1);
        out
    }

    /// A concrete derivation of the query fact `root`, every body fact first. From the root
    /// down, each node's clause is solved with its head at the node's point and its body
    /// applications in the children's cubes (satisfiable: every point of a must summary is
    /// derivable from its children), which gives the children's points; a point derived twice
    /// is listed once. `None` when a step cannot be solved or the tree grows past
    /// `MAX_DERIVATION` nodes.
    fn concretize(&self, root: usize) -> Result<Option<Vec<ChcStep>>, Exhausted> {
        struct Node {
            fact: usize,
            point: Vec<i128>,
            vars: Vec<i128>,
            kids: Vec<usize>,
        }
        let mut nodes = vec![Node {
            fact: root,
            point: Vec::new(),
            vars: Vec::new(),
            kids: Vec::new(),
        }];
        let mut i = 0;
        while i < nodes.len() {
            if nodes.len() > MAX_DERIVATION {
                return Ok(None);
            }
            let Some((f, point)) = nodes.get(i).map(|n| (n.fact, n.point.clone())) else {
                break;
            };
            let Some(fact) = self.facts.get(f) else {
                return Ok(None);
            };
            let Some((vars, body)) = self.replay(fact.clause, &fact.children, &point)? else {
                return Ok(None);
            };
            let mut kids = Vec::new();
            for (&c, b) in fact.children.iter().zip(body) {
                kids.push(nodes.len());
                nodes.push(Node {
                    fact: c,
                    point: b,
                    vars: Vec::new(),
                    kids: Vec::new(),
                });
            }
            if let Some(n) = nodes.get_mut(i) {
                n.vars = vars;
                n.kids = kids;
            }
            i += 1;
        }
        let key = |n: &Node| {
            let clause = self.facts.get(n.fact).map(|f| f.clause).unwrap_or(0);
            (self.heads.get(clause).copied(), n.point.clone())
        };
        let mut listed = std::collections::HashSet::new();
        let mut out = Vec::new();
        let mut stack = vec![(0usize, false)];
        while let Some((k, done)) = stack.pop() {
            let Some(n) = nodes.get(k) else { continue };
            if done {
                if listed.insert(key(n)) {
                    out.push(ChcStep {
                        clause: self.facts.get(n.fact).map(|f| f.clause).unwrap_or(0),
                        vars: n.vars.clone(),
                        fact: n.point.clone(),
                    });
                }
                continue;
            }
            if listed.contains(&key(n)) {
                continue;
            }
            stack.push((k, true));
            for &c in n.kids.iter().rev() {
                stack.push((c, false));
            }
        }
        Ok(Some(out))
    }
}

/// The body points and the head point of a clause under the values `all` of its variables
/// (read from the values of the variables, so the points and the values always agree, also
/// for variables the solver left unassigned).
fn args_at(ir: &ClauseIr, all: &[i128]) -> (Vec<Vec<i128>>, Vec<i128>) {
    let val = |x: Var| all.get(x).copied().unwrap_or(0);
    let body = ir
        .body
        .iter()
        .map(|(_, args)| args.iter().map(|a| a.eval(&val)).collect())
        .collect();
    let head = ir
        .head
        .as_ref()
        .map(|(_, args)| args.iter().map(|a| a.eval(&val)).collect())
        .unwrap_or_default();
    (body, head)
}

/// A cube with each equality pinning one argument, `a·x + c = 0`, written as two bounds, so that
/// generalisation can drop or weaken one side (z3's Spacer expands equalities the same way before
/// its inductive generalisation, `expand_literals`). Equalities between arguments stay whole:
/// they state a relation, and split, one side is weakened into a bound that grows level by level
/// (`dillig32`: `n = 2k - 1` became `n ≥ 2k - 199 + l`).
fn split_equalities(cube: &[Lit]) -> Vec<Lit> {
    let mut out = Vec::with_capacity(cube.len());
    for l in cube {
        match l {
            Lit::Lin(a) if a.eq && a.lin.coeffs.len() == 1 => match a.lin.scale(-1) {
                Ok(neg) => {
                    out.push(Lit::Lin(Atom::le0(a.lin.clone())));
                    out.push(Lit::Lin(Atom::le0(neg)));
                }
                Err(_) => out.push(l.clone()),
            },
            _ => out.push(l.clone()),
        }
    }
    out
}

/// The rows of `rows` (over variables `0..nv`) connected to the variables `seeds` through shared
/// variables, and the variables they reach (the seeds included).
fn connected_rows(
    rows: &[(Lin, bool)],
    seeds: impl Iterator<Item = Var>,
    nv: usize,
) -> (Vec<bool>, Vec<bool>) {
    let mut reach = vec![false; nv];
    for x in seeds {
        if let Some(r) = reach.get_mut(x) {
            *r = true;
        }
    }
    let mut kept = vec![false; rows.len()];
    let mut grew = true;
    while grew {
        grew = false;
        for ((l, _), k) in rows.iter().zip(kept.iter_mut()) {
            if *k
                || !l
                    .coeffs
                    .keys()
                    .any(|&x| reach.get(x).copied().unwrap_or(false))
            {
                continue;
            }
            *k = true;
            for &x in l.coeffs.keys() {
                if let Some(r) = reach.get_mut(x) {
                    grew |= !*r;
                    *r = true;
                }
            }
        }
    }
    (kept, reach)
}

/// The cube of one point: an equality per argument.
fn point_cube(point: &[i128]) -> Vec<Lit> {
    point
        .iter()
        .enumerate()
        .filter_map(|(i, &v)| {
            Lin::var(i)
                .add_const(-v)
                .ok()
                .map(|l| Lit::Lin(Atom::eq0(l)))
        })
        .collect()
}

/// When `l` is false under `val`, a literal that holds there and contradicts `l` (over the
/// integers): `L ≥ 1` for `L ≤ 0`, `L ≥ 1` or `L ≤ -1` for `L = 0`, the residue of the model
/// for a congruence.
fn negation_in(l: &Lit, val: &dyn Fn(Var) -> i128) -> Option<Lit> {
    if l.holds(val) {
        return None;
    }
    match l {
        Lit::Lin(a) => {
            let up = a.lin.scale(-1).and_then(|n| n.add_const(1));
            let neg = if !a.eq || a.lin.eval(val) > 0 {
                up
            } else {
                a.lin.add_const(1)
            };
            neg.ok().map(|n| Lit::Lin(Atom::le0(n)))
        }
        Lit::Mod(t, m, _) => Some(Lit::Mod(t.clone(), *m, t.eval(val).rem_euclid(*m))),
        Lit::NotMod(t, m, r) => Some(Lit::Mod(t.clone(), *m, *r)),
    }
}

impl<'a> Pdr<'a> {
    /// The engine's state before the first level: every clause translated once.
    fn new(
        sys: &HornSystem,
        text: &str,
        budget: &'a Budget,
    ) -> Result<Pdr<'a>, crate::error::ProgError> {
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
        // The divisors of the clauses' `div`/`mod` terms (Spacer's MBP keeps divisibility
        // constraints of these moduli; here they describe points), with 2 first.
        let mut moduli: Vec<i128> = irs
            .iter()
            .flat_map(|ir: &ClauseIr| ir.moduli.iter().copied())
            .filter(|&m| m <= MODULUS_MAX && m != 2)
            .collect();
        moduli.sort_unstable();
        moduli.dedup();
        moduli.insert(0, 2);
        moduli.truncate(MAX_MODULI);
        let mut bools: Vec<Vec<bool>> = sys.preds.iter().map(|p| p.bools.clone()).collect();
        bools.push(Vec::new());
        Ok(Pdr {
            decl_vars: sys.clauses.iter().map(|c| c.vars.len()).collect(),
            irs,
            heads,
            by_head,
            bools,
            lemmas: (0..=npreds).map(|_| Vec::new()).collect(),
            facts: Vec::new(),
            facts_of: vec![Vec::new(); npreds + 1],
            solvers: RefCell::new((0..sys.clauses.len()).map(|_| None).collect()),
            queries: Cell::new(0),
            moduli,
            budget,
        })
    }
}

/// Runs the engine on a system of Horn clauses.
pub(crate) fn spacer(
    sys: &HornSystem,
    text: &str,
    budget: &Budget,
) -> Result<SpacerOutcome, crate::error::ProgError> {
    let npreds = sys.preds.len();
    let mut pdr = Pdr::new(sys, text, budget)?;
    let mut n = 0usize;
    loop {
        match pdr.solve(npreds, Vec::new(), Vec::new(), n) {
            Ok(Some(f)) => {
                return Ok(match pdr.concretize(f) {
                    Ok(Some(steps)) => SpacerOutcome::Unsat(steps),
                    Ok(None) => SpacerOutcome::Failed(
                        "false is derivable from the must summaries, but no concrete derivation was found from them".into(),
                    ),
                    Err(e) => SpacerOutcome::Stopped(e, n, pdr.stats()),
                })
            }
            Ok(None) => {}
            Err(e) => return Ok(SpacerOutcome::Stopped(e, n, pdr.stats())),
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
            Err(e) => return Ok(SpacerOutcome::Stopped(e, n, pdr.stats())),
        }
        n += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::horn::read_horn;
    use crate::horn_check::check_chc_derivation;
    use crate::mbp::tests::le;

    /// `p` holds of 1 and is closed under `add`, a relation defined by one clause without body
    /// applications; the query asks for 64 (a derivation tree of height 7).
    const SUMS: &str = "(set-logic HORN)
(declare-fun add (Int Int Int) Bool)
(declare-fun p (Int) Bool)
(assert (forall ((x Int) (y Int) (z Int)) (=> (= z (+ x y)) (add x y z))))
(assert (forall ((x Int)) (=> (= x 1) (p x))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (p x) (p y) (add x y z)) (p z))))
(assert (forall ((x Int)) (=> (and (p x) (= x 64)) false)))
(check-sat)
";

    #[test]
    fn must_summaries_are_symbolic_and_concretise_to_a_checked_derivation() {
        let sys = read_horn(SUMS).expect("read");
        let budget = Budget::unlimited();
        let mut pdr = Pdr::new(&sys, SUMS, &budget).expect("clauses");
        let npreds = sys.preds.len();
        let root = (0..20)
            .find_map(|n| {
                pdr.solve(npreds, Vec::new(), Vec::new(), n)
                    .expect("budget")
            })
            .expect("false is derivable");
        // One must summary of `add` covers the whole relation (a concrete fact per use would
        // need one per sum).
        let add = sys.preds.iter().position(|p| p.name == "add").expect("add");
        let facts = pdr.facts_of.get(add).cloned().unwrap_or_default();
        assert_eq!(facts.len(), 1);
        let cube = &pdr.facts[facts[0]].cube;
        for pt in [[3i128, 4, 7], [-10, 25, 15], [0, 0, 0]] {
            assert!(cube.iter().all(|l| l.holds(&|x| pt[x])), "{cube:?}");
        }
        assert!(!cube.iter().all(|l| l.holds(&|x| [1i128, 1, 3][x])));
        // The tree of symbolic facts gives a concrete derivation that the checker accepts.
        let steps = pdr.concretize(root).expect("budget").expect("derivation");
        check_chc_derivation(SUMS, &steps).expect("checked");
        assert!(steps.iter().any(|s| s.fact == vec![64]), "{steps:?}");
    }

    #[test]
    fn the_other_applications_constrain_a_nonlinear_obligation() {
        // `q(y)` needs `r(x)` with `y = x + 1`; the only `r` is 5, so the obligation for the
        // body application `q` (after `r`, whose must summary is `x = 5`) is `y = 6`.
        let text = "(set-logic HORN)
(declare-fun r (Int) Bool)
(declare-fun q (Int) Bool)
(assert (forall ((x Int)) (=> (= x 5) (r x))))
(assert (forall ((y Int)) (=> (>= y 0) (q y))))
(assert (forall ((x Int) (y Int)) (=> (and (r x) (q y) (= y (+ x 1))) false)))
(check-sat)
";
        let sys = read_horn(text).expect("read");
        let budget = Budget::unlimited();
        let mut pdr = Pdr::new(&sys, text, &budget).expect("clauses");
        let r = pdr.add_fact(0, 0, vec![le(&[(0, 1)], -5), le(&[(0, -1)], 5)], Vec::new());
        // The model of the query: x = 5, y = 6 (clause variables 0 and 1).
        let at = Uncovered {
            pos: 1,
            known: &[r],
            point: &[6],
        };
        let c = pdr.obligation(2, &[], 1, &[5, 6], at);
        let at = |v: i128| c.iter().all(|l| l.holds(&|_| v));
        assert!(at(6), "{c:?}");
        assert!(!at(7) && !at(0), "{c:?}");
    }

    #[test]
    fn boolean_arguments_are_single_literals() {
        // Booleans 1 and 0, an integer 5: one literal per Boolean, two bounds and a parity
        // literal for the integer (no octagon with a single integer).
        let lits = point_literals(&[1, 0, 5], &[true, true, false], &[2]);
        let on = |x: Var| {
            lits.iter()
                .filter(|l| l.lin().coeffs.contains_key(&x))
                .count()
        };
        assert_eq!((on(0), on(1), on(2)), (1, 1, 3), "{lits:?}");
        assert!(lits.contains(&le(&[(0, -1)], 1)));
        assert!(lits.contains(&le(&[(1, 1)], 0)));
    }

    #[test]
    fn negation_in_the_model() {
        let val = |x: Var| [3i128, -2][x];
        // x ≤ 1 is false at 3: x ≥ 2.
        let n = negation_in(&le(&[(0, 1)], -1), &val).expect("false");
        assert_eq!(n, le(&[(0, -1)], 2));
        assert!(negation_in(&le(&[(0, 1)], -5), &val).is_none());
        // y = 0 is false at -2: y ≤ -1.
        let eq = Lit::Lin(Atom::eq0(Lin::var(1)));
        assert_eq!(negation_in(&eq, &val), Some(le(&[(1, 1)], 1)));
        let m = Lit::Mod(Lin::var(0), 2, 0);
        assert_eq!(negation_in(&m, &val), Some(Lit::Mod(Lin::var(0), 2, 1)));
    }
}
