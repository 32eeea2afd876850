//! Parser for LTL in Spot's syntax (the syntax of `ltl2tgba`, `ltlfilt`, `randltl`).
//!
//! Operators: `!`/`~`, `X`, `F`/`<>`, `G`/`[]`, `U`, `R`/`V`, `W`, `M`, `&`/`&&`/`/\`,
//! `|`/`||`/`\/`, `xor`/`^`, `->`/`=>`/`-->`, `<->`/`<=>`/`<-->`, constants `true`/`false`/`1`/`0`,
//! atomic propositions `[a-zA-Z_][a-zA-Z0-9_.]*` or double-quoted. As in Spot, `GFa` is `G(F(a))`:
//! a leading run of `F`, `G`, `X` followed by a lowercase letter, a digit or `_` is split off.
//! Precedence, loosest first (Spot's `parsetl.yy`): `->` `<->` (right associative), `|`, `xor`,
//! `&`, then `U R W M` (right associative), then the prefix operators `F G X`, then `!`.
//! Errors are located diagnostics (byte spans); deep nesting is an error, not a stack overflow.

use super::ast::{Arena, F};
use verikit_diag::{Diagnostic, Span};

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    LParen,
    RParen,
    Not,
    And,
    Or,
    Xor,
    Implies,
    Equiv,
    X,
    Ev,
    Gl,
    U,
    R,
    W,
    M,
    True,
    False,
    Ap(String),
}

impl Tok {
    fn show(&self) -> String {
        match self {
            Tok::LParen => "(".into(),
            Tok::RParen => ")".into(),
            Tok::Not => "!".into(),
            Tok::And => "&".into(),
            Tok::Or => "|".into(),
            Tok::Xor => "xor".into(),
            Tok::Implies => "->".into(),
            Tok::Equiv => "<->".into(),
            Tok::X => "X".into(),
            Tok::Ev => "F".into(),
            Tok::Gl => "G".into(),
            Tok::U => "U".into(),
            Tok::R => "R".into(),
            Tok::W => "W".into(),
            Tok::M => "M".into(),
            Tok::True => "true".into(),
            Tok::False => "false".into(),
            Tok::Ap(s) => s.clone(),
        }
    }
}

fn lex(text: &str) -> Result<Vec<(Tok, Span)>, Diagnostic> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let rest = &text[i..];
        let sym: &[(&str, Tok)] = &[
            ("<-->", Tok::Equiv),
            ("<->", Tok::Equiv),
            ("<=>", Tok::Equiv),
            ("-->", Tok::Implies),
            ("->", Tok::Implies),
            ("=>", Tok::Implies),
            ("&&", Tok::And),
            ("||", Tok::Or),
            ("/\\", Tok::And),
            ("\\/", Tok::Or),
            ("[]", Tok::Gl),
            ("<>", Tok::Ev),
            ("&", Tok::And),
            ("|", Tok::Or),
            ("^", Tok::Xor),
            ("!", Tok::Not),
            ("~", Tok::Not),
            ("(", Tok::LParen),
            (")", Tok::RParen),
        ];
        if let Some((s, t)) = sym.iter().find(|(s, _)| rest.starts_with(s)) {
            out.push((t.clone(), Span::new(i, i + s.len())));
            i += s.len();
            continue;
        }
        if c == b'"' {
            match text[i + 1..].find('"') {
                Some(j) => {
                    let name = &text[i + 1..i + 1 + j];
                    out.push((Tok::Ap(name.to_string()), Span::new(i, i + j + 2)));
                    i += j + 2;
                    continue;
                }
                None => {
                    return Err(Diagnostic::at(
                        Span::new(i, i + 1),
                        "unterminated quoted atomic proposition",
                    )
                    .with_span(Span::new(i, i + 1), "this `\"` is never closed"))
                }
            }
        }
        if c.is_ascii_digit() {
            let mut j = i;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            let t = match &text[i..j] {
                "0" => Tok::False,
                "1" => Tok::True,
                s => {
                    return Err(Diagnostic::at(
                        Span::new(i, j),
                        format!("unexpected number `{s}` (only 0 and 1 are constants)"),
                    ))
                }
            };
            out.push((t, Span::new(i, j)));
            i = j;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] == b'.') {
                j += 1;
            }
            let word = &text[i..j];
            let kw = match word {
                "U" => Some(Tok::U),
                "R" | "V" => Some(Tok::R),
                "W" => Some(Tok::W),
                "M" => Some(Tok::M),
                "X" => Some(Tok::X),
                "F" => Some(Tok::Ev),
                "G" => Some(Tok::Gl),
                "xor" => Some(Tok::Xor),
                "true" => Some(Tok::True),
                "false" => Some(Tok::False),
                _ => None,
            };
            if let Some(t) = kw {
                out.push((t, Span::new(i, j)));
                i = j;
                continue;
            }
            // Split a leading run of F/G/X operators: `GFa`, `XXp0`, `FG_x`.
            let prefix = word
                .bytes()
                .take_while(|&ch| matches!(ch, b'F' | b'G' | b'X'))
                .count();
            let after = word.as_bytes().get(prefix).copied();
            let split = prefix > 0
                && match after {
                    None => true,
                    Some(ch) => ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == b'_',
                };
            if split {
                for k in 0..prefix {
                    let t = match b[i + k] {
                        b'F' => Tok::Ev,
                        b'G' => Tok::Gl,
                        _ => Tok::X,
                    };
                    out.push((t, Span::new(i + k, i + k + 1)));
                }
                i += prefix;
                continue;
            }
            out.push((Tok::Ap(word.to_string()), Span::new(i, j)));
            i = j;
            continue;
        }
        let ch = rest.chars().next().unwrap_or('?');
        return Err(Diagnostic::at(
            Span::new(i, i + ch.len_utf8()),
            format!("unexpected character `{ch}` in an LTL formula"),
        ));
    }
    Ok(out)
}

const MAX_DEPTH: usize = 400;

struct Parser<'a> {
    toks: Vec<(Tok, Span)>,
    pos: usize,
    end: usize,
    arena: &'a mut Arena,
    depth: usize,
}

/// Parses one formula in Spot syntax into `arena`.
pub fn parse(text: &str, arena: &mut Arena) -> Result<F, Diagnostic> {
    let toks = lex(text)?;
    if toks.is_empty() {
        return Err(Diagnostic::at(Span::point(text.len()), "empty formula"));
    }
    let mut p = Parser {
        toks,
        pos: 0,
        end: text.len(),
        arena,
        depth: 0,
    };
    let f = p.implies()?;
    if let Some((t, sp)) = p.toks.get(p.pos) {
        let msg = if *t == Tok::RParen {
            "unmatched `)`".to_string()
        } else {
            format!("unexpected `{}` after a complete formula", t.show())
        };
        return Err(Diagnostic::at(*sp, msg).with_span(*sp, "here"));
    }
    Ok(f)
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }
    fn here(&self) -> Span {
        self.toks
            .get(self.pos)
            .map_or(Span::point(self.end), |t| t.1)
    }
    fn enter(&mut self) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::at(
                self.here(),
                format!("formula nested more than {MAX_DEPTH} levels deep"),
            ));
        }
        Ok(())
    }
    fn implies(&mut self) -> Result<F, Diagnostic> {
        self.enter()?;
        let l = self.or()?;
        let r = match self.peek() {
            Some(Tok::Implies) => {
                self.pos += 1;
                let r = self.implies()?;
                self.arena.implies(l, r)
            }
            Some(Tok::Equiv) => {
                self.pos += 1;
                let r = self.implies()?;
                self.arena.equiv(l, r)
            }
            _ => l,
        };
        self.depth -= 1;
        Ok(r)
    }
    fn or(&mut self) -> Result<F, Diagnostic> {
        let mut v = vec![self.xor()?];
        while self.peek() == Some(&Tok::Or) {
            self.pos += 1;
            v.push(self.xor()?);
        }
        Ok(if v.len() == 1 { v[0] } else { self.arena.or(v) })
    }
    fn xor(&mut self) -> Result<F, Diagnostic> {
        let mut l = self.and()?;
        while self.peek() == Some(&Tok::Xor) {
            self.pos += 1;
            let r = self.and()?;
            l = self.arena.xor(l, r);
        }
        Ok(l)
    }
    fn and(&mut self) -> Result<F, Diagnostic> {
        let mut v = vec![self.binary()?];
        while self.peek() == Some(&Tok::And) {
            self.pos += 1;
            v.push(self.binary()?);
        }
        Ok(if v.len() == 1 {
            v[0]
        } else {
            self.arena.and(v)
        })
    }
    fn binary(&mut self) -> Result<F, Diagnostic> {
        self.enter()?;
        let l = self.unary()?;
        let op = self.peek().cloned();
        let r = match op {
            Some(t @ (Tok::U | Tok::R | Tok::W | Tok::M)) => {
                self.pos += 1;
                let r = self.binary()?;
                match t {
                    Tok::U => self.arena.u(l, r),
                    Tok::R => self.arena.r(l, r),
                    Tok::W => self.arena.w(l, r),
                    _ => self.arena.m(l, r),
                }
            }
            _ => l,
        };
        self.depth -= 1;
        Ok(r)
    }
    fn unary(&mut self) -> Result<F, Diagnostic> {
        self.enter()?;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }
    fn unary_inner(&mut self) -> Result<F, Diagnostic> {
        let sp = self.here();
        let Some(t) = self.peek().cloned() else {
            return Err(Diagnostic::at(
                sp,
                "expected a formula, found the end of the input",
            ));
        };
        self.pos += 1;
        match t {
            Tok::Not => {
                let a = self.unary()?;
                Ok(self.arena.not(a))
            }
            Tok::X => {
                let a = self.unary()?;
                Ok(self.arena.x(a))
            }
            Tok::Ev => {
                let a = self.unary()?;
                Ok(self.arena.ev(a))
            }
            Tok::Gl => {
                let a = self.unary()?;
                Ok(self.arena.gl(a))
            }
            Tok::True => Ok(self.arena.tt()),
            Tok::False => Ok(self.arena.ff()),
            Tok::Ap(name) => Ok(self.arena.ap(&name)),
            Tok::LParen => {
                let f = self.implies()?;
                if self.peek() == Some(&Tok::RParen) {
                    self.pos += 1;
                    Ok(f)
                } else {
                    let at = self.here();
                    Err(Diagnostic::at(at, "expected `)`")
                        .with_span(at, "expected `)` here")
                        .with_note(format!("to close the `(` at byte {}", sp.start)))
                }
            }
            other => {
                self.pos -= 1;
                Err(
                    Diagnostic::at(sp, format!("expected a formula, found `{}`", other.show()))
                        .with_span(sp, "a formula was expected here"),
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ltl::print::to_string;

    fn rt(s: &str) -> String {
        let mut a = Arena::new();
        let f = parse(s, &mut a).unwrap_or_else(|e| panic!("{s}: {}", e.message));
        to_string(&a, f)
    }

    #[test]
    fn precedence() {
        assert_eq!(rt("a & b U c"), "a & (b U c)");
        assert_eq!(rt("F a U b"), "Fa U b");
        assert_eq!(rt("a -> b <-> c"), "a -> (b <-> c)");
        assert_eq!(rt("a U b U c"), "a U (b U c)");
        assert_eq!(rt("!a U b"), "!a U b");
        assert_eq!(rt("GFa"), "GFa");
        assert_eq!(rt("XXp0"), "XXp0");
        assert_eq!(rt("a | b & c"), "a | (b & c)");
        assert_eq!(rt("[]<> a"), "GFa");
        assert_eq!(rt("\"a b\" & 1"), "\"a b\"");
        assert_eq!(rt("a xor b ^ c"), "(a xor b) xor c");
    }

    #[test]
    fn errors_are_located() {
        let mut a = Arena::new();
        let e = parse("a & (b | ", &mut a).unwrap_err();
        assert_eq!(e.span.map(|s| s.start), Some(9));
        let e = parse("a & ) b", &mut a).unwrap_err();
        assert_eq!(e.span.map(|s| s.start), Some(4));
        let e = parse("a # b", &mut a).unwrap_err();
        assert_eq!(e.span.map(|s| s.start), Some(2));
        assert!(parse(&"(".repeat(10000), &mut a).is_err());
    }

    #[test]
    fn print_parse_round_trip_on_random_formulas() {
        let aps = vec![
            "a".to_string(),
            "b".to_string(),
            "Fx".to_string(),
            "x y".to_string(),
        ];
        let mut gen = crate::rand::RandLtl::new(aps, 3, crate::rand::Weights::default());
        let mut a = Arena::new();
        for _ in 0..3000 {
            let f = gen.formula_in(&mut a, 1, 25);
            let text = to_string(&a, f);
            let g = parse(&text, &mut a).unwrap_or_else(|e| panic!("{text}: {}", e.message));
            assert_eq!(f, g, "{text}");
        }
    }

    #[test]
    fn total() {
        verikit_testkit::assert_parser_total(
            &[
                "G(p0 -> F(p1 & X!p2)) U \"x y\"",
                "a M b W c R d",
                "(a <-> b) xor !c",
            ],
            2000,
            |s| parse(s, &mut Arena::new()),
        );
    }
}
