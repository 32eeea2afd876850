//! Incremental bounded model checking for weak alternating Büchi automata: Heljanko, Junttila,
//! Keinänen, Lange, Latvala, *Bounded model checking for weak alternating Büchi automata*, CAV'06
//! C12 §3 — the encoding `|[M, A_WABA]|_k = |[M]|_k ∧ |[LoopConstraints]|_k ∧ |[A_WABA]|_k`,
//! linear in the bound, for the very weak automata of `vwaba` (every component one state, so the
//! unrolling depth is `d_j = |Q_j| = 1` for non-accepting and `0` for accepting components, and
//! counterexamples are of minimal length, Theorem 1 and its footnote).
//!
//! * `|[M]|_k`: the circuit unrolled by `unroll` from its reset state, the invariant constraints in
//!   every frame `0..=k`.
//! * `|[LoopConstraints]|_k` (§3, "loop selector variables"): selectors `l_i` and `InLoop_i`, with
//!   the paper's proxy state `s_E` so that only the last three constraints depend on `k`. The
//!   paper's `(k, l)`-loop closes `s_{l−1} = s_k`; on a circuit, whose letters also read the
//!   inputs, the loop closes on the state *after* the last frame: `l_i ⇒ s_i = s_E` for
//!   `0 ≤ i ≤ k`, `InLoop_i ⇔ InLoop_{i−1} ∨ l_i`, `InLoop_{i−1} ⇒ ¬l_i`, and k-dependent
//!   `InLoop_k`, `s_E ⇔ s_{k+1}` — so the lasso is frames `0..l` then `(l..=k)^ω`.
//! * `|[A_WABA]|_k`: variables `[[s_q]]^d_i` for `0 ≤ i ≤ k+1` and `0 ≤ d ≤ d_j`, and loop copies
//!   `[[s_q]]^d_L`; Base `[[s_{q0}]]^0_0`; k-invariant `[[s_q]]^d_i ⇔ [[δ(q)]]^d_i` (a state of the
//!   same component read at level `d`, other states at level 0, at `i+1`); Base
//!   `[[s_q]]^{d_j+1}_L ⇔ ⊥` for non-accepting `q`; k-invariant `l_i ⇒ ([[s_q]]^d_L ⇔
//!   [[s_q]]^d_i)`; k-dependent `[[s_q]]^d_{k+1} ⇔ [[s_q]]^{d+1}_L` (non-accepting: the least
//!   fixpoint, one level up per pass through the loop) and `[[s_q]]^0_{k+1} ⇔ [[s_q]]^0_L`
//!   (accepting: any fixpoint); and the optional monotonicity constraints `[[s_q]]^d_i ⇒
//!   [[s_q]]^{d−1}_i` of non-accepting components.
//!
//! The k-dependent constraints sit behind one activation literal per bound, retired (asserted
//! false) when the bound is refuted, as in the incremental framework of [9] the paper reuses.

use crate::outcome::Outcome;
use crate::unroll::Unroller;
use crate::vwaba::{Pos, Vwaba};
use std::collections::HashMap;
use verikit_aiger::{Aig, Witness};
use verikit_diag::{Budget, Exhausted};
use verikit_sat::{CdclBackend, Lit, SatBackend, SatResult};

/// A lasso found by [`waba_bmc`]: the witness (initial latches, inputs of frames `0..=k`); the
/// state after frame `k` equals the state at the loop start the selectors chose.
#[derive(Clone, Debug)]
pub(crate) struct Lasso {
    pub(crate) witness: Witness,
}

/// What [`waba_bmc`] found.
pub(crate) enum LassoOutcome {
    Found(Lasso),
    /// No lasso up to the bound, or the budget ran out (with how far it got).
    None(Outcome),
}

struct Enc<'a> {
    aut: &'a Vwaba,
    sat: CdclBackend,
    un: Unroller<'a>,
    s: HashMap<(usize, usize, usize), Lit>,
    l: HashMap<(usize, usize), Lit>,
    ff: Lit,
    in_loop: Vec<Lit>,
    proxy: Vec<Lit>,
}

impl Enc<'_> {
    fn levels(&self, q: usize) -> usize {
        match self.aut.states.get(q) {
            Some(s) if !s.accepting => 1,
            _ => 0,
        }
    }
    fn fresh(&mut self) -> Lit {
        Lit::pos(self.sat.new_var())
    }
    fn s(&mut self, q: usize, d: usize, i: usize) -> Lit {
        if let Some(&x) = self.s.get(&(q, d, i)) {
            return x;
        }
        let x = self.fresh();
        self.s.insert((q, d, i), x);
        x
    }
    fn lv(&mut self, q: usize, d: usize) -> Lit {
        if d > self.levels(q) {
            return self.ff;
        }
        if let Some(&x) = self.l.get(&(q, d)) {
            return x;
        }
        let x = self.fresh();
        self.l.insert((q, d), x);
        x
    }
    fn eq(&mut self, guard: Option<Lit>, a: Lit, b: Lit) {
        let g: Vec<Lit> = guard.map(|g| !g).into_iter().collect();
        let mut c1 = g.clone();
        c1.extend([!a, b]);
        let mut c2 = g;
        c2.extend([a, !b]);
        self.sat.add_clause(&c1);
        self.sat.add_clause(&c2);
    }
    /// `[[φ]]^d_i` for a positive Boolean formula in the transition of state `me`.
    fn enc(&mut self, p: &Pos, me: usize, d: usize, i: usize) -> Lit {
        match p {
            Pos::True => !self.ff,
            Pos::False => self.ff,
            Pos::Lit(l) => self.un.lit(&mut self.sat, i, *l),
            Pos::State(q) if *q == me => self.s(*q, d, i + 1),
            Pos::State(q) => self.s(*q, 0, i + 1),
            Pos::And(v) | Pos::Or(v) => {
                let and = matches!(p, Pos::And(_));
                let xs: Vec<Lit> = v.iter().map(|c| self.enc(c, me, d, i)).collect();
                let y = self.fresh();
                // and: y ⇔ ∧xs ; or: ¬y ⇔ ∧¬xs
                let (y2, xs2): (Lit, Vec<Lit>) = if and {
                    (y, xs)
                } else {
                    (!y, xs.into_iter().map(|x| !x).collect())
                };
                let mut big = vec![y2];
                for &x in &xs2 {
                    self.sat.add_clause(&[!y2, x]);
                    big.push(!x);
                }
                self.sat.add_clause(&big);
                y
            }
        }
    }
    /// The k-invariant constraints of frame `i`.
    fn frame(&mut self, aig: &Aig, i: usize) {
        for &c in &aig.constraints {
            let l = self.un.lit(&mut self.sat, i, c);
            self.sat.add_clause(&[l]);
        }
        for q in 0..self.aut.states.len() {
            let Some(st) = self.aut.states.get(q) else {
                continue;
            };
            let delta = st.delta.clone();
            for d in 0..=self.levels(q) {
                let x = self.s(q, d, i);
                let y = self.enc(&delta, q, d, i);
                self.eq(None, x, y);
                if d > 0 {
                    let lower = self.s(q, d - 1, i);
                    self.sat.add_clause(&[!x, lower]);
                }
            }
        }
        if i == 0 {
            let x = self.s(self.aut.init, 0, 0);
            self.sat.add_clause(&[x]);
        }
        // loop selector l_i: the state at frame i is the proxy s_E
        let li = self.fresh();
        for j in 0..aig.latches.len() {
            let x = self.un.latch(&mut self.sat, i, j);
            let e = self.proxy.get(j).copied().unwrap_or(self.ff);
            self.eq(Some(li), x, e);
        }
        for q in 0..self.aut.states.len() {
            for d in 0..=self.levels(q) {
                let a = self.lv(q, d);
                let b = self.s(q, d, i);
                self.eq(Some(li), a, b);
            }
        }
        let prev = self.in_loop.last().copied().unwrap_or(self.ff);
        let now = self.fresh();
        // now ⇔ prev ∨ li ; prev ⇒ ¬li
        self.sat.add_clause(&[!now, prev, li]);
        self.sat.add_clause(&[now, !prev]);
        self.sat.add_clause(&[now, !li]);
        self.sat.add_clause(&[!prev, !li]);
        self.in_loop.push(now);
    }
    /// The k-dependent constraints of bound `k`, behind a fresh activation literal.
    fn close(&mut self, aig: &Aig, k: usize) -> Lit {
        let act = self.fresh();
        let il = self.in_loop.get(k).copied().unwrap_or(self.ff);
        self.sat.add_clause(&[!act, il]);
        for j in 0..aig.latches.len() {
            let x = self.un.latch(&mut self.sat, k + 1, j);
            let e = self.proxy.get(j).copied().unwrap_or(self.ff);
            self.eq(Some(act), x, e);
        }
        for q in 0..self.aut.states.len() {
            if self.levels(q) == 0 {
                let a = self.s(q, 0, k + 1);
                let b = self.lv(q, 0);
                self.eq(Some(act), a, b);
            } else {
                for d in 0..=self.levels(q) {
                    let a = self.s(q, d, k + 1);
                    let b = self.lv(q, d + 1);
                    self.eq(Some(act), a, b);
                }
            }
        }
        act
    }
}

/// Searches for a lasso of the circuit whose word the automaton accepts, bound by bound from 0
/// (`max_bound`: the last bound tried; `None`: until the budget runs out).
pub(crate) fn waba_bmc(
    aig: &Aig,
    aut: &Vwaba,
    prop: (char, usize),
    max_bound: Option<usize>,
    budget: &Budget,
) -> LassoOutcome {
    let mut sat = CdclBackend::new();
    let un = Unroller::new(aig, &mut sat, true);
    let ff = Lit::pos(sat.new_var());
    sat.add_clause(&[!ff]);
    let mut e = Enc {
        aut,
        sat,
        un,
        s: HashMap::new(),
        l: HashMap::new(),
        ff,
        in_loop: Vec::new(),
        proxy: Vec::new(),
    };
    e.proxy = (0..aig.latches.len()).map(|_| e.fresh()).collect();
    let stop = |why: Exhausted, k: usize| {
        LassoOutcome::None(Outcome::Exhausted {
            why,
            reached: format!("WABA BMC: no lasso with fewer than {k} frames, stopped at bound {k}"),
        })
    };
    let mut k = 0usize;
    loop {
        if max_bound.is_some_and(|m| k > m) {
            return LassoOutcome::None(Outcome::Unknown {
                reason: format!(
                    "no lasso counterexample up to bound {} (WABA BMC)",
                    max_bound.unwrap_or(0)
                ),
            });
        }
        if let Err(why) = budget.check() {
            return stop(why, k);
        }
        e.frame(aig, k);
        if let Err(why) = budget.check() {
            return stop(why, k);
        }
        let act = e.close(aig, k);
        match e.sat.solve(&[act], budget) {
            SatResult::Sat => return LassoOutcome::Found(extract(&e, prop, k)),
            SatResult::Unsat => e.sat.add_clause(&[!act]),
            SatResult::Unknown => return stop(e.sat.exhausted().unwrap_or(Exhausted::Timeout), k),
        }
        k += 1;
    }
}

fn extract(e: &Enc, prop: (char, usize), k: usize) -> Lasso {
    let (latches, inputs) = e.un.model_trace(&e.sat, k);
    Lasso {
        witness: Witness {
            props: vec![prop],
            latches,
            inputs,
        },
    }
}
