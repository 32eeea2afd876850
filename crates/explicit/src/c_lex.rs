//! The lexical core DVE and Promela share (DiVinE's DVE of Barnat et al., "DiVinE: a tool for
//! distributed verification", CAV 2006, §2, and Promela as in Holzmann, *The SPIN Model Checker*,
//! 2003): white space, `//` and `/* */` comments, names, decimal integer literals and the longest
//! punctuation of a language's table, with located errors. Each reader handles its own extra
//! tokens (Promela's directives, strings, line continuations) before asking this one.

use verikit_diag::{Diagnostic, Span};

/// A reader's token type, built from the shared lexemes.
pub(crate) trait FromLexeme: Sized {
    fn ident(w: &str) -> Self;
    fn int(v: i64) -> Self;
    fn punct(p: &'static str) -> Self;
}

/// Scans one lexeme at byte `i` (see [`lexeme`]), appends its token to `out` (none for white
/// space and comments) and returns the position after it.
pub(crate) fn lex_one<T: FromLexeme>(
    text: &str,
    i: usize,
    to: usize,
    puncts: &[&'static str],
    lang: &str,
    out: &mut Vec<(T, Span)>,
) -> Result<usize, Diagnostic> {
    let (l, e) = lexeme(text, i, to, puncts, lang)?;
    let tok = match l {
        Lexeme::Skip => None,
        Lexeme::Ident(w) => Some(T::ident(w)),
        Lexeme::Int(v) => Some(T::int(v)),
        Lexeme::Punct(p) => Some(T::punct(p)),
    };
    out.extend(tok.map(|t| (t, Span::new(i, e))));
    Ok(e)
}

/// One lexeme of the shared core; its span runs from where the scan started to where it ended.
enum Lexeme<'a> {
    /// White space or a comment.
    Skip,
    Ident(&'a str),
    Int(i64),
    Punct(&'static str),
}

/// Scans one lexeme of `text[..to]` at byte `i`: the lexeme and the position after it, or an
/// error (an unterminated comment, a bad literal, a character of no token — "not part of
/// `lang`").
fn lexeme<'a>(
    text: &'a str,
    i: usize,
    to: usize,
    puncts: &[&'static str],
    lang: &str,
) -> Result<(Lexeme<'a>, usize), Diagnostic> {
    let b = text.as_bytes().get(..to).unwrap_or_default();
    let rest = text.get(i..to).unwrap_or("");
    let Some(&c) = b.get(i) else {
        return Ok((Lexeme::Skip, to));
    };
    let run = |mut j: usize, ok: fn(u8) -> bool| {
        while b.get(j).is_some_and(|&x| ok(x)) {
            j += 1;
        }
        j
    };
    if c.is_ascii_whitespace() {
        Ok((Lexeme::Skip, i + 1))
    } else if rest.starts_with("//") {
        Ok((Lexeme::Skip, run(i, |x| x != b'\n')))
    } else if rest.starts_with("/*") {
        match rest.get(2..).and_then(|r| r.find("*/")) {
            Some(k) => Ok((Lexeme::Skip, i + k + 4)),
            None => {
                let sp = Span::new(i, i + 2);
                Err(Diagnostic::at(sp, "unterminated comment").with_span(sp, "comment starts here"))
            }
        }
    } else if c.is_ascii_alphabetic() || c == b'_' {
        let e = run(i, |x| x.is_ascii_alphanumeric() || x == b'_');
        Ok((Lexeme::Ident(text.get(i..e).unwrap_or("")), e))
    } else if c.is_ascii_digit() {
        let e = run(i, |x| x.is_ascii_alphanumeric());
        let sp = Span::new(i, e);
        let lit = text.get(i..e).unwrap_or("");
        let v: i64 = lit.parse().map_err(|_| {
            Diagnostic::at(sp, format!("bad integer literal `{lit}`"))
                .with_span(sp, "not a decimal integer in range")
        })?;
        if v > i64::from(i32::MAX) {
            return Err(Diagnostic::at(sp, "integer literal too large").with_span(sp, "here"));
        }
        Ok((Lexeme::Int(v), e))
    } else if let Some(p) = puncts.iter().find(|p| rest.starts_with(**p)) {
        Ok((Lexeme::Punct(p), i + p.len()))
    } else {
        let ch = rest.chars().next().unwrap_or('?');
        let sp = Span::new(i, i + ch.len_utf8());
        Err(Diagnostic::at(sp, format!("unexpected character `{ch}`"))
            .with_span(sp, format!("not part of {lang}")))
    }
}
