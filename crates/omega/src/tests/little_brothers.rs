//! The checked fair-simulation little-brother removals of `little_brothers` (Zielonka's algorithm
//! deciding each batch), forced on small automata whatever the pipeline would choose, against
//! independent oracles: complement-based inclusion both ways on random tiny Büchi automata; for
//! degeneralised automata of random formulas, emptiness of the product with the automaton of the
//! negation, witnesses replayed by the LTL evaluator, and random lasso words against the
//! evaluator.

use super::common;

use crate::accepts::accepts_lasso;
use crate::complement::complement;
use crate::emptiness::accepting_lasso;
use crate::ltl::eval::{holds, Lasso};
use crate::ltl::Arena;
use crate::product::product;
use crate::rand::{RandLtl, Weights};
use crate::sim_game::GameSolver;
use crate::translate::{translate, Options};
use crate::{degen, little_brothers, postproc};
use common::{conv, tiny_buchi};
use rand::{rngs::SmallRng, Rng, SeedableRng};

/// Random tiny Büchi automata (state- and transition-based marks, one AP): the reduced
/// automaton and the input include each other (rank-based complementation).
#[test]
fn removals_keep_the_language_of_random_automata() {
    let mut rng = SmallRng::seed_from_u64(2024);
    let (mut removed, mut tried) = (0, 0);
    for k in 0..60 {
        let n = if k % 4 == 0 { 3 } else { 2 };
        let mut a = tiny_buchi(&mut rng, n, k % 2 == 0);
        a.state_based = a.compute_state_based();
        let Some((r, st)) = little_brothers::reduce(
            &a,
            GameSolver::Zielonka,
            1_000_000,
            &verikit_diag::Budget::unlimited(),
        ) else {
            panic!("#{k}: a tiny automaton was refused");
        };
        tried += st.candidates;
        removed += st.kept;
        assert!(st.kept <= st.candidates);
        if a.state_based {
            assert!(r.state_based, "#{k}: lost state-based acceptance");
        }
        let (Ok(ca), Ok(cr)) = (complement(&a), complement(&r)) else {
            continue;
        };
        let show = || format!("{}\n{}", crate::hoa::to_hoa(&a), crate::hoa::to_hoa(&r));
        let p = product(&r, &ca).unwrap();
        if let Some(l) = accepting_lasso(&p) {
            panic!(
                "#{k}: reduced accepts {} not in the input\n{}",
                l.word_text(&p),
                show()
            );
        }
        let p = product(&a, &cr).unwrap();
        if let Some(l) = accepting_lasso(&p) {
            panic!("#{k}: reduced misses {}\n{}", l.word_text(&p), show());
        }
    }
    assert!(
        removed > 5,
        "too few removals to be a test: {removed} of {tried}"
    );
    assert!(
        removed < tried,
        "no candidate was ever rejected: {removed} of {tried}"
    );
}

/// Degeneralised automata of random formulas, from the unsimplified tableau (so that there is
/// something to remove) and from the simplified TGBA (the `-B` pipeline's input), reduced by one
/// pass of `reduce` and by the passes of `reduce_passes`, whatever their size.
#[test]
fn removals_keep_the_language_of_degeneralised_formulas() {
    let aps: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let mut gen = RandLtl::new(aps.clone(), 31, Weights::default());
    let mut rng = SmallRng::seed_from_u64(31);
    let (mut kept, mut candidates) = (0, 0);
    let raw_opts = Options {
        postprocess: false,
        ..Options::default()
    };
    for k in 0..200 {
        let mut arena = Arena::new();
        for a in &aps {
            arena.ap_id(a);
        }
        let size = rng.gen_range(4..16);
        let f = gen.formula(&mut arena, size);
        let nf = arena.not(f);
        let text = crate::ltl::print::to_string(&arena, f);
        let raw = translate(&mut arena, f, &raw_opts).unwrap();
        let tgba = translate(&mut arena, f, &Options::default()).unwrap();
        let an = translate(&mut arena, nf, &Options::default()).unwrap();
        let d_raw = degen::degeneralize(&raw);
        let d = postproc::simplify(&degen::degeneralize(&tgba));
        let mut reduced = Vec::new();
        if let Some((r, st)) = little_brothers::reduce(
            &d_raw,
            GameSolver::Zielonka,
            400_000,
            &verikit_diag::Budget::unlimited(),
        ) {
            kept += st.kept;
            candidates += st.candidates;
            reduced.push(r);
        }
        reduced.push(little_brothers::reduce_passes(
            &d,
            400_000,
            &postproc::simplify,
            &verikit_diag::Budget::unlimited(),
        ));
        for r in reduced {
            assert!(r.num_sets <= 1, "#{k} {text}");
            let p = product(&r, &an).unwrap();
            if let Some(l) = accepting_lasso(&p) {
                panic!("#{k} {text}: reduced automaton accepts {}", l.word_text(&p));
            }
            match accepting_lasso(&r) {
                Some(l) => {
                    let w = conv(&arena, &r, &l.word(&r), false);
                    assert!(holds(&arena, f, &w), "#{k} {text}: witness violates f");
                }
                None => assert!(
                    accepting_lasso(&d).is_none(),
                    "#{k} {text}: removals emptied the language"
                ),
            }
            for _ in 0..12 {
                let w = common::random_lasso(&mut rng, 4, 8);
                let expect = holds(&arena, f, &w);
                assert_eq!(
                    accepts_lasso(&r, &conv(&arena, &r, &w, true)),
                    expect,
                    "#{k} {text}: membership of {w:?} (oracle {expect})"
                );
            }
        }
    }
    assert!(
        kept > 20,
        "too few removals to be a test: {kept} of {candidates}"
    );
    assert!(kept < candidates, "no candidate was ever rejected");
}

/// The formula that motivated the removals: Spot 2.12.1's `ltl2tgba -B` needs 75 states; the
/// degeneralisation alone about 80. The result is checked against the automaton of the negation
/// and on all lassos of up to 1 + 2 letters.
#[test]
fn removals_shrink_the_degeneralisation_of_a_six_set_formula() {
    let mut arena = Arena::new();
    let f = crate::ltl::parse::parse(
        "G(((Xb R ((Fc & F!d) | G(!c & d))) M (!d U a)) M XG(c | F!a | XGc))",
        &mut arena,
    )
    .unwrap();
    let opts = Options {
        sba: true,
        ..Options::default()
    };
    let b = translate(&mut arena, f, &opts).unwrap();
    assert!(b.state_based && b.num_sets == 1);
    assert!(b.num_states() < 75, "{} states", b.num_states());
    let nf = arena.not(f);
    let an = translate(&mut arena, nf, &Options::default()).unwrap();
    let p = product(&b, &an).unwrap();
    assert!(accepting_lasso(&p).is_none());
    let letters = 1u64 << arena.aps().len();
    for w in Lasso::all(letters, 1, 2) {
        assert_eq!(
            accepts_lasso(&b, &conv(&arena, &b, &w, true)),
            holds(&arena, f, &w),
            "{w:?}"
        );
    }
}
