//! Coarsest alternating probabilistic (∃σ∀π)-bisimulation of an interval MDP by partition
//! refinement: Algorithm 1 and Lemma 6 of "Polynomial-Time Alternating Probabilistic
//! Bisimulation for Interval MDPs" (Hashemi, Turrini, Hahn, Hermanns, Elbassioni, SETTA 2017,
//! Sect. 4).
//!
//! By Lemma 6, `s ∼ t` iff their labels agree and they have the same *set* of strictly minimal
//! polytopes `P^{s,a}_R` over the classes of `R`. Instead of the pairwise `Violate(s, t, R)` of
//! Algorithm 1, every state gets the signature (current class, set of strictly minimal
//! polytopes) and each round splits the classes by signature, until no class splits; this
//! computes the same coarsest fixed point with one minimality analysis per state and round.
//! Strict minimality ([`crate::polytope_lp`]) is decided by one LP per polytope (Theorem 8);
//! identical LP instances (the same set of polytopes at a state) are answered from a cache.
//! Identical polytopes of different actions of one state count once (Lemma 6 compares sets).
//! DTMCs and MDPs are the special case of point intervals.

use crate::model::Model;
use crate::polytope_lp::{fixed, strictly_minimal_counted, LpStats, Polytope, ONE};
use crate::widen::bounds;
use rustc_hash::FxHashMap as HashMap;

/// The computed bisimulation.
#[derive(Clone, Debug)]
pub struct Bisimulation {
    /// Class of every state (classes numbered `0..num_classes`).
    pub class: Vec<u32>,
    pub num_classes: usize,
    /// Refinement rounds until stable.
    pub rounds: usize,
    /// Minimality analyses answered by solving LPs, and from the cache.
    pub lp_solved: usize,
    pub lp_cached: usize,
    /// How the containment LPs behind the solved analyses were decided (all exactly).
    pub lp_stats: LpStats,
}

/// Choice bounds in fixed point, with distribution sums repaired to be feasible exactly where
/// they are off only by rounding (one unit per entry).
pub(crate) struct FixedChoices {
    pub lo: Vec<i64>,
    pub hi: Vec<i64>,
}

pub(crate) fn fixed_choices(m: &Model) -> FixedChoices {
    let n = m.num_transitions();
    let mut lo = Vec::with_capacity(n);
    let mut hi = Vec::with_capacity(n);
    for t in 0..n {
        let (l, u) = bounds(m, t);
        lo.push(fixed(l));
        hi.push(fixed(u));
    }
    for c in 0..m.num_choices() {
        let r = m.trans(c);
        let k = r.len() as i64;
        let lsum: i64 = lo[r.clone()].iter().sum();
        if lsum > ONE && lsum - ONE <= k {
            let mut excess = lsum - ONE;
            for t in r.clone() {
                let d = excess.min(lo[t]);
                lo[t] -= d;
                excess -= d;
            }
        }
        let usum: i64 = hi[r.clone()].iter().sum();
        if usum < ONE && ONE - usum <= k {
            let mut missing = ONE - usum;
            for t in r.clone() {
                let d = missing.min(ONE - hi[t]);
                hi[t] += d;
                missing -= d;
            }
        }
    }
    FixedChoices { lo, hi }
}

/// The distinct non-empty polytopes `P^{s,a}_R` of state `s` for the partition `class`, sorted.
pub(crate) fn state_polytopes(
    m: &Model,
    fc: &FixedChoices,
    class: &[u32],
    s: usize,
) -> Vec<Polytope> {
    let mut ps: Vec<Polytope> = m
        .choices(s)
        .filter_map(|c| {
            let raw: Vec<(u32, i64, i64)> = m
                .trans(c)
                .map(|t| (class[m.cols[t] as usize], fc.lo[t], fc.hi[t]))
                .collect();
            Polytope::from_bounds(raw)
        })
        .collect();
    ps.sort_unstable();
    ps.dedup();
    ps
}

/// Caches the strictly minimal subset of a set of polytopes.
#[derive(Default)]
pub(crate) struct MinimalCache {
    map: HashMap<Vec<Polytope>, Vec<bool>>,
    pub solved: usize,
    pub cached: usize,
    pub stats: LpStats,
}

impl MinimalCache {
    pub(crate) fn minimal(&mut self, ps: Vec<Polytope>) -> Vec<Polytope> {
        if ps.len() <= 1 {
            return ps;
        }
        let mask = match self.map.get(&ps) {
            Some(m) => {
                self.cached += 1;
                m.clone()
            }
            None => {
                self.solved += 1;
                let m = strictly_minimal_counted(&ps, &mut self.stats);
                self.map.insert(ps.clone(), m.clone());
                m
            }
        };
        ps.into_iter()
            .zip(mask)
            .filter(|(_, keep)| *keep)
            .map(|(p, _)| p)
            .collect()
    }
}

/// The coarsest alternating probabilistic bisimulation refining the initial partition
/// `labels` (states with equal values start in the same class; typically the label sets).
pub fn bisimulation(m: &Model, labels: &[u32]) -> Bisimulation {
    let n = m.num_states();
    let fc = fixed_choices(m);
    let mut cache = MinimalCache::default();
    // Normalise the initial partition to 0..k.
    let mut class = vec![0u32; n];
    let mut ids: HashMap<u32, u32> = HashMap::default();
    for s in 0..n {
        let next = ids.len() as u32;
        class[s] = *ids
            .entry(labels.get(s).copied().unwrap_or(0))
            .or_insert(next);
    }
    let mut num = ids.len();
    let mut rounds = 0;
    // Signatures are flattened into a reused buffer (`class, then len, (class, lo, hi)… per
    // strictly minimal polytope`) and interned by slice, so a round allocates only per new class.
    let mut key: Vec<i64> = Vec::new();
    let mut raw: Vec<(u32, i64, i64)> = Vec::new();
    loop {
        rounds += 1;
        let mut sig_ids: HashMap<Vec<i64>, u32> = HashMap::default();
        let mut next = vec![0u32; n];
        for s in 0..n {
            key.clear();
            key.push(class[s] as i64);
            let ch = m.choices(s);
            if ch.len() == 1 {
                raw.clear();
                raw.extend(
                    m.trans(ch.start)
                        .map(|t| (class[m.cols[t] as usize], fc.lo[t], fc.hi[t])),
                );
                Polytope::push_tight(&mut raw, &mut key);
            } else {
                let ps = state_polytopes(m, &fc, &class, s);
                for p in cache.minimal(ps) {
                    key.push(p.entries.len() as i64);
                    for &(c, l, u) in &p.entries {
                        key.extend_from_slice(&[c as i64, l, u]);
                    }
                }
            }
            let k = sig_ids.len() as u32;
            next[s] = match sig_ids.get(key.as_slice()) {
                Some(&id) => id,
                None => {
                    sig_ids.insert(key.clone(), k);
                    k
                }
            };
        }
        let new_num = sig_ids.len();
        tracing::debug!("bisimulation round {rounds}: {new_num} classes");
        class = next;
        if new_num == num {
            break;
        }
        num = new_num;
    }
    Bisimulation {
        class,
        num_classes: num,
        rounds,
        lp_solved: cache.solved,
        lp_cached: cache.cached,
        lp_stats: cache.stats,
    }
}

/// The initial partition by per-state values: states are together iff they agree on every
/// vector of `keys` (labels as 0/1, reward values, atomic propositions of properties).
pub fn partition_by(n: usize, keys: &[Vec<f64>]) -> Vec<u32> {
    let mut ids: HashMap<Vec<u64>, u32> = HashMap::default();
    (0..n)
        .map(|s| {
            let k: Vec<u64> = keys
                .iter()
                .map(|v| v.get(s).copied().unwrap_or(0.0).to_bits())
                .collect();
            let next = ids.len() as u32;
            *ids.entry(k).or_insert(next)
        })
        .collect()
}

/// The initial partition by the model's labels (`init`, `deadlock` excluded).
pub fn label_partition(
    m: &Model,
    prog: &crate::lang::typecheck::Program,
) -> Result<Vec<u32>, verikit_diag::Diagnostic> {
    let n = m.num_states();
    let mut key: Vec<Vec<bool>> = vec![Vec::new(); n];
    for (_, e) in &prog.labels {
        let v = crate::build::eval_states(m, e)?;
        for s in 0..n {
            key[s].push(v[s]);
        }
    }
    let mut ids: HashMap<Vec<bool>, u32> = HashMap::default();
    Ok(key
        .into_iter()
        .map(|k| {
            let next = ids.len() as u32;
            *ids.entry(k).or_insert(next)
        })
        .collect())
}
