//! `verikit smt`: an SMT-LIB 2.6 solver for QF_LRA, QF_RDL, QF_LIA and QF_IDL. The task itself
//! (error behaviour, verdicts, checks, statistics, streamed responses) is `verikit_smt`'s.

use crate::report::{CliError, Ctx};
use verikit_diag::Answer;

#[derive(clap::Args, Debug)]
pub struct SmtArgs {
    /// SMT-LIB 2 script (`-` or omitted: standard input, answered command by command and continuing
    /// after errors; a file stops at its first error).
    pub file: Option<std::path::PathBuf>,
    /// Print solver statistics after the responses.
    #[arg(long)]
    pub stats: bool,
    /// Validate every model against the assertions and every theory conflict's Farkas certificate
    /// in exact arithmetic.
    #[arg(long)]
    pub check: bool,
}

/// Runs a script from a file or, command by command, from standard input. In text mode every
/// response is printed (and flushed) as soon as its command finishes.
pub fn run(args: SmtArgs, ctx: &Ctx) -> Result<Answer, CliError> {
    verikit_smt::smt_command(args.file.as_deref(), args.stats, args.check, ctx)
}
