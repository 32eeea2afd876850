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
//! Both LPs are solved with `microlp` in floating point, and every decision of
//! [`combination_contained`] is then *certified in exact rational arithmetic* on the integer
//! data: a "contained" answer by its weights λ (made rational, normalised to sum exactly 1, and
//! checked against every constraint), a "not contained" answer by a Farkas certificate of
//! infeasibility `(y, α, β)` from the dual LP (`y + Σ_k α_k lo_{i,k} − Σ_k β_k hi_{i,k} ≤ 0` for
//! every other polytope `i` and `y + Σ α_k lo_{0,k} − Σ β_k hi_{0,k} > 0`; rounding in the rows is
//! repaired by lowering the free `y`). When neither certificate checks, the LP is decided by the
//! exact simplex of `verikit-num` (`exact_lp`), whose infeasibility answers carry a Farkas
//! certificate as well. Both kinds of certificate are checked by the one Farkas verifier of
//! `verikit-num` on the same exact rows ([`containment_rows`]); the weights by
//! `exact_lp::satisfies`. [`LpStats`] counts which route decided.

use microlp::{ComparisonOp, OptimizationDirection, Problem};
use verikit_num::exact_lp::{self, Cmp, Feasibility, Row};
use verikit_num::Num;

/// Fixed-point unit: probability 1.
pub(crate) const ONE: i64 = 1_000_000_000_000;

/// Slack of the paper's Farkas system when used as a floating-point test oracle.
pub(crate) const CERT_TOL: f64 = 1e-9;

/// How the containment LPs were decided.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LpStats {
    /// Decided by integer arithmetic alone (necessary conditions, one polytope inside).
    pub integer: usize,
    /// Floating-point LP feasible, λ certified exactly.
    pub primal: usize,
    /// Floating-point LP infeasible, Farkas certificate checked exactly.
    pub dual: usize,
    /// Decided by the exact simplex because no certificate checked.
    pub exact: usize,
}

fn int(x: i64) -> Num {
    Num::int(x)
}

/// The containment LP over `λ` on the integer (fixed-point) data, exactly: `Σ λ_i = 1`, and for
/// every class `k` of `ks`, `Σ λ_i lo_{i,k} ≥ lo_{0,k}` and `Σ λ_i hi_{i,k} ≤ hi_{0,k}` (`λ ≥ 0`
/// is implicit). Row `0` is the equation, then a `≥` and a `≤` row per class.
pub(crate) fn containment_rows(p0: &Polytope, others: &[&Polytope], ks: &[u32]) -> Vec<Row> {
    let mut rows = vec![Row::new(vec![Num::ONE; others.len()], Cmp::Eq, Num::ONE)];
    for &k in ks {
        let (l0, u0) = p0.get(k);
        rows.push(Row::new(
            others.iter().map(|p| int(p.get(k).0)).collect(),
            Cmp::Ge,
            int(l0),
        ));
        rows.push(Row::new(
            others.iter().map(|p| int(p.get(k).1)).collect(),
            Cmp::Le,
            int(u0),
        ));
    }
    rows
}

/// Exact check of weights λ: non-negative after clamping, normalised to sum 1, and satisfying
/// the containment rows.
fn certify_primal(p0: &Polytope, others: &[&Polytope], ks: &[u32], lam: &[f64]) -> bool {
    let l: Option<Vec<Num>> = lam.iter().map(|&x| Num::from_f64(x.max(0.0))).collect();
    let Some(l) = l else { return false };
    let sum = l.iter().fold(Num::ZERO, |s, x| s.add(x));
    if !sum.is_pos() {
        return false;
    }
    let l: Vec<Num> = l.into_iter().map(|x| x.div(&sum)).collect();
    exact_lp::satisfies(&containment_rows(p0, others, ks), others.len(), &l)
}

/// A Farkas certificate that no λ exists, from the dual LP, checked exactly.
fn certify_dual(p0: &Polytope, others: &[&Polytope], ks: &[u32]) -> bool {
    let f = |x: i64| x as f64 / ONE as f64;
    let mut lp = Problem::new(OptimizationDirection::Minimize);
    let y = lp.add_var(0.0, (-1e9, 1e9));
    let al: Vec<_> = ks.iter().map(|_| lp.add_var(0.0, (0.0, 1e9))).collect();
    let be: Vec<_> = ks.iter().map(|_| lp.add_var(0.0, (0.0, 1e9))).collect();
    for p in others {
        let mut row = vec![(y, 1.0)];
        for (j, &k) in ks.iter().enumerate() {
            let (a, b) = p.get(k);
            row.push((al[j], f(a)));
            row.push((be[j], -f(b)));
        }
        lp.add_constraint(row, ComparisonOp::Le, 0.0);
    }
    let mut row = vec![(y, 1.0)];
    for (j, &k) in ks.iter().enumerate() {
        let (a, b) = p0.get(k);
        row.push((al[j], f(a)));
        row.push((be[j], -f(b)));
    }
    lp.add_constraint(row, ComparisonOp::Eq, 1.0);
    let Some(sol) = lp.solve().ok().and_then(|o| o.into_solution().ok()) else {
        return false;
    };
    let v = |x| sol.var_value(x);
    // The certificate in the rows' orientation (y scaled by ONE so that every term is an integer
    // multiple): −y·ONE on the equation, −α_k on the `≥` rows, β_k on the `≤` rows.
    let Some(yq) = Num::from_f64(v(y)) else {
        return false;
    };
    let a: Option<Vec<Num>> = al.iter().map(|&x| Num::from_f64(v(x).max(0.0))).collect();
    let b: Option<Vec<Num>> = be.iter().map(|&x| Num::from_f64(v(x).max(0.0))).collect();
    let (Some(a), Some(b)) = (a, b) else {
        return false;
    };
    let mut cert = vec![yq.mul(&int(ONE)).neg()];
    for (aj, bj) in a.iter().zip(&b) {
        cert.push(aj.neg());
        cert.push(bj.clone());
    }
    // Rounding repair: lower y (raise the equation's multiplier) until every column of the
    // combination is non-negative.
    let rows = containment_rows(p0, others, ks);
    let worst = (0..others.len())
        .map(|i| {
            rows.iter()
                .zip(&cert)
                .fold(Num::ZERO, |s, (r, c)| s.add(&r.coeffs[i].mul(c)))
        })
        .min()
        .unwrap_or(Num::ZERO);
    if worst.is_neg() {
        cert[0] = cert[0].sub(&worst);
    }
    exact_lp::verify_certificate(&rows, others.len(), &cert).is_ok()
}

/// The containment LP decided exactly; the weights if some convex combination is contained.
fn exact_contained(p0: &Polytope, others: &[&Polytope], ks: &[u32]) -> Option<Vec<f64>> {
    let rows = containment_rows(p0, others, ks);
    match exact_lp::solve(&rows, others.len()) {
        Feasibility::Feasible(x) => {
            debug_assert!(exact_lp::satisfies(&rows, others.len(), &x));
            Some(x.iter().map(Num::to_f64).collect())
        }
        Feasibility::Infeasible(y) => {
            if let Err(e) = exact_lp::verify_certificate(&rows, others.len(), &y) {
                tracing::error!("exact LP infeasibility certificate rejected: {e}");
                debug_assert!(false, "exact LP certificate rejected: {e}");
            }
            None
        }
    }
}

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

    /// Appends the tight form of the polytope with per-class bounds `raw` to `out` as
    /// `len, (class, lo, hi)…` without allocating (same result as [`Polytope::from_bounds`]);
    /// `raw` is reordered and merged in place. False (nothing appended) if empty.
    pub fn push_tight(raw: &mut Vec<(u32, i64, i64)>, out: &mut Vec<i64>) -> bool {
        raw.sort_unstable_by_key(|e| e.0);
        let mut w = 0;
        for r in 0..raw.len() {
            if w > 0 && raw[w - 1].0 == raw[r].0 {
                raw[w - 1].1 += raw[r].1;
                raw[w - 1].2 += raw[r].2;
            } else {
                raw[w] = raw[r];
                w += 1;
            }
        }
        raw.truncate(w);
        for x in raw.iter_mut() {
            x.1 = x.1.min(ONE);
            x.2 = x.2.min(ONE);
        }
        let lsum: i64 = raw.iter().map(|x| x.1).sum();
        let usum: i64 = raw.iter().map(|x| x.2).sum();
        if lsum > ONE || usum < ONE || raw.iter().any(|x| x.1 > x.2) {
            return false;
        }
        let at = out.len();
        out.push(0);
        let mut len = 0;
        for &(c, l, u) in raw.iter() {
            let (l, u) = (l.max(ONE - (usum - u)), u.min(ONE - (lsum - l)));
            if u > 0 {
                out.extend_from_slice(&[c as i64, l, u]);
                len += 1;
            }
        }
        out[at] = len;
        true
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

/// Is some convex combination of `others` contained in `p0`? Returns the weights λ. The answer
/// is exact (see the module documentation).
#[cfg(test)]
pub(crate) fn combination_contained(p0: &Polytope, others: &[&Polytope]) -> Option<Vec<f64>> {
    combination_contained_counted(p0, others, &mut LpStats::default())
}

/// [`combination_contained`], counting how the answer was certified.
pub(crate) fn combination_contained_counted(
    p0: &Polytope,
    others: &[&Polytope],
    stats: &mut LpStats,
) -> Option<Vec<f64>> {
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
            stats.integer += 1;
            return None;
        }
    }
    // A single polytope contained (λ a Dirac).
    if let Some(i) = others.iter().position(|p| p.subset_of(p0)) {
        stats.integer += 1;
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
    match lp.solve().map(|o| o.into_solution()) {
        Ok(Ok(sol)) => {
            let lam: Vec<f64> = vars.iter().map(|&v| sol.var_value(v).max(0.0)).collect();
            if certify_primal(p0, others, &ks, &lam) {
                stats.primal += 1;
                return Some(lam);
            }
        }
        Ok(Err(_)) => {}
        Err(_) => {
            if certify_dual(p0, others, &ks) {
                stats.dual += 1;
                return None;
            }
        }
    }
    stats.exact += 1;
    tracing::debug!("LP answer not certified; deciding exactly");
    exact_contained(p0, others, &ks)
}

/// Strict minimality (Definition 5) of each of the pairwise distinct polytopes of one state.
#[cfg(test)]
pub(crate) fn strictly_minimal(polys: &[Polytope]) -> Vec<bool> {
    strictly_minimal_counted(polys, &mut LpStats::default())
}

/// [`strictly_minimal`], counting how the LPs were certified.
pub(crate) fn strictly_minimal_counted(polys: &[Polytope], stats: &mut LpStats) -> Vec<bool> {
    (0..polys.len())
        .map(|i| {
            let others: Vec<&Polytope> = polys
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, p)| p)
                .collect();
            combination_contained_counted(&polys[i], &others, stats).is_none()
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
    fn boundary_cases_are_exact() {
        // λ = 1/3 each: (1/3)(0.3 + 0.3 + 0.3 + ...) lands exactly on the bound 0.3; a bound one
        // fixed-point unit higher is infeasible. Floating point cannot tell these apart.
        let p1 = Polytope::from_bounds(vec![(0, 900_000_000_000, ONE), (1, 0, 100_000_000_000)])
            .unwrap();
        let p2 = Polytope::from_bounds(vec![(1, ONE, ONE)]).unwrap();
        let p3 = Polytope::from_bounds(vec![(0, 0, 0), (2, ONE, ONE)]).unwrap();
        let within = |lo0: i64| {
            Polytope::from_bounds(vec![(0, lo0, ONE), (1, 0, ONE), (2, 0, ONE)]).unwrap()
        };
        let others = [&p1, &p2, &p3];
        let mut st = LpStats::default();
        assert!(
            combination_contained_counted(&within(300_000_000_000), &others, &mut st).is_some()
        );
        assert!(
            combination_contained_counted(&within(900_000_000_000), &others, &mut st).is_some()
        );
        assert!(
            combination_contained_counted(&within(900_000_000_001), &others, &mut st).is_none()
        );
        // Every answer was certified or decided exactly.
        assert_eq!(st.integer + st.primal + st.dual + st.exact, 3);
        // The exact simplex agrees on its own.
        let ks = union_classes(&[&within(1), &p1, &p2, &p3]);
        assert!(exact_contained(&within(900_000_000_000), &others, &ks).is_some());
        assert!(exact_contained(&within(900_000_000_001), &others, &ks).is_none());
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
        assert_eq!(
            strictly_minimal(&[p0.clone(), p1.clone(), p2.clone()]),
            vec![false, true, true]
        );
        // Intervals that cannot be compensated: [0.9,1] and [0,0.1] boxes average to a box of
        // width 0.1 around 0.5 — not inside [0.48,0.52].
        let q0 = p(&[(0, 0.48, 0.52), (1, 0.48, 0.52)]);
        let q1 = p(&[(0, 0.9, 1.0), (1, 0.0, 0.1)]);
        let q2 = p(&[(0, 0.0, 0.1), (1, 0.9, 1.0)]);
        assert!(combination_contained(&q0, &[&q1, &q2]).is_none());
        // Both answers went through the LP and were certified exactly.
        let mut st = LpStats::default();
        assert!(combination_contained_counted(&p0, &[&p1, &p2], &mut st).is_some());
        assert!(combination_contained_counted(&q0, &[&q1, &q2], &mut st).is_none());
        assert_eq!((st.primal, st.dual, st.exact), (1, 1, 0));
        let ks = union_classes(&[&p0, &p1, &p2]);
        assert!(exact_contained(&p0, &[&p1, &p2], &ks).is_some());
        assert!(exact_contained(&q0, &[&q1, &q2], &ks).is_none());
        assert!(!contained_farkas(&q0, &[&q1, &q2]));
    }
}
