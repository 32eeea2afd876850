//! `verikit aig`: hardware model checking of AIGER circuits (`.aag`/`.aig`).

use crate::report::{write_output, CliError, Ctx};
use clap::Subcommand;
use std::path::{Path, PathBuf};
use verikit_aiger::{parse, Aig};
use verikit_diag::Answer;
use verikit_hw::{bmc_cnf, check, check_property, info, Engine, Liveness, Options};

#[derive(Subcommand, Debug)]
pub enum AigCmd {
    /// Is the safety property violated? Verdict `false` = unsafe (an AIGER witness, replayed on
    /// the circuit), `true` = safe (an inductive invariant re-checked by SAT, or k-induction).
    Check {
        /// The circuit (`.aag` ASCII or `.aig` binary AIGER; `-` for standard input).
        file: PathBuf,
        /// bmc, kind (k-induction), ic3 (= pdr) or portfolio (BMC, then IC3).
        #[arg(long, default_value = "portfolio", value_parser = clap::builder::PossibleValuesParser::new(["bmc", "kind", "ic3", "pdr", "portfolio"]))]
        engine: String,
        /// Which safety property (bad-state literal, or output in pre-1.9 files), from 0.
        #[arg(long, default_value_t = 0)]
        property: usize,
        /// Check justice property N instead (with the fairness constraints): `false` with a
        /// replayed lasso, or `true` with a liveness-to-safety invariant.
        #[arg(long, value_name = "N", conflicts_with = "ltl")]
        justice: Option<usize>,
        /// Check an LTL formula (Spot syntax) over inputs, latches, outputs: symbol names or
        /// iN, lN, oN, bN, cN, e.g. 'G F l3'; `false` with a replayed lasso.
        #[arg(long, value_name = "FORMULA")]
        ltl: Option<String>,
        /// Write the counterexample of an `unsafe`/`violated` answer here (AIGER witness format).
        #[arg(long, value_name = "FILE")]
        witness: Option<PathBuf>,
    },
    /// Rewrites a circuit as ASCII (`.aag`) or binary (`.aig`) AIGER, chosen by the output's extension.
    Convert {
        /// The circuit (`.aag` or `.aig`; `-` for standard input).
        file: PathBuf,
        /// The output file (`.aig`: binary, anything else: ASCII).
        #[arg(short, long)]
        output: PathBuf,
    },
    /// The BMC instance "the property fails within K transitions" as DIMACS CNF (unsatisfiable
    /// iff no counterexample of length ≤ K exists), for SAT solvers and `verikit sat core`.
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
    /// Sizes, sections and latch reset kinds of a circuit.
    Info {
        /// The circuit (`.aag` or `.aig`; `-` for standard input).
        file: PathBuf,
    },
}

fn read(path: &Path) -> Result<Aig, CliError> {
    let bytes = if path.as_os_str() == "-" {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut b)
            .map_err(|e| CliError::Usage(format!("cannot read standard input: {e}")))?;
        b
    } else {
        std::fs::read(path)
            .map_err(|e| CliError::Usage(format!("cannot read `{}`: {e}", path.display())))?
    };
    parse(&path.display().to_string(), &bytes).map_err(|d| CliError::from_error(d, None))
}

fn decide(
    aig: &Aig,
    opts: &Options,
    witness: Option<&Path>,
    input: &Path,
    ctx: &Ctx,
) -> Result<Answer, CliError> {
    let r = check_property(aig, opts, &ctx.budget).map_err(|d| CliError::from_error(d, None))?;
    if let (Some(out), Some(w)) = (witness, &r.witness) {
        write_output(out, &w.to_text(), &[input])?;
    }
    Ok(r.answer)
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
            let aig = read(&file)?;
            let opts = Options {
                engine: Engine::parse(&engine).unwrap_or_default(),
                property,
                live: justice.map(Liveness::Justice).or(ltl.map(Liveness::Ltl)),
                ..Options::default()
            }
            .with_params(&ctx.params)
            .map_err(CliError::Usage)?;
            let a = decide(&aig, &opts, witness.as_deref(), &file, ctx)?;
            Ok(a.input("file", file.display().to_string()))
        }
        AigCmd::Convert { file, output } => {
            let aig = read(&file)?;
            let binary = output.extension().is_some_and(|e| e == "aig");
            if binary {
                if output.canonicalize().ok() == file.canonicalize().ok() && output.exists() {
                    return Err(CliError::Usage(
                        "refusing to overwrite the input file".into(),
                    ));
                }
                std::fs::write(&output, aig.to_aig()).map_err(|e| {
                    CliError::Usage(format!("cannot write `{}`: {e}", output.display()))
                })?;
            } else {
                write_output(&output, &aig.to_aag(), &[&file])?;
            }
            let fmt = if binary { "aig" } else { "aag" };
            Ok(Answer::new()
                .detail("format", fmt)
                .line(format!("wrote {} ({fmt})", output.display())))
        }
        AigCmd::BmcCnf {
            file,
            k,
            property,
            output,
        } => {
            let cnf = bmc_cnf(&read(&file)?, property, k).map_err(CliError::Usage)?;
            let a = Answer::new()
                .input("variables", cnf.num_vars)
                .input("clauses", cnf.clauses.len());
            match output {
                Some(out) => {
                    write_output(&out, &cnf.to_dimacs(), &[&file])?;
                    Ok(a.line(format!("wrote {}", out.display())))
                }
                None => Ok(a.line(cnf.to_dimacs().trim_end())),
            }
        }
        AigCmd::Info { file } => Ok(info(&read(&file)?).input("file", file.display().to_string())),
    }
}

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let load = |name: &str, text: &str| {
        parse(name, text.as_bytes()).map_err(|d| CliError::from_error(d, None))
    };
    let counter = load(
        "demo/aig/counter.aag",
        include_str!("../../demo/aig/counter.aag"),
    )?;
    let ring = load("demo/aig/ring.aag", include_str!("../../demo/aig/ring.aag"))?;
    let opts = Options::default();
    Ok(vec![
        (
            "two-bit counter reaches 11: unsafe, witness replayed".into(),
            check(&counter, &opts, &ctx.budget).answer,
        ),
        (
            "token ring never holds two tokens: safe, IC3 invariant checked".into(),
            check(&ring, &opts, &ctx.budget).answer,
        ),
    ])
}
