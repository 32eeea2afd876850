//! Theorem 14 of the SETTA 2017 paper on small models: alternating bisimulation is preserved by
//! the interleaved composition of Definition 13. `M_2` is the quotient of a random `M_1` (so
//! `M_1 ∼ M_2`, checked first), `M_3` another random IMDP; then `M_1 ||| M_3 ∼ M_2 ||| M_3`.

use proptest::prelude::*;
use verikit_prob::imdp_bisim::bisimulation;
use verikit_prob::interleave::{bisimilar, interleave};
use verikit_prob::lang::ast::ModelType;
use verikit_prob::model::{Layout, Model};
use verikit_prob::quotient::quotient;

/// A random IMDP with `n` states, 1–2 choices each, 1–3 successors with interval bounds from
/// the bytes (infeasible choices repaired by widening the last upper bound).
fn random_imdp(bytes: &[u8], n: usize) -> (Model, Vec<bool>) {
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

fn labelled(bytes: &[u8], n: usize) -> (Model, Vec<u32>) {
    let (m, target) = random_imdp(bytes, n);
    (m, target.iter().map(|&b| b as u32).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn interleaving_is_a_congruence(
        b1 in proptest::collection::vec(any::<u8>(), 64),
        b3 in proptest::collection::vec(any::<u8>(), 48),
        n1 in 2usize..=4,
        n3 in 1usize..=3,
    ) {
        let (m1, l1) = labelled(&b1, n1);
        let (m3, l3) = labelled(&b3, n3);
        let bis = bisimulation(&m1, &l1);
        let m2 = quotient(&m1, &bis);
        let mut l2 = vec![0u32; bis.num_classes];
        for (s, &c) in bis.class.iter().enumerate() {
            l2[c as usize] = l1[s];
        }
        prop_assert!(bisimilar(&m1, &l1, &m2, &l2), "a model and its quotient must be bisimilar");
        let (p1, pl1) = interleave(&m1, &l1, &m3, &l3);
        let (p2, pl2) = interleave(&m2, &l2, &m3, &l3);
        prop_assert_eq!(p1.num_states(), m1.num_states() * m3.num_states());
        prop_assert!(bisimilar(&p1, &pl1, &p2, &pl2), "Theorem 14 fails");
    }
}

#[test]
fn different_labels_are_not_bisimilar() {
    let (m, l) = labelled(&[7, 1, 2, 3, 4, 5, 6, 7, 8, 9], 2);
    let flipped: Vec<u32> = l.iter().map(|&x| 1 - x).collect();
    if l[m.initial[0] as usize] != flipped[m.initial[0] as usize] {
        assert!(!bisimilar(&m, &l, &m, &flipped));
    }
    assert!(bisimilar(&m, &l, &m, &l));
}
