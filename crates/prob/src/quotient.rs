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
        vars: m.vars.clone(),
        layout: m.layout.clone(),
        states: Vec::with_capacity(nc * w),
        actions: m.actions.clone(),
        ..Model::empty(match m.model_type {
            ModelType::Dtmc | ModelType::Idtmc => ModelType::Idtmc,
            _ => ModelType::Imdp,
        })
    };
    let f = |x: i64| x as f64 / ONE as f64;
    for &r in &rep {
        let r = r as usize;
        q.states.extend_from_slice(&m.states[r * w..(r + 1) * w]);
        let mins = cache.minimal(state_polytopes(m, &fc, &b.class, r));
        for p in mins {
            q.push_interval_choice(p.entries.into_iter().map(|(c, l, u)| (c, f(l), f(u))));
        }
        q.end_state();
    }
    let mut init: Vec<u32> = m.initial.iter().map(|&s| b.class[s as usize]).collect();
    init.sort_unstable();
    init.dedup();
    q.initial = init;
    q
}

/// Explicit `.tra` of an interval model: `states choices transitions`, then
/// `src choice dst [lo,hi]` per line (PRISM's interval notation for the probability).
pub(crate) fn interval_tra(m: &Model) -> String {
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

/// Sizes and the result of one bisimulation minimisation (the columns of the paper's Table 1).
pub struct Reduction {
    /// The model that was minimised (widened if asked).
    pub model: Model,
    pub bisim: Bisimulation,
    pub quotient: Model,
    /// Label names and, per quotient state, whether it carries each label.
    pub labels: Vec<(String, Vec<bool>)>,
    /// Seconds spent computing the bisimulation and the quotient.
    pub time_s: f64,
}

/// Widens (if `eps` is given) and builds the quotient of `m` by the coarsest alternating
/// probabilistic bisimulation refining `part` (one class id per state). The quotient keeps the
/// model's labels that are constant on every class.
pub(crate) fn reduce_from(
    m: Model,
    prog: &crate::lang::typecheck::Program,
    eps: Option<f64>,
    part: &[u32],
) -> Result<Reduction, crate::error::ProbError> {
    let model = match eps {
        Some(e) => crate::widen::widen(&m, e)?,
        None => m,
    };
    let t0 = std::time::Instant::now();
    let bisim = crate::imdp_bisim::bisimulation(&model, part);
    let q = quotient(&model, &bisim);
    let time_s = t0.elapsed().as_secs_f64();
    let mut labels = Vec::new();
    for (name, e) in &prog.labels {
        let v = crate::build::eval_states(&model, e)?;
        let mut lv: Vec<Option<bool>> = vec![None; bisim.num_classes];
        let mut respected = true;
        for (s, &c) in bisim.class.iter().enumerate() {
            match lv[c as usize] {
                Some(b) if b != v[s] => respected = false,
                _ => lv[c as usize] = Some(v[s]),
            }
        }
        if respected {
            labels.push((
                name.clone(),
                lv.into_iter().map(|b| b == Some(true)).collect(),
            ));
        }
    }
    Ok(Reduction {
        model,
        bisim,
        quotient: q,
        labels,
        time_s,
    })
}

/// The quotient as a PRISM `imdp` model: one variable `s` (the class), one command per choice
/// with `[l,u]:` updates, and the labels.
pub(crate) fn to_prism(q: &Model, labels: &[(String, Vec<bool>)]) -> String {
    let n = q.num_states().max(1);
    let mut s = String::from("// quotient by alternating probabilistic bisimulation\nimdp\n\n");
    let init = q.initial.first().copied().unwrap_or(0);
    let _ = writeln!(s, "module quotient\n  s : [0..{}] init {init};", n - 1);
    for st in 0..q.num_states() {
        for c in q.choices(st) {
            let ups: Vec<String> = q
                .trans(c)
                .map(|t| {
                    let (l, u) = crate::widen::bounds(q, t);
                    format!("[{l},{u}]:(s'={})", q.cols[t])
                })
                .collect();
            let _ = writeln!(s, "  [] s={st} -> {};", ups.join(" + "));
        }
    }
    s.push_str("endmodule\n\n");
    for (name, v) in labels {
        let members: Vec<String> = v
            .iter()
            .enumerate()
            .filter(|(_, &b)| b)
            .map(|(i, _)| format!("s={i}"))
            .collect();
        let e = if members.is_empty() {
            "false".to_string()
        } else {
            members.join("|")
        };
        let _ = writeln!(s, "label \"{name}\" = {e};");
    }
    s
}
