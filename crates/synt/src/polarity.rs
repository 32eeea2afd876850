//! Polarity simplification: a proposition that occurs with one polarity only is fixed to the
//! value that is best for its owner.
//!
//! As Spot's `ltlsynt --polarity=yes` (Spot 2.11) does before synthesis. If `φ` is monotone in
//! an output `o` (every occurrence positive, under an even number of negations and on the
//! non-negated side of `→`, never under `↔`/`xor`), then setting `o` constantly true never falsifies
//! `φ`: `φ` is realizable iff `φ[o := ⊤]` is, and a controller of `φ[o := ⊤]` with `o` wired to 1 is
//! one of `φ`. Negative only: `o := ⊥`. Dually, an input occurring positively only is worst for
//! the system when constantly false: `φ` is realizable iff `φ[i := ⊥]` is (a controller of the
//! latter never reads `i` and, by monotonicity, satisfies `φ` for every value of `i`), and a
//! counter-strategy of `φ[i := ⊥]` playing `i = 0` is one of `φ` (a system output that was fixed
//! can only make `φ` truer at its fixed value). Substitution only removes occurrences, so fixing
//! several propositions together, and repeating until nothing changes, keeps these equivalences.

use std::collections::HashMap;
use verikit_omega::{Arena, Node, F};

const POS: u8 = 1;
const NEG: u8 = 2;
const BOTH: u8 = 3;

fn flip(p: u8) -> u8 {
    match p {
        POS => NEG,
        NEG => POS,
        other => other,
    }
}

/// The polarities (`POS`/`NEG` bits) each proposition occurs with in `f`.
fn polarities(arena: &Arena, f: F) -> HashMap<u32, u8> {
    let mut acc: HashMap<u32, u8> = HashMap::new();
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![(f, POS)];
    while let Some((g, p)) = todo.pop() {
        if !seen.insert((g, p)) {
            continue;
        }
        match arena.node(g) {
            Node::True | Node::False => {}
            Node::Ap(i) => *acc.entry(*i).or_default() |= p,
            Node::Not(a) => todo.push((*a, flip(p))),
            Node::X(a) | Node::Ev(a) | Node::Gl(a) => todo.push((*a, p)),
            Node::And(v) | Node::Or(v) => todo.extend(v.iter().map(|&a| (a, p))),
            Node::U(a, b) | Node::R(a, b) | Node::W(a, b) | Node::M(a, b) => {
                todo.push((*a, p));
                todo.push((*b, p));
            }
            Node::Implies(a, b) => {
                todo.push((*a, flip(p)));
                todo.push((*b, p));
            }
            Node::Xor(a, b) | Node::Equiv(a, b) => {
                todo.push((*a, BOTH));
                todo.push((*b, BOTH));
            }
            Node::Closure(_) | Node::NegClosure(..) | Node::EConcat(..) | Node::UConcat(..) => {
                for i in arena.aps_of(g) {
                    *acc.entry(i).or_default() |= BOTH;
                }
            }
        }
    }
    acc
}

/// `f` with the propositions of `fixed` replaced by constants.
fn substitute(arena: &mut Arena, f: F, fixed: &HashMap<u32, bool>, memo: &mut HashMap<F, F>) -> F {
    if let Some(&g) = memo.get(&f) {
        return g;
    }
    let g = match arena.node(f) {
        Node::Ap(i) => match fixed.get(i) {
            Some(&b) => arena.constant(b),
            None => f,
        },
        Node::Closure(_) | Node::NegClosure(..) => f,
        _ => {
            let kids: Vec<F> = arena
                .children(f)
                .into_iter()
                .map(|k| substitute(arena, k, fixed, memo))
                .collect();
            if kids == arena.children(f) {
                f
            } else {
                arena.with_children(f, kids)
            }
        }
    };
    memo.insert(f, g);
    g
}

/// `f` simplified by fixing single-polarity propositions, and the fixed ones (proposition
/// index → value). `is_output(i)` tells the owner of proposition `i`.
pub(crate) fn simplify(
    arena: &mut Arena,
    mut f: F,
    is_output: &dyn Fn(u32) -> bool,
) -> (F, Vec<(u32, bool)>) {
    let mut all = Vec::new();
    loop {
        let pol = polarities(arena, f);
        let mut fixed: HashMap<u32, bool> = HashMap::new();
        for (&i, &p) in &pol {
            let value = match (p, is_output(i)) {
                (POS, true) | (NEG, false) => true,
                (NEG, true) | (POS, false) => false,
                _ => continue,
            };
            fixed.insert(i, value);
        }
        if fixed.is_empty() {
            break;
        }
        f = substitute(arena, f, &fixed, &mut HashMap::new());
        all.extend(fixed);
    }
    all.sort_unstable();
    (f, all)
}

/// Whether fixing `fixed` (proposition index → value) in `f` is justified by monotonicity:
/// replaying the fixing, each round substitutes the fixed propositions that occur in the current
/// formula with one polarity only and whose value is their owner's best for that polarity (or
/// do not occur any more); every fixed proposition must be substituted so. Returns `f` with them
/// substituted, or `None`.
pub(crate) fn justified(
    arena: &mut Arena,
    mut f: F,
    fixed: &[(u32, bool)],
    is_output: &dyn Fn(u32) -> bool,
) -> Option<F> {
    let mut left: Vec<(u32, bool)> = fixed.to_vec();
    while !left.is_empty() {
        let pol = polarities(arena, f);
        let (now, later): (Vec<_>, Vec<_>) = left.iter().partition(|&&(i, v)| match pol.get(&i) {
            None => true,
            Some(&p) => matches!(
                (p, is_output(i), v),
                (POS, true, true) | (NEG, false, true) | (NEG, true, false) | (POS, false, false)
            ),
        });
        if now.is_empty() {
            return None;
        }
        let map: HashMap<u32, bool> = now.into_iter().collect();
        f = substitute(arena, f, &map, &mut HashMap::new());
        left = later;
    }
    Some(f)
}

/// `f` with `values` substituted (no condition).
pub(crate) fn substituted(arena: &mut Arena, f: F, values: &[(u32, bool)]) -> F {
    let map: HashMap<u32, bool> = values.iter().copied().collect();
    substitute(arena, f, &map, &mut HashMap::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, outs: &[&str]) -> (String, Vec<(String, bool)>) {
        let mut arena = Arena::new();
        let f = verikit_omega::task::parse_formula(text, 0, &mut arena).unwrap();
        let outs: Vec<u32> = outs.iter().map(|o| arena.ap_id(o)).collect();
        let (g, fixed) = simplify(&mut arena, f, &|i| outs.contains(&i));
        let fixed = fixed
            .into_iter()
            .map(|(i, b)| (arena.ap_name(i).to_string(), b))
            .collect();
        (verikit_omega::ltl_to_string(&arena, g), fixed)
    }

    #[test]
    fn single_polarity_propositions_are_fixed_for_their_owner() {
        // g only positive: set to true; then the formula is true. r is negative (left of →),
        // fixed to true — the environment's worst.
        let (f, fixed) = run("G(r -> F g)", &["g"]);
        assert_eq!(f, "1");
        assert!(fixed.contains(&("g".into(), true)), "{fixed:?}");
        // Under ↔ both polarities: nothing fixed.
        let (f, fixed) = run("G(r <-> X g)", &["g"]);
        assert!(fixed.is_empty(), "{f} {fixed:?}");
        // GF i0 -> GF a0 with a mutual exclusion on the outputs: i0 fixed true (its only
        // occurrence is negative), the outputs stay.
        let (f, fixed) = run("G!(a0 & a1) & (GF i0 -> GF a0) & GF a1", &["a0", "a1"]);
        assert_eq!(fixed, [("i0".to_string(), true)], "{f}");
        assert!(!f.contains("i0"), "{f}");
        // An input positive only is fixed false.
        let (_, fixed) = run("G(g <-> X g) & (G r | F g)", &["g"]);
        assert_eq!(fixed, [("r".to_string(), false)]);
    }

    #[test]
    fn the_fixing_is_replayed_and_a_wrong_value_is_not_justified() {
        let mut arena = Arena::new();
        let f =
            verikit_omega::task::parse_formula("G(r -> F g) & G(i -> X a)", 0, &mut arena).unwrap();
        let outs: Vec<u32> = ["g", "a"].iter().map(|o| arena.ap_id(o)).collect();
        let is_out = |i: u32| outs.contains(&i);
        let (_, fixed) = simplify(&mut arena, f, &is_out);
        assert!(justified(&mut arena, f, &fixed, &is_out).is_some());
        // r occurs negatively: the environment's worst is r = 1, not 0.
        let r = arena.ap_id("r");
        assert!(justified(&mut arena, f, &[(r, true)], &is_out).is_some());
        assert!(justified(&mut arena, f, &[(r, false)], &is_out).is_none());
        // A proposition the others' fixing removes may take any value.
        let g = arena.ap_id("g");
        assert!(justified(&mut arena, f, &[(g, true), (r, false)], &is_out).is_some());
    }
}
