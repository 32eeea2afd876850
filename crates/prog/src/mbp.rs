//! Model-based projection of a conjunction of linear integer literals — A. Komuravelli, A.
//! Gurfinkel, S. Chaki, "SMT-Based Model Checking for Recursive Programs", CAV 2014 (FMSD
//! 2016), §3–4: Spacer's symbolic obligations are the projection of a clause's constraint and
//! the obligation onto a body predicate's arguments, guided by the model of the query that
//! produced them, instead of that model's single point.
//!
//! Each variable to eliminate is replaced by a term that has its value in the model:
//!
//! - an equality in which it has a unit coefficient gives that exact term;
//! - when it occurs only in inequalities with unit coefficients, its greatest lower bound in the
//!   model (Loos–Weispfenning's virtual substitution in the case that is exact over the
//!   integers); with no lower bound at all the inequalities are dropped (an integer below every
//!   upper bound exists);
//! - otherwise (a non-unit coefficient, a congruence literal) its value in the model — except
//!   that `project_congruent` (Spacer's) first tries an exact elimination by divisibility (N.
//!   Bjørner, M. Janota, "Playing with Quantified Satisfaction", LPAR 2015), which gives a
//!   congruence `t mod m = r` or `t mod m ≠ r` for the quotients and remainders of `mod`'s
//!   encoding.
//!
//! Every substitution keeps the literals true in the model, and the substituted term is a
//! witness for the eliminated variable, so the result contains the model and implies the
//! existential projection: an under-approximation of the predecessors, as Spacer requires of a
//! proof obligation (every point of it has a step into the obligation it came from).

use crate::cfa::{smt_int, Atom, Lin, Var};

/// A literal of a cube.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Lit {
    /// A linear atom.
    Lin(Atom),
    /// `lin mod m = r` with `m > 0` and `0 ≤ r < m` (a parity literal for `m = 2`).
    Mod(Lin, i128, i128),
    /// `lin mod m ≠ r` with `m > 0` and `0 ≤ r < m`.
    NotMod(Lin, i128, i128),
}

impl Lit {
    /// SMT-LIB text of the literal.
    pub(crate) fn smt(&self, name: &dyn Fn(Var) -> String) -> String {
        match self {
            Lit::Lin(a) => a.smt(name),
            Lit::Mod(l, m, r) => {
                format!("(= (mod {} {}) {})", l.smt(name), smt_int(*m), smt_int(*r))
            }
            Lit::NotMod(l, m, r) => {
                format!(
                    "(not (= (mod {} {}) {}))",
                    l.smt(name),
                    smt_int(*m),
                    smt_int(*r)
                )
            }
        }
    }

    /// The linear term of the literal.
    pub(crate) fn lin(&self) -> &Lin {
        match self {
            Lit::Lin(a) => &a.lin,
            Lit::Mod(l, _, _) | Lit::NotMod(l, _, _) => l,
        }
    }

    /// The literal with its linear term mapped.
    pub(crate) fn map(&self, f: impl FnOnce(&Lin) -> Option<Lin>) -> Option<Lit> {
        Some(match self {
            Lit::Lin(a) => Lit::Lin(Atom {
                lin: f(&a.lin)?,
                eq: a.eq,
            }),
            Lit::Mod(l, m, r) => Lit::Mod(f(l)?, *m, *r),
            Lit::NotMod(l, m, r) => Lit::NotMod(f(l)?, *m, *r),
        })
    }

    /// Whether the literal holds under an assignment.
    pub(crate) fn holds(&self, val: &dyn Fn(Var) -> i128) -> bool {
        match self {
            Lit::Lin(a) => a.holds(val),
            Lit::Mod(l, m, r) => *m > 0 && l.eval(val).rem_euclid(*m) == *r,
            Lit::NotMod(l, m, r) => *m > 0 && l.eval(val).rem_euclid(*m) != *r,
        }
    }

    /// The truth of a literal without variables.
    fn constant(&self) -> Option<bool> {
        self.lin().as_const().map(|_| self.holds(&|_| 0))
    }
}

/// `l` with variable `v` replaced by `e`.
pub(crate) fn subst_var(l: &Lin, v: Var, e: &Lin) -> Option<Lin> {
    let Some(&d) = l.coeffs.get(&v) else {
        return Some(l.clone());
    };
    let mut r = l.clone();
    r.coeffs.remove(&v);
    r.combine(1, e, d).ok()
}

/// `l` over argument positions with position `x` replaced by `args[x]`.
pub(crate) fn subst_args(l: &Lin, args: &[Lin]) -> Option<Lin> {
    let mut out = Lin::constant(l.konst);
    for (&x, &c) in &l.coeffs {
        out = out.combine(1, args.get(x)?, c).ok()?;
    }
    Some(out)
}

/// Eliminates the variables `elim` from the conjunction `lits`, which holds under `val`; `None`
/// when a coefficient overflows or the literals do not hold in the model.
pub(crate) fn project(lits: Vec<Lit>, elim: &[Var], val: &dyn Fn(Var) -> i128) -> Option<Vec<Lit>> {
    project_with(lits, elim, val, false)
}

/// `project`, but a variable that only a divisibility argument eliminates exactly (see
/// `divisibility`) gives a congruence literal `t mod m = r` or `t mod m ≠ r` instead of its
/// value in the model.
pub(crate) fn project_congruent(
    lits: Vec<Lit>,
    elim: &[Var],
    val: &dyn Fn(Var) -> i128,
) -> Option<Vec<Lit>> {
    project_with(lits, elim, val, true)
}

fn project_with(
    mut lits: Vec<Lit>,
    elim: &[Var],
    val: &dyn Fn(Var) -> i128,
    congruences: bool,
) -> Option<Vec<Lit>> {
    if !lits.iter().all(|l| l.holds(val)) {
        return None;
    }
    for &v in elim {
        let has = |l: &Lit| l.lin().coeffs.contains_key(&v);
        if !lits.iter().any(has) {
            continue;
        }
        let unit = |l: &Lit, eq: bool| matches!(l, Lit::Lin(a) if a.eq == eq && a.lin.coeffs.get(&v).is_some_and(|c| c.abs() == 1));
        let term = if let Some(i) = lits.iter().position(|l| unit(l, true)) {
            // c·v + R = 0 with c = ±1: v = -c·R.
            let l = lits.remove(i);
            let c = l.lin().coeffs.get(&v).copied()?;
            let mut r = l.lin().clone();
            r.coeffs.remove(&v);
            Some(r.scale(-c).ok()?)
        } else if lits.iter().filter(|l| has(l)).all(|l| unit(l, false)) {
            // Lower bounds `-v + R ≤ 0`, i.e. `v ≥ R`: the greatest in the model.
            let best = lits
                .iter()
                .filter(|l| l.lin().coeffs.get(&v) == Some(&-1))
                .map(|l| {
                    let mut r = l.lin().clone();
                    r.coeffs.remove(&v);
                    r
                })
                .max_by_key(|r| r.eval(val));
            if best.is_none() {
                lits.retain(|l| !has(l));
            }
            best
        } else if let Some(rest) = congruences.then(|| divisibility(&lits, v)).flatten() {
            lits = rest;
            None
        } else {
            Some(Lin::constant(val(v)))
        };
        if let Some(e) = term {
            // Only the literals on `v` change (rebuilding every literal for every variable
            // was a fifth of Spacer's time on clauses with hundreds of variables).
            for l in lits.iter_mut().filter(|l| l.lin().coeffs.contains_key(&v)) {
                *l = l.map(|x| subst_var(x, v, &e))?;
            }
        }
        if lits.iter().any(|l| l.constant() == Some(false)) {
            return None;
        }
        lits.retain(|l| l.constant() != Some(true));
    }
    let mut out: Vec<Lit> = Vec::with_capacity(lits.len());
    for l in lits {
        if !out.contains(&l) {
            out.push(l);
        }
    }
    Some(out)
}

/// `t mod m = r` (`eq`) or `t mod m ≠ r` with the constant of `t` moved into `r`.
fn congruence(t: &Lin, m: i128, r: i128, eq: bool) -> Lit {
    let s = Lin {
        coeffs: t.coeffs.clone(),
        konst: 0,
    };
    let r = r.wrapping_sub(t.konst).rem_euclid(m);
    if eq {
        Lit::Mod(s, m, r)
    } else {
        Lit::NotMod(s, m, r)
    }
}

/// The residues `s mod m` for which some `u` in `[lo, hi]` (`None`: unbounded) has
/// `s ≡ k - c·u (mod m)` with `c = ±1`: `Some(None)` for every residue, `Some(Some(lit))` for
/// one residue or all but one; `None` for any other set (not a cube literal).
fn residues(
    s: &Lin,
    m: i128,
    k: i128,
    c: i128,
    lo: Option<i128>,
    hi: Option<i128>,
) -> Option<Option<Lit>> {
    let (Some(lo), Some(hi)) = (lo, hi) else {
        return Some(None);
    };
    let width = hi.checked_sub(lo)?.checked_add(1)?;
    let at = |u: i128| {
        k.wrapping_sub(c.wrapping_mul(u.rem_euclid(m)))
            .rem_euclid(m)
    };
    if width >= m {
        Some(None)
    } else if width == 1 {
        Some(Some(congruence(s, m, at(lo), true)))
    } else if width == m - 1 {
        Some(Some(congruence(s, m, at(hi.wrapping_add(1)), false)))
    } else {
        None
    }
}

/// Exact elimination of `v` by divisibility (Cooper's method, as z3's model-based projection
/// for linear integer arithmetic does it: N. Bjørner, M. Janota, "Playing with Quantified
/// Satisfaction", LPAR 2015, §6), in the three shapes the encoding of `mod` and `div` as
/// `a = m·q + r, 0 ≤ r < m` leaves once `a` is substituted:
///
/// - `c·v + R = 0` with `|c| ≥ 2` as the only literal on `v`: `R mod |c| = 0`;
/// - `t ± v` in one congruence `(t ± v) mod m = k` and otherwise only constant bounds
///   `lo ≤ v ≤ hi`: the residues of `t` that some `v` in range reaches;
/// - `lo ≤ t - m·v ≤ hi` (every literal on `v` an inequality with coefficient `±m`, `m ≥ 2`, on
///   the same rest `t`): `t mod m` in the residues of `[lo, hi]`.
///
/// The residues are one value (`t mod m = r`), all but one (`t mod m ≠ r`, the lemma that
/// blocks every other residue at once) or all of them; `None` for any other case (the caller
/// then uses `v`'s value in the model).
fn divisibility(lits: &[Lit], v: Var) -> Option<Vec<Lit>> {
    let has = |l: &Lit| l.lin().coeffs.contains_key(&v);
    let on: Vec<&Lit> = lits.iter().filter(|l| has(l)).collect();
    let mut rest: Vec<Lit> = lits.iter().filter(|l| !has(l)).cloned().collect();
    let without = |l: &Lin| {
        let mut r = l.clone();
        r.coeffs.remove(&v);
        r
    };
    // c·v + R = 0 alone.
    if let [Lit::Lin(a)] = on.as_slice() {
        let c = a.lin.coeffs.get(&v).copied()?.checked_abs()?;
        if a.eq && c >= 2 {
            rest.push(congruence(&without(&a.lin), c, 0, true));
            return Some(rest);
        }
    }
    // One congruence on t ± v and constant bounds on v.
    let mods: Vec<&Lit> = on
        .iter()
        .copied()
        .filter(|l| !matches!(l, Lit::Lin(_)))
        .collect();
    if let [Lit::Mod(t, m, k)] = mods.as_slice() {
        let c = t.coeffs.get(&v).copied()?;
        if c != 1 && c != -1 {
            return None;
        }
        let (mut lo, mut hi): (Option<i128>, Option<i128>) = (None, None);
        for l in &on {
            match l {
                Lit::Lin(a) if !a.eq && a.lin.coeffs.len() == 1 => match a.lin.coeffs.get(&v) {
                    // v + K ≤ 0: v ≤ -K.
                    Some(1) => {
                        let b = a.lin.konst.saturating_neg();
                        hi = Some(hi.map_or(b, |h| h.min(b)));
                    }
                    // -v + K ≤ 0: v ≥ K.
                    Some(-1) => lo = Some(lo.map_or(a.lin.konst, |x| x.max(a.lin.konst))),
                    _ => return None,
                },
                Lit::Mod(..) => {}
                _ => return None,
            }
        }
        if let Some(l) = residues(&without(t), *m, *k, c, lo, hi)? {
            rest.push(l);
        }
        return Some(rest);
    }
    if !mods.is_empty() {
        return None;
    }
    // lo ≤ t - m·v ≤ hi.
    let m = on
        .first()
        .and_then(|l| l.lin().coeffs.get(&v))?
        .checked_abs()?;
    if m < 2 {
        return None;
    }
    let mut t: Option<Lin> = None;
    let (mut lo, mut hi): (Option<i128>, Option<i128>) = (None, None);
    for l in &on {
        let Lit::Lin(a) = l else { return None };
        let c = a.lin.coeffs.get(&v).copied()?;
        if a.eq || c.checked_abs() != Some(m) {
            return None;
        }
        // c = -m: t - m·v + K ≤ 0, an upper bound -K; c = m: -(t - m·v) + K ≤ 0, a lower bound K.
        let oriented = if c < 0 {
            without(&a.lin)
        } else {
            without(&a.lin).scale(-1).ok()?
        };
        let k = if c < 0 {
            oriented.konst
        } else {
            oriented.konst.saturating_neg()
        };
        let shape = Lin {
            coeffs: oriented.coeffs.clone(),
            konst: 0,
        };
        match &t {
            Some(t) if *t != shape => return None,
            _ => t = Some(shape),
        }
        if c < 0 {
            let b = k.saturating_neg();
            hi = Some(hi.map_or(b, |h| h.min(b)));
        } else {
            lo = Some(lo.map_or(k, |x| x.max(k)));
        }
    }
    // t ≡ u (mod m) for some u in [lo, hi]: k = 0, c = -1.
    if let Some(l) = residues(&t?, m, 0, -1, lo, hi)? {
        rest.push(l);
    }
    Some(rest)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `Σ c·x + k ≤ 0` as a literal (shared by the tests of the modules on cubes).
    pub(crate) fn le(cs: &[(Var, i128)], k: i128) -> Lit {
        let mut l = Lin::constant(k);
        for &(x, c) in cs {
            l.coeffs.insert(x, c);
        }
        Lit::Lin(Atom::le0(l))
    }

    fn eq(cs: &[(Var, i128)], k: i128) -> Lit {
        match le(cs, k) {
            Lit::Lin(a) => Lit::Lin(Atom::eq0(a.lin)),
            l => l,
        }
    }

    /// Brute force over a box (wide enough for the witnesses of these small coefficients): does
    /// some value of the eliminated variables satisfy `lits`?
    fn exists(lits: &[Lit], keep: &[i128], elim: usize) -> bool {
        let n = keep.len();
        let mut idx = vec![-80i128; elim];
        loop {
            let val = |x: Var| {
                if x < n {
                    keep.get(x).copied().unwrap_or(0)
                } else {
                    idx.get(x - n).copied().unwrap_or(0)
                }
            };
            if lits.iter().all(|l| l.holds(&val)) {
                return true;
            }
            let mut i = 0;
            loop {
                let Some(d) = idx.get_mut(i) else {
                    return false;
                };
                *d += 1;
                if *d <= 80 {
                    break;
                }
                *d = -80;
                i += 1;
            }
        }
    }

    #[test]
    fn equalities_are_substituted_exactly() {
        // y = x + 1 ∧ z = 2y ∧ z ≤ 10, eliminate y, z (vars 1, 2) keeping x (var 0).
        let lits = vec![
            eq(&[(1, 1), (0, -1)], -1),
            eq(&[(2, 1), (1, -2)], 0),
            le(&[(2, 1)], -10),
        ];
        let val = |x: Var| [3, 4, 8][x];
        let p = project(lits, &[1, 2], &val).expect("projection");
        // 2(x + 1) ≤ 10
        assert_eq!(p, vec![le(&[(0, 2)], -8)]);
    }

    #[test]
    fn a_remainder_other_than_zero_is_one_congruence_literal() {
        // x = 7q + r ∧ 0 ≤ r ≤ 6 ∧ r ≥ 1 (SMT-LIB's `(not (= (mod x 7) 0))`), in both orders of
        // elimination: x mod 7 ≠ 0, not the interval of q's value in the model.
        let lits = vec![
            eq(&[(0, 1), (1, -7), (2, -1)], 0),
            le(&[(2, -1)], 0),
            le(&[(2, 1)], -6),
            le(&[(2, -1)], 1),
        ];
        let val = |x: Var| [17, 2, 3][x];
        let want = vec![Lit::NotMod(Lin::var(0), 7, 0)];
        assert_eq!(
            project_congruent(lits.clone(), &[1, 2], &val),
            Some(want.clone())
        );
        assert_eq!(project_congruent(lits.clone(), &[2, 1], &val), Some(want));
        // Without congruences the model's quotient is kept: 14 ≤ x ≤ 20.
        let p = project(lits, &[2, 1], &val).expect("projection");
        assert!(p.iter().all(|l| matches!(l, Lit::Lin(_))));
    }

    #[test]
    fn one_remainder_is_an_equal_congruence() {
        // 3 = (x + 1) mod 5: x + 1 = 5q + r ∧ r = 3 written as bounds; x mod 5 = 2.
        let lits = vec![
            eq(&[(0, 1), (1, -5), (2, -1)], 1),
            le(&[(2, 1)], -3),
            le(&[(2, -1)], 3),
        ];
        let val = |x: Var| [7, 1, 3][x];
        let p = project_congruent(lits, &[1, 2], &val);
        assert_eq!(p, Some(vec![Lit::Mod(Lin::var(0), 5, 2)]));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        /// The divisibility shapes of `mod`'s encoding, `x + k = m·q + r` with `r` in a range,
        /// eliminated in either order: the projection holds in the model, and where it is a
        /// congruence (one residue, all but one, or all) it is exactly the existential
        /// projection (brute force over the remainder).
        #[test]
        fn remainders_project_exactly(
            m in 2i128..8, k in -5i128..6, x0 in -20i128..21,
            lo in 0i128..8, width in 1i128..9, swap in any::<bool>(),
        ) {
            let hi = (lo + width - 1).min(m - 1);
            let lo = lo.min(hi);
            let (q0, r0) = ((x0 + k).div_euclid(m), (x0 + k).rem_euclid(m));
            prop_assume!(lo <= r0 && r0 <= hi);
            let lits = vec![
                eq(&[(0, 1), (1, -m), (2, -1)], k),
                le(&[(2, -1)], 0),
                le(&[(2, 1)], 1 - m),
                le(&[(2, -1)], lo),
                le(&[(2, 1)], -hi),
            ];
            let val = |x: Var| [x0, q0, r0][x];
            let order: &[Var] = if swap { &[2, 1] } else { &[1, 2] };
            let p = project_congruent(lits, order, &val);
            prop_assert!(p.is_some());
            let p = p.unwrap_or_default();
            prop_assert!(p.iter().all(|l| l.holds(&val)));
            let w = hi - lo + 1;
            let exact = w == 1 || w == m - 1 || w == m;
            for x in -20i128..21 {
                let inside = p.iter().all(|l| l.holds(&|_| x));
                // Brute force over r: some r in [lo, hi] with m | x + k - r.
                let truth = (lo..=hi).any(|r| (x + k - r).rem_euclid(m) == 0);
                if inside {
                    prop_assert!(truth, "{:?} ⊄ ∃: x = {}", p, x);
                }
                if exact {
                    prop_assert_eq!(inside, truth, "{:?} at x = {}", p, x);
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        /// The projection contains the model and implies the existential projection (checked by
        /// brute force over a box).
        #[test]
        fn projection_is_an_under_approximation_containing_the_model(
            model in proptest::collection::vec(-4i128..5, 3),
            atoms in proptest::collection::vec(
                (proptest::collection::vec(-2i128..3, 3), -6i128..7, any::<bool>()), 1..5),
            parity in any::<bool>(),
        ) {
            // Literals made true in the model by adjusting the constant.
            let val = |x: Var| model.get(x).copied().unwrap_or(0);
            let mut lits = Vec::new();
            for (cs, k, is_eq) in &atoms {
                let mut l = Lin::constant(*k);
                for (x, &c) in cs.iter().enumerate() {
                    if c != 0 {
                        l.coeffs.insert(x, c);
                    }
                }
                let v = l.eval(&val);
                let a = if *is_eq {
                    Atom::eq0(l.add_const(-v).unwrap_or_default())
                } else if v > 0 {
                    Atom::le0(l.add_const(-v).unwrap_or_default())
                } else {
                    Atom::le0(l)
                };
                lits.push(Lit::Lin(a));
            }
            if parity {
                lits.push(Lit::Mod(Lin::var(2), 2, val(2).rem_euclid(2)));
            }
            // Keep var 0, eliminate vars 1 and 2.
            for p in [
                project(lits.clone(), &[1, 2], &val),
                project_congruent(lits.clone(), &[1, 2], &val),
            ]
            .into_iter()
            .flatten()
            {
                prop_assert!(p.iter().all(|l| l.holds(&val)));
                prop_assert!(p.iter().all(|l| l.lin().coeffs.keys().all(|&x| x == 0)));
                for x in -4i128..5 {
                    let inside = p.iter().all(|l| l.holds(&|_| x));
                    if inside {
                        prop_assert!(exists(&lits, &[x], 2), "{:?} ⊄ ∃: x = {}", p, x);
                    }
                }
            }
        }
    }
}
