//! The ASCII reader (`aag`) and the line cursor both readers use for their ASCII parts. Errors
//! are byte offsets into the text, rendered `line:col` by the caller.

use crate::aig::{Aig, Located, Raw};
use verikit_diag::{Diagnostic, Span};

/// A cursor over the bytes of a file, line by line.
pub(crate) struct Cur<'a> {
    pub(crate) b: &'a [u8],
    pub(crate) pos: usize,
}

/// Header counts `M I L O A B C J F`.
#[derive(Default, Clone, Copy)]
pub(crate) struct Header {
    pub(crate) m: u32,
    pub(crate) i: usize,
    pub(crate) l: usize,
    pub(crate) o: usize,
    pub(crate) a: usize,
    pub(crate) b: usize,
    pub(crate) c: usize,
    pub(crate) j: usize,
    pub(crate) f: usize,
}

impl<'a> Cur<'a> {
    pub(crate) fn new(b: &'a [u8]) -> Cur<'a> {
        Cur { b, pos: 0 }
    }
    pub(crate) fn at_end(&self) -> bool {
        self.pos >= self.b.len()
    }
    /// The numbers of the next line (at least `min`, at most `max` of them), each with its offset.
    pub(crate) fn nums(
        &mut self,
        min: usize,
        max: usize,
        what: &str,
    ) -> Result<Vec<(u32, usize)>, Located> {
        if self.at_end() {
            return Err((self.pos, format!("unexpected end of file: expected {what}")));
        }
        let start = self.pos;
        let mut out = Vec::new();
        loop {
            while matches!(self.b.get(self.pos), Some(b' ' | b'\t' | b'\r')) {
                self.pos += 1;
            }
            match self.b.get(self.pos) {
                None => break,
                Some(b'\n') => {
                    self.pos += 1;
                    break;
                }
                Some(c) if c.is_ascii_digit() => {
                    let at = self.pos;
                    let mut v: u64 = 0;
                    while let Some(&d) = self.b.get(self.pos).filter(|d| d.is_ascii_digit()) {
                        v = v * 10 + (d - b'0') as u64;
                        if v > u32::MAX as u64 / 2 {
                            return Err((at, "number too large".into()));
                        }
                        self.pos += 1;
                    }
                    out.push((v as u32, at));
                }
                Some(_) => {
                    return Err((self.pos, format!("unexpected character: expected {what}")));
                }
            }
        }
        if out.len() < min || out.len() > max {
            let n = if min == max {
                format!("{min}")
            } else {
                format!("{min} to {max}")
            };
            return Err((
                start,
                format!(
                    "expected {what} ({n} numbers on the line), found {}",
                    out.len()
                ),
            ));
        }
        Ok(out)
    }
    /// The rest of the current line as text (without the newline).
    pub(crate) fn line(&mut self) -> (String, usize) {
        let start = self.pos;
        while self.b.get(self.pos).is_some_and(|&c| c != b'\n') {
            self.pos += 1;
        }
        let s = String::from_utf8_lossy(self.b.get(start..self.pos).unwrap_or(&[])).into_owned();
        if !self.at_end() {
            self.pos += 1;
        }
        (s.trim_end_matches('\r').to_string(), start)
    }

    /// `aag`/`aig` header: the word then 5 to 9 counts.
    pub(crate) fn header(&mut self, word: &[u8]) -> Result<Header, Located> {
        if !self.b.starts_with(word) {
            return Err((
                0,
                format!(
                    "the header must start with `{}`",
                    String::from_utf8_lossy(word)
                ),
            ));
        }
        self.pos = word.len();
        if !matches!(self.b.get(self.pos), Some(b' ')) {
            return Err((self.pos, "expected a space after the format word".into()));
        }
        let n = self.nums(5, 9, "header counts `M I L O A [B C J F]`")?;
        let g = |i: usize| n.get(i).map_or(0, |x| x.0);
        let h = Header {
            m: g(0),
            i: g(1) as usize,
            l: g(2) as usize,
            o: g(3) as usize,
            a: g(4) as usize,
            b: g(5) as usize,
            c: g(6) as usize,
            j: g(7) as usize,
            f: g(8) as usize,
        };
        let defined = h.i as u64 + h.l as u64 + h.a as u64;
        if defined > h.m as u64 {
            return Err((
                n.first().map_or(0, |x| x.1),
                format!(
                    "wrong header counts: M = {} is smaller than I + L + A = {defined}",
                    h.m
                ),
            ));
        }
        Ok(h)
    }

    /// The ASCII sections after inputs and latches: outputs, bad, constraints, justice, fairness.
    pub(crate) fn properties(&mut self, h: &Header, raw: &mut Raw) -> Result<(), Located> {
        let one = |c: &mut Cur, what: &str| -> Result<(u32, usize), Located> {
            let v = c.nums(1, 1, what)?;
            v.first()
                .copied()
                .ok_or((c.pos, format!("expected {what}")))
        };
        for _ in 0..h.o {
            raw.outputs.push(one(self, "an output literal")?);
        }
        for _ in 0..h.b {
            raw.bad.push(one(self, "a bad-state literal")?);
        }
        for _ in 0..h.c {
            raw.constraints.push(one(self, "a constraint literal")?);
        }
        let mut sizes = Vec::new();
        for _ in 0..h.j {
            sizes.push(one(self, "the size of a justice property")?);
        }
        for (n, at) in sizes {
            if n as usize > self.b.len() {
                return Err((
                    at,
                    format!("justice property of {n} literals is longer than the file"),
                ));
            }
            let mut j = Vec::new();
            for _ in 0..n {
                j.push(one(self, "a justice literal")?);
            }
            raw.justice.push(j);
        }
        for _ in 0..h.f {
            raw.fairness.push(one(self, "a fairness literal")?);
        }
        Ok(())
    }

    /// Symbol table and comments (both optional), to the end of the file.
    pub(crate) fn trailer(&mut self, h: &Header, raw: &mut Raw) -> Result<(), Located> {
        while !self.at_end() {
            let (line, at) = self.line();
            if line == "c" {
                while !self.at_end() {
                    raw.comments.push(self.line().0);
                }
                break;
            }
            let mut chars = line.chars();
            let kind = chars.next().unwrap_or(' ');
            let limit = match kind {
                'i' => h.i,
                'l' => h.l,
                'o' => h.o,
                'b' => h.b,
                'c' => h.c,
                'j' => h.j,
                'f' => h.f,
                _ if line.is_empty() => continue,
                _ => {
                    return Err((
                        at,
                        format!("unexpected line in the symbol table: `{}`", short(&line)),
                    ))
                }
            };
            let rest = chars.as_str();
            let (idx, name) = rest.split_once(' ').unwrap_or((rest, ""));
            let idx: usize = idx
                .parse()
                .map_err(|_| (at, format!("bad symbol table entry `{}`", short(&line))))?;
            if idx >= limit {
                return Err((
                    at,
                    format!("symbol for {kind}{idx}, but there are only {limit}"),
                ));
            }
            raw.symbols.push((kind, idx, name.to_string()));
        }
        Ok(())
    }
}

fn short(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Reads an ASCII AIGER file.
pub(crate) fn parse(text: &str) -> Result<Aig, Diagnostic> {
    inner(text).map_err(|(at, m)| Diagnostic::at(Span::new(at, at + 1), m))
}

fn inner(text: &str) -> Result<Aig, Located> {
    let mut c = Cur::new(text.as_bytes());
    let h = c.header(b"aag")?;
    // each item needs at least two bytes: reject impossible counts before allocating
    let items = h.i as u64 + h.l as u64 + h.o as u64 + h.a as u64 + h.b as u64 + h.c as u64;
    if items * 2 > text.len() as u64 {
        return Err((
            0,
            format!("wrong header counts: {items} items announced, the file is too short"),
        ));
    }
    let mut raw = Raw {
        maxvar: h.m,
        ..Raw::default()
    };
    for _ in 0..h.i {
        let v = c.nums(1, 1, "an input literal")?;
        raw.inputs.extend(v);
    }
    for _ in 0..h.l {
        let v = c.nums(2, 3, "a latch `lit next [reset]`")?;
        let g = |i: usize| v.get(i).map(|x| x.0);
        raw.latches.push((
            g(0).unwrap_or(0),
            g(1).unwrap_or(0),
            g(2),
            v.first().map_or(0, |x| x.1),
        ));
    }
    c.properties(&h, &mut raw)?;
    for _ in 0..h.a {
        let v = c.nums(3, 3, "an AND gate `lhs rhs0 rhs1`")?;
        let g = |i: usize| v.get(i).map_or(0, |x| x.0);
        raw.ands
            .push((g(0), g(1), g(2), v.first().map_or(0, |x| x.1)));
    }
    c.trailer(&h, &mut raw)?;
    raw.finish()
}
