//! The SMT-LIB 2.6 command interpreter (the standard's Section 4): executes a script and collects
//! the responses exactly as the standard prints them (`sat`, `unsat`, `unknown`, `success`,
//! `unsupported`, models as `define-fun`s, `(error "…")`). What happens after an error is
//! [`OnError`]: a script read from a file stops at its first error (`:error-behavior
//! immediate-exit`, as Yices does, so that an `assert` dropped by an error never turns into an
//! answer for a different problem); an interactive session goes on with the next command
//! (`continued-execution`, as the standard asks). An unreadable rest of the input (a lexical or
//! parenthesis error) stops both. After an unsupported `set-logic` (QF_BV, …) every `check-sat`
//! answers `unknown`, its reason naming the logic, until a supported logic is set.

use crate::check::Value;
use crate::elab::{err, parse_sort, Binding, Elab, Env, LogicCaps};
use crate::smtlib::{parse_script, SExpr, SExprKind, TokenKind};
use crate::solver::{Solver, SolverStats};
use crate::terms::{Sort, TermId};
use std::collections::HashMap;
use verikit_diag::{line_col, Budget, Diagnostic};
use verikit_sat::SatResult;

/// What the interpreter does after a command fails (SMT-LIB `:error-behavior`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnError {
    /// Go on with the next command, the failed one having no effect (`continued-execution`,
    /// the standard's behaviour for interactive sessions).
    #[default]
    Continue,
    /// Stop at the first error (`immediate-exit`): nothing after it is executed or printed.
    Stop,
}

/// Tuning of the solver behind the interpreter (the `-x smt.…` parameters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Let the difference-logic solver decide checks whose atoms are all difference atoms.
    pub difference_logic: bool,
    /// Largest constraint graph (in nodes) the all-pairs distance matrix serves.
    pub dl_matrix_nodes: usize,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            difference_logic: true,
            dl_matrix_nodes: crate::difference_logic::MATRIX_LIMIT,
        }
    }
}

/// How to run a script.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Validate models and Farkas certificates.
    pub check: bool,
    /// The time budget of the whole script (a `check-sat` that runs out answers `unknown`).
    pub budget: Budget,
    /// What to do after an error.
    pub on_error: OnError,
    /// Solver tuning.
    pub tuning: Tuning,
}

/// A fresh solver set up as `opts` asks.
fn new_solver(opts: &RunOptions) -> Solver {
    let mut solver = Solver::new();
    if opts.check {
        solver.enable_certificates();
    }
    solver.set_budget(&opts.budget);
    solver.set_dl_matrix_limit(opts.tuning.dl_matrix_nodes);
    if !opts.tuning.difference_logic {
        solver.set_difference_logic(false);
    }
    solver
}

/// One `check-sat`/`check-sat-assuming` and what was verified about it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CheckRecord {
    pub answer: String,
    /// Why an `unknown` answer is unknown (`timeout`, `incomplete`, an unsupported logic).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Model of a `sat` answer: (name, sort, SMT-LIB value).
    pub model: Option<Vec<(String, String, String)>>,
    /// `--check`: the model satisfies every assertion in scope.
    pub model_valid: Option<bool>,
    /// `--check`: number of theory certificates verified during this check and failures.
    pub certificates_checked: u64,
    pub certificate_failures: Vec<String>,
}

/// The outcome of a whole script.
#[derive(Clone, Debug, Default)]
pub struct ScriptOutput {
    /// Responses, one per line group, as the standard prints them.
    pub responses: Vec<String>,
    pub checks: Vec<CheckRecord>,
    /// Errors (also printed as `(error …)` responses), with spans.
    pub errors: Vec<Diagnostic>,
    /// `(set-info :status …)` of the script, if any.
    pub status: Option<String>,
    pub stats: SolverStats,
    pub timed_out: bool,
}

/// Receives every response as soon as its command has finished (interactive use).
pub type ResponseSink = Box<dyn FnMut(&str)>;

pub struct Interp {
    /// Everything read so far (spans refer to it).
    text: String,
    sink: Option<ResponseSink>,
    stopped: bool,
    solver: Solver,
    env: Env,
    caps: LogicCaps,
    logic: Option<String>,
    /// The last `set-logic` named a logic this solver does not decide: `check-sat` answers
    /// `unknown` with this reason.
    unsupported: Option<String>,
    /// The reason of the last `unknown` answer (`get-info :reason-unknown`).
    reason_unknown: Option<String>,
    produce_cores: bool,
    print_success: bool,
    silent: bool,
    /// Named assertions per scope (used as assumptions when unsat cores are on).
    named: Vec<Vec<(String, TermId)>>,
    /// User-declared constants per scope.
    decls: Vec<Vec<(String, TermId, Sort)>>,
    last: Option<SatResult>,
    last_assumptions: Vec<TermId>,
    opts: RunOptions,
    out: ScriptOutput,
    options: HashMap<String, String>,
}

fn quote_symbol(s: &str) -> String {
    let simple = !s.is_empty()
        && !s.as_bytes()[0].is_ascii_digit()
        && s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"~!@$%^&*_-+=<>.?/".contains(&c));
    if simple {
        s.to_string()
    } else {
        format!("|{s}|")
    }
}

fn escape_string(s: &str) -> String {
    s.replace('"', "\"\"")
}

impl Interp {
    pub fn new(opts: RunOptions) -> Interp {
        let solver = new_solver(&opts);
        Interp {
            text: String::new(),
            sink: None,
            stopped: false,
            solver,
            env: Env::new(),
            caps: LogicCaps {
                ints: true,
                reals: true,
            },
            logic: None,
            unsupported: None,
            reason_unknown: None,
            produce_cores: false,
            print_success: false,
            silent: false,
            named: vec![Vec::new()],
            decls: vec![Vec::new()],
            last: None,
            last_assumptions: Vec::new(),
            opts,
            out: ScriptOutput {
                responses: Vec::new(),
                checks: Vec::new(),
                errors: Vec::new(),
                status: None,
                stats: SolverStats::default(),
                timed_out: false,
            },
            options: HashMap::new(),
        }
    }

    /// Streams every response to `sink` as soon as it is produced (they are still collected).
    pub fn with_sink(mut self, sink: ResponseSink) -> Interp {
        self.sink = Some(sink);
        self
    }

    fn emit(&mut self, s: String) {
        if let Some(f) = self.sink.as_mut() {
            f(&s);
        }
        self.out.responses.push(s);
    }

    fn respond(&mut self, s: String) {
        if !self.silent {
            self.emit(s);
        }
    }

    fn success(&mut self) {
        if self.print_success {
            self.respond("success".into());
        }
    }

    fn error(&mut self, d: Diagnostic) {
        let msg = match d.span {
            Some(sp) => {
                let (l, c) = line_col(&self.text, sp.start);
                format!("line {l} column {c}: {}", d.message)
            }
            None => d.message.clone(),
        };
        // Errors go to the regular output as the standard's `(error "…")` response.
        self.emit(format!("(error \"{}\")", escape_string(&msg)));
        self.out.errors.push(d);
    }

    /// Runs the whole script.
    pub fn run(mut self, text: &str) -> ScriptOutput {
        self.feed(text);
        self.finish()
    }

    /// Executes the commands of `chunk` (whole commands; the rest of a script that is read
    /// piecewise). Returns false once the script has ended (`exit`, a timeout, or an unreadable
    /// rest of the input); later chunks are then ignored.
    pub fn feed(&mut self, chunk: &str) -> bool {
        if self.stopped {
            return false;
        }
        let base = self.text.len();
        self.text.push_str(chunk);
        let (mut forms, mut perr) = parse_script(chunk);
        if base > 0 {
            for f in forms.iter_mut() {
                crate::smtlib::stream::shift_sexpr(f, base);
            }
        }
        for f in &forms {
            match self.command(f) {
                Ok(true) => {}
                Ok(false) => {
                    self.stopped = true;
                    break;
                }
                Err(d) => {
                    self.error(d);
                    if self.opts.on_error == OnError::Stop {
                        self.stopped = true;
                        break;
                    }
                }
            }
            if self.out.timed_out {
                self.stopped = true;
                break;
            }
        }
        if let Some(e) = perr.as_mut() {
            if !self.stopped {
                crate::smtlib::stream::shift_diagnostic(e, base);
                self.error(e.clone());
            }
        }
        !self.stopped
    }

    /// Everything fed so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Ends the script and returns all responses, checks and statistics.
    pub fn finish(mut self) -> ScriptOutput {
        self.take_output()
    }

    /// The responses and statistics so far, leaving the interpreter in place (a command-line
    /// caller about to exit may then skip freeing the solver's state).
    pub fn take_output(&mut self) -> ScriptOutput {
        self.out.stats = self.solver.stats();
        std::mem::take(&mut self.out)
    }

    fn elab(&mut self) -> Elab<'_> {
        Elab {
            terms: &mut self.solver.terms,
            env: &mut self.env,
            caps: self.caps,
        }
    }

    fn term(&mut self, e: &SExpr) -> Result<TermId, Diagnostic> {
        self.env.named.clear();
        let t = self.elab().term(e)?;
        let named = std::mem::take(&mut self.env.named);
        for (n, v) in named {
            self.env.bind(&n, Binding::Term(v));
        }
        Ok(t)
    }

    /// Executes one command; Ok(false) stops (`exit`).
    fn command(&mut self, f: &SExpr) -> Result<bool, Diagnostic> {
        let items = f
            .list()
            .ok_or_else(|| err(f.span, "expected a command `( … )`"))?;
        let (head, args) = items
            .split_first()
            .ok_or_else(|| err(f.span, "empty command"))?;
        let name = head
            .symbol()
            .ok_or_else(|| err(head.span, "expected a command name"))?;
        match name {
            "set-logic" => {
                let l = args
                    .first()
                    .and_then(|a| a.symbol())
                    .ok_or_else(|| err(f.span, "expected a logic name"))?;
                if self.logic.is_some() {
                    return Err(err(f.span, "the logic is already set"));
                }
                self.caps = match l {
                    "QF_LRA" | "QF_RDL" => LogicCaps {
                        ints: false,
                        reals: true,
                    },
                    "QF_LIA" | "QF_IDL" => LogicCaps {
                        ints: true,
                        reals: false,
                    },
                    "QF_LIRA" | "ALL" => LogicCaps {
                        ints: true,
                        reals: true,
                    },
                    _ => {
                        self.unsupported = Some(format!("unsupported logic {l}"));
                        return Err(err(
                            args[0].span,
                            format!("unsupported logic `{l}` (supported: QF_LRA, QF_RDL, QF_LIA, QF_IDL, QF_LIRA)"),
                        ));
                    }
                };
                self.unsupported = None;
                self.logic = Some(l.to_string());
                self.success();
            }
            "set-option" => {
                let k = args
                    .first()
                    .and_then(|a| a.keyword())
                    .ok_or_else(|| err(f.span, "expected an option keyword"))?;
                let v = args.get(1);
                let vtext = v
                    .map(|v| {
                        self.text
                            .get(v.span.start..v.span.end)
                            .unwrap_or("")
                            .to_string()
                    })
                    .unwrap_or_default();
                let as_bool = || match vtext.as_str() {
                    "true" => Ok(true),
                    "false" => Ok(false),
                    _ => Err(err(
                        v.map_or(f.span, |v| v.span),
                        "expected `true` or `false`",
                    )),
                };
                match k {
                    ":produce-models"
                    | ":produce-assignments"
                    | ":produce-proofs"
                    | ":interactive-mode"
                    | ":produce-assertions"
                    | ":global-declarations" => {
                        as_bool()?;
                        self.options.insert(k.into(), vtext.clone());
                        self.success();
                    }
                    ":produce-unsat-cores" => {
                        self.produce_cores = as_bool()?;
                        self.options.insert(k.into(), vtext.clone());
                        self.success();
                    }
                    ":print-success" => {
                        self.print_success = as_bool()?;
                        self.options.insert(k.into(), vtext.clone());
                        self.success();
                    }
                    ":regular-output-channel" => {
                        let ch = match v.map(|v| &v.kind) {
                            Some(SExprKind::Atom(TokenKind::Str(s))) => s.clone(),
                            _ => return Err(err(f.span, "expected a string")),
                        };
                        self.silent = ch != "stdout";
                        self.success();
                    }
                    ":diagnostic-output-channel"
                    | ":random-seed"
                    | ":verbosity"
                    | ":reproducible-resource-limit" => {
                        self.options.insert(k.into(), vtext.clone());
                        self.success();
                    }
                    _ => self.respond("unsupported".into()),
                }
            }
            "set-info" => {
                let k = args
                    .first()
                    .and_then(|a| a.keyword())
                    .ok_or_else(|| err(f.span, "expected an info keyword"))?;
                if k == ":status" {
                    self.out.status = args.get(1).and_then(|a| a.symbol()).map(|s| s.to_string());
                }
                self.success();
            }
            "get-info" => {
                let k = args
                    .first()
                    .and_then(|a| a.keyword())
                    .ok_or_else(|| err(f.span, "expected an info keyword"))?;
                let r = match k {
                    ":name" => "(:name \"verikit\")".to_string(),
                    ":version" => format!("(:version \"{}\")", env!("CARGO_PKG_VERSION")),
                    ":authors" => "(:authors \"the verikit developers\")".to_string(),
                    ":error-behavior" => match self.opts.on_error {
                        OnError::Continue => "(:error-behavior continued-execution)".to_string(),
                        OnError::Stop => "(:error-behavior immediate-exit)".to_string(),
                    },
                    ":reason-unknown" => {
                        match self.reason_unknown.as_deref() {
                            Some(r @ ("timeout" | "incomplete" | "memout")) => {
                                format!("(:reason-unknown {r})")
                            }
                            Some(r) => format!("(:reason-unknown \"{}\")", escape_string(r)),
                            None => return Err(err(
                                f.span,
                                "no reason available (the last check-sat did not answer unknown)",
                            )),
                        }
                    }
                    ":all-statistics" => {
                        let s = self.solver.stats();
                        format!(
                            "(:decisions {} :conflicts {} :propagations {} :pivots {} :restarts {})",
                            s.sat.decisions, s.sat.conflicts, s.sat.propagations, s.pivots, s.sat.restarts
                        )
                    }
                    _ => "unsupported".to_string(),
                };
                self.respond(r);
            }
            "get-option" => {
                let k = args
                    .first()
                    .and_then(|a| a.keyword())
                    .ok_or_else(|| err(f.span, "expected an option keyword"))?;
                let v = self
                    .options
                    .get(k)
                    .cloned()
                    .unwrap_or_else(|| "unsupported".into());
                self.respond(v);
            }
            "declare-fun" | "declare-const" => {
                let n = args
                    .first()
                    .and_then(|a| a.symbol())
                    .ok_or_else(|| err(f.span, "expected a symbol"))?;
                let sort_e = if name == "declare-fun" {
                    let ps = args
                        .get(1)
                        .and_then(|a| a.list())
                        .ok_or_else(|| err(f.span, "expected a parameter sort list"))?;
                    if !ps.is_empty() {
                        return Err(err(
                            args[1].span,
                            "uninterpreted functions are not part of the linear-arithmetic logics",
                        ));
                    }
                    args.get(2)
                } else {
                    args.get(1)
                };
                let sort_e = sort_e.ok_or_else(|| err(f.span, "expected a sort"))?;
                let s = parse_sort(sort_e)?;
                self.check_sort_allowed(s, sort_e)?;
                if self.env.is_bound(n) {
                    return Err(err(args[0].span, format!("`{n}` is already declared")));
                }
                let t = self.solver.declare(n, s);
                self.env.bind(n, Binding::Term(t));
                if let Some(d) = self.decls.last_mut() {
                    d.push((n.to_string(), t, s));
                }
                self.success();
            }
            "define-fun" => {
                let (n, ps, rs, body) = match args {
                    [n, ps, rs, body] => (n, ps, rs, body),
                    _ => return Err(err(f.span, "expected `(define-fun name ((x S) …) S body)`")),
                };
                let n = n
                    .symbol()
                    .ok_or_else(|| err(n.span, "expected a symbol"))?
                    .to_string();
                if self.env.is_bound(&n) {
                    return Err(err(args[0].span, format!("`{n}` is already declared")));
                }
                let pl = ps
                    .list()
                    .ok_or_else(|| err(ps.span, "expected a parameter list"))?;
                let mut params = Vec::new();
                for p in pl {
                    match p.list() {
                        Some([pn, ps2]) => {
                            let pn = pn
                                .symbol()
                                .ok_or_else(|| err(pn.span, "expected a symbol"))?;
                            params.push((pn.to_string(), parse_sort(ps2)?));
                        }
                        _ => return Err(err(p.span, "expected `(name Sort)`")),
                    }
                }
                let ret = parse_sort(rs)?;
                // Check the body once with fresh placeholders for the parameters.
                self.env.push();
                for (pn, s) in &params {
                    let t = self.solver.declare(&format!("{pn}!param"), *s);
                    self.env.bind(pn, Binding::Term(t));
                }
                let r = self.term(body);
                self.env.pop();
                let t = r?;
                let got = self.solver.terms.sort(t);
                if got != ret && !(ret == Sort::Real && got == Sort::Int) {
                    return Err(err(
                        body.span,
                        format!("body has sort {}, expected {}", got.name(), ret.name()),
                    ));
                }
                if params.is_empty() {
                    let t = self.term(body)?;
                    let t = if ret == Sort::Real && got == Sort::Int {
                        self.solver
                            .terms
                            .mk(crate::terms::Op::ToReal, vec![t], Sort::Real)
                    } else {
                        t
                    };
                    self.env.bind(&n, Binding::Term(t));
                } else {
                    self.env.bind(
                        &n,
                        Binding::Macro {
                            params,
                            body: body.clone(),
                            ret,
                        },
                    );
                }
                self.success();
            }
            "declare-sort" | "define-sort" | "declare-datatype" | "declare-datatypes"
            | "define-fun-rec" | "define-funs-rec" => {
                return Err(err(
                    head.span,
                    format!("`{name}` is not supported in the linear-arithmetic logics"),
                ));
            }
            "assert" => {
                let a = args.first().ok_or_else(|| err(f.span, "expected a term"))?;
                let top_named = match a.list() {
                    Some(l) if l.first().and_then(|h| h.symbol()) == Some("!") => l
                        .iter()
                        .position(|x| x.keyword() == Some(":named"))
                        .and_then(|i| l.get(i + 1))
                        .and_then(|x| x.symbol()),
                    _ => None,
                };
                let t = self.term(a)?;
                if self.solver.terms.sort(t) != Sort::Bool {
                    return Err(err(a.span, "assertions must be Boolean"));
                }
                match top_named {
                    Some(n) if self.produce_cores => {
                        if let Some(v) = self.named.last_mut() {
                            v.push((n.to_string(), t));
                        }
                    }
                    _ => self.solver.assert(t),
                }
                self.last = None;
                self.success();
            }
            "check-sat" => {
                let assume: Vec<TermId> = self.named.iter().flatten().map(|(_, t)| *t).collect();
                self.do_check(assume, Vec::new());
            }
            "check-sat-assuming" => {
                let l = args
                    .first()
                    .and_then(|a| a.list())
                    .ok_or_else(|| err(f.span, "expected a list of literals"))?;
                let mut ts = Vec::new();
                for e in l {
                    let ok_shape = e.symbol().is_some()
                        || e.list().is_some_and(|x| {
                            x.len() == 2 && x[0].symbol() == Some("not") && x[1].symbol().is_some()
                        });
                    if !ok_shape {
                        return Err(err(
                            e.span,
                            "check-sat-assuming takes Boolean constants or their negations",
                        ));
                    }
                    let t = self.term(e)?;
                    if self.solver.terms.sort(t) != Sort::Bool {
                        return Err(err(e.span, "assumptions must be Boolean"));
                    }
                    ts.push(t);
                }
                let mut assume: Vec<TermId> =
                    self.named.iter().flatten().map(|(_, t)| *t).collect();
                assume.extend(ts.iter().copied());
                self.do_check(assume, ts);
            }
            "get-model" => {
                if self.last != Some(SatResult::Sat) {
                    return Err(err(
                        f.span,
                        "no model available (the last check-sat did not answer sat)",
                    ));
                }
                let mut s = String::from("(\n");
                let decls: Vec<(String, TermId, Sort)> =
                    self.decls.iter().flatten().cloned().collect();
                let mut memo = HashMap::new();
                for (n, t, so) in decls {
                    let v = self
                        .solver
                        .model_value(t, &mut memo)
                        .unwrap_or(Value::Bool(false));
                    s.push_str(&format!(
                        "  (define-fun {} () {} {})\n",
                        quote_symbol(&n),
                        so.name(),
                        v.to_smtlib(so)
                    ));
                }
                s.push(')');
                self.respond(s);
            }
            "get-value" => {
                if self.last != Some(SatResult::Sat) {
                    return Err(err(
                        f.span,
                        "no model available (the last check-sat did not answer sat)",
                    ));
                }
                let l = args
                    .first()
                    .and_then(|a| a.list())
                    .ok_or_else(|| err(f.span, "expected a list of terms"))?;
                let mut parts = Vec::new();
                let mut memo = HashMap::new();
                for e in l {
                    let t = self.term(e)?;
                    let so = self.solver.terms.sort(t);
                    let v = self
                        .solver
                        .model_value(t, &mut memo)
                        .unwrap_or(Value::Bool(false));
                    let src = self.text.get(e.span.start..e.span.end).unwrap_or("?");
                    parts.push(format!("({} {})", src, v.to_smtlib(so)));
                }
                self.respond(format!("({})", parts.join(" ")));
            }
            "get-unsat-core" => {
                if !self.produce_cores {
                    return Err(err(
                        f.span,
                        "unsat cores are off (set :produce-unsat-cores to true)",
                    ));
                }
                if self.last != Some(SatResult::Unsat) {
                    return Err(err(
                        f.span,
                        "no unsat core available (the last check-sat did not answer unsat)",
                    ));
                }
                let core = self.solver.unsat_core().to_vec();
                let mut names = Vec::new();
                for (n, t) in self.named.iter().flatten() {
                    if core.contains(t) && !names.contains(n) {
                        names.push(n.clone());
                    }
                }
                let names: Vec<String> = names.iter().map(|n| quote_symbol(n)).collect();
                self.respond(format!("({})", names.join(" ")));
            }
            "get-assertions" | "get-proof" | "get-assignment" => {
                self.respond("unsupported".into());
            }
            "push" | "pop" => {
                let n = match args.first() {
                    None => 1,
                    Some(a) => match &a.kind {
                        SExprKind::Atom(TokenKind::Numeral(s)) => s
                            .parse::<usize>()
                            .map_err(|_| err(a.span, "scope count too large"))?,
                        _ => return Err(err(a.span, "expected a numeral")),
                    },
                };
                if name == "push" {
                    for _ in 0..n {
                        self.solver.push();
                        self.env.push();
                        self.named.push(Vec::new());
                        self.decls.push(Vec::new());
                    }
                } else {
                    if n > self.solver.num_scopes() {
                        return Err(err(
                            f.span,
                            format!(
                                "cannot pop {n} scopes: only {} open",
                                self.solver.num_scopes()
                            ),
                        ));
                    }
                    self.solver.pop(n);
                    for _ in 0..n {
                        self.env.pop();
                        self.named.pop();
                        self.decls.pop();
                    }
                }
                self.last = None;
                self.success();
            }
            "reset" | "reset-assertions" => {
                let keep_logic = name == "reset-assertions";
                self.solver = new_solver(&self.opts);
                self.env = Env::new();
                self.named = vec![Vec::new()];
                self.decls = vec![Vec::new()];
                self.last = None;
                self.reason_unknown = None;
                if !keep_logic {
                    self.logic = None;
                    self.unsupported = None;
                    self.caps = LogicCaps {
                        ints: true,
                        reals: true,
                    };
                    self.produce_cores = false;
                    self.print_success = false;
                    self.silent = false;
                    self.options.clear();
                }
                self.success();
            }
            "echo" => match args.first().map(|a| &a.kind) {
                Some(SExprKind::Atom(TokenKind::Str(s))) => {
                    let s = format!("\"{}\"", escape_string(s));
                    self.respond(s)
                }
                _ => return Err(err(f.span, "expected a string")),
            },
            "exit" => {
                self.success();
                return Ok(false);
            }
            _ => return Err(err(head.span, format!("unknown command `{name}`"))),
        }
        Ok(true)
    }

    fn check_sort_allowed(&self, s: Sort, e: &SExpr) -> Result<(), Diagnostic> {
        match s {
            Sort::Int if !self.caps.ints => Err(err(e.span, "sort Int is not part of this logic")),
            Sort::Real if !self.caps.reals => {
                Err(err(e.span, "sort Real is not part of this logic"))
            }
            _ => Ok(()),
        }
    }

    fn do_check(&mut self, assume: Vec<TermId>, user: Vec<TermId>) {
        if let Some(reason) = self.unsupported.clone() {
            // Nothing of an unsupported logic was asserted: any answer but `unknown` would be
            // about a different problem.
            self.last = Some(SatResult::Unknown);
            self.last_assumptions = user;
            self.reason_unknown = Some(reason.clone());
            self.out.checks.push(CheckRecord {
                answer: "unknown".into(),
                reason: Some(reason),
                model: None,
                model_valid: None,
                certificates_checked: 0,
                certificate_failures: Vec::new(),
            });
            self.respond("unknown".into());
            return;
        }
        let before = self.solver.certificates().map_or(0, |c| c.checked);
        let before_fail = self.solver.certificates().map_or(0, |c| c.failures.len());
        let t0 = std::time::Instant::now();
        let r = self.solver.check(&assume);
        if tracing::enabled!(tracing::Level::DEBUG) {
            // Progress with -v: the search's effort after every check-sat.
            let st = self.solver.stats();
            tracing::debug!(
                "check-sat {}: {r:?} after {:.3} s — {} conflicts, {} restarts, {} decisions, {} pivots so far",
                self.out.checks.len() + 1,
                t0.elapsed().as_secs_f64(),
                st.sat.conflicts,
                st.sat.restarts,
                st.sat.decisions,
                st.pivots
            );
        }
        self.last = Some(r);
        self.last_assumptions = user;
        let ans = match r {
            SatResult::Sat => "sat",
            SatResult::Unsat => "unsat",
            SatResult::Unknown => "unknown",
        };
        let mut reason = None;
        if r == SatResult::Unknown {
            if self.opts.budget.check().is_err() {
                self.out.timed_out = true;
                reason = Some("timeout".to_string());
            } else {
                reason = Some("incomplete".to_string());
            }
        }
        self.reason_unknown = reason.clone();
        let mut rec = CheckRecord {
            answer: ans.to_string(),
            reason,
            model: None,
            model_valid: None,
            certificates_checked: 0,
            certificate_failures: Vec::new(),
        };
        if r == SatResult::Sat {
            let mut memo = HashMap::new();
            let decls: Vec<(String, TermId, Sort)> = self.decls.iter().flatten().cloned().collect();
            let mut m = Vec::new();
            for (n, t, so) in decls {
                let v = self
                    .solver
                    .model_value(t, &mut memo)
                    .unwrap_or(Value::Bool(false));
                m.push((n, so.name().to_string(), v.to_smtlib(so)));
            }
            rec.model = Some(m);
            if self.opts.check {
                rec.model_valid = self
                    .solver
                    .validate_model(&assume)
                    .map(|bad| bad.is_empty());
            }
        }
        if let Some(c) = self.solver.certificates() {
            rec.certificates_checked = c.checked - before;
            rec.certificate_failures = c.failures[before_fail..].to_vec();
        }
        self.out.checks.push(rec);
        self.respond(ans.to_string());
    }
}

/// Runs an SMT-LIB 2.6 script.
pub fn run_script(text: &str, opts: RunOptions) -> ScriptOutput {
    Interp::new(opts).run(text)
}
