//! Attractor detection by simulation and basin removal, a `Detect` variant for the subsystems of
//! SETTA'17 (Mizera, Pang, Qu, Yuan, "A New Decomposition Method for Attractor Detection in Large
//! Synchronous Boolean Networks", Sect. 2.2: the attractors of a synchronous network are the
//! cycles of its deterministic successor function; Sect. 4, `Detect` is any sound and complete
//! detection routine for a (sub)system).
//!
//! A synchronous network is deterministic, so every state lies in the basin of exactly one
//! attractor. Repeatedly: pick a state still unaccounted for, follow the successor function
//! explicitly until a state repeats (that cycle is an attractor), and remove the attractor's whole
//! basin — backward reachability by preimages, each one a substitution `set[x := f(x)]`, so no
//! composed `f^p` and no image of a large transient set is ever built. When nothing is left every
//! attractor has been found. This suits subsystems with few attractors but long periods or
//! transients, where the period search's `f^p` grows; the number of attractors it will find is
//! bounded by the caller, which falls back to another `Detect` for what is left.

use crate::error::BnError;
use crate::network::step;
use crate::symbolic::{x, Symbolic};
use biodivine_lib_bdd::Bdd;
use std::collections::HashMap;

/// Largest number of simulation steps spent looking for one cycle.
const MAX_STEPS: usize = 1_000_000;

/// What [`sample`] returns: the attractor states found and the states still unaccounted for.
pub(crate) struct Sampled {
    pub found: Bdd,
    pub remaining: Bdd,
}

/// Finds attractors of the subsystem over the ancestor-closed `vars` among `remaining` by
/// simulation, removing each one's basin, until `remaining` is empty or `max_attractors` were
/// found. `remaining` must hold, besides transient states, only whole attractors (each attractor
/// of the subsystem either lies wholly in `remaining ∪ found` or is disjoint from it), and the
/// states outside `remaining ∪ found` must not reach an attractor in `remaining`; `found` holds
/// the attractor states found before. Both hold for the sets of the period search and for any
/// forward-closed set with `found` empty.
pub(crate) fn sample(
    sym: &Symbolic,
    vars: &[usize],
    found: Bdd,
    remaining: Bdd,
    max_attractors: usize,
) -> Result<Sampled, BnError> {
    let mut found = found;
    let mut remaining = remaining.and_not(&found);
    let mut count = 0usize;
    while !remaining.is_false() {
        if count >= max_attractors {
            break;
        }
        sym.limits.check_time()?;
        let Some(w) = remaining.sat_witness() else {
            break;
        };
        let mut s = vec![false; sym.n];
        for &i in vars {
            s[i] = w.value(x(i));
        }
        let cycle = find_cycle(sym, s, vars)?;
        let cb = sym.states_bdd(&cycle, vars);
        // Deterministic dynamics: a state outside `remaining ∪ cycle` that reaches the cycle
        // would be in the cycle's basin, but every removed state reaches another attractor, so
        // backward reachability inside `remaining ∪ cycle` finds the cycle's whole basin there.
        let basin = sym.basin(&cb, &remaining.or(&cb))?;
        remaining = remaining.and_not(&basin);
        found = found.or(&cb);
        sym.limits.check(&found)?;
        count += 1;
        tracing::debug!(
            "sampling: attractor {count} of {} states, {} nodes remain",
            cycle.len(),
            remaining.size()
        );
    }
    Ok(Sampled { found, remaining })
}

/// Follows the successor function from `s` until a state repeats; returns the cycle reached.
fn find_cycle(sym: &Symbolic, s: Vec<bool>, vars: &[usize]) -> Result<Vec<Vec<bool>>, BnError> {
    let restrict = |full: Vec<bool>| -> Vec<bool> {
        let mut next = vec![false; sym.n];
        for &i in vars {
            next[i] = full.get(i).copied().unwrap_or(false);
        }
        next
    };
    let mut seen: HashMap<Vec<bool>, usize> = HashMap::new();
    let mut trace: Vec<Vec<bool>> = Vec::new();
    let mut cur = s;
    loop {
        if let Some(&k) = seen.get(&cur) {
            return Ok(trace.split_off(k));
        }
        if trace.len() >= MAX_STEPS {
            return Err(BnError::Limit(format!(
                "simulation found no cycle within {MAX_STEPS} steps"
            )));
        }
        if trace.len() % 4096 == 4095 {
            sym.limits.check_time()?;
        }
        seen.insert(cur.clone(), trace.len());
        trace.push(cur.clone());
        cur = restrict(step(&sym.functions, &cur));
    }
}
