//! `verikit.smt`: SMT-LIB 2.6 scripts (QF_LRA, QF_RDL, QF_LIA, QF_IDL) through `verikit_smt`'s
//! interpreter, as `verikit smt` runs them: a whole script at once ([`smt_run`]), or an
//! incremental [`Solver`] fed command by command.

use crate::{json, plain, run, source, wait, Wait, STACK};
use pyo3::prelude::*;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Mutex;
use verikit_diag::{Budget, SourceFile};
use verikit_smt::task::{answer, tuning, Outcome, SmtTask};
use verikit_smt::{Interp, OnError, RunOptions};

/// The answer of a finished script, or its first error located in `src`.
fn outcome(o: Outcome, src: &SourceFile) -> PyResult<String> {
    match o {
        Outcome::Done(a) => Ok(json(&a)),
        Outcome::Failed(_, d) => Err(crate::located(&d, Some(src))),
        Outcome::CheckFailed(a) => Err(plain("internal", format!("check failed:\n{}", a.text))),
    }
}

fn task(
    check: bool,
    timeout: Option<f64>,
    params: Option<Vec<(String, String)>>,
) -> PyResult<SmtTask> {
    let p = crate::params(params)?;
    Ok(SmtTask {
        check,
        stats: false,
        budget: Budget::from_secs(timeout),
        tuning: tuning(&p).map_err(|m| plain("usage", m))?,
    })
}

/// `verikit smt FILE --json`: a whole script (stopping at its first error, as a file does).
#[pyfunction]
#[pyo3(signature = (path=None, text=None, name="<script>", check=false, timeout=None, params=None))]
fn smt_run(
    py: Python<'_>,
    path: Option<&str>,
    text: Option<&str>,
    name: &str,
    check: bool,
    timeout: Option<f64>,
    params: Option<Vec<(String, String)>>,
) -> PyResult<String> {
    let src = source(path, text, name)?;
    let task = task(check, timeout, params)?;
    let o = run(py, &task.budget, || {
        let t0 = std::time::Instant::now();
        let mut interp = task.interp(true, None);
        interp.feed(&src.text);
        let out = interp.finish();
        answer(&task, &out, t0.elapsed().as_secs_f64(), false)
    })?;
    outcome(o, &src)
}

/// What the solver's thread sends back for one chunk of commands.
struct Reply {
    outcome: Outcome,
    /// Everything fed so far (the errors' spans refer to it).
    text: String,
    alive: bool,
}

/// An incremental SMT-LIB session. The interpreter lives on its own thread (it is not `Send`);
/// each call sends it a chunk of commands and waits, without the GIL, for the responses.
#[pyclass(module = "verikit._native")]
struct Solver {
    tx: Option<Sender<String>>,
    /// Taken out while a call waits (a `Receiver` is not `Sync`, so it moves into the wait).
    rx: Mutex<Option<Receiver<Reply>>>,
    budget: Budget,
    check: bool,
    alive: bool,
}

fn serve(task: SmtTask, rx: Receiver<String>, tx: Sender<Reply>) {
    let mut interp = Interp::new(RunOptions {
        check: task.check,
        budget: task.budget.clone(),
        on_error: OnError::Continue,
        tuning: task.tuning,
    });
    while let Ok(chunk) = rx.recv() {
        let t0 = std::time::Instant::now();
        let alive = interp.feed(&chunk);
        let out = interp.take_output();
        let outcome = answer(&task, &out, t0.elapsed().as_secs_f64(), false);
        let text = interp.text().to_string();
        if tx
            .send(Reply {
                outcome,
                text,
                alive,
            })
            .is_err()
        {
            return;
        }
    }
}

#[pymethods]
impl Solver {
    /// A fresh solver; `timeout` (seconds) bounds the whole session, `check` validates every
    /// model and Farkas certificate.
    #[new]
    #[pyo3(signature = (check=false, timeout=None, params=None))]
    fn new(
        check: bool,
        timeout: Option<f64>,
        params: Option<Vec<(String, String)>>,
    ) -> PyResult<Solver> {
        let task = task(check, timeout, params)?;
        let budget = task.budget.clone();
        let (tx, wrx) = mpsc::channel::<String>();
        let (wtx, rx) = mpsc::channel::<Reply>();
        std::thread::Builder::new()
            .name("verikit-smt".into())
            .stack_size(STACK)
            .spawn(move || serve(task, wrx, wtx))
            .map_err(|e| plain("internal", format!("cannot start the solver thread: {e}")))?;
        Ok(Solver {
            tx: Some(tx),
            rx: Mutex::new(Some(rx)),
            budget,
            check,
            alive: true,
        })
    }

    /// Runs SMT-LIB commands; returns the answer of this chunk as `verikit smt --json` would
    /// (responses, checks, the last check's model as witness). The first failing command raises
    /// (it had no effect; the session goes on).
    fn feed(&mut self, py: Python<'_>, commands: String) -> PyResult<String> {
        if !self.alive {
            return Err(plain(
                "usage",
                "this solver has stopped (exit, timeout or interrupt)",
            ));
        }
        let tx = self
            .tx
            .as_ref()
            .ok_or_else(|| plain("usage", "solver closed"))?;
        tx.send(commands)
            .map_err(|_| plain("internal", "the solver thread has ended"))?;
        let mut slot = self
            .rx
            .lock()
            .map_err(|_| plain("internal", "solver lock poisoned"))?;
        let rx = slot
            .take()
            .ok_or_else(|| plain("internal", "the solver is busy"))?;
        let (rx, got) = wait(py, rx);
        match got {
            Wait::Got(r) => {
                *slot = Some(rx);
                self.alive = r.alive;
                outcome(r.outcome, &SourceFile::new("<solver>", r.text))
            }
            Wait::Signal(e) => {
                self.budget.cancel();
                self.alive = false;
                let rx = py.detach(move || {
                    let _ = rx.recv();
                    rx
                });
                *slot = Some(rx);
                Err(e)
            }
            Wait::Gone => {
                self.alive = false;
                Err(plain("internal", "the solver thread has ended"))
            }
        }
    }

    /// Whether models and certificates are checked.
    #[getter]
    fn checking(&self) -> bool {
        self.check
    }

    /// False once the session has ended (`(exit)`, timeout, interrupt).
    #[getter]
    fn alive(&self) -> bool {
        self.alive
    }

    /// Ends the solver's thread.
    fn close(&mut self) {
        self.tx = None;
        self.alive = false;
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(smt_run, m)?)?;
    m.add_class::<Solver>()?;
    Ok(())
}
