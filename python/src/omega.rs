//! `verikit.ltl` and `verikit.aut`: LTL to Büchi automata and omega-automata in HOA, through
//! `verikit_omega::task` (the functions behind `verikit ltl …` and `verikit aut …`).

use crate::{engine_error, json, run};
use pyo3::prelude::*;
use serde_json::json;
use verikit_diag::{Budget, SourceFile};
use verikit_omega::task::{self, AutOp, AutPair, Show, TranslateJob};
use verikit_omega::{DetOptions, OmegaError, ParityKind, Twa};

fn fail(e: OmegaError, file: Option<&SourceFile>, b: &Budget) -> PyErr {
    engine_error(&e, file, b)
}

/// Parses the one automaton of a HOA text named `name`.
fn read(text: &str, name: &str) -> PyResult<Twa> {
    let src = SourceFile::new(name, text);
    task::read_automaton(text).map_err(|e| fail(e, Some(&src), &Budget::unlimited()))
}

/// `verikit ltl translate --json` of one formula.
#[pyfunction]
#[pyo3(signature = (formula, sba=false, simplify=true, postprocess=true, redirect_merges=true, reduce=None, state_names=false, deterministic=false, parity=None, complete=false, level=None, timeout=None, params=None))]
#[allow(clippy::too_many_arguments)]
fn ltl_translate(
    py: Python<'_>,
    formula: &str,
    sba: bool,
    simplify: bool,
    postprocess: bool,
    redirect_merges: bool,
    reduce: Option<&str>,
    state_names: bool,
    deterministic: bool,
    parity: Option<&str>,
    complete: bool,
    level: Option<&str>,
    timeout: Option<f64>,
    params: Option<Vec<(String, String)>>,
) -> PyResult<String> {
    let p = crate::params(params)?;
    // `level`: Spot's --low / --medium / --high; the default is the command line's.
    let level = match level {
        None => task::level(false, false, false),
        Some("low") => task::level(true, false, false),
        Some("medium") => task::level(false, true, false),
        Some("high") => task::level(false, false, true),
        Some(l) => {
            return Err(crate::plain(
                "usage",
                format!("unknown level `{l}` (low, medium, high)"),
            ))
        }
    };
    // `parity`: `""` for parity acceptance of the reduced type, or a type such as `"max even"`
    // (as `-P` / `--parity=TYPE` of `verikit ltl translate`).
    let kind = match parity {
        Some(t) if !t.trim().is_empty() => Some(ParityKind::parse(t).ok_or_else(|| {
            crate::plain(
                "usage",
                format!("unknown parity type `{t}` (min even, min odd, max even, max odd)"),
            )
        })?),
        _ => None,
    };
    let usage = |m: String| crate::plain("usage", m);
    // The `omega.det-*` parameters apply as on the command line (`task::det_options`).
    let det = (deterministic || parity.is_some() || complete)
        .then(|| {
            task::det_options(
                &p,
                DetOptions {
                    deterministic,
                    parity: parity.is_some(),
                    complete,
                    kind,
                    ..DetOptions::default()
                },
            )
        })
        .transpose()
        .map_err(usage)?;
    let base = verikit_omega::TranslateOptions {
        simplify_formula: simplify,
        postprocess,
        sba,
        redirect_merges,
        level,
        ..Default::default()
    };
    let job = TranslateJob {
        options: task::translate_options(&p, base).map_err(usage)?,
        reduce: reduce.map(task::method).transpose().map_err(usage)?,
        show: Show::Hoa,
        state_names,
        deterministic: det,
        ..TranslateJob::default()
    };
    let budget = Budget::from_secs(timeout);
    let bud = &budget;
    let r = run(py, bud, || {
        task::translate_formula(formula, 0, &job, bud).map(|(_, a)| a)
    })?;
    let src = SourceFile::new("<formula>", formula);
    r.map(|a| json(&a)).map_err(|e| fail(e, Some(&src), bud))
}

/// `verikit ltl check --json`: does the lasso word satisfy the formula?
#[pyfunction]
fn ltl_check(formula: &str, word: &str) -> PyResult<String> {
    let r = task::check(formula, word);
    r.map(|a| json(&a))
        .map_err(|e| fail(e, None, &Budget::unlimited()))
}

/// The automaton's structure: states, initial states, propositions, acceptance and every edge
/// as `[src, dst, label, [marks]]` (labels as Boolean formulas over the propositions).
#[pyfunction]
#[pyo3(signature = (text, name="<hoa>"))]
fn aut_structure(text: &str, name: &str) -> PyResult<String> {
    let a = read(text, name)?;
    let (acceptance, acc_name) = verikit_omega::acceptance_text(&a);
    let mut edges = Vec::new();
    for (s, out) in a.states.iter().enumerate() {
        for e in out {
            let marks: Vec<u32> = (0..64).filter(|i| (e.marks >> i) & 1 == 1).collect();
            edges.push(json!([s, e.dst, a.label_formula(&e.label), marks]));
        }
    }
    Ok(json!({
        "name": a.name,
        "states": a.num_states(),
        "initial": a.init,
        "aps": a.aps,
        "acc_sets": a.num_sets,
        "acceptance": acceptance,
        "acc_name": acc_name,
        "state_based": a.state_based,
        "deterministic": a.is_deterministic(),
        "complete": a.is_complete(),
        "state_names": a.state_names,
        "edges": edges,
    })
    .to_string())
}

/// GraphViz DOT of the automaton (what `verikit ltl translate --dot` prints).
#[pyfunction]
#[pyo3(signature = (text, name="<hoa>"))]
fn aut_dot(text: &str, name: &str) -> PyResult<String> {
    Ok(verikit_omega::to_dot(&read(text, name)?))
}

/// The automaton drawn as SVG without GraphViz (`verikit_omega::svg`, the drawing of `verikit serve`).
#[pyfunction]
#[pyo3(signature = (text, name="<hoa>"))]
fn aut_svg(text: &str, name: &str) -> PyResult<String> {
    Ok(verikit_omega::to_svg(&read(text, name)?))
}

/// A one-automaton `verikit aut` command: `stats`, `simplify`, `sba`, `is_empty`, `complement`,
/// `accepts` (with `word`), `reduce` (with `method`).
#[pyfunction]
#[pyo3(signature = (op, text, name="<hoa>", word=None, method=None, timeout=None))]
fn aut_unary(
    py: Python<'_>,
    op: &str,
    text: &str,
    name: &str,
    word: Option<&str>,
    method: Option<&str>,
    timeout: Option<f64>,
) -> PyResult<String> {
    let a = read(text, name)?;
    let usage = |m: String| crate::plain("usage", m);
    let op = match op {
        "stats" => AutOp::Stats,
        "simplify" => AutOp::Simplify { sba: false },
        "sba" => AutOp::Simplify { sba: true },
        "is_empty" => AutOp::IsEmpty,
        "complement" => AutOp::Complement,
        "accepts" => {
            let w = word.ok_or_else(|| usage("accepts needs a word".into()))?;
            let w =
                verikit_omega::parse_word(w).map_err(|e| fail(e, None, &Budget::unlimited()))?;
            AutOp::Accepts(w)
        }
        "reduce" => AutOp::Reduce {
            method: task::method(method.unwrap_or("fair+delayed")).map_err(usage)?,
            stats: false,
        },
        x => return Err(usage(format!("unknown automaton operation `{x}`"))),
    };
    let budget = Budget::from_secs(timeout);
    let bud = &budget;
    let r = run(py, bud, || task::aut_unary(&a, &op, Show::Hoa, bud))?;
    r.map(|x| json(&x)).map_err(|e| fail(e, None, bud))
}

/// A two-automaton `verikit aut` command: `product` or `included` (Ramsey-based, default limits).
#[pyfunction]
#[pyo3(signature = (op, a, b, max_elements=2_000_000, timeout=None, params=None))]
fn aut_binary(
    py: Python<'_>,
    op: &str,
    a: &str,
    b: &str,
    max_elements: usize,
    timeout: Option<f64>,
    params: Option<Vec<(String, String)>>,
) -> PyResult<String> {
    let (x, y) = (read(a, "<a>")?, read(b, "<b>")?);
    let usage = |m: String| crate::plain("usage", m);
    let op = match op {
        "product" => AutPair::Product,
        "included" => {
            let p = crate::params(params)?;
            let limits = task::inclusion_limits(&p, max_elements).map_err(usage)?;
            AutPair::Included(limits)
        }
        x => return Err(usage(format!("unknown automaton operation `{x}`"))),
    };
    let budget = Budget::from_secs(timeout);
    let bud = &budget;
    let r = run(py, bud, || task::aut_binary(&x, &y, &op, Show::Hoa, bud))?;
    r.map(|x| json(&x)).map_err(|e| fail(e, None, bud))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ltl_translate, m)?)?;
    m.add_function(wrap_pyfunction!(ltl_check, m)?)?;
    m.add_function(wrap_pyfunction!(aut_structure, m)?)?;
    m.add_function(wrap_pyfunction!(aut_dot, m)?)?;
    m.add_function(wrap_pyfunction!(aut_svg, m)?)?;
    m.add_function(wrap_pyfunction!(aut_unary, m)?)?;
    m.add_function(wrap_pyfunction!(aut_binary, m)?)?;
    Ok(())
}
