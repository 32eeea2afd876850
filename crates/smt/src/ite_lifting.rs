//! Lifting of arithmetic relations over term-level `ite` trees, a rewrite of the preprocessing
//! step that precedes the simplex of Dutertre & de Moura, "A Fast Linear-Arithmetic Solver for
//! DPLL(T)" (CAV 2006, Section 3: atoms become bounds on linear terms). An atom `(⋈ t o)` whose
//! side `t` is an `ite` becomes Boolean structure over the `ite` conditions instead of one fresh
//! arithmetic variable with two equality atoms per `ite` node (decision 0208).
//!
//! `ite` terms are flattened into *regions*, as Yices's `ite` flattening does: a region starts at
//! a root (an `ite` that is shared — two `ite` parents — or used by anything other than an `ite`
//! branch: an atom, a sum) and extends through every non-root `ite` below it. Each node of a
//! region gets the conjunction of the conditions on its path (prefixes shared), and its leaves are
//! grouped: one Boolean per distinct constant value ("the selected leaf has value `k`", the
//! disjunction of the paths to leaves of that value) and one per other leaf (a variable, a linear
//! term, or a shared `ite` root). Then
//!
//! - `(= t k)` for a constant `k` is `val(t, k) ∨ ⋁ (sel(t, ℓ) ∧ (= ℓ k))` over the non-constant
//!   leaves `ℓ`; a shared `ite` leaf's atom is lifted again in its own region, so a chain of
//!   program-counter updates (`pc' = ite(pc = 3, 4, ite(pc = 4, 7, pc))`) costs one Boolean per
//!   (region, compared value), not one walk of the whole tree per value;
//! - `(<= t o)`, `(< t o)` and atoms with a non-constant `o` are the disjunction over all leaves;
//! - a region whose leaves (through nested roots) are all constants decides the relation outright
//!   when it holds or fails on all of them;
//! - an `ite` in an arithmetic context (under `+`, `*`, `to_real`) gets one variable `v` per
//!   region with `sel → v = leaf` per leaf and `min ≤ v ≤ max` when all leaves are constants.
//!
//! The encoding size is linear in the `ite` DAG plus the compared values; caps on the disjuncts
//! per atom and on the nodes in total fall back to linearisation (one variable per `ite` node), so
//! the rewrite changes the encoding, never the meaning. Models are still validated against the
//! original assertions (the rewrite happens during CNF conversion only).

use crate::terms::{Op, Sort, TermId, Terms};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeSet;
use std::rc::Rc;
use verikit_num::Num;

/// The relation pushed to the leaves.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Rel {
    Eq,
    Le,
    Lt,
}

/// `v ⋈ o` for a leaf `v` (or `o ⋈ v` when `flip`); `k` is the value of `o` if constant.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Pred {
    rel: Rel,
    other: TermId,
    k: Option<Num>,
    flip: bool,
}

impl Pred {
    fn holds(&self, v: &Num) -> Option<bool> {
        let k = self.k.as_ref()?;
        let (a, b) = if self.flip { (k, v) } else { (v, k) };
        Some(match self.rel {
            Rel::Eq => a == b,
            Rel::Le => a <= b,
            Rel::Lt => a < b,
        })
    }
    /// The atom `leaf ⋈ other` (or flipped).
    fn atom(&self, terms: &mut Terms, leaf: TermId) -> TermId {
        let op = match self.rel {
            Rel::Eq => Op::Eq,
            Rel::Le => Op::Le,
            Rel::Lt => Op::Lt,
        };
        let args = if self.flip {
            vec![self.other, leaf]
        } else {
            vec![leaf, self.other]
        };
        terms.mk(op, args, Sort::Bool)
    }
}

/// What is known of the leaves of an arithmetic term (through every nested `ite`).
#[derive(Clone)]
enum Leaves {
    /// Some leaf is not a constant, or there are more than [`MAX_TRACKED`] distinct values.
    Many,
    /// A constant, or an `ite` tree over constants with these leaf values.
    Set(Rc<BTreeSet<Num>>),
}

/// Leaf values tracked per region root (beyond this only the structure is kept).
const MAX_TRACKED: usize = 256;
/// Disjuncts one lifted atom may have before it falls back to linearisation.
const PER_ATOM: usize = 20_000;
/// Nodes (path conjunctions, value disjunctions, disjuncts of atoms) allowed in total.
const TOTAL: usize = 4_000_000;

/// The flattened `ite` region below a root: its leaves grouped by constant value (with the
/// Boolean "the selected leaf has this value") and its other leaves (with "the selected leaf is
/// this term").
struct Region {
    sort: Sort,
    values: Vec<(Num, TermId)>,
    by_value: HashMap<Num, usize>,
    others: Vec<(TermId, TermId)>,
}

pub(crate) struct IteLift {
    /// Per term: occurrences as a branch of an arithmetic `ite` (saturated at 2).
    ite_parents: Vec<u8>,
    /// Per term: used as an argument of anything other than an `ite` branch.
    other_use: Vec<bool>,
    /// Terms scanned for the two tables above.
    scanned: usize,
    regions: HashMap<TermId, Rc<Region>>,
    leaves: HashMap<TermId, Leaves>,
    /// Atoms rewritten into Boolean structure.
    pub lifted_atoms: u64,
    /// Atoms over `ite` trees left to linearisation because a size cap was hit.
    pub capped_atoms: u64,
    /// Regions flattened.
    pub regions_built: u64,
    nodes: usize,
    per_atom: usize,
    total: usize,
    /// Atoms never lifted: the definitions `v = leaf` of the variable standing for an `ite` in
    /// an arithmetic context (lifting them would walk the region again for every such variable).
    no_lift: HashSet<TermId>,
}

impl Default for IteLift {
    fn default() -> Self {
        IteLift::new()
    }
}

impl IteLift {
    pub(crate) fn new() -> IteLift {
        IteLift::with_caps(PER_ATOM, TOTAL)
    }

    /// Lifting with other size caps (disjuncts per atom, nodes in total).
    pub(crate) fn with_caps(per_atom: usize, total: usize) -> IteLift {
        IteLift {
            ite_parents: Vec::new(),
            other_use: Vec::new(),
            scanned: 0,
            regions: HashMap::default(),
            leaves: HashMap::default(),
            lifted_atoms: 0,
            capped_atoms: 0,
            regions_built: 0,
            nodes: 0,
            per_atom,
            total,
            no_lift: HashSet::default(),
        }
    }

    /// The Boolean term equivalent to the arithmetic atom `atom` (`=`, `<=`, `<` with an `ite`
    /// on one side) with the relation pushed to the leaves of the `ite` tree, or `None` when the
    /// atom is not of that shape or the rewrite would exceed its size caps.
    pub(crate) fn lift_atom(&mut self, terms: &mut Terms, atom: TermId) -> Option<TermId> {
        if self.no_lift.contains(&atom) {
            return None;
        }
        let node = terms.node(atom);
        let rel = match node.op {
            Op::Eq => Rel::Eq,
            Op::Le => Rel::Le,
            Op::Lt => Rel::Lt,
            _ => return None,
        };
        if node.args.len() != 2 {
            return None;
        }
        let (a, b) = (node.args[0], node.args[1]);
        let is_ite = |t: TermId| *terms.node(t).op == Op::Ite;
        // Both sides `ite`: pushing one into the other multiplies their sizes; linearised.
        let (tree, other, flip) = match (is_ite(a), is_ite(b)) {
            (true, false) => (a, b, false),
            (false, true) => (b, a, rel != Rel::Eq),
            _ => return None,
        };
        let k = const_value(terms, other);
        let pred = Pred {
            rel,
            other,
            k,
            flip,
        };
        let r = self.lift(terms, tree, &pred);
        match r {
            Some(_) => self.lifted_atoms += 1,
            None => self.capped_atoms += 1,
        }
        r
    }

    /// The definition of a variable `v` standing for the arithmetic `ite` term `t` (the
    /// linearisation of an `ite` under a sum, a product, `to_real`, …), as Yices does with one
    /// variable per flattened `ite`: `sel → v = leaf` for every leaf of `t`'s region (leaves
    /// with the same constant value share one implication; a shared `ite` leaf is linearised
    /// by its own variable), and `min ≤ v ≤ max` when every leaf below `t` is a constant.
    /// `None` past the size caps (the caller falls back to one variable per `ite` node).
    pub(crate) fn define_var(
        &mut self,
        terms: &mut Terms,
        t: TermId,
        v: TermId,
    ) -> Option<Vec<TermId>> {
        self.scan(terms);
        self.prepare(terms, t)?;
        let region = self.regions.get(&t)?.clone();
        let mut defs = Vec::with_capacity(region.values.len() + region.others.len() + 2);
        for (k, sel) in &region.values {
            let kc = terms.mk_const(k.clone(), region.sort);
            let eq = terms.mk(Op::Eq, vec![v, kc], Sort::Bool);
            defs.push(terms.mk(Op::Implies, vec![*sel, eq], Sort::Bool));
        }
        for &(leaf, sel) in &region.others {
            let eq = terms.mk(Op::Eq, vec![v, leaf], Sort::Bool);
            self.no_lift.insert(eq);
            defs.push(terms.mk(Op::Implies, vec![sel, eq], Sort::Bool));
        }
        if let Some(Leaves::Set(s)) = self.leaves.get(&t) {
            if let (Some(lo), Some(hi)) = (s.first(), s.last()) {
                let lo = terms.mk_const(lo.clone(), region.sort);
                let hi = terms.mk_const(hi.clone(), region.sort);
                defs.push(terms.mk(Op::Le, vec![lo, v], Sort::Bool));
                defs.push(terms.mk(Op::Le, vec![v, hi], Sort::Bool));
            }
        }
        self.nodes += defs.len();
        Some(defs)
    }

    /// Brings the parent tables up to date with the term store.
    fn scan(&mut self, terms: &Terms) {
        let n = terms.len();
        if self.scanned >= n {
            return;
        }
        self.ite_parents.resize(n, 0);
        self.other_use.resize(n, false);
        for i in self.scanned..n {
            let node = terms.node(TermId(i as u32));
            let ite = *node.op == Op::Ite && node.sort.is_arith();
            for (j, &a) in node.args.iter().enumerate() {
                let a = a.0 as usize;
                if ite && j > 0 {
                    if let Some(p) = self.ite_parents.get_mut(a) {
                        *p = p.saturating_add(1).min(2);
                    }
                } else if let Some(u) = self.other_use.get_mut(a) {
                    *u = true;
                }
            }
        }
        self.scanned = n;
    }

    /// An arithmetic `ite` that starts a region of its own: shared (two `ite` parents) or used
    /// by anything else (an atom, a sum).
    fn is_root(&self, t: TermId) -> bool {
        let i = t.0 as usize;
        self.ite_parents.get(i).is_none_or(|&p| p != 1) || self.other_use.get(i).is_none_or(|&u| u)
    }

    fn is_arith_ite(terms: &Terms, t: TermId) -> bool {
        let n = terms.node(t);
        *n.op == Op::Ite && n.sort.is_arith()
    }

    /// Flattens the region of `root` and of every region root below it (iteratively,
    /// post-order), with their leaf information. `None` past the total cap.
    fn prepare(&mut self, terms: &mut Terms, root: TermId) -> Option<()> {
        let mut stack = vec![root];
        while let Some(&r) = stack.last() {
            if self.leaves.contains_key(&r) {
                stack.pop();
                continue;
            }
            let region = match self.regions.get(&r) {
                Some(g) => g.clone(),
                None => {
                    let g = Rc::new(self.flatten(terms, r)?);
                    self.regions.insert(r, g.clone());
                    g
                }
            };
            let pending: Vec<TermId> = region
                .others
                .iter()
                .map(|&(l, _)| l)
                .filter(|&l| Self::is_arith_ite(terms, l) && !self.leaves.contains_key(&l))
                .collect();
            if !pending.is_empty() {
                stack.extend(pending);
                continue;
            }
            stack.pop();
            let mut set: BTreeSet<Num> = region.values.iter().map(|(v, _)| v.clone()).collect();
            let mut many = false;
            for &(l, _) in &region.others {
                match self.leaves.get(&l) {
                    Some(Leaves::Set(s)) if Self::is_arith_ite(terms, l) => {
                        set.extend(s.iter().cloned());
                    }
                    _ => many = true,
                }
                if many || set.len() > MAX_TRACKED {
                    many = true;
                    break;
                }
            }
            let l = if many {
                Leaves::Many
            } else {
                Leaves::Set(Rc::new(set))
            };
            self.leaves.insert(r, l);
        }
        Some(())
    }

    /// The region of `root`: every `ite` below it reached through non-root `ite` nodes, with
    /// the conjunction of the conditions on the path to each leaf (prefixes shared).
    fn flatten(&mut self, terms: &mut Terms, root: TermId) -> Option<Region> {
        self.scan(terms);
        let sort = terms.sort(root);
        let tt = terms.mk_true();
        let ff = terms.mk_false();
        let mut value_paths: Vec<(Num, Vec<TermId>)> = Vec::new();
        let mut by_value: HashMap<Num, usize> = HashMap::default();
        let mut other_paths: Vec<(TermId, Vec<TermId>)> = Vec::new();
        let mut by_other: HashMap<TermId, usize> = HashMap::default();
        let mut stack = vec![(root, tt)];
        let mut made = 0usize;
        while let Some((t, p)) = stack.pop() {
            if t == root || (Self::is_arith_ite(terms, t) && !self.is_root(t)) {
                let node = terms.node(t);
                if *node.op == Op::Ite {
                    let (c, x, y) = (node.args[0], node.args[1], node.args[2]);
                    let nc = terms.mk_not(c);
                    let px = and2(terms, p, c);
                    let py = and2(terms, p, nc);
                    made += 2;
                    if py != ff {
                        stack.push((y, py));
                    }
                    if px != ff {
                        stack.push((x, px));
                    }
                    continue;
                }
            }
            made += 1;
            if let Some(v) = const_value(terms, t) {
                let i = *by_value.entry(v.clone()).or_insert_with(|| {
                    value_paths.push((v, Vec::new()));
                    value_paths.len() - 1
                });
                value_paths[i].1.push(p);
            } else {
                let i = *by_other.entry(t).or_insert_with(|| {
                    other_paths.push((t, Vec::new()));
                    other_paths.len() - 1
                });
                other_paths[i].1.push(p);
            }
        }
        self.nodes += made;
        if self.nodes > self.total {
            return None;
        }
        self.regions_built += 1;
        let values = value_paths
            .into_iter()
            .map(|(v, ps)| (v, or_n(terms, ps)))
            .collect();
        let others = other_paths
            .into_iter()
            .map(|(l, ps)| (l, or_n(terms, ps)))
            .collect();
        Some(Region {
            sort,
            values,
            by_value,
            others,
        })
    }

    /// The value of `pred` on every leaf of the region root `t` when they all agree.
    fn decided(&self, t: TermId, pred: &Pred) -> Option<bool> {
        match self.leaves.get(&t)? {
            Leaves::Set(s) => {
                let mut it = s.iter().map(|v| pred.holds(v));
                let first = it.next()??;
                it.all(|h| h == Some(first)).then_some(first)
            }
            _ => None,
        }
    }

    /// `pred` on the `ite` tree `root`: the disjunction, over the leaves of its region, of
    /// "this leaf is selected and satisfies `pred`" (a shared `ite` leaf gets the atom
    /// `leaf ⋈ other`, lifted again when the CNF conversion meets it).
    fn lift(&mut self, terms: &mut Terms, root: TermId, pred: &Pred) -> Option<TermId> {
        self.scan(terms);
        self.prepare(terms, root)?;
        if let Some(b) = self.decided(root, pred) {
            return Some(if b { terms.mk_true() } else { terms.mk_false() });
        }
        let region = self.regions.get(&root)?.clone();
        let (tt, ff) = (terms.mk_true(), terms.mk_false());
        let mut disj: Vec<TermId> = Vec::new();
        let mut push = |terms: &mut Terms, sel: TermId, a: TermId| {
            if a == tt {
                disj.push(sel);
            } else if a != ff {
                disj.push(and2(terms, sel, a));
            }
        };
        match &pred.k {
            Some(k) if pred.rel == Rel::Eq => {
                if let Some(&i) = region.by_value.get(k) {
                    push(terms, region.values[i].1, tt);
                }
            }
            _ => {
                if region.values.len() + region.others.len() > self.per_atom {
                    return None;
                }
                for (v, sel) in &region.values {
                    let a = match pred.holds(v) {
                        Some(true) => tt,
                        Some(false) => ff,
                        None => {
                            let vc = terms.mk_const(v.clone(), region.sort);
                            pred.atom(terms, vc)
                        }
                    };
                    push(terms, *sel, a);
                }
            }
        }
        for &(leaf, sel) in &region.others {
            let a = match self.decided(leaf, pred) {
                Some(true) => tt,
                Some(false) => ff,
                None => pred.atom(terms, leaf),
            };
            push(terms, sel, a);
        }
        self.nodes += disj.len() + 1;
        if disj.len() > self.per_atom || self.nodes > self.total {
            return None;
        }
        Some(or_n(terms, disj))
    }
}

/// `p ∧ c`, folded when either is a constant.
fn and2(terms: &mut Terms, p: TermId, c: TermId) -> TermId {
    let (tt, ff) = (terms.mk_true(), terms.mk_false());
    if p == tt {
        c
    } else if c == tt {
        p
    } else if p == ff || c == ff {
        ff
    } else if p == c {
        p
    } else {
        terms.mk(Op::And, vec![p, c], Sort::Bool)
    }
}

/// The disjunction of `ts` (false when empty, folded when one is true).
fn or_n(terms: &mut Terms, mut ts: Vec<TermId>) -> TermId {
    let (tt, ff) = (terms.mk_true(), terms.mk_false());
    ts.retain(|&t| t != ff);
    ts.sort();
    ts.dedup();
    if ts.contains(&tt) {
        return tt;
    }
    match ts.len() {
        0 => ff,
        1 => ts[0],
        _ => terms.mk(Op::Or, ts, Sort::Bool),
    }
}

/// The value of a constant arithmetic expression (numerals under `+`, `-`, `*`, `to_real`).
fn const_value(terms: &Terms, t: TermId) -> Option<Num> {
    let nd = terms.node(t);
    match &nd.op {
        Op::Const(c) => Some(c.clone()),
        Op::Neg => const_value(terms, nd.args[0]).map(|c| c.neg()),
        Op::ToReal => const_value(terms, nd.args[0]),
        Op::Add => {
            let mut s = Num::ZERO;
            for &a in nd.args.iter() {
                s = s.add(&const_value(terms, a)?);
            }
            Some(s)
        }
        Op::Mul => {
            let mut s = Num::ONE;
            for &a in nd.args.iter() {
                s = s.mul(&const_value(terms, a)?);
            }
            Some(s)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{eval, Value};
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// A random `ite` tree: `Leaf(v)` a constant, `IntVar(i)` an integer variable,
    /// `Node(c, a, b)` with `c` a Boolean variable index or an atom comparing a sub-tree with a
    /// constant.
    #[derive(Clone, Debug)]
    enum Tree {
        Leaf(i64),
        IntVar(u32),
        Node(Cond, Box<Tree>, Box<Tree>),
    }
    #[derive(Clone, Debug)]
    enum Cond {
        Var(u32),
        Atom(u8, Box<Tree>, i64),
    }

    fn tree() -> impl Strategy<Value = Tree> {
        let leaf = prop_oneof![
            3 => (-3i64..4).prop_map(Tree::Leaf),
            1 => (0u32..2).prop_map(Tree::IntVar),
        ];
        leaf.prop_recursive(5, 40, 3, |inner| {
            let cond = prop_oneof![
                3 => (0u32..4).prop_map(Cond::Var),
                1 => (0u8..3, inner.clone(), -3i64..4)
                    .prop_map(|(r, t, k)| Cond::Atom(r, Box::new(t), k)),
            ];
            (cond, inner.clone(), inner)
                .prop_map(|(c, a, b)| Tree::Node(c, Box::new(a), Box::new(b)))
        })
    }

    fn atom(terms: &mut Terms, r: u8, a: TermId, b: TermId) -> TermId {
        let op = match r {
            0 => Op::Eq,
            1 => Op::Le,
            _ => Op::Lt,
        };
        terms.mk(op, vec![a, b], Sort::Bool)
    }

    /// Builds the tree; leaves are sometimes written `(+ v 0)` as the nec-smt files do.
    fn build(terms: &mut Terms, vars: &[TermId], t: &Tree) -> TermId {
        match t {
            Tree::Leaf(v) => {
                let c = terms.mk_const(Num::int(*v), Sort::Int);
                if v % 2 == 0 {
                    let z = terms.mk_const(Num::ZERO, Sort::Int);
                    terms.mk(Op::Add, vec![c, z], Sort::Int)
                } else {
                    c
                }
            }
            Tree::IntVar(i) => vars[4 + *i as usize],
            Tree::Node(c, a, b) => {
                let ct = match c {
                    Cond::Var(i) => vars[*i as usize],
                    Cond::Atom(r, s, k) => {
                        let st = build(terms, vars, s);
                        let kt = terms.mk_const(Num::int(*k), Sort::Int);
                        atom(terms, *r, st, kt)
                    }
                };
                let at = build(terms, vars, a);
                let bt = build(terms, vars, b);
                terms.mk(Op::Ite, vec![ct, at, bt], Sort::Int)
            }
        }
    }

    /// Lifts every atom in the DAG of `t` (as the CNF conversion does when it meets them).
    fn lift_all(terms: &mut Terms, lift: &mut IteLift, t: TermId) -> TermId {
        let node = terms.node(t).owned();
        let args: Vec<TermId> = node
            .args
            .iter()
            .map(|&a| lift_all(terms, lift, a))
            .collect();
        let t2 = if args.is_empty() {
            t
        } else {
            terms.mk(node.op.clone(), args, node.sort)
        };
        match terms.node(t2).op {
            Op::Eq | Op::Le | Op::Lt => match lift.lift_atom(terms, t2) {
                Some(b) => lift_all(terms, lift, b),
                None => t2,
            },
            _ => t2,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// The lifted Boolean term equals the original atom under every assignment of the
        /// Boolean variables and of the integer variables over a few values (brute force); the
        /// other side is a constant, or a second tree.
        #[test]
        fn lifting_is_exact(
            t in tree(), r in 0u8..3, k in -3i64..4, o in tree(), use_o in 0u8..3,
            swap in any::<bool>(),
        ) {
            let mut terms = Terms::new();
            let mut vars: Vec<TermId> =
                (0..4).map(|i| terms.declare(&format!("p{i}"), Sort::Bool)).collect();
            vars.extend((0..2).map(|i| terms.declare(&format!("x{i}"), Sort::Int)));
            let tt = build(&mut terms, &vars, &t);
            let kt = if use_o == 0 {
                build(&mut terms, &vars, &o)
            } else {
                terms.mk_const(Num::int(k), Sort::Int)
            };
            let a = if swap { atom(&mut terms, r, kt, tt) } else { atom(&mut terms, r, tt, kt) };
            let mut lift = IteLift::new();
            let b = lift_all(&mut terms, &mut lift, a);
            for m in 0..16 * 9u32 {
                let f = |i: u32| match i {
                    0..=3 => Value::Bool((m % 16) >> i & 1 == 1),
                    4 => Value::Num(Num::int([-1, 0, 2][(m / 16 % 3) as usize])),
                    _ => Value::Num(Num::int([-1, 0, 2][(m / 48) as usize])),
                };
                let va = eval(&terms, a, &f, &mut HashMap::new());
                let vb = eval(&terms, b, &f, &mut HashMap::new());
                prop_assert_eq!(va, vb);
            }
            {
                // every atom with an ite on exactly one side was rewritten (atoms between two
                // ite trees are left to linearisation)
                let mut stack = vec![b];
                while let Some(x) = stack.pop() {
                    let n = terms.node(x);
                    if matches!(n.op, Op::Eq | Op::Le | Op::Lt) {
                        let ites = n.args.iter().filter(|&&a| *terms.node(a).op == Op::Ite).count();
                        prop_assert!(ites != 1, "atom left");
                    }
                    stack.extend(n.args.iter().copied());
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// The definitions of a variable standing for an `ite` tree (one per region, with the
        /// leaf bounds when all leaves are constants) hold exactly when the variable equals the
        /// tree's value, under every assignment (brute force over a few candidate values).
        #[test]
        fn variable_definitions_are_exact(t in tree(), shared in tree()) {
            let mut terms = Terms::new();
            let mut vars: Vec<TermId> =
                (0..4).map(|i| terms.declare(&format!("p{i}"), Sort::Bool)).collect();
            vars.extend((0..2).map(|i| terms.declare(&format!("x{i}"), Sort::Int)));
            let v = terms.declare("v", Sort::Int);
            let tt = build(&mut terms, &vars, &t);
            // a second tree sharing sub-terms with the first (so some become region roots)
            let st = build(&mut terms, &vars, &shared);
            let one = terms.mk_const(Num::ONE, Sort::Int);
            let _sum = terms.mk(Op::Add, vec![st, one], Sort::Int);
            prop_assume!(*terms.node(tt).op == Op::Ite);
            let mut lift = IteLift::new();
            let defs = lift.define_var(&mut terms, tt, v).expect("within the caps");
            for m in 0..16 * 9u32 {
                let base = |i: u32| match i {
                    0..=3 => Value::Bool((m % 16) >> i & 1 == 1),
                    4 => Value::Num(Num::int([-1, 0, 2][(m / 16 % 3) as usize])),
                    _ => Value::Num(Num::int([-1, 0, 2][(m / 48) as usize])),
                };
                let tv = match eval(&terms, tt, &base, &mut HashMap::new()) {
                    Value::Num(n) => n,
                    other => panic!("tree value {other:?}"),
                };
                for d in -2i64..=2 {
                    let w = tv.add(&Num::int(d));
                    let f = |i: u32| if i == 6 { Value::Num(w.clone()) } else { base(i) };
                    let mut memo = HashMap::new();
                    let all = defs
                        .iter()
                        .all(|&x| eval(&terms, x, &f, &mut memo) == Value::Bool(true));
                    prop_assert_eq!(all, d == 0);
                }
            }
        }
    }

    #[test]
    fn deep_chain_lifts_and_cap_falls_back() {
        // ite chains over distinct constants: 6000 deep lifts into one disjunction of path
        // conjunctions; with a per-atom cap of 1000 disjuncts the `<=` atom is left to
        // linearisation, the `=` atom (one value) still lifts.
        for (cap, lifted) in [(PER_ATOM, true), (1_000, false)] {
            let n = 6_000i64;
            let mut terms = Terms::new();
            let mut t = terms.mk_const(Num::int(-1), Sort::Int);
            let mut ps = Vec::new();
            for i in 0..n {
                let p = terms.declare(&format!("p{i}"), Sort::Bool);
                ps.push(p);
                let c = terms.mk_const(Num::int(i), Sort::Int);
                t = terms.mk(Op::Ite, vec![p, c, t], Sort::Int);
            }
            let k = terms.mk_const(Num::int(n / 2), Sort::Int);
            let le = terms.mk(Op::Le, vec![t, k], Sort::Bool);
            let eq = terms.mk(Op::Eq, vec![t, k], Sort::Bool);
            let mut lift = IteLift::with_caps(cap, TOTAL);
            let b = lift.lift_atom(&mut terms, le);
            assert_eq!(b.is_some(), lifted);
            let e = lift.lift_atom(&mut terms, eq).expect("one value lifts");
            assert_eq!(lift.lifted_atoms + lift.capped_atoms, 2);
            assert_eq!(lift.regions_built, 1);
            // the outermost ite is the last one built: the largest true condition selects the
            // value (the ones below it, every seventh, are shadowed)
            for top in [
                None,
                Some(0usize),
                Some(1),
                Some(2_999),
                Some(3_000),
                Some(5_999),
            ] {
                let f = |i: u32| {
                    let i = i as usize;
                    Value::Bool(top.is_some_and(|j| i == j || i < j && i % 7 == 3))
                };
                let value = top.map_or(-1, |j| j as i64);
                let mut m = HashMap::new();
                assert_eq!(eval(&terms, e, &f, &mut m), Value::Bool(value == n / 2));
                if let Some(b) = b {
                    assert_eq!(eval(&terms, b, &f, &mut m), Value::Bool(value <= n / 2));
                }
            }
        }
    }

    #[test]
    fn solver_models_and_values_of_lifted_ites() {
        use crate::solver::Solver;
        use verikit_sat::SatResult;
        let mut s = Solver::new();
        let p = s.declare("p", Sort::Bool);
        let q = s.declare("q", Sort::Bool);
        let x = s.declare("x", Sort::Int);
        let t = &mut s.terms;
        let (c3, c5, c7, c0) = (
            t.mk_const(Num::int(3), Sort::Int),
            t.mk_const(Num::int(5), Sort::Int),
            t.mk_const(Num::int(7), Sort::Int),
            t.mk_const(Num::ZERO, Sort::Int),
        );
        let i1 = t.mk(Op::Ite, vec![p, c3, c5], Sort::Int);
        let a1 = t.mk(Op::Eq, vec![i1, c5], Sort::Bool);
        let i2 = t.mk(Op::Ite, vec![q, x, c7], Sort::Int);
        let a2 = t.mk(Op::Le, vec![i2, c0], Sort::Bool);
        let a3 = t.mk(Op::Lt, vec![c0, x], Sort::Bool); // 0 < x
        s.assert(a1);
        s.assert(a2);
        assert_eq!(s.check(&[]), SatResult::Sat);
        assert_eq!(s.validate_model(&[]), Some(vec![]));
        let mut memo = HashMap::new();
        assert_eq!(s.model_value(i1, &mut memo), Some(Value::Num(Num::int(5))));
        assert_eq!(s.model_value(p, &mut memo), Some(Value::Bool(false)));
        assert_eq!(s.model_value(q, &mut memo), Some(Value::Bool(true)));
        match s.model_value(i2, &mut memo) {
            Some(Value::Num(v)) => assert!(v <= Num::ZERO),
            other => panic!("value of the ite: {other:?}"),
        }
        s.assert(a3);
        assert_eq!(s.check(&[]), SatResult::Unsat);
    }
}
