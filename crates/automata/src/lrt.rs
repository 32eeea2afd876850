//! The simulation preorder by the counter-based refinement algorithm "LRT" (the labelled version of
//! Henzinger, Henzinger and Kopke's simulation algorithm, FOCS 1995, as given by Abdulla, Bouajjani,
//! Holík, Kaati and Vojnar, "Computing simulations over tree automata", TACAS 2008, and used with
//! the optimisations of Holík and Šimáček, "Optimizing an LTS-simulation algorithm", MEMICS 2009,
//! by libvata/libmata). "On Equivalence Checking of Nondeterministic Finite Automata" (Fu, Deng,
//! Jansen, Zhang, SETTA 2017) uses this simulation (Section 2, Definition 1; Sections 3.5–3.6) for
//! the preprocessing and for antichains with simulation subsumption that it evaluates. Kept for
//! comparison (`nfa reduce --method sim-lrt`); decision 0104 measures it against
//! [`crate::holik_simacek`] and the fixed point.
//!
//! `Sim(u)` (the states simulating `u`) starts at the states with compatible acceptance and
//! letters. For every letter `a`, every state `w` with an `a`-successor and every state `u'` with an
//! `a`-predecessor, a counter `cnt_a(w, u') = |post_a(w) ∩ Sim(u')|` is kept; `Remove_a(u')` collects
//! the states whose counter dropped to zero. Processing `Remove_a(u')` removes its states from
//! `Sim(u)` for every `u ∈ pre_a(u')`, and each removal `w ∉ Sim(u)` decrements the counters
//! `cnt_b(w₂, u)` of the `b`-predecessors `w₂` of `w`. Every pair `(w, u)` is removed at most once,
//! so the time is `O(|δ|·n)` after an initialisation of `O(Σ_a |cod_a|·|δ_a|)`, against the
//! repeated row recomputations of the plain fixed point in [`crate::simulation`].
//!
//! This is the relation-only variant: the relation is an `n × n` bit matrix and the counters are
//! per-letter `|dom_a| × |cod_a|` matrices (not the partition–relation pairs of the full
//! Holík–Šimáček algorithm, [`crate::holik_simacek`], which share them between
//! simulation-equivalent states). Their memory
//! is computed beforehand: [`simulation`] refuses (with [`AutomataError::Limit`]) above a budget,
//! and [`simulation_or_fixpoint`] then falls back to the counter-free fixed point.

use crate::error::AutomataError;
use crate::nfa::{Letter, Nfa, State};
use crate::simulation::{initial_rows, relation_bytes, within_memory, Simulation};

/// Memory budget (bytes) for the relation and the counters together.
pub(crate) const MEMORY_BUDGET: usize = 4 << 30;

/// Per-letter domains (states with an `a`-successor) and codomains (states with an
/// `a`-predecessor), sorted.
fn domains(a: &Nfa) -> (Vec<Vec<State>>, Vec<Vec<State>>) {
    let nl = a.num_letters();
    let mut dom = vec![Vec::new(); nl];
    let mut cod = vec![Vec::new(); nl];
    for q in 0..a.num_states() as State {
        for (l, _) in a.forward().out(q) {
            dom[l as usize].push(q);
        }
        for (l, _) in a.backward().out(q) {
            cod[l as usize].push(q);
        }
    }
    (dom, cod)
}

/// Bytes the counters (and their per-letter position maps) of [`simulation`] would take on `a`.
pub(crate) fn counter_bytes(a: &Nfa) -> usize {
    let (dom, cod) = domains(a);
    dom.iter()
        .zip(&cod)
        .map(|(d, c)| d.len().saturating_mul(c.len()))
        .fold(0usize, |s, x| s.saturating_add(x))
        .saturating_add(
            a.num_letters()
                .saturating_mul(a.num_states())
                .saturating_mul(2),
        )
        .saturating_mul(4)
}

/// The simulation preorder of `a` within a memory budget of `budget` bytes
/// ([`AutomataError::Limit`] above it), polling `poll` (deadline, cancellation) in the refinement
/// loop.
pub(crate) fn simulation_within(
    a: &Nfa,
    budget: usize,
    poll: &verikit_diag::Budget,
) -> Result<Simulation, AutomataError> {
    let mut ticker = poll.ticker(64);
    let n = a.num_states();
    within_memory(
        n,
        relation_bytes(n).saturating_add(counter_bytes(a)),
        budget,
    )?;
    let nl = a.num_letters();
    let (dom, cod) = domains(a);
    let mut rows = initial_rows(a);
    // Dense position maps: didx[l][q] = position of q in dom_l (u32::MAX if absent), same for cod.
    let dense = |sets: &Vec<Vec<State>>| -> Vec<Vec<u32>> {
        sets.iter()
            .map(|s| {
                let mut m = vec![u32::MAX; n];
                for (i, &q) in s.iter().enumerate() {
                    m[q as usize] = i as u32;
                }
                m
            })
            .collect()
    };
    let didx = dense(&dom);
    let cidx = dense(&cod);
    // Counters, column-major so that the updates for one `u` stay in one column:
    // cnt[l][j * |dom_l| + i] = |post_l(dom_l[i]) ∩ Sim(cod_l[j])|.
    let mut cnt: Vec<Vec<u32>> = Vec::with_capacity(nl);
    // Remove sets, one per (letter, codomain index), and the worklist of non-empty ones.
    let mut base = Vec::with_capacity(nl + 1);
    let mut total = 0usize;
    for c in &cod {
        base.push(total);
        total += c.len();
    }
    base.push(total);
    let mut remove: Vec<Vec<State>> = vec![Vec::new(); total];
    let mut work: Vec<(Letter, u32)> = Vec::new();
    for l in 0..nl {
        let (d, c) = (&dom[l], &cod[l]);
        let (width, height) = (c.len(), d.len());
        let mut m = vec![0u32; height * width];
        // cnt(w, u') = |post_l(w) ∩ Sim(u')|, counted from the l-predecessors of Sim(u').
        for (j, &u2) in c.iter().enumerate() {
            for v in rows[u2 as usize].ones() {
                for &w in a.pre(v as State, l as Letter) {
                    let i = didx[l][w as usize] as usize;
                    m[j * height + i] += 1;
                }
            }
        }
        for j in 0..width {
            for (i, &w) in d.iter().enumerate() {
                if m[j * height + i] == 0 {
                    remove[base[l] + j].push(w);
                }
            }
            if !remove[base[l] + j].is_empty() {
                work.push((l as Letter, j as u32));
            }
        }
        cnt.push(m);
    }
    let mut removed = 0usize;
    while let Some((l, j)) = work.pop() {
        ticker.tick()?;
        let slot = base[l as usize] + j as usize;
        let batch = std::mem::take(&mut remove[slot]);
        let u2 = cod[l as usize][j as usize];
        for &u in a.pre(u2, l) {
            for &w in &batch {
                if !rows[u as usize].contains(w as usize) {
                    continue;
                }
                rows[u as usize].set(w as usize, false);
                removed += 1;
                // w left Sim(u): the b-predecessors of w lose one b-successor in Sim(u).
                for (b, preds) in a.backward().out(w) {
                    let ju = cidx[b as usize][u as usize];
                    if ju == u32::MAX {
                        continue;
                    }
                    let ju = ju as usize;
                    let height = dom[b as usize].len();
                    let db = &didx[b as usize];
                    for &w2 in preds {
                        let iw = db[w2 as usize] as usize;
                        let c = &mut cnt[b as usize][ju * height + iw];
                        *c -= 1;
                        if *c == 0 {
                            let s = base[b as usize] + ju;
                            if remove[s].is_empty() {
                                work.push((b, ju as u32));
                            }
                            remove[s].push(w2);
                        }
                    }
                }
            }
        }
    }
    tracing::debug!(states = n, removed, "LRT simulation done");
    Ok(Simulation::from_rows(rows))
}

/// LRT when its counters fit in `memory` bytes, else the counter-free fixed point of
/// [`crate::simulation::simulation_within`]; [`AutomataError::Limit`] when even the relation does
/// not fit, [`AutomataError::Exhausted`] when `poll` runs out.
pub(crate) fn simulation_or_fixpoint(
    a: &Nfa,
    memory: usize,
    poll: &verikit_diag::Budget,
) -> Result<Simulation, AutomataError> {
    crate::simulation::check_memory(a, memory)?;
    match simulation_within(a, memory, poll) {
        Ok(s) => Ok(s),
        Err(AutomataError::Exhausted(e)) => Err(e.into()),
        Err(_) => Ok(crate::simulation::simulation_within(a, poll)?),
    }
}
