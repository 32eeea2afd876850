//! Zone-graph reachability with a passed/waiting list: plain exploration (`reach`) or with
//! covering by zone inclusion (`covreach`), in BFS or DFS order.
//!
//! Seed: Bengtsson & Yi, "Timed Automata: Semantics, Algorithms and Tools" (2003), §5.1 (the
//! reachability algorithm with PASSED/WAITING and inclusion checking); Herbreteau, Srivathsan,
//! Walukiewicz, "Better abstractions for timed automata" (LICS 2012) for why inclusion may be
//! tested on extrapolated zones. As TChecker's `covreach`: a new node whose zone is included in a
//! stored node with the same discrete state is dropped; stored nodes whose zones are included in
//! the new one are removed (also from the waiting list). A node is tested against the query when
//! it is taken from the waiting list.

use crate::alu::is_alu_le;
use crate::dbm::Dbm;
use crate::zone_graph::{Discrete, Transition, ZoneGraph};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use verikit_diag::{Budget, Exhausted};

/// Search order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    Bfs,
    Dfs,
}

/// `reach` (no covering: only equal nodes are merged), `covreach` (covering by zone inclusion)
/// or `alu-covreach` (covering by the aLU abstraction of the stored zone, as TChecker's default
/// `covreach`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algo {
    Reach,
    Covreach,
    AluCovreach,
}

/// Statistics named as TChecker's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes taken from the waiting list and expanded.
    pub visited: u64,
    /// Nodes in the passed list at the end.
    pub stored: u64,
    /// Nodes dropped or removed by covering.
    pub covered: u64,
    /// Transitions computed (non-empty successors).
    pub transitions: u64,
    /// Discrete states met.
    pub discrete: u64,
}

/// A node of the search tree (kept after removal, so parent chains stay valid).
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub(crate) discrete: u32,
    pub(crate) zone: Dbm,
    pub(crate) parent: Option<(u32, Transition)>,
    active: bool,
}

/// The outcome of a search.
#[derive(Debug)]
pub(crate) struct Outcome {
    /// A node satisfying the query, with the search tree to trace it back.
    pub(crate) hit: Option<u32>,
    pub(crate) stats: Stats,
    /// Set when the budget ran out (the answer is then unknown unless `hit` is set).
    pub(crate) exhausted: Option<Exhausted>,
    pub(crate) nodes: Vec<Node>,
    pub(crate) discrete: Vec<Discrete>,
    /// A run-time error (UPPAAL semantics of updates): the node whose move failed.
    pub(crate) error_at: Option<u32>,
}

impl Outcome {
    /// The path from an initial node to `node`: the initial discrete state and zone, then
    /// `(transition, discrete state, zone)` per step.
    pub(crate) fn path(&self, node: u32) -> Vec<(Option<Transition>, &Discrete, &Dbm)> {
        let mut out = Vec::new();
        let mut cur = Some(node);
        while let Some(n) = cur {
            let Some(nd) = self.nodes.get(n as usize) else {
                break;
            };
            let Some(d) = self.discrete.get(nd.discrete as usize) else {
                break;
            };
            out.push((nd.parent.as_ref().map(|p| p.1.clone()), d, &nd.zone));
            cur = nd.parent.as_ref().map(|p| p.0);
        }
        out.reverse();
        out
    }
}

/// Explores the zone graph until a node whose locations carry all `labels` is taken from the
/// waiting list (or the graph is exhausted, or the budget runs out). With no labels the whole
/// graph is explored.
struct Store {
    algo: Algo,
    stats: Stats,
    nodes: Vec<Node>,
    discrete: Vec<Discrete>,
    index: FxHashMap<Discrete, u32>,
    passed: Vec<Vec<u32>>,
    waiting: VecDeque<u32>,
}

impl Store {
    /// Inserts a node unless it is covered (or, for `reach`, equal to a stored one).
    fn insert(
        &mut self,
        zg: &ZoneGraph<'_>,
        d: Discrete,
        z: Dbm,
        parent: Option<(u32, Transition)>,
    ) {
        let next_id = self.discrete.len() as u32;
        let did = match self.index.get(&d) {
            Some(&k) => k,
            None => {
                self.index.insert(d.clone(), next_id);
                self.discrete.push(d);
                self.passed.push(Vec::new());
                self.stats.discrete += 1;
                next_id
            }
        };
        let nodes = &mut self.nodes;
        let list = &mut self.passed[did as usize];
        let n = zg.model.processes.len();
        let (l, u) = match self.algo {
            Algo::AluCovreach => zg.cover_bounds(&self.discrete[did as usize][..n]),
            _ => (Vec::new(), Vec::new()),
        };
        let covers = |small: &Dbm, big: &Dbm| match self.algo {
            Algo::AluCovreach => is_alu_le(small, big, &l, &u),
            _ => small.is_subset(big),
        };
        match self.algo {
            Algo::Covreach | Algo::AluCovreach => {
                if list.iter().any(|&k| covers(&z, &nodes[k as usize].zone)) {
                    self.stats.covered += 1;
                    return;
                }
                let before = list.len();
                list.retain(|&k| {
                    let keep = !covers(&nodes[k as usize].zone, &z);
                    if !keep {
                        nodes[k as usize].active = false;
                    }
                    keep
                });
                self.stats.covered += (before - list.len()) as u64;
            }
            Algo::Reach => {
                if list.iter().any(|&k| nodes[k as usize].zone == z) {
                    return;
                }
            }
        }
        let id = nodes.len() as u32;
        nodes.push(Node {
            discrete: did,
            zone: z,
            parent,
            active: true,
        });
        list.push(id);
        self.waiting.push_back(id);
    }
}

/// Explores the zone graph until a node whose locations carry all `labels` is taken from the
/// waiting list (or the graph is exhausted, or the budget runs out). With no labels the whole
/// graph is explored.
pub(crate) fn reach(
    zg: &mut ZoneGraph<'_>,
    labels: &[u32],
    search: Search,
    algo: Algo,
    budget: &Budget,
) -> Outcome {
    let n = zg.model.processes.len();
    let model = zg.model;
    let hit = |_: &ZoneGraph<'_>, d: &Discrete, _: &Dbm| {
        !labels.is_empty()
            && labels.iter().all(|lab| {
                d.iter().take(n).zip(&model.processes).any(|(&l, p)| {
                    p.locations
                        .get(l as usize)
                        .is_some_and(|l| l.labels.contains(lab))
                })
            })
    };
    reach_until(zg, &hit, search, algo, budget)
}

/// A predicate on symbolic states (discrete state and extrapolated zone).
pub(crate) type HitPred<'a> = &'a dyn Fn(&ZoneGraph<'_>, &Discrete, &Dbm) -> bool;

/// Explores the zone graph until a node satisfying `hit` is taken from the waiting list (or the
/// graph is exhausted, or the budget runs out).
pub(crate) fn reach_until(
    zg: &mut ZoneGraph<'_>,
    hit_pred: HitPred<'_>,
    search: Search,
    algo: Algo,
    budget: &Budget,
) -> Outcome {
    let mut st = Store {
        algo,
        stats: Stats::default(),
        nodes: Vec::new(),
        discrete: Vec::new(),
        index: FxHashMap::default(),
        passed: Vec::new(),
        waiting: VecDeque::new(),
    };
    let mut ticker = budget.ticker(256);
    budget.progress().phase("zone graph: nodes visited", None);
    let mut exhausted = None;
    let mut hit = None;
    let mut error_at = None;
    for (d, z) in zg.initial() {
        st.insert(zg, d, z, None);
    }
    let mut trans = Vec::new();
    let mut succs: Vec<(Transition, Discrete, Dbm)> = Vec::new();
    loop {
        let next = match search {
            Search::Bfs => st.waiting.pop_front(),
            Search::Dfs => st.waiting.pop_back(),
        };
        let Some(id) = next else { break };
        let node = &st.nodes[id as usize];
        if !node.active {
            continue;
        }
        if let Err(e) = ticker.tick() {
            exhausted = Some(e);
            break;
        }
        st.stats.visited += 1;
        let d = st.discrete[node.discrete as usize].clone();
        let z = node.zone.clone();
        if hit_pred(zg, &d, &z) {
            hit = Some(id);
            break;
        }
        zg.transitions(&d, &z, &mut trans);
        if zg.overflowed() {
            break;
        }
        succs.clear();
        for t in &trans {
            if let Some((nd, nz)) = zg.successor(&d, &z, t) {
                succs.push((t.clone(), nd, nz));
            }
        }
        st.stats.transitions += succs.len() as u64;
        if zg.runtime_error().is_some() {
            error_at = Some(id);
            break;
        }
        for (t, nd, nz) in succs.drain(..) {
            st.insert(zg, nd, nz, Some((id, t)));
        }
    }
    st.stats.stored = st.passed.iter().map(|l| l.len() as u64).sum();
    if zg.overflowed() {
        // some state's moves were cut short: neither a hit nor exhaustion can be trusted
        hit = None;
        exhausted = Some(Exhausted::Work);
    }
    Outcome {
        hit,
        stats: st.stats,
        exhausted,
        nodes: st.nodes,
        discrete: st.discrete,
        error_at,
    }
}
