//! Reward-bounded reachability `P[ φ U^{rew{"r"} ⋈ b} ψ ]` on DTMCs and MDPs by unfolding the
//! accumulated reward into the state space (Andova, Hermanns, Katoen, "Discrete-Time Rewards
//! Model-Checked", FORMATS 2003, Sect. 4: reward-bounded until reduces to ordinary until on a
//! model whose states record the reward accumulated so far; the "unfolding" baseline of
//! Hartmanns, Junges, Katoen, Quatmann, "Multi-cost Bounded Reachability in MDP", TACAS 2018,
//! Sect. 3).
//!
//! Rewards must be non-negative integers (per step: the state reward of the state left plus the
//! transition reward of the choice taken). For an upper bound `≤ L` the product has states
//! `(s, a)` with `0 ≤ a ≤ L` and one absorbing sink for paths whose reward exceeded `L`; the
//! target is `ψ` at any level. For a lower bound `≥ N` the counter saturates at `N` and the target
//! is `ψ` at level `N`. Target states and states outside `φ` are made absorbing (their value is
//! fixed). The unfolded model is then checked with the ordinary unbounded until.

use crate::error::ProbError;
use crate::lang::typecheck::VarInfo;
use crate::model::{Layout, Model};
use verikit_diag::{Diagnostic, Span};

/// Product states above this are refused as a resource limit.
const MAX_PRODUCT: usize = 200_000_000;

/// The unfolded model with the lifted `φ`/`ψ` and, for each original state `s`, the index of the
/// product state `(s, 0)`.
pub(crate) struct Unfolding {
    pub model: Model,
    pub phi: Vec<bool>,
    pub psi: Vec<bool>,
    pub origin: Vec<u32>,
}

impl Unfolding {
    /// Values of the original states from values of the product states.
    pub(crate) fn project(&self, x: &[f64]) -> Vec<f64> {
        self.origin
            .iter()
            .map(|&p| x.get(p as usize).copied().unwrap_or(0.0))
            .collect()
    }
}

/// The integer threshold of a bound on integer-valued accumulated reward: for an upper bound the
/// largest allowed value (`None` if none is), for a lower bound the smallest required value.
pub(crate) fn threshold(upper: bool, strict: bool, b: f64) -> Option<i64> {
    let t = match (upper, strict) {
        (true, false) => b.floor(),
        (true, true) => b.ceil() - 1.0,
        (false, false) => b.ceil().max(0.0),
        (false, true) => (b.floor() + 1.0).max(0.0),
    };
    if upper && t < 0.0 {
        None
    } else {
        Some(t.min(i64::MAX as f64 / 2.0) as i64)
    }
}

/// Unfolds `m` with the per-choice step rewards `step` up to the threshold `t` (see
/// [`threshold`]); `span` locates the reward bound for errors.
pub(crate) fn unfold(
    m: &Model,
    step: &[f64],
    phi: &[bool],
    psi: &[bool],
    upper: bool,
    t: i64,
    span: Span,
) -> Result<Unfolding, ProbError> {
    let n = m.num_states();
    let mut inc = Vec::with_capacity(m.num_choices());
    for c in 0..m.num_choices() {
        let r = step.get(c).copied().unwrap_or(0.0);
        if !(r.is_finite() && r >= 0.0 && r.fract() == 0.0) {
            return Err(ProbError::Input(Diagnostic::at(
                span,
                format!("reward-bounded formulas need non-negative integer rewards (found {r})"),
            )));
        }
        inc.push(r.min(i64::MAX as f64 / 4.0) as i64);
    }
    let levels = t.max(0) as usize + 1;
    let total = n.saturating_mul(levels);
    if total > MAX_PRODUCT {
        return Err(ProbError::Limit(format!(
            "unfolding the reward bound needs up to {n} × {levels} states (limit {MAX_PRODUCT})"
        )));
    }
    const NONE: u32 = u32::MAX;
    let mut index = vec![NONE; total];
    // Product states in discovery order: (original state, level); level `levels` is the sink.
    let mut states: Vec<(u32, u32)> = Vec::new();
    let mut sink: Option<u32> = None;
    let mut visit = |s: usize, a: usize, states: &mut Vec<(u32, u32)>| -> u32 {
        let slot = &mut index[s * levels + a];
        if *slot == NONE {
            *slot = states.len() as u32;
            states.push((s as u32, a as u32));
        }
        *slot
    };
    let mut origin = Vec::with_capacity(n);
    for s in 0..n {
        origin.push(visit(s, 0, &mut states));
    }
    let mut row_choices = vec![0u32];
    let mut choice_start = vec![0u64];
    let (mut cols, mut vals, mut up, mut choice_action) = (vec![], vec![], vec![], vec![]);
    let interval = m.is_interval();
    let mut next = 0usize;
    while next < states.len() {
        let (s, a) = states[next];
        next += 1;
        let (s, a) = (s as usize, a as usize);
        // The sink, target states and states outside `φ` have values fixed by the until
        // (1 or 0): a self-loop replaces their successors.
        let stop = a == levels
            || !phi.get(s).copied().unwrap_or(false)
            || (psi.get(s).copied().unwrap_or(false) && (upper || a as i64 >= t));
        if stop {
            cols.push((next - 1) as u32);
            vals.push(1.0);
            if interval {
                up.push(1.0);
            }
            choice_start.push(cols.len() as u64);
            choice_action.push(u32::MAX);
            row_choices.push(choice_start.len() as u32 - 1);
            continue;
        }
        for c in m.choices(s) {
            let na = a as i64 + inc[c];
            for k in m.trans(c) {
                let tgt = m.cols[k] as usize;
                let ix = if upper && na > t {
                    *sink.get_or_insert_with(|| {
                        states.push((0, levels as u32));
                        states.len() as u32 - 1
                    })
                } else {
                    visit(tgt, na.min(t) as usize, &mut states)
                };
                cols.push(ix);
                vals.push(m.vals[k]);
                if interval {
                    up.push(m.upper.get(k).copied().unwrap_or(m.vals[k]));
                }
            }
            choice_start.push(cols.len() as u64);
            choice_action.push(m.choice_action.get(c).copied().unwrap_or(u32::MAX));
        }
        row_choices.push(choice_start.len() as u32 - 1);
    }
    // Merge duplicate columns within a choice (several successors may map to the sink).
    let (cols, vals, up, choice_start) = merge(&cols, &vals, &up, &choice_start, interval);

    let mut vars: Vec<VarInfo> = m.vars.clone();
    vars.push(VarInfo {
        name: "_reward_acc".into(),
        lo: 0,
        hi: levels as i64,
        init: Some(0),
        is_bool: false,
        module: None,
        span,
    });
    let layout = Layout::new(&vars);
    let w = layout.words;
    let mut packed = vec![0u64; states.len() * w];
    let mut cur = vec![0i64; vars.len()];
    let last = vars.len() - 1;
    for (i, &(s, a)) in states.iter().enumerate() {
        m.valuation(s as usize, &mut cur[..last]);
        cur[last] = a as i64;
        layout.pack(&cur, &mut packed[i * w..(i + 1) * w]);
    }
    let lphi = states
        .iter()
        .map(|&(s, a)| (a as usize) < levels && phi.get(s as usize).copied().unwrap_or(false))
        .collect();
    let lpsi = states
        .iter()
        .map(|&(s, a)| {
            (a as usize) < levels
                && psi.get(s as usize).copied().unwrap_or(false)
                && (upper || a as i64 >= t)
        })
        .collect();
    let initial = m.initial.iter().map(|&s| origin[s as usize]).collect();
    tracing::info!(
        "reward bound unfolded: {} states × {} levels → {} states",
        n,
        levels,
        states.len()
    );
    Ok(Unfolding {
        model: Model {
            model_type: m.model_type,
            vars,
            layout,
            states: packed,
            initial,
            row_choices,
            choice_start,
            cols,
            vals,
            upper: up,
            choice_action,
            actions: m.actions.clone(),
            trans_rewards: vec![Vec::new(); m.trans_rewards.len()],
            fixed_deadlocks: Vec::new(),
        },
        phi: lphi,
        psi: lpsi,
        origin,
    })
}

type Csr = (Vec<u32>, Vec<f64>, Vec<f64>, Vec<u64>);

fn merge(cols: &[u32], vals: &[f64], up: &[f64], starts: &[u64], interval: bool) -> Csr {
    let (mut c2, mut v2, mut u2, mut s2): Csr = (vec![], vec![], vec![], vec![0u64]);
    let mut entries: Vec<(u32, f64, f64)> = Vec::new();
    for w in starts.windows(2) {
        entries.clear();
        for k in w[0] as usize..w[1] as usize {
            entries.push((cols[k], vals[k], if interval { up[k] } else { 0.0 }));
        }
        entries.sort_unstable_by_key(|e| e.0);
        for e in &entries {
            if c2.len() as u64 > *s2.last().unwrap_or(&0) && c2.last() == Some(&e.0) {
                if let Some(v) = v2.last_mut() {
                    *v += e.1;
                }
                if interval {
                    if let Some(u) = u2.last_mut() {
                        *u = (*u + e.2).min(1.0);
                    }
                }
            } else {
                c2.push(e.0);
                v2.push(e.1);
                if interval {
                    u2.push(e.2);
                }
            }
        }
        s2.push(c2.len() as u64);
    }
    (c2, v2, u2, s2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds() {
        assert_eq!(threshold(true, false, 3.0), Some(3));
        assert_eq!(threshold(true, true, 3.0), Some(2));
        assert_eq!(threshold(true, false, 2.5), Some(2));
        assert_eq!(threshold(true, true, 0.0), None);
        assert_eq!(threshold(false, false, 2.5), Some(3));
        assert_eq!(threshold(false, true, 3.0), Some(4));
        assert_eq!(threshold(false, false, -1.0), Some(0));
    }
}
