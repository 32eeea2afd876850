//! Source files, spans and located diagnostics (rendered `file:line:col` with a caret), and the
//! `Reportable` trait every crate's error implements.

use crate::budget::Exhausted;
use std::fmt;
use std::path::Path;

/// A half-open byte range `[start, end)` into a source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span {
            start,
            end: end.max(start),
        }
    }
    /// An empty span at one offset (rendered as a single caret).
    pub fn point(at: usize) -> Self {
        Span { start: at, end: at }
    }
    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// A named source text (a file, stdin, or an embedded example).
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        SourceFile {
            name: name.into(),
            text: text.into(),
        }
    }

    /// Reads a file. I/O failures and non-UTF-8 content become diagnostics (the latter pointing at
    /// the first invalid byte), so a binary file is an error, never a panic.
    pub fn read(path: &Path) -> Result<SourceFile, Diagnostic> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path)
            .map_err(|e| Diagnostic::error(format!("cannot read `{name}`: {e}")))?;
        Self::from_bytes(name, bytes)
    }

    /// Builds a source from raw bytes. Text in a legacy 8-bit encoding (a stray Latin-1 byte in a
    /// comment, as some published models have) is read with each invalid byte taken as the
    /// Latin-1 character of the same value, so columns stay right; content with a NUL byte or
    /// with more than 1% invalid bytes is binary and rejected with a located diagnostic.
    pub fn from_bytes(name: impl Into<String>, bytes: Vec<u8>) -> Result<SourceFile, Diagnostic> {
        let name = name.into();
        match String::from_utf8(bytes) {
            Ok(text) => Ok(SourceFile { name, text }),
            Err(e)
                if !e.as_bytes().contains(&0)
                    && invalid_bytes(e.as_bytes()) * 100 <= e.as_bytes().len() =>
            {
                Ok(SourceFile {
                    name,
                    text: latin1_fallback(e.as_bytes()),
                })
            }
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let valid = String::from_utf8_lossy(&e.as_bytes()[..at]).into_owned();
                let d = Diagnostic::error("input is not UTF-8 text (binary file?)")
                    .with_span(Span::point(at), "invalid byte here");
                // Keep the valid prefix so the caret can be shown.
                Err(d.with_source(SourceFile { name, text: valid }))
            }
        }
    }

    /// 1-based line and column (in characters) of a byte offset; offsets past the end clamp to it.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        line_col(&self.text, offset)
    }
}

/// Number of bytes that are not part of a valid UTF-8 sequence.
fn invalid_bytes(mut bytes: &[u8]) -> usize {
    let mut bad = 0;
    while let Err(e) = std::str::from_utf8(bytes) {
        let skip = e.error_len().unwrap_or(bytes.len() - e.valid_up_to());
        bad += skip;
        bytes = &bytes[e.valid_up_to() + skip..];
    }
    bad
}

/// Decodes UTF-8, taking every invalid byte as the Latin-1 character of the same value.
fn latin1_fallback(mut bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 8);
    loop {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                out.push_str(s);
                return out;
            }
            Err(e) => {
                let (good, rest) = bytes.split_at(e.valid_up_to());
                // `good` is valid UTF-8 by construction.
                out.push_str(std::str::from_utf8(good).unwrap_or_default());
                let skip = e.error_len().unwrap_or(rest.len());
                out.extend(rest[..skip].iter().map(|&b| char::from(b)));
                bytes = &rest[skip..];
            }
        }
    }
}

/// 1-based line and column (in characters) of a byte offset in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut off = offset.min(text.len());
    while !text.is_char_boundary(off) {
        off -= 1;
    }
    let before = &text[..off];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = text[line_start..off].chars().count() + 1;
    (line, col)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// A user-facing problem report, optionally located in a source text.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Option<Span>,
    pub label: String,
    pub notes: Vec<String>,
    /// The source the span refers to, when the producer knows it better than the caller
    /// (e.g. an included file, or the valid prefix of a binary file).
    pub file: Option<Box<SourceFile>>,
}

impl std::error::Error for Diagnostic {}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl Diagnostic {
    pub fn error(message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span: None,
            label: String::new(),
            notes: Vec::new(),
            file: None,
        }
    }
    pub fn warning(message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(message)
        }
    }
    /// Shorthand for a located error.
    pub fn at(span: Span, message: impl Into<String>) -> Self {
        Diagnostic::error(message).with_span(span, "")
    }
    pub fn with_span(mut self, span: Span, label: impl Into<String>) -> Self {
        self.span = Some(span);
        self.label = label.into();
        self
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    pub fn with_source(mut self, source: SourceFile) -> Self {
        self.file = Some(Box::new(source));
        self
    }

    /// `file:line:col` of the span in `file` (or of the diagnostic's own source), if located.
    pub fn location(&self, file: &SourceFile) -> Option<String> {
        let src = self.file.as_deref().unwrap_or(file);
        let span = self.span?;
        let (l, c) = src.line_col(span.start);
        Some(format!("{}:{}:{}", src.name, l, c))
    }

    /// Renders the diagnostic as plain text: `error: message`, then `┌─ file:line:col` and the source
    /// line with carets under the span.
    pub fn render(&self, file: &SourceFile) -> String {
        use codespan_reporting::diagnostic::{Diagnostic as CDiag, Label};
        use codespan_reporting::files::SimpleFile;
        use codespan_reporting::term::{self, termcolor::NoColor, Config};

        let src = self.file.as_deref().unwrap_or(file);
        let files = SimpleFile::new(src.name.as_str(), src.text.as_str());
        let mut d = match self.severity {
            Severity::Error => CDiag::error(),
            Severity::Warning => CDiag::warning(),
        }
        .with_message(&self.message)
        .with_notes(self.notes.clone());
        if let Some(span) = self.span {
            let len = src.text.len();
            let mut s = span.start.min(len);
            let mut e = span.end.min(len).max(s);
            while !src.text.is_char_boundary(s) {
                s -= 1;
            }
            while !src.text.is_char_boundary(e) {
                e += 1;
            }
            d = d.with_labels(vec![Label::primary((), s..e).with_message(&self.label)]);
        }
        let mut out = NoColor::new(Vec::new());
        let config = Config::default();
        if term::emit(&mut out, &config, &files, &d).is_err() {
            // Fall back to a one-line form; never fail while reporting a failure.
            return match self.location(file) {
                Some(loc) => format!("error: {loc}: {}\n", self.message),
                None => format!("error: {}\n", self.message),
            };
        }
        String::from_utf8_lossy(&out.into_inner()).into_owned()
    }

    /// A compact one-line form, `file:line:col: message`, used in SMT-LIB `(error "…")` responses
    /// and JSON output.
    pub fn one_line(&self, file: &SourceFile) -> String {
        match self.location(file) {
            Some(loc) => format!("{loc}: {}", self.message),
            None => self.message.clone(),
        }
    }
}

/// Implemented by each crate's error type so the CLI can render located errors uniformly.
pub trait Reportable: std::error::Error {
    /// The located diagnostic behind this error, if there is one.
    fn diagnostic(&self) -> Option<&Diagnostic> {
        None
    }
    /// True if the error is a resource limit (memory, size bound), reported with exit code 3.
    fn is_resource_limit(&self) -> bool {
        false
    }
}

impl Reportable for Exhausted {
    fn is_resource_limit(&self) -> bool {
        true
    }
}

impl Reportable for Diagnostic {
    fn diagnostic(&self) -> Option<&Diagnostic> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_chars() {
        let t = "ab\ncdé f\n";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 3), (2, 1));
        assert_eq!(line_col(t, 7), (2, 4)); // after the 2-byte é
        assert_eq!(line_col(t, 999), (3, 1));
    }

    #[test]
    fn render_has_location_and_caret() {
        let f = SourceFile::new("m.bnet", "targets, factors\nA, B & C\n");
        let d = Diagnostic::at(Span::new(24, 25), "unknown variable `C`");
        let r = d.render(&f);
        assert!(r.contains("m.bnet:2:8"), "{r}");
        assert!(r.contains('^'), "{r}");
        assert!(r.contains("unknown variable"), "{r}");
    }

    #[test]
    fn stray_latin1_byte_in_text_is_read() {
        let mut bytes = b"// caf".to_vec();
        bytes.push(0xe9);
        bytes.extend_from_slice(&b"\nmodule m\n".repeat(20));
        let f = SourceFile::from_bytes("m.nm", bytes).unwrap();
        assert!(f.text.starts_with("// caf\u{e9}\nmodule m"));
        assert_eq!(f.line_col(f.text.find('\n').unwrap()), (1, 8));
        assert!(SourceFile::from_bytes("b", b"abc\0\xe9def".repeat(20)).is_err());
    }

    #[test]
    fn binary_input_is_an_error() {
        let e = SourceFile::from_bytes("x", vec![b'a', b'\n', 0xff, 0xfe]).unwrap_err();
        assert_eq!(
            e.location(&SourceFile::new("y", "")).as_deref(),
            Some("x:2:1")
        );
    }
}
