//! Helpers shared by the integration tests that compare engines on the shared BEEM models.

use std::path::Path;

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
