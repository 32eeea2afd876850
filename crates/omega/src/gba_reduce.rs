//! Simulation-based minimisation of generalized Büchi automata: quotienting by delayed-simulation
//! equivalence, fair-simulation merges and "little brother" edge removals checked by re-lifting
//! the fair-simulation ranks, and the direct-simulation baseline.
//!
//! Paper: S. Juvekar, N. Piterman, "Minimizing Generalized Büchi Automata", CAV 2006, §4
//! (§4.1 merging `N(t ← s)` and the games `add(G, Δ)` / `rem(G, Δ)`, Theorems 6 and 7; §4.2
//! fair-simulation minimisation after Gurumurthy–Bloem–Somenzi: a merge or an edge removal is
//! kept only if the modified automaton and the original are still fair-simulation equivalent,
//! checked by re-lifting from the previous ranks, Lemma 1; §4.3 delayed-simulation minimisation,
//! Theorem 8) and §5 (the pipeline: fair, delayed, or fair then delayed).
//!
//! Where it applies. The games ([`crate::sim_game`]) are played on edges, so the reductions run
//! on the kernel's transition-based automata as well as on state-based ones:
//! - *Fair merges and little brothers* are sound on any automaton, because every change is checked:
//!   a merge of `s` and `t` is tried as the automaton `M` in which both get the union of their
//!   incoming and outgoing edges (an edge addition `add(N, Δ)`; `L(M) ⊇ L(N)`), and it is kept
//!   only if every initial state of `M` is fair-simulated by an initial state of `N` (so
//!   `L(M) ⊆ L(N)`); the states of a merged group then have identical edges and the quotient has
//!   `M`'s language (Theorem 7). An edge removal is kept only if the automaton without the edge
//!   still fair-simulates the original at the initial states.
//! - *Delayed quotient.* On a state-based automaton this is the paper's Theorem 8: a class of
//!   delayed-equivalent states becomes one state carrying the union of the members' acceptance
//!   sets, and the output stays state-based. On a transition-based automaton the class keeps each
//!   member edge with its own marks; the proof of Theorem 8 carries over to the automaton of edges
//!   (a run of the quotient is matched segment by segment, for one acceptance set at a time, by
//!   the duplicator's strategy for the pair of that set, and the round location of the game
//!   sees the spoiler's and the duplicator's marks of the same step). Classes are formed only of
//!   pairwise delayed-equivalent states, and the quotient is iterated on its own game until no
//!   two states are equivalent.
//! - Automata with more than [`crate::sim_game::MAX_APS`] propositions, more than 64 edges on a
//!   state or more than [`MAX_STATES`] states are returned unchanged (the letters of the game are
//!   enumerated).
//!
//! The fair-simulation checks rebuild the game graph of each candidate (`O(|G|)` per candidate)
//! but restart lifting from the ranks of the last accepted game, which the paper's Lemma 1 allows;
//! the lifting work over all accepted candidates is thus bounded as in the paper, plus the graph
//! rebuilding per candidate.

use crate::direct_sim;
use crate::fair_sim::{self, INF};
use crate::sim_game::Game;
use crate::twa::{Marks, Twa};
use std::collections::HashMap;
use std::time::Instant;

/// Largest automaton (states) the game-based reductions are tried on.
pub const MAX_STATES: usize = 100;

/// Largest number of merge / removal candidates checked per automaton.
pub const MAX_CANDIDATES: usize = 150;

/// The reduction to apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Direct,
    Delayed,
    Fair,
    FairDelayed,
}

impl Method {
    pub fn parse(s: &str) -> Option<Method> {
        match s {
            "direct" => Some(Method::Direct),
            "delayed" => Some(Method::Delayed),
            "fair" => Some(Method::Fair),
            "fair+delayed" | "fair-delayed" => Some(Method::FairDelayed),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Method::Direct => "direct",
            Method::Delayed => "delayed",
            Method::Fair => "fair",
            Method::FairDelayed => "fair+delayed",
        }
    }
}

/// The paper's columns: states, transitions, acceptance sets ("fairness conditions"), initial
/// states; plus the number of states with an accepting outgoing edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Sizes {
    pub states: usize,
    pub transitions: usize,
    pub acc_sets: usize,
    pub accepting_states: usize,
    pub initial: usize,
}

pub fn sizes(a: &Twa) -> Sizes {
    Sizes {
        states: a.num_states(),
        transitions: a
            .states
            .iter()
            .flatten()
            .filter(|e| !e.label.is_false())
            .count(),
        acc_sets: a.num_sets as usize,
        accepting_states: a
            .states
            .iter()
            .filter(|es| es.iter().any(|e| e.marks & a.all_marks() != 0))
            .count(),
        initial: a.init.len(),
    }
}

/// Counters of one reduction run.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct ReduceStats {
    pub before: Sizes,
    pub after: Sizes,
    pub merges_tried: usize,
    pub merges_kept: usize,
    pub removals_tried: usize,
    pub removals_kept: usize,
    pub delayed_classes_merged: usize,
    /// False when the automaton was too large for the games and returned unchanged.
    pub applied: bool,
    pub time_s: f64,
}

/// Applies a method; returns the reduced automaton (language-equivalent) and the counters.
pub fn reduce(aut: &Twa, method: Method) -> (Twa, ReduceStats) {
    let t0 = Instant::now();
    let mut st = ReduceStats {
        before: sizes(aut),
        applied: true,
        ..ReduceStats::default()
    };
    let small = aut.num_states() <= MAX_STATES && !aut.acc_false && Game::build_ok(aut);
    let out = match method {
        Method::Direct => direct_sim::reduce(aut),
        _ if !small => {
            st.applied = false;
            aut.clone()
        }
        Method::Delayed => delayed_quotient(aut, &mut st),
        Method::Fair => fair_reduce(aut, &mut st),
        Method::FairDelayed => {
            let f = fair_reduce(aut, &mut st);
            delayed_quotient(&f, &mut st)
        }
    };
    st.after = sizes(&out);
    st.time_s = t0.elapsed().as_secs_f64();
    (out, st)
}

impl Game {
    /// True if [`Game::build`] accepts the automaton.
    pub fn build_ok(aut: &Twa) -> bool {
        aut.aps.len() <= crate::sim_game::MAX_APS && aut.states.iter().all(|es| es.len() <= 64)
    }
}

/// Quotient of `aut` by a partition (`class[s]` in `0..nc`). State-based automata get the union
/// of the members' marks on every edge of a class (the paper's `N(t ← s)`); transition-based ones
/// keep each edge's marks. Edges with the same target class and marks are merged.
pub fn quotient(aut: &Twa, class: &[u32], nc: usize) -> Twa {
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

/// Removes false edges and states unreachable from the initial states.
pub fn trim(aut: &Twa) -> Twa {
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

/// Classes of pairwise equivalent states of a preorder (`sim[p * n + q]`), greedily; with
/// `marks`, only states with equal marks are grouped.
fn classes(sim: &[bool], n: usize, marks: Option<&[Marks]>) -> (Vec<u32>, usize) {
    let mut class = vec![u32::MAX; n];
    let mut members: Vec<Vec<usize>> = Vec::new();
    for p in 0..n {
        if class[p] != u32::MAX {
            continue;
        }
        let c = members.len();
        class[p] = c as u32;
        let mut m = vec![p];
        for q in p + 1..n {
            if class[q] == u32::MAX
                && marks.is_none_or(|mk| mk[p] == mk[q])
                && m.iter().all(|&x| sim[x * n + q] && sim[q * n + x])
            {
                class[q] = c as u32;
                m.push(q);
            }
        }
        members.push(m);
    }
    (class, members.len())
}

/// Quotient by delayed-simulation equivalence, iterated until no two states are equivalent.
pub fn delayed_quotient(aut: &Twa, st: &mut ReduceStats) -> Twa {
    let mut cur = aut.clone();
    for _ in 0..8 {
        let n = cur.num_states();
        if n <= 1 || n > MAX_STATES {
            break;
        }
        let Some(sim) = crate::delayed_sim::delayed_simulation(&cur) else {
            break;
        };
        // State-based automata (labels on edges, marks on states): only states with the same
        // marks are merged, so that every edge keeps its own marks (the transition-based
        // quotient) and the result stays state-based. Giving a class the union of its members'
        // marks (the paper's rule for state-labelled automata) is unsound when labels are on
        // edges: the merged state would accept through an edge of a non-accepting member.
        let marks: Option<Vec<Marks>> = cur
            .state_based
            .then(|| (0..n as u32).map(|s| cur.state_marks(s)).collect());
        let (class, nc) = classes(&sim, n, marks.as_deref());
        if nc == n {
            break;
        }
        st.delayed_classes_merged += n - nc;
        cur = quotient(&cur, &class, nc);
    }
    cur
}

/// `aut` where every state of a group gets the edges of all members, each edge going to every
/// member of its target's group (so the members of a group have identical incoming and outgoing
/// edges).
fn saturate(aut: &Twa, group: &[u32], members: &[Vec<u32>]) -> Twa {
    let mut out = aut.clone();
    for (s, edges) in out.states.iter_mut().enumerate() {
        let mut new = Vec::new();
        let mut seen: HashMap<(u32, Marks), usize> = HashMap::new();
        for &m in &members[group[s] as usize] {
            for e in &aut.states[m as usize] {
                if e.label.is_false() {
                    continue;
                }
                for &d in &members[group[e.dst as usize] as usize] {
                    match seen.get(&(d, e.marks)) {
                        Some(&i) => {
                            let l: &mut crate::twa::Edge = &mut new[i];
                            l.label = l.label.or(&e.label);
                        }
                        None => {
                            seen.insert((d, e.marks), new.len());
                            new.push(crate::twa::Edge {
                                dst: d,
                                label: e.label.clone(),
                                marks: e.marks,
                            });
                        }
                    }
                }
            }
        }
        *edges = new;
    }
    out.state_based = false;
    out
}

/// True if every initial state of the spoiler's automaton is fair-simulated by an initial state
/// of the duplicator's (both have the same initial states).
fn init_simulated(g: &Game, r: &fair_sim::FairRanks, init: &[u32]) -> bool {
    init.iter().all(|&i| {
        init.iter()
            .any(|&j| r.r[0][g.spoiler_loc(i as usize, j as usize)] != INF)
    })
}

/// Fair-simulation minimisation: merges of fair-equivalent states, then little-brother edge
/// removals, each kept only if checked (see the module documentation).
pub fn fair_reduce(aut: &Twa, st: &mut ReduceStats) -> Twa {
    let merged = fair_merges(aut, st);
    fair_little_brothers(&merged, st)
}

fn fair_merges(aut: &Twa, st: &mut ReduceStats) -> Twa {
    let n = aut.num_states();
    let Ok(g0) = Game::build(aut, aut) else {
        return aut.clone();
    };
    let r0 = fair_sim::solve(&g0, None);
    let mut start = r0.spoiler_ranks(&g0);
    let mut group: Vec<u32> = (0..n as u32).collect();
    let mut members: Vec<Vec<u32>> = (0..n as u32).map(|s| vec![s]).collect();
    let mut cands = Vec::new();
    for p in 0..n {
        for q in p + 1..n {
            if r0.simulates(&g0, p, q) && r0.simulates(&g0, q, p) {
                cands.push((p, q));
            }
        }
    }
    for (p, q) in cands.into_iter().take(MAX_CANDIDATES) {
        let (gp, gq) = (group[p], group[q]);
        if gp == gq {
            continue;
        }
        st.merges_tried += 1;
        let mut tg = group.clone();
        let mut tm = members.clone();
        let moved = std::mem::take(&mut tm[gq as usize]);
        for &s in &moved {
            tg[s as usize] = gp;
        }
        tm[gp as usize].extend(moved);
        let m = saturate(aut, &tg, &tm);
        let Ok(g) = Game::build(&m, aut) else {
            continue;
        };
        let r = fair_sim::solve(&g, Some(&start));
        if init_simulated(&g, &r, &aut.init) {
            st.merges_kept += 1;
            group = tg;
            members = tm;
            start = r.spoiler_ranks(&g);
        }
    }
    // Renumber the groups and take the quotient (of the saturated automaton: identical members).
    let mut idx = vec![u32::MAX; n];
    let mut nc = 0u32;
    let mut class = vec![0u32; n];
    for s in 0..n {
        let gs = group[s] as usize;
        if idx[gs] == u32::MAX {
            idx[gs] = nc;
            nc += 1;
        }
        class[s] = idx[gs];
    }
    if nc as usize == n {
        return aut.clone();
    }
    let sat = saturate(aut, &group, &members);
    let mut q = quotient(&sat, &class, nc as usize);
    if aut.state_based {
        q.state_based = q.compute_state_based();
    }
    q
}

#[allow(clippy::needless_range_loop)]
fn fair_little_brothers(aut: &Twa, st: &mut ReduceStats) -> Twa {
    let n = aut.num_states();
    let Ok(g0) = Game::build(aut, aut) else {
        return aut.clone();
    };
    let r0 = fair_sim::solve(&g0, None);
    let mut start = r0.spoiler_ranks(&g0);
    let tables = crate::sim_game::tables(aut);
    let mut cands = Vec::new();
    for s in 0..n {
        let es = &aut.states[s];
        for i in 0..es.len() {
            for j in 0..es.len() {
                if i == j || es[i].dst == es[j].dst {
                    continue;
                }
                let inc = tables[s][i]
                    .iter()
                    .zip(&tables[s][j])
                    .all(|(a, b)| a & !b == 0);
                if inc && r0.simulates(&g0, es[i].dst as usize, es[j].dst as usize) {
                    cands.push((s, i));
                }
            }
        }
    }
    cands.dedup();
    let mut cur = aut.clone();
    let mut kept = 0;
    for (s, i) in cands.into_iter().take(MAX_CANDIDATES) {
        if cur.states[s][i].label.is_false() {
            continue;
        }
        st.removals_tried += 1;
        let mut trial = cur.clone();
        trial.states[s][i].label = trial.ff();
        let Ok(g) = Game::build(aut, &trial) else {
            continue;
        };
        let r = fair_sim::solve(&g, Some(&start));
        if init_simulated(&g, &r, &aut.init) {
            st.removals_kept += 1;
            kept += 1;
            cur = trial;
            start = r.spoiler_ranks(&g);
        }
    }
    if kept == 0 {
        return aut.clone();
    }
    trim(&cur)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_names_round_trip() {
        for m in [
            Method::Direct,
            Method::Delayed,
            Method::Fair,
            Method::FairDelayed,
        ] {
            assert_eq!(Method::parse(m.name()), Some(m));
        }
        assert_eq!(Method::parse("bisim"), None);
    }
}

#[cfg(test)]
mod sample_tests {
    use super::*;
    use crate::sim_game::tests::hoa;

    #[test]
    fn delayed_quotient_merges_equivalent_cycle() {
        // 0 -> 1 -> 0 with the mark on 1 -> 0, and 0 -> 2 (a loop with the mark on every step).
        let a = hoa(
            "State: 0\n[t] 1\n[t] 2\nState: 1\n[t] 0 {0}\nState: 2\n[t] 2 {0}\n",
            3,
            "1 Inf(0)",
        );
        let (r, st) = reduce(&a, Method::Delayed);
        assert!(st.applied);
        assert_eq!(r.num_states(), 1, "{}", crate::hoa::to_hoa(&r));
        assert!(!crate::emptiness::is_empty(&r));
        let (f, _) = reduce(&a, Method::Fair);
        assert_eq!(f.num_states(), 1, "{}", crate::hoa::to_hoa(&f));
    }

    #[test]
    fn fair_merge_rejected_when_unsound() {
        // The classic case where fair-equivalent states must not be merged: 0 and 1 both accept
        // (a|!a)^ω-ish words only through the other; 0 -a-> 1 {mark}, 1 -a-> 0, 0 -!a-> 0, 1 -!a-> 1 {mark}.
        // Whatever the reduction does, the language must be kept (checked by complement).
        let a = hoa(
            "State: 0\n[0] 1 {0}\n[!0] 0\nState: 1\n[0] 0\n[!0] 1 {0}\n",
            2,
            "1 Inf(0)",
        );
        for m in [Method::Delayed, Method::Fair, Method::FairDelayed] {
            let (r, _) = reduce(&a, m);
            let ca = crate::complement::complement(&a).unwrap();
            let cr = crate::complement::complement(&r).unwrap();
            assert!(crate::emptiness::is_empty(
                &crate::product::product(&r, &ca).unwrap()
            ));
            assert!(crate::emptiness::is_empty(
                &crate::product::product(&a, &cr).unwrap()
            ));
        }
    }
}
