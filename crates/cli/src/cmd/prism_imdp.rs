//! `verikit prism bisim`: alternating probabilistic bisimulation of interval MDPs (SETTA 2017);
//! the work is `verikit_prob::task::bisim`'s.

use super::prism::{inputs, located, spec, warn_deadlocks, ModelArgs};
use crate::report::{write_output, CliError, Ctx};
use std::path::PathBuf;
use verikit_diag::{Answer, SourceFile};
use verikit_prob::task::{self, CheckSpec};

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
pub fn demo() -> Result<Vec<(String, Answer)>, CliError> {
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
