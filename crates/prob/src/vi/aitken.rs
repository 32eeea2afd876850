//! Aitken extrapolation of Gauss–Seidel value iteration, certified by two-sided inductive bounds.
//!
//! On a slowly mixing component the error of value iteration from below is asymptotically
//! e_k = x* − x_k ≈ c·μ^k·ψ for the dominant eigenpair (μ, ψ) of the sweep operator; the change
//! over a window of m sweeps is then D = (ρ⁻¹ − 1)·e_k with ρ = μ^m, and Aitken's Δ²
//! extrapolation (A. C. Aitken, "On Bernoulli's numerical solution of algebraic equations",
//! Proc. R. Soc. Edinburgh 46, 1926) x̂ = x_k + D·ρ/(1−ρ) removes that mode: the error of x̂
//! decays with the *second* eigenvalue, so x̂ is accurate long before x_k is.
//!
//! An extrapolated vector is only a guess. As in optimistic value iteration (Hartmanns &
//! Kaminski, "Optimistic value iteration", CAV 2020) it is turned into a sound answer by checking
//! inductive bounds with one application of the Bellman operator B each:
//! * upper: u = x̂·(1+β) + α·D' with B(u) ≤ u, so x* ≤ u (Knaster–Tarski);
//! * lower: l = max(x_k, x̂ − α'·D') with B(l) ≥ l, so l ≤ x*. This direction needs a unique
//!   fixpoint inside the component, which holds for the components value iteration is run on:
//!   Markov-chain components that are not bottom, end-component-free MDP components (Pmax and
//!   Rmax after collapsing or excluding end components; Pmin, whose maybe-states hold none), and
//!   for minimisation whenever an optimal scheduler leaves the component almost surely (Rmin
//!   after collapsing zero-reward end components) — then B^n(l) is non-decreasing and bounded
//!   by the values of that scheduler, hence converges to x*.
//!
//! Here D' = D·ρ/(1−ρ) is the extrapolation step (the direction of the remaining error), β ≥ 0
//! absorbs the width of the bounds inherited from the components below (their upper values give
//! the upper bound's constants), and the coefficients α, α' are read off the residual
//! r = B(x̂) − x̂ and the linearised effect s = B(x̂ + D') − (x̂ + D') − r of a step along D'.
//! A failed check costs four sweeps and iteration simply continues.

/// Relative slack of the inductivity checks, as in the optimistic guesses of [`crate::vi`]: at a
/// fixpoint B(x) = x holds only up to the rounding of the sums (a few ulps).
const SLACK: f64 = 1e-14;

/// The component's Bellman operator, applied Jacobi-style: `out[i] = B(x)_i`, with the constants
/// of the lower bounds (`upper == false`) or of the upper bounds (`upper == true`), capped at the
/// known upper bound of all values.
pub(crate) trait Bellman {
    fn apply(&self, x: &[f64], upper: bool, out: &mut [f64]);
}

/// Work arrays reused across attempts on one component.
pub(crate) struct Scratch {
    xh: Vec<f64>,
    step: Vec<f64>,
    r: Vec<f64>,
    y: Vec<f64>,
    t: Vec<f64>,
}

impl Scratch {
    pub(crate) fn new(k: usize) -> Scratch {
        Scratch {
            xh: vec![0.0; k],
            step: vec![0.0; k],
            r: vec![0.0; k],
            y: vec![0.0; k],
            t: vec![0.0; k],
        }
    }
}

/// The inputs of one attempt.
pub(crate) struct Attempt<'a> {
    /// Current Gauss–Seidel iterate from below (a post-fixpoint: B(lo) ≥ lo).
    pub lo: &'a [f64],
    /// Change of `lo` over the last window of sweeps.
    pub delta: &'a [f64],
    /// Estimated contraction of the error over one window.
    pub rho: f64,
    /// Relative width of the bounds inherited from the components below (β).
    pub widen: f64,
    /// Known upper bound of all values (∞ if none).
    pub cap: f64,
    /// Target relative precision ε of the final bounds: u − l ≤ 2ε·l.
    pub eps: f64,
    /// Relative width the extrapolation itself may add (the rest is left to β).
    pub own: f64,
}

/// Tries to certify bounds around the extrapolated iterate. On success returns the verified
/// (lower, upper) bounds, with u − l ≤ 2ε·l at every member.
pub(crate) fn certify<B: Bellman>(
    b: &B,
    a: &Attempt,
    s: &mut Scratch,
) -> Option<(Vec<f64>, Vec<f64>)> {
    let k = a.lo.len();
    if !(a.rho > 0.0 && a.rho < 1.0 - 1e-12 && a.widen.is_finite()) {
        return None;
    }
    let f = a.rho / (1.0 - a.rho);
    for i in 0..k {
        s.step[i] = f * a.delta[i];
        s.xh[i] = (a.lo[i] + s.step[i]).min(a.cap);
    }
    // Residual of the extrapolated vector, and the (linearised) effects of a step along the
    // extrapolation direction and of scaling the vector: r + α·s + γ·z ≈ B(x̂ + α·D' + γ·x̂) − (…).
    // One Bellman application smooths the extrapolated vector; in particular it settles members
    // whose optimal choice switches at the fixpoint (e.g. to a choice leaving the component),
    // where extrapolating along the current choice overshoots.
    b.apply(&s.xh, false, &mut s.t);
    std::mem::swap(&mut s.xh, &mut s.t);
    b.apply(&s.xh, false, &mut s.t);
    for i in 0..k {
        s.r[i] = s.t[i] - s.xh[i];
        s.y[i] = s.xh[i] + s.step[i];
    }
    b.apply(&s.y, false, &mut s.t);
    for i in 0..k {
        // s.y becomes the step effect s; then s.t is reused for the scaling effect z.
        s.y[i] = s.t[i] - s.y[i] - s.r[i];
        s.t[i] = 2.0 * s.xh[i];
    }
    let mut z = std::mem::take(&mut s.t);
    {
        let two = z.clone();
        b.apply(&two, false, &mut z);
        for i in 0..k {
            z[i] = z[i] - two[i] - s.r[i];
        }
    }
    // Each member's residual is absorbed by whichever direction costs less relative width:
    // a step along D' widens by at most α·A (A = max D'/x̂), scaling by γ widens by γ.
    let rel_step = (0..k)
        .filter(|&i| s.xh[i] > 0.0)
        .map(|i| s.step[i] / s.xh[i])
        .fold(0.0f64, f64::max);
    let grow = 1.0 + a.widen;
    // (α, γ) for the upper bound and (α', γ') for the lower one.
    let (mut au, mut gu, mut al, mut gl) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for i in 0..k {
        let need = if s.r[i] > 0.0 { grow * s.r[i] } else { -s.r[i] };
        if need <= SLACK * s.xh[i] {
            continue;
        }
        let by_step = if s.y[i] < 0.0 {
            need / -s.y[i]
        } else {
            f64::INFINITY
        };
        let by_scale = if z[i] < 0.0 {
            need / -z[i]
        } else {
            f64::INFINITY
        };
        if by_step.is_infinite() && by_scale.is_infinite() {
            tracing::trace!("aitken: no descent at {i} (r {:e})", s.r[i]);
            s.t = z;
            return None;
        }
        let use_step = by_step * rel_step <= by_scale;
        match (s.r[i] > 0.0, use_step) {
            (true, true) => au = au.max(by_step),
            (true, false) => gu = gu.max(by_scale),
            (false, true) => al = al.max(by_step),
            (false, false) => gl = gl.max(by_scale),
        }
    }
    s.t = z;
    // Margin against rounding and the non-linearity of min/max.
    let (au, gu, al, gl) = (2.0 * au, 2.0 * gu, 2.0 * al, 2.0 * gl);
    for i in 0..k {
        if (au + al) * s.step[i] + (gu + gl) * s.xh[i] > a.own * s.xh[i] {
            tracing::trace!(
                "aitken: too wide at {i}: step {au:e}/{al:e} scale {gu:e}/{gl:e}, rho {}",
                a.rho
            );
            return None;
        }
    }
    let mut up = vec![0.0; k];
    let mut low = vec![0.0; k];
    for i in 0..k {
        up[i] = (s.xh[i] * (grow + gu) + au * s.step[i]).min(a.cap);
        low[i] = (s.xh[i] * (1.0 - gl) - al * s.step[i]).max(a.lo[i]);
        let (l, u) = (low[i], up[i]);
        if !(u - l <= 2.0 * a.eps * l || u <= l || u < 1e-300) {
            return None;
        }
    }
    b.apply(&up, true, &mut s.t);
    if s.t.iter().zip(&up).any(|(bu, u)| *bu > u * (1.0 + SLACK)) {
        tracing::trace!("aitken: upper not inductive");
        return None;
    }
    b.apply(&low, false, &mut s.t);
    if s.t.iter().zip(&low).any(|(bl, l)| *bl < l * (1.0 - SLACK)) {
        tracing::trace!("aitken: lower not inductive");
        return None;
    }
    Some((low, up))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At a snapshot sweep: the change of each value since the last snapshot (into `delta`),
    /// the new snapshot, and the largest change.
    fn take_delta(x: &[f64], snap: &mut [f64], delta: &mut [f64]) -> f64 {
        let mut m: f64 = 0.0;
        for i in 0..x.len() {
            delta[i] = x[i] - snap[i];
            snap[i] = x[i];
            m = m.max(delta[i]);
        }
        m
    }

    /// A birth–death chain on 0..n (exits at both ends to values 0 and 1): x_i = p·x_{i+1} +
    /// (1−p)·x_{i−1}, slowly mixing for n large.
    struct Walk {
        n: usize,
        p: f64,
        /// Added to the exit constant of the upper bound.
        upper_extra: f64,
    }

    impl Bellman for Walk {
        fn apply(&self, x: &[f64], upper: bool, out: &mut [f64]) {
            let n = self.n;
            for i in 0..n {
                let right = if i + 1 < n {
                    x[i + 1]
                } else if upper {
                    1.0 + self.upper_extra
                } else {
                    1.0
                };
                let left = if i > 0 { x[i - 1] } else { 0.0 };
                out[i] = self.p * right + (1.0 - self.p) * left;
            }
        }
    }

    fn exact(w: &Walk) -> Vec<f64> {
        // Gambler's ruin with absorbing ends at −1 (value 0) and n (value 1).
        let q = (1.0 - w.p) / w.p;
        let m = w.n + 1;
        (0..w.n)
            .map(|i| {
                let j = i + 1;
                if (q - 1.0).abs() < 1e-12 {
                    j as f64 / m as f64
                } else {
                    (1.0 - q.powi(j as i32)) / (1.0 - q.powi(m as i32))
                }
            })
            .collect()
    }

    /// Gauss–Seidel from below with window extrapolation; returns the certified bounds and sweeps.
    fn run(w: &Walk, eps: f64) -> (Vec<f64>, Vec<f64>, usize) {
        let n = w.n;
        let mut x = vec![0.0; n];
        let mut snap = vec![0.0; n];
        let mut delta = vec![0.0; n];
        let mut prev = f64::NAN;
        let mut s = Scratch::new(n);
        for sweep in 1..200_000 {
            for i in 0..n {
                let right = if i + 1 < n { x[i + 1] } else { 1.0 };
                let left = if i > 0 { x[i - 1] } else { 0.0 };
                x[i] = w.p * right + (1.0 - w.p) * left;
            }
            if sweep % 8 == 0 {
                let m = take_delta(&x, &mut snap, &mut delta);
                let rho = m / prev;
                prev = m;
                let a = Attempt {
                    lo: &x,
                    delta: &delta,
                    rho,
                    widen: w.upper_extra,
                    cap: 1.0 + w.upper_extra,
                    eps,
                    own: eps,
                };
                if let Some((l, u)) = certify(w, &a, &mut s) {
                    return (l, u, sweep);
                }
            }
        }
        panic!("not certified");
    }

    #[test]
    fn certified_bounds_enclose_the_exact_values() {
        for (n, p) in [(40, 0.5), (60, 0.45), (25, 0.6)] {
            let w = Walk {
                n,
                p,
                upper_extra: 0.0,
            };
            let (l, u, sweeps) = run(&w, 1e-6);
            for ((l, u), x) in l.iter().zip(&u).zip(exact(&w)) {
                assert!(
                    *l <= x * (1.0 + 1e-12) && x <= *u * (1.0 + 1e-12),
                    "{l} {x} {u}"
                );
                assert!(u - l <= 2e-6 * l);
            }
            // Plain iteration needs its error below 1e-6: far more sweeps on these walks.
            assert!(sweeps > 0);
        }
    }

    #[test]
    fn inherited_width_is_carried_to_the_upper_bound() {
        let w = Walk {
            n: 30,
            p: 0.5,
            upper_extra: 1e-7,
        };
        let (l, u, _) = run(&w, 1e-6);
        let lo_exact = exact(&w);
        for i in 0..w.n {
            // The upper fixpoint scales with the exit value 1 + 1e-7.
            assert!(l[i] <= lo_exact[i] * (1.0 + 1e-12));
            assert!(u[i] >= lo_exact[i] * (1.0 + 1e-7) * (1.0 - 1e-12));
        }
    }

    /// A choice: its constant and its (successor, probability) pairs.
    type Choice = (f64, Vec<(usize, f64)>);

    /// A random MDP component: every choice leaves the component with probability ≥ 0.05 (to a
    /// constant), so the operator is a contraction with a unique fixpoint.
    #[derive(Debug, Clone)]
    struct RandomMdp {
        /// The choices of each member.
        choices: Vec<Vec<Choice>>,
        min: bool,
    }

    impl Bellman for RandomMdp {
        fn apply(&self, x: &[f64], _upper: bool, out: &mut [f64]) {
            for (i, cs) in self.choices.iter().enumerate() {
                let vals = cs
                    .iter()
                    .map(|(b, row)| b + row.iter().map(|&(j, p)| p * x[j]).sum::<f64>());
                out[i] = if self.min {
                    vals.fold(f64::INFINITY, f64::min)
                } else {
                    vals.fold(f64::NEG_INFINITY, f64::max)
                };
            }
        }
    }

    fn random_mdp() -> impl Strategy<Value = RandomMdp> {
        (2usize..7, any::<bool>()).prop_flat_map(|(n, min)| {
            let choice = (
                0.0f64..2.0,
                0.05f64..0.3,
                proptest::collection::vec((0..n, 0.1f64..1.0), 1..4),
            );
            proptest::collection::vec(proptest::collection::vec(choice, 1..3), n).prop_map(
                move |cs| RandomMdp {
                    min,
                    choices: cs
                        .into_iter()
                        .map(|cs| {
                            cs.into_iter()
                                .map(|(b, exit, succ)| {
                                    let w: f64 = succ.iter().map(|s| s.1).sum();
                                    let row = succ
                                        .iter()
                                        .map(|&(j, p)| (j, (1.0 - exit) * p / w))
                                        .collect();
                                    (b * exit, row)
                                })
                                .collect()
                        })
                        .collect(),
                },
            )
        })
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Whenever a certificate is issued, its bounds enclose the fixpoint (computed by a long
        /// Jacobi iteration, an independent oracle: the contraction is ≤ 0.95 per step).
        #[test]
        fn certificates_enclose_the_fixpoint(m in random_mdp()) {
            let n = m.choices.len();
            let mut exact = vec![0.0; n];
            let mut t = vec![0.0; n];
            for _ in 0..3000 {
                m.apply(&exact, false, &mut t);
                std::mem::swap(&mut exact, &mut t);
            }
            // Gauss–Seidel-like lower iterate: Jacobi from 0 (a post-fixpoint), windows of 8.
            let mut x = vec![0.0; n];
            let mut snap = vec![0.0; n];
            let mut delta = vec![0.0; n];
            let mut prev = f64::NAN;
            let mut s = Scratch::new(n);
            for sweep in 1..400 {
                m.apply(&x, false, &mut t);
                for i in 0..n {
                    x[i] = t[i].max(x[i]);
                }
                if sweep % 8 == 0 {
                    let w = take_delta(&x, &mut snap, &mut delta);
                    let rho = w / prev;
                    prev = w;
                    let a = Attempt { lo: &x, delta: &delta, rho, widen: 0.0, cap: f64::INFINITY, eps: 1e-6, own: 1e-6 };
                    if let Some((l, u)) = certify(&m, &a, &mut s) {
                        for i in 0..n {
                            prop_assert!(l[i] <= exact[i] * (1.0 + 1e-9) + 1e-12, "{} > {}", l[i], exact[i]);
                            prop_assert!(u[i] >= exact[i] * (1.0 - 1e-9) - 1e-12, "{} < {}", u[i], exact[i]);
                        }
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn a_wrong_guess_is_rejected() {
        let w = Walk {
            n: 20,
            p: 0.5,
            upper_extra: 0.0,
        };
        let lo = vec![0.0; 20];
        // Claims the values are already final (zero change): no certificate for the zero vector.
        let delta = vec![0.0; 20];
        let a = Attempt {
            lo: &lo,
            delta: &delta,
            rho: 0.5,
            widen: 0.0,
            cap: 1.0,
            eps: 1e-6,
            own: 1e-6,
        };
        assert!(certify(&w, &a, &mut Scratch::new(20)).is_none());
    }
}
