//! `verikit ta`: timed automata in TChecker's `.tck` format, zone-graph reachability of labels.

use crate::report::{read_input, CliError, Ctx};
use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;
use verikit_diag::{Answer, SourceFile};
use verikit_ta::{
    buchi_answer, check_buchi, check_labels, model_info, parse_tck, run_check, to_answer, Algo,
    Extrapolation, Options, Queries, Search,
};

#[derive(Subcommand, Debug)]
pub enum TaCmd {
    /// Is a state whose locations carry all the labels reachable? (TChecker's `tck-reach -l`.)
    /// Verdict `true` = reachable, with a symbolic and a concrete timed trace as witness.
    Reach {
        /// The model (`.tck`; `-` for standard input).
        model: PathBuf,
        /// Labels, comma-separated (none: explore the whole zone graph).
        #[arg(long, short = 'l', value_delimiter = ',')]
        labels: Vec<String>,
        #[command(flatten)]
        how: How,
    },
    /// Büchi emptiness (TChecker's `tck-liveness -l`): does some run visit states carrying all
    /// the labels infinitely often? Verdict `true` = an accepting cycle, with a lasso witness.
    Liveness {
        /// The model (`.tck`; `-` for standard input).
        model: PathBuf,
        /// Accepting labels, comma-separated.
        #[arg(long, short = 'l', value_delimiter = ',')]
        labels: Vec<String>,
        /// Zone abstraction (no covering: it is unsound for cycles).
        #[arg(long, default_value = "extraLU+l", value_parser = ["extraLU+l", "extraLU+g", "extraM"])]
        extrapolation: String,
    },
    /// Answers UPPAAL queries (`E<> φ`, `A[] φ`, `E[] φ`, `A<> φ`, `φ --> ψ`) on an UPPAAL XML model: those of a `.q` file,
    /// one `--query`, or else the model's embedded `<queries>`; one result per query, streamed.
    Check {
        /// The model (UPPAAL `.xml`).
        model: PathBuf,
        /// A query file (`.q`).
        queries: Option<PathBuf>,
        /// One query, e.g. `'E<> P(1).cs'`.
        #[arg(long, short = 'Q', conflicts_with = "queries")]
        query: Option<String>,
        /// (Queries with `deadlock` or clock constraints always use ExtraM and inclusion.)
        #[command(flatten)]
        how: How,
    },
    /// Processes, clocks, integers, locations, edges and synchronisations of a model (`.xml` or
    /// `.tck`).
    Info {
        /// The model.
        model: PathBuf,
    },
}

/// How the zone graph is searched.
#[derive(Args, Debug)]
pub struct How {
    /// Search order.
    #[arg(long, alias = "order", value_enum, default_value_t = SearchArg::Bfs)]
    search: SearchArg,
    /// `covreach`: covering by zone inclusion; `alu-covreach`: covering by the aLU
    /// abstraction (coarser); `reach`: only equal nodes merged.
    #[arg(long, value_enum, default_value_t = AlgoArg::Covreach)]
    algo: AlgoArg,
    /// Zone abstraction: ExtraLU+ with local or global bounds, or ExtraM.
    #[arg(long, default_value = "extraLU+l", value_parser = ["extraLU+l", "extraLU+g", "extraM"])]
    extrapolation: String,
}

impl How {
    fn options(&self) -> Result<Options, CliError> {
        Ok(Options {
            search: match self.search {
                SearchArg::Bfs => Search::Bfs,
                SearchArg::Dfs => Search::Dfs,
            },
            algo: match self.algo {
                AlgoArg::Reach => Algo::Reach,
                AlgoArg::Covreach => Algo::Covreach,
                AlgoArg::AluCovreach => Algo::AluCovreach,
            },
            extrapolation: Extrapolation::parse(&self.extrapolation).ok_or_else(|| {
                CliError::Usage(format!("unknown extrapolation `{}`", self.extrapolation))
            })?,
        })
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SearchArg {
    Bfs,
    Dfs,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum AlgoArg {
    Reach,
    Covreach,
    AluCovreach,
}

fn reach(
    src: &SourceFile,
    labels: &[String],
    opts: Options,
    ctx: &Ctx,
) -> Result<Answer, CliError> {
    let model = parse_tck(&src.text).map_err(|d| CliError::from_error(d, Some(src)))?;
    let r = check_labels(&model, labels, opts, &ctx.budget)
        .map_err(|d| CliError::from_error(d, Some(src)))?;
    Ok(to_answer(&model, &r, opts).input("file", &src.name))
}

pub fn run(cmd: TaCmd, ctx: &Ctx) -> Result<Answer, CliError> {
    match cmd {
        TaCmd::Reach { model, labels, how } => {
            let src = read_input(&model)?;
            reach(&src, &labels, how.options()?, ctx)
        }
        TaCmd::Check {
            model,
            queries,
            query,
            how,
        } => {
            let src = read_input(&model)?;
            let qsrc = queries.as_ref().map(|q| read_input(q)).transpose()?;
            let qs = match (&qsrc, &query) {
                (Some(f), _) => Queries::File(&f.name, &f.text),
                (None, Some(q)) => Queries::Text(q),
                (None, None) => Queries::Embedded,
            };
            let mut sink = |a| {
                ctx.stream(a);
            };
            let opts = how.options()?;
            let sum = run_check(&src.name, &src.text, qs, opts, &ctx.budget, &mut sink)
                .map_err(|d| CliError::from_error(d, Some(&src)))?;
            Ok(ctx.finish_batch(sum))
        }
        TaCmd::Liveness {
            model,
            labels,
            extrapolation,
        } => {
            let src = read_input(&model)?;
            let opts = Options {
                extrapolation: Extrapolation::parse(&extrapolation).ok_or_else(|| {
                    CliError::Usage(format!("unknown extrapolation `{extrapolation}`"))
                })?,
                ..Options::default()
            };
            let m = parse_tck(&src.text).map_err(|d| CliError::from_error(d, Some(&src)))?;
            let (r, shape) = check_buchi(&m, &labels, opts, &ctx.budget)
                .map_err(|d| CliError::from_error(d, Some(&src)))?;
            Ok(buchi_answer(&m, &r, shape, opts).input("file", &src.name))
        }
        TaCmd::Info { model } => {
            let src = read_input(&model)?;
            model_info(&src.name, &src.text).map_err(|d| CliError::from_error(d, Some(&src)))
        }
    }
}

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let src = SourceFile::new(
        "demo/ta/fischer2.tck",
        include_str!("../../demo/ta/fischer2.tck"),
    );
    let labels = |s: &str| vec![s.to_string()];
    Ok(vec![
        (
            "Fischer's protocol, two processes: mutual exclusion (cs1,cs2 unreachable)".into(),
            reach(&src, &labels("cs1,cs2"), Options::default(), ctx)?,
        ),
        (
            "Fischer's protocol: P1 reaches its critical section (timed trace)".into(),
            reach(&src, &labels("cs1"), Options::default(), ctx)?,
        ),
    ])
}
