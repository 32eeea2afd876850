//! The `verikit ltl` and `verikit aut` commands as library calls taking the command's [`Ctx`]:
//! each reads the files the command line names (`-` for standard input), asks one question of
//! [`crate::task`] under the command's budget and `-x omega.*` parameters, streams batch items (the
//! formulas of `-F` files, the automata of a HOA stream) through the context as Spot's tools do,
//! and answers `Result<Answer, Failure>` with errors located in the file they are about.

use crate::error::OmegaError;
use crate::filter::{filter, Filter};
use crate::parity::ParityKind;
use crate::task::TranslateFlags;
use crate::task::{self, AutOp, AutPair, FormulaInput, FormulaItem, RandJob, Show};
use crate::twa::Twa;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use verikit_diag::{read_input, Answer, Ctx, Failure, SourceFile, Verdict};

/// An engine error without a file of its own (it names its source if it has one).
fn err(e: OmegaError) -> Failure {
    Failure::from_error(e, None)
}

/// Runs a streamed batch (see [`task::batch`]): answers printed as they come, a bad item's error
/// rendered on stderr at once; bad items end the command with a usage failure (exit 2) after the
/// others (in `--json`, the answer says `error` and lists every item).
fn batch<I: FnOnce() -> Result<Answer, OmegaError>>(
    ctx: &Ctx,
    file: &SourceFile,
    names: (&str, &str),
    items: impl Iterator<Item = I>,
) -> Result<Answer, Failure> {
    let sum = task::batch(items, names, &ctx.budget, |n, r| {
        let a = r.unwrap_or_else(|e| {
            let e = Failure::from_error(e, Some(file));
            ctx.item_error(&format!("{} {n}", names.0), &e);
            let a = Answer::decision(Verdict::Error).detail("position", n);
            a.detail("error", e.message())
        });
        ctx.stream(a);
    });
    let msg = sum.detail.get("error").and_then(|m| m.as_str());
    match (sum.verdict, msg) {
        (Some(Verdict::Error), Some(m)) if !ctx.json => Err(Failure::Usage(m.to_string())),
        _ => Ok(ctx.finish_batch(sum)),
    }
}

/// The one automaton of the HOA file at `path`.
fn load_one(path: &Path) -> Result<Twa, Failure> {
    let src = read_input(path)?;
    task::read_automaton(&src.text).map_err(|e| Failure::from_error(e, Some(&src)))
}

/// `verikit aut stats | print | simplify | is-empty | reduce | complement | determinize`: `op` on
/// every automaton of the HOA file at `path` — one answer for one automaton, a streamed batch
/// otherwise; `dot` shows produced automata as GraphViz DOT. `aut determinize` takes the
/// `omega.det-max-states` parameter.
pub fn aut_command(path: &Path, op: AutOp, dot: bool, ctx: &Ctx) -> Result<Answer, Failure> {
    let op = match op {
        AutOp::Determinize(o) => {
            AutOp::Determinize(task::det_options(&ctx.params, o).map_err(Failure::Usage)?)
        }
        op => op,
    };
    let (src, show) = (read_input(path)?, Show::from_flags(dot, false));
    let mut auts = task::read_automata(&src.text);
    if auts.len() == 1 {
        let a = auts
            .remove(0)
            .map_err(|e| Failure::from_error(e, Some(&src)))?;
        return task::aut_unary(&a, &op, show, &ctx.budget)
            .map_err(|e| Failure::from_error(e, Some(&src)));
    }
    let items = auts
        .into_iter()
        .map(|a| || a.and_then(|a| task::aut_unary(&a, &op, show, &ctx.budget)));
    batch(ctx, &src, ("automaton", "automata"), items)
}

/// `verikit aut accepts`: does the one automaton at `path` accept the lasso `word` (Spot syntax)?
pub fn accepts_command(path: &Path, word: &str, ctx: &Ctx) -> Result<Answer, Failure> {
    let op = AutOp::Accepts(crate::word::parse_word(word).map_err(err)?);
    task::aut_unary(&load_one(path)?, &op, Show::Stats, &ctx.budget).map_err(err)
}

/// `verikit aut product` of the automata at `a` and `b` (DOT with `dot`).
pub fn product_command(a: &Path, b: &Path, dot: bool, ctx: &Ctx) -> Result<Answer, Failure> {
    let (a, b) = (load_one(a)?, load_one(b)?);
    let show = Show::from_flags(dot, false);
    task::aut_binary(&a, &b, &AutPair::Product, show, &ctx.budget).map_err(err)
}

/// `verikit aut included`: `L(A) ⊆ L(B)` within `max_elements` and the `omega.included-*`
/// parameters.
pub fn included_command(a: &Path, b: &Path, max: usize, ctx: &Ctx) -> Result<Answer, Failure> {
    let limits = task::inclusion_limits(&ctx.params, max).map_err(Failure::Usage)?;
    let (a, b) = (load_one(a)?, load_one(b)?);
    let op = AutPair::Included(limits);
    task::aut_binary(&a, &b, &op, Show::Stats, &ctx.budget).map_err(err)
}

/// The tests of `verikit aut filter` as the command line gives them: words in Spot syntax and
/// the paths of the automata to compare with (see [`Filter`]).
#[derive(Clone, Debug, Default)]
pub struct FilterTests {
    pub is_empty: bool,
    pub is_deterministic: bool,
    pub is_complete: bool,
    pub accepts_word: Vec<String>,
    pub included_in: Vec<PathBuf>,
    pub equivalent_to: Vec<PathBuf>,
    pub acceptance_is: Option<String>,
    pub invert: bool,
}

/// `verikit aut filter`: the automata of `files` that pass every test (or, inverted, fail one),
/// as Spot's `autfilt`. Words are read first, then the automata to compare with, then the inputs.
pub fn filter_command(files: &[PathBuf], t: FilterTests, ctx: &Ctx) -> Result<Answer, Failure> {
    let words = t.accepts_word.iter().map(|w| crate::word::parse_word(w));
    let load = |ps: &[PathBuf]| ps.iter().map(|p| load_one(p)).collect::<Result<_, _>>();
    let f = Filter {
        is_empty: t.is_empty,
        is_deterministic: t.is_deterministic,
        is_complete: t.is_complete,
        accepts: words.collect::<Result<_, _>>().map_err(err)?,
        included_in: load(&t.included_in)?,
        equivalent_to: load(&t.equivalent_to)?,
        acceptance_is: t.acceptance_is,
        invert: t.invert,
    };
    let mut auts = Vec::new();
    for p in files {
        let src = read_input(p)?;
        for a in task::read_automata(&src.text) {
            auts.push(Ok(a.map_err(|e| Failure::from_error(e, Some(&src)))?));
        }
    }
    filter(auts, &f, &ctx.budget).map_err(err)
}

/// Numbers the formula inputs of a command line (`-f`, `-F` or positional) as an argument parser
/// reads them, left to right, so that they keep Spot's order.
static SEQ: AtomicUsize = AtomicUsize::new(0);

/// A formula argument (positional or `-f`), numbered in command-line order.
pub fn formula_arg(s: &str) -> Result<(usize, FormulaInput), String> {
    Ok((
        SEQ.fetch_add(1, Ordering::Relaxed),
        FormulaInput::Formula(s.into()),
    ))
}

/// A `-F FILE[/COL]` argument, numbered in command-line order.
pub fn formula_file_arg(s: &str) -> Result<(usize, FormulaInput), String> {
    Ok((
        SEQ.fetch_add(1, Ordering::Relaxed),
        FormulaInput::File(s.into()),
    ))
}

/// A `--parity=KIND` value (`min|max even|odd`).
pub fn parity_kind(s: &str) -> Result<ParityKind, String> {
    ParityKind::parse(s)
        .ok_or_else(|| format!("unknown parity type `{s}` (min even, min odd, max even, max odd)"))
}

/// What `verikit ltl parse | simplify | translate` does with each formula.
#[derive(Clone, Debug)]
pub enum FormulaCommand {
    /// Print it back, simplified or not, negated or not.
    Print { simplify: bool, negate: bool },
    /// Translate it (Spot's `ltl2tgba` flags; `-x omega.*` applied).
    Translate(TranslateFlags),
}

/// `verikit ltl parse | simplify | translate` on the formula inputs (numbered by [`formula_arg`],
/// run in that order): one answer for one command-line formula, else a streamed batch.
pub fn formulas_command(
    inputs: Vec<(usize, FormulaInput)>,
    cmd: FormulaCommand,
    ctx: &Ctx,
) -> Result<Answer, Failure> {
    let (job, simplify, negate) = match cmd {
        FormulaCommand::Translate(f) => {
            let job = task::translate_job(f, &ctx.params).map_err(Failure::Usage)?;
            (Some(job), false, false)
        }
        FormulaCommand::Print { simplify, negate } => (None, simplify, negate),
    };
    let f = |i: &FormulaItem| match &job {
        Some(job) => task::translate_item(i, job, &ctx.budget).map(|x| x.1),
        None => task::print_formula(&i.text, i.offset, simplify, negate),
    };
    let mut inputs = inputs;
    inputs.sort_by_key(|(n, _)| *n);
    let has_file = inputs
        .iter()
        .any(|(_, i)| matches!(i, FormulaInput::File(_)));
    let inputs: Vec<FormulaInput> = inputs.into_iter().map(|(_, i)| i).collect();
    let wrap = |e, file: &SourceFile| Failure::from_error(e, Some(file));
    let read = |p: &str| read_input(Path::new(p));
    let mut items = task::formula_items(&inputs, read, wrap, Failure::Usage)?;
    if items.len() == 1 && !has_file {
        let it = items.remove(0);
        return f(&it).map_err(|e| err(it.locate(e)));
    }
    let (none, f) = (SourceFile::new("<formulas>", ""), &f);
    let items = items
        .into_iter()
        .map(|it| move || f(&it).map_err(|e| it.locate(e)));
    batch(ctx, &none, ("formula", "formulas"), items)
}

/// `verikit ltl check`: does the lasso `word` satisfy `formula`?
pub fn check_command(formula: &str, word: &str) -> Result<Answer, Failure> {
    task::check(formula, word).map_err(err)
}

/// `verikit ltl rand`: random formulas of the `--ap`, `--size` and `--weights` texts and
/// (count, seed, simplify), within `omega.rand-max-trials`.
pub fn rand_command(
    (ap, size, weights): (&str, &str, &str),
    (count, seed, simplify): (usize, u64, bool),
    ctx: &Ctx,
) -> Result<Answer, Failure> {
    let job = RandJob::parse(ap, size, weights, (count, seed, simplify));
    let job = job.map_err(Failure::Usage)?;
    task::rand_formulas(&job, &ctx.params, &ctx.budget).map_err(Failure::Usage)
}
