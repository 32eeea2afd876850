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

/// A deterministic automaton over two propositions `p0`, `p1` with `n` states: on each of the four
/// letters a successor and marks (of `sets`) drawn from `seed`, the edge dropped one time in
/// five when `partial`; acceptance `acc` (an HOA condition over `sets` marks); initial state 0.
pub(crate) fn random_det(seed: u64, n: u32, sets: u32, acc: &str, partial: bool) -> crate::Twa {
    random_det_over(2, seed, n, sets, acc, partial)
}

/// [`random_det`] over `aps` propositions (`p0`, `p1`, …; letters in binary order, the first
/// proposition the most significant).
pub(crate) fn random_det_over(
    aps: u32,
    seed: u64,
    n: u32,
    sets: u32,
    acc: &str,
    partial: bool,
) -> crate::Twa {
    let letters: Vec<String> = (0..1u32 << aps)
        .map(|i| {
            (0..aps)
                .map(|j| {
                    let on = (i >> (aps - 1 - j)) & 1 == 1;
                    format!("{}{j}", if on { "" } else { "!" })
                })
                .collect::<Vec<_>>()
                .join("&")
        })
        .collect();
    let names: Vec<String> = (0..aps).map(|j| format!("\"p{j}\"")).collect();
    let mut x = seed | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut body = String::new();
    for s in 0..n {
        body += &format!("State: {s}\n");
        for l in &letters {
            let d = next() % u64::from(n);
            let m = next() % (1u64 << sets);
            if partial && next() % 5 == 0 {
                continue;
            }
            let marks: Vec<String> = (0..sets)
                .filter(|i| (m >> i) & 1 == 1)
                .map(|i| i.to_string())
                .collect();
            let ms = if marks.is_empty() {
                String::new()
            } else {
                format!(" {{{}}}", marks.join(" "))
            };
            body += &format!("[{l}] {d}{ms}\n");
        }
    }
    let text = format!(
        "HOA: v1\nStates: {n}\nStart: 0\nAP: {aps} {}\nAcceptance: {sets} {acc}\n--BODY--\n{body}--END--\n",
        names.join(" ")
    );
    crate::hoa::parse(&text).expect("a well-formed HOA text")
}
