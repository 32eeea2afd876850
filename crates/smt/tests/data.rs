//! Every instance of the shared SMT-LIB data: the answer must equal the file's `:status`, every
//! model must satisfy the assertions and every Farkas certificate must check. Each instance gets
//! a small time budget; instances that exceed it are listed as skipped (too slow), never counted
//! as passes.

use std::time::Duration;
use verikit_smt::{run_script, RunOptions};

const BUDGET: Duration = Duration::from_millis(400);

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
                let out = run_script(
                    &text,
                    RunOptions {
                        check: true,
                        budget: verikit_diag::Budget::with_timeout(BUDGET),
                        ..Default::default()
                    },
                );
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
    eprintln!("smt data: {solved}/{total} solved and checked within {BUDGET:?} each; {} skipped as too slow:", skipped.len());
    for s in &skipped {
        eprintln!("  SKIPPED (too slow): {s}");
    }
    assert!(
        wrong.is_empty(),
        "wrong or unchecked answers:\n{}",
        wrong.join("\n")
    );
    assert!(solved > 0);
}
