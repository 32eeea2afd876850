//! ltlcross-style cross-checks of the translation against an independent oracle (the direct LTL
//! evaluator on lasso words) on thousands of random formulas.

#[allow(dead_code)] // each test binary uses part of the shared helpers
mod common;

use rand::{rngs::SmallRng, Rng, SeedableRng};
use verikit_omega::accepting_lasso;
use verikit_omega::accepts_lasso;
use verikit_omega::product;
use verikit_omega::Arena;
use verikit_omega::{holds, Lasso};
use verikit_omega::{translate, TranslateOptions as Options};
use verikit_omega::{RandLtl, Weights};

/// A random lasso word: a prefix of 0–3 and a cycle of 1–3 letters below `letters`.
fn random_lasso(rng: &mut SmallRng, letters: u64) -> Lasso {
    common::random_lasso(rng, 4, letters)
}

fn check(n: usize, seed: u64, sba: bool, nap: usize, max_size: usize) {
    check_with(n, seed, sba, nap, max_size, Weights::default(), |_, f| f);
}

fn check_with(
    n: usize,
    seed: u64,
    sba: bool,
    nap: usize,
    max_size: usize,
    weights: Weights,
    wrap: fn(&mut Arena, verikit_omega::F) -> verikit_omega::F,
) {
    let aps: Vec<String> = ["a", "b", "c", "d"]
        .iter()
        .take(nap)
        .map(|s| s.to_string())
        .collect();
    let mut gen = RandLtl::new(aps.clone(), seed, weights);
    let mut rng = SmallRng::seed_from_u64(seed ^ 0xabcdef);
    let opts = Options {
        sba,
        ..Options::default()
    };
    for k in 0..n {
        let mut arena = Arena::new();
        for a in &aps {
            arena.ap_id(a);
        }
        let size = rng.gen_range(2..max_size);
        let f = gen.formula(&mut arena, size);
        let f = wrap(&mut arena, f);
        let nf = arena.not(f);
        let text = verikit_omega::ltl_to_string(&arena, f);
        let af = translate(&mut arena, f, &opts).unwrap_or_else(|e| panic!("{text}: {e}"));
        let an = translate(&mut arena, nf, &opts).unwrap_or_else(|e| panic!("!({text}): {e}"));
        if sba {
            assert!(af.state_based && an.state_based, "{text}: not state-based");
        }
        // A(f) x A(!f) is empty.
        let p = product(&af, &an).unwrap();
        if let Some(l) = accepting_lasso(&p) {
            panic!(
                "#{k} {text}: A(f) and A(!f) both accept {}",
                l.word_text(&p)
            );
        }
        // Witnesses of non-emptiness satisfy the formula.
        for (aut, g, what) in [(&af, f, "f"), (&an, nf, "!f")] {
            if let Some(l) = accepting_lasso(aut) {
                let w = common::conv(&arena, aut, &l.word(aut), false);
                assert!(
                    holds(&arena, g, &w),
                    "#{k} {text}: witness of A({what}) violates it: {}",
                    l.word_text(aut)
                );
            }
        }
        // Random lasso words: membership agrees with the oracle.
        for _ in 0..12 {
            let w = random_lasso(&mut rng, 1u64 << nap);
            let expect = holds(&arena, f, &w);
            let got = accepts_lasso(&af, &common::conv(&arena, &af, &w, true));
            assert_eq!(
                got, expect,
                "#{k} {text}: A(f) membership of {:?} wrong (oracle {expect})",
                w
            );
            let got_n = accepts_lasso(&an, &common::conv(&arena, &an, &w, true));
            assert_eq!(
                got_n, !expect,
                "#{k} {text}: A(!f) membership of {:?} wrong",
                w
            );
        }
    }
}

#[test]
fn tgba_random_formulas() {
    check(1500, 1, false, 3, 16);
}

#[test]
fn tgba_larger_random_formulas() {
    check(700, 3, false, 4, 26);
}

/// `GF g` for random guarantee formulas `g` (no `G`, `R`, `W`; negations only on atoms after
/// NNF), which the translation may build by the deterministic `gf_guarantee` construction.
#[test]
fn gf_guarantee_random_formulas() {
    let w = Weights::parse("G=0,R=0,W=0,not=0,implies=0,equiv=0,xor=0,X=2,U=2,M=2").unwrap();
    let wrap: fn(&mut Arena, verikit_omega::F) -> verikit_omega::F = |a, f| {
        let ff = a.ev(f);
        a.gl(ff)
    };
    check_with(300, 5, false, 3, 12, w.clone(), wrap);
    check_with(200, 6, true, 3, 12, w, wrap);
}

#[test]
fn sba_random_formulas() {
    check(800, 2, true, 3, 16);
}

#[test]
fn simplifier_preserves_meaning_on_lassos() {
    let aps: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let mut gen = RandLtl::new(aps.clone(), 77, Weights::default());
    let mut rng = SmallRng::seed_from_u64(78);
    for _ in 0..3000 {
        let mut arena = Arena::new();
        for a in &aps {
            arena.ap_id(a);
        }
        let f = gen.formula_in(&mut arena, 2, 22);
        let g = verikit_omega::simplify_ltl(&mut arena, f);
        for _ in 0..20 {
            let w = random_lasso(&mut rng, 8);
            assert_eq!(
                holds(&arena, f, &w),
                holds(&arena, g, &w),
                "{} simplified to {} differs on {w:?}",
                verikit_omega::ltl_to_string(&arena, f),
                verikit_omega::ltl_to_string(&arena, g)
            );
        }
    }
}

/// The first-occurrence rewriting `F(x & e) | G !x = !x W (x & e)` (e eventual) on random `x`,
/// `e` and a random third disjunct: the simplified formula agrees with the original on random
/// lassos, and the automaton of `f & !simplified` is empty (so is the converse).
#[test]
fn first_occurrence_rule_is_exact() {
    let aps: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let mut gen = RandLtl::new(aps.clone(), 91, Weights::default());
    let mut rng = SmallRng::seed_from_u64(92);
    let mut fired = 0;
    for _ in 0..300 {
        let mut arena = Arena::new();
        for a in &aps {
            arena.ap_id(a);
        }
        let x = gen.formula_in(&mut arena, 1, 6);
        let y = gen.formula_in(&mut arena, 1, 6);
        let e = arena.ev(y);
        let r = gen.formula_in(&mut arena, 1, 6);
        let xe = arena.and2(x, e);
        let fxe = arena.ev(xe);
        let nx = arena.not(x);
        let nx = verikit_omega::nnf(&mut arena, nx);
        let gnx = arena.gl(nx);
        let f = arena.or(vec![fxe, gnx, r]);
        let g = verikit_omega::simplify_ltl(&mut arena, f);
        if verikit_omega::ltl_to_string(&arena, g).contains(" W ") {
            fired += 1;
        }
        for _ in 0..20 {
            let w = random_lasso(&mut rng, 8);
            assert_eq!(holds(&arena, f, &w), holds(&arena, g, &w));
        }
        let opts = Options {
            simplify_formula: false,
            ..Options::default()
        };
        for (p, q) in [(f, g), (g, f)] {
            let nq = arena.not(q);
            let both = arena.and2(p, nq);
            let aut = translate(&mut arena, both, &opts).unwrap();
            assert!(
                accepting_lasso(&aut).is_none(),
                "{} and {} differ",
                verikit_omega::ltl_to_string(&arena, f),
                verikit_omega::ltl_to_string(&arena, g)
            );
        }
    }
    assert!(fired > 30, "the rule fired on {fired} formulas only");
}
