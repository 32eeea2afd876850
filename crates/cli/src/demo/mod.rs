//! `verikit demo`: one real example of every engine, from files embedded in the binary. Each
//! group's module here provides `demo(ctx)`, returning titled answers.

use crate::report::{CliError, Ctx, Output};
use std::time::Instant;
use verikit_diag::Answer;

type DemoFn = fn(&Ctx) -> Result<Vec<(String, Output)>, CliError>;

/// Declares each group's demo module (behind its cargo feature) and `engines`, the demos in the
/// order they run, each under its module's name.
macro_rules! demos {
    ($($feature:literal $m:ident;)*) => {
        $(#[cfg(feature = $feature)] mod $m;)*

        fn engines() -> Vec<(&'static str, DemoFn)> {
            vec![$(#[cfg(feature = $feature)] (stringify!($m), $m::demo as DemoFn),)*]
        }
    };
}

demos! {
    "nfa" nfa;
    "smt" smt;
    "omega" ltl;
    "omega" aut;
    "bn" bn;
    "prism" prism;
    "ta" ta;
    "mc" mc;
    "aig" aig;
    "sat" sat;
    "synt" synt;
}

pub fn run(ctx: &Ctx) -> Result<Answer, CliError> {
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
    let mut a = Answer::new().detail("demos", items);
    a.text = text;
    Ok(a)
}
