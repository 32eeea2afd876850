//! `to_tck` round trip: an UPPAAL model written in TChecker's format and read back by `parse_tck`
//! is the same network — the full zone graph has the same visited/stored/covered counts, and the
//! model's queries (resolved with the UPPAAL names, on the converted network) get the same
//! verdicts and counts. The models of `tests/ci-rows.tsv` by default (CI), every shared UPPAAL
//! model with `VERIKIT_TA_ALL=1`; a model that does not convert must be refused by name with a
//! location. `to_dot` writes a cluster per process.

mod common;

use std::time::Duration;
use verikit_diag::{Budget, SourceFile};
use verikit_ta::{check_labels, check_query, parse_tck, parse_uppaal, to_dot, to_tck, Options};

const CI_ROWS: &str = include_str!("ci-rows.tsv");
const DEMO_XML: &str = include_str!("../../cli/demo/ta/fischer2.xml");

/// Converts `xml`, reads it back and compares; `false` if the model is refused (by name, with a
/// location).
fn round_trip(name: &str, xml: &str, queries: &[String]) -> bool {
    let um = parse_uppaal(xml).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    let tck = match to_tck(&um.model) {
        Ok(t) => t,
        Err(d) => {
            let src = SourceFile::new(name, xml);
            assert!(
                d.location(&src).is_some(),
                "{name}: refusal without location"
            );
            assert!(
                d.message.contains("cannot be written"),
                "{}",
                d.one_line(&src)
            );
            eprintln!("not converted: {}", d.one_line(&src));
            return false;
        }
    };
    let m2 = parse_tck(&tck).unwrap_or_else(|d| {
        let src = SourceFile::new("converted.tck", tck.as_str());
        panic!(
            "{name}: the converted model does not parse: {}\n{tck}",
            d.one_line(&src)
        )
    });
    assert_eq!(um.model.processes.len(), m2.processes.len(), "{name}");
    assert_eq!(um.model.clocks.len(), m2.clocks.len(), "{name}");
    assert_eq!(um.model.ints.len(), m2.ints.len(), "{name}");
    assert_eq!(um.model.syncs.len(), m2.syncs.len(), "{name}");
    let budget = || Budget::with_timeout(Duration::from_secs(20));
    let a = check_labels(&um.model, &[], Options::default(), &budget()).unwrap();
    let b = check_labels(&m2, &[], Options::default(), &budget()).unwrap();
    if a.exhausted.is_none() && b.exhausted.is_none() {
        assert_eq!(a.stats.visited, b.stats.visited, "{name}: visited");
        assert_eq!(a.stats.stored, b.stats.stored, "{name}: stored");
        assert_eq!(a.stats.covered, b.stats.covered, "{name}: covered");
    }
    let mut um2 = um.clone();
    um2.model = m2;
    for q in queries {
        let (Ok(q1), Ok(q2)) = (um.query_text(q), um2.query_text(q)) else {
            continue;
        };
        let r1 = check_query(&um, &q1, Options::default(), &budget()).unwrap();
        let r2 = check_query(&um2, &q2, Options::default(), &budget()).unwrap();
        if r1.satisfied.is_some() && r2.satisfied.is_some() {
            assert_eq!(r1.satisfied, r2.satisfied, "{name} {q}");
            assert_eq!(r1.search.stats.stored, r2.search.stats.stored, "{name} {q}");
        }
    }
    true
}

#[test]
fn the_demo_model_converts_and_keeps_its_verdicts() {
    let qs = [
        "A[] forall (i : pid_t) forall (j : pid_t) i != j imply not (P(i).cs and P(j).cs)",
        "E<> P(1).cs",
        "A[] not deadlock",
        "P(1).req --> P(1).wait",
    ]
    .map(String::from);
    assert!(round_trip("fischer2.xml", DEMO_XML, &qs));
    let um = parse_uppaal(DEMO_XML).unwrap();
    let dot = to_dot(&um.model).unwrap();
    assert!(dot.starts_with("digraph"), "{dot}");
    assert_eq!(dot.matches("subgraph cluster_").count(), 2, "{dot}");
    assert!(dot.contains("x<=2"), "{dot}");
}

#[test]
fn what_tchecker_cannot_say_is_refused_by_name() {
    let with_fn = DEMO_XML.replace(
        "int[0,N] id = 0;",
        "int[0,N] id = 0;\nint next(int v) { return v + 1; }",
    );
    let with_fn = with_fn.replace("id := pid</label>", "id := next(0)</label>");
    let um = parse_uppaal(&with_fn).unwrap();
    let d = to_tck(&um.model).unwrap_err();
    let src = SourceFile::new("f.xml", with_fn.as_str());
    assert!(
        d.message.contains("function `next`"),
        "{}",
        d.one_line(&src)
    );
    assert!(d.location(&src).is_some());
    // DOT writes it in UPPAAL's syntax
    assert!(to_dot(&um.model).unwrap().contains("next(0)"));
}

#[test]
fn shared_uppaal_models_round_trip() {
    let root = verikit_testkit::require_data!("ta");
    let all = std::env::var("VERIKIT_TA_ALL").is_ok_and(|v| v == "1");
    let mut models: Vec<(String, Vec<String>)> = Vec::new();
    for l in CI_ROWS.lines().filter(|l| !l.starts_with('#')) {
        let Some((m, q)) = l.split_once('\t') else {
            continue;
        };
        match models.iter_mut().find(|(n, _)| n == m) {
            Some((_, qs)) => qs.push(q.to_string()),
            None => models.push((m.to_string(), vec![q.to_string()])),
        }
    }
    if all {
        let mut files = Vec::new();
        common::files_with_ext(&root.join("uppaal"), "xml", &mut files);
        for f in files
            .iter()
            .filter(|f| !f.to_string_lossy().contains("smc"))
        {
            let rel = f
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if !models.iter().any(|(n, _)| *n == rel) {
                models.push((rel, Vec::new()));
            }
        }
    }
    let (mut converted, mut refused) = (0, 0);
    for (m, qs) in &models {
        let Ok(xml) = std::fs::read_to_string(root.join(m)) else {
            continue;
        };
        if parse_uppaal(&xml).is_err() {
            continue;
        }
        if round_trip(m, &xml, qs) {
            converted += 1;
        } else {
            refused += 1;
        }
    }
    eprintln!("{converted} models converted, {refused} refused");
    assert!(converted >= 8, "only {converted} converted");
}
