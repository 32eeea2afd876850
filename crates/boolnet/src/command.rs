//! The `verikit bn` commands as library calls: a model read in its format, one question asked
//! with the command's input mode, node limit, budget and `-x bn.*` parameters, errors located in
//! the model, produced models written to a file (never over the input).

use crate::attractors::Options;
use crate::error::BnError;
use crate::format::Format;
use crate::generate::GenParams;
use crate::network::{InputMode, Network};
use crate::symbolic::Limits;
use crate::task::{apply_params, attractors_answer, convert, fixed_points_answer, info, load};
use std::path::Path;
use verikit_diag::{write_output, Answer, Ctx, Failure, SourceFile};

/// The question `verikit bn` asks of a model.
#[derive(Clone, Debug)]
pub enum BnQuery {
    /// All attractors (method, detection and listing limit from the options; the input mode and
    /// the limits are the command's).
    Attractors(Options),
    /// Fixed points, listing at most this many.
    FixedPoints(usize),
    /// Variables, inputs, regulations, SCC blocks.
    Info,
    /// The model as `.bnet` (or `.aeon` by the output's extension), to a file or standard output.
    Convert(Option<std::path::PathBuf>),
}

/// A model of `src` in `format` (default: by the file name's extension).
pub fn load_source(src: &SourceFile, format: Option<Format>) -> Result<Network, Failure> {
    load(&src.text, &src.name, format).map_err(|d| Failure::from_error(BnError::from(d), Some(src)))
}

/// `verikit bn attractors | fixed-points | info | convert` on the model `src`.
pub fn model_command(
    src: &SourceFile,
    format: Option<Format>,
    (inputs, node_limit): (InputMode, usize),
    query: BnQuery,
    ctx: &Ctx,
) -> Result<Answer, Failure> {
    let net = load_source(src, format)?;
    let fail = |e: BnError| Failure::from_error(e, Some(src));
    let limits = Limits {
        node_limit,
        budget: ctx.budget.clone(),
    };
    match query {
        BnQuery::Attractors(mut opts) => {
            (opts.inputs, opts.limits) = (inputs, limits);
            apply_params(&mut opts, &ctx.params).map_err(Failure::Usage)?;
            attractors_answer(&net, &opts).map_err(fail)
        }
        BnQuery::FixedPoints(limit) => {
            fixed_points_answer(&net, inputs, limit, limits).map_err(fail)
        }
        BnQuery::Info => Ok(info(&net, inputs)),
        BnQuery::Convert(output) => {
            let name = output.as_ref().map(|p| p.display().to_string());
            let (text, a) = convert(&net, name.as_deref());
            if let Some(p) = &output {
                write_output(p, text, &[Path::new(&src.name)])?;
            }
            Ok(a)
        }
    }
}

/// `verikit bn gen`: a random network, written to `output` or printed.
pub fn generate_command(p: GenParams, output: Option<&Path>) -> Result<Answer, Failure> {
    let name = output.map(|p| p.display().to_string());
    let (text, a) = crate::task::generate(p, name.as_deref()).map_err(Failure::Usage)?;
    if let Some(p) = output {
        write_output(p, text, &[])?;
    }
    Ok(a)
}
