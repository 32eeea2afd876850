#![cfg(feature = "sat")]
//! `verikit sat` end to end: answers, competition output and exit codes, DRAT proofs checked by
//! the independent checker, cores re-checked unsatisfiable (and minimal for `mus`), group cores,
//! located errors (exit 2), BMC CNFs of shared circuits, and `--timeout 1` (exit 3).

use verikit_diag::Budget;
use verikit_sat::{check_drat, dimacs, parse_drat, Cdcl, Lit, NoTheory, SatResult};

mod common;
use common::{run, verikit};

const PHP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/sat/php-4-3.cnf");
const GPHP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/sat/php-4-3.gcnf");

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("verikit-sat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn solve(n: u32, cls: &[Vec<Lit>]) -> SatResult {
    let mut s = Cdcl::new();
    for _ in 0..n {
        s.new_var();
    }
    for c in cls {
        s.add_clause(&mut NoTheory, c);
    }
    s.solve(&mut NoTheory, &[])
}

#[test]
fn unsat_with_text_and_binary_proofs_checked() {
    let cnf = dimacs::parse(&std::fs::read_to_string(PHP).unwrap()).unwrap();
    for binary in [false, true] {
        let p = tmp(if binary { "php.bdrat" } else { "php.drat" });
        let ps = p.to_str().unwrap();
        let mut args = vec!["--json", "sat", PHP, "--proof", ps];
        if binary {
            args.push("--binary-proof");
        }
        let (code, v, err) = verikit(&args);
        assert_eq!(code, 0, "{err}");
        assert_eq!(v["verdict"], "false");
        assert_eq!(v["result"], "unsat");
        let steps = parse_drat(&std::fs::read(&p).unwrap()).unwrap();
        let ck = check_drat(cnf.num_vars, &cnf.clauses, &steps, &Budget::unlimited()).unwrap();
        assert!(ck.checked > 0);
    }
}

/// `path` gzip-compressed into the temporary file `name`.
fn gzip(path: &str, name: &str) -> std::path::PathBuf {
    use std::io::Write;
    let out = tmp(name);
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(&std::fs::read(path).unwrap()).unwrap();
    std::fs::write(&out, z.finish().unwrap()).unwrap();
    out
}

#[test]
fn gzip_compressed_cnf_is_read_and_a_corrupt_one_is_an_input_error() {
    let gz = gzip(PHP, "php.cnf.gz");
    let g = gz.to_str().unwrap();
    for args in [vec!["--json", "sat", g], vec!["--json", "sat", "core", g]] {
        let (code, v, err) = verikit(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert_eq!(v["result"], "unsat", "{v}");
    }
    let bad = tmp("bad.cnf.gz");
    std::fs::write(&bad, [0x1f, 0x8b, 8, 0, 1, 2, 3]).unwrap();
    let (code, _, err) = verikit(&["--json", "sat", bad.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("does not decompress"), "{err}");
}

#[test]
fn competition_output_and_exit_codes() {
    let (code, _, out, _) = run(&["sat", "--competition", PHP]);
    assert_eq!(code, 20);
    assert_eq!(out.trim(), "s UNSATISFIABLE");
    let f = tmp("sat.cnf");
    let text = "p cnf 4 4\n1 2 0\n-1 3 0\n-3 -2 0\n4 -1 0\n";
    std::fs::write(&f, text).unwrap();
    let (code, _, out, _) = run(&["sat", "--competition", f.to_str().unwrap()]);
    assert_eq!(code, 10);
    assert!(out.starts_with("s SATISFIABLE\n"), "{out}");
    let lits: Vec<i64> = out
        .lines()
        .filter(|l| l.starts_with("v "))
        .flat_map(|l| l[2..].split_whitespace().map(|t| t.parse::<i64>().unwrap()))
        .collect();
    assert_eq!(lits.last(), Some(&0));
    let cnf = dimacs::parse(text).unwrap();
    assert!(cnf.satisfied_by(|v| lits.contains(&(i64::from(v) + 1))));
    let (code, v, _) = verikit(&["--json", "sat", f.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(v["verdict"], "true");
    assert_eq!(v["witness"]["model"].as_array().unwrap().len(), 4);
}

#[test]
fn every_core_method_gives_an_unsat_core() {
    let cnf = dimacs::parse(&std::fs::read_to_string(PHP).unwrap()).unwrap();
    for method in ["mus", "mus-rotate", "proof", "trimmer", "trim-till-fix"] {
        let out = tmp(&format!("core-{method}.cnf"));
        let (code, v, err) = verikit(&[
            "--json",
            "sat",
            "core",
            PHP,
            "--method",
            method,
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{method}: {err}");
        assert_eq!(v["verdict"], "false", "{method}: {v}");
        assert_eq!(v["core_checked"], true);
        let core = dimacs::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
        let ids: Vec<usize> = v["witness"]["clauses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(ids.len(), core.clauses.len());
        for (i, c) in ids.iter().zip(&core.clauses) {
            assert_eq!(&cnf.clauses[i - 1], c);
        }
        assert_eq!(
            solve(core.num_vars, &core.clauses),
            SatResult::Unsat,
            "{method}"
        );
        assert!(core.clauses.len() <= cnf.clauses.len());
        if method.starts_with("mus") {
            // php(4,3) is minimally unsatisfiable; the two clauses with a pure literal are in no MUS
            assert_eq!(core.clauses.len(), cnf.clauses.len() - 2);
            assert_eq!(v["minimal"], true);
            for i in 0..core.clauses.len() {
                let mut less = core.clauses.clone();
                less.remove(i);
                assert_eq!(solve(core.num_vars, &less), SatResult::Sat);
            }
        }
    }
}

#[test]
fn group_core_of_a_gcnf() {
    for method in ["mus", "mus-rotate", "trim-till-fix"] {
        let (code, v, err) = verikit(&["--json", "sat", "core", GPHP, "--method", method]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(v["verdict"], "false");
        let gs = v["witness"]["groups"].as_array().unwrap().clone();
        // every pigeon is needed; the MUS has nothing else
        for k in 1..=4 {
            assert!(gs.contains(&serde_json::json!(k)), "{method}: {gs:?}");
        }
        if method.starts_with("mus") {
            assert_eq!(gs.len(), 4);
        }
        assert_eq!(v["core_checked"], true);
    }
}

#[test]
fn bad_input_is_located() {
    let f = tmp("bad.cnf");
    std::fs::write(&f, "p cnf 2 1\n1 x 0\n").unwrap();
    let (code, _, err) = verikit(&["sat", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.cnf:2:3"), "{err}");
    let g = tmp("bad.gcnf");
    std::fs::write(&g, "p gcnf 2 1 1\n{4} 1 0\n").unwrap();
    let (code, _, err) = verikit(&["sat", "core", g.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.gcnf:2:1"), "{err}");
}

/// BMC CNFs of shared circuits one frame short of their shortest counterexample are
/// unsatisfiable: every core method's core is re-checked; the next frame is satisfiable.
#[test]
fn bmc_cnfs_of_shared_circuits() {
    let Some(dir) = verikit_testkit::shared_path("aiger/tniessen") else {
        return;
    };
    for (name, depth) in [
        ("unary-counter-maximum/unary-counter-maximum-5.aag", 4),
        ("collatz-sequence/collatz-sequence-06-10.aag", 11),
    ] {
        let aig = dir.join(name);
        for (k, want) in [(depth - 1, "false"), (depth, "true")] {
            let out = tmp(&format!("bmc-{k}.cnf"));
            let ks = k.to_string();
            let (code, _, err) = verikit(&[
                "aig",
                "bmc-cnf",
                aig.to_str().unwrap(),
                "-k",
                &ks,
                "-o",
                out.to_str().unwrap(),
            ]);
            assert_eq!(code, 0, "{err}");
            let (code, v, err) = verikit(&["--json", "sat", out.to_str().unwrap()]);
            assert_eq!(code, 0, "{err}");
            assert_eq!(v["verdict"], want, "{name} k={k}");
            if want == "true" {
                continue;
            }
            let cnf = dimacs::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
            for method in ["trimmer", "mus"] {
                let core = tmp(&format!("bmc-core-{method}.cnf"));
                let (code, v, err) = verikit(&[
                    "--json",
                    "sat",
                    "core",
                    out.to_str().unwrap(),
                    "--method",
                    method,
                    "-o",
                    core.to_str().unwrap(),
                ]);
                assert_eq!(code, 0, "{err}");
                assert_eq!(v["verdict"], "false", "{name} {method}");
                let c = dimacs::parse(&std::fs::read_to_string(&core).unwrap()).unwrap();
                assert!(c.clauses.len() <= cnf.clauses.len());
                assert_eq!(
                    solve(c.num_vars, &c.clauses),
                    SatResult::Unsat,
                    "{name} {method}"
                );
            }
        }
    }
}

#[test]
fn timeout_on_a_hard_formula() {
    // pigeonhole, 11 pigeons in 10 holes: exponential for resolution
    let (p, h) = (11, 10);
    let v = |i: usize, j: usize| (i * h + j + 1) as i64;
    let mut cls: Vec<Vec<i64>> = (0..p).map(|i| (0..h).map(|j| v(i, j)).collect()).collect();
    for j in 0..h {
        for a in 0..p {
            for b in a + 1..p {
                cls.push(vec![-v(a, j), -v(b, j)]);
            }
        }
    }
    let mut text = format!("p cnf {} {}\n", p * h, cls.len());
    for c in &cls {
        for l in c {
            text.push_str(&format!("{l} "));
        }
        text.push_str("0\n");
    }
    let f = tmp("php-11-10.cnf");
    std::fs::write(&f, text).unwrap();
    for args in [vec!["sat"], vec!["sat", "core"]] {
        let mut a = vec!["--json", "--timeout", "1"];
        a.extend(args);
        a.push(f.to_str().unwrap());
        let (code, v, err) = verikit(&a);
        assert_eq!(code, 3, "{err} {v}");
        assert_eq!(v["verdict"], "timeout");
    }
}

#[test]
fn backend_choice() {
    // the own CDCL by flag or by parameter
    for args in [
        vec!["--json", "sat", "--backend", "cdcl", PHP],
        vec!["--json", "-x", "sat.backend=cdcl", "sat", PHP],
    ] {
        let (code, v, err) = verikit(&args);
        assert_eq!(code, 0, "{err}");
        assert_eq!(v["verdict"], "false");
        assert_eq!(v["backend"], "cdcl");
    }
    // CaDiCaL: the same answer when built with the `cadical` feature, a usage error otherwise
    let (code, v, err) = verikit(&["--json", "sat", "--backend", "cadical", PHP]);
    if cfg!(feature = "cadical") {
        assert_eq!(code, 0, "{err}");
        assert_eq!(v["verdict"], "false");
        assert_eq!(v["backend"], "cadical");
    } else {
        assert_eq!(code, 2, "{v}");
        assert!(err.contains("cadical"), "{err}");
    }
    let (code, _, _) = verikit(&["-x", "sat.backend=minisat", "sat", PHP]);
    assert_eq!(code, 2);
}
