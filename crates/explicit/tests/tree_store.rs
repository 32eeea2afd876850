//! The tree-compressed visited-state table (`-x mc.store=tree`) on the shared BEEM models: the
//! searches count what they count with the hash table (sequential, on two threads, with
//! partial-order reduction), their counterexample traces replay on the syntax tree, and the
//! property-process lassos of nested DFS and OWCTY replay.

use std::path::{Path, PathBuf};
use verikit_diag::Budget;
use verikit_explicit::{
    bfs, load_model, parallel_reach, parse_dve, property_search_with, replay_trace, safety_search,
    CycleSearch, DveAst, Engine, Goal, McOptions, Model, StoreKind, Trace,
};

mod common;
use common::{cycle_engines_agree, rows};

/// Instances up to this many states are counted, up to `MAX_TRACE_STATES` searched for
/// counterexamples four ways (the target stays within seconds in release mode).
const MAX_STATES: u64 = 20_000;
const MAX_TRACE_STATES: u64 = 5_000;

const TREE: Engine = Engine {
    threads: 1,
    cycles: None,
    store: StoreKind::Tree,
};

fn models(dir: &Path, max_states: u64) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = rows(dir)
        .into_iter()
        .filter(|r| r.1 <= max_states)
        .map(|r| dir.join(r.0))
        .collect();
    v.sort();
    v.dedup();
    v
}

fn options(por: bool) -> McOptions {
    McOptions { por, engine: TREE }
}

#[test]
fn tree_store_counts_equal_hash_store() {
    let dir = verikit_testkit::require_data!("beem");
    let b = Budget::unlimited();
    let mut checked = 0;
    for p in models(&dir, MAX_STATES) {
        let m = load_model(&std::fs::read_to_string(&p).unwrap()).unwrap();
        let counts = |r: &verikit_explicit::Exploration| {
            assert!(r.complete, "{}", p.display());
            (r.states, r.transitions, r.deadlocks, r.eval_errors)
        };
        let hash = counts(&bfs(&m, Goal::Explore, &b));
        let tree = counts(&safety_search(&m, Goal::Explore, &options(false), &b));
        assert_eq!(tree, hash, "{}: sequential", p.display());
        let par = counts(&parallel_reach(&m, Goal::Explore, 2, StoreKind::Tree, &b));
        assert_eq!(par, hash, "{}: two threads", p.display());
        checked += 1;
    }
    eprintln!("{checked} instances");
    assert!(checked >= 15, "only {checked} instances checked");
}

/// Replays a trace on the syntax tree with the independent interpreter.
fn replays(m: &Model, ast: &DveAst, t: &Trace, what: &str) {
    let states: Vec<_> = t.states.iter().map(|s| m.decode(s)).collect();
    replay_trace(ast, &states).unwrap_or_else(|e| panic!("{what}: trace does not replay: {e}"));
}

#[test]
fn tree_stored_traces_replay() {
    let dir = verikit_testkit::require_data!("beem");
    let b = Budget::unlimited();
    let mut traces = 0;
    for p in models(&dir, MAX_TRACE_STATES) {
        let text = std::fs::read_to_string(&p).unwrap();
        let (m, ast) = (load_model(&text).unwrap(), parse_dve(&text).unwrap());
        for goal in [Goal::Deadlock, Goal::Assert] {
            for por in [false, true] {
                let hash = safety_search(
                    &m,
                    goal,
                    &McOptions {
                        por,
                        engine: Engine::default(),
                    },
                    &b,
                );
                let tree = safety_search(&m, goal, &options(por), &b);
                assert_eq!(tree.states, hash.states, "{} {goal:?}", p.display());
                let (Some(v), Some(w)) = (&tree.violation, &hash.violation) else {
                    assert!(hash.violation.is_none(), "{} {goal:?}", p.display());
                    continue;
                };
                assert_eq!(v.trace.states, w.trace.states, "{} {goal:?}", p.display());
                replays(&m, &ast, &v.trace, &format!("{} {goal:?}", p.display()));
                traces += 1;
            }
            if ast.synchronous {
                continue;
            }
            let r = parallel_reach(&m, goal, 2, StoreKind::Tree, &b);
            if let Some(v) = &r.violation {
                replays(
                    &m,
                    &ast,
                    &v.trace,
                    &format!("{} {goal:?} 2 threads", p.display()),
                );
                traces += 1;
            }
        }
    }
    eprintln!("{traces} traces replayed");
    assert!(traces >= 10, "only {traces} traces replayed");
}

#[test]
fn tree_stored_lassos_replay() {
    let dir = verikit_testkit::require_data!("beem");
    let run = |e: Engine| {
        move |m: &Model, b: &Budget, _: bool| -> (CycleSearch, bool) {
            (property_search_with(m, &e, b).unwrap(), true)
        }
    };
    let ndfs = run(TREE);
    let owcty = run(Engine { threads: 2, ..TREE });
    let (checked, replayed) =
        cycle_engines_agree(&dir, 5_000, &[("ndfs tree", &ndfs), ("owcty tree", &owcty)]);
    assert!(
        checked >= 5 && replayed >= 3,
        "{checked} properties, {replayed} lassos"
    );
}
