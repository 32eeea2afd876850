//! Total expected reward `R=? [ C ]` on DTMCs and MDPs by reduction to end components (de
//! Alfaro, "Computing minimum and maximum reachability times in probabilistic systems", CONCUR
//! 1999; Baier & Katoen §10.6.3), with PRISM's infinity conditions (`computeTotalRewards` of
//! PRISM's explicit engine): rewards are non-negative, so the total diverges exactly where a
//! positive reward can be collected infinitely often.
//!
//! * minimum (and DTMCs, one choice per state): the zero-reward end components Z are where a
//!   scheduler can stop earning, so `Rmin [ C ] = Rmin [ F Z ]`, infinite where Z is not reached
//!   almost surely under the best scheduler;
//! * maximum: infinite from every state that can reach an end component with a positive-reward
//!   choice; elsewhere all end components earn nothing, so after collapsing them value iteration
//!   has a unique fixpoint, zero where no positive reward is reachable.

use crate::mec::mecs;
use crate::model::Model;
use crate::precomp::{reach_exists, Preds};

/// The states of end components built from zero-reward choices (`reward` per choice).
pub(crate) fn zero_reward_ec_states(m: &Model, reward: &[f64]) -> Vec<bool> {
    let all = vec![true; m.num_states()];
    let (ids, _) = mecs(m, &all, &|c| reward[c] == 0.0);
    ids.iter().map(|&i| i != u32::MAX).collect()
}

/// The reduction of `Rmax [ C ]`: states where the maximum is infinite, states where it is zero,
/// the states left to value iteration and their zero-reward end components to collapse.
pub(crate) struct MaxTotal {
    pub(crate) infinite: Vec<bool>,
    pub(crate) maybe: Vec<bool>,
    pub(crate) collapse: Vec<u32>,
}

pub(crate) fn max_total(m: &Model, preds: &Preds, reward: &[f64]) -> MaxTotal {
    let n = m.num_states();
    let all = vec![true; n];
    // Maximal end components over every choice; one with an internal positive-reward choice
    // lets a scheduler earn forever.
    let (ids, _) = mecs(m, &all, &|_| true);
    let mut positive = vec![false; n];
    for s in 0..n {
        let id = ids[s];
        if id == u32::MAX {
            continue;
        }
        if m.choices(s)
            .any(|c| reward[c] > 0.0 && m.trans(c).all(|k| ids[m.cols[k] as usize] == id))
        {
            positive[s] = true;
        }
    }
    let infinite = reach_exists(m, preds, &all, &positive);
    // States that can still earn something: those reaching a positive-reward choice.
    let earning: Vec<bool> = (0..n)
        .map(|s| m.choices(s).any(|c| reward[c] > 0.0))
        .collect();
    let can_earn = reach_exists(m, preds, &all, &earning);
    let maybe: Vec<bool> = (0..n).map(|s| can_earn[s] && !infinite[s]).collect();
    let (collapse, _) = mecs(m, &maybe, &|c| reward[c] == 0.0);
    MaxTotal {
        infinite,
        maybe,
        collapse,
    }
}
