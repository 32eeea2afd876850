//! Random Boolean networks in the style of the SETTA'17 experiments (Mizera, Pang, Qu, Yuan, "A New
//! Decomposition Method for Attractor Detection in Large Synchronous Boolean Networks", Sect. 5:
//! networks of 100–450 nodes of which few are non-leaves).
//!
//! Nodes `0..core` are the non-leaf core, cut into modules of `module` nodes: each core node is
//! regulated by its predecessor on its module's ring (so every core node has a child and none is a
//! leaf) and by `k − 1` further random nodes of its own or an earlier module (so the modules are
//! the SCCs, fed forward; `module = core` gives one strongly connected core).
//! The other nodes are leaves, each regulated by `k` random earlier nodes. Update functions are
//! random nested `&`/`|` combinations of the regulators with random negations.

use crate::network::Network;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use verikit_logic::BoolExpr;

/// Parameters of [`random`] (also the `verikit bn gen` arguments, with the `clap` feature).
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct GenParams {
    /// Number of nodes (1 to 32000).
    #[cfg_attr(feature = "clap", arg(long, short = 'n'))]
    pub nodes: usize,
    /// Number of non-leaf nodes (1 to --nodes).
    #[cfg_attr(feature = "clap", arg(long = "non-leaves", default_value_t = 10))]
    pub core: usize,
    /// Regulators per node (1 to 64).
    #[cfg_attr(feature = "clap", arg(long, short = 'k', default_value_t = 2))]
    pub k: usize,
    /// Size of the strongly connected modules the non-leaf core is cut into (1 to
    /// --non-leaves).
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 5))]
    pub module: usize,
    /// Seed of the random generator.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 1))]
    pub seed: u64,
}

/// A random network.
pub(crate) fn random(p: GenParams) -> Network {
    let n = p.nodes.max(1);
    let core = p.core.clamp(1, n);
    let k = p.k.max(1);
    let module = p.module.clamp(1, core);
    let mut rng = SmallRng::seed_from_u64(p.seed);
    let names: Vec<String> = (0..n).map(|i| format!("x{}", i + 1)).collect();
    let mut functions = Vec::with_capacity(n);
    for i in 0..n {
        let mut regs: Vec<u32> = Vec::new();
        if i < core {
            // Modules of `module` nodes; the remainder joins the last one (no 1-node module, which
            // would be a leaf with only a self-loop).
            let count = (core / module).max(1);
            let idx = (i / module).min(count - 1);
            let start = idx * module;
            let size = if idx == count - 1 {
                core - start
            } else {
                module
            };
            regs.push((start + (i - start + size - 1) % size) as u32);
            let pool: Vec<u32> = (0..(start + size) as u32).collect();
            for &r in pool.choose_multiple(&mut rng, k.min(core)) {
                if regs.len() < k && !regs.contains(&r) {
                    regs.push(r);
                }
            }
        } else {
            let pool: Vec<u32> = (0..i as u32).collect();
            regs.extend(pool.choose_multiple(&mut rng, k.min(i)));
        }
        regs.shuffle(&mut rng);
        functions.push(random_function(&regs, &mut rng));
    }
    Network::from_functions(names, functions)
}

fn random_function(regs: &[u32], rng: &mut SmallRng) -> BoolExpr {
    let mut e: Option<BoolExpr> = None;
    for &r in regs {
        let lit = if rng.gen_bool(0.3) {
            BoolExpr::not(BoolExpr::Var(r))
        } else {
            BoolExpr::Var(r)
        };
        e = Some(match e {
            None => lit,
            Some(acc) => {
                if rng.gen_bool(0.5) {
                    BoolExpr::And(vec![acc, lit])
                } else {
                    BoolExpr::Or(vec![acc, lit])
                }
            }
        });
    }
    e.unwrap_or(BoolExpr::Const(rng.gen_bool(0.5)))
}

#[cfg(test)]
mod tests {
    #[test]
    fn core_size_is_the_non_leaf_count() {
        for seed in 0..20 {
            let net = crate::tests::generated(60, 7, seed);
            let f = net.resolved(crate::InputMode::Free);
            assert_eq!(crate::leaf_removal::non_leaves(&f).len(), 7, "seed {seed}");
        }
    }
}
