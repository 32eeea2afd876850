//! Qualitative graph analysis before any numerics (Baier & Katoen, "Principles of Model
//! Checking", §10.1.1 and §10.6.1): the states with probability exactly 0 or 1 of reaching a target
//! while staying in a set of allowed states — `prob0`/`prob1` for Markov chains and the four
//! variants `prob0A`, `prob0E`, `prob1A`, `prob1E` for MDPs (A = under all schedulers, E = under some).
//! They make 0/1 answers exact and fix the states excluded from value iteration.

use crate::model::Model;

/// Choice-level predecessor lists: for each state `t`, the choices with `t` as a successor.
pub(crate) struct Preds {
    pub off: Vec<u64>,
    pub choices: Vec<u32>,
    /// The state owning each choice.
    pub owner: Vec<u32>,
}

impl Preds {
    pub(crate) fn new(m: &Model) -> Preds {
        let n = m.num_states();
        let mut owner = vec![0u32; m.num_choices()];
        for s in 0..n {
            for c in m.choices(s) {
                owner[c] = s as u32;
            }
        }
        let mut off = vec![0u64; n + 1];
        for &t in &m.cols {
            off[t as usize + 1] += 1;
        }
        for i in 0..n {
            off[i + 1] += off[i];
        }
        let mut fill = off.clone();
        let mut choices = vec![0u32; m.cols.len()];
        for c in 0..m.num_choices() {
            for k in m.trans(c) {
                let t = m.cols[k] as usize;
                choices[fill[t] as usize] = c as u32;
                fill[t] += 1;
            }
        }
        Preds {
            off,
            choices,
            owner,
        }
    }
    pub(crate) fn of(&self, t: usize) -> &[u32] {
        &self.choices[self.off[t] as usize..self.off[t + 1] as usize]
    }
}

/// States from which `target` is reachable (through `allowed` states) under SOME scheduler; the
/// complement is `prob0A` (max probability 0), or `prob0` for a Markov chain.
pub(crate) fn reach_exists(m: &Model, p: &Preds, allowed: &[bool], target: &[bool]) -> Vec<bool> {
    let n = m.num_states();
    let mut r = target.to_vec();
    let mut stack: Vec<u32> = (0..n as u32).filter(|&s| target[s as usize]).collect();
    while let Some(t) = stack.pop() {
        for &c in p.of(t as usize) {
            let s = p.owner[c as usize] as usize;
            if !r[s] && allowed[s] {
                r[s] = true;
                stack.push(s as u32);
            }
        }
    }
    r
}

/// States from which `target` is reached with positive probability under ALL schedulers; the
/// complement is `prob0E` (min probability 0).
pub(crate) fn reach_forall(m: &Model, p: &Preds, allowed: &[bool], target: &[bool]) -> Vec<bool> {
    let n = m.num_states();
    let mut r = target.to_vec();
    let mut remaining: Vec<u32> = (0..n).map(|s| m.choices(s).len() as u32).collect();
    let mut hit = vec![false; m.num_choices()];
    let mut stack: Vec<u32> = (0..n as u32).filter(|&s| target[s as usize]).collect();
    while let Some(t) = stack.pop() {
        for &c in p.of(t as usize) {
            let s = p.owner[c as usize] as usize;
            if r[s] || !allowed[s] || hit[c as usize] {
                continue;
            }
            hit[c as usize] = true;
            remaining[s] -= 1;
            if remaining[s] == 0 {
                r[s] = true;
                stack.push(s as u32);
            }
        }
    }
    r
}

/// `prob1E` (`forall == false`: max probability one) or `prob1A` (`forall == true`: min
/// probability one) by the nested fixpoint νZ.μY. T ∪ {s ∈ allowed ∩ Z | Q c: succ(c) ⊆ Z ∧
/// succ(c) ∩ Y ≠ ∅} where Q is ∃ or ∀.
pub(crate) fn prob1(
    m: &Model,
    p: &Preds,
    allowed: &[bool],
    target: &[bool],
    forall: bool,
) -> Vec<bool> {
    let n = m.num_states();
    let mut z: Vec<bool> = (0..n).map(|s| allowed[s] || target[s]).collect();
    loop {
        // Choices whose successors all stay in Z.
        let ok: Vec<bool> = (0..m.num_choices())
            .map(|c| m.trans(c).all(|k| z[m.cols[k] as usize]))
            .collect();
        let mut y = target.to_vec();
        let mut hit = vec![false; m.num_choices()];
        // For ∀: a state may enter only if all its choices are ok; count choices hit.
        let mut need: Vec<u32> = (0..n)
            .map(|s| {
                if forall {
                    if m.choices(s).all(|c| ok[c]) {
                        m.choices(s).len() as u32
                    } else {
                        u32::MAX
                    }
                } else {
                    1
                }
            })
            .collect();
        let mut stack: Vec<u32> = (0..n as u32).filter(|&s| target[s as usize]).collect();
        while let Some(t) = stack.pop() {
            for &c in p.of(t as usize) {
                let s = p.owner[c as usize] as usize;
                if y[s] || !z[s] || !allowed[s] || !ok[c as usize] || hit[c as usize] {
                    continue;
                }
                hit[c as usize] = true;
                if need[s] != u32::MAX {
                    need[s] -= 1;
                    if need[s] == 0 {
                        y[s] = true;
                        stack.push(s as u32);
                    }
                }
            }
        }
        if y == z {
            return y;
        }
        z = y;
    }
}
