//! SMT-LIB 2.6 lexer (the standard's Section 3.1: numerals, decimals, hexadecimals, binaries,
//! string literals, simple and `|quoted|` symbols, keywords, comments), producing tokens with byte
//! spans.

use verikit_diag::{Diagnostic, Span};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenKind {
    LParen,
    RParen,
    Numeral(String),
    Decimal(String),
    Hex(String),
    Binary(String),
    Str(String),
    Symbol(String),
    Keyword(String),
}

#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

fn is_symbol_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"~!@$%^&*_-+=<>.?/".contains(&c)
}

/// Splits `text` into tokens; an unterminated string or quoted symbol or a stray character is an
/// error located at its first byte.
#[cfg(test)]
pub(crate) fn lex(text: &str) -> Result<Vec<Token>, Diagnostic> {
    let mut out = Vec::new();
    match lex_into(text, &mut out) {
        Ok(()) => Ok(out),
        Err(e) => Err(e),
    }
}

/// The tokens before the first lexical error, and that error.
pub(crate) fn lex_prefix(text: &str) -> (Vec<Token>, Option<Diagnostic>) {
    let mut out = Vec::new();
    let e = lex_into(text, &mut out).err();
    (out, e)
}

fn lex_into(text: &str, out: &mut Vec<Token>) -> Result<(), Diagnostic> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        match c {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0c => i += 1,
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' => {
                out.push(Token {
                    kind: TokenKind::LParen,
                    span: Span::new(i, i + 1),
                });
                i += 1;
            }
            b')' => {
                out.push(Token {
                    kind: TokenKind::RParen,
                    span: Span::new(i, i + 1),
                });
                i += 1;
            }
            b'"' => {
                i += 1;
                let mut s = String::new();
                loop {
                    if i >= b.len() {
                        return Err(Diagnostic::at(
                            Span::new(start, b.len()),
                            "unterminated string literal",
                        ));
                    }
                    if b[i] == b'"' {
                        if i + 1 < b.len() && b[i + 1] == b'"' {
                            s.push('"');
                            i += 2;
                            continue;
                        }
                        i += 1;
                        break;
                    }
                    let ch_end = next_char_end(text, i);
                    s.push_str(&text[i..ch_end]);
                    i = ch_end;
                }
                out.push(Token {
                    kind: TokenKind::Str(s),
                    span: Span::new(start, i),
                });
            }
            b'|' => {
                i += 1;
                while i < b.len() && b[i] != b'|' {
                    if b[i] == b'\\' {
                        return Err(Diagnostic::at(
                            Span::new(i, i + 1),
                            "`\\` is not allowed in a quoted symbol",
                        ));
                    }
                    i += 1;
                }
                if i >= b.len() {
                    return Err(Diagnostic::at(
                        Span::new(start, b.len()),
                        "unterminated quoted symbol",
                    ));
                }
                let s = text[start + 1..i].to_string();
                i += 1;
                out.push(Token {
                    kind: TokenKind::Symbol(s),
                    span: Span::new(start, i),
                });
            }
            b'#' => {
                i += 1;
                let kind_b = b.get(i).copied();
                i += 1;
                let ds = i;
                match kind_b {
                    Some(b'x') => {
                        while i < b.len() && b[i].is_ascii_hexdigit() {
                            i += 1;
                        }
                        if i == ds {
                            return Err(Diagnostic::at(
                                Span::new(start, i.min(b.len())),
                                "empty hexadecimal literal",
                            ));
                        }
                        out.push(Token {
                            kind: TokenKind::Hex(text[ds..i].to_string()),
                            span: Span::new(start, i),
                        });
                    }
                    Some(b'b') => {
                        while i < b.len() && (b[i] == b'0' || b[i] == b'1') {
                            i += 1;
                        }
                        if i == ds {
                            return Err(Diagnostic::at(
                                Span::new(start, i.min(b.len())),
                                "empty binary literal",
                            ));
                        }
                        out.push(Token {
                            kind: TokenKind::Binary(text[ds..i].to_string()),
                            span: Span::new(start, i),
                        });
                    }
                    _ => {
                        return Err(Diagnostic::at(
                            Span::new(start, start + 1),
                            "`#` must start `#x` or `#b` literal",
                        ))
                    }
                }
            }
            b':' => {
                i += 1;
                while i < b.len() && is_symbol_char(b[i]) {
                    i += 1;
                }
                out.push(Token {
                    kind: TokenKind::Keyword(text[start..i].to_string()),
                    span: Span::new(start, i),
                });
            }
            b'0'..=b'9' => {
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let mut dec = false;
                if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
                    dec = true;
                    i += 1;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                }
                if i < b.len() && is_symbol_char(b[i]) {
                    // e.g. `12abc`: not a numeral; treat the whole run as a symbol (some files use them).
                    while i < b.len() && is_symbol_char(b[i]) {
                        i += 1;
                    }
                    return Err(Diagnostic::at(
                        Span::new(start, i),
                        "a symbol cannot start with a digit",
                    ));
                }
                let s = text[start..i].to_string();
                let kind = if dec {
                    TokenKind::Decimal(s)
                } else {
                    TokenKind::Numeral(s)
                };
                out.push(Token {
                    kind,
                    span: Span::new(start, i),
                });
            }
            c if is_symbol_char(c) => {
                while i < b.len() && is_symbol_char(b[i]) {
                    i += 1;
                }
                out.push(Token {
                    kind: TokenKind::Symbol(text[start..i].to_string()),
                    span: Span::new(start, i),
                });
            }
            _ => {
                let end = next_char_end(text, i);
                return Err(Diagnostic::at(
                    Span::new(start, end),
                    "unexpected character",
                ));
            }
        }
    }
    Ok(())
}

fn next_char_end(text: &str, i: usize) -> usize {
    let mut j = i + 1;
    while j < text.len() && !text.is_char_boundary(j) {
        j += 1;
    }
    j.min(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        let t = lex("(assert (<= |x y| 2.5)) ; c\n:named \"a\"\"b\"").unwrap();
        assert_eq!(t.len(), 10);
        assert_eq!(t[4].kind, TokenKind::Symbol("x y".into()));
        assert_eq!(t[5].kind, TokenKind::Decimal("2.5".into()));
        assert_eq!(t[9].kind, TokenKind::Str("a\"b".into()));
        assert!(lex("\"abc").is_err());
        assert!(lex("|abc").is_err());
    }
}
