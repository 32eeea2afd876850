//! Conflict-driven clause learning with a theory interface: the DPLL(T) core the arithmetic
//! solver of Dutertre & de Moura, "A Fast Linear-Arithmetic Solver for DPLL(T)" (CAV 2006),
//! Section 2 ("the DPLL(T) framework"), plugs into.
//!
//! Two watched literals with blockers (binary clauses propagate from the watch alone; clauses live
//! in one arena, each header next to its literals, as in MiniSat: Eén & Sörensson, "An Extensible
//! SAT-solver", SAT 2003), first-UIP learning with recursive clause minimisation, VSIDS decisions
//! on a binary heap, phase saving, Luby restarts, learned-clause reduction by LBD, assumptions
//! with final-conflict analysis (unsat cores), and the theory hooks: assert a literal, check,
//! propagate (with an explanation per implied literal), backtrack, and a final check that may
//! add atoms and lemmas (branch and bound).
//!
//! The search polls a [`Budget`] (every 16 conflicts and after every final check) and answers
//! [`SatResult::Unknown`] when it runs out; [`Cdcl::exhausted`] tells why.

use std::time::Instant;
use verikit_diag::{Budget, Exhausted};

pub use crate::lit::{Lit, Var};

/// Result of the theory's final check on a complete Boolean assignment.
pub enum Final {
    Sat,
    /// A set of currently true literals that is theory-inconsistent.
    Conflict(Vec<Lit>),
    /// The theory created `new_vars` fresh variables (numbered from the `num_vars` it was given),
    /// wants `clauses` added and optionally `decide` decided next (branch and bound).
    Lemmas {
        new_vars: u32,
        clauses: Vec<Vec<Lit>>,
        decide: Option<Lit>,
    },
}

/// The theory interface of DPLL(T).
pub trait Theory {
    /// `lit` became true. Err: a set of true literals (including `lit`) that is inconsistent.
    fn assert_lit(&mut self, lit: Lit) -> Result<(), Vec<Lit>>;
    /// Implied literals, each with its explanation (true literals implying it).
    fn propagate(&mut self, out: &mut Vec<(Lit, Vec<Lit>)>);
    /// Consistency of the asserted literals (simplex Check). Err: an inconsistent set of true literals.
    fn check(&mut self) -> Result<(), Vec<Lit>>;
    /// Check on a complete assignment (integer feasibility).
    fn final_check(&mut self, num_vars: u32) -> Final;
    /// A decision level was opened.
    fn push_level(&mut self);
    /// `n` decision levels were closed: restore the state at the start of the oldest closed one.
    fn pop_levels(&mut self, n: u32);
    /// The theory gave up (resource limit): the search must stop with `Unknown`.
    fn interrupted(&self) -> bool {
        false
    }
    /// Implied literals whose explanations are deferred: the core asks for one with
    /// [`Theory::explain`] only when conflict analysis, clause minimisation or the final conflict
    /// analysis needs the reason (most implied literals never need it).
    fn propagate_lazy(&mut self, _out: &mut Vec<Lit>) {}
    /// The explanation of a literal [`Theory::propagate_lazy`] implied at the current or an
    /// earlier decision level and that is still assigned (or, when the core found it false right
    /// away, of the literal just returned): true literals, all assigned before it, implying it.
    fn explain(&mut self, _lit: Lit) -> Vec<Lit> {
        Vec::new()
    }
}

/// The empty theory: plain SAT.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTheory;

impl Theory for NoTheory {
    fn assert_lit(&mut self, _: Lit) -> Result<(), Vec<Lit>> {
        Ok(())
    }
    fn propagate(&mut self, _: &mut Vec<(Lit, Vec<Lit>)>) {}
    fn check(&mut self) -> Result<(), Vec<Lit>> {
        Ok(())
    }
    fn final_check(&mut self, _: u32) -> Final {
        Final::Sat
    }
    fn push_level(&mut self) {}
    fn pop_levels(&mut self, _: u32) {}
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reason {
    None,
    Clause(u32),
    Theory(u32),
    /// Implied by the theory; the reason is asked for with `Theory::explain` when first needed
    /// and then kept in `lazy_reasons`.
    Lazy,
}

/// A watch of a clause on one of its two watched literals. `blocker` is another literal of the
/// clause (true: the clause is satisfied, nothing to do); for a binary clause it is the other
/// literal, and the watch alone propagates (the clause itself is read only as a reason).
#[derive(Clone, Copy)]
struct Watch {
    /// Arena offset of the clause, with [`BINARY`] set for a binary clause.
    tagged: u32,
    blocker: Lit,
}

const BINARY: u32 = 1 << 31;

impl Watch {
    #[inline]
    fn new(cref: u32, blocker: Lit, binary: bool) -> Watch {
        Watch {
            tagged: cref | if binary { BINARY } else { 0 },
            blocker,
        }
    }
    #[inline]
    fn cref(self) -> u32 {
        self.tagged & !BINARY
    }
    #[inline]
    fn binary(self) -> bool {
        self.tagged & BINARY != 0
    }
}

/// All clauses in one vector: per clause a header of [`HEADER`] words — length with the learnt
/// and deleted flags, LBD, activity (`f32` bits) — then its literals. A clause is named by the
/// offset of its header (`cref`, below 2^31: the watches use the top bit). Deleted clauses stay
/// as holes until [`Cdcl::collect_garbage`] compacts the arena.
#[derive(Default)]
struct ClauseArena {
    mem: Vec<Lit>,
    /// Words of deleted clauses (headers included).
    wasted: usize,
}

const HEADER: usize = 3;
const LEARNT: u32 = 1 << 30;
const DELETED: u32 = 1 << 31;
const LEN_MASK: u32 = LEARNT - 1;

impl ClauseArena {
    fn alloc(&mut self, lits: &[Lit], learnt: bool, lbd: u32) -> u32 {
        let cref = self.mem.len() as u32;
        self.mem
            .push(Lit(lits.len() as u32 | if learnt { LEARNT } else { 0 }));
        self.mem.push(Lit(lbd));
        self.mem.push(Lit(0f32.to_bits()));
        self.mem.extend_from_slice(lits);
        cref
    }
    #[inline]
    fn len(&self, c: u32) -> usize {
        (self.mem[c as usize].0 & LEN_MASK) as usize
    }
    #[inline]
    fn lits(&self, c: u32) -> &[Lit] {
        let s = c as usize + HEADER;
        &self.mem[s..s + self.len(c)]
    }
    #[inline]
    fn learnt(&self, c: u32) -> bool {
        self.mem[c as usize].0 & LEARNT != 0
    }
    #[inline]
    fn deleted(&self, c: u32) -> bool {
        self.mem[c as usize].0 & DELETED != 0
    }
    fn delete(&mut self, c: u32) {
        self.wasted += HEADER + self.len(c);
        self.mem[c as usize].0 |= DELETED;
    }
    #[inline]
    fn lbd(&self, c: u32) -> u32 {
        self.mem[c as usize + 1].0
    }
    #[inline]
    fn act(&self, c: u32) -> f32 {
        f32::from_bits(self.mem[c as usize + 2].0)
    }
    #[inline]
    fn set_act(&mut self, c: u32, a: f32) {
        self.mem[c as usize + 2] = Lit(a.to_bits());
    }
    /// Every clause (deleted ones included), in arena order.
    fn crefs(&self) -> impl Iterator<Item = u32> + '_ {
        let mut c = 0usize;
        std::iter::from_fn(move || {
            if c >= self.mem.len() {
                return None;
            }
            let here = c as u32;
            c += HEADER + self.len(here);
            Some(here)
        })
    }
}

/// The value of a literal under `assigns` (0 true, 1 false, [`UNDEF`]); a free function so that
/// propagation can read the assignment while it rewrites a clause of the arena.
#[inline]
fn lit_val(assigns: &[u8], l: Lit) -> u8 {
    let a = assigns[l.var() as usize];
    if a == UNDEF {
        UNDEF
    } else {
        a ^ (l.is_neg() as u8)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SatResult {
    Sat,
    Unsat,
    Unknown,
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Stats {
    pub decisions: u64,
    pub conflicts: u64,
    pub propagations: u64,
    pub theory_conflicts: u64,
    pub theory_propagations: u64,
    pub restarts: u64,
    pub learnt_clauses: u64,
    pub deleted_clauses: u64,
    pub final_checks: u64,
}

const UNDEF: u8 = 2;

pub struct Cdcl {
    assigns: Vec<u8>, // per var: 0 = true, 1 = false, 2 = undef
    level: Vec<u32>,
    reason: Vec<Reason>,
    clauses: ClauseArena,
    /// Compactions of the clause arena so far.
    compactions: u64,
    learnts: Vec<u32>,
    watches: Vec<Vec<Watch>>,
    trail: Vec<Lit>,
    trail_lim: Vec<usize>,
    qhead: usize,
    th_head: usize,
    th_reasons: Vec<Vec<Lit>>,
    th_reason_lim: Vec<usize>,
    /// Per variable: the reason clause of a `Reason::Lazy` literal once explained (empty before).
    lazy_reasons: Vec<Vec<Lit>>,
    lazy_buf: Vec<Lit>,
    activity: Vec<f64>,
    var_inc: f64,
    cla_inc: f32,
    heap: Vec<Var>,
    heap_pos: Vec<i32>,
    polarity: Vec<bool>,
    /// Variables the search may decide (irrelevant ones are only ever propagated).
    decidable: Vec<bool>,
    seen: Vec<u8>,
    ok: bool,
    pending_decision: Option<Lit>,
    /// Assumption literals failing in the last `solve` (subset of the assumptions).
    pub core: Vec<Lit>,
    pub stats: Stats,
    budget: Budget,
    /// Why the last `solve` stopped with `Unknown` because of the budget.
    exhausted: Option<Exhausted>,
    max_learnts: usize,
    /// Conflicts between learnt-clause reductions.
    reduce_every: u64,
    report_progress: bool,
    /// Conflicts one `solve` may spend before answering `Unknown` (`None`: no limit).
    conflict_limit: Option<u64>,
    /// DRAT proof log (off by default: `None` costs one branch per learnt or deleted clause).
    proof: Option<crate::drat::ProofLog>,
}

impl Default for Cdcl {
    fn default() -> Self {
        Self::new()
    }
}

fn luby(y: f64, mut x: u64) -> f64 {
    let mut size = 1u64;
    let mut seq = 0u32;
    while size < x + 1 {
        seq += 1;
        size = 2 * size + 1;
    }
    while size - 1 != x {
        size = (size - 1) >> 1;
        seq -= 1;
        x %= size;
    }
    y.powi(seq as i32)
}

impl Cdcl {
    pub fn new() -> Cdcl {
        Cdcl {
            assigns: Vec::new(),
            level: Vec::new(),
            reason: Vec::new(),
            clauses: ClauseArena::default(),
            compactions: 0,
            learnts: Vec::new(),
            watches: Vec::new(),
            trail: Vec::new(),
            trail_lim: Vec::new(),
            qhead: 0,
            th_head: 0,
            th_reasons: Vec::new(),
            th_reason_lim: Vec::new(),
            lazy_reasons: Vec::new(),
            lazy_buf: Vec::new(),
            activity: Vec::new(),
            var_inc: 1.0,
            cla_inc: 1.0,
            heap: Vec::new(),
            heap_pos: Vec::new(),
            polarity: Vec::new(),
            decidable: Vec::new(),
            seen: Vec::new(),
            ok: true,
            pending_decision: None,
            core: Vec::new(),
            stats: Stats::default(),
            budget: Budget::unlimited(),
            exhausted: None,
            max_learnts: 4000,
            reduce_every: 2000,
            report_progress: false,
            conflict_limit: None,
            proof: None,
        }
    }

    #[inline]
    pub fn num_vars(&self) -> u32 {
        self.assigns.len() as u32
    }

    /// The budget the search polls (unlimited by default).
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }
    /// Limits the conflicts of each following `solve` (`None`: no limit); a search that reaches
    /// the limit answers `Unknown`, with [`Exhausted::Work`] as the reason.
    pub fn set_conflict_limit(&mut self, limit: Option<u64>) {
        self.conflict_limit = limit;
    }
    /// Reports the conflicts (and restarts) of the search into the budget's progress record.
    /// Off by default: a caller that runs many searches (IC3, BMC) reports its own phases.
    pub fn report_progress(&mut self, on: bool) {
        self.report_progress = on;
    }
    pub fn budget(&self) -> &Budget {
        &self.budget
    }
    /// A budget with only this deadline (`None`: no limit).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.budget = Budget::unlimited().until(deadline);
    }
    /// Logs a DRAT proof from now on: every clause the core derives (learnt clauses, problem
    /// clauses shortened by root-level facts, the empty clause) is an addition and every learnt
    /// clause it drops a deletion. Attach it before adding clauses; meaningful for plain SAT
    /// (no theory lemmas) without assumptions.
    pub fn set_proof(&mut self, log: crate::drat::ProofLog) {
        self.proof = Some(log);
    }
    /// Lowers the learnt-clause limit so tests see clause deletions.
    #[cfg(test)]
    pub(crate) fn set_max_learnts(&mut self, n: usize) {
        self.max_learnts = n;
        self.reduce_every = 50;
    }
    /// Detaches the proof log (to [`crate::drat::ProofLog::finish`] it).
    pub fn take_proof(&mut self) -> Option<crate::drat::ProofLog> {
        self.proof.take()
    }
    /// Why the last [`Cdcl::solve`] answered `Unknown` because of the budget, if it did.
    pub fn exhausted(&self) -> Option<Exhausted> {
        self.exhausted
    }

    pub fn new_var(&mut self) -> Var {
        let v = self.assigns.len() as Var;
        self.assigns.push(UNDEF);
        self.level.push(0);
        self.reason.push(Reason::None);
        self.lazy_reasons.push(Vec::new());
        self.watches.push(Vec::new());
        self.watches.push(Vec::new());
        self.activity.push(0.0);
        self.heap_pos.push(-1);
        self.polarity.push(false);
        self.decidable.push(true);
        self.seen.push(0);
        self.heap_insert(v);
        v
    }

    /// Value of a literal: Some(true/false) or None.
    #[inline]
    pub fn value(&self, l: Lit) -> Option<bool> {
        let a = self.assigns[l.var() as usize];
        if a == UNDEF {
            None
        } else {
            Some((a == 0) ^ l.is_neg())
        }
    }
    #[inline]
    fn val(&self, l: Lit) -> u8 {
        lit_val(&self.assigns, l)
    }
    #[inline]
    pub fn is_ok(&self) -> bool {
        self.ok
    }
    #[inline]
    pub fn decision_level(&self) -> u32 {
        self.trail_lim.len() as u32
    }
    /// Root-level value (only facts fixed at level 0).
    #[inline]
    pub fn root_value(&self, l: Lit) -> Option<bool> {
        let v = self.value(l)?;
        if self.level[l.var() as usize] == 0 {
            Some(v)
        } else {
            None
        }
    }

    /// The problem clauses as the core holds them (learned clauses left out): the stored
    /// clauses plus the facts fixed at level 0 as unit clauses. Clauses are simplified as they
    /// were added (satisfied ones dropped, false literals removed), so the result is
    /// equisatisfiable with everything added, not identical to it. For exporting (DIMACS) and
    /// for measuring other backends on the same CNFs.
    pub fn problem_clauses(&self) -> Vec<Vec<Lit>> {
        let root_end = self.trail_lim.first().copied().unwrap_or(self.trail.len());
        let mut out: Vec<Vec<Lit>> = self.trail[..root_end].iter().map(|&l| vec![l]).collect();
        out.extend(
            self.clauses
                .crefs()
                .filter(|&c| !self.clauses.learnt(c) && !self.clauses.deleted(c))
                .map(|c| self.clauses.lits(c).to_vec()),
        );
        if !self.ok {
            out.push(Vec::new());
        }
        out
    }

    // ---------------- heap ----------------
    fn heap_less(&self, a: Var, b: Var) -> bool {
        self.activity[a as usize] > self.activity[b as usize]
    }
    /// Puts `v` at heap position `i`.
    fn heap_set(&mut self, i: usize, v: Var) {
        self.heap[i] = v;
        self.heap_pos[v as usize] = i as i32;
    }
    fn heap_up(&mut self, mut i: usize) {
        let v = self.heap[i];
        while i > 0 {
            let p = (i - 1) / 2;
            if !self.heap_less(v, self.heap[p]) {
                break;
            }
            self.heap_set(i, self.heap[p]);
            i = p;
        }
        self.heap_set(i, v);
    }
    fn heap_down(&mut self, mut i: usize) {
        let v = self.heap[i];
        let n = self.heap.len();
        loop {
            let l = 2 * i + 1;
            if l >= n {
                break;
            }
            let r = l + 1;
            let c = if r < n && self.heap_less(self.heap[r], self.heap[l]) {
                r
            } else {
                l
            };
            if !self.heap_less(self.heap[c], v) {
                break;
            }
            self.heap_set(i, self.heap[c]);
            i = c;
        }
        self.heap_set(i, v);
    }
    fn heap_insert(&mut self, v: Var) {
        if self.heap_pos[v as usize] >= 0 || !self.decidable[v as usize] {
            return;
        }
        self.heap.push(v);
        let i = self.heap.len() - 1;
        self.heap_pos[v as usize] = i as i32;
        self.heap_up(i);
    }
    fn heap_pop(&mut self) -> Option<Var> {
        if self.heap.is_empty() {
            return None;
        }
        let top = self.heap[0];
        let last = self.heap.pop().unwrap_or(top);
        self.heap_pos[top as usize] = -1;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.heap_pos[last as usize] = 0;
            self.heap_down(0);
        }
        Some(top)
    }
    fn bump_var(&mut self, v: Var) {
        self.activity[v as usize] += self.var_inc;
        if self.activity[v as usize] > 1e100 {
            for a in self.activity.iter_mut() {
                *a *= 1e-100;
            }
            self.var_inc *= 1e-100;
        }
        let p = self.heap_pos[v as usize];
        if p >= 0 {
            self.heap_up(p as usize);
        }
    }
    /// Raises a variable's activity so it is decided early (used for new theory atoms).
    pub fn boost(&mut self, v: Var) {
        self.bump_var(v);
    }
    /// Marks which variables the search decides (the others keep their current assignment or
    /// are only assigned by propagation): variables of formulas that are no longer asserted.
    /// Variables created later are decidable.
    pub fn set_decidable(&mut self, flags: &[bool]) {
        for (v, &f) in flags.iter().enumerate().take(self.decidable.len()) {
            if self.decidable[v] != f {
                self.decidable[v] = f;
                if f && self.assigns[v] == UNDEF {
                    self.heap_insert(v as Var);
                }
            }
        }
    }
    /// Marks one variable decidable or not (as [`Cdcl::set_decidable`] does for all of them).
    pub fn set_var_decidable(&mut self, v: Var, f: bool) {
        let i = v as usize;
        if self.decidable.get(i).is_some_and(|&d| d != f) {
            self.decidable[i] = f;
            if f && self.assigns[i] == UNDEF {
                self.heap_insert(v);
            }
        }
    }
    /// Sets the preferred first polarity of a variable.
    pub fn set_phase(&mut self, v: Var, positive: bool) {
        self.polarity[v as usize] = positive;
    }

    // ---------------- clauses ----------------
    /// Stores a clause of at least two literals and watches its first two.
    fn alloc_clause(&mut self, lits: &[Lit], learnt: bool, lbd: u32) -> u32 {
        let cref = self.clauses.alloc(lits, learnt, lbd);
        let (l0, l1) = (lits[0], lits[1]);
        let binary = lits.len() == 2;
        self.watches[(!l0).idx()].push(Watch::new(cref, l1, binary));
        self.watches[(!l1).idx()].push(Watch::new(cref, l0, binary));
        cref
    }

    /// Adds a clause at the root level (backtracks to level 0 first; the caller gives the theory).
    pub fn add_clause<T: Theory>(&mut self, th: &mut T, lits: &[Lit]) -> bool {
        if !self.ok {
            return false;
        }
        self.cancel_until(th, 0);
        let mut ls: Vec<Lit> = lits.to_vec();
        ls.sort();
        ls.dedup();
        for w in ls.windows(2) {
            if w[0] == !w[1] {
                return true;
            }
        }
        let mut out = Vec::with_capacity(ls.len());
        let n = ls.len();
        for l in ls {
            match self.val(l) {
                0 => return true,
                1 => {}
                _ => out.push(l),
            }
        }
        if out.len() < n {
            if let Some(p) = &mut self.proof {
                p.add(&out);
            }
        }
        match out.len() {
            0 => {
                self.ok = false;
                false
            }
            1 => {
                self.enqueue(out[0], Reason::None);
                true
            }
            _ => {
                self.alloc_clause(&out, false, 0);
                true
            }
        }
    }

    fn enqueue(&mut self, l: Lit, r: Reason) {
        let v = l.var() as usize;
        self.assigns[v] = l.is_neg() as u8;
        self.level[v] = self.decision_level();
        self.reason[v] = r;
        self.trail.push(l);
    }

    pub fn cancel_until<T: Theory>(&mut self, th: &mut T, lvl: u32) {
        let dl = self.decision_level();
        if dl <= lvl {
            return;
        }
        let lim = self.trail_lim[lvl as usize];
        for i in (lim..self.trail.len()).rev() {
            let l = self.trail[i];
            let v = l.var() as usize;
            self.assigns[v] = UNDEF;
            self.reason[v] = Reason::None;
            self.polarity[v] = !l.is_neg();
            self.heap_insert(l.var());
        }
        self.trail.truncate(lim);
        self.th_reasons.truncate(self.th_reason_lim[lvl as usize]);
        self.th_reason_lim.truncate(lvl as usize);
        self.trail_lim.truncate(lvl as usize);
        self.qhead = self.qhead.min(lim);
        self.th_head = self.th_head.min(lim);
        th.pop_levels(dl - lvl);
        self.pending_decision = None;
    }

    fn new_decision_level<T: Theory>(&mut self, th: &mut T) {
        self.trail_lim.push(self.trail.len());
        self.th_reason_lim.push(self.th_reasons.len());
        th.push_level();
    }

    /// Unit propagation plus theory assertion, propagation and check. Returns a conflict clause
    /// (all literals false) if any.
    fn propagate<T: Theory>(&mut self, th: &mut T) -> Option<Vec<Lit>> {
        let mut buf: Vec<(Lit, Vec<Lit>)> = Vec::new();
        loop {
            while self.qhead < self.trail.len() {
                let p = self.trail[self.qhead];
                self.qhead += 1;
                self.stats.propagations += 1;
                if let Some(c) = self.bcp_lit(p) {
                    return Some(c);
                }
            }
            while self.th_head < self.trail.len() {
                let l = self.trail[self.th_head];
                self.th_head += 1;
                if let Err(expl) = th.assert_lit(l) {
                    self.stats.theory_conflicts += 1;
                    return Some(expl.into_iter().map(|x| !x).collect());
                }
            }
            buf.clear();
            th.propagate(&mut buf);
            let mut any = false;
            for (l, ants) in buf.drain(..) {
                match self.val(l) {
                    0 => {}
                    1 => {
                        let mut c = vec![l];
                        c.extend(ants.iter().map(|x| !*x));
                        self.stats.theory_conflicts += 1;
                        return Some(c);
                    }
                    _ => {
                        let mut c = Vec::with_capacity(ants.len() + 1);
                        c.push(l);
                        c.extend(ants.iter().map(|x| !*x));
                        self.th_reasons.push(c);
                        let r = Reason::Theory((self.th_reasons.len() - 1) as u32);
                        self.enqueue(l, r);
                        self.stats.theory_propagations += 1;
                        any = true;
                    }
                }
            }
            let mut lazy = std::mem::take(&mut self.lazy_buf);
            lazy.clear();
            th.propagate_lazy(&mut lazy);
            for &l in &lazy {
                match self.val(l) {
                    0 => {}
                    1 => {
                        let mut c = vec![l];
                        c.extend(th.explain(l).into_iter().map(|x| !x));
                        self.stats.theory_conflicts += 1;
                        self.lazy_buf = lazy;
                        return Some(c);
                    }
                    _ => {
                        self.lazy_reasons[l.var() as usize].clear();
                        self.enqueue(l, Reason::Lazy);
                        self.stats.theory_propagations += 1;
                        any = true;
                    }
                }
            }
            self.lazy_buf = lazy;
            if any {
                continue;
            }
            if let Err(expl) = th.check() {
                self.stats.theory_conflicts += 1;
                return Some(expl.into_iter().map(|x| !x).collect());
            }
            if th.interrupted() {
                return None;
            }
            if self.qhead == self.trail.len() && self.th_head == self.trail.len() {
                return None;
            }
        }
    }

    fn bcp_lit(&mut self, p: Lit) -> Option<Vec<Lit>> {
        let false_lit = !p;
        let mut ws = std::mem::take(&mut self.watches[p.idx()]);
        let mut i = 0;
        let mut j = 0;
        let mut confl = None;
        while i < ws.len() {
            let w = ws[i];
            i += 1;
            let blocker = self.val(w.blocker);
            if blocker == 0 {
                ws[j] = w;
                j += 1;
                continue;
            }
            if w.binary() {
                ws[j] = w;
                j += 1;
                if blocker == 1 {
                    confl = Some(vec![w.blocker, false_lit]);
                    break;
                }
                self.enqueue(w.blocker, Reason::Clause(w.cref()));
                continue;
            }
            let cref = w.cref();
            let start = cref as usize + HEADER;
            let n = self.clauses.len(cref);
            let mem = &mut self.clauses.mem;
            if mem[start] == false_lit {
                mem.swap(start, start + 1);
            }
            let first = mem[start];
            let kept = Watch::new(cref, first, false);
            if first != w.blocker && lit_val(&self.assigns, first) == 0 {
                ws[j] = kept;
                j += 1;
                continue;
            }
            // look for a new watch
            let mut found = None;
            for k in start + 2..start + n {
                let l = mem[k];
                if lit_val(&self.assigns, l) != 1 {
                    mem.swap(start + 1, k);
                    found = Some(l);
                    break;
                }
            }
            if let Some(l) = found {
                self.watches[(!l).idx()].push(kept);
                continue;
            }
            ws[j] = kept;
            j += 1;
            if lit_val(&self.assigns, first) == 1 {
                confl = Some(mem[start..start + n].to_vec());
                break;
            }
            self.enqueue(first, Reason::Clause(cref));
        }
        if confl.is_some() {
            // keep the watches not visited
            while i < ws.len() {
                ws[j] = ws[i];
                j += 1;
                i += 1;
            }
        }
        ws.truncate(j);
        // Watches pushed to p's list while iterating (impossible: new watches go to other lits).
        let extra = std::mem::take(&mut self.watches[p.idx()]);
        ws.extend(extra);
        self.watches[p.idx()] = ws;
        confl
    }

    /// The reason clause of an assigned variable (implied literal first), asking the theory for
    /// a deferred explanation the first time it is needed.
    fn reason_lits<T: Theory>(&mut self, th: &mut T, v: Var) -> Option<&[Lit]> {
        match self.reason[v as usize] {
            Reason::None => None,
            Reason::Clause(c) => Some(self.clauses.lits(c)),
            Reason::Theory(i) => Some(&self.th_reasons[i as usize]),
            Reason::Lazy => {
                let vu = v as usize;
                if self.lazy_reasons[vu].is_empty() {
                    let l = Lit::new(v, self.assigns[vu] == 1);
                    let expl = th.explain(l);
                    let r = &mut self.lazy_reasons[vu];
                    r.push(l);
                    r.extend(expl.into_iter().map(|x| !x));
                }
                Some(&self.lazy_reasons[vu])
            }
        }
    }

    fn abstract_level(&self, v: Var) -> u32 {
        1 << (self.level[v as usize] & 31)
    }

    fn lit_redundant<T: Theory>(
        &mut self,
        th: &mut T,
        p: Lit,
        levels: u32,
        toclear: &mut Vec<Lit>,
    ) -> bool {
        let mut stack = vec![p];
        let top = toclear.len();
        let mut rl = Vec::new();
        while let Some(q) = stack.pop() {
            rl.clear();
            match self.reason_lits(th, q.var()) {
                Some(r) => rl.extend_from_slice(r),
                None => return false,
            }
            for &l in &rl {
                let v = l.var();
                if v == q.var() {
                    continue;
                }
                if self.seen[v as usize] == 0 && self.level[v as usize] > 0 {
                    if self.reason[v as usize] != Reason::None
                        && (self.abstract_level(v) & levels) != 0
                    {
                        self.seen[v as usize] = 1;
                        stack.push(l);
                        toclear.push(l);
                    } else {
                        for c in toclear.drain(top..) {
                            self.seen[c.var() as usize] = 0;
                        }
                        return false;
                    }
                }
            }
        }
        true
    }

    /// First-UIP analysis of a conflict at the current level. Returns the learnt clause (asserting
    /// literal first) and the backjump level.
    fn analyze<T: Theory>(&mut self, th: &mut T, confl: Vec<Lit>) -> (Vec<Lit>, u32) {
        let dl = self.decision_level();
        let mut out = vec![Lit(0)];
        let mut path = 0;
        let mut p: Option<Lit> = None;
        let mut idx = self.trail.len();
        let mut clause = confl;
        loop {
            for &q in &clause {
                if Some(q) == p {
                    continue;
                }
                let v = q.var();
                if self.seen[v as usize] == 0 && self.level[v as usize] > 0 {
                    self.seen[v as usize] = 1;
                    self.bump_var(v);
                    if self.level[v as usize] >= dl {
                        path += 1;
                    } else {
                        out.push(q);
                    }
                }
            }
            loop {
                idx -= 1;
                if self.seen[self.trail[idx].var() as usize] != 0 {
                    break;
                }
            }
            let pl = self.trail[idx];
            p = Some(pl);
            self.seen[pl.var() as usize] = 0;
            path -= 1;
            if path == 0 {
                out[0] = !pl;
                break;
            }
            clause.clear();
            if let Some(r) = self.reason_lits(th, pl.var()) {
                clause.extend_from_slice(r);
            }
            if let Reason::Clause(c) = self.reason[pl.var() as usize] {
                self.bump_clause(c);
            }
        }
        // recursive minimisation
        let mut levels = 0u32;
        for l in &out[1..] {
            levels |= self.abstract_level(l.var());
        }
        let mut toclear: Vec<Lit> = out.clone();
        let mut kept = vec![out[0]];
        for &l in &out[1..] {
            if self.reason[l.var() as usize] == Reason::None
                || !self.lit_redundant(th, l, levels, &mut toclear)
            {
                kept.push(l);
            }
        }
        for l in toclear {
            self.seen[l.var() as usize] = 0;
        }
        let mut out = kept;
        let mut bt = 0;
        if out.len() > 1 {
            let mut mi = 1;
            for i in 2..out.len() {
                if self.level[out[i].var() as usize] > self.level[out[mi].var() as usize] {
                    mi = i;
                }
            }
            out.swap(1, mi);
            bt = self.level[out[1].var() as usize];
        }
        (out, bt)
    }

    fn bump_clause(&mut self, c: u32) {
        if self.clauses.learnt(c) {
            let act = self.clauses.act(c) + self.cla_inc;
            self.clauses.set_act(c, act);
            if act > 1e20 {
                for &l in &self.learnts {
                    self.clauses.set_act(l, self.clauses.act(l) * 1e-20);
                }
                self.cla_inc *= 1e-20;
            }
        }
    }

    fn lbd(&mut self, lits: &[Lit]) -> u32 {
        let mut lv: Vec<u32> = lits.iter().map(|l| self.level[l.var() as usize]).collect();
        lv.sort_unstable();
        lv.dedup();
        lv.len() as u32
    }

    /// Handles a conflict clause (all literals false). Returns false if the problem is unsat.
    fn handle_conflict<T: Theory>(&mut self, th: &mut T, confl: Vec<Lit>) -> bool {
        self.stats.conflicts += 1;
        if confl.is_empty() {
            self.ok = false;
            if let Some(p) = &mut self.proof {
                p.add(&[]);
            }
            return false;
        }
        let maxl = confl
            .iter()
            .map(|l| self.level[l.var() as usize])
            .max()
            .unwrap_or(0);
        if maxl == 0 {
            self.ok = false;
            if let Some(p) = &mut self.proof {
                p.add(&[]);
            }
            return false;
        }
        if maxl < self.decision_level() {
            self.cancel_until(th, maxl);
        }
        let at_max = confl
            .iter()
            .filter(|l| self.level[l.var() as usize] == maxl)
            .count();
        let (learnt, bt) = if at_max == 1 {
            let mut c = confl;
            let i = c
                .iter()
                .position(|l| self.level[l.var() as usize] == maxl)
                .unwrap_or(0);
            c.swap(0, i);
            let mut bt = 0;
            if c.len() > 1 {
                let mut mi = 1;
                for k in 2..c.len() {
                    if self.level[c[k].var() as usize] > self.level[c[mi].var() as usize] {
                        mi = k;
                    }
                }
                c.swap(1, mi);
                bt = self.level[c[1].var() as usize];
            }
            for l in &c {
                self.bump_var(l.var());
            }
            (c, bt)
        } else {
            self.analyze(th, confl)
        };
        self.cancel_until(th, bt);
        if let Some(p) = &mut self.proof {
            p.add(&learnt);
        }
        if learnt.len() == 1 {
            self.enqueue(learnt[0], Reason::None);
        } else {
            let lbd = self.lbd(&learnt);
            let first = learnt[0];
            let c = self.alloc_clause(&learnt, true, lbd);
            self.learnts.push(c);
            self.stats.learnt_clauses += 1;
            self.bump_clause(c);
            self.enqueue(first, Reason::Clause(c));
        }
        self.var_inc /= 0.95;
        self.cla_inc /= 0.999;
        true
    }

    /// Whether clause `c` (of three or more literals: binary clauses are never deleted) is the
    /// reason of its first literal.
    fn locked(&self, c: u32) -> bool {
        let l0 = self.clauses.lits(c)[0];
        self.val(l0) == 0 && self.reason[l0.var() as usize] == Reason::Clause(c)
    }

    fn reduce_db(&mut self) {
        let mut ls = std::mem::take(&mut self.learnts);
        let db = &self.clauses;
        ls.sort_by(|&a, &b| {
            db.lbd(b).cmp(&db.lbd(a)).then(
                db.act(a)
                    .partial_cmp(&db.act(b))
                    .unwrap_or(std::cmp::Ordering::Equal),
            )
        });
        let half = ls.len() / 2;
        let mut keep = Vec::with_capacity(ls.len());
        for (i, c) in ls.into_iter().enumerate() {
            if i < half && self.clauses.lbd(c) > 2 && self.clauses.len(c) > 2 && !self.locked(c) {
                if let Some(p) = &mut self.proof {
                    p.delete(self.clauses.lits(c));
                }
                self.clauses.delete(c);
                self.stats.deleted_clauses += 1;
            } else {
                keep.push(c);
            }
        }
        self.learnts = keep;
        // purge watches to deleted clauses
        for wl in self.watches.iter_mut() {
            wl.retain(|w| !self.clauses.deleted(w.cref()));
        }
        if self.clauses.wasted * 5 > self.clauses.mem.len() {
            self.collect_garbage();
        }
    }

    /// Compacts the clause arena: live clauses move to a new arena in order, and every clause
    /// reference (watches, reasons of assigned variables, the learnt list) follows them. Deleted
    /// clauses have no watches and are nobody's reason (locked clauses are not deleted).
    fn collect_garbage(&mut self) {
        let old = &mut self.clauses.mem;
        let mut mem = Vec::with_capacity(old.len() - self.clauses.wasted);
        let mut c = 0usize;
        while c < old.len() {
            let end = c + HEADER + (old[c].0 & LEN_MASK) as usize;
            if old[c].0 & DELETED == 0 {
                let moved = Lit(mem.len() as u32);
                mem.extend_from_slice(&old[c..end]);
                // the old header's LBD word now forwards to the new place
                old[c + 1] = moved;
            }
            c = end;
        }
        let fwd = |c: u32| old[c as usize + 1].0;
        for wl in self.watches.iter_mut() {
            for w in wl.iter_mut() {
                *w = Watch::new(fwd(w.cref()), w.blocker, w.binary());
            }
        }
        for &l in &self.trail {
            let r = &mut self.reason[l.var() as usize];
            if let Reason::Clause(c) = *r {
                *r = Reason::Clause(fwd(c));
            }
        }
        for c in self.learnts.iter_mut() {
            *c = fwd(*c);
        }
        self.clauses.mem = mem;
        self.clauses.wasted = 0;
        self.compactions += 1;
    }

    fn analyze_final<T: Theory>(&mut self, th: &mut T, p: Lit, assumptions: &[Lit]) {
        self.core.clear();
        self.core.push(!p);
        if self.decision_level() == 0 {
            return;
        }
        self.seen[p.var() as usize] = 1;
        let start = self.trail_lim[0];
        for i in (start..self.trail.len()).rev() {
            let x = self.trail[i].var();
            if self.seen[x as usize] != 0 {
                match self.reason_lits(th, x) {
                    None => {
                        let l = self.trail[i];
                        if assumptions.contains(&l) {
                            self.core.push(l);
                        }
                    }
                    Some(r) => {
                        let r = r.to_vec();
                        for l in r {
                            if l.var() != x && self.level[l.var() as usize] > 0 {
                                self.seen[l.var() as usize] = 1;
                            }
                        }
                    }
                }
                self.seen[x as usize] = 0;
            }
        }
        self.seen[p.var() as usize] = 0;
        self.core.sort();
        self.core.dedup();
    }

    /// Searches for a model under the assumptions. On `Sat` the assignment is left in place (read
    /// it with `value`, then call `cancel_until(th, 0)`); on `Unsat` with assumptions, `core` holds
    /// the failing assumptions.
    pub fn solve<T: Theory>(&mut self, th: &mut T, assumptions: &[Lit]) -> SatResult {
        self.core.clear();
        self.exhausted = None;
        if !self.ok {
            return SatResult::Unsat;
        }
        self.cancel_until(th, 0);
        let mut restart_n = 0u64;
        let mut conflicts_this_restart = 0u64;
        let mut restart_limit = (luby(2.0, 0) * 100.0) as u64;
        let mut next_reduce = self.stats.conflicts + self.reduce_every;
        let stop_at = self
            .conflict_limit
            .map(|l| self.stats.conflicts.saturating_add(l));
        loop {
            let confl = self.propagate(th);
            if th.interrupted() {
                self.cancel_until(th, 0);
                return SatResult::Unknown;
            }
            if let Some(confl) = confl {
                if !self.handle_conflict(th, confl) {
                    return SatResult::Unsat;
                }
                conflicts_this_restart += 1;
                if stop_at.is_some_and(|l| self.stats.conflicts >= l) {
                    self.exhausted = Some(Exhausted::Work);
                    self.cancel_until(th, 0);
                    return SatResult::Unknown;
                }
                if self.stats.conflicts.is_multiple_of(16) {
                    if self.report_progress && self.stats.conflicts.is_multiple_of(256) {
                        let progress = self.budget.progress();
                        progress.set(self.stats.conflicts);
                        if progress.wanted() {
                            progress.detail(&format!("{} restarts", self.stats.restarts));
                        }
                    }
                    if let Err(e) = self.budget.check() {
                        self.exhausted = Some(e);
                        self.cancel_until(th, 0);
                        return SatResult::Unknown;
                    }
                }
                continue;
            }
            if conflicts_this_restart >= restart_limit {
                restart_n += 1;
                self.stats.restarts += 1;
                conflicts_this_restart = 0;
                restart_limit = (luby(2.0, restart_n) * 100.0) as u64;
                self.cancel_until(th, 0);
                continue;
            }
            if self.stats.conflicts >= next_reduce && self.learnts.len() > self.max_learnts {
                next_reduce = self.stats.conflicts + self.reduce_every;
                self.max_learnts += self.max_learnts / 10;
                self.reduce_db();
            }
            // assumptions first
            let mut next: Option<Lit> = None;
            while (self.decision_level() as usize) < assumptions.len() {
                let a = assumptions[self.decision_level() as usize];
                match self.val(a) {
                    0 => self.new_decision_level(th),
                    1 => {
                        self.analyze_final(th, !a, assumptions);
                        return SatResult::Unsat;
                    }
                    _ => {
                        next = Some(a);
                        break;
                    }
                }
            }
            if next.is_none() {
                if let Some(l) = self.pending_decision.take() {
                    if self.val(l) == UNDEF {
                        next = Some(l);
                    }
                }
            }
            if next.is_none() {
                while let Some(v) = self.heap_pop() {
                    if self.assigns[v as usize] == UNDEF && self.decidable[v as usize] {
                        next = Some(Lit::new(v, !self.polarity[v as usize]));
                        break;
                    }
                }
            }
            match next {
                Some(l) => {
                    self.stats.decisions += 1;
                    // long conflict-free stretches (large satisfiable unrollings) poll too
                    if self.stats.decisions.is_multiple_of(1024) {
                        if let Err(e) = self.budget.check() {
                            self.exhausted = Some(e);
                            self.cancel_until(th, 0);
                            return SatResult::Unknown;
                        }
                    }
                    self.new_decision_level(th);
                    self.enqueue(l, Reason::None);
                }
                None => {
                    self.stats.final_checks += 1;
                    match th.final_check(self.num_vars()) {
                        Final::Sat => return SatResult::Sat,
                        Final::Conflict(expl) => {
                            self.stats.theory_conflicts += 1;
                            let c: Vec<Lit> = expl.into_iter().map(|x| !x).collect();
                            if !self.handle_conflict(th, c) {
                                return SatResult::Unsat;
                            }
                        }
                        Final::Lemmas {
                            new_vars,
                            clauses,
                            decide,
                        } => {
                            for _ in 0..new_vars {
                                self.new_var();
                            }
                            if !clauses.is_empty() {
                                for c in clauses {
                                    if !self.add_clause(th, &c) {
                                        return SatResult::Unsat;
                                    }
                                }
                            }
                            if let Some(d) = decide {
                                self.pending_decision = Some(d);
                            }
                        }
                    }
                    if let Err(e) = self.budget.check() {
                        self.exhausted = Some(e);
                        self.cancel_until(th, 0);
                        return SatResult::Unknown;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A theory of implications `a → b` between literals, propagated lazily: `b` is implied with
    /// the deferred explanation `[a]`.
    struct LazyImplications {
        imps: Vec<(Lit, Lit)>,
        trail: Vec<Lit>,
        lim: Vec<usize>,
        head: usize,
    }
    impl Theory for LazyImplications {
        fn assert_lit(&mut self, l: Lit) -> Result<(), Vec<Lit>> {
            self.trail.push(l);
            Ok(())
        }
        fn propagate(&mut self, _: &mut Vec<(Lit, Vec<Lit>)>) {}
        fn propagate_lazy(&mut self, out: &mut Vec<Lit>) {
            while self.head < self.trail.len() {
                let l = self.trail[self.head];
                self.head += 1;
                out.extend(self.imps.iter().filter(|(a, _)| *a == l).map(|(_, b)| *b));
            }
        }
        fn explain(&mut self, b: Lit) -> Vec<Lit> {
            // Any true premise of `b` asserted before it would do; the first one found.
            let pos = self.trail.iter().position(|&l| l == b);
            let before = &self.trail[..pos.unwrap_or(self.trail.len())];
            let a = self
                .imps
                .iter()
                .find(|(a, c)| *c == b && before.contains(a));
            a.map(|(a, _)| vec![*a]).unwrap_or_default()
        }
        fn check(&mut self) -> Result<(), Vec<Lit>> {
            Ok(())
        }
        fn final_check(&mut self, _: u32) -> Final {
            Final::Sat
        }
        fn push_level(&mut self) {
            self.lim.push(self.trail.len());
        }
        fn pop_levels(&mut self, n: u32) {
            let keep = self.lim.len() - n as usize;
            self.trail.truncate(self.lim[keep]);
            self.lim.truncate(keep);
            self.head = self.head.min(self.trail.len());
        }
    }

    fn brute(n: u32, cls: &[Vec<Lit>]) -> bool {
        (0..1u32 << n).any(|m| {
            cls.iter()
                .all(|c| c.iter().any(|l| ((m >> l.var()) & 1 == 1) != l.is_neg()))
        })
    }

    #[test]
    fn pigeonhole_3_in_2_unsat() {
        let mut s = Cdcl::new();
        let mut th = NoTheory;
        let p = |i: u32, j: u32| Lit::pos(i * 2 + j);
        for _ in 0..6 {
            s.new_var();
        }
        for i in 0..3 {
            s.add_clause(&mut th, &[p(i, 0), p(i, 1)]);
        }
        for j in 0..2 {
            for a in 0..3 {
                for b in a + 1..3 {
                    s.add_clause(&mut th, &[!p(a, j), !p(b, j)]);
                }
            }
        }
        assert_eq!(s.solve(&mut th, &[]), SatResult::Unsat);
    }

    /// A conflict limit stops a hard search with `Unknown` (reason: work), and lifting it lets
    /// the same solver finish.
    #[test]
    fn conflict_limit_stops_the_search() {
        let (holes, pigeons) = (6u32, 7u32);
        let mut s = Cdcl::new();
        let mut th = NoTheory;
        let p = |i: u32, j: u32| Lit::pos(i * holes + j);
        for _ in 0..holes * pigeons {
            s.new_var();
        }
        for i in 0..pigeons {
            let c: Vec<Lit> = (0..holes).map(|j| p(i, j)).collect();
            s.add_clause(&mut th, &c);
        }
        for j in 0..holes {
            for a in 0..pigeons {
                for b in a + 1..pigeons {
                    s.add_clause(&mut th, &[!p(a, j), !p(b, j)]);
                }
            }
        }
        s.set_conflict_limit(Some(5));
        assert_eq!(s.solve(&mut th, &[]), SatResult::Unknown);
        assert_eq!(s.exhausted(), Some(Exhausted::Work));
        s.set_conflict_limit(None);
        assert_eq!(s.solve(&mut th, &[]), SatResult::Unsat);
    }

    /// Clause deletions compact the arena in the middle of searches (watches, reasons and the
    /// learnt list follow the moved clauses): every answer is checked independently, a model
    /// against the clauses and an unsatisfiability by its DRAT proof.
    #[test]
    fn arena_compaction_keeps_answers_checkable() {
        use rand::{Rng, SeedableRng};
        let mut compactions = 0;
        for seed in 0..12u64 {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let n = 110u32;
            let cls: Vec<Vec<Lit>> = (0..490)
                .map(|_| {
                    (0..3)
                        .map(|_| Lit::new(rng.gen_range(0..n), rng.gen()))
                        .collect()
                })
                .collect();
            let mut s = Cdcl::new();
            s.set_max_learnts(20);
            s.set_proof(crate::ProofLog::in_memory(seed % 2 == 0));
            for _ in 0..n {
                s.new_var();
            }
            for c in &cls {
                s.add_clause(&mut NoTheory, c);
            }
            match s.solve(&mut NoTheory, &[]) {
                SatResult::Sat => {
                    for c in &cls {
                        assert!(c.iter().any(|&l| s.value(l) == Some(true)));
                    }
                }
                SatResult::Unsat => {
                    let proof = s.take_proof().map(|p| p.finish().unwrap()).unwrap();
                    let steps = crate::parse_drat(&proof).unwrap();
                    crate::check_drat(n, &cls, &steps, &Budget::unlimited()).unwrap();
                }
                SatResult::Unknown => panic!("no budget was set"),
            }
            compactions += s.compactions;
            if compactions > 2 {
                break;
            }
        }
        assert!(compactions > 0, "no arena compaction happened");
    }

    proptest::proptest! {
        #[test]
        fn lazy_theory_implications_match_brute_force(seed in 0u64..300) {
            use rand::{Rng, SeedableRng};
            let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
            let n = rng.gen_range(3..9u32);
            let lit = |rng: &mut rand::rngs::SmallRng| Lit::new(rng.gen_range(0..n), rng.gen());
            let cls: Vec<Vec<Lit>> = (0..rng.gen_range(1..20usize))
                .map(|_| (0..3).map(|_| lit(&mut rng)).collect())
                .collect();
            let imps: Vec<(Lit, Lit)> = (0..rng.gen_range(1..12usize))
                .map(|_| (lit(&mut rng), lit(&mut rng)))
                .filter(|(a, b)| a.var() != b.var())
                .collect();
            let mut s = Cdcl::new();
            let mut th = LazyImplications { imps: imps.clone(), trail: vec![], lim: vec![], head: 0 };
            for _ in 0..n { s.new_var(); }
            for c in &cls { s.add_clause(&mut th, c); }
            let r = s.solve(&mut th, &[]);
            let mut all = cls.clone();
            all.extend(imps.iter().map(|&(a, b)| vec![!a, b]));
            proptest::prop_assert_eq!(r == SatResult::Sat, brute(n, &all));
            if r == SatResult::Sat {
                for c in &all {
                    proptest::prop_assert!(c.iter().any(|l| s.value(*l) == Some(true)));
                }
            }
        }

        #[test]
        fn problem_clauses_are_equisatisfiable(seed in 0u64..300) {
            use rand::{Rng, SeedableRng};
            let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
            let n = rng.gen_range(2..9u32);
            let cls: Vec<Vec<Lit>> = (0..rng.gen_range(1..30usize))
                .map(|_| (0..rng.gen_range(1..4)).map(|_| Lit::new(rng.gen_range(0..n), rng.gen())).collect())
                .collect();
            let mut s = Cdcl::new();
            let mut th = NoTheory;
            for _ in 0..n { s.new_var(); }
            for c in &cls { s.add_clause(&mut th, c); }
            let pc = s.problem_clauses();
            proptest::prop_assert_eq!(brute(n, &pc), brute(n, &cls));
            // Every model of the exported clauses is one of the originals (nothing was weakened
            // beyond level-0 simplification).
            for m in 0..1u32 << n {
                let sat = |c: &Vec<Lit>| c.iter().any(|l| ((m >> l.var()) & 1 == 1) != l.is_neg());
                if pc.iter().all(sat) {
                    proptest::prop_assert!(cls.iter().all(sat));
                }
            }
        }

        #[test]
        fn random_3sat_matches_brute_force(seed in 0u64..400) {
            use rand::{Rng, SeedableRng};
            let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
            let n = rng.gen_range(3..10u32);
            let m = rng.gen_range(1..45usize);
            let cls: Vec<Vec<Lit>> = (0..m).map(|_| (0..3).map(|_| Lit::new(rng.gen_range(0..n), rng.gen())).collect()).collect();
            let mut s = Cdcl::new();
            let mut th = NoTheory;
            for _ in 0..n { s.new_var(); }
            for c in &cls { s.add_clause(&mut th, c); }
            let r = s.solve(&mut th, &[]);
            proptest::prop_assert_eq!(r == SatResult::Sat, brute(n, &cls));
            if r == SatResult::Sat {
                for c in &cls {
                    proptest::prop_assert!(c.iter().any(|l| s.value(*l) == Some(true)));
                }
            }
        }
    }
}
