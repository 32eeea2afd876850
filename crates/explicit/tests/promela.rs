//! BEEM's Promela translations: every shared `.pm` loads (or is refused by name with a located
//! error); where SPIN-CHECK.tsv says the translation is state-for-state equal to the DVE model
//! (`equal`, or `equal up to the 2-state init prefix`, which this reader folds into the initial
//! state), the state space explored from the `.pm` equals BEEM's and SPIN's counts.

use std::path::{Path, PathBuf};
use verikit_diag::{Budget, SourceFile};
use verikit_explicit::{
    bfs, load_promela, load_source, load_source_for, ltl_search, ltl_search_with, parse_promela,
    replay_trace, Check, Dataflow, DecodedState, Engine, Goal, McOptions, StoreKind, ViolationKind,
};

mod common;

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

/// SPIN does not store the states inside an `atomic` sequence: one process with a sequence of
/// three assignments stores 3 states, not 5 (SPIN: 4 and 6, with the state after the process
/// ends); a second process interleaves only outside it (3 × 3 states; SPIN's 13 add the
/// 4 states after a process ended). A blocked sequence's state is stored, and the traces
/// through sequences are the single steps, which the interpreter replays.
#[test]
fn atomic_sequences_are_explored_through_as_in_spin() {
    let count = |text: &str, through: bool| {
        let src = SourceFile::new("t.pml", text.to_string());
        let mut m = load_source(&src).unwrap();
        m.set_through_atomic(through);
        bfs(&m, Goal::Explore, &Budget::unlimited()).states
    };
    let one = "byte x;\nactive proctype P() { atomic { x = 1; x = 2; x = 3 }; x = 4 }\n";
    assert_eq!((count(one, true), count(one, false)), (3, 5));
    let two = "byte x; byte y;\n\
        active proctype P() { atomic { x = 1; x = 2; x = 3 }; x = 4 }\n\
        active proctype Q() { y = 1; y = 2 }\n";
    assert_eq!((count(two, true), count(two, false)), (9, 15));
    // The sequence blocks on `y == 2` after its first step: that state is stored, Q moves.
    let blocked = "byte x; byte y;\n\
        active proctype P() { atomic { x = 1; y == 2; x = 2 } }\n\
        active proctype Q() { y = 1; y = 2 }\n";
    let src = SourceFile::new("b.pml", blocked.to_string());
    let m = load_source(&src).unwrap();
    let r = bfs(&m, Goal::Deadlock, &Budget::unlimited());
    assert_eq!(r.states, count(blocked, true));
    let v = r.violation.expect("P and Q end: a deadlock");
    let ast = parse_promela(blocked).unwrap();
    let states: Vec<_> = v.trace.states.iter().map(|s| m.decode(s)).collect();
    replay_trace(&ast, &states).unwrap_or_else(|e| panic!("trace does not replay: {e}"));
    assert!(count(blocked, true) < count(blocked, false));
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
    let replayed = common::replay_ltl(&m, &ast, &run);
    assert!(
        replayed.unwrap_or_else(|e| panic!("lasso does not replay: {e}")),
        "violated"
    );
}

/// The hand-written models of tests/expected/promela (`#define`, function-like macros,
/// `inline` with arguments, `ltl` blocks): every `ltl` block's verdict equals SPIN's
/// (SPIN-LTL.tsv), and every violation's lasso replays on the syntax tree.
#[test]
fn ltl_blocks_agree_with_spin_and_lassos_replay() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected/promela");
    let table = std::fs::read_to_string(dir.join("SPIN-LTL.tsv")).unwrap();
    let mut checked = 0;
    for line in table.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (file, name, spin) = (f[0], f[1], f[2]);
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let src = SourceFile::new(file, text.clone());
        let m = load_source(&src).unwrap_or_else(|d| panic!("{}", d.render(&src)));
        let ast = parse_promela(&text).unwrap();
        let block = m
            .ast()
            .ltl
            .iter()
            .find(|l| l.name == name)
            .unwrap_or_else(|| panic!("{file}: no ltl {name}"));
        let run = ltl_search(&m, &block.formula, &block.aps, &Budget::unlimited())
            .unwrap_or_else(|e| panic!("{file} {name}: {e}"));
        let verdict = if run.search.lasso.is_some() {
            "violated"
        } else {
            "holds"
        };
        assert_eq!(verdict, spin, "{file} ltl {name} = {}", block.formula);
        common::replay_ltl(&m, &ast, &run)
            .unwrap_or_else(|e| panic!("{file} {name}: lasso does not replay: {e}"));
        checked += 1;
    }
    assert!(checked >= 9, "only {checked} rows");
}

/// BEEM's LTL properties on the Promela translations of small instances (the propositions of the
/// family `.xml` written as DVE expressions for verikit and as remote references for SPIN,
/// `bench/engines/mc_promela_ltl.py`): verikit's verdict with and without partial-order reduction
/// equals SPIN's (SPIN-BEEM-LTL.tsv, `pan -a`), every lasso replays on the syntax tree under
/// SPIN's exclusivity in `atomic` sequences, and where the property holds and the model has no
/// `atomic` sequence (SPIN does not store the states inside one, the product does) the product
/// has SPIN's state count.
#[test]
fn beem_ltl_verdicts_agree_with_spin() {
    let dir = verikit_testkit::require_data!("beem");
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected/promela");
    let table = std::fs::read_to_string(here.join("SPIN-BEEM-LTL.tsv")).unwrap();
    let engine = Engine {
        threads: 1,
        cycles: None,
        store: StoreKind::Hash,
    };
    let (mut checked, mut counted) = (0, 0);
    for line in table.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (file, prop, formula, aps, spin, spin_states) = (f[0], f[1], f[2], f[3], f[4], f[5]);
        let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
            eprintln!("{file}: missing, skipped");
            continue;
        };
        let src = SourceFile::new(file, text.clone());
        let aps: Vec<(String, String)> = aps
            .split(';')
            .filter_map(|d| d.split_once('='))
            .map(|(n, e)| (n.to_string(), e.to_string()))
            .collect();
        // As `mc check` loads it: SPIN's data-flow reset, the propositions' names kept.
        let q = Check::Ltl {
            formula: formula.to_string(),
            aps: aps.clone(),
        };
        let m = load_source_for(&src, &q, Dataflow::Spin)
            .unwrap_or_else(|d| panic!("{}", d.render(&src)));
        let ast = m.ast().clone();
        for por in [false, true] {
            let o = McOptions { por, engine };
            let run = match ltl_search_with(&m, formula, &aps, &o, &Budget::unlimited()) {
                Ok(run) => run,
                Err(e) => {
                    // A label SPIN knows that the lowering does not name a control state.
                    eprintln!("{file} prop{prop}: skipped ({e})");
                    break;
                }
            };
            let verdict = if run.search.lasso.is_some() {
                "violated"
            } else {
                "holds"
            };
            assert_eq!(
                verdict, spin,
                "{file} prop{prop} `{formula}` (por {})",
                run.por
            );
            common::replay_ltl(&m, &ast, &run)
                .unwrap_or_else(|e| panic!("{file} prop{prop}: lasso does not replay: {e}"));
            let atomic = text.contains("atomic");
            if por {
                checked += 1;
            }
            if !por && spin == "holds" && !atomic {
                assert_eq!(
                    run.search.states.to_string(),
                    spin_states,
                    "{file} prop{prop}: product states"
                );
                counted += 1;
            }
        }
    }
    eprintln!("{checked} properties, {counted} product counts equal to SPIN's");
    assert!(checked >= 20, "only {checked} properties checked");
}

/// The preprocessor and `inline`: expansions equal the hand-expanded model state for state;
/// what stays outside the subset is refused where it stands.
#[test]
fn macros_and_inline_expand_like_the_hand_written_model() {
    let with = "#define N 3\n#define inc(v, k) v = (v + k) % N\n\
        byte a; byte b;\n\
        inline both(s) { inc(a, s); inc(b, 1) }\n\
        active proctype P() { do :: both(2) :: a == 0 -> both(1) od }\n";
    let without = "byte a; byte b;\n\
        active proctype P() { do :: { a = (a + 2) % 3; b = (b + 1) % 3 } \
        :: a == 0 -> { a = (a + 1) % 3; b = (b + 1) % 3 } od }\n";
    let count = |t: &str| {
        let m = load_promela(t).unwrap_or_else(|d| panic!("{}", d.message));
        let r = bfs(&m, Goal::Explore, &Budget::unlimited());
        (r.states, r.transitions, r.deadlocks)
    };
    assert_eq!(count(with), count(without));
    assert!(count(with).0 > 3);
    for (bad, word, at) in [
        ("#include \"x.h\"\nbyte a;", "#include", 0),
        ("byte a;\n#ifdef X\n", "#ifdef", 8),
        (
            "#define f(x) x\nbyte a; active proctype P() { a = f(1, 2) }",
            "argument",
            49,
        ),
        (
            "inline g(x) { x = 1 }\nbyte a; active proctype P() { g() }",
            "argument",
            52,
        ),
        ("#define a a\nbyte a; active proctype P() { a = 2 }", "", 0),
        (
            "active proctype P() { skip }\nltl p { [] (x < ) }",
            "expected",
            45,
        ),
    ] {
        match load_promela(bad) {
            Ok(_) => assert!(word.is_empty(), "{bad:?} accepted"),
            Err(d) => {
                assert!(d.message.contains(word), "{bad:?}: {}", d.message);
                assert_eq!(d.span.map(|s| s.start), Some(at), "{bad:?}: {}", d.message);
            }
        }
    }
}

/// `mtype`: names are constants numbered as SPIN numbers them (each declaration from its last
/// name, 1 up, after the earlier declarations' names: `spin` prints req=2 ack=1 nak=3 for the
/// first model), `mtype` and `mtype:name` variables and message fields are bytes, and the
/// state space of a client/server model equals SPIN's (`pan -E`, no reduction: 50 states, 82
/// transitions = stored + matched, which counts the initial state once more, as for phils.1 in
/// SPIN-CHECK.tsv; SPIN has no `init` prefix here: both processes are `active`).
#[test]
fn mtype_names_are_numbered_and_explored_as_spin_does() {
    let values = "mtype = { req, ack };\nmtype = { nak };\nmtype x = ack;\n\
        active proctype P() { assert(req == 2 && ack == 1 && nak == 3 && x == 1); x = nak }\n";
    let m = load_promela(values).unwrap_or_else(|d| panic!("{}", d.message));
    let r = bfs(&m, Goal::Assert, &Budget::unlimited());
    assert!(r.violation.is_none(), "{:?}", r.violation);
    assert!(r.complete);
    let wrong = values.replace("req == 2", "req == 1");
    let m = load_promela(&wrong).unwrap();
    let r = bfs(&m, Goal::Assert, &Budget::unlimited());
    assert!(
        matches!(
            r.violation.map(|v| v.kind),
            Some(ViolationKind::Assert { .. })
        ),
        "the numbering is observable"
    );
    let client_server = "mtype = { req, ack };\nmtype:ans = { yes, no };\n\
        chan c = [2] of { mtype, byte };\nmtype last = ack;\nmtype:ans verdict = no;\n\
        active proctype Client() {\n  byte i = 0;\n  do\n  :: i < 3 -> c!req,i; i++\n\
          :: i == 3 -> break\n  od;\n  verdict = yes\n}\n\
        active proctype Server() {\n  byte n;\n  do\n  :: c?req,n -> last = req\n\
          :: c?ack,n -> assert(false)\n  od\n}\n";
    let m = load_promela(client_server).unwrap_or_else(|d| panic!("{}", d.message));
    let r = bfs(&m, Goal::Assert, &Budget::unlimited());
    assert!(r.violation.is_none(), "no `ack` is ever sent");
    assert_eq!((r.states, r.transitions + 1), (50, 82), "SPIN's counts");
    for (bad, word) in [
        ("mtype = { a, a };\n", "already an mtype name"),
        (
            "mtype = { a }\nmtype = { b, a };\n",
            "already an mtype name",
        ),
        ("typedef T { byte x };\n", "`typedef` is not supported"),
    ] {
        let d = load_promela(bad)
            .err()
            .unwrap_or_else(|| panic!("{bad:?} accepted"));
        assert!(d.message.contains(word), "{bad:?}: {}", d.message);
    }
}

/// `run` with arguments: scalar parameters take the constant passed, a channel parameter the
/// global channel passed (each instance its own binding); the state space equals SPIN's
/// (SPIN-STATES.tsv, `pan -E` without reduction and without SPIN's data-flow optimisations and
/// statement merging) up to the 2-state `init` prefix this reader
/// folds, and less the initial state SPIN counts as a transition. Wrong calls are refused.
#[test]
fn run_with_arguments_has_spins_state_space() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected/promela");
    let table = std::fs::read_to_string(dir.join("SPIN-STATES.tsv")).unwrap();
    let row: Vec<&str> = table
        .lines()
        .find(|l| l.starts_with("run_args.pml\t"))
        .unwrap()
        .split('\t')
        .collect();
    let (s, t): (u64, u64) = (row[1].parse().unwrap(), row[2].parse().unwrap());
    assert_eq!(row[5], "2-state");
    let text = std::fs::read_to_string(dir.join("run_args.pml")).unwrap();
    let src = SourceFile::new("run_args.pml", text.clone());
    let m = load_source(&src).unwrap_or_else(|d| panic!("{}", d.render(&src)));
    let r = bfs(&m, Goal::Explore, &Budget::unlimited());
    assert!(r.complete);
    assert_eq!((r.states + 2, r.transitions + 3), (s, t), "SPIN's counts");
    let r = bfs(&m, Goal::Assert, &Budget::unlimited());
    assert!(r.violation.is_none(), "every value sent is below 3");
    // The arguments are observable: Producer 2 sends a 2.
    let wrong = text.replace("run Consumer(q, 3)", "run Consumer(q, 2)");
    let m = load_promela(&wrong).unwrap();
    let r = bfs(&m, Goal::Assert, &Budget::unlimited());
    let v = r.violation.expect("2 < 2 fails");
    assert!(
        matches!(v.kind, ViolationKind::Assert { .. }),
        "{:?}",
        v.kind
    );
    let dec: Vec<DecodedState> = v.trace.states.iter().map(|x| m.decode(x)).collect();
    replay_trace(m.ast(), &dec).unwrap();
    for (bad, word) in [
        ("run Producer(1, 2, q)", "run Producer(1, 2)"),
        ("run Producer(1, 2, q)", "run Producer(1, 2, total)"),
        (
            "proctype Producer(byte id, count; chan out)",
            "proctype Producer(byte id[2], count; chan out)",
        ),
        ("run Consumer(q, 3)", "run Consumer(q, last)"),
    ] {
        let text = text.replace(bad, word);
        assert!(load_promela(&text).is_err(), "{word}: accepted");
    }
    let d = load_promela("active proctype P(chan c) { c!1 }").expect_err("active with a channel");
    assert!(d.message.contains("channel parameter"), "{}", d.message);
}

/// Stored states of `text` as `mc info` counts them by default (SPIN's data-flow reset).
fn spin_default_states(text: &str) -> (u64, u64) {
    let src = SourceFile::new("t.pml", text.to_string());
    let m = load_source_for(&src, &Check::Default, Dataflow::Spin)
        .unwrap_or_else(|d| panic!("{}", d.render(&src)));
    let r = bfs(&m, Goal::Explore, &Budget::unlimited());
    assert!(r.complete);
    (r.states, r.deadlocks)
}

/// Rendezvous inside `atomic` as SPIN 6.5.2 executes it: a receive never starts a rendezvous (a
/// sequence waiting on one is blocked and yields), a send gives up the sequence's exclusivity
/// and passes control to the receiver. Expected values: SPIN's stored states, `spin -a M.pml;
/// gcc -DNOREDUCE -DSAFETY pan.c; ./pan -n` (no `init` prefix: the processes are `active`).
#[test]
fn rendezvous_inside_atomic_stores_spins_states() {
    let model = |s: &str, r: &str| {
        format!(
            "chan c = [0] of {{byte}};\nbyte x, z, v;\n\
             active proctype S() {{ {s} }}\nactive proctype R() {{ {r} }}\n\
             active proctype Q() {{ do :: z < 2 -> z++ :: z == 2 -> z = 0 od }}\n"
        )
    };
    let cases = [
        // plain rendezvous (SPIN keeps `v`, written only by a receive, in the state)
        (
            "do :: c!1; x = 1; x = 0 od",
            "do :: c?v; x = 2; x = 0 od",
            60,
        ),
        // receive first in the receiver's sequence
        (
            "do :: c!1; x = 1; x = 0 od",
            "do :: atomic { c?v; x = 2; x = 3 }; x = 0 od",
            42,
        ),
        // send last in the sender's sequence
        (
            "do :: atomic { x == 0; c!1 }; x = 1; x = 0 od",
            "do :: c?v; x = 2; x = 0 od",
            102,
        ),
        // send inside the sender's sequence, to a receiver's sequence
        (
            "do :: atomic { x == 0; c!1; x = 5 }; x = 1; x = 0 od",
            "do :: atomic { c?v; x = 2 }; x = 0 od",
            78,
        ),
        // a sequence that waits on a receive yields: every process moves
        (
            "do :: c!1; x = 1; x = 0 od",
            "do :: atomic { x == 0; c?v; x = 2; x = 3 }; x = 0 od",
            78,
        ),
    ];
    for (s, r, spin) in cases {
        let m = model(s, r);
        assert_eq!(spin_default_states(&m).0, spin, "{m}");
    }
    // A trace through a yielding sequence and a rendezvous replays in the interpreter.
    let stuck = "chan c = [0] of {byte};\nbyte x, v;\n\
        active proctype S() { do :: c!1; x = 1 od }\n\
        active proctype R() { do :: atomic { x == 0; c?v; x = 2 } od }\n";
    assert_eq!(
        spin_default_states(stuck),
        (4, 1),
        "SPIN: 4 states, 1 invalid end state"
    );
    let m = load_promela(stuck).unwrap();
    let v = bfs(&m, Goal::Deadlock, &Budget::unlimited())
        .violation
        .expect("x = 1 stops R");
    let states: Vec<_> = v.trace.states.iter().map(|s| m.decode(s)).collect();
    replay_trace(&parse_promela(stuck).unwrap(), &states)
        .unwrap_or_else(|e| panic!("trace does not replay: {e}"));
}

/// SPIN's exclusivity in `atomic` belongs to the one process that moved last inside its
/// sequence (`pan.c`: `From = To = II` after a step with `atom&2`); when that process is blocked
/// the state is stored and every process moves — also a process still inside its own sequence
/// that was blocked before and has lost its exclusivity. Expected values: SPIN 6.5.2,
/// `spin -a M.pml; gcc -DNOREDUCE -DSAFETY pan.c; ./pan -n` (states stored, assertion
/// violations with `-E` off).
#[test]
fn atomic_exclusivity_belongs_to_the_last_process_that_moved() {
    // S blocks on its send inside `atomic`; R then enters its own sequence and blocks on the
    // receive: R is the exclusive one, blocked, so every process moves (S's send among them).
    // Before: every committed process moved, 138 states.
    let two = "chan c = [0] of {byte};\nbyte x, z, v;\n\
        active proctype S() { do :: atomic { x == 0; c!1 }; x = 1; x = 0 od }\n\
        active proctype R() { do :: atomic { x == 0; c?v }; x = 2; x = 0 od }\n\
        active proctype Q() { do :: z < 2 -> z++ :: z == 2 -> z = 0 od }\n";
    assert_eq!(spin_default_states(two), (150, 0), "{two}");
    // A blocks on `y == 1`; B's `y = 1` enables it, but A lost its exclusivity when it blocked:
    // B goes on (`w = 1`) while A waits inside. Before: A alone moved, 36 states.
    let lost = "byte x, y, w, z;\n\
        active proctype A() { do :: atomic { x = 1; y == 1; x = 0 } od }\n\
        active proctype B() { do :: y = 1; w = 1; w = 0; y = 0 od }\n\
        active proctype Q() { do :: z < 2 -> z++ :: z == 2 -> z = 0 od }\n";
    assert_eq!(spin_default_states(lost), (48, 0), "{lost}");
    // The state where A waits inside and B has written `w` is reachable (SPIN: assertion
    // violated at depth 4); its trace replays in the interpreter under SPIN's rule.
    let reach = "byte x, y, w;\n\
        active proctype A() { do :: atomic { x = 1; y == 1; x = 0 } od }\n\
        active proctype B() { do :: y = 1; w = 1; w = 0; y = 0 od }\n\
        active proctype C() { x == 1 && w == 1; assert(false) }\n";
    let m = load_promela(reach).unwrap();
    let v = bfs(&m, Goal::Assert, &Budget::unlimited())
        .violation
        .expect("SPIN reaches the assertion");
    assert_eq!(v.trace.states.len(), 5, "SPIN: depth 4");
    let states: Vec<_> = v.trace.states.iter().map(|s| m.decode(s)).collect();
    let ast = parse_promela(reach).unwrap();
    replay_trace(&ast, &states).unwrap_or_else(|e| panic!("trace does not replay: {e}"));
    // A passes `y == 1` only while B, exclusive, is inside its sequence: never in SPIN (no
    // assertion violation, 2 states). With every committed process moving (the lowered
    // model's committed states, `-x mc.atomic=store`) it does, and the replay refuses that
    // trace under SPIN's rule.
    let never = "byte x, y, w;\n\
        active proctype A() { atomic { x = 1; y == 1; assert(false) } }\n\
        active proctype B() { do :: atomic { y = 1; w = 1; w = 0; y = 0 } od }\n";
    let mut m = load_promela(never).unwrap();
    let r = bfs(&m, Goal::Assert, &Budget::unlimited());
    assert!(r.violation.is_none() && r.complete);
    assert_eq!(spin_default_states(never).0, 2);
    m.set_through_atomic(false);
    let v = bfs(&m, Goal::Assert, &Budget::unlimited())
        .violation
        .expect("committed states let A move inside B's sequence");
    let states: Vec<_> = v.trace.states.iter().map(|s| m.decode(s)).collect();
    let err = replay_trace(&parse_promela(never).unwrap(), &states).unwrap_err();
    assert!(err.contains("not a transition"), "{err}");
}

/// The deadlock traces of shared models whose state spaces changed with SPIN's exclusivity (a
/// sequence blocked on a rendezvous, another process entering its own) replay in the
/// interpreter, which follows the exclusivity along the path.
#[test]
fn deadlock_traces_through_atomic_sequences_replay() {
    let dir = verikit_testkit::require_data!("beem");
    for pm in [
        "lann/lann.1.pm",
        "krebs/krebs.1.pm",
        "needham/needham.1.pm",
        "brp/brp.1.pm",
    ] {
        let text = std::fs::read_to_string(dir.join(pm)).unwrap();
        let src = SourceFile::new(pm, text);
        let m = load_source(&src).unwrap_or_else(|d| panic!("{}", d.render(&src)));
        let v = bfs(&m, Goal::Deadlock, &Budget::unlimited())
            .violation
            .unwrap_or_else(|| panic!("{pm}: SPIN reports invalid end states"));
        let states: Vec<_> = v.trace.states.iter().map(|s| m.decode(s)).collect();
        replay_trace(m.ast(), &states)
            .unwrap_or_else(|e| panic!("{pm}: the trace does not replay: {e}"));
    }
}

/// SPIN's data-flow reset (`spin -a`'s default, off with `-o1`): a dead local is reset to 0 by
/// the step that last uses it — a write, or a condition or receive that reads it; not by an
/// assignment that only reads it (`next[pred] = 1`), nor by `else` or `d_step`. Only write-only
/// globals are hidden, and a receive into a variable is a read. SPIN's counts for the shared
/// models are SPIN-CHECK.tsv's (`spin -a`, `-DNOREDUCE`); SPIN stores 2 more states where
/// `init` starts the processes.
#[test]
fn spins_data_flow_reset_gives_spins_state_counts() {
    let dir = verikit_testkit::require_data!("beem");
    let rows = spin_rows(&dir);
    let mut bad = Vec::new();
    for pm in [
        "mcs/mcs.1.pm",
        "peterson/peterson.1.pm",
        "bakery/bakery.1.pm",
        "sorter/sorter.1.pm",
        "iprotocol/iprotocol.1.pm",
        "public_subscribe/public_subscribe.1.pm",
        "reader_writer/reader_writer.1.pm",
        "bopdp/bopdp.1.pm",
        "leader_filters/leader_filters.1.pm",
        // SPIN's exclusivity in `atomic` (the last process to move inside its sequence)
        "needham/needham.1.pm",
        "brp/brp.1.pm",
        "krebs/krebs.1.pm",
        "lann/lann.1.pm",
    ] {
        let Some((_, s, _, e, _)) = rows.iter().find(|r| r.0 == pm) else {
            panic!("{pm} is not in SPIN-CHECK.tsv");
        };
        let text = std::fs::read_to_string(dir.join(pm)).unwrap();
        let prefix = if text.lines().any(|l| l.trim_start().starts_with("init")) {
            2
        } else {
            0
        };
        let (states, deadlocks) = spin_default_states(&text);
        if states + prefix != *s || deadlocks != *e {
            bad.push(format!(
                "{pm}: {states}+{prefix} states, {deadlocks} deadlocks; SPIN {s}, {e}"
            ));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}
