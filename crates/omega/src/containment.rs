//! Formula simplification by language containment: the rewritings of
//! [`crate::ltl::synt_impl`] with implication decided on automata (`p ⇒ o` iff the automaton of
//! `p ∧ ¬o` is empty) instead of syntactically, as Spot's simplifier does with its
//! `containment_checks` options (on in `ltl2tgba`'s default `--high` level).
//!
//! Papers: Somenzi, Bloem, "Efficient Büchi automata from LTL formulae", CAV'00, §3 (the
//! implication-based rewritings); A. Duret-Lutz, "Manipulating LTL formulas using Spot 1.0",
//! ATVA'13, §3.3 ("language containment checks"). Each check asks the caller's emptiness test
//! whether `p ∧ ¬o` has no model (the translation passes its tableau, without post-processing,
//! and [`crate::emptiness`]; this module does not call the translation back); the checks are
//! exact, so the rewritten formula is equivalent. A budget bounds the number of checks per
//! formula, and only small operands are compared.

use crate::ltl::ast::{Arena, Node, F};
use crate::ltl::nnf::nnf;
use crate::ltl::simplify::simplify;
use crate::ltl::synt_impl;
use std::collections::HashMap;

/// Whether a formula has no model: `true` only when proved (a check that fails or gives up
/// answers `false`).
pub(crate) type IsEmpty<'a> = dyn FnMut(&mut Arena, F) -> bool + 'a;

/// Translations allowed per formula.
pub(crate) const BUDGET: usize = 48;
/// Largest operand (tree size) compared by a translation.
pub(crate) const MAX_OPERAND: usize = 24;

struct Checker<'a, 'b> {
    cache: HashMap<(F, F), bool>,
    budget: usize,
    is_empty: &'a mut IsEmpty<'b>,
}

impl Checker<'_, '_> {
    fn implies(&mut self, a: &mut Arena, p: F, o: F) -> bool {
        if synt_impl::implies(a, p, o, synt_impl::DEPTH) {
            return true;
        }
        if let Some(&r) = self.cache.get(&(p, o)) {
            return r;
        }
        if self.budget == 0 || a.tree_size(p) > MAX_OPERAND || a.tree_size(o) > MAX_OPERAND {
            return false;
        }
        self.budget -= 1;
        let no = a.not(o);
        let q = a.and2(p, no);
        let r = (self.is_empty)(a, q);
        self.cache.insert((p, o), r);
        r
    }
}

/// `f` (any formula) simplified, then rewritten bottom-up with containment-checked
/// implications (`p ⇒ o` iff `is_empty(p ∧ ¬o)`), then simplified again. The result is
/// equivalent to `f` when `is_empty` only answers `true` for formulas without models.
pub(crate) fn simplify_by_containment(a: &mut Arena, f: F, is_empty: &mut IsEmpty<'_>) -> F {
    let g = simplify(a, f);
    let mut ck = Checker {
        cache: HashMap::new(),
        budget: BUDGET,
        is_empty,
    };
    let mut memo = HashMap::new();
    let h = rec(a, g, &mut ck, &mut memo);
    if h == g {
        g
    } else {
        simplify(a, h)
    }
}

fn rec(a: &mut Arena, f: F, ck: &mut Checker, memo: &mut HashMap<F, F>) -> F {
    if let Some(&r) = memo.get(&f) {
        return r;
    }
    let r = if a.is_boolean(f) {
        f
    } else {
        let kids: Vec<F> = a.children(f).iter().map(|&c| rec(a, c, ck, memo)).collect();
        let rebuilt = match a.node(f) {
            Node::Not(_) | Node::Xor(..) | Node::Implies(..) | Node::Equiv(..) => nnf(a, f),
            _ => a.with_children(f, kids),
        };
        synt_impl::rewrite_with(a, rebuilt, &mut |a: &mut Arena, p: F, o: F| {
            ck.implies(a, p, o)
        })
    };
    memo.insert(f, r);
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ltl::{parse::parse, print::to_string};

    #[test]
    fn a_valid_disjunction_found_by_containment() {
        // (X p0 U p1) | !X(p0 U (p0 & p1)) is valid (not syntactically).
        let mut a = Arena::new();
        let f = parse("G(p0 -> Fp1) & ((Xp0 U p1) | !X(p0 U (p0 & p1)))", &mut a).unwrap();
        let mut is_empty = |a: &mut Arena, q: F| {
            let opts = crate::translate::Options {
                postprocess: false,
                wdba: false,
                sba: false,
                max_states: 400,
                ..crate::translate::Options::default()
            };
            crate::translate::translate(a, q, &opts)
                .is_ok_and(|aut| crate::emptiness::is_empty(&aut))
        };
        let g = simplify_by_containment(&mut a, f, &mut is_empty);
        assert_eq!(to_string(&a, g), "G(Fp1 | !p0)");
    }
}
