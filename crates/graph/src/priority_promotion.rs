//! Parity games solved by priority promotion.
//!
//! Paper: M. Benerecetti, D. Dell'Erba, F. Mogavero, *Solving parity games via priority
//! promotion*, CAV 2016 / Formal Methods in System Design 52 (2018), §3 (the basic algorithm
//! PP: regions, quasi dominions, the best escape priority and the promotion operation).
//!
//! A *region function* `r` assigns every vertex a priority, initially its own. Top-down over the
//! priorities `p` of `r`, the region of `p` is the attractor, for the player `α` that `p`
//! favours, of the vertices with `r(v) = p` inside the subgame of the vertices with `r(v) ≤ p`.
//! If the opponent can leave the region into that subgame (or `α` cannot stay), the region is
//! *open* and the descent goes on with the next lower priority. If it is closed there, the
//! opponent can only escape into higher regions (all of `α`'s, as the paper shows): the region is
//! *promoted* to the lowest priority it escapes to (merged with that region, the regions below
//! reset to the vertices' own priorities); without any escape it is an `α`-dominion: its
//! attractor in the whole remaining game is won by `α` and removed, and the search restarts.
//!
//! Strategies: a vertex of `α` keeps the attracting move of the region it joined; a vertex of
//! `α` with `r(v) = p` equal to its own priority (a head of the region) moves to any successor
//! inside it. Same conventions and result as [`crate::zielonka`] (max-even, `P0` wins even).

use crate::attractor::{attractor, Steps};
use crate::parity_game::{ParityGame, ParitySolution, Player};
use verikit_diag::{Budget, Exhausted};

/// Solves `g` by priority promotion within `budget` (polled every region and every 1024
/// attractor steps).
pub fn priority_promotion(g: &ParityGame, budget: &Budget) -> Result<ParitySolution, Exhausted> {
    let n = g.num_vertices();
    let pr = |v: usize| g.priority(v as u32);
    let mut steps = Steps::new(budget);
    let mut strategy: Vec<Option<u32>> = vec![None; n];
    let mut winner = vec![Player::P0; n];
    let mut alive = vec![true; n];
    let mut left = n;
    let mut r: Vec<u32> = (0..n).map(pr).collect();
    while left > 0 {
        for (v, rv) in r.iter_mut().enumerate() {
            *rv = pr(v);
        }
        let Some(mut p) = (0..n).filter(|&v| alive[v]).map(|v| r[v]).max() else {
            break;
        };
        loop {
            steps.check()?;
            let alpha = Player::of_priority(p);
            let sub: Vec<bool> = (0..n).map(|v| alive[v] && r[v] <= p).collect();
            let target: Vec<u32> = (0..n as u32)
                .filter(|&v| alive[v as usize] && r[v as usize] == p)
                .collect();
            let a = attractor(g, alpha, &sub, &target, &mut strategy, &mut steps)?;
            for &v in &target {
                if g.owner(v) == alpha && pr(v as usize) == p {
                    strategy[v as usize] = g.succ(v).iter().copied().find(|&w| a[w as usize]);
                }
            }
            // Closed in the subgame? Else the lowest escape into a higher region.
            let mut open = false;
            let mut escape: Option<u32> = None;
            for v in (0..n).filter(|&v| a[v]) {
                let succ = g.succ(v as u32);
                if g.owner(v as u32) == alpha {
                    open |= !succ.iter().any(|&w| a[w as usize]);
                } else {
                    for &w in succ {
                        let w = w as usize;
                        if !alive[w] || a[w] {
                            continue;
                        }
                        if r[w] <= p {
                            open = true;
                        } else {
                            escape = Some(escape.map_or(r[w], |e| e.min(r[w])));
                        }
                    }
                }
                if open {
                    break;
                }
            }
            for v in (0..n).filter(|&v| a[v]) {
                r[v] = p;
            }
            if open {
                // The next region down: the highest priority left in the subgame outside `a`.
                match (0..n).filter(|&v| sub[v] && !a[v]).map(|v| r[v]).max() {
                    Some(q) => p = q,
                    None => break,
                }
                continue;
            }
            match escape {
                Some(l) => {
                    // Promotion: the region joins the region of `l`, the ones below are reset.
                    for v in 0..n {
                        if !alive[v] {
                            continue;
                        }
                        if a[v] {
                            r[v] = l;
                        } else if r[v] < l {
                            r[v] = pr(v);
                        }
                    }
                    p = l;
                }
                None => {
                    // A dominion of `alpha`: its attractor in the remaining game is won.
                    let d: Vec<u32> = (0..n as u32).filter(|&v| a[v as usize]).collect();
                    let won = attractor(g, alpha, &alive, &d, &mut strategy, &mut steps)?;
                    for v in (0..n).filter(|&v| won[v]) {
                        winner[v] = alpha;
                        alive[v] = false;
                        left -= 1;
                    }
                    break;
                }
            }
        }
    }
    Ok(ParitySolution::new(g, winner, &strategy))
}

#[cfg(test)]
mod tests {
    use super::*;
    // The known small game and the cancelled budget are tried on both solvers in `zielonka`'s
    // tests.
    use crate::zielonka::tests::{brute_force, check_strategies, game};
    use crate::zielonka::zielonka;
    use proptest::prelude::*;

    #[test]
    fn promotion_is_needed() {
        // 0 (P1, prio 1) -> 1 | 2; 1 (P0, prio 2) -> 0; 2 (P0, prio 4) -> 2 | 0.
        // The region of 2 is open at first; the P1 region of 1 escapes upwards.
        let g = ParityGame::new(
            vec![Player::P1, Player::P0, Player::P0, Player::P1],
            vec![1, 2, 4, 3],
            vec![vec![1, 3], vec![0], vec![2, 0], vec![2, 3]],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let s = priority_promotion(&g, &Budget::unlimited()).unwrap_or_else(|e| panic!("{e:?}"));
        let z = zielonka(&g, &Budget::unlimited()).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(s.winner, z.winner);
        assert!(check_strategies(&g, &s).is_ok());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]
        #[test]
        fn matches_brute_force_and_zielonka_and_strategies_win(g in game()) {
            let s = priority_promotion(&g, &Budget::unlimited()).unwrap_or_else(|e| panic!("{e:?}"));
            let z = zielonka(&g, &Budget::unlimited()).unwrap_or_else(|e| panic!("{e:?}"));
            prop_assert_eq!(&s.winner, &z.winner);
            let w0 = brute_force(&g);
            for (v, &w) in w0.iter().enumerate() {
                prop_assert_eq!(s.winner[v] == Player::P0, w, "vertex {}", v);
            }
            if let Err(e) = check_strategies(&g, &s) {
                prop_assert!(false, "{}", e);
            }
        }
    }
}
