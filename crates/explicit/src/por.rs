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
//!   with a successor on its stack (the stack proviso of Holzmann–Peled), and the breadth-first
//!   search refuses a reduced set with a successor already visited (every cycle of the reduced
//!   graph then has a fully expanded state: the state of the cycle expanded last sees its
//!   successor on the cycle already visited; Bošnački, Leue and Lluch Lafuente, "Partial-order
//!   reduction for general state exploring algorithms", SPIN 2006).
//!
//! No reduction in a state where some process is committed, an evaluation error occurred, or a
//! step synchronises two processes (rendezvous: the channel object makes it dependent anyway);
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
    /// Rendezvous channels have no bytes: channel index → object.
    chan: Vec<u32>,
    commit: u32,
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
        let commit = n;
        n += 1;
        Objects {
            of_byte,
            chan,
            commit,
            n: n as usize,
        }
    }

    fn byte(&self, off: u32) -> u32 {
        self.of_byte
            .get(off as usize)
            .copied()
            .unwrap_or(self.commit)
    }

    /// A channel operation reads and writes its channel.
    fn channel(&self, chan: u32, f: &mut Foot) {
        let c = self.chan.get(chan as usize).copied().unwrap_or(self.commit);
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
                _ => {}
            }
        }
    }
}

/// The static dependency information of a model and the visible objects of one question.
pub(crate) struct Por {
    /// Per process and control state: the footprint of the transitions leaving it.
    here: Vec<Vec<Foot>>,
    /// Per process and control state: the footprint of every transition reachable from it in
    /// the process's control graph.
    future: Vec<Vec<Foot>>,
    /// Per process and control state: a transition leaving it writes a visible object, or there
    /// is none (never a candidate).
    never: Vec<Vec<bool>>,
    property: Option<u32>,
}

impl Por {
    /// The reduction for a question whose propositions are the programs `visible` (LTL
    /// propositions, assertions) plus the control bytes of the processes `visible_procs`. `Err`
    /// says why the model cannot be reduced.
    pub(crate) fn new(
        m: &Model,
        visible: &[&Prog],
        visible_procs: &[u32],
    ) -> Result<Por, &'static str> {
        if m.synchronous {
            return Err("a `system sync` model moves every process at once");
        }
        if m.property.is_some() {
            return Err("the property process is not known to be stutter-invariant");
        }
        let objs = Objects::new(m);
        let n = objs.n;
        let mut vis = Foot::new(n);
        for p in visible {
            objs.prog(p, &mut vis);
        }
        for &p in visible_procs {
            vis.r.set(objs.byte(p));
        }
        let trans: Vec<Foot> = m
            .trans
            .iter()
            .map(|t| {
                let mut f = Foot::new(n);
                if let Some(g) = &t.guard {
                    objs.prog(g, &mut f);
                }
                objs.prog(&t.effect, &mut f);
                match &t.sync {
                    SyncC::None => {}
                    SyncC::Send { chan, values } => {
                        for v in values {
                            objs.prog(v, &mut f);
                        }
                        objs.channel(*chan, &mut f);
                    }
                    SyncC::Recv {
                        chan,
                        targets,
                        matches,
                    } => {
                        for tg in targets.iter().flatten() {
                            objs.prog(tg, &mut f);
                        }
                        for (_, p) in matches {
                            objs.prog(p, &mut f);
                        }
                        objs.channel(*chan, &mut f);
                    }
                }
                let pr = &m.procs[t.proc as usize];
                let committed = |s: u8| pr.commit.get(s as usize).copied().unwrap_or(false);
                f.r.set(t.proc);
                f.w.set(t.proc);
                if committed(t.from) || committed(t.to) {
                    f.w.set(objs.commit);
                }
                if !committed(t.from) {
                    f.r.set(objs.commit);
                }
                f
            })
            .collect();
        let mut here = Vec::with_capacity(m.procs.len());
        let mut future = Vec::with_capacity(m.procs.len());
        let mut never = Vec::with_capacity(m.procs.len());
        for p in &m.procs {
            let k = p.states.len();
            let mut h = vec![Foot::new(n); k];
            let mut nv = vec![false; k];
            for (s, ids) in p.by_state.iter().enumerate() {
                nv[s] = ids.is_empty();
                for &id in ids {
                    if let Some(f) = trans.get(id as usize) {
                        h[s].union(f);
                        nv[s] |= f.w.meets(&vis.r);
                    }
                }
            }
            // Future footprints: union over the control states reachable from each one.
            let mut fut = Vec::with_capacity(k);
            for s0 in 0..k {
                let mut seen = vec![false; k];
                let mut stack = vec![s0];
                seen[s0] = true;
                let mut f = Foot::new(n);
                while let Some(s) = stack.pop() {
                    f.union(&h[s]);
                    for &id in p.by_state.get(s).map_or(&[][..], |v| v) {
                        let to = m.trans[id as usize].to as usize;
                        if to < k && !seen[to] {
                            seen[to] = true;
                            stack.push(to);
                        }
                    }
                }
                fut.push(f);
            }
            here.push(h);
            future.push(fut);
            never.push(nv);
        }
        Ok(Por {
            here,
            future,
            never,
            property: m.property,
        })
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

    /// The process whose enabled transitions form a proper ample subset of the successors whose
    /// labels are `labels` (the full expansion of `s`, computed without evaluation error), or
    /// `None` when `s` must be fully expanded. The cycle proviso is the caller's.
    pub(crate) fn ample<'a>(
        &self,
        m: &Model,
        s: &[u8],
        labels: impl Iterator<Item = &'a Label> + Clone,
    ) -> Option<u32> {
        if m.procs.iter().enumerate().any(|(pi, p)| {
            p.commit
                .get(s.get(pi).copied().unwrap_or(0) as usize)
                .copied()
                .unwrap_or(false)
        }) {
            return None;
        }
        let total = labels.clone().count();
        for p in 0..m.procs.len() {
            if Some(p as u32) == self.property || !self.candidate(m, s, p) {
                continue;
            }
            let mut mine = 0;
            let mut mixed = false;
            for l in labels.clone() {
                let mut procs = l.trans.iter().map(|&t| process_of(m, t));
                if procs.clone().any(|q| q == Some(p as u32)) {
                    if procs.all(|q| q == Some(p as u32)) {
                        mine += 1;
                    } else {
                        mixed = true;
                    }
                }
            }
            if mine > 0 && !mixed {
                return (mine < total).then_some(p as u32);
            }
        }
        None
    }
}

fn process_of(m: &Model, t: u32) -> Option<u32> {
    m.trans.get(t as usize).map(|t| t.proc)
}

/// Is the successor with label `l` in the ample set of process `p`?
pub(crate) fn in_ample(m: &Model, p: u32, l: &Label) -> bool {
    !l.trans.is_empty() && l.trans.iter().all(|&t| process_of(m, t) == Some(p))
}
