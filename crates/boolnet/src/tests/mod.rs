//! The crate's property and data tests. They compare the decomposition with the crate's own
//! oracles (brute force, the monolithic detection, explicit simulation of the network), which are
//! not part of the public API, so they live inside the crate.

mod attractors;
mod bbm;
