//! Predicate abstraction (cegar), k-induction (kind) and SV-COMP witnesses: proofs re-checked by
//! the SMT invariant checker, counterexamples replayed with gcc, a counterexample through a
//! 1000-iteration counting loop found by the closed-form simulation, witness files parsed back
//! and their values compared with the replayed inputs, and a few shared SV-COMP tasks never
//! answered wrongly by the new engines.

mod common;
use common::{gcc, nondet, run, scratch, write};
use std::path::PathBuf;
use std::time::Duration;
use verikit_diag::{Budget, Params};
use verikit_prog::{
    cegar_invariant, check_invariant, load_c, replay_with_gcc, verify, Engine, LowerOptions,
    Replay, VerifyOptions,
};

const SAFE: &str = "int main(void) {\n\
  int n = __VERIFIER_nondet_int();\n\
  if (n < 0 || n > 1000) return 0;\n\
  int i = 0, j = 0;\n\
  while (i < n) {\n\
    i = i + 1;\n\
    j = j + 2;\n\
  }\n\
  if (j != 2 * i) reach_error();\n\
  return 0;\n\
}\n";

const COUNTING_BUG: &str = "int main(void) {\n\
  int a = __VERIFIER_nondet_int();\n\
  int i = 0;\n\
  while (i < 1000) {\n\
    i = i + 1;\n\
  }\n\
  if (a == i) reach_error();\n\
  return 0;\n\
}\n";

#[test]
fn cegar_proves_a_loop_safe_with_a_checked_invariant() {
    if !gcc() {
        eprintln!("skipping: gcc is not installed");
        return;
    }
    let dir = scratch("cegar", "safe");
    let file = write(&dir, SAFE);
    let a = run(&file, Engine::Cegar, None);
    assert_eq!(a["verdict"], "true", "{a}");
    assert_eq!(a["engine"], "cegar", "{a}");
    let cfa = load_c(&file, LowerOptions::default()).expect("lower");
    for boolean in [true, false] {
        if let Some(inv) = cegar_invariant(
            &cfa,
            boolean,
            &Budget::with_timeout(Duration::from_secs(60)),
        ) {
            assert_eq!(check_invariant(&cfa, &inv), Ok(()));
            // The checker is not a rubber stamp: dropping every invariant but the initial one fails.
            let mut weak = inv.clone();
            for (l, d) in weak.iter_mut().enumerate() {
                if l != cfa.init && l != cfa.error {
                    d.clear();
                }
            }
            assert!(check_invariant(&cfa, &weak).is_err());
        } else {
            assert!(!boolean, "boolean abstraction must prove the loop safe");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn counting_loop_counterexample_by_closed_form_replays() {
    if !gcc() {
        eprintln!("skipping: gcc is not installed");
        return;
    }
    let dir = scratch("cegar", "count");
    let file = write(&dir, COUNTING_BUG);
    let a = run(&file, Engine::Cegar, None);
    assert_eq!(a["verdict"], "false", "{a}");
    assert!(
        a["loop"].as_str().unwrap_or("").contains("1000 times"),
        "{a}"
    );
    let v = nondet(&a);
    assert_eq!(v, vec![1000]);
    assert_eq!(replay_with_gcc(&file, &v, &dir.join("r")), Replay::Reached);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn k_induction_proves_and_refutes() {
    if !gcc() {
        eprintln!("skipping: gcc is not installed");
        return;
    }
    let dir = scratch("cegar", "kind");
    // x stays even: 1-inductive once x is known even at the loop head.
    let safe = "int main(void) {\n\
      int x = 0;\n\
      while (__VERIFIER_nondet_int()) {\n\
        x = x + 2;\n\
        if (x > 100) x = 0;\n\
      }\n\
      if (x == 7) reach_error();\n\
      return 0;\n\
    }\n";
    let file = write(&dir, safe);
    // Not every program is k-inductive for small k; this one must not be answered wrongly. The
    // bound on k (not a time limit) ends the search as soon as the answer can no longer be wrong
    // in a new way: every k up to it is tried.
    let mut opts = VerifyOptions::from_params(Engine::Kind, &Params::default()).expect("params");
    opts.max_k = 12;
    let a = verify(&file, &opts, &Budget::with_timeout(Duration::from_secs(60)))
        .expect("verify")
        .to_json();
    assert_ne!(a["verdict"], "false", "{a}");
    let bug = "int main(void) {\n\
      int x = 0;\n\
      while (__VERIFIER_nondet_int()) {\n\
        x = x + 3;\n\
      }\n\
      if (x == 9) reach_error();\n\
      return 0;\n\
    }\n";
    let file = write(&dir, bug);
    let a = run(&file, Engine::Kind, None);
    assert_eq!(a["verdict"], "false", "{a}");
    let v = nondet(&a);
    assert_eq!(replay_with_gcc(&file, &v, &dir.join("r")), Replay::Reached);
    // x toggles between 0 and 1: going backwards from the error, a path of distinct states soon
    // runs out (the simple-path constraint), so `¬error` is k-inductive for a small k.
    let ind = "int main(void) {\n\
      int x = 0;\n\
      while (__VERIFIER_nondet_int()) {\n\
        x = 1 - x;\n\
      }\n\
      if (x == 2) reach_error();\n\
      return 0;\n\
    }\n";
    let file = write(&dir, ind);
    let a = run(&file, Engine::Kind, None);
    assert_eq!(a["verdict"], "true", "{a}");
    assert!(
        a["proof"].as_str().unwrap_or("").contains("inductive"),
        "{a}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn witnesses_parse_and_violation_values_replay() {
    if !gcc() {
        eprintln!("skipping: gcc is not installed");
        return;
    }
    let dir = scratch("cegar", "witness");
    let file = write(&dir, COUNTING_BUG);
    let w = dir.join("violation.yml");
    for engine in [Engine::Cegar, Engine::Bmc, Engine::Kind] {
        let _ = std::fs::remove_file(&w);
        let mut opts = VerifyOptions::from_params(engine, &Params::default()).expect("params");
        opts.witness = Some(w.clone());
        opts.max_bound = 2048;
        opts.max_k = 1100;
        // BMC and k-induction need about 1000 unrollings here and often use up any budget: 15 s
        // for them (their witness is checked when they finish), 60 s for cegar, which must.
        let secs = if engine == Engine::Cegar { 60 } else { 15 };
        let a = verify(
            &file,
            &opts,
            &Budget::with_timeout(Duration::from_secs(secs)),
        )
        .expect("verify")
        .to_json();
        if a["verdict"] != "false" {
            // BMC and k-induction may run out of time on 1000 iterations; cegar must not.
            assert_ne!(engine, Engine::Cegar, "{a}");
            assert_ne!(a["verdict"], "true", "{a}");
            continue;
        }
        let v = nondet(&a);
        assert_eq!(replay_with_gcc(&file, &v, &dir.join("r")), Replay::Reached);
        let text = std::fs::read_to_string(&w).expect("witness written");
        let doc: serde_json::Value = serde_norway::from_str(&text).expect("YAML");
        let entry = &doc[0];
        assert_eq!(entry["entry_type"], "violation_sequence", "{text}");
        assert_eq!(entry["metadata"]["format_version"], "2.0");
        assert_eq!(
            entry["metadata"]["task"]["specification"],
            "G ! call(reach_error())"
        );
        let hash = entry["metadata"]["task"]["input_file_hashes"]
            .as_object()
            .and_then(|m| m.values().next())
            .and_then(|h| h.as_str())
            .unwrap_or("");
        assert_eq!(hash.len(), 64, "{text}");
        let segs = entry["content"].as_array().expect("segments");
        let mut seen = Vec::new();
        for s in segs {
            let wp = &s["segment"][0]["waypoint"];
            if wp["type"] == "function_return" {
                let c = wp["constraint"]["value"].as_str().unwrap_or("");
                let n: i128 = c
                    .strip_prefix("\\result == ")
                    .and_then(|x| x.parse().ok())
                    .expect("constraint");
                assert!(wp["location"]["line"].as_u64().unwrap_or(0) > 0);
                seen.push(n);
            }
        }
        assert_eq!(seen, v, "{text}");
        let last = &segs.last().expect("target")["segment"][0]["waypoint"];
        assert_eq!(last["type"], "target");
        assert_eq!(
            last["location"]["line"], 10,
            "reach_error() is called on line 10"
        );
    }
    // A correctness witness: an invariant set with a loop invariant at the loop head (line 8).
    let file = write(&dir, SAFE);
    let w = dir.join("correctness.yml");
    let a = run(&file, Engine::Cegar, Some(w.clone()));
    assert_eq!(a["verdict"], "true", "{a}");
    let text = std::fs::read_to_string(&w).expect("witness written");
    let doc: serde_json::Value = serde_norway::from_str(&text).expect("YAML");
    assert_eq!(doc[0]["entry_type"], "invariant_set", "{text}");
    let invs = doc[0]["content"].as_array().expect("content");
    assert!(
        invs.iter()
            .any(|i| i["invariant"]["type"] == "loop_invariant"
                && i["invariant"]["location"]["line"] == 8
                && i["invariant"]["value"]
                    .as_str()
                    .is_some_and(|v| v.contains('j'))),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Shared SV-COMP tasks (a CI subset; all with VERIKIT_PROG_ALL=1): cegar and kind never answer
/// wrongly, and every `false` replays.
#[test]
fn shared_tasks_never_wrong_for_cegar_and_kind() {
    let root = verikit_testkit::require_data!("sv");
    if !gcc() {
        eprintln!("skipping: gcc is not installed");
        return;
    }
    let all = std::env::var("VERIKIT_PROG_ALL").is_ok_and(|v| v == "1");
    let ci = [
        "loop-simple/nested_1",
        "loop-simple/nested_2",
        "recursive-simple/fibo_2calls_2-2",
        "recursive-simple/id_i5_o5-1",
    ];
    let mut tasks: Vec<PathBuf> = Vec::new();
    for d in std::fs::read_dir(&root).into_iter().flatten().flatten() {
        for f in std::fs::read_dir(d.path()).into_iter().flatten().flatten() {
            let p = f.path();
            if p.extension().is_some_and(|e| e == "yml") {
                let rel = p.strip_prefix(&root).unwrap_or(&p).with_extension("");
                let rel = rel.to_string_lossy().replace('\\', "/");
                if all || ci.contains(&rel.as_str()) {
                    tasks.push(p);
                }
            }
        }
    }
    tasks.sort();
    if !all {
        assert_eq!(tasks.len(), ci.len(), "every CI task is in the data");
    }
    let dir = scratch("cegar", "shared");
    let mut wrong = Vec::new();
    for t in &tasks {
        for engine in [Engine::Cegar, Engine::Kind] {
            let opts = VerifyOptions::from_params(engine, &Params::default()).expect("params");
            let a = verify(t, &opts, &Budget::with_timeout(Duration::from_secs(1)))
                .expect("verify")
                .to_json();
            let exp = a
                .pointer("/input/expected_verdict")
                .and_then(|v| v.as_bool());
            let verdict = a["verdict"].as_str().unwrap_or("");
            eprintln!("{}\t{engine:?}\t{verdict}\t{exp:?}", t.display());
            match (verdict, exp) {
                ("true", Some(false)) | ("false", Some(true)) => {
                    wrong.push(format!("{}: {engine:?} {verdict}", t.display()))
                }
                ("false", _) => {
                    let c = PathBuf::from(a["input"]["file"].as_str().expect("file"));
                    assert_eq!(
                        replay_with_gcc(&c, &nondet(&a), &dir.join("r")),
                        Replay::Reached,
                        "{}: {engine:?}",
                        t.display()
                    );
                }
                _ => {}
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(wrong.is_empty(), "wrong answers: {wrong:?}");
}
