//! Lexer for the PRISM modelling and property languages (PRISM manual, "The PRISM Language").
//!
//! Produces tokens with byte spans; comments (`// …`, `/* … */`) and whitespace are skipped.

use verikit_diag::{Diagnostic, Span};

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Ident(String),
    Int(i64),
    Real(f64),
    Str(String),
    /// Punctuation and operators, e.g. `->`, `<=`, `'`.
    Sym(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub tok: Tok,
    pub span: Span,
}

const SYMS: &[&str] = &[
    "<=>", "->", "=>", "<=", ">=", "!=", "..", "'", "(", ")", "[", "]", "{", "}", ";", ":", ",",
    "+", "-", "*", "/", "=", "<", ">", "!", "&", "|", "?", "^",
];

/// Splits `text` into tokens (ending with [`Tok::Eof`]).
pub(crate) fn lex(text: &str) -> Result<Vec<Token>, Diagnostic> {
    let b = text.as_bytes();
    let mut i = 0usize;
    let mut out = Vec::new();
    'outer: while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let start = i;
            i += 2;
            loop {
                if i + 1 >= b.len() {
                    return Err(Diagnostic::at(
                        Span::new(start, start + 2),
                        "unterminated comment",
                    ));
                }
                if b[i] == b'*' && b[i + 1] == b'/' {
                    i += 2;
                    break;
                }
                i += 1;
            }
            continue;
        }
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Ident(text[start..i].to_string()),
                span: Span::new(start, i),
            });
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            let mut real = false;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            // `0..N` must lex as `0` `..`
            if i < b.len() && b[i] == b'.' && b.get(i + 1) != Some(&b'.') {
                real = true;
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
            }
            if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
                let mut j = i + 1;
                if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
                    j += 1;
                }
                if j < b.len() && b[j].is_ascii_digit() {
                    real = true;
                    i = j;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                }
            }
            let s = &text[start..i];
            let span = Span::new(start, i);
            if real {
                match s.parse::<f64>() {
                    Ok(v) => out.push(Token {
                        tok: Tok::Real(v),
                        span,
                    }),
                    Err(_) => return Err(Diagnostic::at(span, format!("bad number `{s}`"))),
                }
            } else {
                match s.parse::<i64>() {
                    Ok(v) => out.push(Token {
                        tok: Tok::Int(v),
                        span,
                    }),
                    Err(_) => {
                        return Err(Diagnostic::at(span, format!("integer `{s}` is too large")))
                    }
                }
            }
            continue;
        }
        if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                i += 1;
            }
            if i >= b.len() || b[i] != b'"' {
                return Err(Diagnostic::at(Span::new(start, i), "unterminated string"));
            }
            out.push(Token {
                tok: Tok::Str(text[start + 1..i].to_string()),
                span: Span::new(start, i + 1),
            });
            i += 1;
            continue;
        }
        for s in SYMS {
            if text[i..].starts_with(s) {
                out.push(Token {
                    tok: Tok::Sym(s),
                    span: Span::new(i, i + s.len()),
                });
                i += s.len();
                continue 'outer;
            }
        }
        let ch = text[i..].chars().next().unwrap_or('?');
        return Err(Diagnostic::at(
            Span::new(i, i + ch.len_utf8()),
            format!("unexpected character `{ch}`"),
        ));
    }
    out.push(Token {
        tok: Tok::Eof,
        span: Span::point(text.len()),
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn ranges_and_reals() {
        let t = lex("x : [0..N] init 1; 0.5e-3 1e2 'x").unwrap();
        assert!(t.iter().any(|t| t.tok == Tok::Sym("..")));
        assert!(t.iter().any(|t| t.tok == Tok::Real(0.5e-3)));
        assert!(t.iter().any(|t| t.tok == Tok::Real(100.0)));
    }
}
