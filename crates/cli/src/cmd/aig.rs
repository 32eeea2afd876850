//! `verikit aig`: hardware model checking of AIGER circuits (`.aag`/`.aig`).

use crate::report::{CliError, Ctx};
use clap::Subcommand;
use std::path::PathBuf;
use verikit_diag::Answer;
use verikit_hw::CheckRequest;

#[derive(Subcommand, Debug)]
pub enum AigCmd {
    /// Is the safety property violated? Verdict `false` = unsafe (an AIGER witness, replayed on the
    /// circuit), `true` = safe (an inductive invariant re-checked by SAT, or k-induction).
    Check {
        /// The circuit (`.aag` ASCII or `.aig` binary AIGER; `-` for standard input).
        file: PathBuf,
        /// bmc, kind (k-induction), ic3 (= pdr), everlost (abstraction-guided simulation, bug
        /// finding only) or portfolio (BMC, then EverLost, then IC3).
        #[arg(long, default_value = "portfolio", value_parser = clap::builder::PossibleValuesParser::new(["bmc", "kind", "ic3", "pdr", "everlost", "portfolio"]))]
        engine: String,
        /// Which safety property (bad-state literal, or output in pre-1.9 files), from 0.
        #[arg(long, default_value_t = 0)]
        property: usize,
        /// Check justice property N instead (with the fairness constraints): `false` with a
        /// replayed lasso, or `true` with a liveness-to-safety invariant.
        #[arg(long, value_name = "N", conflicts_with = "ltl")]
        justice: Option<usize>,
        /// Check an LTL formula (Spot syntax) over inputs, latches, outputs: symbol names or iN,
        /// lN, oN, bN, cN, e.g. 'G F l3'; `false` with a replayed lasso.
        #[arg(long, value_name = "FORMULA")]
        ltl: Option<String>,
        /// Write the counterexample of an `unsafe`/`violated` answer here (AIGER witness format).
        #[arg(long, value_name = "FILE")]
        witness: Option<PathBuf>,
    },
    /// Rewrites a circuit as ASCII (`.aag`) or binary (`.aig`) AIGER, chosen by the output's
    /// extension.
    Convert {
        /// The circuit (`.aag` or `.aig`; `-` for standard input).
        file: PathBuf,
        /// The output file (`.aig`: binary, anything else: ASCII).
        #[arg(short, long)]
        output: PathBuf,
    },
    /// The BMC instance "the property fails within K transitions" as DIMACS CNF (unsatisfiable iff
    /// no counterexample of length ≤ K exists), for SAT solvers and `verikit sat core`.
    BmcCnf {
        /// The circuit (`.aag` or `.aig`; `-` for standard input).
        file: PathBuf,
        /// Unrolling depth (transitions).
        #[arg(short = 'k', long)]
        k: usize,
        /// Which safety property, from 0.
        #[arg(long, default_value_t = 0)]
        property: usize,
        /// Write the CNF here (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Symbolic trajectory evaluation of the assertions `A ==> C` of a `.ste` file: `true`
    /// (holds; `vacuous` noted), `false` (a concrete counterexample run, replayed), `unknown`
    /// (an X in the consequent's nodes). `-x ste.refine=star|tg` refines X results.
    Ste {
        /// The circuit (`.aag` or `.aig`; `-` for standard input).
        file: PathBuf,
        /// The assertions (`.ste`).
        assertions: PathBuf,
    },
    /// Sizes, sections and latch reset kinds of a circuit.
    Info {
        /// The circuit (`.aag` or `.aig`; `-` for standard input).
        file: PathBuf,
    },
}

pub fn run(cmd: AigCmd, ctx: &Ctx) -> Result<Answer, CliError> {
    match cmd {
        AigCmd::Check {
            file,
            engine,
            property,
            justice,
            ltl,
            witness,
        } => {
            let req = CheckRequest {
                engine,
                property,
                justice,
                ltl,
            };
            verikit_hw::check_command(&file, req, witness.as_deref(), ctx)
        }
        AigCmd::Convert { file, output } => verikit_hw::convert_command(&file, &output),
        AigCmd::BmcCnf {
            file,
            k,
            property,
            output,
        } => verikit_hw::bmc_cnf_command(&file, property, k, output.as_deref()),
        AigCmd::Ste { file, assertions } => verikit_hw::ste_command(&file, &assertions, ctx),
        AigCmd::Info { file } => verikit_hw::info_command(&file),
    }
}
