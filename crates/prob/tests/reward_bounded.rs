//! Reward-bounded reachability `F^{rew{"r"}<=b}` / `F{"r"}>=b`: the QVBS `eajs` reference value,
//! and random MDPs against a direct value iteration over (state, accumulated reward) pairs.

#[allow(dead_code)] // each test binary uses part of the shared helpers
mod common;
use common::check;

use proptest::prelude::*;
use verikit_prob::parse_properties;

/// QVBS `eajs.2` (energy-aware job scheduling), `ProbUtil` = 184/6561 for energy_capacity=100,
/// B=5 (Storm, exact).
#[test]
fn qvbs_eajs_prob_util() {
    let dir = verikit_testkit::require_data!("qvbs/mdp/eajs");
    let model = std::fs::read_to_string(dir.join("eajs.2.prism")).unwrap();
    let props = std::fs::read_to_string(dir.join("eajs.props")).unwrap();
    let consts = vec![
        ("energy_capacity".to_string(), "100".to_string()),
        ("B".to_string(), "5".to_string()),
    ];
    let pf = parse_properties(&props).unwrap();
    let ix = pf
        .properties
        .iter()
        .position(|p| p.name.as_deref() == Some("ProbUtil"))
        .unwrap();
    // Check the named property alone (the file's first property is an expected reward).
    let text = &props[pf.properties[ix].span.start..pf.properties[ix].span.end];
    let got = check(&model, &consts, &format!("const int B;\n{text}")).unwrap();
    let want = 184.0 / 6561.0;
    assert!((got - want).abs() <= 1e-6 * want, "{got} vs {want}");
}

#[test]
fn syntax_forms_and_errors() {
    let m = "dtmc\nmodule M\n x : [0..3] init 0;\n [a] x<3 -> 0.5:(x'=x+1) + 0.5:(x'=x);\n [] x=3 -> true;\nendmodule\n\
             rewards \"r\" [a] true : 1; endrewards\nrewards \"h\" true : 0.5; endrewards\n";
    // Reaching x=3 needs 3 successes; each step costs 1: P(at most b steps) = P(Bin(b, 1/2) >= 3).
    let p4 = check(m, &[], "P=? [ F^{rew{\"r\"}<=4} x=3 ]").unwrap();
    assert!((p4 - 5.0 / 16.0).abs() < 1e-9, "{p4}");
    let storm = check(m, &[], "P=? [ F{\"r\"}<=4 x=3 ]").unwrap();
    assert!((storm - p4).abs() < 1e-12);
    let strict = check(m, &[], "P=? [ F^{rew{\"r\"}<5} x=3 ]").unwrap();
    assert!((strict - p4).abs() < 1e-12);
    let none = check(m, &[], "P=? [ F^{rew{\"r\"}<=2} x=3 ]").unwrap();
    assert_eq!(none, 0.0);
    // At least 4 steps before reaching x=3 = 1 - P(reached within 3 steps) = 1 - 1/8.
    let lower = check(m, &[], "P=? [ F^{rew{\"r\"}>=4} x=3 ]").unwrap();
    assert!((lower - 7.0 / 8.0).abs() < 1e-9, "{lower}");
    for (prop, what) in [
        ("P=? [ F^{rew{\"h\"}<=4} x=3 ]", "integer rewards"),
        ("P=? [ F^{rew{\"zz\"}<=4} x=3 ]", "zz"),
        (
            "P=? [ F^{rew{\"r\"}<=4, rew{\"h\"}<=2} x=3 ]",
            "several bounds",
        ),
        ("P=? [ F^{cost<=4} x=3 ]", "rew{"),
    ] {
        let e = check(m, &[], prop).unwrap_err();
        assert!(e.contains(what), "{prop}: {e}");
    }
}

/// CTMCs refuse reward bounds with a message naming the model type.
#[test]
fn ctmc_reward_bounds_refused() {
    let m = "ctmc\nmodule M\n x : [0..3] init 0;\n [a] x<3 -> 2:(x'=x+1);\nendmodule\n\
             rewards \"r\" [a] true : 1; endrewards\n";
    let e = check(m, &[], "P=? [ F^{rew{\"r\"}<=2} x=3 ]").unwrap_err();
    assert!(e.contains("not supported on CTMCs"), "{e}");
    // Time bounds on the same model are answered: Erlang(3, 2) by t = 1.
    let p = check(m, &[], "P=? [ F<=1 x=3 ]").unwrap();
    let want = 1.0 - (-2.0f64).exp() * (1.0 + 2.0 + 2.0);
    assert!((p - want).abs() < 1e-6 * want, "{p} vs {want}");
}

/// A random MDP with integer step rewards 0..=2 on its choices (as transition rewards).
fn mdp(n: usize, choices: &[Vec<(usize, usize, u32, u32)>]) -> String {
    let mut s = format!("mdp\nmodule M\n s : [0..{}] init 0;\n", n - 1);
    let mut rew = String::from("rewards \"r\"\n");
    for (i, cs) in choices.iter().enumerate().take(n - 1) {
        for (j, &(a, b, w, r)) in cs.iter().enumerate() {
            let p = w as f64 / 10.0;
            s.push_str(&format!(
                " [c{i}_{j}] s={i} -> {p}:(s'={a}) + {}:(s'={b});\n",
                1.0 - p
            ));
            rew.push_str(&format!(" [c{i}_{j}] true : {r};\n"));
        }
    }
    s.push_str(&format!(
        " [] s={} -> true;\nendmodule\n{rew}endrewards\n",
        n - 1
    ));
    s
}

/// Value iteration over (state, accumulated reward) pairs, written independently of the
/// unfolding: x[s][a] = 1 if s is the target and (upper or a ≥ b), else best over choices of the
/// expected x at the successors with the reward added (paths above an upper bound fail).
#[allow(clippy::needless_range_loop)]
fn oracle(
    n: usize,
    choices: &[Vec<(usize, usize, u32, u32)>],
    b: usize,
    upper: bool,
    max: bool,
) -> f64 {
    let levels = b + 1;
    let mut x = vec![vec![0.0f64; levels]; n];
    // Iterate to the fixed point: random chains can mix slowly (a 0.1-probability exit from a
    // 0.9 self-loop, several in a row), so a fixed iteration count stops far from it. The
    // iterates rise monotonically; stop when they no longer move.
    for _ in 0..4_000_000 {
        let mut y = x.clone();
        for s in 0..n {
            for a in 0..levels {
                if s == n - 1 && (upper || a >= b) {
                    y[s][a] = 1.0;
                    continue;
                }
                if s == n - 1 {
                    // The target's self-loop earns nothing: the bound is never reached.
                    y[s][a] = 0.0;
                    continue;
                }
                let vals = choices[s].iter().map(|&(t1, t2, w, r)| {
                    let na = a + r as usize;
                    let get = |t: usize| {
                        if upper && na > b {
                            0.0
                        } else {
                            x[t][na.min(b)]
                        }
                    };
                    let p = w as f64 / 10.0;
                    p * get(t1) + (1.0 - p) * get(t2)
                });
                y[s][a] = if max {
                    vals.fold(0.0, f64::max)
                } else {
                    vals.fold(1.0, f64::min)
                };
            }
        }
        let moved = x
            .iter()
            .zip(&y)
            .flat_map(|(a, b)| a.iter().zip(b))
            .fold(0.0f64, |m, (p, q)| m.max((p - q).abs()));
        x = y;
        if moved < 1e-15 {
            break;
        }
    }
    x[0][0]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn unfolding_matches_direct_iteration(
        n in 3usize..6,
        seed in proptest::collection::vec(
            proptest::collection::vec((0usize..6, 0usize..6, 1u32..10, 0u32..3), 1..3), 6),
        b in 0usize..5,
        upper in any::<bool>(),
        max in any::<bool>(),
    ) {
        let choices: Vec<Vec<(usize, usize, u32, u32)>> = seed
            .iter()
            .map(|cs| cs.iter().map(|&(a, c, w, r)| (a % n, c % n, w, r)).collect())
            .collect();
        let op = if upper { "<=" } else { ">=" };
        let dir = if max { "max" } else { "min" };
        let prop = format!("P{dir}=? [ F^{{rew{{\"r\"}}{op}{b}}} s={} ]", n - 1);
        let got = check(&mdp(n, &choices), &[], &prop).unwrap();
        let want = oracle(n, &choices, b, upper, max);
        prop_assert!((got - want).abs() < 1e-5, "{prop}: {got} vs {want}");
    }
}
