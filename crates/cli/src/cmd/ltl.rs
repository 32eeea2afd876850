//! `verikit ltl`: LTL formulas in Spot's syntax — parse, simplify, translate (like `ltl2tgba`),
//! evaluate on a lasso word, random formulas (like `randltl`). The work is in
//! `verikit_omega::task`; this file reads arguments and files.

use super::aut::{batch, err, DetArgs};
use crate::report::{read_input, CliError, Ctx, Output};
use clap::Subcommand;
use std::path::Path;
use verikit_diag::{Answer, SourceFile};
use verikit_omega::task::{self, FormulaItem, RandJob, Show, TranslateJob};
use verikit_omega::{gba_reduce::Method, translate::Options};

#[derive(Subcommand, Debug)]
pub enum LtlCmd {
    /// Parse formulas and print them back in Spot syntax.
    Parse(FormulaSource),
    /// Simplify formulas (NNF and Spot's basic rewritings).
    Simplify(FormulaSource),
    /// Translate to a transition-based generalized Büchi automaton (HOA v1 on stdout), like
    /// `ltl2tgba`; `--sba` gives a state-based Büchi automaton like `ltl2tgba -B`; `-D`, `-P`,
    /// `-C` a deterministic, parity, complete automaton like `ltl2tgba -D -P -C`.
    Translate(TranslateArgs),
    /// Does the lasso word satisfy the formula? (Direct evaluation, no automaton.)
    Check {
        /// The formula.
        formula: String,
        /// A lasso word in Spot's syntax, e.g. `a & !b; cycle{b & !a}`: each letter is one full
        /// valuation of the formula's propositions (partial or contradictory letters and other
        /// propositions are errors).
        word: String,
    },
    /// Random formulas, like `randltl`: distinct and non-constant.
    Rand(RandArgs),
}

#[derive(clap::Args, Debug)]
pub struct TranslateArgs {
    #[command(flatten)]
    src: FormulaSource,
    /// State-based Büchi automaton (degeneralised), as `ltl2tgba -B`.
    #[arg(long, short = 'B', visible_alias = "ba", overrides_with = "generic")]
    sba: bool,
    /// Transition-based generalized Büchi automaton (the default), as `ltl2tgba -G`; with `-D`
    /// the deterministic automaton keeps any acceptance.
    #[arg(long, short = 'G', overrides_with = "sba")]
    generic: bool,
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
    /// Print only statistics, one line per formula: `--stats` alone gives states, edges and
    /// acceptance sets; `--stats=FORMAT` uses Spot's directives (%s states, %e edges,
    /// %t transitions, %a acceptance sets, %f formula, %d deterministic, %n nondeterministic
    /// states, %c SCCs, %p complete, %g acceptance, %h HOA, %w accepted word, %x/%X APs,
    /// %m name, %F/%L input file and line, %r time, %%).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "")]
    stats: Option<String>,
    /// Skip the formula simplifier.
    #[arg(long)]
    no_simplify: bool,
    /// Skip the automaton simplifications.
    #[arg(long)]
    no_postprocess: bool,
    /// Name each state by the formula it stands for.
    #[arg(long)]
    state_names: bool,
    /// Then minimise by simulation: direct | delayed | fair | fair+delayed.
    #[arg(long, value_parser = task::method)]
    reduce: Option<Method>,
    /// Skip the merges and redirects checked by language inclusion both ways (they run
    /// within counted work budgets; skipping them takes about a third of the CPU time and
    /// sometimes gives more states).
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
    /// How many formulas.
    #[arg(long, short = 'n', default_value_t = 10)]
    count: usize,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Operator weights, e.g. `U=3,xor=0,equiv=0` (names as in randltl's --ltl-priorities).
    #[arg(long, default_value = "")]
    weights: String,
    /// Simplify each formula before printing.
    #[arg(long)]
    simplify: bool,
}

#[derive(clap::Args, Debug)]
pub struct FormulaSource {
    /// Formulas (Spot syntax).
    formulas: Vec<String>,
    /// A formula (repeatable), as Spot's `-f`.
    #[arg(long = "formula", short = 'f')]
    f: Vec<String>,
    /// Read formulas from a file, one per line (`-` for standard input; blank lines and lines
    /// starting with `#` are skipped), or column COL of a CSV file with `FILE/COL` (negative
    /// COL: skip the header line), as Spot's `-F`; repeatable. Each result is printed as soon
    /// as it is computed; a bad line is reported (file:line:col) and the others still run.
    #[arg(long, short = 'F')]
    file: Vec<String>,
    /// Negate each formula.
    #[arg(long)]
    negate: bool,
}

/// Runs `f` on the formula, or on every formula as a streamed batch.
fn each(
    ctx: &Ctx,
    src: &FormulaSource,
    f: impl Fn(&FormulaItem) -> Result<Answer, verikit_omega::OmegaError>,
) -> Result<Output, CliError> {
    let read = |p: &str| read_input(Path::new(p));
    let wrap = |e, file: &SourceFile| CliError::from_error(e, Some(file));
    let mut items = task::formula_items(&src.formulas, &src.f, &src.file, read, wrap, usage)?;
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

fn usage(m: String) -> CliError {
    CliError::Usage(m)
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
            let base = Options {
                simplify_formula: !t.no_simplify,
                postprocess: !t.no_postprocess,
                sba: t.sba,
                redirect_merges: !t.no_redirect_merges,
                level: task::level(t.low, t.medium, t.high),
                ..Options::default()
            };
            let job = TranslateJob {
                options: task::translate_options(&ctx.params, base).map_err(usage)?,
                reduce: t.reduce,
                show: Show::from_flags(t.dot, t.stats.is_some()),
                state_names: t.state_names,
                deterministic: match t.det.options(false) {
                    Some(o) => Some(task::det_options(&ctx.params, o).map_err(usage)?),
                    None => None,
                },
                negate: t.src.negate,
                state_based: t.state_based_acceptance,
                stats_format: task::stats_format(t.stats).map_err(usage)?,
            };
            let budget = &ctx.budget;
            each(ctx, &t.src, |i| {
                task::translate_item(i, &job, budget).map(|x| x.1)
            })
        }
        LtlCmd::Check { formula, word } => task::check(&formula, &word).map_err(err),
        LtlCmd::Rand(r) => {
            let job = RandJob::parse(&r.ap, &r.size, &r.weights, (r.count, r.seed, r.simplify));
            let a = task::rand_formulas(&job.map_err(usage)?, &ctx.params, &ctx.budget);
            a.map_err(usage)
        }
    }
}
