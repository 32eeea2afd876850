//! `verikit prog`: C programs (SV-COMP conventions) and their tasks — `unreach-call` by IMPACT and
//! bounded model checking, the control-flow automaton as DOT, the CHC encoding, and linear
//! Horn clauses solved by the same engines.

use crate::report::{CliError, Ctx};
use clap::{Subcommand, ValueEnum};
use std::path::PathBuf;
use verikit_diag::Answer;
use verikit_prog::{dump_cfa, solve_chc, to_chc_text, verify, Engine, ProgError, VerifyOptions};

#[derive(Subcommand, Debug)]
pub enum ProgCmd {
    /// Is `reach_error()` unreachable? `true` = safe, `false` = a counterexample (the values of
    /// the `__VERIFIER_nondet_*` calls, replayed with gcc), `unknown` with the reason otherwise.
    Verify {
        /// An SV-COMP task (`.yml`, format 2.0) or a C file.
        input: PathBuf,
        /// Engine (`portfolio`: every available engine in turn).
        #[arg(long, value_enum, default_value_t = EngineArg::Portfolio)]
        engine: EngineArg,
        /// Print the control-flow automaton (Graphviz DOT) instead of verifying.
        #[arg(long)]
        dump_cfa: bool,
        /// Do not replay a counterexample with gcc.
        #[arg(long)]
        no_replay: bool,
    },
    /// The program as constrained Horn clauses (SMT-LIB `HORN`; `sat` = safe).
    ToChc {
        /// A C file.
        input: PathBuf,
        /// Recursion inlining depth (deeper calls are treated as errors).
        #[arg(long, default_value_t = 1)]
        depth: usize,
    },
    /// Solve linear constrained Horn clauses (SMT-LIB `HORN`, CHC-COMP): `sat` with a model (an
    /// interpretation of every predicate), `unsat` with a derivation of `false`, both checked by
    /// the SMT solver against the clauses as written; `unknown` with the reason otherwise.
    Chc {
        /// An SMT-LIB file with `(set-logic HORN)`.
        input: PathBuf,
        /// Engine (`portfolio`: IMPACT for a model, then bounded model checking).
        #[arg(long, value_enum, default_value_t = EngineArg::Portfolio)]
        engine: EngineArg,
    },
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum EngineArg {
    Bmc,
    Impact,
    Portfolio,
}

impl From<EngineArg> for Engine {
    fn from(e: EngineArg) -> Engine {
        match e {
            EngineArg::Bmc => Engine::Bmc,
            EngineArg::Impact => Engine::Impact,
            EngineArg::Portfolio => Engine::Portfolio,
        }
    }
}

fn err(e: ProgError) -> CliError {
    CliError::from_error(e, None)
}

pub fn run(cmd: ProgCmd, ctx: &Ctx) -> Result<Answer, CliError> {
    let wrap = ctx
        .params
        .raw("prog.wrap")
        .is_some_and(|v| v == "true" || v == "1");
    match cmd {
        ProgCmd::Verify {
            input,
            engine,
            dump_cfa: true,
            ..
        } => {
            let _ = engine;
            Ok(Answer::new().line(dump_cfa(&input, wrap).map_err(err)?))
        }
        ProgCmd::Verify {
            input,
            engine,
            no_replay,
            ..
        } => {
            let mut opts =
                VerifyOptions::from_params(engine.into(), &ctx.params).map_err(CliError::Usage)?;
            if !no_replay {
                opts.replay_dir = Some(
                    std::env::temp_dir().join(format!("verikit-replay-{}", std::process::id())),
                );
            }
            let a = verify(&input, &opts, &ctx.budget).map_err(err);
            if let Some(d) = &opts.replay_dir {
                let _ = std::fs::remove_dir_all(d);
            }
            a
        }
        ProgCmd::Chc { input, engine } => {
            let opts =
                VerifyOptions::from_params(engine.into(), &ctx.params).map_err(CliError::Usage)?;
            solve_chc(&input, &opts, &ctx.budget).map_err(err)
        }
        ProgCmd::ToChc { input, depth } => {
            Ok(Answer::new().line(to_chc_text(&input, wrap, depth).map_err(err)?))
        }
    }
}
