//! Quotient of an automaton by a partition of its states (the paper's `N(t ← s)` of S. Juvekar,
//! N. Piterman, "Minimizing Generalized Büchi Automata", CAV'06, §4.1), used by the delayed
//! quotient of [`crate::gba_reduce`] and the checked merges of [`crate::fair_merge`].

use crate::prune::trim;
use crate::twa::{Marks, Twa};
use std::collections::HashMap;

/// Quotient of `aut` by a partition (`class[s]` in `0..nc`). State-based automata get the union
/// of the members' marks on every edge of a class (the paper's `N(t ← s)`); transition-based ones
/// keep each edge's marks. Edges with the same target class and marks are merged.
pub(crate) fn quotient(aut: &Twa, class: &[u32], nc: usize) -> Twa {
    let mut out = Twa::new(aut.aps.clone());
    out.vars = aut.vars.clone();
    out.num_sets = aut.num_sets;
    out.acc_false = aut.acc_false;
    out.name = aut.name.clone();
    let mut names: Vec<Option<String>> = vec![None; nc];
    let mut cmarks: Vec<Marks> = vec![0; nc];
    for (s, &c) in class.iter().enumerate() {
        if names[c as usize].is_none() {
            names[c as usize] = aut.state_names.get(s).cloned().flatten();
        }
        cmarks[c as usize] |= aut.state_marks(s as u32);
    }
    for name in names {
        let id = out.add_state();
        out.state_names[id as usize] = name;
    }
    let mut merged: Vec<HashMap<(u32, Marks), usize>> = vec![HashMap::new(); nc];
    for (s, es) in aut.states.iter().enumerate() {
        let c = class[s] as usize;
        for e in es {
            if e.label.is_false() {
                continue;
            }
            let m = if aut.state_based { cmarks[c] } else { e.marks };
            let key = (class[e.dst as usize], m);
            match merged[c].get(&key) {
                Some(&i) => {
                    let l = out.states[c][i].label.or(&e.label);
                    out.states[c][i].label = l;
                }
                None => {
                    merged[c].insert(key, out.states[c].len());
                    out.add_edge(c as u32, key.0, e.label.clone(), m);
                }
            }
        }
    }
    let mut init: Vec<u32> = aut.init.iter().map(|&i| class[i as usize]).collect();
    init.sort_unstable();
    init.dedup();
    out.init = init;
    out.state_based = aut.state_based;
    trim(&out)
}
