//! LTL → very weak alternating Büchi automaton (VWABA), the automaton class Heljanko et al.,
//! *Bounded model checking for weak alternating Büchi automata*, CAV'06 C12, encode: §2 (ABA,
//! runs as dags, WABA components, VWABA = singleton components) and §3's remark that "a linear
//! size translation from an LTL formula into a VWABA (a state acceptance based variant of [20],
//! Gastin–Oddoux)" makes the encoding as compact as the specialised LTL encodings.
//!
//! One state per temporal subformula that a transition can reach (`ψ₁ U ψ₂`, `ψ₁ R ψ₂`, and the
//! operand of `X`); δ is the one-step unfolding over positive Boolean formulas of literals and
//! states: `δ(ψ₁ U ψ₂) = ψ₂ ∨ (ψ₁ ∧ q)`, `δ(ψ₁ R ψ₂) = ψ₂ ∧ (ψ₁ ∨ q)` with `q` the state itself,
//! Boolean connectives and literals read at the current position, `X ψ` the state of `ψ`. A
//! state only refers to itself and to states of strict subformulas, so every component is one
//! state (very weak); the `R` states are the accepting ones (a run may stay in them forever, not
//! in a `U` state — the eventuality must be fulfilled).

use crate::ltl_formula::Ltl;
use std::collections::HashMap;

/// A positive Boolean formula over AIG literals (read at the current position) and automaton
/// states (read at the next position).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Pos {
    True,
    False,
    Lit(u32),
    State(usize),
    And(Vec<Pos>),
    Or(Vec<Pos>),
}

#[derive(Clone, Debug)]
pub(crate) struct State {
    pub(crate) delta: Pos,
    pub(crate) accepting: bool,
}

/// A VWABA: states in creation order, each referring only to itself and to earlier-created…
/// or later-created states of strict subformulas (components are singletons either way).
#[derive(Clone, Debug)]
pub(crate) struct Vwaba {
    pub(crate) states: Vec<State>,
    pub(crate) init: usize,
}

/// The VWABA accepting exactly the words satisfying `f`.
pub(crate) fn vwaba(f: &Ltl) -> Vwaba {
    let mut b = Builder {
        states: Vec::new(),
        index: HashMap::new(),
    };
    let init = b.state(f);
    Vwaba {
        states: b.states,
        init,
    }
}

struct Builder {
    states: Vec<State>,
    index: HashMap<Ltl, usize>,
}

impl Builder {
    fn state(&mut self, f: &Ltl) -> usize {
        if let Some(&q) = self.index.get(f) {
            return q;
        }
        let q = self.states.len();
        self.index.insert(f.clone(), q);
        self.states.push(State {
            delta: Pos::False,
            accepting: !matches!(f, Ltl::U(..)),
        });
        let d = self.delta(f, q);
        if let Some(s) = self.states.get_mut(q) {
            s.delta = d;
        }
        q
    }

    /// The one-step unfolding of `f`; `me` is the state of `f` itself when `f` is `U`/`R`.
    fn delta(&mut self, f: &Ltl, me: usize) -> Pos {
        match f {
            Ltl::True => Pos::True,
            Ltl::False => Pos::False,
            Ltl::Lit(l) => Pos::Lit(*l),
            Ltl::And(v) => Pos::And(v.iter().map(|g| self.tr(g)).collect()),
            Ltl::Or(v) => Pos::Or(v.iter().map(|g| self.tr(g)).collect()),
            Ltl::X(g) => Pos::State(self.state(g)),
            Ltl::U(a, b) => {
                let (a, b) = (self.tr(a), self.tr(b));
                Pos::Or(vec![b, Pos::And(vec![a, Pos::State(me)])])
            }
            Ltl::R(a, b) => {
                let (a, b) = (self.tr(a), self.tr(b));
                Pos::And(vec![b, Pos::Or(vec![a, Pos::State(me)])])
            }
        }
    }

    /// The unfolding of a subformula read at the current position.
    fn tr(&mut self, f: &Ltl) -> Pos {
        match f {
            Ltl::U(..) | Ltl::R(..) => {
                let q = self.state(f);
                self.states.get(q).map_or(Pos::False, |s| s.delta.clone())
            }
            _ => self.delta(f, usize::MAX),
        }
    }
}
