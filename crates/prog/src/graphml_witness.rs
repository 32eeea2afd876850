//! SV-COMP verification witnesses in the GraphML exchange format 1.0 (sv-witnesses, Beyer,
//! Dangl, Dietsch, Heizmann, Stahlbauer, *Witness validation and stepwise testification across
//! software verifiers*, FSE 2015, and *Correctness witnesses: exchanging verification results
//! between verifiers*, FSE 2016): a witness automaton written as a GraphML graph.
//!
//! - Violation witness: a chain from the `entry` node, one edge per `__VERIFIER_nondet_*` call
//!   on the path (`startline` of the call, `assumption` `\result == v;` with the called function
//!   as `assumption.resultfunction` — the first `__VERIFIER_nondet_*` name on that source line),
//!   then an edge at the `reach_error()` line into the `violation` node.
//! - Correctness witness: from the `entry` node, one edge per loop head (`startline` of the loop
//!   condition, `enterLoopHead`) into a node carrying the checked loop invariant
//!   (`invariant`, scope `main`), the same invariants as the YAML witness (`sv_witness`).
//!
//! Graph data: `witness-type`, `sourcecodelang` C, `producer`, `specification`
//! `CHECK( init(main()), LTL(G ! call(reach_error())) )`, `programfile`, `programhash`
//! (SHA-256 of the file), `architecture` 32bit (ILP32), `creationtime`.

use crate::cfa::{Atom, Cfa};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// The keys declared by every witness: (id, domain, type).
const KEYS: &[(&str, &str, &str)] = &[
    ("witness-type", "graph", "string"),
    ("sourcecodelang", "graph", "string"),
    ("producer", "graph", "string"),
    ("specification", "graph", "string"),
    ("programfile", "graph", "string"),
    ("programhash", "graph", "string"),
    ("architecture", "graph", "string"),
    ("creationtime", "graph", "string"),
    ("entry", "node", "boolean"),
    ("violation", "node", "boolean"),
    ("invariant", "node", "string"),
    ("invariant.scope", "node", "string"),
    ("startline", "edge", "int"),
    ("assumption", "edge", "string"),
    ("assumption.scope", "edge", "string"),
    ("assumption.resultfunction", "edge", "string"),
    ("enterLoopHead", "edge", "boolean"),
];

/// XML text escaping.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn data(key: &str, value: &str) -> String {
    format!("<data key=\"{key}\">{}</data>", esc(value))
}

/// The document up to the graph's own data.
fn header(kind: &str, c_file: &Path, text: &[u8]) -> String {
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n",
    );
    for (id, dom, ty) in KEYS {
        let default = match *ty {
            "boolean" => "<default>false</default>",
            _ => "",
        };
        let _ = writeln!(
            s,
            " <key attr.name=\"{id}\" attr.type=\"{ty}\" for=\"{dom}\" id=\"{id}\">{default}</key>"
        );
    }
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    s.push_str(" <graph edgedefault=\"directed\">\n");
    for (k, v) in [
        ("witness-type", kind.to_string()),
        ("sourcecodelang", "C".into()),
        ("producer", format!("verikit {}", env!("CARGO_PKG_VERSION"))),
        (
            "specification",
            "CHECK( init(main()), LTL(G ! call(reach_error())) )".into(),
        ),
        ("programfile", c_file.display().to_string()),
        ("programhash", format!("{:x}", Sha256::digest(text))),
        ("architecture", "32bit".into()),
        ("creationtime", crate::sv_witness::iso8601(now)),
    ] {
        let _ = writeln!(s, "  {}", data(k, &v));
    }
    s
}

const FOOTER: &str = " </graph>\n</graphml>\n";

/// The first `__VERIFIER_nondet_*` function named on line `line` (1-based) of the source.
fn nondet_on_line(text: &[u8], line: u32) -> Option<String> {
    let l = String::from_utf8_lossy(text)
        .lines()
        .nth(usize::try_from(line).ok()?.checked_sub(1)?)?
        .to_string();
    let at = l.find("__VERIFIER_nondet_")?;
    let rest = l.get(at..)?;
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    rest.get(..end).map(str::to_string)
}

/// A violation witness: the nondeterministic values with the lines of their calls, and the line
/// of the `reach_error()` call.
pub(crate) fn violation(
    c_file: &Path,
    text: &[u8],
    values: &[(i128, u32)],
    target: u32,
) -> Result<String, String> {
    let mut s = header("violation_witness", c_file, text);
    let _ = writeln!(s, "  <node id=\"N0\">{}</node>", data("entry", "true"));
    for (i, (v, line)) in values.iter().enumerate() {
        let _ = writeln!(s, "  <node id=\"N{}\"/>", i + 1);
        let mut edge = format!(
            "{}{}",
            data("startline", &line.to_string()),
            data("assumption", &format!("\\result == {v};"))
        );
        if let Some(f) = nondet_on_line(text, *line) {
            edge.push_str(&data("assumption.resultfunction", &f));
        }
        let _ = writeln!(
            s,
            "  <edge source=\"N{i}\" target=\"N{}\">{edge}</edge>",
            i + 1
        );
    }
    let last = values.len();
    let _ = writeln!(s, "  <node id=\"E\">{}</node>", data("violation", "true"));
    let _ = writeln!(
        s,
        "  <edge source=\"N{last}\" target=\"E\">{}</edge>",
        data("startline", &target.to_string())
    );
    s.push_str(FOOTER);
    Ok(s)
}

/// A correctness witness from a checked invariant (per location, a disjunction of conjunctions).
pub(crate) fn correctness(
    c_file: &Path,
    text: &[u8],
    cfa: &Cfa,
    inv: &[Vec<Vec<Atom>>],
    loop_heads: &[usize],
) -> Result<String, String> {
    let mut s = header("correctness_witness", c_file, text);
    let _ = writeln!(s, "  <node id=\"N0\">{}</node>", data("entry", "true"));
    let invs = crate::sv_witness::loop_invariants(cfa, inv, loop_heads);
    for (i, (_, value)) in invs.iter().enumerate() {
        let _ = writeln!(
            s,
            "  <node id=\"I{i}\">{}{}</node>",
            data("invariant", value),
            data("invariant.scope", "main")
        );
    }
    // Entering a loop head leads to its invariant's node from every node.
    let sources: Vec<String> = std::iter::once("N0".to_string())
        .chain((0..invs.len()).map(|i| format!("I{i}")))
        .collect();
    for (i, (line, _)) in invs.iter().enumerate() {
        for src in &sources {
            let _ = writeln!(
                s,
                "  <edge source=\"{src}\" target=\"I{i}\">{}{}</edge>",
                data("startline", &line.to_string()),
                data("enterLoopHead", "true")
            );
        }
    }
    s.push_str(FOOTER);
    Ok(s)
}
