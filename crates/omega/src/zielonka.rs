//! Fair simulation with one acceptance set, solved exactly by Zielonka's recursive algorithm for
//! parity games with three priorities.
//!
//! Papers: S. Juvekar, N. Piterman, "Minimizing Generalized Büchi Automata", CAV 2006, §2.3 and
//! §3.1 (the fair-simulation game; with `k = 1` its generalized Streett[1] winning condition for
//! the duplicator, "if the spoiler visits `P` infinitely often then the duplicator visits `Q`
//! infinitely often", is the max-parity condition with priority 2 on the round locations in `Q`,
//! 1 on those in `P − Q` and 0 elsewhere, the duplicator owning the even priorities); W. Zielonka,
//! "Infinite games on finitely coloured graphs with applications to automata on infinite trees",
//! TCS 200, 1998, §4 (the recursive algorithm: remove the attractor of the top priority, solve the
//! rest, remove the opponent's attractor of what it wins there, repeat).
//!
//! Why a second solver. [`crate::fair_sim`] lifts ranks, which on a location the spoiler wins
//! climbs one rank at a time up to the bound (thousands of lifts per location on an 80-state
//! Büchi automaton, whose game has about 150 000 locations). With three priorities Zielonka's
//! algorithm is a handful of linear attractor computations in practice. The solver is run on the
//! part of the game reachable from given spoiler locations through the moves still present
//! (removed duplicator moves are *dead* round locations), which is exactly what decides those
//! locations, so a check of one little-brother removal (§4.2) costs the size of the reachable
//! game, which shrinks as edges are removed.
//!
//! Strategies. The duplicator's positional winning strategy is recorded as Zielonka's proof
//! builds it (attractor moves towards the target; inside a region where only priority 0 remains,
//! a move staying in the region), so a later check can replay it instead of solving
//! ([`Solver::strategy_still_wins`]).
//!
//! Dead ends: a duplicator location without a live round (no duplicator edge for the letter
//! class) is lost by the duplicator; a spoiler location without moves (the spoiler's state has no
//! edge) is won by the duplicator — the same conventions as the rank lifting of
//! [`crate::fair_sim`] (a duplicator location's minimum over no successors is `∞`, a spoiler
//! location's maximum over none is 0).

use crate::sim_game::{Game, Loc};

/// "No local index".
const NONE: u32 = u32::MAX;

/// The solver of one game (or of a part of it, [`Solver::restrict`]), on a compact copy of its
/// graph; `dead` round locations are removed duplicator moves.
pub(crate) struct Solver {
    /// Number of states of the automata (spoiler location `(p, q)` is `p·n + q` in the game).
    n: usize,
    /// Game location → local index (`NONE` when not part of this solver's graph).
    index: Vec<u32>,
    /// Local index → game location.
    loc: Vec<u32>,
    kind: Vec<Loc>,
    /// 0, 1 or 2 per location (rounds only carry non-zero priorities).
    prio: Vec<u8>,
    soff: Vec<u32>,
    sdst: Vec<u32>,
    poff: Vec<u32>,
    pdst: Vec<u32>,
    dead: Vec<bool>,
    /// Membership in the current subgame.
    inv: Vec<bool>,
    /// Attractor stamps and successor counters (valid when `cstamp == epoch`).
    astamp: Vec<u32>,
    cstamp: Vec<u32>,
    cnt: Vec<u32>,
    epoch: u32,
    /// 1: duplicator wins, 2: spoiler wins (of the last solve).
    win: Vec<u8>,
    /// Locations of the last solve.
    seen: Vec<u32>,
    /// Locations known to be won by the spoiler in every game still to be solved (see
    /// [`Solver::absorb_lost`]); solves do not explore past them.
    lost: Vec<bool>,
    /// The duplicator's strategy of the last solve (a successor per duplicator location it
    /// wins) and of the last solve recorded by [`Solver::absorb_lost`].
    sigma: Vec<u32>,
    sigma_ok: Vec<u32>,
    /// Attractor computations done so far (a measure of work).
    pub attractors: u64,
    /// Locations explored by the solves so far.
    pub explored: u64,
}

/// Player 0 is the duplicator, player 1 the spoiler.
fn owner(kind: Loc) -> u8 {
    match kind {
        Loc::Spoiler => 1,
        Loc::Duplicator | Loc::Round => 0,
    }
}

impl Solver {
    /// A solver of `g`, whose automata have at most one acceptance set (`g.k == 1`).
    pub(crate) fn new(g: &Game) -> Solver {
        debug_assert_eq!(g.k, 1);
        let nl = g.num_locs();
        let prio: Vec<u8> = (0..nl)
            .map(|u| {
                if g.kind[u] != Loc::Round {
                    0
                } else if g.q_marks[u] & 1 == 1 {
                    2
                } else if g.p_marks[u] & 1 == 1 {
                    1
                } else {
                    0
                }
            })
            .collect();
        let all: Vec<u32> = (0..nl as u32).collect();
        let succ = |u: usize| g.succ(u).iter().copied();
        Solver::compact(g.n, nl, &all, &|u| g.kind[u], &|u| prio[u], &succ)
    }

    /// The solver of the locations `keep` (game locations) with the moves among them.
    fn compact<'b, I: Iterator<Item = u32> + 'b>(
        n: usize,
        nl: usize,
        keep: &[u32],
        kind: &dyn Fn(usize) -> Loc,
        prio: &dyn Fn(usize) -> u8,
        succ: &dyn Fn(usize) -> I,
    ) -> Solver {
        let mut index = vec![NONE; nl];
        for (i, &u) in keep.iter().enumerate() {
            index[u as usize] = i as u32;
        }
        let m = keep.len();
        let mut soff = Vec::with_capacity(m + 1);
        let mut sdst = Vec::new();
        let mut indeg = vec![0u32; m];
        soff.push(0);
        for &u in keep {
            for w in succ(u as usize) {
                let iw = index[w as usize];
                if iw != NONE {
                    sdst.push(iw);
                    indeg[iw as usize] += 1;
                }
            }
            soff.push(sdst.len() as u32);
        }
        let mut poff = Vec::with_capacity(m + 1);
        poff.push(0u32);
        for d in &indeg {
            poff.push(poff.last().copied().unwrap_or(0) + d);
        }
        let mut fill: Vec<u32> = poff[..m].to_vec();
        let mut pdst = vec![0u32; sdst.len()];
        for v in 0..m {
            for k in soff[v]..soff[v + 1] {
                let w = sdst[k as usize] as usize;
                pdst[fill[w] as usize] = v as u32;
                fill[w] += 1;
            }
        }
        Solver {
            n,
            index,
            loc: keep.to_vec(),
            kind: keep.iter().map(|&u| kind(u as usize)).collect(),
            prio: keep.iter().map(|&u| prio(u as usize)).collect(),
            soff,
            sdst,
            poff,
            pdst,
            dead: vec![false; m],
            inv: vec![false; m],
            astamp: vec![0; m],
            cstamp: vec![0; m],
            cnt: vec![0; m],
            epoch: 0,
            win: vec![0; m],
            seen: Vec::new(),
            lost: vec![false; m],
            sigma: vec![NONE; m],
            sigma_ok: vec![NONE; m],
            attractors: 0,
            explored: 0,
        }
    }

    /// After a complete solve: the solver of the locations reachable from `starts` through the
    /// duplicator's winning locations of that solve (the part of the game that decides the starts
    /// once duplicator moves are removed, since removing them only shrinks what the duplicator
    /// wins). The removed moves are carried over.
    pub(crate) fn restrict(&self, starts: &[(usize, usize)]) -> Solver {
        let mut keep: Vec<u32> = Vec::new();
        let mut mark = vec![false; self.loc.len()];
        for &(p, q) in starts {
            let v = self.local(p, q);
            if v != NONE && self.win[v as usize] == 1 && !mark[v as usize] {
                mark[v as usize] = true;
                keep.push(v);
            }
        }
        let mut i = 0;
        while i < keep.len() {
            let u = keep[i] as usize;
            i += 1;
            for w in self.succs(u) {
                let w = w as usize;
                if !mark[w] && !self.dead[w] && self.win[w] == 1 {
                    mark[w] = true;
                    keep.push(w as u32);
                }
            }
        }
        let nl = self.index.len();
        let glocs: Vec<u32> = keep.iter().map(|&u| self.loc[u as usize]).collect();
        let succ = |g: usize| {
            let u = self.index[g] as usize;
            self.succs(u)
                .filter(|&w| !self.dead[w as usize] && self.win[w as usize] == 1)
                .map(|w| self.loc[w as usize])
                .collect::<Vec<u32>>()
                .into_iter()
        };
        let kind = |g: usize| self.kind[self.index[g] as usize];
        let prio = |g: usize| self.prio[self.index[g] as usize];
        Solver::compact(self.n, nl, &glocs, &kind, &prio, &succ)
    }

    fn succs(&self, u: usize) -> impl Iterator<Item = u32> + '_ {
        self.sdst[self.soff[u] as usize..self.soff[u + 1] as usize]
            .iter()
            .copied()
    }

    fn preds(&self, u: usize) -> std::ops::Range<usize> {
        self.poff[u] as usize..self.poff[u + 1] as usize
    }

    fn local(&self, p: usize, q: usize) -> u32 {
        self.index[p * self.n + q]
    }

    /// Marks locations (game locations) as removed (`true`) or present again (`false`): round
    /// locations are duplicator moves, duplicator locations spoiler moves (see
    /// [`crate::sim_game`]); locations outside this solver's graph are ignored.
    pub(crate) fn set_dead(&mut self, rounds: &[u32], dead: bool) {
        for &r in rounds {
            let i = self.index[r as usize];
            if i != NONE {
                self.dead[i as usize] = dead;
            }
        }
    }

    /// `q` fair-simulates `p` in the last solve (false if the solve did not reach `(p, q)`).
    pub(crate) fn simulates(&self, p: usize, q: usize) -> bool {
        let v = self.local(p, q);
        v != NONE && self.win[v as usize] == 1
    }

    /// Solves the game reachable from the given spoiler locations `(p, q)` through live moves.
    /// With `stop`, the solve may end as soon as every start is known to be lost (the verdicts of
    /// other locations are then incomplete).
    pub(crate) fn solve_from(&mut self, starts: &[(usize, usize)], stop: bool) {
        for &u in &self.seen {
            self.win[u as usize] = 0;
        }
        let mut nodes: Vec<u32> = Vec::new();
        for &(p, q) in starts {
            let v = self.local(p, q);
            if v != NONE && !self.inv[v as usize] {
                self.inv[v as usize] = true;
                nodes.push(v);
            }
        }
        let mut i = 0;
        while i < nodes.len() {
            let u = nodes[i] as usize;
            i += 1;
            if self.lost[u] {
                continue;
            }
            // A duplicator never moves to a known loss (a spoiler location with a lost
            // successor is itself lost: that successor is kept, as a sink).
            let dup = self.kind[u] == Loc::Duplicator;
            for k in self.soff[u]..self.soff[u + 1] {
                let w = self.sdst[k as usize] as usize;
                let skip = self.inv[w] || self.dead[w] || (dup && self.lost[w]);
                if !skip {
                    self.inv[w] = true;
                    nodes.push(w as u32);
                }
            }
        }
        self.seen = nodes.clone();
        self.explored += nodes.len() as u64;
        let watch: Vec<u32> = if stop {
            starts
                .iter()
                .map(|&(p, q)| self.local(p, q))
                .filter(|&v| v != NONE)
                .collect()
        } else {
            Vec::new()
        };
        self.solve_set(nodes, &watch);
        // An early stop leaves locations in the subgame: take them out.
        for &u in &self.seen {
            self.inv[u as usize] = false;
        }
    }

    /// Solves the whole game (every location, live moves only).
    pub(crate) fn solve_all(&mut self) {
        let starts: Vec<(usize, usize)> = (0..self.n)
            .flat_map(|p| (0..self.n).map(move |q| (p, q)))
            .collect();
        self.solve_from(&starts, false);
    }

    /// Records the spoiler's wins of the last (complete) solve as known losses. Sound when every
    /// game solved later has at most the duplicator moves of the last one (removing moves only
    /// helps the spoiler).
    /// Also keeps the duplicator's strategy of that solve for [`Solver::strategy_still_wins`].
    pub(crate) fn absorb_lost(&mut self) {
        for &u in &self.seen {
            let u = u as usize;
            if self.win[u] == 2 {
                self.lost[u] = true;
            }
            self.sigma_ok[u] = self.sigma[u];
        }
    }

    /// True if the duplicator's strategy recorded by the last [`Solver::absorb_lost`] still wins
    /// from the given spoiler locations with the current removed moves: it wins there in the game
    /// of that solve (Zielonka's strategies are winning on the whole winning region), and if no
    /// location it reaches from them uses a removed move, the plays it allows are the same.
    /// False means "unknown" (solve to decide).
    pub(crate) fn strategy_still_wins(&self, starts: &[(usize, usize)]) -> bool {
        let mut seen = vec![false; self.loc.len()];
        let mut stack: Vec<u32> = Vec::new();
        for &(p, q) in starts {
            let v = self.local(p, q);
            if v == NONE || self.lost[v as usize] {
                return false;
            }
            if !seen[v as usize] {
                seen[v as usize] = true;
                stack.push(v);
            }
        }
        while let Some(u) = stack.pop() {
            let u = u as usize;
            let mut push = |w: u32, stack: &mut Vec<u32>| {
                if !seen[w as usize] {
                    seen[w as usize] = true;
                    stack.push(w);
                }
            };
            match self.kind[u] {
                Loc::Duplicator => {
                    let w = self.sigma_ok[u];
                    if w == NONE || self.dead[w as usize] || self.lost[w as usize] {
                        return false;
                    }
                    push(w, &mut stack);
                }
                _ => {
                    for w in self.succs(u) {
                        if self.dead[w as usize] {
                            continue;
                        }
                        if self.lost[w as usize] {
                            return false;
                        }
                        push(w, &mut stack);
                    }
                }
            }
        }
        true
    }

    /// Zielonka on the subgame `nodes` (closed under live successors, members flagged in `inv`).
    fn solve_set(&mut self, mut nodes: Vec<u32>, watch: &[u32]) {
        // Known losses and dead ends: stuck duplicator locations are lost, stuck spoiler
        // locations won.
        let stuck_dup: Vec<u32> = nodes
            .iter()
            .copied()
            .filter(|&u| {
                let u = u as usize;
                self.lost[u] || (self.kind[u] == Loc::Duplicator && self.live_succs(u) == 0)
            })
            .collect();
        if !stuck_dup.is_empty() {
            let b = self.attr(1, &stuck_dup);
            self.settle(&b, 2);
            self.shrink(&mut nodes);
            if self.all_lost(watch) {
                return;
            }
        }
        let stuck_sp: Vec<u32> = nodes
            .iter()
            .copied()
            .filter(|&u| {
                let u = u as usize;
                self.kind[u] == Loc::Spoiler && self.succs(u).all(|w| self.dead[w as usize])
            })
            .collect();
        if !stuck_sp.is_empty() {
            let a = self.attr(0, &stuck_sp);
            self.settle(&a, 1);
            self.shrink(&mut nodes);
        }
        // Priority 2 (duplicator) on top.
        loop {
            if nodes.is_empty() {
                return;
            }
            let top: Vec<u32> = nodes
                .iter()
                .copied()
                .filter(|&u| self.prio[u as usize] == 2)
                .collect();
            if top.is_empty() {
                self.solve_le1(nodes);
                return;
            }
            let a = self.attr(0, &top);
            // The rest, without the attractor, as a subgame of priorities 0 and 1.
            for &u in &a {
                self.inv[u as usize] = false;
            }
            let rest: Vec<u32> = nodes
                .iter()
                .copied()
                .filter(|&u| self.inv[u as usize])
                .collect();
            let lost = self.solve_le1(rest.clone());
            if lost.is_empty() {
                // The duplicator wins everything: the attractor and the rest.
                for &u in &nodes {
                    self.win[u as usize] = 1;
                    self.inv[u as usize] = false;
                }
                return;
            }
            // Restore the subgame, undo the rest's verdicts, remove the spoiler's attractor.
            for &u in &nodes {
                self.inv[u as usize] = true;
            }
            for &u in &rest {
                self.win[u as usize] = 0;
            }
            let b = self.attr(1, &lost);
            self.settle(&b, 2);
            self.shrink(&mut nodes);
            if self.all_lost(watch) {
                return;
            }
        }
    }

    /// True if `watch` is not empty and the spoiler wins from all its locations.
    fn all_lost(&self, watch: &[u32]) -> bool {
        !watch.is_empty() && watch.iter().all(|&u| self.win[u as usize] == 2)
    }

    /// Subgame with priorities 0 and 1 only (the spoiler wins iff priority 1 recurs): returns
    /// the spoiler's winning region and settles every location of `nodes`; the locations are
    /// removed from the subgame.
    fn solve_le1(&mut self, mut nodes: Vec<u32>) -> Vec<u32> {
        let mut lost = Vec::new();
        loop {
            if nodes.is_empty() {
                return lost;
            }
            let odd: Vec<u32> = nodes
                .iter()
                .copied()
                .filter(|&u| self.prio[u as usize] == 1)
                .collect();
            let a = if odd.is_empty() {
                Vec::new()
            } else {
                self.attr(1, &odd)
            };
            if a.len() == nodes.len() {
                self.settle(&nodes, 2);
                lost.extend_from_slice(&nodes);
                return lost;
            }
            // Outside the attractor only priority 0 remains: the duplicator wins it, and its
            // attractor.
            let e = self.epoch;
            let free: Vec<u32> = nodes
                .iter()
                .copied()
                .filter(|&u| a.is_empty() || self.astamp[u as usize] != e)
                .collect();
            // The duplicator stays outside the attractor (each of its locations there has a
            // successor outside, or it would be attracted).
            for &u in &free {
                let u = u as usize;
                if self.kind[u] == Loc::Duplicator {
                    let stay = self
                        .succs(u)
                        .find(|&w| {
                            let w = w as usize;
                            self.inv[w] && !self.dead[w] && (a.is_empty() || self.astamp[w] != e)
                        })
                        .unwrap_or(NONE);
                    self.sigma[u] = stay;
                }
            }
            let b = self.attr(0, &free);
            self.settle(&b, 1);
            self.shrink(&mut nodes);
        }
    }

    /// Number of live successors (rounds neither removed nor known to be lost).
    fn live_succs(&self, u: usize) -> usize {
        self.succs(u)
            .filter(|&w| !self.dead[w as usize] && !self.lost[w as usize])
            .count()
    }

    /// Records a verdict and removes the locations from the subgame.
    fn settle(&mut self, locs: &[u32], verdict: u8) {
        for &u in locs {
            self.win[u as usize] = verdict;
            self.inv[u as usize] = false;
        }
    }

    fn shrink(&self, nodes: &mut Vec<u32>) {
        nodes.retain(|&u| self.inv[u as usize]);
    }

    /// `player`'s attractor of `target` inside the current subgame (`inv`). Leaves the members
    /// stamped with the current epoch.
    fn attr(&mut self, player: u8, target: &[u32]) -> Vec<u32> {
        self.attractors += 1;
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.astamp.fill(0);
            self.cstamp.fill(0);
            self.epoch = 1;
        }
        let e = self.epoch;
        let mut out: Vec<u32> = Vec::with_capacity(target.len());
        for &t in target {
            if self.astamp[t as usize] != e {
                self.astamp[t as usize] = e;
                out.push(t);
            }
        }
        let mut i = 0;
        while i < out.len() {
            let w = out[i] as usize;
            i += 1;
            for k in self.preds(w) {
                let u = self.pdst[k] as usize;
                if !self.inv[u] || self.astamp[u] == e || self.dead[u] {
                    continue;
                }
                let take = if owner(self.kind[u]) == player {
                    if player == 0 && self.kind[u] == Loc::Duplicator {
                        self.sigma[u] = w as u32;
                    }
                    true
                } else {
                    if self.cstamp[u] != e {
                        self.cstamp[u] = e;
                        let (a, b) = (self.soff[u] as usize, self.soff[u + 1] as usize);
                        self.cnt[u] = self.sdst[a..b]
                            .iter()
                            .filter(|&&x| self.inv[x as usize] && !self.dead[x as usize])
                            .count() as u32;
                    }
                    self.cnt[u] -= 1;
                    self.cnt[u] == 0
                };
                if take {
                    self.astamp[u] = e;
                    out.push(u as u32);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::sim_game::tests::{hoa, sample};
    use crate::sim_game::Game;
    use crate::twa::Twa;
    use proptest::prelude::*;

    fn relation(a: &Twa) -> Vec<bool> {
        let g = Game::build(a, a).unwrap();
        let mut s = super::Solver::new(&g);
        s.solve_all();
        let n = a.num_states();
        (0..n * n).map(|i| s.simulates(i / n, i % n)).collect()
    }

    #[test]
    fn sample_relation_matches_lifting() {
        let a = sample();
        assert_eq!(relation(&a), crate::fair_sim::fair_simulation(&a).unwrap());
        let b = hoa(
            "State: 0\n[0] 1 {0}\n[!0] 0\nState: 1\n[0] 0\n[!0] 1 {0}\n",
            2,
            "1 Inf(0)",
        );
        assert_eq!(relation(&b), crate::fair_sim::fair_simulation(&b).unwrap());
    }

    use crate::fair_sim::tests::random_aut;

    type Edges = Vec<(usize, usize, u8, u64)>;

    fn edges_strategy() -> impl Strategy<Value = (usize, u32, Edges)> {
        (1usize..7, 0u32..2).prop_flat_map(|(n, k)| {
            (
                Just(n),
                Just(k),
                proptest::collection::vec((0..n, 0..n, 0u8..5, 0u64..2), 1..18),
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Zielonka's algorithm and the rank lifting compute the same fair-simulation relation.
        #[test]
        fn agrees_with_rank_lifting((n, k, edges) in edges_strategy()) {
            let a = random_aut(n, k, &edges);
            prop_assert_eq!(relation(&a), crate::fair_sim::fair_simulation(&a).unwrap());
        }

        /// A strategy that is still said to win after removals does win: the fresh solve of
        /// the game without the removed edges agrees.
        #[test]
        fn replayed_strategy_is_sound((n, k, edges) in edges_strategy(), picks in proptest::collection::vec(0usize..100, 1..4), q0 in 0usize..7) {
            let a = random_aut(n, k, &edges);
            let g = Game::build(&a, &a).unwrap();
            let mut z = super::Solver::new(&g);
            let q0 = q0 % n;
            z.solve_from(&[(0, q0)], false);
            z.absorb_lost();
            let mut b = a.clone();
            for pick in picks {
                let s = pick % n;
                if a.states[s].is_empty() {
                    continue;
                }
                let i = pick % a.states[s].len();
                z.set_dead(&g.dup_rounds[s][i], true);
                b.states[s][i].label = b.ff();
            }
            if z.strategy_still_wins(&[(0, q0)]) {
                let fresh = crate::fair_sim::solve(Game::build(&a, &b).unwrap(), crate::fair_sim::Bound::Successors);
                prop_assert!(fresh.simulates(0, q0));
            }
        }

        /// Removed duplicator moves: the reachable solve agrees with the lifting of the game
        /// built without the edge.
        #[test]
        fn dead_rounds_match_rebuild((n, k, edges) in edges_strategy(), pick in 0usize..100, q0 in 0usize..7) {
            let a = random_aut(n, k, &edges);
            let s = pick % n;
            prop_assume!(!a.states[s].is_empty());
            let i = pick % a.states[s].len();
            let mut b = a.clone();
            b.states[s][i].label = b.ff();
            let g = Game::build(&a, &a).unwrap();
            let mut z = super::Solver::new(&g);
            let rounds = g.dup_rounds[s][i].clone();
            z.set_dead(&rounds, true);
            let q0 = q0 % n;
            z.solve_from(&[(0, q0)], false);
            let fresh = crate::fair_sim::solve(Game::build(&a, &b).unwrap(), crate::fair_sim::Bound::Successors);
            prop_assert_eq!(z.simulates(0, q0), fresh.simulates(0, q0));
            z.set_dead(&rounds, false);
            z.solve_all();
            let full = crate::fair_sim::fair_simulation(&a).unwrap();
            for p in 0..n {
                for q in 0..n {
                    prop_assert_eq!(z.simulates(p, q), full[p * n + q]);
                }
            }
        }
    }
}
