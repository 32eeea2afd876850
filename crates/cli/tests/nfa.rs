#![cfg(feature = "nfa")]
//! `verikit nfa …` end to end: verdicts, witnesses in JSON, error locations and exit codes.

use std::path::PathBuf;
use std::process::Command;

fn verikit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_verikit"))
}

fn demo(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("demo/nfa")
        .join(name)
}

fn json(args: &[&str]) -> (serde_json::Value, i32) {
    let out = verikit().arg("--json").args(args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let v = serde_json::from_str(text.trim()).unwrap_or(serde_json::Value::Null);
    (v, out.status.code().unwrap_or(-1))
}

#[test]
fn inclusion_both_ways_with_witness() {
    let (a, b) = (demo("ends-ab.mata"), demo("has-a.mata"));
    let (v, code) = json(&["nfa", "incl", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(v["verdict"], "true");
    assert!(v["size"].as_u64().unwrap() > 0);
    let (v, code) = json(&["nfa", "incl", b.to_str().unwrap(), a.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(v["verdict"], "false");
    assert_eq!(v["witness"], serde_json::json!(["a"]));
    assert_eq!(v["replay"]["confirmed"], true);
    for algo in ["antichain", "antichain-sim", "hkc", "subset"] {
        let (v, _) = json(&[
            "nfa",
            "incl",
            "--algo",
            algo,
            b.to_str().unwrap(),
            a.to_str().unwrap(),
        ]);
        assert_eq!(v["verdict"], "false", "{algo}");
    }
}

#[test]
fn universality_and_equivalence() {
    let a = demo("no-bb.mata");
    for algo in ["backward", "forward", "subset"] {
        let (v, code) = json(&["nfa", "univ", "--algo", algo, a.to_str().unwrap()]);
        assert_eq!(code, 0);
        assert_eq!(v["verdict"], "false", "{algo}");
        assert_eq!(v["replay"]["confirmed"], true);
    }
    let (x, y) = (demo("ends-ab.mata"), demo("has-a.mata"));
    for algo in ["antichain", "antichain-sim", "hkc", "hk", "naive", "subset"] {
        let (v, _) = json(&[
            "nfa",
            "equiv",
            "--algo",
            algo,
            x.to_str().unwrap(),
            y.to_str().unwrap(),
        ]);
        assert_eq!(v["verdict"], "false", "{algo}");
        let (v, _) = json(&[
            "nfa",
            "equiv",
            "--algo",
            algo,
            "--no-memo",
            x.to_str().unwrap(),
            x.to_str().unwrap(),
        ]);
        assert_eq!(v["verdict"], "true", "{algo}");
    }
}

#[test]
fn gen_reduce_convert_pipeline() {
    let dir = std::env::temp_dir().join(format!("verikit-nfa-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let g = dir.join("g.mata");
    let out = verikit()
        .args([
            "nfa", "gen", "-n", "30", "-k", "2", "-r", "1.5", "-f", "0.5", "--seed", "4", "-o",
        ])
        .arg(&g)
        .output()
        .unwrap();
    assert!(out.status.success());
    for method in [
        "bisim",
        "sim",
        "sim-hs",
        "sim-lrt",
        "sim-fixpoint",
        "saturate",
    ] {
        let r = dir.join(format!("r-{method}.ba"));
        let out = verikit()
            .args(["nfa", "reduce", "--method", method, "--to", "ba", "-o"])
            .arg(&r)
            .arg(&g)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (v, _) = json(&["nfa", "equiv", g.to_str().unwrap(), r.to_str().unwrap()]);
        assert_eq!(v["verdict"], "true", "{method}");
    }
    let out = verikit()
        .args(["nfa", "convert", "--to", "dot"])
        .arg(&g)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("digraph"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn alphabet_reconciliation_is_reported() {
    let dir = std::env::temp_dir().join(format!("verikit-nfa-alpha-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = dir.join("a.mata");
    let b = dir.join("b.mata");
    std::fs::write(&a, "@NFA-explicit\n%Initial p\n%Final p\np x p\n").unwrap();
    std::fs::write(&b, "@NFA-explicit\n%Initial q\n%Final q\nq x q\nq y q\n").unwrap();
    let (v, _) = json(&["nfa", "incl", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(v["verdict"], "true");
    assert_eq!(
        v["alphabet_reconciliation"]["only_in_second"],
        serde_json::json!(["y"])
    );
    let (v, _) = json(&["nfa", "incl", b.to_str().unwrap(), a.to_str().unwrap()]);
    assert_eq!(v["verdict"], "false");
    assert_eq!(v["witness"], serde_json::json!(["y"]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_located_with_exit_2() {
    let dir = std::env::temp_dir().join(format!("verikit-nfa-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = dir.join("bad.mata");
    std::fs::write(&a, "@NFA-bits\n%Initial q0\nq0 (a1 & ) q1\n").unwrap();
    let out = verikit().args(["nfa", "univ"]).arg(&a).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.mata:3:"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn armc_problems_match_file_names() {
    let Some(dir) = verikit_testkit::shared_path("nfa/armc-incl") else {
        return;
    };
    for name in [
        "false-T11",
        "true-T227",
        "false-IBakery-4P-BinEnc-BwBad-A-1",
    ] {
        let (l, r) = (
            dir.join(format!("{name}-lhs.mata")),
            dir.join(format!("{name}-rhs.mata")),
        );
        if !l.exists() {
            continue;
        }
        let (v, code) = json(&["nfa", "incl", l.to_str().unwrap(), r.to_str().unwrap()]);
        assert_eq!(code, 0);
        assert_eq!(
            v["verdict"],
            if name.starts_with("true") {
                "true"
            } else {
                "false"
            },
            "{name}"
        );
    }
}

#[test]
fn demo_runs() {
    let out = verikit().arg("demo").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("== nfa:"), "{text}");
    assert!(text.contains("counterexample"), "{text}");
}

#[test]
fn regex_front_end() {
    let dir = std::env::temp_dir().join(format!("verikit-nfa-re-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let r = dir.join("ends-ab.re");
    std::fs::write(&r, "(a|b)*ab\n").unwrap();
    let (v, code) = json(&[
        "nfa",
        "equiv",
        r.to_str().unwrap(),
        demo("ends-ab.mata").to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["verdict"], "true");
    let bad = dir.join("bad.re");
    std::fs::write(&bad, "(a|b\n").unwrap();
    let out = verikit().args(["nfa", "univ"]).arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.re:"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Symbolic HKC (`--algo hkc-bdd`) agrees with explicit HKC on email-filter pairs, and its
/// counterexamples are replayed (the CLI refuses to report a word that does not replay).
#[test]
fn symbolic_hkc_on_email_filter() {
    let Some(d) = verikit_testkit::shared_path("nfa/email-filter") else {
        eprintln!("skipping: no email-filter data");
        return;
    };
    for (i, j) in [(0, 3), (10, 73), (5, 5), (40, 40), (65, 8)] {
        let a = d.join(format!("aut{i}.mata"));
        let b = d.join(format!("aut{j}.mata"));
        let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
        let (s, _) = json(&["nfa", "equiv", "--algo", "hkc-bdd", a, b]);
        let (e, _) = json(&["nfa", "equiv", "--algo", "hkc", a, b]);
        assert_eq!(s["verdict"], e["verdict"], "aut{i} vs aut{j}");
        if s["verdict"] == "false" {
            assert_eq!(s["replay"]["confirmed"], true);
        }
    }
}

/// Symbolic inclusion (`--algo antichain-bdd`, alias `symbolic`) agrees with explicit antichains
/// on email-filter pairs in both directions; counterexamples replay.
#[test]
fn symbolic_inclusion_on_email_filter() {
    let Some(d) = verikit_testkit::shared_path("nfa/email-filter") else {
        eprintln!("skipping: no email-filter data");
        return;
    };
    for (i, j) in [(0, 3), (10, 73), (5, 5), (40, 40), (65, 8)] {
        for (x, y) in [(i, j), (j, i)] {
            let a = d.join(format!("aut{x}.mata"));
            let b = d.join(format!("aut{y}.mata"));
            let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
            let (s, _) = json(&["nfa", "incl", "--algo", "symbolic", a, b]);
            let (e, _) = json(&["nfa", "incl", "--algo", "antichain", a, b]);
            assert_eq!(s["verdict"], e["verdict"], "aut{x} ⊆ aut{y}");
            assert_eq!(s["algorithm"], "antichain-bdd");
            if s["verdict"] == "false" {
                assert_eq!(s["replay"]["confirmed"], true);
                assert_eq!(s["replay"]["accepted_by_a"], true);
            }
        }
    }
}

/// Preprocessing (`--pre sim` saturation, `--pre bisim`) keeps the answers of inclusion and
/// equivalence.
#[test]
fn preprocessing_keeps_answers() {
    let files = [demo("ends-ab.mata"), demo("has-a.mata"), demo("no-bb.mata")];
    for (x, y) in [(0, 1), (1, 0), (0, 2), (2, 2)] {
        let (a, b) = (files[x].to_str().unwrap(), files[y].to_str().unwrap());
        preprocessing_pair(a, b);
    }
}

fn preprocessing_pair(a: &str, b: &str) {
    for (cmd, algo) in [
        ("incl", "antichain"),
        ("incl", "hkc"),
        ("equiv", "hkc"),
        ("equiv", "antichain"),
    ] {
        let (plain, _) = json(&["nfa", cmd, "--algo", algo, a, b]);
        for pre in ["sim", "bisim"] {
            let (v, code) = json(&["nfa", cmd, "--algo", algo, "--pre", pre, a, b]);
            assert_eq!(code, 0);
            assert_eq!(v["verdict"], plain["verdict"], "{cmd} {algo} --pre {pre}");
            if v["verdict"] == "false" {
                assert_eq!(v["replay"]["confirmed"], true);
            }
        }
    }
}
