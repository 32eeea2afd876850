//! The tokens of Promela that the lexer (`promela_parse`), the macro expander (`promela_macro`)
//! and the parser share; a `#define` travels as one token carrying its definition.

use verikit_diag::Span;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Ident(String),
    Int(i64),
    Punct(&'static str),
    /// A string literal (only `printf`/`printm` take one; both are refused by name).
    Str,
    /// `#define` (consumed by `promela_macro::expand`, never seen by the parser).
    Define(Box<Macro>),
    /// `#undef NAME`.
    Undef(String),
    Eof,
}

/// A `#define` or an `inline`: its parameters (`None`: object-like) and body.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Macro {
    pub(crate) name: String,
    pub(crate) params: Option<Vec<String>>,
    pub(crate) body: Vec<(Tok, Span)>,
}
