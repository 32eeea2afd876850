//! `verikit demo` for `synt`: a realizable response specification and an unrealizable one.

use crate::report::CliError;
use verikit_diag::{Answer, Ctx};
use verikit_synt::{Input, Options};

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let run = |formula: &str| {
        let f = Input::Formula {
            formula: formula.into(),
            ins: Some(vec!["r".into()]),
            outs: None,
            moore: false,
        };
        verikit_synt::solve_command(None, Some(f), &Options::default(), ctx)
    };
    Ok(vec![
        (
            "G(r -> F g): realizable, controller as AIGER".into(),
            run("G(r -> F g)")?,
        ),
        (
            "G(g <-> X r): unrealizable, counter-strategy".into(),
            run("G(g <-> X r)")?,
        ),
    ])
}
