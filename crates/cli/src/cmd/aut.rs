//! `verikit aut`: ω-automata in HOA v1 (generalized Büchi) — statistics, printing, simplification,
//! product, emptiness, membership, inclusion, complementation, simulation-based minimisation.
//! A HOA stream is answered automaton by automaton, as Spot's tools do. The work is in
//! `verikit_omega::task`; this file reads arguments and files.

use crate::report::{read_input, CliError, Ctx, Output};
use clap::Subcommand;
use std::path::{Path, PathBuf};
use verikit_diag::{Answer, SourceFile, Verdict};
use verikit_omega::task::{self, AutOp, AutPair, Show};
use verikit_omega::{filter, Filter};
use verikit_omega::{DetOptions, OmegaError, ParityKind, ReduceMethod as Method, Twa};

#[derive(Subcommand, Debug)]
pub enum AutCmd {
    /// States, edges, acceptance sets and properties of each automaton (`-` for standard input).
    Stats { a: PathBuf },
    /// Print each automaton back (HOA, or DOT with --dot).
    Print {
        a: PathBuf,
        #[arg(long)]
        dot: bool,
    },
    /// Remove useless states, clean acceptance, merge bisimilar states; `--sba` degeneralises to
    /// a state-based Büchi automaton.
    Simplify {
        a: PathBuf,
        #[arg(long, short = 'B')]
        sba: bool,
        #[arg(long)]
        dot: bool,
    },
    /// Synchronous product (intersection of the languages) of two automata.
    Product {
        a: PathBuf,
        b: PathBuf,
        #[arg(long)]
        dot: bool,
    },
    /// Is the language empty? `true`, or `false` with an accepting lasso `prefix; cycle{…}`.
    IsEmpty { a: PathBuf },
    /// Does the automaton accept the lasso word (Spot syntax, e.g. `a & !b; cycle{b & !a}`; each
    /// letter is one full valuation of the automaton's propositions)?
    Accepts { a: PathBuf, word: String },
    /// Simulation-based minimisation (Juvekar–Piterman CAV'06): quotient by direct or delayed
    /// simulation, checked fair-simulation merges and little-brother edge removals.
    Reduce {
        a: PathBuf,
        /// direct | delayed | fair | fair+delayed
        #[arg(long, default_value = "fair+delayed", value_parser = task::method)]
        sim: Method,
        /// Print before/after sizes and time instead of the automaton.
        #[arg(long)]
        stats: bool,
        #[arg(long)]
        dot: bool,
    },
    /// Language inclusion L(A) ⊆ L(B) (Ramsey-based with subsumption, no complementation); a
    /// `false` answer prints a lasso word accepted by A and rejected by B.
    Included {
        a: PathBuf,
        b: PathBuf,
        /// Give up (resource limit, exit 3) after this many prefix and loop elements.
        #[arg(long, default_value_t = 2_000_000)]
        max_elements: usize,
    },
    /// Keep the automata of the inputs that pass every test, printed as HOA (Spot's `autfilt`);
    /// exit 0 if one was printed, 1 otherwise.
    Filter {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long)]
        is_empty: bool,
        #[arg(long)]
        is_deterministic: bool,
        #[arg(long)]
        is_complete: bool,
        /// A lasso word (Spot syntax) the automaton must accept (repeatable).
        #[arg(long)]
        accepts_word: Vec<String>,
        /// A HOA file whose language must contain the automaton's.
        #[arg(long)]
        included_in: Vec<PathBuf>,
        /// A HOA file with the same language.
        #[arg(long)]
        equivalent_to: Vec<PathBuf>,
        /// An acc-name (`Buchi`, `Rabin`, `parity max odd 3`, …) or acceptance formula.
        #[arg(long)]
        acceptance_is: Option<String>,
        /// Keep the automata that fail a test instead (autfilt's `-v`; `-v` is verikit's
        /// global verbosity flag).
        #[arg(long)]
        invert_match: bool,
    },
    /// Complement (rank-based for generalized Büchi; any acceptance when deterministic).
    Complement {
        a: PathBuf,
        #[arg(long)]
        dot: bool,
    },
    /// A deterministic automaton (like `autfilt -D -P`): kept if already deterministic, else
    /// determinised into a parity automaton (Safra trees with dynamic naming), with colour
    /// reduction and the bisimulation quotient.
    Determinize {
        a: PathBuf,
        #[command(flatten)]
        det: DetArgs,
        #[arg(long)]
        dot: bool,
    },
}

/// Runs a streamed batch (see `task::batch`): answers printed as they come, a bad item's error
/// rendered on stderr at once; bad items end the command with exit 2 after the others (in
/// `--json`, the answer says `error` and lists every item).
pub fn batch<I: FnOnce() -> Result<Answer, OmegaError>>(
    ctx: &Ctx,
    file: &SourceFile,
    names: (&str, &str),
    items: impl Iterator<Item = I>,
) -> Result<Output, CliError> {
    let sum = task::batch(items, names, &ctx.budget, |n, r| {
        let a = r.unwrap_or_else(|e| {
            let e = CliError::from_error(e, Some(file));
            eprint!("{} {n}: {}", names.0, e.render());
            let a = Answer::decision(Verdict::Error).detail("position", n);
            a.detail("error", e.message())
        });
        ctx.stream(a);
    });
    let msg = sum.detail.get("error").and_then(|m| m.as_str());
    match (sum.verdict, msg) {
        (Some(Verdict::Error), Some(m)) if !ctx.json => Err(CliError::Usage(m.to_string())),
        _ => Ok(ctx.finish_batch(sum)),
    }
}

/// An engine error without a file of its own (it names its source if it has one).
pub fn err(e: OmegaError) -> CliError {
    CliError::from_error(e, None)
}

fn load_one(path: &Path) -> Result<Twa, CliError> {
    let src = read_input(path)?;
    task::read_automaton(&src.text).map_err(|e| CliError::from_error(e, Some(&src)))
}

/// Runs `op` on every automaton of the input: one answer for one automaton, a batch otherwise.
fn each(ctx: &Ctx, path: &Path, op: AutOp, dot: bool) -> Result<Output, CliError> {
    let (src, show) = (read_input(path)?, Show::from_flags(dot, false));
    let mut auts = task::read_automata(&src.text);
    if auts.len() == 1 {
        let a = auts
            .remove(0)
            .map_err(|e| CliError::from_error(e, Some(&src)))?;
        return task::aut_unary(&a, &op, show, &ctx.budget)
            .map_err(|e| CliError::from_error(e, Some(&src)));
    }
    let items = auts
        .into_iter()
        .map(|a| || a.and_then(|a| task::aut_unary(&a, &op, show, &ctx.budget)));
    batch(ctx, &src, ("automaton", "automata"), items)
}

fn pair(ctx: &Ctx, a: &Path, b: &Path, op: AutPair, show: Show) -> Result<Output, CliError> {
    let (a, b) = (load_one(a)?, load_one(b)?);
    task::aut_binary(&a, &b, &op, show, &ctx.budget).map_err(err)
}

pub fn run(cmd: AutCmd, ctx: &Ctx) -> Result<Output, CliError> {
    match cmd {
        AutCmd::Stats { a } => each(ctx, &a, AutOp::Stats, false),
        AutCmd::Print { a, dot } => each(ctx, &a, AutOp::Print, dot),
        AutCmd::Simplify { a, sba, dot } => each(ctx, &a, AutOp::Simplify { sba }, dot),
        AutCmd::IsEmpty { a } => each(ctx, &a, AutOp::IsEmpty, false),
        AutCmd::Accepts { a, word } => {
            let op = AutOp::Accepts(verikit_omega::parse_word(&word).map_err(err)?);
            task::aut_unary(&load_one(&a)?, &op, Show::Stats, &ctx.budget).map_err(err)
        }
        AutCmd::Reduce { a, sim, stats, dot } => {
            each(ctx, &a, AutOp::Reduce { method: sim, stats }, dot)
        }
        AutCmd::Complement { a, dot } => each(ctx, &a, AutOp::Complement, dot),
        AutCmd::Filter {
            files,
            is_empty,
            is_deterministic,
            is_complete,
            accepts_word,
            included_in,
            equivalent_to,
            acceptance_is,
            invert_match,
        } => {
            let words = accepts_word.iter().map(|w| verikit_omega::parse_word(w));
            let f = Filter {
                is_empty,
                is_deterministic,
                is_complete,
                accepts: words.collect::<Result<_, _>>().map_err(err)?,
                included_in: included_in
                    .iter()
                    .map(|p| load_one(p))
                    .collect::<Result<_, _>>()?,
                equivalent_to: equivalent_to
                    .iter()
                    .map(|p| load_one(p))
                    .collect::<Result<_, _>>()?,
                acceptance_is,
                invert: invert_match,
            };
            let mut auts = Vec::new();
            for p in &files {
                let src = read_input(p)?;
                for a in task::read_automata(&src.text) {
                    auts.push(a.map_err(|e| CliError::from_error(e, Some(&src)))?);
                }
            }
            filter(auts.into_iter().map(Ok).collect(), &f, &ctx.budget).map_err(err)
        }
        AutCmd::Determinize { a, det, dot } => {
            let o = det.options(true).unwrap_or_default();
            let o = task::det_options(&ctx.params, o).map_err(CliError::Usage)?;
            each(ctx, &a, AutOp::Determinize(o), dot)
        }
        AutCmd::Product { a, b, dot } => {
            pair(ctx, &a, &b, AutPair::Product, Show::from_flags(dot, false))
        }
        AutCmd::Included { a, b, max_elements } => {
            let limits = task::inclusion_limits(&ctx.params, max_elements);
            let op = AutPair::Included(limits.map_err(CliError::Usage)?);
            pair(ctx, &a, &b, op, Show::Stats)
        }
    }
}

/// `-D`, `-P`, `-C` and the preferences `--small`/`--deterministic`/`--any` (as Spot's
/// `ltl2tgba` and `autfilt`; of the preferences the last one given wins).
#[derive(clap::Args, Debug)]
pub struct DetArgs {
    /// Deterministic automaton (`--deterministic`): the Büchi automaton if deterministic, else a
    /// parity automaton by determinisation (Safra trees); with -M a minimal deterministic monitor.
    #[arg(long, short = 'D', overrides_with_all = ["small", "any"])]
    deterministic: bool,
    /// Prefer small automata (the default; cancels an earlier -D or --any).
    #[arg(long, overrides_with_all = ["deterministic", "any"])]
    small: bool,
    /// No preference: skip the automaton simplifications (cancels an earlier -D), as Spot's -a.
    #[arg(long, short = 'a', overrides_with_all = ["deterministic", "small"])]
    pub any: bool,
    /// Parity acceptance (with -D: always a parity automaton); `--parity=min odd` etc. fixes its
    /// type (min|max even|odd).
    #[arg(long, short = 'P', num_args = 0..=1, require_equals = true, value_parser = parity_kind)]
    parity: Option<Option<ParityKind>>,
    #[arg(
        long,
        short = 'C',
        help = "Complete (a rejecting sink for the missing letters)."
    )]
    complete: bool,
}

fn parity_kind(s: &str) -> Result<ParityKind, String> {
    ParityKind::parse(s)
        .ok_or_else(|| format!("unknown parity type `{s}` (min even, min odd, max even, max odd)"))
}

impl DetArgs {
    /// The deterministic pipeline's options, if `-D`, `-P` or `-C` is given (or `force`).
    pub fn options(&self, force: bool) -> Option<DetOptions> {
        task::det_flags(self.deterministic, self.parity, self.complete, force)
    }
}
