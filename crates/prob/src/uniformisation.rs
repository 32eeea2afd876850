//! Uniformisation (Jensen's method) for the transient analysis behind CSL time bounds, as in
//! Baier, Haverkort, Hermanns, Katoen, "Model-checking algorithms for continuous-time Markov
//! chains" (IEEE TSE 29(6), 2003), §4.2 (time-bounded until by uniformisation with Fox–Glynn
//! truncation, [`crate::foxglynn`]) and §5 (instantaneous and cumulative rewards).
//!
//! The CTMC with generator Q is replaced by the DTMC P = I + Q/q for a rate q ≥ every exit rate;
//! then the transient vector at time t is Σ_k Poisson(q·t)(k)·P^k·x. The matrix P is built once per
//! analysis in compact rows over the *live* states only: states whose value is constant over
//! time (absorbing ψ and ¬φ states of an until, states that cannot reach ψ at all, masked states
//! of a lower time bound) are dropped from the rows and their contribution folded into one
//! constant per row, and the diagonal 1 − E(s)/q is stored apart, so one step is one
//! multiply–add per remaining transition (no division, no test per state).
//!
//! Steady-state detection (as PRISM does): once the iterate no longer changes within a relative
//! tolerance, the remaining Poisson weight applies to it and the iteration stops.

use crate::foxglynn::Poisson;
use crate::model::Model;
use verikit_diag::{Budget, Exhausted};

/// Rows per slice of the sliced-ELLPACK layout.
const C: usize = 4;
/// Window of rows sorted by length.
const SIGMA: usize = 256;

/// The uniformised chain restricted to the live states, for one starting vector, in a sliced
/// ELLPACK layout: the live rows in slices of [`C`] consecutive rows, each slice padded to its
/// longest row and stored entry by entry across its rows, so one step runs [`C`] independent
/// accumulations with a fixed trip count (no mispredicted row ends, no serial add chain).
pub(crate) struct Uniformised {
    /// Model state of each live row.
    live: Vec<u32>,
    /// Entries of slice j: `slice[j]..slice[j + 1]`, a multiple of [`C`] (live columns; padding
    /// has value 0).
    slice: Vec<u64>,
    col: Vec<u32>,
    val: Vec<f64>,
    /// Per padded row (a multiple of [`C`] rows).
    diag: Vec<f64>,
    /// Contribution of the constant (non-live) states to each row.
    konst: Vec<f64>,
}

impl Uniformised {
    /// P = I + Q/q restricted to the states not in `fixed`; `x0` gives the (constant) values of
    /// the fixed states.
    pub(crate) fn new(m: &Model, q: f64, fixed: Option<&[bool]>, x0: &[f64]) -> Uniformised {
        let n = m.num_states();
        let is_fixed = |s: usize| fixed.is_some_and(|f| f[s]);
        let mut live: Vec<u32> = (0..n as u32).filter(|&s| !is_fixed(s as usize)).collect();
        // Rows sorted by length within windows of SIGMA rows (SELL-C-σ): little padding, and
        // the order stays close to the model's for locality.
        let row_len = |s: u32| -> usize { m.choices(s as usize).map(|c| m.trans(c).len()).sum() };
        for w in live.chunks_mut(SIGMA) {
            w.sort_by_key(|&s| std::cmp::Reverse(row_len(s)));
        }
        let mut local = vec![u32::MAX; n];
        for (i, &s) in live.iter().enumerate() {
            local[s as usize] = i as u32;
        }
        let padded = live.len().div_ceil(C) * C;
        let mut u = Uniformised {
            slice: Vec::with_capacity(padded / C + 1),
            col: Vec::new(),
            val: Vec::new(),
            diag: vec![0.0; padded],
            konst: vec![0.0; padded],
            live,
        };
        u.slice.push(0);
        let inv = 1.0 / q;
        let mut rows: Vec<Vec<(u32, f64)>> = vec![Vec::new(); C];
        for j in 0..padded / C {
            let mut longest = 0;
            for (l, row) in rows.iter_mut().enumerate() {
                row.clear();
                let i = j * C + l;
                let Some(&s) = u.live.get(i) else {
                    continue;
                };
                let s = s as usize;
                let (mut out, mut k) = (0.0, 0.0);
                for c in m.choices(s) {
                    for t in m.trans(c) {
                        let d = m.cols[t] as usize;
                        if d == s {
                            continue;
                        }
                        let r = m.vals[t];
                        out += r;
                        if local[d] == u32::MAX {
                            k += r * inv * x0[d];
                        } else {
                            row.push((local[d], r * inv));
                        }
                    }
                }
                u.diag[i] = 1.0 - out * inv;
                u.konst[i] = k;
                longest = longest.max(row.len());
            }
            for e in 0..longest {
                for (l, row) in rows.iter().enumerate() {
                    let (c, v) = row.get(e).copied().unwrap_or(((j * C + l) as u32, 0.0));
                    u.col.push(c);
                    u.val.push(v);
                }
            }
            u.slice.push(u.col.len() as u64);
        }
        u
    }

    /// Number of padded rows.
    fn len(&self) -> usize {
        self.diag.len()
    }

    /// y = P·x on the live states; with `CHECK`, also whether every entry changed by at most
    /// `tol` relative.
    fn mul<const CHECK: bool>(&self, x: &[f64], y: &mut [f64], tol: f64) -> bool {
        let mut conv = true;
        for (j, ((ys, ds), ks)) in y
            .chunks_exact_mut(C)
            .zip(self.diag.chunks_exact(C))
            .zip(self.konst.chunks_exact(C))
            .enumerate()
        {
            let xs = &x[j * C..(j + 1) * C];
            let mut acc = [0.0f64; C];
            for l in 0..C {
                acc[l] = ks[l] + ds[l] * xs[l];
            }
            let (a, b) = (self.slice[j] as usize, self.slice[j + 1] as usize);
            for (cs, vs) in self.col[a..b]
                .chunks_exact(C)
                .zip(self.val[a..b].chunks_exact(C))
            {
                for l in 0..C {
                    acc[l] += vs[l] * x[cs[l] as usize];
                }
            }
            for l in 0..C {
                if CHECK {
                    conv &= (acc[l] - xs[l]).abs() <= tol * acc[l].abs().max(xs[l].abs());
                }
                ys[l] = acc[l];
            }
        }
        conv
    }

    /// Live values of a full vector (padded with zeros).
    fn gather(&self, x: &[f64]) -> Vec<f64> {
        let mut v: Vec<f64> = self.live.iter().map(|&s| x[s as usize]).collect();
        v.resize(self.len(), 0.0);
        v
    }
}

/// Σ_k w_k·P^k·x0 over the Poisson window `fg` of q·t, where the `fixed` states keep their value
/// of `x0`; steady-state detection at relative tolerance `tol` once inside the window.
pub(crate) fn transient(
    m: &Model,
    q: f64,
    fg: &Poisson,
    x0: &[f64],
    fixed: Option<&[bool]>,
    tol: f64,
    budget: &Budget,
) -> Result<Vec<f64>, Exhausted> {
    let u = Uniformised::new(m, q, fixed, x0);
    let total: f64 = fg.weights.iter().sum();
    let mut out: Vec<f64> = x0.iter().map(|&v| total * v).collect();
    let nl = u.len();
    if u.live.is_empty() {
        return Ok(out);
    }
    let mut x = u.gather(x0);
    let mut y = vec![0.0; nl];
    let mut acc = vec![0.0; nl];
    let right = fg.left + fg.weights.len();
    let mut steps = 0usize;
    let mut ticker = budget.ticker(16);
    for k in 0..right {
        ticker.tick()?;
        if k >= fg.left {
            let w = fg.weights[k - fg.left];
            for (a, &v) in acc.iter_mut().zip(&x) {
                *a += w * v;
            }
        }
        if k + 1 == right {
            break;
        }
        let check = k + 1 >= fg.left;
        let conv = if check {
            u.mul::<true>(&x, &mut y, tol)
        } else {
            u.mul::<false>(&x, &mut y, tol)
        };
        steps += 1;
        std::mem::swap(&mut x, &mut y);
        // Steady state: once P^k x no longer changes, the remaining weight applies to it.
        if check && conv {
            let rest: f64 = fg.weights[(k + 1 - fg.left)..].iter().sum();
            for (a, &v) in acc.iter_mut().zip(&x) {
                *a += rest * v;
            }
            break;
        }
    }
    tracing::debug!(
        "uniformisation: rate {q}, window {}..{right}, {steps} steps on {} of {} states ({} entries with padding)",
        fg.left,
        u.live.len(),
        m.num_states(),
        u.col.len()
    );
    for (i, &s) in u.live.iter().enumerate() {
        out[s as usize] = acc[i];
    }
    Ok(out)
}

/// Σ_k (1 − F(k))/q·P^k·rr with F the Poisson distribution function of q·t: the expected reward
/// accumulated up to time t for reward rates `rr`; steady-state detection at relative `tol`.
pub(crate) fn cumulative(
    m: &Model,
    q: f64,
    fg: &Poisson,
    rr: &[f64],
    (t, tol): (f64, f64),
    budget: &Budget,
) -> Result<Vec<f64>, Exhausted> {
    let u = Uniformised::new(m, q, None, rr);
    let n = u.len();
    let mut x = u.gather(rr);
    let mut y = vec![0.0; n];
    let mut acc = vec![0.0; n];
    let right = fg.left + fg.weights.len();
    let (mut cum, mut used) = (0.0, 0.0);
    let mut steps = 0usize;
    let mut ticker = budget.ticker(16);
    for k in 0..right {
        ticker.tick()?;
        if k >= fg.left {
            cum += fg.weights[k - fg.left];
        }
        let tail = (1.0f64 - cum).max(0.0);
        let coef = tail / q;
        used += tail;
        for (a, &v) in acc.iter_mut().zip(&x) {
            *a += coef * v;
        }
        let conv = u.mul::<true>(&x, &mut y, tol);
        steps += 1;
        std::mem::swap(&mut x, &mut y);
        if conv {
            // Σ_k (1 − F(k)) = q·t: the remaining coefficients all multiply the same vector.
            let rest = ((q * t - used) / q).max(0.0);
            for (a, &v) in acc.iter_mut().zip(&x) {
                *a += rest * v;
            }
            break;
        }
    }
    tracing::debug!(
        "uniformisation (cumulative): rate {q}, window {}..{right}, {steps} steps on {} states ({} entries with padding)",
        fg.left,
        u.live.len(),
        u.col.len()
    );
    let mut out = vec![0.0; m.num_states()];
    for (i, &s) in u.live.iter().enumerate() {
        out[s as usize] = acc[i];
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::foxglynn::poisson;
    use crate::lang::ast::ModelType;
    use proptest::prelude::*;

    /// A CTMC from rate lists (one choice per state).
    fn ctmc(rates: &[Vec<(u32, f64)>]) -> Model {
        let mut m = Model::empty(ModelType::Ctmc);
        for row in rates {
            for &(d, r) in row {
                m.cols.push(d);
                m.vals.push(r);
            }
            m.choice_start.push(m.cols.len() as u64);
            m.choice_action.push(u32::MAX);
            m.end_state();
        }
        m
    }

    fn max_exit(m: &Model) -> f64 {
        m.exit_rates().into_iter().fold(0.0, f64::max) * 1.02
    }

    #[test]
    fn two_state_closed_form() {
        let (a, b) = (3.0, 0.5);
        let m = ctmc(&[vec![(1, a)], vec![(0, b)]]);
        let q = max_exit(&m);
        for t in [0.1, 1.0, 7.5] {
            let fg = poisson(q * t, 1e-12);
            let x = transient(&m, q, &fg, &[0.0, 1.0], None, 0.0, &Budget::unlimited()).unwrap();
            let want = a / (a + b) * (1.0 - (-(a + b) * t).exp());
            assert!((x[0] - want).abs() < 1e-9, "t={t}: {} vs {want}", x[0]);
            let c = cumulative(&m, q, &fg, &[0.0, 1.0], (t, 0.0), &Budget::unlimited()).unwrap();
            let want = a / (a + b) * (t - (1.0 - (-(a + b) * t).exp()) / (a + b));
            assert!((c[0] - want).abs() < 1e-8, "t={t}: {} vs {want}", c[0]);
        }
    }

    /// Σ_k w_k P^k x0 with a dense P (fixed rows the identity), the plain definition.
    fn dense_oracle(
        rates: &[Vec<(u32, f64)>],
        q: f64,
        fg: &crate::foxglynn::Poisson,
        x0: &[f64],
        fixed: &[bool],
    ) -> Vec<f64> {
        let n = rates.len();
        let mut p = vec![vec![0.0; n]; n];
        for (s, row) in rates.iter().enumerate() {
            p[s][s] = 1.0;
            if fixed[s] {
                continue;
            }
            for &(d, r) in row {
                p[s][d as usize] += r / q;
                p[s][s] -= r / q;
            }
        }
        let mut x = x0.to_vec();
        let mut acc = vec![0.0; n];
        for k in 0..fg.left + fg.weights.len() {
            if k >= fg.left {
                for s in 0..n {
                    acc[s] += fg.weights[k - fg.left] * x[s];
                }
            }
            x = (0..n)
                .map(|s| (0..n).map(|d| p[s][d] * x[d]).sum())
                .collect();
        }
        acc
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Random CTMCs (sizes not a multiple of the slice height, self-loops, constant states)
        /// against the dense definition.
        #[test]
        fn random_ctmcs_match_dense_definition(
            n in 1usize..23,
            edges in proptest::collection::vec((0u32..23, 0u32..23, 0.01f64..5.0), 0..80),
            fixed_bits in proptest::collection::vec(any::<bool>(), 23),
            x0 in proptest::collection::vec(0.0f64..1.0, 23),
            t in 0.01f64..3.0,
        ) {
            let mut rates = vec![Vec::new(); n];
            for (s, d, r) in edges {
                if (s as usize) < n && (d as usize) < n {
                    rates[s as usize].push((d, r));
                }
            }
            let m = ctmc(&rates);
            let q = max_exit(&m).max(1.0);
            let fg = poisson(q * t, 1e-12);
            let fixed = &fixed_bits[..n];
            let x0 = &x0[..n];
            let got = transient(&m, q, &fg, x0, Some(fixed), 0.0, &Budget::unlimited()).unwrap();
            let want = dense_oracle(&rates, q, &fg, x0, fixed);
            for s in 0..n {
                prop_assert!((got[s] - want[s]).abs() < 1e-9, "state {s}: {} vs {}", got[s], want[s]);
            }
        }
    }
}
