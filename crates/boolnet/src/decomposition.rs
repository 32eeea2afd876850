//! The SCC-based decomposition method of SETTA'17 (Mizera, Pang, Qu, Yuan, "A New Decomposition
//! Method for Attractor Detection in Large Synchronous Boolean Networks", Sect. 3 and Algorithm 1).
//!
//! * Blocks (Definition 4, Sect. 3.1): each SCC of the dependency graph (via `verikit-graph`)
//!   together with its control nodes; parent blocks; the topological credit (Definition 12).
//! * Blocks are processed in ascending credit. An elementary block (no parent) is a network of its
//!   own and its attractors are detected directly. A non-elementary block gets one realisation
//!   (Definition 10) per attractor of its (merged) parent block: the parent's attractor system,
//!   with the *whole* parent state — all ancestor nodes, not only the control nodes (the paper's fix
//!   over Guo et al., Example 4) — drives the block's own nodes synchronously. The attractors of
//!   the block are the union of the attractors of its realisations (Definition 11); by Theorem 2
//!   they are the attractors of the block merged with all its ancestors, `X(B)`.
//! * Several parent blocks are merged first (Algorithm 1, lines 11–21): the cross operation `Π`
//!   (Definition 9) of their attractor families, then `D(·)` to split the crossed attractor states
//!   into attractors. With BDDs, `Π` of two families over ancestor-closed node sets is the
//!   conjunction of their attractor-state sets (Corollary 1; two attractors of ancestor-closed
//!   blocks that agree on one common state agree on all, since the common nodes are themselves
//!   ancestor-closed). `D(·)` follows each state around its cycle, so a crossed pair of cycles of
//!   lengths `p` and `q` over common ancestors of cycle length `r` splits into `gcd(p, q) / r`
//!   cycles of length `lcm(p, q)` — the splitting the cross operation implies.
//! * Finally (lines 34–36) the families of all blocks without children are crossed, giving the
//!   attractor states of the whole network, which `D(·)` splits into attractors.
//!
//! Engineering bound: when a parent family has more than `max_realisations` attractors (e.g. 2^k
//! attractors over k free inputs), its attractors are not listed one by one; the block gets one
//! realisation driven by the union of the parent's attractor systems. Parent attractors are
//! disjoint closed sets, so this union realisation has exactly the union of the per-attractor
//! realisations' attractors (Algorithm 1, line 25); only the bookkeeping differs.

use crate::error::BnError;
use crate::symbolic::{Cycle, Symbolic};
use biodivine_lib_bdd::Bdd;
use std::collections::HashMap;
use std::time::Instant;
use verikit_graph::tarjan;
use verikit_logic::BoolExpr;

/// A block: an SCC with its control nodes (Sect. 3.1).
#[derive(Clone, Debug)]
pub(crate) struct Block {
    /// The nodes of the SCC, sorted.
    pub scc: Vec<usize>,
    /// Its control nodes: regulators outside the SCC, sorted.
    pub controls: Vec<usize>,
    /// Parent blocks (indices into the block list).
    pub parents: Vec<usize>,
    /// Topological credit (Definition 12).
    pub credit: u32,
    /// `X(B)`: the SCC and all its ancestors' nodes, sorted.
    pub closure: Vec<usize>,
    /// True if no other block has this one as a parent.
    pub childless: bool,
}

/// Forms the blocks of the sub-network on `nodes` (which must be closed under regulators),
/// ordered by ascending credit (Algorithm 1, `Form Block`).
pub(crate) fn form_blocks(functions: &[BoolExpr], nodes: &[usize]) -> Vec<Block> {
    let n = functions.len();
    let mut local = vec![u32::MAX; n];
    for (k, &v) in nodes.iter().enumerate() {
        local[v] = k as u32;
    }
    let regs: Vec<Vec<usize>> = nodes
        .iter()
        .map(|&v| {
            functions[v]
                .vars()
                .into_iter()
                .map(|r| r as usize)
                .filter(|&r| r < n && local[r] != u32::MAX)
                .collect()
        })
        .collect();
    // Edges regulator → target, in local indices.
    let mut succ: Vec<Vec<u32>> = vec![Vec::new(); nodes.len()];
    for (k, rs) in regs.iter().enumerate() {
        for &r in rs {
            succ[local[r] as usize].push(k as u32);
        }
    }
    let s = tarjan(nodes.len(), |v| succ[v as usize].clone());
    // Tarjan emits sinks first; reverse for a topological order (sources first).
    let order: Vec<usize> = (0..s.len()).rev().collect();
    let mut block_of_comp = vec![usize::MAX; s.len()];
    let mut blocks: Vec<Block> = Vec::with_capacity(s.len());
    for &c in &order {
        let mut scc: Vec<usize> = s.members[c].iter().map(|&k| nodes[k as usize]).collect();
        scc.sort_unstable();
        let mut controls: Vec<usize> = Vec::new();
        for &k in &s.members[c] {
            for &r in &regs[k as usize] {
                if s.comp[local[r] as usize] as usize != c {
                    controls.push(r);
                }
            }
        }
        controls.sort_unstable();
        controls.dedup();
        let mut parents: Vec<usize> = controls
            .iter()
            .map(|&r| block_of_comp[s.comp[local[r] as usize] as usize])
            .collect();
        parents.sort_unstable();
        parents.dedup();
        let credit = parents
            .iter()
            .map(|&p| blocks[p].credit + 1)
            .max()
            .unwrap_or(0);
        let mut closure = scc.clone();
        for &p in &parents {
            closure.extend_from_slice(&blocks[p].closure);
        }
        closure.sort_unstable();
        closure.dedup();
        block_of_comp[c] = blocks.len();
        blocks.push(Block {
            scc,
            controls,
            parents,
            credit,
            closure,
            childless: true,
        });
    }
    for b in 0..blocks.len() {
        for p in blocks[b].parents.clone() {
            blocks[p].childless = false;
        }
    }
    // Ascending credit (stable, so still topological); remap parent indices.
    let mut idx: Vec<usize> = (0..blocks.len()).collect();
    idx.sort_by_key(|&i| blocks[i].credit);
    let mut pos = vec![0usize; blocks.len()];
    for (new, &old) in idx.iter().enumerate() {
        pos[old] = new;
    }
    idx.iter()
        .map(|&old| {
            let mut b = blocks[old].clone();
            b.parents = b.parents.iter().map(|&p| pos[p]).collect();
            b.parents.sort_unstable();
            b
        })
        .collect()
}

/// The attractors of a block (of `X(B)`): their states as a BDD and, when there are at most
/// `max_realisations` of them, each attractor (cycle and its BDD).
#[derive(Clone)]
struct Family {
    vars: Vec<usize>,
    phi: Bdd,
    list: Option<Vec<(Cycle, Bdd)>>,
}

/// Statistics of one run.
#[derive(Clone, Debug, Default)]
pub(crate) struct DecompStats {
    pub blocks: usize,
    pub max_credit: u32,
    pub realisations: usize,
    pub largest_block: usize,
}

fn family(sym: &Symbolic, phi: Bdd, vars: Vec<usize>, max: usize) -> Result<Family, BnError> {
    let (cycles, done) = sym.peel(&phi, &vars, max)?;
    let list = if done {
        Some(
            cycles
                .into_iter()
                .map(|c| {
                    let b = sym.states_bdd(&c, &vars);
                    (c, b)
                })
                .collect(),
        )
    } else {
        None
    };
    Ok(Family { vars, phi, list })
}

fn union(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut v: Vec<usize> = a.iter().chain(b.iter()).copied().collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Algorithm 1 on the sub-network over `nodes` (closed under regulators): the set of attractor
/// states of that sub-network, as a BDD over its variables.
pub(crate) fn attractor_states(
    sym: &Symbolic,
    nodes: &[usize],
    max_realisations: usize,
    stats: &mut DecompStats,
) -> Result<Bdd, BnError> {
    let blocks = form_blocks(&sym.functions, nodes);
    stats.blocks = blocks.len();
    stats.max_credit = blocks.iter().map(|b| b.credit).max().unwrap_or(0);
    stats.largest_block = blocks.iter().map(|b| b.scc.len()).max().unwrap_or(0);
    tracing::info!(
        "decomposition: {} blocks (largest SCC {} nodes, highest credit {})",
        blocks.len(),
        stats.largest_block,
        stats.max_credit
    );
    // Families by the node set they cover (a block's own X(B), or a merged parent block).
    let mut memo: HashMap<Vec<usize>, Family> = HashMap::new();
    let mut fam: Vec<Option<Family>> = vec![None; blocks.len()];
    let t0 = Instant::now();
    let mut last_report = Instant::now();
    let progress = sym.limits.budget.progress();
    progress.phase("attractor blocks", Some(blocks.len() as u64));
    for (bi, b) in blocks.iter().enumerate() {
        sym.limits.check_time()?;
        progress.set(bi as u64);
        let vars = b.closure.clone();
        let f = if b.parents.is_empty() {
            // Elementary block: a network of its own (lines 5–7).
            let phi = sym.detect(&sym.vars.mk_true(), &b.scc)?;
            stats.realisations += 1;
            family(sym, phi, vars, max_realisations)?
        } else {
            // The (merged) parent block's attractors (lines 9–22).
            let parent =
                parent_family(sym, &blocks, &fam, &mut memo, &b.parents, max_realisations)?;
            match &parent.list {
                Some(list) => {
                    let mut phi = sym.vars.mk_false();
                    let mut cycles: Option<Vec<(Cycle, Bdd)>> = Some(Vec::new());
                    for (_, abdd) in list {
                        // The realisation for one parent attractor (lines 23–26).
                        let pa = sym.attractor_states(abdd, &vars)?;
                        stats.realisations += 1;
                        if let Some(cs) = &mut cycles {
                            let room = max_realisations.saturating_sub(cs.len());
                            let (found, done) = sym.peel(&pa, &vars, room)?;
                            if done {
                                for c in found {
                                    let cb = sym.states_bdd(&c, &vars);
                                    cs.push((c, cb));
                                }
                            } else {
                                cycles = None;
                            }
                        }
                        phi = phi.or(&pa);
                        sym.limits.check(&phi)?;
                    }
                    Family {
                        vars: vars.clone(),
                        phi,
                        list: cycles,
                    }
                }
                None => {
                    // Too many parent attractors to list: one realisation driven by all of them.
                    let phi = sym.detect(&parent.phi, &vars)?;
                    stats.realisations += 1;
                    family(sym, phi, vars.clone(), max_realisations)?
                }
            }
        };
        memo.entry(f.vars.clone()).or_insert_with(|| f.clone());
        fam[bi] = Some(f);
        if last_report.elapsed().as_secs_f64() > 1.0 {
            last_report = Instant::now();
            tracing::info!(
                "decomposition: block {}/{} (credit {}, {} nodes with ancestors) after {:.1} s",
                bi + 1,
                blocks.len(),
                b.credit,
                b.closure.len(),
                t0.elapsed().as_secs_f64()
            );
        }
    }
    // Cross the families of the blocks without children (lines 34–36).
    let mut phi = sym.vars.mk_true();
    for (bi, b) in blocks.iter().enumerate() {
        if b.childless {
            if let Some(f) = &fam[bi] {
                phi = sym.and(&phi, &f.phi)?;
            }
        }
    }
    Ok(phi)
}

/// The attractor family of the merge of `parents` (Algorithm 1, lines 9–21).
fn parent_family(
    sym: &Symbolic,
    blocks: &[Block],
    fam: &[Option<Family>],
    memo: &mut HashMap<Vec<usize>, Family>,
    parents: &[usize],
    max: usize,
) -> Result<Family, BnError> {
    let get = |i: usize| -> Result<Family, BnError> {
        fam.get(i).cloned().flatten().ok_or_else(|| {
            BnError::Limit("internal: a parent block was not processed first".into())
        })
    };
    let mut cur = get(parents[0])?;
    for &pj in &parents[1..] {
        let vars = union(&cur.vars, &blocks[pj].closure);
        if let Some(m) = memo.get(&vars) {
            cur = m.clone();
            continue;
        }
        let other = get(pj)?;
        let phi = sym.and(&cur.phi, &other.phi)?;
        let merged = family(sym, phi, vars.clone(), max)?;
        memo.insert(vars, merged.clone());
        cur = merged;
    }
    Ok(cur)
}
