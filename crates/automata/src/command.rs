//! What `verikit nfa` needs besides the questions of [`crate::task`]: a produced automaton written
//! to a file or into the answer (automata errors become the one [`Failure`] in `error.rs`).

use crate::task::{write, Produced};
use std::path::Path;
use verikit_diag::{write_output, Answer, Failure};

/// A produced automaton in format `to`: written to `output` (never over one of `inputs`), or
/// printed with the answer's lines as `#` comments after it (none after DOT).
pub fn emit_produced(
    p: Produced,
    to: &str,
    output: Option<&Path>,
    inputs: &[&Path],
) -> Result<Answer, Failure> {
    let text = write(&p.nfa, to)?;
    let a = p.answer;
    if let Some(path) = output {
        write_output(path, &text, inputs)?;
        let shown = path.display().to_string();
        return Ok(a.detail("output", &shown).line(format!("wrote {shown}")));
    }
    let notes: String = a.text.lines().map(|l| format!("# {l}\n")).collect();
    let mut a = a.detail("automaton", &text);
    a.text = if to == "dot" { text } else { text + &notes };
    Ok(a)
}
