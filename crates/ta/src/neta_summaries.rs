//! Exact reachability for NeTA-Is without global clocks (push and F-push): the encoding into a
//! dense-timed pushdown automaton, decided by call summaries whose durations are sets of the
//! paper's digitization intervals.
//!
//! Seed: Wang, Li, Yuen, "Nested timed automata with invariants" (SETTA 2017, S05). §6: a NeTA-I
//! with no global clocks is encoded as the constraint DTPDA `E(N)` whose states and stack symbols
//! are the control locations, a push storing the caller's location with its local clocks and its
//! invariant (Definition 16, Lemma 2); §5 Definitions 6–7 give that automaton's semantics (a
//! stack is good when every frame satisfies its invariant) and Definition 8 the finite set
//! `Intv(n) = {[i,i] | i ≤ n} ∪ {(i,i+1) | i < n} ∪ {(n,ω)}` of digitization intervals, `n` the
//! largest constant.
//!
//! What is implemented, and for which fragment. The paper decides `E(N)` through digiwords and a
//! snapshot pushdown system that is a growing well-structured pushdown system (§5.1–§5.3,
//! Cai–Ogawa's saturation); that construction is **not** implemented literally. This module
//! decides the same question exactly on the whole class the paper decides — NeTA-Is **without
//! global clocks**, with push and F-push — by a saturation over call summaries that rests on
//! three facts of Definitions 4 and 7: (1) a push or F-push starts the callee with all local
//! clocks at 0 and, without global clocks, nothing of the caller is visible to it, so what a call
//! can do depends on the callee alone; the only thing it returns to the caller is its *duration*
//! `d` (the caller's clocks come back as `ν + d` after a push, as `ν` after an F-push, whose
//! frame is frozen: `progress(ν, t, 0) = ν`); (2) invariants are conjunctions of intervals, hence
//! convex, so a proceeding caller's frame is good during the whole call iff it is good when
//! pushed and when popped, and a frozen one iff it is good when pushed; (3) frames further down
//! see the call only through the caller's own duration. A *summary* `S(A, q)` is the set of
//! durations of the runs of automaton `A` from its initial location with clocks 0 to a pop that
//! resumes location `q`; `R(A)` the set of durations after which such a run is at a location
//! carrying the target labels (its own pending frames good). Each automaton is explored on zones
//! over its local clocks plus a clock `z` never reset (time since entry), with ExtraM for the
//! model's largest constant `n`; a push either returns (the zone is delayed by a duration of `S`,
//! through a fresh clock constrained to the interval — all clocks after a push, only `z` after an
//! F-push — then the caller's invariant is intersected) or stays pending under the target
//! (delayed by a duration of `R`, invariant intersected). Every operation used — reset, copy,
//! delay of all clocks or of `z` and the fresh clock alone, intersection with integer bounds up
//! to `n`, projection — maps unions of regions to unions of regions (`z` is never compared with
//! a constant, only projected), so the projection of the reachable zones on `z` is exactly a
//! union of `Intv(n)` intervals (durations above `n` are all equivalent: every clock they are
//! added to exceeds `n`). Summaries are therefore bit sets over `Intv(n)`; a Kleene iteration
//! over all automata reaches the least fixed point in finitely many rounds (this is the
//! saturation: the summaries are the pop rules a saturated pushdown automaton would add). The
//! target is reachable iff `R(A0)` is not empty. Each summary bit records how many frames its
//! derivation pushes, so a reachable answer comes with the stack height under which the bounded
//! search (`neta_reach`) must find a witness; the fixed point itself is the certificate of an
//! unreachable answer, re-checked by `neta_certificate` on regions, without zones. Global clocks
//! are refused by name: with one global clock and invariants reachability is undecidable (§4
//! Theorem 1), so no exact procedure exists for them.

use crate::dbm::{is_le, le, lt, value, Dbm, INF};
use crate::extra_m::extra_m;
use crate::neta_parse::{Neta, NetaAtom, NetaClock, NetaOp};
use crate::neta_reach::{constrain, neta_is_target};
use rustc_hash::FxHashMap;
use verikit_diag::{Budget, Exhausted};

/// The largest constant the summaries accept (they hold `2n + 2` entries per summary).
const MAX_SUMMARY_CONSTANT: i32 = 1 << 16;

/// A set of `Intv(n)` intervals, each with the number of frames its first derivation pushed.
type Durations = Vec<Option<usize>>;

/// The fixed point: summaries and target durations.
#[derive(Clone, Debug, Default)]
pub struct NetaSummaries {
    /// `S(A, q)`: (callee automaton, resumed automaton, resumed location) → durations, as
    /// `Intv(n)` intervals written `[i,i]`, `(i,i+1)`, `(n,ω)`.
    pub returns: Vec<((usize, usize, u32), Vec<String>)>,
    /// `R(A)`: automaton → durations after which a target location is reached.
    pub targets: Vec<(usize, Vec<String>)>,
}

/// The result of [`neta_summaries`].
#[derive(Clone, Debug, Default)]
pub struct NetaSummaryResult {
    /// `Some(why)` when the model is outside the fragment (nothing else is meaningful then).
    pub refused: Option<&'static str>,
    /// `Some(true)` reachable, `Some(false)` unreachable, `None` when the budget ran out.
    pub reachable: Option<bool>,
    /// When reachable: a stack height under which a witness exists.
    pub depth: usize,
    /// The largest constant `n` (the digitization intervals are `Intv(n)`).
    pub max_constant: i32,
    /// Rounds of the fixed-point iteration.
    pub rounds: usize,
    /// Symbolic states stored, summed over rounds.
    pub states: usize,
    /// The fixed point (complete when `reachable` is `Some`).
    pub summaries: NetaSummaries,
    /// Why the computation stopped early.
    pub exhausted: Option<Exhausted>,
}

/// Why a model is outside the fragment decided here, if it is.
pub fn neta_summary_refusal(n: &Neta) -> Option<&'static str> {
    if n.max_constant() > MAX_SUMMARY_CONSTANT {
        return Some("constants above 65536: the summaries are bit sets over the 2n+2 intervals of Intv(n) (Wang–Li–Yuen Def. 8), too large here");
    }
    if !n.globals.is_empty() {
        return Some("global clocks: the exact procedure covers NeTA-Is without global clocks only (Wang–Li–Yuen §6; one global clock with invariants is undecidable, §4 Theorem 1)");
    }
    None
}

/// `Intv(n)` index `i` as bounds `(lower, upper)` on a clock (DBM encoding: `x ≥ lo` is
/// `(0, x) ≤ -lo`).
fn interval(i: usize, n: i32) -> (i32, i32) {
    let k = (i / 2) as i32;
    if i.is_multiple_of(2) {
        (le(-k), le(k))
    } else if k >= n {
        (lt(-n), INF)
    } else {
        (lt(-k), lt(k + 1))
    }
}

fn interval_name(i: usize, n: i32) -> String {
    let k = (i / 2) as i32;
    if i.is_multiple_of(2) {
        format!("[{k},{k}]")
    } else if k >= n {
        format!("({n},ω)")
    } else {
        format!("({k},{})", k + 1)
    }
}

struct Explorer<'a> {
    n: &'a Neta,
    k: usize,
    m: i32,
    /// Index of `z` in the zones.
    z: usize,
}

impl Explorer<'_> {
    fn clock(&self, c: NetaClock) -> Option<usize> {
        match c {
            NetaClock::Local(x) if x < self.k => Some(1 + x),
            _ => None,
        }
    }

    fn constrain(&self, zone: &mut Dbm, a: &NetaAtom) -> bool {
        self.clock(a.clock).is_some_and(|i| constrain(zone, i, a))
    }

    fn invariant(&self, aut: usize, q: u32, zone: &mut Dbm) -> bool {
        let Some(l) = self.n.location(aut, q) else {
            return false;
        };
        l.local_inv.iter().all(|a| self.constrain(zone, a))
    }

    /// Invariant, delay, invariant, ExtraM: the zone of a location entered.
    fn settle(&self, aut: usize, q: u32, zone: &mut Dbm) -> bool {
        if !self.invariant(aut, q, zone) {
            return false;
        }
        zone.up();
        if !self.invariant(aut, q, zone) {
            return false;
        }
        extra_m(zone, &vec![self.m; zone.dim()]);
        true
    }

    /// The `Intv(n)` intervals that `z` meets in `zone` (a projection on one clock is one
    /// interval, so a contiguous range of indices).
    fn project(&self, zone: &Dbm) -> std::ops::RangeInclusive<usize> {
        let top = 2 * self.m as usize + 1;
        let index = |v: i32, strict_above: bool| -> usize {
            if v > self.m || (v == self.m && strict_above) {
                top
            } else {
                2 * v.max(0) as usize + usize::from(strict_above)
            }
        };
        let low = zone.get(0, self.z);
        let lo = index(-value(low), !is_le(low));
        let up = zone.get(self.z, 0);
        let hi = if up == INF {
            top
        } else if is_le(up) {
            index(value(up), false)
        } else {
            // z < u: the last interval is (u-1, u)
            index(value(up) - 1, true)
        };
        lo..=hi
    }

    /// The zone after a call of one duration of `Intv(n)` interval `i`: every clock advanced when
    /// the caller was pushed (`frozen == false`), only `z` when it was F-pushed (its clocks stood
    /// still, Definition 4's `progress(ν, t, 0) = ν`).
    fn delayed(&self, zone: &Dbm, i: usize, frozen: bool) -> Option<Dbm> {
        let t = zone.dim();
        let mut w = zone.extend_zero(1);
        if frozen {
            let running: Vec<bool> = (0..=t).map(|c| c == self.z || c == t).collect();
            w.up_some(&running);
        } else {
            w.up();
        }
        let (l, u) = interval(i, self.m);
        (w.constrain(0, t, l) && w.constrain(t, 0, u)).then(|| w.truncate(t))
    }
}

/// Decides whether a configuration whose working location carries all `labels` is reachable, on
/// NeTA-Is without global clocks (see the module documentation); other models
/// are refused with the reason.
pub fn neta_summaries(n: &Neta, labels: &[u32], budget: &Budget) -> NetaSummaryResult {
    let mut res = NetaSummaryResult::default();
    if let Some(why) = neta_summary_refusal(n) {
        res.refused = Some(why);
        return res;
    }
    let k = n.locals.len();
    let m = n.max_constant();
    res.max_constant = m;
    let ex = Explorer { n, k, m, z: k + 1 };
    let width = 2 * m as usize + 2;
    let auts = n.automata.len();
    if auts == 0 {
        res.reachable = Some(false);
        return res;
    }
    // S: (callee, resumed automaton, resumed location) → durations; R: automaton → durations.
    let mut returns: FxHashMap<(usize, usize, u32), Durations> = FxHashMap::default();
    let mut targets: Vec<Durations> = vec![vec![None; width]; auts];
    let mut entered = vec![false; auts];
    if let Some(e) = entered.first_mut() {
        *e = true;
    }
    let mut ticker = budget.ticker(64);
    loop {
        res.rounds += 1;
        let mut changed = false;
        for a in 0..auts {
            if !entered.get(a).copied().unwrap_or(false) {
                continue;
            }
            let Some(init) = n.automata.get(a).map(|x| x.initial) else {
                continue;
            };
            let mut z0 = Dbm::zero(k + 2);
            if !ex.settle(a, init, &mut z0) {
                continue;
            }
            // (location, zone, frames pushed by the derivation)
            let mut nodes: Vec<(u32, Dbm, usize)> = vec![(init, z0, 0)];
            let mut passed: FxHashMap<u32, Vec<usize>> = FxHashMap::default();
            passed.insert(init, vec![0]);
            let mut next = 0;
            while next < nodes.len() {
                if let Err(e) = ticker.tick() {
                    res.exhausted = Some(e);
                    res.states += nodes.len();
                    return res;
                }
                let Some((q, zone, depth)) = nodes.get(next).cloned() else {
                    break;
                };
                next += 1;
                let mut found: Vec<(u32, Dbm, usize)> = Vec::new();
                if neta_is_target(n, (a, q), labels) {
                    changed |= record(&mut targets, a, &ex.project(&zone), depth);
                }
                for e in n.edges.iter().filter(|e| (e.aut, e.src) == (a, q)) {
                    let mut w = zone.clone();
                    let mut alive = true;
                    let mut last = None;
                    for op in &e.ops {
                        match *op {
                            NetaOp::Test(at) => alive &= ex.constrain(&mut w, &at),
                            NetaOp::Reset(c) => match ex.clock(c) {
                                Some(i) => w.reset(i, 0),
                                None => alive = false,
                            },
                            NetaOp::Copy { dst, src } => match (ex.clock(dst), ex.clock(src)) {
                                (Some(d), Some(s)) => w.copy(d, s),
                                _ => alive = false,
                            },
                            NetaOp::Push | NetaOp::FPush | NetaOp::Pop => last = Some(*op),
                        }
                        if !alive {
                            break;
                        }
                    }
                    if !alive {
                        continue;
                    }
                    match last {
                        None => {
                            if ex.settle(e.tgt_aut, e.tgt, &mut w) {
                                found.push((e.tgt, w, depth));
                            }
                        }
                        Some(NetaOp::Pop) => {
                            let key = (a, e.tgt_aut, e.tgt);
                            let slot = returns.entry(key).or_insert_with(|| vec![None; width]);
                            let p = ex.project(&w);
                            changed |= record_one(slot, &p, depth);
                        }
                        Some(call) => {
                            // push or F-push: the caller's frame (a, q) must be good when pushed;
                            // a frozen frame stays good, a proceeding one is good at the return
                            // as well (invariants are convex), checked after the delay.
                            let frozen = call == NetaOp::FPush;
                            if !ex.invariant(a, q, &mut w) {
                                continue;
                            }
                            let callee = e.tgt_aut;
                            if let Some(flag) = entered.get_mut(callee) {
                                changed |= !*flag;
                                *flag = true;
                            }
                            let back = returns.get(&(callee, a, q)).cloned().unwrap_or_default();
                            for (i, d) in back.iter().enumerate() {
                                let Some(d) = d else { continue };
                                if let Some(mut v) = ex.delayed(&w, i, frozen) {
                                    if ex.settle(a, q, &mut v) {
                                        found.push((q, v, depth.max(1 + d)));
                                    }
                                }
                            }
                            let pending = targets.get(callee).cloned().unwrap_or_default();
                            for (i, d) in pending.iter().enumerate() {
                                let Some(d) = d else { continue };
                                if let Some(mut v) = ex.delayed(&w, i, frozen) {
                                    if ex.invariant(a, q, &mut v) {
                                        let bounds = vec![m; v.dim()];
                                        extra_m(&mut v, &bounds);
                                        let p = ex.project(&v);
                                        changed |= record(&mut targets, a, &p, depth.max(1 + d));
                                    }
                                }
                            }
                        }
                    }
                }
                for (q2, w, d) in found {
                    let slot = passed.entry(q2).or_default();
                    if slot.iter().any(|&o| {
                        nodes
                            .get(o)
                            .is_some_and(|(_, oz, od)| w.is_subset(oz) && *od <= d)
                    }) {
                        continue;
                    }
                    slot.push(nodes.len());
                    nodes.push((q2, w, d));
                }
            }
            res.states += nodes.len();
        }
        if !changed {
            break;
        }
    }
    let name = |ds: &Durations| -> Vec<String> {
        ds.iter()
            .enumerate()
            .filter(|(_, d)| d.is_some())
            .map(|(i, _)| interval_name(i, m))
            .collect()
    };
    let mut rets: Vec<_> = returns.iter().map(|(k, v)| (*k, name(v))).collect();
    rets.sort();
    res.summaries.returns = rets;
    res.summaries.targets = targets
        .iter()
        .enumerate()
        .map(|(a, v)| (a, name(v)))
        .filter(|(_, v)| !v.is_empty())
        .collect();
    let goal = targets.first().map(|t| t.iter().flatten().min().copied());
    match goal.flatten() {
        Some(d) => {
            res.reachable = Some(true);
            res.depth = d;
        }
        None => res.reachable = Some(false),
    }
    res
}

fn record(
    targets: &mut [Durations],
    a: usize,
    p: &std::ops::RangeInclusive<usize>,
    depth: usize,
) -> bool {
    targets
        .get_mut(a)
        .is_some_and(|slot| record_one(slot, p, depth))
}

/// Adds intervals `p` at derivation depth `depth`; true if a bit was new.
fn record_one(slot: &mut Durations, p: &std::ops::RangeInclusive<usize>, depth: usize) -> bool {
    let mut changed = false;
    for i in p.clone() {
        if let Some(s) = slot.get_mut(i) {
            if s.is_none() {
                *s = Some(depth);
                changed = true;
            }
        }
    }
    changed
}
