//! Widening a DTMC/MDP into an interval model (IDTMC/IMDP): every probability `p` becomes the
//! interval `[max(0, p−ε), min(1, p+ε)]`. This is how the benchmark models of "Polynomial-Time
//! Alternating Probabilistic Bisimulation for Interval MDPs" (Hashemi, Turrini, Hahn, Hermanns,
//! Elbassioni, SETTA 2017, Sect. 6) are obtained from PRISM's point models.

use crate::error::ProbError;
use crate::lang::ast::ModelType;
use crate::model::Model;
use verikit_diag::Diagnostic;

/// Widens every probability of `m` by `eps`. Interval models get their bounds widened too.
pub fn widen(m: &Model, eps: f64) -> Result<Model, ProbError> {
    if !(eps.is_finite() && (0.0..=1.0).contains(&eps)) {
        return Err(ProbError::Input(Diagnostic::error(format!(
            "--widen expects a number in [0, 1], got {eps}"
        ))));
    }
    let model_type = match m.model_type {
        ModelType::Dtmc | ModelType::Idtmc => ModelType::Idtmc,
        ModelType::Mdp | ModelType::Imdp => ModelType::Imdp,
        other => {
            return Err(ProbError::Input(Diagnostic::error(format!(
                "only DTMC/MDP models can be widened into interval models, not {other:?}"
            ))))
        }
    };
    let mut w = m.clone();
    let (lo, hi): (Vec<f64>, Vec<f64>) = if m.is_interval() {
        m.vals
            .iter()
            .zip(&m.upper)
            .map(|(&l, &u)| ((l - eps).max(0.0), (u + eps).min(1.0)))
            .unzip()
    } else {
        m.vals
            .iter()
            .map(|&p| ((p - eps).max(0.0), (p + eps).min(1.0)))
            .unzip()
    };
    w.vals = lo;
    w.upper = hi;
    w.model_type = model_type;
    Ok(w)
}

/// The interval bounds `(lower, upper)` of transition `t` of any DTMC/MDP/IDTMC/IMDP (point
/// models have `lower = upper`).
#[inline]
pub(crate) fn bounds(m: &Model, t: usize) -> (f64, f64) {
    let l = m.vals[t];
    (l, if m.is_interval() { m.upper[t] } else { l })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{load_model, BuildOptions};

    #[test]
    fn widens_and_clamps() {
        let src = "dtmc\nmodule m x : [0..2] init 0;\n[] x=0 -> 0.995:(x'=1) + 0.005:(x'=2);\n[] x>0 -> true;\nendmodule\n";
        let (_, m) = load_model(src, &[], &BuildOptions::default()).unwrap();
        let w = widen(&m, 0.01).unwrap();
        assert_eq!(w.model_type, ModelType::Idtmc);
        let c = w.choices(0).start;
        let mut got: Vec<(f64, f64)> = w.trans(c).map(|t| bounds(&w, t)).collect();
        got.sort_by(|a, b| a.partial_cmp(b).unwrap());
        assert!((got[0].0 - 0.0).abs() < 1e-12 && (got[0].1 - 0.015).abs() < 1e-12);
        assert!((got[1].0 - 0.985).abs() < 1e-12 && (got[1].1 - 1.0).abs() < 1e-12);
        assert!(widen(&m, -1.0).is_err());
    }
}
