//! The subsume rule of global guidance — H. G. Vediramana Krishnan, Y. Chen, S. Shoham, A.
//! Gurfinkel, "Global Guidance for Local Generalization in Model Checking", CAV 2020, §4
//! (lemma clusters by anti-unification of their numeric constants, and the *Subsume* rule: one
//! lemma for the whole cluster, the convex closure of its constants with their divisibility).
//!
//! A cluster is the set of lemma cubes of one predicate that agree everywhere except in the
//! constants of some literals (`x ≤ 1 ∧ x ≥ 1 ∧ y ≤ x`, `x ≤ 3 ∧ x ≥ 3 ∧ y ≤ x`, …): local
//! generalisation is enumerating the values of a term one at a time. The candidates offered here
//! replace the literals whose constants vary by what the cluster's constants have in common —
//! a congruence `t mod g = r` when they all differ by multiples of `g ≥ 2` (the divisibility part
//! of the paper's convex closure), else nothing — so one lemma can stand for all of them. The
//! caller keeps a candidate only when it is blocked (relative induction), so a candidate is a
//! conjecture, never trusted.
//!
//! The *Conjecture* rule (same section): when the literals whose constants vary are bounds on a
//! term that the search is enumerating (`2k - n ≤ 199`, `≤ 198`, … one lemma per level), the
//! proof obligation that produced the new lemma is conjectured without its literals on that
//! term (`n ≥ 2k ∧ i + j - n ≥ 1` becomes `i + j - n ≥ 1`); if the rest is blocked, its lemma
//! stands for the whole family.

use crate::cfa::{Atom, Lin};
use crate::mbp::Lit;
use crate::path_interp::gcd;

/// Smallest cluster (the new lemma included) for which the rule is tried.
pub(crate) const MIN_CLUSTER: usize = 3;

/// The literal with its constant(s) removed: the pattern two literals of a cluster share.
fn pattern(l: &Lit) -> Lit {
    match l {
        Lit::Lin(a) => Lit::Lin(Atom {
            lin: Lin {
                coeffs: a.lin.coeffs.clone(),
                konst: 0,
            },
            eq: a.eq,
        }),
        Lit::Mod(t, m, _) => Lit::Mod(
            Lin {
                coeffs: t.coeffs.clone(),
                konst: 0,
            },
            *m,
            0,
        ),
        Lit::NotMod(t, m, _) => Lit::NotMod(
            Lin {
                coeffs: t.coeffs.clone(),
                konst: 0,
            },
            *m,
            0,
        ),
    }
}

/// The value the literal pins its term to: `t + c` (`≤ 0` or `= 0`) gives `-c`; `t mod m = r`
/// gives `r`.
fn constant(l: &Lit) -> i128 {
    match l {
        Lit::Lin(a) => a.lin.konst.saturating_neg(),
        Lit::Mod(t, m, r) | Lit::NotMod(t, m, r) => (r - t.konst).rem_euclid((*m).max(1)),
    }
}

/// Whether two cubes have the same literals up to constants, position by position.
fn same_pattern(a: &[Lit], b: &[Lit]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| pattern(x) == pattern(y))
}

/// The lemmas among `lemmas` with the pattern of `new`, when with `new` they are at least
/// `MIN_CLUSTER`.
fn cluster_of<'l>(new: &[Lit], lemmas: &[&'l [Lit]]) -> Option<Vec<&'l [Lit]>> {
    let cluster: Vec<&[Lit]> = lemmas
        .iter()
        .copied()
        .filter(|c| same_pattern(c, new))
        .collect();
    (cluster.len() + 1 >= MIN_CLUSTER).then_some(cluster)
}

/// The convex closure of a cluster whose members lie on a line: two bounds `t₁ + c₁ ≤ 0` and
/// `t₂ + c₂ ≤ 0` whose constants vary in the cluster but whose sum `c₁ + c₂` does not (`x ≥ c ∧ y
/// ≤ c` for every `c`) are replaced by their sum `t₁ + t₂ + c₁ + c₂ ≤ 0` (`y - x ≤ 0`), which
/// every member implies. Each varying bound is used in at most one pair. Returned with the sums:
/// each paired bound at its weakest constant in the cluster (`x ≥ c_min`, `y ≤ c_max`), the end
/// of the segment the members lie on; the sum with one of them is the closure of a family that
/// the search enumerates in one direction (`x ≥ 1 ∧ y - x ≤ 0` for `x ≥ c ∧ y ≤ c`, `c = 1, 2,
/// …`), the projection of `c` from `c ≥ c_min ∧ x ≥ c ∧ y ≤ c`.
fn paired_sums(new: &[Lit], cluster: &[&[Lit]]) -> (Vec<Lit>, Vec<Lit>) {
    let varying = |i: usize| {
        new.get(i).is_some_and(|l| {
            cluster
                .iter()
                .any(|c| c.get(i).is_some_and(|o| constant(o) != constant(l)))
        })
    };
    let bound = |c: &[Lit], i: usize| match c.get(i) {
        Some(Lit::Lin(a)) if !a.eq => Some(a.lin.konst),
        _ => None,
    };
    let mut used = vec![false; new.len()];
    let (mut out, mut ends) = (Vec::new(), Vec::new());
    for i in 0..new.len() {
        if used.get(i) == Some(&true) || !varying(i) || bound(new, i).is_none() {
            continue;
        }
        for j in i + 1..new.len() {
            if used.get(j) == Some(&true) || !varying(j) {
                continue;
            }
            let (Some(a), Some(b)) = (bound(new, i), bound(new, j)) else {
                continue;
            };
            let sum = a.checked_add(b);
            let on_line = cluster.iter().all(|c| match (bound(c, i), bound(c, j)) {
                (Some(x), Some(y)) => x.checked_add(y) == sum,
                _ => false,
            });
            let (Some(Lit::Lin(x)), Some(Lit::Lin(y))) = (new.get(i), new.get(j)) else {
                continue;
            };
            let Ok(t) = x.lin.add(&y.lin) else { continue };
            if on_line && !t.coeffs.is_empty() {
                out.push(Lit::Lin(Atom::le0(t)));
                for (k, a) in [(i, x), (j, y)] {
                    if let Some(u) = used.get_mut(k) {
                        *u = true;
                    }
                    // `t + c ≤ 0` at its weakest: the least constant of the cluster.
                    let c = cluster
                        .iter()
                        .filter_map(|m| bound(m, k))
                        .fold(a.lin.konst, i128::min);
                    let lin = Lin {
                        coeffs: a.lin.coeffs.clone(),
                        konst: c,
                    };
                    ends.push(Lit::Lin(Atom::le0(lin)));
                }
                break;
            }
        }
    }
    (out, ends)
}

/// The subsume candidates for the cluster of `new` among `lemmas` (cubes of one predicate), most
/// general last: empty when the cluster is smaller than `MIN_CLUSTER` or no literal varies.
pub(crate) fn subsume_candidates(new: &[Lit], lemmas: &[&[Lit]]) -> Vec<Vec<Lit>> {
    let Some(cluster) = cluster_of(new, lemmas) else {
        return Vec::new();
    };
    let mut kept: Vec<Lit> = Vec::new();
    let mut congruences: Vec<Lit> = Vec::new();
    let mut varies = false;
    for (i, l) in new.iter().enumerate() {
        let c0 = constant(l);
        let g = cluster
            .iter()
            .filter_map(|c| c.get(i))
            .fold(0i128, |g, o| gcd(g, constant(o).saturating_sub(c0).abs()));
        if g == 0 {
            kept.push(l.clone());
            continue;
        }
        varies = true;
        if let (Lit::Lin(_), true) = (l, g >= 2) {
            let Lit::Lin(a) = pattern(l) else { continue };
            // `-t mod g = r` is `t mod g = -r mod g`: one sign per term.
            let m = match a.lin.coeffs.values().next() {
                Some(&c) if c < 0 => match a.lin.scale(-1) {
                    Ok(t) => Lit::Mod(t, g, c0.saturating_neg().rem_euclid(g)),
                    Err(_) => continue,
                },
                _ => Lit::Mod(a.lin, g, c0.rem_euclid(g)),
            };
            if !congruences.contains(&m) {
                congruences.push(m);
            }
        }
    }
    if !varies {
        return Vec::new();
    }
    let mut out = Vec::new();
    if !congruences.is_empty() {
        let mut c = kept.clone();
        c.extend(congruences);
        out.push(c);
    }
    let (sums, ends) = paired_sums(new, &cluster);
    if !sums.is_empty() {
        let mut c = kept.clone();
        c.extend(sums);
        // The segment's ends, then one end (the family enumerated in one direction).
        let mut both = c.clone();
        both.extend(ends.iter().cloned());
        out.push(both);
        if let [a, b] = ends.as_slice() {
            for e in [a, b] {
                let mut one = c.clone();
                one.push(e.clone());
                out.push(one);
            }
        }
        out.push(c);
    }
    if !kept.is_empty() {
        out.push(kept);
    }
    out
}

/// The conjecture for the cluster of `new` among `lemmas`: the literals of `obligation` (the
/// proof obligation `new` was generalised from) that are not on a term whose constant varies in
/// the cluster; `None` when the cluster is smaller than `MIN_CLUSTER`, its members differ in
/// anything but the constant of one bound, or nothing (or everything) would be dropped.
pub(crate) fn conjecture_candidate(
    new: &[Lit],
    lemmas: &[&[Lit]],
    obligation: &[Lit],
) -> Option<Vec<Lit>> {
    let cluster = cluster_of(new, lemmas)?;
    let varying: Vec<&Lit> = new
        .iter()
        .enumerate()
        .filter(|&(i, l)| {
            let c0 = constant(l);
            cluster
                .iter()
                .any(|c| c.get(i).is_some_and(|o| constant(o) != c0))
        })
        .map(|(_, l)| l)
        .collect();
    // One bound moving with the level; a cluster whose members differ in several literals is
    // not an enumeration of one term, and dropping all of them conjectures too much
    // (`three_dots_moving_2`: a conjecture of this kind made later queries slow, 0.04 s → timeout).
    let [Lit::Lin(bound)] = varying.as_slice() else {
        return None;
    };
    if bound.eq {
        return None;
    }
    let v = &bound.lin;
    // The same term up to sign and constant.
    let on_varying = |l: &Lit| {
        let t = l.lin();
        v.coeffs == t.coeffs
            || (v.coeffs.len() == t.coeffs.len()
                && v.coeffs
                    .iter()
                    .all(|(x, c)| t.coeffs.get(x) == Some(&c.saturating_neg())))
    };
    let rest: Vec<Lit> = obligation
        .iter()
        .filter(|l| !on_varying(l))
        .cloned()
        .collect();
    (!rest.is_empty() && rest.len() < obligation.len()).then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mbp::tests::le;

    /// `y - x ≤ 0 ∧ x ≥ c ∧ x ≤ c` for odd `c`: the cluster's lemma is `y ≤ x ∧ x mod 2 = 1`.
    fn pinned(c: i128) -> Vec<Lit> {
        vec![
            le(&[(1, 1), (0, -1)], 0),
            le(&[(0, -1)], c),
            le(&[(0, 1)], -c),
        ]
    }

    #[test]
    fn odd_values_give_a_congruence() {
        let old = [pinned(1), pinned(3)];
        let refs: Vec<&[Lit]> = old.iter().map(Vec::as_slice).collect();
        let cands = subsume_candidates(&pinned(5), &refs);
        let first = cands.first().expect("a candidate");
        assert!(first.contains(&le(&[(1, 1), (0, -1)], 0)));
        assert!(first.contains(&Lit::Mod(Lin::var(0), 2, 1)));
        assert_eq!(first.len(), 2);
        assert_eq!(cands.last(), Some(&vec![le(&[(1, 1), (0, -1)], 0)]));
    }

    #[test]
    fn small_or_constant_clusters_give_nothing() {
        let old = [pinned(1)];
        let refs: Vec<&[Lit]> = old.iter().map(Vec::as_slice).collect();
        assert!(subsume_candidates(&pinned(3), &refs).is_empty());
        let same = [pinned(3), pinned(3)];
        let refs: Vec<&[Lit]> = same.iter().map(Vec::as_slice).collect();
        assert!(subsume_candidates(&pinned(3), &refs).is_empty());
        let other = [vec![le(&[(0, 1)], 1)], vec![le(&[(0, 1)], 2)]];
        let refs: Vec<&[Lit]> = other.iter().map(Vec::as_slice).collect();
        assert!(subsume_candidates(&pinned(3), &refs).is_empty());
    }

    #[test]
    fn a_bound_enumerated_by_level_is_dropped_from_the_obligation() {
        // Lemmas `n ≥ 2k - 199 + l` blocked one level at a time (x0 = k, x1 = n); the
        // obligation `n ≥ 2k ∧ i + j - n ≥ 1` (x2 = i, x3 = j) is conjectured without its bound.
        let bound = |c: i128| vec![le(&[(0, 2), (1, -1)], c)];
        let old = [bound(-199), bound(-198)];
        let refs: Vec<&[Lit]> = old.iter().map(Vec::as_slice).collect();
        let rel = le(&[(2, -1), (3, -1), (1, 1)], 1);
        let obligation = vec![le(&[(0, 2), (1, -1)], 0), rel.clone()];
        assert_eq!(
            conjecture_candidate(&bound(-197), &refs, &obligation),
            Some(vec![rel.clone()])
        );
        // Too small a cluster, or nothing left to conjecture.
        assert_eq!(
            conjecture_candidate(&bound(-197), &refs[..1], &obligation),
            None
        );
        assert_eq!(
            conjecture_candidate(&bound(-197), &refs, &obligation[..1]),
            None
        );
        assert_eq!(conjecture_candidate(&bound(-197), &refs, &[rel]), None);
    }

    #[test]
    fn bounds_on_a_line_give_their_sum() {
        // `x ≥ c ∧ y ≤ c ∧ z ≥ 1` for c = 1, 2, 3: the closure is `y - x ≤ 0 ∧ z ≥ 1`.
        let diag = |c: i128| vec![le(&[(0, -1)], c), le(&[(1, 1)], -c), le(&[(2, -1)], 1)];
        let old = [diag(1), diag(2)];
        let refs: Vec<&[Lit]> = old.iter().map(Vec::as_slice).collect();
        let cands = subsume_candidates(&diag(3), &refs);
        assert!(cands.contains(&vec![le(&[(2, -1)], 1), le(&[(0, -1), (1, 1)], 0)]));
        // Off the line (c and 2c): no sum.
        let skew = |c: i128| vec![le(&[(0, -1)], c), le(&[(1, 1)], -2 * c)];
        let old = [skew(1), skew(2)];
        let refs: Vec<&[Lit]> = old.iter().map(Vec::as_slice).collect();
        assert!(subsume_candidates(&skew(3), &refs)
            .iter()
            .all(|c| c.iter().all(|l| l.lin().coeffs.len() < 2)));
    }

    #[test]
    fn a_family_on_a_line_keeps_the_end_it_starts_from() {
        // `x ≥ c ∧ y ≤ c - 2` for c = 3, 4, 5 (the search moving up): the union of the family
        // is `x ≥ 3 ∧ y - x ≤ -2`, offered before the sum alone.
        let fam = |c: i128| vec![le(&[(0, -1)], c), le(&[(1, 1)], 2 - c)];
        let old = [fam(3), fam(4)];
        let refs: Vec<&[Lit]> = old.iter().map(Vec::as_slice).collect();
        let cands = subsume_candidates(&fam(5), &refs);
        let sum = le(&[(0, -1), (1, 1)], 2);
        let union = vec![sum.clone(), le(&[(0, -1)], 3)];
        let at = |c: &Vec<Lit>| cands.iter().position(|x| x == c);
        assert!(at(&union).is_some());
        assert!(at(&union) < at(&vec![sum.clone()]));
        // Both ends: the segment `3 ≤ x, y ≤ 3` of the three members.
        assert!(cands.contains(&vec![sum, le(&[(0, -1)], 3), le(&[(1, 1)], -3)]));
    }

    #[test]
    fn consecutive_values_drop_the_literal() {
        let old = [pinned(1), pinned(2)];
        let refs: Vec<&[Lit]> = old.iter().map(Vec::as_slice).collect();
        let cands = subsume_candidates(&pinned(3), &refs);
        assert_eq!(cands, vec![vec![le(&[(1, 1), (0, -1)], 0)]]);
    }
}
