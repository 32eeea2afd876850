//! Every command prints through the one `Answer` type: with `--json`, stdout is exactly one JSON
//! object; a decision command's `verdict` is one of `true | false | unknown | timeout | error`;
//! `input`, `stats` and `times` are objects, `results` an array of answers of the same shape, and a
//! `false` verdict of a command that promises a witness carries one under `witness`.
//!
//! The table below must name every subcommand `--help` lists: a new command without a row fails.

use serde_json::Value;
use std::collections::BTreeSet;
use std::process::Command;

const VERDICTS: [&str; 5] = ["true", "false", "unknown", "timeout", "error"];

/// What a row's command is: `Plain` prints a result without a verdict, `Decision` answers a
/// verdict, `Witnessed` answers a verdict and promises a witness with a `false` one.
/// (The rows are behind cargo features, so a build with one feature may use only some kinds.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(dead_code)]
enum Kind {
    Plain,
    Decision,
    Witnessed,
}

/// (group, command, arguments after it, what the command is)
type Row = (&'static str, &'static str, &'static [&'static str], Kind);

/// The rows, one a line: `"feature": "group" "command" [arguments] Kind;` (command `""` for a
/// group without subcommands), each behind its cargo feature.
macro_rules! rows {
    ($($feature:literal: $group:literal $cmd:literal [$($arg:literal),*] $kind:ident;)*) => {
        vec![$(
            #[cfg(feature = $feature)]
            ($group, $cmd, &[$($arg),*] as &'static [&'static str], Kind::$kind),
        )*]
    };
}

fn rows() -> Vec<Row> {
    let mut rows: Vec<Row> = rows! {
        "nfa": "nfa" "univ" ["demo/nfa/has-a.mata"] Witnessed;
        "nfa": "nfa" "incl" ["demo/nfa/has-a.mata", "demo/nfa/ends-ab.mata"] Witnessed;
        "nfa": "nfa" "equiv" ["demo/nfa/ends-ab.mata", "demo/nfa/has-a.mata"] Witnessed;
        "nfa": "nfa" "gen" ["-n", "5", "-k", "2", "--seed", "3"] Plain;
        "nfa": "nfa" "reduce" ["demo/nfa/has-a.mata"] Plain;
        "nfa": "nfa" "convert" ["demo/nfa/has-a.mata", "--to", "ba"] Plain;
        "nfa": "nfa" "info" ["demo/nfa/has-a.mata"] Plain;
        "smt": "smt" "" ["demo/smt/knapsack.smt2"] Decision;
        "omega": "ltl" "parse" ["G F a"] Plain;
        "omega": "ltl" "simplify" ["G F (a & X a)"] Plain;
        "omega": "ltl" "translate" ["G (a -> F b)"] Plain;
        "omega": "ltl" "translate" ["-D", "-P", "FG a | GF b"] Plain;
        "omega": "ltl" "check" ["G F a", "cycle{!a}"] Decision;
        "omega": "ltl" "rand" ["-n", "3", "--seed", "2"] Plain;
        "omega": "aut" "stats" ["demo/omega/arbiter.hoa"] Plain;
        "omega": "aut" "print" ["demo/omega/arbiter.hoa"] Plain;
        "omega": "aut" "simplify" ["demo/omega/arbiter.hoa"] Plain;
        "omega": "aut" "product" ["demo/omega/arbiter.hoa", "demo/omega/arbiter.hoa"] Plain;
        "omega": "aut" "is-empty" ["demo/omega/arbiter.hoa"] Witnessed;
        "omega": "aut" "accepts" ["demo/omega/arbiter.hoa", "cycle{req & !grant}"] Decision;
        "omega": "aut" "reduce" ["demo/omega/arbiter.hoa"] Plain;
        "omega": "aut" "determinize" ["demo/omega/arbiter.hoa"] Plain;
        "omega": "aut" "included" ["demo/omega/arbiter.hoa", "demo/omega/arbiter.hoa"] Witnessed;
        "omega": "aut" "filter" ["demo/omega/arbiter.hoa"] Decision;
        "omega": "aut" "complement" ["demo/omega/arbiter.hoa"] Plain;
        "bn": "bn" "attractors" ["demo/bn/example5.bnet"] Plain;
        "bn": "bn" "fixed-points" ["demo/bn/example5.bnet"] Plain;
        "bn": "bn" "info" ["demo/bn/example5.bnet"] Plain;
        "bn": "bn" "gen" ["-n", "12", "--seed", "4"] Plain;
        "bn": "bn" "convert" ["demo/bn/example5.bnet"] Plain;
        "prism": "prism" "check" ["demo/prism/die.prism", "demo/prism/die.props"] Plain;
        "prism": "prism" "build" ["demo/prism/die.prism"] Plain;
        "prism": "prism" "bisim" ["demo/prism/fig1.prism"] Plain;
        // `false` is "unreachable": no trace to show (a `true` answer carries the trace).
        "ta": "ta" "reach" ["demo/ta/fischer2.tck", "--labels", "cs1,cs2"] Decision;
        "mc": "mc" "check" ["demo/mc/peterson2.dve", "--ltl", "G(\"P_0.idle\" -> F \"P_0.cs\")"] Witnessed;
        "mc": "mc" "check" ["demo/mc/peterson2.dve", "--ltl", "G(\"P_0.idle\" -> F \"P_0.cs\")", "--threads", "2", "--algorithm", "map"] Witnessed;
        "mc": "mc" "check" ["demo/mc/peterson2.dve", "--ltl", "G(\"P_0.idle\" -> F \"P_0.cs\")", "--workers", "2"] Witnessed;
        "mc": "mc" "info" ["demo/mc/peterson2.dve"] Plain;
        "mc": "mc" "info" ["demo/mc/peterson2.dve", "--workers", "2"] Plain;
        "prog": "prog" "verify" ["demo/prog/off_by_one.c"] Witnessed;
        "prog": "prog" "verify" ["demo/prog/off_by_one.c", "--engine", "cegar"] Witnessed;
        "prog": "prog" "verify" ["demo/prog/count_up.c", "--engine", "kind"] Witnessed;
        "prog": "prog" "to-chc" ["demo/prog/count_up.c"] Plain;
        "prog": "prog" "to-smt" ["demo/prog/count_up.c", "--bound", "2"] Plain;
        "prog": "prog" "chc" ["demo/prog/counter_bug.smt2"] Witnessed;
        "aig": "aig" "check" ["demo/aig/counter.aag"] Witnessed;
        "aig": "aig" "check" ["demo/aig/mod3.aag", "--justice", "1"] Witnessed;
        "aig": "aig" "check" ["demo/aig/mod3.aag", "--justice", "0"] Witnessed;
        "aig": "aig" "check" ["demo/aig/mod3.aag", "--ltl", "F G !en"] Witnessed;
        "aig": "aig" "info" ["demo/aig/ring.aag"] Plain;
        "aig": "aig" "ste" ["demo/aig/mem4x2-bug.aag", "demo/aig/mem4x2.ste"] Witnessed;
        "aig": "aig" "convert" ["demo/aig/ring.aag", "-o", "../../target/ring-schema.aig"] Plain;
        "aig": "aig" "bmc-cnf" ["demo/aig/counter.aag", "-k", "2"] Plain;
        "sat": "sat" "" ["demo/sat/php-4-3.cnf"] Decision;
        "sat": "sat" "core" ["demo/sat/php-4-3.cnf"] Witnessed;
        "sat": "sat" "core" ["demo/sat/php-4-3.gcnf", "--method", "mus"] Witnessed;
        "synt": "synt" "solve" ["demo/synt/arbiter.tlsf"] Witnessed;
        "synt": "synt" "convert" ["demo/synt/arbiter.tlsf"] Plain;
        "ta": "ta" "check" ["demo/ta/fischer2.xml"] Decision;
        "ta": "ta" "info" ["demo/ta/fischer2.xml"] Plain;
        "ta": "ta" "convert" ["demo/ta/fischer2.xml", "--to", "tck"] Plain;
        "ta": "ta" "cta" ["demo/ta/urgent.cta", "--labels", "err"] Witnessed;
        "ta": "ta" "neta" ["demo/ta/frozen.neta", "--labels", "frozen_ok"] Witnessed;
        // `false` is "no accepting cycle": nothing to show (a `true` answer carries the lasso)
        "ta": "ta" "liveness" ["demo/ta/fischer2.tck", "-l", "cs1"] Decision;
    };
    rows.push(("demo", "", &[], Kind::Plain));
    rows
}

fn verikit() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_verikit"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// The subcommands `verikit <group> --help` lists.
fn listed(group: &str) -> BTreeSet<String> {
    let out = verikit().args([group, "--help"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let mut in_cmds = false;
    let mut names = BTreeSet::new();
    for line in text.lines() {
        if line.starts_with("Commands:") {
            in_cmds = true;
            continue;
        }
        if in_cmds {
            if !line.starts_with("  ") {
                break;
            }
            if let Some(name) = line.split_whitespace().next() {
                if name != "help" && !line.starts_with("   ") {
                    names.insert(name.to_string());
                }
            }
        }
    }
    names
}

fn check_shape(v: &Value, what: &str, decision: bool, needs_witness: bool) {
    let o = v
        .as_object()
        .unwrap_or_else(|| panic!("{what}: not a JSON object: {v}"));
    match o.get("verdict") {
        Some(Value::String(s)) => assert!(
            VERDICTS.contains(&s.as_str()),
            "{what}: verdict {s:?} is not one of {VERDICTS:?}"
        ),
        Some(other) => panic!("{what}: verdict is not a string: {other}"),
        None => assert!(
            !decision,
            "{what}: a decision command without a verdict: {v}"
        ),
    }
    for k in ["input", "stats", "times"] {
        if let Some(x) = o.get(k) {
            assert!(x.is_object(), "{what}: `{k}` is not an object: {x}");
        }
    }
    if needs_witness && o.get("verdict").and_then(Value::as_str) == Some("false") {
        assert!(
            o.contains_key("witness"),
            "{what}: false without a witness: {v}"
        );
    }
    if let Some(r) = o.get("results") {
        let items = r
            .as_array()
            .unwrap_or_else(|| panic!("{what}: `results` is not an array"));
        for (i, item) in items.iter().enumerate() {
            check_shape(item, &format!("{what} results[{i}]"), false, needs_witness);
        }
    }
}

#[test]
fn every_command_prints_one_answer() {
    let table = rows();
    // Every listed subcommand has a row.
    let mut groups: BTreeSet<&str> = table.iter().map(|r| r.0).collect();
    groups.remove("demo");
    groups.remove("smt");
    for g in groups {
        let have: BTreeSet<String> = table
            .iter()
            .filter(|r| r.0 == g)
            .map(|r| r.1.to_string())
            .collect();
        for cmd in listed(g) {
            assert!(
                have.contains(&cmd),
                "`verikit {g} {cmd}` has no row in the JSON schema test"
            );
        }
    }
    for (group, cmd, args, kind) in table {
        let mut c = verikit();
        c.arg("--json").arg("-q").arg(group);
        if !cmd.is_empty() {
            c.arg(cmd);
        }
        c.args(args);
        let out = c.output().unwrap();
        let what = format!("verikit --json {group} {cmd} {}", args.join(" "));
        assert_eq!(
            out.status.code(),
            Some(0),
            "{what}: exit {:?}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let mut values = serde_json::Deserializer::from_str(&text).into_iter::<Value>();
        let first = values
            .next()
            .unwrap_or_else(|| panic!("{what}: no JSON on stdout"))
            .unwrap_or_else(|e| panic!("{what}: stdout is not JSON ({e}):\n{text}"));
        assert!(
            values.next().is_none(),
            "{what}: more than one JSON value on stdout:\n{text}"
        );
        check_shape(&first, &what, kind != Kind::Plain, kind == Kind::Witnessed);
        if cfg!(target_os = "linux") {
            let mib = first["stats"]["peak_memory_mib"].as_f64();
            assert!(
                mib.is_some_and(|m| m > 0.0),
                "{what}: no peak memory in the statistics"
            );
        }
    }
}
