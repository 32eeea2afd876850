#![cfg(feature = "omega")]
//! `verikit ltl` and `verikit aut`: end-to-end through the binary, witnesses replayed with the
//! binary's own independent checkers (`ltl check` evaluates LTL directly on a lasso word).

mod common;

use common::fails;
use std::io::Write;
use std::process::{Command, Output};

fn verikit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_verikit"))
        .args(args)
        .output()
        .unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = vec!["--json", "-q"];
    a.extend_from_slice(args);
    let out = verikit(&a);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: bad JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// The verdict and the `result` word of an answer (empty where missing).
fn words(v: &serde_json::Value) -> (&str, &str) {
    let (verdict, result) = (v["verdict"].as_str(), v["result"].as_str());
    (verdict.unwrap_or(""), result.unwrap_or(""))
}

fn tmp(name: &str, text: &str) -> std::path::PathBuf {
    common::tmp("omega", name, text)
}

#[test]
fn parse_and_simplify_print_spot_syntax() {
    let out = verikit(&["ltl", "parse", "a & b U c -> []<>d"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "(a & (b U c)) -> GFd"
    );
    let out = verikit(&["ltl", "simplify", "!(FGFa | Xb)"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "FG!a & X!b");
}

#[test]
fn syntax_errors_have_a_caret_and_exit_2() {
    fails(
        &["ltl", "translate", "G(a -> F b"],
        2,
        &["<formula>:1:11", "^"],
    );
    let f = tmp("bad.ltl", "Fa\nG(a U)\n");
    fails(
        &["ltl", "translate", "--stats", "-F", f.to_str().unwrap()],
        2,
        &["bad.ltl:2:6"],
    );
    let h = tmp(
        "bad.hoa",
        "HOA: v1\nStates: 1\nStart: 0\nAcceptance: 1 Fin(0)\nAP: 0\n--BODY--\nState: 0\n--END--\n",
    );
    // co-Büchi is read (issue 19); a generalized-Büchi-only command refuses it by name, at the
    // `Acceptance:` item.
    fails(
        &["aut", "reduce", h.to_str().unwrap()],
        2,
        &["co-Buchi", "Fin(0)", "bad.hoa:4:"],
    );
    let alt = tmp(
        "alt.hoa",
        "HOA: v1\nStates: 2\nStart: 0&1\nAcceptance: 0 t\nAP: 0\n--BODY--\nState: 0\nState: 1\n--END--\n",
    );
    fails(
        &["aut", "stats", alt.to_str().unwrap()],
        2,
        &["alt.hoa:3:", "universal"],
    );
}

#[test]
fn translate_then_check_the_hoa_with_aut_commands() {
    let out = verikit(&["ltl", "translate", "GFa & GFb"]);
    assert!(out.status.success());
    let hoa = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        hoa.starts_with("HOA: v1") && hoa.contains("Acceptance: 2 Inf(0)&Inf(1)"),
        "{hoa}"
    );
    let f = tmp("gfab.hoa", &hoa);
    let fp = f.to_str().unwrap();
    let s = json(&["aut", "stats", fp]);
    assert_eq!(s["stats"]["acc_sets"], 2);
    let e = json(&["aut", "is-empty", fp]);
    assert_eq!(words(&e), ("false", "nonempty"));
    // Replay the witness with the direct LTL evaluator.
    let w = e["witness"].as_str().unwrap().to_string();
    let c = json(&["ltl", "check", "GFa & GFb", &w]);
    assert_eq!(c["verdict"], "true", "witness {w}");
    assert_eq!(c["result"], "satisfied", "witness {w}");
    let yes = json(&["aut", "accepts", fp, "a & !b; cycle{a & b}"]);
    assert_eq!(words(&yes), ("true", "accepted"));
    let no = json(&["aut", "accepts", fp, "cycle{a & !b; !a & !b}"]);
    assert_eq!(words(&no), ("false", "rejected"));
    // SBA output.
    let b = json(&["ltl", "translate", "-B", "--stats", "GFa & GFb"]);
    assert_eq!(b["stats"]["acc_sets"], 1);
    assert_eq!(b["stats"]["state_based"], true);
}

#[test]
fn product_with_the_negation_is_empty_and_complement_works() {
    let pos =
        String::from_utf8_lossy(&verikit(&["ltl", "translate", "a U (b | Gc)"]).stdout).to_string();
    let neg = String::from_utf8_lossy(&verikit(&["ltl", "translate", "!(a U (b | Gc))"]).stdout)
        .to_string();
    let (p, n) = (tmp("pos.hoa", &pos), tmp("neg.hoa", &neg));
    let out = verikit(&["aut", "product", p.to_str().unwrap(), n.to_str().unwrap()]);
    assert!(out.status.success());
    let prod = tmp("prod.hoa", &String::from_utf8_lossy(&out.stdout));
    let e = json(&["aut", "is-empty", prod.to_str().unwrap()]);
    assert_eq!(words(&e), ("true", "empty"));
    let small = String::from_utf8_lossy(&verikit(&["ltl", "translate", "GFa"]).stdout).to_string();
    let s = tmp("gfa.hoa", &small);
    let out = verikit(&["aut", "complement", s.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let c = tmp("cgfa.hoa", &String::from_utf8_lossy(&out.stdout));
    let yes = json(&["aut", "accepts", c.to_str().unwrap(), "a; cycle{!a}"]);
    assert_eq!(words(&yes), ("true", "accepted"));
    let no = json(&["aut", "accepts", c.to_str().unwrap(), "cycle{a; !a}"]);
    assert_eq!(words(&no), ("false", "rejected"));
    let dot = verikit(&["aut", "print", "--dot", s.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&dot.stdout).starts_with("digraph"));
}

#[test]
fn rand_is_reproducible_and_parses_back() {
    let a = verikit(&[
        "ltl", "rand", "--ap", "a,b", "--size", "5..12", "-n", "20", "--seed", "4",
    ]);
    let b = verikit(&[
        "ltl", "rand", "--ap", "a,b", "--size", "5..12", "-n", "20", "--seed", "4",
    ]);
    assert_eq!(a.stdout, b.stdout);
    let text = String::from_utf8_lossy(&a.stdout).to_string();
    assert_eq!(text.lines().count(), 20);
    let f = tmp("rand.ltl", &text);
    let out = verikit(&["ltl", "parse", "-F", f.to_str().unwrap()]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), text);
}

#[test]
fn demo_model_checks_the_arbiter() {
    let d = json(&["demo"]);
    let items = d["demos"].as_array().unwrap();
    let aut = items.iter().find(|i| i["engine"] == "aut").unwrap();
    assert_eq!(words(aut), ("false", "violated"));
    let cex = aut["witness"].as_str().unwrap();
    let c = json(&["ltl", "check", "G(req -> F grant)", cex]);
    assert_eq!(words(&c), ("false", "violated"));
}

#[test]
fn aut_reduce_keeps_the_language_and_reports_the_papers_columns() {
    // A raw tableau (no post-processing) has simulation-equivalent states to merge.
    let f = "G(a -> F b) & GF c";
    let raw = verikit(&["ltl", "translate", "--no-postprocess", f]);
    assert!(raw.status.success());
    let a = tmp("reduce-in.hoa", &String::from_utf8_lossy(&raw.stdout));
    let neg = verikit(&["ltl", "translate", &format!("!({f})")]);
    let n = tmp("reduce-neg.hoa", &String::from_utf8_lossy(&neg.stdout));
    for m in ["direct", "delayed", "fair", "fair+delayed"] {
        let j = json(&["aut", "reduce", "--sim", m, "--stats", a.to_str().unwrap()]);
        assert!(j.get("verdict").is_none(), "{m}: {j}");
        assert_eq!(j["method"], m, "{m}: {j}");
        let st = &j["reduction"];
        let (b, af) = (&st["before"], &st["after"]);
        for col in [
            "states",
            "transitions",
            "acc_sets",
            "accepting_states",
            "initial",
        ] {
            assert!(
                b[col].is_u64() && af[col].is_u64(),
                "{m}: column {col} missing: {st}"
            );
        }
        assert!(af["states"].as_u64() <= b["states"].as_u64(), "{m}: {st}");
        // The reduced automaton intersected with the automaton of the negation is empty...
        let r = tmp(
            &format!("reduced-{}.hoa", m.replace('+', "-")),
            j["hoa"].as_str().unwrap(),
        );
        let p = verikit(&["aut", "product", r.to_str().unwrap(), n.to_str().unwrap()]);
        let ph = tmp("reduce-prod.hoa", &String::from_utf8_lossy(&p.stdout));
        let e = json(&["aut", "is-empty", ph.to_str().unwrap()]);
        assert_eq!(words(&e), ("true", "empty"), "{m}");
        // ... and it still accepts a word of the formula (membership replayed by the binary).
        let acc = json(&["aut", "accepts", r.to_str().unwrap(), "cycle{a & b & c}"]);
        assert_eq!(words(&acc), ("true", "accepted"), "{m}");
        let rej = json(&["aut", "accepts", r.to_str().unwrap(), "cycle{a & !b & c}"]);
        assert_eq!(words(&rej), ("false", "rejected"), "{m}");
    }
    let j = json(&["ltl", "translate", "--stats", "--reduce", "fair+delayed", f]);
    assert!(j["reduction"]["after"]["states"].is_u64());
}

#[test]
fn aut_reduce_rejects_unknown_method() {
    let a = tmp("reduce-bad.hoa", "HOA: v1\nStates: 1\nStart: 0\nAP: 0\nAcceptance: 0 t\n--BODY--\nState: 0\n[t] 0\n--END--\n");
    let out = verikit(&["aut", "reduce", "--sim", "bisim", a.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let out = verikit(&["ltl", "translate", "--reduce", "nope", "a"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `aut included`: `G(a -> Fb)` ⊆ `GFb | FG!a` holds; the converse does not, and its
/// counterexample word is accepted by the first automaton and rejected by the second
/// (`aut accepts`), and satisfies the first formula and not the second (`ltl check`).
#[test]
fn aut_included_answers_with_a_replayable_counterexample() {
    let hoa =
        |f: &str| String::from_utf8_lossy(&verikit(&["ltl", "translate", f]).stdout).to_string();
    let x = tmp("incl-x.hoa", &hoa("G(a -> Fb)"));
    let y = tmp("incl-y.hoa", &hoa("GFb | FG!a"));
    let (xs, ys) = (x.to_str().unwrap(), y.to_str().unwrap());
    let i = json(&["aut", "included", xs, ys]);
    assert_eq!(
        (&i["verdict"], &i["relation"]),
        (&"true".into(), &"included".into())
    );
    let r = json(&["aut", "included", ys, xs]);
    assert_eq!(
        (&r["verdict"], &r["relation"]),
        (&"false".into(), &"not-included".into())
    );
    let w = r["witness"].as_str().unwrap();
    let yes = json(&["aut", "accepts", ys, w]);
    assert_eq!(words(&yes), ("true", "accepted"));
    let no = json(&["aut", "accepts", xs, w]);
    assert_eq!(words(&no), ("false", "rejected"));
    let sat = json(&["ltl", "check", "GFb | FG!a", w]);
    assert_eq!(words(&sat), ("true", "satisfied"));
    let vio = json(&["ltl", "check", "G(a -> Fb)", w]);
    assert_eq!(words(&vio), ("false", "violated"));
    let out = verikit(&["aut", "included", ys, xs]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("false: L(A) ⊄ L(B)"));
    // A budget too small to decide: resource limit, exit 3.
    let out = verikit(&["aut", "included", xs, ys, "--max-elements", "0"]);
    assert_eq!(out.status.code(), Some(3));
}

/// The redirect merges of `ltl translate` keep the language: the default automaton and the one
/// of `--no-redirect-merges` include each other (`aut included`).
#[test]
fn translate_with_and_without_redirect_merges_has_the_same_language() {
    let f = "(a U b) | G(c -> Xb) | F(d & XFc)";
    let hoa = |extra: &[&str]| {
        let mut args = vec!["ltl", "translate"];
        args.extend_from_slice(extra);
        args.push(f);
        let out = verikit(&args);
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let d = tmp("redir-d.hoa", &hoa(&[]));
    let r = tmp("redir-r.hoa", &hoa(&["--no-redirect-merges"]));
    let (ds, rs) = (d.to_str().unwrap(), r.to_str().unwrap());
    for (x, y) in [(ds, rs), (rs, ds)] {
        let j = json(&["aut", "included", x, y]);
        assert_eq!(
            (&j["verdict"], &j["relation"]),
            (&"true".into(), &"included".into())
        );
    }
}

/// Issue 18 item 5: `ltl check` and `aut accepts` share one semantics for lasso words (Spot's: a
/// letter is one full valuation). An under-specified letter, a contradictory one and an unknown
/// proposition are located errors (exit 2) in both; on full valuations they agree.
#[test]
fn check_and_accepts_agree_on_letters() {
    let gfa = tmp(
        "agree-gfa.hoa",
        &String::from_utf8_lossy(&verikit(&["ltl", "translate", "GFa"]).stdout),
    );
    let g = gfa.to_str().unwrap();
    for (word, what) in [
        ("cycle{b}", "unknown atomic proposition `b`"),
        ("cycle{1}", "leaves `a` open"),
        ("cycle{a & !a}", "contradictory"),
        ("cycle{a | !a}", "leaves `a` open"),
    ] {
        for args in [
            vec!["ltl", "check", "GFa", word],
            vec!["aut", "accepts", g, word],
        ] {
            let out = verikit(&args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(
                err.contains(what) && err.contains("<word>:1:"),
                "{args:?}: {err}"
            );
        }
    }
    for (word, want) in [
        ("cycle{a}", "true"),
        ("a; cycle{!a}", "false"),
        ("!a; cycle{a; !a}", "true"),
    ] {
        let c = json(&["ltl", "check", "GFa", word]);
        let a = json(&["aut", "accepts", g, word]);
        assert_eq!(
            (&c["verdict"], &a["verdict"]),
            (&want.into(), &want.into()),
            "{word}"
        );
    }
}

/// Issue 18 item 9: a HOA stream is answered automaton by automaton (`ltl translate -F f.ltl |
/// aut stats -`); a bad automaton in the middle is reported by position and the others are
/// still answered; `ltl translate -F` with a bad line reports it (file:line) and goes on.
#[test]
fn streams_are_answered_per_item_and_survive_bad_items() {
    let f = tmp("three.ltl", "GFa\nG(a U)\na U b\n");
    let out = verikit(&["ltl", "translate", "-F", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("three.ltl:2:6"), "{err}");
    let hoa = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(hoa.matches("HOA: v1").count(), 2, "{hoa}");
    let s = tmp("two.hoa", &hoa);
    let j = json(&["aut", "stats", s.to_str().unwrap()]);
    let items = j["results"].as_array().unwrap();
    assert_eq!(items.len(), 2, "{j}");
    for (item, f) in items.iter().zip(["GFa", "a U b"]) {
        let one = json(&["ltl", "translate", "--stats", f]);
        assert_eq!(item["stats"]["states"], one["stats"]["states"], "{f}");
        assert_eq!(item["stats"]["edges"], one["stats"]["edges"], "{f}");
    }
    // The same stream through standard input, with a bad automaton in the middle.
    let (first, second) = hoa.split_at(hoa.find("--END--").unwrap() + 8);
    let bad = format!(
        "{first}HOA: v1\nStates: 1\nAcceptance: 0 t\n--BODY--\nState: 0\n[0] 3\n--END--\n{second}"
    );
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_verikit"))
        .args(["aut", "stats", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(bad.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("automaton 2") && err.contains("<stdin>:"),
        "{err}"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("states:")).count(),
        2,
        "{text}"
    );
    let j = json(&[
        "aut",
        "stats",
        tmp("bad-stream.hoa", &bad).to_str().unwrap(),
    ]);
    assert_eq!(j["verdict"], "error");
    let v: Vec<_> = j["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["verdict"].clone())
        .collect();
    assert_eq!(
        v,
        vec![
            serde_json::Value::Null,
            "error".into(),
            serde_json::Value::Null
        ]
    );
}

/// Issue 18 item 10 and the budget test of the group: `ltl translate -F` prints each automaton as
/// soon as it is computed and, at the deadline, answers `timeout` (exit 3) for what did not
/// finish, keeping the results already computed.
#[test]
fn formula_batches_stream_and_time_out() {
    let file = verikit_testkit::require_data!("ltl/random.ltl");
    let f = file.to_str().unwrap();
    let t = std::time::Instant::now();
    let out = verikit(&["--timeout", "1", "ltl", "translate", "--stats", "-F", f]);
    let dt = t.elapsed().as_secs_f64();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dt < 2.0, "{dt} s");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("states: ") && text.contains("timeout"),
        "{text}"
    );
    let j = json(&["--timeout", "1", "ltl", "translate", "--stats", "-F", f]);
    assert_eq!(j["verdict"], "timeout");
    let done = j["results"].as_array().unwrap();
    assert!(!done.is_empty() && done.len() < 530, "{}", done.len());
    assert!(done.iter().all(|r| r["stats"]["states"].is_u64()));
}

/// Issue 18 item 15: `ltl rand` drops duplicates and constant formulas, as `randltl` does.
#[test]
fn rand_drops_duplicates_and_constants() {
    for args in [
        vec!["ltl", "rand", "--ap", "1", "--size", "1..2", "-n", "30"],
        vec![
            "ltl", "rand", "--ap", "2", "--size", "2..6", "-n", "300", "--seed", "3",
        ],
    ] {
        let out = verikit(&args);
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let lines: Vec<&str> = text.lines().collect();
        let mut uniq = lines.clone();
        uniq.sort();
        uniq.dedup();
        assert_eq!(uniq.len(), lines.len(), "{args:?}: duplicates in\n{text}");
        assert!(
            !lines.iter().any(|l| *l == "0" || *l == "1"),
            "{args:?}: a constant in\n{text}"
        );
        assert!(!lines.is_empty());
    }
    // Size 1..2 over one proposition has five non-constant formulas: asking for 30 gives those.
    let out = verikit(&["ltl", "rand", "--ap", "1", "--size", "1..2", "-n", "30"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 5);
}

/// Issue 18 item 8 through the binary: `States: 0` is printed back as `States: 0`.
#[test]
fn zero_state_automaton_round_trips() {
    let h = tmp(
        "zero.hoa",
        "HOA: v1\nStates: 0\nAP: 0\nAcceptance: 0 t\n--BODY--\n--END--\n",
    );
    let out = verikit(&["aut", "print", h.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("States: 0\n"));
    let e = json(&["aut", "is-empty", h.to_str().unwrap()]);
    assert_eq!(words(&e), ("true", "empty"));
}

/// `aut filter` as Spot's `autfilt`: a stream of automata with several acceptance conditions,
/// kept by the tests asked for, printed as HOA; exit 0 when something was printed, 1 otherwise.
#[test]
fn aut_filter_like_autfilt() {
    let cob = "HOA: v1\nStates: 1\nStart: 0\nAP: 1 \"a\"\nacc-name: co-Buchi\nAcceptance: 1 Fin(0)\n--BODY--\nState: 0\n[0] 0\n[!0] 0 {0}\n--END--\n";
    let buchi = "HOA: v1\nStates: 1\nStart: 0\nAP: 1 \"a\"\nacc-name: Buchi\nAcceptance: 1 Inf(0)\n--BODY--\nState: 0\n[0] 0 {0}\n[!0] 0\n--END--\n";
    let empty = "HOA: v1\nStates: 1\nStart: 0\nAP: 1 \"a\"\nAcceptance: 2 Fin(0) & Inf(0)\n--BODY--\nState: 0\n[t] 0 {0 1}\n--END--\n";
    let stream = tmp(
        "stream.hoa",
        &format!("{cob}/* two more */\n{buchi}--\n{empty}"),
    );
    let s = stream.to_str().unwrap();
    let out = verikit(&["aut", "filter", s, "--is-empty"]);
    assert_eq!(out.status.code(), Some(0));
    let o = String::from_utf8_lossy(&out.stdout);
    assert!(
        o.contains("Acceptance: 2 Fin(0) & Inf(0)") && o.matches("HOA: v1").count() == 1,
        "{o}"
    );
    let out = verikit(&["aut", "filter", s, "--acceptance-is", "co-Buchi"]);
    let o = String::from_utf8_lossy(&out.stdout);
    assert!(
        o.contains("acc-name: co-Buchi") && o.matches("HOA: v1").count() == 1,
        "{o}"
    );
    // FG a (co-Büchi) ⊆ GF a (Büchi), not the converse; `-v` inverts.
    let b = tmp("buchi.hoa", buchi);
    let c = tmp("cob.hoa", cob);
    let (bs, cs) = (b.to_str().unwrap(), c.to_str().unwrap());
    for (args, code) in [
        (&[cs, "--included-in", bs][..], 0),
        (&[bs, "--included-in", cs], 1),
        (&["--invert-match", bs, "--equivalent-to", cs], 0),
    ] {
        let out = verikit(&[&["aut", "filter"], args].concat());
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        if code == 1 {
            assert!(out.stdout.is_empty(), "{args:?}");
        }
    }
    let out = verikit(&[
        "aut",
        "filter",
        s,
        "--accepts-word",
        "cycle{a}",
        "--is-deterministic",
    ]);
    let o = String::from_utf8_lossy(&out.stdout);
    assert_eq!(o.matches("HOA: v1").count(), 2, "{o}");
    let out = verikit(&["aut", "filter", s, "--accepts-word", "a; cycle{!a}"]);
    let o = String::from_utf8_lossy(&out.stdout);
    assert_eq!(o.matches("HOA: v1").count(), 0, "{o}");
    assert_eq!(out.status.code(), Some(1));
    // Emptiness of a co-Büchi automaton: a witness the membership check accepts.
    let j = json(&["aut", "is-empty", c.to_str().unwrap()]);
    assert_eq!(j["verdict"], "false");
    let w = j["witness"].as_str().unwrap().to_string();
    let j = json(&["aut", "accepts", c.to_str().unwrap(), &w]);
    assert_eq!(j["verdict"], "true", "{w}");
}

/// Issue 19 (deterministic automata): `ltl translate -D -P` answers a deterministic parity
/// automaton whose language is the formula's — replayed here with `aut accepts` against
/// `ltl check` on words — and `-D` alone keeps an automaton that is already deterministic.
#[test]
fn translate_deterministic_parity() {
    let j = json(&["ltl", "translate", "-D", "-P", "FGa | GFb"]);
    assert_eq!(j["stats"]["deterministic"], true, "{j}");
    let hoa = j["hoa"].as_str().unwrap();
    assert!(
        hoa.contains("acc-name: parity")
            || hoa.contains("acc-name: co-Buchi")
            || hoa.contains("acc-name: Buchi"),
        "{hoa}"
    );
    let h = tmp("fga-gfb.hoa", hoa);
    for w in [
        "cycle{a & !b}",
        "cycle{!a & b}",
        "cycle{!a & !b}",
        "a & b; cycle{!a & !b; a & !b}",
    ] {
        let by_aut = json(&["aut", "accepts", h.to_str().unwrap(), w]);
        let by_ltl = json(&["ltl", "check", "FGa | GFb", w]);
        assert_eq!(by_aut["verdict"], by_ltl["verdict"], "{w}");
    }
    // Already deterministic: -D keeps the Büchi automaton, -D -P recolours it.
    let j = json(&["ltl", "translate", "-D", "GFa"]);
    assert_eq!(j["stats"]["acc_name"], "Buchi", "{j}");
    let j = json(&["ltl", "translate", "-D", "-C", "--parity=max even", "Fa"]);
    assert_eq!(j["stats"]["complete"], true, "{j}");
    assert!(
        j["hoa"].as_str().unwrap().contains("parity max even"),
        "{j}"
    );
    let out = verikit(&["ltl", "translate", "--parity=min blue", "Fa"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `aut determinize` on a nondeterministic Büchi automaton (`FGa`'s, two states) gives a
/// deterministic automaton accepting the same words.
#[test]
fn aut_determinize() {
    let nba = "HOA: v1\nStates: 2\nStart: 0\nAP: 1 \"a\"\nAcceptance: 1 Inf(0)\n--BODY--\nState: 0\n[t] 0\n[0] 1\nState: 1\n[0] 1 {0}\n--END--\n";
    let f = tmp("fga.hoa", nba);
    let j = json(&["aut", "determinize", f.to_str().unwrap()]);
    assert_eq!(j["stats"]["deterministic"], true, "{j}");
    let d = tmp("fga-det.hoa", j["hoa"].as_str().unwrap());
    for (w, acc) in [
        ("cycle{a}", "true"),
        ("cycle{!a}", "false"),
        ("!a; cycle{a; !a}", "false"),
        ("!a; !a; cycle{a}", "true"),
    ] {
        let r = json(&["aut", "accepts", d.to_str().unwrap(), w]);
        assert_eq!(r["verdict"], acc, "{w}");
    }
}

/// `aut determinize` beyond Büchi: the nondeterministic Rabin automaton of `FGa | GFb` and the
/// Streett one of `X((GFa -> GFb) & (GF!b -> GF!a))` (files of the omega crate's tests) give
/// deterministic parity automata accepting the same words as the inputs (`aut accepts`).
#[test]
fn aut_determinize_rabin_and_streett() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../omega/tests/hoa");
    for (file, words) in [
        (
            "rabin.hoa",
            [
                ("cycle{a&!b}", "true"),
                ("cycle{!a&!b; a&!b}", "false"),
                ("cycle{!a&b}", "true"),
            ],
        ),
        (
            "streett.hoa",
            [
                ("cycle{a&!b}", "false"),
                ("cycle{a&b; !a&!b}", "true"),
                ("cycle{!a&b}", "true"),
            ],
        ),
    ] {
        let f = dir.join(file);
        let j = json(&["aut", "determinize", f.to_str().unwrap()]);
        assert_eq!(j["stats"]["deterministic"], true, "{file}: {j}");
        let hoa = j["hoa"].as_str().unwrap();
        assert!(
            hoa.contains("acc-name: parity") || hoa.contains("acc-name: Buchi"),
            "{hoa}"
        );
        let d = tmp(&format!("det-{file}"), hoa);
        for (w, acc) in words {
            let r = json(&["aut", "accepts", d.to_str().unwrap(), w]);
            assert_eq!(r["verdict"], acc, "{file} {w}");
            let r = json(&["aut", "accepts", f.to_str().unwrap(), w]);
            assert_eq!(r["verdict"], acc, "{file} (input) {w}");
        }
    }
}

/// The deterministic translation polls the budget: the random formula set under `--timeout 1`
/// answers `timeout` (exit 3) with the automata computed so far.
#[test]
fn deterministic_batch_times_out() {
    let file = verikit_testkit::require_data!("ltl/random.ltl");
    let f = file.to_str().unwrap();
    let args = [
        "--timeout",
        "1",
        "ltl",
        "translate",
        "-D",
        "-P",
        "--stats",
        "-F",
        f,
    ];
    let out = verikit(&args);
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j = json(&args);
    assert_eq!(j["verdict"], "timeout");
    let done = j["results"].as_array().unwrap();
    assert!(done.len() < 530, "{}", done.len());
    assert!(done.iter().all(|r| r["stats"]["deterministic"] == true));
}

/// Issue 19 item 4 (Spot's command line): `-f` (repeatable), positional formulas and `-F` files
/// give one HOA stream with one automaton per formula; `--negate` translates the negations.
#[test]
fn spot_command_line_formulas_and_negate() {
    let out = verikit(&["ltl", "translate", "Fc", "-f", "GFa", "-f", "a U b"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("HOA: v1").count(), 3, "{text}");
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("name: "))
        .collect();
    assert_eq!(names, ["\"Fc\"", "\"GFa\"", "\"a U b\""]);
    // The stream reads back automaton by automaton.
    let hoa = tmp("three.hoa", &text);
    let out = verikit(&["aut", "stats", hoa.to_str().unwrap()]);
    assert!(out.status.success());
    let stats = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(
        stats.lines().filter(|l| l.starts_with("states:")).count(),
        3,
        "{stats}"
    );
    // --negate: the automaton of !GFa accepts what GFa's rejects.
    let j = json(&["ltl", "translate", "--negate", "--stats=%f", "GFa"]);
    assert_eq!(j["stats_line"], "!GFa");
    let neg = String::from_utf8_lossy(&verikit(&["ltl", "translate", "--negate", "GFa"]).stdout)
        .to_string();
    let neg = tmp("neg.hoa", &neg);
    for (word, acc) in [("cycle{!a}", "true"), ("cycle{a}", "false")] {
        let j = json(&["aut", "accepts", neg.to_str().unwrap(), word]);
        assert_eq!(j["verdict"], acc, "{word}");
    }
    // No formula at all is a usage error.
    assert_eq!(verikit(&["ltl", "translate"]).status.code(), Some(2));
}

/// `-F FILE/COL` reads a CSV column as Spot does (negative COL: skip the header; quoted fields
/// with `""`), and `--stats=FORMAT` prints Spot's directives; an unknown directive is refused
/// by name. Sizes at `--high` are compared with Spot 2.12.1's recorded `ltl2tgba` and
/// `ltl2tgba -B` sizes (Spot's default is its `--high`) on the DAC patterns (never larger).
#[test]
fn spot_csv_input_and_stats_format_against_spots_sizes() {
    let Some(tsv) = verikit_testkit::shared_path("ltl/spot-sizes.tsv") else {
        eprintln!("skipping: shared data ltl/spot-sizes.tsv not found");
        return;
    };
    let tsv = std::fs::read_to_string(tsv).unwrap();
    let rows: Vec<Vec<&str>> = tsv
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|r| r[0] == "dac")
        .collect();
    assert!(rows.len() >= 50);
    let mut csv = String::from("set,formula,states\n");
    for r in &rows {
        csv.push_str(&format!(
            "{},\"{}\",{}\n",
            r[0],
            r[2].replace('"', "\"\""),
            r[3]
        ));
    }
    let f = tmp("dac.csv", &csv);
    let spec = format!("{}/-2", f.to_str().unwrap());
    for (flag, col) in [("-G", 3), ("-B", 6)] {
        let out = verikit(&[
            "ltl",
            "translate",
            "--high",
            flag,
            "-F",
            &spec,
            "--stats=%s,%e,%a,%L,%f",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), rows.len(), "{text}");
        for (k, (l, r)) in lines.iter().zip(&rows).enumerate() {
            let v: Vec<&str> = l.splitn(5, ',').collect();
            let states: usize = v[0].parse().unwrap();
            let spot: usize = r[col].parse().unwrap();
            assert!(states <= spot, "{flag} {}: {states} > Spot's {spot}", r[2]);
            // %L is the line in the CSV file (after the header).
            assert_eq!(v[3], (k + 2).to_string());
            if flag == "-B" {
                assert!(v[2] == "1" || v[2] == "0", "{l}");
            }
        }
    }
    fails(&["ltl", "translate", "--stats=%s %q", "Fa"], 2, &["`%q`"]);
    // A CSV line without the column is located.
    let bad = tmp("bad.csv", "a,Fb\nc\n");
    fails(
        &[
            "ltl",
            "translate",
            "-F",
            &format!("{}/2", bad.to_str().unwrap()),
        ],
        2,
        &["bad.csv:2:1"],
    );
}

/// `-S` gives state-based acceptance (all edges leaving a state carry the same marks) with the
/// same language; the optimisation levels keep the language; `--stats` directives agree with
/// `aut stats`.
#[test]
fn state_based_acceptance_and_levels_keep_the_language() {
    let f = "GFa & GF(b & Xc) & (d U e)";
    let base = String::from_utf8_lossy(&verikit(&["ltl", "translate", f]).stdout).to_string();
    let base = tmp("base.hoa", &base);
    let mut outs = Vec::new();
    for flags in [
        &["-S"][..],
        &["--low"],
        &["--medium"],
        &["--high"],
        &["-S", "--low"],
    ] {
        let mut args = vec!["ltl", "translate"];
        args.extend_from_slice(flags);
        args.push(f);
        let out = verikit(&args);
        assert!(out.status.success(), "{flags:?}");
        let h = tmp(
            &format!("lvl{}.hoa", outs.len()),
            &String::from_utf8_lossy(&out.stdout),
        );
        for (a, b) in [(&h, &base), (&base, &h)] {
            let j = json(&["aut", "included", a.to_str().unwrap(), b.to_str().unwrap()]);
            assert_eq!(j["verdict"], "true", "{flags:?}");
        }
        if flags.contains(&"-S") {
            let j = json(&["aut", "stats", h.to_str().unwrap()]);
            assert_eq!(j["stats"]["state_based"], true, "{flags:?}");
        }
        outs.push(h);
    }
    let j = json(&["ltl", "translate", "--stats=%s %e %a %d %p %x %X %c %n", f]);
    let line = j["stats_line"].as_str().unwrap().to_string();
    let st = &j["stats"];
    let want = format!(
        "{} {} {} {} {} 5 a,b,c,d,e",
        st["states"],
        st["edges"],
        st["acc_sets"],
        u8::from(st["deterministic"] == true),
        u8::from(st["complete"] == true)
    );
    assert!(line.starts_with(&want), "{line} vs {want}");
}

/// Spot's bounded operators are read (`X[n]`, `F[n..m]`, `G[n:m]`, `F[n..]`) and translated;
/// PSL/SERE operators are translated and checked on words; operators outside Spot's PSL subset
/// (`##`, `first_match`) are refused by name with a location.
#[test]
fn bounded_operators_and_psl() {
    let out = verikit(&["ltl", "parse", "F[1..2] a & G[2:3] b & X[2] c & F[3..] d"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "X(a | Xa) & XX(b & Xb) & XXc & XXXFd"
    );
    let j = json(&["ltl", "check", "F[2..3] a", "!a; !a; !a; a; cycle{!a}"]);
    assert_eq!(j["verdict"], "true");
    let j = json(&["ltl", "check", "F[1..2] a", "!a; !a; !a; a; cycle{!a}"]);
    assert_eq!(j["verdict"], "false");
    let out = verikit(&["ltl", "translate", "{a;b[*]}<>-> c"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j = json(&[
        "ltl",
        "check",
        "{a;b[*];c}<>-> d",
        "a&!b&!c&!d; !a&b&!c&!d; !a&!b&c&d; cycle{!a&!b&!c&!d}",
    ]);
    assert_eq!(j["verdict"], "true");
    let j = json(&[
        "ltl",
        "check",
        "{a;b[*];c}<>-> d",
        "a&!b&!c&!d; !a&b&!c&!d; !a&!b&c&!d; cycle{!a&!b&!c&!d}",
    ]);
    assert_eq!(j["verdict"], "false");
    fails(
        &["ltl", "translate", "{a ##1 b}"],
        2,
        &["<formula>:1:4", "##"],
    );
}

/// Issue 19 leftovers: `-f`/`-F`/positional formulas are answered in command-line order (as
/// Spot); `-M -D` prints a deterministic monitor with `Acceptance: 0 t`; `--any` after `-D`
/// cancels it (the last preference wins); `-M` with `-P` is a usage error.
#[test]
fn spot_order_monitor_and_preferences() {
    let f = tmp("order.ltl", "x\ny\n");
    let out = verikit(&[
        "ltl",
        "parse",
        "-f",
        "a",
        "-F",
        f.to_str().unwrap(),
        "-f",
        "b",
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "a\nx\ny\nb\n");
    let out = verikit(&["ltl", "parse", "c", "-f", "a"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "c\na\n");
    let out = verikit(&["ltl", "translate", "-M", "-D", "G(a -> X b)"]);
    let hoa = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        hoa.contains("States: 2\n") && hoa.contains("Acceptance: 0 t"),
        "{hoa}"
    );
    assert!(hoa.contains("deterministic"), "{hoa}");
    let out = verikit(&["ltl", "translate", "-D", "--any", "FG a"]);
    let hoa = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(!hoa.contains("parity"), "{hoa}");
    let out = verikit(&["ltl", "translate", "-M", "-P", "G a"]);
    assert_eq!(out.status.code(), Some(2));
}
