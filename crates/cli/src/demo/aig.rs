//! `verikit demo` for `aig`: a counter that reaches its bad state and a safe token ring.

use crate::report::CliError;
use verikit_diag::{Answer, Ctx};
use verikit_hw::{check, Options};

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let load = |name: &str, text: &str| {
        verikit_aiger::parse(name, text.as_bytes()).map_err(|d| CliError::from_error(d, None))
    };
    let counter = load(
        "demo/aig/counter.aag",
        include_str!("../../demo/aig/counter.aag"),
    )?;
    let ring = load("demo/aig/ring.aag", include_str!("../../demo/aig/ring.aag"))?;
    let opts = Options::default();
    Ok(vec![
        (
            "two-bit counter reaches 11: unsafe, witness replayed".into(),
            check(&counter, &opts, &ctx.budget).answer,
        ),
        (
            "token ring never holds two tokens: safe, IC3 invariant checked".into(),
            check(&ring, &opts, &ctx.budget).answer,
        ),
    ])
}
