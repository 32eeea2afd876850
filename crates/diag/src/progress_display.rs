//! Progress on stderr while a command runs: the engines report into the budget's
//! [`Progress`] record; this thread shows it — an `indicatif` spinner on a terminal, a plain line
//! every few seconds with `-v` otherwise — and nothing with `-q` or for commands that end within
//! the first second.

use crate::progress::Progress;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Quiet period before anything is shown, and the refresh periods.
const DELAY: Duration = Duration::from_secs(1);
const TICK: Duration = Duration::from_millis(100);
const LINE_EVERY: Duration = Duration::from_secs(2);

/// The running display; [`Display::stop`] clears it before the answer is printed.
pub(crate) struct Display {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Display {
    /// Starts showing `progress` unless `quiet`; `verbose` enables plain lines when stderr is not a
    /// terminal.
    pub(crate) fn start(progress: &Progress, quiet: bool, verbose: u8) -> Display {
        let stop = Arc::new(AtomicBool::new(false));
        let tty = std::io::stderr().is_terminal();
        if quiet || !(tty || verbose > 0) {
            return Display { stop, thread: None };
        }
        progress.watch();
        let (p, s) = (progress.clone(), stop.clone());
        let thread = std::thread::Builder::new()
            .name("verikit-progress".into())
            .spawn(move || if tty { spinner(&p, &s) } else { lines(&p, &s) })
            .ok();
        Display { stop, thread }
    }

    /// Stops and clears the display.
    pub(crate) fn stop(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Sleeps in short steps until `until` or a stop request; false when stopped.
fn wait(stop: &AtomicBool, until: Instant) -> bool {
    while Instant::now() < until {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        std::thread::sleep(TICK.min(until.saturating_duration_since(Instant::now())));
    }
    !stop.load(Ordering::Relaxed)
}

fn spinner(p: &Progress, stop: &AtomicBool) {
    if !wait(stop, Instant::now() + DELAY) {
        return;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} [{elapsed}] {msg}") {
        bar.set_style(style);
    }
    while !stop.load(Ordering::Relaxed) {
        bar.set_message(p.snapshot().to_string());
        bar.tick();
        std::thread::sleep(TICK);
    }
    bar.finish_and_clear();
}

fn lines(p: &Progress, stop: &AtomicBool) {
    let start = Instant::now();
    let mut next = start + LINE_EVERY;
    while wait(stop, next) {
        let s = p.snapshot();
        if !s.phase.is_empty() {
            eprintln!("[{:.1} s] {s}", start.elapsed().as_secs_f64());
        }
        next += LINE_EVERY;
    }
}
