//! Independent check of a CTA reachability witness: the symbolic trace replayed exactly.
//!
//! Seed: Krčál, Yi, CAV 2006 (C24), §2 Definition 1, read again here without the search's
//! machinery: no extrapolation, no covering, no passed list; the set of valuations reachable along
//! the given edges is carried as a federation (urgent reading splits zones) from the initial
//! state, with the channel words, and every step must keep it non-empty. Written apart from
//! `cta_reach` (only the DBM and federation kernels are shared) so that a search bug does not
//! confirm itself.

use crate::cta_parse::{Cta, CtaAction};
use crate::cta_reach::CtaStep;
use crate::dbm::{le, lt, Dbm};
use crate::federation::Federation;
use crate::model::Cmp;

fn apply_guard(z: &mut Dbm, guard: &[crate::cta_parse::CtaAtom]) -> bool {
    guard.iter().all(|a| {
        let x = a.clock + 1;
        match a.cmp {
            Cmp::Lt => z.constrain(x, 0, lt(a.value)),
            Cmp::Le => z.constrain(x, 0, le(a.value)),
            Cmp::Eq => z.constrain(x, 0, le(a.value)) && z.constrain(0, x, le(-a.value)),
            Cmp::Ge => z.constrain(0, x, le(-a.value)),
            Cmp::Gt => z.constrain(0, x, lt(-a.value)),
        }
    })
}

/// Replays `trace` from the initial state; `Ok` with the final locations when every step is
/// possible for some valuation and the last state carries all `labels`, else the reason.
pub fn replay_cta(cta: &Cta, trace: &[CtaStep], labels: &[u32]) -> Result<Vec<u32>, String> {
    let dim = cta.clocks.len() + 1;
    let mut locs: Vec<u32> = cta.processes.iter().map(|p| p.initial).collect();
    let mut chans: Vec<Vec<u32>> = vec![Vec::new(); cta.channels.len()];
    let mut z0 = Dbm::zero(dim);
    z0.up();
    let mut fed = Federation::from_zone(z0);
    for (k, s) in trace.iter().enumerate() {
        let proc_ = cta
            .processes
            .get(s.process)
            .ok_or(format!("step {k}: no process"))?;
        let edge = proc_
            .edges
            .get(s.edge)
            .ok_or(format!("step {k}: no edge"))?;
        if locs.get(s.process) != Some(&edge.src) {
            return Err(format!(
                "step {k}: process {} is not at the edge's source",
                proc_.name
            ));
        }
        match edge.action {
            CtaAction::Send { channel, letter } => chans
                .get_mut(channel)
                .ok_or(format!("step {k}: no channel"))?
                .push(letter),
            CtaAction::Receive { channel, letter } => {
                let w = chans
                    .get_mut(channel)
                    .ok_or(format!("step {k}: no channel"))?;
                if w.first() != Some(&letter) {
                    return Err(format!("step {k}: the letter is not at the channel's head"));
                }
                w.remove(0);
            }
            CtaAction::Internal => {}
        }
        let mut next = Federation::empty(dim);
        for z in fed.zones() {
            let mut g = z.clone();
            if !apply_guard(&mut g, &edge.guard) {
                continue;
            }
            let mut pieces = Federation::from_zone(g);
            if edge.action == CtaAction::Internal {
                // urgency is judged on the channels before the move (an ε move leaves them as is)
                for r in proc_.edges.iter().filter(|r| r.src == edge.src) {
                    if let CtaAction::Receive { channel, letter } = r.action {
                        if chans.get(channel).and_then(|w| w.first()) == Some(&letter) {
                            let mut rz = Dbm::universe(dim);
                            if apply_guard(&mut rz, &r.guard) {
                                pieces = pieces.subtract_zone(&rz);
                            }
                        }
                    }
                }
            }
            for p in pieces.zones() {
                let mut p = p.clone();
                for &x in &edge.resets {
                    p.reset(x + 1, 0);
                }
                p.up();
                next.add(p);
            }
        }
        if next.is_empty() {
            return Err(format!(
                "step {k}: no valuation allows edge {} of {}",
                s.edge, proc_.name
            ));
        }
        fed = next;
        if let Some(slot) = locs.get_mut(s.process) {
            *slot = edge.tgt;
        }
    }
    if !crate::cta_reach::cta_is_target(cta, &locs, labels) {
        return Err("the last state does not carry the labels".into());
    }
    Ok(locs)
}
