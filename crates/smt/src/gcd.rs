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

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::One;

use crate::simplex::{Simplex, NONE};
use verikit_num::{DRat, Num};
use verikit_sat::Lit;

/// The inverse of `a` modulo `p > 1`, if `gcd(a, p) = 1` (the integer layer's congruences).
pub(crate) fn inverse_mod(a: &BigInt, p: &BigInt) -> Option<BigInt> {
    let e = a.mod_floor(p).extended_gcd(p);
    e.gcd.is_one().then(|| e.x.mod_floor(p))
}

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

/// Euclid's algorithm on machine words.
fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `gcd(|a|, |b|)` of two integers, on machine words when both are small (the tests run over
/// every integer row at every integer final check), through big integers otherwise.
fn gcd(a: &Num, b: &Num) -> Num {
    if let (Num::S(x, 1), Num::S(y, 1)) = (a, b) {
        if let Ok(g) = i64::try_from(gcd_u64(x.unsigned_abs(), y.unsigned_abs())) {
            return Num::int(g);
        }
    }
    Num::gcd_int(a, b)
}

/// `lcm(a, b)` of two positive integers, on machine words when the result fits.
fn lcm(a: &Num, b: &Num) -> Num {
    if let (Num::S(x, 1), Num::S(y, 1)) = (a, b) {
        let g = gcd_u64(x.unsigned_abs(), y.unsigned_abs());
        let l = x
            .unsigned_abs()
            .checked_div(g)
            .and_then(|q| q.checked_mul(y.unsigned_abs()));
        if let Some(Ok(l)) = l.map(i64::try_from) {
            return Num::int(l);
        }
    }
    Num::lcm_int(a, b)
}

/// The denominator of a rational, as an integer `Num`.
fn denominator(a: &Num) -> Num {
    match a {
        Num::S(_, d) => Num::int(*d),
        Num::B(_) => Num::from_bigint(a.denom_big()),
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

    /// The integer value of `x` if its bounds fix it.
    fn int_fixed(&self, x: u32) -> Option<Num> {
        let i = x as usize;
        let lo = int_lower(&self.lower[i].as_ref()?.val);
        let hi = int_upper(&self.upper[i].as_ref()?.val);
        (lo == hi).then_some(lo)
    }

    /// The tests on row `r` of basic variable `b`, in two passes over the row without
    /// allocating (it runs over every integer row at every integer final check); the variables
    /// of a conflict are collected only when there is one.
    fn gcd_test_row(&self, r: usize, b: u32) -> Option<Vec<u32>> {
        let row = &self.rows[r];
        if !self.is_int[b as usize] || row.iter().any(|(x, _)| !self.is_int[*x as usize]) {
            return None;
        }
        // Σ a_j x_j − x_b = 0, scaled by the lcm of the denominators.
        let mut den = Num::ONE;
        for (_, a) in row {
            if !a.is_integer() {
                den = lcm(&den, &denominator(a));
            }
        }
        let minus_den = den.neg();
        let entries = || {
            row.iter()
                .map(|(x, a)| (*x, a.mul(&den)))
                .chain(std::iter::once((b, minus_den.clone())))
        };
        // Pass 1: the constant of the fixed variables, the gcd and least coefficient of the
        // free ones.
        let mut consts = Num::ZERO;
        let mut g = Num::ZERO;
        let mut least: Option<Num> = None;
        for (x, c) in entries() {
            match self.int_fixed(x) {
                Some(v) => consts = consts.add(&c.mul(&v)),
                None => {
                    let a = c.abs();
                    g = gcd(&g, &a);
                    if least.as_ref().is_none_or(|m| a < *m) {
                        least = Some(a);
                    }
                }
            }
        }
        // No free variable: rationally consistent rows with all variables fixed are checked by
        // the simplex.
        let least = least?;
        let fixed = || -> Vec<u32> {
            entries()
                .filter(|(x, _)| self.int_fixed(*x).is_some())
                .map(|(x, _)| x)
                .collect()
        };
        if !consts.div(&g).is_integer() {
            return Some(fixed());
        }
        // Pass 2, the extended test: the free variables with the least coefficient, all bounded.
        let mut lo_sum = consts.clone();
        let mut hi_sum = consts;
        let mut g2 = Num::ZERO;
        for (x, c) in entries() {
            if self.int_fixed(x).is_some() {
                continue;
            }
            if c.abs() == least {
                let (l, h) = match self.int_bounds(x) {
                    (Some(l), Some(h)) => (l, h),
                    _ => return None,
                };
                if c.is_pos() {
                    lo_sum = lo_sum.add(&c.mul(&l));
                    hi_sum = hi_sum.add(&c.mul(&h));
                } else {
                    lo_sum = lo_sum.add(&c.mul(&h));
                    hi_sum = hi_sum.add(&c.mul(&l));
                }
            } else {
                g2 = gcd(&g2, &c.abs());
            }
        }
        if g2.is_zero() {
            return None;
        }
        // Σ_rest c_j x_j = −s with s ∈ [lo_sum, hi_sum]: a multiple of g2 in [lo_sum, hi_sum].
        let l1 = lo_sum.div(&g2).ceil();
        let u1 = hi_sum.div(&g2).floor();
        if u1 < l1 {
            let mut out = fixed();
            out.extend(
                entries()
                    .filter(|(x, c)| self.int_fixed(*x).is_none() && c.abs() == least)
                    .map(|(x, _)| x),
            );
            return Some(out);
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The machine-word gcd, lcm and denominator agree with the big-integer ones, also at
        /// the word limits and past them.
        #[test]
        fn word_gcd_and_lcm_agree_with_big_integers(
            x in prop_oneof![-1000i64..1000, any::<i64>()],
            y in prop_oneof![-1000i64..1000, any::<i64>()],
            d in 1i64..1000,
        ) {
            let (a, b) = (Num::int(x), Num::int(y));
            prop_assert_eq!(gcd(&a, &b), Num::gcd_int(&a, &b));
            let (pa, pb) = (a.abs(), b.abs());
            if !pa.is_zero() && !pb.is_zero() {
                prop_assert_eq!(lcm(&pa, &pb), Num::lcm_int(&pa, &pb));
            }
            let q = Num::int(x).div(&Num::int(d));
            prop_assert_eq!(denominator(&q), Num::from_bigint(q.denom_big()));
            let big = q.mul(&Num::int(i64::MAX)).mul(&Num::int(i64::MAX));
            prop_assert_eq!(denominator(&big), Num::from_bigint(big.denom_big()));
        }
    }
}
