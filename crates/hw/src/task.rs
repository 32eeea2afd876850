//! What `verikit aig` asks, as library calls: the engine choice (BMC, k-induction, IC3 or the
//! portfolio: BMC for a share of the time, then IC3), the `-x hw.*` parameters, the self-checks
//! (every counterexample replayed on the circuit by the `aiger` simulator, every invariant
//! re-checked by SAT) and the [`Answer`].

use crate::bmc::{bmc, bmc_observed};
use crate::certify::check_invariant;
use crate::coi_reduce::{coi_reduce, substitute};
use crate::everlost::{everlost, EverLostOptions};
use crate::fraig::fraig;
use crate::ic3::{ic3, ic3_observed, Ic3Options, Lift};
use crate::kind::kind;
use crate::latch_correspondence::latch_correspondence;
use crate::live_task::{check_live, LiveEngine, LiveSettings, Liveness};
use crate::outcome::{exhausted_answer, Outcome, Proof};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use verikit_aiger::{replay, Aig, Reset, Witness};
use verikit_diag::{Answer, Budget, Diagnostic, Exhausted, Param, Params, Verdict};

/// The tuning parameters of the hardware engines.
pub const PARAMS: &[Param] = &[
    Param {
        name: "hw.bmc-max-depth",
        default: "0",
        range: "0..=1000000",
        doc: "BMC engine: stop with `unknown` after this many transitions (0 = no bound)",
    },
    Param {
        name: "hw.ic3-drop-tries",
        default: "100",
        range: "0..=100000",
        doc: "IC3: literal-dropping attempts per blocked cube after the core (0 = core only)",
    },
    Param {
        name: "hw.ic3-requeue",
        default: "true",
        range: "true|false",
        doc: "IC3: re-enqueue a blocked obligation one frame higher",
    },
    Param {
        name: "hw.kind-simple-path",
        default: "true",
        range: "true|false",
        doc: "k-induction: require pairwise distinct states in the step case",
    },
    Param {
        name: "hw.portfolio-bmc-share",
        default: "20",
        range: "0..=100",
        doc: "sequential portfolio: percent of the time limit given to BMC before IC3 (2 s without a limit)",
    },
    Param {
        name: "hw.portfolio-bmc-depth",
        default: "40",
        range: "0..=1000000",
        doc: "sequential portfolio: deepest BMC frame before switching to IC3",
    },
    Param {
        name: "hw.portfolio-everlost-share",
        default: "10",
        range: "0..=100",
        doc: "portfolio: percent of the remaining time given to EverLost (parallel: in the BMC thread once it passes hw.portfolio-bmc-yield-depth; sequential: after BMC; 1 s without a limit)",
    },
    Param {
        name: "hw.everlost-latches",
        default: "16",
        range: "0..=64",
        doc: "EverLost: latches kept in the abstract model (nearest the target first)",
    },
    Param {
        name: "hw.everlost-rings",
        default: "256",
        range: "1..=100000",
        doc: "EverLost: most BDD pre-image rings computed on the abstract model",
    },
    Param {
        name: "hw.everlost-cycles",
        default: "8",
        range: "1..=10000",
        doc: "EverLost: cycles per batch of 64 random traces before choosing the best state",
    },
    Param {
        name: "hw.everlost-patience",
        default: "4",
        range: "0..=100000",
        doc: "EverLost: batches without a closer ring before a random walk",
    },
    Param {
        name: "hw.everlost-seed",
        default: "1",
        range: "0..=18446744073709551615",
        doc: "EverLost: random seed",
    },
    Param {
        name: "hw.ic3-ctg",
        default: "0",
        range: "0..=1000",
        doc: "IC3: counterexamples to generalisation blocked in a row per dropped literal (0 = plain MIC)",
    },
    Param {
        name: "hw.ic3-ctg-depth",
        default: "1",
        range: "0..=10",
        doc: "IC3: recursion depth of blocking counterexamples to generalisation",
    },
    Param {
        name: "hw.reduce",
        default: "true",
        range: "true|false",
        doc: "safety: run the engines on the cone of influence with constant latches propagated and gates hashed",
    },
    Param {
        name: "hw.ic3-rebuild",
        default: "1000",
        range: "0..=100000000",
        doc: "IC3: rebuild a solver after this many retired clauses beyond twice the live frame clauses (0 = never)",
    },
    Param {
        name: "hw.fraig",
        default: "true",
        range: "true|false",
        doc: "safety: merge functionally equivalent gates (random simulation, SAT sweeping) after the reduction, within a tenth of the time",
    },
    Param {
        name: "hw.portfolio-parallel",
        default: "true",
        range: "true|false",
        doc: "portfolio: BMC in a thread of its own next to EverLost + IC3 (false: one thread, BMC for its share first)",
    },
    Param {
        name: "hw.ic3-cone",
        default: "true",
        range: "true|false",
        doc: "IC3: each SAT query decides only the cone of influence of its cube (or the bad literal) and the lifting query assumes only the inputs and latches that cone reads",
    },
    Param {
        name: "hw.portfolio-bmc-nice",
        default: "5",
        range: "0..=19",
        doc: "parallel portfolio (Linux): the BMC thread's nice value is raised by this much once it passes hw.portfolio-bmc-yield-depth, so IC3 gets the larger CPU share when both threads share a core (0 = equal shares)",
    },
    Param {
        name: "hw.portfolio-bmc-yield-depth",
        default: "10",
        range: "0..=1000000",
        doc: "parallel portfolio: BMC depths refuted before the BMC thread yields the larger CPU share to IC3 (0 = from the start)",
    },
    Param {
        name: "hw.ic3-lift",
        default: "sat",
        range: "sat|ternary|both",
        doc: "IC3: lift predecessor states by ternary simulation, by a SAT query's failed assumptions, or by SAT on the latches ternary simulation kept",
    },
    Param {
        name: "hw.portfolio-ic3-stall",
        default: "4000",
        range: "0..=100000000",
        doc: "parallel portfolio (Linux): once the BMC thread has yielded, the IC3 thread lowers its own priority by hw.portfolio-bmc-nice (equal CPU shares again) when IC3 has spent on one frame this many SAT queries and as many as all frames before it (0 = never)",
    },
    Param {
        name: "hw.ic3-cone-switch",
        default: "0",
        range: "0..=100000000",
        doc: "IC3: toggle hw.ic3-cone when one frame has cost this many SAT queries and as many as all frames before it, and again after as many more (0 = never)",
    },
    Param {
        name: "hw.ic3-order",
        default: "latch",
        range: "latch|activity",
        doc: "IC3: generalisation tries dropping literals in latch order, or those of the latches least used in recent lemmas first (activity)",
    },
    Param {
        name: "hw.ic3-subsume",
        default: "true",
        range: "true|false",
        doc: "IC3: a new lemma removes the frame clauses it subsumes, and an obligation a lemma already excludes is blocked without a SAT query",
    },
    Param {
        name: "hw.ic3-join",
        default: "0",
        range: "0..=1000000",
        doc: "IC3: joins per dropped literal (the candidate cut to the literals its counterexample agrees with and queried again) before the drop is given up",
    },
    Param {
        name: "hw.ic3-decide-sources",
        default: "false",
        range: "true|false",
        doc: "IC3 with hw.ic3-cone: a query decides only the inputs and latches of its cone (its gates follow by propagation), not the gates too",
    },
];

/// Which engine decides the property.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Engine {
    Bmc,
    Kind,
    Ic3,
    /// Abstraction-guided simulation (C27), bug finding only.
    EverLost,
    #[default]
    Portfolio,
}

impl Engine {
    pub const NAMES: &'static [&'static str] = &["bmc", "kind", "ic3", "everlost", "portfolio"];
    pub fn parse(s: &str) -> Option<Engine> {
        Some(match s {
            "bmc" => Engine::Bmc,
            "kind" => Engine::Kind,
            "ic3" | "pdr" => Engine::Ic3,
            "everlost" => Engine::EverLost,
            "portfolio" => Engine::Portfolio,
            _ => return None,
        })
    }
    fn name(self) -> &'static str {
        match self {
            Engine::Bmc => "bmc",
            Engine::Kind => "kind",
            Engine::Ic3 => "ic3",
            Engine::EverLost => "everlost",
            Engine::Portfolio => "portfolio",
        }
    }
}

/// Options of [`check`].
#[derive(Clone, Debug)]
pub struct Options {
    pub engine: Engine,
    /// Index into [`Aig::properties`].
    pub property: usize,
    pub bmc_max_depth: Option<usize>,
    pub ic3_drop_tries: usize,
    pub ic3_requeue: bool,
    pub ic3_ctg: usize,
    pub ic3_ctg_depth: usize,
    pub ic3_rebuild: usize,
    /// IC3 queries restricted to the cone of influence of their cube.
    pub ic3_cone: bool,
    /// Toggle `ic3_cone` when a frame stalls (0: never).
    pub ic3_cone_switch: u64,
    /// Generalisation drops the least active latches first (otherwise in latch order).
    pub ic3_activity: bool,
    /// How IC3 lifts predecessor states.
    pub ic3_lift: Lift,
    /// IC3: syntactic containment of lemmas and obligations.
    pub ic3_subsume: bool,
    /// IC3: joins per dropped literal.
    pub ic3_join: usize,
    /// IC3: cone queries decide only the cone's inputs and latches.
    pub ic3_decide_sources: bool,
    pub kind_simple_path: bool,
    pub portfolio_bmc_share: u32,
    pub portfolio_bmc_depth: usize,
    pub portfolio_everlost_share: u32,
    /// BMC in a thread next to EverLost + IC3 (otherwise one after the other).
    pub portfolio_parallel: bool,
    /// The BMC thread's nice increment once it has refuted `portfolio_bmc_yield_depth` depths.
    pub portfolio_bmc_nice: u32,
    pub portfolio_bmc_yield_depth: usize,
    /// IC3 queries on one frame after which the IC3 thread gives the BMC thread an equal share
    /// back (0 = never).
    pub portfolio_ic3_stall: u64,
    pub everlost: EverLostOptions,
    /// A liveness property to check instead of safety property `property`.
    pub live: Option<Liveness>,
    /// Safety engines run on the reduced circuit (`coi_reduce`).
    pub reduce: bool,
    /// Functionally equivalent gates of the reduced circuit are merged (`fraig`).
    pub fraig: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            engine: Engine::Portfolio,
            property: 0,
            bmc_max_depth: None,
            ic3_drop_tries: 100,
            ic3_requeue: true,
            ic3_ctg: 0,
            ic3_ctg_depth: 1,
            ic3_rebuild: 1000,
            ic3_cone: true,
            ic3_cone_switch: 0,
            ic3_activity: false,
            ic3_lift: Lift::Sat,
            ic3_subsume: true,
            ic3_join: 0,
            ic3_decide_sources: false,
            kind_simple_path: true,
            portfolio_bmc_share: 20,
            portfolio_bmc_depth: 40,
            portfolio_everlost_share: 10,
            portfolio_parallel: true,
            portfolio_bmc_nice: 5,
            portfolio_bmc_yield_depth: 10,
            portfolio_ic3_stall: 4000,
            everlost: EverLostOptions {
                latches: 16,
                rings: 256,
                cycles: 8,
                patience: 4,
                seed: 1,
            },
            live: None,
            reduce: true,
            fraig: true,
        }
    }
}

impl Options {
    /// Options with the `-x hw.*` parameters applied.
    pub fn with_params(mut self, p: &Params) -> Result<Options, String> {
        let [d, t, r, s, sh, pd] = [0, 1, 2, 3, 4, 5].map(|i| &PARAMS[i]);
        let depth: usize = p.get_in(d, 0, 1_000_000)?;
        self.bmc_max_depth = (depth > 0).then_some(depth);
        self.ic3_drop_tries = p.get_in(t, 0, 100_000)?;
        self.ic3_requeue = p.get(r)?;
        self.kind_simple_path = p.get(s)?;
        self.portfolio_bmc_share = p.get_in(sh, 0, 100)?;
        self.portfolio_bmc_depth = p.get_in(pd, 0, 1_000_000)?;
        let [es, el, er, ec, ep, ed] = [6, 7, 8, 9, 10, 11].map(|i| &PARAMS[i]);
        self.portfolio_everlost_share = p.get_in(es, 0, 100)?;
        self.everlost = EverLostOptions {
            latches: p.get_in(el, 0, 64)?,
            rings: p.get_in(er, 1, 100_000)?,
            cycles: p.get_in(ec, 1, 10_000)?,
            patience: p.get_in(ep, 0, 100_000)?,
            seed: p.get(ed)?,
        };
        let [cm, cd] = [12, 13].map(|i| &PARAMS[i]);
        self.ic3_ctg = p.get_in(cm, 0, 1000)?;
        self.ic3_ctg_depth = p.get_in(cd, 0, 10)?;
        self.reduce = p.get(&PARAMS[14])?;
        self.ic3_rebuild = p.get_in(&PARAMS[15], 0, 100_000_000)?;
        self.fraig = p.get(&PARAMS[16])?;
        self.portfolio_parallel = p.get(&PARAMS[17])?;
        self.ic3_cone = p.get(&PARAMS[18])?;
        self.portfolio_bmc_nice = p.get_in(&PARAMS[19], 0, 19)?;
        self.portfolio_bmc_yield_depth = p.get_in(&PARAMS[20], 0, 1_000_000)?;
        self.ic3_lift = p.get(&PARAMS[21])?;
        self.portfolio_ic3_stall = p.get_in(&PARAMS[22], 0, 100_000_000)?;
        self.ic3_cone_switch = p.get_in(&PARAMS[23], 0, 100_000_000)?;
        self.ic3_subsume = p.get(&PARAMS[25])?;
        self.ic3_join = p.get_in(&PARAMS[26], 0, 1_000_000)?;
        self.ic3_decide_sources = p.get(&PARAMS[27])?;
        let order: String = p.get(&PARAMS[24])?;
        self.ic3_activity = match order.as_str() {
            "activity" => true,
            "latch" => false,
            _ => {
                return Err(format!(
                    "-x hw.ic3-order={order}: expected activity or latch"
                ))
            }
        };
        Ok(self)
    }

    fn ic3_options(&self) -> Ic3Options {
        Ic3Options {
            drop_tries: self.ic3_drop_tries,
            requeue: self.ic3_requeue,
            ctg_max: self.ic3_ctg,
            ctg_depth: self.ic3_ctg_depth,
            rebuild: self.ic3_rebuild,
            cone: self.ic3_cone,
            cone_switch: self.ic3_cone_switch,
            activity: self.ic3_activity,
            lift: self.ic3_lift,
            subsume: self.ic3_subsume,
            join_max: self.ic3_join,
            decide_sources: self.ic3_decide_sources,
        }
    }
}

/// The result of [`check`]: the answer to print and, for `unsafe`, the AIGER witness.
#[derive(Clone, Debug)]
pub struct Report {
    pub answer: Answer,
    pub witness: Option<Witness>,
}

fn run_engine(aig: &Aig, opts: &Options, budget: &Budget) -> (Outcome, Vec<(String, String)>) {
    let ic3o = opts.ic3_options();
    let p = opts.property;
    match opts.engine {
        Engine::Bmc => (bmc(aig, p, opts.bmc_max_depth, budget), vec![]),
        Engine::Kind => (kind(aig, p, opts.kind_simple_path, budget), vec![]),
        Engine::Ic3 => {
            let (o, s) = ic3(aig, p, ic3o, budget);
            (o, ic3_stats(&s))
        }
        Engine::EverLost => {
            let (o, s) = everlost(aig, p, &opts.everlost, budget);
            (o, everlost_stats(&s))
        }
        Engine::Portfolio if opts.portfolio_parallel => portfolio_parallel(aig, opts, budget),
        Engine::Portfolio => portfolio_sequential(aig, opts, budget),
    }
}

/// Statistics as key–value pairs.
type Stats = Vec<(String, String)>;

/// An engine's outcome and its statistics.
type EngineRun = (Outcome, Stats);

/// EverLost for `share` percent of the remaining time (1 s without a limit): its outcome if it
/// found a bug, otherwise its note ("cycles, rings") for the statistics.
fn everlost_slice(
    aig: &Aig,
    opts: &Options,
    budget: &Budget,
) -> Result<(Outcome, Vec<(String, String)>), String> {
    let slice = match budget.remaining() {
        Some(r) => r.mul_f64(opts.portfolio_everlost_share as f64 / 100.0),
        None => Duration::from_secs(1),
    };
    let (o, s) = everlost(aig, opts.property, &opts.everlost, &budget.sub(Some(slice)));
    match o {
        Outcome::Unsafe { .. } => {
            let mut st = everlost_stats(&s);
            st.push(("engine".into(), "everlost".into()));
            Ok((o, st))
        }
        _ => Err(format!("{} cycles, {} rings", s.cycles, s.rings)),
    }
}

/// The note an engine that did not decide leaves in the statistics.
fn undecided_note(o: &Outcome) -> String {
    match o {
        Outcome::Exhausted { reached, .. } => reached.clone(),
        Outcome::Unknown { reason } => reason.clone(),
        Outcome::Safe(_) | Outcome::Unsafe { .. } => String::new(),
    }
}

fn decided(o: &Outcome) -> bool {
    matches!(o, Outcome::Safe(_) | Outcome::Unsafe { .. })
}

/// Raises the calling thread's nice value by `by`: on Linux the nice value is an attribute of
/// the thread, and lowering one's own priority needs no privilege. Elsewhere (where it would be
/// the whole process's) nothing is changed. Whether it was changed.
fn lower_thread_priority(by: u32) -> bool {
    #[cfg(target_os = "linux")]
    {
        let tid = Some(rustix::thread::gettid());
        let now = rustix::process::getpriority_process(tid).unwrap_or(0);
        let by = i32::try_from(by).unwrap_or(19);
        rustix::process::setpriority_process(tid, now.saturating_add(by).min(19)).is_ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = by;
        false
    }
}

/// The stack of the portfolio's IC3 thread (address space; only what is touched is memory).
const IC3_STACK: usize = 64 << 20;

/// The IC3 thread's side of the CPU split: IC3 keeps the larger share while it opens frames;
/// once it has spent on one frame at least `portfolio_ic3_stall` queries and as many as it took
/// to reach that frame (a stall), after the BMC thread yielded, the IC3 thread lowers its own
/// priority by the same increment, so both threads get equal shares again: a frame that costs
/// more than all before it is where deep counterexamples hide from IC3 and BMC finds them.
struct StallWatch<'a> {
    limit: u64,
    nice: u32,
    bmc_yielded: &'a AtomicBool,
    frame: usize,
    since: u64,
    /// The most queries IC3 made on one frame (a statistic).
    longest: u64,
    /// Where the IC3 thread lowered its priority.
    equalised: Option<String>,
}

impl<'a> StallWatch<'a> {
    fn new(opts: &Options, bmc_yielded: &'a AtomicBool) -> StallWatch<'a> {
        StallWatch {
            limit: opts.portfolio_ic3_stall,
            nice: opts.portfolio_bmc_nice,
            bmc_yielded,
            frame: 0,
            since: 0,
            longest: 0,
            equalised: None,
        }
    }

    fn observe(&mut self, frame: usize, queries: u64) {
        if frame != self.frame {
            self.frame = frame;
            self.since = queries;
        }
        let on_frame = queries.saturating_sub(self.since);
        self.longest = self.longest.max(on_frame);
        if self.limit > 0
            && on_frame >= self.limit.max(self.since)
            && self.equalised.is_none()
            && self.bmc_yielded.load(Ordering::Relaxed)
        {
            self.equalised = Some(if lower_thread_priority(self.nice) {
                format!("frame {frame}, query {queries}")
            } else {
                "unsupported".into()
            });
        }
    }
}

/// The portfolio in two threads sharing the budget: the bug finders — BMC without a depth bound,
/// with EverLost's slice once BMC has refuted `portfolio_bmc_yield_depth` depths — next to IC3
/// from the start (which proves, and finds counterexamples of its own). With a core each, each
/// thread runs at full speed; when the process gets one core (a loaded machine), the scheduler
/// splits it by the threads' weights:
/// once BMC has refuted `portfolio_bmc_yield_depth` depths (the circuit looks safe-ish), the BMC
/// thread's nice value goes up by `portfolio_bmc_nice` and IC3 gets the larger share (nice 5:
/// weights 1024 to 335, about three quarters). The first thread to decide cancels the other
/// (each runs under its own child of `budget`).
fn portfolio_parallel(
    aig: &Aig,
    opts: &Options,
    budget: &Budget,
) -> (Outcome, Vec<(String, String)>) {
    let (bmc_budget, ic3_budget) = (budget.sub(None), budget.sub(None));
    let bmc_yielded = AtomicBool::new(false);
    // IC3 in a thread of its own too: it may lower its priority (a stall), and that must
    // not outlive the portfolio in the calling thread (a server's or a binding's worker)
    let run_ic3 = || {
        let mut stall = StallWatch::new(opts, &bmc_yielded);
        let (o, s) = ic3_observed(
            aig,
            opts.property,
            opts.ic3_options(),
            &ic3_budget,
            Some(&mut |k, q| stall.observe(k, q)),
        );
        let mut notes = ic3_stats(&s);
        notes.push((
            "ic3_longest_frame_queries".into(),
            stall.longest.to_string(),
        ));
        if let Some(at) = stall.equalised {
            notes.push(("ic3_yielded".into(), at));
        }
        notes.push(("engine".into(), "ic3".into()));
        (o, notes)
    };
    let (bug, proof) = std::thread::scope(|s| {
        let bug = s.spawn(|| {
            let mut yielded = None;
            let mut yield_at = |d: usize| {
                if yielded.is_none() && opts.portfolio_bmc_nice > 0 {
                    yielded = Some(if lower_thread_priority(opts.portfolio_bmc_nice) {
                        bmc_yielded.store(true, Ordering::Relaxed);
                        format!("depth {d}")
                    } else {
                        "unsupported".into()
                    });
                }
            };
            if opts.portfolio_bmc_yield_depth == 0 {
                yield_at(0);
            }
            let yield_depth = opts.portfolio_bmc_yield_depth;
            // EverLost's slice runs in this thread once BMC has refuted the shallow depths (no
            // shallow bug: deep ones are EverLost's), so IC3 starts at once in the other
            let mut everlost: Option<Result<EngineRun, String>> = None;
            let run_everlost = |everlost: &mut Option<_>| {
                if everlost.is_none() && opts.portfolio_everlost_share > 0 {
                    let r = everlost_slice(aig, opts, &bmc_budget);
                    if r.is_ok() {
                        bmc_budget.cancel();
                    }
                    *everlost = Some(r);
                }
            };
            let mut o = bmc_observed(
                aig,
                opts.property,
                opts.bmc_max_depth,
                &bmc_budget,
                &mut |d| {
                    if d + 1 >= yield_depth {
                        // at the thread's full priority: EverLost's slice is wall-clock time
                        run_everlost(&mut everlost);
                        yield_at(d + 1);
                    }
                },
            );
            // BMC stopped at its depth bound before the yield depth (not cancelled by IC3)
            if !decided(&o) && bmc_budget.check().is_ok() {
                run_everlost(&mut everlost);
            }
            let mut notes = Vec::new();
            match everlost {
                Some(Ok((found, st))) => {
                    o = found;
                    notes = st;
                }
                Some(Err(note)) => notes.push(("everlost".to_string(), note)),
                None => {}
            }
            if decided(&o) {
                ic3_budget.cancel();
            }
            (o, yielded, notes)
        });
        let ic3_thread = std::thread::Builder::new()
            .name("verikit-ic3".into())
            .stack_size(IC3_STACK)
            .spawn_scoped(s, run_ic3);
        let proof = match ic3_thread {
            Ok(h) => h.join().unwrap_or_else(|_| {
                let reason = "IC3 thread failed".into();
                (Outcome::Unknown { reason }, Vec::new())
            }),
            // no thread to be had: IC3 here, without the stall rule's yield
            Err(_) => {
                let (o, s) = ic3(aig, opts.property, opts.ic3_options(), &ic3_budget);
                let mut notes = ic3_stats(&s);
                notes.push(("engine".into(), "ic3".into()));
                (o, notes)
            }
        };
        // without a deadline an undecided IC3 (a work or memory limit) must not leave BMC
        // running for ever
        if decided(&proof.0) || budget.deadline().is_none() {
            bmc_budget.cancel();
        }
        // a panicking BMC thread (a bug) leaves the decision to IC3
        let bug = bug.join().unwrap_or_else(|_| {
            let reason = "BMC thread failed".into();
            (Outcome::Unknown { reason }, None, Vec::new())
        });
        (bug, proof)
    });
    let ((bug, yielded, bug_notes), (proof, mut stats)) = (bug, proof);
    if let Some(y) = yielded {
        stats.push(("bmc_yielded".into(), y));
    }
    // IC3 decided first, or both ran out: IC3's outcome with BMC's and EverLost's notes
    if decided(&proof) || !decided(&bug) {
        stats.extend(bug_notes.into_iter().filter(|(k, _)| k != "engine"));
        stats.push(("bmc".into(), undecided_note(&bug)));
        let proof = match (proof, budget.check()) {
            // the parent budget ran out: report that, not the child's cancellation
            (Outcome::Exhausted { reached, .. }, Err(why)) => Outcome::Exhausted {
                why,
                reached: format!("{reached}; {}", undecided_note(&bug)),
            },
            (o, _) => o,
        };
        return (proof, stats);
    }
    // the bug thread decided: by EverLost (its statistics name the engine) or by BMC
    stats.retain(|(k, _)| k != "engine");
    if !bug_notes.iter().any(|(k, _)| k == "engine") {
        stats.push(("engine".into(), "bmc".into()));
    }
    stats.extend(bug_notes);
    (bug, stats)
}

/// The portfolio in one thread (`-x hw.portfolio-parallel=false`): BMC for a share of the time
/// up to a depth, then EverLost for a slice, then IC3.
fn portfolio_sequential(
    aig: &Aig,
    opts: &Options,
    budget: &Budget,
) -> (Outcome, Vec<(String, String)>) {
    let p = opts.property;
    let slice = match budget.remaining() {
        Some(r) => r.mul_f64(opts.portfolio_bmc_share as f64 / 100.0),
        None => Duration::from_secs(2),
    };
    let b = budget.sub(Some(slice));
    let first = bmc(aig, p, Some(opts.portfolio_bmc_depth), &b);
    if let Outcome::Unsafe { .. } = first {
        return (first, vec![("engine".into(), "bmc".into())]);
    }
    let bmc_note = undecided_note(&first);
    if let Err(why) = budget.check() {
        return (
            Outcome::Exhausted {
                why,
                reached: bmc_note,
            },
            vec![],
        );
    }
    // EverLost (C27) for a slice: deep bugs beyond BMC's depth.
    let mut everlost_note = String::new();
    if opts.portfolio_everlost_share > 0 {
        match everlost_slice(aig, opts, budget) {
            Ok((o, mut st)) => {
                st.insert(st.len() - 1, ("bmc".into(), bmc_note));
                return (o, st);
            }
            Err(note) => everlost_note = note,
        }
        if let Err(why) = budget.check() {
            return (
                Outcome::Exhausted {
                    why,
                    reached: format!("{bmc_note}; everlost {everlost_note}"),
                },
                vec![],
            );
        }
    }
    let (o, s) = ic3(aig, p, opts.ic3_options(), budget);
    let mut st = ic3_stats(&s);
    if !everlost_note.is_empty() {
        st.push(("everlost".into(), everlost_note));
    }
    st.push(("bmc".into(), bmc_note));
    st.push(("engine".into(), "ic3".into()));
    (o, st)
}

/// The engine on the reduced circuit (`opts.reduce`: cone of influence with the ternary
/// constants, then latch correspondence within a tenth of the time), its outcome lifted to `aig`.
/// If the budget runs out during the reduction: why, with the statistics gathered so far.
fn reduced_run(
    aig: &Aig,
    opts: &Options,
    budget: &Budget,
) -> Result<EngineRun, (Exhausted, Stats)> {
    if !opts.reduce {
        return Ok(run_engine(aig, opts, budget));
    }
    let t = Instant::now();
    let r1 = coi_reduce(aig, opts.property, budget).map_err(|why| (why, vec![]))?;
    let Some(r1) = r1 else {
        return Ok(run_engine(aig, opts, budget));
    };
    let t_coi = t.elapsed();
    let mut stats = r1.stats();
    stats.push(seconds("seconds_reduce", t_coi));
    let slice = budget
        .remaining()
        .map_or(Duration::from_secs(1), |r| r.mul_f64(0.1));
    // out of its slice, latch correspondence merges nothing
    let eq = latch_correspondence(&r1.aig, &budget.sub(Some(slice))).unwrap_or_default();
    stats.push(seconds("seconds_scorr", t.elapsed() - t_coi));
    let r2 = match budget.check() {
        Ok(()) if eq.iter().any(Option::is_some) => substitute(&r1.aig, 0, eq, budget),
        Ok(()) => Ok(None),
        Err(why) => Err(why),
    };
    let r2 = match r2 {
        Ok(r2) => r2,
        Err(why) => return Err((why, stats)),
    };
    let o = Options {
        property: 0,
        ..opts.clone()
    };
    let outcome = match &r2 {
        Some(r2) => {
            let outcome = fraiged_run(&r2.aig, &o, budget, &mut stats);
            stats.extend(
                r2.stats()
                    .into_iter()
                    .map(|(k, v)| (format!("{k}_scorr"), v)),
            );
            r2.lift(&r1.aig, outcome)
        }
        None => fraiged_run(&r1.aig, &o, budget, &mut stats),
    };
    Ok((r1.lift(aig, outcome), stats))
}

/// A wall-clock duration as a statistic (seconds, millisecond precision).
fn seconds(key: &str, d: Duration) -> (String, String) {
    (key.into(), format!("{:.3}", d.as_secs_f64()))
}

/// The engine on `base` (whose property is 0) after fraiging (`opts.fraig`, within a tenth of
/// the remaining time) and a second cone-of-influence pass, its outcome lifted to `base`.
fn fraiged_run(
    base: &Aig,
    opts: &Options,
    budget: &Budget,
    stats: &mut Vec<(String, String)>,
) -> Outcome {
    if opts.fraig {
        let slice = budget
            .remaining()
            .map_or(Duration::from_secs(1), |r| r.mul_f64(0.1));
        let t = Instant::now();
        let f = fraig(base, &budget.sub(Some(slice)));
        stats.push(seconds("seconds_fraig", t.elapsed()));
        if let Ok(Some(f)) = f {
            let none = vec![None; f.aig.latches.len()];
            if let Ok(Some(r)) = substitute(&f.aig, 0, none, budget) {
                let (o, s) = run_engine(&r.aig, opts, budget);
                stats.extend(s);
                stats.push(("fraig_merged".into(), f.merged.to_string()));
                stats.push(("fraig_checks".into(), f.checks.to_string()));
                stats.extend(
                    (r.stats().into_iter())
                        .filter(|(k, _)| k != "replaced_latches")
                        .map(|(k, v)| (format!("{k}_fraig"), v)),
                );
                return f.lift(base, r.lift(&f.aig, o));
            }
        }
    }
    let (o, s) = run_engine(base, opts, budget);
    stats.extend(s);
    o
}

fn everlost_stats(s: &crate::everlost::EverLostStats) -> Vec<(String, String)> {
    vec![
        (
            "everlost_abstract_latches".into(),
            s.abstract_latches.to_string(),
        ),
        ("everlost_rings".into(), s.rings.to_string()),
        ("everlost_cycles".into(), s.cycles.to_string()),
        (
            "everlost_best_ring".into(),
            s.best_ring.map_or("none".into(), |d| d.to_string()),
        ),
    ]
}

fn ic3_stats(s: &crate::ic3::Ic3Stats) -> Vec<(String, String)> {
    let mut v = vec![
        ("ic3_frames".into(), s.frames.to_string()),
        ("ic3_queries".into(), s.queries.to_string()),
        ("ic3_obligations".into(), s.obligations.to_string()),
        ("ic3_clauses".into(), s.clauses.to_string()),
        ("ic3_rebuilds".into(), s.rebuilds.to_string()),
        ("ic3_cone_switches".into(), s.cone_switches.to_string()),
        ("ic3_lift_queries".into(), s.lift_queries.to_string()),
        ("ic3_requeued".into(), s.requeued.to_string()),
        ("ic3_contained".into(), s.contained.to_string()),
        ("ic3_subsumed".into(), s.subsumed.to_string()),
    ];
    for (name, n) in crate::ic3::Phase::NAMES.iter().zip(s.phase_queries) {
        v.push((format!("ic3_queries_{name}"), n.to_string()));
    }
    v
}

/// Decides the property `opts` names: the liveness property `opts.live` if set (a lasso
/// counterexample replayed on the circuit, or a liveness-to-safety invariant re-checked by SAT),
/// otherwise safety property `opts.property` as [`check`]. An LTL formula that does not parse or
/// names no signal of the circuit, or a missing justice property, is an error.
pub fn check_property(aig: &Aig, opts: &Options, budget: &Budget) -> Result<Report, Diagnostic> {
    let Some(live) = &opts.live else {
        return Ok(check(aig, opts, budget));
    };
    let start = Instant::now();
    let set = LiveSettings {
        engine: match opts.engine {
            Engine::Bmc => LiveEngine::Bmc,
            Engine::Kind => LiveEngine::Kind,
            Engine::Ic3 => LiveEngine::Ic3,
            Engine::EverLost => {
                return Err(Diagnostic::error(
                    "the everlost engine finds safety bugs only; use bmc, kind, ic3 or portfolio for liveness",
                ))
            }
            Engine::Portfolio => LiveEngine::Portfolio {
                share: opts.portfolio_bmc_share,
                depth: opts.portfolio_bmc_depth,
            },
        },
        max_bound: opts.bmc_max_depth,
        ic3: opts.ic3_options(),
        simple_path: opts.kind_simple_path,
        reduce: opts.reduce,
    };
    let (a, witness, stats) = check_live(aig, live, &set, budget)?;
    let a = a
        .input("inputs", aig.inputs.len())
        .input("latches", aig.latches.len())
        .input("ands", aig.ands.len())
        .input("constraints", aig.constraints.len())
        .input(
            "property",
            match live {
                Liveness::Justice(j) => format!("justice {j}"),
                Liveness::Ltl(f) => format!("ltl {f}"),
            },
        );
    let engine = stats
        .iter()
        .find(|(k, _)| k == "engine")
        .map_or(opts.engine.name(), |(_, v)| v.as_str())
        .to_string();
    let rest: Vec<(String, String)> = stats.into_iter().filter(|(k, _)| k != "engine").collect();
    Ok(finish(a, &engine, &rest, start, witness))
}

/// Decides safety property `opts.property` of `aig` with the chosen engine. `safe` is verdict
/// `true` (the invariant, re-checked by SAT, is the witness); `unsafe` is `false` with the AIGER
/// witness, replayed on the circuit before it is reported.
pub fn check(aig: &Aig, opts: &Options, budget: &Budget) -> Report {
    let start = Instant::now();
    let props = aig.properties().len();
    let base = |a: Answer| {
        a.input("inputs", aig.inputs.len())
            .input("latches", aig.latches.len())
            .input("ands", aig.ands.len())
            .input("constraints", aig.constraints.len())
            .input("property", opts.property)
    };
    if opts.property >= props {
        let msg = if props == 0 {
            "the circuit has no safety property (no bad-state literal and no output; justice and fairness properties are not supported)".to_string()
        } else {
            format!(
                "no property {}: the circuit has {props} (0..{props})",
                opts.property
            )
        };
        return Report {
            answer: base(
                Answer::decision(Verdict::Error)
                    .detail("error", &msg)
                    .line(format!("error: {msg}")),
            ),
            witness: None,
        };
    }
    let (outcome, stats) = match reduced_run(aig, opts, budget) {
        Ok(x) => x,
        Err((why, stats)) => (
            Outcome::Exhausted {
                why,
                reached: "reducing the circuit".into(),
            },
            stats,
        ),
    };
    let mut engine = opts.engine.name().to_string();
    let mut a = match outcome {
        Outcome::Safe(proof) => {
            let (cert, text, check) = match &proof {
                Proof::Invariant(cl) => {
                    let check = check_invariant(aig, opts.property, cl, &Budget::unlimited());
                    (
                        serde_json::json!({ "invariant": cl }),
                        format!("safe: inductive invariant of {} clauses over latches", cl.len()),
                        check,
                    )
                }
                Proof::KInduction { k } => (
                    serde_json::json!({ "k_induction": k }),
                    format!("safe: the property is {k}-inductive (simple paths) and holds up to depth {k}"),
                    Ok(()),
                ),
            };
            if let Err(e) = check {
                Answer::decision(Verdict::Error)
                    .detail(
                        "error",
                        format!("internal: the invariant failed its check: {e}"),
                    )
                    .line(format!(
                        "internal error: the invariant failed its check: {e}"
                    ))
            } else {
                Answer::decision(Verdict::True)
                    .detail("result", "safe")
                    .witness(cert)
                    .line(text)
            }
        }
        Outcome::Unsafe { witness, depth } => match replay(aig, &witness, opts.property) {
            Ok(r) => {
                let a = Answer::decision(Verdict::False)
                    .detail("result", "unsafe")
                    .detail("depth", depth)
                    .detail("replay", format!("ok: property fails at frame {}", r.frame))
                    .witness(serde_json::json!({ "aiger": witness.to_text(), "depth": depth }))
                    .line(format!(
                        "unsafe: counterexample of depth {depth} (replayed on the circuit)"
                    ));
                return finish(base(a), &engine, &stats, start, Some(witness));
            }
            Err(e) => Answer::decision(Verdict::Error)
                .detail(
                    "error",
                    format!("internal: the counterexample does not replay: {e}"),
                )
                .line(format!(
                    "internal error: the counterexample does not replay: {e}"
                )),
        },
        Outcome::Unknown { reason } => Answer::decision(Verdict::Unknown)
            .detail("reason", &reason)
            .line(format!("unknown: {reason}")),
        Outcome::Exhausted { why, reached } => {
            engine = opts.engine.name().to_string();
            exhausted_answer(&why, &reached)
        }
    };
    a = base(a);
    finish(a, &engine, &stats, start, None)
}

fn finish(
    mut a: Answer,
    engine: &str,
    stats: &[(String, String)],
    start: Instant,
    witness: Option<Witness>,
) -> Report {
    a = a.detail("engine", engine);
    for (k, v) in stats {
        a = a.stat(k, v);
    }
    a = a.time("check", start.elapsed().as_secs_f64());
    Report { answer: a, witness }
}

/// `verikit aig info`: sizes, sections, reset kinds and symbols of a circuit.
pub fn info(aig: &Aig) -> Answer {
    let count = |r: Reset| aig.latches.iter().filter(|l| l.reset == r).count();
    let props = if aig.bad.is_empty() {
        "outputs (pre-1.9 file)"
    } else {
        "bad-state literals"
    };
    Answer::new()
        .input("maxvar", aig.maxvar)
        .input("inputs", aig.inputs.len())
        .input("latches", aig.latches.len())
        .input("outputs", aig.outputs.len())
        .input("ands", aig.ands.len())
        .input("bad", aig.bad.len())
        .input("constraints", aig.constraints.len())
        .input("justice", aig.justice.len())
        .input("fairness", aig.fairness.len())
        .detail("latches_reset_0", count(Reset::Zero))
        .detail("latches_reset_1", count(Reset::One))
        .detail("latches_uninitialised", count(Reset::Uninit))
        .detail("properties", aig.properties().len())
        .detail("properties_from", props)
        .detail("symbols", aig.symbols.len())
        .line(format!(
            "M {} I {} L {} O {} A {} B {} C {} J {} F {}",
            aig.maxvar,
            aig.inputs.len(),
            aig.latches.len(),
            aig.outputs.len(),
            aig.ands.len(),
            aig.bad.len(),
            aig.constraints.len(),
            aig.justice.len(),
            aig.fairness.len()
        ))
        .line(format!(
            "latches: {} reset to 0, {} reset to 1, {} uninitialised",
            count(Reset::Zero),
            count(Reset::One),
            count(Reset::Uninit)
        ))
        .line(format!(
            "safety properties: {} ({props})",
            aig.properties().len()
        ))
}

#[cfg(test)]
mod tests {
    /// IC3's stall rule: a frame stalls once it has taken `portfolio_ic3_stall` queries and as
    /// many as all frames before it, and only after the BMC thread has yielded; then (in a
    /// thread of its own here: it lowers the calling thread's priority) the IC3 thread yields.
    #[test]
    fn ic3_yields_on_a_frame_that_costs_more_than_all_before_it() {
        use super::{Options, StallWatch};
        use std::sync::atomic::{AtomicBool, Ordering};
        let opts = Options {
            portfolio_ic3_stall: 100,
            ..Options::default()
        };
        std::thread::spawn(move || {
            let yielded = AtomicBool::new(false);
            let mut w = StallWatch::new(&opts, &yielded);
            // frames 1..=3 in 320 queries, frame 4 from query 320
            for (frame, q) in [(1, 64), (2, 128), (3, 256), (4, 320), (4, 700)] {
                w.observe(frame, q);
            }
            assert_eq!(w.equalised, None, "BMC has not yielded");
            yielded.store(true, Ordering::Relaxed);
            w.observe(5, 704);
            w.observe(5, 1000);
            assert_eq!(
                w.equalised, None,
                "296 queries on frame 5, fewer than the 704 before"
            );
            w.observe(5, 1408);
            assert!(w.equalised.is_some());
            assert_eq!(w.longest, 704);
            let off = Options {
                portfolio_ic3_stall: 0,
                ..Options::default()
            };
            let mut w = StallWatch::new(&off, &yielded);
            w.observe(1, 100_000);
            assert_eq!(w.equalised, None, "0 = never");
        })
        .join()
        .unwrap();
    }

    /// The portfolio's BMC thread lowers its own priority, not the process's: the calling
    /// thread's nice value goes up by the increment, the spawning thread's stays.
    #[cfg(target_os = "linux")]
    #[test]
    fn lowering_the_priority_touches_the_calling_thread_only() {
        use rustix::{process::getpriority_process, thread::gettid};
        let main = getpriority_process(Some(gettid())).unwrap();
        let (before, after, changed) = std::thread::spawn(|| {
            let me = Some(gettid());
            let before = getpriority_process(me).unwrap();
            let changed = super::lower_thread_priority(3);
            (before, getpriority_process(me).unwrap(), changed)
        })
        .join()
        .unwrap();
        assert!(changed);
        assert_eq!(after, (before + 3).min(19));
        assert_eq!(getpriority_process(Some(gettid())).unwrap(), main);
    }
}
