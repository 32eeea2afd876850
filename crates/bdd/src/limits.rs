//! The resources a BDD operation of this crate may use ([`Limits`]) and why it stopped
//! ([`BddError`]).

use biodivine_lib_bdd::Bdd;
use verikit_diag::{Budget, Exhausted, Reportable};

/// The most variables a dictionary holds (biodivine-lib-bdd numbers variables with 16 bits and
/// uses the largest number for its terminals).
pub const MAX_VARS: usize = u16::MAX as usize - 1;

/// Why a BDD operation of this crate stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BddError {
    /// A result would exceed the node limit (`nodes` is its size when it was built in full).
    #[error("a decision diagram exceeded the limit of {limit} nodes")]
    NodeLimit { limit: usize, nodes: Option<usize> },
    /// The budget ran out (deadline, cancellation, counted work).
    #[error("{0}")]
    Exhausted(Exhausted),
    /// More names than BDD variables (biodivine-lib-bdd numbers variables with 16 bits).
    #[error("{0} propositions exceed the {max} BDD variables available", max = MAX_VARS)]
    TooManyVariables(usize),
}

impl From<Exhausted> for BddError {
    fn from(e: Exhausted) -> Self {
        BddError::Exhausted(e)
    }
}

impl Reportable for BddError {
    fn is_resource_limit(&self) -> bool {
        true
    }
}

/// The resources one conversion may use: a node limit on every intermediate BDD and a [`Budget`]
/// polled after every BDD operation.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Largest BDD (in nodes) an operation may produce.
    pub nodes: Option<usize>,
    pub budget: Budget,
}

impl Limits {
    /// No node limit, an unlimited budget.
    pub fn unlimited() -> Limits {
        Limits::default()
    }

    /// A node limit and a budget.
    pub fn new(nodes: Option<usize>, budget: Budget) -> Limits {
        Limits { nodes, budget }
    }

    /// Fails if `b` is over the node limit or the budget ran out.
    pub fn check(&self, b: &Bdd) -> Result<(), BddError> {
        if let Some(limit) = self.nodes {
            if b.size() > limit {
                return Err(BddError::NodeLimit {
                    limit,
                    nodes: Some(b.size()),
                });
            }
        }
        self.budget.check()?;
        Ok(())
    }

    /// `op(a, b)` within the node limit (the operation stops as soon as its result grows past
    /// the limit), then polls the budget.
    pub fn apply(
        &self,
        a: &Bdd,
        b: &Bdd,
        op: fn(Option<bool>, Option<bool>) -> Option<bool>,
    ) -> Result<Bdd, BddError> {
        let r = match self.nodes {
            Some(limit) => Bdd::binary_op_with_limit(limit, a, b, op)
                .ok_or(BddError::NodeLimit { limit, nodes: None })?,
            None => Bdd::binary_op(a, b, op),
        };
        self.budget.check()?;
        Ok(r)
    }
}
