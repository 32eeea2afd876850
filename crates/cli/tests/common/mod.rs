//! What the command-group tests share: running the binary and reading its answer.

use std::process::Command;

/// Runs `verikit ARGS`; returns the exit code, stdout parsed as JSON (`Null` if it is not one JSON
/// value), stdout as text and stderr.
pub fn run(args: &[&str]) -> (i32, serde_json::Value, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_verikit"))
        .args(args)
        .output()
        .expect("spawn verikit");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let v = serde_json::from_str(&text).unwrap_or(serde_json::Value::Null);
    (
        out.status.code().unwrap_or(-1),
        v,
        text,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// [`run`] without the stdout text: the exit code, the JSON answer and stderr.
#[allow(dead_code)] // not every group's tests need this form
pub fn verikit(args: &[&str]) -> (i32, serde_json::Value, String) {
    let (code, v, _, err) = run(args);
    (code, v, err)
}

/// `verikit --json ARGS`: the answer (the last line of stdout as JSON, `Null` if it is not one),
/// the exit code and stderr.
#[allow(dead_code)]
pub fn json(args: &[&str]) -> (serde_json::Value, i32, String) {
    let (code, _, text, err) = run(&[&["--json"], args].concat());
    let v = text
        .lines()
        .last()
        .and_then(|l| serde_json::from_str(l).ok())
        .unwrap_or(serde_json::Value::Null);
    (v, code, err)
}

/// Runs `verikit ARGS`, checks that it exits with `code` and that stderr names every one of
/// `needles`; returns stderr.
#[allow(dead_code)]
pub fn fails(args: &[&str], code: i32, needles: &[&str]) -> String {
    let (got, _, out, err) = run(args);
    assert_eq!(got, code, "verikit {}: {out}{err}", args.join(" "));
    for n in needles {
        assert!(
            err.contains(n),
            "verikit {}: no `{n}` in:\n{err}",
            args.join(" ")
        );
    }
    err
}

/// The demo input `crates/cli/demo/<group>/<name>`.
#[allow(dead_code)]
pub fn demo(group: &str, name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("demo")
        .join(group)
        .join(name)
}

/// The path `name` in this test process's scratch directory `verikit-<tag>-<pid>` (created).
#[allow(dead_code)]
pub fn scratch(tag: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("verikit-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir.join(name)
}

/// A file `name` holding `text` in this test process's scratch directory `verikit-<tag>-<pid>`.
#[allow(dead_code)]
pub fn tmp(tag: &str, name: &str, text: &str) -> std::path::PathBuf {
    let p = scratch(tag, name);
    std::fs::write(&p, text).expect("scratch file");
    p
}

/// The shared data files `rels` (paths below `../shared/data`), or `None` when one is missing
/// (the test then skips; `verikit_testkit::shared_path` says which file).
#[allow(dead_code)]
pub fn shared_files<const N: usize>(rels: [&str; N]) -> Option<[String; N]> {
    let mut paths = Vec::with_capacity(N);
    for rel in rels {
        paths.push(verikit_testkit::shared_path(rel)?.display().to_string());
    }
    paths.try_into().ok()
}

/// Checks that a run exited with 0, showing its stderr otherwise.
#[allow(dead_code)]
pub fn assert_success(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
}
