//! S-expression parser over the SMT-LIB 2.6 tokens; every node keeps its byte span so commands
//! and terms can be reported with line:col. Iterative (no recursion), so deep nesting cannot
//! overflow the stack.

use super::lexer::{lex_prefix, Token, TokenKind};
use verikit_diag::{Diagnostic, Span};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SExprKind {
    Atom(TokenKind),
    List(Vec<SExpr>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SExpr {
    pub kind: SExprKind,
    pub span: Span,
}

impl SExpr {
    pub fn symbol(&self) -> Option<&str> {
        match &self.kind {
            SExprKind::Atom(TokenKind::Symbol(s)) => Some(s),
            _ => None,
        }
    }
    pub fn keyword(&self) -> Option<&str> {
        match &self.kind {
            SExprKind::Atom(TokenKind::Keyword(s)) => Some(s),
            _ => None,
        }
    }
    pub fn list(&self) -> Option<&[SExpr]> {
        match &self.kind {
            SExprKind::List(v) => Some(v),
            _ => None,
        }
    }
}

/// Deepest accepted nesting of parentheses.
pub(crate) const MAX_DEPTH: usize = 100_000;

/// Parses a whole script into top-level S-expressions.
pub fn parse_sexprs(text: &str) -> Result<Vec<SExpr>, Diagnostic> {
    let (forms, err) = parse_script(text);
    match err {
        Some(e) => Err(e),
        None => Ok(forms),
    }
}

/// Parses as many complete top-level forms as possible: the forms before the first error, and
/// the error (so an interpreter can execute the valid prefix, as SMT-LIB solvers do).
pub(crate) fn parse_script(text: &str) -> (Vec<SExpr>, Option<Diagnostic>) {
    let (toks, lex_err) = lex_prefix(text);
    match parse_tokens(&toks) {
        Ok(forms) => (forms, lex_err),
        Err((forms, perr)) => (forms, lex_err.or(Some(perr))),
    }
}

#[allow(clippy::result_large_err)]
fn parse_tokens(toks: &[Token]) -> Result<Vec<SExpr>, (Vec<SExpr>, Diagnostic)> {
    let mut stack: Vec<(usize, Vec<SExpr>)> = Vec::new();
    let mut top = Vec::new();
    for t in toks {
        match &t.kind {
            TokenKind::LParen => {
                if stack.len() >= MAX_DEPTH {
                    return Err((
                        top,
                        Diagnostic::at(t.span, format!("nesting deeper than {MAX_DEPTH} levels")),
                    ));
                }
                stack.push((t.span.start, Vec::new()))
            }
            TokenKind::RParen => {
                let (start, items) = match stack.pop() {
                    Some(x) => x,
                    None => return Err((top, Diagnostic::at(t.span, "unbalanced `)`"))),
                };
                let e = SExpr {
                    kind: SExprKind::List(items),
                    span: Span::new(start, t.span.end),
                };
                match stack.last_mut() {
                    Some((_, v)) => v.push(e),
                    None => top.push(e),
                }
            }
            k => {
                let e = SExpr {
                    kind: SExprKind::Atom(k.clone()),
                    span: t.span,
                };
                match stack.last_mut() {
                    Some((_, v)) => v.push(e),
                    None => top.push(e),
                }
            }
        }
    }
    if let Some((start, _)) = stack.last() {
        return Err((
            top,
            Diagnostic::at(Span::new(*start, *start + 1), "unclosed `(`"),
        ));
    }
    Ok(top)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_and_errors() {
        let v = parse_sexprs("(a (b c)) d").unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].span, Span::new(0, 9));
        assert!(parse_sexprs("(a").is_err());
        assert!(parse_sexprs(")").is_err());
        let deep = "(".repeat(1000) + &")".repeat(1000);
        assert!(parse_sexprs(&deep).is_ok());
    }
}
