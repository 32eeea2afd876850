//! The token cursor both model readers walk (`dve_parse` for DiVinE's DVE, Barnat et al.,
//! "DiVinE: a tool for distributed verification", CAV 2006, §2; `promela_parse` for Promela):
//! look-ahead, the span under the cursor, consuming punctuation and keywords, and the nesting
//! limit. Each reader keeps its own token type (through [`Token`]), its error messages and its
//! idea of a name.

use verikit_diag::{Diagnostic, Span};

/// What the cursor needs to know about a reader's tokens.
pub(crate) trait Token: Clone + 'static {
    /// The end-of-input token (returned past the end).
    fn eof() -> &'static Self;
    fn as_ident(&self) -> Option<&str>;
    fn as_punct(&self) -> Option<&'static str>;
}

/// Tokens with their spans, the position, the nesting depth.
pub(crate) struct Cursor<T> {
    pub(crate) toks: Vec<(T, Span)>,
    pub(crate) pos: usize,
    pub(crate) depth: usize,
    /// The input's length: the span of the end of input.
    end: usize,
}

impl<T: Token> Cursor<T> {
    pub(crate) fn new(toks: Vec<(T, Span)>, end: usize) -> Cursor<T> {
        Cursor {
            toks,
            pos: 0,
            depth: 0,
            end,
        }
    }
    pub(crate) fn peek(&self) -> &T {
        self.peek_at(0)
    }
    pub(crate) fn peek_at(&self, k: usize) -> &T {
        self.toks.get(self.pos + k).map_or(T::eof(), |t| &t.0)
    }
    pub(crate) fn span(&self) -> Span {
        self.toks
            .get(self.pos)
            .map_or(Span::point(self.end), |t| t.1)
    }
    /// The end of the last consumed token.
    pub(crate) fn prev_end(&self) -> usize {
        self.pos
            .checked_sub(1)
            .and_then(|k| self.toks.get(k))
            .map_or(0, |t| t.1.end)
    }
    pub(crate) fn bump(&mut self) -> (T, Span) {
        let t = self
            .toks
            .get(self.pos)
            .cloned()
            .unwrap_or_else(|| (T::eof().clone(), Span::point(self.end)));
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
        t
    }
    pub(crate) fn is_punct(&self, p: &str) -> bool {
        self.peek().as_punct() == Some(p)
    }
    pub(crate) fn is_kw(&self, k: &str) -> bool {
        self.peek().as_ident() == Some(k)
    }
    pub(crate) fn eat_punct(&mut self, p: &str) -> bool {
        let yes = self.is_punct(p);
        if yes {
            self.bump();
        }
        yes
    }
    pub(crate) fn eat_kw(&mut self, k: &str) -> bool {
        let yes = self.is_kw(k);
        if yes {
            self.bump();
        }
        yes
    }
    /// One nesting level deeper; beyond `max`, an error ("`what` nested too deeply").
    pub(crate) fn enter(&mut self, max: usize, what: &str) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > max {
            let sp = self.span();
            return Err(
                Diagnostic::at(sp, format!("{what} nested too deeply")).with_span(sp, "here")
            );
        }
        Ok(())
    }
    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}

/// For a reader whose token enum has `Ident(String)`, `Punct(&'static str)` and `Eof` and whose
/// parser keeps its cursor in the field `c`: the [`Token`] impl, and the parser dereferencing to
/// the cursor (so `self.peek()`, `self.pos`, … work on the parser).
macro_rules! cursor_parser {
    ($parser:ident, $tok:ident) => {
        impl std::ops::Deref for $parser {
            type Target = $crate::token_cursor::Cursor<$tok>;
            fn deref(&self) -> &Self::Target {
                &self.c
            }
        }

        impl std::ops::DerefMut for $parser {
            fn deref_mut(&mut self) -> &mut Self::Target {
                &mut self.c
            }
        }

        impl $crate::token_cursor::Token for $tok {
            fn eof() -> &'static $tok {
                &$tok::Eof
            }
            fn as_ident(&self) -> Option<&str> {
                match self {
                    $tok::Ident(w) => Some(w),
                    _ => None,
                }
            }
            fn as_punct(&self) -> Option<&'static str> {
                match self {
                    $tok::Punct(p) => Some(p),
                    _ => None,
                }
            }
        }
    };
}
pub(crate) use cursor_parser;
