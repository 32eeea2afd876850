//! The Promela reader for the subset BEEM's translations use (`promela_ast`), with located
//! errors, after `promela_macro` has expanded `#define` and `inline`, and with `ltl` blocks read
//! by `promela_ltl`; `mtype` names are constants numbered as SPIN does; constructs outside the subset (`typedef`, `#include`/`#if`,
//! `printf`, `unless`, array process parameters, …) are refused by name. Promela is SPIN's language
//! (Holzmann, *The SPIN Model Checker*, 2003); the BEEM translations are described with the
//! benchmark set (Pelánek, SPIN 2007) and checked against DiVinE's models (Barnat et al.,
//! "DiVinE: a tool for distributed verification", CAV 2006).

use crate::c_expr::{self, comma_list, ExprParser};
use crate::c_lex::lex_one;
use crate::dve_ast::{BinOp, Expr, RecvArg, Ty};
use crate::promela_ast::*;
use crate::promela_token::{Macro, Tok};
use crate::token_cursor::{Cursor, Lang};
use verikit_diag::{Diagnostic, Span};

/// Nesting limit for expressions and statements.
const MAX_DEPTH: usize = 200;

const PUNCTS: &[&str] = &[
    "::", "->", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "++", "--", "{", "}", "(", ")",
    "[", "]", ";", ",", ":", ".", "=", "<", ">", "+", "-", "*", "/", "%", "!", "?", "&", "|", "^",
    "~", "@",
];

fn lex(text: &str) -> Result<Vec<(Tok, Span)>, Diagnostic> {
    let mut out = lex_range(text, 0, text.len())?;
    out.push((Tok::Eof, Span::point(text.len())));
    Ok(out)
}

/// The end of the preprocessor line that starts at `i`: the next newline not escaped by `\`.
fn directive_end(text: &str, mut i: usize) -> usize {
    let b = text.as_bytes();
    while let Some(&c) = b.get(i) {
        if c == b'\n' && b.get(i.wrapping_sub(1)) != Some(&b'\\') {
            break;
        }
        i += 1;
    }
    i
}

/// A preprocessor line `#…` at `at` (ending before `end`): `#define` and `#undef` become tokens;
/// every other directive is refused by name.
fn directive(text: &str, at: usize, end: usize) -> Result<Option<(Tok, Span)>, Diagnostic> {
    let toks = lex_range(text, at + 1, end)?;
    let line = Span::new(at, end);
    let word = match toks.first() {
        Some((Tok::Ident(w), _)) => w.as_str(),
        _ => "",
    };
    match word {
        "define" => {
            let Some((Tok::Ident(name), nsp)) = toks.get(1) else {
                return Err(Diagnostic::at(line, "`#define` without a macro name")
                    .with_span(line, "directive"));
            };
            // Function-like when `(` follows the name with no space between (cpp's rule).
            let function_like =
                matches!(toks.get(2), Some((Tok::Punct("("), p)) if p.start == nsp.end);
            let (params, body_at) = if function_like {
                let (ps, k) = crate::promela_macro::param_list(&toks, 3).map_err(|k| {
                    let sp = toks.get(k).map_or(line, |t| t.1);
                    Diagnostic::at(sp, "`#define`: expected a parameter name or `)`")
                        .with_span(sp, "here")
                })?;
                (Some(ps), k)
            } else {
                (None, 2)
            };
            let body = toks.get(body_at..).unwrap_or_default().to_vec();
            Ok(Some((
                Tok::Define(Box::new(Macro {
                    name: name.clone(),
                    params,
                    body,
                })),
                line,
            )))
        }
        "undef" => {
            match toks.get(1) {
                Some((Tok::Ident(name), _)) => Ok(Some((Tok::Undef(name.clone()), line))),
                _ => Err(Diagnostic::at(line, "`#undef` without a macro name")
                    .with_span(line, "directive")),
            }
        }
        _ => {
            let sp = Span::new(at, (at + 1 + word.len()).min(end));
            Err(Diagnostic::at(
                sp,
                format!("preprocessor directive `#{word}` is not supported (only `#define` and `#undef`)"),
            )
            .with_span(sp, "directive"))
        }
    }
}

fn lex_range(text: &str, from: usize, to: usize) -> Result<Vec<(Tok, Span)>, Diagnostic> {
    let b = text.as_bytes().get(..to).unwrap_or_default();
    let mut i = from;
    let mut out = Vec::new();
    while let Some(&c) = b.get(i) {
        let rest = text.get(i..to).unwrap_or("");
        if rest.starts_with("\\\n") || rest.starts_with("\\\r\n") {
            // line continuation (inside `#define`)
            i += 1;
        } else if c == b'#' {
            let end = directive_end(text, i).min(to);
            out.extend(directive(text, i, end)?);
            i = end;
        } else if c == b'"' {
            // Read the literal whole so that the statement using it (`printf`) is refused by
            // name where it starts rather than at the quote.
            match rest.get(1..).and_then(|r| r.find('"')) {
                Some(k) => {
                    out.push((Tok::Str, Span::new(i, i + k + 2)));
                    i += k + 2;
                }
                None => {
                    let sp = Span::new(i, i + 1);
                    return Err(Diagnostic::at(sp, "unterminated string literal")
                        .with_span(sp, "string starts here"));
                }
            }
        } else {
            i = lex_one(text, i, to, PUNCTS, "Promela", &mut out)?;
        }
    }
    Ok(out)
}

/// Promela words this reader refuses by name.
const UNSUPPORTED: &[&str] = &[
    "typedef",
    "printf",
    "printm",
    "unless",
    "timeout",
    "np_",
    "xr",
    "xs",
    "hidden",
    "local",
    "show",
    "provided",
    "priority",
    "c_code",
    "c_expr",
    "c_decl",
    "c_state",
    "c_track",
    "select",
    "for",
    "unsigned",
    "len",
    "empty",
    "nempty",
    "full",
    "nfull",
    "enabled",
    "pc_value",
    "_pid",
    "_nr_pr",
    "_last",
    "trace",
    "notrace",
    "D_proctype",
    "get_priority",
    "set_priority",
];

const KEYWORDS: &[&str] = &[
    "if", "fi", "do", "od", "goto", "break", "skip", "else", "atomic", "d_step", "assert", "run",
    "proctype", "active", "init", "never", "chan", "of", "byte", "int", "short", "bool", "bit",
    "true", "false", "eval", "mtype",
];

type R<T> = Result<T, Diagnostic>;

#[path = "promela_ltl.rs"]
mod promela_ltl;

/// Promela's words and messages for the cursor.
static LANG: Lang<Tok> = Lang {
    unsupported: UNSUPPORTED,
    refusal: |w| format!("Promela `{w}` is not supported (outside the subset BEEM's models use)"),
    refusal_label: "unsupported construct",
    reserved: Some(KEYWORDS),
    other: |t| match t {
        Tok::Str => "a string literal",
        Tok::Define(_) | Tok::Undef(_) => "a preprocessor directive",
        _ => "end of input",
    },
    max_depth: MAX_DEPTH,
    nesting: "statements or expressions",
};

struct Parser {
    c: Cursor<Tok>,
    /// The `mtype` names declared so far and their values (SPIN's numbering: each declaration
    /// numbers its names from the last, 1 up, after the names of the earlier declarations).
    mtypes: Vec<(String, i64)>,
}

crate::token_cursor::cursor_parser!(Parser, Tok);

/// Parses a Promela file of the supported subset.
pub(crate) fn parse_promela(text: &str) -> Result<PromelaAst, Diagnostic> {
    let mut p = Parser {
        c: Cursor::new(crate::promela_macro::expand(lex(text)?)?, text.len(), &LANG),
        mtypes: Vec::new(),
    };
    p.file()
}

impl Parser {
    fn file(&mut self) -> R<PromelaAst> {
        let mut ast = PromelaAst::default();
        loop {
            while self.eat_punct(";") {}
            let start = self.span();
            if matches!(self.peek(), Tok::Eof) {
                break;
            } else if self.is_kw("mtype")
                && (matches!(self.peek_at(1), Tok::Punct("="))
                    || matches!(self.peek_at(3), Tok::Punct("=")))
            {
                self.mtype_decl()?;
            } else if self.type_start() {
                self.var_decls(&mut ast.vars)?;
            } else if self.eat_kw("chan") {
                ast.chans.push(self.chan(start)?);
            } else if self.is_kw("active") || self.is_kw("proctype") {
                ast.procs.push(self.proctype()?);
            } else if self.eat_kw("init") {
                if ast.init.is_some() {
                    return Err(Diagnostic::at(start, "a second `init`").with_span(start, "here"));
                }
                let body = self.block(&mut Vec::new())?;
                ast.init = Some((body, Span::new(start.start, self.prev_end())));
            } else if self.eat_kw("ltl") {
                let k = ast.ltl.len();
                let l = promela_ltl::ltl_block(self, start, k)?;
                if ast.ltl.iter().any(|o| o.name == l.name) {
                    return Err(Diagnostic::at(l.span, format!("a second `ltl {}`", l.name))
                        .with_span(l.span, "here"));
                }
                ast.ltl.push(l);
            } else if self.eat_kw("never") {
                if ast.never.is_some() {
                    return Err(
                        Diagnostic::at(start, "a second `never` claim").with_span(start, "here")
                    );
                }
                let body = self.block(&mut Vec::new())?;
                ast.never = Some((body, Span::new(start.start, self.prev_end())));
            } else {
                return self.err("a declaration, `proctype`, `init`, `ltl` or `never`");
            }
        }
        Ok(ast)
    }

    /// `mtype = { a, b, c };` or `mtype:name = { … };` (a sub-type's names share the one
    /// numbering, as in SPIN).
    fn mtype_decl(&mut self) -> R<()> {
        self.bump();
        if self.eat_punct(":") {
            self.ident()?;
        }
        self.expect_punct("=")?;
        self.expect_punct("{")?;
        let names = comma_list(self, |p| p.ident())?;
        self.expect_punct("}")?;
        let base = self.mtypes.len() as i64;
        let k = names.len() as i64;
        for (i, (name, sp)) in names.into_iter().enumerate() {
            if self.mtypes.iter().any(|(n, _)| *n == name) {
                return Err(
                    Diagnostic::at(sp, format!("`{name}` is already an mtype name"))
                        .with_span(sp, "declared again"),
                );
            }
            let v = base + k - i as i64;
            if v > 255 {
                return Err(Diagnostic::at(sp, "more than 255 mtype names").with_span(sp, "here"));
            }
            self.mtypes.push((name, v));
        }
        Ok(())
    }

    /// The value of an `mtype` name.
    fn mtype_value(&self, name: &str) -> Option<i64> {
        self.mtypes.iter().find(|(n, _)| n == name).map(|&(_, v)| v)
    }

    fn type_start(&self) -> bool {
        ["byte", "int", "short", "bool", "bit", "mtype"]
            .iter()
            .any(|k| self.is_kw(k))
    }

    fn ty(&mut self) -> R<Ty> {
        let t = if self.eat_kw("mtype") {
            // `mtype:name`: a sub-type, stored as a byte like every mtype.
            if self.is_punct(":") && matches!(self.peek_at(1), Tok::Ident(_)) {
                self.bump();
                self.bump();
            }
            Ty::Byte
        } else if self.eat_kw("byte") || self.eat_kw("bool") || self.eat_kw("bit") {
            Ty::Byte
        } else if self.eat_kw("int") || self.eat_kw("short") {
            Ty::Int
        } else {
            return self.err("a type (`byte`, `bool`, `bit`, `short`, `int`, `mtype`)");
        };
        Ok(t)
    }

    /// `byte a = 1, b[3];`
    fn var_decls(&mut self, out: &mut Vec<VarDef>) -> R<()> {
        let ty = self.ty()?;
        let defs = comma_list(self, |p| {
            let (name, sp) = p.ident()?;
            let len = c_expr::subscript(p)?;
            let init = if p.eat_punct("=") {
                Some(p.expr()?)
            } else {
                None
            };
            Ok(VarDef {
                name,
                ty,
                len,
                init,
                span: Span::new(sp.start, p.prev_end()),
            })
        })?;
        out.extend(defs);
        if !self.is_punct("}") {
            self.expect_punct(";")?;
        }
        Ok(())
    }

    /// `chan c = [n] of { int, byte };` (after `chan`).
    fn chan(&mut self, start: Span) -> R<ChanDef> {
        let (name, _) = self.ident()?;
        if self.is_punct("[") {
            return self.err("`=` (arrays of channels are not supported)");
        }
        self.expect_punct("=")?;
        self.expect_punct("[")?;
        let capacity = self.expr()?;
        self.expect_punct("]")?;
        if !self.eat_kw("of") {
            return self.err("`of`");
        }
        self.expect_punct("{")?;
        let types = comma_list(self, Parser::ty)?;
        self.expect_punct("}")?;
        let span = Span::new(start.start, self.prev_end());
        Ok(ChanDef {
            name,
            capacity,
            types,
            span,
        })
    }

    fn proctype(&mut self) -> R<Proctype> {
        let start = self.span();
        let active = if self.eat_kw("active") {
            if self.eat_punct("[") {
                let e = self.expr()?;
                self.expect_punct("]")?;
                Some(e)
            } else {
                Some(Expr::Int(1, start))
            }
        } else {
            None
        };
        if !self.eat_kw("proctype") {
            return self.err("`proctype`");
        }
        let (name, _) = self.ident()?;
        self.expect_punct("(")?;
        let params = self.params()?;
        self.expect_punct(")")?;
        let mut locals = Vec::new();
        let body = self.block(&mut locals)?;
        Ok(Proctype {
            name,
            active,
            params,
            locals,
            body,
            span: Span::new(start.start, self.prev_end()),
        })
    }

    /// Process parameters up to `)`: groups `type name, name` separated by `;`, the type a
    /// scalar type or `chan`.
    fn params(&mut self) -> R<Vec<(String, Option<Ty>, Span)>> {
        let mut out = Vec::new();
        while !self.is_punct(")") {
            let ty = if self.eat_kw("chan") {
                None
            } else {
                Some(self.ty()?)
            };
            for (name, sp) in comma_list(self, |p| p.ident())? {
                if self.is_punct("[") {
                    return self.err("`,`, `;` or `)` (array parameters are not supported)");
                }
                out.push((name, ty, sp));
            }
            if !self.eat_punct(";") {
                break;
            }
        }
        Ok(out)
    }

    /// `{ sequence }`; declarations met in it go to `locals`.
    fn block(&mut self, locals: &mut Vec<VarDef>) -> R<Vec<Step>> {
        self.expect_punct("{")?;
        let s = self.sequence(locals)?;
        self.expect_punct("}")?;
        Ok(s)
    }

    /// Steps separated by `;` or `->`, up to `}`, `::`, `fi` or `od`.
    fn sequence(&mut self, locals: &mut Vec<VarDef>) -> R<Vec<Step>> {
        self.enter()?;
        let mut out = Vec::new();
        loop {
            while self.eat_punct(";") || self.eat_punct("->") {}
            if self.is_punct("}") || self.is_punct("::") || self.is_kw("fi") || self.is_kw("od") {
                break;
            }
            if self.type_start() {
                self.var_decls(locals)?;
                continue;
            }
            out.push(self.step(locals)?);
            // A compound statement (`… }`, `fi`, `od`) needs no separator after it.
            let closed = self
                .pos
                .checked_sub(1)
                .and_then(|k| self.toks.get(k))
                .is_some_and(|t| {
                    matches!(&t.0, Tok::Punct("}"))
                        || matches!(&t.0, Tok::Ident(w) if w == "fi" || w == "od")
                });
            if !(closed
                || self.is_punct(";")
                || self.is_punct("->")
                || self.is_punct("}")
                || self.is_punct("::")
                || self.is_kw("fi")
                || self.is_kw("od"))
            {
                return self.err("`;`");
            }
        }
        self.c.leave();
        Ok(out)
    }

    fn step(&mut self, locals: &mut Vec<VarDef>) -> R<Step> {
        let start = self.span();
        let mut labels = Vec::new();
        while matches!(self.peek(), Tok::Ident(w) if !KEYWORDS.contains(&w.as_str()))
            && matches!(self.peek_at(1), Tok::Punct(":"))
        {
            let (l, sp) = self.ident()?;
            self.bump();
            labels.push((l, sp));
        }
        if self.is_punct("}") || self.is_kw("fi") || self.is_kw("od") || self.is_punct("::") {
            // A label at the end of a sequence labels an empty step.
            return Ok(Step {
                labels,
                stmt: Stmt::Empty,
                span: start,
            });
        }
        let stmt = self.stmt(locals)?;
        Ok(Step {
            labels,
            stmt,
            span: Span::new(start.start, self.prev_end()),
        })
    }

    fn options(&mut self, end: &str, locals: &mut Vec<VarDef>) -> R<Vec<Vec<Step>>> {
        let mut opts = Vec::new();
        while self.eat_punct("::") {
            opts.push(self.sequence(locals)?);
        }
        if opts.is_empty() {
            return self.err("`::` (an option)");
        }
        if !self.eat_kw(end) {
            return self.err(&format!("`{end}` or `::`"));
        }
        Ok(opts)
    }

    fn stmt(&mut self, locals: &mut Vec<VarDef>) -> R<Stmt> {
        let sp = self.span();
        if self.eat_kw("if") {
            return Ok(Stmt::If(self.options("fi", locals)?));
        }
        if self.eat_kw("do") {
            return Ok(Stmt::Do(self.options("od", locals)?));
        }
        if self.eat_kw("atomic") {
            return Ok(Stmt::Atomic(self.block(locals)?));
        }
        if self.eat_kw("d_step") {
            return Ok(Stmt::DStep(self.block(locals)?));
        }
        if self.is_punct("{") {
            return Ok(Stmt::If(vec![self.block(locals)?]));
        }
        if self.eat_kw("goto") {
            let (l, lsp) = self.ident()?;
            return Ok(Stmt::Goto(l, lsp));
        }
        if self.eat_kw("break") {
            return Ok(Stmt::Break);
        }
        if self.eat_kw("skip") {
            return Ok(Stmt::Skip);
        }
        if self.eat_kw("else") {
            return Ok(Stmt::Else);
        }
        if self.eat_kw("assert") {
            return Ok(Stmt::Assert(self.expr()?));
        }
        if self.eat_kw("run") {
            let (p, psp) = self.ident()?;
            self.expect_punct("(")?;
            let args = if self.is_punct(")") {
                Vec::new()
            } else {
                comma_list(self, |p| p.expr())?
            };
            self.expect_punct(")")?;
            return Ok(Stmt::Run(p, args, Span::new(psp.start, self.prev_end())));
        }
        if let Tok::Ident(w) = self.peek().clone() {
            if !KEYWORDS.contains(&w.as_str()) && !UNSUPPORTED.contains(&w.as_str()) {
                match self.peek_at(1) {
                    Tok::Punct("!") => {
                        self.bump();
                        self.bump();
                        let vals = comma_list(self, Parser::expr)?;
                        return Ok(Stmt::Send(w, vals, Span::new(sp.start, self.prev_end())));
                    }
                    Tok::Punct("?") => {
                        self.bump();
                        self.bump();
                        let paren = self.eat_punct("(");
                        let args = comma_list(self, Parser::recv_arg)?;
                        if paren {
                            self.expect_punct(")")?;
                        }
                        return Ok(Stmt::Recv(w, args, Span::new(sp.start, self.prev_end())));
                    }
                    _ => {}
                }
                // An assignment, `x++`/`x--`, or an expression that starts with a name.
                let save = self.pos;
                let lv = c_expr::lvalue(self)?;
                if self.eat_punct("=") {
                    let e = self.expr()?;
                    return Ok(Stmt::Assign(lv, e));
                }
                for (op, b) in [("++", BinOp::Add), ("--", BinOp::Sub)] {
                    if self.eat_punct(op) {
                        let cur = match &lv.index {
                            None => Expr::Var(lv.name.clone(), lv.span),
                            Some(i) => Expr::Index(lv.name.clone(), Box::new(i.clone()), lv.span),
                        };
                        let span = Span::new(sp.start, self.prev_end());
                        let e = Expr::Binary(b, Box::new(cur), Box::new(Expr::Int(1, span)), span);
                        return Ok(Stmt::Assign(lv, e));
                    }
                }
                self.pos = save;
            }
        }
        Ok(Stmt::Cond(self.expr()?))
    }

    fn recv_arg(&mut self) -> R<RecvArg> {
        if self.eat_kw("eval") {
            self.expect_punct("(")?;
            let e = self.expr()?;
            self.expect_punct(")")?;
            return Ok(RecvArg::Match(e));
        }
        match self.peek() {
            Tok::Int(_) | Tok::Punct("-") => Ok(RecvArg::Match(c_expr::unary(self)?)),
            Tok::Ident(w) if w == "true" || w == "false" || self.mtype_value(w).is_some() => {
                Ok(RecvArg::Match(c_expr::unary(self)?))
            }
            _ => Ok(RecvArg::Store(c_expr::lvalue(self)?)),
        }
    }

    fn expr(&mut self) -> R<Expr> {
        c_expr::expr(self)
    }
}

/// Promela expressions: the shared grammar of `c_expr`; names are variables or `a[i]`.
impl ExprParser for Parser {
    fn inside_parens(&mut self) -> R<()> {
        if self.is_punct("->") {
            return self.err("`)` (conditional expressions are not supported)");
        }
        Ok(())
    }
    fn name_primary(&mut self) -> R<Expr> {
        let (name, nsp) = self.ident()?;
        if let Some(v) = self.mtype_value(&name) {
            return Ok(Expr::Int(v, nsp));
        }
        if self.is_punct("@") || self.is_punct(".") {
            return self.err("an operator (remote references are not supported)");
        }
        c_expr::var_or_index(self, name, nsp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_beem_shapes() {
        let src = "byte fork[2]; chan c =[0] of {int};\n\
            active proctype P() { byte l=0;\n\
            think: if :: d_step {fork[0]==0;fork[0] = 1;} goto eat;\n\
            :: c!0; goto think; fi;\n\
            eat: if :: c?0; goto think; :: l++ -> goto eat; fi; }\n\
            init { d_step { fork[1] = 0; } atomic { run P(); } }";
        let ast = parse_promela(src).expect("parses");
        assert_eq!(ast.vars.len(), 1);
        assert_eq!(ast.chans.len(), 1);
        assert_eq!(ast.procs.len(), 1);
        assert_eq!(ast.procs[0].locals.len(), 1);
        assert!(ast.init.is_some());
    }

    #[test]
    fn refuses_by_name() {
        // `mtype` is read (decision 0706); `typedef` is still refused by name.
        assert!(parse_promela("mtype = { a, b };").is_ok());
        let e = parse_promela("typedef T { byte x };").expect_err("typedef");
        assert!(e.message.contains("typedef"), "{}", e.message);
        let e = parse_promela("#include \"x.h\"\n").expect_err("include");
        assert!(e.message.contains("#include"), "{}", e.message);
        assert_eq!(e.span.map(|s| s.start), Some(0));
        let e = parse_promela("active proctype P() { printf(\"x\") }").expect_err("printf");
        assert!(e.message.contains("printf"), "{}", e.message);
    }
}
