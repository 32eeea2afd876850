//! Reactive synthesis from LTL.
//!
//! Papers: O. Kupferman, N. Piterman, M. Y. Vardi, *Safraless compositional synthesis*, CAV 2006
//! (C06): the specification as a universal co-Büchi automaton (the Büchi automaton of `¬φ`),
//! bounded synthesis by counting visits to rejecting states, compositional treatment of
//! conjunctions; S. Husien, S. Schewe, N. Berthier, *PranCS: a protocol and discrete controller
//! synthesis tool*, SETTA 2017 (S20): controllers as circuits, checked before use.
//!
//! Pipeline: [`parse_tlsf`] (TLSF 1.1 → one LTL formula and the input/output partition) →
//! `polarity` (single-polarity propositions fixed) → `decompose` (parts over disjoint outputs,
//! each solved as below, controllers composed by `aig::compose`, the composition checked part by
//! part through `cone_machine` and `clause_cover`) → `compositional` (C06 §5: the conjuncts, the union of their negations' automata) → `letters`
//! (edge guards, letter classes and groups as BDDs) → `bounded` (C06's safety games over counter functions, for the system on `φ` and for the
//! environment on `¬φ`, bound increased until one side wins) → `mealy` (the winning strategy as a
//! Mealy/Moore machine, minimised) → `aig` (AND-inverter circuit, handed to `verikit-aiger` for `aag`/`aig`) →
//! `model_check` (the product of the machine with the automaton of `¬φ` must be empty; a
//! counter-strategy with the automaton of `φ`). [`solve`] and [`convert`] are what the CLI
//! calls.

#![warn(unreachable_pub)]

mod aig;
mod bounded;
mod clause_cover;
mod command;
mod compositional;
mod cone_machine;
mod decompose;
mod dpa_game;
mod error;
mod isop;
mod letters;
mod ltl;
mod mealy;
mod memin;
mod model_check;
mod polarity;
mod state_merging;
mod task;
mod tlsf;
mod turns;

pub use command::{convert_command, solve_command};
pub use error::SyntError;
pub use ltl::Ltl;
pub use task::{
    convert, solve, solve_problem, synthesize, Input, Options, Problem, Solution, PARAMS,
};
pub use tlsf::{parse_tlsf, Semantics, Spec};
