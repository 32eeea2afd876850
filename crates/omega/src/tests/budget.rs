//! The long-running algorithms of omega honour a `verikit_diag::Budget`: with a cancelled budget
//! they stop at their first poll and answer "nothing done" (reductions return their input, which
//! has the input's language; decisions answer unknown / exhausted). Cancellation is used instead
//! of a deadline so that the tests assert no timing.

use crate::gba_reduce::{reduce, Method};
use crate::ltl::parse::parse;
use crate::ltl::Arena;
use crate::ramsey_inclusion::{included, Inclusion, Limits};
use crate::sim_game::GameSolver;
use crate::translate::{translate, Options};
use crate::{complement, emptiness, little_brothers, postproc, redirect_merge, OmegaError, Twa};
use verikit_diag::{Budget, Exhausted};

fn cancelled() -> Budget {
    let b = Budget::unlimited();
    b.cancel();
    b
}

fn aut(f: &str, opts: &Options) -> Twa {
    let mut a = Arena::new();
    let f = parse(f, &mut a).unwrap();
    translate(&mut a, f, opts).unwrap()
}

fn raw() -> Options {
    Options {
        postprocess: false,
        wdba: false,
        ..Options::default()
    }
}

#[test]
fn translation_stops_with_exhausted() {
    let mut a = Arena::new();
    let f = parse("G(a -> F b) & GF c", &mut a).unwrap();
    let opts = Options {
        budget: cancelled(),
        ..Options::default()
    };
    match translate(&mut a, f, &opts) {
        Err(OmegaError::Exhausted(Exhausted::Cancelled)) => {}
        other => panic!(
            "expected a cancelled translation, got {:?}",
            other.map(|t| t.num_states())
        ),
    }
    // The same formula with an unlimited budget translates.
    assert!(translate(&mut a, f, &Options::default()).is_ok());
}

#[test]
fn reductions_return_their_input_when_cancelled() {
    let t = postproc::simplify(&aut("G(a -> F b) & GF c & F(d U e)", &raw()));
    for m in [Method::Fair, Method::Delayed, Method::FairDelayed] {
        let (r, _) = reduce(&t, m, &cancelled());
        assert_eq!(
            (r.num_states(), r.num_edges()),
            (t.num_states(), t.num_edges()),
            "{m:?}"
        );
    }
    for solver in [GameSolver::RankLifting, GameSolver::Zielonka] {
        let one = crate::degen::degeneralize(&t);
        let input = if solver == GameSolver::Zielonka {
            &one
        } else {
            &t
        };
        match little_brothers::reduce(input, solver, 1_000_000, &cancelled()) {
            None => {}
            Some((r, st)) => {
                assert_eq!(st.kept, 0, "{solver:?}");
                assert_eq!(r.num_states(), input.num_states());
            }
        }
    }
    let b = postproc::to_sba(&t, &cancelled());
    assert!(b.state_based && b.num_sets <= 1);
}

#[test]
fn redirect_merges_stop_when_cancelled() {
    let mut a = Arena::new();
    let f = parse("F(a & X(b U c)) | G d", &mut a).unwrap();
    let nf = a.not(f);
    let t = postproc::simplify(&translate(&mut a, f, &raw()).unwrap());
    let neg = crate::prune::prune(&translate(&mut a, nf, &raw()).unwrap());
    let (r, st) = redirect_merge::reduce(
        &t,
        &neg,
        &postproc::simplify,
        &redirect_merge::Limits::default(),
        &cancelled(),
    );
    assert!(st.out_of_budget);
    assert_eq!(r.num_states(), t.num_states());
}

#[test]
fn decisions_answer_unknown_when_cancelled() {
    let x = aut("GF a", &raw());
    let y = aut("GF a & GF b", &raw());
    assert_eq!(
        included(&x, &y, &Limits::default(), &cancelled()).0,
        Inclusion::Unknown
    );
    // Without the budget the answer is decided (a counterexample: `a` forever, never `b`).
    assert!(matches!(
        included(&x, &y, &Limits::default(), &Budget::unlimited()).0,
        Inclusion::NotIncluded(_)
    ));
    assert!(matches!(
        complement::complement_within(&x, &cancelled()),
        Err(OmegaError::Exhausted(_))
    ));
    assert!(emptiness::accepting_lasso_within(&x, &cancelled()).is_err());
    assert!(emptiness::accepting_lasso_within(&x, &Budget::unlimited())
        .unwrap()
        .is_some());
}

#[test]
fn wdba_minimisation_stops_on_the_budget() {
    // An obligation property the minimisation would determinise (its powerset has several
    // subsets); with a cancelled budget it answers "not minimised" instead of working on.
    let a = aut("(a U b) | G c", &raw());
    let n = aut("!((a U b) | G c)", &raw());
    let live = Budget::unlimited();
    assert!(crate::wdba::minimize_obligation(&a, &n, &live).is_some());
    assert!(crate::wdba::minimize_obligation(&a, &n, &cancelled()).is_none());
}
