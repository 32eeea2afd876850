//! The crate's error type.

use verikit_diag::{Diagnostic, Exhausted, Reportable};

#[derive(Debug, thiserror::Error)]
pub enum ProbError {
    /// Bad input in the model or properties file, located where possible.
    #[error("{0}")]
    Input(Diagnostic),
    /// A size bound was exceeded (states, memory).
    #[error("{0}")]
    Limit(String),
    /// The budget ran out (deadline, cancellation, work, memory).
    #[error("{0}")]
    Exhausted(Exhausted),
}

impl From<Diagnostic> for ProbError {
    fn from(d: Diagnostic) -> Self {
        ProbError::Input(d)
    }
}

impl From<Exhausted> for ProbError {
    fn from(e: Exhausted) -> Self {
        ProbError::Exhausted(e)
    }
}

impl ProbError {
    /// Did the budget run out on time or cancellation (the answer is `timeout`)?
    pub fn is_timeout(&self) -> bool {
        matches!(
            self,
            ProbError::Exhausted(Exhausted::Timeout | Exhausted::Cancelled)
        )
    }
}

impl Reportable for ProbError {
    fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            ProbError::Input(d) => Some(d),
            ProbError::Limit(_) | ProbError::Exhausted(_) => None,
        }
    }
    fn is_resource_limit(&self) -> bool {
        matches!(self, ProbError::Limit(_) | ProbError::Exhausted(_))
    }
}
