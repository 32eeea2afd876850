//! Optimal memoryless schedulers for unbounded reachability on MDPs, extracted from the computed
//! values (Baier & Katoen, "Principles of Model Checking", §10.6.1, Lemma 10.102 and Theorem
//! 10.105: memoryless schedulers suffice for Pmin/Pmax of `phi U psi`).
//!
//! * Pmin: in every state take a choice attaining the minimum of Σ_t P(c,t)·x_t. States of value 0
//!   take a choice whose successors all have value 0 (it exists: they form prob0E). The maybe
//!   states contain no end component (they would have value 0), so the greedy scheduler leaves
//!   them almost surely and attains the values.
//! * Pmax: greedy choices are not enough (a greedy self-loop inside an end component attains the
//!   value of the component without ever leaving it). Among the value-attaining choices, an
//!   attractor computation picks, backwards from the target, a choice with a successor already
//!   settled, so every state of positive value makes progress towards the target.
//!
//! The values come from a sound iteration within relative ε; a choice counts as value-attaining
//! when it is within `tol` (relative) of the best one. Replaying the scheduler — the Markov chain
//! it induces — gives the same value up to that tolerance.

use crate::lang::ast::Opt;
use crate::model::Model;
use crate::precomp::Preds;

/// For every state, the chosen choice as an offset among the state's choices.
pub(crate) fn reach_scheduler(
    m: &Model,
    preds: &Preds,
    values: &[f64],
    phi: &[bool],
    psi: &[bool],
    opt: Opt,
    tol: f64,
) -> Vec<u32> {
    let n = m.num_states();
    let q = |c: usize| -> f64 {
        m.trans(c)
            .map(|k| m.vals[k] * values[m.cols[k] as usize])
            .sum()
    };
    let best_of = |s: usize| -> f64 {
        let vals = m.choices(s).map(q);
        if opt == Opt::Min {
            vals.fold(f64::INFINITY, f64::min)
        } else {
            vals.fold(f64::NEG_INFINITY, f64::max)
        }
    };
    let attains = |c: usize, best: f64| -> bool {
        let v = q(c);
        if best == 0.0 {
            v == 0.0
        } else {
            (v - best).abs() <= tol * best.abs()
        }
    };
    let mut sched = vec![u32::MAX; n];
    // States outside `phi \ psi` are settled: any choice (the first).
    for s in 0..n {
        if psi[s] || !phi[s] {
            sched[s] = 0;
        }
    }
    if opt == Opt::Min {
        for s in 0..n {
            if sched[s] != u32::MAX {
                continue;
            }
            let best = best_of(s);
            let first = m.choices(s).start;
            let pick = m
                .choices(s)
                .find(|&c| attains(c, best))
                .or_else(|| m.choices(s).min_by(|&a, &b| q(a).total_cmp(&q(b))))
                .unwrap_or(first);
            sched[s] = (pick - first) as u32;
        }
        return sched;
    }
    // Pmax: attractor over value-attaining choices, from the settled states of positive value
    // (the targets) backwards; states of value 0 take any choice at the end.
    let best: Vec<f64> = (0..n)
        .map(|s| {
            if sched[s] == u32::MAX {
                best_of(s)
            } else {
                0.0
            }
        })
        .collect();
    let mut queue: std::collections::VecDeque<u32> =
        (0..n as u32).filter(|&s| psi[s as usize]).collect();
    while let Some(t) = queue.pop_front() {
        for &c in preds.of(t as usize) {
            let c = c as usize;
            let s = preds.owner[c] as usize;
            if sched[s] != u32::MAX || best[s] == 0.0 || !attains(c, best[s]) {
                continue;
            }
            sched[s] = (c - m.choices(s).start) as u32;
            queue.push_back(s as u32);
        }
    }
    for s in 0..n {
        if sched[s] == u32::MAX {
            // Value 0, or (only through rounding) a state the attractor missed: the best choice.
            let first = m.choices(s).start;
            let pick = m
                .choices(s)
                .max_by(|&a, &b| q(a).total_cmp(&q(b)))
                .unwrap_or(first);
            sched[s] = (pick - first) as u32;
        }
    }
    sched
}

/// The scheduler as text: a header line, then `state choice action` per state (`choice` counts
/// from 0 among the state's choices in the order of the exported `.tra`; `action` is `-` for
/// unlabelled commands).
pub fn write_scheduler(m: &Model, sched: &[u32], what: &str) -> String {
    use std::fmt::Write;
    let mut out = format!("# memoryless scheduler for {what}\n# state choice action\n");
    for (s, &k) in sched.iter().enumerate() {
        let c = m.choices(s).start + k as usize;
        let _ = writeln!(out, "{s} {k} {}", action_name(m, c));
    }
    out
}

/// The action label of choice `c`, `-` for unlabelled commands.
pub(crate) fn action_name(m: &Model, c: usize) -> &str {
    m.choice_action
        .get(c)
        .and_then(|&a| m.actions.get(a as usize))
        .filter(|a| !a.is_empty())
        .map_or("-", |a| a.as_str())
}
