//! CTL's path quantifiers on the underlying graph of a model (Clarke, Emerson & Sistla,
//! "Automatic verification of finite-state concurrent systems using temporal logic
//! specifications", TOPLAS 1986; Baier & Katoen, "Principles of Model Checking", §6.4): `E`/`A`
//! of `X` and `U` by one predecessor step and by backward fixpoints. The graph has an edge s → t
//! when some choice of s reaches t with positive probability, as PRISM's non-probabilistic
//! checker reads DTMCs, CTMCs and MDPs; `G`, `W` and `R` reduce to these by duality.

use crate::model::Model;
use crate::precomp::{reach_exists, Preds};

/// `E [ X φ ]` (`forall == false`) or `A [ X φ ]`: some (every) successor of some (every)
/// choice is in φ.
pub(crate) fn next(m: &Model, phi: &[bool], forall: bool) -> Vec<bool> {
    (0..m.num_states())
        .map(|s| {
            let mut succ = m
                .choices(s)
                .flat_map(|c| m.trans(c))
                .map(|k| m.cols[k] as usize);
            if forall {
                succ.all(|t| phi[t])
            } else {
                succ.any(|t| phi[t])
            }
        })
        .collect()
}

/// `E [ φ U ψ ]` (`forall == false`): ψ is reachable through φ states; `A [ φ U ψ ]`: the least
/// set Z ⊇ ψ containing every φ state all of whose successors are in Z.
pub(crate) fn until(
    m: &Model,
    preds: &Preds,
    phi: &[bool],
    psi: &[bool],
    forall: bool,
) -> Vec<bool> {
    if !forall {
        return reach_exists(m, preds, phi, psi);
    }
    let n = m.num_states();
    let mut z = psi.to_vec();
    // Successor entries of each state not yet known to be in Z.
    let mut open: Vec<usize> = (0..n)
        .map(|s| m.choices(s).map(|c| m.trans(c).len()).sum())
        .collect();
    let mut stack: Vec<usize> = (0..n).filter(|&s| z[s]).collect();
    while let Some(t) = stack.pop() {
        for &c in preds.of(t) {
            let s = preds.owner[c as usize] as usize;
            if z[s] || !phi[s] {
                continue;
            }
            // Each entry (c, t) of the transition lists is one predecessor record.
            open[s] = open[s].saturating_sub(1);
            if open[s] == 0 {
                z[s] = true;
                stack.push(s);
            }
        }
    }
    z
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0 → {1, 2}, 1 → 1, 2 → 0 (one choice each); brute-force CTL by path enumeration.
    fn chain() -> Model {
        let mut m = Model::empty(crate::lang::ast::ModelType::Dtmc);
        for succ in [&[(1u32, 0.5), (2, 0.5)][..], &[(1, 1.0)], &[(0, 1.0)]] {
            m.push_interval_choice(succ.iter().map(|&(t, p)| (t, p, p)));
            m.end_state();
        }
        m.upper.clear();
        m
    }

    #[test]
    fn until_and_next_on_a_small_graph() {
        let m = chain();
        let p = Preds::new(&m);
        let goal = [false, true, false];
        let all = [true; 3];
        assert_eq!(until(&m, &p, &all, &goal, false), vec![true, true, true]);
        // The cycle 0 → 2 → 0 avoids 1 forever: A F goal fails in 0 and 2.
        assert_eq!(until(&m, &p, &all, &goal, true), vec![false, true, false]);
        assert_eq!(next(&m, &goal, false), vec![true, true, false]);
        assert_eq!(next(&m, &goal, true), vec![false, true, false]);
    }
}
