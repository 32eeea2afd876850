//! Running one command under the deadline: the command on a worker thread with a large stack,
//! this thread the watchdog, the progress display on stderr meanwhile, then the answer or the
//! failure printed and the exit code returned.

use crate::answer::{Answer, Verdict};
use crate::ctx::Ctx;
use crate::failure::Failure;
use crate::front::{emit, EXIT_INTERNAL, EXIT_LIMIT};
use crate::memory::peak_memory_mib;
use crate::progress_display::Display;
use std::time::{Duration, Instant};

/// How long after the deadline the watchdog waits for an engine to stop by itself.
const GRACE: Duration = Duration::from_millis(500);

/// Runs `command` on a worker thread with a large stack while this thread is the watchdog: at
/// the deadline every engine sees the budget run out and returns what it has; if one does not
/// within a short grace period, the batch items computed so far are printed with a `timeout`
/// answer. Shows progress on stderr (unless `-q`), prints the answer or the failure, and
/// returns the exit code.
pub fn run_watched<F>(ctx: &Ctx, verbose: u8, command: F) -> i32
where
    F: FnOnce(&Ctx) -> Result<Answer, Failure> + Send + 'static,
{
    let (tx, rx) = std::sync::mpsc::channel();
    let wctx = ctx.clone();
    let spawned = std::thread::Builder::new()
        .name("verikit-worker".into())
        .stack_size(512 << 20)
        .spawn(move || {
            let _ = tx.send(command(&wctx));
        });
    if let Err(e) = spawned {
        eprintln!("internal error: cannot start worker thread: {e}");
        return EXIT_INTERNAL;
    }
    let display = Display::start(ctx.budget.progress(), ctx.quiet, verbose);
    let wait = ctx.budget.remaining().and_then(|r| r.checked_add(GRACE));
    let outcome = match wait {
        Some(w) => rx.recv_timeout(w).map_err(|e| match e {
            std::sync::mpsc::RecvTimeoutError::Timeout => true,
            std::sync::mpsc::RecvTimeoutError::Disconnected => false,
        }),
        None => rx.recv().map_err(|_| false),
    };
    // An engine that honours the budget stops with a resource-limit error at the deadline:
    // report it as the timeout it is.
    let deadline_passed = ctx.deadline().is_some_and(|d| Instant::now() >= d);
    display.stop();
    let outcome = match outcome {
        Ok(Err(e)) if deadline_passed && e.exit_code() == EXIT_LIMIT => Err(true),
        other => other,
    };
    match outcome {
        Ok(Ok(r)) => {
            let r = with_peak_memory(r, ctx.json);
            emit(&r.render(ctx.json));
            r.exit_code()
        }
        Ok(Err(e)) => {
            if ctx.json {
                let limit = e.exit_code() == EXIT_LIMIT;
                let verdict = if limit { "resource-limit" } else { "error" };
                let j = serde_json::json!({"verdict": verdict, "error": e.message()});
                emit(&format!("{j}\n"));
            }
            eprint!("{}", e.render());
            e.exit_code()
        }
        Err(true) => {
            ctx.budget.cancel();
            let t = ctx.timeout.unwrap_or_default();
            if ctx.json {
                let mut a = Answer::decision(Verdict::Timeout).detail("timeout_s", t);
                a.results = ctx.sink.take();
                let a = with_peak_memory(a, true);
                emit(&format!("{}\n", a.to_json()));
            } else {
                // Items already computed were printed as they finished.
                emit(&format!("timeout: no (further) answer within {t} s\n"));
            }
            EXIT_LIMIT
        }
        Err(false) => {
            // The worker panicked (its message is already on stderr).
            eprintln!("internal error (please report): the command crashed");
            EXIT_INTERNAL
        }
    }
}

/// The JSON answer with the process's peak memory among its statistics (`peak_memory_mib`);
/// the text answer unchanged.
fn with_peak_memory(answer: Answer, json: bool) -> Answer {
    match peak_memory_mib() {
        Some(mib) if json => answer.stat("peak_memory_mib", (mib * 10.0).round() / 10.0),
        _ => answer,
    }
}
