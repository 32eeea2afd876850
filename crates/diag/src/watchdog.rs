//! Running one command under the deadline: the command on a worker thread with a large stack,
//! this thread the watchdog, the progress display on stderr meanwhile, then the answer or the
//! failure printed and the exit code returned.

use crate::answer::{Answer, Verdict};
use crate::cpu::process_cpu_time;
use crate::ctx::Ctx;
use crate::failure::Failure;
use crate::front::{emit, EXIT_INTERNAL, EXIT_LIMIT};
use crate::memory::peak_memory_mib;
use crate::progress_display::Display;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How much CPU time the process may spend after the deadline before the watchdog stops
/// waiting for the engine to stop by itself and return what it has. Measured in CPU time, not
/// wall-clock time: on a loaded machine an engine that gets a fifth of a core needs five
/// wall-clock seconds for one second of work, and a wall-clock grace would throw away the
/// results and statistics it was about to print.
const GRACE_CPU: Duration = Duration::from_millis(500);

/// The longest wall-clock wait after the deadline whatever the CPU time (an engine blocked
/// without using CPU, or a system that does not report the process's CPU time).
const GRACE_WALL: Duration = Duration::from_secs(5);

/// How often the watchdog looks at the CPU clock during the grace period.
const GRACE_POLL: Duration = Duration::from_millis(20);

/// Runs `command` on a worker thread with a large stack while this thread is the watchdog: at
/// the deadline every engine sees the budget run out and returns what it has; if one does not
/// within a grace period ([`GRACE_CPU`] of the process's CPU time, at most [`GRACE_WALL`]), the
/// batch items computed so far and the engine's last progress report are printed with a
/// `timeout` answer. Shows progress on stderr (unless `-q`), prints the answer or the failure,
/// and returns the exit code.
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
    let outcome = await_answer(&rx, ctx.budget.remaining(), process_cpu_time);
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
                // The engine's last progress report is what it had computed when it was given up.
                let p = ctx.budget.progress().snapshot();
                if !p.phase.is_empty() {
                    a = a.detail(
                        "progress",
                        serde_json::json!({"phase": p.phase, "done": p.done, "detail": p.detail}),
                    );
                }
                a.results = ctx.sink.take();
                let a = with_peak_memory(a, true);
                emit(&format!("{}\n", a.to_json()));
            } else {
                // Items already computed were printed as they finished.
                let p = ctx.budget.progress().snapshot();
                let last = if p.phase.is_empty() {
                    String::new()
                } else {
                    format!(" (last progress: {p})")
                };
                emit(&format!(
                    "timeout: no (further) answer within {t} s{last}\n"
                ));
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

/// The worker's result: waits `remaining` (for ever if `None`), then for the grace period —
/// until the process has used [`GRACE_CPU`] of CPU time (read by `cpu`) since the deadline, or
/// [`GRACE_WALL`] has passed (at once [`GRACE_CPU`] of wall-clock time where `cpu` says
/// nothing). `Err(true)`: no answer in time; `Err(false)`: the worker is gone without one.
fn await_answer<T>(
    rx: &Receiver<T>,
    remaining: Option<Duration>,
    cpu: impl Fn() -> Option<Duration>,
) -> Result<T, bool> {
    let Some(remaining) = remaining else {
        return rx.recv().map_err(|_| false);
    };
    match rx.recv_timeout(remaining) {
        Err(RecvTimeoutError::Timeout) => {}
        other => return other.map_err(|_| false),
    }
    let deadline = Instant::now();
    let Some(cpu_at_deadline) = cpu() else {
        return rx.recv_timeout(GRACE_CPU).map_err(timed_out);
    };
    loop {
        match rx.recv_timeout(GRACE_POLL) {
            Err(RecvTimeoutError::Timeout) => {}
            other => return other.map_err(timed_out),
        }
        let spent = cpu().map_or(GRACE_CPU, |c| c.saturating_sub(cpu_at_deadline));
        if spent >= GRACE_CPU || deadline.elapsed() >= GRACE_WALL {
            return Err(true);
        }
    }
}

fn timed_out(e: RecvTimeoutError) -> bool {
    matches!(e, RecvTimeoutError::Timeout)
}

/// The JSON answer with the process's peak memory among its statistics (`peak_memory_mib`);
/// the text answer unchanged.
fn with_peak_memory(answer: Answer, json: bool) -> Answer {
    match peak_memory_mib() {
        Some(mib) if json => answer.stat("peak_memory_mib", (mib * 10.0).round() / 10.0),
        _ => answer,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    /// A worker on a starved core: its answer comes a wall-clock second after the deadline,
    /// while the process's CPU clock has not moved by the grace — it is printed, not lost.
    /// A worker that burns CPU past the grace without answering is given up.
    #[test]
    fn the_grace_period_is_cpu_time() {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(1100));
            let _ = tx.send(7);
        });
        let frozen = || Some(Duration::from_secs(3));
        let t = Instant::now();
        assert_eq!(
            await_answer(&rx, Some(Duration::from_millis(100)), frozen),
            Ok(7)
        );
        assert!(t.elapsed() >= Duration::from_millis(1000));

        let (tx, rx) = channel::<u32>();
        let start = Instant::now();
        // a CPU clock running at full speed: the grace ends after GRACE_CPU
        let running = move || Some(start.elapsed());
        assert_eq!(await_answer(&rx, Some(Duration::ZERO), running), Err(true));
        assert!(start.elapsed() < GRACE_WALL);
        // a clock that says nothing: GRACE_CPU of wall-clock time
        assert_eq!(await_answer(&rx, Some(Duration::ZERO), || None), Err(true));
        drop(tx);
        assert_eq!(await_answer(&rx, None, || None), Err(false));
    }
}
