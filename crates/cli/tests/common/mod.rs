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
