#![cfg(feature = "ta")]
//! `verikit ta` end to end: verdicts, JSON shape, witnesses, located errors, exit codes, timeout.

mod common;
use common::verikit;

const DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/ta/fischer2.tck");

#[test]
fn mutual_exclusion_holds_and_single_entry_is_reachable() {
    let (code, v, err) = verikit(&["--json", "ta", "reach", DEMO, "--labels", "cs1,cs2"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["verdict"], "false");
    assert_eq!(v["result"], "unreachable");
    // TChecker's covreach/bfs on the same model stores 18 nodes
    assert_eq!(v["stats"]["stored"], 18);
    assert!(v["witness"].is_null());

    let (code, v, err) = verikit(&[
        "--json", "ta", "reach", DEMO, "-l", "cs1", "--search", "dfs",
    ]);
    assert_eq!(code, 0, "{err}");
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
        for ex in ["extraLU+l", "extraLU+g", "extraM"] {
            let (code, v, err) = verikit(&[
                "--json",
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
            assert_eq!(code, 0, "{algo} {ex}: {err}");
            assert_eq!(v["verdict"], "false", "{algo} {ex}");
        }
    }
}

#[test]
fn bad_input_is_located() {
    let dir = std::env::temp_dir().join(format!("verikit-ta-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.tck");
    std::fs::write(
        &f,
        "system:s\nevent:a\nprocess:P\nlocation:P:l0{initial:}\nedge:P:l0:l1:a\n",
    )
    .unwrap();
    let (code, _, err) = verikit(&["ta", "reach", f.to_str().unwrap()]);
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
    let Some(m) =
        verikit_testkit::shared_path("ta/tchecker/ticktac-benchmarks/fischer/fischer_10_10_10.tck")
    else {
        return;
    };
    let (code, v, err) = verikit(&[
        "--json",
        "--timeout",
        "1",
        "ta",
        "reach",
        m.to_str().unwrap(),
        "--labels",
        "cs1,cs2",
    ]);
    assert_eq!(code, 3, "{err}");
    assert_eq!(v["verdict"], "timeout");
    assert!(v["stats"]["visited"].as_u64().unwrap_or(0) > 0, "{v}");
}

const DEMO_XML: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/ta/fischer2.xml");

#[test]
fn uppaal_queries_are_answered_one_by_one() {
    let (code, v, err) = verikit(&["--json", "ta", "check", DEMO_XML]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["verdict"], "true");
    let r = v["results"].as_array().unwrap();
    assert_eq!(r.len(), 2);
    assert_eq!(r[0]["result"], "satisfied");
    assert_eq!(r[1]["result"], "satisfied");
    // E<> with a trace to the state found
    assert!(!r[1]["witness"]["timed"].as_array().unwrap().is_empty());
    let (code, v, err) = verikit(&["--json", "ta", "check", DEMO_XML, "-Q", "A[] not P(1).cs"]);
    assert_eq!(code, 0, "{err}");
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
    let dir = std::env::temp_dir().join(format!("verikit-ta-uppaal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.xml");
    let text = std::fs::read_to_string(DEMO_XML)
        .unwrap()
        .replace("int[0,N] id = 0;", "double id = 0;");
    std::fs::write(&bad, text).unwrap();
    let (code, _, err) = verikit(&["ta", "check", bad.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.xml:7:1"), "{err}");
}

#[test]
fn a_hard_uppaal_model_times_out() {
    let Some(m) =
        verikit_testkit::shared_path("ta/uppaal/ticktac-benchmarks/fischer/fischer_10_10_10.xml")
    else {
        return;
    };
    let (code, v, err) = verikit(&[
        "--json",
        "--timeout",
        "1",
        "ta",
        "check",
        m.to_str().unwrap(),
    ]);
    assert_eq!(code, 3, "{err}");
    assert_eq!(v["verdict"], "timeout");
}

#[test]
fn deadlock_and_clock_constraints_in_queries() {
    let (code, v, err) = verikit(&["--json", "ta", "check", DEMO_XML, "-Q", "A[] not deadlock"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["verdict"], "true", "{v}");
    assert_eq!(v["results"][0]["result"], "satisfied");
    assert_eq!(v["results"][0]["extrapolation"], "extraM");
    let (code, v, err) = verikit(&[
        "--json",
        "ta",
        "check",
        DEMO_XML,
        "-Q",
        "E<> P(1).wait && P(1).x > 2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["results"][0]["result"], "satisfied", "{v}");
    assert!(v["results"][0]["witness"]["timed"].is_array());
    let (code, v, err) = verikit(&[
        "--json",
        "ta",
        "check",
        DEMO_XML,
        "-Q",
        "E<> P(1).req && P(1).x > 2",
        "--search",
        "dfs",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["results"][0]["result"], "not satisfied", "{v}");
    assert_eq!(v["results"][0]["search"], "dfs");
    // the search options reach plain queries unchanged
    let (code, v, err) = verikit(&[
        "--json",
        "ta",
        "check",
        DEMO_XML,
        "-Q",
        "E<> P(1).cs",
        "--algo",
        "alu-covreach",
        "--extrapolation",
        "extraLU+g",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["results"][0]["result"], "satisfied", "{v}");
    assert_eq!(v["results"][0]["algo"], "alu-covreach");
    assert_eq!(v["results"][0]["extrapolation"], "extraLU+g");
}

const DEMO_TCK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/ta/fischer2.tck");

#[test]
fn buchi_liveness_with_a_lasso() {
    let (code, v, err) = verikit(&["--json", "ta", "liveness", DEMO_TCK, "-l", "cs1"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["verdict"], "true", "{v}");
    assert_eq!(v["result"], "accepting cycle");
    assert!(v["lasso_cycle"].as_u64().unwrap() > 0, "{v}");
    assert!(!v["witness"]["timed"].as_array().unwrap().is_empty());
    // both processes in cs at once never happens, so never infinitely often
    let (code, v, err) = verikit(&["--json", "ta", "liveness", DEMO_TCK, "-l", "cs1,cs2"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["verdict"], "false", "{v}");
    let (code, _, err) = verikit(&["ta", "liveness", DEMO_TCK]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("accepting labels"), "{err}");
}

#[test]
fn uppaal_liveness_queries() {
    // P(1) may stay in `idle` forever (no invariant): A<> fails, with a witness
    let (code, v, err) = verikit(&["--json", "ta", "check", DEMO_XML, "-Q", "A<> P(1).cs"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["results"][0]["result"], "not satisfied", "{v}");
    assert!(v["results"][0]["witness"]["timed"].is_array(), "{v}");
    // req has an invariant and one way out
    let (code, v, err) = verikit(&[
        "--json",
        "ta",
        "check",
        DEMO_XML,
        "-Q",
        "P(1).req --> P(1).wait",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["results"][0]["result"], "satisfied", "{v}");
    let (code, v, err) = verikit(&["--json", "ta", "check", DEMO_XML, "-Q", "E[] not P(1).cs"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["results"][0]["result"], "satisfied", "{v}");
}

/// No run visits cs1 and cs2 together (mutual exclusion), so the whole zone graph must be built:
/// 1 s is not enough for ten processes. (A label with a cycle may be answered `true` within the
/// second: a lasso in the explored part is real.)
#[test]
fn a_hard_liveness_check_times_out() {
    let Some(m) =
        verikit_testkit::shared_path("ta/tchecker/ticktac-benchmarks/fischer/fischer_10_10_10.tck")
    else {
        return;
    };
    let (code, v, err) = verikit(&[
        "--json",
        "--timeout",
        "1",
        "ta",
        "liveness",
        m.to_str().unwrap(),
        "-l",
        "cs1,cs2",
    ]);
    assert_eq!(code, 3, "{err}");
    assert_eq!(v["verdict"], "timeout");
}

const DEMO_CTA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/ta/urgent.cta");

#[test]
fn communicating_timed_automata() {
    let (code, v, err) = verikit(&["--json", "ta", "cta", DEMO_CTA, "--labels", "err,sent"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["verdict"], "false", "{v}");
    assert_eq!(v["topology"], "one channel (A1, A2, c1,2)", "{v}");
    assert_eq!(v["stats"]["max_channel_length"], 1, "{v}");
    let (code, v, err) = verikit(&["--json", "ta", "cta", DEMO_CTA, "--labels", "ok"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["verdict"], "true", "{v}");
    assert_eq!(v["witness"]["replayed"], true, "{v}");
    let steps = v["witness"]["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2, "{v}");
    // the chain of Krčál–Yi Fig. 2 is refused by name, located at its first channel
    let dir = std::env::temp_dir().join(format!("verikit-cta-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("chain.cta");
    std::fs::write(
        &f,
        "system:s\nprocess:A\nprocess:B\nprocess:C\nchannel:c:A:B\nchannel:d:B:C\n\
         location:A:l{initial:}\nlocation:B:l{initial:}\nlocation:C:l{initial:}\n",
    )
    .unwrap();
    let (code, _, err) = verikit(&["ta", "cta", f.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("chain.cta:5:1"), "{err}");
    assert!(
        err.contains("undecidable") && err.contains("Theorem 2"),
        "{err}"
    );
    // an unbounded channel: unknown at the bound set by -x
    let g = dir.join("producer.cta");
    std::fs::write(
        &g,
        "system:s\nprocess:A\nprocess:B\nclock:A:x\nchannel:c:A:B\nlocation:A:p{initial:}\n\
         location:B:q{initial:}\nlocation:B:n{labels: n}\nedge:A:p:p:c!a{provided: x==1 : do: x=0}\n",
    )
    .unwrap();
    let (code, v, err) = verikit(&[
        "--json",
        "-x",
        "ta.cta-channel-bound=3",
        "ta",
        "cta",
        g.to_str().unwrap(),
        "--labels",
        "n",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["verdict"], "unknown", "{v}");
    assert_eq!(v["stats"]["max_channel_length"], 3, "{v}");
    // a channel of two letters chosen freely every instant: too many contents for one second
    let h = dir.join("hard.cta");
    std::fs::write(
        &h,
        "system:s\nprocess:A\nprocess:B\nclock:A:x\nchannel:c:A:B\nlocation:A:p{initial:}\n\
         location:B:q{initial:}\nlocation:B:n{labels: n}\nedge:A:p:p:c!a{provided: x<=1}\n\
         edge:A:p:p:c!b{provided: x<=1}\n",
    )
    .unwrap();
    let (code, v, err) = verikit(&[
        "--json",
        "--timeout",
        "1",
        "-x",
        "ta.cta-channel-bound=40",
        "ta",
        "cta",
        h.to_str().unwrap(),
        "--labels",
        "n",
    ]);
    assert_eq!(code, 3, "{err}");
    assert_eq!(v["verdict"], "timeout", "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn search_options_from_tuning_parameters() {
    for x in [
        "ta.order=dfs",
        "ta.covering=none",
        "ta.extrapolation=extraM",
    ] {
        let (code, v, err) = verikit(&["--json", "-x", x, "ta", "reach", DEMO, "--labels", "cs1"]);
        assert_eq!(code, 0, "{x}: {err}");
        assert_eq!(v["verdict"], "true", "{x}: {v}");
    }
    let (code, _, err) = verikit(&["-x", "ta.order=sideways", "ta", "reach", DEMO]);
    assert_eq!(code, 2, "{err}");
}

const DEMO_NETA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/ta/frozen.neta");

#[test]
fn nested_timed_automata() {
    let (code, v, err) = verikit(&["--json", "ta", "neta", DEMO_NETA, "--labels", "frozen_ok"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["verdict"], "true", "{v}");
    assert_eq!(v["witness"]["replayed"], true, "{v}");
    assert_eq!(
        v["witness"]["rules"].as_array().map(Vec::len),
        Some(5),
        "{v}"
    );
    let (code, v, err) = verikit(&[
        "--json",
        "-x",
        "ta.neta-stack-bound=0",
        "ta",
        "neta",
        DEMO_NETA,
        "--labels",
        "frozen_ok",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["verdict"], "unknown", "{v}");
    let dir = std::env::temp_dir().join(format!("verikit-neta-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.neta");
    std::fs::write(
        &f,
        "system:s\nautomaton:A\nlocation:A:q{initial:}\nedge:A:q:A:q{do: y=0}\n",
    )
    .unwrap();
    let (code, _, err) = verikit(&["ta", "neta", f.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.neta:4:18"), "{err}");
    // unbounded recursion with a deep bound: more configurations than one second allows
    let g = dir.join("deep.neta");
    std::fs::write(
        &g,
        "system:s\nclock:x\nclock:y\nautomaton:A\nlocation:A:q{initial:}\nlocation:A:n{labels: n}\n\
         edge:A:q:A:q{provided: x>=1 : do: push}\nedge:A:q:A:q{provided: y>=2 : do: fpush}\n",
    )
    .unwrap();
    let (code, v, err) = verikit(&[
        "--json",
        "--timeout",
        "1",
        "-x",
        "ta.neta-stack-bound=1000",
        "ta",
        "neta",
        g.to_str().unwrap(),
        "--labels",
        "n",
    ]);
    assert_eq!(code, 3, "{err}");
    assert_eq!(v["verdict"], "timeout", "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}
