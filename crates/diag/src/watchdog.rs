//! Running one command under the deadline: the command on a worker thread with a large stack,
//! this thread the watchdog, the progress display on stderr meanwhile, then the answer or the
//! failure printed and the exit code returned.

use crate::answer::{Answer, Verdict};
use crate::cpu::{cpu_time_limit, process_cpu_time};
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

/// How often the watchdog looks at the CPU clock before a CPU-time deadline.
const CPU_DEADLINE_POLL: Duration = Duration::from_millis(50);

/// The watchdog's deadlines: wall-clock time left, and the process CPU time at which the
/// command must give up (from `ulimit -t`), with the kernel's hard stop behind it.
#[derive(Clone, Copy, Debug, Default)]
struct Deadlines {
    wall: Option<Duration>,
    cpu: Option<Duration>,
    cpu_limit: Option<Duration>,
}

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
    let deadlines = Deadlines {
        wall: ctx.budget.remaining(),
        cpu: ctx.budget.cpu_deadline(),
        cpu_limit: cpu_time_limit(),
    };
    let outcome = await_answer(&rx, deadlines, process_cpu_time);
    // An engine that honours the budget stops with a resource-limit error at the deadline:
    // report it as the timeout it is.
    let cpu_deadline_passed = deadlines
        .cpu
        .zip(process_cpu_time())
        .is_some_and(|(d, now)| now >= d);
    let wall_deadline_passed = ctx.deadline().is_some_and(|d| Instant::now() >= d);
    let deadline_passed = wall_deadline_passed || cpu_deadline_passed;
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
            // The limit that ran out: `--timeout`, or the CPU-time limit.
            let (t, clock) = match (ctx.timeout, deadlines.cpu_limit) {
                (Some(t), _) if wall_deadline_passed || !cpu_deadline_passed => (t, ""),
                (_, Some(l)) => (l.as_secs_f64(), " of CPU time"),
                (t, None) => (t.unwrap_or_default(), ""),
            };
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
                    "timeout: no (further) answer within {t} s{clock}{last}\n"
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

/// The worker's result: waits until the wall-clock deadline `d.wall` or the CPU-time deadline
/// `d.cpu` (read by `cpu`; for ever if neither), then for the grace period — until the process
/// has used [`GRACE_CPU`] of CPU time since the deadline (at most half of what is left before
/// the kernel's CPU-time limit `d.cpu_limit`, so the answer is printed before the kernel stops
/// the process), or [`GRACE_WALL`] has passed (at once [`GRACE_CPU`] of wall-clock time where
/// `cpu` says nothing). `Err(true)`: no answer in time; `Err(false)`: the worker is gone
/// without one.
fn await_answer<T>(
    rx: &Receiver<T>,
    d: Deadlines,
    cpu: impl Fn() -> Option<Duration>,
) -> Result<T, bool> {
    let wall_end = d.wall.map(|r| Instant::now() + r);
    loop {
        let left = wall_end.map(|e| e.saturating_duration_since(Instant::now()));
        let wait = match (left, d.cpu) {
            (None, None) => return rx.recv().map_err(|_| false),
            (Some(l), None) => l,
            (l, Some(_)) => l.map_or(CPU_DEADLINE_POLL, |l| l.min(CPU_DEADLINE_POLL)),
        };
        match rx.recv_timeout(wait) {
            Err(RecvTimeoutError::Timeout) => {}
            other => return other.map_err(|_| false),
        }
        let wall_passed = wall_end.is_some_and(|e| Instant::now() >= e);
        let cpu_passed = d.cpu.zip(cpu()).is_some_and(|(at, now)| now >= at);
        if wall_passed || cpu_passed {
            break;
        }
    }
    let deadline = Instant::now();
    let Some(cpu_at_deadline) = cpu() else {
        return rx.recv_timeout(GRACE_CPU).map_err(timed_out);
    };
    let grace = d.cpu_limit.map_or(GRACE_CPU, |l| {
        GRACE_CPU.min(l.saturating_sub(cpu_at_deadline) / 2)
    });
    loop {
        match rx.recv_timeout(GRACE_POLL) {
            Err(RecvTimeoutError::Timeout) => {}
            other => return other.map_err(timed_out),
        }
        let spent = cpu().map_or(grace, |c| c.saturating_sub(cpu_at_deadline));
        if spent >= grace || deadline.elapsed() >= GRACE_WALL {
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

    fn wall(ms: u64) -> Deadlines {
        Deadlines {
            wall: Some(Duration::from_millis(ms)),
            ..Deadlines::default()
        }
    }

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
        assert_eq!(await_answer(&rx, wall(100), frozen), Ok(7));
        assert!(t.elapsed() >= Duration::from_millis(1000));

        let (tx, rx) = channel::<u32>();
        let start = Instant::now();
        // a CPU clock running at full speed: the grace ends after GRACE_CPU
        let running = move || Some(start.elapsed());
        assert_eq!(await_answer(&rx, wall(0), running), Err(true));
        assert!(start.elapsed() < GRACE_WALL);
        // a clock that says nothing: GRACE_CPU of wall-clock time
        assert_eq!(await_answer(&rx, wall(0), || None), Err(true));
        drop(tx);
        assert_eq!(await_answer(&rx, Deadlines::default(), || None), Err(false));
    }

    /// Under a CPU-time limit (`ulimit -t`) without `--timeout`: the worker is given up when
    /// the process's CPU clock passes the CPU deadline, and the grace ends halfway to the
    /// kernel's limit when that is nearer than [`GRACE_CPU`]; an answer before the deadline is
    /// returned.
    #[test]
    fn a_cpu_deadline_is_watched() {
        let (tx, rx) = channel::<u32>();
        let start = Instant::now();
        let running = move || Some(start.elapsed());
        let d = Deadlines {
            wall: None,
            cpu: Some(Duration::from_millis(200)),
            cpu_limit: Some(Duration::from_millis(300)),
        };
        assert_eq!(await_answer(&rx, d, running), Err(true));
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(200), "{took:?}");
        assert!(took < Duration::from_millis(200) + GRACE_CPU, "{took:?}");
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            let _ = tx.send(3);
        });
        let (tx2, rx2) = channel::<u32>();
        drop(tx2);
        assert_eq!(await_answer(&rx2, d, running), Err(false));
        let d = Deadlines {
            cpu: Some(Duration::from_secs(100)),
            ..d
        };
        assert_eq!(await_answer(&rx, d, || Some(Duration::ZERO)), Ok(3));
    }
}
