//! What an engine returns, shared by all of them: a counterexample (an AIGER witness), a proof
//! (an inductive invariant, or k-inductiveness), or why it stopped and how far it got.

use crate::unroll::Unroller;
use verikit_aiger::Witness;
use verikit_diag::{Answer, Exhausted, Verdict};
use verikit_sat::SatBackend;

/// Why a property holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Clauses over latches (AIGER latch literals: even = latch is 1, odd = latch is 0) whose
    /// conjunction holds initially, is preserved by every transition that satisfies the
    /// invariant constraints, and excludes the bad states.
    Invariant(Vec<Vec<u32>>),
    /// The property is `k`-inductive (with simple-path constraints) and no counterexample of
    /// length at most `k` exists.
    KInduction { k: usize },
}

/// The result of one engine run.
#[derive(Clone, Debug)]
pub enum Outcome {
    Safe(Proof),
    /// A counterexample of `depth` transitions.
    Unsafe {
        witness: Witness,
        depth: usize,
    },
    /// The engine finished without a decision (BMC up to its maximum depth).
    Unknown {
        reason: String,
    },
    /// The budget ran out; `reached` says how far the engine got.
    Exhausted {
        why: Exhausted,
        reached: String,
    },
}

/// The answer of a search whose budget ran out: `timeout` at the deadline, `unknown` for the
/// other limits, with how far it got.
pub(crate) fn exhausted_answer(why: &Exhausted, reached: &str) -> Answer {
    let v = if why.verdict_word() == "timeout" {
        Verdict::Timeout
    } else {
        Verdict::Unknown
    };
    Answer::decision(v)
        .detail("reason", why.to_string())
        .detail("reached", reached)
        .line(format!("{}: {why}; reached {reached}", v.as_str()))
}

/// The witness of a model of `unroll` with the bad state at `depth`: uninitialised latches take
/// their model values (0 when outside the cone), inputs their model values (0 outside the cone).
pub(crate) fn witness_from_model(
    un: &Unroller,
    sat: &dyn SatBackend,
    prop: usize,
    depth: usize,
) -> Witness {
    let (latches, inputs) = un.model_trace(sat, depth);
    Witness {
        props: vec![('b', prop)],
        latches,
        inputs,
    }
}
