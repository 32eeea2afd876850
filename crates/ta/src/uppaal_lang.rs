//! UPPAAL's C-like declaration, expression and statement language (declarations, guards,
//! invariants, updates, `select`, the `system` block and query formulas): a lexer and a
//! recursive-descent parser producing an unresolved syntax tree with byte spans into the model
//! file.
//!
//! Seed: SETTA'17 Schivo et al., "How to efficiently build a front-end tool for UPPAAL" (S19),
//! §2–3 (the UPPAAL model a front end must produce: templates, declarations, instantiation and
//! queries); the grammar follows the UPPAAL 4/5 language reference (operators and precedences
//! of C, `imply`/`and`/`or`/`not`, `forall`/`exists`/`sum`, ranged `int[a,b]`, `for (i : T)`).

use verikit_diag::{
    digits_end, ident_end, is_ident_start, skip_trivia, Diagnostic, Span, UNTERMINATED_COMMENT,
};

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Int(i64),
    Ident(String),
    Op(&'static str),
    End,
}

const OPS: [&str; 53] = [
    "<<=", ">>=", "-->", "<?", ">?", ":=", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=",
    "/=", "%=", "|=", "&=", "^=", "<<", ">>", "++", "--", "->", "<", ">", "=", "!", "+", "-", "*",
    "/", "%", "(", ")", "[", "]", ";", ",", "{", "}", "&", "|", "^", "~", "?", ":", ".", "'", "@",
    "#", "$",
];

const MAX_DEPTH: usize = 150;

/// Lexes `text` whose first byte is at `base` in the file (comments `//`, `/* */` skipped).
pub(crate) fn lex(text: &str, base: &[usize]) -> Result<Vec<(Tok, Span)>, Diagnostic> {
    let b = text.as_bytes();
    let at = |i: usize| {
        base.get(i)
            .copied()
            .unwrap_or_else(|| base.last().map_or(0, |x| x + 1))
    };
    let sp = |i: usize, j: usize| Span::new(at(i), at(j.saturating_sub(1)) + 1);
    let mut out = Vec::new();
    let mut i = 0;
    loop {
        i = skip_trivia(b, i).map_err(|s| Diagnostic::at(sp(s, s + 2), UNTERMINATED_COMMENT))?;
        let Some(&c) = b.get(i) else {
            break;
        };
        let start = i;
        if c.is_ascii_digit() {
            i = digits_end(b, i);
            if i < b.len() && (b[i] == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
                return Err(Diagnostic::at(
                    sp(start, i + 1),
                    "floating-point numbers (`double`, SMC) are not supported",
                ));
            }
            let v: i64 = text[start..i]
                .parse()
                .map_err(|_| Diagnostic::at(sp(start, i), "integer literal too large"))?;
            out.push((Tok::Int(v), sp(start, i)));
            continue;
        }
        if is_ident_start(c) {
            i = ident_end(b, i);
            out.push((Tok::Ident(text[start..i].to_string()), sp(start, i)));
            continue;
        }
        let Some(op) = OPS.iter().find(|o| b[i..].starts_with(o.as_bytes())) else {
            let ch = text[i..].chars().next().unwrap_or('?');
            return Err(Diagnostic::at(
                sp(start, start + ch.len_utf8()),
                format!("unexpected character `{ch}`"),
            ));
        };
        i += op.len();
        out.push((Tok::Op(op), sp(start, i)));
    }
    let end = at(b.len());
    out.push((Tok::End, Span::new(end, end)));
    Ok(out)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Un {
    Neg,
    Not,
    BitNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Quant {
    Forall,
    Exists,
    Sum,
}

/// An unresolved expression.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum UExpr {
    Int(i64, Span),
    Name(String, Span),
    Index(Box<UExpr>, Box<UExpr>, Span),
    Field(Box<UExpr>, String, Span),
    Call(Box<UExpr>, Vec<UExpr>, Span),
    Unary(Un, Box<UExpr>, Span),
    /// Binary operator by its text (`+`, `&&`, `imply`, `<?`, …).
    Bin(&'static str, Box<UExpr>, Box<UExpr>, Span),
    Ite(Box<UExpr>, Box<UExpr>, Box<UExpr>, Span),
    /// Assignment by its operator text (`=`, `+=`, …; `:=` is `=`).
    Assign(&'static str, Box<UExpr>, Box<UExpr>, Span),
    /// `++`/`--`, prefix or postfix (same effect as a statement).
    Step(bool, Box<UExpr>, Span),
    Quant(Quant, String, Box<UType>, Box<UExpr>, Span),
    Deadlock(Span),
}

impl UExpr {
    pub(crate) fn span(&self) -> Span {
        match self {
            UExpr::Int(_, s)
            | UExpr::Name(_, s)
            | UExpr::Index(_, _, s)
            | UExpr::Field(_, _, s)
            | UExpr::Call(_, _, s)
            | UExpr::Unary(_, _, s)
            | UExpr::Bin(_, _, _, s)
            | UExpr::Ite(_, _, _, s)
            | UExpr::Assign(_, _, _, s)
            | UExpr::Step(_, _, s)
            | UExpr::Quant(_, _, _, _, s)
            | UExpr::Deadlock(s) => *s,
        }
    }
}

/// The base of a type.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Base {
    /// `int` or `int[lo,hi]`.
    Int(Option<(UExpr, UExpr)>),
    Bool,
    Clock,
    Chan,
    Void,
    /// A typedef name.
    Named(String),
    /// `struct { T f; … }`: its fields (type, name, array dimensions) in declaration order.
    Struct(Vec<UField>),
    /// `scalar[n]`: a set of `n` values compared only for equality.
    Scalar(Box<UExpr>),
    /// A construct recognised only to be refused by name (`double`, `string`).
    Unsupported(String),
}

/// A type with its prefixes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct UType {
    pub(crate) base: Base,
    pub(crate) is_const: bool,
    pub(crate) urgent: bool,
    pub(crate) broadcast: bool,
    /// Another prefix refused by name (`meta`, `hybrid`).
    pub(crate) unsupported: Option<String>,
    pub(crate) span: Span,
}

/// A field of a `struct` type.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct UField {
    pub(crate) ty: UType,
    pub(crate) name: String,
    pub(crate) dims: Vec<UExpr>,
    pub(crate) span: Span,
}

/// `= e` or `= { … }`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Init {
    Expr(UExpr),
    List(Vec<Init>, Span),
}

/// A function parameter or a template parameter.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct UParam {
    pub(crate) ty: UType,
    pub(crate) by_ref: bool,
    pub(crate) name: String,
    pub(crate) dims: Vec<UExpr>,
    pub(crate) span: Span,
}

/// A declaration.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Decl {
    Var {
        ty: UType,
        name: String,
        dims: Vec<UExpr>,
        init: Option<Init>,
        span: Span,
    },
    Typedef {
        ty: UType,
        name: String,
        dims: Vec<UExpr>,
        span: Span,
    },
    Func {
        ret: UType,
        name: String,
        params: Vec<UParam>,
        body: Vec<UStmt>,
        span: Span,
    },
}

/// A statement of a function body.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum UStmt {
    Expr(UExpr),
    Decl(Decl),
    Block(Vec<UStmt>),
    If(UExpr, Box<UStmt>, Option<Box<UStmt>>),
    While(UExpr, Box<UStmt>),
    DoWhile(Box<UStmt>, UExpr),
    For(Option<UExpr>, Option<UExpr>, Option<UExpr>, Box<UStmt>),
    ForRange(String, UType, Box<UStmt>, Span),
    Return(Option<UExpr>, Span),
    Empty,
}

pub(crate) struct Parser {
    toks: Vec<(Tok, Span)>,
    pos: usize,
    depth: usize,
    /// Names known to be types (typedefs declared so far).
    pub(crate) types: Vec<String>,
}

fn is_type_kw(s: &str) -> bool {
    matches!(
        s,
        "int"
            | "bool"
            | "clock"
            | "chan"
            | "void"
            | "const"
            | "urgent"
            | "broadcast"
            | "meta"
            | "struct"
            | "scalar"
            | "double"
            | "hybrid"
            | "string"
    )
}

impl Parser {
    pub(crate) fn new(toks: Vec<(Tok, Span)>, types: Vec<String>) -> Parser {
        Parser {
            toks,
            pos: 0,
            depth: 0,
            types,
        }
    }
    pub(crate) fn peek(&self) -> &Tok {
        self.toks.get(self.pos).map_or(&Tok::End, |t| &t.0)
    }
    fn peek_at(&self, k: usize) -> &Tok {
        self.toks.get(self.pos + k).map_or(&Tok::End, |t| &t.0)
    }
    pub(crate) fn span(&self) -> Span {
        self.toks
            .get(self.pos)
            .or(self.toks.last())
            .map_or(Span::point(0), |t| t.1)
    }
    fn prev_span(&self) -> Span {
        self.toks
            .get(self.pos.saturating_sub(1))
            .map_or(Span::point(0), |t| t.1)
    }
    fn bump(&mut self) {
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
    }
    pub(crate) fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Tok::Op(o) if *o == op)
    }
    fn is_ident(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Ident(i) if i == s)
    }
    pub(crate) fn eat(&mut self, op: &str) -> bool {
        if self.is_op(op) {
            self.bump();
            true
        } else {
            false
        }
    }
    pub(crate) fn expect(&mut self, op: &str) -> Result<(), Diagnostic> {
        if self.eat(op) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("`{op}`")))
        }
    }
    pub(crate) fn unexpected(&self, what: &str) -> Diagnostic {
        let found = match self.peek() {
            Tok::Int(v) => format!("`{v}`"),
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Op(o) => format!("`{o}`"),
            Tok::End => "end of text".into(),
        };
        Diagnostic::at(self.span(), format!("expected {what}, found {found}"))
    }
    pub(crate) fn at_end(&self) -> bool {
        matches!(self.peek(), Tok::End)
    }
    pub(crate) fn ident(&mut self) -> Result<(String, Span), Diagnostic> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                let sp = self.span();
                self.bump();
                Ok((s, sp))
            }
            _ => Err(self.unexpected("a name")),
        }
    }
    fn enter(&mut self) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::at(self.span(), "nesting too deep"));
        }
        Ok(())
    }

    /// True if the next tokens start a type.
    pub(crate) fn at_type(&self) -> bool {
        match self.peek() {
            Tok::Ident(s) => {
                is_type_kw(s)
                    || (self.types.contains(s)
                        && matches!(self.peek_at(1), Tok::Ident(_) | Tok::Op("&")))
            }
            _ => false,
        }
    }

    pub(crate) fn ty(&mut self) -> Result<UType, Diagnostic> {
        let start = self.span();
        let mut t = UType {
            base: Base::Void,
            is_const: false,
            urgent: false,
            broadcast: false,
            unsupported: None,
            span: start,
        };
        loop {
            if self.is_ident("const") {
                t.is_const = true;
            } else if self.is_ident("urgent") {
                t.urgent = true;
            } else if self.is_ident("broadcast") {
                t.broadcast = true;
            } else if self.is_ident("meta") || self.is_ident("hybrid") {
                if let Tok::Ident(s) = self.peek() {
                    t.unsupported = Some(s.clone());
                }
            } else {
                break;
            }
            self.bump();
        }
        let (name, sp) = self.ident()?;
        t.base = match name.as_str() {
            "int" => {
                if self.eat("[") {
                    let lo = self.expr()?;
                    self.expect(",")?;
                    let hi = self.expr()?;
                    self.expect("]")?;
                    Base::Int(Some((lo, hi)))
                } else {
                    Base::Int(None)
                }
            }
            "bool" => Base::Bool,
            "clock" => Base::Clock,
            "chan" => Base::Chan,
            "void" => Base::Void,
            "struct" => {
                self.expect("{")?;
                self.enter()?;
                let mut fields = Vec::new();
                while !self.eat("}") {
                    let fty = self.ty()?;
                    loop {
                        let (name, fsp) = self.ident()?;
                        let dims = self.dims()?;
                        fields.push(UField {
                            ty: fty.clone(),
                            name,
                            dims,
                            span: fsp.join(self.prev_span()),
                        });
                        if !self.eat(",") {
                            break;
                        }
                    }
                    self.expect(";")?;
                }
                self.depth -= 1;
                Base::Struct(fields)
            }
            "scalar" => {
                self.expect("[")?;
                let n = self.expr()?;
                self.expect("]")?;
                Base::Scalar(Box::new(n))
            }
            "double" | "string" => Base::Unsupported(name.clone()),
            _ if self.types.contains(&name) => Base::Named(name),
            _ => return Err(Diagnostic::at(sp, format!("unknown type `{name}`"))),
        };
        t.span = start.join(self.prev_span());
        Ok(t)
    }

    fn dims(&mut self) -> Result<Vec<UExpr>, Diagnostic> {
        let mut d = Vec::new();
        while self.eat("[") {
            d.push(self.expr()?);
            self.expect("]")?;
        }
        Ok(d)
    }

    fn init(&mut self) -> Result<Init, Diagnostic> {
        if self.is_op("{") {
            let sp = self.span();
            self.bump();
            self.enter()?;
            let mut items = Vec::new();
            if !self.is_op("}") {
                loop {
                    items.push(self.init()?);
                    if !self.eat(",") {
                        break;
                    }
                }
            }
            self.expect("}")?;
            self.depth -= 1;
            Ok(Init::List(items, sp.join(self.prev_span())))
        } else {
            Ok(Init::Expr(self.expr_noassign()?))
        }
    }

    /// Parameters `(T a, T &b, …)` after the opening parenthesis was consumed.
    pub(crate) fn params(&mut self, close: &str) -> Result<Vec<UParam>, Diagnostic> {
        let mut out = Vec::new();
        if self.is_op(close) || self.at_end() {
            return Ok(out);
        }
        loop {
            let start = self.span();
            let ty = self.ty()?;
            let by_ref = self.eat("&");
            let (name, _) = self.ident()?;
            let dims = self.dims()?;
            out.push(UParam {
                ty,
                by_ref,
                name,
                dims,
                span: start.join(self.prev_span()),
            });
            if !self.eat(",") {
                break;
            }
        }
        Ok(out)
    }

    /// Declarations until the end of the text.
    pub(crate) fn decls(&mut self) -> Result<Vec<Decl>, Diagnostic> {
        let mut out = Vec::new();
        while !self.at_end() {
            if self.eat(";") {
                continue;
            }
            self.decl(&mut out)?;
        }
        Ok(out)
    }

    /// One declaration (possibly several variables `int a, b;`).
    pub(crate) fn decl(&mut self, out: &mut Vec<Decl>) -> Result<(), Diagnostic> {
        let start = self.span();
        if self.is_ident("typedef") {
            self.bump();
            let ty = self.ty()?;
            loop {
                let (name, _) = self.ident()?;
                let dims = self.dims()?;
                self.types.push(name.clone());
                out.push(Decl::Typedef {
                    ty: ty.clone(),
                    name,
                    dims,
                    span: start.join(self.prev_span()),
                });
                if !self.eat(",") {
                    break;
                }
            }
            return self.expect(";");
        }
        if !self.at_type() {
            return Err(self.unexpected("a declaration"));
        }
        let ty = self.ty()?;
        let (name, _) = self.ident()?;
        if self.eat("(") {
            let params = self.params(")")?;
            self.expect(")")?;
            if !self.is_op("{") {
                return Err(self.unexpected("`{` (function body)"));
            }
            let body = match self.stmt()? {
                UStmt::Block(b) => b,
                s => vec![s],
            };
            out.push(Decl::Func {
                ret: ty,
                name,
                params,
                body,
                span: start.join(self.prev_span()),
            });
            return Ok(());
        }
        let mut name = name;
        loop {
            let dims = self.dims()?;
            let init = if self.eat("=") || self.eat(":=") {
                Some(self.init()?)
            } else {
                None
            };
            out.push(Decl::Var {
                ty: ty.clone(),
                name,
                dims,
                init,
                span: start.join(self.prev_span()),
            });
            if !self.eat(",") {
                break;
            }
            name = self.ident()?.0;
        }
        self.expect(";")
    }

    pub(crate) fn stmt(&mut self) -> Result<UStmt, Diagnostic> {
        self.enter()?;
        let r = self.stmt_inner();
        self.depth -= 1;
        r
    }

    fn stmt_inner(&mut self) -> Result<UStmt, Diagnostic> {
        if self.eat(";") {
            return Ok(UStmt::Empty);
        }
        if self.eat("{") {
            let mut b = Vec::new();
            while !self.eat("}") {
                if self.at_end() {
                    return Err(self.unexpected("`}`"));
                }
                b.push(self.stmt()?);
            }
            return Ok(UStmt::Block(b));
        }
        if self.at_type() || self.is_ident("typedef") {
            let mut d = Vec::new();
            self.decl(&mut d)?;
            return Ok(UStmt::Block(d.into_iter().map(UStmt::Decl).collect()));
        }
        let kw = match self.peek() {
            Tok::Ident(s) => s.clone(),
            _ => String::new(),
        };
        let sp = self.span();
        match kw.as_str() {
            "if" => {
                self.bump();
                self.expect("(")?;
                let c = self.expr()?;
                self.expect(")")?;
                let t = self.stmt()?;
                let e = if self.is_ident("else") {
                    self.bump();
                    Some(Box::new(self.stmt()?))
                } else {
                    None
                };
                Ok(UStmt::If(c, Box::new(t), e))
            }
            "while" => {
                self.bump();
                self.expect("(")?;
                let c = self.expr()?;
                self.expect(")")?;
                Ok(UStmt::While(c, Box::new(self.stmt()?)))
            }
            "do" => {
                self.bump();
                let b = self.stmt()?;
                if !self.is_ident("while") {
                    return Err(self.unexpected("`while`"));
                }
                self.bump();
                self.expect("(")?;
                let c = self.expr()?;
                self.expect(")")?;
                self.expect(";")?;
                Ok(UStmt::DoWhile(Box::new(b), c))
            }
            "for" => {
                self.bump();
                self.expect("(")?;
                if matches!(self.peek(), Tok::Ident(_)) && matches!(self.peek_at(1), Tok::Op(":")) {
                    let (name, nsp) = self.ident()?;
                    self.expect(":")?;
                    let ty = self.ty()?;
                    self.expect(")")?;
                    return Ok(UStmt::ForRange(name, ty, Box::new(self.stmt()?), nsp));
                }
                let a = if self.is_op(";") {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.expect(";")?;
                let c = if self.is_op(";") {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.expect(";")?;
                let s = if self.is_op(")") {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.expect(")")?;
                Ok(UStmt::For(a, c, s, Box::new(self.stmt()?)))
            }
            "return" => {
                self.bump();
                let e = if self.is_op(";") {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.expect(";")?;
                Ok(UStmt::Return(e, sp.join(self.prev_span())))
            }
            _ => {
                let e = self.expr()?;
                self.expect(";")?;
                Ok(UStmt::Expr(e))
            }
        }
    }

    /// A full expression (assignments included, right-associative).
    pub(crate) fn expr(&mut self) -> Result<UExpr, Diagnostic> {
        self.enter()?;
        let lhs = self.ternary()?;
        const ASSIGN: [&str; 12] = [
            "=", ":=", "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=", "<<=", ">>=",
        ];
        let r = if let Some(op) = ASSIGN.iter().find(|o| self.is_op(o)) {
            self.bump();
            let rhs = self.expr()?;
            let op = if *op == ":=" { "=" } else { op };
            let sp = lhs.span().join(rhs.span());
            UExpr::Assign(op, Box::new(lhs), Box::new(rhs), sp)
        } else {
            lhs
        };
        self.depth -= 1;
        Ok(r)
    }

    fn expr_noassign(&mut self) -> Result<UExpr, Diagnostic> {
        self.enter()?;
        let r = self.ternary();
        self.depth -= 1;
        r
    }

    fn ternary(&mut self) -> Result<UExpr, Diagnostic> {
        let c = self.binary(0)?;
        if self.eat("?") {
            let a = self.expr()?;
            self.expect(":")?;
            let b = self.expr_noassign()?;
            let sp = c.span().join(b.span());
            return Ok(UExpr::Ite(Box::new(c), Box::new(a), Box::new(b), sp));
        }
        Ok(c)
    }

    fn bin_op(&self, level: usize) -> Option<&'static str> {
        const LEVELS: [&[&str]; 12] = [
            &["imply"],
            &["or", "||"],
            &["and", "&&"],
            &["|"],
            &["^"],
            &["&"],
            &["==", "!="],
            &["<=", ">=", "<", ">"],
            &["<?", ">?"],
            &["<<", ">>"],
            &["+", "-"],
            &["*", "/", "%"],
        ];
        let ops = LEVELS.get(level)?;
        match self.peek() {
            Tok::Op(o) => ops.iter().find(|x| *x == o).copied(),
            Tok::Ident(s) => ops.iter().find(|x| *x == s).copied(),
            _ => None,
        }
    }

    fn binary(&mut self, level: usize) -> Result<UExpr, Diagnostic> {
        if level >= 12 {
            return self.unary();
        }
        self.enter()?;
        let mut lhs = self.binary(level + 1)?;
        while let Some(op) = self.bin_op(level) {
            self.bump();
            let rhs = self.binary(level + 1)?;
            let sp = lhs.span().join(rhs.span());
            let op = match op {
                "or" => "||",
                "and" => "&&",
                o => o,
            };
            lhs = UExpr::Bin(op, Box::new(lhs), Box::new(rhs), sp);
        }
        self.depth -= 1;
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<UExpr, Diagnostic> {
        self.enter()?;
        let sp = self.span();
        let r = if self.eat("-") {
            let e = self.unary()?;
            let s = sp.join(e.span());
            UExpr::Unary(Un::Neg, Box::new(e), s)
        } else if self.eat("+") {
            self.unary()?
        } else if self.eat("!")
            || self.is_ident("not") && {
                self.bump();
                true
            }
        {
            let e = self.unary()?;
            let s = sp.join(e.span());
            UExpr::Unary(Un::Not, Box::new(e), s)
        } else if self.eat("~") {
            let e = self.unary()?;
            let s = sp.join(e.span());
            UExpr::Unary(Un::BitNot, Box::new(e), s)
        } else if self.eat("++") || self.eat("--") {
            let inc = matches!(self.toks.get(self.pos - 1), Some((Tok::Op("++"), _)));
            let e = self.unary()?;
            let s = sp.join(e.span());
            UExpr::Step(inc, Box::new(e), s)
        } else if self.is_ident("forall") || self.is_ident("exists") || self.is_ident("sum") {
            let q = match self.peek() {
                Tok::Ident(s) if s == "forall" => Quant::Forall,
                Tok::Ident(s) if s == "exists" => Quant::Exists,
                _ => Quant::Sum,
            };
            self.bump();
            self.expect("(")?;
            let (name, _) = self.ident()?;
            self.expect(":")?;
            let ty = self.ty()?;
            self.expect(")")?;
            let body = self.expr_noassign()?;
            let s = sp.join(body.span());
            UExpr::Quant(q, name, Box::new(ty), Box::new(body), s)
        } else {
            self.postfix()?
        };
        self.depth -= 1;
        Ok(r)
    }

    fn postfix(&mut self) -> Result<UExpr, Diagnostic> {
        let sp = self.span();
        let mut e = match self.peek().clone() {
            Tok::Int(v) => {
                self.bump();
                UExpr::Int(v, sp)
            }
            Tok::Ident(s) if s == "true" => {
                self.bump();
                UExpr::Int(1, sp)
            }
            Tok::Ident(s) if s == "false" => {
                self.bump();
                UExpr::Int(0, sp)
            }
            Tok::Ident(s) if s == "deadlock" => {
                self.bump();
                UExpr::Deadlock(sp)
            }
            Tok::Ident(s) => {
                self.bump();
                UExpr::Name(s, sp)
            }
            Tok::Op("(") => {
                self.bump();
                let e = self.expr()?;
                self.expect(")")?;
                e
            }
            _ => return Err(self.unexpected("an expression")),
        };
        loop {
            if self.eat("[") {
                let i = self.expr()?;
                self.expect("]")?;
                let s = e.span().join(self.prev_span());
                e = UExpr::Index(Box::new(e), Box::new(i), s);
            } else if self.eat("(") {
                let mut args = Vec::new();
                if !self.is_op(")") {
                    loop {
                        args.push(self.expr()?);
                        if !self.eat(",") {
                            break;
                        }
                    }
                }
                self.expect(")")?;
                let s = e.span().join(self.prev_span());
                e = UExpr::Call(Box::new(e), args, s);
            } else if self.eat(".") {
                let (f, _) = self.ident()?;
                let s = e.span().join(self.prev_span());
                e = UExpr::Field(Box::new(e), f, s);
            } else if self.is_op("++") || self.is_op("--") {
                let inc = self.is_op("++");
                self.bump();
                let s = e.span().join(self.prev_span());
                e = UExpr::Step(inc, Box::new(e), s);
            } else if self.is_op("'") {
                return Err(Diagnostic::at(
                    self.span(),
                    "clock rates (`x'`, stopwatches and hybrid clocks) are not supported",
                ));
            } else {
                break;
            }
        }
        Ok(e)
    }
}
