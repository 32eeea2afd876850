#![cfg(feature = "dist")]
//! The distributed engine (timely-dataflow workers in this process) against the sequential one on
//! a CI subset of the shared BEEM models (`VERIKIT_EXPLICIT_ALL=1`: every instance up to a larger
//! bound):
//! * distributed generation on 1, 2 and 4 workers: state, transition, deadlock and
//!   evaluation-error counts equal to `bfs` (and to BEEM's published state count);
//! * distributed OWCTY on 2 and 4 workers on the `.prop<k>.dve` products: verdicts equal to nested
//!   DFS and to BEEM's; every lasso replays (`replay_property_lasso`);
//! * distributed deadlock and assertion searches on 2 and 3 workers: verdicts equal to `bfs`,
//!   traces rebuilt from the workers' parent ids as long as BFS's shortest ones, replayed
//!   (`replay_trace`); `--max-memory` stops the run on the sum of the workers' tables;
//! * `--ltl` formulas by distributed OWCTY: verdicts equal to the sequential `ltl_search`, lassos
//!   replay (`replay_automaton_lasso`).

use std::path::Path;
use std::time::Duration;
use verikit_diag::{Budget, Exhausted, Verdict};
use verikit_explicit::{
    bfs, check_dist, dist_explore, dist_safety, load_model, ltl_search, ltl_search_dist, parse_dve,
    property_search_dist, replay_trace, Check, Cluster, Goal, Model,
};

mod common;

fn max_states() -> u64 {
    if std::env::var_os("VERIKIT_EXPLICIT_ALL").is_some() {
        200_000
    } else {
        12_000
    }
}

/// The complete EXPECTED.tsv rows (`common::rows`) up to `max_states()` states.
fn rows(dir: &Path) -> Vec<(String, u64, String, Option<bool>)> {
    common::rows(dir)
        .into_iter()
        .filter(|r| r.1 <= max_states())
        .collect()
}

#[test]
fn distributed_counts_equal_sequential_on_1_2_4_workers() {
    let dir = verikit_testkit::require_data!("beem");
    let mut models: Vec<(String, u64)> = rows(&dir).into_iter().map(|r| (r.0, r.1)).collect();
    models.sort();
    models.dedup();
    let mut checked = 0;
    for (rel, beem_states) in &models {
        let text = std::fs::read_to_string(dir.join(rel)).unwrap();
        let m = load_model(&text).unwrap();
        let b = Budget::unlimited();
        let s = bfs(&m, Goal::Explore, &b);
        assert_eq!(s.states, *beem_states, "{rel}: sequential against BEEM");
        for workers in [1, 2, 4] {
            let d = dist_explore(&m, &Cluster::local(workers), &b).unwrap();
            assert!(d.stopped.is_none(), "{rel}");
            assert_eq!(
                (d.states, d.transitions, d.deadlocks, d.eval_errors),
                (s.states, s.transitions, s.deadlocks, s.eval_errors),
                "{rel} on {workers} timely workers"
            );
            assert_eq!(d.workers, workers);
            if workers == 1 {
                assert_eq!(d.bytes_sent, 0, "{rel}: one worker sends nothing");
            } else if s.states > 100 {
                assert!(d.records_sent > 0 && d.bytes_sent > d.records_sent, "{rel}");
            }
        }
        checked += 1;
    }
    eprintln!("{checked} instances");
    assert!(checked >= 10, "only {checked} instances checked");
}

#[test]
fn distributed_owcty_agrees_with_nested_dfs_and_lassos_replay() {
    let dir = verikit_testkit::require_data!("beem");
    // OWCTY's fixpoint is empty iff there is no accepting cycle.
    let on = |workers| {
        move |m: &Model, b: &Budget, no_cycle: bool| {
            let (r, s) = property_search_dist(m, &Cluster::local(workers), b).unwrap();
            (r, (s.remaining == Some(0)) == no_cycle)
        }
    };
    let (two, four) = (on(2), on(4));
    let (checked, replayed) = common::cycle_engines_agree(
        &dir,
        max_states(),
        &[("2 workers", &two), ("4 workers", &four)],
    );
    assert!(checked >= 8, "only {checked} properties checked");
    assert!(replayed >= 4, "only {replayed} lassos replayed");
}

#[test]
fn distributed_ltl_equals_sequential_and_lassos_replay() {
    let dir = verikit_testkit::require_data!("beem");
    let Some((src, m)) = common::model_at(&dir, "peterson/peterson.1.dve") else {
        return;
    };
    let ast = parse_dve(&src.text).unwrap();
    let b = Budget::with_timeout(Duration::from_secs(60));
    let formulas = [
        "G !(\"P_0.CS\" && \"P_1.CS\")",
        "G(\"P_0.wait\" -> F \"P_0.CS\")",
        "GF \"P_0.CS\"",
        "F G \"P_1.NCS\"",
        "G F \"P_0.NCS\" || F \"P_1.CS\"",
    ];
    let mut violated = 0;
    for f in formulas {
        let seq = ltl_search(&m, f, &[], &b).unwrap();
        let (run, s) = ltl_search_dist(&m, f, &[], &Cluster::local(3), &b).unwrap();
        assert!(run.search.stopped.is_none(), "{f}");
        assert_eq!(
            run.search.lasso.is_none(),
            seq.search.lasso.is_none(),
            "{f}"
        );
        assert_eq!(s.remaining == Some(0), seq.search.lasso.is_none(), "{f}");
        if common::replay_ltl(&m, &ast, &run)
            .unwrap_or_else(|e| panic!("{f}: lasso does not replay: {e}"))
        {
            violated += 1;
        }
    }
    assert!(violated >= 1, "no formula was violated");
    assert!(violated < formulas.len(), "every formula was violated");
}

#[test]
fn check_dist_answers_like_the_sequential_check() {
    let dir = verikit_testkit::require_data!("beem");
    let Some((src, m)) = common::model_at(&dir, "bakery/bakery.1.dve") else {
        return;
    };
    let b = Budget::unlimited();
    let seq = verikit_explicit::check(&m, &src, &Check::Deadlock, &b).unwrap();
    let d = check_dist(&m, &src, &Check::Deadlock, &Cluster::local(2), &b).unwrap();
    assert_eq!(d.verdict, seq.verdict);
    assert_eq!(d.verdict, Some(Verdict::False));
    assert!(d.witness.is_some(), "a deadlock answer has a trace");
    let j = d.to_json();
    // The search ends with the BFS level of the first deadlock, before all 1506 states.
    let states = j["stats"]["states"].as_u64().unwrap();
    assert!(states > 0 && states <= 1506, "{j}");
    assert_eq!(j["workers"], 2);
    assert!(j["stats"]["bytes_per_state"].as_f64().unwrap() > 0.0);
    assert_eq!(j["witness_by"], "distributed trace-back of parent ids");
    let steps = j["witness"]["trace"].as_array().unwrap().len();
    let seq_steps = seq.to_json()["witness"]["trace"].as_array().unwrap().len();
    assert_eq!(steps, seq_steps, "the distributed trace is a shortest one");
    let seq = verikit_explicit::check(&m, &src, &Check::Assert, &b).unwrap();
    let d = check_dist(&m, &src, &Check::Assert, &Cluster::local(2), &b).unwrap();
    assert_eq!(d.verdict, seq.verdict);
}

/// The distributed deadlock and assertion searches on 2 and 3 workers: the same verdicts as the
/// sequential BFS, a trace exactly as long as its (shortest) one, and every trace replays.
#[test]
fn distributed_safety_traces_are_shortest_and_replay() {
    let dir = verikit_testkit::require_data!("beem");
    let mut models: Vec<String> = rows(&dir).into_iter().map(|r| r.0).collect();
    models.sort();
    models.dedup();
    let (mut traces, mut asserts) = (0, 0);
    for rel in &models {
        let text = std::fs::read_to_string(dir.join(rel)).unwrap();
        let ast = parse_dve(&text).unwrap();
        if ast.synchronous {
            continue;
        }
        let m = load_model(&text).unwrap();
        let b = Budget::unlimited();
        for goal in [Goal::Deadlock, Goal::Assert] {
            let s = bfs(&m, goal, &b);
            for workers in [2, 3] {
                let d = dist_safety(&m, goal, &Cluster::local(workers), &b).unwrap();
                assert!(d.stopped.is_none(), "{rel}");
                let want = s.violation.as_ref().map(|v| v.trace.states.len());
                let got = (!d.trace.is_empty()).then_some(d.trace.len());
                assert_eq!(got, want, "{rel} {goal:?} on {workers} workers");
                if d.trace.is_empty() {
                    assert_eq!(d.states, s.states, "{rel} {goal:?}: the whole state space");
                    continue;
                }
                let states: Vec<_> = d.trace.iter().map(|s| m.decode(s)).collect();
                replay_trace(&ast, &states).unwrap_or_else(|e| {
                    panic!("{rel} {goal:?} on {workers} workers: trace does not replay: {e}")
                });
                traces += 1;
                asserts += usize::from(goal == Goal::Assert);
            }
        }
    }
    eprintln!("{traces} traces, {asserts} of assertions");
    assert!(traces >= 10, "only {traces} traces replayed");
}

/// No shared model violates an assertion: a grid whose assertion fails first at depth 7 and
/// whose only deadlock is at depth 10, on 2 and 3 workers.
#[test]
fn distributed_assertion_and_deadlock_traces_on_a_grid() {
    let text = "byte x = 0; byte y = 0;\n\
        process P { state a; init a; assert a: x + y < 7; trans a -> a { guard x < 5; effect x = x + 1; }; }\n\
        process Q { state a; init a; trans a -> a { guard y < 5; effect y = y + 1; }; }\n\
        system async;\n";
    let src = verikit_diag::SourceFile::new("grid.dve", text.to_string());
    let (ast, m) = (parse_dve(text).unwrap(), load_model(text).unwrap());
    let b = Budget::unlimited();
    for (goal, check, steps, word) in [
        (Goal::Assert, Check::Assert, 7, "assertion-violated"),
        (Goal::Deadlock, Check::Deadlock, 10, "deadlock"),
    ] {
        for workers in [2, 3] {
            let c = Cluster::local(workers);
            let d = dist_safety(&m, goal, &c, &b).unwrap();
            assert_eq!(d.trace.len(), steps + 1, "{goal:?} on {workers} workers");
            let states: Vec<_> = d.trace.iter().map(|s| m.decode(s)).collect();
            replay_trace(&ast, &states).unwrap();
            let j = check_dist(&m, &src, &check, &c, &b).unwrap().to_json();
            assert_eq!(j["verdict"], "false", "{j}");
            assert_eq!(j["result"], word, "{j}");
            assert_eq!(j["witness"]["trace"].as_array().unwrap().len(), steps + 1);
        }
    }
}

/// `--max-memory` bounds the run, not each worker: a limit above what any one worker stores but
/// below the sum stops the run (with the counts reached), which then reports the memory limit.
#[test]
fn distributed_memory_limit_is_the_runs_total() {
    let dir = verikit_testkit::require_data!("beem");
    let Some((_, m)) = common::model_at(&dir, "anderson/anderson.1.dve") else {
        return;
    };
    let c = Cluster::local(2);
    let full = dist_explore(&m, &c, &Budget::unlimited()).unwrap();
    assert!(full.stopped.is_none());
    let limit = (full.memory_bytes as usize) * 3 / 4;
    let b = Budget::unlimited().with_memory_limit(limit);
    let d = dist_explore(&m, &c, &b).unwrap();
    assert_eq!(d.stopped, Some(Exhausted::Memory), "{d:?}");
    assert!(d.states > 0 && d.states < full.states, "{d:?}");
    let tiny = Budget::unlimited().with_memory_limit(1 << 16);
    let d = dist_safety(&m, Goal::Deadlock, &c, &tiny).unwrap();
    assert_eq!(d.stopped, Some(Exhausted::Memory), "{d:?}");
}

#[test]
fn hostfile_is_validated() {
    assert!(Cluster::from_hostfile(1, 2, 0, "127.0.0.1:1\n").is_err());
    assert!(Cluster::from_hostfile(1, 2, 2, "127.0.0.1:1\n127.0.0.1:2\n").is_err());
    assert!(Cluster::from_hostfile(1, 1, 0, "nohostport\n").is_err());
    let c = Cluster::from_hostfile(2, 2, 1, "# hosts\n127.0.0.1:1\n\n127.0.0.1:2\nx:3\n").unwrap();
    assert_eq!(c.hosts, vec!["127.0.0.1:1", "127.0.0.1:2"]);
    assert_eq!((c.processes(), c.total_workers(), c.process), (2, 4, 1));
}

#[test]
fn hostfile_reader_is_total() {
    verikit_testkit::assert_parser_total(
        &["# cluster\n127.0.0.1:2101\nnode-b:2101\n\n[::1]:2102\n"],
        500,
        |t| Cluster::from_hostfile(2, 3, 1, t),
    );
}
