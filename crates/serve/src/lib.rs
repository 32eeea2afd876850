//! The web playground of verikit (`verikit serve`): a local HTTP server whose pages (embedded in
//! the binary, no CDN) let a user paste an LTL formula (the automaton drawn as SVG, its HOA and
//! statistics, as Spot's online translator shows them), an SMT-LIB script, a pair of NFAs, a PRISM
//! model with properties, or a Boolean network, and see verikit's answer.
//!
//! Each request calls the same library entry point as the matching CLI command and answers the
//! same [`verikit_diag::Answer`] as JSON; it runs on the blocking pool under its own
//! [`verikit_diag::Budget`] (a deadline and a memory limit), so requests run concurrently and a
//! slow one never holds the others up; bad input answers the CLI's located error text.
//!
//! Modules: `playground` (the request of each page → the engine's `Answer`), `server` (routes,
//! limits, the blocking pool), `assets` (the embedded HTML, JavaScript and CSS).

#![warn(unreachable_pub)]

mod assets;
mod command;
mod playground;
mod server;

pub use command::serve;
pub use playground::ENGINES;
pub use server::{bind, ServeOptions, Server};
