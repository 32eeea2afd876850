//! SVG drawing of a small labelled directed graph (an automaton) on the layout of
//! [`crate::sugiyama`], without GraphViz: circles with the state's label, double circles for
//! accepting states, an arrow from nowhere into each initial state, quadratic curves for edges
//! (bent apart when two edges join the same vertices, bent further for edges that go back or skip
//! layers), loops above their state, labels of several lines at the middle of the curve. The
//! output is deterministic and carries `class="node"` / `class="edge"` groups with `<title>`s so
//! pages and tests can find every element.

use crate::sugiyama::{layered_layout, Sizes};
use std::collections::HashMap;
use std::fmt::Write;

/// A graph to draw: vertices `0..nodes.len()`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Drawing {
    /// Shown above the graph.
    pub title: Option<String>,
    pub nodes: Vec<DrawNode>,
    pub edges: Vec<DrawEdge>,
    /// Vertices with an incoming arrow from nowhere.
    pub initial: Vec<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawNode {
    /// Lines separated by `\n`.
    pub label: String,
    /// Drawn as a double circle.
    pub accepting: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawEdge {
    pub from: u32,
    pub to: u32,
    /// Lines separated by `\n`.
    pub label: String,
}

const CHAR_W: f64 = 7.0;
const LINE_H: f64 = 14.0;

fn text_width(s: &str) -> f64 {
    s.lines().map(|l| l.chars().count()).max().unwrap_or(0) as f64 * CHAR_W
}

fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            // Characters XML 1.0 does not allow.
            c if (c as u32) < 0x20 && c != '\t' => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

fn text(out: &mut String, x: f64, y: f64, label: &str, class: &str) {
    let lines: Vec<&str> = label.split('\n').collect();
    let top = y - (lines.len() as f64 - 1.0) * LINE_H / 2.0;
    let _ = write!(
        out,
        "<text class=\"{class}\" x=\"{x:.1}\" y=\"{top:.1}\" text-anchor=\"middle\" dominant-baseline=\"central\" stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\">"
    );
    for (i, l) in lines.iter().enumerate() {
        if i == 0 {
            let _ = write!(out, "<tspan x=\"{x:.1}\">{}</tspan>", esc(l));
        } else {
            let _ = write!(
                out,
                "<tspan x=\"{x:.1}\" dy=\"{LINE_H}\">{}</tspan>",
                esc(l)
            );
        }
    }
    out.push_str("</text>");
}

/// Draws the graph as a standalone SVG document (edges naming a missing vertex are left out).
pub fn to_svg(d: &Drawing) -> String {
    let n = d.nodes.len();
    let edges: Vec<&DrawEdge> = d
        .edges
        .iter()
        .filter(|e| (e.from as usize) < n && (e.to as usize) < n)
        .collect();
    let radius: Vec<f64> = d
        .nodes
        .iter()
        .map(|v| (text_width(&v.label) / 2.0 + 8.0).max(18.0))
        .collect();
    let mut out_label_width = vec![0f64; n];
    let mut loop_label_height = 0f64;
    for e in &edges {
        let w = text_width(&e.label);
        let slot = &mut out_label_width[e.from as usize];
        *slot = slot.max(w);
        if e.from == e.to {
            loop_label_height = loop_label_height.max(e.label.lines().count() as f64 * LINE_H);
        }
    }
    let r_max = radius.iter().copied().fold(18f64, f64::max);
    let title_h = if d.title.is_some() { 24.0 } else { 0.0 };
    let sizes = Sizes {
        radius: radius.clone(),
        out_label_width,
        row_height: 2.0 * r_max + 1.6 * r_max.min(30.0) + loop_label_height + 20.0,
        margin_left: 40.0,
        margin_top: title_h + 10.0,
    };
    let pairs: Vec<(u32, u32)> = edges.iter().map(|e| (e.from, e.to)).collect();
    let lay = layered_layout(n, &pairs, &d.initial, &sizes);
    let title_w = d.title.as_deref().map_or(0.0, text_width) + 20.0;
    let (w, h) = (lay.width.max(title_w), lay.height);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"verikit-graph\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"sans-serif\" font-size=\"12\">\
<defs><marker id=\"vk-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"black\"/></marker></defs>"
    );
    if let Some(t) = &d.title {
        text(&mut s, w / 2.0, 16.0, t, "title");
        s.push('\n');
    }
    // Initial arrows.
    for &i in d.initial.iter().filter(|&&i| (i as usize) < n) {
        let (x, y, r) = (lay.x[i as usize], lay.y[i as usize], radius[i as usize]);
        let _ = writeln!(
            s,
            "<g class=\"initial\"><path d=\"M{:.1},{y:.1} L{:.1},{y:.1}\" stroke=\"black\" fill=\"none\" marker-end=\"url(#vk-arrow)\"/></g>",
            x - r - 30.0,
            x - r
        );
    }
    // Nodes.
    for (i, v) in d.nodes.iter().enumerate() {
        let (x, y, r) = (lay.x[i], lay.y[i], radius[i]);
        let _ = write!(
            s,
            "<g class=\"node\" id=\"vk-node-{i}\"><title>{}</title><circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{r:.1}\" fill=\"white\" stroke=\"black\"/>",
            esc(&v.label)
        );
        if v.accepting {
            let _ = write!(
                s,
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{:.1}\" fill=\"none\" stroke=\"black\"/>",
                r - 4.0
            );
        }
        text(&mut s, x, y, &v.label, "node-label");
        s.push_str("</g>\n");
    }
    // Edges: the k-th edge between the same unordered pair bends further.
    let mut seen: HashMap<(u32, u32), u32> = HashMap::new();
    let mut has_reverse: HashMap<(u32, u32), bool> = HashMap::new();
    for e in &edges {
        has_reverse.insert((e.from, e.to), true);
    }
    for (k, e) in edges.iter().enumerate() {
        let (a, b) = (e.from as usize, e.to as usize);
        let idx = {
            let c = seen.entry((e.from, e.to)).or_insert(0);
            *c += 1;
            *c - 1
        } as f64;
        let (ax, ay, ra) = (lay.x[a], lay.y[a], radius[a]);
        let (bx, by, rb) = (lay.x[b], lay.y[b], radius[b]);
        let _ = write!(
            s,
            "<g class=\"edge\" id=\"vk-edge-{k}\"><title>{}&#8594;{}</title>",
            e.from, e.to
        );
        let (lx, ly);
        if a == b {
            let spread = ra * (0.9 + 0.3 * idx);
            let top = ay - ra - 1.4 * r_max.min(30.0) * (1.0 + 0.5 * idx);
            let (sx, sy) = (ax - ra * 0.5, ay - ra * 0.866);
            let (ex, ey) = (ax + ra * 0.5, ay - ra * 0.866);
            let _ = write!(
                s,
                "<path d=\"M{sx:.1},{sy:.1} C{:.1},{top:.1} {:.1},{top:.1} {ex:.1},{ey:.1}\" stroke=\"black\" fill=\"none\" marker-end=\"url(#vk-arrow)\"/>",
                ax - spread,
                ax + spread
            );
            lx = ax;
            ly = top + 0.25 * (ay - ra - top)
                - (e.label.lines().count().max(1) as f64) * LINE_H / 2.0;
        } else {
            let (dx, dy) = (bx - ax, by - ay);
            let len = (dx * dx + dy * dy).sqrt().max(1.0);
            let (nx, ny) = (-dy / len, dx / len);
            let forward_next = lay.layer[b] == lay.layer[a].wrapping_add(1);
            let twin = has_reverse.contains_key(&(e.to, e.from));
            let mut bend = if forward_next { 0.0 } else { 0.18 * len + 20.0 };
            if twin && bend == 0.0 {
                bend = 22.0;
            }
            bend += 22.0 * idx;
            // Back edges bend the other way (below), so a pair a→b, b→a separates.
            let (cx, cy) = ((ax + bx) / 2.0 + nx * bend, (ay + by) / 2.0 + ny * bend);
            let clip = |px: f64, py: f64, r: f64| {
                let (ux, uy) = (cx - px, cy - py);
                let l = (ux * ux + uy * uy).sqrt().max(1e-9);
                (px + r * ux / l, py + r * uy / l)
            };
            let (sx, sy) = clip(ax, ay, ra);
            let (ex, ey) = clip(bx, by, rb);
            let _ = write!(
                s,
                "<path d=\"M{sx:.1},{sy:.1} Q{cx:.1},{cy:.1} {ex:.1},{ey:.1}\" stroke=\"black\" fill=\"none\" marker-end=\"url(#vk-arrow)\"/>"
            );
            lx = 0.25 * sx + 0.5 * cx + 0.25 * ex;
            ly = 0.25 * sy + 0.5 * cy + 0.25 * ey
                - if bend == 0.0 {
                    (e.label.lines().count().max(1) as f64) * LINE_H / 2.0 + 2.0
                } else {
                    0.0
                };
        }
        text(&mut s, lx, ly, &e.label, "edge-label");
        s.push_str("</g>\n");
    }
    s.push_str("</svg>\n");
    s
}
