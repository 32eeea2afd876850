//! The paper's examples and property tests: decomposition = monolithic = brute force.

use crate::network::{state_string, step};
use crate::symbolic::{Limits, Symbolic};
use crate::Detect;
use crate::{
    attractors, bnet, bruteforce, leaf_removal, monolithic, sampling, Cycle, InputMode, Method,
    Network, Options,
};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use verikit_logic::BoolExpr;

fn all_options() -> Vec<Options> {
    let mut v = vec![Options {
        method: Method::BruteForce,
        limit: 100_000,
        ..Options::default()
    }];
    for method in [Method::Monolithic, Method::Decomposition] {
        for detect in [Detect::Gfp, Detect::Periods] {
            for leaf_removal in [false, true] {
                for max_realisations in [256, 1] {
                    if method != Method::Decomposition && max_realisations == 1 {
                        continue;
                    }
                    v.push(Options {
                        method,
                        detect,
                        leaf_removal,
                        limit: 100_000,
                        max_realisations,
                        ..Options::default()
                    });
                }
            }
        }
    }
    v
}

fn as_strings(cycles: &[Cycle]) -> Vec<Vec<String>> {
    let mut v: Vec<Vec<String>> = cycles
        .iter()
        .map(|c| c.iter().map(|s| state_string(s)).collect())
        .collect();
    v.sort();
    v
}

/// Independent check: each listed attractor is a cycle of the synchronous dynamics.
fn check_cycles(f: &[BoolExpr], cycles: &[Cycle]) {
    for c in cycles {
        for (i, s) in c.iter().enumerate() {
            assert_eq!(&step(f, s), &c[(i + 1) % c.len()], "not a cycle: {:?}", c);
        }
    }
}

const EXAMPLE1: &str = "targets, factors\nx1, !(x1 & x2)\nx2, x1 & !x2\nx3, !x2\n";

const EXAMPLE5: &str = "targets, factors
x1, x1 & x2
x2, x1 | !x2
x3, !x4 & x3
x4, x1 | x3
x5, x2 & x6
x6, x5 & x6
x7, (x1 | x6) & x8
x8, x7 | x8
";

#[test]
fn paper_example_1() {
    let net = bnet::parse(EXAMPLE1).unwrap();
    for o in all_options() {
        let r = attractors(&net, &o).unwrap();
        assert_eq!(
            as_strings(&r.listed),
            vec![vec!["000", "101", "111"]],
            "{o:?}"
        );
        assert!(r.complete);
        assert_eq!(r.attractor_count.unwrap(), 1u32.into());
        assert_eq!(r.fixed_point_count, 0u32.into());
    }
}

#[test]
fn paper_example_5() {
    let net = bnet::parse(EXAMPLE5).unwrap();
    let mut expected: Vec<Vec<String>> = vec![
        vec!["00000000".into(), "01000000".into()],
        vec!["00000001".into(), "01000001".into()],
        vec!["11010011".into()],
        vec!["11010000".into()],
        vec!["11011111".into()],
        vec!["11011100".into()],
    ];
    expected.sort();
    for o in all_options() {
        let r = attractors(&net, &o).unwrap();
        assert_eq!(as_strings(&r.listed), expected, "{o:?}");
        assert_eq!(r.attractor_count.unwrap(), 6u32.into());
        assert_eq!(r.fixed_point_count, 4u32.into());
        assert_eq!(r.attractor_state_count, 8u32.into());
        check_cycles(&net.resolved(InputMode::Free), &r.listed);
    }
    // The block structure of Fig. 2a: four SCCs {v1,v2}, {v3,v4}, {v5,v6}, {v7,v8}.
    let f = net.resolved(InputMode::Free);
    let blocks = crate::decomposition::form_blocks(&f, &(0..8).collect::<Vec<_>>());
    let mut sccs: Vec<(Vec<usize>, Vec<usize>, u32)> = blocks
        .iter()
        .map(|b| (b.scc.clone(), b.controls.clone(), b.credit))
        .collect();
    sccs.sort();
    assert_eq!(
        sccs,
        vec![
            (vec![0, 1], vec![], 0),
            (vec![2, 3], vec![0], 1),
            (vec![4, 5], vec![1], 1),
            (vec![6, 7], vec![0, 5], 2),
        ]
    );
}

#[test]
fn listing_limit_and_symbolic_count() {
    // 14 free inputs, each with a 2-cycle partner: 2^14 input valuations, attractors counted exactly.
    let mut t = String::from("targets, factors\n");
    for i in 0..14 {
        t.push_str(&format!("a{i}, !a{i} | u{i}\n"));
    }
    let net = bnet::parse(&t).unwrap();
    for method in [Method::Monolithic, Method::Decomposition] {
        let o = Options {
            method,
            limit: 5,
            ..Options::default()
        };
        let r = attractors(&net, &o).unwrap();
        // Per input pair: u=1 → a fixed at 1 (1 attractor); u=0 → a oscillates (1 attractor of
        // length 2). Crossing 14 independent pairs: each combination of oscillators splits by gcd.
        // With j oscillating pairs the product of j 2-cycles is 2^(j-1) cycles (j ≥ 1).
        let mut expected = num_bigint::BigUint::from(0u32);
        for j in 0..=14u32 {
            let choose = binom(14, j);
            let cycles = if j == 0 { 1u64 } else { 1u64 << (j - 1) };
            expected += num_bigint::BigUint::from(choose * cycles);
        }
        assert_eq!(r.attractor_count.clone().unwrap(), expected, "{method:?}");
        assert_eq!(r.listed.len(), 5);
        assert!(!r.complete);
        assert_eq!(r.fixed_point_count, 1u32.into());
    }
}

fn binom(n: u64, k: u32) -> u64 {
    let k = k as u64;
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

fn random_network(seed: u64, n: usize) -> Network {
    let mut rng = SmallRng::seed_from_u64(seed);
    let names: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
    let mut fs = Vec::new();
    for i in 0..n {
        let k = rng.gen_range(0..=3usize);
        let mut e: Option<BoolExpr> = None;
        for _ in 0..k {
            // Mostly local regulators, so that networks have several SCCs.
            let r = if rng.gen_bool(0.7) {
                rng.gen_range(i.saturating_sub(3)..=i)
            } else {
                rng.gen_range(0..n)
            };
            let lit = if rng.gen_bool(0.4) {
                BoolExpr::not(BoolExpr::Var(r as u32))
            } else {
                BoolExpr::Var(r as u32)
            };
            e = Some(match e {
                None => lit,
                Some(a) => match rng.gen_range(0..5) {
                    0 | 1 => BoolExpr::And(vec![a, lit]),
                    2 | 3 => BoolExpr::Or(vec![a, lit]),
                    _ => BoolExpr::Xor(Box::new(a), Box::new(lit)),
                },
            });
        }
        fs.push(e.unwrap_or(if rng.gen_bool(0.5) {
            BoolExpr::Var(i as u32)
        } else {
            BoolExpr::Const(rng.gen_bool(0.5))
        }));
    }
    Network::from_functions(names, fs)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
    #[test]
    fn methods_agree_with_brute_force(seed in any::<u64>(), n in 1usize..=12) {
        let net = random_network(seed, n);
        let oracle = attractors(&net, &Options { method: Method::BruteForce, limit: 1 << 20, ..Options::default() }).unwrap();
        let want = as_strings(&oracle.listed);
        check_cycles(&net.resolved(InputMode::Free), &oracle.listed);
        for o in all_options().into_iter().skip(1) {
            let r = attractors(&net, &o).unwrap();
            prop_assert_eq!(as_strings(&r.listed), want.clone(), "{:?}", o);
            prop_assert_eq!(r.attractor_count.clone(), oracle.attractor_count.clone());
            prop_assert_eq!(r.fixed_point_count.clone(), oracle.fixed_point_count.clone());
            prop_assert_eq!(r.attractor_state_count.clone(), oracle.attractor_state_count.clone());
        }
        // The symbolic count by minimal period agrees with the explicit count.
        let f = net.resolved(InputMode::Free);
        let sym = Symbolic::new(&f, Limits::default()).unwrap();
        let phi = monolithic::attractor_states(&sym).unwrap();
        let all: Vec<usize> = (0..n).collect();
        prop_assert_eq!(Some(sym.count_cycles(&phi, &all).unwrap()), oracle.attractor_count.clone());
    }

}

/// `larger_networks_agree` explores up to 2^16 states by brute force per case: 250 cases in the
/// test suite, 2000 with `VERIKIT_BN_ALL=1`.
fn larger_cases() -> u32 {
    if std::env::var_os("VERIKIT_BN_ALL").is_some() {
        2000
    } else {
        250
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: larger_cases(), ..ProptestConfig::default() })]
    #[test]
    fn larger_networks_agree(seed in any::<u64>(), n in 13usize..=16) {
        let net = random_network(seed, n);
        let f = net.resolved(InputMode::Free);
        let oracle = bruteforce::attractors(&f).unwrap();
        let want = as_strings(&oracle);
        for o in [
            Options { method: Method::Monolithic, leaf_removal: false, limit: 1 << 20, ..Options::default() },
            Options { method: Method::Decomposition, leaf_removal: true, limit: 1 << 20, ..Options::default() },
            Options { method: Method::Decomposition, leaf_removal: false, detect: Detect::Gfp, limit: 1 << 20, ..Options::default() },
            Options { method: Method::Decomposition, leaf_removal: false, limit: 1 << 20, max_realisations: 2, ..Options::default() },
        ] {
            let r = attractors(&net, &o).unwrap();
            prop_assert_eq!(as_strings(&r.listed), want.clone(), "{:?}", o);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]
    /// The direct construction of a set of explicit states agrees with one cube per state.
    #[test]
    fn states_bdd_matches_cubes(n in 1usize..=8, picks in proptest::collection::vec((any::<u16>(), any::<u16>()), 0..40), sub in any::<u8>()) {
        let f: Vec<BoolExpr> = (0..n).map(|i| BoolExpr::Var(i as u32)).collect();
        let sym = Symbolic::new(&f, Limits::default()).unwrap();
        // A subset of the variables, in a scrambled order.
        let mut vars: Vec<usize> = (0..n).filter(|i| (sub >> i) & 1 == 1 || *i == 0).collect();
        vars.reverse();
        let states: Vec<Vec<bool>> = picks
            .iter()
            .map(|&(a, b)| (0..n).map(|i| ((a ^ b.rotate_left(3)) >> i) & 1 == 1).collect())
            .collect();
        let got = sym.states_bdd(&states, &vars);
        let mut want = sym.vars.mk_false();
        for s in &states {
            want = want.or(&sym.cube(s, &vars));
        }
        prop_assert!(got.xor(&want).is_false());
        prop_assert_eq!(got.exact_cardinality(), want.exact_cardinality());
    }

    /// The period-by-period `Detect` with a small period bound (so that its fallback — basin of
    /// the attractors found, then the greatest fixed point — runs) agrees with the plain one.
    #[test]
    fn period_search_fallback(seed in any::<u64>(), n in 2usize..=12, bound in 0usize..=3) {
        let net = random_network(seed, n);
        let f = net.resolved(InputMode::Free);
        let sym = Symbolic::new(&f, Limits::default()).unwrap();
        let all: Vec<usize> = (0..n).collect();
        let want = sym.attractor_states(&sym.vars.mk_true(), &all).unwrap();
        let got = sym.attractor_states_by_period(&sym.vars.mk_true(), &all, bound).unwrap();
        prop_assert!(got.xor(&want).is_false());
    }

    /// Simulation with basin removal, stopped after `k` attractors, plus the greatest fixed point
    /// on what it leaves, gives the attractor states; with no bound it needs no fallback.
    #[test]
    fn sampling_with_fallback(seed in any::<u64>(), n in 2usize..=12, k in 0usize..=3) {
        let net = random_network(seed, n);
        let f = net.resolved(InputMode::Free);
        let sym = Symbolic::new(&f, Limits::default()).unwrap();
        let all: Vec<usize> = (0..n).collect();
        let want = sym.attractor_states(&sym.vars.mk_true(), &all).unwrap();
        let s = sampling::sample(&sym, &all, sym.vars.mk_false(), sym.vars.mk_true(), k).unwrap();
        let rest = sym.attractor_states(&s.remaining, &all).unwrap();
        prop_assert!(s.found.or(&rest).xor(&want).is_false());
        prop_assert!(s.found.and(&rest).is_false());
        let s = sampling::sample(&sym, &all, sym.vars.mk_false(), sym.vars.mk_true(), usize::MAX).unwrap();
        prop_assert!(s.remaining.is_false());
        prop_assert!(s.found.xor(&want).is_false());
    }

    /// Algorithm 2's leaves composed symbolically (no simulation) give the attractor states.
    #[test]
    fn leaves_composed_symbolically(seed in any::<u64>(), n in 2usize..=14) {
        let net = random_network(seed, n);
        let f = net.resolved(InputMode::Free);
        let sym = Symbolic::new(&f, Limits::default()).unwrap();
        let want = monolithic::attractor_states(&sym).unwrap();
        let (block, leaves) = leaf_removal::split(&f);
        prop_assert_eq!(block.len() + leaves.len(), n);
        let phi_b = sym.detect(&sym.vars.mk_true(), &block).unwrap();
        for explicit in [0, u64::MAX] {
            let got = leaf_removal::mirror_attractors(&sym, &phi_b, &block, &leaves, explicit).unwrap();
            prop_assert!(got.xor(&want).is_false(), "explicit limit {}", explicit);
        }
    }
}

#[test]
fn generated_networks_agree() {
    for seed in 0..30 {
        let net = super::generated(14, 5, seed);
        let f = net.resolved(InputMode::Free);
        let want = as_strings(&bruteforce::attractors(&f).unwrap());
        for o in all_options().into_iter().skip(1) {
            let r = attractors(&net, &o).unwrap();
            assert_eq!(as_strings(&r.listed), want, "seed {seed} {o:?}");
        }
    }
}

#[test]
fn inputs_modes() {
    let net = bnet::parse("targets, factors\na, u & !a | b\nb, b\n").unwrap();
    assert_eq!(net.inputs(), vec![1, 2]);
    for (mode, count) in [
        (InputMode::Free, None),
        (InputMode::Zero, Some(1u32)),
        (InputMode::One, Some(1u32)),
    ] {
        let o = Options {
            inputs: mode,
            limit: 100,
            ..Options::default()
        };
        let r = attractors(&net, &o).unwrap();
        let b = super::brute_force(&net, &o).unwrap();
        assert_eq!(as_strings(&r.listed), as_strings(&b.listed));
        if let Some(c) = count {
            assert_eq!(r.attractor_count.unwrap(), c.into());
        }
    }
}

#[test]
fn resource_limit_is_an_error() {
    let net = crate::generate::random(crate::generate::GenParams {
        nodes: 40,
        core: 40,
        k: 3,
        module: 40,
        seed: 1,
    });
    let o = Options {
        method: Method::Monolithic,
        leaf_removal: false,
        limits: Limits {
            node_limit: 200,
            ..Limits::default()
        },
        ..Options::default()
    };
    let e = attractors(&net, &o).unwrap_err();
    assert!(matches!(e, crate::BnError::Limit(_)), "{e}");
    let e = super::brute_force(&net, &Options::default()).unwrap_err();
    assert!(matches!(e, crate::BnError::Limit(_)));
}
