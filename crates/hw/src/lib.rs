//! Hardware model checking of AIGER circuits on the SAT kernel (`verikit-sat`): the safety
//! engines of issue "hardware verification" — bounded model checking (the setting of Heljanko et
//! al., *Bounded model checking for weak alternating Büchi automata*, CAV'06 C12), k-induction
//! with simple-path constraints, and IC3/PDR (Bradley VMCAI'11; Eén–Mishchenko–Brayton FMCAD'11)
//! — and a portfolio. Every `unsafe` answer carries an AIGER witness replayed on the circuit by
//! `verikit-aiger`'s simulator; every IC3 `safe` answer carries an inductive invariant re-checked
//! by SAT ([`check_invariant`]).
//!
//! Modules: `unroll` (Tseitin unrolling, cone of influence), `bmc`, `kind`, `ic3`, `certify`
//! (the invariant check), `outcome` (what engines return), `task` (engine choice, parameters and
//! the `Answer`: what `verikit aig` calls); for `verikit sat`: `sat_task` (solving DIMACS with
//! DRAT proofs, cores, the BMC unrolling as a CNF), `refute` (a solve whose DRAT proof the
//! independent checker verifies), `mus` (deletion-based MUS, the baseline), `trimmer` (Trimmer,
//! Gershman–Koifman–Strichman CAV'06 C13).

#![warn(unreachable_pub)]

mod autoste;
mod bmc;
mod certify;
mod coi_reduce;
mod command;
mod everlost;
mod fraig;
mod ic3;
mod kind;
mod l2s;
mod latch_correspondence;
mod live_task;
mod ltl_formula;
mod monitor;
mod mus;
mod outcome;
mod refute;
mod sat_task;
mod splitmix;
mod star;
mod ste;
mod ste_algebra;
mod ste_parse;
mod ste_replay;
mod ste_sim;
mod ste_task;
mod ste_vacuity;
mod task;
mod ternary_constants;
mod ternary_lifting;
mod trimmer;
mod unroll;
mod vwaba;
mod waba_bmc;

#[cfg(test)]
mod tests;

pub use certify::check_invariant;
pub use command::{
    bmc_cnf_command, check_command, convert_command, core_command, info_command, read_aig,
    read_cnf, solve_command, ste_command, CheckRequest,
};
pub use everlost::EverLostOptions;
pub use ic3::Lift;
pub use live_task::Liveness;
pub use outcome::{Outcome, Proof};
pub use sat_task::{
    bmc_cnf, core_cnf, solve_cnf, Backend, CoreMethod, CoreRun, SatOptions, SatRun, SAT_PARAMS,
};
pub use ste_parse::{parse_ste, Assertion, SteFile};
pub use ste_replay::replay_ste;
pub use ste_task::{
    ste_assertion, ste_check, ste_text, Refine, SteOptions, SteOutcome, SteReport, STE_PARAMS,
};
pub use ste_vacuity::ConcreteRun;
pub use task::{check, check_property, info, Engine, Options, Report, PARAMS};
pub use trimmer::TrimStats;
