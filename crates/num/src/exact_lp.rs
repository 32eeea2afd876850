//! The one exact LP: feasibility of `{ x ≥ 0 | a_r·x (≤|=|≥) b_r }` over the rationals by phase I
//! of the simplex method on a dense tableau with Bland's rule (Dantzig; Bland, "New finite
//! pivoting rules for the simplex method", Math. Oper. Res. 1977, which makes it terminate).
//!
//! Every answer carries its evidence: a feasible point, or on infeasibility a Farkas certificate
//! `y` read off the optimal phase-I tableau (the duals `π_r = 1 − d_r` of the artificial columns,
//! `y = −π` in the rows' own orientation): `y_r ≥ 0` on `≤` rows, `y_r ≤ 0` on `≥` rows, free on
//! equations, `Σ_r y_r a_r ≥ 0` componentwise and `Σ_r y_r b_r < 0` — so `0 ≤ y·A x ≤ y·b < 0`
//! for every `x ≥ 0`. [`verify_certificate`] checks it with the one Farkas verifier
//! ([`crate::farkas::verify`]), [`satisfies`] checks a point. Meant for small systems: the exact
//! fallback of the interval-MDP containment LPs.

use crate::farkas::{self, Constraint, FarkasError};
use crate::rational::Num;

/// Kind of a constraint row `a·x (≤|=|≥) b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Le,
    Eq,
    Ge,
}

/// One row `coeffs·x cmp rhs` (dense; missing trailing coefficients are zero).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub coeffs: Vec<Num>,
    pub cmp: Cmp,
    pub rhs: Num,
}

impl Row {
    pub fn new(coeffs: Vec<Num>, cmp: Cmp, rhs: Num) -> Row {
        Row { coeffs, cmp, rhs }
    }
}

/// The answer of [`solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Feasibility {
    /// A point `x ≥ 0` satisfying every row.
    Feasible(Vec<Num>),
    /// A Farkas certificate: one multiplier per row (see the module documentation).
    Infeasible(Vec<Num>),
}

/// Decides whether some `x ≥ 0` (of `nvars` components) satisfies every row.
pub fn solve(rows: &[Row], nvars: usize) -> Feasibility {
    let m = rows.len();
    // Columns: the variables, one slack per inequality, one artificial per row, then b.
    let nslack = rows.iter().filter(|r| r.cmp != Cmp::Eq).count();
    let art = nvars + nslack;
    let ncols = art + m;
    let mut t: Vec<Vec<Num>> = Vec::with_capacity(m);
    let mut basis: Vec<usize> = Vec::with_capacity(m);
    // Rows whose sign was flipped so that b ≥ 0.
    let mut flipped: Vec<bool> = Vec::with_capacity(m);
    let mut slack = nvars;
    for (r, row_in) in rows.iter().enumerate() {
        let mut row = vec![Num::ZERO; ncols + 1];
        for (j, x) in row_in.coeffs.iter().enumerate().take(nvars) {
            row[j] = x.clone();
        }
        match row_in.cmp {
            Cmp::Le => {
                row[slack] = Num::ONE;
                slack += 1;
            }
            Cmp::Ge => {
                row[slack] = Num::int(-1);
                slack += 1;
            }
            Cmp::Eq => {}
        }
        row[ncols] = row_in.rhs.clone();
        let flip = row[ncols].is_neg();
        if flip {
            for x in row.iter_mut() {
                *x = x.neg();
            }
        }
        flipped.push(flip);
        row[art + r] = Num::ONE;
        basis.push(art + r);
        t.push(row);
    }
    // Phase-I objective: minimise the sum of the artificials; reduced costs c_j − π·A_j (the
    // artificial columns start at 1 − 1 = 0 and are updated with the others).
    let mut cost = vec![Num::ZERO; ncols + 1];
    for row in &t {
        for j in (0..art).chain(std::iter::once(ncols)) {
            if !row[j].is_zero() {
                cost[j] = cost[j].sub(&row[j]);
            }
        }
    }
    // Bland: the lowest-index column with a negative reduced cost enters.
    while let Some(enter) = (0..ncols).find(|&j| cost[j].is_neg()) {
        // Ratio test; ties broken by the lowest basic index.
        let mut leave: Option<(usize, Num)> = None;
        for (r, row) in t.iter().enumerate() {
            if row[enter].is_pos() {
                let ratio = row[ncols].div(&row[enter]);
                let better = match &leave {
                    None => true,
                    Some((lr, best)) => ratio < *best || (ratio == *best && basis[r] < basis[*lr]),
                };
                if better {
                    leave = Some((r, ratio));
                }
            }
        }
        let Some((lr, _)) = leave else {
            // Unbounded below cannot happen in phase I (the objective is ≥ 0).
            break;
        };
        let piv = t[lr][enter].clone();
        for x in t[lr].iter_mut() {
            if !x.is_zero() {
                *x = x.div(&piv);
            }
        }
        let prow = t[lr].clone();
        let nz: Vec<usize> = (0..=ncols).filter(|&j| !prow[j].is_zero()).collect();
        for (r, row) in t.iter_mut().enumerate() {
            if r != lr && !row[enter].is_zero() {
                let f = row[enter].clone();
                for &j in &nz {
                    row[j] = row[j].sub(&f.mul(&prow[j]));
                }
            }
        }
        let f = cost[enter].clone();
        for &j in &nz {
            cost[j] = cost[j].sub(&f.mul(&prow[j]));
        }
        basis[lr] = enter;
    }
    // The phase-I optimum is −cost[ncols]; feasible iff it is 0.
    if cost[ncols].is_zero() {
        let mut x = vec![Num::ZERO; nvars];
        for (r, &b) in basis.iter().enumerate() {
            if b < nvars {
                x[b] = t[r][ncols].clone();
            }
        }
        return Feasibility::Feasible(x);
    }
    let y = (0..m)
        .map(|r| {
            // π_r = 1 − d_r, y = −π in the row's own orientation.
            let y = cost[art + r].sub(&Num::ONE);
            if flipped[r] {
                y.neg()
            } else {
                y
            }
        })
        .collect();
    Feasibility::Infeasible(y)
}

/// True iff `x ≥ 0` has `nvars` components and satisfies every row.
pub fn satisfies(rows: &[Row], nvars: usize, x: &[Num]) -> bool {
    x.len() == nvars
        && x.iter().all(|v| !v.is_neg())
        && rows.iter().all(|r| {
            let lhs = r
                .coeffs
                .iter()
                .zip(x)
                .fold(Num::ZERO, |s, (a, v)| s.add(&a.mul(v)));
            match r.cmp {
                Cmp::Le => lhs <= r.rhs,
                Cmp::Eq => lhs == r.rhs,
                Cmp::Ge => lhs >= r.rhs,
            }
        })
}

/// Checks a certificate of [`Feasibility::Infeasible`] against the rows: the rows and `x ≥ 0`
/// become `≤` constraints over free variables (a `≥` row or an equation with a negative
/// multiplier is negated, the bounds `−x_j ≤ 0` take the multipliers `(Σ_r y_r a_r)_j`) and the
/// combination is verified by [`farkas::verify`].
pub fn verify_certificate(rows: &[Row], nvars: usize, y: &[Num]) -> Result<(), FarkasError> {
    if y.len() != rows.len() {
        return Err(FarkasError::LengthMismatch);
    }
    let mut cs = Vec::with_capacity(rows.len() + nvars);
    let mut lambda = Vec::with_capacity(rows.len() + nvars);
    let mut col = vec![Num::ZERO; nvars];
    for (r, yr) in rows.iter().zip(y) {
        let negate = match r.cmp {
            Cmp::Le => false,
            Cmp::Ge => true,
            Cmp::Eq => yr.is_neg(),
        };
        let lin = r
            .coeffs
            .iter()
            .enumerate()
            .take(nvars)
            .filter(|(_, a)| !a.is_zero())
            .map(|(j, a)| (j as u32, if negate { a.neg() } else { a.clone() }))
            .collect();
        for (c, a) in col.iter_mut().zip(&r.coeffs) {
            *c = c.add(&a.mul(yr));
        }
        cs.push(Constraint {
            lin,
            rhs: if negate { r.rhs.neg() } else { r.rhs.clone() },
            strict: false,
        });
        lambda.push(if negate { yr.neg() } else { yr.clone() });
    }
    for (j, c) in col.into_iter().enumerate() {
        cs.push(Constraint {
            lin: vec![(j as u32, Num::int(-1))],
            rhs: Num::ZERO,
            strict: false,
        });
        lambda.push(c);
    }
    farkas::verify(&cs, &lambda)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn q(n: i64, d: i64) -> Num {
        Num::int(n).div(&Num::int(d))
    }

    fn assert_infeasible(rows: &[Row], n: usize) {
        match solve(rows, n) {
            Feasibility::Infeasible(y) => verify_certificate(rows, n, &y).unwrap(),
            Feasibility::Feasible(x) => panic!("feasible: {x:?}"),
        }
    }

    #[test]
    fn small_systems() {
        // x + y = 1, x ≥ 1/3, y ≥ 1/2: feasible.
        let rows = vec![
            Row::new(vec![q(1, 1), q(1, 1)], Cmp::Eq, q(1, 1)),
            Row::new(vec![q(1, 1), q(0, 1)], Cmp::Ge, q(1, 3)),
            Row::new(vec![q(0, 1), q(1, 1)], Cmp::Ge, q(1, 2)),
        ];
        let Feasibility::Feasible(x) = solve(&rows, 2) else {
            panic!("infeasible")
        };
        assert!(satisfies(&rows, 2, &x));
        assert_eq!(x[0].add(&x[1]), Num::ONE);
        // x + y = 1, x ≥ 2/3, y ≥ 1/3 + 10^-12: infeasible, exactly at the boundary 2/3 + 1/3.
        let rows = vec![
            Row::new(vec![q(1, 1), q(1, 1)], Cmp::Eq, q(1, 1)),
            Row::new(vec![q(1, 1), q(0, 1)], Cmp::Ge, q(2, 3)),
            Row::new(
                vec![q(0, 1), q(1, 1)],
                Cmp::Ge,
                q(1, 3).add(&q(1, 1_000_000_000_000)),
            ),
        ];
        assert_infeasible(&rows, 2);
        // x ≤ -1 has no non-negative solution.
        assert_infeasible(&[Row::new(vec![q(1, 1)], Cmp::Le, q(-1, 1))], 1);
        // An empty system is feasible at 0.
        assert_eq!(solve(&[], 2), Feasibility::Feasible(vec![Num::ZERO; 2]));
    }

    #[test]
    fn wrong_certificates_are_rejected() {
        let rows = vec![Row::new(vec![q(1, 1)], Cmp::Le, q(-1, 1))];
        assert!(verify_certificate(&rows, 1, &[Num::ONE]).is_ok());
        assert!(verify_certificate(&rows, 1, &[Num::int(-1)]).is_err());
        assert!(verify_certificate(&rows, 1, &[Num::ZERO]).is_err());
        assert!(verify_certificate(&rows, 1, &[]).is_err());
        // x ≥ 1 is feasible: no certificate exists.
        let rows = vec![Row::new(vec![q(1, 1)], Cmp::Ge, q(1, 1))];
        for y in [-2, -1, 0, 1, 2] {
            assert!(verify_certificate(&rows, 1, &[Num::int(y)]).is_err());
        }
    }

    /// Solves the square system `M z = v` exactly (Gaussian elimination); `None` if singular.
    fn solve_square(mut m: Vec<Vec<Num>>, mut v: Vec<Num>) -> Option<Vec<Num>> {
        let n = v.len();
        for c in 0..n {
            let p = (c..n).find(|&r| !m[r][c].is_zero())?;
            m.swap(c, p);
            v.swap(c, p);
            let (prow, pv) = (m[c].clone(), v[c].clone());
            for r in (0..n).filter(|&r| r != c) {
                if m[r][c].is_zero() {
                    continue;
                }
                let f = m[r][c].div(&prow[c]);
                for (x, p) in m[r].iter_mut().zip(&prow) {
                    *x = x.sub(&f.mul(p));
                }
                v[r] = v[r].sub(&f.mul(&pv));
            }
        }
        Some(
            m.iter()
                .zip(&v)
                .enumerate()
                .map(|(i, (row, b))| b.div(&row[i]))
                .collect(),
        )
    }

    /// Brute force: `{x ≥ 0 | rows}` is pointed, so it is non-empty iff one of its vertices
    /// exists — the solution of some `n` tight hyperplanes among the rows and `x_j = 0`.
    fn brute_feasible(rows: &[Row], n: usize) -> bool {
        let mut planes: Vec<(Vec<Num>, Num)> = rows
            .iter()
            .map(|r| (r.coeffs.clone(), r.rhs.clone()))
            .collect();
        for j in 0..n {
            let mut e = vec![Num::ZERO; n];
            e[j] = Num::ONE;
            planes.push((e, Num::ZERO));
        }
        let k = planes.len();
        (0u32..1 << k)
            .filter(|s| s.count_ones() as usize == n)
            .any(|s| {
                let chosen: Vec<&(Vec<Num>, Num)> = (0..k)
                    .filter(|i| s >> i & 1 == 1)
                    .map(|i| &planes[i])
                    .collect();
                let m = chosen.iter().map(|p| p.0.clone()).collect();
                let v = chosen.iter().map(|p| p.1.clone()).collect();
                solve_square(m, v).is_some_and(|x| satisfies(rows, n, &x))
            })
    }

    fn arb_rows() -> impl Strategy<Value = (usize, Vec<Row>)> {
        (1usize..4).prop_flat_map(|n| {
            let row = (
                proptest::collection::vec(-3i64..4, n),
                0u8..3,
                -4i64..5,
                1i64..3,
            )
                .prop_map(|(a, c, b, d)| {
                    let cmp = [Cmp::Le, Cmp::Eq, Cmp::Ge][c as usize];
                    Row::new(a.into_iter().map(Num::int).collect(), cmp, q(b, d))
                });
            (Just(n), proptest::collection::vec(row, 0..5))
        })
    }

    proptest! {
        /// Every answer is certified (a point checked against the rows, a Farkas certificate
        /// verified) and agrees with vertex enumeration.
        #[test]
        fn exact_lp_matches_vertex_enumeration((n, rows) in arb_rows()) {
            let want = brute_feasible(&rows, n);
            match solve(&rows, n) {
                Feasibility::Feasible(x) => {
                    prop_assert!(satisfies(&rows, n, &x));
                    prop_assert!(want);
                }
                Feasibility::Infeasible(y) => {
                    prop_assert_eq!(verify_certificate(&rows, n, &y), Ok(()));
                    prop_assert!(!want);
                }
            }
        }
    }
}
