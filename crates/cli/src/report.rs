//! What every subcommand returns, how it is printed, and how errors map to exit codes.

use std::io::Read;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use verikit_diag::{Answer, Budget, Params, SourceFile, Verdict};

/// Exit codes (documented in the README).
pub const EXIT_OK: i32 = 0;
pub const EXIT_INTERNAL: i32 = 1;
pub const EXIT_INPUT: i32 = 2;
pub const EXIT_LIMIT: i32 = 3;

/// Options every subcommand sees.
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
    #[allow(dead_code)] // read by the engines' option builders as they publish `PARAMS`
    pub params: Params,
    /// When the command started.
    pub start: Instant,
    /// Batch items already computed, kept so a hard timeout can still print them.
    pub sink: Sink,
}

#[allow(dead_code)] // `stream`/`finish_batch` serve the batch commands as they move to `Answer`
impl Ctx {
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
}

/// Items of a batch computed so far (shared with the watchdog).
#[derive(Clone, Debug, Default)]
pub struct Sink(Arc<Mutex<Vec<Answer>>>);

impl Sink {
    pub fn take(&self) -> Vec<Answer> {
        self.0
            .lock()
            .map(|mut v| std::mem::take(&mut *v))
            .unwrap_or_default()
    }
}

/// What a command returns: the one [`Answer`].
pub type Output = Answer;

/// Exit code of a completed command: a `timeout` verdict exits like a timeout, an `error` verdict
/// (a batch with a rejected item: the other items are still answered) like bad input.
///
/// Filters (`aut filter`, detail `exit_style: "grep"`) exit as `grep` and Spot's `autfilt`: 1
/// when nothing matched.
pub fn exit_code(a: &Answer) -> i32 {
    if a.verdict == Some(Verdict::False)
        && a.detail.get("exit_style").and_then(|v| v.as_str()) == Some("grep")
    {
        return 1;
    }
    match a.verdict {
        Some(Verdict::Timeout) => EXIT_LIMIT,
        Some(Verdict::Error) => EXIT_INPUT,
        _ => EXIT_OK,
    }
}

/// Errors reported to the user: the one [`Failure`] of every front end.
pub use verikit_diag::Failure as CliError;

/// The exit code of a failure.
pub fn failure_exit(e: &CliError) -> i32 {
    match e {
        CliError::Usage(_) | CliError::Input(..) => EXIT_INPUT,
        CliError::Limit(_) => EXIT_LIMIT,
        CliError::Internal(_) => EXIT_INTERNAL,
    }
}

/// Reads an input file (`-` is standard input); non-UTF-8 or unreadable input is an input error.
pub fn read_input(path: &Path) -> Result<SourceFile, CliError> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| CliError::Usage(format!("cannot read standard input: {e}")))?;
        return SourceFile::from_bytes("<stdin>", bytes).map_err(CliError::from);
    }
    SourceFile::read(path).map_err(CliError::from)
}

/// Writes an output file, refusing to clobber an input of the same command.
pub fn write_output(path: &Path, contents: &str, inputs: &[&Path]) -> Result<(), CliError> {
    if let Ok(out) = path.canonicalize() {
        for i in inputs {
            if i.canonicalize().ok().as_deref() == Some(out.as_path()) {
                return Err(CliError::Usage(format!(
                    "refusing to overwrite the input file `{}`",
                    path.display()
                )));
            }
        }
    }
    std::fs::write(path, contents)
        .map_err(|e| CliError::Usage(format!("cannot write `{}`: {e}", path.display())))
}

/// Prints to stdout; a closed pipe (`verikit … | head`) ends the output quietly instead of panicking.
pub fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if out
        .write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .is_err()
    {
        std::process::exit(EXIT_OK);
    }
}
