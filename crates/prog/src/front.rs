//! The C front end: `gcc -E` (line markers kept), `lang-c` parsing, and the map from positions
//! in the preprocessed text back to lines of the original file.

use std::path::Path;
use std::process::Command;
use verikit_diag::{Diagnostic, SourceFile, Span};

use crate::error::ProgError;

/// Preprocessed text plus the line map.
pub(crate) struct Preprocessed {
    pub(crate) text: String,
    /// Start offset of every preprocessed line.
    line_starts: Vec<usize>,
    /// Original line of every preprocessed line (0: from another file or a directive).
    orig_line: Vec<u32>,
}

impl Preprocessed {
    pub(crate) fn new(text: String, main_file: &str) -> Preprocessed {
        let mut line_starts = Vec::new();
        let mut orig_line = Vec::new();
        let mut cur_line: u32 = 1;
        let mut in_main = true;
        let mut off = 0;
        for l in text.split_inclusive('\n') {
            line_starts.push(off);
            off += l.len();
            let t = l.trim_start();
            if let Some(rest) = t.strip_prefix('#') {
                let mut it = rest.split_whitespace();
                let n = it.next().and_then(|w| w.parse::<u32>().ok());
                let f = it.next().map(|w| w.trim_matches('"'));
                if let Some(n) = n {
                    cur_line = n;
                    in_main = f
                        .map(|f| f == main_file || f.ends_with(&format!("/{main_file}")))
                        .unwrap_or(in_main);
                    orig_line.push(0);
                    continue;
                }
            }
            orig_line.push(if in_main { cur_line } else { 0 });
            cur_line = cur_line.saturating_add(1);
        }
        Preprocessed {
            text,
            line_starts,
            orig_line,
        }
    }

    /// Original (line, column) of a preprocessed offset; line 0 when it is not in the main file.
    pub(crate) fn locate(&self, offset: usize) -> (u32, usize) {
        let i = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let line = self.orig_line.get(i).copied().unwrap_or(0);
        let col = offset.saturating_sub(self.line_starts.get(i).copied().unwrap_or(0)) + 1;
        (line, col)
    }
}

/// Runs `gcc -E` on a file (keeping line markers).
pub(crate) fn preprocess(path: &Path) -> Result<Preprocessed, ProgError> {
    let out = Command::new("gcc")
        .arg("-E")
        .arg("-std=gnu11")
        .arg(path)
        .output()
        .map_err(|e| ProgError::Tool(format!("cannot run gcc (needed to preprocess C): {e}")))?;
    if !out.status.success() {
        let msg = String::from_utf8_lossy(&out.stderr).into_owned();
        return Err(ProgError::Input(Box::new(Diagnostic::error(format!(
            "gcc -E failed on {}: {}",
            path.display(),
            msg.trim()
        )))));
    }
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(Preprocessed::new(text, &name))
}

/// A span in the original file for (line, column), clamped to the file.
pub(crate) fn orig_span(src: &SourceFile, line: u32, col: usize) -> Span {
    let mut off = 0usize;
    for (i, l) in src.text.split_inclusive('\n').enumerate() {
        if i + 1 == line as usize {
            let c = col.saturating_sub(1).min(l.trim_end_matches('\n').len());
            return Span::point(off + c);
        }
        off += l.len();
    }
    Span::point(src.text.len())
}

/// Parses preprocessed C with `lang-c` (GNU flavour); a syntax error is located in the original.
pub(crate) fn parse(
    pre: &Preprocessed,
    src: &SourceFile,
) -> Result<lang_c::ast::TranslationUnit, ProgError> {
    let cfg = lang_c::driver::Config::with_gcc();
    match lang_c::driver::parse_preprocessed(&cfg, pre.text.clone()) {
        Ok(p) => Ok(p.unit),
        Err(e) => {
            let (line, col) = pre.locate(e.offset);
            let mut exp: Vec<&str> = e.expected.iter().copied().collect();
            exp.sort_unstable();
            let msg = format!(
                "C syntax error: unexpected token, expected one of {}",
                exp.join(" ")
            );
            let d = if line > 0 {
                Diagnostic::at(orig_span(src, line, col), msg).with_source(src.clone())
            } else {
                Diagnostic::error(format!("{msg} (in preprocessed text at byte {})", e.offset))
            };
            Err(ProgError::Input(Box::new(d)))
        }
    }
}
