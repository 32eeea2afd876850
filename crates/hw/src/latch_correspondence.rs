//! Induction-based latch correspondence: C. A. J. van Eijk, *Sequential equivalence checking based
//! on structural similarities*, IEEE TCAD 19(7), 2000, §III (the fixpoint of candidate equivalence
//! classes refined by an induction step), as ABC's `scorr` restricted to latches. Not a seed paper;
//! the preprocessing before IC3 that `coi_reduce` applies.
//!
//! * Candidates: latches with a known reset value and the constant 0, grouped by their values on
//!   64 random simulation traces from the initial states (up to complement: a class member `m`
//!   with polarity `p_m` claims `m ⊕ p_m` equal for the whole class). Every class agrees in the
//!   initial state by construction (the first simulation step is the reset state).
//! * Induction: one SAT solver with one transition step; under all current class equalities in the
//!   current state (behind a fresh activation literal per round) and the invariant constraints,
//!   is some member's next value different from its representative's? A model splits every class
//!   by the next values it gives; refinement stops when no member can differ.
//! * The classes left hold in every reachable state (they hold initially and are inductive
//!   together), so each member can be replaced by its representative (or a constant).

use crate::splitmix::Rng;
use crate::unroll::Unroller;
use std::collections::HashMap;
use verikit_aiger::{Aig, Reset, Sim, Ternary};
use verikit_diag::{Budget, Exhausted};
use verikit_sat::{CdclBackend, Lit, SatBackend, SatResult};

/// A class member: a latch index, or `None` for the constant 0; and its polarity.
type Member = (Option<usize>, bool);

/// Random simulation steps for the candidate classes.
const STEPS: usize = 32;

/// Candidate classes (each with at least two members; the first is the representative).
fn candidates(aig: &Aig, budget: &Budget) -> Result<Vec<Vec<Member>>, Exhausted> {
    let mut rng = Rng(0x5eed);
    let mut sim = Sim::new(aig);
    let init: Vec<Ternary> = (aig.latches.iter())
        .map(|l| match l.reset {
            Reset::Zero => Ternary::ZERO,
            Reset::One => Ternary::ONE,
            Reset::Uninit => {
                let r = rng.next();
                Ternary { one: r, zero: !r }
            }
        })
        .collect();
    sim.set_latches(&init);
    let mut sigs: Vec<Vec<u64>> = vec![Vec::with_capacity(STEPS); aig.latches.len()];
    for _ in 0..STEPS {
        budget.check()?;
        for (s, v) in sigs.iter_mut().zip(sim.latches()) {
            s.push(v.one);
        }
        let inputs: Vec<Ternary> = (aig.inputs.iter())
            .map(|_| {
                let r = rng.next();
                Ternary { one: r, zero: !r }
            })
            .collect();
        sim.eval(&inputs);
        sim.step();
    }
    let mut groups: HashMap<Vec<u64>, Vec<Member>> = HashMap::new();
    groups.insert(vec![0; STEPS], vec![(None, false)]);
    let mut order = vec![vec![0; STEPS]];
    for (j, (l, s)) in aig.latches.iter().zip(sigs).enumerate() {
        if l.reset == Reset::Uninit {
            continue;
        }
        let pol = s.first().is_some_and(|w| w & 1 == 1);
        let key: Vec<u64> = s.iter().map(|w| if pol { !w } else { *w }).collect();
        let g = groups.entry(key.clone()).or_default();
        if g.is_empty() {
            order.push(key);
        }
        g.push((Some(j), pol));
    }
    Ok(order
        .into_iter()
        .filter_map(|k| groups.remove(&k))
        .filter(|g| g.len() > 1)
        .collect())
}

/// Per latch: `Some(l)` when the latch equals literal `l` in every reachable state (`0`/`1`, or
/// the literal of its class representative, possibly negated), `None` otherwise. Empty classes
/// (all `None`) when the budget runs out before the fixpoint.
pub(crate) fn latch_correspondence(
    aig: &Aig,
    budget: &Budget,
) -> Result<Vec<Option<u32>>, Exhausted> {
    let mut classes = candidates(aig, budget)?;
    let mut out = vec![None; aig.latches.len()];
    if classes.is_empty() {
        return Ok(out);
    }
    let mut sat = CdclBackend::new();
    let mut un = Unroller::new(aig, &mut sat, false);
    for &c in &aig.constraints {
        let l = un.lit(&mut sat, 0, c);
        sat.add_clause(&[l]);
    }
    let ff = un.lit(&mut sat, 0, 0);
    let mut cur: Vec<Option<Lit>> = vec![None; aig.latches.len()];
    let mut nxt: Vec<Option<Lit>> = vec![None; aig.latches.len()];
    for &(m, _) in classes.iter().flatten() {
        if let Some(j) = m {
            if let (Some(c), Some(n)) = (cur.get_mut(j), nxt.get_mut(j)) {
                *c = Some(un.latch(&mut sat, 0, j));
                *n = Some(un.latch(&mut sat, 1, j));
            }
        }
    }
    // a member's literal with its polarity applied: equal across a class
    let norm = |v: &[Option<Lit>], (m, pol): Member| {
        let l = m.and_then(|j| v.get(j).copied().flatten()).unwrap_or(ff);
        if pol {
            !l
        } else {
            l
        }
    };
    loop {
        budget.check()?;
        let act = Lit::pos(sat.new_var());
        for class in &classes {
            let Some(&rep) = class.first() else { continue };
            let r = norm(&cur, rep);
            for &m in class.iter().skip(1) {
                let x = norm(&cur, m);
                sat.add_clause(&[!act, !x, r]);
                sat.add_clause(&[!act, x, !r]);
            }
        }
        let mut split = false;
        'search: for class in &classes {
            let Some(&rep) = class.first() else { continue };
            let r = norm(&nxt, rep);
            for &m in class.iter().skip(1) {
                let x = norm(&nxt, m);
                for a in [[act, x, !r], [act, !x, r]] {
                    match sat.solve(&a, budget) {
                        SatResult::Unsat => {}
                        SatResult::Sat => {
                            split = true;
                            break 'search;
                        }
                        SatResult::Unknown => {
                            return Err(sat.exhausted().unwrap_or(Exhausted::Timeout))
                        }
                    }
                }
            }
        }
        sat.add_clause(&[!act]);
        if !split {
            break;
        }
        // split every class by the next values of the model
        let value = |m: Member| sat.model_value(norm(&nxt, m)).unwrap_or(false);
        let mut refined = Vec::with_capacity(classes.len());
        for class in classes {
            let (a, b): (Vec<Member>, Vec<Member>) = class.into_iter().partition(|&m| value(m));
            refined.extend([a, b].into_iter().filter(|g| g.len() > 1));
        }
        classes = refined;
    }
    for class in &classes {
        let Some(&(rep, rpol)) = class.first() else {
            continue;
        };
        let rep_lit = match rep {
            Some(j) => aig.latches.get(j).map_or(0, |l| l.lit),
            None => 0,
        };
        for &(m, pol) in class.iter().skip(1) {
            if let Some(x) = m.and_then(|j| out.get_mut(j)) {
                *x = Some(rep_lit ^ u32::from(pol ^ rpol));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::latch_correspondence;
    use verikit_aiger::{Aig, Reset};
    use verikit_diag::Budget;

    #[test]
    fn finds_copies_complements_and_inductive_constants() {
        let mut a = Aig::new();
        let i = a.add_input();
        // l0 and l1 both load i (equal); l2 loads ¬i and resets to 1 (the complement of l0);
        // l3 loads l3 ∧ l0 and resets to 0 (constant 0); l4 loads i but resets to 1 (differs
        // from l0 initially)
        let l0 = a.add_latch(i, Reset::Zero);
        let l1 = a.add_latch(i, Reset::Zero);
        let l2 = a.add_latch(i ^ 1, Reset::One);
        let l3 = a.add_latch(0, Reset::Zero);
        let _l4 = a.add_latch(i, Reset::One);
        let n3 = a.and(l3, l0);
        a.set_next(3, n3);
        let b = a.and(l1, l2);
        a.bad.push(b);
        let e = latch_correspondence(&a, &Budget::unlimited()).unwrap();
        assert_eq!(e[0], None);
        assert_eq!(e[1], Some(l0));
        assert_eq!(e[2], Some(l0 ^ 1));
        assert_eq!(e[3], Some(0));
        assert_eq!(e[4], None);
    }
}
