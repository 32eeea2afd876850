//! The post-processing orchestrator (as Spot's `postprocessor` at its default `--high` level):
//! [`simplify`] runs the pruning of [`crate::prune`] (unreachable and useless states, acceptance
//! cleanup, subsumed edges), the one-set-per-SCC rewriting of [`crate::scc_acc`], the set sharing
//! of [`crate::scc_sets`], the bisimulation quotient of [`crate::bisim`] and the iterated direct
//! simulation and co-simulation of [`crate::iterated_sim`]; [`to_sba`] keeps the smallest of the
//! degeneralisations of [`crate::degen`] (the level construction, the SCC-aware portfolio, the
//! transition-based route), each simplified, with the checked little-brother removals of
//! [`crate::little_brothers`] when degeneralisation grows. The algorithms never call back into
//! this module: those that need a simplification take it as a function argument.

use crate::bisim::merge_bisimilar;
use crate::degen::{degeneralize, degeneralize_tba, sba_by_outgoing};
use crate::prune::prune_with;
use crate::twa::Twa;
use verikit_diag::Budget;

/// The simplification pipeline: prune, clean acceptance, merge bisimilar states, iterate the
/// direct-simulation reduction. Marks on edges that lie on no cycle are irrelevant to acceptance;
/// the pipeline is run with them cleared and with them all set (which lets a transient state
/// merge with an accepting one), and the smaller result is kept.
pub(crate) fn simplify(aut: &Twa) -> Twa {
    if !aut.is_generalized_buchi() {
        // The cleanups below reason about generalized Büchi marks: other conditions are kept.
        return aut.clone();
    }
    let a = simplify_with(aut, false);
    let b = simplify_with(aut, true);
    if (b.num_states(), b.num_edges()) < (a.num_states(), a.num_edges()) {
        b
    } else {
        a
    }
}

fn simplify_with(aut: &Twa, transient_all: bool) -> Twa {
    let a = prune_with(&crate::scc_acc::simplify_marks(aut), transient_all);
    let a = prune_with(&crate::scc_sets::share_sets(&a), transient_all);
    let a = merge_bisimilar(&a);
    let a = prune_with(&a, transient_all);
    // Iterated direct simulation and co-simulation while they shrink the automaton.
    let cleanup = |b: &Twa| {
        let b = crate::scc_acc::simplify_marks(&prune_with(b, transient_all));
        let b = crate::scc_sets::share_sets(&b);
        prune_with(&merge_bisimilar(&b), transient_all)
    };
    crate::iterated_sim::iterated_simulations(&a, &cleanup)
}

/// The smaller of two state-based Büchi automata for `aut`: the level construction with accepting
/// copies ([`degeneralize`]) and the transition-based levels followed by [`sba_by_outgoing`],
/// each simplified; when the result has more states than `aut`, the checked fair-simulation
/// little-brother removals of [`crate::little_brothers`] (within [`LITTLE_BROTHERS_LOCS`]). When
/// `budget` runs out, the optional steps (removals, portfolio) are skipped: the result is still
/// a state-based Büchi automaton with the language of `aut`.
pub(crate) fn to_sba(aut: &Twa, budget: &Budget) -> Twa {
    let a = simplify(&degeneralize(aut));
    if aut.num_sets == 0 || aut.acc_false || a.num_states() <= 1 || budget.check().is_err() {
        return a;
    }
    let size = |x: &Twa| (x.num_states(), x.num_edges());
    // The removals on a state-based Büchi automaton larger than `aut`, when they make it smaller.
    let removals = |x: &Twa| -> Option<Twa> {
        if x.num_states() <= aut.num_states() || !x.state_based || x.num_sets > 1 {
            return None;
        }
        let r = crate::little_brothers::reduce_passes(x, LITTLE_BROTHERS_LOCS, &simplify, budget);
        (r.state_based && r.num_sets <= 1 && size(&r) < size(x)).then_some(r)
    };
    // The removals on the plain level construction first: when they reach the size of the
    // generalized automaton, the portfolio of degeneralisations is not needed.
    let reduced = if aut.num_sets > 1 { removals(&a) } else { None };
    if let Some(r) = reduced
        .as_ref()
        .filter(|r| r.num_states() <= aut.num_states())
    {
        return r.clone();
    }
    if budget.check().is_err() {
        return reduced.unwrap_or(a);
    }
    let mut best = to_sba_levels(aut, a);
    if let Some(r) = removals(&best) {
        best = r;
    }
    match reduced {
        Some(r) if size(&r) < size(&best) => r,
        _ => best,
    }
}

/// Largest estimated game (locations) of the little-brother removals of [`to_sba`].
pub(crate) const LITTLE_BROTHERS_LOCS: usize = 300_000;

/// The smaller of `a` (the simplified [`degeneralize`] of `aut`), the portfolio of
/// [`crate::degen::best_sba`] and the transition-based route.
fn to_sba_levels(aut: &Twa, a: Twa) -> Twa {
    let size = |x: &Twa| (x.num_states(), x.num_edges());
    let mut best = a;
    if let Some(c) = crate::degen::best_sba(aut, &simplify) {
        if size(&c) < size(&best) {
            best = c;
        }
    }
    // The transition-based route, unless a result as small as the TGBA is already there.
    if best.num_states() > aut.num_states() {
        let b = simplify(&sba_by_outgoing(&simplify(&degeneralize_tba(aut))));
        if b.state_based && b.num_sets <= 1 && size(&b) < size(&best) {
            best = b;
        }
    }
    best
}
