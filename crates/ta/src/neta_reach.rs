//! Reachability for nested timed automata with invariants: zones over the clocks of every stack
//! frame, with frozen frames stopped during delays, explored up to a stack bound.
//!
//! Seed: Wang, Li, Yuen, "Nested timed automata with invariants" (SETTA 2017, S05): §3
//! Definition 4 (configurations `(⟨q, ν, μ⟩, v)`; progress lets the working clocks, the global
//! clocks and the clocks of *pushed* frames advance while *F-pushed* frames stay frozen; every
//! configuration must satisfy the current location's local and global invariants and the stack
//! must be good, `v⇑`: each frame's clocks satisfy its location's local invariant); the
//! decidability picture of §1, §4 Theorem 1 (one global clock with invariants: undecidable) and §6
//! (no global clocks: decidable, by the encoding into constraint DTPDAs of §5).
//!
//! What is implemented: the semantics of Definition 4 on symbolic states `(working automaton and
//! location, stack of (location, push/F-push), zone)`, the zone ranging over the global clocks
//! and the local clocks of every frame (working frame last). A delay frees the upper bounds of
//! the running clocks against the stopped ones (`Dbm::up_some`), then intersects every invariant
//! in force — the current location's and every stacked frame's local invariant, which is how
//! `v⇑` constrains time. Push appends a block of clocks at 0, pop projects the working block away.
//! Covering by zone inclusion; ExtraM with one maximal constant for all clocks only in models
//! without F-push (then all clocks advance together and value passing keeps region equivalence);
//! with F-push no abstraction is applied (stopped clocks break region equivalence), so the search
//! may not terminate and is cut by the stack bound and the budget. The stack is explored up to
//! `stack_bound` frames: a target found is reachable (witness replayed by `neta_replay`); an
//! exhausted search that never met the bound is unreachable; otherwise `unknown`. The paper's
//! decision procedure for the decidable class (digiwords and snapshot pushdown systems, §5–§6,
//! a well-structured pushdown system) is not implemented.

use crate::dbm::{le, lt, Dbm};
use crate::extra_m::extra_m;
use crate::model::Cmp;
use crate::neta_parse::{Neta, NetaAtom, NetaClock, NetaOp};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use verikit_diag::{Budget, Diagnostic, Exhausted};

/// The paper's decidability class of a NeTA-I.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetaClass {
    /// No global clocks: decidable (§6).
    NoGlobalClocks,
    /// One global clock and no invariants: decidable (NeTAs, [5] in §1).
    OneGlobalNoInvariants,
    /// One global clock and invariants: undecidable (§4, Theorem 1).
    OneGlobalWithInvariants,
    /// Two or more global clocks: undecidable ([5] in §1, and Remark 2).
    ManyGlobals,
}

impl NetaClass {
    /// Classifies a model.
    pub fn of(n: &Neta) -> NetaClass {
        match (n.globals.len(), n.has_invariants()) {
            (0, _) => NetaClass::NoGlobalClocks,
            (1, false) => NetaClass::OneGlobalNoInvariants,
            (1, true) => NetaClass::OneGlobalWithInvariants,
            _ => NetaClass::ManyGlobals,
        }
    }

    /// Whether the paper (or the work it cites) decides reachability for the class.
    pub fn decidable(self) -> bool {
        matches!(
            self,
            NetaClass::NoGlobalClocks | NetaClass::OneGlobalNoInvariants
        )
    }

    /// Where the paper settles it.
    pub fn reason(self) -> &'static str {
        match self {
            NetaClass::NoGlobalClocks => {
                "no global clocks: decidable (Wang–Li–Yuen SETTA'17 §6, via constraint DTPDAs §5)"
            }
            NetaClass::OneGlobalNoInvariants => {
                "one global clock, no invariants: decidable (NeTAs, [5] cited in Wang–Li–Yuen §1)"
            }
            NetaClass::OneGlobalWithInvariants => {
                "one global clock with invariants: undecidable (Wang–Li–Yuen SETTA'17 §4, Theorem 1)"
            }
            NetaClass::ManyGlobals => {
                "two or more global clocks: undecidable ([5] cited in Wang–Li–Yuen §1 and Remark 2)"
            }
        }
    }
}

/// Options of [`neta_reach`].
#[derive(Clone, Copy, Debug)]
pub struct NetaOptions {
    /// Deepest stack explored.
    pub stack_bound: usize,
}

impl Default for NetaOptions {
    fn default() -> Self {
        NetaOptions { stack_bound: 8 }
    }
}

/// The result of [`neta_reach`].
#[derive(Clone, Debug)]
pub struct NetaResult {
    /// Decidability class.
    pub class: NetaClass,
    /// `Some(true)` reachable (with `trace`), `Some(false)` unreachable, `None` unknown.
    pub reachable: Option<bool>,
    /// Rule indices (into [`Neta::edges`]) from the initial configuration to a target.
    pub trace: Vec<usize>,
    /// Symbolic states stored.
    pub states: usize,
    /// Successors computed.
    pub transitions: usize,
    /// Deepest stack met.
    pub max_depth: usize,
    /// Whether a push was cut at the stack bound.
    pub bound_hit: bool,
    /// Why the search stopped early.
    pub exhausted: Option<Exhausted>,
}

/// A frame on the stack: automaton, location, proceeding (push) or frozen (F-push).
pub(crate) type Frame = (usize, u32, bool);

/// DBM index of a clock in frame `frame` (globals do not depend on it).
pub(crate) fn index(n: &Neta, c: NetaClock, frame: usize) -> usize {
    match c {
        NetaClock::Global(g) => 1 + g,
        NetaClock::Local(x) => 1 + n.globals.len() + frame * n.locals.len() + x,
    }
}

/// Intersects `z` with atom `a` read on DBM index `i`; false when empty.
pub(crate) fn constrain(z: &mut Dbm, i: usize, a: &NetaAtom) -> bool {
    let v = a.value;
    match a.cmp {
        Cmp::Lt => z.constrain(i, 0, lt(v)),
        Cmp::Le => z.constrain(i, 0, le(v)),
        Cmp::Eq => z.constrain(i, 0, le(v)) && z.constrain(0, i, le(-v)),
        Cmp::Ge => z.constrain(0, i, le(-v)),
        Cmp::Gt => z.constrain(0, i, lt(-v)),
    }
}

/// Intersects every invariant in force; false when empty.
fn invariants(n: &Neta, cur: (usize, u32), stack: &[Frame], z: &mut Dbm) -> bool {
    let loc = |a: usize, q: u32| n.automata.get(a).and_then(|x| x.locations.get(q as usize));
    let depth = stack.len();
    if let Some(l) = loc(cur.0, cur.1) {
        for a in l.local_inv.iter().chain(&l.global_inv) {
            if !constrain(z, index(n, a.clock, depth), a) {
                return false;
            }
        }
    }
    for (f, &(a, q, _)) in stack.iter().enumerate() {
        if let Some(l) = loc(a, q) {
            for at in &l.local_inv {
                if !constrain(z, index(n, at.clock, f), at) {
                    return false;
                }
            }
        }
    }
    true
}

/// Progress transition: the running clocks advance, then the invariants cut the delays.
fn delay(n: &Neta, cur: (usize, u32), stack: &[Frame], z: &mut Dbm) -> bool {
    let k = n.locals.len();
    let mut running = vec![true; z.dim()];
    for (f, &(_, _, proceeding)) in stack.iter().enumerate() {
        for x in 0..k {
            if let Some(r) = running.get_mut(index(n, NetaClock::Local(x), f)) {
                *r = proceeding;
            }
        }
    }
    z.up_some(&running);
    invariants(n, cur, stack, z)
}

/// Labels → indices.
pub fn resolve_neta_labels(n: &Neta, names: &[String]) -> Result<Vec<u32>, Diagnostic> {
    names
        .iter()
        .map(|s| {
            n.labels
                .iter()
                .position(|l| l == s)
                .map(|i| i as u32)
                .ok_or_else(|| Diagnostic::error(format!("unknown label `{s}`")))
        })
        .collect()
}

pub(crate) fn neta_is_target(n: &Neta, cur: (usize, u32), labels: &[u32]) -> bool {
    let Some(l) = n.location(cur.0, cur.1) else {
        return false;
    };
    !labels.is_empty() && labels.iter().all(|x| l.labels.contains(x))
}

struct Node {
    cur: (usize, u32),
    stack: Vec<Frame>,
    zone: Dbm,
    parent: Option<(usize, usize)>,
}

enum Step {
    Next((usize, u32), Vec<Frame>, Dbm),
    Cut,
    None,
}

fn successor(n: &Neta, node: &Node, e: usize, bound: usize) -> Step {
    let Some(edge) = n.edges.get(e) else {
        return Step::None;
    };
    if (edge.aut, edge.src) != node.cur {
        return Step::None;
    }
    let k = n.locals.len();
    let mut z = node.zone.clone();
    let mut stack = node.stack.clone();
    let depth = stack.len();
    for op in &edge.ops {
        match *op {
            NetaOp::Test(a) => {
                if !constrain(&mut z, index(n, a.clock, depth), &a) {
                    return Step::None;
                }
            }
            NetaOp::Reset(c) => z.reset(index(n, c, depth), 0),
            NetaOp::Copy { dst, src } => z.copy(index(n, dst, depth), index(n, src, depth)),
            NetaOp::Push | NetaOp::FPush => {
                if depth >= bound {
                    return Step::Cut;
                }
                stack.push((node.cur.0, node.cur.1, *op == NetaOp::Push));
                z = z.extend_zero(k);
            }
            NetaOp::Pop => {
                match stack.pop() {
                    Some((a, q, _)) if (a, q) == (edge.tgt_aut, edge.tgt) => {}
                    _ => return Step::None,
                }
                z = z.truncate(z.dim().saturating_sub(k));
            }
        }
    }
    let cur = (edge.tgt_aut, edge.tgt);
    if !invariants(n, cur, &stack, &mut z) || !delay(n, cur, &stack, &mut z) {
        return Step::None;
    }
    Step::Next(cur, stack, z)
}

/// Is a configuration whose working location carries all `labels` reachable? (Breadth-first up
/// to the stack bound; see the module documentation for when the answer is exact.)
pub fn neta_reach(n: &Neta, labels: &[u32], opts: &NetaOptions, budget: &Budget) -> NetaResult {
    let class = NetaClass::of(n);
    let mut res = NetaResult {
        class,
        reachable: None,
        trace: Vec::new(),
        states: 0,
        transitions: 0,
        max_depth: 0,
        bound_hit: false,
        exhausted: None,
    };
    let frozen_possible = n.edges.iter().any(|e| e.ops.contains(&NetaOp::FPush));
    let big = n.max_constant();
    let abstract_ = |z: &mut Dbm| {
        if !frozen_possible {
            let m = vec![big; z.dim()];
            extra_m(z, &m);
        }
    };
    let Some(a0) = n.automata.first() else {
        res.reachable = Some(false);
        return res;
    };
    let cur = (0, a0.initial);
    let mut z = Dbm::zero(1 + n.globals.len() + n.locals.len());
    if !invariants(n, cur, &[], &mut z) || !delay(n, cur, &[], &mut z) {
        res.reachable = Some(false);
        return res;
    }
    abstract_(&mut z);
    let mut nodes = vec![Node {
        cur,
        stack: Vec::new(),
        zone: z,
        parent: None,
    }];
    // Discrete part (working automaton and location, the stack) → the nodes with that part.
    let mut passed: FxHashMap<StackKey, Vec<usize>> = FxHashMap::default();
    passed.insert((cur, Vec::new()), vec![0]);
    let mut waiting = VecDeque::from([0usize]);
    let mut found = neta_is_target(n, cur, labels).then_some(0);
    'search: while found.is_none() {
        let Some(id) = waiting.pop_front() else { break };
        // counted work (one unit per expanded node): a work limit bounds searches that have
        // no abstraction (F-push) as well as the deadline does
        if let Err(e) = budget.spend(1) {
            res.exhausted = Some(e);
            break;
        }
        for e in 0..n.edges.len() {
            let Some(node) = nodes.get(id) else { break };
            let (cur, stack, mut z) = match successor(n, node, e, opts.stack_bound) {
                Step::Next(c, s, z) => (c, s, z),
                Step::Cut => {
                    res.bound_hit = true;
                    continue;
                }
                Step::None => continue,
            };
            res.transitions += 1;
            abstract_(&mut z);
            res.max_depth = res.max_depth.max(stack.len());
            let slot = passed.entry((cur, stack.clone())).or_default();
            if slot
                .iter()
                .any(|&o| nodes.get(o).is_some_and(|o| z.is_subset(&o.zone)))
            {
                continue;
            }
            let new = nodes.len();
            slot.push(new);
            nodes.push(Node {
                cur,
                stack,
                zone: z,
                parent: Some((id, e)),
            });
            waiting.push_back(new);
            if neta_is_target(n, cur, labels) {
                found = Some(new);
                break 'search;
            }
        }
    }
    res.states = nodes.len();
    if let Some(mut id) = found {
        while let Some((p, e)) = nodes.get(id).and_then(|x| x.parent) {
            res.trace.push(e);
            id = p;
        }
        res.trace.reverse();
        res.reachable = Some(true);
    } else if res.exhausted.is_none() && !res.bound_hit {
        res.reachable = Some(false);
    }
    res
}

/// The discrete part of a configuration: the working (automaton, location) and the stack.
type StackKey = ((usize, u32), Vec<Frame>);
