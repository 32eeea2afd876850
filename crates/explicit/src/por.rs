//! Partial-order reduction by ample sets: Peled, "All from one, one for all: on model checking
//! using representatives" (CAV 1993), conditions C0–C3; Godefroid, "Partial-order methods for the
//! verification of concurrent systems" (LNCS 1032, 1996), ch. 4 (persistent sets from a static
//! dependency relation); Holzmann and Peled, "An improvement in formal verification" (FORTE 1994),
//! the process-based static reduction SPIN uses. The seed paper's tool (DiVinE, CAV 2006, §2)
//! explores the full interleaving; this module is an addition of ours to its sequential algorithms.
//!
//! The dependency relation is computed once from the compiled model. Every variable slot, every
//! process's control byte, every channel and a pseudo-object for "some process is committed" is
//! an *object*; each transition has a read set and a write set of objects, taken from its
//! bytecode (guard, effect, sent values, received targets and matches), its channel and its
//! control move. Two transitions of different processes are independent when neither writes an
//! object the other reads or writes. A transition *enters or leaves a committed state* writes the
//! commit object, which every transition from a non-committed state reads (its enabledness depends
//! on it).
//!
//! Ample set of a state `s` (SPIN's choice: all enabled transitions of one process `p`):
//! - **C0** the ample set is non-empty (only processes with an enabled transition are candidates);
//! - **C1** every transition of `p` at its current control state (enabled or not) is independent
//!   of every transition other processes can still take: the *future footprint* of each other
//!   process `q`, the union of the read and write sets of the transitions reachable in `q`'s
//!   control graph from `q`'s current control state. No other process can change `p`'s control
//!   state, so no transition dependent on the ample set can run before one of it;
//! - **C2** no transition of `p` at its control state writes a *visible* object (read by an LTL
//!   proposition or an assertion); LTL is reduced only for stutter-invariant formulas (the caller
//!   checks it: X-free formulas);
//! - **C3** the cycle proviso, given by the search: the depth-first search refuses a reduced set
//!   with a successor on its stack (the stack proviso of Holzmann–Peled) and tries the next
//!   candidate's, and the breadth-first search refuses a reduced set with a successor already
//!   visited (every cycle of the reduced graph then has a fully expanded state: the state of the
//!   cycle expanded last sees its successor on the cycle already visited; Bošnački, Leue and
//!   Lluch Lafuente, "Partial-order reduction for general state exploring algorithms", SPIN 2006).
//!
//! A committed process is never a candidate. In DVE models no reduction in a state where some
//! process is committed (a stuck committed process stops the others); in Promela models a stored
//! state with a committed process is one whose `atomic` sequence is blocked and has yielded, and
//! the other processes are candidates there as anywhere (SPIN's rule). An assertion observes its
//! process's control state only as "at the asserted state": only the steps into or out of that
//! state are visible. No reduction in a state where an evaluation error occurred, or by a
//! step that synchronises two processes (rendezvous: the channel object makes it dependent anyway);
//! none at all for `system sync` models and models with a property process (whose negative claim
//! is not known to be stutter-invariant).

use crate::bytecode::{Op, Prog};
use crate::model::{Label, Model, SyncC};

/// A set of objects.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn set(&mut self, i: u32) {
        if let Some(w) = self.0.get_mut(i as usize / 64) {
            *w |= 1 << (i % 64);
        }
    }
    fn union(&mut self, o: &Bits) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a |= b;
        }
    }
    fn meets(&self, o: &Bits) -> bool {
        self.0.iter().zip(&o.0).any(|(a, b)| a & b != 0)
    }
}

/// Read and write sets.
#[derive(Clone, Debug, Default)]
struct Foot {
    r: Bits,
    w: Bits,
}

impl Foot {
    fn new(n: usize) -> Foot {
        Foot {
            r: Bits::new(n),
            w: Bits::new(n),
        }
    }
    fn union(&mut self, o: &Foot) {
        self.r.union(&o.r);
        self.w.union(&o.w);
    }
    /// Are some transition of `self` and some of `o` dependent?
    fn conflicts(&self, o: &Foot) -> bool {
        self.w.meets(&o.r) || self.w.meets(&o.w) || self.r.meets(&o.w)
    }
}

/// The object table: byte offset of the packed state → object.
struct Objects {
    of_byte: Vec<u32>,
    /// Rendezvous channels have no bytes: channel index → object (of a buffered channel: its
    /// head, the end receives take from).
    chan: Vec<u32>,
    /// Exclusive buffered channels (one sending process, one receiving process, no other
    /// access): channel index → the object of its tail, the end sends append to.
    tail: Vec<Option<u32>>,
    /// Objects outside the state (none in a valid model), and "some process is committed" in
    /// models whose committed states do not yield.
    other: u32,
    /// Per process: "it is at a control state with an assertion", the only part of its control
    /// state an assertion observes (`other + 1 + p`).
    at_assert: u32,
    n: usize,
}

impl Objects {
    fn new(m: &Model) -> Objects {
        let mut of_byte = vec![u32::MAX; m.state_size()];
        let mut n = 0u32;
        let mut mark = |off: usize, len: usize, n: &mut u32| {
            for b in of_byte.iter_mut().skip(off).take(len) {
                *b = *n;
            }
            *n += 1;
        };
        for pi in 0..m.procs.len() {
            mark(pi, 1, &mut n);
        }
        let slots = m
            .globals
            .iter()
            .chain(m.procs.iter().flat_map(|p| p.locals.iter()));
        for s in slots {
            let len = s.len.unwrap_or(1) as usize * s.w as usize;
            mark(s.off as usize, len, &mut n);
        }
        let mut chan = Vec::with_capacity(m.chans.len());
        for c in &m.chans {
            let len = if c.capacity > 0 {
                1 + c.capacity as usize * c.item_size()
            } else {
                0
            };
            chan.push(n);
            mark(c.off as usize, len, &mut n);
        }
        let tail = exclusive_channels(m)
            .into_iter()
            .map(|x| {
                x.then(|| {
                    n += 1;
                    n - 1
                })
            })
            .collect();
        let other = n;
        n += 1;
        let at_assert = n;
        n += m.procs.len() as u32;
        Objects {
            of_byte,
            chan,
            tail,
            other,
            at_assert,
            n: n as usize,
        }
    }

    fn byte(&self, off: u32) -> u32 {
        self.of_byte
            .get(off as usize)
            .copied()
            .unwrap_or(self.other)
    }

    fn head(&self, chan: u32) -> u32 {
        self.chan.get(chan as usize).copied().unwrap_or(self.other)
    }

    fn tail(&self, chan: u32) -> Option<u32> {
        self.tail.get(chan as usize).copied().flatten()
    }

    /// A channel operation reads and writes its channel; on an exclusive channel a send only
    /// its tail and a receive only its head (SPIN's `xs`/`xr` independence: the one sender's
    /// appends and the one receiver's removals commute while the channel is neither full nor
    /// empty, which [`Por::candidate`] checks in the state).
    fn channel(&self, chan: u32, send: bool, f: &mut Foot) {
        let c = match self.tail(chan) {
            Some(t) if send => t,
            _ => self.head(chan),
        };
        f.r.set(c);
        f.w.set(c);
    }

    /// Adds the reads and writes of a program.
    fn prog(&self, p: &Prog, f: &mut Foot) {
        for op in &p.ops {
            match *op {
                Op::Load { off, .. }
                | Op::LoadIdx { off, .. }
                | Op::InState { off, .. }
                | Op::LoadBinConst { off, .. } => f.r.set(self.byte(off)),
                Op::LoadBinLoad { off, off2, .. } => {
                    f.r.set(self.byte(off));
                    f.r.set(self.byte(off2));
                }
                Op::Store { off, .. } | Op::StoreIdx { off, .. } | Op::StoreConst { off, .. } => {
                    f.w.set(self.byte(off))
                }
                Op::Copy { off, src, .. } | Op::AssignBinConst { off, src, .. } => {
                    f.r.set(self.byte(src));
                    f.w.set(self.byte(off));
                }
                _ => {}
            }
        }
    }
}

/// Every program of a model: guards, effects, sent values, receive targets and matches,
/// assertions.
fn programs(m: &Model) -> impl Iterator<Item = &Prog> {
    let trans = m.trans.iter().flat_map(|t| {
        let sync: Vec<&Prog> = match &t.sync {
            SyncC::None => Vec::new(),
            SyncC::Send { values, .. } => values.iter().collect(),
            SyncC::Recv {
                targets, matches, ..
            } => targets
                .iter()
                .flatten()
                .chain(matches.iter().map(|(_, p)| p))
                .collect(),
        };
        t.guard.iter().chain([&t.effect]).chain(sync)
    });
    let asserts = m.procs.iter().flat_map(|p| p.asserts.iter().flatten());
    trans.chain(asserts)
}

/// The byte offsets a program reads or writes.
fn offsets(p: &Prog) -> impl Iterator<Item = u32> + '_ {
    p.ops
        .iter()
        .flat_map(|op| match *op {
            Op::Load { off, .. }
            | Op::LoadIdx { off, .. }
            | Op::InState { off, .. }
            | Op::LoadBinConst { off, .. }
            | Op::Store { off, .. }
            | Op::StoreIdx { off, .. }
            | Op::StoreConst { off, .. } => [Some(off), None],
            Op::LoadBinLoad { off, off2, .. }
            | Op::Copy { off, src: off2, .. }
            | Op::AssignBinConst { off, src: off2, .. } => [Some(off), Some(off2)],
            _ => [None, None],
        })
        .flatten()
}

/// Which channels are exclusive, derived from the model (no `xs`/`xr` annotation is trusted):
/// buffered, sent on by at most one process and received from by at most one, and never read or
/// written by a program (the count and the messages are touched only by the channel operations).
fn exclusive_channels(m: &Model) -> Vec<bool> {
    let mut senders: Vec<Vec<u32>> = vec![Vec::new(); m.chans.len()];
    let mut receivers: Vec<Vec<u32>> = vec![Vec::new(); m.chans.len()];
    for t in &m.trans {
        let (chan, who) = match &t.sync {
            SyncC::None => continue,
            SyncC::Send { chan, .. } => (*chan, &mut senders),
            SyncC::Recv { chan, .. } => (*chan, &mut receivers),
        };
        if let Some(v) = who.get_mut(chan as usize) {
            if !v.contains(&t.proc) {
                v.push(t.proc);
            }
        }
    }
    let mut ok: Vec<bool> = m
        .chans
        .iter()
        .enumerate()
        .map(|(c, ch)| ch.capacity > 0 && senders[c].len() <= 1 && receivers[c].len() <= 1)
        .collect();
    let ranges: Vec<(usize, u32, u32)> = m
        .chans
        .iter()
        .enumerate()
        .filter(|(_, ch)| ch.capacity > 0)
        .map(|(c, ch)| (c, ch.off, ch.off + 1 + ch.capacity * ch.item_size() as u32))
        .collect();
    for off in programs(m).flat_map(offsets) {
        for &(c, lo, hi) in &ranges {
            if (lo..hi).contains(&off) {
                ok[c] = false;
            }
        }
    }
    ok
}

/// A channel operation of a process's first step whose independence holds only while the
/// channel is not full (a send) or not empty (a receive).
#[derive(Clone, Copy, Debug)]
struct ChanOp {
    chan: u32,
    send: bool,
}

/// The static dependency information of a model and the visible objects of one question.
pub(crate) struct Por {
    /// Per process and control state: the footprint of the transitions leaving it, each with
    /// the `atomic` region it enters (the committed states reachable through committed states:
    /// the sequence runs as one step, so its whole footprint is the step's).
    here: Vec<Vec<Foot>>,
    /// Per process and control state: the footprint of every transition reachable from it in
    /// the process's control graph.
    future: Vec<Vec<Foot>>,
    /// Per process and control state: a transition leaving it (or in the region it enters)
    /// writes a visible object, it enters an `atomic` region, every transition leaving it is a
    /// rendezvous operation, or there is none (never a candidate).
    never: Vec<Vec<bool>>,
    /// Per process and control state: the operations on exclusive channels leaving it.
    chan_ops: Vec<Vec<Vec<ChanOp>>>,
    /// Per channel: count offset, capacity, head and tail objects (exclusive channels only).
    chans: Vec<Option<(u32, u32, u32, u32)>>,
    property: Option<u32>,
    /// C1 computed once (per-process static independence): control states of all processes
    /// numbered one after another from `first[q]`; for a control state of `p` that may be a
    /// candidate, one bit per numbered control state of every other process `q`, set when `q`'s
    /// future footprint from there conflicts with `p`'s step. Empty rows for the states that
    /// are never candidates, and no table at all when it would exceed [`MAX_TABLE_BITS`].
    first: Vec<usize>,
    table: Vec<Vec<u64>>,
}

/// The largest C1 table built (bits); larger models test C1 on the footprints in each state.
const MAX_TABLE_BITS: usize = 1 << 26;

/// The processes a successor's label involves: `(p, p)` for a step of process `p` alone, two
/// different processes for a rendezvous, [`NOBODY`] twice for the stuttering step.
pub(crate) type Owner = (u32, u32);

pub(crate) const NOBODY: u32 = u32::MAX;

/// The processes of label `l` (see [`Owner`]).
pub(crate) fn owner(m: &Model, l: &Label) -> Owner {
    let mut procs = l.trans.iter().map(|&t| process_of(m, t).unwrap_or(NOBODY));
    let Some(a) = procs.next() else {
        return (NOBODY, NOBODY);
    };
    (a, procs.find(|&q| q != a).unwrap_or(a))
}

impl Por {
    /// The reduction for a question whose propositions are the programs `visible` (LTL
    /// propositions, assertions) plus, for each process of `asserting`, whether it is at a
    /// control state with an assertion. An assertion at control state `a` of `p` observes
    /// `p`'s control state only through "`p` is at `a`", which only `p`'s steps into or out of
    /// `a` change: `p`'s other steps stay invisible (SPIN's reduction likewise treats an
    /// `assert` as a statement of its process, not its whole control flow as visible). `Err`
    /// says why the model cannot be reduced.
    pub(crate) fn new(
        m: &Model,
        visible: &[&Prog],
        asserting: &[u32],
    ) -> Result<Por, &'static str> {
        if m.synchronous {
            return Err("a `system sync` model moves every process at once");
        }
        if m.property.is_some() {
            return Err("the property process is not known to be stutter-invariant");
        }
        let mut objs = Objects::new(m);
        // A proposition reading a channel's bytes would see sends and receives alike.
        for off in visible.iter().flat_map(|p| offsets(p)) {
            for (c, ch) in m.chans.iter().enumerate() {
                let hi = ch.off + 1 + ch.capacity * ch.item_size() as u32;
                if ch.capacity > 0 && (ch.off..hi).contains(&off) {
                    if let Some(t) = objs.tail.get_mut(c) {
                        *t = None;
                    }
                }
            }
        }
        let n = objs.n;
        let mut vis = Foot::new(n);
        for p in visible {
            objs.prog(p, &mut vis);
        }
        for &p in asserting {
            vis.r.set(objs.at_assert + p);
        }
        let has_assert = |t: &crate::model::Trans, s: u8| {
            asserting.contains(&t.proc)
                && m.procs
                    .get(t.proc as usize)
                    .and_then(|p| p.asserts.get(s as usize))
                    .is_some_and(|a| !a.is_empty())
        };
        let committed = |t: &crate::model::Trans, s: u8| {
            m.procs
                .get(t.proc as usize)
                .and_then(|p| p.commit.get(s as usize))
                .copied()
                .unwrap_or(false)
        };
        let trans: Vec<Foot> = m
            .trans
            .iter()
            .map(|t| {
                let mut f = Foot::new(n);
                if let Some(g) = &t.guard {
                    objs.prog(g, &mut f);
                }
                objs.prog(&t.effect, &mut f);
                // Inside an `atomic` region a blocked channel operation makes the sequence
                // wait: both ends of the channel count.
                let inside = committed(t, t.from);
                let chan = |c: u32, send: bool, f: &mut Foot| {
                    objs.channel(c, send, f);
                    if inside {
                        objs.channel(c, !send, f);
                    }
                };
                match &t.sync {
                    SyncC::None => {}
                    SyncC::Send { chan: c, values } => {
                        for v in values {
                            objs.prog(v, &mut f);
                        }
                        chan(*c, true, &mut f);
                    }
                    SyncC::Recv {
                        chan: c,
                        targets,
                        matches,
                    } => {
                        for tg in targets.iter().flatten() {
                            objs.prog(tg, &mut f);
                        }
                        for (_, p) in matches {
                            objs.prog(p, &mut f);
                        }
                        chan(*c, false, &mut f);
                    }
                }
                f.r.set(t.proc);
                f.w.set(t.proc);
                if has_assert(t, t.from) || has_assert(t, t.to) {
                    f.w.set(objs.at_assert + t.proc);
                }
                // DVE's committed states do not yield: a committed process that cannot move
                // stops every process, so entering or leaving one depends on every step.
                if !m.ast.atomic_yields {
                    if inside || committed(t, t.to) {
                        f.w.set(objs.other);
                    }
                    if !inside {
                        f.r.set(objs.other);
                    }
                }
                f
            })
            .collect();
        let chans = m
            .chans
            .iter()
            .enumerate()
            .map(|(c, ch)| {
                objs.tail(c as u32)
                    .map(|t| (ch.off, ch.capacity, objs.head(c as u32), t))
            })
            .collect::<Vec<_>>();
        let mut here = Vec::with_capacity(m.procs.len());
        let mut future = Vec::with_capacity(m.procs.len());
        let mut never = Vec::with_capacity(m.procs.len());
        let mut chan_ops = Vec::with_capacity(m.procs.len());
        for p in &m.procs {
            let k = p.states.len();
            let is_commit = |s: usize| p.commit.get(s).copied().unwrap_or(false);
            let out = |s: usize| p.by_state.get(s).map_or(&[][..], |v| v);
            // The union of the footprints of the transitions reachable from `from` (those
            // leaving `from`, then on through the states `follow` accepts).
            let closure = |from: usize, follow: &dyn Fn(usize) -> bool| {
                let mut seen = vec![false; k];
                let mut stack = vec![from];
                if let Some(x) = seen.get_mut(from) {
                    *x = true;
                }
                let mut f = Foot::new(n);
                while let Some(s) = stack.pop() {
                    for &id in out(s) {
                        let Some(t) = m.trans.get(id as usize) else {
                            continue;
                        };
                        if let Some(ft) = trans.get(id as usize) {
                            f.union(ft);
                        }
                        let to = t.to as usize;
                        if to < k && !seen[to] && follow(to) {
                            seen[to] = true;
                            stack.push(to);
                        }
                    }
                }
                f
            };
            let mut h = Vec::with_capacity(k);
            let mut nv = Vec::with_capacity(k);
            let mut fut = Vec::with_capacity(k);
            let mut ops = Vec::with_capacity(k);
            // The committed states reachable from `from` through committed states (`from`
            // itself only if a path returns to it).
            let region = |from: usize| {
                let mut seen = vec![false; k];
                let mut stack = vec![from];
                while let Some(s) = stack.pop() {
                    for &id in out(s) {
                        let to = m.trans.get(id as usize).map_or(k, |t| t.to as usize);
                        if to < k && !seen[to] && is_commit(to) {
                            seen[to] = true;
                            stack.push(to);
                        }
                    }
                }
                seen
            };
            for s in 0..k {
                let f = closure(s, &is_commit);
                // A step into an `atomic` region (committed states) is never a reduced step: a
                // cycle can close from inside the region back to the reduced state, where the
                // stack proviso (which checks reduced states' own successors) does not see it,
                // and the other processes would never be explored on that cycle; a region that
                // can run forever would hide them too. Expanding the state that enters a region
                // fully puts a fully expanded state on every cycle through a region (the cycle
                // condition C3); decision 0708.
                let enters_region = region(s).iter().any(|&r| r);
                // A control state whose transitions are all rendezvous operations has no step
                // of its process alone (a send moves its receiver too, a receive is taken with
                // a sender): it never gives an ample set, and saying so here spares the search
                // generating its steps to find out.
                let rendezvous_only = out(s).iter().all(|&id| {
                    m.trans.get(id as usize).is_some_and(|t| match &t.sync {
                        SyncC::Send { chan, .. } | SyncC::Recv { chan, .. } => {
                            m.chans.get(*chan as usize).is_some_and(|c| c.capacity == 0)
                        }
                        SyncC::None => false,
                    })
                });
                nv.push(out(s).is_empty() || enters_region || rendezvous_only || f.w.meets(&vis.r));
                h.push(f);
                fut.push(closure(s, &|_| true));
                let mut o = Vec::new();
                for &id in out(s) {
                    let (chan, send) = match m.trans.get(id as usize).map(|t| &t.sync) {
                        Some(SyncC::Send { chan, .. }) => (*chan, true),
                        Some(SyncC::Recv { chan, .. }) => (*chan, false),
                        _ => continue,
                    };
                    if chans.get(chan as usize).copied().flatten().is_some() {
                        o.push(ChanOp { chan, send });
                    }
                }
                ops.push(o);
            }
            here.push(h);
            future.push(fut);
            never.push(nv);
            chan_ops.push(ops);
        }
        let mut first = Vec::with_capacity(m.procs.len());
        let mut total = 0;
        for p in &m.procs {
            first.push(total);
            total += p.states.len();
        }
        let rows = never.iter().flatten().filter(|&&nv| !nv).count();
        let mut table = Vec::new();
        if rows.saturating_mul(total) <= MAX_TABLE_BITS {
            for (p, hs) in here.iter().enumerate() {
                for (pc, mine) in hs.iter().enumerate() {
                    let mut row = Vec::new();
                    if never.get(p).and_then(|v| v.get(pc)) == Some(&false) {
                        row = vec![0u64; total.div_ceil(64)];
                        for (q, fs) in future.iter().enumerate() {
                            for (qs, f) in fs.iter().enumerate() {
                                let bit = first[q] + qs;
                                if q != p && mine.conflicts(f) {
                                    row[bit / 64] |= 1 << (bit % 64);
                                }
                            }
                        }
                    }
                    table.push(row);
                }
            }
        }
        Ok(Por {
            here,
            future,
            never,
            chan_ops,
            chans,
            property: m.property,
            first,
            table,
        })
    }

    /// C1 for process `p` at control state `pc` from the table (`None`: no table).
    fn independent(&self, s: &[u8], p: usize, pc: usize) -> Option<bool> {
        let row = self.table.get(self.first.get(p)? + pc)?;
        Some((0..self.first.len()).all(|q| {
            let qs = s.get(q).copied().unwrap_or(0) as usize;
            let states = self.future.get(q).map_or(0, |v| v.len());
            let bit = self.first[q] + qs;
            q == p
                || Some(q as u32) == self.property
                || (qs < states
                    && row
                        .get(bit / 64)
                        .is_some_and(|w| w & (1 << (bit % 64)) == 0))
        }))
    }

    /// Is process `p` (at its control state in `s`) a candidate for the ample set (C1, C2)?
    fn candidate(&self, m: &Model, s: &[u8], p: usize) -> bool {
        let Some(&pc) = s.get(p) else { return false };
        let pc = pc as usize;
        if self.never.get(p).and_then(|v| v.get(pc)).copied() != Some(false) {
            return false;
        }
        let Some(mine) = self.here.get(p).and_then(|v| v.get(pc)) else {
            return false;
        };
        // A send on a full exclusive channel waits for the receiver, a receive on an empty one
        // for the sender: then the other end is a dependency.
        let mut widened = None;
        for op in self
            .chan_ops
            .get(p)
            .and_then(|v| v.get(pc))
            .map_or(&[][..], |v| v)
        {
            let Some((off, cap, head, tail)) = self.chans.get(op.chan as usize).copied().flatten()
            else {
                continue;
            };
            let count = u32::from(s.get(off as usize).copied().unwrap_or(0));
            let blocked = if op.send { count >= cap } else { count == 0 };
            if blocked {
                let f = widened.get_or_insert_with(|| mine.clone());
                f.r.set(if op.send { head } else { tail });
            }
        }
        if widened.is_none() {
            if let Some(ok) = self.independent(s, p, pc) {
                return ok;
            }
        }
        let mine = widened.as_ref().unwrap_or(mine);
        (0..m.procs.len()).all(|q| {
            q == p
                || Some(q as u32) == self.property
                || self
                    .future
                    .get(q)
                    .and_then(|v| v.get(s.get(q).copied().unwrap_or(0) as usize))
                    .is_some_and(|f| !mine.conflicts(f))
        })
    }

    /// The processes that may give an ample set in `s` (C1, C2), in process order. A committed
    /// process is never one. In a DVE model none is when some process is committed (its
    /// committed state stops the others); in a Promela model a stored state with a committed
    /// process is one where its sequence is blocked and has yielded, so the other processes'
    /// steps are ordinary interleaved steps there and may be reduced (SPIN's rule: a blocked
    /// `atomic` sequence gives up its exclusivity; Holzmann and Peled's reduction then applies
    /// to the other processes). When there is none, `s` is expanded fully whatever its
    /// successors are.
    pub(crate) fn candidates(&self, m: &Model, s: &[u8], out: &mut Vec<u32>) {
        out.clear();
        let committed = |pi: usize| {
            m.procs.get(pi).is_some_and(|p| {
                p.commit
                    .get(s.get(pi).copied().unwrap_or(0) as usize)
                    .copied()
                    .unwrap_or(false)
            })
        };
        if !m.ast.atomic_yields && (0..m.procs.len()).any(committed) {
            return;
        }
        out.extend(
            (0..m.procs.len())
                .filter(|&p| {
                    Some(p as u32) != self.property && !committed(p) && self.candidate(m, s, p)
                })
                .map(|p| p as u32),
        );
    }

    /// The first of `candidates` whose enabled transitions form a proper ample subset of the
    /// successors whose owners are `owners` (the full expansion, computed without evaluation
    /// error), or `None` when the state must be fully expanded. The cycle proviso is the
    /// caller's.
    pub(crate) fn pick(
        candidates: impl Iterator<Item = u32>,
        owners: impl Iterator<Item = Owner> + Clone,
    ) -> Option<u32> {
        let total = owners.clone().count();
        for p in candidates {
            let mut mine = 0;
            let mut mixed = false;
            for (a, b) in owners.clone() {
                if a == p || b == p {
                    if a == b {
                        mine += 1;
                    } else {
                        mixed = true;
                    }
                }
            }
            if mine > 0 && !mixed {
                return (mine < total).then_some(p);
            }
        }
        None
    }

    /// The process whose enabled transitions form a proper ample subset of the successors whose
    /// labels are `labels` (the full expansion of `s`, computed without evaluation error), or
    /// `None` when `s` must be fully expanded. The cycle proviso is the caller's.
    pub(crate) fn ample<'a>(
        &self,
        m: &Model,
        s: &[u8],
        labels: impl Iterator<Item = &'a Label> + Clone,
    ) -> Option<u32> {
        let mut c = Vec::new();
        self.candidates(m, s, &mut c);
        Por::pick(c.into_iter(), labels.map(|l| owner(m, l)))
    }
}

fn process_of(m: &Model, t: u32) -> Option<u32> {
    m.trans.get(t as usize).map(|t| t.proc)
}

/// Is the successor with label `l` in the ample set of process `p`?
pub(crate) fn in_ample(m: &Model, p: u32, l: &Label) -> bool {
    !l.trans.is_empty() && l.trans.iter().all(|&t| process_of(m, t) == Some(p))
}
