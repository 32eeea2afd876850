//! The `ltl` and `aut` commands as library calls. Each entry point takes parsed inputs, options
//! and a [`Budget`], and returns the one [`Answer`] the CLI prints: decision commands answer
//! `true`/`false` with their own words as details (`result`: `satisfied`/`violated`,
//! `empty`/`nonempty`, `accepted`/`rejected`; `relation`: `included`/`not-included`) and the word
//! that explains a `false` (or a non-empty language) under `witness`; commands that produce an
//! automaton or formulas have no verdict. Input policies live here too: formula files as Spot's
//! `-F` reads them ([`formula_lines`]), HOA streams automaton by automaton ([`read_automata`]),
//! one semantics for lasso words ([`crate::word`]), and the tuning parameters ([`PARAMS`]).

use crate::deterministic::DetOptions;
use crate::error::OmegaError;
use crate::ltl::{parse::parse, print::to_string, simplify::simplify, Arena, F};
use crate::rand::{RandLtl, Weights};
use crate::twa::Twa;
use crate::word::Word;
use crate::{dot, emptiness, gba_reduce, hoa, postproc, product, ramsey_inclusion, translate};
use std::time::Instant;
use verikit_diag::{
    Answer, Budget, Diagnostic, Param, Params, Reportable, SourceFile, Span, Verdict,
};

/// The tuning parameters of the `ltl` and `aut` commands (`-x key=value`).
pub const PARAMS: &[Param] = &[
    Param {
        name: "omega.max-states",
        default: "200000",
        range: "1..=100000000",
        doc: "ltl translate gives up beyond this many tableau states",
    },
    Param {
        name: "omega.wdba",
        default: "true",
        range: "true|false",
        doc: "ltl translate tries WDBA minimisation of obligation formulas",
    },
    Param {
        name: "omega.included-max-letters",
        default: "4096",
        range: "1..=1000000",
        doc: "aut included gives up beyond this many letters (atoms of the labels)",
    },
    Param {
        name: "omega.included-max-work",
        default: "4000000000",
        range: "1..=10^15",
        doc: "aut included gives up beyond this many machine words of graph work",
    },
    Param {
        name: "omega.det-max-states",
        default: "100000",
        range: "1..=100000000",
        doc: "determinisation (ltl translate -D/-P, aut determinize) gives up beyond this many states",
    },
    Param {
        name: "omega.det-merge",
        default: "true",
        range: "true|false",
        doc: "ltl translate -D/-P and aut determinize end with checked state merges (language equivalence decided exactly) on automata of at most 80 states",
    },
    Param {
        name: "omega.det-satmin",
        default: "true",
        range: "true|false",
        doc: "ltl translate -D/-P and aut determinize end with exact SAT-based minimisation (each candidate checked for language equivalence) of Büchi and co-Büchi automata of at most 16 states",
    },
    Param {
        name: "omega.det-satmin-conflicts",
        default: "3000",
        range: "1..=100000000",
        doc: "SAT conflicts the minimisation of omega.det-satmin may spend per automaton",
    },
    Param {
        name: "omega.rand-max-trials",
        default: "100000",
        range: "1..=100000000",
        doc: "ltl rand gives up after this many draws without a new non-constant formula",
    },
];

fn param<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    params: &Params,
    name: &str,
    lo: T,
    hi: T,
) -> Result<T, String> {
    match PARAMS.iter().find(|p| p.name == name) {
        Some(p) => params.get_in(p, lo, hi),
        None => Err(format!("unknown parameter {name}")),
    }
}

/// Translation options with the `omega.*` parameters applied.
pub fn translate_options(
    params: &Params,
    base: translate::Options,
) -> Result<translate::Options, String> {
    let wdba = match PARAMS.iter().find(|p| p.name == "omega.wdba") {
        Some(p) => params.get::<bool>(p)?,
        None => base.wdba,
    };
    Ok(translate::Options {
        max_states: param(params, "omega.max-states", 1, 100_000_000)?,
        wdba,
        ..base
    })
}

/// Options of the deterministic pipeline with `omega.det-max-states`, `omega.det-merge` and
/// `omega.det-satmin` applied.
pub fn det_options(params: &Params, base: DetOptions) -> Result<DetOptions, String> {
    let max_states = param(params, "omega.det-max-states", 1, 100_000_000)?;
    let checked_merges = match PARAMS.iter().find(|p| p.name == "omega.det-merge") {
        Some(p) => params.get::<bool>(p)?,
        None => base.checked_merges,
    };
    let conflicts = param(params, "omega.det-satmin-conflicts", 1, 100_000_000)?;
    let sat_minimize = match PARAMS.iter().find(|p| p.name == "omega.det-satmin") {
        Some(p) => params.get::<bool>(p)?.then_some(conflicts),
        None => base.sat_minimize,
    };
    Ok(DetOptions {
        checked_merges,
        sat_minimize,
        det: crate::determinize::Options {
            max_states,
            ..base.det.clone()
        },
        ..base
    })
}

/// Inclusion limits with the `omega.included-*` parameters applied.
pub fn inclusion_limits(
    params: &Params,
    max_elements: usize,
) -> Result<ramsey_inclusion::Limits, String> {
    Ok(ramsey_inclusion::Limits {
        max_elements,
        max_letters: param(params, "omega.included-max-letters", 1, 1_000_000)?,
        max_work: param(params, "omega.included-max-work", 1, 1_000_000_000_000_000)?,
    })
}

/// The formulas of a formula file as Spot's tools read `-F`: one per line, blank lines and lines
/// starting with `#` skipped; each with its byte offset in the file.
pub fn formula_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut off = 0;
    for line in text.split('\n') {
        let t = line.trim_end_matches('\r');
        if !t.trim().is_empty() && !t.trim_start().starts_with('#') {
            out.push((off, t));
        }
        off += line.len() + 1;
    }
    out
}

/// One formula to process: its text, where it starts in its source (a file, or `None` for a
/// command-line argument), and its 1-based line there (0 on the command line).
#[derive(Clone, Debug)]
pub struct FormulaItem {
    pub text: String,
    pub offset: usize,
    pub line: usize,
    pub source: Option<std::sync::Arc<SourceFile>>,
}

impl FormulaItem {
    /// Names the source of an error of this item (the file, or `<formula>`).
    pub fn locate(&self, e: OmegaError) -> OmegaError {
        match &self.source {
            Some(f) => e.in_source(&f.name, &f.text),
            None => e.in_source("<formula>", &self.text),
        }
    }

    /// The input file's name (empty for a command-line formula).
    pub fn file_name(&self) -> &str {
        self.source.as_ref().map_or("", |f| f.name.as_str())
    }
}

/// Splits Spot's `-F FILENAME[/COL]`: a path that exists is a file; otherwise a trailing `/COL`
/// with a non-zero integer `COL` selects a CSV column (negative: the first line is a header).
pub fn split_file_spec(spec: &str, exists: impl Fn(&str) -> bool) -> (String, Option<i64>) {
    if exists(spec) {
        return (spec.to_string(), None);
    }
    if let Some((path, col)) = spec.rsplit_once('/') {
        if let Ok(c) = col.parse::<i64>() {
            if c != 0 && !path.is_empty() {
                return (path.to_string(), Some(c));
            }
        }
    }
    (spec.to_string(), None)
}

/// One formula input of the command line: a formula (positional or `-f`) or a file spec of
/// `-F` (`FILE` or `FILE/COL`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormulaInput {
    Formula(String),
    File(String),
}

/// The formulas of Spot's `-f`/`-F` options and positional arguments, in the order of `inputs`
/// (the command line's order, as Spot keeps it): a formula as it is, a file (read by `read`)
/// line by line or CSV column by CSV column. At least one input is required.
pub fn formula_items<E>(
    inputs: &[FormulaInput],
    mut read: impl FnMut(&str) -> Result<SourceFile, E>,
    wrap: impl Fn(OmegaError, &SourceFile) -> E,
    usage: impl Fn(String) -> E,
) -> Result<Vec<FormulaItem>, E> {
    if inputs.is_empty() {
        return Err(usage(
            "no formula given (a FORMULA argument, -f FORMULA or -F FILE)".into(),
        ));
    }
    let mut out: Vec<FormulaItem> = Vec::new();
    for input in inputs {
        let spec = match input {
            FormulaInput::Formula(t) => {
                out.push(FormulaItem {
                    text: t.clone(),
                    offset: 0,
                    line: 0,
                    source: None,
                });
                continue;
            }
            FormulaInput::File(spec) => spec,
        };
        let (path, col) = split_file_spec(spec, |p| p == "-" || std::path::Path::new(p).exists());
        let file = read(&path)?;
        let lines = match col {
            None => formula_lines(&file.text)
                .into_iter()
                .map(|(o, l)| (o, l.to_string()))
                .collect(),
            Some(c) => csv_column(&file.text, c).map_err(|e| wrap(e, &file))?,
        };
        let file = std::sync::Arc::new(file);
        for (offset, text) in lines {
            let line = file
                .text
                .get(..offset)
                .map_or(0, |p| p.matches('\n').count())
                + 1;
            out.push(FormulaItem {
                text,
                offset,
                line,
                source: Some(file.clone()),
            });
        }
    }
    Ok(out)
}

/// Column `col` (1-based; negative: skip the header line) of a CSV text, as Spot's `-F FILE/COL`
/// reads it: fields separated by commas, optionally double-quoted with `""` for a quote; blank
/// lines skipped. Each field comes with the byte offset of its text in the file.
pub fn csv_column(text: &str, col: i64) -> Result<Vec<(usize, String)>, OmegaError> {
    let k = col.unsigned_abs() as usize;
    let mut out = Vec::new();
    let mut off = 0;
    for (n, line) in text.split('\n').enumerate() {
        let start = off;
        off += line.len() + 1;
        let line = line.trim_end_matches('\r');
        if (col < 0 && n == 0) || line.trim().is_empty() {
            continue;
        }
        let fields = csv_fields(line, start)?;
        match fields.into_iter().nth(k - 1) {
            Some(f) => out.push(f),
            None => {
                return Err(OmegaError::syntax(Diagnostic::at(
                    Span::new(start, start + line.len()),
                    format!("this CSV line has no column {k}"),
                )))
            }
        }
    }
    Ok(out)
}

fn csv_fields(line: &str, base: usize) -> Result<Vec<(usize, String)>, OmegaError> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut i = 0;
    loop {
        if b.get(i) == Some(&b'"') {
            let (start, mut s) = (i + 1, String::new());
            i += 1;
            loop {
                match line.get(i..).and_then(|r| r.chars().next()) {
                    None => {
                        return Err(OmegaError::syntax(Diagnostic::at(
                            Span::point(base + start - 1),
                            "unterminated quoted CSV field",
                        )))
                    }
                    Some('"') if b.get(i + 1) == Some(&b'"') => {
                        s.push('"');
                        i += 2;
                    }
                    Some('"') => {
                        i += 1;
                        break;
                    }
                    Some(c) => {
                        s.push(c);
                        i += c.len_utf8();
                    }
                }
            }
            out.push((base + start, s));
            match b.get(i) {
                None => return Ok(out),
                Some(b',') => i += 1,
                Some(_) => {
                    return Err(OmegaError::syntax(Diagnostic::at(
                        Span::point(base + i),
                        "expected `,` after a quoted CSV field",
                    )))
                }
            }
        } else {
            let rest = line.get(i..).unwrap_or("");
            let end = rest.find(',').map_or(line.len(), |j| i + j);
            out.push((base + i, line.get(i..end).unwrap_or("").to_string()));
            if end >= line.len() {
                return Ok(out);
            }
            i = end + 1;
        }
    }
}

/// Parses a formula that starts at byte `offset` of its file (error spans are file positions).
pub fn parse_formula(text: &str, offset: usize, arena: &mut Arena) -> Result<F, OmegaError> {
    parse(text, arena).map_err(|mut d| {
        if let Some(sp) = d.span.as_mut() {
            *sp = Span::new(sp.start + offset, sp.end + offset);
        }
        OmegaError::syntax(d)
    })
}

/// `ltl parse` / `ltl simplify` of one formula.
pub fn print_formula(
    text: &str,
    offset: usize,
    simp: bool,
    negate: bool,
) -> Result<Answer, OmegaError> {
    let mut arena = Arena::new();
    let mut f = parse_formula(text, offset, &mut arena)?;
    if negate {
        f = arena.not(f);
    }
    if simp {
        f = simplify(&mut arena, f);
    }
    let s = to_string(&arena, f);
    Ok(Answer::new().detail("formula", &s).line(s))
}

/// How a produced automaton is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Show {
    /// HOA v1.
    #[default]
    Hoa,
    /// GraphViz DOT.
    Dot,
    /// Only its statistics.
    Stats,
}

impl Show {
    /// From the `--dot` and `--stats` flags.
    pub fn from_flags(dot: bool, stats: bool) -> Show {
        match (dot, stats) {
            (true, _) => Show::Dot,
            (_, true) => Show::Stats,
            _ => Show::Hoa,
        }
    }
}

/// Runs a batch (the formulas of a file, the automata of a stream; `names` = singular and plural)
/// as Spot's tools do: each item's result goes to `emit` (with its 1-based position) as soon as
/// it is computed, a bad item's error too, and the others still run; once `budget` is spent the
/// remaining items are not started. The summary answers `timeout` (with `unfinished`) if some
/// items did not finish, else `error` (with the `error` message) if some were bad.
pub fn batch<I: FnOnce() -> Result<Answer, OmegaError>>(
    items: impl IntoIterator<Item = I>,
    (what, whats): (&str, &str),
    budget: &Budget,
    mut emit: impl FnMut(usize, Result<Answer, OmegaError>),
) -> Answer {
    let t0 = Instant::now();
    let (mut n, mut bad, mut left) = (0usize, 0usize, 0usize);
    for item in items {
        n += 1;
        if budget.check().is_err() {
            left += 1;
            continue;
        }
        match item() {
            Err(e) if e.is_resource_limit() && budget.check().is_err() => left += 1,
            Err(e) => {
                bad += 1;
                emit(n, Err(e));
            }
            Ok(a) => emit(n, Ok(a.detail("position", n))),
        }
    }
    let sum = Answer::new().input(whats, n);
    let sum = if left > 0 {
        sum.with_verdict(Verdict::Timeout)
            .detail("unfinished", left)
            .line(format!("timeout: {left} of {n} {whats} not finished"))
    } else if bad > 0 {
        let one = if bad == 1 { what } else { whats };
        sum.with_verdict(Verdict::Error)
            .detail("error", format!("{bad} {one} of {n} could not be read"))
    } else {
        sum
    };
    sum.time("total_s", t0.elapsed().as_secs_f64())
}

/// Sizes and properties of an automaton (the `stats` section).
fn with_stats(a: Answer, t: &Twa) -> Answer {
    a.stat("states", t.num_states())
        .stat("edges", t.num_edges())
        .stat("acc_sets", t.num_sets)
        .stat("aps", &t.aps)
        .stat("initial_states", t.init.len())
        .stat("deterministic", t.is_deterministic())
        .stat("complete", t.is_complete())
        .stat("state_based", t.state_based)
        .stat("acceptance", t.acceptance().to_string())
        .stat("acc_name", t.acc_name())
}

/// Sizes of an input automaton (the `input` section).
fn with_input(a: Answer, t: &Twa) -> Answer {
    a.input("states", t.num_states())
        .input("edges", t.num_edges())
        .input("acc_sets", t.num_sets)
        .input("aps", t.aps.len())
}

/// An answer producing automaton `t`: HOA (always in JSON), statistics, text as `show` asks.
fn automaton(a: Answer, t: &Twa, show: Show) -> Answer {
    let mut a = with_stats(a.detail("hoa", hoa::to_hoa(t)), t);
    match show {
        Show::Hoa => a.text.push_str(&hoa::to_hoa(t)),
        Show::Dot => a.text.push_str(&dot::to_dot(t)),
        Show::Stats => {}
    }
    a
}

/// Reads a `--sim` / `--reduce` method name.
pub fn method(s: &str) -> Result<gba_reduce::Method, String> {
    gba_reduce::Method::parse(s)
        .ok_or_else(|| format!("unknown simulation `{s}` (direct, delayed, fair or fair+delayed)"))
}

/// The optimisation level of `ltl translate` without `--low`/`--medium`/`--high`: `--medium`,
/// by the rule of issue 19 (`--high` only if its median stays under 10 ms and no shared formula
/// takes over 1 s; it does not, decision 0341 and `bench/results/ltl-levels.md`). The library's
/// [`translate::Options::default`] stays at [`translate::Level::High`].
pub const DEFAULT_LEVEL: translate::Level = translate::Level::Medium;

/// The optimisation level of `--low`/`--medium`/`--high` (clap keeps only the last one given;
/// none: [`DEFAULT_LEVEL`]).
pub fn level(low: bool, medium: bool, high: bool) -> translate::Level {
    match (low, medium, high) {
        (true, _, _) => translate::Level::Low,
        (_, true, _) => translate::Level::Medium,
        (_, _, true) => translate::Level::High,
        _ => DEFAULT_LEVEL,
    }
}

/// `--stats[=FORMAT]`: `None` without the flag or with the bare flag (the fixed line), else the
/// format once checked (an unsupported directive is refused by name).
pub fn stats_format(flag: Option<String>) -> Result<Option<String>, String> {
    match flag {
        Some(f) if !f.is_empty() => crate::spot_stats::validate(&f).map(|()| Some(f)),
        _ => Ok(None),
    }
}

/// What `ltl translate` does with each formula.
#[derive(Clone, Debug, Default)]
pub struct TranslateJob {
    pub options: translate::Options,
    /// Then minimise by simulation (`--reduce`).
    pub reduce: Option<gba_reduce::Method>,
    pub show: Show,
    /// Keep the state names (the formula each state stands for).
    pub state_names: bool,
    /// A deterministic automaton (`-D`, with `-P` parity and `-C` complete).
    pub deterministic: Option<DetOptions>,
    /// Translate the negation of each formula (`--negate`).
    pub negate: bool,
    /// State-based acceptance (`-S`): the result goes through [`crate::sbacc::state_based`].
    pub state_based: bool,
    /// Spot's `--stats=FORMAT` (checked by [`crate::spot_stats::validate`]): one line per
    /// automaton instead of the automaton.
    pub stats_format: Option<String>,
    /// A monitor (`-M`, [`crate::monitor`]): every run accepting, exactly the finite prefixes of
    /// the models; deterministic and minimal with `-D`.
    pub monitor: bool,
    /// Spot's `--any` (`-a`): no preference, so no automaton simplification (the raw tableau,
    /// with useless states removed unless `--low`, as Spot's post-processor does).
    pub any: bool,
}

/// The flags of `ltl translate` as the command line gives them (Spot's `ltl2tgba` options).
#[derive(Clone, Debug, Default)]
pub struct TranslateFlags {
    /// `-B`: state-based Büchi.
    pub sba: bool,
    /// `-S`: state-based acceptance.
    pub state_based: bool,
    /// `--low`, `--medium`, `--high` (the last given; see [`level`]).
    pub level: (bool, bool, bool),
    /// `--dot`.
    pub dot: bool,
    /// `--stats[=FORMAT]`.
    pub stats: Option<String>,
    pub no_simplify: bool,
    pub no_postprocess: bool,
    pub no_redirect_merges: bool,
    pub state_names: bool,
    /// `--reduce METHOD`.
    pub reduce: Option<gba_reduce::Method>,
    /// `-D`, `-P`, `-C` (see [`det_flags`]).
    pub det: Option<DetOptions>,
    /// `-M`.
    pub monitor: bool,
    /// `--any` (the last of `--small`, `--deterministic`, `--any`).
    pub any: bool,
    /// `--negate`.
    pub negate: bool,
}

/// The job of `ltl translate` from its flags and the `-x` parameters; a usage error for
/// combinations Spot refuses or that have no meaning (`-M` with `-P`).
pub fn translate_job(f: TranslateFlags, params: &Params) -> Result<TranslateJob, String> {
    if f.monitor && f.det.as_ref().is_some_and(|d| d.parity) {
        return Err(
            "-M (a monitor, every run accepting) cannot have parity acceptance (-P)".into(),
        );
    }
    let (low, medium, high) = f.level;
    let base = translate::Options {
        simplify_formula: !f.no_simplify,
        postprocess: !f.no_postprocess && !f.any,
        sba: f.sba && !f.monitor,
        redirect_merges: !f.no_redirect_merges && !f.any,
        level: level(low, medium, high),
        ..translate::Options::default()
    };
    Ok(TranslateJob {
        options: translate_options(params, base)?,
        reduce: f.reduce,
        show: Show::from_flags(f.dot, f.stats.is_some()),
        state_names: f.state_names,
        deterministic: match f.det {
            Some(o) => Some(det_options(params, o)?),
            None => None,
        },
        negate: f.negate,
        state_based: f.state_based,
        stats_format: stats_format(f.stats)?,
        monitor: f.monitor,
        any: f.any,
    })
}

/// The deterministic pipeline's options of `-D` (`--deterministic`), `-P[=KIND]` and `-C`, if
/// one is given (or always, with `force`, for `aut determinize`).
pub fn det_flags(
    deterministic: bool,
    parity: Option<Option<crate::parity::ParityKind>>,
    complete: bool,
    force: bool,
) -> Option<DetOptions> {
    let any = deterministic || parity.is_some() || complete;
    (force || any).then(|| DetOptions {
        deterministic: force || deterministic,
        parity: parity.is_some(),
        complete,
        kind: parity.flatten(),
        ..DetOptions::default()
    })
}

/// `ltl translate` of one formula (at byte `offset` of its file): the automaton and its answer.
pub fn translate_formula(
    text: &str,
    offset: usize,
    job: &TranslateJob,
    budget: &Budget,
) -> Result<(Twa, Answer), OmegaError> {
    let item = FormulaItem {
        text: text.to_string(),
        offset,
        line: 0,
        source: None,
    };
    translate_item(&item, job, budget)
}

/// `ltl translate` of one formula item (see [`formula_items`]): the automaton and its answer.
pub fn translate_item(
    item: &FormulaItem,
    job: &TranslateJob,
    budget: &Budget,
) -> Result<(Twa, Answer), OmegaError> {
    let text = item.text.as_str();
    let mut arena = Arena::new();
    let mut phi = parse_formula(text, item.offset, &mut arena)?;
    if job.negate {
        phi = arena.not(phi);
    }
    budget
        .check()
        .map_err(|e| OmegaError::Limit(e.to_string()))?;
    let t = Instant::now();
    let opts = translate::Options {
        budget: budget.clone(),
        ..job.options.clone()
    };
    let mut aut = translate::translate(&mut arena, phi, &opts)?;
    if job.any && opts.level != translate::Level::Low {
        aut = crate::prune::prune(&aut);
    }
    let mut a = Answer::new().detail("formula", text);
    if let Some(m) = job.reduce {
        let (r, st) = gba_reduce::reduce(&aut, m, budget);
        aut = r;
        a = a.detail("reduction", &st);
    }
    if job.monitor {
        let det = job.deterministic.as_ref().is_some_and(|o| o.deterministic);
        let keep = |t: &Twa| t.clone();
        let simplify: &dyn Fn(&Twa) -> Twa = if job.any { &keep } else { &postproc::simplify };
        aut = crate::monitor::monitor(&aut, det, simplify)?;
    } else if let Some(o) = &job.deterministic {
        let o = DetOptions {
            det: crate::determinize::Options {
                budget: budget.clone(),
                stutter_invariant: crate::stutter_det::syntactically_stutter_invariant(&arena, phi),
                ..o.det.clone()
            },
            ..o.clone()
        };
        // The automaton of ¬φ competes through its complement (when φ's is not deterministic).
        let neg = if (o.deterministic || o.parity) && !aut.is_deterministic() {
            let n = arena.not(phi);
            Some(translate::translate(&mut arena, n, &opts)?)
        } else {
            None
        };
        // Boolean combinations also go part by part (Spot's `ltl-split`); the smaller wins.
        let split = if o.parity || o.kind.is_some() || (o.deterministic && !aut.is_deterministic())
        {
            crate::det_split::split_deterministic(&mut arena, phi, &opts, &o)?
        } else {
            None
        };
        aut = crate::deterministic::deterministic_pair(&aut, neg.as_ref(), &o)?;
        if let Some(p) = split {
            let mut t = crate::deterministic::finish(p, &o)?;
            if t.aps != aut.aps && t.aps.iter().all(|x| aut.aps.contains(x)) {
                t = t.with_aps(aut.aps.clone());
            }
            if (t.num_states(), t.num_sets) < (aut.num_states(), aut.num_sets) {
                aut = t;
            }
        }
        if o.checked_merges && !job.any {
            let (m, st) = crate::det_merge::reduce(&aut, budget)?;
            aut = m;
            a = a.detail("checked_merges", &st);
        }
        if let (Some(conflicts), false) = (o.sat_minimize, job.any) {
            let (m, st) = crate::sat_minimize::minimize(&aut, conflicts, budget)?;
            aut = m;
            a = a.detail("sat_minimize", &st);
        }
    }
    if job.state_based && !aut.state_based {
        aut = crate::sbacc::state_based(&aut);
    }
    let dt = t.elapsed().as_secs_f64();
    aut.name = Some(to_string(&arena, phi));
    if !job.state_names {
        aut.state_names.iter_mut().for_each(|n| *n = None);
    }
    let mut a = automaton(a, &aut, job.show).time("translate_s", dt);
    if let Some(fmt) = &job.stats_format {
        let ctx = crate::spot_stats::Context {
            formula: aut.name.as_deref().unwrap_or(text),
            file: item.file_name(),
            line: item.line,
            seconds: dt,
        };
        let line = crate::spot_stats::render(fmt, &aut, &ctx);
        a.text.clear();
        a.detail.remove("hoa");
        a = a.detail("stats_line", &line).line(line);
    } else if job.show == Show::Stats {
        a = a.line(format!(
            "states: {}, edges: {}, acceptance sets: {}{}, time: {dt:.6} s  {text}",
            aut.num_states(),
            aut.num_edges(),
            aut.num_sets,
            match (&job.deterministic, aut.acc_name()) {
                (Some(_), Some(n)) => format!(" ({n})"),
                _ => String::new(),
            }
        ));
        a.detail.remove("hoa");
    }
    Ok((aut, a))
}

/// `ltl check` on the command line's texts: errors point into `<formula>` or `<word>`.
pub fn check(formula: &str, word: &str) -> Result<Answer, OmegaError> {
    let mut arena = Arena::new();
    let phi =
        parse_formula(formula, 0, &mut arena).map_err(|e| e.in_source("<formula>", formula))?;
    check_word(&arena, phi, &crate::word::parse_word(word)?)
}

/// `ltl check`: does the lasso word satisfy the formula? (Direct evaluation of LTL, no
/// automaton; a PSL formula is translated and the word run through its automaton.) The word's
/// letters must be full valuations of the formula's propositions.
pub fn check_word(arena: &Arena, phi: F, word: &Word) -> Result<Answer, OmegaError> {
    let lasso = word.lasso(arena.aps())?;
    let sat = if arena.has_sere(phi) {
        let mut ar = arena.clone();
        let aut = crate::translate::translate(&mut ar, phi, &crate::translate::Options::default())?;
        let bit: Vec<Option<u32>> = aut.aps.iter().map(|n| arena.lookup_ap(n)).collect();
        let map = |l: &u64| -> u64 {
            bit.iter()
                .enumerate()
                .filter_map(|(k, i)| i.map(|i| (l >> i & 1) << k))
                .sum()
        };
        let w = crate::ltl::eval::Lasso {
            prefix: lasso.prefix.iter().map(map).collect(),
            cycle: lasso.cycle.iter().map(map).collect(),
        };
        crate::accepts::accepts_lasso(&aut, &w)
    } else {
        crate::ltl::eval::holds(arena, phi, &lasso)
    };
    let (f, w) = (to_string(arena, phi), word.to_text());
    let (res, verb) = if sat {
        ("satisfied", "satisfies")
    } else {
        ("violated", "violates")
    };
    Ok(Answer::decision(Verdict::from_bool(sat))
        .detail("result", res)
        .detail("formula", &f)
        .detail("word", &w)
        .line(format!(
            "{}: the word {w} {verb} {f}",
            Verdict::from_bool(sat)
        )))
}

/// Reads `--ap`: a number `n` (`p0`, …, `p{n-1}`) or a comma-separated list of names.
pub fn parse_aps(spec: &str) -> Result<Vec<String>, String> {
    let aps: Vec<String> = match spec.trim().parse::<usize>() {
        Ok(n) if n <= 64 => (0..n).map(|i| format!("p{i}")).collect(),
        Ok(n) => return Err(format!("--ap {n}: at most 64 propositions")),
        Err(_) => spec
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
    };
    if aps.is_empty() {
        return Err("--ap needs at least one proposition".into());
    }
    Ok(aps)
}

/// Reads `--size`: `N` or `MIN..MAX`, with `1 <= MIN <= MAX <= 10000`.
pub fn parse_size(spec: &str) -> Result<(usize, usize), String> {
    let (lo, hi) = match spec.split_once("..") {
        Some((a, b)) => (a.trim().parse::<usize>(), b.trim().parse::<usize>()),
        None => (spec.trim().parse::<usize>(), spec.trim().parse::<usize>()),
    };
    match (lo, hi) {
        (Ok(lo), Ok(hi)) if lo >= 1 && lo <= hi && hi <= 10_000 => Ok((lo, hi)),
        (Ok(_), Ok(_)) => Err(format!("--size `{spec}`: need 1 <= MIN <= MAX <= 10000")),
        _ => Err(format!("--size `{spec}`: expected N or MIN..MAX")),
    }
}

/// What `ltl rand` generates.
#[derive(Clone, Debug)]
pub struct RandJob {
    pub aps: Vec<String>,
    pub size: (usize, usize),
    pub count: usize,
    pub seed: u64,
    pub weights: Weights,
    pub simplify: bool,
}

impl RandJob {
    /// From the `--ap`, `--size` and `--weights` texts and (count, seed, simplify).
    pub fn parse(
        aps: &str,
        size: &str,
        weights: &str,
        (count, seed, simplify): (usize, u64, bool),
    ) -> Result<RandJob, String> {
        Ok(RandJob {
            aps: parse_aps(aps)?,
            size: parse_size(size)?,
            weights: Weights::parse(weights).map_err(|m| format!("--weights: {m}"))?,
            count,
            seed,
            simplify,
        })
    }
}

/// `ltl rand`: distinct, non-constant random formulas, as Spot's `randltl` outputs them. If the
/// budget runs out the formulas made so far are kept and the verdict is `timeout`.
pub fn rand_formulas(job: &RandJob, params: &Params, budget: &Budget) -> Result<Answer, String> {
    let trials = param(params, "omega.rand-max-trials", 1, 100_000_000)?;
    let mut gen = RandLtl::new(job.aps.clone(), job.seed, job.weights.clone());
    let mut arena = Arena::new();
    let simp: Option<fn(&mut Arena, F) -> F> = job.simplify.then_some(simplify);
    let (fs, stop) = gen.unique(&mut arena, job.count, job.size, simp, trials, budget);
    let out: Vec<String> = fs.iter().map(|&f| to_string(&arena, f)).collect();
    let mut a = Answer::new().detail("formulas", &out);
    a.text = out.iter().map(|s| format!("{s}\n")).collect();
    if let Some(why) = stop {
        if budget.check().is_err() {
            a = a.with_verdict(Verdict::Timeout);
        } else {
            tracing::warn!("ltl rand: {} of {} formulas: {why}", out.len(), job.count);
        }
        a = a.detail("stopped", why);
    }
    Ok(a)
}

/// Every automaton of a HOA text (see [`hoa::parse::parse_stream`]); an input without any
/// automaton is an error.
pub fn read_automata(text: &str) -> Vec<Result<Twa, OmegaError>> {
    let v = hoa::parse::parse_stream(text);
    if v.is_empty() {
        return vec![Err(OmegaError::syntax(Diagnostic::at(
            Span::point(text.len()),
            "no automaton in the input (expected `HOA: v1`)",
        )))];
    }
    v
}

/// The one automaton of a HOA text (the operands of `product` and `included`).
pub fn read_automaton(text: &str) -> Result<Twa, OmegaError> {
    let mut v = read_automata(text);
    if v.len() > 1 {
        return Err(OmegaError::syntax(Diagnostic::at(
            Span::point(0),
            format!(
                "this command takes one automaton per file; the input holds {}",
                v.len()
            ),
        )));
    }
    v.pop().unwrap_or_else(|| {
        Err(OmegaError::syntax(Diagnostic::error(
            "no automaton in the input",
        )))
    })
}

/// A one-automaton `aut` command.
#[derive(Clone, Debug)]
pub enum AutOp {
    /// States, edges, acceptance sets, properties.
    Stats,
    /// The automaton again.
    Print,
    /// Useless states, acceptance cleanup, bisimulation quotient; `sba` degeneralises.
    Simplify { sba: bool },
    /// Emptiness with an accepting lasso.
    IsEmpty,
    /// Membership of a lasso word (full valuations).
    Accepts(Word),
    /// Simulation-based minimisation; `stats` shows the paper's columns instead of the automaton.
    Reduce {
        method: gba_reduce::Method,
        stats: bool,
    },
    /// Rank-based complementation (small automata).
    Complement,
    /// A deterministic automaton: kept if already deterministic (unless `parity`), else
    /// determinised into a parity automaton (`aut determinize`).
    Determinize(DetOptions),
}

/// Runs a one-automaton `aut` command.
pub fn aut_unary(a: &Twa, op: &AutOp, show: Show, budget: &Budget) -> Result<Answer, OmegaError> {
    let t0 = Instant::now();
    let ans = match op {
        AutOp::Stats => with_stats(Answer::new(), a).line(format!(
            "states: {}\nedges: {}\nacceptance sets: {}\nacceptance: {}{}\natomic propositions: {}\ninitial states: {}\ndeterministic: {}\ncomplete: {}\nstate-based: {}",
            a.num_states(), a.num_edges(), a.num_sets, a.acceptance(),
            a.acc_name().map_or_else(String::new, |n| format!(" ({n})")),
            a.aps.len(), a.init.len(),
            a.is_deterministic(), a.is_complete(), a.state_based
        )),
        AutOp::Print => automaton(Answer::new(), a, show),
        AutOp::Simplify { sba } => {
            a.require_gba(if *sba { "aut simplify --sba" } else { "aut simplify" })?;
            let mut s = postproc::simplify(a);
            if *sba {
                s = postproc::to_sba(&s, budget);
            }
            automaton(with_input(Answer::new(), a), &s, show)
        }
        AutOp::IsEmpty => is_empty(a, budget)?,
        AutOp::Accepts(w) => {
            let ok = crate::accepts::accepts(a, w)?;
            let (v, w) = (Verdict::from_bool(ok), w.to_text());
            let (res, verb) = if ok {
                ("accepted", "accepts")
            } else {
                ("rejected", "rejects")
            };
            with_input(Answer::decision(v), a)
                .detail("result", res)
                .detail("word", &w)
                .line(format!("{v}: the automaton {verb} {w}"))
        }
        AutOp::Reduce { method, stats } => {
            a.require_gba("aut reduce (simulation-based minimisation)")?;
            let (red, st) = gba_reduce::reduce(a, *method, budget);
            let r = with_input(Answer::new(), a)
                .detail("method", method.name())
                .detail("reduction", &st);
            if *stats {
                let mut r = with_stats(r.detail("hoa", hoa::to_hoa(&red)), &red);
                r.text = reduce_table(*method, &st);
                r
            } else {
                automaton(r, &red, show)
            }
        }
        AutOp::Complement => {
            let c = crate::complement::complement_within(a, budget)?;
            automaton(with_input(Answer::new(), a), &c, show)
        }
        AutOp::Determinize(o) => {
            let o = DetOptions {
                det: crate::determinize::Options {
                    budget: budget.clone(),
                    ..o.det.clone()
                },
                ..o.clone()
            };
            let mut d = crate::deterministic::deterministic(a, &o)?;
            let mut ans = with_input(Answer::new(), a);
            if o.checked_merges {
                let (m, st) = crate::det_merge::reduce(&d, budget)?;
                d = m;
                ans = ans.detail("checked_merges", &st);
            }
            if let Some(conflicts) = o.sat_minimize {
                let (m, st) = crate::sat_minimize::minimize(&d, conflicts, budget)?;
                d = m;
                ans = ans.detail("sat_minimize", &st);
            }
            automaton(ans, &d, show)
        }
    };
    Ok(ans.time("total_s", t0.elapsed().as_secs_f64()))
}

fn is_empty(a: &Twa, budget: &Budget) -> Result<Answer, OmegaError> {
    let dt = Instant::now();
    let run = emptiness::accepting_lasso_within(a, budget)
        .map_err(|e| OmegaError::Limit(e.to_string()))?;
    let dt = dt.elapsed().as_secs_f64();
    let ans = with_input(Answer::decision(Verdict::from_bool(run.is_none())), a);
    Ok(match run {
        None => ans
            .detail("result", "empty")
            .line("true: L(A) = ∅ (the automaton accepts no word)")
            .line(format!("time: {dt:.6} s")),
        Some(l) => {
            let w = l.word_text(a);
            let (ps, cs) = l.states_text();
            ans.detail("result", "nonempty")
                .witness(&w)
                .detail("run", run_states(&ps, &cs))
                .line("false: L(A) ≠ ∅ (the automaton accepts a word)")
                .line(format!("accepted word: {w}"))
                .line(format!("run: prefix states {ps:?}, cycle states {cs:?}"))
                .line(format!("time: {dt:.6} s"))
        }
    })
}

/// The states of an accepting run, as `{"prefix_states": …, "cycle_states": …}`.
fn run_states(ps: &[u32], cs: &[u32]) -> std::collections::BTreeMap<&'static str, Vec<u32>> {
    [
        ("prefix_states", ps.to_vec()),
        ("cycle_states", cs.to_vec()),
    ]
    .into_iter()
    .collect()
}

/// A two-automaton `aut` command.
#[derive(Clone, Debug)]
pub enum AutPair {
    /// Synchronous product (intersection).
    Product,
    /// `L(A) ⊆ L(B)` by the Ramsey-based test with subsumption.
    Included(ramsey_inclusion::Limits),
}

/// Runs a two-automaton `aut` command. An inclusion test that reaches its limits or the budget
/// is a resource limit ([`OmegaError::Limit`]).
pub fn aut_binary(
    a: &Twa,
    b: &Twa,
    op: &AutPair,
    show: Show,
    budget: &Budget,
) -> Result<Answer, OmegaError> {
    let t0 = Instant::now();
    let ans = match op {
        AutPair::Product => automaton(Answer::new(), &product::product(a, b)?, show),
        AutPair::Included(limits) => {
            a.require_gba("aut included (Ramsey-based inclusion)")?;
            b.require_gba("aut included (Ramsey-based inclusion)")?;
            let (r, st) = ramsey_inclusion::included(a, b, limits, budget);
            let ans = Answer::new()
                .input("a_states", a.num_states())
                .input("b_states", b.num_states())
                .stat("letters", st.letters)
                .stat("prefixes", st.prefixes)
                .stat("loops", st.loops);
            match r {
                ramsey_inclusion::Inclusion::Included => ans
                    .with_verdict(Verdict::True)
                    .detail("relation", "included")
                    .line("true: L(A) ⊆ L(B) (every word accepted by A is accepted by B)"),
                ramsey_inclusion::Inclusion::NotIncluded(w) => {
                    let both = Twa::new(product::ap_union(&a.aps, &b.aps));
                    let text = emptiness::word_text(&both, &w);
                    ans.with_verdict(Verdict::False)
                        .detail("relation", "not-included")
                        .witness(&text)
                        .line("false: L(A) ⊄ L(B) (A accepts a word that B rejects)")
                        .line(format!("word accepted by A, rejected by B: {text}"))
                }
                ramsey_inclusion::Inclusion::Unknown => {
                    budget
                        .check()
                        .map_err(|e| OmegaError::Limit(e.to_string()))?;
                    return Err(OmegaError::Limit(format!(
                        "inclusion undecided within {} elements (--max-elements), {} letters or {} words of work (-x omega.included-*)",
                        limits.max_elements, limits.max_letters, limits.max_work
                    )));
                }
            }
        }
    };
    let dt = t0.elapsed().as_secs_f64();
    let ans = ans.time("total_s", dt);
    Ok(if matches!(op, AutPair::Included(_)) {
        ans.line(format!("time: {dt:.6} s"))
    } else {
        ans
    })
}

/// Model checking by automata: the system satisfies `spec` iff `system ⊗ A(¬spec)` is empty;
/// a `false` answer carries a lasso word of the system that violates `spec`.
pub fn model_check(system: &Twa, spec: &str) -> Result<Answer, OmegaError> {
    let t0 = Instant::now();
    let mut arena = Arena::new();
    let phi = parse_formula(spec, 0, &mut arena)?;
    let neg = arena.not(phi);
    let aneg = translate::translate(&mut arena, neg, &translate::Options::default())?;
    let p = product::product(system, &aneg)?;
    let run = emptiness::accepting_lasso(&p);
    let dt = t0.elapsed().as_secs_f64();
    let a = Answer::decision(Verdict::from_bool(run.is_none()))
        .input("system_states", system.num_states())
        .stat("negation_states", aneg.num_states())
        .stat("product_states", p.num_states())
        .time("total_s", dt);
    Ok(match run {
        None => a
            .detail("result", "holds")
            .line(format!("true: every run of the system satisfies {spec}")),
        Some(l) => {
            let w = l.word_text(&p);
            a.detail("result", "violated")
                .witness(&w)
                .line(format!("false: the system has a run violating {spec}"))
                .line(format!("counterexample (lasso): {w}"))
                .line(format!(
                    "(system ⊗ A(¬spec): {} states; A(¬spec) has {} states)",
                    p.num_states(),
                    aneg.num_states()
                ))
        }
    }
    .line(format!("time: {dt:.6} s")))
}

/// The `aut reduce --stats` table: the paper's columns before and after.
pub fn reduce_table(method: gba_reduce::Method, st: &gba_reduce::ReduceStats) -> String {
    let row = |name: &str, s: &gba_reduce::Sizes| {
        format!(
            "{name:<8} {:>7} {:>7} {:>5} {:>10} {:>5}\n",
            s.states, s.transitions, s.acc_sets, s.accepting_states, s.initial
        )
    };
    let mut t = format!(
        "reduced ({}{})\n{:<8} {:>7} {:>7} {:>5} {:>10} {:>5}\n",
        method.name(),
        if st.applied {
            ""
        } else {
            "; a game exceeded the size budget, not fully reduced"
        },
        "",
        "states",
        "trans",
        "fair",
        "acc-states",
        "init"
    );
    t.push_str(&row("before", &st.before));
    t.push_str(&row("after", &st.after));
    t.push_str(&format!(
        "merges kept {}/{}, edge removals kept {}/{}, delayed merges {}\npasses {}, rank lifts {}, candidates over the work budget {}\ntime: {:.6} s\n",
        st.merges_kept, st.merges_tried, st.removals_kept, st.removals_tried,
        st.delayed_classes_merged, st.passes, st.lifts, st.over_budget, st.time_s
    ));
    t
}

/// The `ltl` demo: the automaton of `spec` and a word it accepts.
pub fn demo_translate(spec: &str, budget: &Budget) -> Result<Answer, OmegaError> {
    let (aut, mut a) = translate_formula(spec, 0, &TranslateJob::default(), budget)?;
    if let Some(w) = emptiness::accepting_lasso(&aut).map(|l| l.word_text(&aut)) {
        a = a
            .line(format!("an accepted word (witness of non-emptiness): {w}"))
            .witness(w);
    }
    Ok(a)
}

/// The `aut reduce` demo: the Juvekar–Piterman reduction of the raw tableau of `formula`.
pub fn demo_reduce(formula: &str) -> Result<Answer, OmegaError> {
    let raw = translate::Options {
        postprocess: false,
        simplify_formula: false,
        wdba: false,
        ..Default::default()
    };
    let mut arena = Arena::new();
    let phi = parse_formula(formula, 0, &mut arena)?;
    let aut = translate::translate(&mut arena, phi, &raw)?;
    let op = AutOp::Reduce {
        method: gba_reduce::Method::FairDelayed,
        stats: true,
    };
    aut_unary(&aut, &op, Show::Stats, &Budget::unlimited())
}

/// The state-based Büchi automaton of ¬`spec` (Spot syntax; propositions may be double-quoted),
/// for model checkers that build the product with their own state space (`verikit-explicit`):
/// a state `q` is accepting iff `aut.state_marks(q) == aut.all_marks()` (and `aut.acc_false` is
/// unset). Errors point into `spec`.
pub fn negation_buchi(spec: &str, budget: &Budget) -> Result<Twa, OmegaError> {
    let mut arena = Arena::new();
    let phi = parse_formula(spec, 0, &mut arena)?;
    let neg = arena.not(phi);
    translate::translate(
        &mut arena,
        neg,
        &translate::Options {
            sba: true,
            budget: budget.clone(),
            ..translate::Options::default()
        },
    )
}
