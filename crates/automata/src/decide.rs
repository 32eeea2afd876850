//! The decisions behind the crate's surface: universality, inclusion and equivalence, each
//! dispatched to the algorithm the caller chose, and the preprocessing of a pair.

use crate::error::AutomataError;
use crate::nfa::Nfa;
use crate::outcome::Outcome;
use crate::{antichain, antichain_sim, bisim, hk, hkc, naive, pairs, saturation, subset};
use verikit_diag::{Budget, Exhausted};

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
        EquivAlgo::Naive { memo } => pairs::run(a, b, memo, naive::Plain::default(), budget)?,
        EquivAlgo::Hk { memo } => pairs::run(a, b, memo, hk::UnionFind::default(), budget)?,
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
