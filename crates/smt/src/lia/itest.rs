//! The integrality test with bound strengthening of Yices's integer final check (Dutertre &
//! de Moura, "A Fast Linear-Arithmetic Solver for DPLL(T)", CAV 2006, Section 6, and the
//! technical report SRI-CSL-06-01 "Integrating Simplex with DPLL(T)", which describe the integer
//! layer; Yices's `integrality_constraints.c` is this test).
//!
//! A tableau row whose variables are all integers, scaled to integer coefficients, is
//! `Σ_F c_j x_j = −k`, where `k = Σ c_j v_j` sums the variables fixed by their bounds and `F`
//! are the others. For every `x_i ∈ F`, the other free terms are multiples of
//! `m = gcd(c_j : j ∈ F, j ≠ i)`, so `c_i x_i ≡ −k (mod m)`: with `d = gcd(c_i, m)` (the GCD test
//! has already checked `d | k`), `x_i ≡ r (mod p)` for `p = m / d` and
//! `r = (−k/d)·(c_i/d)⁻¹ mod p`. Its integer bounds `[l, u]` round to the nearest values of that
//! class: if none is left the bounds are inconsistent over the integers (a conflict over the
//! fixed variables' bounds and `x_i`'s); if `β(x_i)` lies outside the rounded bounds, the lemma
//! `fixed bounds ∧ x_i ≥ l ⇒ x_i ≥ l'` (or the upper one) over a new atom cuts the current point
//! off. Both are integer lemmas (valid for integer points, not rational consequences), so they
//! carry no Farkas certificate; `--check` validates every model.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};

use crate::arith::Arith;
use crate::gcd::{int_lower, int_upper, inverse_mod};
use crate::simplex::NONE;
use verikit_sat::Lit;

/// What the test found on one row.
pub(crate) enum ITest {
    /// Bound literals that are inconsistent over the integers.
    Conflict(Vec<Lit>),
    /// `why ⇒ x ≤ b` (`upper`) or `why ⇒ x ≥ b`.
    Strengthen {
        x: u32,
        upper: bool,
        b: BigInt,
        why: Vec<Lit>,
    },
}

/// Rows longer than this are skipped (long rows rarely have a period and cost the most).
const MAX_ROW_LEN: usize = 64;

fn to_int(n: &verikit_num::Num) -> Option<BigInt> {
    let (a, b) = n.parts();
    b.is_one().then_some(a)
}

/// Runs the test on every all-integer row, returning the first conflict, or else up to `max`
/// strengthenings that cut off the current assignment.
pub(crate) fn itest(th: &Arith, max: usize) -> Vec<ITest> {
    let sx = &th.simplex;
    let mut out = Vec::new();
    for r in 0..sx.rows.len() {
        let b = sx.basic_of[r];
        if b == NONE {
            continue;
        }
        let row = &sx.rows[r];
        if row.len() >= MAX_ROW_LEN
            || !sx.is_int[b as usize]
            || row.iter().any(|(x, _)| !sx.is_int[*x as usize])
        {
            continue;
        }
        // Scale to integer coefficients: Σ a_j x_j − x_b = 0.
        let mut den = BigInt::one();
        for (_, a) in row {
            den = den.lcm(&a.parts().1);
        }
        let mut k = BigInt::zero();
        let mut fixed: Vec<u32> = Vec::new();
        let mut free: Vec<(u32, BigInt, Option<BigInt>, Option<BigInt>)> = Vec::new();
        let entries = row
            .iter()
            .map(|(x, a)| {
                let (n, d) = a.parts();
                (*x, n * (&den / d))
            })
            .chain(std::iter::once((b, -den.clone())));
        for (x, c) in entries {
            let xi = x as usize;
            let lo = sx.lower[xi].as_ref().map(|l| int_lower(&l.val));
            let hi = sx.upper[xi].as_ref().map(|u| int_upper(&u.val));
            let (lo, hi) = (lo.and_then(|v| to_int(&v)), hi.and_then(|v| to_int(&v)));
            match (&lo, &hi) {
                (Some(l), Some(h)) if l == h => {
                    k += &c * l;
                    fixed.push(x);
                }
                _ => free.push((x, c, lo, hi)),
            }
        }
        if free.len() < 2 {
            continue;
        }
        // Prefix and suffix gcds: m_i = gcd of the other free coefficients.
        let n = free.len();
        let mut pre = vec![BigInt::zero(); n + 1];
        let mut suf = vec![BigInt::zero(); n + 1];
        for i in 0..n {
            pre[i + 1] = pre[i].gcd(&free[i].1);
            suf[n - 1 - i] = suf[n - i].gcd(&free[n - 1 - i].1);
        }
        if !k.is_multiple_of(&pre[n]) {
            // The plain GCD test's conflict; it runs first, so this is not reached.
            continue;
        }
        let fixed_lits = || sx.bound_lits(&fixed);
        for (i, (x, c, lo, hi)) in free.iter().enumerate() {
            if lo.is_none() && hi.is_none() {
                continue;
            }
            let m = pre[i].gcd(&suf[i + 1]);
            let d = c.gcd(&m);
            let p = &m / &d;
            if p <= BigInt::one() {
                continue;
            }
            let Some(inv) = inverse_mod(&(c / &d), &p) else {
                continue;
            };
            let res = ((-&k / &d) * inv).mod_floor(&p);
            let lo2 = lo.as_ref().map(|l| l + (&res - l).mod_floor(&p));
            let hi2 = hi.as_ref().map(|h| h - (h - &res).mod_floor(&p));
            let xi = *x as usize;
            if let (Some(l2), Some(h2)) = (&lo2, &hi2) {
                if l2 > h2 {
                    let mut why = fixed_lits();
                    why.extend(sx.bound_lits(&[*x]));
                    why.sort();
                    why.dedup();
                    return vec![ITest::Conflict(why)];
                }
            }
            if out.len() >= max {
                continue;
            }
            let v = sx.beta[xi].c.to_big();
            if let (Some(l), Some(l2)) = (lo, &lo2) {
                if l2 > l && v < num_rational::BigRational::from_integer(l2.clone()) {
                    let mut why = fixed_lits();
                    if let Some(b) = &sx.lower[xi] {
                        why.push(b.lit);
                    }
                    out.push(ITest::Strengthen {
                        x: *x,
                        upper: false,
                        b: l2.clone(),
                        why,
                    });
                    continue;
                }
            }
            if let (Some(h), Some(h2)) = (hi, &hi2) {
                if h2 < h && v > num_rational::BigRational::from_integer(h2.clone()) {
                    let mut why = fixed_lits();
                    if let Some(b) = &sx.upper[xi] {
                        why.push(b.lit);
                    }
                    out.push(ITest::Strengthen {
                        x: *x,
                        upper: true,
                        b: h2.clone(),
                        why,
                    });
                }
            }
        }
    }
    out
}

/// Bound strengthening by rounding (Dutertre & de Moura's technical report SRI-CSL-06-01, the
/// integer bounds derived from rows): on an all-integer row `x_b = Σ a_j x_j` whose fractional
/// basic variable has every non-basic term bounded on one side, the row implies
/// `x_b ≤ Σ max(a_j x_j)` (or `≥ Σ min`), and since `x_b` is an integer, `x_b ≤ ⌊Σ max⌋`. When
/// `β(x_b)` exceeds the rounded bound, the lemma `bounds ⇒ x_b ≤ ⌊Σ max⌋` (over a new atom if
/// needed) cuts the current point off. Up to `max` such lemmas.
pub(crate) fn rounded_row_bounds(th: &Arith, max: usize) -> Vec<ITest> {
    use verikit_num::DRat;
    let sx = &th.simplex;
    let mut out = Vec::new();
    for r in 0..sx.rows.len() {
        if out.len() >= max {
            break;
        }
        let b = sx.basic_of[r];
        if b == NONE || !sx.is_int[b as usize] {
            continue;
        }
        let beta = &sx.beta[b as usize];
        if beta.c.is_integer() && beta.k.is_zero() {
            continue;
        }
        let row = &sx.rows[r];
        if row.len() >= MAX_ROW_LEN || row.iter().any(|(x, _)| !sx.is_int[*x as usize]) {
            continue;
        }
        for upper in [true, false] {
            let mut sum = DRat::zero();
            let mut why = Vec::with_capacity(row.len());
            let mut ok = true;
            for (x, a) in row {
                let xi = *x as usize;
                // The maximum of a·x uses x's upper bound when a > 0 (for the implied upper).
                let use_upper = a.is_pos() == upper;
                let bd = if use_upper {
                    &sx.upper[xi]
                } else {
                    &sx.lower[xi]
                };
                match bd {
                    Some(bd) => {
                        sum.add_scaled(&bd.val, a);
                        why.push(bd.lit);
                    }
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok {
                continue;
            }
            let (cut, violated) = if upper {
                let u = int_upper(&sum);
                let v = *beta > DRat::num(u.clone());
                (u, v)
            } else {
                let l = int_lower(&sum);
                let v = *beta < DRat::num(l.clone());
                (l, v)
            };
            if !violated {
                continue;
            }
            let Some(cut) = to_int(&cut) else { continue };
            why.sort();
            why.dedup();
            out.push(ITest::Strengthen {
                x: b,
                upper,
                b: cut,
                why,
            });
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::{AtomLits, Rel};
    use crate::linearize::Lin;
    use verikit_num::Num;
    use verikit_sat::Theory;

    fn lin(terms: &[(u32, i64)], c: i64) -> Lin {
        Lin {
            terms: terms.iter().map(|&(v, a)| (v, Num::int(a))).collect(),
            c: Num::int(c),
        }
    }

    fn assert_all(th: &mut Arith, l: &Lin, rel: Rel, next: &mut u32) -> Vec<Lit> {
        let mut alloc = || {
            *next += 1;
            *next
        };
        let lits = match th.constraint(l, rel, &mut alloc) {
            AtomLits::Lit(a) => vec![a],
            AtomLits::Both(a, b) => vec![a, b],
            AtomLits::Const(_) => vec![],
        };
        for &a in &lits {
            assert!(th.assert_lit(a).is_ok());
        }
        lits
    }

    /// `x − 4y = 1` forces `x ≡ 1 (mod 4)`: with `2 ≤ x ≤ 4` no value is left (a conflict over
    /// the equation's and `x`'s bounds); with `2 ≤ x ≤ 6` and `x` below 5, the lower bound
    /// rounds up to 5.
    #[test]
    fn residue_class_conflict_and_strengthening() {
        for (hi, conflict) in [(4, true), (6, false)] {
            let mut th = Arith::new();
            th.var_is_int = vec![true; 2];
            let mut next = 0u32;
            let eq = assert_all(&mut th, &lin(&[(0, 1), (1, -4)], -1), Rel::Eq, &mut next);
            let lo = assert_all(&mut th, &lin(&[(0, -1)], 2), Rel::Le, &mut next);
            let up = assert_all(&mut th, &lin(&[(0, 1)], -hi), Rel::Le, &mut next);
            assert!(th.simplex.check().is_ok(), "rationally feasible");
            let x = th.int_vars()[0];
            let found = itest(&th, 8);
            if conflict {
                let Some(ITest::Conflict(c)) = found.first() else {
                    panic!("expected a conflict");
                };
                for l in eq.iter().chain(&lo).chain(&up) {
                    assert!(c.contains(l), "the conflict names every bound used");
                }
            } else if th.simplex.beta[x as usize].c < Num::int(5) {
                assert!(found.iter().any(|t| matches!(t,
                    ITest::Strengthen { x: v, upper: false, b, .. }
                        if *v == x && *b == BigInt::from(5))));
            }
        }
    }

    /// `x + 2y ≥ 1` and `x − 2y = 0`: the vertex is `x = ½`, `y = ¼`, and with the slacks
    /// `s₁ = x + 2y` and `s₂ = x − 2y` at their lower bounds the row `x = ½·s₁ + ½·s₂` gives
    /// `x ≥ ½`, rounded to `x ≥ 1` and explained by the two slacks' lower bounds.
    #[test]
    fn rounded_row_bound_cuts_a_half() {
        let mut th = Arith::new();
        th.var_is_int = vec![true; 2];
        let mut next = 0u32;
        let mut why = assert_all(&mut th, &lin(&[(0, -1), (1, -2)], 1), Rel::Le, &mut next);
        why.extend(assert_all(
            &mut th,
            &lin(&[(0, 1), (1, -2)], 0),
            Rel::Eq,
            &mut next,
        ));
        why.sort();
        assert!(th.simplex.check().is_ok());
        let x = th.int_vars()[0];
        assert_eq!(th.simplex.beta[x as usize].c, Num::S(1, 2));
        let found = rounded_row_bounds(&th, 8);
        // (`y = ¼` is basic too: `y = ¼·s₁ − ¼·s₂ ≥ ¼`, rounded to `y ≥ 1`.)
        for (v, want) in [(x, 1), (th.int_vars()[1], 1)] {
            assert!(
                found.iter().any(
                    |t| matches!(t, ITest::Strengthen { x: u, upper: false, b, why: w }
                    if *u == v && *b == BigInt::from(want) && w.len() == 2
                        && w.iter().all(|l| why.contains(l)))
                ),
                "a rounded lower bound from the slacks' bounds"
            );
        }
    }
}
