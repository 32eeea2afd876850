//! ExtraLU+ extrapolation of a zone with respect to lower/upper clock bounds.
//!
//! Seed: Behrmann, Bouyer, Larsen, Pelánek, "Lower and upper bounds in zone-based abstractions of
//! timed automata" (TACAS 2004 / STTT 2006), Extra⁺_LU (§4, Definition of the operator on DBMs):
//! with `c_ij` the bound on `x_i − x_j`,
//! `c'_ij = ∞` if `c_ij > L_i`, or `−c_0i > L_i`, or `−c_0j > U_j` (i ≠ 0);
//! `c'_0j = (−U_j, <)` if `−c_0j > U_j`; `c'_ij = c_ij` otherwise. Clocks without bounds (`−∞`)
//! lose every constraint but `x ≥ 0`. The result is re-closed.

use crate::dbm::{le, lt, Dbm, INF, LE_ZERO};
use crate::lu_bounds::NO_BOUND;

/// Applies Extra⁺_LU in place (`z` canonical and non-empty; `l`, `u` indexed by DBM index).
pub(crate) fn extra_lu_plus(z: &mut Dbm, l: &[i32], u: &[i32]) {
    let d = z.dim();
    let row0: Vec<i32> = (0..d).map(|j| z.get(0, j)).collect();
    // lower bound of x_j above U_j (always true for a clock without bounds)
    let beyond_u: Vec<bool> = (0..d)
        .map(|j| j != 0 && (u[j] == NO_BOUND || row0[j] < le(-u[j])))
        .collect();
    z.rewrite(|i, j, c| {
        // row i is dropped entirely when x_i has no lower bound or is already beyond L_i
        let drop_row = i != 0 && (l[i] == NO_BOUND || row0[i] < le(-l[i]));
        if i != 0 {
            if c == INF || drop_row || c > le(l[i]) || beyond_u[j] {
                INF
            } else {
                c
            }
        } else if beyond_u[j] {
            if u[j] == NO_BOUND {
                LE_ZERO
            } else {
                lt(-u[j])
            }
        } else {
            c
        }
    });
}
