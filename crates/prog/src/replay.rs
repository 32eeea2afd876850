//! Counterexample replay: the original C file is compiled with gcc together with a generated
//! harness that returns the counterexample's values from the `__VERIFIER_nondet_*` functions in
//! call order and turns `__assert_fail` (which `reach_error` calls) into exit code 99.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

const REACHED: i32 = 99;
const OUT_OF_VALUES: i32 = 97;

/// The harness source for a list of values.
pub fn harness_source(values: &[i128]) -> String {
    let vals: Vec<String> = values.iter().map(|v| format!("{v}LL")).collect();
    let mut s = String::new();
    s.push_str("#include <stdio.h>\n#include <stdlib.h>\n");
    s.push_str(&format!(
        "static long long vk_vals[] = {{ {} }};\nstatic unsigned long vk_n = {}, vk_i = 0;\n",
        if vals.is_empty() {
            "0".to_string()
        } else {
            vals.join(", ")
        },
        values.len()
    ));
    s.push_str(&format!(
        "static long long vk_next(void) {{ if (vk_i < vk_n) return vk_vals[vk_i++]; fprintf(stderr, \"harness: out of values\\n\"); exit({OUT_OF_VALUES}); }}\n"
    ));
    for (name, ty) in [
        ("__VERIFIER_nondet_int", "int"),
        ("__lamp_any_i32", "int"),
        ("__VERIFIER_nondet_long", "long"),
        ("__VERIFIER_nondet_uint", "unsigned int"),
        ("__VERIFIER_nondet_unsigned", "unsigned int"),
        ("__VERIFIER_nondet_ulong", "unsigned long"),
        ("__VERIFIER_nondet_char", "char"),
        ("__VERIFIER_nondet_uchar", "unsigned char"),
        ("__VERIFIER_nondet_short", "short"),
        ("__VERIFIER_nondet_ushort", "unsigned short"),
        ("__VERIFIER_nondet_bool", "_Bool"),
    ] {
        s.push_str(&format!(
            "{ty} {name}(void) {{ return ({ty})vk_next(); }}\n"
        ));
    }
    s.push_str(&format!(
        "void __assert_fail(const char *a, const char *f, unsigned int l, const char *fn) {{ (void)a; (void)f; (void)l; (void)fn; fprintf(stderr, \"harness: reach_error\\n\"); exit({REACHED}); }}\n"
    ));
    s.push_str(&format!(
        "void reach_error_harness_marker(void) {{}}\nvoid __VERIFIER_error(void) {{ exit({REACHED}); }}\n"
    ));
    s
}

/// The result of a replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replay {
    /// The compiled program called `reach_error`.
    Reached,
    /// It ended otherwise (exit status or signal, as text).
    NotReached(String),
    /// gcc or the run failed.
    Failed(String),
}

/// Compiles `c_file` with the harness for `values` in a scratch directory and runs it.
pub fn replay_with_gcc(c_file: &Path, values: &[i128], scratch: &Path) -> Replay {
    if let Err(e) = std::fs::create_dir_all(scratch) {
        return Replay::Failed(format!("cannot create {}: {e}", scratch.display()));
    }
    let h = scratch.join("harness.c");
    let exe = scratch.join("replay.bin");
    if let Err(e) = std::fs::write(&h, harness_source(values)) {
        return Replay::Failed(format!("cannot write the harness: {e}"));
    }
    let out = Command::new("gcc")
        .args(["-w", "-O0", "-fno-builtin", "-o"])
        .arg(&exe)
        .arg(c_file)
        .arg(&h)
        .output();
    match out {
        Err(e) => return Replay::Failed(format!("cannot run gcc: {e}")),
        Ok(o) if !o.status.success() => {
            return Replay::Failed(format!(
                "gcc failed: {}",
                String::from_utf8_lossy(&o.stderr).trim()
            ))
        }
        Ok(_) => {}
    }
    let child = Command::new(&exe)
        .stdin(std::process::Stdio::null())
        .output();
    let _ = Duration::from_secs(0);
    match child {
        Err(e) => Replay::Failed(format!("cannot run the replay: {e}")),
        Ok(o) => match o.status.code() {
            Some(REACHED) => Replay::Reached,
            Some(c) => Replay::NotReached(format!("exit status {c}")),
            None => Replay::NotReached("killed by a signal".into()),
        },
    }
}
