//! Determinisation of stutter-invariant languages by stutter closure: on a letter `σ`, the
//! deterministic automaton moves from a macro-state as the plain construction would on `σ^k`
//! for some `k ≥ 1`, chosen so that macro-states on the same `σ`-loop share one representative.
//!
//! Paper: the stutter-invariance optimisation of Spot's `tgba_determinize` (`use_stutter`,
//! described with the determinisation in A. Duret-Lutz et al., "Spot 2.0 — a framework for LTL
//! and ω-automata manipulation", ATVA'16, §3, and in Klein, Baier, "On-the-fly stuttering in the
//! construction of deterministic ω-automata", CIAA'07, §3: following `σ` from a macro-state until
//! a macro-state repeats and taking one of the cycle); stutter invariance of LTL without `X`:
//! D. Peled, T. Wilke, "Stutter-invariant temporal properties are expressible without the
//! next-time operator", IPL 63(5), 1997 (the easy direction: every LTL\X formula is
//! stutter-invariant).
//!
//! If `L` is stutter-invariant, a word `σ₁σ₂…` is in `L` iff `σ₁^{k₁}σ₂^{k₂}…` is, for any
//! `kᵢ ≥ 1`. From macro-state `t` on `σ`, the plain successors `t₁, t₂, …` on `σ, σσ, …` are
//! followed until one repeats (`t_j = t_i`, `1 ≤ i < j`); the step goes to the least macro-state
//! `t_r` of the cycle `t_i … t_{j-1}` and emits the least colour of the `r` plain steps. The
//! run of the result on `w` is then the run of the plain automaton on a stuttering of `w`, cut
//! into segments; the least colour seen infinitely often is the same, so for `parity min` the
//! language is unchanged. Every macro-state entering the same `σ`-cycle at different points gets
//! the same successor, which is where states are saved.

use crate::ltl::ast::{Arena, Node, F};

/// Longest chain of plain steps followed for one letter before giving up the closure (the
/// plain successor is then used).
const MAX_CHAIN: usize = 256;

/// Is `f` stutter-invariant by syntax: no `X` and no SERE (LTL\X)?
pub(crate) fn syntactically_stutter_invariant(a: &Arena, f: F) -> bool {
    !a.has_sere(f) && !a.any_subformula(f, |n| matches!(n, Node::X(_)))
}

/// The least of two colours, `None` (no colour) being the largest.
fn least(x: Option<u32>, y: Option<u32>) -> Option<u32> {
    match (x, y) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

/// The stutter-closed step from `start` on one letter, given the plain step on that letter
/// (`step(t)` is the successor and the colour emitted); `is_dead` marks a successor from which
/// nothing is accepted (the chain stops there). See the module docs.
pub(crate) fn closed_step<T: Clone + Ord>(
    start: &T,
    mut step: impl FnMut(&T) -> (T, Option<u32>),
    is_dead: impl Fn(&T) -> bool,
) -> (T, Option<u32>) {
    let first = step(start);
    if is_dead(&first.0) {
        return first;
    }
    // chain[k] is t_{k+1}, colours[k] the colour of the step into it.
    let mut chain: Vec<T> = vec![first.0.clone()];
    let mut colours: Vec<Option<u32>> = vec![first.1];
    while chain.len() < MAX_CHAIN {
        let Some(last) = chain.last() else {
            return first;
        };
        let (next, c) = step(last);
        if is_dead(&next) {
            return first;
        }
        if let Some(i) = chain.iter().position(|t| *t == next) {
            // The cycle is chain[i..]; its least macro-state is the representative.
            let Some((r, rep)) = chain
                .iter()
                .enumerate()
                .skip(i)
                .min_by(|(_, x), (_, y)| x.cmp(y))
            else {
                return first;
            };
            let colour = colours.iter().take(r + 1).fold(None, |m, &c| least(m, c));
            return (rep.clone(), colour);
        }
        chain.push(next);
        colours.push(c);
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A counter modulo 3 entered at 5: on the letter, 5 → 6 → 0 → 1 → 2 → 0 …; the cycle is
    /// {0, 1, 2}, its least element 0 is reached after two steps, whose colours are 4 and 3.
    #[test]
    fn closure_goes_to_the_least_state_of_the_cycle() {
        let step = |t: &u32| match *t {
            5 => (6, Some(4)),
            6 => (0, Some(3)),
            x => ((x + 1) % 3, Some(7)),
        };
        assert_eq!(closed_step(&5u32, step, |_| false), (0, Some(3)));
        // From inside the cycle: 1 → 2 → 0 → 1, least 0 after two steps.
        assert_eq!(closed_step(&1u32, step, |_| false), (0, Some(7)));
        // A dead successor stops the closure at the plain step.
        assert_eq!(closed_step(&5u32, step, |t| *t == 6), (6, Some(4)));
    }

    #[test]
    fn ltl_without_next_is_stutter_invariant() {
        let mut a = Arena::new();
        let f = crate::ltl::parse::parse("G(a -> F(b U c))", &mut a).unwrap();
        assert!(syntactically_stutter_invariant(&a, f));
        let g = crate::ltl::parse::parse("G(a -> Xb)", &mut a).unwrap();
        assert!(!syntactically_stutter_invariant(&a, g));
    }
}
