//! `verikit.nfa`: universality, inclusion, equivalence, conversion and sizes of finite automata
//! (`.mata`, BA, Timbuk, regular expressions), through `verikit_automata`'s task functions.

use crate::{engine_error, json, run, source};
use pyo3::prelude::*;
use verikit_automata::{self as automata, AutomataError, CheckOptions};
use verikit_diag::{Budget, SourceFile};

/// One automaton argument: `(path, text, name)` as the Python `Nfa` object holds it.
type Src = (Option<String>, Option<String>, String);

fn load(s: &Src) -> PyResult<SourceFile> {
    source(s.0.as_deref(), s.1.as_deref(), &s.2)
}

fn fail(e: AutomataError, b: &Budget) -> PyErr {
    match e {
        AutomataError::Invalid(m) => crate::plain("usage", m),
        AutomataError::Internal(m) => crate::plain("internal", m),
        e => engine_error(&e, None, b),
    }
}

/// `kind` is `univ`, `incl` or `equiv` (the CLI's subcommands); `b` is the second automaton of
/// `incl`/`equiv`. Returns the CLI's `--json` answer.
#[pyfunction]
#[pyo3(signature = (kind, a, b=None, algo="auto", pre="none", fmt=None, no_memo=false, no_prune=false, timeout=None, params=None))]
#[allow(clippy::too_many_arguments)]
fn nfa_decide(
    py: Python<'_>,
    kind: &str,
    a: Src,
    b: Option<Src>,
    algo: &str,
    pre: &str,
    fmt: Option<String>,
    no_memo: bool,
    no_prune: bool,
    timeout: Option<f64>,
    params: Option<Vec<(String, String)>>,
) -> PyResult<String> {
    let p = crate::params(params)?;
    let o = CheckOptions::new(algo, pre, fmt.as_deref(), &p);
    let o = CheckOptions {
        no_memo,
        no_prune,
        ..o
    };
    let a = load(&a)?;
    let b = b.as_ref().map(load).transpose()?;
    let budget = Budget::from_secs(timeout);
    let bud = &budget;
    let r = run(py, bud, || match (kind, &b) {
        ("univ", _) => automata::univ(&a, &o, bud),
        ("incl", Some(b)) => automata::incl(&a, b, &o, bud),
        ("equiv", Some(b)) => automata::equiv(&a, b, &o, bud),
        _ => Err(AutomataError::Invalid(format!(
            "`{kind}` is not univ, or incl/equiv with two automata"
        ))),
    })?;
    r.map(|x| json(&x)).map_err(|e| fail(e, bud))
}

/// The automaton written in format `to` (`mata`, `ba`, `timbuk`, `dot`).
#[pyfunction]
#[pyo3(signature = (a, to="mata", fmt=None))]
fn nfa_write(a: Src, to: &str, fmt: Option<String>) -> PyResult<String> {
    let b = Budget::unlimited();
    let p = automata::convert(&load(&a)?, fmt.as_deref()).map_err(|e| fail(e, &b))?;
    automata::write(&p.nfa, to).map_err(|e| fail(e, &b))
}

/// Sizes, alphabet and density (the CLI's `nfa info --json`).
#[pyfunction]
#[pyo3(signature = (a, fmt=None))]
fn nfa_info(a: Src, fmt: Option<String>) -> PyResult<String> {
    let b = Budget::unlimited();
    let r = automata::info(&load(&a)?, fmt.as_deref()).map_err(|e| fail(e, &b))?;
    Ok(json(&r))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(nfa_decide, m)?)?;
    m.add_function(wrap_pyfunction!(nfa_write, m)?)?;
    m.add_function(wrap_pyfunction!(nfa_info, m)?)?;
    Ok(())
}
