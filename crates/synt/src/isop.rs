//! Irredundant sums of products between a lower and an upper bound, by the Minato–Morreale
//! recursion (S. Minato, *Fast generation of prime-irredundant covers from binary decision
//! diagrams*, IEICE Trans. Fundamentals E76-A(6), 1993, §3, the ISOP algorithm; after
//! M. Morreale, *Recursive operators for prime implicant and irredundant normal form
//! determination*, IEEE Trans. Computers C-19(6), 1970).
//!
//! Given `lower ⊆ upper` (the on-set and the on-set with the don't-cares), [`isop`] returns a
//! cover — a set of cubes whose union `f` satisfies `lower ⊆ f ⊆ upper`, none of them redundant
//! — and `f` as a BDD. The controller encoder (`aig`) uses it for the don't-cares of unused state
//! codes, as Spot's `ltlsynt --aiger=isop` encodes the functions as sums of products (its
//! `--help`: `ite`, `isop` or `both`, with `+ud` for unused codes as don't-cares).

use std::collections::HashMap;

use crate::error::SyntError;
use verikit_bdd::{Bdd, BddVariable, BddVariableSet};
use verikit_diag::Budget;

/// A cube: literals `(variable, polarity)`, variables in increasing BDD order.
pub(crate) type Cube = Vec<(BddVariable, bool)>;

/// An irredundant cover of some `f` with `lower ⊆ f ⊆ upper`, and `f`. `lower ⊆ upper` is the
/// caller's obligation (otherwise the result covers `lower ∧ upper` only).
pub(crate) fn isop(
    lower: &Bdd,
    upper: &Bdd,
    set: &BddVariableSet,
    budget: &Budget,
) -> Result<(Vec<Cube>, Bdd), SyntError> {
    let mut memo = HashMap::new();
    rec(lower, upper, set, budget, &mut memo)
}

type Memo = HashMap<(Bdd, Bdd), (Vec<Cube>, Bdd)>;

fn top(f: &Bdd) -> Option<BddVariable> {
    if f.is_false() || f.is_true() {
        None
    } else {
        Some(f.var_of(f.root_pointer()))
    }
}

fn rec(
    lower: &Bdd,
    upper: &Bdd,
    set: &BddVariableSet,
    budget: &Budget,
    memo: &mut Memo,
) -> Result<(Vec<Cube>, Bdd), SyntError> {
    if lower.is_false() {
        return Ok((Vec::new(), set.mk_false()));
    }
    if upper.is_true() {
        return Ok((vec![Vec::new()], set.mk_true()));
    }
    let key = (lower.clone(), upper.clone());
    if let Some(r) = memo.get(&key) {
        return Ok(r.clone());
    }
    budget.check()?;
    // The first variable of either bound in the BDD order (lower is not false, upper not true).
    let x = match (top(lower), top(upper)) {
        (Some(a), Some(b)) => a.min(b),
        (Some(a), None) | (None, Some(a)) => a,
        (None, None) => return Err(SyntError::Internal("isop: lower ⊄ upper".into())),
    };
    let (l0, l1) = (lower.var_restrict(x, false), lower.var_restrict(x, true));
    let (u0, u1) = (upper.var_restrict(x, false), upper.var_restrict(x, true));
    // Cubes that need ¬x, cubes that need x, then cubes free of x for what is left.
    let (c0, f0) = rec(&l0.and_not(&u1), &u0, set, budget, memo)?;
    let (c1, f1) = rec(&l1.and_not(&u0), &u1, set, budget, memo)?;
    let rest = l0.and_not(&f0).or(&l1.and_not(&f1));
    let (cs, fs) = rec(&rest, &u0.and(&u1), set, budget, memo)?;
    let mut cubes = Vec::with_capacity(c0.len() + c1.len() + cs.len());
    for (c, pol) in [(c0, false), (c1, true)] {
        for mut cube in c {
            cube.insert(0, (x, pol));
            cubes.push(cube);
        }
    }
    cubes.extend(cs);
    let f = set
        .mk_literal(x, false)
        .and(&f0)
        .or(&set.mk_literal(x, true).and(&f1))
        .or(&fs);
    memo.insert(key, (cubes.clone(), f.clone()));
    Ok((cubes, f))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair `lower ⊆ upper` of functions over three variables: the cover's union is `f`,
    /// `f` lies between the bounds, and no cube can be dropped.
    #[test]
    fn covers_between_bounds_and_irredundant() {
        let set = BddVariableSet::new_anonymous(3);
        let vars = set.variables();
        let minterm = |m: u32| {
            let mut c = set.mk_true();
            for (i, &v) in vars.iter().enumerate() {
                c = c.and(&set.mk_literal(v, m >> i & 1 == 1));
            }
            c
        };
        let func = |bits: u32| {
            (0..8)
                .filter(|m| bits >> m & 1 == 1)
                .fold(set.mk_false(), |f, m| f.or(&minterm(m)))
        };
        let cube_bdd = |c: &Cube| {
            c.iter()
                .fold(set.mk_true(), |f, &(v, p)| f.and(&set.mk_literal(v, p)))
        };
        let budget = Budget::unlimited();
        for lo in 0u32..256 {
            for dc in [0u32, 0b1010_0101, 0b0000_1111, 0b1100_0000] {
                let (l, u) = (func(lo), func(lo | dc));
                let (cubes, f) = isop(&l, &u, &set, &budget).unwrap();
                let union = cubes.iter().fold(set.mk_false(), |g, c| g.or(&cube_bdd(c)));
                assert_eq!(union, f);
                assert!(l.and_not(&f).is_false() && f.and_not(&u).is_false());
                for k in 0..cubes.len() {
                    let without = cubes
                        .iter()
                        .enumerate()
                        .filter(|&(j, _)| j != k)
                        .fold(set.mk_false(), |g, (_, c)| g.or(&cube_bdd(c)));
                    assert!(!l.and_not(&without).is_false(), "cube {k} redundant");
                }
            }
        }
    }
}
