//! Layered (Sugiyama-style) layout of a small directed graph, left to right, as GraphViz's `dot`
//! draws automata with `rankdir=LR`. Sugiyama, Tagawa, Toda — "Methods for visual understanding of
//! hierarchical system structures" (IEEE SMC 1981): §2 layering, §3 crossing reduction by the
//! barycentre method, §4 coordinates. Simplifications for automata of up to a few dozen states:
//!
//! 1. **Layering** by breadth-first distance from the initial vertices (then from the first vertex
//!    not reached yet, in index order), so the initial states are on the left and a state sits one
//!    layer right of the state that first reaches it; edges that go back or stay in a layer are
//!    drawn as curves instead of being reversed, and long edges get no dummy vertices.
//! 2. **Ordering** inside each layer: discovery order, then alternating down/up sweeps that sort a
//!    layer by the barycentre of its neighbours' positions in the adjacent layer (stable, so the
//!    result is deterministic).
//! 3. **Coordinates**: a layer's x from the widest vertex and edge label before it, a vertex's y
//!    from its position, each layer centred vertically.

use std::collections::VecDeque;

/// Positions computed by [`layered_layout`]: per vertex its layer, its position in the layer and
/// the centre of its circle; the size of the drawing.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub layer: Vec<u32>,
    pub order: Vec<u32>,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    pub width: f64,
    pub height: f64,
}

/// Space reserved around every vertex: its radius (from its label), the widest label of the edges
/// leaving it (to space the layers), and the vertical room of a row.
#[derive(Clone, Debug)]
pub struct Sizes {
    pub radius: Vec<f64>,
    pub out_label_width: Vec<f64>,
    pub row_height: f64,
    pub margin_left: f64,
    pub margin_top: f64,
}

/// Lays out `n` vertices with the given edges (edges naming a vertex `>= n` are ignored).
/// `initial` vertices start the layering.
pub fn layered_layout(n: usize, edges: &[(u32, u32)], initial: &[u32], sizes: &Sizes) -> Layout {
    let valid = |v: u32| (v as usize) < n;
    let mut succ: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut pred: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &(a, b) in edges.iter().filter(|&&(a, b)| valid(a) && valid(b)) {
        if let (Some(s), Some(p)) = (succ.get_mut(a as usize), pred.get_mut(b as usize)) {
            s.push(b);
            p.push(a);
        }
    }
    // 1. Layering by BFS.
    const NONE: u32 = u32::MAX;
    let mut layer = vec![NONE; n];
    let mut discovered: Vec<u32> = Vec::with_capacity(n);
    let roots = initial
        .iter()
        .copied()
        .filter(|&v| valid(v))
        .chain(0..n as u32);
    let mut queue = VecDeque::new();
    for r in roots {
        if layer[r as usize] != NONE {
            continue;
        }
        layer[r as usize] = 0;
        discovered.push(r);
        queue.push_back(r);
        while let Some(v) = queue.pop_front() {
            let next = layer[v as usize] + 1;
            for &w in &succ[v as usize] {
                if layer[w as usize] == NONE {
                    layer[w as usize] = next;
                    discovered.push(w);
                    queue.push_back(w);
                }
            }
        }
    }
    let num_layers = layer.iter().map(|&l| l as usize + 1).max().unwrap_or(0);
    let mut layers: Vec<Vec<u32>> = vec![Vec::new(); num_layers];
    for &v in &discovered {
        layers[layer[v as usize] as usize].push(v);
    }
    // 2. Barycentre sweeps.
    let mut pos = vec![0f64; n];
    let set_pos = |layers: &[Vec<u32>], pos: &mut [f64]| {
        for l in layers {
            for (i, &v) in l.iter().enumerate() {
                pos[v as usize] = i as f64;
            }
        }
    };
    set_pos(&layers, &mut pos);
    for sweep in 0..8 {
        let down = sweep % 2 == 0;
        let range: Vec<usize> = if down {
            (1..num_layers).collect()
        } else {
            (0..num_layers.saturating_sub(1)).rev().collect()
        };
        for li in range {
            let adj = if down { li - 1 } else { li + 1 } as u32;
            let mut keyed: Vec<(f64, f64, u32)> = layers[li]
                .iter()
                .map(|&v| {
                    let nb: Vec<f64> = succ[v as usize]
                        .iter()
                        .chain(&pred[v as usize])
                        .filter(|&&w| layer[w as usize] == adj)
                        .map(|&w| pos[w as usize])
                        .collect();
                    let own = pos[v as usize];
                    let bary = if nb.is_empty() {
                        own
                    } else {
                        nb.iter().sum::<f64>() / nb.len() as f64
                    };
                    (bary, own, v)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
            layers[li] = keyed.into_iter().map(|k| k.2).collect();
            for (i, &v) in layers[li].iter().enumerate() {
                pos[v as usize] = i as f64;
            }
        }
    }
    // 3. Coordinates.
    let radius = |v: u32| sizes.radius.get(v as usize).copied().unwrap_or(18.0);
    let label_w = |v: u32| {
        sizes
            .out_label_width
            .get(v as usize)
            .copied()
            .unwrap_or(0.0)
    };
    let rows = layers.iter().map(Vec::len).max().unwrap_or(0);
    let mut x = vec![0f64; n];
    let mut y = vec![0f64; n];
    let mut order = vec![0u32; n];
    let mut left = sizes.margin_left;
    let mut width = left;
    for l in &layers {
        let r = l.iter().map(|&v| radius(v)).fold(0f64, f64::max);
        let gap = l
            .iter()
            .map(|&v| label_w(v))
            .fold(0f64, f64::max)
            .min(240.0);
        let offset = (rows - l.len()) as f64 * sizes.row_height / 2.0;
        for (i, &v) in l.iter().enumerate() {
            x[v as usize] = left + r;
            y[v as usize] = sizes.margin_top + offset + (i as f64 + 0.5) * sizes.row_height;
            order[v as usize] = i as u32;
        }
        width = left + 2.0 * r;
        left += 2.0 * r + 50.0 + gap;
    }
    Layout {
        layer,
        order,
        x,
        y,
        width: width + 20.0,
        height: sizes.margin_top + rows as f64 * sizes.row_height + 10.0,
    }
}
