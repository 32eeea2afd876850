//! Boolean networks and synchronous attractor detection.
//!
//! Implements SETTA'17, Mizera, Pang, Qu, Yuan, "A New Decomposition Method for Attractor
//! Detection in Large Synchronous Boolean Networks": the SCC-based decomposition (Algorithm 1,
//! `decomposition`), the leaf-based optimisation (Algorithm 2, `leaf_removal`), the monolithic
//! BDD baseline (`monolithic`) and an explicit oracle (`bruteforce`) on the BDD encoding of
//! `symbolic`. Formats: `.bnet` (`bnet`, read and write), `.aeon` (`aeon`), SBML-qual (`sbml`).
//! Random networks like the paper's: `generate`.
//!
//! The surface is closed: [`parse`] and [`Network`], [`attractors`] and [`fixed_points`] with
//! their [`Options`] and [`Limits`], and the `verikit bn` tasks that turn them into one
//! [`verikit_diag::Answer`] each ([`attractors_answer`], [`fixed_points_answer`], [`info`],
//! [`generate`], [`convert`]; [`load`] and [`write`] pick the format from a file name).

#![warn(unreachable_pub)]

mod aeon;
mod attractors;
mod bnet;
mod bruteforce;
mod command;
mod decomposition;
mod detect;
mod enumerate;
mod error;
mod format;
mod generate;
mod leaf_removal;
#[cfg(test)]
mod monolithic;
mod network;
mod sampling;
mod sbml;
mod symbolic;
mod task;

#[cfg(test)]
mod tests;

pub use command::{generate_command, load_source, model_command, BnQuery};
pub use error::BnError;
pub use generate::GenParams;
pub use network::{InputMode, Network};
pub use num_bigint::BigUint;
pub use symbolic::{Cycle, Detect, Limits, DEFAULT_NODE_LIMIT};
pub use task::{
    apply_params, attractors_answer, convert, fixed_points_answer, generate, info, load, write,
    PARAMS,
};

pub use attractors::{attractors, fixed_points, Attractors, Method, Options, Stats};
pub use format::{parse, Format};
