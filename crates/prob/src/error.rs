//! The crate's error type.

use verikit_diag::{Diagnostic, Reportable};

#[derive(Debug, thiserror::Error)]
pub enum ProbError {
    /// Bad input in the model or properties file, located where possible.
    #[error("{0}")]
    Input(Diagnostic),
    /// A size bound was exceeded (states, memory).
    #[error("{0}")]
    Limit(String),
}

impl From<Diagnostic> for ProbError {
    fn from(d: Diagnostic) -> Self {
        ProbError::Input(d)
    }
}

impl Reportable for ProbError {
    fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            ProbError::Input(d) => Some(d),
            ProbError::Limit(_) => None,
        }
    }
    fn is_resource_limit(&self) -> bool {
        matches!(self, ProbError::Limit(_))
    }
}
