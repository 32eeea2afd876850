//! Emptiness check (automata with an Emerson–Lei condition go to [`crate::el_emptiness`]; the
//! lasso is built here for both). Generalized Büchi automata: with transition marks by SCC decomposition
//! (Couvreur FM'99 §4's criterion, computed here with the shared iterative Tarjan of
//! `verikit-graph`): the language is non-empty iff some SCC reachable from an initial state
//! contains, on its internal edges, every acceptance mark (and at least one edge). The witness is
//! an accepting lasso: a path from an initial state into that SCC, then a cycle inside it that
//! crosses an edge of every mark, printed in Spot's word syntax `letter; …; cycle{letter; …}`.

use crate::twa::{Marks, Twa};
use std::collections::VecDeque;
use verikit_diag::{Budget, Exhausted};

/// One step of a run: the source state and the index of the edge taken in its edge list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub src: u32,
    pub edge: usize,
}

/// An accepting lasso run: `prefix` from an initial state, then `cycle` repeated forever.
#[derive(Clone, Debug)]
pub struct Lasso {
    pub prefix: Vec<Step>,
    pub cycle: Vec<Step>,
}

impl Lasso {
    /// Letters (valuations, bit `i` = AP `i`) along the run, one satisfying each edge label.
    pub fn word(&self, aut: &Twa) -> crate::ltl::eval::Lasso {
        let letter = |s: &Step| {
            aut.pick_letter(&aut.states[s.src as usize][s.edge].label)
                .unwrap_or(0)
        };
        crate::ltl::eval::Lasso {
            prefix: self.prefix.iter().map(letter).collect(),
            cycle: self.cycle.iter().map(letter).collect(),
        }
    }
    /// The word in Spot's syntax, e.g. `a & !b; cycle{!a & b}`.
    pub fn word_text(&self, aut: &Twa) -> String {
        word_text(aut, &self.word(aut))
    }
    /// The states visited, for display: `0 -> 1 -> [2 -> 3] -> 2`.
    pub fn states_text(&self) -> (Vec<u32>, Vec<u32>) {
        (
            self.prefix.iter().map(|s| s.src).collect(),
            self.cycle.iter().map(|s| s.src).collect(),
        )
    }
}

/// A valuation lasso in Spot's word syntax.
pub(crate) fn word_text(aut: &Twa, w: &crate::ltl::eval::Lasso) -> String {
    let mut parts: Vec<String> = w.prefix.iter().map(|&b| aut.letter_formula(b)).collect();
    let cyc: Vec<String> = w.cycle.iter().map(|&b| aut.letter_formula(b)).collect();
    parts.push(format!("cycle{{{}}}", cyc.join("; ")));
    parts.join("; ")
}

/// True if the automaton accepts no word.
pub fn is_empty(aut: &Twa) -> bool {
    accepting_lasso(aut).is_none()
}

/// An accepting lasso, or `None` if the language is empty.
pub fn accepting_lasso(aut: &Twa) -> Option<Lasso> {
    accepting_lasso_within(aut, &Budget::unlimited()).unwrap_or(None)
}

/// [`accepting_lasso`] polling `budget` between its linear-time phases (SCCs, the search of
/// the lasso): `Err` when it ran out.
pub(crate) fn accepting_lasso_within(
    aut: &Twa,
    budget: &Budget,
) -> Result<Option<Lasso>, Exhausted> {
    if let Some(acc) = &aut.acc {
        return el_lasso(aut, acc, budget);
    }
    if aut.acc_false {
        return Ok(None);
    }
    budget.check()?;
    let g = aut.graph();
    let reach = verikit_graph::reachable(&g, &aut.init);
    let sccs = verikit_graph::sccs(&g);
    budget.check()?;
    Ok(lasso_in(aut, &reach, &sccs))
}

/// Emerson–Lei acceptance: the generic check of [`crate::el_emptiness`] finds an accepting SCC
/// and the marks to avoid in it; the lasso enters it, then cycles through an allowed inner edge
/// of every mark present there (so the marks seen infinitely often are exactly those of the
/// SCC's allowed inner edges, on which the condition holds).
fn el_lasso(aut: &Twa, acc: &crate::acc::Acc, budget: &Budget) -> Result<Option<Lasso>, Exhausted> {
    budget.check()?;
    let adj: Vec<Vec<(u32, Marks)>> = aut
        .states
        .iter()
        .map(|es| {
            es.iter()
                .filter(|e| !e.label.is_false())
                .map(|e| (e.dst, e.marks))
                .collect()
        })
        .collect();
    let g = aut.graph();
    let reach = verikit_graph::reachable(&g, &aut.init);
    let Some(c) = crate::el_emptiness::accepting_scc(&adj, &reach, acc, budget)? else {
        return Ok(None);
    };
    let mut in_c = vec![false; aut.num_states()];
    for &s in &c.states {
        in_c[s as usize] = true;
    }
    let ok = |e: &crate::twa::Edge| {
        !e.label.is_false() && in_c[e.dst as usize] && e.marks & c.banned == 0
    };
    let mut need: Marks = 0;
    for &s in &c.states {
        for e in &aut.states[s as usize] {
            if ok(e) {
                need |= e.marks;
            }
        }
    }
    let Some((prefix, entry)) = bfs(aut, &aut.init, &|s| in_c[s as usize], &|_| true) else {
        return Ok(None);
    };
    Ok(cycle_from(aut, &c.states, entry, need, &ok).map(|cycle| Lasso { prefix, cycle }))
}

/// A cycle from `entry` through edges satisfying `ok` (which keep it inside one SCC) that crosses
/// an edge of every mark of `need` (at least one edge), back to `entry`.
fn cycle_from(
    aut: &Twa,
    members: &[u32],
    entry: u32,
    mut need: Marks,
    ok: &dyn Fn(&crate::twa::Edge) -> bool,
) -> Option<Vec<Step>> {
    let mut cycle = Vec::new();
    let mut cur = entry;
    let mut first = true;
    while need != 0 || first {
        first = false;
        let mut target: Option<(u32, usize)> = None;
        'find: for &s in members {
            for (i, e) in aut.states[s as usize].iter().enumerate() {
                if ok(e) && (need == 0 || e.marks & need != 0) {
                    target = Some((s, i));
                    break 'find;
                }
            }
        }
        let (ts, ti) = target?;
        let (path, _) = bfs_edges(aut, &[cur], &|s| s == ts, ok)?;
        cycle.extend(path);
        cycle.push(Step { src: ts, edge: ti });
        let e = &aut.states[ts as usize][ti];
        need &= !e.marks;
        cur = e.dst;
    }
    let (back, _) = bfs_edges(aut, &[cur], &|s| s == entry, ok)?;
    cycle.extend(back);
    Some(cycle)
}

/// The accepting lasso through the first accepting reachable SCC, if any.
fn lasso_in(aut: &Twa, reach: &[bool], sccs: &verikit_graph::Sccs) -> Option<Lasso> {
    let all = aut.all_marks();
    let n = sccs.len();
    let mut marks = vec![0 as Marks; n];
    let mut has_edge = vec![false; n];
    for (s, es) in aut.states.iter().enumerate() {
        if !reach[s] {
            continue;
        }
        let c = sccs.comp[s] as usize;
        for e in es {
            if !e.label.is_false() && sccs.comp[e.dst as usize] as usize == c {
                marks[c] |= e.marks;
                has_edge[c] = true;
            }
        }
    }
    let c = (0..n)
        .find(|&c| has_edge[c] && marks[c] & all == all && reach[sccs.members[c][0] as usize])?;
    let in_c = |s: u32| sccs.comp[s as usize] as usize == c;
    // Prefix: BFS from the initial states to any state of c.
    let (prefix, entry) = bfs(aut, &aut.init, &|s| in_c(s), &|_| true)?;
    // Cycle: from entry, visit an edge of every missing mark, then come back to entry.
    let mut cycle = Vec::new();
    let mut cur = entry;
    let mut need = all;
    let mut first = true;
    while need != 0 || first {
        first = false;
        // Find an internal edge with a needed mark (or any internal edge if none is needed).
        let mut target: Option<(u32, usize)> = None;
        for &s in &sccs.members[c] {
            for (i, e) in aut.states[s as usize].iter().enumerate() {
                if !e.label.is_false() && in_c(e.dst) && (need == 0 || e.marks & need != 0) {
                    target = Some((s, i));
                    break;
                }
            }
            if target.is_some() {
                break;
            }
        }
        let (ts, ti) = target?;
        let (path, _) = bfs(aut, &[cur], &|s| s == ts, &|s| in_c(s))?;
        cycle.extend(path);
        cycle.push(Step { src: ts, edge: ti });
        let e = &aut.states[ts as usize][ti];
        need &= !e.marks;
        cur = e.dst;
    }
    // Close the cycle.
    let (back, _) = bfs(aut, &[cur], &|s| s == entry, &|s| in_c(s))?;
    cycle.extend(back);
    Some(Lasso { prefix, cycle })
}

/// Shortest path (as steps) from one of `from` to a state satisfying `goal`, through states
/// satisfying `allowed`. A start state satisfying `goal` gives the empty path.
fn bfs(
    aut: &Twa,
    from: &[u32],
    goal: &dyn Fn(u32) -> bool,
    allowed: &dyn Fn(u32) -> bool,
) -> Option<(Vec<Step>, u32)> {
    bfs_edges(aut, from, goal, &|e| !e.label.is_false() && allowed(e.dst))
}

/// [`bfs`] through the edges satisfying `ok`.
fn bfs_edges(
    aut: &Twa,
    from: &[u32],
    goal: &dyn Fn(u32) -> bool,
    ok: &dyn Fn(&crate::twa::Edge) -> bool,
) -> Option<(Vec<Step>, u32)> {
    let n = aut.num_states();
    let mut pred: Vec<Option<Step>> = vec![None; n];
    let mut seen = vec![false; n];
    let mut q = VecDeque::new();
    for &s in from {
        if (s as usize) < n && !seen[s as usize] {
            seen[s as usize] = true;
            q.push_back(s);
        }
    }
    while let Some(s) = q.pop_front() {
        if goal(s) {
            let mut path = Vec::new();
            let mut cur = s;
            while let Some(st) = pred[cur as usize] {
                path.push(st);
                cur = st.src;
            }
            path.reverse();
            return Some((path, s));
        }
        for (i, e) in aut.states[s as usize].iter().enumerate() {
            let d = e.dst as usize;
            if !seen[d] && ok(e) {
                seen[d] = true;
                pred[d] = Some(Step { src: s, edge: i });
                q.push_back(e.dst);
            }
        }
    }
    None
}
