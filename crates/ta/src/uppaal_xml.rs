//! The UPPAAL XML document (`<nta>`, UPPAAL 4/5 flat-system DTD) read with `quick-xml`: global
//! declarations, templates (name, parameters, declarations, locations with invariants and
//! `urgent`/`committed`, the initial location, transitions with their labels), the `system` block
//! and embedded queries. Every text keeps a map from its (entity-decoded) bytes to byte offsets in
//! the file, so diagnostics in declarations, guards or queries point into the XML file.
//!
//! Seed: SETTA'17 Schivo et al., "How to efficiently build a front-end tool for UPPAAL" (S19),
//! §3 (the UPPAAL XML model a front end exports: templates, locations, transitions and labels).

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use verikit_diag::{Diagnostic, Span};

/// A decoded text and the file offset of each of its bytes.
#[derive(Clone, Debug, Default)]
pub(crate) struct Text {
    pub(crate) s: String,
    pub(crate) map: Vec<usize>,
}

impl Text {
    pub(crate) fn span(&self) -> Span {
        match (self.map.first(), self.map.last()) {
            (Some(&a), Some(&b)) => Span::new(a, b + 1),
            _ => Span::point(0),
        }
    }
    fn push_raw(&mut self, raw: &str, at: usize) -> Result<(), Diagnostic> {
        let b = raw.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'&' {
                let Some(end) = raw[i..].find(';').map(|k| i + k) else {
                    return Err(Diagnostic::at(Span::point(at + i), "unterminated entity"));
                };
                let ent = &raw[i + 1..end];
                let ch = match ent {
                    "lt" => Some('<'),
                    "gt" => Some('>'),
                    "amp" => Some('&'),
                    "quot" => Some('"'),
                    "apos" => Some('\''),
                    _ if ent.starts_with("#x") => u32::from_str_radix(&ent[2..], 16)
                        .ok()
                        .and_then(char::from_u32),
                    _ if ent.starts_with('#') => ent[1..].parse().ok().and_then(char::from_u32),
                    _ => None,
                };
                let Some(ch) = ch else {
                    return Err(Diagnostic::at(
                        Span::new(at + i, at + end + 1),
                        format!("unknown entity `&{ent};`"),
                    ));
                };
                let mut buf = [0u8; 4];
                for _ in ch.encode_utf8(&mut buf).bytes() {
                    self.map.push(at + i);
                }
                self.s.push(ch);
                i = end + 1;
            } else {
                let ch = raw[i..].chars().next().unwrap_or(' ');
                for k in 0..ch.len_utf8() {
                    self.map.push(at + i + k);
                }
                self.s.push(ch);
                i += ch.len_utf8();
            }
        }
        Ok(())
    }
}

#[derive(Clone, Debug, Default)]
pub(crate) struct XLocation {
    pub(crate) id: String,
    pub(crate) name: Option<Text>,
    pub(crate) invariant: Option<Text>,
    pub(crate) urgent: bool,
    pub(crate) committed: bool,
    /// Another label kind (`exponentialrate`, …) refused by name.
    pub(crate) other: Option<(String, Span)>,
    pub(crate) span: Span,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct XTransition {
    pub(crate) source: String,
    pub(crate) target: String,
    /// `(kind, text)`: select, guard, synchronisation, assignment, …
    pub(crate) labels: Vec<(String, Text)>,
    pub(crate) span: Span,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct XTemplate {
    pub(crate) name: Text,
    pub(crate) parameter: Option<Text>,
    pub(crate) declaration: Option<Text>,
    pub(crate) locations: Vec<XLocation>,
    pub(crate) init: Option<String>,
    pub(crate) transitions: Vec<XTransition>,
    /// An element of another kind (`branchpoint`, …) refused by name.
    pub(crate) other: Option<(String, Span)>,
    pub(crate) span: Span,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct XDoc {
    pub(crate) declaration: Option<Text>,
    pub(crate) templates: Vec<XTemplate>,
    pub(crate) system: Option<Text>,
    /// `(formula, comment)` of each `<query>`.
    pub(crate) queries: Vec<(Text, Text)>,
    /// A top-level element of another kind (`lsc`, …) refused by name.
    pub(crate) other: Option<(String, Span)>,
}

fn attr(e: &BytesStart<'_>, key: &[u8]) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == key)
        .and_then(|a| a.unescape_value().ok().map(|v| v.into_owned()))
}

/// What `read` holds while it walks the document: the model so far, the open template, location
/// and transition, the text of the current element, the kind of the open `<label>` and the
/// formula of the open `<query>`.
#[derive(Default)]
struct Reading {
    doc: XDoc,
    tpl: Option<XTemplate>,
    loc: Option<XLocation>,
    tr: Option<XTransition>,
    cur: Text,
    label_kind: String,
    formula: Text,
}

/// Reads the document.
pub(crate) fn read(text: &str) -> Result<XDoc, Diagnostic> {
    let mut r = Reader::from_str(text);
    let mut st = Reading::default();
    let mut stack: Vec<String> = Vec::new();
    let mut saw_nta = false;
    loop {
        let before = r.buffer_position() as usize;
        let ev = r.read_event().map_err(|e| {
            Diagnostic::at(
                Span::point(r.buffer_position() as usize),
                format!("malformed XML: {e}"),
            )
        })?;
        let after = r.buffer_position() as usize;
        let span = Span::new(before, after);
        match ev {
            Event::Start(e) | Event::Empty(e) => {
                let empty = text.as_bytes().get(after.saturating_sub(2)) == Some(&b'/');
                let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                let parent = stack.last().map(String::as_str).unwrap_or("");
                match (parent, name.as_str()) {
                    ("", "nta") => saw_nta = true,
                    ("", other) => {
                        return Err(Diagnostic::at(
                            span,
                            format!(
                                "not an UPPAAL model: the root element is `{other}`, not `nta`"
                            ),
                        ))
                    }
                    ("nta", "template") => {
                        st.tpl = Some(XTemplate {
                            span,
                            ..XTemplate::default()
                        })
                    }
                    ("nta", "declaration" | "system" | "queries" | "instantiation") => {}
                    ("nta", other) if st.doc.other.is_none() => {
                        st.doc.other = Some((other.to_string(), span));
                    }
                    ("template", "location") => {
                        st.loc = Some(XLocation {
                            id: attr(&e, b"id").unwrap_or_default(),
                            span,
                            ..XLocation::default()
                        })
                    }
                    ("template", "init") => {
                        if let Some(t) = st.tpl.as_mut() {
                            t.init = attr(&e, b"ref");
                        }
                    }
                    ("template", "transition") => {
                        st.tr = Some(XTransition {
                            span,
                            ..XTransition::default()
                        })
                    }
                    ("template", "name" | "parameter" | "declaration") => {}
                    ("template", other) => {
                        if let Some(t) = st.tpl.as_mut() {
                            if t.other.is_none() {
                                t.other = Some((other.to_string(), span));
                            }
                        }
                    }
                    ("location", "urgent") => {
                        if let Some(l) = st.loc.as_mut() {
                            l.urgent = true;
                        }
                    }
                    ("location", "committed") => {
                        if let Some(l) = st.loc.as_mut() {
                            l.committed = true;
                        }
                    }
                    ("transition", "source") => {
                        if let Some(t) = st.tr.as_mut() {
                            t.source = attr(&e, b"ref").unwrap_or_default();
                        }
                    }
                    ("transition", "target") => {
                        if let Some(t) = st.tr.as_mut() {
                            t.target = attr(&e, b"ref").unwrap_or_default();
                        }
                    }
                    (_, "label") => st.label_kind = attr(&e, b"kind").unwrap_or_default(),
                    _ => {}
                }
                st.cur = Text::default();
                if !empty {
                    stack.push(name);
                } else {
                    // an empty text element
                    st.finish(&stack, &name);
                }
            }
            Event::Text(t) => {
                let raw = std::str::from_utf8(t.as_ref()).unwrap_or("");
                st.cur.push_raw(raw, after - t.as_ref().len())?;
            }
            Event::CData(t) => {
                let raw = std::str::from_utf8(t.as_ref()).unwrap_or("");
                let at = after.saturating_sub(3 + raw.len());
                for (k, ch) in raw.char_indices() {
                    for j in 0..ch.len_utf8() {
                        st.cur.map.push(at + k + j);
                    }
                    st.cur.s.push(ch);
                }
            }
            Event::End(_) => {
                let Some(name) = stack.pop() else {
                    return Err(Diagnostic::at(span, "unbalanced closing tag"));
                };
                st.finish(&stack, &name);
                st.cur = Text::default();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !saw_nta {
        return Err(Diagnostic::at(
            Span::point(0),
            "not an UPPAAL model: no `<nta>` element",
        ));
    }
    Ok(st.doc)
}

impl Reading {
    /// The closing tag `name` under `stack`: the text read so far goes where it belongs.
    fn finish(&mut self, stack: &[String], name: &str) {
        let parent = stack.last().map(String::as_str).unwrap_or("");
        let text = std::mem::take(&mut self.cur);
        match (parent, name) {
            ("nta", "declaration") => self.doc.declaration = Some(text),
            ("nta", "system") => {
                // a preceding `<instantiation>` (UPPAAL 4.1 layout) comes first
                let mut sys = self.doc.system.take().unwrap_or_default();
                sys.s.push('\n');
                sys.map.push(text.map.first().copied().unwrap_or(0));
                sys.s.push_str(&text.s);
                sys.map.extend(text.map);
                self.doc.system = Some(sys);
            }
            ("nta", "instantiation") => {
                let mut sys = self.doc.system.take().unwrap_or_default();
                sys.s.push_str(&text.s);
                sys.map.extend(text.map);
                self.doc.system = Some(sys);
            }
            ("nta", "template") => {
                if let Some(t) = self.tpl.take() {
                    self.doc.templates.push(t);
                }
            }
            ("template", "name") => {
                if let Some(t) = self.tpl.as_mut() {
                    t.name = text;
                }
            }
            ("template", "parameter") => {
                if let Some(t) = self.tpl.as_mut() {
                    t.parameter = Some(text);
                }
            }
            ("template", "declaration") => {
                if let Some(t) = self.tpl.as_mut() {
                    t.declaration = Some(text);
                }
            }
            ("template", "location") => {
                if let (Some(t), Some(l)) = (self.tpl.as_mut(), self.loc.take()) {
                    t.locations.push(l);
                }
            }
            ("template", "transition") => {
                if let (Some(t), Some(x)) = (self.tpl.as_mut(), self.tr.take()) {
                    t.transitions.push(x);
                }
            }
            ("location", "name") => {
                if let Some(l) = self.loc.as_mut() {
                    l.name = Some(text);
                }
            }
            ("location", "label") => {
                if let Some(l) = self.loc.as_mut() {
                    match self.label_kind.as_str() {
                        "invariant" => l.invariant = Some(text),
                        // test code for UPPAAL's test generator: no part of the model's semantics
                        "comments" | "testcodeEnter" | "testcodeExit" => {}
                        k => {
                            if l.other.is_none() && !text.s.trim().is_empty() {
                                l.other = Some((k.to_string(), text.span()));
                            }
                        }
                    }
                }
            }
            ("transition", "label") => {
                if let Some(t) = self.tr.as_mut() {
                    t.labels.push((self.label_kind.clone(), text));
                }
            }
            ("query", "formula") => self.formula = text,
            ("query", "comment") => self
                .doc
                .queries
                .push((std::mem::take(&mut self.formula), text)),
            ("queries", "query") if !self.formula.s.trim().is_empty() => self
                .doc
                .queries
                .push((std::mem::take(&mut self.formula), Text::default())),
            _ => {}
        }
    }
}
