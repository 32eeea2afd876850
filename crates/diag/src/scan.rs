//! Byte scanners shared by the hand-written lexers of C-like input languages (PRISM, UPPAAL,
//! DVE, Promela): whitespace and comments (`// …` to the end of the line, `/* … */`), and
//! identifier and digit runs. Each function takes the input bytes and a start index and returns
//! the index just past what it scanned; none panics on any input.

/// Skips ASCII whitespace, `// …` line comments and `/* … */` block comments starting at byte
/// `i`, and returns the index of the next other byte (`b.len()` at the end). An unterminated
/// block comment is `Err(start)`, the index of its `/*` (the caller reports
/// [`UNTERMINATED_COMMENT`] at its own span for `start..start + 2`).
pub fn skip_trivia(b: &[u8], mut i: usize) -> Result<usize, usize> {
    while let Some(&c) = b.get(i) {
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while b.get(i).is_some_and(|&c| c != b'\n') {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let start = i;
            i += 2;
            loop {
                match (b.get(i), b.get(i + 1)) {
                    (Some(b'*'), Some(b'/')) => {
                        i += 2;
                        break;
                    }
                    (Some(_), Some(_)) => i += 1,
                    _ => return Err(start),
                }
            }
        } else {
            break;
        }
    }
    Ok(i)
}

/// The message for an unterminated `/* … */` comment.
pub const UNTERMINATED_COMMENT: &str = "unterminated comment";

/// Whether `c` starts an identifier (`[A-Za-z_]`).
pub fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

/// The end of the identifier characters (`[A-Za-z0-9_]*`) from byte `i`.
pub fn ident_end(b: &[u8], mut i: usize) -> usize {
    while b
        .get(i)
        .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_')
    {
        i += 1;
    }
    i
}

/// The end of the decimal digits (`[0-9]*`) from byte `i`.
pub fn digits_end(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trivia() {
        assert_eq!(skip_trivia(b"  x", 0), Ok(2));
        assert_eq!(skip_trivia(b"// c\n /* d */x", 0), Ok(13));
        assert_eq!(skip_trivia(b"/**/", 0), Ok(4));
        assert_eq!(skip_trivia(b"a /* x", 2), Err(2));
        assert_eq!(skip_trivia(b"/*", 0), Err(0));
        assert_eq!(skip_trivia(b"/", 0), Ok(0));
        assert_eq!(skip_trivia(b"// only", 0), Ok(7));
        assert_eq!(skip_trivia(b"", 5), Ok(5));
    }

    #[test]
    fn runs() {
        assert_eq!(ident_end(b"ab_1+", 0), 4);
        assert_eq!(digits_end(b"123.4", 0), 3);
        assert!(is_ident_start(b'_') && !is_ident_start(b'1'));
    }
}
