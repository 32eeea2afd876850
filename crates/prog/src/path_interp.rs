//! Path interpolants for linear arithmetic from a Farkas refutation — K. L. McMillan, "Lazy
//! Abstraction with Interpolants", CAV 2006, §4. Shared by IMPACT (`impact`) and the
//! predicate-abstraction refinement (`cegar`).
//!
//! A path of edges is written in SSA form as rows of one exact LP of `verikit-num` (one row per
//! assume atom and assignment; a `havoc` makes a fresh column). When the LP is infeasible its
//! Farkas certificate, summed over each prefix of the path, is the sequence interpolant
//! `I_1 … I_n = false`: the prefix sum mentions only the variables current at the cut, and it is
//! tightened over the integers (a rational refutation is also an integer refutation).

use crate::cfa::{Atom, Cfa, Lin, Op, Var};
use verikit_num::exact_lp::{self, Cmp, Feasibility, Row};
use verikit_num::Num;

/// Largest path the LP refutes.
pub(crate) const MAX_PATH: usize = 400;

/// The outcome of interpolating a path.
pub(crate) enum PathInterp {
    /// The path is feasible over the rationals (it may still be infeasible over the integers).
    Feasible,
    /// Infeasible: the interpolant after each edge (`None`: `true`); the last one is `false`.
    Refuted(Vec<Option<Atom>>),
    /// Too long, or an interpolant outside what the encoding represents.
    GaveUp(String),
}

pub(crate) fn falsum() -> Atom {
    Atom::le0(Lin::constant(1))
}
pub(crate) fn is_false(label: &[Atom]) -> bool {
    label.iter().any(|a| {
        a.lin
            .as_const()
            .is_some_and(|k| if a.eq { k != 0 } else { k > 0 })
    })
}

/// Columns of an LP over free integer-valued variables: two non-negative columns per variable.
pub(crate) struct Lp {
    rows: Vec<Row>,
    ncols: usize,
}

impl Lp {
    pub(crate) fn new() -> Lp {
        Lp {
            rows: Vec::new(),
            ncols: 0,
        }
    }
    pub(crate) fn fresh(&mut self) -> usize {
        self.ncols += 2;
        self.ncols - 2
    }
    /// Adds `Σ c·col(x) + k (≤|=) 0`.
    pub(crate) fn add(&mut self, lin: &Lin, col: &dyn Fn(Var) -> usize, eq: bool) {
        let mut coeffs = vec![Num::ZERO; self.ncols];
        for (&x, &c) in &lin.coeffs {
            let p = col(x);
            if let Some(v) = coeffs.get_mut(p) {
                *v = v.add(&Num::integer(c));
            }
            if let Some(v) = coeffs.get_mut(p + 1) {
                *v = v.sub(&Num::integer(c));
            }
        }
        let cmp = if eq { Cmp::Eq } else { Cmp::Le };
        self.rows
            .push(Row::new(coeffs, cmp, Num::integer(lin.konst).neg()));
    }
    pub(crate) fn solve(&self) -> Feasibility {
        let rows: Vec<Row> = self
            .rows
            .iter()
            .map(|r| {
                let mut c = r.coeffs.clone();
                c.resize(self.ncols, Num::ZERO);
                Row::new(c, r.cmp, r.rhs.clone())
            })
            .collect();
        exact_lp::solve(&rows, self.ncols)
    }
}

/// Interpolates the path `edges` (indices into `cfa.edges`, in order from the initial location).
pub(crate) fn path_interpolants(cfa: &Cfa, edges: &[usize]) -> PathInterp {
    if edges.len() > MAX_PATH {
        return PathInterp::GaveUp(format!(
            "path of {} edges is longer than the interpolating LP handles",
            edges.len()
        ));
    }
    // SSA: current column of every variable; snapshots after each edge.
    let mut lp = Lp::new();
    let mut cur_col: Vec<Option<usize>> = vec![None; cfa.vars.len()];
    let mut col_var: Vec<Var> = Vec::new();
    let mut snapshots: Vec<(usize, Vec<Option<usize>>)> = Vec::new();
    let col_of =
        |lp: &mut Lp, cur_col: &mut Vec<Option<usize>>, col_var: &mut Vec<Var>, x: Var| -> usize {
            match cur_col.get(x).copied().flatten() {
                Some(c) => c,
                None => {
                    let c = lp.fresh();
                    col_var.push(x);
                    col_var.push(x);
                    if let Some(s) = cur_col.get_mut(x) {
                        *s = Some(c);
                    }
                    c
                }
            }
        };
    for &e in edges {
        let Some(edge) = cfa.edges.get(e) else {
            continue;
        };
        match &edge.op {
            Op::Assume(atoms) => {
                for a in atoms {
                    for &x in a.lin.coeffs.keys() {
                        col_of(&mut lp, &mut cur_col, &mut col_var, x);
                    }
                    let cc = cur_col.clone();
                    lp.add(&a.lin, &|x| cc.get(x).copied().flatten().unwrap_or(0), a.eq);
                }
            }
            Op::Assign(asg) => {
                for (_, t) in asg {
                    for &x in t.coeffs.keys() {
                        col_of(&mut lp, &mut cur_col, &mut col_var, x);
                    }
                }
                let old = cur_col.clone();
                let mut news = Vec::new();
                for (x, t) in asg {
                    let c = lp.fresh();
                    col_var.push(*x);
                    col_var.push(*x);
                    news.push((*x, c, t.clone()));
                }
                for (x, c, t) in news {
                    // new - t(old) = 0
                    let mut coeffs = vec![Num::ZERO; lp.ncols];
                    for (&y, &k) in &t.coeffs {
                        let p = old.get(y).copied().flatten().unwrap_or(0);
                        if let Some(v) = coeffs.get_mut(p) {
                            *v = v.sub(&Num::integer(k));
                        }
                        if let Some(v) = coeffs.get_mut(p + 1) {
                            *v = v.add(&Num::integer(k));
                        }
                    }
                    if let Some(v) = coeffs.get_mut(c) {
                        *v = v.add(&Num::int(1));
                    }
                    if let Some(v) = coeffs.get_mut(c + 1) {
                        *v = v.sub(&Num::int(1));
                    }
                    lp.rows
                        .push(Row::new(coeffs, Cmp::Eq, Num::integer(t.konst)));
                    if let Some(s) = cur_col.get_mut(x) {
                        *s = Some(c);
                    }
                }
            }
            Op::Havoc { vars, .. } => {
                for &x in vars {
                    let c = lp.fresh();
                    col_var.push(x);
                    col_var.push(x);
                    if let Some(s) = cur_col.get_mut(x) {
                        *s = Some(c);
                    }
                }
            }
        }
        snapshots.push((lp.rows.len(), cur_col.clone()));
    }
    let y = match lp.solve() {
        Feasibility::Feasible(_) => return PathInterp::Feasible,
        Feasibility::Infeasible(y) => y,
    };
    let n = edges.len();
    let mut out = Vec::with_capacity(n);
    for (i, (upto, cols)) in snapshots.iter().enumerate() {
        if i + 1 == n {
            out.push(Some(falsum()));
        } else {
            match interpolant(&lp, &y, *upto, cols, &col_var) {
                Ok(a) => out.push(a),
                Err(why) => return PathInterp::GaveUp(why),
            }
        }
    }
    PathInterp::Refuted(out)
}

/// The prefix sum `Σ_{r < upto} y_r·row_r` as an atom over program variables (`None`: `true`).
pub(crate) fn interpolant(
    lp: &Lp,
    y: &[Num],
    upto: usize,
    cols: &[Option<usize>],
    col_var: &[Var],
) -> Result<Option<Atom>, String> {
    let mut sum = vec![Num::ZERO; lp.ncols];
    let mut rhs = Num::ZERO;
    for (r, yr) in lp.rows.iter().zip(y).take(upto) {
        if yr.is_zero() {
            continue;
        }
        for (j, a) in r.coeffs.iter().enumerate() {
            if let Some(s) = sum.get_mut(j) {
                *s = s.add(&a.mul(yr));
            }
        }
        rhs = rhs.add(&r.rhs.mul(yr));
    }
    // Coefficients per program variable (the + column of its current instance).
    let mut terms: Vec<(Var, Num)> = Vec::new();
    let mut j = 0;
    while j + 1 < lp.ncols.max(1) {
        let c = sum.get(j).cloned().unwrap_or(Num::ZERO);
        if !c.is_zero() {
            let x = col_var.get(j).copied().unwrap_or(0);
            if cols.get(x).copied().flatten() != Some(j) {
                return Err(
                    "interpolant mentions a variable that is not current at its position".into(),
                );
            }
            terms.push((x, c));
        }
        j += 2;
    }
    if terms.is_empty() {
        return Ok(if rhs.is_neg() { Some(falsum()) } else { None });
    }
    // Scale to integers: Σ c x - rhs ≤ 0.
    let mut l = Num::int(1);
    for (_, c) in &terms {
        l = Num::lcm_int(&l, &Num::from_bigint(c.denom_big()));
    }
    l = Num::lcm_int(&l, &Num::from_bigint(rhs.denom_big()));
    let to_i = |n: &Num| -> Result<i128, String> {
        let (p, _) = n.parts();
        p.to_string()
            .parse::<i128>()
            .map_err(|_| "interpolant coefficient too large".to_string())
    };
    let mut lin = Lin::default();
    for (x, c) in terms {
        lin.coeffs.insert(x, to_i(&c.mul(&l))?);
    }
    // Tighten over the integers: Σ c x ≤ floor(rhs) (after dividing by the gcd of the coefficients).
    let k = to_i(&rhs.mul(&l))?;
    let g = lin.coeffs.values().fold(0i128, |g, &c| gcd(g, c.abs()));
    if g > 1 {
        for c in lin.coeffs.values_mut() {
            *c /= g;
        }
        lin.konst = -k.div_euclid(g);
    } else {
        lin.konst = -k;
    }
    Ok(Some(Atom::le0(lin)))
}

pub(crate) fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
