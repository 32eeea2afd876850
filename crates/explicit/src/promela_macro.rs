//! Macro expansion for Promela: the part of the C preprocessor SPIN models use (SPIN runs its
//! input through `cpp`; Holzmann, *The SPIN Model Checker*, 2003, ch. 3 "Macros and include
//! files" and the `inline` definitions of ch. 3 "Inline definitions"), done here on the token
//! stream so that every error keeps a location in the model file.
//!
//! Supported: `#define NAME body` (object-like), `#define NAME(a, b) body` (function-like: the
//! arguments are expanded first, substituted, and the result rescanned, as cpp does), `#undef`,
//! line continuation with `\`, and `inline NAME(a, b) { … }` (a function-like macro whose body
//! is the braced sequence; a call `NAME(x, y)` in statement position becomes that block). A macro
//! is not expanded inside its own expansion (cpp's rule, which also stops recursion). Not
//! supported and refused where they stand by `promela_parse`'s lexer: `#include`, `#if`/`#ifdef`
//! and the other conditional directives, the `#`/`##` operators. Expanded tokens carry the span of
//! the use site (the macro's name up to its closing parenthesis), so an error inside an expansion
//! points at the use.

use crate::promela_token::{Macro, Tok};
use std::collections::HashMap;
use verikit_diag::{Diagnostic, Span};

/// At most this many tokens after expansion (a guard against exponential definitions).
const MAX_TOKENS: usize = 2_000_000;
/// At most this deep nesting of expansions.
const MAX_DEPTH: usize = 64;

type R<T> = Result<T, Diagnostic>;
/// Tokens with their spans.
type Tokens = Vec<(Tok, Span)>;

struct Expander {
    defs: HashMap<String, Macro>,
    produced: usize,
}

/// Expands the macros of a token stream (ending in `Eof`): `Tok::Define`/`Tok::Undef` from the
/// lexer update the definitions in order, `inline` definitions are taken out and registered, and
/// every use is replaced by its expansion.
pub(crate) fn expand(toks: Vec<(Tok, Span)>) -> R<Vec<(Tok, Span)>> {
    if !toks.iter().any(|(t, _)| {
        matches!(t, Tok::Define(_) | Tok::Undef(_)) || matches!(t, Tok::Ident(w) if w == "inline")
    }) {
        return Ok(toks);
    }
    let mut x = Expander {
        defs: HashMap::new(),
        produced: 0,
    };
    let mut out = Vec::with_capacity(toks.len());
    let mut active = Vec::new();
    let mut i = 0;
    while let Some((t, sp)) = toks.get(i) {
        match t {
            Tok::Define(m) => {
                x.defs.insert(m.name.clone(), (**m).clone());
                i += 1;
            }
            Tok::Undef(n) => {
                x.defs.remove(n);
                i += 1;
            }
            Tok::Ident(w) if w == "inline" => {
                let (m, next) = inline_def(&toks, i, *sp)?;
                x.defs.insert(m.name.clone(), m);
                i = next;
            }
            _ => i = x.one(&toks, i, &mut active, &mut out, 0)?,
        }
    }
    Ok(out)
}

/// `inline NAME(a, b) { … }` starting at `at` (the `inline`): the macro and the index after it.
fn inline_def(toks: &[(Tok, Span)], at: usize, sp: Span) -> R<(Macro, usize)> {
    let bad = |k: usize, what: &str| {
        let s = toks.get(k).map_or(sp, |t| t.1);
        Diagnostic::at(s, format!("`inline`: expected {what}")).with_span(s, "here")
    };
    let name = match toks.get(at + 1) {
        Some((Tok::Ident(n), _)) => n.clone(),
        _ => return Err(bad(at + 1, "a name")),
    };
    if !matches!(toks.get(at + 2), Some((Tok::Punct("("), _))) {
        return Err(bad(at + 2, "`(`"));
    }
    let (params, mut k) = param_list(toks, at + 3).map_err(|k| bad(k, "a parameter name"))?;
    if !matches!(toks.get(k), Some((Tok::Punct("{"), _))) {
        return Err(bad(k, "`{`"));
    }
    let start = k;
    let mut depth = 0usize;
    loop {
        match toks.get(k) {
            Some((Tok::Punct("{"), _)) => depth += 1,
            Some((Tok::Punct("}"), _)) => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
            }
            Some((Tok::Eof, _)) | None => return Err(bad(start, "a matching `}`")),
            _ => {}
        }
        k += 1;
    }
    let body = toks.get(start..=k).unwrap_or_default().to_vec();
    Ok((
        Macro {
            name,
            params: Some(params),
            body,
        },
        k + 1,
    ))
}

/// Parameter names after `(` up to `)`: the names and the index after `)`, or the index of the
/// offending token.
pub(crate) fn param_list(
    toks: &[(Tok, Span)],
    mut k: usize,
) -> Result<(Vec<String>, usize), usize> {
    let mut params = Vec::new();
    if matches!(toks.get(k), Some((Tok::Punct(")"), _))) {
        return Ok((params, k + 1));
    }
    loop {
        match toks.get(k) {
            Some((Tok::Ident(p), _)) => params.push(p.clone()),
            _ => return Err(k),
        }
        match toks.get(k + 1) {
            Some((Tok::Punct(","), _)) => k += 2,
            Some((Tok::Punct(")"), _)) => return Ok((params, k + 2)),
            _ => return Err(k + 1),
        }
    }
}

impl Expander {
    fn push(&mut self, out: &mut Vec<(Tok, Span)>, t: (Tok, Span)) -> R<()> {
        self.produced += 1;
        if self.produced > MAX_TOKENS {
            return Err(
                Diagnostic::at(t.1, "macro expansion too large").with_span(t.1, "expanding here")
            );
        }
        out.push(t);
        Ok(())
    }

    /// Expands the token at `i` of `toks` into `out`; returns the index after what it consumed.
    /// `active`: the macros being expanded (not expanded again).
    fn one(
        &mut self,
        toks: &[(Tok, Span)],
        i: usize,
        active: &mut Vec<String>,
        out: &mut Vec<(Tok, Span)>,
        depth: usize,
    ) -> R<usize> {
        let Some((t, sp)) = toks.get(i).cloned() else {
            return Ok(i + 1);
        };
        let m = match &t {
            Tok::Ident(w) if !active.contains(w) => self.defs.get(w).cloned(),
            _ => None,
        };
        let Some(m) = m else {
            self.push(out, (t, sp))?;
            return Ok(i + 1);
        };
        if depth > MAX_DEPTH {
            return Err(Diagnostic::at(sp, "macro expansion nested too deeply")
                .with_span(sp, format!("expanding `{}`", m.name)));
        }
        let (body, next, use_span) = match &m.params {
            None => (m.body.clone(), i + 1, sp),
            Some(params) => {
                if !matches!(toks.get(i + 1), Some((Tok::Punct("("), _))) {
                    // A function-like macro's name without arguments is an ordinary name.
                    self.push(out, (t, sp))?;
                    return Ok(i + 1);
                }
                let (args, next) = arguments(toks, i + 2, sp)?;
                let use_span = sp.join(toks.get(next - 1).map_or(sp, |t| t.1));
                let args = if args.len() == 1
                    && params.is_empty()
                    && args.first().is_some_and(Vec::is_empty)
                {
                    Vec::new()
                } else {
                    args
                };
                if let Some(k) = args.iter().position(Vec::is_empty) {
                    return Err(Diagnostic::at(
                        use_span,
                        format!("`{}`: argument {} is empty", m.name, k + 1),
                    )
                    .with_span(use_span, "here"));
                }
                if args.len() != params.len() {
                    return Err(Diagnostic::at(
                        use_span,
                        format!(
                            "`{}` takes {} argument(s), {} given",
                            m.name,
                            params.len(),
                            args.len()
                        ),
                    )
                    .with_span(use_span, "here"));
                }
                let mut expanded = Vec::with_capacity(args.len());
                for a in &args {
                    let mut e = Vec::new();
                    let mut k = 0;
                    while k < a.len() {
                        k = self.one(a, k, active, &mut e, depth + 1)?;
                    }
                    expanded.push(e);
                }
                let mut body = Vec::with_capacity(m.body.len());
                for bt in &m.body {
                    match &bt.0 {
                        Tok::Ident(w) => match params.iter().position(|p| p == w) {
                            Some(k) => body.extend(expanded.get(k).into_iter().flatten().cloned()),
                            None => body.push(bt.clone()),
                        },
                        _ => body.push(bt.clone()),
                    }
                }
                (body, next, use_span)
            }
        };
        // Rescan the substituted body with this macro switched off; every token gets the use site.
        let body: Vec<(Tok, Span)> = body.into_iter().map(|(t, _)| (t, use_span)).collect();
        active.push(m.name.clone());
        let mut k = 0;
        while k < body.len() {
            k = self.one(&body, k, active, out, depth + 1)?;
        }
        active.pop();
        Ok(next)
    }
}

/// The arguments of a function-like macro call from just after its `(`: split at top-level
/// commas (parentheses, brackets and braces nest); the index after the closing `)`.
fn arguments(toks: &[(Tok, Span)], mut k: usize, sp: Span) -> R<(Vec<Tokens>, usize)> {
    let mut args = vec![Vec::new()];
    let mut depth = 0usize;
    while let Some(t) = toks.get(k) {
        match &t.0 {
            Tok::Eof => break,
            Tok::Punct("(" | "[" | "{") => depth += 1,
            Tok::Punct(")") if depth == 0 => return Ok((args, k + 1)),
            Tok::Punct(")" | "]" | "}") => depth = depth.saturating_sub(1),
            Tok::Punct(",") if depth == 0 => {
                args.push(Vec::new());
                k += 1;
                continue;
            }
            _ => {}
        }
        if let Some(a) = args.last_mut() {
            a.push(t.clone());
        }
        k += 1;
    }
    Err(Diagnostic::at(sp, "macro call without its closing `)`").with_span(sp, "call starts here"))
}
