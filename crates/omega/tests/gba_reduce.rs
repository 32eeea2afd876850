//! Language equivalence of the simulation-based reductions (direct, delayed, fair, fair+delayed)
//! on the automata of thousands of random formulas, against independent oracles: the LTL
//! evaluator on random lasso words, emptiness of the product with the automaton of the negation,
//! witnesses of non-emptiness replayed by the evaluator, and complement-based inclusion on small
//! automata.

mod common;

use common::{conv, tiny_buchi};
use rand::{rngs::SmallRng, Rng, SeedableRng};
use verikit_diag::Budget;
use verikit_omega::accepts_lasso;
use verikit_omega::complement;
use verikit_omega::product;
use verikit_omega::Arena;
use verikit_omega::{accepting_lasso, is_empty};
use verikit_omega::{gba_reduce as reduce, ReduceMethod as Method};
use verikit_omega::{holds, Lasso};
use verikit_omega::{translate, TranslateOptions as Options};
use verikit_omega::{RandLtl, Weights};

const METHODS: [Method; 4] = [
    Method::Direct,
    Method::Delayed,
    Method::Fair,
    Method::FairDelayed,
];

/// Returns (total states before, total after per method).
fn check(
    n: usize,
    seed: u64,
    opts: &Options,
    max_size: usize,
    complement_check: bool,
) -> Vec<usize> {
    let nap = 3;
    let aps: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let mut gen = RandLtl::new(aps.clone(), seed, Weights::default());
    let mut rng = SmallRng::seed_from_u64(seed ^ 0x5eed);
    let mut totals = vec![0usize; 1 + METHODS.len()];
    let mut times = [0f64; 4];
    for k in 0..n {
        let mut arena = Arena::new();
        for a in &aps {
            arena.ap_id(a);
        }
        let size = rng.gen_range(3..max_size);
        let f = gen.formula(&mut arena, size);
        let nf = arena.not(f);
        let text = verikit_omega::ltl_to_string(&arena, f);
        let af = translate(&mut arena, f, opts).unwrap();
        let an = translate(&mut arena, nf, &Options::default()).unwrap();
        totals[0] += af.num_states();
        let words: Vec<Lasso> = (0..10)
            .map(|_| Lasso {
                prefix: (0..rng.gen_range(0..4))
                    .map(|_| rng.gen_range(0..1u64 << nap))
                    .collect(),
                cycle: (0..rng.gen_range(1..4))
                    .map(|_| rng.gen_range(0..1u64 << nap))
                    .collect(),
            })
            .collect();
        for (mi, m) in METHODS.iter().enumerate() {
            let (r, st) = reduce(&af, *m, &Budget::unlimited());
            times[mi] += st.time_s;
            totals[1 + mi] += r.num_states();
            assert!(
                r.num_states() <= af.num_states(),
                "#{k} {text}: {m:?} grew the automaton"
            );
            if af.state_based && matches!(m, Method::Delayed) {
                assert!(r.state_based, "#{k} {text}: delayed lost state-basedness");
            }
            // L(r) ⊆ L(f).
            let p = product(&r, &an).unwrap();
            if let Some(l) = accepting_lasso(&p) {
                panic!(
                    "#{k} {text}: {m:?}-reduced automaton accepts {} (violates f); stats {st:?}",
                    l.word_text(&p)
                );
            }
            // Its witnesses satisfy f.
            if let Some(l) = accepting_lasso(&r) {
                let w = conv(&arena, &r, &l.word(&r), false);
                assert!(
                    holds(&arena, f, &w),
                    "#{k} {text}: {m:?} witness violates f"
                );
            } else {
                assert!(is_empty(&af), "#{k} {text}: {m:?} emptied the language");
            }
            // Random lasso words.
            for w in &words {
                let expect = holds(&arena, f, w);
                let got = accepts_lasso(&r, &conv(&arena, &r, w, true));
                assert_eq!(
                    got, expect,
                    "#{k} {text}: {m:?}-reduced membership of {w:?} wrong (oracle {expect}); stats {st:?}"
                );
            }
            // L(f) ⊆ L(r) on small automata: A(f) × complement(r) is empty.
            if complement_check && r.num_states() <= 4 {
                if let Ok(c) = complement(&r) {
                    let p = product(&af, &c).unwrap();
                    if let Some(l) = accepting_lasso(&p) {
                        panic!(
                            "#{k} {text}: {m:?}-reduced automaton misses {}",
                            l.word_text(&p)
                        );
                    }
                }
            }
        }
    }
    eprintln!("reduction times per method: {times:?}");
    totals
}

#[test]
fn reductions_preserve_language_tgba() {
    let t = check(1500, 11, &Options::default(), 16, false);
    eprintln!("tgba totals (before, direct, delayed, fair, fair+delayed): {t:?}");
}

#[test]
fn reductions_preserve_language_raw_tableau() {
    // Without the kernel's post-processing the tableau has many simulation-equivalent states.
    let opts = Options {
        postprocess: false,
        simplify_formula: false,
        wdba: false,
        ..Options::default()
    };
    let t = check(700, 12, &opts, 14, false);
    eprintln!("raw totals (before, direct, delayed, fair, fair+delayed): {t:?}");
    assert!(
        t[2] < t[0] && t[3] < t[0] && t[4] < t[0],
        "no reduction at all: {t:?}"
    );
}

#[test]
fn reductions_preserve_language_sba() {
    let opts = Options {
        sba: true,
        ..Options::default()
    };
    let t = check(1000, 13, &opts, 16, false);
    eprintln!("sba totals (before, direct, delayed, fair, fair+delayed): {t:?}");
}

/// Random small automata (not from LTL, so fair-equivalent states that must not be merged do
/// occur): the reduced automaton and the input include each other, checked by complementation.
/// The rank-based complement dominates the time, and the four methods often return the same
/// automaton (or the input itself): each distinct automaton (by its HOA text) is complemented once.
#[test]
fn reductions_preserve_language_random_automata() {
    let mut rng = SmallRng::seed_from_u64(99);
    let mut changed = 0;
    for k in 0..40 {
        let n = if k % 4 == 0 { 3 } else { 2 };
        // (the rank-based complement is exponential: keep these tiny)
        let a = tiny_buchi(&mut rng, n, false);
        let ca = match complement(&a) {
            Ok(c) => c,
            Err(_) => continue,
        };
        let mut complements = std::collections::HashMap::new();
        complements.insert(verikit_omega::to_hoa(&a), Ok(ca.clone()));
        for m in METHODS {
            let (r, _) = reduce(&a, m, &Budget::unlimited());
            if r.num_states() < a.num_states() || r.num_edges() < a.num_edges() {
                changed += 1;
            }
            let p = product(&r, &ca).unwrap();
            if let Some(l) = accepting_lasso(&p) {
                panic!(
                    "#{k} {m:?}: reduced accepts {} not in the input\n{}\n{}",
                    l.word_text(&p),
                    verikit_omega::to_hoa(&a),
                    verikit_omega::to_hoa(&r)
                );
            }
            let cr = complements
                .entry(verikit_omega::to_hoa(&r))
                .or_insert_with(|| complement(&r));
            if let Ok(cr) = cr {
                let p = product(&a, cr).unwrap();
                if let Some(l) = accepting_lasso(&p) {
                    panic!(
                        "#{k} {m:?}: reduced misses {}\n{}\n{}",
                        l.word_text(&p),
                        verikit_omega::to_hoa(&a),
                        verikit_omega::to_hoa(&r)
                    );
                }
            }
        }
    }
    assert!(changed > 3, "too few reductions to be a test: {changed}");
}
