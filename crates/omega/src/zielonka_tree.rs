//! Emerson–Lei acceptance to parity acceptance by the Zielonka-tree transform, SCC by SCC.
//!
//! Paper: A. Casares, T. Colcombet, N. Fijalkow, "Optimal transformations of games and automata
//! using Muller conditions", ICALP 2021, §3 (the Zielonka tree of a Muller condition and the
//! *Zielonka tree automaton*, a deterministic parity automaton over colours whose states are the
//! tree's leaves, composed with the input automaton); the per-SCC form and the reading of a
//! transition's set of marks as in Spot's `zielonka_tree_transform` (Duret-Lutz et al., "From
//! Spot 2.0 to Spot 2.10: What's new?", CAV'22, §4). The tree is built for the condition
//! restricted to the marks an SCC actually carries, so a part whose marks make the condition
//! trivial gets a one-leaf tree.
//!
//! The Zielonka tree of a condition `acc` over a set of marks `S`: the root is labelled `S`; a
//! node labelled `T` has one child per maximal strict subset `U ⊂ T` with
//! `acc(U) ≠ acc(T)` (no child: a leaf). A run whose set of marks seen infinitely often is `I`
//! visits infinitely often the nodes whose label contains `I`, and the deepest such node decides
//! `acc(I)`. The transform keeps a leaf `ℓ` beside the input state; on an edge carrying marks `M`
//! it finds the deepest ancestor `n` of `ℓ` whose label contains `M`, emits the priority
//! `depth(n)` (shifted so that accepting nodes are even, `parity min even`), and moves to the
//! leftmost leaf under the next sibling (cyclically) of `n`'s child towards `ℓ` (staying at `ℓ`
//! when `n = ℓ`). Edges between SCCs reset the leaf and are uncoloured. The transform is a
//! product with a deterministic automaton over mark sets, so it preserves the language of every
//! automaton, deterministic or not, and keeps determinism.

use crate::acc::Acc;
use crate::parity::{ParityAut, ParityKind};
use crate::scc_info::scc_info;
use crate::twa::{Marks, Twa};
use std::collections::HashMap;

/// The most marks an SCC may carry: the tree is built by enumerating subsets.
pub(crate) const MAX_MARKS: u32 = 12;

/// One node of a Zielonka tree.
#[derive(Clone, Debug)]
struct Node {
    label: Marks,
    accepting: bool,
    depth: u32,
    parent: Option<usize>,
    children: Vec<usize>,
}

/// The Zielonka tree of a condition over a set of marks (node 0 is the root).
#[derive(Clone, Debug)]
pub(crate) struct ZielonkaTree {
    nodes: Vec<Node>,
}

/// The maximal subsets of `marks` whose acceptance is `target` (when `acc(marks)` is not
/// `target`: the labels of the children of a Zielonka-tree node labelled `marks`).
pub(crate) fn maximal_subsets(acc: &Acc, marks: Marks, target: bool) -> Vec<Marks> {
    let bits: Vec<u32> = (0..64).filter(|i| (marks >> i) & 1 == 1).collect();
    let mut all: Vec<Marks> = (0u64..(1u64 << bits.len()))
        .map(|k| {
            bits.iter()
                .enumerate()
                .filter(|(j, _)| (k >> j) & 1 == 1)
                .fold(0, |m, (_, b)| m | (1u64 << b))
        })
        .filter(|&u| u != marks && acc.accepting(u) == target)
        .collect();
    all.sort_by_key(|m| std::cmp::Reverse(m.count_ones()));
    let mut out: Vec<Marks> = Vec::new();
    for u in all {
        if out.iter().all(|&k| u & !k != 0) {
            out.push(u);
        }
    }
    out
}

impl ZielonkaTree {
    /// The tree of `acc` over `marks`; `None` beyond [`MAX_MARKS`] marks.
    pub(crate) fn new(acc: &Acc, marks: Marks) -> Option<ZielonkaTree> {
        if marks.count_ones() > MAX_MARKS {
            return None;
        }
        let mut t = ZielonkaTree {
            nodes: vec![Node {
                label: marks,
                accepting: acc.accepting(marks),
                depth: 0,
                parent: None,
                children: Vec::new(),
            }],
        };
        let mut todo = vec![0usize];
        while let Some(n) = todo.pop() {
            let (label, accepting, depth) = {
                let x = &t.nodes[n];
                (x.label, x.accepting, x.depth)
            };
            for k in maximal_subsets(acc, label, !accepting) {
                let id = t.nodes.len();
                t.nodes.push(Node {
                    label: k,
                    accepting: !accepting,
                    depth: depth + 1,
                    parent: Some(n),
                    children: Vec::new(),
                });
                t.nodes[n].children.push(id);
                todo.push(id);
            }
        }
        Some(t)
    }

    fn leftmost_leaf(&self, mut n: usize) -> usize {
        while let Some(&c) = self.nodes[n].children.first() {
            n = c;
        }
        n
    }

    /// The priority (`parity min even`: even iff accepting) and the next leaf on marks `m`
    /// from leaf `leaf`.
    fn step(&self, leaf: usize, m: Marks) -> (u32, usize) {
        let shift = u32::from(!self.nodes[0].accepting);
        let mut child = None;
        let mut n = leaf;
        while self.nodes[n].label & m != m {
            match self.nodes[n].parent {
                Some(p) => {
                    child = Some(n);
                    n = p;
                }
                None => break,
            }
        }
        let prio = self.nodes[n].depth + shift;
        let next = match child {
            None => leaf,
            Some(c) => {
                let kids = &self.nodes[n].children;
                let i = kids.iter().position(|&k| k == c).unwrap_or(0);
                let sib = kids.get((i + 1) % kids.len().max(1)).copied().unwrap_or(c);
                self.leftmost_leaf(sib)
            }
        };
        (prio, next)
    }

    /// The number of leaves.
    #[cfg(test)]
    pub(crate) fn leaves(&self) -> usize {
        self.nodes.iter().filter(|n| n.children.is_empty()).count()
    }
}

/// `aut` (any Emerson–Lei acceptance) as a `parity min even` automaton of the same language,
/// deterministic if `aut` is; `None` if an SCC carries more than [`MAX_MARKS`] marks.
pub(crate) fn to_parity(aut: &Twa) -> Option<ParityAut> {
    let acc = aut.acceptance();
    let info = scc_info(aut);
    let nscc = info.sccs.len();
    let mut inner = vec![0 as Marks; nscc];
    for (s, es) in aut.states.iter().enumerate() {
        let c = info.sccs.comp[s] as usize;
        for e in es {
            if !e.label.is_false() && info.sccs.comp[e.dst as usize] as usize == c {
                inner[c] |= e.marks;
            }
        }
    }
    let mut trees: Vec<ZielonkaTree> = Vec::with_capacity(nscc);
    for &m in &inner {
        trees.push(ZielonkaTree::new(&acc, m & acc.used_marks())?);
    }
    let used = acc.used_marks();
    leaf_product(
        aut,
        |q| trees[info.sccs.comp[q as usize] as usize].leftmost_leaf(0),
        |q, l, _, e| {
            let c = info.sccs.comp[q as usize];
            (c == info.sccs.comp[e.dst as usize]).then(|| trees[c as usize].step(l, e.marks & used))
        },
    )
}

/// The product of `aut` with a memory of leaves (of a tree per SCC) as a `parity min even`
/// automaton: the transforms of this module and of [`crate::acd`]. States `(q, leaf)` are built
/// from the initial states with the leaf `start(q)`; on the `i`-th edge `e` of `q`, `step(q,
/// leaf, i, e)` gives the priority and the next leaf when the edge stays in its SCC (`None`:
/// an uncoloured edge to `start` of its destination). `None` beyond 64 priorities.
pub(crate) fn leaf_product(
    aut: &Twa,
    start: impl Fn(u32) -> usize,
    step: impl Fn(u32, usize, usize, &crate::twa::Edge) -> Option<(u32, usize)>,
) -> Option<ParityAut> {
    let mut out = aut.quotient_shell(&[]);
    out.acc = None;
    out.acc_false = false;
    let mut ids: HashMap<(u32, usize), u32> = HashMap::new();
    let mut todo: Vec<(u32, usize)> = Vec::new();
    let mut top = 0u32;
    let mut get = |out: &mut Twa, todo: &mut Vec<(u32, usize)>, q: u32, l: usize| -> u32 {
        *ids.entry((q, l)).or_insert_with(|| {
            let id = out.add_state();
            out.state_names[id as usize] = aut.state_names.get(q as usize).cloned().flatten();
            todo.push((q, l));
            id
        })
    };
    for &q in &aut.init {
        let id = get(&mut out, &mut todo, q, start(q));
        out.init.push(id);
    }
    let mut edges: Vec<(u32, u32, biodivine_lib_bdd::Bdd, Option<u32>)> = Vec::new();
    while let Some((q, l)) = todo.pop() {
        let src = get(&mut out, &mut todo, q, l);
        for (i, e) in aut.states[q as usize].iter().enumerate() {
            if e.label.is_false() {
                continue;
            }
            let (prio, nl) = match step(q, l, i, e) {
                Some((p, nl)) => (Some(p), nl),
                None => (None, start(e.dst)),
            };
            if let Some(p) = prio {
                top = top.max(p + 1);
            }
            let dst = get(&mut out, &mut todo, e.dst, nl);
            edges.push((src, dst, e.label.clone(), prio));
        }
    }
    if top > 64 {
        return None;
    }
    for (s, d, l, p) in edges {
        out.add_edge(s, d, l, p.map_or(0, |p| 1u64 << p));
    }
    out.num_sets = top;
    out.state_based = false;
    Some(ParityAut {
        aut: out,
        kind: ParityKind::MIN_EVEN,
    })
}
