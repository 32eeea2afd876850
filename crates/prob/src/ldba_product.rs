//! LTL path formulas on DTMCs and MDPs: the product of the model with a limit-deterministic
//! Büchi automaton, its accepting end components, and maximal reachability of them.
//!
//! Papers: Sickert, Esparza, Jaax, Křetínský, "Limit-deterministic Büchi automata for linear
//! temporal logic", CAV 2016, Sect. 2 and 5 (the product MDP; the automaton's ε-jumps are
//! choices of the scheduler; the maximal probability of the formula is the maximal probability
//! of reaching an accepting maximal end component); Baier & Katoen, "Principles of Model
//! Checking", §10.6.4 (accepting end components of the product).
//!
//! The automaton reads the label of every state of a path, the first one included: the product
//! state of model state `s` is `(s, δ(q₀, L(s)))`; a model choice from `(s, q)` leads to
//! `(s', δ(q, L(s')))` with the model's probability, and every ε-jump `q → j` of the automaton's
//! initial part is one more choice `(s, q) → (s, j)` with probability 1. A DTMC is treated as an
//! MDP whose only nondeterminism is the automaton's jumps. The automaton's acceptance is
//! state-based, so a maximal end component is accepting iff it contains an accepting product
//! state. Only the part of the product reachable from the states `(s, δ(q₀, L(s)))` of all model
//! states is built (so nested formulas get a value in every state).

use crate::error::ProbError;
use crate::lang::ast::ModelType;
use crate::mec::mecs;
use crate::model::Model;
use std::collections::HashMap;
use verikit_diag::Budget;
use verikit_omega::Ldba;

/// Product states above this are refused as a resource limit.
const MAX_PRODUCT: usize = 50_000_000;

/// The product MDP, its accepting states (in an accepting maximal end component), and for each
/// model state the product state where its paths start.
pub(crate) struct Product {
    pub model: Model,
    /// Product states that lie in an accepting maximal end component.
    pub target: Vec<bool>,
    pub origin: Vec<u32>,
}

impl Product {
    /// Values of the model states from values of the product states.
    pub(crate) fn project(&self, x: &[f64]) -> Vec<f64> {
        self.origin
            .iter()
            .map(|&p| x.get(p as usize).copied().unwrap_or(0.0))
            .collect()
    }
}

/// Builds the product of `m` (a DTMC or MDP) with `ldba`; `letters[s]` is the letter of model
/// state `s` (bit `i` = the automaton's AP `i`). Polls the budget per product state.
pub(crate) fn product(
    m: &Model,
    letters: &[u64],
    ldba: &mut Ldba,
    budget: &Budget,
) -> Result<Product, ProbError> {
    let n = m.num_states();
    let letter = |s: usize| letters.get(s).copied().unwrap_or(0);
    let mut index: HashMap<(u32, u32), u32> = HashMap::new();
    let mut states: Vec<(u32, u32)> = Vec::new();
    let mut visit = |s: u32, q: u32, states: &mut Vec<(u32, u32)>| -> Result<u32, ProbError> {
        if let Some(&i) = index.get(&(s, q)) {
            return Ok(i);
        }
        if states.len() >= MAX_PRODUCT {
            return Err(ProbError::Limit(format!(
                "the product of the model with the LTL automaton exceeds {MAX_PRODUCT} states"
            )));
        }
        let i = states.len() as u32;
        index.insert((s, q), i);
        states.push((s, q));
        Ok(i)
    };
    let q0 = ldba.initial();
    let mut origin = Vec::with_capacity(n);
    for s in 0..n {
        let q = ldba.step(q0, letter(s), budget)?;
        origin.push(visit(s as u32, q, &mut states)?);
    }
    let mut out = Model::empty(ModelType::Mdp);
    let mut ticker = budget.ticker(1024);
    let mut next = 0usize;
    while let Some(&(s, q)) = states.get(next) {
        next += 1;
        ticker.tick()?;
        let su = s as usize;
        for c in m.choices(su) {
            let mut succ: Vec<(u32, f64, f64)> = Vec::new();
            for k in m.trans(c) {
                let t = m.cols[k];
                let qt = ldba.step(q, letter(t as usize), budget)?;
                let id = visit(t, qt, &mut states)?;
                match succ.iter_mut().find(|x| x.0 == id) {
                    Some(x) => {
                        x.1 += m.vals[k];
                        x.2 += m.vals[k];
                    }
                    None => succ.push((id, m.vals[k], m.vals[k])),
                }
            }
            out.push_interval_choice(succ);
        }
        for j in ldba.jumps(q) {
            let id = visit(s, j, &mut states)?;
            out.push_interval_choice([(id, 1.0, 1.0)]);
        }
        out.end_state();
    }
    // Not an interval model: `push_interval_choice` filled the upper bounds too.
    out.upper.clear();
    out.states = vec![0; states.len()];
    out.initial = m
        .initial
        .iter()
        .filter_map(|&s| origin.get(s as usize).copied())
        .collect();
    let all = vec![true; states.len()];
    let (mec_of, count) = mecs(&out, &all, &|_| true);
    let mut good = vec![false; count];
    for (i, &(_, q)) in states.iter().enumerate() {
        if let Some(&c) = mec_of.get(i) {
            if c != u32::MAX && ldba.is_accepting(q) {
                if let Some(g) = good.get_mut(c as usize) {
                    *g = true;
                }
            }
        }
    }
    let target = mec_of
        .iter()
        .map(|&c| c != u32::MAX && good.get(c as usize).copied().unwrap_or(false))
        .collect();
    tracing::info!(
        "LTL product: {} model states × {} automaton states → {} states, {} accepting MECs",
        n,
        ldba.num_states(),
        states.len(),
        good.iter().filter(|&&g| g).count()
    );
    Ok(Product {
        model: out,
        target,
        origin,
    })
}
