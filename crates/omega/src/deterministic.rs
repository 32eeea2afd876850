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

/// A deterministic automaton: generalized Büchi (when the input already was deterministic and
/// parity was not required) or parity.
#[derive(Clone, Debug)]
pub enum Deterministic {
    Buchi(Twa),
    Parity(ParityAut),
}

impl Deterministic {
    pub fn twa(&self) -> &Twa {
        match self {
            Deterministic::Buchi(t) => t,
            Deterministic::Parity(p) => &p.aut,
        }
    }
    pub fn to_hoa(&self) -> String {
        match self {
            Deterministic::Buchi(t) => crate::hoa::print::to_hoa(t),
            Deterministic::Parity(p) => p.to_hoa(),
        }
    }
    /// The acceptance formula's `acc-name`.
    pub fn acc_name(&self) -> String {
        match self {
            Deterministic::Buchi(t) => crate::hoa::print::acceptance_text(t).1,
            Deterministic::Parity(p) => p.acceptance_text().1,
        }
    }
    /// Acceptance sets (generalized Büchi) or colours (parity).
    pub fn num_sets(&self) -> u32 {
        self.twa().num_sets
    }
}

/// What to produce.
#[derive(Clone, Debug, Default)]
pub struct DetOptions {
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

/// The smallest deterministic automaton of this pipeline for `aut`'s language.
pub fn deterministic(aut: &Twa, o: &DetOptions) -> Result<Deterministic, OmegaError> {
    if aut.is_deterministic() && !o.parity && o.kind.is_none() {
        let t = if o.complete {
            complete_gba(aut)
        } else {
            aut.clone()
        };
        return Ok(Deterministic::Buchi(t));
    }
    let raw = if aut.is_deterministic() {
        buchi_as_parity(aut)
    } else {
        determinize(aut, &o.det)?
    };
    o.det.budget.check()?;
    let mut p = simplify_parity(&raw);
    if o.complete {
        p = p.complete();
    }
    if let Some(k) = o.kind {
        if k != p.kind {
            p = p.change_kind(k);
        }
    }
    Ok(Deterministic::Parity(p))
}
