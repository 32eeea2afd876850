//! The independent trace checker: executes a timed trace on the model with exact rational clock
//! valuations — no zones, no DBMs — and checks every rule of the semantics on the way (initial
//! locations, delays non-negative and zero in urgent/committed states, invariants before and after
//! each delay and after each move, the move being an asynchronous edge or a maximal instance of a
//! synchronisation vector, the committed-location priority, guards, updates in range) and that the
//! last state carries the queried labels.

use crate::concrete_trace::TimedTrace;
use crate::model::{exec, ClockAtom, Cmp, Guard, Model};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

struct Run<'m> {
    m: &'m Model,
    locs: Vec<u32>,
    ints: Vec<i32>,
    clocks: Vec<BigRational>,
}

fn atom_holds(a: &ClockAtom, ints: &[i32], clocks: &[BigRational]) -> Result<bool, String> {
    let x = a.x.resolve(ints).map_err(|e| format!("{e:?}"))?;
    let vx = clocks.get(x).ok_or("clock index out of range")?.clone();
    let vy = match &a.y {
        Some(y) => clocks
            .get(y.resolve(ints).map_err(|e| format!("{e:?}"))?)
            .ok_or("clock index out of range")?
            .clone(),
        None => BigRational::zero(),
    };
    let c = BigRational::from_integer(BigInt::from(
        a.bound.eval(ints).map_err(|e| format!("{e:?}"))?,
    ));
    let lhs = vx - vy;
    Ok(match a.cmp {
        Cmp::Lt => lhs < c,
        Cmp::Le => lhs <= c,
        Cmp::Eq => lhs == c,
        Cmp::Ge => lhs >= c,
        Cmp::Gt => lhs > c,
    })
}

fn guard_holds(g: &Guard, ints: &[i32], clocks: &[BigRational]) -> Result<bool, String> {
    if !g.ints_hold(ints).map_err(|e| format!("{e:?}"))? {
        return Ok(false);
    }
    for a in &g.clocks {
        if !atom_holds(a, ints, clocks)? {
            return Ok(false);
        }
    }
    Ok(true)
}

impl Run<'_> {
    fn loc(&self, p: usize) -> Result<&crate::model::Location, String> {
        let l = *self.locs.get(p).ok_or("bad process")?;
        self.m
            .processes
            .get(p)
            .and_then(|pr| pr.locations.get(l as usize))
            .ok_or_else(|| "bad location".to_string())
    }

    fn invariants_hold(&self) -> Result<bool, String> {
        for p in 0..self.locs.len() {
            if !guard_holds(&self.loc(p)?.invariant, &self.ints, &self.clocks)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// Checks that `trace` is a run of `model` ending in a state whose locations carry `labels`.
pub fn replay(model: &Model, trace: &TimedTrace, labels: &[u32]) -> Result<(), String> {
    replay_run(model, trace, labels).map(|_| ())
}

/// Checks that `trace` is a run of `model` and returns its last discrete state (locations, then
/// integers), for checking a state formula on it.
pub fn replay_state(model: &Model, trace: &TimedTrace) -> Result<Vec<i32>, String> {
    replay_run(model, trace, &[])
}

fn replay_run(model: &Model, trace: &TimedTrace, labels: &[u32]) -> Result<Vec<i32>, String> {
    let np = model.processes.len();
    if trace.initial.len() != np {
        return Err("wrong number of initial locations".into());
    }
    let mut run = Run {
        m: model,
        locs: trace.initial.clone(),
        ints: model.ints.iter().map(|v| v.init).collect(),
        clocks: vec![BigRational::zero(); model.clocks.len() + 1],
    };
    for p in 0..np {
        if !run.loc(p)?.initial {
            return Err(format!("process {p} does not start in an initial location"));
        }
    }
    if !run.invariants_hold()? {
        return Err("initial invariant violated".into());
    }
    for (k, step) in trace.steps.iter().enumerate() {
        // delay
        if step.delay < BigRational::zero() {
            return Err(format!("step {k}: negative delay"));
        }
        let urgent = (0..np).any(|p| run.loc(p).is_ok_and(|l| l.urgent || l.committed));
        let urgent = urgent || urgent_channel_enabled(model, &run.locs, &run.ints);
        if urgent && !step.delay.is_zero() {
            return Err(format!("step {k}: delay in an urgent or committed state"));
        }
        for x in run.clocks.iter_mut().skip(1) {
            *x += &step.delay;
        }
        if !run.invariants_hold()? {
            return Err(format!("step {k}: invariant violated after the delay"));
        }
        // the move
        let t = &step.transition;
        if t.is_empty() {
            return Err(format!("step {k}: empty move"));
        }
        let mut events = Vec::new();
        for (i, &(p, e)) in t.iter().enumerate() {
            if t[..i].iter().any(|&(q, _)| q == p) {
                return Err(format!("step {k}: process {p} moves twice"));
            }
            let edge = model
                .processes
                .get(p as usize)
                .and_then(|pr| pr.edges.get(e as usize))
                .ok_or(format!("step {k}: unknown edge"))?;
            if run.locs.get(p as usize) != Some(&edge.src) {
                return Err(format!(
                    "step {k}: edge does not leave the current location"
                ));
            }
            events.push((p, edge.event));
        }
        let legal = if let [(p, ev)] = events[..] {
            let alone = !model
                .synced
                .get(p as usize)
                .and_then(|v| v.get(ev as usize))
                .copied()
                .unwrap_or(true);
            alone || sync_matches(model, &run.locs, &run.ints, &events)
        } else {
            sync_matches(model, &run.locs, &run.ints, &events)
        };
        if !legal {
            return Err(format!(
                "step {k}: the move is neither an asynchronous edge nor a synchronisation"
            ));
        }
        let committed = (0..np).any(|p| run.loc(p).is_ok_and(|l| l.committed));
        if committed
            && !t
                .iter()
                .any(|&(p, _)| run.loc(p as usize).is_ok_and(|l| l.committed))
        {
            return Err(format!("step {k}: a committed process must move"));
        }
        for &(p, e) in t {
            let edge = &model.processes[p as usize].edges[e as usize];
            if !guard_holds(&edge.guard, &run.ints, &run.clocks)? {
                return Err(format!(
                    "step {k}: guard of {} does not hold",
                    model.edge_name(p, e)
                ));
            }
        }
        let mut resets = Vec::new();
        for &(p, e) in t {
            let edge = &model.processes[p as usize].edges[e as usize];
            exec(&edge.stmts, &model.ints, &mut run.ints, &mut resets)
                .map_err(|err| format!("step {k}: update failed: {err:?}"))?;
            run.locs[p as usize] = edge.tgt;
        }
        for (x, c) in resets {
            let slot = run.clocks.get_mut(x).ok_or("clock index out of range")?;
            *slot = BigRational::from_integer(BigInt::from(c));
        }
        if !run.invariants_hold()? {
            return Err(format!("step {k}: target invariant violated"));
        }
    }
    for &lab in labels {
        if !(0..np).any(|p| run.loc(p).is_ok_and(|l| l.labels.contains(&lab))) {
            return Err(format!("the last state lacks label {lab}"));
        }
    }
    let mut end: Vec<i32> = run.locs.iter().map(|&l| l as i32).collect();
    end.extend_from_slice(&run.ints);
    Ok(end)
}

/// True if a synchronisation on an urgent channel is enabled: each strong participant has an
/// edge with its event from its location whose integer guard holds.
fn urgent_channel_enabled(model: &Model, locs: &[u32], ints: &[i32]) -> bool {
    model.syncs.iter().filter(|s| s.urgent).any(|s| {
        s.parts.iter().filter(|p| !p.2).all(|&(p, e, _)| {
            model.processes.get(p as usize).is_some_and(|pr| {
                pr.edges.iter().any(|ed| {
                    Some(&ed.src) == locs.get(p as usize)
                        && ed.event == e
                        && ed.guard.ints_hold(ints) == Ok(true)
                })
            })
        })
    })
}

/// True if the `(process, event)` set is a maximal instance of some synchronisation vector: every
/// strong participant moves, and a weak participant moves iff it has an edge with its event
/// (for a broadcast: an edge with its event whose integer guard holds).
fn sync_matches(model: &Model, locs: &[u32], ints: &[i32], events: &[(u32, u32)]) -> bool {
    model.syncs.iter().any(|s| {
        let covered = events
            .iter()
            .all(|pe| s.parts.iter().any(|&(p, e, _)| (p, e) == *pe));
        covered
            && s.parts.iter().all(|&(p, e, weak)| {
                let moves = events.contains(&(p, e));
                if !weak {
                    return moves;
                }
                let can = model.processes.get(p as usize).is_some_and(|pr| {
                    pr.edges.iter().any(|ed| {
                        Some(&ed.src) == locs.get(p as usize)
                            && ed.event == e
                            && (!s.broadcast || ed.guard.ints_hold(ints) == Ok(true))
                    })
                });
                moves == can
            })
    })
}
