//! Property tests: every algorithm agrees with the subset-construction oracle on thousands of
//! small random NFAs, and every counterexample word is replayed independently.

use super::common;

use crate::nfa::reconcile;
use crate::replay::{check, Claim};
use crate::*;
use proptest::prelude::*;

fn arb_nfa(max_states: usize, letters: usize) -> impl Strategy<Value = Nfa> {
    common::arb_nfa(max_states, letters, 3)
}

fn pair() -> impl Strategy<Value = (Nfa, Nfa)> {
    (1usize..=3).prop_flat_map(|k| (arb_nfa(5, k), arb_nfa(5, k)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, .. ProptestConfig::default() })]

    #[test]
    fn universality_agrees(a in (1usize..=3).prop_flat_map(|k| arb_nfa(6, k))) {
        let oracle = subset::universal(&a);
        for algo in [UnivAlgo::Auto, UnivAlgo::Backward, UnivAlgo::Forward, UnivAlgo::Subset] {
            let r = universal(&a, algo, &Budget::unlimited()).unwrap();
            prop_assert_eq!(r.holds, oracle.holds, "{:?}", algo);
            if let Some(w) = &r.witness {
                prop_assert!(check(Claim::NotUniversal, &a, None, w).2, "{:?} witness {:?}", algo, w);
            }
        }
    }

    #[test]
    fn inclusion_agrees((a, b) in pair()) {
        let oracle = subset::included(&a, &b);
        for algo in [InclAlgo::Antichain, InclAlgo::AntichainNoPrune, InclAlgo::AntichainSim, InclAlgo::Hkc, InclAlgo::Subset] {
            let r = included(&a, &b, algo, &Budget::unlimited()).unwrap();
            prop_assert_eq!(r.holds, oracle.holds, "{:?}", algo);
            if let Some(w) = &r.witness {
                prop_assert!(check(Claim::NotIncluded, &a, Some(&b), w).2, "{:?} witness {:?}", algo, w);
            }
        }
    }

    #[test]
    fn equivalence_agrees((a, b) in pair()) {
        let oracle = subset::equivalent(&a, &b);
        let algos = [
            EquivAlgo::Naive { memo: false }, EquivAlgo::Naive { memo: true },
            EquivAlgo::Hk { memo: false }, EquivAlgo::Hk { memo: true },
            EquivAlgo::Hkc { memo: false }, EquivAlgo::Hkc { memo: true },
            EquivAlgo::Antichain, EquivAlgo::AntichainNoPrune, EquivAlgo::AntichainSim, EquivAlgo::Subset,
        ];
        for algo in algos {
            let r = equivalent(&a, &b, algo, &Budget::unlimited()).unwrap();
            prop_assert_eq!(r.holds, oracle.holds, "{:?}", algo);
            if let Some(w) = &r.witness {
                prop_assert!(check(Claim::NotEquivalent, &a, Some(&b), w).2, "{:?} witness {:?}", algo, w);
            }
        }
    }

    #[test]
    fn reductions_keep_the_language(a in (1usize..=2).prop_flat_map(|k| arb_nfa(7, k))) {
        let bis = bisim::reduce(&a);
        prop_assert!(bis.num_states() <= a.num_states());
        prop_assert!(subset::equivalent(&a, &bis).holds);
        let sim = simulation::reduce(&a, lrt::MEMORY_BUDGET, &Budget::unlimited()).unwrap();
        prop_assert!(sim.num_states() <= bis.num_states().max(1) || a.num_states() == 0);
        prop_assert!(subset::equivalent(&a, &sim).holds);
        let rev = a.reverse().reverse();
        prop_assert!(subset::equivalent(&a, &rev).holds);
        prop_assert!(subset::equivalent(&a, &a.trim()).holds);
        let d = subset::determinize(&a);
        prop_assert!(subset::equivalent(&a, &d).holds);
    }

    #[test]
    fn formats_round_trip(a in (1usize..=3).prop_flat_map(|k| arb_nfa(6, k))) {
        let m = mata::parse_nfa(&mata::write(&a)).unwrap();
        let (x, y, _) = reconcile(&a, &m);
        prop_assert!(subset::equivalent(&x, &y).holds);
        let b = ba::parse(&ba::write(&a)).unwrap();
        let (x, y, _) = reconcile(&a, &b);
        prop_assert!(subset::equivalent(&x, &y).holds);
        let t = timbuk::parse(&timbuk::write(&a)).unwrap();
        let (x, y, _) = reconcile(&a, &t);
        prop_assert!(subset::equivalent(&x, &y).holds);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    /// Holík–Šimáček, LRT and the plain fixed point compute the same relation.
    #[test]
    fn simulation_algorithms_agree(a in (1usize..=3).prop_flat_map(|k| arb_nfa(12, k))) {
        let (mem, poll) = (lrt::MEMORY_BUDGET, &Budget::unlimited());
        let hs = holik_simacek::simulation_within(&a, mem, poll).unwrap();
        let lrt = lrt::simulation_within(&a, mem, poll).unwrap();
        let fix = simulation::simulation(&a);
        for x in 0..a.num_states() as u32 {
            prop_assert_eq!(hs.simulators(x), fix.simulators(x));
            prop_assert_eq!(lrt.simulators(x), fix.simulators(x));
        }
    }

    /// Preprocessing (saturation w.r.t. similarity of `A ⊕ B`, bisimulation quotient) keeps every
    /// algorithm's answer, and witnesses still replay on the original automata.
    #[test]
    fn preprocessing_keeps_the_answers((a, b) in pair()) {
        let incl = subset::included(&a, &b);
        let eq = subset::equivalent(&a, &b);
        for pre in [Preprocess::Sim, Preprocess::Bisim] {
            let (a2, b2) = preprocess(&a, &b, pre, lrt::MEMORY_BUDGET, &Budget::unlimited()).unwrap();
            for algo in [InclAlgo::Antichain, InclAlgo::Hkc] {
                let r = included(&a2, &b2, algo, &Budget::unlimited()).unwrap();
                prop_assert_eq!(r.holds, incl.holds, "{:?} {:?}", pre, algo);
                if let Some(w) = &r.witness {
                    prop_assert!(check(Claim::NotIncluded, &a, Some(&b), w).2);
                }
            }
            for algo in [EquivAlgo::Hkc { memo: true }, EquivAlgo::Hk { memo: true }, EquivAlgo::Antichain] {
                let r = equivalent(&a2, &b2, algo, &Budget::unlimited()).unwrap();
                prop_assert_eq!(r.holds, eq.holds, "{:?} {:?}", pre, algo);
                if let Some(w) = &r.witness {
                    prop_assert!(check(Claim::NotEquivalent, &a, Some(&b), w).2);
                }
            }
        }
    }
}

/// Simulation really is a simulation, and contains bisimilarity.
#[test]
fn simulation_is_sound() {
    let a = gen::tabakov_vardi(&gen::TvParams {
        states: 40,
        letters: 2,
        density: 1.5,
        final_density: 0.5,
        initial: 0,
        seed: 3,
    });
    let sim = simulation::simulation(&a);
    let bis = bisim::bisimilarity(&a);
    for x in 0..40u32 {
        for y in 0..40u32 {
            if bis[x as usize] == bis[y as usize] {
                assert!(sim.le(x, y));
            }
            if sim.le(x, y) {
                assert!(!a.is_final(x) || a.is_final(y));
                for l in 0..2 {
                    for &x2 in a.post(x, l) {
                        assert!(a.post(y, l).iter().any(|&y2| sim.le(x2, y2)));
                    }
                }
            }
        }
    }
}

/// CAV'06 Theorem 5's family A_k: universal, and easy for the antichain algorithms.
#[test]
fn theorem5_family() {
    for k in 2..12u32 {
        let mut b = NfaBuilder::with_states(Alphabet::from_names(&["0", "1"]), k as usize + 1);
        b.add_initial(0);
        for q in 0..k {
            b.add_final(q);
        }
        b.add_transition(0, 0, 0);
        b.add_transition(0, 1, 0);
        b.add_transition(0, 1, 1);
        for q in 1..k {
            b.add_transition(q, 0, q + 1);
            b.add_transition(q, 1, q + 1);
        }
        let a = b.build();
        for algo in [UnivAlgo::Backward, UnivAlgo::Forward] {
            let r = universal(&a, algo, &Budget::unlimited()).unwrap();
            assert!(r.holds);
        }
    }
}
