//! Listing the states of a symbolic state set in time linear in the output.
//!
//! The paths of the BDD to `true` are walked depth first (each path costs at most one step per
//! BDD variable), and each path — a partial valuation — is expanded over the variables it leaves
//! free, in binary counting order. Every path yields at least one state and distinct paths yield
//! disjoint sets of states, so listing `k` states costs `O(k · n)` whatever the size of the set.
//! (Removing each listed state from the set, one BDD operation per state, costs a pass over a BDD
//! that may keep growing: quadratic or worse in practice.)

use crate::error::BnError;
use crate::symbolic::x;
use biodivine_lib_bdd::Bdd;
use verikit_diag::Budget;

/// Largest listing (in bytes of states) [`states`] builds; a larger request is a resource limit
/// rather than an allocation failure.
pub(crate) const MAX_LISTED_BYTES: usize = 1 << 32;

/// Up to `limit` states of `set`, a set over the current-state variables `vars` of a network of
/// `n` variables (the set must not mention next-state variables), as full valuations with the
/// variables outside `vars` false. States come in path order, each once.
pub(crate) fn states(
    set: &Bdd,
    vars: &[usize],
    n: usize,
    limit: usize,
    budget: &Budget,
) -> Result<Vec<Vec<bool>>, BnError> {
    let mut out = Vec::new();
    let mut ticker = budget.ticker(1024);
    for path in set.sat_clauses() {
        if out.len() >= limit {
            break;
        }
        let mut base = vec![false; n];
        let mut free = Vec::new();
        for &i in vars {
            match path.get_value(x(i)) {
                Some(v) => {
                    if let Some(b) = base.get_mut(i) {
                        *b = v;
                    }
                }
                None => free.push(i),
            }
        }
        // Binary counting over the free variables: the first state has them all false.
        let mut state = base;
        loop {
            if out.len() >= limit {
                break;
            }
            ticker.tick().map_err(crate::error::exhausted)?;
            if (out.len() + 1).saturating_mul(n.max(1)) > MAX_LISTED_BYTES {
                return Err(BnError::Limit(format!(
                    "listing {} states of {n} variables would take more than {} GiB (lower --limit)",
                    out.len() + 1,
                    MAX_LISTED_BYTES >> 30
                )));
            }
            out.push(state.clone());
            // Increment: clear trailing ones, set the first zero; done when all were ones.
            let mut carried = true;
            for &i in &free {
                let Some(b) = state.get_mut(i) else { continue };
                if *b {
                    *b = false;
                } else {
                    *b = true;
                    carried = false;
                    break;
                }
            }
            if carried {
                break;
            }
        }
    }
    Ok(out)
}
