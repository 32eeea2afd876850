//! `verikit prog` as library calls: a task (`.yml`) or a C file → lowering → engine → `Answer`,
//! with the counterexample replayed by gcc; `to_chc` and `dump_cfa` for the emitters.

use crate::abstract_post::Abstraction;
use crate::bmc::{check_bound, BmcResult};
use crate::cegar::{cegar, CegarOutcome};
use crate::cfa::Cfa;
use crate::error::ProgError;
use crate::impact::{impact, ImpactResult};
use crate::invariant_check::check_invariant;
use crate::kind::{k_induction, KindResult};
use crate::load::load_c;
use crate::lower::LowerOptions;
use crate::options::{big_stack, Engine, VerifyOptions};
use crate::replay::{replay_with_gcc, Replay};
use crate::summary_bmc::{summary_bmc, SummaryResult};
use crate::svtask::read_task;
use std::path::{Path, PathBuf};
use verikit_diag::{Answer, Budget, Exhausted, SourceFile, Verdict};

fn unknown(reason: &str) -> Answer {
    Answer::decision(Verdict::Unknown).detail("reason", reason)
}

/// Resolves a task or C path: the C file and, for a task, the expected verdict (or an answer
/// when the task has no `unreach-call` property).
fn resolve(path: &Path) -> Result<(PathBuf, Option<bool>, Option<Answer>), ProgError> {
    let is_yml = path.extension().is_some_and(|e| e == "yml" || e == "yaml");
    if !is_yml {
        return Ok((path.to_path_buf(), None, None));
    }
    let src = SourceFile::read(path).map_err(|d| ProgError::Input(Box::new(d)))?;
    let task = read_task(path, &src)?;
    match task.unreach_call() {
        Some(expected) => Ok((task.input, expected, None)),
        None => {
            let props: Vec<String> = task.properties.iter().map(|p| p.name.clone()).collect();
            let a = unknown(&format!(
                "only unreach-call is checked; the task's properties are {}",
                props.join(", ")
            ));
            Ok((task.input, None, Some(a)))
        }
    }
}

/// `--engine spacer` on a program: its Horn clauses (`chc`) solved by `spacer`; `true` with the
/// model checked against the emitted clauses (an inductive invariant per location; a cut
/// recursive call counts as an error, so `sat` is still a proof). A derivation of `false` is not
/// a replayable C counterexample: `unknown`, naming the engine that finds one.
fn spacer_on_cfa(cfa: &Cfa, budget: &Budget) -> Result<Answer, ProgError> {
    let Some(text) = crate::chc::to_chc(cfa) else {
        return Ok(unknown("the automaton is too large for its Horn clauses"));
    };
    let opts = VerifyOptions {
        engine: Engine::Spacer,
        wrap: false,
        max_bound: 1,
        boolean: true,
        max_k: 1,
        preprocess: true,
        witness: None,
        replay_dir: None,
    };
    let a = crate::chc_task::solve_chc_text(&text, &opts, budget)?;
    let result = a
        .detail
        .get("result")
        .and_then(|v| v.as_str())
        .unwrap_or("");
    Ok(match result {
        "sat" => {
            let mut t = Answer::decision(Verdict::True)
                .detail("engine", "spacer")
                .detail("proof", "a model of the program's Horn clauses (an inductive invariant per location), checked by the SMT solver against every clause");
            if let Some(w) = a.witness.clone() {
                t = t.witness(w);
            }
            t
        }
        "unsat" => unknown("spacer derived false from the program's Horn clauses; the derivation is not a replayable C counterexample (--engine bmc finds one)"),
        _ => {
            let why = a.detail.get("reason").and_then(|v| v.as_str()).unwrap_or("");
            let v = if budget.check().is_err() { Verdict::Timeout } else { Verdict::Unknown };
            Answer::decision(v).detail("reason", why.to_string())
        }
    })
}

/// Verifies `unreach-call` for a task or C file.
pub fn verify(path: &Path, opts: &VerifyOptions, budget: &Budget) -> Result<Answer, ProgError> {
    let (p, o, b) = (path.to_path_buf(), opts.clone(), budget.clone());
    big_stack(move || verify_inner(&p, &o, &b))
}

fn verify_inner(path: &Path, opts: &VerifyOptions, budget: &Budget) -> Result<Answer, ProgError> {
    let (c_file, expected, early) = resolve(path)?;
    let base = |a: Answer| {
        let a = a.input("file", c_file.display().to_string());
        match expected {
            Some(e) => a.input("expected_verdict", e),
            None => a,
        }
    };
    if let Some(a) = early {
        return Ok(base(a));
    }
    let lower = |rec: usize| LowerOptions {
        wrap: opts.wrap,
        max_recursion: rec,
        ..LowerOptions::default()
    };
    let first = match load_c(&c_file, lower(1)) {
        Ok(c) => c,
        Err(ProgError::Unsupported(why)) => return Ok(base(unknown(&why))),
        Err(e) => return Err(e),
    };
    let recursive = first.cuts > 0;
    let cfa = first;
    let (nlocs, nedges, nvars) = (cfa.nlocs, cfa.edges.len(), cfa.vars.len());
    let sizes = |a: Answer| {
        a.stat("locations", nlocs)
            .stat("edges", nedges)
            .stat("variables", nvars)
    };
    // Recursion through procedure summaries (module `chc`): the Horn clauses of the program
    // with every recursive call beyond depth 1 a call of its function's summary.
    let summarised = |c: &Cfa| -> Result<Option<Cfa>, ProgError> {
        if c.cuts == 0 {
            return Ok(None);
        }
        match load_c(
            &c_file,
            LowerOptions {
                summaries: true,
                ..lower(1)
            },
        ) {
            Ok(s) => Ok(Some(s)),
            Err(ProgError::Unsupported(_)) => Ok(None),
            Err(e) => Err(e),
        }
    };
    if opts.engine == Engine::Spacer {
        let s = summarised(&cfa)?;
        return Ok(base(sizes(spacer_on_cfa(
            s.as_ref().unwrap_or(&cfa),
            budget,
        )?)));
    }
    if opts.engine == Engine::Summaries {
        let a = match summarised(&cfa)? {
            Some(s) => summaries_on(&s, &c_file, opts, budget),
            None => {
                unknown("no recursive function to summarise (--engine bmc decides the program)")
            }
        };
        return Ok(base(sizes(a)));
    }
    if opts.engine == Engine::Portfolio && recursive {
        // Bounded summaries first (bugs, and proofs at any call depth the summaries reach), with
        // half of the time; then Spacer on the summary clauses for a proof (it needs a
        // recursive invariant where the summaries never complete), with half of the rest; then
        // bounded model checking with deepening inlining. Shares of both clocks
        // (`Budget::share`): under a CPU-time limit they are shares of CPU time.
        let s = summarised(&cfa)?;
        let mut notes = Vec::new();
        if let Some(s) = &s {
            let a = summaries_on(s, &c_file, opts, &budget.share(0.5, None));
            if matches!(a.verdict, Some(Verdict::True) | Some(Verdict::False)) {
                return Ok(base(sizes(a)));
            }
            if let Some(n) = a.detail.get("reason").and_then(|v| v.as_str()) {
                notes.push(("summaries", n.to_string()));
            }
            let sa = spacer_on_cfa(s, &budget.share(0.5, None))?;
            if sa.verdict == Some(Verdict::True) {
                return Ok(base(sizes(sa.detail("recursion", "procedure summaries"))));
            }
            let why = sa
                .detail
                .get("reason")
                .and_then(|v| v.as_str())
                .unwrap_or("");
            notes.push(("spacer", format!("spacer on procedure summaries: {why}")));
        }
        let mut a = bmc_deepening(cfa.clone(), &c_file, opts, &lower, true, budget)?;
        if matches!(a.verdict, Some(Verdict::True) | Some(Verdict::False)) {
            return Ok(base(sizes(a)));
        }
        for (k, n) in notes {
            a = a.detail(k, n);
        }
        if budget.check().is_err() {
            a.verdict = Some(Verdict::Timeout);
        }
        return Ok(base(sizes(a)));
    }
    // On a program with loops predicate abstraction first (on the loop tasks it answers in
    // hundredths of a second where IMPACT spends seconds), with half of the time.
    let run_cegar =
        opts.engine == Engine::Cegar || (opts.engine == Engine::Portfolio && !cfa.is_acyclic());
    let mut cegar_note = None;
    if run_cegar {
        let sub = member_budget(opts, Engine::Cegar, budget);
        let mode = if opts.boolean {
            Abstraction::Boolean
        } else {
            Abstraction::Cartesian
        };
        match cegar(&cfa, mode, &sub) {
            Ok(run) => {
                let stats = |a: Answer| {
                    a.stat("refinements", run.refinements)
                        .stat("predicates", run.predicates)
                        .stat("abstract_states", run.states)
                };
                match run.outcome {
                    CegarOutcome::Safe(inv) => match check_invariant(&cfa, &inv) {
                        Ok(()) => {
                            return Ok(base(stats(sizes(safe_answer(
                                &cfa, "cegar", &inv, &c_file, opts,
                            )))))
                        }
                        Err(why) => {
                            cegar_note =
                                Some(format!("cegar invariant rejected by the checker: {why}"))
                        }
                    },
                    CegarOutcome::Counterexample(values, n) => {
                        let a = false_answer("cegar", &values, &cfa, &c_file, opts);
                        let a = match n {
                            Some(n) => a.detail(
                                "loop",
                                format!("counterexample through a counting loop iterated {n} times (closed form)"),
                            ),
                            None => a,
                        };
                        return Ok(base(stats(sizes(a))));
                    }
                    CegarOutcome::GaveUp(why) => cegar_note = Some(format!("cegar gave up: {why}")),
                }
            }
            Err(e) => cegar_note = Some(format!("cegar: {}", e.verdict_word())),
        }
        if opts.engine == Engine::Cegar {
            let v = if budget.check().is_err() {
                Verdict::Timeout
            } else {
                Verdict::Unknown
            };
            let reason = cegar_note.unwrap_or_default();
            return Ok(base(sizes(Answer::decision(v).detail("reason", reason))));
        }
    }
    // IMPACT where predicate abstraction did not finish; BMC decides acyclic programs.
    let run_impact =
        opts.engine == Engine::Impact || (opts.engine == Engine::Portfolio && !cfa.is_acyclic());
    let mut impact_note = None;
    if run_impact {
        let sub = member_budget(opts, Engine::Impact, budget);
        match impact(&cfa, &sub) {
            Ok(ImpactResult::Safe(inv)) => match check_invariant(&cfa, &inv) {
                Ok(()) => {
                    return Ok(base(sizes(safe_answer(
                        &cfa, "impact", &inv, &c_file, opts,
                    ))))
                }
                Err(why) => {
                    impact_note = Some(format!("impact invariant rejected by the checker: {why}"))
                }
            },
            Ok(ImpactResult::FeasiblePath) => {
                impact_note =
                    Some("impact: a path to the error is feasible over the rationals".into())
            }
            Ok(ImpactResult::GaveUp(why)) => impact_note = Some(format!("impact gave up: {why}")),
            Err(e) => impact_note = Some(format!("impact: {}", e.verdict_word())),
        }
        if opts.engine == Engine::Impact {
            let reason = impact_note.unwrap_or_default();
            let v = if budget.check().is_err() {
                Verdict::Timeout
            } else {
                Verdict::Unknown
            };
            return Ok(base(sizes(Answer::decision(v).detail("reason", reason))));
        }
    }
    if opts.engine == Engine::Kind {
        let a = match k_induction(&cfa, opts.max_k, budget) {
            Ok(KindResult::Inductive(k)) => with_witness(Answer::decision(Verdict::True)
                .detail("engine", "kind")
                .detail("proof", format!("the error location is unreachable: `pc ∉ {{error, cut}}` is {k}-inductive with simple-path constraints — the base cases of 0..{} steps and the induction step of {k} steps refuted by the SMT solver", k - 1))
                .stat("k", k), opts, |t| correctness_witness(opts, &c_file, t, &cfa, &[], &[]), &c_file),
            Ok(KindResult::Counterexample(values, steps)) => {
                false_answer("kind", &values, &cfa, &c_file, opts).stat("steps", steps)
            }
            Ok(KindResult::GaveUp(why)) => unknown(&why),
            Err(e) => Answer::decision(if budget.check().is_err() {
                Verdict::Timeout
            } else {
                Verdict::Unknown
            })
            .detail("reason", format!("k-induction: {}", e.verdict_word())),
        };
        return Ok(base(sizes(a)));
    }
    let with_note = |a: Answer| {
        let a = match &impact_note {
            Some(n) => a.detail("impact", n.clone()),
            None => a,
        };
        match &cegar_note {
            Some(n) => a.detail("cegar", n.clone()),
            None => a,
        }
    };
    let a = bmc_deepening(cfa, &c_file, opts, &lower, recursive, budget)?;
    Ok(base(with_note(sizes(a))))
}

/// The budget of `engine` in the loop programs' portfolio: all of it when the user chose that
/// engine alone, else half of what is left on both clocks.
fn member_budget(opts: &VerifyOptions, engine: Engine, budget: &Budget) -> Budget {
    if opts.engine == engine {
        budget.clone()
    } else {
        budget.share(0.5, None)
    }
}

/// Bounded procedure summaries (module `summary_bmc`) on an automaton lowered with summaries.
fn summaries_on(s: &Cfa, c_file: &Path, opts: &VerifyOptions, budget: &Budget) -> Answer {
    match summary_bmc(s, opts.max_bound.max(1000), budget) {
        Ok(SummaryResult::Safe(d, cert)) => {
            let sums: Vec<serde_json::Value> = cert
                .iter()
                .map(|c| serde_json::json!({ "function": c.name, "summary": c.summary }))
                .collect();
            Answer::decision(Verdict::True)
                .detail("engine", "summaries")
                .detail("proof", format!("complete at call depth {d}: with the exact summaries of the calls that nest at most {d} deep, no execution reaches the error or a deeper call; each function's summary (any output for an input whose calls nest deeper) re-validated by the SMT solver: inductive over its loop-free body, and the entry function with them does not reach the error"))
                .witness(serde_json::json!({ "summaries": sums }))
                .stat("depth", d)
        }
        Ok(SummaryResult::Counterexample(cex, d)) => {
            false_answer("summaries", &cex, s, c_file, opts).stat("depth", d)
        }
        Ok(SummaryResult::GaveUp(why)) => unknown(&format!("summaries: {why}")),
        Err(e) => Answer::decision(if budget.check().is_err() {
            Verdict::Timeout
        } else {
            Verdict::Unknown
        })
        .detail("reason", format!("summaries: {}", e.verdict_word())),
    }
}

/// Bounded model checking with a doubling bound (and, on a recursive program, the inlining
/// depth doubled with it) until a counterexample, a complete unwinding, `prog.max-bound` or the
/// end of the budget.
fn bmc_deepening(
    mut cfa: Cfa,
    c_file: &Path,
    opts: &VerifyOptions,
    lower: &dyn Fn(usize) -> LowerOptions,
    recursive: bool,
    budget: &Budget,
) -> Result<Answer, ProgError> {
    let mut k = 1usize;
    let mut reached = 0usize;
    loop {
        if recursive && k > 1 {
            cfa = match load_c(c_file, lower(k)) {
                Ok(c) => c,
                Err(ProgError::Unsupported(why)) => {
                    return Ok(unknown(&format!("recursion deeper than {}: {why}", k - 1))
                        .stat("bound", reached))
                }
                Err(e) => return Err(e),
            };
        }
        match check_bound(&cfa, k, budget) {
            Err(e) => {
                let a = Answer::decision(if e == Exhausted::Cancelled || e == Exhausted::Timeout {
                    Verdict::Timeout
                } else {
                    Verdict::Unknown
                })
                .detail(
                    "reason",
                    format!(
                        "{}; no counterexample up to bound {reached}",
                        e.verdict_word()
                    ),
                )
                .stat("bound", reached);
                return Ok(a);
            }
            Ok(BmcResult::Counterexample(values, bound, lines)) => {
                let cex: Vec<(i128, u32)> = values.into_iter().zip(lines).collect();
                let a = false_answer("bmc", &cex, &cfa, c_file, opts).stat("bound", bound);
                return Ok(a);
            }
            Ok(BmcResult::Safe) => {
                let a = Answer::decision(Verdict::True)
                    .detail("engine", "bmc")
                    .detail("proof", format!("complete unwinding: at bound {k} no execution reaches the error, the unwinding bound or a cut recursive call"))
                    .stat("bound", k);
                return Ok(a);
            }
            Ok(BmcResult::Bounded { cut }) => {
                reached = k;
                let _ = cut;
                if k >= opts.max_bound {
                    let a = unknown(&format!("no counterexample up to bound {k} (prog.max-bound), and the unwinding is not complete"))
                        .stat("bound", k);
                    return Ok(a);
                }
                k = (k * 2).min(opts.max_bound);
            }
        }
    }
}

/// Writes the witness file when one is asked for; the answer says where (or why not).
fn with_witness(
    a: Answer,
    opts: &VerifyOptions,
    make: impl FnOnce(&[u8]) -> Result<String, String>,
    c_file: &Path,
) -> Answer {
    let Some(out) = &opts.witness else { return a };
    let written = std::fs::read(c_file)
        .map_err(|e| format!("cannot read {}: {e}", c_file.display()))
        .and_then(|text| make(&text))
        .and_then(|y| {
            std::fs::write(out, y).map_err(|e| format!("cannot write {}: {e}", out.display()))
        });
    match written {
        Ok(()) => a.detail("witness_file", out.display().to_string()),
        Err(e) => a.detail("witness_file", format!("not written: {e}")),
    }
}

/// A witness file named `*.graphml` is written in the GraphML format 1.0, any other in YAML 2.0.
fn graphml(opts: &VerifyOptions) -> bool {
    opts.witness
        .as_ref()
        .and_then(|p| p.extension())
        .is_some_and(|e| e.eq_ignore_ascii_case("graphml"))
}

fn correctness_witness(
    opts: &VerifyOptions,
    c_file: &Path,
    text: &[u8],
    cfa: &Cfa,
    inv: &[Vec<Vec<crate::cfa::Atom>>],
    heads: &[usize],
) -> Result<String, String> {
    if graphml(opts) {
        crate::graphml_witness::correctness(c_file, text, cfa, inv, heads)
    } else {
        crate::sv_witness::correctness(c_file, text, cfa, inv, heads)
    }
}

/// Loop heads of the automaton (targets of the back edges of a depth-first search).
fn loop_heads(cfa: &Cfa) -> Vec<usize> {
    let (back, _) = crate::bmc::back_edges(cfa);
    let mut v: Vec<usize> = cfa
        .edges
        .iter()
        .zip(back)
        .filter(|(_, b)| *b)
        .map(|(e, _)| e.to)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// `true` with the checked invariant as the witness.
fn safe_answer(
    cfa: &Cfa,
    engine: &str,
    inv: &crate::Invariant,
    c_file: &Path,
    opts: &VerifyOptions,
) -> Answer {
    let a = safe_answer_text(cfa, engine, inv);
    let heads = loop_heads(cfa);
    with_witness(
        a,
        opts,
        |t| correctness_witness(opts, c_file, t, cfa, inv, &heads),
        c_file,
    )
}

fn safe_answer_text(cfa: &Cfa, engine: &str, inv: &crate::Invariant) -> Answer {
    let text: Vec<serde_json::Value> = inv
        .iter()
        .enumerate()
        .filter(|(_, d)| !d.is_empty())
        .map(|(l, d)| serde_json::json!({ "location": l, "invariant": crate::cfa::show_dnf(d, &|x| cfa.var_name(x)) }))
        .collect();
    Answer::decision(Verdict::True)
        .detail("engine", engine)
        .detail("proof", "inductive invariant, checked by the SMT solver (initiation, consecution on every edge, safety)")
        .witness(serde_json::json!({ "invariants": text }))
}

/// `false` with the nondeterministic values, replayed with gcc when a scratch directory is set.
fn false_answer(
    engine: &str,
    cex: &[(i128, u32)],
    cfa: &Cfa,
    c_file: &Path,
    opts: &VerifyOptions,
) -> Answer {
    let values: Vec<i128> = cex.iter().map(|c| c.0).collect();
    let a = false_answer_replayed(engine, &values, c_file, opts);
    // The reach_error call: the line of the edges into the error location.
    let target = cfa
        .edges
        .iter()
        .filter(|e| e.to == cfa.error && e.line > 0)
        .map(|e| e.line)
        .min()
        .unwrap_or(0);
    with_witness(
        a,
        opts,
        |t| {
            if graphml(opts) {
                crate::graphml_witness::violation(c_file, t, cex, target)
            } else {
                crate::sv_witness::violation(c_file, t, cex, target)
            }
        },
        c_file,
    )
}

fn false_answer_replayed(
    engine: &str,
    values: &[i128],
    c_file: &Path,
    opts: &VerifyOptions,
) -> Answer {
    let mut a = Answer::decision(Verdict::False)
        .detail("engine", engine)
        .witness(serde_json::json!({ "nondet": values.iter().map(|v| v.to_string()).collect::<Vec<_>>() }));
    if let Some(dir) = &opts.replay_dir {
        let r = replay_with_gcc(c_file, values, dir);
        a = a.detail(
            "replay",
            match r {
                Replay::Reached => "reach_error reached".to_string(),
                Replay::NotReached(w) => format!("not reached ({w})"),
                Replay::Failed(w) => format!("failed: {w}"),
            },
        );
    }
    a
}

/// The automaton of a C file as Graphviz DOT.
pub fn dump_cfa(c_file: &Path, wrap: bool) -> Result<String, ProgError> {
    let c_file = c_file.to_path_buf();
    big_stack(move || dump_cfa_inner(&c_file, wrap))
}

fn dump_cfa_inner(c_file: &Path, wrap: bool) -> Result<String, ProgError> {
    let cfa = load_c(
        c_file,
        LowerOptions {
            wrap,
            ..LowerOptions::default()
        },
    )?;
    Ok(cfa.to_dot())
}

/// The bounded model checking query of a C file at unwinding bound `bound` as an SMT-LIB script
/// (QF_LIA; `sat` = `reach_error()` is reachable within the bound).
pub fn to_smt_text(
    c_file: &Path,
    wrap: bool,
    bound: usize,
    budget: &Budget,
) -> Result<String, ProgError> {
    let (c_file, budget) = (c_file.to_path_buf(), budget.clone());
    big_stack(move || {
        let cfa = load_c(
            &c_file,
            LowerOptions {
                wrap,
                max_recursion: bound,
                ..LowerOptions::default()
            },
        )?;
        crate::bmc::query_text(&cfa, bound, &budget)
            .map_err(|e| ProgError::Tool(e.verdict_word().to_string()))
    })
}

/// The CHC (SMT-LIB HORN) encoding of a C file (recursion inlined to `depth`, deeper calls
/// through procedure summaries).
pub fn to_chc_text(c_file: &Path, wrap: bool, depth: usize) -> Result<String, ProgError> {
    let c_file = c_file.to_path_buf();
    big_stack(move || to_chc_inner(&c_file, wrap, depth))
}

fn to_chc_inner(c_file: &Path, wrap: bool, depth: usize) -> Result<String, ProgError> {
    let cfa: Cfa = load_c(
        c_file,
        LowerOptions {
            wrap,
            max_recursion: depth,
            summaries: true,
            ..LowerOptions::default()
        },
    )?;
    crate::chc::to_chc(&cfa).ok_or_else(|| {
        ProgError::Unsupported(format!(
            "automaton too large for the CHC emitter ({} locations × {} variables)",
            cfa.nlocs,
            cfa.vars.len()
        ))
    })
}

/// IMPACT alone on an automaton: the invariant when it proves the error unreachable (for
/// callers that check it themselves, as the tests do with [`crate::check_invariant`]).
pub fn impact_invariant(cfa: &Cfa, budget: &Budget) -> Option<crate::invariant_check::Invariant> {
    match impact(cfa, budget) {
        Ok(ImpactResult::Safe(inv)) => Some(inv),
        _ => None,
    }
}

/// Predicate abstraction alone on an automaton: the invariant when it proves the error
/// unreachable (for callers that check it themselves with [`crate::check_invariant`]).
pub fn cegar_invariant(
    cfa: &Cfa,
    boolean: bool,
    budget: &Budget,
) -> Option<crate::invariant_check::Invariant> {
    let mode = if boolean {
        Abstraction::Boolean
    } else {
        Abstraction::Cartesian
    };
    match cegar(cfa, mode, budget) {
        Ok(run) => match run.outcome {
            CegarOutcome::Safe(inv) => Some(inv),
            _ => None,
        },
        Err(_) => None,
    }
}
