//! The one NFA representation every algorithm of this crate works on.
//!
//! An NFA `A = (Σ, Q, I, F, δ)` as defined in "Antichains: A New Algorithm for Checking
//! Universality of Finite Automata" (De Wulf, Doyen, Henzinger, Raskin, CAV 2006), Section 2, and
//! in "On Equivalence Checking of Nondeterministic Finite Automata" (Fu, Deng, Jansen, Zhang,
//! SETTA 2017), Section 2: states are `0..n` (`u32`), letters are `0..|Σ|` (`u32`) with a name
//! table ([`Alphabet`]), and the transition relation is stored twice in compressed sparse row form
//! indexed by `(state, letter)`: forward (`post`) and backward (`pre`), each target list sorted and
//! duplicate-free.

use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// The states of an automaton being read, by name: each new name becomes the next state (the
/// text formats' parsers share it).
#[derive(Default)]
pub(crate) struct StateTable {
    pub(crate) names: Vec<String>,
    index: FxHashMap<String, State>,
}

impl StateTable {
    /// The state called `name`, added if new.
    pub(crate) fn get(&mut self, name: &str) -> State {
        if let Some(&q) = self.index.get(name) {
            return q;
        }
        let q = self.names.len() as State;
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), q);
        q
    }
}

pub type State = u32;
pub type Letter = u32;

/// The largest `states × letters` product the CSR tables are built for (2^28 slots, 1 GiB of
/// offsets); larger inputs are refused with a resource-limit error instead of exhausting memory.
pub(crate) const MAX_SLOTS: usize = 1 << 28;

/// Whether an automaton with `states` states over `letters` letters fits [`MAX_SLOTS`].
pub(crate) fn fits(states: usize, letters: usize) -> bool {
    states.checked_mul(letters).is_some_and(|x| x <= MAX_SLOTS)
}

/// An automaton read from a file: `names.len()` states named so, with the given initial and final
/// states and transitions; a diagnostic (at the file's start) when it does not fit [`MAX_SLOTS`].
pub(crate) fn from_parts(
    alphabet: Alphabet,
    names: Vec<String>,
    initial: &[State],
    finals: &[State],
    edges: &[(State, Letter, State)],
) -> Result<Nfa, verikit_diag::Diagnostic> {
    if !fits(names.len(), alphabet.len()) {
        return Err(verikit_diag::Diagnostic::at(
            verikit_diag::Span::point(0),
            format!(
                "{} states × {} letters exceeds the transition-table bound",
                names.len(),
                alphabet.len()
            ),
        ));
    }
    let mut b = NfaBuilder::with_states(alphabet, names.len());
    for &q in initial {
        b.add_initial(q);
    }
    for &q in finals {
        b.add_final(q);
    }
    for &(s, l, t) in edges {
        b.add_transition(s, l, t);
    }
    b.state_names = names;
    Ok(b.build())
}

/// Letter names; letters are numbered in insertion order.
#[derive(Clone, Debug, Default)]
pub struct Alphabet {
    names: Vec<String>,
    index: FxHashMap<String, Letter>,
    bits: Option<Arc<BitLetters>>,
}

/// What the letters of a mintermised `@NFA-bits` alphabet stand for: each letter is a class of bit
/// vectors over `atoms`. Kept so that writers can give the automaton back as `@NFA-bits` with the
/// same alphabet (letters without transitions included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitLetters {
    /// Atom names; bit `i` of a vector is atom `i`.
    pub atoms: Vec<String>,
    /// For each bit vector `0..2^atoms`, its letter.
    pub class: Vec<Letter>,
}

impl Alphabet {
    pub fn new() -> Self {
        Alphabet::default()
    }
    pub fn from_names<S: AsRef<str>>(names: &[S]) -> Self {
        let mut a = Alphabet::new();
        for n in names {
            a.intern(n.as_ref());
        }
        a
    }
    /// A bit-vector alphabet: letter `l` is named `names[l]` and stands for the vectors `v` with
    /// `bits.class[v] == l`.
    pub fn with_bits<S: AsRef<str>>(names: &[S], bits: BitLetters) -> Self {
        let mut a = Alphabet::from_names(names);
        a.bits = Some(Arc::new(bits));
        a
    }
    /// The bit vectors behind the letters, for an alphabet read from `@NFA-bits`.
    pub fn bits(&self) -> Option<&BitLetters> {
        self.bits.as_deref()
    }
    /// The letter called `name`, added if new (a new letter stands for no bit vector, so the
    /// alphabet stops being a bit-vector alphabet).
    pub fn intern(&mut self, name: &str) -> Letter {
        if let Some(&l) = self.index.get(name) {
            return l;
        }
        self.bits = None;
        let l = self.names.len() as Letter;
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), l);
        l
    }
    pub fn get(&self, name: &str) -> Option<Letter> {
        self.index.get(name).copied()
    }
    pub fn name(&self, l: Letter) -> &str {
        self.names.get(l as usize).map_or("?", |s| s.as_str())
    }
    pub fn names(&self) -> &[String] {
        &self.names
    }
    pub fn len(&self) -> usize {
        self.names.len()
    }
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
    /// Renders a word as its letter names separated by spaces (`ε` for the empty word).
    pub fn show_word(&self, w: &[Letter]) -> String {
        if w.is_empty() {
            return "ε".to_string();
        }
        w.iter()
            .map(|&l| self.name(l))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A transition relation in CSR form indexed by `state * |Σ| + letter`.
#[derive(Clone, Debug, Default)]
pub struct Delta {
    offsets: Vec<u32>,
    targets: Vec<State>,
    nletters: usize,
}

impl Delta {
    /// Builds from `(src, letter, dst)` triples (sorted and deduplicated here).
    fn build(n: usize, nletters: usize, edges: &mut [(State, Letter, State)]) -> Delta {
        edges.sort_unstable();
        let slots = n * nletters;
        let mut offsets = vec![0u32; slots + 1];
        let mut targets = Vec::with_capacity(edges.len());
        let mut prev = None;
        for &(s, a, t) in edges.iter() {
            if prev == Some((s, a, t)) {
                continue;
            }
            prev = Some((s, a, t));
            offsets[s as usize * nletters + a as usize + 1] += 1;
            targets.push(t);
        }
        for i in 0..slots {
            offsets[i + 1] += offsets[i];
        }
        Delta {
            offsets,
            targets,
            nletters,
        }
    }

    /// The (sorted, duplicate-free) successors of `q` under `a`.
    #[inline]
    pub fn succ(&self, q: State, a: Letter) -> &[State] {
        let i = q as usize * self.nletters + a as usize;
        &self.targets[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// All successors of `q` under every letter, as `(letter, targets)`.
    pub fn out(&self, q: State) -> impl Iterator<Item = (Letter, &[State])> + '_ {
        (0..self.nletters as Letter)
            .map(move |a| (a, self.succ(q, a)))
            .filter(|(_, t)| !t.is_empty())
    }

    pub fn len(&self) -> usize {
        self.targets.len()
    }
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }
}

/// A nondeterministic finite automaton without ε-transitions.
#[derive(Clone, Debug)]
pub struct Nfa {
    pub alphabet: Alphabet,
    num_states: usize,
    initial: Vec<State>,
    finals: Vec<State>,
    is_final: FixedBitSet,
    fwd: Delta,
    bwd: Delta,
    /// Names of the states (from the input file); empty when generated.
    pub state_names: Vec<String>,
}

/// Collects states and transitions, then [`NfaBuilder::build`]s an [`Nfa`].
#[derive(Clone, Debug, Default)]
pub struct NfaBuilder {
    pub alphabet: Alphabet,
    num_states: usize,
    initial: Vec<State>,
    finals: Vec<State>,
    edges: Vec<(State, Letter, State)>,
    pub state_names: Vec<String>,
}

impl NfaBuilder {
    pub fn new(alphabet: Alphabet) -> Self {
        NfaBuilder {
            alphabet,
            ..Default::default()
        }
    }
    pub fn with_states(alphabet: Alphabet, n: usize) -> Self {
        NfaBuilder {
            alphabet,
            num_states: n,
            ..Default::default()
        }
    }
    pub fn add_state(&mut self) -> State {
        self.num_states += 1;
        (self.num_states - 1) as State
    }
    /// Makes sure states `0..n` exist.
    pub fn ensure_states(&mut self, n: usize) {
        self.num_states = self.num_states.max(n);
    }
    pub fn num_states(&self) -> usize {
        self.num_states
    }
    pub fn add_initial(&mut self, q: State) {
        self.ensure_states(q as usize + 1);
        self.initial.push(q);
    }
    pub fn add_final(&mut self, q: State) {
        self.ensure_states(q as usize + 1);
        self.finals.push(q);
    }
    pub fn add_transition(&mut self, src: State, a: Letter, dst: State) {
        self.ensure_states(src.max(dst) as usize + 1);
        self.edges.push((src, a, dst));
    }
    pub fn num_transitions(&self) -> usize {
        self.edges.len()
    }
    pub fn build(mut self) -> Nfa {
        let n = self.num_states;
        let nl = self.alphabet.len();
        for &(_, a, _) in &self.edges {
            debug_assert!((a as usize) < nl, "letter out of range");
        }
        self.edges.retain(|&(_, a, _)| (a as usize) < nl);
        let fwd = Delta::build(n, nl, &mut self.edges);
        let mut rev: Vec<(State, Letter, State)> =
            self.edges.iter().map(|&(s, a, t)| (t, a, s)).collect();
        let bwd = Delta::build(n, nl, &mut rev);
        self.initial.sort_unstable();
        self.initial.dedup();
        self.finals.sort_unstable();
        self.finals.dedup();
        let mut is_final = FixedBitSet::with_capacity(n);
        for &f in &self.finals {
            is_final.insert(f as usize);
        }
        Nfa {
            alphabet: self.alphabet,
            num_states: n,
            initial: self.initial,
            finals: self.finals,
            is_final,
            fwd,
            bwd,
            state_names: self.state_names,
        }
    }
}

impl Nfa {
    pub fn num_states(&self) -> usize {
        self.num_states
    }
    pub fn num_letters(&self) -> usize {
        self.alphabet.len()
    }
    pub fn num_transitions(&self) -> usize {
        self.fwd.len()
    }
    pub fn initial(&self) -> &[State] {
        &self.initial
    }
    pub fn finals(&self) -> &[State] {
        &self.finals
    }
    #[inline]
    pub fn is_final(&self, q: State) -> bool {
        self.is_final.contains(q as usize)
    }
    pub fn final_set(&self) -> &FixedBitSet {
        &self.is_final
    }
    #[inline]
    pub fn post(&self, q: State, a: Letter) -> &[State] {
        self.fwd.succ(q, a)
    }
    #[inline]
    pub fn pre(&self, q: State, a: Letter) -> &[State] {
        self.bwd.succ(q, a)
    }
    pub fn forward(&self) -> &Delta {
        &self.fwd
    }
    pub fn backward(&self) -> &Delta {
        &self.bwd
    }
    /// Every transition `(src, letter, dst)`, sorted.
    pub fn transitions(&self) -> Vec<(State, Letter, State)> {
        let mut v = Vec::with_capacity(self.num_transitions());
        for q in 0..self.num_states as State {
            for (a, ts) in self.fwd.out(q) {
                v.extend(ts.iter().map(|&t| (q, a, t)));
            }
        }
        v
    }
    /// The display name of a state.
    pub fn state_name(&self, q: State) -> String {
        match self.state_names.get(q as usize) {
            Some(s) => s.clone(),
            None => format!("q{q}"),
        }
    }
    /// Average out-degree per state and letter (the density `d` of the SETTA paper, the transition
    /// density `r` of Tabakov–Vardi).
    pub fn density(&self) -> f64 {
        let denom = (self.num_states * self.num_letters()).max(1);
        self.num_transitions() as f64 / denom as f64
    }

    /// A copy over a larger alphabet: letter `a` of `self` becomes `map[a]` in `alphabet`.
    pub fn relabel(&self, alphabet: &Alphabet, map: &[Letter]) -> Nfa {
        let mut b = NfaBuilder::with_states(alphabet.clone(), self.num_states);
        for &q in &self.initial {
            b.add_initial(q);
        }
        for &q in &self.finals {
            b.add_final(q);
        }
        for (s, a, t) in self.transitions() {
            b.add_transition(s, map[a as usize], t);
        }
        b.state_names = self.state_names.clone();
        b.build()
    }

    /// The reverse automaton (initial and final states swapped, transitions reversed).
    pub fn reverse(&self) -> Nfa {
        let mut b = NfaBuilder::with_states(self.alphabet.clone(), self.num_states);
        for &q in &self.finals {
            b.add_initial(q);
        }
        for &q in &self.initial {
            b.add_final(q);
        }
        for (s, a, t) in self.transitions() {
            b.add_transition(t, a, s);
        }
        b.state_names = self.state_names.clone();
        b.build()
    }

    /// States reachable from the initial states.
    pub fn reachable(&self) -> FixedBitSet {
        let mut seen = FixedBitSet::with_capacity(self.num_states);
        let mut stack: Vec<State> = Vec::new();
        for &q in &self.initial {
            if !seen.put(q as usize) {
                stack.push(q);
            }
        }
        while let Some(q) = stack.pop() {
            for (_, ts) in self.fwd.out(q) {
                for &t in ts {
                    if !seen.put(t as usize) {
                        stack.push(t);
                    }
                }
            }
        }
        seen
    }

    /// States from which a final state is reachable.
    pub fn coreachable(&self) -> FixedBitSet {
        let mut seen = FixedBitSet::with_capacity(self.num_states);
        let mut stack: Vec<State> = Vec::new();
        for &q in &self.finals {
            if !seen.put(q as usize) {
                stack.push(q);
            }
        }
        while let Some(q) = stack.pop() {
            for (_, ts) in self.bwd.out(q) {
                for &t in ts {
                    if !seen.put(t as usize) {
                        stack.push(t);
                    }
                }
            }
        }
        seen
    }

    /// The sub-automaton on `keep` (states renumbered in increasing order).
    pub fn restrict(&self, keep: &FixedBitSet) -> Nfa {
        let mut map = vec![u32::MAX; self.num_states];
        let mut n = 0u32;
        let mut names = Vec::new();
        for q in keep.ones() {
            if q < self.num_states {
                map[q] = n;
                n += 1;
                if !self.state_names.is_empty() {
                    names.push(self.state_name(q as State));
                }
            }
        }
        let mut b = NfaBuilder::with_states(self.alphabet.clone(), n as usize);
        for &q in &self.initial {
            if map[q as usize] != u32::MAX {
                b.add_initial(map[q as usize]);
            }
        }
        for &q in &self.finals {
            if map[q as usize] != u32::MAX {
                b.add_final(map[q as usize]);
            }
        }
        for (s, a, t) in self.transitions() {
            let (s2, t2) = (map[s as usize], map[t as usize]);
            if s2 != u32::MAX && t2 != u32::MAX {
                b.add_transition(s2, a, t2);
            }
        }
        b.state_names = names;
        b.build()
    }

    /// Removes states that are not reachable or cannot reach a final state (the language is kept).
    pub fn trim(&self) -> Nfa {
        let mut keep = self.reachable();
        keep.intersect_with(&self.coreachable());
        self.restrict(&keep)
    }

    /// The disjoint union (sum) `self ⊕ other` over the same alphabet: `other`'s states are shifted
    /// by `self.num_states()`. Both must share the alphabet (see [`reconcile`]).
    pub fn disjoint_union(&self, other: &Nfa) -> Nfa {
        let off = self.num_states as State;
        let mut b =
            NfaBuilder::with_states(self.alphabet.clone(), self.num_states + other.num_states);
        for &q in &self.initial {
            b.add_initial(q);
        }
        for &q in &other.initial {
            b.add_initial(q + off);
        }
        for &q in &self.finals {
            b.add_final(q);
        }
        for &q in &other.finals {
            b.add_final(q + off);
        }
        for (s, a, t) in self.transitions() {
            b.add_transition(s, a, t);
        }
        for (s, a, t) in other.transitions() {
            b.add_transition(s + off, a, t + off);
        }
        b.build()
    }
}

/// How two automata's alphabets were joined.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Reconciliation {
    /// Letters only the first automaton uses (the second has no transitions on them).
    pub only_in_first: Vec<String>,
    /// Letters only the second automaton uses.
    pub only_in_second: Vec<String>,
}

impl Reconciliation {
    pub fn is_trivial(&self) -> bool {
        self.only_in_first.is_empty() && self.only_in_second.is_empty()
    }
}

/// Brings two automata onto one alphabet, matching letters by name; a letter missing from one
/// automaton simply has no transitions there. Returns the relabelled automata.
pub(crate) fn reconcile(a: &Nfa, b: &Nfa) -> (Nfa, Nfa, Reconciliation) {
    let same = a.alphabet.names() == b.alphabet.names();
    if same {
        return (a.clone(), b.clone(), Reconciliation::default());
    }
    let mut joint = a.alphabet.clone();
    let mut rec = Reconciliation::default();
    for n in b.alphabet.names() {
        if joint.get(n).is_none() {
            rec.only_in_second.push(n.clone());
        }
        joint.intern(n);
    }
    for n in a.alphabet.names() {
        if b.alphabet.get(n).is_none() {
            rec.only_in_first.push(n.clone());
        }
    }
    let map_a: Vec<Letter> = (0..a.num_letters() as Letter).collect();
    let map_b: Vec<Letter> = b
        .alphabet
        .names()
        .iter()
        .map(|n| joint.get(n).unwrap_or(0))
        .collect();
    (a.relabel(&joint, &map_a), b.relabel(&joint, &map_b), rec)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Nfa {
        let mut b = NfaBuilder::new(Alphabet::from_names(&["a", "b"]));
        b.add_initial(0);
        b.add_final(2);
        b.add_transition(0, 0, 1);
        b.add_transition(0, 0, 1);
        b.add_transition(1, 1, 2);
        b.add_transition(0, 1, 0);
        b.add_state();
        b.build()
    }

    #[test]
    fn csr_both_directions() {
        let a = small();
        assert_eq!(a.num_states(), 4);
        assert_eq!(a.num_transitions(), 3);
        assert_eq!(a.post(0, 0), &[1]);
        assert_eq!(a.pre(2, 1), &[1]);
        assert_eq!(a.pre(0, 1), &[0]);
        assert!(a.is_final(2));
        let t = a.trim();
        assert_eq!(t.num_states(), 3);
        let r = a.reverse();
        assert_eq!(r.initial(), &[2]);
        assert_eq!(r.post(2, 1), &[1]);
    }

    #[test]
    fn reconcile_by_name() {
        let a = small();
        let mut b = NfaBuilder::new(Alphabet::from_names(&["b", "c"]));
        b.add_initial(0);
        b.add_transition(0, 0, 0);
        let b = b.build();
        let (a2, b2, rec) = reconcile(&a, &b);
        assert_eq!(rec.only_in_first, vec!["a".to_string()]);
        assert_eq!(rec.only_in_second, vec!["c".to_string()]);
        assert_eq!(a2.num_letters(), 3);
        assert_eq!(b2.post(0, 1), &[0]); // `b` is letter 1 of the joint alphabet
        assert_eq!(b2.post(0, 0), &[] as &[u32]);
    }
}
