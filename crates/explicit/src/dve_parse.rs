//! The DVE reader: DiVinE's modelling language as the BEEM models use it (Barnat et al., "DiVinE:
//! a tool for distributed verification", CAV 2006, §2: processes with states and guarded
//! transitions over shared variables, rendezvous and buffered channels, negative-claim property
//! processes), with located errors; constructs outside this subset are refused by name.

use crate::c_expr::{self, comma_list, ExprParser};
use crate::c_lex::lex_one;
use crate::dve_ast::*;
use crate::token_cursor::{Cursor, Lang};
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
    let mut i = 0;
    let mut out = Vec::new();
    while i < text.len() {
        i = lex_one(text, i, text.len(), PUNCTS, "DVE", &mut out)?;
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

/// DVE's words and messages for the cursor. Every word is a name (BEEM's models use some of the
/// refused words as names).
static LANG: Lang<Tok> = Lang {
    unsupported: UNSUPPORTED,
    refusal: |w| format!("unsupported construct `{w}`: not part of the DVE subset read here"),
    refusal_label: "unsupported",
    reserved: None,
    other: |_| "end of file",
    max_depth: MAX_DEPTH,
    nesting: "expression",
};

struct Parser {
    c: Cursor<Tok>,
}

crate::token_cursor::cursor_parser!(Parser, Tok);

type R<T> = Result<T, Diagnostic>;

/// Parses a DVE model.
pub fn parse_dve(text: &str) -> Result<DveAst, Diagnostic> {
    let mut p = Parser {
        c: Cursor::new(lex(text)?, text.len(), &LANG),
    };
    p.file()
}

/// Parses one DVE expression (a state predicate of an LTL proposition).
pub fn parse_dve_expr(text: &str) -> Result<Expr, Diagnostic> {
    let mut p = Parser {
        c: Cursor::new(lex(text)?, text.len(), &LANG),
    };
    let e = p.expr()?;
    if *p.peek() != Tok::Eof {
        return p.err("end of the expression");
    }
    Ok(e)
}

impl Parser {
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
        let decls = comma_list(self, |p| {
            let (name, sp) = p.ident()?;
            let len = c_expr::subscript(p)?;
            let mut init = Vec::new();
            if p.eat_punct("=") {
                if p.eat_punct("{") {
                    if !p.is_punct("}") {
                        init = comma_list(p, Parser::expr)?;
                    }
                    p.expect_punct("}")?;
                } else {
                    init.push(p.expr()?);
                }
            }
            Ok(VarDecl {
                name,
                ty,
                is_const,
                len,
                init,
                span: Span::new(sp.start, p.prev_end()),
            })
        })?;
        out.extend(decls);
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
            types = comma_list(self, Parser::ty)?;
            self.expect_punct("}")?;
        }
        let decls = comma_list(self, |p| {
            let (name, sp) = p.ident()?;
            let capacity = c_expr::subscript(p)?;
            Ok(ChanDecl {
                name,
                types: types.clone(),
                capacity,
                span: Span::new(sp.start, p.prev_end()),
            })
        })?;
        out.extend(decls);
        self.expect_punct(";")?;
        Ok(())
    }

    fn name_list(&mut self) -> R<Vec<(String, Span)>> {
        let v = comma_list(self, |p| p.ident())?;
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
                asserts.extend(comma_list(self, |p| {
                    let (st, sp) = p.ident()?;
                    p.expect_punct(":")?;
                    Ok((st, p.expr()?, sp))
                })?);
                self.expect_punct(";")?;
            } else if self.eat_kw("trans") {
                if !self.is_punct("}") {
                    trans.extend(comma_list(self, Parser::transition)?);
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
            origin: Origin::Dve,
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
                        Dir::Send => values = comma_list(self, Parser::expr)?,
                        Dir::Recv => {
                            let paren = self.eat_punct("(");
                            targets = comma_list(self, |p| Ok(RecvArg::Store(c_expr::lvalue(p)?)))?;
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
                t.effect.extend(comma_list(self, |p| {
                    let lv = c_expr::lvalue(p)?;
                    p.expect_punct("=")?;
                    Ok((lv, p.expr()?))
                })?);
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
        if self.is_punct(".") && matches!(self.peek_at(1), Tok::Ident(_)) {
            self.bump();
            let (st, _) = self.ident()?;
            Ok(Expr::InState(w, st, Span::new(sp.start, self.prev_end())))
        } else if self.is_punct("->") && matches!(self.peek_at(1), Tok::Ident(_)) {
            self.bump();
            let (v, _) = self.ident()?;
            let idx = c_expr::subscript(self)?.map(Box::new);
            Ok(Expr::Remote(
                w,
                v,
                idx,
                Span::new(sp.start, self.prev_end()),
            ))
        } else {
            c_expr::var_or_index(self, w, sp)
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
