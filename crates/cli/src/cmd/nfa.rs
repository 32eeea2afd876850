//! `verikit nfa`: universality, inclusion and equivalence of finite automata, random automata,
//! reduction, format conversion. Arguments only: every question is answered by
//! `verikit_automata::task`.

use crate::report::{read_input, write_output, CliError, Ctx};
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use verikit_automata::task::{self, CheckOptions, Choice, Produced};
use verikit_automata::{gen::TvParams, AutomataError};
use verikit_diag::{Answer, SourceFile};

fn values(table: &'static [Choice]) -> PossibleValuesParser {
    PossibleValuesParser::new(table.iter().map(|c| PossibleValue::new(c.name).help(c.doc)))
}

#[derive(Subcommand, Debug)]
pub enum NfaCmd {
    /// Is L(A) = Σ*? A "false" answer prints a rejected word.
    Univ {
        /// The automaton (.mata, BA, Timbuk or regex; `-` for standard input).
        a: PathBuf,
        #[arg(long, default_value = "auto", value_parser = values(task::UNIV_ALGOS))]
        algo: String,
        #[command(flatten)]
        check: CheckArgs,
    },
    /// Is L(A) ⊆ L(B)? A "false" answer prints a word accepted by A and rejected by B.
    Incl {
        /// The automaton A (.mata, BA, Timbuk or regex; `-` for standard input).
        a: PathBuf,
        /// The automaton B.
        b: PathBuf,
        #[arg(long, default_value = "auto", value_parser = values(task::INCL_ALGOS))]
        algo: String,
        #[command(flatten)]
        check: CheckArgs,
    },
    /// Is L(A) = L(B)? A "false" answer prints a word accepted by exactly one of them.
    Equiv {
        /// The automaton A (.mata, BA, Timbuk or regex; `-` for standard input).
        a: PathBuf,
        /// The automaton B.
        b: PathBuf,
        #[arg(long, default_value = "auto", value_parser = values(task::EQUIV_ALGOS))]
        algo: String,
        /// Turn off memoisation of the todo list (naive, hk, hkc).
        #[arg(long)]
        no_memo: bool,
        /// Quotient both automata by bisimilarity first (same as `--pre bisim`).
        #[arg(long)]
        bisim: bool,
        #[command(flatten)]
        check: CheckArgs,
    },
    /// Random NFA in the Tabakov–Vardi model (one initial state).
    Gen {
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
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The initial state.
        #[arg(long, default_value_t = 0)]
        initial: u32,
        #[command(flatten)]
        output: OutputOpts,
    },
    /// Reduce an automaton: quotient by bisimilarity or by simulation equivalence.
    Reduce {
        /// The automaton (.mata, BA, Timbuk or regex; `-` for standard input).
        a: PathBuf,
        #[arg(long, default_value = "bisim", value_parser = values(task::REDUCE_METHODS))]
        method: String,
        #[command(flatten)]
        input: InputOpts,
        #[command(flatten)]
        output: OutputOpts,
    },
    /// Convert between .mata, BA, Timbuk, regular expressions (input) and DOT (output).
    Convert {
        /// The automaton (.mata, BA, Timbuk or regex; `-` for standard input).
        a: PathBuf,
        #[command(flatten)]
        input: InputOpts,
        #[command(flatten)]
        output: OutputOpts,
    },
    /// Size, alphabet and density of an automaton.
    Info {
        /// The automaton (.mata, BA, Timbuk or regex; `-` for standard input).
        a: PathBuf,
        #[command(flatten)]
        input: InputOpts,
    },
}

#[derive(Args, Debug, Clone)]
pub struct InputOpts {
    /// Input format (default: from the extension, `.ba` is BA, `.timbuk`/`.tmb` Timbuk,
    /// `.re`/`.regex` a regular expression, otherwise by content).
    #[arg(long, value_parser = values(task::INPUT_FORMATS))]
    from: Option<String>,
}

#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// Preprocessing (SETTA'17 §3.5): quotient by bisimilarity, or saturate w.r.t. similarity.
    #[arg(long, default_value = "none", value_parser = values(task::PRE_CHOICES))]
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
    #[arg(long, default_value = "mata", value_parser = values(task::OUTPUT_FORMATS))]
    to: String,
}

fn err(e: AutomataError) -> CliError {
    match e {
        AutomataError::Invalid(m) => CliError::Usage(m),
        AutomataError::Internal(m) => CliError::Internal(m),
        e => CliError::from_error(e, None),
    }
}

fn options(algo: String, check: CheckArgs, no_memo: bool, ctx: &Ctx) -> CheckOptions {
    CheckOptions {
        algo,
        pre: check.pre,
        no_memo,
        no_prune: check.no_prune,
        from: check.input.from,
        params: ctx.params.clone(),
    }
}

/// Prints the produced automaton (or writes it to `-o`), the answer's lines as `#` comments.
fn emit(p: Produced, out: &OutputOpts, inputs: &[&Path]) -> Result<Answer, CliError> {
    let text = task::write(&p.nfa, &out.to).map_err(err)?;
    let mut a = p.answer;
    match &out.output {
        Some(path) => {
            write_output(path, &text, inputs)?;
            Ok(a.detail("output", path.display().to_string())
                .line(format!("wrote {}", path.display())))
        }
        None => {
            let notes: String = a.text.lines().map(|l| format!("# {l}\n")).collect();
            a.text = if notes.is_empty() || out.to == "dot" {
                text.clone()
            } else {
                format!("{text}{notes}")
            };
            Ok(a.detail("automaton", text))
        }
    }
}

pub fn run(cmd: NfaCmd, ctx: &Ctx) -> Result<Answer, CliError> {
    let read = |p: &Path| -> Result<SourceFile, CliError> { read_input(p) };
    let budget = &ctx.budget;
    match cmd {
        NfaCmd::Univ { a, algo, check } => {
            let opts = options(algo, check, false, ctx);
            task::univ(&read(&a)?, &opts, budget).map_err(err)
        }
        NfaCmd::Incl { a, b, algo, check } => {
            let opts = options(algo, check, false, ctx);
            task::incl(&read(&a)?, &read(&b)?, &opts, budget).map_err(err)
        }
        NfaCmd::Equiv {
            a,
            b,
            algo,
            no_memo,
            bisim,
            mut check,
        } => {
            if bisim {
                check.pre = "bisim".into();
            }
            let opts = options(algo, check, no_memo, ctx);
            task::equiv(&read(&a)?, &read(&b)?, &opts, budget).map_err(err)
        }
        NfaCmd::Gen {
            states,
            letters,
            density,
            final_density,
            seed,
            initial,
            output,
        } => {
            let p = TvParams {
                states,
                letters,
                density,
                final_density,
                initial,
                seed,
            };
            emit(task::generate(&p, &ctx.params).map_err(err)?, &output, &[])
        }
        NfaCmd::Reduce {
            a,
            method,
            input,
            output,
        } => {
            let opts = CheckOptions {
                from: input.from,
                params: ctx.params.clone(),
                ..CheckOptions::default()
            };
            let p = task::reduce(&read(&a)?, &method, &opts, budget).map_err(err)?;
            emit(p, &output, &[&a])
        }
        NfaCmd::Convert { a, input, output } => {
            let p = task::convert(&read(&a)?, input.from.as_deref()).map_err(err)?;
            emit(p, &output, &[&a])
        }
        NfaCmd::Info { a, input } => task::info(&read(&a)?, input.from.as_deref()).map_err(err),
    }
}

const DEMO: [(&str, &str); 3] = [
    ("ends-ab.mata", include_str!("../../demo/nfa/ends-ab.mata")),
    ("has-a.mata", include_str!("../../demo/nfa/has-a.mata")),
    ("no-bb.mata", include_str!("../../demo/nfa/no-bb.mata")),
];

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let [ends_ab, has_a, no_bb] = DEMO.map(|(n, t)| SourceFile::new(n, t));
    let opts = |algo: &str| CheckOptions {
        algo: algo.into(),
        ..CheckOptions::default()
    };
    let b = &ctx.budget;
    Ok(vec![
        (
            "incl ends-ab.mata has-a.mata (antichains)".to_string(),
            task::incl(&ends_ab, &has_a, &opts("antichain"), b).map_err(err)?,
        ),
        (
            "incl has-a.mata ends-ab.mata (antichains)".to_string(),
            task::incl(&has_a, &ends_ab, &opts("antichain"), b).map_err(err)?,
        ),
        (
            "univ no-bb.mata (backward antichains, CPre)".to_string(),
            task::univ(&no_bb, &opts("backward"), b).map_err(err)?,
        ),
        (
            "equiv ends-ab.mata vs itself after bisimulation (HKC)".to_string(),
            task::equiv(
                &ends_ab,
                &ends_ab,
                &CheckOptions {
                    pre: "bisim".into(),
                    ..opts("hkc")
                },
                b,
            )
            .map_err(err)?,
        ),
    ])
}
