//! The independent trace checker: executes a timed trace on the model with exact rational clock
//! valuations — no zones, no DBMs — and checks every rule of the semantics on the way (initial
//! locations, delays non-negative and zero in urgent/committed states, invariants before and after
//! each delay and after each move, the move being an asynchronous edge or a maximal instance of a
//! synchronisation vector, the committed-location priority, guards, updates in range) and that the
//! last state carries the queried labels.

use crate::concrete_trace::TimedTrace;
use crate::model::{exec, stay_out_atom, stay_out_options, ClockAtom, Cmp, Guard, Model, STAY_OUT};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

struct Run<'m> {
    m: &'m Model,
    locs: Vec<u32>,
    ints: Vec<i32>,
    clocks: Vec<BigRational>,
    /// The discrete state before each step and at the end.
    states: Vec<Vec<i32>>,
}

pub(crate) fn atom_holds(
    a: &ClockAtom,
    ints: &[i32],
    clocks: &[BigRational],
) -> Result<bool, String> {
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
    replay_run(model, trace, &[]).map(|r| r.state())
}

/// Checks that `trace` is a run of `model` and returns its last discrete state and whether its
/// last configuration is a deadlock (no move enabled, now or after any delay), decided on the
/// exact rational valuation by intervals of delays, without zones.
pub fn replay_deadlock(model: &Model, trace: &TimedTrace) -> Result<(Vec<i32>, bool), String> {
    replay_end(model, trace).map(|e| (e.state, e.deadlocked))
}

/// The last configuration of a replayed trace.
#[derive(Clone, Debug)]
pub struct TraceEnd {
    /// Locations, then integers.
    pub state: Vec<i32>,
    /// No move is enabled, now or after any delay.
    pub deadlocked: bool,
    /// Time can pass forever: no urgency and no invariant bounds a clock from above.
    pub time_diverges: bool,
    /// Clock values (index 0 is the zero clock).
    pub clocks: Vec<BigRational>,
    /// The discrete states along the run: the initial one, then one after each step.
    pub states: Vec<Vec<i32>>,
}

/// Checks that `trace` is a run of `model` and returns its last configuration (see
/// [`replay_deadlock`]).
pub fn replay_end(model: &Model, trace: &TimedTrace) -> Result<TraceEnd, String> {
    let run = replay_run(model, trace, &[])?;
    let deadlocked = !run.some_move_enabled()?;
    let time_diverges = run.time_diverges()?;
    Ok(TraceEnd {
        state: run.state(),
        deadlocked,
        time_diverges,
        clocks: run.clocks.clone(),
        states: run.states.clone(),
    })
}

/// Checks a liveness witness whose trace has `prefix` steps and then a cycle of `cycle` steps
/// taken twice: the trace is a run of `model`, the cycle is re-entered (the discrete state is the
/// same before each turn and after the second), and a witness without a cycle ends in a deadlock
/// or in a state where time can pass forever. Returns the last configuration, whose `states` are
/// the discrete states along the run (for checking the formula on every state).
pub fn replay_lasso(
    model: &Model,
    trace: &TimedTrace,
    prefix: usize,
    cycle: usize,
) -> Result<TraceEnd, String> {
    if trace.steps.len() != prefix + 2 * cycle {
        return Err(format!(
            "the trace has {} steps, expected {prefix} + 2 × {cycle}",
            trace.steps.len()
        ));
    }
    let end = replay_end(model, trace)?;
    if cycle > 0 {
        let at = |k: usize| end.states.get(k).ok_or("missing state");
        if at(prefix)? != at(prefix + cycle)? || at(prefix)? != at(prefix + 2 * cycle)? {
            return Err("the cycle does not return to its first discrete state".into());
        }
    } else if !end.deadlocked && !end.time_diverges {
        return Err("the finite witness ends neither in a deadlock nor with time diverging".into());
    }
    Ok(end)
}

fn replay_run<'m>(model: &'m Model, trace: &TimedTrace, labels: &[u32]) -> Result<Run<'m>, String> {
    let np = model.processes.len();
    if trace.initial.len() != np {
        return Err("wrong number of initial locations".into());
    }
    let mut run = Run {
        m: model,
        locs: trace.initial.clone(),
        ints: model.ints.iter().map(|v| v.init).collect(),
        clocks: vec![BigRational::zero(); model.clocks.len() + 1],
        states: Vec::new(),
    };
    for p in 0..np {
        if !run.loc(p)?.initial {
            return Err(format!("process {p} does not start in an initial location"));
        }
    }
    if !run.invariants_hold()? {
        return Err("initial invariant violated".into());
    }
    run.states.push(run.state());
    for (k, step) in trace.steps.iter().enumerate() {
        // delay
        if step.delay < BigRational::zero() {
            return Err(format!("step {k}: negative delay"));
        }
        if run.no_delay() && !step.delay.is_zero() {
            return Err(format!("step {k}: delay in an urgent or committed state"));
        }
        for x in run.clocks.iter_mut().skip(1) {
            *x += &step.delay;
        }
        if !run.invariants_hold()? {
            return Err(format!("step {k}: invariant violated after the delay"));
        }
        // the move
        // stay-out entries are the searcher's annotations: the checker decides who takes part
        let t: &Vec<(u32, u32)> = &step
            .transition
            .iter()
            .copied()
            .filter(|pe| pe.0 & STAY_OUT == 0)
            .collect();
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
            let ev = edge.event_at(&run.ints).ok_or(format!(
                "step {k}: the channel index of an edge has no element"
            ))?;
            events.push((p, ev));
        }
        let legal = if let [(p, ev)] = events[..] {
            let alone = !model
                .synced
                .get(p as usize)
                .and_then(|v| v.get(ev as usize))
                .copied()
                .unwrap_or(true);
            alone || sync_matches(model, &run.locs, &run.ints, &run.clocks, &events)
        } else {
            sync_matches(model, &run.locs, &run.ints, &run.clocks, &events)
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
        run.states.push(run.state());
    }
    if !trace.final_delay.is_zero() {
        if trace.final_delay < BigRational::zero() {
            return Err("negative final delay".into());
        }
        if run.no_delay() {
            return Err("final delay in an urgent or committed state".into());
        }
        for x in run.clocks.iter_mut().skip(1) {
            *x += &trace.final_delay;
        }
        if !run.invariants_hold()? {
            return Err("invariant violated after the final delay".into());
        }
    }
    for &lab in labels {
        if !(0..np).any(|p| run.loc(p).is_ok_and(|l| l.labels.contains(&lab))) {
            return Err(format!("the last state lacks label {lab}"));
        }
    }
    Ok(run)
}

/// The delays `δ ≥ 0` satisfying some constraints: `lo ≤ δ` (or `<`), `δ ≤ hi` (or `<`).
struct Delays {
    lo: BigRational,
    lo_strict: bool,
    hi: Option<(BigRational, bool)>,
}

impl Delays {
    fn any() -> Delays {
        Delays {
            lo: BigRational::zero(),
            lo_strict: false,
            hi: None,
        }
    }

    fn is_empty(&self) -> bool {
        match &self.hi {
            None => false,
            Some((h, hs)) => *h < self.lo || (*h == self.lo && (*hs || self.lo_strict)),
        }
    }

    /// Adds `a + k·δ ⋈ c` (`k` ∈ {−1, 0, 1}); false if no delay can satisfy it.
    fn add(&mut self, a: BigRational, k: i32, cmp: Cmp, c: BigRational) -> bool {
        // k = 0: a constant truth value
        if k == 0 {
            return match cmp {
                Cmp::Lt => a < c,
                Cmp::Le => a <= c,
                Cmp::Eq => a == c,
                Cmp::Ge => a >= c,
                Cmp::Gt => a > c,
            };
        }
        // δ ⋈' r with r = (c − a)·k, the comparison flipped for k = −1
        let r = if k > 0 { &c - &a } else { &a - &c };
        let cmp = if k > 0 {
            cmp
        } else {
            match cmp {
                Cmp::Lt => Cmp::Gt,
                Cmp::Le => Cmp::Ge,
                Cmp::Ge => Cmp::Le,
                Cmp::Gt => Cmp::Lt,
                Cmp::Eq => Cmp::Eq,
            }
        };
        let (lower, upper) = match cmp {
            Cmp::Lt => (None, Some((r, true))),
            Cmp::Le => (None, Some((r, false))),
            Cmp::Eq => (Some((r.clone(), false)), Some((r, false))),
            Cmp::Ge => (Some((r, false)), None),
            Cmp::Gt => (Some((r, true)), None),
        };
        if let Some((l, s)) = lower {
            if l > self.lo || (l == self.lo && s) {
                self.lo = l;
                self.lo_strict = s;
            }
        }
        if let Some((h, s)) = upper {
            let tighter = match &self.hi {
                None => true,
                Some((oh, os)) => h < *oh || (h == *oh && s && !os),
            };
            if tighter {
                self.hi = Some((h, s));
            }
        }
        true
    }
}

impl Run<'_> {
    fn state(&self) -> Vec<i32> {
        let mut end: Vec<i32> = self.locs.iter().map(|&l| l as i32).collect();
        end.extend_from_slice(&self.ints);
        end
    }

    /// No urgency, and every invariant atom is a lower bound or a difference (unchanged by
    /// delays) that holds now.
    fn time_diverges(&self) -> Result<bool, String> {
        if self.no_delay() {
            return Ok(false);
        }
        for p in 0..self.locs.len() {
            for a in &self.loc(p)?.invariant.clocks {
                let upper = a.y.is_none() && matches!(a.cmp, Cmp::Lt | Cmp::Le | Cmp::Eq);
                if upper || !atom_holds(a, &self.ints, &self.clocks)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    fn no_delay(&self) -> bool {
        (0..self.locs.len()).any(|p| self.loc(p).is_ok_and(|l| l.urgent || l.committed))
            || urgent_channel_enabled(self.m, &self.locs, &self.ints)
    }

    /// Constrains `ds` so that `atom` holds after a delay `δ`, clocks in `reset` (given their
    /// new values) not moving; false if impossible.
    fn atom_after_delay(
        &self,
        ds: &mut Delays,
        a: &ClockAtom,
        ints: &[i32],
        reset: &[(usize, i64)],
    ) -> Result<bool, String> {
        let val = |x: usize| -> Result<(BigRational, i32), String> {
            if x == 0 {
                return Ok((BigRational::zero(), 0));
            }
            if let Some(&(_, c)) = reset.iter().rev().find(|r| r.0 == x) {
                return Ok((BigRational::from_integer(BigInt::from(c)), 0));
            }
            Ok((
                self.clocks
                    .get(x)
                    .ok_or("clock index out of range")?
                    .clone(),
                1,
            ))
        };
        let x = a.x.resolve(ints).map_err(|e| format!("{e:?}"))?;
        let (vx, kx) = val(x)?;
        let (vy, ky) = match &a.y {
            Some(y) => val(y.resolve(ints).map_err(|e| format!("{e:?}"))?)?,
            None => (BigRational::zero(), 0),
        };
        let c = BigRational::from_integer(BigInt::from(
            a.bound.eval(ints).map_err(|e| format!("{e:?}"))?,
        ));
        Ok(ds.add(vx - vy, kx - ky, a.cmp, c))
    }

    /// True if some move (an asynchronous edge or a maximal instance of a synchronisation
    /// vector) is enabled now or after some delay allowed by the invariants.
    fn some_move_enabled(&self) -> Result<bool, String> {
        let m = self.m;
        let np = self.locs.len();
        let committed = (0..np).any(|p| self.loc(p).is_ok_and(|l| l.committed));
        let is_committed = |p: u32| self.loc(p as usize).is_ok_and(|l| l.committed);
        let mut moves: Vec<Vec<(u32, u32)>> = Vec::new();
        let out_edges = |p: u32, ev: u32| -> Vec<(u32, u32)> {
            m.processes
                .get(p as usize)
                .map(|pr| {
                    pr.edges
                        .iter()
                        .enumerate()
                        .filter(|(_, ed)| {
                            Some(&ed.src) == self.locs.get(p as usize)
                                && ed.event_at(&self.ints) == Some(ev)
                        })
                        .map(|(e, _)| (p, e as u32))
                        .collect()
                })
                .unwrap_or_default()
        };
        for (p, pr) in m.processes.iter().enumerate() {
            for (e, ed) in pr.edges.iter().enumerate() {
                let synced = m
                    .synced
                    .get(p)
                    .and_then(|v| v.get(ed.event_at(&self.ints)? as usize))
                    .copied()
                    .unwrap_or(true);
                if Some(&ed.src) == self.locs.get(p) && !synced {
                    moves.push(vec![(p as u32, e as u32)]);
                }
            }
        }
        for s in &m.syncs {
            let mut combos: Vec<Vec<(u32, u32)>> = vec![Vec::new()];
            let mut possible = true;
            for &(p, ev, weak) in &s.parts {
                let mut c = out_edges(p, ev);
                if s.broadcast && weak {
                    c.retain(|&(p, e)| {
                        m.processes[p as usize].edges[e as usize]
                            .guard
                            .ints_hold(&self.ints)
                            == Ok(true)
                    });
                }
                if c.is_empty() {
                    if weak {
                        continue;
                    }
                    possible = false;
                    break;
                }
                // a broadcast receiver with clock guards may also stay out where they are false
                let mut opts: Vec<Vec<(u32, u32)>> = c.iter().map(|&pe| vec![pe]).collect();
                if s.broadcast && weak {
                    let edges: Vec<u32> = c.iter().map(|&(_, e)| e).collect();
                    opts.extend(stay_out_options(m, p, &edges));
                }
                let mut next = Vec::new();
                for t in &combos {
                    for o in &opts {
                        let mut u = t.clone();
                        u.extend_from_slice(o);
                        next.push(u);
                    }
                }
                combos = next;
            }
            if possible && combos.iter().any(|t| !t.is_empty()) {
                moves.extend(combos.into_iter().filter(|t| !t.is_empty()));
            }
        }
        let no_delay = self.no_delay();
        'moves: for t in moves {
            if committed && !t.iter().any(|&(p, _)| is_committed(p)) {
                continue;
            }
            let mut ds = Delays::any();
            if no_delay {
                ds.hi = Some((BigRational::zero(), false));
            }
            // the current invariants bound the delay
            for p in 0..np {
                for a in &self.loc(p)?.invariant.clocks {
                    if !self.atom_after_delay(&mut ds, a, &self.ints, &[])? {
                        continue 'moves;
                    }
                }
            }
            // guards on the source valuation (negated atoms for receivers staying out)
            for &(p, e) in &t {
                if p & STAY_OUT != 0 {
                    let a = stay_out_atom(m, p, e).ok_or("bad stay-out entry")?;
                    if !self.atom_after_delay(&mut ds, &a, &self.ints, &[])? {
                        continue 'moves;
                    }
                    continue;
                }
                let ed = &m.processes[p as usize].edges[e as usize];
                if ed.guard.ints_hold(&self.ints) != Ok(true) {
                    continue 'moves;
                }
                for a in &ed.guard.clocks {
                    if !self.atom_after_delay(&mut ds, a, &self.ints, &[])? {
                        continue 'moves;
                    }
                }
            }
            // updates, then the target invariants on the reset valuation
            let mut ints = self.ints.clone();
            let mut resets = Vec::new();
            let mut locs = self.locs.clone();
            for &(p, e) in t.iter().filter(|pe| pe.0 & STAY_OUT == 0) {
                let ed = &m.processes[p as usize].edges[e as usize];
                if exec(&ed.stmts, &m.ints, &mut ints, &mut resets).is_err() {
                    continue 'moves;
                }
                locs[p as usize] = ed.tgt;
            }
            for (p, &l) in locs.iter().enumerate() {
                let inv = &m.processes[p]
                    .locations
                    .get(l as usize)
                    .ok_or("bad location")?
                    .invariant;
                if inv.ints_hold(&ints) != Ok(true) {
                    continue 'moves;
                }
                for a in &inv.clocks {
                    if !self.atom_after_delay(&mut ds, a, &ints, &resets)? {
                        continue 'moves;
                    }
                }
            }
            if !ds.is_empty() {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// True if a synchronisation on an urgent channel is enabled: each strong participant has an
/// edge with its event from its location whose integer guard holds.
fn urgent_channel_enabled(model: &Model, locs: &[u32], ints: &[i32]) -> bool {
    model.syncs.iter().filter(|s| s.urgent).any(|s| {
        s.parts.iter().filter(|p| !p.2).all(|&(p, e, _)| {
            model.processes.get(p as usize).is_some_and(|pr| {
                pr.edges.iter().any(|ed| {
                    Some(&ed.src) == locs.get(p as usize)
                        && ed.event_at(ints) == Some(e)
                        && ed.guard.ints_hold(ints) == Ok(true)
                })
            })
        })
    })
}

/// True if the `(process, event)` set is a maximal instance of some synchronisation vector: every
/// strong participant moves, and a weak participant moves iff it has an edge with its event
/// (for a broadcast: an edge with its event whose integer guard holds).
/// The move is an instance of a synchronisation vector in which every weak participant takes
/// part iff it can (for broadcast: an edge with the event whose guard — integers and clocks on
/// the current valuation — holds).
fn sync_matches(
    model: &Model,
    locs: &[u32],
    ints: &[i32],
    clocks: &[BigRational],
    events: &[(u32, u32)],
) -> bool {
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
                            && ed.event_at(ints) == Some(e)
                            && (!s.broadcast || guard_holds(&ed.guard, ints, clocks) == Ok(true))
                    })
                });
                moves == can
            })
    })
}
