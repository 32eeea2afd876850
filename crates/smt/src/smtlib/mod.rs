//! SMT-LIB 2.6 concrete syntax: tokens and S-expressions with byte spans.

pub(crate) mod lexer;
pub(crate) mod parser;
pub(crate) mod stream;

pub use lexer::TokenKind;
pub(crate) use parser::parse_script;
pub use parser::{parse_sexprs, SExpr, SExprKind};
