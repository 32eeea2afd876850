//! The independent check of a strategy: the product of the machine with a generalized Büchi
//! automaton of the *forbidden* behaviours must have no reachable accepting cycle (SCCs by
//! `verikit-graph`'s Tarjan; an SCC is accepting when its internal edges carry every acceptance
//! mark). The automaton is the whole specification's (for a specification split into conjuncts,
//! the union of the conjuncts' automata once `clause_cover` shows they conjoin to it), and the
//! machine is read row by row (each row's relation between uncontrolled and controlled letters
//! intersected with each edge guard), so the check shares no code with the solver but the import
//! of edge labels into the game's dictionary. The tests replay every printed circuit by another
//! code path.

use crate::error::SyntError;
use crate::letters::Letters;
use crate::mealy::{Machine, Row};
use rustc_hash::FxHashMap;
use verikit_bdd::Bdd;
use verikit_diag::Budget;
use verikit_omega::Twa;

/// What a machine was checked against, kept so that the same check can be repeated on the
/// machine read back from a composed circuit (`cone_machine`): the automaton of the forbidden
/// behaviours, its letters over the game's dictionary, the machine's uncontrolled and controlled
/// propositions (names, the latter in the order of the answers) and its semantics.
pub(crate) struct Basis {
    pub(crate) bad: Twa,
    pub(crate) letters: Letters,
    pub(crate) unc: Vec<String>,
    pub(crate) ctl: Vec<String>,
    pub(crate) moore: bool,
}

/// Checks that every play of `m` avoids the language of `bad`. `letters` must be built on `bad`
/// with the machine's game order (first mover first). Returns the product size.
pub(crate) fn check(
    m: &Machine,
    bad: &Twa,
    letters: &Letters,
    budget: &Budget,
) -> Result<usize, SyntError> {
    Checker::new(bad, letters).check(m, budget)
}

/// The check of several machines against one automaton (the candidates of `state_merging`, whose
/// rows are the original machine's rows redirected): each row relation is built once, and the
/// automaton edges it enables from each automaton state are computed once, by row contents.
pub(crate) struct Checker<'a> {
    bad: &'a Twa,
    letters: &'a Letters,
    /// Row contents (guard, answers) → index into `rels`.
    rel_ids: FxHashMap<(Bdd, Vec<Bdd>), u32>,
    rels: Vec<Bdd>,
    /// (relation, automaton state) → the enabled edges `(destination, marks)`.
    enabled: FxHashMap<(u32, u32), Vec<(u32, u64)>>,
}

impl<'a> Checker<'a> {
    pub(crate) fn new(bad: &'a Twa, letters: &'a Letters) -> Checker<'a> {
        Checker {
            bad,
            letters,
            rel_ids: FxHashMap::default(),
            rels: Vec::new(),
            enabled: FxHashMap::default(),
        }
    }

    fn rel_id(&mut self, m: &Machine, r: &Row) -> u32 {
        let key = (r.guard.clone(), r.answer.clone());
        if let Some(&id) = self.rel_ids.get(&key) {
            return id;
        }
        let id = self.rels.len() as u32;
        self.rels.push(m.relation(r));
        self.rel_ids.insert(key, id);
        id
    }

    fn enabled(&mut self, rel: u32, q: u32) -> &[(u32, u64)] {
        let (rels, letters) = (&self.rels, self.letters);
        self.enabled.entry((rel, q)).or_insert_with(|| {
            let Some(r) = rels.get(rel as usize) else {
                return Vec::new();
            };
            letters
                .edges
                .get(q as usize)
                .into_iter()
                .flatten()
                .filter(|(_, _, guard)| !r.and(guard).is_false())
                .map(|(dst, marks, _)| (*dst, *marks))
                .collect()
        })
    }

    /// Checks that every play of `m` avoids the language of the automaton. Returns the product
    /// size.
    pub(crate) fn check(&mut self, m: &Machine, budget: &Budget) -> Result<usize, SyntError> {
        let bad = self.bad;
        if bad.acc_false {
            return Ok(0);
        }
        let all: u64 = if bad.num_sets >= 64 {
            u64::MAX
        } else {
            (1u64 << bad.num_sets) - 1
        };
        let mut rows: Vec<Vec<(u32, u32)>> = Vec::with_capacity(m.rows.len());
        for rs in &m.rows {
            let row = rs.iter().map(|r| (r.target, self.rel_id(m, r))).collect();
            rows.push(row);
        }
        let mut index: FxHashMap<(u32, u32), u32> = FxHashMap::default();
        let mut nodes: Vec<(u32, u32)> = Vec::new();
        let mut edges: Vec<Vec<(u32, u64)>> = Vec::new();
        for &q in &bad.init {
            if index.insert((0, q), nodes.len() as u32).is_none() {
                nodes.push((0, q));
            }
        }
        let mut i = 0;
        let mut ticker = budget.ticker(256);
        while i < nodes.len() {
            ticker.tick()?;
            let (s, q) = nodes[i];
            i += 1;
            let row = rows
                .get(s as usize)
                .ok_or_else(|| SyntError::Internal("machine state out of range".into()))?;
            let mut out = Vec::new();
            for &(t, rel) in row {
                for &(dst, marks) in self.enabled(rel, q) {
                    let key = (t, dst);
                    let id = match index.get(&key) {
                        Some(&id) => id,
                        None => {
                            let id = nodes.len() as u32;
                            index.insert(key, id);
                            nodes.push(key);
                            id
                        }
                    };
                    out.push((id, marks));
                }
            }
            out.sort_unstable();
            out.dedup();
            edges.push(out);
        }
        edges.resize(nodes.len(), Vec::new());
        let sccs = verikit_graph::tarjan(nodes.len(), |v| {
            edges[v as usize]
                .iter()
                .map(|&(w, _)| w)
                .collect::<Vec<_>>()
        });
        let mut acc = vec![0u64; sccs.len()];
        let mut cyclic = vec![false; sccs.len()];
        for (v, out) in edges.iter().enumerate() {
            let c = sccs.comp[v];
            for &(w, marks) in out {
                if sccs.comp[w as usize] == c {
                    cyclic[c as usize] = true;
                    acc[c as usize] |= marks;
                }
            }
        }
        for c in 0..sccs.len() {
            if cyclic[c] && acc[c] & all == all {
                return Err(SyntError::Internal(format!(
                    "strategy check failed: the product with the forbidden behaviours has an accepting cycle ({} product states)",
                    nodes.len()
                )));
            }
        }
        Ok(nodes.len())
    }
}
