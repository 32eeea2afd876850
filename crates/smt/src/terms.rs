//! Hash-consed terms of the SMT-LIB core and arithmetic theories (the fragment the four logics
//! QF_LRA, QF_RDL, QF_LIA, QF_IDL use). Structurally equal terms share one `TermId`, so CNF
//! conversion and linearisation are computed once per distinct sub-term.

use rustc_hash::FxHashMap;
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

#[derive(Clone, Debug)]
pub struct Node {
    pub op: Op,
    pub args: Box<[TermId]>,
    pub sort: Sort,
}

/// The term store.
#[derive(Default, Clone, Debug)]
pub struct Terms {
    nodes: Vec<Node>,
    map: FxHashMap<(Op, Box<[TermId]>, SortKey), TermId>,
    /// Declared constants: name and sort.
    pub vars: Vec<(String, Sort)>,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct SortKey(u8);

impl Terms {
    pub fn new() -> Terms {
        Terms::default()
    }
    pub fn node(&self, t: TermId) -> &Node {
        &self.nodes[t.0 as usize]
    }
    pub fn sort(&self, t: TermId) -> Sort {
        self.nodes[t.0 as usize].sort
    }
    pub fn len(&self) -> usize {
        self.nodes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
    pub fn mk(&mut self, op: Op, args: Vec<TermId>, sort: Sort) -> TermId {
        let args: Box<[TermId]> = args.into_boxed_slice();
        let key = (op, args, SortKey(sort as u8));
        if let Some(&t) = self.map.get(&key) {
            return t;
        }
        let id = TermId(self.nodes.len() as u32);
        self.nodes.push(Node {
            op: key.0.clone(),
            args: key.1.clone(),
            sort,
        });
        self.map.insert(key, id);
        id
    }
    /// The id of an existing term, without creating it.
    pub fn lookup(&self, op: Op, args: Vec<TermId>, sort: Sort) -> Option<TermId> {
        self.map
            .get(&(op, args.into_boxed_slice(), SortKey(sort as u8)))
            .copied()
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
