//! Propositional formulas shared by several engines: Boolean-network update functions (`.bnet`,
//! `.aeon`), `.mata` `@NFA-bits` edge labels and HOA edge labels are all Boolean formulas over
//! numbered variables. This crate holds the one AST, its evaluation, and one infix parser whose
//! identifier resolution is left to the caller (each format names variables differently).

#![warn(unreachable_pub)]

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
            BoolExpr::Not(_) => 6,
            _ => 7,
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
                self.go(x, 6, f)?;
            }
            BoolExpr::And(es) | BoolExpr::Or(es) => {
                let (op, unit) = if matches!(e, BoolExpr::And(_)) {
                    (" & ", "true")
                } else {
                    (" | ", "false")
                };
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
    shunting_yard(toks, base + text.len(), resolve)
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

/// Nesting limit (parentheses and negations): a formula nested deeper is rejected with a
/// diagnostic, so that the recursive walks over the tree (evaluation, printing) stay within a normal
/// thread stack. Real models nest a few thousand levels deep.
const MAX_DEPTH: usize = 10_000;

fn prec(t: &Tok) -> u8 {
    match t {
        Tok::Iff => 1,
        Tok::Imp => 2,
        Tok::Or => 3,
        Tok::Xor => 4,
        Tok::And => 5,
        _ => 0,
    }
}

/// Builds `l op r`, flattening chains of `&` and `|` into one n-ary node.
fn combine(op: &Tok, l: BoolExpr, r: BoolExpr) -> BoolExpr {
    match op {
        Tok::And => match l {
            BoolExpr::And(mut es) => {
                es.push(r);
                BoolExpr::And(es)
            }
            l => BoolExpr::And(vec![l, r]),
        },
        Tok::Or => match l {
            BoolExpr::Or(mut es) => {
                es.push(r);
                BoolExpr::Or(es)
            }
            l => BoolExpr::Or(vec![l, r]),
        },
        Tok::Xor => BoolExpr::Xor(Box::new(l), Box::new(r)),
        Tok::Imp => BoolExpr::Imp(Box::new(l), Box::new(r)),
        _ => BoolExpr::Iff(Box::new(l), Box::new(r)),
    }
}

/// Applies the operator on top of the stack to the operands on top of theirs.
fn reduce(ops: &mut Vec<(Tok, Span)>, vals: &mut Vec<BoolExpr>) {
    let Some((op, _)) = ops.pop() else { return };
    if op == Tok::Not {
        if let Some(v) = vals.pop() {
            vals.push(BoolExpr::not(v));
        }
        return;
    }
    if let (Some(r), Some(l)) = (vals.pop(), vals.pop()) {
        vals.push(combine(&op, l, r));
    }
}

/// Operator-precedence parsing with explicit stacks (no recursion, so deeply nested input cannot
/// overflow the stack). `->` is right associative, the other binary operators left associative.
fn shunting_yard(
    toks: Vec<(Tok, Span)>,
    end: usize,
    resolve: &mut dyn FnMut(&str, Span) -> Result<BoolExpr, Diagnostic>,
) -> Result<BoolExpr, Diagnostic> {
    let mut ops: Vec<(Tok, Span)> = Vec::new();
    let mut vals: Vec<BoolExpr> = Vec::new();
    let mut depth = 0usize;
    let mut expect_operand = true;
    for (tok, sp) in toks {
        if expect_operand {
            match tok {
                Tok::Id(name) => {
                    vals.push(resolve(&name, sp)?);
                    expect_operand = false;
                }
                Tok::Not | Tok::LParen => {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        return Err(Diagnostic::at(sp, "formula nested too deeply"));
                    }
                    ops.push((tok, sp));
                }
                t => {
                    return Err(Diagnostic::at(
                        sp,
                        format!("expected a formula, found `{}`", t.show()),
                    ))
                }
            }
            continue;
        }
        match tok {
            Tok::RParen => {
                loop {
                    match ops.last() {
                        Some((Tok::LParen, _)) => break,
                        Some((Tok::Not, _)) => {
                            depth -= 1;
                            reduce(&mut ops, &mut vals)
                        }
                        Some(_) => reduce(&mut ops, &mut vals),
                        None => {
                            return Err(Diagnostic::at(sp, "unexpected `)` without a matching `(`"))
                        }
                    }
                }
                ops.pop();
                depth -= 1;
            }
            Tok::Id(_) | Tok::Not | Tok::LParen => {
                return Err(Diagnostic::at(
                    sp,
                    format!("unexpected `{}` after a complete formula", tok.show()),
                ))
            }
            op => {
                let p = prec(&op);
                loop {
                    let reduce_top = match ops.last() {
                        Some((Tok::LParen, _)) | None => false,
                        Some((Tok::Not, _)) => true,
                        Some((top, _)) => prec(top) > p || (prec(top) == p && op != Tok::Imp),
                    };
                    if !reduce_top {
                        break;
                    }
                    if matches!(ops.last(), Some((Tok::Not, _))) {
                        depth -= 1;
                    }
                    reduce(&mut ops, &mut vals);
                }
                ops.push((op, sp));
                expect_operand = true;
            }
        }
    }
    if expect_operand {
        return Err(Diagnostic::at(
            Span::point(end),
            "expected a formula, found the end of the input",
        ));
    }
    while let Some((top, sp)) = ops.last() {
        if *top == Tok::LParen {
            return Err(Diagnostic::at(Span::point(end), "expected `)`")
                .with_note(format!("the `(` at offset {} is not closed", sp.start)));
        }
        reduce(&mut ops, &mut vals);
    }
    match (vals.pop(), vals.is_empty()) {
        (Some(e), true) => Ok(e),
        _ => Err(Diagnostic::at(Span::point(end), "malformed formula")),
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
        assert!(!e.eval_bits(0b100));
    }

    #[test]
    fn errors_are_located() {
        let e = parse_infix("a & (b | zz)", 10, &mut names).unwrap_err();
        assert_eq!(e.span, Some(Span::new(19, 21)));
        let e = parse_infix("a & (b", 0, &mut names).unwrap_err();
        assert!(e.message.contains("`)`"));
        assert!(parse_infix("a b", 0, &mut names).is_err());
        assert!(parse_infix("", 0, &mut names).is_err());
        let deep = "!(a & ".repeat(20_000) + "a" + &")".repeat(20_000);
        assert!(parse_infix(&deep, 0, &mut names).is_err());
        assert!(parse_infix("a)", 0, &mut names).is_err());
        assert!(parse_infix("a &", 0, &mut names).is_err());
        assert!(parse_infix("a ( b", 0, &mut names).is_err());
    }

    #[test]
    fn deep_real_world_nesting_parses() {
        let n = 3000;
        let text = "(a & ".repeat(n) + "b" + &")".repeat(n);
        let e = parse_infix(&text, 0, &mut names).unwrap();
        assert!(e.eval_bits(0b11));
        assert!(!e.eval_bits(0b01));
        let names_v: Vec<String> = ["a", "b"].iter().map(|s| s.to_string()).collect();
        assert_eq!(
            BoolExpr::not(BoolExpr::Var(0))
                .display(&names_v)
                .to_string(),
            "!a"
        );
        assert_eq!(
            parse_infix("!(a & b)", 0, &mut names)
                .unwrap()
                .display(&names_v)
                .to_string(),
            "!(a & b)"
        );
    }

    fn arb_expr() -> impl proptest::strategy::Strategy<Value = BoolExpr> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            (0u32..3).prop_map(BoolExpr::Var),
            any::<bool>().prop_map(BoolExpr::Const)
        ];
        leaf.prop_recursive(5, 40, 3, |inner| {
            prop_oneof![
                inner.clone().prop_map(|e| BoolExpr::Not(Box::new(e))),
                proptest::collection::vec(inner.clone(), 2..4).prop_map(BoolExpr::And),
                proptest::collection::vec(inner.clone(), 2..4).prop_map(BoolExpr::Or),
                (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| BoolExpr::Xor(Box::new(a), Box::new(b))),
                (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| BoolExpr::Imp(Box::new(a), Box::new(b))),
                (inner.clone(), inner).prop_map(|(a, b)| BoolExpr::Iff(Box::new(a), Box::new(b))),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn printed_formulas_parse_back_equivalent(e in arb_expr()) {
            let names_v: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
            let shown = e.display(&names_v).to_string();
            let back = parse_infix(&shown, 0, &mut names).unwrap();
            for bits in 0..8 {
                proptest::prop_assert_eq!(e.eval_bits(bits), back.eval_bits(bits), "{}", shown);
            }
        }
    }

    #[test]
    fn display_round_trips() {
        let names_v: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        for s in [
            "a | b & !c",
            "(a | b) & c",
            "a -> (b -> c)",
            "(a -> b) -> c",
            "a ^ b <-> c",
            "!(a & b)",
        ] {
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
