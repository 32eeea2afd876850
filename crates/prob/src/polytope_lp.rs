//! Strict minimality of the polytopes `P^{s,a}_R` by linear programming: Definition 5, Theorem 8
//! and the Farkas-based system (3)–(6) of "Polynomial-Time Alternating Probabilistic
//! Bisimulation for Interval MDPs" (Hashemi, Turrini, Hahn, Hermanns, Elbassioni, SETTA 2017,
//! Sect. 4).
//!
//! A polytope is `{ x | l ≤ x ≤ u, 1·x = 1 }` over the classes of a partition. Probabilities
//! are fixed-point integers in units of [`ONE`]` = 10^12` so that sums over classes are exact and
//! equal polytopes compare equal. Polytopes are kept *tight* (every bound is attained), which
//! makes the representation of a polytope unique.
//!
//! `P_0` is strictly minimal unless some convex combination `Σ λ_i P_i` of the other polytopes
//! is contained in it. Theorem 8 decides this by one LP obtained from Farkas' lemma, system
//! (3)–(6) with the variables `μ, ν, θ, η` ([`contained_farkas`], used as the independent oracle
//! in tests). For box-and-simplex polytopes the inner LPs of (1)/(2) have closed-form optima —
//! `min_{x∈P_i} x_k` and `max_{x∈P_i} x_k` are the tight bounds — so the same question is the
//! much smaller LP in `λ` alone, used by [`strictly_minimal`]:
//! `Σ λ_i lo_{i,k} ≥ lo_{0,k}`, `Σ λ_i hi_{i,k} ≤ hi_{0,k}` for every class `k`, `Σ λ = 1`.
//! Both LPs are solved with `microlp` in floating point; a feasible answer is re-checked against
//! the exact integer data with a tolerance of `1e-9` (the returned λ is the certificate).

use microlp::{ComparisonOp, OptimizationDirection, Problem};

/// Fixed-point unit: probability 1.
pub const ONE: i64 = 1_000_000_000_000;

/// Tolerance used when re-checking a returned LP certificate.
pub const CERT_TOL: f64 = 1e-9;

/// Converts a probability to fixed point.
pub fn fixed(p: f64) -> i64 {
    (p.clamp(0.0, 1.0) * ONE as f64).round() as i64
}

/// A polytope over classes: `(class, lo, hi)` sorted by class; classes not listed have `[0, 0]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Polytope {
    pub entries: Vec<(u32, i64, i64)>,
}

impl Polytope {
    /// Builds the tight polytope from per-class interval bounds (classes may repeat and are
    /// summed; each sum is capped at 1 as in the paper's `I(s, a, C)`). `None` if empty.
    pub fn from_bounds(mut raw: Vec<(u32, i64, i64)>) -> Option<Polytope> {
        raw.sort_unstable_by_key(|e| e.0);
        let mut e: Vec<(u32, i64, i64)> = Vec::with_capacity(raw.len());
        for (c, l, u) in raw {
            match e.last_mut() {
                Some(last) if last.0 == c => {
                    last.1 += l;
                    last.2 += u;
                }
                _ => e.push((c, l, u)),
            }
        }
        for x in e.iter_mut() {
            x.1 = x.1.min(ONE);
            x.2 = x.2.min(ONE);
        }
        let lsum: i64 = e.iter().map(|x| x.1).sum();
        let usum: i64 = e.iter().map(|x| x.2).sum();
        if lsum > ONE || usum < ONE || e.iter().any(|x| x.1 > x.2) {
            return None;
        }
        let tight: Vec<(u32, i64, i64)> = e
            .iter()
            .map(|&(c, l, u)| (c, l.max(ONE - (usum - u)), u.min(ONE - (lsum - l))))
            .filter(|x| x.2 > 0)
            .collect();
        Some(Polytope { entries: tight })
    }

    fn get(&self, c: u32) -> (i64, i64) {
        match self.entries.binary_search_by_key(&c, |e| e.0) {
            Ok(i) => (self.entries[i].1, self.entries[i].2),
            Err(_) => (0, 0),
        }
    }

    /// `self ⊆ other` (both tight).
    pub fn subset_of(&self, other: &Polytope) -> bool {
        self.entries.iter().all(|&(c, l, u)| {
            let (l0, u0) = other.get(c);
            l >= l0 && u <= u0
        }) && other.entries.iter().all(|&(c, l0, _)| {
            let (l, _) = self.get(c);
            l >= l0
        })
    }
}

fn union_classes(polys: &[&Polytope]) -> Vec<u32> {
    let mut ks: Vec<u32> = polys
        .iter()
        .flat_map(|p| p.entries.iter().map(|e| e.0))
        .collect();
    ks.sort_unstable();
    ks.dedup();
    ks
}

/// Is some convex combination of `others` contained in `p0`? Returns the certificate λ.
/// Uses the reduced LP in λ (see the module documentation).
pub fn combination_contained(p0: &Polytope, others: &[&Polytope]) -> Option<Vec<f64>> {
    if others.is_empty() {
        return None;
    }
    let mut all: Vec<&Polytope> = vec![p0];
    all.extend_from_slice(others);
    let ks = union_classes(&all);
    // Necessary condition per class (each side of a mean lies between min and max).
    for &k in &ks {
        let (l0, u0) = p0.get(k);
        let max_lo = others.iter().map(|p| p.get(k).0).max().unwrap_or(0);
        let min_hi = others.iter().map(|p| p.get(k).1).min().unwrap_or(0);
        if max_lo < l0 || min_hi > u0 {
            return None;
        }
    }
    // A single polytope contained (λ a Dirac).
    if let Some(i) = others.iter().position(|p| p.subset_of(p0)) {
        let mut lam = vec![0.0; others.len()];
        lam[i] = 1.0;
        return Some(lam);
    }
    let f = |x: i64| x as f64 / ONE as f64;
    let mut lp = Problem::new(OptimizationDirection::Minimize);
    let vars: Vec<_> = others.iter().map(|_| lp.add_var(0.0, (0.0, 1.0))).collect();
    lp.add_constraint(
        vars.iter().map(|&v| (v, 1.0)).collect::<Vec<_>>(),
        ComparisonOp::Eq,
        1.0,
    );
    for &k in &ks {
        let (l0, u0) = p0.get(k);
        let lo: Vec<_> = vars
            .iter()
            .zip(others)
            .map(|(&v, p)| (v, f(p.get(k).0)))
            .collect();
        let hi: Vec<_> = vars
            .iter()
            .zip(others)
            .map(|(&v, p)| (v, f(p.get(k).1)))
            .collect();
        lp.add_constraint(lo, ComparisonOp::Ge, f(l0));
        lp.add_constraint(hi, ComparisonOp::Le, f(u0));
    }
    let sol = lp.solve().ok()?.into_solution().ok()?;
    let lam: Vec<f64> = vars.iter().map(|&v| sol.var_value(v).max(0.0)).collect();
    // Re-check the certificate against the exact data.
    let sum: f64 = lam.iter().sum();
    if (sum - 1.0).abs() > CERT_TOL {
        return None;
    }
    for &k in &ks {
        let (l0, u0) = p0.get(k);
        let lo: f64 = lam.iter().zip(others).map(|(x, p)| x * f(p.get(k).0)).sum();
        let hi: f64 = lam.iter().zip(others).map(|(x, p)| x * f(p.get(k).1)).sum();
        if lo < f(l0) - CERT_TOL || hi > f(u0) + CERT_TOL {
            tracing::warn!("LP certificate rejected by the re-check; polytope kept minimal");
            return None;
        }
    }
    Some(lam)
}

/// Strict minimality (Definition 5) of each of the pairwise distinct polytopes of one state.
pub fn strictly_minimal(polys: &[Polytope]) -> Vec<bool> {
    (0..polys.len())
        .map(|i| {
            let others: Vec<&Polytope> = polys
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, p)| p)
                .collect();
            combination_contained(&polys[i], &others).is_none()
        })
        .collect()
}

/// The paper's LP of Theorem 8 verbatim: do there exist `λ ≥ 0`, `Σλ = 1`, and the Farkas
/// multipliers `μ, ν, θ, η` of (3)–(6) for every class `k`? Bounds `l_i, u_i` need not be tight
/// (but the polytopes must be non-empty, as Farkas' lemma requires). Quadratic in the number of
/// classes times the number of polytopes; meant for small instances and as a test oracle.
pub fn contained_farkas(p0: &Polytope, others: &[&Polytope]) -> bool {
    if others.is_empty() {
        return false;
    }
    let mut all: Vec<&Polytope> = vec![p0];
    all.extend_from_slice(others);
    let ks = union_classes(&all);
    let n = ks.len();
    let f = |x: i64| x as f64 / ONE as f64;
    let mut lp = Problem::new(OptimizationDirection::Minimize);
    let lam: Vec<_> = others.iter().map(|_| lp.add_var(0.0, (0.0, 1.0))).collect();
    lp.add_constraint(
        lam.iter().map(|&v| (v, 1.0)).collect::<Vec<_>>(),
        ComparisonOp::Eq,
        1.0,
    );
    let inf = f64::INFINITY;
    for (ki, &k) in ks.iter().enumerate() {
        let (l0k, u0k) = p0.get(k);
        // sign = -1: system (3)-(4) for the lower bound; sign = +1: (5)-(6) for the upper.
        for sign in [-1.0, 1.0] {
            let mut obj_terms = Vec::new();
            for (i, p) in others.iter().enumerate() {
                let mu: Vec<_> = (0..n).map(|_| lp.add_var(0.0, (0.0, inf))).collect();
                let nu: Vec<_> = (0..n).map(|_| lp.add_var(0.0, (0.0, inf))).collect();
                let th = lp.add_var(0.0, (0.0, inf));
                let et = lp.add_var(0.0, (0.0, inf));
                for j in 0..n {
                    // μ_j − ν_j + θ − η − sign·λ_i·[j = k] = 0
                    let mut row = vec![(mu[j], 1.0), (nu[j], -1.0), (th, 1.0), (et, -1.0)];
                    if j == ki {
                        row.push((lam[i], -sign));
                    }
                    lp.add_constraint(row, ComparisonOp::Eq, 0.0);
                }
                for (j, &c) in ks.iter().enumerate() {
                    let (l, u) = p.get(c);
                    obj_terms.push((mu[j], f(u)));
                    obj_terms.push((nu[j], -f(l)));
                }
                obj_terms.push((th, 1.0));
                obj_terms.push((et, -1.0));
            }
            let rhs = if sign < 0.0 { -f(l0k) } else { f(u0k) };
            lp.add_constraint(obj_terms, ComparisonOp::Le, rhs + CERT_TOL);
        }
    }
    matches!(lp.solve(), Ok(o) if o.solution().is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(e: &[(u32, f64, f64)]) -> Polytope {
        Polytope::from_bounds(e.iter().map(|&(c, l, u)| (c, fixed(l), fixed(u))).collect()).unwrap()
    }

    #[test]
    fn tightening_is_canonical() {
        // [0.5,1] + [0,0.5] over two classes equals [0.5,1] + [0,1] after tightening.
        assert_eq!(
            p(&[(0, 0.5, 1.0), (1, 0.0, 0.5)]),
            p(&[(0, 0.5, 1.0), (1, 0.0, 1.0)])
        );
        assert!(Polytope::from_bounds(vec![
            (0, fixed(0.6), fixed(0.7)),
            (1, fixed(0.5), fixed(0.6))
        ])
        .is_none());
    }

    #[test]
    fn paper_figure_1_state_s() {
        // State s of Fig. 1: a: t∈[1/3,2/3], u∈[1/10,1]; b: t∈[2/5,3/5], u∈[1/4,2/3].
        let a = p(&[(0, 1.0 / 3.0, 2.0 / 3.0), (1, 0.1, 1.0)]);
        let b = p(&[(0, 0.4, 0.6), (1, 0.25, 2.0 / 3.0)]);
        // b's polytope (t ∈ [0.4,0.6]) lies inside a's (t ∈ [1/3,2/3]): a is not minimal.
        assert!(b.subset_of(&a));
        assert_eq!(strictly_minimal(&[a.clone(), b.clone()]), vec![false, true]);
        assert!(contained_farkas(&a, &[&b]));
        assert!(!contained_farkas(&b, &[&a]));
    }

    #[test]
    fn convex_combination_needed() {
        // Points (1,0) and (0,1) combine to (0.5,0.5) ∈ box [0.4,0.6]^2 — no single one fits.
        let p0 = p(&[(0, 0.4, 0.6), (1, 0.4, 0.6)]);
        let p1 = p(&[(0, 1.0, 1.0)]);
        let p2 = p(&[(1, 1.0, 1.0)]);
        let lam = combination_contained(&p0, &[&p1, &p2]).expect("contained");
        assert!((0.4 - 1e-9..=0.6 + 1e-9).contains(&lam[0]));
        assert!(contained_farkas(&p0, &[&p1, &p2]));
        assert_eq!(strictly_minimal(&[p0, p1, p2]), vec![false, true, true]);
        // Intervals that cannot be compensated: [0.9,1] and [0,0.1] boxes average to a box of
        // width 0.1 around 0.5 — not inside [0.48,0.52].
        let q0 = p(&[(0, 0.48, 0.52), (1, 0.48, 0.52)]);
        let q1 = p(&[(0, 0.9, 1.0), (1, 0.0, 0.1)]);
        let q2 = p(&[(0, 0.0, 0.1), (1, 0.9, 1.0)]);
        assert!(combination_contained(&q0, &[&q1, &q2]).is_none());
        assert!(!contained_farkas(&q0, &[&q1, &q2]));
    }
}
