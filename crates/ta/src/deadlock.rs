//! Deadlocks in a symbolic state, as UPPAAL defines them: a valuation is deadlocked if no action
//! transition is enabled from it, neither now nor after any delay. For a symbolic state `(d, Z)`
//! (`Z` closed under delay within the invariant), the deadlocked valuations are
//! `Z \ ⋃_t (Z ∩ ↓E_t)` (no delay in an urgent or committed state: `Z \ ⋃_t E_t`), where `E_t`
//! is the set of valuations of `Z` from which the move `t` is enabled: its guards hold and, after
//! its resets, the target invariant holds. The union is a federation.
//!
//! Seed: Behrmann, David, Larsen, "A Tutorial on UPPAAL" (2004), §2.3 (`deadlock` in state
//! formulas); Bengtsson & Yi (2003), §4 (pre-images: `down`, the inverse of a reset by `free`).

use crate::dbm::{le, Dbm};
use crate::federation::Federation;
use crate::zone_graph::{constrain_move, Discrete, Transition, ZoneGraph};

/// The valuations of `(disc, z)` from which no move is ever enabled (`z` canonical, delay-closed).
/// The pre-images of the moves are subtracted one by one and the test stops as soon as nothing
/// is left (as UPPAAL and TChecker do), which in a deadlock-free state is usually after the
/// first move or two; a pre-image that contains the whole zone empties it without splitting.
pub(crate) fn deadlocked(zg: &ZoneGraph<'_>, disc: &Discrete, z: &Dbm) -> Federation {
    let mut rest = Federation::from_zone(z.clone());
    if rest.is_empty() {
        return rest;
    }
    let mut moves: Vec<Transition> = Vec::new();
    zg.transitions(disc, z, &mut moves);
    let urgent = zg.is_urgent(disc);
    for t in &moves {
        let Some(mut e) = enabling(zg, disc, z, t) else {
            continue;
        };
        if !urgent {
            e.down();
            if !e.intersect_canonical(z) {
                continue;
            }
        }
        if z.is_subset(&e) {
            return Federation::empty(z.dim());
        }
        rest = rest.subtract_zone(&e);
        if rest.is_empty() {
            break;
        }
    }
    rest
}

/// The valuations of `z` from which `t` is enabled now, or `None` if there is none.
pub(crate) fn enabling(
    zg: &ZoneGraph<'_>,
    disc: &Discrete,
    z: &Dbm,
    t: &Transition,
) -> Option<Dbm> {
    let n = zg.model.processes.len();
    let (next, resets) = zg.discrete_step(disc, t)?;
    let ints = disc.get(n..)?;
    let mut g = z.clone();
    if !constrain_move(&mut g, zg.model, t, ints) {
        return None;
    }
    // the successor valuations that satisfy the target invariant, mapped back through the resets
    let mut post = g.clone();
    for &(x, c) in &resets {
        post.reset(x, c as i32);
    }
    let (locs, nints) = next.split_at(n);
    if !zg.constrain_invariant(&mut post, locs, nints) {
        return None;
    }
    for &(x, c) in resets.iter().rev() {
        let c = c as i32;
        if !(post.constrain(x, 0, le(c)) && post.constrain(0, x, le(-c))) {
            return None;
        }
        post.free(x);
    }
    if !post.intersect_canonical(&g) {
        return None;
    }
    Some(post)
}
