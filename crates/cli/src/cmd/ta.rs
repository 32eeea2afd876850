//! `verikit ta`: timed automata in TChecker's `.tck` format, zone-graph reachability of labels.

use crate::report::{read_input, CliError, Ctx};
use clap::builder::PossibleValuesParser;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use verikit_diag::Answer;
use verikit_ta::{Options, ALGO_NAMES, CONVERT_NAMES, EXTRAPOLATION_NAMES, SEARCH_NAMES};

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
    /// Büchi emptiness (TChecker's `tck-liveness -l`): does some run visit states carrying all the
    /// labels infinitely often? Verdict `true` = an accepting cycle, with a lasso witness.
    Liveness {
        /// The model (`.tck`; `-` for standard input).
        model: PathBuf,
        /// Accepting labels, comma-separated.
        #[arg(long, short = 'l', value_delimiter = ',')]
        labels: Vec<String>,
        /// Zone abstraction (no covering: it is unsound for cycles) [default: extraLU+l, or
        /// `-x ta.extrapolation`].
        #[arg(long, value_parser = PossibleValuesParser::new(EXTRAPOLATION_NAMES))]
        extrapolation: Option<String>,
    },
    /// Answers UPPAAL queries (`E<> φ`, `A[] φ`, `E[] φ`, `A<> φ`, `φ --> ψ`) on an UPPAAL XML
    /// model: those of a `.q` file, one `--query`, or else the model's embedded `<queries>`; one
    /// result per query, streamed.
    Check {
        /// The model (UPPAAL `.xml`).
        model: PathBuf,
        /// A query file (`.q`).
        queries: Option<PathBuf>,
        /// One query, e.g. `'E<> P(1).cs'`.
        #[arg(long, short = 'Q', conflicts_with = "queries")]
        query: Option<String>,
        #[command(flatten)]
        how: How,
    },
    /// Communicating timed automata with FIFO channels (`.cta`, Krčál–Yi CAV'06): is a state
    /// carrying all the labels reachable? Undecidable channel topologies are refused by name.
    Cta {
        /// The model (`.cta`; `-` for standard input).
        model: PathBuf,
        /// Labels, comma-separated.
        #[arg(long, short = 'l', value_delimiter = ',')]
        labels: Vec<String>,
    },
    /// Nested timed automata with invariants (`.neta`, Wang–Li–Yuen SETTA'17): is a configuration
    /// whose working location carries all the labels reachable? (Explored up to a stack bound.)
    Neta {
        /// The model (`.neta`; `-` for standard input).
        model: PathBuf,
        /// Labels, comma-separated.
        #[arg(long, short = 'l', value_delimiter = ',')]
        labels: Vec<String>,
    },
    /// Processes, clocks, integers, locations, edges and synchronisations of a model (`.xml` or
    /// `.tck`).
    Info {
        /// The model.
        model: PathBuf,
    },
    /// The model (`.xml` or `.tck`) in TChecker's format or as a Graphviz digraph.
    Convert {
        model: PathBuf,
        #[arg(long, value_parser = PossibleValuesParser::new(CONVERT_NAMES))]
        to: String,
    },
}

/// How the zone graph is searched.
#[derive(Args, Debug)]
pub struct How {
    /// Search order.
    #[arg(long, alias = "order", value_parser = PossibleValuesParser::new(SEARCH_NAMES))]
    search: Option<String>,
    /// Covering: by inclusion (covreach), by the coarser aLU abstraction, or none (reach).
    #[arg(long, value_parser = PossibleValuesParser::new(ALGO_NAMES))]
    algo: Option<String>,
    /// Zone abstraction: ExtraLU+ or ExtraM, with local (per-location) or global bounds.
    #[arg(long, value_parser = PossibleValuesParser::new(EXTRAPOLATION_NAMES))]
    extrapolation: Option<String>,
}

impl How {
    fn options(&self, ctx: &Ctx) -> Result<Options, CliError> {
        let (s, a, e) = (&self.search, &self.algo, &self.extrapolation);
        Options::from_names(s.as_deref(), a.as_deref(), e.as_deref(), &ctx.params)
    }
}

pub fn run(cmd: TaCmd, ctx: &Ctx) -> Result<Answer, CliError> {
    match cmd {
        TaCmd::Reach { model, labels, how } => {
            verikit_ta::reach_command(&read_input(&model)?, &labels, how.options(ctx)?, ctx)
        }
        TaCmd::Check {
            model,
            queries,
            query,
            how,
        } => {
            let src = read_input(&model)?;
            let (qsrc, o) = (queries.map(|q| read_input(&q)).transpose()?, how.options(ctx)?);
            verikit_ta::check_command(&src, qsrc.as_ref(), query.as_deref(), o, ctx)
        }
        TaCmd::Liveness {
            model,
            labels,
            extrapolation,
        } => verikit_ta::liveness_command(&read_input(&model)?, &labels, extrapolation, ctx),
        TaCmd::Cta { model, labels } => verikit_ta::cta_command(&read_input(&model)?, &labels, ctx),
        TaCmd::Neta { model, labels: l } => verikit_ta::neta_command(&read_input(&model)?, &l, ctx),
        TaCmd::Info { model } => verikit_ta::info_command(&read_input(&model)?),
        TaCmd::Convert { model, to } => verikit_ta::convert_command(&read_input(&model)?, &to),
    }
}
