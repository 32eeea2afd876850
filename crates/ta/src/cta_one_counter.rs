//! The one-counter decision procedure for communicating timed automata with one channel.
//!
//! Seed: Krčál, Yi, "Communicating timed automata: the more synchronous, the more difficult"
//! (CAV 2006, C24), §3: Definition 2 (the *desynchronized concrete semantics*: the sender `A` and
//! the receiver `B` run on their own local times, `T` is how far `B` lags behind `A`; `B` moves
//! only while the channel holds at most one letter, reads only when `T ≤ 0`, and a run counts
//! when `T = 0` at its end), Lemma 1 (the states reachable with `T = 0` are the reachable states
//! of the synchronized semantics) and Theorem 1 (the system is a one-counter machine, so state
//! reachability is decidable). Once the channel holds two letters only `A` moves again (`B` is
//! frozen), so the channel needs no more than "empty / one letter / frozen" in the control state.
//!
//! The paper's symbolic semantics for dense time (regions with clock difference relations,
//! Tables 1–3, completed only in the full version) is replaced by **discrete time**, which is
//! exact here by digitization (Henzinger, Manna, Pnueli, "What good are digital clocks?",
//! ICALP 1992): when every guard is closed (`<=`, `==`, `>=`) and urgent reading never restricts
//! an `ε` move (no location of the receiver has both an `ε` edge and a receive edge), rounding
//! every time stamp of a dense run by the same threshold keeps each guard true, keeps the order of
//! events and hence the FIFO contents, so a location vector is reachable in dense time iff it is
//! reachable with integer delays. With integer time, clock values are kept up to one above their
//! largest constant and the lag `T` is an integer counter: the control states are finite and the
//! counter moves by `+1` (a time unit of `A`'s side: the sender and every process on no channel),
//! `−1` (a time unit of `B`) and is tested by `T ≤ 0` (a read). Models outside that class are not
//! decided here ([`not_applicable`] says why) and keep the bounded search and its
//! over-approximation. The dense-time case itself (strict guards, urgent reading restricting
//! `ε` moves) is the paper's desynchronized *symbolic* semantics (Definition 5: regions of both
//! sides, the relation `tA ⋈ tB`, desynchronized clock difference relations, Definition 3–4,
//! updated by Tables 1–3); the paper states Table 2 only in part ("complete table is given in the
//! full version") and proves Lemma 2 there, so the construction cannot be implemented from the
//! seed alone: such models are refused by name, citing the missing table.
//!
//! Reachability of (target, `T = 0`) in this one-counter machine is decided exactly by the
//! *post\** saturation of pushdown systems (Bouajjani, Esparza, Maler, CONCUR 1997; the algorithm
//! as in Schwoon's thesis, 2002, §3.3.3): the counter is a stack over `{+1, −1}` above a bottom
//! symbol, the control states are built as the saturation meets them. A reachable target is then
//! re-found by a breadth-first search over (control, counter) with a counter bound doubled until
//! it succeeds; that desynchronized run is put back in global-time order (the lemma's
//! reordering: events sorted by local time stamp, `A`'s first on ties) so that `replay_cta`
//! checks it on the synchronized semantics.

use crate::cta_parse::{Cta, CtaAction};
use crate::cta_reach::{cta_is_target, CtaStep};
use crate::model::Cmp;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;
use verikit_diag::{Budget, Exhausted};

/// The outcome of [`cta_one_counter`].
#[derive(Clone, Debug)]
pub struct OneCounterResult {
    /// `Some(b)`: decided; `None`: the budget ran out.
    pub reachable: Option<bool>,
    /// For a reachable target: the edges in global-time order (replayable by `replay_cta`).
    pub trace: Vec<CtaStep>,
    /// Control states of the one-counter machine met by the saturation.
    pub control_states: usize,
    /// Transitions of the saturated automaton.
    pub automaton_transitions: usize,
    /// Why the procedure stopped early.
    pub exhausted: Option<Exhausted>,
}

/// Why the procedure does not apply to `cta` (`None`: it applies): a topology other than one
/// channel, a strict guard (digitization needs closed guards), or a receiver location where urgent
/// reading could restrict an `ε` move.
pub fn not_applicable(cta: &Cta) -> Option<String> {
    let [ch] = cta.channels.as_slice() else {
        return Some("the one-counter procedure is for exactly one channel (§3)".into());
    };
    for p in &cta.processes {
        for e in &p.edges {
            if e.guard.iter().any(|a| matches!(a.cmp, Cmp::Lt | Cmp::Gt)) {
                let loc = |l: u32| p.locations.get(l as usize).map_or("?", String::as_str);
                return Some(format!(
                    "a strict guard on the edge {} -> {} of process `{}`: discrete time is exact only for closed guards; dense time needs the desynchronized symbolic semantics of §3 (Definition 5, regions with clock difference relations, Tables 1–3, the paper's Table 2 completed only in its full version), not implemented",
                    loc(e.src),
                    loc(e.tgt),
                    p.name
                ));
            }
        }
    }
    let b = cta.processes.get(ch.to)?;
    for (l, name) in b.locations.iter().enumerate() {
        let out = b.edges.iter().filter(|e| e.src as usize == l);
        let eps = out.clone().any(|e| e.action == CtaAction::Internal);
        let recv = out
            .clone()
            .any(|e| matches!(e.action, CtaAction::Receive { .. }));
        if eps && recv {
            return Some(format!(
                "location `{name}` of the receiver `{}` has an eps edge and a receive edge: urgent reading applies, which discrete time does not preserve; dense time needs Table 2's urgent eps rule of §3 (Definition 5), given only partly in the paper, not implemented",
                b.name
            ));
        }
    }
    None
}

/// The channel in the desynchronized semantics: `B` moves only while it holds at most one letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Chan {
    Empty,
    One(u32),
    /// Two or more letters: `B` never moves again.
    Frozen,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Ctl {
    locs: Vec<u32>,
    /// Clock values, capped at one above the clock's largest constant.
    vals: Vec<u32>,
    chan: Chan,
}

/// What a move does to the lag counter `T`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Keep,
    Inc,
    Dec,
    /// Keep, allowed only when `T ≤ 0` (a read).
    NonPos,
}

/// A move of the one-counter machine: `None` step = a time unit.
#[derive(Clone, Copy, Debug)]
struct Move {
    step: Option<CtaStep>,
    op: Op,
    /// Whether `A`'s side moves (the time stamp that orders it is `A`'s local time).
    side_a: bool,
}

struct Machine<'a> {
    cta: &'a Cta,
    receiver: usize,
    caps: Vec<u32>,
    ids: FxHashMap<Ctl, u32>,
    ctls: Vec<Ctl>,
    succ: Vec<Option<Vec<(Move, u32)>>>,
}

impl<'a> Machine<'a> {
    fn new(cta: &'a Cta, receiver: usize) -> Self {
        let mut caps = vec![0u32; cta.clocks.len()];
        for p in &cta.processes {
            for e in &p.edges {
                for a in &e.guard {
                    if let Some(c) = caps.get_mut(a.clock) {
                        *c = (*c).max(u32::try_from(a.value).unwrap_or(0));
                    }
                }
            }
        }
        for c in &mut caps {
            *c = c.saturating_add(1);
        }
        Machine {
            cta,
            receiver,
            caps,
            ids: FxHashMap::default(),
            ctls: Vec::new(),
            succ: Vec::new(),
        }
    }

    fn intern(&mut self, c: Ctl) -> u32 {
        if let Some(&i) = self.ids.get(&c) {
            return i;
        }
        let i = self.ctls.len() as u32;
        self.ids.insert(c.clone(), i);
        self.ctls.push(c);
        self.succ.push(None);
        i
    }

    fn initial(&mut self) -> u32 {
        let c = Ctl {
            locs: self.cta.processes.iter().map(|p| p.initial).collect(),
            vals: vec![0; self.cta.clocks.len()],
            chan: Chan::Empty,
        };
        self.intern(c)
    }

    fn is_target(&self, c: u32, labels: &[u32]) -> bool {
        self.ctls
            .get(c as usize)
            .is_some_and(|c| cta_is_target(self.cta, &c.locs, labels))
    }

    /// The moves of control state `c` (computed once).
    fn successors(&mut self, c: u32) -> Vec<(Move, u32)> {
        if let Some(Some(s)) = self.succ.get(c as usize) {
            return s.clone();
        }
        let Some(ctl) = self.ctls.get(c as usize).cloned() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let cta = self.cta;
        // a time unit of either side (B only while it is not frozen)
        for side_a in [true, false] {
            if !side_a && ctl.chan == Chan::Frozen {
                continue;
            }
            let mut n = ctl.clone();
            for (k, (_, owner)) in cta.clocks.iter().enumerate() {
                if (*owner == self.receiver) != side_a {
                    if let (Some(v), Some(&cap)) = (n.vals.get_mut(k), self.caps.get(k)) {
                        *v = (*v + 1).min(cap);
                    }
                }
            }
            let op = if side_a { Op::Inc } else { Op::Dec };
            let id = self.intern(n);
            out.push((
                Move {
                    step: None,
                    op,
                    side_a,
                },
                id,
            ));
        }
        for (pi, p) in cta.processes.iter().enumerate() {
            let side_a = pi != self.receiver;
            if !side_a && ctl.chan == Chan::Frozen {
                continue;
            }
            let Some(&at) = ctl.locs.get(pi) else {
                continue;
            };
            for (ei, e) in p.edges.iter().enumerate() {
                if e.src != at || !self.guard_holds(&ctl.vals, &e.guard) {
                    continue;
                }
                let (chan, op) = match e.action {
                    CtaAction::Internal => (ctl.chan, Op::Keep),
                    CtaAction::Send { letter, .. } => match ctl.chan {
                        Chan::Empty => (Chan::One(letter), Op::Keep),
                        _ => (Chan::Frozen, Op::Keep),
                    },
                    CtaAction::Receive { letter, .. } => match ctl.chan {
                        Chan::One(a) if a == letter => (Chan::Empty, Op::NonPos),
                        _ => continue,
                    },
                };
                let mut n = ctl.clone();
                n.chan = chan;
                if let Some(l) = n.locs.get_mut(pi) {
                    *l = e.tgt;
                }
                for &x in &e.resets {
                    if let Some(v) = n.vals.get_mut(x) {
                        *v = 0;
                    }
                }
                let id = self.intern(n);
                out.push((
                    Move {
                        step: Some(CtaStep {
                            process: pi,
                            edge: ei,
                        }),
                        op,
                        side_a,
                    },
                    id,
                ));
            }
        }
        if let Some(s) = self.succ.get_mut(c as usize) {
            *s = Some(out.clone());
        }
        out
    }

    fn guard_holds(&self, vals: &[u32], guard: &[crate::cta_parse::CtaAtom]) -> bool {
        guard.iter().all(|a| {
            let Some(&v) = vals.get(a.clock) else {
                return false;
            };
            let v = i64::from(v);
            let c = i64::from(a.value);
            match a.cmp {
                Cmp::Lt => v < c,
                Cmp::Le => v <= c,
                Cmp::Eq => v == c,
                Cmp::Ge => v >= c,
                Cmp::Gt => v > c,
            }
        })
    }
}

/// Stack symbols of the counter: bottom, one unit above zero, one unit below zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Sym {
    Bot,
    Pos,
    Neg,
}

/// The pushdown rules of one counter operation on top symbol `g`: `None` = the move is disabled,
/// `Some(vec![])` = pop, `Some([g1])` = replace, `Some([g1, g2])` = push `g1` above `g2`.
fn rule(op: Op, g: Sym) -> Option<Vec<Sym>> {
    Some(match (op, g) {
        (Op::Keep, g) => vec![g],
        (Op::NonPos, Sym::Pos) => return None,
        (Op::NonPos, g) => vec![g],
        (Op::Inc, Sym::Neg) | (Op::Dec, Sym::Pos) => vec![],
        (Op::Inc, g) => vec![Sym::Pos, g],
        (Op::Dec, g) => vec![Sym::Neg, g],
    })
}

/// States of the saturated automaton: control states of the machine, the final state, and one
/// intermediate state per (control state, pushed symbol).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum AState {
    Ctl(u32),
    Final,
    Mid(u32, Sym),
}

/// Decides whether a state carrying all `labels` is reachable, for a model accepted by
/// [`not_applicable`] (otherwise `reachable` is `Some(false)` only if it truly is — callers must
/// check applicability first).
pub fn cta_one_counter(cta: &Cta, labels: &[u32], budget: &Budget) -> OneCounterResult {
    let receiver = cta.channels.first().map_or(usize::MAX, |c| c.to);
    let mut m = Machine::new(cta, receiver);
    let init = m.initial();
    let mut res = OneCounterResult {
        reachable: None,
        trace: Vec::new(),
        control_states: 0,
        automaton_transitions: 0,
        exhausted: None,
    };
    // post* saturation (Schwoon 2002, Algorithm 2)
    type T = (AState, Option<Sym>, AState);
    let mut rel: FxHashSet<T> = FxHashSet::default();
    let mut out_of: FxHashMap<AState, Vec<(Option<Sym>, AState)>> = FxHashMap::default();
    let mut eps_into: FxHashMap<AState, Vec<AState>> = FxHashMap::default();
    let mut work: VecDeque<T> = VecDeque::new();
    work.push_back((AState::Ctl(init), Some(Sym::Bot), AState::Final));
    let mut ticker = budget.ticker(256);
    let mut found = false;
    let add_rel = |t: T,
                   rel: &mut FxHashSet<T>,
                   out_of: &mut FxHashMap<AState, Vec<(Option<Sym>, AState)>>,
                   eps_into: &mut FxHashMap<AState, Vec<AState>>|
     -> bool {
        if !rel.insert(t) {
            return false;
        }
        out_of.entry(t.0).or_default().push((t.1, t.2));
        if t.1.is_none() {
            eps_into.entry(t.2).or_default().push(t.0);
        }
        true
    };
    while let Some(t) = work.pop_front() {
        if let Err(e) = ticker.tick() {
            res.exhausted = Some(e);
            res.control_states = m.ctls.len();
            res.automaton_transitions = rel.len();
            return res;
        }
        if rel.contains(&t) {
            continue;
        }
        add_rel(t, &mut rel, &mut out_of, &mut eps_into);
        let (p, g, q) = t;
        let AState::Ctl(pc) = p else {
            continue;
        };
        match g {
            Some(g) => {
                if g == Sym::Bot && q == AState::Final && m.is_target(pc, labels) {
                    found = true;
                    break;
                }
                for (mv, p2) in m.successors(pc) {
                    let Some(w) = rule(mv.op, g) else {
                        continue;
                    };
                    match w.as_slice() {
                        [] => work.push_back((AState::Ctl(p2), None, q)),
                        [g1] => work.push_back((AState::Ctl(p2), Some(*g1), q)),
                        [g1, g2] => {
                            let mid = AState::Mid(p2, *g1);
                            work.push_back((AState::Ctl(p2), Some(*g1), mid));
                            if add_rel((mid, Some(*g2), q), &mut rel, &mut out_of, &mut eps_into) {
                                for &p3 in eps_into.get(&mid).map_or(&[][..], Vec::as_slice) {
                                    work.push_back((p3, Some(*g2), q));
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            None => {
                for &(g2, q2) in out_of.get(&q).map_or(&[][..], Vec::as_slice) {
                    work.push_back((p, g2, q2));
                }
            }
        }
    }
    res.control_states = m.ctls.len();
    res.automaton_transitions = rel.len();
    if !found {
        res.reachable = Some(false);
        return res;
    }
    match witness(&mut m, init, labels, budget) {
        Ok(trace) => {
            res.reachable = Some(true);
            res.trace = trace;
        }
        Err(e) => res.exhausted = Some(e),
    }
    res
}

/// A run to (target, `T = 0`): breadth-first over (control, counter) with `|counter| ≤ bound`,
/// the bound doubled until a run is found (one exists: the saturation said so), then reordered by
/// local time stamps into the synchronized semantics.
fn witness(
    m: &mut Machine<'_>,
    init: u32,
    labels: &[u32],
    budget: &Budget,
) -> Result<Vec<CtaStep>, Exhausted> {
    let mut bound: i64 = 4;
    let mut ticker = budget.ticker(256);
    loop {
        let mut parent: FxHashMap<(u32, i64), ((u32, i64), Move)> = FxHashMap::default();
        let mut queue = VecDeque::from([(init, 0i64)]);
        let mut seen: FxHashSet<(u32, i64)> = FxHashSet::from_iter([(init, 0)]);
        while let Some((c, n)) = queue.pop_front() {
            ticker.tick()?;
            if n == 0 && m.is_target(c, labels) {
                let mut moves = Vec::new();
                let mut at = (c, n);
                while let Some(&(prev, mv)) = parent.get(&at) {
                    moves.push(mv);
                    at = prev;
                }
                moves.reverse();
                return Ok(reorder(&moves));
            }
            for (mv, c2) in m.successors(c) {
                let n2 = match mv.op {
                    Op::Keep => n,
                    Op::NonPos if n <= 0 => n,
                    Op::NonPos => continue,
                    Op::Inc => n + 1,
                    Op::Dec => n - 1,
                };
                if n2.abs() > bound || !seen.insert((c2, n2)) {
                    continue;
                }
                parent.insert((c2, n2), ((c, n), mv));
                queue.push_back((c2, n2));
            }
        }
        bound = bound.saturating_mul(2);
    }
}

/// The desynchronized run's edges in global-time order: each edge is stamped with its side's
/// local time; sorted by stamp, `A`'s side first on equal stamps, each side in its own order.
fn reorder(moves: &[Move]) -> Vec<CtaStep> {
    let (mut ta, mut tb) = (0u64, 0u64);
    let mut stamped = Vec::new();
    for (k, mv) in moves.iter().enumerate() {
        let t = if mv.side_a { &mut ta } else { &mut tb };
        match mv.step {
            None => *t += 1,
            Some(s) => stamped.push((*t, !mv.side_a, k, s)),
        }
    }
    stamped.sort_by_key(|&(t, b, k, _)| (t, b, k));
    stamped.into_iter().map(|(_, _, _, s)| s).collect()
}
