//! Nested depth-first search for accepting cycles (Courcoubetis, Vardi, Wolper, Yannakakis 1992,
//! in the colour formulation of Schwoon and Esparza, TACAS 2005: cyan = on the blue stack, a red
//! search from each accepting state in post-order, a cycle reported as soon as either search
//! reaches a cyan state). Sequential, as DiVinE's `NestedDFS` (CAV'06 §2); iterative, with the
//! budget polled, and the lasso (stem + cycle) read off the two stacks.

use crate::state_store::{StateStore, StoreKind};
use std::time::Instant;
use verikit_diag::{Budget, Exhausted};

/// A state graph with accepting states (a product with a Büchi automaton).
pub(crate) trait BuchiGraph {
    fn initial(&mut self) -> Vec<u8>;
    fn width(&self) -> usize;
    /// Appends the successors of `s` to `out`.
    fn successors(&mut self, s: &[u8], out: &mut Vec<Vec<u8>>);
    fn accepting(&self, s: &[u8]) -> bool;
    /// Partial-order reduction: tries the candidate processes of `s` in order and appends the
    /// successors of the first proper ample set none of whose successors `refused` refuses (the
    /// search's cycle proviso) to `out`, answering its process; `None` when `s` must be fully
    /// expanded (`out` then empty). By default nothing is reduced.
    fn reduced_successors(
        &mut self,
        _s: &[u8],
        _refused: &mut dyn FnMut(&[u8]) -> bool,
        _out: &mut Vec<Vec<u8>>,
    ) -> Option<u32> {
        None
    }
    /// Appends the successors of the ample set of process `p` in `s` (a choice
    /// `reduced_successors` made) to `out`; false when there is none.
    fn ample_successors(&mut self, _s: &[u8], _p: u32, _out: &mut Vec<Vec<u8>>) -> bool {
        false
    }
}

/// An accepting lasso: `stem` leads from the initial state to `cycle[0]`; the cycle returns from
/// its last state to `cycle[0]` and contains an accepting state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lasso {
    pub stem: Vec<Vec<u8>>,
    pub cycle: Vec<Vec<u8>>,
}

#[derive(Clone, Debug, Default)]
pub struct CycleSearch {
    pub lasso: Option<Lasso>,
    pub states: u64,
    pub transitions: u64,
    pub stopped: Option<Exhausted>,
    pub memory_bytes: usize,
    pub seconds: f64,
    /// States expanded with a proper ample set (partial-order reduction; 0 without it).
    pub reduced: u64,
}

const WHITE: u8 = 0;
const CYAN: u8 = 1;
const BLUE: u8 = 2;
const RED: u8 = 3;

/// How the blue search expanded a state (`decided`): not yet, fully, or by the ample set of
/// process `p` (`REDUCED + p`).
const UNSEEN: u32 = 0;
const FULL: u32 = 1;
const REDUCED: u32 = 2;

struct Frame {
    state: u32,
    succs: Vec<u32>,
    next: usize,
}

pub(crate) fn nested_dfs(g: &mut dyn BuchiGraph, store: StoreKind, budget: &Budget) -> CycleSearch {
    let t0 = Instant::now();
    let mut store = StateStore::new(g.width(), store);
    let mut color: Vec<u8> = Vec::new();
    let mut r = CycleSearch::default();
    let mut buf = Vec::new();
    // Per state: how the blue search expanded it (the red search must see the same graph:
    // Holzmann, Peled, Yannakakis, "On nested depth first search", SPIN 1996).
    let mut decided: Vec<u32> = Vec::new();
    let mut expand = |store: &mut StateStore,
                      color: &mut Vec<u8>,
                      decided: &mut Vec<u32>,
                      g: &mut dyn BuchiGraph,
                      s: u32,
                      blue: bool| {
        buf.clear();
        let st = store.get(s).into_owned();
        let used = if blue {
            // The stack proviso (C3): no successor of a reduced set on the blue stack; a
            // candidate refused by it leaves the next one its chance.
            let mut on_stack = |b: &[u8]| {
                store
                    .find(b)
                    .is_some_and(|i| color.get(i as usize) == Some(&CYAN))
            };
            let pick = g.reduced_successors(&st, &mut on_stack, &mut buf);
            if let Some(d) = decided.get_mut(s as usize) {
                *d = pick.map_or(FULL, |p| REDUCED.saturating_add(p));
            }
            pick.is_some()
        } else {
            // The red search sees the blue search's choice.
            match decided.get(s as usize) {
                Some(&d) if d >= REDUCED => g.ample_successors(&st, d - REDUCED, &mut buf),
                _ => false,
            }
        };
        if !used {
            buf.clear();
            g.successors(&st, &mut buf);
        }
        let mut ids = Vec::with_capacity(buf.len());
        for b in &buf {
            let (i, new) = store.insert(b);
            if new {
                color.push(WHITE);
                decided.push(UNSEEN);
            }
            ids.push(i);
        }
        ids
    };
    let init = g.initial();
    store.insert(&init);
    color.push(WHITE);
    decided.push(UNSEEN);
    let mut blue: Vec<Frame> = Vec::new();
    color[0] = CYAN;
    let s0 = expand(&mut store, &mut color, &mut decided, g, 0, true);
    r.transitions += s0.len() as u64;
    blue.push(Frame {
        state: 0,
        succs: s0,
        next: 0,
    });
    let mut ticks = 0u32;
    // Whether a stored state is accepting, read into one reused buffer (the tree store rebuilds
    // a state, the hash store's is copied: no allocation per test either way).
    let mut acc_buf = Vec::with_capacity(g.width());
    let mut accepting = |g: &dyn BuchiGraph, store: &StateStore, i: u32| {
        store.read(i, &mut acc_buf);
        g.accepting(&acc_buf)
    };
    // Every 1024 steps of either search: the budget, with the memory the search holds.
    let poll = |ticks: &mut u32, store: &StateStore, color: &[u8]| {
        *ticks += 1;
        if *ticks & 1023 == 0 {
            budget.check_memory(store.memory() + color.len()).err()
        } else {
            None
        }
    };
    let finish = |r: &mut CycleSearch, store: &StateStore, decided: &[u32]| {
        r.states = store.len() as u64;
        r.reduced = decided.iter().filter(|&&d| d >= REDUCED).count() as u64;
        r.memory_bytes = store.memory() + store.len();
        r.seconds = t0.elapsed().as_secs_f64();
    };
    let lasso_of = |store: &StateStore, blue: &[Frame], red: &[u32], target: u32| {
        let ids: Vec<u32> = blue.iter().map(|f| f.state).collect();
        let k = ids.iter().position(|&x| x == target).unwrap_or(0);
        let stem = ids[..k].iter().map(|&i| store.get(i).to_vec()).collect();
        let mut cycle: Vec<Vec<u8>> = ids[k..].iter().map(|&i| store.get(i).to_vec()).collect();
        cycle.extend(red.iter().map(|&i| store.get(i).to_vec()));
        Lasso { stem, cycle }
    };
    while let Some(top) = blue.last_mut() {
        if let Some(e) = poll(&mut ticks, &store, &color) {
            r.stopped = Some(e);
            finish(&mut r, &store, &decided);
            return r;
        }
        if top.next < top.succs.len() {
            let t = top.succs[top.next];
            top.next += 1;
            let s = top.state;
            let c = color[t as usize];
            if c == CYAN && (accepting(g, &store, s) || accepting(g, &store, t)) {
                r.lasso = Some(lasso_of(&store, &blue, &[], t));
                finish(&mut r, &store, &decided);
                return r;
            }
            if c == WHITE {
                color[t as usize] = CYAN;
                let ss = expand(&mut store, &mut color, &mut decided, g, t, true);
                r.transitions += ss.len() as u64;
                blue.push(Frame {
                    state: t,
                    succs: ss,
                    next: 0,
                });
            }
            continue;
        }
        // Post-order: red search from an accepting state.
        let s = top.state;
        if accepting(g, &store, s) {
            let mut red: Vec<Frame> = Vec::new();
            let ss = expand(&mut store, &mut color, &mut decided, g, s, false);
            red.push(Frame {
                state: s,
                succs: ss,
                next: 0,
            });
            while let Some(rt) = red.last_mut() {
                if let Some(e) = poll(&mut ticks, &store, &color) {
                    r.stopped = Some(e);
                    finish(&mut r, &store, &decided);
                    return r;
                }
                if rt.next < rt.succs.len() {
                    let t = rt.succs[rt.next];
                    rt.next += 1;
                    match color[t as usize] {
                        CYAN => {
                            // red[0] is the seed, already the last blue state.
                            let path: Vec<u32> = red.iter().skip(1).map(|f| f.state).collect();
                            r.lasso = Some(lasso_of(&store, &blue, &path, t));
                            finish(&mut r, &store, &decided);
                            return r;
                        }
                        BLUE => {
                            color[t as usize] = RED;
                            let ss = expand(&mut store, &mut color, &mut decided, g, t, false);
                            red.push(Frame {
                                state: t,
                                succs: ss,
                                next: 0,
                            });
                        }
                        _ => {}
                    }
                } else {
                    red.pop();
                }
            }
            color[s as usize] = RED;
        } else {
            color[s as usize] = BLUE;
        }
        blue.pop();
    }
    finish(&mut r, &store, &decided);
    r
}
