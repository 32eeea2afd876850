//! Maximal end components (de Alfaro 1997; Baier & Katoen §10.6.3): repeated SCC decomposition
//! (via `verikit-graph`) of the sub-MDP restricted to a state set and allowed choices, removing
//! choices that leave their SCC until stable. Used to collapse end components so value iteration
//! from above converges (maximal reachability, minimal rewards with zero-reward cycles).

use crate::model::Model;

/// Returns, for each state, the index of its maximal end component (or `u32::MAX`), restricted
/// to states with `in_set` and choices with `choice_ok` whose successors all stay in the set.
pub fn mecs(m: &Model, in_set: &[bool], choice_ok: &dyn Fn(usize) -> bool) -> (Vec<u32>, usize) {
    let n = m.num_states();
    let mut alive: Vec<bool> = (0..m.num_choices()).map(choice_ok).collect();
    let mut member: Vec<bool> = in_set.to_vec();
    for s in 0..n {
        if !member[s] {
            m.choices(s).for_each(|c| alive[c] = false);
        }
    }
    loop {
        for s in 0..n {
            if !member[s] {
                continue;
            }
            for c in m.choices(s) {
                if alive[c] && !m.trans(c).all(|k| member[m.cols[k] as usize]) {
                    alive[c] = false;
                }
            }
        }
        // SCCs over member states using alive choices.
        let verts: Vec<u32> = (0..n as u32).filter(|&s| member[s as usize]).collect();
        let mut local = vec![u32::MAX; n];
        for (i, &s) in verts.iter().enumerate() {
            local[s as usize] = i as u32;
        }
        let sccs = verikit_graph::tarjan(verts.len(), |v| {
            let s = verts[v as usize] as usize;
            let mut out = Vec::new();
            for c in m.choices(s) {
                if alive[c] {
                    for k in m.trans(c) {
                        out.push(local[m.cols[k] as usize]);
                    }
                }
            }
            out
        });
        let mut changed = false;
        for (i, &s) in verts.iter().enumerate() {
            let comp = sccs.comp[i];
            for c in m.choices(s as usize) {
                if alive[c]
                    && !m
                        .trans(c)
                        .all(|k| sccs.comp[local[m.cols[k] as usize] as usize] == comp)
                {
                    alive[c] = false;
                    changed = true;
                }
            }
        }
        for &s in &verts {
            if !m.choices(s as usize).any(|c| alive[c]) {
                member[s as usize] = false;
                changed = true;
            }
        }
        if !changed {
            let mut id = vec![u32::MAX; n];
            let mut comp_id = vec![u32::MAX; sccs.len()];
            let mut count = 0usize;
            for (i, &s) in verts.iter().enumerate() {
                if member[s as usize] {
                    let c = sccs.comp[i] as usize;
                    if comp_id[c] == u32::MAX {
                        comp_id[c] = count as u32;
                        count += 1;
                    }
                    id[s as usize] = comp_id[c];
                }
            }
            return (id, count);
        }
    }
}
