//! The crate's error type.

use verikit_diag::{Diagnostic, Exhausted, Reportable};

/// Errors of this crate.
#[derive(Debug, thiserror::Error)]
pub enum AutomataError {
    /// Malformed input, located in its source text.
    #[error("{}", .0.message)]
    Parse(Diagnostic),
    /// Inputs that are well formed but cannot be used together.
    #[error("{0}")]
    Invalid(String),
    /// A size bound was exceeded.
    #[error("{0}")]
    Limit(String),
    /// The budget (deadline, cancellation, work) ran out.
    #[error("{0}")]
    Exhausted(#[from] Exhausted),
    /// An invariant of verikit itself failed (a bug, e.g. a witness that does not replay).
    #[error("{0}")]
    Internal(String),
}

impl Reportable for AutomataError {
    fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            AutomataError::Parse(d) => Some(d),
            _ => None,
        }
    }
    fn is_resource_limit(&self) -> bool {
        matches!(self, AutomataError::Limit(_) | AutomataError::Exhausted(_))
    }
}
