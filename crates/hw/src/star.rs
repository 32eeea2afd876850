//! STAR: weakest satisfying and contradicting strengthenings by SAT (Roorda, Claessen, *STAR:
//! SAT-based assistance in abstraction refinement for STE*, CAV'06 C19, §4).
//!
//! A strengthening γ gives some strengthening candidates — here the leaves (inputs at every
//! time, latches at time 0) that are X under a valuation φ — a Boolean value. The SAT problem
//! (§4.2) is the dual-rail simulation of the symbolically strengthened antecedent
//! `SymStr(A, SC) = A and ∧ N^t(n̂⁰ → n is 0 and n̂¹ → n is 1)` with `¬(n̂⁰ ∧ n̂¹)`, no ⊥, and either
//! `SAT(C) = ∧ (⟨C⟩(t)(n=0) → n⁰_t) ∧ (⟨C⟩(t)(n=1) → n¹_t)` (satisfying) or a definite
//! disagreement with C (contradicting). §4.3: blocking constraints admit only strictly weaker
//! strengthenings until the problem is unsatisfiable; the last one found is a weakest.
//! Here φ is fixed by assumptions (the valuation of an X-failure the user — or the refinement
//! loop — wants explained), as in the paper's figures.

use crate::ste_algebra::{Algebra, CnfAlg};
use crate::ste_sim::{assertion_run, Leaf, Rail, Resolved};
use std::collections::BTreeMap;
use verikit_aiger::Aig;
use verikit_diag::{Budget, Exhausted};
use verikit_sat::{CdclBackend, Lit, SatBackend, SatResult};

/// Which strengthenings (C19 §1 "two modes").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// The strengthened antecedent makes the consequent true (a model).
    Satisfying,
    /// The strengthened antecedent contradicts the consequent (a real counter-model).
    Contradicting,
}

/// A weakest strengthening of `r` under valuation `phi` over `candidates`: the candidates it
/// gives a value, `Ok(None)` when there is no strengthening of that mode. When the budget runs
/// out after a first strengthening was found, that one is returned (it is valid, perhaps not
/// weakest).
pub(crate) fn weakest_strengthening(
    aig: &Aig,
    r: &Resolved,
    phi: &[bool],
    candidates: &[Leaf],
    mode: Mode,
    budget: &Budget,
) -> Result<Option<Vec<(Leaf, bool)>>, Exhausted> {
    let mut sat = CdclBackend::new();
    let (hats, assumptions) = {
        let mut alg = CnfAlg::new(&mut sat);
        let mut hats: BTreeMap<Leaf, (Lit, Lit)> = BTreeMap::new();
        for &c in candidates {
            let (h0, h1) = (alg.fresh(), alg.fresh());
            alg.sat.add_clause(&[!h0, !h1]);
            hats.insert(c, (h0, h1));
        }
        let (traj, cons) = assertion_run(
            &mut alg,
            aig,
            r,
            &mut |_, l| hats.get(&l).map(|&(h0, h1)| Rail { one: h1, zero: h0 }),
            budget,
        )?;
        let nb = alg.not(&traj.bottom);
        alg.sat.add_clause(&[nb]);
        let mut any = alg.konst(false);
        for (&(t, var), g) in &cons {
            let Some(f) = traj
                .rails
                .get(t)
                .and_then(|fr| fr.get(var as usize))
                .cloned()
            else {
                continue;
            };
            match mode {
                Mode::Satisfying => {
                    alg.sat.add_clause(&[!g.one, f.one]);
                    alg.sat.add_clause(&[!g.zero, f.zero]);
                }
                Mode::Contradicting => {
                    let a = alg.and(&g.one, &f.zero);
                    let b = alg.and(&g.zero, &f.one);
                    let ab = alg.or(&a, &b);
                    any = alg.or(&any, &ab);
                }
            }
        }
        if mode == Mode::Contradicting {
            alg.sat.add_clause(&[any]);
        }
        let assumptions: Vec<Lit> = phi
            .iter()
            .enumerate()
            .map(|(i, &b)| {
                let l = alg.sym(i as u32);
                if b {
                    l
                } else {
                    !l
                }
            })
            .collect();
        (hats, assumptions)
    };
    let mut best: Option<Vec<(Leaf, bool)>> = None;
    loop {
        match sat.solve(&assumptions, budget) {
            SatResult::Sat => {}
            SatResult::Unsat => return Ok(best),
            SatResult::Unknown => {
                return match best {
                    Some(b) => Ok(Some(b)),
                    None => Err(sat.exhausted().unwrap_or(Exhausted::Cancelled)),
                }
            }
        }
        let mut gamma = Vec::new();
        let mut weaker = Vec::new();
        for (&leaf, &(h0, h1)) in &hats {
            let v0 = sat.model_value(h0) == Some(true);
            let v1 = sat.model_value(h1) == Some(true);
            // Blocking (§4.3): X stays X, 0 may become X but not 1, 1 may become X but not 0,
            // and at least one strengthened candidate becomes X.
            if v0 {
                sat.add_clause(&[!h1]);
                weaker.push(!h0);
                gamma.push((leaf, false));
            } else if v1 {
                sat.add_clause(&[!h0]);
                weaker.push(!h1);
                gamma.push((leaf, true));
            } else {
                sat.add_clause(&[!h0]);
                sat.add_clause(&[!h1]);
            }
        }
        let empty = weaker.is_empty();
        best = Some(gamma);
        if empty {
            return Ok(best);
        }
        sat.add_clause(&weaker);
    }
}
