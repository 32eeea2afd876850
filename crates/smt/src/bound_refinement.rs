//! Theory propagation by bound refinement from tableau rows: Dutertre & de Moura, "A Fast
//! Linear-Arithmetic Solver for DPLL(T)" (CAV 2006), Section 4.5 ("Another method is based on
//! bound refinement").
//!
//! A row `x_b = Σ a_j x_j` is the equation `Σ c_v v = 0` over its variables (`c_b = −1`). For
//! every variable `v` of the row, the bounds currently asserted on the *other* variables give
//! `c_v v ≤ −Σ_{j≠v} min(c_j x_j)` and `c_v v ≥ −Σ_{j≠v} max(c_j x_j)`; each computed bound can
//! imply unassigned elementary atoms on `v`. As in the paper this is heuristic and cheap: no
//! pivoting, only rows that contain a variable whose bound just changed, only rows up to a
//! length limit (long rows give weak bounds and long explanations), and the computed bounds are
//! not asserted themselves (only the atoms they imply are, which may trigger further
//! refinement). Each implied atom is explained by the bounds it was computed from, with the
//! row's coefficients as Farkas multipliers (checked by `--check`).

use crate::arith::Arith;
use crate::simplex::{Bound, NONE};
use verikit_num::{DRat, Num};
use verikit_sat::Lit;

/// Rows with this many non-basic entries or more are not used for refinement. Measured (user
/// CPU seconds, eight QF_IDL/QF_RDL/QF_LRA files: sc-13, sc-15, uart-27, uart-40, RVpredict_13,
/// simple_startup_7nodes, lpsat-goal-9, abz6_900) with no refinement / 8 / 16 / 24: 24.7 (one
/// timeout) / 13.2 / 11.8 / 14.4. Long rows help on RVpredict (fill-in) and uart, short ones on
/// sc (long explanations make weaker learned clauses); sc-15 is slower with any limit.
pub(crate) const MAX_ROW_LEN: usize = 16;

/// Sum of the row's minima (or maxima) of `c_j x_j`, with how many terms are unbounded.
struct Side {
    sum: DRat,
    missing: u32,
    missing_var: u32,
}

impl Side {
    fn new() -> Side {
        Side {
            sum: DRat::zero(),
            missing: 0,
            missing_var: NONE,
        }
    }
    fn add(&mut self, v: u32, b: Option<&Bound>, c: &Num) {
        match b {
            Some(b) => self.sum.add_scaled(&b.val, c),
            None => {
                self.missing += 1;
                self.missing_var = v;
            }
        }
    }
    /// Sum over the other variables, if all of them are bounded.
    fn without(&self, v: u32, b: Option<&Bound>, c: &Num) -> Option<DRat> {
        match (self.missing, b) {
            (0, Some(b)) => Some(self.sum.sub(&b.val.scale(c))),
            (1, _) if self.missing_var == v => Some(self.sum.clone()),
            _ => None,
        }
    }
}

impl Arith {
    /// Refines bounds from the rows that contain one of `changed` (variables whose bound was
    /// just tightened) and reports the atoms they imply, each with its explanation.
    pub(crate) fn refine_rows(&mut self, changed: &[u32], out: &mut Vec<(Lit, Vec<Lit>)>) {
        let mut rows = std::mem::take(&mut self.refine_rows_buf);
        rows.clear();
        {
            let sx = &self.simplex;
            if self.row_seen.len() < sx.rows.len() {
                self.row_seen.resize(sx.rows.len(), false);
            }
            for &x in changed {
                let xi = x as usize;
                let own = sx.row_of[xi];
                if own != NONE && !self.row_seen[own as usize] {
                    self.row_seen[own as usize] = true;
                    rows.push(own);
                }
                for &r in &sx.cols[xi] {
                    if !self.row_seen[r as usize] {
                        self.row_seen[r as usize] = true;
                        rows.push(r);
                    }
                }
            }
            for &r in &rows {
                self.row_seen[r as usize] = false;
            }
        }
        let mut entries = std::mem::take(&mut self.refine_entries_buf);
        let mut certs: Vec<Vec<(Lit, Num)>> = Vec::new();
        for &r in &rows {
            let ri = r as usize;
            let b = self.simplex.basic_of[ri];
            if b == NONE || self.simplex.rows[ri].len() >= MAX_ROW_LEN {
                continue;
            }
            // Before copying the row and summing its bounds: a row with no atom on any of its
            // variables implies nothing, and neither does one with two unbounded terms on each
            // side (`refine_row` would stop there after summing).
            let sx = &self.simplex;
            let row = &sx.rows[ri];
            let mut has_atoms = self.open_atoms[b as usize] > 0;
            // c_b = −1: the minimum uses b's upper bound, the maximum its lower bound.
            let mut miss_lo = u32::from(sx.upper[b as usize].is_none());
            let mut miss_hi = u32::from(sx.lower[b as usize].is_none());
            for (v, c) in row {
                let vi = *v as usize;
                has_atoms |= self.open_atoms[vi] > 0;
                let (l, u) = (sx.lower[vi].is_none(), sx.upper[vi].is_none());
                let (ml, mh) = if c.is_pos() { (l, u) } else { (u, l) };
                miss_lo += u32::from(ml);
                miss_hi += u32::from(mh);
            }
            if !has_atoms || (miss_lo > 1 && miss_hi > 1) {
                continue;
            }
            entries.clear();
            entries.push((b, Num::int(-1)));
            entries.extend(row.iter().cloned());
            self.refine_row(&entries, out, &mut certs);
        }
        entries.clear();
        self.refine_rows_buf = rows;
        self.refine_entries_buf = entries;
        for c in certs {
            self.certify(&c);
        }
    }

    fn refine_row(
        &self,
        entries: &[(u32, Num)],
        out: &mut Vec<(Lit, Vec<Lit>)>,
        certs: &mut Vec<Vec<(Lit, Num)>>,
    ) {
        let sx = &self.simplex;
        // lo = Σ min(c_j x_j), hi = Σ max(c_j x_j)
        let mut lo = Side::new();
        let mut hi = Side::new();
        for (v, c) in entries {
            let (l, u) = (
                sx.lower[*v as usize].as_ref(),
                sx.upper[*v as usize].as_ref(),
            );
            if c.is_pos() {
                lo.add(*v, l, c);
                hi.add(*v, u, c);
            } else {
                lo.add(*v, u, c);
                hi.add(*v, l, c);
            }
            if lo.missing > 1 && hi.missing > 1 {
                return;
            }
        }
        for (v, c) in entries {
            let vi = *v as usize;
            if self.open_atoms[vi] == 0 {
                continue;
            }
            let (l, u) = (sx.lower[vi].as_ref(), sx.upper[vi].as_ref());
            let (lo_b, hi_b) = if c.is_pos() { (l, u) } else { (u, l) };
            let lo_other = lo.without(*v, lo_b, c);
            let hi_other = hi.without(*v, hi_b, c);
            let inv = c.recip().neg();
            // c v ≤ −lo_other and c v ≥ −hi_other; dividing by c < 0 swaps them.
            let (up, up_from_lo, low) = if c.is_pos() {
                (
                    lo_other.map(|s| s.scale(&inv)),
                    true,
                    hi_other.map(|s| s.scale(&inv)),
                )
            } else {
                (
                    hi_other.map(|s| s.scale(&inv)),
                    false,
                    lo_other.map(|s| s.scale(&inv)),
                )
            };
            if let Some(up) = up {
                if u.is_none_or(|u| up < u.val) {
                    self.imply_from(*v, c, true, &up, up_from_lo, entries, out, certs);
                }
            }
            if let Some(low) = low {
                if l.is_none_or(|l| low > l.val) {
                    self.imply_from(*v, c, false, &low, !up_from_lo, entries, out, certs);
                }
            }
        }
    }

    /// Reports the unassigned atoms on `v` implied by the computed bound `val` (an upper bound
    /// if `upper`), computed from the row's minima (`from_lo`) or maxima.
    #[allow(clippy::too_many_arguments)]
    fn imply_from(
        &self,
        v: u32,
        cv: &Num,
        upper: bool,
        val: &DRat,
        from_lo: bool,
        entries: &[(u32, Num)],
        out: &mut Vec<(Lit, Vec<Lit>)>,
        certs: &mut Vec<Vec<(Lit, Num)>>,
    ) {
        let mut expl: Option<Vec<(Lit, Num)>> = None;
        for &a in &self.var_atoms[v as usize] {
            if self.atom_val[a as usize] != 0 {
                continue;
            }
            let atom = &self.atoms[a as usize];
            let implied = if upper {
                let (_, pv) = self.lit_bound(atom, true);
                (*val <= pv).then(|| Lit::pos(atom.bvar))
            } else {
                let (_, nv) = self.lit_bound(atom, false);
                (*val >= nv).then(|| !Lit::pos(atom.bvar))
            };
            let Some(lit) = implied else { continue };
            let e = expl.get_or_insert_with(|| self.row_explanation(v, from_lo, entries));
            if self.checker.is_some() {
                let mut cert = e.clone();
                cert.push((!lit, cv.abs()));
                certs.push(cert);
            }
            out.push((lit, e.iter().map(|(l, _)| *l).collect()));
        }
    }

    /// The bounds of the row's other variables that a refined bound was computed from, with the
    /// absolute row coefficients as Farkas multipliers.
    fn row_explanation(&self, v: u32, from_lo: bool, entries: &[(u32, Num)]) -> Vec<(Lit, Num)> {
        let sx = &self.simplex;
        let mut e = Vec::with_capacity(entries.len());
        for (j, c) in entries {
            if *j == v {
                continue;
            }
            let use_lower = c.is_pos() == from_lo;
            let b = if use_lower {
                &sx.lower[*j as usize]
            } else {
                &sx.upper[*j as usize]
            };
            if let Some(b) = b {
                e.push((b.lit, c.abs()));
            }
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use crate::arith::{AtomLits, Rel};
    use crate::check::CertChecker;
    use crate::linearize::Lin;
    use proptest::prelude::*;
    use verikit_num::Num;
    use verikit_sat::{Lit, Theory};

    fn lin(terms: &[(u32, i64)], c: i64) -> Lin {
        Lin {
            terms: terms.iter().map(|(v, a)| (*v, Num::int(*a))).collect(),
            c: Num::int(c),
        }
    }

    fn setup(nvars: usize, int: bool) -> crate::arith::Arith {
        let mut a = crate::arith::Arith::new();
        a.var_is_int = vec![int; nvars];
        a.checker = Some(CertChecker::new());
        a
    }

    fn lit(a: &mut crate::arith::Arith, l: &Lin, rel: Rel, next: &mut u32) -> Lit {
        let mut nv = || {
            *next += 1;
            *next - 1
        };
        match a.constraint(l, rel, &mut nv) {
            AtomLits::Lit(l) => l,
            _ => panic!("expected one literal"),
        }
    }

    #[test]
    fn row_bounds_imply_atom_on_slack() {
        // x ≤ 1 and y ≤ 2 imply x + y ≤ 3 (and x + y ≤ 5), not x + y ≤ 2; x + y ≥ 4 is refuted.
        let mut a = setup(2, false);
        let mut next = 0;
        let x1 = lit(&mut a, &lin(&[(0, 1)], -1), Rel::Le, &mut next);
        let y2 = lit(&mut a, &lin(&[(1, 1)], -2), Rel::Le, &mut next);
        let s3 = lit(&mut a, &lin(&[(0, 1), (1, 1)], -3), Rel::Le, &mut next);
        let s5 = lit(&mut a, &lin(&[(0, 1), (1, 1)], -5), Rel::Le, &mut next);
        let s2 = lit(&mut a, &lin(&[(0, 1), (1, 1)], -2), Rel::Le, &mut next);
        let s4 = lit(&mut a, &lin(&[(0, 1), (1, 1)], -4), Rel::Lt, &mut next);
        a.push_level();
        a.assert_lit(x1).unwrap();
        a.assert_lit(y2).unwrap();
        let mut out = Vec::new();
        a.propagate(&mut out);
        let implied: Vec<Lit> = out.iter().map(|(l, _)| *l).collect();
        assert!(implied.contains(&s3) && implied.contains(&s5) && implied.contains(&s4));
        assert!(!implied.contains(&s2) && !implied.contains(&!s2));
        for (l, e) in &out {
            if *l == s3 {
                let mut e = e.clone();
                e.sort();
                let mut want = vec![x1, y2];
                want.sort();
                assert_eq!(e, want);
            }
        }
        let c = a.checker.as_ref().unwrap();
        assert!(c.failures.is_empty(), "{:?}", c.failures);
        assert!(c.checked > 0);
    }

    #[test]
    fn bounds_flow_to_non_basic_variables() {
        // s = x − y ≥ 5 and y ≥ 1 imply x ≥ 6, so ¬(x ≤ 5).
        let mut a = setup(2, true);
        let mut next = 0;
        let s5 = lit(&mut a, &lin(&[(0, 1), (1, -1)], -5), Rel::Lt, &mut next);
        let y1 = lit(&mut a, &lin(&[(1, 1)], -1), Rel::Lt, &mut next);
        let x5 = lit(&mut a, &lin(&[(0, 1)], -5), Rel::Le, &mut next);
        a.push_level();
        a.assert_lit(!s5).unwrap();
        a.assert_lit(!y1).unwrap();
        let mut out = Vec::new();
        a.propagate(&mut out);
        assert!(out.iter().any(|(l, _)| *l == !x5), "{out:?}");
        assert!(a.checker.as_ref().unwrap().failures.is_empty());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// Every atom implied by bound refinement (on random rows and bounds, real and integer)
        /// comes with a valid Farkas certificate, checked independently.
        #[test]
        fn implied_atoms_are_certified(
            int in any::<bool>(),
            rows in proptest::collection::vec(
                (proptest::collection::vec((0u32..4, -3i64..4), 1..4), -6i64..7, 0u8..3), 1..8),
            order in proptest::collection::vec((0usize..8, any::<bool>()), 1..8),
        ) {
            let mut a = setup(4, int);
            let mut next = 0;
            let mut lits = Vec::new();
            for (terms, c, rel) in &rows {
                let rel = [Rel::Le, Rel::Lt, Rel::Eq][*rel as usize];
                let mut nv = || { next += 1; next - 1 };
                match a.constraint(&lin(terms, *c), rel, &mut nv) {
                    AtomLits::Lit(l) => lits.push(l),
                    AtomLits::Both(l, m) => { lits.push(l); lits.push(m); }
                    AtomLits::Const(_) => {}
                }
            }
            prop_assume!(!lits.is_empty());
            a.push_level();
            let mut out = Vec::new();
            for (i, pos) in order {
                let l = lits[i % lits.len()];
                let l = if pos { l } else { !l };
                if a.assert_lit(l).is_err() {
                    break;
                }
                a.propagate(&mut out);
            }
            let c = a.checker.as_ref().unwrap();
            prop_assert!(c.failures.is_empty(), "{:?}", c.failures);
        }
    }
}
