//! The multi-core engines against the sequential ones on a CI subset of the shared BEEM models
//! (every instance up to `MAX_STATES` states; `VERIKIT_EXPLICIT_ALL=1` raises the bound):
//! * `parallel_reach` on 2 and 3 workers: state, transition and deadlock counts equal to `bfs`;
//!   the deadlock and assertion verdicts equal, every trace replays (`replay_trace`);
//! * OWCTY and MAP on 2 workers, on the `.prop<k>.dve` products: verdicts equal to nested DFS and
//!   to BEEM's; every lasso replays (`replay_property_lasso`).

use std::path::{Path, PathBuf};
use verikit_diag::Budget;
use verikit_explicit::{
    bfs, check_with, load_model, parallel_reach, parse_dve, property_search_with, replay_trace,
    Check, CycleAlgo, Engine, Goal, McOptions, Model, StoreKind,
};

mod common;
use common::rows;

fn max_states() -> u64 {
    if std::env::var_os("VERIKIT_EXPLICIT_ALL").is_some() {
        2_000_000
    } else {
        30_000
    }
}

fn models(dir: &Path) -> Vec<(PathBuf, u64)> {
    let mut v: Vec<(PathBuf, u64)> = rows(dir)
        .into_iter()
        .filter(|r| r.1 <= max_states())
        .map(|r| (dir.join(r.0), r.1))
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn parallel_counts_equal_sequential() {
    let dir = verikit_testkit::require_data!("beem");
    let mut checked = 0;
    for (p, _) in models(&dir) {
        let text = std::fs::read_to_string(&p).unwrap();
        let m = load_model(&text).unwrap();
        let b = Budget::unlimited();
        let s = bfs(&m, Goal::Explore, &b);
        for threads in [2, 3] {
            let r = parallel_reach(&m, Goal::Explore, threads, StoreKind::Hash, &b);
            assert!(r.complete, "{}", p.display());
            assert_eq!(
                (r.states, r.transitions, r.deadlocks, r.eval_errors),
                (s.states, s.transitions, s.deadlocks, s.eval_errors),
                "{} on {threads} workers",
                p.display()
            );
        }
        checked += 1;
    }
    eprintln!("{checked} instances");
    assert!(checked >= 20, "only {checked} instances checked");
}

#[test]
fn parallel_verdicts_equal_sequential_and_traces_replay() {
    let dir = verikit_testkit::require_data!("beem");
    let mut traces = 0;
    for (p, _) in models(&dir) {
        let text = std::fs::read_to_string(&p).unwrap();
        let m = load_model(&text).unwrap();
        let ast = parse_dve(&text).unwrap();
        if ast.synchronous {
            continue;
        }
        let b = Budget::unlimited();
        for goal in [Goal::Deadlock, Goal::Assert] {
            let s = bfs(&m, goal, &b);
            let r = parallel_reach(&m, goal, 2, StoreKind::Hash, &b);
            assert_eq!(
                r.violation
                    .as_ref()
                    .map(|v| std::mem::discriminant(&v.kind)),
                s.violation
                    .as_ref()
                    .map(|v| std::mem::discriminant(&v.kind)),
                "{} {goal:?}",
                p.display()
            );
            if let Some(v) = &r.violation {
                let states: Vec<_> = v.trace.states.iter().map(|s| m.decode(s)).collect();
                replay_trace(&ast, &states).unwrap_or_else(|e| {
                    panic!("{} {goal:?}: trace does not replay: {e}", p.display())
                });
                assert!(v.trace.labels.len() + 1 == v.trace.states.len());
                traces += 1;
            }
        }
    }
    assert!(traces >= 10, "only {traces} traces replayed");
}

#[test]
fn owcty_and_map_agree_with_nested_dfs_and_lassos_replay() {
    let dir = verikit_testkit::require_data!("beem");
    let engine = |algo| Engine {
        threads: 2,
        cycles: Some(algo),
        store: StoreKind::Hash,
    };
    let owcty = |m: &Model, b: &Budget, _: bool| {
        (
            property_search_with(m, &engine(CycleAlgo::Owcty), b).unwrap(),
            true,
        )
    };
    let map = |m: &Model, b: &Budget, _: bool| {
        (
            property_search_with(m, &engine(CycleAlgo::Map), b).unwrap(),
            true,
        )
    };
    let (checked, replayed) =
        common::cycle_engines_agree(&dir, max_states(), &[("OWCTY", &owcty), ("MAP", &map)]);
    assert!(checked >= 15, "only {checked} properties checked");
    assert!(replayed >= 10, "only {replayed} lassos replayed");
}

#[test]
fn check_with_threads_answers_like_the_sequential_check() {
    let dir = verikit_testkit::require_data!("beem");
    let Some((src, m)) = common::model_at(&dir, "peterson/peterson.1.dve") else {
        return;
    };
    let b = Budget::unlimited();
    let seq = verikit_explicit::check(&m, &src, &Check::Deadlock, &b).unwrap();
    let par = check_with(
        &m,
        &src,
        &Check::Deadlock,
        &McOptions {
            por: true,
            engine: Engine {
                threads: 2,
                cycles: None,
                store: StoreKind::Hash,
            },
        },
        &b,
    )
    .unwrap();
    assert_eq!(seq.verdict, par.verdict);
}
