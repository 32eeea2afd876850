//! `verikit ltl`: LTL formulas in Spot's syntax — parse, simplify, translate (like `ltl2tgba`),
//! evaluate on a lasso word, random formulas (like `randltl`). The work is in
//! `verikit_omega` (`formulas_command` and its siblings); this file only declares the arguments.

use super::omega_common::{DetArgs, FormulaSource};
use crate::report::{CliError, Ctx, Output};
use clap::Subcommand;
use verikit_omega::task::{self, TranslateFlags};
use verikit_omega::{self as omega, FormulaCommand as Do, ReduceMethod as Method};

#[derive(Subcommand, Debug)]
pub enum LtlCmd {
    /// Parse formulas and print them back in Spot syntax.
    Parse(FormulaSource),
    /// Simplify formulas (NNF and Spot's basic rewritings).
    Simplify(FormulaSource),
    /// Translate to a transition-based generalized Büchi automaton (HOA v1), like `ltl2tgba`.
    Translate(TranslateArgs),
    /// Does the lasso word (Spot syntax, e.g. `a & !b; cycle{b & !a}`, each letter one full
    /// valuation of the formula's propositions) satisfy the formula? (No automaton.)
    Check { formula: String, word: String },
    /// Random formulas, like `randltl`: distinct and non-constant.
    Rand(RandArgs),
}

#[derive(clap::Args, Debug)]
pub struct TranslateArgs {
    #[command(flatten)]
    src: FormulaSource,
    /// State-based Büchi automaton, as `ltl2tgba -B`.
    #[arg(long, short = 'B', visible_alias = "ba", overrides_with_all = ["generic", "monitor"])]
    sba: bool,
    /// Generalized Büchi (the default; with -D any acceptance), as `ltl2tgba -G`.
    #[arg(long, short = 'G', overrides_with_all = ["sba", "monitor"])]
    generic: bool,
    /// Monitor: every run accepting, exactly the finite prefixes of the models (with -D
    /// deterministic and minimal), as `ltl2tgba -M`.
    #[arg(long, short = 'M', overrides_with_all = ["sba", "generic"])]
    monitor: bool,
    /// State-based acceptance (any acceptance condition), as `ltl2tgba -S`.
    #[arg(long, short = 'S', visible_alias = "sbacc")]
    state_based_acceptance: bool,
    /// Optimisation effort, as Spot's --low / --medium / --high (default --medium, decision 0341).
    #[arg(long, overrides_with_all = ["medium", "high"])]
    low: bool,
    #[arg(long, overrides_with_all = ["low", "high"])]
    medium: bool,
    #[arg(long, overrides_with_all = ["low", "medium"])]
    high: bool,
    /// Print GraphViz DOT instead of HOA.
    #[arg(long, conflicts_with = "stats")]
    dot: bool,
    /// Only statistics: states, edges, sets; `--stats=FORMAT` with Spot's directives (%s %e %t
    /// %a %f %d %n %c %p %g %h %w %x %X %m %F %L %r %%).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "")]
    stats: Option<String>,
    #[arg(long, help = "Skip the formula simplifier.")]
    no_simplify: bool,
    #[arg(long, help = "Skip the automaton simplifications.")]
    no_postprocess: bool,
    #[arg(long, help = "Name each state by the formula it stands for.")]
    state_names: bool,
    /// Then minimise by simulation: direct | delayed | fair | fair+delayed.
    #[arg(long, value_parser = task::method)]
    reduce: Option<Method>,
    /// Skip the merges and redirects checked by language inclusion both ways.
    #[arg(long)]
    no_redirect_merges: bool,
    #[command(flatten)]
    det: DetArgs,
}

#[derive(clap::Args, Debug)]
pub struct RandArgs {
    /// Atomic propositions: a number (p0, p1, …) or a comma-separated list of names.
    #[arg(long, default_value = "3")]
    ap: String,
    /// Tree size of each formula, `N` or `MIN..MAX`.
    #[arg(long, default_value = "15")]
    size: String,
    #[arg(long, short = 'n', default_value_t = 10, help = "How many formulas.")]
    count: usize,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Operator weights, e.g. `U=3,xor=0,equiv=0` (names as in randltl's --ltl-priorities).
    #[arg(long, default_value = "")]
    weights: String,
    #[arg(long, help = "Simplify each formula before printing.")]
    simplify: bool,
}

pub fn run(cmd: LtlCmd, ctx: &Ctx) -> Result<Output, CliError> {
    match cmd {
        LtlCmd::Parse(s) => s.print(false, ctx),
        LtlCmd::Simplify(s) => s.print(true, ctx),
        LtlCmd::Translate(t) => {
            let mut f = TranslateFlags::default();
            (f.sba, f.state_based, f.level) =
                (t.sba, t.state_based_acceptance, (t.low, t.medium, t.high));
            (f.dot, f.stats, f.no_simplify, f.no_postprocess) =
                (t.dot, t.stats, t.no_simplify, t.no_postprocess);
            (f.no_redirect_merges, f.state_names, f.reduce) =
                (t.no_redirect_merges, t.state_names, t.reduce);
            (f.det, f.monitor, f.any, f.negate) =
                (t.det.options(false), t.monitor, t.det.any, t.src.negate);
            t.src.run(Do::Translate(f), ctx)
        }
        LtlCmd::Check { formula, word } => omega::check_command(&formula, &word),
        LtlCmd::Rand(r) => {
            let texts = (r.ap.as_str(), r.size.as_str(), r.weights.as_str());
            omega::rand_command(texts, (r.count, r.seed, r.simplify), ctx)
        }
    }
}
