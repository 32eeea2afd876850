//! `verikit ltl`: LTL formulas in Spot's syntax — parse, simplify, translate (like `ltl2tgba`),
//! evaluate on a lasso word, random formulas (like `randltl`). The work is in
//! `verikit_omega::task`; this file reads arguments and files.

use super::aut::{batch, err, DetArgs};
use crate::report::{read_input, CliError, Ctx, Output};
use clap::Subcommand;
use std::path::PathBuf;
use verikit_diag::{Answer, SourceFile};
use verikit_omega::task::{self, RandJob, Show, TranslateJob};
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
    /// State-based Büchi automaton (degeneralised).
    #[arg(long, short = 'B')]
    sba: bool,
    /// Print GraphViz DOT instead of HOA.
    #[arg(long, conflicts_with = "stats")]
    dot: bool,
    /// Print only statistics (states, edges, acceptance sets), one line per formula.
    #[arg(long)]
    stats: bool,
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
    /// A formula (Spot syntax).
    #[arg(required_unless_present = "file")]
    formula: Option<String>,
    /// Read formulas from a file, one per line (`-` for standard input); blank lines and lines
    /// starting with `#` are skipped. Each result is printed as soon as it is computed; a bad
    /// line is reported (file:line:col) and the others are still processed.
    #[arg(long, short = 'F', conflicts_with = "formula")]
    file: Option<PathBuf>,
}

/// Runs `f` on the formula, or on every formula of the file as a streamed batch.
fn each(
    ctx: &Ctx,
    src: &FormulaSource,
    f: impl Fn(&str, usize) -> Result<Answer, verikit_omega::OmegaError>,
) -> Result<Output, CliError> {
    if let Some(text) = &src.formula {
        let file = SourceFile::new("<formula>", text.clone());
        return f(text, 0).map_err(|e| CliError::from_error(e, Some(&file)));
    }
    let file = read_input(src.file.as_deref().unwrap_or(std::path::Path::new("-")))?;
    let (lines, f) = (task::formula_lines(&file.text), &f);
    let items = lines.into_iter().map(|(off, l)| move || f(l, off));
    batch(ctx, &file, ("formula", "formulas"), items)
}

pub fn run(cmd: LtlCmd, ctx: &Ctx) -> Result<Output, CliError> {
    let usage = CliError::Usage;
    match cmd {
        LtlCmd::Parse(src) => each(ctx, &src, |f, off| task::print_formula(f, off, false)),
        LtlCmd::Simplify(src) => each(ctx, &src, |f, off| task::print_formula(f, off, true)),
        LtlCmd::Translate(t) => {
            let base = Options {
                simplify_formula: !t.no_simplify,
                postprocess: !t.no_postprocess,
                sba: t.sba,
                redirect_merges: !t.no_redirect_merges,
                ..Options::default()
            };
            let job = TranslateJob {
                options: task::translate_options(&ctx.params, base).map_err(usage)?,
                reduce: t.reduce,
                show: Show::from_flags(t.dot, t.stats),
                state_names: t.state_names,
                deterministic: match t.det.options(false) {
                    Some(o) => Some(task::det_options(&ctx.params, o).map_err(usage)?),
                    None => None,
                },
            };
            let budget = &ctx.budget;
            each(ctx, &t.src, |f, off| {
                task::translate_formula(f, off, &job, budget).map(|x| x.1)
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

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let spec = include_str!("../../demo/omega/response.ltl").trim();
    let a = task::demo_translate(spec, &ctx.budget).map_err(err)?;
    Ok(vec![(format!("ltl translate '{spec}'"), a)])
}
