//! Statically computed invariants for predicate abstraction — H. Jain, F. Ivančić, A. Gupta,
//! I. Shlyakhter, C. Wang, "Using Statically Computed Invariants inside the Predicate Abstraction
//! and Refinement Loop", CAV 2006, §3 (transition relation strengthening) and §4 (cheap numeric
//! invariants computed before the abstraction).
//!
//! What is computed: the interval domain (the non-relational restriction of the paper's
//! octagons: `lo ≤ x ≤ hi` per variable and location) by a forward worklist analysis over the
//! automaton, with widening to ±∞ after a location changed three times and two descending
//! (narrowing) rounds afterwards; every iterate of those rounds is still a post-fixpoint, so the
//! result is an inductive invariant. `None` at a location means it is unreachable. The CEGAR
//! engine conjoins the bounds at an edge's source with the edge's transition relation
//! (`ST_b = CI_b ∧ T_b`, §3), uses them as its initial predicates, and conjoins them to the
//! invariant it reports.

use crate::cfa::{Atom, Cfa, Lin, Op, Var};
use verikit_diag::{Budget, Exhausted};

/// Bound magnitude beyond which a bound is dropped (treated as infinite).
const LIM: i128 = 1 << 96;

/// An interval `[lo, hi]`; `None` is −∞ / +∞.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Itv {
    pub(crate) lo: Option<i128>,
    pub(crate) hi: Option<i128>,
}

const TOP: Itv = Itv { lo: None, hi: None };

fn clamp(v: Option<i128>) -> Option<i128> {
    v.filter(|k| k.abs() <= LIM)
}

/// Per location: the interval of every variable (`None`: unreachable).
pub(crate) type Intervals = Vec<Option<Vec<Itv>>>;

/// The interval of a linear term.
fn eval(l: &Lin, st: &[Itv]) -> Itv {
    let (mut lo, mut hi) = (Some(l.konst), Some(l.konst));
    for (&x, &c) in &l.coeffs {
        let i = st.get(x).copied().unwrap_or(TOP);
        let (a, b) = if c > 0 { (i.lo, i.hi) } else { (i.hi, i.lo) };
        lo = clamp(match (lo, a) {
            (Some(s), Some(v)) => c.checked_mul(v).and_then(|p| s.checked_add(p)),
            _ => None,
        });
        hi = clamp(match (hi, b) {
            (Some(s), Some(v)) => c.checked_mul(v).and_then(|p| s.checked_add(p)),
            _ => None,
        });
    }
    Itv { lo, hi }
}

fn div_floor(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}
fn div_ceil(a: i128, b: i128) -> i128 {
    -div_floor(-a, b)
}

/// Refines `st` by `lin ≤ 0`; false when empty.
fn refine_le(lin: &Lin, st: &mut [Itv]) -> bool {
    for (&x, &c) in &lin.coeffs {
        // c·x ≤ −(rest), rest ≥ lo(rest)
        let mut rest = lin.clone();
        rest.coeffs.remove(&x);
        let Some(rl) = eval(&rest, st).lo else {
            continue;
        };
        let Some(slot) = st.get_mut(x) else { continue };
        if c > 0 {
            let b = div_floor(-rl, c);
            if slot.hi.is_none_or(|h| b < h) {
                slot.hi = clamp(Some(b));
            }
        } else {
            let b = div_ceil(rl, -c);
            if slot.lo.is_none_or(|l| b > l) {
                slot.lo = clamp(Some(b));
            }
        }
    }
    let v = eval(lin, st);
    v.lo.is_none_or(|l| l <= 0)
        && st
            .iter()
            .all(|i| !matches!((i.lo, i.hi), (Some(l), Some(h)) if l > h))
}

/// The strongest interval post-state of an edge (`None`: infeasible).
fn post(op: &Op, st: &[Itv]) -> Option<Vec<Itv>> {
    let mut out = st.to_vec();
    match op {
        Op::Assume(atoms) => {
            for _ in 0..2 {
                for a in atoms {
                    if !refine_le(&a.lin, &mut out) {
                        return None;
                    }
                    if a.eq {
                        let neg = a.lin.scale(-1).ok()?;
                        if !refine_le(&neg, &mut out) {
                            return None;
                        }
                    }
                }
            }
        }
        Op::Assign(asg) => {
            for (x, t) in asg {
                let v = eval(t, st);
                if let Some(s) = out.get_mut(*x) {
                    *s = v;
                }
            }
        }
        Op::Havoc { vars, .. } => {
            for &x in vars {
                if let Some(s) = out.get_mut(x) {
                    *s = TOP;
                }
            }
        }
    }
    Some(out)
}

fn join(a: &[Itv], b: &[Itv]) -> Vec<Itv> {
    a.iter()
        .zip(b)
        .map(|(p, q)| Itv {
            lo: p.lo.zip(q.lo).map(|(x, y)| x.min(y)),
            hi: p.hi.zip(q.hi).map(|(x, y)| x.max(y)),
        })
        .collect()
}

fn widen(old: &[Itv], new: &[Itv]) -> Vec<Itv> {
    old.iter()
        .zip(new)
        .map(|(p, q)| Itv {
            lo: p.lo.zip(q.lo).and_then(|(x, y)| (y >= x).then_some(x)),
            hi: p.hi.zip(q.hi).and_then(|(x, y)| (y <= x).then_some(x)),
        })
        .collect()
}

/// Runs the analysis.
pub(crate) fn intervals(cfa: &Cfa, budget: &Budget) -> Result<Intervals, Exhausted> {
    let n = cfa.vars.len();
    let out = cfa.out_edges();
    let mut at: Intervals = vec![None; cfa.nlocs];
    let mut changes = vec![0usize; cfa.nlocs];
    if let Some(s) = at.get_mut(cfa.init) {
        *s = Some(vec![TOP; n]);
    }
    let mut work = vec![cfa.init];
    let mut ticker = budget.ticker(256);
    while let Some(l) = work.pop() {
        ticker.tick()?;
        let Some(Some(st)) = at.get(l).cloned() else {
            continue;
        };
        for &e in out.get(l).into_iter().flatten() {
            let Some(edge) = cfa.edges.get(e) else {
                continue;
            };
            let Some(p) = post(&edge.op, &st) else {
                continue;
            };
            let to = edge.to;
            let cur = at.get(to).cloned().flatten();
            let next = match &cur {
                None => p,
                Some(c) => {
                    let j = join(c, &p);
                    if j == *c {
                        continue;
                    }
                    let k = changes.get(to).copied().unwrap_or(0);
                    if k >= 3 {
                        widen(c, &j)
                    } else {
                        j
                    }
                }
            };
            if let Some(c) = changes.get_mut(to) {
                *c += 1;
            }
            if let Some(s) = at.get_mut(to) {
                *s = Some(next);
            }
            work.push(to);
        }
    }
    // Two descending rounds: each location gets the join of its incoming posts.
    for _ in 0..2 {
        let mut next: Intervals = vec![None; cfa.nlocs];
        if let Some(s) = next.get_mut(cfa.init) {
            *s = Some(vec![TOP; n]);
        }
        for edge in &cfa.edges {
            ticker.tick()?;
            let Some(Some(st)) = at.get(edge.from) else {
                continue;
            };
            let Some(p) = post(&edge.op, st) else {
                continue;
            };
            if let Some(slot) = next.get_mut(edge.to) {
                *slot = Some(match slot.take() {
                    None => p,
                    Some(c) => join(&c, &p),
                });
            }
        }
        at = next;
    }
    Ok(at)
}

/// The finite bounds at a location as atoms (`x − hi ≤ 0`, `lo − x ≤ 0`), for the variables
/// `keep` accepts.
pub(crate) fn bound_atoms(st: &[Itv], keep: &dyn Fn(Var) -> bool) -> Vec<Atom> {
    let mut v = Vec::new();
    for (x, i) in st.iter().enumerate() {
        if !keep(x) {
            continue;
        }
        if let Some(h) = i.hi {
            let mut l = Lin::var(x);
            l.konst = -h;
            v.push(Atom::le0(l));
        }
        if let Some(lo) = i.lo {
            let mut l = Lin::default();
            l.coeffs.insert(x, -1);
            l.konst = lo;
            v.push(Atom::le0(l));
        }
    }
    v
}
