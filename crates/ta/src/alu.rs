//! The aLU inclusion test: is `Z ⊆ a≼LU(Z')`? — covering by the (non-convex) LU abstraction of a
//! stored zone, coarser than zone inclusion and sound for reachability.
//!
//! Seed: Herbreteau, Srivathsan, Walukiewicz, "Better abstractions for timed automata" (LICS 2012),
//! Theorem on the O(|X|²) test: `Z ⊄ a≼LU(Z')` iff for some clocks `x ≠ y` (the zero clock
//! included, `L_0 = U_0 = 0`): `Z_0x ≥ (−U_x, ≤)`, `Z'_yx < Z_yx` and `Z'_yx + (−L_y, <) < Z_0x`.
//! Both zones canonical and non-empty.

use crate::dbm::{add, le, lt, Dbm};
use crate::lu_bounds::NO_BOUND;

/// `z ⊆ a≼LU(zp)` for the bounds `l`, `u` (indexed by DBM index; index 0 ignored).
#[allow(clippy::needless_range_loop)] // x, y index the matrix and both bound arrays
pub(crate) fn is_alu_le(z: &Dbm, zp: &Dbm, l: &[i32], u: &[i32]) -> bool {
    let d = z.dim();
    for x in 0..d {
        let ux = if x == 0 { 0 } else { u[x] };
        if ux == NO_BOUND {
            continue;
        }
        let z0x = z.get(0, x);
        if z0x < le(-ux) {
            continue;
        }
        for y in 0..d {
            if y == x {
                continue;
            }
            let ly = if y == 0 { 0 } else { l[y] };
            if ly == NO_BOUND {
                continue;
            }
            let zp_yx = zp.get(y, x);
            if zp_yx < z.get(y, x) && add(zp_yx, lt(-ly)) < z0x {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dbm::INF;

    #[test]
    fn inclusion_implies_alu_and_bounds_matter() {
        // Z = (x >= 5), Z' = (x <= 3 ... up) with L = U = 2: beyond the bounds both are "x > 2"
        let mut z = Dbm::universe(2);
        z.constrain(0, 1, le(-5));
        let mut zp = Dbm::universe(2);
        zp.constrain(0, 1, le(-3));
        assert!(is_alu_le(&z, &zp, &[0, 2], &[0, 2]));
        assert!(is_alu_le(&z, &zp, &[0, 10], &[0, 10]));
        // the other way round is not an inclusion, but aLU-covered when the bounds are small
        assert!(!zp.is_subset(&z));
        assert!(is_alu_le(&zp, &z, &[0, 2], &[0, 2]));
        assert!(!is_alu_le(&zp, &z, &[0, 4], &[0, 4]));
        assert_eq!(zp.get(1, 0), INF);
    }
}
