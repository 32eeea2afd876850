//! BDD-based symbolic trajectory evaluation (Roorda, Claessen, *STAR*, CAV'06 C19, §3
//! "STE-Model Checking"; Tzoref, Grumberg, CAV'06 C20, §2): the defining trajectory πA of the
//! antecedent in BDDs over the symbolic variables, compared with the defining sequence σC of
//! the consequent. Per consequent node `(n,t)` with rails `(g1, g0)` of σC and `(f1, f0)` of πA:
//! the symbolic counterexample `∨ (g1 ∧ ¬f1 ∧ f0) ∨ (g0 ∧ f1 ∧ ¬f0)` and the symbolic incomplete
//! trace `∨ (g1 ∨ g0) ∧ ¬f1 ∧ ¬f0` (C20 §3), both outside the antecedent failures (⊥).
//!
//! BDDs rather than SAT for the check itself: the rails are canonical, so the three answers
//! (holds / fails / X) and the sets of valuations behind them are exact, and the refinement of
//! C20 §4 computes further BDDs (`relevant`) over the same trajectory.

use crate::ste_algebra::{Algebra, BddAlg};
use crate::ste_sim::{assertion_run, Rail, Resolved, Trajectory};
use verikit_aiger::Aig;
use verikit_bdd::Bdd;
use verikit_diag::{Budget, Exhausted};

/// The outcome of one STE run.
pub(crate) struct SteRun {
    pub(crate) alg: BddAlg,
    pub(crate) traj: Trajectory<Bdd>,
    /// Valuations with a real (STE) counter-model.
    pub(crate) fail: Bdd,
    /// Valuations with an X where the consequent wants 0 or 1.
    pub(crate) incomplete: Bdd,
    /// Undecided consequent nodes `(time, var)` with their valuations (C20 §4).
    pub(crate) undecided: Vec<((usize, u32), Bdd)>,
    /// Valuations under which the consequent requires something.
    pub(crate) required: Bdd,
}

/// Runs STE for a resolved assertion.
pub(crate) fn ste(aig: &Aig, r: &Resolved, budget: &Budget) -> Result<SteRun, Exhausted> {
    let mut alg = BddAlg::new(r.nvars);
    let (traj, cons) = assertion_run(&mut alg, aig, r, &mut |_, _| None, budget)?;
    let ok = traj.bottom.not();
    let mut fail = alg.konst(false);
    let mut incomplete = alg.konst(false);
    let mut required = alg.konst(false);
    let mut undecided = Vec::new();
    for (&(t, var), g) in &cons {
        budget.check()?;
        let f = traj
            .rails
            .get(t)
            .and_then(|fr| fr.get(var as usize))
            .cloned()
            .unwrap_or(Rail {
                one: alg.konst(false),
                zero: alg.konst(false),
            });
        let wrong = g
            .one
            .and(&f.one.not())
            .and(&f.zero)
            .or(&g.zero.and(&f.one).and(&f.zero.not()))
            .and(&ok);
        fail = fail.or(&wrong);
        let req = g.one.or(&g.zero);
        required = required.or(&req);
        let x = req.and(&f.one.not()).and(&f.zero.not()).and(&ok);
        if !x.is_false() {
            incomplete = incomplete.or(&x);
            undecided.push(((t, var), x));
        }
    }
    Ok(SteRun {
        alg,
        traj,
        fail,
        incomplete,
        undecided,
        required,
    })
}
