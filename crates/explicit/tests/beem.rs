//! The shared BEEM models: every `.dve` (instances and `.prop<k>.dve` products) parses and
//! compiles; every instance BEEM explored completely with at most `MAX_STATES` states is explored
//! here and its state, transition and deadlock counts must equal BEEM's published ones.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use verikit_diag::{Budget, SourceFile};
use verikit_explicit::{bfs, compile, parse_dve, Goal};

/// Instances up to this many states are explored (the whole test stays within a few minutes on
/// a loaded 2-core machine in release mode).
const MAX_STATES: u64 = 400_000;

fn dve_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            dve_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "dve") {
            out.push(p);
        }
    }
}

fn load(p: &Path) -> verikit_explicit::Model {
    let text = std::fs::read_to_string(p).unwrap();
    let src = SourceFile::new(p.display().to_string(), text.clone());
    let ast = parse_dve(&text).unwrap_or_else(|d| panic!("{}", d.render(&src)));
    compile(ast).unwrap_or_else(|d| panic!("{}", d.render(&src)))
}

#[test]
fn every_shared_dve_parses_and_compiles() {
    let dir = verikit_testkit::require_data!("beem");
    let mut files = Vec::new();
    dve_files(&dir, &mut files);
    assert!(files.len() >= 400, "found only {} .dve files", files.len());
    for f in &files {
        load(f);
    }
}

pub struct Counts {
    pub states: u64,
    pub transitions: Option<u64>,
    pub deadlocks: Option<u64>,
}

/// Instances with complete BEEM counts, from EXPECTED.tsv.
pub fn expected_counts(dir: &Path) -> BTreeMap<String, Counts> {
    let text = std::fs::read_to_string(dir.join("EXPECTED.tsv")).unwrap();
    let mut out = BTreeMap::new();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let (cm, cs, ct, cd, cc) = (
        col("model"),
        col("states"),
        col("transitions"),
        col("deadlocks"),
        col("exploration_complete"),
    );
    for l in lines {
        let f: Vec<&str> = l.split('\t').collect();
        if f.get(cc) != Some(&"yes") {
            continue;
        }
        let Ok(states) = f[cs].parse() else { continue };
        out.insert(
            f[cm].to_string(),
            Counts {
                states,
                transitions: f[ct].parse().ok(),
                deadlocks: f[cd].parse().ok(),
            },
        );
    }
    out
}

/// Every instance BEEM explored completely (up to `MAX_STATES`) has BEEM's counts. Where an
/// evaluation error occurs (`anderson.1`: the byte `next` leaves 0..255), the counts are
/// compared with DiVinE's error handling (`Model::set_divine_errors`, `-x mc.errors=divine`):
/// BEEM's counts include DiVinE's one error state and the states the other processes reach from
/// it (decision 0700). The default handling (no successor) has exactly those states fewer.
#[test]
fn state_space_counts_equal_beem() {
    let dir = verikit_testkit::require_data!("beem");
    let exp = expected_counts(&dir);
    let mut checked = 0;
    let mut with_transitions = 0;
    let mut with_errors = Vec::new();
    let mut bad = Vec::new();
    for (model, c) in &exp {
        if c.states > MAX_STATES {
            continue;
        }
        let mut m = load(&dir.join(model));
        let mut r = bfs(&m, Goal::Explore, &Budget::unlimited());
        assert!(r.complete);
        let skipped = r.states;
        if r.eval_errors > 0 {
            with_errors.push(model.clone());
            m.set_divine_errors(true);
            r = bfs(&m, Goal::Explore, &Budget::unlimited());
            assert!(r.complete);
            assert!(r.states > skipped, "{model}: the error state is new");
        }
        let ok = r.states == c.states
            && c.transitions.is_none_or(|t| t == r.transitions)
            && c.deadlocks.is_none_or(|d| d == r.deadlocks);
        eprintln!(
            "{model}: {} states {} transitions {} deadlocks (BEEM {} {:?} {:?}) {:.2}s{}{}",
            r.states,
            r.transitions,
            r.deadlocks,
            c.states,
            c.transitions,
            c.deadlocks,
            r.seconds,
            if r.eval_errors > 0 {
                format!(
                    ", {} evaluation errors (DiVinE's error state; {skipped} states without it)",
                    r.eval_errors
                )
            } else {
                String::new()
            },
            if ok { "" } else { "  MISMATCH" }
        );
        if !ok {
            bad.push(model.clone());
        }
        checked += 1;
        if c.transitions.is_some() {
            with_transitions += 1;
        }
    }
    assert!(bad.is_empty(), "counts differ from BEEM on {bad:?}");
    assert!(
        with_errors.iter().any(|m| m == "anderson/anderson.1.dve"),
        "anderson.1 has evaluation errors: {with_errors:?}"
    );
    assert!(checked >= 60, "only {checked} instances checked");
    assert!(
        with_transitions >= 50,
        "only {with_transitions} with transition counts"
    );
}
