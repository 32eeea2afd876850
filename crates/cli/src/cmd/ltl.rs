//! `verikit ltl` (placeholder until the engine lands).

use crate::report::{CliError, Ctx, Report};

#[derive(clap::Subcommand, Debug)]
pub enum LtlCmd {
    /// Not available yet.
    Pending,
}

pub fn run(_cmd: LtlCmd, _ctx: &Ctx) -> Result<Report, CliError> {
    Err(CliError::Usage("this command group is not available yet".into()))
}

pub fn demo(_ctx: &Ctx) -> Result<Vec<(String, Report)>, CliError> {
    Ok(Vec::new())
}
