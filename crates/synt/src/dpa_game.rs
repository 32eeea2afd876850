//! The deterministic route: the product game of a deterministic parity automaton of `φ` with the
//! input/output split, built on the fly from the initial state, solved by Zielonka's algorithm,
//! and the winner's positional strategy read back as a Mealy/Moore machine.
//!
//! Papers: W. Zielonka, *Infinite games on finitely coloured graphs with applications to automata
//! on infinite trees*, TCS 200 (1998), §5 (the solver, in `verikit-graph`); the game is the one of
//! B. Jacobs et al., *The Reactive Synthesis Competition (SYNTCOMP)*, and of Spot's `ltlsynt`
//! (M. Renkin, P. Schlehuber-Caissier, A. Duret-Lutz, A. Pommellet, *Dissecting ltlsynt*, FMSD 2023,
//! §3: a split game where the first mover picks its letter, the second its letter, and the
//! automaton's deterministic edge gives the colour). C06 (*Safraless compositional synthesis*,
//! CAV 2006, §1) is the contrast this route is measured against: it needs the determinisation the
//! Safraless route avoids.
//!
//! Vertices: `A(q)` — automaton state `q`, the first mover picks a group of its letters (one
//! cell of [`Letters`]); `B(q, g)` — the second mover picks a letter class of the group; `C(q′,
//! c)` — the edge taken, with its colour's priority, then `A(q′)`. Only `C` vertices carry a
//! priority (every cycle passes through one); `A`/`B` have priority 0, below every other. The
//! system is player `P0`: it wins when the automaton accepts.

use rustc_hash::FxHashMap;
use verikit_diag::Budget;
use verikit_graph::{priority_promotion, zielonka, ParityGame, Player};
use verikit_omega::ParityAut;

use crate::error::SyntError;
use crate::letters::Letters;
use crate::mealy::{Machine, Move, Row};

/// How the automaton's edges are coloured.
pub(crate) enum Colouring {
    /// A parity condition on the marks.
    Parity(ParityAut),
    /// Acceptance `t` (every run accepting) or `f` (none).
    Constant(bool),
}

impl Colouring {
    /// The max-even priority of an edge with these marks: order-preserving `2·rank + (0 if
    /// accepting else 1)`, where `rank` orders the effective colours by dominance.
    fn priority(&self, marks: u64) -> u32 {
        match self {
            Colouring::Constant(acc) => 2 + u32::from(!acc),
            Colouring::Parity(p) => {
                let e = p.effective(marks);
                let rank = if p.kind.max {
                    e + 1
                } else {
                    i64::from(p.colours()) + 1 - e
                };
                let rank = u32::try_from(rank.max(0)).unwrap_or(u32::MAX / 4);
                2 * rank + u32::from(!p.kind.accepting(e))
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Vertex {
    A(u32),
    B(u32, u32),
    C(u32, u32),
}

/// The parity-game solver (both in `verikit-graph`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Solver {
    /// Priority promotion (Benerecetti, Dell'Erba, Mogavero).
    PriorityPromotion,
    /// Zielonka's recursive algorithm.
    Zielonka,
}

/// What the game did.
#[derive(Clone, Debug, Default)]
pub(crate) struct DpaStats {
    pub(crate) vertices: usize,
    pub(crate) automaton_states: usize,
}

/// The product game, solved. `Ok((true, m))`: the system wins with machine `m`; `Ok((false,
/// m))`: the environment wins with counter-strategy `m`. `system_first` is the Moore semantics.
pub(crate) fn solve(
    letters: &Letters,
    colouring: &Colouring,
    init: u32,
    system_first: bool,
    max_vertices: usize,
    solver: Solver,
    budget: &Budget,
) -> Result<(bool, Machine, DpaStats), SyntError> {
    let mut ticker = budget.ticker(256);
    let mut index: FxHashMap<Vertex, u32> = FxHashMap::default();
    let mut verts: Vec<Vertex> = Vec::new();
    let mut succ: Vec<Vec<u32>> = Vec::new();
    // Per automaton state: per letter class, the (destination, priority) of its edge.
    let mut outcome: FxHashMap<u32, Vec<Option<(u32, u32)>>> = FxHashMap::default();
    let mut intern = |v: Vertex, verts: &mut Vec<Vertex>| -> Result<u32, SyntError> {
        if let Some(&i) = index.get(&v) {
            return Ok(i);
        }
        if verts.len() >= max_vertices {
            return Err(SyntError::Limit(format!(
                "more than {max_vertices} parity-game vertices (synt.max-positions)"
            )));
        }
        let i = verts.len() as u32;
        index.insert(v, i);
        verts.push(v);
        Ok(i)
    };
    intern(Vertex::A(init), &mut verts)?;
    let mut i = 0;
    while i < verts.len() {
        ticker.tick()?;
        let v = verts[i];
        i += 1;
        let mut out = Vec::new();
        match v {
            Vertex::A(q) => {
                if let std::collections::hash_map::Entry::Vacant(e) = outcome.entry(q) {
                    e.insert(outcomes(letters, colouring, q, budget)?);
                }
                for (g, group) in letters.groups.iter().enumerate() {
                    // Groups whose classes all miss `q`'s edges do not occur (complete automaton).
                    let live = group.classes.iter().any(|&c| {
                        matches!(
                            outcome.get(&q).and_then(|o| o.get(c as usize)),
                            Some(Some(_))
                        )
                    });
                    if live {
                        out.push(intern(Vertex::B(q, g as u32), &mut verts)?);
                    }
                }
            }
            Vertex::B(q, g) => {
                let group = letters
                    .groups
                    .get(g as usize)
                    .ok_or_else(|| SyntError::Internal("group out of range".into()))?;
                for &c in &group.classes {
                    if let Some(Some((dst, pr))) = outcome.get(&q).and_then(|o| o.get(c as usize)) {
                        let w = intern(Vertex::C(*dst, *pr), &mut verts)?;
                        if !out.contains(&w) {
                            out.push(w);
                        }
                    }
                }
            }
            Vertex::C(q, _) => out.push(intern(Vertex::A(q), &mut verts)?),
        }
        if out.is_empty() {
            return Err(SyntError::Internal(format!(
                "parity game vertex {v:?} without successors (automaton not complete)"
            )));
        }
        succ.push(out);
    }
    let (first, second) = if system_first {
        (Player::P0, Player::P1)
    } else {
        (Player::P1, Player::P0)
    };
    let owner: Vec<Player> = verts
        .iter()
        .map(|v| match v {
            Vertex::A(_) | Vertex::C(..) => first,
            Vertex::B(..) => second,
        })
        .collect();
    let priority: Vec<u32> = verts
        .iter()
        .map(|v| match v {
            Vertex::C(_, p) => *p,
            _ => 0,
        })
        .collect();
    let stats = DpaStats {
        vertices: verts.len(),
        automaton_states: outcome.len(),
    };
    tracing::info!(vertices = verts.len(), "parity game");
    let game = ParityGame::new(owner, priority, succ).map_err(SyntError::Internal)?;
    let t0 = std::time::Instant::now();
    let sol = match solver {
        Solver::PriorityPromotion => priority_promotion(&game, budget)?,
        Solver::Zielonka => zielonka(&game, budget)?,
    };
    tracing::info!(
        ?solver,
        secs = t0.elapsed().as_secs_f64(),
        "parity game solved"
    );
    let winner = sol.winner.first().copied().unwrap_or(Player::P1);
    let winner_first = winner == first;
    // The winner's machine over the A vertices its strategy reaches.
    let (unc, ctl) = if winner_first {
        (letters.second_vars(), letters.first_vars())
    } else {
        (letters.first_vars(), letters.second_vars())
    };
    let mut state_of: FxHashMap<u32, u32> = FxHashMap::default();
    let mut order: Vec<u32> = vec![init];
    state_of.insert(init, 0);
    let mut table: Vec<Vec<Row>> = Vec::new();
    let mut allowed: Vec<Vec<Move>> = Vec::new();
    let mut k = 0;
    while k < order.len() {
        ticker.tick()?;
        let q = order[k];
        k += 1;
        let outs = outcome
            .get(&q)
            .ok_or_else(|| SyntError::Internal("state not expanded".into()))?;
        let mut target = |dst: u32, order: &mut Vec<u32>| -> u32 {
            let len = state_of.len() as u32;
            *state_of.entry(dst).or_insert_with(|| {
                order.push(dst);
                len
            })
        };
        let mut rows = Vec::new();
        let mut allow = Vec::new();
        if winner_first {
            let a = index
                .get(&Vertex::A(q))
                .copied()
                .ok_or_else(|| SyntError::Internal("no vertex".into()))?;
            let b = sol
                .strategy
                .get(a as usize)
                .copied()
                .flatten()
                .ok_or_else(|| SyntError::Internal("winning vertex without a move".into()))?;
            let Some(Vertex::B(_, g)) = verts.get(b as usize).copied() else {
                return Err(SyntError::Internal("move to a non-group vertex".into()));
            };
            let group = letters
                .groups
                .get(g as usize)
                .ok_or_else(|| SyntError::Internal("group out of range".into()))?;
            let (x, answer) = letters.first_letter(group)?;
            for &c in &group.classes {
                let Some(Some((dst, _))) = outs.get(c as usize) else {
                    continue;
                };
                let guard = letters.class(c)?.restrict(&x);
                if guard.is_false() {
                    continue;
                }
                let t = target(*dst, &mut order);
                rows.push(Row {
                    guard,
                    answer: answer.clone(),
                    target: t,
                });
            }
        } else {
            for (g, group) in letters.groups.iter().enumerate() {
                let Some(&b) = index.get(&Vertex::B(q, g as u32)) else {
                    continue;
                };
                let m = sol
                    .strategy
                    .get(b as usize)
                    .copied()
                    .flatten()
                    .ok_or_else(|| SyntError::Internal("winning vertex without a move".into()))?;
                let Some(Vertex::C(dst, pr)) = verts.get(m as usize).copied() else {
                    return Err(SyntError::Internal("move to a non-edge vertex".into()));
                };
                let Some(&c) = group
                    .classes
                    .iter()
                    .find(|&&c| outs.get(c as usize) == Some(&Some((dst, pr))))
                else {
                    return Err(SyntError::Internal("no class for the chosen edge".into()));
                };
                let t = target(dst, &mut order);
                let (row, rel) = letters.answer_row(group, c, &ctl, t)?;
                rows.push(row);
                // A parity game's strategy is not permissive: only the chosen class.
                allow.push((rel, vec![t]));
            }
        }
        table.push(rows);
        allowed.push(allow);
    }
    Ok((
        winner == Player::P0,
        Machine {
            moore: winner_first,
            dict: letters.dict.clone(),
            unc,
            ctl,
            rows: table,
            // A first mover's machine answers with one letter: no freedom kept.
            allowed: (!winner_first).then_some(allowed),
        },
        stats,
    ))
}

/// For automaton state `q`: per letter class, the destination and priority of the edge it takes
/// (deterministic automaton: at most one edge per class).
fn outcomes(
    letters: &Letters,
    colouring: &Colouring,
    q: u32,
    budget: &Budget,
) -> Result<Vec<Option<(u32, u32)>>, SyntError> {
    let edges = letters
        .edges
        .get(q as usize)
        .ok_or_else(|| SyntError::Internal(format!("state {q} out of range")))?;
    let mut out = Vec::with_capacity(letters.classes.len());
    for c in &letters.classes {
        budget.check()?;
        out.push(
            edges
                .iter()
                .find(|(_, _, g)| !c.and(g).is_false())
                .map(|(dst, marks, _)| (*dst, colouring.priority(*marks))),
        );
    }
    Ok(out)
}
