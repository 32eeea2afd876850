//! Graph kernels shared by the engines: a compressed sparse row adjacency ([`Csr`]), strongly
//! connected components (iterative Tarjan, so deep graphs cannot overflow the stack), and forward
//! and backward reachability, and immediate dominators ([`immediate_dominators`], module
//! `dominators`), and parity games solved by Zielonka's algorithm ([`zielonka`], module
//! `zielonka`) or by priority promotion ([`priority_promotion`], module `priority_promotion`),
//! sharing one attractor (module `attractor`). Vertices are `0..n` as `u32`.
//! Drawing small graphs (automata) as SVG without GraphViz: [`layered_layout`] (Sugiyama-style
//! layers, barycentre ordering) and [`to_svg`]. Disjoint sets: [`UnionFind`] (module `union_find`).

#![warn(unreachable_pub)]

mod attractor;
mod csr;
mod dominators;
mod parity_game;
mod priority_promotion;
mod reach;
mod sugiyama;
mod svg;
mod tarjan;
mod union_find;
mod zielonka;

pub use csr::Csr;
pub use dominators::immediate_dominators;
pub use parity_game::{normalise_priorities, ParityGame, ParitySolution, Player};
pub use priority_promotion::priority_promotion;
pub use reach::reachable;
pub use sugiyama::{layered_layout, Layout, Sizes};
pub use svg::{placement, to_svg, DrawEdge, DrawNode, Drawing, Placement, Rect};
pub use tarjan::{sccs, tarjan, topological_components, Sccs};
pub use union_find::UnionFind;
pub use zielonka::zielonka;

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
