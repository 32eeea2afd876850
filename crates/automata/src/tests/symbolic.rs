//! Symbolic HKC (BDD letters) against the explicit algorithms on mintermised `@NFA-bits`
//! automata, with every counterexample replayed by formula evaluation.

use crate::*;
use proptest::prelude::*;

/// A random `@NFA-bits` automaton over atoms `a0..a2` with guards that are conjunctions of literals.
fn arb_bits(max_states: usize) -> impl Strategy<Value = String> {
    (1..=max_states).prop_flat_map(|n| {
        let lit = (0..3u32, any::<bool>());
        let guard = proptest::collection::vec(lit, 0..3);
        let edges = proptest::collection::vec((0..n, guard, 0..n), 0..(3 * n));
        let finals = proptest::collection::vec(0..n, 0..=n);
        (Just(n), edges, finals).prop_map(|(n, edges, finals)| {
            let mut s = String::from("@NFA-bits\n%Initial q0\n%Final");
            for f in finals {
                s.push_str(&format!(" q{f}"));
            }
            s.push('\n');
            for q in 0..n {
                // Every state is mentioned so the state count is n.
                s.push_str(&format!("q{q} false q{q}\n"));
            }
            for (src, guard, dst) in edges {
                let g: Vec<String> = guard
                    .iter()
                    .map(|&(v, pos)| format!("{}a{v}", if pos { "" } else { "!" }))
                    .collect();
                let g = if g.is_empty() {
                    "true".to_string()
                } else {
                    g.join(" & ")
                };
                s.push_str(&format!("q{src} ({g}) q{dst}\n"));
            }
            s
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, .. ProptestConfig::default() })]

    #[test]
    fn symbolic_hkc_agrees_with_explicit((ta, tb) in (arb_bits(4), arb_bits(4))) {
        let (ma, mb) = (mata::parse(&ta).unwrap(), mata::parse(&tb).unwrap());
        let explicit = mata::build(&[ma.clone(), mb.clone()]).unwrap();
        let expected = equivalent(&explicit[0], &explicit[1], EquivAlgo::Subset, &Budget::unlimited()).unwrap().holds;
        let sys = hkc_bdd::build(&[ma, mb]).unwrap();
        let got = hkc_bdd::equivalent(&sys, &sys.auts[0], &sys.auts[1], &Budget::unlimited()).unwrap();
        prop_assert_eq!(got.holds, expected, "{}\n---\n{}", ta, tb);
        if let Some(w) = &got.witness {
            prop_assert_ne!(hkc_bdd::accepts(&sys.auts[0], w), hkc_bdd::accepts(&sys.auts[1], w));
        }
        // A self-comparison always holds.
        prop_assert!(hkc_bdd::equivalent(&sys, &sys.auts[0], &sys.auts[0], &Budget::unlimited()).unwrap().holds);
    }
}

/// Email-filter automata against their bisimulation quotients and each other (when present).
#[test]
fn email_filter_pairs() {
    let Some(dir) = verikit_testkit::shared_path("nfa/email-filter") else {
        eprintln!("skipping: no email-filter data");
        return;
    };
    for (x, y) in [("aut0", "aut1"), ("aut2", "aut2"), ("aut3", "aut4")] {
        let read = |s: &str| std::fs::read_to_string(dir.join(format!("{s}.mata"))).unwrap();
        let (ma, mb) = (
            mata::parse(&read(x)).unwrap(),
            mata::parse(&read(y)).unwrap(),
        );
        let explicit = mata::build(&[ma.clone(), mb.clone()]).unwrap();
        let expected = equivalent(
            &explicit[0],
            &explicit[1],
            EquivAlgo::Hkc { memo: true },
            &Budget::unlimited(),
        )
        .unwrap()
        .holds;
        let sys = hkc_bdd::build(&[ma, mb]).unwrap();
        let got =
            hkc_bdd::equivalent(&sys, &sys.auts[0], &sys.auts[1], &Budget::unlimited()).unwrap();
        assert_eq!(got.holds, expected, "{x} vs {y}");
        if let Some(w) = &got.witness {
            assert_ne!(
                hkc_bdd::accepts(&sys.auts[0], w),
                hkc_bdd::accepts(&sys.auts[1], w)
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, .. ProptestConfig::default() })]

    /// Symbolic antichain inclusion agrees with explicit inclusion (subset construction and
    /// antichains) on the mintermised automata; counterexamples replay by formula evaluation.
    #[test]
    fn symbolic_inclusion_agrees_with_explicit((ta, tb) in (arb_bits(4), arb_bits(4))) {
        let (ma, mb) = (mata::parse(&ta).unwrap(), mata::parse(&tb).unwrap());
        let explicit = mata::build(&[ma.clone(), mb.clone()]).unwrap();
        let expected = included(&explicit[0], &explicit[1], InclAlgo::Subset, &Budget::unlimited()).unwrap().holds;
        prop_assert_eq!(included(&explicit[0], &explicit[1], InclAlgo::Antichain, &Budget::unlimited()).unwrap().holds, expected);
        let sys = hkc_bdd::build(&[ma, mb]).unwrap();
        let got = antichain_bdd::included(&sys, &sys.auts[0], &sys.auts[1], &Budget::unlimited()).unwrap();
        prop_assert_eq!(got.holds, expected, "{}\n---\n{}", ta, tb);
        if let Some(w) = &got.witness {
            prop_assert!(hkc_bdd::accepts(&sys.auts[0], w));
            prop_assert!(!hkc_bdd::accepts(&sys.auts[1], w));
        }
        prop_assert!(antichain_bdd::included(&sys, &sys.auts[0], &sys.auts[0], &Budget::unlimited()).unwrap().holds);
    }
}

/// Email-filter automata: symbolic inclusion against explicit antichains, both directions.
#[test]
fn email_filter_inclusions() {
    let Some(dir) = verikit_testkit::shared_path("nfa/email-filter") else {
        eprintln!("skipping: no email-filter data");
        return;
    };
    for (x, y) in [
        ("aut0", "aut1"),
        ("aut2", "aut2"),
        ("aut3", "aut4"),
        ("aut5", "aut12"),
    ] {
        let read = |s: &str| std::fs::read_to_string(dir.join(format!("{s}.mata"))).unwrap();
        let (ma, mb) = (
            mata::parse(&read(x)).unwrap(),
            mata::parse(&read(y)).unwrap(),
        );
        let explicit = mata::build(&[ma.clone(), mb.clone()]).unwrap();
        let sys = hkc_bdd::build(&[ma, mb]).unwrap();
        for (i, j) in [(0, 1), (1, 0)] {
            let expected = included(
                &explicit[i],
                &explicit[j],
                InclAlgo::Antichain,
                &Budget::unlimited(),
            )
            .unwrap()
            .holds;
            let got =
                antichain_bdd::included(&sys, &sys.auts[i], &sys.auts[j], &Budget::unlimited())
                    .unwrap();
            assert_eq!(got.holds, expected, "{x} vs {y} ({i} ⊆ {j})");
            if let Some(w) = &got.witness {
                assert!(hkc_bdd::accepts(&sys.auts[i], w));
                assert!(!hkc_bdd::accepts(&sys.auts[j], w));
            }
        }
    }
}

/// Both symbolic checks poll the budget: with no work allowed they stop at the first pair
/// instead of answering.
#[test]
fn symbolic_checks_stop_when_the_budget_runs_out() {
    let a = "@NFA-bits\n%Initial q0\n%Final q1\nq0 (a0) q1\nq1 (!a0) q0\n";
    let b = "@NFA-bits\n%Initial q0\n%Final q0\nq0 (true) q0\n";
    let sys = hkc_bdd::build(&[mata::parse(a).unwrap(), mata::parse(b).unwrap()]).unwrap();
    let none = Budget::unlimited().with_work_limit(0);
    let (sa, sb) = (&sys.auts[0], &sys.auts[1]);
    assert!(matches!(
        hkc_bdd::equivalent(&sys, sa, sb, &none),
        Err(verikit_diag::Exhausted::Work)
    ));
    assert!(matches!(
        antichain_bdd::included(&sys, sa, sb, &none),
        Err(verikit_diag::Exhausted::Work)
    ));
    // With budget left the answers come: A ⊆ B (B accepts everything), not equivalent.
    let all = Budget::unlimited();
    assert!(antichain_bdd::included(&sys, sa, sb, &all).unwrap().holds);
    assert!(!hkc_bdd::equivalent(&sys, sa, sb, &all).unwrap().holds);
}
