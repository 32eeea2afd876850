//! Linear temporal logic: hash-consed formulas, Spot's syntax, simplification, random formulas
//! and a direct evaluator on lasso words.

pub(crate) mod ast;
pub(crate) mod eval;
pub(crate) mod lex;
pub(crate) mod linear_form;
pub(crate) mod nnf;
pub(crate) mod parse;
pub(crate) mod print;
pub(crate) mod sere;
pub(crate) mod sere_parse;
pub(crate) mod simplify;
pub(crate) mod synt_impl;

pub use ast::{Arena, Node, F};
