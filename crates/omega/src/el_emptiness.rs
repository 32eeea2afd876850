//! Generic emptiness check for Emerson–Lei automata: Baier, Blahoudek, Duret-Lutz, Klein,
//! Müller, Strejček, "Generic Emptiness Check for Fun and Profit", ATVA'19, §4 (the recursive
//! SCC-based check that Spot calls `generic_emptiness_check`).
//!
//! For every SCC (with at least one inner edge) reachable from an initial state, with `M` the
//! marks on its inner edges, the condition is first restricted to `M` (`Inf` of an absent mark
//! is false, `Fin` of an absent mark true). If it has become `f` the SCC is rejecting; if it has
//! no `Fin` left it is a monotone function of the marks seen infinitely often, so the SCC is
//! accepting iff it holds of `M` (a cycle through every inner edge sees all of `M`). Otherwise
//! it picks a set `x` under a `Fin` and splits: either an accepting cycle visits `x` — the
//! condition with `Fin(x)` false is checked on the same SCC — or it avoids `x` — the edges
//! carrying `x` are removed, `Fin(x)` becomes true and `Inf(x)` false, and the check recurses
//! into the SCCs of what remains. Each split removes `x` from the `Fin`s, so the recursion depth
//! is at most the number of sets. The answer is the SCC where the check succeeded and the marks
//! whose edges were removed on the way; [`crate::emptiness`] builds the lasso witness inside it.

use crate::acc::Acc;
use crate::twa::Marks;
use verikit_diag::{Budget, Exhausted};

/// An accepting component: its states and the marks whose edges a cycle must avoid. Any cycle
/// through all inner edges of `states` that carry none of `banned` is accepting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AcceptingScc {
    pub states: Vec<u32>,
    pub banned: Marks,
}

/// Searches the graph `adj` (successors of each node with the marks of the edge) restricted to
/// the nodes with `reach[n]` for an SCC with an accepting cycle under `acc`.
pub(crate) fn accepting_scc(
    adj: &[Vec<(u32, Marks)>],
    reach: &[bool],
    acc: &Acc,
    budget: &Budget,
) -> Result<Option<AcceptingScc>, Exhausted> {
    let nodes: Vec<u32> = (0..adj.len() as u32)
        .filter(|&n| reach.get(n as usize).copied().unwrap_or(false))
        .collect();
    search(adj, &nodes, 0, acc, budget)
}

/// The check on the subgraph induced by `nodes` without the edges carrying a mark of `banned`.
fn search(
    adj: &[Vec<(u32, Marks)>],
    nodes: &[u32],
    banned: Marks,
    acc: &Acc,
    budget: &Budget,
) -> Result<Option<AcceptingScc>, Exhausted> {
    budget.check()?;
    if acc.is_f() || nodes.is_empty() {
        return Ok(None);
    }
    // Local graph.
    let mut local = vec![u32::MAX; adj.len()];
    for (i, &n) in nodes.iter().enumerate() {
        local[n as usize] = i as u32;
    }
    let mut edges = Vec::new();
    for (i, &n) in nodes.iter().enumerate() {
        for &(d, m) in &adj[n as usize] {
            let ld = local[d as usize];
            if ld != u32::MAX && m & banned == 0 {
                edges.push((i as u32, ld));
            }
        }
    }
    budget.spend(edges.len() as u64 + nodes.len() as u64)?;
    let g = verikit_graph::Csr::from_edges(nodes.len(), &edges);
    let sccs = verikit_graph::sccs(&g);
    // Inner marks and inner-edge presence per SCC.
    let mut marks = vec![0 as Marks; sccs.len()];
    let mut inner = vec![false; sccs.len()];
    for (i, &n) in nodes.iter().enumerate() {
        let c = sccs.comp[i] as usize;
        for &(d, m) in &adj[n as usize] {
            let ld = local[d as usize];
            if ld != u32::MAX && m & banned == 0 && sccs.comp[ld as usize] as usize == c {
                marks[c] |= m;
                inner[c] = true;
            }
        }
    }
    for c in 0..sccs.len() {
        if !inner[c] {
            continue;
        }
        let m = marks[c];
        let phi = acc.restrict(m);
        if phi.is_f() {
            continue;
        }
        let states: Vec<u32> = sccs.members[c].iter().map(|&l| nodes[l as usize]).collect();
        let fin = phi.fin_marks();
        if fin == 0 {
            if phi.accepting(m) {
                return Ok(Some(AcceptingScc { states, banned }));
            }
            continue;
        }
        let x = fin & fin.wrapping_neg();
        // An accepting cycle that visits x: Fin(x) is false for it.
        let visit = phi.assign(0, x, 0, 0);
        if let Some(r) = search(adj, &states, banned, &visit, budget)? {
            return Ok(Some(r));
        }
        // An accepting cycle that avoids x.
        let avoid = phi.assign(x, 0, 0, x);
        if let Some(r) = search(adj, &states, banned | x, &avoid, budget)? {
            return Ok(Some(r));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn co_buchi_and_rabin() {
        // 0 -{0}-> 1 -> 0, 1 -> 1 (no mark): co-Büchi accepts by staying in 1.
        let adj = vec![vec![(1, 1)], vec![(0, 0), (1, 0)]];
        let reach = vec![true, true];
        let b = Budget::unlimited();
        let r = accepting_scc(&adj, &reach, &Acc::co_buchi(), &b).unwrap();
        assert_eq!(
            r,
            Some(AcceptingScc {
                states: vec![1],
                banned: 1
            })
        );
        // Without the self-loop every cycle visits mark 0.
        let adj = vec![vec![(1, 1)], vec![(0, 0)]];
        assert_eq!(
            accepting_scc(&adj, &reach, &Acc::co_buchi(), &b).unwrap(),
            None
        );
        assert!(accepting_scc(&adj, &reach, &Acc::buchi(), &b)
            .unwrap()
            .is_some());
    }
}
