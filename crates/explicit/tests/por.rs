//! Partial-order reduction (`-x mc.por`): on random models (a property test against the full
//! exploration, itself checked against the syntax-tree interpreter in `semantics.rs`) and on a
//! CI-sized subset of the shared BEEM models (DVE and Promela): verdicts with the reduction equal
//! verdicts without it (and BEEM's), a complete reduced exploration has at most the full count
//! of states, and every counterexample found with the reduction replays on the syntax tree.

use proptest::prelude::*;
use std::path::Path;
use std::time::Duration;
use verikit_diag::Budget;
use verikit_explicit::{
    decode_product, load_model, load_source, ltl_search_with, replay_automaton_lasso, replay_trace,
    safety_search, DecodedState, DveAst, Engine, Goal, McOptions, Model, StoreKind,
};

const SEQUENTIAL: Engine = Engine {
    threads: 1,
    cycles: None,
    store: StoreKind::Hash,
};
const ON: McOptions = McOptions {
    por: true,
    engine: SEQUENTIAL,
};
const OFF: McOptions = McOptions {
    por: false,
    engine: SEQUENTIAL,
};

/// Safety with and without the reduction: same verdict, fewer states when complete, and the
/// reduced counterexample replays. Returns (states with, states without, verdict).
fn safety_agrees(name: &str, m: &Model, ast: &DveAst, goal: Goal) -> (u64, u64, bool) {
    let b = Budget::with_timeout(Duration::from_secs(60));
    let full = safety_search(m, goal, &OFF, &b);
    let red = safety_search(m, goal, &ON, &b);
    assert!(
        full.stopped.is_none() && red.stopped.is_none(),
        "{name}: budget"
    );
    let kind = |r: &verikit_explicit::Exploration| {
        r.violation
            .as_ref()
            .map(|v| std::mem::discriminant(&v.kind))
    };
    assert_eq!(kind(&full), kind(&red), "{name} {goal:?}: verdicts differ");
    if let Some(v) = &red.violation {
        let dec: Vec<DecodedState> = v.trace.states.iter().map(|s| m.decode(s)).collect();
        replay_trace(ast, &dec)
            .unwrap_or_else(|e| panic!("{name} {goal:?}: reduced trace does not replay: {e}"));
    } else {
        assert!(
            red.states <= full.states,
            "{name} {goal:?}: {} reduced states > {} full",
            red.states,
            full.states
        );
    }
    (red.states, full.states, red.violation.is_none())
}

/// LTL with and without the reduction: same verdict, fewer product states when it holds, and
/// the reduced lasso replays.
fn ltl_agrees(
    name: &str,
    m: &Model,
    ast: &DveAst,
    formula: &str,
    aps: &[(String, String)],
) -> bool {
    let b = Budget::with_timeout(Duration::from_secs(60));
    let full = ltl_search_with(m, formula, aps, &OFF, &b).unwrap();
    let red = ltl_search_with(m, formula, aps, &ON, &b).unwrap();
    assert!(
        full.search.stopped.is_none() && red.search.stopped.is_none(),
        "{name}: budget"
    );
    assert_eq!(
        full.search.lasso.is_none(),
        red.search.lasso.is_none(),
        "{name} `{formula}`: verdicts differ (por {})",
        red.por
    );
    if let Some(l) = &red.search.lasso {
        let dec = |v: &[Vec<u8>]| {
            v.iter()
                .map(|x| decode_product(m, x))
                .collect::<Vec<(DecodedState, u32)>>()
        };
        replay_automaton_lasso(ast, &red.automaton, &red.aps, &dec(&l.stem), &dec(&l.cycle))
            .unwrap_or_else(|e| panic!("{name} `{formula}`: reduced lasso does not replay: {e}"));
    } else {
        assert!(
            red.search.states <= full.search.states,
            "{name} `{formula}`: {} reduced product states > {} full",
            red.search.states,
            full.search.states
        );
    }
    red.search.lasso.is_none()
}

#[test]
fn independent_local_steps_are_reduced_and_the_deadlock_is_kept() {
    // Three processes counting on locals, then meeting at a shared flag: 4^3 interleavings of
    // the local part collapse to one order.
    let src = "byte done;
        process P0 { byte l; state a, b, c, d, e; init a;
          trans a -> b { effect l = l + 1; }, b -> c { effect l = l + 1; }, c -> d { effect l = l + 1; },
                d -> e { effect done = done + 1; }; }
        process P1 { byte l; state a, b, c, d, e; init a;
          trans a -> b { effect l = l + 1; }, b -> c { effect l = l + 1; }, c -> d { effect l = l + 1; },
                d -> e { effect done = done + 1; }; }
        process P2 { byte l; state a, b, c, d, e; init a;
          trans a -> b { effect l = l + 1; }, b -> c { effect l = l + 1; }, c -> d { effect l = l + 1; },
                d -> e { effect done = done + 1; }; }
        system async;";
    let m = load_model(src).unwrap();
    let ast = verikit_explicit::parse_dve(src).unwrap();
    let b = Budget::unlimited();
    let full = safety_search(&m, Goal::Deadlock, &OFF, &b);
    let red = safety_search(&m, Goal::Deadlock, &ON, &b);
    assert!(full.violation.is_some() && red.violation.is_some());
    assert!(red.reduced > 0);
    assert_eq!(full.reduced, 0);
    // Complete exploration: every state reachable with the full semantics.
    let full_all = verikit_explicit::bfs(&m, Goal::Explore, &b);
    assert_eq!(full_all.states, 125);
    let (with, without, _) = safety_agrees("local", &m, &ast, Goal::Deadlock);
    assert!(with < without, "{with} vs {without}");
    // A formula reading P0's local makes P0's steps visible but keeps the others reducible.
    assert!(!ltl_agrees("local", &m, &ast, "G(\"P0->l < 3\")", &[]));
    assert!(ltl_agrees("local", &m, &ast, "F G(\"done == 3\")", &[]));
    // `X` is not stutter-invariant: no reduction.
    let r = ltl_search_with(&m, "X(\"done == 0\")", &[], &ON, &b).unwrap();
    assert!(r.por.starts_with("off"), "{}", r.por);
    assert_eq!(r.search.reduced, 0);
}

/// A random model: processes with locals and shared variables, a rendezvous and a buffered
/// channel any process may use, a buffered channel `r` only P0 sends on and only P1 receives
/// from (exclusive), an assertion, optionally committed states in P0 and P1.
fn model() -> impl Strategy<Value = String> {
    let trans = (0..3usize, 0..3usize, 0..9usize, 0..4i64, 0..2usize);
    let proc = prop::collection::vec(trans, 1..5);
    (prop::collection::vec(proc, 1..4), 0..4u8).prop_map(|(ps, commit)| {
        let mut s = String::from("byte g; channel c; channel {byte} q[1]; channel {byte} r[2];\n");
        for (k, ts) in ps.iter().enumerate() {
            s += &format!("process P{k} {{ byte l; state s0, s1, s2; init s0; ");
            if k < 2 && commit & (1 << k) != 0 {
                s += "commit s1; ";
            }
            s += "assert s2: g != 3; trans ";
            let items: Vec<String> = ts
                .iter()
                .map(|&(a, b, kind, d, dir)| {
                    let body = match kind {
                        0 | 1 => format!("guard l != {d}; effect l = (l + 1) % 3;"),
                        2 => format!("effect l = {d};"),
                        3 => format!("guard g != {d}; effect g = (g + {d}) % 4;"),
                        4 => format!("guard l == {d};"),
                        5 if dir == 0 => format!("sync c!{d};"),
                        5 => "sync c?l;".to_string(),
                        6 if dir == 0 => "sync q!l;".to_string(),
                        6 => "sync q?g;".to_string(),
                        7 if k == 0 => "sync r!l;".to_string(),
                        7 if k == 1 => "sync r?l;".to_string(),
                        _ => String::new(),
                    };
                    format!("s{a} -> s{b} {{ {body} }}")
                })
                .collect();
            s += &items.join(", ");
            s += "; }\n";
        }
        s + "system async;"
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(std::env::var("VERIKIT_POR_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(120)))]
    #[test]
    fn reduction_preserves_deadlocks_assertions_and_ltl(src in model(), yields in any::<bool>()) {
        // DVE's committed states (a stuck committed process stops everyone) and Promela's
        // `atomic` (a blocked sequence yields) on the same model.
        let mut ast = verikit_explicit::parse_dve(&src).unwrap();
        ast.atomic_yields = yields;
        let m = verikit_explicit::compile(ast.clone()).unwrap();
        safety_agrees(&src, &m, &ast, Goal::Deadlock);
        safety_agrees(&src, &m, &ast, Goal::Assert);
        for f in ["G(\"g != 3\")", "F G(\"g == 0\")", "G F(\"P0.s2\")", "G(\"P0.s1\" -> F \"g == 1\")"] {
            ltl_agrees(&src, &m, &ast, f, &[]);
        }
    }
}

/// An `atomic` region that can loop forever is not one step: taking the step that enters it as
/// the ample set would hide the other processes' steps before it (the property test's case).
#[test]
fn an_endless_atomic_region_is_not_one_step() {
    let src = "byte g; channel {byte} r[2];
process P0 { byte l; state s0, s1, s2; init s0; commit s1; trans s1 -> s1 { effect l = 2; }, s2 -> s1 { sync r!l; }, s0 -> s1 {  }; }
process P1 { state s0, s1; init s0; trans s1 -> s0 {  }; }
process P2 { state s0, s1; init s0; trans s0 -> s0 { guard g != 1; effect g = (g + 1) % 4; }, s0 -> s1 {  }; }
system async;";
    for yields in [false, true] {
        let mut ast = verikit_explicit::parse_dve(src).unwrap();
        ast.atomic_yields = yields;
        let m = verikit_explicit::compile(ast.clone()).unwrap();
        assert!(!ltl_agrees(src, &m, &ast, "F G(\"g == 0\")", &[]));
    }
}

/// With Promela's `atomic` (a blocked region yields), a cycle that closes from inside a region
/// (`s0 -> s1` entering it, `s1 -> s0` leaving it) escapes the stack proviso, which checks reduced
/// states' own successors; the reduction therefore never takes a step into a region, so P1's
/// steps are explored and the violation of `F G(g == 0)` is found (decision 0708).
#[test]
fn a_cycle_closed_inside_an_atomic_region_is_fully_expanded() {
    let src = "byte g;
process P0 { byte l; state s0, s1; init s0; commit s1; trans s1 -> s0 { effect l = 0; }, s0 -> s1 {  }; }
process P1 { state s0; init s0; trans s0 -> s0 { guard g != 1; effect g = (g + 1) % 4; }; }
system async;";
    let mut ast = verikit_explicit::parse_dve(src).unwrap();
    ast.atomic_yields = true;
    let m = verikit_explicit::compile(ast.clone()).unwrap();
    assert!(!ltl_agrees(src, &m, &ast, "F G(\"g == 0\")", &[]));
}

/// The CI subset: small instances of families with local computation, DVE and Promela.
const SAFETY: &[&str] = &[
    "phils/phils.1.dve",
    "phils/phils.1.pm",
    "bakery/bakery.1.dve",
    "bakery/bakery.1.pm",
    "peterson/peterson.1.dve",
    "peterson/peterson.1.pm",
    "msmie/msmie.1.dve",
    "msmie/msmie.1.pm",
    "at/at.1.dve",
    "pgm_protocol/pgm_protocol.1.dve",
    "lamport/lamport.1.dve",
    "lamport/lamport.1.pm",
    "szymanski/szymanski.1.dve",
    "collision/collision.1.dve",
    "leader_filters/leader_filters.1.dve",
    "leader_filters/leader_filters.1.pm",
    "brp/brp.1.dve",
    "brp/brp.1.pm",
    "iprotocol/iprotocol.1.dve",
    "firewire_link/firewire_link.1.pm",
    "reader_writer/reader_writer.1.dve",
    "reader_writer/reader_writer.1.pm",
];

fn load(dir: &Path, rel: &str) -> Option<(Model, DveAst)> {
    let p = dir.join(rel);
    let text = std::fs::read_to_string(&p).ok()?;
    let src = verikit_diag::SourceFile::new(p.display().to_string(), text.clone());
    let m = load_source(&src).ok()?;
    let ast = m.ast().clone();
    Some((m, ast))
}

#[test]
fn beem_subset_safety_verdicts_equal_with_and_without_reduction() {
    let dir = verikit_testkit::require_data!("beem");
    let mut reduced_somewhere = 0;
    let mut checked = 0;
    for rel in SAFETY {
        let Some((m, ast)) = load(&dir, rel) else {
            eprintln!("{rel}: missing or not loadable, skipped");
            continue;
        };
        for goal in [Goal::Deadlock, Goal::Assert] {
            let (with, without, holds) = safety_agrees(rel, &m, &ast, goal);
            eprintln!("{rel} {goal:?}: holds={holds} states {with} with POR, {without} without");
            if holds && with < without {
                reduced_somewhere += 1;
            }
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} models checked");
    assert!(
        reduced_somewhere >= 3,
        "the reduction never reduced ({reduced_somewhere})"
    );
}

#[test]
fn beem_subset_ltl_verdicts_equal_with_and_without_reduction() {
    let dir = verikit_testkit::require_data!("beem");
    // Formulas over process states (DVE names; in the Promela translation the same labels).
    let cases: &[(&str, &str, bool)] = &[
        (
            "peterson/peterson.1.dve",
            "G !(\"P_0.CS\" && \"P_1.CS\")",
            true,
        ),
        (
            "peterson/peterson.1.dve",
            "G(\"P_0.wait\" -> F \"P_0.CS\")",
            false,
        ),
        ("bakery/bakery.1.dve", "G !(\"P_0.CS\" && \"P_1.CS\")", true),
        ("bakery/bakery.1.dve", "G F \"P_0.CS\"", false),
        ("phils/phils.1.dve", "G F \"phil_0.eat\"", false),
        (
            "lamport/lamport.1.dve",
            "G !(\"P_0.CS\" && \"P_1.CS\")",
            true,
        ),
    ];
    let mut checked = 0;
    for (rel, f, expect) in cases {
        let Some((m, ast)) = load(&dir, rel) else {
            eprintln!("{rel}: missing, skipped");
            continue;
        };
        let b = Budget::with_timeout(Duration::from_secs(60));
        match ltl_search_with(&m, f, &[], &ON, &b) {
            Ok(_) => {}
            Err(e) => {
                eprintln!("{rel} `{f}`: skipped ({e})");
                continue;
            }
        }
        let holds = ltl_agrees(rel, &m, &ast, f, &[]);
        eprintln!("{rel} `{f}`: holds={holds}");
        assert_eq!(holds, *expect, "{rel} `{f}`");
        checked += 1;
    }
    assert!(checked >= 4, "only {checked} formulas checked");
}

/// The expected-results directory of the hand-written Promela models.
fn promela_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected/promela")
}

/// SPIN's counts of a hand-written model (SPIN-STATES.tsv): states, transitions, and the same
/// with SPIN's reduction.
fn spin_counts(file: &str) -> (u64, u64, u64, u64) {
    let table = std::fs::read_to_string(promela_dir().join("SPIN-STATES.tsv")).unwrap();
    let row = table
        .lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| f[0] == file)
        .unwrap_or_else(|| panic!("{file} not in SPIN-STATES.tsv"));
    let n = |i: usize| row[i].parse::<u64>().unwrap();
    (n(1), n(2), n(3), n(4))
}

/// A pipeline over two channels with one sender and one receiver each (SPIN's `xs`/`xr`
/// situation, derived from the model here) ending in an `atomic` block: the depth-first search
/// with the stack proviso reduces it at least as much as SPIN does, with the same verdicts.
#[test]
fn exclusive_channels_and_atomic_blocks_are_reduced_as_spin_does() {
    let text = std::fs::read_to_string(promela_dir().join("pipeline.pml")).unwrap();
    let src = verikit_diag::SourceFile::new("pipeline.pml", text);
    let m = load_source(&src).unwrap_or_else(|d| panic!("{}", d.render(&src)));
    let ast = m.ast().clone();
    let (full_spin, _, red_spin, _) = spin_counts("pipeline.pml");
    for goal in [Goal::Deadlock, Goal::Assert] {
        let (with, without, holds) = safety_agrees("pipeline", &m, &ast, goal);
        eprintln!("pipeline {goal:?}: {with} states with POR, {without} without; SPIN {red_spin} of {full_spin}");
        assert!(
            holds == (goal == Goal::Assert),
            "{goal:?}: the pipeline ends, the sum is 12"
        );
        if !holds {
            continue; // the search stopped at its first deadlock
        }
        // SPIN keeps 217 of 1146 states (0.19); the reduction must be at least as strong.
        assert!(
            with as f64 / without as f64 <= red_spin as f64 / full_spin as f64,
            "{goal:?}: {with}/{without} reduces less than SPIN's {red_spin}/{full_spin}"
        );
    }
    for f in [
        "G(\"finished == 0\" || \"finished == 1\")",
        "F \"finished == 1\"",
        "G \"finished == 0\"",
    ] {
        ltl_agrees("pipeline", &m, &ast, f, &[]);
    }
    // The same model with a second process that may always send on `a` (it never does):
    // `a` is no longer exclusive and the reduction is weaker (exclusivity is derived from the
    // model's transitions, not assumed).
    let shared = src.text.replace(
        "active proctype Mid()",
        "active proctype Src2() { do :: false -> a!0 :: true -> skip od }\nactive proctype Mid()",
    );
    let m2 = verikit_explicit::load_promela(&shared).unwrap();
    let ast2 = m2.ast().clone();
    let (with2, without2, holds2) = safety_agrees("pipeline+Src2", &m2, &ast2, Goal::Assert);
    let (with, without, _) = safety_agrees("pipeline", &m, &ast, Goal::Assert);
    assert!(holds2);
    assert!(
        with2 as f64 / without2 as f64 > 2.0 * (with as f64 / without as f64),
        "{with2}/{without2} vs {with}/{without}"
    );
}

/// An `atomic` sequence blocked on a rendezvous send (S) while two processes count on their own
/// locals (R, which asserts what it receives, and L): the blocked sequence yields, the other
/// processes' local steps are reduced there (SPIN's rule), and R's counting stays invisible to
/// its assertion, which observes only R being at the `assert`. The reduction keeps at most
/// SPIN's states (SPIN-STATES.tsv), with the same verdicts; a failing variant of the assertion
/// is found with the reduction and its trace replays.
#[test]
fn a_blocked_atomic_sequence_lets_the_other_processes_be_reduced() {
    let text = std::fs::read_to_string(promela_dir().join("blocked_atomic.pml")).unwrap();
    let src = verikit_diag::SourceFile::new("blocked_atomic.pml", text.clone());
    let m = load_source(&src).unwrap_or_else(|d| panic!("{}", d.render(&src)));
    let ast = m.ast().clone();
    let (full_spin, _, red_spin, _) = spin_counts("blocked_atomic.pml");
    let (with, without, holds) = safety_agrees("blocked_atomic", &m, &ast, Goal::Assert);
    assert!(holds, "R receives the 1 S sends");
    assert!(
        with <= red_spin && with * full_spin <= red_spin * without,
        "{with} of {without} states; SPIN {red_spin} of {full_spin}"
    );
    safety_agrees("blocked_atomic", &m, &ast, Goal::Deadlock);
    for f in [
        "F \"done == 1\"",
        "G \"done == 0\"",
        "G(\"done == 1\" -> G \"done == 1\")",
    ] {
        ltl_agrees("blocked_atomic", &m, &ast, f, &[]);
    }
    let failing = text.replace("assert(v == 1)", "assert(v == 2)");
    let m = verikit_explicit::load_promela(&failing).unwrap();
    let ast = m.ast().clone();
    let (_, _, holds) = safety_agrees("blocked_atomic v == 2", &m, &ast, Goal::Assert);
    assert!(!holds, "R receives a 1, not a 2");
}

/// Inside P0's `atomic` region (Promela's rule: P0 holds the exclusivity) P1 stands at a control
/// state with an assertion. The state was handed out for that assertion to be checked and then
/// expanded with every process moving, so P1 moved inside P0's sequence and the deadlock trace
/// did not replay (found by the property test). Only the exclusive process's own assertion
/// interrupts a sequence now.
#[test]
fn another_process_assertion_does_not_end_an_atomic_sequence() {
    let src = "byte g; channel c; channel {byte} q[1]; channel {byte} r[2];
process P0 { byte l; state s0, s1, s2; init s0; commit s1; assert s2: g != 3; trans s1 -> s0 { guard l != 1; effect l = (l + 1) % 3; }, s0 -> s1 { sync r!l; }, s0 -> s0 { guard l != 0; effect l = (l + 1) % 3; }; }
process P1 { byte l; state s0, s1, s2; init s0; assert s2: g != 3; trans s2 -> s0 { sync r?l; }, s0 -> s2 { effect l = 0; }; }
system async;";
    let mut ast = verikit_explicit::parse_dve(src).unwrap();
    ast.atomic_yields = true;
    let m = verikit_explicit::compile(ast.clone()).unwrap();
    safety_agrees(src, &m, &ast, Goal::Deadlock);
    safety_agrees(src, &m, &ast, Goal::Assert);
}
