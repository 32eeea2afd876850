//! The SVG drawing: well-formed XML (checked by an independent XML parser), every vertex and edge
//! present with its label, deterministic, and positions inside the picture.

use proptest::prelude::*;
use quick_xml::events::Event;
use quick_xml::Reader;
use verikit_graph::{
    layered_layout, placement, to_svg, DrawEdge, DrawNode, Drawing, Placement, Sizes,
};

/// What an XML parser finds in the SVG: the `class` of every `<g>`, all text content, and the
/// numbers of `<circle>`s.
#[derive(Default, Debug)]
struct Parsed {
    groups: Vec<String>,
    text: String,
    circles: usize,
    root: String,
    ids: Vec<String>,
}

fn parse(svg: &str) -> Parsed {
    let mut r = Reader::from_str(svg);
    r.config_mut().check_end_names = true;
    let mut p = Parsed::default();
    let mut depth = 0i32;
    loop {
        match r.read_event() {
            Ok(Event::Start(e)) => {
                let name = String::from_utf8_lossy(e.name().as_ref()).to_string();
                if depth == 0 {
                    p.root = name.clone();
                }
                depth += 1;
                if name == "g" {
                    let class = e.try_get_attribute("class").unwrap().unwrap();
                    p.groups
                        .push(String::from_utf8_lossy(&class.value).to_string());
                    if let Ok(Some(id)) = e.try_get_attribute("id") {
                        p.ids.push(String::from_utf8_lossy(&id.value).to_string());
                    }
                }
                if name == "circle" {
                    p.circles += 1;
                }
            }
            Ok(Event::Empty(e)) => {
                assert!(depth > 0, "element outside the root");
                if e.name().as_ref() == b"circle" {
                    p.circles += 1;
                }
            }
            Ok(Event::End(_)) => {
                depth -= 1;
                assert!(depth >= 0);
            }
            Ok(Event::Text(t)) => {
                p.text.push_str(&t.unescape().unwrap());
                p.text.push('|');
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("not well-formed: {e}\n{svg}"),
        }
    }
    assert_eq!(depth, 0, "unclosed elements");
    p
}

fn automaton() -> Drawing {
    Drawing {
        title: Some("G(a -> F b) & \"x<y\"".into()),
        nodes: vec![
            DrawNode {
                label: "0".into(),
                accepting: true,
            },
            DrawNode {
                label: "1".into(),
                accepting: false,
            },
            DrawNode {
                label: "2\nF b".into(),
                accepting: true,
            },
        ],
        edges: vec![
            DrawEdge {
                from: 0,
                to: 0,
                label: "!a | b".into(),
            },
            DrawEdge {
                from: 0,
                to: 1,
                label: "a & !b".into(),
            },
            DrawEdge {
                from: 1,
                to: 0,
                label: "b\n{0}".into(),
            },
            DrawEdge {
                from: 1,
                to: 1,
                label: "!b".into(),
            },
            DrawEdge {
                from: 1,
                to: 2,
                label: "a<b".into(),
            },
            DrawEdge {
                from: 1,
                to: 2,
                label: "c".into(),
            },
        ],
        initial: vec![0],
    }
}

#[test]
fn every_node_and_edge_is_drawn() {
    let d = automaton();
    let svg = to_svg(&d);
    let p = parse(&svg);
    assert_eq!(p.root, "svg");
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    let count = |c: &str| p.groups.iter().filter(|g| *g == c).count();
    assert_eq!(count("node"), 3);
    assert_eq!(count("edge"), 6);
    assert_eq!(count("initial"), 1);
    // Three circles plus an inner one per accepting state.
    assert_eq!(p.circles, 5);
    for l in [
        "!a | b",
        "a & !b",
        "{0}",
        "a<b",
        "F b",
        "G(a -> F b) & \"x<y\"",
    ] {
        assert!(p.text.contains(l), "label {l:?} missing from {}", p.text);
    }
    for i in 0..3 {
        assert!(p.ids.contains(&format!("vk-node-{i}")));
    }
    for k in 0..6 {
        assert!(p.ids.contains(&format!("vk-edge-{k}")));
    }
}

#[test]
fn output_is_deterministic() {
    let d = automaton();
    assert_eq!(to_svg(&d), to_svg(&d.clone()));
}

#[test]
fn edges_to_missing_vertices_are_left_out_and_empty_graph_draws() {
    let mut d = automaton();
    d.edges.push(DrawEdge {
        from: 0,
        to: 99,
        label: "bad".into(),
    });
    d.initial.push(42);
    let p = parse(&to_svg(&d));
    assert_eq!(p.groups.iter().filter(|g| *g == "edge").count(), 6);
    assert!(!p.text.contains("bad"));
    let p = parse(&to_svg(&Drawing::default()));
    assert_eq!(p.root, "svg");
    assert!(p.groups.is_empty());
}

#[test]
fn initial_states_are_leftmost_and_successors_one_layer_right() {
    let sizes = Sizes {
        radius: vec![18.0; 4],
        out_label_width: vec![0.0; 4],
        row_height: 60.0,
        margin_left: 40.0,
        margin_top: 10.0,
    };
    let l = layered_layout(4, &[(2, 0), (0, 1), (1, 3), (3, 2)], &[2], &sizes);
    assert_eq!(l.layer, vec![1, 2, 0, 3]);
    assert!(l.x[2] < l.x[0] && l.x[0] < l.x[1] && l.x[1] < l.x[3]);
}

/// Nothing covers anything else: no two vertices, no label over a vertex, the title or another
/// label, and everything inside the visible area.
fn assert_no_overlap(p: &Placement) {
    let labels: Vec<_> = p.labels.iter().flatten().collect();
    for (i, a) in p.nodes.iter().enumerate() {
        assert!(p.view.contains(a), "vertex {i} {a:?} outside {:?}", p.view);
        for (j, b) in p.nodes.iter().enumerate().take(i) {
            assert!(!a.overlaps(b), "vertices {j} and {i} overlap");
        }
        for l in &labels {
            assert!(!a.overlaps(l), "label {l:?} covers vertex {i} {a:?}");
        }
    }
    for (i, a) in labels.iter().enumerate() {
        assert!(p.view.contains(a), "label {a:?} outside {:?}", p.view);
        if let Some(t) = &p.title {
            assert!(!a.overlaps(t), "label {a:?} covers the title");
        }
        for b in labels.iter().take(i) {
            assert!(!a.overlaps(b), "labels {a:?} and {b:?} overlap");
        }
    }
}

#[test]
fn labels_cover_no_vertex_and_no_other_label() {
    let p = placement(&automaton());
    assert_eq!(p.labels.len(), 6);
    assert!(p.title.is_some());
    assert_no_overlap(&p);
    // A dense graph: every vertex has an edge with a long label to every vertex.
    let n = 8u32;
    let dense = Drawing {
        title: Some("dense".into()),
        nodes: (0..n)
            .map(|i| DrawNode {
                label: i.to_string(),
                accepting: i % 3 == 0,
            })
            .collect(),
        edges: (0..n)
            .flat_map(|a| (0..n).map(move |b| (a, b)))
            .map(|(a, b)| DrawEdge {
                from: a,
                to: b,
                label: format!("a & !b & c{a}{b}\n{{0}}"),
            })
            .collect(),
        initial: vec![0],
    };
    let p = placement(&dense);
    assert_eq!(p.labels.iter().flatten().count(), 64);
    assert_no_overlap(&p);
}

proptest! {
    #[test]
    fn random_graphs_draw_well_formed(
        n in 0usize..50,
        edges in proptest::collection::vec((0u32..50, 0u32..50, "[a-c!&|<>\"' {}0-9\n]{0,12}"), 0..120),
        init in proptest::collection::vec(0u32..50, 0..3),
        acc in proptest::collection::vec(any::<bool>(), 50),
    ) {
        let d = Drawing {
            title: None,
            nodes: (0..n).map(|i| DrawNode { label: format!("s{i}"), accepting: acc[i] }).collect(),
            edges: edges.iter().map(|(a, b, l)| DrawEdge { from: *a, to: *b, label: l.clone() }).collect(),
            initial: init.clone(),
        };
        let svg = to_svg(&d);
        prop_assert!(!svg.contains("NaN") && !svg.contains("inf"));
        let p = parse(&svg);
        let valid = edges.iter().filter(|(a, b, _)| (*a as usize) < n && (*b as usize) < n).count();
        prop_assert_eq!(p.groups.iter().filter(|g| *g == "edge").count(), valid);
        prop_assert_eq!(p.groups.iter().filter(|g| *g == "node").count(), n);
        let accepting = acc.iter().take(n).filter(|&&a| a).count();
        prop_assert_eq!(p.circles, n + accepting);
        // Every vertex inside the picture, no two vertices at the same place.
        let sizes = Sizes { radius: vec![18.0; n], out_label_width: vec![0.0; n], row_height: 60.0, margin_left: 40.0, margin_top: 10.0 };
        let pairs: Vec<(u32, u32)> = edges.iter().map(|(a, b, _)| (*a, *b)).collect();
        let l = layered_layout(n, &pairs, &init, &sizes);
        for v in 0..n {
            prop_assert!(l.x[v] > 0.0 && l.x[v] < l.width && l.y[v] > 0.0 && l.y[v] < l.height);
            for w in 0..v {
                prop_assert!(l.x[v] != l.x[w] || l.y[v] != l.y[w]);
            }
        }
        prop_assert_eq!(&svg, &to_svg(&d));
        assert_no_overlap(&placement(&d));
    }
}
