//! UPPAAL queries answered on the zone graph: `E<> φ` is the reachability of a state satisfying
//! φ, `A[] φ` is `not E<> not φ`; the witness is the trace to the state found (for `A[]`, the
//! violation). Both run the passed/waiting search of `reach` with φ as the hit predicate and
//! rebuild the symbolic and timed traces as `tck-reach` answers do.
//!
//! Seed: SETTA'17 Schivo et al. (S19), §3: the queries and the traces a front end shows back to
//! the user in the model's own names; Bengtsson & Yi (2003) §5.1 for the search.

use crate::query::{answer_with, check_pred, Options, ReachResult};
use crate::uppaal::{Query, QueryKind, UppaalModel};
use verikit_diag::{Answer, Budget, Diagnostic, Verdict};

/// The outcome of one query: `Some(true)` satisfied, `Some(false)` not, `None` undecided.
#[derive(Clone, Debug)]
pub struct QueryResult {
    pub satisfied: Option<bool>,
    /// The search; its trace (if any) ends in a state satisfying φ (`E<>`) or violating it
    /// (`A[]`).
    pub search: ReachResult,
}

/// Answers one query.
pub fn check_query(
    um: &UppaalModel,
    q: &Query,
    opts: Options,
    budget: &Budget,
) -> Result<QueryResult, Diagnostic> {
    let n = um.model.processes.len();
    let r = match q.kind {
        QueryKind::Reach => check_pred(&um.model, &|d| q.holds(n, d), opts, budget)?,
        QueryKind::Invariant => check_pred(&um.model, &|d| !q.holds(n, d), opts, budget)?,
    };
    let satisfied = r.reachable.map(|found| match q.kind {
        QueryKind::Reach => found,
        QueryKind::Invariant => !found,
    });
    Ok(QueryResult {
        satisfied,
        search: r,
    })
}

/// The answer printed for one query.
pub fn query_answer(um: &UppaalModel, q: &Query, r: &QueryResult, opts: Options) -> Answer {
    let (verdict, word) = match (r.satisfied, r.search.exhausted) {
        (Some(true), _) => (Verdict::True, "satisfied"),
        (Some(false), _) => (Verdict::False, "not satisfied"),
        (None, Some(e)) if e.verdict_word() == "timeout" => (Verdict::Timeout, "unknown"),
        (None, _) => (Verdict::Unknown, "unknown"),
    };
    let mut a = answer_with(&um.model, &r.search, opts, verdict, word).detail("query", &q.text);
    if !q.comment.is_empty() {
        a = a.detail("comment", &q.comment);
    }
    a
}
