//! A JSON tree whose every node carries the byte span it was read from, built on `serde_json`
//! (its `RawValue` borrows each value from the input, so a value's offset is its address minus
//! the input's). Errors in a JANI file can thus point at the offending value.

use serde_json::value::RawValue;
use std::collections::BTreeMap;
use verikit_diag::{Diagnostic, Span};

/// A JSON value with its span.
#[derive(Clone, Debug)]
pub(crate) struct J {
    pub v: JVal,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub(crate) enum JVal {
    Null,
    Bool(bool),
    Num(serde_json::Number),
    Str(String),
    Arr(Vec<J>),
    /// Members in key order (JANI gives no meaning to member order).
    Obj(BTreeMap<String, J>),
}

/// Parses `text` (an optional UTF-8 byte-order mark is skipped).
pub(crate) fn parse(text: &str) -> Result<J, Diagnostic> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let raw: &RawValue = serde_json::from_str(body).map_err(|e| syntax(text, body, &e))?;
    node(text, raw, 0)
}

fn syntax(text: &str, body: &str, e: &serde_json::Error) -> Diagnostic {
    // serde_json reports 1-based line and column (in characters of the line).
    let skip = text.len() - body.len();
    let mut off = 0usize;
    for (i, line) in body.split_inclusive('\n').enumerate() {
        if i + 1 == e.line() {
            off += line
                .char_indices()
                .nth(e.column().saturating_sub(1))
                .map_or(line.len(), |(b, _)| b);
            break;
        }
        off += line.len();
    }
    let off = (skip + off).min(text.len());
    let msg = e.to_string();
    let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
    Diagnostic::at(Span::point(off), format!("JSON syntax error: {msg}"))
}

fn node(text: &str, raw: &RawValue, depth: usize) -> Result<J, Diagnostic> {
    let s = raw.get();
    let start = (s.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    let span = if start <= text.len() {
        Span::new(start, (start + s.len()).min(text.len()))
    } else {
        Span::point(0)
    };
    if depth > 256 {
        return Err(Diagnostic::at(span, "JSON nested too deeply"));
    }
    let err = |e: serde_json::Error| Diagnostic::at(span, format!("JSON error: {e}"));
    let v = match s.as_bytes().first() {
        Some(b'{') => {
            let m: BTreeMap<String, &RawValue> = serde_json::from_str(s).map_err(err)?;
            let mut out = BTreeMap::new();
            for (k, r) in m {
                out.insert(k, node(text, r, depth + 1)?);
            }
            JVal::Obj(out)
        }
        Some(b'[') => {
            let a: Vec<&RawValue> = serde_json::from_str(s).map_err(err)?;
            JVal::Arr(
                a.into_iter()
                    .map(|r| node(text, r, depth + 1))
                    .collect::<Result<_, _>>()?,
            )
        }
        Some(b'"') => JVal::Str(serde_json::from_str(s).map_err(err)?),
        Some(b't') => JVal::Bool(true),
        Some(b'f') => JVal::Bool(false),
        Some(b'n') => JVal::Null,
        _ => JVal::Num(serde_json::from_str(s).map_err(err)?),
    };
    Ok(J { v, span })
}

impl J {
    /// The member `key` of an object.
    pub(crate) fn get(&self, key: &str) -> Option<&J> {
        match &self.v {
            JVal::Obj(m) => m.get(key),
            _ => None,
        }
    }
    pub(crate) fn as_str(&self) -> Option<&str> {
        match &self.v {
            JVal::Str(s) => Some(s),
            _ => None,
        }
    }
    pub(crate) fn as_arr(&self) -> Option<&[J]> {
        match &self.v {
            JVal::Arr(a) => Some(a),
            _ => None,
        }
    }
    pub(crate) fn is_obj(&self) -> bool {
        matches!(self.v, JVal::Obj(_))
    }
    /// A short description of the value's kind, for messages.
    pub(crate) fn kind(&self) -> &'static str {
        match self.v {
            JVal::Null => "null",
            JVal::Bool(_) => "a Boolean",
            JVal::Num(_) => "a number",
            JVal::Str(_) => "a string",
            JVal::Arr(_) => "an array",
            JVal::Obj(_) => "an object",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_point_into_the_text() {
        let text = "\u{feff}{ \"a\": [1, {\"b\": \"x\"}], \"c\": true }";
        let j = parse(text).unwrap();
        let b = &j.get("a").unwrap().as_arr().unwrap()[1];
        let x = b.get("b").unwrap();
        assert_eq!(&text[x.span.start..x.span.end], "\"x\"");
        assert!(matches!(j.get("c").unwrap().v, JVal::Bool(true)));
    }

    #[test]
    fn syntax_errors_are_located() {
        let text = "{\n  \"a\": [1, 2,, 3]\n}";
        let d = parse(text).unwrap_err();
        let sp = d.span.unwrap();
        assert_eq!(sp.start, text.find(",,").unwrap() + 1);
    }
}
