//! `ramsey_inclusion::included` against independent oracles: complement-based inclusion
//! (`L(A) ⊗ complement(B)` empty, rank-based complementation) on random tiny automata
//! (state- and transition-based, one or two acceptance sets, one or two APs), every
//! counterexample replayed on both automata; and inclusions between automata of random LTL
//! formulas decided by the LTL evaluator on the returned words and by the automaton of the
//! negation.

use super::common;

use crate::accepts_lasso;
use crate::complement;
use crate::holds;
use crate::is_empty;
use crate::ramsey_inclusion::{included, Inclusion, Limits};
use crate::Arena;
use crate::{ap_union, product};
use crate::{degen, postproc, Twa};
use crate::{translate, TranslateOptions as Options};
use crate::{RandLtl, Weights};
use common::{conv, tiny_buchi};
use rand::{rngs::SmallRng, Rng, SeedableRng};

/// A random automaton with `n` states over the APs `aps`, `k` acceptance sets, one to three
/// edges per state with literal or `true` labels and random marks.
fn random_gba(rng: &mut SmallRng, aps: &[&str], n: u32, k: u32) -> Twa {
    let mut a = Twa::new(aps.iter().map(|s| s.to_string()).collect());
    a.num_sets = k;
    for _ in 0..n {
        a.add_state();
    }
    for s in 0..n {
        for _ in 0..rng.gen_range(1..4) {
            let i = rng.gen_range(0..aps.len());
            let l = match rng.gen_range(0..3) {
                0 => a.tt(),
                1 => a.ap_var(i),
                _ => a.ap_var(i).not(),
            };
            let m = rng.gen_range(0..(1u64 << k));
            let d = rng.gen_range(0..n);
            a.add_edge(s, d, l, m);
        }
    }
    a.init = vec![0];
    a
}

/// The oracle: `L(a) ⊆ L(b)` iff `a ⊗ complement(b)` is empty.
/// `None` when `b`'s state-based Büchi automaton has more than 3 states (the rank-based
/// complement grows too fast beyond) or is beyond the complementation's limits.
fn oracle(a: &Twa, b: &Twa) -> Option<bool> {
    if degen::degeneralize(&postproc::simplify(b)).num_states() > 3 {
        return None;
    }
    let c = complement(b).ok()?;
    Some(is_empty(&product(a, &c).unwrap()))
}

/// Compares with the oracle; `None` when the oracle is out of its limits.
fn check(a: &Twa, b: &Twa) -> Option<bool> {
    let expected = oracle(a, b)?;
    let (r, _) = included(a, b, &Limits::default(), &verikit_diag::Budget::unlimited());
    match r {
        Inclusion::Included => assert!(expected, "claimed included"),
        Inclusion::NotIncluded(w) => {
            assert!(!expected, "claimed not included");
            let aps = ap_union(&a.aps, &b.aps);
            assert!(accepts_lasso(&a.with_aps(aps.clone()), &w), "{w:?}");
            assert!(!accepts_lasso(&b.with_aps(aps), &w), "{w:?}");
        }
        Inclusion::Unknown => panic!("unknown on tiny automata"),
    }
    Some(expected)
}

#[test]
fn agrees_with_complementation_on_random_buchi_automata() {
    let mut rng = SmallRng::seed_from_u64(133);
    let mut counts = [0usize; 2];
    for k in 0..400 {
        let (na, nb) = (rng.gen_range(1..4), rng.gen_range(1..4));
        let a = tiny_buchi(&mut rng, na, k % 2 == 0);
        let b = tiny_buchi(&mut rng, nb, k % 3 == 0);
        if let Some(r) = check(&a, &b) {
            counts[r as usize] += 1;
        }
    }
    // Both answers occur.
    assert!(counts[0] > 40 && counts[1] > 40, "{counts:?}");
}

#[test]
fn agrees_with_complementation_on_generalized_automata_over_two_aps() {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut counts = [0usize; 2];
    for _ in 0..200 {
        let (ka, kb) = (rng.gen_range(0..3), rng.gen_range(0..3));
        let na = rng.gen_range(1..4);
        let a = random_gba(&mut rng, &["a", "b"], na, ka);
        // `b` over the APs in the other order or over one of them only.
        let aps: &[&str] = match rng.gen_range(0..3) {
            0 => &["b", "a"],
            1 => &["a"],
            _ => &["a", "b"],
        };
        let nb = rng.gen_range(1..3);
        let b = random_gba(&mut rng, aps, nb, kb);
        if let Some(r) = check(&a, &b) {
            counts[r as usize] += 1;
        }
    }
    assert!(counts[0] > 20 && counts[1] > 20, "{counts:?}");
}

/// Automata of random formulas `f`, `g` and of `f & g`, `f | g`: `A(f & g) ⊆ A(f) ⊆ A(f | g)`
/// are included; `A(f) ⊆ A(g)` is decided, a counterexample is a model of `f` and not of `g`
/// (LTL evaluator), and an inclusion is confirmed by `A(f) ⊗ A(¬g)` empty.
#[test]
fn inclusions_between_automata_of_random_formulas() {
    let mut arena = Arena::new();
    let aps: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let mut gen = RandLtl::new(aps, 5, Weights::default());
    let opts = Options::default();
    let mut seen = [0usize; 2];
    for _ in 0..60 {
        let f = gen.formula_in(&mut arena, 4, 10);
        let g = gen.formula_in(&mut arena, 4, 10);
        let fg = arena.and2(f, g);
        let f_or_g = arena.or2(f, g);
        let ng = arena.not(g);
        let (Ok(af), Ok(ag), Ok(afg), Ok(aforg), Ok(ang)) = (
            translate(&mut arena, f, &opts),
            translate(&mut arena, g, &opts),
            translate(&mut arena, fg, &opts),
            translate(&mut arena, f_or_g, &opts),
            translate(&mut arena, ng, &opts),
        ) else {
            continue;
        };
        let lim = Limits::default();
        assert_eq!(
            included(&afg, &af, &lim, &verikit_diag::Budget::unlimited()).0,
            Inclusion::Included
        );
        assert_eq!(
            included(&af, &aforg, &lim, &verikit_diag::Budget::unlimited()).0,
            Inclusion::Included
        );
        match included(&af, &ag, &lim, &verikit_diag::Budget::unlimited()).0 {
            Inclusion::Included => {
                seen[1] += 1;
                assert!(is_empty(&product(&af, &ang).unwrap()));
            }
            Inclusion::NotIncluded(w) => {
                seen[0] += 1;
                let both = Twa::new(ap_union(&af.aps, &ag.aps));
                let w = conv(&arena, &both, &w, false);
                assert!(holds(&arena, f, &w) && !holds(&arena, g, &w));
            }
            Inclusion::Unknown => panic!("unknown"),
        }
    }
    assert!(seen[0] > 10 && seen[1] > 2, "{seen:?}");
}

/// `Options::redirect_merges` on random formulas (ltlcross-style): the automaton has an empty
/// product with the automaton of the negation, includes the default translation's automaton
/// (so both have the language of the formula), is never larger, and agrees with the LTL
/// evaluator on random lasso words.
#[test]
fn redirect_merges_keep_the_language_of_random_formulas() {
    let mut arena = Arena::new();
    let aps: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let mut gen = RandLtl::new(aps, 11, Weights::default());
    let mut rng = SmallRng::seed_from_u64(11);
    let with = Options {
        redirect_merges: true,
        ..Options::default()
    };
    let mut smaller = 0;
    for _ in 0..40 {
        let f = gen.formula_in(&mut arena, 14, 24);
        let nf = arena.not(f);
        let (Ok(d), Ok(r), Ok(n)) = (
            translate(&mut arena, f, &Options::default()),
            translate(&mut arena, f, &with),
            translate(&mut arena, nf, &Options::default()),
        ) else {
            continue;
        };
        assert!(r.num_states() <= d.num_states());
        smaller += (r.num_states() < d.num_states()) as usize;
        assert!(is_empty(&product(&r, &n).unwrap()));
        assert_eq!(
            included(
                &d,
                &r,
                &Limits::default(),
                &verikit_diag::Budget::unlimited()
            )
            .0,
            Inclusion::Included
        );
        for _ in 0..50 {
            let w = crate::Lasso {
                prefix: (0..rng.gen_range(0..3))
                    .map(|_| rng.gen_range(0..8))
                    .collect(),
                cycle: (0..rng.gen_range(1..4))
                    .map(|_| rng.gen_range(0..8))
                    .collect(),
            };
            let wa = conv(&arena, &r, &w, true);
            assert_eq!(accepts_lasso(&r, &wa), holds(&arena, f, &w), "{w:?}");
        }
    }
    eprintln!("redirect merges: {smaller} of 40 smaller");
}
