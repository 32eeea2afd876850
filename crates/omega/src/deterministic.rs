//! The deterministic outputs of `ltl translate -D [-P] [-C]` and `aut determinize`: an
//! orchestrator (as Spot's `postprocessor` with `Deterministic`) over the algorithms it calls —
//! a deterministic generalized Büchi input is kept (`-D`) or recoloured as a parity automaton
//! (`-P`); otherwise [`crate::determinize`] builds a parity automaton. Every parity automaton then
//! goes through colour reduction ([`ParityAut::reduce_colours`]), the bisimulation quotient
//! ([`crate::bisim::merge_bisimilar`], which respects the colours) and colour reduction again,
//! and optionally completion and a change of parity type.

use crate::bisim::merge_bisimilar;
use crate::degen::degeneralize_tba;
use crate::determinize::{determinize, Options};
use crate::error::OmegaError;
use crate::fin_removal::{remove_fin, MAX_CLAUSES};
use crate::parity::{complete_gba, ParityAut, ParityKind};
use crate::scc_info::scc_info;
use crate::twa::Twa;
use crate::zielonka_tree::{to_parity, MAX_MARKS};

/// What to produce.
#[derive(Clone, Debug, Default)]
pub struct DetOptions {
    /// Deterministic (`-D`); without it and without `parity`, only `complete` applies (`-C`).
    pub deterministic: bool,
    /// Parity acceptance even when the input is already deterministic (`-P`).
    pub parity: bool,
    /// Complete (`-C`).
    pub complete: bool,
    /// The parity type to end with (default: whatever colour reduction gives, min even or odd).
    pub kind: Option<ParityKind>,
    pub det: Options,
    /// Finish with the checked state merges of [`crate::det_merge`] (exact, greedy, bounded to
    /// small automata); off by default, on in the `ltl translate` and `aut determinize`
    /// commands (`-x omega.det-merge`).
    pub checked_merges: bool,
    /// Then the exact SAT-based minimisation of [`crate::sat_minimize`] (Büchi or co-Büchi
    /// automata of at most 16 states) within this many SAT conflicts; off (`None`) by default,
    /// on in the `ltl translate` and `aut determinize` commands (`-x omega.det-satmin`,
    /// `-x omega.det-satmin-conflicts`).
    pub sat_minimize: Option<u64>,
}

/// A deterministic generalized Büchi automaton as a `parity min odd` automaton: degeneralised
/// to one set on edges, whose accepting edges (inside accepting SCCs) get colour 1.
pub fn buchi_as_parity(aut: &Twa) -> ParityAut {
    let mut t = if aut.num_sets > 1 {
        degeneralize_tba(aut)
    } else {
        aut.clone()
    };
    let info = scc_info(&t);
    let (k, af) = (t.num_sets, t.acc_false);
    for (s, es) in t.states.iter_mut().enumerate() {
        let c = info.sccs.comp[s];
        for e in es.iter_mut() {
            let acc = !af
                && info.sccs.comp[e.dst as usize] == c
                && info.accepting[c as usize]
                && (k == 0 || e.marks & 1 == 1);
            e.marks = if acc { 2 } else { 0 };
        }
    }
    t.num_sets = 2;
    t.acc_false = false;
    t.acc = None;
    t.state_based = false;
    ParityAut {
        aut: t,
        kind: ParityKind::MIN_ODD,
    }
}

/// Colour reduction, bisimulation quotient, colour reduction.
pub fn simplify_parity(p: &ParityAut) -> ParityAut {
    let r = p.reduce_colours();
    let q = ParityAut {
        aut: merge_bisimilar(&r.aut),
        kind: r.kind,
    };
    q.reduce_colours()
}

/// The smallest deterministic automaton of this pipeline for `aut`'s language, as a [`Twa`]
/// whose acceptance is generalized Büchi (a deterministic input kept as it is, without `parity`)
/// or `parity …` (Spot's names: one colour may read as Büchi or co-Büchi, none as `t`/`f`).
/// A deterministic parity input is simplified; other conditions go through the routes of
/// [`not_buchi`] (ACD-transform if deterministic, Fin removal and determinisation
/// otherwise), or are kept as they are when deterministic and no parity output is asked for.
pub fn deterministic(aut: &Twa, o: &DetOptions) -> Result<Twa, OmegaError> {
    deterministic_pair(aut, None, o)
}

/// [`deterministic`] given also an automaton `neg` of the complement language (the
/// translation of `¬φ`): when `aut` is not deterministic, the complement of the deterministic
/// parity automaton of `neg` (complete, parity flipped) competes with the determinisation of
/// `aut`, and the smaller (states, then colours) is kept. The two determinisations are raced
/// with growing bounds ([`race`]): the loser gives up quietly beyond eight times the states of
/// the winner.
pub fn deterministic_pair(aut: &Twa, neg: Option<&Twa>, o: &DetOptions) -> Result<Twa, OmegaError> {
    if !o.deterministic && !o.parity && o.kind.is_none() {
        if !o.complete {
            return Ok(aut.clone());
        }
        if let Some(p) = ParityAut::from_twa(aut).filter(|_| !aut.is_generalized_buchi()) {
            return Ok(p.complete().into_twa());
        }
        aut.require_gba("completion")?;
        return Ok(complete_gba(aut));
    }
    if aut.is_deterministic() && !o.parity && o.kind.is_none() {
        return Ok(if o.complete {
            if aut.is_generalized_buchi() {
                complete_gba(aut)
            } else {
                let mut t = aut.clone();
                // A complete sink needs a rejecting cycle: only parity conditions are completed here.
                match ParityAut::from_twa(aut) {
                    Some(p) => t = p.complete().into_twa(),
                    None => aut.require_gba("completion")?,
                }
                t
            }
        } else {
            aut.clone()
        });
    }
    let raw = if !aut.is_generalized_buchi() {
        not_buchi(aut, o)?
    } else if aut.is_deterministic() {
        buchi_as_parity(aut)
    } else if let Some(n) = neg.filter(|n| n.is_generalized_buchi()) {
        // Both sides are made (raced), and already simplified.
        return finish(race(aut, n, o)?, o);
    } else {
        determinize(aut, &o.det)?
    };
    o.det.budget.check()?;
    finish(simplify_parity(&raw), o)
}

/// The parity automaton of an input with another condition than generalized Büchi: a parity
/// automaton as it is, another deterministic one through the ACD-transform ([`crate::acd`]; the
/// Zielonka-tree transform [`crate::zielonka_tree`] beyond its limits), a nondeterministic one
/// through [`crate::fin_removal`] (one guessed copy per DNF clause, generalized Büchi) and
/// [`crate::determinize`]. Over the limits of those steps, the condition is refused by name.
fn not_buchi(aut: &Twa, o: &DetOptions) -> Result<ParityAut, OmegaError> {
    if aut.is_deterministic() {
        if let Some(p) = ParityAut::from_twa(aut)
            .or_else(|| crate::acd::to_parity(aut))
            .or_else(|| to_parity(aut))
        {
            return Ok(p);
        }
    } else if let Some(g) = remove_fin(aut) {
        return determinize(&g, &o.det);
    }
    // Over those limits the condition is refused by name (a generalized Büchi input, which
    // never comes here, would pass).
    aut.require_gba(&format!(
        "determinisation of a condition with more than {MAX_MARKS} marks per SCC or {MAX_CLAUSES} DNF clauses"
    ))
    .map(|()| buchi_as_parity(aut))
}

/// Completion and the change of parity type that `o` asks for, then the automaton.
pub(crate) fn finish(mut p: ParityAut, o: &DetOptions) -> Result<Twa, OmegaError> {
    if o.complete {
        p = p.complete();
    }
    if let Some(k) = o.kind {
        if k != p.kind {
            p = p.change_kind(k);
        }
    }
    Ok(p.into_twa())
}

/// The smaller (states, then colours; `a` on a tie) of two deterministic parity automata.
fn smaller(a: ParityAut, b: ParityAut) -> ParityAut {
    let key = |q: &ParityAut| (q.aut.num_states(), q.colours());
    if key(&b) < key(&a) {
        b
    } else {
        a
    }
}

/// `Ok(None)` for a determinisation over its size bound ([`OmegaError::Limit`]); the budget
/// and every other error pass through.
fn within<T>(r: Result<T, OmegaError>) -> Result<Option<T>, OmegaError> {
    match r {
        Ok(t) => Ok(Some(t)),
        Err(OmegaError::Limit(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The determinisation of `aut` (nondeterministic), simplified, with at most `bound` raw
/// macro-states.
fn direct_at(aut: &Twa, bound: usize, o: &DetOptions) -> Result<Option<ParityAut>, OmegaError> {
    let opts = Options {
        max_states: bound,
        ..o.det.clone()
    };
    let r = within(determinize(aut, &opts))?;
    o.det.budget.check()?;
    Ok(r.map(|r| simplify_parity(&r)))
}

/// The two routes to a deterministic parity automaton of `aut`'s language, raced: `aut`
/// determinised, and the complement of `neg`'s deterministic automaton ([`complement_at`]).
/// Either determinisation may blow up while the other stays small (a 15-state automaton whose
/// determinisation has thousands of macro-states while the negation's gives 23 states), so both
/// run with a bound on macro-states that grows fourfold from 64 until one finishes; the other
/// then gets eight times the winner's states and is kept only if smaller. Over
/// `o.det.max_states` on both sides, the determinisation of `aut` reports its limit.
fn race(aut: &Twa, neg: &Twa, o: &DetOptions) -> Result<ParityAut, OmegaError> {
    let max = o.det.max_states;
    let mut bound = 64.min(max);
    loop {
        let direct = direct_at(aut, bound, o)?;
        let dual = complement_at(neg, bound, o)?;
        let second = |best: &ParityAut| (best.aut.num_states() * 8 + 16).min(max);
        return match (direct, dual) {
            (Some(p), Some(c)) => Ok(smaller(p, c)),
            (Some(p), None) => Ok(match complement_at(neg, second(&p), o)? {
                Some(c) => smaller(p, c),
                None => p,
            }),
            (None, Some(c)) => Ok(match direct_at(aut, second(&c), o)? {
                Some(p) => smaller(p, c),
                None => c,
            }),
            (None, None) if bound >= max => determinize(aut, &o.det).map(|r| simplify_parity(&r)),
            (None, None) => {
                bound = bound.saturating_mul(4).min(max);
                continue;
            }
        };
    }
}

/// The complement of a deterministic parity automaton of `neg` (see [`deterministic_pair`]),
/// simplified; `None` if its determinisation needs more than `bound` macro-states.
fn complement_at(neg: &Twa, bound: usize, o: &DetOptions) -> Result<Option<ParityAut>, OmegaError> {
    let raw = if neg.is_deterministic() {
        buchi_as_parity(neg)
    } else {
        let small = Options {
            max_states: bound,
            ..o.det.clone()
        };
        match within(determinize(neg, &small))? {
            Some(r) => r,
            None => return Ok(None),
        }
    };
    let mut c = simplify_parity(&raw).complete();
    c.kind.odd = !c.kind.odd;
    Ok(Some(simplify_parity(&c)))
}
