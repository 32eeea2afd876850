//! `verikit demo` for `smt`: a sat QF_LRA schedule and an unsat QF_LIA knapsack bound.

use crate::report::CliError;
use verikit_diag::{Answer, Ctx};

const DEMO_LRA: &str = include_str!("../../demo/smt/scheduling.smt2");
const DEMO_LIA: &str = include_str!("../../demo/smt/knapsack.smt2");

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    [
        (
            "QF_LRA scheduling with a strict deadline (sat, model checked)",
            DEMO_LRA,
        ),
        (
            "QF_LIA knapsack bound (unsat, Farkas certificates checked)",
            DEMO_LIA,
        ),
    ]
    .into_iter()
    .map(|(title, text)| Ok((title.to_string(), verikit_smt::smt_demo(title, text, ctx)?)))
    .collect()
}
