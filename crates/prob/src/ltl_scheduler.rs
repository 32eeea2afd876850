//! Optimal finite-memory schedulers for `Pmax`/`Pmin [ ltl ]` on MDPs, read off the product with
//! the formula's limit-deterministic automaton ([`crate::ldba_product`]); the memory is the
//! automaton state.
//!
//! Papers: Baier & Katoen, "Principles of Model Checking", §10.6.4 (Theorem 10.127's proof: a
//! scheduler of the product that reaches an accepting end component and then stays in it,
//! visiting all of its states, attains the maximal probability; its memory is the automaton
//! state); Sickert, Esparza, Jaax, Křetínský, CAV 2016, Sect. 5 (the LDBA's ε-jumps are the
//! scheduler's choices, so they are memory updates here).
//!
//! Construction on the product (values `x` = maximal probability of reaching the accepting end
//! components, within the solver's precision):
//! * outside the accepting end components, the reachability scheduler of [`crate::scheduler`]
//!   (value-attaining choices with progress towards the target);
//! * inside an accepting end component, choices that stay in it: from every state a choice that
//!   moves, with positive probability, closer to an accepting state of the component (an
//!   attractor over the component's internal choices), and in accepting states any internal
//!   choice. Every bottom SCC of the induced chain inside the component then holds an accepting
//!   state, so it is visited infinitely often almost surely.
//!
//! The scheduler is then written on the model with memory: in model state `s` with memory `q`
//! (the product state `(s, q)`), a jump `q → j` of the automaton becomes the memory `j` and the
//! choice of `(s, j)`; every successor `t` of the chosen model choice comes with its next memory.

use crate::ldba_product::Product;
use crate::model::Model;
use crate::precomp::Preds;
use std::collections::{HashMap, VecDeque};

/// A scheduler with memory for an MDP: its rows are the pairs (model state, memory) reachable
/// from the initial states under it.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryScheduler {
    /// The memory each initial model state starts with: `(state, memory)`.
    pub initial: Vec<(u32, u32)>,
    pub rows: Vec<MemoryRow>,
}

/// In model state `state` with memory `memory`, take choice `choice` (an offset among the
/// state's choices); on moving to successor `t`, the memory becomes `m` for each `(t, m)` in
/// `next`.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryRow {
    pub state: u32,
    pub memory: u32,
    pub choice: u32,
    pub next: Vec<(u32, u32)>,
}

/// The optimal scheduler of the product `prod` of model `m` from the product values `x` of
/// maximal reachability of `prod.target` (`tol`: relative tolerance of value-attaining choices).
pub(crate) fn ltl_scheduler(m: &Model, prod: &Product, x: &[f64], tol: f64) -> MemoryScheduler {
    let pm = &prod.model;
    let n = pm.num_states();
    let preds = Preds::new(pm);
    let all = vec![true; n];
    let mut sched = crate::scheduler::reach_scheduler(
        pm,
        &preds,
        x,
        &all,
        &prod.target,
        crate::lang::ast::Opt::Max,
        tol,
    );
    stay_in_accepting_mecs(prod, &preds, &mut sched);
    on_model(m, prod, &sched)
}

/// Inside each accepting end component, the attractor choices towards its accepting states.
fn stay_in_accepting_mecs(prod: &Product, preds: &Preds, sched: &mut [u32]) {
    let pm = &prod.model;
    let mec = |p: usize| prod.accepting_mec.get(p).copied().unwrap_or(u32::MAX);
    let internal = |c: usize, k: u32| pm.trans(c).all(|t| mec(pm.cols[t] as usize) == k);
    let mut done = vec![false; pm.num_states()];
    let mut queue = VecDeque::new();
    for p in 0..pm.num_states() {
        let k = mec(p);
        if k == u32::MAX || !prod.accepting.get(p).copied().unwrap_or(false) {
            continue;
        }
        if let Some(c) = pm.choices(p).find(|&c| internal(c, k)) {
            sched[p] = (c - pm.choices(p).start) as u32;
            done[p] = true;
            queue.push_back(p as u32);
        }
    }
    while let Some(t) = queue.pop_front() {
        let k = mec(t as usize);
        for &c in preds.of(t as usize) {
            let c = c as usize;
            let p = preds.owner[c] as usize;
            if done[p] || mec(p) != k || !internal(c, k) {
                continue;
            }
            sched[p] = (c - pm.choices(p).start) as u32;
            done[p] = true;
            queue.push_back(p as u32);
        }
    }
}

/// The product scheduler `sched` as a scheduler of `m` with memory, on the pairs reachable from
/// the initial states.
fn on_model(m: &Model, prod: &Product, sched: &[u32]) -> MemoryScheduler {
    let pm = &prod.model;
    let chosen = |p: usize| pm.choices(p).start + sched.get(p).copied().unwrap_or(0) as usize;
    // The model choice a product state takes, after at most a few automaton jumps.
    let effective = |mut p: usize| -> Option<(usize, usize)> {
        for _ in 0..=pm.num_states() {
            let c = chosen(p);
            let origin = *prod.choice_origin.get(c)?;
            if origin != u32::MAX {
                return Some((p, c));
            }
            p = *pm.cols.get(pm.trans(c).start)? as usize;
        }
        None
    };
    let mut index: HashMap<u32, usize> = HashMap::new();
    let mut order: Vec<u32> = Vec::new();
    let mut initial = Vec::new();
    for &s in &m.initial {
        if let Some(&p) = prod.origin.get(s as usize) {
            if let Some(&(_, q)) = prod.states.get(p as usize) {
                initial.push((s, q));
            }
            if index.insert(p, order.len()).is_none() {
                order.push(p);
            }
        }
    }
    let mut rows = Vec::new();
    let mut i = 0;
    while let Some(&p) = order.get(i) {
        i += 1;
        let Some(&(s, q)) = prod.states.get(p as usize) else {
            continue;
        };
        let Some((_, c)) = effective(p as usize) else {
            continue;
        };
        let mc = prod.choice_origin.get(c).copied().unwrap_or(0) as usize;
        let mut next = Vec::new();
        for t in pm.trans(c) {
            let succ = pm.cols[t];
            if let Some(&pair) = prod.states.get(succ as usize) {
                next.push(pair);
            }
            if let std::collections::hash_map::Entry::Vacant(e) = index.entry(succ) {
                e.insert(order.len());
                order.push(succ);
            }
        }
        rows.push(MemoryRow {
            state: s,
            memory: q,
            choice: (mc - m.choices(s as usize).start) as u32,
            next,
        });
    }
    MemoryScheduler { initial, rows }
}

/// The scheduler as text: a header, `init state memory` per initial state, then per row
/// `state memory choice action : successor=memory …` (`choice` counts from 0 among the state's
/// choices in the order of the exported `.tra`; `action` is `-` for unlabelled commands).
pub fn write_memory_scheduler(m: &Model, sched: &MemoryScheduler, what: &str) -> String {
    use std::fmt::Write;
    let mut out = format!(
        "# scheduler with memory for {what}; memory = state of the formula's limit-deterministic \
         automaton\n# init state memory\n"
    );
    for (s, q) in &sched.initial {
        let _ = writeln!(out, "init {s} {q}");
    }
    out.push_str("# state memory choice action : successor=memory ...\n");
    for r in &sched.rows {
        let c = m.choices(r.state as usize).start + r.choice as usize;
        let a = crate::scheduler::action_name(m, c);
        let _ = write!(out, "{} {} {} {a} :", r.state, r.memory, r.choice);
        for (t, q) in &r.next {
            let _ = write!(out, " {t}={q}");
        }
        out.push('\n');
    }
    out
}
