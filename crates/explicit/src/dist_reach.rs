//! Distributed state-space generation on timely-dataflow, DiVinE's distributed reachability
//! (Barnat, Brim, Černá, Moravec, Ročkai, Šimeček — "DiVinE: a tool for distributed
//! verification", CAV 2006, §2: states partitioned among workstations by a hash function, each
//! owning its part of the visited set and sending successors to their owners).
//!
//! Level-synchronous: in each round every worker expands the states it discovered in the previous
//! round and sends each successor to its owner (`dist_cluster::Exchanger`, timely's `Exchange`
//! pact); the owner inserts what it receives into its own visited table. The search ends after
//! the first round in which no worker sent a state — known to every worker at once from the
//! round's sums, which timely's progress tracking delivers complete. A worker whose budget runs
//! out stops expanding and raises a flag in the sums; all workers stop after that round. The
//! memory limit is the run's, not a worker's: each round sums the workers' table sizes, and a
//! worker compares the others' sum at the last round plus its own current size with the limit.
//!
//! Counterexamples (safety searches): each record carries the global id of the state it was
//! generated from, and each worker keeps that parent id per stored state of its partition. A
//! state that violates the property ends the search after its round — the round of its BFS
//! level, so no shorter violation exists — and the trace is rebuilt by walking parent ids across
//! workers ([`trace_back`]): one round per step, in which the owner of the current state sends
//! it and its parent id to every worker.

use crate::dist_cluster::{record_state, Exchanger};
use crate::parallel_reach::{gid, split_gid, NO_PARENT};
use crate::state_store::{StateStore, StoreKind};
use timely::worker::Worker;
use verikit_diag::{Budget, Exhausted};

/// What expanding one state found besides its successors.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Expanded {
    /// Evaluation errors met.
    pub(crate) errors: u64,
    /// The state violates the property searched for: the search stops after this round.
    pub(crate) violation: bool,
}

/// Successors of a state (pushed to `out`) and what the expansion found.
pub(crate) type Expand<'a> = dyn FnMut(&[u8], &mut Vec<Vec<u8>>) -> Expanded + 'a;

/// One worker's part of the state space and its counters.
pub(crate) struct Local {
    pub(crate) store: StateStore,
    /// The global id of the state each stored state was first generated from (`NO_PARENT` for
    /// the initial state); empty unless the search keeps parents.
    pub(crate) parent: Vec<u64>,
    pub(crate) transitions: u64,
    pub(crate) deadlocks: u64,
    pub(crate) eval_errors: u64,
    /// BFS levels (rounds that sent states).
    pub(crate) levels: u64,
    /// Why this run stopped early (this worker's budget or, as `Timeout`, a peer's).
    pub(crate) stopped: Option<Exhausted>,
    /// The first state of this partition found violating the property.
    pub(crate) violation: Option<u32>,
    /// Some worker found a violation (the search ended there).
    pub(crate) violated: bool,
}

impl Local {
    /// Bytes of the visited table and the parent ids.
    pub(crate) fn memory(&self) -> usize {
        self.store.memory() + self.parent.capacity() * 8
    }
}

/// The three stop flags a round's sums carry: time or cancellation, memory, counted work.
pub(crate) fn stop_flags(e: Option<Exhausted>) -> [u64; 3] {
    match e {
        None => [0, 0, 0],
        Some(Exhausted::Timeout | Exhausted::Cancelled) => [1, 0, 0],
        Some(Exhausted::Memory) => [0, 1, 0],
        Some(Exhausted::Work) => [0, 0, 1],
    }
}

/// The reason a round's summed stop flags (`sums[k..k+3]`) give, if any.
pub(crate) fn stopped_by(sums: &[u64], k: usize) -> Option<Exhausted> {
    let at = |i: usize| sums.get(k + i).copied().unwrap_or(0) > 0;
    if at(1) {
        Some(Exhausted::Memory)
    } else if at(2) {
        Some(Exhausted::Work)
    } else if at(0) {
        Some(Exhausted::Timeout)
    } else {
        None
    }
}

/// Polls the budget: its time, and its memory limit against the other workers' memory at the
/// last round (`others`) plus this worker's now.
fn over(budget: &Budget, others: usize, l: &Local) -> Option<Exhausted> {
    budget
        .check()
        .and_then(|()| budget.check_memory(others.saturating_add(l.memory())))
        .err()
}

/// Generates the state space from `init` (sent by worker 0) on this worker's partition; with
/// `linked`, each state's parent id is kept (8 bytes more per record and per state).
pub(crate) fn explore(
    worker: &mut Worker,
    ex: &mut Exchanger,
    width: usize,
    init: &[u8],
    expand: &mut Expand<'_>,
    budget: &Budget,
    linked: bool,
) -> Local {
    let mut l = Local {
        store: StateStore::new(width, StoreKind::Hash),
        parent: Vec::new(),
        transitions: 0,
        deadlocks: 0,
        eval_errors: 0,
        levels: 0,
        stopped: None,
        violation: None,
        violated: false,
    };
    if ex.me == 0 {
        if linked {
            ex.send_linked(init, NO_PARENT);
        } else {
            ex.send(init);
        }
    }
    let mut frontier: Vec<u32> = Vec::new();
    let mut buf: Vec<Vec<u8>> = Vec::new();
    let mut mine: Option<Exhausted> = None;
    let progress = budget.progress();
    if ex.me == 0 {
        progress.phase("distributed state-space generation (states)", None);
    }
    loop {
        let here = l.memory() as u64;
        let [t, m, k] = stop_flags(mine);
        let values = [
            t,
            m,
            k,
            u64::from(l.violation.is_some()),
            here,
            l.store.len() as u64,
        ];
        let (recs, sums) = ex.round(worker, &values);
        if let Some(e) = stopped_by(&sums, 1) {
            l.stopped = Some(mine.unwrap_or(e));
            break;
        }
        if sums.get(4).copied().unwrap_or(0) > 0 {
            l.violated = true;
            break;
        }
        if sums.first().copied().unwrap_or(0) == 0 {
            break;
        }
        let others = sums.get(5).copied().unwrap_or(0).saturating_sub(here) as usize;
        if ex.me == 0 {
            progress.set(sums.get(6).copied().unwrap_or(0));
        }
        l.levels += 1;
        for (k, r) in recs.iter().enumerate() {
            if k & 4095 == 0 {
                mine = over(budget, others, &l);
                if mine.is_some() {
                    break;
                }
            }
            let (parent, st) = record_state(r);
            let (i, new) = l.store.insert(st);
            if new {
                if linked {
                    l.parent.push(parent);
                }
                frontier.push(i);
            }
        }
        let mut st = Vec::with_capacity(width);
        for (k, &i) in frontier.iter().enumerate() {
            if mine.is_some() {
                break;
            }
            if k & 255 == 0 {
                mine = over(budget, others, &l);
                if mine.is_some() {
                    break;
                }
            }
            buf.clear();
            l.store.read(i, &mut st);
            let x = expand(&st, &mut buf);
            l.eval_errors += x.errors;
            l.transitions += buf.len() as u64;
            if buf.is_empty() {
                l.deadlocks += 1;
            }
            if x.violation {
                l.violation = Some(i);
                break;
            }
            let me = gid(ex.me, i);
            for s in &buf {
                if linked {
                    ex.send_linked(s, me);
                } else {
                    ex.send(s);
                }
            }
        }
        frontier.clear();
    }
    l
}

/// After a search that some worker ended with a violation: the path of states from the initial
/// state to it (the violation with the smallest global id when several workers found one),
/// rebuilt from the parent ids of `l` (a search with `linked`) and of the other workers. Every
/// worker must call it after the same search; every worker returns the same path (empty when
/// nobody found a violation).
pub(crate) fn trace_back(worker: &mut Worker, ex: &mut Exchanger, l: &Local) -> Vec<Vec<u8>> {
    let mut slots = vec![0u64; ex.peers];
    if let (Some(i), Some(s)) = (l.violation, slots.get_mut(ex.me)) {
        *s = gid(ex.me, i) + 1;
    }
    let (_, sums) = ex.round(worker, &slots);
    let Some(mut cur) = sums.iter().skip(1).filter(|&&v| v > 0).min().map(|v| v - 1) else {
        return Vec::new();
    };
    let mut path = Vec::new();
    // A parent is always stored in an earlier round: at most `levels` steps back to the start.
    for _ in 0..=l.levels {
        let (w, i) = split_gid(cur);
        if w == ex.me {
            let st = l.store.get(i);
            let p = l.parent.get(i as usize).copied().unwrap_or(NO_PARENT);
            for dest in 0..ex.peers {
                ex.send_direct(dest, &st, p);
            }
        }
        let (recs, _) = ex.round(worker, &[]);
        let Some((p, st)) = recs.first().map(|r| record_state(r)) else {
            break;
        };
        path.push(st.to_vec());
        if p == NO_PARENT {
            break;
        }
        cur = p;
    }
    path.reverse();
    path
}
