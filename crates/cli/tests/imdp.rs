#![cfg(feature = "prism")]
//! `verikit prism bisim`: alternating probabilistic bisimulation of interval MDPs.

use std::process::Command;

fn verikit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_verikit"))
}

fn json(args: &[&str]) -> (serde_json::Value, i32) {
    let out = verikit().arg("--json").args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let v = stdout
        .lines()
        .last()
        .and_then(|l| serde_json::from_str(l).ok())
        .unwrap_or(serde_json::Value::Null);
    (v, out.status.code().unwrap_or(-1))
}

const FIG1: &str = "imdp\nmodule m\n  x : [0..2] init 0;\n  [a] x=0 -> [1/3,2/3]:(x'=1) + [0.1,1]:(x'=2);\n  [b] x=0 -> [0.4,0.6]:(x'=1) + [0.25,2/3]:(x'=2);\n  [a] x>0 -> true;\nendmodule\nlabel \"t\" = x=1;\n";

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("verikit-imdp-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

#[test]
fn paper_figure_1_and_quotient_roundtrip() {
    let model = tmp("fig1.prism");
    std::fs::write(&model, FIG1).unwrap();
    let out = tmp("fig1-q.prism");
    let (v, code) = json(&[
        "prism",
        "bisim",
        model.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["verdict"], "minimised");
    assert_eq!(v["states"], 3);
    assert_eq!(v["transitions"], 6);
    assert_eq!(v["quotient_states"], 3);
    // Only the strictly minimal action b survives at x=0: 2 + 1 + 1 transitions.
    assert_eq!(v["quotient_transitions"], 4);
    // The written quotient is itself minimal.
    let (w, code) = json(&["prism", "bisim", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{w}");
    assert_eq!(w["states"], 3);
    assert_eq!(w["quotient_states"], 3);
    let tra = tmp("fig1-q.tra");
    let (_, code) = json(&[
        "prism",
        "bisim",
        model.to_str().unwrap(),
        "--out",
        tra.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(&tra).unwrap();
    assert!(text.starts_with("3 3 4\n"), "{text}");
}

#[test]
fn widened_dining_philosophers_match_paper_table_1() {
    let Some(p) = verikit_testkit::shared_path("prism-examples/mdps/phil/nofair/phil-nofair3.nm")
    else {
        eprintln!("skipping: data not available");
        return;
    };
    if !p.exists() {
        eprintln!("skipping: data not available");
        return;
    }
    let (v, code) = json(&["prism", "bisim", p.to_str().unwrap(), "--widen", "0.01"]);
    assert_eq!(code, 0, "{v}");
    // Table 1 of the paper: Dining-Phils-LR-nofair-3: 956 states, 3048 intervals -> 172, 509.
    assert_eq!(v["states"], 956);
    assert_eq!(v["transitions"], 3048);
    assert_eq!(v["quotient_states"], 172);
    assert_eq!(v["quotient_transitions"], 509);
}

#[test]
fn bad_widen_is_usage_error() {
    let model = tmp("fig1b.prism");
    std::fs::write(&model, FIG1).unwrap();
    let (_, code) = json(&["prism", "bisim", model.to_str().unwrap(), "--widen", "-0.5"]);
    assert_eq!(code, 2);
    let bad = tmp("bad.prism");
    std::fs::write(
        &bad,
        "imdp\nmodule m x : [0..1] init 0; [] x=0 -> [0.5,:(x'=1); endmodule\n",
    )
    .unwrap();
    let (_, code) = json(&["prism", "bisim", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
}
