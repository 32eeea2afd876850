//! Finite automata over finite words: universality, inclusion and equivalence of NFAs.
//!
//! Implements "Antichains: A New Algorithm for Checking Universality of Finite Automata" (De Wulf,
//! Doyen, Henzinger, Raskin, CAV 2006) and the algorithms compared in "On Equivalence Checking of
//! Nondeterministic Finite Automata" (Fu, Deng, Jansen, Zhang, SETTA 2017), over one NFA
//! representation ([`Nfa`]).
//!
//! The surface is closed: [`Nfa`] and its builder, the decisions [`universal`], [`included`],
//! [`equivalent`] (each polling a [`Budget`]) with [`preprocess`], and the questions of
//! `verikit nfa` as library calls ([`univ`], [`incl`], [`equiv`], [`reduce`], [`convert`],
//! [`info`], [`generate`], [`demo`]; [`load`] and [`write`] for the formats; the tables of
//! algorithm, method and format names and [`PARAMS`]). The modules behind it:
//!
//! | module | algorithm |
//! |---|---|
//! | `antichain` | backward (CPre) and forward (Post) antichain universality; antichain inclusion |
//! | `antichain_bdd` | symbolic antichain inclusion: letters as BDDs over the bit atoms of `@NFA-bits` |
//! | `antichain_sim` | antichain inclusion with simulation subsumption |
//! | `naive`, `hk`, `hkc` | equivalence: naive, Hopcroft–Karp, HKC (up to congruence), ± memoisation |
//! | `subset` | the subset construction (baseline and test oracle) |
//! | `paige_tarjan`, `bisim` | bisimilarity in O(m log n) (Paige–Tarjan); signature refinement (oracle); quotient |
//! | `hkc_bdd` | symbolic HKC: letters as BDDs over the bit atoms of `@NFA-bits`, no mintermisation |
//! | `holik_simacek` | the simulation preorder by Holík–Šimáček (LRT on partition–relation pairs) |
//! | `lrt` | the simulation preorder by LRT (counters per state; for comparison) |
//! | `simulation` | the simulation preorder as a plain fixed point (oracle), simulation-based reduction |
//! | `saturation` | saturation w.r.t. similarity (SETTA'17 §3.5 preprocessing) |
//! | `gen` | the Tabakov–Vardi random model |
//! | `mata`, `minterm`, `ba`, `timbuk`, `regex`, `dot` | formats |
//! | `replay` | independent membership check of witness words |

#![warn(unreachable_pub)]

mod antichain;
mod antichain_bdd;
mod antichain_sim;
mod ba;
mod bisim;
mod dot;
mod gen;
mod hk;
mod hkc;
mod hkc_bdd;
mod holik_simacek;
mod lrt;
mod macrostate;
mod mata;
mod minterm;
mod naive;
mod nfa;
mod paige_tarjan;
mod pairs;
mod regex;
mod replay;
mod saturation;
mod simulation;
mod subset;
mod task;
mod timbuk;

#[cfg(test)]
mod tests;

pub use gen::TvParams;
pub use nfa::{Alphabet, BitLetters, Letter, Nfa, NfaBuilder, Reconciliation, State};
pub use task::{
    convert, demo, equiv, generate, incl, info, load, reduce, univ, write, CheckOptions, Choice,
    Produced, EQUIV_ALGOS, INCL_ALGOS, INPUT_FORMATS, OUTPUT_FORMATS, PARAMS, PRE_CHOICES,
    REDUCE_METHODS, UNIV_ALGOS,
};

pub use verikit_diag::{Budget, Exhausted};
use verikit_diag::{Diagnostic, Reportable};

/// Errors of this crate.
#[derive(Debug, thiserror::Error)]
pub enum AutomataError {
    /// Malformed input, located in its source text.
    #[error("{}", .0.message)]
    Parse(Diagnostic),
    /// Inputs that are well formed but cannot be used together.
    #[error("{0}")]
    Invalid(String),
    /// A size bound was exceeded.
    #[error("{0}")]
    Limit(String),
    /// The budget (deadline, cancellation, work) ran out.
    #[error("{0}")]
    Exhausted(#[from] Exhausted),
    /// An invariant of verikit itself failed (a bug, e.g. a witness that does not replay).
    #[error("{0}")]
    Internal(String),
}

impl Reportable for AutomataError {
    fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            AutomataError::Parse(d) => Some(d),
            _ => None,
        }
    }
    fn is_resource_limit(&self) -> bool {
        matches!(self, AutomataError::Limit(_) | AutomataError::Exhausted(_))
    }
}

/// The answer of a universality, inclusion or equivalence check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Whether the property holds.
    pub holds: bool,
    /// When it does not: a word showing it (rejected / in `A` not `B` / in exactly one).
    pub witness: Option<Vec<Letter>>,
    /// The size of the final antichain or relation `R`.
    pub size: usize,
    /// The number of pairs or sets processed.
    pub explored: usize,
}

impl Outcome {
    pub fn holds(size: usize, explored: usize) -> Outcome {
        Outcome {
            holds: true,
            witness: None,
            size,
            explored,
        }
    }
    pub fn fails(word: Vec<Letter>, size: usize, explored: usize) -> Outcome {
        Outcome {
            holds: false,
            witness: Some(word),
            size,
            explored,
        }
    }
}

/// Universality algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnivAlgo {
    /// A bounded forward run, then backward (the measured default).
    Auto,
    /// CAV'06 Algorithm 1 (backward, CPre).
    Backward,
    /// CAV'06 Theorem 3 (forward, Post).
    Forward,
    /// Subset construction.
    Subset,
}

/// `L(A) = Σ*`, within `budget`.
pub fn universal(a: &Nfa, algo: UnivAlgo, budget: &Budget) -> Result<Outcome, Exhausted> {
    match algo {
        UnivAlgo::Auto => antichain::universal_auto(a, budget),
        UnivAlgo::Backward => antichain::universal_backward(a, budget),
        UnivAlgo::Forward => antichain::universal_forward(a, budget),
        UnivAlgo::Subset => subset::universal_within(a, budget),
    }
}

/// Preprocessing before an inclusion or equivalence check (SETTA'17 §3.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preprocess {
    None,
    /// Quotient both automata by bisimilarity.
    Bisim,
    /// Saturate both automata w.r.t. the similarity of `A ⊕ B`.
    Sim,
}

/// `(A, B)` after preprocessing (same languages); [`AutomataError::Limit`] when the simulation
/// relation exceeds `memory` bytes, [`AutomataError::Exhausted`] when the budget runs out.
pub fn preprocess(
    a: &Nfa,
    b: &Nfa,
    pre: Preprocess,
    memory: usize,
    budget: &Budget,
) -> Result<(Nfa, Nfa), AutomataError> {
    match pre {
        Preprocess::None => Ok((a.clone(), b.clone())),
        Preprocess::Bisim => Ok((bisim::reduce(a), bisim::reduce(b))),
        Preprocess::Sim => saturation::saturate_pair(a, b, memory, budget),
    }
}

/// Inclusion algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InclAlgo {
    /// Antichains over `Q_A × 2^{Q_B}`.
    Antichain,
    /// The same without ignoring useless states (for experiments).
    AntichainNoPrune,
    /// Antichains with simulation subsumption.
    AntichainSim,
    /// HKC on `A ∪ B` vs `B` (Bonchi and Pous: `L(A) ⊆ L(B)` iff `L(A) ∪ L(B) = L(B)`).
    Hkc,
    /// Subset construction of both sides.
    Subset,
}

/// `L(A) ⊆ L(B)` (same alphabet), within `budget`.
pub fn included(a: &Nfa, b: &Nfa, algo: InclAlgo, budget: &Budget) -> Result<Outcome, Exhausted> {
    match algo {
        InclAlgo::Antichain => antichain::included(a, b, budget),
        InclAlgo::AntichainNoPrune => antichain::included_auto(a, b, false, budget),
        InclAlgo::AntichainSim => antichain_sim::included(a, b, budget),
        InclAlgo::Hkc => {
            // A word accepted by exactly one of A ⊕ B and B is in L(A) ∖ L(B).
            hkc::equivalent(&a.disjoint_union(b), b, true, budget)
        }
        InclAlgo::Subset => subset::included_within(a, b, budget),
    }
}

/// Equivalence algorithms (the SETTA'17 paper's line-up).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EquivAlgo {
    Naive {
        memo: bool,
    },
    Hk {
        memo: bool,
    },
    Hkc {
        memo: bool,
    },
    /// Two antichain inclusions.
    Antichain,
    /// Two antichain inclusions without ignoring useless states (for experiments).
    AntichainNoPrune,
    /// Two antichain inclusions with simulation subsumption.
    AntichainSim,
    Subset,
}

/// `L(A) = L(B)` (same alphabet), within `budget`.
pub fn equivalent(
    a: &Nfa,
    b: &Nfa,
    algo: EquivAlgo,
    budget: &Budget,
) -> Result<Outcome, Exhausted> {
    Ok(match algo {
        EquivAlgo::Naive { memo } => naive::equivalent(a, b, memo, budget)?,
        EquivAlgo::Hk { memo } => hk::equivalent(a, b, memo, budget)?,
        EquivAlgo::Hkc { memo } => hkc::equivalent(a, b, memo, budget)?,
        EquivAlgo::Antichain | EquivAlgo::AntichainNoPrune => {
            let prune = algo == EquivAlgo::Antichain;
            let ab = antichain::included_auto(a, b, prune, budget)?;
            if !ab.holds {
                return Ok(ab);
            }
            let ba = antichain::included_auto(b, a, prune, budget)?;
            Outcome {
                size: ab.size + ba.size,
                explored: ab.explored + ba.explored,
                ..ba
            }
        }
        EquivAlgo::AntichainSim => {
            let ab = antichain_sim::included(a, b, budget)?;
            if !ab.holds {
                return Ok(ab);
            }
            let ba = antichain_sim::included(b, a, budget)?;
            Outcome {
                size: ab.size + ba.size,
                explored: ab.explored + ba.explored,
                ..ba
            }
        }
        EquivAlgo::Subset => subset::equivalent_within(a, b, budget)?,
    })
}
