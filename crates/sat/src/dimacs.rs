//! DIMACS CNF, the input format of the SAT competitions ("Satisfiability Suggested Format",
//! DIMACS Challenge, 1993): comment lines `c …`, one header `p cnf <vars> <clauses>`, then clauses
//! as non-zero integers terminated by `0`. A line starting with `%` ends the input (as in the
//! SATLIB files). Every problem — a missing or malformed header, a token that is not an integer,
//! a variable beyond the header's count, an unterminated last clause, a clause count that differs
//! from the header — is a located [`Diagnostic`].

use crate::cdcl::{Lit, Var};
use verikit_diag::{Diagnostic, Span};

/// The largest variable count a CNF may declare (literals are `2·var + sign` in a `u32`).
pub const MAX_VARS: u32 = (u32::MAX >> 1) - 1;

/// A CNF formula: DIMACS variable `k` is [`Var`] `k − 1`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cnf {
    pub num_vars: u32,
    pub clauses: Vec<Vec<Lit>>,
}

impl Cnf {
    /// True iff the assignment (`model[v]` the value of variable `v`) satisfies every clause.
    pub fn satisfied_by(&self, model: impl Fn(Var) -> bool) -> bool {
        self.clauses
            .iter()
            .all(|c| c.iter().any(|l| model(l.var()) != l.is_neg()))
    }

    /// The DIMACS text of the formula.
    pub fn to_dimacs(&self) -> String {
        let mut out = format!("p cnf {} {}\n", self.num_vars, self.clauses.len());
        for c in &self.clauses {
            for l in c {
                let v = i64::from(l.var()) + 1;
                out.push_str(&(if l.is_neg() { -v } else { v }).to_string());
                out.push(' ');
            }
            out.push_str("0\n");
        }
        out
    }
}

/// A group CNF (the MUS competition's `.gcnf`): clauses with their group, group 0 being the hard
/// clauses and groups `1..=num_groups` the soft ones a group core chooses from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Gcnf {
    pub num_vars: u32,
    pub num_groups: u32,
    pub clauses: Vec<Vec<Lit>>,
    /// The group of each clause.
    pub groups: Vec<u32>,
}

impl Gcnf {
    /// A plain CNF as a group CNF: clause `i` is group `i + 1`, no hard clauses.
    pub fn from_cnf(cnf: Cnf) -> Gcnf {
        let n = cnf.clauses.len() as u32;
        Gcnf {
            num_vars: cnf.num_vars,
            num_groups: n,
            groups: (1..=n).collect(),
            clauses: cnf.clauses,
        }
    }
}

/// Tokens of one line with their byte offsets.
fn tokens(line: &str, base: usize) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = line;
    let mut off = base;
    std::iter::from_fn(move || {
        let skip = rest.len() - rest.trim_start().len();
        rest = &rest[skip..];
        off += skip;
        if rest.is_empty() {
            return None;
        }
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let tok = (off, &rest[..len]);
        rest = &rest[len..];
        off += len;
        Some(tok)
    })
}

/// Reads a DIMACS CNF text.
pub fn parse(text: &str) -> Result<Cnf, Diagnostic> {
    let g = parse_any(text, false)?;
    Ok(Cnf {
        num_vars: g.num_vars,
        clauses: g.clauses,
    })
}

/// Reads a group CNF (`p gcnf <variables> <clauses> <groups>`, each clause prefixed by `{g}` with
/// `0 ≤ g ≤ groups`).
pub fn parse_gcnf(text: &str) -> Result<Gcnf, Diagnostic> {
    parse_any(text, true)
}

fn parse_any(text: &str, gcnf: bool) -> Result<Gcnf, Diagnostic> {
    let span = |at: usize, tok: &str| Span::new(at, at + tok.len());
    let mut header: Option<(u32, u64, usize)> = None;
    let mut cnf = Gcnf::default();
    let mut group: Option<u32> = None;
    let mut clause: Vec<Lit> = Vec::new();
    let mut clause_start = 0usize;
    let mut offset = 0usize;
    for raw in text.split_inclusive('\n') {
        let base = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let body = line.trim_start();
        let indent = line.len() - body.len();
        if body.starts_with('c') || body.is_empty() {
            continue;
        }
        if body.starts_with('%') {
            break;
        }
        if body.starts_with('p') {
            let toks: Vec<(usize, &str)> = tokens(line, base).collect();
            if header.is_some() {
                return Err(Diagnostic::at(
                    Span::new(base + indent, base + line.len()),
                    "second `p` header line",
                ));
            }
            let bad = || {
                Diagnostic::error(if gcnf {
                    "malformed header: expected `p gcnf <variables> <clauses> <groups>`"
                } else {
                    "malformed header: expected `p cnf <variables> <clauses>`"
                })
                .with_span(Span::new(base + indent, base + line.len()), "here")
            };
            let (want, word) = if gcnf { (5, "gcnf") } else { (4, "cnf") };
            if toks.len() != want || toks[0].1 != "p" || toks[1].1 != word {
                return Err(bad());
            }
            if gcnf {
                cnf.num_groups = toks[4].1.parse().map_err(|_| {
                    Diagnostic::error("group count must be a non-negative integer")
                        .with_span(span(toks[4].0, toks[4].1), "here")
                })?;
            }
            let vars: u32 = match toks[2].1.parse() {
                Ok(v) if v <= MAX_VARS => v,
                _ => {
                    return Err(Diagnostic::error(format!(
                        "variable count must be an integer from 0 to {MAX_VARS}"
                    ))
                    .with_span(span(toks[2].0, toks[2].1), "here"))
                }
            };
            let ncl: u64 = toks[3].1.parse().map_err(|_| {
                Diagnostic::error("clause count must be a non-negative integer")
                    .with_span(span(toks[3].0, toks[3].1), "here")
            })?;
            header = Some((vars, ncl, base + indent));
            cnf.num_vars = vars;
            continue;
        }
        let Some((vars, _, _)) = header else {
            return Err(Diagnostic::error("clause before the `p cnf` header")
                .with_span(Span::new(base + indent, base + line.len()), "here"));
        };
        for (at, tok) in tokens(line, base) {
            if gcnf && group.is_none() {
                let g = tok
                    .strip_prefix('{')
                    .and_then(|t| t.strip_suffix('}'))
                    .and_then(|t| t.parse::<u32>().ok())
                    .filter(|&g| g <= cnf.num_groups)
                    .ok_or_else(|| {
                        Diagnostic::error(format!(
                            "expected a group `{{g}}` with g from 0 to {}",
                            cnf.num_groups
                        ))
                        .with_span(span(at, tok), "here")
                    })?;
                group = Some(g);
                clause_start = at;
                continue;
            }
            let n: i64 = tok.parse().map_err(|_| {
                Diagnostic::error(format!(
                    "`{tok}` is not a literal (a non-zero integer or 0)"
                ))
                .with_span(span(at, tok), "here")
            })?;
            if n == 0 {
                cnf.clauses.push(std::mem::take(&mut clause));
                cnf.groups.push(group.take().unwrap_or(0));
                continue;
            }
            if clause.is_empty() && !gcnf {
                clause_start = at;
            }
            let v = n.unsigned_abs();
            if v > u64::from(vars) {
                return Err(Diagnostic::error(format!(
                    "variable {v} exceeds the header's count of {vars}"
                ))
                .with_span(span(at, tok), "here"));
            }
            // v ≥ 1 and v ≤ vars ≤ MAX_VARS, so v − 1 fits a u32.
            let var = u32::try_from(v - 1).unwrap_or(0);
            clause.push(Lit::new(var, n < 0));
        }
    }
    let Some((_, ncl, hdr_at)) = header else {
        return Err(Diagnostic::error(if gcnf {
            "missing `p gcnf <variables> <clauses> <groups>` header"
        } else {
            "missing `p cnf <variables> <clauses>` header"
        })
        .with_span(Span::point(0), "expected here"));
    };
    if !clause.is_empty() || group.is_some() {
        return Err(Diagnostic::error("last clause is not terminated by `0`")
            .with_span(Span::new(clause_start, offset), "this clause"));
    }
    if cnf.clauses.len() as u64 != ncl {
        return Err(Diagnostic::error(format!(
            "the header declares {ncl} clauses but the file has {}",
            cnf.clauses.len()
        ))
        .with_span(Span::point(hdr_at), "header"));
    }
    Ok(cnf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use verikit_diag::SourceFile;

    const SAMPLE: &str = "c a comment\np cnf 3 2\n1 -3 0\n2 3\n-1 0\n";

    #[test]
    fn reads_clauses_across_lines() {
        let cnf = parse(SAMPLE).unwrap();
        assert_eq!(cnf.num_vars, 3);
        assert_eq!(
            cnf.clauses,
            vec![
                vec![Lit::new(0, false), Lit::new(2, true)],
                vec![Lit::new(1, false), Lit::new(2, false), Lit::new(0, true)],
            ]
        );
        assert_eq!(parse(&cnf.to_dimacs()).unwrap(), cnf);
        // SATLIB's trailer
        assert_eq!(parse("p cnf 1 1\n1 0\n%\n0\n").unwrap().clauses.len(), 1);
    }

    fn location(text: &str) -> String {
        let e = parse(text).unwrap_err();
        let f = SourceFile::new("f.cnf", text);
        assert!(e.render(&f).contains('^'), "{}", e.render(&f));
        e.location(&f).unwrap_or_default()
    }

    #[test]
    fn errors_are_located() {
        assert_eq!(location("p cnf 2 1\n1 x 0\n"), "f.cnf:2:3");
        assert_eq!(location("p cnf 2 1\n1 -3 0\n"), "f.cnf:2:3");
        assert_eq!(location("c\n1 2 0\n"), "f.cnf:2:1");
        assert_eq!(location("p cnf 2 2\n1 2 0\n"), "f.cnf:1:1");
        assert_eq!(location("p cnf 2 1\n1 2 0\n  2"), "f.cnf:3:3");
        assert_eq!(location("p dnf 2 1\n"), "f.cnf:1:1");
        assert_eq!(location("p cnf -2 1\n"), "f.cnf:1:7");
        assert_eq!(location("p cnf 2 1\np cnf 2 1\n"), "f.cnf:2:1");
        assert_eq!(location(""), "f.cnf:1:1");
    }

    #[test]
    fn reads_group_cnf() {
        let g = parse_gcnf("c x\np gcnf 2 3 2\n{0} 1 2 0\n{2} -1 0 {1}\n-2 0\n").unwrap();
        assert_eq!(g.groups, vec![0, 2, 1]);
        assert_eq!(g.clauses[2], vec![Lit::new(1, true)]);
        assert_eq!(g.num_groups, 2);
        let e = parse_gcnf("p gcnf 2 1 1\n{3} 1 0\n").unwrap_err();
        let f = SourceFile::new("f.gcnf", "p gcnf 2 1 1\n{3} 1 0\n");
        assert_eq!(e.location(&f).unwrap_or_default(), "f.gcnf:2:1");
        assert!(parse_gcnf("p gcnf 2 1 1\n1 0\n").is_err());
        assert!(parse_gcnf("p gcnf 2 1 1\n{1} 1\n").is_err());
        assert!(parse_gcnf("p cnf 2 1\n1 0\n").is_err());
    }

    #[test]
    fn gcnf_parser_is_total() {
        verikit_testkit::assert_parser_total(
            &["p gcnf 3 3 2\n{0} 1 2 0\n{1} -1 3 0\n{2} -3 0\n"],
            3000,
            parse_gcnf,
        );
    }

    #[test]
    fn parser_is_total() {
        verikit_testkit::assert_parser_total(
            &[SAMPLE, "p cnf 5 3\n1 2 0 -3 4 0\n5 -1 0\n"],
            3000,
            parse,
        );
    }
}
