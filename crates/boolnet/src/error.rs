//! The crate's error type: located input errors and resource limits.

use verikit_diag::{Diagnostic, Exhausted, Reportable};

/// Everything that can go wrong in the Boolean-network engine.
#[derive(Debug, thiserror::Error)]
pub enum BnError {
    /// Bad input, with a located diagnostic.
    #[error("{0}")]
    Input(Box<Diagnostic>),
    /// A size bound was hit (BDD nodes, state-space size for explicit enumeration, period bound).
    #[error("{0}")]
    Limit(String),
    /// The deadline given in the options passed.
    #[error("the time limit was reached")]
    Timeout,
}

impl From<Diagnostic> for BnError {
    fn from(d: Diagnostic) -> Self {
        BnError::Input(Box::new(d))
    }
}

impl Reportable for BnError {
    fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            BnError::Input(d) => Some(d),
            _ => None,
        }
    }
    fn is_resource_limit(&self) -> bool {
        matches!(self, BnError::Limit(_) | BnError::Timeout)
    }
}

/// The error for a budget that ran out: a deadline or cancellation is a timeout, counted work or
/// memory a resource limit.
pub(crate) fn exhausted(e: Exhausted) -> BnError {
    match e {
        Exhausted::Timeout | Exhausted::Cancelled => BnError::Timeout,
        Exhausted::Work | Exhausted::Memory => BnError::Limit(e.to_string()),
    }
}
