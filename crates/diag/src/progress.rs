//! Progress of long work, reported by engines and shown by the caller.
//!
//! An engine says what it is doing (`phase`), how far it is (`set`/`add`, optionally out of a known
//! `total`) and, now and then, a short detail (the current error bound of value iteration, the
//! conflicts of a SAT search). Reporting is a few relaxed atomic stores, cheap enough for outer
//! loops; nothing is printed here. The caller (the CLI's spinner on stderr, a Python callback, a
//! test) reads a [`Snapshot`] whenever it wants. A [`Progress`] travels inside the
//! [`Budget`](crate::Budget) every engine already receives (`budget.progress()`), so no engine
//! needs a second parameter for it.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

#[derive(Debug, Default)]
struct State {
    watched: AtomicBool,
    done: AtomicU64,
    total: AtomicU64,
    phase: Mutex<String>,
    detail: Mutex<String>,
}

/// A shared progress record (see the module docs). Clones share the record.
#[derive(Clone, Debug, Default)]
pub struct Progress(Arc<State>);

/// What a [`Progress`] says at one moment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// What is being done (`"building states"`, `"value iteration"`), empty before any report.
    pub phase: String,
    /// Units done in this phase.
    pub done: u64,
    /// Units expected in this phase, when known.
    pub total: Option<u64>,
    /// A short detail (`"error bound 3.2e-5"`), possibly empty.
    pub detail: String,
}

impl Progress {
    /// A fresh record nobody has reported to yet.
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Starts a phase: sets its name, resets the counter and the detail, and sets the total.
    pub fn phase(&self, name: &str, total: Option<u64>) {
        if let Ok(mut p) = self.0.phase.lock() {
            p.clear();
            p.push_str(name);
        }
        if let Ok(mut d) = self.0.detail.lock() {
            d.clear();
        }
        self.0.done.store(0, Ordering::Relaxed);
        self.0.total.store(total.unwrap_or(0), Ordering::Relaxed);
    }

    /// Sets the units done in the current phase.
    #[inline]
    pub fn set(&self, done: u64) {
        self.0.done.store(done, Ordering::Relaxed);
    }

    /// Adds to the units done in the current phase.
    #[inline]
    pub fn add(&self, units: u64) {
        self.0.done.fetch_add(units, Ordering::Relaxed);
    }

    /// Sets the detail line (callers rate-limit the formatting themselves when it is costly; see
    /// [`Progress::wanted`]).
    pub fn detail(&self, text: &str) {
        if let Ok(mut d) = self.0.detail.lock() {
            d.clear();
            d.push_str(text);
        }
    }

    /// Does anyone read this record? False unless the caller said so with [`Progress::watch`],
    /// so that engines can skip formatting details nobody reads.
    #[inline]
    pub fn wanted(&self) -> bool {
        self.0.watched.load(Ordering::Relaxed)
    }

    /// Marks the record as read by someone (a spinner, a callback).
    pub fn watch(&self) {
        self.0.watched.store(true, Ordering::Relaxed);
    }

    /// The record as it is now.
    pub fn snapshot(&self) -> Snapshot {
        let total = self.0.total.load(Ordering::Relaxed);
        Snapshot {
            phase: self.0.phase.lock().map(|p| p.clone()).unwrap_or_default(),
            done: self.0.done.load(Ordering::Relaxed),
            total: (total > 0).then_some(total),
            detail: self.0.detail.lock().map(|d| d.clone()).unwrap_or_default(),
        }
    }
}

impl fmt::Display for Snapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.phase.is_empty() {
            "working"
        } else {
            &self.phase
        })?;
        if self.done > 0 || self.total.is_some() {
            write!(f, ": {}", self.done)?;
            if let Some(t) = self.total {
                write!(f, "/{t}")?;
            }
        }
        if !self.detail.is_empty() {
            write!(f, " ({})", self.detail)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_reset_counts_and_details() {
        let p = Progress::new();
        assert!(!p.wanted());
        let q = p.clone();
        q.watch();
        assert!(p.wanted());
        p.phase("building states", None);
        p.add(10);
        p.add(5);
        p.detail("depth 3");
        assert_eq!(q.snapshot().to_string(), "building states: 15 (depth 3)");
        p.phase("value iteration", Some(100));
        p.set(7);
        let s = q.snapshot();
        assert_eq!((s.done, s.total, s.detail.as_str()), (7, Some(100), ""));
        assert_eq!(s.to_string(), "value iteration: 7/100");
    }
}
