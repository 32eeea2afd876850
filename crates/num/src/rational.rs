//! Exact rationals with a fast machine-word path and a big-number fallback, and the δ-rationals
//! of Dutertre & de Moura, "A Fast Linear-Arithmetic Solver for DPLL(T)" (CAV 2006), Section 5
//! (strict inequalities: a pair `c + k·δ` ordered lexicographically).
//!
//! `Num::S(n, d)` keeps a reduced fraction with `d > 0` in `i64`; every operation is computed in
//! `i128` and falls back to `num_rational::BigRational` only when the result does not fit.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;

/// An exact rational number.
#[derive(Clone, Debug)]
pub enum Num {
    /// Reduced fraction `n / d` with `d > 0`.
    S(i64, i64),
    /// Anything that does not fit the small path (always normalised back when it fits).
    B(Box<BigRational>),
}

/// Binary GCD (shifts and subtractions, no divisions), for one unsigned word type.
macro_rules! binary_gcd {
    ($name:ident, $t:ty) => {
        fn $name(mut a: $t, mut b: $t) -> $t {
            if a == 0 {
                return b;
            }
            if b == 0 {
                return a;
            }
            // Units are the common case (integer coefficients, unit denominators); the loop
            // would take one round per bit of the other operand.
            if a == 1 || b == 1 {
                return 1;
            }
            let shift = (a | b).trailing_zeros();
            a >>= a.trailing_zeros();
            // Branch-free order of the pair (min/max compile to conditional moves): the
            // comparison is unpredictable on large operands, the degenerate pivots of integer
            // problems spend most of their time here.
            loop {
                b >>= b.trailing_zeros();
                let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                a = lo;
                b = hi - lo;
                if b == 0 {
                    return a << shift;
                }
            }
        }
    };
}
binary_gcd!(gcd_u64, u64);
binary_gcd!(gcd_u128, u128);

fn gcd_i128(a: i128, b: i128) -> i128 {
    let (ua, ub) = (a.unsigned_abs(), b.unsigned_abs());
    if let (Ok(x), Ok(y)) = (u64::try_from(ua), u64::try_from(ub)) {
        return gcd_u64(x, y) as i128;
    }
    gcd_u128(ua, ub) as i128
}

impl Num {
    pub const ZERO: Num = Num::S(0, 1);
    pub const ONE: Num = Num::S(1, 1);

    #[inline]
    pub fn int(n: i64) -> Num {
        Num::S(n, 1)
    }

    /// The integer `n`, exact for every `i128` (machine words when it fits in one).
    #[inline]
    pub fn integer(n: i128) -> Num {
        Num::from_coprime_i128(n, 1)
    }

    /// `n / d` reduced, for `d > 0` and `n > i64::MIN`, entirely in machine words.
    #[inline]
    fn from_i64(n: i64, d: i64) -> Num {
        if d == 1 {
            return Num::S(n, 1);
        }
        let g = gcd_u64(n.unsigned_abs(), d as u64) as i64;
        if g > 1 {
            Num::S(n / g, d / g)
        } else {
            Num::S(n, d)
        }
    }

    fn from_i128(n: i128, d: i128) -> Num {
        debug_assert!(d != 0);
        let (mut n, mut d) = if d < 0 { (-n, -d) } else { (n, d) };
        if let (Ok(a), Ok(b)) = (i64::try_from(n), i64::try_from(d)) {
            if a != i64::MIN {
                return Num::from_i64(a, b);
            }
        }
        if d != 1 {
            let g = gcd_i128(n, d);
            if g > 1 {
                n /= g;
                d /= g;
            }
        }
        Num::from_coprime_i128(n, d)
    }

    /// `n / d` already in lowest terms with `d > 0` (no reduction needed).
    fn from_coprime_i128(n: i128, d: i128) -> Num {
        match (i64::try_from(n), i64::try_from(d)) {
            (Ok(a), Ok(b)) if a != i64::MIN => Num::S(a, b),
            _ => Num::B(Box::new(BigRational::new_raw(
                BigInt::from(n),
                BigInt::from(d),
            ))),
        }
    }

    #[inline]
    pub fn from_big(r: BigRational) -> Num {
        if let (Some(n), Some(d)) = (r.numer().to_i64(), r.denom().to_i64()) {
            if n != i64::MIN && d > 0 {
                return Num::S(n, d);
            }
        }
        Num::B(Box::new(r))
    }

    pub fn to_big(&self) -> BigRational {
        match self {
            Num::S(n, d) => BigRational::new_raw(BigInt::from(*n), BigInt::from(*d)),
            Num::B(b) => (**b).clone(),
        }
    }

    pub fn from_bigint(n: BigInt) -> Num {
        Num::from_big(BigRational::from_integer(n))
    }

    /// The exact value of a finite float (`None` for NaN and infinities).
    pub fn from_f64(x: f64) -> Option<Num> {
        BigRational::from_float(x).map(Num::from_big)
    }

    /// The nearest float (approximately, for big values; `0.0` if it cannot be represented).
    pub fn to_f64(&self) -> f64 {
        match self {
            Num::S(n, d) => *n as f64 / *d as f64,
            Num::B(b) => b.to_f64().unwrap_or(0.0),
        }
    }

    /// Parses an SMT-LIB numeral or decimal (`12`, `3.25`).
    pub fn parse_decimal(s: &str) -> Option<Num> {
        let (ip, fp) = match s.split_once('.') {
            Some((a, b)) => (a, b),
            None => (s, ""),
        };
        if ip.is_empty()
            || !ip.bytes().all(|c| c.is_ascii_digit())
            || !fp.bytes().all(|c| c.is_ascii_digit())
        {
            return None;
        }
        let digits = format!("{ip}{fp}");
        let n: BigInt = digits.parse().ok()?;
        let d = num_traits::pow(BigInt::from(10), fp.len());
        Some(Num::from_big(BigRational::new(n, d)))
    }

    #[inline]
    pub fn is_zero(&self) -> bool {
        matches!(self, Num::S(0, _))
    }
    #[inline]
    pub fn is_integer(&self) -> bool {
        match self {
            Num::S(_, d) => *d == 1,
            Num::B(b) => b.is_integer(),
        }
    }
    #[inline]
    pub fn signum(&self) -> i32 {
        match self {
            Num::S(n, _) => n.signum() as i32,
            Num::B(b) => {
                if b.is_positive() {
                    1
                } else if b.is_negative() {
                    -1
                } else {
                    0
                }
            }
        }
    }
    #[inline]
    pub fn is_pos(&self) -> bool {
        self.signum() > 0
    }
    #[inline]
    pub fn is_neg(&self) -> bool {
        self.signum() < 0
    }

    /// `self + o`: integers that stay in machine words inline, everything else out of line.
    #[inline]
    pub fn add(&self, o: &Num) -> Num {
        if let (Num::S(a, 1), Num::S(b, 1)) = (self, o) {
            if let Some(s) = a.checked_add(*b) {
                if s != i64::MIN {
                    return Num::S(s, 1);
                }
            }
        }
        self.add_general(o)
    }

    #[inline(never)]
    fn add_general(&self, o: &Num) -> Num {
        match (self, o) {
            (Num::S(a, 1), Num::S(b, 1)) => match a.checked_add(*b) {
                Some(s) if s != i64::MIN => Num::S(s, 1),
                _ => Num::from_i128(*a as i128 + *b as i128, 1),
            },
            // An integer plus a fraction: gcd(a + c·b, b) = gcd(a, b) = 1, no reduction needed.
            (Num::S(a, b), Num::S(c, 1)) | (Num::S(c, 1), Num::S(a, b)) => {
                let (a, b, c) = (*a as i128, *b as i128, *c as i128);
                Num::from_coprime_i128(a + c * b, b)
            }
            (Num::S(a, b), Num::S(c, d)) => {
                if b == d {
                    return Num::from_i128(*a as i128 + *c as i128, *b as i128);
                }
                // Knuth's addition: with g = gcd(b, d), t = a(d/g) + c(b/g) and g2 = gcd(t, g),
                // the sum is (t/g2) / ((b/g)(d/g2)) in lowest terms. Every product of two i64
                // values fits i128; the divisions stay on machine words where they can.
                let (b, d) = (*b, *d);
                let g = gcd_u64(b as u64, d as u64) as i64;
                let (b1, d1) = (b / g, d / g);
                let t = *a as i128 * d1 as i128 + *c as i128 * b1 as i128;
                if g == 1 {
                    return Num::from_coprime_i128(t, b as i128 * d as i128);
                }
                let small_t = i64::try_from(t).ok();
                let tm = match small_t {
                    Some(x) => x.unsigned_abs() % g as u64,
                    None => (t.unsigned_abs() % g as u128) as u64,
                };
                let g2 = gcd_u64(g as u64, tm) as i64;
                if g2 == 1 {
                    return Num::from_coprime_i128(t, b1 as i128 * d as i128);
                }
                let t2 = match small_t {
                    Some(x) => (x / g2) as i128,
                    None => t / g2 as i128,
                };
                Num::from_coprime_i128(t2, b1 as i128 * (d / g2) as i128)
            }
            _ => big_op(self, o, big_add),
        }
    }
    #[inline]
    pub fn neg(&self) -> Num {
        match self {
            Num::S(a, b) => Num::S(-a, *b),
            Num::B(x) => Num::from_big(-(**x).clone()),
        }
    }
    /// `-self`, reusing a big number's storage (its negation is as large, so it stays big).
    #[inline]
    pub fn into_neg(self) -> Num {
        match self {
            Num::S(a, b) => Num::S(-a, b),
            Num::B(mut x) => {
                let v = std::mem::replace(&mut *x, BigRational::zero());
                *x = -v;
                Num::B(x)
            }
        }
    }
    #[inline]
    pub fn sub(&self, o: &Num) -> Num {
        match (self, o) {
            (Num::S(..), Num::S(..)) => self.add(&o.neg()),
            _ => big_op(self, o, |x, y| big_add(x, &-y)),
        }
    }
    /// `self · o`: integers that stay in machine words inline, everything else out of line.
    #[inline]
    pub fn mul(&self, o: &Num) -> Num {
        if let (Num::S(a, 1), Num::S(c, 1)) = (self, o) {
            if let Some(p) = a.checked_mul(*c) {
                if p != i64::MIN {
                    return Num::S(p, 1);
                }
            }
        }
        self.mul_general(o)
    }

    #[inline(never)]
    fn mul_general(&self, o: &Num) -> Num {
        match (self, o) {
            (Num::S(a, 1), Num::S(c, 1)) => match a.checked_mul(*c) {
                Some(p) if p != i64::MIN => Num::S(p, 1),
                _ => Num::from_i128(*a as i128 * *c as i128, 1),
            },
            (Num::S(1, 1), x) | (x, Num::S(1, 1)) => x.clone(),
            (Num::S(-1, 1), x) | (x, Num::S(-1, 1)) => x.neg(),
            // A fraction times an integer: one cross-reduction, (a·(c/g)) / (b/g) with
            // g = gcd(c, b) is in lowest terms.
            (Num::S(a, b), Num::S(c, 1)) | (Num::S(c, 1), Num::S(a, b)) => {
                if *c == 0 {
                    return Num::ZERO;
                }
                let g = gcd_u64(c.unsigned_abs(), *b as u64) as i64;
                let (c1, b1) = (c / g, b / g);
                match a.checked_mul(c1) {
                    Some(x) if x != i64::MIN => Num::S(x, b1),
                    _ => Num::from_coprime_i128(*a as i128 * c1 as i128, b1 as i128),
                }
            }
            (Num::S(a, b), Num::S(c, d)) => {
                if *a == 0 || *c == 0 {
                    return Num::ZERO;
                }
                // Cross-reduce first: (a/g1)(c/g2) / ((b/g2)(d/g1)) is already in lowest terms.
                let g1 = gcd_u64(a.unsigned_abs(), *d as u64) as i64;
                let g2 = gcd_u64(c.unsigned_abs(), *b as u64) as i64;
                let (a1, d1, c1, b1) = (a / g1, d / g1, c / g2, b / g2);
                if let (Some(x), Some(y)) = (a1.checked_mul(c1), b1.checked_mul(d1)) {
                    if x != i64::MIN {
                        return Num::S(x, y);
                    }
                }
                // i64 × i64 always fits i128, and the cross-reduced product is in lowest terms.
                Num::from_coprime_i128(a1 as i128 * c1 as i128, b1 as i128 * d1 as i128)
            }
            _ => big_op(self, o, big_mul),
        }
    }
    /// `self / o`; `o` must be non-zero (callers check).
    #[inline]
    pub fn div(&self, o: &Num) -> Num {
        self.mul(&o.recip())
    }
    #[inline]
    pub fn recip(&self) -> Num {
        match self {
            // Already in lowest terms: only the sign moves to the numerator.
            Num::S(a, b) => match a.signum() {
                0 => Num::ZERO,
                1 => Num::S(*b, *a),
                _ => Num::S(-*b, -*a),
            },
            Num::B(x) => {
                if x.is_zero() {
                    Num::ZERO
                } else {
                    Num::from_big(x.recip())
                }
            }
        }
    }
    #[inline]
    pub fn abs(&self) -> Num {
        if self.is_neg() {
            self.neg()
        } else {
            self.clone()
        }
    }
    #[inline]
    pub fn floor(&self) -> Num {
        match self {
            Num::S(a, b) => Num::S(a.div_euclid(*b), 1),
            Num::B(x) => Num::from_big(x.floor()),
        }
    }
    #[inline]
    pub fn ceil(&self) -> Num {
        match self {
            Num::S(a, b) => {
                let f = a.div_euclid(*b);
                Num::S(if a.rem_euclid(*b) == 0 { f } else { f + 1 }, 1)
            }
            Num::B(x) => Num::from_big(x.ceil()),
        }
    }
    /// Numerator and denominator as big integers.
    pub fn parts(&self) -> (BigInt, BigInt) {
        match self {
            Num::S(a, b) => (BigInt::from(*a), BigInt::from(*b)),
            Num::B(x) => (x.numer().clone(), x.denom().clone()),
        }
    }
    pub fn denom_big(&self) -> BigInt {
        self.parts().1
    }
    /// Least common multiple of two positive integers given as `Num`s.
    pub fn lcm_int(a: &Num, b: &Num) -> Num {
        let (x, _) = a.parts();
        let (y, _) = b.parts();
        Num::from_bigint(x.lcm(&y))
    }
    pub fn gcd_int(a: &Num, b: &Num) -> Num {
        let (x, _) = a.parts();
        let (y, _) = b.parts();
        Num::from_bigint(x.gcd(&y))
    }

    /// SMT-LIB rendering: `3`, `(- 3)` for Int; `3.0`, `(/ 1.0 3.0)`, `(- (/ 1.0 3.0))` for Real.
    pub fn to_smtlib(&self, real: bool) -> String {
        let (n, d) = self.parts();
        let neg = n.is_negative();
        let n = n.abs();
        let body = if real {
            if d.is_one() {
                format!("{n}.0")
            } else {
                format!("(/ {n}.0 {d}.0)")
            }
        } else {
            format!("{n}")
        };
        if neg {
            format!("(- {body})")
        } else {
            body
        }
    }
}

impl PartialEq for Num {
    #[inline]
    fn eq(&self, o: &Num) -> bool {
        match (self, o) {
            (Num::S(a, b), Num::S(c, d)) => a == c && b == d,
            (Num::B(x), Num::B(y)) => x == y,
            // Both are in lowest terms and a big one never fits the small path.
            _ => false,
        }
    }
}
impl Eq for Num {}
impl std::hash::Hash for Num {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        match self {
            Num::S(a, b) => {
                a.hash(h);
                b.hash(h);
            }
            Num::B(x) => x.hash(h),
        }
    }
}
impl PartialOrd for Num {
    #[inline]
    fn partial_cmp(&self, o: &Num) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Num {
    #[inline]
    fn cmp(&self, o: &Num) -> Ordering {
        match (self, o) {
            (Num::S(a, b), Num::S(c, d)) if b == d => a.cmp(c),
            (Num::S(a, b), Num::S(c, d)) => {
                (*a as i128 * *d as i128).cmp(&(*c as i128 * *b as i128))
            }
            (Num::B(x), Num::B(y)) => x.cmp(y),
            (Num::B(x), Num::S(..)) => (**x).cmp(&o.to_big()),
            (Num::S(..), Num::B(y)) => self.to_big().cmp(y),
        }
    }
}
impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::S(a, 1) => write!(f, "{a}"),
            Num::S(a, b) => write!(f, "{a}/{b}"),
            Num::B(x) => write!(f, "{x}"),
        }
    }
}

/// `f(x, y)` on big rationals without copying an operand that is already big (a small one is
/// widened), normalised back to the small path when the result fits.
#[inline(never)]
fn big_op(x: &Num, y: &Num, f: impl Fn(&BigRational, &BigRational) -> BigRational) -> Num {
    let r = match (x, y) {
        (Num::B(a), Num::B(b)) => f(a, b),
        (Num::B(a), _) => f(a, &y.to_big()),
        (_, Num::B(b)) => f(&x.to_big(), b),
        _ => f(&x.to_big(), &y.to_big()),
    };
    Num::from_big(r)
}

/// GCD of two big integers (non-negative result): on two machine words when both fit (binary
/// GCD, no allocation), else num-bigint's.
fn big_gcd(x: &BigInt, y: &BigInt) -> BigInt {
    match (x.magnitude().to_u128(), y.magnitude().to_u128()) {
        (Some(p), Some(q)) => match (u64::try_from(p), u64::try_from(q)) {
            (Ok(p), Ok(q)) => BigInt::from(gcd_u64(p, q)),
            _ => BigInt::from(gcd_u128(p, q)),
        },
        _ => BigInt::from(x.magnitude().gcd(y.magnitude())),
    }
}

/// Sum of two fractions in lowest terms (Knuth's addition: two GCDs, the second one with the
/// small common factor of the denominators, instead of an lcm and a full reduction).
fn big_add(x: &BigRational, y: &BigRational) -> BigRational {
    let (a, b, c, d) = (x.numer(), x.denom(), y.numer(), y.denom());
    if b == d {
        let t = a + c;
        if t.is_zero() {
            return BigRational::zero();
        }
        let g = big_gcd(&t, b);
        return if g.is_one() {
            BigRational::new_raw(t, b.clone())
        } else {
            BigRational::new_raw(t / &g, b / &g)
        };
    }
    let g = big_gcd(b, d);
    if g.is_one() {
        return BigRational::new_raw(a * d + c * b, b * d);
    }
    let (b1, d1) = (b / &g, d / &g);
    let t = a * &d1 + c * &b1;
    if t.is_zero() {
        return BigRational::zero();
    }
    let g2 = big_gcd(&t, &g);
    if g2.is_one() {
        BigRational::new_raw(t, b1 * d)
    } else {
        BigRational::new_raw(t / &g2, b1 * (d / &g2))
    }
}

/// Product of two fractions in lowest terms by cross-reduction (two GCDs on the factors, none
/// on the product).
fn big_mul(x: &BigRational, y: &BigRational) -> BigRational {
    let (a, b, c, d) = (x.numer(), x.denom(), y.numer(), y.denom());
    if a.is_zero() || c.is_zero() {
        return BigRational::zero();
    }
    let g1 = big_gcd(a, d);
    let g2 = big_gcd(c, b);
    let (n1, d1) = if g1.is_one() {
        (a.clone(), d.clone())
    } else {
        (a / &g1, d / &g1)
    };
    let (n2, b2) = if g2.is_one() {
        (c.clone(), b.clone())
    } else {
        (c / &g2, b / &g2)
    };
    BigRational::new_raw(n1 * n2, b2 * d1)
}

/// A δ-rational `c + k·δ` (δ a symbolic positive infinitesimal), ordered lexicographically.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DRat {
    pub c: Num,
    pub k: Num,
}

impl DRat {
    #[inline]
    pub fn zero() -> DRat {
        DRat {
            c: Num::ZERO,
            k: Num::ZERO,
        }
    }
    #[inline]
    pub fn new(c: Num, k: Num) -> DRat {
        DRat { c, k }
    }
    #[inline]
    pub fn num(c: Num) -> DRat {
        DRat { c, k: Num::ZERO }
    }
    #[inline]
    pub fn add(&self, o: &DRat) -> DRat {
        DRat {
            c: self.c.add(&o.c),
            k: if self.k.is_zero() && o.k.is_zero() {
                Num::ZERO
            } else {
                self.k.add(&o.k)
            },
        }
    }
    #[inline]
    pub fn sub(&self, o: &DRat) -> DRat {
        DRat {
            c: self.c.sub(&o.c),
            k: if self.k.is_zero() && o.k.is_zero() {
                Num::ZERO
            } else {
                self.k.sub(&o.k)
            },
        }
    }
    #[inline]
    pub fn scale(&self, a: &Num) -> DRat {
        DRat {
            c: self.c.mul(a),
            k: if self.k.is_zero() {
                Num::ZERO
            } else {
                self.k.mul(a)
            },
        }
    }
    /// `self += a·o` in place (no temporary δ-rational).
    #[inline]
    pub fn add_scaled(&mut self, o: &DRat, a: &Num) {
        self.c = self.c.add(&o.c.mul(a));
        if !o.k.is_zero() {
            self.k = self.k.add(&o.k.mul(a));
        }
    }
    /// Concrete value for a given δ.
    #[inline]
    pub fn at(&self, delta: &Num) -> Num {
        if self.k.is_zero() {
            self.c.clone()
        } else {
            self.c.add(&self.k.mul(delta))
        }
    }
}
impl PartialOrd for DRat {
    #[inline]
    fn partial_cmp(&self, o: &DRat) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for DRat {
    #[inline]
    fn cmp(&self, o: &DRat) -> Ordering {
        self.c.cmp(&o.c).then_with(|| self.k.cmp(&o.k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn big(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    proptest! {
        #[test]
        fn integer_is_exact_for_every_i128(k in any::<i128>()) {
            prop_assert_eq!(Num::integer(k).to_big(), BigRational::from_integer(BigInt::from(k)));
        }
    }

    #[test]
    fn integer_at_the_word_boundaries() {
        for k in [
            0,
            1,
            -1,
            i64::MAX as i128,
            i64::MIN as i128,
            i64::MIN as i128 - 1,
            i128::MIN,
            i128::MAX,
        ] {
            assert_eq!(
                Num::integer(k).to_big(),
                BigRational::from_integer(BigInt::from(k))
            );
            assert_eq!(Num::integer(k), Num::from_bigint(BigInt::from(k)), "{k}");
        }
    }

    proptest! {
        #[test]
        fn arithmetic_matches_bigrational(a in any::<i64>(), b in 1i64..i64::MAX, c in any::<i64>(), d in 1i64..i64::MAX) {
            let x = Num::from_big(big(a, b));
            let y = Num::from_big(big(c, d));
            prop_assert_eq!(x.add(&y).to_big(), big(a, b) + big(c, d));
            prop_assert_eq!(x.sub(&y).to_big(), big(a, b) - big(c, d));
            prop_assert_eq!(x.mul(&y).to_big(), big(a, b) * big(c, d));
            // results are kept in lowest terms with a positive denominator (equality and hashing
            // rely on it), including products that leave the machine-word path
            for r in [x.add(&y), x.mul(&y), x.sub(&y)] {
                let q = r.to_big();
                prop_assert!(q.numer().gcd(q.denom()).is_one() && q.denom().is_positive());
                prop_assert_eq!(matches!(r, Num::S(..)), Num::from_big(q.clone()).to_big() == q && matches!(Num::from_big(q), Num::S(..)));
            }
            prop_assert_eq!(x.cmp(&y), big(a, b).cmp(&big(c, d)));
            prop_assert_eq!(x.floor().to_big(), big(a, b).floor());
            prop_assert_eq!(x.ceil().to_big(), big(a, b).ceil());
            if c != 0 {
                prop_assert_eq!(x.div(&y).to_big(), big(a, b) / big(c, d));
            }
        }
    }

    proptest! {
        /// Denominators with common factors (Knuth's addition with g > 1) and values near the
        /// machine-word limit.
        #[test]
        fn sums_with_shared_factors(a in -60i64..60, b in 1i64..60, c in -60i64..60, d in 1i64..60, k in 0u32..3) {
            let scale = [1i64, 1 << 31, (1 << 62) / 60][k as usize];
            let (a, c) = (a.saturating_mul(scale), c.saturating_mul(scale));
            let x = Num::from_big(big(a, b));
            let y = Num::from_big(big(c, d));
            for (r, want) in [(x.add(&y), big(a, b) + big(c, d)), (x.sub(&y), big(a, b) - big(c, d))] {
                let q = r.to_big();
                prop_assert_eq!(&q, &want);
                prop_assert!(q.numer().gcd(q.denom()).is_one() && q.denom().is_positive());
                prop_assert_eq!(matches!(r, Num::S(..)), matches!(Num::from_big(q), Num::S(..)));
            }
        }
    }

    proptest! {
        /// Operands beyond the machine-word path (products of two word-sized fractions) mixed
        /// with small ones: every operation, comparison and equality as on `BigRational`.
        #[test]
        fn big_operands_match_bigrational(a in any::<i64>(), b in 1i64..i64::MAX, c in any::<i64>(), d in 1i64..i64::MAX, e in -9i64..9, f in 1i64..9, k in 0u8..4) {
            let p = big(a, b) * big(c, d);
            let q = if k % 2 == 0 { big(e, f) } else { big(a, b) * big(e, f) };
            let (p, q) = if k >= 2 { (q, p) } else { (p, q) };
            let (x, y) = (Num::from_big(p.clone()), Num::from_big(q.clone()));
            for (r, want) in [(x.add(&y), &p + &q), (x.sub(&y), &p - &q), (x.mul(&y), &p * &q), (x.neg(), -p.clone()), (x.clone().into_neg(), -p.clone()), (x.add(&Num::int(e)).sub(&x), big(e, 1)), (x.add(&x.add(&y)), &p + &p + &q)] {
                let got = r.to_big();
                // lowest terms with a positive denominator (equality and hashing rely on it)
                prop_assert!(got.numer().gcd(got.denom()).is_one() && got.denom().is_positive());
                prop_assert_eq!(got.numer(), want.numer());
                prop_assert_eq!(got.denom(), want.denom());
                prop_assert_eq!(matches!(r, Num::S(..)), matches!(Num::from_big(want), Num::S(..)));
            }
            prop_assert_eq!(x.cmp(&y), p.cmp(&q));
            prop_assert_eq!(y.cmp(&x), q.cmp(&p));
            prop_assert_eq!(x == y, p == q);
            prop_assert_eq!(x.clone() == Num::from_big(p.clone()), true);
        }
    }

    #[test]
    fn decimal_and_printing() {
        assert_eq!(Num::parse_decimal("2.50"), Some(Num::S(5, 2)));
        assert_eq!(Num::S(-1, 3).to_smtlib(true), "(- (/ 1.0 3.0))");
        assert_eq!(Num::S(4, 1).to_smtlib(false), "4");
        assert!(Num::parse_decimal("1.2.3").is_none());
        let d = DRat::new(Num::ONE, Num::int(-1));
        assert!(d < DRat::num(Num::ONE));
    }
}
