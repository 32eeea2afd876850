//! Turn-taking between the portfolio's two routes on one CPU share.
//!
//! On a loaded machine the scheduler gives the process one share of CPU however many threads it
//! runs (decision 0803), so two routes side by side each get half of it. Here the bounded games
//! run alone first and, at a point of their own choosing (the start of a bound above
//! `synt.yield-bound`, where they have kept everything they computed), hand the CPU to the parity
//! route and wait, without losing their work, until it has finished without a decision or its turn
//! has run out (`synt.parity-turn`); then they resume — beside it in the second case, each thread
//! on its own core when the machine has one free, sharing the process's CPU share otherwise.
//! Nothing is restarted and nothing is run twice: a cooperative pause, not time slicing.

use std::sync::{Condvar, Mutex};
use std::time::Duration;
use verikit_diag::{Budget, Exhausted};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// The parity route has not run alone yet.
    Free,
    /// The parity route has the CPU; the bounded games wait.
    Parity,
    /// The parity route has finished (undecided): the bounded games never wait again.
    Done,
}

/// The turn: who may run.
pub(crate) struct Turn {
    state: Mutex<State>,
    cv: Condvar,
}

impl Turn {
    pub(crate) fn new() -> Turn {
        Turn {
            state: Mutex::new(State::Free),
            cv: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Called by the bounded games: the parity route's turn starts unless it has already
    /// finished. `true` when the caller must now [`Turn::wait`].
    pub(crate) fn hand_over(&self) -> bool {
        let mut s = self.lock();
        if *s == State::Free {
            *s = State::Parity;
            true
        } else {
            false
        }
    }

    /// Waits while the parity route has the turn, until the budget `until` has run out at the
    /// latest (`None`: until it ends; a share of the time left, on both clocks), polling
    /// `budget` (a cancelled or exhausted budget ends the wait with its error). A turn that ran
    /// out is not given again: the caller then runs beside the parity route.
    pub(crate) fn wait(&self, budget: &Budget, until: Option<&Budget>) -> Result<(), Exhausted> {
        let mut s = self.lock();
        while *s == State::Parity {
            budget.check()?;
            if until.is_some_and(|u| u.check().is_err()) {
                break;
            }
            s = self
                .cv
                .wait_timeout(s, Duration::from_millis(20))
                .map(|(g, _)| g)
                .unwrap_or_else(|e| e.into_inner().0);
        }
        Ok(())
    }

    /// Called when the parity route has ended without a decision: the bounded games go on.
    pub(crate) fn finish(&self) {
        *self.lock() = State::Done;
        self.cv.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::Turn;
    use std::sync::Arc;
    use std::time::{Duration, Instant};
    use verikit_diag::Budget;

    #[test]
    fn the_waiter_resumes_when_the_turn_is_finished() {
        let t = Arc::new(Turn::new());
        assert!(t.hand_over());
        assert!(!t.hand_over(), "one turn only");
        let t2 = Arc::clone(&t);
        let h = std::thread::spawn(move || t2.wait(&Budget::unlimited(), None));
        t.finish();
        assert!(h.join().unwrap().is_ok());
        assert!(!t.hand_over(), "finished: no more waiting");
        assert!(t.wait(&Budget::unlimited(), None).is_ok());
    }

    #[test]
    fn a_cancelled_budget_ends_the_wait() {
        let t = Turn::new();
        assert!(t.hand_over());
        let b = Budget::unlimited();
        b.cancel();
        assert!(t.wait(&b, None).is_err());
    }

    #[test]
    fn a_turn_that_ran_out_ends_the_wait_and_is_not_given_again() {
        let t = Turn::new();
        assert!(t.hand_over());
        let until = Budget::with_timeout(Duration::from_millis(30));
        let t0 = Instant::now();
        assert!(t.wait(&Budget::unlimited(), Some(&until)).is_ok());
        assert!(
            t0.elapsed() >= Duration::from_millis(30),
            "waited until the turn ran out"
        );
        assert!(!t.hand_over(), "one turn only");
    }
}
