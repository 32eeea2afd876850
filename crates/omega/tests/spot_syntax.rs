//! Spot's LTL syntax: the lexer edge cases of `tests/expected/ltl-spot-lexer.tsv` (Spot's parse of
//! each written from the rules Spot documents), and the formula sets of `ltl/` in the shared data,
//! whose every line is Spot's own printing of a formula (`genltl`, `randltl`, `ltlfilt`): each one
//! reads back as the formula Spot printed. The tree Spot printed is recovered from the line by a
//! small reader of Spot's printed form written here (lower-case propositions, operators with
//! Spot's parenthesisation), independent of the parser under test; trees are compared up to the
//! order of `&`/`|` operands (Spot orders them by its own formula ids).

use verikit_omega::{ltl_to_string as to_string, parse_ltl as parse, Arena};

#[test]
fn lexer_edge_cases_parse_as_spot_documents() {
    let path = verikit_testkit::expected("ltl-spot-lexer.tsv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut n = 0;
    for line in text.lines().skip(2) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (input, want, rule) = (cols[0], cols[1], cols[2]);
        let mut a = Arena::new();
        let got = parse(input, &mut a);
        n += 1;
        if want == "error" {
            assert!(
                got.is_err(),
                "`{input}` should be rejected ({rule}), got {}",
                to_string(&a, got.unwrap())
            );
            continue;
        }
        let got = got.unwrap_or_else(|e| panic!("`{input}` ({rule}): {}", e.message));
        let expect = parse(want, &mut a).unwrap_or_else(|e| panic!("`{want}`: {}", e.message));
        assert_eq!(
            to_string(&a, got),
            to_string(&a, expect),
            "`{input}`: {rule}"
        );
        assert_eq!(got, expect, "`{input}`: {rule}");
        // What we print reads back as the same formula.
        let printed = to_string(&a, got);
        assert_eq!(parse(&printed, &mut a).ok(), Some(got), "`{printed}`");
    }
    assert!(n >= 80, "{n} cases");
}

#[test]
fn spot_printed_formula_sets_read_back_unchanged() {
    let dir = verikit_testkit::require_data!("ltl");
    let mut total = 0;
    let mut differ = Vec::new();
    for f in [
        "dac-patterns.ltl",
        "eh-patterns.ltl",
        "sb-patterns.ltl",
        "hkrss-patterns.ltl",
        "p-patterns.ltl",
        "random.ltl",
    ] {
        let text = std::fs::read_to_string(dir.join(f)).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let mut a = Arena::new();
            let phi =
                parse(line, &mut a).unwrap_or_else(|e| panic!("{f}: `{line}`: {}", e.message));
            total += 1;
            let printed = to_string(&a, phi);
            let (spot, ours) = (printed_tree(line), printed_tree(&printed));
            if spot != ours || spot.is_none() {
                differ.push(format!("{line}  ->  {printed}"));
            }
        }
    }
    assert!(total > 600, "{total} formulas");
    assert!(
        differ.is_empty(),
        "{} of {total} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

/// A formula tree read from Spot's printed form, `&`/`|` operands sorted.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Clone)]
enum Tree {
    Leaf(String),
    Op(String, Vec<Tree>),
}

/// Reads Spot's printed form: binary and n-ary operators spelled with blanks around them and
/// operands that are atoms, unary formulas or parenthesised; unary `!`, `X`, `F`, `G` written
/// against their operand; propositions are lower-case identifiers, constants `0` and `1`.
fn printed_tree(text: &str) -> Option<Tree> {
    let toks: Vec<String> = {
        let mut v = Vec::new();
        let b: Vec<char> = text.chars().collect();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if c == ' ' {
                i += 1;
            } else if c.is_ascii_lowercase() {
                let j = (i..b.len())
                    .find(|&j| !b[j].is_ascii_alphanumeric() && b[j] != '_')
                    .unwrap_or(b.len());
                v.push(b[i..j].iter().collect());
                i = j;
            } else if let Some(op) = ["<->", "->"].iter().find(|o| text[i..].starts_with(*o)) {
                v.push(op.to_string());
                i += op.len();
            } else {
                v.push(c.to_string());
                i += 1;
            }
        }
        v
    };
    let mut pos = 0;
    let t = seq(&toks, &mut pos)?;
    (pos == toks.len()).then_some(t)
}

fn seq(t: &[String], pos: &mut usize) -> Option<Tree> {
    let first = unary(t, pos)?;
    let mut ops = vec![first];
    let mut op: Option<String> = None;
    while let Some(o) = t.get(*pos) {
        if o == ")" {
            break;
        }
        if op.as_ref().is_some_and(|p| p != o) {
            return None; // Spot parenthesises mixed operators
        }
        op = Some(o.clone());
        *pos += 1;
        ops.push(unary(t, pos)?);
    }
    match op {
        None => ops.pop(),
        Some(o) => {
            if o == "&" || o == "|" {
                ops.sort();
            } else if ops.len() != 2 {
                return None;
            }
            Some(Tree::Op(o, ops))
        }
    }
}

fn unary(t: &[String], pos: &mut usize) -> Option<Tree> {
    let tok = t.get(*pos)?.clone();
    *pos += 1;
    match tok.as_str() {
        "!" | "X" | "F" | "G" => Some(Tree::Op(tok, vec![unary(t, pos)?])),
        "(" => {
            let inner = seq(t, pos)?;
            (t.get(*pos)? == ")").then_some(())?;
            *pos += 1;
            Some(inner)
        }
        _ if tok.starts_with(|c: char| c.is_ascii_lowercase() || c == '0' || c == '1') => {
            Some(Tree::Leaf(tok))
        }
        _ => None,
    }
}
