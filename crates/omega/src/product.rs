//! Synchronous product of two automata with any acceptance: states are reachable pairs, labels
//! are conjoined, and the acceptance is the conjunction of A's condition and B's condition with
//! its marks shifted by kA (`Inf(A's sets) & Inf(B's sets shifted)` for generalized Büchi; a run
//! is accepting iff both projections are), so `L(A ⊗ B) = L(A) ∩ L(B)`. The atomic
//! propositions are the union of both lists (A's first, then B's new ones).

use crate::error::OmegaError;
use crate::twa::{Twa, MAX_SETS};
use std::collections::{HashMap, VecDeque};

/// The union of two AP lists, keeping `a`'s order first.
pub fn ap_union(a: &[String], b: &[String]) -> Vec<String> {
    let mut out = a.to_vec();
    for x in b {
        if !out.contains(x) {
            out.push(x.clone());
        }
    }
    out
}

pub fn product(a: &Twa, b: &Twa) -> Result<Twa, OmegaError> {
    if a.num_sets + b.num_sets > MAX_SETS {
        return Err(OmegaError::Limit(format!(
            "the product needs more than {MAX_SETS} acceptance sets"
        )));
    }
    let aps = ap_union(&a.aps, &b.aps);
    let a2 = if aps == a.aps {
        a.clone()
    } else {
        a.with_aps(aps.clone())
    };
    let b2 = if aps == b.aps {
        b.clone()
    } else {
        b.with_aps(aps.clone())
    };
    let mut out = Twa::new(aps);
    out.vars = a2.vars.clone();
    out.num_sets = a.num_sets + b.num_sets;
    out.acc_false = a.acc_false || b.acc_false;
    let shift = a.num_sets;
    let mut ids: HashMap<(u32, u32), u32> = HashMap::new();
    let mut todo = VecDeque::new();
    for &i in &a2.init {
        for &j in &b2.init {
            if let std::collections::hash_map::Entry::Vacant(v) = ids.entry((i, j)) {
                let id = out.add_state();
                v.insert(id);
                out.init.push(id);
                todo.push_back((i, j));
            }
        }
    }
    while let Some((p, q)) = todo.pop_front() {
        let src = ids[&(p, q)];
        for ea in &a2.states[p as usize] {
            for eb in &b2.states[q as usize] {
                let l = ea.label.and(&eb.label);
                if l.is_false() {
                    continue;
                }
                let key = (ea.dst, eb.dst);
                let dst = match ids.get(&key) {
                    Some(&d) => d,
                    None => {
                        let d = out.add_state();
                        ids.insert(key, d);
                        todo.push_back(key);
                        d
                    }
                };
                out.add_edge(src, dst, l, ea.marks | (eb.marks << shift));
            }
        }
    }
    for (&(p, q), &id) in &ids {
        out.state_names[id as usize] = Some(format!("{p},{q}"));
    }
    out.state_based = a.state_based && b.state_based;
    if !a.is_generalized_buchi() || !b.is_generalized_buchi() {
        out.set_acceptance(
            a.num_sets + b.num_sets,
            crate::acc::Acc::and(a.acceptance(), b.acceptance().shift(shift)),
        );
    }
    Ok(out)
}
