//! Tseitin unrolling of an AIG into a SAT solver, shared by every engine: `lit(frame, l)` gives
//! the solver literal of AIG literal `l` at time `frame`, encoding only the cone it needs (so the
//! cone of influence comes for free). Latches at frame `k+1` are their next-state functions at
//! frame `k`; at frame 0 they are fresh variables, constrained to their reset values when the
//! unroller is built with `init` (uninitialised latches stay free). Each AND gate at each frame
//! is one variable with the three Tseitin clauses (Biere, Cimatti, Clarke, Zhu, TACAS'99, the
//! encoding the BMC of Heljanko et al., CAV'06 C12 §2, builds on).

use verikit_aiger::{Aig, Kind, Reset};
use verikit_sat::{Lit, SatBackend};

pub(crate) struct Unroller<'a> {
    aig: &'a Aig,
    kinds: Vec<Kind>,
    frames: Vec<Vec<Option<Lit>>>,
    tru: Lit,
    init: bool,
}

impl<'a> Unroller<'a> {
    pub(crate) fn new(aig: &'a Aig, sat: &mut dyn SatBackend, init: bool) -> Unroller<'a> {
        let t = Lit::pos(sat.new_var());
        sat.add_clause(&[t]);
        Unroller {
            aig,
            kinds: aig.kinds(),
            frames: Vec::new(),
            tru: t,
            init,
        }
    }

    fn get(&self, frame: usize, var: u32) -> Option<Lit> {
        self.frames.get(frame)?.get(var as usize).copied().flatten()
    }

    fn set(&mut self, frame: usize, var: u32, l: Lit) {
        while self.frames.len() <= frame {
            self.frames.push(vec![None; self.aig.maxvar as usize + 1]);
        }
        if let Some(x) = self
            .frames
            .get_mut(frame)
            .and_then(|f| f.get_mut(var as usize))
        {
            *x = Some(l);
        }
    }

    /// Solver literal of variable `var` at `frame`, if already encoded.
    pub(crate) fn known(&self, frame: usize, var: u32) -> Option<Lit> {
        self.get(frame, var)
    }

    /// The solver literal of AIG literal `l` at `frame`.
    pub(crate) fn lit(&mut self, sat: &mut dyn SatBackend, frame: usize, l: u32) -> Lit {
        let v = self.var(sat, frame, l >> 1);
        if l & 1 == 1 {
            !v
        } else {
            v
        }
    }

    /// The latch `j` at `frame`.
    pub(crate) fn latch(&mut self, sat: &mut dyn SatBackend, frame: usize, j: usize) -> Lit {
        let l = self.aig.latches.get(j).map_or(0, |x| x.lit);
        self.lit(sat, frame, l)
    }

    fn var(&mut self, sat: &mut dyn SatBackend, frame: usize, root: u32) -> Lit {
        let mut stack = vec![(frame, root)];
        while let Some(&(f, v)) = stack.last() {
            if self.get(f, v).is_some() {
                stack.pop();
                continue;
            }
            match self
                .kinds
                .get(v as usize)
                .copied()
                .unwrap_or(Kind::Undefined)
            {
                Kind::Const => {
                    self.set(f, v, !self.tru);
                    stack.pop();
                }
                Kind::Input(_) | Kind::Undefined => {
                    let x = Lit::pos(sat.new_var());
                    self.set(f, v, x);
                    stack.pop();
                }
                Kind::Latch(j) => {
                    let Some(latch) = self.aig.latches.get(j).copied() else {
                        stack.pop();
                        continue;
                    };
                    if f == 0 {
                        let x = Lit::pos(sat.new_var());
                        if self.init {
                            match latch.reset {
                                Reset::Zero => sat.add_clause(&[!x]),
                                Reset::One => sat.add_clause(&[x]),
                                Reset::Uninit => {}
                            }
                        }
                        self.set(f, v, x);
                        stack.pop();
                    } else if let Some(n) = self.get(f - 1, latch.next >> 1) {
                        let x = if latch.next & 1 == 1 { !n } else { n };
                        self.set(f, v, x);
                        stack.pop();
                    } else {
                        stack.push((f - 1, latch.next >> 1));
                    }
                }
                Kind::And(g) => {
                    let Some(gate) = self.aig.ands.get(g).copied() else {
                        stack.pop();
                        continue;
                    };
                    let a = self.get(f, gate.rhs0 >> 1);
                    let b = self.get(f, gate.rhs1 >> 1);
                    match (a, b) {
                        (Some(a), Some(b)) => {
                            let a = if gate.rhs0 & 1 == 1 { !a } else { a };
                            let b = if gate.rhs1 & 1 == 1 { !b } else { b };
                            let x = Lit::pos(sat.new_var());
                            sat.add_clause(&[!x, a]);
                            sat.add_clause(&[!x, b]);
                            sat.add_clause(&[x, !a, !b]);
                            self.set(f, v, x);
                            stack.pop();
                        }
                        (None, _) => stack.push((f, gate.rhs0 >> 1)),
                        (_, None) => stack.push((f, gate.rhs1 >> 1)),
                    }
                }
            }
        }
        self.get(frame, root).unwrap_or(self.tru)
    }

    /// The initial latch values and the inputs of frames `0..=last` in the solver's model, as a
    /// witness has them: reset values, uninitialised latches and inputs from the model (0 when
    /// never encoded).
    pub(crate) fn model_trace(
        &self,
        sat: &dyn SatBackend,
        last: usize,
    ) -> (Vec<Option<bool>>, Vec<Vec<Option<bool>>>) {
        let latches = (self.aig.latches.iter().enumerate())
            .map(|(j, l)| {
                Some(match l.reset {
                    Reset::Zero => false,
                    Reset::One => true,
                    Reset::Uninit => self.latch_value(sat, 0, j).unwrap_or(false),
                })
            })
            .collect();
        let inputs = (0..=last)
            .map(|f| {
                (0..self.aig.inputs.len())
                    .map(|j| Some(self.input_value(sat, f, j)))
                    .collect()
            })
            .collect();
        (latches, inputs)
    }

    /// The value of input `j` at `frame` in the solver's model (`false` if never encoded).
    pub(crate) fn input_value(&self, sat: &dyn SatBackend, frame: usize, j: usize) -> bool {
        let Some(&l) = self.aig.inputs.get(j) else {
            return false;
        };
        self.get(frame, l >> 1)
            .and_then(|x| sat.model_value(x))
            .unwrap_or(false)
    }

    /// The value of latch `j` at `frame` in the model (`None` if never encoded).
    pub(crate) fn latch_value(&self, sat: &dyn SatBackend, frame: usize, j: usize) -> Option<bool> {
        let l = self.aig.latches.get(j)?.lit;
        self.get(frame, l >> 1).and_then(|x| sat.model_value(x))
    }
}

/// The latches in the cone of influence of the given literals (through next-state functions).
pub(crate) fn coi_latches(aig: &Aig, roots: &[u32]) -> Vec<usize> {
    latch_support(aig, &aig.kinds(), roots, true)
}

/// The latches the given literals depend on, sorted: through AND gates only (the latches of the
/// current state they read), or with `through_next` also through the next-state functions of
/// the latches reached (the sequential cone of influence).
pub(crate) fn latch_support(
    aig: &Aig,
    kinds: &[Kind],
    roots: &[u32],
    through_next: bool,
) -> Vec<usize> {
    let mut out = Vec::new();
    cone_vars(aig, kinds, roots, |j| {
        out.push(j);
        aig.latches.get(j).filter(|_| through_next).map(|l| l.next)
    });
    out.sort_unstable();
    out
}

/// The variables the given literals depend on (`true` per variable index): through AND gates, and
/// from each latch `j` reached on to the literal `latch(j)` names, if any.
pub(crate) fn cone_vars(
    aig: &Aig,
    kinds: &[Kind],
    roots: &[u32],
    mut latch: impl FnMut(usize) -> Option<u32>,
) -> Vec<bool> {
    let mut seen = vec![false; aig.maxvar as usize + 1];
    let mut stack: Vec<u32> = roots.iter().map(|l| l >> 1).collect();
    while let Some(v) = stack.pop() {
        match seen.get_mut(v as usize) {
            Some(s) if !*s => *s = true,
            _ => continue,
        }
        match kinds.get(v as usize) {
            Some(Kind::Latch(j)) => {
                if let Some(l) = latch(*j) {
                    stack.push(l >> 1);
                }
            }
            Some(Kind::And(g)) => {
                if let Some(a) = aig.ands.get(*g) {
                    stack.push(a.rhs0 >> 1);
                    stack.push(a.rhs1 >> 1);
                }
            }
            _ => {}
        }
    }
    seen
}
