//! The crate's error type.

use verikit_diag::{Diagnostic, Reportable};

#[derive(Debug, thiserror::Error)]
pub enum OmegaError {
    /// Malformed input (LTL, HOA, lasso word), with its location.
    #[error("{}", .0.message)]
    Syntax(Box<Diagnostic>),
    /// Well-formed input using a feature this kernel does not support (named in the message).
    #[error("{}", .0.message)]
    Unsupported(Box<Diagnostic>),
    /// A size bound was exceeded.
    #[error("{0}")]
    Limit(String),
    /// The caller's [`verikit_diag::Budget`] ran out (deadline, cancellation, work or memory).
    #[error("{0}")]
    Exhausted(#[from] verikit_diag::Exhausted),
}

impl OmegaError {
    pub fn syntax(d: Diagnostic) -> Self {
        OmegaError::Syntax(Box::new(d))
    }
    pub fn unsupported(d: Diagnostic) -> Self {
        OmegaError::Unsupported(Box::new(d))
    }
    /// Names the text the error's span points into (a command-line argument), unless it is
    /// already named.
    pub fn in_source(mut self, name: &str, text: &str) -> Self {
        if let OmegaError::Syntax(d) | OmegaError::Unsupported(d) = &mut self {
            if d.file.is_none() {
                d.file = Some(Box::new(verikit_diag::SourceFile::new(name, text)));
            }
        }
        self
    }
}

impl Reportable for OmegaError {
    fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            OmegaError::Syntax(d) | OmegaError::Unsupported(d) => Some(d),
            OmegaError::Limit(_) | OmegaError::Exhausted(_) => None,
        }
    }
    fn is_resource_limit(&self) -> bool {
        matches!(self, OmegaError::Limit(_) | OmegaError::Exhausted(_))
    }
}
