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
//!
//! Incremental changes (§4.1–4.2). A [`Lifter`] keeps its ranks, counters and game between
//! changes. `add(G, Δ)` is played on a game built with every spoiler move that may ever be added:
//! the duplicator locations of a move not yet added are *disabled* (held at rank `(0, 1)`, the
//! bottom, so a spoiler location's maximum ignores them) and [`Lifter::enable`] releases them to
//! their current minimum. `rem(G, Δ)` is [`Lifter::kill`]: the round locations of a removed
//! duplicator move are raised to `∞` for good, which is exactly removing them (the duplicator
//! minimises, and a duplicator location whose rounds are all gone is lost). Both only raise
//! ranks, so lifting continues from the current ranks (Lemma 1) and touches only what changes.
//! A trial ([`Lifter::begin`]) logs every overwritten value, so a rejected change is undone by
//! [`Lifter::rollback`] in time proportional to the work it caused.
//!
//! The rank bound. The paper bounds the first component by `|j| = max_i |P_i − Q_j|` (game
//! locations). [`Bound::Successors`], the default, counts instead the distinct successors of the
//! round locations in `P_i − Q_j` (a round location has exactly one successor, a spoiler
//! location, so this is at most the paper's count). It is also enough: the first component of a
//! finite rank in ranking `j` counts completed cycles `P_1, …, P_k` that the spoiler can force
//! without a visit to `Q_j`; the paper's argument (Theorem 1) is that more cycles than `|P_i −
//! Q_j|` repeat a location of `P_i − Q_j` at the same phase of the cycle, and the segment between
//! the repetitions is a loop through every `P` and no `Q_j` that the spoiler can repeat forever.
//! Two visits to rounds `u₁, u₂ ∈ P_i − Q_j` with the same successor `w`, at the same phase,
//! put the play twice at `w` at the same phase (the next one), and the play from a round is the
//! play from its successor, so the same loop exists; hence more cycles than distinct successors
//! already make the spoiler win, and capping the rank there changes no `∞` verdict. The property
//! test `bounds_agree` checks that both bounds give the same relation on random automata, and
//! lifting with the smaller bound does less work on losing locations.

use crate::sim_game::{Game, Loc};
use verikit_diag::Budget;

/// The rank `∞`.
pub(crate) const INF: u32 = u32::MAX;

/// The bound on the first component of a rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    #[cfg(test)]
    /// The paper's `max_i |P_i − Q_j|` (round locations).
    Paper,
    /// `max_i` of the number of distinct successors of the round locations in `P_i − Q_j`.
    Successors,
}

/// What a logged write overwrote.
#[derive(Clone, Copy)]
enum Field {
    R,
    Told,
    Best,
    Count,
    Disabled,
    Dead,
}

/// The rank-lifting solver of one game, kept between incremental changes.
pub(crate) struct Lifter {
    g: Game,
    k: usize,
    maxv: Vec<u32>,
    r: Vec<Vec<u32>>,
    told: Vec<Vec<u32>>,
    best: Vec<Vec<u32>>,
    count: Vec<Vec<u32>>,
    inlist: Vec<Vec<bool>>,
    /// Duplicator locations of spoiler moves not (yet) in the game.
    disabled: Vec<bool>,
    /// Round locations of removed duplicator moves.
    dead: Vec<bool>,
    work: Vec<(u32, u32)>,
    log: Option<Vec<(Field, u32, u32, u32)>>,
    /// Number of (location, ranking) lifts done so far.
    pub lifts: u64,
    /// Early stop of a trial: `watch[loc]` = row of a watched spoiler location, `alive[row]` =
    /// watched locations of the row still finite in ranking 0; the trial stops (and must be
    /// rolled back) as soon as a row has none left.
    watch: Vec<u32>,
    alive: Vec<u32>,
    failed: bool,
    /// Lift count at which the current trial gives up (counts as failed).
    limit: u64,
    /// The caller's budget, polled every [`POLL_LIFTS`] lifts.
    budget: Budget,
    /// The budget ran out: the ranks are not a fixed point (a trial fails, a first solve is
    /// unusable).
    exhausted: bool,
}

/// Lifts between two polls of the caller's budget (a power of two).
const POLL_LIFTS: u64 = 4096;

/// Largest number of merge / removal candidates checked per automaton and pass (by the checked
/// reductions of [`crate::fair_merge`] and [`crate::little_brothers`]).
pub(crate) const MAX_CANDIDATES: usize = 2000;

/// Work budget of one checked merge or removal, in lifts per game location (a trial over the
/// budget is rejected, which is sound: the automaton is left as it was).
pub(crate) const TRIAL_LIFTS_PER_LOC: u64 = 8;

/// Work budget of all the trials of one phase (merges or removals), in multiples of the lifts
/// of the initial solve (at least [`MIN_PHASE_LIFTS`]); candidates beyond it are not tried.
pub(crate) const PHASE_LIFTS_FACTOR: u64 = 32;
pub(crate) const MIN_PHASE_LIFTS: u64 = 2_000_000;

/// True if every initial state is fair-simulated by an initial state (the spoiler's and the
/// duplicator's automata have the same initial states) after a trial that did not fail.
pub(crate) fn init_simulated(l: &Lifter, init: &[u32]) -> bool {
    !l.failed()
        && init
            .iter()
            .all(|&i| init.iter().any(|&j| l.simulates(i as usize, j as usize)))
}

/// Work budgets of one trial and of one phase's trials (see [`TRIAL_LIFTS_PER_LOC`]).
pub(crate) fn trial_budgets(lf: &Lifter) -> (u64, u64) {
    let g = lf.game();
    let trial = TRIAL_LIFTS_PER_LOC * (g.num_locs() * g.k) as u64;
    let phase = (PHASE_LIFTS_FACTOR * lf.lifts).max(MIN_PHASE_LIFTS);
    (trial, phase)
}

/// The watched rows of [`init_simulated`] ([`Lifter::watch`]): for every initial state `i`, the
/// pairs `(i, j)`.
pub(crate) fn init_rows(init: &[u32]) -> Vec<Vec<(usize, usize)>> {
    init.iter()
        .map(|&i| init.iter().map(|&j| (i as usize, j as usize)).collect())
        .collect()
}

/// `max_j` bound per ranking `j`, as a rank value (`(bound + 1)·k − 1`).
fn rank_bounds(g: &Game, bound: Bound) -> Vec<u32> {
    let k = g.k;
    let nn = g.n * g.n;
    let nl = g.num_locs();
    (0..k)
        .map(|j| {
            let mut cnt = vec![0u64; k];
            let mut seen = vec![0u64; if bound == Bound::Successors { nn } else { 0 }];
            for u in 0..nl {
                if g.kind[u] == Loc::Round && (g.q_marks[u] >> j) & 1 == 0 {
                    let t = g.succ(u)[0] as usize;
                    for (i, c) in cnt.iter_mut().enumerate() {
                        if (g.p_marks[u] >> i) & 1 == 1 {
                            match bound {
                                #[cfg(test)]
                                Bound::Paper => *c += 1,
                                Bound::Successors => {
                                    if (seen[t] >> i) & 1 == 0 {
                                        seen[t] |= 1 << i;
                                        *c += 1;
                                    }
                                }
                            }
                        }
                    }
                }
            }
            let b = cnt.into_iter().max().unwrap_or(0);
            let v = (b + 1) * k as u64 - 1;
            v.min(INF as u64 - 1) as u32
        })
        .collect()
}

impl Lifter {
    #[cfg(test)]
    /// Solves `g` with the given duplicator locations disabled (spoiler moves to be added later).
    pub(crate) fn new(g: Game, bound: Bound, disabled_dups: &[u32]) -> Lifter {
        Lifter::with_budget(g, bound, disabled_dups, &Budget::unlimited())
    }

    /// [`Lifter::new`] polling `budget`: when it runs out the lifter stops, [`Lifter::exhausted`]
    /// is set, and every later trial fails.
    pub(crate) fn with_budget(
        g: Game,
        bound: Bound,
        disabled_dups: &[u32],
        budget: &Budget,
    ) -> Lifter {
        let k = g.k;
        let nl = g.num_locs();
        let mut disabled = vec![false; nl];
        for &d in disabled_dups {
            disabled[d as usize] = true;
        }
        let mut s = Lifter {
            maxv: rank_bounds(&g, bound),
            k,
            r: vec![vec![0u32; nl]; k],
            told: vec![vec![0u32; nl]; k],
            best: vec![vec![INF; nl]; k],
            count: vec![vec![0; nl]; k],
            inlist: vec![vec![false; nl]; k],
            disabled,
            dead: vec![false; nl],
            work: Vec::new(),
            log: None,
            lifts: 0,
            watch: Vec::new(),
            alive: Vec::new(),
            failed: false,
            limit: u64::MAX,
            budget: budget.clone(),
            exhausted: false,
            g,
        };
        for c in 0..k {
            for u in 0..nl {
                if s.g.kind[u] == Loc::Duplicator {
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
        s
    }

    pub(crate) fn game(&self) -> &Game {
        &self.g
    }

    /// `q` fair-simulates `p` in the current game.
    pub(crate) fn simulates(&self, p: usize, q: usize) -> bool {
        self.r[0][self.g.spoiler_loc(p, q)] != INF
    }

    fn set(&mut self, f: Field, j: usize, u: usize, v: u32) {
        let slot = match f {
            Field::R => &mut self.r[j][u],
            Field::Told => &mut self.told[j][u],
            Field::Best => &mut self.best[j][u],
            Field::Count => &mut self.count[j][u],
            Field::Disabled | Field::Dead => unreachable!("flags are set by set_flag"),
        };
        let old = *slot;
        *slot = v;
        if let Some(log) = &mut self.log {
            log.push((f, j as u32, u as u32, old));
        }
    }

    fn set_flag(&mut self, f: Field, u: usize, v: bool) {
        let slot = match f {
            Field::Disabled => &mut self.disabled[u],
            _ => &mut self.dead[u],
        };
        let old = *slot;
        *slot = v;
        if let Some(log) = &mut self.log {
            log.push((f, 0, u as u32, old as u32));
        }
    }

    /// Starts a trial: every change from now on can be undone by [`Lifter::rollback`].
    #[cfg(test)]
    pub(crate) fn begin(&mut self) {
        self.begin_limited(u64::MAX);
    }

    /// [`Lifter::begin`] with a work budget: the trial fails once it has done `max_lifts`
    /// lifts (a failed trial is rolled back, so giving up is always sound).
    pub(crate) fn begin_limited(&mut self, max_lifts: u64) {
        self.log = Some(Vec::new());
        self.failed = false;
        self.limit = self.lifts.saturating_add(max_lifts);
    }

    /// Watches rows of spoiler locations: `rows[i]` is a set of `(p, q)` pairs of which one must
    /// stay simulated (finite rank) for the trial to succeed. A trial in which every pair of
    /// some row is lost stops early ([`Lifter::failed`]).
    pub(crate) fn watch(&mut self, rows: &[Vec<(usize, usize)>]) {
        self.watch = vec![
            u32::MAX;
            if rows.is_empty() {
                0
            } else {
                self.g.num_locs()
            }
        ];
        self.alive = vec![0; rows.len()];
        for (i, row) in rows.iter().enumerate() {
            for &(p, q) in row {
                let v = self.g.spoiler_loc(p, q);
                self.watch[v] = i as u32;
                if self.r[0][v] != INF {
                    self.alive[i] += 1;
                }
            }
        }
    }

    /// True if the current trial stopped because a watched row was lost (or a budget ran out).
    pub(crate) fn failed(&self) -> bool {
        self.failed
    }

    /// True once the caller's budget ran out (the ranks are then not a fixed point).
    pub(crate) fn exhausted(&self) -> bool {
        self.exhausted
    }

    /// Keeps the changes of the trial.
    pub(crate) fn commit(&mut self) {
        self.log = None;
        self.limit = u64::MAX;
    }

    /// Undoes the changes of the trial (ranks, counters, enabled and removed moves).
    pub(crate) fn rollback(&mut self) {
        for (u, c) in std::mem::take(&mut self.work) {
            self.inlist[c as usize][u as usize] = false;
        }
        let Some(log) = self.log.take() else {
            return;
        };
        for &(f, j, u, old) in log.iter().rev() {
            let (j, u) = (j as usize, u as usize);
            match f {
                Field::R => self.r[j][u] = old,
                Field::Told => self.told[j][u] = old,
                Field::Best => self.best[j][u] = old,
                Field::Count => self.count[j][u] = old,
                Field::Disabled => self.disabled[u] = old != 0,
                Field::Dead => self.dead[u] = old != 0,
            }
        }
        self.failed = false;
        self.limit = u64::MAX;
        for a in self.alive.iter_mut() {
            *a = 0;
        }
        for v in 0..self.watch.len() {
            let row = self.watch[v];
            if row != u32::MAX && self.r[0][v] != INF {
                self.alive[row as usize] += 1;
            }
        }
    }

    /// `add(G, Δ)`: adds the spoiler moves whose duplicator locations are given, and re-lifts.
    pub(crate) fn enable(&mut self, dups: &[u32]) {
        for &d in dups {
            let d = d as usize;
            if !self.disabled[d] {
                continue;
            }
            self.set_flag(Field::Disabled, d, false);
            for c in 0..self.k {
                let b = self.best[c][d];
                self.raise(d, c, b);
            }
        }
        self.run();
    }

    /// `rem(G, Δ)`: removes the duplicator moves whose round locations are given, and re-lifts.
    pub(crate) fn kill(&mut self, rounds: &[u32]) {
        for &u in rounds {
            let u = u as usize;
            if self.dead[u] {
                continue;
            }
            self.set_flag(Field::Dead, u, true);
            for c in 0..self.k {
                self.raise(u, c, INF);
            }
        }
        self.run();
    }

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
        for &w in self.g.succ(u) {
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
            Loc::Spoiler => self
                .g
                .succ(u)
                .iter()
                .map(|&w| self.told[c][w as usize])
                .max()
                .unwrap_or(0),
            Loc::Duplicator => self.best[c][u],
            Loc::Round => {
                if self.dead[u] {
                    return INF;
                }
                let rc = self.reads(u, c);
                let w = self.g.succ(u)[0] as usize;
                self.incr(u, c, self.told[rc][w])
            }
        }
    }

    fn raise(&mut self, u: usize, c: usize, v: u32) {
        if v > self.r[c][u] && !self.disabled[u] {
            if c == 0 && v == INF {
                if let Some(&row) = self.watch.get(u) {
                    if row != u32::MAX {
                        self.alive[row as usize] -= 1;
                        if self.alive[row as usize] == 0 && self.log.is_some() {
                            self.failed = true;
                        }
                    }
                }
            }
            self.set(Field::R, c, u, v);
            if !self.inlist[c][u] {
                self.inlist[c][u] = true;
                self.work.push((u as u32, c as u32));
            }
        }
    }

    fn run(&mut self) {
        while let Some((w, j)) = self.work.pop() {
            if self.lifts & (POLL_LIFTS - 1) == 0 && !self.exhausted && self.budget.check().is_err()
            {
                self.exhausted = true;
            }
            if self.exhausted {
                self.failed = self.log.is_some();
                self.work.push((w, j));
                return;
            }
            if self.failed || (self.lifts >= self.limit && self.log.is_some()) {
                self.failed = true;
                self.work.push((w, j));
                return;
            }
            let (w, j) = (w as usize, j as usize);
            self.inlist[j][w] = false;
            let old = self.told[j][w];
            let new = self.r[j][w];
            if old == new {
                continue;
            }
            self.lifts += 1;
            self.set(Field::Told, j, w, new);
            for pi in 0..self.g.pred(w).len() {
                let u = self.g.pred(w)[pi] as usize;
                match self.g.kind[u] {
                    Loc::Spoiler => self.raise(u, j, new),
                    Loc::Duplicator => {
                        if old == self.best[j][u] {
                            let c = self.count[j][u] - 1;
                            self.set(Field::Count, j, u, c);
                            if c == 0 {
                                let (b, cnt) = self.scan_min(u, j);
                                self.set(Field::Best, j, u, b);
                                self.set(Field::Count, j, u, cnt);
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

#[cfg(test)]
/// Solves the fair-simulation game from scratch.
pub(crate) fn solve(g: Game, bound: Bound) -> Lifter {
    Lifter::new(g, bound, &[])
}

#[cfg(test)]
/// The fair-simulation preorder of an automaton (`sim[p * n + q]` iff `q` fair-simulates `p`),
/// or `None` when the game is too large to build or the acceptance is not generalized Büchi.
pub(crate) fn fair_simulation(aut: &crate::Twa) -> Option<Vec<bool>> {
    fair_simulation_with(aut, Bound::Successors)
}

#[cfg(test)]
/// [`fair_simulation`] with a chosen rank bound.
pub(crate) fn fair_simulation_with(aut: &crate::Twa, bound: Bound) -> Option<Vec<bool>> {
    let g = Game::build(aut, aut).ok()?;
    let n = g.n;
    let l = solve(g, bound);
    Some((0..n * n).map(|i| l.simulates(i / n, i % n)).collect())
}

#[cfg(test)]
pub(crate) mod tests {
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

    use crate::twa::Twa;
    use proptest::prelude::*;

    /// A random automaton: `n` states, one or two APs, `k` acceptance sets, edges from a list of
    /// `(src, dst, label code, marks)`.
    pub(crate) fn random_aut(n: usize, k: u32, edges: &[(usize, usize, u8, u64)]) -> Twa {
        let mut a = Twa::new(vec!["a".into(), "b".into()]);
        a.num_sets = k;
        for _ in 0..n {
            a.add_state();
        }
        a.init = vec![0];
        for &(s, d, l, m) in edges {
            let label = match l % 5 {
                0 => a.tt(),
                1 => a.ap_var(0),
                2 => a.ap_var(0).not(),
                3 => a.ap_var(1),
                _ => a.ap_var(0).and(&a.ap_var(1).not()),
            };
            a.add_edge((s % n) as u32, (d % n) as u32, label, m & a.all_marks());
        }
        a
    }

    type Edges = Vec<(usize, usize, u8, u64)>;

    fn edges_strategy() -> impl Strategy<Value = (usize, u32, Edges)> {
        (1usize..6, 1u32..4).prop_flat_map(|(n, k)| {
            (
                Just(n),
                Just(k),
                proptest::collection::vec((0..n, 0..n, 0u8..5, 0u64..8), 1..14),
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The paper's rank bound and the distinct-successor bound give the same relation.
        #[test]
        fn bounds_agree((n, k, edges) in edges_strategy()) {
            let a = random_aut(n, k, &edges);
            let p = super::fair_simulation_with(&a, super::Bound::Paper).unwrap();
            let s = super::fair_simulation_with(&a, super::Bound::Successors).unwrap();
            prop_assert_eq!(p, s);
        }

        /// Killing a duplicator edge's rounds, then rolling back or not, gives the relation of
        /// the game built from scratch without the edge (resp. with it).
        #[test]
        fn kill_matches_rebuild((n, k, edges) in edges_strategy(), pick in 0usize..100, keep in any::<bool>()) {
            let a = random_aut(n, k, &edges);
            let g = crate::sim_game::Game::build(&a, &a).unwrap();
            let mut l = super::solve(g, super::Bound::Successors);
            let s = pick % n;
            prop_assume!(!a.states[s].is_empty());
            let i = pick % a.states[s].len();
            let mut b = a.clone();
            b.states[s][i].label = b.ff();
            let rounds = l.game().dup_rounds[s][i].clone();
            l.begin();
            l.kill(&rounds);
            let fresh = super::solve(crate::sim_game::Game::build(&a, &b).unwrap(), super::Bound::Successors);
            for p in 0..n {
                for q in 0..n {
                    prop_assert_eq!(l.simulates(p, q), fresh.simulates(p, q));
                }
            }
            let before = super::fair_simulation(&a).unwrap();
            if keep { l.commit() } else { l.rollback() }
            if !keep {
                for p in 0..n {
                    for q in 0..n {
                        prop_assert_eq!(l.simulates(p, q), before[p * n + q]);
                    }
                }
            }
        }

        /// Enabling disabled spoiler moves gives the relation of the game built with them.
        #[test]
        fn enable_matches_rebuild((n, k, edges) in edges_strategy(), split in 0usize..14) {
            let a = random_aut(n, k, &edges);
            let base = random_aut(n, k, &edges[..split.min(edges.len())]);
            // Spoiler automaton = all edges; the last ones start disabled.
            let g = crate::sim_game::Game::build(&a, &base).unwrap();
            let mut disabled = Vec::new();
            let mut count = vec![0usize; n];
            for &(src, _, _, _) in &edges[..split.min(edges.len())] {
                count[src % n] += 1;
            }
            for (s, &c) in count.iter().enumerate() {
                for i in c..a.states[s].len() {
                    disabled.extend_from_slice(&g.edge_dups[s][i]);
                }
            }
            let mut l = super::Lifter::new(g, super::Bound::Successors, &disabled);
            let fresh0 = super::solve(crate::sim_game::Game::build(&base, &base).unwrap(), super::Bound::Successors);
            for p in 0..n {
                for q in 0..n {
                    prop_assert_eq!(l.simulates(p, q), fresh0.simulates(p, q));
                }
            }
            l.begin();
            l.enable(&disabled);
            let fresh = super::solve(crate::sim_game::Game::build(&a, &base).unwrap(), super::Bound::Successors);
            for p in 0..n {
                for q in 0..n {
                    prop_assert_eq!(l.simulates(p, q), fresh.simulates(p, q));
                }
            }
        }
    }
}
