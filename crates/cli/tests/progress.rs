#![cfg(feature = "prism")]
//! Progress on stderr for long work: periodic lines with `-v` when stderr is not a terminal (a
//! spinner on a terminal), nothing with `-q`, and never anything on stdout but the answer.

use std::process::{Command, Output};

/// A PRISM model far too large to build within the time limit.
const BIG: &str = "dtmc\nmodule m\n a : [0..100] init 0;\n b : [0..100] init 0;\n \
                   c : [0..100] init 0;\n d : [0..100] init 0;\n \
                   [] true -> 0.25:(a'=mod(a+1,101)) + 0.25:(b'=mod(b+1,101)) \
                   + 0.25:(c'=mod(c+1,101)) + 0.25:(d'=mod(d+1,101));\nendmodule\n";

fn run(flag: &str) -> Output {
    let dir = std::env::temp_dir().join(format!("verikit-progress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let model = dir.join("big.prism");
    std::fs::write(&model, BIG).expect("write model");
    Command::new(env!("CARGO_BIN_EXE_verikit"))
        .args([flag, "--timeout", "3", "prism", "check"])
        .arg(&model)
        .args(["--pf", "P=? [ F a=100 ]"])
        .output()
        .expect("verikit runs")
}

#[test]
fn verbose_run_reports_states_built_on_stderr() {
    let out = run("-v");
    assert_eq!(out.status.code(), Some(3), "a timeout");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.lines()
            .any(|l| l.starts_with('[') && l.contains("building states: ")),
        "no progress line in {err}"
    );
    // stdout has the answer only: no progress lines (the timeout answer may quote the last one)
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.lines().any(|l| l.starts_with('[')), "{stdout}");
}

#[test]
fn quiet_run_prints_nothing_on_stderr() {
    let out = run("-q");
    assert_eq!(out.status.code(), Some(3), "a timeout");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
