//! Complementation of deterministic automata with any acceptance (Spot's `dualize` on
//! deterministic automata; Babiak et al., "The Hanoi Omega-Automata Format", CAV'15, makes the
//! condition a formula precisely so that this is a syntactic negation): a deterministic automaton
//! has exactly one run per word once it is complete, so the complement is the completed automaton
//! with the negated condition. Completion sends the missing letters to a new sink state whose
//! loop carries a new mark `k`; the completed automaton's condition is `acc ∧ Fin(k)` (the sink
//! rejects), and the complement's is `¬acc ∨ Inf(k)`.

use crate::acc::Acc;
use crate::error::OmegaError;
use crate::twa::{Twa, MAX_SETS};
use verikit_diag::{Budget, Diagnostic};

/// The complement of a deterministic automaton (at most one initial state, pairwise disjoint
/// labels on each state's edges); [`OmegaError::Unsupported`] for a nondeterministic one.
pub fn complement_deterministic(aut: &Twa, budget: &Budget) -> Result<Twa, OmegaError> {
    if !aut.is_deterministic() {
        return Err(OmegaError::unsupported(Diagnostic::error(format!(
            "complementation of {} automata is implemented for deterministic automata only (this one is nondeterministic)",
            aut.acceptance_description()
        ))));
    }
    let mut out = aut.clone();
    out.name = None;
    let acc = aut.acceptance();
    let mut holes = Vec::new();
    for (s, es) in aut.states.iter().enumerate() {
        budget.check()?;
        let mut covered = aut.ff();
        for e in es {
            covered = covered.or(&e.label);
        }
        if !covered.is_true() {
            holes.push((s as u32, covered.not()));
        }
    }
    let needs_sink = !holes.is_empty() || aut.init.is_empty();
    let neg = acc.complement();
    if needs_sink {
        let k = aut.num_sets;
        if k >= MAX_SETS {
            return Err(OmegaError::Limit(format!(
                "completing the automaton needs more than {MAX_SETS} acceptance sets"
            )));
        }
        let sink = out.add_state();
        let mark = 1u64 << k;
        let t = out.tt();
        out.add_edge(sink, sink, t, mark);
        for (s, l) in holes {
            out.add_edge(s, sink, l, 0);
        }
        if out.init.is_empty() {
            out.init.push(sink);
        }
        out.set_acceptance(k + 1, Acc::or(neg, Acc::inf(k)));
        out.state_based = false;
    } else {
        out.set_acceptance(aut.num_sets, neg);
    }
    Ok(out)
}
