//! Simulation-based minimisation of generalized Büchi automata: quotienting by delayed-simulation
//! equivalence, fair-simulation merges and "little brother" edge removals checked by re-lifting
//! the fair-simulation ranks, and the direct-simulation baseline.
//!
//! Paper: S. Juvekar, N. Piterman, "Minimizing Generalized Büchi Automata", CAV 2006, §4
//! (§4.1 merging `N(t ← s)` and the games `add(G, Δ)` / `rem(G, Δ)`, Theorems 6 and 7; §4.2
//! fair-simulation minimisation after Gurumurthy–Bloem–Somenzi: a merge or an edge removal is
//! kept only if the modified automaton and the original are still fair-simulation equivalent,
//! checked by re-lifting from the previous ranks, Lemma 1; §4.3 delayed-simulation minimisation,
//! Theorem 8) and §5 (the pipeline: fair, delayed, or fair then delayed).
//!
//! Where it applies. The games ([`crate::sim_game`]) are played on edges, so the reductions run
//! on the kernel's transition-based automata as well as on state-based ones:
//! - *Fair merges and little brothers* are sound on any automaton, because every change is checked:
//!   a merge of `s` and `t` is tried as the automaton `M` in which both get the union of their
//!   incoming and outgoing edges (an edge addition `add(N, Δ)`; `L(M) ⊇ L(N)`), and it is kept
//!   only if every initial state of `M` is fair-simulated by an initial state of `N` (so
//!   `L(M) ⊆ L(N)`); the states of a merged group then have identical edges and the quotient has
//!   `M`'s language (Theorem 7). An edge removal is kept only if the automaton without the edge
//!   still fair-simulates the original at the initial states.
//! - *Delayed quotient.* On a state-based automaton this is the paper's Theorem 8: a class of
//!   delayed-equivalent states becomes one state carrying the union of the members' acceptance
//!   sets, and the output stays state-based. On a transition-based automaton the class keeps each
//!   member edge with its own marks; the proof of Theorem 8 carries over to the automaton of edges
//!   (a run of the quotient is matched segment by segment, for one acceptance set at a time, by
//!   the duplicator's strategy for the pair of that set, and the round location of the game
//!   sees the spoiler's and the duplicator's marks of the same step). Classes are formed only of
//!   pairwise delayed-equivalent states, and the quotient is iterated on its own game until no
//!   two states are equivalent.
//! - Games are built within the location budget of [`crate::sim_game`] (letters as BDD classes,
//!   no bound on propositions or states); an automaton whose game exceeds it is returned
//!   unchanged (`applied: false`).
//!
//! The pipeline (§5: Wring's minimisation step applies direct, then fair, then delayed
//! simulation). `fair` is direct simulation, then fair merges, then little-brother removals;
//! `delayed` is direct simulation, then the delayed quotient; `fair+delayed` is `fair` then the
//! delayed quotient. The whole sequence is repeated until the automaton stops shrinking (a merge
//! or a removal changes the simulation relations, so a second pass finds new candidates).
//!
//! The checked changes are the algorithms of [`crate::fair_merge`] (merges) and
//! [`crate::little_brothers`] (removals); this module runs them with the game solver that fits
//! the automaton: Zielonka's algorithm ([`crate::zielonka`], exact) for at most one acceptance
//! set, rank lifting ([`crate::fair_sim`], incremental checks within work budgets, §4.2 Lemma 1)
//! otherwise. The caller's [`Budget`] is polled between passes and by the algorithms; when it
//! runs out, the automaton reached so far is returned (every step kept was checked).

use crate::quotient::quotient;
use crate::sim_game::{Game, GameSolver};
use crate::twa::{Marks, Twa};
use crate::{direct_sim, fair_merge, little_brothers};
use std::time::Instant;
use verikit_diag::Budget;

/// Largest number of passes of the pipeline.
pub(crate) const MAX_PASSES: usize = 6;

/// The reduction to apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Direct,
    Delayed,
    Fair,
    FairDelayed,
}

impl Method {
    pub fn parse(s: &str) -> Option<Method> {
        match s {
            "direct" => Some(Method::Direct),
            "delayed" => Some(Method::Delayed),
            "fair" => Some(Method::Fair),
            "fair+delayed" | "fair-delayed" => Some(Method::FairDelayed),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Method::Direct => "direct",
            Method::Delayed => "delayed",
            Method::Fair => "fair",
            Method::FairDelayed => "fair+delayed",
        }
    }
}

/// The paper's columns: states, transitions, acceptance sets ("fairness conditions"), initial
/// states; plus the number of states with an accepting outgoing edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Sizes {
    pub states: usize,
    pub transitions: usize,
    pub acc_sets: usize,
    pub accepting_states: usize,
    pub initial: usize,
}

pub(crate) fn sizes(a: &Twa) -> Sizes {
    Sizes {
        states: a.num_states(),
        transitions: a
            .states
            .iter()
            .flatten()
            .filter(|e| !e.label.is_false())
            .count(),
        acc_sets: a.num_sets as usize,
        accepting_states: a
            .states
            .iter()
            .filter(|es| es.iter().any(|e| e.marks & a.all_marks() != 0))
            .count(),
        initial: a.init.len(),
    }
}

/// Counters of one reduction run.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct ReduceStats {
    pub before: Sizes,
    pub after: Sizes,
    pub merges_tried: usize,
    pub merges_kept: usize,
    pub removals_tried: usize,
    pub removals_kept: usize,
    pub delayed_classes_merged: usize,
    /// False when the automaton was too large for the games (returned unchanged, or only
    /// partly reduced).
    pub applied: bool,
    /// Passes of the pipeline run.
    pub passes: usize,
    /// Rank lifts done by the fair-simulation checks.
    pub lifts: u64,
    /// Candidates left untried or given up because of the work budgets.
    pub over_budget: usize,
    pub time_s: f64,
}

/// Applies a method; returns the reduced automaton (language-equivalent) and the counters. When
/// `budget` runs out, the automaton reached so far (`applied` stays true for what was done). An
/// automaton whose acceptance is not generalized Büchi is returned unchanged with `applied`
/// false (the games read marks as generalized Büchi sets).
pub fn reduce(aut: &Twa, method: Method, budget: &Budget) -> (Twa, ReduceStats) {
    let t0 = Instant::now();
    let mut st = ReduceStats {
        before: sizes(aut),
        applied: true,
        ..ReduceStats::default()
    };
    let out = match method {
        // Other acceptance conditions are kept as they are (`applied` false).
        _ if !aut.is_generalized_buchi() => {
            st.applied = false;
            aut.clone()
        }
        Method::Direct => direct_sim::reduce(aut),
        _ if aut.acc_false || !Game::build_ok(aut) => {
            st.applied = false;
            aut.clone()
        }
        _ => {
            let mut cur = aut.clone();
            for _ in 0..MAX_PASSES {
                if budget.check().is_err() {
                    break;
                }
                let before = sizes(&cur);
                cur = direct_sim::reduce(&cur);
                if method != Method::Delayed {
                    match fair_reduce(&cur, &mut st, budget) {
                        Some(r) => cur = r,
                        None => {
                            st.applied = false;
                            break;
                        }
                    }
                }
                if method != Method::Fair {
                    cur = delayed_quotient(&cur, &mut st, budget);
                }
                st.passes += 1;
                if sizes(&cur) == before {
                    break;
                }
            }
            cur
        }
    };
    st.after = sizes(&out);
    st.time_s = t0.elapsed().as_secs_f64();
    (out, st)
}

/// Classes of pairwise equivalent states of a preorder (`sim[p * n + q]`), greedily; with
/// `marks`, only states with equal marks are grouped.
fn classes(sim: &[bool], n: usize, marks: Option<&[Marks]>) -> (Vec<u32>, usize) {
    let mut class = vec![u32::MAX; n];
    let mut members: Vec<Vec<usize>> = Vec::new();
    for p in 0..n {
        if class[p] != u32::MAX {
            continue;
        }
        let c = members.len();
        class[p] = c as u32;
        let mut m = vec![p];
        for q in p + 1..n {
            if class[q] == u32::MAX
                && marks.is_none_or(|mk| mk[p] == mk[q])
                && m.iter().all(|&x| sim[x * n + q] && sim[q * n + x])
            {
                class[q] = c as u32;
                m.push(q);
            }
        }
        members.push(m);
    }
    (class, members.len())
}

/// Quotient by delayed-simulation equivalence, iterated until no two states are equivalent.
///
/// Other acceptance conditions: the automaton unchanged (the game refuses them).
pub(crate) fn delayed_quotient(aut: &Twa, st: &mut ReduceStats, budget: &Budget) -> Twa {
    let mut cur = aut.clone();
    for _ in 0..8 {
        let n = cur.num_states();
        if n <= 1 || budget.check().is_err() {
            break;
        }
        let Some(sim) = crate::delayed_sim::delayed_simulation(&cur) else {
            break;
        };
        // State-based automata (labels on edges, marks on states): only states with the same
        // marks are merged, so that every edge keeps its own marks (the transition-based
        // quotient) and the result stays state-based. Giving a class the union of its members'
        // marks (the paper's rule for state-labelled automata) is unsound when labels are on
        // edges: the merged state would accept through an edge of a non-accepting member.
        let marks: Option<Vec<Marks>> = cur
            .state_based
            .then(|| (0..n as u32).map(|s| cur.state_marks(s)).collect());
        let (class, nc) = classes(&sim, n, marks.as_deref());
        if nc == n {
            break;
        }
        st.delayed_classes_merged += n - nc;
        cur = quotient(&cur, &class, nc);
    }
    cur
}

/// Fair-simulation minimisation: the checked merges of [`crate::fair_merge`], then the checked
/// little-brother removals of [`crate::little_brothers`], with Zielonka's algorithm for at most
/// one acceptance set and rank lifting otherwise. `None` if a game is too large.
pub(crate) fn fair_reduce(aut: &Twa, st: &mut ReduceStats, budget: &Budget) -> Option<Twa> {
    let solver = if aut.num_sets <= 1 {
        GameSolver::Zielonka
    } else {
        GameSolver::RankLifting
    };
    let (merged, ms) = fair_merge::merges(aut, solver, budget)?;
    st.merges_tried += ms.tried;
    st.merges_kept += ms.kept;
    st.lifts += ms.lifts;
    st.over_budget += ms.over_budget;
    if !ms.applied {
        st.applied = false;
    }
    let (r, lb) = little_brothers::reduce(&merged, solver, crate::sim_game::MAX_LOCS, budget)?;
    st.removals_tried += lb.tried;
    st.removals_kept += lb.kept;
    st.lifts += lb.lifts;
    st.over_budget += lb.over_budget;
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_names_round_trip() {
        for m in [
            Method::Direct,
            Method::Delayed,
            Method::Fair,
            Method::FairDelayed,
        ] {
            assert_eq!(Method::parse(m.name()), Some(m));
        }
        assert_eq!(Method::parse("bisim"), None);
    }
}

#[cfg(test)]
mod sample_tests {
    use super::*;
    use crate::sim_game::tests::hoa;

    #[test]
    fn delayed_quotient_merges_equivalent_cycle() {
        // 0 -> 1 -> 0 with the mark on 1 -> 0, and 0 -> 2 (a loop with the mark on every step).
        let a = hoa(
            "State: 0\n[t] 1\n[t] 2\nState: 1\n[t] 0 {0}\nState: 2\n[t] 2 {0}\n",
            3,
            "1 Inf(0)",
        );
        let (r, st) = reduce(&a, Method::Delayed, &Budget::unlimited());
        assert!(st.applied);
        assert_eq!(r.num_states(), 1, "{}", crate::hoa::to_hoa(&r));
        assert!(!crate::emptiness::is_empty(&r));
        let (f, _) = reduce(&a, Method::Fair, &Budget::unlimited());
        assert_eq!(f.num_states(), 1, "{}", crate::hoa::to_hoa(&f));
    }

    #[test]
    fn fair_merge_rejected_when_unsound() {
        // The classic case where fair-equivalent states must not be merged: 0 and 1 both accept
        // (a|!a)^ω-ish words only through the other; 0 -a-> 1 {mark}, 1 -a-> 0, 0 -!a-> 0, 1 -!a-> 1 {mark}.
        // Whatever the reduction does, the language must be kept (checked by complement).
        let a = hoa(
            "State: 0\n[0] 1 {0}\n[!0] 0\nState: 1\n[0] 0\n[!0] 1 {0}\n",
            2,
            "1 Inf(0)",
        );
        for m in [Method::Delayed, Method::Fair, Method::FairDelayed] {
            let (r, _) = reduce(&a, m, &Budget::unlimited());
            let ca = crate::complement::complement(&a).unwrap();
            let cr = crate::complement::complement(&r).unwrap();
            assert!(crate::emptiness::is_empty(
                &crate::product::product(&r, &ca).unwrap()
            ));
            assert!(crate::emptiness::is_empty(
                &crate::product::product(&a, &cr).unwrap()
            ));
        }
    }
}
