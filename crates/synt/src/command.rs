//! The `verikit synt` commands as library calls: the specification (a TLSF file or a formula with
//! its partition) solved within the command's budget and `-x synt.*` parameters, errors located
//! in the TLSF file.

use crate::error::SyntError;
use crate::task::{convert, synthesize, Input, Options};
use verikit_diag::{Answer, Ctx, Failure, SourceFile};

fn failure(src: Option<&SourceFile>) -> impl Fn(SyntError) -> Failure + '_ {
    move |e| match e {
        SyntError::Internal(m) => Failure::Internal(m),
        SyntError::Usage(m) => Failure::Usage(m),
        e => Failure::from_error(e, src),
    }
}

/// `verikit synt solve` on a TLSF specification `spec`, or else on `formula` (its partition and
/// semantics in the [`Input::Formula`] given).
pub fn solve_command(
    spec: Option<&SourceFile>,
    formula: Option<Input>,
    opts: &Options,
    ctx: &Ctx,
) -> Result<Answer, Failure> {
    let input = match (spec, formula) {
        (Some(src), None) => Input::Tlsf {
            name: src.name.clone(),
            text: src.text.clone(),
        },
        (None, Some(f)) => f,
        _ => return Err(Failure::Usage("give a TLSF file or -f FORMULA".into())),
    };
    // Under a CPU-time limit (`ulimit -t`) the budget has a CPU-time deadline, and the time
    // shares are shares of CPU time.
    synthesize(&input, opts, &ctx.params, &ctx.budget).map_err(failure(spec))
}

/// `verikit synt convert`: the TLSF specification as one LTL formula and its partition.
pub fn convert_command(spec: &SourceFile, ctx: &Ctx) -> Result<Answer, Failure> {
    convert(&spec.text, &ctx.budget)
        .map(|a| a.input("file", &spec.name))
        .map_err(failure(Some(spec)))
}
