//! verikit-prob: probabilistic model checking of PRISM-language models.
//!
//! * [`lang`] — the PRISM modelling and property languages (lexer, parser with spans, semantic
//!   checks and types), including the interval models `idtmc`/`imdp` with `[l,u]:` updates.
//! * [`build`] — explicit-state breadth-first construction into a sparse [`model::Model`].
//! * [`precomp`], [`mec`], [`vi`], [`foxglynn`], [`steady`] — the numerical engine, used by
//!   [`check`] for PCTL/CSL properties with rewards.
//! * [`export`] — PRISM `.tra/.sta/.lab` and DOT.

// Numerical kernels index several parallel arrays by state; index loops read best there.
#![allow(clippy::needless_range_loop)]
#![warn(unreachable_pub)]

mod build;
mod check;
mod command;
mod ctl;
mod error;
mod exact_chain;
mod export;
mod foxglynn;
mod imdp_bisim;
mod interleave;
mod jani;
mod lang;
mod ldba_product;
mod ltl_scheduler;
mod mec;
mod model;
mod polytope_lp;
mod precomp;
mod prop_env;
mod quotient;
mod reward_bounded;
mod robust_check;
mod robust_vi;
mod scheduler;
mod steady;
pub mod task;
mod total_reward;
mod uniformisation;
mod vi;
mod widen;

pub use build::{build, eval_states, BuildOptions};
pub use check::{Answer, CheckOptions, Checker, PropertyResult};
pub use command::{
    bisim_command, build_command, check_command, demo_bisim, demo_check, BisimCommand,
    BuildExports, CheckCommand, ModelInput, MAX_SWEEPS,
};
pub use error::ProbError;
pub use export::{dot, lab, sta, tra};
pub use imdp_bisim::{bisimulation, label_partition, partition_by, Bisimulation};
pub use interleave::{bisimilar, interleave};
pub use jani::parse_jani;
pub use lang::ast::{ModelType, PropertiesFile, Property};
pub use lang::parser::{parse_model, parse_properties};
pub use lang::typecheck::{check_model, parse_const_overrides, Program};
pub use ltl_scheduler::{write_memory_scheduler, MemoryRow, MemoryScheduler};
pub use mec::mecs;
pub use model::Model;
pub use polytope_lp::{contained_farkas, fixed, Polytope};
pub use quotient::quotient;
pub use robust_check::{until, Dir, RobustChecker};
pub use robust_vi::{nature_value, reach, Goal};
pub use scheduler::write_scheduler;
pub use widen::widen;

/// Parses, checks and builds a model from source text with `--const` overrides.
pub fn load_model(
    text: &str,
    overrides: &[(String, String)],
    opts: &BuildOptions,
) -> Result<(Program, Model), ProbError> {
    let mf = parse_model(text)?;
    let prog = check_model(&mf, overrides)?;
    let model = build(&prog, opts)?;
    Ok((prog, model))
}

/// Selects properties by name or 1-based index (`None`: all).
pub fn select_properties<'p>(
    pf: &'p PropertiesFile,
    sel: Option<&str>,
) -> Result<Vec<&'p Property>, ProbError> {
    match sel {
        None => Ok(pf.properties.iter().collect()),
        Some(s) => {
            if let Some(p) = pf.properties.iter().find(|p| p.name.as_deref() == Some(s)) {
                return Ok(vec![p]);
            }
            if let Ok(i) = s.parse::<usize>() {
                if i >= 1 && i <= pf.properties.len() {
                    return Ok(vec![&pf.properties[i - 1]]);
                }
            }
            Err(ProbError::Input(verikit_diag::Diagnostic::error(format!(
                "no property named or numbered `{s}`"
            ))))
        }
    }
}

/// The tuning parameters of the PRISM engine (`verikit --help-params`).
pub const PARAMS: &[verikit_diag::Param] = &[MAX_SWEEPS];
