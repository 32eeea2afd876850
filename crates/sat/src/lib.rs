//! The SAT kernel. `cdcl`: the own conflict-driven clause-learning core with the DPLL(T) theory
//! interface ([`Theory`]: assertions, eager and lazy propagation with explanations asked for on
//! demand, final checks that add lemmas), restarts, assumptions and unsat cores, polling a
//! [`verikit_diag::Budget`], and optional DRAT proof logging ([`ProofLog`], module `drat`).
//! `backend`: [`SatBackend`], the one interface for engines that need a plain SAT solver, served
//! by the own core ([`CdclBackend`]) and, with the opt-in cargo feature `cadical`, by CaDiCaL
//! (`CadicalBackend`). `dimacs`: the DIMACS CNF reader ([`dimacs::parse`]) and the group CNF
//! reader of the MUS competition ([`dimacs::parse_gcnf`]). `drat_check`: the independent DRAT
//! checker ([`check_drat`], backward RUP/RAT, core-first) and the DRAT reader ([`parse_drat`]).

#![warn(unreachable_pub)]

mod backend;
#[cfg(feature = "cadical")]
mod cadical;
mod cdcl;
pub mod dimacs;
mod drat;
mod drat_check;
mod lit;

pub use backend::{CdclBackend, SatBackend, VarCount};
#[cfg(feature = "cadical")]
pub use cadical::CadicalBackend;
pub use cdcl::{Cdcl, Final, Lit, NoTheory, SatResult, Stats, Theory, Var};
pub use dimacs::{Cnf, Gcnf};
pub use drat::ProofLog;
pub use drat_check::{check_drat, parse_drat, ClauseRef, DratCheck, DratError, Step};
