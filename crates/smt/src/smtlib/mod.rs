//! SMT-LIB 2.6 concrete syntax: tokens and S-expressions with byte spans.

pub mod lexer;
pub mod parser;
pub mod stream;

pub use lexer::{Token, TokenKind};
pub use parser::{parse_script, parse_sexprs, SExpr, SExprKind};
