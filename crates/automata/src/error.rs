//! The crate's error type.

use verikit_diag::{Diagnostic, Exhausted, Failure, Reportable};

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

/// How every front end reports an automata error: inputs that cannot be used together are a
/// usage error, a failed invariant is a bug, the rest as [`Failure::from_error`] (unlocated:
/// the caller knows which file a parse error belongs to only through the diagnostic itself).
impl From<AutomataError> for Failure {
    fn from(e: AutomataError) -> Self {
        match e {
            AutomataError::Invalid(m) => Failure::Usage(m),
            AutomataError::Internal(m) => Failure::Internal(m),
            e => Failure::from_error(e, None),
        }
    }
}
