//! Parser totality and property tests of the engine against brute-force oracles.

#[allow(dead_code)] // each test binary uses part of the shared helpers
mod common;

use common::mdp_text;
use proptest::prelude::*;
use verikit_prob::{
    build, check_model, parse_model, parse_properties, Answer, BuildOptions, CheckOptions, Checker,
};

const SAMPLE_MODEL: &str = "dtmc\nconst int N = 3;\nconst double p;\nformula f = x<N;\nglobal g : bool;\n\
module M\n  x : [0..N];\n  [a] f & !g -> p:(x'=x+1) + 1-p:(x'=max(0,x-1));\n  [] x=N -> (g'=true);\nendmodule\n\
module M2 = M [x=y, a=b] endmodule\nlabel \"done\" = x=N & y=N;\nrewards \"r\" true : 1; [a] x>0 : 2.5; endrewards\n\
init x=0 & y=0 endinit\n";
const SAMPLE_PROPS: &str = "const double T = 2;\n\"p1\": P=? [ F \"done\" ];\nPmax=? [ !\"a\" U<=(T*3) x>1 ];\n\
R{\"r\"}min=? [ F \"done\" ];\nS=? [ x=1 ]; filter(max, R=? [ F x=2 ], \"init\"); P>=1 [ F[2,3] x=1 ];\nR=? [ I=5 ];\n";

#[test]
fn parsers_are_total() {
    verikit_testkit::assert_parser_total(&[SAMPLE_MODEL], 3000, |t| {
        let mf = parse_model(t)?;
        // Semantic checks and building must not panic either (small models only).
        common::build_small(check_model(&mf, &[("p".into(), "0.5".into())]));
        Ok::<_, verikit_diag::Diagnostic>(())
    });
    verikit_testkit::assert_parser_total(&[SAMPLE_PROPS], 3000, parse_properties);
}

#[test]
fn sample_model_builds_and_checks() {
    let mf = parse_model(SAMPLE_MODEL).unwrap();
    let prog = check_model(&mf, &[("p".into(), "0.5".into())]).unwrap();
    let m = build(&prog, &BuildOptions::default()).unwrap();
    assert!(m.num_states() > 4);
    let pf = parse_properties(SAMPLE_PROPS).unwrap();
    let mut c = Checker::new(&m, &prog, &pf, &[], CheckOptions::default()).unwrap();
    let r = c.check(&pf.properties[0], "p1").unwrap();
    assert!(
        matches!(r.answer, Answer::Num(x) if (0.0..=1.0).contains(&x)),
        "{:?}",
        r.answer
    );
}

/// Brute force: the best memoryless deterministic scheduler, each evaluated by 3000 iterations.
fn brute(n: usize, choices: &[Vec<(usize, usize, u32)>], max: bool) -> f64 {
    let k: Vec<usize> = (0..n - 2).map(|i| choices[i].len()).collect();
    let total: usize = k.iter().product();
    let mut best = if max { 0.0f64 } else { 1.0f64 };
    for mut code in 0..total {
        let sched: Vec<usize> = k
            .iter()
            .map(|&ki| {
                let c = code % ki;
                code /= ki;
                c
            })
            .collect();
        let mut x = vec![0.0; n];
        x[n - 1] = 1.0;
        for _ in 0..3000 {
            for i in 0..n - 2 {
                let (a, b, w) = choices[i][sched[i]];
                let p = w as f64 / 10.0;
                x[i] = p * x[a] + (1.0 - p) * x[b];
            }
        }
        best = if max { best.max(x[0]) } else { best.min(x[0]) };
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn pmax_pmin_match_brute_force(
        n in 3usize..7,
        raw in proptest::collection::vec(proptest::collection::vec((0usize..7, 0usize..7, 1u32..10), 1..3), 5)
    ) {
        let choices: Vec<Vec<(usize, usize, u32)>> =
            raw.iter().map(|cs| cs.iter().map(|&(a, b, w)| (a % n, b % n, w)).collect()).collect();
        let text = mdp_text(n, &choices);
        let mf = parse_model(&text).unwrap();
        let prog = check_model(&mf, &[]).unwrap();
        let m = build(&prog, &BuildOptions::default()).unwrap();
        let pf = parse_properties(&format!("Pmax=? [ F s={} ]; Pmin=? [ F s={} ];", n - 1, n - 1)).unwrap();
        let mut c = Checker::new(&m, &prog, &pf, &[], CheckOptions::default()).unwrap();
        for (i, max) in [(0usize, true), (1, false)] {
            let r = c.check(&pf.properties[i], "").unwrap();
            let want = brute(n, &choices, max);
            match r.answer {
                Answer::Num(x) => prop_assert!((x - want).abs() <= 1e-6 * want.max(1e-9) + 1e-9,
                    "{}: got {x}, brute force {want}\n{text}", if max { "max" } else { "min" }),
                _ => prop_assert!(false),
            }
        }
    }
}

/// `system M1 || … || Mn endsystem` listing every module is PRISM's default composition; a block
/// that does not list every module exactly once is refused with a located error (the other
/// operators are tested in `system.rs`).
#[test]
fn system_block_full_composition() {
    let base = "dtmc\nmodule M\n x : [0..2] init 0;\n [a] x<2 -> 0.5:(x'=x+1) + 0.5:true;\n [b] x=2 -> (x'=0);\n\
                endmodule\nmodule N = M [x=y, b=c] endmodule\n";
    let states = |text: &str| {
        let mf = parse_model(text)?;
        let prog = check_model(&mf, &[])?;
        let m = build(&prog, &BuildOptions::default()).map_err(|e| match e {
            verikit_prob::ProbError::Input(d) => d,
            e => verikit_diag::Diagnostic::error(e.to_string()),
        })?;
        Ok::<usize, verikit_diag::Diagnostic>(m.num_states())
    };
    let n0 = states(base).unwrap();
    for sys in ["system M || N endsystem", "system (N || (M)) endsystem"] {
        assert_eq!(states(&format!("{base}{sys}\n")).unwrap(), n0, "{sys}");
    }
    for (sys, what) in [
        ("system M endsystem", "missing"),
        ("system M || M || N endsystem", "twice"),
        ("system M || Z endsystem", "unknown module"),
    ] {
        let text = format!("{base}{sys}\n");
        let e = parse_model(&text)
            .err()
            .unwrap_or_else(|| panic!("{sys} accepted"));
        assert!(e.to_string().contains(what), "{sys}: {e}");
        assert!(
            e.span.is_some_and(|sp| sp.start >= base.len()),
            "{sys}: unlocated"
        );
    }
}
