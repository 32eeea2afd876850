//! Federations: finite unions of zones (lists of canonical DBMs) with subtraction, emptiness and
//! inclusion — the non-convex sets that deadlock checking needs (the valuations of a zone from
//! which no edge is ever enabled).
//!
//! Seed: Bengtsson & Yi, "Timed Automata: Semantics, Algorithms and Tools" (2003), §4 (zones and
//! their operations); David, Behrmann, Larsen, Yi, "A Tool Architecture for the Next Generation of
//! UPPAAL" (2003) for federations as UPPAAL uses them. Subtraction `Z \ W` splits `Z` along the
//! constraints of `W` that `Z` does not already imply: the piece `Z ∧ ¬c₁`, then `Z ∧ c₁ ∧ ¬c₂`, …,
//! so the pieces are disjoint. In the bound encoding of `dbm`, the negation of `x_i − x_j ≺ c`
//! is `x_j − x_i ≺' −c` with the encoded bound `1 − b`.

use crate::dbm::{Dbm, INF};

/// A union of non-empty canonical zones of the same dimension.
#[derive(Clone, Debug)]
pub(crate) struct Federation {
    dim: usize,
    zones: Vec<Dbm>,
}

impl Federation {
    /// The empty set.
    pub(crate) fn empty(dim: usize) -> Federation {
        Federation {
            dim,
            zones: Vec::new(),
        }
    }

    /// One zone (empty zones give the empty federation).
    pub(crate) fn from_zone(z: Dbm) -> Federation {
        let dim = z.dim();
        let zones = if z.is_empty() { Vec::new() } else { vec![z] };
        Federation { dim, zones }
    }

    /// The zones of the union.
    pub(crate) fn zones(&self) -> &[Dbm] {
        &self.zones
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.zones.is_empty()
    }

    /// Adds a zone to the union (ignored if empty or included in one of the zones).
    pub(crate) fn add(&mut self, z: Dbm) {
        if z.is_empty() || self.zones.iter().any(|w| z.is_subset(w)) {
            return;
        }
        self.zones.retain(|w| !w.is_subset(&z));
        self.zones.push(z);
    }

    /// `self ∩ w`.
    pub(crate) fn intersect_zone(&self, w: &Dbm) -> Federation {
        let mut out = Federation::empty(self.dim);
        for z in &self.zones {
            let mut z = z.clone();
            if z.intersect(w) {
                out.zones.push(z);
            }
        }
        out
    }

    /// `self ∩ other`.
    pub(crate) fn intersect(&self, other: &Federation) -> Federation {
        let mut out = Federation::empty(self.dim);
        for w in &other.zones {
            for z in self.intersect_zone(w).zones {
                out.add(z);
            }
        }
        out
    }

    /// `self \ w`.
    pub(crate) fn subtract_zone(&self, w: &Dbm) -> Federation {
        let mut out = Federation::empty(self.dim);
        if w.is_empty() {
            return self.clone();
        }
        for z in &self.zones {
            for piece in zone_minus(z, w) {
                out.zones.push(piece);
            }
        }
        out
    }

    /// `self \ other`.
    pub(crate) fn subtract(&self, other: &Federation) -> Federation {
        let mut cur = self.clone();
        for w in &other.zones {
            if cur.is_empty() {
                break;
            }
            cur = cur.subtract_zone(w);
        }
        cur
    }

    /// `self ⊆ other`.
    // Part of the federation operations, property-tested; deadlock checking only subtracts.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn is_subset(&self, other: &Federation) -> bool {
        self.subtract(other).is_empty()
    }
}

/// `z \ w` as disjoint non-empty canonical zones (both arguments canonical).
fn zone_minus(z: &Dbm, w: &Dbm) -> Vec<Dbm> {
    let mut out = Vec::new();
    let d = z.dim();
    let mut rest = z.clone();
    if rest.is_empty() {
        return out;
    }
    {
        let mut meet = rest.clone();
        if !meet.intersect(w) {
            out.push(rest);
            return out;
        }
    }
    for i in 0..d {
        for j in 0..d {
            if i == j {
                continue;
            }
            let b = w.get(i, j);
            if b == INF || b >= rest.get(i, j) {
                continue; // `rest` already implies the constraint
            }
            let mut piece = rest.clone();
            if piece.constrain(j, i, 1 - b) {
                out.push(piece);
            }
            if !rest.constrain(i, j, b) {
                return out;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dbm::{le, lt};
    use proptest::prelude::*;

    const S: i64 = 2; // a value v stands for v / 2: half-integers separate strict from non-strict
    const MAXV: i64 = 12 * S;

    fn member(z: &Dbm, v: &[i64]) -> bool {
        let d = z.dim();
        (0..d).all(|i| {
            (0..d).all(|j| {
                let b = z.get(i, j);
                if b == INF {
                    return true;
                }
                let c = i64::from(crate::dbm::value(b)) * S;
                let diff = v[i] - v[j];
                if crate::dbm::is_le(b) {
                    diff <= c
                } else {
                    diff < c
                }
            })
        })
    }

    fn fed_member(f: &Federation, v: &[i64]) -> bool {
        f.zones().iter().any(|z| member(z, v))
    }

    fn points() -> Vec<Vec<i64>> {
        let mut out = Vec::new();
        for x in 0..=MAXV {
            for y in 0..=MAXV {
                out.push(vec![0, x, y]);
            }
        }
        out
    }

    fn arb_zone() -> impl Strategy<Value = Dbm> {
        proptest::collection::vec((0usize..3, 0usize..3, -3i32..=5, any::<bool>()), 0..5).prop_map(
            |cs| {
                let mut z = Dbm::universe(3);
                for (i, j, c, strict) in cs {
                    if i != j && !z.is_empty() {
                        let b = if strict { lt(c) } else { le(c) };
                        z.constrain(i, j, b);
                    }
                }
                z
            },
        )
    }

    fn arb_fed() -> impl Strategy<Value = Federation> {
        proptest::collection::vec(arb_zone(), 0..3).prop_map(|zs| {
            let mut f = Federation::empty(3);
            for z in zs {
                f.add(z);
            }
            f
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn subtraction_is_set_difference(a in arb_fed(), b in arb_fed()) {
            let d = a.subtract(&b);
            for p in points() {
                prop_assert_eq!(fed_member(&d, &p), fed_member(&a, &p) && !fed_member(&b, &p), "{:?}", p);
            }
            // the pieces of one zone minus another are disjoint and canonical
            for z in d.zones() {
                let mut c = z.clone();
                c.close();
                prop_assert!(&c == z);
            }
        }

        #[test]
        fn intersection_is_set_intersection(a in arb_fed(), b in arb_fed()) {
            let i = a.intersect(&b);
            for p in points() {
                prop_assert_eq!(fed_member(&i, &p), fed_member(&a, &p) && fed_member(&b, &p), "{:?}", p);
            }
        }

        #[test]
        fn emptiness_and_inclusion(a in arb_fed(), b in arb_fed()) {
            let pts = points();
            prop_assert_eq!(a.is_empty(), !pts.iter().any(|p| fed_member(&a, p)));
            let brute = pts.iter().all(|p| !fed_member(&a, p) || fed_member(&b, p));
            prop_assert_eq!(a.is_subset(&b), brute);
        }
    }

    #[test]
    fn a_square_minus_its_centre_is_four_pieces() {
        let mut z = Dbm::universe(3);
        z.constrain(1, 0, le(4));
        z.constrain(2, 0, le(4));
        let mut w = Dbm::universe(3);
        w.constrain(1, 0, lt(3));
        w.constrain(0, 1, lt(-1));
        w.constrain(2, 0, lt(3));
        w.constrain(0, 2, lt(-1));
        let d = Federation::from_zone(z).subtract_zone(&w);
        assert_eq!(d.zones().len(), 4);
        assert!(fed_member(&d, &[0, 2, 2 * S])); // x = 1, y = 2: on the closed border
        assert!(!fed_member(&d, &[0, 4, 4])); // x = y = 2: inside the hole
    }
}
