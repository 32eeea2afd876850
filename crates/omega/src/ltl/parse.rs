//! Parser for LTL in Spot's syntax (the syntax of `ltl2tgba`, `ltlfilt`, `randltl`).
//!
//! Operators: `!`/`~`, `X`, `F`/`<>`, `G`/`[]`, `U`, `R`/`V`, `W`, `M`, `&`/`&&`/`/\`,
//! `|`/`||`/`\/`, `xor`/`^`, `->`/`=>`/`-->`, `<->`/`<=>`/`<-->`, constants `true`/`false`/`1`/`0`,
//! Spin's `[]`/`<>`/`()`, Wring's `+` and postfix `=0`/`=1`, the UTF-8 symbols, `/* comments */`,
//! atomic propositions as Spot's scanner reads them (`spot/parsetl/scantl.ll`, documented in
//! Spot's `doc/tl/tl.pdf`): a name of letters, digits, `_` and `.` that does not start with a
//! digit, nor with `F`, `G` or `X` unless a digit follows (`GFa` is `G(F(a))`, `FB` is `F(B)`,
//! `GFP_0.b_c` is `G(F(P_0.b_c))`, but `F0` and `X1` are propositions); right after a proposition
//! or `)`, a name cannot start with a binary-operator letter (`aUb` is a proposition, `(a)Ub` is
//! `a U b`); a tie between a name and an operator or constant goes to the operator (`U`, `xor`,
//! `true`, case-insensitive `FALSE`); other names are double-quoted (`\` escapes).
//! Precedence, loosest first (Spot's `parsetl.yy`): `->` `<->` (right associative), `|`, `xor`,
//! `&`, then `U R W M` (right associative), then the prefix operators `F G X`, then `!`.
//! Errors are located diagnostics (byte spans); deep nesting is an error, not a stack overflow.

use super::ast::{Arena, F};
use super::lex::{quoted, MAX_BOUND};
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
    /// Wring's postfix `=0` (negation of a proposition).
    PostNeg,
    /// Wring's postfix `=1`.
    PostPos,
    /// Spot's bounded operators: `X[n]` (`op` = b'X', `lo` = `hi` = n), `F[n..m]`, `G[n..m]`
    /// (`hi` = `None` for `F[n..]`, `G[n..]`).
    Rep {
        op: u8,
        lo: u32,
        hi: Option<u32>,
    },
    /// `{r}` followed by its binding: the SERE is the text between the braces at `open` and
    /// `close`; `bind` is `b'w'` (`{r}`), `b'!'` (`{r}!`), `b'E'` (`<>->`), `b'e'` (`<>=>`),
    /// `b'U'` (`[]->`, `|->`) or `b'u'` (`[]=>`, `|=>`).
    Sere {
        open: usize,
        close: usize,
        bind: u8,
    },
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
            Tok::PostNeg => "=0".into(),
            Tok::PostPos => "=1".into(),
            Tok::Sere { bind, .. } => match bind {
                b'w' => "{…}".into(),
                b'!' => "{…}!".into(),
                b'E' => "{…}<>->".into(),
                b'e' => "{…}<>=>".into(),
                b'U' => "{…}[]->".into(),
                _ => "{…}[]=>".into(),
            },
            Tok::Rep { op, lo, hi } => match (op, hi) {
                (b'X', _) => format!("X[{lo}]"),
                (_, Some(h)) => format!("{}[{lo}..{h}]", *op as char),
                (_, None) => format!("{}[{lo}..]", *op as char),
            },
        }
    }
}

/// What the lexer expects next, as Spot's scanner tracks it: after an atomic proposition or a
/// closing parenthesis (`AfterProp`) an identifier starting with a binary-operator letter is
/// that operator (`aUb` is one proposition, but `(a)Ub` is `a U b`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Initial,
    AfterProp,
}

/// Fixed-spelling tokens, longest match first among equal starts (Spot's scanner, LTL subset).
const FIXED: &[(&str, Tok)] = &[
    ("<-->", Tok::Equiv),
    ("<->", Tok::Equiv),
    ("<=>", Tok::Equiv),
    ("↔", Tok::Equiv),
    ("⇔", Tok::Equiv),
    ("-->", Tok::Implies),
    ("->", Tok::Implies),
    ("=>", Tok::Implies),
    ("→", Tok::Implies),
    ("⟶", Tok::Implies),
    ("⇒", Tok::Implies),
    ("⟹", Tok::Implies),
    ("&&", Tok::And),
    ("/\\", Tok::And),
    ("∧", Tok::And),
    ("∩", Tok::And),
    ("&", Tok::And),
    ("||", Tok::Or),
    ("\\/", Tok::Or),
    ("∨", Tok::Or),
    ("∪", Tok::Or),
    ("|", Tok::Or),
    ("+", Tok::Or),
    ("^", Tok::Xor),
    ("⊕", Tok::Xor),
    ("xor", Tok::Xor),
    ("!", Tok::Not),
    ("~", Tok::Not),
    ("¬", Tok::Not),
    ("()", Tok::X),
    ("○", Tok::X),
    ("◯", Tok::X),
    ("X", Tok::X),
    ("<>", Tok::Ev),
    ("◇", Tok::Ev),
    ("⋄", Tok::Ev),
    ("♢", Tok::Ev),
    ("F", Tok::Ev),
    ("[]", Tok::Gl),
    ("□", Tok::Gl),
    ("⬜", Tok::Gl),
    ("◻", Tok::Gl),
    ("G", Tok::Gl),
    ("U", Tok::U),
    ("R", Tok::R),
    ("V", Tok::R),
    ("W", Tok::W),
    ("M", Tok::M),
    ("=0", Tok::PostNeg),
    ("\u{305}", Tok::PostNeg),
    ("\u{304}", Tok::PostNeg),
    ("=1", Tok::PostPos),
    ("(", Tok::LParen),
    (")", Tok::RParen),
    ("1", Tok::True),
    ("0", Tok::False),
];

/// Spellings of PSL/SERE and past operators that Spot reads and this LTL kernel does not.
const UNSUPPORTED: &[&str] = &[
    "□→",
    "□⇒",
    "◇→",
    "◇⇒",
    "↦",
    "⤇",
    "##",
    "[*",
    "[+]",
    "[:",
    "[=",
    "[->",
    "}",
    ";",
    ":",
    "*",
    "Ⓧ",
    "first_match",
    "S",
];

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.'
}

/// Length of the atomic proposition Spot's scanner reads at the start of `s` in `mode`
/// (0 if none). After a proposition, names cannot start with a binary-operator letter and
/// their second character cannot be `F`, `G` or `X` (so `p=0UFXp=1` reads as Wring's
/// `p U FXp`); elsewhere a name cannot start with `F`, `G` or `X` unless a digit follows
/// (`F0`, `X1` are propositions; `FB` is `F(B)`).
fn prop_len(s: &[u8], mode: Mode) -> usize {
    let Some(&c0) = s.first() else { return 0 };
    let run = |from: usize| from + s[from..].iter().take_while(|&&c| is_ident(c)).count();
    let first_ok = c0.is_ascii_alphabetic() || c0 == b'_' || c0 == b'.';
    match mode {
        Mode::Initial => {
            if !first_ok {
                0
            } else if !matches!(c0, b'F' | b'G' | b'X') {
                run(1)
            } else if s.get(1).is_some_and(u8::is_ascii_digit) {
                run(2)
            } else {
                0
            }
        }
        Mode::AfterProp => {
            if !first_ok || matches!(c0, b'F' | b'G' | b'X' | b'M' | b'R' | b'U' | b'V' | b'W') {
                0
            } else if s
                .get(1)
                .is_some_and(|&c| is_ident(c) && !matches!(c, b'F' | b'G' | b'X'))
            {
                run(2)
            } else {
                1
            }
        }
    }
}

/// The case-insensitive constants `true` / `false` at the start of `s`.
fn word_constant(s: &str) -> Option<(Tok, usize)> {
    for (w, t) in [("true", Tok::True), ("false", Tok::False)] {
        if s.len() >= w.len() && s.is_char_boundary(w.len()) && s[..w.len()].eq_ignore_ascii_case(w)
        {
            return Some((t, w.len()));
        }
    }
    None
}

/// Splits a formula into tokens by Spot's scanner rules (`spot/parsetl/scantl.ll`, restricted to
/// LTL): the longest match wins, and on a tie an operator or constant beats a proposition name.
fn lex(text: &str) -> Result<Vec<(Tok, Span)>, Diagnostic> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut mode = Mode::Initial;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let rest = &text[i..];
        if rest.starts_with("/*") {
            i = skip_comment(text, i)?;
            continue;
        }
        if c == b'{' {
            let (tok, end) = brace(text, i)?;
            out.push((tok, Span::new(i, end)));
            i = end;
            mode = Mode::AfterProp;
            continue;
        }
        if c == b'"' {
            let (name, end) = quoted(text, i)?;
            out.push((Tok::Ap(name), Span::new(i, end)));
            i = end;
            mode = Mode::AfterProp;
            continue;
        }
        // The longest fixed spelling, then the constants spelled as words, then a name.
        let mut best: Option<(Tok, usize)> = FIXED
            .iter()
            .filter(|(s, _)| rest.starts_with(s))
            .max_by_key(|(s, _)| s.len())
            .map(|(s, t)| (t.clone(), s.len()));
        if let Some((t, n)) = word_constant(rest) {
            if best.as_ref().is_none_or(|b| n > b.1) {
                best = Some((t, n));
            }
        }
        if let Some(u) = UNSUPPORTED
            .iter()
            .filter(|s| rest.starts_with(*s))
            .max_by_key(|s| s.len())
        {
            if best.as_ref().is_none_or(|b| u.len() > b.1) && u.len() >= prop_len(&b[i..], mode) {
                return Err(Diagnostic::at(
                    Span::new(i, i + u.len()),
                    format!("`{u}` (a PSL, SERE or past-time operator) is not supported"),
                )
                .with_span(
                    Span::new(i, i + u.len()),
                    "only LTL operators are supported",
                ));
            }
        }
        // `X[n]`, `F[n..m]`, `G[n..m]`: Spot's bounded operators; `X[]` is `XG`.
        if let Some((Tok::X | Tok::Ev | Tok::Gl, 1)) = &best {
            let after = rest[1..].trim_start();
            if after.starts_with('[') && !after.starts_with("[]") && prop_len(&b[i..], mode) == 0 {
                let open = i + 1 + (rest.len() - 1 - after.len());
                let (tok, end) = bounds(text, b[i], open)?;
                out.push((tok, Span::new(i, end)));
                i = end;
                mode = Mode::Initial;
                continue;
            }
        }
        if c.is_ascii_digit() && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            let j = i + b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            return Err(Diagnostic::at(
                Span::new(i, j),
                format!(
                    "unexpected number `{}` (only 0 and 1 are constants)",
                    &text[i..j]
                ),
            ));
        }
        let plen = prop_len(&b[i..], mode);
        match best {
            Some((t, n)) if n >= plen => {
                mode = match t {
                    Tok::RParen => Mode::AfterProp,
                    Tok::PostNeg | Tok::PostPos => mode,
                    _ => Mode::Initial,
                };
                out.push((t, Span::new(i, i + n)));
                i += n;
            }
            _ if plen > 0 => {
                out.push((
                    Tok::Ap(text[i..i + plen].to_string()),
                    Span::new(i, i + plen),
                ));
                i += plen;
                mode = Mode::AfterProp;
            }
            _ => {
                let ch = rest.chars().next().unwrap_or('?');
                let what = if ch.is_ascii_digit() {
                    "a number (only 0 and 1 are constants)".to_string()
                } else {
                    format!("`{ch}`")
                };
                return Err(Diagnostic::at(
                    Span::new(i, i + ch.len_utf8()),
                    format!("unexpected {what} in an LTL formula"),
                ));
            }
        }
    }
    Ok(out)
}

/// A SERE in braces at byte `open` and the binding operator after it, if any.
fn brace(text: &str, open: usize) -> Result<(Tok, usize), Diagnostic> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = open;
    let close = loop {
        match b.get(i) {
            None => {
                return Err(Diagnostic::at(Span::new(open, open + 1), "unmatched `{`")
                    .with_span(Span::new(open, open + 1), "this `{` is never closed"))
            }
            Some(b'"') => {
                i = quoted(text, i)?.1;
                continue;
            }
            Some(b'{') => depth += 1,
            Some(b'}') => {
                depth -= 1;
                if depth == 0 {
                    break i;
                }
            }
            _ => {}
        }
        i += 1;
    };
    let mut j = close + 1;
    while b.get(j).is_some_and(u8::is_ascii_whitespace) {
        j += 1;
    }
    let rest = text.get(j..).unwrap_or("");
    for (spell, bind) in [
        ("<>->", b'E'),
        ("<>=>", b'e'),
        ("[]->", b'U'),
        ("[]=>", b'u'),
        ("|->", b'U'),
        ("|=>", b'u'),
        ("!", b'!'),
    ] {
        if rest.starts_with(spell) {
            return Ok((Tok::Sere { open, close, bind }, j + spell.len()));
        }
    }
    Ok((
        Tok::Sere {
            open,
            close,
            bind: b'w',
        },
        close + 1,
    ))
}

/// The bracket of a bounded operator `op` (`X`, `F` or `G`) whose `[` is at byte `open`, as
/// Spot's scanner reads it (`spot/parsetl/scantl.ll`, `parsetl.yy`): `X[n]`; `F[n..m]` and
/// `G[n..m]` with the separator `..`, `:`, `,` or `to`, and an omitted, `$` or `inf` upper bound
/// for "unbounded"; a `!` before `]` (the strong next of finite words) means the same on
/// infinite words. Returns the token and the byte after the `]`.
fn bounds(text: &str, op: u8, open: usize) -> Result<(Tok, usize), Diagnostic> {
    let b = text.as_bytes();
    let mut i = open + 1;
    let skip = |i: &mut usize| {
        while b.get(*i).is_some_and(u8::is_ascii_whitespace) {
            *i += 1;
        }
    };
    let num = |i: &mut usize| -> Result<Option<u32>, Diagnostic> {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        if *i == start {
            return Ok(None);
        }
        match text.get(start..*i).and_then(|t| t.parse::<u32>().ok()) {
            Some(n) if n <= MAX_BOUND => Ok(Some(n)),
            _ => Err(Diagnostic::at(
                Span::new(start, *i),
                format!("bound too large (at most {MAX_BOUND})"),
            )),
        }
    };
    let opname = op as char;
    let bad = |at: usize, what: &str| {
        Diagnostic::at(
            Span::new(open, at.max(open + 1)),
            format!("malformed `{opname}[…]`: {what}"),
        )
    };
    skip(&mut i);
    if op == b'X' && b.get(i) == Some(&b'!') {
        // `X[!] f` is the strong next: `X f` on infinite words.
        i += 1;
        skip(&mut i);
        return if b.get(i) == Some(&b']') {
            Ok((
                Tok::Rep {
                    op,
                    lo: 1,
                    hi: Some(1),
                },
                i + 1,
            ))
        } else {
            Err(bad(i, "expected `]` after `!`"))
        };
    }
    let Some(lo) = num(&mut i)? else {
        return Err(bad(i, "expected a number after `[`"));
    };
    skip(&mut i);
    let rest = text.get(i..).unwrap_or("");
    let sep = ["..", ":", ",", "to"]
        .iter()
        .find(|s| rest.starts_with(**s));
    let hi = match (op, sep) {
        (b'X', None) => Some(lo),
        (b'X', Some(_)) => return Err(bad(i, "`X[n]` takes one number")),
        (_, None) => {
            return Err(bad(
                i,
                &format!("`{opname}[n..m]` expects two bounds (`{opname}[n..]` for unbounded)"),
            ))
        }
        (_, Some(s)) => {
            i += s.len();
            skip(&mut i);
            let rest = text.get(i..).unwrap_or("");
            if rest.starts_with('$') {
                i += 1;
                None
            } else if rest.starts_with("inf") {
                i += 3;
                None
            } else {
                num(&mut i)?
            }
        }
    };
    skip(&mut i);
    if b.get(i) == Some(&b'!') {
        i += 1;
        skip(&mut i);
    }
    if b.get(i) != Some(&b']') {
        return Err(bad(i, "expected `]`"));
    }
    if let Some(h) = hi {
        if h < lo {
            return Err(Diagnostic::at(
                Span::new(open, i + 1),
                format!("reversed range in `{opname}[{lo}..{h}]`"),
            ));
        }
    }
    Ok((Tok::Rep { op, lo, hi }, i + 1))
}

/// The largest tree size (nodes counted with repetition, as printed) and nesting depth a
/// formula with bounded operators may expand to (the algorithms on formulas recurse on depth).
const MAX_EXPANDED: usize = 200_000;
const MAX_EXPANDED_DEPTH: usize = 2_500;

/// The tree size of `f` saturating at `cap`, and its depth (memoised on the shared subformulas,
/// so linear in the number of distinct subformulas).
fn size_and_depth(arena: &Arena, f: F, cap: usize) -> (usize, usize) {
    type Memo = std::collections::HashMap<F, (usize, usize)>;
    fn go(a: &Arena, f: F, cap: usize, memo: &mut Memo) -> (usize, usize) {
        if let Some(&n) = memo.get(&f) {
            return n;
        }
        let (mut n, mut d) = (1usize, 0usize);
        for c in a.children(f) {
            let (cn, cd) = go(a, c, cap, memo);
            n = n.saturating_add(cn).min(cap);
            d = d.max(cd);
        }
        memo.insert(f, (n, d + 1));
        (n, d + 1)
    }
    go(arena, f, cap, &mut Memo::new())
}

/// Skips a (nested) `/* … */` comment starting at `i`; returns the index after it. Shared by
/// the LTL and HOA lexers (byte-wise: a comment may hold multi-byte characters).
pub(crate) fn skip_comment(text: &str, start: usize) -> Result<usize, Diagnostic> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = start;
    while i < b.len() {
        if b[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else if b[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return Ok(i);
            }
        } else {
            i += 1;
        }
    }
    Err(
        Diagnostic::at(Span::new(start, start + 2), "unclosed comment")
            .with_span(Span::new(start, start + 2), "this `/*` is never closed"),
    )
}

const MAX_DEPTH: usize = 400;

struct Parser<'a> {
    text: &'a str,
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
        text,
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
    /// Spot's `nested_unop_range`: `X[n] f` is `X…X f` (n times); `F[n..m] f` is
    /// `X^n (f | X(f | … X f))` with `m - n` inner `X`, and `F[n..] f` is `X^n F f`; `G` the same
    /// with `&` and `G`.
    fn bounded(&mut self, op: u8, lo: u32, hi: Option<u32>, f: F) -> F {
        let mut g = match (op, hi) {
            (b'X', _) => f,
            (b'F', None) => self.arena.ev(f),
            (_, None) => self.arena.gl(f),
            (_, Some(h)) => {
                let mut g = f;
                for _ in lo..h {
                    let x = self.arena.x(g);
                    g = if op == b'F' {
                        self.arena.or(vec![f, x])
                    } else {
                        self.arena.and(vec![f, x])
                    };
                }
                g
            }
        };
        for _ in 0..lo {
            g = self.arena.x(g);
        }
        g
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
            Tok::Rep { op, lo, hi } => {
                let a = self.unary()?;
                let f = self.bounded(op, lo, hi, a);
                // Nested bounded operators multiply: keep the expanded formula printable.
                let (size, depth) = size_and_depth(self.arena, f, MAX_EXPANDED);
                if size >= MAX_EXPANDED || depth > MAX_EXPANDED_DEPTH {
                    return Err(Diagnostic::at(
                        sp,
                        format!(
                            "the bounded operators expand to a formula too large (at most {MAX_EXPANDED} nodes, {MAX_EXPANDED_DEPTH} levels deep)"
                        ),
                    ));
                }
                Ok(f)
            }
            Tok::Sere { open, close, bind } => {
                let mut r = super::sere_parse::parse_sere(self.text, open + 1, close, self.arena)?;
                if matches!(bind, b'e' | b'u') {
                    let tt = self.arena.tt();
                    let any = self.arena.s_bool(tt);
                    r = self.arena.s_concat(vec![r, any]);
                }
                match bind {
                    b'w' => Ok(self.arena.closure(r)),
                    b'!' => {
                        let tt = self.arena.tt();
                        Ok(self.arena.econcat(r, tt, false))
                    }
                    _ => {
                        // The suffix formula extends as far as an implication's right operand.
                        let f = self.implies()?;
                        Ok(if matches!(bind, b'E' | b'e') {
                            self.arena.econcat(r, f, false)
                        } else {
                            self.arena.uconcat(r, f)
                        })
                    }
                }
            }
            Tok::True => Ok(self.arena.tt()),
            Tok::False => Ok(self.arena.ff()),
            Tok::Ap(name) => {
                let a = self.arena.ap(&name);
                match self.peek() {
                    Some(Tok::PostNeg) => {
                        self.pos += 1;
                        Ok(self.arena.not(a))
                    }
                    Some(Tok::PostPos) => {
                        self.pos += 1;
                        Ok(a)
                    }
                    _ => Ok(a),
                }
            }
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

    /// Spot's bounded operators (`parsetl.yy`'s `nested_unop_range`).
    #[test]
    fn bounded_operators() {
        assert_eq!(rt("X[2] a"), "XXa");
        assert_eq!(rt("X[0] a"), "a");
        assert_eq!(rt("X[!] a"), "Xa");
        assert_eq!(rt("F[1..3] a"), rt("X(a | X(a | Xa))"));
        assert_eq!(rt("F[1:3] a"), rt("F[1,3]a"));
        assert_eq!(rt("F[1 to 3] a"), rt("F[1..3!]a"));
        assert_eq!(rt("G[2:3] a"), rt("XX(a & Xa)"));
        assert_eq!(rt("F[2..] a"), "XXFa");
        assert_eq!(rt("G[2..$] a"), "XXGa");
        assert_eq!(rt("G[1:inf] a"), "XGa");
        assert_eq!(rt("X[] a"), "XGa");
        assert_eq!(rt("G [0..1] (a U b)"), rt("(a U b) & X(a U b)"));
        let mut a = Arena::new();
        for (bad, at) in [
            ("F[3..1] a", 1),
            ("F[2] a", 1),
            ("X[1..2] a", 1),
            ("G[a] b", 1),
            ("F[1..2 a", 1),
            ("X[99999] a", 2),
            ("F[0..999] F[0..999] F[0..999] a", 10),
            ("X[999] X[999] X[999] a", 0),
        ] {
            let e = parse(bad, &mut a).expect_err(bad);
            assert_eq!(e.span.map(|s| s.start), Some(at), "{bad}: {}", e.message);
        }
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
