//! Dominators of a flowgraph (Prosser 1959): `d` dominates `v` when every path from the root to
//! `v` passes through `d`. The iterative algorithm of Cooper, Harvey and Kennedy, *A Simple, Fast
//! Dominance Algorithm* (2001): intersect the dominator sets of the predecessors along a
//! reverse-postorder numbering until nothing changes; the result is the immediate-dominator tree.

use crate::csr::Csr;

/// The immediate dominator of every vertex reachable from `root` (`Some(root)` for the root
/// itself, `None` for unreachable vertices).
pub fn immediate_dominators(g: &Csr, root: u32) -> Vec<Option<u32>> {
    let n = g.num_vertices();
    let mut idom: Vec<Option<u32>> = vec![None; n];
    if root as usize >= n {
        return idom;
    }
    // iterative DFS postorder
    let mut order: Vec<u32> = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut stack: Vec<(u32, usize)> = vec![(root, 0)];
    seen[root as usize] = true;
    while let Some(&mut (v, ref mut i)) = stack.last_mut() {
        let succ = g.succ(v);
        if let Some(&w) = succ.get(*i) {
            *i += 1;
            if !seen[w as usize] {
                seen[w as usize] = true;
                stack.push((w, 0));
            }
        } else {
            order.push(v);
            stack.pop();
        }
    }
    let mut po = vec![usize::MAX; n]; // postorder number
    for (k, &v) in order.iter().enumerate() {
        po[v as usize] = k;
    }
    let preds = g.transpose();
    idom[root as usize] = Some(root);
    let mut changed = true;
    while changed {
        changed = false;
        for &v in order.iter().rev() {
            if v == root {
                continue;
            }
            let mut new: Option<u32> = None;
            for &p in preds.succ(v) {
                if idom[p as usize].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(mut a) => {
                        let mut b = p;
                        while a != b {
                            while po[a as usize] < po[b as usize] {
                                a = idom[a as usize].unwrap_or(root);
                            }
                            while po[b as usize] < po[a as usize] {
                                b = idom[b as usize].unwrap_or(root);
                            }
                        }
                        a
                    }
                });
            }
            if new.is_some() && idom[v as usize] != new {
                idom[v as usize] = new;
                changed = true;
            }
        }
    }
    idom
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `d` dominates `v` iff `v` is unreachable from the root once `d` is removed.
    fn dominates(g: &Csr, root: u32, d: u32, v: u32) -> bool {
        if d == root {
            return true;
        }
        let mut seen = vec![false; g.num_vertices()];
        let mut todo = vec![root];
        seen[root as usize] = true;
        while let Some(x) = todo.pop() {
            for &w in g.succ(x) {
                if w != d && !seen[w as usize] {
                    seen[w as usize] = true;
                    todo.push(w);
                }
            }
        }
        !seen[v as usize]
    }

    #[test]
    fn diamond() {
        let g = Csr::from_edges(5, &[(0, 1), (0, 2), (1, 3), (2, 3), (3, 4)]);
        let d = immediate_dominators(&g, 0);
        assert_eq!(d, vec![Some(0), Some(0), Some(0), Some(0), Some(3)]);
    }

    proptest! {
        #[test]
        fn idom_matches_brute_force(n in 1usize..10, edges in proptest::collection::vec((0u32..10, 0u32..10), 0..30)) {
            let edges: Vec<_> = edges.into_iter().filter(|&(a, b)| (a as usize) < n && (b as usize) < n).collect();
            let g = Csr::from_edges(n, &edges);
            let idom = immediate_dominators(&g, 0);
            let reach = crate::reachable(&g, &[0]);
            for v in 1..n as u32 {
                if !reach[v as usize] {
                    prop_assert_eq!(idom[v as usize], None);
                    continue;
                }
                let i = idom[v as usize].unwrap();
                prop_assert!(i != v && dominates(&g, 0, i, v));
                // every strict dominator of v dominates its idom (or is it)
                for d in 0..n as u32 {
                    if d != v && reach[d as usize] && dominates(&g, 0, d, v) {
                        prop_assert!(d == i || dominates(&g, 0, d, i));
                    }
                }
            }
        }
    }
}
