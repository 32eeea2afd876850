//! The crate's property and data tests. They compare every algorithm with the crate's own oracles
//! (the subset construction, the fixed-point simulation, the explicit semantics of the symbolic
//! algorithms), which are not part of the public API, so they live inside the crate.

mod armc;
mod common;
mod oracle;
mod roundtrip;
mod symbolic;
