//! BEEM's Promela translations: every shared `.pm` loads (or is refused by name with a located
//! error); where SPIN-CHECK.tsv says the translation is state-for-state equal to the DVE model
//! (`equal`, or `equal up to the 2-state init prefix`, which this reader folds into the initial
//! state), the state space explored from the `.pm` equals BEEM's and SPIN's counts.

use std::path::{Path, PathBuf};
use verikit_diag::{Budget, SourceFile};
use verikit_explicit::{
    bfs, decode_product, load_promela, load_source, ltl_search, parse_promela,
    replay_automaton_lasso, replay_trace, DecodedState, Goal, ViolationKind,
};

fn pm_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            pm_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "pm") {
            out.push(p);
        }
    }
}

/// Rows of SPIN-CHECK.tsv: (promela path, SPIN states, SPIN transitions, SPIN invalid end
/// states, relation).
fn spin_rows(dir: &Path) -> Vec<(String, u64, u64, u64, String)> {
    let text = std::fs::read_to_string(dir.join("SPIN-CHECK.tsv")).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let (cp, cs, ct, ce, cr) = (
        col("promela"),
        col("spin_states_stored"),
        col("spin_transitions"),
        col("spin_invalid_end_states"),
        col("relation"),
    );
    let mut out = Vec::new();
    for l in lines {
        let f: Vec<&str> = l.split('\t').collect();
        let (Ok(s), Ok(t), Ok(e)) = (f[cs].parse(), f[ct].parse(), f[ce].parse()) else {
            continue;
        };
        out.push((f[cp].to_string(), s, t, e, f[cr].to_string()));
    }
    out
}

#[test]
fn every_shared_pm_loads_or_is_refused_with_a_location() {
    let dir = verikit_testkit::require_data!("beem");
    let mut files = Vec::new();
    pm_files(&dir, &mut files);
    files.sort();
    assert!(files.len() >= 100, "found only {} .pm files", files.len());
    let mut refused = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let src = SourceFile::new(f.display().to_string(), text);
        if let Err(d) = load_source(&src) {
            assert!(
                d.span.is_some(),
                "{}: error without a location: {}",
                f.display(),
                d.message
            );
            refused.push(d.render(&src).to_string());
        }
    }
    for r in &refused {
        eprintln!("{r}");
    }
    eprintln!("{} of {} refused", refused.len(), files.len());
}

/// Every SPIN-CHECK row up to `MAX_STATES` SPIN states: explored from the `.pm`; where SPIN's
/// relation says the translation equals the DVE model, the counts must equal SPIN's (less the
/// folded 2-state init prefix, and less the initial state SPIN counts as a transition).
const MAX_STATES: u64 = 100_000;

#[test]
fn state_counts_agree_with_spin_where_the_translation_is_faithful() {
    let dir = verikit_testkit::require_data!("beem");
    let mut bad = Vec::new();
    let mut checked = 0;
    for (pm, s, t, e, rel) in spin_rows(&dir) {
        if s > MAX_STATES {
            continue;
        }
        let text = std::fs::read_to_string(dir.join(&pm)).unwrap();
        let src = SourceFile::new(pm.clone(), text);
        let m = load_source(&src).unwrap_or_else(|d| panic!("{}", d.render(&src)));
        let r = bfs(&m, Goal::Explore, &Budget::unlimited());
        assert!(r.complete);
        let (ds, dt) = if rel.starts_with("equal up to the 2-state init prefix") {
            (2, 3)
        } else {
            (0, 1)
        };
        let faithful = rel.starts_with("equal");
        let ok = r.states + ds == s && r.transitions + dt == t && r.deadlocks == e;
        eprintln!(
            "{pm}\t{}\t{}\t{}\t{}\tSPIN\t{s}\t{t}\t{e}\t{}\t{}",
            r.states,
            r.transitions,
            r.deadlocks,
            r.eval_errors,
            if ok { "same" } else { "DIFF" },
            rel
        );
        if faithful {
            checked += 1;
            if !ok {
                bad.push(pm);
            }
        }
    }
    assert!(bad.is_empty(), "counts differ from SPIN on {bad:?}");
    assert!(
        checked >= 15,
        "only {checked} faithful translations checked"
    );
}

/// A small model with the constructs BEEM's files do not all use: `do`/`break`, `else`, a
/// receive matching a constant, `atomic` that blocks and yields, `assert`.
const SMALL: &str = "byte x; byte done; chan c = [0] of {byte};\n\
    active proctype A() {\n\
      do :: x < 3 -> x++ :: else -> break od;\n\
      atomic { x == 3; c!1; done = 1 };\n\
      assert(x == 3) }\n\
    active proctype B() { byte v; c?1; v = 2; c?v }\n";

#[test]
fn small_model_semantics_and_witnesses_replay() {
    let m = load_promela(SMALL).unwrap_or_else(|d| panic!("{}", d.message));
    let ast = parse_promela(SMALL).unwrap();
    let r = bfs(&m, Goal::Explore, &Budget::unlimited());
    assert!(r.complete);
    assert_eq!(r.eval_errors, 0);
    // A counts 0..3 (4 states) while B waits; then the rendezvous; then A (in atomic) sets
    // done, B does v = 2 and waits for a second message that never comes: a deadlock, as
    // SPIN would report (B blocked at `c?v`).
    assert!(r.deadlocks >= 1, "{r:?}");
    let r = bfs(&m, Goal::Deadlock, &Budget::unlimited());
    let v = r.violation.expect("a deadlock");
    assert!(matches!(v.kind, ViolationKind::Deadlock));
    let states: Vec<DecodedState> = v.trace.states.iter().map(|s| m.decode(s)).collect();
    replay_trace(&ast, &states).unwrap_or_else(|e| panic!("trace does not replay: {e}"));
    // The assertion holds.
    let r = bfs(&m, Goal::Assert, &Budget::unlimited());
    assert!(!matches!(
        r.violation.map(|v| v.kind),
        Some(ViolationKind::Assert { .. })
    ));
    // A receive of a constant that is never sent blocks.
    let bad = SMALL.replace("c?1;", "c?2;");
    let m2 = load_promela(&bad).unwrap();
    let ltl = ltl_search(&m2, "F \"done == 1\"", &[], &Budget::unlimited());
    let run = ltl.unwrap_or_else(|e| panic!("{e}"));
    assert!(
        run.search.lasso.is_some(),
        "done is never set when B expects 2"
    );
    let run = ltl_search(&m, "F \"done == 1\"", &[], &Budget::unlimited()).unwrap();
    assert!(
        run.search.lasso.is_none(),
        "done is always set when B expects 1"
    );
}

#[test]
fn ltl_on_a_promela_model_replays_its_lasso() {
    let dir = verikit_testkit::require_data!("beem");
    let pm = dir.join("phils/phils.1.pm");
    let text = std::fs::read_to_string(&pm).unwrap();
    let m = load_promela(&text).unwrap();
    let ast = parse_promela(&text).unwrap();
    // Neighbours share a fork: never both eating.
    let run = ltl_search(
        &m,
        "G !(\"phil_0.eat\" && \"phil_1.eat\")",
        &[],
        &Budget::unlimited(),
    )
    .unwrap();
    assert!(run.search.lasso.is_none());
    // phil_0 need not eat infinitely often (deadlock, starvation): a lasso, replayed.
    let run = ltl_search(&m, "G F \"phil_0.eat\"", &[], &Budget::unlimited()).unwrap();
    let l = run.search.lasso.as_ref().expect("violated");
    let dec = |v: &[Vec<u8>]| {
        v.iter()
            .map(|x| decode_product(&m, x))
            .collect::<Vec<(DecodedState, u32)>>()
    };
    replay_automaton_lasso(
        &ast,
        &run.automaton,
        &run.aps,
        &dec(&l.stem),
        &dec(&l.cycle),
    )
    .unwrap_or_else(|e| panic!("lasso does not replay: {e}"));
}
