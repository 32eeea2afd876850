//! The `verikit prism` commands as library calls (the CLI only parses arguments): `--const`
//! values, build options and the `-x prism.*` parameters turned into a [`CheckSpec`], errors
//! located in the model or the properties file, warnings, and the exported files written (never
//! over an input). The work itself is [`crate::task`]'s.

use crate::build::BuildOptions;
use crate::check::CheckOptions;
use crate::export::{dot, lab, sta, tra};
use crate::lang::typecheck::parse_const_overrides;
use crate::task::{self, CheckSpec, Located, Origin};
use std::path::{Path, PathBuf};
use verikit_diag::{write_output, Answer, Ctx, Failure, Param, SourceFile};

/// `-x prism.max-sweeps=N`: value-iteration sweeps per component (point and interval models)
/// before the result is reported as not verified.
pub const MAX_SWEEPS: Param = Param {
    name: "prism.max-sweeps",
    default: "1000000",
    range: "1..=1000000000",
    doc: "value-iteration sweeps per component before a result is reported unverified",
};

/// The model of a `verikit prism` command and how to build it.
#[derive(Clone, Debug, Default)]
pub struct ModelInput {
    /// The model file as given (`-` for standard input; its extension tells JANI).
    pub path: PathBuf,
    /// `--const` values (`N=3,K=1:1:4`).
    pub consts: Vec<String>,
    /// Add self-loops to deadlock states (PRISM's default) rather than reporting them.
    pub fix_deadlocks: bool,
    /// Largest number of states built (`None`: the library's default).
    pub max_states: Option<usize>,
}

/// `verikit prism check`.
#[derive(Clone, Debug, Default)]
pub struct CheckCommand {
    /// The properties file; or `inline`, one property given on the command line.
    pub props: Option<PathBuf>,
    pub inline: Option<String>,
    /// Property names or 1-based indices.
    pub selectors: Vec<String>,
    pub precision: f64,
    pub export_scheduler: Option<PathBuf>,
    pub widen: Option<f64>,
    pub test: bool,
    /// `FILE` or `FILE:csv`.
    pub export_results: Option<String>,
}

/// `verikit prism build`'s export files (its arguments, with the `clap` feature).
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct BuildExports {
    /// Write the transition matrix in PRISM's `.tra` format.
    #[cfg_attr(feature = "clap", arg(long = "export-tra", value_name = "FILE"))]
    pub tra: Option<PathBuf>,
    /// Write the states in PRISM's `.sta` format.
    #[cfg_attr(feature = "clap", arg(long = "export-sta", value_name = "FILE"))]
    pub sta: Option<PathBuf>,
    /// Write the labels in PRISM's `.lab` format.
    #[cfg_attr(feature = "clap", arg(long = "export-lab", value_name = "FILE"))]
    pub lab: Option<PathBuf>,
    /// Write a Graphviz DOT graph.
    #[cfg_attr(feature = "clap", arg(long = "export-dot", value_name = "FILE"))]
    pub dot: Option<PathBuf>,
}

/// `verikit prism bisim`.
#[derive(Clone, Debug, Default)]
pub struct BisimCommand {
    pub widen: Option<f64>,
    /// Where to write the quotient (`.tra`: explicit intervals, else a PRISM `imdp` model).
    pub out: Option<PathBuf>,
    /// The initial partition: `all`, `none`, `props` or label names.
    pub labels: Option<String>,
    pub props: Option<PathBuf>,
    pub selectors: Vec<String>,
    pub precision: f64,
}

/// The `--const` values, the build options and the budget, as [`task::run_check`] takes them.
fn spec(m: &ModelInput, ctx: &Ctx, eps: f64) -> Result<CheckSpec, Failure> {
    let mut overrides = Vec::new();
    for c in &m.consts {
        overrides.extend(parse_const_overrides(c).map_err(Failure::from)?);
    }
    let budget = ctx.budget.clone();
    let max_states = m.max_states.unwrap_or(BuildOptions::default().max_states);
    let build = BuildOptions {
        fix_deadlocks: m.fix_deadlocks,
        max_states,
        budget: budget.clone(),
    };
    let max_sweeps = ctx
        .params
        .get_in(&MAX_SWEEPS, 1, 1_000_000_000)
        .map_err(Failure::Usage)?;
    let check = CheckOptions {
        eps,
        budget,
        max_sweeps,
    };
    Ok(CheckSpec {
        overrides,
        build,
        check,
        ..CheckSpec::default()
    })
}

/// The model's text, whether it is JANI, and the properties' source (`None` for JANI).
fn inputs(
    model: &Path,
    props: Option<&Path>,
    inline: Option<&str>,
) -> Result<(SourceFile, bool, Option<SourceFile>), Failure> {
    let src = verikit_diag::read_input(model)?;
    let jani = task::is_jani(model.extension().and_then(|e| e.to_str()), &src.text);
    let props = match (props, inline) {
        (Some(p), _) => Some(verikit_diag::read_input(p)?),
        (None, Some(t)) => Some(SourceFile::new("<--pf>", t)),
        (None, None) => None,
    };
    Ok((src, jani, props))
}

/// A library error rendered against the file it is about.
pub(crate) fn located(e: Located, model: &SourceFile, props: Option<&SourceFile>) -> Failure {
    if e.0.is_timeout() {
        return Failure::Limit(e.0.to_string());
    }
    let f = match e.1 {
        Origin::Props => props.unwrap_or(model),
        Origin::Model => model,
    };
    Failure::from_error(e.0, Some(f))
}

fn warn_deadlocks(n: usize, ctx: &Ctx) {
    if n > 0 {
        ctx.warn(&format!("deadlocks detected and fixed in {n} states"));
    }
}

/// `verikit prism check`: each property's answer streamed through `ctx` as soon as it is
/// computed; the scheduler and the results tables written when asked for.
pub fn check_command(m: &ModelInput, c: &CheckCommand, ctx: &Ctx) -> Result<Answer, Failure> {
    let (src, jani, props) = inputs(&m.path, c.props.as_deref(), c.inline.as_deref())?;
    let mut spec = spec(m, ctx, c.precision)?;
    spec.selectors = c.selectors.clone();
    spec.widen = c.widen;
    spec.test = c.test;
    spec.scheduler = c.export_scheduler.is_some();
    let export = c.export_results.as_deref().map(task::export_target);
    spec.export_results = export.map(|e| e.1);
    let ptext = props.as_ref().map(|p| p.text.as_str());
    let out = task::run_check(&src.text, jani, ptext, &spec, &mut |a| {
        ctx.stream(a);
    })
    .map_err(|e| located(e, &src, props.as_ref()))?;
    out.warnings.iter().for_each(|w| ctx.warn(w));
    let mut a = ctx.finish_batch(out.answer);
    let inputs = [
        m.path.as_path(),
        c.props.as_deref().unwrap_or(Path::new("-")),
    ];
    if let (Some(path), Some(text)) = (&c.export_scheduler, &out.scheduler) {
        write_output(path, text, &inputs)?;
        a = a.line(format!("Scheduler written to {}", path.display()));
    }
    if let (Some((path, _)), Some(text)) = (export, &out.results_table) {
        write_output(Path::new(path), text, &inputs)?;
    }
    Ok(a.time("total_s", ctx.elapsed()))
}

/// `verikit prism build`: the model's size, and the exports asked for.
pub fn build_command(m: &ModelInput, x: &BuildExports, ctx: &Ctx) -> Result<Answer, Failure> {
    let (src, jani, _) = inputs(&m.path, None, None)?;
    let spec = spec(m, ctx, 1e-6)?;
    let build = task::prepare(&src.text, jani, &spec.overrides)
        .and_then(|p| task::build_model(p, &spec.build));
    let build = build.map_err(|e| located(Located(e, Origin::Model), &src, None))?;
    warn_deadlocks(build.model.fixed_deadlocks.len(), ctx);
    let (model, inputs) = (&build.model, [m.path.as_path()]);
    let lab = || lab(model, &build.prog).map_err(|e| Failure::from_error(e, Some(&src)));
    for (path, text) in [
        (&x.tra, Some(tra(model))),
        (&x.sta, Some(sta(model))),
        (&x.lab, x.lab.as_ref().map(|_| lab()).transpose()?),
        (&x.dot, Some(dot(model))),
    ] {
        if let (Some(p), Some(t)) = (path, text) {
            write_output(p, t, &inputs)?;
        }
    }
    let a = task::model_lines(
        task::model_input(Answer::new(), model),
        model,
        build.build_s,
    );
    Ok(a.time("build_s", build.build_s)
        .time("total_s", ctx.elapsed()))
}

/// `verikit prism bisim`: the coarsest alternating bisimulation (SETTA 2017), the quotient
/// written when asked for.
pub fn bisim_command(m: &ModelInput, b: &BisimCommand, ctx: &Ctx) -> Result<Answer, Failure> {
    let (src, jani, props) = inputs(&m.path, b.props.as_deref(), None)?;
    let mut spec = spec(m, ctx, b.precision)?;
    spec.selectors = b.selectors.clone();
    spec.widen = b.widen;
    let ptext = props.as_ref().map(|p| p.text.as_str());
    let out = task::run_bisim(&src.text, jani, ptext, &spec, b.labels.as_deref())
        .map_err(|e| located(e, &src, props.as_ref()))?;
    warn_deadlocks(out.reduction.model.fixed_deadlocks.len(), ctx);
    if let Some(p) = &b.out {
        let text = task::quotient_text(&out.reduction, p.extension().is_some_and(|e| e == "tra"));
        write_output(p, text, &[m.path.as_path()])?;
    }
    Ok(out.answer.time("total_s", ctx.elapsed()))
}

/// `verikit demo`: `model` checked against `props` (`None`: a JANI model's own properties)
/// with constants `consts`; the items listed before the summary.
pub fn demo_check(
    name: &str,
    model: &str,
    props: Option<&str>,
    consts: &str,
) -> Result<Answer, Failure> {
    let src = SourceFile::new(name, model);
    let spec = CheckSpec {
        overrides: parse_const_overrides(consts)?,
        ..CheckSpec::default()
    };
    let mut items = Vec::new();
    let o = task::run_check(model, props.is_none(), props, &spec, &mut |i| items.push(i))
        .map_err(|e| located(e, &src, None))?;
    let mut a = o.answer;
    let summary = std::mem::take(&mut a.text);
    items.into_iter().for_each(|i| a.push_result(i));
    Ok(a.line(summary.trim_end()))
}

/// `verikit demo`: the bisimulation quotient of `model` and robust values of `props` on both.
pub fn demo_bisim(model: &str, props: &str) -> Result<Answer, Failure> {
    let src = SourceFile::new("fig1.props", props);
    let spec = CheckSpec::default();
    let out = task::run_bisim(model, false, Some(props), &spec, Some("all"))
        .map_err(|e| located(e, &SourceFile::new("fig1.prism", model), Some(&src)))?;
    Ok(out.answer)
}
