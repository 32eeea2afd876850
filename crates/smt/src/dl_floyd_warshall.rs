//! Incremental all-pairs shortest paths for the difference-logic solver on small graphs: the
//! distance matrix of the asserted difference constraints, updated edge by edge (the
//! Floyd–Warshall relaxation `d(x, y) ← min(d(x, y), d(x, u) + w + d(v, y))` restricted to the
//! pairs a new edge `u → v` shortens) and restored from an undo trail on backtracking. It is the
//! constraint-graph engine of `difference_logic.rs` (Cotton & Maler, "Fast and Flexible
//! Difference Constraint Propagation for DPLL(T)", SAT 2006) for graphs of at most a few hundred
//! nodes, behind the DPLL(T) theory interface of Dutertre & de Moura, "A Fast Linear-Arithmetic
//! Solver for DPLL(T)" (CAV 2006, §2). Yices decides small QF_IDL problems with such a matrix;
//! this module follows that engineering choice, not its code.
//!
//! * Consistency: the edge `u → v` of weight `w` closes a negative cycle exactly when
//!   `d(v, u) + w < 0` (one lookup); the cycle is the path `v ⇝ u` plus the edge.
//! * Update: only sources `x` whose distance to `v` the edge shortens (`d(x, u) + w < d(x, v)`)
//!   and targets `y` reachable from `v` can change; every lowered cell is recorded on the trail
//!   with its old value and reported in [`FloydWarshall::changed`], so the theory propagation of
//!   the caller only looks at the atoms of those pairs (an atom `x − y ≤ c` is implied when
//!   `d(x, y) ≤ c`, an O(1) test).
//! * Paths: each finite cell keeps the id of the edge that last lowered it. A cell lowered by
//!   edge `k = (u → v)` is `d(x, u) + w_k + d(v, y)`, and the cells `(x, u)` and `(v, y)` were set
//!   by older edges and cannot change while the cell keeps `k` (lowering one of them strictly
//!   lowers the cell too), so the path is rebuilt recursively from the matrix, with edges older
//!   than `k` only.

/// A weight `c + k·δ`, ordered lexicographically.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub(crate) struct W(pub i64, pub i64);

impl W {
    #[inline]
    pub(crate) fn add(self, o: W) -> W {
        W(self.0 + o.0, self.1 + o.1)
    }
    #[inline]
    pub(crate) fn sub(self, o: W) -> W {
        W(self.0 - o.0, self.1 - o.1)
    }
    #[inline]
    pub(crate) fn is_neg(self) -> bool {
        self < W(0, 0)
    }
}

/// No path (never added to anything).
pub(crate) const INF: W = W(i64::MAX, i64::MAX);
const NONE: u32 = u32::MAX;

/// The distance matrix of the active edges with its undo trail.
#[derive(Default)]
pub(crate) struct FloydWarshall {
    n: usize,
    /// `d(x, y)` at `x · n + y` (`INF`: no path; the diagonal is 0).
    dist: Vec<W>,
    /// The edge that last lowered each cell (`NONE` on the diagonal and where there is no path).
    via: Vec<u32>,
    /// Old values of the lowered cells: (cell, distance, edge).
    trail: Vec<(u32, W, u32)>,
    /// Cells lowered by the last [`FloydWarshall::add_edge`].
    pub changed: Vec<u32>,
    /// Scratch: targets reachable from the new edge's head, with their distances.
    cols: Vec<(u32, W)>,
}

impl FloydWarshall {
    pub(crate) fn new(n: usize) -> FloydWarshall {
        let mut m = FloydWarshall::default();
        m.grow(n);
        m
    }

    pub(crate) fn nodes(&self) -> usize {
        self.n
    }

    /// Adds nodes (without edges) up to `n`; the trail is re-indexed.
    pub(crate) fn grow(&mut self, n: usize) {
        let old = self.n;
        if n <= old {
            return;
        }
        let mut dist = vec![INF; n * n];
        let mut via = vec![NONE; n * n];
        for x in 0..old {
            dist[x * n..x * n + old].copy_from_slice(&self.dist[x * old..(x + 1) * old]);
            via[x * n..x * n + old].copy_from_slice(&self.via[x * old..(x + 1) * old]);
        }
        for x in old..n {
            dist[x * n + x] = W(0, 0);
        }
        for t in &mut self.trail {
            let c = t.0 as usize;
            if let (Some(x), Some(y)) = (c.checked_div(old), c.checked_rem(old)) {
                t.0 = (x * n + y) as u32;
            }
        }
        self.dist = dist;
        self.via = via;
        self.n = n;
    }

    /// Multiplies every finite distance by `f` (the caller rescaled its weights).
    pub(crate) fn rescale(&mut self, f: i64) {
        for d in self
            .dist
            .iter_mut()
            .chain(self.trail.iter_mut().map(|t| &mut t.1))
        {
            if *d != INF {
                d.0 *= f;
            }
        }
    }

    #[inline]
    pub(crate) fn cell(&self, x: u32, y: u32) -> usize {
        x as usize * self.n + y as usize
    }

    /// `d(x, y)` of the cell `x · n + y`.
    #[inline]
    pub(crate) fn dist_at(&self, cell: usize) -> W {
        self.dist[cell]
    }

    /// The endpoints of a cell.
    #[inline]
    pub(crate) fn pair(&self, cell: usize) -> (u32, u32) {
        ((cell / self.n) as u32, (cell % self.n) as u32)
    }

    /// A feasible potential (`π(v) ≤ π(u) + w` on every edge): the distances from a virtual
    /// source with a 0-edge to every node, `π(y) = min(0, min_x d(x, y))`.
    pub(crate) fn potentials(&self) -> Vec<W> {
        let n = self.n;
        let mut pi = vec![W(0, 0); n];
        for x in 0..n {
            for (p, &d) in pi.iter_mut().zip(&self.dist[x * n..(x + 1) * n]) {
                if d < *p {
                    *p = d;
                }
            }
        }
        pi
    }

    /// Current length of the undo trail (restore with [`FloydWarshall::undo`]).
    pub(crate) fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Restores every cell lowered since `mark`.
    pub(crate) fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            if let Some((c, d, e)) = self.trail.pop() {
                self.dist[c as usize] = d;
                self.via[c as usize] = e;
            }
        }
    }

    /// Adds the edge `u → v` of weight `w` with the caller's id `id` (ids must grow while edges
    /// are active: an edge is undone before any older one). `Err`: the edge closes a negative
    /// cycle (nothing changed; the cycle is [`FloydWarshall::path`] `v ⇝ u` plus the edge).
    /// On success [`FloydWarshall::changed`] holds the lowered cells.
    pub(crate) fn add_edge(&mut self, u: u32, v: u32, w: W, id: u32) -> Result<(), ()> {
        self.changed.clear();
        let n = self.n;
        let (uu, vu) = (u as usize, v as usize);
        if self.dist[uu * n + vu] <= w {
            return Ok(());
        }
        let back = self.dist[vu * n + uu];
        if back != INF && back.add(w).is_neg() {
            return Err(());
        }
        self.cols.clear();
        let row_v = &self.dist[vu * n..(vu + 1) * n];
        for (y, &d) in row_v.iter().enumerate() {
            if d != INF {
                self.cols.push((y as u32, d));
            }
        }
        for x in 0..n {
            let dxu = self.dist[x * n + uu];
            if dxu == INF {
                continue;
            }
            let base = dxu.add(w);
            if base >= self.dist[x * n + vu] {
                continue;
            }
            let row = x * n;
            for &(y, dvy) in &self.cols {
                let c = row + y as usize;
                let nd = base.add(dvy);
                let old = self.dist[c];
                if nd < old {
                    self.trail.push((c as u32, old, self.via[c]));
                    self.dist[c] = nd;
                    self.via[c] = id;
                    self.changed.push(c as u32);
                }
            }
        }
        Ok(())
    }

    /// Appends the ids of the edges of a shortest path `x ⇝ y` (in path order); nothing when
    /// `x = y` or there is no path. `ends(id)` gives an edge's endpoints.
    pub(crate) fn path(
        &self,
        x: u32,
        y: u32,
        ends: impl Fn(u32) -> (u32, u32),
        out: &mut Vec<u32>,
    ) {
        // Depth-first over (x, y) pairs; each cell expands to (x, u), edge, (v, y) with strictly
        // older edges, so this terminates. `Err(id)` items are edges to emit.
        let mut stack: Vec<Result<(u32, u32), u32>> = vec![Ok((x, y))];
        let mut budget = 4 * self.n * self.n + 16;
        while let Some(item) = stack.pop() {
            match item {
                Err(id) => out.push(id),
                Ok((a, b)) => {
                    if a == b {
                        continue;
                    }
                    let id = self.via[self.cell(a, b)];
                    if id == NONE || budget == 0 {
                        debug_assert!(false, "no path {a} -> {b}");
                        return;
                    }
                    budget -= 1;
                    let (u, v) = ends(id);
                    stack.push(Ok((v, b)));
                    stack.push(Err(id));
                    stack.push(Ok((a, u)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{FloydWarshall, INF, W};
    use proptest::prelude::*;

    /// Bellman–Ford from every node over `edges`: `None` when there is a negative cycle.
    fn all_pairs(n: usize, edges: &[(u32, u32, W)]) -> Option<Vec<W>> {
        let mut d = vec![INF; n * n];
        for s in 0..n {
            let row = &mut d[s * n..(s + 1) * n];
            row[s] = W(0, 0);
            for _ in 0..n {
                let mut any = false;
                for &(a, b, w) in edges {
                    let da = row[a as usize];
                    if da != INF && da.add(w) < row[b as usize] {
                        row[b as usize] = da.add(w);
                        any = true;
                    }
                }
                if !any {
                    break;
                }
            }
            for &(a, b, w) in edges {
                let da = row[a as usize];
                if da != INF && da.add(w) < row[b as usize] {
                    return None;
                }
            }
        }
        Some(d)
    }

    #[derive(Clone, Debug)]
    enum Op {
        Push,
        Pop,
        Edge(u32, u32, i64, i64),
    }

    fn ops(n: u32) -> impl Strategy<Value = Vec<Op>> {
        let op = prop_oneof![
            1 => Just(Op::Push),
            1 => Just(Op::Pop),
            5 => (0..n, 0..n, -6i64..10, -1i64..1).prop_map(|(a, b, c, k)| Op::Edge(a, b, c, k)),
        ];
        proptest::collection::vec(op, 1..60)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// After every push, pop and edge, the matrix equals Bellman–Ford from scratch on the
        /// active edges, a refused edge closes a negative cycle (and the reported path closes
        /// it), and every rebuilt path is a chain of active edges of exactly the distance.
        #[test]
        fn matrix_equals_bellman_ford_after_push_pop((n, ops) in (2u32..7).prop_flat_map(|n| (Just(n), ops(n)))) {
            let nu = n as usize;
            let mut m = FloydWarshall::new(1);
            m.grow(nu);
            // (edge, endpoints and weight), with the trail marks of the open levels.
            let mut edges: Vec<(u32, u32, W)> = Vec::new();
            let mut levels: Vec<(usize, usize)> = Vec::new();
            for op in ops {
                match op {
                    Op::Push => levels.push((edges.len(), m.mark())),
                    Op::Pop => {
                        if let Some((e, mark)) = levels.pop() {
                            edges.truncate(e);
                            m.undo(mark);
                        }
                    }
                    Op::Edge(a, b, c, k) => {
                        if a == b {
                            continue;
                        }
                        let w = W(c, k);
                        let id = edges.len() as u32;
                        let mut with = edges.clone();
                        with.push((a, b, w));
                        let ends = |i: u32| (edges[i as usize].0, edges[i as usize].1);
                        match m.add_edge(a, b, w, id) {
                            Err(()) => {
                                prop_assert!(all_pairs(nu, &with).is_none());
                                let mut p = Vec::new();
                                m.path(b, a, ends, &mut p);
                                let total = p.iter().fold(w, |s, &i| s.add(edges[i as usize].2));
                                prop_assert!(total.is_neg());
                            }
                            Ok(()) => {
                                prop_assert!(all_pairs(nu, &with).is_some());
                                edges.push((a, b, w));
                            }
                        }
                    }
                }
                let oracle = all_pairs(nu, &edges).expect("active edges are consistent");
                for x in 0..n {
                    for y in 0..n {
                        let c = m.cell(x, y);
                        prop_assert_eq!(m.dist_at(c), oracle[c], "d({}, {})", x, y);
                        if x == y || oracle[c] == INF {
                            continue;
                        }
                        let mut p = Vec::new();
                        m.path(x, y, |i| (edges[i as usize].0, edges[i as usize].1), &mut p);
                        let mut at = x;
                        let mut total = W(0, 0);
                        for &i in &p {
                            let (a, b, w) = edges[i as usize];
                            prop_assert_eq!(a, at);
                            at = b;
                            total = total.add(w);
                        }
                        prop_assert_eq!(at, y);
                        prop_assert_eq!(total, oracle[c]);
                    }
                }
            }
        }
    }

    #[test]
    fn grow_and_rescale_keep_distances() {
        let mut m = FloydWarshall::new(2);
        m.add_edge(0, 1, W(3, 0), 0).unwrap();
        let mark = m.mark();
        m.grow(4);
        m.add_edge(1, 3, W(-1, 1), 1).unwrap();
        assert_eq!(m.dist_at(m.cell(0, 3)), W(2, 1));
        m.rescale(2);
        assert_eq!(m.dist_at(m.cell(0, 3)), W(4, 1));
        m.undo(mark);
        assert_eq!(m.dist_at(m.cell(0, 3)), INF);
        assert_eq!(m.dist_at(m.cell(0, 1)), W(6, 0));
        assert_eq!(m.dist_at(m.cell(2, 2)), W(0, 0));
        assert_eq!(m.add_edge(1, 0, W(-7, 0), 2), Err(()));
        assert_eq!(m.add_edge(1, 0, W(-6, 0), 2), Ok(()));
    }
}
