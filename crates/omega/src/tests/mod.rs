//! Tests that call the crate's internal algorithms directly (moved from `tests/` when the crate's
//! API was closed): budgets, acceptance guards, little-brother removals, operations on automata,
//! Emerson–Lei acceptance.

mod budget;
// The integration tests' helpers, compiled here too (through `verikit_omega` = this crate).
#[path = "../../tests/common/mod.rs"]
#[allow(unreachable_pub)]
mod common;
mod el;
mod guards;
mod little_brothers;
mod monitor;
mod ops;
mod ramsey_inclusion;
mod spot_cli;
