//! The crate's error type.

use verikit_diag::{Diagnostic, Reportable};

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
