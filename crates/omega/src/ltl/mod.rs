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
pub(crate) use parse::skip_comment;

/// `t` parsed, simplified and printed: what the simplification unit tests compare.
#[cfg(test)]
pub(crate) fn simplified(t: &str) -> String {
    let mut a = Arena::new();
    let f = parse::parse(t, &mut a).unwrap_or_else(|e| panic!("{t}: {}", e.message));
    let g = simplify::simplify(&mut a, f);
    print::to_string(&a, g)
}
