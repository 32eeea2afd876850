#![cfg(feature = "synt")]
//! `verikit synt` end to end: verdicts, witness shape, ltlsynt-style partitions, located errors,
//! exit codes, timeout on a hard real input.

mod common;
use common::run as verikit;

const DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/synt/arbiter.tlsf");

#[test]
fn tlsf_arbiter_is_realizable_with_a_checked_controller() {
    let (code, v, _, err) = verikit(&["--json", "synt", "solve", DEMO]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["verdict"], "true");
    assert_eq!(v["result"], "realizable");
    let w = &v["witness"];
    assert_eq!(w["kind"], "controller");
    assert_eq!(w["checked"], true);
    let aag = w["aiger"].as_str().unwrap();
    let header: Vec<&str> = aag.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(header[0], "aag");
    assert_eq!(header[2], "2", "two inputs r_0, r_1: {aag}");
    assert_eq!(header[4], "2", "two outputs g_0, g_1: {aag}");
    assert!(aag.contains("i0 r_0") && aag.contains("o1 g_1"), "{aag}");
    // Text mode prints the verdict then the circuit; --realizability only the verdict.
    let (code, _, text, _) = verikit(&["synt", "solve", DEMO]);
    assert_eq!(code, 0);
    assert!(text.starts_with("realizable\naag "), "{text}");
    let (_, _, text, _) = verikit(&["synt", "solve", DEMO, "--realizability"]);
    assert_eq!(text.trim(), "realizable");
}

/// `synt solve -f FORMULA --ins|--outs NAMES [--moore]` with the verdict it must give.
const LTLSYNT_CASES: &[(&str, &str, &str, bool, &str)] = &[
    // --outs inferred from --ins.
    ("G(r -> F g)", "--ins", "r", false, "true"),
    // --ins inferred from --outs; unrealizable (with a counter-strategy, checked below).
    ("G(g <-> X r)", "--outs", "g", false, "false"),
    // Moore: the system cannot copy the current input, but can copy it one step later.
    ("G(r <-> g)", "--ins", "r", true, "false"),
    ("G(r <-> X g)", "--ins", "r", true, "true"),
];

#[test]
fn ltlsynt_interface_and_counter_strategies() {
    for &(f, side, names, moore, want) in LTLSYNT_CASES {
        let mut args = vec!["--json", "synt", "solve", "-f", f, side, names];
        if moore {
            args.push("--moore");
        }
        let (code, v, _, err) = verikit(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert_eq!(v["verdict"], want, "{args:?}");
        if want == "false" && !moore {
            // The counter-strategy reads the system's outputs.
            assert_eq!(v["result"], "unrealizable");
            assert_eq!(v["witness"]["kind"], "counter-strategy");
            assert!(v["witness"]["aiger"].as_str().unwrap().contains("i0 g"));
        }
    }
}

#[test]
fn aiger_file_is_written() {
    let dir = std::env::temp_dir().join(format!("verikit-synt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = dir.join("c.aig");
    let asc = dir.join("c.aag");
    for f in [&bin, &asc] {
        let (code, _, _, err) = verikit(&["synt", "solve", DEMO, "--aiger", f.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
    }
    assert!(std::fs::read(&bin).unwrap().starts_with(b"aig "));
    assert!(std::fs::read(&asc).unwrap().starts_with(b"aag "));
}

#[test]
fn convert_prints_formula_and_partition() {
    let (code, v, _, err) = verikit(&["--json", "synt", "convert", DEMO]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["ins"], "r_0,r_1");
    assert_eq!(v["outs"], "g_0,g_1");
    assert!(
        v["formula"].as_str().unwrap().contains("G(r_0 -> F g_0)"),
        "{v}"
    );
    let (_, _, text, _) = verikit(&["synt", "convert", DEMO]);
    assert!(text.contains("--ins=r_0,r_1\n--outs=g_0,g_1"), "{text}");
}

#[test]
fn bad_input_is_located_or_named() {
    let dir = std::env::temp_dir().join(format!("verikit-synt-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.tlsf");
    std::fs::write(
        &f,
        "MAIN {\n  INPUTS { a; }\n  OUTPUTS { b; }\n  GUARANTEE { G (a -> c); }\n}\n",
    )
    .unwrap();
    let (code, _, _, err) = verikit(&["synt", "solve", f.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("bad.tlsf:4:") && err.contains("undefined name `c`"),
        "{err}"
    );
    // A malformed enumeration type is a located error; a well-formed one is encoded as bits.
    std::fs::write(
        &f,
        "GLOBAL { DEFINITIONS { enum e = a: 01 b: 1; } } MAIN { }",
    )
    .unwrap();
    let (code, _, _, err) = verikit(&["synt", "convert", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("bad.tlsf:1:") && err.contains("value `b` has 1 bits"),
        "{err}"
    );
    std::fs::write(
        &f,
        "GLOBAL { DEFINITIONS { enum e = a: 01 b: 10; } } \
         MAIN { INPUTS { e x; } OUTPUTS { y; } GUARANTEE { G (x == a -> y); } }",
    )
    .unwrap();
    let (code, _, out, err) = verikit(&["synt", "convert", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("--ins=x_0,x_1"), "{out}");
    // A formula over undeclared propositions names them.
    let (code, _, _, err) = verikit(&[
        "synt",
        "solve",
        "-f",
        "G(a -> F b) & c",
        "--ins",
        "a",
        "--outs",
        "b",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("neither inputs nor outputs: c"), "{err}");
}

#[test]
fn timeout_on_a_hard_real_input() {
    // A specification no tool has decided (SYNTCOMP status unknown): never solved within 1 s.
    let Some(p) =
        verikit_testkit::shared_path("synt/tlsf/full_arbiter_log/full_arbiter_enc_10.tlsf")
    else {
        eprintln!("skipping: ../shared/data/synt is missing");
        return;
    };
    let t = std::time::Instant::now();
    let (code, v, _, err) = verikit(&[
        "--json",
        "--timeout",
        "1",
        "synt",
        "solve",
        p.to_str().unwrap(),
    ]);
    assert_eq!(code, 3, "{err}");
    assert_eq!(v["verdict"], "timeout");
    eprintln!("answered timeout after {:.1} s", t.elapsed().as_secs_f64());
}

#[test]
fn engines_agree_and_name_themselves() {
    // The deterministic route (parity game) and the bounded games on the same inputs: same
    // verdicts, checked witnesses, the deciding engine in the answer; unknown engines refused.
    for (args, want) in [
        (vec!["synt", "solve", DEMO], "true"),
        (
            vec!["synt", "solve", "-f", "G(g <-> X r)", "--outs", "g"],
            "false",
        ),
        (
            vec![
                "synt",
                "solve",
                "-f",
                "G(r <-> X g)",
                "--ins",
                "r",
                "--moore",
            ],
            "true",
        ),
    ] {
        for engine in ["bounded", "parity", "portfolio"] {
            let x = format!("synt.engine={engine}");
            let mut a = vec!["--json", "-x", x.as_str()];
            a.extend(args.iter().copied());
            let (code, v, _, err) = verikit(&a);
            assert_eq!(code, 0, "{engine} {args:?}: {err}");
            assert_eq!(v["verdict"], want, "{engine} {args:?}");
            assert_eq!(v["witness"]["checked"], true, "{engine} {args:?}");
            let by = v["engine"].as_str().unwrap_or_default();
            match engine {
                "portfolio" => assert!(by == "bounded" || by == "parity", "{by}"),
                e => assert_eq!(by, e),
            }
        }
    }
    let (code, _, _, err) = verikit(&["-x", "synt.engine=strix", "synt", "solve", DEMO]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bounded, parity or portfolio"), "{err}");
}
