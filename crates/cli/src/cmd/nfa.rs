//! `verikit nfa`: universality, inclusion and equivalence of finite automata, random automata,
//! reduction, format conversion. Arguments only: every question is answered by
//! `verikit_automata`.

use crate::report::{read_input, write_output, CliError, Ctx};
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use verikit_automata::{self as automata, AutomataError, CheckOptions, Choice, Produced, TvParams};
use verikit_diag::{Answer, SourceFile};

fn values(table: &'static [Choice]) -> PossibleValuesParser {
    PossibleValuesParser::new(table.iter().map(|c| PossibleValue::new(c.name).help(c.doc)))
}

#[derive(Subcommand, Debug)]
pub enum NfaCmd {
    /// Is L(A) = Σ*? A "false" answer prints a rejected word.
    Univ(UnivArgs),
    /// Is L(A) ⊆ L(B)? A "false" answer prints a word accepted by A and rejected by B.
    Incl(InclArgs),
    /// Is L(A) = L(B)? A "false" answer prints a word accepted by exactly one of them.
    Equiv(EquivArgs),
    /// Random NFA in the Tabakov–Vardi model (one initial state).
    Gen(GenArgs),
    /// Reduce an automaton: quotient by bisimilarity or by simulation equivalence.
    Reduce(ReduceArgs),
    /// Convert between .mata, BA, Timbuk, regular expressions (input) and DOT (output).
    Convert(ConvertArgs),
    /// Size, alphabet and density of an automaton.
    Info(InfoArgs),
}

#[derive(Args, Debug)]
pub struct UnivArgs {
    /// The automaton (.mata, BA, Timbuk or regex; `-` for standard input).
    a: PathBuf,
    #[arg(long, default_value = "auto", value_parser = values(automata::UNIV_ALGOS))]
    algo: String,
    #[command(flatten)]
    input: InputOpts,
}

#[derive(Args, Debug)]
pub struct InclArgs {
    /// The automaton A (.mata, BA, Timbuk or regex; `-` for standard input).
    a: PathBuf,
    /// The automaton B.
    b: PathBuf,
    #[arg(long, default_value = "auto", value_parser = values(automata::INCL_ALGOS))]
    algo: String,
    #[command(flatten)]
    check: CheckArgs,
}

#[derive(Args, Debug)]
pub struct EquivArgs {
    /// The automaton A (.mata, BA, Timbuk or regex; `-` for standard input).
    a: PathBuf,
    /// The automaton B.
    b: PathBuf,
    #[arg(long, default_value = "auto", value_parser = values(automata::EQUIV_ALGOS))]
    algo: String,
    /// Turn off memoisation of the todo list (naive, hk, hkc).
    #[arg(long)]
    no_memo: bool,
    /// Quotient both automata by bisimilarity first (same as `--pre bisim`).
    #[arg(long)]
    bisim: bool,
    #[command(flatten)]
    check: CheckArgs,
}

#[derive(Args, Debug)]
pub struct GenArgs {
    /// Number of states |Q|.
    #[arg(long, short = 'n')]
    states: usize,
    /// Number of letters |Σ|.
    #[arg(long, short = 'k', default_value_t = 2)]
    letters: usize,
    /// Transition density r (transitions per state and letter).
    #[arg(long, short = 'r', default_value_t = 2.0)]
    density: f64,
    /// Final-state density f (fraction of accepting states).
    #[arg(long, short = 'f', default_value_t = 1.0)]
    final_density: f64,
    /// Seed of the random generator.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The initial state.
    #[arg(long, default_value_t = 0)]
    initial: u32,
    #[command(flatten)]
    output: OutputOpts,
}

#[derive(Args, Debug)]
pub struct ReduceArgs {
    /// The automaton (.mata, BA, Timbuk or regex; `-` for standard input).
    a: PathBuf,
    #[arg(long, default_value = "bisim", value_parser = values(automata::REDUCE_METHODS))]
    method: String,
    #[command(flatten)]
    input: InputOpts,
    #[command(flatten)]
    output: OutputOpts,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The automaton (.mata, BA, Timbuk or regex; `-` for standard input).
    a: PathBuf,
    #[command(flatten)]
    input: InputOpts,
    #[command(flatten)]
    output: OutputOpts,
}

#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The automaton (.mata, BA, Timbuk or regex; `-` for standard input).
    a: PathBuf,
    #[command(flatten)]
    input: InputOpts,
}

#[derive(Args, Debug, Clone)]
pub struct InputOpts {
    /// Input format (default: from the extension, `.ba` is BA, `.timbuk`/`.tmb` Timbuk,
    /// `.re`/`.regex` a regular expression, otherwise by content).
    #[arg(long, value_parser = values(automata::INPUT_FORMATS))]
    from: Option<String>,
}

#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// Preprocessing (SETTA'17 §3.5): quotient by bisimilarity, or saturate w.r.t. similarity.
    #[arg(long, default_value = "none", value_parser = values(automata::PRE_CHOICES))]
    pre: String,
    /// Antichains: do not ignore states that cannot reach an accepting state (experiments).
    #[arg(long)]
    no_prune: bool,
    #[command(flatten)]
    input: InputOpts,
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

fn err(e: AutomataError) -> CliError {
    match e {
        AutomataError::Invalid(m) => CliError::Usage(m),
        AutomataError::Internal(m) => CliError::Internal(m),
        e => CliError::from_error(e, None),
    }
}

/// The options of a decision: `algo`, the check flags and the `-x` parameters.
fn opts(ctx: &Ctx, algo: &str, c: &CheckArgs, no_memo: bool) -> CheckOptions {
    let o = CheckOptions::new(algo, &c.pre, c.input.from.as_deref(), &ctx.params);
    CheckOptions {
        no_memo,
        no_prune: c.no_prune,
        ..o
    }
}

/// Prints the produced automaton (or writes it to `-o`), the answer's lines as `#` comments.
fn emit(p: Produced, out: &OutputOpts, inputs: &[&Path]) -> Result<Answer, CliError> {
    let text = automata::write(&p.nfa, &out.to).map_err(err)?;
    let a = p.answer;
    if let Some(path) = &out.output {
        write_output(path, &text, inputs)?;
        let shown = path.display().to_string();
        return Ok(a.detail("output", &shown).line(format!("wrote {shown}")));
    }
    let notes: String = a.text.lines().map(|l| format!("# {l}\n")).collect();
    let mut a = a.detail("automaton", &text);
    a.text = if out.to == "dot" { text } else { text + &notes };
    Ok(a)
}

pub fn run(cmd: NfaCmd, ctx: &Ctx) -> Result<Answer, CliError> {
    let bud = &ctx.budget;
    let plain =
        |algo: &str, i: &InputOpts| CheckOptions::new(algo, "none", i.from.as_deref(), &ctx.params);
    match cmd {
        NfaCmd::Univ(x) => {
            let o = plain(&x.algo, &x.input);
            automata::univ(&read_input(&x.a)?, &o, bud).map_err(err)
        }
        NfaCmd::Incl(x) => {
            let (a, b) = (read_input(&x.a)?, read_input(&x.b)?);
            automata::incl(&a, &b, &opts(ctx, &x.algo, &x.check, false), bud).map_err(err)
        }
        NfaCmd::Equiv(mut x) => {
            if x.bisim {
                x.check.pre = "bisim".into();
            }
            let (a, b) = (read_input(&x.a)?, read_input(&x.b)?);
            automata::equiv(&a, &b, &opts(ctx, &x.algo, &x.check, x.no_memo), bud).map_err(err)
        }
        NfaCmd::Gen(g) => {
            let (states, letters, density, seed) = (g.states, g.letters, g.density, g.seed);
            let (final_density, initial) = (g.final_density, g.initial);
            let p = TvParams {
                states,
                letters,
                density,
                final_density,
                initial,
                seed,
            };
            let produced = automata::generate(&p, &ctx.params).map_err(err)?;
            emit(produced, &g.output, &[])
        }
        NfaCmd::Reduce(x) => {
            let o = plain("auto", &x.input);
            let p = automata::reduce(&read_input(&x.a)?, &x.method, &o, bud).map_err(err)?;
            emit(p, &x.output, &[&x.a])
        }
        NfaCmd::Convert(x) => {
            let p = automata::convert(&read_input(&x.a)?, x.input.from.as_deref()).map_err(err)?;
            emit(p, &x.output, &[&x.a])
        }
        NfaCmd::Info(x) => automata::info(&read_input(&x.a)?, x.input.from.as_deref()).map_err(err),
    }
}

const DEMO: [(&str, &str); 3] = [
    ("ends-ab.mata", include_str!("../../demo/nfa/ends-ab.mata")),
    ("has-a.mata", include_str!("../../demo/nfa/has-a.mata")),
    ("no-bb.mata", include_str!("../../demo/nfa/no-bb.mata")),
];

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let [x, y, z] = DEMO.map(|(n, t)| SourceFile::new(n, t));
    automata::demo(&x, &y, &z, &ctx.budget).map_err(err)
}
