//! Helpers shared by the integration tests that compare engines on the shared BEEM models.
#![allow(dead_code)] // each test target uses its own part

use std::path::Path;
use verikit_explicit::{
    decode_product, replay_automaton_lasso, DecodedState, DveAst, LtlRun, Model,
};

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
