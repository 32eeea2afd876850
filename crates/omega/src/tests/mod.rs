//! Tests that call the crate's internal algorithms directly (moved from `tests/` when the crate's
//! API was closed): budgets, acceptance guards, little-brother removals, operations on automata,
//! Emerson–Lei acceptance.

mod budget;
// The integration tests' helpers, compiled here too (through `verikit_omega` = this crate).
#[path = "../../tests/common/mod.rs"]
#[allow(unreachable_pub)]
mod common;
mod el;
mod guards;
mod little_brothers;
mod monitor;
mod ops;
mod ramsey_inclusion;
mod spot_cli;
mod zielonka_tree;

/// A hand-written fixture over one proposition `a`: `n` states, `sets` acceptance sets,
/// initial state 0, and edges `(src, dst, label, marks)` whose label is `'t'` (true), `'a'` or
/// `'!'` (`!a`).
pub(crate) fn one_ap(n: u32, sets: u32, edges: &[(u32, u32, char, u64)]) -> crate::Twa {
    let mut t = crate::Twa::new(vec!["a".into()]);
    for _ in 0..n {
        t.add_state();
    }
    t.num_sets = sets;
    let a = t.ap_var(0);
    for &(s, d, l, m) in edges {
        let label = match l {
            'a' => a.clone(),
            '!' => a.not(),
            _ => t.tt(),
        };
        t.add_edge(s, d, label, m);
    }
    t.init = vec![0];
    t
}
