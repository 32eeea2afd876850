//! Lasso words in Spot's syntax (`autfilt --accept-word`, `ltl2tgba` counterexamples):
//! `l1; l2; cycle{l3; l4}` where each letter is a Boolean formula over atomic propositions
//! (`a & !b`, `1`). The word stands for every ω-word `u v^ω` whose letters satisfy the formulas.

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
}

/// Parses `prefix; …; cycle{…}` (the cycle is mandatory and non-empty).
pub fn parse_word(text: &str) -> Result<Word, OmegaError> {
    let mut aps: Vec<String> = Vec::new();
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
            start += piece.len() + 1;
        }
    }
    let mut cycle = Vec::new();
    let body = &text[open..close];
    let mut start = open;
    for piece in body.split(';') {
        cycle.push(letter(piece, start, &mut aps)?);
        start += piece.len() + 1;
    }
    Ok(Word { aps, prefix, cycle })
}

fn letter(piece: &str, base: usize, aps: &mut Vec<String>) -> Result<BoolExpr, OmegaError> {
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
                let i = match aps.iter().position(|a| a == name) {
                    Some(i) => i,
                    None => {
                        aps.push(name.to_string());
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

    /// Resolves every letter to one valuation (the first satisfying one in binary order over the
    /// word's APs; unsatisfiable letters give the empty valuation); bit `ids[i]` of a letter is
    /// the value of `aps[i]`.
    pub fn valuations(&self, ids: &[u32]) -> crate::ltl::eval::Lasso {
        let nap = self.aps.len().min(20);
        let conv = |e: &BoolExpr| -> u64 {
            for bits in 0..(1u64 << nap) {
                if e.eval_bits(bits) {
                    let mut o = 0u64;
                    for (i, &id) in ids.iter().enumerate() {
                        if (bits >> i) & 1 == 1 && id < 64 {
                            o |= 1 << id;
                        }
                    }
                    return o;
                }
            }
            0
        };
        crate::ltl::eval::Lasso {
            prefix: self.prefix.iter().map(conv).collect(),
            cycle: self.cycle.iter().map(conv).collect(),
        }
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
pub fn bool_to_bdd(t: &Twa, e: &BoolExpr) -> verikit_bdd::Bdd {
    t.label_of(e)
}
