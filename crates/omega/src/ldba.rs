//! Limit-deterministic Büchi automata (LDBA) from generalized Büchi automata by the subset +
//! breakpoint construction, with ε-jumps, suitable for quantitative model checking of MDPs.
//!
//! Papers: Courcoubetis, Yannakakis, "The complexity of probabilistic verification", JACM 1995,
//! Sect. 4 (the semi-deterministic automaton whose second part is a breakpoint construction);
//! Hahn, Li, Schewe, Turrini, Zhang, "Lazy probabilistic model checking without
//! determinisation", CONCUR 2015, Sect. 3 (subset and breakpoint constructions on the product);
//! Sickert, Esparza, Jaax, Křetínský, "Limit-deterministic Büchi automata for linear temporal
//! logic", CAV 2016, Sect. 2 (LDBA with ε-jumps: in the product with an MDP the jumps become
//! choices of the scheduler, so the initial part and the accepting part must both be
//! deterministic).
//!
//! The input is first degeneralised into a transition-based Büchi automaton (one mark). Then:
//! - the *initial part* is the subset construction: a state is the set `S` of automaton states
//!   reachable on the prefix read so far (deterministic);
//! - an *ε-jump* leads from `S` to `({p}, ∅)` for any `p ∈ S`;
//! - the *accepting part* has states `(R, B)`, `B ⊆ R`: `R` is the set of states reachable from
//!   `p` since the jump, `B` those reachable by a path that took a marked edge since the last
//!   breakpoint. On a letter, `R' = δ(R)`, `B' = δ(B) ∪ δ_F(R)`; when `B' = R' ≠ ∅` the step is a
//!   breakpoint: `B'` is reset to `∅` and the target state carries the acceptance flag.
//!
//! Acceptance is state-based: a run is accepting iff it visits flagged states infinitely often.
//! Soundness: every state at a breakpoint has an ancestor at the previous breakpoint through a
//! marked edge, so König's lemma gives an accepting run. Completeness: for an accepting run ρ,
//! jumping to `{ρ(j+1)}` after a marked edge `ρ(j) → ρ(j+1)` works for one of the first `|Q|+1`
//! such positions `j` (a run that never reaches a breakpoint again keeps a "parasite" path
//! disjoint from all later jumps' parasites; more than `|Q|` pairwise distinct parasites at one
//! time cannot exist).
//!
//! States are built on demand ([`Ldba::step`] memoises per state and letter), so a product with
//! a model only builds what the model's letters reach.

use crate::degen::degeneralize_tba;
use crate::twa::Twa;
use std::collections::HashMap;
use verikit_diag::{Budget, Exhausted};

/// A state of the LDBA.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum State {
    /// Initial part: the subset of automaton states (sorted).
    Subset(Vec<u32>),
    /// Accepting part: `(R, B)` (sorted, `B ⊆ R`) and whether the step into it was a breakpoint.
    Breakpoint {
        r: Vec<u32>,
        b: Vec<u32>,
        flag: bool,
    },
}

/// A limit-deterministic Büchi automaton built on demand from a TGBA (see the module text).
/// Letters are valuations of [`Ldba::aps`] (bit `i` = AP `i`).
pub struct Ldba {
    tba: Twa,
    /// Whether every edge counts as marked (acceptance `t`).
    all_marked: bool,
    states: Vec<State>,
    index: HashMap<State, u32>,
    succ: HashMap<(u32, u64), u32>,
    init: u32,
}

impl Ldba {
    /// The LDBA of `tgba` (its initial state is the subset of `tgba`'s initial states; nothing
    /// else is built yet).
    pub fn new(tgba: &Twa) -> Ldba {
        let tba = degeneralize_tba(tgba);
        let all_marked = tba.num_sets == 0 && !tba.acc_false;
        let mut init_set = tba.init.clone();
        init_set.sort_unstable();
        init_set.dedup();
        let mut l = Ldba {
            tba,
            all_marked,
            states: Vec::new(),
            index: HashMap::new(),
            succ: HashMap::new(),
            init: 0,
        };
        l.init = l.intern(State::Subset(init_set));
        l
    }

    /// The atomic propositions (bit `i` of a letter is `aps()[i]`).
    pub fn aps(&self) -> &[String] {
        &self.tba.aps
    }

    /// The initial state (in the initial part; nothing read yet).
    pub fn initial(&self) -> u32 {
        self.init
    }

    /// The number of states built so far.
    pub fn num_states(&self) -> usize {
        self.states.len()
    }

    /// True for states of the initial (subset) part, the only ones with ε-jumps.
    pub fn is_initial_part(&self, q: u32) -> bool {
        matches!(self.states.get(q as usize), Some(State::Subset(_)))
    }

    /// True for flagged states (entered by a breakpoint step): a run is accepting iff it visits
    /// them infinitely often.
    pub fn is_accepting(&self, q: u32) -> bool {
        matches!(
            self.states.get(q as usize),
            Some(State::Breakpoint { flag: true, .. })
        )
    }

    /// The number of states of the underlying transition-based Büchi automaton.
    pub fn base_states(&self) -> usize {
        self.tba.num_states()
    }

    fn intern(&mut self, s: State) -> u32 {
        if let Some(&i) = self.index.get(&s) {
            return i;
        }
        let i = self.states.len() as u32;
        self.states.push(s.clone());
        self.index.insert(s, i);
        i
    }

    fn marked(&self, marks: u64) -> bool {
        !self.tba.acc_false && (self.all_marked || marks & 1 != 0)
    }

    /// Successors of a set on a letter: all of them, and those through marked edges.
    fn post(&self, set: &[u32], letter: u64) -> (Vec<u32>, Vec<u32>) {
        let (mut all, mut fin) = (Vec::new(), Vec::new());
        let val = self.tba.valuation(letter);
        for &p in set {
            for e in self.tba.states.get(p as usize).into_iter().flatten() {
                if e.label.eval_in(&val) {
                    all.push(e.dst);
                    if self.marked(e.marks) {
                        fin.push(e.dst);
                    }
                }
            }
        }
        all.sort_unstable();
        all.dedup();
        fin.sort_unstable();
        fin.dedup();
        (all, fin)
    }

    /// The deterministic successor of `q` on `letter` (built and memoised on first use; polls
    /// the budget when it builds a state).
    pub fn step(&mut self, q: u32, letter: u64, budget: &Budget) -> Result<u32, Exhausted> {
        if let Some(&t) = self.succ.get(&(q, letter)) {
            return Ok(t);
        }
        let Some(st) = self.states.get(q as usize).cloned() else {
            return Ok(q);
        };
        let next = match st {
            State::Subset(s) => State::Subset(self.post(&s, letter).0),
            State::Breakpoint { r, b, .. } => {
                let (r2, f) = self.post(&r, letter);
                let (b1, _) = self.post(&b, letter);
                let mut b2: Vec<u32> = b1.into_iter().chain(f).collect();
                b2.sort_unstable();
                b2.dedup();
                if !r2.is_empty() && b2 == r2 {
                    State::Breakpoint {
                        r: r2,
                        b: Vec::new(),
                        flag: true,
                    }
                } else {
                    State::Breakpoint {
                        r: r2,
                        b: b2,
                        flag: false,
                    }
                }
            }
        };
        let before = self.states.len();
        let t = self.intern(next);
        if self.states.len() > before {
            budget.check()?;
        }
        self.succ.insert((q, letter), t);
        Ok(t)
    }

    /// The ε-jump targets of `q`: `({p}, ∅)` for each `p` of a subset state; none in the
    /// accepting part.
    pub fn jumps(&mut self, q: u32) -> Vec<u32> {
        let Some(State::Subset(s)) = self.states.get(q as usize).cloned() else {
            return Vec::new();
        };
        s.into_iter()
            .map(|p| {
                self.intern(State::Breakpoint {
                    r: vec![p],
                    b: Vec::new(),
                    flag: false,
                })
            })
            .collect()
    }

    /// The whole LDBA as an explicit state-based Büchi automaton over every letter, with the
    /// ε-jumps folded into the letter that follows them (for language checks; exponential in the
    /// number of APs, at most 16 of them).
    pub fn to_twa(&mut self, budget: &Budget) -> Result<Twa, Exhausted> {
        let n_aps = self.tba.aps.len().min(16);
        let letters = 1u64 << n_aps;
        let mut out = Twa::new(self.tba.aps.clone());
        out.vars = self.tba.vars.clone();
        out.num_sets = 1;
        out.state_based = true;
        let mut map: HashMap<u32, u32> = HashMap::new();
        let mut todo = Vec::new();
        let mut get = |q: u32, out: &mut Twa, todo: &mut Vec<u32>| -> u32 {
            *map.entry(q).or_insert_with(|| {
                todo.push(q);
                out.add_state()
            })
        };
        let i0 = self.init;
        let mut starts = vec![i0];
        starts.extend(self.jumps(i0));
        for q in starts {
            let id = get(q, &mut out, &mut todo);
            out.init.push(id);
        }
        while let Some(q) = todo.pop() {
            budget.check()?;
            let src = get(q, &mut out, &mut todo);
            let marks = u64::from(self.is_accepting(q));
            let mut from = vec![q];
            from.extend(self.jumps(q));
            for l in 0..letters {
                let letter = out.label_of(&letter_expr(l, n_aps));
                for &f in &from {
                    let t = self.step(f, l, budget)?;
                    let dst = get(t, &mut out, &mut todo);
                    out.add_edge(src, dst, letter.clone(), marks);
                }
            }
        }
        Ok(out)
    }
}

/// The conjunction of literals describing one full letter over `n` APs.
fn letter_expr(bits: u64, n: usize) -> verikit_logic::BoolExpr {
    use verikit_logic::BoolExpr;
    BoolExpr::And(
        (0..n)
            .map(|i| {
                let v = BoolExpr::Var(i as u32);
                if (bits >> i) & 1 == 1 {
                    v
                } else {
                    BoolExpr::Not(Box::new(v))
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accepts::accepts_lasso;
    use crate::ltl::eval::{holds, Lasso};
    use crate::ltl::parse::parse;
    use crate::ltl::Arena;
    use crate::translate::{translate, Options};
    use proptest::prelude::*;

    fn ldba_of(text: &str) -> (Arena, crate::ltl::F, Twa) {
        let mut a = Arena::new();
        let f = parse(text, &mut a).expect("formula");
        let opts = Options {
            redirect_merges: false,
            ..Default::default()
        };
        let t = translate(&mut a, f, &opts).expect("translation");
        let mut l = Ldba::new(&t);
        let tw = l.to_twa(&Budget::unlimited()).expect("unlimited");
        (a, f, tw)
    }

    /// Every lasso up to a size: the LDBA accepts exactly the words of the formula.
    fn check_all(text: &str) {
        let (a, f, tw) = ldba_of(text);
        let letters = 1u64 << tw.aps.len();
        assert_eq!(tw.aps.len(), a.aps().len(), "{text}: every AP must occur");
        for w in Lasso::all(letters, 2, 3) {
            assert_eq!(accepts_lasso(&tw, &w), holds(&a, f, &w), "{text} on {w:?}");
        }
    }

    #[test]
    fn classic_formulas() {
        for f in [
            "G F a",
            "F G a",
            "G (a -> F b)",
            "F G a | G F b",
            "a U b",
            "(G F a) & (G F b)",
            "F G (a | X b)",
            "true",
            "false",
            "X X a",
            "a W b",
            "a R b",
            "G F a -> G F b",
        ] {
            check_all(f);
        }
    }

    #[test]
    fn deterministic_outside_jumps() {
        let mut a = Arena::new();
        let f = parse("F G a | G F b", &mut a).expect("formula");
        let t = translate(&mut a, f, &Options::default()).expect("translation");
        let mut l = Ldba::new(&t);
        let b = Budget::unlimited();
        let q0 = l.initial();
        // Same letter, same successor; jumps only from the initial part.
        let s1 = l.step(q0, 1, &b).expect("unlimited");
        assert_eq!(l.step(q0, 1, &b).expect("unlimited"), s1);
        for j in l.jumps(s1) {
            assert!(!l.is_initial_part(j));
            assert!(l.jumps(j).is_empty());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// On random formulas the LDBA's language equals the formula's (and so the TGBA's),
        /// judged by the direct evaluator on every small lasso.
        #[test]
        fn random_formulas_keep_the_language(seed in 0u64..10_000) {
            let mut a = Arena::new();
            let mut r = crate::rand::RandLtl::new(
                vec!["a".into(), "b".into()],
                seed,
                crate::rand::Weights::default(),
            );
            let f = r.formula_in(&mut a, 3, 9);
            let opts = Options { redirect_merges: false, ..Default::default() };
            let t = translate(&mut a, f, &opts).expect("translation");
            let mut l = Ldba::new(&t);
            let tw = l.to_twa(&Budget::unlimited()).expect("unlimited");
            let text = crate::ltl::print::to_string(&a, f);
            for w in Lasso::all(1u64 << tw.aps.len(), 2, 3) {
                prop_assert_eq!(accepts_lasso(&tw, &w), accepts_lasso(&t, &w), "{} on {:?} {:?}", text, w, t.aps);
                // Letters index the automaton's APs, the evaluator the arena's: same when all occur.
                if tw.aps.len() == a.aps().len() {
                    prop_assert_eq!(accepts_lasso(&tw, &w), holds(&a, f, &w), "{} on {:?}", text, w);
                }
            }
            // Same emptiness as the TGBA.
            prop_assert_eq!(crate::emptiness::is_empty(&tw), crate::emptiness::is_empty(&t));
        }
    }
}
