//! The independent check of a liveness witness against its formula at every instant, clock
//! constraints included: the trace is replayed on the model by the rational-clock checker
//! (`replay`), and along each delay the formula is evaluated at every instant where one of its
//! clock constraints can change truth value (a clock reaching the constraint's constant) and
//! between two such instants — the truth value of a constraint `x ⋈ c` is constant between them,
//! so these samples decide every instant. No zones are used.
//!
//! What is checked (UPPAAL's semantics, Behrmann, David, Larsen, "A Tutorial on UPPAAL", 2004,
//! §2.2): for `E[] φ`, φ at every instant of the run; for `A<> φ` (a counterexample), ¬φ at
//! every instant; for `φ --> ψ`, an instant during the delay after the stem where `φ ∧ ¬ψ` holds
//! and `¬ψ` from it on. A witness without a cycle ends in a deadlock or where time diverges: its
//! run goes on delaying until the invariants stop time (or forever), and those instants are
//! checked too.

use crate::concrete_trace::TimedTrace;
use crate::live_check::LassoShape;
use crate::model::{Cmp, Model};
use crate::replay::{replay_end, replay_lasso};
use crate::uppaal::{Query, QueryKind};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

/// A stretch of time in one discrete state: clock values at its start, its length (`None`:
/// unbounded) and whether its end is included.
struct Segment {
    state: Vec<i32>,
    start: Vec<BigRational>,
    length: Option<BigRational>,
    closed: bool,
}

/// Checks the witness of a liveness query (`E[]` satisfied, `A<>` or `-->` violated): the trace
/// replays as a lasso of the given shape, and the formula holds as the query requires at every
/// instant of it.
pub fn check_lasso_formula(
    model: &Model,
    q: &Query,
    trace: &TimedTrace,
    shape: LassoShape,
) -> Result<(), String> {
    let end = replay_lasso(model, trace, shape.prefix, shape.cycle)?;
    let n = model.processes.len();
    let segments = segments(model, trace, shape.cycle == 0)?;
    // the samples of every segment, in time order: (segment index, discrete state, clocks)
    let mut samples: Vec<(usize, Vec<i32>, Vec<BigRational>)> = Vec::new();
    for (k, s) in segments.iter().enumerate() {
        for t in sample_times(q, n, s)? {
            let clocks: Vec<BigRational> = s
                .start
                .iter()
                .enumerate()
                .map(|(x, v)| if x == 0 { v.clone() } else { v + &t })
                .collect();
            samples.push((k, s.state.clone(), clocks));
        }
    }
    let phi = |d: &[i32], c: &[BigRational]| q.holds_at(n, d, false, c);
    match q.kind {
        QueryKind::Globally | QueryKind::Eventually => {
            let want = q.kind == QueryKind::Globally;
            for (k, d, c) in &samples {
                if phi(d, c)? != want {
                    return Err(format!(
                        "the formula is {} at an instant of segment {k}",
                        if want { "false" } else { "true" }
                    ));
                }
            }
        }
        QueryKind::LeadsTo => {
            // from the last instant of segment `stem` on, `¬ψ`; at some sample of that segment,
            // `φ ∧ ¬ψ` with `¬ψ` at every later sample
            let mut ok_from = samples.len();
            for (i, (_, d, c)) in samples.iter().enumerate().rev() {
                if q.target_holds_at(n, d, c)? {
                    break;
                }
                ok_from = i;
            }
            let start = samples[ok_from..]
                .iter()
                .position(|(k, d, c)| *k == shape.stem && phi(d, c).unwrap_or(false));
            if start.is_none() {
                return Err(format!(
                    "no instant after the stem ({} moves) satisfies φ ∧ ¬ψ with ¬ψ from there on",
                    shape.stem
                ));
            }
        }
        _ => return Err("not a liveness query".into()),
    }
    if shape.cycle == 0 && !end.deadlocked && !end.time_diverges {
        return Err("the finite witness ends neither in a deadlock nor with time diverging".into());
    }
    Ok(())
}

/// The delays of the trace as segments (each step's delay, the final delay), and for a witness
/// that stops, the time its last state can still delay.
fn segments(model: &Model, trace: &TimedTrace, stops: bool) -> Result<Vec<Segment>, String> {
    let mut out = Vec::new();
    for k in 0..=trace.steps.len() {
        let prefix = TimedTrace {
            initial: trace.initial.clone(),
            steps: trace.steps[..k].to_vec(),
            final_delay: BigRational::zero(),
        };
        let e = replay_end(model, &prefix)?;
        let length = match trace.steps.get(k) {
            Some(s) => s.delay.clone(),
            None => trace.final_delay.clone(),
        };
        out.push(Segment {
            state: e.state,
            start: e.clocks,
            length: Some(length),
            closed: true,
        });
    }
    if stops {
        let e = replay_end(model, trace)?;
        let (length, closed) = remaining_delay(model, &e.state, &e.clocks)?;
        out.push(Segment {
            state: e.state,
            start: e.clocks,
            length,
            closed,
        });
    }
    Ok(out)
}

/// How long the configuration can still delay under the invariants of its locations (`None`:
/// forever) and whether the bound itself is allowed; zero in an urgent or committed location.
fn remaining_delay(
    model: &Model,
    state: &[i32],
    clocks: &[BigRational],
) -> Result<(Option<BigRational>, bool), String> {
    let n = model.processes.len();
    let ints = state.get(n..).ok_or("short state")?;
    let mut bound: Option<(BigRational, bool)> = None;
    for (p, &l) in model.processes.iter().zip(state) {
        let loc = p.locations.get(l as usize).ok_or("bad location")?;
        if loc.urgent || loc.committed {
            return Ok((Some(BigRational::zero()), true));
        }
        for a in &loc.invariant.clocks {
            let closed = match a.cmp {
                Cmp::Le | Cmp::Eq => true,
                Cmp::Lt => false,
                _ => continue,
            };
            if a.y.is_some() {
                return Err("clock differences in invariants are not handled here".into());
            }
            let x = a.x.resolve(ints).map_err(|e| format!("{e:?}"))?;
            let c = a.bound.eval(ints).map_err(|e| format!("{e:?}"))?;
            let v = clocks.get(x).ok_or("clock out of range")?;
            let left = BigRational::from_integer(BigInt::from(c)) - v;
            let tighter = match &bound {
                None => true,
                Some((b, bc)) => left < *b || (left == *b && *bc && !closed),
            };
            if tighter {
                bound = Some((left, closed));
            }
        }
    }
    Ok(match bound {
        None => (None, false),
        Some((b, c)) => (Some(b), c),
    })
}

/// The instants of a segment to sample: its start, every instant where a clock of the query
/// reaches a constant of it, the midpoints between them, its end (if included) or an instant
/// past the last of them (unbounded segments).
fn sample_times(q: &Query, n: usize, s: &Segment) -> Result<Vec<BigRational>, String> {
    let ints = s.state.get(n..).ok_or("short state")?;
    let mut cut: Vec<BigRational> = vec![BigRational::zero()];
    for a in &q.clock_atoms {
        let x = a.x.resolve(ints).map_err(|e| format!("{e:?}"))?;
        let c = BigRational::from_integer(BigInt::from(
            a.bound.eval(ints).map_err(|e| format!("{e:?}"))?,
        ));
        let t = c - s.start.get(x).ok_or("clock out of range")?;
        if t > BigRational::zero() && s.length.as_ref().is_none_or(|l| t < *l) {
            cut.push(t);
        }
    }
    match &s.length {
        Some(l) => cut.push(l.clone()),
        None => {
            let last = cut.iter().max().cloned().unwrap_or_default();
            cut.push(last + BigRational::one());
        }
    }
    cut.sort();
    cut.dedup();
    let mut out = Vec::new();
    let two = BigRational::from_integer(BigInt::from(2));
    for (i, t) in cut.iter().enumerate() {
        if i > 0 {
            out.push((&cut[i - 1] + t) / &two);
        }
        let is_end = i + 1 == cut.len();
        if !is_end || (s.closed && s.length.is_some()) || s.length.is_none() {
            out.push(t.clone());
        }
    }
    Ok(out)
}
