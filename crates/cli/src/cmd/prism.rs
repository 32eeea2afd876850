//! `verikit prism`: build PRISM-language and JANI models and check PCTL/CSL properties (JANI
//! files carry their properties).

use crate::report::{read_input, write_output, CliError, Ctx, Report};
use std::path::PathBuf;
use std::time::Instant;
use verikit_diag::SourceFile;
use verikit_prob::{
    build, check_model, parse_const_overrides, parse_model, parse_properties, select_properties,
    Answer, BuildOptions, CheckOptions, Checker, Model, Program,
};

#[derive(clap::Args, Debug, Clone)]
pub struct ModelArgs {
    /// PRISM model file (`.prism`, `.pm`, `.nm`, `.sm`) or JANI model (`.jani`, with its
    /// properties); `-` for standard input.
    pub model: PathBuf,
    /// Values for undefined constants, e.g. `N=3,K=2` (model and properties).
    #[arg(long = "const", value_name = "N=V,...")]
    pub consts: Vec<String>,
    /// Report deadlock states as an error instead of adding self-loops (PRISM's default is to fix them).
    #[arg(long)]
    pub no_fix_deadlocks: bool,
    /// Add self-loops to deadlock states (the default; kept for PRISM compatibility).
    #[arg(long, conflicts_with = "no_fix_deadlocks")]
    pub fix_deadlocks: bool,
    /// Stop with a resource-limit error (exit 3) when the model has more states than this
    /// (useful for models with unbounded `int` variables, whose state space may be infinite).
    #[arg(long, value_name = "N")]
    pub max_states: Option<usize>,
}

#[derive(clap::Subcommand, Debug)]
pub enum PrismCmd {
    /// Build a model and check properties: prints each result, the state/transition counts and times.
    Check {
        #[command(flatten)]
        model: ModelArgs,
        /// Properties file (`.props`, `.pctl`, `.csl`); not for JANI models, whose properties
        /// are embedded.
        props: Option<PathBuf>,
        /// Check only the property with this name or 1-based index.
        #[arg(long)]
        prop: Option<String>,
        /// Relative precision of numerical results.
        #[arg(long, default_value_t = 1e-6)]
        precision: f64,
        /// Write an optimal memoryless scheduler (`state choice action` per line) for the checked
        /// Pmin/Pmax property of an unbounded F/U on an MDP (select one property with --prop).
        #[arg(long, value_name = "FILE")]
        export_scheduler: Option<PathBuf>,
        /// Widen every probability p to [max(0,p-EPS), min(1,p+EPS)] and check the interval model.
        #[arg(long, value_name = "EPS")]
        widen: Option<f64>,
    },
    /// Build a model, print its size, and optionally export it.
    Build {
        #[command(flatten)]
        model: ModelArgs,
        /// Write the transition matrix in PRISM's `.tra` format.
        #[arg(long, value_name = "FILE")]
        export_tra: Option<PathBuf>,
        /// Write the states in PRISM's `.sta` format.
        #[arg(long, value_name = "FILE")]
        export_sta: Option<PathBuf>,
        /// Write the labels in PRISM's `.lab` format.
        #[arg(long, value_name = "FILE")]
        export_lab: Option<PathBuf>,
        /// Write a Graphviz DOT graph.
        #[arg(long, value_name = "FILE")]
        export_dot: Option<PathBuf>,
    },
    /// Coarsest alternating probabilistic bisimulation of an interval MDP (SETTA 2017): prints
    /// |S|, |I| before and after and the time; optionally writes the quotient.
    Bisim(super::prism_imdp::BisimArgs),
}

/// A property's source text, trimmed, as results are labelled with it.
pub(crate) fn prop_text(src: &SourceFile, p: &verikit_prob::Property) -> String {
    src.text
        .get(p.span.start..p.span.end)
        .unwrap_or("")
        .trim()
        .to_string()
}

/// A result's label: the property's name in quotes, else its text.
pub(crate) fn result_label(r: &verikit_prob::PropertyResult, text: &str) -> String {
    r.name
        .clone()
        .map(|n| format!("\"{n}\""))
        .unwrap_or_else(|| text.to_string())
}

pub(crate) fn overrides(a: &ModelArgs) -> Result<Vec<(String, String)>, CliError> {
    let mut out = Vec::new();
    for c in &a.consts {
        out.extend(parse_const_overrides(c).map_err(CliError::from)?);
    }
    Ok(out)
}

/// A parsed, checked and built model (shared with the interval-model commands).
pub(crate) struct Built {
    pub(crate) src: SourceFile,
    pub(crate) prog: Program,
    pub(crate) model: Model,
    pub(crate) build_s: f64,
    /// The embedded properties of a JANI model (`None` for PRISM input).
    pub(crate) jani_props: Option<verikit_prob::PropertiesFile>,
}

pub(crate) fn load(a: &ModelArgs) -> Result<Built, CliError> {
    let src = read_input(&a.model)?;
    let ov = overrides(a)?;
    let t0 = Instant::now();
    let is_jani = a.model.extension().is_some_and(|e| e == "jani")
        || verikit_prob::jani::looks_like_jani(&src.text);
    let (mf, jani_props) = if is_jani {
        let jf = verikit_prob::jani::parse_jani(&src.text)
            .map_err(|e| CliError::from_error(e, Some(&src)))?;
        (jf.model, Some(jf.props))
    } else {
        let mf = parse_model(&src.text).map_err(|e| CliError::from_error(e, Some(&src)))?;
        (mf, None)
    };
    let prog = check_model(&mf, &ov).map_err(|e| CliError::from_error(e, Some(&src)))?;
    let defaults = BuildOptions::default();
    let opts = BuildOptions {
        fix_deadlocks: !a.no_fix_deadlocks,
        max_states: a.max_states.unwrap_or(defaults.max_states),
    };
    let model = build(&prog, &opts).map_err(|e| CliError::from_error(e, Some(&src)))?;
    Ok(Built {
        src,
        prog,
        model,
        build_s: t0.elapsed().as_secs_f64(),
        jani_props,
    })
}

fn model_fields(r: Report, b: &Built) -> Report {
    let m = &b.model;
    r.field("model_type", m.model_type.name())
        .field("states", m.num_states())
        .field("initial_states", m.initial.len())
        .field("transitions", m.num_transitions())
        .field("choices", m.num_choices())
        .field("deadlocks_fixed", m.fixed_deadlocks.len())
        .field("build_s", b.build_s)
        .field("states_per_s", m.num_states() as f64 / b.build_s.max(1e-9))
}

fn model_lines(mut r: Report, b: &Built) -> Report {
    let m = &b.model;
    r = r.line(format!("Type:        {}", m.model_type.name()));
    r = r.line(format!(
        "States:      {} ({} initial)",
        m.num_states(),
        m.initial.len()
    ));
    r = r.line(format!("Transitions: {}", m.num_transitions()));
    if m.model_type.nondeterministic() {
        r = r.line(format!("Choices:     {}", m.num_choices()));
    }
    if !m.fixed_deadlocks.is_empty() {
        r = r.line(format!(
            "Warning: deadlocks detected and fixed in {} states",
            m.fixed_deadlocks.len()
        ));
    }
    r.line(format!(
        "Time for model construction: {:.3} seconds",
        b.build_s
    ))
}

fn answer_json(a: &Answer) -> serde_json::Value {
    match a {
        Answer::Bool(b) => serde_json::Value::Bool(*b),
        Answer::Num(x) if x.is_finite() => serde_json::json!(x),
        Answer::Num(x) if x.is_infinite() => serde_json::Value::String("Infinity".into()),
        Answer::Num(_) => serde_json::Value::String("NaN".into()),
    }
}

#[allow(clippy::too_many_arguments)]
fn check(
    b: &Built,
    props_src: &SourceFile,
    pf: &verikit_prob::PropertiesFile,
    sel: Option<&str>,
    ov: &[(String, String)],
    eps: f64,
    export_scheduler: Option<(&std::path::Path, &[&std::path::Path])>,
    ctx: &Ctx,
) -> Result<Report, CliError> {
    let props = select_properties(pf, sel).map_err(|e| CliError::from_error(e, Some(props_src)))?;
    for (n, _) in ov {
        if !b.prog.constants.iter().any(|(c, _)| c == n) && !pf.consts.iter().any(|c| &c.name == n)
        {
            tracing::warn!("--const {n} names no constant of the model or the properties");
        }
    }
    if props.is_empty() {
        return Err(CliError::Usage(
            "the properties file has no properties".into(),
        ));
    }
    if !(eps > 0.0 && eps < 1.0) {
        return Err(CliError::Usage("--precision must be in (0, 1)".into()));
    }
    let mut checker = Checker::new(
        &b.model,
        &b.prog,
        pf,
        ov,
        CheckOptions {
            eps,
            ..CheckOptions::default()
        },
    )
    .map_err(|e| CliError::from_error(e, Some(props_src)))?;
    let mut results = Vec::new();
    let mut lines = Vec::new();
    let t0 = Instant::now();
    for &p in &props {
        let text = match (&b.jani_props, &p.name) {
            (Some(_), Some(n)) => n.clone(),
            _ => prop_text(props_src, p),
        };
        let r = checker
            .check(p, &text)
            .map_err(|e| CliError::from_error(e, Some(props_src)))?;
        let label = result_label(&r, &text);
        let mut line = format!("{label}: {}", r.answer);
        if let Some((lo, hi)) = r.init_range {
            line.push_str(&format!(
                " (first initial state; range over initial states [{lo}, {hi}])"
            ));
        }
        if !r.sound {
            line.push_str(" (warning: iteration limit reached, error bound not verified)");
        }
        line.push_str(&format!("  [{:.3} s]", r.time_s));
        lines.push(line);
        results.push(serde_json::json!({
            "name": r.name, "property": text, "result": answer_json(&r.answer),
            "init_range": r.init_range.map(|(a, b)| vec![a, b]), "sound": r.sound, "time_s": r.time_s,
        }));
    }
    let mut sched_line = None;
    if let Some((path, inputs)) = export_scheduler {
        let [p] = props.as_slice() else {
            return Err(CliError::Usage(
                "--export-scheduler needs exactly one property (use --prop)".into(),
            ));
        };
        let sched = checker
            .scheduler(p)
            .map_err(|e| CliError::from_error(e, Some(props_src)))?;
        let what = match (&b.jani_props, &p.name) {
            (Some(_), Some(n)) => n.as_str(),
            _ => props_src.text.get(p.span.start..p.span.end).unwrap_or(""),
        };
        write_output(
            path,
            &verikit_prob::scheduler::write_scheduler(&b.model, &sched, what.trim()),
            inputs,
        )?;
        sched_line = Some(path.display().to_string());
    }
    let check_s = t0.elapsed().as_secs_f64();
    let verdict = if results.len() == 1 {
        match &results[0]["result"] {
            serde_json::Value::Bool(b) => b.to_string(),
            v => v.to_string().trim_matches('"').to_string(),
        }
    } else {
        "checked".to_string()
    };
    let mut r = Report::with_verdict(verdict);
    for l in &lines {
        r = r.line(format!("Result {l}"));
    }
    r = model_lines(r, b);
    r = r.line(format!("Time for model checking: {check_s:.3} seconds"));
    if let Some(f) = &sched_line {
        r = r
            .line(format!("Scheduler written to {f}"))
            .field("scheduler", f.clone());
    }
    r = model_fields(r, b)
        .field("results", results)
        .field("check_s", check_s)
        .field("time_s", ctx.elapsed());
    Ok(r)
}

pub fn run(cmd: PrismCmd, ctx: &Ctx) -> Result<Report, CliError> {
    match cmd {
        PrismCmd::Check {
            model,
            props,
            prop,
            precision,
            export_scheduler,
            widen,
        } => {
            let ov = overrides(&model)?;
            let b = load(&model)?;
            let (props_src, pf) = match (&b.jani_props, &props) {
                (Some(_), Some(_)) => {
                    return Err(CliError::Usage(
                        "a JANI model carries its properties: give no properties file".into(),
                    ))
                }
                (Some(pf), None) => (b.src.clone(), pf.clone()),
                (None, None) => {
                    return Err(CliError::Usage(
                        "a PRISM model needs a properties file: prism check MODEL PROPS".into(),
                    ))
                }
                (None, Some(pp)) => {
                    let src = read_input(pp)?;
                    let pf = parse_properties(&src.text)
                        .map_err(|e| CliError::from_error(e, Some(&src)))?;
                    (src, pf)
                }
            };
            if b.jani_props.is_some() && widen.is_some() {
                return Err(CliError::Usage(
                    "--widen is supported for PRISM-language models only".into(),
                ));
            }
            if b.model.is_interval() || widen.is_some() {
                let (sel, m) = (prop.as_deref(), b.model);
                return super::prism_imdp::check(
                    &b.src, &b.prog, m, b.build_s, &props_src, sel, &ov, precision, widen, ctx,
                );
            }
            let mut inputs = vec![model.model.as_path()];
            inputs.extend(props.as_deref());
            let export = export_scheduler.as_deref().map(|p| (p, inputs.as_slice()));
            check(
                &b,
                &props_src,
                &pf,
                prop.as_deref(),
                &ov,
                precision,
                export,
                ctx,
            )
        }
        PrismCmd::Build {
            model,
            export_tra,
            export_sta,
            export_lab,
            export_dot,
        } => {
            let b = load(&model)?;
            let inputs = [model.model.as_path()];
            if let Some(p) = &export_tra {
                write_output(p, &verikit_prob::export::tra(&b.model), &inputs)?;
            }
            if let Some(p) = &export_sta {
                write_output(p, &verikit_prob::export::sta(&b.model), &inputs)?;
            }
            if let Some(p) = &export_lab {
                let lab = verikit_prob::export::lab(&b.model, &b.prog)
                    .map_err(|e| CliError::from_error(e, Some(&b.src)))?;
                write_output(p, &lab, &inputs)?;
            }
            if let Some(p) = &export_dot {
                write_output(p, &verikit_prob::export::dot(&b.model), &inputs)?;
            }
            let r = model_lines(Report::with_verdict("built"), &b);
            Ok(model_fields(r, &b).field("time_s", ctx.elapsed()))
        }
        PrismCmd::Bisim(a) => super::prism_imdp::bisim(a, ctx),
    }
}

const DIE: &str = include_str!("../../demo/prism/die.prism");
const DIE_PROPS: &str = include_str!("../../demo/prism/die.props");
const DIE_JANI: &str = include_str!("../../demo/prism/die.jani");

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Report)>, CliError> {
    let t0 = Instant::now();
    let src = SourceFile::new("die.prism", DIE);
    let props = SourceFile::new("die.props", DIE_PROPS);
    let mf = parse_model(&src.text).map_err(|e| CliError::from_error(e, Some(&src)))?;
    let prog = check_model(&mf, &[]).map_err(|e| CliError::from_error(e, Some(&src)))?;
    let model =
        build(&prog, &BuildOptions::default()).map_err(|e| CliError::from_error(e, Some(&src)))?;
    let b = Built {
        src,
        prog,
        model,
        build_s: t0.elapsed().as_secs_f64(),
        jani_props: None,
    };
    let pf = parse_properties(&props.text).map_err(|e| CliError::from_error(e, Some(&props)))?;
    let r = check(&b, &props, &pf, None, &[], 1e-6, None, ctx)?;
    let mut out = vec![(
        "Knuth-Yao die (DTMC): P=? [F s=7 & d=k], expected coin flips".into(),
        r,
    )];
    // The same die in JANI, two synchronising automata, properties embedded.
    let t0 = Instant::now();
    let src = SourceFile::new("die.jani", DIE_JANI);
    let jf = verikit_prob::jani::parse_jani(&src.text)
        .map_err(|e| CliError::from_error(e, Some(&src)))?;
    let ov = [("k".to_string(), "1".to_string())];
    let prog = check_model(&jf.model, &ov).map_err(|e| CliError::from_error(e, Some(&src)))?;
    let model =
        build(&prog, &BuildOptions::default()).map_err(|e| CliError::from_error(e, Some(&src)))?;
    let b = Built {
        src: src.clone(),
        prog,
        model,
        build_s: t0.elapsed().as_secs_f64(),
        jani_props: Some(jf.props.clone()),
    };
    let r = check(&b, &src, &jf.props, None, &ov, 1e-6, None, ctx)?;
    out.push((
        "Knuth-Yao die in JANI (two synchronising automata, embedded properties, k=1)".into(),
        r,
    ));
    out.extend(super::prism_imdp::demo(ctx)?);
    Ok(out)
}
