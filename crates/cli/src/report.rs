//! What every subcommand uses: the command context, the one answer and failure types, and the
//! file helpers — all `verikit_diag`'s, so every front end shares them.

#[allow(unused_imports)] // each feature's commands use a subset
pub use verikit_diag::{
    emit, read_input, write_output, Answer as Output, Ctx, Failure as CliError,
};
