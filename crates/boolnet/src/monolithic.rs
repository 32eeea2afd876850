//! Monolithic BDD-based attractor detection, the baseline of SETTA'17 (Mizera–Pang–Qu–Yuan, "A New
//! Decomposition Method for Attractor Detection in Large Synchronous Boolean Networks", Sect. 2.2
//! and Sect. 5, the monolithic `Detect` of [8]): the transition relation `T(x, x′)` of the whole
//! network (partitioned, see [`crate::symbolic`]), the
//! states lying on cycles as the greatest fixed point of `X ↦ X ∩ Image(X)` from the full state
//! space, then the attractors peeled off one by one, each listed as its cycle of states in order.
//! `Method::Monolithic` runs the same `Detect` on the whole network inside `attractors`; this
//! module keeps the paper's baseline as written, as a test oracle.

use crate::error::BnError;
use crate::symbolic::Symbolic;
use biodivine_lib_bdd::Bdd;

/// The set of attractor states of the whole network.
pub(crate) fn attractor_states(sym: &Symbolic) -> Result<Bdd, BnError> {
    let all: Vec<usize> = (0..sym.n).collect();
    tracing::info!(
        "monolithic: computing the states on cycles of {} variables",
        sym.n
    );
    sym.detect(&sym.vars.mk_true(), &all)
}
