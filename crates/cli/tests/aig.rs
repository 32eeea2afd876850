#![cfg(feature = "aig")]
//! `verikit aig` end to end: verdicts of every engine, JSON shape, witness files replayed,
//! located errors for malformed circuits (exit 2), and `--timeout` on a hard circuit (exit 3).

use verikit_aiger::{parse, replay, Witness};

mod common;
use common::verikit;

const COUNTER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/aig/counter.aag");
const RING: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/aig/ring.aag");

#[test]
fn every_engine_finds_the_counter_bug_and_proves_the_ring() {
    for engine in ["bmc", "kind", "ic3", "portfolio"] {
        let (code, v, err) = verikit(&["--json", "aig", "check", COUNTER, "--engine", engine]);
        assert_eq!(code, 0, "{engine}: {err}");
        assert_eq!(v["verdict"], "false", "{engine}: {v}");
        assert_eq!(v["result"], "unsafe");
        assert_eq!(v["depth"], 3, "{engine}: {v}");
        let w = Witness::parse(v["witness"]["aiger"].as_str().unwrap()).unwrap();
        let aig = parse("c", &std::fs::read(COUNTER).unwrap()).unwrap();
        assert_eq!(replay(&aig, &w, 0).unwrap().frame, 3);
        if engine == "bmc" {
            continue; // BMC alone never proves safety
        }
        let (code, v, err) = verikit(&["--json", "aig", "check", RING, "--engine", engine]);
        assert_eq!(code, 0, "{engine}: {err}");
        assert_eq!(v["verdict"], "true", "{engine}: {v}");
        assert_eq!(v["result"], "safe");
    }
    let (code, v, _) = verikit(&[
        "--json",
        "-x",
        "hw.bmc-max-depth=5",
        "aig",
        "check",
        RING,
        "--engine",
        "bmc",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["verdict"], "unknown", "{v}");
}

#[test]
fn gzip_compressed_circuit_is_checked() {
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("verikit-aig-gz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gz = dir.join("counter.aag.gz");
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(&std::fs::read(COUNTER).unwrap()).unwrap();
    std::fs::write(&gz, z.finish().unwrap()).unwrap();
    let (code, v, err) = verikit(&["--json", "aig", "check", gz.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["result"], "unsafe", "{v}");
    let w = Witness::parse(v["witness"]["aiger"].as_str().unwrap()).unwrap();
    let aig = parse("c", &std::fs::read(COUNTER).unwrap()).unwrap();
    assert_eq!(replay(&aig, &w, 0).unwrap().frame, 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn witness_file_is_written_and_info_reports_sections() {
    let dir = std::env::temp_dir().join(format!("verikit-aig-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("cex.txt");
    let (code, _, err) = verikit(&["aig", "check", COUNTER, "--witness", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let w = Witness::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(w.inputs.len(), 4);
    let (code, v, _) = verikit(&["--json", "aig", "info", RING]);
    assert_eq!(code, 0);
    assert_eq!(v["input"]["latches"], 3);
    assert_eq!(v["latches_reset_1"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_circuits_are_located_errors() {
    let dir = std::env::temp_dir().join(format!("verikit-aig-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("cyclic.aag");
    std::fs::write(&bad, "aag 3 1 0 1 2\n2\n6\n4 2 6\n6 4 3\n").unwrap();
    let (code, _, err) = verikit(&["aig", "check", bad.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("cyclic") && err.contains("cyclic.aag:5:1"),
        "{err}"
    );
    let bin = dir.join("short.aig");
    std::fs::write(&bin, b"aig 3 1 1 0 1 1\n6\n6\n\x02").unwrap();
    let (code, _, err) = verikit(&["aig", "info", bin.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("byte offset"), "{err}");
    let (code, v, _) = verikit(&["--json", "aig", "check", RING, "--property", "3"]);
    assert_eq!(code, 2);
    assert_eq!(v["verdict"], "error");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `aig check` of a circuit no engine decides within a second (ABC's pdr leaves it undecided
/// after 40 s, see the data README), with `extra` arguments: exit 3, `timeout`, and how far it got.
fn times_out_on_mul9(extra: &[&str]) {
    let Some(dir) = verikit_testkit::shared_path("aiger/hwmcc20") else {
        return;
    };
    let f = dir.join("mul9.aig");
    let mut args = vec![
        "--json",
        "--timeout",
        "1",
        "aig",
        "check",
        f.to_str().unwrap(),
    ];
    args.extend(extra);
    let (code, v, err) = verikit(&args);
    assert_eq!(code, 3, "{extra:?}: {err} {v}");
    assert_eq!(v["verdict"], "timeout");
    assert!(v["reached"].as_str().is_some_and(|s| !s.is_empty()), "{v}");
}

#[test]
fn timeout_on_a_hard_circuit_says_how_far_it_got() {
    times_out_on_mul9(&[]);
}

/// A timed-out run prints the engines' statistics, not the watchdog's bare `timeout`: on a
/// circuit of 28 000 gates and 1 100 latches (reduction, fraiging, BMC and IC3 all have work
/// to do at the deadline) the portfolio's answer carries IC3's counters, BMC's depth and the
/// reduction's sizes even when the process gets a fraction of a core (the watchdog's grace is
/// CPU time).
#[test]
fn a_timed_out_run_prints_its_statistics() {
    let Some(dir) = verikit_testkit::shared_path("aiger/hwmcc20") else {
        return;
    };
    let f = dir.join("dspfilters_fastfir_second-p04.aig");
    for t in ["1", "2"] {
        let (code, v, err) = verikit(&[
            "--json",
            "--timeout",
            t,
            "aig",
            "check",
            f.to_str().unwrap(),
        ]);
        assert_eq!(code, 3, "{t}: {err} {v}");
        assert_eq!(v["verdict"], "timeout");
        assert!(v.get("timeout_s").is_none(), "the watchdog answered: {v}");
        assert!(v["reached"].as_str().is_some_and(|s| !s.is_empty()), "{v}");
        let stats = &v["stats"];
        for key in [
            "ic3_queries",
            "ic3_frames",
            "bmc",
            "reduced_latches",
            "seconds_reduce",
        ] {
            assert!(stats.get(key).is_some(), "{t}: no {key} in {v}");
        }
    }
}

const MOD3: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/aig/mod3.aag");

#[test]
fn justice_and_ltl_properties() {
    let aig = parse("m", &std::fs::read(MOD3).unwrap()).unwrap();
    // justice 1 (b infinitely often) fails: a lasso, replayed with every justice literal on its loop
    for engine in ["bmc", "ic3", "kind", "portfolio"] {
        let (code, v, err) = verikit(&[
            "--json",
            "aig",
            "check",
            MOD3,
            "--justice",
            "1",
            "--engine",
            engine,
        ]);
        assert_eq!(code, 0, "{engine}: {err}");
        assert_eq!(v["verdict"], "false", "{engine}: {v}");
        assert_eq!(v["result"], "violated");
        let w = Witness::parse(v["witness"]["aiger"].as_str().unwrap()).unwrap();
        let fair: Vec<u32> = aig.justice[1].clone();
        verikit_aiger::replay_lasso(&aig, &w, &fair).unwrap();
    }
    // justice 0 (state 11 infinitely often) holds: an invariant of the liveness-to-safety circuit
    let (code, v, err) = verikit(&["--json", "aig", "check", MOD3, "--justice", "0"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["verdict"], "true", "{v}");
    assert_eq!(v["result"], "holds");
    assert_eq!(v["witness"]["circuit"], "liveness-to-safety");
    // LTL by symbol names and by position
    for (f, verdict) in [
        ("F G !en", "false"),
        ("G F b", "false"),
        ("G !(l0 & l1)", "unknown"),
    ] {
        let (code, v, err) = verikit(&[
            "--json",
            "-x",
            "hw.bmc-max-depth=8",
            "aig",
            "check",
            MOD3,
            "--ltl",
            f,
            "--engine",
            "bmc",
        ]);
        assert_eq!(code, 0, "{f}: {err}");
        assert_eq!(v["verdict"], verdict, "{f}: {v}");
    }
    // proved through the product with the monitor of the negation's automaton
    let (code, v, err) = verikit(&["--json", "aig", "check", MOD3, "--ltl", "G !(a & b)"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["verdict"], "true", "{v}");
    assert_eq!(v["witness"]["circuit"], "liveness-to-safety");
    // unknown propositions and syntax errors are usage errors
    for f in ["G F nosuch", "G (en"] {
        let (code, v, _) = verikit(&["--json", "aig", "check", MOD3, "--ltl", f]);
        assert_eq!(code, 2, "{f}: {v}");
    }
    let (code, _, _) = verikit(&["--json", "aig", "check", MOD3, "--justice", "7"]);
    assert_eq!(code, 2);
}

#[test]
fn ltl_timeout_on_a_hard_circuit() {
    times_out_on_mul9(&["--ltl", "G F !b0", "--engine", "bmc"]);
}

const MEM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/aig/mem4x2.aag");
const MEM_BUG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/aig/mem4x2-bug.aag");
const MEM_STE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/aig/mem4x2.ste");
const CAM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/aig/cam2.aag");
const CAM_STE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/aig/cam2.ste");
const CAM_FIXED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/aig/cam2-mismatch.ste");

/// The run of a `fails` witness replayed on the circuit by the AIGER simulator: the named
/// assertion's violated consequent nodes are recomputed here from the witness alone.
fn replay_ste_witness(aig_path: &str, ste_path: &str, w: &serde_json::Value) -> Vec<String> {
    let aig = parse("c", &std::fs::read(aig_path).unwrap()).unwrap();
    let f = verikit_hw::parse_ste("s", &std::fs::read_to_string(ste_path).unwrap()).unwrap();
    let a = f
        .assertions
        .iter()
        .find(|a| a.name == w["assertion"].as_str().unwrap())
        .unwrap();
    let bits = |s: &str| s.chars().map(|c| c == '1').collect::<Vec<bool>>();
    let run = verikit_hw::ConcreteRun {
        valuation: a
            .vars
            .iter()
            .map(|n| w["valuation"][n].as_u64() == Some(1))
            .collect(),
        latches: bits(w["latches"].as_str().unwrap()),
        inputs: w["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| bits(f.as_str().unwrap()))
            .collect(),
    };
    verikit_hw::replay_ste(&aig, a, &run).unwrap()
}

#[test]
fn ste_holds_fails_and_x_with_refinement() {
    // the correct memory: write_read holds, the read from an unconstrained address is X
    let (code, v, err) = verikit(&["--json", "aig", "ste", MEM, MEM_STE]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["verdict"], "unknown", "{v}");
    assert_eq!(v["results"][0]["result"], "holds");
    assert_eq!(v["results"][1]["result"], "x");
    // refined, the X becomes a real counterexample (another word is read)
    for r in ["star", "tg"] {
        let (code, v, err) = verikit(&[
            "--json",
            "-x",
            &format!("ste.refine={r}"),
            "aig",
            "ste",
            MEM,
            MEM_STE,
        ]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(v["verdict"], "false", "{r}: {v}");
        assert_eq!(v["results"][1]["result"], "fails");
        assert!(!replay_ste_witness(MEM, MEM_STE, &v["witness"]).is_empty());
    }
    // the decoder bug fails write_read without refinement
    let (code, v, _) = verikit(&["--json", "aig", "ste", MEM_BUG, MEM_STE]);
    assert_eq!(code, 0);
    assert_eq!(v["results"][0]["result"], "fails", "{v}");
    assert!(!replay_ste_witness(MEM_BUG, MEM_STE, &v["witness"]).is_empty());
    // C19's CAM: symbolic indexing is X; refinement finds two matching tags; A' proves it
    let (_, v, _) = verikit(&["--json", "aig", "ste", CAM, CAM_STE]);
    assert_eq!(v["verdict"], "unknown", "{v}");
    let (_, v, _) = verikit(&["--json", "-x", "ste.refine=tg", "aig", "ste", CAM, CAM_STE]);
    assert_eq!(v["verdict"], "false", "{v}");
    assert!(!replay_ste_witness(CAM, CAM_STE, &v["witness"]).is_empty());
    let (_, v, _) = verikit(&["--json", "aig", "ste", CAM, CAM_FIXED]);
    assert_eq!(v["verdict"], "true", "{v}");
    // bad input: a located error, exit 2
    let dir = std::env::temp_dir().join(format!("verikit-ste-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ste");
    std::fs::write(&bad, "assert a:\n  we is 1 ==> nosuch is 0 ;\n").unwrap();
    let (code, _, err) = verikit(&["aig", "ste", MEM, bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.ste:2:15"), "{err}");
    let (code, _, err) = verikit(&["-x", "ste.refine=magic", "aig", "ste", MEM, MEM_STE]);
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn everlost_finds_the_counter_bug() {
    let (code, v, err) = verikit(&["--json", "aig", "check", COUNTER, "--engine", "everlost"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["verdict"], "false", "{v}");
    let w = Witness::parse(v["witness"]["aiger"].as_str().unwrap()).unwrap();
    let aig = parse("c", &std::fs::read(COUNTER).unwrap()).unwrap();
    assert!(replay(&aig, &w, 0).is_ok());
    // A safe circuit: EverLost never claims safe. Here its abstract model (all three latches)
    // cannot reach the target, so it stops at once with `unknown` and says why.
    let (code, v, _) = verikit(&[
        "--json",
        "--timeout",
        "1",
        "aig",
        "check",
        RING,
        "--engine",
        "everlost",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["verdict"], "unknown", "{v}");
    assert!(
        v["reason"]
            .as_str()
            .is_some_and(|r| r.contains("cannot reach")),
        "{v}"
    );
}

#[test]
fn ste_timeout_on_a_multiplier() {
    let Some(dir) = verikit_testkit::shared_path("aiger/hwmcc20") else {
        return;
    };
    // every input symbolic over 8 frames of a 9-bit multiplier: the BDDs blow up
    let f = dir.join("mul9.aig");
    let aig = parse("m", &std::fs::read(&f).unwrap()).unwrap();
    let mut ante = Vec::new();
    for t in 0..8 {
        for i in 0..aig.inputs.len() {
            ante.push(format!("at {t}: i{i} is x{t}_{i}"));
        }
    }
    for l in 0..aig.latches.len() {
        ante.push(format!("l{l} is s{l}"));
    }
    let text = format!(
        "assert m: {} ==> at 7: v{} is 0 ;\n",
        ante.join(" and "),
        aig.maxvar
    );
    let tmp = std::env::temp_dir().join(format!("verikit-ste-mul-{}.ste", std::process::id()));
    std::fs::write(&tmp, text).unwrap();
    let (code, v, err) = verikit(&[
        "--json",
        "--timeout",
        "1",
        "aig",
        "ste",
        f.to_str().unwrap(),
        tmp.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_file(&tmp);
    assert_eq!(code, 3, "{err} {v}");
    assert_eq!(v["verdict"], "timeout");
}
