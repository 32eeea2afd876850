//! The defining trajectory of an antecedent (Roorda, Claessen, *STAR*, CAV'06 C19, §3
//! "Trajectories" and "STE-Model Checking"; Tzoref, Grumberg, *Automatic refinement and vacuity
//! detection for STE*, CAV'06 C20, §2): quaternary (0/1/X/⊥) symbolic simulation of an AIGER
//! circuit over time in the dual-rail encoding, generic over the Boolean algebra of the rails
//! ([`Algebra`]: BDDs or SAT literals).
//!
//! STE's three abstractions (C19 §3): X abstracts a node's value; information flows forward only
//! (gate inputs to outputs, time t to t+1); every latch starts at X (reset values are ignored).
//! At every node and time the antecedent's defining sequence is met (⊓: the union of the rails)
//! with the value the gates propagate, so antecedent constraints on internal nodes drive their
//! fan-out. A rail pair `(one, zero)` is X = (0,0), 1 = (1,0), 0 = (0,1), ⊥ = (1,1).

use crate::ste_algebra::Algebra;
use crate::ste_parse::Assertion;
use std::collections::BTreeMap;
use verikit_aiger::{Aig, Kind};
use verikit_diag::{Budget, Diagnostic, Exhausted};
use verikit_logic::BoolExpr;

/// A dual-rail quaternary value.
#[derive(Clone, Debug)]
pub(crate) struct Rail<B> {
    pub(crate) one: B,
    pub(crate) zero: B,
}

/// A TEL constraint on an AIG variable: under `guard`, variable `var` at `time` is `value`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct VarAtom {
    pub(crate) var: u32,
    pub(crate) time: usize,
    pub(crate) guard: BoolExpr,
    pub(crate) value: BoolExpr,
}

/// An assertion resolved against a circuit: constraints on AIG variables.
#[derive(Clone, Debug)]
pub(crate) struct Resolved {
    pub(crate) ante: Vec<VarAtom>,
    pub(crate) cons: Vec<VarAtom>,
    /// Frames simulated: one more than the latest time mentioned.
    pub(crate) depth: usize,
    /// Number of symbolic variables (refinement adds fresh ones after the written ones).
    pub(crate) nvars: usize,
}

/// Resolves the node names of an assertion: symbol names, `iK`/`lK`/`oK`, `vN`. An output is a
/// literal; a constraint on a negated output constrains its variable to the opposite value.
pub(crate) fn resolve(a: &Assertion, aig: &Aig) -> Result<Resolved, Diagnostic> {
    let conv = |atoms: &[crate::ste_parse::Atom]| -> Result<Vec<VarAtom>, Diagnostic> {
        atoms
            .iter()
            .map(|at| {
                let lit = node_literal(aig, &at.node).ok_or_else(|| {
                    Diagnostic::at(
                        at.node_span,
                        format!("no node `{}` in the circuit", at.node),
                    )
                    .with_note(
                        "nodes are symbol names of inputs, latches, outputs, or iK, lK, oK, vN",
                    )
                })?;
                let value = if lit & 1 == 1 {
                    BoolExpr::not(at.value.clone())
                } else {
                    at.value.clone()
                };
                Ok(VarAtom {
                    var: lit >> 1,
                    time: at.time,
                    guard: at.guard.clone(),
                    value,
                })
            })
            .collect()
    };
    let ante = conv(&a.ante)?;
    let cons = conv(&a.cons)?;
    let depth = ante
        .iter()
        .chain(&cons)
        .map(|x| x.time + 1)
        .max()
        .unwrap_or(1);
    Ok(Resolved {
        ante,
        cons,
        depth,
        nvars: a.vars.len(),
    })
}

/// The AIG literal a node name denotes.
pub(crate) fn node_literal(aig: &Aig, name: &str) -> Option<u32> {
    for &(kind, idx, ref sym) in &aig.symbols {
        if sym == name {
            match kind {
                'i' => return aig.inputs.get(idx).copied(),
                'l' => return aig.latches.get(idx).map(|l| l.lit),
                'o' => return aig.outputs.get(idx).copied(),
                _ => {}
            }
        }
    }
    let (head, num) = (name.get(..1)?, name.get(1..)?);
    let k: usize = num.parse().ok()?;
    match head {
        "i" => aig.inputs.get(k).copied(),
        "l" => aig.latches.get(k).map(|l| l.lit),
        "o" => aig.outputs.get(k).copied(),
        "v" if k <= aig.maxvar as usize => Some(2 * k as u32),
        _ => None,
    }
}

/// The printable name of an AIG variable: its symbol, or `iK`/`lK`/`vN`.
pub(crate) fn var_name(aig: &Aig, kinds: &[Kind], var: u32) -> String {
    let sym = |c: char, k: usize| aig.symbol(c, k).map(str::to_string);
    match kinds.get(var as usize) {
        Some(Kind::Input(k)) => sym('i', *k).unwrap_or(format!("i{k}")),
        Some(Kind::Latch(k)) => sym('l', *k).unwrap_or(format!("l{k}")),
        _ => format!("v{var}"),
    }
}

/// The defining sequence of a list of constraints: per (time, variable), the rails
/// `one = ∨ guard ∧ value`, `zero = ∨ guard ∧ ¬value` (C19 §4.2 "defining formula").
pub(crate) fn defining<A: Algebra>(
    alg: &mut A,
    atoms: &[VarAtom],
) -> BTreeMap<(usize, u32), Rail<A::B>> {
    let mut out: BTreeMap<(usize, u32), Rail<A::B>> = BTreeMap::new();
    for at in atoms {
        let g = alg.expr(&at.guard);
        let v = alg.expr(&at.value);
        let nv = alg.not(&v);
        let one = alg.and(&g, &v);
        let zero = alg.and(&g, &nv);
        let f = alg.konst(false);
        let e = out.entry((at.time, at.var)).or_insert(Rail {
            one: f.clone(),
            zero: f,
        });
        e.one = alg.or(&e.one, &one);
        e.zero = alg.or(&e.zero, &zero);
    }
    out
}

/// The simulated circuit: `rails[t][var]` for `t < depth`.
pub(crate) struct Trajectory<B> {
    pub(crate) rails: Vec<Vec<Rail<B>>>,
    /// ⊥ anywhere (an antecedent failure, C20 §2): the valuations without a trajectory.
    pub(crate) bottom: B,
}

/// A leaf of the simulation: an input at any time, or a latch at time 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Leaf {
    pub(crate) time: usize,
    pub(crate) var: u32,
}

/// The value a simulation gives a leaf (`None`: X).
pub(crate) type LeafFn<'f, A> = dyn FnMut(&mut A, Leaf) -> Option<Rail<<A as Algebra>::B>> + 'f;

/// The antecedent's defining trajectory and the consequent's defining sequence (by time, node).
pub(crate) type AssertionRun<B> = (Trajectory<B>, BTreeMap<(usize, u32), Rail<B>>);

/// An assertion's run: the defining trajectory of its antecedent (simulated with `leaf`, see
/// [`simulate`]) and the defining sequence of its consequent, the two things every STE check
/// compares.
pub(crate) fn assertion_run<A: Algebra>(
    alg: &mut A,
    aig: &Aig,
    r: &Resolved,
    leaf: &mut LeafFn<'_, A>,
    budget: &Budget,
) -> Result<AssertionRun<A::B>, Exhausted> {
    let ante = defining(alg, &r.ante);
    let traj = simulate(alg, aig, r.depth, &ante, leaf, budget)?;
    Ok((traj, defining(alg, &r.cons)))
}

/// Simulates `depth` frames. `leaf` may give a leaf a Boolean value (a fresh variable for the
/// concrete search, a strengthening); `None` leaves it X.
pub(crate) fn simulate<A: Algebra>(
    alg: &mut A,
    aig: &Aig,
    depth: usize,
    ante: &BTreeMap<(usize, u32), Rail<A::B>>,
    leaf: &mut LeafFn<'_, A>,
    budget: &Budget,
) -> Result<Trajectory<A::B>, Exhausted> {
    let n = aig.maxvar as usize + 1;
    let f = alg.konst(false);
    let t = alg.konst(true);
    let x = Rail {
        one: f.clone(),
        zero: f.clone(),
    };
    let mut rails: Vec<Vec<Rail<A::B>>> = Vec::with_capacity(depth);
    let mut bottom = f.clone();
    for time in 0..depth {
        budget.check()?;
        let mut cur: Vec<Rail<A::B>> = vec![x.clone(); n];
        if let Some(c) = cur.first_mut() {
            *c = Rail {
                one: f.clone(),
                zero: t.clone(),
            };
        }
        for &i in &aig.inputs {
            let var = i >> 1;
            if let Some(v) = leaf(alg, Leaf { time, var }) {
                if let Some(c) = cur.get_mut(var as usize) {
                    *c = v;
                }
            }
        }
        for l in &aig.latches {
            let var = l.lit >> 1;
            let v = if time == 0 {
                leaf(alg, Leaf { time, var })
            } else {
                rails.last().map(|prev| lit_rail(alg, prev, l.next))
            };
            if let (Some(v), Some(c)) = (v, cur.get_mut(var as usize)) {
                *c = v;
            }
        }
        // Meets at the leaves and constants before the gates read them.
        let meet = |alg: &mut A, cur: &mut Vec<Rail<A::B>>, var: u32, bottom: &mut A::B| {
            if let (Some(a), Some(c)) = (ante.get(&(time, var)), cur.get_mut(var as usize)) {
                c.one = alg.or(&c.one, &a.one);
                c.zero = alg.or(&c.zero, &a.zero);
                let b = alg.and(&c.one, &c.zero);
                *bottom = alg.or(bottom, &b);
            }
        };
        meet(alg, &mut cur, 0, &mut bottom);
        for &i in &aig.inputs {
            meet(alg, &mut cur, i >> 1, &mut bottom);
        }
        for l in &aig.latches {
            meet(alg, &mut cur, l.lit >> 1, &mut bottom);
        }
        for (k, g) in aig.ands.iter().enumerate() {
            if k % 64 == 63 {
                budget.check()?;
            }
            let a = lit_rail(alg, &cur, g.rhs0);
            let b = lit_rail(alg, &cur, g.rhs1);
            let v = Rail {
                one: alg.and(&a.one, &b.one),
                zero: alg.or(&a.zero, &b.zero),
            };
            let var = g.lhs >> 1;
            if let Some(c) = cur.get_mut(var as usize) {
                *c = v;
            }
            meet(alg, &mut cur, var, &mut bottom);
        }
        rails.push(cur);
    }
    Ok(Trajectory { rails, bottom })
}

/// The rails of a literal in a frame (negation swaps the rails).
pub(crate) fn lit_rail<A: Algebra>(alg: &mut A, frame: &[Rail<A::B>], lit: u32) -> Rail<A::B> {
    match frame.get((lit >> 1) as usize) {
        Some(r) if lit & 1 == 1 => Rail {
            one: r.zero.clone(),
            zero: r.one.clone(),
        },
        Some(r) => r.clone(),
        None => {
            let f = alg.konst(false);
            Rail {
                one: f.clone(),
                zero: f,
            }
        }
    }
}

/// The leaves of a circuit over `depth` frames: inputs at every time, latches at time 0.
pub(crate) fn leaves(aig: &Aig, depth: usize) -> Vec<Leaf> {
    let mut out: Vec<Leaf> = aig
        .latches
        .iter()
        .map(|l| Leaf {
            time: 0,
            var: l.lit >> 1,
        })
        .collect();
    for time in 0..depth {
        out.extend(aig.inputs.iter().map(|&i| Leaf { time, var: i >> 1 }));
    }
    out
}
