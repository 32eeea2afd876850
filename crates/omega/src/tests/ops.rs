//! Complementation, products, membership of words in Spot syntax, degeneralisation: checked
//! against the LTL evaluator on random lasso words.

use super::common::random_lasso;
use crate::accepts::{accepts, accepts_lasso};
use crate::ltl::eval::{holds, Lasso};
use crate::ltl::Arena;
use crate::rand::{RandLtl, Weights};
use crate::translate::{translate, Options};
use crate::{
    complement::complement, degen, emptiness, postproc, product::product, word::parse_word,
    OmegaError,
};
use rand::{rngs::SmallRng, SeedableRng};

/// Letters over the arena's APs (a, b = bits 0, 1) to letters over `aps`.
fn conv(aps: &[String], w: &Lasso) -> Lasso {
    let bit = |b: u64, name: &str| match name {
        "a" => b & 1,
        "b" => (b >> 1) & 1,
        _ => 0,
    };
    let c = |b: &u64| {
        aps.iter()
            .enumerate()
            .fold(0u64, |o, (i, n)| o | (bit(*b, n) << i))
    };
    Lasso {
        prefix: w.prefix.iter().map(c).collect(),
        cycle: w.cycle.iter().map(c).collect(),
    }
}

#[test]
fn complement_of_small_automata() {
    let aps = vec!["a".to_string(), "b".to_string()];
    let mut gen = RandLtl::new(aps.clone(), 11, Weights::default());
    let mut rng = SmallRng::seed_from_u64(5);
    let mut done = 0;
    for _ in 0..150 {
        let mut arena = Arena::new();
        arena.ap_id("a");
        arena.ap_id("b");
        let f = gen.formula_in(&mut arena, 2, 8);
        let a = translate(&mut arena, f, &Options::default()).unwrap();
        if degen::degeneralize(&a).num_states() > 3 {
            continue;
        }
        let c = match complement(&a) {
            Ok(c) => c,
            Err(OmegaError::Limit(_)) => continue,
            Err(e) => panic!("{e}"),
        };
        done += 1;
        let text = crate::ltl::print::to_string(&arena, f);
        assert!(
            emptiness::is_empty(&product(&a, &c).unwrap()),
            "{text}: A and its complement intersect"
        );
        for _ in 0..20 {
            let w = random_lasso(&mut rng, 3, 4);
            let sat = holds(&arena, f, &w);
            assert_eq!(
                accepts_lasso(&c, &conv(&c.aps, &w)),
                !sat,
                "{text}: complement wrong on {w:?}"
            );
        }
    }
    assert!(done > 60, "only {done} complements were small enough");
}

#[test]
fn words_in_spot_syntax() {
    let mut arena = Arena::new();
    let f = crate::ltl::parse::parse("a U G b", &mut arena).unwrap();
    let a = translate(&mut arena, f, &Options::default()).unwrap();
    let yes = parse_word("a & !b; a & !b; cycle{b & !a}").unwrap();
    let no = parse_word("a & !b; !a & !b; cycle{b & a}").unwrap();
    assert!(accepts(&a, &yes).unwrap());
    assert!(!accepts(&a, &no).unwrap());
    // One semantics (Spot's: a letter is a full valuation): partial letters, contradictory
    // letters and unknown propositions are rejected with a located error, never guessed.
    for (bad, at) in [
        ("cycle{b}", 6),
        ("a; cycle{b & !a}", 0),
        ("a & !b; cycle{a & !a & b}", 14),
        ("a & !b; cycle{a | b}", 14),
        ("c; cycle{b & c}", 0),
    ] {
        match accepts(&a, &parse_word(bad).unwrap()) {
            Err(OmegaError::Syntax(d)) => assert_eq!(d.span.map(|s| s.start), Some(at), "{bad}"),
            other => panic!("{bad}: expected a located error, got {other:?}"),
        }
    }
    assert!(accepts(
        &a,
        &parse_word("a & !b; cycle{(a | !a) & b & !!a}").unwrap()
    )
    .unwrap());
    for bad in [
        "a; b",
        "a;; cycle{b}",
        "cycle{a",
        "cycle{} ",
        "a cycle{b}",
        "cycle{b} x",
    ] {
        assert!(parse_word(bad).is_err(), "{bad} should be rejected");
    }
    verikit_testkit::assert_parser_total(&["a & !b; a; cycle{b; !a | c}"], 2000, parse_word);
}

#[test]
fn products_and_degeneralisation_preserve_languages() {
    let aps = vec!["a".to_string(), "b".to_string()];
    let mut gen = RandLtl::new(aps, 3, Weights::default());
    let mut rng = SmallRng::seed_from_u64(9);
    for _ in 0..300 {
        let mut arena = Arena::new();
        arena.ap_id("a");
        arena.ap_id("b");
        let f = gen.formula_in(&mut arena, 2, 12);
        let g = gen.formula_in(&mut arena, 2, 12);
        let raw = Options {
            simplify_formula: false,
            postprocess: false,
            wdba: false,
            ..Options::default()
        };
        let af = translate(&mut arena, f, &raw).unwrap();
        let ag = translate(&mut arena, g, &Options::default()).unwrap();
        let p = product(&af, &ag).unwrap();
        let d = postproc::simplify(&degen::degeneralize(&p));
        assert!(d.state_based && d.num_sets <= 1);
        let s = postproc::to_sba(&p, &verikit_diag::Budget::unlimited());
        assert!(s.state_based && s.num_sets <= 1);
        let t = degen::sba_by_outgoing(&degen::degeneralize_tba(&p));
        assert!(t.state_based && t.num_sets <= 1);
        for _ in 0..10 {
            let w = random_lasso(&mut rng, 3, 4);
            let both = holds(&arena, f, &w) && holds(&arena, g, &w);
            assert_eq!(accepts_lasso(&p, &conv(&p.aps, &w)), both);
            assert_eq!(accepts_lasso(&d, &conv(&d.aps, &w)), both);
            assert_eq!(accepts_lasso(&s, &conv(&s.aps, &w)), both);
            assert_eq!(accepts_lasso(&t, &conv(&t.aps, &w)), both);
        }
        if let Some(l) = emptiness::accepting_lasso(&p) {
            let w = l.word(&p);
            // Convert back to the arena's bits (a = bit 0, b = bit 1).
            let back = |b: &u64| {
                p.aps.iter().enumerate().fold(0u64, |o, (i, n)| {
                    let bit = (b >> i) & 1;
                    o | match n.as_str() {
                        "a" => bit,
                        "b" => bit << 1,
                        _ => 0,
                    }
                })
            };
            let w2 = Lasso {
                prefix: w.prefix.iter().map(back).collect(),
                cycle: w.cycle.iter().map(back).collect(),
            };
            assert!(
                holds(&arena, f, &w2) && holds(&arena, g, &w2),
                "lasso witness is not in the intersection"
            );
        }
    }
}
