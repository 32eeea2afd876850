//! The C-like expression grammar DVE and Promela share (DiVinE's DVE of Barnat et al., CAV 2006
//! §2, and Promela as in Holzmann, *The SPIN Model Checker*, 2003): precedence climbing over the
//! binary operators (`||` < `&&` < `|` < `^` < `&` < `==`/`!=` < relations < shifts < `+`/`-` <
//! `*`/`/`/`%`, all left-associative), prefix `-`, `!`, `~`, integer literals, `true`/`false`,
//! parentheses. One implementation for both front ends, over a small trait each parser
//! implements: its tokens as [`Peek`], its errors, its nesting limit, and the language-specific
//! parts (DVE's word operators `imply`/`or`/`and`/`not`, what may follow a name, Promela's
//! refusal of conditional expressions).

use crate::dve_ast::{BinOp, Expr, LValue, UnOp};
use crate::token_cursor::{Cursored, Token};
use verikit_diag::{Diagnostic, Span};

type R<T> = Result<T, Diagnostic>;

/// The current token as the expression grammar sees it.
pub(crate) enum Peek<'a> {
    Int(i64),
    Ident(&'a str),
    Punct(&'static str),
    /// Anything else (end of input, a string literal, …).
    Other,
}

/// What a front end's parser provides to the shared grammar: its cursor (tokens, errors,
/// nesting limit) and the language-specific parts.
pub(crate) trait ExprParser: Cursored {
    fn peek_tok(&self) -> Peek<'_> {
        let t = self.cursor().peek();
        if let Some(w) = t.as_ident() {
            Peek::Ident(w)
        } else if let Some(v) = t.as_int() {
            Peek::Int(v)
        } else if let Some(p) = t.as_punct() {
            Peek::Punct(p)
        } else {
            Peek::Other
        }
    }
    fn cur_span(&self) -> Span {
        self.cursor().span()
    }
    /// Consumes the current token.
    fn advance(&mut self) {
        self.cursor_mut().bump();
    }
    /// Consumes punctuation `p` or fails.
    fn expect(&mut self, p: &str) -> R<Span> {
        self.cursor_mut().expect_punct(p)
    }
    /// An error "expected `what`" at the current token.
    fn fail<T>(&self, what: &str) -> R<T> {
        self.cursor().err(what)
    }
    /// Enters one nesting level (an expression, a prefix operator's operand); too deep is an error.
    fn enter(&mut self) -> R<()> {
        self.cursor_mut().enter()
    }
    fn leave(&mut self) {
        self.cursor_mut().leave();
    }
    /// A word operator and its precedence (DVE: `imply` 0, `or` 1, `and` 2).
    fn word_binop(&self, _w: &str) -> Option<(BinOp, usize)> {
        None
    }
    /// Is this word a negation (DVE: `not`)?
    fn word_not(&self, _w: &str) -> bool {
        false
    }
    /// A primary that starts with a name (the current token, not `true`/`false`).
    fn name_primary(&mut self) -> R<Expr>;
    /// Called after the expression inside parentheses, before the `)`.
    fn inside_parens(&mut self) -> R<()> {
        Ok(())
    }
}

/// One or more items separated by commas.
pub(crate) fn comma_list<P: Cursored, X>(
    p: &mut P,
    mut item: impl FnMut(&mut P) -> R<X>,
) -> R<Vec<X>> {
    let mut v = vec![item(p)?];
    while p.cursor_mut().eat_punct(",") {
        v.push(item(p)?);
    }
    Ok(v)
}

/// An optional subscript `[e]`.
pub(crate) fn subscript<P: ExprParser>(p: &mut P) -> R<Option<Expr>> {
    if !p.cursor_mut().eat_punct("[") {
        return Ok(None);
    }
    let e = expr(p)?;
    p.expect("]")?;
    Ok(Some(e))
}

/// A name or an array element `a[e]`, as the primary that starts with the name `name` at `sp`
/// (already consumed).
pub(crate) fn var_or_index<P: ExprParser>(p: &mut P, name: String, sp: Span) -> R<Expr> {
    Ok(match subscript(p)? {
        Some(i) => Expr::Index(
            name,
            Box::new(i),
            Span::new(sp.start, p.cursor().prev_end()),
        ),
        None => Expr::Var(name, sp),
    })
}

/// The target of an assignment or a receive: a name, or an array element `a[e]`.
pub(crate) fn lvalue<P: ExprParser>(p: &mut P) -> R<LValue> {
    let (name, sp) = p.cursor_mut().ident()?;
    let index = subscript(p)?;
    Ok(LValue {
        name,
        index,
        span: Span::new(sp.start, p.cursor().prev_end()),
    })
}

/// An expression.
pub(crate) fn expr<P: ExprParser>(p: &mut P) -> R<Expr> {
    p.enter()?;
    let r = binary(p, 0);
    p.leave();
    r
}

/// An expression whose loosest operator binds tighter than `&&` (bitwise or, comparisons,
/// arithmetic): a proposition inside a formula whose own connectives are `&&`, `||`.
pub(crate) fn comparison<P: ExprParser>(p: &mut P) -> R<Expr> {
    p.enter()?;
    let r = binary(p, 3);
    p.leave();
    r
}

fn binop<P: ExprParser>(p: &P) -> Option<(BinOp, usize)> {
    match p.peek_tok() {
        Peek::Ident(w) => p.word_binop(w),
        Peek::Punct(q) => Some(match q {
            "||" => (BinOp::Or, 1),
            "&&" => (BinOp::And, 2),
            "|" => (BinOp::BitOr, 3),
            "^" => (BinOp::BitXor, 4),
            "&" => (BinOp::BitAnd, 5),
            "==" => (BinOp::Eq, 6),
            "!=" => (BinOp::Ne, 6),
            "<" => (BinOp::Lt, 7),
            "<=" => (BinOp::Le, 7),
            ">" => (BinOp::Gt, 7),
            ">=" => (BinOp::Ge, 7),
            "<<" => (BinOp::Shl, 8),
            ">>" => (BinOp::Shr, 8),
            "+" => (BinOp::Add, 9),
            "-" => (BinOp::Sub, 9),
            "*" => (BinOp::Mul, 10),
            "/" => (BinOp::Div, 10),
            "%" => (BinOp::Mod, 10),
            _ => return None,
        }),
        _ => None,
    }
}

fn binary<P: ExprParser>(p: &mut P, min: usize) -> R<Expr> {
    let mut lhs = unary(p)?;
    while let Some((op, prec)) = binop(p) {
        if prec < min {
            break;
        }
        p.advance();
        // `imply` is right-associative; the rest associate to the left.
        let next = if op == BinOp::Imply { prec } else { prec + 1 };
        let rhs = binary(p, next)?;
        let sp = lhs.span().join(rhs.span());
        lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs), sp);
    }
    Ok(lhs)
}

/// A prefix-operator expression or a primary.
pub(crate) fn unary<P: ExprParser>(p: &mut P) -> R<Expr> {
    let sp = p.cur_span();
    let op = match p.peek_tok() {
        Peek::Punct("-") => Some(UnOp::Neg),
        Peek::Punct("!") => Some(UnOp::Not),
        Peek::Punct("~") => Some(UnOp::BitNot),
        Peek::Ident(w) if p.word_not(w) => Some(UnOp::Not),
        _ => None,
    };
    match op {
        Some(op) => {
            p.advance();
            p.enter()?;
            let e = unary(p);
            p.leave();
            let e = e?;
            let s = sp.join(e.span());
            Ok(Expr::Unary(op, Box::new(e), s))
        }
        None => primary(p),
    }
}

fn primary<P: ExprParser>(p: &mut P) -> R<Expr> {
    let sp = p.cur_span();
    match p.peek_tok() {
        Peek::Int(v) => {
            p.advance();
            Ok(Expr::Int(v, sp))
        }
        Peek::Punct("(") => {
            p.advance();
            let e = expr(p)?;
            p.inside_parens()?;
            p.expect(")")?;
            Ok(e)
        }
        Peek::Ident("true") => {
            p.advance();
            Ok(Expr::Int(1, sp))
        }
        Peek::Ident("false") => {
            p.advance();
            Ok(Expr::Int(0, sp))
        }
        Peek::Ident(_) => p.name_primary(),
        _ => p.fail("an expression"),
    }
}
