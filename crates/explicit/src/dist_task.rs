//! `verikit mc … --workers N` and `--processes P --process I --hostfile FILE`: the distributed
//! engine (`dist_reach`, `dist_owcty` on `dist_cluster`'s timely workers) as library calls that
//! return the `Answer`. An orchestrator: the algorithm modules never import it.
//!
//! Counterexamples: a safety search (deadlocks, assertions) keeps a parent id per stored state
//! and rebuilds the shortest trace across workers (`dist_reach::trace_back`); an accepting
//! cycle's lasso is found by the sequential nested DFS on the same product (which must find one,
//! since OWCTY's fixpoint is not empty; if it does not, the run is an internal error). Every
//! process of a cluster run computes the same answer.

use crate::bfs::{trace_of, Exploration, Goal, Violation};
use crate::dist_cluster::{Cluster, Exchanger};
use crate::dist_owcty::owcty;
use crate::dist_reach::{explore, stop_flags, stopped_by, trace_back, Expanded, Local};
use crate::ltl_product::{AutomatonGraph, PropertyGraph};
use crate::model::Model;
use crate::nested_dfs::{nested_dfs, BuchiGraph, CycleSearch};
use crate::parallel_reach::{Expand, Safety};
use crate::state_store::StoreKind;
use crate::task::{
    counts, cycle_answer, decode_product, info_answer, input, limit, ltl_prepare, safety_answer,
    Check, LtlRun, McError,
};
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use timely::worker::Worker;
use verikit_diag::{Answer, Budget, Diagnostic, Exhausted, SourceFile};

/// What a distributed run computed, summed over all workers of all processes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DistStats {
    pub workers: usize,
    pub processes: usize,
    pub states: u64,
    pub transitions: u64,
    pub deadlocks: u64,
    pub eval_errors: u64,
    /// BFS levels of the distributed generation (the rounds that sent states).
    pub levels: u64,
    /// Serialised bytes of the state records sent from one worker to another.
    pub bytes_sent: u64,
    /// State records sent from one worker to another.
    pub records_sent: u64,
    pub memory_bytes: u64,
    /// Product states left in OWCTY's fixpoint (LTL and property checks only).
    pub remaining: Option<u64>,
    pub owcty_rounds: u32,
    pub stopped: Option<Exhausted>,
    /// A safety search that found a violation: the states of a shortest path from the initial
    /// state to it, rebuilt from the workers' parent ids (empty otherwise).
    pub trace: Vec<Vec<u8>>,
}

impl DistStats {
    /// Serialised bytes sent per state generated.
    pub fn bytes_per_state(&self) -> f64 {
        self.bytes_sent as f64 / self.states.max(1) as f64
    }
}

/// Sums this worker's counters with every other worker's (one more round, on all workers).
fn totals(
    w: &mut Worker,
    ex: &mut Exchanger,
    l: &Local,
    fix: Option<(u64, u32, Option<Exhausted>)>,
    cluster: &Cluster,
) -> DistStats {
    let stopped = fix.and_then(|f| f.2).or(l.stopped);
    let [t, m, k] = stop_flags(stopped);
    let values = [
        l.store.len() as u64,
        l.transitions,
        l.deadlocks,
        l.eval_errors,
        ex.bytes,
        ex.records,
        l.memory() as u64,
        t,
        m,
        k,
    ];
    let (_, s) = ex.round(w, &values);
    let at = |k: usize| s.get(k + 1).copied().unwrap_or(0);
    DistStats {
        workers: cluster.total_workers(),
        processes: cluster.processes(),
        states: at(0),
        transitions: at(1),
        deadlocks: at(2),
        eval_errors: at(3),
        bytes_sent: at(4),
        records_sent: at(5),
        memory_bytes: at(6),
        levels: l.levels,
        remaining: fix.map(|f| f.0),
        owcty_rounds: fix.map_or(0, |f| f.1),
        stopped: stopped_by(&s, 8).or(stopped),
        trace: Vec::new(),
    }
}

/// Runs `f` on every worker of this process; all workers return the same sums, the first is kept.
/// In a cluster, timely connects the processes first and retries forever while a peer is
/// missing: the run happens on a thread of its own, and when no worker has started after the
/// cluster's connect timeout (or the budget ends first) the run fails with an error naming the
/// cluster instead of hanging (the connecting thread is left behind; the command then exits).
fn run(
    cluster: &Cluster,
    budget: &Budget,
    f: impl Fn(&mut Worker) -> DistStats + Send + Sync + 'static,
) -> Result<DistStats, McError> {
    let config = cluster.config();
    if cluster.hosts.len() <= 1 {
        return execute(config, f);
    }
    let started = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&started);
    let g = move |w: &mut Worker| {
        flag.store(true, Ordering::SeqCst);
        f(w)
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("timely-cluster".into())
        .spawn(move || {
            let _ = tx.send(execute(config, g));
        })
        .map_err(|e| McError::Internal(format!("cannot start the cluster thread: {e}")))?;
    let t0 = Instant::now();
    loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(r) => return r,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                return Err(McError::Internal(
                    "the cluster thread ended without a result".into(),
                ))
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
        }
        if started.load(Ordering::SeqCst) {
            continue;
        }
        if let Err(e) = budget.check() {
            return Err(McError::Limit(format!(
                "{e} while the {} processes of the cluster were connecting",
                cluster.hosts.len()
            )));
        }
        if t0.elapsed() >= cluster.connect_timeout {
            return Err(McError::Input(Box::new(Diagnostic::error(format!(
                "cluster setup: process {} of {} could not connect to all its peers ({}) within {} s; \
                 start every process of the hostfile (or raise -x mc.connect-timeout)",
                cluster.process,
                cluster.hosts.len(),
                cluster.hosts.join(", "),
                cluster.connect_timeout.as_secs_f64()
            )))));
        }
    }
}

/// Runs `f` on the workers of `config` and joins them: the first worker's result.
fn execute(
    config: timely::Config,
    f: impl Fn(&mut Worker) -> DistStats + Send + Sync + 'static,
) -> Result<DistStats, McError> {
    let guards = timely::execute(config, f).map_err(|e| {
        McError::Input(Box::new(Diagnostic::error(format!(
            "cannot start the timely workers: {e}"
        ))))
    })?;
    let mut first = None;
    for r in guards.join() {
        let s = r.map_err(|e| McError::Internal(format!("a timely worker failed: {e}")))?;
        first.get_or_insert(s);
    }
    first.ok_or_else(|| McError::Internal("no timely worker ran".into()))
}

/// Distributed generation of the model's state space.
pub fn dist_explore(m: &Model, cluster: &Cluster, budget: &Budget) -> Result<DistStats, McError> {
    dist_safety(m, Goal::Explore, cluster, budget)
}

/// Distributed breadth-first search for `goal`: the whole state space ([`Goal::Explore`]), or
/// until the first BFS level with a deadlock ([`Goal::Deadlock`]) or a violated assertion
/// ([`Goal::Assert`]) — evaluation errors stop both, as in [`crate::bfs`] — whose shortest trace
/// is then rebuilt from the workers' parent ids ([`DistStats::trace`]).
pub fn dist_safety(
    m: &Model,
    goal: Goal,
    cluster: &Cluster,
    budget: &Budget,
) -> Result<DistStats, McError> {
    let m = Arc::new(m.clone());
    let b = budget.clone();
    let c = cluster.clone();
    let linked = goal != Goal::Explore;
    run(cluster, budget, move |w| {
        let mut ex = Exchanger::new(w);
        let mut sx = Safety::new(&m, goal);
        let mut expand = |s: &[u8], out: &mut Vec<Vec<u8>>| {
            let before = sx.eval_errors;
            let violation = sx.expand(0, s, &mut |t: &[u8]| out.push(t.to_vec()));
            Expanded {
                errors: sx.eval_errors - before,
                violation,
            }
        };
        let l = explore(w, &mut ex, m.state_size(), &m.init, &mut expand, &b, linked);
        let trace = if l.violated {
            trace_back(w, &mut ex, &l)
        } else {
            Vec::new()
        };
        DistStats {
            trace,
            ..totals(w, &mut ex, &l, None, &c)
        }
    })
}

/// Distributed generation of a product and OWCTY on it, on one worker.
fn product_worker(
    w: &mut Worker,
    g: &mut dyn BuchiGraph,
    budget: &Budget,
    c: &Cluster,
) -> DistStats {
    let mut ex = Exchanger::new(w);
    let init = g.initial();
    let width = g.width();
    let mut expand = |s: &[u8], out: &mut Vec<Vec<u8>>| {
        out.clear();
        g.successors(s, out);
        Expanded::default()
    };
    let l = explore(w, &mut ex, width, &init, &mut expand, budget, false);
    let fix = if l.stopped.is_none() {
        let acc: Vec<bool> = (0..l.store.len() as u32)
            .map(|i| g.accepting(&l.store.get(i)))
            .collect();
        let mut expand = |s: &[u8], out: &mut Vec<Vec<u8>>| {
            out.clear();
            g.successors(s, out);
            Expanded::default()
        };
        let f = owcty(w, &mut ex, &l.store, &acc, &mut expand, budget);
        Some((f.remaining, f.rounds, f.stopped))
    } else {
        None
    };
    totals(w, &mut ex, &l, fix, c)
}

fn dist_answer(a: Answer, s: &DistStats, seconds: f64) -> Answer {
    let a = a
        .detail("engine", "timely")
        .detail("workers", s.workers)
        .detail("processes", s.processes);
    let mut a = counts(a, s.states, s.transitions, s.deadlocks, s.eval_errors)
        .stat("bfs_levels", s.levels)
        .stat("memory_bytes", s.memory_bytes)
        .stat("bytes_sent", s.bytes_sent)
        .stat("records_sent", s.records_sent)
        .stat(
            "bytes_per_state",
            (s.bytes_per_state() * 100.0).round() / 100.0,
        )
        .time("distributed_s", seconds);
    if let Some(r) = s.remaining {
        a = a
            .stat("owcty_rounds", s.owcty_rounds)
            .stat("owcty_remaining", r);
    }
    a.line(format!(
        "timely: {} worker(s) in {} process(es), {} states, {} transitions, {:.1} bytes sent per state, {:.3} s",
        s.workers,
        s.processes,
        s.states,
        s.transitions,
        s.bytes_per_state(),
        seconds
    ))
}

fn limit_error(s: &DistStats) -> Option<McError> {
    match s.stopped {
        Some(e @ (Exhausted::Memory | Exhausted::Work)) => {
            Some(limit("the distributed search", e, s.states, s.transitions))
        }
        _ => None,
    }
}

/// `mc info` on the cluster `c`: the whole state space, distributed.
pub fn info_dist(
    m: &Model,
    src: &SourceFile,
    c: &Cluster,
    budget: &Budget,
) -> Result<Answer, McError> {
    let t0 = Instant::now();
    let s = dist_explore(m, c, budget)?;
    if let Some(e) = limit_error(&s) {
        return Err(e);
    }
    let a = info_answer(s.stopped.is_some());
    Ok(dist_answer(
        input(a, m, src),
        &s,
        t0.elapsed().as_secs_f64(),
    ))
}

/// `mc check` on the cluster `c`: deadlocks by distributed generation, the property process or
/// an LTL formula by distributed OWCTY; deadlocks and assertions with a shortest trace.
pub fn check_dist(
    m: &Model,
    src: &SourceFile,
    q: &Check,
    c: &Cluster,
    budget: &Budget,
) -> Result<Answer, McError> {
    let t0 = Instant::now();
    let goal = match q {
        Check::Default if m.property.is_some() => {
            return check_dist(m, src, &Check::Property, c, budget)
        }
        Check::Default | Check::Deadlock => Goal::Deadlock,
        Check::Assert => Goal::Assert,
        Check::Property | Check::Ltl { .. } => Goal::Explore,
    };
    match q {
        Check::Default | Check::Deadlock | Check::Assert => {
            let s = dist_safety(m, goal, c, budget)?;
            let seconds = t0.elapsed().as_secs_f64();
            let r = exploration(m, goal, &s, seconds)?;
            let a = safety_answer(m, src, goal, &r, "off: not with the distributed engine")?;
            let a = if r.violation.is_some() {
                a.detail("witness_by", "distributed trace-back of parent ids")
            } else {
                a
            };
            Ok(dist_answer(a, &s, seconds))
        }
        Check::Property => {
            let (r, s) = property_search_dist(m, c, budget)?;
            let what = format!("property process {}", m.property_process().unwrap_or("?"));
            let a = cycle_dist(m, src, &what, &r, &s, |st| json!({ "state": m.decode(st) }))?;
            Ok(dist_answer(a, &s, t0.elapsed().as_secs_f64()))
        }
        Check::Ltl { formula, aps } => {
            let (run, s) = ltl_search_dist(m, formula, aps, c, budget)?;
            let a = cycle_dist(m, src, formula, &run.search, &s, |st| {
                let (d, q) = decode_product(m, st);
                json!({ "state": d, "automaton": q })
            })?;
            Ok(dist_answer(
                a.stat("negation_states", run.automaton.num_states()),
                &s,
                t0.elapsed().as_secs_f64(),
            ))
        }
    }
}

/// A distributed safety search's result as the sequential searches report theirs: the counts, and
/// the violation at the end of the trace (its kind found again by expanding its last state).
fn exploration(m: &Model, goal: Goal, s: &DistStats, seconds: f64) -> Result<Exploration, McError> {
    let violation = match s.trace.last() {
        None => None,
        Some(last) => {
            let mut sx = Safety::new(m, goal);
            sx.expand(0, last, &mut |_: &[u8]| {});
            let Some((kind, _)) = sx.violation else {
                return Err(McError::Internal(
                    "the distributed trace-back ended in a state that violates nothing".into(),
                ));
            };
            Some(Violation {
                kind,
                trace: trace_of(m, s.trace.clone()),
            })
        }
    };
    Ok(Exploration {
        states: s.states,
        transitions: s.transitions,
        deadlocks: s.deadlocks,
        eval_errors: s.eval_errors,
        // Not counted by the distributed engine (`mc info` on it does not report them).
        error_dead_ends: 0,
        depth: u32::try_from(s.levels).unwrap_or(u32::MAX),
        complete: s.stopped.is_none() && violation.is_none(),
        stopped: s.stopped,
        violation,
        first_eval_error: None,
        memory_bytes: usize::try_from(s.memory_bytes).unwrap_or(usize::MAX),
        seconds,
        reduced: 0,
    })
}

/// The search result of a distributed OWCTY run: the counts, and for a violation the lasso that
/// `lasso` (the sequential nested DFS on the same product) finds.
fn with_lasso(s: &DistStats, lasso: impl FnOnce() -> CycleSearch) -> Result<CycleSearch, McError> {
    let mut r = CycleSearch {
        states: s.states,
        transitions: s.transitions,
        stopped: s.stopped,
        memory_bytes: s.memory_bytes as usize,
        ..CycleSearch::default()
    };
    if s.stopped.is_none() && s.remaining.unwrap_or(0) > 0 {
        let seq = lasso();
        if seq.stopped.is_some() {
            r.stopped = seq.stopped;
        } else if seq.lasso.is_none() {
            return Err(McError::Internal(format!(
                "distributed OWCTY left {} product states but nested DFS found no accepting cycle",
                s.remaining.unwrap_or(0)
            )));
        }
        r.lasso = seq.lasso;
    }
    Ok(r)
}

/// The model's property process (BEEM's `.prop<k>.dve`) by distributed OWCTY on `c`.
pub fn property_search_dist(
    m: &Model,
    c: &Cluster,
    budget: &Budget,
) -> Result<(CycleSearch, DistStats), McError> {
    let Some(p) = m.property else {
        return Err(Diagnostic::error(
            "the model has no property process (`system async property P;`): give --ltl, --deadlock or --assert",
        )
        .into());
    };
    let mm = Arc::new(m.clone());
    let (b, cc) = (budget.clone(), c.clone());
    let s = run(c, budget, move |w| {
        let mut g = PropertyGraph::new(&mm, p);
        product_worker(w, &mut g, &b, &cc)
    })?;
    let r = with_lasso(&s, || {
        nested_dfs(&mut PropertyGraph::new(m, p), StoreKind::Hash, budget)
    })?;
    Ok((r, s))
}

/// Model × A(¬φ) by distributed OWCTY on `c` (errors located as in [`crate::ltl_search`]).
pub fn ltl_search_dist(
    m: &Model,
    formula: &str,
    aps: &[(String, String)],
    c: &Cluster,
    budget: &Budget,
) -> Result<(LtlRun, DistStats), McError> {
    let (aut, exprs, progs) = ltl_prepare(m, formula, aps, budget)?;
    let (mm, aa, pp) = (Arc::new(m.clone()), Arc::new(aut.clone()), progs.clone());
    let (b, cc) = (budget.clone(), c.clone());
    let s = run(c, budget, move |w| {
        let mut g = AutomatonGraph::new(&mm, &aa, pp.clone());
        product_worker(w, &mut g, &b, &cc)
    })?;
    let search = with_lasso(&s, || {
        nested_dfs(
            &mut AutomatonGraph::new(m, &aut, progs.clone()),
            StoreKind::Hash,
            budget,
        )
    })?;
    let run = LtlRun {
        automaton: aut,
        aps: exprs,
        search,
        por: "off: not with the distributed engine".to_string(),
    };
    Ok((run, s))
}

/// The answer of a distributed accepting-cycle search.
fn cycle_dist(
    m: &Model,
    src: &SourceFile,
    what: &str,
    r: &CycleSearch,
    s: &DistStats,
    show: impl Fn(&[u8]) -> serde_json::Value,
) -> Result<Answer, McError> {
    if let Some(e) = limit_error(s) {
        return Err(e);
    }
    let a = cycle_answer(m, src, what, r, show)?
        .detail("algorithm", "owcty")
        .detail("por", "off: not with the distributed engine");
    Ok(if r.lasso.is_some() {
        a.detail("witness_by", "sequential nested depth-first search")
    } else {
        a
    })
}
