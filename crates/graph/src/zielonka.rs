//! Parity games on explicit graphs, solved by Zielonka's recursive algorithm.
//!
//! Paper: W. Zielonka, *Infinite games on finitely coloured graphs with applications to automata
//! on infinite trees*, Theoretical Computer Science 200 (1998), §5 (the recursive algorithm on
//! attractors); in the loop form of M. Jurdziński's and O. Friedmann–M. Lange's presentations
//! ("Solving parity games in practice", ATVA 2009, §3): the recursion on the subgame without the
//! opponent's attractor is a loop, so the depth is bounded by the number of priorities.
//!
//! Convention of the solver: players `P0` and `P1`; `P0` wins a play when the largest priority
//! seen infinitely often is even (*max even*). Games in another convention (min/max, even/odd)
//! are brought to it by [`crate::normalise_priorities`]. Every vertex must have a successor
//! ([`crate::ParityGame::new`] checks it). The solution gives both winning regions and a positional
//! winning strategy for each player on its region.

use crate::attractor::{attractor, Steps};
use crate::parity_game::{ParityGame, ParitySolution, Player};
use verikit_diag::{Budget, Exhausted};

struct Solver<'a> {
    g: &'a ParityGame,
    strategy: Vec<Option<u32>>,
    steps: Steps<'a>,
}

impl Solver<'_> {
    fn attractor(
        &mut self,
        player: Player,
        sub: &[bool],
        target: &[u32],
    ) -> Result<Vec<bool>, Exhausted> {
        attractor(
            self.g,
            player,
            sub,
            target,
            &mut self.strategy,
            &mut self.steps,
        )
    }

    /// Solves the subgame of the vertices `verts` (mask `sub`): the winning regions of `P0` and
    /// `P1`; strategies are written for the winners' own vertices.
    fn solve(
        &mut self,
        mut verts: Vec<u32>,
        mut sub: Vec<bool>,
    ) -> Result<[Vec<u32>; 2], Exhausted> {
        self.steps.check()?;
        let mut won: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
        loop {
            let Some(p) = verts.iter().map(|&v| self.g.priority(v)).max() else {
                return Ok(won);
            };
            let i = Player::of_priority(p);
            let top: Vec<u32> = verts
                .iter()
                .copied()
                .filter(|&v| self.g.priority(v) == p)
                .collect();
            let a = self.attractor(i, &sub, &top)?;
            let rest: Vec<u32> = verts.iter().copied().filter(|&v| !a[v as usize]).collect();
            let mut rest_mask = sub.clone();
            for &v in &verts {
                if a[v as usize] {
                    rest_mask[v as usize] = false;
                }
            }
            let w = self.solve(rest, rest_mask)?;
            let opp = i.opponent();
            if w[opp.index()].is_empty() {
                // `i` wins the whole subgame; its vertices of the top priority move anywhere
                // inside it.
                for &v in &top {
                    if self.g.owner(v) == i {
                        self.strategy[v as usize] = self
                            .g
                            .succ(v)
                            .iter()
                            .copied()
                            .find(|&s| sub.get(s as usize).copied().unwrap_or(false));
                    }
                }
                won[i.index()].extend(verts);
                return Ok(won);
            }
            let b = self.attractor(opp, &sub, &w[opp.index()])?;
            let mut next = Vec::with_capacity(verts.len());
            for v in verts {
                if b[v as usize] {
                    won[opp.index()].push(v);
                    sub[v as usize] = false;
                } else {
                    next.push(v);
                }
            }
            verts = next;
        }
    }
}

/// Solves `g` with Zielonka's algorithm within `budget` (polled per recursive call and every
/// 1024 attractor steps).
pub fn zielonka(g: &ParityGame, budget: &Budget) -> Result<ParitySolution, Exhausted> {
    let n = g.num_vertices();
    let mut s = Solver {
        g,
        strategy: vec![None; n],
        steps: Steps::new(budget),
    };
    let w = s.solve((0..n as u32).collect(), vec![true; n])?;
    let mut winner = vec![Player::P0; n];
    for &v in &w[1] {
        winner[v as usize] = Player::P1;
    }
    Ok(ParitySolution::new(g, winner, &s.strategy))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::normalise_priorities;
    use crate::{reachable, tarjan, Csr};
    use proptest::prelude::*;

    /// In the graph where the vertices of `fixed` follow `choice` and the others keep every
    /// edge: the vertices from which a cycle whose largest priority has the parity of `bad` is
    /// reachable, or a vertex outside `region` (`None`: no region constraint).
    fn opponent_escapes(
        g: &ParityGame,
        choice: &[Option<u32>],
        bad: Player,
        region: Option<&[bool]>,
    ) -> Vec<bool> {
        let n = g.num_vertices();
        let edges_of = |v: u32| -> Vec<u32> {
            match choice[v as usize] {
                Some(w) => vec![w],
                None => g.succ(v).to_vec(),
            }
        };
        let mut seeds: Vec<u32> = Vec::new();
        if let Some(r) = region {
            seeds.extend((0..n as u32).filter(|&v| !r[v as usize]));
        }
        let top = (0..n as u32).map(|v| g.priority(v)).max().unwrap_or(0);
        for p in (0..=top).filter(|&p| Player::of_priority(p) == bad) {
            let keep = |v: u32| g.priority(v) <= p;
            let s = tarjan(n, |v| {
                if keep(v) {
                    edges_of(v).into_iter().filter(|&w| keep(w)).collect()
                } else {
                    Vec::new()
                }
            });
            for (c, ms) in s.members.iter().enumerate() {
                let has_p = ms.iter().any(|&v| g.priority(v) == p);
                let cyc = s.is_nontrivial(c, |v| keep(v) && edges_of(v).contains(&v));
                if has_p && cyc && ms.iter().all(|&v| keep(v)) {
                    seeds.extend(ms.iter().copied());
                }
            }
        }
        // Backward reachability to the seeds.
        let mut rev = Vec::new();
        for v in 0..n as u32 {
            for w in edges_of(v) {
                rev.push((w, v));
            }
        }
        reachable(&Csr::from_edges(n, &rev), &seeds)
    }

    /// The winning region of `P0` by trying every positional strategy of `P0`.
    pub(crate) fn brute_force(g: &ParityGame) -> Vec<bool> {
        let n = g.num_vertices();
        let mine: Vec<u32> = (0..n as u32)
            .filter(|&v| g.owner(v) == Player::P0)
            .collect();
        let mut idx = vec![0usize; mine.len()];
        let mut w0 = vec![false; n];
        loop {
            let mut choice = vec![None; n];
            for (k, &v) in mine.iter().enumerate() {
                choice[v as usize] = Some(g.succ(v)[idx[k]]);
            }
            let lose = opponent_escapes(g, &choice, Player::P1, None);
            for v in 0..n {
                w0[v] |= !lose[v];
            }
            // Next strategy (odometer).
            let mut k = 0;
            loop {
                if k == mine.len() {
                    return w0;
                }
                idx[k] += 1;
                if idx[k] < g.succ(mine[k]).len() {
                    break;
                }
                idx[k] = 0;
                k += 1;
            }
        }
    }

    /// The strategy checker: each player's strategy, played from its region against every
    /// opponent move, stays in the region and wins every cycle.
    pub(crate) fn check_strategies(g: &ParityGame, s: &ParitySolution) -> Result<(), String> {
        let n = g.num_vertices();
        for me in [Player::P0, Player::P1] {
            let region: Vec<bool> = s.winner.iter().map(|&w| w == me).collect();
            let mut choice = vec![None; n];
            for v in 0..n as u32 {
                if region[v as usize] && g.owner(v) == me {
                    let m = s.strategy[v as usize]
                        .ok_or_else(|| format!("{me:?} has no move at {v}"))?;
                    if !g.succ(v).contains(&m) {
                        return Err(format!("move {v}->{m} is not an edge"));
                    }
                    choice[v as usize] = Some(m);
                }
            }
            let bad = opponent_escapes(g, &choice, me.opponent(), Some(&region));
            if let Some(v) = (0..n).find(|&v| region[v] && bad[v]) {
                return Err(format!("{me:?} loses or leaves its region from {v}"));
            }
        }
        Ok(())
    }

    pub(crate) fn game() -> impl Strategy<Value = ParityGame> {
        (1usize..8).prop_flat_map(|n| {
            (
                proptest::collection::vec(any::<bool>(), n),
                proptest::collection::vec(0u32..6, n),
                proptest::collection::vec(proptest::collection::vec(0..n as u32, 1..4), n),
            )
                .prop_map(|(o, p, s)| {
                    let owner = o
                        .into_iter()
                        .map(|b| if b { Player::P1 } else { Player::P0 })
                        .collect();
                    ParityGame::new(owner, p, s).unwrap_or_else(|e| panic!("{e}"))
                })
        })
    }

    type Solve = fn(&ParityGame, &Budget) -> Result<ParitySolution, Exhausted>;
    /// Both solvers of the kernel.
    const SOLVERS: [Solve; 2] = [zielonka, crate::priority_promotion];

    #[test]
    fn small_known_game() {
        // 0 (P0) -> 1 | 2; 1 (P1, prio 1) -> 1 self-loop; 2 (prio 2) -> 0.
        let g = ParityGame::new(
            vec![Player::P0, Player::P1, Player::P1],
            vec![0, 1, 2],
            vec![vec![1, 2], vec![1], vec![0]],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        for solve in SOLVERS {
            let s = solve(&g, &Budget::unlimited()).unwrap_or_else(|e| panic!("{e:?}"));
            assert_eq!(s.winner, vec![Player::P0, Player::P1, Player::P0]);
            assert_eq!(s.strategy[0], Some(2));
            assert!(check_strategies(&g, &s).is_ok());
        }
    }

    #[test]
    fn bad_games_are_refused() {
        assert!(ParityGame::new(vec![Player::P0], vec![0], vec![vec![]]).is_err());
        assert!(ParityGame::new(vec![Player::P0], vec![0], vec![vec![3]]).is_err());
        assert!(ParityGame::new(vec![Player::P0], vec![0, 1], vec![vec![0]]).is_err());
    }

    #[test]
    fn cancelled_budget_stops() {
        let b = Budget::unlimited();
        b.cancel();
        let g = ParityGame::new(vec![Player::P0], vec![0], vec![vec![0]])
            .unwrap_or_else(|e| panic!("{e}"));
        for solve in SOLVERS {
            assert!(solve(&g, &b).is_err());
        }
    }

    #[test]
    fn normalisation_keeps_winners() {
        // min odd: P0 wins when the smallest priority is odd.
        let p = normalise_priorities(&[0, 1, 2, 3], false, true);
        // smallest 0 (even: P1) must become the largest, odd.
        assert_eq!(p, vec![5, 4, 3, 2]);
        assert_eq!(normalise_priorities(&[0, 3], true, false), vec![0, 3]);
        assert_eq!(normalise_priorities(&[0, 3], true, true), vec![1, 4]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn zielonka_matches_brute_force_and_strategies_win(g in game()) {
            let s = zielonka(&g, &Budget::unlimited()).unwrap_or_else(|e| panic!("{e:?}"));
            let w0 = brute_force(&g);
            for (v, &w) in w0.iter().enumerate() {
                prop_assert_eq!(s.winner[v] == Player::P0, w, "vertex {}", v);
            }
            if let Err(e) = check_strategies(&g, &s) {
                prop_assert!(false, "{}", e);
            }
        }

        #[test]
        fn min_convention_via_normalisation(g in game(), odd in any::<bool>()) {
            // The same game read in the min convention: normalise, solve, compare with the
            // brute force on the normalised priorities.
            let n = g.num_vertices();
            let pr: Vec<u32> = (0..n as u32).map(|v| g.priority(v)).collect();
            let norm = normalise_priorities(&pr, false, odd);
            let h = ParityGame::new(
                (0..n as u32).map(|v| g.owner(v)).collect(),
                norm,
                (0..n as u32).map(|v| g.succ(v).to_vec()).collect(),
            ).unwrap_or_else(|e| panic!("{e}"));
            let s = zielonka(&h, &Budget::unlimited()).unwrap_or_else(|e| panic!("{e:?}"));
            // Independent min-convention oracle: P0 wins a cycle when its smallest original
            // priority has parity `odd`; flip priorities p -> top - p (+1) for the brute force.
            let top = pr.iter().copied().max().unwrap_or(0);
            let oracle = ParityGame::new(
                (0..n as u32).map(|v| g.owner(v)).collect(),
                pr.iter().map(|&p| {
                    // rank by reversed order, parity: P0-favoured iff (p odd) == odd
                    let rank = 2 * (top - p);
                    if (p % 2 == 1) == odd { rank } else { rank + 1 }
                }).collect(),
                (0..n as u32).map(|v| g.succ(v).to_vec()).collect(),
            ).unwrap_or_else(|e| panic!("{e}"));
            let w0 = brute_force(&oracle);
            for (v, &w) in w0.iter().enumerate() {
                prop_assert_eq!(s.winner[v] == Player::P0, w);
            }
        }
    }
}
