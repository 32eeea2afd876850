//! SV-COMP verification witnesses in the YAML format 2.0 (sv-witnesses, "Software Verification
//! Witnesses 2.0", SPIN 2024): one `violation_sequence` entry for a counterexample, one
//! `invariant_set` entry for a proof.
//!
//! - Violation: one segment per `__VERIFIER_nondet_*` call on the path, each a `function_return`
//!   waypoint at the call's line with the constraint `\result == v` (ACSL), then a segment with
//!   the `target` waypoint at the `reach_error()` call.
//! - Correctness: a `loop_invariant` per loop head of the automaton (the target of a back edge),
//!   at the line of the loop condition, with the engine's checked invariant there written as a C
//!   expression over the globals and `main`'s locals. Atoms over variables the C text cannot name
//!   unambiguously (auxiliary variables of the encoding, inlined callees' locals, names declared
//!   more than once) are dropped from their conjunction, which only weakens it, so what is
//!   written is still implied by the checked invariant.
//!
//! The metadata names the input file with its SHA-256, the specification
//! `G ! call(reach_error())`, the ILP32 data model and the language C.

use crate::cfa::{Atom, Cfa, Var};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// Calendar date and time (UTC) of a Unix time, ISO 8601.
pub(crate) fn iso8601(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

fn metadata(c_file: &Path, text: &[u8]) -> Value {
    let hash = format!("{:x}", Sha256::digest(text));
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    // A version-4 style UUID from the file hash and the time.
    let seed = Sha256::digest(format!("{hash}{}", now.as_nanos()).as_bytes());
    let h: String = seed.iter().take(16).map(|b| format!("{b:02x}")).collect();
    let uuid = format!(
        "{}-{}-4{}-a{}-{}",
        h.get(0..8).unwrap_or(""),
        h.get(8..12).unwrap_or(""),
        h.get(13..16).unwrap_or(""),
        h.get(17..20).unwrap_or(""),
        h.get(20..32).unwrap_or("")
    );
    let name = c_file.display().to_string();
    json!({
        "format_version": "2.0",
        "uuid": uuid,
        "creation_time": iso8601(now.as_secs()),
        "producer": { "name": "verikit", "version": env!("CARGO_PKG_VERSION") },
        "task": {
            "input_files": [name.clone()],
            "input_file_hashes": { name: hash },
            "specification": "G ! call(reach_error())",
            "data_model": "ILP32",
            "language": "C",
        }
    })
}

fn location(c_file: &Path, line: u32) -> Value {
    json!({ "file_name": c_file.display().to_string(), "line": line, "function": "main" })
}

fn yaml(v: &Value) -> Result<String, String> {
    serde_norway::to_string(v).map_err(|e| format!("cannot write the witness: {e}"))
}

/// A violation witness: the nondeterministic values with the lines of their calls, and the line
/// of the `reach_error()` call.
pub(crate) fn violation(
    c_file: &Path,
    text: &[u8],
    values: &[(i128, u32)],
    target: u32,
) -> Result<String, String> {
    let mut content: Vec<Value> = values
        .iter()
        .map(|(v, line)| {
            json!({ "segment": [ { "waypoint": {
                "type": "function_return",
                "action": "follow",
                "location": location(c_file, *line),
                "constraint": { "value": format!("\\result == {v}"), "format": "acsl_expression" },
            } } ] })
        })
        .collect();
    content.push(json!({ "segment": [ { "waypoint": {
        "type": "target",
        "action": "follow",
        "location": location(c_file, target),
    } } ] }));
    yaml(&json!([{
        "entry_type": "violation_sequence",
        "metadata": metadata(c_file, text),
        "content": content,
    }]))
}

/// An atom as a C expression (`long long` arithmetic), when every variable has a unique C name.
fn c_atom(a: &Atom, name: &dyn Fn(Var) -> Option<String>) -> Option<String> {
    let mut terms = Vec::new();
    for (&x, &c) in &a.lin.coeffs {
        terms.push(format!("{c}LL*{}", name(x)?));
    }
    if terms.is_empty() {
        return None;
    }
    // Σ c·x + k ≤ 0 as Σ c·x ≤ −k.
    let k = a.lin.konst.checked_neg()?;
    Some(format!(
        "({} {} {k}LL)",
        terms.join(" + "),
        if a.eq { "==" } else { "<=" }
    ))
}

/// The loop invariants of a correctness witness: per loop head of the automaton (with a source
/// line), the checked invariant there as a C expression over the globals and `main`'s locals
/// (see the module documentation for what is dropped); `true` invariants are left out.
pub(crate) fn loop_invariants(
    cfa: &Cfa,
    inv: &[Vec<Vec<Atom>>],
    loop_heads: &[usize],
) -> Vec<(u32, String)> {
    // The C name of a variable: a global (`x`) or a local of `main` (`main::x!3`).
    let base = |x: Var| -> Option<String> {
        let v = cfa.vars.get(x)?;
        let b = match v.name.strip_prefix("main::") {
            Some(rest) => rest.split('!').next()?.to_string(),
            None if !v.name.contains("::") && !v.name.contains('!') && !v.aux => v.name.clone(),
            None => return None,
        };
        let ident = b
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && b.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        (ident && b != "return").then_some(b)
    };
    let mut count: HashMap<String, usize> = HashMap::new();
    for x in 0..cfa.vars.len() {
        if let Some(b) = base(x) {
            *count.entry(b).or_insert(0) += 1;
        }
    }
    let name = |x: Var| base(x).filter(|b| count.get(b) == Some(&1));
    let mut out = Vec::new();
    for &l in loop_heads {
        let Some(d) = inv.get(l) else { continue };
        let line = cfa
            .edges
            .iter()
            .filter(|e| e.from == l && e.line > 0)
            .map(|e| e.line)
            .min();
        let Some(line) = line else { continue };
        let disj: Vec<String> = d
            .iter()
            .map(|c| {
                let conj: Vec<String> = c.iter().filter_map(|a| c_atom(a, &name)).collect();
                if conj.is_empty() {
                    "1".to_string()
                } else {
                    conj.join(" && ")
                }
            })
            .collect();
        let value = if disj.is_empty() {
            "0".to_string()
        } else if disj.iter().any(|c| c == "1") {
            continue; // `true` says nothing
        } else {
            disj.iter()
                .map(|c| format!("({c})"))
                .collect::<Vec<_>>()
                .join(" || ")
        };
        out.push((line, value));
    }
    out
}

/// A correctness witness from a checked invariant (per location, a disjunction of conjunctions).
pub(crate) fn correctness(
    c_file: &Path,
    text: &[u8],
    cfa: &Cfa,
    inv: &[Vec<Vec<Atom>>],
    loop_heads: &[usize],
) -> Result<String, String> {
    let entries: Vec<Value> = loop_invariants(cfa, inv, loop_heads)
        .into_iter()
        .map(|(line, value)| {
            json!({ "invariant": {
                "type": "loop_invariant",
                "location": location(c_file, line),
                "value": value,
                "format": "c_expression",
            } })
        })
        .collect();
    yaml(&json!([{
        "entry_type": "invariant_set",
        "metadata": metadata(c_file, text),
        "content": entries,
    }]))
}
