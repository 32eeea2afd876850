//! From a C file (or preprocessed text) to the control-flow automaton: preprocess, parse, lower.

use crate::cfa::Cfa;
use crate::error::ProgError;
use crate::front;
use crate::lower::{self, LowerOptions};
use std::path::Path;
use verikit_diag::SourceFile;

/// Preprocesses, parses and lowers a C file to an automaton.
pub fn load_c(path: &Path, opts: LowerOptions) -> Result<Cfa, ProgError> {
    let src = SourceFile::read(path).map_err(|d| ProgError::Input(Box::new(d)))?;
    let pre = front::preprocess(path)?;
    let unit = front::parse(&pre, &src)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    lower::lower(&unit, &pre, &name, opts)
}

/// Parses and lowers already-preprocessed C text (no gcc): the parser entry point of the fuzz
/// target and the totality test; `name` is the file name the line markers refer to.
pub fn lower_preprocessed(text: &str, name: &str, opts: LowerOptions) -> Result<Cfa, ProgError> {
    let src = SourceFile::new(name, text);
    let pre = front::Preprocessed::new(text.to_string(), name);
    let unit = front::parse(&pre, &src)?;
    lower::lower(&unit, &pre, name, opts)
}
