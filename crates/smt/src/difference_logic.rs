//! Difference-logic theory solver for QF_IDL and QF_RDL: the constraint graph of the asserted
//! difference atoms `x − y ≤ c` with incremental negative-cycle detection and theory propagation,
//! after Cotton & Maler, "Fast and Flexible Difference Constraint Propagation for DPLL(T)"
//! (SAT 2006), Sections 3 (consistency by incremental potential maintenance) and 4 (theory
//! propagation along shortest paths). It replaces the simplex of Dutertre & de Moura, "A Fast
//! Linear-Arithmetic Solver for DPLL(T)" (CAV 2006), behind the same DPLL(T) interface (§2) when
//! every atom is a difference atom, as Yices does with its dedicated difference-logic solver.
//!
//! * Atoms are those of `arith.rs` (one per normalised term and bound); a term `x − y` or `x`
//!   (against the zero node) becomes the edge `x → y` with weight `c` for the literal `x − y ≤ c`,
//!   and its negation the edge `y → x` with weight `−c − 1` over the integers or `−c − δ` over the
//!   reals.
//! * Weights are exact machine integers: rational bounds are scaled by the least common multiple
//!   of their denominators, and a weight is the pair `(c, k)` meaning `c + k·δ`, compared
//!   lexicographically (δ an infinitesimal, as in the paper's δ-rationals). Magnitudes are bounded
//!   when atoms are imported (otherwise the caller keeps the simplex) and potentials are
//!   recomputed if they ever drift towards the `i64` range.
//! * Consistency: a potential `π` with `π(x) + w − π(y) ≥ 0` on every edge is kept; a new edge
//!   that violates it is repaired by a Dijkstra-ordered relaxation from its target, each node at
//!   most once; reaching the edge's source is a negative cycle, whose literals are the conflict
//!   (its Farkas certificate has all multipliers 1). Backtracking removes edges only: the
//!   potential stays valid.
//! * Theory propagation: after an edge `u → v` is added, bounded Dijkstra searches over reduced
//!   costs (backwards from `u`, forwards from `v`) find paths `x ⇝ u → v ⇝ y`; an unassigned
//!   literal whose edge `x → y` weighs at least the path is implied, explained by the path's
//!   literals. Literals implied this way add their edge without a new search. Explanations are
//!   lazy: an implication records its path as edge ids, and the literals are built only when the
//!   CDCL core asks (`Theory::explain`, from conflict analysis or clause minimisation).
//! * Parallel edges: an edge no weaker than an active edge of the same pair is not added to the
//!   graph (it implies nothing new), and an edge superseded by a stronger parallel one is skipped
//!   by the searches until that one is backtracked.
//! * Small graphs (at most [`MATRIX_LIMIT`] nodes, the zero node included) replace the
//!   potentials and searches by the incremental all-pairs distance matrix of
//!   `dl_floyd_warshall.rs`: a negative cycle is one lookup `d(v, u) + w < 0`, and propagation
//!   scans the literals of the cells the new edge lowered (`d(x, y) ≤ c` implies `x − y ≤ c`),
//!   after every edge, with the matrix's path as the explanation (recorded when implied). A
//!   graph that grows beyond the limit (new atoms in an incremental script) moves to the
//!   potentials and searches at decision level 0.
//! * Adaptive switch: searches are made after every new edge only while at least 40 % of the
//!   recent conflicts are negative cycles of this solver; below that, on a steeply falling
//!   fraction of the edges (see `Throttle`), as Z3 throttles theory propagation that does not pay.
//! * Models: `x = (π(0) − π(x)) / scale`, with a concrete δ small enough for every asserted edge;
//!   integral weights give integral potentials, so QF_IDL needs no branch and bound.

use crate::arith::Arith;
use crate::dl_floyd_warshall::{FloydWarshall, W};
use num_traits::ToPrimitive;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use verikit_num::Num;
use verikit_sat::{Final, Lit, Theory, Var};

const NONE: u32 = u32::MAX;
/// The zero node (`x ≤ c` is `x − 0 ≤ c`).
const ZERO: u32 = 0;
/// Largest sum of absolute (scaled) bounds accepted: every path weight then fits an `i64` with
/// a wide margin.
const MAX_TOTAL_WEIGHT: i128 = 1 << 40;
/// Largest number of nodes with a pair matrix of strongest edges (16 MiB at most).
const MAX_DENSE_NODES: usize = 2048;
/// Potentials below this trigger a recomputation (they only decrease over a run).
const DRIFT_LIMIT: i64 = -(1 << 61);
/// Largest number of nodes (variables plus the zero node) decided with the all-pairs distance
/// matrix of `dl_floyd_warshall.rs`; larger graphs use the potentials and searches.
pub(crate) const MATRIX_LIMIT: usize = 600;

/// A difference atom `u − v ≤ c` (or `<`): edge `u → v` weight `pos` when true, `v → u` weight
/// `neg` when false.
#[derive(Clone, Copy, Debug)]
struct DAtom {
    u: u32,
    v: u32,
    pos: W,
    neg: W,
}

#[derive(Clone, Copy, Debug)]
struct Adj {
    node: u32,
    w: W,
    id: u32,
}

#[derive(Clone, Copy, Debug)]
struct Edge {
    from: u32,
    to: u32,
    w: W,
    lit: Lit,
    /// In the adjacency lists (false: a parallel edge at least as strong was active).
    in_adj: bool,
    /// The strongest active edge of the same pair before this one (restored on backtracking).
    prev_best: u32,
}

/// Counters shown by `--stats`.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct DlStats {
    /// The difference-logic solver decided the last check (instead of the simplex).
    pub dl_used: bool,
    pub dl_nodes: usize,
    pub dl_edges: u64,
    pub dl_relaxations: u64,
    pub dl_conflicts: u64,
    pub dl_searches: u64,
    pub dl_propagations: u64,
    /// Propagation searches the adaptive switch left out.
    pub dl_skipped: u64,
    /// Implied literals whose explanation the CDCL core asked for.
    pub dl_explained: u64,
    /// Edges not added to the graph because a parallel edge at least as strong was active.
    pub dl_dominated: u64,
    /// The all-pairs distance matrix decided (a small graph), not the potentials and searches.
    pub dl_matrix: bool,
}

/// Why the atoms cannot be decided by the difference-logic solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unsupported {
    /// An atom is not of the form `x − y ⋈ c` or `x ⋈ c`.
    NotDifference,
    /// Integer and real variables are mixed.
    MixedSorts,
    /// Bounds too large for machine integers.
    TooLarge,
}

#[derive(Default)]
pub(crate) struct DiffLogic {
    node_of_var: HashMap<u32, u32>,
    /// Problem variable of every node (`NONE` for the zero node).
    var_of_node: Vec<u32>,
    /// Number of `Arith` atoms imported.
    synced: usize,
    /// Indexed like `Arith::atoms`.
    atoms: Vec<DAtom>,
    atom_of_bvar: Vec<u32>,
    atom_val: Vec<i8>,
    atom_trail: Vec<u32>,
    node_atoms: Vec<Vec<u32>>,
    /// Number of unassigned atoms at each node.
    free_atoms: Vec<u32>,
    edges: Vec<Edge>,
    /// Active edges leaving / entering each node: (other end, weight, edge id).
    out: Vec<Vec<Adj>>,
    /// Per pair of nodes (`from · n + to`, while `n ≤ MAX_DENSE_NODES`): the strongest active
    /// edge. Weaker parallel edges are never added to the adjacency lists, and an edge
    /// superseded by a stronger one is `dead` (skipped by every search) until that one is popped.
    best: Vec<u32>,
    best_n: usize,
    dead: Vec<bool>,
    inc: Vec<Vec<Adj>>,
    pi: Vec<W>,
    /// (edges, atom trail, explanation records, explanation arena, matrix trail) lengths at the
    /// start of each decision level.
    lim: Vec<(usize, usize, usize, usize, usize)>,
    /// Scale of the bounds (common denominator).
    scale: i64,
    sort_int: Option<bool>,
    total_weight: i128,
    /// Edges whose consequences are still to be propagated.
    pending: Vec<u32>,
    /// Literals this solver implied (their edges need no search when asserted).
    implied: Vec<bool>,
    implied_list: Vec<Var>,
    /// Lazy explanations: the path edges of every implied literal (an arena of edge ids), one
    /// `(start, end)` record per implication, and the latest record of each literal.
    expl_edges: Vec<u32>,
    expl_recs: Vec<(u32, u32)>,
    rec_of_lit: Vec<u32>,
    // search scratch
    stamp: Vec<u32>,
    cur_stamp: u32,
    dist: Vec<W>,
    pred: Vec<u32>,
    done: Vec<u32>,
    fwd: Search,
    bwd: Search,
    /// Settled-node limit of each propagation search (0: no propagation).
    pub search_limit: usize,
    /// Adaptive throttle of the propagation searches (see [`Throttle`]).
    throttle: Throttle,
    /// The all-pairs distance matrix deciding consistency and propagation while the graph has
    /// at most `matrix_limit` nodes (`None`: potentials, relaxation and searches). The
    /// adjacency lists, potentials and pair matrix above are not kept while it is on.
    fw: Option<FloydWarshall>,
    matrix_limit: usize,
    /// Per matrix cell `x · n + y` (compressed rows: `fw_lit_start[c]..fw_lit_start[c + 1]` in
    /// `fw_lits`): the literals whose edge is `x → y`, as `atom · 2 + negated`.
    fw_lit_start: Vec<u32>,
    fw_lits: Vec<u32>,
    /// Cells lowered by the edges in `pending` (one range of `fw_cells` per pending edge).
    fw_cells: Vec<u32>,
    fw_ranges: Vec<(u32, u32)>,
    /// Atoms over two variables (not bounds `x ⋈ c`).
    diff_atoms: usize,

    pub stats: DlStats,
}

impl DiffLogic {
    pub(crate) fn new() -> DiffLogic {
        DiffLogic::with_matrix_limit(MATRIX_LIMIT)
    }

    /// A solver that uses the all-pairs matrix up to `limit` nodes (0: never).
    pub(crate) fn with_matrix_limit(limit: usize) -> DiffLogic {
        let mut d = DiffLogic {
            scale: 1,
            search_limit: 1_000_000,
            throttle: Throttle::new(),
            matrix_limit: limit,
            fw: (limit > 0).then(|| FloydWarshall::new(1)),
            ..DiffLogic::default()
        };
        d.add_node(NONE);
        d
    }

    /// Whether some atom relates two variables. With bounds alone the graph is a star around the
    /// zero node: a negative cycle is a pair of contradicting bounds and a propagation a weaker
    /// bound, which the simplex's bound propagation does without a graph (decision 0228).
    pub(crate) fn has_differences(&self) -> bool {
        self.diff_atoms > 0
    }

    /// The node limit of the all-pairs matrix.
    pub(crate) fn matrix_limit(&self) -> usize {
        self.matrix_limit
    }

    /// Uses the all-pairs matrix only up to `limit` nodes (0: never). Lowering the limit below
    /// the current graph moves it to the potentials and searches (at decision level 0); a
    /// solver that left the matrix does not return to it.
    pub(crate) fn set_matrix_limit(&mut self, limit: usize) {
        self.matrix_limit = limit;
        if self.fw.is_some() && (limit == 0 || self.pi.len() > limit) && self.lim.is_empty() {
            self.leave_matrix();
        }
    }

    fn add_node(&mut self, var: u32) -> u32 {
        let n = self.var_of_node.len() as u32;
        self.var_of_node.push(var);
        self.node_atoms.push(Vec::new());
        self.free_atoms.push(0);
        self.out.push(Vec::new());
        self.inc.push(Vec::new());
        self.pi.push(W(0, 0));
        self.stamp.push(0);
        self.dist.push(W(0, 0));
        self.pred.push(NONE);
        self.done.push(0);
        self.fwd.add_node();
        self.bwd.add_node();
        if var != NONE {
            self.node_of_var.insert(var, n);
        }
        self.stats.dl_nodes = self.var_of_node.len();
        n
    }

    fn node(&mut self, var: u32) -> u32 {
        match self.node_of_var.get(&var) {
            Some(&n) => n,
            None => self.add_node(var),
        }
    }

    /// Imports the atoms `arith` created since the last call. Fails (and changes nothing that
    /// matters: the caller then uses the simplex for good) if one is not a difference atom.
    pub(crate) fn sync(&mut self, arith: &Arith) -> Result<(), Unsupported> {
        let new = &arith.atoms[self.synced.min(arith.atoms.len())..];
        if new.is_empty() {
            return Ok(());
        }
        // Shapes, sorts and the new common denominator first.
        let mut shapes = Vec::with_capacity(new.len());
        let mut scale = self.scale as i128;
        for a in new {
            let def = arith
                .defs
                .get(a.x as usize)
                .ok_or(Unsupported::NotDifference)?;
            let one = |c: &Num| *c == Num::ONE;
            let m1 = |c: &Num| *c == Num::int(-1);
            let (p, q) = match def.as_slice() {
                [(p, c)] if one(c) => (*p, NONE),
                [(p, c), (q, d)] if one(c) && m1(d) => (*p, *q),
                [(p, c), (q, d)] if m1(c) && one(d) => (*q, *p),
                _ => return Err(Unsupported::NotDifference),
            };
            let is_int = |v: u32| arith.var_is_int.get(v as usize).copied().unwrap_or(false);
            let int = is_int(p);
            if (q != NONE && is_int(q) != int) || self.sort_int.is_some_and(|s| s != int) {
                return Err(Unsupported::MixedSorts);
            }
            self.sort_int = Some(int);
            if int && (a.strict || !a.bound.is_integer()) {
                return Err(Unsupported::NotDifference);
            }
            let (_, den) = a.bound.parts();
            let den = den.to_i128().ok_or(Unsupported::TooLarge)?;
            scale = num_integer::Integer::lcm(&scale, &den);
            if scale > MAX_TOTAL_WEIGHT {
                return Err(Unsupported::TooLarge);
            }
            shapes.push((p, q));
        }
        // Scaled bounds.
        let mut cs = Vec::with_capacity(new.len());
        let mut total = self.total_weight * (scale / self.scale as i128);
        for a in new {
            let (num, den) = a.bound.parts();
            let num = num.to_i128().ok_or(Unsupported::TooLarge)?;
            let den = den.to_i128().ok_or(Unsupported::TooLarge)?;
            let c = num * (scale / den);
            total += c.abs() + 1;
            if total > MAX_TOTAL_WEIGHT {
                return Err(Unsupported::TooLarge);
            }
            cs.push(c as i64);
        }
        // Commit: rescale what exists, then add the atoms.
        let f = (scale / self.scale as i128) as i64;
        if f != 1 {
            for a in &mut self.atoms {
                a.pos.0 *= f;
                a.neg.0 *= f;
            }
            for e in &mut self.edges {
                e.w.0 *= f;
            }
            for p in &mut self.pi {
                p.0 *= f;
            }
            if let Some(fw) = &mut self.fw {
                fw.rescale(f);
            }
            self.scale = scale as i64;
        }
        self.total_weight = total;
        let int = self.sort_int == Some(true);
        for (i, a) in new.iter().enumerate() {
            let (p, q) = shapes[i];
            let c = cs[i];
            let u = self.node(p);
            let v = if q == NONE { ZERO } else { self.node(q) };
            let (pos, neg) = if int {
                (W(c, 0), W(-c - 1, 0))
            } else if a.strict {
                (W(c, -1), W(-c, 0))
            } else {
                (W(c, 0), W(-c, -1))
            };
            let id = self.atoms.len() as u32;
            self.atoms.push(DAtom { u, v, pos, neg });
            self.atom_val.push(0);
            let b = a.bvar as usize;
            if self.atom_of_bvar.len() <= b {
                self.atom_of_bvar.resize(b + 1, NONE);
                self.implied.resize(2 * (b + 1), false);
                self.rec_of_lit.resize(2 * (b + 1), NONE);
            }
            self.atom_of_bvar[b] = id;
            if q != NONE {
                self.diff_atoms += 1;
            }
            self.node_atoms[u as usize].push(id);
            self.free_atoms[u as usize] += 1;
            if v != u {
                self.node_atoms[v as usize].push(id);
                self.free_atoms[v as usize] += 1;
            }
        }
        self.synced = arith.atoms.len();
        self.sync_matrix();
        Ok(())
    }

    /// After new atoms: grows the matrix to the node count and re-indexes the literals by cell,
    /// or, beyond `matrix_limit` nodes, hands the graph to the potentials and searches (at
    /// decision level 0 only, where atoms are imported).
    fn sync_matrix(&mut self) {
        let n = self.pi.len();
        let Some(fw) = &mut self.fw else { return };
        if n > self.matrix_limit && self.lim.is_empty() {
            self.leave_matrix();
            return;
        }
        fw.grow(n);
        self.stats.dl_matrix = true;
        let n = fw.nodes();
        let mut count = vec![0u32; n * n + 1];
        for a in &self.atoms {
            count[a.u as usize * n + a.v as usize] += 1;
            count[a.v as usize * n + a.u as usize] += 1;
        }
        let mut start = Vec::with_capacity(n * n + 1);
        let mut acc = 0u32;
        for c in &count {
            start.push(acc);
            acc += c;
        }
        let mut fill = start.clone();
        let mut lits = vec![0u32; acc as usize];
        for (i, a) in self.atoms.iter().enumerate() {
            for (c, neg) in [
                (a.u as usize * n + a.v as usize, 0),
                (a.v as usize * n + a.u as usize, 1),
            ] {
                lits[fill[c] as usize] = 2 * i as u32 + neg;
                fill[c] += 1;
            }
        }
        self.fw_lit_start = start;
        self.fw_lits = lits;
    }

    /// Switches from the matrix to the potentials and searches: the active edges (all at
    /// decision level 0) are added again, in order and with the same ids.
    fn leave_matrix(&mut self) {
        self.fw = None;
        self.stats.dl_matrix = false;
        self.fw_lit_start = Vec::new();
        self.fw_lits = Vec::new();
        self.fw_cells.clear();
        self.fw_ranges.clear();
        let old = std::mem::take(&mut self.edges);
        self.dead.clear();
        self.out.iter_mut().for_each(Vec::clear);
        self.inc.iter_mut().for_each(Vec::clear);
        self.best.clear();
        self.best_n = 0;
        self.pi.iter_mut().for_each(|p| *p = W(0, 0));
        for e in old {
            // Consistent (they were accepted), so no cycle; a self-loop was never stored.
            let _ = self.add_edge(e.from, e.to, e.w, e.lit);
        }
        self.pending.clear();
    }

    fn level(&self) -> usize {
        self.lim.len()
    }

    /// Adds the edge of a literal; Err: the literals of a negative cycle.
    fn add_edge(&mut self, from: u32, to: u32, w: W, lit: Lit) -> Result<(), Vec<Lit>> {
        self.stats.dl_edges += 1;
        if from == to {
            return if w.is_neg() { Err(vec![lit]) } else { Ok(()) };
        }
        if self.fw.is_some() {
            return self.add_edge_matrix(from, to, w, lit);
        }
        let (f, t) = (from as usize, to as usize);
        self.sync_best();
        let id = self.edges.len() as u32;
        let pair = if self.best_n > 0 {
            f * self.best_n + t
        } else {
            usize::MAX
        };
        let prev = self.best.get(pair).copied().unwrap_or(NONE);
        if prev != NONE && self.edges[prev as usize].w <= w {
            // Dominated: the potential already satisfies it and it implies nothing new.
            self.stats.dl_dominated += 1;
            if self.push_inactive_edge(from, to, w, lit) {
                // Queued only so the adaptive switch sees every new edge in order; no search.
                self.pending.push(id);
            }
            return Ok(());
        }
        let g0 = self.pi[f].add(w).sub(self.pi[t]);
        if g0.is_neg() {
            self.relax(from, to, w, lit, g0)?;
        }
        self.edges.push(Edge {
            from,
            to,
            w,
            lit,
            in_adj: true,
            prev_best: prev,
        });
        self.dead.push(false);
        if pair != usize::MAX {
            self.best[pair] = id;
            if prev != NONE {
                self.dead[prev as usize] = true;
            }
        }
        self.out[f].push(Adj { node: to, w, id });
        self.inc[t].push(Adj { node: from, w, id });
        if self.wants_propagation(lit) {
            self.pending.push(id);
        }
        Ok(())
    }

    /// Whether the new edge of `lit` is queued for propagation: not when `lit` was itself implied
    /// (its consequences were derived with it) nor when the searches are off.
    fn wants_propagation(&mut self, lit: Lit) -> bool {
        let pl = lit.idx();
        if self.implied.get(pl).copied().unwrap_or(false) {
            self.implied[pl] = false;
            false
        } else {
            self.search_limit > 0
        }
    }

    /// Records an edge kept out of the adjacency lists (dominated, or held by the matrix) and
    /// says whether it is queued for propagation ([`DiffLogic::wants_propagation`]).
    fn push_inactive_edge(&mut self, from: u32, to: u32, w: W, lit: Lit) -> bool {
        self.edges.push(Edge {
            from,
            to,
            w,
            lit,
            in_adj: false,
            prev_best: NONE,
        });
        self.dead.push(true);
        self.wants_propagation(lit)
    }

    /// [`DiffLogic::add_edge`] with the all-pairs matrix: a negative cycle is the new edge plus
    /// the matrix's path back; otherwise the lowered cells are queued for propagation.
    fn add_edge_matrix(&mut self, from: u32, to: u32, w: W, lit: Lit) -> Result<(), Vec<Lit>> {
        let id = self.edges.len() as u32;
        let Some(fw) = &mut self.fw else {
            return Ok(());
        };
        if fw.add_edge(from, to, w, id).is_err() {
            let mut ids = Vec::new();
            let edges = &self.edges;
            fw.path(
                to,
                from,
                |i| {
                    let e = &edges[i as usize];
                    (e.from, e.to)
                },
                &mut ids,
            );
            let mut cyc = Vec::with_capacity(ids.len() + 1);
            cyc.push(lit);
            cyc.extend(ids.iter().map(|&i| edges[i as usize].lit));
            self.stats.dl_conflicts += 1;
            self.throttle.theory_conflict = true;
            return Err(cyc);
        }
        let lowered = fw.changed.len();
        if lowered == 0 {
            self.stats.dl_dominated += 1;
        }
        self.stats.dl_relaxations += lowered as u64;
        if self.push_inactive_edge(from, to, w, lit) {
            let start = self.fw_cells.len() as u32;
            if let Some(fw) = &self.fw {
                self.fw_cells.extend_from_slice(&fw.changed);
            }
            self.pending.push(id);
            self.fw_ranges.push((start, self.fw_cells.len() as u32));
        }
        Ok(())
    }

    /// Theory propagation with the matrix after an edge lowered the cells `fw_cells[s..e]`: an
    /// unassigned literal whose edge `x → y` weighs at least `d(x, y)` is implied, explained by
    /// the matrix's path `x ⇝ y` (recorded now: the cells may change before it is asked for).
    fn propagate_cells(&mut self, s: usize, e: usize, arith: &mut Arith, out: &mut Vec<Lit>) {
        self.stats.dl_searches += 1;
        // Taken out for the loop (and put back after it) so that the propagations can be recorded
        // through `&mut self`.
        let Some(fw) = self.fw.take() else { return };
        for i in s..e {
            let c = self.fw_cells[i] as usize;
            let (ls, le) = (
                self.fw_lit_start[c] as usize,
                self.fw_lit_start[c + 1] as usize,
            );
            if ls == le {
                continue;
            }
            let d = fw.dist_at(c);
            for k in ls..le {
                let tag = self.fw_lits[k];
                let a = (tag >> 1) as usize;
                if self.atom_val[a] != 0 {
                    continue;
                }
                let neg = tag & 1 == 1;
                let at = self.atoms[a];
                if d > if neg { at.neg } else { at.pos } {
                    continue;
                }
                let bvar = arith.atoms[a].bvar;
                let l = Lit::new(bvar, neg);
                if self.implied.get(l.idx()).copied().unwrap_or(true) {
                    continue;
                }
                let start = self.expl_edges.len() as u32;
                let (x, y) = fw.pair(c);
                let edges = &self.edges;
                fw.path(
                    x,
                    y,
                    |i| {
                        let e = &edges[i as usize];
                        (e.from, e.to)
                    },
                    &mut self.expl_edges,
                );
                self.record_implied(l, bvar, start, arith, out);
            }
        }
        self.fw = Some(fw);
    }

    /// Records `l` (of the Boolean variable `bvar`) as implied, explained by the path pushed on
    /// `expl_edges` from `start`: its explanation record, the checker's certificate (the path's
    /// literals and `¬l` form a negative cycle), and the propagation itself.
    fn record_implied(
        &mut self,
        l: Lit,
        bvar: Var,
        start: u32,
        arith: &mut Arith,
        out: &mut Vec<Lit>,
    ) {
        self.rec_of_lit[l.idx()] = self.expl_recs.len() as u32;
        self.expl_recs.push((start, self.expl_edges.len() as u32));
        if arith.checker.is_some() {
            let mut cert: Vec<(Lit, Num)> =
                self.explain(l).into_iter().map(|l| (l, Num::ONE)).collect();
            cert.push((!l, Num::ONE));
            arith.certify(&cert);
        }
        self.implied[l.idx()] = true;
        self.implied_list.push(bvar);
        self.stats.dl_propagations += 1;
        out.push(l);
    }

    /// Rebuilds the pair matrix when nodes were added since it was built (or drops it beyond
    /// `MAX_DENSE_NODES`).
    fn sync_best(&mut self) {
        let n = self.pi.len();
        if n == self.best_n || (self.best_n == 0 && n > MAX_DENSE_NODES) {
            return;
        }
        self.best_n = if n > MAX_DENSE_NODES { 0 } else { n };
        self.best.clear();
        self.best.resize(self.best_n * self.best_n, NONE);
        // Replay the active edges in stack order: each adjacency edge was the strongest of
        // its pair when added.
        for (id, e) in self.edges.iter_mut().enumerate() {
            if !e.in_adj {
                continue;
            }
            if self.best_n == 0 {
                e.prev_best = NONE;
                self.dead[id] = false;
                continue;
            }
            let pair = e.from as usize * self.best_n + e.to as usize;
            e.prev_best = self.best[pair];
            self.best[pair] = id as u32;
        }
        if self.best_n == 0 {
            return;
        }
        for id in 0..self.edges.len() {
            let e = self.edges[id];
            self.dead[id] =
                !e.in_adj || self.best[e.from as usize * self.best_n + e.to as usize] != id as u32;
        }
    }

    fn next_stamp(&mut self) -> u32 {
        self.cur_stamp = self.cur_stamp.wrapping_add(1);
        if self.cur_stamp == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.done.iter_mut().for_each(|s| *s = 0);
            self.fwd.clear_stamps();
            self.bwd.clear_stamps();
            self.cur_stamp = 1;
        }
        self.cur_stamp
    }

    /// Cotton–Maler relaxation after the edge `from → to` (weight `w`, not yet in the graph)
    /// violates the potential by `g0 < 0`.
    fn relax(&mut self, from: u32, to: u32, w: W, lit: Lit, g0: W) -> Result<(), Vec<Lit>> {
        let st = self.next_stamp();
        // γ values in `dist` (labelled when `stamp == st`); `done == st` marks settled nodes.
        let mut changed: Vec<(u32, W)> = Vec::new();
        let mut heap: BinaryHeap<Reverse<(W, u32)>> = BinaryHeap::new();
        self.stamp[to as usize] = st;
        self.dist[to as usize] = g0;
        self.pred[to as usize] = NONE;
        heap.push(Reverse((g0, to)));
        let mut drift = false;
        while let Some(Reverse((g, s))) = heap.pop() {
            let su = s as usize;
            if self.done[su] == st || self.dist[su] != g {
                continue;
            }
            self.done[su] = st;
            let np = self.pi[su].add(g);
            changed.push((s, self.pi[su]));
            self.pi[su] = np;
            if np.0 < DRIFT_LIMIT {
                drift = true;
            }
            self.stats.dl_relaxations += 1;
            for k in 0..self.out[su].len() {
                let a = self.out[su][k];
                let e = self.edges[a.id as usize];
                let tu = e.to as usize;
                if self.done[tu] == st {
                    continue;
                }
                let ng = np.add(e.w).sub(self.pi[tu]);
                if !ng.is_neg() {
                    continue;
                }
                if e.to == from {
                    // Negative cycle: from → to ⇝ s → from.
                    let mut cyc = vec![lit, e.lit];
                    let mut x = s;
                    while x != to {
                        let pe = self.edges[self.pred[x as usize] as usize];
                        cyc.push(pe.lit);
                        x = pe.from;
                    }
                    for (n, old) in changed.into_iter().rev() {
                        self.pi[n as usize] = old;
                    }
                    self.stats.dl_conflicts += 1;
                    self.throttle.theory_conflict = true;
                    return Err(cyc);
                }
                if self.stamp[tu] != st || ng < self.dist[tu] {
                    self.stamp[tu] = st;
                    self.dist[tu] = ng;
                    self.pred[tu] = a.id;
                    heap.push(Reverse((ng, e.to)));
                }
            }
        }
        if drift {
            self.recompute_potentials(from, to, w);
        }
        Ok(())
    }

    /// Recomputes a feasible potential from scratch (Bellman–Ford from a virtual source) for the
    /// active edges plus `from → to` (weight `w`): values are then bounded by the weights.
    fn recompute_potentials(&mut self, from: u32, to: u32, w: W) {
        let n = self.pi.len();
        let mut p = vec![W(0, 0); n];
        let mut all: Vec<(u32, u32, W)> = self.edges.iter().map(|e| (e.from, e.to, e.w)).collect();
        all.push((from, to, w));
        for _ in 0..n {
            let mut any = false;
            for &(a, b, w) in &all {
                let c = p[a as usize].add(w);
                if c < p[b as usize] {
                    p[b as usize] = c;
                    any = true;
                }
            }
            if !any {
                break;
            }
        }
        self.pi = p;
    }

    /// Theory propagation around the new edge `id` (`u → v`): a Dijkstra search forwards from
    /// `u` and one backwards from `v` over reduced costs, each keeping only the nodes whose
    /// shortest path uses the new edge (ties go to paths without it), as Cotton & Maler restrict
    /// propagation to the nodes the edge is relevant to. An unassigned literal whose edge `x → y`
    /// weighs at least the path `x ⇝ u → v ⇝ y` is implied, explained by the path.
    fn propagate_edge(&mut self, id: u32, arith: &mut Arith, out: &mut Vec<Lit>) {
        let e = self.edges[id as usize];
        self.stats.dl_searches += 1;
        let st = self.next_stamp();
        let limit = self.search_limit;
        self.fwd
            .run(st, e.from, id, &self.out, &self.dead, &self.pi, true, limit);
        if !self
            .fwd
            .reached
            .iter()
            .any(|&y| self.free_atoms[y as usize] > 0)
        {
            return;
        }
        self.bwd
            .run(st, e.to, id, &self.inc, &self.dead, &self.pi, false, limit);
        let (pu, pv) = (self.pi[e.from as usize], self.pi[e.to as usize]);
        for fi in 0..self.fwd.reached.len() {
            let y = self.fwd.reached[fi];
            let yu = y as usize;
            if self.free_atoms[yu] == 0 {
                continue;
            }
            // true distance u ⇝ y (through the new edge)
            let dy = self.fwd.dist[yu].sub(pu).add(self.pi[yu]);
            for k in 0..self.node_atoms[yu].len() {
                let a = self.node_atoms[yu][k];
                if self.atom_val[a as usize] != 0 {
                    continue;
                }
                let at = self.atoms[a as usize];
                // positive literal: edge at.u → at.v; negative: at.v → at.u.
                let c1 = (at.v == y).then_some((at.u, at.pos, true));
                let c2 = (at.u == y).then_some((at.v, at.neg, false));
                for (x, c, positive) in c1.into_iter().chain(c2) {
                    let xu = x as usize;
                    if !self.bwd.is_reached(st, xu) {
                        continue;
                    }
                    // true distance x ⇝ v (through the new edge), then the path x ⇝ y
                    let dx = self.bwd.dist[xu].sub(self.pi[xu]).add(pv);
                    if dx.add(dy).sub(e.w) > c {
                        continue;
                    }
                    let bvar = arith.atoms[a as usize].bvar;
                    let l = Lit::new(bvar, !positive);
                    if self.implied.get(l.idx()).copied().unwrap_or(true) {
                        continue;
                    }
                    // The path's edges (all older than `l`), turned into literals only if the
                    // CDCL core asks for the explanation.
                    let start = self.expl_edges.len() as u32;
                    self.expl_edges.push(id);
                    let mut z = y;
                    while z != e.to {
                        let pid = self.fwd.pred[z as usize];
                        self.expl_edges.push(pid);
                        z = self.edges[pid as usize].from;
                    }
                    let mut z = x;
                    while z != e.from {
                        let pid = self.bwd.pred[z as usize];
                        self.expl_edges.push(pid);
                        z = self.edges[pid as usize].to;
                    }
                    self.record_implied(l, bvar, start, arith, out);
                }
            }
        }
    }

    /// The explanation of a literal this solver implied (the literals of its path), from the
    /// latest record of the literal: empty if there is none.
    fn explain(&self, l: Lit) -> Vec<Lit> {
        let r = match self.rec_of_lit.get(l.idx()) {
            Some(&r) if r != NONE => r as usize,
            _ => return Vec::new(),
        };
        let (a, b) = match self.expl_recs.get(r) {
            Some(&(a, b)) => (a as usize, b as usize),
            None => return Vec::new(),
        };
        self.expl_edges[a..b]
            .iter()
            .map(|&id| self.edges[id as usize].lit)
            .collect()
    }

    /// Values of the problem variables under the current potentials (call with the model's
    /// edges still asserted). Variables not in the graph are 0.
    pub(crate) fn model(&self, num_vars: usize) -> Vec<Num> {
        // δ: every asserted edge x → y needs (π(y) − π(x)) ≤ w numerically.
        let matrix_pi;
        let pi: &[W] = match &self.fw {
            Some(fw) => {
                let mut p = fw.potentials();
                p.resize(self.pi.len(), W(0, 0));
                matrix_pi = p;
                &matrix_pi
            }
            None => &self.pi,
        };
        let mut delta = Num::ONE;
        for e in &self.edges {
            let diff = e.w.sub(pi[e.to as usize].sub(pi[e.from as usize]));
            if diff.0 > 0 && diff.1 < 0 {
                let d = Num::int(diff.0).div(&Num::int(-diff.1));
                if d < delta {
                    delta = d;
                }
            }
        }
        let scale = Num::int(self.scale);
        let z = pi[ZERO as usize];
        let mut m = vec![Num::ZERO; num_vars];
        for (n, &var) in self.var_of_node.iter().enumerate() {
            if var == NONE || var as usize >= num_vars {
                continue;
            }
            let d = z.sub(pi[n]);
            let v = Num::int(d.0).add(&Num::int(d.1).mul(&delta)).div(&scale);
            m[var as usize] = v;
        }
        m
    }
}

/// Adaptive switch for the propagation searches, in the spirit of Z3's proportional theory
/// propagation: a search pays when the theory, not the Boolean structure, drives the conflicts.
/// `share` is the fraction of conflicts (backjumps) so far that were negative cycles found by this
/// solver. During the first [`Throttle::WARMUP`] conflicts, and whenever `share ≥ R0`, every new
/// edge gets a search; below `R0` only a fraction `(share / R0)^P` of them does (a credit counter
/// makes this deterministic). Scheduling problems (jobshop: 55–60 % theory conflicts with every
/// search made; super_queen: 85 %) keep searching after every edge, while lpsat (7 % with every
/// search, 20–25 % once throttled) searches after about one edge in a hundred. The feedback
/// corrects itself: fewer searches let more negative cycles through, which raises `share`.
struct Throttle {
    /// Moving average of "the conflict was a negative cycle" over the last ~64 conflicts.
    share: f64,
    /// The conflict being analysed is a negative cycle of this solver.
    theory_conflict: bool,
    credit: f64,
}

impl Throttle {
    const ALPHA: f64 = 1.0 / 64.0;
    const R0: f64 = 0.4;
    const P: i32 = 8;

    fn new() -> Throttle {
        Throttle {
            share: 1.0,
            theory_conflict: false,
            credit: 0.0,
        }
    }

    /// A backjump (after a conflict).
    fn backjump(&mut self) {
        let x = if self.theory_conflict { 1.0 } else { 0.0 };
        self.share += Self::ALPHA * (x - self.share);
        self.theory_conflict = false;
    }

    /// Whether the next new edge gets a propagation search.
    fn search(&mut self) -> bool {
        let share = self.share;
        if share >= Self::R0 {
            return true;
        }
        self.credit += (share / Self::R0).powi(Self::P);
        if self.credit >= 1.0 {
            self.credit -= 1.0;
            true
        } else {
            false
        }
    }
}

impl Default for Throttle {
    fn default() -> Throttle {
        Throttle::new()
    }
}

/// One Dijkstra search of theory propagation over reduced costs, keeping the nodes whose
/// shortest path from the source starts with (forwards) or ends with (backwards) a given edge.
#[derive(Default)]
struct Search {
    label: Vec<u32>,
    done: Vec<u32>,
    dist: Vec<W>,
    pred: Vec<u32>,
    via: Vec<bool>,
    /// Settled nodes whose shortest path uses the edge.
    reached: Vec<u32>,
    /// Indexed binary min-heap of the labelled, unsettled nodes by `(dist, via, node)`, with
    /// each node's position (`NONE`: not in the heap): a label that improves moves its node up
    /// instead of adding a second entry.
    heap: Vec<u32>,
    hpos: Vec<u32>,
}

impl Search {
    fn add_node(&mut self) {
        self.label.push(0);
        self.done.push(0);
        self.dist.push(W(0, 0));
        self.pred.push(NONE);
        self.via.push(false);
        self.hpos.push(NONE);
    }
    fn clear_stamps(&mut self) {
        self.label.iter_mut().for_each(|s| *s = 0);
        self.done.iter_mut().for_each(|s| *s = 0);
    }
    fn is_reached(&self, st: u32, x: usize) -> bool {
        self.done[x] == st && self.via[x]
    }

    #[inline]
    fn less(&self, a: u32, b: u32) -> bool {
        let (au, bu) = (a as usize, b as usize);
        (self.dist[au], self.via[au], a) < (self.dist[bu], self.via[bu], b)
    }

    fn sift_up(&mut self, mut i: usize) {
        let n = self.heap[i];
        while i > 0 {
            let p = (i - 1) / 2;
            let pn = self.heap[p];
            if !self.less(n, pn) {
                break;
            }
            self.heap[i] = pn;
            self.hpos[pn as usize] = i as u32;
            i = p;
        }
        self.heap[i] = n;
        self.hpos[n as usize] = i as u32;
    }

    /// Inserts `n` or, when it is already in the heap, restores the order after its key
    /// decreased.
    fn push_or_decrease(&mut self, n: u32) {
        let i = match self.hpos[n as usize] {
            NONE => {
                self.heap.push(n);
                self.heap.len() - 1
            }
            p => p as usize,
        };
        self.sift_up(i);
    }

    fn pop_min(&mut self) -> Option<u32> {
        let top = *self.heap.first()?;
        self.hpos[top as usize] = NONE;
        let last = self.heap.pop()?;
        if self.heap.is_empty() {
            return Some(top);
        }
        let len = self.heap.len();
        let mut i = 0;
        loop {
            let l = 2 * i + 1;
            if l >= len {
                break;
            }
            let r = l + 1;
            let c = if r < len && self.less(self.heap[r], self.heap[l]) {
                r
            } else {
                l
            };
            let cn = self.heap[c];
            if !self.less(cn, last) {
                break;
            }
            self.heap[i] = cn;
            self.hpos[cn as usize] = i as u32;
            i = c;
        }
        self.heap[i] = last;
        self.hpos[last as usize] = i as u32;
        Some(top)
    }

    /// Searches from `src` along `adj` (out-edges when `forward`, in-edges otherwise), with the
    /// edge `via_edge` marking paths through it; stops when no labelled node's path uses it or
    /// `limit` nodes using it are settled.
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        st: u32,
        src: u32,
        via_edge: u32,
        adj: &[Vec<Adj>],
        dead: &[bool],
        pi: &[W],
        forward: bool,
        limit: usize,
    ) {
        self.reached.clear();
        // Nodes left in the heap by the previous search (it may stop early).
        for &n in &self.heap {
            self.hpos[n as usize] = NONE;
        }
        self.heap.clear();
        let s0 = src as usize;
        self.label[s0] = st;
        self.dist[s0] = W(0, 0);
        self.via[s0] = false;
        self.pred[s0] = NONE;
        self.push_or_decrease(src);
        let mut open_via = 0usize;
        let mut settled = 0usize;
        while let Some(s) = self.pop_min() {
            let su = s as usize;
            let (d, v) = (self.dist[su], self.via[su]);
            self.done[su] = st;
            settled += 1;
            if v {
                open_via -= 1;
                self.reached.push(s);
            }
            if settled >= limit {
                break;
            }
            let ps = pi[su];
            for a in &adj[su] {
                let (t, eid) = (a.node, a.id);
                if dead[eid as usize] {
                    continue;
                }
                let tu = t as usize;
                if self.done[tu] == st {
                    continue;
                }
                let rc = if forward {
                    ps.add(a.w).sub(pi[tu])
                } else {
                    pi[tu].add(a.w).sub(ps)
                };
                let nd = d.add(rc);
                let nv = v || eid == via_edge;
                let labelled = self.label[tu] == st;
                if !labelled || (nd, nv) < (self.dist[tu], self.via[tu]) {
                    if labelled && self.via[tu] {
                        open_via -= 1;
                    }
                    if nv {
                        open_via += 1;
                    }
                    self.label[tu] = st;
                    self.dist[tu] = nd;
                    self.via[tu] = nv;
                    self.pred[tu] = eid;
                    self.push_or_decrease(t);
                }
            }
            if open_via == 0 {
                break;
            }
        }
    }
}

/// The difference-logic solver as the theory of the CDCL core. Literals fixed at decision level 0
/// are also given to `arith`, so the simplex can take over (with the same root facts) if a later
/// check brings a non-difference atom.
pub(crate) struct DlTheory<'a> {
    pub dl: &'a mut DiffLogic,
    pub arith: &'a mut Arith,
}

impl Theory for DlTheory<'_> {
    fn assert_lit(&mut self, lit: Lit) -> Result<(), Vec<Lit>> {
        let dl = &mut *self.dl;
        let a = match dl.atom_of_bvar.get(lit.var() as usize) {
            Some(&a) if a != NONE => a,
            _ => return Ok(()),
        };
        if dl.level() == 0 {
            let _ = self.arith.assert_lit(lit);
        }
        if dl.atom_val[a as usize] != 0 {
            return Ok(());
        }
        dl.atom_val[a as usize] = if lit.is_neg() { -1 } else { 1 };

        dl.atom_trail.push(a);
        let at = dl.atoms[a as usize];
        dl.free_atoms[at.u as usize] -= 1;
        if at.v != at.u {
            dl.free_atoms[at.v as usize] -= 1;
        }
        let r = if lit.is_neg() {
            dl.add_edge(at.v, at.u, at.neg, lit)
        } else {
            dl.add_edge(at.u, at.v, at.pos, lit)
        };
        if let Err(c) = &r {
            if self.arith.checker.is_some() {
                let cert: Vec<(Lit, Num)> = c.iter().map(|&l| (l, Num::ONE)).collect();
                self.arith.certify(&cert);
            }
        }
        r
    }

    fn propagate(&mut self, _out: &mut Vec<(Lit, Vec<Lit>)>) {}

    fn propagate_lazy(&mut self, out: &mut Vec<Lit>) {
        let pending = std::mem::take(&mut self.dl.pending);
        if self.dl.fw.is_some() {
            // Propagation with the matrix is a scan of the lowered cells' literals, cheap enough
            // to make after every edge: the adaptive switch only throttles the searches.
            let ranges = std::mem::take(&mut self.dl.fw_ranges);
            for &(s, e) in &ranges {
                self.dl
                    .propagate_cells(s as usize, e as usize, self.arith, out);
            }
            let mut ranges = ranges;
            ranges.clear();
            self.dl.fw_ranges = ranges;
            self.dl.fw_cells.clear();
            let mut pending = pending;
            pending.clear();
            self.dl.pending = pending;
            return;
        }
        for &id in &pending {
            if self.dl.throttle.search() {
                if !self.dl.edges[id as usize].in_adj {
                    continue;
                }
                self.dl.propagate_edge(id, self.arith, out);
            } else {
                self.dl.stats.dl_skipped += 1;
            }
        }
        let mut pending = pending;
        pending.clear();
        self.dl.pending = pending;
    }

    fn explain(&mut self, lit: Lit) -> Vec<Lit> {
        self.dl.stats.dl_explained += 1;
        self.dl.explain(lit)
    }

    fn check(&mut self) -> Result<(), Vec<Lit>> {
        Ok(())
    }

    fn final_check(&mut self, _num_vars: u32) -> Final {
        Final::Sat
    }

    fn push_level(&mut self) {
        let dl = &mut *self.dl;
        let mark = dl.fw.as_ref().map_or(0, FloydWarshall::mark);
        dl.lim.push((
            dl.edges.len(),
            dl.atom_trail.len(),
            dl.expl_recs.len(),
            dl.expl_edges.len(),
            mark,
        ));
    }

    fn pop_levels(&mut self, n: u32) {
        let dl = &mut *self.dl;
        dl.throttle.backjump();
        let keep = dl.lim.len().saturating_sub(n as usize);
        let (elen, alen, rlen, xlen, mark) = dl.lim.get(keep).copied().unwrap_or((0, 0, 0, 0, 0));
        dl.lim.truncate(keep);
        if let Some(fw) = &mut dl.fw {
            fw.undo(mark);
        }
        dl.fw_cells.clear();
        dl.fw_ranges.clear();
        dl.expl_recs.truncate(rlen);
        dl.expl_edges.truncate(xlen);
        while dl.edges.len() > elen {
            if let Some(e) = dl.edges.pop() {
                dl.dead.pop();
                if e.in_adj {
                    dl.out[e.from as usize].pop();
                    dl.inc[e.to as usize].pop();
                    if dl.best_n > 0 {
                        let pair = e.from as usize * dl.best_n + e.to as usize;
                        dl.best[pair] = e.prev_best;
                        if e.prev_best != NONE {
                            dl.dead[e.prev_best as usize] = false;
                        }
                    }
                }
            }
        }
        while dl.atom_trail.len() > alen {
            if let Some(a) = dl.atom_trail.pop() {
                dl.atom_val[a as usize] = 0;
                let at = dl.atoms[a as usize];
                dl.free_atoms[at.u as usize] += 1;
                if at.v != at.u {
                    dl.free_atoms[at.v as usize] += 1;
                }
            }
        }
        dl.pending.clear();
        for v in dl.implied_list.drain(..) {
            let p = Lit::pos(v).idx();
            dl.implied[p] = false;
            dl.implied[p + 1] = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Throttle, W};
    use crate::{run_script, RunOptions};

    fn run(s: &str) -> crate::ScriptOutput {
        run_script(
            s,
            RunOptions {
                check: true,
                ..Default::default()
            },
        )
    }

    #[test]
    fn throttle_follows_the_share_of_theory_conflicts() {
        let mut t = Throttle::new();
        // No conflict yet: every edge is searched.
        assert!((0..100).all(|_| t.search()));
        // Boolean conflicts only: the share decays below R0 and searches become rare.
        for _ in 0..400 {
            t.backjump();
        }
        let n = (0..10_000).filter(|_| t.search()).count();
        assert!(n < 10, "{n} searches");
        // Theory conflicts again: every edge is searched.
        for _ in 0..400 {
            t.theory_conflict = true;
            t.backjump();
        }
        assert!((0..100).all(|_| t.search()));
        // A quarter of theory conflicts: a few percent of the edges.
        let mut t = Throttle::new();
        for i in 0..2000 {
            t.theory_conflict = i % 4 == 0;
            t.backjump();
        }
        let n = (0..10_000).filter(|_| t.search()).count();
        assert!((1..2_000).contains(&n), "{n} searches");
    }

    #[test]
    fn weights_are_lexicographic() {
        assert!(W(1, -1) < W(1, 0));
        assert!(W(0, 5) < W(1, -100));
        assert!(W(0, -1).is_neg() && !W(0, 0).is_neg() && W(-1, 7).is_neg());
    }

    #[test]
    fn path_implies_atom_and_cycle_is_conflict() {
        // x − y ≤ 1 and y − z ≤ 1 imply x − z ≤ 2 (propagated, with a checked certificate);
        // then x − z ≥ 3 closes a negative cycle.
        let out = run(
            "(set-logic QF_IDL)(declare-fun x () Int)(declare-fun y () Int)
             (declare-fun z () Int)(declare-fun b () Bool)
             (assert (<= (- x y) 1))(assert (<= (- y z) 1))
             (assert (or (not (<= (- x z) 2)) b))(check-sat)
             (assert (>= (- x z) 3))(check-sat)",
        );
        assert_eq!(out.responses, vec!["sat", "unsat"]);
        let s = &out.stats.dl;
        assert!(s.dl_used && s.dl_propagations >= 1, "{s:?}");
        for c in &out.checks {
            assert!(c.certificate_failures.is_empty());
        }
        assert!(out.checks[0].certificates_checked > 0);
    }

    #[test]
    fn real_bounds_are_scaled_exactly() {
        // x ≤ 1/3, y − x ≥ 1/6, y ≤ 1/2: only y − x = 1/6 with x = 1/3, y = 1/2 fits.
        let out = run(
            "(set-logic QF_RDL)(declare-fun x () Real)(declare-fun y () Real)
             (assert (<= x (/ 1 3)))(assert (>= (- y x) (/ 1 6)))(assert (<= y (/ 1 2)))
             (assert (>= x (/ 1 3)))(check-sat)(get-value (x y))
             (assert (> (- y x) (/ 1 6)))(check-sat)",
        );
        assert_eq!(out.responses[0], "sat");
        assert_eq!(out.responses[1], "((x (/ 1.0 3.0)) (y (/ 1.0 2.0)))");
        assert_eq!(out.responses[2], "unsat");
        assert_eq!(out.checks[0].model_valid, Some(true));
    }
}
