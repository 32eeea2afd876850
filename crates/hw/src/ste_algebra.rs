//! The two Boolean algebras the STE simulator runs over (the dual-rail encoding of quaternary
//! values, Roorda–Claessen CAV'06 C19 §3 last paragraph: "in BDD-based STE, BDDs are used …
//! in SAT-based STE, non-canonical Boolean expressions are used"): [`BddAlg`] — BDDs of
//! `verikit-bdd` over the symbolic variables, canonical, so the STE check is a BDD comparison —
//! and [`CnfAlg`] — Tseitin literals in a [`SatBackend`] with structural hashing, for STAR's
//! SAT problems (C19 §4.2) and the concrete BMC search of Tzoref–Grumberg (C20 §5).

use std::collections::HashMap;
use verikit_bdd::{Bdd, BddVariable, BddVariableSet, MAX_VARS};
use verikit_logic::BoolExpr;
use verikit_sat::{Lit, SatBackend};

/// A Boolean algebra with variables numbered `0..`.
pub(crate) trait Algebra {
    type B: Clone;
    fn konst(&mut self, b: bool) -> Self::B;
    fn var(&mut self, i: u32) -> Self::B;
    fn and(&mut self, a: &Self::B, b: &Self::B) -> Self::B;
    fn not(&mut self, a: &Self::B) -> Self::B;
    fn or(&mut self, a: &Self::B, b: &Self::B) -> Self::B {
        let (na, nb) = (self.not(a), self.not(b));
        let c = self.and(&na, &nb);
        self.not(&c)
    }
    /// A propositional formula of `verikit-logic` in this algebra.
    fn expr(&mut self, e: &BoolExpr) -> Self::B {
        match e {
            BoolExpr::Const(b) => self.konst(*b),
            BoolExpr::Var(i) => self.var(*i),
            BoolExpr::Not(x) => {
                let x = self.expr(x);
                self.not(&x)
            }
            BoolExpr::And(xs) => {
                let mut acc = self.konst(true);
                for x in xs {
                    let x = self.expr(x);
                    acc = self.and(&acc, &x);
                }
                acc
            }
            BoolExpr::Or(xs) => {
                let mut acc = self.konst(false);
                for x in xs {
                    let x = self.expr(x);
                    acc = self.or(&acc, &x);
                }
                acc
            }
            BoolExpr::Xor(a, b) => {
                let (a, b) = (self.expr(a), self.expr(b));
                let (na, nb) = (self.not(&a), self.not(&b));
                let (l, r) = (self.and(&a, &nb), self.and(&na, &b));
                self.or(&l, &r)
            }
            BoolExpr::Imp(a, b) => {
                let (a, b) = (self.expr(a), self.expr(b));
                let na = self.not(&a);
                self.or(&na, &b)
            }
            BoolExpr::Iff(a, b) => {
                let (a, b) = (self.expr(a), self.expr(b));
                let (na, nb) = (self.not(&a), self.not(&b));
                let (l, r) = (self.and(&a, &b), self.and(&na, &nb));
                self.or(&l, &r)
            }
        }
    }
}

/// BDDs over a fixed number of symbolic variables.
pub(crate) struct BddAlg {
    pub(crate) vars: BddVariableSet,
    list: Vec<BddVariable>,
}

impl BddAlg {
    pub(crate) fn new(n: usize) -> BddAlg {
        let vars = BddVariableSet::new_anonymous(n.min(MAX_VARS) as u16);
        let list = vars.variables();
        BddAlg { vars, list }
    }
}

impl Algebra for BddAlg {
    type B = Bdd;
    fn konst(&mut self, b: bool) -> Bdd {
        if b {
            self.vars.mk_true()
        } else {
            self.vars.mk_false()
        }
    }
    fn var(&mut self, i: u32) -> Bdd {
        match self.list.get(i as usize) {
            Some(&v) => self.vars.mk_var(v),
            // Out of range cannot happen for resolved assertions; `false` keeps it total.
            None => self.vars.mk_false(),
        }
    }
    fn and(&mut self, a: &Bdd, b: &Bdd) -> Bdd {
        a.and(b)
    }
    fn or(&mut self, a: &Bdd, b: &Bdd) -> Bdd {
        a.or(b)
    }
    fn not(&mut self, a: &Bdd) -> Bdd {
        a.not()
    }
}

/// Tseitin literals in a SAT solver. Symbolic variable `i` is the solver variable `sym[i]`
/// (created on first use); literal `top` is constrained true.
pub(crate) struct CnfAlg<'s> {
    pub(crate) sat: &'s mut dyn SatBackend,
    top: Lit,
    sym: HashMap<u32, Lit>,
    cache: HashMap<(Lit, Lit), Lit>,
}

impl<'s> CnfAlg<'s> {
    pub(crate) fn new(sat: &'s mut dyn SatBackend) -> CnfAlg<'s> {
        let top = Lit::pos(sat.new_var());
        sat.add_clause(&[top]);
        CnfAlg {
            sat,
            top,
            sym: HashMap::new(),
            cache: HashMap::new(),
        }
    }
    /// A fresh unconstrained literal (not a symbolic variable).
    pub(crate) fn fresh(&mut self) -> Lit {
        Lit::pos(self.sat.new_var())
    }
    /// The solver literal of symbolic variable `i`.
    pub(crate) fn sym(&mut self, i: u32) -> Lit {
        self.var(i)
    }
}

impl Algebra for CnfAlg<'_> {
    type B = Lit;
    fn konst(&mut self, b: bool) -> Lit {
        if b {
            self.top
        } else {
            !self.top
        }
    }
    fn var(&mut self, i: u32) -> Lit {
        if let Some(&l) = self.sym.get(&i) {
            return l;
        }
        let l = Lit::pos(self.sat.new_var());
        self.sym.insert(i, l);
        l
    }
    fn and(&mut self, a: &Lit, b: &Lit) -> Lit {
        let (a, b) = (*a, *b);
        let (t, f) = (self.top, !self.top);
        if a == f || b == f || a == !b {
            return f;
        }
        if a == t || a == b {
            return b;
        }
        if b == t {
            return a;
        }
        let key = if a.0 < b.0 { (a, b) } else { (b, a) };
        if let Some(&c) = self.cache.get(&key) {
            return c;
        }
        let c = Lit::pos(self.sat.new_var());
        self.sat.add_clause(&[!c, a]);
        self.sat.add_clause(&[!c, b]);
        self.sat.add_clause(&[c, !a, !b]);
        self.cache.insert(key, c);
        c
    }
    fn not(&mut self, a: &Lit) -> Lit {
        !*a
    }
}
