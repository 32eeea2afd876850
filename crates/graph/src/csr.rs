//! Compressed sparse row adjacency, the graph representation the kernels share.

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
