//! Poisson weights for uniformisation, after Fox & Glynn, "Computing Poisson probabilities"
//! (CACM 31(4), 1988): weights are computed from the mode outwards in a scaled form (no
//! underflow for large λ), and the left/right truncation points are chosen so that the neglected
//! mass on each side is below ε/2.

/// `weights[i]` is the Poisson(λ) probability of `left + i`, normalised to sum to (1 − ε).
pub(crate) struct Poisson {
    pub left: usize,
    pub weights: Vec<f64>,
}

pub(crate) fn poisson(lambda: f64, eps: f64) -> Poisson {
    if lambda <= 0.0 {
        return Poisson {
            left: 0,
            weights: vec![1.0],
        };
    }
    let mode = lambda.floor() as usize;
    // log of the mode's probability: -λ + m ln λ - ln m!
    let ln_fact = |k: usize| -> f64 { ln_gamma(k as f64 + 1.0) };
    let wm = (-lambda + mode as f64 * lambda.ln() - ln_fact(mode)).exp();
    // Walk right.
    let mut right_w = vec![wm];
    let mut w = wm;
    let mut k = mode;
    let tail = eps / 2.0;
    loop {
        k += 1;
        w *= lambda / k as f64;
        right_w.push(w);
        // Remaining mass beyond k is bounded by w·(k+1)/(k+1−λ) once k+1 > λ.
        if k as f64 + 1.0 > lambda {
            let bound = w * (k as f64 + 1.0) / (k as f64 + 1.0 - lambda);
            if bound < tail {
                break;
            }
        }
        if w == 0.0 {
            break;
        }
    }
    // Walk left.
    let mut left_w = Vec::new();
    let mut w = wm;
    let mut k = mode;
    let mut cum = 0.0;
    while k > 0 {
        w *= k as f64 / lambda;
        k -= 1;
        left_w.push(w);
        // Mass below k is at most w·k/λ… a geometric bound: ratio ≤ k/λ < 1.
        let ratio = k as f64 / lambda;
        cum += w;
        let _ = cum;
        if ratio < 1.0 && w * ratio / (1.0 - ratio) < tail {
            break;
        }
    }
    let left = k;
    let mut weights: Vec<f64> = left_w.into_iter().rev().collect();
    weights.extend(right_w);
    let total: f64 = weights.iter().sum();
    if total > 0.0 {
        for x in weights.iter_mut() {
            *x /= total;
        }
    }
    Poisson { left, weights }
}

/// Lanczos approximation of ln Γ(x) for x > 0.
pub(crate) fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn small_lambda_matches_direct() {
        let p = poisson(2.5, 1e-12);
        for (i, w) in p.weights.iter().enumerate() {
            let k = p.left + i;
            let direct = (-2.5f64).exp() * 2.5f64.powi(k as i32)
                / (1..=k).map(|j| j as f64).product::<f64>();
            assert!((w - direct).abs() < 1e-10, "k={k} {w} {direct}");
        }
    }
    #[test]
    fn large_lambda_sums_to_one() {
        let p = poisson(1e5, 1e-8);
        let s: f64 = p.weights.iter().sum();
        assert!((s - 1.0).abs() < 1e-9);
        assert!(p.left > 90_000 && p.left + p.weights.len() < 110_000);
    }
}
