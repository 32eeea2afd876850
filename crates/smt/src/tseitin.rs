//! Tseitin's CNF conversion: every Boolean sub-term gets a literal defined by clauses; arithmetic
//! atoms become bound literals of the arithmetic theory (via linearisation), so the CDCL core of
//! DPLL(T) (Dutertre & de Moura, CAV 2006, Section 2) sees a propositional abstraction.

use crate::arith::{Arith, AtomLits, Rel};
use crate::linearize::Linearizer;
use crate::terms::{Op, Sort, TermId, Terms};
use rustc_hash::FxHashMap;
use verikit_sat::{Cdcl, Lit, Var};

#[derive(Default)]
pub(crate) struct Tseitin {
    pub cache: FxHashMap<TermId, Lit>,
    true_lit: Option<Lit>,
    /// Variables whose definition mentions each defined variable (for relevance).
    pub deps: FxHashMap<Var, Vec<Var>>,
    /// Unit clauses asserted globally (definitions of fresh arithmetic variables).
    pub side_roots: Vec<Lit>,
}

/// Everything the conversion touches.
pub(crate) struct Ctx<'a> {
    pub terms: &'a mut Terms,
    pub lin: &'a mut Linearizer,
    pub arith: &'a mut Arith,
    pub sat: &'a mut Cdcl,
}

impl Ctx<'_> {
    fn clause(&mut self, c: &[Lit]) {
        self.sat.add_clause(self.arith, c);
    }
    fn sync_vars(&mut self) {
        while self.arith.var_is_int.len() < self.terms.vars.len() {
            let i = self.arith.var_is_int.len();
            self.arith
                .var_is_int
                .push(self.terms.vars[i].1 == Sort::Int);
        }
    }
}

impl Tseitin {
    pub(crate) fn new() -> Tseitin {
        Tseitin::default()
    }

    fn dep(&mut self, g: Lit, children: &[Lit]) {
        self.deps
            .insert(g.var(), children.iter().map(|l| l.var()).collect());
    }

    /// Marks `relevant[v]` for every variable reachable from `roots` through definitions.
    pub(crate) fn mark_relevant(
        &self,
        roots: impl IntoIterator<Item = Lit>,
        relevant: &mut [bool],
    ) {
        let mut stack: Vec<Var> = Vec::new();
        let roots = roots.into_iter().chain(self.side_roots.iter().copied());
        for l in roots.chain(self.true_lit) {
            stack.push(l.var());
        }
        while let Some(v) = stack.pop() {
            match relevant.get_mut(v as usize) {
                Some(r) if !*r => *r = true,
                _ => continue,
            }
            if let Some(ch) = self.deps.get(&v) {
                stack.extend(ch.iter().copied());
            }
        }
    }

    pub(crate) fn true_lit(&mut self, cx: &mut Ctx) -> Lit {
        if let Some(l) = self.true_lit {
            return l;
        }
        let l = Lit::pos(cx.sat.new_var());
        cx.clause(&[l]);
        self.true_lit = Some(l);
        l
    }

    /// The literal of a Boolean term (creating its definition), then the definitional side
    /// constraints of any fresh arithmetic variables introduced meanwhile.
    pub(crate) fn lit(&mut self, cx: &mut Ctx, t: TermId) -> Lit {
        let l = self.lit_rec(cx, t);
        while let Some(s) = cx.lin.side.pop() {
            let sl = self.lit_rec(cx, s);
            cx.clause(&[sl]);
            self.side_roots.push(sl);
        }
        l
    }

    fn lit_rec(&mut self, cx: &mut Ctx, t: TermId) -> Lit {
        if let Some(&l) = self.cache.get(&t) {
            return l;
        }
        let node = cx.terms.node(t).owned();
        let l = match node.op {
            Op::True => self.true_lit(cx),
            Op::False => !self.true_lit(cx),
            Op::Var(_) => Lit::pos(cx.sat.new_var()),
            Op::Not => !self.lit_rec(cx, node.args[0]),
            Op::And | Op::Or => {
                let ls: Vec<Lit> = node.args.iter().map(|&a| self.lit_rec(cx, a)).collect();
                let g = Lit::pos(cx.sat.new_var());
                let (g2, ls2): (Lit, Vec<Lit>) = if node.op == Op::And {
                    (g, ls)
                } else {
                    (!g, ls.into_iter().map(|x| !x).collect())
                };
                // g2 ↔ ∧ ls2
                let mut big = vec![g2];
                for &x in &ls2 {
                    cx.clause(&[!g2, x]);
                    big.push(!x);
                }
                cx.clause(&big);
                self.dep(g, &ls2);
                g
            }
            Op::Implies => {
                let a = self.lit_rec(cx, node.args[0]);
                let b = self.lit_rec(cx, node.args[1]);
                let g = Lit::pos(cx.sat.new_var());
                cx.clause(&[!g, !a, b]);
                cx.clause(&[g, a]);
                cx.clause(&[g, !b]);
                self.dep(g, &[a, b]);
                g
            }
            Op::Xor | Op::Iff => {
                let a = self.lit_rec(cx, node.args[0]);
                let b = self.lit_rec(cx, node.args[1]);
                let g = Lit::pos(cx.sat.new_var());
                let e = if node.op == Op::Iff { g } else { !g };
                cx.clause(&[!e, !a, b]);
                cx.clause(&[!e, a, !b]);
                cx.clause(&[e, a, b]);
                cx.clause(&[e, !a, !b]);
                self.dep(g, &[a, b]);
                g
            }
            Op::Ite => {
                let c = self.lit_rec(cx, node.args[0]);
                let a = self.lit_rec(cx, node.args[1]);
                let b = self.lit_rec(cx, node.args[2]);
                let g = Lit::pos(cx.sat.new_var());
                cx.clause(&[!c, !a, g]);
                cx.clause(&[!c, a, !g]);
                cx.clause(&[c, !b, g]);
                cx.clause(&[c, b, !g]);
                cx.clause(&[!a, !b, g]);
                cx.clause(&[a, b, !g]);
                self.dep(g, &[c, a, b]);
                g
            }
            Op::Le | Op::Lt | Op::Eq => match cx.lin.lift.lift_atom(cx.terms, t) {
                Some(b) => self.lit_rec(cx, b),
                None => self.atom_lit(cx, &node),
            },
            Op::IsInt => {
                let a = node.args[0];
                let ti = cx.terms.mk(Op::ToInt, vec![a], Sort::Int);
                let tr = cx.terms.mk(Op::ToReal, vec![ti], Sort::Real);
                let eq = cx.terms.mk(Op::Eq, vec![a, tr], Sort::Bool);
                self.lit_rec(cx, eq)
            }
            // arithmetic operators never reach here (sort-checked)
            _ => self.true_lit(cx),
        };
        self.cache.insert(t, l);
        l
    }

    /// The literal of an arithmetic atom: bounds on the slack of its linear form.
    fn atom_lit(&mut self, cx: &mut Ctx, node: &crate::terms::OwnedNode) -> Lit {
        let la = cx.lin.lin(cx.terms, node.args[0]);
        let lb = cx.lin.lin(cx.terms, node.args[1]);
        let d = la.sub(&lb);
        let rel = match node.op {
            Op::Le => Rel::Le,
            Op::Lt => Rel::Lt,
            _ => Rel::Eq,
        };
        cx.sync_vars();
        let sat = &mut *cx.sat;
        let r = cx.arith.constraint(&d, rel, &mut || sat.new_var());
        match r {
            AtomLits::Const(true) => self.true_lit(cx),
            AtomLits::Const(false) => !self.true_lit(cx),
            AtomLits::Lit(l) => l,
            AtomLits::Both(x, y) => {
                let g = Lit::pos(cx.sat.new_var());
                cx.clause(&[!g, x]);
                cx.clause(&[!g, y]);
                cx.clause(&[g, !x, !y]);
                self.dep(g, &[x, y]);
                g
            }
        }
    }
}
