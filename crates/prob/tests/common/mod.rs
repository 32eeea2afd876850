//! Test support shared by the interval-model test suites.

use verikit_prob::lang::ast::ModelType;
use verikit_prob::model::{Layout, Model};

/// A random IMDP with `n` states, 1–2 choices each, 1–3 successors with interval bounds from
/// the bytes (infeasible choices repaired by widening the last upper bound).
pub fn random_imdp(bytes: &[u8], n: usize) -> (Model, Vec<bool>) {
    let mut it = bytes.iter().cycle().copied();
    let mut next = move || it.next().unwrap_or(0);
    let mut m = Model {
        model_type: ModelType::Imdp,
        vars: vec![],
        layout: Layout::new(&[]),
        states: vec![0; n],
        initial: vec![0],
        row_choices: vec![0],
        choice_start: vec![0],
        cols: vec![],
        vals: vec![],
        upper: vec![],
        choice_action: vec![],
        actions: vec![],
        trans_rewards: vec![],
        fixed_deadlocks: vec![],
    };
    for _ in 0..n {
        let k = 1 + next() as usize % 2;
        for _ in 0..k {
            let succ = 1 + next() as usize % 3;
            let mut dsts: Vec<u32> = (0..succ).map(|_| (next() as usize % n) as u32).collect();
            dsts.sort_unstable();
            dsts.dedup();
            let mut ls = 0.0;
            let mut us = 0.0;
            let start = m.cols.len();
            for &d in &dsts {
                let a = (next() % 5) as f64 / 5.0;
                let w = (next() % 4) as f64 / 5.0;
                let (l, u) = (a, (a + w).min(1.0));
                m.cols.push(d);
                m.vals.push(l);
                m.upper.push(u);
                ls += l;
                us += u;
            }
            if ls > 1.0 {
                for t in start..m.cols.len() {
                    m.vals[t] = 0.0;
                }
            }
            if us < 1.0 {
                let last = m.cols.len() - 1;
                m.upper[last] = (m.upper[last] + 1.0 - us).min(1.0);
            }
            m.choice_start.push(m.cols.len() as u64);
            m.choice_action.push(u32::MAX);
        }
        m.row_choices.push((m.choice_start.len() - 1) as u32);
    }
    let target: Vec<bool> = (0..n).map(|_| next() % 3 == 0).collect();
    (m, target)
}
