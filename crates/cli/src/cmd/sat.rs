//! `verikit sat`: DIMACS CNF solving with DRAT proofs, and unsatisfiable cores (`sat core`).

use crate::report::{CliError, Ctx};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use verikit_diag::Answer;
use verikit_hw::read_cnf;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SatArgs {
    #[command(subcommand)]
    cmd: Option<SatCmd>,
    /// Is the formula satisfiable? (DIMACS CNF, gzip-compressed or not; `-` for standard input.) Verdict `true` with the
    /// model (checked against the clauses) or `false`.
    #[arg(required = true)]
    file: Option<PathBuf>,
    /// Write a DRAT proof of unsatisfiability here.
    #[arg(long, value_name = "FILE")]
    proof: Option<PathBuf>,
    /// Write the proof in binary DRAT instead of text.
    #[arg(long, requires = "proof")]
    binary_proof: bool,
    /// Answer as SAT-competition solvers do: `s SATISFIABLE` + `v … 0` lines, exit 10 / 20.
    #[arg(long)]
    competition: bool,
    /// The solver: cdcl (own, DRAT proofs) or cadical (builds with the `cadical` feature);
    /// default from `-x sat.backend`.
    #[arg(long, value_parser = ["cdcl", "cadical"])]
    backend: Option<String>,
}

#[derive(Subcommand, Debug)]
pub enum SatCmd {
    /// An unsatisfiable core of a `.cnf`, or a group core of a `.gcnf` (group 0 hard). Verdict
    /// `false` with the core (re-checked unsatisfiable), or `true` with a model.
    Core {
        /// The formula (`.cnf` or `.gcnf`; `-` for standard input).
        file: PathBuf,
        /// trim-till-fix, trimmer (one run; Gershman et al., CAV'06), mus (deletion-based, minimal;
        /// mus-rotate: with recursive model rotation) or proof (the core of one checked DRAT proof).
        #[arg(long, default_value = "trim-till-fix", value_parser = ["trim-till-fix", "trimmer", "mus", "mus-rotate", "proof"])]
        method: String,
        /// Write the core as a formula (`.cnf` / `.gcnf` text).
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
}

pub fn run(args: SatArgs, ctx: &Ctx) -> Result<Answer, CliError> {
    if let Some(SatCmd::Core {
        file,
        method,
        output,
    }) = &args.cmd
    {
        return verikit_hw::core_command(&read_cnf(file)?, method, output.as_deref(), ctx);
    }
    let Some(file) = &args.file else {
        return Err(CliError::Usage("a DIMACS file is required".into()));
    };
    let (proof, binary) = (args.proof.as_deref(), args.binary_proof);
    let (src, backend) = (read_cnf(file)?, args.backend.as_deref());
    let r = verikit_hw::solve_command(&src, proof, binary, args.competition, backend, ctx)?;
    if let Some(code) = r.competition_exit {
        print!("{}", r.answer.text);
        std::process::exit(code);
    }
    Ok(r.answer)
}
