//! Monitors (Spot's `ltl2tgba -M`, the `Monitor` output type of Spot's post-processor,
//! `spot/twaalgos/postproc.cc`; Duret-Lutz et al., "Spot 2.0 — a framework for LTL and
//! ω-automata manipulation", ATVA'16, §3): the automaton that reads exactly the finite prefixes of
//! the words accepted by a generalized Büchi automaton.
//!
//! Construction, as Spot's: keep the useful states (reachable, and from which some accepting run
//! exists — [`crate::prune::prune`]), then drop the acceptance condition: every run is accepting
//! (`Acceptance: 0 t`, `acc-name: all`, state-based). A finite word can then be read iff it leads
//! to a useful state, i.e. iff it has an accepted continuation. The nondeterministic monitor is
//! then simplified by the caller's simplification (Spot runs its simulations); the deterministic
//! one (`-M -D`, Spot's `minimize_monitor`) is the subset construction followed by the
//! bisimulation quotient, which on a deterministic automaton whose states all accept is the
//! minimal deterministic monitor (language equivalence and bisimilarity coincide there).

use crate::error::OmegaError;
use crate::twa::Twa;

/// The monitor of `aut` (generalized Büchi acceptance): nondeterministic and passed through
/// `simplify`, or with `deterministic` the minimal deterministic monitor. Refuses other
/// acceptance conditions by name, and a subset construction beyond the powerset bound of
/// [`crate::wdba`].
pub(crate) fn monitor(
    aut: &Twa,
    deterministic: bool,
    simplify: &dyn Fn(&Twa) -> Twa,
) -> Result<Twa, OmegaError> {
    aut.require_gba("a monitor")?;
    let mut m = crate::prune::prune(aut);
    for es in &mut m.states {
        for e in es.iter_mut() {
            e.marks = 0;
        }
    }
    m.num_sets = 0;
    m.acc = None;
    m.acc_false = false;
    if m.init.is_empty() || m.num_states() == 0 {
        // Empty language: no prefix at all. One initial state without edges.
        let mut e = Twa::new(aut.aps.clone());
        e.vars = aut.vars.clone();
        let s = e.add_state();
        e.init = vec![s];
        e.state_based = true;
        e.name = aut.name.clone();
        return Ok(e);
    }
    let mut m = if deterministic {
        let Some(d) = crate::wdba::powerset_states(&m) else {
            return Err(OmegaError::Limit(format!(
                "the deterministic monitor needs more than {} subset states",
                crate::wdba::MAX_POWERSET
            )));
        };
        crate::bisim::merge_bisimilar(&d)
    } else {
        simplify(&m)
    };
    m.num_sets = 0;
    m.acc = None;
    m.state_based = true;
    m.name = aut.name.clone();
    Ok(m)
}
