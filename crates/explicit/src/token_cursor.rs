//! The token cursor both model readers walk (`dve_parse` for DiVinE's DVE, Barnat et al.,
//! "DiVinE: a tool for distributed verification", CAV 2006, §2; `promela_parse` for Promela):
//! look-ahead, the span under the cursor, consuming punctuation, keywords and names, the nesting
//! limit and the "expected …" / "refused by name" errors. Each reader keeps its own token type
//! (through [`Token`]) and describes its words and messages in a [`Lang`].

use verikit_diag::{Diagnostic, Span};

/// What the cursor needs to know about a reader's tokens.
pub(crate) trait Token: Clone + 'static {
    /// The end-of-input token (returned past the end).
    fn eof() -> &'static Self;
    fn as_ident(&self) -> Option<&str>;
    fn as_punct(&self) -> Option<&'static str>;
    fn as_int(&self) -> Option<i64>;
}

/// What a reader's cursor needs to know about its language.
pub(crate) struct Lang<T> {
    /// Words refused by name, with the message `refusal(word)` and the label `refusal_label`.
    pub(crate) unsupported: &'static [&'static str],
    pub(crate) refusal: fn(&str) -> String,
    pub(crate) refusal_label: &'static str,
    /// Words that are not names besides the unsupported ones (`None`: every word is a name).
    pub(crate) reserved: Option<&'static [&'static str]>,
    /// How an error names a token that is no word, number or punctuation.
    pub(crate) other: fn(&T) -> &'static str,
    /// The nesting limit and what nests.
    pub(crate) max_depth: usize,
    pub(crate) nesting: &'static str,
}

/// Tokens with their spans, the position, the nesting depth.
pub(crate) struct Cursor<T: 'static> {
    pub(crate) toks: Vec<(T, Span)>,
    pub(crate) pos: usize,
    pub(crate) depth: usize,
    /// The input's length: the span of the end of input.
    end: usize,
    lang: &'static Lang<T>,
}

impl<T: Token> Cursor<T> {
    pub(crate) fn new(toks: Vec<(T, Span)>, end: usize, lang: &'static Lang<T>) -> Cursor<T> {
        Cursor {
            toks,
            pos: 0,
            depth: 0,
            end,
            lang,
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
    /// One nesting level deeper; beyond the language's limit, an error ("… nested too deeply").
    pub(crate) fn enter(&mut self) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > self.lang.max_depth {
            let sp = self.span();
            let what = self.lang.nesting;
            return Err(
                Diagnostic::at(sp, format!("{what} nested too deeply")).with_span(sp, "here")
            );
        }
        Ok(())
    }
    /// A token as an error message names it.
    pub(crate) fn describe(&self, t: &T) -> String {
        if let Some(w) = t.as_ident() {
            format!("`{w}`")
        } else if let Some(v) = t.as_int() {
            format!("`{v}`")
        } else if let Some(p) = t.as_punct() {
            format!("`{p}`")
        } else {
            (self.lang.other)(t).to_string()
        }
    }
    /// The error at the current token: an unsupported word is refused by name, anything else
    /// is "expected `what`, found …".
    pub(crate) fn err<X>(&self, what: &str) -> Result<X, Diagnostic> {
        let sp = self.span();
        let t = self.peek();
        if let Some(w) = t.as_ident().filter(|w| self.lang.unsupported.contains(w)) {
            return Err(
                Diagnostic::at(sp, (self.lang.refusal)(w)).with_span(sp, self.lang.refusal_label)
            );
        }
        Err(
            Diagnostic::at(sp, format!("expected {what}, found {}", self.describe(t)))
                .with_span(sp, format!("expected {what}")),
        )
    }
    /// Consumes punctuation `p` or fails.
    pub(crate) fn expect_punct(&mut self, p: &str) -> Result<Span, Diagnostic> {
        if self.is_punct(p) {
            Ok(self.bump().1)
        } else {
            self.err(&format!("`{p}`"))
        }
    }
    /// Consumes a name (a word neither reserved nor unsupported).
    pub(crate) fn ident(&mut self) -> Result<(String, Span), Diagnostic> {
        let lang = self.lang;
        let name = self.peek().as_ident().filter(|w| {
            lang.reserved
                .is_none_or(|r| !r.contains(w) && !lang.unsupported.contains(w))
        });
        match name.map(str::to_string) {
            Some(w) => Ok((w, self.bump().1)),
            None => self.err("a name"),
        }
    }
    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}

/// A parser walking a [`Cursor`] (implemented by [`cursor_parser!`]; the expression grammar of `c_expr` works through it).
pub(crate) trait Cursored {
    type Tok: Token;
    fn cursor(&self) -> &Cursor<Self::Tok>;
    fn cursor_mut(&mut self) -> &mut Cursor<Self::Tok>;
}

/// For a reader whose token enum has `Ident(String)`, `Int(i64)`, `Punct(&'static str)` and `Eof`
/// and whose parser keeps its cursor in the field `c`: the [`Token`] and lexeme impls, the
/// expression grammar's access to the cursor, and the parser dereferencing to the cursor (so
/// `self.peek()`, `self.err(…)`, … work on the parser).
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

        impl $crate::c_lex::FromLexeme for $tok {
            fn ident(w: &str) -> $tok {
                $tok::Ident(w.to_string())
            }
            fn int(v: i64) -> $tok {
                $tok::Int(v)
            }
            fn punct(p: &'static str) -> $tok {
                $tok::Punct(p)
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
            fn as_int(&self) -> Option<i64> {
                match self {
                    $tok::Int(v) => Some(*v),
                    _ => None,
                }
            }
        }

        impl $crate::token_cursor::Cursored for $parser {
            type Tok = $tok;
            fn cursor(&self) -> &$crate::token_cursor::Cursor<$tok> {
                &self.c
            }
            fn cursor_mut(&mut self) -> &mut $crate::token_cursor::Cursor<$tok> {
                &mut self.c
            }
        }
    };
}
pub(crate) use cursor_parser;
