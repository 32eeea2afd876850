//! Symbolic antichain inclusion: `L(A) ⊆ L(B)` with BDD-represented letters, the symbolic variant
//! for large alphabets of the inclusion algorithms in "On Equivalence Checking of Nondeterministic
//! Finite Automata" (Fu, Deng, Jansen, Zhang, SETTA 2017), Section 3.6 (antichains over
//! `Q_A × 2^{Q_B}`, after De Wulf, Doyen, Henzinger, Raskin, "Antichains: A New Algorithm for
//! Checking Universality of Finite Automata", CAV 2006, Section 5 in its forward form) combined with
//! the BDD letters of Section 3.4 (the symbolic representation of [`crate::hkc_bdd`]).
//!
//! The automata are `.mata` `@NFA-bits` automata whose transitions carry BDD guards over shared bit
//! atoms ([`crate::hkc_bdd::build`]); nothing is mintermised. A pair `(p, Y)` (a state of `A`, a set
//! of states of `B`) is expanded by refining the letter space `{0,1}^k` by the guards of the
//! transitions leaving `Y` (cached per `Y`): each block `h` of the refinement has one successor set
//! `Y_h`, and every transition `p -g-> p'` with `h ∧ g ≠ ∅` gives the pair `(p', Y_h)`, reached by any
//! valuation of `h ∧ g` (recorded as the letter of counterexample words). As in the explicit
//! algorithm ([`crate::antichain`]), a pair is bad when `p` is accepting and `Y` holds no accepting
//! state, states of `A` that cannot reach an accepting state are ignored, and the stored pairs form
//! an antichain: `(p, Y)` is dropped if some stored `(p, Y')` has `Y' ⊆ Y`, and stored pairs with
//! `Y ⊆ Y'` are discarded. Breadth-first order gives shortest counterexamples.

use crate::hkc_bdd::{SymNfa, SymOutcome, SymSystem};
use crate::macrostate::is_subset;
use crate::nfa::State;
use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::rc::Rc;
use verikit_bdd::Bdd;
use verikit_diag::{Budget, Exhausted};

/// States of `a` from which an accepting state is reachable.
fn coreachable(a: &SymNfa) -> FixedBitSet {
    let mut pred: Vec<Vec<State>> = vec![Vec::new(); a.states];
    for (s, outs) in a.out.iter().enumerate() {
        for &(_, t) in outs {
            pred[t as usize].push(s as State);
        }
    }
    let mut seen = FixedBitSet::with_capacity(a.states);
    let mut stack: Vec<State> = a.finals.ones().map(|q| q as State).collect();
    for &q in &stack {
        seen.insert(q as usize);
    }
    while let Some(q) = stack.pop() {
        for &p in &pred[q as usize] {
            if !seen.put(p as usize) {
                stack.push(p);
            }
        }
    }
    seen
}

/// Whether `h ∧ g` is satisfiable, by a dry run of the conjunction (no result BDD is built).
fn meets_guard(h: &Bdd, g: &Bdd) -> bool {
    Bdd::check_binary_op(usize::MAX, h, g, verikit_bdd::op_function::and)
        .map_or_else(|| !h.and(g).is_false(), |(nonempty, _)| nonempty)
}

/// The blocks `(h, Y_h)` of a set's letter-space refinement.
type Refinement = Rc<Vec<(Bdd, u32)>>;

/// Interned sets of `B` states with their letter-space refinements.
struct Sets<'a> {
    sys: &'a SymSystem,
    b: &'a SymNfa,
    ids: FxHashMap<Vec<State>, u32>,
    sets: Vec<Vec<State>>,
    accepting: Vec<bool>,
    refined: Vec<Option<Refinement>>,
}

impl<'a> Sets<'a> {
    fn intern(&mut self, mut set: Vec<State>) -> u32 {
        set.sort_unstable();
        set.dedup();
        if let Some(&id) = self.ids.get(&set) {
            return id;
        }
        let id = self.sets.len() as u32;
        self.accepting
            .push(set.iter().any(|&q| self.b.finals.contains(q as usize)));
        self.ids.insert(set.clone(), id);
        self.sets.push(set);
        self.refined.push(None);
        id
    }

    /// The blocks `(h, Y_h)` partitioning the letter space by the guards leaving `Y`.
    fn refine(&mut self, y: u32) -> Refinement {
        if let Some(r) = &self.refined[y as usize] {
            return r.clone();
        }
        let mut groups: FxHashMap<u32, Vec<State>> = FxHashMap::default();
        for &q in &self.sets[y as usize] {
            for &(g, t) in &self.b.out[q as usize] {
                groups.entry(g).or_default().push(t);
            }
        }
        let mut order: Vec<u32> = groups.keys().copied().collect();
        order.sort_unstable();
        let mut blocks: Vec<(Bdd, Vec<State>)> = vec![(self.sys.dict.tt(), Vec::new())];
        for gid in order {
            let g = &self.sys.guards[gid as usize];
            let targets = &groups[&gid];
            let mut next = Vec::with_capacity(blocks.len() * 2);
            for (h, mut ts) in blocks {
                if !meets_guard(&h, g) {
                    next.push((h, ts));
                    continue;
                }
                let outside = h.and_not(g);
                if outside.is_false() {
                    ts.extend_from_slice(targets);
                    next.push((h, ts));
                    continue;
                }
                let mut ti = ts.clone();
                ti.extend_from_slice(targets);
                next.push((h.and(g), ti));
                next.push((outside, ts));
            }
            blocks = next;
        }
        let out: Vec<(Bdd, u32)> = blocks
            .into_iter()
            .map(|(h, ts)| {
                let id = self.intern(ts);
                (h, id)
            })
            .collect();
        let out = Rc::new(out);
        self.refined[y as usize] = Some(out.clone());
        out
    }
}

/// A stored pair: `A` state, `B` set id, parent node and the letter leading to it.
struct Node {
    p: State,
    y: u32,
    parent: usize,
    letter: Vec<bool>,
}

/// `L(A) ⊆ L(B)` by symbolic antichains (`A`, `B` from one [`SymSystem`]); a counterexample is a
/// word accepted by `A` and rejected by `B`.
///
/// Polls `budget` once per explored pair; on exhaustion nothing is decided.
pub(crate) fn included(
    sys: &SymSystem,
    a: &SymNfa,
    b: &SymNfa,
    budget: &Budget,
) -> Result<SymOutcome, Exhausted> {
    let useful = coreachable(a);
    let vars = sys.dict.vars().variables();
    let mut sets = Sets {
        sys,
        b,
        ids: FxHashMap::default(),
        sets: Vec::new(),
        accepting: Vec::new(),
        refined: Vec::new(),
    };
    let y0 = sets.intern(b.initial.clone());
    let mut nodes: Vec<Node> = Vec::new();
    let mut alive: Vec<bool> = Vec::new();
    let mut chains: Vec<Vec<usize>> = vec![Vec::new(); a.states];
    let mut queue: VecDeque<usize> = VecDeque::new();
    let mut explored = 0usize;
    let mut meets: FxHashMap<(u32, u32), Rc<Vec<u32>>> = FxHashMap::default();
    let witness = |nodes: &[Node], mut k: usize| -> Vec<Vec<bool>> {
        let mut word = Vec::new();
        while nodes[k].parent != usize::MAX {
            word.push(nodes[k].letter.clone());
            k = nodes[k].parent;
        }
        word.reverse();
        word
    };
    // Adds (p, y) unless subsumed; returns the node if it is bad.
    let mut add = |p: State,
                   y: u32,
                   parent: usize,
                   region: &dyn Fn() -> Bdd,
                   sets: &Sets<'_>,
                   nodes: &mut Vec<Node>,
                   alive: &mut Vec<bool>,
                   queue: &mut VecDeque<usize>|
     -> Option<usize> {
        let ys = &sets.sets[y as usize];
        let chain = &mut chains[p as usize];
        if chain
            .iter()
            .any(|&j| is_subset(&sets.sets[nodes[j].y as usize], ys))
        {
            return None;
        }
        chain.retain(|&j| {
            let keep = !is_subset(ys, &sets.sets[nodes[j].y as usize]);
            if !keep {
                alive[j] = false;
            }
            keep
        });
        let letter: Vec<bool> = match region().sat_witness() {
            Some(val) => vars.iter().map(|&x| val.value(x)).collect(),
            None => Vec::new(),
        };
        let id = nodes.len();
        chain.push(id);
        nodes.push(Node {
            p,
            y,
            parent,
            letter,
        });
        alive.push(true);
        queue.push_back(id);
        (a.finals.contains(p as usize) && !sets.accepting[y as usize]).then_some(id)
    };
    let mut init: Vec<State> = a.initial.clone();
    init.sort_unstable();
    init.dedup();
    for p in init {
        if !useful.contains(p as usize) {
            continue;
        }
        if let Some(bad) = add(
            p,
            y0,
            usize::MAX,
            &|| sys.dict.tt(),
            &sets,
            &mut nodes,
            &mut alive,
            &mut queue,
        ) {
            return Ok(SymOutcome {
                holds: false,
                witness: Some(witness(&nodes, bad)),
                size: 1,
                explored,
            });
        }
    }
    while let Some(i) = queue.pop_front() {
        if !alive[i] {
            continue;
        }
        budget.spend(1)?;
        explored += 1;
        let (p, y) = (nodes[i].p, nodes[i].y);
        if a.out[p as usize].is_empty() {
            continue;
        }
        let blocks = sets.refine(y);
        for &(g, p2) in &a.out[p as usize] {
            if !useful.contains(p2 as usize) {
                continue;
            }
            // The blocks of Y's refinement that meet the guard (cached per (Y, guard): many pairs
            // share their B set, and guards repeat across transitions).
            let hits = meets
                .entry((y, g))
                .or_insert_with(|| {
                    let guard = &sys.guards[g as usize];
                    Rc::new(
                        blocks
                            .iter()
                            .enumerate()
                            .filter(|(_, (h, _))| meets_guard(h, guard))
                            .map(|(k, _)| k as u32)
                            .collect(),
                    )
                })
                .clone();
            for &k in hits.iter() {
                let (h, y2) = &blocks[k as usize];
                let region = || h.and(&sys.guards[g as usize]);
                if let Some(bad) = add(
                    p2, *y2, i, &region, &sets, &mut nodes, &mut alive, &mut queue,
                ) {
                    return Ok(SymOutcome {
                        holds: false,
                        witness: Some(witness(&nodes, bad)),
                        size: alive.iter().filter(|&&x| x).count(),
                        explored,
                    });
                }
            }
        }
    }
    Ok(SymOutcome {
        holds: true,
        witness: None,
        size: alive.iter().filter(|&&x| x).count(),
        explored,
    })
}
