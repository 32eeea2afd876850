//! `verikit.prism`: PRISM-language (and JANI) models, through `verikit_prob::task` (the functions
//! behind `verikit prism check` and `verikit prism build`).

use crate::{engine_error, json, run, source};
use numpy::{Element, IntoPyArray};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::json;
use verikit_diag::{Answer, Budget, Diagnostic, SourceFile};
use verikit_prob::task::{self, CheckSpec, Located, Origin, StateValues};
use verikit_prob::{parse_const_overrides, BuildOptions, CheckOptions};

/// `v` as a one-dimensional numpy array that takes over the Vec's buffer (no copy; numpy frees
/// it through the array's base object), or as a list when numpy cannot be imported.
fn array<'py, T>(py: Python<'py>, v: Vec<T>) -> PyResult<Bound<'py, PyAny>>
where
    T: Element + IntoPyObject<'py>,
{
    if py.import("numpy").is_ok() {
        Ok(v.into_pyarray(py).into_any())
    } else {
        v.into_pyobject(py).map(Bound::into_any)
    }
}

/// A property's state values and the initial states, as Python objects.
type Values<'py> = Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)>;

/// One property's state values for Python: `None`, or `(values, initial)` arrays; a Boolean
/// property's values (0/1 from the engine) become a `bool` array.
fn state_values<'py>(
    py: Python<'py>,
    sv: Option<StateValues>,
    item: Option<&Answer>,
) -> PyResult<Values<'py>> {
    let Some(sv) = sv else {
        return Ok(None);
    };
    let boolean = item
        .and_then(|a| a.detail.get("result"))
        .is_some_and(|r| r.is_boolean());
    let values = if boolean {
        array(
            py,
            sv.values.iter().map(|&x| x != 0.0).collect::<Vec<bool>>(),
        )?
    } else {
        array(py, sv.values)?
    };
    Ok(Some((values, array(py, sv.initial)?)))
}

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
/// combination of constants) in `results`; and, for each of those results, the value of every
/// state with the model's initial states (`(values, initial)` arrays), or `None` for a `filter`
/// or a property that timed out.
#[pyfunction]
#[pyo3(signature = (path=None, text=None, name="<model>", props_path=None, props_text=None, consts=Vec::new(), select=Vec::new(), eps=1e-6, max_states=None, timeout=None))]
#[allow(clippy::too_many_arguments)]
fn prism_check<'py>(
    py: Python<'py>,
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
) -> PyResult<(String, Vec<Values<'py>>)> {
    let (src, jani) = model_src(path, text, name)?;
    let props = match (props_path, props_text) {
        (None, None) => None,
        (p, t) => Some(source(p, t, "<properties>")?),
    };
    let budget = Budget::from_secs(timeout);
    let mut spec = spec(&consts, max_states, eps, &budget)?;
    spec.selectors = select;
    spec.state_values = true;
    let ptext = props.as_ref().map(|p| p.text.as_str());
    let bud = &budget;
    let r = run(py, bud, || {
        let mut items: Vec<Answer> = Vec::new();
        let out = task::run_check(&src.text, jani, ptext, &spec, &mut |a| items.push(a));
        out.map(|o| {
            let mut a = o.answer;
            a.results = items;
            (a, o.state_values)
        })
    })?;
    let (a, svs) = r.map_err(|e| fail(e, &src, props.as_ref(), bud))?;
    let mut per_item = Vec::with_capacity(a.results.len());
    let mut svs = svs.into_iter();
    for item in &a.results {
        per_item.push(state_values(py, svs.next().flatten(), Some(item))?);
    }
    Ok((json(&a), per_item))
}

/// `verikit prism build --json` (with the model's `type`, `actions` and the states' valuations
/// as PRISM's `.sta` text under `model`), and the explicit model's arrays as they are held by
/// `verikit_prob::Model` (CSR): `initial`, `row_choices`, `choice_start`, `cols`, `vals`, `upper`,
/// `choice_action` — numpy arrays that take over the model's buffers without copying.
#[pyfunction]
#[pyo3(signature = (path=None, text=None, name="<model>", consts=Vec::new(), max_states=None, timeout=None))]
fn prism_build<'py>(
    py: Python<'py>,
    path: Option<&str>,
    text: Option<&str>,
    name: &str,
    consts: Vec<String>,
    max_states: Option<usize>,
    timeout: Option<f64>,
) -> PyResult<(String, Bound<'py, PyDict>)> {
    let (src, jani) = model_src(path, text, name)?;
    let budget = Budget::from_secs(timeout);
    let spec = spec(&consts, max_states, 1e-6, &budget)?;
    let bud = &budget;
    let r = run(py, bud, || {
        task::prepare(&src.text, jani, &spec.overrides)
            .and_then(|p| task::build_model(p, &spec.build))
    })?;
    let b = r.map_err(|e| fail(Located(e, Origin::Model), &src, None, bud))?;
    let m = b.model;
    let a = task::model_lines(task::model_input(Answer::new(), &m), &m, b.build_s)
        .time("build_s", b.build_s);
    let mut v = a.to_json();
    let sta = verikit_prob::sta(&m);
    v["model"] = json!({
        "type": format!("{:?}", m.model_type).to_lowercase(),
        "actions": m.actions,
        "sta": sta,
    });
    let arrays = PyDict::new(py);
    arrays.set_item("initial", array(py, m.initial)?)?;
    arrays.set_item("row_choices", array(py, m.row_choices)?)?;
    arrays.set_item("choice_start", array(py, m.choice_start)?)?;
    arrays.set_item("cols", array(py, m.cols)?)?;
    arrays.set_item("vals", array(py, m.vals)?)?;
    arrays.set_item("upper", array(py, m.upper)?)?;
    arrays.set_item("choice_action", array(py, m.choice_action)?)?;
    Ok((v.to_string(), arrays))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(prism_check, m)?)?;
    m.add_function(wrap_pyfunction!(prism_build, m)?)?;
    Ok(())
}
