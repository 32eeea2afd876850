//! Incremental Diophantine test during propagation, for the integer extension ("branch and cut",
//! Section 6) of Dutertre & de Moura, "A Fast Linear-Arithmetic Solver for DPLL(T)" (CAV 2006).
//! The equation solving is Griggio's (“A Practical Approach to Satisfiability Modulo Linear
//! Integer Arithmetic”, JSAT 8, 2012, Section 4), made incremental along the bound trail so that
//! it is cheap enough to run at every propagation fixpoint, not only at the final check
//! (`dioph.rs` runs the whole test there).
//!
//! The equations are not tableau rows but the *fixed* integer variables: when the bounds of an
//! integer simplex variable `x` (a problem variable or a slack `s = Σ a_v v` with integer
//! coefficients) meet at a value `c`, the equation `def(x) − c = 0` over the problem variables is
//! added to a solved form. The solved form is a triangular list of solutions `col = Σ terms + d`,
//! each mentioning only columns that are unsolved or solved *later* in the list, so:
//! - a new equation is reduced by substituting solutions in list order (one pass),
//! - after dividing by the gcd of its coefficients (a gcd that does not divide the constant is a
//!   conflict), a unit coefficient is solved for and appended; otherwise the unimodular change
//!   `x_k = σ − Σ ⌊a_j/a_k⌋ x_j − ⌊c/a_k⌋` (a fresh column `σ`) is appended and the equation's
//!   coefficients shrink to their residues, until it is solved or vanishes;
//! - backtracking truncates the list (nothing earlier is ever rewritten).
//!
//! Each solution carries its reasons: the fixed variables whose equations it used. A variable `y`
//! with both bounds whose definition reduces to `Σ b_k t_k + d` with `g = gcd(b_k) > 1` lies in
//! the class `d mod g`; if no member of that class lies between its bounds, those bounds and the
//! reasons are inconsistent over the integers. Bounded variables are checked when their bounds
//! change or when a column of their definition is newly solved.
//!
//! Conflicts are minimised by deletion, re-solving only the equations of the conflict's own
//! variables. They are integer lemmas, valid for every integer point but not rational
//! consequences, so they carry no Farkas certificate; `--check` still validates every model.

use crate::arith::Arith;
use crate::dioph::{gcd, sigma_definition, to_int, union, Eq};
use crate::gcd::{int_lower, int_upper};
use crate::simplex::{Simplex, NONE};
use std::collections::HashMap;
use verikit_num::Num;
use verikit_sat::Lit;

/// Columns above this are the fresh variables `σ` of unimodular changes.
pub(crate) const SIGMA_BASE: u32 = 1 << 31;
/// Conflicts with more variables than this are not minimised.
const MAX_MIN_VARS: usize = 64;
/// Congruence checks per propagation fixpoint.
const MAX_CONGRUENCE_CHECKS: usize = 64;

/// A fixed variable whose equation is in the solved form.
struct Entry {
    x: u32,
    /// Length of the bound trail when it was added: valid while the trail is at least this long.
    pos: usize,
    /// Where the scan that added it started (rescanned from there once it is dropped).
    from: usize,
    /// Length of the solution list and next σ before it was added.
    sols_len: usize,
    sigma: u32,
}

/// The solved form (see the module documentation).
#[derive(Default)]
pub(crate) struct Solved {
    pub(crate) sols: Vec<(u32, Eq)>,
    /// Index in `sols` of the solution of each problem-variable column and each `σ` (NONE: unsolved).
    sol_of: Vec<u32>,
    sol_of_sigma: Vec<u32>,
    next_sigma: u32,
}

pub(crate) enum Added {
    Ok,
    /// The reduced equation `Σ terms + c = 0` whose coefficients' gcd does not divide `c` (or
    /// `0 = c ≠ 0`); its reasons are the conflict.
    Conflict(Eq),
    /// A number left the supported range: the test gives up.
    Overflow,
}

impl Solved {
    pub(crate) fn new() -> Solved {
        Solved {
            next_sigma: SIGMA_BASE,
            ..Solved::default()
        }
    }

    fn truncate(&mut self, len: usize, sigma: u32) {
        while self.sols.len() > len {
            if let Some((c, _)) = self.sols.pop() {
                self.set_sol(c, NONE);
            }
        }
        self.next_sigma = sigma;
    }

    fn sol(&self, c: u32) -> Option<usize> {
        let i = if c >= SIGMA_BASE {
            self.sol_of_sigma.get((c - SIGMA_BASE) as usize)
        } else {
            self.sol_of.get(c as usize)
        };
        match i {
            Some(&i) if i != NONE => Some(i as usize),
            _ => None,
        }
    }

    fn set_sol(&mut self, c: u32, i: u32) {
        let (v, k) = if c >= SIGMA_BASE {
            (&mut self.sol_of_sigma, (c - SIGMA_BASE) as usize)
        } else {
            (&mut self.sol_of, c as usize)
        };
        if v.len() <= k {
            v.resize(k + 1, NONE);
        }
        v[k] = i;
    }

    fn push_sol(&mut self, c: u32, def: Eq) {
        self.set_sol(c, self.sols.len() as u32);
        self.sols.push((c, def));
    }

    /// Substitutes every solved column of `e` (in list order). None on overflow.
    fn reduce(&self, e: &mut Eq) -> Option<()> {
        loop {
            let mut best: Option<usize> = None;
            for (c, _) in &e.terms {
                if let Some(i) = self.sol(*c) {
                    if best.is_none_or(|b| i < b) {
                        best = Some(i);
                    }
                }
            }
            let i = match best {
                None => return Some(()),
                Some(i) => i,
            };
            let (c, def) = &self.sols[i];
            e.substitute(*c, def)?;
        }
    }

    /// Adds the equation `Σ e.terms + e.c = 0`.
    pub(crate) fn add(&mut self, mut e: Eq) -> Added {
        if self.reduce(&mut e).is_none() {
            return Added::Overflow;
        }
        loop {
            if e.terms.is_empty() {
                return if e.c != 0 {
                    Added::Conflict(e)
                } else {
                    Added::Ok
                };
            }
            let g = e.terms.iter().fold(0, |g, t| gcd(g, t.1));
            if e.c % g != 0 {
                return Added::Conflict(e);
            }
            if g > 1 {
                for t in e.terms.iter_mut() {
                    t.1 /= g;
                }
                e.c /= g;
            }
            let m = e.terms.iter().map(|t| t.1.abs()).min().unwrap_or(1);
            let (k, ak) = match e.terms.iter().find(|t| t.1.abs() == m) {
                Some(t) => *t,
                None => return Added::Overflow,
            };
            let s = if ak < 0 { -1 } else { 1 };
            if m == 1 {
                // x_k = −s·(c + Σ_{j≠k} a_j x_j).
                let c = match e.c.checked_mul(-s) {
                    Some(c) => c,
                    None => return Added::Overflow,
                };
                let def = Eq {
                    terms: e
                        .terms
                        .iter()
                        .filter(|t| t.0 != k)
                        .map(|t| (t.0, -s * t.1))
                        .collect(),
                    c,
                    why: e.why,
                };
                self.push_sol(k, def);
                return Added::Ok;
            }
            // x_k = σ − Σ ⌊s·a_j/a⌋ x_j − ⌊s·c/a⌋ with a = |a_k| (a change of variables: no reasons).
            if self.next_sigma == u32::MAX {
                return Added::Overflow;
            }
            let sigma = self.next_sigma;
            self.next_sigma += 1;
            let Some(def) = sigma_definition(&e, k, s, m, sigma) else {
                return Added::Overflow;
            };
            if e.substitute(k, &def).is_none() {
                return Added::Overflow;
            }
            self.push_sol(k, def);
        }
    }

    /// Checks the bounds `[lo, hi]` of `y` (definition `def`) against its congruence class.
    /// Returns the reasons of the class if no member lies between the bounds; None if it is
    /// consistent or a number does not fit.
    fn congruence(&self, def: &[(u32, i128)], lo: i128, hi: i128) -> Option<Vec<u32>> {
        let mut e = Eq {
            terms: def.to_vec(),
            c: 0,
            why: Vec::new(),
        };
        self.reduce(&mut e)?;
        let g = e.terms.iter().fold(0, |g, t| gcd(g, t.1));
        let empty = if g == 0 {
            e.c < lo || e.c > hi
        } else if g == 1 {
            false
        } else {
            let first = lo.checked_add((e.c.checked_sub(lo)?).rem_euclid(g))?;
            first > hi
        };
        if empty {
            Some(e.why)
        } else {
            None
        }
    }
}

/// The incremental Diophantine state of the arithmetic solver.
#[derive(Default)]
pub(crate) struct IncDioph {
    /// Bound-trail entries already looked at.
    scanned: usize,
    entries: Vec<Entry>,
    in_entries: Vec<bool>,
    solved: Option<Solved>,
    /// The test gave up (overflow) at this trail length, in a scan from the second length; off
    /// until backtracking below the first.
    dead_at: Option<(usize, usize)>,
    /// Problem variable → integer simplex variables whose definition mentions it.
    occurs: HashMap<u32, Vec<u32>>,
    occurs_len: usize,
    /// Conflicts found.
    pub(crate) conflicts: u64,
}

/// `x`'s integer value if its bounds fix it.
fn fixed_value(sx: &Simplex, x: u32) -> Option<i128> {
    let i = x as usize;
    let (l, u) = (sx.lower[i].as_ref()?, sx.upper[i].as_ref()?);
    let (l, u) = (int_lower(&l.val), int_upper(&u.val));
    if l == u {
        to_int(&l)
    } else {
        None
    }
}

/// `x`'s integer bounds if it has both and they fit.
fn int_box(sx: &Simplex, x: u32) -> Option<(i128, i128)> {
    let (lo, hi) = sx.int_bounds(x);
    Some((to_int(&lo?)?, to_int(&hi?)?))
}

/// `x`'s definition over problem variables with integer coefficients (None for a real slack or a
/// coefficient that does not fit).
pub(crate) fn int_def(defs: &[Vec<(u32, Num)>], x: u32) -> Option<Vec<(u32, i128)>> {
    let mut t: Vec<(u32, i128)> = Vec::new();
    for (v, a) in defs.get(x as usize)? {
        match a {
            Num::S(p, 1) => t.push((*v, *p as i128)),
            _ => return None,
        }
    }
    t.sort_unstable_by_key(|p| p.0);
    Some(t)
}

/// Whether the fixed and bounded variables `vars` alone are inconsistent; returns the
/// (smaller) set of variables of the conflict found.
fn conflict_of(sx: &Simplex, defs: &[Vec<(u32, Num)>], vars: &[u32]) -> Option<Vec<u32>> {
    let mut s = Solved::new();
    // Bounded, not fixed variables: (variable, definition, lower, upper).
    type Boxed = (u32, Vec<(u32, i128)>, i128, i128);
    let mut boxed: Vec<Boxed> = Vec::new();
    for &x in vars {
        let def = int_def(defs, x)?;
        if let Some(c) = fixed_value(sx, x) {
            let e = Eq {
                terms: def,
                c: c.checked_neg()?,
                why: vec![x],
            };
            match s.add(e) {
                Added::Ok => {}
                Added::Conflict(e) => return Some(e.why),
                Added::Overflow => return None,
            }
        } else if let Some((lo, hi)) = int_box(sx, x) {
            boxed.push((x, def, lo, hi));
        }
    }
    for (y, def, lo, hi) in boxed {
        if let Some(w) = s.congruence(&def, lo, hi) {
            let mut w = union(&w, &[y]);
            w.dedup();
            return Some(w);
        }
    }
    None
}

/// Deletion-based minimisation (members found necessary stay necessary: inconsistency is
/// monotone).
fn minimise(sx: &Simplex, defs: &[Vec<(u32, Num)>], vars: Vec<u32>) -> Vec<u32> {
    if vars.len() > MAX_MIN_VARS {
        return vars;
    }
    let mut cur = match conflict_of(sx, defs, &vars) {
        Some(c) => c,
        None => return vars,
    };
    let mut needed: Vec<u32> = Vec::new();
    while let Some(&x) = cur.iter().find(|y| !needed.contains(y)) {
        let rest: Vec<u32> = cur.iter().copied().filter(|&y| y != x).collect();
        match conflict_of(sx, defs, &rest) {
            Some(c) => cur = c,
            None => needed.push(x),
        }
    }
    cur
}

impl IncDioph {
    /// Forgets everything that depended on bound-trail entries beyond `trail_len`.
    pub(crate) fn backtrack(&mut self, trail_len: usize) {
        while let Some(e) = self.entries.last() {
            if e.pos <= trail_len {
                break;
            }
            if let Some(s) = self.solved.as_mut() {
                s.truncate(e.sols_len, e.sigma);
            }
            if let Some(f) = self.in_entries.get_mut(e.x as usize) {
                *f = false;
            }
            self.scanned = self.scanned.min(e.from);
            self.entries.pop();
        }
        if let Some((d, from)) = self.dead_at {
            if trail_len < d {
                self.dead_at = None;
                self.scanned = self.scanned.min(from);
            }
        }
        self.scanned = self.scanned.min(trail_len);
    }

    fn rebuild_occurs(&mut self, sx: &Simplex, defs: &[Vec<(u32, Num)>]) {
        self.occurs.clear();
        for (x, d) in defs.iter().enumerate() {
            if d.is_empty() || !sx.is_int.get(x).copied().unwrap_or(false) {
                continue;
            }
            for (v, _) in d {
                self.occurs.entry(*v).or_default().push(x as u32);
            }
        }
        self.occurs_len = defs.len();
    }
}

/// The test at a propagation fixpoint (the simplex is feasible): new fixed variables' equations
/// join the solved form; bounded variables touched since the last call are checked against their
/// congruence classes. Returns a conflict (true bound literals) if the bounds are inconsistent
/// over the integers.
pub(crate) fn propagation_check(th: &mut Arith) -> Result<(), Vec<Lit>> {
    if th.int_vars().is_empty() {
        return Ok(());
    }
    let Arith {
        simplex: sx,
        defs,
        lia,
        ..
    } = th;
    let inc = &mut lia.inc;
    let tl = sx.trail.len();
    if inc.scanned > tl {
        inc.backtrack(tl);
    }
    if inc.dead_at.is_some() {
        inc.scanned = tl;
        return Ok(());
    }
    if inc.in_entries.len() < sx.beta.len() {
        inc.in_entries.resize(sx.beta.len(), false);
    }
    if inc.occurs_len != defs.len() {
        inc.rebuild_occurs(sx, defs);
    }
    let solved = inc.solved.get_or_insert_with(Solved::new);
    let mut check: Vec<u32> = Vec::new();
    let mut conflict: Option<Vec<u32>> = None;
    let from = inc.scanned;
    let mut rescan: Option<usize> = None;
    for i in from..tl {
        let x = sx.trail[i].0;
        let xi = x as usize;
        if !sx.is_int[xi] || inc.in_entries[xi] {
            continue;
        }
        let c = match fixed_value(sx, x) {
            Some(c) => c,
            None => {
                check.push(x);
                continue;
            }
        };
        let def = match int_def(defs, x) {
            Some(d) => d,
            None => continue,
        };
        let neg = match c.checked_neg() {
            Some(n) => n,
            None => continue,
        };
        let entry = Entry {
            x,
            pos: tl,
            from,
            sols_len: solved.sols.len(),
            sigma: solved.next_sigma,
        };
        let before = solved.sols.len();
        match solved.add(Eq {
            terms: def,
            c: neg,
            why: vec![x],
        }) {
            Added::Ok => {
                inc.in_entries[xi] = true;
                inc.entries.push(entry);
                for (col, _) in &solved.sols[before..] {
                    if let Some(ys) = inc.occurs.get(col) {
                        check.extend(ys.iter().copied());
                    }
                }
            }
            Added::Conflict(e) => {
                solved.truncate(entry.sols_len, entry.sigma);
                conflict = Some(e.why);
                // Rescanned from here unless backtracking drops it.
                rescan = Some(i);
                break;
            }
            Added::Overflow => {
                solved.truncate(entry.sols_len, entry.sigma);
                inc.dead_at = Some((tl, from));
                break;
            }
        }
    }
    inc.scanned = rescan.unwrap_or(tl);
    if conflict.is_none() && inc.dead_at.is_none() {
        check.sort_unstable();
        check.dedup();
        let mut n = 0;
        for y in check {
            let yi = y as usize;
            if yi >= sx.beta.len() || !sx.is_int[yi] || inc.in_entries[yi] {
                continue;
            }
            let (lo, hi) = match int_box(sx, y) {
                Some(b) => b,
                None => continue,
            };
            let def = match int_def(defs, y) {
                Some(d) => d,
                None => continue,
            };
            n += 1;
            if n > MAX_CONGRUENCE_CHECKS {
                break;
            }
            if let Some(w) = solved.congruence(&def, lo, hi) {
                let mut w = union(&w, &[y]);
                w.dedup();
                conflict = Some(w);
                break;
            }
        }
    }
    match conflict {
        None => Ok(()),
        Some(vars) => {
            inc.conflicts += 1;
            let vars = minimise(sx, defs, vars);
            Err(sx.bound_lits(&vars))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Value of `Σ terms + c` under `val` (None: a column without a value).
    fn eval(e: &Eq, val: &dyn Fn(u32) -> i128) -> i128 {
        e.terms.iter().map(|t| t.1 * val(t.0)).sum::<i128>() + e.c
    }

    /// A solution of the solved form: unsolved columns 0, solved ones back-substituted (the
    /// list is triangular, so from the end).
    fn witness(s: &Solved) -> std::collections::HashMap<u32, i128> {
        let mut val = std::collections::HashMap::new();
        for (c, def) in s.sols.iter().rev() {
            let v = eval(def, &|x| val.get(&x).copied().unwrap_or(0));
            val.insert(*c, v);
        }
        val
    }

    fn system() -> impl Strategy<Value = Vec<(Vec<i128>, i128)>> {
        prop::collection::vec((prop::collection::vec(-6i128..=6, 4), -12i128..=12), 1..=4)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Equations over four unbounded integer columns: consistent systems get a solution
        /// that satisfies every equation; a conflict's equations have no integer solution in a
        /// box (checked by enumeration) and the conflict names only equations that were added.
        #[test]
        fn solved_form_matches_enumeration(sys in system()) {
            let mut s = Solved::new();
            let mut added = Vec::new();
            let mut conflict = None;
            for (i, (a, c)) in sys.iter().enumerate() {
                let terms: Vec<(u32, i128)> = a
                    .iter()
                    .enumerate()
                    .filter(|t| *t.1 != 0)
                    .map(|(j, a)| (j as u32, *a))
                    .collect();
                match s.add(Eq { terms, c: *c, why: vec![i as u32] }) {
                    Added::Ok => added.push(i),
                    Added::Conflict(e) => {
                        conflict = Some(e.why);
                        break;
                    }
                    Added::Overflow => return Ok(()),
                }
            }
            let holds = |x: &[i128], i: usize| {
                let (a, c) = &sys[i];
                a.iter().zip(x).map(|(a, x)| a * x).sum::<i128>() + c == 0
            };
            match conflict {
                None => {
                    let w = witness(&s);
                    let x: Vec<i128> = (0..4).map(|j| w.get(&j).copied().unwrap_or(0)).collect();
                    for &i in &added {
                        prop_assert!(holds(&x, i), "witness {:?} violates equation {}", x, i);
                    }
                }
                Some(why) => {
                    prop_assert!(!why.is_empty());
                    let r = -8i128..=8;
                    for x0 in r.clone() {
                        for x1 in r.clone() {
                            for x2 in r.clone() {
                                for x3 in r.clone() {
                                    let x = [x0, x1, x2, x3];
                                    prop_assert!(
                                        why.iter().any(|&i| !holds(&x, i as usize)),
                                        "{:?} satisfies the conflict {:?}", x, why
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }

        /// Truncation restores the solved form: adding equations, truncating and re-adding gives
        /// the same solutions.
        #[test]
        fn truncate_restores(sys in system()) {
            let mk = |i: usize| {
                let (a, c) = &sys[i];
                Eq {
                    terms: a.iter().enumerate().filter(|t| *t.1 != 0).map(|(j, a)| (j as u32, *a)).collect(),
                    c: *c,
                    why: vec![i as u32],
                }
            };
            let mut s = Solved::new();
            if !matches!(s.add(mk(0)), Added::Ok) {
                return Ok(());
            }
            let (len, sigma) = (s.sols.len(), s.next_sigma);
            let before: Vec<(u32, Eq)> = s.sols.clone();
            for i in 1..sys.len() {
                let _ = s.add(mk(i));
            }
            s.truncate(len, sigma);
            let after: Vec<(u32, Eq)> = s.sols.clone();
            prop_assert_eq!(format!("{before:?}"), format!("{after:?}"));
            for c in 0..4u32 {
                let solved = s.sols.iter().any(|(x, _)| *x == c);
                prop_assert_eq!(s.sol(c).is_some(), solved);
            }
        }
    }
}
