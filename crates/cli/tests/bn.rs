#![cfg(feature = "bn")]
//! `verikit bn` end to end: answers, JSON, witnesses replayed, errors and exit codes.

use std::io::Write;
use std::process::{Command, Stdio};

fn verikit(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_verikit"));
    c.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().expect("spawn verikit");
    if let Some(s) = stdin {
        // A command rejected before it reads its input closes the pipe early: not a test failure.
        let _ = child.stdin.take().expect("stdin").write_all(s.as_bytes());
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const EXAMPLE5: &str = include_str!("../demo/bn/example5.bnet");

/// Replays every listed attractor: consecutive states follow the update functions, the last wraps.
fn replay(model: &str, j: &serde_json::Value) {
    let net = verikit_boolnet::parse(model, verikit_boolnet::Format::Bnet).expect("model parses");
    let f = net.resolved(verikit_boolnet::InputMode::Free);
    let names: Vec<String> = j["variables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, net.names);
    for a in j["attractors"].as_array().unwrap() {
        let states: Vec<Vec<bool>> = a
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().chars().map(|c| c == '1').collect())
            .collect();
        for (i, s) in states.iter().enumerate() {
            let next: Vec<bool> = f.iter().map(|e| e.eval(&|v| s[v as usize])).collect();
            assert_eq!(
                next,
                states[(i + 1) % states.len()],
                "attractor {a} is not a cycle"
            );
        }
    }
}

#[test]
fn example5_all_methods() {
    for method in ["decomposition", "monolithic", "bruteforce"] {
        for extra in [
            &[][..],
            &["--leaf-removal"][..],
            &["--no-leaf-removal"][..],
            &["--detect", "gfp"][..],
            &["--no-leaf-removal", "--detect", "gfp"][..],
        ] {
            let mut args = vec!["--json", "-q", "bn", "attractors", "-", "--method", method];
            args.extend_from_slice(extra);
            let (code, out, err) = verikit(&args, Some(EXAMPLE5));
            assert_eq!(code, 0, "{err}");
            let j: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            // A computation, not a decision: no verdict; the count is a detail.
            assert!(j.get("verdict").is_none(), "{j}");
            assert_eq!(j["attractor_count"], 6);
            assert_eq!(j["fixed_point_count"], 4);
            assert_eq!(j["complete"], true);
            assert_eq!(j["input"]["variables"], 8);
            assert!(j["times"]["total_s"].is_number());
            replay(EXAMPLE5, &j);
        }
    }
}

#[test]
fn text_output_lists_cycles() {
    let (code, out, _) = verikit(&["-q", "bn", "attractors", "-"], Some(EXAMPLE5));
    assert_eq!(code, 0);
    assert!(out.starts_with("6 attractors (4 fixed points"), "{out}");
    assert!(out.contains("00000000 -> 01000000"), "{out}");
    assert!(out.contains("attractor 3 (fixed point): 11010000"), "{out}");
}

#[test]
fn fixed_points_info_gen_convert() {
    let (code, out, _) = verikit(&["--json", "-q", "bn", "fixed-points", "-"], Some(EXAMPLE5));
    assert_eq!(code, 0);
    let j: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(j["fixed_point_count"], 4);
    assert_eq!(j["fixed_points"].as_array().unwrap().len(), 4);
    assert_eq!(j["complete"], true);
    let (code, out, _) = verikit(&["--json", "-q", "bn", "info", "-"], Some(EXAMPLE5));
    assert_eq!(code, 0);
    let j: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(j["blocks"].as_array().unwrap().len(), 4);
    assert_eq!(j["max_credit"], 2);
    let (code, out, _) = verikit(
        &[
            "-q",
            "bn",
            "gen",
            "-n",
            "30",
            "--non-leaves",
            "6",
            "--seed",
            "3",
        ],
        None,
    );
    assert_eq!(code, 0);
    let net = verikit_boolnet::parse(&out, verikit_boolnet::Format::Bnet).unwrap();
    assert_eq!(net.len(), 30);
    // The generated network runs, and decomposition agrees with brute force on it.
    let small = {
        let (_, o, _) = verikit(
            &[
                "-q",
                "bn",
                "gen",
                "-n",
                "14",
                "--non-leaves",
                "5",
                "--seed",
                "9",
            ],
            None,
        );
        o
    };
    let a = verikit(
        &["--json", "-q", "bn", "attractors", "-", "--limit", "100000"],
        Some(&small),
    );
    let b = verikit(
        &[
            "--json",
            "-q",
            "bn",
            "attractors",
            "-",
            "--method",
            "bruteforce",
            "--limit",
            "100000",
        ],
        Some(&small),
    );
    let ja: serde_json::Value = serde_json::from_str(a.1.trim()).unwrap();
    let jb: serde_json::Value = serde_json::from_str(b.1.trim()).unwrap();
    assert_eq!(ja["attractors"], jb["attractors"]);
    let (code, out, _) = verikit(&["-q", "bn", "convert", "-"], Some(EXAMPLE5));
    assert_eq!(code, 0);
    assert!(out.starts_with("targets, factors"));
}

#[test]
fn bad_input_is_located() {
    let (code, _, err) = verikit(
        &["bn", "attractors", "-"],
        Some("targets, factors\nA, B &\n"),
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("<stdin>:2:"), "{err}");
    let (code, _, err) = verikit(
        &["bn", "attractors", "-"],
        Some("targets, factors\nA, B\nA, !B\n"),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("<stdin>:3:1") && err.contains("duplicate"),
        "{err}"
    );
    let (code, _, err) = verikit(
        &["bn", "attractors", "-", "--format", "aeon"],
        Some("a -> b\n$b: a & zz\n"),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("<stdin>:2:9") && err.contains("unknown variable"),
        "{err}"
    );
}

#[test]
fn too_large_is_a_resource_limit() {
    let (_, big, _) = verikit(
        &[
            "-q",
            "bn",
            "gen",
            "-n",
            "40",
            "--non-leaves",
            "40",
            "--module",
            "40",
            "-k",
            "3",
        ],
        None,
    );
    let (code, _, err) = verikit(
        &["bn", "attractors", "-", "--method", "bruteforce"],
        Some(&big),
    );
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("resource limit"), "{err}");
    let (code, out, _) = verikit(
        &[
            "--json",
            "bn",
            "attractors",
            "-",
            "--method",
            "monolithic",
            "--detect",
            "gfp",
            "--node-limit",
            "300",
        ],
        Some(&big),
    );
    assert_eq!(code, 3);
    assert!(out.contains("resource-limit"), "{out}");
}

/// `--timeout 1` on a BBM model whose attractors take over a minute: the answer is `timeout`
/// (exit 3), given within the second plus the watchdog's grace (generous upper bound).
#[test]
fn hard_input_answers_timeout() {
    let Some(dir) = verikit_testkit::shared_path("bn/bbm") else {
        eprintln!("skipped: bn/bbm not in the shared data");
        return;
    };
    let Some(model) = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().contains("[id-285]"))
    else {
        eprintln!("skipped: bn/bbm model id-285 not found");
        return;
    };
    let path = model.join("model.bnet");
    let t0 = std::time::Instant::now();
    let (code, out, err) = verikit(
        &[
            "--json",
            "--timeout",
            "1",
            "bn",
            "attractors",
            path.to_str().unwrap_or(""),
        ],
        None,
    );
    let elapsed = t0.elapsed().as_secs_f64();
    assert_eq!(code, 3, "{out}{err}");
    let j: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(j["verdict"], "timeout", "{j}");
    assert!(elapsed < 3.0, "took {elapsed} s");
}

/// Issue 18 item 11: every numeric option of every `bn` subcommand with extreme values: no panic
/// (exit 0, 2 or 3 only), out-of-range generator sizes are usage errors.
#[test]
fn extreme_option_values() {
    const MAX: &str = "18446744073709551615";
    for sub in ["attractors", "fixed-points"] {
        for (opt, v) in [
            ("--limit", "0"),
            ("--limit", MAX),
            ("--node-limit", "0"),
            ("--node-limit", MAX),
            ("--limit", "-1"),
        ] {
            let args = ["-q", "--timeout", "20", "bn", sub, "-", opt, v];
            let (code, out, err) = verikit(&args, Some(EXAMPLE5));
            assert!(
                matches!(code, 0 | 2 | 3),
                "{args:?}: exit {code}\n{out}{err}"
            );
            assert!(!err.contains("panicked"), "{args:?}: {err}");
        }
    }
    for (opt, v) in [("--node-limit", "0"), ("--node-limit", MAX)] {
        let args = ["-q", "bn", "info", "-", opt, v];
        let (code, _, err) = verikit(&args, Some(EXAMPLE5));
        assert_eq!(code, 0, "{args:?}: {err}");
    }
    let (code, out, _) = verikit(
        &["-q", "bn", "fixed-points", "-", "--limit", MAX],
        Some(EXAMPLE5),
    );
    assert_eq!(code, 0);
    assert!(out.starts_with("4 fixed points"), "{out}");
    let gen = |extra: &[&str]| {
        let mut args = vec!["-q", "--timeout", "20", "bn", "gen"];
        args.extend_from_slice(extra);
        verikit(&args, None)
    };
    for bad in [
        &["-n", "0"][..],
        &["-n", MAX][..],
        &["-n", "32001"][..],
        &["-n", "30", "-k", "0"][..],
        &["-n", "30", "-k", MAX][..],
        &["-n", "30000", "--non-leaves", "30000", "-k", "1000000"][..],
        &["-n", "30", "--non-leaves", "0"][..],
        &["-n", "30", "--non-leaves", MAX][..],
        &["-n", "30", "--module", "0"][..],
        &["-n", "30", "--module", MAX][..],
    ] {
        let (code, out, err) = gen(bad);
        assert_eq!(code, 2, "{bad:?}: {out}{err}");
        assert!(!err.contains("panicked"), "{bad:?}: {err}");
    }
    let (code, out, err) = gen(&[
        "-n",
        "30",
        "--seed",
        MAX,
        "-k",
        "64",
        "--non-leaves",
        "30",
        "--module",
        "30",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        verikit_boolnet::parse(&out, verikit_boolnet::Format::Bnet)
            .unwrap()
            .len(),
        30
    );
}
