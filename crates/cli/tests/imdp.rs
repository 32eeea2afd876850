#![cfg(feature = "prism")]
//! `verikit prism bisim`: alternating probabilistic bisimulation of interval MDPs.

mod common;

use common::{fails, json, shared_files};

const FIG1: &str = "imdp\nmodule m\n  x : [0..2] init 0;\n  [a] x=0 -> [1/3,2/3]:(x'=1) + [0.1,1]:(x'=2);\n  [b] x=0 -> [0.4,0.6]:(x'=1) + [0.25,2/3]:(x'=2);\n  [a] x>0 -> true;\nendmodule\nlabel \"t\" = x=1;\n";

/// The shared interval models and their properties files.
const ROBOT: [&str; 2] = [
    "prism-examples/imdps/simple/robot.prism",
    "prism-examples/imdps/simple/robot.props",
];
const CONSENSUS: [&str; 2] = [
    "qvbs/mdp/consensus/consensus.2.prism",
    "qvbs/mdp/consensus/consensus.props",
];
const COIN: [&str; 2] = [
    "prism-examples/imdps/consensus/coin2.prism",
    "prism-examples/imdps/consensus/coin.props",
];

/// `verikit --json prism bisim MODEL EXTRA…`: the answer, the exit code and stderr.
fn bisim(model: impl AsRef<std::path::Path>, extra: &[&str]) -> (serde_json::Value, i32, String) {
    let model = model.as_ref().to_str().unwrap();
    json(&[&["prism", "bisim", model], extra].concat())
}

/// A scratch path (written by the command under test).
fn tmp(name: &str) -> std::path::PathBuf {
    common::scratch("imdp", name)
}

/// A scratch input file holding `text`.
fn input(name: &str, text: &str) -> std::path::PathBuf {
    common::tmp("imdp", name, text)
}

#[test]
fn paper_figure_1_and_quotient_roundtrip() {
    let model = input("fig1.prism", FIG1);
    let out = tmp("fig1-q.prism");
    let (v, code, _) = bisim(&model, &["--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["verdict"], "true");
    assert_eq!(v["input"]["states"], 3);
    assert_eq!(v["input"]["transitions"], 6);
    assert_eq!(v["stats"]["quotient_states"], 3);
    // Only the strictly minimal action b survives at x=0: 2 + 1 + 1 transitions.
    assert_eq!(v["stats"]["quotient_transitions"], 4);
    // The written quotient is itself minimal.
    let (w, code, _) = bisim(&out, &[]);
    assert_eq!(code, 0, "{w}");
    assert_eq!(w["input"]["states"], 3);
    assert_eq!(w["stats"]["quotient_states"], 3);
    let tra = tmp("fig1-q.tra");
    let (_, code, _) = bisim(&model, &["--out", tra.to_str().unwrap()]);
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(&tra).unwrap();
    assert!(text.starts_with("3 3 4\n"), "{text}");
}

#[test]
fn widened_dining_philosophers_match_paper_table_1() {
    let Some([p]) = shared_files(["prism-examples/mdps/phil/nofair/phil-nofair3.nm"]) else {
        return;
    };
    let (v, code, _) = bisim(&p, &["--widen", "0.01"]);
    assert_eq!(code, 0, "{v}");
    // Table 1 of the paper: Dining-Phils-LR-nofair-3: 956 states, 3048 intervals -> 172, 509.
    assert_eq!(v["input"]["states"], 956);
    assert_eq!(v["input"]["transitions"], 3048);
    assert_eq!(v["stats"]["quotient_states"], 172);
    assert_eq!(v["stats"]["quotient_transitions"], 509);
}

#[test]
fn bad_widen_is_usage_error() {
    let model = input("fig1b.prism", FIG1);
    let (_, code, _) = bisim(&model, &["--widen", "-0.5"]);
    assert_eq!(code, 2);
    let bad = input(
        "bad.prism",
        "imdp\nmodule m x : [0..1] init 0; [] x=0 -> [0.5,:(x'=1); endmodule\n",
    );
    let (_, code, _) = bisim(&bad, &[]);
    assert_eq!(code, 2);
}

/// `verikit --json prism check MODEL PROPS EXTRA…`, which must succeed on an interval model: the
/// answer.
fn check_imdp(model: &str, props: &str, extra: &[&str]) -> serde_json::Value {
    let (v, code, _) = json(&[&["prism", "check", model, props], extra].concat());
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["input"]["model_type"], "IMDP");
    v
}

#[test]
fn check_prism_robot_example_under_exists_forall() {
    let Some([model, props]) = shared_files(ROBOT) else {
        return;
    };
    let v = check_imdp(&model, &props, &["--const", "delta=0.1"]);
    let r = v["results"].as_array().unwrap();
    // Pmaxmin, Pmaxmax, Rminmax, Rminmin (worked out by hand from the model).
    let want = [0.4, 0.6, 1.225, 1.0 + 0.1 / 0.9 + 0.1];
    for (x, w) in r.iter().zip(want) {
        let got = x["result"].as_f64().unwrap();
        assert!((got - w).abs() < 1e-5, "{x}");
        assert_eq!(x["sound"], true);
    }
}

#[test]
fn check_widened_by_zero_matches_storm() {
    let Some([model, props]) = shared_files(CONSENSUS) else {
        return;
    };
    // Storm's values recorded in tests/expected/prism-storm.tsv (consensus.2, K=4).
    for (name, want) in [
        ("c2", 0.43774416558149665),
        ("steps_min", 191.9999983460711),
    ] {
        let v = check_imdp(
            &model,
            &props,
            &["--const", "K=4", "--widen", "0", "--prop", name],
        );
        let got = v["results"][0]["result"].as_f64().unwrap();
        assert!((got - want).abs() <= 1e-5 * want, "{name}: {got}");
    }
    // Widening moves the value up: nature works against the minimising controller.
    let (v, _, _) = json(&[
        "prism", "check", &model, &props, "--const", "K=4", "--widen", "0.01", "--prop", "c2",
    ]);
    let got = v["results"][0]["result"].as_f64().unwrap();
    assert!(got > 0.43774416558149665 + 1e-3, "{v}");
}

#[test]
fn bisim_with_properties_agrees_on_quotient() {
    let Some([model, props]) = shared_files(COIN) else {
        return;
    };
    let coin = |extra: &[&str]| bisim(&model, &[&["--const", "K=2,bias1=0.1"], extra].concat());
    let (v, code, _) = coin(&["--props", &props]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["labels"], "props");
    assert_eq!(v["agree"], true, "{v}");
    assert!(v["stats"]["quotient_states"].as_u64().unwrap() < 272);
    // Without the properties' propositions in the initial partition the quotient is wrong,
    // and the report says so.
    let (w, code, _) = coin(&["--props", &props, "--labels", "none"]);
    assert_eq!(code, 0, "{w}");
    assert_eq!(w["agree"], false, "{w}");
    assert_eq!(w["stats"]["quotient_states"], 1);
    // Named labels and reward structures.
    let (x, code, _) = coin(&["--labels", "finished,steps"]);
    assert_eq!(code, 0, "{x}");
    assert_eq!(x["initial_classes"], 2);
    let (_, code, _) = coin(&["--labels", "nosuchlabel"]);
    assert_eq!(code, 2);
}

#[test]
fn interval_query_needs_a_direction() {
    let model = input("fig1c.prism", FIG1);
    let props = input("fig1c.props", "P=? [ F \"t\" ];\n");
    let args = [
        "prism",
        "check",
        model.to_str().unwrap(),
        props.to_str().unwrap(),
    ];
    fails(&args, 2, &["Pmax=?"]);
    // Fig. 1: from x=0 the controller's best guaranteed probability of t is action b's 0.4.
    std::fs::write(&props, "Pmax=? [ F \"t\" ];\nPmaxmax=? [ F \"t\" ];\n").unwrap();
    let (v, code, _) = json(&args);
    assert_eq!(code, 0, "{v}");
    let r = &v["results"];
    assert!((r[0]["result"].as_f64().unwrap() - 0.4).abs() < 1e-6, "{v}");
    assert!(
        (r[1]["result"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-6,
        "{v}"
    );
}
