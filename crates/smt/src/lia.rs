//! Integer feasibility on top of the rational simplex, as in Dutertre & de Moura, "A Fast
//! Linear-Arithmetic Solver for DPLL(T)" (CAV 2006), Section 6: when the relaxation is feasible
//! but an integer variable has a fractional value `v`, branch and bound creates the atom
//! `x ≤ ⌊v⌋` (its negation is `x ≥ ⌊v⌋ + 1`) and lets the SAT search decide it, so branches are
//! ordinary literals that take part in learning and backjumping. The branch variable is the
//! fractional integer variable with the narrowest domain (Yices's rule), ties broken by the most
//! fractional value (decision 0221).
//!
//! Gomory cuts (Section 6 of the paper): once branch and bound has made 100 branches, every eighth
//! integer final check (at most 500 cuts), if the fractional
//! variable is basic and every non-basic variable of its row sits at one of its bounds, the mixed
//! integer Gomory cut of that row is added as a lemma `bounds ⇒ cut` over a new atom (so it can be
//! learned and backtracked like any clause). The cut is valid for every integer point satisfying
//! those bounds; it is not itself Farkas-certified (it is not a rational consequence).
//!
//! When the relaxation's solution has a fractional integer variable, integer patching
//! (`lia/patch.rs`) first tries to reach an integral point by shifting non-basic variables inside
//! their bounds; if it does, the final check answers sat without branching. Before branching, the
//! GCD tests (`gcd.rs`), the integrality test with bound strengthening (`lia/itest.rs`: residue
//! classes forced by a row, and row bounds rounded to integers, as Yices's integer final check)
//! and the Diophantine test (`dioph.rs`) run at the final check; the incremental Diophantine test (`dioph/incremental.rs`) runs at every
//! propagation fixpoint. Cuts from proofs (`lia/cuts_from_proofs.rs`, Dillig, Dillig & Aiken,
//! CAV 2009) are implemented but off by default (`LiaState::proof_cut_every`).

pub(crate) mod cuts_from_proofs;
pub(crate) mod itest;
pub(crate) mod patch;

use crate::arith::{Arith, AtomLits, Rel};
use crate::dioph::DiophResult;
use crate::linearize::Lin;
use verikit_num::Num;
use verikit_sat::{Final, Lit};

/// The integer reasoning's own state inside the arithmetic solver.
#[derive(Default)]
pub(crate) struct LiaState {
    /// The incremental Diophantine test run at propagation fixpoints.
    pub(crate) inc: crate::dioph::incremental::IncDioph,
    /// Cuts from proofs made so far.
    pub(crate) proof: cuts_from_proofs::ProofCuts,
    /// Cuts from proofs (`lia/cuts_from_proofs.rs`) are tried at every this-many-th integer
    /// final check; 0 (the default) never: measured without a consistent gain (decision 0207).
    pub(crate) proof_cut_every: u64,
    /// Final checks answered by integer patching (`lia/patch.rs`).
    pub(crate) patches: u64,
    /// Conflicts and bound strengthenings found by the integrality test.
    pub(crate) itest_conflicts: u64,
    pub(crate) itest_bounds: u64,
    /// Lemmas from rounded row bounds (`itest::rounded_row_bounds`) made so far.
    pub(crate) round_bounds: u64,
}

/// Size limits of the Diophantine test (`dioph.rs`) per final check.
const DIOPH_MAX_ROWS: usize = 2000;
const DIOPH_MAX_STEPS: usize = 4000;
/// Conflicts are minimised when the tableau has at most this many rows.
const DIOPH_MAX_MIN_ROWS: usize = 400;

/// Tries the Gomory cut of the row of basic variable `x`.
fn gomory(th: &mut Arith, x: u32, num_vars: u32) -> Option<Final> {
    let row: Vec<(u32, Num)> = th.simplex.row_of_basic(x)?.to_vec();
    let f0 = {
        let v = &th.simplex.beta[x as usize].c;
        v.sub(&v.floor())
    };
    if f0.is_zero() {
        return None;
    }
    let one_f0 = Num::ONE.sub(&f0);
    // Σ c_j y_j ≥ 1 with y_j = x_j − l_j (at lower) or u_j − x_j (at upper)
    let mut lin = Lin::constant(Num::int(-1));
    let mut reasons: Vec<Lit> = Vec::new();
    for (j, a) in row {
        let ju = j as usize;
        let b = th.simplex.beta[ju].clone();
        if !b.k.is_zero() {
            return None;
        }
        let at_lower = th.simplex.lower[ju]
            .as_ref()
            .filter(|l| l.val == b)
            .map(|l| l.lit);
        let at_upper = th.simplex.upper[ju]
            .as_ref()
            .filter(|u| u.val == b)
            .map(|u| u.lit);
        let (lit, sign) = match (at_lower, at_upper) {
            (Some(l), _) => (l, Num::ONE),
            (None, Some(u)) => (u, Num::int(-1)),
            _ => return None,
        };
        // x_i = β(x_i) + Σ a'_j y_j with a'_j = a_j (lower) or −a_j (upper)
        let ap = a.mul(&sign);
        // In the standard form x_i + Σ ā_j y_j = β(x_i) the coefficients are ā_j = −a'_j.
        let abar = ap.neg();
        let c = if th.simplex.is_int[ju] {
            let fj = abar.sub(&abar.floor());
            if fj <= f0 {
                fj.div(&f0)
            } else {
                Num::ONE.sub(&fj).div(&one_f0)
            }
        } else if !abar.is_neg() {
            abar.div(&f0)
        } else {
            abar.neg().div(&one_f0)
        };
        if c.is_zero() {
            continue;
        }
        reasons.push(lit);
        // c·y_j = c·sign·(x_j − bound_j)
        let def = Lin {
            terms: th.defs[ju].clone(),
            c: Num::ZERO,
        };
        let yj = def.add(&Lin::constant(b.c.neg())).scale(&sign);
        lin = lin.add(&yj.scale(&c));
    }
    if reasons.is_empty() {
        return None;
    }
    // Keep cuts small: dense or big-number cuts slow the simplex more than they help.
    if lin.terms.len() > 30 || lin.terms.iter().any(|(_, c)| matches!(c, Num::B(_))) {
        return None;
    }
    // lin ≥ 0  ⇔  −lin ≤ 0
    let neg = lin.scale(&Num::int(-1));
    let mut next = num_vars;
    let mut alloc = || {
        let v = next;
        next += 1;
        v
    };
    let r = th.constraint(&neg, Rel::Le, &mut alloc);
    let new_vars = next - num_vars;
    match r {
        AtomLits::Lit(l) => {
            let mut clause: Vec<Lit> = reasons.iter().map(|l| !*l).collect();
            clause.push(l);
            th.cuts += 1;
            Some(Final::Lemmas {
                new_vars,
                clauses: vec![clause],
                decide: None,
            })
        }
        AtomLits::Const(false) => Some(Final::Lemmas {
            new_vars,
            clauses: vec![reasons.iter().map(|l| !*l).collect()],
            decide: None,
        }),
        _ => None,
    }
}

/// The lemma `why ⇒ x ≤ a ∨ x ≥ a + g` from a congruence `x ≡ a (mod g)` found by the
/// Diophantine test, with the side nearer to `β(x)` decided first. None if both atoms exist
/// already (the lemma was added before and cannot be violated by a consistent assignment).
fn congruence_branch(
    th: &mut Arith,
    x: u32,
    a: Num,
    g: Num,
    why: Vec<Lit>,
    num_vars: u32,
) -> Option<Final> {
    let hi = a.add(&g).sub(&Num::ONE);
    if th.has_atom(x, false, &a).is_some() && th.has_atom(x, false, &hi).is_some() {
        return None;
    }
    let mut next = num_vars;
    let mut alloc = || {
        let v = next;
        next += 1;
        v
    };
    let le = th.atom(x, false, a.clone(), &mut alloc);
    let ge = !th.atom(x, false, hi, &mut alloc);
    let new_vars = next - num_vars;
    let mut clause: Vec<Lit> = why.iter().map(|l| !*l).collect();
    clause.push(le);
    clause.push(ge);
    th.branches += 1;
    let v = th.simplex.beta[x as usize].c.clone();
    let up = v.sub(&a).mul(&Num::int(2)) > g;
    Some(Final::Lemmas {
        new_vars,
        clauses: vec![clause],
        decide: Some(if up { ge } else { le }),
    })
}

/// Strengthenings per final check from each part of the integrality test (`lia/itest.rs`).
const ITEST_MAX: usize = 8;
/// Lemmas from rounded row bounds over a whole run. Measured (decision 0225, update): on
/// tightrhombus-283-245-2 (two rows, huge coefficients) every rounded bound moves the vertex by
/// less than one and the lemmas never end (3 712 theory conflicts against 707 with branching
/// alone); with this budget 1 421, while cut_lemma_03_004 needs 86 and cut_lemma_02_001 about 200.
const ROUND_MAX_TOTAL: u64 = 500;

/// The integrality test (`lia/itest.rs`): a conflict, or lemmas strengthening bounds to the
/// residue classes the rows force, each over a new atom that cuts off the current assignment.
fn integrality_test(th: &mut Arith, num_vars: u32) -> Option<Final> {
    let mut found = itest::itest(th, ITEST_MAX);
    if th.lia.round_bounds < ROUND_MAX_TOTAL
        && !found.iter().any(|t| matches!(t, itest::ITest::Conflict(_)))
    {
        let r = itest::rounded_row_bounds(th, ITEST_MAX);
        th.lia.round_bounds += r.len() as u64;
        found.extend(r);
    }
    let mut next = num_vars;
    let mut clauses = Vec::new();
    for t in found {
        match t {
            itest::ITest::Conflict(c) => {
                th.lia.itest_conflicts += 1;
                return Some(Final::Conflict(c));
            }
            itest::ITest::Strengthen { x, upper, b, why } => {
                let mut alloc = || {
                    let v = next;
                    next += 1;
                    v
                };
                let lit = if upper {
                    th.atom(x, false, Num::from_bigint(b), &mut alloc)
                } else {
                    !th.atom(x, false, Num::from_bigint(b).sub(&Num::ONE), &mut alloc)
                };
                let mut clause: Vec<Lit> = why.iter().map(|l| !*l).collect();
                clause.push(lit);
                clauses.push(clause);
                th.lia.itest_bounds += 1;
            }
        }
    }
    if clauses.is_empty() {
        return None;
    }
    Some(Final::Lemmas {
        new_vars: next - num_vars,
        clauses,
        decide: None,
    })
}

/// The variable to branch on: among the integer variables with a fractional value (or a
/// non-zero δ part), the one with the narrowest domain — both bounds, by `u − l`, before one
/// bound before none, as Yices selects its branch variable — and among equally wide ones the
/// most fractional value (nearest to ½), then the smallest index. Decision 0221.
fn branch_variable(th: &Arith) -> Option<u32> {
    let half = Num::S(1, 2);
    let mut best: Option<(u32, (u8, Num, Num))> = None;
    for &x in th.int_vars() {
        let xi = x as usize;
        let b = &th.simplex.beta[xi];
        if b.c.is_integer() && b.k.is_zero() {
            continue;
        }
        let (class, width) = match (&th.simplex.lower[xi], &th.simplex.upper[xi]) {
            (Some(l), Some(u)) => (0u8, u.val.c.sub(&l.val.c)),
            (Some(_), None) | (None, Some(_)) => (1, Num::ZERO),
            (None, None) => (2, Num::ZERO),
        };
        let frac = b.c.sub(&b.c.floor());
        let key = (class, width, frac.sub(&half).abs());
        if best.as_ref().is_none_or(|(_, k)| key < *k) {
            best = Some((x, key));
        }
    }
    best.map(|(x, _)| x)
}

pub(crate) fn final_check(th: &mut Arith, num_vars: u32) -> Final {
    if branch_variable(th).is_some() {
        let mut undo = Vec::new();
        if patch::patch(th, &mut undo) > 0 {
            if branch_variable(th).is_none() {
                th.lia.patches += 1;
                return Final::Sat;
            }
            for (x, v) in undo.into_iter().rev() {
                th.simplex.beta[x] = v;
            }
        }
    }
    let x = match branch_variable(th) {
        None => return Final::Sat,
        Some(x) => x,
    };
    th.int_checks += 1;
    if th.int_checks.is_power_of_two() || th.int_checks.is_multiple_of(256) {
        tracing::debug!(
            int_checks = th.int_checks,
            branches = th.branches,
            cuts = th.cuts,
            patches = th.lia.patches,
            itest_conflicts = th.lia.itest_conflicts,
            itest_bounds = th.lia.itest_bounds,
            pivots = th.simplex.pivots,
            "integer final checks"
        );
    }
    if let Some(c) = th.simplex.gcd_test() {
        let c = if th.simplex.rows.len() <= DIOPH_MAX_MIN_ROWS {
            th.simplex.minimise(c, DIOPH_MAX_ROWS, DIOPH_MAX_STEPS)
        } else {
            c
        };
        let c = th.simplex.bound_lits(&c);
        return Final::Conflict(c);
    }
    if let Some(f) = integrality_test(th, num_vars) {
        return f;
    }
    match th
        .simplex
        .diophantine_test(DIOPH_MAX_ROWS, DIOPH_MAX_STEPS, DIOPH_MAX_MIN_ROWS)
    {
        Some(DiophResult::Conflict(c)) => {
            return Final::Conflict(c);
        }
        Some(DiophResult::Branch { x, a, g, why }) => {
            if let Some(f) = congruence_branch(th, x, a, g, why, num_vars) {
                return f;
            }
        }
        None => {}
    }
    let every = th.lia.proof_cut_every;
    if every > 0 && th.int_checks.is_multiple_of(every) {
        if let Some(f) = cuts_from_proofs::cut_from_proof(th, num_vars) {
            return f;
        }
    }
    if th.branches >= 100
        && th.int_checks.is_multiple_of(8)
        && th.cuts < 500
        && th.simplex.row_of_basic(x).is_some()
    {
        if let Some(f) = gomory(th, x, num_vars) {
            return f;
        }
    }
    let v = th.simplex.beta[x as usize].c.clone();
    let fl = v.floor();
    if let Some(l) = th.has_atom(x, false, &fl) {
        // Cannot be unassigned here; ask the search to decide it anyway (defensive).
        return Final::Lemmas {
            new_vars: 0,
            clauses: Vec::new(),
            decide: Some(l),
        };
    }
    th.branches += 1;
    let lit: Lit = th.branch_atom(x, fl, num_vars);
    // Prefer the side nearer to the current value.
    let frac = v.sub(&v.floor());
    let up = frac > verikit_num::Num::S(1, 2);
    Final::Lemmas {
        new_vars: 1,
        clauses: Vec::new(),
        decide: Some(if up { !lit } else { lit }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use verikit_num::DRat;

    /// Three integer variables with fractional values: `x0` unbounded, `x1` in `[0, 10]`, `x2`
    /// in `[0, 3]`. The narrowest domain wins (`x2`) whatever the index; with no bounds at all,
    /// the value nearest to ½ wins; integral values are never picked.
    #[test]
    fn branch_variable_narrowest_domain_then_most_fractional() {
        let mut th = Arith::new();
        th.var_is_int = vec![true; 3];
        let mut next = 0u32;
        let mut alloc = || {
            next += 1;
            next
        };
        let xs: Vec<u32> = (0..3u32)
            .map(|v| {
                let lin = Lin {
                    terms: vec![(v, Num::ONE)],
                    c: Num::ZERO,
                };
                let _ = th.constraint(&lin, Rel::Le, &mut alloc);
                th.int_vars()[v as usize]
            })
            .collect();
        let set = |th: &mut Arith, vals: [Num; 3]| {
            for (x, v) in xs.iter().zip(vals) {
                th.simplex.beta[*x as usize] = DRat::num(v);
            }
        };
        set(&mut th, [Num::S(1, 3), Num::S(1, 2), Num::S(1, 4)]);
        assert_eq!(
            branch_variable(&th),
            Some(xs[1]),
            "unbounded: most fractional"
        );
        set(&mut th, [Num::S(1, 3), Num::S(1, 3), Num::int(2)]);
        assert_eq!(branch_variable(&th), Some(xs[0]), "ties: smallest index");
        let mut lit = 100u32;
        for (x, hi) in [(xs[1], 10), (xs[2], 3)] {
            lit += 2;
            assert!(th
                .simplex
                .assert_lower(x, DRat::num(Num::ZERO), Lit(lit))
                .is_ok());
            lit += 2;
            assert!(th
                .simplex
                .assert_upper(x, DRat::num(Num::int(hi)), Lit(lit))
                .is_ok());
        }
        set(&mut th, [Num::S(1, 2), Num::S(1, 2), Num::S(5, 2)]);
        assert_eq!(branch_variable(&th), Some(xs[2]), "narrowest domain first");
        set(&mut th, [Num::S(1, 2), Num::S(1, 2), Num::int(1)]);
        assert_eq!(
            branch_variable(&th),
            Some(xs[1]),
            "the next narrowest domain"
        );
        set(&mut th, [Num::int(7), Num::int(1), Num::int(1)]);
        assert_eq!(branch_variable(&th), None, "all integral");
    }
}
