//! Monitors (`ltl translate -M`, Spot's `ltl2tgba -M`): every run accepting (`Acceptance: 0 t`),
//! and the non-empty finite words the monitor can read are exactly the prefixes of the formula's
//! models.
//! The oracle is brute force on lasso words with the LTL evaluator: a finite word `u` is a good
//! prefix iff some lasso continuation `v` (prefix ≤ 2 letters, cycle 1–2 letters) has
//! `u·v ⊨ φ`; small formulas over two propositions need no longer continuations.

use crate::ltl::print::to_string;
use crate::rand::{RandLtl, Weights};
use crate::task::{translate_formula, Show, TranslateJob};
use crate::DetOptions;
use crate::{holds, Arena, Lasso, Twa, F};
use std::collections::HashMap;
use verikit_diag::Budget;

fn job(deterministic: bool) -> TranslateJob {
    TranslateJob {
        show: Show::Hoa,
        monitor: true,
        deterministic: deterministic.then(|| DetOptions {
            deterministic: true,
            ..DetOptions::default()
        }),
        ..TranslateJob::default()
    }
}

/// All words of length `n` over the letters `letters`.
fn words(letters: &[u64], n: usize) -> Vec<Vec<u64>> {
    let mut out = vec![Vec::new()];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|w| {
                letters.iter().map(move |&l| {
                    let mut v = w.clone();
                    v.push(l);
                    v
                })
            })
            .collect();
    }
    out
}

/// Some lasso continuation of `u` satisfies `f`.
fn good_prefix(arena: &Arena, f: F, letters: &[u64], u: &[u64]) -> bool {
    for p in 0..=2 {
        for c in 1..=2 {
            for pre in words(letters, p) {
                for cyc in words(letters, c) {
                    let mut prefix = u.to_vec();
                    prefix.extend(&pre);
                    if holds(arena, f, &Lasso { prefix, cycle: cyc }) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// The monitor can read the finite word `u` (letters over the arena's AP numbering).
fn reads(arena: &Arena, m: &Twa, u: &[u64]) -> bool {
    let map: Vec<Option<u32>> = m.aps.iter().map(|n| arena.lookup_ap(n)).collect();
    let conv = |b: u64| {
        map.iter().enumerate().fold(0u64, |o, (i, j)| match j {
            Some(j) if (b >> j) & 1 == 1 => o | 1 << i,
            _ => o,
        })
    };
    let mut cur: Vec<u32> = m.init.clone();
    for &l in u {
        let bits = conv(l);
        let mut next: Vec<u32> = cur
            .iter()
            .flat_map(|&q| m.states[q as usize].iter())
            .filter(|e| m.eval_label(&e.label, bits))
            .map(|e| e.dst)
            .collect();
        next.sort_unstable();
        next.dedup();
        cur = next;
    }
    !cur.is_empty()
}

fn check(text: &str, arena: &Arena, f: F, letters: &[u64], memo: &mut HashMap<Vec<u64>, bool>) {
    for det in [false, true] {
        let (m, _) = translate_formula(text, 0, &job(det), &Budget::unlimited()).unwrap();
        assert_eq!(m.num_sets, 0, "{text}");
        assert!(m.is_generalized_buchi() && m.state_based, "{text}");
        assert!(
            crate::to_hoa(&m).contains("Acceptance: 0 t"),
            "{text}: {}",
            crate::to_hoa(&m)
        );
        if det {
            assert!(m.is_deterministic(), "{text}");
        }
        // An automaton has an initial state, so the empty word is always read (Spot's monitor
        // of `0` is one state without edges); from length 1 on, exactly the good prefixes.
        assert!(reads(arena, &m, &[]), "{text}");
        for n in 1..=3 {
            for u in words(letters, n) {
                let good = *memo
                    .entry(u.clone())
                    .or_insert_with(|| good_prefix(arena, f, letters, &u));
                assert_eq!(
                    reads(arena, &m, &u),
                    good,
                    "{text} (deterministic: {det}) on {u:?}:\n{}",
                    crate::to_hoa(&m)
                );
            }
        }
    }
}

#[test]
fn monitors_read_exactly_the_good_prefixes() {
    let aps: Vec<String> = vec!["a".into(), "b".into()];
    let mut gen = RandLtl::new(aps, 17, Weights::default());
    for _ in 0..40 {
        let mut arena = Arena::new();
        let f = gen.formula_in(&mut arena, 1, 7);
        let text = to_string(&arena, f);
        let ids: Vec<u32> = ["a", "b"]
            .iter()
            .filter_map(|n| arena.lookup_ap(n))
            .collect();
        let letters: Vec<u64> = (0..1u64 << ids.len())
            .map(|m| {
                ids.iter()
                    .enumerate()
                    .fold(0, |o, (i, &j)| o | ((m >> i) & 1) << j)
            })
            .collect();
        check(&text, &arena, f, &letters, &mut HashMap::new());
    }
}

/// Spot's documented monitors: `ltl2tgba -M 'G(a -> X b)'` has 2 states, `GFa` and `FGa` one state
/// with a `[t]` loop (every prefix is good), `a U b` 2 states; `-M -D` the same sizes, the empty
/// language one state without edges.
#[test]
fn monitor_sizes_as_spot() {
    for (f, det, states) in [
        ("G(a -> X b)", true, 2),
        ("GFa", false, 1),
        ("FGa", true, 1),
        ("a U b", false, 2),
        ("a U b", true, 2),
        ("a & !a", false, 1),
    ] {
        let (m, _) = translate_formula(f, 0, &job(det), &Budget::unlimited()).unwrap();
        assert_eq!(m.num_states(), states, "{f}: {}", crate::to_hoa(&m));
    }
    let (m, _) = translate_formula("GFa", 0, &job(false), &Budget::unlimited()).unwrap();
    assert_eq!(m.num_edges(), 1);
    assert!(m.eval_label(&m.states[0][0].label, 0));
    let (m, _) = translate_formula("a & !a", 0, &job(false), &Budget::unlimited()).unwrap();
    assert_eq!(m.num_edges(), 0);
}
