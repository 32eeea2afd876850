//! Exact rational solution of the linear equations of one Markov-chain component, by sparse
//! Gaussian elimination with a minimum-degree pivot order (Markowitz, "The elimination form of
//! the inverse and its application to linear programming", Management Science 1957).
//!
//! Used when floating-point elimination breaks down on an ill-conditioned component (e.g. the
//! Haddad–Monmege chain, whose escape probabilities 2^-N vanish below double precision): the
//! equations `x_i − Σ_j A_ij x_j = b_i` are solved over the rationals, where every coefficient is
//! the exact value of the double in the built model. The result is exact for that model and
//! rounded once to the nearest double. (On such a chain the answer is sensitive to the last bit:
//! a row whose doubles do not sum to exactly one leaks mass at every visit. PRISM files usually
//! write the complement as `1-p`, which is exact in doubles.)

use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use std::collections::{BTreeMap, BTreeSet};

/// One equation `Σ_j coef_j x_j = rhs` for each member (local indices), with two right-hand
/// sides (lower and upper values of the components below).
pub(crate) struct Equations {
    pub rows: Vec<Vec<(u32, f64)>>,
    pub rhs_lo: Vec<f64>,
    pub rhs_hi: Vec<f64>,
}

/// The exact value of a double.
fn rat(x: f64) -> Option<BigRational> {
    BigRational::from_float(x)
}

/// Solves the equations exactly; `None` if a value is not finite, the system is singular, or the
/// fill-in exceeds `max_nonzeros`.
pub(crate) fn solve_exact(eq: &Equations, max_nonzeros: usize) -> Option<(Vec<f64>, Vec<f64>)> {
    let k = eq.rows.len();
    let mut rows: Vec<BTreeMap<u32, BigRational>> = Vec::with_capacity(k);
    let mut rhs: Vec<(BigRational, BigRational)> = Vec::with_capacity(k);
    let mut col_rows: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); k];
    let mut nnz = 0usize;
    for (i, r) in eq.rows.iter().enumerate() {
        let mut m: BTreeMap<u32, BigRational> = BTreeMap::new();
        for &(j, a) in r {
            if (j as usize) >= k {
                return None;
            }
            let e = m.entry(j).or_insert_with(BigRational::zero);
            *e += rat(a)?;
        }
        m.retain(|_, v| !v.is_zero());
        for &j in m.keys() {
            col_rows[j as usize].insert(i as u32);
        }
        nnz += m.len();
        rows.push(m);
        rhs.push((rat(*eq.rhs_lo.get(i)?)?, rat(*eq.rhs_hi.get(i)?)?));
    }
    let mut done = vec![false; k];
    // (row, pivot column) in elimination order.
    let mut order: Vec<(usize, u32)> = Vec::with_capacity(k);
    for _ in 0..k {
        // Minimum degree: the remaining row with the fewest entries.
        let r = (0..k)
            .filter(|&i| !done[i])
            .min_by_key(|&i| rows[i].len())?;
        // Its column that occurs in the fewest remaining rows.
        let c = *rows[r]
            .keys()
            .filter(|&&j| col_rows[j as usize].contains(&(r as u32)))
            .min_by_key(|&&j| col_rows[j as usize].len())?;
        done[r] = true;
        let piv = rows[r].get(&c)?.clone();
        if piv.is_zero() {
            return None;
        }
        for &j in rows[r].keys() {
            col_rows[j as usize].remove(&(r as u32));
        }
        let targets: Vec<u32> = col_rows[c as usize].iter().copied().collect();
        let prow: Vec<(u32, BigRational)> = rows[r].iter().map(|(&j, v)| (j, v.clone())).collect();
        let (plo, phi) = rhs[r].clone();
        for t in targets {
            let t = t as usize;
            let Some(f) = rows[t].get(&c).map(|a| a / &piv) else {
                continue;
            };
            for (j, v) in &prow {
                let e = rows[t].entry(*j).or_insert_with(BigRational::zero);
                let was_zero = e.is_zero();
                *e -= &f * v;
                if e.is_zero() {
                    rows[t].remove(j);
                    col_rows[*j as usize].remove(&(t as u32));
                    nnz = nnz.saturating_sub(1);
                } else if was_zero {
                    col_rows[*j as usize].insert(t as u32);
                    nnz += 1;
                }
            }
            rhs[t].0 -= &f * &plo;
            rhs[t].1 -= &f * &phi;
            if nnz > max_nonzeros {
                return None;
            }
        }
        order.push((r, c));
    }
    // Back substitution in reverse elimination order: a pivot row holds only its pivot column and
    // columns pivoted later.
    let mut xl: Vec<Option<BigRational>> = vec![None; k];
    let mut xh: Vec<Option<BigRational>> = vec![None; k];
    for &(r, c) in order.iter().rev() {
        let (mut sl, mut sh) = rhs[r].clone();
        for (&j, a) in &rows[r] {
            if j == c {
                continue;
            }
            sl -= a * xl[j as usize].as_ref()?;
            sh -= a * xh[j as usize].as_ref()?;
        }
        let piv = rows[r].get(&c)?;
        xl[c as usize] = Some(sl / piv);
        xh[c as usize] = Some(sh / piv);
    }
    let to_f = |v: Vec<Option<BigRational>>| -> Option<Vec<f64>> {
        v.into_iter()
            .map(|x| x.and_then(|x| x.to_f64()).map(|f| f.max(0.0)))
            .collect()
    };
    Some((to_f(xl)?, to_f(xh)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_small_system_exactly() {
        // x0 = 0.5 x1 + 0.25, x1 = 0.5 x0 + 0.5  =>  x0 = 0.666..., x1 = 0.833...
        let eq = Equations {
            rows: vec![vec![(0, 1.0), (1, -0.5)], vec![(1, 1.0), (0, -0.5)]],
            rhs_lo: vec![0.25, 0.5],
            rhs_hi: vec![0.25, 0.5],
        };
        let (l, h) = solve_exact(&eq, 1000).unwrap();
        assert!((l[0] - 2.0 / 3.0).abs() < 1e-15 && (l[1] - 5.0 / 6.0).abs() < 1e-15);
        assert_eq!(l, h);
    }

    #[test]
    fn haddad_monmege_like_chain_is_exact() {
        // Chain 1..=2n-1 with centre n: from the centre 0.7 down / 0.3 up; below the centre
        // 0.5 further down (0 is the target) else back to the centre; above symmetrically to the
        // sink. The probability to reach the target is exactly 0.7 for every n (both sides escape
        // with probability 2^-(n-1)), which floating-point elimination cannot see for n = 100.
        for n in [2usize, 3, 10, 100] {
            let k = 2 * n - 1; // local index i ↔ x = i + 1
            let mut rows = vec![Vec::new(); k];
            let mut rhs = vec![0.0; k];
            for x in 1..2 * n {
                let i = x - 1;
                rows[i].push((i as u32, 1.0));
                if x == n {
                    rows[i].push(((x - 2) as u32, -0.7));
                    // As the model writes it: `1-p`, exact in doubles (the literal 0.3 is not
                    // 1 − 0.7 in doubles, and the chain would leak at every visit of the centre).
                    rows[i].push((x as u32, -(1.0 - 0.7)));
                } else if x < n {
                    if x == 1 {
                        rhs[i] += 0.5;
                    } else {
                        rows[i].push(((x - 2) as u32, -0.5));
                    }
                    rows[i].push(((n - 1) as u32, -0.5));
                } else {
                    if x + 1 < 2 * n {
                        rows[i].push((x as u32, -0.5));
                    }
                    rows[i].push(((n - 1) as u32, -0.5));
                }
            }
            let eq = Equations {
                rows,
                rhs_lo: rhs.clone(),
                rhs_hi: rhs,
            };
            let (l, _) = solve_exact(&eq, 100_000).unwrap();
            let centre = l[n - 1];
            assert!((centre - 0.7).abs() < 1e-15, "n={n}: {centre}");
        }
    }
}
