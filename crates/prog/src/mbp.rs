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
//! - otherwise (a non-unit coefficient, a congruence literal) its value in the model.
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
}

impl Lit {
    /// SMT-LIB text of the literal.
    pub(crate) fn smt(&self, name: &dyn Fn(Var) -> String) -> String {
        match self {
            Lit::Lin(a) => a.smt(name),
            Lit::Mod(l, m, r) => {
                format!("(= (mod {} {}) {})", l.smt(name), smt_int(*m), smt_int(*r))
            }
        }
    }

    /// The linear term of the literal.
    pub(crate) fn lin(&self) -> &Lin {
        match self {
            Lit::Lin(a) => &a.lin,
            Lit::Mod(l, _, _) => l,
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
        })
    }

    /// Whether the literal holds under an assignment.
    pub(crate) fn holds(&self, val: &dyn Fn(Var) -> i128) -> bool {
        match self {
            Lit::Lin(a) => a.holds(val),
            Lit::Mod(l, m, r) => *m > 0 && l.eval(val).rem_euclid(*m) == *r,
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
pub(crate) fn project(
    mut lits: Vec<Lit>,
    elim: &[Var],
    val: &dyn Fn(Var) -> i128,
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
        } else {
            Some(Lin::constant(val(v)))
        };
        if let Some(e) = term {
            lits = lits
                .iter()
                .map(|l| l.map(|x| subst_var(x, v, &e)))
                .collect::<Option<Vec<_>>>()?;
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
            if let Some(p) = project(lits.clone(), &[1, 2], &val) {
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
