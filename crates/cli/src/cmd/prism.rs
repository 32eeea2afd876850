//! `verikit prism`: build PRISM-language and JANI models, check PCTL/CSL properties (JANI
//! files carry their properties), and reduce interval MDPs by alternating bisimulation. The work
//! is `verikit_prob::task`'s; this file reads files and arguments.

use crate::report::{read_input, write_output, CliError, Ctx};
use std::path::{Path, PathBuf};
use verikit_diag::{Answer, SourceFile};
use verikit_prob::task::{self, CheckSpec, Located, Origin};
use verikit_prob::{parse_const_overrides, BuildOptions, CheckOptions};

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

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    model: ModelArgs,
    /// Properties file (`.props`, `.pctl`, `.csl`); not for JANI models, whose properties
    /// are embedded.
    props: Option<PathBuf>,
    /// A property given inline, e.g. `--pf 'P=? [ F "done" ]'` (instead of a file).
    #[arg(long, value_name = "PROPERTY", conflicts_with = "props")]
    pf: Option<String>,
    /// Check only these properties, by name or 1-based index (repeatable; comma lists).
    #[arg(long, value_name = "NAME,...")]
    prop: Vec<String>,
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
    /// Compare every result with the `// RESULT: value` annotation before its property
    /// (PRISM's -test); the verdict is false if one differs.
    #[arg(long)]
    test: bool,
    /// Write the results as PRISM's tables (one per property, a row per --const combination);
    /// `FILE:csv` for comma-separated values.
    #[arg(long, value_name = "FILE[:csv]")]
    export_results: Option<String>,
}

#[derive(clap::Subcommand, Debug)]
pub enum PrismCmd {
    /// Build a model and check properties: prints each result as soon as it is computed, then
    /// the state/transition counts and times. `--const N=1:2:9` (start:step:end) runs an
    /// experiment over every combination. Properties: P (X, U, F, G, W, R, bounded), R (F, C,
    /// C<=k, I=k, S), S, CTL's A/E, filters, `"name"` for a named property; a model without a
    /// type keyword is an MDP, as in PRISM.
    Check(CheckArgs),
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
    Bisim(BisimArgs),
}

/// The `--const` values, the build options and the budget, as the library takes them.
pub(crate) fn spec(a: &ModelArgs, ctx: &Ctx, eps: f64) -> Result<CheckSpec, CliError> {
    let mut overrides = Vec::new();
    for c in &a.consts {
        overrides.extend(parse_const_overrides(c).map_err(CliError::from)?);
    }
    let budget = ctx.budget.clone();
    let max_states = a.max_states.unwrap_or(BuildOptions::default().max_states);
    let build = BuildOptions {
        fix_deadlocks: !a.no_fix_deadlocks,
        max_states,
        budget: budget.clone(),
    };
    let p = &verikit_prob::MAX_SWEEPS;
    let max_sweeps = ctx
        .params
        .get_in(p, 1, 1_000_000_000)
        .map_err(CliError::Usage)?;
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
pub(crate) fn inputs(
    model: &Path,
    props: Option<&Path>,
    inline: Option<&str>,
) -> Result<(SourceFile, bool, Option<SourceFile>), CliError> {
    let src = read_input(model)?;
    let jani = task::is_jani(model.extension().and_then(|e| e.to_str()), &src.text);
    let props = match (props, inline) {
        (Some(p), _) => Some(read_input(p)?),
        (None, Some(t)) => Some(SourceFile::new("<--pf>", t)),
        (None, None) => None,
    };
    Ok((src, jani, props))
}

/// A library error rendered against the file it is about.
pub(crate) fn located(e: Located, model: &SourceFile, props: Option<&SourceFile>) -> CliError {
    if e.0.is_timeout() {
        return CliError::Limit(e.0.to_string());
    }
    let f = match e.1 {
        Origin::Props => props.unwrap_or(model),
        Origin::Model => model,
    };
    CliError::from_error(e.0, Some(f))
}

/// A warning on stderr, unless `-q`.
fn warn(w: &str, ctx: &Ctx) {
    if !ctx.quiet {
        eprintln!("Warning: {w}");
    }
}

pub(crate) fn warn_deadlocks(n: usize, ctx: &Ctx) {
    if n > 0 {
        warn(&format!("deadlocks detected and fixed in {n} states"), ctx);
    }
}

fn check(c: CheckArgs, ctx: &Ctx) -> Result<Answer, CliError> {
    let (src, jani, props) = inputs(&c.model.model, c.props.as_deref(), c.pf.as_deref())?;
    let mut spec = spec(&c.model, ctx, c.precision)?;
    spec.selectors = c.prop.clone();
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
    out.warnings.iter().for_each(|w| warn(w, ctx));
    let mut a = ctx.finish_batch(out.answer);
    let inputs = [
        c.model.model.as_path(),
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

pub fn run(cmd: PrismCmd, ctx: &Ctx) -> Result<Answer, CliError> {
    let PrismCmd::Build {
        model,
        export_tra,
        export_sta,
        export_lab,
        export_dot,
    } = cmd
    else {
        return match cmd {
            PrismCmd::Check(c) => check(c, ctx),
            PrismCmd::Bisim(a) => bisim(a, ctx),
            PrismCmd::Build { .. } => unreachable!("handled below"),
        };
    };
    let (src, jani, _) = inputs(&model.model, None, None)?;
    let spec = spec(&model, ctx, 1e-6)?;
    let build = task::prepare(&src.text, jani, &spec.overrides)
        .and_then(|p| task::build_model(p, &spec.build));
    let build = build.map_err(|e| located(Located(e, Origin::Model), &src, None))?;
    warn_deadlocks(build.model.fixed_deadlocks.len(), ctx);
    let (m, inputs) = (&build.model, [model.model.as_path()]);
    let lab = || verikit_prob::lab(m, &build.prog).map_err(|e| CliError::from_error(e, Some(&src)));
    for (path, text) in [
        (&export_tra, Some(verikit_prob::tra(m))),
        (&export_sta, Some(verikit_prob::sta(m))),
        (&export_lab, export_lab.as_ref().map(|_| lab()).transpose()?),
        (&export_dot, Some(verikit_prob::dot(m))),
    ] {
        if let (Some(p), Some(t)) = (path, text) {
            write_output(p, &t, &inputs)?;
        }
    }
    let a = task::model_lines(task::model_input(Answer::new(), m), m, build.build_s);
    Ok(a.time("build_s", build.build_s)
        .time("total_s", ctx.elapsed()))
}

const DIE: &str = include_str!("../../demo/prism/die.prism");
const DIE_PROPS: &str = include_str!("../../demo/prism/die.props");
const DIE_JANI: &str = include_str!("../../demo/prism/die.jani");

pub fn demo(_ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let mut out = Vec::new();
    for (title, name, text, props, consts) in [
        (
            "Knuth-Yao die (DTMC): P=? [F s=7 & d=k], expected coin flips",
            "die.prism",
            DIE,
            Some(DIE_PROPS),
            "",
        ),
        (
            "Knuth-Yao die in JANI (two synchronising automata, embedded properties, k=1)",
            "die.jani",
            DIE_JANI,
            None,
            "k=1",
        ),
    ] {
        let src = SourceFile::new(name, text);
        let spec = CheckSpec {
            overrides: parse_const_overrides(consts)?,
            ..CheckSpec::default()
        };
        let mut items = Vec::new();
        let o = task::run_check(text, props.is_none(), props, &spec, &mut |i| items.push(i))
            .map_err(|e| located(e, &src, None))?;
        let mut a = o.answer;
        let summary = std::mem::take(&mut a.text);
        items.into_iter().for_each(|i| a.push_result(i));
        out.push((title.to_string(), a.line(summary.trim_end())));
    }
    out.extend(bisim_demo()?);
    Ok(out)
}

// `verikit prism bisim`: alternating probabilistic bisimulation of interval MDPs (SETTA 2017);
// the work is `verikit_prob::task::bisim`'s.

#[derive(clap::Args, Debug)]
pub struct BisimArgs {
    #[command(flatten)]
    model: ModelArgs,
    /// Widen every probability p of a DTMC/MDP to [max(0,p-EPS), min(1,p+EPS)] first.
    #[arg(long, value_name = "EPS")]
    widen: Option<f64>,
    /// Write the quotient IMDP (`.tra`: explicit intervals; otherwise a PRISM `imdp` model).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// The initial partition: `all` model labels (the default without --props), `none`, `props`
    /// (the atomic propositions and rewards of the properties; the default with --props), or a
    /// comma-separated list of label and reward-structure names.
    #[arg(long, value_name = "all|none|props|NAMES")]
    labels: Option<String>,
    /// Check these properties on the model and on its quotient (robust ∃σ∀π values) and report
    /// whether they agree.
    #[arg(long, value_name = "FILE")]
    props: Option<PathBuf>,
    /// With --props: check only these properties, by name or 1-based index (comma lists).
    #[arg(long)]
    prop: Vec<String>,
    /// With --props: relative precision of numerical results.
    #[arg(long, default_value_t = 1e-6)]
    precision: f64,
}

pub fn bisim(a: BisimArgs, ctx: &Ctx) -> Result<Answer, CliError> {
    let (src, jani, props) = inputs(&a.model.model, a.props.as_deref(), None)?;
    let mut spec = spec(&a.model, ctx, a.precision)?;
    spec.selectors = a.prop.clone();
    spec.widen = a.widen;
    let ptext = props.as_ref().map(|p| p.text.as_str());
    let out = task::run_bisim(&src.text, jani, ptext, &spec, a.labels.as_deref())
        .map_err(|e| located(e, &src, props.as_ref()))?;
    warn_deadlocks(out.reduction.model.fixed_deadlocks.len(), ctx);
    if let Some(p) = &a.out {
        let text = task::quotient_text(&out.reduction, p.extension().is_some_and(|e| e == "tra"));
        write_output(p, &text, &[a.model.model.as_path()])?;
    }
    Ok(out.answer.time("total_s", ctx.elapsed()))
}

const FIG1: &str = include_str!("../../demo/prism/fig1.prism");
const FIG1_PROPS: &str = include_str!("../../demo/prism/fig1.props");

/// `verikit demo`: the paper's Fig. 1 IMDP — its coarsest alternating bisimulation (the two
/// copies of s merge: a is dominated by b) and robust values on model and quotient.
fn bisim_demo() -> Result<Vec<(String, Answer)>, CliError> {
    let src = SourceFile::new("fig1.props", FIG1_PROPS);
    let out = task::run_bisim(
        FIG1,
        false,
        Some(FIG1_PROPS),
        &CheckSpec::default(),
        Some("all"),
    )
    .map_err(|e| located(e, &SourceFile::new("fig1.prism", FIG1), Some(&src)))?;
    let title =
        "Interval MDP of SETTA'17 Fig. 1: alternating bisimulation quotient, robust Pmax [F t]";
    Ok(vec![(title.into(), out.answer)])
}
