//! The shared BDD kernel of verikit, on `biodivine-lib-bdd` (the workspace's one BDD library).
//!
//! - [`BddDict`]: one dictionary of named propositions, in the spirit of Spot's `bdd_dict`. A name
//!   is registered once and keeps its BDD variable, so automata built against the same dictionary
//!   (or against extensions of it, [`BddDict::extend`]) share BDD variables: products and
//!   inclusions combine their labels directly. Two inputs read separately are joined by
//!   [`BddDict::import`], which maps a BDD from one dictionary to another by name (a relabelling
//!   of the nodes when the order agrees, a rebuild otherwise; never through a normal form).
//! - [`from_expr`]: the one `BoolExpr` (the formula AST of `verikit-logic`) → BDD conversion;
//!   [`to_expr`] and [`to_text`] go back for printing.
//! - [`Limits`]: a node limit and a [`Budget`] polled by every operation of this crate, which
//!   return a [`BddError`] instead of growing without bound.

#![warn(unreachable_pub)]

mod convert;
mod dict;
mod limits;
mod text;

pub use biodivine_lib_bdd::{
    op_function, Bdd, BddPartialValuation, BddPointer, BddValuation, BddVariable, BddVariableSet,
};
pub use convert::from_expr;
pub use dict::BddDict;
pub use limits::{BddError, Limits, MAX_VARS};
pub use text::{to_expr, to_text, TextStyle};
