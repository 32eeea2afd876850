//! The TLSF scanner: identifiers (letters, digits, `_`, `'`, `@`), decimal numbers, string
//! literals, the operator symbols of syfco's expression table, `//` and `/* */` comments.

use crate::error::SyntError;
use verikit_diag::{Diagnostic, Span};

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    Ident(String),
    Num(i64),
    Str(String),
    Sym(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    pub(crate) span: Span,
}

/// Longest first.
const SYMBOLS: &[&str] = &[
    "<->", "(+)", "(*)", "(-)", "(\\)", "->", "<-", "&&", "||", "==", "!=", "/=", "<=", ">=", "..",
    "<", ">", "!", "+", "-", "*", "/", "%", "(", ")", "[", "]", "{", "}", ";", ",", ":", "=", "|",
    "~",
];

pub(crate) fn lex(text: &str) -> Result<Vec<Token>, SyntError> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() || (c == 0xEF && text[i..].starts_with('\u{feff}')) {
            i += if c.is_ascii_whitespace() { 1 } else { 3 };
            continue;
        }
        if text[i..].starts_with("//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if text[i..].starts_with("/*") {
            let start = i;
            match text[i + 2..].find("*/") {
                Some(k) => i += 2 + k + 2,
                None => {
                    return Err(SyntError::syntax(Diagnostic::at(
                        Span::new(start, start + 2),
                        "unterminated comment",
                    )))
                }
            }
            continue;
        }
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len()
                && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'\'' | b'@'))
            {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Ident(text[start..i].to_string()),
                span: Span::new(start, i),
            });
            continue;
        }
        if c.is_ascii_digit() {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let n: i64 = text[start..i].parse().map_err(|_| {
                SyntError::syntax(Diagnostic::at(Span::new(start, i), "number too large"))
            })?;
            out.push(Token {
                tok: Tok::Num(n),
                span: Span::new(start, i),
            });
            continue;
        }
        if c == b'"' {
            i += 1;
            let mut s = String::new();
            loop {
                match text[i..].chars().next() {
                    None => {
                        return Err(SyntError::syntax(Diagnostic::at(
                            Span::new(start, start + 1),
                            "unterminated string",
                        )))
                    }
                    Some('"') => {
                        i += 1;
                        break;
                    }
                    Some('\\') => {
                        i += 1;
                        if let Some(ch) = text[i..].chars().next() {
                            s.push(ch);
                            i += ch.len_utf8();
                        }
                    }
                    Some(ch) => {
                        s.push(ch);
                        i += ch.len_utf8();
                    }
                }
            }
            out.push(Token {
                tok: Tok::Str(s),
                span: Span::new(start, i),
            });
            continue;
        }
        match SYMBOLS.iter().find(|s| text[i..].starts_with(**s)) {
            Some(s) => {
                i += s.len();
                out.push(Token {
                    tok: Tok::Sym(s),
                    span: Span::new(start, i),
                });
            }
            None => {
                let ch = text[i..].chars().next().unwrap_or('?');
                return Err(SyntError::syntax(Diagnostic::at(
                    Span::new(start, start + ch.len_utf8()),
                    format!("unexpected character `{ch}`"),
                )));
            }
        }
    }
    out.push(Token {
        tok: Tok::Eof,
        span: Span::point(b.len()),
    });
    Ok(out)
}
