//! `verikit synt`: reactive synthesis from LTL (TLSF specifications or Spot `ltlsynt`-style
//! formulas with `--ins`/`--outs`).

use crate::report::{read_input, CliError, Ctx};
use clap::Subcommand;
use std::path::PathBuf;
use verikit_diag::{Answer, SourceFile};
use verikit_synt::{convert, synthesize, Input, Options};

#[derive(Subcommand, Debug)]
pub enum SyntCmd {
    /// Is the specification realizable? Verdict `true` = realizable, with the model-checked
    /// controller as an AIGER circuit (`aag`) as witness; `false` = unrealizable, with the
    /// environment's checked counter-strategy.
    Solve {
        /// The TLSF specification (`-` for standard input); or use `-f`.
        spec: Option<PathBuf>,
        /// An LTL formula (Spot syntax) instead of a TLSF file.
        #[arg(short = 'f', long, conflicts_with = "spec")]
        formula: Option<String>,
        /// Input propositions (comma-separated); the others are outputs if `--outs` is absent.
        #[arg(long, value_delimiter = ',', requires = "formula")]
        ins: Option<Vec<String>>,
        /// Output propositions (comma-separated); the others are inputs if `--ins` is absent.
        #[arg(long, value_delimiter = ',', requires = "formula")]
        outs: Option<Vec<String>>,
        /// With `-f`: Moore semantics (the system moves first).
        #[arg(long, requires = "formula")]
        moore: bool,
        /// Only decide realizability (no circuit printed).
        #[arg(long)]
        realizability: bool,
        /// Also write the circuit to FILE (binary AIGER if FILE ends in `.aig`, else `aag`).
        #[arg(long, value_name = "FILE")]
        aiger: Option<PathBuf>,
    },
    /// Expand a TLSF specification to one LTL formula and its partition, as syfco does.
    Convert {
        /// The TLSF specification (`-` for standard input).
        spec: PathBuf,
        /// Output format (only `ltl`, Spot syntax).
        #[arg(long, default_value = "ltl", value_parser = ["ltl"])]
        to: String,
    },
}

fn err(src: Option<&SourceFile>) -> impl Fn(verikit_synt::SyntError) -> CliError + '_ {
    move |e| match e {
        verikit_synt::SyntError::Internal(m) => CliError::Internal(m),
        verikit_synt::SyntError::Usage(m) => CliError::Usage(m),
        e => CliError::from_error(e, src),
    }
}

pub fn run(cmd: SyntCmd, ctx: &Ctx) -> Result<Answer, CliError> {
    match cmd {
        SyntCmd::Solve {
            spec,
            formula,
            ins,
            outs,
            moore,
            realizability,
            aiger,
        } => {
            let opts = Options {
                realizability,
                aiger_file: aiger,
            };
            let (input, src) = match (spec, formula) {
                (Some(path), None) => {
                    let src = read_input(&path)?;
                    let input = Input::Tlsf {
                        name: src.name.clone(),
                        text: src.text.clone(),
                    };
                    (input, Some(src))
                }
                (None, Some(formula)) => (
                    Input::Formula {
                        formula,
                        ins,
                        outs,
                        moore,
                    },
                    None,
                ),
                _ => return Err(CliError::Usage("give a TLSF file or -f FORMULA".into())),
            };
            synthesize(&input, &opts, &ctx.params, &ctx.budget).map_err(err(src.as_ref()))
        }
        SyntCmd::Convert { spec, to: _ } => {
            let src = read_input(&spec)?;
            convert(&src.text, &ctx.budget)
                .map(|a| a.input("file", &src.name))
                .map_err(err(Some(&src)))
        }
    }
}

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let f = |formula: &str| Input::Formula {
        formula: formula.into(),
        ins: Some(vec!["r".into()]),
        outs: None,
        moore: false,
    };
    let run =
        |i: Input| synthesize(&i, &Options::default(), &ctx.params, &ctx.budget).map_err(err(None));
    Ok(vec![
        (
            "G(r -> F g): realizable, controller as AIGER".into(),
            run(f("G(r -> F g)"))?,
        ),
        (
            "G(g <-> X r): unrealizable, counter-strategy".into(),
            run(f("G(g <-> X r)"))?,
        ),
    ])
}
