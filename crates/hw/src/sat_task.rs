//! What `verikit sat` asks, as library calls: [`solve_cnf`] (DIMACS in, the SAT competition's
//! answer lines or the usual `Answer`, the model checked against the clauses before it is
//! printed, an optional DRAT proof) and [`core_cnf`] (an unsatisfiable core of a `.cnf` or a
//! group core of a `.gcnf` by deletion-based MUS extraction, the DRAT checker's core, or Trimmer —
//! C13 — once or till fix; the core re-checked unsatisfiable by a fresh solve whose proof the
//! independent checker verifies); and [`bmc_cnf`], the BMC unrolling of a circuit as a CNF.

use crate::mus::{mus, MusResult};
use crate::refute::{refute, Refutation};
use crate::trimmer::{trimmer, TrimResult, TrimStats};
use crate::unroll::Unroller;
use verikit_aiger::Aig;
use verikit_diag::{Answer, Budget, Diagnostic, Exhausted, Verdict};
use verikit_sat::{
    dimacs, Cdcl, Cnf, Gcnf, Lit, NoTheory, ProofLog, SatBackend, SatResult, Var, VarCount,
};

/// Options of `verikit sat`.
#[derive(Default)]
pub struct SatOptions {
    /// Log a DRAT proof here.
    pub proof: Option<ProofLog>,
    /// Answer in the SAT competition's format (`s …`, `v … 0`).
    pub competition: bool,
    /// The solver (`--backend`, `-x sat.backend`).
    pub backend: Backend,
}

/// The SAT backend of a plain solve (decision 0008).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// The own CDCL core (DRAT proofs available).
    #[default]
    Cdcl,
    /// CaDiCaL through `rustsat` (the cargo feature `cadical`).
    Cadical,
}

impl Backend {
    pub fn parse(s: &str) -> Option<Backend> {
        match s {
            "cdcl" => Some(Backend::Cdcl),
            "cadical" => Some(Backend::Cadical),
            _ => None,
        }
    }
    /// Whether this build has the backend.
    pub fn available(self) -> bool {
        self == Backend::Cdcl || cfg!(feature = "cadical")
    }
}

/// The `-x sat.*` tuning parameters.
pub const SAT_PARAMS: &[verikit_diag::Param] = &[verikit_diag::Param {
    name: "sat.backend",
    default: "cdcl",
    range: "cdcl|cadical",
    doc: "verikit sat: the solver (cadical needs a build with the `cadical` feature)",
}];

/// A plain solve on a [`SatBackend`]: the result, the model (one value per variable), and why it
/// stopped if the budget ran out.
fn solve_plain(
    sat: &mut dyn SatBackend,
    cnf: &Cnf,
    budget: &Budget,
) -> (SatResult, Vec<bool>, Option<Exhausted>) {
    for _ in sat.num_vars()..cnf.num_vars {
        sat.new_var();
    }
    for c in &cnf.clauses {
        sat.add_clause(c);
    }
    let r = sat.solve(&[], budget);
    let model = if r == SatResult::Sat {
        (0..cnf.num_vars)
            .map(|v| sat.model_value(Lit::pos(v)) == Some(true))
            .collect()
    } else {
        Vec::new()
    };
    (r, model, sat.exhausted())
}

#[cfg(feature = "cadical")]
fn cadical() -> Result<Box<dyn SatBackend>, Diagnostic> {
    Ok(Box::new(verikit_sat::CadicalBackend::new()))
}

#[cfg(not(feature = "cadical"))]
fn cadical() -> Result<Box<dyn SatBackend>, Diagnostic> {
    Err(Diagnostic::error(
        "this build has no CaDiCaL backend (build with the cargo feature `cadical`)",
    ))
}

/// The answer and, in competition mode, the solver exit code (10 SAT, 20 UNSAT, 0 unknown).
pub struct SatRun {
    pub answer: Answer,
    pub competition_exit: Option<i32>,
}

fn dimacs_lit(l: Lit) -> i64 {
    let v = i64::from(l.var()) + 1;
    if l.is_neg() {
        -v
    } else {
        v
    }
}

fn exhausted_verdict(e: Exhausted) -> Verdict {
    match e {
        Exhausted::Timeout | Exhausted::Cancelled => Verdict::Timeout,
        _ => Verdict::Unknown,
    }
}

/// Decides a DIMACS CNF.
pub fn solve_cnf(text: &str, opts: SatOptions, budget: &Budget) -> Result<SatRun, Diagnostic> {
    let cnf = dimacs::parse(text)?;
    if opts.backend == Backend::Cadical {
        if opts.proof.is_some() {
            return Err(Diagnostic::error(
                "--proof needs the cdcl backend (CaDiCaL is used here without proof output)",
            ));
        }
        let mut b = cadical()?;
        let (r, model, exh) = solve_plain(b.as_mut(), &cnf, budget);
        let answer = Answer::default()
            .input("variables", cnf.num_vars)
            .input("clauses", cnf.clauses.len())
            .detail("backend", b.name());
        return finish_solve(&cnf, opts.competition, r, model, exh, answer);
    }
    let competition = opts.competition;
    let mut s = Cdcl::new();
    let logging = opts.proof.is_some();
    if let Some(p) = opts.proof {
        s.set_proof(p);
    }
    for _ in 0..cnf.num_vars {
        s.new_var();
    }
    for c in &cnf.clauses {
        s.add_clause(&mut NoTheory, c);
    }
    s.set_budget(budget.clone());
    s.report_progress(true);
    let r = s.solve(&mut NoTheory, &[]);
    let model: Vec<bool> = if r == SatResult::Sat {
        (0..cnf.num_vars)
            .map(|v| s.value(Lit::pos(v)) == Some(true))
            .collect()
    } else {
        Vec::new()
    };
    let mut answer = Answer::default()
        .input("variables", cnf.num_vars)
        .input("clauses", cnf.clauses.len());
    let st = s.stats.clone();
    if logging {
        if let Some(p) = s.take_proof() {
            let (a, d) = p.counts();
            answer = answer.stat("proof_additions", a).stat("proof_deletions", d);
            if let Err(e) = p.finish() {
                return Err(Diagnostic::error(format!("cannot write the proof: {e}")));
            }
        }
    }
    answer = answer
        .detail("backend", "cdcl")
        .stat("conflicts", st.conflicts)
        .stat("decisions", st.decisions)
        .stat("propagations", st.propagations)
        .stat("restarts", st.restarts)
        .stat("learnt_clauses", st.learnt_clauses)
        .stat("deleted_clauses", st.deleted_clauses);
    let exh = s.exhausted();
    finish_solve(&cnf, competition, r, model, exh, answer)
}

/// The answer of a solve: the model checked against the clauses, the competition lines.
fn finish_solve(
    cnf: &Cnf,
    competition: bool,
    r: SatResult,
    model: Vec<bool>,
    exh: Option<Exhausted>,
    mut answer: Answer,
) -> Result<SatRun, Diagnostic> {
    let (verdict, word, status, exit) = match r {
        SatResult::Sat => {
            if !cnf.satisfied_by(|v: Var| model.get(v as usize).copied().unwrap_or(false)) {
                return Ok(SatRun {
                    answer: answer
                        .with_verdict(Verdict::Error)
                        .detail("result", "error")
                        .line("internal error: the model does not satisfy the clauses"),
                    competition_exit: competition.then_some(0),
                });
            }
            (Verdict::True, "sat", "s SATISFIABLE", 10)
        }
        SatResult::Unsat => (Verdict::False, "unsat", "s UNSATISFIABLE", 20),
        SatResult::Unknown => (
            exhausted_verdict(exh.unwrap_or(Exhausted::Timeout)),
            "unknown",
            "s UNKNOWN",
            0,
        ),
    };
    let lits: Vec<i64> = model
        .iter()
        .enumerate()
        .map(|(v, &b)| dimacs_lit(Lit::new(v as u32, !b)))
        .collect();
    answer = answer.with_verdict(verdict).detail("result", word);
    if competition {
        answer = answer.line(status);
        if r == SatResult::Sat {
            for chunk in lits.chunks(16) {
                let mut line = String::from("v");
                for l in chunk {
                    line.push_str(&format!(" {l}"));
                }
                answer = answer.line(line);
            }
            answer = answer.line("v 0");
        }
    } else {
        answer = answer.line(word);
    }
    if r == SatResult::Sat {
        answer = answer.witness(serde_json::json!({ "model": lits }));
    }
    Ok(SatRun {
        answer,
        competition_exit: competition.then_some(exit),
    })
}

/// How `verikit sat core` shrinks a core.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CoreMethod {
    /// Deletion-based MUS extraction with clause-set refinement (minimal).
    Mus,
    /// The same with recursive model rotation (Marques-Silva & Lynce, SAT 2011).
    MusRotate,
    /// The core of the checked DRAT proof of one solve.
    Proof,
    /// One Trimmer run (C13 §4).
    Trimmer,
    /// Trimmer till fix (C13 §6).
    #[default]
    TrimTillFix,
}

impl CoreMethod {
    pub fn parse(s: &str) -> Option<CoreMethod> {
        Some(match s {
            "mus" => CoreMethod::Mus,
            "mus-rotate" => CoreMethod::MusRotate,
            "proof" => CoreMethod::Proof,
            "trimmer" => CoreMethod::Trimmer,
            "trim-till-fix" => CoreMethod::TrimTillFix,
            _ => return None,
        })
    }
    fn name(self) -> &'static str {
        match self {
            CoreMethod::Mus => "mus",
            CoreMethod::MusRotate => "mus-rotate",
            CoreMethod::Proof => "proof",
            CoreMethod::Trimmer => "trimmer",
            CoreMethod::TrimTillFix => "trim-till-fix",
        }
    }
}

/// A computed core: the answer and the core as a formula (`.cnf` or `.gcnf` text).
pub struct CoreRun {
    pub answer: Answer,
    pub core_text: Option<String>,
    /// Soft groups of the core (clause numbers from 1 for a plain CNF).
    pub groups: Vec<u32>,
}

/// The formula of a core: hard clauses and those of the core's groups.
fn core_formula(g: &Gcnf, groups: &[u32]) -> Vec<Vec<Lit>> {
    g.clauses
        .iter()
        .zip(&g.groups)
        .filter(|(_, k)| **k == 0 || groups.binary_search(k).is_ok())
        .map(|(c, _)| c.clone())
        .collect()
}

/// An unsatisfiable core of a DIMACS CNF or a group core of a `.gcnf` (told apart by the
/// header).
pub fn core_cnf(text: &str, method: CoreMethod, budget: &Budget) -> Result<CoreRun, Diagnostic> {
    let is_gcnf = text
        .lines()
        .map(str::trim_start)
        .find(|l| l.starts_with('p'))
        .is_some_and(|l| l.split_whitespace().nth(1) == Some("gcnf"));
    let g = if is_gcnf {
        dimacs::parse_gcnf(text)?
    } else {
        Gcnf::from_cnf(dimacs::parse(text)?)
    };
    let mut answer = Answer::default()
        .input("variables", g.num_vars)
        .input("clauses", g.clauses.len())
        .input("groups", g.num_groups)
        .detail("method", method.name());
    let mut model = None;
    let mut initial: Option<usize> = None;
    let mut minimal = false;
    let mut stopped: Option<Exhausted> = None;
    let groups: Option<Vec<u32>> = match method {
        CoreMethod::Mus | CoreMethod::MusRotate => {
            let mut calls = 0;
            let r = mus(&g, method == CoreMethod::MusRotate, budget, &mut calls);
            answer = answer.stat("sat_calls", calls);
            match r {
                MusResult::Sat(m) => {
                    model = Some(m);
                    None
                }
                MusResult::Mus(gs) => {
                    minimal = true;
                    Some(gs)
                }
                MusResult::Stopped(e, gs) => {
                    stopped = Some(e);
                    gs
                }
            }
        }
        CoreMethod::Proof => match refute(g.num_vars, &g.clauses, budget) {
            Refutation::Sat(m) => {
                model = Some(m);
                None
            }
            Refutation::Stopped(e) => {
                stopped = Some(e);
                None
            }
            Refutation::BadProof(m) => {
                return Ok(internal_error(answer, &m));
            }
            Refutation::Unsat(_, ck) => {
                let mut gs: Vec<u32> = ck
                    .core
                    .iter()
                    .filter_map(|&i| g.groups.get(i).copied())
                    .filter(|&k| k != 0)
                    .collect();
                gs.sort_unstable();
                gs.dedup();
                Some(gs)
            }
        },
        CoreMethod::Trimmer | CoreMethod::TrimTillFix => {
            let mut st = TrimStats::default();
            let r = trimmer(&g, method == CoreMethod::TrimTillFix, budget, &mut st);
            answer = answer.stat("trimmer", &st);
            match r {
                TrimResult::Sat(m) => {
                    model = Some(m);
                    None
                }
                TrimResult::Stopped(e) => {
                    stopped = Some(e);
                    None
                }
                TrimResult::Failed(m) => return Ok(internal_error(answer, &m)),
                TrimResult::Core {
                    groups,
                    initial: init,
                    complete,
                    stopped: st,
                } => {
                    initial = Some(init.len());
                    if !complete {
                        stopped = st;
                    }
                    Some(groups)
                }
            }
        }
    };
    if let Some(m) = model {
        let lits: Vec<i64> = m
            .iter()
            .take(g.num_vars as usize)
            .enumerate()
            .map(|(v, &b)| dimacs_lit(Lit::new(v as u32, !b)))
            .collect();
        return Ok(CoreRun {
            answer: answer
                .with_verdict(Verdict::True)
                .detail("result", "sat")
                .line("sat: no unsatisfiable core")
                .witness(serde_json::json!({ "model": lits })),
            core_text: None,
            groups: Vec::new(),
        });
    }
    let Some(gs) = groups else {
        let e = stopped.unwrap_or(Exhausted::Timeout);
        return Ok(CoreRun {
            answer: answer
                .with_verdict(exhausted_verdict(e))
                .detail("result", "unknown")
                .line(format!("stopped ({e:?}) before a core was found")),
            core_text: None,
            groups: Vec::new(),
        });
    };
    // re-check: a fresh solve of the core whose proof the independent checker verifies
    let formula = core_formula(&g, &gs);
    let checked = match refute(g.num_vars, &formula, budget) {
        Refutation::Unsat(..) => Some(true),
        Refutation::Sat(_) => {
            return Ok(internal_error(answer, "the computed core is satisfiable"));
        }
        Refutation::Stopped(_) => None,
        Refutation::BadProof(m) => return Ok(internal_error(answer, &m)),
    };
    let size = if is_gcnf { gs.len() } else { formula.len() };
    answer = answer
        .with_verdict(Verdict::False)
        .detail("result", "unsat")
        .detail("core_size", size)
        .detail("minimal", minimal)
        .detail("complete", stopped.is_none())
        .detail("core_checked", checked.unwrap_or(false));
    if let Some(i) = initial {
        answer = answer.detail("initial_core_size", i);
    }
    let what = if is_gcnf { "groups" } else { "clauses" };
    answer = answer
        .witness(serde_json::json!({ what: gs }))
        .line(format!(
            "unsat: core of {size} {what}{}{}",
            if minimal { " (minimal)" } else { "" },
            if stopped.is_some() {
                " (stopped early)"
            } else {
                ""
            }
        ));
    let core_text = if is_gcnf {
        let mut t = format!("p gcnf {} {} {}\n", g.num_vars, formula.len(), g.num_groups);
        for (c, k) in g.clauses.iter().zip(&g.groups) {
            if *k == 0 || gs.binary_search(k).is_ok() {
                t.push_str(&format!("{{{k}}}"));
                for &l in c {
                    t.push_str(&format!(" {}", dimacs_lit(l)));
                }
                t.push_str(" 0\n");
            }
        }
        t
    } else {
        Cnf {
            num_vars: g.num_vars,
            clauses: formula,
        }
        .to_dimacs()
    };
    Ok(CoreRun {
        answer,
        core_text: Some(core_text),
        groups: gs,
    })
}

fn internal_error(answer: Answer, msg: &str) -> CoreRun {
    CoreRun {
        answer: answer
            .with_verdict(Verdict::Error)
            .detail("result", "error")
            .line(format!("internal error: {msg}")),
        core_text: None,
        groups: Vec::new(),
    }
}

/// Collects the clauses an unroller produces.
#[derive(Default)]
struct Recorder {
    vars: VarCount,
    clauses: Vec<Vec<Lit>>,
}

impl SatBackend for Recorder {
    fn name(&self) -> &'static str {
        "recorder"
    }
    fn new_var(&mut self) -> Var {
        self.vars.fresh()
    }
    fn num_vars(&self) -> u32 {
        self.vars.get()
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        self.vars.cover(lits);
        self.clauses.push(lits.to_vec());
    }
    fn solve(&mut self, _: &[Lit], _: &Budget) -> SatResult {
        SatResult::Unknown
    }
    fn model_value(&self, _: Lit) -> Option<bool> {
        None
    }
    fn failed_assumptions(&self) -> Vec<Lit> {
        Vec::new()
    }
    fn exhausted(&self) -> Option<Exhausted> {
        None
    }
}

/// The BMC instance "safety property `prop` fails within `k` transitions" of a circuit as a CNF
/// (Tseitin clauses of the cone of the property in frames `0..=k`, reset values, invariant
/// constraints in every frame, one clause `bad_0 ∨ … ∨ bad_k`): unsatisfiable iff no
/// counterexample of length ≤ `k` exists.
pub fn bmc_cnf(aig: &Aig, prop: usize, k: usize) -> Result<Cnf, String> {
    let Some(&bad) = aig.properties().get(prop) else {
        return Err(format!("the circuit has no safety property {prop}"));
    };
    let mut rec = Recorder::default();
    let mut un = Unroller::new(aig, &mut rec, true);
    let mut bads = Vec::new();
    for f in 0..=k {
        for &c in &aig.constraints {
            let l = un.lit(&mut rec, f, c);
            rec.add_clause(&[l]);
        }
        bads.push(un.lit(&mut rec, f, bad));
    }
    rec.add_clause(&bads);
    Ok(Cnf {
        num_vars: rec.vars.get(),
        clauses: rec.clauses,
    })
}
