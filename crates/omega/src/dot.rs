//! GraphViz output in the style of Spot's `--dot`: an invisible node pointing at each initial
//! state, circles for states (double circles for accepting states of state-based automata),
//! edges labelled with the Boolean formula and the marks (`a & !b\n{0,1}`).

use crate::twa::Twa;
use std::fmt::Write;

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

pub fn to_dot(aut: &Twa) -> String {
    let mut s = String::from("digraph \"\" {\n  rankdir=LR\n  node [shape=circle]\n");
    if let Some(n) = &aut.name {
        let _ = writeln!(s, "  label=\"{}\"\n  labelloc=\"t\"", esc(n));
    }
    for (k, &i) in aut.init.iter().enumerate() {
        let _ = writeln!(
            s,
            "  I{k} [label=\"\", style=invis, width=0]\n  I{k} -> {i}"
        );
    }
    let sb = aut.state_based && aut.num_sets > 0;
    for i in 0..aut.num_states() {
        let label = match aut.state_names.get(i) {
            Some(Some(n)) => format!("{i}\\n{}", esc(n)),
            _ => i.to_string(),
        };
        let shape = if sb && aut.state_marks(i as u32) != 0 {
            ", shape=doublecircle"
        } else {
            ""
        };
        let _ = writeln!(s, "  {i} [label=\"{label}\"{shape}]");
    }
    for (i, es) in aut.states.iter().enumerate() {
        for e in es {
            let mut l = esc(&aut.label_formula(&e.label));
            if !sb && e.marks != 0 {
                let m: Vec<String> = (0..64u32)
                    .filter(|k| (e.marks >> k) & 1 == 1)
                    .map(|k| k.to_string())
                    .collect();
                let _ = write!(l, "\\n{{{}}}", m.join(","));
            }
            let _ = writeln!(s, "  {i} -> {} [label=\"{l}\"]", e.dst);
        }
    }
    s.push_str("}\n");
    s
}
