#![no_main]
use libfuzzer_sys::fuzz_target;
use std::time::Duration;
use verikit_smt::{run_script, RunOptions};

// Whole SMT-LIB scripts: lexer, parser, elaborator, interpreter and solver must never panic.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = run_script(s, RunOptions { check: true, budget: verikit_diag::Budget::with_timeout(Duration::from_millis(200)), ..Default::default() });
    }
});
