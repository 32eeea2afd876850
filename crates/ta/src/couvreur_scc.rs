//! Büchi emptiness on the fly by Couvreur's SCC-based algorithm (TChecker's `tck-liveness -a
//! couvscc`): one depth-first search over the zone graph as it is built, keeping a stack of the
//! roots of the partial strongly connected components on the search path, each with whether
//! its component holds an accepting node. An edge to a live node (visited, its component not
//! finished) merges the components above it into its root's; when the merged component holds
//! an accepting node, an accepting cycle exists and the search stops at once. A finished
//! component (its root popped) is marked dead and never entered again, so every node and edge is
//! handled once.
//!
//! The witness: an accepting node of the merged component, and a cycle through it found by a
//! breadth-first search inside the component (its nodes are strongly connected by the edges
//! already explored); the path from the initial state is added by the caller.
//!
//! Seed: Couvreur, "On-the-fly verification of linear temporal logic" (FM'99), §3 (the SCC-based
//! emptiness check, Fig. 2); Gaiser, Schwoon, "Comparison of algorithms for checking emptiness on
//! Büchi automata" (MEMICS 2009), §3 (the iterative form used here); TChecker's documentation of
//! `tck-liveness` (algorithm `couvscc`, statistics `VISITED_STATES`, `VISITED_TRANSITIONS`,
//! `STORED_STATES`); Herbreteau, Srivathsan, Walukiewicz, "Efficient emptiness check for timed
//! Büchi automata" (CAV 2010), §3 (cycles of the abstract zone graph are realised by runs).

use crate::liveness::{Explorer, LiveGraph, NodeLasso};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use verikit_diag::{Budget, Diagnostic, Exhausted};

/// Depth-first number of a node whose component is finished.
const DEAD: u32 = u32::MAX;

/// What the search ended with.
pub(crate) enum SccOutcome {
    Found(NodeLasso),
    NotFound,
    Exhausted(Exhausted),
}

/// Searches from the initial nodes for a reachable cycle through a node where `accept` holds,
/// expanding nodes on demand.
pub(crate) fn couvreur_scc(
    ex: &mut Explorer<'_, '_, '_>,
    accept: &dyn Fn(&LiveGraph, u32) -> bool,
    budget: &Budget,
) -> Result<SccOutcome, Diagnostic> {
    let mut ticker = budget.ticker(64);
    // per node: 0 = not visited, DEAD = finished, else its depth-first number
    let mut num: Vec<u32> = Vec::new();
    let mut count = 0u32;
    // roots of the partial components on the search path: depth-first number, accepting
    let mut roots: Vec<(u32, bool)> = Vec::new();
    // nodes of the unfinished components, in visiting order
    let mut active: Vec<u32> = Vec::new();
    let mut stack: Vec<(u32, usize)> = Vec::new();
    let sources = ex.g.initial.clone();
    for s in sources {
        if number(&mut num, s) != 0 {
            continue;
        }
        count += 1;
        num[s as usize] = count;
        roots.push((count, accept(&ex.g, s)));
        active.push(s);
        stack.push((s, 0));
        while let Some(&(v, i)) = stack.last() {
            if let Err(e) = ticker.tick() {
                return Ok(SccOutcome::Exhausted(e));
            }
            ex.expand(v)?;
            if ex.zg.overflowed() {
                return Ok(SccOutcome::Exhausted(Exhausted::Work));
            }
            let Some(&(w, _)) = ex.g.succ.get(v as usize).and_then(|s| s.get(i)) else {
                // v is done: if it is a root, its component is finished
                stack.pop();
                if roots.last().is_some_and(|&(r, _)| r == number(&mut num, v)) {
                    roots.pop();
                    while let Some(u) = active.pop() {
                        num[u as usize] = DEAD;
                        if u == v {
                            break;
                        }
                    }
                }
                continue;
            };
            if let Some(top) = stack.last_mut() {
                top.1 += 1;
            }
            match number(&mut num, w) {
                0 => {
                    count += 1;
                    num[w as usize] = count;
                    roots.push((count, accept(&ex.g, w)));
                    active.push(w);
                    stack.push((w, 0));
                }
                DEAD => {}
                nw => {
                    // w is on the search path's components: merge everything above its root
                    let mut acc = false;
                    while let Some(&(r, a)) = roots.last() {
                        if r <= nw {
                            break;
                        }
                        acc |= a;
                        roots.pop();
                    }
                    let Some(top) = roots.last_mut() else {
                        return Err(internal());
                    };
                    top.1 |= acc;
                    if top.1 {
                        let root = top.0;
                        let lasso =
                            witness(&ex.g, &num, &active, root, accept).ok_or_else(internal)?;
                        return Ok(SccOutcome::Found(lasso));
                    }
                }
            }
        }
    }
    Ok(SccOutcome::NotFound)
}

/// The depth-first number of `v` (0 when not visited), growing `num` as the graph grows.
fn number(num: &mut Vec<u32>, v: u32) -> u32 {
    if num.len() <= v as usize {
        num.resize(v as usize + 1, 0);
    }
    num[v as usize]
}

/// An accepting node of the component rooted at depth-first number `root` and a cycle through
/// it inside the component (`path` = that node, `cycle` ends with it).
fn witness(
    g: &LiveGraph,
    num: &[u32],
    active: &[u32],
    root: u32,
    accept: &dyn Fn(&LiveGraph, u32) -> bool,
) -> Option<NodeLasso> {
    let in_comp = |v: u32| {
        num.get(v as usize)
            .is_some_and(|&k| k != 0 && k != DEAD && k >= root)
    };
    let a = active
        .iter()
        .copied()
        .find(|&v| in_comp(v) && accept(g, v))?;
    // breadth-first from a's successors back to a, inside the component
    let mut parent: FxHashMap<u32, u32> = FxHashMap::default();
    let mut queue = VecDeque::from([a]);
    'bfs: while let Some(u) = queue.pop_front() {
        for &(w, _) in g.succ.get(u as usize)? {
            if !in_comp(w) {
                continue;
            }
            if w == a {
                parent.insert(a, u);
                break 'bfs;
            }
            if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(w) {
                e.insert(u);
                queue.push_back(w);
            }
        }
    }
    let mut cycle = Vec::new();
    let mut cur = a;
    loop {
        cycle.push(cur);
        let p = *parent.get(&cur)?;
        if p == a {
            break;
        }
        cur = p;
    }
    cycle.reverse();
    Some(NodeLasso {
        path: vec![a],
        cycle,
    })
}

fn internal() -> Diagnostic {
    Diagnostic::error("internal error: inconsistent strongly connected components")
}
