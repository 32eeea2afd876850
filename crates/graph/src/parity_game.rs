//! Parity games on explicit graphs: the game, the conventions of priorities and the solution
//! every solver returns ([`crate::zielonka`], [`crate::priority_promotion`]).
//!
//! Convention: players `P0` and `P1`; `P0` wins a play when the largest priority seen infinitely
//! often is even (*max even*). Games in another convention (min/max, even/odd) are brought to it
//! by [`normalise_priorities`]. Every vertex must have a successor ([`ParityGame::new`] checks
//! it).

/// A player of a parity game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// Wins when the dominant priority is even (in the solver's max-even convention).
    P0,
    /// Wins when it is odd.
    P1,
}

impl Player {
    /// The other player.
    pub fn opponent(self) -> Player {
        match self {
            Player::P0 => Player::P1,
            Player::P1 => Player::P0,
        }
    }

    /// The player a priority favours (even: `P0`).
    pub fn of_priority(p: u32) -> Player {
        if p.is_multiple_of(2) {
            Player::P0
        } else {
            Player::P1
        }
    }

    pub(crate) fn index(self) -> usize {
        match self {
            Player::P0 => 0,
            Player::P1 => 1,
        }
    }
}

/// An explicit parity game: per vertex its owner, its priority (max-even convention) and its
/// successors. Vertices are `0..n` as `u32`.
#[derive(Clone, Debug)]
pub struct ParityGame {
    owner: Vec<Player>,
    priority: Vec<u32>,
    succ: Vec<Vec<u32>>,
    pred: Vec<Vec<u32>>,
}

impl ParityGame {
    /// A game from its vertices' owners, priorities (max-even) and successor lists; an error
    /// names the first vertex with a successor out of range or without successors, or a length
    /// mismatch.
    pub fn new(
        owner: Vec<Player>,
        priority: Vec<u32>,
        succ: Vec<Vec<u32>>,
    ) -> Result<ParityGame, String> {
        let n = owner.len();
        if priority.len() != n || succ.len() != n {
            return Err(format!(
                "{n} owners, {} priorities, {} successor lists",
                priority.len(),
                succ.len()
            ));
        }
        let mut pred = vec![Vec::new(); n];
        for (v, ss) in succ.iter().enumerate() {
            if ss.is_empty() {
                return Err(format!("vertex {v} has no successor"));
            }
            for &w in ss {
                match pred.get_mut(w as usize) {
                    Some(p) => p.push(v as u32),
                    None => return Err(format!("vertex {v} has successor {w} out of range")),
                }
            }
        }
        Ok(ParityGame {
            owner,
            priority,
            succ,
            pred,
        })
    }

    pub fn num_vertices(&self) -> usize {
        self.owner.len()
    }

    pub fn owner(&self, v: u32) -> Player {
        self.owner.get(v as usize).copied().unwrap_or(Player::P0)
    }

    pub fn priority(&self, v: u32) -> u32 {
        self.priority.get(v as usize).copied().unwrap_or(0)
    }

    pub fn succ(&self, v: u32) -> &[u32] {
        self.succ.get(v as usize).map(Vec::as_slice).unwrap_or(&[])
    }

    pub(crate) fn pred(&self, v: u32) -> &[u32] {
        self.pred.get(v as usize).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// Priorities in the convention `max` (else min) and `odd` (`P0` wins when the dominant priority
/// is odd, else even), rewritten to the solver's max-even convention with the same winner of
/// every play: `p + odd` for max, `M − p + odd` for min (`M` the first even number ≥ every `p`).
pub fn normalise_priorities(priorities: &[u32], max: bool, odd: bool) -> Vec<u32> {
    let top = priorities.iter().copied().max().unwrap_or(0);
    let m = top + top % 2;
    priorities
        .iter()
        .map(|&p| if max { p } else { m - p } + u32::from(odd))
        .collect()
}

/// Winning regions and positional winning strategies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParitySolution {
    /// The winner of each vertex.
    pub winner: Vec<Player>,
    /// For a vertex won by its owner, the successor its winning strategy takes; `None` for the
    /// others.
    pub strategy: Vec<Option<u32>>,
}

impl ParitySolution {
    /// The solution with the moves of `strategy` kept for the vertices their owner wins.
    pub(crate) fn new(g: &ParityGame, winner: Vec<Player>, strategy: &[Option<u32>]) -> Self {
        let strategy = strategy
            .iter()
            .enumerate()
            .map(|(v, &m)| m.filter(|_| winner.get(v) == Some(&g.owner(v as u32))))
            .collect();
        ParitySolution { winner, strategy }
    }
}
