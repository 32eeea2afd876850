//! `verikit._native`: the thin Rust half of the Python package `verikit`. Every function calls one
//! public entry point of an engine crate (the same ones the CLI's `cmd/<group>.rs` files call)
//! and returns its `Answer` as the CLI's `--json` text, so the Python results equal the CLI's by
//! construction. The Python half (`python/verikit/`) turns them into result objects.
//!
//! Each call runs on a worker thread with a large stack while the calling thread, without the
//! GIL, polls Python's signal handlers: a `KeyboardInterrupt` cancels the call's
//! [`verikit_diag::Budget`] (the engines poll it) and is re-raised once the worker has stopped.
//! Errors are raised as `NativeError(kind, message, file, line, column, rendered)`; the Python half
//! maps them onto `verikit.VerikitError` subclasses.

#![warn(unreachable_pub)]

mod bn;
mod nfa;
mod omega;
mod prism;
mod smt;

use pyo3::create_exception;
use pyo3::prelude::*;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;
use verikit_diag::{Answer, Budget, Diagnostic, Failure, Params, Reportable, SourceFile};

create_exception!(_native, NativeError, pyo3::exceptions::PyException);

/// Stack of the worker thread (the CLI's worker has the same).
const STACK: usize = 512 << 20;
/// How often the waiting thread looks at Python's signal flags.
const POLL: Duration = Duration::from_millis(20);

/// A `NativeError` of `kind` (`input`, `usage`, `limit`, `internal`) without a location.
fn plain(kind: &str, message: impl Into<String>) -> PyErr {
    let m: String = message.into();
    let rendered = format!("error: {m}\n");
    NativeError::new_err((
        kind.to_string(),
        m,
        None::<String>,
        0usize,
        0usize,
        rendered,
    ))
}

/// A `NativeError` for a [`Failure`]: the kind, message, location and rendering every front end
/// (command line, web playground, Python) gives the same failure.
fn raise(f: &Failure) -> PyErr {
    let (name, line, col) = match f.location() {
        Some((n, l, c)) => (Some(n), l, c),
        None => (None, 0, 0),
    };
    NativeError::new_err((
        f.kind().to_string(),
        f.message(),
        name,
        line,
        col,
        f.render(),
    ))
}

/// A located `NativeError` of kind `input` for a diagnostic about `file` (or the diagnostic's
/// own source, when it carries one).
fn located(d: &Diagnostic, file: Option<&SourceFile>) -> PyErr {
    raise(&Failure::from_error(d.clone(), file))
}

/// An engine error as the CLI reports it: resource limits are `limit` (`timeout` once the
/// budget's deadline has passed), located diagnostics `input`.
fn engine_error<E: Reportable>(e: &E, file: Option<&SourceFile>, budget: &Budget) -> PyErr {
    if e.is_resource_limit() {
        let late = budget.remaining() == Some(Duration::ZERO);
        return plain(if late { "timeout" } else { "limit" }, e.to_string());
    }
    match e.diagnostic() {
        Some(d) => located(d, file),
        None => plain("input", e.to_string()),
    }
}

/// The answer as the CLI's `--json` text.
fn json(a: &Answer) -> String {
    a.to_json().to_string()
}

/// The `-x key=value` parameters, from a Python dict.
fn params(p: Option<Vec<(String, String)>>) -> PyResult<Params> {
    let items: Vec<String> = p
        .unwrap_or_default()
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    Params::parse(&items).map_err(|m| plain("usage", m))
}

/// A source: the file at `path`, or `text` named `name`.
fn source(path: Option<&str>, text: Option<&str>, name: &str) -> PyResult<SourceFile> {
    match (path, text) {
        (Some(p), _) => SourceFile::read(std::path::Path::new(p)).map_err(|d| located(&d, None)),
        (None, Some(t)) => Ok(SourceFile::new(name, t)),
        (None, None) => Err(plain("usage", "give a path or a text")),
    }
}

/// What a wait on a worker's channel ended with.
pub(crate) enum Wait<T> {
    /// The worker sent a value.
    Got(T),
    /// A signal handler raised (e.g. `KeyboardInterrupt`); the worker is still running.
    Signal(PyErr),
    /// The worker ended without sending.
    Gone,
}

/// Waits on `rx` without the GIL, `POLL` at a time, running Python's signal handlers between
/// polls; gives the receiver back with what the wait ended with.
pub(crate) fn wait<T: Send>(py: Python<'_>, mut rx: Receiver<T>) -> (Receiver<T>, Wait<T>) {
    loop {
        let (back, got) = py.detach(move || {
            let got = rx.recv_timeout(POLL);
            (rx, got)
        });
        rx = back;
        match got {
            Ok(v) => return (rx, Wait::Got(v)),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    return (rx, Wait::Signal(e));
                }
            }
            Err(RecvTimeoutError::Disconnected) => return (rx, Wait::Gone),
        }
    }
}

/// Runs `f` on a worker thread while this thread, without the GIL, watches for signals; on a
/// `KeyboardInterrupt` (or any signal handler's exception) `budget` is cancelled, the worker is
/// awaited (the engines poll the budget) and the exception is raised.
fn run<T: Send>(py: Python<'_>, budget: &Budget, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel();
        let worker = std::thread::Builder::new()
            .name("verikit".into())
            .stack_size(STACK)
            .spawn_scoped(s, move || {
                let _ = tx.send(f());
            })
            .map_err(|e| plain("internal", format!("cannot start a worker thread: {e}")))?;
        let (_, got) = wait(py, rx);
        match got {
            Wait::Got(v) => Ok(v),
            Wait::Signal(e) => {
                budget.cancel();
                let _ = py.detach(move || worker.join());
                Err(e)
            }
            Wait::Gone => {
                let why = match py.detach(move || worker.join()) {
                    Err(p) => p
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "the engine panicked".into()),
                    Ok(()) => "the worker ended without an answer".into(),
                };
                Err(plain("internal", why))
            }
        }
    })
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("NativeError", m.py().get_type::<NativeError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    nfa::register(m)?;
    smt::register(m)?;
    omega::register(m)?;
    bn::register(m)?;
    prism::register(m)?;
    Ok(())
}
