//! Lexical helpers shared by the LTL parser (`parse`) and the SERE parser (`sere_parse`), below
//! both: the bound on repetition counts and quoted atomic propositions.

use verikit_diag::{Diagnostic, Span};

/// The largest bound accepted in `X[n]`, `F[n..m]`, `G[n..m]` (each unit is one `X` of the
/// expanded formula).
pub(crate) const MAX_BOUND: u32 = 1000;

/// A double-quoted proposition starting at `start` (`\x` stands for `x`): its name and end.
pub(crate) fn quoted(text: &str, start: usize) -> Result<(String, usize), Diagnostic> {
    let mut name = String::new();
    let mut chars = text[start + 1..].char_indices();
    while let Some((k, ch)) = chars.next() {
        match ch {
            '"' => return Ok((name, start + 1 + k + 1)),
            '\\' => {
                if let Some((_, n)) = chars.next() {
                    name.push(n);
                }
            }
            _ => name.push(ch),
        }
    }
    Err(Diagnostic::at(
        Span::new(start, start + 1),
        "unterminated quoted atomic proposition",
    )
    .with_span(Span::new(start, start + 1), "this `\"` is never closed"))
}
