//! State merges checked by language containment: two states `s`, `t` of an automaton `N` of `φ`
//! are merged into one state carrying the edges of both (edges into `t` redirected to `s`), and
//! the merge is kept iff the merged automaton `M` still only accepts models of `φ`, decided as
//! emptiness of `M ⊗ A(¬φ)`.
//!
//! Every run of `N` is a run of `M` with the same marks (rename `t` to `s`), so `L(N) ⊆ L(M)`;
//! with the emptiness check `L(M) ⊆ L(φ) = L(N)`, the merge preserves the language exactly. This
//! is the "merge, then verify by containment" scheme of the checked reductions of Spot's
//! post-processor (A. Duret-Lutz et al., "Spot 2.0 — a framework for LTL and ω-automata
//! manipulation", ATVA'16, §3: language-containment checks against the automaton of the
//! negation) applied to state merges; unlike simulation-based merges it also merges states whose
//! languages are only one-way included when the union happens to be harmless (`F(d & XFc) | GFc`:
//! the waiting state and the state of `GFc` become one state with a marked `c` loop).
//!
//! Only for small automata (the number of checks is bounded). In a state-based automaton only
//! states with the same acceptance marks are merged, so the result stays state-based.

use crate::twa::{Edge, Twa};
use biodivine_lib_bdd::BddValuation;

/// Largest automaton (states) whose pairs are tried.
pub(crate) const MAX_STATES: usize = 48;
/// The bound the translation uses for its state-based Büchi automata (the second round, on the
/// degeneralised automaton; with the refuting words it costs about 1.1× the `-B` total of a
/// 16-state bound).
pub(crate) const MAX_STATES_SBA: usize = 48;
/// Largest number of emptiness checks per automaton.
pub(crate) const MAX_CHECKS: usize = 400;
/// Work budget per automaton: the total size (states + edges) of the products checked.
pub(crate) const MAX_WORK: usize = 250_000;

/// Largest number of refuting words (models of `¬φ` accepted by a rejected merge) kept and
/// tried on each later candidate before its product is built.
pub(crate) const MAX_WITNESSES: usize = 64;

/// Work budget per automaton for trying the refuting words: the total size (states + edges) of
/// the products of candidates with lasso words (no BDD labels, far cheaper per element than the
/// products with the automaton of the negation).
pub(crate) const MAX_WITNESS_WORK: usize = 20_000_000;

/// `aut` with `t` merged into `s`.
fn merged(aut: &Twa, s: u32, t: u32) -> Twa {
    let rename = |q: u32| if q == t { s } else { q };
    let mut out = aut.clone();
    for es in &mut out.states {
        for e in es.iter_mut() {
            e.dst = rename(e.dst);
        }
    }
    let moved: Vec<Edge> = std::mem::take(&mut out.states[t as usize]);
    out.states[s as usize].extend(moved);
    let mut init: Vec<u32> = out.init.iter().map(|&i| rename(i)).collect();
    init.sort_unstable();
    init.dedup();
    out.init = init;
    // State-based automata merge only states with the same marks, so they stay state-based.
    out.state_based = aut.state_based && out.compute_state_based();
    // `t` is now unreachable; the caller's pruning removes it.
    out
}

/// The order in which the greedy search tries the pairs `(s, t)`, `s < t`, of state indices.
/// Greedy merging stops in a local minimum that depends on this order: for
/// `Xb R (((Xa & F!d) | (X!a & Gd)) U !c)` the index order ends at 14 states and the reverse
/// order at 13, for `G(((Xb R ((Fc & F!d) | G(!c & d))) M (!d U a)) M XG(c | F!a | XGc))` the
/// index order at 39 and the reverse one at 34, while elsewhere the index order wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PairOrder {
    /// `(0, 1), (0, 2), …, (1, 2), …`: states near the initial state first.
    Index,
    /// The reverse: the pairs of the last-numbered states first.
    Reverse,
}

/// The orders [`merge_states`] tries.
pub(crate) const ORDERS: [PairOrder; 2] = [PairOrder::Index, PairOrder::Reverse];

/// Greedily merges pairs of states of `aut` (an automaton of `φ`) while the merged automaton
/// has an empty product with `neg` (an automaton of `¬φ`), simplifying after each kept merge with
/// `simplify`, once per pair order of [`ORDERS`] (the later orders only on automata of at most
/// [`LATER_MAX_STATES`] states, and only when the first pass merged something or ran out of
/// budget: otherwise every pair was tried and rejected), and returns the smallest result (states,
/// then edges). Each pass has its own budgets; a later pass tries the refuting words found by the
/// earlier ones first and skips the pairs of `aut` they rejected. Returns `aut` itself when
/// nothing was merged or the automaton is out of scope.
pub(crate) fn merge_states(aut: &Twa, neg: &Twa, simplify: &dyn Fn(&Twa) -> Twa) -> Twa {
    let mut known = Known::default();
    let mut best = aut.clone();
    for (k, order) in ORDERS.into_iter().enumerate() {
        // A first pass that merged nothing within its budgets tried every pair of `aut`: every
        // later order would try the same pairs and fail.
        if k > 0
            && (aut.num_states() > LATER_MAX_STATES || !(known.first_merged || known.out_of_budget))
        {
            break;
        }
        let m = greedy(aut, neg, simplify, MAX_CHECKS, MAX_WORK, order, &mut known);
        if (m.num_states(), m.num_edges()) < (best.num_states(), best.num_edges()) {
            best = m;
        }
    }
    best
}

/// Largest automaton (states before merging) on which the later orders of [`ORDERS`] are tried.
/// On larger automata a second pass costs as much as the first (up to seconds on 40-state
/// automata, where it would gain 39 → 33 and 30 → 28 states on two random formulas); up to 16
/// states it costs about 5% of the total translation time of the 699 formulas of the shared data.
pub(crate) const LATER_MAX_STATES: usize = 16;

/// What earlier greedy passes learnt: refuting words (models of `¬φ` accepted by a rejected
/// merge), the pairs of the starting automaton whose merge was rejected, whether the first pass
/// merged anything, whether it stopped on a budget, and how many passes ran.
#[derive(Default)]
struct Known {
    witnesses: Vec<Witness>,
    rejected_first: std::collections::HashSet<(u32, u32)>,
    first_merged: bool,
    passes: usize,
    out_of_budget: bool,
}

/// A refuting word: prefix length and the valuation of each letter of prefix and cycle.
type Witness = (usize, Vec<BddValuation>);

/// One greedy pass in the given pair order, using and extending what earlier passes learnt
/// (refuting words up to [`MAX_WITNESSES`]; pairs of the starting automaton already rejected).
fn greedy(
    aut: &Twa,
    neg: &Twa,
    simplify: &dyn Fn(&Twa) -> Twa,
    max_checks: usize,
    max_work: usize,
    order: PairOrder,
    known: &mut Known,
) -> Twa {
    let first_pass = known.passes == 0;
    known.passes += 1;
    if aut.acc_false || aut.num_states() > MAX_STATES {
        return aut.clone();
    }
    let mut cur = aut.clone();
    let mut checks = 0;
    let mut work = 0;
    let mut witness_work = 0;
    // True until a merge is kept: `cur` is still the starting automaton.
    let mut at_start = true;
    'outer: loop {
        let n = cur.num_states() as u32;
        let mut pairs: Vec<(u32, u32)> = (0..n)
            .flat_map(|s| (s + 1..n).map(move |t| (s, t)))
            .collect();
        if order == PairOrder::Reverse {
            pairs.reverse();
        }
        for (s, t) in pairs {
            if checks >= max_checks || work >= max_work || witness_work >= MAX_WITNESS_WORK {
                if first_pass {
                    known.out_of_budget = true;
                }
                break 'outer;
            }
            if cur.state_based && cur.state_marks(s) != cur.state_marks(t) {
                continue;
            }
            if at_start && !first_pass && known.rejected_first.contains(&(s, t)) {
                continue;
            }
            let m = merged(&cur, s, t);
            // A word of `¬φ` that an earlier failed merge accepted refutes this one too
            // when the merged automaton accepts it (no product needed).
            let mut refuted = false;
            for (plen, vals) in known.witnesses.iter() {
                let (acc, cost) = crate::accepts::accepts_valuations(&m, *plen, vals);
                witness_work += cost;
                if acc {
                    refuted = true;
                    break;
                }
            }
            if refuted {
                if at_start && first_pass {
                    known.rejected_first.insert((s, t));
                }
                continue;
            }
            checks += 1;
            let Ok(p) = crate::product::product(&m, neg) else {
                if first_pass {
                    known.out_of_budget = true;
                }
                break 'outer;
            };
            work += p.num_states() + p.num_edges();
            let lasso = crate::emptiness::accepting_lasso(&p);
            if let Some(l) = &lasso {
                if known.witnesses.len() < MAX_WITNESSES {
                    // The product's APs start with those of `m` (`product::ap_union`).
                    let w = l.word(&p);
                    let vals = w.prefix.iter().chain(&w.cycle);
                    let vals = vals.map(|&b| cur.valuation(b)).collect();
                    known.witnesses.push((w.prefix.len(), vals));
                }
            }
            if lasso.is_none() {
                let r = simplify(&m);
                if r.num_states() < cur.num_states() {
                    cur = r;
                    if first_pass {
                        known.first_merged = true;
                    }
                    at_start = false;
                    continue 'outer;
                }
            }
            // Rejected (or kept nothing after simplification): the same on a later pass.
            if at_start && first_pass {
                known.rejected_first.insert((s, t));
            }
        }
        break;
    }
    cur
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ltl::parse::parse;
    use crate::translate::{translate, Options};

    /// `Xb R (((Xa & F!d) | (X!a & Gd)) U !c)`: the index order of the greedy merges stops at 14
    /// states, the reverse order reaches 13 (Spot 2.12.1's size); the result has an empty product
    /// with the automaton of the negation and agrees with the LTL evaluator on every lasso of up
    /// to 1 + 2 letters.
    #[test]
    fn reverse_order_reaches_a_smaller_automaton() {
        let mut a = crate::ltl::Arena::new();
        let f = parse("Xb R (((Xa & F!d) | (X!a & Gd)) U !c)", &mut a).unwrap();
        let nf = a.not(f);
        let raw = crate::translate::raw_options();
        let neg = crate::prune::prune(&translate(&mut a, nf, &raw).unwrap());
        let n = translate(&mut a, f, &Options::default()).unwrap();
        assert_eq!(n.num_states(), 13);
        assert!(crate::emptiness::is_empty(
            &crate::product::product(&n, &neg).unwrap()
        ));
        let mut known = Known::default();
        let simplify = &crate::postproc::simplify;
        let mut sizes = Vec::new();
        // The translation's automaton before the merges: the pipeline without them.
        let pre = crate::postproc::simplify(&translate(&mut a, f, &raw).unwrap());
        for order in ORDERS {
            let m = greedy(
                &pre, &neg, simplify, MAX_CHECKS, MAX_WORK, order, &mut known,
            );
            assert!(crate::emptiness::is_empty(
                &crate::product::product(&m, &neg).unwrap()
            ));
            sizes.push(m.num_states());
        }
        assert!(sizes[1] < sizes[0], "{sizes:?}");
        for w in crate::ltl::eval::Lasso::all(16, 1, 2) {
            assert_eq!(
                crate::accepts::accepts_lasso(&n, &w),
                crate::ltl::eval::holds(&a, f, &w),
                "{w:?}"
            );
        }
    }

    /// `F(d & XFc) | GFc`: the 4-state automaton (tableau, then simulation) becomes 3 states,
    /// and the result agrees with the LTL evaluator on every lasso of up to 2 + 3 letters.
    #[test]
    fn merges_the_waiting_state_with_gfc() {
        let mut a = crate::ltl::Arena::new();
        let f = parse("F(d & XFc) | GFc", &mut a).unwrap();
        let nf = a.not(f);
        let raw = crate::translate::raw_options();
        let n = crate::postproc::simplify(&translate(&mut a, f, &raw).unwrap());
        let neg = translate(&mut a, nf, &raw).unwrap();
        let r = merge_states(&n, &neg, &crate::postproc::simplify);
        assert_eq!((n.num_states(), r.num_states()), (4, 3));
        for w in crate::ltl::eval::Lasso::all(4, 2, 3) {
            assert_eq!(
                crate::accepts::accepts_lasso(&r, &w),
                crate::ltl::eval::holds(&a, f, &w),
                "{w:?}"
            );
        }
    }
}
