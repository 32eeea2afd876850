//! `verikit prism`: build PRISM-language and JANI models and check PCTL/CSL properties (JANI
//! files carry their properties). The work is `verikit_prob::task`'s; this file reads files and
//! arguments.

use crate::report::{read_input, write_output, CliError, Ctx};
use std::path::{Path, PathBuf};
use verikit_diag::{Answer, SourceFile};
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

#[derive(clap::Subcommand, Debug)]
pub enum PrismCmd {
    /// Build a model and check properties: prints each result as soon as it is computed, then
    /// the state/transition counts and times.
    Check {
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

pub fn run(cmd: PrismCmd, ctx: &Ctx) -> Result<Answer, CliError> {
    match cmd {
        PrismCmd::Check {
            model,
            props,
            pf,
            prop,
            precision,
            export_scheduler,
            widen,
        } => {
            // Model and properties are parsed, and the selection validated, before building.
            let l = prepare(&model)?;
            let jani = l.prepared.jani_props.clone();
            let (psrc, pfile) = read_props(props.as_deref(), pf.as_deref(), jani.as_ref(), &l.src)?;
            if jani.is_some() && widen.is_some() {
                return Err(CliError::Usage(
                    "--widen is supported for PRISM-language models only".into(),
                ));
            }
            let selected = task::select(&pfile, &prop).map_err(|e| in_file(e, &psrc))?;
            let ov = l.ov.clone();
            let req = CheckRequest {
                props_src: &psrc.text,
                pf: &pfile,
                selected: &selected,
                overrides: &ov,
                opts: CheckOptions {
                    eps: precision,
                    budget: ctx.budget.clone(),
                    ..CheckOptions::default()
                },
                widen,
            };
            task::validate(&l.prepared.prog, &req).map_err(|e| in_file(e, &psrc))?;
            for (n, _) in &ov {
                let known = l.prepared.prog.constants.iter().any(|(c, _)| c == n)
                    || pfile.consts.iter().any(|c| &c.name == n);
                if !known && !ctx.quiet {
                    eprintln!("Warning: --const {n} names no constant of the model or the properties");
                }
            }
            let (_, b) = build(l, &model, ctx)?;
            let summary = task::check(&b, &req, &mut |a| {
                ctx.stream(a);
            })
            .map_err(|e| in_file(e, &psrc))?;
            let mut summary = ctx.finish_batch(summary);
            if let Some(path) = &export_scheduler {
                let [i] = selected.as_slice() else {
                    return Err(CliError::Usage(
                        "--export-scheduler needs exactly one property (use --prop)".into(),
                    ));
                };
                let text = task::scheduler(&b, &req, *i).map_err(|e| in_file(e, &psrc))?;
                let mut inputs = vec![model.model.as_path()];
                inputs.extend(props.as_deref());
                write_output(path, &text, &inputs)?;
                summary = summary
                    .line(format!("Scheduler written to {}", path.display()))
                    .detail("scheduler", path.display().to_string());
            }
            Ok(summary.time("total_s", ctx.elapsed()))
        }
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
