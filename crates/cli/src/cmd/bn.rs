//! `verikit bn`: attractors of synchronous Boolean networks (SETTA'17 SCC decomposition, monolithic
//! BDD detection, brute force), fixed points, model information, random networks, conversion. The
//! tasks themselves are `verikit_boolnet`'s.

use crate::report::{read_input, CliError, Ctx};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::str::FromStr;
use verikit_boolnet::{self as boolnet, BnQuery, Detect, Format, GenParams, InputMode};
use verikit_boolnet::{Method, Options};
use verikit_diag::Answer;

#[derive(Subcommand, Debug)]
pub enum BnCmd {
    /// All attractors under the synchronous semantics, each printed as its cycle of states.
    Attractors {
        #[arg(long, default_value = "decomposition", value_parser = words::<Method>(&["decomposition", "monolithic", "bruteforce"]))]
        method: Method,
        /// Apply leaf removal (Algorithm 2) around the symbolic methods (the default).
        #[arg(long, overrides_with = "no_leaf_removal")]
        leaf_removal: bool,
        /// Run the chosen method on the whole network, without leaf removal (Algorithm 1 alone).
        #[arg(long, overrides_with = "leaf_removal")]
        no_leaf_removal: bool,
        /// The Detect routine: `periods` (f^p(x)=x period by period, states reaching the attractors
        /// found dropped) or `gfp` (the paper's monolithic greatest fixed point of X ∩ Image(X)).
        #[arg(long, default_value = "periods", value_parser = words::<Detect>(&["periods", "gfp"]))]
        detect: Detect,
        /// List at most N attractors (the counts are always exact).
        #[arg(long, default_value_t = 100)]
        limit: usize,
        #[command(flatten)]
        common: CommonOpts,
    },
    /// Fixed points (steady states; the same for synchronous and asynchronous semantics).
    FixedPoints {
        /// List at most N fixed points (the count is always exact).
        #[arg(long, default_value_t = 100)]
        limit: usize,
        #[command(flatten)]
        common: CommonOpts,
    },
    /// Variables, inputs, regulations, the dependency graph's SCC blocks and their credits.
    Info(CommonOpts),
    /// A random network like the paper's (n nodes, few non-leaf nodes, K regulators per node).
    Gen {
        #[command(flatten)]
        p: GenParams,
        /// Write to this file instead of standard output.
        #[arg(long, short = 'o')]
        output: Option<PathBuf>,
    },
    /// Convert a model to .bnet or .aeon.
    Convert {
        /// Output file (.bnet or .aeon); standard output (.bnet) if omitted.
        #[arg(long, short = 'o')]
        output: Option<PathBuf>,
        #[command(flatten)]
        common: CommonOpts,
    },
}

#[derive(Args, Debug, Clone)]
pub struct CommonOpts {
    /// The model (.bnet, .aeon, SBML-qual .sbml/.xml; `-` for standard input).
    model: PathBuf,
    /// How inputs (variables without a function, or with f(x)=x) behave.
    #[arg(long, default_value = "free", value_parser = words::<InputMode>(&["free", "zero", "one"]))]
    inputs: InputMode,
    /// The input format (default: from the file extension; .bnet otherwise).
    #[arg(long, value_parser = words::<Format>(&["bnet", "aeon", "sbml"]))]
    format: Option<Format>,
    /// Largest decision diagram allowed, in nodes (exceeding it is a resource limit, exit 3).
    #[arg(long, default_value_t = boolnet::DEFAULT_NODE_LIMIT)]
    node_limit: usize,
}

/// An option value among `names`, parsed into the library's type.
fn words<T>(names: &'static [&'static str]) -> impl TypedValueParser<Value = T>
where
    T: FromStr<Err = String> + Clone + Send + Sync + 'static,
{
    PossibleValuesParser::new(names).try_map(|s| s.parse::<T>())
}

fn model(c: CommonOpts, query: BnQuery, ctx: &Ctx) -> Result<Answer, CliError> {
    let src = read_input(&c.model)?;
    boolnet::model_command(&src, c.format, (c.inputs, c.node_limit), query, ctx)
}

pub fn run(cmd: BnCmd, ctx: &Ctx) -> Result<Answer, CliError> {
    match cmd {
        BnCmd::Attractors {
            method,
            no_leaf_removal,
            detect,
            limit,
            common,
            ..
        } => {
            let mut opts = Options::default();
            (opts.method, opts.detect, opts.limit) = (method, detect, limit);
            opts.leaf_removal = !no_leaf_removal;
            model(common, BnQuery::Attractors(opts), ctx)
        }
        BnCmd::FixedPoints { limit, common } => model(common, BnQuery::FixedPoints(limit), ctx),
        BnCmd::Info(common) => model(common, BnQuery::Info, ctx),
        BnCmd::Convert { output, common } => model(common, BnQuery::Convert(output), ctx),
        BnCmd::Gen { p, output } => boolnet::generate_command(p, output.as_deref()),
    }
}
