//! Linear Diophantine equation solving over the tableau, for the integer extension ("branch and
//! cut", Section 6) of Dutertre & de Moura, "A Fast Linear-Arithmetic Solver for DPLL(T)"
//! (CAV 2006). The equation handling follows Griggio, "A Practical Approach to Satisfiability
//! Modulo Linear Integer Arithmetic" (JSAT 8, 2012), Section 4, which is what Yices does.
//!
//! The equations are the tableau rows `x_b − Σ a_j x_j = 0` whose variables are all integers,
//! with every fixed variable (lower bound = upper bound) replaced by its value; each equation
//! remembers the fixed variables it used (its reasons). They are solved by integer Gaussian
//! elimination: an equation is divided by the gcd of its coefficients (if the gcd does not divide
//! the constant, the reasons are inconsistent over the integers); a variable with coefficient ±1
//! is solved for and substituted everywhere; otherwise the variable `x_k` with the least
//! coefficient `a_k > 0` is replaced by a fresh variable `σ` through the unimodular change
//! `x_k = σ − Σ_{j≠k} ⌊a_j/a_k⌋ x_j − ⌊c/a_k⌋`, which shrinks the equation's coefficients to
//! their residues modulo `a_k`.
//!
//! When the equations are solvable, every solved variable `x` has the parametric form
//! `x = Σ b_k σ_k + d`, so `x ≡ d (mod g)` with `g = gcd(b_k)`: if no such value lies between the
//! bounds of `x`, those bounds and the reasons of the form are inconsistent (this closes
//! problems like `t = 2^16·k, 1 ≤ t ≤ 2^16 − 1` at once, where branch and bound enumerates).
//!
//! Conflicts are integer lemmas: valid for every integer point but not rational consequences, so
//! they carry no Farkas certificate; `--check` still validates every model.

pub(crate) mod incremental;

use crate::gcd::{int_lower, int_upper};
use crate::simplex::{Simplex, NONE};
use verikit_num::Num;
use verikit_sat::Lit;

/// `Σ terms + c = 0` (or, for a solution of `x`, `x = Σ terms + c`), with the fixed variables
/// whose values it used, both sorted.
#[derive(Clone, Debug)]
pub(crate) struct Eq {
    pub(crate) terms: Vec<(u32, i128)>,
    pub(crate) c: i128,
    pub(crate) why: Vec<u32>,
}

pub(crate) fn gcd(a: i128, b: i128) -> i128 {
    let (a, b) = (a.unsigned_abs(), b.unsigned_abs());
    if a <= u64::MAX as u128 && b <= u64::MAX as u128 {
        let (mut a, mut b) = (a as u64, b as u64);
        while b != 0 {
            let t = a % b;
            a = b;
            b = t;
        }
        return a as i128;
    }
    let (mut a, mut b) = (a as i128, b as i128);
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

pub(crate) fn union(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if j == b.len() || (i < a.len() && a[i] < b[j]) {
            out.push(a[i]);
            i += 1;
        } else if i == a.len() || b[j] < a[i] {
            out.push(b[j]);
            j += 1;
        } else {
            out.push(a[i]);
            i += 1;
            j += 1;
        }
    }
    out
}

/// Coefficient magnitude bound: past it the test gives up (it is an optimisation only).
pub(crate) const LIMIT: i128 = 1 << 100;

impl Eq {
    /// Replaces `x` by `def` (`x = Σ def.terms + def.c`); true if `x` occurred. None on
    /// overflow.
    pub(crate) fn substitute(&mut self, x: u32, def: &Eq) -> Option<bool> {
        let p = match self.terms.binary_search_by_key(&x, |t| t.0) {
            Ok(p) => p,
            Err(_) => return Some(false),
        };
        let a = self.terms.remove(p).1;
        let mut out = Vec::with_capacity(self.terms.len() + def.terms.len());
        let (mut i, mut j) = (0, 0);
        let (s, d) = (&self.terms, &def.terms);
        while i < s.len() || j < d.len() {
            if j == d.len() || (i < s.len() && s[i].0 < d[j].0) {
                out.push(s[i]);
                i += 1;
            } else {
                let v = a.checked_mul(d[j].1)?;
                if i < s.len() && s[i].0 == d[j].0 {
                    let w = s[i].1.checked_add(v)?;
                    if w != 0 {
                        out.push((s[i].0, w));
                    }
                    i += 1;
                } else {
                    out.push((d[j].0, v));
                }
                j += 1;
            }
        }
        if out.iter().any(|t| t.1.abs() > LIMIT) {
            return None;
        }
        self.terms = out;
        self.c = self.c.checked_add(a.checked_mul(def.c)?)?;
        if !def.why.is_empty() {
            self.why = union(&self.why, &def.why);
        }
        Some(true)
    }
}

/// Outcome of the solver.
enum Outcome {
    Consistent,
    /// Variables whose bounds are inconsistent.
    Conflict(Vec<u32>),
    /// `x ≡ d (mod g)` given the fixed variables, and `β(x)` lies strictly between the
    /// consecutive members `a` and `a + g` of that class.
    Branch {
        x: u32,
        a: i128,
        g: i128,
        why: Vec<u32>,
    },
}

/// What the Diophantine test found.
pub(crate) enum DiophResult {
    /// True bound literals that are inconsistent over the integers.
    Conflict(Vec<Lit>),
    /// The lemma `why ⇒ x ≤ a ∨ x ≥ a + g` (branch and bound in the solved space), whose
    /// current assignment satisfies neither side.
    Branch {
        x: u32,
        a: Num,
        g: Num,
        why: Vec<Lit>,
    },
}

pub(crate) fn to_int(n: &Num) -> Option<i128> {
    match n {
        Num::S(a, 1) => Some(*a as i128),
        _ => None,
    }
}

impl Simplex {
    /// The integer equations of the tableau (fixed variables substituted). None if a number does
    /// not fit.
    fn int_equations(&self, max_rows: usize, drop: &[bool]) -> Option<Vec<Eq>> {
        let n = self.beta.len();
        let mut fixed: Vec<Option<i128>> = vec![None; n];
        for (x, f) in fixed.iter_mut().enumerate() {
            if drop[x] {
                continue;
            }
            if let (Some(l), Some(u)) = (&self.lower[x], &self.upper[x]) {
                if self.is_int[x] {
                    // integer bounds without δ (the usual case) are compared in machine words
                    if let (Num::S(a, 1), Num::S(0, _), Num::S(b, 1), Num::S(0, _)) =
                        (&l.val.c, &l.val.k, &u.val.c, &u.val.k)
                    {
                        if a == b {
                            *f = Some(*a as i128);
                        }
                        continue;
                    }
                    let (l, u) = (int_lower(&l.val), int_upper(&u.val));
                    if l == u {
                        *f = Some(to_int(&l)?);
                    }
                }
            }
        }
        let mut eqs = Vec::new();
        for (r, row) in self.rows.iter().enumerate() {
            let b = self.basic_of[r];
            if b == NONE
                || !self.is_int[b as usize]
                || row.iter().any(|(x, _)| !self.is_int[*x as usize])
            {
                continue;
            }
            if eqs.len() >= max_rows {
                return None;
            }
            let mut den: i128 = 1;
            for (_, a) in row {
                if let Num::S(_, d) = a {
                    if *d != 1 {
                        let d = *d as i128;
                        den = den.checked_mul(d / gcd(den, d))?;
                    }
                } else {
                    return None;
                }
            }
            let mut e = Eq {
                terms: Vec::with_capacity(row.len() + 1),
                c: 0,
                why: Vec::new(),
            };
            for (x, a) in row
                .iter()
                .map(|(x, a)| (*x, a.clone()))
                .chain(std::iter::once((b, Num::int(-1))))
            {
                let (p, d) = match a {
                    Num::S(p, d) => (p as i128, d as i128),
                    Num::B(_) => return None,
                };
                let c = if den == d { p } else { p.checked_mul(den / d)? };
                match fixed[x as usize] {
                    Some(v) => {
                        e.c = e.c.checked_add(c.checked_mul(v)?)?;
                        e.why.push(x);
                    }
                    None => e.terms.push((x, c)),
                }
            }
            e.terms.sort_unstable_by_key(|t| t.0);
            e.why.sort_unstable();
            eqs.push(e);
        }
        Some(eqs)
    }

    /// Solves the integer equations of the tableau and checks the bounds of the solved
    /// variables against their congruences. Conflicts are minimised (deletion-based) when the
    /// tableau has at most `max_min_rows` integer rows.
    pub(crate) fn diophantine_test(
        &self,
        max_rows: usize,
        max_steps: usize,
        max_min_rows: usize,
    ) -> Option<DiophResult> {
        let drop = vec![false; self.beta.len()];
        let eqs = self.int_equations(max_rows, &drop)?;
        if eqs.is_empty() {
            return None;
        }
        let small = eqs.len() <= max_min_rows;
        match self.solve(eqs, max_steps, &drop)? {
            Outcome::Consistent => None,
            Outcome::Conflict(vars) => {
                let vars = if small {
                    self.minimise(vars, max_rows, max_steps)
                } else {
                    vars
                };
                Some(DiophResult::Conflict(self.bound_lits(&vars)))
            }
            Outcome::Branch { x, a, g, why } => Some(DiophResult::Branch {
                x,
                a: Num::int(i64::try_from(a).ok()?),
                g: Num::int(i64::try_from(g).ok()?),
                why: self.bound_lits(&why),
            }),
        }
    }

    /// Deletion-based minimisation of a conflict (variables whose bounds are inconsistent over
    /// the integers): every bound outside the set is ignored, then each member is dropped in
    /// turn and kept out if the rest is still inconsistent. Returns `vars` itself if the
    /// Diophantine solver cannot show the set inconsistent (e.g. an extended-GCD conflict).
    pub(crate) fn minimise(&self, vars: Vec<u32>, max_rows: usize, max_steps: usize) -> Vec<u32> {
        let mut drop = vec![true; self.beta.len()];
        for &x in &vars {
            drop[x as usize] = false;
        }
        let conflict = |drop: &[bool]| -> Option<Vec<u32>> {
            let eqs = self.int_equations(max_rows, drop)?;
            match self.solve(eqs, max_steps, drop)? {
                Outcome::Conflict(v) => Some(v),
                _ => None,
            }
        };
        let mut cur = match conflict(&drop) {
            Some(c) => c,
            None => return vars,
        };
        // Members found necessary stay necessary in every subset (inconsistency is monotone).
        let mut needed: Vec<u32> = Vec::new();
        while let Some(&x) = cur.iter().find(|y| !needed.contains(y)) {
            for d in drop.iter_mut() {
                *d = true;
            }
            for &y in &cur {
                drop[y as usize] = false;
            }
            drop[x as usize] = true;
            match conflict(&drop) {
                Some(c) => cur = c,
                None => needed.push(x),
            }
        }
        cur
    }

    fn solve(&self, mut eqs: Vec<Eq>, max_steps: usize, drop: &[bool]) -> Option<Outcome> {
        let mut next = self.beta.len() as u32;
        let mut sols: Vec<(u32, Eq)> = Vec::new();
        let mut steps = 0usize;
        // Least coefficient magnitude of each equation once normalised (0: to normalise).
        let mut least: Vec<i128> = vec![0; eqs.len()];
        let mut alive: Vec<bool> = vec![true; eqs.len()];
        loop {
            steps += 1;
            if steps > max_steps {
                return None;
            }
            let mut best: Option<(usize, i128, usize)> = None;
            for i in 0..eqs.len() {
                if !alive[i] {
                    continue;
                }
                let e = &mut eqs[i];
                if least[i] == 0 {
                    if e.terms.is_empty() {
                        if e.c != 0 {
                            return Some(Outcome::Conflict(std::mem::take(&mut e.why)));
                        }
                        alive[i] = false;
                        continue;
                    }
                    let g = e.terms.iter().fold(0, |g, t| gcd(g, t.1));
                    if e.c % g != 0 {
                        return Some(Outcome::Conflict(std::mem::take(&mut e.why)));
                    }
                    if g > 1 {
                        for t in e.terms.iter_mut() {
                            t.1 /= g;
                        }
                        e.c /= g;
                    }
                    least[i] = e.terms.iter().map(|t| t.1.abs()).min().unwrap_or(1);
                }
                let key = (least[i], e.terms.len());
                if best.is_none_or(|(_, bm, bl)| key < (bm, bl)) {
                    best = Some((i, key.0, key.1));
                }
            }
            let (i, m) = match best {
                Some((i, m, _)) => (i, m),
                None => break,
            };
            let (k, ak) = match eqs[i].terms.iter().find(|t| t.1.abs() == m) {
                Some(t) => *t,
                None => return None,
            };
            let (x, def) = if m == 1 {
                // x_k = −(c + Σ_{j≠k} a_j x_j) / a_k, a_k = ±1.
                alive[i] = false;
                let e = std::mem::replace(
                    &mut eqs[i],
                    Eq {
                        terms: Vec::new(),
                        c: 0,
                        why: Vec::new(),
                    },
                );
                let s = -ak;
                let def = Eq {
                    terms: e
                        .terms
                        .iter()
                        .filter(|t| t.0 != k)
                        .map(|t| (t.0, t.1 * s))
                        .collect(),
                    c: e.c.checked_mul(s)?,
                    why: e.why,
                };
                (k, def)
            } else {
                // a_k x_k + Σ a_j x_j + c = 0 with a_k > 0 (after negation):
                // x_k = σ − Σ ⌊a_j/a_k⌋ x_j − ⌊c/a_k⌋.
                let s = if ak < 0 { -1 } else { 1 };
                let a = ak * s;
                let sigma = next;
                next = next.checked_add(1)?;
                let def = sigma_definition(&eqs[i], k, s, a, sigma)?;
                (k, def)
            };
            for (j, e) in eqs.iter_mut().enumerate() {
                if alive[j] && e.substitute(x, &def)? {
                    least[j] = 0;
                }
            }
            sols.push((x, def));
        }
        // Back-substitution: a solution mentions only variables eliminated after it, whose
        // own solutions are final by then.
        let mut pos: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
        for (i, (x, _)) in sols.iter().enumerate() {
            pos.insert(*x, i);
        }
        for i in (0..sols.len()).rev() {
            let later: Vec<usize> = sols[i]
                .1
                .terms
                .iter()
                .filter_map(|t| pos.get(&t.0).copied())
                .filter(|&j| j > i)
                .collect();
            for j in later {
                let (y, def) = (sols[j].0, sols[j].1.clone());
                sols[i].1.substitute(y, &def)?;
            }
        }
        // Congruences of the solved variables against their bounds and values.
        let n = self.beta.len() as u32;
        let mut branch: Option<Outcome> = None;
        for (x, s) in &sols {
            if *x >= n {
                continue;
            }
            let g = s.terms.iter().fold(0, |g, t| gcd(g, t.1));
            if g == 1 {
                continue;
            }
            if branch.is_none() && g > 1 {
                let v = &self.beta[*x as usize];
                if let Some(c) = to_int(&v.c.floor()) {
                    // a = the greatest member of the class ≤ ⌊β(x)⌋.
                    let a = c - (c - s.c).rem_euclid(g);
                    if a != c || !v.c.is_integer() || !v.k.is_zero() {
                        branch = Some(Outcome::Branch {
                            x: *x,
                            a,
                            g,
                            why: s.why.clone(),
                        });
                    }
                }
            }
            if drop[*x as usize] {
                continue;
            }
            let (lo, hi) = self.int_bounds(*x);
            if lo.is_none() && hi.is_none() {
                continue;
            }
            let lo = match lo {
                Some(l) => Some(to_int(&l)?),
                None => None,
            };
            let hi = match hi {
                Some(h) => Some(to_int(&h)?),
                None => None,
            };
            // The least value ≥ lo in the class of c (or c itself when g = 0).
            let empty = if g == 0 {
                lo.is_some_and(|l| s.c < l) || hi.is_some_and(|h| s.c > h)
            } else {
                match (lo, hi) {
                    (Some(l), Some(h)) => {
                        let first = l + (s.c - l).rem_euclid(g);
                        first > h
                    }
                    _ => false,
                }
            };
            if empty {
                let mut vars = s.why.clone();
                vars.push(*x);
                vars.sort_unstable();
                vars.dedup();
                return Some(Outcome::Conflict(vars));
            }
        }
        Some(branch.unwrap_or(Outcome::Consistent))
    }
}
/// Griggio's change of variables for the equation `e` on its variable `k`, whose coefficient is
/// `s·a` (`s` = ±1, `a` > 1 the least absolute coefficient): `x_k = σ − Σ_{j≠k} ⌊s·a_j/a⌋ x_j −
/// ⌊s·c/a⌋` with the fresh variable `σ`. A definition, so it has no reasons; `None` when `s·c`
/// does not fit.
pub(crate) fn sigma_definition(e: &Eq, k: u32, s: i128, a: i128, sigma: u32) -> Option<Eq> {
    let c = e.c.checked_mul(s)?;
    let mut terms: Vec<(u32, i128)> = e
        .terms
        .iter()
        .filter(|t| t.0 != k)
        .map(|t| (t.0, -(t.1 * s).div_euclid(a)))
        .filter(|t| t.1 != 0)
        .collect();
    terms.push((sigma, 1));
    Some(Eq {
        terms,
        c: -c.div_euclid(a),
        why: Vec::new(),
    })
}
