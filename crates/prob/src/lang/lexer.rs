//! Lexer for the PRISM modelling and property languages (PRISM manual, "The PRISM Language").
//!
//! Produces tokens with byte spans; comments (`// …`, `/* … */`) and whitespace are skipped.

use verikit_diag::{
    digits_end, ident_end, is_ident_start, skip_trivia, Diagnostic, Span, UNTERMINATED_COMMENT,
};

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
    'outer: loop {
        i = skip_trivia(b, i)
            .map_err(|s| Diagnostic::at(Span::new(s, s + 2), UNTERMINATED_COMMENT))?;
        let Some(&c) = b.get(i) else {
            break;
        };
        let start = i;
        if is_ident_start(c) {
            i = ident_end(b, i);
            out.push(Token {
                tok: Tok::Ident(text[start..i].to_string()),
                span: Span::new(start, i),
            });
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            let mut real = false;
            i = digits_end(b, i);
            // `0..N` must lex as `0` `..`
            if i < b.len() && b[i] == b'.' && b.get(i + 1) != Some(&b'.') {
                real = true;
                i = digits_end(b, i + 1);
            }
            if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
                let mut j = i + 1;
                if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
                    j += 1;
                }
                if j < b.len() && b[j].is_ascii_digit() {
                    real = true;
                    i = digits_end(b, j);
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
