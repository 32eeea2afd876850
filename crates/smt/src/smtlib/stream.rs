//! Splitting an SMT-LIB 2 command stream (standard input) into complete commands, so that an
//! interactive solver can answer each command as soon as it has been read.

use super::parser::{SExpr, SExprKind};
use verikit_diag::{Diagnostic, Span};

/// Accumulates input lines and hands out chunks that end at a line break outside any
/// parenthesis, string literal or quoted symbol (each chunk holds whole top-level commands).
#[derive(Default, Debug)]
pub(crate) struct CommandSplitter {
    buf: String,
    depth: usize,
    in_string: bool,
    in_quoted: bool,
}

impl CommandSplitter {
    pub(crate) fn new() -> CommandSplitter {
        CommandSplitter::default()
    }

    /// Adds one line (with its line break, if any). Returns a complete chunk when the line ends
    /// the current top-level command(s).
    pub(crate) fn push_line(&mut self, line: &str) -> Option<String> {
        let mut in_comment = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if in_comment {
                if c == '\n' {
                    in_comment = false;
                }
            } else if self.in_string {
                if c == '"' {
                    if chars.peek() == Some(&'"') {
                        chars.next();
                    } else {
                        self.in_string = false;
                    }
                }
            } else if self.in_quoted {
                if c == '|' {
                    self.in_quoted = false;
                }
            } else {
                match c {
                    ';' => in_comment = true,
                    '"' => self.in_string = true,
                    '|' => self.in_quoted = true,
                    '(' => self.depth += 1,
                    ')' => self.depth = self.depth.saturating_sub(1),
                    _ => {}
                }
            }
        }
        self.buf.push_str(line);
        let complete = self.depth == 0 && !self.in_string && !self.in_quoted;
        if complete && !self.buf.trim().is_empty() {
            Some(std::mem::take(&mut self.buf))
        } else {
            if complete {
                self.buf.clear();
            }
            None
        }
    }

    /// Whatever is left at the end of the input (an unfinished command), if anything.
    pub(crate) fn finish(&mut self) -> Option<String> {
        let rest = std::mem::take(&mut self.buf);
        if rest.trim().is_empty() {
            None
        } else {
            Some(rest)
        }
    }
}

/// Moves every span of `e` by `by` bytes (chunks are parsed on their own, spans refer to the
/// whole input).
pub(crate) fn shift_sexpr(e: &mut SExpr, by: usize) {
    e.span = Span::new(e.span.start + by, e.span.end + by);
    if let SExprKind::List(items) = &mut e.kind {
        for i in items {
            shift_sexpr(i, by);
        }
    }
}

pub(crate) fn shift_diagnostic(d: &mut Diagnostic, by: usize) {
    if let Some(s) = d.span {
        d.span = Some(Span::new(s.start + by, s.end + by));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_end_at_balanced_line_breaks() {
        let mut s = CommandSplitter::new();
        assert_eq!(
            s.push_line("(set-logic QF_LRA)\n").as_deref(),
            Some("(set-logic QF_LRA)\n")
        );
        assert_eq!(s.push_line("(assert (< x\n"), None);
        assert_eq!(s.push_line("  |a)b| \"c(\"\"\" ; )\n"), None);
        assert_eq!(
            s.push_line(" 1))\n").as_deref(),
            Some("(assert (< x\n  |a)b| \"c(\"\"\" ; )\n 1))\n")
        );
        assert_eq!(s.push_line("   \n"), None);
        assert_eq!(s.push_line("(check-sat"), None);
        assert_eq!(s.finish().as_deref(), Some("(check-sat"));
        assert_eq!(s.finish(), None);
    }
}
