//! LTL on the shared BEEM models, against BEEM's published verdicts (EXPECTED.tsv):
//! * the `.prop<k>.dve` products (the model with BEEM's negative-claim property process), by
//!   nested DFS; every counterexample lasso replays on the syntax tree (`replay_property_lasso`);
//! * the same properties as `--ltl` formulas over the family's propositions (from `<family>.xml`,
//!   those without m4 parameters), through the omega crate's automaton of ¬φ; every lasso replays
//!   (`replay_automaton_lasso`), and the verdict equals both BEEM's and the property process's.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;
use verikit_diag::Budget;

mod common;
use verikit_explicit::{load_model, ltl_search, parse_dve, property_search, replay_property_lasso};

/// Instances up to this many states (BEEM's count) are checked.
const MAX_STATES: u64 = 120_000;

struct Row {
    model: String,
    family: String,
    states: u64,
    formula: String,
    answer: bool,
    property_dve: String,
}

fn rows(dir: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(dir.join("EXPECTED.tsv")).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let (cm, cf, cs, ct, cx, ca, cp) = (
        col("model"),
        col("family"),
        col("states"),
        col("property_type"),
        col("formula"),
        col("beem_answer"),
        col("property_dve"),
    );
    let mut out = Vec::new();
    for l in lines {
        let f: Vec<&str> = l.split('\t').collect();
        if f.get(ct) != Some(&"LTL") {
            continue;
        }
        let answer = match f[ca] {
            "yes" => true,
            "no" => false,
            _ => continue,
        };
        let Ok(states) = f[cs].parse() else { continue };
        out.push(Row {
            model: f[cm].into(),
            family: f[cf].into(),
            states,
            formula: f[cx].into(),
            answer,
            property_dve: f[cp].into(),
        });
    }
    out
}

/// The family's propositions that have no m4 parameters: name → DVE expression.
fn plain_aps(dir: &Path, family: &str) -> BTreeMap<String, String> {
    let text =
        std::fs::read_to_string(dir.join(family).join(format!("{family}.xml"))).unwrap_or_default();
    let mut out = BTreeMap::new();
    for block in text.split("</ap>") {
        let Some(start) = block.rfind("<ap>").or_else(|| block.rfind("<ap ")) else {
            continue;
        };
        let block = &block[start..];
        let header = &block[..block.find('>').unwrap_or(0)];
        if header.contains("parametrized=\"yes\"") {
            continue;
        }
        let get = |tag: &str| {
            let a = block.find(&format!("<{tag}>"))? + tag.len() + 2;
            let b = block.find(&format!("</{tag}>"))?;
            Some(block.get(a..b)?.trim().to_string())
        };
        if let (Some(n), Some(e)) = (get("ap-name"), get("ap-expression")) {
            let e = e
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&");
            out.insert(n, e);
        }
    }
    out
}

#[test]
fn property_processes_agree_with_beem_and_lassos_replay() {
    let dir = verikit_testkit::require_data!("beem");
    let mut checked = 0;
    let mut violated = 0;
    for r in rows(&dir)
        .iter()
        .filter(|r| r.states <= MAX_STATES && !r.property_dve.is_empty())
    {
        let text = std::fs::read_to_string(dir.join(&r.property_dve)).unwrap();
        let m = load_model(&text).unwrap();
        let ast = parse_dve(&text).unwrap();
        let s = property_search(&m, &Budget::with_timeout(Duration::from_secs(60))).unwrap();
        assert!(s.stopped.is_none(), "{}: budget ran out", r.property_dve);
        let holds = s.lasso.is_none();
        eprintln!(
            "{}: holds={holds} (BEEM {}) {} states",
            r.property_dve, r.answer, s.states
        );
        assert_eq!(holds, r.answer, "{} ({})", r.property_dve, r.formula);
        if let Some(l) = &s.lasso {
            let dec = |v: &[Vec<u8>]| v.iter().map(|x| m.decode(x)).collect::<Vec<_>>();
            replay_property_lasso(&ast, &dec(&l.stem), &dec(&l.cycle))
                .unwrap_or_else(|e| panic!("{}: lasso does not replay: {e}", r.property_dve));
            violated += 1;
        }
        checked += 1;
    }
    assert!(checked >= 60, "only {checked} properties checked");
    assert!(violated >= 30, "only {violated} counterexamples replayed");
}

#[test]
fn ltl_formulas_agree_with_beem_and_lassos_replay() {
    let dir = verikit_testkit::require_data!("beem");
    let mut checked = 0;
    let mut violated = 0;
    for r in rows(&dir).iter().filter(|r| r.states <= MAX_STATES) {
        let aps = plain_aps(&dir, &r.family);
        let text = std::fs::read_to_string(dir.join(&r.model)).unwrap();
        let m = load_model(&text).unwrap();
        let ast = parse_dve(&text).unwrap();
        let defs: Vec<(String, String)> = aps.iter().map(|(a, b)| (a.clone(), b.clone())).collect();
        let run = match ltl_search(
            &m,
            &r.formula,
            &defs,
            &Budget::with_timeout(Duration::from_secs(60)),
        ) {
            Ok(run) => run,
            // A parametrised proposition (not defined here): not checkable this way.
            Err(e) => {
                eprintln!("{} `{}`: skipped ({e})", r.model, r.formula);
                continue;
            }
        };
        assert!(run.search.stopped.is_none(), "{}: budget ran out", r.model);
        let holds = run.search.lasso.is_none();
        eprintln!(
            "{} `{}`: holds={holds} (BEEM {})",
            r.model, r.formula, r.answer
        );
        assert_eq!(holds, r.answer, "{} `{}`", r.model, r.formula);
        if common::replay_ltl(&m, &ast, &run)
            .unwrap_or_else(|e| panic!("{} `{}`: lasso does not replay: {e}", r.model, r.formula))
        {
            violated += 1;
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} formulas checked");
    assert!(violated >= 15, "only {violated} counterexamples replayed");
}
