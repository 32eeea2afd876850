//! Reachability for communicating timed automata: the zone graph of the synchronized semantics
//! with channel contents in the discrete state.
//!
//! Seed: Krčál, Yi, "Communicating timed automata: the more synchronous, the more difficult"
//! (CAV 2006, C24), §2 Definition 1 (synchronized semantics: one global time, a send appends to
//! the channel, a receive takes the head letter, and reading is *urgent* — an `ε` move is
//! disallowed in the valuations where a receive of the head letter of an incoming channel is
//! enabled) and §3 Theorem 1 (reachability is decidable for the one-channel topology).
//!
//! What is implemented: the topology check of `cta_topology` first (undecidable and unclassified
//! topologies are refused, located at their channels); then a breadth-first search of symbolic
//! states `(locations, channel words, zone)` with zones extrapolated by ExtraM (no diagonal
//! guards, so the abstraction is sound for reachability) and covering by zone inclusion; urgent
//! reading subtracts the guards of the enabled receives from an `ε` move's zone (a federation, one
//! successor per piece). Channel words are kept up to `channel_bound` letters. The answer is
//! exact when no channel reached the bound (then every reachable channel content was explored and
//! the maximal length is the channel bound of the system); otherwise an unreached target is
//! answered `unknown`. The one-counter machine that §3 builds for Theorem 1 (desynchronized
//! symbolic semantics with clock difference relations, Tables 1–3, completed only in the full
//! version [KY06]) is not implemented: unbounded channels are not decided.

use crate::cta_parse::{Cta, CtaAction, CtaAtom};
use crate::cta_topology::{classify_topology, Topology};
use crate::dbm::{le, lt, Dbm};
use crate::extra_m::extra_m;
use crate::federation::Federation;
use crate::lu_bounds::NO_BOUND;
use crate::model::Cmp;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use verikit_diag::{Budget, Diagnostic, Exhausted};

/// Options of [`cta_reach`].
#[derive(Clone, Copy, Debug)]
pub struct CtaOptions {
    /// Longest channel content explored.
    pub channel_bound: usize,
}

impl Default for CtaOptions {
    fn default() -> Self {
        CtaOptions { channel_bound: 16 }
    }
}

/// One discrete step of a symbolic trace: edge `edge` of process `process`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CtaStep {
    /// Process index.
    pub process: usize,
    /// Edge index within the process.
    pub edge: usize,
}

/// The result of [`cta_reach`].
#[derive(Clone, Debug)]
pub struct CtaResult {
    /// The communication graph's class.
    pub topology: Topology,
    /// `Some(true)` reachable (with `trace`), `Some(false)` unreachable (exhaustive), `None`
    /// unknown (channel bound reached or budget exhausted).
    pub reachable: Option<bool>,
    /// Edges from the initial state to a target state.
    pub trace: Vec<CtaStep>,
    /// Symbolic states stored.
    pub states: usize,
    /// Successors computed.
    pub transitions: usize,
    /// Longest channel content met.
    pub max_channel: usize,
    /// Whether a send was cut at the channel bound.
    pub bound_hit: bool,
    /// Why the search stopped early.
    pub exhausted: Option<Exhausted>,
}

/// Label names → indices (unknown names are an error).
pub fn resolve_cta_labels(cta: &Cta, names: &[String]) -> Result<Vec<u32>, Diagnostic> {
    names
        .iter()
        .map(|n| {
            cta.labels
                .iter()
                .position(|l| l == n)
                .map(|i| i as u32)
                .ok_or_else(|| Diagnostic::error(format!("unknown label `{n}`")))
        })
        .collect()
}

/// Whether the locations carry all the labels.
pub(crate) fn cta_is_target(cta: &Cta, locs: &[u32], labels: &[u32]) -> bool {
    !labels.is_empty()
        && labels.iter().all(|l| {
            cta.processes.iter().zip(locs).any(|(p, &q)| {
                p.location_labels
                    .get(q as usize)
                    .is_some_and(|ls| ls.contains(l))
            })
        })
}

/// The zone of a guard (universe constrained), DBM index = clock + 1.
pub(crate) fn guard_zone(dim: usize, guard: &[CtaAtom]) -> Dbm {
    let mut z = Dbm::universe(dim);
    for a in guard {
        if !constrain_atom(&mut z, a) {
            break;
        }
    }
    z
}

/// Intersects `z` with one atom; false when empty.
pub(crate) fn constrain_atom(z: &mut Dbm, a: &CtaAtom) -> bool {
    let x = a.clock + 1;
    let v = a.value;
    match a.cmp {
        Cmp::Lt => z.constrain(x, 0, lt(v)),
        Cmp::Le => z.constrain(x, 0, le(v)),
        Cmp::Eq => z.constrain(x, 0, le(v)) && z.constrain(0, x, le(-v)),
        Cmp::Ge => z.constrain(0, x, le(-v)),
        Cmp::Gt => z.constrain(0, x, lt(-v)),
    }
}

/// How channel contents are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Channels {
    /// Exactly, up to this many letters (a longer content cuts the search: `bound_hit`).
    Bounded(usize),
    /// The first `k` letters exactly, the rest summarised by the set of letters it may contain
    /// (`tails`, a bit per letter): every content `w·u` with `u` over the set is represented, so
    /// the search over-approximates the reachable states and is finite.
    Summarised(usize),
}

/// Channel contents: the exact prefix of each channel and the letters its summarised tail may
/// hold (0: no tail).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Contents {
    words: Vec<Vec<u32>>,
    tails: Vec<u64>,
}

/// The valuations of `z` from which edge `e` of process `p` may fire on channel contents `chans`
/// (empty when the channel action is impossible), and the channels after it, kept as `mode`
/// says. With a summarised tail: a send goes to the tail
/// once there is one (or the prefix is full), a receive on an empty prefix takes any letter of the
/// tail (which may or may not be empty afterwards), and urgent reading only constrains `ε` moves
/// when the head letter is known (the prefix is not empty).
fn fire_on(
    cta: &Cta,
    p: usize,
    e: usize,
    locs: &[u32],
    chans: &Contents,
    mode: Channels,
    z: &Dbm,
) -> Option<(Federation, Contents)> {
    let proc_ = cta.processes.get(p)?;
    let edge = proc_.edges.get(e)?;
    if locs.get(p) != Some(&edge.src) {
        return None;
    }
    let mut g = z.clone();
    for a in &edge.guard {
        if !constrain_atom(&mut g, a) {
            return None;
        }
    }
    let mut chans = chans.clone();
    let fed = match edge.action {
        CtaAction::Send { channel, letter } => {
            let w = chans.words.get_mut(channel)?;
            let tail = chans.tails.get_mut(channel)?;
            match mode {
                Channels::Summarised(k) if *tail != 0 || w.len() >= k => {
                    *tail |= 1u64.checked_shl(letter)?;
                }
                _ => w.push(letter),
            }
            Federation::from_zone(g)
        }
        CtaAction::Receive { channel, letter } => {
            let w = chans.words.get_mut(channel)?;
            let tail = chans.tails.get(channel)?;
            if w.is_empty() {
                if tail & 1u64.checked_shl(letter)? == 0 {
                    return None;
                }
            } else if w.first() != Some(&letter) {
                return None;
            } else {
                w.remove(0);
            }
            Federation::from_zone(g)
        }
        CtaAction::Internal => {
            // urgent reading (Definition 1): no ε while a receive of a head letter is enabled
            let mut fed = Federation::from_zone(g);
            for other in &proc_.edges {
                if other.src != edge.src {
                    continue;
                }
                if let CtaAction::Receive { channel, letter } = other.action {
                    if chans.words.get(channel).and_then(|w| w.first()) == Some(&letter) {
                        fed = fed.subtract_zone(&guard_zone(z.dim(), &other.guard));
                    }
                }
            }
            fed
        }
    };
    if fed.is_empty() {
        return None;
    }
    Some((fed, chans))
}

/// Resets, then lets time pass (no invariants in CTA).
pub(crate) fn after(cta: &Cta, p: usize, e: usize, z: &mut Dbm) {
    if let Some(edge) = cta.processes.get(p).and_then(|q| q.edges.get(e)) {
        for &x in &edge.resets {
            z.reset(x + 1, 0);
        }
    }
    z.up();
}

/// Refuses topologies whose reachability is undecidable or unclassified, located at the channels.
pub fn check_topology(cta: &Cta) -> Result<Topology, Diagnostic> {
    let (t, witness) = classify_topology(cta);
    if t.decidable() == Some(true) {
        return Ok(t);
    }
    let names: Vec<&str> = witness
        .iter()
        .filter_map(|&c| cta.channels.get(c).map(|c| c.name.as_str()))
        .collect();
    let verdict = match t.decidable() {
        Some(false) => "reachability is undecidable",
        _ => "reachability is not decided",
    };
    let mut d = Diagnostic::error(format!(
        "channel topology `{}` (channels {}): {verdict} — {}; refused",
        t.name(),
        names.join(", "),
        t.reason()
    ));
    if let Some(ch) = witness.first().and_then(|&c| cta.channels.get(c)) {
        d = d.with_span(ch.span, "this channel");
    }
    for ch in witness.iter().skip(1).filter_map(|&c| cta.channels.get(c)) {
        d = d.with_note(format!(
            "with channel `{}` from `{}` to `{}`",
            ch.name,
            cta.processes.get(ch.from).map_or("?", |p| p.name.as_str()),
            cta.processes.get(ch.to).map_or("?", |p| p.name.as_str())
        ));
    }
    Err(d)
}

struct Node {
    locs: Vec<u32>,
    chans: Contents,
    zone: Dbm,
    parent: Option<(usize, CtaStep)>,
}

/// Is a state whose locations carry all `labels` reachable? (Breadth-first; see the module
/// documentation for when the answer is exact.)
pub fn cta_reach(
    cta: &Cta,
    labels: &[u32],
    opts: &CtaOptions,
    budget: &Budget,
) -> Result<CtaResult, Diagnostic> {
    search(cta, labels, Channels::Bounded(opts.channel_bound), budget)
}

/// Is the target unreachable even when each channel keeps only its first `k` letters exactly and
/// the rest as a set of letters? `Some(true)`: then it is unreachable in the CTA (the search
/// over-approximates every run, whatever the channels' lengths, and is exhaustive); `Some(false)`:
/// reachable in the over-approximation (perhaps spuriously); `None`: the budget ran out or the
/// alphabet has more than 64 letters.
pub fn cta_unreachable_summarised(
    cta: &Cta,
    labels: &[u32],
    k: usize,
    budget: &Budget,
) -> Result<Option<bool>, Diagnostic> {
    if cta.letters.len() > 64 {
        return Ok(None);
    }
    let r = search(cta, labels, Channels::Summarised(k), budget)?;
    Ok(r.reachable.map(|found| !found))
}

fn search(
    cta: &Cta,
    labels: &[u32],
    mode: Channels,
    budget: &Budget,
) -> Result<CtaResult, Diagnostic> {
    let topology = check_topology(cta)?;
    let dim = cta.clocks.len() + 1;
    let mut m = vec![NO_BOUND; dim];
    for p in &cta.processes {
        for e in &p.edges {
            for a in &e.guard {
                if let Some(slot) = m.get_mut(a.clock + 1) {
                    *slot = (*slot).max(a.value);
                }
            }
        }
    }
    let mut res = CtaResult {
        topology,
        reachable: None,
        trace: Vec::new(),
        states: 0,
        transitions: 0,
        max_channel: 0,
        bound_hit: false,
        exhausted: None,
    };
    let mut z0 = Dbm::zero(dim);
    z0.up();
    extra_m(&mut z0, &m);
    let init = Node {
        locs: cta.processes.iter().map(|p| p.initial).collect(),
        chans: Contents {
            words: vec![Vec::new(); cta.channels.len()],
            tails: vec![0; cta.channels.len()],
        },
        zone: z0,
        parent: None,
    };
    let mut nodes: Vec<Node> = Vec::new();
    // Discrete part (locations, channel contents) → the nodes with that part.
    let mut passed: FxHashMap<Discrete, Vec<usize>> = FxHashMap::default();
    let mut waiting = VecDeque::new();
    let mut ticker = budget.ticker(64);
    let mut found = None;
    let mut push =
        |n: Node, nodes: &mut Vec<Node>, waiting: &mut VecDeque<usize>| -> Option<usize> {
            let key = (n.locs.clone(), n.chans.clone());
            let slot = passed.entry(key).or_default();
            if slot
                .iter()
                .any(|&i| nodes.get(i).is_some_and(|o| n.zone.is_subset(&o.zone)))
            {
                return None;
            }
            let id = nodes.len();
            slot.push(id);
            nodes.push(n);
            waiting.push_back(id);
            Some(id)
        };
    if let Some(id) = push(init, &mut nodes, &mut waiting) {
        if nodes
            .get(id)
            .is_some_and(|n| cta_is_target(cta, &n.locs, labels))
        {
            found = Some(id);
        }
    }
    'search: while found.is_none() {
        let Some(cur) = waiting.pop_front() else {
            break;
        };
        if let Err(e) = ticker.tick() {
            res.exhausted = Some(e);
            break;
        }
        let Some(node) = nodes.get(cur) else { break };
        let (locs, chans, zone) = (node.locs.clone(), node.chans.clone(), node.zone.clone());
        for (p, proc_) in cta.processes.iter().enumerate() {
            for e in 0..proc_.edges.len() {
                let Some((fed, nchans)) = fire_on(cta, p, e, &locs, &chans, mode, &zone) else {
                    continue;
                };
                let longest = nchans.words.iter().map(Vec::len).max().unwrap_or(0);
                if matches!(mode, Channels::Bounded(b) if longest > b) {
                    res.bound_hit = true;
                    continue;
                }
                res.max_channel = res.max_channel.max(longest);
                let mut nlocs = locs.clone();
                if let (Some(slot), Some(edge)) = (nlocs.get_mut(p), proc_.edges.get(e)) {
                    *slot = edge.tgt;
                }
                for piece in fed.zones() {
                    let mut z = piece.clone();
                    after(cta, p, e, &mut z);
                    extra_m(&mut z, &m);
                    res.transitions += 1;
                    let n = Node {
                        locs: nlocs.clone(),
                        chans: nchans.clone(),
                        zone: z,
                        parent: Some((
                            cur,
                            CtaStep {
                                process: p,
                                edge: e,
                            },
                        )),
                    };
                    let target = cta_is_target(cta, &n.locs, labels);
                    if let Some(id) = push(n, &mut nodes, &mut waiting) {
                        if target {
                            found = Some(id);
                            break 'search;
                        }
                    }
                }
            }
        }
    }
    res.states = nodes.len();
    if let Some(mut id) = found {
        while let Some((parent, step)) = nodes.get(id).and_then(|n| n.parent) {
            res.trace.push(step);
            id = parent;
        }
        res.trace.reverse();
        res.reachable = Some(true);
    } else if res.exhausted.is_none() && !res.bound_hit {
        res.reachable = Some(false);
    }
    Ok(res)
}

/// The discrete part of a configuration: each process's location and each channel's contents.
type Discrete = (Vec<u32>, Contents);
