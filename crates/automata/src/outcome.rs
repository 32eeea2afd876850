//! What a universality, inclusion or equivalence check answers.

use crate::nfa::Letter;

/// The answer of a universality, inclusion or equivalence check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Whether the property holds.
    pub holds: bool,
    /// When it does not: a word showing it (rejected / in `A` not `B` / in exactly one).
    pub witness: Option<Vec<Letter>>,
    /// The size of the final antichain or relation `R`.
    pub size: usize,
    /// The number of pairs or sets processed.
    pub explored: usize,
}

impl Outcome {
    pub fn holds(size: usize, explored: usize) -> Outcome {
        Outcome {
            holds: true,
            witness: None,
            size,
            explored,
        }
    }
    pub fn fails(word: Vec<Letter>, size: usize, explored: usize) -> Outcome {
        Outcome {
            holds: false,
            witness: Some(word),
            size,
            explored,
        }
    }
}
