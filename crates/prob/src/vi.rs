//! Sound value iteration in topological order.
//!
//! Unbounded reachability probabilities and expected rewards are the least fixpoint of a Bellman
//! operator x = opt_c (b_c + Σ_t P(c,t)·x_t) over the "maybe" states. The states are first grouped
//! (end components collapsed where the caller asks), then the strongly connected components of the
//! quotient (via `verikit-graph`) are solved bottom-up, each with Gauss–Seidel sweeps of
//! * interval iteration (Haddad & Monmege, "Interval iteration algorithm for MDPs and IMDPs",
//!   TCS 2018; Baier, Klein, Leuschner, Parker, Wunderlich, CAV 2017) when an upper bound is known
//!   (probabilities: 1), stopping when upper − lower ≤ 2·ε·lower, or
//! * optimistic value iteration (Hartmanns & Kaminski, CAV 2020) for rewards: iterate from below,
//!   guess an upper bound and verify it is inductive (B(u) ≤ u) before stopping.
//!
//! The answer is the midpoint, hence within relative error ε when the bound was verified.

use crate::lang::ast::Opt;
use crate::model::Model;

pub struct Problem<'a> {
    pub model: &'a Model,
    /// States whose value is computed.
    pub maybe: &'a [bool],
    /// Values of all other states.
    pub fixed: &'a [f64],
    /// Reward earned by each choice (absent for probabilities).
    pub reward: Option<&'a [f64]>,
    pub opt: Opt,
    /// End-component index of each state to collapse (`u32::MAX`: none).
    pub collapse: Option<&'a [u32]>,
    /// Choices the scheduler may use (absent: all).
    pub allowed_choice: Option<&'a [bool]>,
    /// A known upper bound on all values (interval iteration); `None` uses optimistic VI.
    pub upper: Option<f64>,
    pub eps: f64,
    pub max_sweeps: usize,
}

pub struct Solution {
    pub values: Vec<f64>,
    pub sweeps: usize,
    /// False if some component stopped without a verified bound (iteration limit).
    pub sound: bool,
}

const DENSE_LIMIT: usize = 600;

/// Gaussian elimination with partial pivoting on the component's equations, once with the lower
/// and once with the upper values of the components below (one choice per class).
fn dense_solve(q: &Quotient, comp: &[u32], lo: &[f64], hi: &[f64]) -> Option<(Vec<f64>, Vec<f64>)> {
    let k = comp.len();
    let mut local = std::collections::HashMap::with_capacity(k);
    for (i, &v) in comp.iter().enumerate() {
        local.insert(v, i);
    }
    let w = k + 2;
    let mut a = vec![0.0f64; k * w];
    for (i, &v) in comp.iter().enumerate() {
        let v = v as usize;
        let (c0, c1) = (q.class_choices[v] as usize, q.class_choices[v + 1] as usize);
        a[i * w + i] = 1.0;
        if c1 == c0 {
            continue;
        }
        if c1 - c0 != 1 {
            return None;
        }
        let (mut bl, mut bh) = (q.b[c0], q.b[c0]);
        for t in q.choice_start[c0] as usize..q.choice_start[c0 + 1] as usize {
            let col = q.cols[t];
            match local.get(&col) {
                Some(&j) => a[i * w + j] -= q.vals[t],
                None => {
                    bl += q.vals[t] * lo[col as usize];
                    bh += q.vals[t] * hi[col as usize];
                }
            }
        }
        a[i * w + k] = bl;
        a[i * w + k + 1] = bh;
    }
    for col in 0..k {
        let piv =
            (col..k).max_by(|&x, &y| a[x * w + col].abs().total_cmp(&a[y * w + col].abs()))?;
        if a[piv * w + col].abs() < 1e-300 {
            return None;
        }
        if piv != col {
            for j in 0..w {
                a.swap(piv * w + j, col * w + j);
            }
        }
        let d = a[col * w + col];
        for r in 0..k {
            if r == col {
                continue;
            }
            let f = a[r * w + col] / d;
            if f == 0.0 {
                continue;
            }
            for j in col..w {
                a[r * w + j] -= f * a[col * w + j];
            }
        }
    }
    let mut xl = Vec::with_capacity(k);
    let mut xh = Vec::with_capacity(k);
    for i in 0..k {
        let d = a[i * w + i];
        xl.push((a[i * w + k] / d).max(0.0));
        xh.push((a[i * w + k + 1] / d).max(0.0));
    }
    Some((xl, xh))
}

/// Members of `comp` ordered by backward BFS distance from states with an exit (a constant term
/// or a successor outside the component).
fn exit_order(q: &Quotient, comp: &[u32], comp_of: &[u32]) -> Vec<u32> {
    let me = comp_of[comp[0] as usize];
    let mut local = std::collections::HashMap::with_capacity(comp.len());
    for (i, &v) in comp.iter().enumerate() {
        local.insert(v, i);
    }
    let mut radj: Vec<Vec<u32>> = vec![Vec::new(); comp.len()];
    let mut seen = vec![false; comp.len()];
    let mut queue: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    for (i, &v) in comp.iter().enumerate() {
        let (a, b) = (
            q.class_choices[v as usize] as usize,
            q.class_choices[v as usize + 1] as usize,
        );
        let mut exit = false;
        for c in a..b {
            if q.b[c] != 0.0 {
                exit = true;
            }
            for k in q.choice_start[c] as usize..q.choice_start[c + 1] as usize {
                let t = q.cols[k];
                if comp_of[t as usize] != me {
                    exit = true;
                } else if let Some(&j) = local.get(&t) {
                    radj[j].push(i as u32);
                }
            }
        }
        if exit {
            seen[i] = true;
            queue.push_back(i);
        }
    }
    let mut out = Vec::with_capacity(comp.len());
    while let Some(i) = queue.pop_front() {
        out.push(comp[i]);
        for &j in &radj[i] {
            if !seen[j as usize] {
                seen[j as usize] = true;
                queue.push_back(j as usize);
            }
        }
    }
    for (i, &v) in comp.iter().enumerate() {
        if !seen[i] {
            out.push(v);
        }
    }
    out
}

struct Quotient {
    class_choices: Vec<u32>,
    choice_start: Vec<u32>,
    cols: Vec<u32>,
    vals: Vec<f64>,
    b: Vec<f64>,
}

/// Solves the problem (see the module documentation).
pub fn solve(p: &Problem) -> Solution {
    let m = p.model;
    let n = m.num_states();
    // Classes.
    let mut class = vec![u32::MAX; n];
    let mut members: Vec<Vec<u32>> = Vec::new();
    let mut mec_class: Vec<u32> = Vec::new();
    for s in 0..n {
        if !p.maybe[s] {
            continue;
        }
        let mec = p.collapse.map_or(u32::MAX, |c| c[s]);
        if mec != u32::MAX {
            if mec as usize >= mec_class.len() {
                mec_class.resize(mec as usize + 1, u32::MAX);
            }
            if mec_class[mec as usize] == u32::MAX {
                mec_class[mec as usize] = members.len() as u32;
                members.push(Vec::new());
            }
            class[s] = mec_class[mec as usize];
        } else {
            class[s] = members.len() as u32;
            members.push(Vec::new());
        }
        members[class[s] as usize].push(s as u32);
    }
    let nc = members.len();
    let mut q = Quotient {
        class_choices: vec![0],
        choice_start: vec![0],
        cols: vec![],
        vals: vec![],
        b: vec![],
    };
    for (ci, mem) in members.iter().enumerate() {
        for &s in mem {
            for c in m.choices(s as usize) {
                if p.allowed_choice.is_some_and(|a| !a[c]) {
                    continue;
                }
                let r = p.reward.map_or(0.0, |r| r[c]);
                if r == 0.0
                    && m.trans(c).all(|k| class[m.cols[k] as usize] == ci as u32)
                    && (mem.len() > 1 || p.collapse.is_some())
                {
                    // Internal choice of a collapsed end component.
                    continue;
                }
                let mut b = r;
                for k in m.trans(c) {
                    let t = m.cols[k] as usize;
                    if class[t] == u32::MAX {
                        b += m.vals[k] * p.fixed[t];
                    } else {
                        q.cols.push(class[t]);
                        q.vals.push(m.vals[k]);
                    }
                }
                q.b.push(b);
                q.choice_start.push(q.cols.len() as u32);
            }
        }
        q.class_choices.push(q.b.len() as u32);
    }
    drop(members);

    let mut lo = vec![0.0f64; nc];
    let mut hi = vec![p.upper.unwrap_or(f64::INFINITY); nc];
    let sccs = verikit_graph::tarjan(nc, |v| {
        let (a, b) = (
            q.class_choices[v as usize] as usize,
            q.class_choices[v as usize + 1] as usize,
        );
        let (x, y) = (q.choice_start[a] as usize, q.choice_start[b] as usize);
        q.cols[x..y].to_vec()
    });
    let mut sweeps = 0usize;
    let mut sound = true;
    let eps = p.eps;
    let bell = |v: usize, x: &[f64]| -> f64 {
        let (a, b) = (q.class_choices[v] as usize, q.class_choices[v + 1] as usize);
        if a == b {
            return 0.0;
        }
        let mut best = match p.opt {
            Opt::Min => f64::INFINITY,
            _ => f64::NEG_INFINITY,
        };
        for c in a..b {
            let mut s = q.b[c];
            for k in q.choice_start[c] as usize..q.choice_start[c + 1] as usize {
                s += q.vals[k] * x[q.cols[k] as usize];
            }
            best = match p.opt {
                Opt::Min => best.min(s),
                _ => best.max(s),
            };
        }
        best
    };
    let close = |l: f64, h: f64| h - l <= 2.0 * eps * l || h <= l || h < 1e-300;
    for comp in &sccs.members {
        // Trivial component: a single class without a self-loop is solved by one update.
        if comp.len() == 1 {
            let v = comp[0] as usize;
            let (a, b) = (q.class_choices[v] as usize, q.class_choices[v + 1] as usize);
            let selfloop = (a..b).any(|c| {
                (q.choice_start[c]..q.choice_start[c + 1]).any(|k| q.cols[k as usize] == v as u32)
            });
            if !selfloop {
                lo[v] = bell(v, &lo);
                hi[v] = bell(v, &hi);
                continue;
            }
        }
        // Small component of a Markov chain: solve (I - A) x = b directly.
        if p.opt == Opt::None && comp.len() <= DENSE_LIMIT {
            if let Some(x) = dense_solve(&q, comp, &lo, &hi) {
                for (i, &v) in comp.iter().enumerate() {
                    lo[v as usize] = x.0[i];
                    hi[v as usize] = x.1[i];
                }
                continue;
            }
        }
        let mut local_sweeps = 0usize;
        let cap = p.upper.unwrap_or(f64::INFINITY);
        let mut thresh = eps;
        let mut verified = false;
        // Gauss–Seidel converges faster when states near the component's exits are updated first:
        // order the members by backward breadth-first distance from the exits.
        let ordered = exit_order(&q, comp, &sccs.comp);
        let comp: &[u32] = &ordered;
        let mut tmp = vec![0.0f64; comp.len()];
        let gs_lower = |lo: &mut Vec<f64>| -> f64 {
            let mut maxrel: f64 = 0.0;
            for &v in comp {
                let v = v as usize;
                let l = bell(v, lo).max(lo[v]);
                let d = l - lo[v];
                if d > 0.0 {
                    maxrel = maxrel.max(d / l);
                }
                lo[v] = l;
            }
            maxrel
        };
        'outer: loop {
            // Phase 1: Gauss–Seidel from below until the relative change is below the threshold.
            let start = local_sweeps;
            loop {
                let d = gs_lower(&mut lo);
                local_sweeps += 1;
                if local_sweeps >= p.max_sweeps {
                    break 'outer;
                }
                if d <= thresh {
                    break;
                }
            }
            // Phase 2: guess an upper bound and try to verify it (B(u) <= u).
            for &v in comp {
                let v = v as usize;
                hi[v] = (lo[v] * (1.0 + eps)).min(cap);
            }
            let budget = ((local_sweeps - start) / 4).max(16);
            for _ in 0..budget {
                let (mut all_le, mut all_ge) = (true, true);
                for (i, &v) in comp.iter().enumerate() {
                    let v = v as usize;
                    tmp[i] = bell(v, &hi).min(cap);
                    // A few ulps of slack: at an exact fixpoint B(u) = u up to rounding.
                    if tmp[i] > hi[v] * (1.0 + 1e-14) {
                        all_le = false;
                    }
                    if tmp[i] < hi[v] * (1.0 - 1e-14) {
                        all_ge = false;
                    }
                }
                let mut crossed = false;
                for (i, &v) in comp.iter().enumerate() {
                    hi[v as usize] = tmp[i];
                    if tmp[i] < lo[v as usize] {
                        crossed = true;
                    }
                }
                local_sweeps += 1;
                if all_le {
                    verified = true;
                    break 'outer;
                }
                if all_ge || crossed || local_sweeps >= p.max_sweeps {
                    break;
                }
                gs_lower(&mut lo);
                local_sweeps += 1;
            }
            if local_sweeps >= p.max_sweeps {
                break 'outer;
            }
            thresh /= 10.0;
        }
        if verified {
            // hi is inductive: keep iterating both bounds (Jacobi keeps hi inductive) until close.
            while local_sweeps < p.max_sweeps
                && !comp.iter().all(|&v| close(lo[v as usize], hi[v as usize]))
            {
                gs_lower(&mut lo);
                for (i, &v) in comp.iter().enumerate() {
                    tmp[i] = bell(v as usize, &hi).min(hi[v as usize]);
                }
                for (i, &v) in comp.iter().enumerate() {
                    hi[v as usize] = tmp[i];
                }
                local_sweeps += 2;
            }
        }
        if !verified || !comp.iter().all(|&v| close(lo[v as usize], hi[v as usize])) {
            sound = false;
            for &v in comp {
                hi[v as usize] = lo[v as usize];
            }
        }
        tracing::debug!(
            "component of {} classes: {} sweeps, verified {}",
            comp.len(),
            local_sweeps,
            verified
        );
        sweeps += local_sweeps;
    }
    let mut values = p.fixed.to_vec();
    for s in 0..n {
        if class[s] != u32::MAX {
            let c = class[s] as usize;
            values[s] = if hi[c].is_finite() {
                0.5 * (lo[c] + hi[c])
            } else {
                lo[c]
            };
        }
    }
    Solution {
        values,
        sweeps,
        sound,
    }
}
