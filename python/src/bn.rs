//! `verikit.bn`: attractors and fixed points of Boolean networks (`.bnet`, `.aeon`, SBML-qual),
//! through `verikit_boolnet`'s task functions (the ones behind `verikit bn …`).

use crate::{engine_error, json, run, source};
use pyo3::prelude::*;
use verikit_boolnet::{self as boolnet, BnError, Detect, Format, InputMode, Limits, Method};
use verikit_boolnet::{Network, Options};
use verikit_diag::{Budget, SourceFile};

fn word<T: std::str::FromStr<Err = String>>(s: &str) -> PyResult<T> {
    s.parse().map_err(|m| crate::plain("usage", m))
}

/// Reads and parses a network: the file at `path` or `text` named `name`.
fn load(
    path: Option<&str>,
    text: Option<&str>,
    name: &str,
    format: Option<&str>,
) -> PyResult<(Network, SourceFile)> {
    let src = source(path, text, name)?;
    let format = format.map(word::<Format>).transpose()?;
    let b = Budget::unlimited();
    let net = boolnet::load(&src.text, &src.name, format)
        .map_err(|d| engine_error(&BnError::from(d), Some(&src), &b))?;
    Ok((net, src))
}

/// `verikit bn attractors --json` (`what="attractors"`), `verikit bn fixed-points --json`
/// (`"fixed_points"`) or `verikit bn info --json` (`"info"`).
#[pyfunction]
#[pyo3(signature = (what, path=None, text=None, name="<network>", format=None, inputs="free", method="decomposition", detect="periods", leaf_removal=true, limit=100, node_limit=None, timeout=None, params=None))]
#[allow(clippy::too_many_arguments)]
fn bn_run(
    py: Python<'_>,
    what: &str,
    path: Option<&str>,
    text: Option<&str>,
    name: &str,
    format: Option<&str>,
    inputs: &str,
    method: &str,
    detect: &str,
    leaf_removal: bool,
    limit: usize,
    node_limit: Option<usize>,
    timeout: Option<f64>,
    params: Option<Vec<(String, String)>>,
) -> PyResult<String> {
    let (net, src) = load(path, text, name, format)?;
    let inputs: InputMode = word(inputs)?;
    let budget = Budget::from_secs(timeout);
    let limits = Limits {
        node_limit: node_limit.unwrap_or(boolnet::DEFAULT_NODE_LIMIT),
        budget: budget.clone(),
    };
    let bud = &budget;
    let r = match what {
        "attractors" => {
            let mut opts = Options {
                method: word::<Method>(method)?,
                detect: word::<Detect>(detect)?,
                limit,
                inputs,
                leaf_removal,
                limits,
                ..Options::default()
            };
            let p = crate::params(params)?;
            boolnet::apply_params(&mut opts, &p).map_err(|m| crate::plain("usage", m))?;
            run(py, bud, || boolnet::attractors_answer(&net, &opts))?
        }
        "fixed_points" => run(py, bud, || {
            boolnet::fixed_points_answer(&net, inputs, limit, limits)
        })?,
        "info" => Ok(boolnet::info(&net, inputs)),
        x => return Err(crate::plain("usage", format!("unknown task `{x}`"))),
    };
    r.map(|a| json(&a))
        .map_err(|e| engine_error(&e, Some(&src), bud))
}

/// The network written as `.bnet` (or `.aeon` when `to` is `aeon`).
#[pyfunction]
#[pyo3(signature = (path=None, text=None, name="<network>", format=None, to="bnet"))]
fn bn_write(
    path: Option<&str>,
    text: Option<&str>,
    name: &str,
    format: Option<&str>,
    to: &str,
) -> PyResult<String> {
    let (net, _) = load(path, text, name, format)?;
    Ok(boolnet::write(&net, Some(&format!("out.{to}"))))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bn_run, m)?)?;
    m.add_function(wrap_pyfunction!(bn_write, m)?)?;
    Ok(())
}
