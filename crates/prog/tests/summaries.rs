//! Bounded procedure summaries (`--engine summaries`) on small recursive programs against a
//! brute-force oracle: every `false` replays into `reach_error` with gcc, every `true` is what
//! exhaustive evaluation of the inputs says; what the engine does not handle is refused by name.
//! And the interval invariants with threshold widening: nested constant loops proved by
//! predicate abstraction without refinement, the invariant re-checked by the SMT solver.

mod common;
use common::{gcc, nondet, run, scratch, write};
use std::time::Duration;
use verikit_diag::Budget;
use verikit_prog::{
    cegar_invariant, check_invariant, load_c, replay_with_gcc, Engine, LowerOptions, Replay,
};

/// `f(n) = k + a·n` by recursion, called on an input in `[0, n_max]`; the error when `f(x) = v`.
fn linear(k: i64, a: i64, n_max: i64, v: i64) -> String {
    format!(
        "int f(int n) {{ if (n <= 0) return {k}; return f(n - 1) + {a}; }}\n\
         int main(void) {{\n  int x = __VERIFIER_nondet_int();\n\
         if (x < 0 || x > {n_max}) return 0;\n  if (f(x) == {v}) reach_error();\n  return 0;\n}}\n"
    )
}

fn check(tag: &str, body: &str, reachable: bool) {
    let dir = scratch("summaries", tag);
    let file = write(&dir, body);
    let a = run(&file, Engine::Summaries, None);
    let want = if reachable { "false" } else { "true" };
    assert_eq!(a["verdict"], want, "{tag}: {a}");
    assert_eq!(a["engine"], "summaries", "{tag}: {a}");
    if !reachable {
        // The proof carries each function's summary, re-validated by the engine's checker.
        let sums = a["witness"]["summaries"].as_array().expect("summaries");
        assert!(!sums.is_empty(), "{tag}: {a}");
        assert!(
            a["proof"]
                .as_str()
                .is_some_and(|p| p.contains("re-validated")),
            "{tag}: {a}"
        );
    }
    if reachable {
        let vals = nondet(&a);
        let r = replay_with_gcc(&file, &vals, &dir.join("replay"));
        assert_eq!(r, Replay::Reached, "{tag}: {vals:?} does not replay");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn summaries_agree_with_brute_force_and_counterexamples_replay() {
    if !gcc() {
        eprintln!("skipping: gcc is not installed");
        return;
    }
    for (i, &(k, a, n_max, v)) in [
        (0, 1, 5, 3),
        (0, 1, 5, 9),
        (1, 2, 8, 13),
        (1, 2, 8, 14),
        (3, -1, 6, 0),
        (3, -1, 6, 4),
        (7, 0, 4, 7),
        (7, 0, 4, 8),
    ]
    .iter()
    .enumerate()
    {
        let reachable = (0..=n_max).any(|x| k + a * x == v);
        check(&format!("lin{i}"), &linear(k, a, n_max, v), reachable);
    }
}

#[test]
fn two_calls_and_mutual_recursion() {
    if !gcc() {
        eprintln!("skipping: gcc is not installed");
        return;
    }
    let fib = |v: i64| {
        format!(
            "int fib(int n) {{ if (n < 1) return 0; if (n == 1) return 1; return fib(n - 1) + fib(n - 2); }}\n\
             int main(void) {{ if (fib(12) == {v}) reach_error(); return 0; }}\n"
        )
    };
    check("fib-bug", &fib(144), true);
    check("fib-safe", &fib(143), false);
    let parity = |x: i64| {
        format!(
            "int odd(int n);\n\
             int even(int n) {{ if (n == 0) return 1; return odd(n - 1); }}\n\
             int odd(int n) {{ if (n == 0) return 0; return even(n - 1); }}\n\
             int main(void) {{\n  int x = __VERIFIER_nondet_int();\n\
             if (x < 0 || x > 12) return 0;\n  if (even(x) == 1 && x == {x}) reach_error();\n  return 0;\n}}\n"
        )
    };
    check("even-bug", &parity(6), true);
    check("even-safe", &parity(7), false);
}

#[test]
fn summaries_refuse_by_name() {
    let cases = [
        (
            "loop",
            "int f(int n) { int s = 0; while (s < n) s++; if (n > 0) return f(n - 1) + s; return 0; }\n\
             int main(void) { if (f(3) == 100) reach_error(); return 0; }\n",
            "a loop in `",
        ),
        (
            "error-inside",
            "int f(int n) { if (n == 2) reach_error(); if (n <= 0) return 0; return f(n - 1); }\n\
             int main(void) { return f(5); }\n",
            "`f` calls reach_error",
        ),
        (
            "no-recursion",
            "int main(void) { int x = __VERIFIER_nondet_int(); if (x == 3) reach_error(); return 0; }\n",
            "no recursive function",
        ),
    ];
    for (tag, body, why) in cases {
        let dir = scratch("summaries", tag);
        let file = write(&dir, body);
        let a = run(&file, Engine::Summaries, None);
        assert_eq!(a["verdict"], "unknown", "{tag}: {a}");
        let reason = a["reason"].as_str().unwrap_or("");
        assert!(reason.contains(why), "{tag}: {reason}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn nested_constant_loops_proved_with_interval_invariants() {
    let body = "int main(void) {\n  int a = 6, b = 6, c = 6;\n\
      for (a = 0; a < 6; ++a)\n    for (b = 0; b < 6; ++b)\n      for (c = 0; c < 6; ++c) {}\n\
      if (!(a == 6 && b == 6 && c == 6)) reach_error();\n  return 0;\n}\n";
    let dir = scratch("summaries", "nested");
    let file = write(&dir, body);
    let a = run(&file, Engine::Cegar, None);
    assert_eq!(a["verdict"], "true", "{a}");
    assert_eq!(a["stats"]["refinements"], 0, "{a}");
    let cfa = load_c(&file, LowerOptions::default()).expect("lower");
    let inv = cegar_invariant(&cfa, true, &Budget::with_timeout(Duration::from_secs(60)))
        .expect("an invariant");
    assert_eq!(check_invariant(&cfa, &inv), Ok(()));
    let _ = std::fs::remove_dir_all(&dir);
}
