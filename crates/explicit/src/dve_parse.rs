//! The DVE reader: DiVinE's modelling language as the BEEM models use it (Barnat et al., "DiVinE:
//! a tool for distributed verification", CAV 2006, §2: processes with states and guarded
//! transitions over shared variables, rendezvous and buffered channels, negative-claim property
//! processes), with located errors; constructs outside this subset are refused by name.

use crate::c_expr::{self, ExprParser, Peek};
use crate::dve_ast::*;
use crate::token_cursor::Cursor;
use verikit_diag::{Diagnostic, Span};

/// Nesting limit for expressions (deeper input is refused rather than overflowing the stack).
const MAX_DEPTH: usize = 200;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Int(i64),
    Punct(&'static str),
    Eof,
}

const PUNCTS: &[&str] = &[
    "->", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "{", "}", "(", ")", "[", "]", ";", ",",
    ":", ".", "=", "<", ">", "+", "-", "*", "/", "%", "!", "?", "&", "|", "^", "~",
];

fn lex(text: &str) -> Result<Vec<(Tok, Span)>, Diagnostic> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if text[i..].starts_with("//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if text[i..].starts_with("/*") {
            match text[i + 2..].find("*/") {
                Some(k) => i += k + 4,
                None => {
                    return Err(Diagnostic::at(Span::new(i, i + 2), "unterminated comment")
                        .with_span(Span::new(i, i + 2), "comment starts here"))
                }
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((Tok::Ident(text[s..i].to_string()), Span::new(s, i)));
        } else if c.is_ascii_digit() {
            let s = i;
            while i < b.len() && b[i].is_ascii_alphanumeric() {
                i += 1;
            }
            let sp = Span::new(s, i);
            let v: i64 = text[s..i].parse().map_err(|_| {
                Diagnostic::at(sp, format!("bad integer literal `{}`", &text[s..i]))
                    .with_span(sp, "not a decimal integer in range")
            })?;
            if v > i64::from(i32::MAX) {
                return Err(Diagnostic::at(sp, "integer literal too large").with_span(sp, "here"));
            }
            out.push((Tok::Int(v), sp));
        } else if let Some(p) = PUNCTS.iter().find(|p| text[i..].starts_with(**p)) {
            out.push((Tok::Punct(p), Span::new(i, i + p.len())));
            i += p.len();
        } else {
            let ch = text[i..].chars().next().unwrap_or('?');
            let sp = Span::new(i, i + ch.len_utf8());
            return Err(Diagnostic::at(sp, format!("unexpected character `{ch}`"))
                .with_span(sp, "not part of DVE"));
        }
    }
    out.push((Tok::Eof, Span::point(text.len())));
    Ok(out)
}

/// Words of DiVinE's wider language (or of neighbouring languages) that this reader refuses by name.
const UNSUPPORTED: &[&str] = &[
    "typedef",
    "for",
    "while",
    "if",
    "else",
    "do",
    "od",
    "fi",
    "goto",
    "atomic",
    "d_step",
    "proctype",
    "chan",
    "mtype",
    "never",
    "ltl",
    "struct",
    "union",
    "function",
    "return",
    "unsigned",
    "float",
    "double",
    "char",
    "short",
    "long",
    "enum",
    "import",
    "probabilistic",
    "timed",
    "clock",
];

struct Parser {
    c: Cursor<Tok>,
}

crate::token_cursor::cursor_parser!(Parser, Tok);

type R<T> = Result<T, Diagnostic>;

/// Parses a DVE model.
pub fn parse_dve(text: &str) -> Result<DveAst, Diagnostic> {
    let mut p = Parser {
        c: Cursor::new(lex(text)?, text.len()),
    };
    p.file()
}

/// Parses one DVE expression (a state predicate of an LTL proposition).
pub fn parse_dve_expr(text: &str) -> Result<Expr, Diagnostic> {
    let mut p = Parser {
        c: Cursor::new(lex(text)?, text.len()),
    };
    let e = p.expr()?;
    if *p.peek() != Tok::Eof {
        return p.err("end of the expression");
    }
    Ok(e)
}

impl Parser {
    fn describe(t: &Tok) -> String {
        match t {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int(v) => format!("`{v}`"),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Eof => "end of file".into(),
        }
    }
    fn err<T>(&self, what: &str) -> R<T> {
        let t = self.peek();
        let sp = self.span();
        if let Tok::Ident(w) = t {
            if UNSUPPORTED.contains(&w.as_str()) {
                return Err(Diagnostic::at(
                    sp,
                    format!("unsupported construct `{w}`: not part of the DVE subset read here"),
                )
                .with_span(sp, "unsupported"));
            }
        }
        Err(
            Diagnostic::at(sp, format!("expected {what}, found {}", Self::describe(t)))
                .with_span(sp, format!("expected {what}")),
        )
    }
    fn expect_punct(&mut self, p: &str) -> R<Span> {
        if self.is_punct(p) {
            Ok(self.bump().1)
        } else {
            self.err(&format!("`{p}`"))
        }
    }
    fn ident(&mut self) -> R<(String, Span)> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                let sp = self.bump().1;
                Ok((s, sp))
            }
            _ => self.err("a name"),
        }
    }

    fn file(&mut self) -> R<DveAst> {
        let mut ast = DveAst::default();
        loop {
            if self.is_kw("process") {
                let pr = self.process()?;
                ast.processes.push(pr);
            } else if self.is_kw("channel") {
                self.channel(&mut ast.channels)?;
            } else if self.is_kw("system") {
                self.bump();
                if self.eat_kw("sync") {
                    ast.synchronous = true;
                } else if !self.eat_kw("async") {
                    return self.err("`async` or `sync`");
                }
                if self.eat_kw("property") {
                    ast.property = Some(self.ident()?);
                }
                self.expect_punct(";")?;
                if *self.peek() != Tok::Eof {
                    return self.err("end of file after the `system` declaration");
                }
                return Ok(ast);
            } else if self.is_var_start() {
                self.var_decl(&mut ast.vars)?;
            } else {
                return self.err("a declaration, `process` or `system`");
            }
        }
    }

    fn is_var_start(&self) -> bool {
        self.is_kw("byte") || self.is_kw("int") || self.is_kw("bool") || self.is_kw("const")
    }

    fn var_decl(&mut self, out: &mut Vec<VarDecl>) -> R<()> {
        let is_const = self.eat_kw("const");
        let ty = if self.eat_kw("byte") || self.eat_kw("bool") {
            Ty::Byte
        } else if self.eat_kw("int") {
            Ty::Int
        } else {
            return self.err("a type (`byte`, `int`, `bool`)");
        };
        loop {
            let (name, sp) = self.ident()?;
            let len = if self.eat_punct("[") {
                let e = self.expr()?;
                self.expect_punct("]")?;
                Some(e)
            } else {
                None
            };
            let mut init = Vec::new();
            if self.eat_punct("=") {
                if self.eat_punct("{") {
                    if !self.is_punct("}") {
                        loop {
                            init.push(self.expr()?);
                            if !self.eat_punct(",") {
                                break;
                            }
                        }
                    }
                    self.expect_punct("}")?;
                } else {
                    init.push(self.expr()?);
                }
            }
            out.push(VarDecl {
                name,
                ty,
                is_const,
                len,
                init,
                span: Span::new(sp.start, self.prev_end()),
            });
            if !self.eat_punct(",") {
                break;
            }
        }
        self.expect_punct(";")?;
        Ok(())
    }

    fn ty(&mut self) -> R<Ty> {
        if self.eat_kw("byte") || self.eat_kw("bool") {
            Ok(Ty::Byte)
        } else if self.eat_kw("int") {
            Ok(Ty::Int)
        } else {
            self.err("a type (`byte`, `int`)")
        }
    }

    fn channel(&mut self, out: &mut Vec<ChanDecl>) -> R<()> {
        self.bump();
        let mut types = Vec::new();
        if self.eat_punct("{") {
            loop {
                types.push(self.ty()?);
                if !self.eat_punct(",") {
                    break;
                }
            }
            self.expect_punct("}")?;
        }
        loop {
            let (name, sp) = self.ident()?;
            let capacity = if self.eat_punct("[") {
                let e = self.expr()?;
                self.expect_punct("]")?;
                Some(e)
            } else {
                None
            };
            out.push(ChanDecl {
                name,
                types: types.clone(),
                capacity,
                span: Span::new(sp.start, self.prev_end()),
            });
            if !self.eat_punct(",") {
                break;
            }
        }
        self.expect_punct(";")?;
        Ok(())
    }

    fn name_list(&mut self) -> R<Vec<(String, Span)>> {
        let mut v = vec![self.ident()?];
        while self.eat_punct(",") {
            v.push(self.ident()?);
        }
        self.expect_punct(";")?;
        Ok(v)
    }

    fn process(&mut self) -> R<ProcessAst> {
        let start = self.bump().1;
        let (name, _) = self.ident()?;
        self.expect_punct("{")?;
        let mut vars = Vec::new();
        while self.is_var_start() {
            self.var_decl(&mut vars)?;
        }
        if !self.eat_kw("state") {
            return self.err("`state` (the process's state list)");
        }
        let states = self.name_list()?;
        let mut init = None;
        let mut accept = Vec::new();
        let mut commit = Vec::new();
        let mut asserts = Vec::new();
        let mut trans = Vec::new();
        loop {
            if self.eat_kw("init") {
                init = Some(self.ident()?);
                self.expect_punct(";")?;
            } else if self.eat_kw("accept") {
                accept.extend(self.name_list()?);
            } else if self.eat_kw("commit") {
                commit.extend(self.name_list()?);
            } else if self.eat_kw("assert") {
                loop {
                    let (st, sp) = self.ident()?;
                    self.expect_punct(":")?;
                    let e = self.expr()?;
                    asserts.push((st, e, sp));
                    if !self.eat_punct(",") {
                        break;
                    }
                }
                self.expect_punct(";")?;
            } else if self.eat_kw("trans") {
                if !self.is_punct("}") {
                    loop {
                        trans.push(self.transition()?);
                        if !self.eat_punct(",") {
                            break;
                        }
                    }
                    self.expect_punct(";")?;
                }
            } else if self.eat_punct("}") {
                break;
            } else {
                return self.err("`init`, `accept`, `commit`, `assert`, `trans` or `}`");
            }
        }
        let span = Span::new(start.start, self.prev_end());
        let Some(init) = init else {
            return Err(
                Diagnostic::at(span, format!("process `{name}` has no `init` state"))
                    .with_span(start, "this process"),
            );
        };
        Ok(ProcessAst {
            name,
            vars,
            states,
            init,
            accept,
            commit,
            asserts,
            trans,
            span,
        })
    }

    fn lvalue(&mut self) -> R<LValue> {
        let (name, sp) = self.ident()?;
        let index = if self.eat_punct("[") {
            let e = self.expr()?;
            self.expect_punct("]")?;
            Some(e)
        } else {
            None
        };
        Ok(LValue {
            name,
            index,
            span: Span::new(sp.start, self.prev_end()),
        })
    }

    fn transition(&mut self) -> R<TransAst> {
        let (from, sp) = self.ident()?;
        self.expect_punct("->")?;
        let (to, _) = self.ident()?;
        self.expect_punct("{")?;
        let mut t = TransAst {
            from,
            to,
            guard: None,
            sync: None,
            effect: Vec::new(),
            span: sp,
        };
        loop {
            if self.eat_kw("guard") {
                let e = self.expr()?;
                self.expect_punct(";")?;
                t.guard = Some(match t.guard.take() {
                    None => e,
                    Some(g) => {
                        let s = g.span().join(e.span());
                        Expr::Binary(BinOp::And, Box::new(g), Box::new(e), s)
                    }
                });
            } else if self.is_kw("sync") {
                let ksp = self.bump().1;
                if t.sync.is_some() {
                    return Err(Diagnostic::at(ksp, "a transition has at most one `sync`")
                        .with_span(ksp, "second sync"));
                }
                let (chan, csp) = self.ident()?;
                let dir = if self.eat_punct("!") {
                    Dir::Send
                } else if self.eat_punct("?") {
                    Dir::Recv
                } else {
                    return self.err("`!` or `?`");
                };
                let mut values = Vec::new();
                let mut targets = Vec::new();
                if !self.is_punct(";") {
                    match dir {
                        Dir::Send => loop {
                            values.push(self.expr()?);
                            if !self.eat_punct(",") {
                                break;
                            }
                        },
                        Dir::Recv => {
                            let paren = self.eat_punct("(");
                            loop {
                                targets.push(RecvArg::Store(self.lvalue()?));
                                if !self.eat_punct(",") {
                                    break;
                                }
                            }
                            if paren {
                                self.expect_punct(")")?;
                            }
                        }
                    }
                }
                self.expect_punct(";")?;
                t.sync = Some(SyncAst {
                    chan,
                    dir,
                    values,
                    targets,
                    span: Span::new(csp.start, self.prev_end()),
                });
            } else if self.eat_kw("effect") {
                loop {
                    let lv = self.lvalue()?;
                    self.expect_punct("=")?;
                    let e = self.expr()?;
                    t.effect.push((lv, e));
                    if !self.eat_punct(",") {
                        break;
                    }
                }
                self.expect_punct(";")?;
            } else if self.eat_punct("}") {
                break;
            } else {
                return self.err("`guard`, `sync`, `effect` or `}`");
            }
        }
        t.span = Span::new(sp.start, self.prev_end());
        Ok(t)
    }

    // ---- expressions (the shared grammar of `c_expr`) -------------------------------------

    fn expr(&mut self) -> R<Expr> {
        c_expr::expr(self)
    }
}

impl ExprParser for Parser {
    fn peek_tok(&self) -> Peek<'_> {
        match self.peek() {
            Tok::Ident(w) => Peek::Ident(w),
            Tok::Int(v) => Peek::Int(*v),
            Tok::Punct(p) => Peek::Punct(p),
            Tok::Eof => Peek::Other,
        }
    }
    fn cur_span(&self) -> Span {
        self.span()
    }
    fn advance(&mut self) {
        self.bump();
    }
    fn expect(&mut self, p: &str) -> R<Span> {
        self.expect_punct(p)
    }
    fn fail<T>(&self, what: &str) -> R<T> {
        self.err(what)
    }
    fn enter(&mut self) -> R<()> {
        self.c.enter(MAX_DEPTH, "expression")
    }
    fn leave(&mut self) {
        self.c.leave();
    }
    fn word_binop(&self, w: &str) -> Option<(BinOp, usize)> {
        match w {
            "imply" => Some((BinOp::Imply, 0)),
            "or" => Some((BinOp::Or, 1)),
            "and" => Some((BinOp::And, 2)),
            _ => None,
        }
    }
    fn word_not(&self, w: &str) -> bool {
        w == "not"
    }
    /// A variable, `a[i]`, `P.state` or `P->v` / `P->a[i]`.
    fn name_primary(&mut self) -> R<Expr> {
        let sp = self.span();
        let w = match self.peek() {
            Tok::Ident(w) if !is_keyword(w) => w.clone(),
            _ => return self.err("an expression"),
        };
        self.bump();
        if self.eat_punct("[") {
            let i = self.expr()?;
            self.expect_punct("]")?;
            Ok(Expr::Index(
                w,
                Box::new(i),
                Span::new(sp.start, self.prev_end()),
            ))
        } else if self.is_punct(".") && matches!(self.peek_at(1), Tok::Ident(_)) {
            self.bump();
            let (st, _) = self.ident()?;
            Ok(Expr::InState(w, st, Span::new(sp.start, self.prev_end())))
        } else if self.is_punct("->") && matches!(self.peek_at(1), Tok::Ident(_)) {
            self.bump();
            let (v, _) = self.ident()?;
            let idx = if self.eat_punct("[") {
                let i = self.expr()?;
                self.expect_punct("]")?;
                Some(Box::new(i))
            } else {
                None
            };
            Ok(Expr::Remote(
                w,
                v,
                idx,
                Span::new(sp.start, self.prev_end()),
            ))
        } else {
            Ok(Expr::Var(w, sp))
        }
    }
}

fn is_keyword(w: &str) -> bool {
    matches!(
        w,
        "process"
            | "state"
            | "init"
            | "accept"
            | "commit"
            | "assert"
            | "trans"
            | "guard"
            | "sync"
            | "effect"
            | "system"
            | "async"
            | "property"
            | "channel"
            | "byte"
            | "int"
            | "bool"
            | "const"
            | "and"
            | "or"
            | "not"
            | "imply"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_small_model() {
        let m = parse_dve(
            "byte a[2] = {1, 0}; int x = -1; channel c; channel {byte} q[2];\n\
             process P { byte l; state s, t; init s; accept t; commit t;\n\
             assert t: x < 3;\n\
             trans s -> t { guard a[0] == 1 && not P.t; sync q!l+1; effect x = x + 1, a[1] = 2; },\n\
             t -> s { sync c?l; }; }\n system async;",
        )
        .unwrap();
        assert_eq!(m.processes.len(), 1);
        assert_eq!(m.channels.len(), 2);
        assert_eq!(m.processes[0].trans.len(), 2);
        assert_eq!(m.processes[0].asserts.len(), 1);
    }

    #[test]
    fn refuses_by_name_with_a_location() {
        let src =
            "byte x;\nprocess P { state s; init s; trans s -> s { effect x = 1; }; }\ntypedef t;";
        let e = parse_dve(src).unwrap_err();
        assert!(
            e.message.contains("unsupported construct `typedef`"),
            "{}",
            e.message
        );
        assert_eq!(e.span.map(|s| s.start), src.find("typedef"));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let src = format!("byte x = {}1;", "(".repeat(10_000));
        assert!(parse_dve(&src).is_err());
        let src = format!("byte x = {}1;", "-".repeat(10_000));
        assert!(parse_dve(&src).is_err());
    }
}
