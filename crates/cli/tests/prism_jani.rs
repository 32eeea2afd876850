#![cfg(feature = "prism")]
//! `verikit prism` on JANI models: embedded properties, `--prop`, `--const`, located errors and
//! exit codes.

use std::path::PathBuf;
use std::process::Command;

fn verikit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_verikit"))
}

fn die() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("demo/prism/die.jani")
        .display()
        .to_string()
}

fn run(args: &[&str]) -> (serde_json::Value, i32, String) {
    let out = verikit().arg("--json").args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let v = stdout
        .lines()
        .last()
        .and_then(|l| serde_json::from_str(l).ok())
        .unwrap_or(serde_json::Value::Null);
    (
        v,
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn check_embedded_properties() {
    let (v, code, err) = run(&["prism", "check", &die(), "--const", "k=3"]);
    assert_eq!(code, 0, "{err}");
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 4);
    let flips = results.iter().find(|r| r["name"] == "flips").unwrap();
    assert!((flips["result"].as_f64().unwrap() - 11.0 / 3.0).abs() < 1e-6);
    assert_eq!(v["states"], 19);
    let (v, code, _) = run(&["prism", "check", &die(), "--const", "k=3", "--prop", "one"]);
    assert_eq!(code, 0);
    assert!((v["verdict"].as_str().unwrap().parse::<f64>().unwrap() - 1.0 / 6.0).abs() < 1e-9);
}

#[test]
fn build_jani() {
    let (v, code, err) = run(&["prism", "build", &die(), "--const", "k=1"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["transitions"], 26);
}

#[test]
fn jani_errors() {
    // Open constant: named and located in the JSON.
    let out = verikit().args(["prism", "check", &die()]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`k`") && err.contains("die.jani:"), "{err}");
    // A properties file is refused for JANI input.
    let (_, code, _) = run(&["prism", "check", &die(), &die(), "--const", "k=1"]);
    assert_eq!(code, 2);
    // A model type verikit does not read is refused by name with file:line:col.
    let dir = std::env::temp_dir().join(format!("verikit-jani-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("ma.jani");
    let text = std::fs::read_to_string(die())
        .unwrap()
        .replace("\"dtmc\"", "\"ma\"");
    std::fs::write(&p, text).unwrap();
    let out = verikit()
        .args(["prism", "build", p.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Markov automata") && err.contains("ma.jani:"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
