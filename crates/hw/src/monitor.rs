//! The product of a circuit with a monitor circuit for a generalized Büchi automaton of `¬φ`
//! (`verikit-omega`'s LTL translation), so that an LTL property becomes a justice property that
//! liveness-to-safety (`l2s`) can prove — the automata-theoretic reduction (Vardi–Wolper) that
//! Heljanko et al., CAV'06 C12 §1, start from; the lasso *search* uses the WABA encoding
//! (`waba_bmc`) instead. One latch per automaton state (several may be 1 initially, one after
//! each step), one choice input per edge; the first enabled chosen edge (source latch set, label
//! true of the current valuation) is taken, an invariant constraint requires that one is, and
//! acceptance set `i` becomes the justice literal "an edge with mark `i` is taken".

use verikit_aiger::{Aig, Reset};
use verikit_omega::Twa;

/// Labels are expanded into minterms: automata over more propositions are refused.
pub(crate) const MAX_APS: usize = 10;

/// The product circuit (original inputs and latches first) and its justice literals; `None` if
/// the automaton reads more than [`MAX_APS`] propositions or one not in `ap_lits`.
pub(crate) fn product(
    aig: &Aig,
    aut: &Twa,
    ap_names: &[String],
    ap_lits: &[u32],
) -> Option<(Aig, Vec<u32>)> {
    if aut.aps.len() > MAX_APS {
        return None;
    }
    let lits: Vec<u32> = aut
        .aps
        .iter()
        .map(|n| {
            let k = ap_names.iter().position(|m| m == n)?;
            ap_lits.get(k).copied()
        })
        .collect::<Option<_>>()?;
    let mut g = aig.clone();
    let n0 = g.latches.len();
    let inits: Vec<bool> = (0..aut.states.len())
        .map(|q| aut.init.contains(&(q as u32)))
        .collect();
    let state: Vec<u32> = inits
        .iter()
        .map(|&i| g.add_latch(0, if i { Reset::One } else { Reset::Zero }))
        .collect();
    // minterm literals, built on demand
    let mut minterm: Vec<Option<u32>> = vec![None; 1 << lits.len()];
    let mut taken_any = 0u32; // false
    let mut next = vec![0u32; state.len()];
    let mut acc = vec![0u32; aut.num_sets as usize];
    for (q, edges) in aut.states.iter().enumerate() {
        for e in edges {
            let mut label = 0u32;
            for bits in 0..(1u64 << lits.len()) {
                if !aut.eval_label(&e.label, bits) {
                    continue;
                }
                let m = match minterm.get(bits as usize).copied().flatten() {
                    Some(m) => m,
                    None => {
                        let mut m = 1u32;
                        for (k, &l) in lits.iter().enumerate() {
                            let x = if bits >> k & 1 == 1 { l } else { l ^ 1 };
                            m = g.and(m, x);
                        }
                        if let Some(slot) = minterm.get_mut(bits as usize) {
                            *slot = Some(m);
                        }
                        m
                    }
                };
                label = g.or(label, m);
            }
            let choose = g.add_input();
            let src = state.get(q).copied().unwrap_or(0);
            let en = g.and(choose, src);
            let en = g.and(en, label);
            let taken = g.and(en, taken_any ^ 1);
            taken_any = g.or(taken_any, en);
            if let Some(x) = next.get_mut(e.dst as usize) {
                *x = g.or(*x, taken);
            }
            for (i, a) in acc.iter_mut().enumerate() {
                if i < 64 && e.marks >> i & 1 == 1 {
                    *a = g.or(*a, taken);
                }
            }
        }
    }
    for (k, &nx) in next.iter().enumerate() {
        g.set_next(n0 + k, nx);
    }
    g.constraints.push(taken_any);
    let justice = if acc.is_empty() { vec![1] } else { acc };
    Some((g, justice))
}
