//! The PRISM language: lexer, parser, AST, resolved expressions and semantic checks.

pub mod ast;
pub mod expr;
pub mod lexer;
pub mod parser;
pub mod typecheck;
