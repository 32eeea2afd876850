//! Transition-based ω-automata (Spot's "TωA"): explicit states, edges labelled by BDDs over the
//! atomic propositions (a `verikit-bdd` dictionary, one BDD variable per AP, variable `i` = AP
//! `i`; automata derived from one another share their dictionary), and
//! generalized Büchi acceptance `Inf(0)&…&Inf(k-1)` on edges (`k = 0` is `t`: every run accepts;
//! [`Twa::acc_false`] is `f`: no run accepts).
//!
//! State-based automata are represented with the marks of a state on each of its outgoing edges
//! and [`Twa::state_based`] set, so that algorithms on state-labelled automata (degeneralised
//! Büchi, the simulation-based reductions of Juvekar–Piterman CAV'06) can read a state's acceptance
//! from any outgoing edge ([`Twa::state_marks`]) while every transition-based algorithm (emptiness,
//! product) works unchanged.

use verikit_bdd::{Bdd, BddDict, BddValuation, Limits, TextStyle};
use verikit_logic::BoolExpr;

pub(crate) use crate::acc::Acc;
pub use crate::acc::Marks;
use crate::error::OmegaError;

/// The largest number of acceptance sets.
pub(crate) const MAX_SETS: u32 = 64;

#[derive(Clone, Debug)]
pub struct Edge {
    pub dst: u32,
    pub label: Bdd,
    pub marks: Marks,
}

#[derive(Clone, Debug)]
pub struct Twa {
    /// Atomic proposition names; BDD variable `i` is `aps[i]`.
    pub aps: Vec<String>,
    /// The BDD dictionary of the labels (its names are `aps`); shared by the automata built from
    /// this one.
    pub vars: BddDict,
    /// Outgoing edges of each state.
    pub states: Vec<Vec<Edge>>,
    /// Initial states (HOA allows several `Start:` lines).
    pub init: Vec<u32>,
    /// Number of acceptance sets of `Inf(0)&…&Inf(k-1)`.
    pub num_sets: u32,
    /// Acceptance `f`: the language is empty whatever the edges.
    pub acc_false: bool,
    /// True if all edges leaving a state carry the same marks (state-based acceptance).
    pub state_based: bool,
    /// A general Emerson–Lei condition over the `num_sets` marks; `None` is the generalized
    /// Büchi case `Inf(0)&…&Inf(num_sets-1)` (or `f` with `acc_false`) that most algorithms of
    /// this crate require (they check it with [`Twa::require_gba`]). Set it through
    /// [`Twa::set_acceptance`], which keeps generalized Büchi conditions as `None`.
    pub acc: Option<Acc>,
    /// Where the `Acceptance:` item of the HOA text this automaton was read from is (errors of
    /// algorithms refusing the condition point there).
    pub acc_span: Option<verikit_diag::Span>,
    pub name: Option<String>,
    /// Optional state names (from HOA, or the formula of a translated state).
    pub state_names: Vec<Option<String>>,
}

impl Twa {
    /// An automaton with no states over the given atomic propositions.
    pub fn new(aps: Vec<String>) -> Twa {
        let vars = BddDict::new(aps.iter().cloned());
        Twa {
            aps,
            vars,
            states: Vec::new(),
            init: Vec::new(),
            num_sets: 0,
            acc_false: false,
            state_based: false,
            acc: None,
            acc_span: None,
            name: None,
            state_names: Vec::new(),
        }
    }

    /// An automaton with this one's propositions (sharing its BDD dictionary), acceptance and name,
    /// one state per representative in `reps` (named as the representative), and no edges: the
    /// start of a quotient, whose state `i` stands for the class of `reps[i]`.
    pub fn quotient_shell(&self, reps: &[usize]) -> Twa {
        let mut out = Twa::new(self.aps.clone());
        out.vars = self.vars.clone();
        out.num_sets = self.num_sets;
        out.acc_false = self.acc_false;
        out.acc = self.acc.clone();
        out.name = self.name.clone();
        for &r in reps {
            let id = out.add_state();
            out.state_names[id as usize] = self.state_names.get(r).cloned().flatten();
        }
        out
    }

    pub fn add_state(&mut self) -> u32 {
        self.states.push(Vec::new());
        self.state_names.push(None);
        (self.states.len() - 1) as u32
    }

    pub fn add_edge(&mut self, src: u32, dst: u32, label: Bdd, marks: Marks) {
        self.states[src as usize].push(Edge { dst, label, marks });
    }

    pub fn num_states(&self) -> usize {
        self.states.len()
    }
    pub fn num_edges(&self) -> usize {
        self.states.iter().map(|e| e.len()).sum()
    }
    /// The acceptance condition, whatever its kind (`Inf(0)&…&Inf(k-1)`, `f` with
    /// [`Twa::acc_false`], or the Emerson–Lei condition of [`Twa::acc`]).
    pub fn acceptance(&self) -> Acc {
        match &self.acc {
            Some(a) => a.clone(),
            None if self.acc_false => Acc::f(),
            None => Acc::generalized_buchi(self.num_sets),
        }
    }
    /// Sets the acceptance condition over `num_sets` marks (at most [`MAX_SETS`]). A generalized
    /// Büchi condition on all the sets (or `f` without sets) is stored in the legacy form
    /// (`acc = None`), so generalized-Büchi-only algorithms accept it.
    pub fn set_acceptance(&mut self, num_sets: u32, acc: Acc) {
        self.num_sets = num_sets.min(MAX_SETS);
        if acc == Acc::generalized_buchi(self.num_sets) {
            self.acc = None;
            self.acc_false = false;
        } else if acc.is_f() {
            self.acc = None;
            self.acc_false = true;
        } else {
            self.acc = Some(acc);
            self.acc_false = false;
        }
    }
    /// True if the condition is generalized Büchi on all sets, `t` or `f` — the case every
    /// algorithm of this crate handles.
    pub fn is_generalized_buchi(&self) -> bool {
        self.acc.is_none()
    }
    /// The `acc-name` Spot prints for this automaton's condition, if it has one.
    pub fn acc_name(&self) -> Option<String> {
        self.acceptance().name(self.num_sets)
    }
    /// A readable name of the condition for messages: its `acc-name`, or the formula.
    pub fn acceptance_description(&self) -> String {
        match self.acc_name() {
            Some(n) => format!("{n} (`{}`)", self.acceptance()),
            None => format!("Emerson–Lei `{}`", self.acceptance()),
        }
    }
    /// `Ok` if the automaton has generalized Büchi acceptance; otherwise an
    /// [`OmegaError::Unsupported`] naming `what` (the algorithm or command) and the condition.
    pub fn require_gba(&self, what: &str) -> Result<(), OmegaError> {
        if self.is_generalized_buchi() {
            return Ok(());
        }
        let msg = format!(
            "{what} supports only generalized Büchi acceptance (`Inf(0)&…&Inf(k-1)`, `t`, `f`); this automaton has {} acceptance",
            self.acceptance_description()
        );
        Err(OmegaError::unsupported(match self.acc_span {
            Some(sp) => {
                verikit_diag::Diagnostic::at(sp, msg).with_span(sp, "this acceptance condition")
            }
            None => verikit_diag::Diagnostic::error(msg),
        }))
    }
    /// True if the run whose marks seen infinitely often are `inf` is accepting.
    pub fn accepting_marks(&self, inf: Marks) -> bool {
        match &self.acc {
            Some(a) => a.accepting(inf),
            None => !self.acc_false && inf & self.all_marks() == self.all_marks(),
        }
    }

    /// The set of all marks `{0, …, k-1}`.
    pub fn all_marks(&self) -> Marks {
        if self.num_sets >= 64 {
            u64::MAX
        } else {
            (1u64 << self.num_sets) - 1
        }
    }
    pub fn tt(&self) -> Bdd {
        self.vars.tt()
    }
    pub fn ff(&self) -> Bdd {
        self.vars.ff()
    }
    /// The BDD of atomic proposition `i` (false beyond the APs).
    pub fn ap_var(&self, i: usize) -> Bdd {
        self.vars.ap(i)
    }
    /// The label of a Boolean formula over AP indices (variables beyond the APs are false).
    pub fn label_of(&self, e: &BoolExpr) -> Bdd {
        verikit_bdd::from_expr(
            e,
            self.vars.vars(),
            &|v| self.ap_var(v as usize),
            &Limits::unlimited(),
        )
        .unwrap_or_else(|_| self.ff())
    }
    /// The marks of a state of a state-based automaton (those of its first edge).
    pub fn state_marks(&self, s: u32) -> Marks {
        self.states[s as usize].first().map_or(0, |e| e.marks)
    }

    /// True if a valuation (bit `i` = AP `i`) satisfies a label.
    pub fn eval_label(&self, label: &Bdd, bits: u64) -> bool {
        label.eval_in(&self.valuation(bits))
    }
    pub fn valuation(&self, bits: u64) -> BddValuation {
        let n = self.aps.len();
        BddValuation::new((0..n).map(|i| i < 64 && (bits >> i) & 1 == 1).collect())
    }
    /// A full valuation satisfying `label` (bit `i` = AP `i`), if any.
    pub fn pick_letter(&self, label: &Bdd) -> Option<u64> {
        let v = label.sat_witness()?;
        let mut bits = 0u64;
        for (i, b) in v.as_vector().iter().enumerate() {
            if *b && i < 64 {
                bits |= 1 << i;
            }
        }
        Some(bits)
    }

    /// Label as a HOA expression over AP indices (`t`, `f`, `0&!1 | 2`).
    pub fn label_hoa(&self, label: &Bdd) -> String {
        self.label_text(label, &|i| i.to_string(), TextStyle::HOA)
    }
    /// Label as a Spot Boolean formula over AP names (`a & !b | c`).
    pub fn label_formula(&self, label: &Bdd) -> String {
        self.label_text(
            label,
            &|i| {
                self.aps
                    .get(i)
                    .map_or_else(|| i.to_string(), |a| crate::ltl::print::ap_text(a))
            },
            TextStyle::SPOT,
        )
    }
    fn label_text(&self, label: &Bdd, name: &dyn Fn(usize) -> String, style: TextStyle) -> String {
        // Unlimited: printing cannot run out.
        verikit_bdd::to_text(label, name, style, &Limits::unlimited()).unwrap_or_default()
    }

    /// A letter (valuation bits) printed as a Spot Boolean formula over all APs.
    pub fn letter_formula(&self, bits: u64) -> String {
        if self.aps.is_empty() {
            return "1".into();
        }
        let s: Vec<String> = (0..self.aps.len())
            .map(|i| {
                let n = crate::ltl::print::ap_text(&self.aps[i]);
                if i < 64 && (bits >> i) & 1 == 1 {
                    n
                } else {
                    format!("!{n}")
                }
            })
            .collect();
        s.join(" & ")
    }

    /// Translates a label of `from` (same AP names, possibly other order) into this automaton's
    /// variables, by the dictionaries (a relabelling, or only a new variable count when `from`'s
    /// APs are a prefix of these). APs of `from` that this automaton lacks are quantified away.
    pub fn import_label(&self, from: &Twa, label: &Bdd) -> Bdd {
        // Unlimited: the import cannot run out.
        self.vars
            .import(&from.vars, label, &Limits::unlimited())
            .unwrap_or_else(|_| self.ff())
    }

    /// A copy over a larger AP list (`aps` must contain all of this automaton's APs). When `aps`
    /// extends this automaton's APs, the labels keep their nodes (only their variable count
    /// changes).
    pub fn with_aps(&self, aps: Vec<String>) -> Twa {
        let mut t = Twa::new(aps);
        t.init = self.init.clone();
        t.num_sets = self.num_sets;
        t.acc_false = self.acc_false;
        t.acc = self.acc.clone();
        t.state_based = self.state_based;
        t.name = self.name.clone();
        t.state_names = self.state_names.clone();
        t.states = self
            .states
            .iter()
            .map(|es| {
                es.iter()
                    .map(|e| Edge {
                        dst: e.dst,
                        label: t.import_label(self, &e.label),
                        marks: e.marks,
                    })
                    .collect()
            })
            .collect();
        t
    }

    /// True if edges leaving each state have pairwise disjoint labels and there is one initial state.
    pub fn is_deterministic(&self) -> bool {
        if self.init.len() > 1 {
            return false;
        }
        self.states.iter().all(|es| {
            let mut seen = self.ff();
            for e in es {
                if !seen.and(&e.label).is_false() {
                    return false;
                }
                seen = seen.or(&e.label);
            }
            true
        })
    }

    /// True if every state has a successor for every letter.
    pub fn is_complete(&self) -> bool {
        !self.init.is_empty()
            && self.states.iter().all(|es| {
                let mut u = self.ff();
                for e in es {
                    u = u.or(&e.label);
                }
                u.is_true()
            })
    }

    /// True if all edges leaving each state carry the same marks.
    pub fn compute_state_based(&self) -> bool {
        self.states
            .iter()
            .all(|es| es.windows(2).all(|w| w[0].marks == w[1].marks))
    }

    /// Adjacency as a CSR graph (edges with false labels are skipped).
    pub fn graph(&self) -> verikit_graph::Csr {
        let mut edges = Vec::with_capacity(self.num_edges());
        for (s, es) in self.states.iter().enumerate() {
            for e in es {
                if !e.label.is_false() {
                    edges.push((s as u32, e.dst));
                }
            }
        }
        verikit_graph::Csr::from_edges(self.states.len(), &edges)
    }
}

/// A structural isomorphism check (same sizes, a bijection of states mapping initial states and
/// edges with equivalent labels and equal marks), for HOA round trips. Exponential only in
/// pathological cases; it follows the edges from the initial states.
pub fn isomorphic(a: &Twa, b: &Twa) -> bool {
    if a.num_states() != b.num_states()
        || a.num_edges() != b.num_edges()
        || a.num_sets != b.num_sets
        || a.acc_false != b.acc_false
        || a.acc != b.acc
        || a.aps != b.aps
        || a.init.len() != b.init.len()
    {
        return false;
    }
    // With labels compared semantically and edge lists compared in order (writers keep order).
    let n = a.num_states();
    let mut map = vec![u32::MAX; n];
    let mut todo = Vec::new();
    for (&x, &y) in a.init.iter().zip(b.init.iter()) {
        if map[x as usize] == u32::MAX {
            map[x as usize] = y;
            todo.push(x);
        } else if map[x as usize] != y {
            return false;
        }
    }
    // States not reachable are mapped by index.
    while let Some(s) = todo.pop() {
        let t = map[s as usize];
        let (ea, eb) = (&a.states[s as usize], &b.states[t as usize]);
        if ea.len() != eb.len() {
            return false;
        }
        for (x, y) in ea.iter().zip(eb.iter()) {
            if x.marks != y.marks || !x.label.iff(&y.label).is_true() {
                return false;
            }
            if map[x.dst as usize] == u32::MAX {
                map[x.dst as usize] = y.dst;
                todo.push(x.dst);
            } else if map[x.dst as usize] != y.dst {
                return false;
            }
        }
    }
    true
}
