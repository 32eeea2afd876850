//! `verikit sat`: DIMACS CNF solving with DRAT proofs, and unsatisfiable cores (`sat core`).

use crate::report::{read_input, write_output, CliError, Ctx};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use verikit_diag::{Answer, SourceFile};
use verikit_hw::{core_cnf, solve_cnf, CoreMethod, SatOptions};
use verikit_sat::ProofLog;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SatArgs {
    #[command(subcommand)]
    cmd: Option<SatCmd>,
    /// Is the formula satisfiable? (DIMACS CNF; `-` for standard input.) Verdict `true` with the
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
}

#[derive(Subcommand, Debug)]
pub enum SatCmd {
    /// An unsatisfiable core of a `.cnf`, or a group core of a `.gcnf` (group 0 hard). Verdict
    /// `false` with the core (re-checked unsatisfiable), or `true` with a model.
    Core {
        /// The formula (`.cnf` or `.gcnf`; `-` for standard input).
        file: PathBuf,
        /// trim-till-fix, trimmer (one run; Gershman et al., CAV'06), mus (deletion-based,
        /// minimal) or proof (the core of one checked DRAT proof).
        #[arg(long, default_value = "trim-till-fix", value_parser = ["trim-till-fix", "trimmer", "mus", "proof"])]
        method: String,
        /// Write the core as a formula (`.cnf` / `.gcnf` text).
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
}

fn solve(src: &SourceFile, args: &SatArgs, ctx: &Ctx) -> Result<Answer, CliError> {
    let proof = match &args.proof {
        Some(p) => {
            let f = std::fs::File::create(p)
                .map_err(|e| CliError::Usage(format!("cannot write `{}`: {e}", p.display())))?;
            Some(ProofLog::to_writer(
                Box::new(std::io::BufWriter::new(f)),
                args.binary_proof,
            ))
        }
        None => None,
    };
    let opts = SatOptions {
        proof,
        competition: args.competition,
    };
    let r =
        solve_cnf(&src.text, opts, &ctx.budget).map_err(|d| CliError::from_error(d, Some(src)))?;
    if let Some(code) = r.competition_exit {
        print!("{}", r.answer.text);
        std::process::exit(code);
    }
    Ok(r.answer.input("file", &src.name))
}

pub fn run(args: SatArgs, ctx: &Ctx) -> Result<Answer, CliError> {
    match &args.cmd {
        Some(SatCmd::Core {
            file,
            method,
            output,
        }) => {
            let src = read_input(file)?;
            let m = CoreMethod::parse(method)
                .ok_or_else(|| CliError::Usage(format!("unknown method `{method}`")))?;
            let r = core_cnf(&src.text, m, &ctx.budget)
                .map_err(|d| CliError::from_error(d, Some(&src)))?;
            if let (Some(out), Some(text)) = (output, &r.core_text) {
                write_output(out, text, &[file])?;
            }
            Ok(r.answer.input("file", &src.name))
        }
        None => match &args.file {
            Some(file) => solve(&read_input(file)?, &args, ctx),
            None => Err(CliError::Usage("a DIMACS file is required".into())),
        },
    }
}

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let php = include_str!("../../demo/sat/php-4-3.cnf");
    let gphp = include_str!("../../demo/sat/php-4-3.gcnf");
    let err = |d| CliError::from_error(d, None);
    let solved = solve_cnf(php, SatOptions::default(), &ctx.budget).map_err(err)?;
    Ok(vec![
        (
            "four pigeons, three holes: unsatisfiable".into(),
            solved.answer,
        ),
        (
            "its core by Trimmer till fix (the two unneeded clauses go)".into(),
            core_cnf(php, CoreMethod::TrimTillFix, &ctx.budget)
                .map_err(err)?
                .answer,
        ),
        (
            "group MUS: all four pigeons needed, the unrelated group not".into(),
            core_cnf(gphp, CoreMethod::Mus, &ctx.budget)
                .map_err(err)?
                .answer,
        ),
    ])
}
