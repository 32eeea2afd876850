//! The successor generator of a compiled DVE model (DiVinE's asynchronous semantics): one process
//! moves, or a sender and a receiver move together over a rendezvous channel; buffered channels
//! are FIFO queues inside the state; while some process is in a committed state only committed
//! processes move (a rendezvous needs one committed partner); with a property process
//! (`system async property P`) every system step is paired with one enabled step of `P`, whose
//! guard reads the state before the step; `system sync` moves every process at once. For LTL
//! (`stutter`), a state without system successor repeats (DiVinE's and SPIN's convention: a
//! deadlock is an infinite run that stays put).
//!
//! Promela's `atomic` sequences (committed states of the lowered model, `DveAst::atomic_yields`)
//! are explored through as SPIN does, which does not store the states inside a sequence: a
//! successor inside one is expanded in turn instead of handed out, until the sequence is left
//! (see [`Generator::through_atomic`]). There the exclusivity is SPIN's (Holzmann, *The SPIN
//! Model Checker*, ch. 7, `atomic`; `pan.c`'s `From = To = II` after a step with `atom&2`): it
//! belongs to the one process that moved last inside its sequence, not to every process in a
//! committed state; that process alone starts a step (a rendezvous send of it may meet any
//! receiver: SPIN's receive never starts one), and when it cannot, the state is stored and every
//! process moves. DVE's `commit` states are handed out as BEEM counts them (every committed
//! process moves; a rendezvous needs one committed partner).

use crate::bytecode::{load, store, EvalError, Prog};
use crate::model::{Label, Model, SyncC};

/// Reusable buffers for successor generation.
pub struct Generator<'m> {
    pub(crate) m: &'m Model,
    cur: Vec<u8>,
    next: Vec<u8>,
    stack: Vec<i32>,
    /// System successors of the current state, kept for pairing with the property process.
    sys: Vec<(Vec<u8>, Label)>,
    /// Spent state buffers, reused for `sys` and for the states inside `atomic` sequences.
    pool: Vec<Vec<u8>>,
    /// Spent label transition lists, reused for `sys`.
    label_pool: Vec<Vec<u32>>,
    /// The label of the successor being handed out (reused).
    label: Label,
    /// Successors handed out for the current state.
    emitted: usize,
    /// Values sent, or read from a channel's head, in the current step (reused).
    vals: Vec<i32>,
    /// The enabled transitions of the property process (reused).
    enabled: Vec<u32>,
    /// A state without system successor gets one stuttering step (the LTL semantics: every
    /// run is infinite; a deadlock repeats forever).
    pub(crate) stutter: bool,
    /// Computing the successors of a state in which the committed processes cannot move
    /// (`DveAst::atomic_yields`).
    yielded: bool,
    /// Promela's `atomic` sequences are explored through: a successor inside one (some process
    /// in a committed state) is not handed out but expanded in turn; what is handed out is each
    /// state reached outside, with the label of the step that entered the sequence, and the
    /// states inside where the sequence cannot go on — no successor (a deadlock), or blocked,
    /// so that the other processes move (Promela's rule: SPIN stores that state too) — or
    /// where an assertion is checked. On for Promela models without a property process
    /// (`Model::through_atomic`, `-x mc.atomic`), off while `stutter` is (the LTL products see
    /// every step).
    pub(crate) through_atomic: bool,
    /// States inside atomic sequences still to expand, with their exclusive process and the
    /// index in `firsts` of the entering step's label.
    inside: Vec<(Vec<u8>, usize, usize)>,
    /// The labels of the steps that entered the sequences being explored through (`inside`
    /// refers to them by index; reused).
    firsts: Vec<Label>,
    /// The states inside sequences already expanded for the current state (reused).
    seen: Seen,
    /// The successors of one state inside an atomic sequence (reused).
    steps: Vec<(Vec<u8>, Option<usize>)>,
    /// The last state expanded was in a blocked atomic sequence: its successors are the other
    /// processes' steps.
    yields: bool,
    /// Which processes may start a step in [`Generator::direct`].
    gate: Gate,
    /// DiVinE's error state, the successor of every erroneous transition
    /// (`Model::set_divine_errors`); `None`: an erroneous transition has no successor.
    error_state: Option<Vec<u8>>,
    /// The erroneous transitions of the state being expanded (reused).
    failed: Vec<u32>,
    /// The one process whose steps are generated ([`Generator::process_steps`]), or `None`.
    only: Option<usize>,
}

/// A set of (state, exclusive process) pairs, each kept as the state's bytes followed by the
/// process number; the buffers go back to a pool when it is cleared, so that exploring through
/// a sequence allocates nothing once warm.
#[derive(Default)]
struct Seen {
    set: rustc_hash::FxHashSet<Vec<u8>>,
}

impl Seen {
    /// Is `(s, x)` in the set? (`s` is restored before returning.)
    fn contains(&self, s: &mut Vec<u8>, x: usize) -> bool {
        let n = s.len();
        s.extend_from_slice(&(x as u32).to_le_bytes());
        let found = self.set.contains(s.as_slice());
        s.truncate(n);
        found
    }

    /// Adds `(s, x)`, taking `s`'s buffer.
    fn insert(&mut self, mut s: Vec<u8>, x: usize) {
        s.extend_from_slice(&(x as u32).to_le_bytes());
        self.set.insert(s);
    }

    /// Empties the set into `pool`.
    fn clear(&mut self, pool: &mut Vec<Vec<u8>>) {
        pool.extend(self.set.drain());
    }
}

/// Which processes may start a step.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gate {
    /// DVE's rule: while some process is committed, only committed processes (Promela's
    /// lowered models without exploring through: every process when they are all blocked).
    Committed,
    /// SPIN's rule for `atomic`: only the exclusive process, every process when it is blocked;
    /// `None`: no process is exclusive, every process moves.
    Exclusive(Option<usize>),
}

/// The process holding a sequence's exclusivity after the step `l` to `t` (SPIN's rule): the
/// last process that moved, a rendezvous' receiver before its sender, if it stands in a
/// committed state of the lowered model (inside its sequence) after the step; `None` when the
/// step leaves every sequence (the state is stored).
pub(crate) fn mover_inside(m: &Model, t: &[u8], l: &Label) -> Option<usize> {
    l.trans.iter().rev().find_map(|&id| {
        let pi = m.trans.get(id as usize)?.proc as usize;
        let p = m.procs.get(pi)?;
        let inside = Some(pi as u32) != m.property
            && t.get(pi)
                .and_then(|&c| p.commit.get(c as usize))
                .copied()
                .unwrap_or(false);
        inside.then_some(pi)
    })
}

/// The exclusive process of a stored state under SPIN's rule. A stored state inside a sequence is
/// one whose exclusive process was blocked (it gave its exclusivity up: `None`, every process
/// moves), except a state at an assertion inside a sequence, which this generator hands out for
/// the assertion to be checked: the process standing there, which moved last, keeps it.
pub(crate) fn stored_exclusive(m: &Model, s: &[u8]) -> Option<usize> {
    m.procs.iter().enumerate().position(|(pi, p)| {
        Some(pi as u32) != m.property
            && s.get(pi).is_some_and(|&c| {
                p.commit.get(c as usize).copied().unwrap_or(false)
                    && p.asserts.get(c as usize).is_some_and(|a| !a.is_empty())
            })
    })
}

/// Is some process (other than the property process) in a committed state in `s`?
pub(crate) fn committed_in(m: &Model, s: &[u8]) -> bool {
    m.procs.iter().enumerate().any(|(pi, p)| {
        Some(pi as u32) != m.property
            && s.get(pi)
                .and_then(|&c| p.commit.get(c as usize))
                .copied()
                .unwrap_or(false)
    })
}

/// Does process `x` stand at a control state with an assertion in `s`? (Inside a sequence only
/// the exclusive process `x` executes statements, so only its assertion can be reached there;
/// another process's is checked where that process moves.)
fn asserts_at(m: &Model, s: &[u8], x: usize) -> bool {
    m.procs.get(x).is_some_and(|p| {
        s.get(x)
            .and_then(|&c| p.asserts.get(c as usize))
            .is_some_and(|a| !a.is_empty())
    })
}

impl<'m> Generator<'m> {
    pub fn new(m: &'m Model) -> Generator<'m> {
        Generator {
            m,
            cur: Vec::new(),
            next: Vec::new(),
            stack: Vec::with_capacity(32),
            sys: Vec::new(),
            pool: Vec::new(),
            label_pool: Vec::new(),
            label: Label::default(),
            emitted: 0,
            vals: Vec::new(),
            enabled: Vec::new(),
            stutter: false,
            yielded: false,
            through_atomic: m.through_atomic
                && m.property.is_none()
                && m.procs.iter().any(|p| p.commit.iter().any(|&c| c)),
            inside: Vec::new(),
            firsts: Vec::new(),
            seen: Seen::default(),
            steps: Vec::new(),
            yields: false,
            gate: Gate::Committed,
            error_state: m.divine_errors.then(|| m.error_state()),
            failed: Vec::new(),
            only: None,
        }
    }

    fn guard(&mut self, g: &Option<Prog>) -> Result<bool, EvalError> {
        match g {
            None => Ok(true),
            Some(p) => {
                self.stack.clear();
                Ok(p.exec(&mut self.cur, &mut self.stack)? != 0)
            }
        }
    }

    /// Do the received values `vals` agree with the matched fields of receive `rid` (evaluated
    /// in the state before the step)?
    fn matches(&mut self, rid: u32, vals: &[i32]) -> Result<bool, EvalError> {
        let m = self.m;
        let Some(SyncC::Recv { matches, .. }) = m.trans.get(rid as usize).map(|t| &t.sync) else {
            return Ok(true);
        };
        for (k, p) in matches {
            self.stack.clear();
            if p.exec(&mut self.cur, &mut self.stack)? != vals.get(*k).copied().unwrap_or(0) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn committed(&self) -> bool {
        committed_in(self.m, &self.cur)
    }

    fn is_committed(&self, pi: usize) -> bool {
        self.m
            .procs
            .get(pi)
            .and_then(|p| p.commit.get(self.cur[pi] as usize))
            .copied()
            .unwrap_or(false)
    }

    /// Starts the next successor as a copy of the current state.
    fn start_next(&mut self) {
        self.next.clear();
        self.next.extend_from_slice(&self.cur);
    }

    /// Hands the successor in `next` with the label in `label` to `out`.
    fn emit(&mut self, out: &mut impl FnMut(&[u8], &Label)) {
        self.emitted += 1;
        out(&self.next, &self.label);
    }

    /// Computes the successors of `state` and calls `out` on each. Evaluation errors (division by
    /// zero, index out of bounds) in a transition are passed to `on_error` and that transition
    /// yields no successor, or, with DiVinE's error handling (`Model::set_divine_errors`), the
    /// error state. Without a property process each successor goes to `out` as it is built (no
    /// copy); with one, the system steps are kept and paired with its steps.
    pub fn successors(
        &mut self,
        state: &[u8],
        mut out: impl FnMut(&[u8], &Label),
        mut on_error: impl FnMut(EvalError, u32),
    ) {
        let Some(error_state) = self.error_state.take() else {
            self.expand(state, &mut out, &mut on_error);
            return;
        };
        let mut failed = std::mem::take(&mut self.failed);
        failed.clear();
        self.expand(state, &mut out, &mut |e, t| {
            failed.push(t);
            on_error(e, t)
        });
        for &t in &failed {
            let label = Label {
                trans: vec![t],
                property: None,
            };
            out(&error_state, &label);
        }
        self.failed = failed;
        self.error_state = Some(error_state);
    }

    fn expand(
        &mut self,
        state: &[u8],
        out: &mut impl FnMut(&[u8], &Label),
        on_error: &mut impl FnMut(EvalError, u32),
    ) {
        if self.through_atomic && !self.stutter {
            self.through(state, out, on_error);
        } else {
            self.direct(state, out, on_error);
        }
    }

    /// The successors of `state` with the `atomic` sequences explored through
    /// ([`Generator::through_atomic`]) under SPIN's exclusivity; a cycle inside a sequence is
    /// expanded once.
    fn through(
        &mut self,
        state: &[u8],
        out: &mut impl FnMut(&[u8], &Label),
        on_error: &mut impl FnMut(EvalError, u32),
    ) {
        let m = self.m;
        let mut inside = std::mem::take(&mut self.inside);
        let mut firsts = std::mem::take(&mut self.firsts);
        let mut pool = std::mem::take(&mut self.pool);
        let mut seen = std::mem::take(&mut self.seen);
        inside.clear();
        firsts.clear();
        self.gate = Gate::Exclusive(stored_exclusive(m, state));
        self.direct(
            state,
            &mut |t: &[u8], l: &Label| match mover_inside(m, t, l) {
                Some(x) => {
                    let mut b = pool.pop().unwrap_or_default();
                    b.clear();
                    b.extend_from_slice(t);
                    inside.push((b, x, firsts.len()));
                    firsts.push(l.clone());
                }
                None => out(t, l),
            },
            on_error,
        );
        while let Some((mut s, x, fi)) = inside.pop() {
            let Some(first) = firsts.get(fi) else {
                continue;
            };
            if seen.contains(&mut s, x) {
                pool.push(s);
                continue;
            }
            if asserts_at(m, &s, x) {
                out(&s, first);
                seen.insert(s, x);
                continue;
            }
            let mut steps = std::mem::take(&mut self.steps);
            steps.clear();
            self.gate = Gate::Exclusive(Some(x));
            self.direct(
                &s,
                &mut |t: &[u8], l: &Label| {
                    let mut b = pool.pop().unwrap_or_default();
                    b.clear();
                    b.extend_from_slice(t);
                    steps.push((b, mover_inside(m, t, l)));
                },
                on_error,
            );
            if steps.is_empty() || self.yields {
                // The exclusive process cannot go on: a deadlock, or a blocked sequence that
                // gives its exclusivity up (every process moves) — an ordinary state, stored.
                out(&s, first);
                pool.extend(steps.drain(..).map(|(t, _)| t));
            } else {
                for (t, y) in steps.drain(..) {
                    match y {
                        Some(y) => inside.push((t, y, fi)),
                        None => {
                            out(&t, first);
                            pool.push(t);
                        }
                    }
                }
            }
            seen.insert(s, x);
            self.steps = steps;
        }
        seen.clear(&mut pool);
        self.gate = Gate::Committed;
        self.inside = inside;
        self.firsts = firsts;
        self.pool = pool;
        self.seen = seen;
    }

    /// The single steps of `state` under SPIN's exclusivity (`excl`: the exclusive process),
    /// each with the exclusive process after it ([`mover_inside`]); for rebuilding the steps
    /// through a sequence between two stored states, and for the LTL product, whose states
    /// carry the exclusive process (`ltl_product`). With `stutter`, a state where no process
    /// moves repeats.
    pub(crate) fn exclusive_steps(
        &mut self,
        state: &[u8],
        excl: Option<usize>,
        out: &mut impl FnMut(&[u8], &Label, Option<usize>),
        on_error: &mut impl FnMut(EvalError, u32),
    ) {
        let m = self.m;
        self.gate = Gate::Exclusive(excl);
        self.direct(
            state,
            &mut |t: &[u8], l: &Label| out(t, l, mover_inside(m, t, l)),
            on_error,
        );
        self.gate = Gate::Committed;
    }

    /// The steps of process `p` alone in `state` (no rendezvous partner's steps started by
    /// another process), for the reduced search to try one candidate's ample set before the
    /// full expansion. They are handed out in the order [`Generator::successors`] hands them
    /// out among the others, and an evaluation error goes to `on_error`. `false` (nothing
    /// meaningful handed out) when that order or set cannot be had this way: a property
    /// process, `system sync`, DiVinE's error state, stuttering, a state where some process is
    /// committed and holds its exclusivity or stops the others, or a step of `p` entering an
    /// `atomic` sequence (explored through by the full expansion).
    pub(crate) fn process_steps(
        &mut self,
        state: &[u8],
        p: usize,
        out: &mut impl FnMut(&[u8], &Label),
        on_error: &mut impl FnMut(EvalError, u32),
    ) -> bool {
        let m = self.m;
        if m.property.is_some() || m.synchronous || self.error_state.is_some() || self.stutter {
            return false;
        }
        let through = self.through_atomic;
        if through {
            if stored_exclusive(m, state).is_some() {
                return false;
            }
            self.gate = Gate::Exclusive(None);
        } else if committed_in(m, state) {
            return false;
        }
        self.cur.clear();
        self.cur.extend_from_slice(state);
        self.emitted = 0;
        self.only = Some(p);
        let mut entered = false;
        self.async_system(
            &mut |t: &[u8], l: &Label| {
                if through && mover_inside(m, t, l).is_some() {
                    entered = true;
                } else {
                    out(t, l);
                }
            },
            on_error,
        );
        self.only = None;
        self.gate = Gate::Committed;
        !entered
    }

    /// The successors of `state`, every step handed out.
    fn direct(
        &mut self,
        state: &[u8],
        out: &mut impl FnMut(&[u8], &Label),
        on_error: &mut impl FnMut(EvalError, u32),
    ) {
        self.cur.clear();
        self.cur.extend_from_slice(state);
        self.emitted = 0;
        let Some(pp) = self.m.property else {
            self.system(out, on_error);
            return;
        };
        let mut sys = std::mem::take(&mut self.sys);
        let mut pool = std::mem::take(&mut self.pool);
        let mut label_pool = std::mem::take(&mut self.label_pool);
        for (b, l) in sys.drain(..) {
            pool.push(b);
            label_pool.push(l.trans);
        }
        self.system(
            &mut |st: &[u8], l: &Label| {
                let mut b = pool.pop().unwrap_or_default();
                b.clear();
                b.extend_from_slice(st);
                let mut trans = label_pool.pop().unwrap_or_default();
                trans.clear();
                trans.extend_from_slice(&l.trans);
                sys.push((
                    b,
                    Label {
                        trans,
                        property: l.property,
                    },
                ));
            },
            on_error,
        );
        self.pool = pool;
        self.label_pool = label_pool;
        let p = &self.m.procs[pp as usize];
        let ps = self.cur[pp as usize] as usize;
        let ids = p.by_state.get(ps).map_or(&[][..], |v| v);
        let mut enabled = std::mem::take(&mut self.enabled);
        enabled.clear();
        for &id in ids {
            let t = &self.m.trans[id as usize];
            match self.guard(&t.guard) {
                Ok(true) => enabled.push(id),
                Ok(false) => {}
                Err(e) => on_error(e, id),
            }
        }
        for (s, l) in &sys {
            for &id in &enabled {
                let t = &self.m.trans[id as usize];
                self.next.clear();
                self.next.extend_from_slice(s);
                self.stack.clear();
                if let Err(e) = t.effect.exec(&mut self.next, &mut self.stack) {
                    on_error(e, id);
                    continue;
                }
                self.next[pp as usize] = t.to;
                self.label.trans.clear();
                self.label.trans.extend_from_slice(&l.trans);
                self.label.property = Some(id);
                out(&self.next, &self.label);
            }
        }
        self.enabled = enabled;
        self.sys = sys;
    }

    /// The system's steps from `cur` (a stuttering step when there is none and `stutter` asks
    /// for it), each handed to `out`.
    fn system(
        &mut self,
        out: &mut impl FnMut(&[u8], &Label),
        on_error: &mut impl FnMut(EvalError, u32),
    ) {
        if self.m.synchronous {
            self.sync_system(out, on_error);
        } else {
            self.async_system(out, on_error);
            self.yields = false;
            let blocked = match self.gate {
                Gate::Committed => self.m.ast.atomic_yields && self.committed(),
                Gate::Exclusive(x) => x.is_some(),
            };
            if self.emitted == 0 && blocked {
                self.yields = true;
                self.yielded = true;
                self.async_system(out, on_error);
                self.yielded = false;
            }
        }
        if self.stutter && self.emitted == 0 {
            self.start_next();
            self.label.trans.clear();
            self.label.property = None;
            self.emit(out);
        }
    }

    fn async_system(
        &mut self,
        out: &mut impl FnMut(&[u8], &Label),
        on_error: &mut impl FnMut(EvalError, u32),
    ) {
        let m = self.m;
        let (committed, only) = match self.gate {
            Gate::Committed => (self.committed() && !self.yielded, None),
            Gate::Exclusive(x) => (false, if self.yielded { None } else { x }),
        };
        for (pi, p) in m.procs.iter().enumerate() {
            if Some(pi as u32) == m.property
                || only.is_some_and(|x| x != pi)
                || self.only.is_some_and(|x| x != pi)
            {
                continue;
            }
            let s = self.cur[pi] as usize;
            let Some(ids) = p.by_state.get(s) else {
                continue;
            };
            for &id in ids {
                let t = &m.trans[id as usize];
                let rendezvous_send = matches!(&t.sync, SyncC::Send { chan, .. }
                    if m.chans[*chan as usize].capacity == 0);
                if committed && !rendezvous_send && !self.is_committed(pi) {
                    continue;
                }
                match self.guard(&t.guard) {
                    Ok(true) => {}
                    Ok(false) => continue,
                    Err(e) => {
                        on_error(e, id);
                        continue;
                    }
                }
                match &t.sync {
                    SyncC::None => {
                        if let Err(e) = self.apply(id, None, &[], out) {
                            on_error(e, id);
                        }
                    }
                    SyncC::Send { chan, values } => {
                        let ch = &m.chans[*chan as usize];
                        // Values are computed in the state before the step.
                        let mut vals = std::mem::take(&mut self.vals);
                        vals.clear();
                        let mut bad = None;
                        for v in values {
                            self.stack.clear();
                            match v.exec(&mut self.cur, &mut self.stack) {
                                Ok(x) => vals.push(x),
                                Err(e) => {
                                    bad = Some(e);
                                    break;
                                }
                            }
                        }
                        if let Some(e) = bad {
                            on_error(e, id);
                            self.vals = vals;
                            continue;
                        }
                        if ch.capacity == 0 {
                            for &rid in &m.receivers[*chan as usize] {
                                let r = &m.trans[rid as usize];
                                let rp = r.proc as usize;
                                if rp == pi || self.cur[rp] != r.from {
                                    continue;
                                }
                                // While a process is committed, a rendezvous needs a
                                // committed partner (DVE); in Promela the sender (a receive
                                // never starts a rendezvous in SPIN: a sequence waiting on one
                                // is blocked and yields).
                                if committed
                                    && !self.is_committed(pi)
                                    && (m.ast.atomic_yields || !self.is_committed(rp))
                                {
                                    continue;
                                }
                                match self.guard(&r.guard) {
                                    Ok(true) => {}
                                    Ok(false) => continue,
                                    Err(e) => {
                                        on_error(e, rid);
                                        continue;
                                    }
                                }
                                match self.matches(rid, &vals) {
                                    Ok(true) => {}
                                    Ok(false) => continue,
                                    Err(e) => {
                                        on_error(e, rid);
                                        continue;
                                    }
                                }
                                if let Err(e) = self.apply(id, Some(rid), &vals, out) {
                                    on_error(e, id);
                                }
                            }
                        } else {
                            let off = ch.off as usize;
                            let count = self.cur[off] as u32;
                            if count < ch.capacity {
                                if let Err(e) = self.apply(id, None, &vals, out) {
                                    on_error(e, id);
                                }
                            }
                        }
                        self.vals = vals;
                    }
                    SyncC::Recv { chan, .. } => {
                        let ch = &m.chans[*chan as usize];
                        if ch.capacity > 0 && self.cur[ch.off as usize] > 0 {
                            let mut at = ch.off as usize + 1;
                            let mut head = std::mem::take(&mut self.vals);
                            head.clear();
                            for &w in &ch.fields {
                                head.push(load(&self.cur, at, w));
                                at += w as usize;
                            }
                            let ok = self.matches(id, &head);
                            self.vals = head;
                            match ok {
                                Ok(true) => {}
                                Ok(false) => continue,
                                Err(e) => {
                                    on_error(e, id);
                                    continue;
                                }
                            }
                            if let Err(e) = self.apply(id, None, &[], out) {
                                on_error(e, id);
                            }
                        }
                        // Rendezvous receives are taken with their sender.
                    }
                }
            }
        }
    }

    /// Applies transition `id` (with rendezvous partner `rid` receiving `vals`, or sending `vals`
    /// into / receiving from a buffered channel) to a copy of the current state and emits it.
    fn apply(
        &mut self,
        id: u32,
        rid: Option<u32>,
        vals: &[i32],
        out: &mut impl FnMut(&[u8], &Label),
    ) -> Result<(), EvalError> {
        let m = self.m;
        let t = &m.trans[id as usize];
        self.start_next();
        match (&t.sync, rid) {
            (SyncC::Send { .. }, Some(rid)) => {
                if let SyncC::Recv { targets, .. } = &m.trans[rid as usize].sync {
                    for (k, tg) in targets.iter().enumerate() {
                        if let Some(tg) = tg {
                            self.stack.clear();
                            self.stack.push(vals.get(k).copied().unwrap_or(0));
                            tg.exec(&mut self.next, &mut self.stack)?;
                        }
                    }
                }
            }
            (SyncC::Send { chan, .. }, None) => {
                let ch = &m.chans[*chan as usize];
                let off = ch.off as usize;
                let count = self.next[off] as usize;
                let mut at = off + 1 + count * ch.item_size();
                for (k, &w) in ch.fields.iter().enumerate() {
                    store(&mut self.next, at, w, vals.get(k).copied().unwrap_or(0));
                    at += w as usize;
                }
                self.next[off] += 1;
            }
            (SyncC::Recv { chan, targets, .. }, _) => {
                let ch = &m.chans[*chan as usize];
                let off = ch.off as usize;
                let item = ch.item_size();
                let mut at = off + 1;
                let mut got = std::mem::take(&mut self.vals);
                got.clear();
                for &w in &ch.fields {
                    got.push(load(&self.next, at, w));
                    at += w as usize;
                }
                let count = self.next[off] as usize;
                // Shift the queue.
                self.next
                    .copy_within(off + 1 + item..off + 1 + count * item, off + 1);
                let end = off + 1 + count * item;
                self.next[end - item..end].fill(0);
                self.next[off] -= 1;
                let mut stored = Ok(0);
                for (k, tg) in targets.iter().enumerate() {
                    if let Some(tg) = tg {
                        self.stack.clear();
                        self.stack.push(got.get(k).copied().unwrap_or(0));
                        stored = tg.exec(&mut self.next, &mut self.stack);
                        if stored.is_err() {
                            break;
                        }
                    }
                }
                self.vals = got;
                stored?;
            }
            _ => {}
        }
        self.stack.clear();
        t.effect.exec(&mut self.next, &mut self.stack)?;
        self.next[t.proc as usize] = t.to;
        self.label.trans.clear();
        self.label.trans.push(id);
        self.label.property = None;
        if let Some(rid) = rid {
            let r = &m.trans[rid as usize];
            self.stack.clear();
            r.effect.exec(&mut self.next, &mut self.stack)?;
            self.next[r.proc as usize] = r.to;
            self.label.trans.push(rid);
        }
        self.emit(out);
        Ok(())
    }

    /// `system sync`: every (non-property) process takes one enabled transition, all guards read
    /// the state before the step and the effects apply in process order.
    fn sync_system(
        &mut self,
        out: &mut impl FnMut(&[u8], &Label),
        on_error: &mut impl FnMut(EvalError, u32),
    ) {
        let m = self.m;
        let mut choices: Vec<Vec<u32>> = Vec::new();
        for (pi, p) in m.procs.iter().enumerate() {
            if Some(pi as u32) == m.property {
                continue;
            }
            let mut en = Vec::new();
            for &id in p.by_state.get(self.cur[pi] as usize).map_or(&[][..], |v| v) {
                match self.guard(&m.trans[id as usize].guard) {
                    Ok(true) => en.push(id),
                    Ok(false) => {}
                    Err(e) => on_error(e, id),
                }
            }
            if en.is_empty() {
                return;
            }
            choices.push(en);
        }
        let mut pick = vec![0usize; choices.len()];
        'outer: loop {
            self.start_next();
            let mut ok = true;
            self.label.trans.clear();
            self.label.property = None;
            for (k, &c) in pick.iter().enumerate() {
                let id = choices[k][c];
                let t = &m.trans[id as usize];
                self.stack.clear();
                if let Err(e) = t.effect.exec(&mut self.next, &mut self.stack) {
                    on_error(e, id);
                    ok = false;
                    break;
                }
                self.next[t.proc as usize] = t.to;
                self.label.trans.push(id);
            }
            if ok {
                self.emit(out);
            }
            for k in (0..pick.len()).rev() {
                pick[k] += 1;
                if pick[k] < choices[k].len() {
                    continue 'outer;
                }
                pick[k] = 0;
            }
            break;
        }
    }
}
