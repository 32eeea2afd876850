//! Static analysis of clock bounds: for each process, location and clock, the largest constant a
//! clock is compared to from below (`L`) and from above (`U`) before it is reset again.
//!
//! Seed: Behrmann, Bouyer, Larsen, Pelánek, "Lower and upper bounds in zone-based abstractions of
//! timed automata" (TACAS 2004 / STTT 2006), §5 (local bounds by a fixed point over the edges,
//! `L(l,x) ≥ L(l',x)` unless the edge resets `x`). For a network, the bound of a global state is
//! the maximum over its processes' locations (a clock shared by processes is covered because each
//! process's future constraints are counted in its own locations); global bounds are the maximum
//! over all locations. Constants that depend on integer variables take their largest value over
//! the variables' declared ranges.

use crate::dbm::MAX_CONST;
use crate::model::{ClockAtom, Cmp, Model, Stmt};
use rustc_hash::FxHashSet;

/// No constraint on the clock (`−∞`).
pub(crate) const NO_BOUND: i32 = i32::MIN;

/// Per-location `L`/`U` bounds, indexed `[process][location][dbm index]` (index 0 unused).
#[derive(Clone, Debug)]
pub(crate) struct LuBounds {
    pub(crate) local_l: Vec<Vec<Vec<i32>>>,
    pub(crate) local_u: Vec<Vec<Vec<i32>>>,
    pub(crate) global_l: Vec<i32>,
    pub(crate) global_u: Vec<i32>,
}

fn raise(slot: &mut i32, v: i32) {
    if v > *slot {
        *slot = v;
    }
}

fn record(a: &ClockAtom, model: &Model, l: &mut [i32], u: &mut [i32]) {
    let (_, hi) = a.bound.range(&model.ints);
    let c = hi.clamp(0, MAX_CONST) as i32;
    for x in a.x.all() {
        if let (Some(lx), Some(ux)) = (l.get_mut(x), u.get_mut(x)) {
            match a.cmp {
                Cmp::Lt | Cmp::Le => raise(ux, c),
                Cmp::Gt | Cmp::Ge => raise(lx, c),
                Cmp::Eq => {
                    raise(lx, c);
                    raise(ux, c);
                }
            }
        }
    }
}

/// Clocks reset on every execution of the statements (top-level constant-index assignments).
fn definitely_reset(stmts: &[Stmt], dim: usize) -> Vec<bool> {
    let mut r = vec![false; dim];
    for s in stmts {
        if let Stmt::Clock(x, _) = s {
            if x.index.is_none() {
                if let Some(slot) = r.get_mut(x.first as usize) {
                    *slot = true;
                }
            }
        }
    }
    r
}

impl LuBounds {
    /// Raises the global bounds and those of every location by the constants of `atoms`.
    pub(crate) fn raise(&mut self, atoms: &[ClockAtom], model: &Model) {
        for a in atoms {
            record(a, model, &mut self.global_l, &mut self.global_u);
            for (ls, us) in self.local_l.iter_mut().zip(self.local_u.iter_mut()) {
                for (l, u) in ls.iter_mut().zip(us.iter_mut()) {
                    record(a, model, l, u);
                }
            }
        }
    }

    /// Computes the bounds (the model must have no diagonal constraints).
    pub(crate) fn compute(model: &Model) -> LuBounds {
        let dim = model.dim();
        let mut local_l = Vec::new();
        let mut local_u = Vec::new();
        // (process, event) of the broadcast receivers
        let receivers: FxHashSet<(u32, u32)> = model
            .syncs
            .iter()
            .filter(|sy| sy.broadcast)
            .flat_map(|sy| sy.parts.iter().filter(|p| p.2).map(|&(p, ev, _)| (p, ev)))
            .collect();
        for (pi, p) in model.processes.iter().enumerate() {
            let n = p.locations.len();
            let mut l = vec![vec![NO_BOUND; dim]; n];
            let mut u = vec![vec![NO_BOUND; dim]; n];
            for (i, loc) in p.locations.iter().enumerate() {
                for a in &loc.invariant.clocks {
                    record(a, model, &mut l[i], &mut u[i]);
                }
            }
            for e in &p.edges {
                let s = e.src as usize;
                // a broadcast receiver's clock guard is also used negated (the receiver stays
                // out where it is false): both its lower and upper bounds matter
                let receiver = e
                    .events()
                    .into_iter()
                    .any(|ev| receivers.contains(&(pi as u32, ev)));
                for a in &e.guard.clocks {
                    if receiver {
                        let both = ClockAtom {
                            cmp: Cmp::Eq,
                            ..a.clone()
                        };
                        record(&both, model, &mut l[s], &mut u[s]);
                    } else {
                        record(a, model, &mut l[s], &mut u[s]);
                    }
                }
            }
            let resets: Vec<Vec<bool>> = p
                .edges
                .iter()
                .map(|e| definitely_reset(&e.stmts, dim))
                .collect();
            // fixed point: propagate backwards along edges for clocks the edge does not reset
            let mut changed = true;
            while changed {
                changed = false;
                for (e, r) in p.edges.iter().zip(&resets) {
                    let (s, t) = (e.src as usize, e.tgt as usize);
                    for x in 1..dim {
                        if r[x] {
                            continue;
                        }
                        let (tl, tu) = (l[t][x], u[t][x]);
                        if tl > l[s][x] {
                            l[s][x] = tl;
                            changed = true;
                        }
                        if tu > u[s][x] {
                            u[s][x] = tu;
                            changed = true;
                        }
                    }
                }
            }
            local_l.push(l);
            local_u.push(u);
        }
        let mut global_l = vec![NO_BOUND; dim];
        let mut global_u = vec![NO_BOUND; dim];
        for (ls, us) in local_l.iter().zip(&local_u) {
            for (l, u) in ls.iter().zip(us) {
                for x in 1..dim {
                    raise(&mut global_l[x], l[x]);
                    raise(&mut global_u[x], u[x]);
                }
            }
        }
        LuBounds {
            local_l,
            local_u,
            global_l,
            global_u,
        }
    }

    /// The bounds of a location tuple (maximum over the processes), written into `l` and `u`.
    pub(crate) fn local(&self, locs: &[i32], l: &mut [i32], u: &mut [i32]) {
        l.fill(NO_BOUND);
        u.fill(NO_BOUND);
        for (p, &loc) in locs.iter().enumerate() {
            let (Some(pl), Some(pu)) = (
                self.local_l.get(p).and_then(|v| v.get(loc as usize)),
                self.local_u.get(p).and_then(|v| v.get(loc as usize)),
            ) else {
                continue;
            };
            for x in 1..l.len() {
                raise(&mut l[x], pl[x]);
                raise(&mut u[x], pu[x]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_propagate_until_reset() {
        let m = crate::tck::parse_tck(
            "system:s\nevent:a\nclock:1:x\nclock:1:y\nprocess:P\n\
             location:P:l0{initial:}\nlocation:P:l1{invariant: x <= 4}\nlocation:P:l2\n\
             edge:P:l0:l1:a{do: y = 0}\nedge:P:l1:l2:a{provided: x > 2 && y >= 7}\n\
             edge:P:l2:l0:a{do: x = 0}\n",
        )
        .unwrap();
        let b = LuBounds::compute(&m);
        // l1: U(x)=4 (invariant), L(x)=2, L(y)=7
        assert_eq!(b.local_l[0][1], vec![NO_BOUND, 2, 7]);
        assert_eq!(b.local_u[0][1], vec![NO_BOUND, 4, NO_BOUND]);
        // l0: x propagates from l1 (not reset on l0->l1); y is reset on l0->l1
        assert_eq!(b.local_l[0][0], vec![NO_BOUND, 2, NO_BOUND]);
        // l2 -> l0 resets x: nothing flows into l2 for x
        assert_eq!(b.local_l[0][2], vec![NO_BOUND, NO_BOUND, NO_BOUND]);
        assert_eq!(b.global_l, vec![NO_BOUND, 2, 7]);
    }
}
