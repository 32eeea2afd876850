//! Deletion-based minimal unsatisfiable subformula (MUS) extraction over groups, the baseline of
//! the core commands (Marques-Silva, *Minimal unsatisfiability: models, algorithms and
//! applications*, ISMVL 2010, §4 — deletion with clause-set refinement). Every soft group `k`
//! gets a selector `s_k` (its clauses become `C ∨ ¬s_k`); group 0 is hard. One incremental solver
//! answers "unsatisfiable with these groups?" under the selectors as assumptions: the first call's
//! failed assumptions are the starting core; then each group is tried without: satisfiable → the
//! group is necessary; unsatisfiable → the core shrinks to the failed assumptions (refinement).

use verikit_diag::{Budget, Exhausted};
use verikit_sat::{CdclBackend, Gcnf, Lit, SatBackend, SatResult};

pub(crate) enum MusResult {
    /// The formula is satisfiable: a model, one value per variable.
    Sat(Vec<bool>),
    /// Groups (ascending) of a minimal unsatisfiable subformula.
    Mus(Vec<u32>),
    /// Stopped: an unsatisfiable (not necessarily minimal) group set, or none yet.
    Stopped(Exhausted, Option<Vec<u32>>),
}

pub(crate) fn mus(g: &Gcnf, budget: &Budget, calls: &mut u64) -> MusResult {
    let mut s = CdclBackend::new();
    for _ in 0..g.num_vars {
        s.new_var();
    }
    let sel: Vec<Lit> = (0..=g.num_groups).map(|_| Lit::pos(s.new_var())).collect();
    for (c, &k) in g.clauses.iter().zip(&g.groups) {
        let mut c = c.clone();
        if k != 0 {
            c.push(!sel[k as usize]);
        }
        s.add_clause(&c);
    }
    let group_of = |l: Lit| l.var().checked_sub(g.num_vars + 1).map(|k| k + 1);
    let mut todo: Vec<u32> = (1..=g.num_groups)
        .filter(|k| g.groups.contains(k))
        .collect();
    *calls += 1;
    match s.solve(
        &todo.iter().map(|&k| sel[k as usize]).collect::<Vec<_>>(),
        budget,
    ) {
        SatResult::Sat => {
            return MusResult::Sat(
                (0..g.num_vars)
                    .map(|v| s.model_value(Lit::pos(v)) == Some(true))
                    .collect(),
            )
        }
        SatResult::Unknown => {
            return MusResult::Stopped(s.exhausted().unwrap_or(Exhausted::Timeout), None)
        }
        SatResult::Unsat => {}
    }
    let refine = |s: &CdclBackend, todo: &mut Vec<u32>| {
        let failed: Vec<u32> = s
            .failed_assumptions()
            .into_iter()
            .filter_map(group_of)
            .collect();
        todo.retain(|k| failed.contains(k));
    };
    refine(&s, &mut todo);
    let mut necessary: Vec<u32> = Vec::new();
    while let Some(k) = todo.pop() {
        let assumptions: Vec<Lit> = necessary
            .iter()
            .chain(todo.iter())
            .map(|&j| sel[j as usize])
            .collect();
        *calls += 1;
        match s.solve(&assumptions, budget) {
            SatResult::Sat => necessary.push(k),
            SatResult::Unsat => {
                refine(&s, &mut todo);
            }
            SatResult::Unknown => {
                let mut all: Vec<u32> = necessary.iter().chain(&todo).copied().collect();
                all.push(k);
                all.sort_unstable();
                return MusResult::Stopped(s.exhausted().unwrap_or(Exhausted::Timeout), Some(all));
            }
        }
    }
    necessary.sort_unstable();
    MusResult::Mus(necessary)
}
