//! `verikit bn`: attractors of synchronous Boolean networks (SETTA'17 SCC decomposition, monolithic
//! BDD detection, brute force), fixed points, model information, random networks, conversion.
//! The tasks themselves are `verikit_boolnet::task`.

use crate::report::{read_input, write_output, CliError, Ctx};
use clap::{Args, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};
use verikit_boolnet::generate::GenParams;
use verikit_boolnet::{task, BnError, Detect, Format, InputMode, Limits, Method, Network, Options};
use verikit_diag::{Answer, SourceFile};

#[derive(Subcommand, Debug)]
pub enum BnCmd {
    /// All attractors under the synchronous semantics, each printed as its cycle of states.
    Attractors {
        /// The model (.bnet, .aeon, SBML-qual .sbml/.xml; `-` for standard input).
        model: PathBuf,
        #[arg(long, value_enum, default_value_t = MethodArg::Decomposition)]
        method: MethodArg,
        /// Apply leaf removal (Algorithm 2) around the symbolic methods (the default).
        #[arg(long, overrides_with = "no_leaf_removal")]
        leaf_removal: bool,
        /// Run the chosen method on the whole network, without leaf removal (Algorithm 1 alone).
        #[arg(long, overrides_with = "leaf_removal")]
        no_leaf_removal: bool,
        /// The Detect routine: `periods` (f^p(x)=x period by period, states reaching the attractors found dropped)
        /// or `gfp` (the paper's monolithic greatest fixed point of X ∩ Image(X)).
        #[arg(long, value_enum, default_value_t = DetectArg::Periods)]
        detect: DetectArg,
        /// List at most N attractors (the counts are always exact).
        #[arg(long, default_value_t = 100)]
        limit: usize,
        #[command(flatten)]
        common: CommonOpts,
    },
    /// Fixed points (steady states; the same for synchronous and asynchronous semantics).
    FixedPoints {
        model: PathBuf,
        /// List at most N fixed points (the count is always exact).
        #[arg(long, default_value_t = 100)]
        limit: usize,
        #[command(flatten)]
        common: CommonOpts,
    },
    /// Variables, inputs, regulations, the dependency graph's SCC blocks and their credits.
    Info {
        model: PathBuf,
        #[command(flatten)]
        common: CommonOpts,
    },
    /// A random network like the paper's (n nodes, few non-leaf nodes, K regulators per node).
    Gen {
        /// Number of nodes (1 to 32000).
        #[arg(long, short = 'n')]
        nodes: usize,
        /// Number of non-leaf nodes (1 to --nodes).
        #[arg(long, default_value_t = 10)]
        non_leaves: usize,
        /// Regulators per node (1 to 64).
        #[arg(long, short = 'k', default_value_t = 2)]
        k: usize,
        /// Size of the strongly connected modules the non-leaf core is cut into (1 to --non-leaves).
        #[arg(long, default_value_t = 5)]
        module: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write to this file instead of standard output.
        #[arg(long, short = 'o')]
        output: Option<PathBuf>,
    },
    /// Convert a model to .bnet or .aeon.
    Convert {
        model: PathBuf,
        /// Output file (.bnet or .aeon); standard output (.bnet) if omitted.
        #[arg(long, short = 'o')]
        output: Option<PathBuf>,
        #[command(flatten)]
        common: CommonOpts,
    },
}

#[derive(Args, Debug, Clone)]
pub struct CommonOpts {
    /// How inputs (variables without a function, or with f(x)=x) behave.
    #[arg(long, value_enum, default_value_t = InputsArg::Free)]
    inputs: InputsArg,
    /// The input format (default: from the file extension; .bnet otherwise).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Largest decision diagram allowed, in nodes (exceeding it is a resource limit, exit 3).
    #[arg(long, default_value_t = verikit_boolnet::symbolic::DEFAULT_NODE_LIMIT)]
    node_limit: usize,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum MethodArg {
    Decomposition,
    Monolithic,
    Bruteforce,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum DetectArg {
    Periods,
    Gfp,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum InputsArg {
    Free,
    Zero,
    One,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum FormatArg {
    Bnet,
    Aeon,
    Sbml,
}

fn load(path: &Path, c: &CommonOpts) -> Result<(Network, SourceFile), CliError> {
    let src = read_input(path)?;
    let format = c.format.map(|f| match f {
        FormatArg::Bnet => Format::Bnet,
        FormatArg::Aeon => Format::Aeon,
        FormatArg::Sbml => Format::Sbml,
    });
    let net = task::load(&src.text, &path.to_string_lossy(), format)
        .map_err(|d| fail(&src)(BnError::from(d)))?;
    Ok((net, src))
}

fn inputs(c: &CommonOpts) -> InputMode {
    match c.inputs {
        InputsArg::Free => InputMode::Free,
        InputsArg::Zero => InputMode::Zero,
        InputsArg::One => InputMode::One,
    }
}

fn limits(ctx: &Ctx, c: &CommonOpts) -> Limits {
    Limits { node_limit: c.node_limit, budget: ctx.budget.clone() }
}

fn fail(src: &SourceFile) -> impl Fn(BnError) -> CliError + '_ {
    move |e| CliError::from_error(e, Some(src))
}

pub fn run(cmd: BnCmd, ctx: &Ctx) -> Result<Answer, CliError> {
    match cmd {
        BnCmd::Attractors { model, method, leaf_removal: _, no_leaf_removal, detect, limit, common } => {
            let (net, src) = load(&model, &common)?;
            let mut opts = Options {
                method: match method {
                    MethodArg::Decomposition => Method::Decomposition,
                    MethodArg::Monolithic => Method::Monolithic,
                    MethodArg::Bruteforce => Method::BruteForce,
                },
                inputs: inputs(&common),
                leaf_removal: !no_leaf_removal,
                detect: match detect {
                    DetectArg::Periods => Detect::Periods,
                    DetectArg::Gfp => Detect::Gfp,
                },
                limit,
                limits: limits(ctx, &common),
                ..Options::default()
            };
            task::apply_params(&mut opts, &ctx.params).map_err(CliError::Usage)?;
            task::attractors(&net, &opts).map_err(fail(&src))
        }
        BnCmd::FixedPoints { model, limit, common } => {
            let (net, src) = load(&model, &common)?;
            task::fixed_points(&net, inputs(&common), limit, limits(ctx, &common)).map_err(fail(&src))
        }
        BnCmd::Info { model, common } => Ok(task::info(&load(&model, &common)?.0, inputs(&common))),
        BnCmd::Gen { nodes, non_leaves, k, module, seed, output } => {
            let p = GenParams { nodes, core: non_leaves, k, module, seed };
            let (_, text) = task::generate(p).map_err(CliError::Usage)?;
            let written = output.as_ref().map(|p| p.display().to_string());
            if let Some(path) = &output {
                write_output(path, &text, &[])?;
            }
            Ok(task::gen_answer(&p, text, written.as_deref()))
        }
        BnCmd::Convert { model, output, common } => {
            let (net, _src) = load(&model, &common)?;
            let name = output.as_ref().map(|p| p.to_string_lossy().into_owned());
            let text = task::write(&net, name.as_deref());
            match output {
                Some(p) => {
                    write_output(&p, &text, &[&model])?;
                    Ok(Answer::new()
                        .detail("output", p.display().to_string())
                        .line(format!("wrote {}", p.display())))
                }
                None => {
                    let mut a = Answer::new().detail("bnet", &text);
                    a.text = text;
                    Ok(a)
                }
            }
        }
    }
}

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let src = SourceFile::new("demo/bn/example5.bnet", include_str!("../../demo/bn/example5.bnet"));
    let net = task::load(&src.text, &src.name, None).map_err(|d| fail(&src)(BnError::from(d)))?;
    let opts = Options {
        limits: Limits { budget: ctx.budget.clone(), ..Limits::default() },
        ..Options::default()
    };
    let a = task::attractors(&net, &opts).map_err(fail(&src))?;
    Ok(vec![(
        "attractors of the SETTA'17 Example 5 network (SCC decomposition)".to_string(),
        a,
    )])
}
