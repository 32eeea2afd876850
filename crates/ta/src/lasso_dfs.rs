//! On-the-fly search for a maximal path (UPPAAL's `E[]`) by depth-first search over the zone
//! graph as it is built: a node where a maximal path can stop, or an edge back to a node on the
//! search stack (a cycle), ends the search at once with a lasso — the stack is its path. In a
//! graph where every node counts (the φ-restricted graph of `E[] φ`, the `¬ψ` part of a leads-to
//! counterexample), some cycle is reachable iff a depth-first search meets such a back edge, so
//! no nested search or strongly-connected-component bookkeeping is needed; finished (black)
//! nodes lead to no lasso and are skipped by later searches that share the colours (one search
//! per `φ ∧ ¬ψ` node of a leads-to query).
//!
//! Seed: Tarjan, "Depth-first search and linear graph algorithms" (SIAM J. Comput. 1972), §2
//! (a directed graph has a cycle reachable from the root iff its depth-first search finds a
//! back edge); Herbreteau, Srivathsan, Walukiewicz, "Efficient emptiness check for timed Büchi
//! automata" (CAV 2010), §3 (on-the-fly emptiness on the abstract zone graph, sound for
//! cycles).

use crate::liveness::{Explorer, LiveGraph, NodeLasso};
use verikit_diag::{Budget, Diagnostic, Exhausted};

const WHITE: u8 = 0;
const GREY: u8 = 1;
const BLACK: u8 = 2;

/// What a depth-first lasso search ended with.
pub(crate) enum DfsOutcome {
    Found(NodeLasso),
    NotFound,
    Exhausted(Exhausted),
}

/// Searches from each of `sources` (in turn) inside the nodes where `sub` holds, expanding nodes
/// on demand. `colours` (indexed by node, grown as needed) persists across calls: nodes finished
/// by an earlier search are known to lead to no lasso.
pub(crate) fn dfs_lasso(
    ex: &mut Explorer<'_, '_, '_>,
    sources: &[u32],
    sub: &dyn Fn(&LiveGraph, u32) -> bool,
    colours: &mut Vec<u8>,
    budget: &Budget,
) -> Result<DfsOutcome, Diagnostic> {
    let mut ticker = budget.ticker(64);
    let colour = |colours: &mut Vec<u8>, v: u32| -> u8 {
        if colours.len() <= v as usize {
            colours.resize(v as usize + 1, WHITE);
        }
        colours[v as usize]
    };
    for &s in sources {
        if colour(colours, s) != WHITE || !sub(&ex.g, s) {
            continue;
        }
        colours[s as usize] = GREY;
        let mut stack: Vec<(u32, usize)> = vec![(s, 0)];
        if ex.can_stop(s)? {
            return Ok(DfsOutcome::Found(NodeLasso {
                path: vec![s],
                cycle: Vec::new(),
            }));
        }
        while let Some(&(v, i)) = stack.last() {
            if let Err(e) = ticker.tick() {
                return Ok(DfsOutcome::Exhausted(e));
            }
            ex.expand(v)?;
            if ex.zg.overflowed() {
                return Ok(DfsOutcome::Exhausted(Exhausted::Work));
            }
            let Some(&(w, _)) = ex.g.succ.get(v as usize).and_then(|s| s.get(i)) else {
                colours[v as usize] = BLACK;
                stack.pop();
                continue;
            };
            if let Some(top) = stack.last_mut() {
                top.1 += 1;
            }
            if !sub(&ex.g, w) {
                continue;
            }
            match colour(colours, w) {
                GREY => {
                    // a back edge: the stack up to `w`, then around to `w` again
                    let at = stack.iter().position(|&(u, _)| u == w).unwrap_or(0);
                    let path: Vec<u32> = stack[..=at].iter().map(|&(u, _)| u).collect();
                    let mut cycle: Vec<u32> = stack[at + 1..].iter().map(|&(u, _)| u).collect();
                    cycle.push(w);
                    return Ok(DfsOutcome::Found(NodeLasso { path, cycle }));
                }
                BLACK => {}
                _ => {
                    colours[w as usize] = GREY;
                    stack.push((w, 0));
                    if ex.can_stop(w)? {
                        let path = stack.iter().map(|&(u, _)| u).collect();
                        return Ok(DfsOutcome::Found(NodeLasso {
                            path,
                            cycle: Vec::new(),
                        }));
                    }
                }
            }
        }
    }
    Ok(DfsOutcome::NotFound)
}
