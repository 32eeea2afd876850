//! The leaf-based optimisation of SETTA'17 (Mizera, Pang, Qu, Yuan, "A New Decomposition Method for
//! Attractor Detection in Large Synchronous Boolean Networks", Sect. 4.1, Definition 13 and
//! Algorithm 2).
//!
//! Leaves are removed iteratively: a node is a leaf if it is not the only remaining node and it has
//! no children other than itself once its leaf children are removed. The remaining nodes form an
//! elementary block `B` (a leaf's children are all leaves, so no remaining node depends on a
//! leaf). Its attractor states `Φ_B` are detected (with Algorithm 1 or the monolithic method), and
//! then the whole network's transition system restricted to the mirror states `M_G(Φ_B)` — every
//! state whose projection onto `B` is in `Φ_B` — is searched for attractors (lines 4–5).
//!
//! That last `Detect` exploits what makes a leaf a leaf. Leaves form no cycle except self-loops, so
//! the leaves without a self-loop can be ordered so that each depends only on `B` and earlier
//! leaves. Leaves with a self-loop (whose value can also depend on their own past) are kept in the
//! block, together with their regulators (so `B` stays closed under regulators). On an attractor
//! of `G` the projection onto `B` runs around a cycle of `Φ_B`; if that cycle has minimal period
//! `p`, the state `t` steps back is `f_B^{p - t mod p}(x_B)`, and a leaf's value now is its update
//! function applied to the state one step back, whose leaf values are again those of their
//! regulators one step further back, and so on down the leaf order. Each leaf is thus a function
//! `h_l` of the current block state alone, composed symbolically from `f_B^k` and the leaves'
//! update functions, and the attractor states of `T` are
//! `⋃_p { x : x_B ∈ Φ_B has minimal period p, x_l = h_l^{(p)}(x_B) for every leaf l }` — every
//! such state is periodic, and every periodic state of `T` is of that form. This is exact, never
//! iterates images over the whole network, and costs one composition of the block's functions per
//! period occurring in `Φ_B`. When a period has few block states (at most [`EXPLICIT_STATES`]) the
//! same states are found explicitly instead: from each block cycle's first state, the whole network
//! is stepped as many times as the longest chain of leaves, which puts every leaf on its value on
//! the attractor, and then once around the cycle. Should that fail (a period over [`MAX_PERIOD`], or a decision
//! diagram over the node limit), the generic `Detect` on `T` is run instead.

use crate::error::BnError;
use crate::network::step;
use crate::symbolic::{x, Symbolic};
use biodivine_lib_bdd::Bdd;
use num_bigint::BigUint;
use std::collections::HashMap;
use std::time::Instant;
use verikit_logic::BoolExpr;

/// The non-leaf nodes (Definition 13), sorted.
pub(crate) fn non_leaves(functions: &[BoolExpr]) -> Vec<usize> {
    let n = functions.len();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, f) in functions.iter().enumerate() {
        for v in f.vars() {
            let v = v as usize;
            if v < n && v != i {
                children[v].push(i);
            }
        }
    }
    for c in children.iter_mut() {
        c.sort_unstable();
        c.dedup();
    }
    let mut parents: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (p, cs) in children.iter().enumerate() {
        for &c in cs {
            parents[c].push(p);
        }
    }
    let mut live_children: Vec<usize> = children.iter().map(|c| c.len()).collect();
    let mut removed = vec![false; n];
    let mut remaining = n;
    let mut queue: Vec<usize> = (0..n).filter(|&v| live_children[v] == 0).collect();
    while let Some(v) = queue.pop() {
        if removed[v] || remaining <= 1 {
            continue;
        }
        removed[v] = true;
        remaining -= 1;
        for &p in &parents[v] {
            live_children[p] -= 1;
            if live_children[p] == 0 {
                queue.push(p);
            }
        }
    }
    (0..n).filter(|&v| !removed[v]).collect()
}

/// Longest core period for which the leaves are composed period by period.
pub(crate) const MAX_PERIOD: usize = 4096;

/// Up to this many block states of one period, the leaves are found by simulation instead.
pub(crate) const EXPLICIT_STATES: u64 = 20_000;

/// The block of Algorithm 2 (the non-leaves, plus every leaf with a self-loop and its regulators,
/// closed under regulators) and the other leaves in an order where each comes after its
/// regulators.
pub(crate) fn split(functions: &[BoolExpr]) -> (Vec<usize>, Vec<usize>) {
    let n = functions.len();
    let core = non_leaves(functions);
    let regs: Vec<Vec<usize>> = functions
        .iter()
        .map(|f| {
            let mut r: Vec<usize> = f
                .vars()
                .into_iter()
                .map(|v| v as usize)
                .filter(|&v| v < n)
                .collect();
            r.sort_unstable();
            r.dedup();
            r
        })
        .collect();
    let mut in_block = vec![false; n];
    let mut stack: Vec<usize> = core.clone();
    stack.extend((0..n).filter(|&i| regs[i].contains(&i)));
    while let Some(v) = stack.pop() {
        if in_block[v] {
            continue;
        }
        in_block[v] = true;
        stack.extend(regs[v].iter().copied().filter(|&r| !in_block[r]));
    }
    let block: Vec<usize> = (0..n).filter(|&v| in_block[v]).collect();
    // Kahn's order on the other leaves (they form no cycle: a cycle's nodes all have a child on it).
    let mut pending: Vec<usize> = (0..n)
        .map(|v| regs[v].iter().filter(|&&r| !in_block[r]).count())
        .collect();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for v in 0..n {
        if !in_block[v] {
            for &r in &regs[v] {
                if !in_block[r] {
                    children[r].push(v);
                }
            }
        }
    }
    let mut ready: Vec<usize> = (0..n)
        .filter(|&v| !in_block[v] && pending[v] == 0)
        .collect();
    let mut order = Vec::with_capacity(n - block.len());
    while let Some(v) = ready.pop() {
        order.push(v);
        for &c in &children[v] {
            pending[c] -= 1;
            if pending[c] == 0 {
                ready.push(c);
            }
        }
    }
    (block, order)
}

/// Algorithm 2: the attractor states of the whole network, given a detector for the elementary
/// block of non-leaf nodes. Returns them with the number of non-leaf nodes.
pub(crate) fn attractor_states(
    sym: &Symbolic,
    inner: &mut dyn FnMut(&[usize]) -> Result<Bdd, BnError>,
) -> Result<(Bdd, usize), BnError> {
    let core = non_leaves(&sym.functions).len();
    let (block, leaves) = split(&sym.functions);
    tracing::info!(
        "leaf removal: {core} of {} nodes are not leaves; the block has {} nodes, {} leaves remain",
        sym.n,
        block.len(),
        leaves.len()
    );
    let t0 = Instant::now();
    let phi_b = inner(&block)?;
    tracing::info!(
        "leaf removal: the block's attractor states took {:.3} s",
        t0.elapsed().as_secs_f64()
    );
    if leaves.is_empty() {
        return Ok((phi_b, core));
    }
    if leaves.len() + block.len() != sym.n {
        return Err(BnError::Limit(
            "internal: the leaves could not be ordered".into(),
        ));
    }
    let t1 = Instant::now();
    let phi = match mirror_attractors(sym, &phi_b, &block, &leaves, EXPLICIT_STATES) {
        Ok(phi) => phi,
        Err(BnError::Limit(msg)) => {
            tracing::info!("leaf removal: composing the leaves failed ({msg}); generic Detect on the mirror states");
            let all: Vec<usize> = (0..sym.n).collect();
            sym.detect(&phi_b, &all)?
        }
        Err(e) => return Err(e),
    };
    tracing::info!(
        "leaf removal: the leaves on the mirror states took {:.3} s",
        t1.elapsed().as_secs_f64()
    );
    Ok((phi, core))
}

/// The attractor states of the whole network within the mirror states of `phi_b` (see the module
/// documentation): period by period, every leaf as a function of the current block state; sets of
/// at most `explicit_states` block states are settled by simulation instead.
pub(crate) fn mirror_attractors(
    sym: &Symbolic,
    phi_b: &Bdd,
    block: &[usize],
    leaves: &[usize],
    explicit_states: u64,
) -> Result<Bdd, BnError> {
    let n = sym.n;
    let mut is_leaf = vec![false; n];
    for &l in leaves {
        is_leaf[l] = true;
    }
    let leaf_regs: Vec<Vec<usize>> = (0..n)
        .map(|v| {
            if !is_leaf[v] {
                return Vec::new();
            }
            let mut r: Vec<usize> = sym.functions[v]
                .vars()
                .into_iter()
                .map(|u| u as usize)
                .filter(|&u| u < n && is_leaf[u])
                .collect();
            r.sort_unstable();
            r.dedup();
            r
        })
        .collect();
    // needed[l]: the lags (steps back) at which leaf l's value is needed; lag 0 for every leaf.
    let mut needed: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &l in leaves {
        needed[l].push(0);
    }
    for &l in leaves.iter().rev() {
        needed[l].sort_unstable();
        needed[l].dedup();
        let lags = needed[l].clone();
        for &u in &leaf_regs[l] {
            needed[u].extend(lags.iter().map(|t| t + 1));
        }
    }
    // depth[l]: the longest chain of leaves ending in l; after `depth` steps from a mirror state
    // of a block cycle every leaf has its value on the attractor.
    let mut depth_of = vec![0usize; n];
    for &l in leaves {
        depth_of[l] = 1 + leaf_regs[l].iter().map(|&u| depth_of[u]).max().unwrap_or(0);
    }
    let depth = depth_of.iter().copied().max().unwrap_or(0);
    if sym.card(phi_b, block.len()) <= BigUint::from(explicit_states) {
        return settle(sym, phi_b, block, depth);
    }
    // hist[k][i] = f^k_i over the block's variables.
    let mut hist: Vec<Vec<Option<Bdd>>> = Vec::new();
    let mut g: Vec<Option<Bdd>> = vec![None; n];
    for &i in block {
        g[i] = Some(sym.vars.mk_var(x(i)));
    }
    hist.push(g);
    let mut remaining = phi_b.clone();
    let mut found = sym.vars.mk_false();
    let mut p = 0usize;
    while !remaining.is_false() {
        p += 1;
        if p > MAX_PERIOD {
            return Err(BnError::Limit(format!(
                "the block has attractors longer than {MAX_PERIOD} states"
            )));
        }
        let prev = &hist[p - 1];
        let mut next: Vec<Option<Bdd>> = vec![None; n];
        for &i in block {
            next[i] = Some(sym.expr(&sym.functions[i], &|v| {
                prev.get(v as usize)
                    .cloned()
                    .flatten()
                    .unwrap_or_else(|| sym.vars.mk_false())
            })?);
        }
        hist.push(next);
        let gp = &hist[p];
        // The block states of minimal period p.
        let mut e = remaining.clone();
        for &i in block {
            if let Some(gi) = &gp[i] {
                e = sym.and(&e, &sym.vars.mk_var(x(i)).iff(gi))?;
                if e.is_false() {
                    break;
                }
            }
        }
        if e.is_false() {
            continue;
        }
        remaining = remaining.and_not(&e);
        if sym.card(&e, block.len()) <= BigUint::from(explicit_states) {
            found = found.or(&settle(sym, &e, block, depth)?);
            sym.limits.check(&found)?;
            continue;
        }
        // val[(l, t)]: leaf l's value t steps back, as a function of the current block state
        // (the same function for t and t + p, so lags are kept modulo p).
        let mut val: HashMap<(usize, usize), Bdd> = HashMap::new();
        for &l in leaves {
            sym.limits.check_time()?;
            for &t in &needed[l] {
                let t = t % p;
                if val.contains_key(&(l, t)) {
                    continue;
                }
                let back = &hist[(p - (t + 1) % p) % p];
                let b = sym.expr(&sym.functions[l], &|u| {
                    let u = u as usize;
                    if is_leaf.get(u).copied().unwrap_or(false) {
                        val.get(&(u, (t + 1) % p)).cloned()
                    } else {
                        back.get(u).cloned().flatten()
                    }
                    .unwrap_or_else(|| sym.vars.mk_false())
                })?;
                val.insert((l, t), b);
            }
        }
        let mut a = e;
        for &l in leaves {
            if let Some(h) = val.get(&(l, 0)) {
                a = sym.and(&a, &sym.vars.mk_var(x(l)).iff(h))?;
            }
        }
        tracing::debug!("leaf removal: period {p}: {} nodes", a.size());
        found = found.or(&a);
        sym.limits.check(&found)?;
    }
    Ok(found)
}

/// The attractor states of the whole network over the few block attractor states `e`: from each
/// block cycle's first state the network is stepped `depth` times (every leaf then has its value on
/// the attractor) and then once around the cycle.
fn settle(sym: &Symbolic, e: &Bdd, block: &[usize], depth: usize) -> Result<Bdd, BnError> {
    let all: Vec<usize> = (0..sym.n).collect();
    let (cycles, _) = sym.peel(e, block, usize::MAX)?;
    let mut states: Vec<Vec<bool>> = Vec::new();
    for c in &cycles {
        let Some(first) = c.first() else { continue };
        let mut s = first.clone();
        for _ in 0..depth {
            s = step(&sym.functions, &s);
        }
        for _ in 0..c.len() {
            let next = step(&sym.functions, &s);
            states.push(s);
            s = next;
        }
        sym.limits.check_time()?;
    }
    let r = sym.states_bdd(&states, &all);
    sym.limits.check(&r)?;
    Ok(r)
}
