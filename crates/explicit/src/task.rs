//! `verikit mc` as library calls: a DVE source and a question (state space, deadlock, assertions,
//! the model's property process, or an LTL formula over state predicates) and a `Budget` → the
//! `Answer`. The orchestrator: the algorithm modules never import it.

use crate::bfs::{bfs_reduced, Exploration, Goal, Trace, ViolationKind};
use crate::bytecode::Prog;
use crate::dfs::dfs_reduced;
use crate::dve_ast::{DveAst, Expr};
use crate::dve_parse::{parse_dve, parse_dve_expr};
use crate::ltl_product::{split_product, AutomatonGraph, PropertyGraph, MAX_APS};
use crate::map::map;
use crate::model::{compile, DecodedState, Model};
use crate::nested_dfs::{nested_dfs, BuchiGraph, CycleSearch};
use crate::owcty::owcty;
use crate::parallel_reach::parallel_reach;
use crate::partitioned_product::build;
use crate::por::Por;
use crate::state_store::StoreKind;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt;
use verikit_diag::{
    Answer, Budget, Diagnostic, Exhausted, Param, Params, Reportable, SourceFile, Span, Verdict,
};
use verikit_omega::{task::negation_buchi, task::parse_formula, Arena, Node, Twa, F};

/// `-x mc.por=on|off`: partial-order reduction in `mc check`.
pub const POR_PARAM: Param = Param {
    name: "mc.por",
    default: "on",
    range: "on|off",
    doc: "partial-order reduction (ample sets) in `mc check`: deadlocks, assertions, X-free LTL",
};

/// `-x mc.dataflow=spin|all|off`: SPIN's data-flow optimisation on Promela models (`dead_variables`).
pub const DATAFLOW_PARAM: Param = Param {
    name: "mc.dataflow",
    default: "spin",
    range: "spin|all|off",
    doc: "Promela only: `spin` hides write-only variables and resets dead locals where `spin -a` does (its state counts); `all` resets every dead local after every step (fewer states); `off` neither (`spin -o1 -o2`); `on` = `spin`; DVE models are never changed",
};

/// Which of SPIN's data-flow optimisations a Promela model gets (`-x mc.dataflow`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dataflow {
    /// The model as written.
    Off,
    /// SPIN's: write-only variables hidden, a dead local reset by the step that uses it last.
    Spin,
    /// Write-only variables hidden, every dead local reset after every step.
    All,
}

/// Reads a parameter with two words (`range` = `a|b`): true for `yes`; an `on|off` switch also
/// takes `true`/`false`.
fn two_words(p: &Params, param: &Param, yes: &str) -> Result<bool, String> {
    let v: String = p.get(param)?;
    let (a, b) = param.range.split_once('|').unwrap_or((param.range, ""));
    let on_off = param.range == "on|off";
    match v.as_str() {
        w if w == a || w == b => Ok(w == yes),
        "true" if on_off => Ok(true),
        "false" if on_off => Ok(false),
        _ => Err(format!("-x {}={v}: expected {a} or {b}", param.name)),
    }
}

/// Reads `-x mc.dataflow=spin|all|off` (`on`/`true` = `spin`, `false` = `off`).
pub fn dataflow_from_params(p: &Params) -> Result<Dataflow, String> {
    let v: String = p.get(&DATAFLOW_PARAM)?;
    match v.as_str() {
        "spin" | "on" | "true" => Ok(Dataflow::Spin),
        "all" => Ok(Dataflow::All),
        "off" | "false" => Ok(Dataflow::Off),
        _ => Err(format!(
            "-x {}={v}: expected spin, all or off",
            DATAFLOW_PARAM.name
        )),
    }
}

/// `-x mc.atomic=through|store`: how Promela's `atomic` sequences are explored.
pub const ATOMIC_PARAM: Param = Param {
    name: "mc.atomic",
    default: "through",
    range: "through|store",
    doc: "Promela only: `through` explores the states inside an `atomic` sequence without storing them, as SPIN does (only the process that moved last inside its sequence goes on; when it is blocked, the state is stored and every process moves); `store` stores them as DVE's committed states; LTL products store the states inside sequences either way, under SPIN's exclusivity with `through` and DVE's committed-state rule with `store`",
};

/// Reads `-x mc.atomic=through|store`: true for `through`.
pub(crate) fn atomic_from_params(p: &Params) -> Result<bool, String> {
    two_words(p, &ATOMIC_PARAM, "through")
}

/// `-x mc.errors=skip|divine`: what an erroneous transition leads to in `mc info`.
pub const ERRORS_PARAM: Param = Param {
    name: "mc.errors",
    default: "skip",
    range: "skip|divine",
    doc: "`mc info` only: `skip` gives a transition whose guard or effect fails to evaluate no successor; `divine` leads it to DiVinE's one error state (all zero, the first process one past its last control state, the others moving on from it), which BEEM's published counts include",
};

/// Reads `-x mc.errors=skip|divine`: true for `divine`.
pub fn divine_errors_from_params(p: &Params) -> Result<bool, String> {
    two_words(p, &ERRORS_PARAM, "divine")
}

/// `-x mc.store=hash|tree`: the layout of the visited-state table.
pub const STORE_PARAM: Param = Param {
    name: "mc.store",
    default: "hash",
    range: "hash|tree",
    doc: "visited-state table: `hash` keeps whole states (fastest), `tree` LTSmin's tree compression (less memory when states share parts); not with --workers/--processes",
};

/// Reads `-x mc.store=hash|tree`.
pub(crate) fn store_from_params(p: &Params) -> Result<StoreKind, String> {
    Ok(if two_words(p, &STORE_PARAM, "tree")? {
        StoreKind::Tree
    } else {
        StoreKind::Hash
    })
}

/// `-x mc.connect-timeout=SECS`: how long the processes of a `--processes` cluster may take to
/// connect before the run fails (a missing peer would otherwise make timely wait forever).
pub const CONNECT_TIMEOUT_PARAM: Param = Param {
    name: "mc.connect-timeout",
    default: "30",
    range: "1..=86400",
    doc: "seconds the processes of a distributed run (--processes) may take to connect",
};

/// How `mc check` searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct McOptions {
    /// Partial-order reduction (`-x mc.por`; sequential searches only).
    pub por: bool,
    /// Worker threads and the accepting-cycle algorithm.
    pub engine: Engine,
}

impl Default for McOptions {
    fn default() -> Self {
        McOptions {
            por: true,
            engine: Engine::default(),
        }
    }
}

impl McOptions {
    /// Reads `-x mc.por=on|off`.
    pub fn from_params(p: &Params) -> Result<McOptions, String> {
        Ok(McOptions {
            por: two_words(p, &POR_PARAM, "on")?,
            ..McOptions::default()
        })
    }
}

/// What `mc check` asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// The model's property process if it has one, else [`Check::Deadlock`].
    Default,
    /// Is a deadlock (a state without successor) reachable?
    Deadlock,
    /// Is a state violating an `assert` reachable?
    Assert,
    /// Does the model (with its property process, a negative claim) have an accepting cycle?
    Property,
    /// Does every infinite run satisfy the LTL formula? Propositions are defined by
    /// `aps` (name = DVE expression) or, when not defined, are DVE expressions themselves
    /// (double-quoted in the formula: `G("P_0.CS" -> F "x > 0")`).
    Ltl {
        formula: String,
        aps: Vec<(String, String)>,
    },
}

/// The accepting-cycle algorithm of LTL and property checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CycleAlgo {
    /// Nested depth-first search (sequential, on the fly).
    NestedDfs,
    /// One-Way-Catch-Them-Young on the product generated by the workers.
    Owcty,
    /// Maximal accepting predecessors on the product generated by the workers.
    Map,
}

impl CycleAlgo {
    /// The names `--algorithm` accepts.
    pub const NAMES: &'static [&'static str] = &["ndfs", "owcty", "map"];

    pub fn from_name(s: &str) -> Option<CycleAlgo> {
        match s {
            "ndfs" => Some(CycleAlgo::NestedDfs),
            "owcty" => Some(CycleAlgo::Owcty),
            "map" => Some(CycleAlgo::Map),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            CycleAlgo::NestedDfs => "ndfs",
            CycleAlgo::Owcty => "owcty",
            CycleAlgo::Map => "map",
        }
    }
}

/// How a check runs: worker threads (1 = the sequential engines) and the cycle algorithm
/// (`None`: nested DFS on one thread, OWCTY on several).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Engine {
    pub threads: usize,
    pub cycles: Option<CycleAlgo>,
    /// The visited-state table of every search (`-x mc.store`).
    pub store: StoreKind,
}

impl Default for Engine {
    fn default() -> Self {
        Engine {
            threads: 1,
            cycles: None,
            store: StoreKind::Hash,
        }
    }
}

impl Engine {
    /// The engine of `--threads` (default 1: on two cores the partitioned search measured no
    /// speed-up, decision 0703) and `--algorithm` (a name of [`CycleAlgo::NAMES`]; default: by
    /// the number of threads).
    pub fn from_options(threads: Option<usize>, algorithm: Option<&str>) -> Engine {
        Engine {
            threads: threads.unwrap_or(1).max(1),
            cycles: algorithm.and_then(CycleAlgo::from_name),
            store: StoreKind::Hash,
        }
    }

    fn cycle_algo(&self) -> CycleAlgo {
        self.cycles.unwrap_or(if self.threads > 1 {
            CycleAlgo::Owcty
        } else {
            CycleAlgo::NestedDfs
        })
    }
}

/// Runs the accepting-cycle search `e` asks for on one graph per worker.
fn cycle_search<G: BuchiGraph + Send>(
    mut graphs: Vec<G>,
    e: &Engine,
    budget: &Budget,
) -> CycleSearch {
    let algo = e.cycle_algo();
    if algo == CycleAlgo::NestedDfs {
        return match graphs.first_mut() {
            Some(g) => nested_dfs(g, e.store, budget),
            None => CycleSearch::default(),
        };
    }
    let t0 = std::time::Instant::now();
    graphs.truncate(e.threads.max(1));
    let g = build(graphs, e.store, budget);
    let mut r = CycleSearch {
        states: g.len() as u64,
        transitions: g.transitions,
        stopped: g.stopped,
        memory_bytes: g.memory(),
        ..CycleSearch::default()
    };
    if r.stopped.is_none() {
        let f = if algo == CycleAlgo::Owcty {
            owcty(&g, e.threads.max(1), budget)
        } else {
            map(&g, budget)
        };
        tracing::info!(
            "mc: {} on {} product states: {} rounds, {} records exchanged",
            algo.name(),
            g.len(),
            f.rounds,
            g.messages
        );
        r.lasso = f.lasso;
        r.stopped = f.stopped;
    }
    r.seconds = t0.elapsed().as_secs_f64();
    r
}

/// Errors of `mc`: bad input (located in the model or in the formula) or a resource limit.
#[derive(Debug)]
pub enum McError {
    Input(Box<Diagnostic>),
    Limit(String),
    /// A failure of the engine itself (a worker that died, two algorithms that disagree).
    Internal(String),
}

impl fmt::Display for McError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            McError::Input(d) => write!(f, "{}", d.message),
            McError::Limit(m) | McError::Internal(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for McError {}

impl Reportable for McError {
    fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            McError::Input(d) => Some(d),
            McError::Limit(_) | McError::Internal(_) => None,
        }
    }
    fn is_resource_limit(&self) -> bool {
        matches!(self, McError::Limit(_))
    }
}

impl From<Diagnostic> for McError {
    fn from(d: Diagnostic) -> Self {
        McError::Input(Box::new(d))
    }
}

/// Reads `--ap NAME=EXPR` definitions.
pub fn parse_ap_defs(defs: &[String]) -> Result<Vec<(String, String)>, String> {
    defs.iter()
        .map(|a| match a.split_once('=') {
            Some((n, e)) if !n.trim().is_empty() => Ok((n.trim().to_string(), e.to_string())),
            _ => Err(format!("--ap `{a}`: expected NAME=EXPR")),
        })
        .collect()
}

/// Parses and compiles a DVE model.
pub fn load_model(text: &str) -> Result<Model, Diagnostic> {
    compile(parse_dve(text)?)
}

/// Parses a Promela model and lowers it to the DVE syntax tree (`promela_lower`).
pub fn parse_promela(text: &str) -> Result<DveAst, Diagnostic> {
    crate::promela_lower::lower(&crate::promela_parse::parse_promela(text)?)
}

/// Parses, lowers and compiles a Promela model.
pub fn load_promela(text: &str) -> Result<Model, Diagnostic> {
    compile(parse_promela(text)?)
}

/// Loads a model by its file name: `.pm`, `.pml`, `.prm`, `.promela` are Promela, anything
/// else DVE; standard input (`-`) is Promela when it declares a `proctype`.
pub fn load_source(src: &SourceFile) -> Result<Model, Diagnostic> {
    if is_promela(src) {
        load_promela(&src.text)
    } else {
        load_model(&src.text)
    }
}

/// Loads a model by its file name (as [`load_source`]) for question `q`: with `dataflow`, a
/// Promela model's dead and write-only variables are reset (`dead_variables`), except those
/// whose names `q` or the model's `ltl` blocks mention. DVE models are loaded as written.
pub fn load_source_for(
    src: &SourceFile,
    q: &Check,
    dataflow: Dataflow,
) -> Result<Model, Diagnostic> {
    if dataflow == Dataflow::Off || !is_promela(src) {
        return load_source(src);
    }
    let mut ast = parse_promela(&src.text)?;
    let mut observed = rustc_hash::FxHashSet::default();
    let mut words = |t: &str| {
        for w in t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if !w.is_empty() {
                observed.insert(w.to_string());
            }
        }
    };
    if let Check::Ltl { formula, aps } = q {
        words(formula);
        for (n, e) in aps {
            words(n);
            words(e);
        }
    }
    for l in &ast.ltl {
        words(&l.formula);
        for (n, e) in &l.aps {
            words(n);
            words(e);
        }
    }
    let rule = match dataflow {
        Dataflow::All => crate::dead_variables::Rule::Every,
        _ => crate::dead_variables::Rule::Spin,
    };
    let r = crate::dead_variables::reset_dead_variables(&mut ast, &observed, rule);
    tracing::info!(
        "mc: data-flow: {} write-only variables hidden, {} transitions reset dead locals",
        r.hidden.len(),
        r.transitions
    );
    compile(ast)
}

fn is_promela(src: &SourceFile) -> bool {
    let n = src.name.to_ascii_lowercase();
    [".pm", ".pml", ".prm", ".promela"]
        .iter()
        .any(|e| n.ends_with(e))
        || ((n == "-" || n == "<stdin>") && src.text.contains("proctype"))
}

fn location(src: &SourceFile, span: Span) -> String {
    let (l, c) = src.line_col(span.start);
    format!("{}:{l}:{c}", src.name)
}

pub(crate) fn limit(what: &str, e: Exhausted, states: u64, transitions: u64) -> McError {
    McError::Limit(format!(
        "{e} during {what} after {states} states and {transitions} transitions"
    ))
}

fn trace_json(m: &Model, t: &Trace) -> Value {
    let mut steps = Vec::new();
    for (k, s) in t.states.iter().enumerate() {
        let mut o = json!({ "state": m.decode(s) });
        if k > 0 {
            if let Some(l) = t.labels.get(k - 1) {
                o["transition"] = json!(m.describe(l));
            }
        }
        steps.push(o);
    }
    json!(steps)
}

/// The counts every state-space answer reports.
pub(crate) fn counts(
    a: Answer,
    states: u64,
    transitions: u64,
    deadlocks: u64,
    errors: u64,
) -> Answer {
    a.stat("states", states)
        .stat("transitions", transitions)
        .stat("deadlocks", deadlocks)
        .stat("evaluation_errors", errors)
}

/// The answer of `mc info` before its counts: `timeout` when the search `stopped`.
pub(crate) fn info_answer(stopped: bool) -> Answer {
    if stopped {
        Answer::decision(Verdict::Timeout).detail("complete", false)
    } else {
        Answer::new().detail("complete", true)
    }
}

fn stats(a: Answer, r: &Exploration) -> Answer {
    counts(a, r.states, r.transitions, r.deadlocks, r.eval_errors)
        .stat("bfs_depth", r.depth)
        .stat("memory_bytes", r.memory_bytes)
        .time("explore_s", r.seconds)
}

pub(crate) fn input(a: Answer, m: &Model, src: &SourceFile) -> Answer {
    a.input("file", &src.name)
        .input("processes", m.num_processes())
        .input("state_bytes", m.state_size())
}

/// `mc info`: the whole state space (states, transitions, deadlocks, evaluation errors, time,
/// memory). A timeout answers `timeout` with the counts reached.
pub fn info(m: &Model, src: &SourceFile, budget: &Budget) -> Result<Answer, McError> {
    info_with(m, src, &Engine::default(), budget)
}

/// [`info`] on `e.threads` workers.
pub fn info_with(
    m: &Model,
    src: &SourceFile,
    e: &Engine,
    budget: &Budget,
) -> Result<Answer, McError> {
    let r = if e.threads > 1 {
        parallel_reach(m, Goal::Explore, e.threads, e.store, budget)
    } else {
        bfs_reduced(m, Goal::Explore, None, e.store, budget)
    };
    if let Some(e @ (Exhausted::Memory | Exhausted::Work)) = r.stopped {
        return Err(limit("state-space generation", e, r.states, r.transitions));
    }
    let mut a = stats(input(info_answer(r.stopped.is_some()), m, src), &r)
        .stat("error_dead_ends", r.error_dead_ends)
        .detail("threads", e.threads.max(1))
        .detail("store", e.store.name())
        .line(format!(
            "{}states: {}, transitions: {}, deadlocks: {}, time: {:.3} s, memory: {:.1} MiB",
            if r.stopped.is_some() {
                "(incomplete: time limit) "
            } else {
                ""
            },
            r.states,
            r.transitions,
            r.deadlocks,
            r.seconds,
            r.memory_bytes as f64 / (1u64 << 20) as f64
        ));
    // the first evaluation error is named even when a deadlock was met before it
    if let Some((error, transition)) = &r.first_eval_error {
        let msg = format!(
            "{} evaluation error(s); the first: {} at {} (transition at {})",
            r.eval_errors,
            error.kind.as_str(),
            location(src, error.span),
            m.transition_span(*transition)
                .map_or_else(|| "?".to_string(), |s| location(src, s))
        );
        a = a.detail("evaluation_error", &msg).line(msg);
    }
    Ok(a)
}

/// `mc check` with the default options (sequential engines, partial-order reduction on).
pub fn check(m: &Model, src: &SourceFile, q: &Check, budget: &Budget) -> Result<Answer, McError> {
    check_with(m, src, q, &McOptions::default(), budget)
}

/// `mc check` with the options `o` (reduction, threads, cycle algorithm).
pub fn check_with(
    m: &Model,
    src: &SourceFile,
    q: &Check,
    o: &McOptions,
    budget: &Budget,
) -> Result<Answer, McError> {
    let e = &o.engine;
    let a = match q {
        Check::Default if m.property.is_some() => {
            return check_with(m, src, &Check::Property, o, budget)
        }
        Check::Default | Check::Deadlock => safety(m, src, Goal::Deadlock, o, budget),
        Check::Assert => safety(m, src, Goal::Assert, o, budget),
        Check::Property => {
            let Some(p) = m.property else {
                return Err(Diagnostic::error(
                    "the model has no property process (`system async property P;`): give --ltl, --deadlock or --assert",
                )
                .into());
            };
            let gs = (0..e.threads.max(1))
                .map(|_| PropertyGraph::new(m, p))
                .collect();
            let r = cycle_search(gs, e, budget);
            let what = format!("property process {}", m.property_process().unwrap_or("?"));
            let por = if o.por {
                "off: the property process is not known to be stutter-invariant"
            } else {
                "off"
            };
            cycle_answer(m, src, &what, &r, |s| json!({ "state": m.decode(s) }))
                .map(|a| a.detail("por", por))
        }
        Check::Ltl { formula, aps } => {
            let run = ltl_search_with(m, formula, aps, o, budget)?;
            cycle_answer(m, src, formula, &run.search, |s| {
                let (d, q) = decode_product(m, s);
                json!({ "state": d, "automaton": q })
            })
            .map(|a| {
                a.stat("negation_states", run.automaton.num_states())
                    .detail("por", run.por.as_str())
            })
        }
    }?;
    Ok(a.detail("threads", e.threads.max(1))
        .detail("store", e.store.name())
        .detail(
            "algorithm",
            if matches!(q, Check::Deadlock | Check::Assert)
                || (*q == Check::Default && m.property.is_none())
            {
                "reachability"
            } else {
                e.cycle_algo().name()
            },
        ))
}

/// The reduction for a safety question: nothing visible for deadlocks; for assertions, what the
/// assertions read and, for each process with an assertion, whether it is at one.
pub(crate) fn safety_por(m: &Model, goal: Goal) -> Result<Por, &'static str> {
    match goal {
        Goal::Explore => Err("the full state space is asked for"),
        Goal::Deadlock => Por::new(m, &[], &[]),
        Goal::Assert => {
            let progs: Vec<_> = m
                .procs
                .iter()
                .flat_map(|p| p.asserts.iter().flatten())
                .collect();
            let procs: Vec<u32> = (0..m.procs.len() as u32)
                .filter(|&p| m.procs[p as usize].asserts.iter().any(|a| !a.is_empty()))
                .collect();
            Por::new(m, &progs, &procs)
        }
    }
}

/// A safety search with the options' reduction (a [`Goal::Explore`] is never reduced).
pub fn safety_search(m: &Model, goal: Goal, o: &McOptions, budget: &Budget) -> Exploration {
    let por = if o.por {
        safety_por(m, goal).ok()
    } else {
        None
    };
    reduced_search(m, goal, por.as_ref(), o.engine.store, budget)
}

/// Without a reduction the breadth-first search (shortest counterexamples); with one the
/// depth-first search, whose stack proviso keeps more ample sets than the breadth-first one.
/// When the depth-first search finds a violation, the breadth-first search on ample sets (its
/// visited-successor proviso) runs again to the first violation, so the counterexample is the
/// shortest one of that reduced graph rather than the depth-first stack; if that second search
/// is stopped by the budget, the stack is kept. The counts are the depth-first search's.
fn reduced_search(
    m: &Model,
    goal: Goal,
    por: Option<&Por>,
    store: StoreKind,
    budget: &Budget,
) -> Exploration {
    match por {
        Some(p) if m.state_size() > 0 => {
            let mut r = dfs_reduced(m, goal, p, store, budget);
            if r.violation.is_some() {
                let again = bfs_reduced(m, goal, por, store, budget);
                if let (Some(v), None) = (again.violation, again.stopped) {
                    r.violation = Some(v);
                }
            }
            r
        }
        _ => bfs_reduced(m, goal, por, store, budget),
    }
}

fn safety(
    m: &Model,
    src: &SourceFile,
    goal: Goal,
    o: &McOptions,
    budget: &Budget,
) -> Result<Answer, McError> {
    let (por, por_note) = if o.engine.threads > 1 {
        (None, "off: not with several threads".to_string())
    } else if o.por {
        match safety_por(m, goal) {
            Ok(p) => (Some(p), "on".to_string()),
            Err(why) => (None, format!("off: {why}")),
        }
    } else {
        (None, "off".to_string())
    };
    let r = if o.engine.threads > 1 {
        parallel_reach(m, goal, o.engine.threads, o.engine.store, budget)
    } else {
        reduced_search(m, goal, por.as_ref(), o.engine.store, budget)
    };
    safety_answer(m, src, goal, &r, &por_note)
}

/// The answer of a safety search's result `r` (a violation with its trace, `true`, or a timeout
/// with the counts; exit 3 for a memory or work limit).
pub(crate) fn safety_answer(
    m: &Model,
    src: &SourceFile,
    goal: Goal,
    r: &Exploration,
    por_note: &str,
) -> Result<Answer, McError> {
    let what = if goal == Goal::Deadlock {
        "deadlock"
    } else {
        "assertion"
    };
    if let Some(e @ (Exhausted::Memory | Exhausted::Work)) = r.stopped {
        return Err(limit(
            &format!("the {what} search"),
            e,
            r.states,
            r.transitions,
        ));
    }
    let a = match (&r.violation, r.stopped) {
        (Some(v), _) => {
            let (word, line) = match &v.kind {
                ViolationKind::Deadlock => (
                    "deadlock",
                    format!(
                        "false: a deadlock is reachable ({} steps)",
                        v.trace.labels.len()
                    ),
                ),
                ViolationKind::Assert { process, state } => (
                    "assertion-violated",
                    format!(
                        "false: the assertion of {process} in state {state} is violated ({} steps)",
                        v.trace.labels.len()
                    ),
                ),
                ViolationKind::Eval { error, .. } => (
                    "evaluation-error",
                    format!(
                        "false: {} at {} ({} steps)",
                        error.kind.as_str(),
                        location(src, error.span),
                        v.trace.labels.len()
                    ),
                ),
            };
            let mut a = Answer::decision(Verdict::False)
                .detail("result", word)
                .witness(json!({ "trace": trace_json(m, &v.trace) }))
                .line(line);
            for (k, l) in v.trace.labels.iter().enumerate() {
                a = a.line(format!("  {:>4}. {}", k + 1, m.describe(l)));
            }
            a
        }
        (None, Some(_)) => Answer::decision(Verdict::Timeout)
            .detail("result", "unknown")
            .line(format!(
                "timeout: no {what} found in the {} states explored",
                r.states
            )),
        (None, None) => Answer::decision(Verdict::True)
            .detail(
                "result",
                if goal == Goal::Deadlock {
                    "deadlock-free"
                } else {
                    "assertions-hold"
                },
            )
            .line(format!(
                "true: no {what} violation in the {} reachable states",
                r.states
            )),
    };
    Ok(stats(input(a, m, src).detail("check", what), r)
        .detail("por", por_note)
        .stat("reduced_states", r.reduced))
}

pub(crate) fn cycle_answer(
    m: &Model,
    src: &SourceFile,
    what: &str,
    r: &CycleSearch,
    show: impl Fn(&[u8]) -> Value,
) -> Result<Answer, McError> {
    if let Some(e @ (Exhausted::Memory | Exhausted::Work)) = r.stopped {
        return Err(limit(
            "the accepting-cycle search",
            e,
            r.states,
            r.transitions,
        ));
    }
    let a = match (&r.lasso, r.stopped) {
        (Some(l), _) => Answer::decision(Verdict::False)
            .detail("result", "violated")
            .witness(json!({
                "stem": l.stem.iter().map(|s| show(s)).collect::<Vec<_>>(),
                "cycle": l.cycle.iter().map(|s| show(s)).collect::<Vec<_>>(),
            }))
            .line(format!(
                "false: {what} is violated: an accepting cycle (lasso: stem {} states, cycle {} states)",
                l.stem.len(),
                l.cycle.len()
            )),
        (None, Some(_)) => Answer::decision(Verdict::Timeout)
            .detail("result", "unknown")
            .line(format!("timeout after {} product states", r.states)),
        (None, None) => Answer::decision(Verdict::True)
            .detail("result", "holds")
            .line(format!(
                "true: {what} holds (no accepting cycle among {} product states)",
                r.states
            )),
    };
    Ok(input(a, m, src)
        .detail("check", "ltl")
        .detail("property", what)
        .stat("product_states", r.states)
        .stat("product_transitions", r.transitions)
        .stat("memory_bytes", r.memory_bytes)
        .stat("reduced_states", r.reduced)
        .time("search_s", r.seconds))
}

/// An LTL search: the automaton of ¬φ, the propositions' expressions, the nested DFS result.
pub struct LtlRun {
    pub automaton: Twa,
    /// The DVE expression of each automaton proposition.
    pub aps: BTreeMap<String, Expr>,
    pub search: CycleSearch,
    /// `on`, or `off` with the reason.
    pub por: String,
}

/// Does the formula avoid `X` (then it is stutter-invariant, Peled–Wilke 1997)?
fn x_free(formula: &str) -> bool {
    let mut arena = Arena::new();
    let Ok(f) = parse_formula(formula, 0, &mut arena) else {
        return false;
    };
    let mut stack = vec![f];
    let mut seen = std::collections::HashSet::new();
    while let Some(F(i)) = stack.pop() {
        if !seen.insert(i) {
            continue;
        }
        if matches!(arena.node(F(i)), Node::X(_)) {
            return false;
        }
        stack.extend(arena.children(F(i)));
    }
    true
}

/// Model × A(¬φ) by nested DFS, with the default options.
pub fn ltl_search(
    m: &Model,
    formula: &str,
    aps: &[(String, String)],
    budget: &Budget,
) -> Result<LtlRun, McError> {
    ltl_search_with(m, formula, aps, &McOptions::default(), budget)
}

/// The automaton of ¬φ, the DVE expression of each proposition, and their compiled predicates.
pub(crate) type LtlParts = (Twa, BTreeMap<String, Expr>, Vec<Prog>);

/// The automaton of ¬φ, the DVE expression of each of its propositions and their compiled
/// predicates, in the automaton's proposition order.
pub(crate) fn ltl_prepare(
    m: &Model,
    formula: &str,
    aps: &[(String, String)],
    budget: &Budget,
) -> Result<LtlParts, McError> {
    let aut = negation_buchi(formula, budget).map_err(|e| match e.diagnostic() {
        Some(d) => McError::Input(Box::new(
            d.clone()
                .with_source(SourceFile::new("<formula>", formula.to_string())),
        )),
        None if e.is_resource_limit() => McError::Limit(e.to_string()),
        None => McError::Input(Box::new(Diagnostic::error(format!(
            "LTL formula `{formula}`: {e}"
        )))),
    })?;
    if aut.aps.len() > MAX_APS {
        return Err(Diagnostic::error(format!(
            "the formula has {} propositions; at most {MAX_APS} are supported",
            aut.aps.len()
        ))
        .into());
    }
    let mut exprs = BTreeMap::new();
    let mut progs = Vec::new();
    for ap in &aut.aps {
        let (name, text) = match aps.iter().find(|(n, _)| n == ap) {
            Some((n, t)) => (format!("<ap {n}>"), t.clone()),
            None => ("<formula>".to_string(), ap.clone()),
        };
        let located = |d: Diagnostic| {
            McError::Input(Box::new(
                d.with_note(format!("in the proposition `{ap}`"))
                    .with_source(SourceFile::new(name.clone(), text.clone())),
            ))
        };
        let e = parse_dve_expr(&text).map_err(located)?;
        let p = m.compile_predicate(&e).map_err(located)?;
        exprs.insert(ap.clone(), e);
        progs.push(p);
    }
    Ok((aut, exprs, progs))
}

/// Model × A(¬φ): nested DFS (with the options' reduction), or OWCTY / MAP on several workers.
/// Errors in the formula or in a proposition are located in the text they come from
/// (`<formula>`, `<ap NAME>`).
pub fn ltl_search_with(
    m: &Model,
    formula: &str,
    aps: &[(String, String)],
    o: &McOptions,
    budget: &Budget,
) -> Result<LtlRun, McError> {
    let (aut, exprs, progs) = ltl_prepare(m, formula, aps, budget)?;
    let sequential = o.engine.cycle_algo() == CycleAlgo::NestedDfs;
    let por = if !o.por {
        "off".to_string()
    } else if !sequential {
        "off: only with nested DFS".to_string()
    } else if !x_free(formula) {
        "off: the formula uses X (not known to be stutter-invariant)".to_string()
    } else {
        let refs: Vec<&Prog> = progs.iter().collect();
        match Por::new(m, &refs, &[]) {
            Ok(p) => {
                let mut g = AutomatonGraph::new(m, &aut, progs.clone());
                g.por = Some(p);
                let search = nested_dfs(&mut g, o.engine.store, budget);
                return Ok(LtlRun {
                    automaton: aut,
                    aps: exprs,
                    search,
                    por: "on".to_string(),
                });
            }
            Err(why) => format!("off: {why}"),
        }
    };
    let gs = (0..o.engine.threads.max(1))
        .map(|_| AutomatonGraph::new(m, &aut, progs.clone()))
        .collect();
    let search = cycle_search(gs, &o.engine, budget);
    Ok(LtlRun {
        automaton: aut,
        aps: exprs,
        search,
        por,
    })
}

/// The model's property-process search (BEEM's `.prop<k>.dve`).
pub fn property_search(m: &Model, budget: &Budget) -> Option<CycleSearch> {
    property_search_with(m, &Engine::default(), budget)
}

/// [`property_search`] on the engine `e`.
pub fn property_search_with(m: &Model, e: &Engine, budget: &Budget) -> Option<CycleSearch> {
    let p = m.property?;
    let gs = (0..e.threads.max(1))
        .map(|_| PropertyGraph::new(m, p))
        .collect();
    Some(cycle_search(gs, e, budget))
}

/// A product state of [`ltl_search`] decoded: the model state and the automaton state.
pub fn decode_product(m: &Model, s: &[u8]) -> (DecodedState, u32) {
    let (sys, q) = split_product(m, s);
    (m.decode(sys), q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_word_parameters() {
        let p = |s: &str| Params::parse(&[s]).unwrap();
        for (v, d) in [
            ("off", Dataflow::Off),
            ("false", Dataflow::Off),
            ("true", Dataflow::Spin),
            ("on", Dataflow::Spin),
            ("spin", Dataflow::Spin),
            ("all", Dataflow::All),
        ] {
            let x = format!("mc.dataflow={v}");
            assert_eq!(dataflow_from_params(&p(&x)), Ok(d), "{x}");
        }
        assert!(dataflow_from_params(&p("mc.dataflow=maybe")).is_err());
        assert_eq!(atomic_from_params(&p("mc.atomic=store")), Ok(false));
        assert_eq!(atomic_from_params(&p("mc.atomic=through")), Ok(true));
        assert_eq!(divine_errors_from_params(&p("mc.errors=divine")), Ok(true));
        assert_eq!(divine_errors_from_params(&p("mc.errors=skip")), Ok(false));
        assert_eq!(
            divine_errors_from_params(&p("mc.errors=true")),
            Err("-x mc.errors=true: expected skip or divine".to_string())
        );
        assert_eq!(
            McOptions::from_params(&p("mc.por=maybe")).err().as_deref(),
            Some("-x mc.por=maybe: expected on or off")
        );
        assert!(!McOptions::from_params(&p("mc.por=off")).unwrap().por);
        assert_eq!(store_from_params(&p("mc.store=tree")), Ok(StoreKind::Tree));
        assert_eq!(
            store_from_params(&p("mc.store=trie")),
            Err("-x mc.store=trie: expected hash or tree".to_string())
        );
        // defaults
        assert_eq!(atomic_from_params(&Params::default()), Ok(true));
        assert_eq!(store_from_params(&Params::default()), Ok(StoreKind::Hash));
    }
}
