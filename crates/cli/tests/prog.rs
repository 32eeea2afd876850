#![cfg(feature = "prog")]
//! `verikit prog` end to end: verdicts, witnesses replayed by gcc, unsupported constructs,
//! located errors, CHC output, DOT, and a timeout on a hard real task.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::run as verikit;

const DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/prog");

fn gcc() -> bool {
    Command::new("gcc").arg("--version").output().is_ok()
}

/// `../shared/data/<folder>` when it is there (and gcc, which the C front end preprocesses
/// with, is installed if `need_gcc`); `None` after saying why the test is skipped.
fn data(folder: &str, need_gcc: bool) -> Option<PathBuf> {
    let Some(p) = verikit_testkit::shared_path(folder) else {
        eprintln!("skipping: ../shared/data/{folder} is missing");
        return None;
    };
    if need_gcc && !gcc() {
        eprintln!("skipping: gcc is not installed");
        return None;
    }
    Some(p)
}

/// `verikit --json prog verify FILE --engine ENGINE [--witness W]`, which must exit 0.
fn verify(file: &str, engine: &str, witness: Option<&str>) -> serde_json::Value {
    let mut args = vec!["--json", "prog", "verify", file, "--engine", engine];
    if let Some(w) = witness {
        args.extend(["--witness", w]);
    }
    let (code, v, _, err) = verikit(&args);
    assert_eq!(code, 0, "{engine} on {file}: {err}");
    v
}

/// A `true` answer of `prog verify` carries its loop invariants.
fn assert_invariants(v: &serde_json::Value) {
    assert!(
        v["witness"]["invariants"]
            .as_array()
            .is_some_and(|a| !a.is_empty()),
        "{v}"
    );
}

/// `verikit --json --timeout 1 prog ARGS… FILE EXTRA…` on a hard task answers `timeout` (exit 3).
fn assert_prompt_timeout(sub: &str, file: &Path, extra: &[&str]) {
    let mut args = vec![
        "--json",
        "--timeout",
        "1",
        "prog",
        sub,
        file.to_str().unwrap_or(""),
    ];
    args.extend(extra);
    let (code, v, _, err) = verikit(&args);
    assert_eq!(code, 3, "{err} {v}");
    assert_eq!(v["verdict"], "timeout");
}

#[test]
fn safe_loop_is_proved_and_the_bug_is_found_and_replayed() {
    if !gcc() {
        eprintln!("skipping: gcc is not installed");
        return;
    }
    let safe = format!("{DEMO}/count_up.c");
    for engine in ["portfolio", "bmc"] {
        let v = verify(&safe, engine, None);
        assert_eq!(v["verdict"], "true", "{engine}: {v}");
    }
    // IMPACT without forced covering unrolls this loop until its path limit: never a wrong
    // answer, and a `true` carries the invariants.
    let v = verify(&safe, "impact", None);
    assert!(v["verdict"] == "true" || v["verdict"] == "unknown", "{v}");
    if v["verdict"] == "true" {
        assert_invariants(&v);
    }

    let bug = format!("{DEMO}/off_by_one.c");
    let (code, v, _, err) = verikit(&["--json", "prog", "verify", &bug]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["verdict"], "false", "{v}");
    assert_eq!(v["replay"], "reach_error reached", "{v}");
    assert_eq!(v["witness"]["nondet"], serde_json::json!(["100"]));
    // Text mode says the same to a person: the verdict first, then the values and the replay.
    let (code, _, text, err) = verikit(&["prog", "verify", &bug]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(text.lines().next(), Some("false"), "{text}");
    assert!(text.contains("nondet values: [100]"), "{text}");
    assert!(text.contains("replay: reach_error reached"), "{text}");
    let (_, _, text, _) = verikit(&["prog", "verify", &safe, "--engine", "bmc"]);
    assert_eq!(text.lines().next(), Some("true"), "{text}");
}

#[test]
fn cegar_and_kind_answer_and_write_witnesses() {
    if !gcc() {
        eprintln!("skipping: gcc is not installed");
        return;
    }
    let dir = std::env::temp_dir().join(format!("verikit-prog-witness-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let w = dir.join("w.yml");
    let w = w.to_str().unwrap_or("");
    // A counting loop (cegar's closed form summarises it): a == 100 reaches the error.
    let bug = dir.join("count_bug.c");
    std::fs::write(
        &bug,
        "extern void __assert_fail(const char *, const char *, unsigned int, const char *);\n\
         void reach_error() { __assert_fail(\"0\", \"count_bug.c\", 2, \"reach_error\"); }\n\
         extern int __VERIFIER_nondet_int(void);\n\
         int main(void) {\n  int a = __VERIFIER_nondet_int();\n  int i = 0;\n\
         while (i < 100) {\n    i = i + 1;\n  }\n  if (a == i) reach_error();\n  return 0;\n}\n",
    )
    .expect("write the program");
    let bug = bug.to_str().unwrap_or("").to_string();
    // off_by_one.c's loop calls a function: not a counting loop cegar can summarise, so it may
    // give up (naming why), never answer `true`.
    let obo = format!("{DEMO}/off_by_one.c");
    let v = verify(&obo, "cegar", None);
    assert_ne!(v["verdict"], "true", "{v}");
    if v["verdict"] == "unknown" {
        assert!(v["reason"].as_str().is_some_and(|r| !r.is_empty()), "{v}");
    }
    for engine in ["cegar", "kind"] {
        let v = verify(&bug, engine, Some(w));
        if engine == "kind" && v["verdict"] != "false" {
            // k-induction may run out of steps before the 100 iterations; never `true`.
            assert_ne!(v["verdict"], "true", "{v}");
            continue;
        }
        assert_eq!(v["verdict"], "false", "{engine}: {v}");
        assert_eq!(v["replay"], "reach_error reached", "{v}");
        assert_eq!(v["witness"]["nondet"], serde_json::json!(["100"]));
        let text = std::fs::read_to_string(w).expect("witness file");
        assert!(text.contains("entry_type: violation_sequence"), "{text}");
        assert!(text.contains("\\result == 100"), "{text}");
    }
    let safe = format!("{DEMO}/count_up.c");
    let v = verify(&safe, "cegar", Some(w));
    assert_eq!(v["verdict"], "true", "{v}");
    assert_invariants(&v);
    let text = std::fs::read_to_string(w).expect("witness file");
    assert!(text.contains("entry_type: invariant_set"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cegar_timeout_on_a_hard_task_is_prompt() {
    if let Some(sv) = data("sv", true) {
        // nested_6 used to be hard for cegar; threshold widening proves it at once now.
        let hard = sv.join("xcsp/AllInterval-030.yml");
        assert_prompt_timeout("verify", &hard, &["--engine", "cegar"]);
    }
}

#[test]
fn tasks_outside_the_subset_or_property_answer_unknown() {
    let Some(sv) = data("sv", true) else {
        return;
    };
    let arr = sv.join("array-cav19/array_init_nondet_vars.yml");
    let (code, v, _, err) = verikit(&["--json", "prog", "verify", arr.to_str().unwrap_or("")]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["verdict"], "unknown");
    assert!(v["reason"].as_str().unwrap_or("").contains("array"), "{v}");
    let ovf = sv.join("recursive-simple/sum_non.yml");
    let (code, v, _, _) = verikit(&["--json", "prog", "verify", ovf.to_str().unwrap_or("")]);
    assert_eq!(code, 0);
    assert_eq!(v["verdict"], "unknown");
    assert!(
        v["reason"]
            .as_str()
            .unwrap_or("")
            .contains("only unreach-call"),
        "{v}"
    );
}

#[test]
fn timeout_on_a_hard_task_is_prompt() {
    if let Some(sv) = data("sv", true) {
        assert_prompt_timeout("verify", &sv.join("recursive/Ackermann03.yml"), &[]);
    }
}

#[test]
fn bad_input_is_a_located_error() {
    if !gcc() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("verikit-prog-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let c = dir.join("bad.c");
    std::fs::write(&c, "int main(void) {\n  int x = ;\n  return 0;\n}\n").expect("write");
    let (code, _, _, err) = verikit(&["prog", "verify", c.to_str().unwrap_or("")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.c:2:"), "{err}");
    let y = dir.join("bad.yml");
    std::fs::write(&y, "format_version: '2.0'\ninput_files: [\n").expect("write");
    let (code, _, _, err) = verikit(&["prog", "verify", y.to_str().unwrap_or("")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.yml:"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn chc_and_dot_are_written() {
    if !gcc() {
        return;
    }
    let safe = format!("{DEMO}/count_up.c");
    let (code, _, out, err) = verikit(&["prog", "to-chc", &safe]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("(set-logic HORN)") && out.contains("(check-sat)"),
        "{out}"
    );
    let (code, _, out, err) = verikit(&["prog", "to-smt", &safe, "--bound", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("(set-logic QF_LIA)") && out.contains("(check-sat)"),
        "{out}"
    );
    let (code, _, out, err) = verikit(&["prog", "verify", &safe, "--dump-cfa"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("digraph cfa"), "{out}");
}

#[test]
fn chc_answers_carry_model_or_derivation() {
    let safe = format!("{DEMO}/counter.smt2");
    let (code, _, out, err) = verikit(&["prog", "chc", &safe]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("sat\n"), "{out}");
    let bug = format!("{DEMO}/counter_bug.smt2");
    let (code, v2, _, err) = verikit(&["--json", "prog", "chc", &bug]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v2["result"], "unsat", "{v2}");
    assert!(
        v2["witness"]["derivation"]
            .as_array()
            .is_some_and(|a| a.len() >= 7),
        "{v2}"
    );
    // Nonlinear clauses: spacer's model.
    let (code, v3, _, err) = verikit(&["--json", "prog", "chc", &format!("{DEMO}/sums.smt2")]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v3["result"], "sat", "{v3}");
    assert_eq!(v3["engine"], "spacer", "{v3}");
    assert!(
        v3["witness"]["model"]
            .as_array()
            .is_some_and(|m| m.len() == 1),
        "{v3}"
    );
    let dir = std::env::temp_dir().join(format!("verikit-prog-chc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let bad = dir.join("bad.smt2");
    std::fs::write(
        &bad,
        "(set-logic HORN)\n(declare-fun p (Int) Bool)\n(assert (forall ((x Int)) (p x x)))\n",
    )
    .expect("write");
    let (code, _, _, err) = verikit(&["prog", "chc", bad.to_str().unwrap_or("")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.smt2:3:"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn chc_timeout_on_a_hard_task_is_prompt() {
    if let Some(chc) = data("chc", false) {
        let hard = chc.join("aeval-benchmarks/multi-phase/s_split_29_000.smt2");
        assert_prompt_timeout("chc", &hard, &[]);
    }
}

#[test]
fn summaries_engine_on_a_shared_recursive_task() {
    let Some(sv) = data("sv", true) else { return };
    let fibo = sv.join("recursive-simple/fibo_15-2.yml");
    let v = verify(fibo.to_str().unwrap_or(""), "summaries", None);
    assert_eq!(v["verdict"], "false", "{v}");
    assert_eq!(v["engine"], "summaries", "{v}");
    assert_eq!(v["replay"], "reach_error reached", "{v}");
    let (code, _, _, err) = verikit(&["prog", "chc", "x.smt2", "--engine", "summaries"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("summaries"), "{err}");
}
