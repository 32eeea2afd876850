//! The quotient IMDP of an alternating probabilistic bisimulation ("Polynomial-Time
//! Alternating Probabilistic Bisimulation for Interval MDPs", Hashemi, Turrini, Hahn, Hermanns,
//! Elbassioni, SETTA 2017, Sect. 3–4): one state per class, one choice per strictly minimal
//! polytope `P^{s,a}_R` of the class (by Lemma 6 all members have the same set), with the
//! polytope's tight interval bounds over classes as transitions. Non-minimal actions are
//! dominated (nature has more options against them) and do not change ∃σ∀π values.

use crate::imdp_bisim::{fixed_choices, state_polytopes, Bisimulation, MinimalCache};
use crate::lang::ast::ModelType;
use crate::model::Model;
use crate::polytope_lp::ONE;
use std::fmt::Write;

/// Builds the quotient of `m` by `b`. Class `C` keeps the packed state (valuation) of its
/// first member; labels of the quotient are those of any member.
pub fn quotient(m: &Model, b: &Bisimulation) -> Model {
    let fc = fixed_choices(m);
    let mut cache = MinimalCache::default();
    let nc = b.num_classes;
    let mut rep = vec![u32::MAX; nc];
    for (s, &c) in b.class.iter().enumerate() {
        if rep[c as usize] == u32::MAX {
            rep[c as usize] = s as u32;
        }
    }
    let w = m.layout.words;
    let mut q = Model {
        model_type: match m.model_type {
            ModelType::Dtmc | ModelType::Idtmc => ModelType::Idtmc,
            _ => ModelType::Imdp,
        },
        vars: m.vars.clone(),
        layout: m.layout.clone(),
        states: Vec::with_capacity(nc * w),
        initial: Vec::new(),
        row_choices: vec![0],
        choice_start: vec![0],
        cols: Vec::new(),
        vals: Vec::new(),
        upper: Vec::new(),
        choice_action: Vec::new(),
        actions: m.actions.clone(),
        trans_rewards: Vec::new(),
        fixed_deadlocks: Vec::new(),
    };
    let f = |x: i64| x as f64 / ONE as f64;
    for &r in &rep {
        let r = r as usize;
        q.states.extend_from_slice(&m.states[r * w..(r + 1) * w]);
        let mins = cache.minimal(state_polytopes(m, &fc, &b.class, r));
        for p in mins {
            for (c, l, u) in p.entries {
                q.cols.push(c);
                q.vals.push(f(l));
                q.upper.push(f(u));
            }
            q.choice_start.push(q.cols.len() as u64);
            q.choice_action.push(u32::MAX);
        }
        q.row_choices.push(q.choice_start.len() as u32 - 1);
    }
    let mut init: Vec<u32> = m.initial.iter().map(|&s| b.class[s as usize]).collect();
    init.sort_unstable();
    init.dedup();
    q.initial = init;
    q
}

/// Explicit `.tra` of an interval model: `states choices transitions`, then
/// `src choice dst [lo,hi]` per line (PRISM's interval notation for the probability).
pub fn interval_tra(m: &Model) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} {} {}",
        m.num_states(),
        m.num_choices(),
        m.num_transitions()
    );
    for st in 0..m.num_states() {
        for (i, c) in m.choices(st).enumerate() {
            for t in m.trans(c) {
                let (l, u) = crate::widen::bounds(m, t);
                let _ = writeln!(s, "{st} {i} {} [{l},{u}]", m.cols[t]);
            }
        }
    }
    s
}
