#![cfg(feature = "omega")]
//! `verikit ltl` and `verikit aut`: end-to-end through the binary, witnesses replayed with the
//! binary's own independent checkers (`ltl check` evaluates LTL directly on a lasso word).

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

fn tmp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("verikit-omega-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::File::create(&p)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    p
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
    let out = verikit(&["ltl", "translate", "G(a -> F b"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("<formula>:1:11") && err.contains('^'), "{err}");
    let f = tmp("bad.ltl", "Fa\nG(a U)\n");
    let out = verikit(&["ltl", "translate", "--stats", "-F", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.ltl:2:6"));
    let h = tmp(
        "bad.hoa",
        "HOA: v1\nStates: 1\nStart: 0\nAcceptance: 1 Fin(0)\nAP: 0\n--BODY--\nState: 0\n--END--\n",
    );
    let out = verikit(&["aut", "stats", h.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Fin(0)") && err.contains("bad.hoa:4:"),
        "{err}"
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
    assert_eq!(e["verdict"], "nonempty");
    // Replay the witness with the direct LTL evaluator.
    let w = e["witness"].as_str().unwrap().to_string();
    let c = json(&["ltl", "check", "GFa & GFb", &w]);
    assert_eq!(c["verdict"], "satisfied", "witness {w}");
    assert_eq!(
        json(&["aut", "accepts", fp, "a; cycle{a & b}"])["verdict"],
        "accepted"
    );
    assert_eq!(
        json(&["aut", "accepts", fp, "cycle{a & !b; !b}"])["verdict"],
        "rejected"
    );
    // SBA output.
    let b = json(&["ltl", "translate", "-B", "--stats", "GFa & GFb"]);
    assert_eq!(b["automata"][0]["acc_sets"], 1);
    assert_eq!(b["automata"][0]["state_based"], true);
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
    assert_eq!(
        json(&["aut", "is-empty", prod.to_str().unwrap()])["verdict"],
        "empty"
    );
    let small = String::from_utf8_lossy(&verikit(&["ltl", "translate", "GFa"]).stdout).to_string();
    let s = tmp("gfa.hoa", &small);
    let out = verikit(&["aut", "complement", s.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let c = tmp("cgfa.hoa", &String::from_utf8_lossy(&out.stdout));
    assert_eq!(
        json(&["aut", "accepts", c.to_str().unwrap(), "a; cycle{!a}"])["verdict"],
        "accepted"
    );
    assert_eq!(
        json(&["aut", "accepts", c.to_str().unwrap(), "cycle{a; !a}"])["verdict"],
        "rejected"
    );
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
    assert_eq!(aut["verdict"], "violated");
    let cex = aut["counterexample"].as_str().unwrap();
    let c = json(&["ltl", "check", "G(req -> F grant)", cex]);
    assert_eq!(c["verdict"], "violated");
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
        assert_eq!(j["verdict"], "reduced", "{m}: {j}");
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
        assert_eq!(e["verdict"], "empty", "{m}");
        // ... and it still accepts a word of the formula (membership replayed by the binary).
        let acc = json(&["aut", "accepts", r.to_str().unwrap(), "cycle{a & b & c}"]);
        assert_eq!(acc["verdict"], "accepted", "{m}");
        let rej = json(&["aut", "accepts", r.to_str().unwrap(), "cycle{a & !b & c}"]);
        assert_eq!(rej["verdict"], "rejected", "{m}");
    }
    let j = json(&["ltl", "translate", "--stats", "--reduce", "fair+delayed", f]);
    assert!(j["automata"][0]["reduction"]["after"]["states"].is_u64());
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
    assert_eq!(json(&["aut", "included", xs, ys])["verdict"], "included");
    let r = json(&["aut", "included", ys, xs]);
    assert_eq!(r["verdict"], "not-included");
    let w = r["witness"].as_str().unwrap();
    assert_eq!(json(&["aut", "accepts", ys, w])["verdict"], "accepted");
    assert_eq!(json(&["aut", "accepts", xs, w])["verdict"], "rejected");
    assert_eq!(
        json(&["ltl", "check", "GFb | FG!a", w])["verdict"],
        "satisfied"
    );
    assert_eq!(
        json(&["ltl", "check", "G(a -> Fb)", w])["verdict"],
        "violated"
    );
    let out = verikit(&["aut", "included", ys, xs]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("not-included"));
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
    assert_eq!(json(&["aut", "included", ds, rs])["verdict"], "included");
    assert_eq!(json(&["aut", "included", rs, ds])["verdict"], "included");
}
