//! Behaviour shared by every subcommand: help, usage errors, exit codes, the demo.

use std::process::Command;

fn verikit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_verikit"))
}

#[test]
fn help_lists_the_groups() {
    let out = verikit().arg("--help").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for g in ["demo", "Exit codes"] {
        assert!(text.contains(g), "{g} missing from --help:\n{text}");
    }
    #[cfg(feature = "nfa")]
    assert!(text.contains("nfa"));
    #[cfg(feature = "smt")]
    assert!(text.contains("smt"));
    #[cfg(feature = "omega")]
    assert!(text.contains("ltl") && text.contains("aut"));
    #[cfg(feature = "bn")]
    assert!(text.contains("bn"));
    #[cfg(feature = "prism")]
    assert!(text.contains("prism"));
}

#[test]
fn usage_errors_exit_2() {
    let out = verikit().arg("no-such-command").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = verikit()
        .args(["--timeout", "-1", "demo"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn demo_runs_every_engine_and_reports_json() {
    let out = verikit().args(["--json", "-q", "demo"]).output().unwrap();
    assert!(
        out.status.success(),
        "demo failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("demo --json is one JSON object");
    let demos = v["demos"].as_array().expect("demos array");
    let engines: Vec<&str> = demos.iter().filter_map(|d| d["engine"].as_str()).collect();
    assert_eq!(
        engines.len(),
        demos.len(),
        "every demo item names its engine"
    );
    #[cfg(feature = "nfa")]
    assert!(engines.contains(&"nfa"), "{engines:?}");
    #[cfg(feature = "smt")]
    assert!(engines.contains(&"smt"), "{engines:?}");
    #[cfg(feature = "omega")]
    assert!(engines.contains(&"ltl"), "{engines:?}");
    #[cfg(feature = "bn")]
    assert!(engines.contains(&"bn"), "{engines:?}");
    #[cfg(feature = "prism")]
    assert!(engines.contains(&"prism"), "{engines:?}");
    #[cfg(feature = "ta")]
    assert!(engines.contains(&"ta"), "{engines:?}");
    #[cfg(feature = "synt")]
    assert!(engines.contains(&"synt"), "{engines:?}");
    for d in demos {
        assert!(
            d.get("verdict").is_some() || d.get("title").is_some(),
            "{d}"
        );
    }
}
