//! Statically computed invariants for predicate abstraction — H. Jain, F. Ivančić, A. Gupta,
//! I. Shlyakhter, C. Wang, "Using Statically Computed Invariants inside the Predicate Abstraction
//! and Refinement Loop", CAV 2006, §3 (transition relation strengthening) and §4 (cheap numeric
//! invariants computed before the abstraction).
//!
//! What is computed: the interval domain (the non-relational restriction of the paper's
//! octagons: `lo ≤ x ≤ hi` per variable and location) by a forward worklist analysis over the
//! automaton, with widening after a location changed three times (with thresholds, the constants
//! of the program's single-variable guards — B. Blanchet et al., "A Static Analyzer for Large
//! Safety-Critical Software", PLDI 2003, §7.1.2 — and to ±∞ beyond them) and descending (narrowing)
//! rounds afterwards, in topological order until nothing changes (at most 12); every iterate of
//! those rounds is still a post-fixpoint, so the result is an inductive invariant. `None` at a location means it is unreachable. The CEGAR
//! engine conjoins the bounds at an edge's source with the edge's transition relation
//! (`ST_b = CI_b ∧ T_b`, §3), uses them as its initial predicates, and conjoins them to the
//! invariant it reports.

use crate::cfa::{Atom, Cfa, Lin, Op, Var};
use verikit_diag::{Budget, Exhausted};

/// Bound magnitude beyond which a bound is dropped (treated as infinite).
const LIM: i128 = 1 << 96;

/// Most descending (narrowing) rounds after the ascending iteration.
const DESCENDING_ROUNDS: usize = 12;

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

/// Widening with thresholds: a bound that grows goes to the next of the sorted `ts` beyond the
/// new value (to ±∞ past the last), so that loop bounds that are program constants survive.
fn widen(old: &[Itv], new: &[Itv], ts: &[i128]) -> Vec<Itv> {
    old.iter()
        .zip(new)
        .map(|(p, q)| Itv {
            lo: match (p.lo, q.lo) {
                (Some(x), Some(y)) if y >= x => Some(x),
                (Some(_), Some(y)) => ts.iter().rev().copied().find(|&t| t <= y),
                _ => None,
            },
            hi: match (p.hi, q.hi) {
                (Some(x), Some(y)) if y <= x => Some(x),
                (Some(_), Some(y)) => ts.iter().copied().find(|&t| t >= y),
                _ => None,
            },
        })
        .collect()
}

/// The widening thresholds: the bounds `x ≤ k`, `x ≥ k` and `x = k` of single-variable guards
/// and their neighbours `k ± 1`, sorted.
fn thresholds(cfa: &Cfa) -> Vec<i128> {
    let mut ts = Vec::new();
    for e in &cfa.edges {
        if let Op::Assume(atoms) = &e.op {
            for a in atoms {
                if a.lin.coeffs.len() == 1 && a.lin.coeffs.values().all(|c| c.abs() == 1) {
                    let k = a.lin.konst.abs();
                    if k <= LIM {
                        ts.extend([-k - 1, -k, -k + 1, k - 1, k, k + 1]);
                    }
                }
            }
        }
    }
    ts.sort_unstable();
    ts.dedup();
    ts
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
    let ts = thresholds(cfa);
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
                        widen(c, &j, &ts)
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
    // Descending rounds: each location gets the join of its incoming posts, in topological
    // order (back edges aside) and from the values already updated in the round, so one round
    // carries a narrowed bound through a whole loop body. Starting from a post-fixpoint, every
    // such update keeps a post-fixpoint; the rounds stop when nothing changes.
    let (_, topo) = crate::bmc::back_edges(cfa);
    let mut order: Vec<usize> = (0..cfa.nlocs).collect();
    order.sort_by_key(|&l| topo.get(l).copied().unwrap_or(usize::MAX));
    let mut incoming = vec![Vec::new(); cfa.nlocs];
    for edge in &cfa.edges {
        if let Some(v) = incoming.get_mut(edge.to) {
            v.push(edge);
        }
    }
    for _ in 0..DESCENDING_ROUNDS {
        let mut changed = false;
        for &l in &order {
            ticker.tick()?;
            let mut acc: Option<Vec<Itv>> = (l == cfa.init).then(|| vec![TOP; n]);
            for edge in incoming.get(l).into_iter().flatten() {
                let Some(Some(st)) = at.get(edge.from) else {
                    continue;
                };
                let Some(p) = post(&edge.op, st) else {
                    continue;
                };
                acc = Some(match acc.take() {
                    None => p,
                    Some(c) => join(&c, &p),
                });
            }
            if let Some(slot) = at.get_mut(l) {
                if *slot != acc {
                    changed = true;
                    *slot = acc;
                }
            }
        }
        if !changed {
            break;
        }
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
