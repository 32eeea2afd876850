//! Direct evaluation of an LTL formula on an ultimately periodic word `u v^ω` (a lasso), by
//! fixpoint iteration over the `|u| + |v|` positions (least fixpoints for `U`, `M`, `F`, greatest
//! for `R`, `W`, `G`). It shares nothing with the automaton translation, so the test suite uses it
//! as the independent oracle of ltlcross-style checks.

use super::ast::{Arena, Node, F};
use std::collections::HashMap;

/// A lasso word: letters are valuations, bit `i` is the value of atomic proposition `i`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lasso {
    pub prefix: Vec<u64>,
    pub cycle: Vec<u64>,
}

impl Lasso {
    /// Every lasso over the letters `0..letters` with a prefix of at most `max_prefix` and a
    /// non-empty cycle of at most `max_cycle` letters (for exhaustive checks on small alphabets).
    pub fn all(letters: u64, max_prefix: usize, max_cycle: usize) -> Vec<Lasso> {
        let mut by_len: Vec<Vec<Vec<u64>>> = vec![vec![vec![]]];
        for len in 1..=max_prefix.max(max_cycle) {
            let next = by_len[len - 1]
                .iter()
                .flat_map(|w| {
                    (0..letters).map(move |l| {
                        let mut w = w.clone();
                        w.push(l);
                        w
                    })
                })
                .collect();
            by_len.push(next);
        }
        let mut out = Vec::new();
        for p in by_len[..=max_prefix].iter().flatten() {
            for c in by_len[1..=max_cycle].iter().flatten() {
                out.push(Lasso {
                    prefix: p.clone(),
                    cycle: c.clone(),
                });
            }
        }
        out
    }
}

/// Whether `u v^ω` satisfies the LTL formula `f` (`cycle` must be non-empty; an empty cycle gives
/// `false`; formulas with PSL operators, `Arena::has_sere`, are outside its scope and give `false`).
pub fn holds(a: &Arena, f: F, w: &Lasso) -> bool {
    if w.cycle.is_empty() {
        return false;
    }
    let n = w.prefix.len() + w.cycle.len();
    let letters: Vec<u64> = w.prefix.iter().chain(w.cycle.iter()).copied().collect();
    let loop_to = w.prefix.len();
    let next = |i: usize| if i + 1 < n { i + 1 } else { loop_to };
    let mut memo: HashMap<F, Vec<bool>> = HashMap::new();
    let v = eval(a, f, &letters, &next, &mut memo);
    v[0]
}

fn eval(
    a: &Arena,
    f: F,
    letters: &[u64],
    next: &dyn Fn(usize) -> usize,
    memo: &mut HashMap<F, Vec<bool>>,
) -> Vec<bool> {
    if let Some(v) = memo.get(&f) {
        return v.clone();
    }
    let n = letters.len();
    let r: Vec<bool> = match a.node(f).clone() {
        Node::True => vec![true; n],
        Node::False => vec![false; n],
        // This evaluator covers LTL only: PSL's SERE operators are checked through their
        // automaton (`translate`), and their tests carry their own brute-force semantics.
        Node::Closure(_) | Node::NegClosure(..) | Node::EConcat(..) | Node::UConcat(..) => {
            vec![false; n]
        }
        Node::Ap(i) => letters
            .iter()
            .map(|&l| i < 64 && (l >> i) & 1 == 1)
            .collect(),
        Node::Not(x) => eval(a, x, letters, next, memo).iter().map(|b| !b).collect(),
        Node::X(x) => {
            let v = eval(a, x, letters, next, memo);
            (0..n).map(|i| v[next(i)]).collect()
        }
        Node::And(xs) => {
            let mut acc = vec![true; n];
            for x in xs {
                let v = eval(a, x, letters, next, memo);
                for i in 0..n {
                    acc[i] &= v[i];
                }
            }
            acc
        }
        Node::Or(xs) => {
            let mut acc = vec![false; n];
            for x in xs {
                let v = eval(a, x, letters, next, memo);
                for i in 0..n {
                    acc[i] |= v[i];
                }
            }
            acc
        }
        Node::Xor(x, y) | Node::Implies(x, y) | Node::Equiv(x, y) => {
            let vx = eval(a, x, letters, next, memo);
            let vy = eval(a, y, letters, next, memo);
            let op = a.node(f).clone();
            (0..n)
                .map(|i| match op {
                    Node::Xor(..) => vx[i] != vy[i],
                    Node::Implies(..) => !vx[i] || vy[i],
                    _ => vx[i] == vy[i],
                })
                .collect()
        }
        Node::Ev(x) => {
            let t = vec![true; n];
            let vx = eval(a, x, letters, next, memo);
            fix(n, next, false, &t, &vx, false)
        }
        Node::Gl(x) => {
            let fl = vec![false; n];
            let vx = eval(a, x, letters, next, memo);
            // G x = x R... : greatest fixpoint of  x & next
            fix(n, next, true, &fl, &vx, true)
        }
        Node::U(x, y) => {
            let vx = eval(a, x, letters, next, memo);
            let vy = eval(a, y, letters, next, memo);
            fix(n, next, false, &vx, &vy, false)
        }
        Node::W(x, y) => {
            let vx = eval(a, x, letters, next, memo);
            let vy = eval(a, y, letters, next, memo);
            fix(n, next, true, &vx, &vy, false)
        }
        Node::R(x, y) => {
            let vx = eval(a, x, letters, next, memo);
            let vy = eval(a, y, letters, next, memo);
            fix(n, next, true, &vx, &vy, true)
        }
        Node::M(x, y) => {
            let vx = eval(a, x, letters, next, memo);
            let vy = eval(a, y, letters, next, memo);
            fix(n, next, false, &vx, &vy, true)
        }
    };
    memo.insert(f, r.clone());
    r
}

/// Fixpoint of `val[i] = b[i] || (a[i] && val[next i])` (`release == false`: until-like) or
/// `val[i] = b[i] && (a[i] || val[next i])` (`release == true`), least (`greatest == false`) or
/// greatest. Iterating `n + 1` times from the bottom (top) reaches the fixpoint on a lasso.
fn fix(
    n: usize,
    next: &dyn Fn(usize) -> usize,
    greatest: bool,
    a: &[bool],
    b: &[bool],
    release: bool,
) -> Vec<bool> {
    let mut val = vec![greatest; n];
    for _ in 0..=n {
        let mut changed = false;
        for i in (0..n).rev() {
            let nv = if release {
                b[i] && (a[i] || val[next(i)])
            } else {
                b[i] || (a[i] && val[next(i)])
            };
            if nv != val[i] {
                val[i] = nv;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    val
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ltl::parse::parse;

    #[test]
    fn all_lassos_are_enumerated_once() {
        let all = Lasso::all(4, 2, 3);
        assert_eq!(all.len(), (1 + 4 + 16) * (4 + 16 + 64));
        let distinct: std::collections::HashSet<_> =
            all.iter().map(|w| (&w.prefix, &w.cycle)).collect();
        assert_eq!(distinct.len(), all.len());
        assert!(all
            .iter()
            .all(|w| !w.cycle.is_empty() && w.prefix.len() <= 2));
    }

    fn h(f: &str, prefix: &[u64], cycle: &[u64]) -> bool {
        let mut a = Arena::new();
        a.ap_id("a");
        a.ap_id("b");
        let f = parse(f, &mut a).unwrap();
        holds(
            &a,
            f,
            &Lasso {
                prefix: prefix.to_vec(),
                cycle: cycle.to_vec(),
            },
        )
    }

    #[test]
    fn small_lassos() {
        assert!(h("GFa", &[], &[0, 1]));
        assert!(!h("FGa", &[], &[0, 1]));
        assert!(h("FGa", &[0, 0], &[1]));
        assert!(h("a U b", &[1, 1, 2], &[0]));
        assert!(!h("a U b", &[1, 0, 2], &[0]));
        assert!(h("a W b", &[], &[1]));
        assert!(!h("a U b", &[], &[1]));
        assert!(h("b R a", &[], &[1]));
        assert!(h("b M a", &[1, 3], &[0]));
        assert!(!h("b M a", &[], &[1]));
        assert!(h("X!a", &[1, 0], &[1]));
        assert!(h("G(a -> Xb)", &[1, 2], &[0]));
    }
}
