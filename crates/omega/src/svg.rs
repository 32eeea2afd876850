//! An automaton drawn as SVG without GraphViz, in the style of [`crate::dot`]: the state's number
//! (and name), double circles for accepting states of state-based automata, edges labelled with
//! the Boolean formula and the acceptance marks. The layout and drawing are the graph kernel's
//! (`verikit_graph::to_svg`).

use crate::twa::Twa;
use verikit_graph::{DrawEdge, DrawNode, Drawing};

/// The automaton as a standalone SVG document.
pub fn to_svg(aut: &Twa) -> String {
    verikit_graph::to_svg(&drawing(aut))
}

/// The automaton as the graph kernel's [`Drawing`] (for callers that draw it themselves).
pub(crate) fn drawing(aut: &Twa) -> Drawing {
    let sb = aut.state_based && aut.num_sets > 0;
    let marks_text = |m: u64| {
        let v: Vec<String> = (0..64u32)
            .filter(|k| (m >> k) & 1 == 1)
            .map(|k| k.to_string())
            .collect();
        format!("{{{}}}", v.join(","))
    };
    let nodes = (0..aut.num_states())
        .map(|i| DrawNode {
            label: match aut.state_names.get(i) {
                Some(Some(n)) => format!("{i}\n{n}"),
                _ => i.to_string(),
            },
            accepting: sb && aut.state_marks(i as u32) != 0,
        })
        .collect();
    let mut edges = Vec::new();
    for (i, es) in aut.states.iter().enumerate() {
        for e in es {
            let mut label = aut.label_formula(&e.label);
            if !sb && e.marks != 0 {
                label.push('\n');
                label.push_str(&marks_text(e.marks));
            }
            edges.push(DrawEdge {
                from: i as u32,
                to: e.dst,
                label,
            });
        }
    }
    Drawing {
        title: aut.name.clone(),
        nodes,
        edges,
        initial: aut.init.clone(),
    }
}
