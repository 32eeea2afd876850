//! ExtraM extrapolation (classic maximal-constant abstraction), the baseline of ExtraLU+.
//!
//! Seed: Behrmann, Bouyer, Larsen, Pelánek, "Lower and upper bounds in zone-based abstractions of
//! timed automata" (STTT 2006), Extra_M (§3, the standard `M`-extrapolation of Daws and
//! Tripakis): `c'_ij = ∞` if `c_ij > M_i`; `c'_ij = (−M_j, <)` if `c_ij < −M_j`; else `c_ij`.
//! Here `M = max(L, U)`; a clock without bounds keeps only `x ≥ 0`.

use crate::dbm::{le, lt, Dbm, INF, LE_ZERO};
use crate::lu_bounds::NO_BOUND;

/// Applies Extra_M in place (`z` canonical and non-empty; `m` indexed by DBM index).
pub(crate) fn extra_m(z: &mut Dbm, m: &[i32]) {
    z.rewrite(|i, j, c| {
        if c == INF {
            c
        } else if i != 0 && (m[i] == NO_BOUND || c > le(m[i])) {
            INF
        } else if j != 0 && (m[j] == NO_BOUND || c < le(-m[j])) {
            match (i == 0, m[j] == NO_BOUND) {
                (true, true) => LE_ZERO,
                (false, true) => INF,
                _ => lt(-m[j]),
            }
        } else {
            c
        }
    });
}
