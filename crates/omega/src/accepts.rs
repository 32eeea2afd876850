//! Membership of lasso words: `A` accepts the word `u; cycle{v}` iff the product of `A` with the
//! lasso of the word has an accepting cycle. Letters are full valuations of `A`'s propositions
//! (the one semantics of [`crate::word`], shared with `ltl check`); partial, contradictory and
//! unknown-proposition letters are rejected by [`Word::lasso`].

use crate::error::OmegaError;
use crate::ltl::eval::Lasso;
use crate::twa::{Marks, Twa};
use crate::word::Word;
use biodivine_lib_bdd::BddValuation;

/// True if `aut` accepts `word`, whose letters must be full valuations of `aut`'s propositions.
pub fn accepts(aut: &Twa, word: &Word) -> Result<bool, OmegaError> {
    Ok(accepts_lasso(aut, &word.lasso(&aut.aps)?))
}

/// True if `aut` accepts the valuation lasso `u v^ω` (bit `i` of a letter = `aut.aps[i]`).
/// Runs a direct search on (state, position) pairs without building BDD products.
pub fn accepts_lasso(aut: &Twa, w: &Lasso) -> bool {
    let vals = lasso_valuations(aut, w);
    accepts_valuations(aut, w.prefix.len(), &vals).0
}

/// The letters of `w` (prefix then cycle) as valuations of `aut`'s propositions.
fn lasso_valuations(aut: &Twa, w: &Lasso) -> Vec<BddValuation> {
    w.prefix
        .iter()
        .chain(w.cycle.iter())
        .map(|&b| aut.valuation(b))
        .collect()
}

/// Whether `aut` accepts the lasso word whose letters are `vals` (the first `plen` the prefix,
/// the rest the cycle), by SCCs of the product of `aut` with the lasso, and the size of that
/// product (states + edges).
pub(crate) fn accepts_valuations(aut: &Twa, plen: usize, vals: &[BddValuation]) -> (bool, usize) {
    let n = vals.len();
    if n <= plen {
        return (false, 0);
    }
    let ns = aut.num_states();
    let (edges, marks) = lasso_product(aut, plen, vals);
    let cost = ns * n + edges.len();
    let init: Vec<u32> = aut.init.iter().map(|&i| (i as usize * n) as u32).collect();
    if let Some(acc) = &aut.acc {
        let mut adj = vec![Vec::new(); ns * n];
        for (&(a, b), &m) in edges.iter().zip(&marks) {
            adj[a as usize].push((b, m));
        }
        let g = verikit_graph::Csr::from_edges(ns * n, &edges);
        let reach = verikit_graph::reachable(&g, &init);
        let found = crate::el_emptiness::accepting_scc(
            &adj,
            &reach,
            acc,
            &verikit_diag::Budget::unlimited(),
        );
        return (matches!(found, Ok(Some(_))), cost);
    }
    (
        has_accepting_cycle(ns * n, &edges, &marks, &init, aut.all_marks()) && !aut.acc_false,
        cost,
    )
}

/// The product of `aut` with a lasso word given by its letters' valuations (the first `plen` the
/// prefix, the rest the cycle): node `s·n + p` is state `s` at position `p`; each edge with its
/// marks.
fn lasso_product(aut: &Twa, plen: usize, vals: &[BddValuation]) -> (Vec<(u32, u32)>, Vec<Marks>) {
    let n = vals.len();
    let next = |p: usize| if p + 1 < n { p + 1 } else { plen };
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let mut marks: Vec<Marks> = Vec::new();
    for (s, es) in aut.states.iter().enumerate() {
        for (p, val) in vals.iter().enumerate() {
            for e in es {
                if e.label.eval_in(val) {
                    edges.push(((s * n + p) as u32, (e.dst as usize * n + next(p)) as u32));
                    marks.push(e.marks);
                }
            }
        }
    }
    (edges, marks)
}

/// Whether `g` (with `edges` and their `marks`) has an SCC with an inner edge from a `reach`able
/// node whose inner edges' marks cover `all`.
fn scc_covers(
    g: &verikit_graph::Csr,
    edges: &[(u32, u32)],
    marks: &[Marks],
    reach: &[bool],
    all: Marks,
) -> bool {
    let sccs = verikit_graph::sccs(g);
    let mut acc = vec![(0 as Marks, false); sccs.len()];
    for (&(a, b), &m) in edges.iter().zip(marks) {
        let c = sccs.comp[a as usize] as usize;
        if reach[a as usize] && sccs.comp[b as usize] as usize == c {
            acc[c].0 |= m;
            acc[c].1 = true;
        }
    }
    acc.iter().any(|&(m, e)| e && m & all == all)
}

/// Whether the graph of `nodes` nodes and `edges` (each with its `marks`) has, reachable from
/// `init`, a strongly connected component with an inner edge whose inner edges' marks cover
/// `all`: the acceptance test of the products of an automaton with a lasso word (here and in
/// [`crate::redirect_merge`], whose products follow redirected edges).
pub(crate) fn has_accepting_cycle(
    nodes: usize,
    edges: &[(u32, u32)],
    marks: &[Marks],
    init: &[u32],
    all: Marks,
) -> bool {
    let g = verikit_graph::Csr::from_edges(nodes, edges);
    let reach = verikit_graph::reachable(&g, init);
    scc_covers(&g, edges, marks, &reach, all)
}

/// An independent membership check for any acceptance (the replay oracle of the tests): the
/// condition is put in disjunctive normal form, `⋁ (Fin(f₁)∧…∧Inf(i₁)∧…)` with single marks,
/// and the word is accepted iff for some clause the product of `aut` with the word, without the
/// edges carrying a mark of the clause's `Fin`s, has a reachable SCC whose inner edges carry
/// every mark of its `Inf`s. `None` if the normal form has more than `max_clauses` clauses.
pub fn accepts_lasso_dnf(aut: &Twa, w: &Lasso, max_clauses: usize) -> Option<bool> {
    let clauses = aut.acceptance().dnf(max_clauses)?;
    let vals = lasso_valuations(aut, w);
    let (plen, n) = (w.prefix.len(), vals.len());
    if n <= plen {
        return Some(false);
    }
    let ns = aut.num_states();
    let (edges, marks) = lasso_product(aut, plen, &vals);
    let init: Vec<u32> = aut.init.iter().map(|&i| (i as usize * n) as u32).collect();
    // The prefix may cross edges of the clause's Fin marks: reachability on every edge.
    let reach = verikit_graph::reachable(&verikit_graph::Csr::from_edges(ns * n, &edges), &init);
    Some(clauses.iter().any(|&(fin, inf)| {
        let (es, ms): (Vec<(u32, u32)>, Vec<Marks>) = edges
            .iter()
            .zip(&marks)
            .filter(|(_, &m)| m & fin == 0)
            .map(|(&e, &m)| (e, m))
            .unzip();
        let g = verikit_graph::Csr::from_edges(ns * n, &es);
        scc_covers(&g, &es, &ms, &reach, inf)
    }))
}
