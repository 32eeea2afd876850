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
use crate::parity::{complete_gba, ParityAut, ParityKind};
use crate::scc_info::scc_info;
use crate::twa::Twa;

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
/// A parity input is simplified; other non-Büchi conditions are refused by name
/// ([`OmegaError::Unsupported`]) unless the input is deterministic and kept as it is.
pub fn deterministic(aut: &Twa, o: &DetOptions) -> Result<Twa, OmegaError> {
    deterministic_pair(aut, None, o)
}

/// [`deterministic`] given also an automaton `neg` of the complement language (the
/// translation of `¬φ`): when `aut` is not deterministic, the complement of the deterministic
/// parity automaton of `neg` (complete, parity flipped) competes with the determinisation of
/// `aut`, and the smaller (states, then colours) is kept. The determinisation of `neg` gives up
/// quietly beyond eight times the states of the first result.
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
    let raw = if let Some(p) = ParityAut::from_twa(aut).filter(|_| !aut.is_generalized_buchi()) {
        if !aut.is_deterministic() {
            aut.require_gba("determinisation")?;
        }
        p
    } else {
        aut.require_gba("determinisation")?;
        if aut.is_deterministic() {
            buchi_as_parity(aut)
        } else {
            determinize(aut, &o.det)?
        }
    };
    o.det.budget.check()?;
    let mut p = simplify_parity(&raw);
    if let Some(n) = neg.filter(|n| n.is_generalized_buchi() && !aut.is_deterministic()) {
        if let Some(c) = complement_of(n, &p, o)? {
            let key = |q: &ParityAut| (q.aut.num_states(), q.colours());
            if key(&c) < key(&p) {
                p = c;
            }
        }
    }
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

/// The complement of a deterministic parity automaton of `neg` (see [`deterministic_pair`]);
/// `None` if its determinisation exceeds the size bound.
fn complement_of(
    neg: &Twa,
    first: &ParityAut,
    o: &DetOptions,
) -> Result<Option<ParityAut>, OmegaError> {
    let raw = if neg.is_deterministic() {
        buchi_as_parity(neg)
    } else {
        let small = Options {
            max_states: first.aut.num_states() * 8 + 16,
            budget: o.det.budget.clone(),
        };
        match determinize(neg, &small) {
            Ok(r) => r,
            Err(OmegaError::Limit(_)) => return Ok(None),
            Err(e) => return Err(e),
        }
    };
    let mut c = simplify_parity(&raw).complete();
    c.kind.odd = !c.kind.odd;
    Ok(Some(simplify_parity(&c)))
}
