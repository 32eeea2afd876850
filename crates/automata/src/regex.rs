//! Regular expressions as a convenience front end, translated by the Glushkov (position)
//! construction, which yields an NFA without ε-transitions with one state per letter occurrence
//! plus an initial state.
//!
//! Syntax: a letter is one alphanumeric character or `_`, or any name in angle brackets (`<ab1>`);
//! juxtaposition is concatenation; `|` union; postfix `*`, `+`, `?`; parentheses; `()` or `ε` is the
//! empty word; `∅` is the empty language. Whitespace is ignored. A file may hold several lines: they
//! are joined with `|`. Lines starting with `#` are comments.

use crate::nfa::{Alphabet, Nfa, NfaBuilder};
use verikit_diag::{Diagnostic, Span};

#[derive(Clone, Debug)]
enum Re {
    Empty,
    Eps,
    Letter(u32),
    Cat(Box<Re>, Box<Re>),
    Alt(Box<Re>, Box<Re>),
    Star(Box<Re>),
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    alphabet: Alphabet,
    /// Letter of each position (Glushkov position = occurrence index).
    positions: Vec<u32>,
    depth: usize,
}

const MAX_DEPTH: usize = 200;
/// Letter occurrences accepted.
const MAX_LETTERS: usize = 100_000;

impl Parser<'_> {
    fn skip_ws(&mut self) {
        loop {
            let rest = &self.text[self.pos..];
            let t = rest.trim_start();
            self.pos += rest.len() - t.len();
            if t.starts_with('#') {
                let end = t.find('\n').unwrap_or(t.len());
                self.pos += end;
            } else {
                break;
            }
        }
    }
    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.text[self.pos..].chars().next()
    }
    fn bump(&mut self, c: char) {
        self.pos += c.len_utf8();
    }
    fn alt(&mut self) -> Result<Re, Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::at(
                Span::point(self.pos),
                "regular expression nested too deeply",
            ));
        }
        let mut items = vec![self.cat()?];
        while matches!(self.peek(), Some('|') | Some('\n')) {
            let c = self.peek().unwrap_or('|');
            self.bump(c);
            items.push(self.cat()?);
        }
        self.depth -= 1;
        Ok(balanced(items, &|l, r| Re::Alt(Box::new(l), Box::new(r))))
    }
    fn cat(&mut self) -> Result<Re, Diagnostic> {
        let mut items: Vec<Re> = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' || c == '\n' {
                break;
            }
            items.push(self.postfix()?);
        }
        if items.is_empty() {
            return Ok(Re::Eps);
        }
        Ok(balanced(items, &|l, r| Re::Cat(Box::new(l), Box::new(r))))
    }
    fn postfix(&mut self) -> Result<Re, Diagnostic> {
        let e = self.atom()?;
        // Stacked postfix operators collapse: (e*)op = e*, (e+)? = (e?)+ = e*, e++ = e+, e?? = e?.
        let (mut star, mut plus, mut opt) = (false, false, false);
        while let Some(c) = self.peek() {
            match c {
                '*' => star = true,
                '+' => plus = true,
                '?' => opt = true,
                _ => break,
            }
            self.bump(c);
        }
        Ok(if star || (plus && opt) {
            Re::Star(Box::new(e))
        } else if plus {
            Re::Cat(
                Box::new(e.clone_fresh(self)),
                Box::new(Re::Star(Box::new(e))),
            )
        } else if opt {
            Re::Alt(Box::new(e), Box::new(Re::Eps))
        } else {
            e
        })
    }
    fn atom(&mut self) -> Result<Re, Diagnostic> {
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Err(Diagnostic::at(
                Span::point(self.pos),
                "expected a letter or `(`",
            ));
        };
        let start = start.max(self.pos);
        match c {
            '(' => {
                self.bump(c);
                if self.peek() == Some(')') {
                    self.bump(')');
                    return Ok(Re::Eps);
                }
                let e = self.alt()?;
                if self.peek() != Some(')') {
                    return Err(Diagnostic::at(Span::point(self.pos), "expected `)`")
                        .with_note(format!("the `(` at offset {start} is not closed")));
                }
                self.bump(')');
                Ok(e)
            }
            'ε' => {
                self.bump(c);
                Ok(Re::Eps)
            }
            '∅' => {
                self.bump(c);
                Ok(Re::Empty)
            }
            '<' => {
                let rest = &self.text[self.pos + 1..];
                let Some(end) = rest.find('>') else {
                    return Err(Diagnostic::at(
                        Span::new(self.pos, self.pos + 1),
                        "unclosed `<` letter name",
                    ));
                };
                let name = &rest[..end];
                if name.is_empty() || name.contains(char::is_whitespace) {
                    return Err(Diagnostic::at(
                        Span::new(self.pos, self.pos + end + 2),
                        "bad letter name",
                    ));
                }
                let name = name.to_string();
                self.pos += end + 2;
                Ok(self.letter(&name))
            }
            c if c.is_alphanumeric() || c == '_' => {
                self.bump(c);
                Ok(self.letter(&c.to_string()))
            }
            _ => Err(Diagnostic::at(
                Span::new(self.pos, self.pos + c.len_utf8()),
                format!("unexpected `{c}`"),
            )),
        }
    }
    fn letter(&mut self, name: &str) -> Re {
        let l = self.alphabet.intern(name);
        self.positions.push(l);
        Re::Letter((self.positions.len() - 1) as u32)
    }
}

/// Combines a non-empty list with an associative operator as a balanced tree (recursion depth
/// `O(log n)` in the later passes instead of `O(n)`).
fn balanced(mut items: Vec<Re>, op: &dyn Fn(Re, Re) -> Re) -> Re {
    while items.len() > 1 {
        let mut next = Vec::with_capacity(items.len().div_ceil(2));
        let mut it = items.into_iter();
        while let Some(l) = it.next() {
            match it.next() {
                Some(r) => next.push(op(l, r)),
                None => next.push(l),
            }
        }
        items = next;
    }
    items.pop().unwrap_or(Re::Eps)
}

impl Re {
    /// A copy with fresh positions (for `e+ = e e*`).
    fn clone_fresh(&self, p: &mut Parser<'_>) -> Re {
        match self {
            Re::Empty => Re::Empty,
            Re::Eps => Re::Eps,
            Re::Letter(pos) => {
                let l = p.positions[*pos as usize];
                p.positions.push(l);
                Re::Letter((p.positions.len() - 1) as u32)
            }
            Re::Cat(a, b) => Re::Cat(Box::new(a.clone_fresh(p)), Box::new(b.clone_fresh(p))),
            Re::Alt(a, b) => Re::Alt(Box::new(a.clone_fresh(p)), Box::new(b.clone_fresh(p))),
            Re::Star(a) => Re::Star(Box::new(a.clone_fresh(p))),
        }
    }
}

/// Glushkov sets of a subexpression: nullable, first positions, last positions.
struct Info {
    nullable: bool,
    first: Vec<u32>,
    last: Vec<u32>,
}

fn glushkov(e: &Re, follow: &mut [Vec<u32>]) -> Info {
    match e {
        Re::Empty => Info {
            nullable: false,
            first: vec![],
            last: vec![],
        },
        Re::Eps => Info {
            nullable: true,
            first: vec![],
            last: vec![],
        },
        Re::Letter(p) => Info {
            nullable: false,
            first: vec![*p],
            last: vec![*p],
        },
        Re::Alt(a, b) => {
            let (x, y) = (glushkov(a, follow), glushkov(b, follow));
            Info {
                nullable: x.nullable || y.nullable,
                first: [x.first, y.first].concat(),
                last: [x.last, y.last].concat(),
            }
        }
        Re::Cat(a, b) => {
            let (x, y) = (glushkov(a, follow), glushkov(b, follow));
            for &l in &x.last {
                follow[l as usize].extend_from_slice(&y.first);
            }
            let first = if x.nullable {
                [x.first.clone(), y.first.clone()].concat()
            } else {
                x.first
            };
            let last = if y.nullable {
                [x.last, y.last.clone()].concat()
            } else {
                y.last
            };
            Info {
                nullable: x.nullable && y.nullable,
                first,
                last,
            }
        }
        Re::Star(a) => {
            let x = glushkov(a, follow);
            for &l in &x.last {
                follow[l as usize].extend_from_slice(&x.first);
            }
            Info {
                nullable: true,
                first: x.first,
                last: x.last,
            }
        }
    }
}

/// Parses a regular expression into an NFA (Glushkov construction).
pub(crate) fn parse(text: &str) -> Result<Nfa, Diagnostic> {
    let mut p = Parser {
        text,
        pos: 0,
        alphabet: Alphabet::new(),
        positions: Vec::new(),
        depth: 0,
    };
    let e = p.alt()?;
    if let Some(c) = p.peek() {
        return Err(Diagnostic::at(
            Span::new(p.pos, p.pos + c.len_utf8()),
            format!("unexpected `{c}`"),
        ));
    }
    let n = p.positions.len();
    let mut follow = vec![Vec::new(); n];
    if n > MAX_LETTERS {
        return Err(Diagnostic::at(
            Span::point(0),
            format!("regular expression too long (more than {MAX_LETTERS} letters)"),
        ));
    }
    if !crate::nfa::fits(n + 1, p.alphabet.len()) {
        return Err(Diagnostic::at(
            Span::point(0),
            "regular expression too large for the transition table",
        ));
    }
    let info = glushkov(&e, &mut follow);
    // State 0 is initial; position i is state i + 1.
    let mut b = NfaBuilder::with_states(p.alphabet, n + 1);
    b.add_initial(0);
    if info.nullable {
        b.add_final(0);
    }
    for &l in &info.last {
        b.add_final(l + 1);
    }
    for &f in &info.first {
        b.add_transition(0, p.positions[f as usize], f + 1);
    }
    for (i, fs) in follow.iter().enumerate() {
        for &f in fs {
            b.add_transition(i as u32 + 1, p.positions[f as usize], f + 1);
        }
    }
    Ok(b.build())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::accepts;

    fn w(a: &Nfa, s: &str) -> Vec<u32> {
        s.chars()
            .map(|c| a.alphabet.get(&c.to_string()).unwrap_or(u32::MAX))
            .collect()
    }

    #[test]
    fn glushkov_language() {
        let a = parse("(a|b)*ab + c?").unwrap();
        for (s, want) in [
            ("ab", true),
            ("abb", true),
            ("aab", true),
            ("abc", true),
            ("ba", false),
            ("", false),
            ("abbc", true),
        ] {
            assert_eq!(accepts(&a, &w(&a, s)), want, "{s}");
        }
        let e = parse("()|a").unwrap();
        assert!(accepts(&e, &[]));
        let n = parse("<foo><bar>*").unwrap();
        assert_eq!(n.num_letters(), 2);
        assert!(parse("∅").unwrap().finals().is_empty());
    }

    #[test]
    fn errors_and_totality() {
        assert_eq!(parse("(ab").unwrap_err().span.map(|s| s.start), Some(3));
        assert!(parse("a)").is_err());
        assert!(parse("a & b").is_err());
        verikit_testkit::assert_parser_total(&["(a|b)*ab+c?", "<x1>(<y>|z)*"], 2000, parse);
        let many = "a".repeat(50_000) + &"*".repeat(50_000) + &"|b".repeat(20_000);
        assert!(parse(&many).is_ok());
        let a = parse("a+?").unwrap();
        assert!(accepts(&a, &[]));
    }
}
