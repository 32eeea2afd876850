//! The entry points behind `verikit prism`: the input format (PRISM language or JANI), the order
//! of work (model and properties parsed and checked, the selected properties validated, then the
//! model built), the dispatch between point models ([`crate::check`]) and interval models
//! ([`crate::robust_check`], also for `--widen`), and each result as a [`verikit_diag::Answer`]
//! handed to the caller as soon as it is computed, so a timeout loses only what did not finish.

use crate::check::{Answer as Value, CheckOptions, Checker, PropertyResult};
use crate::error::ProbError;
use crate::lang::ast::{Expr, ExprKind, PathFormula, PropertiesFile, Property, RewardRef};
use crate::lang::typecheck::{check_model, Program};
use crate::model::Model;
use crate::robust_check::RobustChecker;
use crate::{build, parse_model, parse_properties, BuildOptions};
use std::time::Instant;
use verikit_diag::{Answer, Diagnostic, Verdict};

/// Is `text` (named with extension `ext`) a JANI model?
pub fn is_jani(ext: Option<&str>, text: &str) -> bool {
    ext == Some("jani") || crate::jani::looks_like_jani(text)
}

/// A parsed and type-checked model, not built yet.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub prog: Program,
    /// The embedded properties of a JANI model (`None` for the PRISM language).
    pub jani_props: Option<PropertiesFile>,
}

/// Parses and checks a model (PRISM language, or JANI when `jani`) with `--const` overrides.
pub fn prepare(
    text: &str,
    jani: bool,
    overrides: &[(String, String)],
) -> Result<Prepared, ProbError> {
    let (mf, jani_props) = if jani {
        let jf = crate::jani::parse_jani(text)?;
        (jf.model, Some(jf.props))
    } else {
        (parse_model(text)?, None)
    };
    let prog = check_model(&mf, overrides)?;
    Ok(Prepared { prog, jani_props })
}

/// A built model.
#[derive(Clone, Debug)]
pub struct Built {
    pub prog: Program,
    pub model: Model,
    pub build_s: f64,
    pub jani_props: Option<PropertiesFile>,
}

/// Builds a prepared model (polling `opts.budget`).
pub fn build_model(p: Prepared, opts: &BuildOptions) -> Result<Built, ProbError> {
    let t0 = Instant::now();
    let model = build(&p.prog, opts)?;
    Ok(Built {
        prog: p.prog,
        model,
        build_s: t0.elapsed().as_secs_f64(),
        jani_props: p.jani_props,
    })
}

/// Parses a properties file and selects properties by name or 1-based index: each selector
/// may be a comma-separated list; none selects all. Unknown names are errors.
pub fn select(pf: &PropertiesFile, selectors: &[String]) -> Result<Vec<usize>, ProbError> {
    let names: Vec<&str> = selectors
        .iter()
        .flat_map(|s| s.split(','))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if names.is_empty() {
        if pf.properties.is_empty() {
            return Err(ProbError::Input(Diagnostic::error(
                "the properties file has no properties",
            )));
        }
        return Ok((0..pf.properties.len()).collect());
    }
    let mut out = Vec::new();
    for s in names {
        let s = s.trim_matches('"');
        let by_name = pf
            .properties
            .iter()
            .position(|p| p.name.as_deref() == Some(s));
        let by_index = s
            .parse::<usize>()
            .ok()
            .filter(|&i| i >= 1 && i <= pf.properties.len())
            .map(|i| i - 1);
        match by_name.or(by_index) {
            Some(i) => out.push(i),
            None => {
                return Err(ProbError::Input(Diagnostic::error(format!(
                    "no property named or numbered `{s}`"
                ))))
            }
        }
    }
    Ok(out)
}

/// Parses properties text (a file or an inline `--pf` property).
pub fn parse_props(text: &str) -> Result<PropertiesFile, ProbError> {
    Ok(parse_properties(text)?)
}

/// What to check and how.
pub struct CheckRequest<'a> {
    /// The text the properties were parsed from (their labels and PRISM's two-word operators
    /// are read from it).
    pub props_src: &'a str,
    pub pf: &'a PropertiesFile,
    /// Indices into `pf.properties`, in the order to check them.
    pub selected: &'a [usize],
    pub overrides: &'a [(String, String)],
    /// Precision, budget and progress.
    pub opts: CheckOptions,
    /// Widen every probability p to `[p−ε, p+ε]` and check the interval model.
    pub widen: Option<f64>,
    /// Compare each result with the property's `// RESULT:` annotation (PRISM's `-test`).
    pub test: bool,
    /// Keep every state's value of each property ([`CheckOutcome::state_values`]).
    pub state_values: bool,
}

/// Validates the selected properties against the program before the model is built: names of
/// labels, constants, formulas and reward structures are resolved, types checked.
pub fn validate(prog: &Program, req: &CheckRequest) -> Result<(), ProbError> {
    if !(req.opts.eps > 0.0 && req.opts.eps < 1.0) {
        return Err(ProbError::Input(Diagnostic::error(
            "the precision must be in (0, 1)",
        )));
    }
    crate::prop_env::Names::new(prog, req.pf, req.overrides)?;
    // Every label and reward structure the selected properties name must exist.
    let known_label = |l: &str| {
        matches!(l, "init" | "deadlock")
            || prog.labels.iter().any(|(n, _)| n == l)
            || req.pf.labels.iter().any(|n| n.name == l)
            || req
                .pf
                .properties
                .iter()
                .any(|p| p.name.as_deref() == Some(l))
    };
    let mut bad = None;
    for &i in req.selected {
        let Some(p) = req.pf.properties.get(i) else {
            continue;
        };
        visit(&p.expr, &mut |e| match &e.kind {
            ExprKind::Label(l) if !known_label(l) && bad.is_none() => {
                bad = Some(Diagnostic::at(e.span, format!("unknown label \"{l}\"")));
            }
            ExprKind::Reward {
                rew: RewardRef::Name(n, sp),
                ..
            } if bad.is_none() && !prog.rewards.iter().any(|r| r.name.as_deref() == Some(n)) => {
                bad = Some(Diagnostic::at(
                    *sp,
                    format!("unknown reward structure \"{n}\""),
                ));
            }
            _ => {}
        });
    }
    match bad {
        Some(d) => Err(ProbError::Input(d)),
        None => Ok(()),
    }
}

/// Calls `f` on every sub-expression of `e`, inside P/R/S operators and filters too.
fn visit(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    e.walk_deep(f)
}

/// A property's label in results: its name in quotes, else its text.
fn label(p: &Property, text: &str) -> String {
    p.name
        .as_ref()
        .map(|n| format!("\"{n}\""))
        .unwrap_or_else(|| text.to_string())
}

/// A property's text as written (JANI: its name).
fn text_of(src: &str, p: &Property, jani: bool) -> String {
    match (&p.name, jani) {
        (Some(n), true) => n.clone(),
        _ => src
            .get(p.span.start..p.span.end)
            .unwrap_or("")
            .trim()
            .to_string(),
    }
}

/// A numeric or Boolean result as JSON (`Infinity`/`NaN` as strings).
pub fn value_json(a: &Value) -> serde_json::Value {
    match a {
        Value::Bool(b) => serde_json::Value::Bool(*b),
        Value::Num(x) if x.is_finite() => serde_json::json!(x),
        Value::Num(x) if x.is_infinite() => serde_json::Value::String("Infinity".into()),
        Value::Num(_) => serde_json::Value::String("NaN".into()),
    }
}

/// One property's answer: Boolean properties have a verdict, numeric ones a `result` only.
fn item(r: &PropertyResult, label: &str, interval: bool) -> Answer {
    let mut a = match r.answer {
        Value::Bool(b) => Answer::decision(Verdict::from_bool(b)),
        Value::Num(_) => Answer::new(),
    };
    let mut line = format!("Result {label}: {}", r.answer);
    if let Some((lo, hi)) = r.init_range {
        line.push_str(&format!(
            " (first initial state; range over initial states [{lo}, {hi}])"
        ));
    }
    if !r.sound {
        line.push_str(" (warning: iteration limit reached, error bound not verified)");
    }
    line.push_str(&format!("  [{:.3} s]", r.time_s));
    a = a
        .detail("name", &r.name)
        .detail("property", &r.text)
        .detail("result", value_json(&r.answer))
        .detail("init_range", r.init_range.map(|(a, b)| vec![a, b]))
        .detail("sound", r.sound)
        .time("check_s", r.time_s)
        .line(line);
    if interval {
        a = a.detail("cooperative_nature", r.cooperative_nature);
    }
    a
}

fn timeout_item(p: &Property, text: &str) -> Answer {
    Answer::decision(Verdict::Timeout)
        .detail("name", &p.name)
        .detail("property", text)
        .line(format!("Result {}: timeout", label(p, text)))
}

/// The model's sizes, as `input` fields.
pub fn model_input(a: Answer, m: &Model) -> Answer {
    a.input("model_type", m.model_type.name())
        .input("states", m.num_states())
        .input("initial_states", m.initial.len())
        .input("transitions", m.num_transitions())
        .input("choices", m.num_choices())
        .input("deadlocks_fixed", m.fixed_deadlocks.len())
}

/// The model's sizes for people.
pub fn model_lines(mut a: Answer, m: &Model, build_s: f64) -> Answer {
    a = a
        .line(format!("Type:        {}", m.model_type.name()))
        .line(format!(
            "States:      {} ({} initial)",
            m.num_states(),
            m.initial.len()
        ))
        .line(format!("Transitions: {}", m.num_transitions()));
    if m.model_type.nondeterministic() {
        a = a.line(format!("Choices:     {}", m.num_choices()));
    }
    a.line(format!("Time for model construction: {build_s:.3} seconds"))
}

/// Checks the selected properties on a built model: each result is passed to `emit` as soon as
/// it is computed; when the budget runs out, the property being checked and the ones after it
/// are emitted as `timeout`. Returns the summary (verdict: `timeout` if some property did not
/// finish, `false` if some Boolean property is false, else `true`; `result`: the value when one
/// property is checked).
pub fn check(
    b: &Built,
    req: &CheckRequest,
    emit: &mut dyn FnMut(Answer),
) -> Result<Answer, ProbError> {
    check_keeping(b, req, emit, &mut Vec::new())
}

/// Every state's value of one property (see [`CheckSpec::state_values`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StateValues {
    /// The value of each state of the built model, states numbered as [`build_model`] numbers
    /// them; Booleans as 0/1.
    pub values: Vec<f64>,
    /// The model's initial states.
    pub initial: Vec<u32>,
}

/// [`check`], pushing onto `values`, for each emitted answer, every state's value of the property
/// when `req.state_values` is set and the property has per-state values (else `None`).
fn check_keeping(
    b: &Built,
    req: &CheckRequest,
    emit: &mut dyn FnMut(Answer),
    values: &mut Vec<Option<StateValues>>,
) -> Result<Answer, ProbError> {
    validate(&b.prog, req)?;
    let jani = b.jani_props.is_some();
    let widened;
    let model = match req.widen {
        Some(w) => {
            widened = crate::widen::widen(&b.model, w)?;
            &widened
        }
        None => &b.model,
    };
    let interval = model.is_interval();
    enum Engine<'a> {
        Point(Box<Checker<'a>>),
        Robust(RobustChecker<'a>),
    }
    let mut engine = if interval {
        let mut c = RobustChecker::new(
            model,
            &b.prog,
            req.pf,
            req.props_src,
            req.overrides,
            req.opts.clone(),
        )?;
        c.keep_state_values(req.state_values);
        Engine::Robust(c)
    } else {
        let mut c = Checker::new(model, &b.prog, req.pf, req.overrides, req.opts.clone())?;
        c.keep_state_values(req.state_values);
        Engine::Point(Box::new(c))
    };
    let t0 = Instant::now();
    let (mut timed_out, mut any_false, mut test_failed) = (false, false, false);
    let mut single = None;
    for &i in req.selected {
        let Some(p) = req.pf.properties.get(i) else {
            continue;
        };
        let text = text_of(req.props_src, p, jani);
        if timed_out {
            values.push(None);
            emit(timeout_item(p, &text));
            continue;
        }
        let r = match &mut engine {
            Engine::Point(c) => c.check(p, &text),
            Engine::Robust(c) => c.check(p, &text),
        };
        match r {
            Ok(mut r) => {
                values.push(r.state_values.take().map(|v| StateValues {
                    values: v,
                    initial: model.initial.clone(),
                }));
                let mut it = item(&r, &label(p, &text), interval);
                if req.test {
                    let (pass, line) = test_result(req, i, &r.answer);
                    test_failed |= pass == Some(false);
                    it = it.detail("test", pass).line(line);
                } else {
                    any_false |= r.answer == Value::Bool(false);
                }
                if !req.overrides.is_empty() {
                    let c: serde_json::Map<String, serde_json::Value> = req
                        .overrides
                        .iter()
                        .map(|(k, v)| (k.clone(), v.clone().into()))
                        .collect();
                    it = it.detail("constants", c);
                }
                if req.selected.len() == 1 {
                    single = Some(value_json(&r.answer));
                }
                emit(it);
            }
            Err(e) if e.is_timeout() => {
                timed_out = true;
                values.push(None);
                emit(timeout_item(p, &text));
            }
            Err(e) => return Err(e),
        }
    }
    let check_s = t0.elapsed().as_secs_f64();
    let verdict = if timed_out {
        Verdict::Timeout
    } else if any_false || test_failed {
        Verdict::False
    } else {
        Verdict::True
    };
    let mut a = Answer::decision(verdict);
    if let Some(v) = single {
        a = a.detail("result", v);
    }
    if let Some(w) = req.widen {
        a = a.detail("widen", w);
    }
    a = model_input(a, model);
    if interval && model.model_type.nondeterministic() {
        a = a.line(
            "Robust semantics: Pmax/Pmin optimise the controller against an adversarial nature \
             unless the operator names nature's direction; bounds P~p hold for every scheduler \
             and nature",
        );
    } else if interval {
        a = a.line(
            "Interval semantics: Pmin/Pmax are the minimum/maximum over every resolution of the \
             intervals; bounds P~p hold for every resolution",
        );
    }
    a = model_lines(a, model, b.build_s)
        .line(format!("Time for model checking: {check_s:.3} seconds"))
        .time("build_s", b.build_s)
        .time("check_s", check_s);
    Ok(a)
}

/// Compares a result with the annotation of property `i` whose constant condition holds:
/// `Some(pass)`, or `None` without one; and the line for people.
fn test_result(req: &CheckRequest, i: usize, got: &Value) -> (Option<bool>, String) {
    let same = |a: &str, b: &str| {
        a == b || matches!((a.parse::<f64>(), b.parse::<f64>()), (Ok(x), Ok(y)) if x == y)
    };
    let holds = |cond: &[(String, String)]| {
        cond.iter()
            .all(|(k, v)| req.overrides.iter().any(|(n, x)| n == k && same(x, v)))
    };
    let all = expected_results(req.props_src, req.pf, i);
    match all.iter().find(|(c, _)| holds(c)) {
        None => (
            None,
            "  Testing result: no RESULT annotation applies".into(),
        ),
        Some((_, e)) => {
            let ok = result_matches(got, e);
            let word = if ok { "PASS" } else { "FAIL" };
            (Some(ok), format!("  Testing result: {word} (expected {e})"))
        }
    }
}

/// PRISM's results table of one property over constant combinations: a tab-separated (or,
/// `csv`, comma-separated) header of the varying constants and `Result`, then one row each.
pub fn results_table(rows: &[(Vec<(String, String)>, String)], csv: bool) -> String {
    let sep = if csv { "," } else { "\t" };
    let mut out = String::new();
    if let Some((c, _)) = rows.first() {
        let mut head: Vec<&str> = c.iter().map(|(k, _)| k.as_str()).collect();
        head.push("Result");
        out.push_str(&head.join(sep));
        out.push('\n');
    }
    for (c, v) in rows {
        let mut cells: Vec<&str> = c.iter().map(|(_, x)| x.as_str()).collect();
        cells.push(v);
        out.push_str(&cells.join(sep));
        out.push('\n');
    }
    out
}

/// An optimal scheduler of one `Pmin`/`Pmax` property of an MDP, as text: memoryless
/// (`state choice action` per line) for `F`/`U`, with the automaton state as memory
/// ([`crate::write_memory_scheduler`]) for an LTL path formula.
pub fn scheduler(b: &Built, req: &CheckRequest, prop: usize) -> Result<String, ProbError> {
    let p = req
        .pf
        .properties
        .get(prop)
        .ok_or_else(|| ProbError::Input(Diagnostic::error("no such property")))?;
    let mut c = Checker::new(&b.model, &b.prog, req.pf, req.overrides, req.opts.clone())?;
    let what = text_of(req.props_src, p, b.jani_props.is_some());
    if let ExprKind::Prob { path, .. } = &p.expr.kind {
        if matches!(path.as_ref(), PathFormula::Ltl(_)) {
            let sched = c.ltl_scheduler(p)?;
            return Ok(crate::write_memory_scheduler(&b.model, &sched, &what));
        }
    }
    let sched = c.scheduler(p)?;
    Ok(crate::scheduler::write_scheduler(&b.model, &sched, &what))
}

/// What `verikit prism bisim` computes.
pub struct BisimRequest<'a> {
    /// The initial partition: `all` model labels (the default without properties), `none`,
    /// `props` (the atomic propositions and rewards of the properties; the default with
    /// properties), or a comma-separated list of label and reward-structure names.
    pub labels: Option<&'a str>,
    /// Properties to check on the model and on the quotient (robust values) and compare.
    pub check: Option<CheckRequest<'a>>,
    /// Widen every probability p to `[p−ε, p+ε]` first.
    pub widen: Option<f64>,
}

/// The result of [`bisim`]: the answer, and the reduction (for writing the quotient).
pub struct BisimOutcome {
    pub answer: Answer,
    pub reduction: crate::quotient::Reduction,
}

/// The initial partition asked for by `labels` (and the properties).
fn initial_partition(b: &Built, req: &BisimRequest) -> Result<(Vec<u32>, String), ProbError> {
    let spec = req
        .labels
        .map(str::to_string)
        .unwrap_or_else(|| if req.check.is_some() { "props" } else { "all" }.to_string());
    let m = &b.model;
    let empty = PropertiesFile::default();
    let (psrc, pf, ov) = match &req.check {
        Some(c) => (c.props_src, c.pf, c.overrides),
        None => ("", &empty, &[][..]),
    };
    let mut checker = RobustChecker::new(m, &b.prog, pf, psrc, ov, CheckOptions::default())?;
    let mut keys: Vec<Vec<f64>> = Vec::new();
    let label_vec = |e: &crate::lang::expr::CExpr| -> Result<Vec<f64>, ProbError> {
        let v = crate::build::eval_states(m, e)?;
        Ok(v.into_iter().map(|x| x as u8 as f64).collect())
    };
    match spec.as_str() {
        "all" => {
            for (_, e) in &b.prog.labels {
                keys.push(label_vec(e)?);
            }
        }
        "none" => {}
        "props" => {
            let Some(c) = &req.check else {
                return Err(ProbError::Input(Diagnostic::error(
                    "--labels props needs properties (--props FILE)",
                )));
            };
            for &i in c.selected {
                if let Some(p) = c.pf.properties.get(i) {
                    keys.extend(checker.atoms(&p.expr)?);
                }
            }
        }
        list => {
            for name in list.split(',').map(str::trim).filter(|x| !x.is_empty()) {
                let name = name.trim_matches('"');
                if let Some((_, e)) = b.prog.labels.iter().find(|(l, _)| l == name) {
                    keys.push(label_vec(e)?);
                } else if let Some(i) = b
                    .prog
                    .rewards
                    .iter()
                    .position(|r| r.name.as_deref() == Some(name))
                {
                    keys.push(checker.state_rewards(Some(i))?);
                } else {
                    return Err(ProbError::Input(Diagnostic::error(format!(
                        "`{name}` is neither a label nor a reward structure of the model"
                    ))));
                }
            }
        }
    }
    Ok((crate::imdp_bisim::partition_by(m.num_states(), &keys), spec))
}

/// Robust results of the selected properties on `model`.
fn robust_results(
    model: &Model,
    prog: &Program,
    c: &CheckRequest,
) -> Result<Vec<PropertyResult>, ProbError> {
    let mut checker =
        RobustChecker::new(model, prog, c.pf, c.props_src, c.overrides, c.opts.clone())?;
    let mut out = Vec::new();
    for &i in c.selected {
        if let Some(p) = c.pf.properties.get(i) {
            out.push(checker.check(p, &text_of(c.props_src, p, false))?);
        }
    }
    Ok(out)
}

/// The coarsest alternating probabilistic bisimulation of an interval MDP (SETTA 2017) from the
/// requested initial partition, its quotient, and (with properties) the robust values on model
/// and quotient compared. Verdict: `true` when they agree on every property under the ∃σ∀π
/// semantics the bisimulation preserves (or when no properties are given), `false` otherwise.
pub fn bisim(b: Built, req: &BisimRequest) -> Result<BisimOutcome, ProbError> {
    if let Some(c) = &req.check {
        validate(&b.prog, c)?;
    }
    let (part, spec) = initial_partition(&b, req)?;
    let initial_classes = part.iter().copied().max().map_or(0, |x| x as usize + 1);
    let red = crate::quotient::reduce_from(b.model, &b.prog, req.widen, &part)?;
    let (m, q) = (&red.model, &red.quotient);
    let mut a = Answer::new()
        .line(format!(
            "Bisimulation: |S| {} -> {}, |I| {} -> {} ({} refinement rounds)",
            m.num_states(),
            q.num_states(),
            m.num_transitions(),
            q.num_transitions(),
            red.bisim.rounds
        ))
        .line(format!(
            "Initial partition: {spec} ({initial_classes} classes)"
        ))
        .line(format!(
            "LP analyses: {} solved, {} cached; containment decided by integers {}, certified \
             primal {}, certified Farkas {}, exact simplex {}",
            red.bisim.lp_solved,
            red.bisim.lp_cached,
            red.bisim.lp_stats.integer,
            red.bisim.lp_stats.primal,
            red.bisim.lp_stats.dual,
            red.bisim.lp_stats.exact
        ))
        .line(format!("Time for bisimulation: {:.3} seconds", red.time_s));
    let mut all_agree = true;
    if let Some(c) = &req.check {
        let on_model = robust_results(m, &b.prog, c)?;
        let on_quot = robust_results(q, &b.prog, c)?;
        let eps = c.opts.eps;
        let mut items = Vec::new();
        for (x, y) in on_model.iter().zip(&on_quot) {
            // Theorem 4 covers the ∃σ∀π semantics; a nature cooperating with the controller
            // (`Pmaxmax`, `Pminmin`, bounds `P~p`) is reported but not required to agree.
            let cooperative = x.cooperative_nature;
            let agree = match (&x.answer, &y.answer) {
                (Value::Bool(u), Value::Bool(v)) => u == v,
                (Value::Num(u), Value::Num(v)) => {
                    u == v
                        || (u.is_finite()
                            && v.is_finite()
                            && (u - v).abs() <= 2.0 * eps * u.abs().max(v.abs()))
                }
                _ => false,
            };
            all_agree &= agree || cooperative;
            let lab = x
                .name
                .as_ref()
                .map(|n| format!("\"{n}\""))
                .unwrap_or_else(|| x.text.clone());
            let note = match (agree, cooperative) {
                (true, _) => "",
                (false, true) => {
                    "  (cooperative nature: outside the ∃σ∀π semantics the quotient preserves)"
                }
                (false, false) => "  (DIFFERENT)",
            };
            items.push(
                Answer::decision(Verdict::from_bool(agree))
                    .detail("property", &x.text)
                    .detail("model", value_json(&x.answer))
                    .detail("quotient", value_json(&y.answer))
                    .detail("agree", agree)
                    .detail("cooperative_nature", cooperative)
                    .detail("sound", x.sound && y.sound)
                    .time("model_check_s", x.time_s)
                    .time("quotient_check_s", y.time_s)
                    .line(format!(
                        "Result {lab}: model {}, quotient {}{note}",
                        x.answer, y.answer
                    )),
            );
        }
        for i in items {
            a.push_result(i);
        }
        a = a
            .line(if all_agree {
                "Model and quotient agree on every property"
            } else {
                "Model and quotient DIFFER (the initial partition does not respect the properties)"
            })
            .detail("agree", all_agree);
    }
    a = a.with_verdict(Verdict::from_bool(all_agree));
    let a = a
        .detail("labels", spec)
        .detail("initial_classes", initial_classes)
        .input("model_type", m.model_type.name())
        .input("states", m.num_states())
        .input("transitions", m.num_transitions())
        .input("choices", m.num_choices())
        .stat("quotient_states", q.num_states())
        .stat("quotient_transitions", q.num_transitions())
        .stat("quotient_choices", q.num_choices())
        .stat("rounds", red.bisim.rounds)
        .stat("lp_solved", red.bisim.lp_solved)
        .stat("lp_cached", red.bisim.lp_cached)
        .stat(
            "lp_decided",
            serde_json::json!({
                "integer": red.bisim.lp_stats.integer, "primal_certified": red.bisim.lp_stats.primal,
                "farkas_certified": red.bisim.lp_stats.dual, "exact_simplex": red.bisim.lp_stats.exact,
            }),
        )
        .time("build_s", b.build_s)
        .time("bisim_s", red.time_s);
    Ok(BisimOutcome {
        answer: a,
        reduction: red,
    })
}

/// The quotient of a reduction as `.tra` (explicit intervals) or as a PRISM `imdp` model.
pub fn quotient_text(red: &crate::quotient::Reduction, tra: bool) -> String {
    if tra {
        crate::quotient::interval_tra(&red.quotient)
    } else {
        crate::quotient::to_prism(&red.quotient, &red.labels)
    }
}

/// Expands PRISM's constant ranges (`N=16:16:64`, `p=0.1:0.1:0.3`, `K=1:3`: start, step, end)
/// into every combination, the first constant varying slowest (PRISM's order). Constants
/// without a range keep their value.
pub fn expand_consts(
    overrides: &[(String, String)],
) -> Result<Vec<Vec<(String, String)>>, ProbError> {
    let mut combos: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for (name, v) in overrides {
        let parts: Vec<&str> = v.split(':').map(str::trim).collect();
        let values: Vec<String> = match parts.as_slice() {
            [_] => vec![v.trim().to_string()],
            [a, b] | [a, _, b] => {
                let step = if parts.len() == 3 { parts[1] } else { "1" };
                let bad = || {
                    ProbError::Input(Diagnostic::error(format!(
                        "bad range `{name}={v}` (expected START:STEP:END with STEP > 0)"
                    )))
                };
                let ints = [a, step, b].iter().all(|x| x.parse::<i64>().is_ok());
                let (x0, dx, x1) = (
                    a.parse::<f64>().map_err(|_| bad())?,
                    step.parse::<f64>().map_err(|_| bad())?,
                    b.parse::<f64>().map_err(|_| bad())?,
                );
                if !(dx > 0.0 && x0.is_finite() && x1.is_finite()) {
                    return Err(bad());
                }
                let n = ((x1 - x0) / dx + 1e-9).floor();
                if !(0.0..=100_000.0).contains(&n) {
                    return Err(bad());
                }
                (0..=n as usize)
                    .map(|i| {
                        let x = x0 + i as f64 * dx;
                        if ints {
                            format!("{}", x.round() as i64)
                        } else {
                            format!("{}", (x * 1e12).round() / 1e12)
                        }
                    })
                    .collect()
            }
            _ => {
                return Err(ProbError::Input(Diagnostic::error(format!(
                    "bad constant value `{name}={v}`"
                ))))
            }
        };
        let mut next = Vec::with_capacity(combos.len() * values.len());
        for c in &combos {
            for x in &values {
                let mut c = c.clone();
                c.push((name.clone(), x.clone()));
                next.push(c);
            }
        }
        combos = next;
    }
    Ok(combos)
}

/// The `// RESULT: value` annotations before property `i` (PRISM's `-test` convention), each
/// with its constant condition (`// RESULT (N=2,K=3): 0.5`).
pub fn expected_results(
    src: &str,
    pf: &PropertiesFile,
    i: usize,
) -> Vec<(Vec<(String, String)>, String)> {
    let start = if i == 0 {
        0
    } else {
        pf.properties.get(i - 1).map_or(0, |p| p.span.end)
    };
    let end = pf.properties.get(i).map_or(0, |p| p.span.start);
    let Some(text) = src.get(start..end) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("//") else {
            continue;
        };
        let Some(rest) = rest.trim().strip_prefix("RESULT") else {
            continue;
        };
        let rest = rest.trim_start();
        let (cond, value) = match rest.strip_prefix('(') {
            Some(r) => match r.split_once(')') {
                Some((c, v)) => (c, v),
                None => continue,
            },
            None => ("", rest),
        };
        let Some(value) = value.trim().strip_prefix(':') else {
            continue;
        };
        let cond = cond
            .split(',')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            .collect();
        out.push((cond, value.trim().to_string()));
    }
    out
}

/// Does `got` match PRISM's expected-result text (`true`/`false`, a number up to relative
/// `1e-5` or absolute `1e-8`, `Infinity`, or `?` for anything)?
pub fn result_matches(got: &Value, expected: &str) -> bool {
    let e = expected.split_whitespace().next().unwrap_or("");
    match got {
        Value::Bool(b) => e.eq_ignore_ascii_case(if *b { "true" } else { "false" }),
        Value::Num(x) => {
            if e == "?" {
                return true;
            }
            if e.eq_ignore_ascii_case("infinity") || e.eq_ignore_ascii_case("inf") {
                return x.is_infinite() && *x > 0.0;
            }
            if e.eq_ignore_ascii_case("nan") {
                return x.is_nan();
            }
            let want = match e.split_once('/') {
                Some((a, b)) => match (a.parse::<f64>(), b.parse::<f64>()) {
                    (Ok(a), Ok(b)) => a / b,
                    _ => return false,
                },
                None => match e.parse::<f64>() {
                    Ok(w) => w,
                    Err(_) => return false,
                },
            };
            x == &want
                || (x - want).abs() <= 1e-5 * want.abs().max(x.abs())
                || (x - want).abs() <= 1e-8
        }
    }
}

/// One row of a results table: the constants and the value.
type Row = (Vec<(String, String)>, String);

/// Which input an error is about (for rendering it against the right file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Model,
    Props,
}

/// An error and the input it is about.
#[derive(Debug)]
pub struct Located(pub ProbError, pub Origin);

fn at<T>(r: Result<T, ProbError>, o: Origin) -> Result<T, Located> {
    r.map_err(|e| Located(e, o))
}

/// `FILE` or `FILE:csv` of `--export-results`: the path and whether CSV is asked for.
pub fn export_target(spec: &str) -> (&str, bool) {
    match spec.strip_suffix(":csv") {
        Some(p) => (p, true),
        None => (spec, false),
    }
}

/// The whole of `verikit prism check`.
#[derive(Clone, Debug, Default)]
pub struct CheckSpec {
    /// `--const` values; ranges `START:STEP:END` make an experiment over every combination.
    pub overrides: Vec<(String, String)>,
    /// Property names or 1-based indices (comma lists); none: all.
    pub selectors: Vec<String>,
    /// Precision, budget and progress of checking.
    pub check: CheckOptions,
    pub build: BuildOptions,
    pub widen: Option<f64>,
    pub test: bool,
    /// Also compute the scheduler of the (one) selected property.
    pub scheduler: bool,
    /// Also write the results as PRISM's tables (`Some(csv)`).
    pub export_results: Option<bool>,
    /// Keep every state's value of each property ([`CheckOutcome::state_values`]).
    pub state_values: bool,
}

/// What [`run_check`] produced besides the streamed answers.
pub struct CheckOutcome {
    pub answer: Answer,
    pub scheduler: Option<String>,
    pub results_table: Option<String>,
    /// Deadlock states fixed with self-loops (for a warning).
    pub deadlocks_fixed: usize,
    /// Warnings for people (deadlocks fixed, a `--const` that names no constant).
    pub warnings: Vec<String>,
    /// With [`CheckSpec::state_values`]: for each answer passed to `emit`, in order, the value of
    /// every state of the model it was checked on (`None` for a `filter` or a property that
    /// timed out). Empty otherwise.
    pub state_values: Vec<Option<StateValues>>,
}

/// `verikit prism check`: for each combination of the constants, parses the model and the
/// properties (a file's text, or `None` for a JANI model's own), selects and validates the
/// properties before building, builds, and checks; each property's answer goes to `emit` as
/// soon as it is computed (labelled with its constants in an experiment). Stops after a
/// combination that timed out.
pub fn run_check(
    model_text: &str,
    jani: bool,
    props_text: Option<&str>,
    spec: &CheckSpec,
    emit: &mut dyn FnMut(Answer),
) -> Result<CheckOutcome, Located> {
    use Origin::{Model as M, Props as P};
    if jani && spec.widen.is_some() {
        let e = Diagnostic::error("--widen is supported for PRISM-language models only");
        return Err(Located(e.into(), M));
    }
    if jani && props_text.is_some() {
        let e = Diagnostic::error("a JANI model carries its properties: give no properties");
        return Err(Located(e.into(), M));
    }
    let combos = at(expand_consts(&spec.overrides), M)?;
    let mut rows: Vec<(String, Vec<Row>)> = Vec::new();
    let (mut verdicts, mut summary) = (Vec::new(), Answer::new());
    let (mut scheduler, mut deadlocks_fixed, mut warnings) = (None, 0, Vec::new());
    let mut state_values = Vec::new();
    for ov in &combos {
        let prepared = at(prepare(model_text, jani, ov), M)?;
        let pf = match (&prepared.jani_props, props_text) {
            (Some(pf), _) => pf.clone(),
            (None, Some(t)) => at(parse_props(t), P)?,
            (None, None) => {
                let e = Diagnostic::error("a PRISM model needs properties (a file or --pf)");
                return Err(Located(e.into(), P));
            }
        };
        let o = if jani { M } else { P };
        if warnings.is_empty() {
            for (n, _) in ov {
                let known = prepared.prog.constants.iter().any(|(c, _)| c == n)
                    || pf.consts.iter().any(|c| &c.name == n);
                if !known {
                    warnings.push(format!(
                        "--const {n} names no constant of the model or the properties"
                    ));
                }
            }
        }
        let selected = at(select(&pf, &spec.selectors), o)?;
        let req = CheckRequest {
            props_src: if jani {
                model_text
            } else {
                props_text.unwrap_or("")
            },
            pf: &pf,
            selected: &selected,
            overrides: ov,
            opts: spec.check.clone(),
            widen: spec.widen,
            test: spec.test,
            state_values: spec.state_values,
        };
        at(validate(&prepared.prog, &req), o)?;
        let b = at(build_model(prepared, &spec.build), M)?;
        deadlocks_fixed = b.model.fixed_deadlocks.len();
        if deadlocks_fixed > 0 && !warnings.iter().any(|w: &String| w.starts_with("deadlocks")) {
            warnings.push(format!(
                "deadlocks detected and fixed in {deadlocks_fixed} states"
            ));
        }
        rows.resize(selected.len(), Default::default());
        let mut k = 0;
        let s = at(
            check_keeping(
                &b,
                &req,
                &mut |mut a| {
                    let v = a
                        .detail
                        .get("result")
                        .map_or("timeout".into(), |x| x.to_string());
                    if let Some(r) = rows.get_mut(k) {
                        let name = a.detail.get("property").and_then(|p| p.as_str());
                        r.0 = name.unwrap_or("").to_string();
                        r.1.push((ov.clone(), v.trim_matches('"').to_string()));
                    }
                    k += 1;
                    if combos.len() > 1 {
                        let cs: Vec<String> = ov.iter().map(|(n, v)| format!("{n}={v}")).collect();
                        a.text = format!("[{}] {}", cs.join(","), a.text);
                    }
                    emit(a);
                },
                &mut state_values,
            ),
            o,
        )?;
        verdicts.push(Answer::decision(s.verdict.unwrap_or(Verdict::True)));
        summary = s;
        if spec.scheduler {
            let [i] = selected.as_slice() else {
                let e = Diagnostic::error("--export-scheduler needs exactly one property (--prop)");
                return Err(Located(e.into(), o));
            };
            scheduler = Some(at(self::scheduler(&b, &req, *i), o)?);
        }
        if summary.verdict == Some(Verdict::Timeout) {
            break;
        }
    }
    for (name, r) in rows.iter().filter(|_| combos.len() > 1) {
        let t = results_table(r, false);
        summary = summary.line(format!("Results of {name}:\n{}", t.trim_end()));
    }
    summary.verdict = Answer::combined_verdict(&verdicts);
    let results_table = spec.export_results.map(|csv| {
        rows.iter()
            .map(|(name, r)| format!("{name}:\n{}\n", results_table(r, csv)))
            .collect()
    });
    Ok(CheckOutcome {
        answer: summary,
        scheduler,
        results_table,
        deadlocks_fixed,
        warnings,
        state_values,
    })
}

/// The whole of `verikit prism bisim` (see [`bisim`]): the properties, if any, are parsed and
/// validated before the model is built.
pub fn run_bisim(
    model_text: &str,
    jani: bool,
    props_text: Option<&str>,
    spec: &CheckSpec,
    labels: Option<&str>,
) -> Result<BisimOutcome, Located> {
    use Origin::{Model as M, Props as P};
    let prepared = at(prepare(model_text, jani, &spec.overrides), M)?;
    let pf = match props_text {
        Some(t) => Some(at(parse_props(t), P)?),
        None => None,
    };
    let selected = match &pf {
        Some(pf) => at(select(pf, &spec.selectors), P)?,
        None => Vec::new(),
    };
    let check = pf.as_ref().map(|pf| CheckRequest {
        props_src: props_text.unwrap_or(""),
        pf,
        selected: &selected,
        overrides: &spec.overrides,
        opts: spec.check.clone(),
        widen: None,
        test: false,
        state_values: false,
    });
    if let Some(c) = &check {
        at(validate(&prepared.prog, c), P)?;
    }
    let b = at(build_model(prepared, &spec.build), M)?;
    let req = BisimRequest {
        labels,
        check,
        widen: spec.widen,
    };
    at(bisim(b, &req), if props_text.is_some() { P } else { M })
}
