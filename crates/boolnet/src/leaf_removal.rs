//! The leaf-based optimisation of SETTA'17 (Mizera, Pang, Qu, Yuan, "A New Decomposition Method for
//! Attractor Detection in Large Synchronous Boolean Networks", Sect. 4.1, Definition 13 and
//! Algorithm 2).
//!
//! Leaves are removed iteratively: a node is a leaf if it is not the only remaining node and it has
//! no children other than itself once its leaf children are removed. The remaining nodes form an
//! elementary block `B` (a leaf's children are all leaves, so no remaining node depends on a
//! leaf). Its attractor states `Φ_B` are detected (with Algorithm 1 or the monolithic method), and
//! then the whole network's transition system restricted to the mirror states `M_G(Φ_B)` — every
//! state whose projection onto `B` is in `Φ_B` — is searched with the monolithic `Detect`.

use crate::error::BnError;
use crate::symbolic::Symbolic;
use biodivine_lib_bdd::Bdd;
use verikit_logic::BoolExpr;

/// The non-leaf nodes (Definition 13), sorted.
pub fn non_leaves(functions: &[BoolExpr]) -> Vec<usize> {
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

/// Algorithm 2: the attractor states of the whole network, given a detector for the elementary
/// block of non-leaf nodes.
pub fn attractor_states(
    sym: &Symbolic,
    inner: &mut dyn FnMut(&[usize]) -> Result<Bdd, BnError>,
) -> Result<(Bdd, usize), BnError> {
    let core = non_leaves(&sym.functions);
    tracing::info!(
        "leaf removal: {} of {} nodes are not leaves",
        core.len(),
        sym.n
    );
    let phi_b = inner(&core)?;
    if core.len() == sym.n {
        return Ok((phi_b, core.len()));
    }
    let all: Vec<usize> = (0..sym.n).collect();
    // The transition system of G restricted to the mirror states of Φ_B (line 4).
    let phi = sym.detect(&phi_b, &all)?;
    Ok((phi, core.len()))
}
