//! Cuts from proofs: Dillig, Dillig and Aiken, "Cuts from Proofs: A Complete and Practical
//! Technique for Solving Linear Inequalities over Integers" (CAV 2009), Sections 3–5, as an
//! addition to the branch and cut of Dutertre & de Moura, "A Fast Linear-Arithmetic Solver for
//! DPLL(T)" (CAV 2006), Section 6.
//!
//! When the rational relaxation's solution is a vertex with a fractional integer variable, the
//! *defining constraints* of that vertex are the bounds that are tight there: every non-basic
//! integer variable `x` sitting at one of its bounds gives the equation `def(x) = β(x)` over the
//! problem variables (`def` is `x` itself or the slack's linear term). If this system of
//! equations has no integer solution, a proof of that (the paper uses the Hermite normal form:
//! a row `λ` of `H⁻¹` with `λb` not integral) yields an integral linear term `t = λA·x` whose
//! value `λb` at the vertex is not an integer. The split `t ≤ ⌊λb⌋ ∨ t ≥ ⌈λb⌉` is valid for every
//! integer point (`t` has integer coefficients) and excludes the vertex; unlike branching on a
//! variable it cuts along the direction the proof exhibits (the "branch on the proof" form of
//! the paper's Section 5, as in Z3).
//!
//! The proof here comes from the unimodular Diophantine elimination of `dioph/incremental.rs`
//! instead of a Hermite normal form (both decide integer solvability of the system): elimination
//! ends at an equation `Σ a_k y_k + c = 0` whose coefficients' gcd `g` does not divide `c`,
//! over problem variables and fresh variables `σ`. Every `σ` is an integral affine function of
//! the problem variables (it was introduced by `x_k = σ − Σ ⌊a_j/a_k⌋ x_j − ⌊c/a_k⌋`), and every
//! step is an integer combination of the defining equations or a change of variables, so
//! expanding the `σ`s gives `Σ a_k y_k = g·t + e` with `t` integral: `t` is the proof's term.
//!
//! The split is a tautology over integers, so it needs no certificate; `--check` still validates
//! every model.

use crate::arith::{Arith, AtomLits, Rel};
use crate::dioph::incremental::{int_def, Added, Solved, SIGMA_BASE};
use crate::dioph::{gcd, to_int, Eq};
use crate::linearize::Lin;
use crate::simplex::NONE;
use std::collections::HashMap;
use verikit_num::Num;
use verikit_sat::Final;

/// Terms with more variables or larger coefficients are not used (they slow the simplex more
/// than they help, as for Gomory cuts).
const MAX_TERMS: usize = 30;
const MAX_COEF: i128 = 1 << 40;

/// A proof's term is branched on at most this many times (an unbounded direction would
/// otherwise move the vertex along it forever); then branch and bound takes over.
const MAX_PER_TERM: u32 = 3;

/// Cuts from proofs made so far.
#[derive(Default)]
pub(crate) struct ProofCuts {
    /// Branches made on each term.
    per_term: HashMap<Vec<(u32, i128)>, u32>,
    pub(crate) made: u64,
}

/// An integral affine form `Σ terms + c` over problem variables.
type Affine = (HashMap<u32, i128>, i128);

fn add_scaled(acc: &mut Affine, f: &Affine, k: i128) -> Option<()> {
    for (v, a) in &f.0 {
        let e = acc.0.entry(*v).or_insert(0);
        *e = e.checked_add(a.checked_mul(k)?)?;
        if e.abs() > MAX_COEF {
            return None;
        }
    }
    acc.0.retain(|_, a| *a != 0);
    acc.1 = acc.1.checked_add(f.1.checked_mul(k)?)?;
    Some(())
}

/// The column `col` as an affine form over problem variables: problem variables are
/// themselves; `σ` is recovered from the solution that introduced it (the first one mentioning
/// it): `x_k = σ + Σ d_j y_j + d` gives `σ = x_k − Σ d_j y_j − d`.
fn expand(s: &Solved, col: u32, memo: &mut HashMap<u32, Affine>, depth: usize) -> Option<Affine> {
    if col < SIGMA_BASE {
        return Some((HashMap::from([(col, 1)]), 0));
    }
    if let Some(a) = memo.get(&col) {
        return Some(a.clone());
    }
    if depth > 64 {
        return None;
    }
    let (k, def) = s
        .sols
        .iter()
        .find(|(_, d)| d.terms.iter().any(|t| t.0 == col))?;
    let mut out: Affine = (HashMap::new(), 0);
    let xk = expand(s, *k, memo, depth + 1)?;
    add_scaled(&mut out, &xk, 1)?;
    for (y, d) in &def.terms {
        if *y == col {
            if *d != 1 {
                return None;
            }
            continue;
        }
        let ey = expand(s, *y, memo, depth + 1)?;
        add_scaled(&mut out, &ey, -*d)?;
    }
    out.1 = out.1.checked_sub(def.c)?;
    memo.insert(col, out.clone());
    Some(out)
}

/// The proof's term `t` (sorted integer coefficients over problem variables) from the reduced
/// equation `e` of an integer-infeasible defining system.
fn proof_term(s: &Solved, e: &Eq) -> Option<Vec<(u32, i128)>> {
    let g = e.terms.iter().fold(0, |g, t| gcd(g, t.1));
    if g == 0 {
        return None;
    }
    let mut memo = HashMap::new();
    let mut acc: Affine = (HashMap::new(), 0);
    for (col, a) in &e.terms {
        let f = expand(s, *col, &mut memo, 0)?;
        add_scaled(&mut acc, &f, *a)?;
    }
    let mut t: Vec<(u32, i128)> = Vec::with_capacity(acc.0.len());
    for (v, a) in acc.0 {
        if a % g != 0 {
            return None;
        }
        t.push((v, a / g));
    }
    t.sort_unstable_by_key(|p| p.0);
    if t.is_empty() || t.len() > MAX_TERMS {
        return None;
    }
    Some(t)
}

/// A branch on the term of a proof that the current vertex's defining constraints have no
/// integer solution; None if they have one (or the proof's term is unusable).
pub(crate) fn cut_from_proof(th: &mut Arith, num_vars: u32) -> Option<Final> {
    let sx = &th.simplex;
    // Problem variable → its value at the vertex (problem variables are the simplex variables
    // whose definition is the variable itself).
    let mut value: HashMap<u32, Num> = HashMap::new();
    let mut s = Solved::new();
    let mut proof: Option<Eq> = None;
    for x in 0..sx.beta.len() {
        let b = &sx.beta[x];
        if let [(v, one)] = th.defs[x].as_slice() {
            if *one == Num::ONE && b.k.is_zero() {
                value.insert(*v, b.c.clone());
            }
        }
        if proof.is_some() || !sx.is_int[x] || sx.row_of[x] != NONE || !b.k.is_zero() {
            continue;
        }
        let tight = sx.lower[x].as_ref().is_some_and(|l| l.val == *b)
            || sx.upper[x].as_ref().is_some_and(|u| u.val == *b);
        if !tight {
            continue;
        }
        let (v, def) = match (to_int(&b.c), int_def(&th.defs, x as u32)) {
            (Some(v), Some(d)) => (v, d),
            _ => continue,
        };
        match s.add(Eq {
            terms: def,
            c: -v,
            why: Vec::new(),
        }) {
            Added::Ok => {}
            Added::Conflict(e) => proof = Some(e),
            Added::Overflow => return None,
        }
    }
    let t = proof_term(&s, &proof?)?;
    let n = th.lia.proof.per_term.entry(t.clone()).or_insert(0);
    if *n >= MAX_PER_TERM {
        return None;
    }
    *n += 1;
    // t's value at the vertex.
    let mut val = Num::ZERO;
    for (v, a) in &t {
        val = val.add(&value.get(v)?.mul(&Num::int(i64::try_from(*a).ok()?)));
    }
    if val.is_integer() {
        return None;
    }
    let fl = val.floor();
    let lin = Lin {
        terms: t
            .iter()
            .map(|(v, a)| Some((*v, Num::int(i64::try_from(*a).ok()?))))
            .collect::<Option<Vec<_>>>()?,
        c: fl.neg(),
    };
    let mut next = num_vars;
    let mut alloc = || {
        let v = next;
        next += 1;
        v
    };
    let l = match th.constraint(&lin, Rel::Le, &mut alloc) {
        AtomLits::Lit(l) => l,
        _ => return None,
    };
    th.lia.proof.made += 1;
    let up = val.sub(&fl) > Num::S(1, 2);
    Some(Final::Lemmas {
        new_vars: next - num_vars,
        clauses: Vec::new(),
        decide: Some(if up { !l } else { l }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Systems built to hold at a rational point `q/d`: when they have no integer solution,
        /// the proof's term has integer coefficients and the same non-integer value at that point
        /// (it is a combination of the equations, which all hold there).
        #[test]
        fn proof_term_is_integral_and_fractional_at_the_vertex(
            rows in prop::collection::vec(prop::collection::vec(-5i128..=5, 3), 1..=3),
            q in prop::collection::vec(-7i128..=7, 3),
            d in 2i128..=4,
        ) {
            let mut s = Solved::new();
            let mut proof = None;
            for r in &rows {
                let aq: i128 = r.iter().zip(&q).map(|(a, q)| a * q).sum();
                // Rows that do not hold at q/d are left out of the system (rejecting the
                // whole case instead made the generator give up too often).
                if aq % d != 0 {
                    continue;
                }
                let terms: Vec<(u32, i128)> = r
                    .iter()
                    .enumerate()
                    .filter(|t| *t.1 != 0)
                    .map(|(j, a)| (j as u32, *a))
                    .collect();
                match s.add(Eq { terms, c: -aq / d, why: Vec::new() }) {
                    Added::Ok => {}
                    Added::Conflict(e) => {
                        proof = Some(e);
                        break;
                    }
                    Added::Overflow => return Ok(()),
                }
            }
            let e = match proof {
                Some(e) => e,
                None => return Ok(()),
            };
            let t = match proof_term(&s, &e) {
                Some(t) => t,
                None => return Ok(()),
            };
            // t(q/d) = Σ t_j q_j / d must not be an integer.
            let num: i128 = t.iter().map(|(v, a)| a * q[*v as usize]).sum();
            prop_assert!(num % d != 0, "t = {:?} is integral at {:?}/{}", t, q, d);
        }
    }
}
