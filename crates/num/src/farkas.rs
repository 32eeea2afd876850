//! The one Farkas-certificate verifier (Farkas' lemma, in the form of Motzkin's transposition
//! theorem for systems with strict inequalities; Schrijver, "Theory of Linear and Integer
//! Programming", 1986, §7.3 and Corollary 7.1k): a system of constraints `Σ_j c_ij x_j ≤ r_i`
//! (or `<`) over free rational variables has no solution when non-negative multipliers `λ_i`
//! combine it into `0 ≤ Σ λ_i r_i` with `Σ λ_i r_i < 0`, or into `0 < Σ λ_i r_i` with
//! `Σ λ_i r_i ≤ 0` when a strict constraint has a positive multiplier.
//!
//! The checker is independent of whoever produced the certificate: it rebuilds the combination in
//! exact arithmetic and checks that every variable cancels and the constant side contradicts.
//! The SMT solver's conflict explanations and the exact LP's infeasibility answers
//! ([`crate::exact_lp`]) are both verified here.

use crate::rational::Num;
use std::collections::BTreeMap;
use std::fmt;

/// `Σ lin ≤ rhs` (`<` when `strict`) over variables numbered by `u32`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    pub lin: Vec<(u32, Num)>,
    pub rhs: Num,
    pub strict: bool,
}

/// Why a certificate is not one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FarkasError {
    /// Not one multiplier per constraint.
    LengthMismatch,
    /// A negative multiplier.
    NegativeMultiplier(Num),
    /// The combination leaves this variable with this coefficient.
    Uncancelled(u32, Num),
    /// The combination `0 ≤ rhs` (`<` when strict) holds: no contradiction.
    NoContradiction { rhs: Num, strict: bool },
}

impl fmt::Display for FarkasError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FarkasError::LengthMismatch => f.write_str("certificate length mismatch"),
            FarkasError::NegativeMultiplier(l) => write!(f, "negative Farkas coefficient {l}"),
            FarkasError::Uncancelled(x, k) => {
                write!(f, "combination leaves variable #{x} with coefficient {k}")
            }
            FarkasError::NoContradiction { rhs, strict } => write!(
                f,
                "combination yields 0 {} {rhs}, which is not a contradiction",
                if *strict { "<" } else { "≤" }
            ),
        }
    }
}

impl std::error::Error for FarkasError {}

/// Verifies that the multipliers `lambda` (one per constraint, all `≥ 0`) prove the constraints
/// jointly infeasible. Constraints with multiplier zero take no part.
pub fn verify(cs: &[Constraint], lambda: &[Num]) -> Result<(), FarkasError> {
    if cs.len() != lambda.len() {
        return Err(FarkasError::LengthMismatch);
    }
    let mut sum: BTreeMap<u32, Num> = BTreeMap::new();
    let mut rhs = Num::ZERO;
    let mut strict = false;
    for (c, l) in cs.iter().zip(lambda) {
        if l.is_neg() {
            return Err(FarkasError::NegativeMultiplier(l.clone()));
        }
        if l.is_zero() {
            continue;
        }
        for (x, k) in &c.lin {
            let e = sum.entry(*x).or_insert(Num::ZERO);
            *e = e.add(&k.mul(l));
        }
        rhs = rhs.add(&c.rhs.mul(l));
        strict |= c.strict;
    }
    if let Some((x, k)) = sum.iter().find(|(_, k)| !k.is_zero()) {
        return Err(FarkasError::Uncancelled(*x, k.clone()));
    }
    // 0 ≤ rhs (or 0 < rhs) must be false.
    if rhs.is_neg() || (rhs.is_zero() && strict) {
        Ok(())
    } else {
        Err(FarkasError::NoContradiction { rhs, strict })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(lin: &[(u32, i64)], rhs: i64, strict: bool) -> Constraint {
        Constraint {
            lin: lin.iter().map(|&(x, k)| (x, Num::int(k))).collect(),
            rhs: Num::int(rhs),
            strict,
        }
    }

    #[test]
    fn accepts_and_rejects() {
        // x ≤ 1, y ≤ 2, -x - y ≤ -4
        let cs = [
            c(&[(0, 1)], 1, false),
            c(&[(1, 1)], 2, false),
            c(&[(0, -1), (1, -1)], -4, false),
        ];
        let one = [Num::ONE, Num::ONE, Num::ONE];
        assert_eq!(verify(&cs, &one), Ok(()));
        assert_eq!(verify(&cs[..2], &one), Err(FarkasError::LengthMismatch));
        let half = [Num::ONE, Num::S(1, 2), Num::ONE];
        assert!(matches!(
            verify(&cs, &half),
            Err(FarkasError::Uncancelled(1, _))
        ));
        let neg = [Num::int(-1), Num::ONE, Num::ONE];
        assert!(matches!(
            verify(&cs, &neg),
            Err(FarkasError::NegativeMultiplier(_))
        ));
        // x ≤ 1, -x ≤ -1 is feasible; with a strict side it is not.
        let eq = [c(&[(0, 1)], 1, false), c(&[(0, -1)], -1, false)];
        assert!(matches!(
            verify(&eq, &[Num::ONE, Num::ONE]),
            Err(FarkasError::NoContradiction { .. })
        ));
        let lt = [c(&[(0, 1)], 1, true), c(&[(0, -1)], -1, false)];
        assert_eq!(verify(&lt, &[Num::ONE, Num::ONE]), Ok(()));
        // A strict constraint with multiplier zero does not make the sum strict.
        assert!(verify(
            &[
                c(&[(0, 1)], 1, false),
                c(&[(0, -1)], -1, false),
                c(&[], 0, true)
            ],
            &[Num::ONE, Num::ONE, Num::ZERO]
        )
        .is_err());
    }
}
