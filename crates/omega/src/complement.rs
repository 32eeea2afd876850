//! Complementation of small Büchi automata by level rankings with the Miyano–Hayashi breakpoint
//! (Kupferman, Vardi, "Weak alternating automata are not that weak", ACM TOCL 2001, §4; the
//! construction as presented in Friedgut–Kupferman–Vardi, "Büchi complementation made tighter",
//! IJFCS 2006, §2). The input is first degeneralised to a state-based Büchi automaton with `n`
//! states; a complement state is `(f, O)` where `f` maps the current subset to ranks `0..2n`
//! (even on accepting states, non-increasing along edges) and `O` is the breakpoint set of states
//! with even rank still owing an odd rank; `O = ∅` is accepting. Letters are enumerated as full
//! valuations, so this is meant for small automata (it is used to cross-check the kernel).

use crate::error::OmegaError;
use crate::twa::Twa;
use std::collections::{HashMap, VecDeque};
use verikit_diag::Budget;

/// Limits of the construction.
pub(crate) const MAX_STATES_IN: usize = 8;
pub(crate) const MAX_APS: usize = 8;
pub(crate) const MAX_STATES_OUT: usize = 20_000;

/// The complement of `aut` (no budget: [`complement_within`]).
pub fn complement(aut: &Twa) -> Result<Twa, OmegaError> {
    complement_within(aut, &Budget::unlimited())
}

/// The complement of `aut`; [`OmegaError::Exhausted`] when `budget` runs out (polled per
/// complement state).
/// Automata with an Emerson–Lei condition other than generalized Büchi are complemented by
/// [`crate::dual::complement_deterministic`] when deterministic, and refused otherwise.
pub(crate) fn complement_within(aut: &Twa, budget: &Budget) -> Result<Twa, OmegaError> {
    if !aut.is_generalized_buchi() {
        return crate::dual::complement_deterministic(aut, budget);
    }
    let nap = aut.aps.len();
    if nap > MAX_APS {
        return Err(OmegaError::Limit(format!(
            "complementation is limited to {MAX_APS} atomic propositions"
        )));
    }
    let b = crate::degen::degeneralize(&crate::postproc::simplify(aut));
    let empty_lang = b.acc_false || crate::emptiness::is_empty(&b);
    let mut out = Twa::new(aut.aps.clone());
    out.state_based = true;
    if empty_lang {
        let s = out.add_state();
        let t = out.tt();
        out.add_edge(s, s, t, 0);
        out.init = vec![s];
        return Ok(out);
    }
    let n = b.num_states();
    if n > MAX_STATES_IN {
        return Err(OmegaError::Limit(format!(
            "complementation is limited to Büchi automata of {MAX_STATES_IN} states (this one has {n})"
        )));
    }
    let accepting: Vec<bool> = (0..n)
        .map(|s| b.num_sets == 0 || b.state_marks(s as u32) != 0)
        .collect();
    let nletters = 1usize << nap;
    let vals: Vec<_> = (0..nletters as u64).map(|v| b.valuation(v)).collect();
    // succ[s][σ] = bitmask of successors.
    let succ: Vec<Vec<u64>> = (0..n)
        .map(|s| {
            (0..nletters)
                .map(|l| {
                    b.states[s]
                        .iter()
                        .filter(|e| e.label.eval_in(&vals[l]))
                        .fold(0u64, |m, e| m | (1 << e.dst))
                })
                .collect()
        })
        .collect();
    let maxr = (2 * n) as i8;
    // State: ranks (-1 = not in the subset) and breakpoint set.
    type St = (Vec<i8>, u64);
    let mut init_f = vec![-1i8; n];
    for &i in &b.init {
        init_f[i as usize] = maxr;
    }
    let mut ids: HashMap<St, u32> = HashMap::new();
    let mut todo: VecDeque<St> = VecDeque::new();
    let mut edges: Vec<(u32, u32, u64)> = Vec::new();
    let init: St = (init_f, 0);
    ids.insert(init.clone(), 0);
    todo.push_back(init);
    let mut order: Vec<St> = Vec::new();
    while let Some(st) = todo.pop_front() {
        budget.check()?;
        let src = ids[&st];
        order.push(st.clone());
        let (f, o) = st;
        #[allow(clippy::needless_range_loop)]
        for l in 0..nletters {
            // Bounds for successors.
            let mut bound = vec![-1i8; n];
            for q in 0..n {
                if f[q] < 0 {
                    continue;
                }
                let mut m = succ[q][l];
                while m != 0 {
                    let d = m.trailing_zeros() as usize;
                    m &= m - 1;
                    bound[d] = if bound[d] < 0 {
                        f[q]
                    } else {
                        bound[d].min(f[q])
                    };
                }
            }
            let post_o = (0..n)
                .filter(|&q| (o >> q) & 1 == 1)
                .fold(0u64, |m, q| m | succ[q][l]);
            let targets: Vec<usize> = (0..n).filter(|&q| bound[q] >= 0).collect();
            // Enumerate rankings f' <= bound, even on accepting states.
            let mut cur = vec![-1i8; n];
            let mut stack: Vec<(usize, i8)> = Vec::new();
            // Iterative enumeration over targets with odometer.
            let choices: Vec<Vec<i8>> = targets
                .iter()
                .map(|&q| {
                    (0..=bound[q])
                        .filter(|r| !accepting[q] || r % 2 == 0)
                        .collect()
                })
                .collect();
            if choices.iter().any(|c| c.is_empty()) {
                continue;
            }
            let mut idx = vec![0usize; targets.len()];
            stack.clear();
            loop {
                for (k, &q) in targets.iter().enumerate() {
                    cur[q] = choices[k][idx[k]];
                }
                let evens = targets
                    .iter()
                    .filter(|&&q| cur[q] % 2 == 0)
                    .fold(0u64, |m, &q| m | (1 << q));
                let o2 = if o == 0 { evens } else { post_o & evens };
                let key: St = (cur.clone(), o2);
                let dst = match ids.get(&key) {
                    Some(&d) => d,
                    None => {
                        let d = ids.len() as u32;
                        if ids.len() >= MAX_STATES_OUT {
                            return Err(OmegaError::Limit(format!(
                                "the complement exceeds {MAX_STATES_OUT} states"
                            )));
                        }
                        ids.insert(key.clone(), d);
                        todo.push_back(key);
                        d
                    }
                };
                edges.push((src, dst, l as u64));
                // Next combination.
                let mut k = 0;
                loop {
                    if k == targets.len() {
                        break;
                    }
                    idx[k] += 1;
                    if idx[k] < choices[k].len() {
                        break;
                    }
                    idx[k] = 0;
                    k += 1;
                }
                if k == targets.len() {
                    break;
                }
            }
        }
    }
    for _ in 0..ids.len() {
        out.add_state();
    }
    let mut os = vec![0u64; ids.len()];
    for (st, &id) in &ids {
        os[id as usize] = st.1;
    }
    out.num_sets = 1;
    let mut merged: HashMap<(u32, u32), biodivine_lib_bdd::Bdd> = HashMap::new();
    for (s, d, l) in edges {
        let mut lit = out.tt();
        for i in 0..nap {
            let v = out.ap_var(i);
            lit = lit.and(&if (l >> i) & 1 == 1 { v } else { v.not() });
        }
        let e = merged.entry((s, d)).or_insert_with(|| out.ff());
        *e = e.or(&lit);
    }
    let mut keys: Vec<_> = merged.keys().copied().collect();
    keys.sort_unstable();
    for k in keys {
        let m = if os[k.0 as usize] == 0 { 1 } else { 0 };
        out.add_edge(k.0, k.1, merged[&k].clone(), m);
    }
    out.init = vec![0];
    Ok(crate::postproc::simplify(&out))
}
