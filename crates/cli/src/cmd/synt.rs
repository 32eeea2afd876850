//! `verikit synt`: reactive synthesis from LTL (TLSF specifications or Spot `ltlsynt`-style
//! formulas with `--ins`/`--outs`).

use crate::report::{read_input, CliError, Ctx};
use clap::Subcommand;
use std::path::PathBuf;
use verikit_diag::Answer;
use verikit_synt::{Input, Options};

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

pub fn run(cmd: SyntCmd, ctx: &Ctx) -> Result<Answer, CliError> {
    match cmd {
        SyntCmd::Solve {
            spec,
            formula,
            ins,
            outs,
            moore,
            realizability,
            aiger: aiger_file,
        } => {
            let opts = Options {
                realizability,
                aiger_file,
            };
            let src = spec.map(|p| read_input(&p)).transpose()?;
            let f = formula.map(|formula| Input::Formula {
                formula,
                ins,
                outs,
                moore,
            });
            verikit_synt::solve_command(src.as_ref(), f, &opts, ctx)
        }
        SyntCmd::Convert { spec, to: _ } => verikit_synt::convert_command(&read_input(&spec)?, ctx),
    }
}
