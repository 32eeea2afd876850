//! Helpers shared by the integration tests that compare engines on the shared BEEM models.
#![allow(dead_code)] // each test target uses its own part

use std::path::Path;
use std::time::Duration;
use verikit_diag::{Budget, SourceFile};
use verikit_explicit::{
    decode_product, load_model, parse_dve, property_search, replay_automaton_lasso,
    replay_property_lasso, CycleSearch, DecodedState, DveAst, LtlRun, Model,
};

/// The shared model `rel` of `dir` as a source file and compiled, or `None` (said on stderr)
/// when it is missing.
pub fn model_at(dir: &Path, rel: &str) -> Option<(SourceFile, Model)> {
    let p = dir.join(rel);
    let Ok(text) = std::fs::read_to_string(&p) else {
        eprintln!("skipped: {} missing", p.display());
        return None;
    };
    let m = load_model(&text).unwrap();
    Some((SourceFile::new(p.display().to_string(), text), m))
}

/// One accepting-cycle engine of a comparison: on a model, within a budget, knowing whether
/// nested DFS found no cycle, its search and whether its own check holds.
pub type CycleEngine<'a> = &'a dyn Fn(&Model, &Budget, bool) -> (CycleSearch, bool);

/// Runs the accepting-cycle engines `engines` (name, run) on every `.prop<k>.dve` product of
/// EXPECTED.tsv whose model has at most `max_states` states: each verdict must equal nested
/// DFS's and BEEM's, `run`'s own check must hold (second component), and every lasso must replay
/// on the syntax tree. Returns (properties checked, lassos replayed).
pub fn cycle_engines_agree(
    dir: &Path,
    max_states: u64,
    engines: &[(&str, CycleEngine)],
) -> (usize, usize) {
    let (mut checked, mut replayed) = (0, 0);
    for (model, states, prop, answer) in rows(dir) {
        if prop.is_empty() || states > max_states {
            continue;
        }
        let text = std::fs::read_to_string(dir.join(&prop)).unwrap();
        let m = load_model(&text).unwrap();
        let ast = parse_dve(&text).unwrap();
        let b = Budget::with_timeout(Duration::from_secs(60));
        let nd = property_search(&m, &b).unwrap();
        for (name, run) in engines {
            let (r, own_check) = run(&m, &b, nd.lasso.is_none());
            assert!(r.stopped.is_none(), "{prop} {name}: budget ran out");
            assert!(own_check, "{prop} ({model}) {name}: engine-specific check");
            assert_eq!(
                r.lasso.is_none(),
                nd.lasso.is_none(),
                "{prop} ({model}) {name}"
            );
            if let Some(a) = answer {
                assert_eq!(r.lasso.is_none(), a, "{prop} {name} against BEEM");
            }
            if let Some(l) = &r.lasso {
                let dec = |v: &[Vec<u8>]| v.iter().map(|x| m.decode(x)).collect::<Vec<_>>();
                replay_property_lasso(&ast, &dec(&l.stem), &dec(&l.cycle))
                    .unwrap_or_else(|e| panic!("{prop} {name}: lasso does not replay: {e}"));
                replayed += 1;
            }
        }
        checked += 1;
    }
    eprintln!("{checked} properties, {replayed} lassos");
    (checked, replayed)
}

/// Replays the lasso of an LTL run (model × automaton of ¬φ) on the syntax tree with the
/// independent interpreter: `Ok(true)` when there is one and it replays, `Ok(false)` when the
/// formula holds.
pub fn replay_ltl(m: &Model, ast: &DveAst, run: &LtlRun) -> Result<bool, String> {
    let Some(l) = &run.search.lasso else {
        return Ok(false);
    };
    let dec = |v: &[Vec<u8>]| {
        v.iter()
            .map(|x| decode_product(m, x))
            .collect::<Vec<(DecodedState, u32)>>()
    };
    replay_automaton_lasso(ast, &run.automaton, &run.aps, &dec(&l.stem), &dec(&l.cycle))?;
    Ok(true)
}

/// `(model, BEEM states, property .dve, BEEM's LTL answer)` of EXPECTED.tsv's rows whose
/// exploration is complete.
pub fn rows(dir: &Path) -> Vec<(String, u64, String, Option<bool>)> {
    let text = std::fs::read_to_string(dir.join("EXPECTED.tsv")).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let (cm, cs, cc, ca, cp) = (
        col("model"),
        col("states"),
        col("exploration_complete"),
        col("beem_answer"),
        col("property_dve"),
    );
    lines
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            if f.get(cc) != Some(&"yes") {
                return None;
            }
            let answer = match f.get(ca) {
                Some(&"yes") => Some(true),
                Some(&"no") => Some(false),
                _ => None,
            };
            Some((
                f[cm].to_string(),
                f[cs].parse().ok()?,
                f.get(cp).unwrap_or(&"").to_string(),
                answer,
            ))
        })
        .collect()
}
