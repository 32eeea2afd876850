//! `verikit aut`: ω-automata in HOA v1 (generalized Büchi) — statistics, printing, simplification,
//! product, emptiness, membership, inclusion, complementation, simulation-based minimisation.
//! A HOA stream is answered automaton by automaton, as Spot's tools do. The work is in
//! `verikit_omega` (`aut_command` and its siblings); this file only declares the arguments.

use super::omega_common::DetArgs;
use crate::report::{CliError, Ctx, Output};
use std::path::PathBuf;
use verikit_omega::task::{self, AutOp};
use verikit_omega::{self as omega, FilterTests, ReduceMethod as Method};

#[derive(clap::Subcommand, Debug)]
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
        #[command(flatten)]
        tests: FilterArgs,
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

pub fn run(cmd: AutCmd, ctx: &Ctx) -> Result<Output, CliError> {
    let (a, op, dot) = match cmd {
        AutCmd::Stats { a } => (a, AutOp::Stats, false),
        AutCmd::Print { a, dot } => (a, AutOp::Print, dot),
        AutCmd::Simplify { a, sba, dot } => (a, AutOp::Simplify { sba }, dot),
        AutCmd::IsEmpty { a } => (a, AutOp::IsEmpty, false),
        AutCmd::Reduce { a, sim, stats, dot } => (a, AutOp::Reduce { method: sim, stats }, dot),
        AutCmd::Complement { a, dot } => (a, AutOp::Complement, dot),
        AutCmd::Determinize { a, det, dot } => (
            a,
            AutOp::Determinize(det.options(true).unwrap_or_default()),
            dot,
        ),
        AutCmd::Accepts { a, word } => return omega::accepts_command(&a, &word, ctx),
        AutCmd::Product { a, b, dot } => return omega::product_command(&a, &b, dot, ctx),
        AutCmd::Included { a, b, max_elements } => {
            return omega::included_command(&a, &b, max_elements, ctx)
        }
        AutCmd::Filter { files, tests: f } => {
            let mut t = FilterTests::default();
            (t.is_empty, t.is_deterministic, t.is_complete) =
                (f.is_empty, f.is_deterministic, f.is_complete);
            (t.accepts_word, t.included_in, t.equivalent_to) =
                (f.accepts_word, f.included_in, f.equivalent_to);
            (t.acceptance_is, t.invert) = (f.acceptance_is, f.invert_match);
            return omega::filter_command(&files, t, ctx);
        }
    };
    omega::aut_command(&a, op, dot, ctx)
}

/// The tests of `aut filter` (see `verikit_omega::FilterTests`).
#[derive(clap::Args, Debug)]
pub struct FilterArgs {
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
}
