//! Policy iteration with a certified error bound, for one strongly connected component.
//!
//! Policy iteration (R. A. Howard, "Dynamic Programming and Markov Processes", MIT Press 1960,
//! ch. 4) alternates an exact evaluation of the induced Markov chain of a fixed policy σ (here a
//! sparse LU factorisation of I − P_σ without pivoting, in the component's exit order, which is
//! an M-matrix when σ leaves the component almost surely) with a greedy improvement step; ties
//! are broken consistently (a choice replaces the current one only if it is better by more than a
//! relative 1e-12), so the iteration stops.
//!
//! The floating-point result x̃ is then turned into sound two-sided bounds by one Bellman step,
//! with the standard bounds argument for transient MDPs (stochastic shortest paths, Bertsekas &
//! Tsitsiklis, "An analysis of stochastic shortest path problems", Math. Oper. Res. 16(3), 1991):
//! * h ≥ 1 + max_c P_c·h is verified for a vector h (from policy iteration on the maximal
//!   expected number of steps inside the component). Such an h bounds the expected time to leave
//!   the component under every scheduler, so the component holds no end component, every
//!   scheduler leaves it almost surely and memoryless schedulers are optimal.
//! * For every memoryless π, e = x_π − x̃ solves e = r_π + P_π·e with the residual
//!   r_π = b_π + P_π·x̃ − x̃, hence |e| ≤ max|r_π|·(I − P_π)⁻¹·1 ≤ max|r_π|·h. For minimisation
//!   the lower bound uses the residual over all choices (x̃ − B(x̃) ≤ δ ⇒ x* ≥ x̃ − δ·h) and the
//!   upper bound the residual of σ alone (x* ≤ x_σ ≤ x̃ + δ_σ·h); maximisation is symmetric.
//!   Each computed residual is enlarged by the rounding bound of its sum.
//!
//! Lower bounds use the constants of the components below taken at their lower values, upper
//! bounds those at their upper values (one factorisation, two right-hand sides). Whatever fails
//! (fill-in or work above a budget, a tiny pivot, a non-finite value, no convergence, or bounds
//! wider than 2ε relative) returns `None` and the caller iterates values instead.

use crate::lang::ast::Opt;

/// A component in local arrays (see `vi::Local`): member i has choices `first[i]..first[i+1]`,
/// choice c has transitions `cstart[c]..cstart[c+1]` to local columns, and constants `b_lo[c]`
/// and `b_hi[c]` (rewards and the values of states outside the component).
pub(crate) struct Component<'a> {
    pub first: &'a [u32],
    pub cstart: &'a [u32],
    pub col: &'a [u32],
    pub val: &'a [f64],
    pub b_lo: &'a [f64],
    pub b_hi: &'a [f64],
}

/// The certified bounds.
pub(crate) struct Certified {
    pub lo: Vec<f64>,
    pub hi: Vec<f64>,
    /// Factorisations used.
    pub solves: usize,
}

const MAX_ROUNDS: usize = 100;

impl Component<'_> {
    fn k(&self) -> usize {
        self.first.len() - 1
    }

    fn choice_sum(&self, c: usize, b: f64, x: &[f64]) -> (f64, f64) {
        let (s0, s1) = (self.cstart[c] as usize, self.cstart[c + 1] as usize);
        let mut s = b;
        for (&col, &v) in self.col[s0..s1].iter().zip(&self.val[s0..s1]) {
            s += v * x[col as usize];
        }
        // Rounding bound of the sum of non-negative terms.
        (s, (s1 - s0 + 2) as f64 * f64::EPSILON * s.abs())
    }

    /// Greedy improvement of `pol` for the values `x` with constants `b`; returns whether a
    /// choice changed.
    fn improve(&self, x: &[f64], b: &dyn Fn(usize) -> f64, max: bool, pol: &mut [u32]) -> bool {
        let mut changed = false;
        for (i, p) in pol.iter_mut().enumerate() {
            let (a, e) = (self.first[i] as usize, self.first[i + 1] as usize);
            if e - a < 2 {
                continue;
            }
            let cur = self.choice_sum(*p as usize, b(*p as usize), x).0;
            let (mut best, mut arg) = (cur, *p);
            for c in a..e {
                let s = self.choice_sum(c, b(c), x).0;
                if (max && s > best) || (!max && s < best) {
                    best = s;
                    arg = c as u32;
                }
            }
            if arg != *p && (best - cur).abs() > 1e-12 * cur.abs() + 1e-300 {
                *p = arg;
                changed = true;
            }
        }
        changed
    }

    /// Solves (I − P_σ)·x = r for each right-hand side (`rhs[j]` gives the constant of a
    /// choice). Members without a choice have value 0.
    fn evaluate(
        &self,
        pol: &[u32],
        rhs: &[&dyn Fn(usize) -> f64],
        budget: &mut usize,
    ) -> Option<Vec<Vec<f64>>> {
        let k = self.k();
        let nr = rhs.len();
        let mut ops = 0usize;
        let mut rows: Vec<Vec<(u32, f64)>> = Vec::with_capacity(k);
        let mut r = vec![vec![0.0f64; k]; nr];
        let mut w = vec![0.0f64; k];
        let mut inset = vec![false; k];
        let mut cols: Vec<u32> = Vec::new();
        let mut heap = std::collections::BinaryHeap::new();
        for i in 0..k {
            cols.clear();
            let mut touch =
                |j: usize,
                 x: f64,
                 w: &mut [f64],
                 cols: &mut Vec<u32>,
                 heap: &mut std::collections::BinaryHeap<std::cmp::Reverse<u32>>| {
                    if !inset[j] {
                        inset[j] = true;
                        cols.push(j as u32);
                        if j < i {
                            heap.push(std::cmp::Reverse(j as u32));
                        }
                    }
                    w[j] += x;
                };
            touch(i, 1.0, &mut w, &mut cols, &mut heap);
            let mut bi = vec![0.0f64; nr];
            if self.first[i] < self.first[i + 1] {
                let c = pol[i] as usize;
                for (j, f) in rhs.iter().enumerate() {
                    bi[j] = f(c);
                }
                for t in self.cstart[c] as usize..self.cstart[c + 1] as usize {
                    touch(
                        self.col[t] as usize,
                        -self.val[t],
                        &mut w,
                        &mut cols,
                        &mut heap,
                    );
                }
            }
            while let Some(std::cmp::Reverse(j)) = heap.pop() {
                let j = j as usize;
                if w[j] == 0.0 {
                    continue;
                }
                let uj = &rows[j];
                let f = w[j] / uj[0].1;
                w[j] = 0.0;
                for (bv, rv) in bi.iter_mut().zip(&r) {
                    *bv -= f * rv[j];
                }
                ops += uj.len();
                for &(c, x) in &uj[1..] {
                    touch(c as usize, -f * x, &mut w, &mut cols, &mut heap);
                }
            }
            let d = w[i];
            // I − P_σ of a transient chain is an M-matrix: its pivots lie in (0, 1].
            if d.is_nan() || d <= 1e-13 {
                return None;
            }
            let mut row = vec![(i as u32, d)];
            for &c in &cols {
                let c = c as usize;
                if c > i && w[c] != 0.0 {
                    row.push((c as u32, w[c]));
                }
                w[c] = 0.0;
                inset[c] = false;
            }
            ops += row.len();
            if ops > *budget {
                tracing::trace!("policy iteration: elimination above budget at row {i} of {k}");
                return None;
            }
            for (rv, &bv) in r.iter_mut().zip(&bi) {
                rv[i] = bv;
            }
            rows.push(row);
        }
        *budget -= ops;
        let mut out = vec![vec![0.0f64; k]; nr];
        for (x, rv) in out.iter_mut().zip(&r) {
            for i in (0..k).rev() {
                let row = &rows[i];
                let mut s = rv[i];
                for &(c, a) in &row[1..] {
                    s -= a * x[c as usize];
                }
                x[i] = s / row[0].1;
                if !x[i].is_finite() {
                    return None;
                }
            }
        }
        Some(out)
    }
}

/// Policy iteration on the component for `opt` (`Opt::None`: one choice per member), certified as
/// described in the module documentation, from the first choice of each member. Returns bounds
/// with hi − lo ≤ 2ε·lo at every member.
pub(crate) fn certify(c: &Component, opt: Opt, cap: f64, eps: f64) -> Option<Certified> {
    let k = c.k();
    let max = opt == Opt::Max;
    let mut solves = 0usize;
    // Total elimination work allowed, in entries (a Gauss–Seidel sweep touches k + nnz).
    let sweep = k + c.col.len();
    let mut budget = 400 * sweep + 100_000;
    let mut pol: Vec<u32> = (0..k).map(|i| c.first[i]).collect();
    let b_lo = |ch: usize| c.b_lo[ch];
    let b_hi = |ch: usize| c.b_hi[ch];
    let one = |_: usize| 1.0;
    // Values (constants of the lower bounds).
    for round in 0.. {
        if round == MAX_ROUNDS {
            return None;
        }
        let x = c.evaluate(&pol, &[&b_lo], &mut budget)?.pop()?;
        solves += 1;
        budget = budget.checked_sub(sweep)?;
        if opt == Opt::None || !c.improve(&x, &b_lo, max, &mut pol) {
            break;
        }
    }
    let vals = c.evaluate(&pol, &[&b_lo, &b_hi], &mut budget)?;
    solves += 1;
    let (x_lo, x_hi) = (&vals[0], &vals[1]);
    // An inductive bound on the expected steps inside the component: policy iteration on the
    // maximal expected number of steps, from σ.
    let mut hpol = pol.clone();
    let mut h = Vec::new();
    for round in 0.. {
        if round == MAX_ROUNDS {
            return None;
        }
        h = c.evaluate(&hpol, &[&one], &mut budget)?.pop()?;
        solves += 1;
        if h.iter().any(|&v| v < 0.0) {
            return None;
        }
        budget = budget.checked_sub(sweep)?;
        if opt == Opt::None || !c.improve(&h, &one, true, &mut hpol) {
            break;
        }
    }
    let hmax = h.iter().fold(0.0f64, |m, &v| m.max(v));
    for v in h.iter_mut() {
        *v = *v * (1.0 + 1e-9) + 1e-9 * hmax;
    }
    let (mut d_lo, mut d_hi) = (0.0f64, 0.0f64);
    for i in 0..k {
        let (a, e) = (c.first[i] as usize, c.first[i + 1] as usize);
        let mut hmax_c = f64::NEG_INFINITY;
        for ch in a..e {
            let (t, err) = c.choice_sum(ch, 1.0, &h);
            hmax_c = hmax_c.max(t + err);
        }
        if a < e && hmax_c > h[i] {
            tracing::trace!("policy iteration: step bound not inductive at {i}");
            return None;
        }
        if a == e {
            // Value 0, exactly what the evaluation gave.
            continue;
        }
        let s = pol[i] as usize;
        let (pl, el) = c.choice_sum(s, c.b_lo[s], x_lo);
        let (ph, eh) = c.choice_sum(s, c.b_hi[s], x_hi);
        let (mut ol, mut oh) = (pl - el, ph + eh);
        for ch in a..e {
            let (tl, el) = c.choice_sum(ch, c.b_lo[ch], x_lo);
            let (th, eh) = c.choice_sum(ch, c.b_hi[ch], x_hi);
            ol = if max {
                ol.max(tl + el)
            } else {
                ol.min(tl - el)
            };
            oh = if max {
                oh.max(th + eh)
            } else {
                oh.min(th - eh)
            };
        }
        if max {
            // Lower: the residual of σ; upper: over all choices.
            d_lo = d_lo.max(x_lo[i] - (pl - el));
            d_hi = d_hi.max(oh - x_hi[i]);
        } else {
            d_lo = d_lo.max(x_lo[i] - ol);
            d_hi = d_hi.max(ph + eh - x_hi[i]);
        }
    }
    if !(d_lo.is_finite() && d_hi.is_finite()) {
        return None;
    }
    let mut lo = vec![0.0f64; k];
    let mut hi = vec![0.0f64; k];
    for i in 0..k {
        let l = (x_lo[i] - d_lo * h[i]) * (1.0 - 4.0 * f64::EPSILON);
        let u = (x_hi[i] + d_hi * h[i]) * (1.0 + 4.0 * f64::EPSILON);
        lo[i] = l.max(0.0).min(cap);
        hi[i] = u.min(cap).max(lo[i]);
        if hi[i] - lo[i] > 2.0 * eps * lo[i] && hi[i] >= 1e-300 {
            tracing::trace!(
                "policy iteration: bounds too wide at {i}: [{:e}, {:e}] (residuals {d_lo:e}/{d_hi:e}, steps {:e})",
                lo[i],
                hi[i],
                h[i]
            );
            return None;
        }
    }
    tracing::trace!(
        "policy iteration: {k} members, {solves} solves, residuals {d_lo:e}/{d_hi:e}, steps ≤ {hmax:e}"
    );
    Some(Certified { lo, hi, solves })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vi::random_component::{build, oracle, random_component, Owned, RandChoice};
    use proptest::prelude::*;

    fn opt_of(i: u8) -> Opt {
        match i % 3 {
            0 => Opt::Min,
            1 => Opt::Max,
            _ => Opt::None,
        }
    }

    fn check(o: &Owned, opt: Opt, cert: &Certified) -> Result<(), TestCaseError> {
        let exact_lo = oracle(o, &o.b, opt, 400_000, 1e-16, true);
        let exact_hi = oracle(o, &o.b_hi, opt, 400_000, 1e-16, true);
        for i in 0..exact_lo.len() {
            let tol = 1e-12 * exact_lo[i].abs().max(1e-300);
            prop_assert!(
                cert.lo[i] <= exact_lo[i] + tol,
                "member {i}: lower {} > {}",
                cert.lo[i],
                exact_lo[i]
            );
            prop_assert!(
                cert.hi[i] >= exact_hi[i] - tol,
                "member {i}: upper {} < {}",
                cert.hi[i],
                exact_hi[i]
            );
            prop_assert!(cert.hi[i] - cert.lo[i] <= 2e-6 * cert.lo[i] || cert.hi[i] < 1e-300);
        }
        Ok(())
    }

    fn single_choice(mut ch: Vec<Vec<RandChoice>>) -> Vec<Vec<RandChoice>> {
        ch.iter_mut().for_each(|c| c.truncate(1));
        ch
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Every choice leaves the component with positive probability: the certificate holds
        /// and its bounds enclose the fixpoints of the lower and the upper constants.
        #[test]
        fn encloses_the_fixpoint((n, ch) in random_component(false, 8), o in any::<u8>(), rew in any::<bool>(), wide in any::<bool>()) {
            let opt = opt_of(o);
            let ch = if opt == Opt::None { single_choice(ch) } else { ch };
            let ob = build(n, &ch, rew, if wide { 1e-7 } else { 0.0 });
            let c = Component { first: &ob.first, cstart: &ob.cstart, col: &ob.col, val: &ob.val, b_lo: &ob.b, b_hi: &ob.b_hi };
            let cap = if rew { f64::INFINITY } else { 1.0 };
            let cert = certify(&c, opt, cap, 1e-6);
            prop_assert!(cert.is_some(), "no certificate on an end-component-free component");
            check(&ob, opt, &cert.unwrap())?;
        }

        /// Choices may stay inside (end components): whenever a certificate is returned it is
        /// sound (the step bound rules end components out).
        #[test]
        fn sound_with_end_components((n, ch) in random_component(true, 8), o in any::<u8>(), rew in any::<bool>()) {
            let opt = opt_of(o);
            let ch = if opt == Opt::None { single_choice(ch) } else { ch };
            let ob = build(n, &ch, rew, 0.0);
            let c = Component { first: &ob.first, cstart: &ob.cstart, col: &ob.col, val: &ob.val, b_lo: &ob.b, b_hi: &ob.b_hi };
            let cap = if rew { f64::INFINITY } else { 1.0 };
            if let Some(cert) = certify(&c, opt, cap, 1e-6) {
                check(&ob, opt, &cert)?;
            }
        }
    }

    /// A member that can stay forever (a self-loop choice) has no finite step bound: refused.
    #[test]
    fn end_component_refused() {
        // s0: stay (self-loop) or exit to value 1.
        let first = [0u32, 2];
        let cstart = [0u32, 1, 1];
        let col = [0u32];
        let val = [1.0];
        let b = [0.0, 1.0];
        let c = Component {
            first: &first,
            cstart: &cstart,
            col: &col,
            val: &val,
            b_lo: &b,
            b_hi: &b,
        };
        assert!(certify(&c, Opt::Max, 1.0, 1e-6).is_none());
        assert!(certify(&c, Opt::Min, 1.0, 1e-6).is_none());
    }
}
