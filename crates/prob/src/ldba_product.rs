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
//!
//! The same product with omega's DFA of a co-safe formula ([`verikit_omega::CosafeDfa`], no
//! ε-jumps, so the product keeps the model's type and one product choice per model choice)
//! serves `R[ φ ]` over co-safe LTL: the target is the product states whose automaton state
//! accepts (PRISM's `checkRewardCoSafeLTL`).

use crate::error::ProbError;
use crate::lang::ast::ModelType;
use crate::mec::mecs;
use crate::model::Model;
use std::collections::HashMap;
use verikit_diag::{Budget, Exhausted};
use verikit_omega::{CosafeDfa, Ldba};

/// Product states above this are refused as a resource limit.
const MAX_PRODUCT: usize = 50_000_000;

/// The product MDP, its accepting states (in an accepting maximal end component), and for each
/// model state the product state where its paths start.
pub(crate) struct Product {
    pub model: Model,
    /// Product states that lie in an accepting maximal end component.
    pub target: Vec<bool>,
    pub origin: Vec<u32>,
    /// The model choice of each product choice (`u32::MAX` for an automaton jump).
    pub choice_origin: Vec<u32>,
    /// The pair (model state, automaton state) of each product state.
    pub states: Vec<(u32, u32)>,
    /// LDBA products: the accepting maximal end component of each product state (`u32::MAX`
    /// outside them), and whether its automaton state accepts; empty for DFA products.
    pub accepting_mec: Vec<u32>,
    pub accepting: Vec<bool>,
}

/// The automata the product reads: deterministic steps, plus ε-jumps for an LDBA.
pub(crate) trait ProductAutomaton {
    fn initial(&self) -> u32;
    fn step(&mut self, q: u32, letter: u64, budget: &Budget) -> Result<u32, Exhausted>;
    fn jumps(&mut self, q: u32) -> Vec<u32>;
}

impl ProductAutomaton for Ldba {
    fn initial(&self) -> u32 {
        Ldba::initial(self)
    }
    fn step(&mut self, q: u32, letter: u64, budget: &Budget) -> Result<u32, Exhausted> {
        Ldba::step(self, q, letter, budget)
    }
    fn jumps(&mut self, q: u32) -> Vec<u32> {
        Ldba::jumps(self, q)
    }
}

impl ProductAutomaton for CosafeDfa {
    fn initial(&self) -> u32 {
        CosafeDfa::initial(self)
    }
    fn step(&mut self, q: u32, letter: u64, budget: &Budget) -> Result<u32, Exhausted> {
        CosafeDfa::step(self, q, letter, budget)
    }
    fn jumps(&mut self, _q: u32) -> Vec<u32> {
        Vec::new()
    }
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

/// The product of `m` with `aut` as a model of type `ty`, its states `(s, q)` and, for each model
/// state and each product choice, where it comes from; `letters[s]` is the letter of model state
/// `s` (bit `i` = the automaton's AP `i`). Polls the budget per product state.
fn build<A: ProductAutomaton>(
    m: &Model,
    letters: &[u64],
    aut: &mut A,
    ty: ModelType,
    budget: &Budget,
) -> Result<Built, ProbError> {
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
    let q0 = aut.initial();
    let mut origin = Vec::with_capacity(n);
    for s in 0..n {
        let q = aut.step(q0, letter(s), budget)?;
        origin.push(visit(s as u32, q, &mut states)?);
    }
    let mut out = Model::empty(ty);
    let mut choice_origin = Vec::new();
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
                let qt = aut.step(q, letter(t as usize), budget)?;
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
            choice_origin.push(c as u32);
        }
        for j in aut.jumps(q) {
            let id = visit(s, j, &mut states)?;
            out.push_interval_choice([(id, 1.0, 1.0)]);
            choice_origin.push(u32::MAX);
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
    Ok(Built {
        model: out,
        states,
        origin,
        choice_origin,
    })
}

struct Built {
    model: Model,
    states: Vec<(u32, u32)>,
    origin: Vec<u32>,
    choice_origin: Vec<u32>,
}

/// The product of `m` (a DTMC or MDP, read as an MDP) with `ldba` and its accepting maximal end
/// components.
pub(crate) fn product(
    m: &Model,
    letters: &[u64],
    ldba: &mut Ldba,
    budget: &Budget,
) -> Result<Product, ProbError> {
    let n = m.num_states();
    let Built {
        model: out,
        states,
        origin,
        choice_origin,
    } = build(m, letters, ldba, ModelType::Mdp, budget)?;
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
    let accepting_mec: Vec<u32> = mec_of
        .iter()
        .map(|&c| {
            if c != u32::MAX && good.get(c as usize).copied().unwrap_or(false) {
                c
            } else {
                u32::MAX
            }
        })
        .collect();
    let target = accepting_mec.iter().map(|&c| c != u32::MAX).collect();
    let accepting = states.iter().map(|&(_, q)| ldba.is_accepting(q)).collect();
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
        choice_origin,
        states,
        accepting_mec,
        accepting,
    })
}

/// The product of `m` (a DTMC or MDP, keeping its type) with the DFA of a co-safe formula; the
/// target is the product states whose automaton state accepts.
pub(crate) fn dfa_product(
    m: &Model,
    letters: &[u64],
    dfa: &mut CosafeDfa,
    budget: &Budget,
) -> Result<Product, ProbError> {
    let b = build(m, letters, dfa, m.model_type, budget)?;
    let target = b.states.iter().map(|&(_, q)| dfa.is_accepting(q)).collect();
    tracing::info!(
        "co-safe LTL product: {} model states × {} automaton states → {} states",
        m.num_states(),
        dfa.num_states(),
        b.states.len()
    );
    Ok(Product {
        model: b.model,
        target,
        origin: b.origin,
        choice_origin: b.choice_origin,
        states: b.states,
        accepting_mec: Vec::new(),
        accepting: Vec::new(),
    })
}
