//! The `Detect` routines of SETTA'17 (Mizera, Pang, Qu, Yuan, "A New Decomposition Method for
//! Attractor Detection in Large Synchronous Boolean Networks", Sect. 4: `Detect` is any sound and
//! complete attractor detection for a (sub)system) on the BDD encoding of [`crate::symbolic`]: the
//! greatest fixed point of `X ↦ X ∩ Image(X)`, and the period search, which switches to
//! simulation with basin removal ([`crate::sampling`]) when the composed functions grow.

use crate::error::BnError;
use crate::symbolic::{Detect, Symbolic};
use biodivine_lib_bdd::Bdd;

/// Total size of the composed functions `f^p` above which the period search switches to
/// simulation with basin removal ([`crate::sampling`]).
const SAMPLING_SWITCH_NODES: usize = 50_000;

/// Largest number of attractors the period search looks for by simulation before it falls back
/// to the greatest fixed point.
const SAMPLING_MAX: usize = 256;

impl Symbolic {
    /// `Detect`: the attractor states within the forward-closed set `init` of the subsystem over the
    /// ancestor-closed `vars`, with the configured routine.
    pub(crate) fn detect(&self, init: &Bdd, vars: &[usize]) -> Result<Bdd, BnError> {
        match self.detect {
            Detect::Gfp => self.attractor_states(init, vars),
            Detect::Periods => self.attractor_states_by_period(init, vars, 32),
        }
    }

    /// The attractor states within the forward-closed set `init` of the subsystem over the
    /// ancestor-closed `vars`: the greatest fixed point of `X ↦ X ∩ Image(X)`.
    pub(crate) fn attractor_states(&self, init: &Bdd, vars: &[usize]) -> Result<Bdd, BnError> {
        let mut cur = init.clone();
        let mut step = 0usize;
        loop {
            let img = self.image(&cur, vars)?;
            let next = self.and(&img, &cur)?;
            step += 1;
            tracing::debug!("image step {step}: {} nodes", next.size());
            if next == cur {
                return Ok(cur);
            }
            cur = next;
        }
    }

    /// The attractor states within the forward-closed set `init` over the ancestor-closed `vars`,
    /// found period by period: for `p = 1, 2, …` the states with `f^p(x) = x` among those not yet
    /// accounted for are attractor states (in a deterministic system every periodic state is on a
    /// cycle), and every state `x` with `f^p(x)` among the attractor states found so far is
    /// dropped — one composition of a (usually small) set with the `f^p` already built, instead
    /// of backward reachability over large frontiers. An attractor still to be found keeps all its
    /// states. When nothing remains every attractor state has been found; after `max_period`
    /// rounds the basin of the attractors found is removed and the greatest fixed point of
    /// `X ↦ X ∩ Image(X)` on the rest finishes (it holds exactly the states of the cycles lying
    /// wholly in the rest).
    pub(crate) fn attractor_states_by_period(
        &self,
        init: &Bdd,
        vars: &[usize],
        max_period: usize,
    ) -> Result<Bdd, BnError> {
        let mut remaining = init.clone();
        let mut found = self.vars.mk_false();
        let mut g = self.identity_map(vars);
        let mut p = 0usize;
        while !remaining.is_false() {
            p += 1;
            let composed: usize = g.iter().flatten().map(|b| b.size()).sum();
            if p > max_period || (p > 2 && composed > SAMPLING_SWITCH_NODES) {
                // Long transients or periods, or `f^p` growing: attractors by simulation with
                // their basins removed (no `f^p`), for a bounded number of attractors.
                tracing::debug!(
                    "period search: {composed} nodes of f^{}, switching to simulation",
                    p - 1
                );
                let s = crate::sampling::sample(self, vars, found, remaining, SAMPLING_MAX)?;
                if s.remaining.is_false() {
                    return Ok(s.found);
                }
                let (found, remaining) = (s.found, s.remaining);
                // Many attractors: the states left that reach the attractors found
                // by backward reachability, then the greatest fixed point on the rest (it holds
                // exactly the states on cycles that lie wholly in `remaining`).
                tracing::debug!("period search: falling back to the greatest fixed point");
                let b = self.basin(&found, &remaining.or(&found))?;
                let rest = remaining.and_not(&b);
                if rest.is_false() {
                    return Ok(found);
                }
                let rest = self.attractor_states(&rest, vars)?;
                return Ok(found.or(&rest));
            }
            g = self.step_map(&g, vars)?;
            let e = self.fixed_by(&remaining, &g, vars)?;
            if !e.is_false() {
                found = found.or(&e);
                self.limits.check(&found)?;
            }
            // States reaching the attractors found so far within p steps (f^p(x) ∈ found) are
            // not on an attractor still to be found; every attractor state left keeps its
            // whole attractor in `remaining`.
            if !found.is_false() {
                let reach = self.compose(&found, &g)?;
                remaining = remaining.and_not(&reach);
            }
            tracing::debug!(
                "period {p}: {} nodes of attractor states, {} nodes remain",
                found.size(),
                remaining.size()
            );
        }
        Ok(found)
    }
}
