//! Lasso words in Spot's syntax (`autfilt --accept-word`, `ltl2tgba` counterexamples):
//! `l1; l2; cycle{l3; l4}` where each letter is a Boolean formula over atomic propositions
//! (`a & !b`, `1`).
//!
//! Semantics (Spot's): a letter is one full valuation of the propositions of the formula or the
//! automaton it is checked against. [`Word::lasso`] resolves a word against those propositions and
//! rejects, with a located diagnostic, a letter that leaves a proposition open (`cycle{b}` for
//! `GFa`), a contradictory letter (`cycle{a & !a}`) and a proposition the formula or automaton
//! does not have — instead of guessing a valuation, so that `ltl check` and `aut accepts` always
//! answer about the same ω-word.

use crate::error::OmegaError;
use crate::twa::Twa;
use verikit_diag::{Diagnostic, Span};
use verikit_logic::BoolExpr;

/// A parsed lasso word: letters are Boolean formulas over `aps`.
#[derive(Clone, Debug)]
pub struct Word {
    pub aps: Vec<String>,
    pub prefix: Vec<BoolExpr>,
    pub cycle: Vec<BoolExpr>,
    /// Where each proposition of `aps` first occurs in the text.
    pub ap_spans: Vec<Span>,
    /// Where each letter (prefix, then cycle) is in the text.
    pub letter_spans: Vec<Span>,
    /// The text the word was read from (errors point into it as `<word>`).
    pub text: String,
}

/// Parses `prefix; …; cycle{…}` (the cycle is mandatory and non-empty). Errors point into the
/// text, named `<word>`.
pub fn parse_word(text: &str) -> Result<Word, OmegaError> {
    read_word(text).map_err(|e| e.in_source("<word>", text))
}

fn read_word(text: &str) -> Result<Word, OmegaError> {
    let mut aps: Vec<(String, Span)> = Vec::new();
    let mut letter_spans = Vec::new();
    let Some(cpos) = text.find("cycle{") else {
        return Err(OmegaError::syntax(
            Diagnostic::at(
                Span::point(text.len()),
                "a lasso word needs a `cycle{…}` part",
            )
            .with_note("syntax: `a & !b; b; cycle{a; !a}`"),
        ));
    };
    let open = cpos + "cycle{".len();
    let Some(close_rel) = text[open..].find('}') else {
        return Err(OmegaError::syntax(Diagnostic::at(
            Span::new(cpos, open),
            "unclosed `cycle{`",
        )));
    };
    let close = open + close_rel;
    let tail = &text[close + 1..];
    if let Some(off) = tail.find(|c: char| !c.is_whitespace()) {
        let at = close + 1 + off;
        return Err(OmegaError::syntax(Diagnostic::at(
            Span::new(at, at + 1),
            "unexpected text after `cycle{…}`",
        )));
    }
    let prefix_text = &text[..cpos];
    let mut prefix = Vec::new();
    // The prefix is `l1; l2; ` (each letter followed by `;`).
    let trimmed_end = prefix_text.trim_end();
    if !trimmed_end.is_empty() {
        let Some(body) = trimmed_end.strip_suffix(';') else {
            return Err(OmegaError::syntax(Diagnostic::at(
                Span::point(trimmed_end.len()),
                "expected `;` before `cycle{`",
            )));
        };
        let mut start = 0;
        for piece in body.split(';') {
            prefix.push(letter(piece, start, &mut aps)?);
            letter_spans.push(trimmed_span(piece, start));
            start += piece.len() + 1;
        }
    }
    let mut cycle = Vec::new();
    let body = &text[open..close];
    let mut start = open;
    for piece in body.split(';') {
        cycle.push(letter(piece, start, &mut aps)?);
        letter_spans.push(trimmed_span(piece, start));
        start += piece.len() + 1;
    }
    let (aps, ap_spans) = aps.into_iter().unzip();
    Ok(Word {
        aps,
        prefix,
        cycle,
        ap_spans,
        letter_spans,
        text: text.to_string(),
    })
}

/// The span of `piece` (at `base`) without its surrounding blanks.
fn trimmed_span(piece: &str, base: usize) -> Span {
    let lead = piece.len() - piece.trim_start().len();
    Span::new(base + lead, base + lead + piece.trim().len())
}

fn letter(piece: &str, base: usize, aps: &mut Vec<(String, Span)>) -> Result<BoolExpr, OmegaError> {
    if piece.trim().is_empty() {
        return Err(OmegaError::syntax(Diagnostic::at(
            Span::new(base, base + piece.len()),
            "empty letter in a lasso word",
        )));
    }
    verikit_logic::parse_infix(piece, base, &mut |name, sp| {
        let name = name.trim_matches('"');
        match name {
            "1" | "true" => Ok(BoolExpr::Const(true)),
            "0" | "false" => Ok(BoolExpr::Const(false)),
            _ if name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_') =>
            {
                let i = match aps.iter().position(|a| a.0 == name) {
                    Some(i) => i,
                    None => {
                        aps.push((name.to_string(), sp));
                        aps.len() - 1
                    }
                };
                Ok(BoolExpr::Var(i as u32))
            }
            _ => Err(Diagnostic::at(
                sp,
                format!("`{name}` is not an atomic proposition"),
            )),
        }
    })
    .map_err(OmegaError::syntax)
}

impl Word {
    /// The word as an automaton: a lasso of states, every run accepting (acceptance `t`).
    pub fn to_twa(&self) -> Twa {
        let mut t = Twa::new(self.aps.clone());
        let n = self.prefix.len() + self.cycle.len();
        for _ in 0..n {
            t.add_state();
        }
        for (i, l) in self.prefix.iter().chain(self.cycle.iter()).enumerate() {
            let dst = if i + 1 < n { i + 1 } else { self.prefix.len() };
            let b = bool_to_bdd(&t, l);
            t.add_edge(i as u32, dst as u32, b, 0);
        }
        t.init = vec![0];
        t
    }

    /// The word as one valuation lasso over `aps` (bit `i` of a letter is the value of `aps[i]`),
    /// Spot's semantics: every letter must give exactly one valuation of `aps`. Errors (located in
    /// the word's text): a proposition not in `aps`, a contradictory letter, a letter that leaves
    /// a proposition of `aps` open or allows several valuations.
    pub fn lasso(&self, aps: &[String]) -> Result<crate::ltl::eval::Lasso, OmegaError> {
        self.resolve(aps)
            .map_err(|e| e.in_source("<word>", &self.text))
    }

    fn resolve(&self, aps: &[String]) -> Result<crate::ltl::eval::Lasso, OmegaError> {
        let known = || {
            if aps.is_empty() {
                "there are none".to_string()
            } else {
                aps.join(", ")
            }
        };
        if aps.len() > 64 {
            return Err(OmegaError::Limit(format!(
                "{} atomic propositions in a word (at most 64)",
                aps.len()
            )));
        }
        let mut map = Vec::with_capacity(self.aps.len());
        for (k, name) in self.aps.iter().enumerate() {
            match aps.iter().position(|a| a == name) {
                Some(i) => map.push(i as u32),
                None => {
                    let sp = self.ap_spans.get(k).copied().unwrap_or(Span::point(0));
                    return Err(OmegaError::syntax(
                        Diagnostic::at(sp, format!("unknown atomic proposition `{name}`"))
                            .with_span(sp, "not a proposition of the formula or automaton")
                            .with_note(format!("its propositions: {}", known())),
                    ));
                }
            }
        }
        let mut out = Vec::with_capacity(self.prefix.len() + self.cycle.len());
        for (k, e) in self.prefix.iter().chain(self.cycle.iter()).enumerate() {
            let sp = self.letter_spans.get(k).copied().unwrap_or(Span::point(0));
            out.push(full_valuation(e, &map, aps).map_err(|m| {
                OmegaError::syntax(Diagnostic::at(sp, m.clone()).with_span(sp, m).with_note(
                    format!(
                        "a letter is one full valuation of the propositions ({}), as in Spot: \
                             write every proposition, negated or not (`a & !b`)",
                        known()
                    ),
                ))
            })?);
        }
        let cycle = out.split_off(self.prefix.len());
        Ok(crate::ltl::eval::Lasso { prefix: out, cycle })
    }

    /// The word in Spot's syntax.
    pub fn to_text(&self) -> String {
        let show = |e: &BoolExpr| e.display(&self.aps).to_string();
        let mut parts: Vec<String> = self.prefix.iter().map(show).collect();
        parts.push(format!(
            "cycle{{{}}}",
            self.cycle.iter().map(show).collect::<Vec<_>>().join("; ")
        ));
        parts.join("; ")
    }
}

/// A Boolean expression over AP indices of `t` as a BDD (the shared kernel's conversion).
pub(crate) fn bool_to_bdd(t: &Twa, e: &BoolExpr) -> verikit_bdd::Bdd {
    t.label_of(e)
}

/// The one valuation of `aps` (as bits) that letter `e` allows; `map[v]` is the index in `aps` of
/// the word's proposition `v`. A conjunction of literals is read directly; another formula is
/// decided by enumerating the valuations of `aps` (at most 2^20).
fn full_valuation(e: &BoolExpr, map: &[u32], aps: &[String]) -> Result<u64, String> {
    let n = aps.len();
    // Conjunctions of literals (the usual case, and the witnesses verikit prints).
    let mut lits: Vec<(u32, bool)> = Vec::new();
    if cube(e, true, &mut lits) {
        let (mut val, mut set) = (0u64, 0u64);
        for (v, pol) in lits {
            let Some(&i) = map.get(v as usize) else {
                return Err("a proposition of this letter is unknown".into());
            };
            let bit = 1u64 << i;
            if set & bit != 0 && (val & bit != 0) != pol {
                let name = aps.get(i as usize).map_or("?", String::as_str);
                return Err(format!(
                    "contradictory letter: `{name}` is both true and false"
                ));
            }
            set |= bit;
            if pol {
                val |= bit;
            }
        }
        if lits_false(e) {
            return Err("contradictory letter: it is false".into());
        }
        return match (0..n).find(|&i| set & (1u64 << i) == 0) {
            None => Ok(val),
            Some(i) => Err(format!("the letter leaves `{}` open", aps[i])),
        };
    }
    if n > 20 {
        return Err(format!(
            "this letter is not a conjunction of literals and there are {n} propositions (at most 20 for other letters)"
        ));
    }
    // The valuations satisfying the letter: their union and intersection tell which
    // propositions they disagree on.
    let (mut count, mut any, mut all) = (0u64, 0u64, u64::MAX);
    for bits in 0..(1u64 << n) {
        if e.eval(&|v| map.get(v as usize).is_some_and(|&i| (bits >> i) & 1 == 1)) {
            count += 1;
            any |= bits;
            all &= bits;
        }
    }
    match count {
        1 => Ok(any),
        0 => Err("contradictory letter: no valuation satisfies it".into()),
        _ => {
            let open = (0..n).find(|&i| (any ^ all) >> i & 1 == 1);
            let name = open.and_then(|i| aps.get(i)).map_or("?", String::as_str);
            Err(format!("the letter leaves `{name}` open"))
        }
    }
}

/// Collects the literals of a conjunction of literals (`true` if `e` is one).
fn cube(e: &BoolExpr, pos: bool, out: &mut Vec<(u32, bool)>) -> bool {
    match e {
        BoolExpr::Const(_) => true,
        BoolExpr::Var(v) => {
            out.push((*v, pos));
            true
        }
        BoolExpr::Not(x) => match &**x {
            BoolExpr::Var(v) => {
                out.push((*v, !pos));
                true
            }
            BoolExpr::Const(_) => true,
            _ => false,
        },
        BoolExpr::And(xs) if pos => xs.iter().all(|x| cube(x, pos, out)),
        _ => false,
    }
}

/// True if a conjunction of literals contains the constant false.
fn lits_false(e: &BoolExpr) -> bool {
    match e {
        BoolExpr::Const(b) => !*b,
        BoolExpr::Not(x) => matches!(&**x, BoolExpr::Const(true)),
        BoolExpr::And(xs) => xs.iter().any(lits_false),
        _ => false,
    }
}
