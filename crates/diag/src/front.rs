//! What a front end does around a library call: read input files (`-` is standard input), write
//! output files without clobbering inputs, print the [`Answer`] as text or JSON, map answers and
//! failures to exit codes, set up run diagnostics. The command line uses all of it; the playground
//! and the Python package use the printing and the exit-code rules.

use crate::answer::{Answer, Verdict};
use crate::diagnostic::SourceFile;
use crate::failure::Failure;
use std::io::Read;
use std::path::Path;

/// Exit code of a completed command (whatever the verdict).
pub const EXIT_OK: i32 = 0;
/// Exit code of an internal error.
pub const EXIT_INTERNAL: i32 = 1;
/// Exit code of bad input or usage.
pub const EXIT_INPUT: i32 = 2;
/// Exit code of a timeout or resource limit.
pub const EXIT_LIMIT: i32 = 3;

impl Answer {
    /// Exit code of a completed command: a `timeout` verdict exits like a timeout, an `error`
    /// verdict (a batch with a rejected item: the other items are still answered) like bad
    /// input. Filters (`aut filter`, detail `exit_style: "grep"`) exit as `grep` and Spot's
    /// `autfilt`: 1 when nothing matched.
    pub fn exit_code(&self) -> i32 {
        if self.verdict == Some(Verdict::False)
            && self.detail.get("exit_style").and_then(|v| v.as_str()) == Some("grep")
        {
            return 1;
        }
        match self.verdict {
            Some(Verdict::Timeout) => EXIT_LIMIT,
            Some(Verdict::Error) => EXIT_INPUT,
            _ => EXIT_OK,
        }
    }

    /// What is printed on stdout: one JSON object and a newline, or the text (a final newline
    /// added when missing; nothing for an empty text).
    pub fn render(&self, json: bool) -> String {
        if json {
            format!("{}\n", self.to_json())
        } else if self.text.is_empty() || self.text.ends_with('\n') {
            self.text.clone()
        } else {
            format!("{}\n", self.text)
        }
    }
}

impl Failure {
    /// The exit code of a failure.
    pub fn exit_code(&self) -> i32 {
        match self {
            Failure::Usage(_) | Failure::Input(..) => EXIT_INPUT,
            Failure::Limit(_) => EXIT_LIMIT,
            Failure::Internal(_) => EXIT_INTERNAL,
        }
    }
}

/// Reads an input file (`-` is standard input); non-UTF-8 or unreadable input is an input error.
pub fn read_input(path: &Path) -> Result<SourceFile, Failure> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| Failure::Usage(format!("cannot read standard input: {e}")))?;
        return SourceFile::from_bytes("<stdin>", bytes).map_err(Failure::from);
    }
    SourceFile::read(path).map_err(Failure::from)
}

/// Reads a binary input file (`-` is standard input).
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, Failure> {
    let mut b = Vec::new();
    if path.as_os_str() == "-" {
        std::io::stdin()
            .read_to_end(&mut b)
            .map_err(|e| Failure::Usage(format!("cannot read standard input: {e}")))?;
        return Ok(b);
    }
    std::fs::read(path)
        .map_err(|e| Failure::Usage(format!("cannot read `{}`: {e}", path.display())))
}

/// Writes an output file, refusing to clobber an input of the same command.
pub fn write_output(
    path: &Path,
    contents: impl AsRef<[u8]>,
    inputs: &[&Path],
) -> Result<(), Failure> {
    if let Ok(out) = path.canonicalize() {
        for i in inputs {
            if i.canonicalize().ok().as_deref() == Some(out.as_path()) {
                return Err(Failure::Usage(format!(
                    "refusing to overwrite the input file `{}`",
                    path.display()
                )));
            }
        }
    }
    std::fs::write(path, contents)
        .map_err(|e| Failure::Usage(format!("cannot write `{}`: {e}", path.display())))
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

/// The `--help-params` listing: every engine's tuning parameters with default, range and meaning.
pub fn params_help(tables: &[(&str, &[crate::params::Param])]) -> String {
    let mut out = String::from("Tuning parameters (-x KEY=VALUE):\n");
    for (engine, table) in tables {
        out.push_str(&format!("{engine}:\n"));
        for p in table.iter() {
            out.push_str(&format!("{p}\n"));
        }
    }
    if tables.is_empty() {
        out.push_str("  (none)\n");
    }
    out
}

/// Run diagnostics (`tracing`) on stderr: warnings only with `-q`, more with each `-v`.
pub fn init_tracing(quiet: bool, verbose: u8) {
    use tracing::Level;
    let level = match (quiet, verbose) {
        (true, _) => Level::WARN,
        (false, 0) => Level::INFO,
        (false, 1) => Level::DEBUG,
        _ => Level::TRACE,
    };
    let _ = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        .with_target(false)
        .without_time()
        .try_init();
}
