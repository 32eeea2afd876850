#![cfg(feature = "smt")]
//! `verikit smt` end to end: responses on stdout, `--json`, `--check`, `--stats`, stdin, errors
//! with file:line:col and exit code 2, and the data files.

use std::io::Write;
use std::process::{Command, Stdio};

fn verikit(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_verikit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run verikit");
    if let Some(mut i) = c.stdin.take() {
        let _ = i.write_all(stdin.as_bytes());
    }
    let o = c.wait_with_output().expect("wait");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

#[test]
fn stdin_script_with_check_and_stats() {
    let s = "(set-logic QF_LRA)(declare-fun x () Real)(assert (and (> x 1) (< x 2)))(check-sat)(get-model)";
    let (rc, out, _) = verikit(&["smt", "--check", "--stats", "-"], s);
    assert_eq!(rc, 0);
    assert!(out.starts_with("sat\n(\n  (define-fun x () Real"), "{out}");
    assert!(out.contains("model valid"));
    assert!(out.contains("; stats:"));
}

#[test]
fn json_verdict_and_model() {
    let s = "(set-logic QF_LIA)(declare-fun x () Int)(assert (= (* 4 x) 8))(check-sat)";
    let (rc, out, _) = verikit(&["--json", "smt", "--check"], s);
    assert_eq!(rc, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    assert_eq!(v["verdict"], "sat");
    assert_eq!(v["checks"][0]["model"][0][2], "2");
    assert_eq!(v["checks"][0]["model_valid"], true);
    assert!(v["time_s"].is_number());
}

#[test]
fn bad_input_is_located_with_exit_2() {
    let (rc, out, err) = verikit(
        &["smt", "-"],
        "(set-logic QF_LRA)\n(assert (< x 1))\n(check-sat)\n",
    );
    assert_eq!(rc, 2);
    assert!(
        out.contains("(error \"line 2 column 12: unknown constant `x`\")"),
        "{out}"
    );
    assert!(out.contains("sat"));
    assert!(err.contains(":2:12"), "{err}");
    let (rc, _, _) = verikit(&["smt", "-"], "(set-logic QF_NIA)");
    assert_eq!(rc, 2);
    let (rc, _, _) = verikit(&["smt", "-"], "\u{1}\u{2}(((");
    assert_eq!(rc, 2);
}

#[test]
fn data_file_matches_status() {
    let p = match verikit_testkit::shared_path("smt/QF_LRA/sc/sc-6.base.cvc.smt2") {
        Some(p) => p,
        None => match verikit_testkit::shared_path("smt/QF_LRA/sc/sc-5.induction.cvc.smt2") {
            Some(p) => p,
            None => return,
        },
    };
    let (rc, out, _) = verikit(&["--json", "smt", "--check", p.to_str().unwrap_or("")], "");
    assert_eq!(rc, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    assert_eq!(v["verdict"], v["status"]);
}

#[test]
fn demo_runs() {
    let (rc, out, _) = verikit(&["demo"], "");
    assert_eq!(rc, 0);
    assert!(out.contains("== smt:"));
    assert!(out.contains("model valid"));
}

/// Interactive use: each response arrives (flushed) while standard input is still open.
#[test]
fn responses_stream_before_input_ends() {
    use std::io::{BufRead, BufReader};
    let mut c = Command::new(env!("CARGO_BIN_EXE_verikit"))
        .args(["smt"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run verikit");
    let mut input = c.stdin.take().expect("stdin");
    let mut output = BufReader::new(c.stdout.take().expect("stdout"));
    let mut ask = |cmds: &str| -> String {
        input.write_all(cmds.as_bytes()).expect("write");
        input.flush().expect("flush");
        let mut line = String::new();
        output.read_line(&mut line).expect("read");
        line.trim().to_string()
    };
    assert_eq!(
        ask("(set-logic QF_LRA)\n(set-option :produce-models true)\n(declare-const x Real)\n(assert (> x 2))\n(check-sat)\n"),
        "sat"
    );
    assert_eq!(ask("(get-value (x))\n"), "((x 3.0))");
    // A command over several lines is answered once it is complete.
    assert_eq!(ask("(assert\n  (< x 1))\n(check-sat)\n"), "unsat");
    assert_eq!(
        ask("(foo)\n"),
        "(error \"line 10 column 2: unknown command `foo`\")"
    );
    drop(input);
    let rc = c.wait().expect("wait").code();
    assert_eq!(rc, Some(2));
}
