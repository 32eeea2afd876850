//! `verikit nfa`: universality, inclusion and equivalence of finite automata, random automata,
//! reduction, format conversion. Arguments only: every question is answered by `verikit_automata`.

use crate::report::{read_input, CliError as Fail, Ctx};
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use verikit_automata::{
    self as automata, AutomataError as NfaError, CheckOptions, Choice, Produced, TvParams,
};
use verikit_diag::{Answer, Budget, SourceFile};

fn values(table: &'static [Choice]) -> PossibleValuesParser {
    PossibleValuesParser::new(table.iter().map(|c| PossibleValue::new(c.name).help(c.doc)))
}

#[derive(Subcommand, Debug)]
pub enum NfaCmd {
    /// Is L(A) = Σ*? A "false" answer prints a rejected word.
    Univ {
        #[command(flatten)]
        a: One,
        #[arg(long, default_value = "auto", value_parser = values(automata::UNIV_ALGOS))]
        algo: String,
    },
    /// Is L(A) ⊆ L(B)? A "false" answer prints a word accepted by A and rejected by B.
    Incl {
        #[command(flatten)]
        ab: Pair,
        #[arg(long, default_value = "auto", value_parser = values(automata::INCL_ALGOS))]
        algo: String,
    },
    /// Is L(A) = L(B)? A "false" answer prints a word accepted by exactly one of them.
    Equiv {
        #[command(flatten)]
        ab: Pair,
        #[arg(long, default_value = "auto", value_parser = values(automata::EQUIV_ALGOS))]
        algo: String,
        /// Turn off memoisation of the todo list (naive, hk, hkc).
        #[arg(long)]
        no_memo: bool,
        /// Quotient both automata by bisimilarity first (same as `--pre bisim`).
        #[arg(long)]
        bisim: bool,
    },
    /// Random NFA in the Tabakov–Vardi model (one initial state).
    Gen {
        #[command(flatten)]
        p: TvParams,
        #[command(flatten)]
        output: OutputOpts,
    },
    /// Reduce an automaton: quotient by bisimilarity or by simulation equivalence.
    Reduce {
        #[command(flatten)]
        a: One,
        #[arg(long, default_value = "bisim", value_parser = values(automata::REDUCE_METHODS))]
        method: String,
        #[command(flatten)]
        output: OutputOpts,
    },
    /// Convert between .mata, BA, Timbuk, regular expressions (input) and DOT (output).
    Convert {
        #[command(flatten)]
        a: One,
        #[command(flatten)]
        output: OutputOpts,
    },
    /// Size, alphabet and density of an automaton.
    Info(One),
}

#[derive(Args, Debug)]
pub struct One {
    /// The automaton (A: .mata, BA, Timbuk or regex; `-` for standard input).
    a: PathBuf,
    /// Input format (default: from the extension, `.ba` is BA, `.timbuk`/`.tmb` Timbuk,
    /// `.re`/`.regex` a regular expression, otherwise by content).
    #[arg(long, value_parser = values(automata::INPUT_FORMATS))]
    from: Option<String>,
}

#[derive(Args, Debug)]
pub struct Pair {
    #[command(flatten)]
    a: One,
    /// The automaton B.
    b: PathBuf,
    /// Preprocessing (SETTA'17 §3.5): quotient by bisimilarity, or saturate w.r.t. similarity.
    #[arg(long, default_value = "none", value_parser = values(automata::PRE_CHOICES))]
    pre: String,
    /// Antichains: do not ignore states that cannot reach an accepting state (experiments).
    #[arg(long)]
    no_prune: bool,
}

#[derive(Args, Debug, Clone)]
pub struct OutputOpts {
    /// Write the automaton here (default: standard output).
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// Output format.
    #[arg(long, default_value = "mata", value_parser = values(automata::OUTPUT_FORMATS))]
    to: String,
}

impl Pair {
    /// Reads A and B and asks `f` with the options of the pair, `algo`, `no_memo` and `bisim`.
    fn ask(&self, f: Decide, algo: &str, flags: (bool, bool), ctx: &Ctx) -> Result<Answer, Fail> {
        let ((no_memo, bisim), from) = (flags, self.a.from.as_deref());
        let pre = if bisim { "bisim" } else { &self.pre };
        let mut o = CheckOptions::new(algo, pre, from, &ctx.params);
        (o.no_memo, o.no_prune) = (no_memo, self.no_prune);
        let (a, b) = (read_input(&self.a.a)?, read_input(&self.b)?);
        Ok(f(&a, &b, &o, &ctx.budget)?)
    }
}

type Decide = fn(&SourceFile, &SourceFile, &CheckOptions, &Budget) -> Result<Answer, NfaError>;

impl OutputOpts {
    fn emit(&self, p: Produced, inputs: &[&Path]) -> Result<Answer, Fail> {
        automata::emit_produced(p, &self.to, self.output.as_deref(), inputs)
    }
}

pub fn run(cmd: NfaCmd, ctx: &Ctx) -> Result<Answer, Fail> {
    let (bud, params) = (&ctx.budget, &ctx.params);
    let plain = |algo: &str, a: &One| CheckOptions::new(algo, "none", a.from.as_deref(), params);
    Ok(match cmd {
        NfaCmd::Univ { a, algo } => automata::univ(&read_input(&a.a)?, &plain(&algo, &a), bud)?,
        NfaCmd::Incl { ab, algo } => ab.ask(automata::incl, &algo, (false, false), ctx)?,
        NfaCmd::Equiv {
            ab,
            algo,
            no_memo,
            bisim,
        } => ab.ask(automata::equiv, &algo, (no_memo, bisim), ctx)?,
        NfaCmd::Gen { p, output } => output.emit(automata::generate(&p, params)?, &[])?,
        NfaCmd::Reduce { a, method, output } => {
            let p = automata::reduce(&read_input(&a.a)?, &method, &plain("auto", &a), bud)?;
            output.emit(p, &[&a.a])?
        }
        NfaCmd::Convert { a, output } => output.emit(
            automata::convert(&read_input(&a.a)?, a.from.as_deref())?,
            &[&a.a],
        )?,
        NfaCmd::Info(a) => automata::info(&read_input(&a.a)?, a.from.as_deref())?,
    })
}
