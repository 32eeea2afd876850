//! Lifting of arithmetic relations over term-level `ite` trees with constant leaves, a rewrite of
//! the preprocessing step that precedes the simplex of Dutertre & de Moura, "A Fast
//! Linear-Arithmetic Solver for DPLL(T)" (CAV 2006, Section 3: atoms become bounds on linear
//! terms). Yices and z3 apply it before linearisation: an atom `(⋈ (ite c a b) k)` with a
//! constant `k` becomes `(ite c (⋈ a k) (⋈ b k))`, recursively through nested `ite` whose leaves
//! are constants, and folds to Boolean structure over the conditions instead of one fresh
//! arithmetic variable with two equality atoms per `ite` (the encoding of `linearize`). A leaf
//! that is not a constant (a variable, a linear term) becomes the ordinary atom `leaf ⋈ k`; the
//! other side may be any term without a top-level `ite` (two `ite` sides are left to
//! linearisation: pushing one into the other multiplies their sizes).
//!
//! Results are hash-consed per (sub-term, relation, constant), so a shared sub-term is lifted once
//! per relation; each sub-term's set of leaf values (when small) decides the relation outright
//! for whole sub-trees. Sizes are capped per atom and in total: past a cap the atom is linearised
//! as before, so the rewrite changes the encoding, never the meaning. Models are still validated
//! against the original assertions (the rewrite happens during CNF conversion only).

use crate::numbers::Num;
use crate::terms::{Op, Sort, TermId, Terms};
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

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

/// What is known of the leaves of an arithmetic term (a term other than `ite` is its own leaf).
#[derive(Clone)]
enum Leaves {
    /// Some leaf is not a constant, or there are more than [`MAX_TRACKED`] distinct values.
    Many,
    /// A constant, or an `ite` tree over constants with these leaf values.
    Set(Rc<BTreeSet<Num>>),
}

/// Leaf values tracked per sub-term (beyond this only the tree shape is kept).
const MAX_TRACKED: usize = 64;
/// New lifted nodes allowed for one atom before it falls back to linearisation.
const PER_ATOM: usize = 5_000;
/// New lifted nodes allowed in total.
const TOTAL: usize = 200_000;

#[derive(Default)]
pub struct IteLift {
    leaves: HashMap<TermId, Leaves>,
    memo: HashMap<(TermId, Pred), TermId>,
    /// Atoms rewritten into Boolean structure.
    pub lifted_atoms: u64,
    /// Atoms over `ite` trees left to linearisation because a size cap was hit.
    pub capped_atoms: u64,
    nodes: usize,
}

impl IteLift {
    pub fn new() -> IteLift {
        IteLift::default()
    }

    /// The Boolean term equivalent to the arithmetic atom `atom` (`=`, `<=`, `<` with an `ite`
    /// on one side) with the relation pushed to the leaves of the `ite` tree, or `None` when the
    /// atom is not of that shape or the rewrite would exceed its size caps.
    pub fn lift_atom(&mut self, terms: &mut Terms, atom: TermId) -> Option<TermId> {
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
        let is_ite = |t: TermId| terms.node(t).op == Op::Ite;
        // Both sides `ite`: pushing one into the other multiplies their sizes; linearised.
        let (tree, other, flip) = match (is_ite(a), is_ite(b)) {
            (true, false) => (a, b, false),
            (false, true) => (b, a, rel != Rel::Eq),
            _ => return None,
        };
        let k = const_value(terms, other);
        self.leaves_of(terms, tree);
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

    /// The leaf information of `root` (iteratively, post-order: `ite` trees may be deep).
    fn leaves_of(&mut self, terms: &Terms, root: TermId) -> Leaves {
        let mut stack = vec![(root, false)];
        while let Some((t, expanded)) = stack.pop() {
            if self.leaves.contains_key(&t) {
                continue;
            }
            let node = terms.node(t);
            if node.op != Op::Ite || !node.sort.is_arith() {
                let l = match const_value(terms, t) {
                    Some(c) => Leaves::Set(Rc::new(BTreeSet::from([c]))),
                    None => Leaves::Many,
                };
                self.leaves.insert(t, l);
                continue;
            }
            let (x, y) = (node.args[1], node.args[2]);
            if !expanded {
                stack.push((t, true));
                stack.push((x, false));
                stack.push((y, false));
                continue;
            }
            let l = match (self.leaves.get(&x), self.leaves.get(&y)) {
                (Some(Leaves::Set(s)), Some(Leaves::Set(u))) => {
                    if Rc::ptr_eq(s, u) || s.is_superset(u) {
                        Leaves::Set(s.clone())
                    } else if u.is_superset(s) {
                        Leaves::Set(u.clone())
                    } else {
                        let m: BTreeSet<Num> = s.union(u).cloned().collect();
                        if m.len() > MAX_TRACKED {
                            Leaves::Many
                        } else {
                            Leaves::Set(Rc::new(m))
                        }
                    }
                }
                _ => Leaves::Many,
            };
            self.leaves.insert(t, l);
        }
        self.leaves.get(&root).cloned().unwrap_or(Leaves::Many)
    }

    /// The value of `pred` on every leaf of `t` when they all agree.
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

    /// `pred` pushed through the `ite` tree `root` (whose leaves are known constants).
    fn lift(&mut self, terms: &mut Terms, root: TermId, pred: &Pred) -> Option<TermId> {
        let mut visited = 0usize;
        let mut stack = vec![(root, false)];
        while let Some((t, expanded)) = stack.pop() {
            let key = (t, pred.clone());
            if self.memo.contains_key(&key) {
                continue;
            }
            if let Some(b) = self.decided(t, pred) {
                let r = if b { terms.mk_true() } else { terms.mk_false() };
                self.memo.insert(key, r);
                continue;
            }
            let node = terms.node(t);
            if node.op != Op::Ite {
                // a leaf: the relation on it is an ordinary atom (lifted again if `other` is an
                // `ite`, within the same caps)
                let r = pred.atom(terms, t);
                self.memo.insert(key, r);
                continue;
            }
            let (c, x, y) = (node.args[0], node.args[1], node.args[2]);
            if !expanded {
                visited += 1;
                if visited > PER_ATOM || self.nodes + visited > TOTAL {
                    return None;
                }
                stack.push((t, true));
                stack.push((x, false));
                stack.push((y, false));
                continue;
            }
            let rx = *self.memo.get(&(x, pred.clone()))?;
            let ry = *self.memo.get(&(y, pred.clone()))?;
            let r = bool_ite(terms, c, rx, ry);
            self.nodes += 1;
            self.memo.insert(key, r);
        }
        self.memo.get(&(root, pred.clone())).copied()
    }
}

/// `ite c x y` over Booleans, folded when a branch is a constant or both are equal.
fn bool_ite(terms: &mut Terms, c: TermId, x: TermId, y: TermId) -> TermId {
    let t = terms.mk_true();
    let f = terms.mk_false();
    if x == y {
        x
    } else if x == t && y == f {
        c
    } else if x == f && y == t {
        terms.mk_not(c)
    } else if x == t {
        terms.mk(Op::Or, vec![c, y], Sort::Bool)
    } else if x == f {
        let nc = terms.mk_not(c);
        terms.mk(Op::And, vec![nc, y], Sort::Bool)
    } else if y == t {
        let nc = terms.mk_not(c);
        terms.mk(Op::Or, vec![nc, x], Sort::Bool)
    } else if y == f {
        terms.mk(Op::And, vec![c, x], Sort::Bool)
    } else {
        terms.mk(Op::Ite, vec![c, x, y], Sort::Bool)
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
        let node = terms.node(t).clone();
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
                        let ites = n.args.iter().filter(|&&a| terms.node(a).op == Op::Ite).count();
                        prop_assert!(ites != 1, "atom left");
                    }
                    stack.extend(n.args.iter().copied());
                }
            }
        }
    }

    #[test]
    fn deep_chain_lifts_and_cap_falls_back() {
        // ite chains over distinct constants: 3000 deep lifts (within the per-atom cap); 60000
        // deep exceeds it and is left to linearisation.
        for (n, lifted) in [(3000i64, true), (6_000, false)] {
            let mut terms = Terms::new();
            let mut t = terms.mk_const(Num::int(-1), Sort::Int);
            for i in 0..n {
                let p = terms.declare(&format!("p{i}"), Sort::Bool);
                let c = terms.mk_const(Num::int(i), Sort::Int);
                t = terms.mk(Op::Ite, vec![p, c, t], Sort::Int);
            }
            let k = terms.mk_const(Num::int(n / 2), Sort::Int);
            let a = terms.mk(Op::Le, vec![t, k], Sort::Bool);
            let mut lift = IteLift::new();
            let b = lift.lift_atom(&mut terms, a);
            assert_eq!(b.is_some(), lifted);
            assert_eq!(lift.lifted_atoms + lift.capped_atoms, 1);
            if let Some(b) = b {
                assert_eq!(terms.node(b).sort, Sort::Bool);
            }
        }
    }

    #[test]
    fn solver_models_and_values_of_lifted_ites() {
        use crate::cdcl::Answer;
        use crate::solver::Solver;
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
        assert_eq!(s.check(&[]), Answer::Sat);
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
        assert_eq!(s.check(&[]), Answer::Unsat);
    }
}
