//! The entry points of attractor detection (SETTA'17, Mizera, Pang, Qu, Yuan, "A New
//! Decomposition Method for Attractor Detection in Large Synchronous Boolean Networks"): the
//! SCC-based decomposition (Algorithm 1) with leaf removal (Algorithm 2) around it, the monolithic
//! BDD baseline or explicit enumeration, chosen by [`Options`]; and the fixed points.

use crate::error::BnError;
use crate::network::{InputMode, Network};
use crate::symbolic::{self, Cycle, Detect, Limits, Symbolic};
use crate::{bruteforce, decomposition, enumerate, leaf_removal};
use num_bigint::BigUint;

/// Which attractor-detection algorithm to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Method {
    /// SCC decomposition (Algorithm 1).
    #[default]
    Decomposition,
    /// Monolithic BDD detection.
    Monolithic,
    /// Explicit enumeration (small networks only).
    BruteForce,
}

/// Options of [`attractors`].
#[derive(Clone, Debug)]
pub struct Options {
    pub method: Method,
    pub inputs: InputMode,
    /// Apply Algorithm 2 (leaf removal) around the symbolic methods (on by default: it is the
    /// paper's method, Algorithms 1 and 2 together).
    pub leaf_removal: bool,
    /// List at most this many attractors (counts are always complete).
    pub limit: usize,
    /// Above this many attractors of a parent block, realisations are driven by all of them at once.
    pub max_realisations: usize,
    /// The `Detect` routine for blocks, realisations and whole networks.
    pub detect: Detect,
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            method: Method::Decomposition,
            inputs: InputMode::Free,
            leaf_removal: true,
            limit: 100,
            max_realisations: 256,
            detect: Detect::Periods,
            limits: Limits::default(),
        }
    }
}

/// Statistics of a run.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub blocks: usize,
    pub max_credit: u32,
    pub realisations: usize,
    pub largest_block: usize,
    /// Nodes left after leaf removal (all nodes when it is off).
    pub non_leaves: usize,
}

/// The attractors of a network.
#[derive(Clone, Debug)]
pub struct Attractors {
    /// Variable names (the order of the states' bits).
    pub names: Vec<String>,
    /// Listed attractors, each its cycle of states in order (starting at its least state).
    pub listed: Vec<Cycle>,
    /// True when `listed` holds every attractor.
    pub complete: bool,
    /// The exact number of attractors, if it could be counted.
    pub attractor_count: Option<BigUint>,
    /// The exact number of fixed points (attractors with one state).
    pub fixed_point_count: BigUint,
    /// The exact number of states lying on attractors.
    pub attractor_state_count: BigUint,
    pub stats: Stats,
}

/// Detects all attractors of `net` under the synchronous semantics.
pub fn attractors(net: &Network, opts: &Options) -> Result<Attractors, BnError> {
    let functions = net.resolved(opts.inputs);
    let names = net.names.clone();
    if opts.method == Method::BruteForce {
        let all = bruteforce::attractors(&functions)?;
        let fixed = all.iter().filter(|c| c.len() == 1).count();
        let states: usize = all.iter().map(|c| c.len()).sum();
        let count = all.len();
        let complete = count <= opts.limit;
        let listed: Vec<Cycle> = all.into_iter().take(opts.limit).collect();
        return Ok(Attractors {
            names,
            listed,
            complete,
            attractor_count: Some(BigUint::from(count)),
            fixed_point_count: BigUint::from(fixed),
            attractor_state_count: BigUint::from(states),
            stats: Stats {
                non_leaves: functions.len(),
                ..Stats::default()
            },
        });
    }
    // Work on a renumbered network with a better BDD variable order; map the states back at the end.
    let order = symbolic::ordering(&functions);
    let mut sym = Symbolic::new(&symbolic::permute(&functions, &order), opts.limits.clone())?;
    sym.detect = opts.detect;
    let sym = sym;
    let mut stats = Stats::default();
    let mut dstats = decomposition::DecompStats::default();
    let method = opts.method;
    let maxr = opts.max_realisations;
    let mut inner = |nodes: &[usize]| -> Result<biodivine_lib_bdd::Bdd, BnError> {
        match method {
            Method::Monolithic => sym.detect(&sym.vars.mk_true(), nodes),
            _ => decomposition::attractor_states(&sym, nodes, maxr, &mut dstats),
        }
    };
    let phi = if opts.leaf_removal {
        let (phi, core) = leaf_removal::attractor_states(&sym, &mut inner)?;
        stats.non_leaves = core;
        phi
    } else {
        stats.non_leaves = sym.n;
        let all: Vec<usize> = (0..sym.n).collect();
        inner(&all)?
    };
    stats.blocks = dstats.blocks;
    stats.max_credit = dstats.max_credit;
    stats.realisations = dstats.realisations;
    stats.largest_block = dstats.largest_block;
    let mut r = summarise(&sym, &phi, names, opts.limit, stats)?;
    for c in r.listed.iter_mut() {
        let back: Cycle = c
            .iter()
            .map(|s| symbolic::unpermute_state(s, &order))
            .collect();
        *c = symbolic::rotate_min(back);
    }
    if r.complete {
        r.listed.sort();
    }
    Ok(r)
}

/// Lists (up to `limit`) and counts the attractors in a set of attractor states of the network.
fn summarise(
    sym: &Symbolic,
    phi: &biodivine_lib_bdd::Bdd,
    names: Vec<String>,
    limit: usize,
    stats: Stats,
) -> Result<Attractors, BnError> {
    let all: Vec<usize> = (0..sym.n).collect();
    let states = sym.card(phi, sym.n);
    // Peel a few more than asked, so that moderate counts come out of the listing directly.
    let peel_to = limit.max(4096);
    let (mut cycles, done) = sym.peel(phi, &all, peel_to)?;
    let fixed = if done {
        BigUint::from(cycles.iter().filter(|c| c.len() == 1).count())
    } else {
        sym.card(&sym.fixed_points(phi, &all)?, sym.n)
    };
    let count = if done {
        Some(BigUint::from(cycles.len()))
    } else {
        match sym.count_cycles(phi, &all) {
            Ok(c) => Some(c),
            Err(BnError::Timeout) => return Err(BnError::Timeout),
            Err(e) => {
                tracing::warn!("the attractors could not be counted: {e}");
                None
            }
        }
    };
    if done {
        cycles.sort();
    }
    let complete = done && cycles.len() <= limit;
    cycles.truncate(limit);
    Ok(Attractors {
        names,
        listed: cycles,
        complete,
        attractor_count: count,
        fixed_point_count: fixed,
        attractor_state_count: states,
        stats,
    })
}

/// The fixed points of the network (synchronous and asynchronous fixed points coincide): their
/// exact number and up to `limit` of them, sorted.
pub fn fixed_points(
    net: &Network,
    inputs: InputMode,
    limit: usize,
    limits: Limits,
) -> Result<(BigUint, Vec<Vec<bool>>), BnError> {
    let functions = net.resolved(inputs);
    let order = symbolic::ordering(&functions);
    let sym = Symbolic::new(&symbolic::permute(&functions, &order), limits)?;
    let all: Vec<usize> = (0..sym.n).collect();
    let fp = sym.fixed_points(&sym.vars.mk_true(), &all)?;
    let count = sym.card(&fp, sym.n);
    let mut out: Vec<Vec<bool>> = enumerate::states(&fp, &all, sym.n, limit, &sym.limits.budget)?
        .iter()
        .map(|s| symbolic::unpermute_state(s, &order))
        .collect();
    out.sort();
    Ok((count, out))
}
