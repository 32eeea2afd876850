//! `verikit smt` (placeholder until the engine lands).

use crate::report::{CliError, Ctx, Report};

#[derive(clap::Args, Debug)]
pub struct SmtArgs {
    /// SMT-LIB 2 script (`-` or omitted: standard input).
    pub file: Option<std::path::PathBuf>,
}

pub fn run(_args: SmtArgs, _ctx: &Ctx) -> Result<Report, CliError> {
    Err(CliError::Usage("this command is not available yet".into()))
}

pub fn demo(_ctx: &Ctx) -> Result<Vec<(String, Report)>, CliError> {
    Ok(Vec::new())
}
