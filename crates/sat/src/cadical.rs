//! [`SatBackend`] served by CaDiCaL (Biere et al., "CaDiCaL 2.0", CAV 2024) through the
//! `rustsat` / `rustsat-cadical` crates. Opt-in (cargo feature `cadical`): the build compiles
//! CaDiCaL's C++ sources. The budget is polled by CaDiCaL's terminate callback.

use crate::backend::{SatBackend, VarCount};
use crate::cdcl::{Lit, SatResult, Var};
use rustsat::solvers::{ControlSignal, Solve, SolveIncremental, SolverResult, Terminate};
use rustsat::types::{Clause, Lit as RLit, TernaryVal};
use std::cell::Cell;
use std::rc::Rc;
use verikit_diag::{Budget, Exhausted};

/// CaDiCaL behind the [`SatBackend`] interface.
pub struct CadicalBackend {
    solver: rustsat_cadical::CaDiCaL<'static, 'static>,
    vars: VarCount,
    model: Vec<bool>,
    core: Vec<Lit>,
    exhausted: Rc<Cell<Option<Exhausted>>>,
}

impl Default for CadicalBackend {
    fn default() -> Self {
        CadicalBackend::new()
    }
}

impl CadicalBackend {
    pub fn new() -> CadicalBackend {
        CadicalBackend {
            solver: rustsat_cadical::CaDiCaL::default(),
            vars: VarCount::default(),
            model: Vec::new(),
            core: Vec::new(),
            exhausted: Rc::new(Cell::new(None)),
        }
    }
}

fn to_rlit(l: Lit) -> RLit {
    RLit::new(l.var(), l.is_neg())
}

fn from_rlit(l: RLit) -> Lit {
    Lit::new(l.vidx32(), l.is_neg())
}

impl SatBackend for CadicalBackend {
    fn name(&self) -> &'static str {
        "cadical"
    }
    fn new_var(&mut self) -> Var {
        self.vars.fresh()
    }
    fn num_vars(&self) -> u32 {
        self.vars.get()
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        self.vars.cover(lits);
        let c: Clause = lits.iter().map(|&l| to_rlit(l)).collect();
        // CaDiCaL only fails here when out of memory; the next solve then reports it.
        let _ = self.solver.add_clause(c);
    }
    fn solve(&mut self, assumptions: &[Lit], budget: &Budget) -> SatResult {
        self.vars.cover(assumptions);
        self.model.clear();
        self.core.clear();
        self.exhausted.set(None);
        let b = budget.clone();
        let why = Rc::clone(&self.exhausted);
        self.solver.attach_terminator(move || match b.check() {
            Ok(()) => ControlSignal::Continue,
            Err(e) => {
                why.set(Some(e));
                ControlSignal::Terminate
            }
        });
        let a: Vec<RLit> = assumptions.iter().map(|&l| to_rlit(l)).collect();
        let r = self.solver.solve_assumps(&a);
        self.solver.detach_terminator();
        match r {
            Ok(SolverResult::Sat) => {
                self.model = (0..self.vars.get())
                    .map(|v| {
                        matches!(
                            self.solver.lit_val(RLit::new(v, false)),
                            Ok(TernaryVal::True)
                        )
                    })
                    .collect();
                SatResult::Sat
            }
            Ok(SolverResult::Unsat) => {
                // rustsat's core is a clause of negated assumptions.
                self.core = self
                    .solver
                    .core()
                    .map(|c| c.into_iter().map(|l| !from_rlit(l)).collect())
                    .unwrap_or_default();
                SatResult::Unsat
            }
            Ok(SolverResult::Interrupted) | Err(_) => SatResult::Unknown,
        }
    }
    fn model_value(&self, lit: Lit) -> Option<bool> {
        let v = *self.model.get(lit.var() as usize)?;
        Some(v != lit.is_neg())
    }
    fn failed_assumptions(&self) -> Vec<Lit> {
        self.core.clone()
    }
    fn exhausted(&self) -> Option<Exhausted> {
        self.exhausted.get()
    }
}
