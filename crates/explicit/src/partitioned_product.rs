//! The product graph stored for the fixpoint algorithms (OWCTY, MAP): generated in parallel by
//! the partitioned search of `parallel_reach` with every transition recorded at the partition of
//! its target, then numbered densely (partition by partition) with its successor lists in the
//! graph kernel's `Csr`. Lasso extraction after a fixpoint lives here too: a shortest stem from
//! the initial state and a cycle through a given accepting state inside a given set, both by
//! breadth-first search on the stored graph.

use crate::nested_dfs::{BuchiGraph, Lasso};
use crate::parallel_reach::{explore, split_gid, Expand, Partition, NO_PARENT};
use crate::state_store::StoreKind;
use std::borrow::Cow;
use std::collections::VecDeque;
use verikit_diag::{Budget, Exhausted};
use verikit_graph::Csr;

struct Product<G> {
    g: G,
    buf: Vec<Vec<u8>>,
    transitions: u64,
}

impl<G: BuchiGraph> Expand for Product<G> {
    fn expand(&mut self, _id: u64, state: &[u8], out: &mut dyn FnMut(&[u8])) -> bool {
        self.buf.clear();
        self.g.successors(state, &mut self.buf);
        self.transitions += self.buf.len() as u64;
        for s in &self.buf {
            out(s);
        }
        false
    }
}

/// A product graph explored completely (or as far as the budget allowed).
pub(crate) struct StoredProduct {
    parts: Vec<Partition>,
    offsets: Vec<u32>,
    pub(crate) succ: Csr,
    pub(crate) accepting: Vec<bool>,
    pub(crate) init: u32,
    pub(crate) transitions: u64,
    pub(crate) stopped: Option<Exhausted>,
    /// Records exchanged between workers.
    pub(crate) messages: u64,
}

impl StoredProduct {
    pub(crate) fn len(&self) -> usize {
        self.accepting.len()
    }

    fn dense(&self, gid: u64) -> Option<u32> {
        let (w, i) = split_gid(gid);
        self.offsets.get(w).map(|o| o + i)
    }

    /// The packed product state of vertex `v`.
    pub(crate) fn state(&self, v: u32) -> Cow<'_, [u8]> {
        let w = self.offsets.partition_point(|&o| o <= v).saturating_sub(1);
        match (self.parts.get(w), self.offsets.get(w)) {
            (Some(p), Some(o)) => p.store.get(v - o),
            _ => Cow::Borrowed(&[]),
        }
    }

    pub(crate) fn memory(&self) -> usize {
        self.parts.iter().map(Partition::memory).sum::<usize>()
            + self.succ.num_edges() * 4
            + self.len() * 5
    }

    /// Shortest path `from` → `to` (both included) inside `within`, or `None`. With
    /// `from == to` the path is a cycle of length ≥ 1 (it leaves `from` first).
    fn path(&self, from: u32, to: u32, within: &dyn Fn(u32) -> bool) -> Option<Vec<u32>> {
        let n = self.len();
        let mut pred = vec![u32::MAX; n];
        let mut q = VecDeque::new();
        let mut seen = vec![false; n];
        if from != to {
            *seen.get_mut(from as usize)? = true;
        }
        q.push_back(from);
        while let Some(u) = q.pop_front() {
            for &v in self.succ.succ(u) {
                if !within(v) || seen.get(v as usize).copied().unwrap_or(true) {
                    continue;
                }
                seen[v as usize] = true;
                pred[v as usize] = u;
                if v == to {
                    let mut p = vec![to];
                    let mut c = u;
                    while c != from {
                        p.push(c);
                        c = *pred.get(c as usize)?;
                    }
                    p.push(from);
                    p.reverse();
                    return Some(p);
                }
                q.push_back(v);
            }
        }
        None
    }

    /// The lasso through accepting vertex `a`, its cycle inside `within`.
    pub(crate) fn lasso(&self, a: u32, within: &dyn Fn(u32) -> bool) -> Option<Lasso> {
        let stem = if a == self.init {
            Vec::new()
        } else {
            let mut p = self.path(self.init, a, &|_| true)?;
            p.pop();
            p
        };
        let mut cycle = self.path(a, a, within)?;
        cycle.pop();
        Some(Lasso {
            stem: stem.iter().map(|&v| self.state(v).to_vec()).collect(),
            cycle: cycle.iter().map(|&v| self.state(v).to_vec()).collect(),
        })
    }
}

/// Generates the product on one worker per graph in `graphs` (all alike) and stores it in
/// visited-state tables of layout `store`.
pub(crate) fn build<G: BuchiGraph + Send>(
    graphs: Vec<G>,
    store: StoreKind,
    budget: &Budget,
) -> StoredProduct {
    let mut graphs = graphs;
    let (width, init) = match graphs.first_mut() {
        Some(g) => (g.width(), g.initial()),
        None => (0, Vec::new()),
    };
    let experts = graphs
        .into_iter()
        .map(|g| Product {
            g,
            buf: Vec::new(),
            transitions: 0,
        })
        .collect();
    let run = explore(width, &init, experts, true, store, budget);
    let mut offsets = Vec::with_capacity(run.parts.len());
    let mut n = 0u32;
    for p in &run.parts {
        offsets.push(n);
        n += p.store.len() as u32;
    }
    let mut sp = StoredProduct {
        parts: Vec::new(),
        offsets,
        succ: Csr::from_edges(0, &[]),
        accepting: Vec::new(),
        init: 0,
        transitions: run.expanders.iter().map(|e| e.transitions).sum(),
        stopped: run.stopped,
        messages: run.messages,
    };
    let mut edges = Vec::new();
    for (w, p) in run.parts.iter().enumerate() {
        let o = sp.offsets.get(w).copied().unwrap_or(0);
        for &(src, t) in &p.in_edges {
            if let (Some(s), true) = (sp.dense(src), src != NO_PARENT) {
                edges.push((s, o + t));
            }
        }
        for (i, &par) in p.parent.iter().enumerate() {
            if par == NO_PARENT {
                sp.init = o + i as u32;
            }
        }
    }
    sp.succ = Csr::from_edges(n as usize, &edges);
    drop(edges);
    sp.parts = run.parts;
    if let Some(g) = run.expanders.first() {
        sp.accepting = (0..n).map(|v| g.g.accepting(&sp.state(v))).collect();
    }
    sp
}
