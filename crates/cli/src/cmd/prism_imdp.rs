//! `verikit prism bisim` and the interval-model part of `verikit prism check`: alternating
//! probabilistic bisimulation of interval MDPs and robust (∃σ∀π) model checking (SETTA 2017).

use super::prism::{load, overrides, prop_text, result_label, Built, ModelArgs};
use crate::report::{read_input, write_output, CliError, Ctx, Report};
use std::path::PathBuf;
use std::time::Instant;
use verikit_diag::SourceFile;
use verikit_prob::robust_check::RobustChecker;
use verikit_prob::{
    build, check_model, parse_model, parse_properties, select_properties, Answer, BuildOptions,
    CheckOptions, Model, Program, PropertiesFile, PropertyResult,
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
    /// The initial partition: `all` model labels (the default without --props), `none`, `props`
    /// (the atomic propositions and rewards of the properties; the default with --props), or a
    /// comma-separated list of label and reward-structure names.
    #[arg(long, value_name = "all|none|props|NAMES")]
    labels: Option<String>,
    /// Check these properties on the model and on its quotient (robust ∃σ∀π values) and report
    /// whether they agree.
    #[arg(long, value_name = "FILE")]
    props: Option<PathBuf>,
    /// With --props: check only the property with this name or 1-based index.
    #[arg(long)]
    prop: Option<String>,
    /// With --props: relative precision of numerical results.
    #[arg(long, default_value_t = 1e-6)]
    precision: f64,
}

/// Does the property use PRISM's cooperative-nature operators (`Pmaxmax`, `Rminmin`, …)?
fn cooperative_nature(text: &str) -> bool {
    text.contains("maxmax") || text.contains("minmin")
}

/// The initial partition asked for by `--labels` (and `--props`).
fn initial_partition(
    a: &BisimArgs,
    b: &Built,
    props: Option<(&SourceFile, &PropertiesFile)>,
    ov: &[(String, String)],
) -> Result<(Vec<u32>, String), CliError> {
    let spec = a
        .labels
        .clone()
        .unwrap_or_else(|| if props.is_some() { "props" } else { "all" }.to_string());
    let m = &b.model;
    let n = m.num_states();
    let empty = PropertiesFile::default();
    let (psrc, pf) = match props {
        Some((s, f)) => (s.text.as_str(), f),
        None => ("", &empty),
    };
    let mut checker = RobustChecker::new(m, &b.prog, pf, psrc, ov, CheckOptions::default())
        .map_err(|e| CliError::from_error(e, props.map(|p| p.0)))?;
    let mut keys: Vec<Vec<f64>> = Vec::new();
    let label_vec = |e: &verikit_prob::lang::expr::CExpr| -> Result<Vec<f64>, CliError> {
        let v = verikit_prob::build::eval_states(m, e)
            .map_err(|d| CliError::from_error(verikit_prob::ProbError::Input(d), Some(&b.src)))?;
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
            let (Some((ps, _)), Some(sel)) = (props, Some(a.prop.as_deref())) else {
                return Err(CliError::Usage("--labels props needs --props FILE".into()));
            };
            let chosen =
                select_properties(pf, sel).map_err(|e| CliError::from_error(e, Some(ps)))?;
            for p in chosen {
                keys.extend(
                    checker
                        .atoms(&p.expr)
                        .map_err(|e| CliError::from_error(e, Some(ps)))?,
                );
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
                    keys.push(
                        checker
                            .state_rewards(Some(i))
                            .map_err(|e| CliError::from_error(e, Some(&b.src)))?,
                    );
                } else {
                    return Err(CliError::Usage(format!(
                        "--labels: `{name}` is neither a label nor a reward structure of the model"
                    )));
                }
            }
        }
    }
    Ok((verikit_prob::imdp_bisim::partition_by(n, &keys), spec))
}

pub fn bisim(a: BisimArgs, ctx: &Ctx) -> Result<Report, CliError> {
    let b = load(&a.model)?;
    let ov = overrides(&a.model)?;
    let props = match &a.props {
        Some(p) => {
            let src = read_input(p)?;
            let pf =
                parse_properties(&src.text).map_err(|e| CliError::from_error(e, Some(&src)))?;
            Some((src, pf))
        }
        None => None,
    };
    let (part, spec) = initial_partition(&a, &b, props.as_ref().map(|(s, f)| (s, f)), &ov)?;
    let initial_classes = part.iter().copied().max().map_or(0, |x| x as usize + 1);
    let red = verikit_prob::quotient::reduce_from(b.model, &b.prog, a.widen, &part)
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
    let mut r = Report::with_verdict("minimised")
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
    let mut checks = Vec::new();
    let mut all_agree = true;
    if let Some((src, pf)) = &props {
        let on_model = check_all(m, &b.prog, src, pf, a.prop.as_deref(), &ov, a.precision)?;
        let on_quot = check_all(q, &b.prog, src, pf, a.prop.as_deref(), &ov, a.precision)?;
        for (x, y) in on_model.iter().zip(&on_quot) {
            // Theorem 4 covers the ∃σ∀π semantics; a cooperative nature (`Pmaxmax`, `Pminmin`)
            // is reported but not required to agree.
            let cooperative = cooperative_nature(&x.result.text);
            let agree = match (&x.result.answer, &y.result.answer) {
                (Answer::Bool(u), Answer::Bool(v)) => u == v,
                (Answer::Num(u), Answer::Num(v)) => {
                    u == v
                        || (u.is_finite()
                            && v.is_finite()
                            && (u - v).abs() <= 2.0 * a.precision * u.abs().max(v.abs()))
                }
                _ => false,
            };
            all_agree &= agree || cooperative;
            r = r.line(format!(
                "Result {}: model {}, quotient {}{}",
                x.label,
                x.result.answer,
                y.result.answer,
                match (agree, cooperative) {
                    (true, _) => "",
                    (false, true) => "  (cooperative nature: not preserved by the bisimulation)",
                    (false, false) => "  (DIFFERENT)",
                }
            ));
            checks.push(serde_json::json!({
                "property": x.result.text, "model": answer_json(&x.result.answer),
                "quotient": answer_json(&y.result.answer), "agree": agree,
                "cooperative_nature": cooperative,
                "sound": x.result.sound && y.result.sound,
                "model_check_s": x.result.time_s, "quotient_check_s": y.result.time_s,
            }));
        }
    }
    if props.is_some() {
        r = r
            .line(if all_agree {
                "Model and quotient agree on every property".to_string()
            } else {
                "Model and quotient DIFFER (the initial partition does not respect the properties)"
                    .to_string()
            })
            .field("results", checks)
            .field("agree", all_agree);
    }
    Ok(r.field("model_type", m.model_type.name())
        .field("labels", spec)
        .field("initial_classes", initial_classes)
        .field("states", m.num_states())
        .field("transitions", m.num_transitions())
        .field("choices", m.num_choices())
        .field("quotient_states", q.num_states())
        .field("quotient_transitions", q.num_transitions())
        .field("quotient_choices", q.num_choices())
        .field("rounds", red.bisim.rounds)
        .field("lp_solved", red.bisim.lp_solved)
        .field("lp_cached", red.bisim.lp_cached)
        .field(
            "lp_decided",
            serde_json::json!({
                "integer": red.bisim.lp_stats.integer, "primal_certified": red.bisim.lp_stats.primal,
                "farkas_certified": red.bisim.lp_stats.dual, "exact_simplex": red.bisim.lp_stats.exact,
            }),
        )
        .field("build_s", b.build_s)
        .field("bisim_s", red.time_s)
        .field("time_s", ctx.elapsed()))
}

fn answer_json(a: &Answer) -> serde_json::Value {
    match a {
        Answer::Bool(b) => serde_json::Value::Bool(*b),
        Answer::Num(x) if x.is_finite() => serde_json::json!(x),
        Answer::Num(x) if x.is_infinite() => serde_json::Value::String("Infinity".into()),
        Answer::Num(_) => serde_json::Value::String("NaN".into()),
    }
}

/// One checked property: its label for the text output and its JSON record.
struct Checked {
    label: String,
    result: PropertyResult,
}

/// Checks the selected properties of an interval model under ∃σ∀π.
fn check_all(
    model: &Model,
    prog: &Program,
    props_src: &SourceFile,
    pf: &PropertiesFile,
    sel: Option<&str>,
    ov: &[(String, String)],
    eps: f64,
) -> Result<Vec<Checked>, CliError> {
    let props = select_properties(pf, sel).map_err(|e| CliError::from_error(e, Some(props_src)))?;
    if props.is_empty() {
        return Err(CliError::Usage(
            "the properties file has no properties".into(),
        ));
    }
    if !(eps > 0.0 && eps < 1.0) {
        return Err(CliError::Usage("--precision must be in (0, 1)".into()));
    }
    let mut checker = RobustChecker::new(
        model,
        prog,
        pf,
        &props_src.text,
        ov,
        CheckOptions {
            eps,
            ..CheckOptions::default()
        },
    )
    .map_err(|e| CliError::from_error(e, Some(props_src)))?;
    let mut out = Vec::new();
    for p in props {
        let text = prop_text(props_src, p);
        let r = checker
            .check(p, &text)
            .map_err(|e| CliError::from_error(e, Some(props_src)))?;
        let label = result_label(&r, &text);
        out.push(Checked { label, result: r });
    }
    Ok(out)
}

fn result_line(c: &Checked) -> String {
    let r = &c.result;
    let mut line = format!("{}: {}", c.label, r.answer);
    if let Some((lo, hi)) = r.init_range {
        line.push_str(&format!(
            " (first initial state; range over initial states [{lo}, {hi}])"
        ));
    }
    if !r.sound {
        line.push_str(" (warning: iteration limit reached, error bound not verified)");
    }
    line
}

fn result_json(c: &Checked) -> serde_json::Value {
    let r = &c.result;
    serde_json::json!({
        "name": r.name, "property": r.text, "result": answer_json(&r.answer),
        "init_range": r.init_range.map(|(a, b)| vec![a, b]), "sound": r.sound, "time_s": r.time_s,
    })
}

/// `verikit prism check` on an interval model (or a DTMC/MDP widened by `--widen`): robust
/// values under the paper's ∃σ∀π semantics.
#[allow(clippy::too_many_arguments)]
pub fn check(
    src: &SourceFile,
    prog: &Program,
    model: Model,
    build_s: f64,
    props_src: &SourceFile,
    sel: Option<&str>,
    ov: &[(String, String)],
    eps: f64,
    widen: Option<f64>,
    ctx: &Ctx,
) -> Result<Report, CliError> {
    let model = match widen {
        Some(w) => {
            verikit_prob::widen::widen(&model, w).map_err(|e| CliError::from_error(e, Some(src)))?
        }
        None => model,
    };
    let pf =
        parse_properties(&props_src.text).map_err(|e| CliError::from_error(e, Some(props_src)))?;
    let t0 = Instant::now();
    let results = check_all(&model, prog, props_src, &pf, sel, ov, eps)?;
    let check_s = t0.elapsed().as_secs_f64();
    let verdict = if results.len() == 1 {
        match answer_json(&results[0].result.answer) {
            serde_json::Value::Bool(b) => b.to_string(),
            v => v.to_string().trim_matches('"').to_string(),
        }
    } else {
        "checked".to_string()
    };
    let mut r = Report::with_verdict(verdict);
    for c in &results {
        r = r.line(format!(
            "Result {}  [{:.3} s]",
            result_line(c),
            c.result.time_s
        ));
    }
    r = r
        .line(format!(
            "Type:        {} (robust: the controller optimises against an adversarial nature \
             unless the operator names nature's direction)",
            model.model_type.name()
        ))
        .line(format!(
            "States:      {} ({} initial)",
            model.num_states(),
            model.initial.len()
        ))
        .line(format!("Transitions: {}", model.num_transitions()))
        .line(format!("Choices:     {}", model.num_choices()))
        .line(format!("Time for model construction: {build_s:.3} seconds"))
        .line(format!("Time for model checking: {check_s:.3} seconds"));
    let json: Vec<serde_json::Value> = results.iter().map(result_json).collect();
    Ok(r.field("model_type", model.model_type.name())
        .field("states", model.num_states())
        .field("initial_states", model.initial.len())
        .field("transitions", model.num_transitions())
        .field("choices", model.num_choices())
        .field("widen", widen)
        .field("build_s", build_s)
        .field("results", json)
        .field("check_s", check_s)
        .field("time_s", ctx.elapsed()))
}

const FIG1: &str = include_str!("../../demo/prism/fig1.prism");
const FIG1_PROPS: &str = include_str!("../../demo/prism/fig1.props");

/// `verikit demo`: the paper's Fig. 1 IMDP — its coarsest alternating bisimulation (the two
/// copies of s merge: a is dominated by b) and robust values on model and quotient.
pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Report)>, CliError> {
    let src = SourceFile::new("fig1.prism", FIG1);
    let props = SourceFile::new("fig1.props", FIG1_PROPS);
    let mf = parse_model(&src.text).map_err(|e| CliError::from_error(e, Some(&src)))?;
    let prog = check_model(&mf, &[]).map_err(|e| CliError::from_error(e, Some(&src)))?;
    let model =
        build(&prog, &BuildOptions::default()).map_err(|e| CliError::from_error(e, Some(&src)))?;
    let pf = parse_properties(&props.text).map_err(|e| CliError::from_error(e, Some(&props)))?;
    let part = verikit_prob::imdp_bisim::label_partition(&model, &prog)
        .map_err(|d| CliError::from_error(verikit_prob::ProbError::Input(d), Some(&src)))?;
    let red = verikit_prob::quotient::reduce_from(model, &prog, None, &part)
        .map_err(|e| CliError::from_error(e, Some(&src)))?;
    let on_model = check_all(&red.model, &prog, &props, &pf, None, &[], 1e-6)?;
    let on_quot = check_all(&red.quotient, &prog, &props, &pf, None, &[], 1e-6)?;
    let mut r = Report::with_verdict("minimised").line(format!(
        "Bisimulation: |S| {} -> {}, |I| {} -> {}",
        red.model.num_states(),
        red.quotient.num_states(),
        red.model.num_transitions(),
        red.quotient.num_transitions()
    ));
    for (x, y) in on_model.iter().zip(&on_quot) {
        r = r.line(format!(
            "Result {}: model {}, quotient {}{}",
            x.label,
            x.result.answer,
            y.result.answer,
            if cooperative_nature(&x.result.text) {
                "  (cooperative nature: outside the ∃σ∀π semantics the quotient preserves)"
            } else {
                ""
            }
        ));
    }
    Ok(vec![(
        "Interval MDP of SETTA'17 Fig. 1: alternating bisimulation quotient, robust Pmax [F t]"
            .into(),
        r.field("quotient_states", red.quotient.num_states())
            .field("time_s", ctx.elapsed()),
    )])
}
