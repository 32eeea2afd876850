//! Sound value iteration in topological order.
//!
//! Unbounded reachability probabilities and expected rewards are the least fixpoint of a Bellman
//! operator x = opt_c (b_c + Σ_t P(c,t)·x_t) over the "maybe" states. The states are first grouped
//! (end components collapsed where the caller asks), then the strongly connected components of the
//! quotient (via `verikit-graph`) are solved bottom-up. Each component is copied into compact local
//! arrays (transitions leaving it folded into constants) and solved with Gauss–Seidel sweeps of
//! * optimistic value iteration (Hartmanns & Kaminski, "Optimistic value iteration", CAV 2020):
//!   iterate from below until the remaining error — estimated from the geometric decay of the
//!   changes over windows of sweeps — is below ε, guess an upper bound (lower bound plus twice
//!   the estimated error), and accept it only once it is verified inductive (B(u) ≤ u);
//! * when the guess fails, the lower iteration continues with a 4× smaller threshold; after the
//!   third failure, if an upper bound is known (probabilities: 1), interval iteration
//!   (Haddad & Monmege, "Interval iteration algorithm for MDPs and IMDPs", TCS 2018; Baier,
//!   Klein, Leuschner, Parker, Wunderlich, CAV 2017) from that bound, stopping when
//!   upper − lower ≤ 2·ε·lower; for rewards, further rounds with a smaller threshold.
//!
//! * at spaced window ends, Aitken extrapolation of the lower iterate, certified by two-sided
//!   inductive bounds ([`aitken`]): on a slowly mixing component the extrapolated vector is
//!   accurate long before the iterate is, so the sweeps stop early when the certificate holds.
//!
//! * when a component is not verified within a few sweeps, policy iteration with a certified
//!   error bound ([`policy_certificate`]: sparse LU of the induced chain, residual × inductive
//!   step bound); value iteration continues from its lower bound when that fails.
//!
//! The answer is the midpoint, hence within relative error ε when the bound was verified.

pub(crate) mod aitken;
pub(crate) mod policy_certificate;
#[cfg(test)]
pub(crate) mod random_component;
// The measured alternative of decision 0503: not selectable by any command (Gauss–Seidel with
// certified bounds is faster on QVBS), kept with its property tests as the reference.
#[cfg(test)]
pub(crate) mod sound_vi;

use crate::lang::ast::Opt;
use crate::model::Model;
use verikit_diag::{Budget, Exhausted};

pub(crate) struct Problem<'a> {
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
    /// Polled every few sweeps; when it runs out the solution is cut short (`exhausted`). Also
    /// told the sweeps done and the current error bound (`budget.progress()`).
    pub budget: &'a Budget,
}

pub(crate) struct Solution {
    pub values: Vec<f64>,
    /// False if some component stopped without a verified bound (iteration limit).
    pub sound: bool,
    /// Set when the budget ran out: `values` are then lower bounds only.
    pub exhausted: Option<Exhausted>,
}

const DENSE_LIMIT: usize = 600;

/// Sweeps of value iteration before a component is handed to policy iteration.
const POLICY_AFTER: usize = 128;

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

/// The component's equations solved over the rationals ([`crate::exact_chain`]), for a Markov
/// chain (one choice per class) where floating-point elimination broke down.
fn exact_solve(q: &Quotient, comp: &[u32], lo: &[f64], hi: &[f64]) -> Option<(Vec<f64>, Vec<f64>)> {
    let k = comp.len();
    let mut local = std::collections::HashMap::with_capacity(k);
    for (i, &v) in comp.iter().enumerate() {
        local.insert(v, i as u32);
    }
    let mut eq = crate::exact_chain::Equations {
        rows: Vec::with_capacity(k),
        rhs_lo: Vec::with_capacity(k),
        rhs_hi: Vec::with_capacity(k),
    };
    for &v in comp {
        let v = v as usize;
        let (c0, c1) = (q.class_choices[v] as usize, q.class_choices[v + 1] as usize);
        let i = eq.rows.len() as u32;
        let mut row = vec![(i, 1.0)];
        let (mut bl, mut bh) = (0.0, 0.0);
        if c1 - c0 > 1 {
            return None;
        }
        if c1 == c0 + 1 {
            bl = q.b[c0];
            bh = q.b[c0];
            for t in q.choice_start[c0] as usize..q.choice_start[c0 + 1] as usize {
                let col = q.cols[t];
                match local.get(&col) {
                    Some(&j) => row.push((j, -q.vals[t])),
                    None => {
                        bl += q.vals[t] * lo[col as usize];
                        bh += q.vals[t] * hi[col as usize];
                    }
                }
            }
        }
        eq.rows.push(row);
        eq.rhs_lo.push(bl);
        eq.rhs_hi.push(bh);
    }
    crate::exact_chain::solve_exact(&eq, 40 * k + 1000)
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

/// The component's Bellman operator for [`aitken`].
struct LocalBellman<'a> {
    local: &'a Local,
    min: bool,
    cap: f64,
}

impl aitken::Bellman for LocalBellman<'_> {
    fn apply(&self, x: &[f64], upper: bool, out: &mut [f64]) {
        let b = if upper {
            &self.local.b_hi
        } else {
            &self.local.b_lo
        };
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.local.bell(i, x, b, self.min).min(self.cap);
        }
    }
}

struct Quotient {
    class_choices: Vec<u32>,
    choice_start: Vec<u32>,
    cols: Vec<u32>,
    vals: Vec<f64>,
    b: Vec<f64>,
}

/// One strongly connected component, copied into compact local arrays in sweep order: the
/// transitions leaving the component are folded into per-choice constants (once with the lower,
/// once with the upper values of the components below, which are final), so a sweep touches only
/// the component's own transitions, contiguously.
struct Local {
    /// Choices of member i: `first[i]..first[i + 1]`.
    first: Vec<u32>,
    /// Transitions of choice c: `cstart[c]..cstart[c + 1]` (local columns).
    cstart: Vec<u32>,
    col: Vec<u32>,
    val: Vec<f64>,
    b_lo: Vec<f64>,
    b_hi: Vec<f64>,
    /// The same lower operator with every member padded to one shape, when that costs little.
    padded: Option<Padded>,
}

/// A component's lower operator with every member padded to `cm` choices of `tm` transitions
/// (extra choices repeat the member's first choice, which changes no minimum or maximum; extra
/// transitions have probability 0 and point at a column of the same choice). The loops then
/// have the same trip counts at every member, so a Gauss–Seidel sweep runs without mispredicted
/// loop exits — on components with few, short choices (e.g. QVBS consensus) the cost of a sweep
/// is dominated by those.
struct Padded {
    cm: usize,
    tm: usize,
    /// `k·cm` constants and `k·cm·tm` entries.
    b: Vec<f64>,
    col: Vec<u32>,
    val: Vec<f64>,
}

/// Padding is used when it adds at most this factor to the entries.
const PAD_LIMIT: f64 = 1.6;

impl Padded {
    fn new(l: &Local) -> Option<Padded> {
        let k = l.first.len() - 1;
        let (mut cm, mut tm) = (0usize, 0usize);
        for i in 0..k {
            let (a, e) = (l.first[i] as usize, l.first[i + 1] as usize);
            cm = cm.max(e - a);
            for c in a..e {
                tm = tm.max((l.cstart[c + 1] - l.cstart[c]) as usize);
            }
        }
        let cells = (k * cm.max(1) * tm.max(1)) as f64;
        tracing::trace!(
            "padding: {k} members, shape {cm}x{tm}, {cells} cells for {} entries",
            l.col.len() + l.b_lo.len()
        );
        // Every constant must be finite (0·∞ would make a padded entry NaN).
        if k == 0
            || cells > PAD_LIMIT * (l.col.len() + l.b_lo.len()) as f64
            || l.b_lo.iter().any(|b| !b.is_finite())
        {
            return None;
        }
        let mut p = Padded {
            cm: cm.max(1),
            tm: tm.max(1),
            b: Vec::with_capacity(k * cm),
            col: Vec::with_capacity(k * cm * tm),
            val: Vec::with_capacity(k * cm * tm),
        };
        let (cm, tm) = (cm.max(1), tm.max(1));
        for i in 0..k {
            let (a, e) = (l.first[i] as usize, l.first[i + 1] as usize);
            for j in 0..cm {
                if a == e {
                    // No choice: the operator's value is 0.
                    p.b.push(0.0);
                    p.col.extend(std::iter::repeat_n(i as u32, tm));
                    p.val.extend(std::iter::repeat_n(0.0, tm));
                    continue;
                }
                let c = if a + j < e { a + j } else { a };
                p.b.push(l.b_lo[c]);
                let (s0, s1) = (l.cstart[c] as usize, l.cstart[c + 1] as usize);
                for t in 0..tm {
                    if s0 + t < s1 {
                        p.col.push(l.col[s0 + t]);
                        p.val.push(l.val[s0 + t]);
                    } else {
                        // Probability 0 on the member itself (its lower value is finite).
                        p.col.push(i as u32);
                        p.val.push(0.0);
                    }
                }
            }
        }
        Some(p)
    }

    /// One Gauss–Seidel sweep from below with shape `CM × TM` (0: the runtime shape).
    fn gs_lower<const CM: usize, const TM: usize, const MIN: bool>(&self, lo: &mut [f64]) -> bool {
        let cm = if CM == 0 { self.cm } else { CM };
        let tm = if TM == 0 { self.tm } else { TM };
        let mut changed = false;
        let members = self.b.chunks_exact(cm).zip(
            self.col
                .chunks_exact(cm * tm)
                .zip(self.val.chunks_exact(cm * tm)),
        );
        for (i, (bs, (cols, vals))) in members.enumerate() {
            let mut best = if MIN {
                f64::INFINITY
            } else {
                f64::NEG_INFINITY
            };
            for ((&b, cs), vs) in bs
                .iter()
                .zip(cols.chunks_exact(tm))
                .zip(vals.chunks_exact(tm))
            {
                let mut s = b;
                for (&c, &v) in cs.iter().zip(vs) {
                    s += v * lo[c as usize];
                }
                best = if MIN { best.min(s) } else { best.max(s) };
            }
            if best > lo[i] {
                lo[i] = best;
                changed = true;
            }
        }
        changed
    }

    fn sweep(&self, lo: &mut [f64], min: bool) -> bool {
        if min {
            self.sweep_opt::<true>(lo)
        } else {
            self.sweep_opt::<false>(lo)
        }
    }

    fn sweep_opt<const MIN: bool>(&self, lo: &mut [f64]) -> bool {
        match (self.cm, self.tm) {
            (1, 1) => self.gs_lower::<1, 1, MIN>(lo),
            (1, 2) => self.gs_lower::<1, 2, MIN>(lo),
            (2, 1) => self.gs_lower::<2, 1, MIN>(lo),
            (2, 2) => self.gs_lower::<2, 2, MIN>(lo),
            (3, 1) => self.gs_lower::<3, 1, MIN>(lo),
            (3, 2) => self.gs_lower::<3, 2, MIN>(lo),
            (4, 1) => self.gs_lower::<4, 1, MIN>(lo),
            (4, 2) => self.gs_lower::<4, 2, MIN>(lo),
            _ => self.gs_lower::<0, 0, MIN>(lo),
        }
    }
}

impl Local {
    fn new(
        q: &Quotient,
        ordered: &[u32],
        comp_of: &[u32],
        pos: &mut [u32],
        lo: &[f64],
        hi: &[f64],
    ) -> Local {
        let me = comp_of[ordered[0] as usize];
        for (i, &v) in ordered.iter().enumerate() {
            pos[v as usize] = i as u32;
        }
        let mut l = Local {
            first: Vec::with_capacity(ordered.len() + 1),
            cstart: vec![0],
            col: Vec::new(),
            val: Vec::new(),
            b_lo: Vec::new(),
            b_hi: Vec::new(),
            padded: None,
        };
        l.first.push(0);
        for &v in ordered {
            let v = v as usize;
            for c in q.class_choices[v] as usize..q.class_choices[v + 1] as usize {
                let (mut bl, mut bh) = (q.b[c], q.b[c]);
                for k in q.choice_start[c] as usize..q.choice_start[c + 1] as usize {
                    let t = q.cols[k] as usize;
                    if comp_of[t] == me {
                        l.col.push(pos[t]);
                        l.val.push(q.vals[k]);
                    } else {
                        bl += q.vals[k] * lo[t];
                        bh += q.vals[k] * hi[t];
                    }
                }
                l.b_lo.push(bl);
                l.b_hi.push(bh);
                l.cstart.push(l.col.len() as u32);
            }
            l.first.push(l.b_lo.len() as u32);
        }
        l.padded = Padded::new(&l);
        l
    }

    /// The Bellman operator at member i (0 for a member without choices).
    #[inline(always)]
    fn bell(&self, i: usize, x: &[f64], b: &[f64], min: bool) -> f64 {
        let (a, e) = (self.first[i] as usize, self.first[i + 1] as usize);
        if a == e {
            return 0.0;
        }
        let mut best = if min {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        };
        let bounds = &self.cstart[a..=e];
        for (w, &bc) in bounds.windows(2).zip(&b[a..e]) {
            let (s0, s1) = (w[0] as usize, w[1] as usize);
            let mut s = bc;
            for (&col, &val) in self.col[s0..s1].iter().zip(&self.val[s0..s1]) {
                s += val * x[col as usize];
            }
            // Plain comparisons (no NaN handling: values are finite or +∞) keep the
            // dependency chain short.
            if (min && s < best) || (!min && s > best) {
                best = s;
            }
        }
        best
    }

    /// Relative width of the constants inherited from the components below: the smallest β with
    /// b_hi ≤ (1+β)·b_lo for every choice (∞ if some lower constant is 0 and its upper one is not).
    fn inherited_width(&self) -> f64 {
        let mut w: f64 = 0.0;
        for (&l, &h) in self.b_lo.iter().zip(&self.b_hi) {
            if h > l {
                w = w.max(if l > 0.0 { (h - l) / l } else { f64::INFINITY });
            }
        }
        w
    }

    /// One Gauss–Seidel sweep from below; returns whether any value changed.
    fn gs_lower(&self, lo: &mut [f64], min: bool) -> bool {
        if let Some(p) = &self.padded {
            return p.sweep(lo, min);
        }
        let mut changed = false;
        for i in 0..lo.len() {
            let old = lo[i];
            let l = self.bell(i, lo, &self.b_lo, min);
            if l > old {
                lo[i] = l;
                changed = true;
            }
        }
        changed
    }

    /// Optimistic value iteration on the component, falling back to interval iteration when an
    /// upper bound is known (see the module documentation). Writes the bounds of the members into
    /// `lo_all`/`hi_all`; returns the sweeps used and whether the bound was verified.
    fn iterate(
        &self,
        p: &Problem,
        ordered: &[u32],
        lo_all: &mut [f64],
        hi_all: &mut [f64],
    ) -> (usize, bool) {
        let k = ordered.len();
        let min = p.opt == Opt::Min;
        let eps = p.eps;
        let close = |l: f64, h: f64| h - l <= 2.0 * eps * l || h <= l || h < 1e-300;
        let mut lo: Vec<f64> = ordered.iter().map(|&v| lo_all[v as usize]).collect();
        let mut hi: Vec<f64> = ordered.iter().map(|&v| hi_all[v as usize]).collect();
        let mut local_sweeps = 0usize;
        let mut phase1 = 0usize;
        let cap = p.upper.unwrap_or(f64::INFINITY);
        let mut thresh = 0.5 * eps;
        let mut verified = false;
        let mut interval = false;
        let mut extrapolated = false;
        // Change of each member over the last window of sweeps.
        let mut delta = vec![0.0f64; k];
        let mut snap = vec![0.0f64; k];
        const WINDOW: usize = 8;
        // Aitken extrapolation attempts (see `aitken`), spaced so that they cost a small
        // fraction of the sweeps.
        let widen = self.inherited_width();
        tracing::trace!("component of {k} classes: inherited width {widen:e}");
        let mut scratch = aitken::Scratch::new(k);
        let mut last_attempt = 0usize;
        let mut attempt_sweeps = 0usize;
        let lb = LocalBellman {
            local: self,
            min,
            cap,
        };
        let mut last_report = std::time::Instant::now();
        p.budget.progress().phase("value iteration (sweeps)", None);
        'outer: loop {
            // Phase 1: Gauss–Seidel from below. Asymptotically the error is e_k = c·μ^k·ψ for the
            // dominant eigenpair (μ, ψ) of the sweep operator, so the change over a window of m
            // sweeps is D = e_{k-m} − e_k = (ρ⁻¹ − 1)·e_k with ρ = μ^m: the remaining error is
            // D·ρ/(1−ρ). Windows (rather than single sweeps) smooth out periodic propagation
            // along cycles. ρ is estimated conservatively (the larger of the last two ratios of
            // successive largest window changes). Stop when the estimated relative error is below
            // the threshold.
            let start = local_sweeps;
            snap.copy_from_slice(&lo);
            let (mut prev_win, mut prev_ratio) = (f64::NAN, 1.0f64);
            let factor;
            loop {
                let changed = self.gs_lower(&mut lo, min);
                local_sweeps += 1;
                if local_sweeps >= p.max_sweeps {
                    break 'outer;
                }
                if local_sweeps.is_multiple_of(WINDOW) {
                    if p.budget.check().is_err() {
                        break 'outer;
                    }
                    let progress = p.budget.progress();
                    progress.set(local_sweeps as u64);
                    if progress.wanted() && last_report.elapsed().as_millis() >= 200 {
                        last_report = std::time::Instant::now();
                        let err = delta
                            .iter()
                            .zip(&lo)
                            .map(|(d, l)| d / l.abs().max(1e-300))
                            .fold(0.0f64, f64::max);
                        progress.detail(&format!(
                            "{k} states, relative change {err:.2e}, target {eps:.0e}"
                        ));
                    }
                }
                if !changed {
                    // A fixpoint up to rounding.
                    delta.iter_mut().for_each(|x| *x = 0.0);
                    factor = 0.0;
                    break;
                }
                if (local_sweeps - start).is_multiple_of(WINDOW) {
                    let (mut wabs, mut wrel): (f64, f64) = (0.0, 0.0);
                    for ((dl, sn), &l) in delta.iter_mut().zip(snap.iter_mut()).zip(&lo) {
                        let dd = l - *sn;
                        *dl = dd;
                        *sn = l;
                        if dd > 0.0 {
                            wabs = wabs.max(dd);
                            wrel = wrel.max(dd / l);
                        }
                    }
                    let r = wabs / prev_win;
                    prev_win = wabs;
                    let r = if r.is_finite() { r } else { 1.0 };
                    let since = local_sweeps - last_attempt;
                    if widen < 1.75 * eps
                        && r < 1.0
                        && (r - prev_ratio).abs() <= 0.1 * (1.0 - r)
                        && since >= (2 * WINDOW).max(local_sweeps / 8)
                    {
                        last_attempt = local_sweeps;
                        let attempt = aitken::Attempt {
                            lo: &lo,
                            delta: &delta,
                            rho: r,
                            widen,
                            cap,
                            eps,
                            own: (2.0 * eps - widen).min(0.25 * eps),
                        };
                        // Six Jacobi applications, counted apart from the Gauss–Seidel sweeps so
                        // that the windows stay aligned.
                        attempt_sweeps += 6;
                        if let Some((l, h)) = aitken::certify(&lb, &attempt, &mut scratch) {
                            lo = l;
                            hi = h;
                            verified = true;
                            extrapolated = true;
                            break 'outer;
                        }
                    }
                    let rho = r.max(prev_ratio);
                    prev_ratio = r;
                    let f = if rho < 1.0 - 1e-12 {
                        rho / (1.0 - rho)
                    } else {
                        f64::INFINITY
                    };
                    if wrel * f <= thresh {
                        factor = f;
                        break;
                    }
                }
            }
            phase1 += local_sweeps - start;
            // Phase 2: guess an upper bound — the lower bound plus twice the estimated remaining
            // error (asymptotically x* + c·μ^k·ψ, which is inductive: B(u) − u = c·μ^k·(P−I)ψ ≤ 0)
            // — and verify it.
            for i in 0..k {
                hi[i] = (lo[i] + 2.0 * factor * delta[i] + 0.5 * eps * lo[i]).min(cap);
            }
            let budget = ((local_sweeps - start) / 4).max(16);
            for _ in 0..budget {
                // In place (Gauss–Seidel): if no value increases, the result u' is itself
                // inductive — u'_i = B(w)_i at a vector w ≥ u', so B(u')_i ≤ u'_i.
                let (mut all_le, mut all_ge) = (true, true);
                for i in 0..k {
                    let t = self.bell(i, &hi, &self.b_hi, min).min(cap);
                    // A few ulps of slack: at an exact fixpoint B(u) = u up to rounding.
                    if t > hi[i] * (1.0 + 1e-14) {
                        all_le = false;
                    }
                    if t < hi[i] * (1.0 - 1e-14) {
                        all_ge = false;
                    }
                    hi[i] = t;
                }
                let crossed = hi.iter().zip(&lo).any(|(h, l)| h < l);
                local_sweeps += 1;
                if all_le {
                    verified = true;
                    break 'outer;
                }
                if all_ge || crossed || local_sweeps >= p.max_sweeps {
                    break;
                }
                self.gs_lower(&mut lo, min);
                local_sweeps += 1;
            }
            if local_sweeps >= p.max_sweeps {
                break 'outer;
            }
            if cap.is_finite() && thresh < 0.1 * eps {
                // The guess failed twice and an upper bound is known: interval iteration from it.
                interval = true;
                break 'outer;
            }
            thresh /= 4.0;
            if thresh < 1e-15 {
                // Below double precision: give up (the result is reported as unverified).
                break 'outer;
            }
        }
        if interval {
            // Interval iteration (Haddad & Monmege; Baier et al.): Gauss–Seidel from above starting
            // at the known bound. Sound here because the maybe-states hold no end component (those
            // of Pmax are collapsed; for Pmin they have value 0 and are precomputed), so the
            // greatest fixpoint is the least.
            // The iteration is the one below, from the bound `cap`.
            hi.iter_mut().for_each(|h| *h = cap);
            verified = true;
        }
        if verified {
            // hi is an upper bound (x* ≤ hi): keep iterating both bounds until close. The upper one
            // is updated in place (Gauss–Seidel): each new value min(hi_i, B(w)_i) is taken at a
            // vector w ≥ x*, so it stays ≥ B(x*)_i = x*_i by monotonicity.
            while local_sweeps < p.max_sweeps
                && !lo.iter().zip(&hi).all(|(&l, &h)| close(l, h))
                && (!local_sweeps.is_multiple_of(64) || p.budget.check().is_ok())
            {
                self.gs_lower(&mut lo, min);
                for i in 0..k {
                    hi[i] = self.bell(i, &hi, &self.b_hi, min).min(hi[i]);
                }
                local_sweeps += 2;
            }
        }
        let ok = verified && lo.iter().zip(&hi).all(|(&l, &h)| close(l, h));
        local_sweeps += attempt_sweeps;
        if !ok {
            hi.copy_from_slice(&lo);
        }
        tracing::debug!(
            "component of {k} classes: {local_sweeps} sweeps ({phase1} lower-only), verified {ok}, extrapolated {extrapolated}",
        );
        for (i, &v) in ordered.iter().enumerate() {
            lo_all[v as usize] = lo[i];
            hi_all[v as usize] = hi[i];
        }
        (local_sweeps, ok)
    }
}

/// Solves the problem (see the module documentation).
pub(crate) fn solve(p: &Problem) -> Solution {
    solve_with(p, true)
}

/// [`solve`], with the policy-iteration certificate ([`policy_certificate`]) tried first on each
/// non-trivial component when `policy` is set (else value iteration only).
fn solve_with(p: &Problem, policy: bool) -> Solution {
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
    // Position of each class inside its component (set per component).
    let mut pos = vec![0u32; nc];
    let mut exhausted = None;
    for comp in &sccs.members {
        if let Err(e) = p.budget.check() {
            exhausted = Some(e);
            break;
        }
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
            // Floating-point elimination, else (ill-conditioned: a pivot cancelled to zero) exact
            // rational elimination.
            let x = dense_solve(&q, comp, &lo, &hi).or_else(|| {
                tracing::debug!("component of {} classes: exact elimination", comp.len());
                exact_solve(&q, comp, &lo, &hi)
            });
            if let Some(x) = x {
                for (i, &v) in comp.iter().enumerate() {
                    lo[v as usize] = x.0[i];
                    hi[v as usize] = x.1[i];
                }
                continue;
            }
        }
        // Gauss–Seidel converges faster when states near the component's exits are updated first:
        // order the members by backward breadth-first distance from the exits.
        let ordered = exit_order(&q, comp, &sccs.comp);
        let local = Local::new(&q, &ordered, &sccs.comp, &mut pos, &lo, &hi);
        if policy {
            // Value iteration first, for a few sweeps: most components converge quickly. Its
            // lower bound stays valid (and warm-starts the iteration if policy iteration fails).
            // Policy iteration starts from the first choices: measured on QVBS consensus, the
            // greedy policy of this early lower bound needed more rounds.
            let quick = Problem {
                max_sweeps: POLICY_AFTER.min(p.max_sweeps),
                ..*p
            };
            let saved: Vec<f64> = ordered.iter().map(|&v| hi[v as usize]).collect();
            let (local_sweeps, ok) = local.iterate(&quick, &ordered, &mut lo, &mut hi);
            sweeps += local_sweeps;
            if ok {
                continue;
            }
            for (&v, &h) in ordered.iter().zip(&saved) {
                hi[v as usize] = h;
            }
            let start: Vec<f64> = ordered.iter().map(|&v| lo[v as usize]).collect();
            let c = policy_certificate::Component {
                first: &local.first,
                cstart: &local.cstart,
                col: &local.col,
                val: &local.val,
                b_lo: &local.b_lo,
                b_hi: &local.b_hi,
            };
            let cap = p.upper.unwrap_or(f64::INFINITY);
            if let Some(cert) = policy_certificate::certify(&c, p.opt, cap, p.eps) {
                tracing::debug!(
                    "component of {} classes: policy iteration, {} solves",
                    ordered.len(),
                    cert.solves
                );
                for (i, &v) in ordered.iter().enumerate() {
                    lo[v as usize] = cert.lo[i].max(start[i]);
                    hi[v as usize] = cert.hi[i].max(lo[v as usize]);
                }
                sweeps += cert.solves;
                continue;
            }
        }
        let (local_sweeps, ok) = local.iterate(p, &ordered, &mut lo, &mut hi);
        sound &= ok;
        sweeps += local_sweeps;
    }
    if exhausted.is_none() {
        exhausted = p.budget.check().err();
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
    tracing::debug!("value iteration: {sweeps} sweeps in all, verified: {sound}");
    Solution {
        values,
        sound,
        exhausted,
    }
}
