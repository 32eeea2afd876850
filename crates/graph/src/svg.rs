//! SVG drawing of a small labelled directed graph (an automaton) on the layout of
//! [`crate::sugiyama`], without GraphViz: circles with the state's label, double circles for
//! accepting states, an arrow from nowhere into each initial state, quadratic curves for edges
//! (bent apart when two edges join the same vertices, bent further for edges that go back or skip
//! layers), loops above their state. Edge labels are placed greedily so that no label covers a
//! vertex, the title or another label: first at points along the edge's curve (its middle, then
//! towards its ends; on it, above or below it), then at the nearest free place around the middle,
//! joined to it by a dotted leader line (the label placement of Kakoulis & Tollis, "A unified
//! approach to automatic label placement", restricted to candidate positions and first fit).
//! [`placement`] returns the boxes, so tests can check that nothing overlaps. The output is
//! deterministic and carries `class="node"` / `class="edge"` groups with `<title>`s so pages and
//! tests can find every element.

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

/// An axis-parallel box of the drawing (SVG user units, y downwards).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Rect {
    fn around(cx: f64, cy: f64, w: f64, h: f64) -> Rect {
        Rect {
            x0: cx - w / 2.0,
            y0: cy - h / 2.0,
            x1: cx + w / 2.0,
            y1: cy + h / 2.0,
        }
    }
    /// The interiors intersect (boxes that only touch do not overlap).
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
    /// `o` lies inside this box.
    pub fn contains(&self, o: &Rect) -> bool {
        self.x0 <= o.x0 && o.x1 <= self.x1 && self.y0 <= o.y0 && o.y1 <= self.y1
    }
    fn union(&self, o: &Rect) -> Rect {
        Rect {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }
    fn point(x: f64, y: f64) -> Rect {
        Rect {
            x0: x,
            y0: y,
            x1: x,
            y1: y,
        }
    }
}

/// Where [`to_svg`] puts things: the box of every vertex's circle, of every drawn edge's label
/// (in the order of the drawn edges; `None` for an empty label), of the title, and the visible
/// area (the SVG's `viewBox`).
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    pub nodes: Vec<Rect>,
    pub labels: Vec<Option<Rect>>,
    pub title: Option<Rect>,
    pub view: Rect,
}

/// One drawn edge: its SVG path, the label's centre, and the leader line's ends when the label
/// had to move away from the curve.
struct EdgeShape {
    from: u32,
    to: u32,
    path: String,
    label: String,
    centre: (f64, f64),
    leader: Option<(f64, f64, f64, f64)>,
}

/// Everything [`to_svg`] draws, with its coordinates.
struct Scene {
    x: Vec<f64>,
    y: Vec<f64>,
    radius: Vec<f64>,
    title: Option<(f64, f64, Rect)>,
    edges: Vec<EdgeShape>,
    placement: Placement,
}

/// The label's box size: its widest line and its number of lines.
fn label_size(label: &str) -> (f64, f64) {
    let lines = label.split('\n').count() as f64;
    (text_width(label) + 4.0, lines * LINE_H + 2.0)
}

/// Greedy first-fit placement of label boxes among obstacles.
struct Labeller {
    taken: Vec<Rect>,
}

impl Labeller {
    fn free(&self, r: &Rect) -> bool {
        !self.taken.iter().any(|t| t.overlaps(r))
    }
    /// The first free centre among `candidates`, else the nearest free one on square rings
    /// around `home` (with the leader line's ends), which always exists: the obstacles are finite
    /// and the rings grow until they clear them all.
    fn place(
        &mut self,
        (w, h): (f64, f64),
        candidates: &[(f64, f64)],
        home: (f64, f64),
    ) -> ((f64, f64), bool) {
        let found = candidates
            .iter()
            .copied()
            .find(|&(x, y)| self.free(&Rect::around(x, y, w, h)));
        let (centre, moved) = match found {
            Some(c) => (c, false),
            None => (self.search(w, h, home), true),
        };
        self.taken.push(Rect::around(centre.0, centre.1, w, h));
        (centre, moved)
    }
    fn search(&self, w: f64, h: f64, (hx, hy): (f64, f64)) -> (f64, f64) {
        let step = LINE_H;
        let far = self
            .taken
            .iter()
            .fold(Rect::point(hx, hy), |a, r| a.union(r));
        let reach = ((far.x1 - far.x0).max(far.y1 - far.y0) + w + h) / step;
        let rings = reach.ceil().max(1.0) as i64 + 2;
        for k in 1..=rings {
            // The ring's cells, nearest to the home point first (ties in a fixed order).
            let mut cells: Vec<(i64, i64)> = (-k..=k)
                .flat_map(|i| [(i, -k), (i, k), (-k, i), (k, i)])
                .collect();
            cells.sort_by_key(|&(i, j)| (i * i + j * j, j, i));
            cells.dedup();
            for (i, j) in cells {
                let c = (hx + i as f64 * step, hy + j as f64 * step);
                if self.free(&Rect::around(c.0, c.1, w, h)) {
                    return c;
                }
            }
        }
        // Unreachable in practice (the last ring clears every obstacle); below everything.
        (hx, far.y1 + h)
    }
}

fn scene(d: &Drawing) -> Scene {
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
    let node_boxes: Vec<Rect> = (0..n)
        .map(|i| Rect::around(lay.x[i], lay.y[i], 2.0 * radius[i], 2.0 * radius[i]))
        .collect();
    let mut view = Rect::point(0.0, 0.0).union(&Rect::point(lay.width, lay.height));
    let title = d.title.as_ref().map(|t| {
        let (w, h) = label_size(t);
        let x = view.x1.max(w + 20.0) / 2.0;
        (x, 16.0, Rect::around(x, 16.0, w, h))
    });
    let mut lab = Labeller {
        taken: node_boxes.clone(),
    };
    if let Some((_, _, r)) = &title {
        lab.taken.push(*r);
        view = view.union(r);
    }
    for &i in d.initial.iter().filter(|&&i| (i as usize) < n) {
        let (x, y, r) = (lay.x[i as usize], lay.y[i as usize], radius[i as usize]);
        let arrow = Rect {
            x0: x - r - 30.0,
            y0: y - 4.0,
            x1: x - r,
            y1: y + 4.0,
        };
        lab.taken.push(arrow);
        view = view.union(&arrow);
    }
    // Edges: the k-th edge between the same ordered pair bends further.
    let mut seen: HashMap<(u32, u32), u32> = HashMap::new();
    let mut has_reverse: HashMap<(u32, u32), bool> = HashMap::new();
    for e in &edges {
        has_reverse.insert((e.from, e.to), true);
    }
    let mut shapes = Vec::with_capacity(edges.len());
    let mut label_boxes = Vec::with_capacity(edges.len());
    for e in &edges {
        let (a, b) = (e.from as usize, e.to as usize);
        let idx = {
            let c = seen.entry((e.from, e.to)).or_insert(0);
            *c += 1;
            *c - 1
        } as f64;
        let (ax, ay, ra) = (lay.x[a], lay.y[a], radius[a]);
        let (bx, by, rb) = (lay.x[b], lay.y[b], radius[b]);
        let (w, h) = label_size(&e.label);
        let (path, candidates, home);
        if a == b {
            let spread = ra * (0.9 + 0.3 * idx);
            let top = ay - ra - 1.4 * r_max.min(30.0) * (1.0 + 0.5 * idx);
            let (sx, sy) = (ax - ra * 0.5, ay - ra * 0.866);
            let (ex, ey) = (ax + ra * 0.5, ay - ra * 0.866);
            path = format!(
                "M{sx:.1},{sy:.1} C{:.1},{top:.1} {:.1},{top:.1} {ex:.1},{ey:.1}",
                ax - spread,
                ax + spread
            );
            // The curve's apex (t = 1/2 of the cubic).
            let apex = 0.25 * sy + 0.75 * top;
            view = view
                .union(&Rect::point(ax - spread, top))
                .union(&Rect::point(ax + spread, top));
            home = (ax, apex - h / 2.0 - 2.0);
            candidates = vec![
                home,
                (ax - spread - w / 2.0, apex),
                (ax + spread + w / 2.0, apex),
                (ax, apex - h - 2.0),
            ];
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
            path = format!("M{sx:.1},{sy:.1} Q{cx:.1},{cy:.1} {ex:.1},{ey:.1}");
            view = view.union(&Rect::point(cx, cy));
            let at = |t: f64| {
                let u = 1.0 - t;
                (
                    u * u * sx + 2.0 * u * t * cx + t * t * ex,
                    u * u * sy + 2.0 * u * t * cy + t * t * ey,
                )
            };
            home = at(0.5);
            let lift = h / 2.0 + 3.0;
            candidates = [0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74]
                .iter()
                .flat_map(|&t| {
                    let (x, y) = at(t);
                    [(x, y - lift), (x, y + lift), (x, y)]
                })
                .collect();
        }
        let (centre, leader) = if e.label.is_empty() {
            label_boxes.push(None);
            (home, None)
        } else {
            let (c, moved) = lab.place((w, h), &candidates, home);
            let r = Rect::around(c.0, c.1, w, h);
            view = view.union(&r);
            label_boxes.push(Some(r));
            (c, moved.then_some((home.0, home.1, c.0, c.1)))
        };
        shapes.push(EdgeShape {
            from: e.from,
            to: e.to,
            path,
            label: e.label.clone(),
            centre,
            leader,
        });
    }
    for r in &node_boxes {
        view = view.union(r);
    }
    let view = Rect {
        x0: view.x0 - 10.0,
        y0: view.y0 - 10.0,
        x1: view.x1 + 10.0,
        y1: view.y1 + 10.0,
    };
    Scene {
        x: lay.x,
        y: lay.y,
        radius,
        title,
        edges: shapes,
        placement: Placement {
            nodes: node_boxes,
            labels: label_boxes,
            title: title.map(|t| t.2),
            view,
        },
    }
}

/// The boxes [`to_svg`] draws (for checks that nothing overlaps).
pub fn placement(d: &Drawing) -> Placement {
    scene(d).placement
}

/// Draws the graph as a standalone SVG document (edges naming a missing vertex are left out).
pub fn to_svg(d: &Drawing) -> String {
    let sc = scene(d);
    let v = sc.placement.view;
    let (w, h) = (v.x1 - v.x0, v.y1 - v.y0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"verikit-graph\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"{:.0} {:.0} {w:.0} {h:.0}\" font-family=\"sans-serif\" font-size=\"12\">\
<defs><marker id=\"vk-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"black\"/></marker></defs>",
        v.x0.floor(),
        v.y0.floor()
    );
    if let (Some(t), Some((x, y, _))) = (&d.title, &sc.title) {
        text(&mut s, *x, *y, t, "title");
        s.push('\n');
    }
    let n = d.nodes.len();
    // Initial arrows.
    for &i in d.initial.iter().filter(|&&i| (i as usize) < n) {
        let (x, y, r) = (sc.x[i as usize], sc.y[i as usize], sc.radius[i as usize]);
        let _ = writeln!(
            s,
            "<g class=\"initial\"><path d=\"M{:.1},{y:.1} L{:.1},{y:.1}\" stroke=\"black\" fill=\"none\" marker-end=\"url(#vk-arrow)\"/></g>",
            x - r - 30.0,
            x - r
        );
    }
    // Nodes.
    for (i, node) in d.nodes.iter().enumerate() {
        let (x, y, r) = (sc.x[i], sc.y[i], sc.radius[i]);
        let _ = write!(
            s,
            "<g class=\"node\" id=\"vk-node-{i}\"><title>{}</title><circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{r:.1}\" fill=\"white\" stroke=\"black\"/>",
            esc(&node.label)
        );
        if node.accepting {
            let _ = write!(
                s,
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{:.1}\" fill=\"none\" stroke=\"black\"/>",
                r - 4.0
            );
        }
        text(&mut s, x, y, &node.label, "node-label");
        s.push_str("</g>\n");
    }
    for (k, e) in sc.edges.iter().enumerate() {
        let _ = write!(
            s,
            "<g class=\"edge\" id=\"vk-edge-{k}\"><title>{}&#8594;{}</title><path d=\"{}\" stroke=\"black\" fill=\"none\" marker-end=\"url(#vk-arrow)\"/>",
            e.from, e.to, e.path
        );
        if let Some((x0, y0, x1, y1)) = e.leader {
            let _ = write!(
                s,
                "<path class=\"leader\" d=\"M{x0:.1},{y0:.1} L{x1:.1},{y1:.1}\" stroke=\"gray\" stroke-dasharray=\"2,2\" fill=\"none\"/>"
            );
        }
        text(&mut s, e.centre.0, e.centre.1, &e.label, "edge-label");
        s.push_str("</g>\n");
    }
    s.push_str("</svg>\n");
    s
}
