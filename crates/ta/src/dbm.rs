//! Difference bound matrices (DBMs): the zone representation of the zone-graph engine.
//!
//! Seed: Bengtsson & Yi, "Timed Automata: Semantics, Algorithms and Tools" (ACAC 2003), §4
//! (canonical form by Floyd–Warshall, incremental closure after one constraint, `up`, `down`,
//! reset, free, inclusion); bounds encoded as TChecker and UPPAAL do.
//!
//! Entry `(i, j)` of a `dim × dim` matrix bounds `x_i − x_j` (`x_0 = 0`). A bound `(c, ≺)` is one
//! `i32`: `c << 1 | 1` for `≤` and `c << 1` for `<`, so integer order is bound order
//! (`(c,<) < (c,≤) < (c+1,<)`), and [`INF`] is `< ∞`. Constants are kept within [`MAX_CONST`] so
//! sums never overflow.

use std::fmt;

/// An encoded bound `(value, strictness)`.
pub(crate) type Bound = i32;

/// `< ∞`: no constraint.
pub(crate) const INF: Bound = i32::MAX & !1;
/// Largest absolute constant a model may use (sums of two bounds stay far from overflow).
pub(crate) const MAX_CONST: i64 = (1 << 28) - 1;
/// `(0, ≤)`.
pub(crate) const LE_ZERO: Bound = 1;
/// `(0, <)`.
pub(crate) const LT_ZERO: Bound = 0;

/// `(c, ≤)`.
pub(crate) fn le(c: i32) -> Bound {
    (c << 1) | 1
}
/// `(c, <)`.
pub(crate) fn lt(c: i32) -> Bound {
    c << 1
}
/// The constant of a (finite) bound.
pub(crate) fn value(b: Bound) -> i32 {
    b >> 1
}
/// True for a non-strict (`≤`) bound.
pub(crate) fn is_le(b: Bound) -> bool {
    b & 1 == 1
}
/// The sum of two bounds (`∞` absorbs).
pub(crate) fn add(a: Bound, b: Bound) -> Bound {
    if a == INF || b == INF {
        return INF;
    }
    // Sums of model constants stay far below the limits; saturate anyway so that no input can
    // overflow (a sum at or above ∞ is ∞, a hugely negative one stays hugely negative).
    const LIM: i64 = (1 << 30) - 1;
    let s = i64::from(value(a)) + i64::from(value(b));
    if s >= LIM {
        INF
    } else {
        ((s.max(-LIM) as i32) << 1) | (a & b & 1)
    }
}

/// A zone over `dim − 1` clocks, as a row-major `dim × dim` matrix of bounds.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct Dbm {
    dim: usize,
    m: Vec<Bound>,
}

impl Dbm {
    /// The zone `{0}` (every clock zero).
    pub(crate) fn zero(dim: usize) -> Dbm {
        Dbm {
            dim,
            m: vec![LE_ZERO; dim * dim],
        }
    }

    /// All non-negative valuations.
    pub(crate) fn universe(dim: usize) -> Dbm {
        let mut m = vec![INF; dim * dim];
        for i in 0..dim {
            m[i * dim + i] = LE_ZERO;
            m[i] = LE_ZERO; // row 0: 0 - x_i <= 0
        }
        Dbm { dim, m }
    }

    /// Number of rows (clocks + 1).
    pub(crate) fn dim(&self) -> usize {
        self.dim
    }

    /// The bound on `x_i − x_j`.
    #[inline]
    pub(crate) fn get(&self, i: usize, j: usize) -> Bound {
        self.m[i * self.dim + j]
    }

    #[inline]
    fn set(&mut self, i: usize, j: usize, b: Bound) {
        self.m[i * self.dim + j] = b;
    }

    /// Replaces each off-diagonal bound `c_ij` by `f(i, j, c_ij)` and re-closes the matrix if
    /// some bound changed (the extrapolation operators, which bound by bound widen the zone).
    pub(crate) fn rewrite(&mut self, mut f: impl FnMut(usize, usize, Bound) -> Bound) {
        let d = self.dim;
        let mut changed = false;
        for i in 0..d {
            for j in 0..d {
                if i == j {
                    continue;
                }
                let c = self.get(i, j);
                let new = f(i, j, c);
                if new != c {
                    self.set(i, j, new);
                    changed = true;
                }
            }
        }
        if changed {
            self.close();
        }
    }

    /// True if the (canonical) zone is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.get(0, 0) < LE_ZERO
    }

    /// Makes the matrix empty (a negative diagonal entry).
    fn mark_empty(&mut self) {
        self.set(0, 0, LT_ZERO);
    }

    /// Canonical form by Floyd–Warshall; returns false (and marks the zone empty) on a negative cycle.
    pub(crate) fn close(&mut self) -> bool {
        let d = self.dim;
        for k in 0..d {
            for i in 0..d {
                let ik = self.m[i * d + k];
                if ik == INF {
                    continue;
                }
                for j in 0..d {
                    let s = add(ik, self.m[k * d + j]);
                    if s < self.m[i * d + j] {
                        self.m[i * d + j] = s;
                    }
                }
            }
        }
        for i in 0..d {
            if self.m[i * d + i] < LE_ZERO {
                self.mark_empty();
                return false;
            }
        }
        true
    }

    /// Intersects with `x_i − x_j ≺ b` and restores the canonical form in O(dim²) (the zone must be
    /// canonical and non-empty). Returns false if the result is empty.
    pub(crate) fn constrain(&mut self, i: usize, j: usize, b: Bound) -> bool {
        if b >= self.get(i, j) {
            return true;
        }
        if add(self.get(j, i), b) < LE_ZERO {
            self.mark_empty();
            return false;
        }
        self.set(i, j, b);
        let d = self.dim;
        for k in 0..d {
            let ki = self.get(k, i);
            if ki == INF {
                continue;
            }
            let kib = add(ki, b);
            for l in 0..d {
                let s = add(kib, self.get(j, l));
                if s < self.get(k, l) {
                    self.set(k, l, s);
                }
            }
        }
        true
    }

    /// Future: lets time elapse (removes the upper bounds of the clocks).
    pub(crate) fn up(&mut self) {
        for i in 1..self.dim {
            self.set(i, 0, INF);
        }
    }

    /// Past: the valuations from which some delay leads into the zone (result canonical).
    pub(crate) fn down(&mut self) {
        for j in 1..self.dim {
            let mut b = LE_ZERO;
            for i in 1..self.dim {
                b = b.min(self.get(i, j));
            }
            self.set(0, j, b);
        }
    }

    /// Assigns the constant `c ≥ 0` to clock `x` (canonical in, canonical out).
    pub(crate) fn reset(&mut self, x: usize, c: i32) {
        for j in 0..self.dim {
            if j != x {
                self.set(x, j, add(le(c), self.get(0, j)));
                self.set(j, x, add(self.get(j, 0), le(-c)));
            }
        }
    }

    /// Forgets clock `x` (any non-negative value; canonical in, canonical out).
    pub(crate) fn free(&mut self, x: usize) {
        for j in 0..self.dim {
            if j != x {
                self.set(x, j, INF);
                self.set(j, x, self.get(j, 0));
            }
        }
        self.set(0, x, LE_ZERO);
    }

    /// Assigns clock `y`'s value to clock `x` (canonical in, canonical out).
    pub(crate) fn copy(&mut self, x: usize, y: usize) {
        if x == y {
            return;
        }
        for j in 0..self.dim {
            if j != x {
                self.set(x, j, self.get(y, j));
                self.set(j, x, self.get(j, y));
            }
        }
        self.set(x, y, LE_ZERO);
        self.set(y, x, LE_ZERO);
    }

    /// Delay in which only the clocks with `running[i]` advance (the others are stopped, like the
    /// reference clock): removes every bound `x_i − x_j` with `i` running and `j` not
    /// (canonical in, canonical out). `running[0]` is ignored.
    pub(crate) fn up_some(&mut self, running: &[bool]) {
        let run = |i: usize| i != 0 && running.get(i).copied().unwrap_or(false);
        for i in 1..self.dim {
            if !run(i) {
                continue;
            }
            for j in 0..self.dim {
                if !run(j) && j != i {
                    self.set(i, j, INF);
                }
            }
        }
    }

    /// Appends `n` clocks equal to 0 (canonical in, canonical out).
    pub(crate) fn extend_zero(&self, n: usize) -> Dbm {
        let d = self.dim + n;
        let mut z = Dbm::universe(d);
        for i in 0..self.dim {
            for j in 0..self.dim {
                z.set(i, j, self.get(i, j));
            }
        }
        for x in self.dim..d {
            z.reset(x, 0);
        }
        z
    }

    /// Keeps the first `dim` indices (existential projection of the others; exact on canonical
    /// zones).
    pub(crate) fn truncate(&self, dim: usize) -> Dbm {
        let d = dim.min(self.dim);
        let mut z = Dbm::universe(d);
        for i in 0..d {
            for j in 0..d {
                z.set(i, j, self.get(i, j));
            }
        }
        z
    }

    /// Intersection (canonical result; false if empty).
    pub(crate) fn intersect(&mut self, other: &Dbm) -> bool {
        for (a, &b) in self.m.iter_mut().zip(&other.m) {
            if b < *a {
                *a = b;
            }
        }
        self.close()
    }

    /// Intersection of two canonical zones (canonical result; false if empty). Only the bounds of
    /// `other` tighter than `self`'s are added, each by the O(dim²) incremental closure of
    /// [`Dbm::constrain`]; with more than `dim` of them one Floyd–Warshall pass (O(dim³)) is
    /// cheaper. The deadlock test intersects pre-images that differ from the zone in a few
    /// bounds, so this is the common case there.
    pub(crate) fn intersect_canonical(&mut self, other: &Dbm) -> bool {
        if self.is_empty() {
            return false;
        }
        if other.is_empty() {
            self.mark_empty();
            return false;
        }
        let tighter = self.m.iter().zip(&other.m).filter(|(a, b)| b < a).count();
        if tighter > self.dim {
            return self.intersect(other);
        }
        let d = self.dim;
        for i in 0..d {
            for j in 0..d {
                if i != j && !self.constrain(i, j, other.get(i, j)) {
                    return false;
                }
            }
        }
        true
    }

    /// Zone inclusion `self ⊆ other` (both canonical).
    pub(crate) fn is_subset(&self, other: &Dbm) -> bool {
        self.m.iter().zip(&other.m).all(|(a, b)| a <= b)
    }

    /// The constraints as text, `x1<=10 && x1-x2<3` (clock names by index `1..dim`).
    pub(crate) fn describe(&self, names: &[String]) -> String {
        if self.is_empty() {
            return "false".into();
        }
        let name = |i: usize| -> String {
            names
                .get(i.wrapping_sub(1))
                .cloned()
                .unwrap_or_else(|| format!("x{i}"))
        };
        let mut out: Vec<String> = Vec::new();
        for i in 0..self.dim {
            for j in 0..self.dim {
                let b = self.get(i, j);
                if i == j || b == INF {
                    continue;
                }
                let op = if is_le(b) { "<=" } else { "<" };
                let c = value(b);
                if i == 0 {
                    // 0 - x_j ≺ c  ⇔  x_j ≻ -c
                    if b == LE_ZERO {
                        continue;
                    }
                    let op = if is_le(b) { ">=" } else { ">" };
                    out.push(format!("{}{}{}", name(j), op, -c));
                } else if j == 0 {
                    out.push(format!("{}{}{}", name(i), op, c));
                } else {
                    out.push(format!("{}-{}{}{}", name(i), name(j), op, c));
                }
            }
        }
        if out.is_empty() {
            "true".into()
        } else {
            out.join(" && ")
        }
    }
}

impl fmt::Debug for Dbm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = (1..self.dim).map(|i| format!("x{i}")).collect();
        write!(f, "Dbm({})", self.describe(&names))
    }
}

#[cfg(test)]
mod tests {
    //! Property tests against a brute-force oracle: zones over two clocks are compared as sets of
    //! valuations on the grid of multiples of 1/6 (enough to separate zones with integer bounds
    //! over two clocks), delays searched on the grid of multiples of 1/12.
    use super::*;
    use proptest::prelude::*;

    const S: i64 = 12; // scale: a value v stands for v / S
    const GRID: i64 = 2; // valuations are multiples of GRID / S = 1/6
                         // Constants are within -3..=4, so every region of two clocks has a representative below 10.
    const MAXV: i64 = 10 * S;

    fn holds(b: Bound, diff: i64) -> bool {
        if b == INF {
            return true;
        }
        let c = value(b) as i64 * S;
        if is_le(b) {
            diff <= c
        } else {
            diff < c
        }
    }

    /// Membership straight from the matrix (no closure assumed).
    fn member(z: &Dbm, v: &[i64]) -> bool {
        let d = z.dim();
        (0..d).all(|i| (0..d).all(|j| holds(z.get(i, j), v[i] - v[j])))
    }

    fn points(dim: usize) -> Vec<Vec<i64>> {
        let mut out = vec![vec![0i64]];
        for _ in 1..dim {
            let mut next = Vec::new();
            for p in &out {
                let mut x = 0;
                while x <= MAXV {
                    let mut q = p.clone();
                    q.push(x);
                    next.push(q);
                    x += GRID;
                }
            }
            out = next;
        }
        out
    }

    fn set_of(z: &Dbm) -> Vec<bool> {
        points(z.dim()).iter().map(|v| member(z, v)).collect()
    }

    /// A random (not necessarily canonical) zone over two clocks with constants in -3..=4.
    fn arb_zone() -> impl Strategy<Value = Dbm> {
        proptest::collection::vec((0usize..3, 0usize..3, -3i32..=4, any::<bool>()), 0..6).prop_map(
            |cs| {
                let mut z = Dbm::universe(3);
                for (i, j, c, strict) in cs {
                    if i != j {
                        let b = if strict { lt(c) } else { le(c) };
                        if b < z.get(i, j) {
                            z.set(i, j, b);
                        }
                    }
                }
                z.close();
                z
            },
        )
    }

    fn arb_bound() -> impl Strategy<Value = Bound> {
        (-3i32..=4, any::<bool>()).prop_map(|(c, s)| if s { lt(c) } else { le(c) })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn closure_keeps_the_set(cs in proptest::collection::vec((0usize..3, 0usize..3, -3i32..=4, any::<bool>()), 0..6)) {
            let mut raw = Dbm::universe(3);
            for (i, j, c, strict) in cs {
                if i != j {
                    let b = if strict { lt(c) } else { le(c) };
                    if b < raw.get(i, j) { raw.set(i, j, b); }
                }
            }
            let before = set_of(&raw);
            let mut z = raw.clone();
            let nonempty = z.close();
            if nonempty {
                prop_assert_eq!(set_of(&z), before);
            } else {
                prop_assert!(before.iter().all(|b| !b));
                prop_assert!(z.is_empty());
            }
        }

        #[test]
        fn emptiness_matches(z in arb_zone()) {
            prop_assert_eq!(z.is_empty(), set_of(&z).iter().all(|b| !b));
        }

        #[test]
        fn constrain_is_intersection(z in arb_zone(), i in 0usize..3, j in 0usize..3, b in arb_bound()) {
            prop_assume!(i != j && !z.is_empty());
            let mut c = z.clone();
            let ok = c.constrain(i, j, b);
            let pts = points(3);
            for v in &pts {
                let want = member(&z, v) && holds(b, v[i] - v[j]);
                if ok { prop_assert_eq!(member(&c, v), want); } else { prop_assert!(!want); }
            }
            if ok {
                // incremental closure = full closure
                let mut full = c.clone();
                full.close();
                prop_assert_eq!(full, c);
            }
        }

        #[test]
        #[cfg_attr(debug_assertions, ignore = "slow without optimisations")]
        fn up_and_down_are_delays(z in arb_zone()) {
            prop_assume!(!z.is_empty());
            let mut u = z.clone();
            u.up();
            let mut dn = z.clone();
            dn.down();
            let mut closed = dn.clone();
            closed.close();
            prop_assert_eq!(&closed, &dn, "down keeps the canonical form");
            for v in points(3).into_iter().step_by(3) {
                let fut = (0..=2 * MAXV).any(|d| {
                    let w: Vec<i64> = v.iter().enumerate().map(|(k, x)| if k == 0 { 0 } else { x - d }).collect();
                    w.iter().all(|&x| x >= 0) && member(&z, &w)
                });
                prop_assert_eq!(member(&u, &v), fut, "up at {:?}", v);
                let past = (0..=2 * MAXV).any(|d| {
                    let w: Vec<i64> = v.iter().enumerate().map(|(k, x)| if k == 0 { 0 } else { x + d }).collect();
                    member(&z, &w)
                });
                prop_assert_eq!(member(&dn, &v), past, "down at {:?}", v);
            }
        }

        #[test]
        fn reset_and_free(z in arb_zone(), x in 1usize..3, c in 0i32..3) {
            prop_assume!(!z.is_empty());
            let mut r = z.clone();
            r.reset(x, c);
            let mut f = z.clone();
            f.free(x);
            for v in &points(3) {
                // some w equal to v except at x is in z
                let fr = (0..=MAXV + 5 * S).any(|t| {
                    let mut w = v.clone();
                    w[x] = t;
                    member(&z, &w)
                });
                let img = v[x] == c as i64 * S && fr;
                prop_assert_eq!(member(&r, v), img, "reset at {:?}", v);
                prop_assert_eq!(member(&f, v), fr, "free at {:?}", v);
            }
        }

        #[test]
        fn copy_and_partial_delay(z in arb_zone(), x in 1usize..3, stop in any::<bool>()) {
            prop_assume!(!z.is_empty());
            let y = 3 - x;
            let mut c = z.clone();
            c.copy(x, y);
            let mut full = c.clone();
            full.close();
            prop_assert_eq!(&full, &c, "copy keeps the canonical form");
            // clock 2 stopped (or not); clock 1 runs
            let running = [false, true, !stop];
            let mut u = z.clone();
            u.up_some(&running);
            let mut full = u.clone();
            full.close();
            prop_assert_eq!(&full, &u, "up_some keeps the canonical form");
            for v in &points(3) {
                let pre = (0..=MAXV + 5 * S).any(|t| {
                    let mut w = v.clone();
                    w[x] = t;
                    member(&z, &w)
                });
                prop_assert_eq!(member(&c, v), v[x] == v[y] && pre, "copy at {:?}", v);
                let fut = (0..=MAXV).any(|d| {
                    let w: Vec<i64> = v.iter().enumerate()
                        .map(|(k, a)| if running[k] { a - d } else { *a }).collect();
                    w.iter().all(|&a| a >= 0) && member(&z, &w)
                });
                if v.iter().all(|&a| a <= MAXV / 2) {
                    prop_assert_eq!(member(&u, v), fut, "up_some at {:?}", v);
                }
            }
        }

        #[test]
        fn extend_and_truncate(z in arb_zone()) {
            prop_assume!(!z.is_empty());
            let e = z.extend_zero(1);
            prop_assert_eq!(e.dim(), 4);
            prop_assert_eq!(e.get(3, 0), LE_ZERO);
            prop_assert_eq!(e.get(0, 3), LE_ZERO);
            prop_assert_eq!(e.truncate(3), z);
        }

        #[test]
        fn intersection_and_inclusion(a in arb_zone(), b in arb_zone()) {
            let sa = set_of(&a);
            let sb = set_of(&b);
            let mut i = a.clone();
            let ne = i.intersect(&b);
            let si: Vec<bool> = sa.iter().zip(&sb).map(|(x, y)| *x && *y).collect();
            prop_assert_eq!(ne, si.iter().any(|x| *x));
            if ne { prop_assert_eq!(set_of(&i), si); }
            let mut c = a.clone();
            let nc = c.intersect_canonical(&b);
            prop_assert_eq!(nc, ne);
            if ne { prop_assert_eq!(&c, &i); }
            if !a.is_empty() && !b.is_empty() {
                let subset = sa.iter().zip(&sb).all(|(x, y)| !*x || *y);
                prop_assert_eq!(a.is_subset(&b), subset);
            }
        }
    }

    #[test]
    fn encoding_orders_bounds() {
        assert!(lt(3) < le(3) && le(3) < lt(4) && le(1000) < INF);
        assert_eq!(add(le(2), lt(3)), lt(5));
        assert_eq!(add(le(2), le(-3)), le(-1));
        assert_eq!(add(INF, le(1)), INF);
    }
}
