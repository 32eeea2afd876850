//! Deletion-based minimal unsatisfiable subformula (MUS) extraction over groups, the baseline of
//! the core commands (Marques-Silva, *Minimal unsatisfiability: models, algorithms and
//! applications*, ISMVL 2010, §4 — deletion with clause-set refinement). Every soft group `k`
//! gets a selector `s_k` (its clauses become `C ∨ ¬s_k`); group 0 is hard. One incremental solver
//! answers "unsatisfiable with these groups?" under the selectors as assumptions: the first call's
//! failed assumptions are the starting core; then each group is tried without: satisfiable → the
//! group is necessary; unsatisfiable → the core shrinks to the failed assumptions (refinement).
//!
//! With `rotate`, each satisfiable call's model is rotated (recursive model rotation,
//! Marques-Silva & Lynce, *On improving MUS extraction algorithms*, SAT 2011, §4): the model
//! falsifies only the clauses of the group just found necessary; flipping one variable of such a
//! clause gives an assignment that may falsify the clauses of exactly one other remaining group,
//! which is then necessary too without a SAT call, and the rotation recurses from it.

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

pub(crate) fn mus(g: &Gcnf, rotate: bool, budget: &Budget, calls: &mut u64) -> MusResult {
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
    let occ = rotate.then(|| occurrences(g));
    while let Some(k) = todo.pop() {
        let assumptions: Vec<Lit> = necessary
            .iter()
            .chain(todo.iter())
            .map(|&j| sel[j as usize])
            .collect();
        *calls += 1;
        match s.solve(&assumptions, budget) {
            SatResult::Sat => {
                necessary.push(k);
                if let Some(occ) = &occ {
                    let m: Vec<bool> = (0..g.num_vars)
                        .map(|v| s.model_value(Lit::pos(v)) == Some(true))
                        .collect();
                    rotate_model(g, occ, m, k, &mut necessary, &mut todo);
                }
            }
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

/// Clause indices by literal, and by group.
fn occurrences(g: &Gcnf) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let mut occ = vec![Vec::new(); 2 * g.num_vars as usize];
    let mut by_group = vec![Vec::new(); g.num_groups as usize + 1];
    for (i, (c, &k)) in g.clauses.iter().zip(&g.groups).enumerate() {
        for l in c {
            if let Some(o) = occ.get_mut(l.idx()) {
                o.push(i);
            }
        }
        if let Some(b) = by_group.get_mut(k as usize) {
            b.push(i);
        }
    }
    (occ, by_group)
}

/// Recursive model rotation from model `m` of every remaining group but `k` (necessary): moves
/// every group it proves necessary from `todo` to `necessary`.
fn rotate_model(
    g: &Gcnf,
    (occ, by_group): &(Vec<Vec<usize>>, Vec<Vec<usize>>),
    m: Vec<bool>,
    k: u32,
    necessary: &mut Vec<u32>,
    todo: &mut Vec<u32>,
) {
    let value = |m: &[bool], l: Lit| m.get(l.var() as usize).is_some_and(|&v| v != l.is_neg());
    let falsified = |m: &[bool], i: usize| {
        g.clauses
            .get(i)
            .is_some_and(|c| c.iter().all(|&l| !value(m, l)))
    };
    // per group: in the working set (hard, necessary or undecided), and undecided
    let mut live = vec![false; g.num_groups as usize + 1];
    let mut undecided = vec![false; g.num_groups as usize + 1];
    for &j in necessary.iter().chain(todo.iter()).chain(&[0]) {
        if let Some(x) = live.get_mut(j as usize) {
            *x = true;
        }
    }
    for &j in todo.iter() {
        if let Some(x) = undecided.get_mut(j as usize) {
            *x = true;
        }
    }
    let mut stack = vec![(m, k)];
    while let Some((m, k)) = stack.pop() {
        let mine: Vec<usize> = (by_group.get(k as usize).into_iter().flatten())
            .copied()
            .filter(|&i| falsified(&m, i))
            .collect();
        let mut flips: Vec<u32> = mine
            .iter()
            .filter_map(|&i| g.clauses.get(i))
            .flatten()
            .map(|l| l.var())
            .collect();
        flips.sort_unstable();
        flips.dedup();
        for v in flips {
            let mut m2 = m.clone();
            let Some(x) = m2.get_mut(v as usize) else {
                continue;
            };
            *x = !*x;
            // clauses falsified by m2: k's that stay falsified, and those the flip falsifies
            let now_false = Lit::new(v, m2.get(v as usize) == Some(&true));
            let mut groups: Vec<u32> = mine
                .iter()
                .chain(occ.get(now_false.idx()).into_iter().flatten())
                .filter(|&&i| falsified(&m2, i))
                .filter_map(|&i| g.groups.get(i).copied())
                .filter(|&j| live.get(j as usize) == Some(&true))
                .collect();
            groups.sort_unstable();
            groups.dedup();
            if let [j] = groups[..] {
                if let Some(u) = undecided.get_mut(j as usize).filter(|u| **u && j != 0) {
                    *u = false;
                    necessary.push(j);
                    stack.push((m2, j));
                }
            }
        }
    }
    todo.retain(|&j| undecided.get(j as usize) == Some(&true));
}
