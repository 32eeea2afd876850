//! Emerson–Lei acceptance to parity acceptance by the alternating cycle decomposition (ACD),
//! SCC by SCC.
//!
//! Paper: A. Casares, T. Colcombet, N. Fijalkow, "Optimal transformations of games and automata
//! using Muller conditions", ICALP 2021, §4 (the alternating cycle decomposition of an automaton
//! and the ACD-transform, which is optimal among the parity automata obtained by composing the
//! input with a deterministic automaton over its edges); the per-SCC form as Spot's
//! `acd_transform` (Casares, Duret-Lutz, Meyer, Renkin, Sickert, "Practical applications of the
//! alternating cycle decomposition", TACAS 2022, §3).
//!
//! A *cycle* of an SCC is a set of its edges that is strongly connected; its acceptance is that
//! of the marks it carries. The ACD of an SCC is a tree of cycles: the root is the whole SCC,
//! and the children of a cycle `C` are the maximal cycles inside `C` whose acceptance differs
//! from `C`'s. For a state `q`, the nodes containing `q` form a subtree; the transform keeps
//! beside `q` a leaf of that subtree. On an edge `e` from `q` to `q'` in the same SCC, it finds
//! the deepest node `n` on the branch to the current leaf that contains `e`, emits the priority
//! `depth(n)` (shifted so that accepting nodes are even, `parity min even`), and moves to the
//! leftmost `q'`-leaf under the next child of `n` after the branch's (cyclically, among the
//! children containing `q'`), or under `n` itself when none follows. Edges between SCCs are
//! uncoloured and reset the leaf. Unlike the Zielonka-tree transform
//! ([`crate::zielonka_tree`]), which follows the tree of the acceptance condition whatever
//! cycles the automaton has, the leaves here are those of the cycles each state lies on, so the
//! result is never larger. It is a product with a deterministic automaton reading the input's
//! edges, so the language is kept and determinism too.

use crate::acc::Acc;
use crate::parity::ParityAut;
use crate::scc_info::scc_info;
use crate::twa::{Marks, Twa};
use crate::zielonka_tree::{leaf_product, maximal_subsets};
use std::collections::HashMap;

/// The most edges of one SCC the decomposition is computed for (edge sets are bit vectors).
pub(crate) const MAX_SCC_EDGES: usize = 4096;

/// The most nodes of one SCC's decomposition.
const MAX_NODES: usize = 4096;

type EdgeSet = Vec<u64>;

fn set_of(n: usize) -> EdgeSet {
    vec![0; n.div_ceil(64)]
}

fn has(s: &EdgeSet, i: usize) -> bool {
    (s[i / 64] >> (i % 64)) & 1 == 1
}

fn put(s: &mut EdgeSet, i: usize) {
    s[i / 64] |= 1 << (i % 64);
}

fn subset(a: &EdgeSet, b: &EdgeSet) -> bool {
    a.iter().zip(b).all(|(x, y)| x & !y == 0)
}

/// One node of a decomposition: a cycle (edge indices local to the SCC).
struct Node {
    edges: EdgeSet,
    /// The states the cycle visits (bit per local state).
    states: EdgeSet,
    accepting: bool,
    depth: u32,
    children: Vec<usize>,
}

/// The decomposition of one SCC: local edges `(src, dst, marks)` over local states.
struct Acd {
    nodes: Vec<Node>,
}

/// The strongly connected parts (with at least one edge) of the edges `sel` of `edges`.
fn cycles_in(nstates: usize, edges: &[(u32, u32, Marks)], sel: &EdgeSet) -> Vec<EdgeSet> {
    let pairs: Vec<(u32, u32)> = edges
        .iter()
        .enumerate()
        .filter(|(i, _)| has(sel, *i))
        .map(|(_, &(s, d, _))| (s, d))
        .collect();
    let g = verikit_graph::Csr::from_edges(nstates, &pairs);
    let sccs = verikit_graph::sccs(&g);
    let mut by: HashMap<u32, EdgeSet> = HashMap::new();
    for (i, &(s, d, _)) in edges.iter().enumerate() {
        if has(sel, i) && sccs.comp[s as usize] == sccs.comp[d as usize] {
            put(
                by.entry(sccs.comp[s as usize])
                    .or_insert_with(|| set_of(edges.len())),
                i,
            );
        }
    }
    let mut v: Vec<EdgeSet> = by.into_values().collect();
    v.sort();
    v
}

fn marks_of(edges: &[(u32, u32, Marks)], c: &EdgeSet) -> Marks {
    edges
        .iter()
        .enumerate()
        .filter(|(i, _)| has(c, *i))
        .fold(0, |m, (_, e)| m | e.2)
}

/// The maximal cycles inside the cycle `c` whose acceptance is `target` (the acceptance of `c`
/// itself is not `target`).
fn children_of(
    acc: &Acc,
    nstates: usize,
    edges: &[(u32, u32, Marks)],
    c: &EdgeSet,
    target: bool,
) -> Option<Vec<EdgeSet>> {
    let mut found: Vec<EdgeSet> = Vec::new();
    let mut todo = vec![c.clone()];
    let mut steps = 0usize;
    while let Some(x) = todo.pop() {
        steps += 1;
        if steps > MAX_NODES {
            return None;
        }
        let m = marks_of(edges, &x);
        if m.count_ones() > crate::zielonka_tree::MAX_MARKS {
            return None;
        }
        for u in maximal_subsets(acc, m, target) {
            let mut sel = set_of(edges.len());
            for (i, e) in edges.iter().enumerate() {
                if has(&x, i) && e.2 & !u == 0 {
                    put(&mut sel, i);
                }
            }
            for y in cycles_in(nstates, edges, &sel) {
                if acc.accepting(marks_of(edges, &y)) == target {
                    found.push(y);
                } else {
                    todo.push(y);
                }
            }
        }
    }
    found.sort();
    found.dedup();
    let keep: Vec<EdgeSet> = found
        .iter()
        .filter(|y| !found.iter().any(|z| z != *y && subset(y, z)))
        .cloned()
        .collect();
    Some(keep)
}

impl Acd {
    fn new(acc: &Acc, nstates: usize, edges: &[(u32, u32, Marks)]) -> Option<Acd> {
        let mut all = set_of(edges.len());
        for i in 0..edges.len() {
            put(&mut all, i);
        }
        let states_of = |c: &EdgeSet| {
            let mut s = set_of(nstates);
            for (i, e) in edges.iter().enumerate() {
                if has(c, i) {
                    put(&mut s, e.0 as usize);
                }
            }
            s
        };
        let mut t = Acd {
            nodes: vec![Node {
                states: states_of(&all),
                accepting: acc.accepting(marks_of(edges, &all)),
                edges: all,
                depth: 0,
                children: Vec::new(),
            }],
        };
        let mut i = 0;
        while i < t.nodes.len() {
            let target = !t.nodes[i].accepting;
            let kids = children_of(acc, nstates, edges, &t.nodes[i].edges, target)?;
            for k in kids {
                if t.nodes.len() >= MAX_NODES {
                    return None;
                }
                let id = t.nodes.len();
                t.nodes.push(Node {
                    states: states_of(&k),
                    edges: k,
                    accepting: target,
                    depth: t.nodes[i].depth + 1,
                    children: Vec::new(),
                });
                t.nodes[i].children.push(id);
            }
            i += 1;
        }
        Some(t)
    }

    /// The leftmost leaf under `n` among the nodes containing state `q`.
    fn leftmost_leaf(&self, mut n: usize, q: usize) -> usize {
        while let Some(&c) = self.nodes[n]
            .children
            .iter()
            .find(|&&c| has(&self.nodes[c].states, q))
        {
            n = c;
        }
        n
    }

    /// The branch from the root to `leaf`.
    fn branch(&self, leaf: usize, parent: &[usize]) -> Vec<usize> {
        let mut b = vec![leaf];
        let mut n = leaf;
        while n != 0 {
            n = parent[n];
            b.push(n);
        }
        b.reverse();
        b
    }
}

/// `aut` (any Emerson–Lei acceptance) as a `parity min even` automaton of the same language by
/// the ACD-transform, deterministic if `aut` is; `None` beyond the size limits of the
/// decomposition ([`MAX_SCC_EDGES`], 12 marks per SCC).
pub(crate) fn to_parity(aut: &Twa) -> Option<ParityAut> {
    let acc = aut.acceptance();
    let used = acc.used_marks();
    let info = scc_info(aut);
    let nscc = info.sccs.len();
    // Per SCC: local state numbers, local edges, the decomposition and each node's parent.
    let mut local = vec![0usize; aut.num_states()];
    let mut count = vec![0usize; nscc];
    for (s, l) in local.iter_mut().enumerate() {
        let c = info.sccs.comp[s] as usize;
        *l = count[c];
        count[c] += 1;
    }
    let mut sedges: Vec<Vec<(u32, u32, Marks)>> = vec![Vec::new(); nscc];
    // Global edge (state, index) → local edge index.
    let mut eid: Vec<Vec<usize>> = aut.states.iter().map(|es| vec![0; es.len()]).collect();
    for (s, es) in aut.states.iter().enumerate() {
        let c = info.sccs.comp[s] as usize;
        for (i, e) in es.iter().enumerate() {
            if !e.label.is_false() && info.sccs.comp[e.dst as usize] as usize == c {
                eid[s][i] = sedges[c].len();
                sedges[c].push((
                    local[s] as u32,
                    local[e.dst as usize] as u32,
                    e.marks & used,
                ));
            }
        }
    }
    let mut trees: Vec<Option<(Acd, Vec<usize>)>> = Vec::with_capacity(nscc);
    for c in 0..nscc {
        if sedges[c].is_empty() {
            trees.push(None);
            continue;
        }
        if sedges[c].len() > MAX_SCC_EDGES {
            return None;
        }
        let t = Acd::new(&acc, count[c], &sedges[c])?;
        let mut parent = vec![0usize; t.nodes.len()];
        for (i, n) in t.nodes.iter().enumerate() {
            for &k in &n.children {
                parent[k] = i;
            }
        }
        trees.push(Some((t, parent)));
    }
    let start = |q: u32| -> usize {
        let c = info.sccs.comp[q as usize] as usize;
        trees[c]
            .as_ref()
            .map_or(0, |(t, _)| t.leftmost_leaf(0, local[q as usize]))
    };
    leaf_product(aut, start, |q, l, i, e| {
        let c = info.sccs.comp[q as usize] as usize;
        if info.sccs.comp[e.dst as usize] as usize != c {
            return None;
        }
        let (t, parent) = trees[c].as_ref()?;
        let k = eid[q as usize][i];
        let branch = t.branch(l, parent);
        // The deepest node of the branch holding the edge (the root holds all).
        let pos = branch
            .iter()
            .rposition(|&n| has(&t.nodes[n].edges, k))
            .unwrap_or(0);
        let n = branch[pos];
        let shift = u32::from(!t.nodes[0].accepting);
        let qd = local[e.dst as usize];
        let kids: Vec<usize> = t.nodes[n]
            .children
            .iter()
            .copied()
            .filter(|&k| has(&t.nodes[k].states, qd))
            .collect();
        let next = match (branch.get(pos + 1), kids.first()) {
            (_, None) => n,
            (None, Some(&first)) => t.leftmost_leaf(first, qd),
            (Some(&cur), Some(&first)) => {
                // The next child after the branch's, cyclically, in the order of all of `n`'s
                // children.
                let all = &t.nodes[n].children;
                let at = all.iter().position(|&k| k == cur).unwrap_or(0);
                let pick = (1..=all.len())
                    .map(|j| all[(at + j) % all.len()])
                    .find(|k| kids.contains(k))
                    .unwrap_or(first);
                t.leftmost_leaf(pick, qd)
            }
        };
        Some((t.nodes[n].depth + shift, next))
    })
}

#[cfg(test)]
mod tests {
    use super::to_parity;
    use crate::dual::complement_deterministic;
    use crate::emptiness::accepting_lasso;
    use crate::product::product;
    use crate::twa::Twa;
    use verikit_diag::Budget;

    /// Both products with the other's complement are empty (Emerson–Lei emptiness).
    fn same_language(x: &Twa, y: &Twa) -> bool {
        [(x, y), (y, x)].iter().all(|(l, r)| {
            let c = complement_deterministic(r, &Budget::unlimited()).unwrap();
            accepting_lasso(&product(l, &c).unwrap()).is_none()
        })
    }

    /// A complete deterministic automaton over two propositions with `n` states and 4 marks.
    fn random_det(seed: u64, n: u32, acc: &str) -> Twa {
        crate::tests::random_det(seed, n, 4, acc, false)
    }

    /// On random deterministic automata with Rabin, Streett, parity and other Emerson–Lei
    /// conditions, the ACD-transform is deterministic, has the input's language, and is never
    /// larger than the Zielonka-tree transform.
    #[test]
    fn acd_keeps_the_language_and_is_not_larger() {
        let conds = [
            "(Fin(0) & Inf(1)) | (Fin(2) & Inf(3))",
            "(Fin(0) | Inf(1)) & (Fin(2) | Inf(3))",
            "Fin(0) & (Inf(1) | (Fin(2) & Inf(3)))",
            "(Inf(0) & Inf(1)) | (Fin(2) & Fin(3))",
            "(Inf(0) | Fin(1)) & Inf(2) & Fin(3)",
            "Inf(0) & Inf(1) & Inf(2) & Inf(3)",
        ];
        let mut smaller = 0;
        for seed in 0..60u64 {
            for (k, acc) in conds.iter().enumerate() {
                let a = random_det(seed * 7 + k as u64, 2 + (seed % 4) as u32, acc);
                let p = to_parity(&a).unwrap().into_twa();
                assert!(p.is_deterministic(), "seed {seed} {acc}");
                assert!(same_language(&a, &p), "seed {seed} {acc}");
                let z = crate::zielonka_tree::to_parity(&a).unwrap().into_twa();
                assert!(
                    p.num_states() <= z.num_states(),
                    "seed {seed} {acc}: {} > {}",
                    p.num_states(),
                    z.num_states()
                );
                smaller += usize::from(p.num_states() < z.num_states());
            }
        }
        assert!(smaller > 0);
    }
}
