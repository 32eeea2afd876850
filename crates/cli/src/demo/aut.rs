//! `verikit demo` for `aut`: model checking by automata and simulation-based minimisation.

use crate::report::CliError;
use verikit_diag::{Answer, Ctx};
use verikit_omega::task;

pub fn demo(_ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let err = |e| CliError::from_error(e, None);
    // Model checking by automata: system ⊗ A(¬spec) is empty iff the system satisfies spec.
    let sys = task::read_automaton(include_str!("../../demo/omega/arbiter.hoa")).map_err(err)?;
    let spec = include_str!("../../demo/omega/response.ltl").trim();
    let mc = format!("does the arbiter (demo/omega/arbiter.hoa) satisfy {spec}?");
    let f = "a U (b U (c U a))";
    let red = format!("aut reduce --sim fair+delayed (raw tableau of {f})");
    let (a, b) = (
        task::model_check(&sys, spec).map_err(err)?,
        task::demo_reduce(f).map_err(err)?,
    );
    Ok(vec![(mc, a), (red, b)])
}
