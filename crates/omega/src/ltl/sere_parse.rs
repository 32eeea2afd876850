//! The SERE between `{` and `}` in Spot's syntax (A. Duret-Lutz, "Spot's Temporal Logic
//! Formulas", §2.5 and §3 Grammar). Precedence, loosest first: `|` (also `||`), `&`, `&&`, `;`,
//! `:`, prefix `!` (Boolean operands only), postfix repetitions `[*i..j]`, `[+]`, `[=i..j]`,
//! `[->i..j]`, `[:*i..j]`, `[:+]`; grouping with `(…)` or `{…}`; `[*…]`, `[+]`, `[:*…]` without
//! an operand repeat `1`. Bounds are written `i..j`, `i:j`, `i,j` or `i to j`, with `j` omitted,
//! `$` or `inf` for unbounded.

use super::ast::{Arena, F};
use super::lex::{quoted, MAX_BOUND};
use super::sere::{Sere, S};
use verikit_diag::{Diagnostic, Span};

const MAX_DEPTH: usize = 200;

struct P<'a> {
    text: &'a str,
    pos: usize,
    end: usize,
    arena: &'a mut Arena,
    depth: usize,
}

/// Parses the SERE in `text[start..end]` (the bytes between the braces).
pub(crate) fn parse_sere(
    text: &str,
    start: usize,
    end: usize,
    arena: &mut Arena,
) -> Result<S, Diagnostic> {
    let mut p = P {
        text,
        pos: start,
        end,
        arena,
        depth: 0,
    };
    p.skip();
    if p.pos >= p.end {
        return Err(Diagnostic::at(
            Span::new(start.saturating_sub(1), end + 1),
            "empty SERE `{}`",
        ));
    }
    let r = p.or()?;
    p.skip();
    if p.rest().starts_with("##") {
        return Err(Diagnostic::at(
            Span::new(p.pos, p.pos + 2),
            "`##` (a SystemVerilog delay, not in Spot's PSL) is not supported",
        ));
    }
    if p.pos < p.end {
        let c = p.rest().chars().next().unwrap_or('?');
        return Err(Diagnostic::at(
            Span::new(p.pos, p.pos + c.len_utf8()),
            format!("unexpected `{c}` in a SERE"),
        ));
    }
    Ok(r)
}

impl P<'_> {
    fn rest(&self) -> &str {
        self.text.get(self.pos..self.end).unwrap_or("")
    }
    fn skip(&mut self) {
        while self.pos < self.end
            && self
                .text
                .as_bytes()
                .get(self.pos)
                .is_some_and(u8::is_ascii_whitespace)
        {
            self.pos += 1;
        }
    }
    fn eat(&mut self, s: &str) -> bool {
        self.skip();
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }
    fn peek_is(&mut self, s: &str) -> bool {
        self.skip();
        self.rest().starts_with(s)
    }
    fn enter(&mut self) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::at(
                Span::point(self.pos),
                format!("SERE nested too deeply (more than {MAX_DEPTH} levels)"),
            ));
        }
        Ok(())
    }

    fn or(&mut self) -> Result<S, Diagnostic> {
        self.enter()?;
        let mut v = vec![self.and_nlm()?];
        loop {
            if self.eat("||") || (!self.peek_is("|->") && !self.peek_is("|=>") && self.eat("|")) {
                v.push(self.and_nlm()?);
            } else {
                break;
            }
        }
        self.depth -= 1;
        Ok(self.arena.s_or(v))
    }
    fn and_nlm(&mut self) -> Result<S, Diagnostic> {
        let mut v = vec![self.and_len()?];
        while !self.peek_is("&&") && self.eat("&") {
            v.push(self.and_len()?);
        }
        Ok(self.arena.s_and_nlm(v))
    }
    fn and_len(&mut self) -> Result<S, Diagnostic> {
        let mut v = vec![self.concat()?];
        while self.eat("&&") {
            v.push(self.concat()?);
        }
        Ok(self.arena.s_and_len(v))
    }
    fn concat(&mut self) -> Result<S, Diagnostic> {
        let mut v = vec![self.fusion()?];
        while self.eat(";") {
            v.push(self.fusion()?);
        }
        Ok(self.arena.s_concat(v))
    }
    fn fusion(&mut self) -> Result<S, Diagnostic> {
        let mut v = vec![self.postfix()?];
        while !self.peek_is(":*") && !self.peek_is(":+") && self.eat(":") {
            v.push(self.postfix()?);
        }
        Ok(self.arena.s_fusion(v))
    }

    /// `[` already seen at `open`; reads `i..j]` (after the operator characters).
    fn bounds(&mut self, open: usize, what: &str) -> Result<(u32, Option<u32>), Diagnostic> {
        let b = self.text.as_bytes();
        let bad = |at: usize, msg: &str| {
            Diagnostic::at(
                Span::new(open, at.max(open + 1)),
                format!("malformed `{what}`: {msg}"),
            )
        };
        let num = |p: &mut Self| -> Result<Option<u32>, Diagnostic> {
            p.skip();
            let start = p.pos;
            while p.pos < p.end && b.get(p.pos).is_some_and(u8::is_ascii_digit) {
                p.pos += 1;
            }
            if p.pos == start {
                return Ok(None);
            }
            match p.text.get(start..p.pos).and_then(|t| t.parse::<u32>().ok()) {
                Some(n) if n <= MAX_BOUND => Ok(Some(n)),
                _ => Err(Diagnostic::at(
                    Span::new(start, p.pos),
                    format!("bound too large (at most {MAX_BOUND})"),
                )),
            }
        };
        if self.eat("]") {
            return Ok((0, None));
        }
        let lo = num(self)?;
        let sep = ["..", ":", ",", "to"].iter().any(|s| self.eat(s));
        let hi = if sep {
            if self.eat("$") || self.eat("inf") {
                None
            } else {
                num(self)?
            }
        } else {
            match lo {
                Some(n) => Some(n),
                None => return Err(bad(self.pos, "expected a number or `]`")),
            }
        };
        if !self.eat("]") {
            return Err(bad(self.pos, "expected `]`"));
        }
        let lo = lo.unwrap_or(0);
        if let Some(h) = hi {
            if h < lo {
                return Err(Diagnostic::at(
                    Span::new(open, self.pos),
                    format!("reversed range in `{what}`"),
                ));
            }
        }
        Ok((lo, hi))
    }

    fn boolean_of(&self, r: S, at: Span, op: &str) -> Result<F, Diagnostic> {
        match self.arena.sere(r) {
            Sere::Bool(b) => Ok(*b),
            _ => Err(Diagnostic::at(
                at,
                format!("`{op}` applies to a Boolean operand, not to a SERE"),
            )),
        }
    }

    fn postfix(&mut self) -> Result<S, Diagnostic> {
        self.enter()?;
        let start = {
            self.skip();
            self.pos
        };
        let mut r = if self.peek_is("[*")
            || self.peek_is("[+]")
            || self.peek_is("[:*")
            || self.peek_is("[:+]")
        {
            let tt = self.arena.tt();
            self.arena.s_bool(tt)
        } else {
            self.primary()?
        };
        loop {
            self.skip();
            let open = self.pos;
            if self.eat("[*") {
                let (lo, hi) = self.bounds(open, "[*…]")?;
                r = self.arena.s_star(r, lo, hi);
            } else if self.eat("[+]") {
                r = self.arena.s_star(r, 1, None);
            } else if self.eat("[:*") {
                let (lo, hi) = self.bounds(open, "[:*…]")?;
                r = self.arena.s_fstar(r, lo, hi);
            } else if self.eat("[:+]") {
                r = self.arena.s_fstar(r, 1, None);
            } else if self.eat("[->") {
                let (lo, hi) = if self.eat("]") {
                    (1, Some(1))
                } else {
                    self.bounds(open, "[->…]")?
                };
                let b = self.boolean_of(r, Span::new(start, self.pos), "[->]")?;
                let nb = self.arena.not(b);
                let snb = self.arena.s_bool(nb);
                let wait = self.arena.s_star(snb, 0, None);
                let sb = self.arena.s_bool(b);
                let one = self.arena.s_concat(vec![wait, sb]);
                r = self.arena.s_star(one, lo, hi);
            } else if self.eat("[=") {
                let (lo, hi) = self.bounds(open, "[=…]")?;
                let b = self.boolean_of(r, Span::new(start, self.pos), "[=]")?;
                let nb = self.arena.not(b);
                let snb = self.arena.s_bool(nb);
                let wait = self.arena.s_star(snb, 0, None);
                let sb = self.arena.s_bool(b);
                let one = self.arena.s_concat(vec![wait, sb]);
                let reps = self.arena.s_star(one, lo, hi);
                r = self.arena.s_concat(vec![reps, wait]);
            } else {
                break;
            }
        }
        self.depth -= 1;
        Ok(r)
    }

    fn primary(&mut self) -> Result<S, Diagnostic> {
        self.skip();
        let at = self.pos;
        if self.eat("!") {
            let x = self.postfix_operand()?;
            let b = self.boolean_of(x, Span::new(at, self.pos), "!")?;
            let nb = self.arena.not(b);
            return Ok(self.arena.s_bool(nb));
        }
        for (open, close) in [("(", ")"), ("{", "}")] {
            if self.eat(open) {
                let r = self.or()?;
                if !self.eat(close) {
                    return Err(Diagnostic::at(
                        Span::point(self.pos),
                        format!("expected `{close}`"),
                    )
                    .with_note(format!("to close the `{open}` at byte {at}")));
                }
                return Ok(r);
            }
        }
        let b = self.text.as_bytes();
        if b.get(self.pos) == Some(&b'"') && self.pos < self.end {
            let (name, end) = quoted(self.text, self.pos)?;
            self.pos = end;
            let f = self.arena.ap(&name);
            return Ok(self.arena.s_bool(f));
        }
        let len = self
            .rest()
            .bytes()
            .take_while(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
            .count();
        if len == 0 {
            let c = self.rest().chars().next();
            return Err(match c {
                Some(c) => Diagnostic::at(
                    Span::new(self.pos, self.pos + c.len_utf8()),
                    format!("unexpected `{c}` in a SERE (expected a Boolean, `(`, `{{` or `[*`)"),
                ),
                None => Diagnostic::at(Span::point(self.pos), "unexpected end of the SERE"),
            });
        }
        let word = self.rest()[..len].to_string();
        let sp = Span::new(self.pos, self.pos + len);
        self.pos += len;
        let f = match word.as_str() {
            "1" => self.arena.tt(),
            "0" => self.arena.ff(),
            w if w.eq_ignore_ascii_case("true") => self.arena.tt(),
            w if w.eq_ignore_ascii_case("false") => self.arena.ff(),
            w if w.as_bytes().first().is_some_and(u8::is_ascii_digit) => {
                return Err(Diagnostic::at(
                    sp,
                    format!("unexpected number `{w}` in a SERE"),
                ))
            }
            w => self.arena.ap(w),
        };
        if f == self.arena.ff() {
            return Ok(super::sere::NONE);
        }
        Ok(self.arena.s_bool(f))
    }

    /// The operand of a prefix `!`: a primary (no repetition binds tighter than `!`).
    fn postfix_operand(&mut self) -> Result<S, Diagnostic> {
        self.enter()?;
        let r = self.primary();
        self.depth -= 1;
        r
    }
}
