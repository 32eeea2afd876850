//! Fair-simulation "little brother" edge removals, every removal checked, the games solved as
//! [`GameSolver`] says: on Büchi automata (one acceptance set, state- or transition-based) by
//! Zielonka's algorithm, exactly, candidates taken in batches by a galloping search; on
//! generalized Büchi automata by rank lifting ([`crate::fair_sim`]), one candidate at a time,
//! each check re-lifting from the current ranks within a work budget (a check over it rejects
//! the candidate, which is sound) and rolled back from the lifter's undo log when rejected.
//!
//! Paper: S. Juvekar, N. Piterman, "Minimizing Generalized Büchi Automata", CAV 2006, §4.2 (after
//! Gurumurthy–Bloem–Somenzi: an edge `s → t` is a little brother when `s` has other edges, on the
//! same letters, to states fair-simulating `t`; removing little brothers is not sound in general,
//! so a removal is kept only if the automaton without the edge still fair-simulates the original
//! at the initial states, checked on the game `rem(G, Δ)`). The game is the one of
//! [`crate::sim_game`] (the spoiler plays the original automaton, the duplicator the automaton
//! without the removed edges, whose round locations are dead); it is solved by
//! [`crate::zielonka`].
//!
//! Candidates ([`candidates`], both solvers). The candidates are computed once from the
//! fair-simulation relation of the original automaton: edge `e` of `s` whose label is covered by
//! the labels of the other edges of `s` leading to states that fair-simulate `e`'s target (the
//! paper's little brother is the case of one covering edge).
//!
//! Batches (Zielonka). Taken one at a time in order, a candidate is kept iff removing it together with the
//! candidates kept before still passes the check. Removing more duplicator moves can only make the
//! duplicator lose more (the check is monotone in the set of removed edges), so the first
//! candidate the one-at-a-time order would reject is the first `j` for which removing the kept
//! ones and the candidates `c_i..c_j` fails; a galloping search (all remaining candidates first,
//! then prefixes of length 1, 2, 4, …, then bisection) finds it with `O(log m)` checks, and the
//! candidates before it are all kept. The result is the one-at-a-time result, at the cost of a
//! few checks per rejected candidate instead of one check per candidate.
//!
//! Cost (Zielonka). The relation is computed once on the whole game; the checks then run on the compact
//! copy of the duplicator's winning part reachable from the initial pairs
//! ([`crate::zielonka::Solver::restrict`]: removing duplicator moves only shrinks that region).
//! What the spoiler wins in a passing check stays won in every later check (each later check
//! removes at least the same edges), so later solves stop there; a failing check stops as soon
//! as the initial pair is lost. A check is first tried with the duplicator's strategy of the last
//! passing check: if no location it reaches uses a newly removed edge, the same plays are
//! possible and the check passes without a solve. The game has `O(m·n)` locations for `n` states
//! and `m` edges; [`reduce`] returns `None` (nothing done) above a caller-given location budget.
//!
//! The caller's [`Budget`] is polled between checks; when it runs out, the removals decided so far
//! are applied (each was checked, so the language is kept).

use crate::fair_sim::{self, Bound, Lifter, MAX_CANDIDATES};
use crate::prune::trim;
use crate::sim_game::{Game, GameSolver};
use crate::twa::Twa;
use crate::zielonka::Solver;
use verikit_diag::Budget;

/// Counters of one run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct LbStats {
    pub candidates: usize,
    /// Candidates checked (all of them unless a budget ran out).
    pub tried: usize,
    pub kept: usize,
    /// Rank lifts done (rank lifting only).
    pub lifts: u64,
    /// Candidates left untried or given up because of the work budgets (or the caller's budget).
    pub over_budget: usize,
    /// Games solved (one per checked batch).
    pub checks: usize,
    /// Checks decided by the duplicator's strategy of an earlier check (no solve).
    pub by_strategy: usize,
    /// Attractor computations of those solves.
    pub attractors: u64,
    /// Locations of the game.
    pub locs: usize,
    /// Locations explored by the solves.
    pub explored: u64,
}

/// Removes checked fair-simulation little brothers from `aut`, the games solved by `solver`.
/// `None` (nothing done) if the automaton has acceptance `f`, if its game is too large (with
/// Zielonka's algorithm: more than `max_locs` locations, estimated before building, then
/// checked), if Zielonka's algorithm is asked for more than one acceptance set or no initial
/// state, or if `budget` ran out while solving the first game. The result has the same language
/// and the same states (unreachable ones trimmed); it stays state-based if `aut` was.
pub(crate) fn reduce(
    aut: &Twa,
    solver: GameSolver,
    max_locs: usize,
    budget: &Budget,
) -> Option<(Twa, LbStats)> {
    if aut.acc_false {
        return None;
    }
    match solver {
        GameSolver::Zielonka => by_batches(aut, max_locs, budget),
        GameSolver::RankLifting => one_at_a_time(aut, budget),
    }
}

/// The candidates (see the module documentation), in state and edge order, at most `max`.
/// `sim(p, q)`: `q` fair-simulates `p` in the original automaton.
fn candidates(aut: &Twa, sim: impl Fn(usize, usize) -> bool, max: usize) -> Vec<(usize, usize)> {
    let mut cands: Vec<(usize, usize)> = Vec::new();
    for (s, es) in aut.states.iter().enumerate() {
        for (i, e) in es.iter().enumerate() {
            if e.label.is_false() {
                continue;
            }
            let mut cover = aut.ff();
            for (j, f) in es.iter().enumerate() {
                if i != j && !f.label.is_false() && sim(e.dst as usize, f.dst as usize) {
                    cover = cover.or(&f.label);
                }
            }
            if e.label.and_not(&cover).is_false() {
                cands.push((s, i));
                if cands.len() == max {
                    return cands;
                }
            }
        }
    }
    cands
}

/// `aut` without the candidate edges marked in `keep`, trimmed.
fn remove(aut: &Twa, cands: &[(usize, usize)], keep: &[bool], st: &mut LbStats) -> Twa {
    let mut out = aut.clone();
    for (c, &(s, i)) in cands.iter().enumerate() {
        if keep[c] {
            st.kept += 1;
            out.states[s][i].label = out.ff();
        }
    }
    if st.kept == 0 {
        return aut.clone();
    }
    trim(&out)
}

/// Rank lifting: the candidates (at most [`MAX_CANDIDATES`]) one at a time on the game
/// `G_{N, N}`; a removal kills exactly the round locations of the removed edge
/// ([`Lifter::kill`]), is checked within a work budget and kept or rolled back.
fn one_at_a_time(aut: &Twa, budget: &Budget) -> Option<(Twa, LbStats)> {
    let mut st = LbStats::default();
    let g = Game::build(aut, aut).ok()?;
    st.locs = g.num_locs();
    let mut lf = Lifter::with_budget(g, Bound::Successors, &[], budget);
    lf.watch(&fair_sim::init_rows(&aut.init));
    st.lifts += lf.lifts;
    if lf.exhausted() {
        return None;
    }
    let cands = candidates(aut, |p, q| lf.simulates(p, q), MAX_CANDIDATES);
    st.candidates = cands.len();
    let mut keep = vec![false; cands.len()];
    let lifts0 = lf.lifts;
    let (trial_budget, phase_budget) = fair_sim::trial_budgets(&lf);
    let nc = cands.len();
    for (ci, &(s, i)) in cands.iter().enumerate() {
        if lf.lifts - lifts0 > phase_budget || lf.exhausted() || budget.check().is_err() {
            st.over_budget += nc - ci;
            break;
        }
        st.tried += 1;
        st.checks += 1;
        let rounds = lf.game().dup_rounds[s][i].clone();
        let at = lf.lifts;
        lf.begin_limited(trial_budget);
        lf.kill(&rounds);
        if lf.failed() && lf.lifts - at >= trial_budget {
            st.over_budget += 1;
        }
        if fair_sim::init_simulated(&lf, &aut.init) {
            lf.commit();
            keep[ci] = true;
        } else {
            lf.rollback();
        }
    }
    st.lifts += lf.lifts - lifts0;
    let r = remove(aut, &cands, &keep, &mut st);
    Some((r, st))
}

/// Zielonka's algorithm: the candidates in batches found by the galloping search of the module
/// documentation, on the restricted game.
fn by_batches(aut: &Twa, max_locs: usize, budget: &Budget) -> Option<(Twa, LbStats)> {
    if aut.num_sets > 1 || aut.init.is_empty() {
        return None;
    }
    let n = aut.num_states();
    let m = aut.num_edges();
    // Spoiler locations, plus at least one duplicator and one round location per (edge, state).
    if n * n + 2 * m * n > max_locs || !Game::build_ok(aut) {
        return None;
    }
    let g = Game::build(aut, aut).ok()?;
    if g.num_locs() > max_locs {
        return None;
    }
    let mut st = LbStats {
        locs: g.num_locs(),
        ..LbStats::default()
    };
    let mut z = Solver::new(&g);
    z.solve_all();
    // Candidates from the relation of the original automaton.
    let mut cands = candidates(aut, |p, q| z.simulates(p, q), usize::MAX);
    // Candidates whose cover does not rely on edges placed for removal before them come first
    // (removing all of them at once often passes the check); the others follow.
    let mut removed: Vec<Vec<bool>> = aut.states.iter().map(|es| vec![false; es.len()]).collect();
    let (mut first, mut later) = (Vec::new(), Vec::new());
    for &(s, i) in &cands {
        let es = &aut.states[s];
        let e = &es[i];
        let mut cover = aut.ff();
        for (j, f) in es.iter().enumerate() {
            if i != j
                && !removed[s][j]
                && !f.label.is_false()
                && z.simulates(e.dst as usize, f.dst as usize)
            {
                cover = cover.or(&f.label);
            }
        }
        if e.label.and_not(&cover).is_false() {
            removed[s][i] = true;
            first.push((s, i));
        } else {
            later.push((s, i));
        }
    }
    let bounds = [first.len()];
    cands = first;
    cands.extend(later);
    st.candidates = cands.len();
    st.tried = cands.len();
    let starts: Vec<(usize, usize)> = aut
        .init
        .iter()
        .flat_map(|&i| aut.init.iter().map(move |&j| (i as usize, j as usize)))
        .collect();
    let init = aut.init.clone();
    // Every later game has fewer duplicator moves: what the spoiler wins now stays won, so the
    // checks only need the duplicator's winning part reachable from the initial pairs.
    let mut z = z.restrict(&starts);
    // The game without removals, solved once for the duplicator's strategy.
    z.solve_from(&starts, false);
    z.absorb_lost();
    // The check of "kept ∪ cands[a..b]": every initial state is simulated by an initial state.
    let check = |z: &mut Solver, a: usize, b: usize, st: &mut LbStats| -> bool {
        for &(s, i) in &cands[a..b] {
            z.set_dead(&g.dup_rounds[s][i], true);
        }
        st.checks += 1;
        // With one initial state, the duplicator's strategy of the last passing check often
        // still wins (it does not use the newly removed edges): no solve needed.
        let ok = if init.len() == 1 && z.strategy_still_wins(&starts) {
            st.by_strategy += 1;
            true
        } else {
            z.solve_from(&starts, true);
            let ok = init
                .iter()
                .all(|&i| init.iter().any(|&j| z.simulates(i as usize, j as usize)));
            if ok {
                // Every later check removes at least these edges (see the module documentation).
                z.absorb_lost();
            }
            ok
        };
        for &(s, i) in &cands[a..b] {
            z.set_dead(&g.dup_rounds[s][i], false);
        }
        ok
    };
    let mut keep = vec![false; cands.len()];
    let nc = cands.len();
    let mut pos = 0;
    while pos < nc {
        if budget.check().is_err() {
            st.over_budget += nc - pos;
            st.tried -= nc - pos;
            break;
        }
        if check(&mut z, pos, nc, &mut st) {
            keep[pos..].iter_mut().for_each(|k| *k = true);
            break;
        }
        // cands[pos..lo] pass, cands[pos..hi] fail.
        let (mut lo, mut hi) = (pos, nc);
        for &b in &bounds {
            if lo < b && b < hi {
                if check(&mut z, pos, b, &mut st) {
                    lo = b;
                } else {
                    hi = b;
                }
            }
        }
        let mut step = 1;
        while lo + step < hi {
            if check(&mut z, pos, lo + step, &mut st) {
                lo += step;
                step *= 2;
            } else {
                hi = lo + step;
                break;
            }
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if check(&mut z, pos, mid, &mut st) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        // cands[lo] is the first rejected one.
        for c in pos..lo {
            keep[c] = true;
            let (s, i) = cands[c];
            z.set_dead(&g.dup_rounds[s][i], true);
        }
        pos = lo + 1;
    }
    st.attractors = z.attractors;
    st.explored = z.explored;
    let r = remove(aut, &cands, &keep, &mut st);
    Some((r, st))
}

/// [`reduce`] with Zielonka's algorithm then `simplify`, repeated while the automaton shrinks (a removal changes the
/// relation, so a new pass may find new candidates); at most [`MAX_PASSES`] passes.
pub(crate) fn reduce_passes(
    aut: &Twa,
    max_locs: usize,
    simplify: &dyn Fn(&Twa) -> Twa,
    budget: &Budget,
) -> Twa {
    let mut cur = aut.clone();
    for _ in 0..MAX_PASSES {
        if budget.check().is_err() {
            break;
        }
        let Some((r, st)) = reduce(&cur, GameSolver::Zielonka, max_locs, budget) else {
            break;
        };
        if st.kept == 0 {
            break;
        }
        let r = simplify(&r);
        if (r.num_states(), r.num_edges()) >= (cur.num_states(), cur.num_edges()) {
            break;
        }
        cur = r;
    }
    cur
}

/// Largest number of passes of [`reduce_passes`].
pub(crate) const MAX_PASSES: usize = 4;
