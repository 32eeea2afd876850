//! The arithmetic theory solver plugged into the CDCL core: atoms as bounds on one variable
//! (one slack per distinct normalised linear term), the simplex of `simplex.rs`, cheap theory
//! propagation of unate bound implications between atoms on the same variable, disequalities as
//! the split `t < c ∨ t > c`, and integer reasoning through `lia.rs`. This is the solver of
//! Dutertre & de Moura, "A Fast Linear-Arithmetic Solver for DPLL(T)" (CAV 2006), Sections 3–5.

use crate::check::{AtomDef, CertChecker};
use crate::linearize::Lin;
use crate::simplex::{Explanation, Simplex, NONE};
use rustc_hash::FxHashMap as HashMap;
use verikit_num::{DRat, Num};
use verikit_sat::{Final, Lit, Theory, Var};

/// A bound atom on a simplex variable: `x ≤ b` (`strict = false`) or `x < b` (`strict = true`).
#[derive(Clone, Debug)]
pub(crate) struct Atom {
    pub x: u32,
    pub strict: bool,
    pub bound: Num,
    pub bvar: Var,
}

/// Normalised relation of an atom after linearisation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rel {
    Le,
    Lt,
    Eq,
}

/// Result of turning a linear constraint into literals.
pub(crate) enum AtomLits {
    Const(bool),
    Lit(Lit),
    /// `t = b`: both literals must hold.
    Both(Lit, Lit),
}

/// Gaussian elimination only removes a variable if that adds at most this many non-zeros
/// (Markowitz estimate `(column size − 1)·(row length − 1)`, pessimistic since entries cancel):
/// fill-in would slow every pivot. Measured on QF_LRA: a limit of 8 eliminated too little and
/// was slower than no elimination on sc/uart; a large limit shrinks those tableaux.
const ELIM_MAX_FILL: usize = 1000;

#[derive(Default)]
pub(crate) struct Arith {
    pub simplex: Simplex,
    /// Problem variable (index in `Terms::vars`) → simplex variable.
    var_map: HashMap<u32, u32>,
    /// Sort of problem variables (true = Int), indexed like `Terms::vars` (filled by the glue).
    pub var_is_int: Vec<bool>,
    slack_map: HashMap<Vec<(u32, Num)>, u32>,
    /// Definition of every simplex variable over problem variables (for certificates).
    pub defs: Vec<Vec<(u32, Num)>>,
    pub atoms: Vec<Atom>,
    atom_index: HashMap<(u32, bool, Num), u32>,
    atom_of_bvar: Vec<u32>,
    pub(crate) var_atoms: Vec<Vec<u32>>,
    /// Per simplex variable, how many of its atoms are unassigned: a variable with none implies
    /// nothing, so theory propagation skips it (and rows with no such variable).
    pub(crate) open_atoms: Vec<u32>,
    pub(crate) atom_val: Vec<i8>,
    atom_trail: Vec<u32>,
    atom_trail_lim: Vec<usize>,
    new_bounds: Vec<(u32, bool, Lit)>,
    /// Integer problem variables' simplex variables.
    int_vars: Vec<u32>,
    /// Certificate checking (`--check`).
    pub checker: Option<CertChecker>,
    pub branches: u64,
    pub cuts: u64,
    preprocessed: bool,
    pub int_checks: u64,
    /// Scratch marks of rows visited by bound refinement.
    pub(crate) row_seen: Vec<bool>,
    /// Buffers of bound refinement reused across calls (rows to visit, one row's entries).
    pub(crate) refine_rows_buf: Vec<u32>,
    pub(crate) refine_entries_buf: Vec<(u32, Num)>,
    /// Variables whose bound changed, reused across `propagate` calls.
    changed_buf: Vec<u32>,
    /// Theory propagation by bound refinement from rows (`bound_refinement.rs`).
    pub row_refinement: bool,
    /// State of the integer reasoning of `lia.rs` (incremental Diophantine test at propagation
    /// fixpoints, cuts from proofs).
    pub(crate) lia: crate::lia::LiaState,
}

impl Arith {
    pub(crate) fn new() -> Arith {
        Arith {
            row_refinement: true,
            ..Arith::default()
        }
    }

    fn svar_of(&mut self, v: u32) -> u32 {
        if let Some(&x) = self.var_map.get(&v) {
            return x;
        }
        let is_int = self.var_is_int.get(v as usize).copied().unwrap_or(false);
        let x = self.simplex.new_var(is_int);
        self.var_map.insert(v, x);
        self.defs.push(vec![(v, Num::ONE)]);
        self.var_atoms.push(Vec::new());
        self.open_atoms.push(0);
        if is_int {
            self.int_vars.push(x);
        }
        x
    }

    pub(crate) fn value_of(&self, v: u32, delta: &Num) -> Num {
        match self.var_map.get(&v) {
            Some(&x) => self.simplex.value(x).at(delta),
            None => Num::ZERO,
        }
    }

    /// Turns `lin ⋈ 0` into literals over (possibly new) atoms; `new_var` allocates SAT variables.
    pub(crate) fn constraint(
        &mut self,
        lin: &Lin,
        rel: Rel,
        new_var: &mut dyn FnMut() -> Var,
    ) -> AtomLits {
        if lin.terms.is_empty() {
            let s = lin.c.signum();
            return AtomLits::Const(match rel {
                Rel::Le => s <= 0,
                Rel::Lt => s < 0,
                Rel::Eq => s == 0,
            });
        }
        let is_int = lin
            .terms
            .iter()
            .all(|(v, _)| self.var_is_int.get(*v as usize).copied().unwrap_or(false));
        // factor f with Σ a x = f · t_norm
        let f = if is_int {
            let mut l = Num::ONE;
            for (_, a) in &lin.terms {
                l = Num::lcm_int(&l, &Num::from_bigint(a.denom_big()));
            }
            let mut g = Num::ZERO;
            for (_, a) in &lin.terms {
                g = Num::gcd_int(&g, &a.mul(&l));
            }
            let f = g.div(&l);
            if lin.terms[0].1.is_neg() {
                f.neg()
            } else {
                f
            }
        } else {
            lin.terms[0].1.clone()
        };
        let inv = f.recip();
        let norm: Vec<(u32, Num)> = lin.terms.iter().map(|(v, a)| (*v, a.mul(&inv))).collect();
        // f·t + c ⋈ 0  ⇔  t ⋈' -c/f
        let b = lin.c.neg().mul(&inv);
        let flip = f.is_neg();
        let x = if norm.len() == 1 && norm[0].1 == Num::ONE {
            self.svar_of(norm[0].0)
        } else {
            let key: Vec<(u32, Num)> = norm
                .iter()
                .map(|(v, a)| (self.svar_of(*v), a.clone()))
                .collect();
            if let Some(&s) = self.slack_map.get(&key) {
                s
            } else {
                let s = self.simplex.add_row(&key, is_int);
                self.slack_map.insert(key, s);
                self.defs.push(norm.clone());
                self.var_atoms.push(Vec::new());
                self.open_atoms.push(0);
                s
            }
        };
        let mut mk = |this: &mut Arith, strict: bool, bound: Num| -> Lit {
            this.atom(x, strict, bound, new_var)
        };
        // relation on t: (≤,<,=) possibly flipped to (≥,>,=)
        match (rel, flip) {
            (Rel::Eq, _) => {
                if is_int {
                    if !b.is_integer() {
                        return AtomLits::Const(false);
                    }
                    let le = mk(self, false, b.clone());
                    let lt = mk(self, false, b.sub(&Num::ONE));
                    AtomLits::Both(le, !lt)
                } else {
                    let le = mk(self, false, b.clone());
                    let lt = mk(self, true, b);
                    AtomLits::Both(le, !lt)
                }
            }
            (Rel::Le, false) => AtomLits::Lit(if is_int {
                mk(self, false, b.floor())
            } else {
                mk(self, false, b)
            }),
            (Rel::Lt, false) => AtomLits::Lit(if is_int {
                mk(self, false, b.ceil().sub(&Num::ONE))
            } else {
                mk(self, true, b)
            }),
            // t ≥ b  ⇔ ¬(t < b)
            (Rel::Le, true) => AtomLits::Lit(if is_int {
                !mk(self, false, b.ceil().sub(&Num::ONE))
            } else {
                !mk(self, true, b)
            }),
            // t > b ⇔ ¬(t ≤ b)
            (Rel::Lt, true) => AtomLits::Lit(if is_int {
                !mk(self, false, b.floor())
            } else {
                !mk(self, false, b)
            }),
        }
    }

    /// The atom `x ≤ b` / `x < b`, created on first use.
    pub(crate) fn atom(
        &mut self,
        x: u32,
        strict: bool,
        bound: Num,
        new_var: &mut dyn FnMut() -> Var,
    ) -> Lit {
        if let Some(&a) = self.atom_index.get(&(x, strict, bound.clone())) {
            return Lit::pos(self.atoms[a as usize].bvar);
        }
        let bvar = new_var();
        self.register_atom(x, strict, bound, bvar)
    }

    fn register_atom(&mut self, x: u32, strict: bool, bound: Num, bvar: Var) -> Lit {
        self.simplex.restore(x);
        let a = self.atoms.len() as u32;
        self.atoms.push(Atom {
            x,
            strict,
            bound: bound.clone(),
            bvar,
        });
        self.atom_index.insert((x, strict, bound), a);
        if self.atom_of_bvar.len() <= bvar as usize {
            self.atom_of_bvar.resize(bvar as usize + 1, NONE);
        }
        self.atom_of_bvar[bvar as usize] = a;
        self.var_atoms[x as usize].push(a);
        self.open_atoms[x as usize] += 1;
        self.atom_val.push(0);
        Lit::pos(bvar)
    }

    /// The bound a literal of atom `a` asserts: (is_upper, value).
    pub(crate) fn lit_bound(&self, a: &Atom, positive: bool) -> (bool, DRat) {
        let is_int = self.simplex.is_int[a.x as usize];
        if positive {
            (
                true,
                DRat::new(
                    a.bound.clone(),
                    if a.strict { Num::int(-1) } else { Num::ZERO },
                ),
            )
        } else if a.strict {
            (false, DRat::num(a.bound.clone()))
        } else if is_int {
            (false, DRat::num(a.bound.add(&Num::ONE)))
        } else {
            (false, DRat::new(a.bound.clone(), Num::ONE))
        }
    }

    /// The atom of a SAT literal, if it is one.
    pub(crate) fn atom_of(&self, l: Lit) -> Option<&Atom> {
        match self.atom_of_bvar.get(l.var() as usize) {
            Some(&a) if a != NONE => self.atoms.get(a as usize),
            _ => None,
        }
    }

    /// Independent-checker view of a literal's atom.
    pub(crate) fn atom_def(&self, l: Lit) -> Option<AtomDef> {
        let a = self.atom_of(l)?;
        Some(AtomDef {
            lin: self.defs[a.x as usize].clone(),
            strict: a.strict,
            bound: a.bound.clone(),
            int_vars: self.defs[a.x as usize]
                .iter()
                .all(|(v, _)| self.var_is_int.get(*v as usize).copied().unwrap_or(false)),
            positive: !l.is_neg(),
        })
    }

    pub(crate) fn certify(&mut self, e: &Explanation) {
        if self.checker.is_none() {
            return;
        }
        let defs: Vec<Option<AtomDef>> = e.iter().map(|(l, _)| self.atom_def(*l)).collect();
        if let Some(c) = self.checker.as_mut() {
            c.check_farkas(&defs, &e.iter().map(|(_, k)| k.clone()).collect::<Vec<_>>());
        }
    }

    fn conflict(&mut self, e: Explanation) -> Vec<Lit> {
        self.certify(&e);
        let mut v: Vec<Lit> = e.into_iter().map(|(l, _)| l).collect();
        v.sort();
        v.dedup();
        v
    }

    /// A new atom for branch and bound / cuts: `x ≤ b` over a fresh SAT variable numbered `bvar`.
    pub(crate) fn branch_atom(&mut self, x: u32, bound: Num, bvar: Var) -> Lit {
        self.register_atom(x, false, bound, bvar)
    }

    /// The paper's preprocessing (Section 3): Gaussian elimination of the real problem variables
    /// that occur in no atom, once, before any bound has been asserted.
    pub(crate) fn preprocess(&mut self) {
        if self.preprocessed || !self.simplex.no_bounds_asserted() {
            return;
        }
        self.preprocessed = true;
        let mut cands: Vec<u32> = self
            .var_map
            .values()
            .copied()
            .filter(|&x| !self.simplex.is_int[x as usize] && self.var_atoms[x as usize].is_empty())
            .collect();
        cands.sort_unstable();
        self.simplex.eliminate(&cands, ELIM_MAX_FILL);
    }

    pub(crate) fn int_vars(&self) -> &[u32] {
        &self.int_vars
    }
    pub(crate) fn has_atom(&self, x: u32, strict: bool, bound: &Num) -> Option<Lit> {
        self.atom_index
            .get(&(x, strict, bound.clone()))
            .map(|&a| Lit::pos(self.atoms[a as usize].bvar))
    }
}

impl Theory for Arith {
    fn assert_lit(&mut self, lit: Lit) -> Result<(), Vec<Lit>> {
        let a = match self.atom_of_bvar.get(lit.var() as usize) {
            Some(&a) if a != NONE => a,
            _ => return Ok(()),
        };
        if self.atom_val[a as usize] != 0 {
            return Ok(());
        }
        self.atom_val[a as usize] = if lit.is_neg() { -1 } else { 1 };
        self.atom_trail.push(a);
        let atom = self.atoms[a as usize].clone();
        self.open_atoms[atom.x as usize] -= 1;
        let (upper, val) = self.lit_bound(&atom, !lit.is_neg());
        let r = if upper {
            self.simplex.assert_upper(atom.x, val, lit)
        } else {
            self.simplex.assert_lower(atom.x, val, lit)
        };
        match r {
            Ok(changed) => {
                if changed {
                    self.new_bounds.push((atom.x, upper, lit));
                }
                Ok(())
            }
            Err(e) => Err(self.conflict(e)),
        }
    }

    fn propagate(&mut self, out: &mut Vec<(Lit, Vec<Lit>)>) {
        let nb = std::mem::take(&mut self.new_bounds);
        if self.row_refinement && !nb.is_empty() {
            // At decision level 0 the simplex first makes the tableau feasible (or refutes the
            // level-0 bounds): refinement would otherwise assert implied bounds on every row
            // first, and the redundant bounded rows slow Check down (a MIP relaxation of 830
            // rows: 4 200 pivots instead of 700). A conflict is reported as the propagation of
            // the negation of one of its (true) literals.
            if self.simplex.trail_lim.is_empty() {
                if let Err(e) = self.simplex.check() {
                    let c = self.conflict(e);
                    if let Some((&l0, rest)) = c.split_first() {
                        out.push((!l0, rest.to_vec()));
                        return;
                    }
                }
            }
            let mut changed = std::mem::take(&mut self.changed_buf);
            changed.clear();
            changed.extend(nb.iter().map(|(x, _, _)| *x));
            self.refine_rows(&changed, out);
            self.changed_buf = changed;
        }
        let mut nb = nb;
        let mut certs: Vec<Explanation> = Vec::new();
        for &(x, upper, cause) in &nb {
            if self.open_atoms[x as usize] == 0 {
                continue;
            }
            let cur = if upper {
                &self.simplex.upper[x as usize]
            } else {
                &self.simplex.lower[x as usize]
            };
            let cur = match cur {
                Some(b) if b.lit == cause => &b.val,
                _ => continue,
            };
            for &a in &self.var_atoms[x as usize] {
                if self.atom_val[a as usize] != 0 {
                    continue;
                }
                let atom = &self.atoms[a as usize];
                let implied = if upper {
                    let (_, pv) = self.lit_bound(atom, true);
                    if *cur <= pv {
                        Some(Lit::pos(atom.bvar))
                    } else {
                        None
                    }
                } else {
                    let (_, nv) = self.lit_bound(atom, false);
                    if *cur >= nv {
                        Some(!Lit::pos(atom.bvar))
                    } else {
                        None
                    }
                };
                if let Some(l) = implied {
                    if self.checker.is_some() {
                        certs.push(vec![(cause, Num::ONE), (!l, Num::ONE)]);
                    }
                    out.push((l, vec![cause]));
                }
            }
        }
        nb.clear();
        if self.new_bounds.is_empty() {
            self.new_bounds = nb;
        }
        for e in certs {
            self.certify(&e);
        }
    }

    fn check(&mut self) -> Result<(), Vec<Lit>> {
        match self.simplex.check() {
            Ok(()) => crate::dioph::incremental::propagation_check(self),
            Err(e) => Err(self.conflict(e)),
        }
    }

    fn interrupted(&self) -> bool {
        self.simplex.interrupted
    }

    fn final_check(&mut self, num_vars: u32) -> Final {
        crate::lia::final_check(self, num_vars)
    }

    fn push_level(&mut self) {
        self.simplex.push_level();
        self.atom_trail_lim.push(self.atom_trail.len());
    }

    fn pop_levels(&mut self, n: u32) {
        self.simplex.pop_levels(n);
        self.lia.inc.backtrack(self.simplex.trail.len());
        let keep = self.atom_trail_lim.len().saturating_sub(n as usize);
        let lim = self.atom_trail_lim.get(keep).copied().unwrap_or(0);
        self.atom_trail_lim.truncate(keep);
        while self.atom_trail.len() > lim {
            if let Some(a) = self.atom_trail.pop() {
                self.atom_val[a as usize] = 0;
                self.open_atoms[self.atoms[a as usize].x as usize] += 1;
            }
        }
        self.new_bounds.clear();
    }
}
