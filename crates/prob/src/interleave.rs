//! Interleaved composition of interval MDPs (Definition 13) and the disjoint union used to
//! compare two IMDPs by alternating bisimulation (Sect. 5) of "Polynomial-Time Alternating
//! Probabilistic Bisimulation for Interval MDPs" (Hashemi, Turrini, Hahn, Hermanns,
//! Elbassioni, SETTA 2017). Theorem 14 — alternating bisimulation is a congruence for `|||` —
//! is tested on small models against this construction.
//!
//! States of `M_l ||| M_r` are pairs `(s_l, s_r)` numbered `s_l · |S_r| + s_r`; every choice of
//! `s_l` moves the left component with the right one fixed, and vice versa. Labels are given as
//! class ids of an initial partition; the pair of ids becomes the label of the product state.

use crate::lang::ast::ModelType;
use crate::model::Model;
use crate::widen::bounds;
use rustc_hash::FxHashMap as HashMap;

/// An IMDP over `n` anonymous states, its choices still to be added.
fn empty_imdp(n: usize) -> Model {
    Model {
        states: vec![0; n],
        ..Model::empty(ModelType::Imdp)
    }
}

fn pair_ids(n: usize, key: impl Fn(usize) -> (u32, u32)) -> Vec<u32> {
    let mut ids: HashMap<(u32, u32), u32> = HashMap::default();
    (0..n)
        .map(|s| {
            let next = ids.len() as u32;
            *ids.entry(key(s)).or_insert(next)
        })
        .collect()
}

/// `M_l ||| M_r` with the product labels (Definition 13). Interval bounds are copied; point
/// models are read as point intervals.
pub fn interleave(l: &Model, ll: &[u32], r: &Model, lr: &[u32]) -> (Model, Vec<u32>) {
    let (nl, nr) = (l.num_states(), r.num_states());
    let mut q = empty_imdp(nl * nr);
    for sl in 0..nl {
        for sr in 0..nr {
            for c in l.choices(sl) {
                q.push_interval_choice(l.trans(c).map(|t| {
                    let (lo, hi) = bounds(l, t);
                    ((l.cols[t] as usize * nr + sr) as u32, lo, hi)
                }));
            }
            for c in r.choices(sr) {
                q.push_interval_choice(r.trans(c).map(|t| {
                    let (lo, hi) = bounds(r, t);
                    ((sl * nr + r.cols[t] as usize) as u32, lo, hi)
                }));
            }
            q.end_state();
        }
    }
    for &a in &l.initial {
        for &b in &r.initial {
            q.initial.push(a * nr as u32 + b);
        }
    }
    let labels = pair_ids(nl * nr, |s| {
        (
            ll.get(s / nr).copied().unwrap_or(0),
            lr.get(s % nr).copied().unwrap_or(0),
        )
    });
    (q, labels)
}

/// The disjoint union of two IMDPs (states of `b` after those of `a`) with their labels, for
/// deciding `M_1 ∼ M_2` as `s̄_1 ∼ s̄_2` in the union. Label ids are shared between the models.
pub(crate) fn disjoint_union(a: &Model, la: &[u32], b: &Model, lb: &[u32]) -> (Model, Vec<u32>) {
    let na = a.num_states();
    let n = na + b.num_states();
    let mut q = empty_imdp(n);
    for (m, off) in [(a, 0usize), (b, na)] {
        for s in 0..m.num_states() {
            for c in m.choices(s) {
                q.push_interval_choice(m.trans(c).map(|t| {
                    let (lo, hi) = bounds(m, t);
                    ((m.cols[t] as usize + off) as u32, lo, hi)
                }));
            }
            q.end_state();
        }
    }
    q.initial = a
        .initial
        .iter()
        .copied()
        .chain(b.initial.iter().map(|&s| s + na as u32))
        .collect();
    let labels = (0..n)
        .map(|s| {
            if s < na {
                la.get(s).copied().unwrap_or(0)
            } else {
                lb.get(s - na).copied().unwrap_or(0)
            }
        })
        .collect();
    (q, labels)
}

/// Are the initial states of `a` and `b` alternating-bisimilar (`M_a ∼ M_b`, Sect. 5)?
pub fn bisimilar(a: &Model, la: &[u32], b: &Model, lb: &[u32]) -> bool {
    let (u, lu) = disjoint_union(a, la, b, lb);
    let bis = crate::imdp_bisim::bisimulation(&u, &lu);
    let (Some(&x), Some(&y)) = (a.initial.first(), b.initial.first()) else {
        return false;
    };
    bis.class[x as usize] == bis.class[y as usize + a.num_states()]
}
