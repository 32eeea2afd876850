//! `verikit prism`: build PRISM-language and JANI models and check PCTL/CSL properties (JANI
//! files carry their properties). The work is `verikit_prob::task`'s; this file reads files and
//! arguments.

use crate::report::{read_input, write_output, CliError, Ctx};
use std::path::{Path, PathBuf};
use verikit_diag::{Answer, SourceFile, Verdict};
use verikit_prob::task::{self, Built, CheckRequest, Prepared};
use verikit_prob::{parse_const_overrides, BuildOptions, CheckOptions, PropertiesFile};

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
    /// experiment over every combination.
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
    Bisim(super::prism_imdp::BisimArgs),
}

pub(crate) fn overrides(a: &ModelArgs) -> Result<Vec<(String, String)>, CliError> {
    let mut out = Vec::new();
    for c in &a.consts {
        out.extend(parse_const_overrides(c).map_err(CliError::from)?);
    }
    Ok(out)
}

/// A model file read, parsed and type-checked (not built yet).
pub(crate) struct Loaded {
    pub(crate) src: SourceFile,
    pub(crate) prepared: Prepared,
    pub(crate) ov: Vec<(String, String)>,
}

pub(crate) fn prepare(a: &ModelArgs) -> Result<Loaded, CliError> {
    let src = read_input(&a.model)?;
    let ov = overrides(a)?;
    let ext = a.model.extension().and_then(|e| e.to_str());
    let jani = task::is_jani(ext, &src.text);
    let prepared = task::prepare(&src.text, jani, &ov).map_err(|e| in_file(e, &src))?;
    Ok(Loaded { src, prepared, ov })
}

pub(crate) fn build(l: Loaded, a: &ModelArgs, ctx: &Ctx) -> Result<(SourceFile, Built), CliError> {
    let opts = BuildOptions {
        fix_deadlocks: !a.no_fix_deadlocks,
        max_states: a.max_states.unwrap_or(BuildOptions::default().max_states),
        budget: ctx.budget.clone(),
        ..BuildOptions::default()
    };
    let b = task::build_model(l.prepared, &opts).map_err(|e| in_file(e, &l.src))?;
    if !b.model.fixed_deadlocks.is_empty() && !ctx.quiet {
        eprintln!(
            "Warning: deadlocks detected and fixed in {} states",
            b.model.fixed_deadlocks.len()
        );
    }
    Ok((l.src, b))
}

pub(crate) fn in_file(e: verikit_prob::ProbError, src: &SourceFile) -> CliError {
    if e.is_timeout() {
        return CliError::Limit(e.to_string());
    }
    CliError::from_error(e, Some(src))
}

/// The properties to check: a file, an inline `--pf`, or a JANI model's own.
pub(crate) fn read_props(
    file: Option<&Path>,
    inline: Option<&str>,
    jani: Option<&PropertiesFile>,
    model_src: &SourceFile,
) -> Result<(SourceFile, PropertiesFile), CliError> {
    let src = match (file, inline, jani) {
        (Some(_), _, Some(_)) | (_, Some(_), Some(_)) => {
            return Err(CliError::Usage(
                "a JANI model carries its properties: give no properties".into(),
            ))
        }
        (_, _, Some(pf)) => return Ok((model_src.clone(), pf.clone())),
        (Some(p), _, None) => read_input(p)?,
        (None, Some(t), None) => SourceFile::new("<--pf>", t),
        (None, None, None) => {
            return Err(CliError::Usage(
                "a PRISM model needs properties: prism check MODEL PROPS (or --pf PROPERTY)"
                    .into(),
            ))
        }
    };
    let pf = task::parse_props(&src.text).map_err(|e| in_file(e, &src))?;
    Ok((src, pf))
}

/// `prism check`: properties parsed and validated first, then one build and check per
/// combination of the constants' ranges, each result streamed.
fn check(c: CheckArgs, ctx: &Ctx) -> Result<Answer, CliError> {
    let combos = task::expand_consts(&overrides(&c.model)?).map_err(|e| CliError::from_error(e, None))?;
    let src = read_input(&c.model.model)?;
    let jani = task::is_jani(c.model.model.extension().and_then(|e| e.to_str()), &src.text);
    if jani && c.widen.is_some() {
        return Err(CliError::Usage("--widen is supported for PRISM-language models only".into()));
    }
    let mut rows: Vec<(String, Vec<(Vec<(String, String)>, String)>)> = Vec::new();
    let (mut verdicts, mut summary) = (Vec::new(), Answer::new());
    for ov in &combos {
        let l = Loaded {
            prepared: task::prepare(&src.text, jani, ov).map_err(|e| in_file(e, &src))?,
            src: src.clone(),
            ov: ov.clone(),
        };
        let jp = l.prepared.jani_props.clone();
        let (psrc, pf) = read_props(c.props.as_deref(), c.pf.as_deref(), jp.as_ref(), &src)?;
        let selected = task::select(&pf, &c.prop).map_err(|e| in_file(e, &psrc))?;
        let opts = CheckOptions { eps: c.precision, budget: ctx.budget.clone(), ..Default::default() };
        let (props_src, widen, test) = (psrc.text.as_str(), c.widen, c.test);
        let req = CheckRequest { props_src, pf: &pf, selected: &selected, overrides: ov, opts, widen, test };
        task::validate(&l.prepared.prog, &req).map_err(|e| in_file(e, &psrc))?;
        let b = build(l, &c.model, ctx)?.1;
        rows.resize(selected.len(), Default::default());
        let mut k = 0;
        let s = task::check(&b, &req, &mut |mut a| {
            let v = a.detail.get("result").map_or("timeout".into(), |x| x.to_string());
            if let Some(r) = rows.get_mut(k) {
                r.0 = a.detail.get("property").and_then(|p| p.as_str()).unwrap_or("").into();
                r.1.push((ov.clone(), v.trim_matches('"').to_string()));
            }
            k += 1;
            if combos.len() > 1 {
                let cs: Vec<String> = ov.iter().map(|(n, v)| format!("{n}={v}")).collect();
                a.text = format!("[{}] {}", cs.join(","), a.text);
            }
            ctx.stream(a);
        })
        .map_err(|e| in_file(e, &psrc))?;
        verdicts.push(Answer::decision(s.verdict.unwrap_or(Verdict::True)));
        summary = s;
        if let Some(path) = c.export_scheduler.as_deref() {
            let [i] = selected.as_slice() else {
                return Err(CliError::Usage("--export-scheduler needs exactly one property (use --prop)".into()));
            };
            let text = task::scheduler(&b, &req, *i).map_err(|e| in_file(e, &psrc))?;
            let inputs: Vec<&Path> = [Some(c.model.model.as_path()), c.props.as_deref()].into_iter().flatten().collect();
            write_output(path, &text, &inputs)?;
            summary = summary.line(format!("Scheduler written to {}", path.display()));
        }
        if summary.verdict == Some(Verdict::Timeout) {
            break;
        }
    }
    if let Some(spec) = &c.export_results {
        let (path, csv) = match spec.strip_suffix(":csv") {
            Some(p) => (p, true),
            None => (spec.as_str(), false),
        };
        let mut out = String::new();
        for (name, r) in &rows {
            out.push_str(&format!("{name}:\n{}\n", task::results_table(r, csv)));
        }
        write_output(Path::new(path), &out, &[c.model.model.as_path()])?;
    }
    for (name, r) in rows.iter().filter(|_| combos.len() > 1) {
        summary = summary.line(format!("Results of {name}:\n{}", task::results_table(r, false).trim_end()));
    }
    summary.verdict = Answer::combined_verdict(&verdicts);
    Ok(ctx.finish_batch(summary).time("total_s", ctx.elapsed()))
}

pub fn run(cmd: PrismCmd, ctx: &Ctx) -> Result<Answer, CliError> {
    match cmd {
        PrismCmd::Check(c) => check(c, ctx),
        PrismCmd::Build {
            model,
            export_tra,
            export_sta,
            export_lab,
            export_dot,
        } => {
            let (src, b) = build(prepare(&model)?, &model, ctx)?;
            let inputs = [model.model.as_path()];
            let m = &b.model;
            if let Some(p) = &export_tra {
                write_output(p, &verikit_prob::export::tra(m), &inputs)?;
            }
            if let Some(p) = &export_sta {
                write_output(p, &verikit_prob::export::sta(m), &inputs)?;
            }
            if let Some(p) = &export_lab {
                let lab = verikit_prob::export::lab(m, &b.prog).map_err(|e| in_file(e.into(), &src))?;
                write_output(p, &lab, &inputs)?;
            }
            if let Some(p) = &export_dot {
                write_output(p, &verikit_prob::export::dot(m), &inputs)?;
            }
            let a = task::model_lines(task::model_input(Answer::new(), m), m, b.build_s);
            Ok(a.time("build_s", b.build_s).time("total_s", ctx.elapsed()))
        }
        PrismCmd::Bisim(a) => super::prism_imdp::bisim(a, ctx),
    }
}

const DEMOS: [(&str, &str, &str, &str, &str); 2] = [
    (
        "Knuth-Yao die (DTMC): P=? [F s=7 & d=k], expected coin flips",
        "die.prism",
        include_str!("../../demo/prism/die.prism"),
        include_str!("../../demo/prism/die.props"),
        "",
    ),
    (
        "Knuth-Yao die in JANI (two synchronising automata, embedded properties, k=1)",
        "die.jani",
        include_str!("../../demo/prism/die.jani"),
        "",
        "k=1",
    ),
];

pub fn demo(_ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let mut out = Vec::new();
    for (title, name, text, props, consts) in DEMOS {
        let src = SourceFile::new(name, text);
        let ov = parse_const_overrides(consts).map_err(CliError::from)?;
        let jani = task::is_jani(None, text);
        let p = task::prepare(text, jani, &ov).map_err(|e| in_file(e, &src))?;
        let jp = p.jani_props.clone();
        let b = task::build_model(p, &BuildOptions::default()).map_err(|e| in_file(e, &src))?;
        let inline = (!jani).then_some(props);
        let (psrc, pf) = read_props(None, inline, jp.as_ref(), &src)?;
        let sel: Vec<usize> = (0..pf.properties.len()).collect();
        let req = CheckRequest {
            props_src: &psrc.text,
            pf: &pf,
            selected: &sel,
            overrides: &ov,
            opts: CheckOptions::default(),
            widen: None,
            test: false,
        };
        let mut items = Vec::new();
        let mut a = task::check(&b, &req, &mut |i| items.push(i)).map_err(|e| in_file(e, &psrc))?;
        let mut all = Answer::new();
        for i in items {
            all.push_result(i);
        }
        all.text.push_str(&a.text);
        a.text = all.text;
        a.results = all.results;
        out.push((title.to_string(), a));
    }
    out.extend(super::prism_imdp::demo()?);
    Ok(out)
}
