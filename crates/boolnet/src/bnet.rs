//! The `.bnet` format of BoolNet and PyBoolNet (as used by the Biodivine Boolean Models), read
//! and written. Part of the front end for the SETTA'17 engine (Mizera et al., Sect. 2.1, Boolean
//! networks as defined in Definition 1).
//!
//! ```text
//! targets, factors
//! v_CDK2, (v_CycE1 & !(v_p21 | v_p27))
//! ```
//! The optional header `targets, factors`; then one `<target>, <function>` line per variable;
//! `#` starts a comment. Operators `! & |` (and the other infix operators of the shared parser),
//! parentheses, constants `0 1 true false`. A name used in a function without a line of its own
//! is a free input (the BBM/PyBoolNet convention). Errors: syntax errors, a missing comma, an
//! invalid target name and duplicate targets are reported with their location.

use crate::network::Network;
use std::collections::HashMap;
use verikit_diag::{Diagnostic, Span};
use verikit_logic::{parse_infix, BoolExpr};

fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == ':')
}

fn constant(s: &str) -> Option<bool> {
    match s {
        "0" | "false" | "FALSE" | "False" => Some(false),
        "1" | "true" | "TRUE" | "True" => Some(true),
        _ => None,
    }
}

/// Parses a `.bnet` text.
pub(crate) fn parse(text: &str) -> Result<Network, Diagnostic> {
    // Pass 1: the lines and their targets.
    struct Line {
        target: String,
        tspan: Span,
        body: usize,
        body_text: String,
    }
    let mut lines: Vec<Line> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut off = 0usize;
    let mut seen_content = false;
    for raw in text.split_inclusive('\n') {
        let start = off;
        off += raw.len();
        let mut line = raw.trim_end_matches(['\n', '\r']);
        if let Some(h) = line.find('#') {
            line = &line[..h];
        }
        if line.trim().is_empty() {
            continue;
        }
        if !seen_content {
            seen_content = true;
            let compact: String = line.chars().filter(|c| !c.is_whitespace()).collect();
            if compact.eq_ignore_ascii_case("targets,factors") {
                continue;
            }
        }
        let Some(comma) = line.find(',') else {
            let lead = line.len() - line.trim_start().len();
            return Err(Diagnostic::at(
                Span::new(start + lead, start + line.trim_end().len()),
                "expected `<target>, <function>`: no comma on this line",
            ));
        };
        let tpart = &line[..comma];
        let tlead = tpart.len() - tpart.trim_start().len();
        let target = tpart.trim();
        let tspan = Span::new(start + tlead, start + tlead + target.len());
        if !valid_name(target) {
            return Err(Diagnostic::at(
                if target.is_empty() {
                    Span::point(start + comma)
                } else {
                    tspan
                },
                format!("invalid target name `{target}`"),
            ));
        }
        if constant(target).is_some() {
            return Err(Diagnostic::at(
                tspan,
                format!("`{target}` is a constant, not a variable name"),
            ));
        }
        if let Some(&prev) = index.get(target) {
            let (l, _) = verikit_diag::line_col(text, lines[prev].tspan.start);
            return Err(
                Diagnostic::at(tspan, format!("duplicate target `{target}`"))
                    .with_note(format!("`{target}` was already defined on line {l}")),
            );
        }
        index.insert(target.to_string(), lines.len());
        let body = &line[comma + 1..];
        if body.trim().is_empty() {
            return Err(Diagnostic::at(
                Span::point(start + line.len()),
                format!("missing update function for `{target}`"),
            ));
        }
        lines.push(Line {
            target: target.to_string(),
            tspan,
            body: start + comma + 1,
            body_text: body.to_string(),
        });
    }
    // Pass 2: functions; unknown names become free inputs.
    let mut net = Network::new();
    for l in &lines {
        net.names.push(l.target.clone());
    }
    let mut names = index.clone();
    let mut functions = Vec::with_capacity(lines.len());
    for l in &lines {
        let mut resolve = |s: &str, sp: Span| -> Result<BoolExpr, Diagnostic> {
            if let Some(b) = constant(s) {
                return Ok(BoolExpr::Const(b));
            }
            if let Some(&i) = names.get(s) {
                return Ok(BoolExpr::Var(i as u32));
            }
            if !valid_name(s) {
                return Err(Diagnostic::at(sp, format!("invalid variable name `{s}`")));
            }
            let i = net.names.len();
            net.names.push(s.to_string());
            names.insert(s.to_string(), i);
            Ok(BoolExpr::Var(i as u32))
        };
        let f = parse_infix(&l.body_text, l.body, &mut resolve)?;
        functions.push((f, Span::new(l.body, l.body + l.body_text.len())));
    }
    let n = net.names.len();
    net.functions = vec![None; n];
    net.spans = vec![None; n];
    for (i, (f, sp)) in functions.into_iter().enumerate() {
        net.functions[i] = Some(f);
        net.spans[i] = Some(sp);
    }
    if net.is_empty() {
        return Err(Diagnostic::error("the file defines no variables"));
    }
    Ok(net)
}

/// Writes a network as `.bnet` (free inputs are written with the identity function, which is
/// how BoolNet and PyBoolNet express an input; formulas use only `! & |` plus constants).
pub(crate) fn write(net: &Network) -> String {
    let mut out = String::from("targets, factors\n");
    for i in 0..net.len() {
        let f = match net.functions.get(i).cloned().flatten() {
            Some(f) => lower(&f),
            None => BoolExpr::Var(i as u32),
        };
        let body = match &f {
            BoolExpr::Const(b) => (if *b { "1" } else { "0" }).to_string(),
            _ => f.display(&net.names).to_string(),
        };
        out.push_str(&format!("{}, {}\n", net.names[i], body));
    }
    out
}

/// Rewrites `^ -> <->` with `! & |` (constants inside a formula print as `true`/`false`, which
/// BoolNet, PyBoolNet and this reader accept).
fn lower(e: &BoolExpr) -> BoolExpr {
    let b = |x: &BoolExpr| lower(x);
    match e {
        BoolExpr::Const(_) | BoolExpr::Var(_) => e.clone(),
        BoolExpr::Not(x) => BoolExpr::not(b(x)),
        BoolExpr::And(xs) => BoolExpr::And(xs.iter().map(lower).collect()),
        BoolExpr::Or(xs) => BoolExpr::Or(xs.iter().map(lower).collect()),
        BoolExpr::Xor(x, y) => BoolExpr::Or(vec![
            BoolExpr::And(vec![b(x), BoolExpr::not(b(y))]),
            BoolExpr::And(vec![BoolExpr::not(b(x)), b(y)]),
        ]),
        BoolExpr::Imp(x, y) => BoolExpr::Or(vec![BoolExpr::not(b(x)), b(y)]),
        BoolExpr::Iff(x, y) => BoolExpr::Or(vec![
            BoolExpr::And(vec![b(x), b(y)]),
            BoolExpr::And(vec![BoolExpr::not(b(x)), BoolExpr::not(b(y))]),
        ]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_bbm_style() {
        let t = "targets,factors\nv_CDK2, (v_CycE1 & !(v_p21 | v_p27))\nv_CycE1, v_CDK2\n";
        let n = parse(t).unwrap();
        assert_eq!(n.names, vec!["v_CDK2", "v_CycE1", "v_p21", "v_p27"]);
        assert_eq!(n.inputs(), vec![2, 3]);
    }

    #[test]
    fn errors_are_located() {
        let e = parse("targets, factors\nA, B &\n").unwrap_err();
        assert!(e.span.is_some());
        let e = parse("targets, factors\nA, B\nA, !B\n").unwrap_err();
        assert!(e.message.contains("duplicate"), "{}", e.message);
        assert_eq!(
            verikit_diag::line_col("targets, factors\nA, B\nA, !B\n", e.span.unwrap().start),
            (3, 1)
        );
        let e = parse("targets, factors\nA B\n").unwrap_err();
        assert!(e.message.contains("comma"));
        let e = parse("A, B $ C\n").unwrap_err();
        assert!(e.span.is_some());
    }

    #[test]
    fn write_round_trips() {
        let t = "targets, factors\nA, (B ^ C) | 1\nB, A -> B\nC, !A <-> B\n";
        let n = parse(t).unwrap();
        let back = parse(&write(&n)).unwrap();
        assert_eq!(back.names, n.names);
        for bits in 0..8u64 {
            for i in 0..3 {
                let a = n.functions[i].as_ref().unwrap().eval_bits(bits);
                let b = back.functions[i].as_ref().unwrap().eval_bits(bits);
                assert_eq!(a, b);
            }
        }
    }

    #[test]
    fn parser_is_total() {
        let samples = ["targets,factors\nv_A, (v_B & !(v_C | v_D))\nv_B, v_A | v_B\n"];
        verikit_testkit::assert_parser_total(&samples, 2000, parse);
    }
}
