//! Bounded synthesis: the safety game over counter functions of a universal co-Büchi automaton.
//!
//! Paper: O. Kupferman, N. Piterman, M. Y. Vardi, *Safraless compositional synthesis*, CAV 2006
//! (C06), §3–4: a specification given by the nondeterministic Büchi automaton of the *forbidden*
//! behaviours (here the automaton of `¬φ`) is read as a universal co-Büchi automaton of the allowed
//! ones; a strategy is good iff every run of the automaton on every play visits the rejecting
//! (here: marked) transitions finitely often, and for a finite-state strategy a bound `k` on those
//! visits suffices (their ranks). Fixing `k` turns the problem into a safety game whose positions
//! are counter functions `Q → {⊥, 0..k}` (the largest number of marked transitions seen by a run
//! reaching each state), as implemented by Schewe–Finkbeiner's bounded synthesis and by
//! Filiot–Jin–Raskin's Acacia (antichains of counter functions).
//!
//! The game is explored forward from the initial function; at every position the first mover
//! picks a letter of its propositions, the second answers. Letters are handled by classes (letters
//! enabling the same edges, see `letters`) and first-mover letters by groups (those that reach the
//! same set of classes). Antichain pruning: the positions are ordered pointwise and the winning
//! set of the controlled player is downward closed, so where the controlled player chooses only
//! the ⊆-minimal successors are kept, and where the opponent chooses only the maximal ones; the
//! strategy then tracks a counter function that dominates the true one, which is sound. The
//! safety condition (never exceed `k`) is solved on the explored AND-OR graph by backward
//! propagation of losing positions with counters (linear time).

use crate::error::SyntError;
use crate::letters::{Group, Letters};
use crate::mealy::{Machine, Move, Row};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use verikit_diag::Budget;

type Counters = Box<[i8]>;

/// One bounded game: which side is controlled and the bound.
pub(crate) struct Game<'a> {
    pub(crate) letters: &'a Letters,
    /// Number of automaton states.
    pub(crate) states: usize,
    pub(crate) init: &'a [u32],
    /// The controlled player moves first (Moore for the system; the environment's dual game of a
    /// Mealy specification).
    pub(crate) controlled_first: bool,
    pub(crate) k: i8,
    pub(crate) max_positions: usize,
}

/// Statistics of one solved game.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub(crate) struct GameStats {
    pub(crate) positions: usize,
    pub(crate) options: usize,
}

struct Option_ {
    /// Successor positions, with the class that produced each.
    succ: Vec<(u32, u32)>,
    /// The first-mover group this option stands for.
    group: u32,
}

impl Game<'_> {
    fn succ(&self, f: &[i8], cls: u32) -> Option<Counters> {
        let mut g = vec![-1i8; self.states];
        for &(q, dst, marked) in self.letters.class_edges.get(cls as usize)? {
            let v = *f.get(q as usize)?;
            if v < 0 {
                continue;
            }
            let w = v + i8::from(marked);
            if w > self.k {
                return None;
            }
            let slot = g.get_mut(dst as usize)?;
            if w > *slot {
                *slot = w;
            }
        }
        Some(g.into_boxed_slice())
    }

    /// Solves the game: the controlled player's strategy when it wins from the initial position.
    pub(crate) fn solve(&self, budget: &Budget) -> Result<(Option<Machine>, GameStats), SyntError> {
        let groups = &self.letters.groups;
        let mut f0 = vec![-1i8; self.states];
        for &q in self.init {
            if let Some(s) = f0.get_mut(q as usize) {
                *s = 0;
            }
        }
        let mut index: FxHashMap<Counters, u32> = FxHashMap::default();
        let mut positions: Vec<Counters> = Vec::new();
        let mut pos_opts: Vec<Vec<u32>> = Vec::new();
        let mut options: Vec<Option_> = Vec::new();
        let f0: Counters = f0.into_boxed_slice();
        index.insert(f0.clone(), 0);
        positions.push(f0);
        let mut queue = VecDeque::from([0u32]);
        let mut ticker = budget.ticker(64);
        while let Some(p) = queue.pop_front() {
            ticker.tick()?;
            let f = positions[p as usize].clone();
            let mut opts = Vec::with_capacity(groups.len());
            for (gi, group) in groups.iter().enumerate() {
                let mut succ: Vec<(Counters, u32)> = Vec::new();
                let mut dead = false;
                for &c in &group.classes {
                    match self.succ(&f, c) {
                        Some(g) => succ.push((g, c)),
                        None if self.controlled_first => {
                            dead = true;
                            break;
                        }
                        None => {}
                    }
                }
                if dead {
                    succ.clear();
                }
                // Antichain pruning: minimal successors where the controlled player picks,
                // maximal ones where the opponent does.
                let keep_max = self.controlled_first;
                let kept = prune(succ, keep_max);
                let mut ids = Vec::with_capacity(kept.len());
                for (g, c) in kept {
                    let id = match index.get(&g) {
                        Some(&id) => id,
                        None => {
                            let id = positions.len() as u32;
                            if positions.len() >= self.max_positions {
                                return Err(SyntError::Limit(format!(
                                    "more than {} game positions at bound {}",
                                    self.max_positions, self.k
                                )));
                            }
                            index.insert(g.clone(), id);
                            positions.push(g);
                            queue.push_back(id);
                            id
                        }
                    };
                    ids.push((id, c));
                }
                opts.push(options.len() as u32);
                options.push(Option_ {
                    succ: ids,
                    group: gi as u32,
                });
            }
            while pos_opts.len() <= p as usize {
                pos_opts.push(Vec::new());
            }
            pos_opts[p as usize] = opts;
        }
        pos_opts.resize(positions.len(), Vec::new());
        let stats = GameStats {
            positions: positions.len(),
            options: options.len(),
        };
        budget.spend(stats.positions as u64)?;
        // Losing positions, propagated backwards.
        let n = positions.len();
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (o, opt) in options.iter().enumerate() {
            for &(s, _) in &opt.succ {
                preds[s as usize].push(o as u32);
            }
        }
        let mut opt_owner = vec![0u32; options.len()];
        for (p, os) in pos_opts.iter().enumerate() {
            for &o in os {
                opt_owner[o as usize] = p as u32;
            }
        }
        // Alive counters: an OR node dies at zero, an AND node at its first dead child.
        let mut opt_alive: Vec<usize> = options.iter().map(|o| o.succ.len()).collect();
        let mut opt_dead = vec![false; options.len()];
        let mut pos_alive: Vec<usize> = pos_opts.iter().map(|o| o.len()).collect();
        let mut pos_dead = vec![false; n];
        let mut work: Vec<u32> = Vec::new();
        let kill_opt = |o: usize,
                        opt_dead: &mut Vec<bool>,
                        pos_alive: &mut Vec<usize>,
                        pos_dead: &mut Vec<bool>,
                        work: &mut Vec<u32>| {
            if opt_dead[o] {
                return;
            }
            opt_dead[o] = true;
            let p = opt_owner[o] as usize;
            if pos_dead[p] {
                return;
            }
            // Opponent first (∀ over groups): one dead option kills the position; controlled
            // first (∃ over options): all must die.
            pos_alive[p] -= 1;
            if !self.controlled_first || pos_alive[p] == 0 {
                pos_dead[p] = true;
                work.push(p as u32);
            }
        };
        for (o, opt) in options.iter().enumerate() {
            if opt.succ.is_empty() {
                kill_opt(o, &mut opt_dead, &mut pos_alive, &mut pos_dead, &mut work);
            }
        }
        while let Some(p) = work.pop() {
            ticker.tick()?;
            for &o in &preds[p as usize] {
                let o = o as usize;
                if opt_dead[o] {
                    continue;
                }
                // Controlled first: the option is the opponent's choice (AND); otherwise the
                // controlled player's (OR).
                opt_alive[o] -= 1;
                if self.controlled_first || opt_alive[o] == 0 {
                    kill_opt(o, &mut opt_dead, &mut pos_alive, &mut pos_dead, &mut work);
                }
            }
        }
        if pos_dead[0] {
            return Ok((None, stats));
        }
        // The strategy, on the positions it reaches.
        let l = self.letters;
        let (unc, ctl) = if self.controlled_first {
            (l.second_vars(), l.first_vars())
        } else {
            (l.first_vars(), l.second_vars())
        };
        let mut mid: FxHashMap<u32, u32> = FxHashMap::default();
        let mut order = vec![0u32];
        mid.insert(0, 0);
        let mut table: Vec<Vec<Row>> = Vec::new();
        let mut allowed: Vec<Vec<Move>> = Vec::new();
        let mut i = 0;
        while i < order.len() {
            ticker.tick()?;
            let p = order[i] as usize;
            i += 1;
            let mut rows = Vec::new();
            let mut allow = Vec::new();
            let mut target = |s: u32, order: &mut Vec<u32>| -> u32 {
                let len = mid.len() as u32;
                *mid.entry(s).or_insert_with(|| {
                    order.push(s);
                    len
                })
            };
            if self.controlled_first {
                // One letter of the chosen group; the opponent's answers by class.
                let Some(&o) = pos_opts[p].iter().find(|&&o| !opt_dead[o as usize]) else {
                    return Err(SyntError::Internal(
                        "winning position without a live option".into(),
                    ));
                };
                let opt = &options[o as usize];
                let group = groups
                    .get(opt.group as usize)
                    .ok_or_else(|| SyntError::Internal("group out of range".into()))?;
                let (x, answer) = l.first_letter(group)?;
                for &cls in &group.classes {
                    let guard = l.class(cls)?.restrict(&x);
                    if guard.is_false() {
                        continue;
                    }
                    let exact = self.succ(&positions[p], cls).ok_or_else(|| {
                        SyntError::Internal("overflow under a live option".into())
                    })?;
                    let Some(&(s, _)) = opt
                        .succ
                        .iter()
                        .find(|(s, _)| leq(&exact, &positions[*s as usize]))
                    else {
                        return Err(SyntError::Internal("no dominating successor".into()));
                    };
                    let t = target(s, &mut order);
                    rows.push(Row {
                        guard,
                        answer: answer.clone(),
                        target: t,
                    });
                }
            } else {
                // Per opponent group, a live class and answers reaching it.
                for (gi, group) in groups.iter().enumerate() {
                    let o = pos_opts[p][gi] as usize;
                    let Some(&(s, cls)) =
                        options[o].succ.iter().find(|(s, _)| !pos_dead[*s as usize])
                    else {
                        return Err(SyntError::Internal(
                            "winning position without a live answer".into(),
                        ));
                    };
                    let t = target(s, &mut order);
                    let (row, rel) = l.answer_row(group, cls, &ctl, t)?;
                    rows.push(row);
                    allow.push((rel, vec![t]));
                }
            }
            table.push(rows);
            allowed.push(allow);
        }
        if !self.controlled_first && order.len() <= crate::memin::MAX_STATES {
            // A safety game's strategy may take any move into the winning region: every class
            // of a group whose successor is dominated by states of the machine (the winning
            // region is downward closed) is allowed, to any of those states.
            allowed = self.permissive(&positions, &order, groups, budget)?;
        }
        Ok((
            Some(Machine {
                moore: self.controlled_first,
                dict: l.dict.clone(),
                unc,
                ctl,
                rows: table,
                // A first mover's machine answers with one letter: no freedom kept.
                allowed: (!self.controlled_first).then_some(allowed),
            }),
            stats,
        ))
    }
}

impl Game<'_> {
    /// Per machine state (the winning positions `order`), the moves into the machine's
    /// states: `(class ∧ group, the states dominating the class's successor)`.
    fn permissive(
        &self,
        positions: &[Counters],
        order: &[u32],
        groups: &[Group],
        budget: &Budget,
    ) -> Result<Vec<Vec<Move>>, SyntError> {
        let l = self.letters;
        let mut out = Vec::with_capacity(order.len());
        for &p in order {
            budget.check()?;
            let here = positions
                .get(p as usize)
                .ok_or_else(|| SyntError::Internal("position out of range".into()))?;
            let mut moves = Vec::new();
            for group in groups {
                for &cls in &group.classes {
                    let Some(exact) = self.succ(here, cls) else {
                        continue;
                    };
                    let to: Vec<u32> = (0..order.len() as u32)
                        .filter(|&i| {
                            order
                                .get(i as usize)
                                .and_then(|&q| positions.get(q as usize))
                                .is_some_and(|f| leq(&exact, f))
                        })
                        .collect();
                    let rel = l.class(cls)?.and(&group.cell);
                    if !to.is_empty() && !rel.is_false() {
                        moves.push((rel, to));
                    }
                }
            }
            out.push(moves);
        }
        Ok(out)
    }
}

fn leq(a: &[i8], b: &[i8]) -> bool {
    a.iter().zip(b).all(|(x, y)| x <= y)
}

/// Keeps the pointwise-minimal (or maximal) counter functions, without duplicates.
fn prune(mut v: Vec<(Counters, u32)>, keep_max: bool) -> Vec<(Counters, u32)> {
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v.dedup_by(|a, b| a.0 == b.0);
    let mut out: Vec<(Counters, u32)> = Vec::with_capacity(v.len());
    for (i, (g, c)) in v.iter().enumerate() {
        let dominated = v
            .iter()
            .enumerate()
            .any(|(j, (h, _))| j != i && if keep_max { leq(g, h) } else { leq(h, g) });
        if !dominated {
            out.push((g.clone(), *c));
        }
    }
    out
}
