//! `GF g` for a guarantee formula `g` by a deterministic Büchi automaton built from the minimal
//! weak deterministic automaton of `F g`: the construction Spot's `ltl2tgba` applies under its
//! `gf-guarantee` option, on by default (spot-x(7); A. Duret-Lutz et al., "From Spot 2.0 to
//! Spot 2.10: What's New?", CAV'22, §2 "LTL translation").
//!
//! `F g` is a guarantee property, so [`crate::wdba`] (Dax–Eisinger–Klaedtke ATVA'07) gives its
//! minimal weak deterministic automaton `D`, *terminal*: its accepting part is one sink with a
//! `true` self-loop. The automaton of `GF g` is `D` without the sink, every edge `q -ℓ-> sink`
//! replaced by the marked edges `q -(ℓ ∧ ℓ_i)-> d_i` for every edge `init -ℓ_i-> d_i` of the
//! initial state (`d_i` replaced by the initial state when it is the sink): on detecting that
//! `F g` held since the last restart, the automaton restarts `D` *on the same letter*.
//!
//! Exactness. If `GF g` holds, `F g` holds from every restart point, so `D` reaches the sink
//! again after each restart and the run sees infinitely many marks. Conversely, a detection from
//! restart point `r` at position `j ≥ r` witnesses a position `p ∈ [r, j]` where `g` holds; the
//! next restart is at `j` (or `j + 1`), and a restart at `j` reading letter `j` from the initial
//! state without reaching the sink detects next at some `j' > j`. So the witnesses are
//! non-decreasing and strictly increase every two detections: infinitely many marks imply
//! infinitely many positions where `g` holds. The result is moreover deterministic.

use crate::ltl::ast::{Arena, Node, F};
use crate::twa::Twa;

/// True if `f` (in negation normal form) is syntactically a guarantee formula: built from
/// Boolean formulas with `&`, `|`, `X`, `F`, `U`, `M`.
pub(crate) fn is_guarantee(a: &Arena, f: F) -> bool {
    if a.is_boolean(f) {
        return true;
    }
    match a.node(f) {
        Node::X(x) | Node::Ev(x) => is_guarantee(a, *x),
        Node::U(x, y) | Node::M(x, y) => is_guarantee(a, *x) && is_guarantee(a, *y),
        Node::And(v) | Node::Or(v) => v.iter().all(|&x| is_guarantee(a, x)),
        _ => false,
    }
}

/// The `GF g` automaton from a deterministic terminal automaton `d` of `F g` (one acceptance
/// set, accepting part = sink states with a `true` self-loop), or `None` when `d` does not have
/// that shape.
pub(crate) fn from_terminal(d: &Twa) -> Option<Twa> {
    if d.num_sets != 1 || d.acc_false || d.init.len() != 1 || !d.is_deterministic() {
        return None;
    }
    let info = crate::scc_info::scc_info(d);
    let n = d.num_states();
    let sink: Vec<bool> = (0..n)
        .map(|s| info.accepting[info.sccs.comp[s] as usize])
        .collect();
    for s in (0..n).filter(|&s| sink[s]) {
        let es = &d.states[s];
        if es.len() != 1 || es[0].dst as usize != s || !es[0].label.is_true() {
            return None;
        }
    }
    let init = d.init[0] as usize;
    if sink[init] || !sink.iter().any(|&x| x) {
        return None;
    }
    let mut id = vec![u32::MAX; n];
    let mut out = Twa::new(d.aps.clone());
    out.vars = d.vars.clone();
    out.num_sets = 1;
    out.name = d.name.clone();
    for s in 0..n {
        if !sink[s] {
            id[s] = out.add_state();
        }
    }
    for s in (0..n).filter(|&s| !sink[s]) {
        for e in &d.states[s] {
            if !sink[e.dst as usize] {
                out.add_edge(id[s], id[e.dst as usize], e.label.clone(), 0);
                continue;
            }
            for ei in &d.states[init] {
                let l = e.label.and(&ei.label);
                if l.is_false() {
                    continue;
                }
                let t = if sink[ei.dst as usize] {
                    id[init]
                } else {
                    id[ei.dst as usize]
                };
                out.add_edge(id[s], t, l, 1);
            }
        }
    }
    out.init = vec![id[init]];
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ltl::eval::{holds, Lasso};
    use crate::ltl::parse::parse;

    /// `GF((b & Xa) | (!b & X!a))`: the result is deterministic and agrees with the LTL evaluator
    /// on every lasso with a prefix of up to 2 and a cycle of up to 3 letters.
    #[test]
    fn gf_of_a_two_step_guarantee() {
        let mut a = Arena::new();
        let g = parse("(b & Xa) | (!b & X!a)", &mut a).unwrap();
        let fg = a.ev(g);
        let gfg = a.gl(fg);
        // The pipeline hands this module an automaton without redirect merges (a redirect may
        // leave a shape that is not terminal), so the test does too.
        let opts = crate::translate::Options {
            redirect_merges: false,
            ..crate::translate::Options::default()
        };
        let d = crate::translate::translate(&mut a, fg, &opts).unwrap();
        let r = from_terminal(&d).expect("terminal automaton");
        assert!(r.is_deterministic());
        // The automaton's APs are the arena's ("b", "a") in the same order.
        for w in Lasso::all(4, 2, 3) {
            assert_eq!(
                crate::accepts::accepts_lasso(&r, &w),
                holds(&a, gfg, &w),
                "{w:?}"
            );
        }
    }
}
