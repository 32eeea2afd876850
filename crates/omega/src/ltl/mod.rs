//! Linear temporal logic: hash-consed formulas, Spot's syntax, simplification, random formulas
//! and a direct evaluator on lasso words.

pub mod ast;
pub mod eval;
pub mod nnf;
pub mod parse;
pub mod print;
pub mod simplify;
pub mod synt_impl;

pub use ast::{Arena, Node, F};
