//! Functionally reduced AIGs: A. Mishchenko, S. Chatterjee, R. Jiang, R. Brayton, *FRAIGs: a
//! unifying representation for logic synthesis and verification*, ERL technical report, UC
//! Berkeley, 2005 (§3 "FRAIG construction": random simulation classes, SAT sweeping in
//! topological order, counterexamples of failed checks refining the classes). Not a seed paper;
//! ABC's `fraig`, here one pass on the circuit the safety engines run on.
//!
//! * Candidates: every AND gate, input, latch (current-state value) and the constant 0, grouped by
//!   their values under bit-parallel random simulation (`verikit-aiger`'s `Sim`), up to complement
//!   (a signature is normalised so its first bit is 0).
//! * Sweeping: the gates in topological order; a gate whose normalised signature matches earlier
//!   candidates is checked against each of them (at most [`TRIES`]) by SAT on one incremental
//!   solver over the *combinational* circuit (inputs and current-state latches free). Unsatisfiable
//!   both ways: the gate is replaced by that candidate (possibly complemented) and the equality is
//!   added to the solver. Satisfiable: the model is a distinguishing pattern; 64 of them are
//!   simulated at once and the classes of the gates seen so far are rebuilt from the longer
//!   signatures. A check that runs out of its small time slice counts as "different".
//! * The result has the same inputs and latches (same order, same resets) and the gates rebuilt
//!   with structural hashing through the replacements. Equal combinational functions are equal in
//!   every state, so counterexamples carry over unchanged (by input and latch index) and an
//!   invariant over the result's latches is one over the original's after renaming.

use crate::coi_reduce::through;
use crate::outcome::{Outcome, Proof};
use crate::splitmix::Rng;
use crate::unroll::Unroller;
use std::collections::HashMap;
use std::time::Duration;
use verikit_aiger::{Aig, Sim, Strash, Ternary};
use verikit_diag::{Budget, Exhausted};
use verikit_sat::{CdclBackend, Lit, SatBackend, SatResult};

/// Random simulation rounds of 64 patterns before sweeping.
const ROUNDS: usize = 4;
/// Candidates a gate is checked against before it starts a class of its own.
const TRIES: usize = 2;
/// Time slice of one equivalence check.
const CHECK_SLICE: Duration = Duration::from_millis(20);
/// The sweep stops once it has made this many checks and fewer than one in [`PAYS`] merged.
const CHECKS_BEFORE_STOP: usize = 256;
const PAYS: usize = 16;

/// A circuit after [`fraig`] and the number of gates it merged.
pub(crate) struct Fraiged {
    pub(crate) aig: Aig,
    pub(crate) merged: usize,
    /// SAT equivalence checks made.
    pub(crate) checks: usize,
}

impl Fraiged {
    /// An outcome on the fraiged circuit as one on `orig`, the circuit [`fraig`] was given: the
    /// same inputs and latches by index, so a counterexample is unchanged and an invariant's
    /// latch literals are renamed.
    pub(crate) fn lift(&self, orig: &Aig, o: Outcome) -> Outcome {
        let Outcome::Safe(Proof::Invariant(cls)) = o else {
            return o;
        };
        let rename: HashMap<u32, u32> = (self.aig.latches.iter().zip(&orig.latches))
            .map(|(f, o)| (f.lit, o.lit))
            .collect();
        let cls = cls
            .into_iter()
            .map(|cl| {
                cl.into_iter()
                    // a literal that is no latch stays as is, and the invariant check rejects it
                    .map(|l| rename.get(&(l & !1)).map_or(l, |&o| o ^ (l & 1)))
                    .collect()
            })
            .collect();
        Outcome::Safe(Proof::Invariant(cls))
    }
}

/// A value of a candidate per simulation word: the two-valued bits of `Sim`'s lanes.
fn bits(t: Ternary) -> u64 {
    t.one
}

/// Latch values and input values of one simulation pattern.
type Pattern = (Vec<bool>, Vec<bool>);

struct Sweep<'a> {
    aig: &'a Aig,
    sim: Sim<'a>,
    /// Per variable: its simulation words (one per round).
    sig: Vec<Vec<u64>>,
    rng: Rng,
    /// Distinguishing patterns not yet simulated: latch values and input values.
    pending: Vec<Pattern>,
}

impl<'a> Sweep<'a> {
    /// One round of 64 patterns: random ones, or the pending counterexamples (rest random).
    fn round(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        let word = |rng: &mut Rng, get: &dyn Fn(&Pattern) -> bool| {
            let mut w = rng.next();
            for (k, p) in pending.iter().take(64).enumerate() {
                w = (w & !(1u64 << k)) | (u64::from(get(p)) << k);
            }
            Ternary { one: w, zero: !w }
        };
        let latches: Vec<Ternary> = (0..self.aig.latches.len())
            .map(|j| word(&mut self.rng, &|p| p.0.get(j).copied().unwrap_or(false)))
            .collect();
        let inputs: Vec<Ternary> = (0..self.aig.inputs.len())
            .map(|i| word(&mut self.rng, &|p| p.1.get(i).copied().unwrap_or(false)))
            .collect();
        self.sim.set_latches(&latches);
        self.sim.eval(&inputs);
        for (v, s) in self.sig.iter_mut().enumerate() {
            s.push(bits(self.sim.lit(2 * v as u32)));
        }
    }

    /// The normalised signature of variable `v` and whether it was complemented.
    fn key(&self, v: u32) -> (Vec<u64>, bool) {
        let s = self.sig.get(v as usize).map_or(&[][..], Vec::as_slice);
        let flip = s.first().is_some_and(|w| w & 1 == 1);
        (s.iter().map(|w| if flip { !w } else { *w }).collect(), flip)
    }
}

/// The circuit with functionally equivalent gates merged (see the module docs); `None` when no
/// gate merges. Runs until `budget` is out, keeping the merges proved by then.
pub(crate) fn fraig(aig: &Aig, budget: &Budget) -> Result<Option<Fraiged>, Exhausted> {
    budget.check()?;
    let n = aig.maxvar as usize + 1;
    let mut sw = Sweep {
        aig,
        sim: Sim::new(aig),
        sig: vec![Vec::new(); n],
        rng: Rng(0xf4a1_6000),
        pending: Vec::new(),
    };
    for _ in 0..ROUNDS {
        sw.round();
    }
    let mut sat = CdclBackend::new();
    let mut un = Unroller::new(aig, &mut sat, false);
    // per variable: the literal (of an earlier candidate) it is replaced by
    let mut repl: Vec<Option<u32>> = vec![None; n];
    // normalised signature -> candidate literals with that signature (normalised polarity)
    let mut classes: HashMap<Vec<u64>, Vec<u32>> = HashMap::new();
    let mut seen: Vec<u32> = Vec::new();
    let enter = |classes: &mut HashMap<Vec<u64>, Vec<u32>>, sw: &Sweep, v: u32| {
        let (k, flip) = sw.key(v);
        classes.entry(k).or_default().push(2 * v + u32::from(flip));
    };
    for v in std::iter::once(0)
        .chain(aig.inputs.iter().map(|l| l >> 1))
        .chain(aig.latches.iter().map(|l| l.lit >> 1))
    {
        enter(&mut classes, &sw, v);
        seen.push(v);
    }
    let (mut merged, mut checks) = (0usize, 0usize);
    for g in &aig.ands {
        if budget.check().is_err() {
            break;
        }
        // a sweep whose checks rarely merge (simulation classes of rarely differing gates, as in
        // a processor's control logic) stops: the engines get the time instead
        if checks >= CHECKS_BEFORE_STOP && checks > PAYS * merged {
            break;
        }
        let v = g.lhs >> 1;
        let (k, flip) = sw.key(v);
        let cands: Vec<u32> = classes
            .get(&k)
            .map(|c| c.iter().take(TRIES).copied().collect())
            .unwrap_or_default();
        let mut found = None;
        for r in cands {
            checks += 1;
            // v ⊕ flip has signature k, so does r: is v ≡ r ⊕ flip?
            let x = un.lit(&mut sat, 0, 2 * v);
            let y = un.lit(&mut sat, 0, r ^ u32::from(flip));
            match differ(&mut sat, &mut un, aig, x, y, budget) {
                Check::Equal => {
                    sat.add_clause(&[!x, y]);
                    sat.add_clause(&[x, !y]);
                    found = Some(r ^ u32::from(flip));
                    break;
                }
                Check::Differ(p) => sw.pending.push(p),
                Check::Unknown => {}
            }
        }
        match found {
            Some(r) => {
                if let Some(x) = repl.get_mut(v as usize) {
                    *x = Some(r);
                }
                merged += 1;
            }
            None => {
                seen.push(v);
                if sw.pending.len() >= 64 {
                    sw.round();
                    classes.clear();
                    for &u in &seen {
                        enter(&mut classes, &sw, u);
                    }
                } else {
                    enter(&mut classes, &sw, v);
                }
            }
        }
    }
    if merged == 0 {
        return Ok(None);
    }
    Ok(Some(Fraiged {
        aig: rebuild(aig, &repl),
        merged,
        checks,
    }))
}

enum Check {
    Equal,
    /// A pattern (latch values, input values) on which the two differ.
    Differ(Pattern),
    Unknown,
}

/// Are solver literals `x` and `y` equal for every value of the inputs and latches?
fn differ(
    sat: &mut CdclBackend,
    un: &mut Unroller,
    aig: &Aig,
    x: Lit,
    y: Lit,
    budget: &Budget,
) -> Check {
    for (a, b) in [(x, !y), (!x, y)] {
        match sat.solve(&[a, b], &budget.sub(Some(CHECK_SLICE))) {
            SatResult::Unsat => {}
            SatResult::Unknown => return Check::Unknown,
            SatResult::Sat => {
                let latches = (0..aig.latches.len())
                    .map(|j| un.latch_value(sat, 0, j).unwrap_or(false))
                    .collect();
                let inputs = (0..aig.inputs.len())
                    .map(|i| un.input_value(sat, 0, i))
                    .collect();
                return Check::Differ((latches, inputs));
            }
        }
    }
    Check::Equal
}

/// `aig` with the same inputs and latches and every gate `v` with `repl[v]` replaced by it,
/// rebuilt with structural hashing.
fn rebuild(aig: &Aig, repl: &[Option<u32>]) -> Aig {
    let mut map: Vec<Option<u32>> = vec![None; aig.maxvar as usize + 1];
    let set = |map: &mut Vec<Option<u32>>, l: u32, x: u32| {
        if let Some(m) = map.get_mut((l >> 1) as usize) {
            *m = Some(x);
        }
    };
    set(&mut map, 0, 0);
    let mut st = Strash::new(Aig::new());
    for &l in &aig.inputs {
        let x = st.aig.add_input();
        set(&mut map, l, x);
    }
    for l in &aig.latches {
        let x = st.aig.add_latch(0, l.reset);
        set(&mut map, l.lit, x);
    }
    for g in &aig.ands {
        let x = match repl.get((g.lhs >> 1) as usize).copied().flatten() {
            Some(r) => through(&map, r),
            None => st.and(through(&map, g.rhs0), through(&map, g.rhs1)),
        };
        set(&mut map, g.lhs, x);
    }
    for (k, l) in aig.latches.iter().enumerate() {
        st.aig.set_next(k, through(&map, l.next));
    }
    let mut r = st.aig;
    let to = |ls: &[u32]| ls.iter().map(|&l| through(&map, l)).collect();
    r.outputs = to(&aig.outputs);
    r.bad = to(&aig.bad);
    r.constraints = to(&aig.constraints);
    r
}

#[cfg(test)]
mod tests {
    use super::fraig;
    use verikit_aiger::{Aig, Reset, Sim, Ternary};
    use verikit_diag::Budget;

    /// Every function of `a` (bad, constraints, next states) equals `b`'s on all
    /// `2^(inputs + latches)` assignments.
    fn same_functions(a: &Aig, b: &Aig) -> bool {
        let (ni, nl) = (a.inputs.len(), a.latches.len());
        let (mut sa, mut sb) = (Sim::new(a), Sim::new(b));
        (0u32..1 << (ni + nl)).all(|m| {
            let bit = |k: usize| Ternary::from_bool(m >> k & 1 == 1);
            let lv: Vec<Ternary> = (0..nl).map(|j| bit(ni + j)).collect();
            let iv: Vec<Ternary> = (0..ni).map(bit).collect();
            for s in [&mut sa, &mut sb] {
                s.set_latches(&lv);
                s.eval(&iv);
            }
            let val = |s: &Sim, l: u32| s.lit(l).lane(0);
            a.bad
                .iter()
                .zip(&b.bad)
                .all(|(&x, &y)| val(&sa, x) == val(&sb, y))
                && (a.constraints.iter().zip(&b.constraints))
                    .all(|(&x, &y)| val(&sa, x) == val(&sb, y))
                && (a.latches.iter().zip(&b.latches))
                    .all(|(x, y)| val(&sa, x.next) == val(&sb, y.next))
        })
    }

    /// `bad = (a ⊕ b) ∧ ¬(x ⊕ y)` where `x ⊕ y` is built as `(a ∨ b) ∧ ¬(a ∧ b)`: structurally
    /// different from `a ⊕ b`, the same function, so `bad` is constant 0 after merging.
    #[test]
    fn merges_equivalent_gates_and_keeps_the_functions() {
        let mut g = Aig::new();
        let a = g.add_input();
        let b = g.add_latch(0, Reset::Zero);
        let t = g.and(a, b ^ 1);
        let u = g.and(a ^ 1, b);
        let x1 = g.or(t, u);
        let o = g.or(a, b);
        let n = g.and(a, b);
        let x2 = g.and(o, n ^ 1);
        let bad = g.and(x1, x2 ^ 1);
        g.set_next(0, x2);
        g.bad.push(bad);
        g.validate().unwrap();
        let f = fraig(&g, &Budget::unlimited()).unwrap().unwrap();
        assert!(f.merged >= 1);
        assert_eq!(f.aig.bad, vec![0], "{}", f.aig.to_aag());
        assert!(same_functions(&g, &f.aig));
        assert_eq!(f.aig.latches.len(), 1);
        assert_eq!(f.aig.inputs.len(), 1);
    }

    /// Gates that agree on most patterns but not all stay apart.
    #[test]
    fn keeps_gates_that_differ_on_one_pattern() {
        let mut g = Aig::new();
        let ins: Vec<u32> = (0..10).map(|_| g.add_input()).collect();
        // all ten inputs 1, versus constant 0: equal on 1023 of 1024 patterns
        let mut all = 1;
        for &i in &ins {
            all = g.and(all, i);
        }
        g.bad.push(all);
        g.validate().unwrap();
        assert!(fraig(&g, &Budget::unlimited()).unwrap().is_none());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        #[test]
        fn fraiged_circuits_compute_the_same_functions(
            ni in 1usize..4,
            nl in 0usize..3,
            gates in proptest::collection::vec((0u16..64, 0u16..64), 1..24),
        ) {
            let mut g = Aig::new();
            let mut sig = vec![0u32];
            for _ in 0..ni {
                sig.push(g.add_input());
            }
            for _ in 0..nl {
                sig.push(g.add_latch(0, Reset::Uninit));
            }
            for &(x, y) in &gates {
                let p = sig[x as usize % sig.len()] ^ u32::from(x & 1);
                let q = sig[y as usize % sig.len()] ^ u32::from(y >> 5 & 1);
                let l = g.and(p, q);
                sig.push(l);
            }
            for j in 0..nl {
                g.set_next(j, sig[sig.len() - 1 - j % sig.len()]);
            }
            let last = *sig.last().unwrap();
            g.bad.push(last);
            g.constraints.push(sig[sig.len() / 2] ^ 1);
            if let Some(f) = fraig(&g, &Budget::unlimited()).unwrap() {
                proptest::prop_assert!(same_functions(&g, &f.aig), "{}", g.to_aag());
                proptest::prop_assert_eq!(f.aig.latches.len(), g.latches.len());
                proptest::prop_assert_eq!(f.aig.inputs.len(), g.inputs.len());
                proptest::prop_assert!(f.aig.ands.len() + f.merged <= g.ands.len());
            }
        }
    }
}
