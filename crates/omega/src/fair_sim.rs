//! Fair simulation of generalized Büchi automata as a generalized Streett[1] game, solved by rank
//! lifting.
//!
//! Paper: S. Juvekar, N. Piterman, "Minimizing Generalized Büchi Automata", CAV 2006, §3.1 (the
//! ranking functions `r_1..r_l` with values `D_j = [0..|j|] × [1..k] ∪ {∞}`, `best_j`, `incr_j`,
//! the lifting algorithm and its efficient worklist version, Fig. 1; Theorem 1: player 0 wins
//! from `v` iff `r_1(v) ≠ ∞` after lifting; Theorem 2: `O(t·g·k·l)`) and §4.2 (rankings only grow
//! when spoiler moves are added or duplicator moves removed, Lemma 1, so a modified game is solved
//! by re-lifting from the previous ranks).
//!
//! The game is [`crate::sim_game::Game`] (acceptance on its round locations, which works for both
//! state-based and transition-based automata; see there). A rank `(r, i)` is stored as the number
//! `r·k + (i−1)` and `∞` as `u32::MAX`. The worklist keeps, for each location and ranking, the
//! value its predecessors were last told about; a duplicator (min) location keeps the current
//! minimum `B_j` and the number `C_j` of successors attaining it (Fig. 1's counters), so it is
//! re-scanned only when its last minimal successor was lifted; a spoiler (max) location is lifted
//! directly to a lifted successor's value. Each of the `g·k` (location, ranking) pairs is lifted at
//! most `|D_j| = O(g·k)` times and a lift costs its number of predecessors, which gives the paper's
//! `O(t·g·k²)` bound, `O(m·n³·k²)` for the self-simulation game of an automaton with `n` states,
//! `m` edges and `k` acceptance sets.

use crate::sim_game::{Game, Loc};

/// The rank `∞`.
pub const INF: u32 = u32::MAX;

/// A solved fair-simulation game: the ranks `r[j][loc]` (`j` = acceptance set of the duplicator).
pub struct FairRanks {
    pub r: Vec<Vec<u32>>,
}

impl FairRanks {
    /// `q` fair-simulates `p` (player 0 wins from the spoiler location `(p, q)`).
    pub fn simulates(&self, g: &Game, p: usize, q: usize) -> bool {
        self.r[0][g.spoiler_loc(p, q)] != INF
    }
    /// The ranks of the spoiler locations, to restart lifting in a modified game.
    pub fn spoiler_ranks(&self, g: &Game) -> Vec<Vec<u32>> {
        let nn = g.n * g.n;
        self.r.iter().map(|rj| rj[..nn].to_vec()).collect()
    }
}

struct Solver<'a> {
    g: &'a Game,
    k: usize,
    maxv: Vec<u32>,
    r: Vec<Vec<u32>>,
    told: Vec<Vec<u32>>,
    best: Vec<Vec<u32>>,
    count: Vec<Vec<u32>>,
    inlist: Vec<Vec<bool>>,
    work: Vec<(u32, u32)>,
}

impl Solver<'_> {
    /// The ranking a location reads its successors in, for its ranking `c`.
    fn reads(&self, u: usize, c: usize) -> usize {
        if self.g.kind[u] == Loc::Round && (self.g.q_marks[u] >> c) & 1 == 1 {
            (c + 1) % self.k
        } else {
            c
        }
    }

    /// `incr^c_u(b)` for a round location.
    fn incr(&self, u: usize, c: usize, b: u32) -> u32 {
        if (self.g.q_marks[u] >> c) & 1 == 1 {
            return if b == INF { INF } else { 0 };
        }
        if b == INF {
            return INF;
        }
        let i = (b as usize) % self.k;
        if (self.g.p_marks[u] >> i) & 1 == 1 {
            if b >= self.maxv[c] {
                INF
            } else {
                b + 1
            }
        } else {
            b
        }
    }

    /// Minimum over a duplicator location's successors (told values) and how many attain it.
    fn scan_min(&self, u: usize, c: usize) -> (u32, u32) {
        let mut b = INF;
        let mut cnt = 0;
        for &w in &self.g.succ[u] {
            let v = self.told[c][w as usize];
            if v < b {
                b = v;
                cnt = 1;
            } else if v == b {
                cnt += 1;
            }
        }
        (b, cnt)
    }

    fn candidate(&self, u: usize, c: usize) -> u32 {
        match self.g.kind[u] {
            Loc::Spoiler => self.g.succ[u]
                .iter()
                .map(|&w| self.told[c][w as usize])
                .max()
                .unwrap_or(0),
            Loc::Duplicator => self.best[c][u],
            Loc::Round => {
                let rc = self.reads(u, c);
                let w = self.g.succ[u][0] as usize;
                self.incr(u, c, self.told[rc][w])
            }
        }
    }

    fn raise(&mut self, u: usize, c: usize, v: u32) {
        if v > self.r[c][u] {
            self.r[c][u] = v;
            if !self.inlist[c][u] {
                self.inlist[c][u] = true;
                self.work.push((u as u32, c as u32));
            }
        }
    }

    fn run(&mut self) {
        while let Some((w, j)) = self.work.pop() {
            let (w, j) = (w as usize, j as usize);
            self.inlist[j][w] = false;
            let old = self.told[j][w];
            let new = self.r[j][w];
            if old == new {
                continue;
            }
            self.told[j][w] = new;
            for pi in 0..self.g.pred[w].len() {
                let u = self.g.pred[w][pi] as usize;
                match self.g.kind[u] {
                    Loc::Spoiler => self.raise(u, j, new),
                    Loc::Duplicator => {
                        if old == self.best[j][u] {
                            self.count[j][u] -= 1;
                            if self.count[j][u] == 0 {
                                let (b, cnt) = self.scan_min(u, j);
                                self.best[j][u] = b;
                                self.count[j][u] = cnt;
                                self.raise(u, j, b);
                            }
                        }
                    }
                    Loc::Round => {
                        for c in 0..self.k {
                            if self.reads(u, c) == j {
                                let v = self.candidate(u, c);
                                self.raise(u, c, v);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Solves the fair-simulation game by lifting from the given ranks of the spoiler locations
/// (`None`: from `(0, 1)` everywhere). Restarting from the ranks of a game with fewer spoiler
/// moves or more duplicator moves is sound (the paper's Lemma 1: those ranks are below the least
/// good ranking of the modified game); the other locations restart from `(0, 1)`.
pub fn solve(g: &Game, start: Option<&[Vec<u32>]>) -> FairRanks {
    let k = g.k;
    let nl = g.num_locs();
    let nn = g.n * g.n;
    // |j| = max_i |P_i − Q_j|. A round location has a single successor (a spoiler location), so
    // a simple path meets no more rounds of `P_i − Q_j` than distinct successors of such rounds:
    // those are counted (never more than the rounds themselves).
    let maxv: Vec<u32> = (0..k)
        .map(|j| {
            let mut cnt = vec![0u64; k];
            let mut seen = vec![0u64; nn];
            for u in 0..nl {
                if g.kind[u] == Loc::Round && (g.q_marks[u] >> j) & 1 == 0 {
                    let t = g.succ[u][0] as usize;
                    for (i, c) in cnt.iter_mut().enumerate() {
                        if (g.p_marks[u] >> i) & 1 == 1 && (seen[t] >> i) & 1 == 0 {
                            seen[t] |= 1 << i;
                            *c += 1;
                        }
                    }
                }
            }
            let bound = cnt.into_iter().max().unwrap_or(0);
            let v = (bound + 1) * k as u64 - 1;
            v.min(INF as u64 - 1) as u32
        })
        .collect();
    let mut r = vec![vec![0u32; nl]; k];
    if let Some(s) = start {
        for j in 0..k {
            r[j][..nn].copy_from_slice(&s[j][..nn]);
        }
    }
    let mut s = Solver {
        g,
        k,
        maxv,
        told: r.clone(),
        r,
        best: vec![vec![INF; nl]; k],
        count: vec![vec![0; nl]; k],
        inlist: vec![vec![false; nl]; k],
        work: Vec::new(),
    };
    for c in 0..k {
        for u in 0..nl {
            if g.kind[u] == Loc::Duplicator {
                let (b, cnt) = s.scan_min(u, c);
                s.best[c][u] = b;
                s.count[c][u] = cnt;
            }
        }
    }
    for c in 0..k {
        for u in 0..nl {
            let v = s.candidate(u, c);
            s.raise(u, c, v);
        }
    }
    s.run();
    FairRanks { r: s.r }
}

/// The fair-simulation preorder of an automaton (`sim[p * n + q]` iff `q` fair-simulates `p`),
/// or `None` when the game is too large to build.
pub fn fair_simulation(aut: &crate::Twa) -> Option<Vec<bool>> {
    let g = Game::build(aut, aut).ok()?;
    let ranks = solve(&g, None);
    let n = g.n;
    Some(
        (0..n * n)
            .map(|i| ranks.simulates(&g, i / n, i % n))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use crate::sim_game::tests::{hoa, sample};

    #[test]
    fn fair_relation_on_sample() {
        let a = sample();
        let s = super::fair_simulation(&a).unwrap();
        let n = 6;
        let sim = |p: usize, q: usize| s[p * n + q];
        for p in 0..n {
            assert!(sim(p, p), "reflexive at {p}");
        }
        assert!(sim(1, 0), "0 simulates the rejecting loop");
        assert!(
            !sim(0, 1),
            "a rejecting loop does not fair-simulate an accepting one"
        );
        // 2 has an empty language with an accepting first step: everything fair-simulates it.
        assert!(sim(2, 3) && sim(2, 1));
        // The alternating 4/5 cycle is fair-equivalent to the accepting loop.
        assert!(sim(0, 4) && sim(4, 0) && sim(0, 5) && sim(5, 0));
        assert!(!sim(4, 1) && !sim(0, 3));
    }

    #[test]
    fn generalized_needs_every_set() {
        // 0 loops with both marks; 1 alternates {0} and {1}; 2 only ever sees mark 0.
        let a = hoa(
            "State: 0\n[t] 0 {0 1}\nState: 1\n[t] 3 {0}\nState: 2\n[t] 2 {0}\nState: 3\n[t] 1 {1}\n",
            4,
            "2 Inf(0)&Inf(1)",
        );
        let s = super::fair_simulation(&a).unwrap();
        let sim = |p: usize, q: usize| s[p * 4 + q];
        assert!(sim(0, 1) && sim(1, 0));
        assert!(!sim(0, 2), "mark 1 never seen by 2");
        assert!(sim(2, 0) && sim(2, 1), "2 has an empty language");
    }

    #[test]
    fn letters_must_match() {
        // 0: a-loop accepting; 1: !a-loop accepting; 2: true loop accepting.
        let a = hoa(
            "State: 0\n[0] 0 {0}\nState: 1\n[!0] 1 {0}\nState: 2\n[t] 2 {0}\n",
            3,
            "1 Inf(0)",
        );
        let s = super::fair_simulation(&a).unwrap();
        let sim = |p: usize, q: usize| s[p * 3 + q];
        assert!(sim(0, 2) && sim(1, 2));
        assert!(!sim(2, 0) && !sim(0, 1) && !sim(1, 0));
    }
}
