//! `verikit demo`: one real example of every engine, from files embedded in the binary. Each
//! domain's `cmd` module provides `demo(ctx)`, returning titled reports.

use crate::report::{CliError, Ctx, Report};
use std::time::Instant;

type DemoFn = fn(&Ctx) -> Result<Vec<(String, Report)>, CliError>;

fn engines() -> Vec<(&'static str, DemoFn)> {
    [
        #[cfg(feature = "nfa")]
        ("nfa", crate::cmd::nfa::demo as DemoFn),
        #[cfg(feature = "smt")]
        ("smt", crate::cmd::smt::demo as DemoFn),
        #[cfg(feature = "omega")]
        ("ltl", crate::cmd::ltl::demo as DemoFn),
        #[cfg(feature = "omega")]
        ("aut", crate::cmd::aut::demo as DemoFn),
        #[cfg(feature = "bn")]
        ("bn", crate::cmd::bn::demo as DemoFn),
        #[cfg(feature = "prism")]
        ("prism", crate::cmd::prism::demo as DemoFn),
    ]
    .into_iter()
    .collect()
}

pub fn run(ctx: &Ctx) -> Result<Report, CliError> {
    let mut text = String::new();
    let mut items = Vec::new();
    let mut failed = 0usize;
    for (engine, f) in engines() {
        let t0 = Instant::now();
        match f(ctx) {
            Ok(reports) => {
                for (i, (title, r)) in reports.into_iter().enumerate() {
                    if i > 0 {
                        text.push('\n');
                    }
                    text.push_str(&format!("== {engine}: {title} ==\n{}", r.text));
                    if !r.text.ends_with('\n') {
                        text.push('\n');
                    }
                    let mut j = r.to_json();
                    if let Some(o) = j.as_object_mut() {
                        o.insert("engine".into(), engine.into());
                        o.insert("title".into(), title.into());
                    }
                    items.push(j);
                }
            }
            Err(e) => {
                failed += 1;
                text.push_str(&format!("== {engine}: FAILED ==\n{}", e.render()));
                items.push(
                    serde_json::json!({"engine": engine, "verdict": "error", "error": e.message()}),
                );
            }
        }
        text.push_str(&format!(
            "({engine} took {:.3} s)\n\n",
            t0.elapsed().as_secs_f64()
        ));
    }
    if failed > 0 {
        return Err(CliError::Internal(format!(
            "{failed} demo engine(s) failed:\n{text}"
        )));
    }
    Ok(Report {
        verdict: None,
        fields: Default::default(),
        text,
    }
    .field("demos", items))
}
