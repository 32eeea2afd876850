//! Program verification: C programs in SV-COMP's conventions (and their tasks) lowered to a
//! control-flow automaton of linear integer arithmetic (`Cfa`), emitted as constrained Horn
//! clauses, and decided by bounded model checking (`bmc`) and lazy abstraction with
//! interpolants (`impact`, McMillan, CAV 2006). `task` is the one entry point of
//! `verikit prog`.

#![warn(unreachable_pub)]

mod bmc;
mod cfa;
mod chc;
mod front;
mod impact;
mod invariant_check;
mod lower;
mod replay;
mod svtask;
mod task;

pub use cfa::{Atom, Cfa, Edge, IntTy, Lin, Loc, Op, Var, VarInfo};
pub use chc::{to_chc, MAX_CHC_SIZE};
pub use invariant_check::{check_invariant, Invariant};
pub use lower::LowerOptions;
pub use replay::{harness_source, replay_with_gcc, Replay};
pub use svtask::{read_task, Property, SvTask};
pub use task::{dump_cfa, impact_invariant, to_chc_text, verify, Engine, VerifyOptions, PARAMS};

use std::path::Path;
use verikit_diag::{Diagnostic, Reportable, SourceFile};

/// Errors of the program front end.
#[derive(Debug, thiserror::Error)]
pub enum ProgError {
    /// Bad input (syntax error, malformed task), located.
    #[error("{}", .0.message)]
    Input(Box<Diagnostic>),
    /// A construct outside the supported subset (answered `unknown` with this reason).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A needed external tool (gcc) is missing or failed.
    #[error("{0}")]
    Tool(String),
}

impl Reportable for ProgError {
    fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            ProgError::Input(d) => Some(d),
            _ => None,
        }
    }
}

/// Preprocesses, parses and lowers a C file to an automaton.
pub fn load_c(path: &Path, opts: LowerOptions) -> Result<Cfa, ProgError> {
    let src = SourceFile::read(path).map_err(|d| ProgError::Input(Box::new(d)))?;
    let pre = front::preprocess(path)?;
    let unit = front::parse(&pre, &src)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    lower::lower(&unit, &pre, &name, opts)
}

/// Parses and lowers already-preprocessed C text (no gcc): the parser entry point of the fuzz
/// target and the totality test; `name` is the file name the line markers refer to.
pub fn lower_preprocessed(text: &str, name: &str, opts: LowerOptions) -> Result<Cfa, ProgError> {
    let src = SourceFile::new(name, text);
    let pre = front::Preprocessed::new(text.to_string(), name);
    let unit = front::parse(&pre, &src)?;
    lower::lower(&unit, &pre, name, opts)
}
