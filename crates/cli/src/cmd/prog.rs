//! `verikit prog`: SV-COMP C tasks (`unreach-call` by IMPACT, cegar, k-induction, BMC; witnesses),
//! the automaton as DOT, the CHC encoding, and linear Horn clauses solved by the same engines.

use crate::report::{CliError, Ctx};
use clap::builder::PossibleValuesParser;
use clap::Subcommand;
use std::path::PathBuf;
use verikit_diag::Answer;
use verikit_prog::ENGINE_NAMES;

#[derive(Subcommand, Debug)]
pub enum ProgCmd {
    /// Is `reach_error()` unreachable? `true` = safe, `false` = a counterexample (the values of the
    /// `__VERIFIER_nondet_*` calls, replayed with gcc), `unknown` with the reason otherwise.
    Verify {
        /// An SV-COMP task (`.yml`, format 2.0) or a C file.
        input: PathBuf,
        /// Engine (`portfolio`: every available engine in turn).
        #[arg(long, default_value = "portfolio", value_parser = PossibleValuesParser::new(ENGINE_NAMES))]
        engine: String,
        /// Print the control-flow automaton (Graphviz DOT) instead of verifying.
        #[arg(long)]
        dump_cfa: bool,
        /// Do not replay a counterexample with gcc.
        #[arg(long)]
        no_replay: bool,
        /// Write an SV-COMP witness of a `true` or `false` answer to FILE (GraphML 1.0 for `*.graphml`, YAML 2.0 otherwise).
        #[arg(long, value_name = "FILE")]
        witness: Option<PathBuf>,
    },
    /// The program as constrained Horn clauses (SMT-LIB `HORN`; `sat` = safe).
    ToChc {
        /// A C file.
        input: PathBuf,
        /// Recursion inlining depth (deeper calls go through procedure summaries).
        #[arg(long, default_value_t = 1)]
        depth: usize,
    },
    /// The bounded model checking query as SMT-LIB (QF_LIA; `sat` = `reach_error()` reachable).
    ToSmt {
        /// A C file.
        input: PathBuf,
        /// Unwinding bound (loop iterations and recursion depth).
        #[arg(long, default_value_t = 1)]
        bound: usize,
    },
    /// Solve constrained Horn clauses, linear and nonlinear (SMT-LIB `HORN`, CHC-COMP): `sat` with
    /// a model (an interpretation of every predicate), `unsat` with a derivation of `false`, both
    /// checked by the SMT solver against the clauses as written; `unknown` with the reason otherwise.
    Chc {
        /// An SMT-LIB file with `(set-logic HORN)`.
        input: PathBuf,
        /// Engine (`portfolio`: Spacer on the inlined, sliced clauses; then IMPACT and BMC if linear).
        #[arg(long, default_value = "portfolio", value_parser = PossibleValuesParser::new(ENGINE_NAMES))]
        engine: String,
    },
}

pub fn run(cmd: ProgCmd, ctx: &Ctx) -> Result<Answer, CliError> {
    match cmd {
        ProgCmd::Verify {
            input,
            dump_cfa: true,
            ..
        } => verikit_prog::cfa_command(&input, ctx),
        ProgCmd::Verify {
            input,
            engine,
            no_replay,
            witness,
            ..
        } => verikit_prog::verify_command(&input, &engine, no_replay, witness, ctx),
        ProgCmd::Chc { input, engine } => verikit_prog::chc_command(&input, &engine, ctx),
        ProgCmd::ToChc { input, depth } => verikit_prog::to_chc_command(&input, depth, ctx),
        ProgCmd::ToSmt { input, bound } => verikit_prog::to_smt_command(&input, bound, ctx),
    }
}
