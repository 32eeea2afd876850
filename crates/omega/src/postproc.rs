//! Automaton simplifications applied after translation (as Spot's `postprocessor` does at its
//! default `--high` level): removal of unreachable and useless states (those that cannot reach an
//! accepting SCC), SCC-based acceptance cleanup (no marks on edges between SCCs or inside
//! rejecting SCCs; marks implied by another mark removed; weak automata use one set or none; one
//! set per SCC where [`crate::scc_acc`] proves it exact), removal of subsumed edges, quotienting by
//! the largest bisimulation that respects labels and marks, then iterated direct simulation and
//! co-simulation ([`crate::iterated_sim`]). Also degeneralisation of a TGBA into a state-based
//! Büchi automaton (the counter construction of Gastin–Oddoux CAV'01 §4 adapted to transition
//! marks, with levels reset when an edge leaves an SCC); [`to_sba`] keeps the smallest of this
//! construction, the portfolio of [`crate::degen`] and a transition-based route, each simplified.

use crate::twa::{Edge, Marks, Twa};
use biodivine_lib_bdd::Bdd;
use std::collections::{BTreeMap, HashMap, VecDeque};

/// The simplification pipeline: prune, clean acceptance, merge bisimilar states, iterate the
/// direct-simulation reduction. Marks on edges that lie on no cycle are irrelevant to acceptance;
/// the pipeline is run with them cleared and with them all set (which lets a transient state
/// merge with an accepting one), and the smaller result is kept.
pub fn simplify(aut: &Twa) -> Twa {
    let a = simplify_with(aut, false);
    let b = simplify_with(aut, true);
    if (b.num_states(), b.num_edges()) < (a.num_states(), a.num_edges()) {
        b
    } else {
        a
    }
}

fn simplify_with(aut: &Twa, transient_all: bool) -> Twa {
    let a = prune_with(&crate::scc_acc::simplify_marks(aut), transient_all);
    let a = prune_with(&crate::scc_sets::share_sets(&a), transient_all);
    let a = merge_bisimilar(&a);
    let a = prune_with(&a, transient_all);
    // Iterated direct simulation and co-simulation while they shrink the automaton.
    let cleanup = |b: &Twa| {
        let b = crate::scc_acc::simplify_marks(&prune_with(b, transient_all));
        let b = crate::scc_sets::share_sets(&b);
        prune_with(&merge_bisimilar(&b), transient_all)
    };
    crate::iterated_sim::iterated_simulations(&a, &cleanup)
}

/// SCC information of an automaton.
pub struct SccInfo {
    pub sccs: verikit_graph::Sccs,
    /// Union of marks on edges inside each SCC.
    pub marks: Vec<Marks>,
    /// True if the SCC contains an edge (a cycle).
    pub nontrivial: Vec<bool>,
    /// True if some cycle of the SCC is accepting.
    pub accepting: Vec<bool>,
}

pub fn scc_info(aut: &Twa) -> SccInfo {
    let g = aut.graph();
    let sccs = verikit_graph::sccs(&g);
    let n = sccs.len();
    let mut marks = vec![0u64; n];
    let mut nontrivial = vec![false; n];
    for (s, es) in aut.states.iter().enumerate() {
        let c = sccs.comp[s] as usize;
        for e in es {
            if !e.label.is_false() && sccs.comp[e.dst as usize] as usize == c {
                marks[c] |= e.marks;
                nontrivial[c] = true;
            }
        }
    }
    let all = aut.all_marks();
    let accepting = (0..n)
        .map(|c| nontrivial[c] && !aut.acc_false && marks[c] & all == all)
        .collect();
    SccInfo {
        sccs,
        marks,
        nontrivial,
        accepting,
    }
}

/// Removes unreachable states, states that cannot reach an accepting cycle, false edges and
/// subsumed edges; cleans the acceptance marks.
pub fn prune(aut: &Twa) -> Twa {
    prune_with(aut, false)
}

/// [`prune`], giving the edges that lie on no cycle no marks (`transient_all == false`) or all
/// marks.
pub fn prune_with(aut: &Twa, transient_all: bool) -> Twa {
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
pub fn merge_bisimilar(aut: &Twa) -> Twa {
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
            let mut out = Twa::new(aut.aps.clone());
            out.vars = aut.vars.clone();
            out.num_sets = aut.num_sets;
            out.acc_false = aut.acc_false;
            out.name = aut.name.clone();
            for &r in &reps {
                let id = out.add_state();
                out.state_names[id as usize] = aut.state_names.get(r).cloned().flatten();
            }
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

/// Degeneralisation into a state-based Büchi automaton (one acceptance set, the marks of a state
/// on all its outgoing edges). Automata with no acceptance set (`t`) stay as they are, marked
/// state-based.
pub fn degeneralize(aut: &Twa) -> Twa {
    if aut.num_sets == 0 || aut.acc_false {
        let mut a = aut.clone();
        a.state_based = true;
        for es in &mut a.states {
            for e in es {
                e.marks = 0;
            }
        }
        return a;
    }
    if aut.num_sets == 1 && aut.compute_state_based() {
        let mut a = aut.clone();
        a.state_based = true;
        return a;
    }
    let k = aut.num_sets;
    let info = scc_info(aut);
    // Weak automata (every cycle of an accepting SCC is accepting): mark the states of accepting
    // SCCs, no copies needed.
    let all = aut.all_marks();
    let weak = aut.states.iter().enumerate().all(|(s, es)| {
        let c = info.sccs.comp[s] as usize;
        !info.accepting[c]
            || es
                .iter()
                .all(|e| info.sccs.comp[e.dst as usize] as usize != c || e.marks & all == all)
    });
    if weak {
        let mut a = aut.clone();
        a.num_sets = 1;
        a.state_based = true;
        for (s, es) in a.states.iter_mut().enumerate() {
            let m = if info.accepting[info.sccs.comp[s] as usize] {
                1
            } else {
                0
            };
            for e in es {
                e.marks = m;
            }
        }
        return a;
    }
    let mut out = Twa::new(aut.aps.clone());
    out.vars = aut.vars.clone();
    out.num_sets = 1;
    out.state_based = true;
    out.name = aut.name.clone();
    let mut ids: HashMap<(u32, u32), u32> = HashMap::new();
    let mut todo: VecDeque<(u32, u32)> = VecDeque::new();
    let get = |ids: &mut HashMap<(u32, u32), u32>,
               out: &mut Twa,
               todo: &mut VecDeque<(u32, u32)>,
               key: (u32, u32)|
     -> u32 {
        if let Some(&id) = ids.get(&key) {
            return id;
        }
        let id = out.add_state();
        let base = aut.state_names.get(key.0 as usize).cloned().flatten();
        out.state_names[id as usize] = base.map(|b| {
            if key.1 == k {
                format!("{b} (acc)")
            } else {
                format!("{b} ({})", key.1)
            }
        });
        ids.insert(key, id);
        todo.push_back(key);
        id
    };
    let mut init = Vec::new();
    for &i in &aut.init {
        init.push(get(&mut ids, &mut out, &mut todo, (i, 0)));
    }
    out.init = init;
    while let Some((q, l)) = todo.pop_front() {
        let src = ids[&(q, l)];
        let acc = if l == k { 1 } else { 0 };
        let cq = info.sccs.comp[q as usize];
        for e in &aut.states[q as usize] {
            let nl = if info.sccs.comp[e.dst as usize] != cq || !info.accepting[cq as usize] {
                // Entering another SCC (finitely often on any run): any level is sound; reuse a
                // level at which the target already exists (Spot's "level cache").
                (0..=k)
                    .find(|&l| ids.contains_key(&(e.dst, l)))
                    .unwrap_or(0)
            } else {
                let mut nl = if l == k { 0 } else { l };
                while nl < k && (e.marks >> nl) & 1 == 1 {
                    nl += 1;
                }
                nl
            };
            let dst = get(&mut ids, &mut out, &mut todo, (e.dst, nl));
            out.add_edge(src, dst, e.label.clone(), acc);
        }
    }
    out
}

/// Degeneralisation into a *transition-based* Büchi automaton: states `(q, level)` without an
/// accepting copy; the edge that completes a round of all marks carries mark 0.
pub fn degeneralize_tba(aut: &Twa) -> Twa {
    if aut.num_sets <= 1 || aut.acc_false {
        return aut.clone();
    }
    let k = aut.num_sets;
    let info = scc_info(aut);
    let mut out = Twa::new(aut.aps.clone());
    out.vars = aut.vars.clone();
    out.num_sets = 1;
    out.name = aut.name.clone();
    let mut ids: HashMap<(u32, u32), u32> = HashMap::new();
    let mut todo: VecDeque<(u32, u32)> = VecDeque::new();
    let get = |ids: &mut HashMap<(u32, u32), u32>,
               out: &mut Twa,
               todo: &mut VecDeque<(u32, u32)>,
               key: (u32, u32)|
     -> u32 {
        if let Some(&id) = ids.get(&key) {
            return id;
        }
        let id = out.add_state();
        ids.insert(key, id);
        todo.push_back(key);
        id
    };
    let mut init = Vec::new();
    for &i in &aut.init {
        init.push(get(&mut ids, &mut out, &mut todo, (i, 0)));
    }
    out.init = init;
    while let Some((q, l)) = todo.pop_front() {
        let src = ids[&(q, l)];
        let cq = info.sccs.comp[q as usize];
        for e in &aut.states[q as usize] {
            let (nl, m) = if info.sccs.comp[e.dst as usize] != cq || !info.accepting[cq as usize] {
                (
                    (0..k).find(|&l| ids.contains_key(&(e.dst, l))).unwrap_or(0),
                    0,
                )
            } else {
                let mut nl = l;
                while nl < k && (e.marks >> nl) & 1 == 1 {
                    nl += 1;
                }
                if nl == k {
                    nl = 0;
                    while nl < k - 1 && (e.marks >> nl) & 1 == 1 {
                        nl += 1;
                    }
                    (nl, 1)
                } else {
                    (nl, 0)
                }
            };
            let dst = get(&mut ids, &mut out, &mut todo, (e.dst, nl));
            out.add_edge(src, dst, e.label.clone(), m);
        }
    }
    out
}

/// A state-based Büchi automaton from a transition-based one (one set) by guessing, on entering a
/// state, whether the edge that will leave it is marked: `(q, 1)` keeps the marked edges of `q`
/// and is accepting, `(q, 0)` keeps the unmarked ones.
pub fn sba_by_outgoing(aut: &Twa) -> Twa {
    if aut.num_sets != 1 || aut.acc_false {
        return degeneralize(aut);
    }
    let n = aut.num_states();
    let has = |q: usize, b: bool| aut.states[q].iter().any(|e| (e.marks & 1 == 1) == b);
    let mut out = Twa::new(aut.aps.clone());
    out.vars = aut.vars.clone();
    out.num_sets = 1;
    out.state_based = true;
    out.name = aut.name.clone();
    let mut id = vec![[u32::MAX; 2]; n];
    for (q, slot) in id.iter_mut().enumerate() {
        for b in [false, true] {
            if has(q, b) {
                slot[b as usize] = out.add_state();
            }
        }
    }
    for q in 0..n {
        for e in &aut.states[q] {
            let b = e.marks & 1 == 1;
            let src = id[q][b as usize];
            for t in id[e.dst as usize] {
                if t != u32::MAX {
                    out.add_edge(src, t, e.label.clone(), b as u64);
                }
            }
        }
    }
    let mut init = Vec::new();
    for &i in &aut.init {
        for t in id[i as usize] {
            if t != u32::MAX {
                init.push(t);
            }
        }
    }
    if out.num_states() == 0 {
        out.add_state();
    }
    out.init = init;
    out
}

/// The smaller of two state-based Büchi automata for `aut`: the level construction with accepting
/// copies ([`degeneralize`]) and the transition-based levels followed by [`sba_by_outgoing`],
/// each simplified; when the result has more states than `aut`, the checked fair-simulation
/// little-brother removals of [`crate::little_brothers`] (within [`LITTLE_BROTHERS_LOCS`]).
pub fn to_sba(aut: &Twa) -> Twa {
    let a = simplify(&degeneralize(aut));
    if aut.num_sets == 0 || aut.acc_false || a.num_states() <= 1 {
        return a;
    }
    let size = |x: &Twa| (x.num_states(), x.num_edges());
    // The removals on a state-based Büchi automaton larger than `aut`, when they make it smaller.
    let removals = |x: &Twa| -> Option<Twa> {
        if x.num_states() <= aut.num_states() || !x.state_based || x.num_sets > 1 {
            return None;
        }
        let r = crate::little_brothers::reduce_passes(x, LITTLE_BROTHERS_LOCS, &simplify);
        (r.state_based && r.num_sets <= 1 && size(&r) < size(x)).then_some(r)
    };
    // The removals on the plain level construction first: when they reach the size of the
    // generalized automaton, the portfolio of degeneralisations is not needed.
    let reduced = if aut.num_sets > 1 { removals(&a) } else { None };
    if let Some(r) = reduced
        .as_ref()
        .filter(|r| r.num_states() <= aut.num_states())
    {
        return r.clone();
    }
    let mut best = to_sba_levels(aut, a);
    if let Some(r) = removals(&best) {
        best = r;
    }
    match reduced {
        Some(r) if size(&r) < size(&best) => r,
        _ => best,
    }
}

/// Largest estimated game (locations) of the little-brother removals of [`to_sba`].
pub const LITTLE_BROTHERS_LOCS: usize = 300_000;

/// The smaller of `a` (the simplified [`degeneralize`] of `aut`), the portfolio of
/// [`crate::degen::best_sba`] and the transition-based route.
fn to_sba_levels(aut: &Twa, a: Twa) -> Twa {
    let size = |x: &Twa| (x.num_states(), x.num_edges());
    let mut best = a;
    if let Some(c) = crate::degen::best_sba(aut, &simplify) {
        if size(&c) < size(&best) {
            best = c;
        }
    }
    // The transition-based route, unless a result as small as the TGBA is already there.
    if best.num_states() > aut.num_states() {
        let b = simplify(&sba_by_outgoing(&simplify(&degeneralize_tba(aut))));
        if b.state_based && b.num_sets <= 1 && size(&b) < size(&best) {
            best = b;
        }
    }
    best
}

/// Removes from `sets` every acceptance set implied by another kept one on the edges `inside`
/// (set `i` is implied by `j` when every edge marked `j` is also marked `i`), first ones first.
pub(crate) fn drop_implied_sets(sets: &mut Vec<u32>, inside: &[Marks]) {
    let mut i = 0;
    while i < sets.len() {
        let mi = sets[i];
        let implied = sets.iter().any(|&mj| {
            mj != mi
                && inside
                    .iter()
                    .all(|&m| (m >> mj) & 1 == 0 || (m >> mi) & 1 == 1)
        });
        if implied {
            sets.remove(i);
        } else {
            i += 1;
        }
    }
}
