//! What `verikit ltl` and `verikit aut` share, as Spot's `bin/common_*.cc`: the formula inputs
//! (`-f`, `-F`, positional; Spot's `common_finput`) and the deterministic-output options
//! (`-D`, `-P`, `-C`, `--small`, `--any`; Spot's `common_post`).

use crate::report::{CliError, Ctx, Output};
use verikit_omega::task::{self, FormulaInput as In};
use verikit_omega::{self as omega, DetOptions, FormulaCommand as Do, ParityKind};

/// The formula inputs, kept in command-line order as Spot does (positional, `-f`, `-F` mixed).
#[derive(clap::Args, Debug)]
pub struct FormulaSource {
    #[arg(value_parser = omega::formula_arg, help = "Formulas (Spot syntax).")]
    formulas: Vec<(usize, In)>,
    #[arg(long = "formula", short = 'f', value_parser = omega::formula_arg, help = "A formula, as Spot's -f.")]
    f: Vec<(usize, In)>,
    /// Formulas of a file, one per line (`-` stdin; blank and `#` lines skipped), or column COL
    /// of a CSV file with `FILE/COL` (COL < 0: skip the header), as Spot's `-F`. Results are
    /// printed as they come; a bad line is reported (file:line:col), the others still run.
    #[arg(long, short = 'F', value_parser = omega::formula_file_arg)]
    file: Vec<(usize, In)>,
    #[arg(long, help = "Negate each formula.")]
    pub negate: bool,
}

impl FormulaSource {
    /// Runs `what` on every formula input, in command-line order.
    pub fn run(self, what: Do, ctx: &Ctx) -> Result<Output, CliError> {
        omega::formulas_command([self.formulas, self.f, self.file].concat(), what, ctx)
    }

    pub fn print(self, simplify: bool, ctx: &Ctx) -> Result<Output, CliError> {
        let negate = self.negate;
        self.run(Do::Print { simplify, negate }, ctx)
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
    #[arg(long, short = 'P', num_args = 0..=1, require_equals = true, value_parser = omega::parity_kind)]
    parity: Option<Option<ParityKind>>,
    #[arg(
        long,
        short = 'C',
        help = "Complete (a rejecting sink for the missing letters)."
    )]
    complete: bool,
}

impl DetArgs {
    /// The deterministic pipeline's options, if `-D`, `-P` or `-C` is given (or `force`).
    pub fn options(&self, force: bool) -> Option<DetOptions> {
        task::det_flags(self.deterministic, self.parity, self.complete, force)
    }
}
