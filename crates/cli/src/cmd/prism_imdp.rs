//! `verikit prism bisim`: alternating probabilistic bisimulation of interval MDPs (SETTA 2017);
//! the work is `verikit_prob::task::bisim`'s.

use super::prism::{build, in_file, prepare, read_props, ModelArgs};
use crate::report::{write_output, CliError, Ctx};
use std::path::PathBuf;
use verikit_diag::{Answer, SourceFile};
use verikit_prob::task::{self, BisimRequest, CheckRequest};
use verikit_prob::{BuildOptions, CheckOptions};

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
    let l = prepare(&a.model)?;
    let ov = l.ov.clone();
    let props = match &a.props {
        Some(p) => Some(read_props(Some(p), None, None, &l.src)?),
        None => None,
    };
    let selected = match &props {
        Some((s, pf)) => task::select(pf, &a.prop).map_err(|e| in_file(e, s))?,
        None => Vec::new(),
    };
    let (src, b) = build(l, &a.model, ctx)?;
    let req = BisimRequest {
        labels: a.labels.as_deref(),
        check: props.as_ref().map(|(s, pf)| CheckRequest {
            props_src: &s.text,
            pf,
            selected: &selected,
            overrides: &ov,
            opts: CheckOptions {
                eps: a.precision,
                budget: ctx.budget.clone(),
                ..CheckOptions::default()
            },
            widen: None,
            test: false,
        }),
        widen: a.widen,
    };
    let psrc = props.as_ref().map_or(&src, |p| &p.0);
    let out = task::bisim(b, &req).map_err(|e| in_file(e, psrc))?;
    if let Some(p) = &a.out {
        let tra = p.extension().is_some_and(|e| e == "tra");
        let text = task::quotient_text(&out.reduction, tra);
        write_output(p, &text, &[a.model.model.as_path()])?;
    }
    Ok(out.answer.time("total_s", ctx.elapsed()))
}

const FIG1: &str = include_str!("../../demo/prism/fig1.prism");
const FIG1_PROPS: &str = include_str!("../../demo/prism/fig1.props");

/// `verikit demo`: the paper's Fig. 1 IMDP — its coarsest alternating bisimulation (the two
/// copies of s merge: a is dominated by b) and robust values on model and quotient.
pub fn demo() -> Result<Vec<(String, Answer)>, CliError> {
    let src = SourceFile::new("fig1.prism", FIG1);
    let props = SourceFile::new("fig1.props", FIG1_PROPS);
    let p = task::prepare(FIG1, false, &[]).map_err(|e| in_file(e, &src))?;
    let b = task::build_model(p, &BuildOptions::default()).map_err(|e| in_file(e, &src))?;
    let pf = task::parse_props(FIG1_PROPS).map_err(|e| in_file(e, &props))?;
    let sel: Vec<usize> = (0..pf.properties.len()).collect();
    let req = BisimRequest {
        labels: Some("all"),
        check: Some(CheckRequest {
            props_src: FIG1_PROPS,
            pf: &pf,
            selected: &sel,
            overrides: &[],
            opts: CheckOptions::default(),
            widen: None,
            test: false,
        }),
        widen: None,
    };
    let out = task::bisim(b, &req).map_err(|e| in_file(e, &props))?;
    Ok(vec![(
        "Interval MDP of SETTA'17 Fig. 1: alternating bisimulation quotient, robust Pmax [F t]"
            .into(),
        out.answer,
    )])
}
