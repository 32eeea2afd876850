//! Exact feasibility of small linear programs over the rationals: phase I of the simplex method
//! on a dense tableau with Bland's rule (Dantzig; Bland 1977, "New finite pivoting rules for
//! the simplex method"). The exact fallback behind the Theorem 8 decisions of "Polynomial-Time
//! Alternating Probabilistic Bisimulation for Interval MDPs" (Hashemi, Turrini, Hahn, Hermanns,
//! Elbassioni, SETTA 2017, Sect. 4) when a floating-point answer cannot be certified
//! ([`crate::polytope_lp`]).

use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// Kind of a constraint row `a·x (≤|=|≥) b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Le,
    Eq,
    Ge,
}

/// A point `x ≥ 0` with `a_r·x cmp_r b_r` for every row, or `None` if there is none.
pub fn feasible_point(
    rows: &[(Vec<BigRational>, Cmp, BigRational)],
    nvars: usize,
) -> Option<Vec<BigRational>> {
    let m = rows.len();
    // Columns: the variables, one slack per inequality, one artificial per row, then b.
    let nslack = rows.iter().filter(|r| r.1 != Cmp::Eq).count();
    let ncols = nvars + nslack + m;
    let zero = BigRational::zero();
    let one = BigRational::one();
    let mut t: Vec<Vec<BigRational>> = Vec::with_capacity(m);
    let mut basis: Vec<usize> = Vec::with_capacity(m);
    let mut slack = nvars;
    for (r, (a, cmp, b)) in rows.iter().enumerate() {
        let mut row = vec![zero.clone(); ncols + 1];
        for (j, x) in a.iter().enumerate().take(nvars) {
            row[j] = x.clone();
        }
        match cmp {
            Cmp::Le => {
                row[slack] = one.clone();
                slack += 1;
            }
            Cmp::Ge => {
                row[slack] = -one.clone();
                slack += 1;
            }
            Cmp::Eq => {}
        }
        row[ncols] = b.clone();
        if row[ncols].is_negative() {
            for x in row.iter_mut() {
                *x = -x.clone();
            }
        }
        row[nvars + nslack + r] = one.clone();
        basis.push(nvars + nslack + r);
        t.push(row);
    }
    // Phase-I objective: minimise the sum of artificials; reduced costs c_j − z_j.
    let art = nvars + nslack;
    let mut cost = vec![zero.clone(); ncols + 1];
    for row in &t {
        for j in 0..=ncols {
            if j < art || j == ncols {
                cost[j] -= &row[j];
            }
        }
    }
    // Bland: the lowest-index column with a negative reduced cost enters.
    while let Some(enter) = (0..ncols).find(|&j| cost[j].is_negative()) {
        // Ratio test; ties broken by the lowest basic index.
        let mut leave: Option<(usize, BigRational)> = None;
        for (r, row) in t.iter().enumerate() {
            if row[enter].is_positive() {
                let ratio = &row[ncols] / &row[enter];
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
            *x = &*x / &piv;
        }
        let prow = t[lr].clone();
        for (r, row) in t.iter_mut().enumerate() {
            if r != lr && !row[enter].is_zero() {
                let f = row[enter].clone();
                for j in 0..=ncols {
                    if !prow[j].is_zero() {
                        row[j] -= &f * &prow[j];
                    }
                }
            }
        }
        let f = cost[enter].clone();
        for j in 0..=ncols {
            if !prow[j].is_zero() {
                cost[j] -= &f * &prow[j];
            }
        }
        basis[lr] = enter;
    }
    // The phase-I optimum is −cost[ncols]; feasible iff it is 0.
    if !cost[ncols].is_zero() {
        return None;
    }
    let mut x = vec![zero; nvars];
    for (r, &b) in basis.iter().enumerate() {
        if b < nvars {
            x[b] = t[r][ncols].clone();
        }
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn small_systems() {
        // x + y = 1, x ≥ 1/3, y ≥ 1/2: feasible.
        let rows = vec![
            (vec![q(1, 1), q(1, 1)], Cmp::Eq, q(1, 1)),
            (vec![q(1, 1), q(0, 1)], Cmp::Ge, q(1, 3)),
            (vec![q(0, 1), q(1, 1)], Cmp::Ge, q(1, 2)),
        ];
        let x = feasible_point(&rows, 2).expect("feasible");
        assert_eq!(&x[0] + &x[1], q(1, 1));
        assert!(x[0] >= q(1, 3) && x[1] >= q(1, 2));
        // x + y = 1, x ≥ 2/3, y ≥ 1/2: infeasible, exactly at the boundary 2/3 + 1/3.
        let rows = vec![
            (vec![q(1, 1), q(1, 1)], Cmp::Eq, q(1, 1)),
            (vec![q(1, 1), q(0, 1)], Cmp::Ge, q(2, 3)),
            (
                vec![q(0, 1), q(1, 1)],
                Cmp::Ge,
                q(1, 3) + q(1, 1_000_000_000_000),
            ),
        ];
        assert!(feasible_point(&rows, 2).is_none());
        // x ≤ -1 has no non-negative solution.
        assert!(feasible_point(&[(vec![q(1, 1)], Cmp::Le, q(-1, 1))], 1).is_none());
    }
}
