//! SV-COMP task definitions (`.yml`, format 2.0): the input file and the `unreach-call`
//! property's expected verdict.

use serde::Deserialize;
use std::path::{Path, PathBuf};
use verikit_diag::{Diagnostic, SourceFile, Span};

use crate::error::ProgError;

#[derive(Deserialize)]
struct RawTask {
    format_version: Option<String>,
    input_files: serde_norway::Value,
    #[serde(default)]
    properties: Vec<RawProperty>,
}

#[derive(Deserialize)]
struct RawProperty {
    property_file: String,
    expected_verdict: Option<bool>,
}

/// One property of a task.
#[derive(Clone, Debug)]
pub struct Property {
    /// The property file's stem: `unreach-call`, `termination`, `no-overflow`, …
    pub name: String,
    pub expected: Option<bool>,
}

/// A task: the C file and its properties.
#[derive(Clone, Debug)]
pub struct SvTask {
    pub input: PathBuf,
    pub properties: Vec<Property>,
}

impl SvTask {
    /// The expected verdict of `unreach-call`, if the task has that property.
    pub fn unreach_call(&self) -> Option<Option<bool>> {
        self.properties
            .iter()
            .find(|p| p.name == "unreach-call")
            .map(|p| p.expected)
    }
}

/// Reads a task file; a malformed file gives a located error.
pub fn read_task(path: &Path, src: &SourceFile) -> Result<SvTask, ProgError> {
    let raw: RawTask = serde_norway::from_str(&src.text).map_err(|e| {
        let span = e
            .location()
            .map(|l| Span::point(l.index()))
            .unwrap_or(Span::point(0));
        ProgError::Input(Box::new(
            Diagnostic::at(span, format!("bad task file: {e}")).with_source(src.clone()),
        ))
    })?;
    if let Some(v) = &raw.format_version {
        if v != "2.0" {
            return Err(ProgError::Input(Box::new(Diagnostic::error(format!(
                "{}: task format version {v} (only 2.0 is read)",
                src.name
            )))));
        }
    }
    let input = match &raw.input_files {
        serde_norway::Value::String(s) => s.clone(),
        serde_norway::Value::Sequence(v) if v.len() == 1 => match v.first() {
            Some(serde_norway::Value::String(s)) => s.clone(),
            _ => return Err(bad(src, "input_files must name one C file")),
        },
        _ => return Err(bad(src, "input_files must name exactly one C file")),
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    let properties = raw
        .properties
        .iter()
        .map(|p| {
            let stem = Path::new(&p.property_file)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            Property {
                name: stem,
                expected: p.expected_verdict,
            }
        })
        .collect();
    Ok(SvTask {
        input: dir.join(input),
        properties,
    })
}

fn bad(src: &SourceFile, msg: &str) -> ProgError {
    let at = src.text.find("input_files").unwrap_or(0);
    ProgError::Input(Box::new(
        Diagnostic::at(Span::point(at), msg.to_string()).with_source(src.clone()),
    ))
}
