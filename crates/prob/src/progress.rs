//! Progress of long work (states built, value-iteration sweeps with the current error bound):
//! the engine reports a line now and then; the caller decides how to show it (the CLI draws a
//! spinner on stderr unless `-q`). The default reports nothing.

use std::fmt;
use std::sync::Arc;

type Sink = Arc<dyn Fn(&str) + Send + Sync>;

/// A sink for progress messages, cheap to clone.
#[derive(Clone, Default)]
pub struct Progress(Option<Sink>);

impl Progress {
    /// Reports nothing.
    pub fn none() -> Progress {
        Progress(None)
    }

    /// Calls `f` with each message.
    pub fn new(f: impl Fn(&str) + Send + Sync + 'static) -> Progress {
        Progress(Some(Arc::new(f)))
    }

    /// Reports one message (a no-op without a sink).
    pub fn report(&self, msg: &str) {
        if let Some(f) = &self.0 {
            f(msg);
        }
    }

    /// Is anyone listening (to skip formatting messages nobody reads)?
    pub fn is_active(&self) -> bool {
        self.0.is_some()
    }
}

impl fmt::Debug for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "Progress(on)"
        } else {
            "Progress(off)"
        })
    }
}
