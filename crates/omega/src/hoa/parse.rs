//! HOA v1 reader. Accepts any Emerson–Lei acceptance condition (`t`, `f`, `Inf`, `Fin`, `&`,
//! `|`, parentheses: Büchi, co-Büchi, Rabin, Streett, parity, …); generalized Büchi conditions
//! are renumbered densely as before, other conditions keep their declared sets. Complemented
//! sets (`Inf(!i)`) are rejected by name. Supports header
//! items `HOA`, `States`, `Start`, `AP`, `Alias`, `Acceptance`, `acc-name`, `name`, `tool`,
//! `properties` (others ignored when lowercase, rejected when capitalised, as the spec asks);
//! state and edge labels with `t`, `f`, AP numbers, `@aliases`, `!`, `&`, `|` and parentheses
//! (parsed by the shared `verikit-logic` infix parser); implicit labels; state- and
//! transition-based marks; comments `/* … */`. Universal branching (`&` between states) is
//! rejected (alternating automata are not supported). Every error is a located diagnostic.

use crate::acc::Acc;
use crate::error::OmegaError;
use crate::twa::{Marks, Twa, MAX_SETS};
use std::collections::HashMap;
use verikit_diag::{Diagnostic, Span};
use verikit_logic::BoolExpr;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Header(String),
    Ident(String),
    Int(u64),
    Str(String),
    Alias(String),
    Punct(char),
    Body,
    End,
    Abort,
}

fn lex(text: &str) -> Result<Vec<(Tok, Span)>, OmegaError> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let (toks, end) = lex_one(text, i)?;
        out.extend(toks);
        i = end;
    }
    Ok(out)
}

/// Lexes from byte `i` to the end of one automaton: through its `--END--` or `--ABORT--`, or up
/// to (not including) the `HOA:` that starts the next one. Returns the tokens and where it stopped.
fn lex_one(text: &str, mut i: usize) -> Result<(Vec<(Tok, Span)>, usize), OmegaError> {
    let b = text.as_bytes();
    let mut out: Vec<(Tok, Span)> = Vec::new();
    let err = |sp: Span, m: String| OmegaError::syntax(Diagnostic::at(sp, m));
    while i < b.len() {
        if matches!(out.last(), Some((Tok::End | Tok::Abort, _))) {
            break;
        }
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if b[i..].starts_with(b"/*") {
            i = crate::ltl::skip_comment(text, i).map_err(OmegaError::syntax)?;
            continue;
        }
        // A bare `--` between automata (as some tools separate a stream) is skipped.
        if b[i..].starts_with(b"--") && !b.get(i + 2).is_some_and(|c| c.is_ascii_alphabetic()) {
            i += 2;
            continue;
        }
        for (m, t) in [
            ("--BODY--", Tok::Body),
            ("--END--", Tok::End),
            ("--ABORT--", Tok::Abort),
        ] {
            if b[i..].starts_with(m.as_bytes()) {
                out.push((t, Span::new(i, i + m.len())));
                i += m.len();
                break;
            }
        }
        if i != start {
            continue;
        }
        if c == b'"' {
            let mut s = String::new();
            i += 1;
            loop {
                let Some(ch) = text[i..].chars().next() else {
                    return Err(err(
                        Span::new(start, start + 1),
                        "unterminated string".into(),
                    ));
                };
                i += ch.len_utf8();
                match ch {
                    '"' => break,
                    '\\' => {
                        if let Some(n) = text[i..].chars().next() {
                            s.push(n);
                            i += n.len_utf8();
                        }
                    }
                    _ => s.push(ch),
                }
            }
            out.push((Tok::Str(s), Span::new(start, i)));
            continue;
        }
        if c.is_ascii_digit() {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let v: u64 = text[start..i]
                .parse()
                .map_err(|_| err(Span::new(start, i), "number too large".into()))?;
            out.push((Tok::Int(v), Span::new(start, i)));
            continue;
        }
        let ident_char = |ch: u8| ch.is_ascii_alphanumeric() || ch == b'_' || ch == b'-';
        if c == b'@' {
            i += 1;
            while i < b.len() && ident_char(b[i]) {
                i += 1;
            }
            out.push((
                Tok::Alias(text[start + 1..i].to_string()),
                Span::new(start, i),
            ));
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && ident_char(b[i]) {
                i += 1;
            }
            let word = text[start..i].to_string();
            if i < b.len() && b[i] == b':' {
                if word == "HOA" && !out.is_empty() {
                    return Ok((out, start));
                }
                i += 1;
                out.push((Tok::Header(word), Span::new(start, i)));
            } else {
                out.push((Tok::Ident(word), Span::new(start, i)));
            }
            continue;
        }
        if "!&|()[]{}".contains(c as char) {
            out.push((Tok::Punct(c as char), Span::new(i, i + 1)));
            i += 1;
            continue;
        }
        let ch = text[i..].chars().next().unwrap_or('?');
        return Err(err(
            Span::new(i, i + ch.len_utf8()),
            format!("unexpected character `{ch}` in HOA input"),
        ));
    }
    Ok((out, i))
}

struct P<'t> {
    text: &'t str,
    toks: Vec<(Tok, Span)>,
    pos: usize,
}

impl P<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }
    fn span(&self) -> Span {
        self.toks
            .get(self.pos)
            .map_or(Span::point(self.text.len()), |t| t.1)
    }
    /// The token at the cursor, or the error "unexpected end of input in the `part`".
    fn current(&self, part: &str) -> Result<(Tok, Span), OmegaError> {
        match self.toks.get(self.pos) {
            Some(x) => Ok(x.clone()),
            None => Err(self.err(format!("unexpected end of input in the {part}"))),
        }
    }

    fn err(&self, m: impl Into<String>) -> OmegaError {
        let sp = self.span();
        OmegaError::syntax(Diagnostic::at(sp, m).with_span(sp, "here"))
    }
    fn int(&mut self, what: &str) -> Result<u64, OmegaError> {
        match self.peek() {
            Some(Tok::Int(v)) => {
                let v = *v;
                self.pos += 1;
                Ok(v)
            }
            _ => Err(self.err(format!("expected {what} (a number)"))),
        }
    }
    fn punct(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    /// An optional label `[expr]` at the cursor.
    fn bracketed_label(
        &mut self,
        nap: usize,
        aliases: &HashMap<String, BoolExpr>,
    ) -> Result<Option<BoolExpr>, OmegaError> {
        if !self.punct('[') {
            return Ok(None);
        }
        let e = self.label_expr(nap, aliases)?;
        if !self.punct(']') {
            return Err(self.err("expected `]`"));
        }
        Ok(Some(e))
    }
    /// Consumes label-expression tokens and parses them with the shared infix parser.
    fn label_expr(
        &mut self,
        nap: usize,
        aliases: &HashMap<String, BoolExpr>,
    ) -> Result<BoolExpr, OmegaError> {
        let start = self.pos;
        while let Some(t) = self.peek() {
            let ok = match t {
                Tok::Int(_) | Tok::Alias(_) => true,
                Tok::Ident(s) => s == "t" || s == "f",
                Tok::Punct(c) => "!&|()".contains(*c),
                _ => false,
            };
            if !ok {
                break;
            }
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.err("expected a label expression"));
        }
        let (s, e) = (self.toks[start].1.start, self.toks[self.pos - 1].1.end);
        verikit_logic::parse_infix(&self.text[s..e], s, &mut |name, sp| {
            if name == "t" {
                return Ok(BoolExpr::Const(true));
            }
            if name == "f" {
                return Ok(BoolExpr::Const(false));
            }
            if let Some(a) = name.strip_prefix('@') {
                return aliases
                    .get(a)
                    .cloned()
                    .ok_or_else(|| Diagnostic::at(sp, format!("undefined alias `@{a}`")));
            }
            match name.parse::<usize>() {
                Ok(v) if v < nap => Ok(BoolExpr::Var(v as u32)),
                Ok(v) => Err(Diagnostic::at(
                    sp,
                    format!("AP number {v} is out of range (AP: {nap})"),
                )),
                Err(_) => Err(Diagnostic::at(
                    sp,
                    format!("unexpected `{name}` in a label"),
                )),
            }
        })
        .map_err(OmegaError::syntax)
    }
    fn marks(&mut self, map: &HashMap<u64, u32>, nsets: u64) -> Result<Marks, OmegaError> {
        let mut m = 0;
        if !self.punct('{') {
            return Ok(0);
        }
        loop {
            match self.peek() {
                Some(Tok::Int(v)) => {
                    let v = *v;
                    if v >= nsets {
                        return Err(self.err(format!(
                            "acceptance set {v} is out of range (Acceptance declares {nsets})"
                        )));
                    }
                    if let Some(&j) = map.get(&v) {
                        m |= 1u64 << j;
                    }
                    self.pos += 1;
                }
                Some(Tok::Punct('}')) => {
                    self.pos += 1;
                    return Ok(m);
                }
                _ => return Err(self.err("expected a set number or `}`")),
            }
        }
    }
}

/// `Acceptance:` formula: disjunctions of conjunctions of atoms (`&` binds tighter than `|`).
fn acc_cond(p: &mut P<'_>, depth: usize) -> Result<Acc, OmegaError> {
    if depth > 200 {
        return Err(p.err("acceptance condition nested too deeply"));
    }
    let mut or = acc_conj(p, depth)?;
    while p.punct('|') {
        or = Acc::or(or, acc_conj(p, depth)?);
    }
    Ok(or)
}

fn acc_conj(p: &mut P<'_>, depth: usize) -> Result<Acc, OmegaError> {
    let mut and = acc_atom(p, depth)?;
    while p.punct('&') {
        and = Acc::and(and, acc_atom(p, depth)?);
    }
    Ok(and)
}

fn acc_atom(p: &mut P<'_>, depth: usize) -> Result<Acc, OmegaError> {
    match p.peek().cloned() {
        Some(Tok::Ident(s)) if s == "t" => {
            p.pos += 1;
            Ok(Acc::t())
        }
        Some(Tok::Ident(s)) if s == "f" => {
            p.pos += 1;
            Ok(Acc::f())
        }
        Some(Tok::Ident(s)) if s == "Inf" || s == "Fin" => {
            p.pos += 1;
            if !p.punct('(') {
                return Err(p.err("expected `(`"));
            }
            if p.peek() == Some(&Tok::Punct('!')) {
                return Err(OmegaError::unsupported(Diagnostic::at(
                    p.span(),
                    format!("complemented acceptance sets (`{s}(!…)`) are not supported"),
                )));
            }
            let sp = p.span();
            let v = p.int("an acceptance set")?;
            if !p.punct(')') {
                return Err(p.err("expected `)`"));
            }
            if v >= u64::from(MAX_SETS) {
                return Err(OmegaError::Limit(format!(
                    "acceptance set {v} at {}..{} (at most {MAX_SETS} sets)",
                    sp.start, sp.end
                )));
            }
            Ok(if s == "Inf" {
                Acc::inf(v as u32)
            } else {
                Acc::fin(v as u32)
            })
        }
        Some(Tok::Punct('(')) => {
            p.pos += 1;
            let a = acc_cond(p, depth + 1)?;
            if !p.punct(')') {
                return Err(p.err("expected `)`"));
            }
            Ok(a)
        }
        _ => Err(p.err("expected `t`, `f`, `Inf(…)` or `Fin(…)` in the acceptance condition")),
    }
}

/// Parses the first automaton of a HOA text.
pub fn parse(text: &str) -> Result<Twa, OmegaError> {
    let toks = lex(text)?;
    let mut p = P { text, toks, pos: 0 };
    parse_one(&mut p)
}

/// Parses every automaton of a HOA text (one after the other); the first error stops it.
pub fn parse_all(text: &str) -> Result<Vec<Twa>, OmegaError> {
    let out: Vec<Twa> = parse_stream(text).into_iter().collect::<Result<_, _>>()?;
    if out.is_empty() {
        return Err(OmegaError::syntax(Diagnostic::at(
            Span::point(text.len()),
            "no automaton in the input (expected `HOA: v1`)",
        )));
    }
    Ok(out)
}

/// Parses a stream of automata as Spot's tools read one: every automaton is parsed on its own,
/// so a bad one (reported in its slot, with a located diagnostic) does not stop the ones after
/// it. An automaton ends at its `--END--` or `--ABORT--`, or where the next `HOA:` starts; after
/// a lexical error the reader resumes after the next `--END--`/`--ABORT--`. Blank or
/// comment-only input gives an empty vector.
pub fn parse_stream(text: &str) -> Vec<Result<Twa, OmegaError>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        match lex_one(text, i) {
            Ok((toks, end)) => {
                if toks.is_empty() {
                    break;
                }
                let mut p = P { text, toks, pos: 0 };
                let r = parse_one(&mut p).and_then(|a| match p.toks.get(p.pos) {
                    None => Ok(a),
                    Some((t, sp)) => Err(OmegaError::syntax(Diagnostic::at(
                        *sp,
                        format!("unexpected `{}` after `--END--`", show(t)),
                    ))),
                });
                out.push(r);
                i = end.max(i + 1);
            }
            Err(e) => {
                out.push(Err(e));
                let rest = &text[i..];
                let stop = ["--END--", "--ABORT--"]
                    .iter()
                    .filter_map(|m| rest.find(m).map(|k| k + m.len()))
                    .min();
                match stop {
                    Some(k) => i += k,
                    None => break,
                }
            }
        }
    }
    out
}

fn parse_one(p: &mut P<'_>) -> Result<Twa, OmegaError> {
    match p.peek() {
        Some(Tok::Header(h)) if h == "HOA" => p.pos += 1,
        _ => return Err(p.err("expected `HOA: v1` at the start of an automaton")),
    }
    match p.peek() {
        Some(Tok::Ident(v)) if v.starts_with("v1") => p.pos += 1,
        _ => return Err(p.err("unsupported HOA version (expected `v1`)")),
    }
    let mut nstates: Option<u64> = None;
    let mut starts: Vec<(u64, Span)> = Vec::new();
    let mut aps: Option<Vec<String>> = None;
    let mut aliases: HashMap<String, BoolExpr> = HashMap::new();
    let mut acc: Option<(u64, Acc, Span)> = None;
    let mut acc_name: Option<(String, Span)> = None;
    let mut name: Option<String> = None;
    let mut implicit = false;
    loop {
        let (t, sp) = p.current("header (missing `--BODY--`)")?;
        match t {
            Tok::Body => {
                p.pos += 1;
                break;
            }
            Tok::Header(h) => {
                p.pos += 1;
                match h.as_str() {
                    "States" => nstates = Some(p.int("the number of states")?),
                    "Start" => {
                        let sp = p.span();
                        let s = p.int("a start state")?;
                        if p.peek() == Some(&Tok::Punct('&')) {
                            return Err(OmegaError::unsupported(Diagnostic::at(
                                p.span(),
                                "universal initial states (alternating automata) are not supported",
                            )));
                        }
                        starts.push((s, sp));
                    }
                    "AP" => {
                        let n = p.int("the number of atomic propositions")?;
                        let mut v = Vec::new();
                        while let Some(Tok::Str(s)) = p.peek() {
                            v.push(s.clone());
                            p.pos += 1;
                        }
                        if v.len() as u64 != n {
                            return Err(OmegaError::syntax(Diagnostic::at(
                                sp,
                                format!(
                                    "`AP: {n}` announces {n} propositions but {} are listed",
                                    v.len()
                                ),
                            )));
                        }
                        if v.len() > 60 {
                            return Err(OmegaError::Limit(format!(
                                "{} atomic propositions (at most 60)",
                                v.len()
                            )));
                        }
                        aps = Some(v);
                    }
                    "Alias" => {
                        let a = match p.peek() {
                            Some(Tok::Alias(a)) => a.clone(),
                            _ => return Err(p.err("expected an alias name `@name`")),
                        };
                        p.pos += 1;
                        let nap = aps.as_ref().map_or(0, |v| v.len());
                        let e = p.label_expr(nap, &aliases)?;
                        aliases.insert(a, e);
                    }
                    "Acceptance" => {
                        let n = p.int("the number of acceptance sets")?;
                        let start = p.span();
                        let c = acc_cond(p, 0)?;
                        let end = p.toks.get(p.pos.saturating_sub(1)).map_or(start, |t| t.1);
                        acc = Some((n, c, start.join(end)));
                    }
                    "acc-name" => {
                        let start = p.span();
                        let mut v = Vec::new();
                        while let Some(Tok::Ident(_) | Tok::Int(_)) = p.peek() {
                            let (s, e) = (p.toks[p.pos].1.start, p.toks[p.pos].1.end);
                            v.push(p.text[s..e].to_string());
                            p.pos += 1;
                        }
                        let end = p.toks.get(p.pos.saturating_sub(1)).map_or(start, |t| t.1);
                        acc_name = Some((v.join(" "), start.join(end)));
                    }
                    "name" => {
                        if let Some(Tok::Str(s)) = p.peek() {
                            name = Some(s.clone());
                            p.pos += 1;
                        }
                    }
                    "properties" => {
                        while let Some(Tok::Ident(s)) = p.peek() {
                            if s == "implicit-labels" {
                                implicit = true;
                            }
                            p.pos += 1;
                        }
                    }
                    other => {
                        // Skip the values of this header item.
                        while let Some(t) = p.peek() {
                            if matches!(t, Tok::Header(_) | Tok::Body | Tok::End | Tok::Abort) {
                                break;
                            }
                            p.pos += 1;
                        }
                        if other.chars().next().is_some_and(|c| c.is_ascii_uppercase())
                            && other != "HOA"
                        {
                            if other == "tool" {
                                continue;
                            }
                            return Err(OmegaError::unsupported(Diagnostic::at(
                                sp,
                                format!("unsupported header item `{other}:`"),
                            )));
                        }
                    }
                }
            }
            Tok::Abort => {
                return Err(OmegaError::syntax(Diagnostic::at(
                    sp,
                    "the automaton was aborted (`--ABORT--`)",
                )))
            }
            other => {
                return Err(OmegaError::syntax(Diagnostic::at(
                    sp,
                    format!("unexpected `{}` in the header", show(&other)),
                )))
            }
        }
    }
    let aps = aps.unwrap_or_default();
    let nap = aps.len();
    let Some((nsets, cond, acc_span)) = acc else {
        return Err(p.err("missing `Acceptance:` header item"));
    };
    if let Some((n, sp)) = &acc_name {
        if let Some(why) = acc_name_mismatch(n, nsets, &cond) {
            return Err(OmegaError::syntax(
                Diagnostic::at(
                    *sp,
                    format!("`acc-name: {n}` contradicts the `Acceptance:` item ({why})"),
                )
                .with_span(*sp, "this acc-name")
                .with_span(acc_span, "this acceptance condition"),
            ));
        }
    }
    if let Some(v) = (0..64u64).find(|&v| (cond.used_marks() >> v) & 1 == 1 && v >= nsets) {
        return Err(OmegaError::syntax(Diagnostic::at(
            acc_span,
            format!("acceptance set {v} is out of range (declared {nsets})"),
        )));
    }
    // Generalized Büchi (and `t`, `f`) keep the historical reading: the sets the condition
    // uses are renumbered densely. Any other condition keeps the declared sets.
    let el = !matches!(cond, Acc::Inf(_));
    if el && nsets > u64::from(MAX_SETS) {
        return Err(OmegaError::Limit(format!(
            "{nsets} acceptance sets (at most {MAX_SETS})"
        )));
    }
    let infs: Vec<u64> = match &cond {
        Acc::Inf(m) => (0..64).filter(|i| (m >> i) & 1 == 1).collect(),
        _ => Vec::new(),
    };
    let set_map: HashMap<u64, u32> = if el {
        (0..nsets).map(|i| (i, i as u32)).collect()
    } else {
        infs.iter()
            .enumerate()
            .map(|(i, &v)| (v, i as u32))
            .collect()
    };
    let mut aut = Twa::new(aps);
    aut.name = name;
    if el {
        aut.set_acceptance(nsets as u32, cond);
    } else {
        aut.num_sets = infs.len() as u32;
    }
    aut.acc_span = Some(acc_span);
    let declared = nstates;
    let limit = 1_000_000u64;
    if let Some(n) = declared {
        if n > limit {
            return Err(OmegaError::Limit(format!("{n} states")));
        }
        for _ in 0..n {
            aut.add_state();
        }
    }
    let ensure = |aut: &mut Twa, s: u64, sp: Span| -> Result<(), OmegaError> {
        if let Some(n) = declared {
            if s >= n {
                return Err(OmegaError::syntax(Diagnostic::at(
                    sp,
                    format!("state {s} is out of range (States: {n})"),
                )));
            }
        }
        if s > limit {
            return Err(OmegaError::Limit(format!("state number {s}")));
        }
        while aut.num_states() as u64 <= s {
            aut.add_state();
        }
        Ok(())
    };
    let mut state_based_seen = false;
    let mut trans_marks_seen = false;
    let mut defined = std::collections::HashSet::new();
    // Body.
    loop {
        let (t, sp) = p.current("body (missing `--END--`)")?;
        match t {
            Tok::End => {
                p.pos += 1;
                break;
            }
            Tok::Abort => {
                return Err(OmegaError::syntax(Diagnostic::at(
                    sp,
                    "the automaton was aborted (`--ABORT--`)",
                )))
            }
            Tok::Header(h) if h == "State" => {
                p.pos += 1;
                let state_label = p.bracketed_label(nap, &aliases)?;
                let ssp = p.span();
                let s = p.int("a state number")?;
                ensure(&mut aut, s, ssp)?;
                if !defined.insert(s) {
                    return Err(OmegaError::syntax(Diagnostic::at(
                        ssp,
                        format!("state {s} is defined twice"),
                    )));
                }
                if let Some(Tok::Str(n)) = p.peek() {
                    aut.state_names[s as usize] = Some(n.clone());
                    p.pos += 1;
                }
                let smarks = p.marks(&set_map, nsets)?;
                if p.toks
                    .get(p.pos - 1)
                    .is_some_and(|t| t.0 == Tok::Punct('}'))
                {
                    state_based_seen = true;
                }
                // Edges.
                let mut k: u64 = 0;
                loop {
                    if state_label.is_some() && p.peek() == Some(&Tok::Punct('[')) {
                        return Err(p.err("an edge label on a state that already has a label"));
                    }
                    let label = p.bracketed_label(nap, &aliases)?;
                    let dsp = p.span();
                    let d = match p.peek() {
                        Some(Tok::Int(d)) => *d,
                        _ if label.is_some() => return Err(p.err("expected a destination state")),
                        _ => break,
                    };
                    p.pos += 1;
                    if p.peek() == Some(&Tok::Punct('&')) {
                        return Err(OmegaError::unsupported(Diagnostic::at(
                            p.span(),
                            "universal branching (alternating automata) is not supported",
                        )));
                    }
                    ensure(&mut aut, d, dsp)?;
                    let em = p.marks(&set_map, nsets)?;
                    if em != 0
                        || p.toks
                            .get(p.pos - 1)
                            .is_some_and(|t| t.0 == Tok::Punct('}'))
                    {
                        trans_marks_seen = true;
                    }
                    let bdd = match label.or_else(|| state_label.clone()) {
                        Some(e) => crate::word::bool_to_bdd(&aut, &e),
                        None => {
                            if !implicit && nap > 0 && k == 0 {
                                // Implicit labels without the property: accepted, as Spot does.
                            }
                            if nap >= 64 || k >= (1u64 << nap) {
                                return Err(OmegaError::syntax(Diagnostic::at(
                                    dsp,
                                    "too many edges with implicit labels",
                                )));
                            }
                            let mut l = aut.tt();
                            for i in 0..nap {
                                let v = aut.ap_var(i);
                                l = l.and(&if (k >> i) & 1 == 1 { v } else { v.not() });
                            }
                            l
                        }
                    };
                    k += 1;
                    aut.add_edge(s as u32, d as u32, bdd, em | smarks);
                }
            }
            other => {
                return Err(OmegaError::syntax(Diagnostic::at(
                    sp,
                    format!("expected `State:` or `--END--`, found `{}`", show(&other)),
                )))
            }
        }
    }
    for (s, sp) in starts {
        ensure(&mut aut, s, sp)?;
        aut.init.push(s as u32);
    }
    aut.state_based = state_based_seen && !trans_marks_seen;
    Ok(aut)
}

fn show(t: &Tok) -> String {
    match t {
        Tok::Header(h) => format!("{h}:"),
        Tok::Ident(s) => s.clone(),
        Tok::Int(v) => v.to_string(),
        Tok::Str(s) => format!("\"{s}\""),
        Tok::Alias(a) => format!("@{a}"),
        Tok::Punct(c) => c.to_string(),
        Tok::Body => "--BODY--".into(),
        Tok::End => "--END--".into(),
        Tok::Abort => "--ABORT--".into(),
    }
}

/// Why an `acc-name` the HOA format defines (`Buchi`, `co-Buchi`, `generalized-Buchi n`,
/// `generalized-co-Buchi n`, `Rabin n`, `Streett n`, `parity min|max even|odd n`, `all`,
/// `none`) contradicts the `Acceptance:` item (another number of sets, or another accepting
/// family of mark sets); `None` if they agree or the name is one this reader does not know
/// (`generalized-Rabin`, `Muller`, tool-specific names: the `Acceptance:` item alone counts).
fn acc_name_mismatch(name: &str, nsets: u64, cond: &Acc) -> Option<String> {
    let w: Vec<&str> = name.split_whitespace().collect();
    let num = |i: usize| w.get(i).and_then(|x| x.parse::<u32>().ok());
    let (n, want) = match (w.first().copied(), w.len()) {
        (Some("Buchi"), 1) => (1, Acc::buchi()),
        (Some("co-Buchi"), 1) => (1, Acc::co_buchi()),
        (Some("all"), 1) => (0, Acc::t()),
        (Some("none"), 1) => (0, Acc::f()),
        (Some("generalized-Buchi"), 2) => (num(1)?, Acc::generalized_buchi(num(1)?)),
        (Some("generalized-co-Buchi"), 2) => (num(1)?, Acc::generalized_co_buchi(num(1)?)),
        (Some("Rabin"), 2) => (num(1)?.checked_mul(2)?, Acc::rabin(num(1)?)),
        (Some("Streett"), 2) => (num(1)?.checked_mul(2)?, Acc::streett(num(1)?)),
        (Some("parity"), 4) => {
            let max = match w.get(1).copied() {
                Some("max") => true,
                Some("min") => false,
                _ => return None,
            };
            let odd = match w.get(2).copied() {
                Some("odd") => true,
                Some("even") => false,
                _ => return None,
            };
            (
                num(3)?,
                Acc::parity(crate::acc::Parity { max, odd }, num(3)?),
            )
        }
        _ => return None,
    };
    if u64::from(n) != nsets {
        return Some(format!("it has {n} sets, the condition declares {nsets}"));
    }
    // Same meaning on every set of marks seen infinitely often (small conditions only).
    if n <= 12 {
        if let Some(m) = (0..1u64 << n).find(|&m| want.accepting(m) != cond.accepting(m)) {
            let set: Vec<String> = (0..n)
                .filter(|i| (m >> i) & 1 == 1)
                .map(|i| i.to_string())
                .collect();
            return Some(format!(
                "they disagree on the runs that see exactly the sets {{{}}} infinitely often",
                set.join(",")
            ));
        }
    }
    None
}
