//! Writers keep languages: every automaton written by a writer (`.mata` explicit and bits, BA,
//! Timbuk; DOT is output only) and read back has the same alphabet and the same language, decided
//! by the crate's own equivalence and cross-checked with the subset-construction oracle.

use super::common;

use crate::nfa::reconcile;
use crate::*;
use proptest::prelude::*;

fn arb_nfa(max_states: usize, letters: usize) -> impl Strategy<Value = Nfa> {
    common::arb_nfa(max_states, letters, 2)
}

fn sorted_names(n: &Nfa) -> Vec<String> {
    let mut v = n.alphabet.names().to_vec();
    v.sort();
    v
}

/// Same alphabet (by name) and same language, by HKC and by the subset oracle; universality too.
fn assert_same(before: &Nfa, after: &Nfa, writer: &str) {
    assert_eq!(
        sorted_names(before),
        sorted_names(after),
        "{writer}: alphabet"
    );
    let (x, y, _) = reconcile(before, after);
    let hkc = equivalent(&x, &y, EquivAlgo::Hkc { memo: true }, &Budget::unlimited()).unwrap();
    let oracle = subset::equivalent(&x, &y);
    assert!(
        oracle.holds,
        "{writer}: language changed ({:?})",
        oracle.witness
    );
    assert!(hkc.holds, "{writer}: HKC disagrees with the oracle");
    assert_eq!(
        subset::universal(before).holds,
        subset::universal(after).holds,
        "{writer}: universality changed"
    );
}

/// A writer and the reader of its output, by name.
type Writer = (&'static str, fn(&Nfa) -> String, fn(&str) -> Nfa);

fn writers() -> Vec<Writer> {
    vec![
        ("mata", mata::write, |t| {
            mata::parse_nfa(t).expect("mata reads its own output")
        }),
        ("mata-explicit", mata::write_explicit, |t| {
            mata::parse_nfa(t).expect("mata reads its own output")
        }),
        ("ba", ba::write, |t| {
            ba::parse(t).expect("BA reads its own output")
        }),
        ("timbuk", timbuk::write, |t| {
            timbuk::parse(t).expect("Timbuk reads its own output")
        }),
    ]
}

/// A random `@NFA-bits` text over atoms `a1..a3` (labels: literals, conjunctions, disjunctions).
fn arb_bits() -> impl Strategy<Value = String> {
    let lit = (1u32..=3, any::<bool>())
        .prop_map(|(i, pos)| format!("{}a{i}", if pos { "" } else { "!" }));
    let label = prop_oneof![
        lit.clone(),
        (lit.clone(), lit.clone()).prop_map(|(x, y)| format!("({x} & {y})")),
        (lit.clone(), lit).prop_map(|(x, y)| format!("({x} | {y})")),
        Just("\\true".to_string()),
    ];
    (1usize..=4).prop_flat_map(move |n| {
        let edges = proptest::collection::vec((0..n, label.clone(), 0..n), 0..6);
        let finals = proptest::collection::vec(0..n, 0..n + 1);
        (edges, finals).prop_map(|(edges, finals)| {
            let mut s = String::from("@NFA-bits\n%Initial q0\n%Final");
            for f in finals {
                s.push_str(&format!(" q{f}"));
            }
            s.push('\n');
            for (p, l, q) in edges {
                s.push_str(&format!("q{p} {l} q{q}\n"));
            }
            s
        })
    })
}

/// A `@NFA-bits` automaton, written and read back: it is `@NFA-bits` again and, mintermised jointly
/// with the original, has the same language; universality is kept.
fn assert_bits_round_trip(text: &str) {
    let orig = mata::parse(text).expect("generated input parses");
    let before = mata::parse_nfa(text).expect("generated input builds");
    let written = mata::write(&before);
    let back = mata::parse(&written).expect("mata reads its own output");
    assert_eq!(back.kind, mata::MataKind::Bits, "written as:\n{written}");
    let v = mata::build(&[orig, back]).expect("joint mintermisation");
    let (a, b) = (&v[0], &v[1]);
    assert!(
        subset::equivalent(a, b).holds,
        "{text}\nwritten as:\n{written}"
    );
    assert!(
        equivalent(a, b, EquivAlgo::Hkc { memo: true }, &Budget::unlimited())
            .unwrap()
            .holds
    );
    let after = mata::parse_nfa(&written).expect("written automaton builds");
    assert_eq!(
        subset::universal(&before).holds,
        subset::universal(&after).holds,
        "{text}\nwritten as:\n{written}"
    );
    // Every other writer keeps the (mintermised) alphabet and language too. (`@NFA-bits` output is
    // compared above: mintermised alone, its formulas may join classes the original kept apart.)
    for (name, write, read) in writers().into_iter().filter(|w| w.0 != "mata") {
        assert_same(&before, &read(&write(&before)), name);
    }
}

/// Issue 18 item 4: a letter without a transition (`!a1`) is part of Σ, so the automaton below is
/// not universal — before and after conversion.
#[test]
fn bits_letter_without_transition_survives() {
    let text = "@NFA-bits\n%Initial q0\n%Final q0\nq0 a1 q0\n";
    let before = mata::parse_nfa(text).unwrap();
    assert!(!subset::universal(&before).holds);
    assert_bits_round_trip(text);
    // An explicit automaton whose alphabet declares an unused letter.
    let e = mata::parse_nfa("@NFA-explicit\n%Alphabet-enum a b\n%Initial p\n%Final p\np a p\n")
        .unwrap();
    assert!(!subset::universal(&e).holds);
    for (name, write, read) in writers() {
        assert_same(&e, &read(&write(&e)), name);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn every_writer_keeps_the_language(a in (1usize..=3).prop_flat_map(|k| arb_nfa(5, k))) {
        for (name, write, read) in writers() {
            assert_same(&a, &read(&write(&a)), name);
        }
    }

    #[test]
    fn bits_round_trip_keeps_the_language(text in arb_bits()) {
        assert_bits_round_trip(&text);
    }
}
