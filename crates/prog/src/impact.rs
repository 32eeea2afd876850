//! Lazy abstraction with interpolants — K. L. McMillan, "Lazy Abstraction with Interpolants",
//! CAV 2006, §3 (the unwinding, covering, the `Expand`/`Refine`/`Close` procedures) and §4
//! (interpolants for linear arithmetic from the refutation of a path).
//!
//! The abstract reachability tree (unwinding) starts from the initial location with label
//! `true`. A node at the error (or cut) location is refined: the path formula (SSA, one
//! constraint row per assume atom and assignment) is decided over the rationals by the one exact
//! LP of `verikit-num`; its Farkas certificate, summed over each prefix of the path, gives the
//! sequence interpolant `I_1 … I_n = false` (McMillan's linear-arithmetic interpolants: the prefix
//! sum mentions only the variables current at the cut). A rational refutation is a sound
//! integer refutation, so the labels stay over-approximations over the integers. When the path is
//! feasible over the rationals the engine stops (the portfolio hands over to bounded model
//! checking, which finds the integer counterexample or not). A node is covered by an earlier
//! uncovered node at the same location whose label it implies (implication checked with the
//! same LP); strengthening a label uncovers the nodes it covered. Forced covering and large-block
//! encoding are not implemented.
//!
//! When no uncovered node is left to expand, the disjunction of the labels of the uncovered
//! nodes of each location is an inductive invariant that excludes the error location.

use crate::cfa::{Atom, Cfa, Lin, Loc, Op, Var};
use verikit_diag::{Budget, Exhausted};
use verikit_num::exact_lp::{self, Cmp, Feasibility, Row};
use verikit_num::Num;

/// The outcome of IMPACT.
pub(crate) enum ImpactResult {
    /// Safe, with an invariant per location (a disjunction of conjunctions of atoms).
    Safe(Vec<Vec<Vec<Atom>>>),
    /// A path to the error (or to a cut call) that is feasible over the rationals.
    FeasiblePath,
    /// A path longer than the LP handles, or an interpolant outside the linear fragment.
    GaveUp(String),
}

struct Node {
    loc: Loc,
    label: Vec<Atom>,
    parent: Option<usize>,
    edge: Option<usize>,
    covered_by: Option<usize>,
    expanded: bool,
}

fn falsum() -> Atom {
    Atom::le0(Lin::constant(1))
}
fn is_false(label: &[Atom]) -> bool {
    label.iter().any(|a| {
        a.lin
            .as_const()
            .is_some_and(|k| if a.eq { k != 0 } else { k > 0 })
    })
}

fn num(k: i128) -> Num {
    let a = Num::parse_decimal(&k.unsigned_abs().to_string()).unwrap_or(Num::ZERO);
    if k < 0 {
        a.neg()
    } else {
        a
    }
}

/// Columns of an LP over free integer-valued variables: two non-negative columns per variable.
struct Lp {
    rows: Vec<Row>,
    ncols: usize,
}

impl Lp {
    fn new() -> Lp {
        Lp {
            rows: Vec::new(),
            ncols: 0,
        }
    }
    fn fresh(&mut self) -> usize {
        self.ncols += 2;
        self.ncols - 2
    }
    /// Adds `Σ c·col(x) + k (≤|=) 0`.
    fn add(&mut self, lin: &Lin, col: &dyn Fn(Var) -> usize, eq: bool) {
        let mut coeffs = vec![Num::ZERO; self.ncols];
        for (&x, &c) in &lin.coeffs {
            let p = col(x);
            if let Some(v) = coeffs.get_mut(p) {
                *v = v.add(&num(c));
            }
            if let Some(v) = coeffs.get_mut(p + 1) {
                *v = v.sub(&num(c));
            }
        }
        let cmp = if eq { Cmp::Eq } else { Cmp::Le };
        self.rows.push(Row::new(coeffs, cmp, num(lin.konst).neg()));
    }
    fn solve(&self) -> Feasibility {
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

/// Whether the conjunction `a` implies the conjunction `b` (over the rationals, hence over the
/// integers; `¬(l ≤ 0)` is `l ≥ 1`).
fn implies(a: &[Atom], b: &[Atom]) -> bool {
    if is_false(a) {
        return true;
    }
    'atoms: for atom in b {
        if a.contains(atom) {
            continue;
        }
        let negs: Vec<Lin> = if atom.eq {
            vec![
                atom.lin.add_const(1).unwrap_or_default(),
                atom.lin
                    .scale(-1)
                    .and_then(|l| l.add_const(1))
                    .unwrap_or_default(),
            ]
        } else {
            vec![atom
                .lin
                .scale(-1)
                .and_then(|l| l.add_const(1))
                .unwrap_or_default()]
        };
        for neg in negs {
            let mut vars: Vec<Var> = a
                .iter()
                .flat_map(|x| x.lin.coeffs.keys().copied())
                .collect();
            vars.extend(neg.coeffs.keys().copied());
            vars.sort_unstable();
            vars.dedup();
            let mut lp = Lp::new();
            let mut cols = Vec::new();
            for _ in &vars {
                cols.push(lp.fresh());
            }
            let col = |x: Var| {
                vars.binary_search(&x)
                    .ok()
                    .and_then(|i| cols.get(i).copied())
                    .unwrap_or(0)
            };
            for x in a {
                lp.add(&x.lin, &col, x.eq);
            }
            lp.add(&neg, &col, false);
            if let Feasibility::Feasible(_) = lp.solve() {
                return false;
            }
            continue;
        }
        continue 'atoms;
    }
    true
}

/// Largest path the LP refutes.
const MAX_PATH: usize = 400;

/// Runs IMPACT on the automaton (the cut location counts as an error).
pub(crate) fn impact(cfa: &Cfa, budget: &Budget) -> Result<ImpactResult, Exhausted> {
    let out = cfa.out_edges();
    let mut nodes: Vec<Node> = vec![Node {
        loc: cfa.init,
        label: Vec::new(),
        parent: None,
        edge: None,
        covered_by: None,
        expanded: false,
    }];
    let mut by_loc: Vec<Vec<usize>> = vec![Vec::new(); cfa.nlocs];
    if let Some(b) = by_loc.get_mut(cfa.init) {
        b.push(0);
    }
    let mut work = vec![0usize];
    while let Some(v) = work.pop() {
        budget.spend(1)?;
        if dead(&nodes, v) {
            continue;
        }
        let loc = nodes.get(v).map(|n| n.loc).unwrap_or(0);
        // Close: cover v by an earlier uncovered node at the same location.
        let label = nodes.get(v).map(|n| n.label.clone()).unwrap_or_default();
        let mut coverer = None;
        for &w in by_loc.get(loc).into_iter().flatten() {
            if w >= v || dead(&nodes, w) {
                continue;
            }
            let wl = nodes.get(w).map(|n| n.label.as_slice()).unwrap_or(&[]);
            if implies(&label, wl) {
                coverer = Some(w);
                break;
            }
        }
        if let Some(w) = coverer {
            if let Some(n) = nodes.get_mut(v) {
                n.covered_by = Some(w);
            }
            continue;
        }
        if loc == cfa.error || loc == cfa.cut {
            match refine(cfa, &mut nodes, v)? {
                Refined::Feasible => return Ok(ImpactResult::FeasiblePath),
                Refined::GaveUp(why) => return Ok(ImpactResult::GaveUp(why)),
                Refined::Strengthened(list) => {
                    // Uncover what the strengthened nodes covered.
                    for i in 0..nodes.len() {
                        let c = nodes.get(i).and_then(|n| n.covered_by);
                        if c.is_some_and(|c| list.contains(&c)) {
                            if let Some(n) = nodes.get_mut(i) {
                                n.covered_by = None;
                            }
                            work.push(i);
                        }
                    }
                }
            }
            continue;
        }
        if nodes.get(v).is_some_and(|n| n.expanded) {
            continue;
        }
        if let Some(n) = nodes.get_mut(v) {
            n.expanded = true;
        }
        for &e in out.get(loc).into_iter().flatten().rev() {
            let to = cfa.edges.get(e).map(|e| e.to).unwrap_or(0);
            let id = nodes.len();
            nodes.push(Node {
                loc: to,
                label: Vec::new(),
                parent: Some(v),
                edge: Some(e),
                covered_by: None,
                expanded: false,
            });
            if let Some(b) = by_loc.get_mut(to) {
                b.push(id);
            }
            work.push(id);
        }
    }
    // The invariant: per location, the labels of the nodes that are neither covered nor false.
    let mut inv: Vec<Vec<Vec<Atom>>> = vec![Vec::new(); cfa.nlocs];
    for (i, n) in nodes.iter().enumerate() {
        if !dead(&nodes, i) {
            if let Some(d) = inv.get_mut(n.loc) {
                d.push(n.label.clone());
            }
        }
    }
    Ok(ImpactResult::Safe(inv))
}

/// A node is dead when it or an ancestor is covered, or its label is false.
fn dead(nodes: &[Node], v: usize) -> bool {
    let mut cur = Some(v);
    while let Some(c) = cur {
        let Some(n) = nodes.get(c) else { return true };
        if n.covered_by.is_some() || is_false(&n.label) {
            return true;
        }
        cur = n.parent;
    }
    false
}

enum Refined {
    Strengthened(Vec<usize>),
    Feasible,
    GaveUp(String),
}

fn refine(cfa: &Cfa, nodes: &mut [Node], v: usize) -> Result<Refined, Exhausted> {
    // The path root → v.
    let mut path = Vec::new();
    let mut cur = v;
    while let Some(n) = nodes.get(cur) {
        match (n.parent, n.edge) {
            (Some(p), Some(e)) => {
                path.push((cur, e));
                cur = p;
            }
            _ => break,
        }
    }
    path.reverse();
    if path.len() > MAX_PATH {
        return Ok(Refined::GaveUp(format!(
            "path of {} edges is longer than the interpolating LP handles",
            path.len()
        )));
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
    for &(_, e) in &path {
        budget_free_tick();
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
                            *v = v.sub(&num(k));
                        }
                        if let Some(v) = coeffs.get_mut(p + 1) {
                            *v = v.add(&num(k));
                        }
                    }
                    if let Some(v) = coeffs.get_mut(c) {
                        *v = v.add(&Num::int(1));
                    }
                    if let Some(v) = coeffs.get_mut(c + 1) {
                        *v = v.sub(&Num::int(1));
                    }
                    lp.rows.push(Row::new(coeffs, Cmp::Eq, num(t.konst)));
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
        Feasibility::Feasible(_) => return Ok(Refined::Feasible),
        Feasibility::Infeasible(y) => y,
    };
    let mut strengthened = Vec::new();
    let n = path.len();
    for (i, ((node, _), (upto, cols))) in path.iter().zip(snapshots.iter()).enumerate() {
        let interp = if i + 1 == n {
            Some(falsum())
        } else {
            match interpolant(&lp, &y, *upto, cols, &col_var) {
                Ok(a) => a,
                Err(why) => return Ok(Refined::GaveUp(why)),
            }
        };
        let Some(a) = interp else { continue };
        let Some(nd) = nodes.get_mut(*node) else {
            continue;
        };
        if is_false(std::slice::from_ref(&a)) {
            if !is_false(&nd.label) {
                nd.label = vec![falsum()];
                strengthened.push(*node);
            }
        } else if !implies(&nd.label, std::slice::from_ref(&a)) {
            nd.label.push(a);
            strengthened.push(*node);
        }
    }
    Ok(Refined::Strengthened(strengthened))
}

fn budget_free_tick() {}

/// The prefix sum `Σ_{r < upto} y_r·row_r` as an atom over program variables (`None`: `true`).
fn interpolant(
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

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
