//! Independent check of a NeTA-I reachability witness: the rules replayed on exact zones.
//!
//! Seed: Wang, Li, Yuen, SETTA 2017 (S05), §3 Definition 4, read again apart from `neta_reach`:
//! no extrapolation, no covering, no stack bound; the invariants of every frame are re-applied
//! after each action and each delay, and the zone of the frames is rebuilt from the rule list.
//! Only the DBM kernel and the clock layout (`neta_reach::index`) are shared.

use crate::dbm::{le, lt, Dbm};
use crate::model::Cmp;
use crate::neta_parse::{Neta, NetaAtom, NetaClock, NetaOp};
use crate::neta_reach::{index, neta_is_target, Frame};

fn holds(z: &mut Dbm, i: usize, a: &NetaAtom) -> bool {
    let (upper, lower) = match a.cmp {
        Cmp::Lt => (Some(lt(a.value)), None),
        Cmp::Le => (Some(le(a.value)), None),
        Cmp::Eq => (Some(le(a.value)), Some(le(-a.value))),
        Cmp::Ge => (None, Some(le(-a.value))),
        Cmp::Gt => (None, Some(lt(-a.value))),
    };
    upper.is_none_or(|b| z.constrain(i, 0, b)) && lower.is_none_or(|b| z.constrain(0, i, b))
}

fn good(n: &Neta, cur: (usize, u32), stack: &[Frame], z: &mut Dbm) -> bool {
    let mut frames: Vec<(usize, u32, usize, bool)> = stack
        .iter()
        .enumerate()
        .map(|(f, &(a, q, _))| (a, q, f, false))
        .collect();
    frames.push((cur.0, cur.1, stack.len(), true));
    for (a, q, f, working) in frames {
        let Some(l) = n.automata.get(a).and_then(|x| x.locations.get(q as usize)) else {
            return false;
        };
        let globals: &[NetaAtom] = if working { &l.global_inv } else { &[] };
        for at in l.local_inv.iter().chain(globals) {
            if !holds(z, index(n, at.clock, f), at) {
                return false;
            }
        }
    }
    true
}

/// Replays rule indices `trace` from the initial configuration; `Ok` with the final working
/// automaton and location when every step is possible and the last location carries `labels`.
pub fn replay_neta(n: &Neta, trace: &[usize], labels: &[u32]) -> Result<(usize, u32), String> {
    let k = n.locals.len();
    let a0 = n.automata.first().ok_or("no automaton")?;
    let mut cur = (0usize, a0.initial);
    let mut stack: Vec<Frame> = Vec::new();
    let mut z = Dbm::zero(1 + n.globals.len() + k);
    let elapse = |z: &mut Dbm, stack: &[Frame]| {
        let mut running = vec![true; z.dim()];
        for (f, &(_, _, go)) in stack.iter().enumerate() {
            for x in 0..k {
                if let Some(r) = running.get_mut(index(n, NetaClock::Local(x), f)) {
                    *r = go;
                }
            }
        }
        z.up_some(&running);
    };
    if !good(n, cur, &stack, &mut z) {
        return Err("the initial configuration violates an invariant".into());
    }
    elapse(&mut z, &stack);
    if !good(n, cur, &stack, &mut z) {
        return Err("the initial configuration violates an invariant".into());
    }
    for (s, &e) in trace.iter().enumerate() {
        let edge = n.edges.get(e).ok_or(format!("step {s}: no rule {e}"))?;
        if (edge.aut, edge.src) != cur {
            return Err(format!(
                "step {s}: rule {e} does not leave the working location"
            ));
        }
        let depth = stack.len();
        for op in &edge.ops {
            let ok = match *op {
                NetaOp::Test(a) => holds(&mut z, index(n, a.clock, depth), &a),
                NetaOp::Reset(c) => {
                    z.reset(index(n, c, depth), 0);
                    true
                }
                NetaOp::Copy { dst, src } => {
                    z.copy(index(n, dst, depth), index(n, src, depth));
                    true
                }
                NetaOp::Push | NetaOp::FPush => {
                    stack.push((cur.0, cur.1, *op == NetaOp::Push));
                    z = z.extend_zero(k);
                    true
                }
                NetaOp::Pop => {
                    let top = stack.pop();
                    z = z.truncate(z.dim().saturating_sub(k));
                    top.is_some_and(|(a, q, _)| (a, q) == (edge.tgt_aut, edge.tgt))
                }
            };
            if !ok || z.is_empty() {
                return Err(format!("step {s}: rule {e} is not enabled"));
            }
        }
        cur = (edge.tgt_aut, edge.tgt);
        if !good(n, cur, &stack, &mut z) {
            return Err(format!("step {s}: an invariant fails after rule {e}"));
        }
        elapse(&mut z, &stack);
        if !good(n, cur, &stack, &mut z) {
            return Err(format!("step {s}: an invariant fails after rule {e}"));
        }
    }
    if !neta_is_target(n, cur, labels) {
        return Err("the last location does not carry the labels".into());
    }
    Ok(cur)
}
