//! The PRISM language: lexer, parser, AST, resolved expressions and semantic checks.

pub(crate) mod ast;
pub(crate) mod expr;
pub(crate) mod lexer;
pub(crate) mod parser;
pub(crate) mod typecheck;
