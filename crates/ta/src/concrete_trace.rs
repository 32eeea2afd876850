//! A concrete timed trace (delays and discrete moves) along a symbolic path, by backward
//! propagation of exact (non-extrapolated) zones and a forward choice of delays in exact rationals.
//!
//! Seed: Bengtsson & Yi, "Timed Automata: Semantics, Algorithms and Tools" (2003), §4 (pre-images
//! `down`, reset inverse by `free`); the trace shape (delays and transitions, as UPPAAL's
//! diagnostic traces) follows Schivo et al., "How to efficiently build a front-end tool for UPPAAL:
//! a model-driven approach" (SETTA 2017, §3.3, the trace metamodel).
//!
//! For the path `s_0 –t_0→ … –t_{n−1}→ s_n`, `B_n` is the invariant of `s_n` and `B_i` is the set of
//! valuations of `s_i` (after its delay) that satisfy `t_i`'s guard and whose successor can delay
//! into `B_{i+1}`. Extrapolations used by the search (ExtraM, ExtraLU+) are simulations, so a path
//! found on abstracted zones is feasible and `0 ∈ down(B_0)`. Then, from the valuation `0`, each
//! delay is chosen inside the interval that reaches `B_i` (its lower end when closed, else a
//! midpoint), so the trace uses rationals with small denominators.

use crate::dbm::{is_le, le, value, Dbm, INF};
use crate::zone_graph::{constrain_move, Discrete, Transition, ZoneGraph};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

/// One step: let `delay` time units pass, then take `transition`.
#[derive(Clone, Debug, PartialEq)]
pub struct TimedStep {
    pub delay: BigRational,
    /// The participants; entries with the top bit of the process set mark broadcast receivers
    /// that stay out (their clock guard is false), which the independent checker ignores.
    pub transition: Transition,
}

/// A timed run from the initial locations `initial` (all clocks and integers initial).
#[derive(Clone, Debug, PartialEq)]
pub struct TimedTrace {
    pub initial: Vec<u32>,
    pub steps: Vec<TimedStep>,
    /// A delay after the last step (zero unless the trace must end in given valuations, as a
    /// deadlock).
    pub final_delay: BigRational,
}

fn rat(v: i32) -> BigRational {
    BigRational::from_integer(BigInt::from(v))
}

/// Builds the concrete trace of a path given by its initial discrete state and transitions; with
/// `target` (valuations of the last state, within its exact zone), the trace ends with a delay
/// into `target`.
#[allow(clippy::needless_range_loop)] // clock indices address the zones and the valuation
pub(crate) fn concretize(
    zg: &ZoneGraph<'_>,
    initial: &Discrete,
    path: &[Transition],
    target: Option<&Dbm>,
) -> Result<TimedTrace, String> {
    let n = zg.model.processes.len();
    let dim = zg.model.dim();
    // discrete states and resets along the path
    let mut states: Vec<Discrete> = vec![initial.clone()];
    let mut resets: Vec<Vec<(usize, i64)>> = Vec::new();
    for t in path {
        let cur = states.last().ok_or("empty path")?;
        let (next, r) = zg
            .discrete_step(cur, t)
            .ok_or("a transition of the path is disabled on its discrete state")?;
        states.push(next);
        resets.push(r);
    }
    let split = |d: &Discrete| -> (Vec<i32>, Vec<i32>) {
        let (a, b) = d.split_at(n.min(d.len()));
        (a.to_vec(), b.to_vec())
    };
    // backward zones
    let mut b: Vec<Dbm> = vec![Dbm::universe(dim); path.len() + 1];
    {
        let (l, i) = split(&states[path.len()]);
        let mut z = Dbm::universe(dim);
        if !zg.constrain_invariant(&mut z, &l, &i) {
            return Err("the final invariant is unsatisfiable".into());
        }
        if let Some(t) = target {
            if !z.intersect(t) {
                return Err("the final target is outside the invariant".into());
            }
        }
        b[path.len()] = z;
    }
    for k in (0..path.len()).rev() {
        let (nl, ni) = split(&states[k + 1]);
        let mut pre = b[k + 1].clone();
        if !zg.is_urgent(&states[k + 1]) {
            pre.down();
            if !zg.constrain_invariant(&mut pre, &nl, &ni) {
                return Err(format!("empty backward zone at step {k}"));
            }
        }
        for &(x, c) in resets[k].iter().rev() {
            let c = c as i32;
            if !(pre.constrain(x, 0, le(c)) && pre.constrain(0, x, le(-c))) {
                return Err(format!("empty reset pre-image at step {k}"));
            }
            pre.free(x);
        }
        let (sl, si) = split(&states[k]);
        if !constrain_move(&mut pre, zg.model, &path[k], &si) {
            return Err(format!("guard not satisfiable at step {k}"));
        }
        if !zg.constrain_invariant(&mut pre, &sl, &si) {
            return Err(format!("source invariant not satisfiable at step {k}"));
        }
        b[k] = pre;
    }
    // forward choice of delays
    let mut v: Vec<BigRational> = vec![BigRational::zero(); dim];
    let mut steps = Vec::new();
    for (k, t) in path.iter().enumerate() {
        let d = choose_delay(&b[k], &v, zg.is_urgent(&states[k]))
            .ok_or_else(|| format!("no delay reaches the guard of step {k}"))?;
        for x in v.iter_mut().skip(1) {
            *x += &d;
        }
        for &(x, c) in &resets[k] {
            if let Some(slot) = v.get_mut(x) {
                *slot = BigRational::from_integer(BigInt::from(c));
            }
        }
        steps.push(TimedStep {
            delay: d,
            transition: t.clone(),
        });
    }
    let final_delay = match target {
        None => BigRational::zero(),
        Some(_) => choose_delay(&b[path.len()], &v, zg.is_urgent(&states[path.len()]))
            .ok_or("no delay reaches the final target")?,
    };
    let (init_locs, _) = split(initial);
    Ok(TimedTrace {
        initial: init_locs.iter().map(|&l| l as u32).collect(),
        steps,
        final_delay,
    })
}

/// A delay `d` with `v + d ∈ z` (zero in an urgent state): the smallest one when it is attained,
/// else a midpoint of the interval of such delays; `None` if there is none.
#[allow(clippy::needless_range_loop)] // clock indices address the zone and the valuation
pub(crate) fn choose_delay(z: &Dbm, v: &[BigRational], urgent: bool) -> Option<BigRational> {
    let dim = z.dim();
    // interval of delays d with v + d ∈ z: (lo, lo_strict) .. (hi, hi_strict)
    let mut lo = BigRational::zero();
    let mut lo_strict = false;
    let mut hi: Option<(BigRational, bool)> = None;
    for x in 1..dim {
        let up = z.get(x, 0);
        if up != INF {
            let val = rat(value(up)) - &v[x];
            let strict = !is_le(up);
            let tighter = match &hi {
                None => true,
                Some((h, hs)) => val < *h || (val == *h && strict && !hs),
            };
            if tighter {
                hi = Some((val, strict));
            }
        }
        let low = z.get(0, x);
        let val = -rat(value(low)) - &v[x];
        let strict = !is_le(low);
        if val > lo || (val == lo && strict) {
            lo = val;
            lo_strict = strict;
        }
    }
    let d = if urgent {
        BigRational::zero()
    } else if !lo_strict {
        lo.clone()
    } else {
        match &hi {
            Some((h, _)) => (&lo + h) / rat(2),
            None => &lo + BigRational::one(),
        }
    };
    let ok_lo = if lo_strict { d > lo } else { d >= lo };
    let ok_hi = match &hi {
        None => true,
        Some((h, s)) => {
            if *s {
                d < *h
            } else {
                d <= *h
            }
        }
    };
    (ok_lo && ok_hi).then_some(d)
}
