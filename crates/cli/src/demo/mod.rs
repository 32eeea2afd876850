//! `verikit demo`: one real example of every engine, from files embedded in the binary. Each
//! domain's `cmd` module provides `demo(ctx)`, returning titled reports.

use crate::report::{CliError, Ctx, Output};
use std::time::Instant;
use verikit_diag::Answer;

type DemoFn = fn(&Ctx) -> Result<Vec<(String, Output)>, CliError>;

/// Each group's `demo` returns titled answers (or legacy reports).
fn outputs<T: Into<Output>>(v: Vec<(String, T)>) -> Vec<(String, Output)> {
    v.into_iter().map(|(t, r)| (t, r.into())).collect()
}

fn engines() -> Vec<(&'static str, DemoFn)> {
    [
        #[cfg(feature = "nfa")]
        ("nfa", (|c| crate::cmd::nfa::demo(c).map(outputs)) as DemoFn),
        #[cfg(feature = "smt")]
        ("smt", (|c| crate::cmd::smt::demo(c).map(outputs)) as DemoFn),
        #[cfg(feature = "omega")]
        ("ltl", (|c| crate::cmd::ltl::demo(c).map(outputs)) as DemoFn),
        #[cfg(feature = "omega")]
        ("aut", (|c| crate::cmd::aut::demo(c).map(outputs)) as DemoFn),
        #[cfg(feature = "bn")]
        ("bn", (|c| crate::cmd::bn::demo(c).map(outputs)) as DemoFn),
        #[cfg(feature = "prism")]
        (
            "prism",
            (|c| crate::cmd::prism::demo(c).map(outputs)) as DemoFn,
        ),
        #[cfg(feature = "ta")]
        ("ta", (|c| crate::cmd::ta::demo(c).map(outputs)) as DemoFn),
        #[cfg(feature = "mc")]
        ("mc", (|c| crate::cmd::mc::demo(c).map(outputs)) as DemoFn),
        #[cfg(feature = "aig")]
        ("aig", (|c| crate::cmd::aig::demo(c).map(outputs)) as DemoFn),
        #[cfg(feature = "sat")]
        ("sat", (|c| crate::cmd::sat::demo(c).map(outputs)) as DemoFn),
        #[cfg(feature = "synt")]
        (
            "synt",
            (|c| crate::cmd::synt::demo(c).map(outputs)) as DemoFn,
        ),
    ]
    .into_iter()
    .collect()
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
