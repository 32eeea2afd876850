//! Depth-first safety search on ample sets with the stack proviso: Holzmann and Peled, "An
//! improvement in formal verification" (FORTE 1994), the reduced depth-first search SPIN runs;
//! Peled, "All from one, one for all" (CAV 1993), condition C3 in its depth-first form. The seed
//! paper's tool (DiVinE, CAV 2006, §2) explores breadth-first without reduction; this search is
//! an addition of ours.
//!
//! A state's ample set (`por`, conditions C0–C2) is kept unless one of its successors is on the
//! depth-first stack; a reduced set closing a cycle of the reduced graph is replaced by the next
//! candidate process's set, or by the full set when no candidate is left (as SPIN's search
//! does), so every cycle has a fully expanded state. This is weaker than the breadth-first
//! visited-successor proviso of `bfs`, which must refuse a reduced set whenever a successor was
//! seen at all. Deadlocks, violated `assert`s and evaluation errors are found on the way; the
//! counterexample is the stack (not the shortest path; the caller, `task`, searches again
//! breadth-first for a shorter one).

use crate::bfs::{
    assert_violation, has_assertions, initial, trace_of, Exploration, Goal, Violation,
    ViolationKind,
};
use crate::model::Model;
use crate::por::{owner, Owner, Por};
use crate::state_store::{StateStore, StoreKind};
use crate::successors::Generator;
use std::time::Instant;
use verikit_diag::Budget;

/// The search state: stored states, the stack of (state, start of its pending successors) and
/// the pending successors themselves, packed one after another.
struct Search<'m> {
    m: &'m Model,
    store: StateStore,
    on_stack: Vec<bool>,
    frames: Vec<(u32, usize)>,
    pending: Vec<u8>,
    /// The full expansion of the state being visited, when some process may give an ample
    /// set: packed states and the processes of their labels.
    succ: Vec<u8>,
    owners: Vec<Owner>,
    /// The processes that may give an ample set in the state being visited.
    candidates: Vec<u32>,
}

/// How a state with candidates is expanded.
enum Choice {
    /// By the ample set of a candidate, whose successors are in `Search::succ`.
    Ample,
    /// Fully, no candidate giving an ample set.
    Full,
    /// Fully with labels, choosing on the full expansion (the generator cannot give one
    /// candidate's steps alone in this state, or a candidate's step failed to evaluate).
    Labelled,
}

impl Search<'_> {
    /// Tries the candidates in order, generating only the candidate's own steps (Holzmann and
    /// Peled's search computes the preselected process's moves first): the first whose steps
    /// are non-empty, involve no other process and put no successor on the stack (the stack
    /// proviso) gives the ample set. Its steps may be all the enabled ones; the expansion is
    /// then the full one, which the caller counts as reduced without telling them apart. The
    /// other processes' steps are not generated in such a state, so an evaluation error in one
    /// of them is found where that process is expanded (it stays enabled and erroneous along
    /// the reduced steps, which are independent of it, until a fully expanded state).
    fn try_candidates(&mut self, g: &mut Generator, cur: &[u8]) -> Choice {
        let m = self.m;
        let width = m.state_size().max(1);
        for i in 0..self.candidates.len() {
            let Some(&p) = self.candidates.get(i) else {
                break;
            };
            if alone(m, cur, p as usize) {
                // Its steps are every step of the state: the full expansion, whatever the
                // proviso says (single-process models), without generating them twice.
                return Choice::Full;
            }
            self.succ.clear();
            let (mut mixed, mut failed) = (false, false);
            let succ = &mut self.succ;
            let ok = g.process_steps(
                cur,
                p as usize,
                &mut |st, l| {
                    mixed |= owner(m, l) != (p, p);
                    succ.extend_from_slice(st);
                },
                &mut |_, _| failed = true,
            );
            if !ok || failed {
                return Choice::Labelled;
            }
            if mixed || self.succ.is_empty() {
                continue;
            }
            if !self.succ.chunks(width).any(|st| self.on_stack(st)) {
                return Choice::Ample;
            }
        }
        Choice::Full
    }

    /// The stack as a trace ending in state `last`.
    fn trace(&self, last: u32) -> crate::bfs::Trace {
        let states = self
            .frames
            .iter()
            .map(|&(id, _)| id)
            .chain([last])
            .map(|id| self.store.get(id).to_vec())
            .collect();
        trace_of(self.m, states)
    }

    fn on_stack(&self, st: &[u8]) -> bool {
        self.store
            .find(st)
            .and_then(|id| self.on_stack.get(id as usize).copied())
            .unwrap_or(false)
    }
}

/// Explores the reduced state space depth-first within the budget (see the module comment).
pub(crate) fn dfs_reduced(
    m: &Model,
    goal: Goal,
    por: &Por,
    store: StoreKind,
    budget: &Budget,
) -> Exploration {
    let t0 = Instant::now();
    let width = m.state_size();
    let mut s = Search {
        m,
        store: StateStore::new(width, store),
        on_stack: Vec::new(),
        frames: Vec::new(),
        pending: Vec::new(),
        succ: Vec::new(),
        owners: Vec::new(),
        candidates: Vec::new(),
    };
    let mut r = Exploration::default();
    let mut g = Generator::new(m);
    let mut cur: Vec<u8> = initial(m);
    let mut first_error = None;
    let mut visits = 0u64;
    let mut last_report = Instant::now();
    let asserts = goal == Goal::Assert && has_assertions(m);
    let finish = |r: &mut Exploration, s: &Search| {
        r.states = s.store.len() as u64;
        r.seconds = t0.elapsed().as_secs_f64();
        r.memory_bytes = s.store.memory() + s.pending.capacity() + s.on_stack.capacity();
    };
    let (mut id, _) = s.store.insert(&cur);
    loop {
        // Visit `cur` (state `id`, new): check it, expand it, push it.
        s.on_stack.resize(id as usize + 1, false);
        if let Some(x) = s.on_stack.get_mut(id as usize) {
            *x = true;
        }
        visits += 1;
        if visits & 255 == 0 {
            let mem = s.store.memory() + s.pending.capacity() + s.on_stack.capacity();
            if let Err(e) = budget.check().and_then(|()| budget.check_memory(mem)) {
                r.stopped = Some(e);
                finish(&mut r, &s);
                return r;
            }
            if last_report.elapsed().as_secs() >= 2 {
                last_report = Instant::now();
                tracing::info!(
                    "mc: {} states, stack {}, {:.0} states/s, {} MiB",
                    s.store.len(),
                    s.frames.len(),
                    s.store.len() as f64 / t0.elapsed().as_secs_f64().max(1e-9),
                    mem >> 20
                );
            }
        }
        if asserts {
            if let Some(kind) = assert_violation(m, &cur, &mut r.eval_errors) {
                r.violation = Some(Violation {
                    kind,
                    trace: s.trace(id),
                });
                finish(&mut r, &s);
                return r;
            }
        }
        let mut err_here = None;
        let mut on_error = |e, t| {
            if err_here.is_none() {
                err_here = Some((e, t));
            }
            r.eval_errors += 1;
        };
        por.candidates(m, &cur, &mut s.candidates);
        let base = s.pending.len();
        let mut n_succ = 0u64;
        let choice = if s.candidates.is_empty() {
            Choice::Full
        } else {
            s.try_candidates(&mut g, &cur)
        };
        match choice {
            Choice::Ample => {
                // The chosen candidate's steps (in `succ`), pushed in reverse so that the first
                // one generated is explored first.
                r.reduced += 1;
                for st in s.succ.chunks(width.max(1)).rev() {
                    n_succ += 1;
                    s.pending.extend_from_slice(st);
                }
            }
            Choice::Full => {
                // No ample set: the full expansion goes onto the stack as it is generated (no
                // labels kept, no proviso to check), then its order is reversed.
                let pending = &mut s.pending;
                g.successors(
                    &cur,
                    |st, _| {
                        pending.extend_from_slice(st);
                        n_succ += 1;
                    },
                    &mut on_error,
                );
                reverse_chunks(pending.get_mut(base..).unwrap_or(&mut []), width);
            }
            Choice::Labelled => {
                s.succ.clear();
                s.owners.clear();
                let (succ, owners) = (&mut s.succ, &mut s.owners);
                g.successors(
                    &cur,
                    |st, l| {
                        succ.extend_from_slice(st);
                        owners.push(owner(m, l));
                    },
                    &mut on_error,
                );
                // The stack proviso: no ample successor may close a cycle on the stack. A
                // candidate refused by it leaves the next one its chance (SPIN's search does
                // the same).
                let pick = if err_here.is_none() {
                    let closes_cycle = |p: u32| {
                        s.owners
                            .iter()
                            .zip(s.succ.chunks(width.max(1)))
                            .any(|(&o, st)| o == (p, p) && s.on_stack(st))
                    };
                    Por::pick(
                        s.candidates.iter().copied().filter(|&p| !closes_cycle(p)),
                        s.owners.iter().copied(),
                    )
                } else {
                    None
                };
                if pick.is_some() {
                    r.reduced += 1;
                }
                for (&o, st) in s.owners.iter().zip(s.succ.chunks(width.max(1))).rev() {
                    if pick.is_some_and(|p| o != (p, p)) {
                        continue;
                    }
                    n_succ += 1;
                    s.pending.extend_from_slice(st);
                }
            }
        }
        r.transitions += n_succ;
        if let Some((e, t)) = err_here {
            if first_error.is_none() {
                first_error = Some((e, t, s.trace(id)));
            }
            if goal != Goal::Explore {
                if let Some((error, transition, trace)) = first_error.take() {
                    r.violation = Some(Violation {
                        kind: ViolationKind::Eval { error, transition },
                        trace,
                    });
                }
                finish(&mut r, &s);
                return r;
            }
        }
        if n_succ == 0 && r.deadlock(goal, || s.trace(id)) {
            finish(&mut r, &s);
            return r;
        }
        s.frames.push((id, base));
        r.depth = r.depth.max(s.frames.len() as u32);
        // Find the next new state: pop pending successors, backtracking over finished frames.
        let next = loop {
            let Some(&(top, base)) = s.frames.last() else {
                break None;
            };
            if s.pending.len() <= base {
                s.frames.pop();
                if let Some(x) = s.on_stack.get_mut(top as usize) {
                    *x = false;
                }
                continue;
            }
            let at = s.pending.len() - width;
            let (nid, new) = s.store.insert(s.pending.get(at..).unwrap_or(&[]));
            if new {
                cur.clear();
                cur.extend_from_slice(s.pending.get(at..).unwrap_or(&[]));
            }
            s.pending.truncate(at);
            if new {
                break Some(nid);
            }
        };
        match next {
            Some(n) => id = n,
            None => break,
        }
    }
    if let Some((error, transition, trace)) = first_error {
        if r.violation.is_none() {
            r.violation = Some(Violation {
                kind: ViolationKind::Eval { error, transition },
                trace,
            });
        }
    }
    r.complete = true;
    finish(&mut r, &s);
    r
}

/// Is `p` the only process with a transition leaving its control state in `s`?
fn alone(m: &Model, s: &[u8], p: usize) -> bool {
    m.procs.iter().enumerate().all(|(q, pr)| {
        q == p
            || s.get(q)
                .and_then(|&c| pr.by_state.get(c as usize))
                .is_none_or(|v| v.is_empty())
    })
}

/// Reverses the order of the `width`-byte states packed in `buf`.
fn reverse_chunks(buf: &mut [u8], width: usize) {
    let n = buf.len() / width.max(1);
    for i in 0..n / 2 {
        let (a, b) = (i * width, (n - 1 - i) * width);
        let (lo, hi) = buf.split_at_mut(b);
        if let (Some(x), Some(y)) = (lo.get_mut(a..a + width), hi.get_mut(..width)) {
            x.swap_with_slice(y);
        }
    }
}
