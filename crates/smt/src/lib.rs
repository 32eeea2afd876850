//! SMT-LIB 2.6 solver for linear arithmetic (QF_LRA, QF_RDL, QF_LIA, QF_IDL): DPLL(T) with the
//! simplex of Dutertre & de Moura, "A Fast Linear-Arithmetic Solver for DPLL(T)" (CAV 2006).
//!
//! Pipeline: `smtlib` (lexer, S-expressions with spans) → `elab` (sorted, hash-consed `terms`)
//! → `interp` (commands) → `solver` (API) → `tseitin` (CNF) + `linearize` (linear forms, one
//! slack per distinct term) → the CDCL core of `verikit-sat` with the theory `arith` (atoms,
//! unate propagation) over `simplex` (tableau, bounds, Check, explanations) and `lia` (branch and
//! bound), all in the exact rationals of `verikit-num` (a small-number path, δ-rationals). `check`
//! validates models independently and rebuilds each theory explanation's constraints for the
//! Farkas verifier of `verikit-num`.

#![warn(unreachable_pub)]

mod arith;
mod bound_refinement;
mod check;
mod command;
mod conditional_definitions;
mod difference_logic;
mod dioph;
mod dl_floyd_warshall;
mod elab;
mod gcd;
mod interp;
mod ite_lifting;
mod lia;
mod linearize;
mod printer;
mod simplex;
mod smtlib;
mod solver;
pub mod task;
mod terms;
mod tseitin;

pub use verikit_sat::SatResult;

pub use check::Value;
pub use command::{smt_command, smt_demo};
pub use interp::{
    run_script, CheckRecord, Interp, OnError, ResponseSink, RunOptions, ScriptOutput, Tuning,
};
pub use smtlib::{parse_sexprs, SExpr, SExprKind, TokenKind};
pub use solver::{Solver, SolverStats};
pub use task::{Outcome, SmtTask, PARAMS};
pub use terms::{Op as TermOp, Sort, TermId, Terms};

use verikit_diag::{Diagnostic, Reportable};

/// Errors of the SMT front end (the first error of a script, located).
#[derive(Debug, thiserror::Error)]
pub enum SmtError {
    #[error("{0}")]
    Input(Box<Diagnostic>),
}

impl Reportable for SmtError {
    fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            SmtError::Input(d) => Some(d),
        }
    }
}
