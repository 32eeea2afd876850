//! Linearisation (the preprocessing of Dutertre & de Moura, "A Fast Linear-Arithmetic Solver for
//! DPLL(T)", CAV 2006, Section 3): every arithmetic term becomes `Σ a_i x_i + c` over problem
//! variables; every atom `t ⋈ c` later gets one slack variable per distinct (normalised) linear
//! term `t`, so atoms become bounds on a single variable.
//!
//! Term-level `ite`, `to_int`, `div`, `mod` and `abs` are replaced by fresh variables with
//! definitional side constraints (returned as Boolean terms for the CNF conversion).

use crate::numbers::Num;
use crate::terms::{Op, Sort, TermId, Terms};
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

/// A linear form `Σ a_i x_i + c` (variables are indices of `Terms::vars`, sorted, non-zero).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lin {
    pub terms: Vec<(u32, Num)>,
    pub c: Num,
}

impl Lin {
    pub fn constant(c: Num) -> Lin {
        Lin {
            terms: Vec::new(),
            c,
        }
    }
    pub fn var(x: u32) -> Lin {
        Lin {
            terms: vec![(x, Num::ONE)],
            c: Num::ZERO,
        }
    }
    pub fn scale(&self, a: &Num) -> Lin {
        if a.is_zero() {
            return Lin::constant(Num::ZERO);
        }
        Lin {
            terms: self.terms.iter().map(|(x, b)| (*x, b.mul(a))).collect(),
            c: self.c.mul(a),
        }
    }
    pub fn add(&self, o: &Lin) -> Lin {
        let mut m: BTreeMap<u32, Num> = self.terms.iter().cloned().collect();
        for (x, b) in &o.terms {
            let e = m.entry(*x).or_insert(Num::ZERO);
            *e = e.add(b);
        }
        Lin {
            terms: m.into_iter().filter(|(_, a)| !a.is_zero()).collect(),
            c: self.c.add(&o.c),
        }
    }
    pub fn sum(parts: &[Lin]) -> Lin {
        let mut m: BTreeMap<u32, Num> = BTreeMap::new();
        let mut c = Num::ZERO;
        for p in parts {
            for (x, b) in &p.terms {
                let e = m.entry(*x).or_insert(Num::ZERO);
                *e = e.add(b);
            }
            c = c.add(&p.c);
        }
        Lin {
            terms: m.into_iter().filter(|(_, a)| !a.is_zero()).collect(),
            c,
        }
    }
    pub fn sub(&self, o: &Lin) -> Lin {
        self.add(&o.scale(&Num::int(-1)))
    }
    pub fn as_const(&self) -> Option<&Num> {
        if self.terms.is_empty() {
            Some(&self.c)
        } else {
            None
        }
    }
}

#[derive(Default)]
pub struct Linearizer {
    cache: FxHashMap<TermId, Lin>,
    /// Definitional constraints of fresh variables, to be asserted (they hold in every scope).
    pub side: Vec<TermId>,
    fresh: u32,
    /// Atoms with an `ite` on one side are first rewritten by pushing the relation to its leaves.
    pub lift: crate::ite_lifting::IteLift,
}

impl Linearizer {
    pub fn new() -> Linearizer {
        Linearizer::default()
    }

    /// An empty linearizer (no cached linear forms or `ite` regions) that goes on numbering
    /// fresh variables after this one and keeps its counters, for a solver that rebuilds its
    /// encoding of the assertions in scope.
    pub fn renewed(&self) -> Linearizer {
        let mut l = Linearizer {
            fresh: self.fresh,
            ..Linearizer::default()
        };
        l.lift.lifted_atoms = self.lift.lifted_atoms;
        l.lift.capped_atoms = self.lift.capped_atoms;
        l.lift.regions_built = self.lift.regions_built;
        l
    }

    fn fresh_var(&mut self, terms: &mut Terms, sort: Sort, what: &str) -> TermId {
        self.fresh += 1;
        terms.declare(&format!("{what}!{}", self.fresh), sort)
    }

    /// The linear form of an arithmetic term (iteratively, post-order, so deep terms are fine).
    pub fn lin(&mut self, terms: &mut Terms, root: TermId) -> Lin {
        if let Some(l) = self.cache.get(&root) {
            return l.clone();
        }
        let mut stack = vec![(root, false)];
        while let Some((t, expanded)) = stack.pop() {
            if self.cache.contains_key(&t) {
                continue;
            }
            let node = terms.node(t).clone();
            let children: Vec<TermId> = match node.op {
                // the leaves are linearised with the definitions of the fresh variable
                Op::Ite => vec![],
                Op::ToInt | Op::Abs | Op::IntDiv | Op::Mod => vec![node.args[0]],
                Op::Const(_) | Op::Var(_) => vec![],
                _ => node.args.to_vec(),
            };
            if !expanded {
                stack.push((t, true));
                for c in children {
                    if !self.cache.contains_key(&c) && terms.sort(c).is_arith() {
                        stack.push((c, false));
                    }
                }
                continue;
            }
            let get =
                |s: &Self, c: TermId| s.cache.get(&c).cloned().unwrap_or(Lin::constant(Num::ZERO));
            let l = match &node.op {
                Op::Const(c) => Lin::constant(c.clone()),
                Op::Var(i) => Lin::var(*i),
                Op::Add => {
                    let parts: Vec<Lin> = node.args.iter().map(|a| get(self, *a)).collect();
                    Lin::sum(&parts)
                }
                Op::Neg => get(self, node.args[0]).scale(&Num::int(-1)),
                Op::ToReal => get(self, node.args[0]),
                Op::Mul => {
                    let mut k = Num::ONE;
                    let mut rest: Option<Lin> = None;
                    for a in node.args.iter() {
                        let la = get(self, *a);
                        match la.as_const() {
                            Some(c) => k = k.mul(c),
                            None => rest = Some(la),
                        }
                    }
                    match rest {
                        Some(r) => r.scale(&k),
                        None => Lin::constant(k),
                    }
                }
                Op::Div => {
                    let a = get(self, node.args[0]);
                    let b = get(self, node.args[1]);
                    match b.as_const() {
                        Some(c) if !c.is_zero() => a.scale(&c.recip()),
                        _ => a, // rejected by the elaborator
                    }
                }
                Op::Ite => {
                    let v = self.fresh_var(terms, node.sort, "ite");
                    match self.lift.define_var(terms, t, v) {
                        Some(defs) => self.side.extend(defs),
                        None => {
                            let c = node.args[0];
                            let e1 = terms.mk(Op::Eq, vec![v, node.args[1]], Sort::Bool);
                            let e2 = terms.mk(Op::Eq, vec![v, node.args[2]], Sort::Bool);
                            let i1 = terms.mk(Op::Implies, vec![c, e1], Sort::Bool);
                            let nc = terms.mk_not(c);
                            let i2 = terms.mk(Op::Implies, vec![nc, e2], Sort::Bool);
                            self.side.push(i1);
                            self.side.push(i2);
                        }
                    }
                    self.lin_of_var(terms, v)
                }
                Op::ToInt => {
                    // v ≤ t < v + 1
                    let v = self.fresh_var(terms, Sort::Int, "to_int");
                    let vr = terms.mk(Op::ToReal, vec![v], Sort::Real);
                    let a = node.args[0];
                    let le = terms.mk(Op::Le, vec![vr, a], Sort::Bool);
                    let one = terms.mk_const(Num::ONE, Sort::Real);
                    let v1 = terms.mk(Op::Add, vec![vr, one], Sort::Real);
                    let lt = terms.mk(Op::Lt, vec![a, v1], Sort::Bool);
                    self.side.push(le);
                    self.side.push(lt);
                    self.lin_of_var(terms, v)
                }
                Op::IntDiv | Op::Mod => {
                    // a = k q + r, 0 ≤ r < |k|
                    let a = node.args[0];
                    let k = match get_const(terms, node.args[1]) {
                        Some(k) if !k.is_zero() => k,
                        _ => Num::ONE,
                    };
                    let q = self.fresh_var(terms, Sort::Int, "div");
                    let r = self.fresh_var(terms, Sort::Int, "mod");
                    let kt = terms.mk_const(k.clone(), Sort::Int);
                    let kq = terms.mk(Op::Mul, vec![kt, q], Sort::Int);
                    let sum = terms.mk(Op::Add, vec![kq, r], Sort::Int);
                    let eq = terms.mk(Op::Eq, vec![a, sum], Sort::Bool);
                    let zero = terms.mk_const(Num::ZERO, Sort::Int);
                    let ge0 = terms.mk(Op::Le, vec![zero, r], Sort::Bool);
                    let absk = terms.mk_const(k.abs(), Sort::Int);
                    let ltk = terms.mk(Op::Lt, vec![r, absk], Sort::Bool);
                    self.side.extend([eq, ge0, ltk]);
                    let lq = self.lin_of_var(terms, q);
                    let lr = self.lin_of_var(terms, r);
                    let both = (lq, lr);
                    if node.op == Op::IntDiv {
                        // cache the sibling too for sharing
                        both.0
                    } else {
                        both.1
                    }
                }
                Op::Abs => {
                    let a = node.args[0];
                    let zero = terms.mk_const(Num::ZERO, Sort::Int);
                    let c = terms.mk(Op::Le, vec![zero, a], Sort::Bool);
                    let na = terms.mk(Op::Neg, vec![a], Sort::Int);
                    let ite = terms.mk(Op::Ite, vec![c, a, na], Sort::Int);
                    // linearise the ite (creates the fresh variable and its side constraints)
                    self.lin(terms, ite)
                }
                _ => Lin::constant(Num::ZERO),
            };
            self.cache.insert(t, l);
        }
        self.cache
            .get(&root)
            .cloned()
            .unwrap_or(Lin::constant(Num::ZERO))
    }

    fn lin_of_var(&mut self, terms: &Terms, v: TermId) -> Lin {
        match terms.node(v).op {
            Op::Var(i) => Lin::var(i),
            _ => Lin::constant(Num::ZERO),
        }
    }
}

fn get_const(terms: &Terms, t: TermId) -> Option<Num> {
    match &terms.node(t).op {
        Op::Const(c) => Some(c.clone()),
        Op::Neg => get_const(terms, terms.node(t).args[0]).map(|c| c.neg()),
        _ => None,
    }
}
