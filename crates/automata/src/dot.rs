//! Graphviz DOT output of an NFA (parallel transitions merged into one edge with a label list).

use crate::nfa::Nfa;
use std::collections::BTreeMap;
use std::fmt::Write as _;

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The automaton as a DOT digraph: double circles for accepting states, arrows from invisible
/// nodes into initial states.
pub(crate) fn write(nfa: &Nfa) -> String {
    let mut s = String::from("digraph nfa {\n  rankdir=LR;\n  node [shape=circle];\n");
    for q in 0..nfa.num_states() as u32 {
        let shape = if nfa.is_final(q) {
            "doublecircle"
        } else {
            "circle"
        };
        let _ = writeln!(
            s,
            "  {q} [label=\"{}\", shape={shape}];",
            esc(&nfa.state_name(q))
        );
    }
    for &q in nfa.initial() {
        let _ = writeln!(
            s,
            "  init{q} [shape=point, style=invis];\n  init{q} -> {q};"
        );
    }
    let mut edges: BTreeMap<(u32, u32), Vec<&str>> = BTreeMap::new();
    for (src, a, dst) in nfa.transitions() {
        edges
            .entry((src, dst))
            .or_default()
            .push(nfa.alphabet.name(a));
    }
    for ((src, dst), labels) in edges {
        let _ = writeln!(
            s,
            "  {src} -> {dst} [label=\"{}\"];",
            esc(&labels.join(", "))
        );
    }
    s.push_str("}\n");
    s
}
