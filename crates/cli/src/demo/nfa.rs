//! `verikit demo` for `nfa`: inclusion and equivalence of three small automata.

use crate::report::CliError;
use verikit_diag::{Answer, Ctx, SourceFile};

const DEMO: [(&str, &str); 3] = [
    ("ends-ab.mata", include_str!("../../demo/nfa/ends-ab.mata")),
    ("has-a.mata", include_str!("../../demo/nfa/has-a.mata")),
    ("no-bb.mata", include_str!("../../demo/nfa/no-bb.mata")),
];

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let [x, y, z] = DEMO.map(|(n, t)| SourceFile::new(n, t));
    Ok(verikit_automata::demo(&x, &y, &z, &ctx.budget)?)
}
