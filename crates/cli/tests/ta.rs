#![cfg(feature = "ta")]
//! `verikit ta` end to end: verdicts, JSON shape, witnesses, located errors, exit codes, timeout.

mod common;
use common::verikit;
use serde_json::Value;
use std::path::PathBuf;

const DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/ta/fischer2.tck");

/// `verikit --json ARGS`, which must exit 0: its JSON answer.
fn ok(args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let (code, v, err) = verikit(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    v
}

/// The first item of `verikit --json ta check MODEL -Q QUERY EXTRA…` (exit 0).
fn query(model: &str, q: &str, extra: &[&str]) -> Value {
    let mut args = vec!["ta", "check", model, "-Q", q];
    args.extend_from_slice(extra);
    ok(&args)["results"][0].clone()
}

/// `verikit --json --timeout 1 ARGS` must answer `timeout` (exit 3); the answer.
fn times_out(args: &[&str]) -> Value {
    let mut all = vec!["--json", "--timeout", "1"];
    all.extend_from_slice(args);
    let (code, v, err) = verikit(&all);
    assert_eq!(code, 3, "{args:?}: {err}");
    assert_eq!(v["verdict"], "timeout", "{v}");
    v
}

/// A fresh scratch directory for one test.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("verikit-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `text` to `dir/name` and returns the path as text.
fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let f = dir.join(name);
    std::fs::write(&f, text).unwrap();
    f.to_str().unwrap().to_string()
}

/// A shared-data model, or `None` (the test is skipped) when the data is not there.
fn shared(rel: &str) -> Option<String> {
    let p = verikit_testkit::shared_path(rel);
    if p.is_none() {
        eprintln!("skipped: shared data {rel} not found");
    }
    p.map(|p| p.to_string_lossy().into_owned())
}

const FISCHER10_TCK: &str = "ta/tchecker/ticktac-benchmarks/fischer/fischer_10_10_10.tck";

#[test]
fn mutual_exclusion_holds_and_single_entry_is_reachable() {
    let v = ok(&["ta", "reach", DEMO, "--labels", "cs1,cs2"]);
    assert_eq!(v["verdict"], "false");
    assert_eq!(v["result"], "unreachable");
    // TChecker's covreach/bfs on the same model stores 18 nodes
    assert_eq!(v["stats"]["stored"], 18);
    assert!(v["witness"].is_null());

    let v = ok(&["ta", "reach", DEMO, "-l", "cs1", "--search", "dfs"]);
    assert_eq!(v["verdict"], "true");
    assert_eq!(v["result"], "reachable");
    let timed = v["witness"]["timed"].as_array().expect("timed trace");
    let symbolic = v["witness"]["symbolic"].as_array().expect("symbolic trace");
    assert_eq!(timed.len() + 1, symbolic.len());
    let last = symbolic.last().unwrap();
    assert!(last["locations"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l == "P1.cs"));
    // entering cs needs x1 > 10 after the last reset: some delay is positive
    assert!(timed.iter().any(|s| s["delay"] != "0"));
}

#[test]
fn every_algorithm_and_extrapolation_agrees() {
    for algo in ["reach", "covreach", "alu-covreach"] {
        for ex in ["extraLU+l", "extraLU+g", "extraM", "extraM+l"] {
            let v = ok(&[
                "ta",
                "reach",
                DEMO,
                "--labels",
                "cs1,cs2",
                "--algo",
                algo,
                "--extrapolation",
                ex,
            ]);
            assert_eq!(v["verdict"], "false", "{algo} {ex}");
        }
    }
}

#[test]
fn bad_input_is_located() {
    let dir = scratch("ta");
    let f = write(
        &dir,
        "bad.tck",
        "system:s\nevent:a\nprocess:P\nlocation:P:l0{initial:}\nedge:P:l0:l1:a\n",
    );
    let (code, _, err) = verikit(&["ta", "reach", &f]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.tck:5:11"), "{err}");
    assert!(err.contains("undeclared location"), "{err}");
    let (code, _, err) = verikit(&["ta", "reach", DEMO, "--labels", "nosuch"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unknown label"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_hard_model_times_out() {
    let Some(m) = shared(FISCHER10_TCK) else {
        return;
    };
    let v = times_out(&["ta", "reach", &m, "--labels", "cs1,cs2"]);
    assert!(v["stats"]["visited"].as_u64().unwrap_or(0) > 0, "{v}");
}

const DEMO_XML: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/ta/fischer2.xml");

#[test]
fn uppaal_queries_are_answered_one_by_one() {
    let v = ok(&["ta", "check", DEMO_XML]);
    assert_eq!(v["verdict"], "true");
    let r = v["results"].as_array().unwrap();
    assert_eq!(r.len(), 2);
    assert_eq!(r[0]["result"], "satisfied");
    assert_eq!(r[1]["result"], "satisfied");
    // E<> with a trace to the state found
    assert!(!r[1]["witness"]["timed"].as_array().unwrap().is_empty());
    let v = ok(&["ta", "check", DEMO_XML, "-Q", "A[] not P(1).cs"]);
    assert_eq!(v["verdict"], "false");
    assert_eq!(v["results"][0]["result"], "not satisfied");
    assert!(v["results"][0]["witness"]["timed"].is_array());
}

#[test]
fn bad_queries_and_models_are_located() {
    let (_, v, _) = verikit(&["--json", "ta", "check", DEMO_XML, "-Q", "E<> P(1).nowhere"]);
    assert_eq!(v["results"][0]["verdict"], "error");
    assert!(
        v["results"][0]["error"]
            .as_str()
            .unwrap()
            .contains("<query>:1:"),
        "{v}"
    );
    let dir = scratch("ta-uppaal");
    let text = std::fs::read_to_string(DEMO_XML)
        .unwrap()
        .replace("int[0,N] id = 0;", "double id = 0;");
    let bad = write(&dir, "bad.xml", &text);
    let (code, _, err) = verikit(&["ta", "check", &bad]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.xml:7:1"), "{err}");
}

/// A refused query (a parse error, or a construct the search refuses by name) makes the batch
/// exit 2 with its located error on stderr, after the other queries are answered and printed.
#[test]
fn a_refused_query_exits_2_after_the_others_are_answered() {
    let dir = scratch("ta-refused");
    let q = write(
        &dir,
        "mixed.q",
        "E<> P(1).cs\nE<> P(1).nowhere\nE[] deadlock\nA[] not P(1).cs\n",
    );
    let (code, v, err) = verikit(&["--json", "ta", "check", DEMO_XML, &q]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(v["verdict"], "error", "{v}");
    assert_eq!(v["refused"], 2, "{v}");
    let r = v["results"].as_array().unwrap();
    assert_eq!(r.len(), 4, "{v}");
    assert_eq!(r[0]["result"], "satisfied", "{v}");
    assert_eq!(r[1]["verdict"], "error", "{v}");
    assert_eq!(r[2]["verdict"], "error", "{v}");
    assert_eq!(r[3]["result"], "not satisfied", "{v}");
    // both refusals located in the query file, each with its caret
    assert!(err.contains("mixed.q:2:"), "{err}");
    assert!(err.contains("mixed.q:3:5"), "{err}");
    assert!(err.contains("deadlock"), "{err}");
    assert!(err.contains('^'), "{err}");
    // in text mode too: the answered queries are printed, the exit code is 2
    let (code, _, out, err) = common::run(&["ta", "check", DEMO_XML, &q]);
    assert_eq!(code, 2, "{err}");
    assert!(out.contains("not satisfied"), "{out}");
    // all answered: exit 0 even when one is not satisfied
    let q = write(&dir, "fine.q", "E<> P(1).cs\nA[] not P(1).cs\n");
    let (code, v, err) = verikit(&["--json", "ta", "check", DEMO_XML, &q]);
    assert_eq!((code, v["verdict"].as_str()), (0, Some("false")), "{err}");
}

#[test]
fn a_hard_uppaal_model_times_out() {
    let Some(m) = shared("ta/uppaal/ticktac-benchmarks/fischer/fischer_10_10_10.xml") else {
        return;
    };
    times_out(&["ta", "check", &m]);
}

#[test]
fn deadlock_and_clock_constraints_in_queries() {
    let v = ok(&["ta", "check", DEMO_XML, "-Q", "A[] not deadlock"]);
    assert_eq!(v["verdict"], "true", "{v}");
    assert_eq!(v["results"][0]["result"], "satisfied");
    // the LU search found no deadlocked valuation: its answer stands (decision 0612)
    assert_eq!(v["results"][0]["extrapolation"], "extraLU+l");
    let r = query(
        DEMO_XML,
        "A[] not deadlock",
        &["--extrapolation", "extraM+l"],
    );
    assert_eq!(r["result"], "satisfied", "{r}");
    assert_eq!(r["extrapolation"], "extraM+l");
    let r = query(DEMO_XML, "E<> P(1).wait && P(1).x > 2", &[]);
    assert_eq!(r["result"], "satisfied", "{r}");
    assert!(r["witness"]["timed"].is_array());
    let r = query(DEMO_XML, "E<> P(1).req && P(1).x > 2", &["--search", "dfs"]);
    assert_eq!(r["result"], "not satisfied", "{r}");
    assert_eq!(r["search"], "dfs");
    // the search options reach plain queries unchanged
    let r = query(
        DEMO_XML,
        "E<> P(1).cs",
        &["--algo", "alu-covreach", "--extrapolation", "extraLU+g"],
    );
    assert_eq!(r["result"], "satisfied", "{r}");
    assert_eq!(r["algo"], "alu-covreach");
    assert_eq!(r["extrapolation"], "extraLU+g");
}

const DEMO_TCK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/ta/fischer2.tck");

#[test]
fn buchi_liveness_with_a_lasso() {
    let v = ok(&["ta", "liveness", DEMO_TCK, "-l", "cs1"]);
    assert_eq!(v["verdict"], "true", "{v}");
    assert_eq!(v["result"], "accepting cycle");
    assert!(v["lasso_cycle"].as_u64().unwrap() > 0, "{v}");
    assert!(!v["witness"]["timed"].as_array().unwrap().is_empty());
    assert_eq!(v["search"], "couvreur-scc", "{v}");
    // both processes in cs at once never happens, so never infinitely often
    let v = ok(&["ta", "liveness", DEMO_TCK, "-l", "cs1,cs2"]);
    assert_eq!(v["verdict"], "false", "{v}");
    let (code, _, err) = verikit(&["ta", "liveness", DEMO_TCK]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("accepting labels"), "{err}");
}

#[test]
fn uppaal_liveness_queries() {
    // P(1) may stay in `idle` forever (no invariant): A<> fails, with a witness
    let r = query(DEMO_XML, "A<> P(1).cs", &[]);
    assert_eq!(r["result"], "not satisfied", "{r}");
    assert!(r["witness"]["timed"].is_array(), "{r}");
    assert_eq!(r["search"], "lasso-dfs", "{r}");
    // req has an invariant and one way out
    let r = query(DEMO_XML, "P(1).req --> P(1).wait", &[]);
    assert_eq!(r["result"], "satisfied", "{r}");
    assert_eq!(r["search"], "bfs+lasso-dfs", "{r}");
    let r = query(DEMO_XML, "E[] not P(1).cs", &[]);
    assert_eq!(r["result"], "satisfied", "{r}");
}

/// No run visits cs1 and cs2 together (mutual exclusion), so the whole zone graph must be built:
/// 1 s is not enough for ten processes. (A label with a cycle may be answered `true` within the
/// second: a lasso in the explored part is real.)
#[test]
fn a_hard_liveness_check_times_out() {
    let Some(m) = shared(FISCHER10_TCK) else {
        return;
    };
    times_out(&["ta", "liveness", &m, "-l", "cs1,cs2"]);
}

const DEMO_CTA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/ta/urgent.cta");
const DEMO_FIFO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/ta/fifo.cta");

#[test]
fn communicating_timed_automata() {
    let v = ok(&["ta", "cta", DEMO_CTA, "--labels", "err,sent"]);
    assert_eq!(v["verdict"], "false", "{v}");
    assert_eq!(v["topology"], "one channel (A1, A2, c1,2)", "{v}");
    assert_eq!(v["stats"]["max_channel_length"], 1, "{v}");
    let v = ok(&["ta", "cta", DEMO_CTA, "--labels", "ok"]);
    assert_eq!(v["verdict"], "true", "{v}");
    assert_eq!(v["witness"]["replayed"], true, "{v}");
    let steps = v["witness"]["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2, "{v}");
    // the chain of Krčál–Yi Fig. 2 is refused by name, located at its first channel
    let dir = scratch("cta");
    let f = write(
        &dir,
        "chain.cta",
        "system:s\nprocess:A\nprocess:B\nprocess:C\nchannel:c:A:B\nchannel:d:B:C\n\
         location:A:l{initial:}\nlocation:B:l{initial:}\nlocation:C:l{initial:}\n",
    );
    let (code, _, err) = verikit(&["ta", "cta", &f]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("chain.cta:5:1"), "{err}");
    assert!(
        err.contains("undecidable") && err.contains("Theorem 2"),
        "{err}"
    );
    // `ta cta FILE --labels n` with channel words of at most 3 letters
    let bound3 = |f: &str| {
        ok(&[
            "-x",
            "ta.cta-channel-bound=3",
            "ta",
            "cta",
            f,
            "--labels",
            "n",
        ])
    };
    // an unbounded channel: cut at the bound set by -x, then decided `false` on the summarised
    // channels (B never moves)
    let g = write(
        &dir,
        "producer.cta",
        "system:s\nprocess:A\nprocess:B\nclock:A:x\nchannel:c:A:B\nlocation:A:p{initial:}\n\
         location:B:q{initial:}\nlocation:B:n{labels: n}\nedge:A:p:p:c!a{provided: x==1 : do: x=0}\n",
    );
    let v = bound3(&g);
    assert_eq!(v["verdict"], "false", "{v}");
    assert_eq!(v["stats"]["max_channel_length"], 3, "{v}");
    assert!(
        v["certificate"]
            .as_str()
            .unwrap()
            .contains("first 1 letter"),
        "{v}"
    );
    // A sends four letters before time 1, B reads them all after time 10: reachable, with four
    // letters queued — beyond the bound, and the summarised channels cannot rule it out; the
    // one-counter procedure of Krčál–Yi §3 (closed guards, no urgent reading to respect) decides
    // it, and its witness replays
    let late = write(
        &dir,
        "late.cta",
        "system:s\nprocess:A\nprocess:B\nclock:A:x\nclock:B:y\nchannel:c:A:B\n\
         location:A:p0{initial:}\nlocation:A:p1\nlocation:A:p2\nlocation:A:p3\nlocation:A:p4\n\
         location:B:q0{initial:}\nlocation:B:q1\nlocation:B:q2\nlocation:B:q3\nlocation:B:n{labels: n}\n\
         edge:A:p0:p1:c!a{provided: x<=1}\nedge:A:p1:p2:c!a{provided: x<=1}\n\
         edge:A:p2:p3:c!a{provided: x<=1}\nedge:A:p3:p4:c!a{provided: x<=1}\n\
         edge:B:q0:q1:c?a{provided: y>=10}\nedge:B:q1:q2:c?a\nedge:B:q2:q3:c?a\nedge:B:q3:n:c?a\n",
    );
    let v = bound3(&late);
    assert_eq!(v["verdict"], "true", "{v}");
    assert!(
        v["procedure"].as_str().unwrap().contains("one-counter"),
        "{v}"
    );
    assert_eq!(v["witness"]["replayed"], true, "{v}");
    assert_eq!(v["witness"]["steps"].as_array().unwrap().len(), 8, "{v}");
    // with a strict guard the procedure does not apply and says why: `unknown`
    let strict = std::fs::read_to_string(&late)
        .unwrap()
        .replace("y>=10", "y>10");
    let late_strict = write(&dir, "late_strict.cta", &strict);
    let v = bound3(&late_strict);
    assert_eq!(v["verdict"], "unknown", "{v}");
    assert!(
        v["one_counter"].as_str().unwrap().contains("strict guard"),
        "{v}"
    );
    // the demo of an unbounded channel that only counting decides
    let v = ok(&["ta", "cta", DEMO_FIFO, "--labels", "twice"]);
    assert_eq!(v["verdict"], "false", "{v}");
    // a channel of two letters chosen freely every instant: too many contents for one second
    let h = write(
        &dir,
        "hard.cta",
        "system:s\nprocess:A\nprocess:B\nclock:A:x\nchannel:c:A:B\nlocation:A:p{initial:}\n\
         location:B:q{initial:}\nlocation:B:n{labels: n}\nedge:A:p:p:c!a{provided: x<=1}\n\
         edge:A:p:p:c!b{provided: x<=1}\n",
    );
    times_out(&[
        "-x",
        "ta.cta-channel-bound=40",
        "ta",
        "cta",
        &h,
        "--labels",
        "n",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn search_options_from_tuning_parameters() {
    for x in [
        "ta.order=dfs",
        "ta.covering=none",
        "ta.extrapolation=extraM",
    ] {
        let v = ok(&["-x", x, "ta", "reach", DEMO, "--labels", "cs1"]);
        assert_eq!(v["verdict"], "true", "{x}: {v}");
    }
    let (code, _, err) = verikit(&["-x", "ta.order=sideways", "ta", "reach", DEMO]);
    assert_eq!(code, 2, "{err}");
}

const DEMO_NETA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/ta/frozen.neta");

#[test]
fn nested_timed_automata() {
    let v = ok(&["ta", "neta", DEMO_NETA, "--labels", "frozen_ok"]);
    assert_eq!(v["verdict"], "true", "{v}");
    assert_eq!(v["witness"]["replayed"], true, "{v}");
    assert_eq!(
        v["witness"]["rules"].as_array().map(Vec::len),
        Some(5),
        "{v}"
    );
    let v = ok(&[
        "-x",
        "ta.neta-stack-bound=0",
        "ta",
        "neta",
        DEMO_NETA,
        "--labels",
        "frozen_ok",
    ]);
    assert_eq!(v["verdict"], "unknown", "{v}");
    assert_eq!(v["procedure"], "bounded search", "{v}");
    // without global clocks the summaries decide unbounded recursion exactly
    let deep = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/ta/deep.neta");
    let v = ok(&["ta", "neta", deep, "--labels", "never"]);
    assert_eq!(v["verdict"], "false", "{v}");
    assert_eq!(v["procedure"], "summaries", "{v}");
    assert!(v["certificate"]["returns"].is_array(), "{v}");
    assert_eq!(v["certificate_checked"], true, "{v}");
    let v = ok(&["ta", "neta", deep, "--labels", "bottom"]);
    assert_eq!(v["verdict"], "true", "{v}");
    assert_eq!(v["witness"]["replayed"], true, "{v}");
    let dir = scratch("neta");
    let f = write(
        &dir,
        "bad.neta",
        "system:s\nautomaton:A\nlocation:A:q{initial:}\nedge:A:q:A:q{do: y=0}\n",
    );
    let (code, _, err) = verikit(&["ta", "neta", &f]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.neta:4:18"), "{err}");
    // unbounded recursion through push and F-push: decided by the summaries, the certificate
    // re-checked on regions
    let rec = "system:s\nclock:x\nclock:y\nautomaton:A\nlocation:A:q{initial:}\nlocation:A:n{labels: n}\n\
         edge:A:q:A:q{provided: x>=1 : do: push}\nedge:A:q:A:q{provided: y>=2 : do: fpush}\n";
    let f = write(&dir, "rec.neta", rec);
    let v = ok(&["ta", "neta", &f, "--labels", "n"]);
    assert_eq!(v["verdict"], "false", "{v}");
    assert_eq!(v["procedure"], "summaries", "{v}");
    assert_eq!(v["certificate_checked"], true, "{v}");
    // with a global clock only the bounded search applies: with a deep bound, more
    // configurations than one second allows
    let g = write(
        &dir,
        "deep.neta",
        &rec.replace("clock:y\n", "clock:y\nglobal:g\n"),
    );
    times_out(&[
        "-x",
        "ta.neta-stack-bound=1000",
        "ta",
        "neta",
        &g,
        "--labels",
        "n",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn convert_to_tchecker_and_dot() {
    let v = ok(&["ta", "convert", DEMO_XML, "--to", "tck"]);
    let tck = v["output"].as_str().unwrap();
    assert!(tck.contains("process:P_1_"), "{tck}");
    assert!(tck.contains("clock:1:P_1__x"), "{tck}");
    // the converted text is a model `ta reach` reads: P(1) and P(2) never both in cs
    let dir = scratch("ta-convert");
    let f = write(&dir, "fischer2.tck", tck);
    let (code, v, err) = verikit(&["--json", "ta", "info", &f]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["processes"], 2, "{v}");
    let (code, _, err) = verikit(&["ta", "convert", DEMO_XML, "--to", "dot"]);
    assert_eq!(code, 0, "{err}");
    // a function is refused by name, located (exit 2)
    let text = std::fs::read_to_string(DEMO_XML).unwrap().replace(
        "int[0,N] id = 0;",
        "int[0,N] id = 0;\nint one() { return 1; }",
    );
    let text = text.replace("id := pid</label>", "id := one()</label>");
    let bad = write(&dir, "fn.xml", &text);
    let (code, _, err) = verikit(&["ta", "convert", &bad, "--to", "tck"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("fn.xml:") && err.contains("function `one`"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn info_reports_non_zenoness() {
    // fischer: the loop req → wait → req resets x but never waits for it to reach 1
    for m in [DEMO_XML, DEMO] {
        let v = ok(&["ta", "info", m]);
        assert_eq!(v["non_zeno"], "not established", "{v}");
    }
}
