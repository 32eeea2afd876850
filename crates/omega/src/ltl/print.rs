//! Printing formulas back in Spot's syntax, with Spot's parenthesisation: unary operators (`!`, `X`,
//! `F`, `G`) are written without a space and take a parenthesised operand only when it is a binary
//! formula (`G(a -> Fb)`, `XF!a`); a binary or n-ary operand of a binary operator is always
//! parenthesised (`a | (b & c)`, `(a U b) U c`); constants are `1` and `0`; atomic propositions
//! that are not plain identifiers (or that could be read as operators) are double-quoted.

use super::ast::{Arena, Node, F};
use super::sere::{Sere, S};
use std::fmt::Write;

/// The formula in Spot syntax.
pub fn to_string(a: &Arena, f: F) -> String {
    let mut s = String::new();
    go(a, f, &mut s);
    s
}

/// How an atomic proposition name is written: bare when Spot's printer writes it bare (a name of
/// letters, digits, `_` and `.` not starting with a digit or with `F`, `G`, `X`, and not a lone
/// binary-operator letter nor `true`/`false` in any case), and also quoted when it is `V` or
/// `xor`, which Spot's scanner would read as operators; quoted names escape `"` and `\`.
pub fn ap_text(name: &str) -> String {
    let b = name.as_bytes();
    let plain = b.first().is_some_and(|&c| {
        (c.is_ascii_alphabetic() || c == b'_' || c == b'.') && !matches!(c, b'F' | b'G' | b'X')
    }) && b
        .iter()
        .all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
        && !matches!(name, "U" | "W" | "M" | "R" | "S" | "V" | "xor")
        && !name.eq_ignore_ascii_case("true")
        && !name.eq_ignore_ascii_case("false");
    if plain {
        return name.to_string();
    }
    let mut o = String::from("\"");
    for c in name.chars() {
        if c == '"' || c == '\\' {
            o.push('\\');
        }
        o.push(c);
    }
    o.push('"');
    o
}

fn is_atomic_or_unary(a: &Arena, f: F) -> bool {
    matches!(
        a.node(f),
        Node::True
            | Node::False
            | Node::Ap(_)
            | Node::Not(_)
            | Node::X(_)
            | Node::Ev(_)
            | Node::Gl(_)
            | Node::Closure(_)
            | Node::NegClosure(..)
    ) || matches!(a.node(f), Node::EConcat(_, x, _) if a.is_true(*x))
}

fn operand(a: &Arena, f: F, s: &mut String) {
    if is_atomic_or_unary(a, f) {
        go(a, f, s);
    } else {
        s.push('(');
        go(a, f, s);
        s.push(')');
    }
}

/// `X`, `F` or `G` and its operand, without a space (`FB` reads back as `F(B)` in Spot's syntax);
/// a constant operand is parenthesised as Spot does (`X(1)`: `X1` is a proposition).
fn temporal_unary(op: char, a: &Arena, x: F, s: &mut String) {
    s.push(op);
    if matches!(a.node(x), Node::True | Node::False) {
        s.push('(');
        go(a, x, s);
        s.push(')');
    } else {
        operand(a, x, s);
    }
}

/// Binding strength of a SERE operator (loosest first), for parenthesisation.
fn sere_level(a: &Arena, r: S) -> u8 {
    match a.sere(r) {
        Sere::Or(_) => 1,
        Sere::AndNlm(_) => 2,
        Sere::AndLen(_) => 3,
        Sere::Concat(_) => 4,
        Sere::Fusion(_) => 5,
        Sere::Bool(b) if !is_atomic_or_unary(a, *b) => 1,
        _ => 6,
    }
}

fn sere_operand(a: &Arena, r: S, min: u8, s: &mut String) {
    if sere_level(a, r) < min {
        s.push('{');
        sere(a, r, s);
        s.push('}');
    } else {
        sere(a, r, s);
    }
}

fn bounds(lo: u32, hi: Option<u32>) -> String {
    match hi {
        Some(h) if h == lo => format!("{lo}"),
        Some(h) => format!("{lo}..{h}"),
        None if lo == 0 => String::new(),
        None => format!("{lo}.."),
    }
}

/// A SERE in Spot syntax (without the outer braces).
pub(crate) fn sere(a: &Arena, r: S, s: &mut String) {
    match a.sere(r) {
        Sere::Empty => s.push_str("[*0]"),
        Sere::Bool(b) => go(a, *b, s),
        Sere::Concat(v) | Sere::Fusion(v) | Sere::Or(v) | Sere::AndLen(v) | Sere::AndNlm(v) => {
            let (op, lvl) = match a.sere(r) {
                Sere::Concat(_) => (";", 5),
                Sere::Fusion(_) => (":", 6),
                Sere::Or(_) => (" | ", 2),
                Sere::AndLen(_) => (" && ", 4),
                _ => (" & ", 3),
            };
            for (k, &x) in v.iter().enumerate() {
                if k > 0 {
                    s.push_str(op);
                }
                sere_operand(a, x, lvl, s);
            }
        }
        Sere::Star(x, lo, hi) => {
            sere_operand(a, *x, 6, s);
            if (*lo, *hi) == (1, None) {
                s.push_str("[+]");
            } else {
                let _ = write!(s, "[*{}]", bounds(*lo, *hi));
            }
        }
        Sere::FStar(x, lo, hi) => {
            sere_operand(a, *x, 6, s);
            if (*lo, *hi) == (1, None) {
                s.push_str("[:+]");
            } else {
                let _ = write!(s, "[:*{}]", bounds(*lo, *hi));
            }
        }
    }
}

fn go(a: &Arena, f: F, s: &mut String) {
    match a.node(f) {
        Node::Closure(r) => {
            s.push('{');
            sere(a, *r, s);
            s.push('}');
        }
        Node::NegClosure(r, _) => {
            s.push_str("!{");
            sere(a, *r, s);
            s.push('}');
        }
        Node::EConcat(r, x, _) if a.is_true(*x) => {
            s.push('{');
            sere(a, *r, s);
            s.push_str("}!");
        }
        Node::EConcat(r, x, _) | Node::UConcat(r, x) => {
            s.push('{');
            sere(a, *r, s);
            let op = if matches!(a.node(f), Node::EConcat(..)) {
                "}<>-> "
            } else {
                "}[]-> "
            };
            s.push_str(op);
            operand(a, *x, s);
        }
        Node::True => s.push('1'),
        Node::False => s.push('0'),
        Node::Ap(i) => s.push_str(&ap_text(a.ap_name(*i))),
        Node::Not(x) => {
            s.push('!');
            operand(a, *x, s);
        }
        Node::X(x) => temporal_unary('X', a, *x, s),
        Node::Ev(x) => temporal_unary('F', a, *x, s),
        Node::Gl(x) => temporal_unary('G', a, *x, s),
        Node::And(v) | Node::Or(v) => {
            let op = if matches!(a.node(f), Node::And(_)) {
                " & "
            } else {
                " | "
            };
            for (k, &x) in v.iter().enumerate() {
                if k > 0 {
                    s.push_str(op);
                }
                operand(a, x, s);
            }
        }
        node => {
            if let Some((op, x, y)) = node.binary() {
                operand(a, x, s);
                let _ = write!(s, " {op} ");
                operand(a, y, s);
            }
        }
    }
}
