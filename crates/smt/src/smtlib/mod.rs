//! SMT-LIB 2.6 concrete syntax: tokens and S-expressions with byte spans.

pub mod lexer;
pub mod parser;

pub use lexer::{Token, TokenKind};
pub use parser::{parse_script, parse_sexprs, SExpr, SExprKind};
