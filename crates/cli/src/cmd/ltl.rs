//! `verikit ltl`: LTL formulas in Spot's syntax — parse, simplify, translate (like `ltl2tgba`),
//! evaluate on a lasso word, random formulas (like `randltl`). The work is in
//! `verikit_omega::task`; this file reads arguments and files.

use super::aut::{batch, err, DetArgs};
use crate::report::{read_input, CliError, Ctx, Output};
use clap::Subcommand;
use std::sync::atomic::{AtomicUsize, Ordering};
use verikit_diag::{Answer, SourceFile};
use verikit_omega::task::{self, FormulaInput, FormulaItem, RandJob, TranslateFlags};
use verikit_omega::ReduceMethod as Method;

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

/// The formula inputs, kept in command-line order as Spot does (positional, `-f`, `-F` mixed).
#[derive(clap::Args, Debug)]
pub struct FormulaSource {
    #[arg(value_parser = formula, help = "Formulas (Spot syntax).")]
    formulas: Vec<(usize, FormulaInput)>,
    #[arg(long = "formula", short = 'f', value_parser = formula, help = "A formula, as Spot's -f.")]
    f: Vec<(usize, FormulaInput)>,
    /// Formulas of a file, one per line (`-` stdin; blank and `#` lines skipped), or column COL
    /// of a CSV file with `FILE/COL` (COL < 0: skip the header), as Spot's `-F`. Results are
    /// printed as they come; a bad line is reported (file:line:col), the others still run.
    #[arg(long, short = 'F', value_parser = file)]
    file: Vec<(usize, FormulaInput)>,
    #[arg(long, help = "Negate each formula.")]
    negate: bool,
}

/// Clap parses the command line left to right: a counter numbers the inputs in that order.
static SEQ: AtomicUsize = AtomicUsize::new(0);
fn formula(s: &str) -> Result<(usize, FormulaInput), String> {
    Ok((
        SEQ.fetch_add(1, Ordering::Relaxed),
        FormulaInput::Formula(s.into()),
    ))
}
fn file(s: &str) -> Result<(usize, FormulaInput), String> {
    Ok((
        SEQ.fetch_add(1, Ordering::Relaxed),
        FormulaInput::File(s.into()),
    ))
}

/// Runs `f` on the formula, or on every formula as a streamed batch.
fn each(
    ctx: &Ctx,
    src: &FormulaSource,
    f: impl Fn(&FormulaItem) -> Result<Answer, verikit_omega::OmegaError>,
) -> Result<Output, CliError> {
    let mut inputs: Vec<_> = [&src.formulas, &src.f, &src.file]
        .into_iter()
        .flatten()
        .collect();
    inputs.sort_by_key(|(n, _)| *n);
    let inputs: Vec<FormulaInput> = inputs.into_iter().map(|(_, i)| i.clone()).collect();
    let read = |p: &str| read_input(std::path::Path::new(p));
    let wrap = |e, file: &SourceFile| CliError::from_error(e, Some(file));
    let mut items = task::formula_items(&inputs, read, wrap, CliError::Usage)?;
    if items.len() == 1 && src.file.is_empty() {
        let it = items.remove(0);
        return f(&it).map_err(|e| err(it.locate(e)));
    }
    let (none, f) = (SourceFile::new("<formulas>", ""), &f);
    let items = items
        .into_iter()
        .map(|it| move || f(&it).map_err(|e| it.locate(e)));
    batch(ctx, &none, ("formula", "formulas"), items)
}

pub fn run(cmd: LtlCmd, ctx: &Ctx) -> Result<Output, CliError> {
    match cmd {
        LtlCmd::Parse(s) => each(ctx, &s, |i| {
            task::print_formula(&i.text, i.offset, false, s.negate)
        }),
        LtlCmd::Simplify(s) => each(ctx, &s, |i| {
            task::print_formula(&i.text, i.offset, true, s.negate)
        }),
        LtlCmd::Translate(t) => {
            let flags = TranslateFlags {
                sba: t.sba,
                state_based: t.state_based_acceptance,
                level: (t.low, t.medium, t.high),
                dot: t.dot,
                stats: t.stats,
                no_simplify: t.no_simplify,
                no_postprocess: t.no_postprocess,
                no_redirect_merges: t.no_redirect_merges,
                state_names: t.state_names,
                reduce: t.reduce,
                det: t.det.options(false),
                monitor: t.monitor,
                any: t.det.any,
                negate: t.src.negate,
            };
            let job = task::translate_job(flags, &ctx.params).map_err(CliError::Usage)?;
            each(ctx, &t.src, |i| {
                task::translate_item(i, &job, &ctx.budget).map(|x| x.1)
            })
        }
        LtlCmd::Check { formula, word } => task::check(&formula, &word).map_err(err),
        LtlCmd::Rand(r) => {
            let job = RandJob::parse(&r.ap, &r.size, &r.weights, (r.count, r.seed, r.simplify));
            let job = job.map_err(CliError::Usage)?;
            task::rand_formulas(&job, &ctx.params, &ctx.budget).map_err(CliError::Usage)
        }
    }
}
