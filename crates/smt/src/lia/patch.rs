//! Integer patching of the simplex assignment before branching, as part of the integer
//! extension (Section 6, "branch and cut") of Dutertre & de Moura, "A Fast Linear-Arithmetic
//! Solver for DPLL(T)" (CAV 2006). The rational solution Check finds is one point of the
//! relaxation; other points are reached without pivoting by moving a non-basic variable inside
//! its bounds (the paper's `update`). Before branch and bound splits on a fractional basic
//! integer variable `x_b = … + a·x_j + …`, this looks for an integer shift `d` of an integral
//! non-basic integer variable `x_j` that makes `β(x_b)` integral: with `a = p/q` in lowest
//! terms and `f` the fractional part of `β(x_b)`, `f + p·d/q` is an integer exactly when `q·f`
//! is an integer `t` and `p·d ≡ −t (mod q)`. The shift is taken only if `x_j` and every basic
//! variable of its column stay within their bounds and no integral integer basic variable of
//! the column becomes fractional, so the assignment stays a solution of the relaxation
//! (Z3's `patch_basic_columns` does the same; decision 0225). The patch is kept only when it
//! reaches an integral point (the final check then answers sat without branching); otherwise the
//! assignment is put back as it was, so branch and bound sees the vertex Check found (patched
//! but still fractional points led branch and bound elsewhere, measured worse on slacks 45-34).
//! Only the assignment moves: a patched point is checked like any other (`--check` validates
//! the model).

use crate::arith::Arith;
use crate::gcd::inverse_mod;
use crate::simplex::NONE;
use num_integer::Integer;
use num_traits::{One, Zero};
use verikit_num::{DRat, Num};

/// At most this many row entries are examined per call (the patch runs at every integer final
/// check).
const MAX_WORK: usize = 20_000;

/// The two integer shifts `d` nearest to 0 (one ≥ 0, one < 0) with `f + a·d` integral.
fn shifts(f: &Num, a: &Num) -> Option<[Num; 2]> {
    let (p, q) = a.parts();
    if q.is_one() || p.is_zero() {
        return None;
    }
    let t = f.mul(&Num::from_bigint(q.clone()));
    if !t.is_integer() {
        return None;
    }
    let (t, _) = t.parts();
    let inv = inverse_mod(&p, &q)?;
    let d0 = (-t * inv).mod_floor(&q);
    if d0.is_zero() {
        return None;
    }
    let d1 = &d0 - &q;
    Some([Num::from_bigint(d0), Num::from_bigint(d1)])
}

fn within(th: &Arith, y: usize, v: &DRat) -> bool {
    th.simplex.lower[y].as_ref().is_none_or(|l| *v >= l.val)
        && th.simplex.upper[y].as_ref().is_none_or(|u| *v <= u.val)
}

/// Tries to shift non-basic integer variables so that fractional basic integer variables become
/// integral. Returns how many shifts were made; `undo` receives the previous value of every
/// variable changed (first change first).
pub(crate) fn patch(th: &mut Arith, undo: &mut Vec<(usize, DRat)>) -> usize {
    let mut work = 0usize;
    let mut made = 0;
    let xs: Vec<u32> = th.int_vars().to_vec();
    for x in xs {
        let xi = x as usize;
        let r = th.simplex.row_of[xi];
        if r == NONE {
            continue;
        }
        let b = &th.simplex.beta[xi];
        if !b.k.is_zero() || b.c.is_integer() {
            continue;
        }
        let f = b.c.sub(&b.c.floor());
        let row = th.simplex.rows[r as usize].clone();
        'entries: for (j, a) in row {
            let ju = j as usize;
            work += 1 + th.simplex.cols[ju].len();
            if work > MAX_WORK {
                return made;
            }
            let bj = &th.simplex.beta[ju];
            if !th.simplex.is_int[ju] || !bj.k.is_zero() || !bj.c.is_integer() {
                continue;
            }
            let Some(ds) = shifts(&f, &a) else {
                continue;
            };
            'shift: for d in ds {
                let nj = th.simplex.beta[ju].add(&DRat::num(d.clone()));
                if !within(th, ju, &nj) {
                    continue;
                }
                let mut updates: Vec<(usize, DRat)> = Vec::new();
                for &s in &th.simplex.cols[ju] {
                    let y = th.simplex.basic_of[s as usize];
                    if y == NONE {
                        continue;
                    }
                    let yu = y as usize;
                    let c = match th.simplex.rows[s as usize].iter().find(|(z, _)| *z == j) {
                        Some((_, c)) => c,
                        None => continue,
                    };
                    let old = &th.simplex.beta[yu];
                    let new = old.add(&DRat::num(c.mul(&d)));
                    if !within(th, yu, &new) {
                        continue 'shift;
                    }
                    if th.simplex.is_int[yu]
                        && old.k.is_zero()
                        && old.c.is_integer()
                        && !new.c.is_integer()
                    {
                        continue 'shift;
                    }
                    updates.push((yu, new));
                }
                undo.push((ju, std::mem::replace(&mut th.simplex.beta[ju], nj)));
                for (y, v) in updates {
                    undo.push((y, std::mem::replace(&mut th.simplex.beta[y], v)));
                }
                made += 1;
                break 'entries;
            }
        }
    }
    made
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::{AtomLits, Rel};
    use crate::linearize::Lin;
    use verikit_sat::Theory;

    /// `2x + y = 1`: Check makes `x = ½ − ½·y` basic with `y = 0`, so `x = ½`; the patch shifts
    /// `y` by an odd amount, after which every row still holds, every bound is satisfied and
    /// both variables are integers.
    #[test]
    fn patch_makes_a_basic_variable_integral_and_keeps_the_rows() {
        let mut th = Arith::new();
        th.var_is_int = vec![true; 2];
        let mut next = 0u32;
        let mut alloc = || {
            next += 1;
            next
        };
        let lin = Lin {
            terms: vec![(0, Num::int(2)), (1, Num::ONE)],
            c: Num::int(-1),
        };
        let AtomLits::Both(a, b) = th.constraint(&lin, Rel::Eq, &mut alloc) else {
            panic!("an equation gives two literals");
        };
        assert!(th.assert_lit(a).is_ok() && th.assert_lit(b).is_ok());
        assert!(th.check().is_ok());
        let (x, y) = (th.int_vars()[0] as usize, th.int_vars()[1] as usize);
        assert!(
            !th.simplex.beta[x].c.is_integer(),
            "the vertex is fractional"
        );
        let mut undo = Vec::new();
        assert_eq!(patch(&mut th, &mut undo), 1);
        assert_eq!(undo.len(), 2, "y and x changed");
        assert!(th.simplex.beta[x].c.is_integer() && th.simplex.beta[y].c.is_integer());
        let two_x_plus_y = th.simplex.beta[x]
            .c
            .mul(&Num::int(2))
            .add(&th.simplex.beta[y].c);
        assert_eq!(two_x_plus_y, Num::ONE);
        for (r, row) in th.simplex.rows.iter().enumerate() {
            let b = th.simplex.basic_of[r];
            if b == NONE {
                continue;
            }
            let mut v = DRat::zero();
            for (z, a) in row {
                v = v.add(&th.simplex.beta[*z as usize].scale(a));
            }
            assert_eq!(v, th.simplex.beta[b as usize], "row of {b}");
            assert!(within(&th, b as usize, &v));
        }
    }

    #[test]
    fn shifts_make_the_value_integral() {
        // f = 1/3, a = 2/3: 1/3 + 2/3·d integral for d ≡ 1 (mod 3).
        let s = shifts(&Num::S(1, 3), &Num::S(2, 3)).unwrap();
        assert_eq!(s, [Num::int(1), Num::int(-2)]);
        for d in &s {
            assert!(Num::S(1, 3).add(&Num::S(2, 3).mul(d)).is_integer());
        }
        // f = 1/2 cannot be reached with a denominator 3, nor with an integer coefficient.
        assert!(shifts(&Num::S(1, 2), &Num::S(2, 3)).is_none());
        assert!(shifts(&Num::S(1, 2), &Num::int(3)).is_none());
        // f = 3/4, a = -5/4: 3/4 − 5d/4 integral for d ≡ 3 (mod 4).
        let s = shifts(&Num::S(3, 4), &Num::S(-5, 4)).unwrap();
        assert_eq!(s, [Num::int(3), Num::int(-1)]);
    }
}
