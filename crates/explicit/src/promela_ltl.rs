//! Promela's `ltl name { formula }` blocks (SPIN 6; Holzmann, *The SPIN Model Checker*, 2003,
//! ch. 6 "Linear Temporal Logic" and the SPIN 6 `ltl` reference) read into a formula in Spot's
//! syntax, which `ltl_prepare` turns into the Büchi automaton of its negation (the paper the
//! product follows: Barnat et al., "DiVinE: a tool for distributed verification", CAV 2006, §2).
//!
//! Operators and their Spot spelling: `[]`/`always` → `G`, `<>`/`eventually` → `F`, `X`/`next`
//! → `X`, `U`/`until` → `U`, `W`/`weakuntil` → `W`, `V`/`release` → `R`, `!`/`not`,
//! `&&`/`and`, `||`/`or`, `->`/`implies`, `<->`/`equivalent`. Precedence, loosest first:
//! `->`/`<->` (right-associative), `||`, `&&`, the binary temporal operators
//! (right-associative), the prefix operators. An atom is a Promela expression up to the level
//! of `|` (comparisons, arithmetic, array elements), or a parenthesised formula; each distinct
//! atom becomes one proposition `pK` whose definition is the expression in DVE syntax (the
//! lowered model keeps Promela's global names).

use super::{Parser, Tok, R};
use crate::dve_ast::{BinOp, Expr, LtlProperty, UnOp};
use verikit_diag::{Diagnostic, Span};

/// The formula being built: its propositions (name, DVE expression) so far.
struct Atoms {
    defs: Vec<(String, String)>,
}

/// `ltl [name] { formula }` after the `ltl` keyword at `start`; `k` numbers unnamed blocks.
pub(super) fn ltl_block(p: &mut Parser, start: Span, k: usize) -> R<LtlProperty> {
    let name = match p.peek() {
        Tok::Ident(_) => p.ident()?.0,
        _ => format!("ltl_{k}"),
    };
    p.expect_punct("{")?;
    let mut atoms = Atoms { defs: Vec::new() };
    let formula = implication(p, &mut atoms)?;
    p.expect_punct("}")?;
    Ok(LtlProperty {
        name,
        formula,
        aps: atoms.defs,
        span: Span::new(start.start, p.prev_end()),
    })
}

fn implication(p: &mut Parser, a: &mut Atoms) -> R<String> {
    p.enter()?;
    let lhs = or(p, a)?;
    let op = if p.eat_punct("->") || p.eat_kw("implies") {
        Some("->")
    } else if p.is_punct("<") && p.peek_at(1) == &Tok::Punct("->") {
        p.bump();
        p.bump();
        Some("<->")
    } else if p.eat_kw("equivalent") {
        Some("<->")
    } else {
        None
    };
    let r = match op {
        Some(op) => format!("({lhs} {op} {})", implication(p, a)?),
        None => lhs,
    };
    p.c.leave();
    Ok(r)
}

fn or(p: &mut Parser, a: &mut Atoms) -> R<String> {
    let mut lhs = and(p, a)?;
    while p.eat_punct("||") || p.eat_kw("or") {
        lhs = format!("({lhs} | {})", and(p, a)?);
    }
    Ok(lhs)
}

fn and(p: &mut Parser, a: &mut Atoms) -> R<String> {
    let mut lhs = until(p, a)?;
    while p.eat_punct("&&") || p.eat_kw("and") {
        lhs = format!("({lhs} & {})", until(p, a)?);
    }
    Ok(lhs)
}

fn until(p: &mut Parser, a: &mut Atoms) -> R<String> {
    let lhs = unary(p, a)?;
    let op = [
        ("U", "U"),
        ("until", "U"),
        ("W", "W"),
        ("weakuntil", "W"),
        ("V", "R"),
        ("release", "R"),
    ]
    .iter()
    .find(|(w, _)| p.is_kw(w))
    .map(|(_, s)| *s);
    match op {
        Some(op) => {
            p.bump();
            p.enter()?;
            let rhs = until(p, a)?;
            p.c.leave();
            Ok(format!("({lhs} {op} {rhs})"))
        }
        None => Ok(lhs),
    }
}

fn unary(p: &mut Parser, a: &mut Atoms) -> R<String> {
    let op = if p.is_punct("[") && p.peek_at(1) == &Tok::Punct("]") {
        p.bump();
        Some("G")
    } else if p.is_punct("<") && p.peek_at(1) == &Tok::Punct(">") {
        p.bump();
        Some("F")
    } else if p.is_punct("!") {
        Some("!")
    } else {
        [
            ("always", "G"),
            ("eventually", "F"),
            ("X", "X"),
            ("next", "X"),
            ("not", "!"),
        ]
        .iter()
        .find(|(w, _)| p.is_kw(w))
        .map(|(_, s)| *s)
    };
    match op {
        Some(op) => {
            p.bump();
            p.enter()?;
            let e = unary(p, a);
            p.c.leave();
            Ok(format!("{op}({})", e?))
        }
        None => atom(p, a),
    }
}

/// Does the current token continue an expression (a binary operator tighter than `&&`)?
fn continues_expr(p: &Parser) -> bool {
    matches!(
        p.peek(),
        Tok::Punct(
            "|" | "^"
                | "&"
                | "=="
                | "!="
                | "<"
                | "<="
                | ">"
                | ">="
                | "<<"
                | ">>"
                | "+"
                | "-"
                | "*"
                | "/"
                | "%"
        )
    ) && !(p.is_punct("<") && matches!(p.peek_at(1), Tok::Punct("->")))
}

fn atom(p: &mut Parser, a: &mut Atoms) -> R<String> {
    if p.is_punct("(") {
        // A parenthesised formula, unless the parentheses only group part of an expression
        // (`(x + 1) > 2`): then re-read the whole as an expression.
        let save = p.pos;
        p.bump();
        let inner = implication(p, a);
        if let Ok(f) = inner {
            if p.eat_punct(")") && !continues_expr(p) {
                return Ok(f);
            }
        }
        p.pos = save;
    }
    match p.peek() {
        Tok::Ident(w) if w == "true" || w == "false" => {
            let w = w.clone();
            p.bump();
            return Ok(w);
        }
        _ => {}
    }
    let start = p.span();
    let e = crate::c_expr::comparison(p)?;
    let text = dve_text(&e).ok_or_else(|| {
        let sp = start.join(e.span());
        Diagnostic::at(
            sp,
            "this proposition cannot be checked (remote references are not supported)",
        )
        .with_span(sp, "proposition")
    })?;
    let name = match a.defs.iter().find(|(_, t)| *t == text) {
        Some((n, _)) => n.clone(),
        None => {
            let n = format!("p{}", a.defs.len());
            a.defs.push((n.clone(), text));
            n
        }
    };
    Ok(name)
}

/// The DVE text of an expression (fully parenthesised); `None` for forms Promela cannot write.
fn dve_text(e: &Expr) -> Option<String> {
    Some(match e {
        Expr::Int(v, _) => format!("({v})"),
        Expr::Var(n, _) => n.clone(),
        Expr::Index(n, i, _) => format!("{n}[{}]", dve_text(i)?),
        Expr::Unary(op, x, _) => {
            let o = match op {
                UnOp::Neg => "-",
                UnOp::Not => "!",
                UnOp::BitNot => "~",
            };
            format!("({o}{})", dve_text(x)?)
        }
        Expr::Binary(op, l, r, _) => {
            let o = match op {
                BinOp::Mul => "*",
                BinOp::Div => "/",
                BinOp::Mod => "%",
                BinOp::Add => "+",
                BinOp::Sub => "-",
                BinOp::Shl => "<<",
                BinOp::Shr => ">>",
                BinOp::Lt => "<",
                BinOp::Le => "<=",
                BinOp::Gt => ">",
                BinOp::Ge => ">=",
                BinOp::Eq => "==",
                BinOp::Ne => "!=",
                BinOp::BitAnd => "&",
                BinOp::BitXor => "^",
                BinOp::BitOr => "|",
                BinOp::And => "&&",
                BinOp::Or => "||",
                BinOp::Imply => "imply",
            };
            format!("({} {o} {})", dve_text(l)?, dve_text(r)?)
        }
        Expr::InState(..) | Expr::Remote(..) => return None,
    })
}
