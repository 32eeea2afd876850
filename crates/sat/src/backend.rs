//! One interface for engines that need a plain SAT solver (no theory): add clauses, solve under
//! assumptions within a [`Budget`], read the model, read the failed assumptions. The own CDCL
//! serves it ([`CdclBackend`]); with the cargo feature `cadical`, CaDiCaL does too
//! (`crate::cadical::CadicalBackend`). Decision 0008 records which is the default and why.

use crate::cdcl::{Cdcl, Lit, NoTheory, SatResult, Var};
use verikit_diag::{Budget, Exhausted};

/// A plain incremental SAT solver.
pub trait SatBackend {
    /// A short name for statistics (`cdcl`, `cadical`).
    fn name(&self) -> &'static str;
    /// A fresh variable.
    fn new_var(&mut self) -> Var;
    /// Number of variables so far (literals of larger variables create them).
    fn num_vars(&self) -> u32;
    /// Adds a clause (permanently).
    fn add_clause(&mut self, lits: &[Lit]);
    /// Decides the clauses under the assumptions, polling `budget`; `Unknown` when it ran out.
    fn solve(&mut self, assumptions: &[Lit], budget: &Budget) -> SatResult;
    /// The value of a literal in the model of the last `Sat` answer (`None` before one, or for
    /// a variable the solver never saw).
    fn model_value(&self, lit: Lit) -> Option<bool>;
    /// After `Unsat` under assumptions: a subset of the assumptions that is already
    /// unsatisfiable with the clauses (empty when the clauses alone are).
    fn failed_assumptions(&self) -> Vec<Lit>;
    /// Why the last `solve` answered `Unknown`, if the budget was the reason.
    fn exhausted(&self) -> Option<Exhausted>;
}

/// The variable numbering of a backend that does not number variables itself: the next fresh
/// variable, raised past every variable a clause or an assumption mentions.
#[derive(Clone, Copy, Debug, Default)]
pub struct VarCount(u32);

impl VarCount {
    /// A fresh variable.
    pub fn fresh(&mut self) -> Var {
        self.0 += 1;
        self.0 - 1
    }

    /// Number of variables so far.
    pub fn get(self) -> u32 {
        self.0
    }

    /// Counts every variable of `lits`.
    pub fn cover(&mut self, lits: &[Lit]) {
        if let Some(m) = lits.iter().map(|l| l.var()).max() {
            self.0 = self.0.max(m + 1);
        }
    }
}

/// The own CDCL core ([`Cdcl`]) with the empty theory.
#[derive(Default)]
pub struct CdclBackend {
    sat: Cdcl,
    /// Model of the last `Sat` answer, one entry per variable.
    model: Vec<bool>,
    /// The decision domain set by [`CdclBackend::set_domain`], if one is.
    domain: Option<Vec<Var>>,
}

impl CdclBackend {
    pub fn new() -> CdclBackend {
        CdclBackend::default()
    }
    /// Limits the conflicts of each following `solve` (see [`Cdcl::set_conflict_limit`]).
    pub fn set_conflict_limit(&mut self, limit: Option<u64>) {
        self.sat.set_conflict_limit(limit);
    }
    /// Search statistics of the core.
    pub fn stats(&self) -> &crate::cdcl::Stats {
        &self.sat.stats
    }
    /// Restricts the decisions of the following solves to `vars` and to variables created
    /// later: the others are assigned by propagation only, and read as false in a model when
    /// propagation leaves them open. `Unsat` answers are unaffected; a `Sat` answer is a model
    /// of all clauses when every conflict-free assignment of the domain extends to one (a
    /// Tseitin circuit asked about the cone of a gate: what lies outside is a function of
    /// variables left open); otherwise it is a partial assignment without a conflict, which
    /// the caller must be able to use as such (IC3's per-query cones, as in rIC3).
    pub fn set_domain(&mut self, vars: &[Var]) {
        match self.domain.take() {
            Some(old) => old
                .iter()
                .for_each(|&v| self.sat.set_var_decidable(v, false)),
            None => (0..self.sat.num_vars()).for_each(|v| self.sat.set_var_decidable(v, false)),
        }
        for &v in vars {
            self.ensure_var(v);
            self.sat.set_var_decidable(v, true);
        }
        self.domain = Some(vars.to_vec());
    }
    /// Lifts the restriction of [`CdclBackend::set_domain`]: every variable is decided again.
    pub fn clear_domain(&mut self) {
        if self.domain.take().is_some() {
            (0..self.sat.num_vars()).for_each(|v| self.sat.set_var_decidable(v, true));
        }
    }
    fn ensure_var(&mut self, v: Var) {
        while self.sat.num_vars() <= v {
            self.sat.new_var();
        }
    }
}

impl SatBackend for CdclBackend {
    fn name(&self) -> &'static str {
        "cdcl"
    }
    fn new_var(&mut self) -> Var {
        self.sat.new_var()
    }
    fn num_vars(&self) -> u32 {
        self.sat.num_vars()
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        if let Some(max) = lits.iter().map(|l| l.var()).max() {
            self.ensure_var(max);
        }
        self.sat.add_clause(&mut NoTheory, lits);
    }
    fn solve(&mut self, assumptions: &[Lit], budget: &Budget) -> SatResult {
        if let Some(max) = assumptions.iter().map(|l| l.var()).max() {
            self.ensure_var(max);
        }
        self.model.clear();
        self.sat.set_budget(budget.clone());
        let r = self.sat.solve(&mut NoTheory, assumptions);
        if r == SatResult::Sat {
            self.model = (0..self.sat.num_vars())
                .map(|v| self.sat.value(Lit::pos(v)) == Some(true))
                .collect();
            self.sat.cancel_until(&mut NoTheory, 0);
        }
        r
    }
    fn model_value(&self, lit: Lit) -> Option<bool> {
        let v = *self.model.get(lit.var() as usize)?;
        Some(v != lit.is_neg())
    }
    fn failed_assumptions(&self) -> Vec<Lit> {
        self.sat.core.clone()
    }
    fn exhausted(&self) -> Option<Exhausted> {
        self.sat.exhausted()
    }
}
