//! Circuit reduction run before every safety engine: sequential cone of influence of the property
//! and the invariant constraints, constant propagation of the latches ternary simulation proves
//! constant (`ternary_constants`), and structural hashing (one AND gate per pair of operand
//! literals, trivial gates folded). Not a seed paper: the classic preprocessing of SAT-based model
//! checkers (Kuehlmann, Paruthi, Krohm, Ganai, *Robust Boolean reasoning for equivalence checking
//! and functional property verification*, TCAD 2002, §III "AIG" and structural hashing; the cone
//! of influence as in Clarke, Grumberg, Peled, *Model Checking*, 1999, §18.2), as ABC's `strash;
//! zero` before `pdr`.
//!
//! The engines run on the reduced circuit `R`, whose only safety property is the original's; their
//! answers are mapped back ([`Reduced::lift`]) and then checked on the *original* circuit as
//! before: a counterexample gets the original's latches and inputs (outside the cone: reset value,
//! inputs 0 — they do not reach the property or the constraints), an invariant gets the original
//! latch literals plus one unit clause per constant latch (ternary simulation's fixpoint makes the
//! constants an inductive fact, and under them every kept latch has the same next-state function
//! in `R` and in the original, so the lifted clauses stay inductive).

use crate::outcome::{Outcome, Proof};
use crate::ternary_constants::ternary_constants;
use crate::unroll::cone_vars;
use std::collections::HashMap;
use verikit_aiger::{Aig, Kind, Reset, Sim, Strash, Ternary, Witness};
use verikit_diag::{Budget, Exhausted};

/// A reduced circuit and the maps back to the circuit it came from.
pub(crate) struct Reduced {
    pub(crate) aig: Aig,
    /// The original property kept.
    keep: Keep,
    /// Per latch of `aig`: the original latch index.
    latch_of: Vec<usize>,
    /// Per input of `aig`: the original input index.
    input_of: Vec<usize>,
    /// Per original latch: the literal it is replaced by (0/1 for a constant, or a kept latch's
    /// literal, possibly negated, for an equivalent latch).
    subst: Vec<Option<u32>>,
}

/// The most repetitions of a lasso's loop [`Reduced::lift_lasso`] tries.
const LASSO_REPEATS: usize = 64;

/// The property a reduced circuit keeps (its only one, index 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Keep {
    /// Safety property `p` (bad-state literal, or output of a pre-1.9 file).
    Bad(usize),
    /// Justice property `j`, with every fairness constraint.
    Justice(usize),
}

impl Keep {
    /// The literals the property is made of (`None` if the circuit has no such property).
    fn roots(self, aig: &Aig) -> Option<Vec<u32>> {
        let mut roots = match self {
            Keep::Bad(p) => vec![*aig.properties().get(p)?],
            Keep::Justice(j) => {
                let mut r = aig.justice.get(j)?.clone();
                r.extend(&aig.fairness);
                r
            }
        };
        roots.extend(&aig.constraints);
        Some(roots)
    }
}

/// Maps an original literal through `map` (variable → new literal); unmapped variables are 0.
pub(crate) fn through(map: &[Option<u32>], l: u32) -> u32 {
    map.get((l >> 1) as usize).copied().flatten().unwrap_or(0) ^ (l & 1)
}

/// The variables safety property `prop` and the constraints depend on: through AND gates, the
/// next-state functions of kept latches and the replacements of substituted ones.
fn cone(aig: &Aig, kinds: &[Kind], roots: &[u32], subst: &[Option<u32>]) -> Vec<bool> {
    cone_vars(aig, kinds, roots, |j| {
        match subst.get(j).copied().flatten() {
            Some(r) => Some(r),
            None => aig.latches.get(j).map(|l| l.next),
        }
    })
}

/// The reduced circuit for safety property `prop` of `aig` (`None` if there is no such property),
/// with the latches ternary simulation proves constant replaced by their values.
pub(crate) fn coi_reduce(
    aig: &Aig,
    prop: usize,
    budget: &Budget,
) -> Result<Option<Reduced>, Exhausted> {
    reduce_for(aig, Keep::Bad(prop), budget)
}

/// The reduced circuit keeping `keep` (`None` if there is no such property), with the latches
/// ternary simulation proves constant replaced by their values.
pub(crate) fn reduce_for(
    aig: &Aig,
    keep: Keep,
    budget: &Budget,
) -> Result<Option<Reduced>, Exhausted> {
    let consts = ternary_constants(aig, budget)?;
    let subst: Vec<Option<u32>> = consts.iter().map(|c| c.map(u32::from)).collect();
    substitute_for(aig, keep, subst, budget)
}

/// The cone of influence of safety property `prop` of `aig` with latch `j` replaced by
/// `subst[j]` where set (a constant, or the literal of a latch that is not itself replaced),
/// rebuilt with structural hashing. Sound when the replacements hold in every reachable state.
pub(crate) fn substitute(
    aig: &Aig,
    prop: usize,
    subst: Vec<Option<u32>>,
    budget: &Budget,
) -> Result<Option<Reduced>, Exhausted> {
    substitute_for(aig, Keep::Bad(prop), subst, budget)
}

/// [`substitute`] for the property `keep`.
fn substitute_for(
    aig: &Aig,
    keep: Keep,
    subst: Vec<Option<u32>>,
    budget: &Budget,
) -> Result<Option<Reduced>, Exhausted> {
    let Some(roots) = keep.roots(aig) else {
        return Ok(None);
    };
    budget.check()?;
    let kinds = aig.kinds();
    let need = cone(aig, &kinds, &roots, &subst);
    let needed = |l: u32| need.get((l >> 1) as usize).copied().unwrap_or(false);
    let mut map: Vec<Option<u32>> = vec![None; aig.maxvar as usize + 1];
    if let Some(m) = map.get_mut(0) {
        *m = Some(0);
    }
    let mut st = Strash::new(Aig::new());
    let mut input_of = Vec::new();
    for (i, &l) in aig.inputs.iter().enumerate() {
        if needed(l) {
            let n = st.aig.add_input();
            input_of.push(i);
            if let Some(m) = map.get_mut((l >> 1) as usize) {
                *m = Some(n);
            }
        }
    }
    let mut latch_of = Vec::new();
    for (j, l) in aig.latches.iter().enumerate() {
        if needed(l.lit) && subst.get(j).copied().flatten().is_none() {
            latch_of.push(j);
            let n = st.aig.add_latch(0, l.reset);
            if let Some(m) = map.get_mut((l.lit >> 1) as usize) {
                *m = Some(n);
            }
        }
    }
    for (l, r) in aig.latches.iter().zip(&subst) {
        if let (true, Some(r)) = (needed(l.lit), r) {
            let n = through(&map, *r);
            if let Some(m) = map.get_mut((l.lit >> 1) as usize) {
                *m = Some(n);
            }
        }
    }
    let mut tick = budget.ticker(4096);
    for g in &aig.ands {
        if !needed(g.lhs) {
            continue;
        }
        tick.tick()?;
        let n = st.and(through(&map, g.rhs0), through(&map, g.rhs1));
        if let Some(m) = map.get_mut((g.lhs >> 1) as usize) {
            *m = Some(n);
        }
    }
    for (k, &j) in latch_of.iter().enumerate() {
        if let Some(l) = aig.latches.get(j) {
            st.aig.set_next(k, through(&map, l.next));
        }
    }
    let mut r = st.aig;
    let to = |ls: &[u32]| ls.iter().map(|&l| through(&map, l)).collect::<Vec<u32>>();
    match keep {
        Keep::Bad(p) => r.bad = to(aig.properties().get(p..=p).unwrap_or_default()),
        Keep::Justice(j) => {
            r.justice = vec![to(aig.justice.get(j).map_or(&[][..], Vec::as_slice))];
            r.fairness = to(&aig.fairness);
        }
    }
    r.constraints = (aig.constraints.iter())
        .map(|&c| through(&map, c))
        .filter(|&c| c != 1)
        .collect();
    Ok(Some(Reduced {
        aig: r,
        keep,
        latch_of,
        input_of,
        subst,
    }))
}

impl Reduced {
    /// An outcome on the reduced circuit as an outcome on the original `orig`.
    pub(crate) fn lift(&self, orig: &Aig, o: Outcome) -> Outcome {
        match o {
            Outcome::Unsafe { witness, depth } => Outcome::Unsafe {
                witness: self.lift_witness(orig, &witness),
                depth,
            },
            Outcome::Safe(Proof::Invariant(cls)) => {
                Outcome::Safe(Proof::Invariant(self.lift_invariant(orig, &cls)))
            }
            other => other,
        }
    }

    /// A lasso of the reduced circuit whose loop starts at frame `start`, as a lasso of `orig`:
    /// lifted as a counterexample, then its loop repeated until the whole state of `orig`
    /// (latches outside the cone too) comes back at the end of a repetition (at most
    /// [`LASSO_REPEATS`] times; `None` if it does not). The property's literals and the
    /// constraints are in the cone, so they take the same values on every repetition.
    pub(crate) fn lift_lasso(&self, orig: &Aig, w: &Witness, start: usize) -> Option<Witness> {
        let base = self.lift_witness(orig, w);
        let prefix = base.inputs.get(..start)?;
        let cycle = base.inputs.get(start..)?;
        if cycle.is_empty() {
            return None;
        }
        let mut sim = Sim::new(orig);
        let init: Vec<Ternary> = base.latches.iter().map(|&b| Ternary::from_opt(b)).collect();
        sim.set_latches(&init);
        let run = |sim: &mut Sim, frames: &[Vec<Option<bool>>]| {
            for f in frames {
                let iv: Vec<Ternary> = f.iter().map(|&b| Ternary::from_opt(b)).collect();
                sim.eval(&iv);
                sim.step();
            }
        };
        let state =
            |sim: &Sim| -> Vec<Option<bool>> { sim.latches().iter().map(|t| t.lane(0)).collect() };
        run(&mut sim, prefix);
        let mut seen = vec![state(&sim)];
        for reps in 1..=LASSO_REPEATS {
            run(&mut sim, cycle);
            let s = state(&sim);
            if seen.contains(&s) {
                let mut inputs = prefix.to_vec();
                for _ in 0..reps {
                    inputs.extend_from_slice(cycle);
                }
                return Some(Witness { inputs, ..base });
            }
            seen.push(s);
        }
        None
    }

    fn lift_witness(&self, orig: &Aig, w: &Witness) -> Witness {
        let mut latches: Vec<Option<bool>> = (orig.latches.iter())
            .map(|l| Some(l.reset == Reset::One))
            .collect();
        for (k, &j) in self.latch_of.iter().enumerate() {
            if let (Some(x), Some(v)) = (latches.get_mut(j), w.latches.get(k)) {
                *x = Some(v.unwrap_or(*x == Some(true)));
            }
        }
        let inputs = (w.inputs.iter())
            .map(|frame| {
                let mut row = vec![Some(false); orig.inputs.len()];
                for (k, &i) in self.input_of.iter().enumerate() {
                    if let (Some(x), Some(v)) = (row.get_mut(i), frame.get(k)) {
                        *x = Some(v.unwrap_or(false));
                    }
                }
                row
            })
            .collect();
        Witness {
            props: vec![match self.keep {
                Keep::Bad(p) => ('b', p),
                Keep::Justice(j) => ('j', j),
            }],
            latches,
            inputs,
        }
    }

    fn lift_invariant(&self, orig: &Aig, cls: &[Vec<u32>]) -> Vec<Vec<u32>> {
        let lit_of: HashMap<u32, u32> = (self.aig.latches.iter().zip(&self.latch_of))
            .filter_map(|(r, &j)| Some((r.lit, orig.latches.get(j)?.lit)))
            .collect();
        // the replacements: `latch = v` for a constant, `latch ⇔ r` as two clauses
        let mut out: Vec<Vec<u32>> = Vec::new();
        for (l, r) in orig.latches.iter().zip(&self.subst) {
            match *r {
                Some(r) if r < 2 => out.push(vec![l.lit ^ (r ^ 1)]),
                Some(r) => {
                    out.push(vec![l.lit, r ^ 1]);
                    out.push(vec![l.lit ^ 1, r]);
                }
                None => {}
            }
        }
        for cl in cls {
            let lifted: Option<Vec<u32>> = cl
                .iter()
                .map(|&l| lit_of.get(&(l & !1)).map(|&o| o ^ (l & 1)))
                .collect();
            // a literal that is not a latch of `R` would make the checker reject the
            // invariant; keep the clause as is so that the check reports it
            out.push(lifted.unwrap_or_else(|| cl.clone()));
        }
        out
    }

    /// Sizes of the reduced circuit, for the statistics.
    pub(crate) fn stats(&self) -> Vec<(String, String)> {
        vec![
            ("reduced_inputs".into(), self.aig.inputs.len().to_string()),
            ("reduced_latches".into(), self.aig.latches.len().to_string()),
            ("reduced_ands".into(), self.aig.ands.len().to_string()),
            (
                "replaced_latches".into(),
                self.subst.iter().flatten().count().to_string(),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::coi_reduce;
    use crate::outcome::{Outcome, Proof};
    use verikit_aiger::{replay, Aig, Reset, Witness};
    use verikit_diag::Budget;

    /// Latch 0 toggles under input 0, latch 1 is stuck at 0, latch 2 (outside the cone) copies
    /// input 1; bad = l0 ∧ ¬l1, with a duplicated gate that hashing merges.
    fn circuit() -> Aig {
        let mut a = Aig::new();
        let i0 = a.add_input();
        let i1 = a.add_input();
        let l0 = a.add_latch(0, Reset::Zero);
        let l1 = a.add_latch(0, Reset::Zero);
        let _l2 = a.add_latch(0, Reset::Uninit);
        let t = a.and(l0 ^ 1, i0);
        let u = a.and(l0, i0 ^ 1);
        let n0 = a.or(t, u);
        a.set_next(0, n0);
        let stuck = a.and(l1, i0);
        a.set_next(1, stuck);
        a.set_next(2, i1);
        let b1 = a.and(l0, l1 ^ 1);
        let b2 = a.and(l1 ^ 1, l0);
        let bad = a.and(b1, b2);
        a.bad.push(bad);
        a.validate().unwrap();
        a
    }

    #[test]
    fn keeps_the_cone_drops_constants_and_merges_gates() {
        let a = circuit();
        let r = coi_reduce(&a, 0, &Budget::unlimited()).unwrap().unwrap();
        assert_eq!(r.aig.latches.len(), 1, "{}", r.aig.to_aag());
        assert_eq!(r.aig.inputs.len(), 1);
        // bad = l0 (¬l1 is constant true, b1 and b2 are one gate)
        assert_eq!(r.aig.bad, vec![r.aig.latches[0].lit], "{}", r.aig.to_aag());
        assert!(coi_reduce(&a, 1, &Budget::unlimited()).unwrap().is_none());
    }

    #[test]
    fn lifted_witness_replays_and_lifted_invariant_names_original_latches() {
        let a = circuit();
        let r = coi_reduce(&a, 0, &Budget::unlimited()).unwrap().unwrap();
        // on the reduced circuit: input 1 at frame 0 sets l0, bad at frame 1
        let w = Witness {
            props: vec![('b', 0)],
            latches: vec![Some(false)],
            inputs: vec![vec![Some(true)], vec![Some(false)]],
        };
        let Outcome::Unsafe { witness, .. } = r.lift(
            &a,
            Outcome::Unsafe {
                witness: w,
                depth: 1,
            },
        ) else {
            panic!("not unsafe")
        };
        assert_eq!(witness.latches.len(), 3);
        assert_eq!(witness.inputs[0].len(), 2);
        assert!(replay(&a, &witness, 0).is_ok());
        // a clause over the reduced latch becomes one over original latch 0, after the unit
        // clause of the constant latch 1 (= 0)
        let rl = r.aig.latches[0].lit;
        let Outcome::Safe(Proof::Invariant(cl)) =
            r.lift(&a, Outcome::Safe(Proof::Invariant(vec![vec![rl ^ 1]])))
        else {
            panic!("not safe")
        };
        assert_eq!(
            cl,
            vec![vec![a.latches[1].lit ^ 1], vec![a.latches[0].lit ^ 1]]
        );
    }
}
