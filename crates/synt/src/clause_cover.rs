//! Syntactic entailment between conjunctions of LTL formulas: the executable form of the
//! arguments by which the orchestrator checks a controller against parts of its specification.
//!
//! Paper: O. Kupferman, N. Piterman, M. Y. Vardi, *Safraless compositional synthesis*, CAV 2006
//! (C06), §5 (a specification `ψ ∧ ψ′` treated through its conjuncts); B. Finkbeiner, G. Geier,
//! N. Passing, *Specification decomposition for reactive synthesis*, NFM 2021 (a specification
//! cut into parts over disjoint outputs, each part an implication that keeps some of the
//! assumptions).
//!
//! A formula is read as a set of *clauses* `(A, u)`, meaning `⋀A → u`, by rules that are
//! equivalences of LTL: `f ∧ g` gives the clauses of `f` and of `g`; `G(f ∧ g)` those of `G f`
//! and `G g`; `a → b` the clauses of `b`, each with the conjuncts of `a` (split by the same two
//! rules) added to its assumptions; anything else is one clause with its context's assumptions.
//! A clause `(A′, u)` implies `(A, u)` when `A′ ⊆ A` (fewer assumptions, stronger). So when every
//! clause of the conclusion is implied by a clause of the premises (or is trivially true:
//! `u` among its own assumptions), the premises' conjunction implies the conclusion. The test is
//! incomplete (formulas equivalent by other laws are not recognised) but never wrong.

use verikit_omega::{Arena, Node, F};

/// A clause: its assumption conjuncts (sorted, deduplicated) and its unit.
type Clause = (Vec<F>, F);

/// The conjuncts of `f`, split by `∧` and by `G` over `∧`; `true` contributes none.
fn conjuncts(arena: &mut Arena, f: F, out: &mut Vec<F>) {
    match arena.node(f).clone() {
        Node::True => {}
        Node::And(ops) => ops.into_iter().for_each(|g| conjuncts(arena, g, out)),
        Node::Gl(g) => match arena.node(g).clone() {
            Node::And(ops) => {
                for op in ops {
                    let h = arena.gl(op);
                    conjuncts(arena, h, out);
                }
            }
            _ => out.push(f),
        },
        _ => out.push(f),
    }
}

/// The clauses of `f` under the assumptions `context`.
fn clauses(arena: &mut Arena, f: F, context: &[F], out: &mut Vec<Clause>) {
    match arena.node(f).clone() {
        Node::Implies(a, b) => {
            let mut inner = context.to_vec();
            conjuncts(arena, a, &mut inner);
            clauses(arena, b, &inner, out);
        }
        _ => {
            let mut units = Vec::new();
            conjuncts(arena, f, &mut units);
            // One unit that splits no further: the clause itself.
            if units.len() == 1 && units.first() == Some(&f) {
                let mut a = context.to_vec();
                a.sort_unstable();
                a.dedup();
                out.push((a, f));
            } else {
                for u in units {
                    clauses(arena, u, context, out);
                }
            }
        }
    }
}

/// Whether the conjunction of `premises` implies `conclusion` by the clause rules above.
pub(crate) fn entails(arena: &mut Arena, premises: &[F], conclusion: F) -> bool {
    let mut have = Vec::new();
    for &p in premises {
        clauses(arena, p, &[], &mut have);
    }
    let mut need = Vec::new();
    clauses(arena, conclusion, &[], &mut need);
    need.iter().all(|(a, u)| {
        a.binary_search(u).is_ok()
            || have
                .iter()
                .any(|(b, v)| v == u && b.iter().all(|x| a.binary_search(x).is_ok()))
    })
}

#[cfg(test)]
mod tests {
    use super::entails;
    use verikit_omega::Arena;

    fn check(premises: &[&str], conclusion: &str) -> bool {
        let mut arena = Arena::new();
        let ps: Vec<_> = premises
            .iter()
            .map(|p| verikit_omega::task::parse_formula(p, 0, &mut arena).unwrap())
            .collect();
        let c = verikit_omega::task::parse_formula(conclusion, 0, &mut arena).unwrap();
        entails(&mut arena, &ps, c)
    }

    #[test]
    fn conjunctions_implications_and_globally_split() {
        assert!(check(
            &["G(r0 -> g0)", "G(r1 -> X g1)"],
            "G((r0 -> g0) & (r1 -> X g1))"
        ));
        assert!(check(
            &["GF r -> GF g0", "GF r -> GF g1"],
            "GF r -> (GF g0 & GF g1)"
        ));
        // An assumption dropped from a part makes the part stronger.
        assert!(check(
            &["(G(g0 -> F r) & GF r) -> GF g0", "GF r -> GF g1"],
            "(G(g0 -> F r) & GF r) -> (GF g0 & GF g1)"
        ));
        assert!(check(&["G a", "G b"], "G(a & b)"));
        assert!(check(&["a -> (b -> c)"], "(a & b) -> c"));
        assert!(check(&["x"], "true"));
    }

    #[test]
    fn a_missing_or_weaker_part_is_not_enough() {
        assert!(!check(&["G(r0 -> g0)"], "G((r0 -> g0) & (r1 -> g1))"));
        // A part that needs an assumption the specification does not make.
        assert!(!check(&["GF r -> GF g"], "GF g"));
        assert!(!check(&["(a & b) -> c"], "a -> c"));
        // Disjunctions are not split.
        assert!(!check(&["a"], "a | b") && !check(&["a | b"], "a"));
    }
}
