//! Instances of the shared SMT-LIB data: the answer must equal the file's `:status`, every model
//! must satisfy the assertions and every Farkas certificate must check.
//!
//! By default (CI) the instances listed in `tests/ci-instances.tsv` (a fixed sample over every
//! logic and family, each solved well under a second on a quiet machine) run, each under a
//! generous budget, and every one of them must be decided. With `VERIKIT_SMT_ALL=1` every
//! instance runs under a small budget; instances that exceed it are listed as skipped (too slow),
//! never counted as passes. `bench/engines/smt.py` runs the full set through the CLI.

use std::time::{Duration, Instant};
use verikit_smt::{run_script, RunOptions};

/// Whether to run every shared instance instead of the CI list.
fn all() -> bool {
    std::env::var("VERIKIT_SMT_ALL").is_ok_and(|v| v == "1")
}

/// Time budget per instance (override with `VERIKIT_SMT_MS`): small for the full set, large for
/// the CI list, whose instances must all be decided however loaded the machine is.
fn budget() -> Duration {
    let ms = std::env::var("VERIKIT_SMT_MS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if all() { 400 } else { 20_000 });
    Duration::from_millis(ms)
}

/// The CI list: instance paths relative to the data folder.
const CI_INSTANCES: &str = include_str!("ci-instances.tsv");

#[test]
fn shared_smt_data_answers_match_status_and_check() {
    let root = verikit_testkit::require_data!("smt");
    let manifest = match std::fs::read_to_string(root.join("MANIFEST.tsv")) {
        Ok(m) => m,
        Err(_) => {
            eprintln!("SKIP: smt/MANIFEST.tsv missing");
            return;
        }
    };
    let rows: Vec<(String, String)> = manifest
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f.len() > 3).then(|| (f[0].to_string(), f[3].to_string()))
        })
        .collect();
    let ci: Vec<&str> = CI_INSTANCES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').next().unwrap_or(l))
        .collect();
    let rows: Vec<(String, String)> = if all() {
        rows
    } else {
        let picked: Vec<_> = rows
            .into_iter()
            .filter(|(p, _)| ci.contains(&p.as_str()))
            .collect();
        assert_eq!(
            picked.len(),
            ci.len(),
            "some instances of tests/ci-instances.tsv are not in smt/MANIFEST.tsv"
        );
        picked
    };
    let budget = budget();
    // Answers recorded from yices-smt2 and z3 (tests/expected/smt-status.tsv), when present.
    let peers: std::collections::HashMap<String, Vec<String>> =
        std::fs::read_to_string(verikit_testkit::expected("smt-status.tsv"))
            .map(|t| {
                t.lines()
                    .filter(|l| !l.starts_with('#') && !l.starts_with("path\t"))
                    .filter_map(|l| {
                        let f: Vec<&str> = l.split('\t').collect();
                        (f.len() >= 4)
                            .then(|| (f[0].to_string(), vec![f[2].to_string(), f[3].to_string()]))
                    })
                    .collect()
            })
            .unwrap_or_default();
    if peers.is_empty() {
        eprintln!("note: tests/expected/smt-status.tsv missing; comparing with :status only");
    }
    // Big stack: the elaborator and CNF conversion recurse over deep `let` terms.
    let h = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || {
            let (mut solved, mut skipped, mut wrong) = (0, Vec::new(), Vec::new());
            for (path, status) in &rows {
                let text = match std::fs::read_to_string(root.join(path)) {
                    Ok(t) => t,
                    Err(e) => {
                        wrong.push(format!("{path}: unreadable: {e}"));
                        continue;
                    }
                };
                let t0 = Instant::now();
                let out = run_script(
                    &text,
                    RunOptions {
                        check: true,
                        budget: verikit_diag::Budget::with_timeout(budget),
                        ..Default::default()
                    },
                );
                let answer = out.checks.last().map_or("-", |c| c.answer.as_str());
                eprintln!("{path}\t{answer}\t{:.3}", t0.elapsed().as_secs_f64());
                if !out.errors.is_empty() {
                    wrong.push(format!("{path}: error {}", out.errors[0].message));
                    continue;
                }
                let last = match out.checks.last() {
                    Some(c) => c,
                    None => {
                        wrong.push(format!("{path}: no check-sat"));
                        continue;
                    }
                };
                for c in &out.checks {
                    if c.model_valid == Some(false) {
                        wrong.push(format!("{path}: model does not satisfy the assertions"));
                    }
                    if !c.certificate_failures.is_empty() {
                        wrong.push(format!(
                            "{path}: certificate failure {}",
                            c.certificate_failures[0]
                        ));
                    }
                }
                if let Some(p) = peers.get(path) {
                    for peer in p {
                        if (peer == "sat" || peer == "unsat")
                            && (last.answer == "sat" || last.answer == "unsat")
                            && *peer != last.answer
                        {
                            wrong.push(format!(
                                "{path}: answered {}, a peer answered {peer}",
                                last.answer
                            ));
                        }
                    }
                }
                match last.answer.as_str() {
                    "unknown" => skipped.push(path.clone()),
                    a if status == "sat" || status == "unsat" => {
                        if a == status {
                            solved += 1;
                        } else {
                            wrong.push(format!("{path}: answered {a}, status {status}"));
                        }
                    }
                    _ => solved += 1, // status unknown: any definite, checked answer
                }
            }
            (solved, skipped, wrong, rows.len())
        })
        .expect("spawn");
    let (solved, skipped, wrong, total) = h.join().expect("test thread panicked");
    eprintln!("smt data: {solved}/{total} solved and checked within {budget:?} each; {} skipped as too slow:", skipped.len());
    for s in &skipped {
        eprintln!("  SKIPPED (too slow): {s}");
    }
    assert!(
        wrong.is_empty(),
        "wrong or unchecked answers:\n{}",
        wrong.join("\n")
    );
    assert!(solved > 0);
    if !all() {
        // The CI list holds instances that are decided well within the budget: all of them.
        assert!(
            skipped.is_empty(),
            "CI instances not decided within {budget:?}: {skipped:?}"
        );
        assert_eq!(solved, total);
    }
}
