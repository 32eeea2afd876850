//! The crate's error type.

use verikit_diag::{Diagnostic, Reportable, SourceFile};

#[derive(Debug, thiserror::Error)]
pub enum SyntError {
    /// Malformed input (TLSF, LTL, signal lists), with its location.
    #[error("{}", .0.message)]
    Syntax(Box<Diagnostic>),
    /// Well-formed input using a construct this engine does not support (named in the message).
    #[error("{}", .0.message)]
    Unsupported(Box<Diagnostic>),
    /// Bad usage (e.g. an LTL formula over undeclared signals).
    #[error("{0}")]
    Usage(String),
    /// A size bound was exceeded.
    #[error("{0}")]
    Limit(String),
    /// The caller's budget ran out.
    #[error("{0}")]
    Exhausted(#[from] verikit_diag::Exhausted),
    /// A controller or counter-strategy failed its model check: a bug, never printed as an answer.
    #[error("internal error: {0}")]
    Internal(String),
}

impl SyntError {
    pub(crate) fn syntax(d: Diagnostic) -> Self {
        SyntError::Syntax(Box::new(d))
    }
    pub(crate) fn unsupported(d: Diagnostic) -> Self {
        SyntError::Unsupported(Box::new(d))
    }
    /// Names the file the error's span points into, unless it is already named.
    pub fn in_source(mut self, name: &str, text: &str) -> Self {
        if let SyntError::Syntax(d) | SyntError::Unsupported(d) = &mut self {
            if d.file.is_none() {
                d.file = Some(Box::new(SourceFile::new(name, text)));
            }
        }
        self
    }
}

impl From<verikit_omega::OmegaError> for SyntError {
    fn from(e: verikit_omega::OmegaError) -> Self {
        use verikit_omega::OmegaError as O;
        match e {
            O::Syntax(d) => SyntError::Syntax(d),
            O::Unsupported(d) => SyntError::Unsupported(d),
            O::Limit(s) => SyntError::Limit(s),
            O::Exhausted(x) => SyntError::Exhausted(x),
        }
    }
}

impl Reportable for SyntError {
    fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            SyntError::Syntax(d) | SyntError::Unsupported(d) => Some(d),
            _ => None,
        }
    }
    fn is_resource_limit(&self) -> bool {
        matches!(self, SyntError::Limit(_) | SyntError::Exhausted(_))
    }
}
