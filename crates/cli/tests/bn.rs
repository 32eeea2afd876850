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
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(s.as_bytes())
            .expect("write stdin");
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
    let net = verikit_boolnet::bnet::parse(model).expect("model parses");
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
            assert_eq!(j["verdict"], "6");
            assert_eq!(j["attractor_count"], 6);
            assert_eq!(j["fixed_point_count"], 4);
            assert_eq!(j["complete"], true);
            assert!(j["time_s"].is_number());
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
    let net = verikit_boolnet::bnet::parse(&out).unwrap();
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
