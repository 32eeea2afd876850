//! Nonlinear arithmetic the lowering encodes exactly. `/`, `%`, `/=` and `%=` by constants against gcc: gcc computes the table of every case for
//! dividends −20…20 (negative operands, unsigned conversions of negative values, divisors ±1),
//! and verikit must prove that its encoding yields exactly that table, on mathematical and on
//! wrap-around integers; a reachable value must give a counterexample that gcc replays. A
//! product of two variables compared with 0 against the products' signs computed here.

mod common;

use common::{gcc, nondet, opts, scratch, write};
use std::process::Command;
use std::time::Duration;
use verikit_diag::Budget;
use verikit_prog::{replay_with_gcc, verify, Engine, Replay};

const LO: i64 = -20;
const HI: i64 = 20;

/// (type, operator, divisor) of every case.
fn cases() -> Vec<(&'static str, &'static str, i64)> {
    let mut out = Vec::new();
    for ty in ["int", "unsigned"] {
        for op in ["/", "%"] {
            for y in [3, -3, 7, -1, 1] {
                out.push((ty, op, y));
            }
        }
    }
    out.push(("int", "/=", -4));
    out.push(("int", "%=", 5));
    out.push(("unsigned", "/=", 4));
    out.push(("long", "%", -6));
    out
}

/// The case's statement: `r` from `v`.
fn stmt(ty: &str, op: &str, y: i64) -> String {
    if op.ends_with('=') {
        format!("{ty} r = v; r {op} ({y});")
    } else {
        format!("{ty} r = v {op} ({y});")
    }
}

/// gcc's value of every case for every dividend (printed as `long long`).
fn gcc_table(dir: &std::path::Path) -> Vec<Vec<i128>> {
    let mut src = String::from("#include <stdio.h>\nint main(void) {\n");
    for (ty, op, y) in cases() {
        src.push_str(&format!(
            "  for (int x = {LO}; x <= {HI}; x++) {{ {ty} v = x; {} printf(\"%lld\\n\", (long long)r); }}\n",
            stmt(ty, op, y)
        ));
    }
    src.push_str("  return 0;\n}\n");
    let c = dir.join("table.c");
    let exe = dir.join("table");
    std::fs::write(&c, src).expect("write");
    let st = Command::new("gcc")
        .arg(&c)
        .arg("-o")
        .arg(&exe)
        .status()
        .expect("gcc");
    assert!(st.success());
    let out = Command::new(&exe).output().expect("run");
    let vals: Vec<i128> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim().parse().expect("number"))
        .collect();
    let n = (HI - LO + 1) as usize;
    assert_eq!(vals.len(), cases().len() * n);
    vals.chunks(n).map(<[i128]>::to_vec).collect()
}

/// A C literal of `k` in `ty`.
fn lit(ty: &str, k: i128) -> String {
    match ty {
        "unsigned" => format!("{k}u"),
        "long" => format!("{k}l"),
        _ => format!("{k}"),
    }
}

fn verdict(file: &std::path::Path, wrap: bool) -> serde_json::Value {
    let mut o = opts(Engine::Bmc);
    o.wrap = wrap;
    verify(file, &o, &Budget::with_timeout(Duration::from_secs(60)))
        .expect("verify")
        .to_json()
}

#[test]
fn division_and_remainder_match_gcc() {
    if !gcc() {
        eprintln!("skipped: gcc is not on PATH (the table comes from gcc)");
        return;
    }
    let dir = scratch("arith", "table");
    let table = gcc_table(&dir);
    for ((ty, op, y), vals) in cases().into_iter().zip(&table) {
        // Every dividend gets exactly gcc's value: safe.
        let mut body = format!(
            "int main(void) {{\n  int x = __VERIFIER_nondet_int();\n  if (x < {LO} || x > {HI}) return 0;\n  {ty} v = x;\n  {}\n",
            stmt(ty, op, y)
        );
        for (x, k) in (LO..=HI).zip(vals) {
            body.push_str(&format!(
                "  if (x == {x} && r != {}) reach_error();\n",
                lit(ty, *k)
            ));
        }
        body.push_str("  return 0;\n}\n");
        let f = write(&dir, &body);
        for wrap in [false, true] {
            let a = verdict(&f, wrap);
            assert_eq!(a["verdict"], "true", "{ty} {op} {y} wrap={wrap}: {a}");
        }
        // gcc's value at the most negative dividend is reached, and gcc replays the inputs (on
        // the cases with divisors other than ±1, which need the quotient/remainder encoding).
        if y.abs() == 1 {
            continue;
        }
        let k = vals.first().copied().unwrap_or_default();
        let body = format!(
            "int main(void) {{\n  int x = __VERIFIER_nondet_int();\n  if (x < {LO} || x > {HI}) return 0;\n  {ty} v = x;\n  {}\n  if (r == {}) reach_error();\n  return 0;\n}}\n",
            stmt(ty, op, y),
            lit(ty, k)
        );
        let f = write(&dir, &body);
        let a = verdict(&f, false);
        assert_eq!(a["verdict"], "false", "{ty} {op} {y}: {a}");
        let v = nondet(&a);
        assert_eq!(
            replay_with_gcc(&f, &v, &dir.join("r")),
            Replay::Reached,
            "{ty} {op} {y}: {a}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn division_by_zero_and_by_a_variable_are_refused_by_name() {
    let dir = scratch("arith", "refused");
    for (expr, why) in [
        ("x / 0", "division by zero"),
        ("x % y", "division or remainder by a non-constant"),
    ] {
        let body = format!(
            "int main(void) {{\n  int x = __VERIFIER_nondet_int();\n  int y = __VERIFIER_nondet_int();\n  int r = {expr};\n  if (r == 1) reach_error();\n  return 0;\n}}\n"
        );
        let f = write(&dir, &body);
        let a = verdict(&f, false);
        assert_eq!(a["verdict"], "unknown", "{a}");
        let reason = a["reason"].as_str().unwrap_or_default();
        assert!(reason.contains(why) && reason.contains("p.c:7:"), "{a}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn products_compared_with_zero_match_their_values() {
    let dir = scratch("arith", "products");
    type Holds = fn(i64) -> bool;
    let ops: [(&str, Holds); 6] = [
        (">", |p| p > 0),
        ("<", |p| p < 0),
        (">=", |p| p >= 0),
        ("<=", |p| p <= 0),
        ("==", |p| p == 0),
        ("!=", |p| p != 0),
    ];
    for (op, holds) in ops {
        for zero_left in [false, true] {
            let cmp = if zero_left {
                format!("0 {op} (x - 1) * (y + x)")
            } else {
                format!("(x - 1) * (y + x) {op} 0")
            };
            let mut body = String::from(
                "int main(void) {\n  int x = __VERIFIER_nondet_int();\n  int y = __VERIFIER_nondet_int();\n  if (x < -3 || x > 3 || y < -3 || y > 3) return 0;\n",
            );
            body.push_str(&format!("  int c = {cmp};\n"));
            for x in -3..=3i64 {
                for y in -3..=3i64 {
                    let p = (x - 1) * (y + x);
                    let t = if zero_left { holds(-p) } else { holds(p) };
                    body.push_str(&format!(
                        "  if (x == {x} && y == {y} && c != {}) reach_error();\n",
                        i32::from(t)
                    ));
                }
            }
            body.push_str("  return 0;\n}\n");
            let f = write(&dir, &body);
            let a = verdict(&f, false);
            assert_eq!(a["verdict"], "true", "{cmp}: {a}");
            // Two's complement wrap-around: the product may wrap, so it is refused by name.
            let a = verdict(&f, true);
            assert_eq!(a["verdict"], "unknown", "{cmp}: {a}");
            assert!(
                a["reason"]
                    .as_str()
                    .unwrap_or_default()
                    .contains("nonlinear multiplication"),
                "{a}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
