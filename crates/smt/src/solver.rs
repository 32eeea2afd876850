//! The solver API: assertions, `push`/`pop` (activation literals), `check` with assumptions,
//! models, unsat cores (failed assumptions) and statistics — DPLL(T) with the arithmetic solver of
//! Dutertre & de Moura, "A Fast Linear-Arithmetic Solver for DPLL(T)" (CAV 2006). Designed to be
//! reused by other engines (interpolation, predicate abstraction): build terms in `terms`,
//! `assert`, `check`, read `model_value`.

use crate::arith::Arith;
use crate::check::{eval, CertChecker, Value};
use crate::difference_logic::{DiffLogic, DlStats, DlTheory};
use crate::linearize::Linearizer;
use crate::terms::{Op, Sort, TermId, Terms};
use crate::tseitin::{Ctx, Tseitin};
use std::collections::HashMap;
use std::time::Instant;
use verikit_diag::Budget;
use verikit_num::Num;
use verikit_sat::{Cdcl, Lit, SatResult};

/// A pop rebuilds the encoding once the SAT variables created inside popped scopes exceed the
/// live ones by this many (see `Solver::pop`).
const REBUILD_SLACK: u64 = 100;

pub struct Solver {
    pub terms: Terms,
    lin: Linearizer,
    arith: Arith,
    sat: Cdcl,
    ts: Tseitin,
    /// Activation literal of each open scope.
    scopes: Vec<(Lit, usize)>,
    /// Assertions in scope (for model validation).
    assertions: Vec<TermId>,
    model: Option<Vec<Value>>,
    core: Vec<TermId>,
    /// Literals of the assertions in scope (relevance: only their cone is decided).
    roots: Vec<Lit>,
    /// Number of roots when each scope was opened.
    root_lim: Vec<usize>,
    /// The difference-logic solver, used while every atom is a difference atom.
    dl: DiffLogic,
    /// The simplex decides from now on (a non-difference atom appeared, or it was asked for).
    dl_off: bool,
    dl_used: bool,
    /// Facts from conditional definitions (`conditional_definitions.rs`).
    pub cond_defs: crate::conditional_definitions::CondDefs,
    /// The caller turned the difference-logic solver off (`set_difference_logic(false)`).
    dl_user_off: bool,
    /// SAT variables when each open scope was pushed.
    scope_vars: Vec<u32>,
    /// SAT variables created inside scopes popped since the last rebuild (an estimate of the
    /// dead part of the encoding: a later assertion may reuse some of them through the caches).
    dead_vars: u64,
    /// Rebuilds of the encoding so far (`--stats`).
    rebuilds: u64,
}

/// Solver statistics (`--stats`).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct SolverStats {
    #[serde(flatten)]
    pub sat: verikit_sat::Stats,
    pub pivots: u64,
    pub branches: u64,
    pub cuts: u64,
    pub atoms: usize,
    pub simplex_vars: usize,
    pub rows: usize,
    pub nonzeros: usize,
    pub eliminated: u64,
    pub certificates_checked: u64,
    /// Pops that rebuilt the encoding of the assertions in scope.
    pub rebuilds: u64,
    #[serde(flatten)]
    pub dl: DlStats,
    #[serde(flatten)]
    pub cond_defs: crate::conditional_definitions::CondDefStats,
}

impl Default for Solver {
    fn default() -> Self {
        Self::new()
    }
}

impl Solver {
    pub fn new() -> Solver {
        Solver {
            terms: Terms::new(),
            lin: Linearizer::new(),
            arith: Arith::new(),
            sat: Cdcl::new(),
            ts: Tseitin::new(),
            scopes: Vec::new(),
            assertions: Vec::new(),
            model: None,
            core: Vec::new(),
            roots: Vec::new(),
            root_lim: Vec::new(),
            dl: DiffLogic::new(),
            dl_off: false,
            dl_used: false,
            cond_defs: crate::conditional_definitions::CondDefs::new(),
            dl_user_off: false,
            scope_vars: Vec::new(),
            dead_vars: 0,
            rebuilds: 0,
        }
    }

    /// Turns on Farkas-certificate checking of every theory conflict and propagation.
    pub fn enable_certificates(&mut self) {
        self.arith.checker = Some(CertChecker::new());
    }
    pub fn certificates(&self) -> Option<&CertChecker> {
        self.arith.checker.as_ref()
    }
    pub fn set_deadline(&mut self, d: Option<Instant>) {
        self.sat.set_deadline(d);
        self.arith.simplex.deadline = d;
    }
    /// The budget the search polls (deadline, cancellation) and reports its conflicts to.
    pub fn set_budget(&mut self, budget: &Budget) {
        self.arith.simplex.deadline = budget.deadline();
        self.sat.set_budget(budget.clone());
        self.sat.report_progress(true);
    }

    /// Lets the difference-logic solver decide checks whose atoms are all difference atoms
    /// (default), or always uses the simplex (`false`; cannot be undone).
    pub fn set_difference_logic(&mut self, on: bool) {
        if !on {
            self.dl_off = true;
            self.dl_user_off = true;
        }
    }

    /// Largest graph (difference-logic variables plus one) decided with the all-pairs distance
    /// matrix (default `difference_logic::MATRIX_LIMIT`; 0: always the potentials and searches).
    pub fn set_dl_matrix_limit(&mut self, limit: usize) {
        self.dl.set_matrix_limit(limit);
    }

    pub fn declare(&mut self, name: &str, sort: Sort) -> TermId {
        self.terms.declare(name, sort)
    }

    fn lit(&mut self, t: TermId) -> Lit {
        let mut cx = Ctx {
            terms: &mut self.terms,
            lin: &mut self.lin,
            arith: &mut self.arith,
            sat: &mut self.sat,
        };
        self.ts.lit(&mut cx, t)
    }

    /// Asserts a Boolean term in the current scope.
    pub fn assert(&mut self, t: TermId) {
        self.model = None;
        self.assertions.push(t);
        let guard = self.scopes.last().map(|s| s.0);
        let mut stack = vec![t];
        while let Some(c) = stack.pop() {
            if let Op::And = self.terms.node(c).op {
                stack.extend(self.terms.node(c).args.iter().copied());
                continue;
            }
            let l = self.lit(c);
            self.roots.push(l);
            match guard {
                Some(g) => self.sat.add_clause(&mut self.arith, &[!g, l]),
                None => self.sat.add_clause(&mut self.arith, &[l]),
            };
        }
        let derived = self.cond_defs.process(&mut self.terms, t);
        // The 0/1 variables' definitions hold in every scope; they are not roots for relevance:
        // their atoms follow from the Booleans by propagation and are never decided.
        for d in derived.definitions {
            let l = self.lit(d);
            self.sat.add_clause(&mut self.arith, &[l]);
        }
        for f in derived.facts {
            let l = self.lit(f);
            self.roots.push(l);
            match guard {
                Some(g) => self.sat.add_clause(&mut self.arith, &[!g, l]),
                None => self.sat.add_clause(&mut self.arith, &[l]),
            };
        }
    }

    pub fn push(&mut self) {
        let a = Lit::pos(self.sat.new_var());
        self.scopes.push((a, self.assertions.len()));
        self.root_lim.push(self.roots.len());
        self.scope_vars.push(self.sat.num_vars());
        self.cond_defs.push();
    }

    pub fn pop(&mut self, n: usize) {
        for _ in 0..n {
            if let Some((a, len)) = self.scopes.pop() {
                self.sat.add_clause(&mut self.arith, &[!a]);
                self.assertions.truncate(len);
            }
            if let Some(k) = self.root_lim.pop() {
                self.roots.truncate(k);
            }
            if let Some(v) = self.scope_vars.pop() {
                self.dead_vars += u64::from(self.sat.num_vars().saturating_sub(v));
            }
            self.cond_defs.pop();
        }
        self.model = None;
        // Everything a popped scope created stays in the SAT solver and the simplex (variables,
        // clauses learned under its activation literal, atoms, tableau rows, bounds on its
        // slacks), and every later check would pay for it: a long script of push/assert/
        // check/pop blocks grew quadratically. Once the dead part outweighs the live part by
        // `REBUILD_SLACK` variables, the assertions in scope are encoded again from scratch;
        // the rebuild costs about as much as encoding the live part, so it is paid for by the
        // dead variables that triggered it and each block's cost no longer depends on the
        // number of blocks before it.
        let live = u64::from(self.sat.num_vars()).saturating_sub(self.dead_vars);
        if self.dead_vars > live + REBUILD_SLACK {
            self.rebuild();
        }
    }

    /// Encodes the assertions in scope again into fresh SAT, arithmetic and difference-logic
    /// solvers (same scopes, same terms); statistics, certificate checking and the deadline
    /// carry over. Learned clauses are dropped.
    fn rebuild(&mut self) {
        let scopes = std::mem::take(&mut self.scopes);
        let assertions = std::mem::take(&mut self.assertions);
        let mut arith = Arith::new();
        arith.checker = self.arith.checker.take();
        arith.row_refinement = self.arith.row_refinement;
        arith.simplex.deadline = self.arith.simplex.deadline;
        arith.simplex.pivots = self.arith.simplex.pivots;
        arith.simplex.eliminated = self.arith.simplex.eliminated;
        arith.branches = self.arith.branches;
        arith.cuts = self.arith.cuts;
        arith.int_checks = self.arith.int_checks;
        self.arith = arith;
        let mut sat = Cdcl::new();
        sat.set_budget(self.sat.budget().clone());
        sat.report_progress(true);
        sat.stats = self.sat.stats.clone();
        self.sat = sat;
        let mut dl = DiffLogic::with_matrix_limit(self.dl.matrix_limit());
        dl.stats = self.dl.stats.clone();
        self.dl = dl;
        self.dl_off = self.dl_user_off;
        self.lin = self.lin.renewed();
        self.ts = Tseitin::new();
        let mut cd = crate::conditional_definitions::CondDefs::new();
        cd.stats = self.cond_defs.stats.clone();
        self.cond_defs = cd;
        self.roots.clear();
        self.root_lim.clear();
        self.scope_vars.clear();
        self.dead_vars = 0;
        self.rebuilds += 1;
        let mut k = 0;
        for (i, &t) in assertions.iter().enumerate() {
            while k < scopes.len() && scopes[k].1 <= i {
                self.push();
                k += 1;
            }
            self.assert(t);
        }
        while k < scopes.len() {
            self.push();
            k += 1;
        }
        self.model = None;
    }

    pub fn num_scopes(&self) -> usize {
        self.scopes.len()
    }

    /// Checks satisfiability of the assertions together with the Boolean `assumptions`.
    pub fn check(&mut self, assumptions: &[TermId]) -> SatResult {
        self.sat
            .budget()
            .progress()
            .phase("SMT search: conflicts", None);
        self.model = None;
        self.core.clear();
        let mut assume: Vec<Lit> = self.scopes.iter().map(|s| s.0).collect();
        let mut user: Vec<(Lit, TermId)> = Vec::new();
        for &t in assumptions {
            let l = self.lit(t);
            user.push((l, t));
            assume.push(l);
        }
        self.arith.simplex.interrupted = false;
        self.arith.preprocess();
        // Only the cone of the assertions in scope (and the assumptions) is decided: atoms of
        // popped formulas would otherwise be decided and asserted into the simplex.
        let mut relevant = vec![false; self.sat.num_vars() as usize];
        self.ts.mark_relevant(
            self.roots.iter().chain(assume.iter()).copied(),
            &mut relevant,
        );
        self.sat.set_decidable(&relevant);
        // Bounds only (no atom over two variables): the simplex decides, without a graph.
        if !self.dl_off && (self.dl.sync(&self.arith).is_err() || !self.dl.has_differences()) {
            self.dl_off = true;
        }
        self.dl_used = !self.dl_off;
        let r = if self.dl_used {
            let mut th = DlTheory {
                dl: &mut self.dl,
                arith: &mut self.arith,
            };
            self.sat.solve(&mut th, &assume)
        } else {
            self.sat.solve(&mut self.arith, &assume)
        };
        match r {
            SatResult::Sat => {
                let delta = self.arith.simplex.delta();
                let dl_vals = if self.dl_used {
                    Some(self.dl.model(self.terms.vars.len()))
                } else {
                    None
                };
                let mut m = Vec::with_capacity(self.terms.vars.len());
                for (i, (_, s)) in self.terms.vars.iter().enumerate() {
                    let v = match s {
                        Sort::Bool => {
                            let t = match self.terms_var(i as u32) {
                                Some(t) => t,
                                None => {
                                    m.push(Value::Bool(false));
                                    continue;
                                }
                            };
                            Value::Bool(
                                self.ts
                                    .cache
                                    .get(&t)
                                    .and_then(|l| self.sat.value(*l))
                                    .unwrap_or(false),
                            )
                        }
                        _ => Value::Num(match &dl_vals {
                            Some(v) => v.get(i).cloned().unwrap_or(Num::ZERO),
                            None => self.arith.value_of(i as u32, &delta),
                        }),
                    };
                    m.push(v);
                }
                self.model = Some(m);
            }
            SatResult::Unsat => {
                let failed = self.sat.core.clone();
                for (l, t) in &user {
                    if failed.contains(l) {
                        self.core.push(*t);
                    }
                }
                self.core.dedup();
            }
            SatResult::Unknown => {}
        }
        // Back to the root with the theory that searched (an answer may leave levels open).
        if self.dl_used {
            let mut th = DlTheory {
                dl: &mut self.dl,
                arith: &mut self.arith,
            };
            self.sat.cancel_until(&mut th, 0);
        } else {
            self.sat.cancel_until(&mut self.arith, 0);
        }
        r
    }

    fn terms_var(&self, i: u32) -> Option<TermId> {
        // Var terms are hash-consed; look the node up without creating it.
        self.terms.lookup(Op::Var(i), vec![], Sort::Bool)
    }

    /// The model of the last `Sat` answer, as values of declared constants.
    pub fn model(&self) -> Option<&[Value]> {
        self.model.as_deref()
    }

    /// Value of any term under the last model.
    pub fn model_value(&self, t: TermId, memo: &mut HashMap<TermId, Value>) -> Option<Value> {
        let m = self.model.as_ref()?;
        let f = |i: u32| m.get(i as usize).cloned().unwrap_or(Value::Num(Num::ZERO));
        Some(eval(&self.terms, t, &f, memo))
    }

    /// Assumptions of the last `Unsat` answer that suffice for unsatisfiability.
    pub fn unsat_core(&self) -> &[TermId] {
        &self.core
    }

    /// Validates the last model against every assertion in scope (and `extra` terms that must be
    /// true, e.g. assumptions). Returns the assertions that evaluate to false.
    pub fn validate_model(&self, extra: &[TermId]) -> Option<Vec<TermId>> {
        let mut memo = HashMap::new();
        let mut bad = Vec::new();
        for &a in self.assertions.iter().chain(extra) {
            match self.model_value(a, &mut memo) {
                Some(Value::Bool(true)) => {}
                Some(_) => bad.push(a),
                None => return None,
            }
        }
        Some(bad)
    }

    pub fn assertions(&self) -> &[TermId] {
        &self.assertions
    }

    /// The assertions in scope as an SMT-LIB script in `logic` (declarations, shared sub-terms
    /// as `define-fun`s, `check-sat`), for other solvers.
    pub fn to_smtlib(&self, logic: &str) -> String {
        crate::printer::script(&self.terms, logic, &self.assertions)
    }

    pub fn stats(&self) -> SolverStats {
        SolverStats {
            sat: self.sat.stats.clone(),
            pivots: self.arith.simplex.pivots,
            branches: self.arith.branches,
            cuts: self.arith.cuts,
            atoms: self.arith.atoms.len(),
            simplex_vars: self.arith.simplex.num_vars(),
            rows: self.arith.simplex.tableau_size().0,
            nonzeros: self.arith.simplex.tableau_size().1,
            eliminated: self.arith.simplex.eliminated,
            certificates_checked: self.arith.checker.as_ref().map_or(0, |c| c.checked),
            rebuilds: self.rebuilds,
            dl: DlStats {
                dl_used: self.dl_used,
                ..self.dl.stats.clone()
            },
            cond_defs: self.cond_defs.stats.clone(),
        }
    }
}
