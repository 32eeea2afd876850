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

/// (group, command, arguments after it, is a decision command, a false verdict carries a witness)
type Row = (
    &'static str,
    &'static str,
    &'static [&'static str],
    bool,
    bool,
);

fn rows() -> Vec<Row> {
    vec![
        #[cfg(feature = "nfa")]
        ("nfa", "univ", &["demo/nfa/has-a.mata"], true, true),
        #[cfg(feature = "nfa")]
        (
            "nfa",
            "incl",
            &["demo/nfa/has-a.mata", "demo/nfa/ends-ab.mata"],
            true,
            true,
        ),
        #[cfg(feature = "nfa")]
        (
            "nfa",
            "equiv",
            &["demo/nfa/ends-ab.mata", "demo/nfa/has-a.mata"],
            true,
            true,
        ),
        #[cfg(feature = "nfa")]
        (
            "nfa",
            "gen",
            &["-n", "5", "-k", "2", "--seed", "3"],
            false,
            false,
        ),
        #[cfg(feature = "nfa")]
        ("nfa", "reduce", &["demo/nfa/has-a.mata"], false, false),
        #[cfg(feature = "nfa")]
        (
            "nfa",
            "convert",
            &["demo/nfa/has-a.mata", "--to", "ba"],
            false,
            false,
        ),
        #[cfg(feature = "nfa")]
        ("nfa", "info", &["demo/nfa/has-a.mata"], false, false),
        #[cfg(feature = "smt")]
        ("smt", "", &["demo/smt/knapsack.smt2"], true, false),
        #[cfg(feature = "omega")]
        ("ltl", "parse", &["G F a"], false, false),
        #[cfg(feature = "omega")]
        ("ltl", "simplify", &["G F (a & X a)"], false, false),
        #[cfg(feature = "omega")]
        ("ltl", "translate", &["G (a -> F b)"], false, false),
        #[cfg(feature = "omega")]
        (
            "ltl",
            "translate",
            &["-D", "-P", "FG a | GF b"],
            false,
            false,
        ),
        #[cfg(feature = "omega")]
        ("ltl", "check", &["G F a", "cycle{!a}"], true, false),
        #[cfg(feature = "omega")]
        ("ltl", "rand", &["-n", "3", "--seed", "2"], false, false),
        #[cfg(feature = "omega")]
        ("aut", "stats", &["demo/omega/arbiter.hoa"], false, false),
        #[cfg(feature = "omega")]
        ("aut", "print", &["demo/omega/arbiter.hoa"], false, false),
        #[cfg(feature = "omega")]
        ("aut", "simplify", &["demo/omega/arbiter.hoa"], false, false),
        #[cfg(feature = "omega")]
        (
            "aut",
            "product",
            &["demo/omega/arbiter.hoa", "demo/omega/arbiter.hoa"],
            false,
            false,
        ),
        #[cfg(feature = "omega")]
        ("aut", "is-empty", &["demo/omega/arbiter.hoa"], true, true),
        #[cfg(feature = "omega")]
        (
            "aut",
            "accepts",
            &["demo/omega/arbiter.hoa", "cycle{req & !grant}"],
            true,
            false,
        ),
        #[cfg(feature = "omega")]
        ("aut", "reduce", &["demo/omega/arbiter.hoa"], false, false),
        #[cfg(feature = "omega")]
        (
            "aut",
            "determinize",
            &["demo/omega/arbiter.hoa"],
            false,
            false,
        ),
        #[cfg(feature = "omega")]
        (
            "aut",
            "included",
            &["demo/omega/arbiter.hoa", "demo/omega/arbiter.hoa"],
            true,
            true,
        ),
        #[cfg(feature = "omega")]
        ("aut", "filter", &["demo/omega/arbiter.hoa"], true, false),
        #[cfg(feature = "omega")]
        (
            "aut",
            "complement",
            &["demo/omega/arbiter.hoa"],
            false,
            false,
        ),
        #[cfg(feature = "bn")]
        ("bn", "attractors", &["demo/bn/example5.bnet"], false, false),
        #[cfg(feature = "bn")]
        (
            "bn",
            "fixed-points",
            &["demo/bn/example5.bnet"],
            false,
            false,
        ),
        #[cfg(feature = "bn")]
        ("bn", "info", &["demo/bn/example5.bnet"], false, false),
        #[cfg(feature = "bn")]
        ("bn", "gen", &["-n", "12", "--seed", "4"], false, false),
        #[cfg(feature = "bn")]
        ("bn", "convert", &["demo/bn/example5.bnet"], false, false),
        #[cfg(feature = "prism")]
        (
            "prism",
            "check",
            &["demo/prism/die.prism", "demo/prism/die.props"],
            false,
            false,
        ),
        #[cfg(feature = "prism")]
        ("prism", "build", &["demo/prism/die.prism"], false, false),
        #[cfg(feature = "prism")]
        ("prism", "bisim", &["demo/prism/fig1.prism"], false, false),
        #[cfg(feature = "ta")]
        (
            "ta",
            "reach",
            &["demo/ta/fischer2.tck", "--labels", "cs1,cs2"],
            true,
            // `false` is "unreachable": no trace to show (a `true` answer carries the trace).
            false,
        ),
        #[cfg(feature = "mc")]
        (
            "mc",
            "check",
            &[
                "demo/mc/peterson2.dve",
                "--ltl",
                "G(\"P_0.idle\" -> F \"P_0.cs\")",
            ],
            true,
            true,
        ),
        #[cfg(feature = "mc")]
        (
            "mc",
            "check",
            &[
                "demo/mc/peterson2.dve",
                "--ltl",
                "G(\"P_0.idle\" -> F \"P_0.cs\")",
                "--threads",
                "2",
                "--algorithm",
                "map",
            ],
            true,
            true,
        ),
        #[cfg(feature = "mc")]
        (
            "mc",
            "check",
            &[
                "demo/mc/peterson2.dve",
                "--ltl",
                "G(\"P_0.idle\" -> F \"P_0.cs\")",
                "--workers",
                "2",
            ],
            true,
            true,
        ),
        #[cfg(feature = "mc")]
        ("mc", "info", &["demo/mc/peterson2.dve"], false, false),
        #[cfg(feature = "mc")]
        (
            "mc",
            "info",
            &["demo/mc/peterson2.dve", "--workers", "2"],
            false,
            false,
        ),
        #[cfg(feature = "prog")]
        ("prog", "verify", &["demo/prog/off_by_one.c"], true, true),
        #[cfg(feature = "prog")]
        (
            "prog",
            "verify",
            &["demo/prog/off_by_one.c", "--engine", "cegar"],
            true,
            true,
        ),
        #[cfg(feature = "prog")]
        (
            "prog",
            "verify",
            &["demo/prog/count_up.c", "--engine", "kind"],
            true,
            true,
        ),
        #[cfg(feature = "prog")]
        ("prog", "to-chc", &["demo/prog/count_up.c"], false, false),
        #[cfg(feature = "prog")]
        ("prog", "chc", &["demo/prog/counter_bug.smt2"], true, true),
        #[cfg(feature = "aig")]
        ("aig", "check", &["demo/aig/counter.aag"], true, true),
        #[cfg(feature = "aig")]
        (
            "aig",
            "check",
            &["demo/aig/mod3.aag", "--justice", "1"],
            true,
            true,
        ),
        #[cfg(feature = "aig")]
        (
            "aig",
            "check",
            &["demo/aig/mod3.aag", "--justice", "0"],
            true,
            true,
        ),
        #[cfg(feature = "aig")]
        (
            "aig",
            "check",
            &["demo/aig/mod3.aag", "--ltl", "F G !en"],
            true,
            true,
        ),
        #[cfg(feature = "aig")]
        ("aig", "info", &["demo/aig/ring.aag"], false, false),
        #[cfg(feature = "aig")]
        (
            "aig",
            "ste",
            &["demo/aig/mem4x2-bug.aag", "demo/aig/mem4x2.ste"],
            true,
            true,
        ),
        #[cfg(feature = "aig")]
        (
            "aig",
            "convert",
            &["demo/aig/ring.aag", "-o", "../../target/ring-schema.aig"],
            false,
            false,
        ),
        #[cfg(feature = "aig")]
        (
            "aig",
            "bmc-cnf",
            &["demo/aig/counter.aag", "-k", "2"],
            false,
            false,
        ),
        #[cfg(feature = "sat")]
        ("sat", "", &["demo/sat/php-4-3.cnf"], true, false),
        #[cfg(feature = "sat")]
        ("sat", "core", &["demo/sat/php-4-3.cnf"], true, true),
        #[cfg(feature = "sat")]
        (
            "sat",
            "core",
            &["demo/sat/php-4-3.gcnf", "--method", "mus"],
            true,
            true,
        ),
        #[cfg(feature = "synt")]
        ("synt", "solve", &["demo/synt/arbiter.tlsf"], true, true),
        #[cfg(feature = "synt")]
        ("synt", "convert", &["demo/synt/arbiter.tlsf"], false, false),
        #[cfg(feature = "ta")]
        ("ta", "check", &["demo/ta/fischer2.xml"], true, false),
        #[cfg(feature = "ta")]
        ("ta", "info", &["demo/ta/fischer2.xml"], false, false),
        #[cfg(feature = "ta")]
        (
            "ta",
            "cta",
            &["demo/ta/urgent.cta", "--labels", "err"],
            true,
            true,
        ),
        #[cfg(feature = "ta")]
        (
            "ta",
            "neta",
            &["demo/ta/frozen.neta", "--labels", "frozen_ok"],
            true,
            true,
        ),
        #[cfg(feature = "ta")]
        (
            "ta",
            "liveness",
            &["demo/ta/fischer2.tck", "-l", "cs1"],
            true,
            // `false` is "no accepting cycle": nothing to show (a `true` answer carries the lasso)
            false,
        ),
        ("demo", "", &[], false, false),
    ]
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
    for (group, cmd, args, decision, needs_witness) in table {
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
        check_shape(&first, &what, decision, needs_witness);
    }
}
