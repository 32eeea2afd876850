//! Test fixture shared by the property tests of [`super::policy_certificate`] and
//! [`super::sound_vi`]: random strongly connected components (members, choices, local
//! successors, exits with values, rewards) in the sparse layout both solvers read, and the
//! brute-force oracle (a long Jacobi iteration from 0, which converges to the least fixpoint).

use crate::lang::ast::Opt;
use proptest::prelude::*;

/// Per member 1–2 choices, each with 1–3 weighted local successors, an exit weight (0: the
/// choice stays inside, so end components can occur) with an exit value, and a reward.
pub(crate) type RandChoice = (Vec<(usize, f64)>, f64, f64, f64);

/// A component in the solvers' layout: member `i`'s choices are `first[i]..first[i+1]`, choice
/// `c`'s local successors `cstart[c]..cstart[c+1]` of `col`/`val`, its constant `b[c]` (exit
/// probability × exit value, plus the reward) and `b_hi[c]` that constant widened.
pub(crate) struct Owned {
    pub first: Vec<u32>,
    pub cstart: Vec<u32>,
    pub col: Vec<u32>,
    pub val: Vec<f64>,
    pub b: Vec<f64>,
    pub b_hi: Vec<f64>,
}

/// The component of `choices` over `n` members (rewards added when `rewards`; `b_hi` is `b`
/// times `1 + widen`).
pub(crate) fn build(n: usize, choices: &[Vec<RandChoice>], rewards: bool, widen: f64) -> Owned {
    let mut o = Owned {
        first: vec![0],
        cstart: vec![0],
        col: vec![],
        val: vec![],
        b: vec![],
        b_hi: vec![],
    };
    for ch in choices {
        for (succ, exit_w, exit_v, rew) in ch {
            let total: f64 = succ.iter().map(|s| s.1).sum::<f64>() + exit_w;
            for &(t, w) in succ {
                o.col.push((t % n) as u32);
                o.val.push(w / total);
            }
            let b = exit_w / total * exit_v + if rewards { *rew } else { 0.0 };
            o.b.push(b);
            o.b_hi.push(b * (1.0 + widen));
            o.cstart.push(o.col.len() as u32);
        }
        o.first.push(o.b.len() as u32);
    }
    o
}

/// Long Jacobi iteration from 0 (the least fixpoint) with constants `b`, optimising by `opt`
/// (`Opt::None` as maximum: single-choice components), until the largest change relative to
/// the value (`relative`) or absolute is below `tol`, at most `iters` sweeps.
pub(crate) fn oracle(
    o: &Owned,
    b: &[f64],
    opt: Opt,
    iters: usize,
    tol: f64,
    relative: bool,
) -> Vec<f64> {
    let k = o.first.len() - 1;
    let mut x = vec![0.0f64; k];
    for _ in 0..iters {
        let mut nx = vec![0.0f64; k];
        for (i, v) in nx.iter_mut().enumerate() {
            let mut best = if opt == Opt::Min {
                f64::INFINITY
            } else {
                f64::NEG_INFINITY
            };
            for c in o.first[i] as usize..o.first[i + 1] as usize {
                let mut s = b[c];
                for t in o.cstart[c] as usize..o.cstart[c + 1] as usize {
                    s += o.val[t] * x[o.col[t] as usize];
                }
                best = if opt == Opt::Min {
                    best.min(s)
                } else {
                    best.max(s)
                };
            }
            *v = best;
        }
        let diff = nx
            .iter()
            .zip(&x)
            .map(|(a, b)| {
                let d = (a - b).abs();
                if relative {
                    d / b.abs().max(1e-300)
                } else {
                    d
                }
            })
            .fold(0.0, f64::max);
        x = nx;
        if diff < tol {
            break;
        }
    }
    x
}

/// A random component of 1 to `max_n - 1` members; with `may_stay` some choices never exit.
pub(crate) fn random_component(
    may_stay: bool,
    max_n: usize,
) -> impl Strategy<Value = (usize, Vec<Vec<RandChoice>>)> {
    let exit = if may_stay {
        prop_oneof![Just(0.0f64), 0.02f64..0.5].boxed()
    } else {
        (0.02f64..0.5).boxed()
    };
    (1usize..max_n).prop_flat_map(move |n| {
        let choice = (
            proptest::collection::vec((0..n, 0.1f64..1.0), 1..4),
            exit.clone(),
            0.0f64..1.0,
            0.0f64..2.0,
        );
        (
            Just(n),
            proptest::collection::vec(proptest::collection::vec(choice, 1..3), n),
        )
    })
}
