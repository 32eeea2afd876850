//! OWCTY, One-Way-Catch-Them-Young, distributed on timely-dataflow: the accepting-cycle
//! algorithm of DiVinE's distributed LTL checking (Barnat, Brim, Černá, Moravec, Ročkai, Šimeček
//! — "DiVinE: a tool for distributed verification", CAV 2006, §2; Černá and Pelánek,
//! "Distributed explicit fair cycle detection", SPIN 2003).
//!
//! Runs on the product partitioned by `dist_reach` (each worker holds its states and their
//! accepting flags; no edges are stored: successors are generated again, as DiVinE does). Each
//! elimination round is a pair of dataflow waves: *reset* — from the accepting states still in
//! the set, mark what they reach inside the set and count every marked state's in-set
//! predecessors; unmarked states leave the set — and *elimination* — states without in-set
//! predecessor leave the set, and each departure lowers its successors' counters, transitively.
//! Messages are successor states sent to their owners; a wave ends after a round in which no
//! worker sent anything. The set size is summed over all workers after each round; the fixpoint
//! is reached when it no longer shrinks, and it is empty iff the product has no accepting cycle.

use crate::dist_cluster::Exchanger;
use crate::dist_reach::{stop_flags, stopped_by, Expand};
use crate::state_store::StateStore;
use timely::worker::Worker;
use verikit_diag::{Budget, Exhausted};

/// The distributed fixpoint: the size of the set left (over all workers) and the rounds.
pub(crate) struct DistFixpoint {
    pub(crate) remaining: u64,
    pub(crate) rounds: u32,
    pub(crate) stopped: Option<Exhausted>,
}

/// One wave: expand `frontier`, hand every received state that is stored here to `on_recv`
/// (which says whether to expand it next), until a round sends nothing.
fn wave(
    worker: &mut Worker,
    ex: &mut Exchanger,
    store: &StateStore,
    mut frontier: Vec<u32>,
    expand: &mut Expand<'_>,
    budget: &Budget,
    on_recv: &mut dyn FnMut(u32) -> bool,
) -> Result<(), Exhausted> {
    let mut buf = Vec::new();
    let mut mine: Option<Exhausted> = None;
    loop {
        for (k, &i) in frontier.iter().enumerate() {
            if k & 255 == 0 {
                if let Err(e) = budget.check() {
                    mine = Some(e);
                    break;
                }
            }
            buf.clear();
            expand(&store.get(i), &mut buf);
            for s in &buf {
                ex.send(s);
            }
        }
        frontier.clear();
        let (recs, sums) = ex.round(worker, &stop_flags(mine));
        if let Some(e) = stopped_by(&sums, 1) {
            return Err(mine.unwrap_or(e));
        }
        for r in &recs {
            if let Some(j) = store.find(r.get(1..).unwrap_or(&[])) {
                if on_recv(j) {
                    frontier.push(j);
                }
            }
        }
        if sums.first().copied().unwrap_or(0) == 0 {
            return Ok(());
        }
    }
}

/// OWCTY on this worker's partition `store` with its accepting flags.
pub(crate) fn owcty(
    worker: &mut Worker,
    ex: &mut Exchanger,
    store: &StateStore,
    accepting: &[bool],
    expand: &mut Expand<'_>,
    budget: &Budget,
) -> DistFixpoint {
    let n = store.len();
    let mut alive = vec![true; n];
    let mut reached = vec![false; n];
    let mut indeg = vec![0u32; n];
    let mut size = u64::MAX;
    let mut rounds = 0;
    let stop = |rounds, e| DistFixpoint {
        remaining: 0,
        rounds,
        stopped: Some(e),
    };
    loop {
        rounds += 1;
        // Reset: what the accepting states reach inside the set; in-set in-degrees.
        reached.iter_mut().for_each(|r| *r = false);
        indeg.iter_mut().for_each(|d| *d = 0);
        let seeds: Vec<u32> = (0..n as u32)
            .filter(|&v| {
                let v = v as usize;
                alive.get(v) == Some(&true) && accepting.get(v) == Some(&true)
            })
            .collect();
        for &v in &seeds {
            reached[v as usize] = true;
        }
        let r = wave(worker, ex, store, seeds, expand, budget, &mut |j| {
            let j = j as usize;
            if alive.get(j) != Some(&true) {
                return false;
            }
            indeg[j] += 1;
            !std::mem::replace(&mut reached[j], true)
        });
        if let Err(e) = r {
            return stop(rounds, e);
        }
        alive.copy_from_slice(&reached);
        // Elimination: states without in-set predecessor, transitively.
        let seeds: Vec<u32> = (0..n as u32)
            .filter(|&v| alive[v as usize] && indeg[v as usize] == 0)
            .collect();
        for &v in &seeds {
            alive[v as usize] = false;
        }
        let r = wave(worker, ex, store, seeds, expand, budget, &mut |j| {
            let j = j as usize;
            if !alive[j] {
                return false;
            }
            indeg[j] -= 1;
            if indeg[j] == 0 {
                alive[j] = false;
                return true;
            }
            false
        });
        if let Err(e) = r {
            return stop(rounds, e);
        }
        let here = alive.iter().filter(|&&a| a).count() as u64;
        let (_, sums) = ex.round(worker, &[here]);
        let now = sums.get(1).copied().unwrap_or(0);
        let stable = now == size;
        size = now;
        if stable || now == 0 {
            break;
        }
    }
    DistFixpoint {
        remaining: size,
        rounds,
        stopped: None,
    }
}
