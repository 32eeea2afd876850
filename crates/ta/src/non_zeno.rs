//! Strong non-Zenoness by Tripakis's structural check: a network is *strongly non-Zeno* when
//! every structural loop of every process has a clock `x` that the loop resets (`x = 0`) and
//! bounds from below (`x ≥ c`, `x > c` or `x == c` with `c ≥ 1`): then each turn of a loop takes
//! at least one time unit every second time round, and no run of the product makes infinitely
//! many moves in finite time. (A cycle of the product moves some process along a closed walk of
//! its own graph, which contains one of its simple loops; a reset of `x` by another process only
//! moves the last reset later, so the bound still separates the two moves by one time unit.)
//! The same test decides whether one lasso cycle of a liveness witness lets time progress.
//!
//! The check is sufficient, not necessary: resets inside `if`/`while`/functions, indexed clocks
//! `x[i]` and lower bounds that depend on variables below 1 do not count, so a model can be
//! non-Zeno without passing it (the answer then says *not established*).
//!
//! Seed: S. Tripakis, "Verifying progress in timed systems" (ARTS 1999), §4 (the structural
//! loop condition); Tripakis, Yovine, Bouajjani, "Checking timed Büchi automata emptiness
//! efficiently" (FMSD 26(3), 2005), §2.3 (strongly non-Zeno automata). The loops are found with
//! Tarjan's SCCs (`verikit_graph::tarjan`): for each clock in turn, a bad loop avoids either the
//! clock's resets or its lower bounds, so the SCCs are searched again without one or the other.

use crate::model::{Cmp, Edge, Expr, Model, Stmt};
use crate::zone_graph::Transition;

/// Recursive calls after which the structural check gives up (exponential in the clocks in the
/// worst case).
const MAX_CALLS: usize = 100_000;

/// The outcome of the structural check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NonZeno {
    /// Every loop of every process resets some clock and bounds it from below by at least 1.
    Strong,
    /// Some loop of `process` through these `locations` fails the condition (a Zeno run may
    /// exist, or the condition is too coarse for the model).
    NotEstablished {
        process: String,
        locations: Vec<String>,
    },
    /// The check gave up (too many clock combinations).
    Unknown,
}

impl NonZeno {
    /// One line for answers.
    pub fn describe(&self) -> String {
        match self {
            NonZeno::Strong => {
                "strongly non-Zeno (Tripakis's structural check: every loop resets a clock and waits for it to reach 1)".into()
            }
            NonZeno::NotEstablished { process, locations } => format!(
                "non-Zenoness not established: a loop of {process} through {} resets no clock it then bounds from below by 1",
                locations.join(", ")
            ),
            NonZeno::Unknown => "non-Zenoness not decided (too many clock combinations)".into(),
        }
    }

    /// The word of the `non_zeno` detail.
    pub fn word(&self) -> &'static str {
        match self {
            NonZeno::Strong => "strong",
            NonZeno::NotEstablished { .. } => "not established",
            NonZeno::Unknown => "unknown",
        }
    }
}

/// The DBM index of a clock reset to 0 by a top-level statement of `e`.
fn resets(e: &Edge) -> impl Iterator<Item = usize> + '_ {
    e.stmts.iter().filter_map(|s| match s {
        Stmt::Clock(r, Expr::Const(0)) if r.index.is_none() => Some(r.first as usize),
        _ => None,
    })
}

/// The DBM index of a clock the guard of `e` bounds from below by at least 1.
fn lower_bounds<'a>(m: &'a Model, e: &'a Edge) -> impl Iterator<Item = usize> + 'a {
    e.guard.clocks.iter().filter_map(move |a| {
        if a.y.is_some() || a.x.index.is_some() {
            return None;
        }
        let (lo, _) = a.bound.range(&m.ints);
        let ok = match a.cmp {
            Cmp::Ge | Cmp::Eq | Cmp::Gt => lo >= 1,
            Cmp::Lt | Cmp::Le => false,
        };
        ok.then_some(a.x.first as usize)
    })
}

/// Structural strong non-Zenoness of the network (see the module documentation).
pub fn strongly_non_zeno(m: &Model) -> NonZeno {
    let mut calls = 0;
    for p in &m.processes {
        let n = p.locations.len();
        let mut clocks: Vec<usize> = p
            .edges
            .iter()
            .flat_map(|e| resets(e).collect::<Vec<_>>())
            .filter(|x| p.edges.iter().any(|e| lower_bounds(m, e).any(|y| y == *x)))
            .collect();
        clocks.sort_unstable();
        clocks.dedup();
        let all: Vec<u32> = (0..p.edges.len() as u32).collect();
        match bad_loop(m, p.edges.as_slice(), n, all, &clocks, &mut calls) {
            Search::None => {}
            Search::Found(locs) => {
                return NonZeno::NotEstablished {
                    process: p.name.clone(),
                    locations: locs
                        .iter()
                        .filter_map(|&l| p.locations.get(l as usize).map(|l| l.name.clone()))
                        .collect(),
                }
            }
            Search::GaveUp => return NonZeno::Unknown,
        }
    }
    NonZeno::Strong
}

enum Search {
    None,
    /// The locations of a strongly connected set of edges whose loops all fail the condition
    /// for the clocks examined.
    Found(Vec<u32>),
    GaveUp,
}

/// Is there a loop made of `edges` (ids into `all_edges`) that, for every clock of `clocks`,
/// avoids its resets or its lower bounds?
fn bad_loop(
    m: &Model,
    all_edges: &[Edge],
    n: usize,
    edges: Vec<u32>,
    clocks: &[usize],
    calls: &mut usize,
) -> Search {
    *calls += 1;
    if *calls > MAX_CALLS {
        return Search::GaveUp;
    }
    let edge = |k: u32| all_edges.get(k as usize);
    let mut succ: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &k in &edges {
        if let Some(e) = edge(k) {
            if let Some(s) = succ.get_mut(e.src as usize) {
                s.push(e.tgt);
            }
        }
    }
    let sccs = verikit_graph::tarjan(n, |v| succ.get(v as usize).cloned().unwrap_or_default());
    let comp = |v: u32| sccs.comp.get(v as usize).copied();
    // the edges on some loop: both ends in one component
    let looping: Vec<u32> = edges
        .into_iter()
        .filter(|&k| edge(k).is_some_and(|e| comp(e.src) == comp(e.tgt)))
        .collect();
    let Some(&first) = looping.first() else {
        return Search::None;
    };
    let Some((&x, rest)) = clocks.split_first() else {
        // a loop with no clock left to save it: report its component
        let c = edge(first).and_then(|e| comp(e.src));
        let locs = (0..n as u32).filter(|&v| comp(v) == c).collect();
        return Search::Found(locs);
    };
    let without = |pred: &dyn Fn(&Edge) -> bool| -> Vec<u32> {
        looping
            .iter()
            .copied()
            .filter(|&k| edge(k).is_some_and(|e| !pred(e)))
            .collect()
    };
    let no_reset = without(&|e| resets(e).any(|y| y == x));
    let no_bound = without(&|e| lower_bounds(m, e).any(|y| y == x));
    for sub in [no_reset, no_bound] {
        match bad_loop(m, all_edges, n, sub, rest, calls) {
            Search::None => {}
            other => return other,
        }
    }
    Search::None
}

/// Does one turn of a witness cycle (moves as `(process, edge)` pairs) reset some clock and bound
/// it from below by at least 1? Then repeating the cycle lets time diverge.
pub(crate) fn cycle_progresses(m: &Model, cycle: &[Transition]) -> bool {
    let edges: Vec<&Edge> = cycle
        .iter()
        .flatten()
        .filter_map(|&(p, e)| {
            m.processes
                .get(p as usize)
                .and_then(|p| p.edges.get(e as usize))
        })
        .collect();
    edges
        .iter()
        .flat_map(|e| resets(e))
        .any(|x| edges.iter().any(|e| lower_bounds(m, e).any(|y| y == x)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tck::parse_tck;

    fn check(body: &str) -> NonZeno {
        let text =
            format!("system:s\nevent:a\nclock:1:x\nclock:1:y\nint:1:0:3:0:i\nprocess:P\n{body}");
        strongly_non_zeno(&parse_tck(&text).unwrap())
    }

    #[test]
    fn a_loop_that_resets_and_waits_is_non_zeno() {
        let r = check(
            "location:P:l0{initial:}\nlocation:P:l1\n\
             edge:P:l0:l1:a{do: x=0}\nedge:P:l1:l0:a{provided: x>=1}\n",
        );
        assert_eq!(r, NonZeno::Strong);
    }

    #[test]
    fn a_loop_without_a_lower_bound_is_reported() {
        let r = check(
            "location:P:l0{initial:}\nlocation:P:l1\n\
             edge:P:l0:l1:a{do: x=0}\nedge:P:l1:l0:a{provided: x>0}\n",
        );
        assert!(
            matches!(&r, NonZeno::NotEstablished { locations, .. } if locations.len() == 2),
            "{r:?}"
        );
        // a self-loop bounding y but resetting only x
        let r = check("location:P:l0{initial:}\nedge:P:l0:l0:a{provided: y>=2 : do: x=0}\n");
        assert!(matches!(r, NonZeno::NotEstablished { .. }), "{r:?}");
    }

    #[test]
    fn every_loop_is_examined_not_just_the_component() {
        // the component has x reset and bounded, but the inner loop l1 -> l1 avoids the reset
        let r = check(
            "location:P:l0{initial:}\nlocation:P:l1\n\
             edge:P:l0:l1:a{do: x=0}\nedge:P:l1:l0:a{provided: x>=1}\nedge:P:l1:l1:a{provided: x>=1}\n",
        );
        assert!(
            matches!(&r, NonZeno::NotEstablished { locations, .. } if locations == &["l1"]),
            "{r:?}"
        );
        // two clocks, each loop saved by one of them
        let r = check(
            "location:P:l0{initial:}\nlocation:P:l1\n\
             edge:P:l0:l0:a{provided: x>=1 : do: x=0}\nedge:P:l0:l1:a\nedge:P:l1:l1:a{provided: y>=1 : do: y=0}\n",
        );
        assert_eq!(r, NonZeno::Strong);
    }

    #[test]
    fn the_lower_bound_may_be_a_variable_at_least_one() {
        let r = check("location:P:l0{initial:}\nedge:P:l0:l0:a{provided: x>=i+1 : do: x=0}\n");
        assert_eq!(r, NonZeno::Strong);
        let r = check("location:P:l0{initial:}\nedge:P:l0:l0:a{provided: x>=i : do: x=0}\n");
        assert!(matches!(r, NonZeno::NotEstablished { .. }), "{r:?}");
    }
}
