//! Multi-core reachability with a partitioned state space, DiVinE's distributed scheme on
//! threads (Barnat, Brim, Černá, Moravec, Ročkai, Šimeček — "DiVinE: a tool for distributed
//! verification", CAV 2006, §2 "DiVinE Tool": a parallel, distributed-memory enumerative tool
//! whose algorithms include distributed state-space generation; each workstation owns the states
//! a partition function assigns to it and sends the others' states to their owners).
//!
//! Each of N workers owns the states whose partition hash maps to it: its own visited table
//! (`StateStore`), its own queue, a parent link per state (a global id: worker and local index)
//! and, on request, the in-edges of its states (for OWCTY and MAP on the product). A successor
//! owned by another worker is appended to a per-destination batch (`[parent id; state]`
//! records) sent over a channel. Termination: one shared counter of pending work — records in
//! flight plus queued unexpanded states — raised before the work it stands for is handed on and
//! lowered after it is done; the search is over when it reads zero. The same partition
//! function, record layout and counter are what a multi-process run exchanges (crate `dist`).

use crate::bfs::{assert_violation, trace_of, Exploration, Goal, Violation, ViolationKind};
use crate::bytecode::EvalError;
use crate::model::Model;
use crate::state_store::{StateStore, StoreKind};
use crate::successors::Generator;
use std::borrow::Cow;
use std::collections::VecDeque;
use std::hash::Hasher;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use verikit_diag::{Budget, Exhausted};

/// Bits of the local index in a global state id (`worker << LOCAL_BITS | index`).
const LOCAL_BITS: u32 = 40;
/// A batch is sent when it holds this many records (and whenever the sender runs dry).
const BATCH_RECORDS: usize = 512;

/// Global id of local state `i` of worker `w`.
pub(crate) fn gid(w: usize, i: u32) -> u64 {
    ((w as u64) << LOCAL_BITS) | u64::from(i)
}

/// Worker and local index of a global id.
pub(crate) fn split_gid(g: u64) -> (usize, u32) {
    (
        (g >> LOCAL_BITS) as usize,
        (g & ((1 << LOCAL_BITS) - 1)) as u32,
    )
}

/// The parent id of the initial state.
pub(crate) const NO_PARENT: u64 = u64::MAX;

/// The owner of a state among `n` workers: a hash independent of the visited table's.
pub fn partition(state: &[u8], n: usize) -> usize {
    let mut h = rustc_hash::FxHasher::default();
    h.write(state);
    let x = h.finish().wrapping_mul(0xD6E8_FEB8_6659_FD93);
    (((x >> 32) * n as u64) >> 32) as usize
}

/// Expands one state for the engine: calls `out` on every successor and returns `true` when the
/// state ends the search (a violation).
pub(crate) trait Expand {
    fn expand(&mut self, id: u64, state: &[u8], out: &mut dyn FnMut(&[u8])) -> bool;
}

/// What one worker owns when the search ends.
pub(crate) struct Partition {
    pub(crate) store: StateStore,
    /// Global id of the first predecessor through which each state was reached.
    pub(crate) parent: Vec<u64>,
    /// `(source global id, local target)` for every transition into this partition (only when
    /// edges are recorded).
    pub(crate) in_edges: Vec<(u64, u32)>,
    /// Every state of the partition was expanded.
    pub(crate) expanded: usize,
}

impl Partition {
    pub(crate) fn memory(&self) -> usize {
        self.store.memory() + self.parent.capacity() * 8 + self.in_edges.capacity() * 16
    }
}

/// The result of a partitioned search.
pub(crate) struct Run<E> {
    pub(crate) parts: Vec<Partition>,
    pub(crate) expanders: Vec<E>,
    pub(crate) stopped: Option<Exhausted>,
    /// The state whose expansion ended the search.
    pub(crate) stop_at: Option<u64>,
    /// Records sent between workers.
    pub(crate) messages: u64,
}

impl<E> Run<E> {
    pub(crate) fn states(&self) -> u64 {
        self.parts.iter().map(|p| p.store.len() as u64).sum()
    }

    pub(crate) fn memory(&self) -> usize {
        self.parts.iter().map(Partition::memory).sum()
    }

    pub(crate) fn state(&self, id: u64) -> Cow<'_, [u8]> {
        let (w, i) = split_gid(id);
        self.parts
            .get(w)
            .map_or(Cow::Borrowed(&[]), |p| p.store.get(i))
    }

    /// The states on the parent path from the initial state to `id`.
    pub(crate) fn path_to(&self, id: u64) -> Vec<Vec<u8>> {
        let mut out = vec![self.state(id).to_vec()];
        let mut cur = id;
        loop {
            let (w, i) = split_gid(cur);
            let p = self
                .parts
                .get(w)
                .and_then(|p| p.parent.get(i as usize))
                .copied()
                .unwrap_or(NO_PARENT);
            if p == NO_PARENT || out.len() > self.parts.iter().map(|p| p.parent.len()).sum() {
                break;
            }
            out.push(self.state(p).to_vec());
            cur = p;
        }
        out.reverse();
        out
    }
}

struct Shared {
    pending: AtomicI64,
    stop: AtomicBool,
    stop_at: Mutex<Option<u64>>,
    stopped: Mutex<Option<Exhausted>>,
    memory: Vec<AtomicUsize>,
    states: Vec<AtomicU64>,
    messages: AtomicU64,
    t0: Instant,
}

impl Shared {
    fn halt(&self, why: Exhausted) {
        if let Ok(mut s) = self.stopped.lock() {
            s.get_or_insert(why);
        }
        self.stop.store(true, Ordering::SeqCst);
    }
}

struct Worker<'a> {
    me: usize,
    n: usize,
    width: usize,
    record_edges: bool,
    part: Partition,
    queue: VecDeque<u32>,
    out: Vec<Vec<u8>>,
    out_count: Vec<usize>,
    senders: Vec<Sender<Vec<u8>>>,
    shared: &'a Shared,
}

impl Worker<'_> {
    fn flush(&mut self, to: usize) {
        if self.out_count.get(to).copied().unwrap_or(0) == 0 {
            return;
        }
        let batch = std::mem::take(&mut self.out[to]);
        self.shared
            .messages
            .fetch_add(self.out_count[to] as u64, Ordering::Relaxed);
        self.out_count[to] = 0;
        if let Some(s) = self.senders.get(to) {
            // A closed channel means its worker stopped: the search is ending anyway.
            let _ = s.send(batch);
        }
    }

    fn flush_all(&mut self) {
        for to in 0..self.n {
            self.flush(to);
        }
    }

    /// Inserts a received batch; duplicates lower the pending counter.
    fn absorb(&mut self, batch: &[u8]) {
        let rec = 8 + self.width;
        let mut dup = 0i64;
        for r in batch.chunks_exact(rec) {
            let (p, st) = r.split_at(8);
            let parent = p.try_into().map(u64::from_le_bytes).unwrap_or(NO_PARENT);
            let (i, new) = self.part.store.insert(st);
            if new {
                self.part.parent.push(parent);
                self.queue.push_back(i);
            } else {
                dup += 1;
            }
            if self.record_edges {
                self.part.in_edges.push((parent, i));
            }
        }
        if dup > 0 {
            self.shared.pending.fetch_sub(dup, Ordering::SeqCst);
        }
    }

    fn run(&mut self, rx: &Receiver<Vec<u8>>, ex: &mut impl Expand, budget: &Budget) {
        let mut st = Vec::with_capacity(self.width);
        let mut ticks = 0u32;
        let mut last_report = Instant::now();
        loop {
            if self.shared.stop.load(Ordering::Relaxed) {
                return;
            }
            // A worker that fell behind (a loaded machine) may find a long backlog of batches:
            // the budget is polled between them too, so a timeout is seen within one batch.
            while let Ok(b) = rx.try_recv() {
                self.absorb(&b);
                ticks = ticks.wrapping_add(1);
                if ticks & 15 == 0
                    && (self.shared.stop.load(Ordering::Relaxed)
                        || !self.check(budget, &mut last_report))
                {
                    return;
                }
            }
            let Some(i) = self.queue.pop_front() else {
                self.flush_all();
                if self.shared.pending.load(Ordering::SeqCst) == 0 {
                    return;
                }
                match rx.recv_timeout(Duration::from_micros(200)) {
                    Ok(b) => self.absorb(&b),
                    Err(RecvTimeoutError::Timeout) => {
                        if let Err(e) = budget.check() {
                            self.shared.halt(e);
                        }
                    }
                    Err(RecvTimeoutError::Disconnected) => return,
                }
                continue;
            };
            ticks = ticks.wrapping_add(1);
            if ticks & 255 == 0 && !self.check(budget, &mut last_report) {
                return;
            }
            self.part.store.read(i, &mut st);
            let me = gid(self.me, i);
            let mut added = 0i64;
            let stop = {
                let (n, width, record) = (self.n, self.width, self.record_edges);
                let (part, queue, out, out_count) = (
                    &mut self.part,
                    &mut self.queue,
                    &mut self.out,
                    &mut self.out_count,
                );
                let mine = self.me;
                ex.expand(me, &st, &mut |s: &[u8]| {
                    if s.len() != width {
                        return;
                    }
                    let to = partition(s, n);
                    if to == mine {
                        let (j, new) = part.store.insert(s);
                        if new {
                            part.parent.push(me);
                            queue.push_back(j);
                            added += 1;
                        }
                        if record {
                            part.in_edges.push((me, j));
                        }
                    } else if let (Some(b), Some(c)) = (out.get_mut(to), out_count.get_mut(to)) {
                        b.extend_from_slice(&me.to_le_bytes());
                        b.extend_from_slice(s);
                        *c += 1;
                        added += 1;
                    }
                })
            };
            self.part.expanded += 1;
            // The successors handed on are counted before this state stops counting.
            self.shared.pending.fetch_add(added - 1, Ordering::SeqCst);
            if stop {
                if let Ok(mut s) = self.shared.stop_at.lock() {
                    s.get_or_insert(me);
                }
                self.shared.stop.store(true, Ordering::SeqCst);
                return;
            }
            for to in 0..self.n {
                if self.out_count[to] >= BATCH_RECORDS {
                    self.flush(to);
                }
            }
        }
    }

    /// Polls the budget (time, cancellation, the memory of all workers); `false` = stop.
    fn check(&mut self, budget: &Budget, last_report: &mut Instant) -> bool {
        let sh = self.shared;
        if let Some(m) = sh.memory.get(self.me) {
            m.store(self.part.memory(), Ordering::Relaxed);
        }
        if let Some(c) = sh.states.get(self.me) {
            c.store(self.part.store.len() as u64, Ordering::Relaxed);
        }
        let total: usize = sh.memory.iter().map(|m| m.load(Ordering::Relaxed)).sum();
        if let Err(e) = budget.check().and_then(|()| budget.check_memory(total)) {
            sh.halt(e);
            return false;
        }
        if self.me == 0 {
            // The counts reached, for a caller that gives up on the search before it returns.
            let states: u64 = sh.states.iter().map(|c| c.load(Ordering::Relaxed)).sum();
            budget.progress().set(states);
        }
        if self.me == 0 && last_report.elapsed().as_secs() >= 2 {
            *last_report = Instant::now();
            let states: u64 = sh.states.iter().map(|c| c.load(Ordering::Relaxed)).sum();
            budget.progress().detail(&format!(
                "{} pending, {} MiB",
                sh.pending.load(Ordering::Relaxed),
                total >> 20
            ));
            tracing::info!(
                "mc: {} states on {} workers, {} pending, {:.0} states/s, {} MiB",
                states,
                self.n,
                sh.pending.load(Ordering::Relaxed),
                states as f64 / sh.t0.elapsed().as_secs_f64().max(1e-9),
                total >> 20
            );
        }
        true
    }
}

/// Explores from `init` on `expanders.len()` worker threads (one expander each, at least one),
/// each with its own visited-state table of layout `store`.
pub(crate) fn explore<E: Expand + Send>(
    width: usize,
    init: &[u8],
    expanders: Vec<E>,
    record_edges: bool,
    store: StoreKind,
    budget: &Budget,
) -> Run<E> {
    let n = expanders.len().max(1);
    let shared = Shared {
        pending: AtomicI64::new(1),
        stop: AtomicBool::new(false),
        stop_at: Mutex::new(None),
        stopped: Mutex::new(None),
        memory: (0..n).map(|_| AtomicUsize::new(0)).collect(),
        states: (0..n).map(|_| AtomicU64::new(0)).collect(),
        messages: AtomicU64::new(0),
        t0: Instant::now(),
    };
    let (senders, receivers): (Vec<_>, Vec<_>) = (0..n).map(|_| channel::<Vec<u8>>()).unzip();
    let owner = partition(init, n);
    budget
        .progress()
        .phase("partitioned search (states stored)", None);
    let results: Vec<(Partition, E)> = std::thread::scope(|scope| {
        let handles: Vec<_> = expanders
            .into_iter()
            .zip(receivers)
            .enumerate()
            .map(|(me, (mut ex, rx))| {
                let mut w = Worker {
                    me,
                    n,
                    width,
                    record_edges,
                    part: Partition {
                        store: StateStore::new(width, store),
                        parent: Vec::new(),
                        in_edges: Vec::new(),
                        expanded: 0,
                    },
                    queue: VecDeque::new(),
                    out: vec![Vec::new(); n],
                    out_count: vec![0; n],
                    senders: senders.clone(),
                    shared: &shared,
                };
                if me == owner {
                    w.part.store.insert(init);
                    w.part.parent.push(NO_PARENT);
                    w.queue.push_back(0);
                }
                scope.spawn(move || {
                    w.run(&rx, &mut ex, budget);
                    (w.part, ex)
                })
            })
            .collect();
        drop(senders);
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let (parts, expanders) = results.into_iter().unzip();
    let stopped = shared.stopped.lock().ok().and_then(|s| *s);
    let stop_at = shared.stop_at.lock().ok().and_then(|s| *s);
    Run {
        parts,
        expanders,
        stopped,
        stop_at,
        messages: shared.messages.load(Ordering::Relaxed),
    }
}

/// The safety expander of one worker: successors by the model's generator, deadlocks,
/// assertions and evaluation errors as in `bfs`.
pub(crate) struct Safety<'m> {
    m: &'m Model,
    gen: Generator<'m>,
    goal: Goal,
    transitions: u64,
    deadlocks: u64,
    error_dead_ends: u64,
    pub(crate) eval_errors: u64,
    /// The first violation this worker saw, at which state.
    pub(crate) violation: Option<(ViolationKind, u64)>,
    /// The first evaluation error this worker met (also when a deadlock came first).
    first_eval_error: Option<(EvalError, u32)>,
}

impl<'m> Safety<'m> {
    pub(crate) fn new(m: &'m Model, goal: Goal) -> Safety<'m> {
        Safety {
            m,
            gen: Generator::new(m),
            goal,
            transitions: 0,
            deadlocks: 0,
            error_dead_ends: 0,
            eval_errors: 0,
            violation: None,
            first_eval_error: None,
        }
    }
}

impl Expand for Safety<'_> {
    fn expand(&mut self, id: u64, state: &[u8], out: &mut dyn FnMut(&[u8])) -> bool {
        if self.goal == Goal::Assert {
            let v = assert_violation(self.m, state, &mut self.eval_errors);
            if let Some(v) = v {
                self.violation.get_or_insert((v, id));
                return true;
            }
        }
        let mut n = 0u64;
        let mut err = None;
        let mut errors = 0;
        self.gen.successors(
            state,
            |s, _| {
                n += 1;
                out(s);
            },
            |e, t| {
                err.get_or_insert((e, t));
                errors += 1;
            },
        );
        self.eval_errors += errors;
        self.transitions += n;
        if let Some((error, transition)) = err {
            self.first_eval_error.get_or_insert((error, transition));
            self.violation
                .get_or_insert((ViolationKind::Eval { error, transition }, id));
            if self.goal != Goal::Explore {
                return true;
            }
        }
        if n == 0 {
            self.deadlocks += 1;
            self.error_dead_ends += u64::from(err.is_some());
            if self.goal != Goal::Assert {
                if self.violation.is_none() {
                    self.violation = Some((ViolationKind::Deadlock, id));
                }
                return self.goal == Goal::Deadlock;
            }
        }
        false
    }
}

/// Multi-core [`bfs`](crate::bfs): the same question and counts on `threads` workers over a
/// partitioned state space. States are not expanded in BFS order, so a counterexample trace is
/// a path of parent links, not necessarily a shortest one, and `depth` is not computed (0).
pub fn parallel_reach(
    m: &Model,
    goal: Goal,
    threads: usize,
    store: StoreKind,
    budget: &Budget,
) -> Exploration {
    let t0 = Instant::now();
    let experts = (0..threads.max(1)).map(|_| Safety::new(m, goal)).collect();
    let run = explore(m.state_size(), &m.init, experts, false, store, budget);
    let mut r = Exploration {
        states: run.states(),
        complete: run.stopped.is_none() && run.stop_at.is_none(),
        stopped: run.stopped,
        memory_bytes: run.memory(),
        ..Exploration::default()
    };
    let mut found = None;
    for e in &run.expanders {
        r.transitions += e.transitions;
        r.deadlocks += e.deadlocks;
        r.error_dead_ends += e.error_dead_ends;
        r.eval_errors += e.eval_errors;
        r.first_eval_error = r.first_eval_error.or(e.first_eval_error);
        if let Some((k, at)) = &e.violation {
            let wanted = run.stop_at.is_none_or(|s| s == *at);
            let explore_ok = goal == Goal::Explore
                || matches!(k, ViolationKind::Eval { .. })
                || (goal == Goal::Deadlock) == (*k == ViolationKind::Deadlock);
            if wanted && explore_ok && found.is_none() {
                found = Some((k.clone(), *at));
            }
        }
    }
    if goal == Goal::Explore || run.stop_at.is_some() {
        r.violation = found.map(|(kind, at)| Violation {
            kind,
            trace: trace_of(m, run.path_to(at)),
        });
    }
    r.seconds = t0.elapsed().as_secs_f64();
    r
}
