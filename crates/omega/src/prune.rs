//! Pruning: removal of unreachable states, of states that cannot reach an accepting cycle, of
//! false and subsumed edges, with the acceptance marks cleaned (no marks outside accepting SCCs,
//! sets implied by another set dropped, weak automata with one set or none) — as Spot's
//! `scc_filter`; and [`trim`], the plain removal of false edges and unreachable states.

use crate::scc_info::scc_info;
use crate::scc_sets::drop_implied_sets;
use crate::twa::{Edge, Marks, Twa};
use std::collections::VecDeque;

/// Removes unreachable states, states that cannot reach an accepting cycle, false edges and
/// subsumed edges; cleans the acceptance marks.
pub fn prune(aut: &Twa) -> Twa {
    prune_with(aut, false)
}

/// [`prune`], giving the edges that lie on no cycle no marks (`transient_all == false`) or all
/// marks.
pub(crate) fn prune_with(aut: &Twa, transient_all: bool) -> Twa {
    let g = aut.graph();
    let reach = verikit_graph::reachable(&g, &aut.init);
    let info = scc_info(aut);
    let nc = info.sccs.len();
    // Components are in reverse topological order (sinks first).
    let mut useful_c = vec![false; nc];
    for c in 0..nc {
        let mut u = info.accepting[c];
        if !u {
            'outer: for &s in &info.sccs.members[c] {
                for e in &aut.states[s as usize] {
                    let d = info.sccs.comp[e.dst as usize] as usize;
                    if d != c && !e.label.is_false() && useful_c[d] {
                        u = true;
                        break 'outer;
                    }
                }
            }
        }
        useful_c[c] = u;
    }
    let keep: Vec<bool> = (0..aut.num_states())
        .map(|s| reach[s] && useful_c[info.sccs.comp[s] as usize])
        .collect();
    // Marks: only inside accepting SCCs.
    let all_old = aut.all_marks();
    let edge_marks = |s: usize, e: &Edge| -> Marks {
        let c = info.sccs.comp[s] as usize;
        if aut.state_based {
            // Keep the marks uniform on a state's edges.
            if info.accepting[c] {
                e.marks
            } else if transient_all && !info.nontrivial[c] {
                all_old
            } else {
                0
            }
        } else if info.sccs.comp[e.dst as usize] as usize == c {
            if info.accepting[c] {
                e.marks
            } else {
                0
            }
        } else if transient_all {
            all_old
        } else {
            0
        }
    };
    // Redundant marks: i is implied by j on every edge inside an accepting SCC.
    let k = aut.num_sets as usize;
    let mut inside: Vec<Marks> = Vec::new();
    let mut any_rejecting_cycle = false;
    for (s, es) in aut.states.iter().enumerate() {
        if !keep[s] {
            continue;
        }
        let c = info.sccs.comp[s] as usize;
        if info.nontrivial[c] && !info.accepting[c] {
            any_rejecting_cycle = true;
        }
        for e in es {
            if keep[e.dst as usize]
                && info.sccs.comp[e.dst as usize] as usize == c
                && info.accepting[c]
            {
                inside.push(e.marks);
            }
        }
    }
    let mut kept_sets: Vec<u32> = (0..k as u32).collect();
    drop_implied_sets(&mut kept_sets, &inside);
    let all_kept: Marks = kept_sets.iter().fold(0, |m, &i| m | (1 << i));
    let weak = inside.iter().all(|&m| m & all_kept == all_kept);
    let (new_sets, compress): (u32, Box<dyn Fn(Marks) -> Marks>) = if aut.acc_false {
        (0, Box::new(|_| 0))
    } else if weak && !any_rejecting_cycle {
        (0, Box::new(|_| 0))
    } else if weak {
        (
            1,
            Box::new(move |m| if m & all_kept == all_kept { 1 } else { 0 }),
        )
    } else {
        let ks = kept_sets.clone();
        (
            ks.len() as u32,
            Box::new(move |m| {
                ks.iter()
                    .enumerate()
                    .fold(0, |acc, (n, &i)| acc | (((m >> i) & 1) << n))
            }),
        )
    };
    let mut newid = vec![u32::MAX; aut.num_states()];
    let mut out = Twa::new(aut.aps.clone());
    out.vars = aut.vars.clone();
    out.name = aut.name.clone();
    out.acc_false = aut.acc_false;
    out.num_sets = new_sets;
    // Number states in BFS order from the initial states (stable, readable output).
    let mut order = Vec::new();
    let mut q: VecDeque<u32> = VecDeque::new();
    for &i in &aut.init {
        if keep[i as usize] && newid[i as usize] == u32::MAX {
            newid[i as usize] = order.len() as u32;
            order.push(i);
            q.push_back(i);
        }
    }
    while let Some(s) = q.pop_front() {
        for e in &aut.states[s as usize] {
            let d = e.dst as usize;
            if keep[d] && !e.label.is_false() && newid[d] == u32::MAX {
                newid[d] = order.len() as u32;
                order.push(e.dst);
                q.push_back(e.dst);
            }
        }
    }
    for &s in &order {
        let id = out.add_state();
        out.state_names[id as usize] = aut.state_names.get(s as usize).cloned().flatten();
    }
    for &s in &order {
        let mut es: Vec<Edge> = Vec::new();
        for e in &aut.states[s as usize] {
            if !keep[e.dst as usize] || e.label.is_false() {
                continue;
            }
            let m = compress(edge_marks(s as usize, e));
            es.push(Edge {
                dst: newid[e.dst as usize],
                label: e.label.clone(),
                marks: m,
            });
        }
        out.states[newid[s as usize] as usize] = remove_subsumed(es);
    }
    if order.is_empty() {
        // Empty language: one state without edges (as Spot writes the automaton of `0`).
        out.add_state();
        out.num_sets = 0;
        out.init = vec![0];
    } else {
        let mut init: Vec<u32> = aut
            .init
            .iter()
            .filter(|&&i| keep[i as usize])
            .map(|&i| newid[i as usize])
            .collect();
        init.dedup();
        out.init = init;
    }
    out.state_based = aut.state_based && out.compute_state_based();
    out
}

/// Merges edges with the same destination and marks, and drops an edge whose label is included
/// in another edge's to the same destination with at least its marks.
fn remove_subsumed(es: Vec<Edge>) -> Vec<Edge> {
    let mut merged: Vec<Edge> = Vec::new();
    for e in es {
        if let Some(m) = merged
            .iter_mut()
            .find(|m| m.dst == e.dst && m.marks == e.marks)
        {
            m.label = m.label.or(&e.label);
        } else {
            merged.push(e);
        }
    }
    let n = merged.len();
    let mut keep = vec![true; n];
    for i in 0..n {
        for j in 0..n {
            if i != j
                && keep[j]
                && merged[i].dst == merged[j].dst
                && merged[i].marks & merged[j].marks == merged[i].marks
                && merged[i].label.imp(&merged[j].label).is_true()
            {
                keep[i] = false;
                break;
            }
        }
    }
    merged
        .into_iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(e, _)| e)
        .collect()
}

/// Removes false edges and states unreachable from the initial states; the acceptance
/// condition (any, not only generalized Büchi) is kept.
pub(crate) fn trim(aut: &Twa) -> Twa {
    let n = aut.num_states();
    let mut seen = vec![false; n];
    let mut stack: Vec<u32> = aut.init.clone();
    for &i in &aut.init {
        seen[i as usize] = true;
    }
    while let Some(s) = stack.pop() {
        for e in &aut.states[s as usize] {
            if !e.label.is_false() && !seen[e.dst as usize] {
                seen[e.dst as usize] = true;
                stack.push(e.dst);
            }
        }
    }
    let mut map = vec![u32::MAX; n];
    let mut out = Twa::new(aut.aps.clone());
    out.vars = aut.vars.clone();
    out.num_sets = aut.num_sets;
    out.acc_false = aut.acc_false;
    out.acc = aut.acc.clone();
    out.acc_span = aut.acc_span;
    out.name = aut.name.clone();
    for s in 0..n {
        if seen[s] {
            map[s] = out.add_state();
            out.state_names[map[s] as usize] = aut.state_names.get(s).cloned().flatten();
        }
    }
    for s in 0..n {
        if !seen[s] {
            continue;
        }
        for e in &aut.states[s] {
            if !e.label.is_false() {
                out.add_edge(map[s], map[e.dst as usize], e.label.clone(), e.marks);
            }
        }
    }
    out.init = aut.init.iter().map(|&i| map[i as usize]).collect();
    out.state_based = aut.state_based && out.compute_state_based();
    out
}
