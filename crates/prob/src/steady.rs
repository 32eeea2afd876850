//! Steady-state analysis of Markov chains (Stewart, "Introduction to the Numerical Solution of
//! Markov Chains", ch. 3): bottom strongly connected components via `verikit-graph`, then the
//! stationary distribution of each by Gauss–Seidel on πQ = 0 (CTMC) or π = πP (DTMC), normalised
//! after every sweep. The long-run value of a transient state is the reachability-weighted
//! average over the bottom components (solved by the caller).

use crate::model::Model;

/// The bottom SCCs of the transition graph.
pub(crate) fn bsccs(m: &Model) -> Vec<Vec<u32>> {
    let n = m.num_states();
    let sccs = verikit_graph::tarjan(n, |s| {
        let s = s as usize;
        m.choices(s)
            .flat_map(|c| m.trans(c))
            .map(|k| m.cols[k])
            .collect::<Vec<_>>()
    });
    let mut out = Vec::new();
    for (ci, mem) in sccs.members.iter().enumerate() {
        let bottom = mem.iter().all(|&s| {
            m.choices(s as usize)
                .flat_map(|c| m.trans(c))
                .all(|k| sccs.comp[m.cols[k] as usize] as usize == ci)
        });
        if bottom {
            let mut v = mem.clone();
            v.sort_unstable();
            out.push(v);
        }
    }
    out
}

/// Stationary distribution of one bottom SCC (in the order of `b`).
pub(crate) fn stationary(m: &Model, b: &[u32], ctmc: bool, eps: f64) -> Vec<f64> {
    let k = b.len();
    if k == 1 {
        return vec![1.0];
    }
    let mut local = std::collections::HashMap::with_capacity(k);
    for (i, &s) in b.iter().enumerate() {
        local.insert(s, i);
    }
    // Incoming transitions (from other states) and outgoing rate to other states.
    let mut inc: Vec<Vec<(u32, f64)>> = vec![Vec::new(); k];
    let mut out_rate = vec![0.0; k];
    for (i, &s) in b.iter().enumerate() {
        for c in m.choices(s as usize) {
            for t in m.trans(c) {
                let j = local.get(&m.cols[t]).copied().unwrap_or(i);
                if j != i {
                    inc[j].push((i as u32, m.vals[t]));
                    out_rate[i] += m.vals[t];
                }
            }
        }
    }
    let _ = ctmc;
    let mut pi = vec![1.0 / k as f64; k];
    for _ in 0..200_000 {
        let mut maxrel: f64 = 0.0;
        for j in 0..k {
            if out_rate[j] <= 0.0 {
                continue;
            }
            let v: f64 = inc[j].iter().map(|&(i, r)| pi[i as usize] * r).sum::<f64>() / out_rate[j];
            if v > 0.0 {
                maxrel = maxrel.max((v - pi[j]).abs() / v);
            }
            pi[j] = v;
        }
        let total: f64 = pi.iter().sum();
        if total > 0.0 {
            pi.iter_mut().for_each(|x| *x /= total);
        }
        if maxrel < eps * 1e-2 {
            break;
        }
    }
    pi
}
