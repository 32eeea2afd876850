//! `verikit.prism`: PRISM-language (and JANI) models, through `verikit_prob::task` (the functions
//! behind `verikit prism check` and `verikit prism build`).

use crate::{engine_error, json, run, source};
use pyo3::prelude::*;
use serde_json::json;
use verikit_diag::{Answer, Budget, Diagnostic, SourceFile};
use verikit_prob::task::{self, CheckSpec, Located, Origin};
use verikit_prob::{parse_const_overrides, BuildOptions, CheckOptions};

/// The model's source and whether it is JANI.
fn model_src(path: Option<&str>, text: Option<&str>, name: &str) -> PyResult<(SourceFile, bool)> {
    let src = source(path, text, name)?;
    let ext = std::path::Path::new(&src.name)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_string);
    let jani = task::is_jani(ext.as_deref(), &src.text);
    Ok((src, jani))
}

/// `--const` texts (`N=3,K=1:1:4`) as overrides.
fn overrides(consts: &[String]) -> PyResult<Vec<(String, String)>> {
    let mut v = Vec::new();
    for c in consts {
        let src = SourceFile::new("<const>", c.as_str());
        v.extend(parse_const_overrides(c).map_err(|d: Diagnostic| crate::located(&d, Some(&src)))?);
    }
    Ok(v)
}

fn fail(e: Located, model: &SourceFile, props: Option<&SourceFile>, b: &Budget) -> PyErr {
    if e.0.is_timeout() {
        let late = b.remaining() == Some(std::time::Duration::ZERO);
        return crate::plain(if late { "timeout" } else { "limit" }, e.0.to_string());
    }
    let f = match e.1 {
        Origin::Props => props.unwrap_or(model),
        Origin::Model => model,
    };
    engine_error(&e.0, Some(f), b)
}

fn spec(consts: &[String], max_states: Option<usize>, eps: f64, b: &Budget) -> PyResult<CheckSpec> {
    let build = BuildOptions {
        max_states: max_states.unwrap_or(BuildOptions::default().max_states),
        budget: b.clone(),
        ..BuildOptions::default()
    };
    let check = CheckOptions {
        eps,
        budget: b.clone(),
        ..CheckOptions::default()
    };
    Ok(CheckSpec {
        overrides: overrides(consts)?,
        build,
        check,
        ..CheckSpec::default()
    })
}

/// `verikit prism check --json`: the summary answer with one result per property (and per
/// combination of constants) in `results`.
#[pyfunction]
#[pyo3(signature = (path=None, text=None, name="<model>", props_path=None, props_text=None, consts=Vec::new(), select=Vec::new(), eps=1e-6, max_states=None, timeout=None))]
#[allow(clippy::too_many_arguments)]
fn prism_check(
    py: Python<'_>,
    path: Option<&str>,
    text: Option<&str>,
    name: &str,
    props_path: Option<&str>,
    props_text: Option<&str>,
    consts: Vec<String>,
    select: Vec<String>,
    eps: f64,
    max_states: Option<usize>,
    timeout: Option<f64>,
) -> PyResult<String> {
    let (src, jani) = model_src(path, text, name)?;
    let props = match (props_path, props_text) {
        (None, None) => None,
        (p, t) => Some(source(p, t, "<properties>")?),
    };
    let budget = Budget::from_secs(timeout);
    let mut spec = spec(&consts, max_states, eps, &budget)?;
    spec.selectors = select;
    let ptext = props.as_ref().map(|p| p.text.as_str());
    let bud = &budget;
    let r = run(py, bud, || {
        let mut items: Vec<Answer> = Vec::new();
        let out = task::run_check(&src.text, jani, ptext, &spec, &mut |a| items.push(a));
        out.map(|o| {
            let mut a = o.answer;
            a.results = items;
            a
        })
    })?;
    r.map(|a| json(&a))
        .map_err(|e| fail(e, &src, props.as_ref(), bud))
}

/// `verikit prism build --json`, plus the explicit model: `initial`, `row_choices`,
/// `choice_start`, `cols`, `vals` (CSR, as `verikit_prob::Model` holds it), `choice_action`,
/// `actions` and the states' valuations as PRISM's `.sta` text.
#[pyfunction]
#[pyo3(signature = (path=None, text=None, name="<model>", consts=Vec::new(), max_states=None, timeout=None))]
fn prism_build(
    py: Python<'_>,
    path: Option<&str>,
    text: Option<&str>,
    name: &str,
    consts: Vec<String>,
    max_states: Option<usize>,
    timeout: Option<f64>,
) -> PyResult<String> {
    let (src, jani) = model_src(path, text, name)?;
    let budget = Budget::from_secs(timeout);
    let spec = spec(&consts, max_states, 1e-6, &budget)?;
    let bud = &budget;
    let r = run(py, bud, || {
        task::prepare(&src.text, jani, &spec.overrides)
            .and_then(|p| task::build_model(p, &spec.build))
    })?;
    let b = r.map_err(|e| fail(Located(e, Origin::Model), &src, None, bud))?;
    let m = &b.model;
    let a = task::model_lines(task::model_input(Answer::new(), m), m, b.build_s)
        .time("build_s", b.build_s);
    let mut v = a.to_json();
    v["model"] = json!({
        "type": format!("{:?}", m.model_type).to_lowercase(),
        "initial": m.initial,
        "row_choices": m.row_choices,
        "choice_start": m.choice_start,
        "cols": m.cols,
        "vals": m.vals,
        "upper": m.upper,
        "choice_action": m.choice_action,
        "actions": m.actions,
        "sta": verikit_prob::sta(m),
    });
    Ok(v.to_string())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(prism_check, m)?)?;
    m.add_function(wrap_pyfunction!(prism_build, m)?)?;
    Ok(())
}
