//! IC3 / property-directed reachability: A. R. Bradley, *SAT-based model checking without
//! unrolling* (VMCAI 2011), as refined by N. Eén, A. Mishchenko, R. Brayton, *Efficient
//! implementation of property directed reachability* (FMCAD 2011). Not a seed paper: the SAT-based
//! safety engine the CAV'06 hardware papers (C12, C19, C27) are measured against today.
//!
//! * Frames `F_0 = Init`, `F_1 ⊇ F_2 ⊇ …` kept in delta form (a clause lives in the highest frame it
//!   is known to hold in), in one incremental solver over one copy of the transition relation;
//!   each frame has an activation literal, and the invariant constraints hold in the current state.
//! * Proof obligations in a queue ordered by frame; a blocked obligation is re-enqueued one frame
//!   higher (finding deeper counterexamples without restarting).
//! * Each query is restricted to the cone of influence of what it asks about (`hw.ic3-cone`): the
//!   solver decides only the gates, inputs and latches the cube's next-state functions (or the
//!   bad literal) and the constraints read, and the cube's own latches; the rest of the circuit
//!   is left to propagation (see [`Ic3::solve`] for why answers stay usable); with
//!   `hw.ic3-decide-sources` only the cone's inputs and latches are decided. Optionally
//!   (`hw.ic3-cone-switch`) a frame that stalls goes on with whole-circuit queries, and back.
//! * Predecessors are *lifted* (Eén et al. §III-C, `hw.ic3-lift`) by ternary simulation
//!   ([`crate::ternary_lifting`]: each latch of the cone set to X in turn, kept X when the
//!   successor cube's next-state functions, or the bad literal, and the constraints stay
//!   binary), by SAT (the predecessor's values of the inputs and latches that cone reads and the
//!   negation of the successor cube, or of the bad/constraint condition, are unsatisfiable
//!   together, and the failed-assumption core is the lifted cube), or by both (SAT on the
//!   latches ternary simulation kept); latches outside the cone are dropped without a query.
//! * Blocked cubes are generalised with the failed-assumption core of the relative-induction query,
//!   then by dropping literals one at a time (Bradley's MIC, bounded by `hw.ic3-drop-tries`; in
//!   latch order, or with `hw.ic3-order=activity` the latches least used in recent lemmas first),
//!   always keeping the cube disjoint from the initial states, and pushed to the highest frame
//!   where they are still relatively inductive. A failed drop is given up, or first *joined*
//!   (cut to the literals its counterexample agrees with) at most `hw.ic3-join` times.
//! * Syntactic containment (`hw.ic3-subsume`, as ABC's PDR does): a new lemma removes
//!   the frame clauses it subsumes, and an obligation a lemma already excludes is blocked without
//!   a query. The queries are counted per phase (bad, block, generalise, push, propagate).
//! * Clause propagation after each frame; an empty delta frame is a fixpoint, and its higher frames
//!   are the inductive invariant returned.

use crate::outcome::{Outcome, Proof};
use crate::ternary_constants::ternary_constants;
use crate::ternary_lifting::TernaryLifter;
use crate::unroll::{coi_latches, cone_vars, Unroller};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use verikit_aiger::{Aig, Kind, Reset, Witness};
use verikit_diag::{Budget, Exhausted};
use verikit_sat::{CdclBackend, Lit, SatBackend, SatResult, Var};

/// Tuning of IC3.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ic3Options {
    /// Literal-dropping attempts per blocked cube after the core (0: core only).
    pub(crate) drop_tries: usize,
    /// Re-enqueue blocked obligations one frame higher.
    pub(crate) requeue: bool,
    /// Counterexamples to generalisation blocked in a row per literal drop (0: plain MIC).
    pub(crate) ctg_max: usize,
    /// Recursion depth of CTG blocking (generalising a CTG may block CTGs of its own up to it).
    pub(crate) ctg_depth: usize,
    /// Rebuild a solver once this many retired clauses (plus twice the live frame clauses)
    /// accumulate in it (0: never).
    pub(crate) rebuild: usize,
    /// Restrict each query to the cone of influence of its roots (decisions in the main and
    /// lifting solvers, assumptions of the lifting query).
    pub(crate) cone: bool,
    /// Toggle `cone` when a frame stalls: once IC3 has made on one frame this many queries and
    /// as many as it took to reach that frame (and again after as many more; 0: never).
    pub(crate) cone_switch: u64,
    /// Try dropping the literals of latches that occur least in recent lemmas first (otherwise
    /// in latch order).
    pub(crate) activity: bool,
    /// How predecessor states are lifted to cubes.
    pub(crate) lift: Lift,
    /// Syntactic containment (as ABC's PDR): a new lemma removes the frame clauses it subsumes
    /// in its frame and below, and an obligation whose cube a lemma of its frame or a higher one
    /// already excludes is blocked without a query.
    pub(crate) subsume: bool,
    /// Joins per literal drop (the candidate shrunk to the literals a counterexample to
    /// generalisation agrees with, and queried again) before the drop is given up.
    pub(crate) join_max: usize,
    /// With `cone`: decide only the inputs and latches of the cone; its gates are then
    /// assigned by propagation (a Tseitin gate whose inputs are assigned is implied).
    pub(crate) decide_sources: bool,
}

/// How IC3 lifts a predecessor state to a cube of predecessors (`hw.ic3-lift`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lift {
    /// The failed-assumption core of a SAT query.
    Sat,
    /// Ternary simulation, dropping one latch at a time.
    Ternary,
    /// The SAT query, then ternary simulation on the latches of its core (the others X).
    Both,
}

impl std::str::FromStr for Lift {
    type Err = String;
    fn from_str(s: &str) -> Result<Lift, String> {
        match s {
            "sat" => Ok(Lift::Sat),
            "ternary" => Ok(Lift::Ternary),
            "both" => Ok(Lift::Both),
            _ => Err(format!("`{s}` is not one of sat, ternary, both")),
        }
    }
}

/// A cube over latch indices: `2·j + 1` means latch `j` is 0, `2·j` latch `j` is 1. Sorted.
type Cube = Vec<u32>;

struct Obligation {
    cube: Cube,
    frame: usize,
    /// Input values (all inputs of the circuit) taking the cube's states to the successor's cube
    /// (or making them bad).
    inputs: Vec<bool>,
    /// The obligation this one is a predecessor of (toward the bad state).
    next: Option<usize>,
}

enum Stop {
    Cex(Witness, usize),
    Out(Exhausted),
}

struct Ic3<'a> {
    aig: &'a Aig,
    prop: usize,
    opts: Ic3Options,
    budget: &'a Budget,
    coi: Vec<usize>,
    kinds: Vec<Kind>,
    // main solver
    sat: CdclBackend,
    un: Unroller<'a>,
    cur: Vec<Lit>,  // per coi position
    next: Vec<Lit>, // per coi position
    act0: Lit,
    acts: Vec<Lit>, // acts[i] for frame i (index 0 unused)
    bad_lit: Lit,
    // lifting solver
    lsat: CdclBackend,
    lun: Unroller<'a>,
    lcur: Vec<Lit>,
    lnext: Vec<Lit>,
    lbad: Lit,
    lcons: Vec<Lit>,
    /// ternary-simulation lifting (built on first use)
    tl: Option<TernaryLifter<'a>>,
    /// latch index -> coi position
    pos: Vec<Option<usize>>,
    frames: Vec<Vec<Cube>>, // delta frames; frames[0] unused
    /// Per coi position: the latch's value in every reachable state, if ternary simulation
    /// proves it constant (asserted in both solvers, left out of cubes, part of the invariant).
    fixed: Vec<Option<bool>>,
    obls: Vec<Obligation>,
    queries: u64,
    /// The phase the next main-solver query is made for, and the queries per phase.
    phase: Phase,
    phase_queries: [u64; Phase::COUNT],
    /// Lifting queries (in the lifting solver, not counted in `queries`).
    lift_queries: u64,
    /// Obligations re-enqueued one frame higher after being blocked.
    requeued: u64,
    /// Obligations found blocked by a lemma without a query, and frame clauses removed as
    /// subsumed by a new lemma (`opts.subsume`).
    contained: u64,
    subsumed: u64,
    bad: u32,
    /// Retired clauses in the main solver and in the lifting solver since their last rebuild.
    retired: usize,
    lretired: usize,
    rebuilds: u64,
    /// Told the frame count and the queries so far every [`OBSERVE_EVERY`] queries.
    observer: Option<&'a mut dyn FnMut(usize, u64)>,
    /// The frame the stall rule of `opts.cone_switch` watches, the queries made before it was
    /// opened, and the queries at its last switch (or its opening).
    watch_frame: usize,
    watch_base: u64,
    watch_since: u64,
    cone_switches: u64,
    /// Variables in the cones of the cone queries since `watch_since`, and those queries.
    cone_size_sum: u64,
    cone_queries: u64,
    /// Per coi position: how often the latch occurred in lemmas, recent ones weighing more.
    activity: Vec<f64>,
    bump: f64,
}

/// What a main-solver query is made for (statistics: queries per phase).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Is a bad state in the last frame?
    Bad,
    /// Has an obligation a predecessor in the frame below?
    Block,
    /// Literal dropping (MIC, CTG) of a blocked cube.
    Generalise,
    /// Pushing a new lemma to higher frames.
    Push,
    /// Clause propagation between frames.
    Propagate,
}

impl Phase {
    const COUNT: usize = 5;
    /// The statistics' names of the phases, in index order.
    pub(crate) const NAMES: [&'static str; Phase::COUNT] =
        ["bad", "block", "generalise", "push", "propagate"];
    fn index(self) -> usize {
        self as usize
    }
}

/// The stall rule of `Ic3Options::cone_switch` leaves cone queries for whole-circuit ones only
/// when their cones averaged at least one variable in this many of the circuit.
const CONE_SWITCH_SHARE: u64 = 8;

/// The decay of latch activity per lemma (`Ic3Options::activity`).
const ACTIVITY_DECAY: f64 = 0.99;

/// How often (in queries) the observer of [`ic3_observed`] is called.
const OBSERVE_EVERY: u64 = 64;

/// The main solver: one copy of the transition relation (current → next state), the constraints
/// in the current state, the initial states under `act0`, the constant latches as units.
struct MainSolver<'a> {
    sat: CdclBackend,
    un: Unroller<'a>,
    cur: Vec<Lit>,
    next: Vec<Lit>,
    act0: Lit,
    bad_lit: Lit,
}

impl<'a> MainSolver<'a> {
    fn new(aig: &'a Aig, coi: &[usize], bad: u32, fixed: &[Option<bool>]) -> MainSolver<'a> {
        let mut sat = CdclBackend::new();
        let mut un = Unroller::new(aig, &mut sat, false);
        let cur: Vec<Lit> = coi.iter().map(|&j| un.latch(&mut sat, 0, j)).collect();
        let next: Vec<Lit> = coi.iter().map(|&j| un.latch(&mut sat, 1, j)).collect();
        for &c in &aig.constraints {
            let l = un.lit(&mut sat, 0, c);
            sat.add_clause(&[l]);
        }
        let bad_lit = un.lit(&mut sat, 0, bad);
        let act0 = Lit::pos(sat.new_var());
        for (&j, &c) in coi.iter().zip(&cur) {
            match aig.latches.get(j).map(|l| l.reset) {
                Some(Reset::Zero) => sat.add_clause(&[!act0, !c]),
                Some(Reset::One) => sat.add_clause(&[!act0, c]),
                _ => {}
            }
        }
        for (v, &c) in fixed.iter().zip(&cur) {
            if let Some(v) = v {
                sat.add_clause(&[neg_lit(c, *v)]);
            }
        }
        MainSolver {
            sat,
            un,
            cur,
            next,
            act0,
            bad_lit,
        }
    }
}

/// The lifting solver: the transition relation, the bad literal and the constraints.
struct LiftSolver<'a> {
    sat: CdclBackend,
    un: Unroller<'a>,
    cur: Vec<Lit>,
    next: Vec<Lit>,
    bad: Lit,
    cons: Vec<Lit>,
}

impl<'a> LiftSolver<'a> {
    fn new(aig: &'a Aig, coi: &[usize], bad: u32, fixed: &[Option<bool>]) -> LiftSolver<'a> {
        let mut sat = CdclBackend::new();
        let mut un = Unroller::new(aig, &mut sat, false);
        let cur: Vec<Lit> = coi.iter().map(|&j| un.latch(&mut sat, 0, j)).collect();
        let next: Vec<Lit> = coi.iter().map(|&j| un.latch(&mut sat, 1, j)).collect();
        let bad = un.lit(&mut sat, 0, bad);
        let cons: Vec<Lit> = (aig.constraints.iter())
            .map(|&c| un.lit(&mut sat, 0, c))
            .collect();
        for (v, &c) in fixed.iter().zip(&cur) {
            if let Some(v) = v {
                sat.add_clause(&[neg_lit(c, *v)]);
            }
        }
        LiftSolver {
            sat,
            un,
            cur,
            next,
            bad,
            cons,
        }
    }
}

/// Is the sorted cube `a` a subset of the sorted cube `b` (the clause `¬a` subsumes `¬b`)?
fn subset(a: &[u32], b: &[u32]) -> bool {
    if a.len() > b.len() {
        return false;
    }
    let mut rest = b.iter();
    a.iter().all(|x| rest.any(|y| y == x))
}

/// The solver variables (frame 0 of `un`) of the AIG variables marked in `cone` (only its
/// inputs and latches with `sources`).
fn domain_vars(un: &Unroller<'_>, cone: &[bool], kinds: &[Kind], sources: bool) -> Vec<Var> {
    (cone.iter().enumerate())
        .filter(|&(v, &s)| s && !(sources && matches!(kinds.get(v), Some(Kind::And(_)))))
        .filter_map(|(v, _)| un.known(0, v as u32))
        .map(|l| l.var())
        .collect()
}

fn neg_lit(l: Lit, value_is_one: bool) -> Lit {
    if value_is_one {
        l
    } else {
        !l
    }
}

impl<'a> Ic3<'a> {
    fn new(aig: &'a Aig, prop: usize, bad: u32, opts: Ic3Options, budget: &'a Budget) -> Ic3<'a> {
        let mut roots = vec![bad];
        roots.extend(&aig.constraints);
        let coi = coi_latches(aig, &roots);
        let mut pos = vec![None; aig.latches.len()];
        for (p, &j) in coi.iter().enumerate() {
            if let Some(x) = pos.get_mut(j) {
                *x = Some(p);
            }
        }
        // on an exhausted budget no constants: the main loop stops at its first check
        let consts = ternary_constants(aig, budget).unwrap_or_default();
        let fixed: Vec<Option<bool>> = coi
            .iter()
            .map(|&j| consts.get(j).copied().flatten())
            .collect();
        let m = MainSolver::new(aig, &coi, bad, &fixed);
        let l = LiftSolver::new(aig, &coi, bad, &fixed);
        let n = coi.len();
        Ic3 {
            aig,
            prop,
            bad,
            opts,
            budget,
            coi,
            kinds: aig.kinds(),
            acts: vec![m.act0],
            sat: m.sat,
            un: m.un,
            cur: m.cur,
            next: m.next,
            act0: m.act0,
            bad_lit: m.bad_lit,
            lsat: l.sat,
            lun: l.un,
            lcur: l.cur,
            lnext: l.next,
            lbad: l.bad,
            lcons: l.cons,
            tl: None,
            pos,
            frames: vec![Vec::new()],
            fixed,
            obls: Vec::new(),
            queries: 0,
            phase: Phase::Bad,
            phase_queries: [0; Phase::COUNT],
            lift_queries: 0,
            requeued: 0,
            contained: 0,
            subsumed: 0,
            retired: 0,
            lretired: 0,
            rebuilds: 0,
            observer: None,
            watch_frame: 0,
            watch_base: 0,
            watch_since: 0,
            cone_switches: 0,
            cone_size_sum: 0,
            cone_queries: 0,
            activity: vec![0.0; n],
            bump: 1.0,
        }
    }

    /// Solver hygiene (as ABC's and rIC3's PDR): every relative-induction query and every lifting
    /// query leaves a retired activation clause behind, and every propagated frame clause a
    /// subsumed copy. Once the retired clauses outnumber `opts.rebuild` plus twice the live frame
    /// clauses, the solver is built afresh from the circuit and the live frame clauses.
    /// Called only where every frame clause is in `frames` (not inside propagation's sweep).
    fn main_hygiene(&mut self) {
        let limit = self.opts.rebuild;
        let live: usize = self.frames.iter().map(Vec::len).sum();
        if limit > 0 && self.retired > limit + 2 * live {
            let m = MainSolver::new(self.aig, &self.coi, self.bad, &self.fixed);
            self.sat = m.sat;
            self.un = m.un;
            self.cur = m.cur;
            self.next = m.next;
            self.act0 = m.act0;
            self.bad_lit = m.bad_lit;
            self.acts = vec![m.act0];
            let frames = std::mem::take(&mut self.frames);
            self.frames = vec![Vec::new()];
            for _ in 1..frames.len() {
                self.new_frame();
            }
            for (i, f) in frames.iter().enumerate().skip(1) {
                for c in f {
                    self.add_clause(c, i);
                }
            }
            self.retired = 0;
            self.rebuilds += 1;
        }
    }

    fn lift_hygiene(&mut self) {
        if self.opts.rebuild > 0 && self.lretired > self.opts.rebuild {
            let l = LiftSolver::new(self.aig, &self.coi, self.bad, &self.fixed);
            self.lsat = l.sat;
            self.lun = l.un;
            self.lcur = l.cur;
            self.lnext = l.next;
            self.lbad = l.bad;
            self.lcons = l.cons;
            self.lretired = 0;
            self.rebuilds += 1;
        }
    }

    fn k(&self) -> usize {
        self.frames.len() - 1
    }

    fn new_frame(&mut self) {
        let a = Lit::pos(self.sat.new_var());
        self.acts.push(a);
        self.frames.push(Vec::new());
    }

    /// Assumptions selecting frame `i` (`F_0 = Init`; `F_i` = deltas `i..=k`).
    fn frame_assumptions(&self, i: usize) -> Vec<Lit> {
        if i == 0 {
            vec![self.act0]
        } else {
            self.acts.iter().skip(i).copied().collect()
        }
    }

    fn latch_of(&self, c: u32) -> (usize, bool) {
        ((c >> 1) as usize, c & 1 == 0)
    }

    fn intersects_init(&self, cube: &Cube) -> bool {
        cube.iter().all(|&c| {
            let (p, one) = self.latch_of(c);
            match self
                .coi
                .get(p)
                .and_then(|&j| self.aig.latches.get(j))
                .map(|l| l.reset)
            {
                Some(Reset::Zero) => !one,
                Some(Reset::One) => one,
                _ => true,
            }
        })
    }

    /// The combinational cone (at the current state) of `roots` and of the constraints: the
    /// variables a query about `roots` depends on, `true` per AIG variable.
    fn cone(&self, roots: &[u32]) -> Vec<bool> {
        let mut all = roots.to_vec();
        all.extend(&self.aig.constraints);
        cone_vars(self.aig, &self.kinds, &all, |_| None)
    }

    /// The stall rule of `opts.cone_switch`: which of the two query modes (cone or whole
    /// circuit) converges is not a property of the circuit a rule can read (the query counts
    /// move with the models the solver returns), so a frame that has cost as many queries as
    /// all before it, and at least `cone_switch`, goes on in the other mode, and switches back
    /// after as many more. Frames and lemmas are valid in either mode. Cone queries switch to
    /// the whole circuit only when their cones averaged at least [`CONE_SWITCH_SHARE`] of the
    /// circuit: below it a whole-circuit query costs many cone queries.
    fn cone_stall_switch(&mut self) {
        let k = self.k();
        if k != self.watch_frame {
            self.watch_frame = k;
            self.watch_base = self.queries;
            self.restart_watch();
        }
        let limit = self.opts.cone_switch;
        if limit == 0 || self.queries - self.watch_since < limit.max(self.watch_base) {
            return;
        }
        let vars = self.aig.maxvar as u64 + 1;
        if self.opts.cone && self.cone_size_sum * CONE_SWITCH_SHARE < vars * self.cone_queries {
            return;
        }
        self.opts.cone = !self.opts.cone;
        self.restart_watch();
        self.cone_switches += 1;
        if !self.opts.cone {
            self.sat.clear_domain();
            self.lsat.clear_domain();
        }
    }

    fn restart_watch(&mut self) {
        self.watch_since = self.queries;
        self.cone_size_sum = 0;
        self.cone_queries = 0;
    }

    /// Solves the main solver under `assumptions`, a query about the AIG literals `roots` at
    /// the current state (the next-state functions of `cube`, or the bad literal) and about
    /// `cube`'s own latches (`¬cube`): with `opts.cone`, the solver decides only the cone of
    /// `roots` and the constraints, and `cube`'s latches, as rIC3 and ABC's PDR restrict their
    /// queries. `Unsat` is exact. A model is exact on that cone — every gate outside it is a
    /// function of inputs and latches it leaves open, read as 0 — but may contradict a frame
    /// clause over latches outside it: the predecessor is then one the frame does not hold,
    /// lifted to the cone's latches. IC3 stays sound (its counterexample is a chain of real
    /// transitions, replayed; its invariant is re-checked) and terminates (the lemma that
    /// blocks the cube is over the decided latches, so the same partial state does not come
    /// back); it may block a state a frame already excludes.
    fn solve(&mut self, assumptions: &[Lit], roots: &[u32], cube: &Cube) -> Result<bool, Stop> {
        self.queries += 1;
        if let Some(n) = self.phase_queries.get_mut(self.phase.index()) {
            *n += 1;
        }
        if self.queries.is_multiple_of(OBSERVE_EVERY) {
            let (k, q) = (self.k(), self.queries);
            if let Some(f) = self.observer.as_mut() {
                f(k, q);
            }
        }
        self.cone_stall_switch();
        if self.opts.cone {
            let cone = self.cone(roots);
            self.cone_size_sum += cone.iter().filter(|&&b| b).count() as u64;
            self.cone_queries += 1;
            let mut dom = domain_vars(&self.un, &cone, &self.kinds, self.opts.decide_sources);
            dom.extend(cube.iter().filter_map(|&c| {
                let (p, _) = self.latch_of(c);
                self.cur.get(p).map(|l| l.var())
            }));
            dom.extend(assumptions.iter().map(|l| l.var()));
            self.sat.set_domain(&dom);
        }
        // easy queries end before the solver's own poll (every few conflicts)
        self.budget.check().map_err(Stop::Out)?;
        match self.sat.solve(assumptions, self.budget) {
            SatResult::Sat => Ok(true),
            SatResult::Unsat => Ok(false),
            SatResult::Unknown => Err(Stop::Out(
                self.sat.exhausted().unwrap_or(Exhausted::Timeout),
            )),
        }
    }

    /// Relative induction: is `F_i ∧ ¬cube ∧ T ∧ cube'` unsatisfiable? `Ok(None)` if so, with the
    /// core (a sub-cube of `cube` whose primed literals failed) in `core`; `Ok(Some(..))` gives the
    /// predecessor state (coi values) and inputs.
    #[allow(clippy::type_complexity)]
    fn relative(
        &mut self,
        i: usize,
        cube: &Cube,
        with_not_cube: bool,
        core: &mut Cube,
    ) -> Result<Option<(Vec<bool>, Vec<bool>)>, Stop> {
        let mut assumptions = self.frame_assumptions(i);
        let tmp = if with_not_cube {
            let t = Lit::pos(self.sat.new_var());
            let mut cl: Vec<Lit> = vec![!t];
            for &c in cube {
                let (p, one) = self.latch_of(c);
                if let Some(&l) = self.cur.get(p) {
                    cl.push(!neg_lit(l, one));
                }
            }
            self.sat.add_clause(&cl);
            assumptions.push(t);
            Some(t)
        } else {
            None
        };
        let first = assumptions.len();
        for &c in cube {
            let (p, one) = self.latch_of(c);
            if let Some(&l) = self.next.get(p) {
                assumptions.push(neg_lit(l, one));
            }
        }
        let roots = self.next_functions(cube);
        let r = self.solve(&assumptions, &roots, cube);
        let out = match r {
            Ok(true) => {
                let s = self.state();
                let inp = self.inputs(0);
                Ok(Some((s, inp)))
            }
            Ok(false) => {
                let failed = self.sat.failed_assumptions();
                core.clear();
                for (&c, a) in cube.iter().zip(assumptions.iter().skip(first)) {
                    if failed.contains(a) {
                        core.push(c);
                    }
                }
                Ok(None)
            }
            Err(e) => Err(e),
        };
        if let Some(t) = tmp {
            self.sat.add_clause(&[!t]);
            self.retired += 1;
        }
        out
    }

    /// The next-state functions (AIG literals) of the latches of `cube`.
    fn next_functions(&self, cube: &Cube) -> Vec<u32> {
        cube.iter()
            .filter_map(|&c| {
                let (p, _) = self.latch_of(c);
                Some(self.aig.latches.get(*self.coi.get(p)?)?.next)
            })
            .collect()
    }

    fn state(&self) -> Vec<bool> {
        self.cur
            .iter()
            .map(|&l| self.sat.model_value(l).unwrap_or(false))
            .collect()
    }

    fn inputs(&self, frame: usize) -> Vec<bool> {
        (0..self.aig.inputs.len())
            .map(|j| self.un.input_value(&self.sat, frame, j))
            .collect()
    }

    /// Lifts a predecessor `state` (with `inputs`) of `target` (`None`: of the bad states) to a
    /// cube all of whose states, with these inputs, satisfy the constraints and step into
    /// `target` (or are bad), as `opts.lift` says. Ternary simulation refuses a state that does
    /// not reach the target under full evaluation (it cannot, given the queries' models are exact
    /// on the cone); SAT lifting then decides.
    fn lift(
        &mut self,
        state: &[bool],
        inputs: &[bool],
        target: Option<&Cube>,
    ) -> Result<Cube, Stop> {
        match self.opts.lift {
            Lift::Sat => self.sat_lift(state, inputs, target),
            Lift::Ternary => match self.ternary_lift(state, inputs, target, None) {
                Some(c) => Ok(c),
                None => self.sat_lift(state, inputs, target),
            },
            Lift::Both => {
                let c = self.sat_lift(state, inputs, target)?;
                Ok(self
                    .ternary_lift(state, inputs, target, Some(&c))
                    .unwrap_or(c))
            }
        }
    }

    /// Ternary-simulation lifting ([`TernaryLifter`]): the latches that must stay binary for the
    /// targets (the next-state functions of `target` at the cube's values, or the bad literal,
    /// and the constraints) to keep their values; constant latches are never candidates (they
    /// are asserted in every frame, as in SAT lifting). With `only`, the latches outside that
    /// cube start X and only its latches are candidates; `None` if the targets are not binary
    /// then (ternary simulation is weaker than the SAT core).
    fn ternary_lift(
        &mut self,
        state: &[bool],
        inputs: &[bool],
        target: Option<&Cube>,
        only: Option<&Cube>,
    ) -> Option<Cube> {
        let mut targets: Vec<u32> = match target {
            None => vec![self.bad],
            Some(t) => t
                .iter()
                .filter_map(|&c| {
                    let (p, one) = self.latch_of(c);
                    let next = self.aig.latches.get(*self.coi.get(p)?)?.next;
                    Some(if one { next } else { next ^ 1 })
                })
                .collect(),
        };
        let cone = self.cone(&targets);
        targets.extend(&self.aig.constraints);
        let mut known: Vec<bool> = self.fixed.iter().map(Option::is_some).collect();
        match only {
            None => known.iter_mut().for_each(|k| *k = true),
            Some(c) => c.iter().for_each(|&x| {
                if let Some(k) = known.get_mut((x >> 1) as usize) {
                    *k = true;
                }
            }),
        }
        let cands: Vec<usize> = (self.coi.iter().zip(&self.fixed).zip(&known))
            .filter(|((_, f), &k)| f.is_none() && k)
            .map(|((&j, _), _)| j)
            .collect();
        let pos = &self.pos;
        let value = |j: usize| {
            let p = pos.get(j).copied().flatten()?;
            known.get(p).copied()?.then(|| state.get(p).copied())?
        };
        let aig = self.aig;
        let tl = self.tl.get_or_insert_with(|| TernaryLifter::new(aig));
        let keep = tl.lift(&cone, inputs, value, &targets, &cands)?;
        let mut cube: Cube = (cands.iter().zip(keep))
            .filter(|&(_, k)| k)
            .filter_map(|(&j, _)| {
                let p = pos.get(j).copied().flatten()?;
                Some(2 * p as u32 + u32::from(!*state.get(p)?))
            })
            .collect();
        cube.sort_unstable();
        Some(cube)
    }

    /// SAT lifting of `state`: the failed assumptions of the query "these inputs and latches,
    /// and not the target".
    fn sat_lift(
        &mut self,
        state: &[bool],
        inputs: &[bool],
        target: Option<&Cube>,
    ) -> Result<Cube, Stop> {
        self.lift_hygiene();
        let act = Lit::pos(self.lsat.new_var());
        let mut cl = vec![!act];
        cl.extend(self.lcons.iter().map(|&c| !c));
        match target {
            None => cl.push(!self.lbad),
            Some(t) => {
                for &c in t {
                    let (p, one) = self.latch_of(c);
                    if let Some(&l) = self.lnext.get(p) {
                        cl.push(!neg_lit(l, one));
                    }
                }
            }
        }
        self.lsat.add_clause(&cl);
        // with `opts.cone`, only the inputs and latches the target, the bad literal and the
        // constraints read are assumed: the others are dropped from the cube without a query
        let cone = match (self.opts.cone, target) {
            (false, _) => None,
            (true, None) => Some(self.cone(&[self.bad])),
            (true, Some(t)) => Some(self.cone(&self.next_functions(t))),
        };
        let read = |v: u32| {
            cone.as_ref()
                .is_none_or(|c| c.get(v as usize) == Some(&true))
        };
        let mut assumptions = vec![act];
        for (j, &v) in inputs.iter().enumerate() {
            if let Some(&il) = self.aig.inputs.get(j) {
                if let Some(x) = self.lun.known(0, il >> 1).filter(|_| read(il >> 1)) {
                    assumptions.push(neg_lit(x, v));
                }
            }
        }
        let first = assumptions.len();
        let mut full: Cube = Vec::new();
        for (p, &v) in state.iter().enumerate() {
            let latch = (self.coi.get(p)).and_then(|&j| self.aig.latches.get(j));
            if let (Some(&l), Some(latch)) = (self.lcur.get(p), latch) {
                if read(latch.lit >> 1) {
                    assumptions.push(neg_lit(l, v));
                    full.push(2 * p as u32 + u32::from(!v));
                }
            }
        }
        if let Some(c) = &cone {
            let mut dom = domain_vars(&self.lun, c, &self.kinds, self.opts.decide_sources);
            dom.extend(assumptions.iter().map(|l| l.var()));
            self.lsat.set_domain(&dom);
        }
        self.budget.check().map_err(Stop::Out)?;
        self.lift_queries += 1;
        let r = self.lsat.solve(&assumptions, self.budget);
        self.lsat.add_clause(&[!act]);
        self.lretired += 1;
        match r {
            SatResult::Unsat => {
                let failed = self.lsat.failed_assumptions();
                let cube: Cube = full
                    .iter()
                    .zip(assumptions.iter().skip(first))
                    .filter(|(_, a)| failed.contains(a))
                    .map(|(&c, _)| c)
                    .collect();
                Ok(cube)
            }
            SatResult::Sat => Ok(full),
            SatResult::Unknown => Err(Stop::Out(
                self.lsat.exhausted().unwrap_or(Exhausted::Timeout),
            )),
        }
    }

    /// Makes a generalised cube disjoint from Init again by adding back a literal of `orig`
    /// (which is disjoint from Init) that contradicts the reset value.
    fn fix_init(&self, g: &mut Cube, orig: &Cube) {
        if !self.intersects_init(g) {
            return;
        }
        for &c in orig {
            let single = vec![c];
            if !self.intersects_init(&single) {
                g.push(c);
                g.sort_unstable();
                g.dedup();
                return;
            }
        }
    }

    /// Generalises a cube blocked at frame `i` (its relative-induction core is `core`): MIC with
    /// counterexamples to generalisation (Hassan, Bradley, Somenzi, *Better generalization in IC3*,
    /// FMCAD 2013, §III, Fig. 3): try dropping each literal; when the smaller cube is not
    /// relatively inductive because of a predecessor state (a CTG) that is itself blocked one
    /// frame lower, block the CTG (generalised at depth `d + 1`) instead of giving up, at most
    /// `ctg_max` times in a row; otherwise shrink the candidate to the literals the CTG agrees with
    /// and retry ("join").
    fn generalise(&mut self, i: usize, cube: &Cube, core: Cube) -> Result<Cube, Stop> {
        let mut g = if core.is_empty() { cube.clone() } else { core };
        self.fix_init(&mut g, cube);
        self.phase = Phase::Generalise;
        self.mic(i, g, 0)
    }

    /// Drops the literals of `g` one at a time (in latch order, or with `opts.activity` the
    /// least active latches first), each drop kept when `down` finds a blocked sub-cube.
    fn mic(&mut self, i: usize, mut g: Cube, d: usize) -> Result<Cube, Stop> {
        let mut order = g.clone();
        if self.opts.activity {
            let act = |c: &u32| self.activity.get((c >> 1) as usize).copied().unwrap_or(0.0);
            order.sort_by(|a, b| act(a).total_cmp(&act(b)));
        }
        let mut tries = 0;
        for lit in order {
            if g.len() <= 1 || tries >= self.opts.drop_tries {
                break;
            }
            let Ok(at) = g.binary_search(&lit) else {
                continue; // dropped with another literal by an earlier `down`
            };
            let mut cand = g.clone();
            cand.remove(at);
            if self.intersects_init(&cand) {
                continue;
            }
            tries += 1;
            if let Some(ng) = self.down(i, cand, d)? {
                g = ng;
            }
        }
        Ok(g)
    }

    /// A new lemma over `cube`'s latches: their activity goes up by a weight that grows
    /// geometrically, so older lemmas count for less (the scores are rescaled before they
    /// overflow).
    fn bump_activity(&mut self, cube: &Cube) {
        for &c in cube {
            if let Some(a) = self.activity.get_mut((c >> 1) as usize) {
                *a += self.bump;
            }
        }
        self.bump *= 1.0 / ACTIVITY_DECAY;
        if self.bump > 1e100 {
            self.activity.iter_mut().for_each(|a| *a *= 1e-100);
            self.bump *= 1e-100;
        }
    }

    /// `Some(c)` with `c ⊆ cube` blocked relative to `F_{i-1}` (and disjoint from Init), or `None`
    /// when no sub-cube of `cube` is found that way (Hassan et al.'s `ctgDown`).
    fn down(&mut self, i: usize, mut cube: Cube, d: usize) -> Result<Option<Cube>, Stop> {
        let (mut ctgs, mut joins) = (0, 0);
        loop {
            if cube.is_empty() || self.intersects_init(&cube) {
                return Ok(None);
            }
            let mut core = Vec::new();
            let Some((s, _)) = self.relative(i - 1, &cube, true, &mut core)? else {
                let mut ng = if core.is_empty() { cube.clone() } else { core };
                self.fix_init(&mut ng, &cube);
                return Ok(Some(ng));
            };
            if d >= self.opts.ctg_depth {
                return Ok(None);
            }
            let ctg: Cube = (s.iter().enumerate())
                .filter(|&(p, _)| self.fixed.get(p).is_some_and(Option::is_none))
                .map(|(p, &v)| 2 * p as u32 + u32::from(!v))
                .collect();
            let mut ctg_core = Vec::new();
            if ctgs < self.opts.ctg_max
                && i >= 2
                && !self.intersects_init(&ctg)
                && self.relative(i - 2, &ctg, true, &mut ctg_core)?.is_none()
            {
                ctgs += 1;
                // the highest frame the CTG is blocked at
                let mut j = i - 1;
                while j < self.k() {
                    let mut c2 = Vec::new();
                    if self.relative(j, &ctg, true, &mut c2)?.is_some() {
                        break;
                    }
                    ctg_core = c2;
                    j += 1;
                }
                let mut cg = if ctg_core.is_empty() {
                    ctg.clone()
                } else {
                    ctg_core
                };
                self.fix_init(&mut cg, &ctg);
                let cg = self.mic(j, cg, d + 1)?;
                self.bump_activity(&cg);
                self.add_clause(&cg, j);
            } else {
                if joins >= self.opts.join_max {
                    return Ok(None);
                }
                joins += 1;
                ctgs = 0;
                // join: keep the literals of the cube the CTG agrees with
                cube.retain(|&c| {
                    let (p, one) = self.latch_of(c);
                    s.get(p).is_some_and(|&v| v == one)
                });
            }
        }
    }

    fn add_clause(&mut self, cube: &Cube, frame: usize) {
        let Some(&act) = self.acts.get(frame) else {
            return;
        };
        if self.opts.subsume {
            // a clause of frame `j ≤ frame` whose cube contains `cube` is implied in `F_j` by
            // the new one; it stays in the solver (retired) and leaves propagation
            for f in self.frames.iter_mut().take(frame + 1) {
                let before = f.len();
                f.retain(|c| !subset(cube, c));
                let gone = before - f.len();
                self.subsumed += gone as u64;
                self.retired += gone;
            }
        }
        let mut cl = vec![!act];
        for &c in cube {
            let (p, one) = self.latch_of(c);
            if let Some(&l) = self.cur.get(p) {
                cl.push(!neg_lit(l, one));
            }
        }
        self.sat.add_clause(&cl);
        if let Some(f) = self.frames.get_mut(frame) {
            f.push(cube.clone());
        }
    }

    /// The counterexample through obligation `ob`, whose first state is `init_state`
    /// (coi values), reached with `first_inputs` (if a predecessor was found in `Init`).
    fn cex(&self, init_state: &[bool], first_inputs: Option<Vec<bool>>, ob: usize) -> Stop {
        let mut inputs = Vec::new();
        if let Some(f) = first_inputs {
            inputs.push(f);
        }
        let mut at = Some(ob);
        while let Some(o) = at.and_then(|i| self.obls.get(i)) {
            inputs.push(o.inputs.clone());
            at = o.next;
        }
        let depth = inputs.len().saturating_sub(1);
        let latches = self
            .aig
            .latches
            .iter()
            .enumerate()
            .map(|(j, l)| {
                Some(match l.reset {
                    Reset::Zero => false,
                    Reset::One => true,
                    Reset::Uninit => self
                        .pos
                        .get(j)
                        .copied()
                        .flatten()
                        .and_then(|p| init_state.get(p).copied())
                        .unwrap_or(false),
                })
            })
            .collect();
        Stop::Cex(
            Witness {
                props: vec![('b', self.prop)],
                latches,
                inputs: inputs
                    .into_iter()
                    .map(|v| v.into_iter().map(Some).collect())
                    .collect(),
            },
            depth,
        )
    }

    /// A state of `cube` inside Init: the cube's values, reset values elsewhere, 0 for free ones.
    fn init_state_in(&self, cube: &Cube) -> Vec<bool> {
        let mut s: Vec<bool> = self
            .coi
            .iter()
            .map(|&j| {
                self.aig
                    .latches
                    .get(j)
                    .is_some_and(|l| l.reset == Reset::One)
            })
            .collect();
        for &c in cube {
            let (p, one) = self.latch_of(c);
            if let Some(x) = s.get_mut(p) {
                *x = one;
            }
        }
        s
    }

    fn block(&mut self, root: usize) -> Result<(), Stop> {
        let mut q: BinaryHeap<Reverse<(usize, usize)>> = BinaryHeap::new();
        if let Some(o) = self.obls.get(root) {
            q.push(Reverse((o.frame, root)));
        }
        let mut ticker = 0u32;
        while let Some(Reverse((frame, id))) = q.pop() {
            self.main_hygiene();
            ticker += 1;
            if ticker.is_multiple_of(64) {
                self.budget.check().map_err(Stop::Out)?;
            }
            let cube = match self.obls.get(id) {
                Some(o) => o.cube.clone(),
                None => continue,
            };
            if self.intersects_init(&cube) {
                let s = self.init_state_in(&cube);
                return Err(self.cex(&s, None, id));
            }
            if frame == 0 {
                continue;
            }
            if let Some(m) = self.blocked_at(&cube, frame) {
                self.contained += 1;
                if self.opts.requeue && m < self.k() {
                    q.push(Reverse((m + 1, id)));
                    if let Some(o) = self.obls.get_mut(id) {
                        o.frame = m + 1;
                    }
                }
                continue;
            }
            let mut core = Vec::new();
            self.phase = Phase::Block;
            match self.relative(frame - 1, &cube, true, &mut core)? {
                Some((s, inp)) => {
                    if frame - 1 == 0 {
                        return Err(self.cex(&s, Some(inp), id));
                    }
                    let pc = self.lift(&s, &inp, Some(&cube))?;
                    self.obls.push(Obligation {
                        cube: pc,
                        frame: frame - 1,
                        inputs: inp,
                        next: Some(id),
                    });
                    q.push(Reverse((frame - 1, self.obls.len() - 1)));
                    q.push(Reverse((frame, id)));
                }
                None => {
                    let g = self.generalise(frame, &cube, core)?;
                    // push forward
                    self.phase = Phase::Push;
                    let mut f = frame;
                    while f < self.k() {
                        let mut c2 = Vec::new();
                        if self.relative(f, &g, true, &mut c2)?.is_some() {
                            break;
                        }
                        f += 1;
                    }
                    self.bump_activity(&g);
                    self.add_clause(&g, f);
                    if self.opts.requeue && f < self.k() {
                        self.requeued += 1;
                        q.push(Reverse((f + 1, id)));
                        if let Some(o) = self.obls.get_mut(id) {
                            o.frame = f + 1;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// With `opts.subsume`, the highest frame `m ≥ frame` one of whose lemmas excludes all of
    /// `cube` (so `cube` lies outside `F_frame … F_m`), as ABC's PDR checks an obligation's
    /// containment before querying it.
    fn blocked_at(&self, cube: &Cube, frame: usize) -> Option<usize> {
        if !self.opts.subsume {
            return None;
        }
        (frame..self.frames.len()).rev().find(|&m| {
            self.frames
                .get(m)
                .is_some_and(|f| f.iter().any(|c| subset(c, cube)))
        })
    }

    /// Propagates clauses forward; `Some(invariant)` at a fixpoint.
    fn propagate(&mut self) -> Result<Option<Vec<Cube>>, Stop> {
        self.phase = Phase::Propagate;
        for i in 1..self.k() {
            self.main_hygiene();
            let clauses = self
                .frames
                .get_mut(i)
                .map(std::mem::take)
                .unwrap_or_default();
            let mut keep = Vec::new();
            for c in clauses {
                let mut core = Vec::new();
                if self.relative(i, &c, false, &mut core)?.is_none() {
                    self.add_clause(&c, i + 1);
                    // the copy under frame i's activation literal is subsumed now
                    self.retired += 1;
                } else {
                    keep.push(c);
                }
            }
            let empty = keep.is_empty();
            if let Some(f) = self.frames.get_mut(i) {
                *f = keep;
            }
            if empty {
                let inv: Vec<Cube> = self.frames.iter().skip(i + 1).flatten().cloned().collect();
                return Ok(Some(inv));
            }
        }
        Ok(None)
    }

    fn run(&mut self) -> Result<Vec<Cube>, Stop> {
        // depth 0: Init ∧ C ∧ bad
        let mut a = vec![self.act0, self.bad_lit];
        if self.solve(&a, &[self.bad], &Vec::new())? {
            let s = self.state();
            let inp = self.inputs(0);
            self.obls.clear();
            return Err(self.cex_direct(&s, inp));
        }
        self.new_frame();
        loop {
            self.budget.check().map_err(Stop::Out)?;
            loop {
                self.phase = Phase::Bad;
                a = self.frame_assumptions(self.k());
                a.push(self.bad_lit);
                if !self.solve(&a, &[self.bad], &Vec::new())? {
                    break;
                }
                let s = self.state();
                let inp = self.inputs(0);
                let cube = self.lift(&s, &inp, None)?;
                self.obls.push(Obligation {
                    cube,
                    frame: self.k(),
                    inputs: inp,
                    next: None,
                });
                let id = self.obls.len() - 1;
                self.block(id)?;
            }
            self.new_frame();
            if let Some(inv) = self.propagate()? {
                return Ok(inv);
            }
        }
    }

    fn cex_direct(&self, s: &[bool], inp: Vec<bool>) -> Stop {
        let w = self.cex(s, None, usize::MAX);
        match w {
            Stop::Cex(mut w, _) => {
                w.inputs = vec![inp.into_iter().map(Some).collect()];
                Stop::Cex(w, 0)
            }
            other => other,
        }
    }
}

pub(crate) fn ic3(
    aig: &Aig,
    prop: usize,
    opts: Ic3Options,
    budget: &Budget,
) -> (Outcome, Ic3Stats) {
    ic3_observed(aig, prop, opts, budget, None)
}

/// [`ic3`], calling `observer(frames, queries)` every [`OBSERVE_EVERY`] SAT queries (from the
/// calling thread).
pub(crate) fn ic3_observed<'a>(
    aig: &'a Aig,
    prop: usize,
    opts: Ic3Options,
    budget: &'a Budget,
    observer: Option<&'a mut dyn FnMut(usize, u64)>,
) -> (Outcome, Ic3Stats) {
    let Some(&bad) = aig.properties().get(prop) else {
        return (
            Outcome::Unknown {
                reason: format!("no safety property {prop}"),
            },
            Ic3Stats::default(),
        );
    };
    let mut e = Ic3::new(aig, prop, bad, opts, budget);
    e.observer = observer;
    let r = e.run();
    let stats = Ic3Stats {
        frames: e.k(),
        queries: e.queries,
        obligations: e.obls.len(),
        clauses: e.frames.iter().map(|f| f.len()).sum(),
        rebuilds: e.rebuilds,
        cone_switches: e.cone_switches,
        phase_queries: e.phase_queries,
        lift_queries: e.lift_queries,
        requeued: e.requeued,
        contained: e.contained,
        subsumed: e.subsumed,
    };
    let out = match r {
        Ok(mut inv) => {
            // the constant latches' facts: clause `latch = v` is the negated cube `latch = ¬v`
            for (p, v) in e.fixed.iter().enumerate() {
                if let Some(v) = v {
                    inv.push(vec![2 * p as u32 + u32::from(*v)]);
                }
            }
            let clauses = inv
                .iter()
                .map(|cube| {
                    cube.iter()
                        .filter_map(|&c| {
                            let (p, one) = e.latch_of(c);
                            let lit = e.aig.latches.get(*e.coi.get(p)?)?.lit;
                            // clause ¬cube: latch is 0 where the cube says 1
                            Some(if one { lit ^ 1 } else { lit })
                        })
                        .collect()
                })
                .collect();
            Outcome::Safe(Proof::Invariant(clauses))
        }
        Err(Stop::Cex(witness, depth)) => Outcome::Unsafe { witness, depth },
        Err(Stop::Out(why)) => Outcome::Exhausted {
            why,
            reached: format!("IC3: frame {} ({} clauses)", stats.frames, stats.clauses),
        },
    };
    (out, stats)
}

/// Counters of an IC3 run.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Ic3Stats {
    pub(crate) frames: usize,
    pub(crate) queries: u64,
    pub(crate) obligations: usize,
    pub(crate) clauses: usize,
    pub(crate) rebuilds: u64,
    /// Switches between cone and whole-circuit queries (`Ic3Options::cone_switch`).
    pub(crate) cone_switches: u64,
    /// Main-solver queries per [`Phase`] (in the order of [`Phase::NAMES`]).
    pub(crate) phase_queries: [u64; Phase::COUNT],
    /// Lifting queries.
    pub(crate) lift_queries: u64,
    /// Blocked obligations re-enqueued one frame higher.
    pub(crate) requeued: u64,
    /// Obligations a lemma already excluded (no query), and frame clauses a new lemma subsumed.
    pub(crate) contained: u64,
    pub(crate) subsumed: u64,
}

#[cfg(test)]
mod tests {
    use super::subset;
    use proptest::prelude::*;

    proptest! {
        /// `subset` on sorted cubes is set inclusion.
        #[test]
        fn subset_is_inclusion(a in proptest::collection::btree_set(0u32..12, 0..6),
                               b in proptest::collection::btree_set(0u32..12, 0..8)) {
            let (va, vb): (Vec<u32>, Vec<u32>) = (a.iter().copied().collect(), b.iter().copied().collect());
            prop_assert_eq!(subset(&va, &vb), a.is_subset(&b));
        }
    }
}
