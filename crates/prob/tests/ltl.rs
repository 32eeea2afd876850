//! LTL inside `P[…]` on DTMCs and MDPs: hand-computed values, agreement with the PCTL route on
//! formulas both can check (random DTMCs and MDPs), and a brute-force oracle for `G F a` and
//! `F G a` on random DTMCs (bottom SCCs found by transitive closure, then PCTL reachability of
//! their states) — an independent construction that uses no automaton.

#[allow(dead_code)] // each test binary uses part of the shared helpers
mod common;

use common::{random_model, x_in, Trans};
use proptest::prelude::*;
use verikit_prob::{build, check_model, parse_model, parse_properties, BuildOptions};

fn check(model: &str, prop: &str) -> Result<f64, String> {
    common::check(model, &[], prop)
}

/// x=0 goes to 1 (absorbing) or 2 with ½ each; 2 and 3 alternate. `a` holds in 1 and 3.
const CHAIN: &str = "dtmc\nmodule M\n x : [0..3] init 0;\n [] x=0 -> 0.5:(x'=1) + 0.5:(x'=2);\n \
                     [] x=1 -> (x'=1);\n [] x=2 -> (x'=3);\n [] x=3 -> (x'=2);\nendmodule\n\
                     label \"a\" = x=1 | x=3;\n";

#[test]
fn hand_computed_dtmc() {
    for (prop, want) in [
        ("P=? [ G F \"a\" ]", 1.0),
        ("P=? [ F G \"a\" ]", 0.5),
        ("P=? [ G F x=3 ]", 0.5),
        ("P=? [ (F x=1) & (G F x=2) ]", 0.0),
        ("P=? [ (F x=1) | (G F x=2) ]", 1.0),
        ("P=? [ G (x=2 => X x=3) ]", 1.0),
        ("P=? [ X (x=2 | x=1) ]", 1.0),
        ("P=? [ X X \"a\" ]", 1.0),
        ("P=? [ X X X \"a\" ]", 0.5),
        ("P=? [ !\"a\" U (G \"a\") ]", 0.5),
        ("P=? [ (F<=2 x=3) ]", 0.5),
        ("P=? [ G F<=1 x=3 ]", 0.0),
        ("P=? [ X G F<=1 x=3 ]", 0.5),
        ("P=? [ F (x=2 & X x=3) ]", 0.5),
        ("P>=0.5 [ F G \"a\" ]", 1.0),
        ("P>0.5 [ F G \"a\" ]", 0.0),
    ] {
        let got = check(CHAIN, prop).unwrap();
        assert!((got - want).abs() < 1e-9, "{prop}: {got} vs {want}");
    }
}

/// An MDP where the choice in x=0 decides between an `a`-loop and a `b`-loop, with a coin in
/// between: Pmax [ G F a ] = 1, Pmin = 0; Pmax [ (G F a) & (G F b) ] needs a state where both
/// recur.
const MDP: &str = "mdp\nmodule M\n x : [0..3] init 0;\n [l] x=0 -> (x'=1);\n [r] x=0 -> 0.5:(x'=2) + 0.5:(x'=3);\n \
                   [] x=1 -> (x'=1);\n [] x=2 -> (x'=3);\n [] x=3 -> 0.5:(x'=2) + 0.5:(x'=0);\nendmodule\n\
                   label \"a\" = x=1;\nlabel \"b\" = x=2;\n";

#[test]
fn hand_computed_mdp() {
    for (prop, want) in [
        ("Pmax=? [ G F \"a\" ]", 1.0),
        ("Pmin=? [ G F \"a\" ]", 0.0),
        ("Pmax=? [ G F \"b\" ]", 1.0),
        ("Pmin=? [ F G \"a\" ]", 0.0),
        ("Pmax=? [ (G F \"b\") & (G F x=0) ]", 1.0),
        ("Pmax=? [ (G F \"a\") & (G F \"b\") ]", 0.0),
        ("Pmin=? [ (F \"a\") | (G F \"b\") ]", 1.0),
        ("Pmax=? [ X X \"b\" ]", 0.25),
        ("Pmin=? [ G (\"b\" => X x=3) ]", 1.0),
    ] {
        let got = check(MDP, prop).unwrap();
        assert!((got - want).abs() < 1e-9, "{prop}: {got} vs {want}");
    }
}

#[test]
fn located_errors() {
    // On a CTMC, untimed LTL is checked on the embedded DTMC; time bounds inside are refused.
    let ctmc = "ctmc\nmodule M\n x : [0..1] init 0;\n [] x=0 -> 1:(x'=1);\nendmodule\n";
    assert_eq!(check(ctmc, "P=? [ G F x=1 ]").unwrap(), 1.0);
    let e = check(ctmc, "P=? [ G F<=1 x=1 ]").unwrap_err();
    assert!(e.contains("time-bounded operators inside LTL"), "{e}");
    let e = check(CHAIN, "P=? [ G F>=2 x=1 ]").unwrap_err();
    assert!(e.contains("upper step bounds"), "{e}");
    let e = check(CHAIN, "P=? [ G F \"nolabel\" ]").unwrap_err();
    assert!(e.contains("nolabel"), "{e}");
    let e = check(CHAIN, "A [ G F x=1 ]").unwrap_err();
    assert!(e.contains("CTL"), "{e}");
}

/// Bottom SCCs of a DTMC (one choice per state) by transitive closure.
#[allow(clippy::needless_range_loop)]
fn bsccs(trans: &[Vec<Vec<(usize, f64)>>]) -> Vec<Vec<usize>> {
    let n = trans.len();
    let mut r = vec![vec![false; n]; n];
    for s in 0..n {
        r[s][s] = true;
        for &(t, _) in &trans[s][0] {
            r[s][t] = true;
        }
    }
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                if r[i][k] && r[k][j] {
                    r[i][j] = true;
                }
            }
        }
    }
    let mut out: Vec<Vec<usize>> = Vec::new();
    for s in 0..n {
        let comp: Vec<usize> = (0..n).filter(|&t| r[s][t] && r[t][s]).collect();
        let bottom = (0..n).all(|t| !r[s][t] || r[t][s]);
        if bottom && comp[0] == s {
            out.push(comp);
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// `G F a` and `F G a` on random DTMCs equal the probability of reaching a bottom SCC that
    /// contains an `a` state (resp. lies inside `a`), computed by PCTL reachability.
    #[test]
    fn dtmc_recurrence_against_bsccs(seed in prop::collection::vec(0u32..1000, 40), n in 2usize..7) {
        let (text, trans, a, _) = random_model(false, n, &seed);
        let bs = bsccs(&trans);
        let set = |pick: &dyn Fn(&[usize]) -> bool| x_in(bs.iter().filter(|b| pick(b)).flatten());
        let gf = set(&|b| b.iter().any(|&s| a[s]));
        let fg = set(&|b| b.iter().all(|&s| a[s]));
        let ltl_gf = check(&text, "P=? [ G F \"a\" ]").unwrap();
        let ltl_fg = check(&text, "P=? [ F G \"a\" ]").unwrap();
        let want_gf = check(&text, &format!("P=? [ F ({gf}) ]")).unwrap();
        let want_fg = check(&text, &format!("P=? [ F ({fg}) ]")).unwrap();
        prop_assert!((ltl_gf - want_gf).abs() < 1e-6, "GF {} vs {}\n{}", ltl_gf, want_gf, text);
        prop_assert!((ltl_fg - want_fg).abs() < 1e-6, "FG {} vs {}\n{}", ltl_fg, want_fg, text);
    }

    /// LTL formulas written so that the parser cannot take the PCTL route, against the PCTL
    /// route on the equivalent PCTL formula, on random DTMCs and MDPs (min and max).
    #[test]
    fn ltl_route_agrees_with_pctl(seed in prop::collection::vec(0u32..1000, 40), n in 2usize..7, mdp in any::<bool>()) {
        let (text, _, _, _) = random_model(mdp, n, &seed);
        let ops: &[&str] = if mdp { &["Pmax", "Pmin"] } else { &["P"] };
        for op in ops {
            for (ltl, pctl) in [
                ("!(G !\"a\")", "F \"a\""),
                ("!!(\"a\" U \"b\")", "\"a\" U \"b\""),
                ("!(F !\"a\")", "G \"a\""),
                ("(\"a\" W \"b\") & true", "\"a\" W \"b\""),
                ("(\"a\" R \"b\") | false", "\"a\" R \"b\""),
                ("!(F<=3 !\"a\")", "G<=3 \"a\""),
                ("(\"a\" U<=2 \"b\") & true", "\"a\" U<=2 \"b\""),
                ("X (F<=0 \"a\")", "X \"a\""),
            ] {
                let got = check(&text, &format!("{op}=? [ {ltl} ]")).unwrap();
                let want = check(&text, &format!("{op}=? [ {pctl} ]")).unwrap();
                prop_assert!((got - want).abs() < 1e-6, "{}=? [{}]: {} vs {}\n{}", op, ltl, got, want, text);
            }
        }
    }
}

/// Storm's values (recorded by `bench/peers/prism_record_ltl.py` in
/// `tests/expected/prism-ltl-storm.tsv`) on shared QVBS and PRISM-example models (DTMCs, MDPs
/// and CTMCs; co-safe LTL rewards on CTMCs against Storm's reachability reward of the same
/// target), within 1e-6 (relative above 1).
#[test]
fn storm_values_on_shared_models() {
    let Some(data) = verikit_testkit::shared_data() else {
        return;
    };
    let tsv = std::fs::read_to_string(verikit_testkit::expected("prism-ltl-storm.tsv")).unwrap();
    let mut n = 0;
    for line in tsv.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (model, consts, prop, want) = (cols[0], cols[1], cols[2], cols[3]);
        let want: f64 = want.parse().unwrap();
        let text = std::fs::read_to_string(data.join(model)).unwrap();
        let consts: Vec<(String, String)> = consts
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|kv| {
                let (k, v) = kv.split_once('=').unwrap();
                (k.to_string(), v.to_string())
            })
            .collect();
        let got =
            common::check(&text, &consts, prop).unwrap_or_else(|e| panic!("{model} {prop}: {e}"));
        assert!(
            (got - want).abs() < 1e-6 * want.abs().max(1.0),
            "{model} {prop}: verikit {got}, Storm {want}"
        );
        n += 1;
    }
    assert!(n >= 58, "only {n} rows");
}

/// The states (values of `x`) of the maximal end components of `text`'s MDP inside the states
/// where `inside` holds, keeping the components `keep` accepts (given their `x` values).
fn mec_states(text: &str, inside: &dyn Fn(i64) -> bool, keep: &dyn Fn(&[i64]) -> bool) -> Vec<i64> {
    let mf = parse_model(text).unwrap();
    let prog = check_model(&mf, &[]).unwrap();
    let m = build(&prog, &BuildOptions::default()).unwrap();
    let n = m.num_states();
    let mut x = vec![0i64; 1];
    let xs: Vec<i64> = (0..n)
        .map(|s| {
            m.valuation(s, &mut x);
            x[0]
        })
        .collect();
    let in_set: Vec<bool> = xs.iter().map(|&v| inside(v)).collect();
    let (of, count) = verikit_prob::mecs(&m, &in_set, &|_| true);
    let mut out = Vec::new();
    for c in 0..count as u32 {
        let members: Vec<i64> = (0..n).filter(|&s| of[s] == c).map(|s| xs[s]).collect();
        if !members.is_empty() && keep(&members) {
            out.extend(members);
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// `Pmax [ G F a ]` is the maximal probability of reaching an end component with an `a`
    /// state, `Pmax [ F G a ]` of reaching an end component inside `a`; `Pmin` by duality
    /// (Baier & Katoen §10.6.4), on random MDPs, without any automaton.
    #[test]
    fn mdp_recurrence_against_end_components(seed in prop::collection::vec(0u32..1000, 40), n in 2usize..7) {
        let (text, _, a, _) = random_model(true, n, &seed);
        let is_a = |v: i64| a.get(v as usize).copied().unwrap_or(false);
        let reach = |states: Vec<i64>, op: &str| {
            let e = x_in(states);
            check(&text, &format!("{op}=? [ F ({e}) ]")).unwrap()
        };
        let gf = reach(mec_states(&text, &|_| true, &|c| c.iter().any(|&v| is_a(v))), "Pmax");
        let fg = reach(mec_states(&text, &is_a, &|_| true), "Pmax");
        let fg_not = reach(mec_states(&text, &|v| !is_a(v), &|_| true), "Pmax");
        let gf_not = reach(mec_states(&text, &|_| true, &|c| c.iter().any(|&v| !is_a(v))), "Pmax");
        for (prop, want) in [
            ("Pmax=? [ G F \"a\" ]", gf),
            ("Pmax=? [ F G \"a\" ]", fg),
            ("Pmin=? [ G F \"a\" ]", 1.0 - fg_not),
            ("Pmin=? [ F G \"a\" ]", 1.0 - gf_not),
        ] {
            let got = check(&text, prop).unwrap();
            prop_assert!((got - want).abs() < 1e-6, "{}: {} vs {}\n{}", prop, got, want, text);
        }
    }
}

/// The LTL part of the property parser never panics (garbage, truncations, mutations of LTL
/// properties) and refuses deep nesting with an error instead of exhausting the stack.
#[test]
fn ltl_parser_is_total() {
    const LTL_PROPS: &str =
        "\"p\": P=? [ G F \"a\" ];\nPmax=? [ (F x=1) & (G (x<2 => X !\"b\")) ];\n\
        Pmin=? [ (a U<=3 (G b)) W (X X c) ];\nP>=0.5 [ !(F G \"a\") | (\"b\" R (F<=2 x=1)) ];\n\
        R{\"r\"}min=? [ (F x=1) & (\"a\" U (X F<=2 b)) ];\n";
    verikit_testkit::assert_parser_total(&[LTL_PROPS], 3000, parse_properties);
    for deep in [
        format!("P=? [ {} a ]", "(F ".repeat(20_000)),
        format!("P=? [ {} a ]", "X ".repeat(20_000)),
        format!("P=? [ {} a ]", "!(G ".repeat(20_000)),
        format!("P=? [ a & {} ]", "(a U ".repeat(20_000)),
        format!("R=? [ {} a ]", "X ".repeat(20_000)),
    ] {
        assert!(parse_properties(&deep).is_err());
    }
}

/// `CHAIN` and `MDP` with a reward of 1 per step and 2 per visit of `x=3`.
fn with_rewards(model: &str) -> String {
    format!("{model}rewards \"r\"\n true : 1;\n x=3 : 2;\nendrewards\n")
}

/// `R[ φ ]` over co-safe LTL (PRISM's co-safe LTL rewards): the reward accumulated until the
/// formula's good prefix has been read, infinite where it is not read almost surely.
#[test]
fn cosafe_rewards_hand_computed() {
    let chain = with_rewards(CHAIN);
    let mdp = with_rewards(MDP);
    for (model, prop, want) in [
        // 0,1,1 or 0,2,3: `a` at position 2 on both paths; rewards of positions 0 and 1.
        (&chain, "R=? [ X X \"a\" ]", 2.0),
        // Reachability written as LTL is the reachability reward (1 step to x=1 or x=2).
        (&chain, "R=? [ !\"a\" U x>0 ]", 1.0),
        (&chain, "R=? [ F (x=2 & X x=3) ]", f64::INFINITY),
        (&chain, "R{\"r\"}=? [ (F x>=1) & (F<=5 x>=1) ]", 1.0),
        // MDP: reach x=2, then one more step to x=3 (the equations at `MDP_B_THEN_3`).
        (&mdp, "Rmin=? [ F (\"b\" & X x=3) ]", MDP_B_THEN_3),
        (&mdp, "Rmax=? [ F (\"b\" & X x=3) ]", f64::INFINITY),
        (&mdp, "Rmin=? [ (F \"a\") | (F \"b\" & X X true) ]", 1.0),
    ] {
        let got = check(model, prop).unwrap_or_else(|e| panic!("{prop}: {e}"));
        assert!(
            got == want || (got - want).abs() < 1e-9,
            "{prop}: {got} vs {want}"
        );
    }
}

/// `Rmin [ F ("b" & X x=3) ]` on `MDP` with rewards `r`: take `r` at x=0 (`l` never reaches
/// x=2). With T(s) the expected reward until x=2 is entered: T0 = 1 + ½T2 + ½T3, T2 = 0,
/// T3 = 3 + ½T2 + ½T0, so T0 = 1 + ½(3 + ½T0), T0 = 10/3; then the step 2 → 3 adds 1.
const MDP_B_THEN_3: f64 = 10.0 / 3.0 + 1.0;

#[test]
fn cosafe_rewards_refused_by_name() {
    let chain = with_rewards(CHAIN);
    let e = check(&chain, "R=? [ G \"a\" ]").unwrap_err();
    assert!(e.contains("co-safe") && e.contains("`G`"), "{e}");
    let e = check(&chain, "R=? [ F G \"a\" ]").unwrap_err();
    assert!(e.contains("`G`"), "{e}");
    let e = check(&chain, "R=? [ \"a\" W x=2 ]").unwrap_err();
    assert!(e.contains("`W`") || e.contains("co-safe"), "{e}");
    let e = check(&chain, "R=? [ F<=3 \"a\" ]").unwrap_err();
    assert!(e.contains("bounded reachability rewards"), "{e}");
    let e = check(&chain, "R=? [ \"a\" ]").unwrap_err();
    assert!(e.contains("state formula"), "{e}");
    let ctmc = "ctmc\nmodule M\n x : [0..1] init 0;\n [] x=0 -> 1:(x'=1);\nendmodule\n\
                rewards true : 1; endrewards\n";
    let e = check(ctmc, "R=? [ X F<=2 x=1 ]").unwrap_err();
    assert!(e.contains("not supported on CTMCs"), "{e}");
    let e = check(ctmc, "R=? [ G x=1 ]").unwrap_err();
    assert!(e.contains("`G`"), "{e}");
    // Not co-safe after negation normal form: `!(F a)` is `G !a`.
    let e = check(&chain, "R=? [ !(F \"a\") U \"a\" ]").unwrap_err();
    assert!(e.contains("`G`"), "{e}");
}

/// The model of `random_model` with a hand-written observer for `F ("a" & X "b")` and for
/// `(F "a") & (F "b")` in the variables `m`, `k` (updated with `x`, on the successor's labels),
/// so that the rewards of the LTL formulas are reachability rewards of the observer's accepting
/// values — an independent product written in the PRISM language.
fn observed_model(ty: &str, trans: &Trans, a: &[bool], b: &[bool]) -> String {
    let n = trans.len();
    // F (a & X b): 0 waiting, 1 the previous letter had `a`, 2 accepted.
    let m_next = |m: usize, t: usize| match (m, a[t], b[t]) {
        (2, _, _) | (1, _, true) => 2,
        (_, true, _) => 1,
        _ => 0,
    };
    // (F a) & (F b): bit 0 `a` seen, bit 1 `b` seen.
    let k_next = |k: usize, t: usize| k | a[t] as usize | (b[t] as usize) << 1;
    let mut text = format!(
        "{}\nmodule M\n x : [0..{}] init 0;\n m : [0..2] init {};\n k : [0..3] init {};\n",
        ty,
        n - 1,
        m_next(0, 0),
        k_next(0, 0)
    );
    for (s, choices) in trans.iter().enumerate() {
        for succ in choices {
            for m in 0..3 {
                for k in 0..4 {
                    let upd: Vec<String> = succ
                        .iter()
                        .map(|&(t, p)| {
                            format!("{p}:(x'={t})&(m'={})&(k'={})", m_next(m, t), k_next(k, t))
                        })
                        .collect();
                    text.push_str(&format!(
                        " [] x={s} & m={m} & k={k} -> {};\n",
                        upd.join(" + ")
                    ));
                }
            }
        }
    }
    text.push_str("endmodule\n");
    let set = |v: &[bool]| x_in((0..n).filter(|&i| v[i]));
    text.push_str(&format!(
        "label \"a\" = {};\nlabel \"b\" = {};\nrewards\n true : 1;\n x=0 : 2;\nendrewards\n",
        set(a),
        set(b)
    ));
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// Co-safe LTL rewards against reachability rewards on a product written by hand in the
    /// PRISM language (`observed_model`), on random DTMCs, CTMCs (the probabilities read as
    /// rates, scaled so that exit rates differ between states) and MDPs (min and max).
    #[test]
    fn cosafe_rewards_agree_with_a_hand_written_observer(seed in prop::collection::vec(0u32..1000, 40), n in 2usize..6, ty in 0usize..3) {
        let mdp = ty == 2;
        let (_, mut trans, a, b) = random_model(mdp, n, &seed);
        if ty == 1 {
            for (s, choices) in trans.iter_mut().enumerate() {
                choices.iter_mut().flatten().for_each(|t| t.1 *= (1 + s % 3) as f64);
            }
        }
        let text = observed_model(["dtmc", "ctmc", "mdp"][ty], &trans, &a, &b);
        let ops: &[&str] = if mdp { &["Rmax", "Rmin"] } else { &["R"] };
        for op in ops {
            for (ltl, target) in [("F (\"a\" & X \"b\")", "m=2"), ("(F \"a\") & (F \"b\")", "k=3")] {
                let got = check(&text, &format!("{op}=? [ {ltl} ]")).unwrap();
                let want = check(&text, &format!("{op}=? [ F {target} ]")).unwrap();
                prop_assert!(got == want || (got - want).abs() < 1e-6, "{}=? [{}]: {} vs {}\n{}", op, ltl, got, want, text);
            }
        }
    }
}
