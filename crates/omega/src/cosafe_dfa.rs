//! Deterministic finite automata of the good prefixes of syntactically co-safe LTL formulas, by
//! formula progression.
//!
//! Papers: O. Kupferman, M. Y. Vardi, "Model checking of safety properties", FMSD 19(3), 2001,
//! §2–3 (syntactically co-safe formulas — in negation normal form only `X`, `U`, `F` and the
//! strong release `M` — and the automaton of their good prefixes); F. Bacchus, F. Kabanza,
//! "Using temporal logics to express search control knowledge for planning", AIJ 116, 2000, §3
//! (formula progression). PRISM uses such automata for `R[ φ ]` over co-safe LTL (its
//! `Expression.isCoSafeLTLSyntactic` and `checkRewardCoSafeLTL`).
//!
//! A state is the obligation left for the rest of the word: a positive Boolean combination of
//! *elementary* formulas (those whose top operator is not `∧`/`∨`), kept as a minimal DNF (sorted
//! clauses, sorted elements, no clause containing another), so equal obligations are equal
//! states and the construction terminates (the elementary formulas are subformulas of the input
//! or `U`/`F`/`M` formulas of it). Reading a letter progresses every elementary formula:
//! `prog(p) = [p ∈ σ]`, `prog(X φ) = φ`, `prog(F φ) = prog(φ) ∨ F φ`,
//! `prog(φ U ψ) = prog(ψ) ∨ (prog(φ) ∧ φ U ψ)`, `prog(φ M ψ) = prog(ψ) ∧ (prog(φ) ∨ φ M ψ)`.
//! The state `true` (the DNF with the empty clause) accepts: the word read so far is a good
//! prefix; `false` (no clause) is the rejecting sink. States are built on demand.

use crate::error::OmegaError;
use crate::ltl::nnf::nnf;
use crate::ltl::{Arena, Node, F};
use std::collections::HashMap;
use verikit_diag::{Budget, Diagnostic, Exhausted};

/// A minimal DNF over elementary formulas: `[]` is `false`, `[[]]` is `true`.
type Dnf = Vec<Vec<F>>;

/// States above this are refused as a resource limit.
const MAX_STATES: usize = 1 << 20;

/// The DFA of the good prefixes of a syntactically co-safe formula (built lazily). Letters are
/// bit sets over the formula arena's atomic propositions (bit `i` = AP `i`).
#[derive(Clone, Debug)]
pub struct CosafeDfa {
    arena: Arena,
    states: Vec<Dnf>,
    index: HashMap<Dnf, u32>,
    succ: HashMap<(u32, u64), u32>,
}

impl CosafeDfa {
    /// The automaton of `f` (an arena formula); refuses, naming the operator, a formula that is
    /// not syntactically co-safe once in negation normal form, or one over more than 64 atomic
    /// propositions.
    pub fn new(arena: &Arena, f: F) -> Result<CosafeDfa, OmegaError> {
        let mut arena = arena.clone();
        if arena.aps().len() > 64 {
            return Err(OmegaError::unsupported(Diagnostic::error(
                "co-safe LTL automata are limited to 64 atomic propositions",
            )));
        }
        let g = nnf(&mut arena, f);
        check_cosafe(&arena, g)?;
        let mut d = CosafeDfa {
            arena,
            states: Vec::new(),
            index: HashMap::new(),
            succ: HashMap::new(),
        };
        let init = d.dnf(g);
        d.intern(init);
        Ok(d)
    }

    /// The atomic propositions, in letter bit order.
    pub fn aps(&self) -> &[String] {
        self.arena.aps()
    }

    /// The state before any letter is read.
    pub fn initial(&self) -> u32 {
        0
    }

    /// States built so far.
    pub fn num_states(&self) -> usize {
        self.states.len()
    }

    /// Whether the letters read to reach `q` form a good prefix (every continuation satisfies
    /// the formula).
    pub fn is_accepting(&self, q: u32) -> bool {
        self.states
            .get(q as usize)
            .is_some_and(|d| d.first().is_some_and(|c| c.is_empty()))
    }

    /// Whether no continuation of the letters read to reach `q` satisfies the formula.
    pub fn is_rejecting(&self, q: u32) -> bool {
        self.states.get(q as usize).is_some_and(|d| d.is_empty())
    }

    /// The successor of `q` on `letter` (memoised; polls the budget when it builds a state).
    pub fn step(&mut self, q: u32, letter: u64, budget: &Budget) -> Result<u32, Exhausted> {
        if let Some(&t) = self.succ.get(&(q, letter)) {
            return Ok(t);
        }
        let Some(d) = self.states.get(q as usize).cloned() else {
            return Ok(q);
        };
        let mut next: Dnf = Vec::new();
        for clause in &d {
            let mut c: Dnf = vec![Vec::new()];
            for &e in clause {
                let p = self.prog(e, letter);
                c = and(&c, &p);
                if c.is_empty() {
                    break;
                }
            }
            next = or(&next, &c);
        }
        let before = self.states.len();
        if before >= MAX_STATES {
            return Err(Exhausted::Memory);
        }
        let t = self.intern(next);
        if self.states.len() > before {
            budget.check()?;
        }
        self.succ.insert((q, letter), t);
        Ok(t)
    }

    fn intern(&mut self, d: Dnf) -> u32 {
        if let Some(&i) = self.index.get(&d) {
            return i;
        }
        let i = self.states.len() as u32;
        self.index.insert(d.clone(), i);
        self.states.push(d);
        i
    }

    /// The DNF of an NNF formula over its elementary subformulas.
    fn dnf(&self, f: F) -> Dnf {
        match self.arena.node(f) {
            Node::True => vec![Vec::new()],
            Node::False => Vec::new(),
            Node::And(v) => v
                .iter()
                .fold(vec![Vec::new()], |acc, &x| and(&acc, &self.dnf(x))),
            Node::Or(v) => v.iter().fold(Vec::new(), |acc, &x| or(&acc, &self.dnf(x))),
            _ => vec![vec![f]],
        }
    }

    /// The progression of an elementary formula through one letter.
    fn prog(&mut self, e: F, letter: u64) -> Dnf {
        let holds = |i: u32| i < 64 && letter >> i & 1 == 1;
        match self.arena.node(e).clone() {
            Node::Ap(i) => constant(holds(i)),
            Node::Not(x) => match self.arena.node(x) {
                Node::Ap(i) => constant(!holds(*i)),
                _ => Vec::new(),
            },
            Node::X(x) => self.dnf(x),
            Node::Ev(x) => {
                let p = self.prog_formula(x, letter);
                or(&p, &vec![vec![e]])
            }
            Node::U(a, b) => {
                let pb = self.prog_formula(b, letter);
                let pa = self.prog_formula(a, letter);
                or(&pb, &and(&pa, &vec![vec![e]]))
            }
            Node::M(a, b) => {
                let pb = self.prog_formula(b, letter);
                let pa = self.prog_formula(a, letter);
                and(&pb, &or(&pa, &vec![vec![e]]))
            }
            // `True`/`False` are never elementary; `check_cosafe` refused everything else.
            Node::True => constant(true),
            _ => Vec::new(),
        }
    }

    /// The progression of any NNF formula (through its DNF).
    fn prog_formula(&mut self, f: F, letter: u64) -> Dnf {
        let d = self.dnf(f);
        let mut out = Vec::new();
        for clause in d {
            let mut c: Dnf = vec![Vec::new()];
            for e in clause {
                let p = self.prog(e, letter);
                c = and(&c, &p);
            }
            out = or(&out, &c);
        }
        out
    }
}

fn constant(b: bool) -> Dnf {
    if b {
        vec![Vec::new()]
    } else {
        Vec::new()
    }
}

/// The minimal DNF of a set of clauses: sorted, deduplicated, no clause a superset of another.
fn minimise(mut d: Dnf) -> Dnf {
    for c in &mut d {
        c.sort_unstable();
        c.dedup();
    }
    d.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    d.dedup();
    let mut out: Dnf = Vec::new();
    for c in d {
        if !out
            .iter()
            .any(|k| k.iter().all(|x| c.binary_search(x).is_ok()))
        {
            out.push(c);
        }
    }
    out.sort_unstable();
    out
}

fn or(a: &Dnf, b: &Dnf) -> Dnf {
    minimise(a.iter().chain(b.iter()).cloned().collect())
}

fn and(a: &Dnf, b: &Dnf) -> Dnf {
    let mut out = Vec::with_capacity(a.len() * b.len());
    for x in a {
        for y in b {
            out.push(x.iter().chain(y.iter()).copied().collect());
        }
    }
    minimise(out)
}

/// Refuses, naming the operator, a negation-normal-form formula outside the syntactically
/// co-safe fragment (only `X`, `F`, `U`, `M`, `∧`, `∨` over literals).
fn check_cosafe(a: &Arena, f: F) -> Result<(), OmegaError> {
    let mut todo = vec![f];
    let mut seen = std::collections::HashSet::new();
    while let Some(g) = todo.pop() {
        if !seen.insert(g) {
            continue;
        }
        let bad = match a.node(g) {
            Node::True | Node::False | Node::Ap(_) => None,
            Node::Not(x) if matches!(a.node(*x), Node::Ap(_)) => None,
            Node::X(_) | Node::Ev(_) | Node::U(..) | Node::M(..) | Node::And(_) | Node::Or(_) => {
                None
            }
            Node::Gl(_) => Some("`G` (globally)"),
            Node::R(..) => Some("`R` (release)"),
            Node::W(..) => Some("`W` (weak until)"),
            _ => Some("an operator outside LTL's co-safe fragment"),
        };
        if let Some(op) = bad {
            return Err(OmegaError::unsupported(Diagnostic::error(format!(
                "the formula is not syntactically co-safe: in negation normal form it uses {op} \
                 without a step bound (only `X`, `F`, `U` and bounded operators are allowed)"
            ))));
        }
        todo.extend(a.children(g));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::CosafeDfa;
    use crate::ltl::eval::{holds, Lasso};
    use crate::rand::{RandLtl, Weights};
    use crate::Arena;
    use verikit_diag::Budget;

    /// Whether the DFA meets an accepting state along the lasso (the run is eventually
    /// periodic: it is followed until a (state, position in the cycle) pair repeats).
    fn dfa_accepts(d: &mut CosafeDfa, w: &Lasso) -> bool {
        let b = Budget::unlimited();
        let mut q = d.initial();
        for &l in &w.prefix {
            q = d.step(q, l, &b).unwrap_or(q);
            if d.is_accepting(q) {
                return true;
            }
        }
        let mut seen = std::collections::HashSet::new();
        loop {
            for (i, &l) in w.cycle.iter().enumerate() {
                q = d.step(q, l, &b).unwrap_or(q);
                if d.is_accepting(q) {
                    return true;
                }
                if !seen.insert((q, i)) {
                    return false;
                }
            }
        }
    }

    /// Oracle: the direct LTL evaluator on every small lasso over two propositions, for random
    /// formulas (those that are syntactically co-safe after negation normal form).
    #[test]
    fn agrees_with_the_evaluator_on_random_cosafe_formulas() {
        let words = Lasso::all(4, 2, 2);
        let w = Weights {
            g: 0,
            r: 0,
            w: 0,
            equiv: 0,
            xor: 0,
            ..Weights::default()
        };
        let mut gen = RandLtl::new(vec!["a".into(), "b".into()], 7, w);
        let mut checked = 0;
        for _ in 0..300 {
            let mut arena = Arena::new();
            arena.ap("a");
            arena.ap("b");
            let f = gen.formula_in(&mut arena, 2, 12);
            let Ok(mut d) = CosafeDfa::new(&arena, f) else {
                continue;
            };
            checked += 1;
            for word in &words {
                assert_eq!(
                    dfa_accepts(&mut d, word),
                    holds(&arena, f, word),
                    "{} on {word:?}",
                    crate::ltl_to_string(&arena, f)
                );
            }
        }
        assert!(checked > 100, "only {checked} co-safe formulas drawn");
    }

    #[test]
    fn refuses_globally_by_name_and_accepts_bounded_shapes() {
        let mut arena = Arena::new();
        let f = crate::parse_ltl("a U G b", &mut arena).unwrap_or_else(|_| arena.tt());
        let e = CosafeDfa::new(&arena, f).err().map(|e| e.to_string());
        assert!(e.is_some_and(|m| m.contains("`G`")));
        let g = crate::parse_ltl("!(a R !b) & X X c", &mut arena).unwrap_or_else(|_| arena.ff());
        let mut d = CosafeDfa::new(&arena, g).unwrap_or_else(|e| panic!("{e}"));
        // b=bit 1 first: `!(a R !b)` = `!a U b` holds at once; then two more letters.
        let b = Budget::unlimited();
        let q1 = d.step(d.initial(), 0b010, &b).unwrap_or(0);
        let q2 = d.step(q1, 0, &b).unwrap_or(0);
        assert!(!d.is_accepting(q2));
        let q3 = d.step(q2, 0b100, &b).unwrap_or(0);
        assert!(d.is_accepting(q3));
        let r = d.step(q2, 0, &b).unwrap_or(0);
        assert!(d.is_rejecting(r));
    }
}
