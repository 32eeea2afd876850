//! Zones split along the clock constraints of a state formula, so that the formula has one truth
//! value on every symbolic state — what liveness needs when `E[] φ`, `A<> φ` or `φ --> ψ`
//! mention clocks (UPPAAL's firefly query `A<> forall (i : …) Firefly(i).t == PERIOD`).
//!
//! Every atom `x ⋈ c` of the formula (`c` evaluated in the discrete state) cuts the valuations
//! into three convex *sides*: `x < c`, `x == c`, `x > c`. A *piece* picks one side per atom; its
//! valuations all give every atom, hence the formula, the same truth value. A node of the split
//! zone graph is a discrete state, a piece and a zone inside the piece, closed under the delays
//! that stay in the piece (and in the invariants). Because time increases every clock, a delay
//! moves each atom forward through its sides (`<`, then `==`, then `>`), so a delay leaving a
//! piece enters a *next* piece directly: from a piece with some atoms on `==`, the piece with
//! all of those on `>` (immediately); from a piece with none, the pieces where a non-empty set
//! of atoms on `<` reaches `==` together. Delay edges go only there, so a path of the split graph
//! visits every piece its run passes through, at every instant: a piece left out of the graph
//! (one where the formula fails) cannot be crossed by a delay. Discrete successors are split
//! along the pieces in the same way.
//!
//! Exactness: with the formula's constants among the extrapolation's bounds (`LuBounds::raise`),
//! every piece is a union of regions, and ExtraM with per-location bounds only adds valuations
//! region-equivalent to reachable ones (`Extra_M(Z) ⊆ Closure_M(Z)`; region equivalence is a
//! bisimulation that respects the pieces, Behrmann, Bouyer, Fleury, Larsen, "Static guard
//! analysis in timed automata verification", TACAS 2003). So every path and cycle of the split
//! graph is realised by runs that stay in its pieces, and every such run has a path.
//!
//! A maximal path may end in a node (UPPAAL's `E[]`, see `liveness`) when some valuation of it
//! stays in the node's piece for all its future delays and either time diverges in the discrete
//! state or the valuation is deadlocked (no move now or after any delay); valuations that leave
//! the piece are followed by the delay edges instead.
//!
//! Seed: Herbreteau, Srivathsan, Walukiewicz, "Efficient emptiness check for timed Büchi
//! automata" (CAV 2010), §2 (zone graphs whose nodes carry the truth of the property, here split
//! to make it uniform); Bengtsson & Yi, "Timed Automata: Semantics, Algorithms and Tools" (2003),
//! §4 (zones, `up`/`down`, reset inverses, used for the witness).

use crate::concrete_trace::{choose_delay, TimedStep, TimedTrace};
use crate::dbm::{le, lt, Dbm, MAX_CONST};
use crate::deadlock::deadlocked;
use crate::federation::Federation;
use crate::model::{ClockAtom, Cmp};
use crate::zone_graph::{constrain_move, time_diverges, Discrete, Transition, ZoneGraph};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use verikit_diag::Diagnostic;

/// A piece: two bits per atom, its side ([`BELOW`], [`ON`], [`ABOVE`]).
pub(crate) type Piece = u32;

/// `x < c`.
const BELOW: u32 = 0;
/// `x == c`.
const ON: u32 = 1;
/// `x > c`.
const ABOVE: u32 = 2;

/// The clock atoms of a formula (at most 16, so a piece fits in 32 bits).
pub(crate) struct AtomSplit<'a> {
    atoms: &'a [ClockAtom],
}

fn side(p: Piece, k: usize) -> u32 {
    p >> (2 * k) & 3
}

fn with_side(p: Piece, k: usize, s: u32) -> Piece {
    (p & !(3 << (2 * k))) | (s << (2 * k))
}

impl<'a> AtomSplit<'a> {
    /// Refuses clock differences (not single-clock atoms) and more than 16 atoms by name.
    pub(crate) fn new(atoms: &'a [ClockAtom]) -> Result<AtomSplit<'a>, Diagnostic> {
        if atoms.len() > 16 {
            return Err(Diagnostic::error(
                "more than 16 clock constraints in a liveness formula are not supported",
            ));
        }
        if atoms.iter().any(|a| a.y.is_some()) {
            return Err(Diagnostic::error(
                "clock differences in liveness formulas are not supported",
            ));
        }
        Ok(AtomSplit { atoms })
    }

    /// The truth values of the atoms on a piece (bit `k` for atom `k`).
    pub(crate) fn truth(&self, p: Piece) -> u32 {
        let mut bits = 0;
        for (k, a) in self.atoms.iter().enumerate() {
            let s = side(p, k);
            let holds = match a.cmp {
                Cmp::Lt => s == BELOW,
                Cmp::Le => s != ABOVE,
                Cmp::Eq => s == ON,
                Cmp::Ge => s != BELOW,
                Cmp::Gt => s == ABOVE,
            };
            if holds {
                bits |= 1 << k;
            }
        }
        bits
    }

    /// The clock index and constant of atom `k` in the discrete state `d`.
    fn clock_and_bound(&self, k: usize, ints: &[i32]) -> Result<(usize, i32), Diagnostic> {
        let bad = |e: crate::model::EvalError| {
            Diagnostic::error(format!(
                "a clock constraint of the formula cannot be evaluated in a reachable state ({e:?})"
            ))
        };
        let a = self.atoms.get(k).ok_or_else(internal)?;
        let x = a.x.resolve(ints).map_err(bad)?;
        let c = a.bound.eval(ints).map_err(bad)?;
        if c.abs() > MAX_CONST {
            return Err(bad(crate::model::EvalError::Overflow));
        }
        Ok((x, c as i32))
    }

    /// Constrains `z` to side `s` of atom `k`; false if it becomes empty.
    fn constrain_side(
        &self,
        z: &mut Dbm,
        k: usize,
        s: u32,
        ints: &[i32],
    ) -> Result<bool, Diagnostic> {
        let (x, c) = self.clock_and_bound(k, ints)?;
        if x >= z.dim() {
            return Err(internal());
        }
        Ok(match s {
            BELOW => z.constrain(x, 0, lt(c)),
            ON => z.constrain(x, 0, le(c)) && z.constrain(0, x, le(-c)),
            _ => z.constrain(0, x, lt(-c)),
        })
    }

    /// The valuations of piece `p` (`None`: empty).
    pub(crate) fn piece_zone(
        &self,
        dim: usize,
        p: Piece,
        ints: &[i32],
    ) -> Result<Option<Dbm>, Diagnostic> {
        let mut z = Dbm::universe(dim);
        for k in 0..self.atoms.len() {
            if !self.constrain_side(&mut z, k, side(p, k), ints)? {
                return Ok(None);
            }
        }
        Ok(Some(z))
    }

    /// The non-empty parts of `z` per piece, atom `k` taking only the sides in `allowed(k)` (a
    /// bit mask over the sides).
    fn split(
        &self,
        z: &Dbm,
        allowed: &dyn Fn(usize) -> u32,
        ints: &[i32],
    ) -> Result<Vec<(Piece, Dbm)>, Diagnostic> {
        let mut parts = vec![(0, z.clone())];
        for k in 0..self.atoms.len() {
            let mut next = Vec::new();
            for (p, part) in &parts {
                for s in [BELOW, ON, ABOVE] {
                    if allowed(k) >> s & 1 == 0 {
                        continue;
                    }
                    let mut w = part.clone();
                    if self.constrain_side(&mut w, k, s, ints)? {
                        next.push((with_side(*p, k, s), w));
                    }
                }
            }
            parts = next;
        }
        Ok(parts)
    }

    /// The non-empty parts of `z` per piece.
    pub(crate) fn pieces_of(&self, z: &Dbm, ints: &[i32]) -> Result<Vec<(Piece, Dbm)>, Diagnostic> {
        self.split(z, &|_| 0b111, ints)
    }

    /// The delay edges of node `(d, p, z)`: the next pieces a delay enters directly, each with
    /// the valuations it reaches there (closed under delays within that piece). None in an
    /// urgent state.
    pub(crate) fn delay_successors(
        &self,
        zg: &ZoneGraph<'_>,
        d: &Discrete,
        p: Piece,
        z: &Dbm,
    ) -> Result<Vec<(Piece, Dbm)>, Diagnostic> {
        if self.atoms.is_empty() || zg.is_urgent(d) {
            return Ok(Vec::new());
        }
        let n = zg.model.processes.len().min(d.len());
        let (locs, ints) = d.split_at(n);
        let mut future = z.clone();
        future.up();
        if !zg.constrain_invariant(&mut future, locs, ints) {
            return Ok(Vec::new());
        }
        let k_atoms = self.atoms.len();
        let on_some = (0..k_atoms).any(|k| side(p, k) == ON);
        let allowed = |k: usize| match side(p, k) {
            // from a piece with atoms on their constant, all of those go above at once
            ON => 1 << ABOVE,
            BELOW if !on_some => 1 << BELOW | 1 << ON,
            s => 1 << s,
        };
        let mut out = self.split(&future, &allowed, ints)?;
        out.retain(|(q, _)| *q != p);
        Ok(out)
    }

    /// Constrains `z` to piece `p` (nothing to do without atoms); false if it becomes empty.
    pub(crate) fn restrict(&self, z: &mut Dbm, p: Piece, ints: &[i32]) -> Result<bool, Diagnostic> {
        for k in 0..self.atoms.len() {
            if !self.constrain_side(z, k, side(p, k), ints)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Closes `z` (inside piece `p`) under the delays that stay in the piece and the invariants
    /// of `d`; false if empty.
    pub(crate) fn close_in_piece(
        &self,
        zg: &ZoneGraph<'_>,
        d: &Discrete,
        z: &mut Dbm,
        p: Piece,
    ) -> Result<bool, Diagnostic> {
        if zg.is_urgent(d) {
            return Ok(!z.is_empty());
        }
        let n = zg.model.processes.len().min(d.len());
        let (locs, ints) = d.split_at(n);
        z.up();
        if !zg.constrain_invariant(z, locs, ints) {
            return Ok(false);
        }
        self.restrict(z, p, ints)
    }

    /// The valuations of node `(d, p, z)` where a maximal path can end: they stay in the piece
    /// for all their future delays, and time diverges in `d` or they are deadlocked.
    pub(crate) fn stop_set(
        &self,
        zg: &ZoneGraph<'_>,
        d: &Discrete,
        p: Piece,
        z: &Dbm,
    ) -> Result<Federation, Diagnostic> {
        let dim = z.dim();
        let n = zg.model.processes.len().min(d.len());
        let (locs, ints) = d.split_at(n);
        let (full, stay) = if zg.is_urgent(d) {
            (z.clone(), Federation::from_zone(z.clone()))
        } else if self.atoms.is_empty() {
            // one piece, which no delay leaves
            let mut full = z.clone();
            full.up();
            if !zg.constrain_invariant(&mut full, locs, ints) {
                return Ok(Federation::empty(dim));
            }
            (full, Federation::from_zone(z.clone()))
        } else {
            let mut full = z.clone();
            full.up();
            let mut inv = Dbm::universe(dim);
            if !zg.constrain_invariant(&mut full, locs, ints)
                || !zg.constrain_invariant(&mut inv, locs, ints)
            {
                return Ok(Federation::empty(dim));
            }
            let pz = self.piece_zone(dim, p, ints)?.ok_or_else(internal)?;
            // the valuations from which a delay within the invariants leaves the piece
            let mut leave = Federation::empty(dim);
            for w in Federation::from_zone(inv).subtract_zone(&pz).zones() {
                let mut w = w.clone();
                w.down();
                leave.add(w);
            }
            (full, Federation::from_zone(z.clone()).subtract(&leave))
        };
        if stay.is_empty() || time_diverges(zg, d) {
            return Ok(stay);
        }
        Ok(stay.intersect(&deadlocked(zg, d, &full)))
    }

    /// A concrete timed trace along a path of the split graph: `nodes` are its discrete states
    /// and pieces, `edges[i]` leads from node `i` to node `i + 1` (a move, or empty for a delay
    /// edge). With `stop`, the trace ends with a delay into a valuation where a maximal path ends
    /// (see [`AtomSplit::stop_set`]). Exact zones are propagated forward along the path, then
    /// backward to the valuations from which the rest of the path is feasible, then delays are
    /// chosen forward from the valuation 0 (consecutive delay edges make one delay).
    pub(crate) fn concretize(
        &self,
        zg: &ZoneGraph<'_>,
        nodes: &[(Discrete, Piece)],
        edges: &[Transition],
        stop: bool,
    ) -> Result<TimedTrace, String> {
        let model = zg.model;
        let n = model.processes.len();
        let dim = model.dim();
        let msg = |d: Diagnostic| d.message;
        if nodes.len() != edges.len() + 1 {
            return Err("path and edges disagree".into());
        }
        let ints_of = |d: &Discrete| d.get(n.min(d.len())..).unwrap_or_default().to_vec();
        let locs_of = |d: &Discrete| d.get(..n.min(d.len())).unwrap_or_default().to_vec();
        let pzone = |i: usize| -> Result<Dbm, String> {
            let (d, p) = &nodes[i];
            self.piece_zone(dim, *p, &ints_of(d))
                .map_err(msg)?
                .ok_or_else(|| format!("empty piece at node {i}"))
        };
        // forward exact zones
        let mut fwd: Vec<Dbm> = Vec::with_capacity(nodes.len());
        let mut resets: Vec<Vec<(usize, i64)>> = Vec::with_capacity(edges.len());
        {
            let (d0, _) = &nodes[0];
            let mut z = Dbm::zero(dim);
            let pz = pzone(0)?;
            if !zg.constrain_invariant(&mut z, &locs_of(d0), &ints_of(d0))
                || !z.intersect(&pz)
                || !self
                    .close_in_piece(zg, d0, &mut z, nodes[0].1)
                    .map_err(msg)?
            {
                return Err("the initial valuation is outside the first piece".into());
            }
            fwd.push(z);
        }
        for (i, t) in edges.iter().enumerate() {
            let (d, _) = &nodes[i];
            let (nd, _) = &nodes[i + 1];
            let pz = pzone(i + 1)?;
            let mut z = fwd[i].clone();
            if t.is_empty() {
                z.up();
                if zg.is_urgent(d)
                    || !zg.constrain_invariant(&mut z, &locs_of(nd), &ints_of(nd))
                    || !z.intersect(&pz)
                {
                    return Err(format!("delay edge {i} is infeasible"));
                }
                resets.push(Vec::new());
            } else {
                let (next, r) = zg
                    .discrete_step(d, t)
                    .ok_or_else(|| format!("move {i} is disabled on its discrete state"))?;
                if next != *nd {
                    return Err(format!("move {i} does not lead to the next discrete state"));
                }
                if !constrain_move(&mut z, model, t, &ints_of(d)) {
                    return Err(format!("guard of move {i} is infeasible"));
                }
                for &(x, c) in &r {
                    z.reset(x, c as i32);
                }
                if !zg.constrain_invariant(&mut z, &locs_of(nd), &ints_of(nd))
                    || !z.intersect(&pz)
                    || !self
                        .close_in_piece(zg, nd, &mut z, nodes[i + 1].1)
                        .map_err(msg)?
                {
                    return Err(format!("move {i} is infeasible on exact zones"));
                }
                resets.push(r);
            }
            fwd.push(z);
        }
        // backward: `back[i]` are the valuations of node `i` from which the rest is feasible;
        // `guard[i]` those of node `i` where move `i` is taken
        let last = nodes.len() - 1;
        let (dl, pl) = &nodes[last];
        let target = if stop {
            let f = self.stop_set(zg, dl, *pl, &fwd[last]).map_err(msg)?;
            f.zones()
                .first()
                .cloned()
                .ok_or("no valuation of the last node ends a maximal path")?
        } else {
            fwd[last].clone()
        };
        let past = |z: &Dbm, d: &Discrete, within: &Dbm| -> Option<Dbm> {
            let mut w = z.clone();
            if !zg.is_urgent(d) {
                w.down();
            }
            w.intersect(within).then_some(w)
        };
        let mut back: Vec<Dbm> = vec![Dbm::universe(dim); nodes.len()];
        let mut guard: Vec<Option<Dbm>> = vec![None; edges.len()];
        back[last] = past(&target, dl, &fwd[last]).ok_or("empty backward zone at the end")?;
        for i in (0..edges.len()).rev() {
            let (d, _) = &nodes[i];
            if edges[i].is_empty() {
                back[i] = past(&back[i + 1], d, &fwd[i])
                    .ok_or_else(|| format!("empty backward zone at delay edge {i}"))?;
            } else {
                let mut pre = back[i + 1].clone();
                for &(x, c) in resets[i].iter().rev() {
                    let c = c as i32;
                    if !(pre.constrain(x, 0, le(c)) && pre.constrain(0, x, le(-c))) {
                        return Err(format!("empty reset pre-image at move {i}"));
                    }
                    pre.free(x);
                }
                if !constrain_move(&mut pre, model, &edges[i], &ints_of(d))
                    || !pre.intersect(&fwd[i])
                {
                    return Err(format!("empty guard zone at move {i}"));
                }
                back[i] = past(&pre, d, &fwd[i])
                    .ok_or_else(|| format!("empty backward zone at move {i}"))?;
                guard[i] = Some(pre);
            }
        }
        // forward choice of delays from the valuation 0
        let mut v: Vec<BigRational> = vec![BigRational::zero(); dim];
        let mut pending = BigRational::zero();
        let mut steps = Vec::new();
        let advance = |v: &mut Vec<BigRational>, delta: &BigRational| {
            for x in v.iter_mut().skip(1) {
                *x += delta;
            }
        };
        for (i, t) in edges.iter().enumerate() {
            let (d, _) = &nodes[i];
            let urgent = zg.is_urgent(d);
            if t.is_empty() {
                let delta = choose_delay(&back[i + 1], &v, urgent)
                    .ok_or_else(|| format!("no delay reaches the piece of node {}", i + 1))?;
                advance(&mut v, &delta);
                pending += delta;
            } else {
                let g = guard[i].as_ref().ok_or("missing guard zone")?;
                let delta = choose_delay(g, &v, urgent)
                    .ok_or_else(|| format!("no delay reaches the guard of move {i}"))?;
                advance(&mut v, &delta);
                pending += delta;
                for &(x, c) in &resets[i] {
                    if let Some(slot) = v.get_mut(x) {
                        *slot = BigRational::from_integer(BigInt::from(c));
                    }
                }
                steps.push(TimedStep {
                    delay: std::mem::take(&mut pending),
                    transition: t.clone(),
                });
            }
        }
        let delta = choose_delay(&target, &v, zg.is_urgent(dl))
            .ok_or("no delay reaches the end of the witness")?;
        let final_delay = pending + delta;
        let (d0, _) = &nodes[0];
        Ok(TimedTrace {
            initial: locs_of(d0).iter().map(|&l| l as u32).collect(),
            steps,
            final_delay,
        })
    }
}

fn internal() -> Diagnostic {
    Diagnostic::error("internal error: inconsistent split of a zone along the formula's clocks")
}
