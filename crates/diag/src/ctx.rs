//! The context of one command run by a front end (command line, playground, Python): output mode,
//! the one [`Budget`], the `-x` parameters, and the batch items already computed. Libraries'
//! `task` entry points take it so they can stream batch items and warn as the CLI does.

use crate::answer::Answer;
use crate::budget::Budget;
use crate::failure::Failure;
use crate::front::emit;
use crate::params::Params;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Options every command sees.
#[derive(Clone, Debug)]
pub struct Ctx {
    /// `--json`: print one JSON object instead of text.
    pub json: bool,
    /// `-q`: no progress or warnings on stderr.
    pub quiet: bool,
    /// `--timeout` in seconds, if any.
    pub timeout: Option<f64>,
    /// The one budget every engine polls (`--timeout`; cancelled by the watchdog).
    pub budget: Budget,
    /// `-x key=value` tuning parameters (validated against the engines' tables).
    pub params: Params,
    /// When the command started.
    pub start: Instant,
    /// Batch items already computed, kept so a hard timeout can still print them.
    pub sink: Sink,
}

impl Default for Ctx {
    fn default() -> Ctx {
        Ctx::new(false, true, None, Params::default())
    }
}

impl Ctx {
    /// A context starting now, with a budget of `timeout` seconds — and, when the process has
    /// a CPU-time limit (`ulimit -t`), a CPU-time deadline just before it
    /// ([`Budget::within_cpu_rlimit`]), so every engine stops with what it has instead of being
    /// killed by the kernel.
    pub fn new(json: bool, quiet: bool, timeout: Option<f64>, params: Params) -> Ctx {
        Ctx {
            json,
            quiet,
            timeout,
            budget: Budget::from_secs(timeout).within_cpu_rlimit(),
            params,
            start: Instant::now(),
            sink: Sink::default(),
        }
    }

    /// Seconds since the command started.
    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// The instant after which the command must give up, if `--timeout` was given.
    pub fn deadline(&self) -> Option<Instant> {
        self.budget.deadline()
    }

    /// Reports one batch item as soon as it is computed: its text is printed (and flushed) now;
    /// in `--json` mode it is kept for the final object. Returns the item for the caller's batch.
    pub fn stream(&self, item: Answer) -> Answer {
        self.budget.progress().add(1);
        if !self.json && !item.text.is_empty() {
            emit(&item.text);
        }
        if let Ok(mut v) = self.sink.0.lock() {
            v.push(item.clone());
        }
        item
    }

    /// The final answer of a streamed batch: `summary` plus every streamed item (whose text was
    /// already printed).
    pub fn finish_batch(&self, mut summary: Answer) -> Answer {
        summary.results = self.sink.take();
        summary
    }

    /// A bad batch item's error on stderr at once (`LABEL: ` and the rendered failure), whatever
    /// `-q`: the other items still run, and the batch's answer lists it.
    pub fn item_error(&self, label: &str, f: &Failure) {
        eprint!("{label}: {}", f.render());
    }

    /// A warning on stderr (`Warning: …`), unless `-q`.
    pub fn warn(&self, w: &str) {
        if !self.quiet {
            eprintln!("Warning: {w}");
        }
    }
}

/// Items of a batch computed so far (shared with the watchdog).
#[derive(Clone, Debug, Default)]
pub struct Sink(Arc<Mutex<Vec<Answer>>>);

impl Sink {
    /// Takes the items computed so far.
    pub fn take(&self) -> Vec<Answer> {
        self.0
            .lock()
            .map(|mut v| std::mem::take(&mut *v))
            .unwrap_or_default()
    }
}
