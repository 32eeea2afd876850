//! Test support shared by the verikit crates (a dev-dependency only).
//!
//! * [`shared_data`] finds the benchmark data folder (`$VERIKIT_DATA`, else `shared/data` beside the
//!   repository) — integration tests skip with a clear message when it is missing.
//! * [`expected`] finds `tests/expected/`, the results recorded from peer tools.
//! * [`assert_parser_total`] feeds a parser garbage, every truncation of a valid input, random byte
//!   mutations and binary noise, and fails if it panics.
//! * [`import_graph`] builds the file-level import graph of a crate and fails on import cycles
//!   that are not on an explicit allow-list.

#![warn(unreachable_pub)]

pub mod import_graph;

use rand::{rngs::SmallRng, Rng, SeedableRng};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

/// The repository root (the workspace folder).
pub fn repo_root() -> PathBuf {
    // crates/testkit -> crates -> root
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The shared benchmark data folder, or `None` (after printing why) if it is not present.
pub fn shared_data() -> Option<PathBuf> {
    let dir = match std::env::var_os("VERIKIT_DATA") {
        Some(d) => PathBuf::from(d),
        None => repo_root().join("../shared/data"),
    };
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIP: benchmark data not found at {} (set VERIKIT_DATA); skipping data-driven test",
            dir.display()
        );
        None
    }
}

/// A subfolder or file of the shared data, or `None` (with a message) if missing.
pub fn shared_path(rel: &str) -> Option<PathBuf> {
    let p = shared_data()?.join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("SKIP: {} not found in the benchmark data", rel);
        None
    }
}

/// A file of `tests/expected/` (results recorded from peer tools; checked in).
pub fn expected(name: &str) -> PathBuf {
    repo_root().join("tests/expected").join(name)
}

/// Skips the rest of a test (returns) when the shared data or a path in it is missing.
#[macro_export]
macro_rules! require_data {
    ($rel:expr) => {
        match $crate::shared_path($rel) {
            Some(p) => p,
            None => return,
        }
    };
}

/// Checks that `parse` never panics: on fixed garbage, on every prefix of each valid sample
/// (truncated files), on `mutations` random byte-level mutations of the samples and on random
/// binary noise. The parser's result is ignored: only a panic fails the test.
pub fn assert_parser_total<T, E>(
    samples: &[&str],
    mutations: usize,
    parse: impl Fn(&str) -> Result<T, E>,
) {
    let mut inputs: Vec<String> = [
        "",
        " ",
        "\n",
        "\0",
        "(((((",
        ")))))",
        "\"",
        "\"unterminated",
        "@",
        "-",
        "--",
        "0",
        "-1",
        "99999999999999999999999999999",
        "[",
        "]",
        "{",
        "}",
        ";",
        ":",
        ",",
        "&|!",
        "\u{feff}",
        "é",
        "\r\n\r\n",
        "\t",
        "/*",
        "//",
        "#",
        "%",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    inputs.push("(".repeat(50_000));
    inputs.push("!".repeat(50_000));
    for s in samples {
        let mut cut = 0;
        while cut <= s.len() {
            if s.is_char_boundary(cut) {
                inputs.push(s[..cut].to_string());
            }
            cut += 1.max(s.len() / 400);
        }
    }
    let mut rng = SmallRng::seed_from_u64(0x5eed);
    let alphabet = b"()[]{}<>!&|^~-=+*/%:;,.\"'@#$\\ \n\t0123456789abcxyzAPIFGXURW";
    for i in 0..mutations {
        if samples.is_empty() {
            break;
        }
        let mut bytes = samples[i % samples.len()].as_bytes().to_vec();
        for _ in 0..rng.gen_range(1..6) {
            if bytes.is_empty() {
                bytes.push(alphabet[rng.gen_range(0..alphabet.len())]);
                continue;
            }
            let at = rng.gen_range(0..bytes.len());
            match rng.gen_range(0..4) {
                0 => bytes[at] = alphabet[rng.gen_range(0..alphabet.len())],
                1 => {
                    bytes.remove(at);
                }
                2 => bytes.insert(at, alphabet[rng.gen_range(0..alphabet.len())]),
                _ => {
                    let end = (at + rng.gen_range(1..40)).min(bytes.len());
                    let chunk: Vec<u8> = bytes[at..end].to_vec();
                    let to = rng.gen_range(0..bytes.len());
                    bytes.splice(to..to, chunk);
                }
            }
        }
        inputs.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    for _ in 0..32 {
        let len = rng.gen_range(0..512);
        let noise: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        inputs.push(String::from_utf8_lossy(&noise).into_owned());
    }
    for input in &inputs {
        let r = catch_unwind(AssertUnwindSafe(|| {
            let _ = parse(input);
        }));
        if r.is_err() {
            let shown: String = input.chars().take(300).collect();
            panic!(
                "parser panicked on input ({} bytes): {:?}",
                input.len(),
                shown
            );
        }
    }
}
