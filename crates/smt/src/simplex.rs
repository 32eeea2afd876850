//! The general simplex of Dutertre & de Moura, "A Fast Linear-Arithmetic Solver for DPLL(T)"
//! (CAV 2006), Section 4: a fixed tableau `x_b = Σ a_bj x_j` built once from the slack
//! definitions, bounds `l_j ≤ x_j ≤ u_j` asserted and retracted by the SAT search, and an
//! assignment β that always satisfies the tableau and keeps every non-basic variable within its
//! bounds.
//!
//! * `assert_upper`/`assert_lower` (Fig. 4): O(1) conflict detection against the opposite bound;
//!   non-basic variables are moved to the new bound (`update`).
//! * `check` (Fig. 3): repairs violated basic variables by pivoting — leaving variable by Bland's
//!   rule (smallest index), entering variable with the sparsest column (ties: the smallest
//!   coefficient, which keeps numbers on the 64-bit path) for a bounded number of
//!   pivots, then by Bland's rule (the paper's anti-cycling strategy) — and, when a row cannot be
//!   repaired, returns the minimal explanation (the row's bounds) with its Farkas coefficients of
//!   the shortest infeasible row among the violated ones (a shorter conflict is a stronger
//!   learned clause). Basic variables fixed at level 0 (slacks of asserted equations) are pivoted
//!   out once before the search.
//! * Backtracking restores bounds only; the tableau and β stay (Section 4.4).
//! * Values are δ-rationals (Section 5), and `delta` computes a concrete δ for models.
//! * Preprocessing (Section 3): `eliminate` removes, by Gaussian elimination, variables that
//!   occur in no elementary atom (they are free, so the row that defines them is always
//!   satisfiable and can be dropped); an eliminated variable keeps its definition over the
//!   remaining variables for models and is put back as a basic variable if an atom on it
//!   appears later (incremental use).

use rustc_hash::FxHashSet;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use verikit_num::{DRat, Num};
use verikit_sat::Lit;

/// A set of variables popped smallest first: a binary heap with a membership flag per variable
/// (cheaper than an ordered tree for the many inserts of `update`).
#[derive(Default)]
pub(crate) struct DirtySet {
    heap: BinaryHeap<Reverse<u32>>,
    member: Vec<bool>,
}

impl DirtySet {
    fn insert(&mut self, x: u32) {
        let i = x as usize;
        if i >= self.member.len() {
            self.member.resize(i + 1, false);
        }
        if !self.member[i] {
            self.member[i] = true;
            self.heap.push(Reverse(x));
        }
    }
    fn pop_first(&mut self) -> Option<u32> {
        let Reverse(x) = self.heap.pop()?;
        if let Some(m) = self.member.get_mut(x as usize) {
            *m = false;
        }
        Some(x)
    }
}

pub(crate) const NONE: u32 = u32::MAX;

/// The rows in which a non-basic variable occurs, without duplicates. A hash set: its
/// iteration order decides the order in which bound refinement visits rows and so the order of
/// theory propagations; a plain list (5 % cheaper on pivot-heavy profiles) changed the search
/// enough to lose miplib vpm2-20 (3 033 theory conflicts → none solved in 60 s, decision 0227).
#[derive(Default, Clone, Debug)]
pub(crate) struct Col(FxHashSet<u32>);

impl Col {
    fn insert(&mut self, r: u32) {
        self.0.insert(r);
    }
    fn remove(&mut self, r: &u32) {
        self.0.remove(r);
    }
    pub(crate) fn iter(&self) -> std::collections::hash_set::Iter<'_, u32> {
        self.0.iter()
    }
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'a> IntoIterator for &'a Col {
    type Item = &'a u32;
    type IntoIter = std::collections::hash_set::Iter<'a, u32>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Bound {
    pub val: DRat,
    /// The literal that asserted the bound.
    pub lit: Lit,
}

/// A theory explanation: literals with their Farkas coefficients (all positive).
pub(crate) type Explanation = Vec<(Lit, Num)>;

#[derive(Default)]
pub(crate) struct Simplex {
    pub is_int: Vec<bool>,
    /// Some variable is an integer (chooses the Bland budget).
    pub(crate) has_int: bool,
    pub(crate) rows: Vec<Vec<(u32, Num)>>,
    pub(crate) basic_of: Vec<u32>,
    pub(crate) row_of: Vec<u32>,
    pub(crate) cols: Vec<Col>,
    pub beta: Vec<DRat>,
    pub lower: Vec<Option<Bound>>,
    pub upper: Vec<Option<Bound>>,
    pub(crate) trail: Vec<(u32, bool, Option<Bound>)>,
    pub(crate) trail_lim: Vec<usize>,
    /// Basic variables that may violate a bound, smallest index first (Bland's rule).
    pub(crate) dirty: DirtySet,
    pub(crate) scratch: Vec<u32>,
    pub pivots: u64,
    /// Definitions of eliminated variables (Gaussian elimination), over variables still present.
    pub(crate) elim: Vec<Option<Vec<(u32, Num)>>>,
    pub(crate) elim_list: Vec<u32>,
    pub eliminated: u64,
    /// Give up `check` (reporting `interrupted`) after this instant.
    pub deadline: Option<std::time::Instant>,
    pub interrupted: bool,
    /// Length of the bound trail when fixed basic variables were last pivoted out at level 0.
    pub(crate) fixed_scan_at: usize,
}

/// Pivots of one `check` whose entering variable is the sparsest column before switching to
/// Bland's rule (anti-cycling), when every variable is real.
const BLAND_AFTER: u32 = 1000;

/// The same budget when some variable is an integer: the sparsest-column rule stalls on the
/// degenerate vertices of integer problems (decision 0222: QF_LIA 50 → 53 of 55 files at 20 s,
/// none worse), while the real-only families (clock_synchro) need the longer budget.
const BLAND_AFTER_INT: u32 = 100;

/// Size of a coefficient: the bits of its numerator and denominator (the machine-word path
/// holds both in 64 bits; a big rational counts beyond every machine-word one). Ties between
/// equally sparse entering columns go to the smallest pivot element: pivoting divides the row
/// by it and adds multiples of the row to the column's other rows, so a small element keeps
/// the tableau on the 64-bit path (decision 0204).
fn coeff_bits(a: &Num) -> u64 {
    match a {
        Num::S(n, d) => {
            u64::from(128 - n.unsigned_abs().leading_zeros() - d.unsigned_abs().leading_zeros())
        }
        Num::B(b) => 128 + b.numer().bits() + b.denom().bits(),
    }
}

impl Simplex {
    #[cfg(test)]
    pub(crate) fn new() -> Simplex {
        Simplex::default()
    }
    pub(crate) fn num_vars(&self) -> usize {
        self.beta.len()
    }
    pub(crate) fn new_var(&mut self, is_int: bool) -> u32 {
        let v = self.beta.len() as u32;
        self.is_int.push(is_int);
        self.has_int |= is_int;
        self.row_of.push(NONE);
        self.cols.push(Col::default());
        self.beta.push(DRat::zero());
        self.lower.push(None);
        self.upper.push(None);
        self.scratch.push(NONE);
        self.elim.push(None);
        v
    }
    /// Number of rows and of non-zero entries of the tableau (statistics).
    pub(crate) fn tableau_size(&self) -> (usize, usize) {
        let live = self.basic_of.iter().filter(|b| **b != NONE).count();
        (live, self.rows.iter().map(|r| r.len()).sum())
    }

    /// True before the first bound is asserted (nothing on the bound trail).
    pub(crate) fn no_bounds_asserted(&self) -> bool {
        self.trail.is_empty()
    }

    #[cfg(test)]
    pub(crate) fn is_eliminated(&self, x: u32) -> bool {
        self.elim[x as usize].is_some()
    }

    /// Current value of any variable (eliminated ones through their definitions).
    pub(crate) fn value(&self, x: u32) -> DRat {
        match &self.elim[x as usize] {
            None => self.beta[x as usize].clone(),
            Some(def) => {
                let mut v = DRat::zero();
                for (y, c) in def {
                    v = v.add(&self.beta[*y as usize].scale(c));
                }
                v
            }
        }
    }

    /// Gaussian elimination of the free variables `candidates` (variables with no bound now and
    /// no atom, Section 3 of the paper): repeatedly picks a candidate whose elimination creates
    /// at most `max_fill` new non-zeros (Markowitz estimate), solves its sparsest row for it,
    /// substitutes it into the other rows and drops that row. Call it before any bound is
    /// asserted. Returns the number of variables eliminated.
    pub(crate) fn eliminate(&mut self, candidates: &[u32], max_fill: usize) -> usize {
        let mut done = 0;
        // Stop once the tableau has grown by half (elimination usually shrinks it).
        let nnz0 = self.tableau_size().1;
        let mut nnz = nnz0;
        let cap = nnz0 + nnz0 / 2 + 64;
        let mut progress = true;
        while progress {
            progress = false;
            for &x in candidates {
                let xi = x as usize;
                if self.elim[xi].is_some()
                    || self.row_of[xi] != NONE
                    || self.lower[xi].is_some()
                    || self.upper[xi].is_some()
                    || self.cols[xi].is_empty()
                {
                    continue;
                }
                let r = match self.cols[xi]
                    .iter()
                    .min_by_key(|r| (self.rows[**r as usize].len(), **r))
                {
                    Some(r) => *r as usize,
                    None => continue,
                };
                let fill = (self.cols[xi].len() - 1) * (self.rows[r].len() - 1);
                if fill > max_fill {
                    continue;
                }
                let a = match self.coef_in_row(r, x) {
                    Some(a) => a.clone(),
                    None => continue,
                };
                if nnz + fill > cap {
                    continue;
                }
                let s = self.basic_of[r];
                let touched: Vec<u32> = self.cols[xi].iter().copied().collect();
                let before: usize = touched.iter().map(|t| self.rows[*t as usize].len()).sum();
                // x becomes basic in row r (substituted everywhere else) ...
                self.pivot(r, s, x, &a);
                self.pivots -= 1;
                // ... and the row leaves the tableau as x's definition.
                let def = std::mem::take(&mut self.rows[r]);
                for (y, _) in &def {
                    self.cols[*y as usize].remove(&(r as u32));
                }
                self.basic_of[r] = NONE;
                self.row_of[xi] = NONE;
                let after: usize = touched.iter().map(|t| self.rows[*t as usize].len()).sum();
                nnz = (nnz + after).saturating_sub(before);
                for &z in &self.elim_list {
                    let zd = match self.elim[z as usize].as_mut() {
                        Some(d) => d,
                        None => continue,
                    };
                    if let Some(p) = zd.iter().position(|(y, _)| *y == x) {
                        let (_, c) = zd.swap_remove(p);
                        for (y, d) in &def {
                            match zd.iter_mut().find(|(w, _)| w == y) {
                                Some(e) => e.1 = e.1.add(&c.mul(d)),
                                None => zd.push((*y, c.mul(d))),
                            }
                        }
                        zd.retain(|(_, c)| !c.is_zero());
                    }
                }
                self.beta[xi] = DRat::zero();
                self.elim[xi] = Some(def);
                self.elim_list.push(x);
                self.eliminated += 1;
                done += 1;
                progress = true;
            }
        }
        done
    }

    /// Puts an eliminated variable back into the tableau as a basic variable (an atom on it
    /// appeared). No-op for other variables.
    pub(crate) fn restore(&mut self, x: u32) {
        let def = match self.elim[x as usize].take() {
            Some(d) => d,
            None => return,
        };
        self.elim_list.retain(|z| *z != x);
        self.install_row(x, &def);
        self.eliminated -= 1;
    }

    /// Makes `x` basic with the row `x = Σ a_y y`, each basic `y` replaced by its own row, and
    /// sets `β(x)` from the current assignment.
    fn install_row(&mut self, x: u32, def: &[(u32, Num)]) {
        let mut row: Vec<(u32, Num)> = Vec::new();
        let mut val = DRat::zero();
        for (y, a) in def {
            let r = self.row_of[*y as usize];
            if r == NONE {
                add_into(&mut row, &mut self.scratch, *y, a.clone());
            } else {
                for (z, b) in &self.rows[r as usize] {
                    add_into(&mut row, &mut self.scratch, *z, a.mul(b));
                }
            }
            val = val.add(&self.beta[*y as usize].scale(a));
        }
        for (y, _) in &row {
            self.scratch[*y as usize] = NONE;
        }
        row.retain(|(_, c)| !c.is_zero());
        let r = self.rows.len() as u32;
        for (y, _) in &row {
            self.cols[*y as usize].insert(r);
        }
        self.rows.push(row);
        self.basic_of.push(x);
        self.row_of[x as usize] = r;
        self.beta[x as usize] = val;
    }
    #[cfg(test)]
    pub(crate) fn is_basic(&self, x: u32) -> bool {
        self.row_of[x as usize] != NONE
    }

    /// Adds a slack `s = Σ a_j x_j` over existing variables (basic or not: basic ones are
    /// substituted by their rows). Returns the slack's variable.
    pub(crate) fn add_row(&mut self, def: &[(u32, Num)], is_int: bool) -> u32 {
        let s = self.new_var(is_int);
        let mut expanded: Vec<(u32, Num)> = Vec::with_capacity(def.len());
        for (x, a) in def {
            match &self.elim[*x as usize] {
                None => expanded.push((*x, a.clone())),
                Some(d) => expanded.extend(d.iter().map(|(y, b)| (*y, a.mul(b)))),
            }
        }
        self.install_row(s, &expanded);
        s
    }

    pub(crate) fn push_level(&mut self) {
        self.trail_lim.push(self.trail.len());
    }
    pub(crate) fn pop_levels(&mut self, n: u32) {
        if n == 0 {
            return;
        }
        let keep = self.trail_lim.len().saturating_sub(n as usize);
        let lim = self.trail_lim.get(keep).copied().unwrap_or(0);
        self.trail_lim.truncate(keep);
        while self.trail.len() > lim {
            if let Some((x, up, old)) = self.trail.pop() {
                if up {
                    self.upper[x as usize] = old;
                } else {
                    self.lower[x as usize] = old;
                }
            }
        }
    }

    fn violated(&self, x: u32) -> bool {
        let b = &self.beta[x as usize];
        if let Some(l) = &self.lower[x as usize] {
            if *b < l.val {
                return true;
            }
        }
        if let Some(u) = &self.upper[x as usize] {
            if *b > u.val {
                return true;
            }
        }
        false
    }

    /// AssertUpper: `x ≤ c` because of `lit`. Err: conflict with the lower bound.
    pub(crate) fn assert_upper(&mut self, x: u32, c: DRat, lit: Lit) -> Result<bool, Explanation> {
        let xi = x as usize;
        if let Some(u) = &self.upper[xi] {
            if c >= u.val {
                return Ok(false);
            }
        }
        if let Some(l) = &self.lower[xi] {
            if c < l.val {
                return Err(vec![(lit, Num::ONE), (l.lit, Num::ONE)]);
            }
        }
        let old = self.upper[xi].replace(Bound {
            val: c.clone(),
            lit,
        });
        self.trail.push((x, true, old));
        if self.row_of[xi] == NONE {
            if self.beta[xi] > c {
                self.update(x, c);
            }
        } else {
            self.dirty.insert(x);
        }
        Ok(true)
    }

    /// AssertLower: `x ≥ c` because of `lit`.
    pub(crate) fn assert_lower(&mut self, x: u32, c: DRat, lit: Lit) -> Result<bool, Explanation> {
        let xi = x as usize;
        if let Some(l) = &self.lower[xi] {
            if c <= l.val {
                return Ok(false);
            }
        }
        if let Some(u) = &self.upper[xi] {
            if c > u.val {
                return Err(vec![(lit, Num::ONE), (u.lit, Num::ONE)]);
            }
        }
        let old = self.lower[xi].replace(Bound {
            val: c.clone(),
            lit,
        });
        self.trail.push((x, false, old));
        if self.row_of[xi] == NONE {
            if self.beta[xi] < c {
                self.update(x, c);
            }
        } else {
            self.dirty.insert(x);
        }
        Ok(true)
    }

    /// Sets non-basic `x` to `v`, adjusting the basic variables.
    fn update(&mut self, x: u32, v: DRat) {
        let diff = v.sub(&self.beta[x as usize]);
        let col = std::mem::take(&mut self.cols[x as usize]);
        for &r in &col {
            let r = r as usize;
            let b = self.basic_of[r];
            if let Some((_, a)) = self.rows[r].iter().find(|(y, _)| *y == x) {
                let d = diff.scale(a);
                self.beta[b as usize] = self.beta[b as usize].add(&d);
                self.dirty.insert(b);
            }
        }
        self.cols[x as usize] = col;
        self.beta[x as usize] = v;
    }

    fn coef_in_row(&self, r: usize, x: u32) -> Option<&Num> {
        self.rows[r].iter().find(|(y, _)| *y == x).map(|(_, a)| a)
    }

    /// Pivots basic `xi` with non-basic `xj` and sets `xi` to `v`.
    fn pivot_and_update(&mut self, xi: u32, xj: u32, v: DRat) {
        let r = self.row_of[xi as usize] as usize;
        let a = match self.coef_in_row(r, xj) {
            Some(a) => a.clone(),
            None => return,
        };
        let theta = v.sub(&self.beta[xi as usize]).scale(&a.recip());
        self.beta[xi as usize] = v;
        self.beta[xj as usize] = self.beta[xj as usize].add(&theta);
        let col = std::mem::take(&mut self.cols[xj as usize]);
        for &s in &col {
            let s = s as usize;
            if s == r {
                continue;
            }
            let b = self.basic_of[s];
            if let Some(c) = self.coef_in_row(s, xj) {
                let d = theta.scale(c);
                self.beta[b as usize] = self.beta[b as usize].add(&d);
                self.dirty.insert(b);
            }
        }
        self.cols[xj as usize] = col;
        self.pivot(r, xi, xj, &a);
        self.dirty.insert(xj);
    }

    fn pivot(&mut self, r: usize, xi: u32, xj: u32, a: &Num) {
        self.pivots += 1;
        // New row r: xj = (1/a) xi - Σ (c/a) x_k.
        let inv = a.recip();
        let old = std::mem::take(&mut self.rows[r]);
        let mut nr = Vec::with_capacity(old.len());
        for (x, c) in old {
            if x == xj {
                continue;
            }
            nr.push((x, c.mul(&inv).into_neg()));
        }
        nr.push((xi, inv));
        self.cols[xj as usize].remove(&(r as u32));
        self.cols[xi as usize].insert(r as u32);
        // Substitute into the other rows containing xj.
        let others = std::mem::take(&mut self.cols[xj as usize]);
        for &s in &others {
            let s = s as usize;
            let row = std::mem::take(&mut self.rows[s]);
            let mut row = row;
            let pos = match row.iter().position(|(y, _)| *y == xj) {
                Some(p) => p,
                None => {
                    self.rows[s] = row;
                    continue;
                }
            };
            let (_, b) = row.swap_remove(pos);
            // At most one reallocation for the fill-in of this row.
            row.reserve(nr.len());
            for (k, (y, _)) in row.iter().enumerate() {
                self.scratch[*y as usize] = k as u32;
            }
            for (y, c) in &nr {
                let p = self.scratch[*y as usize];
                if p != NONE {
                    let e = &mut row[p as usize].1;
                    *e = e.add(&b.mul(c));
                } else {
                    self.scratch[*y as usize] = row.len() as u32;
                    row.push((*y, b.mul(c)));
                    self.cols[*y as usize].insert(s as u32);
                }
            }
            for (y, _) in row.iter() {
                self.scratch[*y as usize] = NONE;
            }
            let mut k = 0;
            while k < row.len() {
                if row[k].1.is_zero() {
                    let (y, _) = row.swap_remove(k);
                    self.cols[y as usize].remove(&(s as u32));
                } else {
                    k += 1;
                }
            }
            self.rows[s] = row;
        }
        // xj no longer occurs in any row as a non-basic variable.
        self.rows[r] = nr;
        self.basic_of[r] = xj;
        self.row_of[xj as usize] = r as u32;
        self.row_of[xi as usize] = NONE;
    }

    /// True if `x` has equal lower and upper bounds.
    fn is_fixed(&self, x: u32) -> bool {
        match (&self.lower[x as usize], &self.upper[x as usize]) {
            (Some(l), Some(u)) => l.val == u.val,
            _ => false,
        }
    }

    /// Pivots every basic variable fixed by its bounds (`l = u`, typically the slack of an
    /// asserted equation `Σ a x = c`) out of the basis, in favour of a non-fixed variable of its
    /// row with the fewest column entries. A fixed basic variable is repaired only by pivoting
    /// it out, so doing it once for all of them before the search starts replaces a long series
    /// of Bland pivots; afterwards the fixed variables never re-enter (they cannot move). This is
    /// how a solver that adds asserted equations as tableau rows without slacks starts (the rows
    /// are then `x_b = Σ …` over the equation's own variables). Run at decision level 0 only, when
    /// new bounds have been asserted there.
    fn pivot_out_fixed(&mut self) {
        let fixed: Vec<u32> = self
            .basic_of
            .iter()
            .copied()
            .filter(|&b| b != NONE && self.is_fixed(b))
            .collect();
        for xi in fixed {
            let r = self.row_of[xi as usize];
            if r == NONE {
                continue;
            }
            let r = r as usize;
            let mut best: Option<(usize, u32)> = None;
            for (xj, _) in &self.rows[r] {
                if self.is_fixed(*xj) {
                    continue;
                }
                let key = (self.cols[*xj as usize].len(), *xj);
                if best.is_none_or(|b| key < b) {
                    best = Some(key);
                }
            }
            let xj = match best {
                Some((_, xj)) => xj,
                None => continue,
            };
            let v = match &self.lower[xi as usize] {
                Some(l) => l.val.clone(),
                None => continue,
            };
            self.pivot_and_update(xi, xj, v);
        }
    }

    /// True if basic `x`, violating its lower (`below`) or upper bound, has a non-basic variable
    /// in its row that can move in the repairing direction.
    fn repairable(&self, r: usize, below: bool) -> bool {
        self.rows[r].iter().any(|(xj, a)| {
            let j = *xj as usize;
            if below == a.is_pos() {
                self.upper[j].as_ref().is_none_or(|u| self.beta[j] < u.val)
            } else {
                self.lower[j].as_ref().is_none_or(|l| self.beta[j] > l.val)
            }
        })
    }

    /// Among the infeasible rows (violated basic variables that no pivot can repair) — `r` of
    /// `xi` and those of the other violated variables waiting in the dirty set — the one with
    /// the fewest entries: its explanation is the shortest conflict the tableau shows now.
    fn shortest_infeasible_row(&self, r: usize, xi: u32, below: bool) -> (usize, u32, bool) {
        let mut best = (self.rows[r].len(), r, xi, below);
        for Reverse(x) in self.dirty.heap.iter() {
            let x = *x;
            let rx = self.row_of[x as usize];
            if x == xi || rx == NONE || self.rows[rx as usize].len() >= best.0 {
                continue;
            }
            let b = &self.beta[x as usize];
            let bel = self.lower[x as usize].as_ref().is_some_and(|l| *b < l.val);
            let abv = self.upper[x as usize].as_ref().is_some_and(|u| *b > u.val);
            if !(bel || abv) || self.repairable(rx as usize, bel) {
                continue;
            }
            best = (self.rows[rx as usize].len(), rx as usize, x, bel);
        }
        (best.1, best.2, best.3)
    }

    /// Check (Fig. 3 of the paper). Err: explanation of an infeasible row.
    pub(crate) fn check(&mut self) -> Result<(), Explanation> {
        if self.trail_lim.is_empty() && self.trail.len() != self.fixed_scan_at {
            self.fixed_scan_at = self.trail.len();
            self.pivot_out_fixed();
        }
        let mut local_pivots = 0u32;
        let bland_after = if self.has_int {
            BLAND_AFTER_INT
        } else {
            BLAND_AFTER
        };
        loop {
            // Leaving variable: the violated basic variable with the smallest index (Bland).
            let xi = loop {
                match self.dirty.pop_first() {
                    None => return Ok(()),
                    Some(x) => {
                        if self.row_of[x as usize] != NONE && self.violated(x) {
                            break x;
                        }
                    }
                }
            };
            let r = self.row_of[xi as usize] as usize;
            let below = match &self.lower[xi as usize] {
                Some(l) => self.beta[xi as usize] < l.val,
                None => false,
            };
            // Entering variable: Bland (smallest index) after a budget of sparsest-column choices
            // (ties: the smallest coefficient).
            let bland = local_pivots > bland_after;
            let mut best: Option<(u32, (usize, u64))> = None;
            for (xj, a) in &self.rows[r] {
                let j = *xj as usize;
                let can_inc = self.upper[j].as_ref().is_none_or(|u| self.beta[j] < u.val);
                let can_dec = self.lower[j].as_ref().is_none_or(|l| self.beta[j] > l.val);
                let ok = if below == a.is_pos() {
                    can_inc
                } else {
                    can_dec
                };
                if ok {
                    let key = if bland {
                        (*xj as usize, 0)
                    } else {
                        (self.cols[j].len(), coeff_bits(a))
                    };
                    match best {
                        Some((bx, bk)) if (bk, bx) <= (key, *xj) => {}
                        _ => best = Some((*xj, key)),
                    }
                }
            }
            match best {
                None => {
                    self.dirty.insert(xi);
                    let (r, xi, below) = self.shortest_infeasible_row(r, xi, below);
                    return Err(self.explain_row(r, xi, below));
                }
                Some((xj, _)) => {
                    let target = if below {
                        self.lower[xi as usize].as_ref().map(|b| b.val.clone())
                    } else {
                        self.upper[xi as usize].as_ref().map(|b| b.val.clone())
                    };
                    if let Some(t) = target {
                        self.pivot_and_update(xi, xj, t);
                        local_pivots += 1;
                        if local_pivots.is_multiple_of(64) {
                            if let Some(d) = self.deadline {
                                if std::time::Instant::now() >= d {
                                    self.interrupted = true;
                                    return Ok(());
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    fn explain_row(&self, r: usize, xi: u32, below: bool) -> Explanation {
        let mut out = Vec::with_capacity(self.rows[r].len() + 1);
        let own = if below {
            &self.lower[xi as usize]
        } else {
            &self.upper[xi as usize]
        };
        if let Some(b) = own {
            out.push((b.lit, Num::ONE));
        }
        for (xj, a) in &self.rows[r] {
            let j = *xj as usize;
            let use_upper = below == a.is_pos();
            let b = if use_upper {
                &self.upper[j]
            } else {
                &self.lower[j]
            };
            if let Some(b) = b {
                out.push((b.lit, a.abs()));
            }
        }
        out
    }

    /// A positive rational δ such that replacing the symbol δ by it keeps every bound satisfied
    /// (Section 5 of the paper).
    pub(crate) fn delta(&self) -> Num {
        let mut d = Num::ONE;
        for x in 0..self.beta.len() {
            let b = &self.beta[x];
            if let Some(l) = &self.lower[x] {
                // need l.c + l.k δ ≤ b.c + b.k δ
                if l.val.c < b.c && l.val.k > b.k {
                    let cand = b.c.sub(&l.val.c).div(&l.val.k.sub(&b.k));
                    if cand < d {
                        d = cand;
                    }
                }
            }
            if let Some(u) = &self.upper[x] {
                if b.c < u.val.c && b.k > u.val.k {
                    let cand = u.val.c.sub(&b.c).div(&b.k.sub(&u.val.k));
                    if cand < d {
                        d = cand;
                    }
                }
            }
        }
        d
    }

    /// Rows as (basic variable, entries), for cuts and tests.
    pub(crate) fn row_of_basic(&self, x: u32) -> Option<&[(u32, Num)]> {
        let r = self.row_of[x as usize];
        if r == NONE {
            None
        } else {
            Some(&self.rows[r as usize])
        }
    }
}

fn add_into(row: &mut Vec<(u32, Num)>, scratch: &mut [u32], x: u32, a: Num) {
    let p = scratch[x as usize];
    if p != NONE {
        let e = &mut row[p as usize].1;
        *e = e.add(&a);
    } else {
        scratch[x as usize] = row.len() as u32;
        row.push((x, a));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(x: i64) -> Num {
        Num::int(x)
    }

    #[test]
    fn infeasible_triangle_explained() {
        // s1 = x + y >= 4, x <= 1, y <= 2  -> infeasible
        let mut s = Simplex::new();
        let x = s.new_var(false);
        let y = s.new_var(false);
        let s1 = s.add_row(&[(x, n(1)), (y, n(1))], false);
        s.push_level();
        assert!(s.assert_upper(x, DRat::num(n(1)), Lit(0)).is_ok());
        assert!(s.assert_upper(y, DRat::num(n(2)), Lit(2)).is_ok());
        assert!(s.assert_lower(s1, DRat::num(n(4)), Lit(4)).is_ok());
        let e = s.check().unwrap_err();
        let mut lits: Vec<u32> = e.iter().map(|(l, _)| l.0).collect();
        lits.sort();
        assert_eq!(lits, vec![0, 2, 4]);
        s.pop_levels(1);
        s.push_level();
        assert!(s.assert_lower(s1, DRat::num(n(3)), Lit(4)).is_ok());
        assert!(s.assert_upper(x, DRat::num(n(1)), Lit(0)).is_ok());
        assert!(s.check().is_ok());
        let sum = s.beta[x as usize].add(&s.beta[y as usize]);
        assert_eq!(sum, s.beta[s1 as usize]);
        assert!(s.beta[s1 as usize] >= DRat::num(n(3)));
    }

    #[test]
    fn elimination_keeps_values_and_restores() {
        // s1 = x + y, s2 = x - z with x free: eliminating x leaves s2 = s1 - y - z.
        let mut s = Simplex::new();
        let x = s.new_var(false);
        let y = s.new_var(false);
        let z = s.new_var(false);
        let s1 = s.add_row(&[(x, n(1)), (y, n(1))], false);
        let s2 = s.add_row(&[(x, n(1)), (z, n(-1))], false);
        assert_eq!(s.eliminate(&[x], 1000), 1);
        assert!(s.is_eliminated(x));
        assert_eq!(s.tableau_size().0, 1);
        s.push_level();
        assert!(s.assert_lower(s1, DRat::num(n(5)), Lit(0)).is_ok());
        assert!(s.assert_upper(y, DRat::num(n(1)), Lit(2)).is_ok());
        assert!(s.assert_upper(s2, DRat::num(n(-2)), Lit(4)).is_ok());
        assert!(s.check().is_ok());
        let (vx, vy, vz) = (s.value(x), s.value(y), s.value(z));
        assert_eq!(vx.add(&vy), s.value(s1));
        assert_eq!(vx.sub(&vz), s.value(s2));
        assert!(s.value(s1) >= DRat::num(n(5)) && s.value(s2) <= DRat::num(n(-2)));
        // A bound on x later: x comes back as a basic variable with its value.
        s.restore(x);
        assert!(!s.is_eliminated(x));
        assert_eq!(s.value(x), vx);
        assert!(s.assert_upper(x, DRat::num(n(4)), Lit(6)).is_ok());
        assert!(s.check().is_ok());
        assert!(s.value(x) <= DRat::num(n(4)));
        assert_eq!(s.value(x).add(&s.value(y)), s.value(s1));
        assert_eq!(s.value(x).sub(&s.value(z)), s.value(s2));
        // x ≤ 2, y ≤ 1 contradict s1 = x + y ≥ 5.
        s.pop_levels(1);
        s.push_level();
        assert!(s.assert_lower(s1, DRat::num(n(5)), Lit(0)).is_ok());
        assert!(s.assert_upper(y, DRat::num(n(1)), Lit(2)).is_ok());
        assert!(s.assert_upper(x, DRat::num(n(2)), Lit(6)).is_ok());
        assert!(s.check().is_err());
    }

    /// A chain of flux equations `s_i = x_i − x_{i+1} = 0` (all slacks fixed at level 0) with
    /// `x_i ≤ 10`, then `x_0 ≥ 5`: the fixed slacks leave the basis at the first check and the
    /// repaired assignment satisfies every row and bound; `x_n ≤ 4` then makes it infeasible.
    #[test]
    fn fixed_basic_variables_leave_the_basis() {
        let m = 12;
        let mut s = Simplex::new();
        let xs: Vec<u32> = (0..=m).map(|_| s.new_var(false)).collect();
        let slacks: Vec<u32> = (0..m)
            .map(|i| s.add_row(&[(xs[i], n(1)), (xs[i + 1], n(-1))], false))
            .collect();
        let mut lit = 0u32;
        let mut next = || {
            lit += 2;
            Lit(lit)
        };
        for &sl in &slacks {
            assert!(s.assert_lower(sl, DRat::num(n(0)), next()).is_ok());
            assert!(s.assert_upper(sl, DRat::num(n(0)), next()).is_ok());
        }
        for &x in &xs {
            assert!(s.assert_upper(x, DRat::num(n(10)), next()).is_ok());
        }
        // Every row is satisfied (all values 0), yet the fixed slacks leave the basis.
        assert!(s.check().is_ok());
        assert!(slacks.iter().all(|&sl| !s.is_basic(sl)));
        assert!(s.assert_lower(xs[0], DRat::num(n(5)), next()).is_ok());
        assert!(s.check().is_ok());
        for i in 0..m {
            assert_eq!(s.value(xs[i]).sub(&s.value(xs[i + 1])), s.value(slacks[i]));
            assert_eq!(s.value(slacks[i]), DRat::num(n(0)));
        }
        assert!(s.value(xs[m]) >= DRat::num(n(5)) && s.value(xs[m]) <= DRat::num(n(10)));
        s.push_level();
        assert!(s.assert_upper(xs[m], DRat::num(n(4)), Lit(1001)).is_ok());
        let e = match s.check() {
            Err(e) => e,
            Ok(()) => panic!("x_0 ≥ 5 = x_n ≤ 4 must be infeasible"),
        };
        // Explanation: x_0 ≥ 5, x_n ≤ 4 and the equations in between (one side of each).
        assert!(e.iter().any(|(l, _)| l.0 == 1001));
        assert!(e.len() <= m + 2);
    }

    /// Two infeasible rows: `s1 = x + y + z ≥ 1` (checked first, smaller index) and
    /// `s2 = x + w ≥ 1`, all of x, y, z, w ≤ 0. The conflict is the shorter row's.
    #[test]
    fn conflict_from_the_shortest_infeasible_row() {
        let mut s = Simplex::new();
        let v: Vec<u32> = (0..4).map(|_| s.new_var(false)).collect();
        let s1 = s.add_row(&[(v[0], n(1)), (v[1], n(1)), (v[2], n(1))], false);
        let s2 = s.add_row(&[(v[0], n(1)), (v[3], n(1))], false);
        for (i, &x) in v.iter().enumerate() {
            assert!(s
                .assert_upper(x, DRat::num(n(0)), Lit(2 * i as u32))
                .is_ok());
        }
        assert!(s.assert_lower(s1, DRat::num(n(1)), Lit(100)).is_ok());
        assert!(s.assert_lower(s2, DRat::num(n(1)), Lit(102)).is_ok());
        let e = s.check().unwrap_err();
        let mut lits: Vec<u32> = e.iter().map(|(l, _)| l.0).collect();
        lits.sort();
        assert_eq!(lits, vec![0, 6, 102]);
    }
}
