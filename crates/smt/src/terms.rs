//! Hash-consed terms of the SMT-LIB core and arithmetic theories (the fragment the four logics
//! QF_LRA, QF_RDL, QF_LIA, QF_IDL use). Structurally equal terms share one `TermId`, so CNF
//! conversion and linearisation are computed once per distinct sub-term. The store is an arena
//! keyed by id (decision 0229): each term's key lives once, in its slot.

use hashbrown::HashTable;
use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};
use verikit_num::Num;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct TermId(pub u32);

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Sort {
    Bool,
    Int,
    Real,
}

impl Sort {
    pub fn name(self) -> &'static str {
        match self {
            Sort::Bool => "Bool",
            Sort::Int => "Int",
            Sort::Real => "Real",
        }
    }
    pub fn is_arith(self) -> bool {
        self != Sort::Bool
    }
}

/// Operators. `>=`/`>` are stored as `Le`/`Lt` with swapped arguments, `-` as `Add`+`Neg`,
/// chains and `distinct` are expanded into conjunctions by the elaborator.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    True,
    False,
    /// A numeral or decimal constant of the node's sort.
    Const(Num),
    /// A declared constant (index into `Terms::vars`).
    Var(u32),
    Not,
    And,
    Or,
    Xor,
    Implies,
    /// Equality of Booleans.
    Iff,
    Ite,
    Add,
    Neg,
    Mul,
    /// Real division `/`.
    Div,
    /// Integer `div` and `mod` (Euclidean, as in the SMT-LIB Ints theory) and `abs`.
    IntDiv,
    Mod,
    Abs,
    Le,
    Lt,
    /// Equality of two arithmetic terms.
    Eq,
    ToReal,
    ToInt,
    IsInt,
}

/// A term as the store holds it: the operator, the sort, and where its arguments start in the
/// shared argument array (they end where the next term's start).
#[derive(Clone, Debug)]
struct Slot {
    op: Op,
    sort: Sort,
    start: u32,
    hash: u64,
}

/// A term's operator, arguments and sort, borrowed from the store.
#[derive(Clone, Copy, Debug)]
pub struct Node<'a> {
    pub op: &'a Op,
    pub args: &'a [TermId],
    pub sort: Sort,
}

impl Node<'_> {
    /// A copy that does not borrow the store (for code that creates terms while it reads one).
    pub fn owned(&self) -> OwnedNode {
        OwnedNode {
            op: self.op.clone(),
            args: self.args.to_vec(),
            sort: self.sort,
        }
    }
}

/// A term's operator, arguments and sort, copied out of the store.
#[derive(Clone, Debug)]
pub struct OwnedNode {
    pub op: Op,
    pub args: Vec<TermId>,
    pub sort: Sort,
}

/// The term store: an arena of terms (one slot each, the arguments of all terms in one array)
/// and a hash table of term ids whose hashing and equality look into the arena, so a term's
/// key is stored once and a store of millions of terms is a handful of allocations (built and
/// freed in bulk).
#[derive(Default, Clone, Debug)]
pub struct Terms {
    slots: Vec<Slot>,
    args: Vec<TermId>,
    table: HashTable<TermId>,
    /// Declared constants: name and sort.
    pub vars: Vec<(String, Sort)>,
}

fn key_hash(op: &Op, args: &[TermId], sort: Sort) -> u64 {
    let mut h = FxHasher::default();
    op.hash(&mut h);
    args.hash(&mut h);
    (sort as u8).hash(&mut h);
    h.finish()
}

impl Terms {
    pub fn new() -> Terms {
        Terms::default()
    }
    fn args_of(&self, i: usize) -> &[TermId] {
        let start = self.slots.get(i).map_or(0, |s| s.start as usize);
        let end = self
            .slots
            .get(i + 1)
            .map_or(self.args.len(), |s| s.start as usize);
        &self.args[start..end]
    }
    pub fn node(&self, t: TermId) -> Node<'_> {
        let i = t.0 as usize;
        let s = &self.slots[i];
        Node {
            op: &s.op,
            args: self.args_of(i),
            sort: s.sort,
        }
    }
    pub fn sort(&self, t: TermId) -> Sort {
        self.slots[t.0 as usize].sort
    }
    pub fn len(&self) -> usize {
        self.slots.len()
    }
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
    /// The entry of the table holding the term `(op, args, sort)`, if any.
    fn find(&self, hash: u64, op: &Op, args: &[TermId], sort: Sort) -> Option<TermId> {
        self.table
            .find(hash, |&t| {
                let i = t.0 as usize;
                let s = &self.slots[i];
                s.hash == hash && s.sort == sort && s.op == *op && self.args_of(i) == args
            })
            .copied()
    }
    pub fn mk(&mut self, op: Op, args: Vec<TermId>, sort: Sort) -> TermId {
        let hash = key_hash(&op, &args, sort);
        if let Some(t) = self.find(hash, &op, &args, sort) {
            return t;
        }
        let id = TermId(self.slots.len() as u32);
        self.slots.push(Slot {
            op,
            sort,
            start: self.args.len() as u32,
            hash,
        });
        self.args.extend_from_slice(&args);
        let slots = &self.slots;
        self.table
            .insert_unique(hash, id, |t| slots[t.0 as usize].hash);
        id
    }
    /// The id of an existing term, without creating it.
    pub fn lookup(&self, op: Op, args: Vec<TermId>, sort: Sort) -> Option<TermId> {
        self.find(key_hash(&op, &args, sort), &op, &args, sort)
    }
    pub fn mk_true(&mut self) -> TermId {
        self.mk(Op::True, vec![], Sort::Bool)
    }
    pub fn mk_false(&mut self) -> TermId {
        self.mk(Op::False, vec![], Sort::Bool)
    }
    pub fn mk_const(&mut self, n: Num, sort: Sort) -> TermId {
        self.mk(Op::Const(n), vec![], sort)
    }
    pub fn mk_not(&mut self, a: TermId) -> TermId {
        if let Op::Not = self.node(a).op {
            return self.node(a).args[0];
        }
        self.mk(Op::Not, vec![a], Sort::Bool)
    }
    /// Declares a fresh constant and returns its term.
    pub fn declare(&mut self, name: &str, sort: Sort) -> TermId {
        let i = self.vars.len() as u32;
        self.vars.push((name.to_string(), sort));
        self.mk(Op::Var(i), vec![], sort)
    }
    pub fn var_term(&mut self, i: u32) -> TermId {
        let s = self.vars[i as usize].1;
        self.mk(Op::Var(i), vec![], s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    fn op_of(k: u8) -> Op {
        match k % 6 {
            0 => Op::And,
            1 => Op::Or,
            2 => Op::Add,
            3 => Op::Ite,
            4 => Op::Const(Num::integer(i128::from(k))),
            _ => Op::Var(u32::from(k)),
        }
    }

    proptest! {
        /// Against a map from the whole key to the id: equal keys give the same id, different
        /// keys different ids, and every term reads back as it was made.
        #[test]
        fn hash_consing_matches_a_map_of_keys(
            keys in prop::collection::vec((0u8..12, prop::collection::vec(0u32..40, 0..4), any::<bool>()), 1..300)
        ) {
            let mut terms = Terms::new();
            let mut oracle: HashMap<(Op, Vec<TermId>, Sort), TermId> = HashMap::new();
            for (k, args, real) in keys {
                let op = op_of(k);
                let args: Vec<TermId> = args
                    .into_iter()
                    .map(|a| TermId(a % (terms.len() as u32).max(1)))
                    .filter(|_| !terms.is_empty())
                    .collect();
                let sort = if real { Sort::Real } else { Sort::Int };
                let key = (op.clone(), args.clone(), sort);
                let before = terms.lookup(op.clone(), args.clone(), sort);
                prop_assert_eq!(before, oracle.get(&key).copied());
                let t = terms.mk(op.clone(), args.clone(), sort);
                let expected = *oracle.entry(key).or_insert(t);
                prop_assert_eq!(t, expected);
                prop_assert_eq!(terms.len(), oracle.len());
                let n = terms.node(t);
                prop_assert_eq!(n.op, &op);
                prop_assert_eq!(n.args, &args[..]);
                prop_assert_eq!(n.sort, sort);
            }
            for ((op, args, sort), t) in &oracle {
                let n = terms.node(*t);
                prop_assert_eq!(n.op, op);
                prop_assert_eq!(n.args, &args[..]);
                prop_assert_eq!(n.sort, *sort);
            }
        }
    }

    #[test]
    fn a_clone_shares_nothing_with_the_original() {
        let mut a = Terms::new();
        let x = a.declare("x", Sort::Int);
        let mut b = a.clone();
        let y = b.declare("y", Sort::Int);
        let s = b.mk(Op::Add, vec![x, y], Sort::Int);
        assert_eq!(a.len(), 1);
        assert_eq!(b.node(s).args, &[x, y][..]);
        assert_eq!(a.lookup(Op::Add, vec![x, y], Sort::Int), None);
        assert_eq!(b.lookup(Op::Add, vec![x, y], Sort::Int), Some(s));
    }
}
