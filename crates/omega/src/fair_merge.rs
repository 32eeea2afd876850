//! Checked fair-simulation merges: states that fair-simulate each other are merged when the
//! merged automaton is still fair-simulated by the original at the initial states; one merge
//! loop, the game solved by rank lifting ([`crate::fair_sim`], generalized Büchi, each check
//! within a work budget) or by Zielonka's algorithm ([`crate::zielonka`], one acceptance set,
//! exact), as [`GameSolver`] says.
//!
//! Paper: S. Juvekar, N. Piterman, "Minimizing Generalized Büchi Automata", CAV 2006, §4.1
//! (merging `N(t ← s)` as the edge addition `add(N, Δ)`, Theorems 6 and 7) and §4.2 (a merge is
//! kept only if the two automata are still fair-simulation equivalent, checked by re-lifting
//! from the previous ranks, Lemma 1).
//!
//! A merge of `s` and `t` is tried as the automaton `M` in which both get the union of their
//! incoming and outgoing edges (`L(M) ⊇ L(N)`), and it is kept only if every initial state of
//! `M` is fair-simulated by an initial state of `N` (so `L(M) ⊆ L(N)`); the states of a merged
//! group then have identical edges and the quotient has `M`'s language (Theorem 7).
//!
//! The checks run on one game `G_{S, N}` where `S` has, for every candidate group, every edge a
//! merge could add (the saturation over the transitive closure of the candidate pairs); moves
//! not yet added are disabled, and a merge enables exactly the moves it adds. With rank lifting,
//! lifting continues from the current ranks and a rejected merge is rolled back from the
//! lifter's undo log; with Zielonka's algorithm, what the spoiler wins in a kept merge's game
//! stays won in every later game (merges only add spoiler moves), so later solves stop there.
//! Either way no game is rebuilt per candidate. The caller's [`Budget`] is polled between
//! candidates: when it runs out, the merges kept so far are applied.

use crate::fair_sim::{self, Bound, Lifter, MAX_CANDIDATES};
use crate::quotient::quotient;
use crate::sim_game::{Game, GameSolver};
use crate::twa::{Edge, Marks, Twa};
use crate::zielonka::Solver;
use std::collections::HashMap;
use verikit_diag::Budget;

/// Counters of one run of [`merges`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct MergeStats {
    pub tried: usize,
    pub kept: usize,
    /// Rank lifts done (rank lifting only).
    pub lifts: u64,
    /// Candidates left untried or given up because of the work budgets (or the caller's budget).
    pub over_budget: usize,
    /// False when the saturated game was too large (no merge tried).
    pub applied: bool,
}

/// Checked fair merges of `aut`, the games solved by `solver` ([`GameSolver::Zielonka`] needs at
/// most one acceptance set). `None` when the game of `aut` against itself is too large (or the
/// budget ran out while solving it); otherwise the merged automaton (language-equivalent) and
/// the counters. `None` as well for an acceptance that is not generalized Büchi (the game refuses
/// it).
pub(crate) fn merges(aut: &Twa, solver: GameSolver, budget: &Budget) -> Option<(Twa, MergeStats)> {
    let mut st = MergeStats {
        applied: true,
        ..MergeStats::default()
    };
    let n = aut.num_states();
    let g0 = Game::build(aut, aut).ok()?;
    // The fair-simulation relation of N, from the game G_{N,N}.
    let cands = match solver {
        GameSolver::RankLifting => {
            let l0 = Lifter::with_budget(g0, Bound::Successors, &[], budget);
            st.lifts += l0.lifts;
            if l0.exhausted() {
                return None;
            }
            mutual_pairs(n, |p, q| l0.simulates(p, q))
        }
        GameSolver::Zielonka => {
            let mut z0 = Solver::new(&g0);
            z0.solve_all();
            mutual_pairs(n, |p, q| z0.simulates(p, q))
        }
    };
    if cands.is_empty() {
        return Some((aut.clone(), st));
    }
    let Some(Saturated {
        game,
        extras,
        disabled,
        by_state,
    }) = saturated_game(aut, &cands)
    else {
        st.applied = false;
        return Some((aut.clone(), st));
    };
    let mut checks: Box<dyn Checks> = match solver {
        GameSolver::RankLifting => {
            Box::new(LiftChecks::new(game, &disabled, &aut.init, budget, &mut st))
        }
        GameSolver::Zielonka => Box::new(ParityChecks::new(game, &disabled, &aut.init)),
    };
    let mut group: Vec<u32> = (0..n as u32).collect();
    let mut members: Vec<Vec<u32>> = (0..n as u32).map(|s| vec![s]).collect();
    let mut enabled = vec![false; extras.len()];
    let nc = cands.len();
    for (ci, (p, q)) in cands.into_iter().enumerate() {
        let (gp, gq) = (group[p as usize], group[q as usize]);
        if gp == gq {
            continue;
        }
        if !checks.phase_left() || budget.check().is_err() {
            st.over_budget += nc - ci;
            break;
        }
        st.tried += 1;
        let (tg, newly, dups) = trial_merge(
            &group,
            &members,
            (gp, gq),
            &by_state,
            &extras,
            &mut enabled,
            &checks.game().edge_dups,
        );
        if checks.try_enable(&dups, &mut st) {
            checks.keep();
            st.kept += 1;
            group = tg;
            let moved = std::mem::take(&mut members[gq as usize]);
            members[gp as usize].extend(moved);
        } else {
            checks.undo(&dups);
            for i in newly {
                enabled[i] = false;
            }
        }
    }
    checks.finish(&mut st);
    Some((merge_groups(aut, &group, &members), st))
}

/// The checks of one merge phase on the saturated game, by one solver.
trait Checks {
    fn game(&self) -> &Game;
    /// False once the phase's own work budget is spent (the remaining candidates are not tried).
    fn phase_left(&self) -> bool;
    /// Enables the spoiler moves whose duplicator locations are `dups`; true iff every initial
    /// state is still fair-simulated by an initial state.
    fn try_enable(&mut self, dups: &[u32], st: &mut MergeStats) -> bool;
    /// Keeps the last trial.
    fn keep(&mut self);
    /// Undoes the last trial (whose moves were `dups`).
    fn undo(&mut self, dups: &[u32]);
    fn finish(&mut self, st: &mut MergeStats);
}

/// Rank lifting: each trial re-lifts from the current ranks within a work budget and is rolled
/// back from the undo log when rejected.
struct LiftChecks {
    lf: Lifter,
    init: Vec<u32>,
    trial: u64,
    phase: u64,
    lifts0: u64,
}

impl LiftChecks {
    fn new(
        game: Game,
        disabled: &[u32],
        init: &[u32],
        budget: &Budget,
        st: &mut MergeStats,
    ) -> LiftChecks {
        let mut lf = Lifter::with_budget(game, Bound::Successors, disabled, budget);
        st.lifts += lf.lifts;
        lf.watch(&fair_sim::init_rows(init));
        let (trial, phase) = fair_sim::trial_budgets(&lf);
        let lifts0 = lf.lifts;
        LiftChecks {
            lf,
            init: init.to_vec(),
            trial,
            phase,
            lifts0,
        }
    }
}

impl Checks for LiftChecks {
    fn game(&self) -> &Game {
        self.lf.game()
    }
    fn phase_left(&self) -> bool {
        self.lf.lifts - self.lifts0 <= self.phase && !self.lf.exhausted()
    }
    fn try_enable(&mut self, dups: &[u32], st: &mut MergeStats) -> bool {
        let at = self.lf.lifts;
        self.lf.begin_limited(self.trial);
        self.lf.enable(dups);
        if self.lf.failed() && self.lf.lifts - at >= self.trial {
            st.over_budget += 1;
        }
        fair_sim::init_simulated(&self.lf, &self.init)
    }
    fn keep(&mut self) {
        self.lf.commit();
    }
    fn undo(&mut self, _dups: &[u32]) {
        self.lf.rollback();
    }
    fn finish(&mut self, st: &mut MergeStats) {
        st.lifts += self.lf.lifts - self.lifts0;
    }
}

/// Zielonka's algorithm on the game reachable from the initial pairs (exact, no work budget).
struct ParityChecks {
    game: Game,
    z: Solver,
    starts: Vec<(usize, usize)>,
    init: Vec<u32>,
}

impl ParityChecks {
    fn new(game: Game, disabled: &[u32], init: &[u32]) -> ParityChecks {
        let mut z = Solver::new(&game);
        z.set_dead(disabled, true);
        let starts: Vec<(usize, usize)> = init
            .iter()
            .flat_map(|&i| init.iter().map(move |&j| (i as usize, j as usize)))
            .collect();
        z.solve_from(&starts, false);
        z.absorb_lost();
        ParityChecks {
            game,
            z,
            starts,
            init: init.to_vec(),
        }
    }
}

impl Checks for ParityChecks {
    fn game(&self) -> &Game {
        &self.game
    }
    fn phase_left(&self) -> bool {
        true
    }
    fn try_enable(&mut self, dups: &[u32], _st: &mut MergeStats) -> bool {
        self.z.set_dead(dups, false);
        self.z.solve_from(&self.starts, true);
        self.init.iter().all(|&i| {
            self.init
                .iter()
                .any(|&j| self.z.simulates(i as usize, j as usize))
        })
    }
    fn keep(&mut self) {
        self.z.absorb_lost();
    }
    fn undo(&mut self, dups: &[u32]) {
        self.z.set_dead(dups, true);
    }
    fn finish(&mut self, _st: &mut MergeStats) {}
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
                            let l: &mut Edge = &mut new[i];
                            l.label = l.label.or(&e.label);
                        }
                        None => {
                            seen.insert((d, e.marks), new.len());
                            new.push(Edge {
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

/// The automaton with the accepted merges applied: groups renumbered, and the quotient taken of
/// the saturated automaton (whose members of one group have identical edges).
fn merge_groups(aut: &Twa, group: &[u32], members: &[Vec<u32>]) -> Twa {
    let n = aut.num_states();
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
    let sat = saturate(aut, group, members);
    let mut q = quotient(&sat, &class, nc as usize);
    if aut.state_based {
        q.state_based = q.compute_state_based();
    }
    q
}

fn find(uf: &mut [u32], x: u32) -> u32 {
    let mut r = x;
    while uf[r as usize] != r {
        r = uf[r as usize];
    }
    let mut y = x;
    while uf[y as usize] != r {
        let next = uf[y as usize];
        uf[y as usize] = r;
        y = next;
    }
    r
}

/// An edge of the saturated spoiler automaton: state `s` copies edge `e` of `m`, retargeted to
/// `d` (a member of the class of `e`'s target).
#[derive(Clone, Copy)]
struct Extra {
    s: u32,
    idx: u32,
    m: u32,
    e_dst: u32,
    d: u32,
}

/// The game of a saturated spoiler automaton against the automaton, with the extra edges'
/// moves disabled (`disabled`) until a merge enables them, and the extra edges by the states
/// whose group decides whether they are kept (`by_state`).
struct Saturated {
    game: Game,
    extras: Vec<Extra>,
    disabled: Vec<u32>,
    by_state: Vec<Vec<usize>>,
}

/// `None` when the saturated game is over the budget (then no merges; the removals are still
/// tried).
fn saturated_game(aut: &Twa, cands: &[(u32, u32)]) -> Option<Saturated> {
    let (sat, extras) = saturated_by_classes(aut, cands);
    let game = Game::build(&sat, aut).ok()?;
    let disabled = extras
        .iter()
        .flat_map(|x| game.edge_dups[x.s as usize][x.idx as usize].iter().copied())
        .collect();
    let by_state = extras_by_state(&extras, aut.num_states());
    Some(Saturated {
        game,
        extras,
        disabled,
        by_state,
    })
}

/// The saturated spoiler automaton of candidate pairs: classes are the transitive closure of the
/// pairs, and every state `s` gets, besides its own edges, the edges of every class mate `m`
/// retargeted to every class mate of their target (the added edges listed as `Extra`s).
fn saturated_by_classes(aut: &Twa, cands: &[(u32, u32)]) -> (Twa, Vec<Extra>) {
    let n = aut.num_states();
    let mut uf: Vec<u32> = (0..n as u32).collect();
    for &(p, q) in cands {
        let (a, b) = (find(&mut uf, p), find(&mut uf, q));
        uf[a.max(b) as usize] = a.min(b);
    }
    let cls: Vec<u32> = (0..n as u32).map(|s| find(&mut uf, s)).collect();
    let mut mates: Vec<Vec<u32>> = vec![Vec::new(); n];
    for s in 0..n as u32 {
        mates[cls[s as usize] as usize].push(s);
    }
    let mut sat = aut.clone();
    let mut extras: Vec<Extra> = Vec::new();
    for s in 0..n as u32 {
        for &m in &mates[cls[s as usize] as usize] {
            for e in &aut.states[m as usize] {
                if e.label.is_false() {
                    continue;
                }
                for &d in &mates[cls[e.dst as usize] as usize] {
                    if m == s && d == e.dst {
                        continue;
                    }
                    extras.push(Extra {
                        s,
                        idx: sat.states[s as usize].len() as u32,
                        m,
                        e_dst: e.dst,
                        d,
                    });
                    sat.add_edge(s, d, e.label.clone(), e.marks);
                }
            }
        }
    }
    (sat, extras)
}

/// A trial merge of groups `gq` into `gp`: the new grouping, and the extra edges it enables (the
/// copies between members that are now in one group), with their game moves.
fn trial_merge(
    group: &[u32],
    members: &[Vec<u32>],
    (gp, gq): (u32, u32),
    by_state: &[Vec<usize>],
    extras: &[Extra],
    enabled: &mut [bool],
    edge_dups: &[Vec<Vec<u32>>],
) -> (Vec<u32>, Vec<usize>, Vec<u32>) {
    let mut tg = group.to_vec();
    for &s in &members[gq as usize] {
        tg[s as usize] = gp;
    }
    let mut newly = Vec::new();
    let mut dups = Vec::new();
    for &s in members[gp as usize].iter().chain(&members[gq as usize]) {
        for &i in &by_state[s as usize] {
            let x = extras[i];
            if !enabled[i]
                && tg[x.s as usize] == tg[x.m as usize]
                && tg[x.d as usize] == tg[x.e_dst as usize]
            {
                enabled[i] = true;
                newly.push(i);
                dups.extend_from_slice(&edge_dups[x.s as usize][x.idx as usize]);
            }
        }
    }
    (tg, newly, dups)
}

/// The merge candidates of the fair merges: the pairs `p < q` of states that simulate each other
/// (`sim(p, q)`: `q` simulates `p`), at most [`MAX_CANDIDATES`].
fn mutual_pairs(n: usize, sim: impl Fn(usize, usize) -> bool) -> Vec<(u32, u32)> {
    let mut cands = Vec::new();
    for p in 0..n {
        for q in p + 1..n {
            if sim(p, q) && sim(q, p) {
                cands.push((p as u32, q as u32));
                if cands.len() == MAX_CANDIDATES {
                    return cands;
                }
            }
        }
    }
    cands
}

/// Extra edges by the states whose group decides whether they are kept (source and target).
fn extras_by_state(extras: &[Extra], n: usize) -> Vec<Vec<usize>> {
    let mut by_state: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, x) in extras.iter().enumerate() {
        by_state[x.s as usize].push(i);
        if x.d != x.s {
            by_state[x.d as usize].push(i);
        }
    }
    by_state
}
