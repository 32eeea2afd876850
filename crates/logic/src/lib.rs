//! Propositional formulas shared by several engines: Boolean-network update functions (`.bnet`,
//! `.aeon`), `.mata` `@NFA-bits` edge labels and HOA edge labels are all Boolean formulas over
//! numbered variables. This crate holds the one AST, its evaluation, and one infix parser whose
//! identifier resolution is left to the caller (each format names variables differently).

use std::fmt;
use verikit_diag::{Diagnostic, Span};

/// A propositional formula over variables numbered `0..`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BoolExpr {
    Const(bool),
    Var(u32),
    Not(Box<BoolExpr>),
    And(Vec<BoolExpr>),
    Or(Vec<BoolExpr>),
    Xor(Box<BoolExpr>, Box<BoolExpr>),
    Imp(Box<BoolExpr>, Box<BoolExpr>),
    Iff(Box<BoolExpr>, Box<BoolExpr>),
}

impl BoolExpr {
    #[allow(clippy::should_implement_trait)]
    pub fn not(e: BoolExpr) -> BoolExpr {
        match e {
            BoolExpr::Const(b) => BoolExpr::Const(!b),
            BoolExpr::Not(x) => *x,
            x => BoolExpr::Not(Box::new(x)),
        }
    }

    /// Evaluates under an assignment given as a function from variable to value.
    pub fn eval(&self, val: &impl Fn(u32) -> bool) -> bool {
        match self {
            BoolExpr::Const(b) => *b,
            BoolExpr::Var(v) => val(*v),
            BoolExpr::Not(e) => !e.eval(val),
            BoolExpr::And(es) => es.iter().all(|e| e.eval(val)),
            BoolExpr::Or(es) => es.iter().any(|e| e.eval(val)),
            BoolExpr::Xor(a, b) => a.eval(val) != b.eval(val),
            BoolExpr::Imp(a, b) => !a.eval(val) || b.eval(val),
            BoolExpr::Iff(a, b) => a.eval(val) == b.eval(val),
        }
    }

    /// Evaluates with variable `v` taking bit `v` of `bits` (for up to 64 variables).
    pub fn eval_bits(&self, bits: u64) -> bool {
        self.eval(&|v| v < 64 && (bits >> v) & 1 == 1)
    }

    /// The variables occurring in the formula, sorted and deduplicated.
    pub fn vars(&self) -> Vec<u32> {
        let mut out = Vec::new();
        self.collect_vars(&mut out);
        out.sort_unstable();
        out.dedup();
        out
    }

    fn collect_vars(&self, out: &mut Vec<u32>) {
        match self {
            BoolExpr::Const(_) => {}
            BoolExpr::Var(v) => out.push(*v),
            BoolExpr::Not(e) => e.collect_vars(out),
            BoolExpr::And(es) | BoolExpr::Or(es) => es.iter().for_each(|e| e.collect_vars(out)),
            BoolExpr::Xor(a, b) | BoolExpr::Imp(a, b) | BoolExpr::Iff(a, b) => {
                a.collect_vars(out);
                b.collect_vars(out);
            }
        }
    }

    /// Renames variables.
    pub fn map_vars(&self, f: &impl Fn(u32) -> u32) -> BoolExpr {
        let m = |e: &BoolExpr| Box::new(e.map_vars(f));
        match self {
            BoolExpr::Const(b) => BoolExpr::Const(*b),
            BoolExpr::Var(v) => BoolExpr::Var(f(*v)),
            BoolExpr::Not(e) => BoolExpr::Not(m(e)),
            BoolExpr::And(es) => BoolExpr::And(es.iter().map(|e| e.map_vars(f)).collect()),
            BoolExpr::Or(es) => BoolExpr::Or(es.iter().map(|e| e.map_vars(f)).collect()),
            BoolExpr::Xor(a, b) => BoolExpr::Xor(m(a), m(b)),
            BoolExpr::Imp(a, b) => BoolExpr::Imp(m(a), m(b)),
            BoolExpr::Iff(a, b) => BoolExpr::Iff(m(a), m(b)),
        }
    }

    /// Displays the formula with `names[v]` for variable `v` in the common `! & | ^ -> <->` syntax
    /// (also the `.bnet` syntax for formulas that use only `! & |`).
    pub fn display<'a>(&'a self, names: &'a [String]) -> impl fmt::Display + 'a {
        Show { e: self, names }
    }
}

struct Show<'a> {
    e: &'a BoolExpr,
    names: &'a [String],
}

impl Show<'_> {
    fn prec(e: &BoolExpr) -> u8 {
        match e {
            BoolExpr::Iff(..) => 1,
            BoolExpr::Imp(..) => 2,
            BoolExpr::Or(_) => 3,
            BoolExpr::Xor(..) => 4,
            BoolExpr::And(_) => 5,
            _ => 6,
        }
    }
    fn go(&self, e: &BoolExpr, parent: u8, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = Self::prec(e);
        let paren = p < parent || (p == parent && p <= 2);
        if paren {
            f.write_str("(")?;
        }
        match e {
            BoolExpr::Const(b) => f.write_str(if *b { "true" } else { "false" })?,
            BoolExpr::Var(v) => match self.names.get(*v as usize) {
                Some(n) => f.write_str(n)?,
                None => write!(f, "v{v}")?,
            },
            BoolExpr::Not(x) => {
                f.write_str("!")?;
                self.go(x, 7, f)?;
            }
            BoolExpr::And(es) | BoolExpr::Or(es) => {
                let (op, unit) = if matches!(e, BoolExpr::And(_)) { (" & ", "true") } else { (" | ", "false") };
                if es.is_empty() {
                    f.write_str(unit)?;
                }
                for (i, x) in es.iter().enumerate() {
                    if i > 0 {
                        f.write_str(op)?;
                    }
                    self.go(x, p + 1, f)?;
                }
            }
            BoolExpr::Xor(a, b) | BoolExpr::Imp(a, b) | BoolExpr::Iff(a, b) => {
                let op = match e {
                    BoolExpr::Xor(..) => " ^ ",
                    BoolExpr::Imp(..) => " -> ",
                    _ => " <-> ",
                };
                self.go(a, p + 1, f)?;
                f.write_str(op)?;
                self.go(b, p + 1, f)?;
            }
        }
        if paren {
            f.write_str(")")?;
        }
        Ok(())
    }
}

impl fmt::Display for Show<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.go(self.e, 0, f)
    }
}

/// Parses an infix Boolean formula.
///
/// Accepted syntax (a union of the formats that use it): `!`/`~` negation; `&`/`&&` conjunction;
/// `|`/`||` disjunction; `^` exclusive or; `->`/`=>` implication (right associative); `<->`/`<=>`
/// equivalence; parentheses. Precedence from loosest: `<->`, `->`, `|`, `^`, `&`, `!`.
/// Identifiers are maximal runs of letters, digits and `_ . : @ ' $ { } [ ] -` not forming an
/// operator; `resolve(name, span)` turns each one into a formula (a variable or a constant), so the
/// caller decides what `true`, `1`, `t` or an unknown name mean. `base` is added to every span so
/// errors point into the enclosing file.
pub fn parse_infix(
    text: &str,
    base: usize,
    resolve: &mut dyn FnMut(&str, Span) -> Result<BoolExpr, Diagnostic>,
) -> Result<BoolExpr, Diagnostic> {
    let toks = lex(text, base)?;
    let mut p = Parser { toks, pos: 0, end: base + text.len(), resolve, depth: 0 };
    let e = p.iff()?;
    if let Some((t, sp)) = p.toks.get(p.pos) {
        return Err(Diagnostic::at(*sp, format!("unexpected `{}` after a complete formula", t.show())));
    }
    Ok(e)
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Id(String),
    Not,
    And,
    Or,
    Xor,
    Imp,
    Iff,
    LParen,
    RParen,
}

impl Tok {
    fn show(&self) -> String {
        match self {
            Tok::Id(s) => s.clone(),
            Tok::Not => "!".into(),
            Tok::And => "&".into(),
            Tok::Or => "|".into(),
            Tok::Xor => "^".into(),
            Tok::Imp => "->".into(),
            Tok::Iff => "<->".into(),
            Tok::LParen => "(".into(),
            Tok::RParen => ")".into(),
        }
    }
}

fn is_id_char(c: char) -> bool {
    c.is_alphanumeric() || "_.:@'${}[]".contains(c)
}

fn lex(text: &str, base: usize) -> Result<Vec<(Tok, Span)>, Diagnostic> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < text.len() {
        let c = text[i..].chars().next().unwrap_or(' ');
        let start = i;
        let two = |s: &str| text[i..].starts_with(s);
        let (tok, len) = if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        } else if two("<->") || two("<=>") {
            (Tok::Iff, 3)
        } else if two("->") || two("=>") {
            (Tok::Imp, 2)
        } else if two("&&") || two("||") {
            (if b[i] == b'&' { Tok::And } else { Tok::Or }, 2)
        } else {
            match c {
                '!' | '~' => (Tok::Not, 1),
                '&' => (Tok::And, 1),
                '|' => (Tok::Or, 1),
                '^' => (Tok::Xor, 1),
                '(' => (Tok::LParen, 1),
                ')' => (Tok::RParen, 1),
                c if is_id_char(c) => {
                    let mut j = i;
                    for ch in text[i..].chars() {
                        if is_id_char(ch) || (ch == '-' && !text[j..].starts_with("->")) {
                            j += ch.len_utf8();
                        } else {
                            break;
                        }
                    }
                    (Tok::Id(text[i..j].to_string()), j - i)
                }
                _ => {
                    return Err(Diagnostic::at(
                        Span::new(base + i, base + i + c.len_utf8()),
                        format!("unexpected character `{c}` in a formula"),
                    ))
                }
            }
        };
        i += len;
        out.push((tok, Span::new(base + start, base + i)));
    }
    Ok(out)
}

struct Parser<'r> {
    toks: Vec<(Tok, Span)>,
    pos: usize,
    end: usize,
    resolve: &'r mut dyn FnMut(&str, Span) -> Result<BoolExpr, Diagnostic>,
    depth: usize,
}

/// Nesting limit: deeper input is rejected with a diagnostic instead of overflowing the stack.
const MAX_DEPTH: usize = 512;

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }
    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == Some(t) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn here(&self) -> Span {
        self.toks.get(self.pos).map_or(Span::point(self.end), |t| t.1)
    }
    fn iff(&mut self) -> Result<BoolExpr, Diagnostic> {
        let mut l = self.imp()?;
        while self.eat(&Tok::Iff) {
            let r = self.imp()?;
            l = BoolExpr::Iff(Box::new(l), Box::new(r));
        }
        Ok(l)
    }
    fn imp(&mut self) -> Result<BoolExpr, Diagnostic> {
        let l = self.or()?;
        if self.eat(&Tok::Imp) {
            self.enter()?;
            let r = self.imp()?;
            self.depth -= 1;
            return Ok(BoolExpr::Imp(Box::new(l), Box::new(r)));
        }
        Ok(l)
    }
    fn or(&mut self) -> Result<BoolExpr, Diagnostic> {
        let mut es = vec![self.xor()?];
        while self.eat(&Tok::Or) {
            es.push(self.xor()?);
        }
        Ok(if es.len() == 1 { es.pop().unwrap_or(BoolExpr::Const(false)) } else { BoolExpr::Or(es) })
    }
    fn xor(&mut self) -> Result<BoolExpr, Diagnostic> {
        let mut l = self.and()?;
        while self.eat(&Tok::Xor) {
            let r = self.and()?;
            l = BoolExpr::Xor(Box::new(l), Box::new(r));
        }
        Ok(l)
    }
    fn and(&mut self) -> Result<BoolExpr, Diagnostic> {
        let mut es = vec![self.unary()?];
        while self.eat(&Tok::And) {
            es.push(self.unary()?);
        }
        Ok(if es.len() == 1 { es.pop().unwrap_or(BoolExpr::Const(true)) } else { BoolExpr::And(es) })
    }
    fn enter(&mut self) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::at(self.here(), "formula nested too deeply"));
        }
        Ok(())
    }
    fn unary(&mut self) -> Result<BoolExpr, Diagnostic> {
        self.enter()?;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }
    fn unary_inner(&mut self) -> Result<BoolExpr, Diagnostic> {
        let sp = self.here();
        match self.toks.get(self.pos).map(|t| t.0.clone()) {
            Some(Tok::Not) => {
                self.pos += 1;
                Ok(BoolExpr::not(self.unary()?))
            }
            Some(Tok::LParen) => {
                self.pos += 1;
                let e = self.iff()?;
                if !self.eat(&Tok::RParen) {
                    return Err(Diagnostic::at(self.here(), "expected `)`")
                        .with_note(format!("the `(` at offset {} is not closed", sp.start)));
                }
                Ok(e)
            }
            Some(Tok::Id(name)) => {
                self.pos += 1;
                (self.resolve)(&name, sp)
            }
            Some(t) => Err(Diagnostic::at(sp, format!("expected a formula, found `{}`", t.show()))),
            None => Err(Diagnostic::at(sp, "expected a formula, found the end of the input")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: &str, sp: Span) -> Result<BoolExpr, Diagnostic> {
        match s {
            "true" | "1" => Ok(BoolExpr::Const(true)),
            "false" | "0" => Ok(BoolExpr::Const(false)),
            "a" => Ok(BoolExpr::Var(0)),
            "b" => Ok(BoolExpr::Var(1)),
            "c" => Ok(BoolExpr::Var(2)),
            _ => Err(Diagnostic::at(sp, format!("unknown `{s}`"))),
        }
    }

    #[test]
    fn precedence_and_eval() {
        let e = parse_infix("a | b & !c", 0, &mut names).unwrap();
        assert!(e.eval_bits(0b001));
        assert!(e.eval_bits(0b010));
        assert!(!e.eval_bits(0b110));
        let e = parse_infix("a -> b -> c", 0, &mut names).unwrap();
        assert!(e.eval_bits(0b101)); // a -> (b -> c): b false
        let e = parse_infix("(a <=> b) ^ c", 0, &mut names).unwrap();
        assert!(!e.eval_bits(0b000 | 0b100));
    }

    #[test]
    fn errors_are_located() {
        let e = parse_infix("a & (b | zz)", 10, &mut names).unwrap_err();
        assert_eq!(e.span, Some(Span::new(19, 21)));
        let e = parse_infix("a & (b", 0, &mut names).unwrap_err();
        assert!(e.message.contains("`)`"));
        assert!(parse_infix("a b", 0, &mut names).is_err());
        assert!(parse_infix("", 0, &mut names).is_err());
        let deep = "!".repeat(100_000) + "a";
        assert!(parse_infix(&deep, 0, &mut names).is_err());
    }

    #[test]
    fn display_round_trips() {
        let names_v: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        for s in ["a | b & !c", "(a | b) & c", "a -> (b -> c)", "(a -> b) -> c", "a ^ b <-> c", "!(a & b)"] {
            let e = parse_infix(s, 0, &mut names).unwrap();
            let shown = e.display(&names_v).to_string();
            let back = parse_infix(&shown, 0, &mut names).unwrap();
            for bits in 0..8 {
                assert_eq!(e.eval_bits(bits), back.eval_bits(bits), "{s} vs {shown}");
            }
        }
    }
}

#[cfg(test)]
mod total {
    use super::*;

    #[test]
    fn parser_never_panics() {
        verikit_testkit::assert_parser_total(
            &["a & (b | !c) -> a <-> b ^ c", "!(x1 && y.2) || ~z"],
            2000,
            |s| parse_infix(s, 0, &mut |_, _| Ok(BoolExpr::Var(0))),
        );
    }
}
