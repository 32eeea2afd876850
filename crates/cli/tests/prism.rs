#![cfg(feature = "prism")]
//! `verikit prism`: results, exit codes, located errors, exports; JANI models with embedded
//! properties.

mod common;

use common::{fails, json};
use std::path::{Path, PathBuf};
use std::process::Command;

fn verikit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_verikit"))
}

fn demo(name: &str) -> PathBuf {
    common::demo("prism", name)
}

/// `verikit --json prism check MODEL PROPS EXTRA…`: the answer, the exit code and stderr.
fn check(model: &Path, props: &Path, extra: &[&str]) -> (serde_json::Value, i32, String) {
    let files = [model.to_str().unwrap(), props.to_str().unwrap()];
    json(&[&["prism", "check"], &files[..], extra].concat())
}

/// [`check`], which must succeed: the answer.
fn checked(model: &Path, props: &Path, extra: &[&str]) -> serde_json::Value {
    let (v, code, err) = check(model, props, extra);
    assert_eq!(code, 0, "{err}");
    v
}

fn tmp(name: &str, text: &str) -> PathBuf {
    common::tmp("prism-test", name, text)
}

#[test]
fn die_results_are_exact_sixths() {
    let m = demo("die.prism");
    let p = demo("die.props");
    let v = checked(&m, &p, &[]);
    assert_eq!(v["input"]["states"], 13);
    assert_eq!(v["input"]["transitions"], 20);
    let res = v["results"].as_array().unwrap();
    let get = |n: &str| res.iter().find(|r| r["name"] == n).unwrap()["result"].clone();
    assert!((get("one").as_f64().unwrap() - 1.0 / 6.0).abs() < 1e-6);
    assert!((get("six").as_f64().unwrap() - 1.0 / 6.0).abs() < 1e-6);
    assert!((get("one_bounded").as_f64().unwrap() - 0.125).abs() < 1e-12);
    assert!((get("flips").as_f64().unwrap() - 11.0 / 3.0).abs() < 1e-5);
    assert_eq!(get("terminates"), serde_json::Value::Bool(true));
}

#[test]
fn select_property_by_name_and_index() {
    let m = demo("die.prism");
    let p = demo("die.props");
    let (v, code, _) = check(&m, &p, &["--prop", "one_bounded"]);
    assert_eq!(code, 0);
    assert_eq!(v["result"], 0.125);
    let (v, code, _) = check(&m, &p, &["--prop", "5"]);
    assert_eq!(code, 0);
    assert_eq!(v["verdict"], "true");
    let (_, code, _) = check(&m, &p, &["--prop", "nope"]);
    assert_eq!(code, 2);
}

#[test]
fn undefined_constant_is_named_and_const_option_works() {
    let m = tmp("c.prism", "dtmc\nconst int N;\nmodule M x : [0..N] init 0; [] x<N -> 0.5:(x'=x+1) + 0.5:(x'=x); [] x=N -> true; endmodule\n");
    let p = tmp("c.props", "P=? [ F<=2 x=N ]\n");
    fails(
        &["prism", "check", m.to_str().unwrap(), p.to_str().unwrap()],
        2,
        &["undefined constant `N`", "c.prism:2:1"],
    );
    let v = checked(&m, &p, &["--const", "N=2"]);
    assert_eq!(v["result"], 0.25);
}

#[test]
fn type_errors_and_parse_errors_are_located() {
    for (name, text, needles) in [
        (
            "t.prism",
            "mdp\nmodule M\n  x : [0..3] init 0;\n  [] x + true -> (x'=1);\nendmodule\n",
            ["type error", "t.prism:4:"],
        ),
        (
            "p.prism",
            "dtmc\nmodule M\n  x : [0..3] init 0;\n  [] x=0 -> (x'=1)\nendmodule\n",
            ["expected `;`", "p.prism:5:1"],
        ),
    ] {
        let m = tmp(name, text);
        fails(&["prism", "build", m.to_str().unwrap()], 2, &needles);
    }
}

#[test]
fn deadlocks_fixed_by_default_or_reported() {
    let m = tmp(
        "d.prism",
        "dtmc\nmodule M\n  x : [0..1] init 0;\n  [] x=0 -> (x'=1);\nendmodule\n",
    );
    let (v, code, _) = json(&["prism", "build", m.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(v["input"]["deadlocks_fixed"], 1);
    fails(
        &["prism", "build", m.to_str().unwrap(), "--no-fix-deadlocks"],
        2,
        &["deadlock in state (x=1)"],
    );
}

#[test]
fn exports_in_prism_formats() {
    let m = demo("die.prism");
    let dir = std::env::temp_dir().join(format!("verikit-prism-exp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (tra, sta, lab, dot) = (
        dir.join("m.tra"),
        dir.join("m.sta"),
        dir.join("m.lab"),
        dir.join("m.dot"),
    );
    let out = verikit()
        .args([
            "prism",
            "build",
            m.to_str().unwrap(),
            "--export-tra",
            tra.to_str().unwrap(),
            "--export-sta",
        ])
        .arg(&sta)
        .arg("--export-lab")
        .arg(&lab)
        .arg("--export-dot")
        .arg(&dot)
        .output()
        .unwrap();
    common::assert_success(&out);
    let t = std::fs::read_to_string(&tra).unwrap();
    assert!(t.starts_with("13 20\n"), "{t}");
    // Every row sums to one.
    let mut sums = [0.0; 13];
    for l in t.lines().skip(1) {
        let w: Vec<&str> = l.split_whitespace().collect();
        sums[w[0].parse::<usize>().unwrap()] += w[2].parse::<f64>().unwrap();
    }
    assert!(sums.iter().all(|s| (s - 1.0).abs() < 1e-12));
    let s = std::fs::read_to_string(&sta).unwrap();
    assert!(s.starts_with("(s,d)\n0:(0,0)\n"), "{s}");
    let l = std::fs::read_to_string(&lab).unwrap();
    assert!(
        l.starts_with("0=\"init\" 1=\"deadlock\" 2=\"done\"\n0: 0\n"),
        "{l}"
    );
    assert!(std::fs::read_to_string(&dot)
        .unwrap()
        .starts_with("digraph"));
}

#[test]
fn mdp_ctmc_and_nested_operators() {
    let m = tmp(
        "m.prism",
        "mdp\nmodule M\n s : [0..3] init 0;\n [a] s=0 -> 0.5:(s'=1) + 0.5:(s'=2);\n [b] s=0 -> (s'=3);\n [] s>0 -> true;\nendmodule\nlabel \"goal\" = s=1;\n",
    );
    let p = tmp("m.props", "\"max\": Pmax=? [ F \"goal\" ];\n\"min\": Pmin=? [ F \"goal\" ];\n\"nested\": Pmax=? [ F P>=1 [ X s=3 ] ];\n");
    let v = checked(&m, &p, &[]);
    let r = v["results"].as_array().unwrap();
    assert_eq!(r[0]["result"], 0.5);
    assert_eq!(r[1]["result"], 0.0);
    assert_eq!(r[2]["result"], 1.0);
    let c = tmp("c.prism", "ctmc\nmodule M\n s : [0..1] init 0;\n [] s=0 -> 2.0:(s'=1);\nendmodule\nrewards \"time\" s=0 : 1; endrewards\n");
    let p = tmp(
        "c.props",
        "P=? [ F<=1 s=1 ];\nR=? [ F s=1 ];\nS=? [ s=1 ];\n",
    );
    let v = checked(&c, &p, &[]);
    let r = v["results"].as_array().unwrap();
    assert!((r[0]["result"].as_f64().unwrap() - (1.0 - (-2.0f64).exp())).abs() < 1e-7);
    assert!((r[1]["result"].as_f64().unwrap() - 0.5).abs() < 1e-6);
    assert!((r[2]["result"].as_f64().unwrap() - 1.0).abs() < 1e-9);
}

#[test]
fn export_scheduler_for_pmax() {
    let model = tmp(
        "sched.nm",
        "mdp\nmodule M\n s : [0..3] init 0;\n [a] s=0 -> (s'=0);\n [b] s=0 -> 0.5:(s'=1) + 0.5:(s'=2);\n \
         [c] s=1 -> (s'=3);\n [d] s=1 -> (s'=1);\n [] s>=2 -> true;\nendmodule\n",
    );
    let props = tmp(
        "sched.props",
        "\"m\": Pmax=? [ F s=3 ];\nPmax=? [ X s=1 ];\n",
    );
    let out = model.with_file_name("sched.txt");
    let o = out.to_str().unwrap();
    let v = checked(&model, &props, &["--prop", "m", "--export-scheduler", o]);
    assert_eq!(v["result"], 0.5);
    let text = std::fs::read_to_string(&out).unwrap();
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 4, "{text}");
    // States are numbered breadth-first: 0 is s=0, 1 and 2 its successors; s=0 must take `b`.
    assert_eq!(rows[0], "0 1 b", "{text}");
    assert!(rows.iter().any(|r| r.ends_with(" c")), "{text}");
    // More than one property, or a reward property: usage / input error.
    let (_, code, _) = check(&model, &props, &["--export-scheduler", o]);
    assert_eq!(code, 2);
    let (_, code, err) = check(&model, &props, &["--prop", "2", "--export-scheduler", o]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("scheduler export"), "{err}");
}

/// The published `brp.pm` of the PRISM suite, or `None` (the test skips) without the shared data.
fn brp() -> Option<PathBuf> {
    let dir = verikit_testkit::shared_path("prism/models/dtmcs/brp");
    if dir.is_none() {
        eprintln!("skipped: shared data missing");
    }
    Some(dir?.join("brp.pm"))
}

/// The published `brp.pm` (PRISM suite): every undefined constant is named with its location;
/// a type error injected into one of its commands is reported before building, located.
#[test]
fn real_model_undefined_constants_and_type_error() {
    let Some(model) = brp() else {
        return;
    };
    fails(
        &["prism", "build", model.to_str().unwrap()],
        2,
        &["undefined constants `N`, `MAX`", "brp.pm:7:1"],
    );
    let text = std::fs::read_to_string(&model).unwrap();
    assert!(text.contains("(s_ab'=!s_ab)"));
    let bad = tmp(
        "brp-bad.pm",
        &text.replacen("(s_ab'=!s_ab)", "(s_ab'=s+1)", 1),
    );
    fails(
        &[
            "prism",
            "build",
            bad.to_str().unwrap(),
            "--const",
            "N=16,MAX=2",
        ],
        2,
        &["type error", "`s_ab` is bool", "brp-bad.pm:38:"],
    );
}

/// `brp.pm` with N=16, MAX=2: PRISM's log says "Deadlocks detected and fixed in 35 states" and
/// 677 states; without fixing, the first deadlock state and the count are reported (exit 2).
#[test]
fn real_model_deadlocks_as_prism() {
    let Some(model) = brp() else {
        return;
    };
    let m = model.to_str().unwrap();
    let (v, code, err) = json(&["prism", "build", m, "--const", "N=16,MAX=2"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["input"]["deadlocks_fixed"], 35);
    assert_eq!(v["input"]["states"], 677);
    fails(
        &[
            "prism",
            "build",
            m,
            "--const",
            "N=16,MAX=2",
            "--no-fix-deadlocks",
        ],
        2,
        &["deadlock in state (s=", "and 34 other states"],
    );
}

/// A `system … endsystem` block with `|||` and `|[serve]|` (PRISM manual example) through the CLI.
#[test]
fn system_block_through_the_cli() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../prob/tests/models/system");
    let v = checked(
        &dir.join("stations.prism"),
        &dir.join("stations.props"),
        &["--prop", "1"],
    );
    assert_eq!(v["input"]["states"], 54);
    let x: f64 = v["result"].as_f64().unwrap();
    // Storm (hybrid engine): 0.10836028647751175.
    assert!((x - 0.10836028647751175).abs() < 1e-6, "{x}");
}

/// QVBS `firewire.false` (delay=3, deadline=200): `Pmin=? [ F^{rew{"time"}<=deadline} … ]` = 1/2.
#[test]
fn reward_bounded_property_through_the_cli() {
    let Some(dir) = verikit_testkit::shared_path("qvbs/mdp/firewire") else {
        eprintln!("skipped: shared data missing");
        return;
    };
    let consts = ["--const", "delay=3,deadline=200", "--prop", "deadline"];
    let model = dir.join("firewire.false.prism");
    let v = checked(&model, &dir.join("firewire.false.props"), &consts);
    assert_eq!(v["result"], 0.5);
}

// JANI models: embedded properties, `--prop`, `--const`, located errors and exit codes.

fn die() -> String {
    demo("die.jani").display().to_string()
}

#[test]
fn check_embedded_properties() {
    let (v, code, err) = json(&["prism", "check", &die(), "--const", "k=3"]);
    assert_eq!(code, 0, "{err}");
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 4);
    let flips = results.iter().find(|r| r["name"] == "flips").unwrap();
    assert!((flips["result"].as_f64().unwrap() - 11.0 / 3.0).abs() < 1e-6);
    assert_eq!(v["input"]["states"], 19);
    let (v, code, _) = json(&["prism", "check", &die(), "--const", "k=3", "--prop", "one"]);
    assert_eq!(code, 0);
    assert!((v["result"].as_f64().unwrap() - 1.0 / 6.0).abs() < 1e-9);
}

#[test]
fn build_jani() {
    let (v, code, err) = json(&["prism", "build", &die(), "--const", "k=1"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["input"]["transitions"], 26);
}

#[test]
fn jani_errors() {
    // Open constant: named and located in the JSON.
    fails(&["prism", "check", &die()], 2, &["`k`", "die.jani:"]);
    // A properties file is refused for JANI input.
    let (_, code, _) = json(&["prism", "check", &die(), &die(), "--const", "k=1"]);
    assert_eq!(code, 2);
    // A model type verikit does not read is refused by name with file:line:col.
    let dir = std::env::temp_dir().join(format!("verikit-jani-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("ma.jani");
    let text = std::fs::read_to_string(die())
        .unwrap()
        .replace("\"dtmc\"", "\"ma\"");
    std::fs::write(&p, text).unwrap();
    fails(
        &["prism", "build", p.to_str().unwrap()],
        2,
        &["Markov automata", "ma.jani:"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// Budgets: `--timeout` stops the work in time, and results computed before it are kept.

/// `verikit --json --timeout 1 prism check MODEL PROPS EXTRA…`: the answer, the exit code and
/// the wall time in seconds.
fn check_for_a_second(model: &Path, props: &Path, extra: &[&str]) -> (serde_json::Value, i32, f64) {
    let t0 = std::time::Instant::now();
    let (v, code, _) = check(model, props, &[&["--timeout", "1"], extra].concat());
    (v, code, t0.elapsed().as_secs_f64())
}

#[test]
fn hard_model_answers_timeout_within_two_seconds() {
    let Some(dir) = verikit_testkit::shared_path("qvbs/mdp/consensus") else {
        eprintln!("skipped: shared data missing");
        return;
    };
    let m = dir.join("consensus.10.prism");
    let p = dir.join("consensus.props");
    let (v, code, secs) = check_for_a_second(&m, &p, &["--const", "K=16"]);
    assert_eq!(code, 3, "{v}");
    assert_eq!(v["verdict"], "timeout", "{v}");
    assert!(secs < 2.0, "took {secs} s");
}

#[test]
fn results_before_a_timeout_are_printed() {
    let m = tmp(
        "chain.prism",
        "dtmc\nmodule m\n s : [0..2000] init 0;\n [] s<2000 -> 0.5:(s'=s+1) + 0.5:(s'=max(0,s-1));\n\
         [] s=2000 -> (s'=s);\nendmodule\n",
    );
    let p = tmp(
        "chain.props",
        "\"quick\": P=? [ F<=1 s=1 ];\n\"slow\": P=? [ F<=2000000000 s=2000 ];\n\"after\": P=? [ X s=1 ];\n",
    );
    let (v, code, secs) = check_for_a_second(&m, &p, &[]);
    assert_eq!(code, 3, "{v}");
    assert_eq!(v["verdict"], "timeout", "{v}");
    let r = v["results"].as_array().unwrap();
    assert_eq!(r.len(), 3, "{v}");
    assert_eq!(r[0]["result"], 0.5, "{v}");
    assert_eq!(r[1]["verdict"], "timeout", "{v}");
    assert_eq!(r[2]["verdict"], "timeout", "{v}");
    assert!(secs < 2.0, "took {secs} s");
    // Text mode: the first result is printed before the timeout.
    let out = verikit()
        .args(["--timeout", "1", "prism", "check"])
        .args([m.to_str().unwrap(), p.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Result \"quick\": 0.5"), "{text}");
    assert!(text.contains("Result \"slow\": timeout"), "{text}");
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn several_props_inline_property_and_validation_before_building() {
    let m = demo("die.prism");
    let p = demo("die.props");
    let (m, p) = (m.to_str().unwrap(), p.to_str().unwrap());
    let (v, code, err) = json(&["prism", "check", m, p, "--prop", "one_bounded,5"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["results"].as_array().unwrap().len(), 2, "{v}");
    let (v2, code, _) = json(&[
        "prism",
        "check",
        m,
        p,
        "--prop",
        "one_bounded",
        "--prop",
        "5",
    ]);
    assert_eq!(code, 0);
    let facts = |v: &serde_json::Value| -> Vec<(serde_json::Value, serde_json::Value)> {
        let r = v["results"].as_array().unwrap();
        r.iter()
            .map(|x| (x["name"].clone(), x["result"].clone()))
            .collect()
    };
    assert_eq!(facts(&v), facts(&v2), "{v2}");
    assert_eq!(facts(&v)[0].1, 0.125);
    let (v, code, err) = json(&["prism", "check", m, "--pf", "P=? [ F s=7 & d=6 ]"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        (v["result"].as_f64().unwrap() - 1.0 / 6.0).abs() < 1e-9,
        "{v}"
    );
    // An unknown property name or label is reported before the model is built: even a model
    // that cannot be built within the limit answers the property error (exit 2).
    let big = tmp(
        "big.prism",
        "dtmc\nmodule m\n s : [0..100000000] init 0;\n [] true -> (s'=min(s+1,100000000));\nendmodule\n",
    );
    let big = big.to_str().unwrap();
    let (_, code, err) = json(&[
        "prism",
        "check",
        big,
        "--pf",
        "P=? [ F \"nolabel\" ]",
        "--max-states",
        "10",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("nolabel"), "{err}");
    let (_, code, err) = json(&[
        "prism",
        "check",
        big,
        p,
        "--prop",
        "nope",
        "--max-states",
        "10",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("nope"), "{err}");
}

const EXP_MODEL: &str = "dtmc\nconst int N;\nconst double p;\nmodule m\n s : [0..N] init 0;\n\
 [] s<N -> p:(s'=s+1) + 1-p:(s'=s);\n [] s=N -> (s'=s);\nendmodule\nlabel \"done\" = s=N;\n";

#[test]
fn constant_ranges_give_one_row_per_combination_and_export_results() {
    let m = tmp("exp.prism", EXP_MODEL);
    let out = std::env::temp_dir().join(format!("verikit-exp-{}.csv", std::process::id()));
    let spec = format!("{}:csv", out.display());
    let (v, code, err) = json(&[
        "prism",
        "check",
        m.to_str().unwrap(),
        "--pf",
        "P=? [ F<=N \"done\" ]",
        "--const",
        "N=1:1:3,p=0.5",
        "--export-results",
        &spec,
    ]);
    assert_eq!(code, 0, "{err}");
    let r = v["results"].as_array().unwrap();
    let got: Vec<f64> = r.iter().map(|x| x["result"].as_f64().unwrap()).collect();
    assert_eq!(got, [0.5, 0.25, 0.125], "{v}");
    assert_eq!(r[2]["constants"]["N"], "3");
    let csv = std::fs::read_to_string(&out).unwrap();
    assert!(
        csv.contains("N,p,Result\n1,0.5,0.5\n2,0.5,0.25\n3,0.5,0.125\n"),
        "{csv}"
    );
    // Text: each row labelled with its constants, and PRISM's table at the end.
    let o = verikit()
        .args([
            "prism",
            "check",
            m.to_str().unwrap(),
            "--pf",
            "P=? [ F<=N \"done\" ]",
        ])
        .args(["--const", "N=2:2:4", "--const", "p=0.5"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("[N=4,p=0.5] Result"), "{text}");
    assert!(
        text.contains("N\tp\tResult\n2\t0.5\t0.25\n4\t0.5\t0.0625"),
        "{text}"
    );
}

#[test]
fn test_option_checks_result_annotations() {
    let m = tmp("annotated.prism", EXP_MODEL);
    let good = tmp(
        "good.props",
        "// RESULT (N=2): 0.25\n// RESULT (N=3): 1/8\n\"a\": P=? [ F<=N \"done\" ];\n// RESULT: true\nP>=1 [ F \"done\" ];\n",
    );
    let bad = tmp("bad.props", "// RESULT: 0.3\nP=? [ F<=N \"done\" ];\n");
    let (m, good, bad) = (
        m.to_str().unwrap(),
        good.to_str().unwrap(),
        bad.to_str().unwrap(),
    );
    let (v, code, err) = json(&[
        "prism",
        "check",
        m,
        good,
        "--const",
        "N=2:3,p=0.5",
        "--test",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["verdict"], "true", "{v}");
    let r = v["results"].as_array().unwrap();
    assert_eq!(r.len(), 4);
    assert!(r.iter().all(|x| x["test"] == true), "{v}");
    let (v, code, _) = json(&["prism", "check", m, bad, "--const", "N=2,p=0.5", "--test"]);
    assert_eq!(code, 0);
    assert_eq!(v["verdict"], "false", "{v}");
    assert_eq!(v["results"][0]["test"], false, "{v}");
}

/// Issue 18 item 13 through the CLI: a model without a type keyword (an MDP, as in PRISM), `^`,
/// `W`/`R`, CTL `A`/`E`, total rewards and property references in one properties file.
#[test]
fn prism_language_coverage_through_the_cli() {
    let m = tmp(
        "cov.prism",
        "module m\n x : [0..2^2] init 0;\n [a] x<4 -> 0.5:(x'=x+1) + 0.5:(x'=4);\n \
         [b] x<4 -> (x'=x);\n [] x=4 -> (x'=4);\nendmodule\nrewards \"r\"\n [a] true : 1;\nendrewards\n",
    );
    let p = tmp(
        "cov.props",
        "\"reach\": Pmax=? [ x<2 W x=4 ];\n\"twice\": 2 * \"reach\";\n\"ctl\": E [ G x<4 ];\n\
         \"total\": R{\"r\"}max=? [ C ];\n\"rel\": Pmin=? [ x=4 R x<=4 ];\n",
    );
    let v = checked(&m, &p, &[]);
    assert_eq!(v["input"]["model_type"], "MDP");
    let res = v["results"].as_array().unwrap();
    let get = |n: &str| res.iter().find(|r| r["name"] == n).unwrap()["result"].clone();
    // Looping on b keeps x<2 forever (W holds); `a` reaches 4 with x<2 before or fails at x=2.
    assert_eq!(get("reach").as_f64(), Some(1.0));
    assert_eq!(get("twice").as_f64(), Some(2.0));
    assert_eq!(get("ctl"), serde_json::Value::Bool(true));
    // Rmax [ C ]: a earns 1 per step, at most 4 steps before x=4: 1 + 1/2 + 1/4 + 1/8.
    assert!(
        (get("total").as_f64().unwrap() - 1.875).abs() < 1e-6,
        "{}",
        get("total")
    );
    assert_eq!(get("rel").as_f64(), Some(1.0));
    // A cycle of references is a located error (exit 2).
    let p = tmp("cyc.props", "\"a\": \"b\";\n\"b\": \"a\" | true;\n");
    let args = ["prism", "check", m.to_str().unwrap(), p.to_str().unwrap()];
    fails(&args, 2, &["cyc.props:", "cyclic reference"]);
}

/// The DTMC of the LTL tests: `x=0` goes to the absorbing `x=1` or to the `x=2 ↔ x=3` loop with
/// ½ each; `"a"` holds on `x=1` and `x=3`.
const LTL_DTMC: &str =
    "dtmc\nmodule M\n x : [0..3] init 0;\n [] x=0 -> 0.5:(x'=1) + 0.5:(x'=2);\n \
         [] x=1 -> (x'=1);\n [] x=2 -> (x'=3);\n [] x=3 -> (x'=2);\nendmodule\n\
         label \"a\" = x=1 | x=3;\n";

/// The result of the property named `name` in a `--json` answer.
fn result_of(v: &serde_json::Value, name: &str) -> serde_json::Value {
    let res = v["results"].as_array().expect("results");
    res.iter()
        .find(|r| r["name"] == name)
        .expect("named result")["result"]
        .clone()
}

/// LTL inside `P[…]` through the CLI (issue 19): a DTMC and an MDP with values computed by hand
/// (`LTL_DTMC`; in the MDP the choice is the scheduler's).
#[test]
fn ltl_properties_through_the_cli() {
    let dtmc = tmp("ltl.prism", LTL_DTMC);
    let props = tmp(
        "ltl.props",
        "\"gf\": P=? [ G F \"a\" ];\n\"fg\": P=? [ F G \"a\" ];\n\"xx\": P=? [ X X X \"a\" ];\n\
         \"ug\": P=? [ !\"a\" U (G \"a\") ];\n\"holds\": P>=0.5 [ F G \"a\" ];\n",
    );
    let v = checked(&dtmc, &props, &[]);
    for (n, want) in [("gf", 1.0), ("fg", 0.5), ("xx", 0.5), ("ug", 0.5)] {
        let got = result_of(&v, n).as_f64().unwrap();
        assert!((got - want).abs() < 1e-9, "{n}: {got}");
    }
    assert_eq!(result_of(&v, "holds"), serde_json::Value::Bool(true));
    let mdp = tmp(
        "ltl-mdp.prism",
        "mdp\nmodule M\n x : [0..2] init 0;\n [l] x=0 -> (x'=1);\n [r] x=0 -> 0.5:(x'=1) + 0.5:(x'=2);\n \
         [] x>0 -> true;\nendmodule\nlabel \"a\" = x=1;\n",
    );
    let props = tmp(
        "ltl-mdp.props",
        "\"max\": Pmax=? [ F G \"a\" ];\n\"min\": Pmin=? [ F G \"a\" ];\n",
    );
    let v = checked(&mdp, &props, &[]);
    let get = |n: &str| result_of(&v, n).as_f64().unwrap();
    assert!((get("max") - 1.0).abs() < 1e-9);
    assert!((get("min") - 0.5).abs() < 1e-9);
}

/// `R[ φ ]` over co-safe LTL through the CLI: the reward until `X X "a"` holds (2 steps on every
/// path of the DTMC above) and the located refusal of a formula that is not co-safe (exit 2).
#[test]
fn cosafe_ltl_reward_through_the_cli() {
    let dtmc = tmp(
        "cosafe.prism",
        &format!("{LTL_DTMC}rewards \"steps\" true : 1; endrewards\n"),
    );
    let m = dtmc.to_str().unwrap();
    let (v, code, err) = json(&["prism", "check", m, "--pf", "R=? [ X X \"a\" ]"]);
    assert_eq!(code, 0, "{err}");
    assert!((v["result"].as_f64().unwrap() - 2.0).abs() < 1e-9, "{v}");
    let props = tmp("cosafe.props", "\"g\": R=? [ F G \"a\" ];\n");
    fails(
        &["prism", "check", m, props.to_str().unwrap()],
        2,
        &["cosafe.props:1:", "not syntactically co-safe", "`G`"],
    );
}

/// LTL on a CTMC through the CLI: checked on the embedded DTMC (x=0 → x=1 with rate 2, → x=2
/// with rate 6: `X "a"` has probability ¼), a co-safe reward per visit of the embedded chain
/// (state reward 8 / exit rate 8 in x=0), and a time bound inside LTL refused at its place.
#[test]
fn ltl_on_a_ctmc_through_the_cli() {
    let ctmc = tmp(
        "ltl-ctmc.prism",
        "ctmc\nmodule M\n x : [0..2] init 0;\n [] x=0 -> 2:(x'=1) + 6:(x'=2);\n [] x>0 -> 1:(x'=0);\n\
         endmodule\nlabel \"a\" = x=1;\nrewards \"r\" x=0 : 8; endrewards\n",
    );
    let props = tmp(
        "ltl-ctmc.props",
        "\"x\": P=? [ X \"a\" ];\n\"gf\": P=? [ G F \"a\" ];\n\"r\": R{\"r\"}=? [ X (x>0) ];\n",
    );
    let v = checked(&ctmc, &props, &[]);
    for (n, want) in [("x", 0.25), ("gf", 1.0), ("r", 1.0)] {
        let got = result_of(&v, n).as_f64().unwrap();
        assert!((got - want).abs() < 1e-9, "{n}: {got}");
    }
    for (prop, at) in [
        ("P=? [ G F<=2 \"a\" ]", "2 "),
        ("P=? [ X (\"a\" U<=1.5 x=2) ]", "1.5"),
        ("R{\"r\"}=? [ (F<=3 x=2) & (F \"a\") ]", "3 "),
        ("P=? [ F (\"a\" & F[1,2] x=2) ]", "2]"),
    ] {
        let bad = tmp("ltl-ctmc-bad.props", &format!("{prop};\n"));
        let col = prop.find(at).unwrap() + 1;
        fails(
            &[
                "prism",
                "check",
                ctmc.to_str().unwrap(),
                bad.to_str().unwrap(),
            ],
            2,
            &[
                &format!("ltl-ctmc-bad.props:1:{col}"),
                "time-bounded operators inside LTL",
            ],
        );
    }
}

/// `--export-scheduler` of `Pmax [ ltl ]` on an MDP writes a scheduler with memory: in x=0 the
/// choice `l` leads to the `a` loop; every row names its successors' memory.
#[test]
fn export_scheduler_for_ltl() {
    let mdp = tmp(
        "ltl-sched.prism",
        "mdp\nmodule M\n x : [0..2] init 0;\n [l] x=0 -> (x'=1);\n [r] x=0 -> 0.5:(x'=1) + 0.5:(x'=2);\n \
         [] x>0 -> true;\nendmodule\nlabel \"a\" = x=1;\n",
    );
    let props = tmp("ltl-sched.props", "\"gfa\": Pmax=? [ G F \"a\" ];\n");
    let out = mdp.with_file_name("ltl-sched.txt");
    let o = out.to_str().unwrap();
    let v = checked(&mdp, &props, &["--prop", "gfa", "--export-scheduler", o]);
    assert!((v["result"].as_f64().unwrap() - 1.0).abs() < 1e-9, "{v}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("# scheduler with memory for"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("init 0 ")), "{text}");
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("init"))
        .collect();
    assert!(
        rows.iter()
            .any(|r| r.starts_with("0 ") && r.contains(" 0 l :")),
        "{text}"
    );
    assert!(rows.iter().all(|r| r.contains(" : ")), "{text}");
}

#[test]
fn ltl_on_a_hard_ctmc_answers_timeout() {
    let Some(dir) = verikit_testkit::shared_path("qvbs/ctmc/polling") else {
        eprintln!("skipped: shared data missing");
        return;
    };
    let p = tmp("polling-ltl.props", "P=? [ G F s=1 ];\n");
    let (v, code, _) = check_for_a_second(&dir.join("polling.20.prism"), &p, &[]);
    assert_eq!(code, 3, "{v}");
    assert_eq!(v["verdict"], "timeout", "{v}");
}
