//! `verikit demo`: one real example of every engine, from files embedded in the binary. Each
//! group's module here provides `demo(ctx)`, returning titled answers.

#[cfg(feature = "aig")]
mod aig;
#[cfg(feature = "omega")]
mod aut;
#[cfg(feature = "bn")]
mod bn;
#[cfg(feature = "omega")]
mod ltl;
#[cfg(feature = "mc")]
mod mc;
#[cfg(feature = "nfa")]
mod nfa;
#[cfg(feature = "prism")]
mod prism;
#[cfg(feature = "sat")]
mod sat;
#[cfg(feature = "smt")]
mod smt;
#[cfg(feature = "synt")]
mod synt;
#[cfg(feature = "ta")]
mod ta;

use crate::report::{CliError, Ctx, Output};
use std::time::Instant;
use verikit_diag::Answer;

type DemoFn = fn(&Ctx) -> Result<Vec<(String, Output)>, CliError>;

fn engines() -> Vec<(&'static str, DemoFn)> {
    [
        #[cfg(feature = "nfa")]
        ("nfa", nfa::demo as DemoFn),
        #[cfg(feature = "smt")]
        ("smt", smt::demo as DemoFn),
        #[cfg(feature = "omega")]
        ("ltl", ltl::demo as DemoFn),
        #[cfg(feature = "omega")]
        ("aut", aut::demo as DemoFn),
        #[cfg(feature = "bn")]
        ("bn", bn::demo as DemoFn),
        #[cfg(feature = "prism")]
        ("prism", prism::demo as DemoFn),
        #[cfg(feature = "ta")]
        ("ta", ta::demo as DemoFn),
        #[cfg(feature = "mc")]
        ("mc", mc::demo as DemoFn),
        #[cfg(feature = "aig")]
        ("aig", aig::demo as DemoFn),
        #[cfg(feature = "sat")]
        ("sat", sat::demo as DemoFn),
        #[cfg(feature = "synt")]
        ("synt", synt::demo as DemoFn),
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
