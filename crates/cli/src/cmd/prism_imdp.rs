//! `verikit prism bisim` and the interval-model part of `verikit prism check`: alternating
//! probabilistic bisimulation of interval MDPs and robust (∃σ∀π) model checking (SETTA 2017).

use super::prism::ModelArgs;
use crate::report::{read_input, write_output, CliError, Ctx, Report};
use std::path::PathBuf;
use std::time::Instant;
use verikit_diag::SourceFile;
use verikit_prob::{
    build, check_model, parse_const_overrides, parse_model, BuildOptions, Model, Program,
};

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
}

pub(crate) fn overrides(a: &ModelArgs) -> Result<Vec<(String, String)>, CliError> {
    let mut out = Vec::new();
    for c in &a.consts {
        out.extend(parse_const_overrides(c).map_err(CliError::from)?);
    }
    Ok(out)
}

struct Loaded {
    src: SourceFile,
    prog: Program,
    model: Model,
    build_s: f64,
}

fn load(a: &ModelArgs) -> Result<Loaded, CliError> {
    let src = read_input(&a.model)?;
    let ov = overrides(a)?;
    let t0 = Instant::now();
    let mf = parse_model(&src.text).map_err(|e| CliError::from_error(e, Some(&src)))?;
    let prog = check_model(&mf, &ov).map_err(|e| CliError::from_error(e, Some(&src)))?;
    let opts = BuildOptions {
        fix_deadlocks: !a.no_fix_deadlocks,
        ..BuildOptions::default()
    };
    let model = build(&prog, &opts).map_err(|e| CliError::from_error(e, Some(&src)))?;
    Ok(Loaded {
        src,
        prog,
        model,
        build_s: t0.elapsed().as_secs_f64(),
    })
}

pub fn bisim(a: BisimArgs, ctx: &Ctx) -> Result<Report, CliError> {
    let b = load(&a.model)?;
    let red = verikit_prob::quotient::reduce(b.model, &b.prog, a.widen)
        .map_err(|e| CliError::from_error(e, Some(&b.src)))?;
    let (m, q) = (&red.model, &red.quotient);
    if let Some(p) = &a.out {
        let text = if p.extension().is_some_and(|e| e == "tra") {
            verikit_prob::quotient::interval_tra(q)
        } else {
            verikit_prob::quotient::to_prism(q, &red.labels)
        };
        write_output(p, &text, &[a.model.model.as_path()])?;
    }
    let r = Report::with_verdict("minimised")
        .line(format!(
            "Bisimulation: |S| {} -> {}, |I| {} -> {} ({} refinement rounds)",
            m.num_states(),
            q.num_states(),
            m.num_transitions(),
            q.num_transitions(),
            red.bisim.rounds
        ))
        .line(format!(
            "LP analyses: {} solved, {} cached",
            red.bisim.lp_solved, red.bisim.lp_cached
        ))
        .line(format!("Time for bisimulation: {:.3} seconds", red.time_s))
        .field("model_type", m.model_type.name())
        .field("states", m.num_states())
        .field("transitions", m.num_transitions())
        .field("choices", m.num_choices())
        .field("quotient_states", q.num_states())
        .field("quotient_transitions", q.num_transitions())
        .field("quotient_choices", q.num_choices())
        .field("rounds", red.bisim.rounds)
        .field("lp_solved", red.bisim.lp_solved)
        .field("lp_cached", red.bisim.lp_cached)
        .field("build_s", b.build_s)
        .field("bisim_s", red.time_s)
        .field("time_s", ctx.elapsed());
    Ok(r)
}
