//! The TLSF 1.1 parser: sections `INFO`, `GLOBAL` (`PARAMETERS`, `DEFINITIONS`) and `MAIN`
//! (`INPUTS`, `OUTPUTS`, `INITIALLY`, `PRESET`, `REQUIRE`, `ASSERT`/`INVARIANTS`,
//! `ASSUME`/`ASSUMPTIONS`, `GUARANTEE`/`GUARANTEES`), and expressions with the precedence and
//! associativity of syfco's operator table (`Reader/Parser/Expression.hs`): numeric operators bind
//! tightest, then set operators, comparisons, membership, the unary operators (`!`, `X`, `G`, `F`,
//! the bounded `X[n]`/`G[a:b]`/`F[a:b]` and the big `&&[…]`/`||[…]`), `&&`, `||`, `->`/`<->`
//! (right), `W` (right), `U` (right), `R` (left) and the guard colon `:` (left), lowest.

use super::lex::{Tok, Token};
use crate::error::SyntError;
use verikit_diag::{Diagnostic, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Mul,
    Div,
    Mod,
    Add,
    Sub,
    SetMinus,
    Cap,
    Cup,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    And,
    Or,
    Implies,
    Equiv,
    W,
    U,
    R,
    Colon,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Un {
    Not,
    X,
    G,
    F,
    SizeOf,
    Size,
    Min,
    Max,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Big {
    And,
    Or,
    Sum,
    Prod,
    Cup,
    Cap,
}

#[derive(Clone, Debug)]
pub(crate) enum E {
    Num(i64),
    True,
    False,
    Otherwise,
    Id(String),
    Call(String, Vec<Ex>),
    Bus(String, Box<Ex>),
    Un(Un, Box<Ex>),
    Bin(Op, Box<Ex>, Box<Ex>),
    /// Three or more operands of one level: `first op1 x1 op2 x2 …`, folded to the right when
    /// the flag is set.
    Chain(bool, Box<Ex>, Vec<(Op, Ex)>),
    Big(Big, Vec<Ex>, Box<Ex>),
    /// `X[n] φ`, `G[a:b] φ`, `F[a:b] φ`.
    Bounded(Un, Box<Ex>, Box<Ex>),
    SetExplicit(Vec<Ex>),
    /// `{a, b .. c}` (step `b - a`) or `{a .. c}`.
    SetRange(Box<Ex>, Option<Box<Ex>>, Box<Ex>),
}

#[derive(Clone, Debug)]
pub(crate) struct Ex {
    pub(crate) e: E,
    pub(crate) span: Span,
}

/// `name(params) = case…;` or `name = expr;`.
#[derive(Clone, Debug)]
pub(crate) struct Def {
    pub(crate) name: String,
    pub(crate) span: Span,
    pub(crate) params: Option<Vec<String>>,
    pub(crate) body: Vec<Ex>,
}

#[derive(Clone, Debug)]
pub(crate) struct SignalDecl {
    pub(crate) name: String,
    pub(crate) span: Span,
    pub(crate) width: Option<Ex>,
    /// The enumeration type of a typed declaration (`hburst HBURST;`).
    pub(crate) ty: Option<(String, Span)>,
}

/// `enum name = V1: 01 V2: 1* …;` — each value a bit pattern (`*`: either value), character `i`
/// the bit `i` of a signal of this type.
#[derive(Clone, Debug)]
pub(crate) struct EnumDecl {
    pub(crate) name: String,
    pub(crate) span: Span,
    pub(crate) values: Vec<(String, Span, Vec<Option<bool>>)>,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Ast {
    /// `(key, words, span)` of the INFO section.
    pub(crate) info: Vec<(String, Vec<String>, Span)>,
    pub(crate) params: Vec<Def>,
    pub(crate) defs: Vec<Def>,
    pub(crate) enums: Vec<EnumDecl>,
    pub(crate) inputs: Vec<SignalDecl>,
    pub(crate) outputs: Vec<SignalDecl>,
    pub(crate) initially: Vec<Ex>,
    pub(crate) preset: Vec<Ex>,
    pub(crate) require: Vec<Ex>,
    pub(crate) assume: Vec<Ex>,
    pub(crate) assert: Vec<Ex>,
    pub(crate) guarantee: Vec<Ex>,
    pub(crate) has_main: bool,
}

/// Nesting limit of expressions (parentheses, operators): deeper input is refused, not a stack
/// overflow.
const MAX_DEPTH: usize = 1000;

pub(crate) struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
}

fn err(span: Span, msg: impl Into<String>) -> SyntError {
    SyntError::syntax(Diagnostic::at(span, msg))
}

fn unsupported(span: Span, msg: impl Into<String>) -> SyntError {
    SyntError::unsupported(Diagnostic::at(span, msg))
}

impl Parser {
    pub(crate) fn new(toks: Vec<Token>) -> Parser {
        Parser {
            toks,
            pos: 0,
            depth: 0,
        }
    }

    fn peek(&self) -> &Tok {
        self.toks.get(self.pos).map(|t| &t.tok).unwrap_or(&Tok::Eof)
    }
    fn peek_at(&self, k: usize) -> &Tok {
        self.toks
            .get(self.pos + k)
            .map(|t| &t.tok)
            .unwrap_or(&Tok::Eof)
    }
    fn span(&self) -> Span {
        self.toks
            .get(self.pos)
            .or(self.toks.last())
            .map(|t| t.span)
            .unwrap_or_default()
    }
    fn prev_end(&self) -> usize {
        self.pos
            .checked_sub(1)
            .and_then(|p| self.toks.get(p))
            .map(|t| t.span.end)
            .unwrap_or(0)
    }
    fn bump(&mut self) -> Token {
        let t = self.toks.get(self.pos).cloned().unwrap_or(Token {
            tok: Tok::Eof,
            span: Span::default(),
        });
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
        t
    }
    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Sym(x) if *x == s)
    }
    fn is_ident(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Ident(x) if x == s)
    }
    fn eat_sym(&mut self, s: &str) -> bool {
        if self.is_sym(s) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect_sym(&mut self, s: &str) -> Result<Span, SyntError> {
        if self.is_sym(s) {
            Ok(self.bump().span)
        } else {
            Err(err(
                self.span(),
                format!("expected `{s}`, found {}", describe(self.peek())),
            ))
        }
    }
    fn ident(&mut self) -> Result<(String, Span), SyntError> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                let t = self.bump();
                Ok((s, t.span))
            }
            t => Err(err(
                self.span(),
                format!("expected a name, found {}", describe(&t)),
            )),
        }
    }

    pub(crate) fn file(&mut self) -> Result<Ast, SyntError> {
        let mut ast = Ast::default();
        loop {
            let (name, sp) = match self.peek() {
                Tok::Eof => break,
                _ => self.ident()?,
            };
            self.expect_sym("{")?;
            match name.as_str() {
                "INFO" => self.info(&mut ast)?,
                "GLOBAL" => self.global(&mut ast)?,
                "MAIN" => {
                    ast.has_main = true;
                    self.main(&mut ast)?
                }
                _ => {
                    return Err(err(
                        sp,
                        format!("unknown section `{name}` (expected INFO, GLOBAL or MAIN)"),
                    ))
                }
            }
        }
        if !ast.has_main {
            return Err(err(Span::point(self.prev_end()), "missing MAIN section"));
        }
        Ok(ast)
    }

    fn info(&mut self, ast: &mut Ast) -> Result<(), SyntError> {
        while !self.eat_sym("}") {
            let (key, sp) = self.ident()?;
            self.expect_sym(":")?;
            let mut words = Vec::new();
            // A value runs to the next `KEY :` or the closing brace.
            loop {
                match self.peek().clone() {
                    Tok::Sym("}") => break,
                    Tok::Ident(_) if matches!(self.peek_at(1), Tok::Sym(":")) => break,
                    Tok::Ident(w) | Tok::Str(w) => {
                        self.bump();
                        words.push(w)
                    }
                    Tok::Num(n) => {
                        self.bump();
                        words.push(n.to_string())
                    }
                    Tok::Sym(",") | Tok::Sym(";") => {
                        self.bump();
                    }
                    t => {
                        return Err(err(
                            self.span(),
                            format!("unexpected {} in INFO", describe(&t)),
                        ))
                    }
                }
            }
            ast.info.push((key, words, sp));
        }
        Ok(())
    }

    fn global(&mut self, ast: &mut Ast) -> Result<(), SyntError> {
        while !self.eat_sym("}") {
            let (name, sp) = self.ident()?;
            self.expect_sym("{")?;
            match name.as_str() {
                "PARAMETERS" => {
                    let d = self.defs(&mut Vec::new())?;
                    ast.params.extend(d)
                }
                "DEFINITIONS" => {
                    let d = self.defs(&mut ast.enums)?;
                    ast.defs.extend(d)
                }
                _ => {
                    return Err(err(
                        sp,
                        format!(
                            "unknown GLOBAL block `{name}` (expected PARAMETERS or DEFINITIONS)"
                        ),
                    ))
                }
            }
        }
        Ok(())
    }

    fn defs(&mut self, enums: &mut Vec<EnumDecl>) -> Result<Vec<Def>, SyntError> {
        let mut out = Vec::new();
        while !self.eat_sym("}") {
            if self.is_ident("enum") && matches!(self.peek_at(1), Tok::Ident(_)) {
                self.bump();
                enums.push(self.enum_decl()?);
                continue;
            }
            let (name, span) = self.ident()?;
            let params = if self.eat_sym("(") {
                let mut ps = Vec::new();
                if !self.eat_sym(")") {
                    loop {
                        ps.push(self.ident()?.0);
                        if self.eat_sym(")") {
                            break;
                        }
                        self.expect_sym(",")?;
                    }
                }
                Some(ps)
            } else {
                None
            };
            self.expect_sym("=")?;
            let mut body = vec![self.expr()?];
            while !self.is_sym(";") && !self.is_sym("}") {
                body.push(self.expr()?);
            }
            self.eat_sym(";");
            out.push(Def {
                name,
                span,
                params,
                body,
            });
        }
        Ok(out)
    }

    /// After `enum`: `name = (VALUE : PATTERN)+ ;`. A pattern is a run of `0`, `1`, `*`
    /// (scanned as numbers and `*` symbols: the digits are read back from each number's span,
    /// leading zeros included).
    fn enum_decl(&mut self) -> Result<EnumDecl, SyntError> {
        let (name, span) = self.ident()?;
        self.expect_sym("=")?;
        let mut values: Vec<(String, Span, Vec<Option<bool>>)> = Vec::new();
        while !self.eat_sym(";") {
            if self.is_sym("}") {
                break;
            }
            let (v, vspan) = self.ident()?;
            self.expect_sym(":")?;
            let mut bits = Vec::new();
            loop {
                match self.peek().clone() {
                    Tok::Num(n) => {
                        let t = self.bump();
                        let digits = n.to_string();
                        let zeros = (t.span.end - t.span.start).saturating_sub(digits.len());
                        for c in "0".repeat(zeros).chars().chain(digits.chars()) {
                            match c {
                                '0' => bits.push(Some(false)),
                                '1' => bits.push(Some(true)),
                                _ => {
                                    return Err(err(
                                        t.span,
                                        format!("enum value `{v}`: a pattern has only 0, 1 and *"),
                                    ))
                                }
                            }
                        }
                    }
                    Tok::Sym("*") => {
                        self.bump();
                        bits.push(None);
                    }
                    _ => break,
                }
            }
            if bits.is_empty() {
                return Err(err(
                    self.span(),
                    format!("enum value `{v}` needs a bit pattern (0, 1, *)"),
                ));
            }
            if let Some((_, _, first)) = values.first() {
                if first.len() != bits.len() {
                    return Err(err(
                        vspan,
                        format!(
                            "enum `{name}`: value `{v}` has {} bits, the first value {}",
                            bits.len(),
                            first.len()
                        ),
                    ));
                }
            }
            values.push((v, vspan, bits));
        }
        if values.is_empty() {
            return Err(err(span, format!("enum `{name}` has no values")));
        }
        Ok(EnumDecl { name, span, values })
    }

    fn main(&mut self, ast: &mut Ast) -> Result<(), SyntError> {
        while !self.eat_sym("}") {
            let (name, sp) = self.ident()?;
            self.expect_sym("{")?;
            match name.as_str() {
                "INPUTS" => {
                    let s = self.signals()?;
                    ast.inputs.extend(s)
                }
                "OUTPUTS" => {
                    let s = self.signals()?;
                    ast.outputs.extend(s)
                }
                _ => {
                    let fs = self.formulas()?;
                    let target = match name.as_str() {
                        "INITIALLY" => &mut ast.initially,
                        "PRESET" => &mut ast.preset,
                        "REQUIRE" | "REQUIREMENTS" => &mut ast.require,
                        "ASSUME" | "ASSUMPTIONS" => &mut ast.assume,
                        "ASSERT" | "INVARIANTS" => &mut ast.assert,
                        "GUARANTEE" | "GUARANTEES" => &mut ast.guarantee,
                        _ => {
                            return Err(err(
                                sp,
                                format!(
                                    "unknown MAIN block `{name}` (expected INPUTS, OUTPUTS, \
                                     INITIALLY, PRESET, REQUIRE, ASSUME, ASSERT or GUARANTEE)"
                                ),
                            ))
                        }
                    };
                    target.extend(fs)
                }
            }
        }
        Ok(())
    }

    fn signals(&mut self) -> Result<Vec<SignalDecl>, SyntError> {
        let mut out = Vec::new();
        while !self.eat_sym("}") {
            if self.eat_sym(";") {
                continue;
            }
            let (mut name, mut span) = self.ident()?;
            let mut ty = None;
            if matches!(self.peek(), Tok::Ident(_)) {
                let (n, s) = self.ident()?;
                ty = Some((std::mem::replace(&mut name, n), span));
                span = s;
            }
            let width = if self.eat_sym("[") {
                let w = self.expr()?;
                self.expect_sym("]")?;
                Some(w)
            } else {
                None
            };
            if let (Some((t, _)), Some(w)) = (&ty, &width) {
                return Err(unsupported(
                    w.span,
                    format!("a bus of enumeration type (`{t} {name}[…]`) is not supported"),
                ));
            }
            out.push(SignalDecl {
                name,
                span,
                width,
                ty,
            });
            if !self.is_sym("}") {
                self.expect_sym(";")?;
            }
        }
        Ok(out)
    }

    fn formulas(&mut self) -> Result<Vec<Ex>, SyntError> {
        let mut out = Vec::new();
        while !self.eat_sym("}") {
            if self.eat_sym(";") {
                continue;
            }
            out.push(self.expr()?);
            if !self.is_sym("}") {
                self.expect_sym(";")?;
            }
        }
        Ok(out)
    }

    pub(crate) fn expr(&mut self) -> Result<Ex, SyntError> {
        self.nest(|p| p.level(LEVELS.len()))
    }

    /// Level `l` of the table (0 = terms).
    fn level(&mut self, l: usize) -> Result<Ex, SyntError> {
        if l == 0 {
            return self.term();
        }
        match LEVELS[l - 1] {
            Level::Prefix(kind) => self.prefix(kind, l),
            Level::Infix(ops, right) => {
                // Chains are kept flat (no recursion per operand): `a && b && …` of any length.
                let first = self.level(l - 1)?;
                let mut rest = Vec::new();
                while let Some(op) = self.infix_op(ops) {
                    rest.push((op, self.level(l - 1)?));
                }
                let span = rest
                    .last()
                    .map_or(first.span, |(_, x)| first.span.join(x.span));
                if rest.len() == 1 {
                    if let Some((op, rhs)) = rest.pop() {
                        return Ok(Ex {
                            e: E::Bin(op, Box::new(first), Box::new(rhs)),
                            span,
                        });
                    }
                }
                if rest.is_empty() {
                    return Ok(first);
                }
                Ok(Ex {
                    e: E::Chain(right, Box::new(first), rest),
                    span,
                })
            }
        }
    }

    /// Counts one level of nesting (parentheses, brackets, arguments, prefix operators).
    fn nest<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, SyntError>,
    ) -> Result<T, SyntError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(err(self.span(), "expression nested too deeply"));
        }
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn infix_op(&mut self, ops: &[(&str, Op)]) -> Option<Op> {
        let word = match self.peek() {
            Tok::Sym(s) => *s,
            Tok::Ident(s) => s.as_str(),
            _ => return None,
        };
        let op = ops.iter().find(|(w, _)| *w == word).map(|(_, o)| *o)?;
        // `W`, `U`, `R` used as a big operator's bracket would be a name: infix only.
        self.pos += 1;
        Some(op)
    }

    fn prefix(&mut self, kind: PrefixKind, l: usize) -> Result<Ex, SyntError> {
        let start = self.span();
        let word = match self.peek() {
            Tok::Sym(s) => s.to_string(),
            Tok::Ident(s) => s.clone(),
            _ => String::new(),
        };
        let bracket = matches!(self.peek_at(1), Tok::Sym("["));
        let p = match (kind, word.as_str(), bracket) {
            (PrefixKind::Num, "SIZEOF", _) => Some(P::Un(Un::SizeOf)),
            (PrefixKind::Num, "SIZE", _) => Some(P::Un(Un::Size)),
            (PrefixKind::Num, "MIN", _) => Some(P::Un(Un::Min)),
            (PrefixKind::Num, "MAX", _) => Some(P::Un(Un::Max)),
            (PrefixKind::Num, "SUM", true) => Some(P::Big(Big::Sum)),
            (PrefixKind::Num, "PROD", true) => Some(P::Big(Big::Prod)),
            (PrefixKind::Set, "(+)" | "CUP", true) => Some(P::Big(Big::Cup)),
            (PrefixKind::Set, "(*)" | "CAP", true) => Some(P::Big(Big::Cap)),
            (PrefixKind::Ltl, "!" | "NOT", _) => Some(P::Un(Un::Not)),
            (PrefixKind::Ltl, "X" | "G" | "F", true) => Some(P::Bounded(match word.as_str() {
                "X" => Un::X,
                "G" => Un::G,
                _ => Un::F,
            })),
            (PrefixKind::Ltl, "X", false) => Some(P::Un(Un::X)),
            (PrefixKind::Ltl, "G", false) => Some(P::Un(Un::G)),
            (PrefixKind::Ltl, "F", false) => Some(P::Un(Un::F)),
            (PrefixKind::Ltl, "&&" | "AND" | "FORALL", true) => Some(P::Big(Big::And)),
            (PrefixKind::Ltl, "||" | "OR" | "EXISTS", true) => Some(P::Big(Big::Or)),
            (PrefixKind::Ltl, "Y" | "H" | "O", _) => {
                return Err(unsupported(
                    start,
                    format!("past-time operator `{word}` is not supported"),
                ))
            }
            _ => None,
        };
        let Some(p) = p else {
            return self.level(l - 1);
        };
        self.pos += 1;
        self.nest(|this| this.prefix_operand(p, start, &word, l))
    }

    fn prefix_operand(&mut self, p: P, start: Span, word: &str, l: usize) -> Result<Ex, SyntError> {
        let r = match p {
            P::Un(u) => {
                let a = self.level(l)?;
                Ex {
                    span: start.join(a.span),
                    e: E::Un(u, Box::new(a)),
                }
            }
            P::Big(b) => {
                self.expect_sym("[")?;
                let mut ranges = vec![self.expr()?];
                while self.eat_sym(",") {
                    ranges.push(self.expr()?);
                }
                self.expect_sym("]")?;
                let a = self.level(l)?;
                Ex {
                    span: start.join(a.span),
                    e: E::Big(b, ranges, Box::new(a)),
                }
            }
            P::Bounded(u) => {
                self.expect_sym("[")?;
                if self.is_sym("!") {
                    return Err(unsupported(
                        self.span(),
                        format!("strong bounded operator `{word}[!…]` is not supported"),
                    ));
                }
                let n = self.expr()?;
                self.expect_sym("]")?;
                let a = self.level(l)?;
                Ex {
                    span: start.join(a.span),
                    e: E::Bounded(u, Box::new(n), Box::new(a)),
                }
            }
        };
        Ok(r)
    }

    fn term(&mut self) -> Result<Ex, SyntError> {
        let start = self.span();
        let t = self.peek().clone();
        match t {
            Tok::Sym("(") => {
                self.bump();
                let mut e = self.expr()?;
                let end = self.expect_sym(")")?;
                e.span = start.join(end);
                Ok(e)
            }
            Tok::Sym("|") => {
                self.bump();
                let e = self.expr()?;
                let end = self.expect_sym("|")?;
                Ok(Ex {
                    e: E::Un(Un::Size, Box::new(e)),
                    span: start.join(end),
                })
            }
            Tok::Sym("{") => {
                self.bump();
                let mut items = Vec::new();
                if self.eat_sym("}") {
                    return Ok(Ex {
                        e: E::SetExplicit(items),
                        span: start.join(Span::point(self.prev_end())),
                    });
                }
                items.push(self.expr()?);
                if self.eat_sym("..") {
                    let hi = self.expr()?;
                    let end = self.expect_sym("}")?;
                    let lo = items
                        .pop()
                        .map(Box::new)
                        .ok_or_else(|| err(start, "empty range"))?;
                    return Ok(Ex {
                        e: E::SetRange(lo, None, Box::new(hi)),
                        span: start.join(end),
                    });
                }
                while self.eat_sym(",") {
                    items.push(self.expr()?);
                    if items.len() == 2 && self.eat_sym("..") {
                        let hi = self.expr()?;
                        let end = self.expect_sym("}")?;
                        let mut it = items.into_iter();
                        let (Some(a), Some(b)) = (it.next(), it.next()) else {
                            return Err(err(start, "bad range"));
                        };
                        return Ok(Ex {
                            e: E::SetRange(Box::new(a), Some(Box::new(b)), Box::new(hi)),
                            span: start.join(end),
                        });
                    }
                }
                let end = self.expect_sym("}")?;
                Ok(Ex {
                    e: E::SetExplicit(items),
                    span: start.join(end),
                })
            }
            Tok::Num(n) => {
                self.bump();
                Ok(Ex {
                    e: E::Num(n),
                    span: start,
                })
            }
            Tok::Ident(name) => {
                let e = match name.as_str() {
                    "true" => E::True,
                    "false" => E::False,
                    "otherwise" => E::Otherwise,
                    "_" => {
                        return Err(unsupported(
                            start,
                            "pattern wildcards (`_`) are not supported",
                        ))
                    }
                    _ if RESERVED.contains(&name.as_str()) => {
                        return Err(err(
                            start,
                            format!("unexpected operator `{name}` (an operand was expected)"),
                        ))
                    }
                    _ => E::Id(name.clone()),
                };
                self.bump();
                if !matches!(e, E::Id(_)) {
                    return Ok(Ex { e, span: start });
                }
                if self.is_sym("(") {
                    self.bump();
                    let mut args = Vec::new();
                    if !self.is_sym(")") {
                        args.push(self.expr()?);
                        while self.eat_sym(",") {
                            args.push(self.expr()?);
                        }
                    }
                    let end = self.expect_sym(")")?;
                    return Ok(Ex {
                        e: E::Call(name, args),
                        span: start.join(end),
                    });
                }
                if self.is_sym("[") {
                    self.bump();
                    let i = self.expr()?;
                    let end = self.expect_sym("]")?;
                    return Ok(Ex {
                        e: E::Bus(name, Box::new(i)),
                        span: start.join(end),
                    });
                }
                Ok(Ex { e, span: start })
            }
            t => Err(err(
                start,
                format!("expected an expression, found {}", describe(&t)),
            )),
        }
    }
}

/// Names that are operators, never signals or definitions.
const RESERVED: &[&str] = &[
    "X", "G", "F", "U", "W", "R", "S", "T", "Y", "H", "O", "NOT", "AND", "OR", "IMPLIES", "EQUIV",
    "PLUS", "MINUS", "MUL", "DIV", "MOD", "SIZE", "SIZEOF", "MIN", "MAX", "SETMINUS", "CAP", "CUP",
    "SUM", "PROD", "IN", "ELEM", "EQ", "NEQ", "LE", "GE", "LEQ", "GEQ",
];

fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => format!("`{s}`"),
        Tok::Num(n) => format!("`{n}`"),
        Tok::Str(_) => "a string".into(),
        Tok::Sym(s) => format!("`{s}`"),
        Tok::Eof => "the end of the file".into(),
    }
}

enum P {
    Un(Un),
    Big(Big),
    Bounded(Un),
}

#[derive(Clone, Copy)]
enum PrefixKind {
    Num,
    Set,
    Ltl,
}

#[derive(Clone, Copy)]
enum Level {
    Prefix(PrefixKind),
    /// Operators of one level and whether they associate to the right.
    Infix(&'static [(&'static str, Op)], bool),
}

/// syfco's table, tightest first.
const LEVELS: &[Level] = &[
    Level::Prefix(PrefixKind::Num),
    Level::Infix(&[("*", Op::Mul), ("MUL", Op::Mul)], false),
    Level::Infix(
        &[
            ("/", Op::Div),
            ("DIV", Op::Div),
            ("%", Op::Mod),
            ("MOD", Op::Mod),
        ],
        true,
    ),
    Level::Infix(
        &[
            ("+", Op::Add),
            ("PLUS", Op::Add),
            ("-", Op::Sub),
            ("MINUS", Op::Sub),
        ],
        false,
    ),
    Level::Prefix(PrefixKind::Set),
    Level::Infix(
        &[
            ("(-)", Op::SetMinus),
            ("(\\)", Op::SetMinus),
            ("SETMINUS", Op::SetMinus),
        ],
        true,
    ),
    Level::Infix(&[("(*)", Op::Cap), ("CAP", Op::Cap)], false),
    Level::Infix(&[("(+)", Op::Cup), ("CUP", Op::Cup)], false),
    Level::Infix(
        &[
            ("==", Op::Eq),
            ("EQ", Op::Eq),
            ("/=", Op::Neq),
            ("!=", Op::Neq),
            ("NEQ", Op::Neq),
            (">", Op::Gt),
            ("GE", Op::Gt),
            (">=", Op::Ge),
            ("GEQ", Op::Ge),
            ("<", Op::Lt),
            ("LE", Op::Lt),
            ("<=", Op::Le),
            ("LEQ", Op::Le),
        ],
        false,
    ),
    Level::Infix(&[("<-", Op::In), ("IN", Op::In), ("ELEM", Op::In)], false),
    Level::Prefix(PrefixKind::Ltl),
    Level::Infix(&[("&&", Op::And), ("AND", Op::And)], false),
    Level::Infix(&[("||", Op::Or), ("OR", Op::Or)], false),
    Level::Infix(
        &[
            ("->", Op::Implies),
            ("IMPLIES", Op::Implies),
            ("<->", Op::Equiv),
            ("EQUIV", Op::Equiv),
        ],
        true,
    ),
    Level::Infix(&[("W", Op::W)], true),
    Level::Infix(&[("U", Op::U)], true),
    Level::Infix(&[("R", Op::R)], false),
    Level::Infix(&[(":", Op::Colon)], false),
];
