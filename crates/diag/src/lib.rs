//! Source files, byte spans and diagnostics, shared by every verikit parser.
//!
//! Parsers report problems as a [`Diagnostic`]: a message, an optional byte [`Span`] into the
//! source text, an optional label for the span and free-form notes. The CLI renders it against the
//! [`SourceFile`] with `file:line:col` and a caret snippet (via `codespan-reporting`). Parsers never
//! panic on user input; they return a `Diagnostic` instead.

#![warn(unreachable_pub)]

mod answer;
mod budget;
mod cpu;
mod ctx;
mod diagnostic;
mod failure;
mod front;
mod memory;
mod params;
mod progress;
mod progress_display;
mod scan;
mod watchdog;

pub use answer::{Answer, Verdict};
pub use budget::{Budget, Exhausted, Ticker};
pub use cpu::{cpu_time_limit, process_cpu_time};
pub use ctx::{Ctx, Sink};
pub use diagnostic::{line_col, Diagnostic, Reportable, Severity, SourceFile, Span};
pub use failure::Failure;
pub use front::{
    emit, init_tracing, params_help, read_bytes, read_input, write_output, EXIT_INPUT,
    EXIT_INTERNAL, EXIT_LIMIT, EXIT_OK,
};
pub use memory::peak_memory_mib;
pub use params::{Param, Params};
pub use progress::{Progress, Snapshot};
pub use scan::{digits_end, ident_end, is_ident_start, skip_trivia, UNTERMINATED_COMMENT};
pub use watchdog::run_watched;
