//! The AEON model format (Biodivine/AEON), read. Front end for the SETTA'17 engine (Mizera et al.,
//! Sect. 2.1, Boolean networks as in Definition 1).
//!
//! ```text
//! #name:example
//! a -> b
//! b -| a
//! c -? a
//! $a: b & !c
//! $b: a
//! ```
//! Regulations `src OP tgt` with `OP` one of `->`, `-|`, `-?`, `->?`, `-|?`, `-??` declare the
//! variables and the regulatory graph; `$x: formula` gives an update function; lines starting with
//! `#` are comments or annotations. A variable without an update function and without regulators
//! is a free input; one that has regulators but no function (an implicit parameter) and
//! uninterpreted function symbols are rejected, since the engine analyses concrete networks.
//! Errors: unknown variables, syntax errors and duplicate functions, each with its location.

use crate::network::Network;
use std::collections::HashMap;
use verikit_diag::{Diagnostic, Span};
use verikit_logic::{parse_infix, BoolExpr};

const OPS: [&str; 6] = ["->", "-|", "-?", "->?", "-|?", "-??"];

fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '{' || c == '}')
}

/// Parses an `.aeon` text.
pub(crate) fn parse(text: &str) -> Result<Network, Diagnostic> {
    let mut names: Vec<String> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut regulated = Vec::<bool>::new();
    let mut declare = |name: &str, names: &mut Vec<String>, regulated: &mut Vec<bool>| -> usize {
        if let Some(&i) = index.get(name) {
            return i;
        }
        index.insert(name.to_string(), names.len());
        names.push(name.to_string());
        regulated.push(false);
        names.len() - 1
    };
    // (target index, target span, formula offset, formula text)
    let mut funcs: Vec<(usize, Span, usize, String)> = Vec::new();
    let mut off = 0usize;
    for raw in text.split_inclusive('\n') {
        let start = off;
        off += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let lead = line.len() - line.trim_start().len();
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let tstart = start + lead;
        if let Some(rest) = t.strip_prefix('$') {
            let Some(colon) = rest.find(':') else {
                return Err(Diagnostic::at(
                    Span::new(tstart, tstart + t.len()),
                    "expected `$name: formula`",
                ));
            };
            let name = rest[..colon].trim();
            let nspan = Span::new(tstart + 1, tstart + 1 + colon);
            if !valid_name(name) {
                return Err(Diagnostic::at(
                    nspan,
                    format!("invalid variable name `{name}`"),
                ));
            }
            let i = declare(name, &mut names, &mut regulated);
            if let Some(prev) = funcs.iter().find(|f| f.0 == i) {
                let (l, _) = verikit_diag::line_col(text, prev.1.start);
                return Err(Diagnostic::at(
                    nspan,
                    format!("duplicate update function for `{name}`"),
                )
                .with_note(format!("the first one is on line {l}")));
            }
            let body = &rest[colon + 1..];
            funcs.push((i, nspan, tstart + 2 + colon, body.to_string()));
            continue;
        }
        let parts: Vec<&str> = t.split_whitespace().collect();
        if parts.len() != 3 || !OPS.contains(&parts[1]) {
            return Err(Diagnostic::at(
                Span::new(tstart, tstart + t.len()),
                "expected a regulation `a -> b` (`->`, `-|`, `-?`, `->?`, `-|?`, `-??`) or an update function `$a: formula`",
            ));
        }
        for (k, p) in [parts[0], parts[2]].iter().enumerate() {
            if !valid_name(p) {
                let at = t.find(p).unwrap_or(0);
                return Err(Diagnostic::at(
                    Span::new(tstart + at, tstart + at + p.len()),
                    format!("invalid variable name `{p}`"),
                ));
            }
            let i = declare(p, &mut names, &mut regulated);
            if k == 1 {
                regulated[i] = true;
            }
        }
    }
    let n = names.len();
    let mut net = Network {
        names: names.clone(),
        functions: vec![None; n],
        spans: vec![None; n],
    };
    for (i, nspan, base, body) in &funcs {
        // Uninterpreted function symbols: an identifier directly followed by `(`.
        let bytes = body.as_bytes();
        for (k, &c) in bytes.iter().enumerate() {
            if c == b'(' {
                let before = body[..k].trim_end();
                if before
                    .chars()
                    .last()
                    .is_some_and(|ch| ch.is_alphanumeric() || ch == '_')
                {
                    return Err(Diagnostic::at(
                        Span::point(base + k),
                        "uninterpreted functions (parametrised networks) are not supported",
                    ));
                }
            }
        }
        let mut resolve = |s: &str, sp: Span| -> Result<BoolExpr, Diagnostic> {
            match s {
                "true" => return Ok(BoolExpr::Const(true)),
                "false" => return Ok(BoolExpr::Const(false)),
                _ => {}
            }
            match index.get(s) {
                Some(&v) => Ok(BoolExpr::Var(v as u32)),
                None => Err(
                    Diagnostic::at(sp, format!("unknown variable `{s}`")).with_note(
                        "every variable must appear in a regulation or have an update function",
                    ),
                ),
            }
        };
        let f = parse_infix(body, *base, &mut resolve)?;
        net.functions[*i] = Some(f);
        net.spans[*i] = Some(*nspan);
    }
    for i in 0..n {
        if net.functions[i].is_none() && regulated[i] {
            return Err(Diagnostic::error(format!(
                "variable `{}` has regulators but no update function (parametrised networks are not supported)",
                names[i]
            )));
        }
    }
    if n == 0 {
        return Err(Diagnostic::error("the file declares no variables"));
    }
    Ok(net)
}

/// Writes a network as `.aeon` (regulations with unknown monotonicity, `-?`, and the functions).
pub(crate) fn write(net: &Network) -> String {
    let mut out = String::new();
    for (i, f) in net.functions.iter().enumerate() {
        if let Some(f) = f {
            for v in f.vars() {
                if let Some(src) = net.names.get(v as usize) {
                    out.push_str(&format!("{} -? {}\n", src, net.names[i]));
                }
            }
        }
    }
    for (i, f) in net.functions.iter().enumerate() {
        if let Some(f) = f {
            out.push_str(&format!("${}: {}\n", net.names[i], f.display(&net.names)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_aeon() {
        let t = "#name:x\n#position:a:1,2\na -> b\nb -| a\nc -? a\n$a: b & !c\n$b: a\n";
        let n = parse(t).unwrap();
        assert_eq!(n.names, vec!["a", "b", "c"]);
        assert_eq!(n.inputs(), vec![2]);
        assert!(n.functions[0].as_ref().unwrap().eval_bits(0b010));
    }

    #[test]
    fn errors() {
        let e = parse("a -> b\n$b: a & zz\n").unwrap_err();
        assert!(e.message.contains("unknown variable"));
        assert_eq!(
            verikit_diag::line_col("a -> b\n$b: a & zz\n", e.span.unwrap().start),
            (2, 9)
        );
        assert!(parse("a -> b\n").is_err());
        assert!(parse("a => b\n").is_err());
        assert!(parse("a -> b\n$b: f(a)\n").is_err());
        assert!(parse("$a: a\n$a: !a\n")
            .unwrap_err()
            .message
            .contains("duplicate"));
    }

    #[test]
    fn round_trip() {
        let t = "a -> b\nb -| a\n$a: !b\n$b: a\n";
        let n = parse(t).unwrap();
        let m = parse(&write(&n)).unwrap();
        let (mut a, mut b) = (n.names.clone(), m.names.clone());
        a.sort();
        b.sort();
        assert_eq!(a, b);
        // Same dynamics by name.
        for bits in 0..4u64 {
            let val_n = |v: u32| (bits >> v) & 1 == 1;
            let name_val = |name: &str| val_n(n.index_of(name).unwrap() as u32);
            for (i, name) in n.names.iter().enumerate() {
                let j = m.index_of(name).unwrap();
                let fm = m.functions[j].as_ref().unwrap();
                let got = fm.eval(&|v| name_val(&m.names[v as usize]));
                assert_eq!(n.functions[i].as_ref().unwrap().eval(&val_n), got);
            }
        }
    }

    #[test]
    fn parser_is_total() {
        verikit_testkit::assert_parser_total(
            &["#name:x\na -> b\nb -| a\n$a: !b\n$b: a | b\n"],
            2000,
            parse,
        );
    }
}
