//! Program verification: C programs in SV-COMP's conventions (and their tasks) lowered to a
//! control-flow automaton of linear integer arithmetic (`Cfa`), emitted as constrained Horn
//! clauses, and decided by bounded model checking (`bmc`) and lazy abstraction with
//! interpolants (`impact`, McMillan, CAV 2006). `task` is the one entry point of
//! `verikit prog verify`; `chc_task` of `verikit prog chc` (linear Horn clauses read by `horn`,
//! turned into an automaton by `horn_cfa`, answers checked by `horn_check`).

#![warn(unreachable_pub)]

mod abstract_post;
mod bmc;
mod cegar;
mod cfa;
mod chc;
mod chc_task;
mod command;
mod error;
mod front;
mod global_guidance;
mod graphml_witness;
mod horn;
mod horn_cfa;
mod horn_check;
mod horn_inline;
mod horn_slice;
mod impact;
mod intervals;
mod invariant_check;
mod kind;
mod live_vars;
mod load;
mod lower;
mod mbp;
mod options;
mod path_feasibility;
mod path_interp;
mod replay;
mod spacer;
mod summary_bmc;
mod sv_witness;
mod svtask;
mod task;

pub use cfa::{Atom, CallSite, Cfa, Edge, IntTy, Lin, Loc, Op, Proc, Var, VarInfo};
pub use chc::{to_chc, MAX_CHC_SIZE};
pub use chc_task::{solve_chc, solve_chc_text};
pub use command::{
    cfa_command, chc_command, to_chc_command, to_smt_command, verify_command, ENGINE_NAMES,
};
pub use error::ProgError;
pub use horn_check::{check_chc_derivation, check_chc_model, ChcModel, ChcStep};
pub use invariant_check::{check_invariant, Invariant};
pub use load::{load_c, lower_preprocessed};
pub use lower::LowerOptions;
pub use options::{Engine, VerifyOptions, PARAMS};
pub use replay::{harness_source, replay_with_gcc, Replay};
pub use svtask::{read_task, Property, SvTask};
pub use task::{cegar_invariant, dump_cfa, impact_invariant, to_chc_text, to_smt_text, verify};
