//! LTL and ω-automata kernel: Spot-syntax LTL (parse, print, simplify, random formulas, a direct
//! evaluator on lasso words), translation of LTL to transition-based generalized Büchi automata
//! (Couvreur's tableau, FM'99), automaton simplifications and degeneralisation, HOA v1 input and
//! output, DOT output, SCC-based emptiness with lasso witnesses, products, membership of lasso
//! words, and a rank-based complementation for small automata.
//!
//! The automaton type is [`Twa`]: explicit states, edges labelled by BDDs over the atomic
//! propositions (`biodivine-lib-bdd`), and generalized Büchi acceptance `Inf(0)&…&Inf(k-1)` on
//! transitions (state-based acceptance is the special case where all edges leaving a state carry
//! the same marks; [`Twa::state_based`] records it).

#![warn(unreachable_pub)]

// Lets the helpers shared with the integration tests name this crate as they do.
#[cfg(test)]
extern crate self as verikit_omega;
mod acc;
mod accepts;
mod acd;
mod bisim;
mod checked_merge;
mod command;
mod complement;
mod containment;
mod cosafe_dfa;
mod cosim;
mod degen;
mod delayed_sim;
mod det_merge;
mod det_split;
mod deterministic;
mod determinize;
mod direct_sim;
mod dot;
mod dual;
mod el_emptiness;
mod emptiness;
mod error;
mod fair_merge;
mod fair_sim;
mod filter;
mod fin_removal;
mod gba_reduce;
mod gf_guarantee;
mod hoa;
mod iterated_sim;
mod ldba;
mod little_brothers;
mod ltl;
mod monitor;
mod parity;
mod postproc;
mod product;
mod prune;
mod quotient;
mod ramsey_inclusion;
mod rand;
mod redirect_merge;
mod sat_minimize;
mod sbacc;
mod scc_acc;
mod scc_info;
mod scc_sets;
mod sim_game;
mod sim_pruning;
mod spot_stats;
mod stutter_det;
mod svg;
pub mod task;
mod translate;
mod twa;
mod wdba;
mod word;
mod zielonka;
mod zielonka_tree;

pub use command::{
    accepts_command, aut_command, check_command, filter_command, formula_arg, formula_file_arg,
    formulas_command, included_command, parity_kind, product_command, rand_command, FilterTests,
    FormulaCommand,
};
pub use error::OmegaError;
pub use task::PARAMS;
// The automaton, its acceptance conditions, and what reads and prints it.
pub use acc::{Acc, Parity};
pub use dot::to_dot;
pub use hoa::print::acceptance_text;
pub use hoa::{
    parse as parse_hoa, parse_all as parse_hoa_all, parse_stream as parse_hoa_stream, to_hoa,
};
pub use svg::to_svg;
pub use twa::{isomorphic, Marks, Twa};
// LTL: the formula arena, Spot-syntax parsing and printing, simplification, lasso evaluation.
pub use ltl::eval::{holds, Lasso};
pub use ltl::nnf::nnf;
pub use ltl::parse::parse as parse_ltl;
pub use ltl::print::{ap_text, to_string as ltl_to_string};
pub use ltl::simplify::simplify as simplify_ltl;
pub use ltl::{Arena, Node, F};
pub use rand::{RandLtl, Weights};
// Translation and the questions asked of automata.
pub use accepts::{accepts, accepts_lasso, accepts_lasso_dnf};
pub use complement::complement;
pub use cosafe_dfa::CosafeDfa;
pub use dual::complement_deterministic;
pub use emptiness::{accepting_lasso, is_empty};
pub use filter::{filter, Filter};
pub use gba_reduce::{reduce as gba_reduce, Method as ReduceMethod};
pub use ldba::Ldba;
pub use product::{ap_union, product};
pub use prune::prune;
pub use ramsey_inclusion::{included, Inclusion, Limits as InclusionLimits};
pub use sim_game::GameSolver;
pub use translate::{translate, Level, Options as TranslateOptions};
pub use word::{parse_word, Word};
// Deterministic automata: determinisation, parity automata, the `-D`/`-P` pipeline.
pub use deterministic::{
    buchi_as_parity, deterministic, deterministic_pair, simplify_parity, DetOptions,
};
pub use determinize::{determinize, Options as DeterminizeOptions};
pub use parity::{colour_of, complete_gba, ParityAut, ParityKind};

#[cfg(test)]
mod tests;
