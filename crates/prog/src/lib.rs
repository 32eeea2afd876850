//! Program verification: C programs in SV-COMP's conventions (and their tasks) lowered to a
//! control-flow automaton of linear integer arithmetic (`Cfa`), emitted as constrained Horn
//! clauses, and decided by bounded model checking (`bmc`) and lazy abstraction with
//! interpolants (`impact`, McMillan, CAV 2006). `task` is the one entry point of
//! `verikit prog`.

#![warn(unreachable_pub)]

mod bmc;
mod cfa;
mod chc;
mod error;
mod front;
mod impact;
mod invariant_check;
mod load;
mod lower;
mod replay;
mod svtask;
mod task;

pub use cfa::{Atom, Cfa, Edge, IntTy, Lin, Loc, Op, Var, VarInfo};
pub use chc::{to_chc, MAX_CHC_SIZE};
pub use error::ProgError;
pub use invariant_check::{check_invariant, Invariant};
pub use load::{load_c, lower_preprocessed};
pub use lower::LowerOptions;
pub use replay::{harness_source, replay_with_gcc, Replay};
pub use svtask::{read_task, Property, SvTask};
pub use task::{dump_cfa, impact_invariant, to_chc_text, verify, Engine, VerifyOptions, PARAMS};
