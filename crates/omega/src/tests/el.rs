//! Emerson–Lei acceptance (issue 19): the generic emptiness check against a disjunctive-normal-form
//! oracle, its lasso witnesses replayed by the independent DNF word checker, products and the
//! complement of deterministic automata against membership of random lasso words, and HOA round
//! trips of random automata with random conditions.

use crate::accepts::{accepts_lasso, accepts_lasso_dnf};
use crate::ltl::eval::Lasso;
use crate::twa::{isomorphic, Twa};
use crate::{dual, emptiness, hoa, product::product, Acc, Marks, Parity};
use proptest::prelude::*;
use rand::{rngs::SmallRng, Rng, SeedableRng};
use verikit_diag::Budget;

const NSETS: u32 = 3;

fn random_acc(rng: &mut SmallRng, depth: u32) -> Acc {
    match rng.gen_range(0..if depth == 0 { 2 } else { 5 }) {
        0 => Acc::inf(rng.gen_range(0..NSETS)),
        1 => Acc::fin(rng.gen_range(0..NSETS)),
        2 => Acc::and(random_acc(rng, depth - 1), random_acc(rng, depth - 1)),
        3 => Acc::or(random_acc(rng, depth - 1), random_acc(rng, depth - 1)),
        _ => match rng.gen_range(0..5) {
            0 => Acc::rabin(1),
            1 => Acc::streett(1),
            2 => Acc::co_buchi(),
            3 => Acc::parity(
                Parity {
                    max: rng.gen(),
                    odd: rng.gen(),
                },
                3,
            ),
            _ => Acc::generalized_co_buchi(2),
        },
    }
}

/// A random automaton over one AP `a` with marks among `NSETS` sets and a random condition;
/// `det` makes it deterministic (each state: one edge on `a`, one on `!a`, some missing).
pub(super) fn random_aut(rng: &mut SmallRng, det: bool) -> Twa {
    let mut t = Twa::new(vec!["a".into()]);
    let n = rng.gen_range(1..5u32);
    for _ in 0..n {
        t.add_state();
    }
    let a = t.ap_var(0);
    let labels = [t.tt(), a.clone(), a.not()];
    for s in 0..n {
        if det {
            for l in [a.clone(), a.not()] {
                if rng.gen_range(0..5) > 0 {
                    let m: Marks = rng.gen_range(0..1 << NSETS);
                    t.add_edge(s, rng.gen_range(0..n), l, m);
                }
            }
        } else {
            for _ in 0..rng.gen_range(0..4) {
                let m: Marks = rng.gen_range(0..1 << NSETS);
                let l = labels[rng.gen_range(0..3)].clone();
                t.add_edge(s, rng.gen_range(0..n), l, m);
            }
        }
    }
    t.init = vec![0];
    if !det && rng.gen_range(0..4) == 0 {
        t.init.push(rng.gen_range(0..n));
    }
    let acc = random_acc(rng, 2);
    t.set_acceptance(NSETS, acc);
    t
}

pub(super) fn random_word(rng: &mut SmallRng) -> Lasso {
    Lasso {
        prefix: (0..rng.gen_range(0..3))
            .map(|_| rng.gen_range(0..2))
            .collect(),
        cycle: (0..rng.gen_range(1..4))
            .map(|_| rng.gen_range(0..2))
            .collect(),
    }
}

/// The oracle: the condition in DNF; for each clause, drop the edges of its `Fin` marks and look
/// for a reachable SCC with an inner edge whose inner edges carry every `Inf` mark of the clause.
fn dnf_nonempty(t: &Twa) -> bool {
    let clauses = t.acceptance().dnf(10_000).unwrap();
    clauses.iter().any(|&(fin, inf)| {
        let mut edges = Vec::new();
        let mut marks = Vec::new();
        for (s, es) in t.states.iter().enumerate() {
            for e in es {
                if !e.label.is_false() && e.marks & fin == 0 {
                    edges.push((s as u32, e.dst));
                    marks.push(e.marks);
                }
            }
        }
        let g = verikit_graph::Csr::from_edges(t.num_states(), &edges);
        // The prefix may cross the clause's Fin edges: reachability in the whole automaton.
        let reach = verikit_graph::reachable(&t.graph(), &t.init);
        let sccs = verikit_graph::sccs(&g);
        let mut acc = vec![(0u64, false); sccs.len()];
        for (&(a, b), &m) in edges.iter().zip(&marks) {
            let c = sccs.comp[a as usize] as usize;
            if reach[a as usize] && sccs.comp[b as usize] as usize == c {
                acc[c].0 |= m;
                acc[c].1 = true;
            }
        }
        acc.iter().any(|&(m, e)| e && m & inf == inf)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Generic emptiness = the DNF oracle; every witness is accepted by the independent checker.
    #[test]
    fn emptiness_matches_dnf_oracle_and_witnesses_replay(seed in any::<u64>()) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let t = random_aut(&mut rng, false);
        let run = emptiness::accepting_lasso_within(&t, &Budget::unlimited()).unwrap();
        prop_assert_eq!(run.is_some(), dnf_nonempty(&t), "{}", hoa::to_hoa(&t));
        if let Some(l) = run {
            let w = l.word(&t);
            prop_assert_eq!(accepts_lasso_dnf(&t, &w, 10_000), Some(true), "{}", hoa::to_hoa(&t));
        }
    }

    /// Membership agrees with the DNF checker; products intersect; the complement of a
    /// deterministic automaton accepts exactly the rejected words.
    #[test]
    fn product_and_deterministic_complement_on_words(seed in any::<u64>()) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let a = random_aut(&mut rng, false);
        let b = random_aut(&mut rng, false);
        let d = random_aut(&mut rng, true);
        let p = product(&a, &b).unwrap();
        let nd = dual::complement_deterministic(&d, &Budget::unlimited()).unwrap();
        prop_assert!(nd.is_deterministic() && nd.is_complete());
        for _ in 0..8 {
            let w = random_word(&mut rng);
            let (ia, ib) = (accepts_lasso(&a, &w), accepts_lasso(&b, &w));
            prop_assert_eq!(Some(ia), accepts_lasso_dnf(&a, &w, 10_000), "{:?} {}", w, hoa::to_hoa(&a));
            prop_assert_eq!(accepts_lasso_dnf(&p, &w, 10_000), Some(ia && ib));
            prop_assert_eq!(accepts_lasso(&p, &w), ia && ib);
            let id = accepts_lasso_dnf(&d, &w, 10_000).unwrap();
            prop_assert_eq!(accepts_lasso_dnf(&nd, &w, 10_000), Some(!id), "{}", hoa::to_hoa(&d));
        }
    }

    /// Random automata with random conditions survive HOA output and input unchanged.
    #[test]
    fn hoa_round_trip(seed in any::<u64>()) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let det = rng.gen();
        let a = random_aut(&mut rng, det);
        let text = hoa::to_hoa(&a);
        let b = hoa::parse(&text).unwrap();
        if matches!(a.acceptance(), Acc::Inf(m) if m != 0b111) {
            // Generalized Büchi on some of the sets: the reader renumbers the sets densely.
            prop_assert!(b.is_generalized_buchi());
            for _ in 0..8 {
                let w = random_word(&mut rng);
                prop_assert_eq!(accepts_lasso(&a, &w), accepts_lasso(&b, &w), "{}", text);
            }
            return Ok(());
        }
        prop_assert_eq!(b.acceptance(), a.acceptance(), "{}", text);
        prop_assert!(isomorphic(&a, &b), "{}", text);
        prop_assert_eq!(hoa::to_hoa(&b), text);
    }
}

#[test]
fn complement_of_nondeterministic_el_is_refused_by_name() {
    let text = "HOA: v1\nStates: 1\nStart: 0\nAP: 1 \"a\"\nacc-name: co-Buchi\nAcceptance: 1 Fin(0)\n--BODY--\nState: 0\n[t] 0 {0}\n[0] 0\n--END--\n";
    let a = hoa::parse(text).unwrap();
    let e = crate::complement::complement(&a).unwrap_err();
    assert!(e.to_string().contains("co-Buchi") && e.to_string().contains("deterministic"));
    // co-Büchi: `a` forever from some point is accepted (the second edge avoids mark 0).
    let l = emptiness::accepting_lasso(&a).unwrap();
    assert_eq!(l.word_text(&a), "cycle{a}");
}

/// Spot's printing of named conditions in HOA output (acc-name then Acceptance).
#[test]
fn hoa_output_names_conditions_as_spot() {
    let mut t = Twa::new(vec!["a".into()]);
    let s = t.add_state();
    let tt = t.tt();
    t.add_edge(s, s, tt, 0b100);
    t.init = vec![s];
    t.set_acceptance(
        4,
        Acc::parity(
            Parity {
                max: true,
                odd: true,
            },
            4,
        ),
    );
    let h = hoa::to_hoa(&t);
    assert!(
        h.contains(
            "acc-name: parity max odd 4\nAcceptance: 4 Inf(3) | (Fin(2) & (Inf(1) | Fin(0)))\n"
        ),
        "{h}"
    );
    t.set_acceptance(3, Acc::and(Acc::fin(0), Acc::or(Acc::inf(1), Acc::inf(2))));
    let h = hoa::to_hoa(&t);
    assert!(
        h.contains("Acceptance: 3 Fin(0) & (Inf(1) | Inf(2))\n") && !h.contains("acc-name"),
        "{h}"
    );
    assert!(!emptiness::is_empty(&hoa::parse(&h).unwrap()));
}
