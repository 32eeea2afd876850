//! Exact numbers and linear programming shared by the engines: rationals with a machine-word fast
//! path ([`Num`]) and δ-rationals ([`DRat`]) in `rational`, the one exact LP feasibility test
//! ([`exact_lp::solve`], phase I of the simplex method, a point or a Farkas certificate) and the
//! one Farkas-certificate verifier ([`farkas::verify`]). The SMT solver and the interval-MDP
//! bisimulation both use them; the big-number library is `num-bigint`/`num-rational`.

pub mod exact_lp;
pub mod farkas;
mod rational;

pub use exact_lp::{Cmp, Feasibility, Row};
pub use farkas::{Constraint, FarkasError};
pub use rational::{DRat, Num};
