//! The crate's property and data tests. They compare the decomposition with the crate's own
//! oracles (brute force, the monolithic detection, explicit simulation of the network), which are
//! not part of the public API, so they live inside the crate.

mod attractors;
mod bbm;

use crate::generate::{random, GenParams};
use crate::{Attractors, BnError, Method, Network, Options};

/// `attractors` by brute force (the oracle), with the other options of `o`.
fn brute_force(net: &Network, o: &Options) -> Result<Attractors, BnError> {
    let o = Options {
        method: Method::BruteForce,
        ..o.clone()
    };
    crate::attractors(net, &o)
}

/// A random network as `bn gen` draws it: `nodes` nodes, `core` of them non-leaves, two
/// regulators per node, modules of three.
pub(crate) fn generated(nodes: usize, core: usize, seed: u64) -> Network {
    let (k, module) = (2, 3);
    random(GenParams {
        nodes,
        core,
        k,
        module,
        seed,
    })
}
