//! Liveness-to-safety: A. Biere, C. Artho, V. Schuppan, *Liveness checking as safety checking*
//! (FMICS 2002; not a seed — the reduction that turns C12's liveness questions into ones the
//! safety engines can *prove*). The circuit gets a fresh input `save`, a latch `saved`, a shadow
//! copy of every latch and one `seen` latch per fairness literal: at the first step where
//! `save` is 1 the current state is copied into the shadows; from then on `seen_j` records that
//! literal `j` has been 1; the bad state is "saved, every latch equals its shadow, every literal
//! seen" — a lasso of the original circuit on which every literal is 1 infinitely often. The new
//! circuit is safe iff there is no such lasso (for finite-state circuits), so an inductive
//! invariant of it is a certificate of the liveness property.

use verikit_aiger::{Aig, Reset, Witness};

/// The safety circuit of "no lasso visits every literal of `fair` on its loop": the original
/// circuit plus one input (the last) and `2 + latches + fair` latches; one bad literal.
pub(crate) fn l2s(aig: &Aig, fair: &[u32]) -> Aig {
    let mut g = aig.clone();
    g.outputs.clear();
    g.bad.clear();
    g.justice.clear();
    g.fairness.clear();
    g.symbols.clear();
    g.comments.clear();
    let n = aig.latches.len();
    let save = g.add_input();
    let saved = g.add_latch(0, Reset::Zero);
    let saved_idx = n;
    let shadows: Vec<u32> = (0..n).map(|_| g.add_latch(0, Reset::Zero)).collect();
    let seen: Vec<u32> = fair.iter().map(|_| g.add_latch(0, Reset::Zero)).collect();
    let save_now = g.and(save, saved ^ 1);
    let active = g.or(saved, save_now);
    g.set_next(saved_idx, active);
    for (j, &sh) in shadows.iter().enumerate() {
        let cur = aig.latches.get(j).map_or(0, |l| l.lit);
        // next = save_now ? cur : shadow
        let a = g.and(save_now, cur);
        let b = g.and(save_now ^ 1, sh);
        let nx = g.or(a, b);
        g.set_next(saved_idx + 1 + j, nx);
    }
    for (j, (&s, &f)) in seen.iter().zip(fair).enumerate() {
        let hit = g.and(active, f);
        let nx = g.or(s, hit);
        g.set_next(saved_idx + 1 + n + j, nx);
    }
    let mut bad = saved;
    for (j, &sh) in shadows.iter().enumerate() {
        let cur = aig.latches.get(j).map_or(0, |l| l.lit);
        let x = g.and(cur, sh ^ 1);
        let y = g.and(cur ^ 1, sh);
        let differ = g.or(x, y);
        bad = g.and(bad, differ ^ 1);
    }
    for &s in &seen {
        bad = g.and(bad, s);
    }
    g.bad.push(bad);
    g
}

/// The lasso of the original circuit in a counterexample of [`l2s`]'s circuit: the bad state
/// is reached at frame `m` with the state equal to the one saved at some `t < m`, so the
/// inputs of frames `0..m` (without `save`) form a lasso whose loop is `t..m`.
pub(crate) fn lasso_of(aig: &Aig, w: &Witness, prop: (char, usize), depth: usize) -> Witness {
    let ni = aig.inputs.len();
    Witness {
        props: vec![prop],
        latches: w.latches.iter().take(aig.latches.len()).copied().collect(),
        inputs: w
            .inputs
            .iter()
            .take(depth)
            .map(|f| f.iter().take(ni).copied().collect())
            .collect(),
    }
}
