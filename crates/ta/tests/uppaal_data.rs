//! The shared UPPAAL models: every non-SMC `.xml` parses or is refused by name with a located
//! error; a floor on how many parse. The queries of EXPECTED.tsv: by default (CI) the rows listed
//! in `tests/ci-rows.tsv` (quickly decided, every query kind: `E<>`, `A[]`, `deadlock`, clock
//! constraints, `E[]`, `A<>`, `-->`), each under a generous budget, must all be decided; with
//! `VERIKIT_TA_ALL=1` every row is tried under a small budget and floors on the number decided
//! guard against regressions (`bench/engines/ta-uppaal.py` runs the full set through the CLI).
//! Either way: 0 wrong verdicts, and every witness replays on the independent checker.

mod common;

use std::path::Path;
use verikit_diag::SourceFile;
use verikit_ta::{parse_uppaal, QueryKind};

#[test]
fn every_shared_uppaal_model_parses_or_is_refused_with_a_location() {
    let dir = verikit_testkit::require_data!("ta/uppaal");
    let mut files = Vec::new();
    common::files_with_ext(&dir, "xml", &mut files);
    files.sort();
    assert!(files.len() >= 100, "found only {} .xml files", files.len());
    let mut ok = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let t0 = std::time::Instant::now();
        let r = parse_uppaal(&text);
        if t0.elapsed().as_secs_f64() > 0.5 {
            eprintln!("slow: {} {:?}", f.display(), t0.elapsed());
        }
        match r {
            Ok(_) => ok += 1,
            Err(d) => {
                let src = SourceFile::new(f.display().to_string(), text);
                let loc = d.location(&src);
                eprintln!("refused: {}", d.one_line(&src));
                assert!(loc.is_some(), "{}: error without a location", f.display());
            }
        }
    }
    eprintln!("{ok} of {} UPPAAL models parse", files.len());
    assert!(ok >= 100, "only {ok} of {} parse", files.len());
}

fn all_rows() -> bool {
    std::env::var("VERIKIT_TA_ALL").is_ok_and(|v| v == "1")
}

const CI_ROWS: &str = include_str!("ci-rows.tsv");

/// The UPPAAL rows of EXPECTED.tsv to run: `(model, formula, comment, recorded verdict)`.
fn rows(root: &Path) -> Vec<(String, String, String, String)> {
    let text = std::fs::read_to_string(root.join("EXPECTED.tsv")).unwrap();
    let ci: Vec<(&str, &str)> = CI_ROWS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .collect();
    let mut out = Vec::new();
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        if c.len() < 4 || c[1] != "uppaal-xml" || c[0].starts_with("uppaal-smc/") {
            continue;
        }
        let mut parts = c[2].splitn(2, "/*");
        let formula = parts.next().unwrap_or("").trim().to_string();
        let comment = parts.next().unwrap_or("").trim().to_string();
        if !all_rows() && !ci.iter().any(|&(m, q)| m == c[0] && q.trim() == formula) {
            continue;
        }
        if out
            .iter()
            .any(|r: &(String, String, String, String)| r.0 == c[0] && r.1 == formula)
        {
            continue;
        }
        out.push((c[0].to_string(), formula, comment, c[3].to_string()));
    }
    if !all_rows() {
        assert_eq!(
            out.len(),
            ci.len(),
            "a row of ci-rows.tsv is missing from EXPECTED.tsv"
        );
    }
    out
}

/// Tally of one run over the rows.
#[derive(Default, Debug)]
struct Tally {
    agree: usize,
    decided_unrecorded: usize,
    undecided: Vec<String>,
    refused: usize,
    wrong: Vec<String>,
    deadlock_decided: usize,
    liveness_decided: usize,
    witnesses: usize,
}

/// Every selected row whose model and query we accept is answered: a recorded verdict is never
/// contradicted, a query its comment calls deadlock-free is never answered `false`, and every
/// witness replays — a trace whose end satisfies (`E<>`) or violates (`A[]`) the formula, or a
/// lasso (`E[]` satisfied, `A<>`/`-->` violated) whose cycle is re-entered and whose states all
/// satisfy the formula that must hold along it.
#[test]
fn expected_uppaal_rows_agree_and_witnesses_replay() {
    let root = verikit_testkit::require_data!("ta");
    let secs = if all_rows() { 5 } else { 30 };
    let mut t = Tally::default();
    for (model, formula, comment, verdict) in rows(&root) {
        let Ok(src) = std::fs::read_to_string(root.join(&model)) else {
            continue;
        };
        let Ok(um) = parse_uppaal(&src) else {
            t.refused += 1;
            continue;
        };
        let Ok(q) = um.query_text(&formula) else {
            t.refused += 1;
            continue;
        };
        let budget = verikit_diag::Budget::with_timeout(std::time::Duration::from_secs(secs));
        let t0 = std::time::Instant::now();
        let r = verikit_ta::check_query(&um, &q, verikit_ta::Options::default(), &budget).unwrap();
        eprintln!(
            "{:.2}s\t{model}\t{formula}\t{:?}",
            t0.elapsed().as_secs_f64(),
            r.satisfied
        );
        let Some(sat) = r.satisfied else {
            t.undecided.push(format!("{model} {formula}"));
            continue;
        };
        match verdict.as_str() {
            "satisfied" | "not satisfied" => {
                if sat != (verdict == "satisfied") {
                    t.wrong.push(format!("{model} {formula}: got {sat}"));
                    continue;
                }
                t.agree += 1;
            }
            _ => t.decided_unrecorded += 1,
        }
        let lc = comment.to_lowercase();
        let claimed_free = lc.contains("deadlock free")
            || lc.contains("deadlock-free")
            || lc.contains("no deadlock")
            || lc.contains("never deadlock");
        if q.mentions_deadlock() {
            t.deadlock_decided += 1;
            assert!(sat || !claimed_free, "{model} {formula}: a deadlock");
        }
        let n = um.model.processes.len();
        if q.kind.is_liveness() {
            t.liveness_decided += 1;
            if let Some(l) = r.lasso {
                let tt = r.search.timed.as_ref().unwrap();
                verikit_ta::check_lasso_formula(&um.model, &q, tt, l)
                    .unwrap_or_else(|e| panic!("{model} {formula}: lasso: {e}"));
                t.witnesses += 1;
            }
        } else if let Some(tt) = &r.search.timed {
            let end = verikit_ta::replay_end(&um.model, tt).unwrap();
            let holds = q
                .holds_at(n, &end.state, end.deadlocked, &end.clocks)
                .unwrap();
            assert_eq!(holds, q.kind == QueryKind::Reach, "{model}: trace end");
            t.witnesses += 1;
        }
    }
    eprintln!("{t:#?}");
    assert!(t.wrong.is_empty(), "wrong verdicts: {:#?}", t.wrong);
    if all_rows() {
        // small budget on a loaded machine: floors, not exact counts
        assert!(t.agree >= 32, "only {} rows agree", t.agree);
        assert!(
            t.deadlock_decided >= 10,
            "only {} deadlock rows decided",
            t.deadlock_decided
        );
        assert!(
            t.liveness_decided >= 2,
            "only {} liveness rows decided",
            t.liveness_decided
        );
    } else {
        assert!(
            t.undecided.is_empty(),
            "CI rows undecided: {:#?}",
            t.undecided
        );
        assert_eq!(t.refused, 0, "a CI row is refused");
    }
}

/// train-gate's liveness queries (`-->`, `E[]`/`A<>`) within a budget too small for them (on a
/// loaded machine): the answer is `timeout`, returned once the budget is gone — the lasso search after the zone graph
/// (a federation per node for "can a maximal path stop here") polls the budget too, and a cut
/// exploration is not searched further.
#[test]
fn train_gate_liveness_honours_its_budget() {
    let root = verikit_testkit::require_data!("ta");
    let path = root.join("uppaal/deis-uppaal-models/Demos/Symbolic/train-gate.xml");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: {} missing", path.display());
        return;
    };
    let um = parse_uppaal(&text).unwrap();
    let q = um
        .embedded_queries()
        .into_iter()
        .flatten()
        .find(|q| q.kind == QueryKind::LeadsTo)
        .expect("train-gate has a leads-to query");
    let budget = verikit_diag::Budget::with_timeout(std::time::Duration::from_millis(200));
    let r = verikit_ta::check_query(&um, &q, verikit_ta::Options::default(), &budget).unwrap();
    if r.satisfied.is_none() {
        assert_eq!(
            r.search.exhausted.map(|e| e.verdict_word()),
            Some("timeout"),
            "{}",
            q.text
        );
    }
}
