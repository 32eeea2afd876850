//! OWCTY, One-Way-Catch-Them-Young (Černá and Pelánek, "Distributed explicit fair cycle
//! detection", SPIN 2003; the algorithm of DiVinE's distributed LTL checking, Barnat et al.,
//! "DiVinE: a tool for distributed verification", CAV 2006, §2): on the stored product, repeat
//! until nothing changes — *reset*: keep the states reachable (inside the set) from its
//! accepting states; *elimination*: remove, transitively, the states without predecessor in the
//! set. The fixpoint is empty iff there is no accepting cycle. A counterexample is extracted
//! afterwards: an accepting state on a cycle inside the fixpoint (a non-trivial strongly
//! connected component of the remaining set, from the graph kernel's Tarjan) and a lasso
//! through it by breadth-first search. Each reset and elimination is a level-synchronous
//! traversal whose levels are shared among the threads (atomic flags and in-degree counters).

use crate::nested_dfs::Lasso;
use crate::partitioned_product::StoredProduct;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU32};
use verikit_diag::{Budget, Exhausted};

/// The fixpoint and its counterexample.
pub(crate) struct Fixpoint {
    pub(crate) lasso: Option<Lasso>,
    /// Reset/elimination rounds (OWCTY) or propagation rounds (MAP).
    pub(crate) rounds: u32,
    pub(crate) stopped: Option<Exhausted>,
}

/// Levels smaller than this run on the calling thread (all levels are split in the unit tests).
const PAR_MIN: usize = if cfg!(test) { 1 } else { 1024 };

/// Runs `f` on every vertex of `frontier`, split among `threads` threads; returns the vertices
/// they push (the next frontier).
fn par_level(
    frontier: &[u32],
    threads: usize,
    f: &(dyn Fn(u32, &mut Vec<u32>) + Sync),
) -> Vec<u32> {
    if threads <= 1 || frontier.len() < PAR_MIN {
        let mut out = Vec::new();
        for &u in frontier {
            f(u, &mut out);
        }
        return out;
    }
    let chunk = frontier.len().div_ceil(threads);
    std::thread::scope(|s| {
        let hs: Vec<_> = frontier
            .chunks(chunk)
            .map(|c| {
                s.spawn(move || {
                    let mut out = Vec::new();
                    for &u in c {
                        f(u, &mut out);
                    }
                    out
                })
            })
            .collect();
        hs.into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

/// OWCTY on `threads` threads: each round's reset and elimination are level-synchronous
/// traversals whose levels are split among the threads (atomic flags and in-degree counters).
pub(crate) fn owcty(g: &StoredProduct, threads: usize, budget: &Budget) -> Fixpoint {
    let n = g.len();
    let alive: Vec<AtomicBool> = (0..n).map(|_| AtomicBool::new(true)).collect();
    let reached: Vec<AtomicBool> = (0..n).map(|_| AtomicBool::new(false)).collect();
    let indeg: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
    let is = |v: &[AtomicBool], i: u32| v.get(i as usize).is_some_and(|a| a.load(Relaxed));
    let mut size = n;
    let mut rounds = 0;
    let stop = |rounds| Fixpoint {
        lasso: None,
        rounds,
        stopped: budget.check().err(),
    };
    loop {
        rounds += 1;
        // Reset: the states reachable from accepting states inside the set; in-set in-degrees.
        reached.iter().for_each(|r| r.store(false, Relaxed));
        indeg.iter().for_each(|d| d.store(0, Relaxed));
        let mut frontier: Vec<u32> = (0..n as u32)
            .filter(|&v| is(&alive, v) && g.accepting.get(v as usize).copied().unwrap_or(false))
            .collect();
        for &v in &frontier {
            reached[v as usize].store(true, Relaxed);
        }
        while !frontier.is_empty() {
            if budget.check().is_err() {
                return stop(rounds);
            }
            frontier = par_level(&frontier, threads, &|u, out| {
                for &v in g.succ.succ(u) {
                    if !is(&alive, v) {
                        continue;
                    }
                    indeg[v as usize].fetch_add(1, Relaxed);
                    if !reached[v as usize].swap(true, Relaxed) {
                        out.push(v);
                    }
                }
            });
        }
        for (a, r) in alive.iter().zip(&reached) {
            a.store(r.load(Relaxed), Relaxed);
        }
        // Elimination: states without predecessor in the set, transitively.
        let mut frontier: Vec<u32> = (0..n as u32)
            .filter(|&v| is(&alive, v) && indeg[v as usize].load(Relaxed) == 0)
            .collect();
        while !frontier.is_empty() {
            if budget.check().is_err() {
                return stop(rounds);
            }
            for &u in &frontier {
                alive[u as usize].store(false, Relaxed);
            }
            frontier = par_level(&frontier, threads, &|u, out| {
                for &v in g.succ.succ(u) {
                    if is(&alive, v) && indeg[v as usize].fetch_sub(1, Relaxed) == 1 {
                        out.push(v);
                    }
                }
            });
        }
        let now = alive.iter().filter(|a| a.load(Relaxed)).count();
        let stable = now == size;
        size = now;
        if stable || now == 0 {
            break;
        }
    }
    let alive: Vec<bool> = alive.iter().map(|a| a.load(Relaxed)).collect();
    let lasso = if size == 0 {
        None
    } else {
        counterexample(g, &alive)
    };
    Fixpoint {
        lasso,
        rounds,
        stopped: None,
    }
}

/// A lasso through an accepting state of a non-trivial SCC of the set `alive`.
fn counterexample(g: &StoredProduct, alive: &[bool]) -> Option<Lasso> {
    let inside = |v: u32| alive.get(v as usize).copied().unwrap_or(false);
    let sccs = verikit_graph::tarjan(g.len(), |u| {
        let out: &[u32] = if inside(u) { g.succ.succ(u) } else { &[] };
        out.iter()
            .copied()
            .filter(|&v| inside(v))
            .collect::<Vec<_>>()
    });
    for (c, members) in sccs.members.iter().enumerate() {
        let Some(&first) = members.first() else {
            continue;
        };
        if !inside(first) || !sccs.is_nontrivial(c, |v| g.succ.succ(v).contains(&v)) {
            continue;
        }
        if let Some(&a) = members
            .iter()
            .find(|&&v| g.accepting.get(v as usize).copied().unwrap_or(false))
        {
            let comp = &sccs.comp;
            return g.lasso(a, &|v| comp.get(v as usize) == Some(&(c as u32)));
        }
    }
    None
}
