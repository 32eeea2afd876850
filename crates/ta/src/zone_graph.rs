//! The zone graph of a network of timed automata: discrete transitions of the product
//! (asynchronous edges, synchronisation vectors with weak `?` participants, committed locations)
//! and their effect on zones (guard, updates, target invariant, time elapse unless a location is
//! urgent or committed, extrapolation).
//!
//! Seed: Bengtsson & Yi, "Timed Automata: Semantics, Algorithms and Tools" (2003), §3–§4
//! (symbolic semantics, `succ(l, Z) = up(reset(Z ∧ g)) ∧ I(l')`); the product and weak
//! synchronisation follow TChecker's semantics (`doc/file-format.md`).

use crate::dbm::{le, lt, Dbm, MAX_CONST};
use crate::extra_lu::extra_lu_plus;
use crate::extra_m::extra_m;
use crate::lu_bounds::LuBounds;
use crate::model::{
    exec, stay_out_atom, stay_out_options, ClockAtom, Cmp, EvalError, Guard, Model, STAY_OUT,
};
use rustc_hash::FxHashMap;

/// Which abstraction is applied to every zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extrapolation {
    /// ExtraLU+ with per-location LU bounds (TChecker's default).
    LuLocal,
    /// ExtraLU+ with global LU bounds.
    LuGlobal,
    /// ExtraM with global bounds `M = max(L, U)`.
    MGlobal,
    /// ExtraM with per-location bounds `M(l) = max(L(l), U(l))` (Behrmann–Bouyer–Fleury–Larsen's
    /// static guard analysis: region equivalence under these bounds is a bisimulation, so
    /// deadlocks and clock constraints of queries are preserved as with global bounds).
    MLocal,
}

impl Extrapolation {
    pub fn name(self) -> &'static str {
        match self {
            Extrapolation::LuLocal => "extraLU+l",
            Extrapolation::LuGlobal => "extraLU+g",
            Extrapolation::MGlobal => "extraM",
            Extrapolation::MLocal => "extraM+l",
        }
    }
    pub fn parse(s: &str) -> Option<Extrapolation> {
        match s {
            "extraLU+l" | "extralu+l" => Some(Extrapolation::LuLocal),
            "extraLU+g" | "extralu+g" => Some(Extrapolation::LuGlobal),
            "extraM" | "extram" | "extraM+g" => Some(Extrapolation::MGlobal),
            "extraM+l" | "extram+l" => Some(Extrapolation::MLocal),
            _ => None,
        }
    }
}

/// One discrete move: `(process, edge)` per participating process, in process order.
pub type Transition = Vec<(u32, u32)>;

/// A discrete state: location per process, then the integer valuation.
pub type Discrete = Vec<i32>;

/// The zone graph of a model under one extrapolation.
pub(crate) struct ZoneGraph<'m> {
    pub(crate) model: &'m Model,
    lu: LuBounds,
    extrapolation: Extrapolation,
    scratch_l: Vec<i32>,
    scratch_u: Vec<i32>,
    /// Set when a broadcast had more receiver combinations than [`MAX_COMBOS`]: the moves listed
    /// are then incomplete and every answer must be `unknown`.
    overflow: std::cell::Cell<bool>,
    /// UPPAAL's semantics for updates: an enabled move whose update fails (a bounded integer out
    /// of its range, an index out of bounds, a division by zero) is a run-time error, recorded
    /// here, instead of TChecker's silently disabled move.
    strict_updates: bool,
    runtime_error: std::cell::RefCell<Option<(Transition, EvalError)>>,
    sync_index: SyncIndex,
}

/// The synchronisation vectors by their first strong participant `(process, event)`, so that a
/// state's moves are found from its enabled edges rather than by scanning every vector (channel
/// arrays make hundreds of thousands of them).
#[derive(Default)]
struct SyncIndex {
    by_trigger: FxHashMap<(u32, u32), Vec<u32>>,
    /// Vectors without a strong participant (every state must consider them).
    untriggered: Vec<u32>,
    /// The outgoing edges of `(process, location)` with a synchronised event, by event (in the
    /// order of `Process::out`).
    by_event: FxHashMap<(u32, u32, u32), Vec<u32>>,
}

impl SyncIndex {
    fn new(model: &Model) -> SyncIndex {
        let mut ix = SyncIndex::default();
        for (k, s) in model.syncs.iter().enumerate() {
            match s.parts.iter().find(|p| !p.2) {
                Some(&(p, ev, _)) => ix.by_trigger.entry((p, ev)).or_default().push(k as u32),
                None => ix.untriggered.push(k as u32),
            }
        }
        for (p, proc_) in model.processes.iter().enumerate() {
            for (l, out) in proc_.out.iter().enumerate() {
                for &e in out {
                    let Some(ed) = proc_.edges.get(e as usize) else {
                        continue;
                    };
                    for ev in ed.events() {
                        if model.synced.get(p).and_then(|v| v.get(ev as usize)) == Some(&true) {
                            ix.by_event
                                .entry((p as u32, l as u32, ev))
                                .or_default()
                                .push(e);
                        }
                    }
                }
            }
        }
        ix
    }

    fn edges(&self, p: u32, l: i32, ev: u32) -> &[u32] {
        self.by_event
            .get(&(p, l as u32, ev))
            .map_or(&[], Vec::as_slice)
    }
}

/// At most this many participant combinations per synchronisation and state (broadcast receivers
/// with clock guards multiply them); beyond, the search stops with an `unknown` answer.
pub(crate) const MAX_COMBOS: usize = 4096;

/// Constrains `z` by one clock atom (bound evaluated on `ints`); false if the zone becomes empty.
pub(crate) fn constrain_atom(z: &mut Dbm, a: &ClockAtom, ints: &[i32]) -> Result<bool, EvalError> {
    let x = a.x.resolve(ints)?;
    let y = match &a.y {
        Some(y) => y.resolve(ints)?,
        None => 0,
    };
    if x >= z.dim() || y >= z.dim() {
        return Err(EvalError::IndexOutOfBounds);
    }
    let c = a.bound.eval(ints)?;
    if c.abs() > MAX_CONST {
        return Err(EvalError::Overflow);
    }
    let c = c as i32;
    Ok(match a.cmp {
        Cmp::Lt => z.constrain(x, y, lt(c)),
        Cmp::Le => z.constrain(x, y, le(c)),
        Cmp::Ge => z.constrain(y, x, le(-c)),
        Cmp::Gt => z.constrain(y, x, lt(-c)),
        Cmp::Eq => z.constrain(x, y, le(c)) && z.constrain(y, x, le(-c)),
    })
}

/// Constrains `z` by the clock guards of a move and the negated atoms of its stay-out entries
/// (broadcast receivers that do not take part); false if empty or a bound fails to evaluate.
pub(crate) fn constrain_move(z: &mut Dbm, model: &Model, t: &[(u32, u32)], ints: &[i32]) -> bool {
    for &(p, e) in t {
        if p & STAY_OUT != 0 {
            let Some(a) = stay_out_atom(model, p, e) else {
                return false;
            };
            if !matches!(constrain_atom(z, &a, ints), Ok(true)) {
                return false;
            }
        } else {
            let Some(edge) = model
                .processes
                .get(p as usize)
                .and_then(|pr| pr.edges.get(e as usize))
            else {
                return false;
            };
            if !constrain_guard(z, &edge.guard, ints) {
                return false;
            }
        }
    }
    true
}

/// Constrains `z` by the clock part of a guard; false if empty or if a bound fails to evaluate.
pub(crate) fn constrain_guard(z: &mut Dbm, g: &Guard, ints: &[i32]) -> bool {
    for a in &g.clocks {
        match constrain_atom(z, a, ints) {
            Ok(true) => {}
            _ => return false,
        }
    }
    true
}

impl<'m> ZoneGraph<'m> {
    pub(crate) fn new(model: &'m Model, extrapolation: Extrapolation) -> ZoneGraph<'m> {
        let dim = model.dim();
        ZoneGraph {
            model,
            lu: LuBounds::compute(model),
            extrapolation,
            scratch_l: vec![0; dim],
            scratch_u: vec![0; dim],
            overflow: std::cell::Cell::new(false),
            strict_updates: false,
            runtime_error: std::cell::RefCell::new(None),
            sync_index: SyncIndex::new(model),
        }
    }

    /// Raises the global and local bounds by the constants of `atoms` (clock constraints of a
    /// query, which the abstraction must preserve in every state).
    pub(crate) fn raise_bounds(&mut self, atoms: &[ClockAtom]) {
        self.lu.raise(atoms, self.model);
    }

    /// Makes failing updates of enabled moves run-time errors (UPPAAL) instead of disabling the
    /// move (TChecker).
    pub(crate) fn set_strict_updates(&mut self, strict: bool) {
        self.strict_updates = strict;
    }

    /// The first run-time error met: the move and why its update failed.
    pub(crate) fn runtime_error(&self) -> Option<(Transition, EvalError)> {
        self.runtime_error.borrow().clone()
    }

    /// True if some state had too many participant combinations (the moves were cut short).
    pub(crate) fn overflowed(&self) -> bool {
        self.overflow.get()
    }

    fn nproc(&self) -> usize {
        self.model.processes.len()
    }

    /// True if time cannot elapse in the discrete state (locations then integers): some
    /// location is urgent or committed, or a synchronisation on an urgent channel is enabled.
    pub(crate) fn is_urgent(&self, disc: &[i32]) -> bool {
        let n = self.nproc().min(disc.len());
        let (locs, ints) = disc.split_at(n);
        self.no_delay(locs, ints)
    }

    /// `z` closed under delay within the invariants of `disc` (not delayed where time cannot
    /// pass), or `None` if that leaves nothing. An LU-extrapolated zone may lack delays of its
    /// valuations or reach past the invariants; predicates on valuations (deadlock, clock
    /// constraints) are exact per valuation only on a set closed this way.
    pub(crate) fn delay_closure(&self, disc: &[i32], z: &Dbm) -> Option<Dbm> {
        let n = self.nproc().min(disc.len());
        let (locs, ints) = disc.split_at(n);
        let mut c = z.clone();
        if !self.no_delay(locs, ints) {
            c.up();
        }
        (self.constrain_invariant(&mut c, locs, ints) && !c.is_empty()).then_some(c)
    }

    fn no_delay(&self, locs: &[i32], ints: &[i32]) -> bool {
        locs.iter().zip(&self.model.processes).any(|(&l, p)| {
            p.locations
                .get(l as usize)
                .is_some_and(|l| l.urgent || l.committed)
        }) || self.urgent_sync_enabled(locs, ints)
    }

    /// Some synchronisation on an urgent channel is enabled: every strong participant has an
    /// edge with its event whose integer guard holds (urgent edges have no clock guards).
    pub(crate) fn urgent_sync_enabled(&self, locs: &[i32], ints: &[i32]) -> bool {
        let m = self.model;
        m.syncs.iter().filter(|s| s.urgent).any(|s| {
            s.parts.iter().filter(|p| !p.2).all(|&(p, ev, _)| {
                let Some(proc_) = m.processes.get(p as usize) else {
                    return false;
                };
                locs.get(p as usize)
                    .and_then(|&l| proc_.out.get(l as usize))
                    .is_some_and(|edges| {
                        edges.iter().any(|&e| {
                            proc_.edges.get(e as usize).is_some_and(|ed| {
                                ed.event_at(ints) == Some(ev)
                                    && matches!(ed.guard.ints_hold(ints), Ok(true))
                            })
                        })
                    })
            })
        })
    }

    /// Constrains `z` by the invariants of the locations (integer parts on `ints`); false if empty
    /// or violated.
    pub(crate) fn constrain_invariant(&self, z: &mut Dbm, locs: &[i32], ints: &[i32]) -> bool {
        for (&l, p) in locs.iter().zip(&self.model.processes) {
            let Some(loc) = p.locations.get(l as usize) else {
                return false;
            };
            if !matches!(loc.invariant.ints_hold(ints), Ok(true)) {
                return false;
            }
            if !constrain_guard(z, &loc.invariant, ints) {
                return false;
            }
        }
        true
    }

    /// Applies the extrapolation chosen for the graph.
    pub(crate) fn extrapolate(&mut self, z: &mut Dbm, locs: &[i32]) {
        match self.extrapolation {
            Extrapolation::LuLocal => {
                self.lu
                    .local(locs, &mut self.scratch_l, &mut self.scratch_u);
                extra_lu_plus(z, &self.scratch_l, &self.scratch_u);
            }
            Extrapolation::LuGlobal => extra_lu_plus(z, &self.lu.global_l, &self.lu.global_u),
            Extrapolation::MGlobal => {
                for x in 0..self.scratch_l.len() {
                    self.scratch_l[x] = self.lu.global_l[x].max(self.lu.global_u[x]);
                }
                extra_m(z, &self.scratch_l);
            }
            Extrapolation::MLocal => {
                self.lu
                    .local(locs, &mut self.scratch_l, &mut self.scratch_u);
                for (l, &u) in self.scratch_l.iter_mut().zip(&self.scratch_u) {
                    *l = (*l).max(u);
                }
                extra_m(z, &self.scratch_l);
            }
        }
    }

    /// The `L`, `U` bounds matching the extrapolation, for aLU covering of a location tuple.
    pub(crate) fn cover_bounds(&self, locs: &[i32]) -> (Vec<i32>, Vec<i32>) {
        let dim = self.model.dim();
        match self.extrapolation {
            Extrapolation::LuLocal => {
                let mut l = vec![0; dim];
                let mut u = vec![0; dim];
                self.lu.local(locs, &mut l, &mut u);
                (l, u)
            }
            Extrapolation::LuGlobal => (self.lu.global_l.clone(), self.lu.global_u.clone()),
            Extrapolation::MGlobal => {
                let m: Vec<i32> = (0..dim)
                    .map(|x| self.lu.global_l[x].max(self.lu.global_u[x]))
                    .collect();
                (m.clone(), m)
            }
            Extrapolation::MLocal => {
                let mut l = vec![0; dim];
                let mut u = vec![0; dim];
                self.lu.local(locs, &mut l, &mut u);
                for (l, u) in l.iter_mut().zip(u.iter_mut()) {
                    *l = (*l).max(*u);
                    *u = *l;
                }
                (l, u)
            }
        }
    }

    /// Time elapse within the invariant, unless urgent.
    fn delay(&self, z: &mut Dbm, locs: &[i32], ints: &[i32]) -> bool {
        if self.no_delay(locs, ints) {
            return true;
        }
        z.up();
        self.constrain_invariant(z, locs, ints)
    }

    /// The initial states (one per tuple of initial locations), extrapolated.
    pub(crate) fn initial(&mut self) -> Vec<(Discrete, Dbm)> {
        let ints = self.model.initial_ints();
        let mut out = Vec::new();
        for locs in self.model.initial_locations() {
            let locs: Vec<i32> = locs.iter().map(|&l| l as i32).collect();
            let mut z = Dbm::zero(self.model.dim());
            if !self.constrain_invariant(&mut z, &locs, &ints) || !self.delay(&mut z, &locs, &ints)
            {
                continue;
            }
            self.extrapolate(&mut z, &locs);
            let mut d = locs.clone();
            d.extend_from_slice(&ints);
            out.push((d, z));
        }
        out
    }

    /// The exact (not extrapolated) symbolic state reached from the initial discrete state `init`
    /// by `moves`, or `None` if the path is infeasible.
    pub(crate) fn exact_path(
        &self,
        init: &Discrete,
        moves: &[Transition],
    ) -> Option<(Discrete, Dbm)> {
        let n = self.nproc();
        let (locs, ints) = init.split_at(n.min(init.len()));
        let mut z = Dbm::zero(self.model.dim());
        if !self.constrain_invariant(&mut z, locs, ints) || !self.delay(&mut z, locs, ints) {
            return None;
        }
        let mut d = init.clone();
        for t in moves {
            let (nd, nz) = self.successor_exact(&d, &z, t)?;
            d = nd;
            z = nz;
        }
        Some((d, z))
    }

    /// The discrete moves enabled by the locations of `disc` (guards not yet evaluated, except
    /// the integer guards of broadcast receivers, which decide who takes part, and their clock
    /// guards, which must be satisfiable in the zone `z` together with the sender's).
    pub(crate) fn transitions(&self, disc: &[i32], z: &Dbm, out: &mut Vec<Transition>) {
        out.clear();
        let m = self.model;
        let n = self.nproc().min(disc.len());
        let (locs, ints) = disc.split_at(n);
        let committed = locs
            .iter()
            .zip(&m.processes)
            .any(|(&l, p)| p.locations.get(l as usize).is_some_and(|l| l.committed));
        let in_committed = |p: u32| {
            m.processes
                .get(p as usize)
                .and_then(|pr| pr.locations.get(*locs.get(p as usize)? as usize))
                .is_some_and(|l| l.committed)
        };
        // the synchronisations whose first strong participant has an edge with its event and a
        // true integer guard here (the others cannot fire), in the model's order
        let mut candidates = self.sync_index.untriggered.clone();
        for (pi, p) in m.processes.iter().enumerate() {
            let Some(edges) = locs.get(pi).and_then(|&l| p.out.get(l as usize)) else {
                continue;
            };
            let may_move_alone = !committed || in_committed(pi as u32);
            for &e in edges {
                let ed = &p.edges[e as usize];
                // a channel-array edge's event is computed from the state
                let Some(ev) = ed.event_at(ints) else {
                    continue;
                };
                if m.synced.get(pi).and_then(|v| v.get(ev as usize)) == Some(&false) {
                    if may_move_alone {
                        out.push(vec![(pi as u32, e)]);
                    }
                } else if let Some(ss) = self.sync_index.by_trigger.get(&(pi as u32, ev)) {
                    if matches!(ed.guard.ints_hold(ints), Ok(true)) {
                        candidates.extend_from_slice(ss);
                    }
                }
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        'sync: for s in candidates.iter().filter_map(|&k| m.syncs.get(k as usize)) {
            // options per participant (each a list of entries); a weak participant without a
            // candidate edge stays out; a broadcast receiver whose candidates all have clock
            // guards may also stay out where they are false
            let mut choices: Vec<Vec<Vec<(u32, u32)>>> = Vec::with_capacity(s.parts.len());
            for &(p, ev, weak) in &s.parts {
                let proc_ = &m.processes[p as usize];
                let Some(&l) = locs.get(p as usize) else {
                    continue 'sync;
                };
                let c: Vec<u32> = self
                    .sync_index
                    .edges(p, l, ev)
                    .iter()
                    .copied()
                    .filter(|&e| {
                        let ed = &proc_.edges[e as usize];
                        (ed.lazy.is_none() || ed.event_at(ints) == Some(ev))
                            && (!(s.broadcast && weak)
                                || matches!(ed.guard.ints_hold(ints), Ok(true)))
                    })
                    .collect();
                if c.is_empty() {
                    if weak {
                        continue;
                    }
                    continue 'sync;
                }
                let mut opts: Vec<Vec<(u32, u32)>> = c.iter().map(|&e| vec![(p, e)]).collect();
                if s.broadcast && weak {
                    opts.extend(stay_out_options(m, p, &c));
                }
                choices.push(opts);
            }
            if choices.is_empty() {
                continue;
            }
            let before = out.len();
            if s.broadcast {
                // receivers with clock guards multiply the choices; most combinations contradict
                // the zone (the receivers' clocks are related), so they are built participant by
                // participant and cut as soon as the constrained zone is empty
                let mut found = Vec::new();
                if !self.broadcast_combos(&choices, z, ints, &mut Vec::new(), &mut found) {
                    self.overflow.set(true);
                    continue;
                }
                out.append(&mut found);
            } else {
                if choices
                    .iter()
                    .try_fold(1usize, |acc, c| {
                        acc.checked_mul(c.len()).filter(|&n| n <= MAX_COMBOS)
                    })
                    .is_none()
                {
                    self.overflow.set(true);
                    continue;
                }
                let mut combos: Vec<Transition> = vec![Vec::new()];
                for c in &choices {
                    let mut next = Vec::with_capacity(combos.len() * c.len());
                    for t in &combos {
                        for pe in c {
                            let mut u = t.clone();
                            u.extend_from_slice(pe);
                            next.push(u);
                        }
                    }
                    combos = next;
                }
                out.extend(combos);
            }
            let mut added = out.split_off(before);
            for t in &mut added {
                t.sort_unstable();
            }
            added.retain(|t| !committed || t.iter().any(|&(p, _)| in_committed(p)));
            out.append(&mut added);
        }
    }

    /// The combinations of one option per participant (`choices`) whose clock constraints are
    /// satisfiable in `z`, appended to `out` by a depth-first search that constrains a copy of
    /// the zone per level; false if more than [`MAX_COMBOS`] survive.
    fn broadcast_combos(
        &self,
        choices: &[Vec<Vec<(u32, u32)>>],
        z: &Dbm,
        ints: &[i32],
        t: &mut Vec<(u32, u32)>,
        out: &mut Vec<Transition>,
    ) -> bool {
        let Some((first, rest)) = choices.split_first() else {
            out.push(t.clone());
            return out.len() <= MAX_COMBOS;
        };
        for opt in first {
            let mut z2 = z.clone();
            if !constrain_move(&mut z2, self.model, opt, ints) {
                continue;
            }
            let len = t.len();
            t.extend_from_slice(opt);
            let ok = self.broadcast_combos(rest, &z2, ints, t, out);
            t.truncate(len);
            if !ok {
                return false;
            }
        }
        true
    }

    /// The discrete effect of a transition: target locations + integers and the clock resets, or
    /// `None` if an integer guard fails or an update is out of range / ill-defined.
    pub(crate) fn discrete_step(
        &self,
        disc: &[i32],
        t: &Transition,
    ) -> Option<(Discrete, Vec<(usize, i64)>)> {
        self.guards_hold(disc, t)?;
        self.updates(disc, t).ok()
    }

    /// `Some(())` when the integer guards of every participant hold.
    fn guards_hold(&self, disc: &[i32], t: &Transition) -> Option<()> {
        let n = self.nproc();
        let src_ints = disc.get(n..)?;
        for &(p, e) in t.iter().filter(|pe| pe.0 & STAY_OUT == 0) {
            let edge = self
                .model
                .processes
                .get(p as usize)?
                .edges
                .get(e as usize)?;
            if !matches!(edge.guard.ints_hold(src_ints), Ok(true)) {
                return None;
            }
        }
        Some(())
    }

    /// The updates of a transition whose integer guards hold: target locations, integers and
    /// clock resets, or why an update failed.
    fn updates(
        &self,
        disc: &[i32],
        t: &Transition,
    ) -> Result<(Discrete, Vec<(usize, i64)>), EvalError> {
        let n = self.nproc();
        let mut next = disc.to_vec();
        let mut resets = Vec::new();
        for &(p, e) in t.iter().filter(|pe| pe.0 & STAY_OUT == 0) {
            let edge = self
                .model
                .processes
                .get(p as usize)
                .and_then(|pr| pr.edges.get(e as usize))
                .ok_or(EvalError::IndexOutOfBounds)?;
            if let Some(slot) = next.get_mut(p as usize) {
                *slot = edge.tgt as i32;
            }
            let ints = next.get_mut(n..).ok_or(EvalError::IndexOutOfBounds)?;
            exec(&edge.stmts, &self.model.ints, ints, &mut resets)?;
        }
        Ok((next, resets))
    }

    /// The successor of `(disc, z)` by `t`, not extrapolated; `None` if disabled or empty.
    pub(crate) fn successor_exact(
        &self,
        disc: &[i32],
        z: &Dbm,
        t: &Transition,
    ) -> Option<(Discrete, Dbm)> {
        let n = self.nproc();
        let src_ints = disc.get(n..)?;
        let Some((next, resets)) = self.discrete_step(disc, t) else {
            if self.strict_updates {
                // enabled (integer and clock guards) but its update fails: a run-time error
                let mut g = z.clone();
                if let (Some(_), Err(err)) = (self.guards_hold(disc, t), self.updates(disc, t)) {
                    if constrain_move(&mut g, self.model, t, src_ints) {
                        let mut slot = self.runtime_error.borrow_mut();
                        if slot.is_none() {
                            *slot = Some((t.clone(), err));
                        }
                    }
                }
            }
            return None;
        };
        let mut z = z.clone();
        if !constrain_move(&mut z, self.model, t, src_ints) {
            return None;
        }
        for &(x, c) in &resets {
            z.reset(x, c as i32);
        }
        let (locs, ints) = next.split_at(n);
        if !self.constrain_invariant(&mut z, locs, ints) || !self.delay(&mut z, locs, ints) {
            return None;
        }
        Some((next, z))
    }

    /// The extrapolated successor.
    pub(crate) fn successor(
        &mut self,
        disc: &[i32],
        z: &Dbm,
        t: &Transition,
    ) -> Option<(Discrete, Dbm)> {
        let (next, mut z) = self.successor_exact(disc, z, t)?;
        let n = self.nproc();
        self.extrapolate(&mut z, &next[..n]);
        Some((next, z))
    }
}

/// True if time can pass without bound in the discrete state `d`: no urgent or committed
/// location, no urgent synchronisation enabled, and no invariant bounds a clock from above.
pub(crate) fn time_diverges(zg: &ZoneGraph<'_>, d: &Discrete) -> bool {
    if zg.is_urgent(d) {
        return false;
    }
    let n = zg.model.processes.len().min(d.len());
    let (locs, ints) = d.split_at(n);
    let mut z = Dbm::universe(zg.model.dim());
    if !zg.constrain_invariant(&mut z, locs, ints) {
        return false;
    }
    (1..z.dim()).all(|x| z.get(x, 0) == crate::dbm::INF)
}
