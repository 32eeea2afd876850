//! Lifting a predecessor state by ternary simulation: N. Eén, A. Mishchenko, R. Brayton,
//! *Efficient implementation of property directed reachability* (FMCAD 2011), §III-C
//! ("ternary simulation" as the cheap alternative to SAT-based lifting). Not a seed paper: the
//! IC3 refinement the CAV'06 hardware papers' engines are measured against.
//!
//! Given a full assignment of the inputs and the latches that satisfies some target literals
//! (the next-state functions of a successor cube, or the bad literal, and the invariant
//! constraints), each latch in turn is set to X and the change is propagated, event-driven and in
//! topological order, through its fanout inside the targets' cone; if a target turns X the latch
//! is restored, otherwise it stays X. X-valued simulation over-approximates every completion
//! (Seger–Bryant), so every state agreeing with the latches left binary, under the same inputs,
//! gives the targets the same values: the binary latches are a cube of predecessors.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use verikit_aiger::Aig;

const X: u8 = 2;

fn value_of_lit(val: &[u8], l: u32) -> u8 {
    match val.get((l >> 1) as usize).copied().unwrap_or(X) {
        X => X,
        v => v ^ (l & 1) as u8,
    }
}

fn and3(a: u8, b: u8) -> u8 {
    match (a, b) {
        (0, _) | (_, 0) => 0,
        (1, 1) => 1,
        _ => X,
    }
}

/// The ternary lifter of one circuit: the gates' fanouts, built once, and scratch space reused by
/// every [`TernaryLifter::lift`].
pub(crate) struct TernaryLifter<'a> {
    aig: &'a Aig,
    /// Per AIG variable: the AND gates (indices into `aig.ands`) reading it (CSR).
    fan_start: Vec<u32>,
    fan: Vec<u32>,
    /// Per AIG variable: 0, 1 or X (only the current cone's entries are meaningful).
    val: Vec<u8>,
    /// Per AIG variable: the stamp of the lift call it is a target of.
    target: Vec<u32>,
    stamp: u32,
}

impl<'a> TernaryLifter<'a> {
    pub(crate) fn new(aig: &'a Aig) -> TernaryLifter<'a> {
        let n = aig.maxvar as usize + 1;
        let mut count = vec![0u32; n + 1];
        for g in &aig.ands {
            for r in [g.rhs0 >> 1, g.rhs1 >> 1] {
                if let Some(c) = count.get_mut(r as usize + 1) {
                    *c += 1;
                }
            }
        }
        for i in 1..count.len() {
            let prev = count.get(i - 1).copied().unwrap_or(0);
            if let Some(c) = count.get_mut(i) {
                *c += prev;
            }
        }
        let mut fill = count.clone();
        let mut fan = vec![0u32; count.last().copied().unwrap_or(0) as usize];
        for (gi, g) in aig.ands.iter().enumerate() {
            for r in [g.rhs0 >> 1, g.rhs1 >> 1] {
                if let Some(at) = fill.get_mut(r as usize) {
                    if let Some(slot) = fan.get_mut(*at as usize) {
                        *slot = gi as u32;
                    }
                    *at += 1;
                }
            }
        }
        TernaryLifter {
            aig,
            fan_start: count,
            fan,
            val: vec![X; n],
            target: vec![0; n],
            stamp: 0,
        }
    }

    fn fanout(&self, var: u32) -> &[u32] {
        let s = self.fan_start.get(var as usize).copied().unwrap_or(0) as usize;
        let e = self.fan_start.get(var as usize + 1).copied().unwrap_or(0) as usize;
        self.fan.get(s..e).unwrap_or(&[])
    }

    /// Lifts the state in which latch `j` has value `latch_value(j)` (`None` for latches the
    /// caller does not track, simulated as X), with inputs `inputs` (per input of the circuit),
    /// against `targets` (AIG literals that must stay 1). `cone` marks the AIG variables the
    /// targets read (per variable). `candidates` are the latches (indices into `aig.latches`) to
    /// try to drop, in order. Returns per candidate whether it must stay, or `None` if the
    /// assignment does not satisfy every target (the caller lifts some other way).
    pub(crate) fn lift(
        &mut self,
        cone: &[bool],
        inputs: &[bool],
        latch_value: impl Fn(usize) -> Option<bool>,
        targets: &[u32],
        candidates: &[usize],
    ) -> Option<Vec<bool>> {
        let in_cone = |v: u32| cone.get(v as usize).copied().unwrap_or(false);
        // binary evaluation of the cone
        for (k, &l) in self.aig.inputs.iter().enumerate() {
            if let Some(x) = self.val.get_mut((l >> 1) as usize) {
                *x = inputs.get(k).map_or(X, |&b| u8::from(b));
            }
        }
        for (j, l) in self.aig.latches.iter().enumerate() {
            if in_cone(l.lit >> 1) {
                if let Some(x) = self.val.get_mut((l.lit >> 1) as usize) {
                    *x = latch_value(j).map_or(X, u8::from);
                }
            }
        }
        if let Some(x) = self.val.get_mut(0) {
            *x = 0;
        }
        for g in &self.aig.ands {
            if in_cone(g.lhs >> 1) {
                let v = and3(
                    value_of_lit(&self.val, g.rhs0),
                    value_of_lit(&self.val, g.rhs1),
                );
                if let Some(x) = self.val.get_mut((g.lhs >> 1) as usize) {
                    *x = v;
                }
            }
        }
        if targets.iter().any(|&t| value_of_lit(&self.val, t) != 1) {
            return None;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.target.iter_mut().for_each(|t| *t = 0);
            self.stamp = 1;
        }
        for &t in targets {
            if let Some(x) = self.target.get_mut((t >> 1) as usize) {
                *x = self.stamp;
            }
        }
        let mut keep = vec![true; candidates.len()];
        let mut changed: Vec<(u32, u8)> = Vec::new();
        let mut heap: BinaryHeap<Reverse<u32>> = BinaryHeap::new();
        for (k, &j) in candidates.iter().enumerate() {
            let Some(v) = self.aig.latches.get(j).map(|l| l.lit >> 1) else {
                continue;
            };
            let old = self.val.get(v as usize).copied().unwrap_or(X);
            if !in_cone(v) || old == X {
                // not read by the targets (or already X): dropped without simulation
                if let Some(x) = keep.get_mut(k) {
                    *x = false;
                }
                continue;
            }
            if self.target.get(v as usize) == Some(&self.stamp) {
                continue;
            }
            changed.clear();
            heap.clear();
            changed.push((v, old));
            if let Some(x) = self.val.get_mut(v as usize) {
                *x = X;
            }
            heap.extend(self.fanout(v).iter().map(|&g| Reverse(g)));
            let mut failed = false;
            let mut last = None;
            while let Some(Reverse(gi)) = heap.pop() {
                if last == Some(gi) {
                    continue; // a gate reading the changed signal twice, or two changed inputs
                }
                last = Some(gi);
                let Some(g) = self.aig.ands.get(gi as usize) else {
                    continue;
                };
                let out = g.lhs >> 1;
                if !in_cone(out) {
                    continue;
                }
                let nv = and3(
                    value_of_lit(&self.val, g.rhs0),
                    value_of_lit(&self.val, g.rhs1),
                );
                let ov = self.val.get(out as usize).copied().unwrap_or(X);
                if nv == ov {
                    continue;
                }
                changed.push((out, ov));
                if let Some(x) = self.val.get_mut(out as usize) {
                    *x = nv;
                }
                if self.target.get(out as usize) == Some(&self.stamp) {
                    failed = true;
                    break;
                }
                heap.extend(self.fanout(out).iter().map(|&g| Reverse(g)));
            }
            if failed {
                for &(var, o) in changed.iter().rev() {
                    if let Some(x) = self.val.get_mut(var as usize) {
                        *x = o;
                    }
                }
            } else if let Some(x) = keep.get_mut(k) {
                *x = false;
            }
        }
        Some(keep)
    }
}

#[cfg(test)]
mod tests {
    use super::TernaryLifter;
    use crate::unroll::cone_vars;
    use proptest::prelude::*;
    use verikit_aiger::{Aig, Reset};

    /// A random circuit: `n_in` inputs, `n_l` latches, `n_g` gates over earlier signals.
    fn circuit(n_in: usize, n_l: usize, picks: &[(u16, u16, bool, bool)]) -> Aig {
        let mut a = Aig::new();
        let mut sig: Vec<u32> = (0..n_in).map(|_| a.add_input()).collect();
        for _ in 0..n_l {
            sig.push(a.add_latch(0, Reset::Zero));
        }
        for &(x, y, nx, ny) in picks {
            let l = |i: u16, n: bool| sig[i as usize % sig.len()] ^ u32::from(n);
            let g = a.and(l(x, nx), l(y, ny));
            sig.push(g);
        }
        a
    }

    fn eval(a: &Aig, inputs: &[bool], latches: &[bool], l: u32) -> bool {
        let mut val = vec![false; a.maxvar as usize + 1];
        for (k, &i) in a.inputs.iter().enumerate() {
            val[(i >> 1) as usize] = inputs[k];
        }
        for (j, x) in a.latches.iter().enumerate() {
            val[(x.lit >> 1) as usize] = latches[j];
        }
        for g in &a.ands {
            let r = |l: u32| val[(l >> 1) as usize] ^ (l & 1 == 1);
            val[(g.lhs >> 1) as usize] = r(g.rhs0) && r(g.rhs1);
        }
        val[(l >> 1) as usize] ^ (l & 1 == 1)
    }

    proptest! {
        /// Against brute force: every completion of the latches kept binary (with the same
        /// inputs) satisfies the targets; an assignment violating a target is refused.
        #[test]
        fn every_completion_of_the_lifted_cube_satisfies_the_targets(
            picks in proptest::collection::vec((0u16..64, 0u16..64, any::<bool>(), any::<bool>()), 1..24),
            inputs in proptest::collection::vec(any::<bool>(), 2),
            state in proptest::collection::vec(any::<bool>(), 5),
            t in proptest::collection::vec((0u16..64, any::<bool>()), 1..3),
        ) {
            let a = circuit(2, 5, &picks);
            let gates: Vec<u32> = a.ands.iter().map(|g| g.lhs).collect();
            // structural hashing may fold every pick into an existing signal
            prop_assume!(!gates.is_empty());
            let targets: Vec<u32> = t.iter().map(|&(i, n)| gates[i as usize % gates.len()] ^ u32::from(n)).collect();
            let cone = cone_vars(&a, &a.kinds(), &targets, |_| None);
            let mut lifter = TernaryLifter::new(&a);
            let cands: Vec<usize> = (0..5).collect();
            let holds = targets.iter().all(|&l| eval(&a, &inputs, &state, l));
            let r = lifter.lift(&cone, &inputs, |j| state.get(j).copied(), &targets, &cands);
            prop_assert_eq!(r.is_some(), holds);
            if let Some(keep) = r {
                for m in 0u32..32 {
                    let s: Vec<bool> = (0..5).map(|j| if keep[j] { state[j] } else { m >> j & 1 == 1 }).collect();
                    for &l in &targets {
                        prop_assert!(eval(&a, &inputs, &s, l));
                    }
                }
            }
        }
    }

    #[test]
    fn drops_a_latch_the_target_does_not_need() {
        // target = l0 ∧ (l1 ∨ i) with i = 1: l1 is not needed, l0 is
        let mut a = Aig::new();
        let i = a.add_input();
        let l0 = a.add_latch(0, Reset::Zero);
        let l1 = a.add_latch(0, Reset::Zero);
        let o = a.or(l1, i);
        let t = a.and(l0, o);
        let cone = cone_vars(&a, &a.kinds(), &[t], |_| None);
        let mut lifter = TernaryLifter::new(&a);
        let keep = lifter.lift(&cone, &[true], |_| Some(true), &[t], &[0, 1]);
        assert_eq!(keep, Some(vec![true, false]));
    }
}
