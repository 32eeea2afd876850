//! One budget every engine polls: a deadline, a cancellation flag, counted work and a memory
//! estimate. `--timeout` (CLI), `KeyboardInterrupt` (Python) and the engines' own work limits all
//! go through this type, so cancellation is clean everywhere and results computed before the budget
//! ran out can still be reported.
//!
//! A `Budget` is cheap to clone; clones share the cancellation flag and the work counter.
//! [`Budget::sub`] makes a child with a tighter deadline or work limit that still sees the parent's
//! cancellation (a portfolio member, one formula of a batch).

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
        b.until(timeout.and_then(|t| Instant::now().checked_add(t)))
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

    #[test]
    fn ticker_polls_every_n() {
        let b = Budget::with_timeout(Duration::ZERO);
        let mut t = b.ticker(3);
        assert!(t.tick().is_ok());
        assert!(t.tick().is_ok());
        assert_eq!(t.tick(), Err(Exhausted::Timeout));
    }
}
