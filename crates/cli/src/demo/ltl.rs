//! `verikit demo` for `ltl`: a response specification translated to a Büchi automaton.

use crate::report::CliError;
use verikit_diag::{Answer, Ctx};
use verikit_omega::task;

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let spec = include_str!("../../demo/omega/response.ltl").trim();
    let a = task::demo_translate(spec, &ctx.budget).map_err(|e| CliError::from_error(e, None))?;
    Ok(vec![(format!("ltl translate '{spec}'"), a)])
}
