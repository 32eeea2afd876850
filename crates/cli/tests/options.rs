//! Global options with extreme and malformed values: never a panic (exit 101), always a located
//! usage error (exit 2) or a completed run (issue: "no panic on any argument").

use std::process::{Command, Output};

fn verikit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_verikit"))
        .args(args)
        .output()
        .expect("verikit runs")
}

/// A command every build has and that finishes at once.
fn quick() -> Vec<&'static str> {
    vec!["--help-params"]
}

#[test]
fn huge_timeouts_mean_no_deadline() {
    for t in ["1e20", "1e19", "1e12", "18446744073709551616", "3e9"] {
        let mut args = vec!["--timeout", t];
        args.extend(quick());
        let out = verikit(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "--timeout {t}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn bad_timeouts_are_usage_errors() {
    for t in ["0", "-1", "nan", "NaN", "inf", "-inf", "abc", "", "1e400"] {
        let out = verikit(&["--timeout", t, "demo"]);
        assert_eq!(
            out.status.code(),
            Some(2),
            "--timeout {t:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stderr.is_empty(), "--timeout {t:?}: no message");
    }
}

#[test]
fn unknown_tuning_parameters_are_usage_errors() {
    for x in ["no.such-param=3", "=3", "a=1,=2"] {
        let out = verikit(&["-x", x, "demo"]);
        assert_eq!(
            out.status.code(),
            Some(2),
            "-x {x:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("error"), "-x {x:?}: {err}");
    }
}

#[test]
fn help_params_lists_every_table() {
    let out = verikit(&["--help-params"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("Tuning parameters"), "{text}");
}

#[test]
fn missing_subcommand_is_a_usage_error() {
    let out = verikit(&["--json"]);
    assert_eq!(out.status.code(), Some(2));
}
