//! Robust value iteration for reachability in interval MDPs under the controller-synthesis
//! semantics `∃σ∀π` of "Polynomial-Time Alternating Probabilistic Bisimulation for Interval
//! MDPs" (Hashemi, Turrini, Hahn, Hermanns, Elbassioni, SETTA 2017, Sect. 2–3): the controller
//! picks an action, nature then picks a feasible distribution against it. Nature's inner
//! optimisation over `{ h | l ≤ h ≤ u, Σh = 1 }` is solved exactly by sorting the successors by
//! value and greedily moving the free mass `1 − Σl` to the worst ones (for the controller).
//! Randomised controller choices never help against a linear inner objective, so the iteration
//! ranges over actions only.

use crate::model::Model;
use crate::widen::bounds;

/// What the controller optimises: `Max` = maximise the worst case (`Pmax` against a minimising
/// nature), `Min` = minimise the worst case (against a maximising nature).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    Max,
    Min,
}

/// Nature's optimum of `Σ h(t) v(t)` over the feasible distributions of choice `c`:
/// minimising if `nature_min`. `None` if the choice has no feasible distribution.
pub fn nature_value(
    m: &Model,
    c: usize,
    v: &[f64],
    nature_min: bool,
    buf: &mut Vec<(f64, f64, f64)>,
) -> Option<f64> {
    buf.clear();
    let mut lsum = 0.0;
    let mut usum = 0.0;
    for t in m.trans(c) {
        let (l, u) = bounds(m, t);
        lsum += l;
        usum += u;
        buf.push((v[m.cols[t] as usize], l, u));
    }
    if lsum > 1.0 + 1e-9 || usum < 1.0 - 1e-9 {
        return None;
    }
    if nature_min {
        buf.sort_by(|a, b| a.0.total_cmp(&b.0));
    } else {
        buf.sort_by(|a, b| b.0.total_cmp(&a.0));
    }
    let mut free = (1.0 - lsum).max(0.0);
    let mut acc = 0.0;
    for &(x, l, u) in buf.iter() {
        let add = free.min(u - l).max(0.0);
        free -= add;
        acc += x * (l + add);
    }
    Some(acc)
}

/// Robust probability of reaching `target` from every state. Gauss–Seidel value iteration from
/// 0 until the largest change is below `eps` (or `max_iter` sweeps).
pub fn reach(m: &Model, target: &[bool], goal: Goal, eps: f64, max_iter: usize) -> Vec<f64> {
    let n = m.num_states();
    let mut v: Vec<f64> = (0..n).map(|s| if target[s] { 1.0 } else { 0.0 }).collect();
    let mut buf = Vec::new();
    for _ in 0..max_iter {
        let mut delta: f64 = 0.0;
        for s in 0..n {
            if target[s] {
                continue;
            }
            let mut best: Option<f64> = None;
            for c in m.choices(s) {
                if let Some(x) = nature_value(m, c, &v, goal == Goal::Max, &mut buf) {
                    best = Some(match (best, goal) {
                        (None, _) => x,
                        (Some(b), Goal::Max) => b.max(x),
                        (Some(b), Goal::Min) => b.min(x),
                    });
                }
            }
            let x = best.unwrap_or(0.0);
            delta = delta.max((x - v[s]).abs());
            v[s] = x;
        }
        if delta < eps {
            break;
        }
    }
    v
}
