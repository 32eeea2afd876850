//! Quotient of an automaton by the coarsest bisimulation that respects labels and acceptance
//! marks (iterated signature refinement; labels compared semantically as BDDs).

use crate::twa::{Marks, Twa};
use biodivine_lib_bdd::Bdd;
use std::collections::{BTreeMap, HashMap};

type Signature = BTreeMap<(u32, Marks), Bdd>;

fn signature(aut: &Twa, s: usize, class: &[u32]) -> Signature {
    let mut sig: Signature = BTreeMap::new();
    for e in &aut.states[s] {
        let key = (class[e.dst as usize], e.marks);
        match sig.get_mut(&key) {
            Some(l) => *l = l.or(&e.label),
            None => {
                sig.insert(key, e.label.clone());
            }
        }
    }
    sig
}

fn same_sig(a: &Signature, b: &Signature) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b.iter())
            .all(|((ka, la), (kb, lb))| ka == kb && la.iff(lb).is_true())
}

/// Quotient by the coarsest bisimulation respecting labels and marks (iterated signature
/// refinement). Initial states are merged when bisimilar.
pub(crate) fn merge_bisimilar(aut: &Twa) -> Twa {
    let n = aut.num_states();
    let mut class = vec![0u32; n];
    let mut nclasses = 1usize;
    loop {
        let sigs: Vec<Signature> = (0..n).map(|s| signature(aut, s, &class)).collect();
        // Group by (old class, keys) then by semantic label equality.
        type Bucket = (u32, Vec<(u32, Marks)>);
        let mut buckets: HashMap<Bucket, Vec<usize>> = HashMap::new();
        let mut new_class = vec![0u32; n];
        let mut reps: Vec<usize> = Vec::new();
        for s in 0..n {
            let key = (class[s], sigs[s].keys().copied().collect::<Vec<_>>());
            let b = buckets.entry(key).or_default();
            let mut found = None;
            for &c in b.iter() {
                if same_sig(&sigs[reps[c]], &sigs[s]) {
                    found = Some(c);
                    break;
                }
            }
            let c = match found {
                Some(c) => c,
                None => {
                    reps.push(s);
                    b.push(reps.len() - 1);
                    reps.len() - 1
                }
            };
            new_class[s] = c as u32;
        }
        let stable = reps.len() == nclasses;
        class = new_class;
        nclasses = reps.len();
        if stable {
            let mut out = aut.quotient_shell(&reps);
            for (c, &r) in reps.iter().enumerate() {
                // Keep the representative's edge order.
                let sig = signature(aut, r, &class);
                let mut done = std::collections::HashSet::new();
                for e in &aut.states[r] {
                    let key = (class[e.dst as usize], e.marks);
                    if done.insert(key) {
                        out.add_edge(c as u32, key.0, sig[&key].clone(), key.1);
                    }
                }
            }
            let mut init: Vec<u32> = aut.init.iter().map(|&i| class[i as usize]).collect();
            init.dedup();
            out.init = init;
            out.state_based = aut.state_based && out.compute_state_based();
            return out;
        }
    }
}
