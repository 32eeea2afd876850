//! Conditional definitions: facts derived at decision level 0 from assertions that define an
//! arithmetic variable by cases over a few Booleans, `(=> (and b₁ ¬b₂) (= x 4))`, … . This is a
//! preprocessing step in front of the simplex of Dutertre & de Moura, "A Fast Linear-Arithmetic
//! Solver for DPLL(T)" (CAV 2006, Section 3: atoms become bounds, the tableau is built before the
//! search), as done in Yices: when the cases cover every assignment of the (at most six)
//! Booleans, the variable's values form a table over those Booleans, and
//!
//! - `min ≤ x ≤ max` over the table holds (bounds the simplex knows at level 0);
//! - when the table is affine in the Booleans (`x = c₀ + Σ cᵢ·[bᵢ]`, at most four Booleans and no
//!   two cases contradicting each other), the equation `x = c₀ + Σ cᵢ zᵢ` holds for fresh 0/1
//!   variables `zᵢ ∈ [0, 1]` with `bᵢ → zᵢ ≥ 1` and `¬bᵢ → zᵢ ≤ 0`.
//!
//! The second fact puts the linear relaxation of a 0/1 program encoded with Booleans into the
//! tableau: a relaxation that is already infeasible (MIPLIB's `opt1217`) is refuted by the first
//! simplex check, without any decision. Both facts are consequences of the assertions (a model of
//! the assertions extends to `zᵢ = [bᵢ]`), so answers and models of the original variables do not
//! change; models are still validated against the original assertions.
//!
//! Definitions are collected from every assertion (kept per `push` scope), and a variable's table
//! is rebuilt whenever an assertion adds a case for it.

use crate::terms::{Op, Sort, TermId, Terms};
use std::collections::HashMap;
use verikit_num::Num;

/// Boolean variables a condition may range over (the table is one 64-bit word).
const MAX_VARS: usize = 6;
/// Affine tables are looked for up to this many Booleans.
const MAX_AFFINE_VARS: usize = 4;
/// Conjuncts of one case's condition.
const MAX_CONDS: usize = 8;
/// Cases of one variable that are analysed.
const MAX_CASES: usize = 256;
/// Nodes a condition may have to count as a small pure Boolean term.
const PURE_BUDGET: usize = 100;
/// Nodes explored per assertion.
const EXPLORE_BUDGET: usize = 2_000_000;

/// Truth tables of the variables 0..6 (bit m of the word: the value under assignment m).
const VAR_TABLE: [u64; 6] = [
    0xAAAA_AAAA_AAAA_AAAA,
    0xCCCC_CCCC_CCCC_CCCC,
    0xF0F0_F0F0_F0F0_F0F0,
    0xFF00_FF00_FF00_FF00,
    0xFFFF_0000_FFFF_0000,
    0xFFFF_FFFF_0000_0000,
];

/// One case `(∧ conds) → x = value`.
#[derive(Clone, Debug)]
struct Case {
    x: TermId,
    value: Num,
    conds: Vec<TermId>,
    /// Sorted Boolean variables of the conditions.
    vars: Vec<TermId>,
}

/// What one assertion contributes.
#[derive(Default, Debug)]
pub struct Derived {
    /// Facts implied by the assertions in scope (assert them in the current scope).
    pub facts: Vec<TermId>,
    /// Definitions of fresh 0/1 variables (valid in every scope).
    pub definitions: Vec<TermId>,
}

/// Statistics (`--stats`).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct CondDefStats {
    /// Variables whose cases cover every assignment (bounds asserted).
    pub cond_def_tables: u64,
    /// Of those, tables affine in their Booleans (equation over 0/1 variables asserted).
    pub cond_def_affine: u64,
}

#[derive(Default)]
pub struct CondDefs {
    cases: Vec<Case>,
    /// Indices of the cases of each variable.
    by_var: HashMap<TermId, Vec<usize>>,
    scope_lim: Vec<usize>,
    /// The 0/1 variable of each (Boolean variable, sort).
    zero_one: HashMap<(TermId, Sort), TermId>,
    /// Variables of small pure Boolean terms (`None`: not pure or too big).
    pure: HashMap<TermId, Option<Vec<TermId>>>,
    pub stats: CondDefStats,
    /// Also assert `min ≤ x ≤ max` for affine tables (always asserted for the others).
    pub bounds_for_affine: bool,
}

impl CondDefs {
    pub fn new() -> CondDefs {
        CondDefs::default()
    }

    pub fn push(&mut self) {
        self.scope_lim.push(self.cases.len());
    }

    pub fn pop(&mut self) {
        if let Some(k) = self.scope_lim.pop() {
            while self.cases.len() > k {
                if let Some(c) = self.cases.pop() {
                    if let Some(v) = self.by_var.get_mut(&c.x) {
                        v.pop();
                    }
                }
            }
        }
    }

    /// Collects the cases of assertion `f` and derives the facts of every variable it defines.
    pub fn process(&mut self, terms: &mut Terms, f: TermId) -> Derived {
        let first_new = self.cases.len();
        self.explore(terms, f);
        let mut out = Derived::default();
        if self.cases.len() == first_new {
            return out;
        }
        let mut touched: Vec<TermId> = Vec::new();
        for i in first_new..self.cases.len() {
            let x = self.cases[i].x;
            self.by_var.entry(x).or_default().push(i);
            touched.push(x);
        }
        touched.sort();
        touched.dedup();
        for x in touched {
            let idx = self.by_var.get(&x).cloned().unwrap_or_default();
            // A table has at most 64 rows; many more cases are not a definition by cases.
            if idx.len() <= MAX_CASES {
                self.analyse(terms, x, &idx, &mut out);
            }
        }
        tracing::debug!(
            "conditional definitions: {} cases, {} tables, {} affine",
            self.cases.len(),
            self.stats.cond_def_tables,
            self.stats.cond_def_affine
        );
        out
    }

    /// Walks `f` under assumptions (conditions), recording `assumptions → x = c`.
    fn explore(&mut self, terms: &mut Terms, f: TermId) {
        let mut stack: Vec<(TermId, Vec<TermId>)> = vec![(f, Vec::new())];
        let mut budget = EXPLORE_BUDGET;
        while let Some((t, asm)) = stack.pop() {
            if budget == 0 {
                return;
            }
            budget -= 1;
            if asm.len() > MAX_CONDS {
                continue;
            }
            let node = terms.node(t).owned();
            match node.op {
                Op::And => {
                    for &a in node.args.iter() {
                        stack.push((a, asm.clone()));
                    }
                }
                Op::Implies => {
                    let (a, b) = (node.args[0], node.args[1]);
                    if self.pure_vars(terms, a).is_some() {
                        let mut asm2 = asm;
                        asm2.push(a);
                        stack.push((b, asm2));
                    }
                }
                Op::Or => {
                    let mut impure = None;
                    let mut asm2 = asm;
                    let mut ok = true;
                    for &a in node.args.iter() {
                        if self.pure_vars(terms, a).is_some() {
                            asm2.push(terms.mk_not(a));
                        } else if impure.is_none() {
                            impure = Some(a);
                        } else {
                            ok = false;
                            break;
                        }
                    }
                    if let (true, Some(u)) = (ok, impure) {
                        stack.push((u, asm2));
                    }
                }
                Op::Ite if node.sort == Sort::Bool => {
                    let c = node.args[0];
                    if self.pure_vars(terms, c).is_some() {
                        let mut a1 = asm.clone();
                        a1.push(c);
                        stack.push((node.args[1], a1));
                        let mut a2 = asm;
                        a2.push(terms.mk_not(c));
                        stack.push((node.args[2], a2));
                    }
                }
                Op::Not => {
                    let g = node.args[0];
                    let gn = terms.node(g).owned();
                    match gn.op {
                        // ¬(a ∨ b) = ¬a ∧ ¬b
                        Op::Or => {
                            for &a in gn.args.iter() {
                                let na = terms.mk_not(a);
                                stack.push((na, asm.clone()));
                            }
                        }
                        // ¬(a → b) = a ∧ ¬b
                        Op::Implies => {
                            let nb = terms.mk_not(gn.args[1]);
                            stack.push((nb, asm));
                        }
                        _ => {}
                    }
                }
                Op::Eq => {
                    if asm.is_empty() {
                        continue;
                    }
                    let (a, b) = (node.args[0], node.args[1]);
                    let def = match (arith_var(terms, a), constant(terms, b)) {
                        (Some(x), Some(k)) => Some((x, k)),
                        _ => match (arith_var(terms, b), constant(terms, a)) {
                            (Some(x), Some(k)) => Some((x, k)),
                            _ => None,
                        },
                    };
                    let Some((x, value)) = def else { continue };
                    let mut vars: Vec<TermId> = Vec::new();
                    let mut pure = true;
                    for &c in &asm {
                        match self.pure_vars(terms, c) {
                            Some(vs) => vars.extend(vs.iter().copied()),
                            // (a negated condition over the size budget)
                            None => pure = false,
                        }
                    }
                    if !pure {
                        continue;
                    }
                    vars.sort();
                    vars.dedup();
                    // Conditions over constants only: the equation is asserted as it is.
                    if vars.is_empty() || vars.len() > MAX_VARS {
                        continue;
                    }
                    self.cases.push(Case {
                        x,
                        value,
                        conds: asm,
                        vars,
                    });
                }
                _ => {}
            }
        }
    }

    /// The Boolean variables of `t` if it is a small term of Boolean connectives over Boolean
    /// variables and constants.
    fn pure_vars(&mut self, terms: &Terms, t: TermId) -> Option<Vec<TermId>> {
        if let Some(r) = self.pure.get(&t) {
            return r.clone();
        }
        let mut budget = PURE_BUDGET;
        let mut vars = Vec::new();
        let mut stack = vec![t];
        let mut ok = true;
        while let Some(u) = stack.pop() {
            if budget == 0 {
                ok = false;
                break;
            }
            budget -= 1;
            let n = terms.node(u);
            match n.op {
                Op::True | Op::False => {}
                Op::Var(_) if n.sort == Sort::Bool => vars.push(u),
                Op::Not | Op::And | Op::Or | Op::Xor | Op::Iff | Op::Implies => {
                    stack.extend(n.args.iter().copied())
                }
                Op::Ite if n.sort == Sort::Bool => stack.extend(n.args.iter().copied()),
                _ => {
                    ok = false;
                    break;
                }
            }
        }
        let r = if ok {
            vars.sort();
            vars.dedup();
            if vars.len() <= MAX_VARS {
                Some(vars)
            } else {
                None
            }
        } else {
            None
        };
        self.pure.insert(t, r.clone());
        r
    }

    /// Builds the table of `x` from its cases and derives bounds and the affine equation.
    fn analyse(&mut self, terms: &mut Terms, x: TermId, idx: &[usize], out: &mut Derived) {
        let cases: Vec<&Case> = idx.iter().filter_map(|&i| self.cases.get(i)).collect();
        let mut vars: Vec<TermId> = Vec::new();
        for c in &cases {
            vars.extend(c.vars.iter().copied());
        }
        vars.sort();
        vars.dedup();
        if vars.len() > MAX_VARS {
            return;
        }
        let n = vars.len();
        let rows = 1usize << n;
        // None: no case; Some(None): contradicting cases (assignment excluded); Some(Some(v)).
        let mut table: Vec<Option<Option<&Num>>> = vec![None; rows];
        for c in &cases {
            let mut tt = u64::MAX;
            for &cond in &c.conds {
                tt &= truth_table(terms, cond, &vars);
            }
            for (m, slot) in table.iter_mut().enumerate() {
                if tt & (1u64 << m) == 0 {
                    continue;
                }
                *slot = match *slot {
                    None => Some(Some(&c.value)),
                    Some(Some(v)) if v == &c.value => Some(Some(v)),
                    _ => Some(None),
                };
            }
        }
        if table.iter().any(|s| s.is_none()) {
            return;
        }
        let values: Vec<&Num> = table.iter().filter_map(|s| s.flatten()).collect();
        let (Some(&min), Some(&max)) = (values.iter().min(), values.iter().max()) else {
            return;
        };
        let (min, max) = (min.clone(), max.clone());
        let sort = terms.sort(x);
        self.stats.cond_def_tables += 1;
        let complete = values.len() == rows;
        let affine = if complete && (1..=MAX_AFFINE_VARS).contains(&n) {
            affine_form(&values)
        } else {
            None
        };
        if affine.is_none() || self.bounds_for_affine {
            let lo = terms.mk_const(min, sort);
            let hi = terms.mk_const(max, sort);
            out.facts.push(terms.mk(Op::Le, vec![lo, x], Sort::Bool));
            out.facts.push(terms.mk(Op::Le, vec![x, hi], Sort::Bool));
        }
        if let Some((base, coeffs)) = affine {
            self.stats.cond_def_affine += 1;
            let mut sum = vec![terms.mk_const(base, sort)];
            for (i, c) in coeffs.into_iter().enumerate() {
                if c.is_zero() {
                    continue;
                }
                let z = self.zero_one(terms, vars[i], sort, out);
                let k = terms.mk_const(c, sort);
                sum.push(terms.mk(Op::Mul, vec![k, z], sort));
            }
            let rhs = if sum.len() == 1 {
                sum[0]
            } else {
                terms.mk(Op::Add, sum, sort)
            };
            out.facts.push(terms.mk(Op::Eq, vec![x, rhs], Sort::Bool));
        }
    }

    /// The 0/1 variable `z` of Boolean `b` (declared and defined on first use).
    fn zero_one(&mut self, terms: &mut Terms, b: TermId, sort: Sort, out: &mut Derived) -> TermId {
        if let Some(&z) = self.zero_one.get(&(b, sort)) {
            return z;
        }
        let name = format!("zero_one!{}", self.zero_one.len() + 1);
        let z = terms.declare(&name, sort);
        let zero = terms.mk_const(Num::ZERO, sort);
        let one = terms.mk_const(Num::ONE, sort);
        let ge0 = terms.mk(Op::Le, vec![zero, z], Sort::Bool);
        let le1 = terms.mk(Op::Le, vec![z, one], Sort::Bool);
        let ge1 = terms.mk(Op::Le, vec![one, z], Sort::Bool);
        let le0 = terms.mk(Op::Le, vec![z, zero], Sort::Bool);
        let nb = terms.mk_not(b);
        let if_true = terms.mk(Op::Implies, vec![b, ge1], Sort::Bool);
        let if_false = terms.mk(Op::Implies, vec![nb, le0], Sort::Bool);
        out.definitions.extend([ge0, le1, if_true, if_false]);
        self.zero_one.insert((b, sort), z);
        z
    }
}

/// `Some(x)` for an arithmetic declared constant (possibly under `to_real`).
fn arith_var(terms: &Terms, t: TermId) -> Option<TermId> {
    let n = terms.node(t);
    match n.op {
        Op::Var(_) if n.sort.is_arith() => Some(t),
        _ => None,
    }
}

fn constant(terms: &Terms, t: TermId) -> Option<Num> {
    let n = terms.node(t);
    match &n.op {
        Op::Const(c) => Some(c.clone()),
        Op::Neg => constant(terms, n.args[0]).map(|c| c.neg()),
        Op::ToReal => constant(terms, n.args[0]),
        _ => None,
    }
}

/// Truth table of a pure Boolean term over `vars` (sorted, at most six).
fn truth_table(terms: &Terms, t: TermId, vars: &[TermId]) -> u64 {
    let n = terms.node(t);
    match n.op {
        Op::True => u64::MAX,
        Op::False => 0,
        Op::Var(_) => match vars.binary_search(&t) {
            Ok(i) if i < VAR_TABLE.len() => VAR_TABLE[i],
            _ => 0,
        },
        Op::Not => !truth_table(terms, n.args[0], vars),
        Op::And => n
            .args
            .iter()
            .fold(u64::MAX, |acc, &a| acc & truth_table(terms, a, vars)),
        Op::Or => n
            .args
            .iter()
            .fold(0, |acc, &a| acc | truth_table(terms, a, vars)),
        Op::Xor => truth_table(terms, n.args[0], vars) ^ truth_table(terms, n.args[1], vars),
        Op::Iff => !(truth_table(terms, n.args[0], vars) ^ truth_table(terms, n.args[1], vars)),
        Op::Implies => !truth_table(terms, n.args[0], vars) | truth_table(terms, n.args[1], vars),
        Op::Ite => {
            let c = truth_table(terms, n.args[0], vars);
            (c & truth_table(terms, n.args[1], vars)) | (!c & truth_table(terms, n.args[2], vars))
        }
        _ => 0,
    }
}

/// `(c₀, [c₁ … cₙ])` with `table[m] = c₀ + Σ_{bit i of m} cᵢ` for every row, if it exists.
fn affine_form(table: &[&Num]) -> Option<(Num, Vec<Num>)> {
    let rows = table.len();
    let n = rows.trailing_zeros() as usize;
    let base = table[0].clone();
    let coeffs: Vec<Num> = (0..n).map(|i| table[1 << i].sub(&base)).collect();
    for (m, v) in table.iter().enumerate() {
        let mut s = base.clone();
        for (i, c) in coeffs.iter().enumerate() {
            if m & (1 << i) != 0 {
                s = s.add(c);
            }
        }
        if &s != *v {
            return None;
        }
    }
    Some((base, coeffs))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> (Terms, TermId, TermId, TermId) {
        let mut t = Terms::new();
        let a = t.declare("a", Sort::Bool);
        let b = t.declare("b", Sort::Bool);
        let x = t.declare("x", Sort::Real);
        (t, a, b, x)
    }

    fn case(t: &mut Terms, la: TermId, lb: TermId, x: TermId, v: i64) -> TermId {
        let c = t.mk(Op::And, vec![la, lb], Sort::Bool);
        let k = t.mk_const(Num::int(v), Sort::Real);
        let e = t.mk(Op::Eq, vec![x, k], Sort::Bool);
        t.mk(Op::Implies, vec![c, e], Sort::Bool)
    }

    /// The conjunction of the four cases `x = values[m]` under (¬a ∧ ¬b), (¬a ∧ b), (a ∧ ¬b),
    /// (a ∧ b), processed (`bounds_for_affine` as given).
    fn full_table(values: [i64; 4], bounds_for_affine: bool) -> (CondDefs, Derived) {
        let (mut t, a, b, x) = setup();
        let (na, nb) = (t.mk_not(a), t.mk_not(b));
        let conds = [(na, nb), (na, b), (a, nb), (a, b)];
        let cs: Vec<TermId> = conds
            .into_iter()
            .zip(values)
            .map(|((la, lb), v)| case(&mut t, la, lb, x, v))
            .collect();
        let f = t.mk(Op::And, cs, Sort::Bool);
        let mut cd = CondDefs::new();
        cd.bounds_for_affine = bounds_for_affine;
        let d = cd.process(&mut t, f);
        (cd, d)
    }

    #[test]
    fn affine_table_gives_bounds_and_equation() {
        let (cd, d) = full_table([0, 2, 4, 6], true);
        assert_eq!(cd.stats.cond_def_tables, 1);
        assert_eq!(cd.stats.cond_def_affine, 1);
        // two bounds and the equation; two 0/1 variables with four definitions each
        assert_eq!(d.facts.len(), 3);
        assert_eq!(d.definitions.len(), 8);
    }

    #[test]
    fn non_affine_table_gives_bounds_only() {
        let (cd, d) = full_table([0, 1, 1, 5], CondDefs::new().bounds_for_affine);
        assert_eq!(cd.stats.cond_def_affine, 0);
        assert_eq!(d.facts.len(), 2);
        assert!(d.definitions.is_empty());
    }

    #[test]
    fn incomplete_cases_give_nothing_until_completed_by_a_later_assertion() {
        let (mut t, a, b, x) = setup();
        let (na, nb) = (t.mk_not(a), t.mk_not(b));
        let c1 = case(&mut t, na, nb, x, 0);
        let c2 = case(&mut t, na, b, x, 1);
        let c3 = case(&mut t, a, nb, x, 1);
        let f = t.mk(Op::And, vec![c1, c2, c3], Sort::Bool);
        let mut cd = CondDefs::new();
        assert!(cd.process(&mut t, f).facts.is_empty());
        cd.push();
        let c4 = case(&mut t, a, b, x, 2);
        let d = cd.process(&mut t, c4);
        assert_eq!(d.facts.len(), 1, "affine: the equation only");
        cd.pop();
        let t2 = t.mk_true();
        assert!(cd.process(&mut t, t2).facts.is_empty());
        assert_eq!(cd.cases.len(), 3);
    }

    /// `x = [a] + [b]` and `y = [a] − [b] + 1` by cases; `x + y ≥ 7/2` is allowed by the bounds
    /// (`x, y ≤ 2`) but not by the affine forms (`x + y = 2[a] + 1 ≤ 3`).
    const CASES: &str = "(set-logic QF_LRA)
        (declare-const a Bool) (declare-const b Bool)
        (declare-const x Real) (declare-const y Real)
        (assert (and (=> (and (not a) (not b)) (= x 0)) (=> (and (not a) b) (= x 1))
                     (=> (and a (not b)) (= x 1)) (=> (and a b) (= x 2))))
        (assert (ite a (ite b (= y 1) (= y 2)) (ite b (= y 0) (= y 1))))
        ";

    fn run(extra: &str) -> crate::interp::ScriptOutput {
        let text = format!("{CASES}{extra}");
        crate::interp::run_script(
            &text,
            crate::interp::RunOptions {
                check: true,
                ..Default::default()
            },
        )
    }

    #[test]
    fn relaxation_refuted_without_decisions() {
        let out = run("(assert (>= (+ x y) 3.5)) (check-sat)");
        assert_eq!(out.responses, vec!["unsat"]);
        assert_eq!(out.stats.cond_defs.cond_def_affine, 2);
        assert_eq!(out.stats.sat.decisions, 0);
        assert!(out.checks[0].certificate_failures.is_empty());
    }

    #[test]
    fn models_of_the_original_variables_are_kept() {
        let out = run("(assert (>= (+ x y) 3)) (check-sat) (get-value (a b x y))");
        assert_eq!(out.responses[0], "sat");
        assert_eq!(out.checks[0].model_valid, Some(true));
        assert!(out.responses[1].contains("(a true)"), "{:?}", out.responses);
        assert!(out.responses[1].contains("(x 2"), "{:?}", out.responses);
    }

    #[test]
    fn facts_of_a_popped_scope_are_gone() {
        // The cases of x are completed inside a scope only; after `pop` x is free again.
        let text = "(set-logic QF_LRA)
            (declare-const a Bool) (declare-const x Real)
            (assert (=> a (= x 1)))
            (push 1) (assert (=> (not a) (= x 0))) (assert (> x 1)) (check-sat) (pop 1)
            (assert (> x 1)) (check-sat)";
        let out = crate::interp::run_script(
            text,
            crate::interp::RunOptions {
                check: true,
                ..Default::default()
            },
        );
        assert_eq!(out.responses, vec!["unsat", "sat"]);
        assert_eq!(out.checks[1].model_valid, Some(true));
    }

    #[test]
    fn affine_form_checks_every_row() {
        let v: Vec<Num> = [3, 5, 4, 6].iter().map(|&i| Num::int(i)).collect();
        let r: Vec<&Num> = v.iter().collect();
        let (b, c) = affine_form(&r).unwrap();
        assert_eq!(b, Num::int(3));
        assert_eq!(c, vec![Num::int(2), Num::int(1)]);
        let w: Vec<Num> = [3, 5, 4, 7].iter().map(|&i| Num::int(i)).collect();
        let r: Vec<&Num> = w.iter().collect();
        assert!(affine_form(&r).is_none());
    }
}
