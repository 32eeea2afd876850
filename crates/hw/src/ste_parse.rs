//! The `.ste` assertion format: STE assertions `A ==> C` whose antecedent and consequent are
//! formulas of Trajectory Evaluation Logic (Roorda, Claessen, *STAR: SAT-based assistance in
//! abstraction refinement for STE*, CAV'06 C19, §3 "Trajectory Evaluation Logic"; Tzoref,
//! Grumberg, *Automatic refinement and vacuity detection for STE*, CAV'06 C20, §2):
//! `f ::= n is p | f and f | p -> f | N f`.
//!
//! ```text
//! # a comment runs to the end of the line
//! assert read_hit:                      # a name, then the antecedent
//!     at 0: (we is 1 and addr0 is a0 and din is d)
//!     and at 1: (we is 0 and addr0 is a0)
//!     and when (a0 | !d) next next out is 1
//! ==> at 1: dout is d ;                 # the consequent, ended by `;`
//! ```
//!
//! * `NODE is VALUE` — `NODE` is an AIGER symbol name (input, latch or output), or `iK`, `lK`,
//!   `oK` (the K-th input, latch, output), or `vN` (AIG variable N, any gate). `VALUE` is `0`,
//!   `1`, a symbolic variable, `!var`, or a parenthesised propositional formula over symbolic
//!   variables (`&`, `|`, `^`, `!`, `->`, `<->`, as `verikit-logic`'s infix syntax).
//! * `when (P) f` — the guard `P → f`; `next f` — `N f`; `at T: f` — `N^T f`.
//! * `f and f`, `( f )`.
//!
//! Symbolic variables are the identifiers used inside values and guards; each assertion has its
//! own. Nodes are resolved against the circuit afterwards ([`Assertion::resolve`]), with the
//! same located errors.

use verikit_diag::{Diagnostic, SourceFile, Span};
use verikit_logic::{parse_infix, BoolExpr};

/// One flattened TEL constraint: under `guard`, node `node` at time `time` has value `value`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Atom {
    pub(crate) node: String,
    pub(crate) node_span: Span,
    pub(crate) time: usize,
    pub(crate) guard: BoolExpr,
    pub(crate) value: BoolExpr,
}

/// An STE assertion `A ==> C` as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Assertion {
    pub name: String,
    pub(crate) span: Span,
    pub(crate) ante: Vec<Atom>,
    pub(crate) cons: Vec<Atom>,
    /// Names of the symbolic variables (`BoolExpr::Var(i)` is `vars[i]`).
    pub vars: Vec<String>,
}

/// A parsed `.ste` file.
#[derive(Clone, Debug)]
pub struct SteFile {
    pub source: SourceFile,
    pub assertions: Vec<Assertion>,
}

/// Largest time point an assertion may mention (the simulation is unrolled that deep).
pub(crate) const MAX_TIME: usize = 10_000;

/// Reads a `.ste` file; errors are located `line:col`.
pub fn parse_ste(name: &str, text: &str) -> Result<SteFile, Diagnostic> {
    let source = SourceFile::new(name, text);
    let toks = lex(text).map_err(|d| d.with_source(source.clone()))?;
    let mut p = Parser {
        text,
        toks,
        pos: 0,
        vars: Vec::new(),
        depth: 0,
    };
    let mut assertions = Vec::new();
    while p.peek().is_some() {
        assertions.push(p.assertion().map_err(|d| d.with_source(source.clone()))?);
    }
    if assertions.is_empty() {
        return Err(
            Diagnostic::at(Span::point(text.len()), "no `assert` in the file").with_source(source),
        );
    }
    Ok(SteFile { source, assertions })
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    LParen,
    RParen,
    Colon,
    Semi,
    Implies,
    /// `(`…`)` after `is` or `when`: raw text handed to the formula parser.
    Raw(String),
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '[' | ']' | '$' | '!' | '\'')
}

fn lex(text: &str) -> Result<Vec<(Tok, Span)>, Diagnostic> {
    let mut out: Vec<(Tok, Span)> = Vec::new();
    let mut it = text.char_indices().peekable();
    while let Some(&(i, c)) = it.peek() {
        if c.is_whitespace() {
            it.next();
        } else if c == '#' {
            while it.peek().is_some_and(|&(_, c)| c != '\n') {
                it.next();
            }
        } else if c == '(' {
            let raw = matches!(out.last(), Some((Tok::Word(w), _)) if w == "is" || w == "when");
            if raw {
                // The balanced parenthesised text goes to the formula parser as is.
                let mut depth = 0usize;
                let mut end = None;
                for (j, d) in text.get(i..).unwrap_or("").char_indices() {
                    match d {
                        '(' if depth >= MAX_NESTING => {
                            return Err(Diagnostic::at(
                                Span::new(i + j, i + j + 1),
                                format!("nested deeper than {MAX_NESTING} levels"),
                            ))
                        }
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                end = Some(i + j);
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                let Some(end) = end else {
                    return Err(Diagnostic::at(Span::new(i, i + 1), "unclosed `(`"));
                };
                let inner = text.get(i + 1..end).unwrap_or("");
                out.push((Tok::Raw(inner.to_string()), Span::new(i + 1, end)));
                while it.peek().is_some_and(|&(j, _)| j <= end) {
                    it.next();
                }
            } else {
                it.next();
                out.push((Tok::LParen, Span::new(i, i + 1)));
            }
        } else if c == ')' {
            it.next();
            out.push((Tok::RParen, Span::new(i, i + 1)));
        } else if c == ':' {
            it.next();
            out.push((Tok::Colon, Span::new(i, i + 1)));
        } else if c == ';' {
            it.next();
            out.push((Tok::Semi, Span::new(i, i + 1)));
        } else if text.get(i..).is_some_and(|s| s.starts_with("==>")) {
            for _ in 0..3 {
                it.next();
            }
            out.push((Tok::Implies, Span::new(i, i + 3)));
        } else if is_word_char(c) {
            let mut end = i;
            while let Some(&(j, d)) = it.peek() {
                if !is_word_char(d) {
                    break;
                }
                end = j + d.len_utf8();
                it.next();
            }
            out.push((
                Tok::Word(text.get(i..end).unwrap_or("").to_string()),
                Span::new(i, end),
            ));
        } else {
            return Err(Diagnostic::at(
                Span::new(i, i + c.len_utf8()),
                format!("unexpected character `{c}`"),
            ));
        }
    }
    Ok(out)
}

struct Parser<'a> {
    text: &'a str,
    toks: Vec<(Tok, Span)>,
    pos: usize,
    vars: Vec<String>,
    depth: usize,
}

/// Deepest nesting of `(`, `next`, `at`, `when` accepted.
const MAX_NESTING: usize = 256;

/// Guard and time under which a sub-formula is read.
#[derive(Clone)]
struct Ctx {
    guard: BoolExpr,
    time: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|(t, _)| t)
    }
    fn span(&self) -> Span {
        self.toks
            .get(self.pos)
            .map(|(_, s)| *s)
            .unwrap_or(Span::point(self.text.len()))
    }
    fn next(&mut self) -> Option<(Tok, Span)> {
        let t = self.toks.get(self.pos).cloned();
        self.pos += 1;
        t
    }
    fn expect(&mut self, want: &Tok, what: &str) -> Result<Span, Diagnostic> {
        let sp = self.span();
        match self.next() {
            Some((t, s)) if &t == want => Ok(s),
            _ => Err(Diagnostic::at(sp, format!("expected {what}"))),
        }
    }
    fn word(&mut self, what: &str) -> Result<(String, Span), Diagnostic> {
        let sp = self.span();
        match self.next() {
            Some((Tok::Word(w), s)) => Ok((w, s)),
            _ => Err(Diagnostic::at(sp, format!("expected {what}"))),
        }
    }
    fn keyword(&mut self, kw: &str) -> Result<Span, Diagnostic> {
        let sp = self.span();
        match self.next() {
            Some((Tok::Word(w), s)) if w == kw => Ok(s),
            _ => Err(Diagnostic::at(sp, format!("expected `{kw}`"))),
        }
    }

    fn assertion(&mut self) -> Result<Assertion, Diagnostic> {
        let start = self.keyword("assert")?;
        let (name, _) = self.word("an assertion name")?;
        self.expect(&Tok::Colon, "`:` after the assertion name")?;
        self.vars.clear();
        let top = Ctx {
            guard: BoolExpr::Const(true),
            time: 0,
        };
        let mut ante = Vec::new();
        self.formula(&top, &mut ante)?;
        self.expect(&Tok::Implies, "`==>` between antecedent and consequent")?;
        let mut cons = Vec::new();
        self.formula(&top, &mut cons)?;
        let end = self.expect(&Tok::Semi, "`;` after the consequent")?;
        Ok(Assertion {
            name,
            span: start.join(end),
            ante,
            cons,
            vars: std::mem::take(&mut self.vars),
        })
    }

    fn formula(&mut self, ctx: &Ctx, out: &mut Vec<Atom>) -> Result<(), Diagnostic> {
        self.item(ctx, out)?;
        while matches!(self.peek(), Some(Tok::Word(w)) if w == "and") {
            self.next();
            self.item(ctx, out)?;
        }
        Ok(())
    }

    fn item(&mut self, ctx: &Ctx, out: &mut Vec<Atom>) -> Result<(), Diagnostic> {
        let sp = self.span();
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(Diagnostic::at(
                sp,
                format!("nested deeper than {MAX_NESTING} levels"),
            ));
        }
        let r = self.item_inner(ctx, out, sp);
        self.depth -= 1;
        r
    }

    fn item_inner(&mut self, ctx: &Ctx, out: &mut Vec<Atom>, sp: Span) -> Result<(), Diagnostic> {
        match self.next() {
            Some((Tok::LParen, _)) => {
                self.formula(ctx, out)?;
                self.expect(&Tok::RParen, "`)`")?;
                Ok(())
            }
            Some((Tok::Word(w), _)) if w == "next" => {
                let inner = Ctx {
                    guard: ctx.guard.clone(),
                    time: self.shift(ctx.time, 1, sp)?,
                };
                self.item(&inner, out)
            }
            Some((Tok::Word(w), _)) if w == "at" => {
                let (n, nsp) = self.word("a time point")?;
                let t: usize = n.parse().ok().filter(|&t| t <= MAX_TIME).ok_or_else(|| {
                    Diagnostic::at(nsp, format!("a time point from 0 to {MAX_TIME}"))
                })?;
                self.expect(&Tok::Colon, "`:` after the time point")?;
                let inner = Ctx {
                    guard: ctx.guard.clone(),
                    time: self.shift(ctx.time, t, nsp)?,
                };
                self.item(&inner, out)
            }
            Some((Tok::Word(w), _)) if w == "when" => {
                let g = self.value("a guard `(formula)`")?;
                let inner = Ctx {
                    guard: and(ctx.guard.clone(), g),
                    time: ctx.time,
                };
                self.item(&inner, out)
            }
            Some((Tok::Word(node), node_span)) if !is_keyword(&node) => {
                self.keyword("is")?;
                let value = self.value("a value: 0, 1, a variable or `(formula)`")?;
                out.push(Atom {
                    node,
                    node_span,
                    time: ctx.time,
                    guard: ctx.guard.clone(),
                    value,
                });
                Ok(())
            }
            _ => Err(Diagnostic::at(
                sp,
                "expected `NODE is VALUE`, `when (P)`, `next`, `at T:` or `(`",
            )),
        }
    }

    fn shift(&self, t: usize, by: usize, sp: Span) -> Result<usize, Diagnostic> {
        t.checked_add(by)
            .filter(|&t| t <= MAX_TIME)
            .ok_or_else(|| Diagnostic::at(sp, format!("time beyond {MAX_TIME}")))
    }

    /// A value or guard: `0`, `1`, a variable, `!var`, or `( formula )`.
    fn value(&mut self, what: &str) -> Result<BoolExpr, Diagnostic> {
        let sp = self.span();
        let (text, base) = match self.next() {
            Some((Tok::Word(w), s)) if !is_keyword(&w) => (w, s.start),
            Some((Tok::Raw(r), s)) => (r, s.start),
            _ => return Err(Diagnostic::at(sp, format!("expected {what}"))),
        };
        let vars = &mut self.vars;
        parse_infix(&text, base, &mut |name, span| match name {
            "0" | "false" => Ok(BoolExpr::Const(false)),
            "1" | "true" => Ok(BoolExpr::Const(true)),
            _ if name.chars().next().is_some_and(|c| c.is_ascii_digit()) => Err(Diagnostic::at(
                span,
                format!("`{name}` is not a symbolic variable (values are 0, 1 or names)"),
            )),
            _ => {
                let i = match vars.iter().position(|v| v == name) {
                    Some(i) => i,
                    None => {
                        vars.push(name.to_string());
                        vars.len() - 1
                    }
                };
                Ok(BoolExpr::Var(i as u32))
            }
        })
    }
}

fn is_keyword(w: &str) -> bool {
    matches!(w, "assert" | "is" | "and" | "when" | "next" | "at")
}

pub(crate) fn and(a: BoolExpr, b: BoolExpr) -> BoolExpr {
    match (a, b) {
        (BoolExpr::Const(true), x) | (x, BoolExpr::Const(true)) => x,
        (a, b) => BoolExpr::And(vec![a, b]),
    }
}
