//! The simulation game between two generalized Büchi automata over the same states, shared by
//! fair simulation ([`crate::fair_sim`]) and delayed simulation ([`crate::delayed_sim`]).
//!
//! Paper: S. Juvekar, N. Piterman, "Minimizing Generalized Büchi Automata", CAV 2006 (LNCS
//! 4144), §2.3 (the game `G_{N,N'}`: player 1, the spoiler, moves in `N`; player 0, the
//! duplicator, answers in `N'` with a label that abstracts the spoiler's; `P_i` = the spoiler is in
//! acceptance set `i`, `Q_i` = the duplicator is).
//!
//! Adaptation to the kernel's automata (edge labels, edge marks). The paper's automata carry labels
//! and acceptance on states; here both are on edges, and the game is the same game played on the
//! automaton whose "states" are the edges: a round starts at a spoiler location `(p, q)`; the
//! spoiler picks an edge `e` of `p` and a letter `a` of its label, which gives the duplicator
//! location `(e, q, S)` where `S` is the set of edges of `q` whose label contains `a` (only the
//! subset-minimal such sets are kept: a larger set only gives the duplicator more choice); the
//! duplicator picks `f ∈ S`, which gives the *round* location `(e, f)`, and the round ends at
//! `(dst e, dst f)`. Round locations play the role of the paper's `(s, t, 1)` locations: `(e, f)` is
//! in `P_i` iff `e` carries mark `i` and in `Q_i` iff `f` carries mark `i`. A round location has one
//! successor, so its owner is irrelevant. On a state-based automaton (all edges leaving a state
//! carry the state's marks) this is exactly the paper's game, shifted by one step; on a
//! transition-based one it is the paper's game on the automaton of edges, which has the same
//! language. Letters are enumerated as minterms (truth tables), so the game is built only for
//! automata with at most [`MAX_APS`] atomic propositions and at most 64 edges per state.
//!
//! An automaton with no acceptance set (`t`, every run accepts) is treated as one set containing
//! every edge.

use crate::twa::{Marks, Twa};
use std::collections::HashMap;

/// Largest number of atomic propositions for which the game is built.
pub const MAX_APS: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    /// `(p, q)`: the spoiler moves.
    Spoiler,
    /// `(e, q, S)`: the duplicator moves.
    Duplicator,
    /// `(e, f)`: a completed round (carries the acceptance).
    Round,
}

/// The game graph. Locations `0..n*n` are the spoiler locations `(p, q)` at index `p * n + q`.
pub struct Game {
    pub n: usize,
    /// Number of acceptance pairs (at least 1).
    pub k: usize,
    pub kind: Vec<Loc>,
    pub succ: Vec<Vec<u32>>,
    pub pred: Vec<Vec<u32>>,
    /// Marks of the spoiler's edge of a round location (`P`), 0 elsewhere.
    pub p_marks: Vec<Marks>,
    /// Marks of the duplicator's edge of a round location (`Q`), 0 elsewhere.
    pub q_marks: Vec<Marks>,
}

/// Why a game could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TooLarge {
    Aps,
    Degree,
}

/// Edge labels as truth tables over all valuations (bit `v` = valuation `v`).
pub(crate) fn tables(aut: &Twa) -> Vec<Vec<Vec<u64>>> {
    let nv = 1usize << aut.aps.len();
    let words = nv.div_ceil(64);
    let vals: Vec<_> = (0..nv as u64).map(|v| aut.valuation(v)).collect();
    aut.states
        .iter()
        .map(|es| {
            es.iter()
                .map(|e| {
                    let mut t = vec![0u64; words];
                    for (v, val) in vals.iter().enumerate() {
                        if e.label.eval_in(val) {
                            t[v / 64] |= 1 << (v % 64);
                        }
                    }
                    t
                })
                .collect()
        })
        .collect()
}

/// Marks of an edge as seen by the game (all edges accept when there is no acceptance set).
fn game_marks(aut: &Twa, m: Marks) -> Marks {
    if aut.num_sets == 0 {
        1
    } else {
        m & aut.all_marks()
    }
}

impl Game {
    pub fn spoiler_loc(&self, p: usize, q: usize) -> usize {
        p * self.n + q
    }

    /// Builds `G_{spoiler, dup}`. Both automata have the same states, APs and number of sets;
    /// edges with a false label are ignored (that is how removed edges are represented).
    #[allow(clippy::needless_range_loop)]
    pub fn build(spoiler: &Twa, dup: &Twa) -> Result<Game, TooLarge> {
        if spoiler.aps.len() > MAX_APS || dup.aps.len() > MAX_APS {
            return Err(TooLarge::Aps);
        }
        if dup.states.iter().any(|es| es.len() > 64) {
            return Err(TooLarge::Degree);
        }
        let n = spoiler.num_states();
        let k = spoiler.num_sets.max(1) as usize;
        let nv = 1usize << spoiler.aps.len();
        let ts = tables(spoiler);
        let td = tables(dup);
        // mask[q][a]: edges of q (duplicator) whose label contains valuation a.
        let mask: Vec<Vec<u64>> = (0..n)
            .map(|q| {
                (0..nv)
                    .map(|a| {
                        let mut m = 0u64;
                        for (i, t) in td[q].iter().enumerate() {
                            if (t[a / 64] >> (a % 64)) & 1 == 1 {
                                m |= 1 << i;
                            }
                        }
                        m
                    })
                    .collect()
            })
            .collect();
        let mut g = Game {
            n,
            k,
            kind: vec![Loc::Spoiler; n * n],
            succ: vec![Vec::new(); n * n],
            pred: vec![Vec::new(); n * n],
            p_marks: vec![0; n * n],
            q_marks: vec![0; n * n],
        };
        let mut rounds: HashMap<(u32, u32, u32, u32), u32> = HashMap::new();
        let mut sets: Vec<u64> = Vec::new();
        for p in 0..n {
            for (ei, e) in spoiler.states[p].iter().enumerate() {
                let te = &ts[p][ei];
                if te.iter().all(|&w| w == 0) {
                    continue;
                }
                let pm = game_marks(spoiler, e.marks);
                for q in 0..n {
                    sets.clear();
                    for a in 0..nv {
                        if (te[a / 64] >> (a % 64)) & 1 == 1 {
                            sets.push(mask[q][a]);
                        }
                    }
                    sets.sort_unstable();
                    sets.dedup();
                    let minimal: Vec<u64> = sets
                        .iter()
                        .copied()
                        .filter(|&s| !sets.iter().any(|&o| o != s && o & s == o))
                        .collect();
                    let from = p * n + q;
                    for s in minimal {
                        let d = g.kind.len() as u32;
                        g.kind.push(Loc::Duplicator);
                        g.succ.push(Vec::new());
                        g.pred.push(Vec::new());
                        g.p_marks.push(0);
                        g.q_marks.push(0);
                        g.succ[from].push(d);
                        g.pred[d as usize].push(from as u32);
                        let mut bits = s;
                        while bits != 0 {
                            let fi = bits.trailing_zeros();
                            bits &= bits - 1;
                            let f = &dup.states[q][fi as usize];
                            let key = (p as u32, ei as u32, q as u32, fi);
                            let r = match rounds.get(&key) {
                                Some(&r) => r,
                                None => {
                                    let r = g.kind.len() as u32;
                                    g.kind.push(Loc::Round);
                                    let to = e.dst as usize * n + f.dst as usize;
                                    g.succ.push(vec![to as u32]);
                                    g.pred.push(Vec::new());
                                    g.pred[to].push(r);
                                    g.p_marks.push(pm);
                                    g.q_marks.push(game_marks(dup, f.marks));
                                    rounds.insert(key, r);
                                    r
                                }
                            };
                            g.succ[d as usize].push(r);
                            g.pred[r as usize].push(d);
                        }
                    }
                }
            }
        }
        Ok(g)
    }

    pub fn num_locs(&self) -> usize {
        self.kind.len()
    }
    pub fn num_moves(&self) -> usize {
        self.succ.iter().map(|s| s.len()).sum()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::Twa;

    /// A small automaton from HOA text.
    pub fn hoa(body: &str, states: usize, acc: &str) -> Twa {
        let text = format!(
            "HOA: v1\nStates: {states}\nStart: 0\nAP: 1 \"a\"\nAcceptance: {acc}\n--BODY--\n{body}--END--\n"
        );
        crate::hoa::parse(&text).unwrap()
    }

    /// 0 loops accepting, 1 loops rejecting; 2 takes one accepting step then loops rejecting
    /// (empty language); 3 loops rejecting forever; 4 alternates 4 -> 5 -> 4 with the mark
    /// only on the edge 5 -> 4.
    pub fn sample() -> Twa {
        hoa(
            "State: 0\n[t] 0 {0}\nState: 1\n[t] 1\nState: 2\n[t] 3 {0}\nState: 3\n[t] 3\nState: 4\n[t] 5\nState: 5\n[t] 4 {0}\n",
            6,
            "1 Inf(0)",
        )
    }

    #[test]
    fn game_shape() {
        let a = sample();
        let g = super::Game::build(&a, &a).unwrap();
        assert_eq!(g.n, 6);
        assert_eq!(g.k, 1);
        // One duplicator location per (edge, q) (one letter class each), one round each.
        assert_eq!(g.num_locs(), 36 + 6 * 6 + 6 * 6);
    }
}
