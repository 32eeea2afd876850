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
//! out stops expanding and raises a flag in the sums; all workers stop after that round.

use crate::dist_cluster::Exchanger;
use crate::state_store::StateStore;
use timely::worker::Worker;
use verikit_diag::{Budget, Exhausted};

/// Successors of a state (pushed to `out`) and the number of evaluation errors met.
pub(crate) type Expand<'a> = dyn FnMut(&[u8], &mut Vec<Vec<u8>>) -> u64 + 'a;

/// One worker's part of the state space and its counters.
pub(crate) struct Local {
    pub(crate) store: StateStore,
    pub(crate) transitions: u64,
    pub(crate) deadlocks: u64,
    pub(crate) eval_errors: u64,
    /// BFS levels (rounds that sent states).
    pub(crate) levels: u64,
    /// Why this run stopped early (this worker's budget or, as `Timeout`, a peer's).
    pub(crate) stopped: Option<Exhausted>,
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

/// Generates the state space from `init` (sent by worker 0) on this worker's partition.
pub(crate) fn explore(
    worker: &mut Worker,
    ex: &mut Exchanger,
    width: usize,
    init: &[u8],
    expand: &mut Expand<'_>,
    budget: &Budget,
) -> Local {
    let mut l = Local {
        store: StateStore::new(width),
        transitions: 0,
        deadlocks: 0,
        eval_errors: 0,
        levels: 0,
        stopped: None,
    };
    if ex.me == 0 {
        ex.send(init);
    }
    let mut frontier: Vec<u32> = Vec::new();
    let mut buf: Vec<Vec<u8>> = Vec::new();
    let mut mine: Option<Exhausted> = None;
    loop {
        let (recs, sums) = ex.round(worker, &stop_flags(mine));
        if let Some(e) = stopped_by(&sums, 1) {
            l.stopped = Some(mine.unwrap_or(e));
            break;
        }
        if sums.first().copied().unwrap_or(0) == 0 {
            break;
        }
        l.levels += 1;
        for r in &recs {
            let (i, new) = l.store.insert(r.get(1..).unwrap_or(&[]));
            if new {
                frontier.push(i);
            }
        }
        for (k, &i) in frontier.iter().enumerate() {
            if k & 255 == 0 {
                if let Err(e) = budget
                    .check()
                    .and_then(|()| budget.check_memory(l.store.memory()))
                {
                    mine = Some(e);
                    break;
                }
            }
            buf.clear();
            let st = l.store.get(i).to_vec();
            l.eval_errors += expand(&st, &mut buf);
            l.transitions += buf.len() as u64;
            if buf.is_empty() {
                l.deadlocks += 1;
            }
            for s in &buf {
                ex.send(s);
            }
        }
        frontier.clear();
    }
    l
}
