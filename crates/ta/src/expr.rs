//! TChecker's expression and statement language (guards, invariants, `do` statements): a lexer
//! and a recursive-descent parser producing an unresolved syntax tree with byte spans.
//!
//! Grammar (TChecker's `doc/file-format.md`): expressions with `|| && ! == != < <= > >= + - * / %`,
//! unary minus, parentheses, integer literals, variables and array elements `a[e]`; statements
//! `lv = e` (also `:=`, as UPPAAL writes it), `nop`, `if b then s [else s] end`,
//! `while b do s end`, separated by `;`.

use verikit_diag::{Diagnostic, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    /// UPPAAL's bitwise and shift operators and `<?`/`>?` (minimum/maximum).
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    Min,
    Max,
}

impl BinOp {
    pub fn is_cmp(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
    pub fn text(self) -> &'static str {
        match self {
            BinOp::Or => "||",
            BinOp::And => "&&",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Min => "<?",
            BinOp::Max => ">?",
        }
    }
}

/// An unresolved expression.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Ast {
    Int(i64, Span),
    Name(String, Span),
    Index(String, Span, Box<Ast>),
    Neg(Box<Ast>, Span),
    Not(Box<Ast>, Span),
    Bin(BinOp, Box<Ast>, Box<Ast>),
}

impl Ast {
    pub(crate) fn span(&self) -> Span {
        match self {
            Ast::Int(_, s) | Ast::Name(_, s) | Ast::Neg(_, s) | Ast::Not(_, s) => *s,
            Ast::Index(_, s, i) => s.join(i.span()),
            Ast::Bin(_, a, b) => a.span().join(b.span()),
        }
    }
}

/// An unresolved statement.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum StmtAst {
    Nop,
    Assign(Ast, Ast),
    If(Ast, Vec<StmtAst>, Vec<StmtAst>),
    While(Ast, Vec<StmtAst>),
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Int(i64),
    Ident(String),
    Op(&'static str),
    End,
}

const OPS: [&str; 22] = [
    ":=", "==", "!=", "<=", ">=", "&&", "||", "<", ">", "=", "!", "+", "-", "*", "/", "%", "(",
    ")", "[", "]", ";", ",",
];

/// Nesting depth beyond which input is rejected (keeps recursion bounded on hostile input).
const MAX_DEPTH: usize = 200;

struct Lexer {
    toks: Vec<(Tok, Span)>,
    pos: usize,
    depth: usize,
}

fn lex(text: &str, base: usize) -> Result<Vec<(Tok, Span)>, Diagnostic> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_digit() {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let span = Span::new(base + start, base + i);
            let v: i64 = text[start..i]
                .parse()
                .map_err(|_| Diagnostic::at(span, "integer literal out of range"))?;
            out.push((Tok::Int(v), span));
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            out.push((
                Tok::Ident(text[start..i].to_string()),
                Span::new(base + start, base + i),
            ));
            continue;
        }
        match OPS.iter().find(|op| text[i..].starts_with(**op)) {
            Some(op) => {
                i += op.len();
                out.push((Tok::Op(op), Span::new(base + start, base + i)));
            }
            None => {
                let ch = text[i..].chars().next().unwrap_or('?');
                return Err(Diagnostic::at(
                    Span::new(base + i, base + i + ch.len_utf8()),
                    format!("unexpected character `{ch}`"),
                ));
            }
        }
    }
    out.push((Tok::End, Span::point(base + b.len())));
    Ok(out)
}

/// Parses an expression occupying all of `text` (which starts at byte `base` of the file).
pub(crate) fn parse_expr(text: &str, base: usize) -> Result<Ast, Diagnostic> {
    let mut p = Lexer {
        toks: lex(text, base)?,
        pos: 0,
        depth: 0,
    };
    let e = p.expr()?;
    p.expect_end()?;
    Ok(e)
}

/// Parses a `;`-separated statement sequence occupying all of `text`.
pub(crate) fn parse_stmts(text: &str, base: usize) -> Result<Vec<StmtAst>, Diagnostic> {
    let mut p = Lexer {
        toks: lex(text, base)?,
        pos: 0,
        depth: 0,
    };
    let s = p.stmts(&[])?;
    p.expect_end()?;
    Ok(s)
}

impl Lexer {
    fn peek(&self) -> &Tok {
        self.toks.get(self.pos).map_or(&Tok::End, |t| &t.0)
    }
    fn span(&self) -> Span {
        self.toks
            .get(self.pos)
            .or(self.toks.last())
            .map_or(Span::point(0), |t| t.1)
    }
    fn bump(&mut self) -> (Tok, Span) {
        let t = self
            .toks
            .get(self.pos)
            .cloned()
            .unwrap_or((Tok::End, Span::point(0)));
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
        t
    }
    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Tok::Op(o) if *o == op)
    }
    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == kw)
    }
    fn expect_op(&mut self, op: &str) -> Result<Span, Diagnostic> {
        if self.is_op(op) {
            Ok(self.bump().1)
        } else {
            Err(self.unexpected(&format!("`{op}`")))
        }
    }
    fn expect_kw(&mut self, kw: &str) -> Result<(), Diagnostic> {
        if self.is_kw(kw) {
            self.bump();
            Ok(())
        } else {
            Err(self.unexpected(&format!("`{kw}`")))
        }
    }
    fn expect_end(&self) -> Result<(), Diagnostic> {
        if matches!(self.peek(), Tok::End) {
            Ok(())
        } else {
            Err(self.unexpected("end of expression"))
        }
    }
    fn unexpected(&self, want: &str) -> Diagnostic {
        let found = match self.peek() {
            Tok::Int(v) => format!("`{v}`"),
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Op(o) => format!("`{o}`"),
            Tok::End => "end of text".to_string(),
        };
        Diagnostic::at(self.span(), format!("expected {want}, found {found}"))
    }
    fn enter(&mut self) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err(Diagnostic::at(self.span(), "expression nested too deeply"))
        } else {
            Ok(())
        }
    }

    fn stmts(&mut self, stop: &[&str]) -> Result<Vec<StmtAst>, Diagnostic> {
        let mut out = Vec::new();
        loop {
            if matches!(self.peek(), Tok::End) || stop.iter().any(|k| self.is_kw(k)) {
                return Ok(out);
            }
            out.push(self.stmt()?);
            if self.is_op(";") {
                self.bump();
            } else {
                return Ok(out);
            }
        }
    }

    fn stmt(&mut self) -> Result<StmtAst, Diagnostic> {
        self.enter()?;
        let r = if self.is_kw("nop") {
            self.bump();
            Ok(StmtAst::Nop)
        } else if self.is_kw("if") {
            self.bump();
            let c = self.expr()?;
            self.expect_kw("then")?;
            let t = self.stmts(&["else", "end"])?;
            let e = if self.is_kw("else") {
                self.bump();
                self.stmts(&["end"])?
            } else {
                Vec::new()
            };
            self.expect_kw("end")?;
            Ok(StmtAst::If(c, t, e))
        } else if self.is_kw("while") {
            self.bump();
            let c = self.expr()?;
            self.expect_kw("do")?;
            let b = self.stmts(&["end"])?;
            self.expect_kw("end")?;
            Ok(StmtAst::While(c, b))
        } else {
            let lv = self.primary()?;
            if !matches!(lv, Ast::Name(..) | Ast::Index(..)) {
                return Err(Diagnostic::at(
                    lv.span(),
                    "expected a variable or clock to assign",
                ));
            }
            if self.is_op("=") || self.is_op(":=") {
                self.bump();
            } else {
                return Err(self.unexpected("`=`"));
            }
            let e = self.expr()?;
            Ok(StmtAst::Assign(lv, e))
        };
        self.depth -= 1;
        r
    }

    pub(crate) fn expr(&mut self) -> Result<Ast, Diagnostic> {
        self.enter()?;
        let r = self.binary(0);
        self.depth -= 1;
        r
    }

    fn binary(&mut self, level: usize) -> Result<Ast, Diagnostic> {
        const LEVELS: [&[(&str, BinOp)]; 5] = [
            &[("||", BinOp::Or)],
            &[("&&", BinOp::And)],
            &[
                ("==", BinOp::Eq),
                ("!=", BinOp::Ne),
                ("<=", BinOp::Le),
                (">=", BinOp::Ge),
                ("<", BinOp::Lt),
                (">", BinOp::Gt),
            ],
            &[("+", BinOp::Add), ("-", BinOp::Sub)],
            &[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Mod)],
        ];
        let Some(ops) = LEVELS.get(level) else {
            return self.unary();
        };
        let mut lhs = self.binary(level + 1)?;
        loop {
            let Some(&(_, op)) = ops.iter().find(|(t, _)| self.is_op(t)) else {
                return Ok(lhs);
            };
            self.bump();
            let rhs = self.binary(level + 1)?;
            lhs = Ast::Bin(op, Box::new(lhs), Box::new(rhs));
        }
    }

    fn unary(&mut self) -> Result<Ast, Diagnostic> {
        if self.is_op("-") || self.is_op("!") {
            let (t, s) = self.bump();
            self.enter()?;
            let e = self.unary()?;
            self.depth -= 1;
            let span = s.join(e.span());
            return Ok(if t == Tok::Op("-") {
                Ast::Neg(Box::new(e), span)
            } else {
                Ast::Not(Box::new(e), span)
            });
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Ast, Diagnostic> {
        match self.peek().clone() {
            Tok::Int(v) => Ok(Ast::Int(v, self.bump().1)),
            Tok::Ident(name) => {
                if ["if", "then", "else", "end", "while", "do", "nop"].contains(&name.as_str()) {
                    return Err(self.unexpected("an expression"));
                }
                let s = self.bump().1;
                if self.is_op("[") {
                    self.bump();
                    let i = self.expr()?;
                    let close = self.expect_op("]")?;
                    Ok(Ast::Index(name, s.join(close), Box::new(i)))
                } else {
                    Ok(Ast::Name(name, s))
                }
            }
            Tok::Op("(") => {
                self.bump();
                let e = self.expr()?;
                self.expect_op(")")?;
                Ok(e)
            }
            _ => Err(self.unexpected("an expression")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_and_spans() {
        let e = parse_expr("x1>10&&id==1+2*3", 100).unwrap();
        match &e {
            Ast::Bin(BinOp::And, a, b) => {
                assert!(matches!(**a, Ast::Bin(BinOp::Gt, ..)));
                assert!(matches!(**b, Ast::Bin(BinOp::Eq, ..)));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(e.span(), Span::new(100, 116));
    }

    #[test]
    fn statements() {
        let s = parse_stmts("buffer[(head+length)%2]=1;length=length+1", 0).unwrap();
        assert_eq!(s.len(), 2);
        let s = parse_stmts("if a < 2 then a = a + 1 else nop end; x := 0", 0).unwrap();
        assert_eq!(s.len(), 2);
        let s = parse_stmts("while i < 3 do i = i + 1 end", 0).unwrap();
        assert!(matches!(s[0], StmtAst::While(..)));
        assert!(parse_stmts("x == 0", 0).is_err());
        let e = parse_expr("a <= ", 5).unwrap_err();
        assert_eq!(e.span, Some(Span::point(10)));
    }
}
