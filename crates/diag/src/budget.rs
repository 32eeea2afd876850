//! One budget every engine polls: a deadline, a cancellation flag, counted work and a memory
//! estimate. `--timeout` (CLI), `KeyboardInterrupt` (Python) and the engines' own work limits all
//! go through this type, so cancellation is clean everywhere and results computed before the budget
//! ran out can still be reported.
//!
//! A `Budget` is cheap to clone; clones share the cancellation flag and the work counter.
//! [`Budget::sub`] makes a child with a tighter deadline or work limit that still sees the parent's
//! cancellation (a portfolio member, one formula of a batch).
//!
//! A budget may also have a deadline in the process's CPU time ([`Budget::with_cpu_deadline`],
//! e.g. from `RLIMIT_CPU` by [`Budget::within_cpu_rlimit`]); [`Budget::share`] then gives a
//! child a fraction of what is left on both clocks, so an engine's time shares are the same
//! amount of work however loaded the machine is.

use crate::cpu::{cpu_time_cached, cpu_time_limit, process_cpu_time};
use crate::progress::Progress;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Why a budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Exhausted {
    /// The deadline passed.
    Timeout,
    /// Someone called [`Budget::cancel`] (Ctrl-C, `KeyboardInterrupt`, a portfolio winner).
    Cancelled,
    /// The counted work limit was reached.
    Work,
    /// The memory estimate exceeded the limit.
    Memory,
}

impl Exhausted {
    /// The word used in answers: `timeout` for a deadline or cancellation, `resource-limit` else.
    pub fn verdict_word(self) -> &'static str {
        match self {
            Exhausted::Timeout | Exhausted::Cancelled => "timeout",
            Exhausted::Work | Exhausted::Memory => "resource-limit",
        }
    }
}

impl fmt::Display for Exhausted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Exhausted::Timeout => "time limit reached",
            Exhausted::Cancelled => "cancelled",
            Exhausted::Work => "work limit reached",
            Exhausted::Memory => "memory limit reached",
        })
    }
}

impl std::error::Error for Exhausted {}

#[derive(Debug)]
struct Shared {
    cancelled: AtomicBool,
    work: AtomicU64,
    /// The budget this one was made from by [`Budget::sub`]: its cancellation reaches this one.
    parent: Option<Arc<Shared>>,
}

impl Shared {
    fn new(parent: Option<Arc<Shared>>) -> Arc<Shared> {
        Arc::new(Shared {
            cancelled: AtomicBool::new(false),
            work: AtomicU64::new(0),
            parent,
        })
    }
}

/// A deadline, a cancellation flag, counted work and a memory limit (see the module docs).
#[derive(Clone, Debug)]
pub struct Budget {
    shared: Arc<Shared>,
    deadline: Option<Instant>,
    /// The process CPU time (all threads) at which this budget runs out.
    cpu_deadline: Option<Duration>,
    work_limit: Option<u64>,
    work_base: u64,
    memory_limit: Option<usize>,
    progress: Progress,
}

impl Default for Budget {
    fn default() -> Self {
        Budget::unlimited()
    }
}

impl Budget {
    /// No deadline, no limits (cancellation still works).
    pub fn unlimited() -> Budget {
        Budget {
            shared: Shared::new(None),
            deadline: None,
            cpu_deadline: None,
            work_limit: None,
            work_base: 0,
            memory_limit: None,
            progress: Progress::new(),
        }
    }

    /// A budget that runs out `timeout` from now. Timeouts too large for the clock mean "none".
    pub fn with_timeout(timeout: Duration) -> Budget {
        Budget::unlimited().until(Instant::now().checked_add(timeout))
    }

    /// A budget from an optional number of seconds (as `--timeout` gives it). Non-finite, negative or
    /// absurdly large values are rejected by the caller; here they mean "no deadline".
    pub fn from_secs(secs: Option<f64>) -> Budget {
        match secs {
            Some(s) if s.is_finite() && (0.0..1e12).contains(&s) => {
                Budget::with_timeout(Duration::from_secs_f64(s))
            }
            _ => Budget::unlimited(),
        }
    }

    /// Sets (or clears) the deadline, keeping an earlier one already present.
    pub fn until(mut self, deadline: Option<Instant>) -> Budget {
        self.deadline = match (self.deadline, deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self
    }

    /// Limits the counted work ([`Budget::spend`]) of this budget and its clones, from now on.
    pub fn with_work_limit(mut self, units: u64) -> Budget {
        self.work_base = self.shared.work.load(Ordering::Relaxed);
        self.work_limit = Some(units);
        self
    }

    /// Limits the memory estimate passed to [`Budget::check_memory`].
    pub fn with_memory_limit(mut self, bytes: usize) -> Budget {
        self.memory_limit = Some(bytes);
        self
    }

    /// A child budget: at most `timeout` from now (and never beyond this budget's deadline), its own
    /// work counter, and cancelled whenever this budget is.
    pub fn sub(&self, timeout: Option<Duration>) -> Budget {
        let mut b = Budget::unlimited();
        b.shared = Shared::new(Some(self.shared.clone()));
        b.memory_limit = self.memory_limit;
        b.progress = self.progress.clone();
        b.deadline = self.deadline;
        b.cpu_deadline = self.cpu_deadline;
        b.until(timeout.and_then(|t| Instant::now().checked_add(t)))
    }

    /// Sets (or clears) the deadline in the process's CPU time (user + system of all threads,
    /// as `RLIMIT_CPU` counts it), keeping an earlier one already present. Checked by
    /// [`Budget::check`] where the operating system reports the process's CPU time (Linux).
    pub fn with_cpu_deadline(mut self, at: Option<Duration>) -> Budget {
        self.cpu_deadline = match (self.cpu_deadline, at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self
    }

    /// A CPU-time deadline before the process's `RLIMIT_CPU` soft limit, if it has one (the
    /// kernel stops the process there; the margin leaves time to answer): a twentieth of the
    /// limit, and at least a tenth of it up to 0.3 s — an engine with two busy threads spends
    /// CPU time twice as fast as the watchdog's clock runs.
    pub fn within_cpu_rlimit(self) -> Budget {
        let at = cpu_time_limit().map(|l| l - cpu_margin(l));
        self.with_cpu_deadline(at)
    }

    /// The deadline in process CPU time, if any.
    pub fn cpu_deadline(&self) -> Option<Duration> {
        self.cpu_deadline
    }

    /// CPU time left before the CPU-time deadline (`None` without one, or where the process's
    /// CPU time is unknown).
    pub fn cpu_remaining(&self) -> Option<Duration> {
        let d = self.cpu_deadline?;
        Some(d.saturating_sub(process_cpu_time()?))
    }

    /// A child budget ([`Budget::sub`]) with `fraction` of what is left on each clock: the
    /// wall-clock time before the deadline and the CPU time before the CPU-time deadline.
    /// Without either, `otherwise` of wall-clock time (`None`: no deadline).
    pub fn share(&self, fraction: f64, otherwise: Option<Duration>) -> Budget {
        let f = if fraction.is_finite() {
            fraction.clamp(0.0, 1.0)
        } else {
            1.0
        };
        let wall = self.remaining().map(|r| r.mul_f64(f));
        let cpu = self.cpu_deadline.and_then(|d| {
            let now = process_cpu_time()?;
            Some(now + d.saturating_sub(now).mul_f64(f))
        });
        let timeout = if wall.is_none() && self.cpu_deadline.is_none() {
            otherwise
        } else {
            wall
        };
        self.sub(timeout).with_cpu_deadline(cpu)
    }

    /// Reports progress to `progress` (shared with clones and children made after this call).
    pub fn with_progress(mut self, progress: Progress) -> Budget {
        self.progress = progress;
        self
    }

    /// Where the engine reports what it is doing (see [`Progress`]); nobody reads it unless the
    /// caller attached a watched record with [`Budget::with_progress`].
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// Cancels this budget, its clones and its children.
    pub fn cancel(&self) {
        self.shared.cancelled.store(true, Ordering::Relaxed);
    }

    /// True once [`Budget::cancel`] was called on this budget or an ancestor.
    pub fn is_cancelled(&self) -> bool {
        let mut at = Some(&self.shared);
        while let Some(s) = at {
            if s.cancelled.load(Ordering::Relaxed) {
                return true;
            }
            at = s.parent.as_ref();
        }
        false
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Time left before the deadline (`None` without a deadline).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Work counted so far by this budget and its clones.
    pub fn work_done(&self) -> u64 {
        self.shared.work.load(Ordering::Relaxed) - self.work_base
    }

    /// Polls the cancellation flag and the deadline. Cheap enough for every outer-loop iteration
    /// (one atomic load and one clock read); hot inner loops use [`Budget::spend`] or a [`Ticker`].
    pub fn check(&self) -> Result<(), Exhausted> {
        if self.is_cancelled() {
            return Err(Exhausted::Cancelled);
        }
        if let Some(d) = self.deadline {
            if Instant::now() >= d {
                return Err(Exhausted::Timeout);
            }
        }
        if let Some(d) = self.cpu_deadline {
            if cpu_time_cached().is_some_and(|c| c >= d) {
                return Err(Exhausted::Timeout);
            }
        }
        Ok(())
    }

    /// Counts `units` of work, then checks the work limit and (every call) the deadline.
    pub fn spend(&self, units: u64) -> Result<(), Exhausted> {
        let before = self.shared.work.fetch_add(units, Ordering::Relaxed);
        if let Some(l) = self.work_limit {
            if before + units - self.work_base > l {
                return Err(Exhausted::Work);
            }
        }
        self.check()
    }

    /// Checks an estimate of the memory in use against the limit (and polls the deadline).
    pub fn check_memory(&self, bytes: usize) -> Result<(), Exhausted> {
        if self.memory_limit.is_some_and(|l| bytes > l) {
            return Err(Exhausted::Memory);
        }
        self.check()
    }

    /// A ticker that polls this budget once every `every` ticks (for hot loops).
    pub fn ticker(&self, every: u32) -> Ticker<'_> {
        Ticker {
            budget: self,
            every: every.max(1),
            left: every.max(1),
        }
    }
}

/// Polls a [`Budget`] every n-th call of [`Ticker::tick`].
#[derive(Debug)]
pub struct Ticker<'a> {
    budget: &'a Budget,
    every: u32,
    left: u32,
}

impl Ticker<'_> {
    /// Counts one step; every `every` steps polls the budget and adds the steps to its progress.
    #[inline]
    pub fn tick(&mut self) -> Result<(), Exhausted> {
        self.left -= 1;
        if self.left == 0 {
            self.left = self.every;
            self.budget.progress.add(u64::from(self.every));
            return self.budget.check();
        }
        Ok(())
    }
}

/// The margin [`Budget::within_cpu_rlimit`] leaves before a CPU-time limit `l`.
fn cpu_margin(l: Duration) -> Duration {
    (l / 20).max((l / 10).min(Duration::from_millis(300)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unlimited_never_runs_out() {
        let b = Budget::unlimited();
        for _ in 0..1000 {
            b.spend(1_000_000).unwrap();
        }
        assert_eq!(b.work_done(), 1_000_000_000);
    }

    #[test]
    fn deadline_in_the_past_is_a_timeout() {
        let b = Budget::with_timeout(Duration::ZERO);
        assert_eq!(b.check(), Err(Exhausted::Timeout));
        assert_eq!(Budget::from_secs(Some(1e20)).deadline(), None);
    }

    #[test]
    fn work_limit_counts_from_the_limit_on() {
        let b = Budget::unlimited();
        b.spend(50).unwrap();
        let b = b.with_work_limit(10);
        b.spend(10).unwrap();
        assert_eq!(b.spend(1), Err(Exhausted::Work));
    }

    #[test]
    fn cancellation_reaches_clones_and_children() {
        let b = Budget::unlimited();
        let c = b.clone();
        let child = b.sub(Some(Duration::from_secs(100)));
        assert!(child.check().is_ok());
        c.cancel();
        assert_eq!(b.check(), Err(Exhausted::Cancelled));
        assert_eq!(child.check(), Err(Exhausted::Cancelled));
        // Nor does it stop at the first generation.
        let grandchild = Budget::unlimited();
        let deep = grandchild.sub(None).sub(None).sub(None);
        grandchild.cancel();
        assert_eq!(deep.check(), Err(Exhausted::Cancelled));
        // A child's cancellation does not reach the parent.
        let p = Budget::unlimited();
        p.sub(None).cancel();
        assert!(p.check().is_ok());
    }

    #[test]
    fn child_never_outlives_parent() {
        let p = Budget::with_timeout(Duration::from_secs(1));
        let c = p.sub(Some(Duration::from_secs(1000)));
        assert!(c.deadline() <= p.deadline());
    }

    /// Burns CPU until the process's CPU clock has moved by `d` (or 20 s of wall clock pass).
    fn burn(d: Duration) {
        let Some(start) = process_cpu_time() else {
            return;
        };
        let t = Instant::now();
        let mut x = 0u64;
        while process_cpu_time().is_some_and(|c| c < start + d) && t.elapsed().as_secs() < 20 {
            for i in 0..10_000u64 {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
            }
        }
    }

    #[test]
    fn the_cpu_margin_grows_for_short_limits() {
        let ms = |m| Duration::from_millis(m);
        assert_eq!(cpu_margin(ms(1000)), ms(100));
        assert_eq!(cpu_margin(ms(5000)), ms(300));
        assert_eq!(cpu_margin(ms(60_000)), ms(3000));
    }

    #[test]
    fn a_cpu_deadline_runs_out_with_the_process_cpu_time() {
        let Some(now) = process_cpu_time() else {
            return;
        };
        let b = Budget::unlimited().with_cpu_deadline(Some(now + Duration::from_millis(60)));
        assert!(b.check().is_ok());
        assert!(b
            .cpu_remaining()
            .is_some_and(|r| r <= Duration::from_millis(60)));
        // A child inherits it; the earlier of two CPU deadlines is kept.
        let child = b.sub(None);
        assert_eq!(child.cpu_deadline(), b.cpu_deadline());
        let later = b
            .clone()
            .with_cpu_deadline(Some(now + Duration::from_secs(100)));
        assert_eq!(later.cpu_deadline(), b.cpu_deadline());
        burn(Duration::from_millis(100));
        std::thread::sleep(Duration::from_millis(10));
        assert_eq!(b.check(), Err(Exhausted::Timeout));
        assert_eq!(child.check(), Err(Exhausted::Timeout));
    }

    #[test]
    fn a_share_is_a_fraction_of_both_clocks() {
        let b = Budget::with_timeout(Duration::from_secs(100));
        let s = b.share(0.25, None);
        let left = s.remaining().unwrap();
        assert!(left <= Duration::from_secs(25) && left > Duration::from_secs(20));
        // Without any deadline: the default, or none.
        assert!(Budget::unlimited().share(0.5, None).deadline().is_none());
        let d = Budget::unlimited().share(0.5, Some(Duration::from_secs(2)));
        assert!(d.remaining().is_some_and(|r| r <= Duration::from_secs(2)));
        let Some(now) = process_cpu_time() else {
            return;
        };
        let c = Budget::unlimited().with_cpu_deadline(Some(now + Duration::from_secs(40)));
        let half = c.share(0.5, Some(Duration::from_secs(2)));
        assert!(
            half.deadline().is_none(),
            "a CPU deadline is not turned into a wall one"
        );
        let at = half.cpu_deadline().unwrap();
        assert!(at > now + Duration::from_secs(19) && at <= now + Duration::from_secs(21));
    }

    #[test]
    fn ticker_polls_every_n() {
        let b = Budget::with_timeout(Duration::ZERO);
        let mut t = b.ticker(3);
        assert!(t.tick().is_ok());
        assert!(t.tick().is_ok());
        assert_eq!(t.tick(), Err(Exhausted::Timeout));
    }
}
