//! `verikit prism`: build PRISM-language and JANI models, check PCTL/CSL properties (JANI files
//! carry their properties), reduce interval MDPs by alternating bisimulation (SETTA 2017).

use crate::report::{CliError, Ctx};
use std::path::PathBuf;
use verikit_diag::Answer;
use verikit_prob::{BisimCommand, BuildExports, CheckCommand, ModelInput};

#[derive(clap::Args, Debug, Clone)]
pub struct ModelArgs {
    /// PRISM model file (`.prism`, `.pm`, `.nm`, `.sm`) or JANI model (`.jani`, with its
    /// properties); `-` for standard input.
    pub model: PathBuf,
    /// Values for undefined constants, e.g. `N=3,K=2` (model and properties).
    #[arg(long = "const", value_name = "N=V,...")]
    pub consts: Vec<String>,
    /// Report deadlock states as an error instead of adding self-loops (PRISM's default fixes them).
    #[arg(long)]
    pub no_fix_deadlocks: bool,
    /// Add self-loops to deadlock states (the default; kept for PRISM compatibility).
    #[arg(long, conflicts_with = "no_fix_deadlocks")]
    pub fix_deadlocks: bool,
    /// Stop with a resource-limit error (exit 3) when the model has more states than this (useful
    /// for models with unbounded `int` variables, whose state space may be infinite).
    #[arg(long, value_name = "N")]
    pub max_states: Option<usize>,
}

#[derive(clap::Subcommand, Debug)]
pub enum PrismCmd {
    /// Build a model and check properties: prints each result as soon as it is computed, then the
    /// state/transition counts and times. `--const N=1:2:9` (start:step:end) runs an experiment
    /// over every combination. Properties: P (X, U, F, G, W, R, bounded), R (F, C, C<=k, I=k, S),
    /// S, CTL's A/E, filters, `"name"` for a named property; no model type keyword: an MDP.
    Check(CheckArgs),
    /// Build a model, print its size, and optionally export it.
    Build {
        #[command(flatten)]
        model: ModelArgs,
        #[command(flatten)]
        exports: BuildExports,
    },
    /// Coarsest alternating probabilistic bisimulation of an interval MDP (SETTA 2017): prints |S|,
    /// |I| before and after and the time; optionally writes the quotient.
    Bisim(BisimArgs),
}

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    model: ModelArgs,
    /// Properties file (`.props`, `.pctl`, `.csl`); none for JANI models, which embed theirs.
    props: Option<PathBuf>,
    /// A property given inline, e.g. `--pf 'P=? [ F "done" ]'` (instead of a file).
    #[arg(long, value_name = "PROPERTY", conflicts_with = "props")]
    pf: Option<String>,
    /// Check only these properties, by name or 1-based index (repeatable; comma lists).
    #[arg(long, value_name = "NAME,...")]
    prop: Vec<String>,
    /// Relative precision of numerical results.
    #[arg(long, default_value_t = 1e-6)]
    precision: f64,
    /// Write an optimal memoryless scheduler (`state choice action` per line) for the checked
    /// Pmin/Pmax property of an unbounded F/U on an MDP (select one property with --prop).
    #[arg(long, value_name = "FILE")]
    export_scheduler: Option<PathBuf>,
    /// Widen every probability p to [max(0,p-EPS), min(1,p+EPS)] and check the interval model.
    #[arg(long, value_name = "EPS")]
    widen: Option<f64>,
    /// Compare every result with the `// RESULT: value` annotation before its property (PRISM's
    /// -test); the verdict is false if one differs.
    #[arg(long)]
    test: bool,
    /// Write the results as PRISM's tables (one per property, a row per --const combination);
    /// `FILE:csv` for comma-separated values.
    #[arg(long, value_name = "FILE[:csv]")]
    export_results: Option<String>,
}

#[derive(clap::Args, Debug)]
pub struct BisimArgs {
    #[command(flatten)]
    model: ModelArgs,
    /// Widen every probability p of a DTMC/MDP to [max(0,p-EPS), min(1,p+EPS)] first.
    #[arg(long, value_name = "EPS")]
    widen: Option<f64>,
    /// Write the quotient IMDP (`.tra`: explicit intervals; otherwise a PRISM `imdp` model).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// The initial partition: `all` model labels (the default without --props), `none`, `props`
    /// (the atomic propositions and rewards of the properties; the default with --props), or a
    /// comma-separated list of label and reward-structure names.
    #[arg(long, value_name = "all|none|props|NAMES")]
    labels: Option<String>,
    /// Check these properties on the model and its quotient (robust ∃σ∀π values): do they agree?
    #[arg(long, value_name = "FILE")]
    props: Option<PathBuf>,
    /// With --props: check only these properties, by name or 1-based index (comma lists).
    #[arg(long)]
    prop: Vec<String>,
    /// With --props: relative precision of numerical results.
    #[arg(long, default_value_t = 1e-6)]
    precision: f64,
}

fn input(a: ModelArgs) -> ModelInput {
    let mut m = ModelInput::default();
    (m.path, m.consts, m.max_states) = (a.model, a.consts, a.max_states);
    m.fix_deadlocks = !a.no_fix_deadlocks;
    m
}

pub fn run(cmd: PrismCmd, ctx: &Ctx) -> Result<Answer, CliError> {
    match cmd {
        PrismCmd::Check(a) => {
            let mut c = CheckCommand::default();
            (c.props, c.inline, c.selectors, c.precision) = (a.props, a.pf, a.prop, a.precision);
            (c.export_scheduler, c.widen, c.test) = (a.export_scheduler, a.widen, a.test);
            c.export_results = a.export_results;
            verikit_prob::check_command(&input(a.model), &c, ctx)
        }
        PrismCmd::Build { model, exports } => {
            verikit_prob::build_command(&input(model), &exports, ctx)
        }
        PrismCmd::Bisim(a) => {
            let mut b = BisimCommand::default();
            (b.widen, b.out, b.labels, b.props) = (a.widen, a.out, a.labels, a.props);
            (b.selectors, b.precision) = (a.prop, a.precision);
            verikit_prob::bisim_command(&input(a.model), &b, ctx)
        }
    }
}
