//! `verikit demo` for `bn`: the attractors of SETTA'17's Example 5 network.

use crate::report::CliError;
use verikit_boolnet::{BnQuery, InputMode, Options, DEFAULT_NODE_LIMIT};
use verikit_diag::{Answer, Ctx, SourceFile};

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let src = SourceFile::new(
        "demo/bn/example5.bnet",
        include_str!("../../demo/bn/example5.bnet"),
    );
    let how = (InputMode::Free, DEFAULT_NODE_LIMIT);
    let q = BnQuery::Attractors(Options::default());
    let a = verikit_boolnet::model_command(&src, None, how, q, ctx)?;
    Ok(vec![(
        "attractors of the SETTA'17 Example 5 network (SCC decomposition)".to_string(),
        a,
    )])
}
