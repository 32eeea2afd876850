//! Attractors in parity games: the vertices from which a player can force a visit to a target
//! set, inside a subgame, with the attracting moves of that player's vertices. Shared by the
//! solvers (`zielonka`, `priority_promotion`).
//!
//! Paper: W. Zielonka, *Infinite games on finitely coloured graphs with applications to automata
//! on infinite trees*, TCS 200 (1998), §2 (attractor sets).

use crate::parity_game::{ParityGame, Player};
use verikit_diag::{Budget, Exhausted};

/// Counted work of a solver: the budget is charged every 1024 steps.
pub(crate) struct Steps<'a> {
    budget: &'a Budget,
    steps: u32,
}

impl<'a> Steps<'a> {
    pub(crate) fn new(budget: &'a Budget) -> Steps<'a> {
        Steps { budget, steps: 0 }
    }

    pub(crate) fn tick(&mut self) -> Result<(), Exhausted> {
        self.steps = self.steps.wrapping_add(1);
        if self.steps.is_multiple_of(1024) {
            self.budget.spend(1024)?;
        }
        Ok(())
    }

    pub(crate) fn check(&self) -> Result<(), Exhausted> {
        self.budget.check()
    }
}

/// The attractor of `target` for `player` inside the subgame `sub` (a membership mask, which
/// must contain `target`); records in `strategy` the attracting move of every vertex of
/// `player` it adds (target vertices keep theirs).
pub(crate) fn attractor(
    g: &ParityGame,
    player: Player,
    sub: &[bool],
    target: &[u32],
    strategy: &mut [Option<u32>],
    steps: &mut Steps<'_>,
) -> Result<Vec<bool>, Exhausted> {
    let n = g.num_vertices();
    let mut inside = vec![false; n];
    let mut left: Vec<u32> = vec![u32::MAX; n];
    let mut queue: Vec<u32> = Vec::with_capacity(target.len());
    for &t in target {
        if let Some(x) = inside.get_mut(t as usize) {
            if !*x {
                *x = true;
                queue.push(t);
            }
        }
    }
    let in_sub = |w: u32| sub.get(w as usize).copied().unwrap_or(false);
    while let Some(v) = queue.pop() {
        steps.tick()?;
        for &u in g.pred(v) {
            let ui = u as usize;
            if !in_sub(u) || inside.get(ui).copied().unwrap_or(true) {
                continue;
            }
            if g.owner(u) == player {
                inside[ui] = true;
                if let Some(s) = strategy.get_mut(ui) {
                    *s = Some(v);
                }
                queue.push(u);
            } else {
                if left[ui] == u32::MAX {
                    left[ui] = g.succ(u).iter().filter(|&&w| in_sub(w)).count() as u32;
                }
                left[ui] = left[ui].saturating_sub(1);
                if left[ui] == 0 {
                    inside[ui] = true;
                    queue.push(u);
                }
            }
        }
    }
    Ok(inside)
}
