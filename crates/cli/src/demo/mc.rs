//! `verikit demo` for `mc`: Peterson's mutual exclusion algorithm with two processes.

use crate::report::CliError;
use verikit_diag::{Answer, Ctx, SourceFile};
use verikit_explicit::{check_command, Check, ExploreOptions};

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let src = SourceFile::new(
        "demo/mc/peterson2.dve",
        include_str!("../../demo/mc/peterson2.dve"),
    );
    let ltl = |f: &str| Check::Ltl {
        formula: f.into(),
        aps: Vec::new(),
    };
    [
        (
            "Peterson's algorithm, two processes: no deadlock",
            Check::Deadlock,
        ),
        (
            "Peterson: mutual exclusion",
            ltl("G !(\"P_0.cs\" && \"P_1.cs\")"),
        ),
        (
            "Peterson: P_0 may stay idle, G(P_0.idle -> F P_0.cs) fails",
            ltl("G(\"P_0.idle\" -> F \"P_0.cs\")"),
        ),
    ]
    .into_iter()
    .map(|(t, q)| {
        let a = check_command(&src, &q, &ExploreOptions::default(), ctx)?;
        Ok((t.to_string(), a))
    })
    .collect()
}
