//! The GCD test on integer rows, part of the integer extension of Dutertre & de Moura, "A Fast
//! Linear-Arithmetic Solver for DPLL(T)" (CAV 2006), Section 6 ("branch and cut"; the same
//! authors' Yices, like Z3, runs this test before branching).
//!
//! Every tableau row `x_b = Σ a_j x_j` is the equation `Σ a_j x_j − x_b = 0`. When every variable
//! of the row is an integer, scale it to integer coefficients `c_j` and split it into the fixed
//! variables (lower bound = upper bound, value `v_j`) and the others:
//! `Σ_free c_j x_j = −k` with `k = Σ_fixed c_j v_j`.
//!
//! * GCD test: the left side is a multiple of `g = gcd(c_j : free)`, so if `g ∤ k` the bounds that
//!   fix the fixed variables are inconsistent over the integers.
//! * Extended GCD test (as in Z3's `ext_gcd_test`): when every free variable whose coefficient has
//!   the least absolute value `m` is bounded, the part `k + Σ_{|c_j| = m} c_j x_j` lies in an
//!   interval `[l, u]` computed from those bounds, and the remaining free part is a multiple of
//!   `g' = gcd(c_j : |c_j| ≠ m)`; if no multiple of `g'` lies in `[−u, −l]` the bounds are
//!   inconsistent.
//!
//! A failed test is a conflict over bound literals. It is an integer lemma, valid for every
//! integer point, but not a rational consequence, so it carries no Farkas certificate; `--check`
//! still validates every model.

use crate::cdcl::Lit;
use crate::numbers::{DRat, Num};
use crate::simplex::{Simplex, NONE};

/// The least integer satisfying the lower bound `l` (a δ-rational: `c + kδ`, δ infinitesimal).
pub(crate) fn int_lower(l: &DRat) -> Num {
    if l.k.is_pos() {
        l.c.floor().add(&Num::ONE)
    } else {
        l.c.ceil()
    }
}

/// The greatest integer satisfying the upper bound `u`.
pub(crate) fn int_upper(u: &DRat) -> Num {
    if u.k.is_neg() {
        u.c.ceil().sub(&Num::ONE)
    } else {
        u.c.floor()
    }
}

impl Simplex {
    /// Integer bounds `[lo, hi]` of variable `x` (None where unbounded).
    pub(crate) fn int_bounds(&self, x: u32) -> (Option<Num>, Option<Num>) {
        let i = x as usize;
        (
            self.lower[i].as_ref().map(|b| int_lower(&b.val)),
            self.upper[i].as_ref().map(|b| int_upper(&b.val)),
        )
    }

    /// Runs the GCD test and the extended GCD test on every row whose variables are all
    /// integers. Returns a conflict: variables whose (currently true) bounds are inconsistent
    /// over the integers.
    pub(crate) fn gcd_test(&self) -> Option<Vec<u32>> {
        for r in 0..self.rows.len() {
            let b = self.basic_of[r];
            if b == NONE {
                continue;
            }
            if let Some(c) = self.gcd_test_row(r, b) {
                return Some(c);
            }
        }
        None
    }

    fn gcd_test_row(&self, r: usize, b: u32) -> Option<Vec<u32>> {
        let row = &self.rows[r];
        if !self.is_int[b as usize] || row.iter().any(|(x, _)| !self.is_int[*x as usize]) {
            return None;
        }
        // Σ a_j x_j − x_b = 0, scaled by the lcm of the denominators.
        let mut den = Num::ONE;
        for (_, a) in row {
            if !a.is_integer() {
                den = Num::lcm_int(&den, &Num::from_bigint(a.denom_big()));
            }
        }
        let entries = row
            .iter()
            .map(|(x, a)| (*x, a.mul(&den)))
            .chain(std::iter::once((b, den.neg())));
        let mut consts = Num::ZERO;
        let mut fixed: Vec<u32> = Vec::new();
        // Free variables: (variable, integer coefficient, bounds).
        let mut free: Vec<(u32, Num, Option<Num>, Option<Num>)> = Vec::new();
        for (x, c) in entries {
            let (lo, hi) = self.int_bounds(x);
            match (&lo, &hi) {
                (Some(l), Some(h)) if l == h => {
                    consts = consts.add(&c.mul(l));
                    fixed.push(x);
                }
                _ => free.push((x, c, lo, hi)),
            }
        }
        if free.is_empty() {
            // Rationally consistent rows with all variables fixed are checked by the simplex.
            return None;
        }
        let mut g = Num::ZERO;
        let mut least: Option<Num> = None;
        for (_, c, _, _) in &free {
            let a = c.abs();
            g = Num::gcd_int(&g, &a);
            if least.as_ref().is_none_or(|m| a < *m) {
                least = Some(a);
            }
        }
        if !consts.div(&g).is_integer() {
            return Some(fixed);
        }
        let least = least?;
        // Extended test: the free variables with the least coefficient, all bounded.
        let mut lo_sum = consts.clone();
        let mut hi_sum = consts;
        let mut g2 = Num::ZERO;
        let mut used: Vec<u32> = Vec::new();
        for (x, c, lo, hi) in &free {
            if c.abs() == least {
                let (l, h) = match (lo, hi) {
                    (Some(l), Some(h)) => (l, h),
                    _ => return None,
                };
                if c.is_pos() {
                    lo_sum = lo_sum.add(&c.mul(l));
                    hi_sum = hi_sum.add(&c.mul(h));
                } else {
                    lo_sum = lo_sum.add(&c.mul(h));
                    hi_sum = hi_sum.add(&c.mul(l));
                }
                used.push(*x);
            } else {
                g2 = Num::gcd_int(&g2, &c.abs());
            }
        }
        if g2.is_zero() {
            return None;
        }
        // Σ_rest c_j x_j = −s with s ∈ [lo_sum, hi_sum]: a multiple of g2 in [lo_sum, hi_sum].
        let l1 = lo_sum.div(&g2).ceil();
        let u1 = hi_sum.div(&g2).floor();
        if u1 < l1 {
            fixed.extend(used);
            return Some(fixed);
        }
        None
    }

    /// The bound literals of the variables `vars`, sorted.
    pub(crate) fn bound_lits(&self, vars: &[u32]) -> Vec<Lit> {
        let mut out = Vec::new();
        for &x in vars {
            if let Some(l) = &self.lower[x as usize] {
                out.push(l.lit);
            }
            if let Some(u) = &self.upper[x as usize] {
                out.push(u.lit);
            }
        }
        out.sort();
        out.dedup();
        out
    }
}
