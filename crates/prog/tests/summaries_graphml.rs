//! Recursion through procedure summaries: recursive C functions become summary predicates of the
//! emitted Horn clauses (no cut call left), the clauses are solved with every model re-checked
//! here against the clauses as written, a bug deeper than the inlining bound is found and
//! replayed with gcc, and on random small recursive programs the verdicts agree with a
//! brute-force run of every input. GraphML witnesses: the violation witness's assumptions
//! replayed through the gcc harness, the correctness witness's loop invariant.

use proptest::prelude::*;
mod common;
use common::{gcc, nondet, opts, run, scratch, write};
use std::time::Duration;
use verikit_diag::Budget;
use verikit_prog::{
    check_chc_model, load_c, replay_with_gcc, solve_chc_text, to_chc_text, verify, ChcModel,
    Engine, LowerOptions, Replay,
};

/// `sum(n) ≥ 0` needs the summary `r ≥ 0` of the recursive function.
const SUM_SAFE: &str = "int sum(int n) { if (n <= 0) return 0; return n + sum(n - 1); }\n\
int main(void) {\n\
  int n = __VERIFIER_nondet_int();\n\
  if (n < 0 || n > 1000) return 0;\n\
  int s = sum(n);\n\
  if (s < 0) reach_error();\n\
  return 0;\n\
}\n";

/// The error needs three activations of `f` (deeper than the inlining bound) and its effect on a
/// global.
const GLOBAL_BUG: &str = "int calls = 0;\n\
int f(int n) { calls = calls + 1; if (n <= 0) return 0; return 1 + f(n - 1); }\n\
int main(void) {\n\
  int n = __VERIFIER_nondet_int();\n\
  if (n < 0 || n > 10) return 0;\n\
  int r = f(n);\n\
  if (calls == 3 && r == 2) reach_error();\n\
  return 0;\n\
}\n";

/// Solves the clauses with the Horn engines; a `sat` model is re-checked against the clauses.
fn solve(text: &str, secs: u64) -> String {
    let a = solve_chc_text(
        text,
        &opts(Engine::Spacer),
        &Budget::with_timeout(Duration::from_secs(secs)),
    )
    .expect("solve")
    .to_json();
    let word = a["result"].as_str().unwrap_or("").to_string();
    if word == "sat" {
        let defs = a["witness"]["model"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|d| d.as_str().unwrap_or("").to_string())
            .collect();
        check_chc_model(text, &ChcModel { defs }).expect("the model satisfies every clause");
    }
    word
}

#[test]
fn summaries_replace_cut_calls() {
    if !gcc() {
        eprintln!("skipping: gcc is not installed");
        return;
    }
    let dir = scratch("rec", "cut");
    let file = write(&dir, SUM_SAFE);
    let inlined = load_c(&file, LowerOptions::default()).expect("lower");
    assert!(inlined.cuts > 0 && inlined.calls.is_empty());
    let cfa = load_c(
        &file,
        LowerOptions {
            summaries: true,
            ..LowerOptions::default()
        },
    )
    .expect("lower");
    assert_eq!(cfa.procs.len(), 1);
    assert_eq!(cfa.cuts, cfa.calls.len(), "every cut is a summarised call");
    let text = to_chc_text(&file, false, 1).expect("clauses");
    assert!(text.contains("summary of `sum`"), "{text}");
    assert!(!text.contains("recursive call beyond"), "{text}");
    assert_eq!(solve(&text, 60), "sat");
    // The portfolio proves the program through the summaries: the bounded summaries complete at
    // call depth 1000 (n ≤ 1000), or Spacer proves the summary clauses.
    let a = verify(
        &file,
        &opts(Engine::Portfolio),
        &Budget::with_timeout(Duration::from_secs(60)),
    )
    .expect("verify")
    .to_json();
    assert_eq!(a["verdict"], "true", "{a}");
    assert!(a["engine"] == "summaries" || a["engine"] == "spacer", "{a}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn deep_bug_through_summaries_is_unsat_and_replays() {
    if !gcc() {
        eprintln!("skipping: gcc is not installed");
        return;
    }
    let dir = scratch("rec", "bug");
    let file = write(&dir, GLOBAL_BUG);
    let text = to_chc_text(&file, false, 1).expect("clauses");
    assert_eq!(solve(&text, 60), "unsat", "{text}");
    let mut o = opts(Engine::Portfolio);
    o.replay_dir = Some(dir.join("replay"));
    let a = verify(&file, &o, &Budget::with_timeout(Duration::from_secs(60)))
        .expect("verify")
        .to_json();
    assert_eq!(a["verdict"], "false", "{a}");
    let vals = nondet(&a);
    assert_eq!(vals, vec![2]);
    assert_eq!(
        replay_with_gcc(&file, &vals, &dir.join("r")),
        Replay::Reached
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A counting loop (the loop head on line 8 after the three lines of `HEAD`), proved by predicate
/// abstraction.
const LOOP_SAFE: &str = "int main(void) {\n\
  int n = __VERIFIER_nondet_int();\n\
  if (n < 0 || n > 1000) return 0;\n\
  int i = 0;\n\
  while (i < n) {\n\
    i = i + 1;\n\
  }\n\
  if (i != n) reach_error();\n\
  return 0;\n\
}\n";

/// Two inputs and a branch: a short counterexample for the GraphML witness.
const TWO_INPUT_BUG: &str = "int main(void) {\n\
  int a = __VERIFIER_nondet_int();\n\
  int b = __VERIFIER_nondet_int();\n\
  if (a > 5 && b == a + 3) reach_error();\n\
  return 0;\n\
}\n";

/// The values of the `\result == v;` assumptions of a GraphML violation witness, in edge order.
fn graphml_assumptions(text: &str) -> Vec<i128> {
    text.split("<data key=\"assumption\">")
        .skip(1)
        .map(|rest| {
            rest.split("</data>")
                .next()
                .and_then(|a| a.strip_prefix("\\result == "))
                .and_then(|a| a.strip_suffix(';'))
                .and_then(|a| a.parse().ok())
                .expect("an assumption `\\result == v;`")
        })
        .collect()
}

#[test]
fn graphml_witnesses_replay_and_carry_invariants() {
    if !gcc() {
        eprintln!("skipping: gcc is not installed");
        return;
    }
    let dir = scratch("rec", "graphml");
    let file = write(&dir, TWO_INPUT_BUG);
    let w = dir.join("violation.graphml");
    let a = run(&file, Engine::Bmc, Some(w.clone()));
    assert_eq!(a["verdict"], "false", "{a}");
    let text = std::fs::read_to_string(&w).expect("witness written");
    assert!(text.starts_with("<?xml"), "{text}");
    assert!(
        text.contains("<data key=\"witness-type\">violation_witness</data>"),
        "{text}"
    );
    assert!(
        text.contains("<data key=\"violation\">true</data>"),
        "{text}"
    );
    assert!(text.contains("<data key=\"entry\">true</data>"), "{text}");
    assert_eq!(
        text.matches("<data key=\"assumption.resultfunction\">__VERIFIER_nondet_int</data>")
            .count(),
        2,
        "{text}"
    );
    // The witness's assumptions, replayed through the gcc harness, reach the error.
    let vals = graphml_assumptions(&text);
    assert_eq!(vals, nondet(&a), "{text}");
    assert_eq!(
        replay_with_gcc(&file, &vals, &dir.join("r")),
        Replay::Reached
    );
    // Not a rubber stamp: other values do not reach it.
    assert_ne!(
        replay_with_gcc(&file, &[0, 0], &dir.join("r0")),
        Replay::Reached
    );
    // A correctness witness: the loop invariant at the loop head (line 8) as a node invariant.
    let file = write(&dir, LOOP_SAFE);
    let w = dir.join("correctness.graphml");
    let a = run(&file, Engine::Cegar, Some(w.clone()));
    assert_eq!(a["verdict"], "true", "{a}");
    let text = std::fs::read_to_string(&w).expect("witness written");
    assert!(
        text.contains("<data key=\"witness-type\">correctness_witness</data>"),
        "{text}"
    );
    assert!(text.contains("<data key=\"invariant\">"), "{text}");
    assert!(
        text.contains("<data key=\"startline\">8</data><data key=\"enterLoopHead\">true</data>"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `f(n) = n ≤ 0 ? c : f(n − 1) + a`, called on `n ∈ [0, hi]`; the error is `f(n) == target`.
fn program(c: i64, a: i64, hi: i64, target: i64) -> String {
    format!(
        "int f(int n) {{ if (n <= 0) return {c}; return f(n - 1) + {a}; }}\n\
int main(void) {{\n\
  int n = __VERIFIER_nondet_int();\n\
  if (n < 0 || n > {hi}) return 0;\n\
  if (f(n) == {target}) reach_error();\n\
  return 0;\n\
}}\n"
    )
}

fn cases() -> u32 {
    if std::env::var("VERIKIT_PROG_ALL").is_ok_and(|v| v == "1") {
        200
    } else {
        8
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]
    #[test]
    fn summary_verdicts_match_brute_force(c in -3i64..4, a in -2i64..3, hi in 0i64..6, target in -8i64..9) {
        if !gcc() {
            return Ok(());
        }
        let dir = scratch("rec", "prop");
        let file = write(&dir, &program(c, a, hi, target));
        let reachable = (0..=hi).any(|n| c + a * n == target);
        let text = to_chc_text(&file, false, 1).expect("clauses");
        let word = solve(&text, 5);
        let _ = std::fs::remove_dir_all(&dir);
        match word.as_str() {
            "sat" => prop_assert!(!reachable, "sat, but f(n) = {target} for some n"),
            "unsat" => prop_assert!(reachable, "unsat, but no n gives {target}"),
            _ => {}
        }
    }
}
