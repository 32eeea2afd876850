//! Symbolic HKC: equivalence checking up to congruence with BDD-represented letters, the symbolic
//! variant for large alphabets discussed in "On Equivalence Checking of Nondeterministic Finite
//! Automata" (Fu, Deng, Jansen, Zhang, SETTA 2017), Sections 3.2–3.4 (HKC over the determinised
//! automata, after Bonchi and Pous, POPL 2013, whose symbolic version represents letters as BDDs).
//!
//! The automata are `.mata` `@NFA-bits` automata: each transition is labelled by a Boolean formula
//! over bit atoms, which is turned into a BDD by the shared kernel (`verikit-bdd`: one dictionary
//! in which the atoms of both automata are registered by name, one `BoolExpr` conversion). No mintermisation: the successors of a pair of macrostates `(X, Y)` are computed
//! by refining the letter space `{0,1}^k` by the guards of the transitions leaving `X ∪ Y`; every
//! block of the refinement (a BDD) leads to one successor pair, and one satisfying valuation of the
//! block is the concrete letter recorded for counterexample words. The line-4 test is HKC's
//! congruence closure, decided by set rewriting as in [`crate::hkc`]; `todo` is memoised (each
//! pair is queued at most once).
//!
//! Counterexample words are sequences of bit vectors (one value per atom); [`accepts`] replays
//! them by evaluating the original label formulas, independently of the BDDs.

use crate::error::AutomataError;
use crate::mata::{MataAut, MataKind};
use crate::nfa::State;
use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use verikit_bdd::{Bdd, BddDict, BddError, Limits};
use verikit_diag::{Budget, Exhausted};
use verikit_logic::BoolExpr;

/// An NFA whose transitions carry BDD guards over shared bit atoms.
pub(crate) struct SymNfa {
    pub states: usize,
    pub initial: Vec<State>,
    pub finals: FixedBitSet,
    /// Outgoing transitions `(guard id in SymSystem::guards, target)` per state.
    pub out: Vec<Vec<(u32, State)>>,
    /// The label formulas `(src, formula over the shared atoms, dst)`, for independent replay.
    pub edges: Vec<(State, BoolExpr, State)>,
}

/// Automata over shared atoms and the BDD dictionary of those atoms (variable `i` is `atoms[i]`).
pub(crate) struct SymSystem {
    pub atoms: Vec<String>,
    pub dict: BddDict,
    /// The distinct guards of all automata.
    pub guards: Vec<Bdd>,
    pub auts: Vec<SymNfa>,
}

/// Builds symbolic automata from parsed `@NFA-bits` sections, joining their atoms by name.
pub(crate) fn build(auts: &[MataAut]) -> Result<SymSystem, AutomataError> {
    if auts.iter().any(|a| a.kind != MataKind::Bits) {
        return Err(AutomataError::Invalid(
            "the symbolic algorithm needs `@NFA-bits` automata".into(),
        ));
    }
    // One dictionary for all automata: each automaton's atoms are registered once, by name.
    let too_many = |e: BddError| AutomataError::Limit(format!("too many atoms: {e}"));
    let mut dict = BddDict::default();
    for a in auts {
        dict = dict
            .extend(a.atoms.iter().map(String::as_str))
            .map_err(too_many)?;
    }
    let maps: Vec<Vec<u32>> = auts
        .iter()
        .map(|a| {
            a.atoms
                .iter()
                .map(|name| dict.var_of(name).map_or(u32::MAX, |v| v.to_index() as u32))
                .collect()
        })
        .collect();
    let atoms = dict.names().to_vec();
    let unlimited = Limits::unlimited();
    let mut out = Vec::new();
    let mut table: Vec<Bdd> = Vec::new();
    let mut ids: FxHashMap<Bdd, u32> = FxHashMap::default();
    for (a, map) in auts.iter().zip(&maps) {
        let n = a.state_names.len();
        let mut finals = FixedBitSet::with_capacity(n);
        for &q in &a.finals {
            finals.insert(q as usize);
        }
        let formulas: Vec<BoolExpr> = a
            .formulas
            .iter()
            .map(|f| f.map_vars(&|x| map.get(x as usize).copied().unwrap_or(x)))
            .collect();
        let guards: Vec<(u32, bool)> = formulas
            .iter()
            .map(|f| {
                let g =
                    verikit_bdd::from_expr(f, dict.vars(), &|i| dict.ap(i as usize), &unlimited)
                        .map_err(too_many)?;
                let empty = g.is_false();
                let id = *ids.entry(g.clone()).or_insert_with(|| {
                    table.push(g);
                    table.len() as u32 - 1
                });
                Ok((id, empty))
            })
            .collect::<Result<_, AutomataError>>()?;
        let mut adj = vec![Vec::new(); n];
        let mut edges = Vec::new();
        for &(s, l, t) in &a.transitions {
            let (Some(g), Some(f)) = (guards.get(l as usize), formulas.get(l as usize)) else {
                return Err(AutomataError::Invalid(
                    "transition label out of range".into(),
                ));
            };
            if (s as usize) < n && (t as usize) < n && !g.1 {
                adj[s as usize].push((g.0, t));
                edges.push((s, f.clone(), t));
            }
        }
        out.push(SymNfa {
            states: n,
            initial: a.initial.clone(),
            finals,
            out: adj,
            edges,
        });
    }
    Ok(SymSystem {
        atoms,
        dict,
        guards: table,
        auts: out,
    })
}

/// Whether `a` accepts `word` (bit vectors over the shared atoms), by evaluating the label
/// formulas: independent of the BDDs.
pub(crate) fn accepts(a: &SymNfa, word: &[Vec<bool>]) -> bool {
    let mut cur = vec![false; a.states];
    for &q in &a.initial {
        cur[q as usize] = true;
    }
    for letter in word {
        let mut next = vec![false; a.states];
        for (s, f, t) in &a.edges {
            if cur[*s as usize] && f.eval(&|i| letter.get(i as usize).copied().unwrap_or(false)) {
                next[*t as usize] = true;
            }
        }
        cur = next;
    }
    (0..a.states).any(|q| cur[q] && a.finals.contains(q))
}

/// The answer of [`equivalent`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SymOutcome {
    pub holds: bool,
    /// A word accepted by exactly one automaton, one bit vector per step.
    pub witness: Option<Vec<Vec<bool>>>,
    /// Pairs in the relation `R`.
    pub size: usize,
    /// Pairs explored.
    pub explored: usize,
}

fn covers(
    z: &mut FixedBitSet,
    from: &[State],
    target: &[State],
    r: &[(&[State], &[State])],
) -> bool {
    z.clear();
    for &q in from {
        z.insert(q as usize);
    }
    let done = |z: &FixedBitSet| target.iter().all(|&q| z.contains(q as usize));
    loop {
        if done(z) {
            return true;
        }
        let mut changed = false;
        for &(us, vs) in r {
            let u_in = us.iter().all(|&q| z.contains(q as usize));
            let v_in = vs.iter().all(|&q| z.contains(q as usize));
            if u_in && !v_in {
                vs.iter().for_each(|&q| z.insert(q as usize));
                changed = true;
            } else if v_in && !u_in {
                us.iter().for_each(|&q| z.insert(q as usize));
                changed = true;
            }
        }
        if !changed {
            return false;
        }
    }
}

/// An explored pair `(X, Y)` with its parent pair index and the letter leading to it.
type Explored = (Vec<State>, Vec<State>, usize, Vec<bool>);

/// `L(A) = L(B)` by symbolic HKC (`A`, `B` from one [`SymSystem`]).
///
/// Polls `budget` once per explored pair; on exhaustion nothing is decided.
pub(crate) fn equivalent(
    sys: &SymSystem,
    a: &SymNfa,
    b: &SymNfa,
    budget: &Budget,
) -> Result<SymOutcome, Exhausted> {
    let off = a.states as State;
    let n = a.states + b.states;
    let acc = |q: State| {
        if q < off {
            a.finals.contains(q as usize)
        } else {
            b.finals.contains((q - off) as usize)
        }
    };
    let out = |q: State| -> &[(u32, State)] {
        if q < off {
            &a.out[q as usize]
        } else {
            &b.out[(q - off) as usize]
        }
    };
    let v = sys.dict.vars().variables();
    // Explored pairs with their parent (pair index, letter) for counterexample words.
    let mut pairs: Vec<Explored> = Vec::new();
    let mut seen: FxHashMap<(Vec<State>, Vec<State>), ()> = FxHashMap::default();
    let mut todo: VecDeque<usize> = VecDeque::new();
    let mut r: Vec<(Vec<State>, Vec<State>)> = Vec::new();
    let mut z = FixedBitSet::with_capacity(n);
    let mut x0: Vec<State> = a.initial.clone();
    x0.sort_unstable();
    x0.dedup();
    let mut y0: Vec<State> = b.initial.iter().map(|&q| q + off).collect();
    y0.sort_unstable();
    y0.dedup();
    seen.insert((x0.clone(), y0.clone()), ());
    pairs.push((x0, y0, usize::MAX, Vec::new()));
    todo.push_back(0);
    let mut explored = 0usize;
    while let Some(i) = todo.pop_front() {
        budget.spend(1)?;
        explored += 1;
        let (xs, ys) = (pairs[i].0.clone(), pairs[i].1.clone());
        let rel: Vec<(&[State], &[State])> = r
            .iter()
            .map(|(u, v)| (&u[..], &v[..]))
            .chain(todo.iter().map(|&j| (&pairs[j].0[..], &pairs[j].1[..])))
            .collect();
        if covers(&mut z, &xs, &ys, &rel) && covers(&mut z, &ys, &xs, &rel) {
            continue;
        }
        if xs.iter().any(|&q| acc(q)) != ys.iter().any(|&q| acc(q)) {
            let mut word = Vec::new();
            let mut k = i;
            while pairs[k].2 != usize::MAX {
                word.push(pairs[k].3.clone());
                k = pairs[k].2;
            }
            word.reverse();
            return Ok(SymOutcome {
                holds: false,
                witness: Some(word),
                size: r.len(),
                explored,
            });
        }
        // Group the transitions leaving X ∪ Y by guard, then refine the letter space by each
        // distinct guard.
        let mut groups: FxHashMap<u32, (Vec<State>, Vec<State>)> = FxHashMap::default();
        for (side, set) in [(0, &xs), (1, &ys)] {
            for &q in set.iter() {
                for &(g, t) in out(q) {
                    let t = if q < off { t } else { t + off };
                    let e = groups.entry(g).or_default();
                    if side == 0 {
                        e.0.push(t);
                    } else {
                        e.1.push(t);
                    }
                }
            }
        }
        let mut order: Vec<u32> = groups.keys().copied().collect();
        order.sort_unstable();
        let mut blocks: Vec<(Bdd, Vec<State>, Vec<State>)> =
            vec![(sys.dict.tt(), Vec::new(), Vec::new())];
        for gid in order {
            let g = &sys.guards[gid as usize];
            let (tx, ty) = &groups[&gid];
            let mut next = Vec::with_capacity(blocks.len() * 2);
            for (h, mut bx, mut by) in blocks {
                let outside = h.and_not(g);
                if outside.is_false() {
                    bx.extend_from_slice(tx);
                    by.extend_from_slice(ty);
                    next.push((h, bx, by));
                    continue;
                }
                let inside = h.and(g);
                if !inside.is_false() {
                    let (mut nx, mut ny) = (bx.clone(), by.clone());
                    nx.extend_from_slice(tx);
                    ny.extend_from_slice(ty);
                    next.push((inside, nx, ny));
                }
                next.push((outside, bx, by));
            }
            blocks = next;
        }
        r.push((xs, ys));
        for (h, mut bx, mut by) in blocks {
            bx.sort_unstable();
            bx.dedup();
            by.sort_unstable();
            by.dedup();
            let key = (bx, by);
            if seen.contains_key(&key) {
                continue;
            }
            let Some(val) = h.sat_witness() else { continue };
            let letter: Vec<bool> = v.iter().map(|&x| val.value(x)).collect();
            seen.insert(key.clone(), ());
            pairs.push((key.0, key.1, i, letter));
            todo.push_back(pairs.len() - 1);
        }
    }
    Ok(SymOutcome {
        holds: true,
        witness: None,
        size: r.len(),
        explored,
    })
}
