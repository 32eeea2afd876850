//! Degeneralisation of a transition-based generalized Büchi automaton into a state-based Büchi
//! automaton: the plain level construction [`degeneralize`] (levels reset when an edge leaves an
//! SCC, a level cache), the transition-based levels [`degeneralize_tba`] with
//! [`sba_by_outgoing`] (guessing whether the edge leaving a state is marked), and the SCC-aware
//! [`degeneralize_with`] with level skipping, a level cache, a choice of the level at which an
//! SCC is entered, and a choice of the order of the acceptance sets; [`best_sba`] tries a small
//! portfolio of these choices and keeps the smallest result after the caller's simplification.
//!
//! Paper: the counter construction of P. Gastin, D. Oddoux, "Fast LTL to Büchi automata
//! translation", CAV'01, §4 (degeneralisation with a level counter), with the improvements of
//! Spot's `degeneralize` (Babiak, Křetínský, Řehák, Strejček, "LTL to Büchi automata translation:
//! fast and more deterministic", TACAS'12, §4: level skipping ("jumping" over every set the edge
//! carries), a level cache (re-entering a state at a level that already exists), SCC-aware levels
//! (levels only matter inside an accepting SCC; they are reset on entering one), and the choice of
//! the initial level: level 0, the accepting copy, or the level skipping the sets that every edge
//! entering the state inside its SCC carries), followed by simulation-based reduction of the
//! result as Spot's post-processor does for `-B`.
//!
//! States are pairs `(q, l)` with `0 ≤ l ≤ k`: at level `l < k` the run waits for the set
//! `order[l]`, level `k` is the accepting copy. Inside an accepting SCC an edge with marks `M`
//! moves from level `l` (restarting at `0` from `k`) past every consecutive awaited set in `M`.
//! States of rejecting SCCs exist at one level only (non-accepting); states of *weak* accepting
//! SCCs (every internal edge carries every set) at one level only (accepting). The level at which
//! a run enters an accepting SCC is irrelevant to acceptance (it is crossed finitely often), so any
//! existing copy of the target may be reused.

use crate::prune::prune;
use crate::scc_info::{accepting_inner_marks, all_marks_inside, scc_info};
use crate::twa::Twa;
use std::collections::{HashMap, VecDeque};

/// The level at which a run enters an accepting (non-weak) SCC when no copy of the target exists
/// yet (or, with `cache: false`, always).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    /// Level 0 (waiting for the first set of the order).
    Zero,
    /// The accepting copy (level `k`).
    Accepting,
    /// The level reached from 0 by skipping every set carried by *all* edges entering the state
    /// from inside its SCC (Spot's initial-level choice: the run behaves as if it had just taken
    /// one of those edges); `cache` says whether an existing copy is reused first.
    Incoming { cache: bool },
}

/// Degeneralises `aut` with the given order of its acceptance sets (a permutation of
/// `0..num_sets`); `enter` chooses the level at which an accepting SCC is entered.
///
/// Like every degeneralisation of this module, an automaton whose acceptance is not generalized
/// Büchi is returned unchanged: its [`Twa::acc`] still names its condition, so no caller reads it
/// as Büchi (callers that need a Büchi automaton check [`Twa::require_gba`] first).
pub(crate) fn degeneralize_with(aut: &Twa, order: &[u32], enter: Entry) -> Twa {
    if !aut.is_generalized_buchi() {
        return aut.clone();
    }
    if aut.num_sets == 0 || aut.acc_false {
        return degeneralize(aut);
    }
    let k = aut.num_sets;
    let all = aut.all_marks();
    let info = scc_info(aut);
    let weak = all_marks_inside(aut, &info);
    // Marks common to all edges entering a state from inside its SCC.
    let mut common = vec![all; aut.num_states()];
    for (s, es) in aut.states.iter().enumerate() {
        for e in es {
            if info.sccs.comp[s] == info.sccs.comp[e.dst as usize] && !e.label.is_false() {
                common[e.dst as usize] &= e.marks;
            }
        }
    }
    let incoming_level = |q: u32| -> u32 {
        let m = common[q as usize];
        let mut l = 0;
        while l < k && (m >> order[l as usize]) & 1 == 1 {
            l += 1;
        }
        l
    };
    // The level of a state entering its SCC (None: choose by cache / policy).
    let fixed = |q: u32| -> Option<u32> {
        let c = info.sccs.comp[q as usize] as usize;
        if !info.accepting[c] {
            Some(0)
        } else if weak[c] {
            Some(k)
        } else {
            None
        }
    };
    let mut out = level_automaton(aut, true);
    let mut b = Builder::new(aut, Names::Level);
    let entry = |levels: &[Vec<u32>], q: u32| -> u32 {
        fixed(q).unwrap_or_else(|| {
            let policy = match enter {
                Entry::Zero => 0,
                Entry::Accepting => k,
                Entry::Incoming { cache: false } => return incoming_level(q),
                Entry::Incoming { cache: true } => incoming_level(q),
            };
            levels[q as usize].first().copied().unwrap_or(policy)
        })
    };
    b.start(aut, &mut out, entry);
    while let Some((q, l)) = b.todo.pop_front() {
        let src = b.ids[&(q, l)];
        let cq = info.sccs.comp[q as usize] as usize;
        let acc = (info.accepting[cq] && l == k) as u64;
        for e in &aut.states[q as usize] {
            if e.label.is_false() {
                continue;
            }
            let same = info.sccs.comp[e.dst as usize] as usize == cq;
            let nl = if !same || !info.accepting[cq] {
                entry(&b.levels, e.dst)
            } else if weak[cq] {
                k
            } else {
                let mut nl = if l == k { 0 } else { l };
                while nl < k && (e.marks >> order[nl as usize]) & 1 == 1 {
                    nl += 1;
                }
                nl
            };
            let dst = b.get(aut, &mut out, (e.dst, nl));
            out.add_edge(src, dst, e.label.clone(), acc);
        }
    }
    out
}

/// The empty one-set automaton over `aut`'s propositions that a degeneralisation fills.
fn level_automaton(aut: &Twa, state_based: bool) -> Twa {
    let mut out = Twa::new(aut.aps.clone());
    out.vars = aut.vars.clone();
    out.num_sets = 1;
    out.state_based = state_based;
    out.name = aut.name.clone();
    out
}

/// How a degeneralisation names its states `(q, level)` after `q`'s name.
#[derive(Clone, Copy)]
enum Names {
    /// `q (level)`.
    Level,
    /// `q (level)`, and `q (acc)` at the given (accepting) level.
    Accepting(u32),
    /// Unnamed.
    None,
}

/// The states `(input state, level)` of a degeneralisation, made on demand and queued.
struct Builder {
    ids: HashMap<(u32, u32), u32>,
    /// Levels at which each state exists (the level cache).
    levels: Vec<Vec<u32>>,
    todo: VecDeque<(u32, u32)>,
    names: Names,
}

impl Builder {
    fn new(aut: &Twa, names: Names) -> Builder {
        Builder {
            ids: HashMap::new(),
            levels: vec![Vec::new(); aut.num_states()],
            todo: VecDeque::new(),
            names,
        }
    }

    /// Makes the initial states `(i, level(levels, i))` of `out`.
    fn start(&mut self, aut: &Twa, out: &mut Twa, level: impl Fn(&[Vec<u32>], u32) -> u32) {
        let mut init = Vec::new();
        for &i in &aut.init {
            let l = level(&self.levels, i);
            init.push(self.get(aut, out, (i, l)));
        }
        out.init = init;
    }

    /// The smallest level below `bound` at which `q` already exists, else 0 (Spot's level cache).
    fn cached_level(&self, q: u32, bound: u32) -> u32 {
        (0..bound)
            .find(|&l| self.ids.contains_key(&(q, l)))
            .unwrap_or(0)
    }

    fn get(&mut self, aut: &Twa, out: &mut Twa, key: (u32, u32)) -> u32 {
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let id = out.add_state();
        let name = aut.state_names.get(key.0 as usize).cloned().flatten();
        out.state_names[id as usize] = match self.names {
            Names::None => None,
            Names::Accepting(k) if key.1 == k => name.map(|b| format!("{b} (acc)")),
            _ => name.map(|b| format!("{b} ({})", key.1)),
        };
        self.ids.insert(key, id);
        self.levels[key.0 as usize].push(key.1);
        self.todo.push_back(key);
        id
    }
}

/// Two orders of the acceptance sets that do not depend on how the sets happen to be numbered:
/// the sets by how many edges inside accepting SCCs carry them, rarest first (ties by number),
/// and the reverse. [`best_sba`] adds them to the rotations of [`orders`] beyond 3 sets.
pub(crate) fn frequency_orders(aut: &Twa) -> [Vec<u32>; 2] {
    let info = scc_info(aut);
    let mut count = vec![0usize; aut.num_sets as usize];
    for m in accepting_inner_marks(aut, &info).iter().flatten() {
        for (i, n) in count.iter_mut().enumerate() {
            *n += ((m >> i) & 1) as usize;
        }
    }
    let mut by_count: Vec<u32> = (0..aut.num_sets).collect();
    by_count.sort_by_key(|&i| (count[i as usize], i));
    let mut rev = by_count.clone();
    rev.reverse();
    [by_count, rev]
}

/// Orders of the acceptance sets tried by [`best_sba`]: all permutations for up to 3 sets, the
/// rotations of the identity and of its reverse beyond.
fn orders(k: u32, small: bool) -> Vec<Vec<u32>> {
    let id: Vec<u32> = (0..k).collect();
    if k <= 1 {
        return vec![id];
    }
    if !small {
        let mut r = id.clone();
        r.reverse();
        return vec![id, r];
    }
    if k <= 3 {
        let mut out = Vec::new();
        permute(&mut id.clone(), 0, &mut out);
        return out;
    }
    let mut out = Vec::new();
    let mut rev = id.clone();
    rev.reverse();
    for base in [id, rev] {
        for s in 0..k as usize {
            let mut o = base.clone();
            o.rotate_left(s);
            out.push(o);
        }
    }
    out
}

fn permute(v: &mut Vec<u32>, i: usize, out: &mut Vec<Vec<u32>>) {
    if i == v.len() {
        out.push(v.clone());
        return;
    }
    for j in i..v.len() {
        v.swap(i, j);
        permute(v, i + 1, out);
        v.swap(i, j);
    }
}

/// Largest TGBA (states) on which the whole portfolio of orders is tried.
pub(crate) const PORTFOLIO_STATES: usize = 40;

/// How many of the smallest raw degeneralisations [`best_sba`] simplifies.
pub(crate) const SIMPLIFIED_CANDIDATES: usize = 3;

/// How many of the smallest raw degeneralisations with the incoming-marks entry level
/// ([`Entry::Incoming`]) [`best_sba`] simplifies, besides the others.
pub(crate) const SIMPLIFIED_INCOMING: usize = 2;

/// The smallest simplified state-based Büchi automaton among the degeneralisations of `aut` with
/// the orders of [`orders`] and the entry policies of [`Entry`]: all are built, the
/// [`SIMPLIFIED_CANDIDATES`] smallest with level 0 or the accepting copy at entry and the
/// [`SIMPLIFIED_INCOMING`] smallest with the incoming-marks level are simplified.
pub(crate) fn best_sba(aut: &Twa, simplify: &dyn Fn(&Twa) -> Twa) -> Option<Twa> {
    if aut.num_sets == 0 || aut.acc_false || !aut.is_generalized_buchi() {
        return None;
    }
    let small = aut.num_states() <= PORTFOLIO_STATES;
    // Two families of entry policies, each with its own candidates: the raw size does not predict
    // the simplified size across families (an incoming-level automaton may be smaller raw and
    // larger after simplification).
    let families: [(&[Entry], usize); 2] = [
        (&[Entry::Accepting, Entry::Zero], SIMPLIFIED_CANDIDATES),
        (
            &[
                Entry::Incoming { cache: true },
                Entry::Incoming { cache: false },
            ],
            SIMPLIFIED_INCOMING,
        ),
    ];
    let mut orders = orders(aut.num_sets, small);
    if aut.num_sets > 3 {
        for o in frequency_orders(aut) {
            if !orders.contains(&o) {
                orders.push(o);
            }
        }
    }
    let mut best: Option<Twa> = None;
    for (entries, take) in families {
        let mut raw: Vec<Twa> = Vec::new();
        for order in &orders {
            for &enter in entries {
                raw.push(prune(&degeneralize_with(aut, order, enter)));
            }
        }
        raw.sort_by_key(|d| (d.num_states(), d.num_edges()));
        for d in raw.iter().take(take) {
            let d = simplify(d);
            if !d.state_based || d.num_sets > 1 {
                continue;
            }
            let better = best
                .as_ref()
                .is_none_or(|b| (d.num_states(), d.num_edges()) < (b.num_states(), b.num_edges()));
            if better {
                best = Some(d);
            }
        }
    }
    best
}

/// Degeneralisation into a state-based Büchi automaton (one acceptance set, the marks of a state
/// on all its outgoing edges). Automata with no acceptance set (`t`) stay as they are, marked
/// state-based. Other acceptance conditions: the automaton unchanged (see [`degeneralize_with`]).
pub(crate) fn degeneralize(aut: &Twa) -> Twa {
    if !aut.is_generalized_buchi() {
        return aut.clone();
    }
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
    let full = all_marks_inside(aut, &info);
    if (0..info.sccs.len()).all(|c| !info.accepting[c] || full[c]) {
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
    let mut out = level_automaton(aut, true);
    let mut b = Builder::new(aut, Names::Accepting(k));
    b.start(aut, &mut out, |_, _| 0);
    while let Some((q, l)) = b.todo.pop_front() {
        let src = b.ids[&(q, l)];
        let acc = if l == k { 1 } else { 0 };
        let cq = info.sccs.comp[q as usize];
        for e in &aut.states[q as usize] {
            let nl = if info.sccs.comp[e.dst as usize] != cq || !info.accepting[cq as usize] {
                // Entering another SCC (finitely often on any run): any level is sound; reuse a
                // level at which the target already exists (Spot's "level cache").
                b.cached_level(e.dst, k + 1)
            } else {
                let mut nl = if l == k { 0 } else { l };
                while nl < k && (e.marks >> nl) & 1 == 1 {
                    nl += 1;
                }
                nl
            };
            let dst = b.get(aut, &mut out, (e.dst, nl));
            out.add_edge(src, dst, e.label.clone(), acc);
        }
    }
    out
}

/// Degeneralisation into a *transition-based* Büchi automaton: states `(q, level)` without an
/// accepting copy; the edge that completes a round of all marks carries mark 0.
pub(crate) fn degeneralize_tba(aut: &Twa) -> Twa {
    if aut.num_sets <= 1 || aut.acc_false || !aut.is_generalized_buchi() {
        return aut.clone();
    }
    let k = aut.num_sets;
    let info = scc_info(aut);
    let mut out = level_automaton(aut, false);
    let mut b = Builder::new(aut, Names::None);
    b.start(aut, &mut out, |_, _| 0);
    while let Some((q, l)) = b.todo.pop_front() {
        let src = b.ids[&(q, l)];
        let cq = info.sccs.comp[q as usize];
        for e in &aut.states[q as usize] {
            let (nl, m) = if info.sccs.comp[e.dst as usize] != cq || !info.accepting[cq as usize] {
                (b.cached_level(e.dst, k), 0)
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
            let dst = b.get(aut, &mut out, (e.dst, nl));
            out.add_edge(src, dst, e.label.clone(), m);
        }
    }
    out
}

/// A state-based Büchi automaton from a transition-based one (one set) by guessing, on entering a
/// state, whether the edge that will leave it is marked: `(q, 1)` keeps the marked edges of `q`
/// and is accepting, `(q, 0)` keeps the unmarked ones.
pub(crate) fn sba_by_outgoing(aut: &Twa) -> Twa {
    if !aut.is_generalized_buchi() {
        return aut.clone();
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_are_permutations() {
        assert_eq!(orders(3, true).len(), 6);
        assert_eq!(orders(4, true).len(), 8);
        for o in orders(5, true) {
            let mut s = o.clone();
            s.sort_unstable();
            assert_eq!(s, vec![0, 1, 2, 3, 4]);
        }
    }

    /// Four sets on a cycle inside one SCC, carried by 3, 1, 2 and 4 edges: the frequency order
    /// is 1, 2, 0, 3 (and its reverse), and degeneralising with it keeps the language.
    #[test]
    fn frequency_orders_sort_sets_by_use() {
        let t = crate::tests::one_ap(
            4,
            4,
            &[
                (0, 1, 't', 0b1001),
                (1, 2, 'a', 0b1101),
                (2, 3, 't', 0b1011),
                (3, 0, '!', 0b1100),
                (3, 3, 'a', 0),
            ],
        );
        let [up, down] = frequency_orders(&t);
        assert_eq!(up, vec![1, 2, 0, 3]);
        assert_eq!(down, vec![3, 0, 2, 1]);
        for order in [up, down] {
            let d = degeneralize_with(&t, &order, Entry::Incoming { cache: true });
            assert!(d.state_based && d.num_sets == 1);
            for w in crate::ltl::eval::Lasso::all(2, 2, 4) {
                assert_eq!(
                    crate::accepts::accepts_lasso(&d, &w),
                    crate::accepts::accepts_lasso(&t, &w),
                    "{order:?} {w:?}"
                );
            }
        }
        let b = best_sba(&t, &crate::postproc::simplify).expect("a Büchi automaton");
        for w in crate::ltl::eval::Lasso::all(2, 2, 4) {
            assert_eq!(
                crate::accepts::accepts_lasso(&b, &w),
                crate::accepts::accepts_lasso(&t, &w),
                "{w:?}"
            );
        }
    }

    #[test]
    fn two_sets_on_a_cycle() {
        // 0 -{0}-> 1 -{1}-> 0: accepting copies at one state only.
        let t = crate::tests::one_ap(2, 2, &[(0, 1, 't', 1), (1, 0, 't', 2)]);
        for enter in [
            Entry::Zero,
            Entry::Accepting,
            Entry::Incoming { cache: true },
            Entry::Incoming { cache: false },
        ] {
            let d = degeneralize_with(&t, &[0, 1], enter);
            assert!(d.state_based && d.num_sets == 1);
            assert!(d.num_states() <= 3);
            assert!(crate::emptiness::accepting_lasso(&d).is_some());
        }
    }

    /// `GFa & GF!a` as a TGBA (state 0 entered by `a` with set 0, state 1 by `!a` with set 1):
    /// entering at the level that skips the common incoming marks needs three states (Spot's
    /// size); every policy agrees with the TGBA on all short lassos.
    #[test]
    fn incoming_marks_choose_the_entry_level() {
        let t = crate::tests::one_ap(
            2,
            2,
            &[
                (0, 0, 'a', 1),
                (0, 1, '!', 2),
                (1, 1, '!', 2),
                (1, 0, 'a', 1),
            ],
        );
        let inc = prune(&degeneralize_with(
            &t,
            &[0, 1],
            Entry::Incoming { cache: true },
        ));
        assert_eq!(inc.num_states(), 3);
        for enter in [
            Entry::Zero,
            Entry::Accepting,
            Entry::Incoming { cache: true },
            Entry::Incoming { cache: false },
        ] {
            for order in [[0, 1], [1, 0]] {
                let d = degeneralize_with(&t, &order, enter);
                for w in crate::ltl::eval::Lasso::all(2, 2, 3) {
                    assert_eq!(
                        crate::accepts::accepts_lasso(&d, &w),
                        crate::accepts::accepts_lasso(&t, &w),
                        "{enter:?} {order:?} {w:?}"
                    );
                }
            }
        }
    }
}
