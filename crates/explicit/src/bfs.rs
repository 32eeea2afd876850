//! Breadth-first state-space generation (DiVinE's reachability; BEEM's state and transition
//! counts): states are numbered in BFS order, so the visited table doubles as the queue and a
//! parent index per state gives a shortest counterexample trace. Deadlocks (no successor),
//! violated `assert`s and evaluation errors are found on the way.

use crate::bytecode::EvalError;
use crate::model::Label;
use crate::model::Model;
use crate::por::{in_ample, Por};
use crate::state_store::{StateStore, StoreKind};
use crate::successors::{committed_in, stored_exclusive, Generator};
use std::time::Instant;
use verikit_diag::{Budget, Exhausted};

/// What the search looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The whole state space (counts; the first deadlock and evaluation error are kept).
    Explore,
    /// Stop at the first deadlock (or evaluation error).
    Deadlock,
    /// Stop at the first violated assertion (or evaluation error).
    Assert,
}

/// What went wrong in the last state of a trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViolationKind {
    Deadlock,
    /// `assert` of `process` in state `state` is false.
    Assert {
        process: String,
        state: String,
    },
    /// A transition's guard or effect failed to evaluate.
    Eval {
        error: EvalError,
        transition: u32,
    },
}

/// A path of the state space: `states[0]` is initial, `labels[i]` leads from `states[i]` to
/// `states[i + 1]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    pub states: Vec<Vec<u8>>,
    pub labels: Vec<Label>,
}

#[derive(Clone, Debug)]
pub struct Violation {
    pub kind: ViolationKind,
    pub trace: Trace,
}

/// The result of a BFS run; counts are those reached when it stopped.
#[derive(Clone, Debug, Default)]
pub struct Exploration {
    pub states: u64,
    pub transitions: u64,
    pub deadlocks: u64,
    pub eval_errors: u64,
    /// Deadlocks whose every enabled transition failed to evaluate (counted in `deadlocks`
    /// too): states that have transitions but no successor. Counted by the sequential and
    /// multi-core searches, not by the distributed one.
    pub error_dead_ends: u64,
    /// BFS levels completed (the depth of the last state expanded).
    pub depth: u32,
    /// Every reachable state was expanded.
    pub complete: bool,
    pub stopped: Option<Exhausted>,
    /// The first violation found (or, for [`Goal::Explore`], the first deadlock or error).
    pub violation: Option<Violation>,
    /// The first evaluation error met and its transition (also when a deadlock came first).
    pub first_eval_error: Option<(EvalError, u32)>,
    pub memory_bytes: usize,
    pub seconds: f64,
    /// States expanded with an ample set (partial-order reduction; 0 without it): a proper
    /// subset of the enabled steps in the breadth-first search; in the depth-first search one
    /// candidate process's steps, which may be every enabled step (it does not generate the
    /// others to tell).
    pub reduced: u64,
}

/// The first state of the model.
pub(crate) fn initial(m: &Model) -> Vec<u8> {
    m.init.clone()
}

/// Is some assertion false in `st`? Returns the process and state names.
pub(crate) fn failed_assert(m: &Model, st: &[u8]) -> Result<Option<(String, String)>, EvalError> {
    // Most states have no assertion to check: copy the state (programs run on a mutable
    // state) only when one is found.
    let mut scratch = Vec::new();
    let mut stack = Vec::new();
    for (pi, p) in m.procs.iter().enumerate() {
        let s = st.get(pi).copied().unwrap_or(0) as usize;
        for a in p.asserts.get(s).map_or(&[][..], |v| v) {
            if scratch.is_empty() {
                scratch.extend_from_slice(st);
            }
            stack.clear();
            if a.exec(&mut scratch, &mut stack)? == 0 {
                return Ok(Some((
                    p.name.clone(),
                    p.states.get(s).cloned().unwrap_or_default(),
                )));
            }
        }
    }
    Ok(None)
}

/// Does some control state of some process carry an assertion? (Without one, the assertion
/// search checks nothing per state.)
pub(crate) fn has_assertions(m: &Model) -> bool {
    m.procs
        .iter()
        .any(|p| p.asserts.iter().any(|a| !a.is_empty()))
}

/// The assertion check of a state for [`Goal::Assert`]: the violation in `st`, if any (an
/// evaluation error counts in `eval_errors`).
pub(crate) fn assert_violation(
    m: &Model,
    st: &[u8],
    eval_errors: &mut u64,
) -> Option<ViolationKind> {
    match failed_assert(m, st) {
        Ok(None) => None,
        Ok(Some((process, state))) => Some(ViolationKind::Assert { process, state }),
        Err(error) => {
            *eval_errors += 1;
            Some(ViolationKind::Eval {
                error,
                transition: u32::MAX,
            })
        }
    }
}

impl Exploration {
    /// Counts a state without successor; keeps the first as the violation (`trace` builds its
    /// path) unless assertions are asked for. True when the search should stop there.
    pub(crate) fn deadlock(&mut self, goal: Goal, trace: impl FnOnce() -> Trace) -> bool {
        self.deadlocks += 1;
        if self.violation.is_none() && goal != Goal::Assert {
            self.violation = Some(Violation {
                kind: ViolationKind::Deadlock,
                trace: trace(),
            });
            return goal == Goal::Deadlock;
        }
        false
    }
}

/// Rebuilds the path to state `target` from parent links, regenerating each step's label.
fn trace_to(store: &StateStore, parents: &[u32], target: u32, m: &Model) -> Trace {
    let mut ids = vec![target];
    let mut cur = target;
    while cur != 0 {
        cur = parents.get(cur as usize).copied().unwrap_or(0);
        ids.push(cur);
    }
    ids.reverse();
    trace_of(m, ids.iter().map(|&i| store.get(i).to_vec()).collect())
}

/// The trace through `states` (a path of the state space), each step's label regenerated. A
/// step that went through a Promela `atomic` sequence (`Generator::through_atomic`) is
/// expanded into the steps inside it, so the trace is a path of the model's single steps.
pub(crate) fn trace_of(m: &Model, states: Vec<Vec<u8>>) -> Trace {
    let mut g = Generator::new(m);
    let exclusive = g.through_atomic;
    g.through_atomic = false;
    let mut t = Trace {
        states: states.first().cloned().into_iter().collect(),
        labels: Vec::new(),
    };
    for w in states.windows(2) {
        for (s, l) in single_steps(&mut g, m, exclusive, &w[0], &w[1]) {
            t.states.push(s);
            t.labels.push(l);
        }
    }
    t
}

/// The single steps from `a` to `b`: `b` itself when it is a successor of `a`, else the
/// shortest path through states inside atomic sequences to it. With `exclusive` (the sequences
/// were explored through) under SPIN's exclusivity: a state is inside while some process holds
/// it, and only that process moves on; else the committed states are inside (DVE's rule).
fn single_steps(
    g: &mut Generator,
    m: &Model,
    exclusive: bool,
    a: &[u8],
    b: &[u8],
) -> Vec<(Vec<u8>, Label)> {
    // Breadth-first from `a`, expanding only the states inside: (state, label, parent,
    // exclusive process).
    let mut nodes: Vec<(Vec<u8>, Label, usize, Option<usize>)> =
        vec![(a.to_vec(), Label::default(), 0, stored_exclusive(m, a))];
    let mut seen = rustc_hash::FxHashSet::default();
    seen.insert((a.to_vec(), nodes[0].3));
    let mut k = 0;
    while k < nodes.len() {
        let inside = if exclusive {
            nodes[k].3.is_some()
        } else {
            committed_in(m, &nodes[k].0)
        };
        if k > 0 && !inside {
            k += 1;
            continue;
        }
        let (cur, excl) = (nodes[k].0.clone(), nodes[k].3);
        let (mut hit, mut next) = (None, Vec::new());
        let mut found = |s: &[u8], l: &Label, x: Option<usize>| {
            if s == b {
                hit.get_or_insert_with(|| l.clone());
            } else {
                next.push((s.to_vec(), l.clone(), x));
            }
        };
        if exclusive {
            g.exclusive_steps(&cur, excl, &mut found, &mut |_, _| {});
        } else {
            g.successors(&cur, |s, l| found(s, l, None), |_, _| {});
        }
        if let Some(l) = hit {
            let mut path = vec![(b.to_vec(), l)];
            let mut at = k;
            while at > 0 {
                let (s, l, p, _) = &nodes[at];
                path.push((s.clone(), l.clone()));
                at = *p;
            }
            path.reverse();
            return path;
        }
        for (s, l, x) in next {
            if seen.insert((s.clone(), x)) {
                nodes.push((s, l, k, x));
            }
        }
        k += 1;
    }
    vec![(b.to_vec(), Label::default())]
}

/// Explores the state space breadth-first within the budget.
pub fn bfs(m: &Model, goal: Goal, budget: &Budget) -> Exploration {
    bfs_reduced(m, goal, None, StoreKind::Hash, budget)
}

/// [`bfs`] on the ample sets of `por` (none: the full state space), with the visited-successor
/// cycle proviso: a reduced set with a successor already visited is replaced by the full one;
/// states in the visited-state table of layout `store`.
pub(crate) fn bfs_reduced(
    m: &Model,
    goal: Goal,
    por: Option<&Por>,
    store: StoreKind,
    budget: &Budget,
) -> Exploration {
    let mut succ: Vec<(Vec<u8>, Label)> = Vec::new();
    let mut cur: Vec<u8> = Vec::new();
    let t0 = Instant::now();
    let mut store = StateStore::new(m.state_size(), store);
    let mut parents: Vec<u32> = Vec::new();
    let mut depth_of_next_level = 1u32;
    let mut level_end = 1u32;
    let mut r = Exploration::default();
    let init = initial(m);
    store.insert(&init);
    parents.push(0);
    let mut g = Generator::new(m);
    let mut i: u32 = 0;
    let mut first_error: Option<(EvalError, u32, u32)> = None;
    let mut last_report = Instant::now();
    let asserts = goal == Goal::Assert && has_assertions(m);
    // The counts reached, for a caller that gives up on the search before it returns.
    let progress = budget.progress();
    progress.phase("breadth-first search (states stored)", None);
    let finish = |r: &mut Exploration, store: &StateStore| {
        r.states = store.len() as u64;
        r.seconds = t0.elapsed().as_secs_f64();
        r.memory_bytes = store.memory() + store.len() * 4;
    };
    while (i as usize) < store.len() {
        if i == level_end {
            level_end = store.len() as u32;
            r.depth = depth_of_next_level;
            depth_of_next_level += 1;
        }
        if i & 1023 == 0 {
            let mem = store.memory() + parents.capacity() * 4;
            if let Err(e) = budget.check_memory(mem) {
                r.stopped = Some(e);
                finish(&mut r, &store);
                return r;
            }
            progress.set(store.len() as u64);
            if last_report.elapsed().as_secs() >= 2 {
                last_report = Instant::now();
                progress.detail(&format!("{} transitions, {} MiB", r.transitions, mem >> 20));
                tracing::info!(
                    "mc: {} states, {} queued, {:.0} states/s, {} MiB",
                    store.len(),
                    store.len() - i as usize,
                    store.len() as f64 / t0.elapsed().as_secs_f64().max(1e-9),
                    mem >> 20
                );
            }
        }
        store.read(i, &mut cur);
        if asserts {
            if let Some(kind) = assert_violation(m, &cur, &mut r.eval_errors) {
                r.violation = Some(Violation {
                    kind,
                    trace: trace_to(&store, &parents, i, m),
                });
                finish(&mut r, &store);
                return r;
            }
        }
        let mut n_succ = 0u64;
        let mut err_here = None;
        if let Some(por) = por {
            // Full expansion first, then the ample subset if the cycle proviso allows it.
            succ.clear();
            g.successors(
                &cur,
                |s, l| succ.push((s.to_vec(), l.clone())),
                |e, t| {
                    if err_here.is_none() {
                        err_here = Some((e, t));
                    }
                    r.eval_errors += 1;
                },
            );
            let pick = if err_here.is_none() {
                por.ample(m, &cur, succ.iter().map(|(_, l)| l))
            } else {
                None
            };
            let pick = pick.filter(|&p| {
                !succ
                    .iter()
                    .any(|(s, l)| in_ample(m, p, l) && store.contains(s))
            });
            if pick.is_some() {
                r.reduced += 1;
            }
            for (s, l) in &succ {
                if pick.is_some_and(|p| !in_ample(m, p, l)) {
                    continue;
                }
                n_succ += 1;
                let (_, new) = store.insert(s);
                if new {
                    parents.push(i);
                }
            }
        } else {
            g.successors(
                &cur,
                |s, _| {
                    n_succ += 1;
                    let (_, new) = store.insert(s);
                    if new {
                        parents.push(i);
                    }
                },
                |e, t| {
                    if err_here.is_none() {
                        err_here = Some((e, t));
                    }
                    r.eval_errors += 1;
                },
            );
        }
        r.transitions += n_succ;
        if let Some((e, t)) = err_here {
            if first_error.is_none() {
                first_error = Some((e, t, i));
                r.first_eval_error = Some((e, t));
            }
            if goal != Goal::Explore {
                r.violation = Some(Violation {
                    kind: ViolationKind::Eval {
                        error: e,
                        transition: t,
                    },
                    trace: trace_to(&store, &parents, i, m),
                });
                finish(&mut r, &store);
                return r;
            }
        }
        if n_succ == 0 && err_here.is_some() {
            r.error_dead_ends += 1;
        }
        if n_succ == 0 && r.deadlock(goal, || trace_to(&store, &parents, i, m)) {
            finish(&mut r, &store);
            return r;
        }
        if i & 255 == 0 {
            if let Err(e) = budget.check() {
                r.stopped = Some(e);
                finish(&mut r, &store);
                return r;
            }
        }
        i += 1;
    }
    if let (Some((error, transition, at)), true) = (first_error, goal == Goal::Explore) {
        if r.violation.is_none() {
            r.violation = Some(Violation {
                kind: ViolationKind::Eval { error, transition },
                trace: trace_to(&store, &parents, at, m),
            });
        }
    }
    r.complete = true;
    finish(&mut r, &store);
    r
}
