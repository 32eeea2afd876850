//! Bit-parallel ternary simulation: every signal holds 64 lanes of 0/1/X as two words (`one`:
//! lanes known 1, `zero`: lanes known 0; neither = X). AND is `one = a.one & b.one`,
//! `zero = a.zero | b.zero`; negation swaps the words. This is the X-valued simulation symbolic
//! trajectory evaluation builds on (Roorda–Claessen, CAV'06 C19 §2) and the concrete simulator
//! that replays witnesses.

use crate::aig::{Aig, Reset};

/// 64 lanes of a ternary value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Ternary {
    pub one: u64,
    pub zero: u64,
}

impl Ternary {
    pub const X: Ternary = Ternary { one: 0, zero: 0 };
    pub const ZERO: Ternary = Ternary { one: 0, zero: !0 };
    pub const ONE: Ternary = Ternary { one: !0, zero: 0 };
    pub fn from_bool(b: bool) -> Ternary {
        if b {
            Ternary::ONE
        } else {
            Ternary::ZERO
        }
    }
    /// `Some(b)` / `None` (X) of a value given for every lane alike.
    pub fn from_opt(b: Option<bool>) -> Ternary {
        b.map_or(Ternary::X, Ternary::from_bool)
    }
    pub fn and(self, o: Ternary) -> Ternary {
        Ternary {
            one: self.one & o.one,
            zero: self.zero | o.zero,
        }
    }
    /// The value of lane `k`: `Some(true/false)` or `None` for X.
    pub fn lane(self, k: u32) -> Option<bool> {
        let m = 1u64 << (k & 63);
        if self.one & m != 0 {
            Some(true)
        } else if self.zero & m != 0 {
            Some(false)
        } else {
            None
        }
    }
}

impl std::ops::Not for Ternary {
    type Output = Ternary;
    fn not(self) -> Ternary {
        Ternary {
            one: self.zero,
            zero: self.one,
        }
    }
}

/// A simulator of one circuit: set latches, evaluate under inputs, read literals, step.
pub struct Sim<'a> {
    aig: &'a Aig,
    val: Vec<Ternary>,
}

impl<'a> Sim<'a> {
    /// A simulator with every latch at its reset value (uninitialised latches X).
    pub fn new(aig: &'a Aig) -> Sim<'a> {
        let mut s = Sim {
            aig,
            val: vec![Ternary::X; aig.maxvar as usize + 1],
        };
        if let Some(v) = s.val.first_mut() {
            *v = Ternary::ZERO;
        }
        let init: Vec<Ternary> = aig
            .latches
            .iter()
            .map(|l| match l.reset {
                Reset::Zero => Ternary::ZERO,
                Reset::One => Ternary::ONE,
                Reset::Uninit => Ternary::X,
            })
            .collect();
        s.set_latches(&init);
        s
    }
    /// Sets the current latch values (missing entries stay as they are).
    pub fn set_latches(&mut self, vals: &[Ternary]) {
        for (l, &v) in self.aig.latches.iter().zip(vals) {
            if let Some(x) = self.val.get_mut((l.lit >> 1) as usize) {
                *x = v;
            }
        }
    }
    /// Evaluates the combinational logic under the inputs (missing inputs are X).
    pub fn eval(&mut self, inputs: &[Ternary]) {
        for (k, &l) in self.aig.inputs.iter().enumerate() {
            let v = inputs.get(k).copied().unwrap_or(Ternary::X);
            if let Some(x) = self.val.get_mut((l >> 1) as usize) {
                *x = v;
            }
        }
        for g in &self.aig.ands {
            let v = self.lit(g.rhs0).and(self.lit(g.rhs1));
            if let Some(x) = self.val.get_mut((g.lhs >> 1) as usize) {
                *x = v;
            }
        }
    }
    /// The value of a literal (after `eval`).
    pub fn lit(&self, l: u32) -> Ternary {
        let v = self
            .val
            .get((l >> 1) as usize)
            .copied()
            .unwrap_or(Ternary::X);
        if l & 1 == 1 {
            !v
        } else {
            v
        }
    }
    /// Current latch values.
    pub fn latches(&self) -> Vec<Ternary> {
        self.aig.latches.iter().map(|l| self.lit(l.lit)).collect()
    }
    /// Moves to the next state: every latch takes its next-state value (after `eval`).
    pub fn step(&mut self) {
        let next: Vec<Ternary> = self.aig.latches.iter().map(|l| self.lit(l.next)).collect();
        self.set_latches(&next);
    }
}
