//! Delayed simulation of generalized Büchi automata as a generalized-response game.
//!
//! Paper: S. Juvekar, N. Piterman, "Minimizing Generalized Büchi Automata", CAV 2006, §2.1 (the
//! generalized response condition: player 1 — the spoiler — holds a counter `i` she may change
//! finitely often and wins if, once it is fixed, some visit to `P_i` is never followed by a visit
//! to `Q_i`), §2.3 (the delayed-simulation game over the pairs `⟨P_i, Q_i⟩`), §3.2 (Fig. 2: the
//! winning region of player 1 as the fixpoint of "back-reach of (avoid-set of `Q_i` ∩ `P_i`)" over
//! the pairs in cyclic order; Theorem 4: `O(t·g·k)`) and §4.3 (Theorem 8: delayed-equivalent states
//! may be merged).
//!
//! The game is [`crate::sim_game::Game`]; `P_i` / `Q_i` are its round locations whose spoiler /
//! duplicator edge carries mark `i`, and a visit to `P_i` is discharged by a `Q_i` visit in the
//! same round or later (as in Etessami–Wilke–Schuller's delayed simulation, which this is when
//! `k = 1`). Both set operations are linear attractor computations with successor counters:
//! `avoid_set(Q_i, W)` is the complement of the player-0 attractor of `Q_i \ W` in the game
//! without `W`, and `back_reach(X)` is the player-1 attractor of `X`. The winning region `W` of
//! player 1 only grows; the loop stops after a full round of the `k` pairs adds nothing, so it runs
//! at most `g·k` attractor pairs (`O(t·g·k)`, i.e. `O(m·n³·k)` for an automaton's self-simulation
//! game).

use crate::sim_game::{Game, Loc};

/// Player-`player` attractor of `target` (player 1 = spoiler owns spoiler locations; player 0 owns
/// duplicator locations; round locations have one successor). Locations in `blocked` are never
/// added (and count as escapes for the opponent). A location of the attracted player with no
/// successors is not attracted; one of the opponent with no successors is (the opponent is stuck).
fn attractor(g: &Game, target: &[bool], blocked: &[bool], player: u8) -> Vec<bool> {
    let nl = g.num_locs();
    let mine = |u: usize| match g.kind[u] {
        Loc::Spoiler => player == 1,
        Loc::Duplicator => player == 0,
        Loc::Round => true,
    };
    let mut inset = vec![false; nl];
    let mut cnt: Vec<u32> = (0..nl).map(|u| g.succ(u).len() as u32).collect();
    let mut stack = Vec::new();
    for u in 0..nl {
        if blocked[u] {
            continue;
        }
        if target[u] || (!mine(u) && g.succ(u).is_empty()) {
            inset[u] = true;
            stack.push(u);
        }
    }
    while let Some(w) = stack.pop() {
        for &u in g.pred(w) {
            let u = u as usize;
            if inset[u] || blocked[u] {
                continue;
            }
            if mine(u) {
                inset[u] = true;
                stack.push(u);
            } else {
                cnt[u] -= 1;
                if cnt[u] == 0 {
                    inset[u] = true;
                    stack.push(u);
                }
            }
        }
    }
    inset
}

/// The winning region of player 1 (the spoiler) in the delayed-simulation game (Fig. 2).
pub(crate) fn spoiler_wins(g: &Game) -> Vec<bool> {
    let nl = g.num_locs();
    let none = vec![false; nl];
    let mut win = attractor(g, &none, &none, 1);
    let mut quiet = 0;
    let mut i = 0;
    while quiet < g.k {
        // Locations from which player 1 avoids Q_i forever or reaches `win`.
        let q_target: Vec<bool> = (0..nl)
            .map(|u| !win[u] && g.kind[u] == Loc::Round && (g.q_marks[u] >> i) & 1 == 1)
            .collect();
        let reach_q = attractor(g, &q_target, &win, 0);
        let imm: Vec<bool> = (0..nl)
            .map(|u| {
                win[u] || (!reach_q[u] && g.kind[u] == Loc::Round && (g.p_marks[u] >> i) & 1 == 1)
            })
            .collect();
        let next = attractor(g, &imm, &none, 1);
        if next == win {
            quiet += 1;
        } else {
            quiet = 1;
            win = next;
        }
        i = (i + 1) % g.k;
    }
    win
}

/// The delayed-simulation preorder of an automaton (`sim[p * n + q]` iff `q` delayed-simulates
/// `p`), or `None` when the game is too large to build or the acceptance is not generalized
/// Büchi.
pub(crate) fn delayed_simulation(aut: &crate::Twa) -> Option<Vec<bool>> {
    let g = Game::build(aut, aut).ok()?;
    let w = spoiler_wins(&g);
    Some((0..g.n * g.n).map(|i| !w[i]).collect())
}

#[cfg(test)]
mod tests {
    use crate::sim_game::tests::{hoa, sample};

    #[test]
    fn delayed_relation_on_sample() {
        let a = sample();
        let s = super::delayed_simulation(&a).unwrap();
        let f = crate::fair_sim::fair_simulation(&a).unwrap();
        let n = 6;
        let sim = |p: usize, q: usize| s[p * n + q];
        for p in 0..n {
            assert!(sim(p, p));
        }
        // Delayed simulation implies fair simulation.
        for i in 0..n * n {
            assert!(!s[i] || f[i], "delayed but not fair at {i}");
        }
        // The accepting step of 2 is an obligation 3 and 1 never discharge (fair would not care).
        assert!(!sim(2, 3) && !sim(2, 1));
        // ... but 0 discharges it at once, and 4 one step later.
        assert!(sim(2, 0) && sim(2, 4));
        // 4/5 vs the accepting loop: the obligation is discharged one step later.
        assert!(sim(0, 4) && sim(4, 0) && sim(0, 5));
        assert!(!sim(0, 1) && sim(1, 0));
    }

    #[test]
    fn generalized_response_per_set() {
        // 0 loops with both marks; 1 alternates {0} and {1}; 2 only ever sees mark 0.
        let a = hoa(
            "State: 0\n[t] 0 {0 1}\nState: 1\n[t] 3 {0}\nState: 2\n[t] 2 {0}\nState: 3\n[t] 1 {1}\n",
            4,
            "2 Inf(0)&Inf(1)",
        );
        let s = super::delayed_simulation(&a).unwrap();
        let sim = |p: usize, q: usize| s[p * 4 + q];
        assert!(sim(0, 1) && sim(1, 0) && sim(0, 3));
        assert!(!sim(0, 2));
        // 2 sees mark 0 forever: 1 answers mark 0 every other step, 0 at once.
        assert!(sim(2, 0) && sim(2, 1));
        // The empty-language state 2 is not delayed-simulated by one that never sees mark 0.
        assert!(!sim(0, 2));
    }
}
