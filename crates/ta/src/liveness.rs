//! Liveness on the zone graph: the graph itself, built lazily ([`Explorer`]: split along the
//! clock constraints of the formula by `atom_split`, restricted to the nodes a search may use).
//! The searches run on the fly over it: UPPAAL's `E[] φ` (a maximal path staying in φ) by
//! `lasso_dfs`, Büchi emptiness (an accepting cycle) by `couvreur_scc`.
//!
//! Seed: Herbreteau, Srivathsan, Walukiewicz, "Efficient emptiness check for timed Büchi
//! automata" (CAV 2010; FMSD 2012), §2–§3: the zone graph abstracted by a finite, sound
//! abstraction (ExtraLU+, ExtraM: simulations, so every path of the abstract graph — a cycle
//! included — is realised by a concrete run and every run has an abstract path) has an
//! accepting cycle iff the automaton has an accepting run. Subsumption (covering) is *not*
//! sound for cycle detection in general (a node covered by an ancestor does not close a cycle of
//! runs), so this module never covers: nodes are merged only when their discrete state and
//! extrapolated zone are equal. Zeno runs count, as in UPPAAL's and TChecker's liveness
//! checking: no non-Zenoness check is made (the paper's guessing zone graph is not implemented).
//!
//! UPPAAL's semantics of `E[] φ` (Behrmann, David, Larsen, "A Tutorial on UPPAAL", 2004, §2.2 and
//! UPPAAL's help on the query language): some *maximal* path has φ in every state; a path is
//! maximal when it is infinite — a cycle of action transitions, or an unbounded delay in a state
//! whose invariants never stop time — or when it ends in a deadlock (no action transition is ever
//! enabled, whether time can still pass or is blocked by an invariant). So a node of the
//! φ-restricted graph ends a witness if it lies on a cycle, or if some valuation of its zone
//! stays in its piece of φ's clock constraints for all its future delays and is deadlocked
//! (`deadlock`, with ExtraM, whose zones are unions of regions: the test is exact) or lives in a
//! discrete state where time can diverge ([`Explorer::can_stop`]).

use crate::atom_split::{AtomSplit, Piece};
use crate::dbm::Dbm;
use crate::reach::Stats;
use crate::zone_graph::{constrain_move, Discrete, Transition, ZoneGraph};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use verikit_diag::Diagnostic;

/// The reachable abstract zone graph (nodes merged only when equal), split along the clock
/// constraints of the formula (`atom_split`; one piece when it has none).
pub(crate) struct LiveGraph {
    pub(crate) discrete: Vec<Discrete>,
    /// Per node: its discrete state (index into `discrete`) and extrapolated zone.
    pub(crate) nodes: Vec<(u32, Dbm)>,
    /// Per node: the piece of the formula's clock constraints its zone lies in.
    pub(crate) pieces: Vec<Piece>,
    /// Per node: its successors and the moves leading there (an empty move is a delay into the
    /// next piece).
    pub(crate) succ: Vec<Vec<(u32, Transition)>>,
    pub(crate) initial: Vec<u32>,
    pub(crate) stats: Stats,
}

impl LiveGraph {
    pub(crate) fn disc(&self, v: u32) -> &Discrete {
        static EMPTY: Vec<i32> = Vec::new();
        self.nodes
            .get(v as usize)
            .and_then(|(d, _)| self.discrete.get(*d as usize))
            .unwrap_or(&EMPTY)
    }

    pub(crate) fn piece(&self, v: u32) -> Piece {
        self.pieces.get(v as usize).copied().unwrap_or(0)
    }

    /// The move from `a` to its successor `b`.
    pub(crate) fn move_to(&self, a: u32, b: u32) -> Option<&Transition> {
        self.succ
            .get(a as usize)?
            .iter()
            .find(|(t, _)| *t == b)
            .map(|(_, m)| m)
    }
}

/// Builds the split zone graph lazily: the initial nodes at once, then the successors of a node
/// when it is expanded (on the fly, by a lasso or component search).
/// Only nodes whose discrete state and atom truth values (bit `k` for atom `k`) satisfy `keep`
/// are stored.
pub(crate) struct Explorer<'z, 'm, 'a> {
    pub(crate) zg: &'z mut ZoneGraph<'m>,
    pub(crate) split: &'a AtomSplit<'a>,
    keep: &'a dyn Fn(&Discrete, u32) -> bool,
    pub(crate) g: LiveGraph,
    dindex: FxHashMap<Discrete, u32>,
    nindex: FxHashMap<(u32, Dbm), u32>,
    expanded: Vec<bool>,
    trans: Vec<Transition>,
}

impl<'z, 'm, 'a> Explorer<'z, 'm, 'a> {
    /// The explorer with the initial nodes stored.
    pub(crate) fn new(
        zg: &'z mut ZoneGraph<'m>,
        split: &'a AtomSplit<'a>,
        keep: &'a dyn Fn(&Discrete, u32) -> bool,
    ) -> Result<Explorer<'z, 'm, 'a>, Diagnostic> {
        let mut ex = Explorer {
            zg,
            split,
            keep,
            g: LiveGraph {
                discrete: Vec::new(),
                nodes: Vec::new(),
                pieces: Vec::new(),
                succ: Vec::new(),
                initial: Vec::new(),
                stats: Stats::default(),
            },
            dindex: FxHashMap::default(),
            nindex: FxHashMap::default(),
            expanded: Vec::new(),
            trans: Vec::new(),
        };
        let dim = ex.zg.model.dim();
        let ints0 = ex.zg.model.initial_ints();
        for locs in ex.zg.model.initial_locations() {
            let mut d: Discrete = locs.iter().map(|&l| l as i32).collect();
            let mut z = Dbm::zero(dim);
            if !ex.zg.constrain_invariant(&mut z, &d, &ints0) {
                continue;
            }
            d.extend_from_slice(&ints0);
            for (q, part) in ex.entries(&d, &z)? {
                if let Some(id) = ex.insert(&d, q, part)? {
                    ex.g.initial.push(id);
                }
            }
        }
        Ok(ex)
    }

    fn n(&self) -> usize {
        self.zg.model.processes.len()
    }

    /// The parts of `arrival` (valuations entering `d`) in the kept pieces, closed in their piece.
    fn entries(&self, d: &Discrete, arrival: &Dbm) -> Result<Vec<(Piece, Dbm)>, Diagnostic> {
        let n = self.n();
        let ints = d.get(n.min(d.len())..).unwrap_or_default();
        let mut out = Vec::new();
        for (q, mut part) in self.split.pieces_of(arrival, ints)? {
            if !(self.keep)(d, self.split.truth(q)) {
                continue;
            }
            if self.split.close_in_piece(self.zg, d, &mut part, q)? {
                out.push((q, part));
            }
        }
        Ok(out)
    }

    /// Extrapolates the part `z` of piece `q` of `d` (closed in the piece) and stores it; its id.
    fn insert(&mut self, d: &Discrete, q: Piece, mut z: Dbm) -> Result<Option<u32>, Diagnostic> {
        let n = self.n().min(d.len());
        self.zg.extrapolate(&mut z, &d[..n]);
        // a no-op (the piece is a union of regions of the extrapolation's bounds), kept as a guard
        if !self.split.restrict(&mut z, q, &d[n..])? {
            return Ok(None);
        }
        let g = &mut self.g;
        let did = match self.dindex.get(d) {
            Some(&k) => k,
            None => {
                let k = g.discrete.len() as u32;
                self.dindex.insert(d.clone(), k);
                g.discrete.push(d.clone());
                g.stats.discrete += 1;
                k
            }
        };
        let key = (did, z);
        if let Some(&id) = self.nindex.get(&key) {
            return Ok(Some(id));
        }
        let id = g.nodes.len() as u32;
        self.nindex.insert(key.clone(), id);
        g.nodes.push(key);
        g.pieces.push(q);
        g.succ.push(Vec::new());
        g.stats.stored = g.nodes.len() as u64;
        self.expanded.push(false);
        Ok(Some(id))
    }

    /// Computes the successors of node `id` (once): its moves, split along the pieces of their
    /// targets, and its delay edges into the next pieces.
    pub(crate) fn expand(&mut self, id: u32) -> Result<(), Diagnostic> {
        if self.expanded.get(id as usize).is_none_or(|&e| e) {
            return Ok(());
        }
        self.expanded[id as usize] = true;
        self.g.stats.visited += 1;
        let Some((did, z)) = self.g.nodes.get(id as usize).cloned() else {
            return Ok(());
        };
        let piece = self.g.piece(id);
        let d = self.g.discrete[did as usize].clone();
        let n = self.n().min(d.len());
        let src_ints = d[n..].to_vec();
        let mut trans = std::mem::take(&mut self.trans);
        self.zg.transitions(&d, &z, &mut trans);
        let mut out = Vec::new();
        for t in &trans {
            let Some((nd, resets)) = self.zg.discrete_step(&d, t) else {
                continue;
            };
            let mut arrival = z.clone();
            if !constrain_move(&mut arrival, self.zg.model, t, &src_ints) {
                continue;
            }
            for &(x, c) in &resets {
                arrival.reset(x, c as i32);
            }
            let (locs, ints) = nd.split_at(n.min(nd.len()));
            if !self.zg.constrain_invariant(&mut arrival, locs, ints) {
                continue;
            }
            let parts = self.entries(&nd, &arrival)?;
            if !parts.is_empty() {
                self.g.stats.transitions += 1;
            }
            for (q, part) in parts {
                if let Some(to) = self.insert(&nd, q, part)? {
                    out.push((to, t.clone()));
                }
            }
        }
        self.trans = trans;
        for (q, part) in self.split.delay_successors(self.zg, &d, piece, &z)? {
            if !(self.keep)(&d, self.split.truth(q)) {
                continue;
            }
            self.g.stats.transitions += 1;
            if let Some(to) = self.insert(&d, q, part)? {
                out.push((to, Vec::new()));
            }
        }
        self.g.succ[id as usize] = out;
        Ok(())
    }

    /// Can a maximal path end in (or idle forever from) some valuation of node `v`? (Valuations
    /// that stay in the node's piece and are deadlocked, or a state where time diverges.)
    pub(crate) fn can_stop(&self, v: u32) -> Result<bool, Diagnostic> {
        let g = &self.g;
        let Some((did, z)) = g.nodes.get(v as usize) else {
            return Ok(false);
        };
        let Some(d) = g.discrete.get(*did as usize) else {
            return Ok(false);
        };
        Ok(!self.split.stop_set(self.zg, d, g.piece(v), z)?.is_empty())
    }
}

/// A witness: node path from a source to the node where it loops or stops, and the cycle (the
/// nodes after the loop node, ending with it; empty when the path stops).
#[derive(Clone, Debug)]
pub(crate) struct NodeLasso {
    pub(crate) path: Vec<u32>,
    pub(crate) cycle: Vec<u32>,
}

/// The BFS path to `v` read back from the `parent` pointers (first node first).
fn unwind(parent: &[Option<u32>], v: u32) -> Vec<u32> {
    let mut path = vec![v];
    let mut cur = v;
    while let Some(&Some(p)) = parent.get(cur as usize) {
        path.push(p);
        cur = p;
    }
    path.reverse();
    path
}

/// The shortest path of nodes from an initial node to `target` in the whole graph.
pub(crate) fn path_from_initial(g: &LiveGraph, target: u32) -> Option<Vec<u32>> {
    let n = g.nodes.len();
    let mut parent: Vec<Option<u32>> = vec![None; n];
    let mut seen = vec![false; n];
    let mut queue = VecDeque::new();
    for &s in &g.initial {
        if (s as usize) < n && !seen[s as usize] {
            seen[s as usize] = true;
            queue.push_back(s);
        }
    }
    while let Some(v) = queue.pop_front() {
        if v == target {
            return Some(unwind(&parent, v));
        }
        for (w, _) in &g.succ[v as usize] {
            if !seen[*w as usize] {
                seen[*w as usize] = true;
                parent[*w as usize] = Some(v);
                queue.push_back(*w);
            }
        }
    }
    None
}

/// The moves along a node path (`path[0]` → `path[1]` → …).
pub(crate) fn moves_of(g: &LiveGraph, path: &[u32]) -> Option<Vec<Transition>> {
    path.windows(2)
        .map(|w| g.move_to(w[0], w[1]).cloned())
        .collect()
}
