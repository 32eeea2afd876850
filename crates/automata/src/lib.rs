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
//! | `decide`, `outcome`, `error` | the decisions dispatched to the chosen algorithm, their answer, the errors |
//! | `task` | the questions of `verikit nfa` as library calls (loading policy, algorithm choice, replay) |

#![warn(unreachable_pub)]

mod antichain;
mod antichain_bdd;
mod antichain_sim;
mod ba;
mod bisim;
mod command;
mod decide;
mod dot;
mod error;
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
mod outcome;
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

pub use command::emit_produced;
pub use decide::{
    equivalent, included, preprocess, universal, EquivAlgo, InclAlgo, Preprocess, UnivAlgo,
};
pub use error::AutomataError;
pub use gen::TvParams;
pub use nfa::{Alphabet, BitLetters, Letter, Nfa, NfaBuilder, Reconciliation, State};
pub use outcome::Outcome;
pub use task::{
    convert, demo, equiv, generate, incl, info, load, reduce, univ, write, CheckOptions, Choice,
    Produced, EQUIV_ALGOS, INCL_ALGOS, INPUT_FORMATS, OUTPUT_FORMATS, PARAMS, PRE_CHOICES,
    REDUCE_METHODS, UNIV_ALGOS,
};

pub use verikit_diag::{Budget, Exhausted};
