//! JANI input: a hand-made model with synchronisation, transient rewards and embedded
//! properties (exact values known; the same file is the CLI demo's JANI die), located errors, and
//! totality of the reader.

#[allow(dead_code)] // each test binary uses part of the shared helpers
mod common;

use verikit_prob::parse_jani;
use verikit_prob::{build, check_model, Answer, BuildOptions, CheckOptions, Checker};

const DIE: &str = include_str!("../../cli/demo/prism/die.jani");

fn values(text: &str, consts: &[(String, String)]) -> Vec<(String, Answer)> {
    let jf = parse_jani(text).unwrap();
    let prog = check_model(&jf.model, consts).unwrap();
    let m = build(&prog, &BuildOptions::default()).unwrap();
    let mut c = Checker::new(&m, &prog, &jf.props, consts, CheckOptions::default()).unwrap();
    jf.props
        .properties
        .iter()
        .map(|p| {
            let n = p.name.clone().unwrap_or_default();
            (n.clone(), c.check(p, &n).unwrap().answer)
        })
        .collect()
}

fn num(a: &Answer) -> f64 {
    match a {
        Answer::Num(x) => *x,
        Answer::Bool(b) => *b as u8 as f64,
    }
}

/// Knuth–Yao die: each face 1/6, 11/3 expected flips (the reward is assigned by the
/// synchronising partner automaton), P(done within 3 steps) = 3/4, termination certain.
#[test]
fn die_values() {
    for k in 1..=6 {
        let v = values(DIE, &[("k".into(), k.to_string())]);
        let get = |n: &str| num(&v.iter().find(|(x, _)| x == n).unwrap().1);
        assert!((get("one") - 1.0 / 6.0).abs() < 1e-9, "{v:?}");
        assert!((get("flips") - 11.0 / 3.0).abs() < 1e-6, "{v:?}");
        assert!((get("within3") - 0.75).abs() < 1e-12, "{v:?}");
        assert_eq!(get("all_done"), 1.0);
    }
}

#[test]
fn open_constant_is_named() {
    let jf = parse_jani(DIE).unwrap();
    let e = check_model(&jf.model, &[]).unwrap_err();
    assert!(e.message.contains("`k`"), "{}", e.message);
    let sp = e.span.unwrap();
    assert!(DIE[sp.start..sp.end].contains("\"k\""));
}

fn error_at(text: &str) -> (String, String) {
    let e = parse_jani(text).unwrap_err();
    let sp = e.span.expect("located");
    (e.message.clone(), text[sp.start..sp.end].to_string())
}

#[test]
fn errors_are_located_and_named() {
    let (m, at) = error_at(&DIE.replace("\"dtmc\"", "\"ma\""));
    assert!(m.contains("Markov automata"), "{m}");
    assert_eq!(at, "\"ma\"");
    let (m, at) = error_at(&DIE.replace("\"derived-operators\"", "\"arrays\""));
    assert!(m.contains("JANI feature `arrays`"), "{m}");
    assert_eq!(at, "\"arrays\"");
    let (m, _) = error_at(&DIE.replacen("\"op\": \"=\"", "\"op\": \"≈\"", 1));
    assert!(m.contains("unknown JANI operator `≈`"), "{m}");
    let (m, at) = error_at(&DIE.replacen("\"location\": \"l\"", "\"location\": \"nowhere\"", 1));
    assert!(m.contains("unknown location `nowhere`"), "{m}");
    assert_eq!(at, "\"nowhere\"");
    let (m, _) = error_at(&DIE.replacen("\"upper-bound\": 7", "\"upper-bound\": 7,,", 1));
    assert!(m.contains("JSON syntax error"), "{m}");
    // A type error found by the shared semantic checks points into the JSON.
    let bad = DIE.replacen("\"value\": 1", "\"value\": true", 1);
    let jf = parse_jani(&bad).unwrap();
    let e = check_model(&jf.model, &[("k".into(), "1".into())]).unwrap_err();
    let sp = e.span.unwrap();
    assert_eq!(&bad[sp.start..sp.end], "true", "{}", e.message);
}

/// An unbounded `int` variable is explored on the fly: the same die with `s : int` gives the
/// same state space and values.
#[test]
fn unbounded_int_is_explored() {
    let text = DIE.replacen(
        "{\n      \"kind\": \"bounded\",\n      \"base\": \"int\",\n      \"lower-bound\": 0,\n      \"upper-bound\": 7\n     }",
        "\"int\"",
        1,
    );
    assert_ne!(text, DIE, "sample layout changed");
    let consts = [("k".to_string(), "4".to_string())];
    let jf = parse_jani(&text).unwrap();
    let prog = check_model(&jf.model, &consts).unwrap();
    assert_eq!(prog.unbounded.len(), 1);
    let m = build(&prog, &BuildOptions::default()).unwrap();
    assert_eq!(m.num_states(), 19);
    let v = values(&text, &consts);
    assert!((num(&v[0].1) - 1.0 / 6.0).abs() < 1e-9, "{v:?}");
    assert!((num(&v[1].1) - 11.0 / 3.0).abs() < 1e-6, "{v:?}");
}

/// A model whose unbounded counter never stops stops with a resource-limit error naming it.
#[test]
fn infinite_state_space_is_a_resource_limit() {
    let src = "dtmc\nmodule m\n  x : int init 3;\n  [] true -> 0.5 : (x'=x+1) + 0.5 : (x'=x-1);\nendmodule\n";
    let mf = verikit_prob::parse_model(src).unwrap();
    let prog = check_model(&mf, &[]).unwrap();
    let e = build(
        &prog,
        &BuildOptions {
            max_states: 50_000,
            ..BuildOptions::default()
        },
    )
    .unwrap_err();
    assert!(verikit_diag::Reportable::is_resource_limit(&e), "{e}");
    // A bounded walk on an unbounded variable closes: x in [-5, 5] reflected at the ends.
    let src = "dtmc\nmodule m\n  x : int;\n  [] x>-5 & x<5 -> 0.5 : (x'=x+1) + 0.5 : (x'=x-1);\n  [] x=-5 | x=5 -> (x'=0);\nendmodule\n";
    let mf = verikit_prob::parse_model(src).unwrap();
    let prog = check_model(&mf, &[]).unwrap();
    let m = build(&prog, &BuildOptions::default()).unwrap();
    assert_eq!(m.num_states(), 11);
    let mut vals = vec![0i64; 1];
    let mut seen: Vec<i64> = (0..m.num_states())
        .map(|s| {
            m.valuation(s, &mut vals);
            vals[0]
        })
        .collect();
    seen.sort_unstable();
    assert_eq!(seen, (-5..=5).collect::<Vec<_>>());
}

#[test]
fn reader_is_total() {
    verikit_testkit::assert_parser_total(&[DIE], 2000, |t| {
        let jf = parse_jani(t)?;
        common::build_small(check_model(&jf.model, &[("k".into(), "2".into())]));
        Ok::<_, verikit_diag::Diagnostic>(())
    });
}
