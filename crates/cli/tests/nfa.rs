#![cfg(feature = "nfa")]
//! `verikit nfa …` end to end: verdicts, witnesses in JSON, error locations and exit codes.

mod common;

use common::fails;
use std::path::{Path, PathBuf};
use std::process::Command;

fn verikit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_verikit"))
}

fn demo(name: &str) -> PathBuf {
    common::demo("nfa", name)
}

/// `verikit --json ARGS`: the answer (`Null` unless stdout is one JSON value) and the exit code.
fn json(args: &[&str]) -> (serde_json::Value, i32) {
    let (code, v, _, _) = common::run(&[&["--json"], args].concat());
    (v, code)
}

/// The verdict of `verikit nfa CMD --algo ALGO [EXTRA…] A B`.
fn verdict(cmd: &str, algo: &str, extra: &[&str], a: &Path, b: &Path) -> serde_json::Value {
    let files = [a.to_str().unwrap(), b.to_str().unwrap()];
    json(&[&["nfa", cmd, "--algo", algo], extra, &files].concat()).0["verdict"].clone()
}

/// Every `nfa reduce --method`.
const REDUCE_METHODS: [&str; 6] = [
    "bisim",
    "sim",
    "sim-hs",
    "sim-lrt",
    "sim-fixpoint",
    "saturate",
];

#[test]
fn inclusion_both_ways_with_witness() {
    let (a, b) = (demo("ends-ab.mata"), demo("has-a.mata"));
    let (v, code) = json(&["nfa", "incl", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(v["verdict"], "true");
    assert!(v["stats"]["size"].as_u64().unwrap() > 0);
    assert_eq!(v["relation"], "included");
    let (v, code) = json(&["nfa", "incl", b.to_str().unwrap(), a.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(v["verdict"], "false");
    assert_eq!(v["relation"], "not-included");
    assert_eq!(v["witness"], serde_json::json!(["a"]));
    assert_eq!(v["replay"]["confirmed"], true);
    for algo in ["antichain", "antichain-sim", "hkc", "subset"] {
        assert_eq!(verdict("incl", algo, &[], &b, &a), "false", "{algo}");
    }
}

#[test]
fn universality_and_equivalence() {
    let a = demo("no-bb.mata");
    for algo in ["backward", "forward", "subset"] {
        let (v, code) = json(&["nfa", "univ", "--algo", algo, a.to_str().unwrap()]);
        assert_eq!(code, 0);
        assert_eq!(v["verdict"], "false", "{algo}");
        assert_eq!(v["replay"]["confirmed"], true);
    }
    let (x, y) = (demo("ends-ab.mata"), demo("has-a.mata"));
    for algo in ["antichain", "antichain-sim", "hkc", "hk", "naive", "subset"] {
        assert_eq!(verdict("equiv", algo, &[], &x, &y), "false", "{algo}");
        assert_eq!(
            verdict("equiv", algo, &["--no-memo"], &x, &x),
            "true",
            "{algo}"
        );
    }
}

#[test]
fn gen_reduce_convert_pipeline() {
    let dir = std::env::temp_dir().join(format!("verikit-nfa-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let g = dir.join("g.mata");
    let out = verikit()
        .args([
            "nfa", "gen", "-n", "30", "-k", "2", "-r", "1.5", "-f", "0.5", "--seed", "4", "-o",
        ])
        .arg(&g)
        .output()
        .unwrap();
    assert!(out.status.success());
    for method in REDUCE_METHODS {
        let r = dir.join(format!("r-{method}.ba"));
        let out = verikit()
            .args(["nfa", "reduce", "--method", method, "--to", "ba", "-o"])
            .arg(&r)
            .arg(&g)
            .output()
            .unwrap();
        common::assert_success(&out);
        let (v, _) = json(&["nfa", "equiv", g.to_str().unwrap(), r.to_str().unwrap()]);
        assert_eq!(v["verdict"], "true", "{method}");
    }
    let out = verikit()
        .args(["nfa", "convert", "--to", "dot"])
        .arg(&g)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("digraph"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn alphabet_reconciliation_is_reported() {
    let dir = std::env::temp_dir().join(format!("verikit-nfa-alpha-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = dir.join("a.mata");
    let b = dir.join("b.mata");
    std::fs::write(&a, "@NFA-explicit\n%Initial p\n%Final p\np x p\n").unwrap();
    std::fs::write(&b, "@NFA-explicit\n%Initial q\n%Final q\nq x q\nq y q\n").unwrap();
    let (v, _) = json(&["nfa", "incl", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(v["verdict"], "true");
    assert_eq!(
        v["alphabet_reconciliation"]["only_in_second"],
        serde_json::json!(["y"])
    );
    let (v, _) = json(&["nfa", "incl", b.to_str().unwrap(), a.to_str().unwrap()]);
    assert_eq!(v["verdict"], "false");
    assert_eq!(v["witness"], serde_json::json!(["y"]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_located_with_exit_2() {
    let a = common::tmp(
        "nfa-bad",
        "bad.mata",
        "@NFA-bits\n%Initial q0\nq0 (a1 & ) q1\n",
    );
    fails(&["nfa", "univ", a.to_str().unwrap()], 2, &["bad.mata:3:"]);
    let _ = std::fs::remove_dir_all(a.parent().unwrap());
}

#[test]
fn armc_problems_match_file_names() {
    let Some(dir) = verikit_testkit::shared_path("nfa/armc-incl") else {
        return;
    };
    for name in [
        "false-T11",
        "true-T227",
        "false-IBakery-4P-BinEnc-BwBad-A-1",
    ] {
        let (l, r) = (
            dir.join(format!("{name}-lhs.mata")),
            dir.join(format!("{name}-rhs.mata")),
        );
        if !l.exists() {
            continue;
        }
        let (v, code) = json(&["nfa", "incl", l.to_str().unwrap(), r.to_str().unwrap()]);
        assert_eq!(code, 0);
        assert_eq!(
            v["verdict"],
            if name.starts_with("true") {
                "true"
            } else {
                "false"
            },
            "{name}"
        );
    }
}

#[test]
fn demo_runs() {
    let out = verikit().arg("demo").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("== nfa:"), "{text}");
    assert!(text.contains("counterexample"), "{text}");
}

#[test]
fn regex_front_end() {
    let dir = std::env::temp_dir().join(format!("verikit-nfa-re-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let r = dir.join("ends-ab.re");
    std::fs::write(&r, "(a|b)*ab\n").unwrap();
    let (v, code) = json(&[
        "nfa",
        "equiv",
        r.to_str().unwrap(),
        demo("ends-ab.mata").to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["verdict"], "true");
    let bad = dir.join("bad.re");
    std::fs::write(&bad, "(a|b\n").unwrap();
    fails(&["nfa", "univ", bad.to_str().unwrap()], 2, &["bad.re:"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The email-filter pairs (`autI.mata`, `autJ.mata`) the symbolic algorithms are compared on,
/// both ways round with `both_ways`; `None` (the test skips) without the shared data.
fn email_filter_pairs(both_ways: bool) -> Option<Vec<(String, String, String)>> {
    let Some(d) = verikit_testkit::shared_path("nfa/email-filter") else {
        eprintln!("skipping: no email-filter data");
        return None;
    };
    let file = |i: i32| d.join(format!("aut{i}.mata")).to_str().unwrap().to_string();
    let mut pairs = Vec::new();
    for (i, j) in [(0, 3), (10, 73), (5, 5), (40, 40), (65, 8)] {
        pairs.push((format!("aut{i} vs aut{j}"), file(i), file(j)));
        if both_ways {
            pairs.push((format!("aut{j} vs aut{i}"), file(j), file(i)));
        }
    }
    Some(pairs)
}

/// Symbolic HKC (`--algo hkc-bdd`) agrees with explicit HKC on email-filter pairs, and symbolic
/// inclusion (`--algo antichain-bdd`, alias `symbolic`) with explicit antichains in both
/// directions; their counterexamples are replayed (the CLI refuses to report a word that does not
/// replay).
#[test]
fn symbolic_algorithms_on_email_filter() {
    for (cmd, symbolic, explicit, both_ways) in [
        ("equiv", "hkc-bdd", "hkc", false),
        ("incl", "symbolic", "antichain", true),
    ] {
        let Some(pairs) = email_filter_pairs(both_ways) else {
            return;
        };
        for (what, a, b) in &pairs {
            let (s, _) = json(&["nfa", cmd, "--algo", symbolic, a, b]);
            let (e, _) = json(&["nfa", cmd, "--algo", explicit, a, b]);
            assert_eq!(s["verdict"], e["verdict"], "{cmd}: {what}");
            if cmd == "incl" {
                assert_eq!(s["algorithm"], "antichain-bdd");
            }
            if s["verdict"] == "false" {
                assert_eq!(s["replay"]["confirmed"], true);
                if cmd == "incl" {
                    assert_eq!(s["replay"]["accepted_by_a"], true);
                }
            }
        }
    }
}

/// Preprocessing (`--pre sim` saturation, `--pre bisim`) keeps the answers of inclusion and
/// equivalence.
#[test]
fn preprocessing_keeps_answers() {
    let files = [demo("ends-ab.mata"), demo("has-a.mata"), demo("no-bb.mata")];
    for (x, y) in [(0, 1), (1, 0), (0, 2), (2, 2)] {
        let (a, b) = (files[x].to_str().unwrap(), files[y].to_str().unwrap());
        preprocessing_pair(a, b);
    }
}

fn preprocessing_pair(a: &str, b: &str) {
    for (cmd, algo) in [
        ("incl", "antichain"),
        ("incl", "hkc"),
        ("equiv", "hkc"),
        ("equiv", "antichain"),
    ] {
        let (plain, _) = json(&["nfa", cmd, "--algo", algo, a, b]);
        for pre in ["sim", "bisim"] {
            let (v, code) = json(&["nfa", cmd, "--algo", algo, "--pre", pre, a, b]);
            assert_eq!(code, 0);
            assert_eq!(v["verdict"], plain["verdict"], "{cmd} {algo} --pre {pre}");
            if v["verdict"] == "false" {
                assert_eq!(v["replay"]["confirmed"], true);
            }
        }
    }
}

fn tmp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("verikit-nfa-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> std::process::Output {
    verikit().args(args).output().unwrap()
}

/// The values `--help` lists for each option, parsed from clap's long help (`- name: doc`).
fn listed_values(sub: &str) -> Vec<(String, Vec<String>)> {
    let out = run(&["nfa", sub, "--help"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let mut opts: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("--")
            || (t.starts_with('-') && t.chars().nth(1).is_some_and(|c| c.is_ascii_alphabetic()))
        {
            let name = t
                .split([' ', ','])
                .find(|w| w.starts_with("--"))
                .unwrap_or(t)
                .to_string();
            opts.push((name, Vec::new()));
        } else if let Some(v) = t.strip_prefix("- ") {
            let v = v.split(':').next().unwrap().trim().to_string();
            opts.last_mut().unwrap().1.push(v);
        } else if let Some(list) = t.strip_prefix("[possible values: ") {
            let list = list.trim_end_matches(']');
            for v in list.split(", ") {
                opts.last_mut().unwrap().1.push(v.to_string());
            }
        }
    }
    opts.retain(|(_, v)| !v.is_empty());
    opts
}

/// Issue 18 item 15: the help lists every accepted `--algo`, `--pre`, `--method`, `--from` and
/// `--to` value, and every listed value is accepted (runs to completion on a small input).
#[test]
fn help_lists_exactly_the_accepted_values() {
    let dir = tmp_dir("help");
    let bits_a = dir.join("a.mata");
    let bits_b = dir.join("b.mata");
    std::fs::write(
        &bits_a,
        "@NFA-bits\n%Initial q0\n%Final q1\nq0 a1 q1\nq1 \\true q1\n",
    )
    .unwrap();
    std::fs::write(&bits_b, "@NFA-bits\n%Initial p\n%Final p\np (a1 | a2) p\n").unwrap();
    let inputs = [
        (
            "mata",
            dir.join("x.txt"),
            "@NFA-explicit\n%Initial q\n%Final q\nq a q\n",
        ),
        ("ba", dir.join("y.txt"), "[0]\na,[0]->[0]\n[0]\n"),
        (
            "timbuk",
            dir.join("z.txt"),
            "Ops x:0 a:1\nAutomaton A\nStates q\nFinal States q\nTransitions\nx -> q\na(q) -> q\n",
        ),
        ("regex", dir.join("w.txt"), "(a|b)*\n"),
    ];
    for (_, p, t) in &inputs {
        std::fs::write(p, t).unwrap();
    }
    let (a, b) = (bits_a.to_str().unwrap(), bits_b.to_str().unwrap());
    let no_bb = demo("no-bb.mata");
    let no_bb = no_bb.to_str().unwrap();
    // Values the engine implements (the accepted set), per subcommand and option.
    let accepted: &[(&str, &str, &[&str])] = &[
        ("univ", "--algo", &["auto", "backward", "forward", "subset"]),
        (
            "incl",
            "--algo",
            &[
                "auto",
                "antichain",
                "antichain-sim",
                "hkc",
                "antichain-bdd",
                "symbolic",
                "subset",
            ],
        ),
        ("incl", "--pre", &["none", "bisim", "sim"]),
        (
            "equiv",
            "--algo",
            &[
                "auto",
                "antichain",
                "antichain-sim",
                "hkc",
                "hkc-bdd",
                "symbolic",
                "hk",
                "naive",
                "subset",
            ],
        ),
        ("reduce", "--method", &REDUCE_METHODS),
        ("convert", "--from", &["mata", "ba", "timbuk", "regex"]),
        ("convert", "--to", &["mata", "ba", "timbuk", "dot"]),
        ("info", "--from", &["mata", "ba", "timbuk", "regex"]),
    ];
    for (sub, opt, values) in accepted {
        let listed = listed_values(sub);
        let Some((_, got)) = listed.iter().find(|(o, _)| o == opt) else {
            panic!("`nfa {sub} --help` lists no values for {opt}: {listed:?}");
        };
        let mut want: Vec<String> = values.iter().map(|s| s.to_string()).collect();
        let mut got = got.clone();
        want.sort();
        got.sort();
        assert_eq!(got, want, "nfa {sub} {opt}: listed vs accepted");
        for v in values.iter() {
            let out = match (*sub, *opt) {
                ("univ", _) => run(&["nfa", "univ", opt, v, no_bb]),
                ("incl" | "equiv", _) => run(&["nfa", sub, opt, v, a, b]),
                ("reduce", _) => run(&["nfa", "reduce", opt, v, no_bb]),
                (_, "--to") => run(&["nfa", sub, opt, v, no_bb]),
                _ => {
                    let (_, p, _) = inputs.iter().find(|(f, _, _)| f == v).unwrap();
                    run(&["nfa", sub, opt, v, p.to_str().unwrap()])
                }
            };
            assert!(
                out.status.success(),
                "nfa {sub} {opt} {v}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 18 item 15: verdict lines say what holds or fails without reading the verdict word.
#[test]
fn verdict_lines_are_unambiguous() {
    let (x, y) = (demo("ends-ab.mata"), demo("has-a.mata"));
    let (x, y) = (x.to_str().unwrap(), y.to_str().unwrap());
    let text = |args: &[&str]| String::from_utf8_lossy(&run(args).stdout).to_string();
    assert!(text(&["nfa", "incl", x, y]).starts_with("true: L(A) ⊆ L(B)\n"));
    assert!(text(&["nfa", "incl", y, x]).starts_with("false: L(A) ⊄ L(B)\n"));
    assert!(text(&["nfa", "equiv", x, y]).starts_with("false: L(A) ≠ L(B)\n"));
    assert!(text(&["nfa", "equiv", x, x]).starts_with("true: L(A) = L(B)\n"));
    let nb = demo("no-bb.mata");
    assert!(text(&["nfa", "univ", nb.to_str().unwrap()]).starts_with("false: L(A) ≠ Σ*\n"));
}

/// Issue 18 item 15: a file of another kind says what it looks like.
#[test]
fn wrong_kind_of_file_is_named() {
    let dir = tmp_dir("kind");
    for (name, text, kind) in [
        (
            "a.hoa",
            "HOA: v1\nStates: 1\nStart: 0\nAP: 0\n--BODY--\nState: 0\n--END--\n",
            "HOA",
        ),
        (
            "b.smt2",
            "(set-logic QF_LRA)\n(declare-fun x () Real)\n(check-sat)\n",
            "SMT-LIB",
        ),
        (
            "c.pm",
            "dtmc\n\nmodule m\n  s : [0..1] init 0;\n  [] s=0 -> (s'=1);\nendmodule\n",
            "PRISM",
        ),
        ("d.bnet", "targets, factors\nx, !x\n", "Boolean network"),
    ] {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        let out = run(&["nfa", "univ", p.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("looks like") && err.contains(kind),
            "{name}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 18 item 11: extreme numeric options never panic; sizes beyond the limits are refused as
/// resource limits (exit 3) before anything is allocated, nonsense values as usage errors (exit 2).
#[test]
fn extreme_numeric_options_are_refused_cleanly() {
    let nb = demo("no-bb.mata");
    let nb = nb.to_str().unwrap();
    let max = u64::MAX.to_string();
    let cases: &[(&[&str], i32)] = &[
        (&["nfa", "gen", "-n", "1e20"], 2),
        (&["nfa", "gen", "-n", "0"], 2),
        (&["nfa", "gen", "-n", &max], 3),
        (&["nfa", "gen", "-n", "100000000", "-r", "0"], 3),
        (&["nfa", "gen", "-n", "2", "-k", "0"], 2),
        (&["nfa", "gen", "-n", "2", "-k", &max], 3),
        (&["nfa", "gen", "-n", "2", "-k", "100000000", "-r", "0"], 3),
        (&["nfa", "gen", "-n", "4", "-r", "1e308"], 0),
        (&["nfa", "gen", "-n", "4", "-r", "-1"], 2),
        (&["nfa", "gen", "-n", "4", "-r", "NaN"], 2),
        (&["nfa", "gen", "-n", "4", "-r", "inf"], 2),
        (&["nfa", "gen", "-n", "4", "-f", "2"], 2),
        (&["nfa", "gen", "-n", "4", "-f", "NaN"], 2),
        (&["nfa", "gen", "-n", "4", "--seed", &max], 0),
        (&["nfa", "gen", "-n", "4", "--seed", "1e30"], 2),
        (&["nfa", "gen", "-n", "4", "--initial", "4294967295"], 2),
        (&["nfa", "gen", "-n", "4", "--initial", "99999999999"], 2),
        (&["-x", "nfa.gen-max-states=0", "nfa", "gen", "-n", "4"], 2),
        (
            &[
                "-x",
                "nfa.sim-memory-mib=1e30",
                "nfa",
                "reduce",
                "--method",
                "sim",
                nb,
            ],
            2,
        ),
        (
            &["-x", "nfa.auto-hkc-max-letters=-1", "nfa", "equiv", nb, nb],
            2,
        ),
        (&["--timeout", "1e20", "nfa", "univ", nb], 0),
        (&["--timeout", "1e19", "nfa", "equiv", nb, nb], 0),
        (&["--timeout", "1e20", "nfa", "incl", nb, nb], 0),
        (&["--timeout", "1e20", "nfa", "reduce", nb], 0),
        (&["--timeout", "1e20", "nfa", "convert", nb], 0),
        (&["--timeout", "1e20", "nfa", "info", nb], 0),
    ];
    for (args, code) in cases {
        let out = run(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(*code), "{args:?}: {err}");
    }
}

/// `--timeout 1` on a hard real inclusion problem: the engine stops by itself and answers
/// `timeout` (exit 3) well before the watchdog would.
#[test]
fn hard_input_times_out() {
    let Some(dir) = verikit_testkit::shared_path("nfa/armc-incl") else {
        eprintln!("skipping: no armc-incl data");
        return;
    };
    let name = "true-IBakery5PUnrEnc-FbOneOne-Nondet-Partial-A-1";
    let (l, r) = (
        dir.join(format!("{name}-lhs.mata")),
        dir.join(format!("{name}-rhs.mata")),
    );
    if !l.exists() {
        eprintln!("skipping: {name} missing");
        return;
    }
    let algo = "naive";
    let t0 = std::time::Instant::now();
    let out = verikit()
        .args(["--json", "--timeout", "1", "nfa", "equiv", "--algo", algo])
        .args([&l, &r])
        .output()
        .unwrap();
    let secs = t0.elapsed().as_secs_f64();
    assert_eq!(out.status.code(), Some(3), "{algo}");
    let v: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).unwrap();
    assert_eq!(v["verdict"], "timeout", "{algo}");
    // Answered by the engine (it names its algorithm), not by the watchdog.
    assert!(v["algorithm"].is_string(), "{algo}: {v}");
    assert!(secs < 2.0, "{algo}: {secs} s ({v})");
}

/// Issue 18 item 4: `convert` and `reduce` of an `@NFA-bits` automaton keep its alphabet, so a
/// letter without a transition (`!a1`) still makes it non-universal afterwards.
#[test]
fn convert_and_reduce_keep_bits_alphabet() {
    let dir = tmp_dir("bits");
    let a = dir.join("a.mata");
    std::fs::write(&a, "@NFA-bits\n%Initial q0\n%Final q0\nq0 a1 q0\n").unwrap();
    let (v, _) = json(&["nfa", "univ", a.to_str().unwrap()]);
    assert_eq!(v["verdict"], "false");
    for (cmd, to) in [
        ("convert", "mata"),
        ("reduce", "mata"),
        ("convert", "ba"),
        ("reduce", "timbuk"),
    ] {
        let out_path = dir.join(format!("{cmd}.{to}"));
        let out = run(&[
            "nfa",
            cmd,
            "--to",
            to,
            "-o",
            out_path.to_str().unwrap(),
            a.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{cmd} --to {to}");
        let (v, _) = json(&["nfa", "univ", "--from", to, out_path.to_str().unwrap()]);
        assert_eq!(v["verdict"], "false", "{cmd} --to {to}");
        assert_eq!(v["replay"]["confirmed"], true);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
