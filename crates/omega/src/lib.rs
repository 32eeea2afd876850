//! LTL and ω-automata kernel: Spot-syntax LTL (parse, print, simplify, random formulas, a direct
//! evaluator on lasso words), translation of LTL to transition-based generalized Büchi automata
//! (Couvreur's tableau, FM'99), automaton simplifications and degeneralisation, HOA v1 input and
//! output, DOT output, SCC-based emptiness with lasso witnesses, products, membership of lasso
//! words, and a rank-based complementation for small automata.
//!
//! The automaton type is [`twa::Twa`]: explicit states, edges labelled by BDDs over the atomic
//! propositions (`biodivine-lib-bdd`), and generalized Büchi acceptance `Inf(0)&…&Inf(k-1)` on
//! transitions (state-based acceptance is the special case where all edges leaving a state carry
//! the same marks; [`twa::Twa::state_based`] records it).

pub mod acc;
pub mod accepts;
pub mod bisim;
pub mod checked_merge;
pub mod complement;
pub mod containment;
pub mod cosim;
pub mod degen;
pub mod delayed_sim;
pub mod direct_sim;
pub mod dot;
pub mod dual;
pub mod el_emptiness;
pub mod emptiness;
pub mod error;
pub mod fair_merge;
pub mod fair_sim;
pub mod filter;
pub mod gba_reduce;
pub mod gf_guarantee;
pub mod hoa;
pub mod iterated_sim;
mod ldba;
pub mod little_brothers;
pub mod ltl;
pub mod postproc;
pub mod product;
pub mod prune;
pub mod quotient;
pub mod ramsey_inclusion;
pub mod rand;
pub mod redirect_merge;
pub mod sbacc;
pub mod scc_acc;
pub mod scc_info;
pub mod scc_sets;
pub mod sim_game;
pub mod spot_stats;
pub mod svg;
pub mod task;
pub mod translate;
pub mod twa;
pub mod wdba;
pub mod word;
pub mod zielonka;
// Closed from the start: reached through the re-exports below.
mod deterministic;
mod determinize;
mod parity;

pub use error::OmegaError;
pub use ldba::Ldba;
pub use task::PARAMS;
pub use twa::Twa;
// For the synthesis engine (crates/synt): the formula arena, the translation, the AP printer.
pub use acc::{Acc, Parity};
pub use ltl::print::ap_text;
pub use ltl::{Arena, Node, F};
pub use translate::{translate, Level, Options as TranslateOptions};
pub use twa::Marks;
// Deterministic automata: determinisation, parity automata, the `-D`/`-P` pipeline.
pub use deterministic::{
    buchi_as_parity, deterministic, deterministic_pair, simplify_parity, DetOptions,
};
pub use determinize::{determinize, Options as DeterminizeOptions};
pub use parity::{colour_of, complete_gba, ParityAut, ParityKind};
