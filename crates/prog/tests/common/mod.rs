//! Helpers shared by the prog test targets that write small C programs, verify them and read the
//! counterexample's inputs back.
#![allow(dead_code)] // each test binary uses part of the shared helpers

use std::path::{Path, PathBuf};
use std::time::Duration;
use verikit_diag::{Budget, Params};
use verikit_prog::{verify, Engine, VerifyOptions};

/// Is gcc on PATH (counterexample replay needs it)?
pub fn gcc() -> bool {
    std::process::Command::new("gcc")
        .arg("--version")
        .output()
        .is_ok()
}

/// The SV-COMP prelude every test program starts with.
pub const HEAD: &str =
    "extern void __assert_fail(const char *, const char *, unsigned int, const char *);\n\
void reach_error() { __assert_fail(\"0\", \"p.c\", 2, \"reach_error\"); }\n\
extern int __VERIFIER_nondet_int(void);\n";

/// A fresh directory of this process for one test (`tag` keeps the targets apart).
pub fn scratch(tag: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("verikit-{tag}-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("scratch");
    d
}

/// `dir/p.c` with [`HEAD`] and `body`.
pub fn write(dir: &Path, body: &str) -> PathBuf {
    let f = dir.join("p.c");
    std::fs::write(&f, format!("{HEAD}{body}")).expect("write");
    f
}

/// The engine's options with every parameter at its default.
pub fn opts(engine: Engine) -> VerifyOptions {
    VerifyOptions::from_params(engine, &Params::default()).expect("params")
}

/// `prog verify` on `file` with `engine` (60 s), optionally writing a witness, as JSON.
pub fn run(file: &Path, engine: Engine, witness: Option<PathBuf>) -> serde_json::Value {
    let mut o = opts(engine);
    o.witness = witness;
    verify(file, &o, &Budget::with_timeout(Duration::from_secs(60)))
        .expect("verify")
        .to_json()
}

/// The counterexample's `__VERIFIER_nondet_*` values (none without a witness).
pub fn nondet(a: &serde_json::Value) -> Vec<i128> {
    a["witness"]["nondet"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| v.as_str().and_then(|s| s.parse().ok()).expect("int"))
        .collect()
}
