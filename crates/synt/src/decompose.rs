//! Specification decomposition: a specification split into parts over disjoint sets of outputs,
//! each solved alone, the controllers run side by side.
//!
//! Paper: B. Finkbeiner, G. Geier, N. Passing, *Specification decomposition for reactive
//! synthesis*, NASA Formal Methods 2021 (LTL decomposition: conjuncts that share no output are
//! independent synthesis problems; assumptions need care), as Spot's `ltlsynt --decompose`
//! applies it.
//!
//! Here `φ` is cut into *units* whose conjunction is `φ` — the operands of top-level
//! conjunctions, `G(a ∧ b)` as `G a ∧ G b`, and `A → (B₁ ∧ B₂)` as `(A → B₁) ∧ (A → B₂)` — and
//! units are grouped by the outputs they mention. An assumption `A = a₁ ∧ a₂ ∧ …` is split the
//! same way: a conjunct `aₘ` that mentions outputs joins their outputs into one group and is kept
//! only in that group's part; conjuncts over inputs alone are kept in every part. Units without
//! outputs join the first group. A part `ψᵢ` is the conjunction of its group's units, each
//! implication with the assumption conjuncts kept for the part, and mentions only the inputs and
//! its own outputs. So:
//!
//! * every part realizable → `φ` realizable: each `ψᵢ` implies its units of `φ` (an assumption
//!   conjunct left out only makes a unit harder), so the parts' controllers side by side (each
//!   reading all inputs, writing its own outputs) satisfy `φ`;
//! * a part that kept every assumption conjunct of its implications ([`Part::exact`])
//!   unrealizable → `φ` unrealizable: `φ` implies `ψᵢ`, so a controller for `φ` restricted to the
//!   part's outputs would satisfy `ψᵢ`; the part's counter-strategy beats `φ`;
//! * an inexact part unrealizable decides nothing (the specification is then solved whole).

use verikit_graph::UnionFind;
use verikit_omega::{Arena, Node, F};

/// One part: its formula, the outputs it controls (proposition indices of the arena) and
/// whether it kept every assumption conjunct of its implications (then `φ` implies it).
pub(crate) struct Part {
    pub(crate) formula: F,
    pub(crate) outputs: Vec<u32>,
    pub(crate) exact: bool,
}

/// The conjuncts of `f`: the operands of conjunctions, `G(a ∧ b)` as `G a`, `G b`, and — when
/// `implications` — `A → (B₁ ∧ B₂)` as `A → B₁`, `A → B₂`.
fn conjuncts(arena: &mut Arena, f: F, implications: bool, out: &mut Vec<F>) {
    match arena.node(f).clone() {
        Node::And(ops) => ops
            .into_iter()
            .for_each(|g| conjuncts(arena, g, implications, out)),
        Node::Gl(g) => match arena.node(g).clone() {
            Node::And(ops) => {
                for op in ops {
                    let h = arena.gl(op);
                    conjuncts(arena, h, implications, out);
                }
            }
            _ => out.push(f),
        },
        Node::Implies(a, g) if implications => {
            let mut gs = Vec::new();
            conjuncts(arena, g, true, &mut gs);
            if gs.len() <= 1 {
                out.push(f);
            } else {
                for g in gs {
                    let h = arena.implies(a, g);
                    out.push(h);
                }
            }
        }
        _ => out.push(f),
    }
}

/// A top-level conjunct of `φ`: an implication (its assumption conjuncts, its units) or a plain
/// unit (no assumption).
struct Piece {
    assumptions: Vec<F>,
    units: Vec<F>,
}

/// The parts of `f` for the outputs `outputs` (proposition indices), smallest formula first.
/// One exact part (`f` itself) when nothing separates.
pub(crate) fn decompose(arena: &mut Arena, f: F, outputs: &[u32]) -> Vec<Part> {
    let whole = || {
        vec![Part {
            formula: f,
            outputs: outputs.to_vec(),
            exact: true,
        }]
    };
    let mut top = Vec::new();
    conjuncts(arena, f, false, &mut top);
    let mut pieces = Vec::with_capacity(top.len());
    for t in top {
        let piece = match arena.node(t).clone() {
            Node::Implies(a, b) => {
                let (mut assumptions, mut units) = (Vec::new(), Vec::new());
                conjuncts(arena, a, false, &mut assumptions);
                conjuncts(arena, b, true, &mut units);
                Piece { assumptions, units }
            }
            _ => Piece {
                assumptions: Vec::new(),
                units: vec![t],
            },
        };
        pieces.push(piece);
    }
    let outs_of = |arena: &Arena, g: F| -> Vec<usize> {
        arena
            .aps_of(g)
            .iter()
            .filter_map(|a| outputs.iter().position(|o| o == a))
            .collect()
    };
    // Union-find over output positions: the outputs of one conjunct form one group.
    let mut groups = UnionFind::new(outputs.len());
    for p in &pieces {
        for &g in p.assumptions.iter().chain(&p.units) {
            let outs = outs_of(arena, g);
            if let Some((&first, rest)) = outs.split_first() {
                for &o in rest {
                    groups.union(o, first);
                }
            }
        }
    }
    // The group (root) of each unit (None: no output) and of each assumption conjunct.
    let root_of = |groups: &mut UnionFind, arena: &Arena, g: F| {
        outs_of(arena, g).first().map(|&o| groups.find(o))
    };
    let mut roots: Vec<usize> = Vec::new();
    for p in &pieces {
        for &u in &p.units {
            if let Some(r) = root_of(&mut groups, arena, u) {
                if !roots.contains(&r) {
                    roots.push(r);
                }
            }
        }
    }
    if roots.len() <= 1 {
        return whole();
    }
    let mut parts = Vec::with_capacity(roots.len());
    for (gi, &r) in roots.iter().enumerate() {
        let mut conj = Vec::new();
        let mut exact = true;
        for p in &pieces {
            let units: Vec<F> = p
                .units
                .iter()
                .copied()
                .filter(|&u| match root_of(&mut groups, arena, u) {
                    Some(ru) => ru == r,
                    None => gi == 0,
                })
                .collect();
            if units.is_empty() {
                continue;
            }
            let mut kept = Vec::new();
            for &a in &p.assumptions {
                match root_of(&mut groups, arena, a) {
                    None => kept.push(a),
                    Some(ra) if ra == r => kept.push(a),
                    Some(_) => exact = false,
                }
            }
            let body = arena.and(units);
            let unit = if p.assumptions.is_empty() {
                body
            } else {
                let a = arena.and(kept);
                arena.implies(a, body)
            };
            conj.push(unit);
        }
        let owned = outputs
            .iter()
            .enumerate()
            .filter(|&(i, _)| groups.find(i) == r)
            .map(|(_, &o)| o)
            .collect();
        parts.push(Part {
            formula: arena.and(conj),
            outputs: owned,
            exact,
        });
    }
    parts.sort_by_key(|p| arena.tree_size(p.formula));
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts_of(text: &str, outs: &[&str]) -> Vec<(String, Vec<String>, bool)> {
        let mut arena = Arena::new();
        let f = verikit_omega::task::parse_formula(text, 0, &mut arena).unwrap();
        let outs: Vec<u32> = outs.iter().map(|o| arena.ap_id(o)).collect();
        decompose(&mut arena, f, &outs)
            .into_iter()
            .map(|p| {
                let mut names: Vec<String> = p
                    .outputs
                    .iter()
                    .map(|&o| arena.ap_name(o).to_string())
                    .collect();
                names.sort();
                (
                    verikit_omega::ltl_to_string(&arena, p.formula),
                    names,
                    p.exact,
                )
            })
            .collect()
    }

    #[test]
    fn independent_outputs_split_and_shared_ones_do_not() {
        // G distributes; the two guarantees share no output.
        let p = parts_of("G((r0 -> g0) & (r1 -> X g1))", &["g0", "g1"]);
        assert_eq!(p.len(), 2, "{p:?}");
        // A mutual exclusion ties them.
        let p = parts_of("G(r0 -> g0) & G(r1 -> g1) & G!(g0 & g1)", &["g0", "g1"]);
        assert_eq!(p.len(), 1, "{p:?}");
        // An input-only assumption is kept in every part.
        let p = parts_of("GF r -> (GF g0 & GF g1)", &["g0", "g1"]);
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(
            p.iter().all(|(f, _, exact)| f.contains('r') && *exact),
            "{p:?}"
        );
        // An assumption mentioning g0 is kept only in g0's part, which alone is exact.
        let p = parts_of("G(g0 -> F r) & GF r -> (GF g0 & GF g1)", &["g0", "g1"]);
        assert_eq!(p.len(), 2, "{p:?}");
        for (f, outs, exact) in &p {
            assert_eq!(f.contains("g0 ->"), outs == &["g0"], "{p:?}");
            assert_eq!(*exact, outs == &["g0"], "{p:?}");
        }
        // A unit without outputs joins a part; the outputs are partitioned.
        let p = parts_of("G r & GF g0 & GF g1", &["g0", "g1"]);
        assert_eq!(p.len(), 2, "{p:?}");
        let mut outs: Vec<String> = p.iter().flat_map(|(_, o, _)| o.clone()).collect();
        outs.sort();
        assert_eq!(outs, ["g0", "g1"]);
    }
}
