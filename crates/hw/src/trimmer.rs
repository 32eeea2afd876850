//! Trimmer: small unsatisfiable cores with dominators (Gershman, Koifman, Strichman, CAV 2006,
//! C13).
//!
//! - §2, Def. 1–2: the proof is a clause-implication graph (CIG): leaves are original clauses,
//!   inner nodes are lemmas implied by their parents, the sink is the empty clause. Here the
//!   graph comes from the DRAT proof of the own CDCL core as the independent checker reads it:
//!   each used lemma's parents are the clauses its reverse-unit-propagation check used (a
//!   hyper-resolution step, so a CIG edge).
//! - §3: dominators of the reversed CIG rooted at the sink (`verikit_graph::immediate_dominators`,
//!   Cooper–Harvey–Kennedy instead of the paper's Lengauer–Tarjan); the minions `M(d)` of a lemma
//!   `d` are the nodes it dominates and `LM(d)` the leaves among them: clauses that are in the core
//!   only to prove `d`.
//! - §4, Fig. 2: dominators are tried in decreasing order of the clauses their minions would
//!   remove; for each, `(L \ LM(d)) ∪ ¬d` is solved (`¬d` as unit clauses, the assumptions).
//!   Satisfiable: next dominator. Unsatisfiable: the old proof of `d` (its minions and incoming
//!   edges) is replaced by the new one and the dominator tree is recomputed; repeated until no
//!   dominator succeeds.
//! - §4.1, the Bubble transformation: every lemma `e` of the new proof becomes `e ∨ d` and the
//!   assumption leaves disappear (the "add `z_i` to every clause on a path from `(¬z_i)` to the
//!   sink" form of Convert); the transformed empty clause is `d` itself, whose new parents are the
//!   transformed parents of the empty clause. For CIG edges this is sound: if `P ∪ ¬d ⊨ e` then
//!   `P' ⊨ e ∨ d` for the transformed parents `P'`.
//! - §5, optimisation 1: the lemmas of the graph that depend neither on `d` nor on its minions
//!   join the check (they are implied by `L \ LM(d)`); optimisation 2: when no assumption is used,
//!   the new proof refutes a subset of the leaves and replaces the whole graph.
//! - §6, trim till fix: Trimmer, then a fresh solve of the core, then Trimmer on its proof, until
//!   the core stops shrinking.
//!
//! Groups (`.gcnf`): a group is removable from the core when all its leaves are minions of `d`;
//! hard clauses (group 0) are never removed. For a plain CNF every clause is its own group.

use crate::refute::{refute, Refutation};
use std::collections::{HashMap, HashSet};
use verikit_diag::{Budget, Exhausted};
use verikit_graph::{immediate_dominators, Csr};
use verikit_sat::{ClauseRef, DratCheck, Gcnf, Lit, Step};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Original clause (index in the formula).
    Leaf(usize),
    Lemma,
    Sink,
}

struct Node {
    lits: Vec<Lit>,
    kind: Kind,
    parents: Vec<usize>,
}

/// Counters of one run.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct TrimStats {
    pub sat_calls: u64,
    pub successes: u64,
    pub whole_graph_replacements: u64,
    pub rounds: u64,
}

pub(crate) enum TrimResult {
    Sat(Vec<bool>),
    /// Core groups (ascending); `complete` is false when the budget stopped the trimming.
    Core {
        groups: Vec<u32>,
        initial: Vec<u32>,
        complete: bool,
        stopped: Option<Exhausted>,
    },
    Stopped(Exhausted),
    Failed(String),
}

/// Where a clause of a check formula comes from.
#[derive(Clone, Copy)]
enum Origin {
    Node(usize),
    Assumption,
}

struct Graph {
    nodes: Vec<Node>,
    sink: usize,
}

impl Graph {
    /// The graph of a checked refutation of `formula` (`origins` say which node each clause is).
    /// Lemma nodes get `extra` added to their literals (the bubbled dominator, or nothing).
    /// Returns the parents of the refutation's empty clause.
    fn embed(
        &mut self,
        steps: &[Step],
        ck: &DratCheck,
        origins: &[Origin],
        extra: &[Lit],
    ) -> Vec<usize> {
        let mut lemma_node: HashMap<usize, usize> = HashMap::new();
        let map = |r: &ClauseRef, lemma_node: &HashMap<usize, usize>| -> Option<usize> {
            match r {
                ClauseRef::Original(i) => match origins.get(*i) {
                    Some(Origin::Node(n)) => Some(*n),
                    _ => None,
                },
                ClauseRef::Lemma(s) => lemma_node.get(s).copied(),
            }
        };
        for (step, ants) in &ck.antecedents {
            let mut lits = match steps.get(*step) {
                Some(Step::Add(c)) => c.clone(),
                _ => Vec::new(),
            };
            lits.extend_from_slice(extra);
            lits.sort();
            lits.dedup();
            let parents: Vec<usize> = ants.iter().filter_map(|r| map(r, &lemma_node)).collect();
            let id = self.nodes.len();
            self.nodes.push(Node {
                lits,
                kind: Kind::Lemma,
                parents,
            });
            lemma_node.insert(*step, id);
        }
        ck.sink.iter().filter_map(|r| map(r, &lemma_node)).collect()
    }

    /// Live nodes: those with a path to the sink.
    fn live(&self) -> Vec<bool> {
        let mut seen = vec![false; self.nodes.len()];
        let mut todo = vec![self.sink];
        seen[self.sink] = true;
        while let Some(v) = todo.pop() {
            for &p in &self.nodes[v].parents {
                if !seen[p] {
                    seen[p] = true;
                    todo.push(p);
                }
            }
        }
        seen
    }
}

fn leaves_to_groups(graph: &Graph, live: &[bool], g: &Gcnf) -> Vec<u32> {
    let mut gs: Vec<u32> = graph
        .nodes
        .iter()
        .enumerate()
        .filter(|(i, _)| live[*i])
        .filter_map(|(_, n)| match n.kind {
            Kind::Leaf(c) => g.groups.get(c).copied().filter(|&k| k != 0),
            _ => None,
        })
        .collect();
    gs.sort_unstable();
    gs.dedup();
    gs
}

/// The initial graph: a checked refutation of the clauses of `groups` (and the hard clauses).
fn initial(
    g: &Gcnf,
    groups: Option<&[u32]>,
    budget: &Budget,
    st: &mut TrimStats,
) -> Result<Graph, TrimResult> {
    let keep: Vec<usize> = (0..g.clauses.len())
        .filter(|&i| {
            let k = g.groups.get(i).copied().unwrap_or(0);
            k == 0 || groups.is_none_or(|gs| gs.binary_search(&k).is_ok())
        })
        .collect();
    let mut graph = Graph {
        nodes: Vec::new(),
        sink: 0,
    };
    let mut origins = Vec::new();
    let mut formula = Vec::new();
    for &i in &keep {
        origins.push(Origin::Node(graph.nodes.len()));
        formula.push(g.clauses[i].clone());
        graph.nodes.push(Node {
            lits: g.clauses[i].clone(),
            kind: Kind::Leaf(i),
            parents: Vec::new(),
        });
    }
    st.sat_calls += 1;
    match refute(g.num_vars, &formula, budget) {
        Refutation::Sat(m) => Err(TrimResult::Sat(m)),
        Refutation::Stopped(e) => Err(TrimResult::Stopped(e)),
        Refutation::BadProof(m) => Err(TrimResult::Failed(m)),
        Refutation::Unsat(steps, ck) => {
            let parents = graph.embed(&steps, &ck, &origins, &[]);
            graph.sink = graph.nodes.len();
            graph.nodes.push(Node {
                lits: Vec::new(),
                kind: Kind::Sink,
                parents,
            });
            Ok(graph)
        }
    }
}

enum Round {
    /// No dominator could be removed.
    Fixpoint,
    Stopped(Exhausted),
    Failed(String),
}

/// One run of Trimmer on `graph` until no dominator succeeds (§4).
fn trim(graph: &mut Graph, g: &Gcnf, budget: &Budget, st: &mut TrimStats) -> Round {
    let mut failed: HashSet<(usize, Vec<u32>)> = HashSet::new();
    loop {
        if let Err(e) = budget.check() {
            return Round::Stopped(e);
        }
        st.rounds += 1;
        let n = graph.nodes.len();
        let live = graph.live();
        // reversed CIG: sink → parents
        let mut edges = Vec::new();
        for (v, node) in graph.nodes.iter().enumerate() {
            if live[v] {
                for &p in &node.parents {
                    edges.push((v as u32, p as u32));
                }
            }
        }
        let csr = Csr::from_edges(n, &edges);
        let idom = immediate_dominators(&csr, graph.sink as u32);
        // dominator-tree children, then for every lemma the leaves of its subtree
        let mut kids: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (v, dom) in idom.iter().enumerate() {
            if let Some(d) = *dom {
                if d as usize != v {
                    kids[d as usize].push(v);
                }
            }
        }
        // groups: number of live leaves per group
        let mut group_leaves: HashMap<u32, usize> = HashMap::new();
        for (v, node) in graph.nodes.iter().enumerate() {
            if let (true, Kind::Leaf(c)) = (live[v], node.kind) {
                let k = g.groups.get(c).copied().unwrap_or(0);
                if k != 0 {
                    *group_leaves.entry(k).or_default() += 1;
                }
            }
        }
        let subtree = |d: usize| -> Vec<usize> {
            let mut out = Vec::new();
            let mut todo = vec![d];
            while let Some(v) = todo.pop() {
                out.push(v);
                todo.extend(kids[v].iter().copied());
            }
            out
        };
        let mut cands: Vec<(usize, usize, Vec<u32>)> = Vec::new(); // (score, d, groups)
        for (d, &is_live) in live.iter().enumerate() {
            if !is_live || graph.nodes[d].kind != Kind::Lemma {
                continue;
            }
            let mut per_group: HashMap<u32, usize> = HashMap::new();
            for v in subtree(d) {
                if let Kind::Leaf(c) = graph.nodes[v].kind {
                    let k = g.groups.get(c).copied().unwrap_or(0);
                    if k != 0 {
                        *per_group.entry(k).or_default() += 1;
                    }
                }
            }
            let mut gs: Vec<u32> = per_group
                .iter()
                .filter(|(k, &c)| group_leaves.get(k) == Some(&c))
                .map(|(&k, _)| k)
                .collect();
            if gs.is_empty() {
                continue;
            }
            gs.sort_unstable();
            if failed.contains(&(d, gs.clone())) {
                continue;
            }
            let score: usize = gs
                .iter()
                .map(|k| group_leaves.get(k).copied().unwrap_or(0))
                .sum();
            cands.push((score, d, gs));
        }
        cands.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut changed = false;
        for (_, d, gs) in cands {
            if let Err(e) = budget.check() {
                return Round::Stopped(e);
            }
            // nodes whose derivation depends on d or its minions: d's subtree and everything
            // derived from d (children towards the sink)
            let mut excluded = vec![false; n];
            for v in subtree(d) {
                excluded[v] = true;
            }
            let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
            for (v, node) in graph.nodes.iter().enumerate() {
                if live[v] {
                    for &p in &node.parents {
                        children[p].push(v);
                    }
                }
            }
            let mut todo = vec![d];
            while let Some(v) = todo.pop() {
                for &c in &children[v] {
                    if !excluded[c] {
                        excluded[c] = true;
                        todo.push(c);
                    }
                }
            }
            let mut formula: Vec<Vec<Lit>> = Vec::new();
            let mut origins: Vec<Origin> = Vec::new();
            for (v, node) in graph.nodes.iter().enumerate() {
                if !live[v] {
                    continue;
                }
                let keep = match node.kind {
                    Kind::Leaf(c) => {
                        let k = g.groups.get(c).copied().unwrap_or(0);
                        k == 0 || gs.binary_search(&k).is_err()
                    }
                    Kind::Lemma => !excluded[v],
                    Kind::Sink => false,
                };
                if keep {
                    formula.push(node.lits.clone());
                    origins.push(Origin::Node(v));
                }
            }
            let dl = graph.nodes[d].lits.clone();
            for &z in &dl {
                formula.push(vec![!z]);
                origins.push(Origin::Assumption);
            }
            st.sat_calls += 1;
            match refute(g.num_vars, &formula, budget) {
                Refutation::Sat(_) => {
                    failed.insert((d, gs));
                }
                Refutation::Stopped(e) => return Round::Stopped(e),
                Refutation::BadProof(m) => return Round::Failed(m),
                Refutation::Unsat(steps, ck) => {
                    let first_assumption = formula.len() - dl.len();
                    let uses_assumptions = ck.core.iter().any(|&i| i >= first_assumption);
                    st.successes += 1;
                    if uses_assumptions {
                        // Bubble: lemmas get d's literals; d's new parents are the empty clause's
                        let parents = graph.embed(&steps, &ck, &origins, &dl);
                        graph.nodes[d].parents = parents;
                    } else {
                        // §5 opt. 2: a refutation without d: it replaces the whole graph
                        st.whole_graph_replacements += 1;
                        let parents = graph.embed(&steps, &ck, &origins, &[]);
                        let sink = graph.sink;
                        graph.nodes[sink].parents = parents;
                    }
                    changed = true;
                    break;
                }
            }
        }
        if !changed {
            return Round::Fixpoint;
        }
    }
}

/// Trimmer (`till_fix`: trim till fix, §6) on a group CNF.
pub(crate) fn trimmer(g: &Gcnf, till_fix: bool, budget: &Budget, st: &mut TrimStats) -> TrimResult {
    let mut graph = match initial(g, None, budget, st) {
        Ok(gr) => gr,
        Err(r) => return r,
    };
    let initial_core = leaves_to_groups(&graph, &graph.live(), g);
    let mut best = initial_core.clone();
    let mut before = best.len();
    loop {
        let round = trim(&mut graph, g, budget, st);
        let core = leaves_to_groups(&graph, &graph.live(), g);
        if core.len() < best.len() {
            best = core;
        }
        let done = |best: Vec<u32>, complete: bool, stopped| TrimResult::Core {
            groups: best,
            initial: initial_core.clone(),
            complete,
            stopped,
        };
        match round {
            Round::Stopped(e) => return done(best, false, Some(e)),
            Round::Failed(m) => return TrimResult::Failed(m),
            Round::Fixpoint if !till_fix || best.len() >= before => return done(best, true, None),
            Round::Fixpoint => {}
        }
        // trim till fix: a fresh proof of the core, and Trimmer again on it
        before = best.len();
        graph = match initial(g, Some(&best), budget, st) {
            Ok(gr) => gr,
            Err(TrimResult::Stopped(e)) => return done(best, false, Some(e)),
            Err(TrimResult::Sat(_)) => {
                return TrimResult::Failed("a core became satisfiable".into())
            }
            Err(r) => return r,
        };
        let fresh = leaves_to_groups(&graph, &graph.live(), g);
        if fresh.len() < best.len() {
            best = fresh;
        }
    }
}
