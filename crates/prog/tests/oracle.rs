//! Property tests against a brute-force oracle: small random C programs over two bounded
//! nondeterministic inputs (assignments, `if`, a bounded `while`), decided by BMC, IMPACT,
//! predicate abstraction (cegar) and k-induction; the oracle runs every input through an
//! interpreter of the generated program. Every `false` is replayed with gcc, every IMPACT and
//! CEGAR invariant re-checked by the SMT checker.

use proptest::prelude::*;
use std::time::Duration;
use verikit_diag::{Budget, Params};
use verikit_prog::{
    cegar_invariant, check_invariant, impact_invariant, load_c, replay_with_gcc, verify, Engine,
    LowerOptions, Replay, VerifyOptions,
};

#[derive(Clone, Debug)]
enum S {
    /// v[a] := v[b] + k
    Add(usize, usize, i64),
    /// v[a] := k * v[b]
    Scale(usize, i64, usize),
    /// if (v[a] < v[b]) { s } else { t }
    If(usize, usize, Vec<S>, Vec<S>),
    /// while (v[a] < k) { v[a] := v[a] + 1; v[b] := v[b] + d }
    Loop(usize, i64, usize, i64),
}

const NAMES: [&str; 3] = ["x", "y", "z"];

fn stmt() -> impl Strategy<Value = S> {
    let leaf = prop_oneof![
        (0..3usize, 0..3usize, -3i64..4).prop_map(|(a, b, k)| S::Add(a, b, k)),
        (0..3usize, -2i64..3, 0..3usize).prop_map(|(a, k, b)| S::Scale(a, k, b)),
        (0..3usize, -3i64..6, 0..3usize, -2i64..3).prop_map(|(a, k, b, d)| S::Loop(a, k, b, d)),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        (
            0..3usize,
            0..3usize,
            prop::collection::vec(inner.clone(), 0..3),
            prop::collection::vec(inner, 0..3),
        )
            .prop_map(|(a, b, s, t)| S::If(a, b, s, t))
    })
}

fn c_stmt(s: &S, out: &mut String) {
    match s {
        S::Add(a, b, k) => out.push_str(&format!("{} = {} + {};\n", NAMES[*a], NAMES[*b], k)),
        S::Scale(a, k, b) => out.push_str(&format!("{} = {} * {};\n", NAMES[*a], k, NAMES[*b])),
        S::If(a, b, s, t) => {
            out.push_str(&format!("if ({} < {}) {{\n", NAMES[*a], NAMES[*b]));
            s.iter().for_each(|x| c_stmt(x, out));
            out.push_str("} else {\n");
            t.iter().for_each(|x| c_stmt(x, out));
            out.push_str("}\n");
        }
        S::Loop(a, k, b, d) => {
            if a == b {
                out.push_str(&format!(
                    "while ({} < {}) {{ {} = {} + 1; }}\n",
                    NAMES[*a], k, NAMES[*a], NAMES[*a]
                ))
            } else {
                out.push_str(&format!(
                    "while ({} < {}) {{ {} = {} + 1; {} = {} + {}; }}\n",
                    NAMES[*a], k, NAMES[*a], NAMES[*a], NAMES[*b], NAMES[*b], d
                ))
            }
        }
    }
}

fn run(s: &S, v: &mut [i64; 3]) {
    match s {
        S::Add(a, b, k) => v[*a] = v[*b] + k,
        S::Scale(a, k, b) => v[*a] = k * v[*b],
        S::If(a, b, s, t) => {
            let body = if v[*a] < v[*b] { s } else { t };
            body.iter().for_each(|x| run(x, v));
        }
        S::Loop(a, k, b, d) => {
            while v[*a] < *k {
                v[*a] += 1;
                if a != b {
                    v[*b] += d;
                }
            }
        }
    }
}

fn program(body: &[S], target: i64) -> String {
    let mut s = String::from(
        "extern void __assert_fail(const char *, const char *, unsigned int, const char *);\n\
         void reach_error() { __assert_fail(\"0\", \"p.c\", 2, \"reach_error\"); }\n\
         extern int __VERIFIER_nondet_int(void);\n\
         extern void abort(void);\n\
         int main(void) {\n\
         int x = __VERIFIER_nondet_int();\n\
         int y = __VERIFIER_nondet_int();\n\
         if (x < -3 || x > 3 || y < -3 || y > 3) return 0;\n\
         int z = 0;\n",
    );
    body.iter().for_each(|x| c_stmt(x, &mut s));
    s.push_str(&format!(
        "if (z == {target}) reach_error();\nreturn 0;\n}}\n"
    ));
    s
}

fn oracle(body: &[S], target: i64) -> bool {
    for x in -3..=3 {
        for y in -3..=3 {
            let mut v = [x, y, 0];
            body.iter().for_each(|s| run(s, &mut v));
            if v[2] == target {
                return true;
            }
        }
    }
    false
}

/// Cases: a few in CI, the former dozen with `VERIKIT_PROG_ALL=1`.
fn cases() -> u32 {
    if std::env::var("VERIKIT_PROG_ALL").is_ok_and(|v| v == "1") {
        12
    } else {
        5
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), .. ProptestConfig::default() })]
    #[test]
    fn engines_agree_with_brute_force(body in prop::collection::vec(stmt(), 1..4), target in -4i64..8) {
        if std::process::Command::new("gcc").arg("--version").output().is_err() {
            return Ok(());
        }
        let dir = std::env::temp_dir().join(format!("verikit-prog-oracle-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch");
        let file = dir.join("p.c");
        std::fs::write(&file, program(&body, target)).expect("write");
        let reachable = oracle(&body, target);
        for engine in [Engine::Bmc, Engine::Portfolio, Engine::Cegar, Engine::Kind] {
            let mut opts = VerifyOptions::from_params(engine, &Params::default()).expect("params");
            opts.max_k = 20;
            // The new engines only have to be never wrong: a short limit keeps CI time down.
            let secs = if matches!(engine, Engine::Cegar | Engine::Kind) { 2 } else { 20 };
            let a = verify(&file, &opts, &Budget::with_timeout(Duration::from_secs(secs))).expect("verify").to_json();
            let verdict = a["verdict"].as_str().unwrap_or("").to_string();
            if verdict == "true" { prop_assert!(!reachable, "{engine:?} says safe; the oracle reaches the error"); }
            if verdict == "false" {
                prop_assert!(reachable, "{engine:?} says unsafe; the oracle does not");
                let vals: Vec<i128> = a["witness"]["nondet"].as_array().expect("values").iter()
                    .map(|v| v.as_str().and_then(|s| s.parse().ok()).expect("int")).collect();
                prop_assert_eq!(replay_with_gcc(&file, &vals, &dir.join("r")), Replay::Reached);
            }
        }
        let cfa = load_c(&file, LowerOptions::default()).expect("lower");
        if let Some(inv) = impact_invariant(&cfa, &Budget::with_timeout(Duration::from_secs(20))) {
            prop_assert!(!reachable, "IMPACT proves an unsafe program safe");
            prop_assert_eq!(check_invariant(&cfa, &inv), Ok(()));
        }
        for boolean in [true, false] {
            if let Some(inv) = cegar_invariant(&cfa, boolean, &Budget::with_timeout(Duration::from_secs(2))) {
                prop_assert!(!reachable, "CEGAR proves an unsafe program safe");
                prop_assert_eq!(check_invariant(&cfa, &inv), Ok(()));
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
