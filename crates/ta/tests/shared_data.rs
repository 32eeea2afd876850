//! The shared TChecker models: every `.tck` parses; every model/query of `EXPECTED.tsv` that
//! TChecker decided in under 2 s gets the same verdict here (covreach, BFS, ExtraLU+ local, as
//! TChecker's runs), every reachable answer's timed trace replays on the model, and the sizes of
//! full explorations are compared with TChecker's.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use verikit_diag::Budget;
use verikit_ta::{check_labels, parse_tck, replay, Algo, Extrapolation, Options, Search};

#[test]
fn every_shared_tck_parses() {
    let dir = verikit_testkit::require_data!("ta/tchecker");
    let mut files = Vec::new();
    common::files_with_ext(&dir, "tck", &mut files);
    assert!(files.len() >= 100, "found only {} .tck files", files.len());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        if let Err(d) = parse_tck(&text) {
            panic!(
                "{}: {}",
                f.display(),
                d.render(&verikit_diag::SourceFile::new(
                    f.display().to_string(),
                    text
                ))
            );
        }
    }
}

struct Row {
    model: String,
    labels: Vec<String>,
    verdict: String,
    visited: Option<u64>,
    algorithm: String,
    time: Option<f64>,
    note: String,
}

fn rows(root: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(root.join("EXPECTED.tsv")).unwrap();
    let mut out = Vec::new();
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        if c.len() < 11 || c[1] != "tchecker" {
            continue;
        }
        let labels = match c[2].strip_prefix("labels=") {
            Some(l) if !l.starts_with("(none)") => l.split(',').map(str::to_string).collect(),
            _ => Vec::new(),
        };
        out.push(Row {
            model: c[0].to_string(),
            labels,
            verdict: c[3].to_string(),
            visited: c[5].parse().ok(),
            algorithm: c[7].to_string(),
            time: c[9].parse().ok(),
            note: c[10].to_string(),
        });
    }
    out
}

fn stored_of(note: &str) -> Option<u64> {
    let s = note.split("stored=").nth(1)?;
    s.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

#[test]
fn verdicts_agree_with_tchecker() {
    let root = verikit_testkit::require_data!("ta");
    let all = rows(&root);
    // TChecker's reach/bfs visited counts of full explorations, per (model, labels)
    let mut reach_visited: BTreeMap<(String, Vec<String>), u64> = BTreeMap::new();
    for r in &all {
        if r.algorithm == "reach/bfs" && r.verdict != "reachable" {
            if let Some(v) = r.visited {
                reach_visited.insert((r.model.clone(), r.labels.clone()), v);
            }
        }
    }
    let (mut checked, mut equal, mut smaller, mut larger, mut traces) = (0, 0, 0, 0, 0);
    for r in &all {
        if r.algorithm != "covreach/bfs"
            || !matches!(r.verdict.as_str(), "reachable" | "unreachable" | "-")
            || r.time.is_none_or(|t| t >= 2.0)
        {
            continue;
        }
        let text = std::fs::read_to_string(root.join(&r.model)).unwrap();
        let model = parse_tck(&text).unwrap();
        let opts = Options {
            search: Search::Bfs,
            algo: Algo::Covreach,
            extrapolation: Extrapolation::LuLocal,
        };
        let res = check_labels(&model, &r.labels, opts, &Budget::unlimited()).unwrap();
        let want = r.verdict == "reachable";
        assert_eq!(res.reachable, Some(want), "{} {:?}", r.model, r.labels);
        // aLU covering (coarser) and DFS give the same verdict (on the small rows: DFS with
        // covering can expand far more nodes than BFS)
        let small = r.time.is_some_and(|t| t < 0.05);
        let others: &[(Algo, Search)] = if small {
            &[
                (Algo::AluCovreach, Search::Bfs),
                (Algo::Covreach, Search::Dfs),
            ]
        } else {
            &[(Algo::AluCovreach, Search::Bfs)]
        };
        for &(algo, search) in others {
            let o = Options {
                algo,
                search,
                ..opts
            };
            let other = check_labels(&model, &r.labels, o, &Budget::unlimited()).unwrap();
            assert_eq!(
                other.reachable,
                Some(want),
                "{} {:?} {algo:?} {search:?}",
                r.model,
                r.labels
            );
            if let Some(t) = &other.timed {
                replay(&model, t, &other.labels)
                    .unwrap_or_else(|e| panic!("{}: trace does not replay: {e}", r.model));
            }
        }
        checked += 1;
        if let Some(t) = &res.timed {
            replay(&model, t, &res.labels)
                .unwrap_or_else(|e| panic!("{}: trace does not replay: {e}", r.model));
            traces += 1;
        }
        if !want {
            let theirs = stored_of(&r.note).unwrap_or(u64::MAX);
            let ours = res.stats.stored;
            match ours.cmp(&theirs) {
                std::cmp::Ordering::Equal => equal += 1,
                std::cmp::Ordering::Less => smaller += 1,
                std::cmp::Ordering::Greater => larger += 1,
            }
            eprintln!("{:<80} stored {:>7} tchecker {:>7}", r.model, ours, theirs);
            if let Some(&rv) = reach_visited.get(&(r.model.clone(), r.labels.clone())) {
                assert!(
                    ours <= rv,
                    "{}: {} stored nodes, more than TChecker's whole zone graph ({rv})",
                    r.model,
                    ours
                );
            }
        }
    }
    eprintln!(
        "checked {checked} queries ({traces} traces replayed); full explorations: stored equal {equal}, smaller {smaller}, larger {larger} than TChecker's covreach"
    );
    assert!(checked >= 20, "only {checked} queries checked");
}
