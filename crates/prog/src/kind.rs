//! k-induction with simple-path constraints — M. Sheeran, S. Singh, G. Stålmarck, "Checking
//! Safety Properties Using Induction and a SAT-Solver", FMCAD 2000 (§3: the base case and the
//! induction step strengthened by the requirement that the states of a path be pairwise
//! distinct), applied to the automaton as one transition system.
//!
//! The single-loop encoding: a state is the program counter `pc` and every variable; one step
//! picks one edge (a selector literal per edge, at most one per source location), which fixes
//! `pc` before and after, constrains the variables by the edge's operation, and keeps every
//! variable the edge does not write. `Bad` is `pc ∈ {error, cut}`.
//! - Base case `k`: `pc_0 = init ∧ T^{k−1} ∧ Bad(s_{k−1})` — satisfiable gives a counterexample of
//!   `k − 1` steps (the values of the nondeterministic calls from the model).
//! - Step `k`: `T^k ∧ ¬Bad(s_0…s_{k−1}) ∧ Bad(s_k) ∧ s_i ≠ s_j (i < j)` — unsatisfiable together
//!   with every base case below `k` means `¬Bad` is k-inductive: a shortest path to `Bad` would
//!   end in `k + 1` pairwise distinct states, the first `k` of them good. States are compared on
//!   the location and the variables live there (`liveness`; a nondeterministic temporary would
//!   otherwise make every state distinct).
//!
//! Both queries go to the SMT solver of `verikit-smt`, one incremental solver each; `k` grows by
//! one until an answer, the budget, or the largest `k`.

use crate::cfa::{Cfa, Op, Var};
use crate::invariant_check::{atom, lin};
use std::collections::HashMap;
use verikit_diag::{Budget, Exhausted};
use verikit_num::Num;
use verikit_smt::{SatResult, Solver, Sort, TermId, TermOp, Value};

/// The outcome of k-induction.
pub(crate) enum KindResult {
    /// `¬Bad` is k-inductive for this `k` (base cases below `k` and the step at `k` refuted).
    Inductive(usize),
    /// The error is reachable: nondeterministic values in order, path length in steps.
    Counterexample(Vec<(i128, u32)>, usize),
    /// A cut recursive call is reachable (not a program error), or `k` reached its limit.
    GaveUp(String),
}

struct Unrolling {
    s: Solver,
    /// Per state: the program counter and the variables.
    states: Vec<(TermId, Vec<TermId>)>,
    /// Per step: the selector of each edge.
    sels: Vec<Vec<TermId>>,
}

impl Unrolling {
    fn new(budget: &Budget) -> Unrolling {
        let mut s = Solver::new();
        s.set_budget(budget);
        Unrolling {
            s,
            states: Vec::new(),
            sels: Vec::new(),
        }
    }
    fn state(&mut self, cfa: &Cfa) -> usize {
        let i = self.states.len();
        let pc = self.s.declare(&format!("pc@{i}"), Sort::Int);
        let vars = (0..cfa.vars.len())
            .map(|x| self.s.declare(&format!("x{x}@{i}"), Sort::Int))
            .collect();
        self.states.push((pc, vars));
        i
    }
    fn konst(&mut self, k: i128) -> TermId {
        self.s.terms.mk_const(Num::integer(k), Sort::Int)
    }
    fn pc_is(&mut self, i: usize, l: usize) -> TermId {
        let pc = self.states.get(i).map_or(TermId(0), |s| s.0);
        let k = self.konst(l as i128);
        self.s.terms.mk(TermOp::Eq, vec![pc, k], Sort::Bool)
    }
    fn bad(&mut self, cfa: &Cfa, i: usize) -> TermId {
        let a = self.pc_is(i, cfa.error);
        let b = self.pc_is(i, cfa.cut);
        self.s.terms.mk(TermOp::Or, vec![a, b], Sort::Bool)
    }
    /// Adds the step from state `i` to state `i + 1` (which must exist).
    fn step(&mut self, cfa: &Cfa, i: usize) {
        let zero = self.konst(0);
        let pre = self.states.get(i).map(|s| s.1.clone()).unwrap_or_default();
        let post = self
            .states
            .get(i + 1)
            .map(|s| s.1.clone())
            .unwrap_or_default();
        let pv = |x: Var| pre.get(x).copied().unwrap_or(zero);
        let mut sels = Vec::with_capacity(cfa.edges.len());
        let mut writers: HashMap<Var, Vec<TermId>> = HashMap::new();
        let mut by_from: HashMap<usize, Vec<TermId>> = HashMap::new();
        for (ei, e) in cfa.edges.iter().enumerate() {
            let sel = self.s.declare(&format!("e{ei}@{i}"), Sort::Bool);
            sels.push(sel);
            by_from.entry(e.from).or_default().push(sel);
            let mut body = vec![self.pc_is(i, e.from), self.pc_is(i + 1, e.to)];
            match &e.op {
                Op::Assume(atoms) => {
                    for a in atoms {
                        body.push(atom(&mut self.s, a, &pv));
                    }
                }
                Op::Assign(asg) => {
                    for (x, t) in asg {
                        let rhs = lin(&mut self.s, t, &pv);
                        let nx = post.get(*x).copied().unwrap_or(zero);
                        body.push(self.s.terms.mk(TermOp::Eq, vec![nx, rhs], Sort::Bool));
                        writers.entry(*x).or_default().push(sel);
                    }
                }
                Op::Havoc { vars, .. } => {
                    for &x in vars {
                        writers.entry(x).or_default().push(sel);
                    }
                }
            }
            let conj = self.s.terms.mk(TermOp::And, body, Sort::Bool);
            let imp = self
                .s
                .terms
                .mk(TermOp::Implies, vec![sel, conj], Sort::Bool);
            self.s.assert(imp);
        }
        // Some edge is taken; at most one per source location.
        let any = match sels.len() {
            0 => self.s.terms.mk_false(),
            _ => self.s.terms.mk(TermOp::Or, sels.clone(), Sort::Bool),
        };
        self.s.assert(any);
        for group in by_from.values() {
            for (a, &p) in group.iter().enumerate() {
                for &q in group.iter().skip(a + 1) {
                    let both = self.s.terms.mk(TermOp::And, vec![p, q], Sort::Bool);
                    let nb = self.s.terms.mk_not(both);
                    self.s.assert(nb);
                }
            }
        }
        // Frame: a variable keeps its value unless a writing edge is taken.
        for x in 0..cfa.vars.len() {
            let (a, b) = (pv(x), post.get(x).copied().unwrap_or(zero));
            let same = self.s.terms.mk(TermOp::Eq, vec![b, a], Sort::Bool);
            let mut ors = writers.get(&x).cloned().unwrap_or_default();
            ors.push(same);
            let c = match ors.len() {
                1 => same,
                _ => self.s.terms.mk(TermOp::Or, ors, Sort::Bool),
            };
            self.s.assert(c);
        }
        self.sels.push(sels);
    }
    /// States `i` and `j` differ: in the location, or in a variable live there.
    fn distinct(&mut self, i: usize, j: usize, live: &[Vec<usize>]) -> TermId {
        let (a, b) = (self.states.get(i).cloned(), self.states.get(j).cloned());
        let (Some(a), Some(b)) = (a, b) else {
            return self.s.terms.mk_true();
        };
        let eq = self.s.terms.mk(TermOp::Eq, vec![a.0, b.0], Sort::Bool);
        let mut ors = vec![self.s.terms.mk_not(eq)];
        for (x, (p, q)) in a.1.into_iter().zip(b.1).enumerate() {
            let eq = self.s.terms.mk(TermOp::Eq, vec![p, q], Sort::Bool);
            let ne = self.s.terms.mk_not(eq);
            let locs = live.get(x).map(|v| v.as_slice()).unwrap_or(&[]);
            if locs.len() > MAX_LIVE_LOCS {
                ors.push(ne);
                continue;
            }
            let at: Vec<TermId> = locs.iter().map(|&l| self.pc_is(i, l)).collect();
            if at.is_empty() {
                continue;
            }
            let lv = self.s.terms.mk(TermOp::Or, at, Sort::Bool);
            ors.push(self.s.terms.mk(TermOp::And, vec![lv, ne], Sort::Bool));
        }
        self.s.terms.mk(TermOp::Or, ors, Sort::Bool)
    }
    /// The nondeterministic values along the model's path of `steps` steps.
    fn nondets(&self, cfa: &Cfa, steps: usize) -> Vec<(i128, u32)> {
        let mut memo = HashMap::new();
        let mut out = Vec::new();
        for i in 0..steps {
            let Some(sels) = self.sels.get(i) else { break };
            let taken = sels
                .iter()
                .position(|&t| matches!(self.s.model_value(t, &mut memo), Some(Value::Bool(true))));
            let Some(e) = taken.and_then(|e| cfa.edges.get(e)) else {
                continue;
            };
            if let Op::Havoc { vars, nondet: true } = &e.op {
                for &x in vars {
                    let t = self.states.get(i + 1).and_then(|s| s.1.get(x)).copied();
                    if let Some(Value::Num(n)) = t.and_then(|t| self.s.model_value(t, &mut memo)) {
                        out.push((to_i128(&n), e.line));
                    }
                }
            }
        }
        out
    }
}

/// Above this many locations a variable is compared everywhere (a weaker, still sound constraint).
const MAX_LIVE_LOCS: usize = 64;

/// Per variable, the locations where it is live (read before written on some path onward).
/// Comparing two states of a path only on the variables live at their location is still sound:
/// if they agree there, the rest of the path runs from the earlier one too (dead values are
/// written before they are read), so a shortest path to `Bad` has no such pair.
fn liveness(cfa: &Cfa) -> Vec<Vec<usize>> {
    let n = cfa.vars.len();
    let mut live: Vec<Vec<bool>> = vec![vec![false; n]; cfa.nlocs];
    let mut changed = true;
    while changed {
        changed = false;
        for e in &cfa.edges {
            let mut inn: Vec<bool> = live.get(e.to).cloned().unwrap_or_else(|| vec![false; n]);
            match &e.op {
                Op::Assume(atoms) => {
                    for a in atoms {
                        for &x in a.lin.coeffs.keys() {
                            if let Some(v) = inn.get_mut(x) {
                                *v = true;
                            }
                        }
                    }
                }
                Op::Assign(asg) => {
                    for (x, _) in asg {
                        if let Some(v) = inn.get_mut(*x) {
                            *v = false;
                        }
                    }
                    for (_, t) in asg {
                        for &y in t.coeffs.keys() {
                            if let Some(v) = inn.get_mut(y) {
                                *v = true;
                            }
                        }
                    }
                }
                Op::Havoc { vars, .. } => {
                    for &x in vars {
                        if let Some(v) = inn.get_mut(x) {
                            *v = false;
                        }
                    }
                }
            }
            if let Some(cur) = live.get_mut(e.from) {
                for (c, i) in cur.iter_mut().zip(inn) {
                    if i && !*c {
                        *c = true;
                        changed = true;
                    }
                }
            }
        }
    }
    let mut out = vec![Vec::new(); n];
    for (l, row) in live.iter().enumerate() {
        for (x, &b) in row.iter().enumerate() {
            if b {
                if let Some(o) = out.get_mut(x) {
                    o.push(l);
                }
            }
        }
    }
    out
}

fn to_i128(n: &Num) -> i128 {
    let (p, _) = n.parts();
    p.to_string().parse::<i128>().unwrap_or(0)
}

fn unknown_err(budget: &Budget) -> Exhausted {
    budget.check().err().unwrap_or(Exhausted::Timeout)
}

/// Runs k-induction for `k = 1 … max_k`.
pub(crate) fn k_induction(
    cfa: &Cfa,
    max_k: usize,
    budget: &Budget,
) -> Result<KindResult, Exhausted> {
    let live = liveness(cfa);
    let mut base = Unrolling::new(budget);
    let mut step = Unrolling::new(budget);
    base.state(cfa);
    let init = base.pc_is(0, cfa.init);
    base.s.assert(init);
    step.state(cfa);
    for k in 1..=max_k {
        budget.check()?;
        // Base case: Bad after k − 1 steps.
        let bad = base.bad(cfa, k - 1);
        match base.s.check(&[bad]) {
            SatResult::Sat => {
                let cut = base.pc_is(k - 1, cfa.cut);
                let mut memo = HashMap::new();
                if cfa.cut != cfa.error
                    && matches!(base.s.model_value(cut, &mut memo), Some(Value::Bool(true)))
                {
                    return Ok(KindResult::GaveUp(format!(
                        "a recursive call beyond the inlining depth is reachable in {} steps",
                        k - 1
                    )));
                }
                return Ok(KindResult::Counterexample(base.nondets(cfa, k - 1), k - 1));
            }
            SatResult::Unknown => return Err(unknown_err(budget)),
            SatResult::Unsat => {}
        }
        let good = base.s.terms.mk_not(bad);
        base.s.assert(good);
        base.state(cfa);
        base.step(cfa, k - 1);
        // Step: k good, pairwise distinct states, then Bad.
        let g = step.bad(cfa, k - 1);
        let ng = step.s.terms.mk_not(g);
        step.s.assert(ng);
        step.state(cfa);
        step.step(cfa, k - 1);
        for j in 0..k {
            let d = step.distinct(j, k, &live);
            step.s.assert(d);
        }
        let bad_k = step.bad(cfa, k);
        match step.s.check(&[bad_k]) {
            SatResult::Unsat => return Ok(KindResult::Inductive(k)),
            SatResult::Unknown => return Err(unknown_err(budget)),
            SatResult::Sat => {}
        }
    }
    Ok(KindResult::GaveUp(format!(
        "not {max_k}-inductive (prog.max-k) and no counterexample within {max_k} steps"
    )))
}
