//! Abstraction-guided simulation (de Paula, Hu, *EverLost: a flexible platform for
//! industrial-strength abstraction-guided simulation*, CAV'06 C27, §1–2): a bug-finding engine.
//!
//! * **Abstraction** (§1 "any conservative abstraction"): the latches nearest the target in the
//!   latch dependency graph (breadth-first from the bad literal's support, at most
//!   `hw.everlost-latches`); every other latch becomes a free input, which preserves every path
//!   to the bad states.
//! * **Rings** (§1): BDD pre-images of the abstract bad states — ring `i` holds the abstract
//!   states whose shortest abstract path to a bad state has `i` steps, a lower bound on the
//!   concrete distance. `Pre(R)(x) = ∃w. C(x,w) ∧ R[x := f(x,w)]` over the next-state functions
//!   `f` of the abstract latches (`w`: inputs and free latches, `C`: invariant constraints).
//! * **Guided simulation** (§2 "our current guidance heuristic"): from the current state,
//!   `n` = 64 random traces of `k` cycles (the 64 lanes of `verikit-aiger`'s bit-parallel
//!   simulator), continue from the best state reached (the innermost ring); after
//!   `hw.everlost-patience` rounds without progress, a random walk (continue from a random
//!   trace's end) to get around dead ends.
//!
//! A trace that reaches a bad state is the counterexample (inputs from the initial state).
//! When the abstract pre-images reach a fixpoint that excludes the initial states, the target is
//! unreachable and the engine stops at once with `unknown` (the proof engines give the
//! certificate). Each batch of traces spends one unit of the budget's work.

use crate::outcome::Outcome;
use crate::splitmix::Rng;
use crate::unroll::latch_support;
use std::collections::HashMap;
use verikit_aiger::{Aig, Kind, Reset, Sim, Ternary, Witness};
use verikit_bdd::{Bdd, BddVariable, BddVariableSet, MAX_VARS};
use verikit_diag::Budget;

/// Tuning of the EverLost engine (the `-x hw.everlost-*` parameters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EverLostOptions {
    /// Latches kept in the abstract model.
    pub latches: usize,
    /// Most pre-image rings.
    pub rings: usize,
    /// Cycles per batch of 64 traces.
    pub cycles: usize,
    /// Batches without progress before a random walk.
    pub patience: usize,
    pub seed: u64,
}

/// Statistics of a run.
#[derive(Clone, Debug, Default)]
pub(crate) struct EverLostStats {
    pub(crate) abstract_latches: usize,
    pub(crate) rings: usize,
    pub(crate) cycles: u64,
    pub(crate) best_ring: Option<usize>,
}

/// The abstraction and its rings.
struct Rings {
    /// Abstract latch positions (into `aig.latches`).
    abs: Vec<usize>,
    vars: BddVariableSet,
    nvars: usize,
    /// BDD variable of each AIG variable that is a leaf of the abstract model.
    leaf_var: HashMap<u32, BddVariable>,
    rings: Vec<Bdd>,
    /// Pre-images reached a fixpoint without the initial states.
    unreachable: bool,
}

fn build_rings(aig: &Aig, prop_lit: u32, opts: &EverLostOptions, budget: &Budget) -> Rings {
    let kinds = aig.kinds();
    let mut roots = vec![prop_lit];
    roots.extend(&aig.constraints);
    // Breadth-first over the latch dependency graph from the target.
    let mut abs: Vec<usize> = Vec::new();
    let mut frontier = latch_support(aig, &kinds, &roots, false);
    let mut in_abs = vec![false; aig.latches.len()];
    while !frontier.is_empty() && abs.len() < opts.latches {
        let mut next = Vec::new();
        for k in frontier {
            if abs.len() >= opts.latches {
                break;
            }
            if in_abs.get(k).copied().unwrap_or(true) {
                continue;
            }
            if let Some(f) = in_abs.get_mut(k) {
                *f = true;
            }
            abs.push(k);
            if let Some(l) = aig.latches.get(k) {
                next.extend(latch_support(aig, &kinds, &[l.next], false));
            }
        }
        frontier = next;
    }
    // Variables: abstract latches first (x), then every other leaf of the cones (w).
    let order: Vec<u32> = abs
        .iter()
        .filter_map(|&k| aig.latches.get(k).map(|l| l.lit >> 1))
        .collect();
    let mut cone_roots = roots.clone();
    cone_roots.extend(
        abs.iter()
            .filter_map(|&k| aig.latches.get(k).map(|l| l.next)),
    );
    let mut seen = vec![false; aig.maxvar as usize + 1];
    let mut stack: Vec<u32> = cone_roots.iter().map(|l| l >> 1).collect();
    let mut w = Vec::new();
    while let Some(v) = stack.pop() {
        match seen.get_mut(v as usize) {
            Some(s) if !*s => *s = true,
            _ => continue,
        }
        match kinds.get(v as usize) {
            Some(Kind::And(k)) => {
                if let Some(g) = aig.ands.get(*k) {
                    stack.push(g.rhs0 >> 1);
                    stack.push(g.rhs1 >> 1);
                }
            }
            Some(Kind::Input(_)) => w.push(v),
            Some(Kind::Latch(_)) if !order.contains(&v) => w.push(v),
            _ => {}
        }
    }
    w.sort_unstable();
    // BDD order: each abstract latch next to its primed copy, then the free leaves.
    let nabs = order.len();
    let nvars = (2 * nabs + w.len()).min(MAX_VARS);
    let vars = BddVariableSet::new_anonymous(nvars as u16);
    let list = vars.variables();
    let mut leaf_var: HashMap<u32, BddVariable> = HashMap::new();
    let mut primed: HashMap<BddVariable, BddVariable> = HashMap::new();
    for (i, &v) in order.iter().enumerate() {
        if let (Some(&x), Some(&xp)) = (list.get(2 * i), list.get(2 * i + 1)) {
            leaf_var.insert(v, x);
            primed.insert(x, xp);
        }
    }
    for (i, &v) in w.iter().enumerate() {
        if let Some(&b) = list.get(2 * nabs + i) {
            leaf_var.insert(v, b);
        }
    }
    let mut rings = Rings {
        abs,
        vars,
        nvars,
        leaf_var,
        rings: Vec::new(),
        unreachable: false,
    };
    // Functions of AND gates over the leaves, computed on demand.
    let mut memo: HashMap<u32, Bdd> = HashMap::new();
    let node_limit = 200_000;
    let Some(bad) = lit_bdd(aig, &kinds, &rings, &mut memo, prop_lit, budget) else {
        return rings;
    };
    let mut cons = rings.vars.mk_true();
    for &c in &aig.constraints {
        match lit_bdd(aig, &kinds, &rings, &mut memo, c, budget) {
            Some(b) => cons = cons.and(&b),
            None => return rings,
        }
    }
    let nexts: Vec<(BddVariable, Bdd)> = {
        let mut v = Vec::new();
        for &k in &rings.abs {
            let Some(l) = aig.latches.get(k) else {
                continue;
            };
            let Some(&x) = rings.leaf_var.get(&(l.lit >> 1)) else {
                continue;
            };
            match lit_bdd(aig, &kinds, &rings, &mut memo, l.next, budget) {
                Some(f) => v.push((x, f)),
                None => return rings,
            }
        }
        v
    };
    let ws: Vec<BddVariable> = list.iter().copied().skip(2 * nabs).collect();
    let ring0 = bad.and(&cons).exists(&ws);
    let init = {
        let mut i = rings.vars.mk_true();
        for &k in &rings.abs {
            let Some(l) = aig.latches.get(k) else {
                continue;
            };
            let Some(&x) = rings.leaf_var.get(&(l.lit >> 1)) else {
                continue;
            };
            match l.reset {
                Reset::Zero => i = i.and(&rings.vars.mk_literal(x, false)),
                Reset::One => i = i.and(&rings.vars.mk_literal(x, true)),
                Reset::Uninit => {}
            }
        }
        i
    };
    let mut reach = ring0.clone();
    rings.rings.push(ring0);
    while rings.rings.len() < opts.rings {
        if budget.check().is_err() || reach.size() > node_limit {
            return rings;
        }
        // Pre(reach) = ∃w. C ∧ reach[x := f(x, w)]: rename reach to the primed copies, then
        // substitute each primed variable by its next-state function (no function mentions a
        // primed variable, so one substitution at a time is the simultaneous one).
        let mut p = reach.clone();
        for (x, _) in &nexts {
            if let Some(&xp) = primed.get(x) {
                p = p.substitute(*x, &rings.vars.mk_var(xp));
            }
        }
        for (x, f) in &nexts {
            if let Some(&xp) = primed.get(x) {
                p = p.substitute(xp, f);
            }
        }
        let pre = p.and(&cons).exists(&ws);
        let new = pre.and_not(&reach);
        if new.is_false() {
            rings.unreachable = reach.and(&init).is_false();
            return rings;
        }
        reach = reach.or(&new);
        rings.rings.push(new);
    }
    rings
}

fn lit_bdd(
    aig: &Aig,
    kinds: &[Kind],
    r: &Rings,
    memo: &mut HashMap<u32, Bdd>,
    lit: u32,
    budget: &Budget,
) -> Option<Bdd> {
    // Iterative post-order over the AND cone.
    let mut stack = vec![(lit >> 1, false)];
    while let Some((v, done)) = stack.pop() {
        budget.check().ok()?;
        if memo.contains_key(&v) {
            continue;
        }
        let b = match kinds.get(v as usize) {
            Some(Kind::Const) => r.vars.mk_false(),
            Some(Kind::And(k)) => {
                let g = aig.ands.get(*k)?;
                if !done {
                    stack.push((v, true));
                    stack.push((g.rhs0 >> 1, false));
                    stack.push((g.rhs1 >> 1, false));
                    continue;
                }
                let a = lit_of(memo, g.rhs0)?;
                let b = lit_of(memo, g.rhs1)?;
                let c = a.and(&b);
                if c.size() > 200_000 {
                    return None;
                }
                c
            }
            _ => r.vars.mk_var(*r.leaf_var.get(&v)?),
        };
        memo.insert(v, b);
    }
    lit_of(memo, lit)
}

fn lit_of(memo: &HashMap<u32, Bdd>, lit: u32) -> Option<Bdd> {
    let b = memo.get(&(lit >> 1))?;
    Some(if lit & 1 == 1 { b.not() } else { b.clone() })
}

impl Rings {
    /// The ring of a concrete state (latch values), `None` outside every ring.
    fn distance(
        &self,
        aig: &Aig,
        state: &[bool],
        cache: &mut HashMap<u64, Option<usize>>,
    ) -> Option<usize> {
        let mut key = 0u64;
        for (i, &k) in self.abs.iter().enumerate().take(64) {
            if state.get(k).copied().unwrap_or(false) {
                key |= 1 << i;
            }
        }
        if let Some(&d) = cache.get(&key) {
            return d;
        }
        let mut val = vec![false; self.nvars];
        for &k in &self.abs {
            if let Some(l) = aig.latches.get(k) {
                if let Some(x) = self.leaf_var.get(&(l.lit >> 1)) {
                    if let Some(s) = val.get_mut(x.to_index()) {
                        *s = state.get(k).copied().unwrap_or(false);
                    }
                }
            }
        }
        let v = verikit_bdd::BddValuation::new(val);
        let d = self.rings.iter().position(|r| r.eval_in(&v));
        cache.insert(key, d);
        d
    }
}

/// Abstraction-guided simulation toward bad literal `prop`.
pub(crate) fn everlost(
    aig: &Aig,
    prop: usize,
    opts: &EverLostOptions,
    budget: &Budget,
) -> (Outcome, EverLostStats) {
    let mut stats = EverLostStats::default();
    let Some(&bad) = aig.properties().get(prop) else {
        return (
            Outcome::Unknown {
                reason: format!("no property {prop}"),
            },
            stats,
        );
    };
    let rings = build_rings(aig, bad, opts, budget);
    stats.abstract_latches = rings.abs.len();
    stats.rings = rings.rings.len();
    if rings.unreachable {
        // §1: "if formal verification succeeds (finding no abstract error paths) we are done";
        // the proof itself is left to the proof engines.
        return (
            Outcome::Unknown {
                reason: format!(
                    "the abstract model ({} latches) cannot reach the target: nothing to simulate toward",
                    stats.abstract_latches
                ),
            },
            stats,
        );
    }
    let mut rng = Rng(opts.seed);
    let mut cache = HashMap::new();
    // The current state and the inputs that led to it from the initial state.
    // Uninitialised latches take random values, drawn again at every restart.
    let draw = |rng: &mut Rng| -> Vec<bool> {
        aig.latches
            .iter()
            .map(|l| match l.reset {
                Reset::Zero => false,
                Reset::One => true,
                Reset::Uninit => rng.next() & 1 == 1,
            })
            .collect()
    };
    let mut init = draw(&mut rng);
    let mut state = init.clone();
    let mut path: Vec<Vec<bool>> = Vec::new();
    let mut best = rings.distance(aig, &state, &mut cache);
    let mut stale = 0usize;
    let k = opts.cycles.max(1);
    loop {
        // One unit of work per batch of 64 traces.
        if let Err(why) = budget.spend(1) {
            stats.best_ring = best;
            return (
                Outcome::Exhausted {
                    why,
                    reached: format!(
                        "{} simulated cycles, {} rings, closest ring {}",
                        stats.cycles,
                        stats.rings,
                        best.map_or("none".into(), |d| d.to_string())
                    ),
                },
                stats,
            );
        }
        // 64 traces of k cycles from `state`, one per lane.
        let mut sim = Sim::new(aig);
        let st: Vec<Ternary> = state.iter().map(|&b| Ternary::from_bool(b)).collect();
        sim.set_latches(&st);
        let mut alive = !0u64;
        let mut frames: Vec<Vec<u64>> = Vec::with_capacity(k);
        // (ring, lane, cycle after which the state is taken)
        let mut choice: Option<(usize, u32, usize)> = None;
        let mut random_end: Option<u32> = None;
        for cyc in 0..k {
            let ins: Vec<u64> = aig.inputs.iter().map(|_| rng.next()).collect();
            let tin: Vec<Ternary> = ins.iter().map(|&w| Ternary { one: w, zero: !w }).collect();
            sim.eval(&tin);
            frames.push(ins);
            stats.cycles += 64;
            for &c in &aig.constraints {
                alive &= sim.lit(c).one;
            }
            let hit = sim.lit(bad).one & alive;
            if hit != 0 {
                let lane = hit.trailing_zeros();
                for f in &frames {
                    path.push(f.iter().map(|w| (w >> lane) & 1 == 1).collect());
                }
                stats.best_ring = Some(0);
                let depth = path.len() - 1;
                return (
                    Outcome::Unsafe {
                        witness: Witness {
                            props: vec![('b', prop)],
                            latches: init.iter().map(|&b| Some(b)).collect(),
                            inputs: path
                                .into_iter()
                                .map(|f| f.into_iter().map(Some).collect())
                                .collect(),
                        },
                        depth,
                    },
                    stats,
                );
            }
            sim.step();
            if alive == 0 {
                break;
            }
            let lat = sim.latches();
            for lane in 0..64u32 {
                if (alive >> lane) & 1 == 0 {
                    continue;
                }
                let s: Vec<bool> = lat.iter().map(|t| t.lane(lane) == Some(true)).collect();
                if let Some(d) = rings.distance(aig, &s, &mut cache) {
                    if choice.is_none_or(|(bd, _, _)| d < bd) {
                        choice = Some((d, lane, cyc));
                    }
                }
            }
            if cyc + 1 == k && alive != 0 {
                let lanes: Vec<u32> = (0..64).filter(|l| (alive >> l) & 1 == 1).collect();
                random_end = lanes.get(rng.next() as usize % lanes.len().max(1)).copied();
            }
        }
        let improved = match (choice, best) {
            (Some((d, _, _)), Some(b)) => d < b,
            (Some(_), None) => true,
            _ => false,
        };
        let (lane, upto) = if improved || (choice.is_some() && stale < opts.patience) {
            if improved {
                stale = 0;
                best = choice.map(|c| c.0);
            } else {
                stale += 1;
            }
            match choice {
                Some((_, l, c)) => (Some(l), c + 1),
                None => (None, 0),
            }
        } else {
            stale = 0;
            if rng.next().is_multiple_of(8) {
                // now and then the walk restarts from a fresh initial state
                init = draw(&mut rng);
                state = init.clone();
                path.clear();
                best = rings.distance(aig, &state, &mut cache);
                continue;
            }
            best = None; // a random walk forgets the best ring reached
            (random_end, k)
        };
        let Some(lane) = lane else {
            // Every lane died on a constraint: restart from an initial state.
            init = draw(&mut rng);
            state = init.clone();
            path.clear();
            best = rings.distance(aig, &state, &mut cache);
            continue;
        };
        for f in frames.iter().take(upto) {
            path.push(f.iter().map(|w| (w >> lane) & 1 == 1).collect());
        }
        // Re-simulate the chosen lane's prefix to get its state.
        let mut s2 = Sim::new(aig);
        s2.set_latches(
            &state
                .iter()
                .map(|&b| Ternary::from_bool(b))
                .collect::<Vec<_>>(),
        );
        for f in frames.iter().take(upto) {
            let tin: Vec<Ternary> = f
                .iter()
                .map(|&w| Ternary::from_bool((w >> lane) & 1 == 1))
                .collect();
            s2.eval(&tin);
            s2.step();
        }
        state = s2
            .latches()
            .iter()
            .map(|t| t.lane(0) == Some(true))
            .collect();
        if path.len() > 100_000 {
            init = draw(&mut rng);
            state = init.clone();
            path.clear();
            best = rings.distance(aig, &state, &mut cache);
        }
    }
}
