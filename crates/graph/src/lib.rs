//! Graph kernels shared by the engines: a compressed sparse row adjacency ([`Csr`]), strongly
//! connected components (iterative Tarjan, so deep graphs cannot overflow the stack), and forward
//! and backward reachability, and immediate dominators ([`immediate_dominators`], module
//! `dominators`). Vertices are `0..n` as `u32`.
//! Drawing small graphs (automata) as SVG without GraphViz: [`layered_layout`] (Sugiyama-style
//! layers, barycentre ordering) and [`to_svg`].

#![warn(unreachable_pub)]

mod dominators;
mod sugiyama;
mod svg;

pub use dominators::immediate_dominators;
pub use sugiyama::{layered_layout, Layout, Sizes};
pub use svg::{to_svg, DrawEdge, DrawNode, Drawing};

/// Compressed sparse row adjacency: the successors of `v` are `targets[offsets[v]..offsets[v+1]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Csr {
    pub offsets: Vec<u32>,
    pub targets: Vec<u32>,
}

impl Csr {
    /// Builds from an edge list over `n` vertices (edges keep their relative order per source).
    pub fn from_edges(n: usize, edges: &[(u32, u32)]) -> Csr {
        let mut offsets = vec![0u32; n + 1];
        for &(s, _) in edges {
            offsets[s as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut targets = vec![0u32; edges.len()];
        for &(s, t) in edges {
            targets[fill[s as usize] as usize] = t;
            fill[s as usize] += 1;
        }
        Csr { offsets, targets }
    }

    pub fn num_vertices(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    pub fn num_edges(&self) -> usize {
        self.targets.len()
    }

    pub fn succ(&self, v: u32) -> &[u32] {
        &self.targets[self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize]
    }

    /// The reversed graph.
    pub fn transpose(&self) -> Csr {
        let n = self.num_vertices();
        let mut edges = Vec::with_capacity(self.num_edges());
        for v in 0..n as u32 {
            for &w in self.succ(v) {
                edges.push((w, v));
            }
        }
        Csr::from_edges(n, &edges)
    }
}

/// Strongly connected components.
#[derive(Clone, Debug)]
pub struct Sccs {
    /// `comp[v]` is the index of `v`'s component.
    pub comp: Vec<u32>,
    /// Components in reverse topological order: every edge goes from a component to one with an
    /// index less than or equal to its own (sinks first), as Tarjan's algorithm emits them.
    pub members: Vec<Vec<u32>>,
}

impl Sccs {
    pub fn len(&self) -> usize {
        self.members.len()
    }
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }
    /// True if component `c` has a cycle (more than one vertex, or a self-loop).
    pub fn is_nontrivial(&self, c: usize, succ: impl Fn(u32) -> bool) -> bool {
        self.members[c].len() > 1 || succ(self.members[c][0])
    }
}

/// Tarjan's SCC algorithm (iterative) over vertices `0..n` with successors given by `succ`.
pub fn tarjan<F, I>(n: usize, mut succ: F) -> Sccs
where
    F: FnMut(u32) -> I,
    I: IntoIterator<Item = u32>,
{
    const UNSEEN: u32 = u32::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut comp = vec![0u32; n];
    let mut members: Vec<Vec<u32>> = Vec::new();
    let mut next = 0u32;
    // Call stack of (vertex, its successor list, position in it).
    let mut call: Vec<(u32, Vec<u32>, usize)> = Vec::new();
    for root in 0..n as u32 {
        if index[root as usize] != UNSEEN {
            continue;
        }
        index[root as usize] = next;
        low[root as usize] = next;
        next += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        call.push((root, succ(root).into_iter().collect(), 0));
        while let Some(frame) = call.last_mut() {
            let v = frame.0;
            if frame.2 < frame.1.len() {
                let w = frame.1[frame.2];
                frame.2 += 1;
                if index[w as usize] == UNSEEN {
                    index[w as usize] = next;
                    low[w as usize] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    let ws: Vec<u32> = succ(w).into_iter().collect();
                    call.push((w, ws, 0));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
                continue;
            }
            call.pop();
            if let Some(parent) = call.last() {
                let p = parent.0 as usize;
                low[p] = low[p].min(low[v as usize]);
            }
            if low[v as usize] == index[v as usize] {
                let c = members.len() as u32;
                let mut m = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w as usize] = false;
                    comp[w as usize] = c;
                    m.push(w);
                    if w == v {
                        break;
                    }
                }
                members.push(m);
            }
        }
    }
    Sccs { comp, members }
}

/// SCCs of a [`Csr`] graph.
pub fn sccs(g: &Csr) -> Sccs {
    tarjan(g.num_vertices(), |v| g.succ(v).iter().copied())
}

/// The vertices reachable from `start` (including it), as a membership vector.
pub fn reachable(g: &Csr, start: &[u32]) -> Vec<bool> {
    let mut seen = vec![false; g.num_vertices()];
    let mut todo: Vec<u32> = Vec::new();
    for &s in start {
        if !seen[s as usize] {
            seen[s as usize] = true;
            todo.push(s);
        }
    }
    while let Some(v) = todo.pop() {
        for &w in g.succ(v) {
            if !seen[w as usize] {
                seen[w as usize] = true;
                todo.push(w);
            }
        }
    }
    seen
}

/// A topological order of the components (sources first) of the condensation.
pub fn topological_components(s: &Sccs) -> Vec<u32> {
    (0..s.len() as u32).rev().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn small_sccs() {
        let g = Csr::from_edges(5, &[(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 3)]);
        let s = sccs(&g);
        assert_eq!(s.len(), 2);
        assert_eq!(s.comp[0], s.comp[2]);
        assert_eq!(s.comp[3], s.comp[4]);
        // Reverse topological: the sink {3,4} comes first.
        assert!(s.comp[3] < s.comp[0]);
    }

    #[test]
    fn long_path_does_not_overflow() {
        let n = 1_000_000u32;
        let edges: Vec<_> = (0..n - 1).map(|i| (i, i + 1)).collect();
        let s = sccs(&Csr::from_edges(n as usize, &edges));
        assert_eq!(s.len(), n as usize);
    }

    proptest! {
        #[test]
        fn scc_matches_mutual_reachability(n in 1usize..12, edges in proptest::collection::vec((0u32..12, 0u32..12), 0..40)) {
            let edges: Vec<_> = edges.into_iter().filter(|&(a, b)| (a as usize) < n && (b as usize) < n).collect();
            let g = Csr::from_edges(n, &edges);
            let s = sccs(&g);
            let reach: Vec<Vec<bool>> = (0..n as u32).map(|v| reachable(&g, &[v])).collect();
            for (a, from_a) in reach.iter().enumerate() {
                for (b, &a_to_b) in from_a.iter().enumerate() {
                    let same = a_to_b && reach[b][a];
                    prop_assert_eq!(same, s.comp[a] == s.comp[b]);
                    if a_to_b { prop_assert!(s.comp[b] <= s.comp[a]); }
                }
            }
        }
    }
}
