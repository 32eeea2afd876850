//! Why a command did not produce an [`Answer`](crate::Answer): the one error type every front
//! end (command line, web playground, Python) reports, rendered the same way everywhere.

use crate::budget::Exhausted;
use crate::diagnostic::{Diagnostic, Reportable, SourceFile};

/// A failed command: bad usage, bad input (located when possible), a resource limit, or a bug.
#[derive(Debug)]
pub enum Failure {
    /// Arguments that parse but make no sense together.
    Usage(String),
    /// Bad input: a diagnostic, rendered against its source when it is known.
    Input(Box<Diagnostic>, Option<Box<SourceFile>>),
    /// A resource limit (deadline, memory estimate, size bound).
    Limit(String),
    /// A bug: an invariant of verikit itself failed.
    Internal(String),
}

impl Failure {
    /// Wraps an engine error that may carry a located diagnostic about `file`.
    pub fn from_error<E: Reportable>(e: E, file: Option<&SourceFile>) -> Failure {
        if e.is_resource_limit() {
            return Failure::Limit(e.to_string());
        }
        let d = match e.diagnostic() {
            Some(d) => d.clone(),
            None => Diagnostic::error(e.to_string()),
        };
        // A diagnostic that names its own source (a batch item's file) keeps it.
        let file = file.filter(|_| d.file.is_none());
        Failure::Input(Box::new(d), file.map(|f| Box::new(f.clone())))
    }

    /// The kind as one word: `usage`, `input`, `limit` or `internal`.
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::Usage(_) => "usage",
            Failure::Input(..) => "input",
            Failure::Limit(_) => "limit",
            Failure::Internal(_) => "internal",
        }
    }

    /// The failure as text for stderr (file:line:col and a caret snippet when located).
    pub fn render(&self) -> String {
        match self {
            Failure::Usage(m) => format!("error: {m}\n"),
            Failure::Limit(m) => format!("error: resource limit: {m}\n"),
            Failure::Internal(m) => format!("internal error (please report): {m}\n"),
            Failure::Input(d, src) => match src.as_deref().or(d.file.as_deref()) {
                Some(f) => d.render(f),
                None => format!("error: {}\n", d.message),
            },
        }
    }

    /// Where a located input failure points: the source's name and the 1-based line and column
    /// of its span's start (line and column 0 when the diagnostic has a source but no span).
    pub fn location(&self) -> Option<(String, usize, usize)> {
        let Failure::Input(d, src) = self else {
            return None;
        };
        let f = src.as_deref().or(d.file.as_deref())?;
        let (line, col) = d.span.map_or((0, 0), |s| f.line_col(s.start));
        Some((f.name.clone(), line, col))
    }

    /// A one-line message (for JSON output).
    pub fn message(&self) -> String {
        match self {
            Failure::Input(d, src) => match src.as_deref().or(d.file.as_deref()) {
                Some(f) => d.one_line(f),
                None => d.message.clone(),
            },
            Failure::Usage(m) | Failure::Limit(m) | Failure::Internal(m) => m.clone(),
        }
    }
}

impl From<Exhausted> for Failure {
    fn from(e: Exhausted) -> Self {
        Failure::Limit(e.to_string())
    }
}

impl From<Diagnostic> for Failure {
    fn from(d: Diagnostic) -> Self {
        Failure::Input(Box::new(d), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Span;

    #[test]
    fn located_input_renders_against_its_file() {
        let f = SourceFile::new("m.txt", "abc\ndef\n");
        let d = Diagnostic::error("bad thing").with_span(Span::new(5, 6), "here");
        let e = Failure::Input(Box::new(d), Some(Box::new(f)));
        assert_eq!(e.kind(), "input");
        assert!(e.render().contains("m.txt:2:2"), "{}", e.render());
        assert!(e.message().contains("m.txt:2:2"), "{}", e.message());
        assert_eq!(Failure::Usage("u".into()).render(), "error: u\n");
        assert_eq!(Failure::from(Exhausted::Timeout).kind(), "limit");
        assert_eq!(e.location(), Some(("m.txt".to_string(), 2, 2)));
        assert_eq!(Failure::Usage("u".into()).location(), None);
    }
}
