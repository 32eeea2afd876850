//! PCTL and reward model checking of interval models (IMDPs, IDTMCs) under the controller
//! synthesis semantics `⊨(∃σ∀π)` of "Polynomial-Time Alternating Probabilistic Bisimulation for
//! Interval MDPs" (Hashemi, Turrini, Hahn, Hermanns, Elbassioni, SETTA 2017, Sect. 2.2–3): the
//! controller (strategy σ) picks an action, then nature (π) picks a feasible distribution of the
//! action's intervals, independently at every step (the paper's dynamic approach).
//!
//! * `P≥p [ψ]` holds iff `min_σ min_π Pr(ψ) ≥ p` (and dually `P≤p` with `max_σ max_π`): as in
//!   PRISM, a bound holds for every scheduler and every resolution of the uncertainty, as on
//!   plain MDPs. `Pmax=?` / `Pmin=?` (and `Pmax≥p`) are the controller's optimum against an
//!   adversarial nature, the paper's ∃σ∀π; PRISM's explicit forms
//!   `Pmaxmin`, `Pminmax`, `Pmaxmax`, `Pminmin` (controller, then nature) are honoured. For an
//!   IDTMC (no controller) `Pmin`/`Pmax` name nature's choice, as in PRISM.
//! * Nature's inner problem over `{ h | l ≤ h ≤ u, Σh = 1 }` is solved exactly by sorting the
//!   successors by value and giving the free mass `1 − Σl` to the best (or worst) first.
//! * Unbounded until: the states with value 0 are found by a game attractor; values are the least
//!   fixpoint of the robust Bellman operator, bracketed from below (iteration from 0) and above
//!   (iteration from 1, and optimistic guesses `u` verified inductive, `B(u) ≤ u`, Hartmanns &
//!   Kaminski, CAV 2020). Both bounds are sound for any monotone operator, so no end-component
//!   analysis is needed for soundness; the iteration stops when `upper − lower ≤ 2ε·lower` and
//!   answers the midpoint, like the point-model engine ([`crate::vi`]).
//! * Step-bounded until, next, globally (by duality), expected reachability rewards (`F`),
//!   cumulative (`C<=k`) and instantaneous (`I=k`) rewards; `S` is not defined for IMDPs here.

use crate::check::{CheckOptions, PropertyResult};
use crate::error::ProbError;
use crate::lang::ast::*;
use crate::lang::typecheck::Program;
use crate::model::Model;
use crate::prop_env::{input, Names, OpAt, StateFormulas};
use crate::widen::bounds;
use std::sync::Arc;
use verikit_diag::{Budget, Exhausted, Span};

type R<T> = Result<T, ProbError>;

/// Who optimises which way: the controller maximises (`ctrl_max`) or minimises, nature
/// maximises (`nature_max`) or minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dir {
    pub ctrl_max: bool,
    pub nature_max: bool,
}

impl Dir {
    /// The controller's optimum against an adversarial nature.
    pub fn adversarial(ctrl_max: bool) -> Dir {
        Dir {
            ctrl_max,
            nature_max: !ctrl_max,
        }
    }
    fn flip(self) -> Dir {
        Dir {
            ctrl_max: !self.ctrl_max,
            nature_max: !self.nature_max,
        }
    }
}

/// Slack on interval sums when deciding whether a choice has a feasible distribution.
const FEAS_TOL: f64 = 1e-9;

/// Does choice `c` have a feasible distribution (`Σl ≤ 1 ≤ Σu`)?
pub(crate) fn feasible(m: &Model, c: usize) -> bool {
    let (mut ls, mut us) = (0.0, 0.0);
    for t in m.trans(c) {
        let (l, u) = bounds(m, t);
        ls += l;
        us += u;
    }
    ls <= 1.0 + FEAS_TOL && us >= 1.0 - FEAS_TOL
}

/// Nature's optimum of `Σ h(t)·x(t)` over the feasible distributions of choice `c` (which must be
/// feasible). Infinite values count only where they get positive mass.
pub(crate) fn nature_opt(
    m: &Model,
    c: usize,
    x: &[f64],
    nature_max: bool,
    buf: &mut Vec<(f64, f64, f64)>,
) -> f64 {
    let r = m.trans(c);
    if r.len() == 1 {
        return x[m.cols[r.start] as usize];
    }
    buf.clear();
    let mut lsum = 0.0;
    for t in r {
        let (l, u) = bounds(m, t);
        lsum += l;
        buf.push((x[m.cols[t] as usize], l, u));
    }
    if nature_max {
        buf.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
    } else {
        buf.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    }
    let mut free = (1.0 - lsum).max(0.0);
    let mut acc = 0.0;
    for &(v, l, u) in buf.iter() {
        let add = free.min(u - l).max(0.0);
        free -= add;
        let w = l + add;
        if w > 0.0 {
            acc += w * v;
        }
    }
    acc
}

/// Minimal (`nature_max = false`) or maximal mass nature can give the states in `set` under
/// choice `c`.
fn mass_into(m: &Model, c: usize, set: &[bool], nature_max: bool) -> f64 {
    let (mut lin, mut uin, mut lout, mut uout) = (0.0, 0.0, 0.0, 0.0);
    for t in m.trans(c) {
        let (l, u) = bounds(m, t);
        if set[m.cols[t] as usize] {
            lin += l;
            uin += u;
        } else {
            lout += l;
            uout += u;
        }
    }
    // `1 − Σ` terms within rounding of 0 are 0 (sums of decimal bounds are inexact).
    let rest = |x: f64| if x > FEAS_TOL { x } else { 0.0 };
    if nature_max {
        uin.min(rest(1.0 - lout))
    } else {
        lin.max(rest(1.0 - uout))
    }
}

/// The robust Bellman operator of one state: the controller's optimum over its feasible choices
/// of `rew[c] + nature's optimum`. `None` if the state has no feasible choice.
fn bellman(
    m: &Model,
    feas: &[bool],
    s: usize,
    x: &[f64],
    rew: Option<&[f64]>,
    dir: Dir,
    buf: &mut Vec<(f64, f64, f64)>,
) -> Option<f64> {
    let mut best: Option<f64> = None;
    for c in m.choices(s) {
        if !feas[c] {
            continue;
        }
        let mut v = nature_opt(m, c, x, dir.nature_max, buf);
        if let Some(r) = rew {
            v += r[c];
        }
        best = Some(match best {
            None => v,
            Some(b) if dir.ctrl_max => b.max(v),
            Some(b) => b.min(v),
        });
    }
    best
}

/// States from which `psi` is reached with positive probability through `allowed` states under
/// `dir` (a game attractor), with the round in which each joined (for the sweep order).
fn positive_attractor(
    m: &Model,
    feas: &[bool],
    allowed: &[bool],
    psi: &[bool],
    dir: Dir,
) -> (Vec<bool>, Vec<u32>) {
    let n = m.num_states();
    let mut set = psi.to_vec();
    let mut level = vec![u32::MAX; n];
    for s in 0..n {
        if psi[s] {
            level[s] = 0;
        }
    }
    let mut round = 0;
    loop {
        round += 1;
        let mut add = Vec::new();
        for s in 0..n {
            if set[s] || !allowed[s] {
                continue;
            }
            // The controller needs one choice whose minimal mass is positive (maximising), or
            // nature must be able to put positive mass under every choice (minimising).
            let mut feasible_choices = m.choices(s).filter(|&c| feas[c]).peekable();
            if feasible_choices.peek().is_none() {
                continue;
            }
            let pos = |c: usize| mass_into(m, c, &set, dir.nature_max) > 0.0;
            let ok = if dir.ctrl_max {
                feasible_choices.any(pos)
            } else {
                feasible_choices.all(pos)
            };
            if ok {
                add.push(s);
            }
        }
        if add.is_empty() {
            break;
        }
        for s in add {
            set[s] = true;
            level[s] = round;
        }
    }
    (set, level)
}

/// States from which `target` is reached almost surely through `allowed` states, where the
/// controller helps reaching iff `dir.ctrl_max` (one good choice suffices, else all must be good)
/// and nature helps iff `dir.nature_max`: the greatest fixpoint `νZ. μX. target ∪ {s | the
/// choices keep the play in Z and reach X with positive probability}`.
fn almost_sure(m: &Model, feas: &[bool], allowed: &[bool], target: &[bool], dir: Dir) -> Vec<bool> {
    let n = m.num_states();
    let mut z: Vec<bool> = (0..n).map(|s| allowed[s] || target[s]).collect();
    loop {
        // Choices usable inside z: the player that wants to reach can keep the play inside z.
        // A minimising nature (against reaching) can leave z iff it can give mass outside.
        let not_z: Vec<bool> = z.iter().map(|b| !b).collect();
        let stays = |c: usize| -> bool {
            if dir.nature_max {
                // Nature cooperates: it can keep all mass in z.
                mass_into(m, c, &not_z, false) <= 0.0
            } else {
                mass_into(m, c, &not_z, true) <= 0.0
            }
        };
        let mut x = target.to_vec();
        loop {
            let mut changed = false;
            for s in 0..n {
                if x[s] || !z[s] {
                    continue;
                }
                let mut ok_any = false;
                let mut ok_all = true;
                let mut any = false;
                for c in m.choices(s) {
                    if !feas[c] {
                        continue;
                    }
                    any = true;
                    // With nature cooperating the positive mass must be possible while staying
                    // in z; it suffices to test both separately when nature may split its mass
                    // (every feasible point mixes), except at the boundary: use the stricter
                    // joint test via the intersection bound.
                    let good = stays(c) && {
                        if dir.nature_max {
                            joint_stay_and_hit(m, c, &z, &x)
                        } else {
                            mass_into(m, c, &x, false) > 0.0
                        }
                    };
                    ok_any |= good;
                    ok_all &= good;
                }
                let ok = any && if dir.ctrl_max { ok_any } else { ok_all };
                if ok {
                    x[s] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let nz: Vec<bool> = (0..n).map(|s| z[s] && x[s]).collect();
        if nz == z {
            return z;
        }
        z = nz;
    }
}

/// Can nature choose a feasible distribution of `c` with all mass in `z` and positive mass in
/// `x ⊆ z`?
fn joint_stay_and_hit(m: &Model, c: usize, z: &[bool], x: &[bool]) -> bool {
    let (mut uz, mut lout, mut ux, mut lzx) = (0.0, 0.0, 0.0, 0.0);
    for t in m.trans(c) {
        let (l, u) = bounds(m, t);
        let d = m.cols[t] as usize;
        if z[d] {
            uz += u;
            if x[d] {
                ux += u;
            } else {
                lzx += l;
            }
        } else {
            lout += l;
        }
    }
    lout <= 0.0 && uz >= 1.0 - FEAS_TOL && ux > 0.0 && lzx < 1.0 - FEAS_TOL
}

/// Outcome of one numerical solution.
pub struct Solved {
    pub values: Vec<f64>,
    pub sound: bool,
    pub sweeps: usize,
    /// Set when the budget ran out (`values` are then lower bounds).
    pub exhausted: Option<Exhausted>,
}

/// Least fixpoint of the robust Bellman operator on `maybe` with the other states at `fixed`,
/// bracketed from below and above (see the module documentation). `upper`: a known bound on all
/// values (probabilities: 1), else optimistic guesses only.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_lfp(
    m: &Model,
    feas: &[bool],
    maybe: &[bool],
    order: &[u32],
    fixed: &[f64],
    rew: Option<&[f64]>,
    dir: Dir,
    upper: Option<f64>,
    (eps, max_sweeps): (f64, usize),
    budget: &Budget,
) -> Solved {
    let n = m.num_states();
    let mut lo: Vec<f64> = (0..n)
        .map(|s| if maybe[s] { 0.0 } else { fixed[s] })
        .collect();
    let mut hi: Option<Vec<f64>> = upper.map(|u| {
        (0..n)
            .map(|s| if maybe[s] { u } else { fixed[s] })
            .collect()
    });
    if order.is_empty() {
        return Solved {
            values: lo,
            sound: true,
            sweeps: 0,
            exhausted: None,
        };
    }
    let mut buf = Vec::new();
    let mut guess = vec![0.0; n];
    let mut sweeps = 0;
    let mut next_guess = 8usize;
    let mut slack = eps;
    while sweeps < max_sweeps {
        sweeps += 1;
        if sweeps % 16 == 0 {
            if let Err(e) = budget.check() {
                return Solved {
                    values: lo,
                    sound: false,
                    sweeps,
                    exhausted: Some(e),
                };
            }
        }
        let mut delta: f64 = 0.0;
        for &s in order {
            let s = s as usize;
            let v = bellman(m, feas, s, &lo, rew, dir, &mut buf).unwrap_or(0.0);
            let v = v.max(lo[s]);
            delta = delta.max((v - lo[s]) / v.abs().max(1e-300));
            lo[s] = v;
        }
        if let Some(h) = hi.as_mut() {
            for &s in order {
                let s = s as usize;
                let v = bellman(m, feas, s, h, rew, dir, &mut buf).unwrap_or(0.0);
                h[s] = v.min(h[s]);
            }
        }
        if let Some(done) = verified(order, &lo, hi.as_deref(), eps, maybe, sweeps) {
            return done;
        }
        // Optimistic guess once the lower iteration has (nearly) settled.
        if delta < slack || sweeps >= next_guess {
            next_guess = sweeps * 2;
            guess.copy_from_slice(&lo);
            for &s in order {
                let s = s as usize;
                let mut g = lo[s] + slack * lo[s].abs();
                if let Some(h) = &hi {
                    g = g.min(h[s]);
                }
                guess[s] = g;
            }
            let inductive = order.iter().all(|&s| {
                let s = s as usize;
                bellman(m, feas, s, &guess, rew, dir, &mut buf).unwrap_or(0.0) <= guess[s]
            });
            if inductive {
                if let Some(h) = hi.as_mut() {
                    for &s in order {
                        h[s as usize] = h[s as usize].min(guess[s as usize]);
                    }
                } else {
                    hi = Some(guess.clone());
                }
                if let Some(done) = verified(order, &lo, hi.as_deref(), eps, maybe, sweeps) {
                    return done;
                }
            } else if delta < slack {
                slack *= 0.5;
            }
        }
    }
    tracing::warn!(
        "robust value iteration stopped at {max_sweeps} sweeps without a verified bound"
    );
    Solved {
        values: lo,
        sound: false,
        sweeps,
        exhausted: None,
    }
}

/// The sound answer once an upper bound `hi` is within relative `eps` of `lo` on `order`.
fn verified(
    order: &[u32],
    lo: &[f64],
    hi: Option<&[f64]>,
    eps: f64,
    maybe: &[bool],
    sweeps: usize,
) -> Option<Solved> {
    let h = hi?;
    converged(order, lo, h, eps).then(|| Solved {
        values: midpoint(lo, h, maybe),
        sound: true,
        sweeps,
        exhausted: None,
    })
}

fn converged(order: &[u32], lo: &[f64], hi: &[f64], eps: f64) -> bool {
    order.iter().all(|&s| {
        let s = s as usize;
        hi[s] - lo[s] <= 2.0 * eps * lo[s]
    })
}

fn midpoint(lo: &[f64], hi: &[f64], maybe: &[bool]) -> Vec<f64> {
    (0..lo.len())
        .map(|s| {
            if maybe[s] {
                0.5 * (lo[s] + hi[s])
            } else {
                lo[s]
            }
        })
        .collect()
}

fn order_by_level(maybe: &[bool], level: &[u32]) -> Vec<u32> {
    let mut o: Vec<u32> = (0..maybe.len() as u32)
        .filter(|&s| maybe[s as usize])
        .collect();
    o.sort_by_key(|&s| level[s as usize]);
    o
}

/// Robust probabilities of `phi U psi` under `dir`.
pub fn until(
    m: &Model,
    phi: &[bool],
    psi: &[bool],
    dir: Dir,
    eps: f64,
    max_sweeps: usize,
) -> Solved {
    until_within(m, phi, psi, dir, (eps, max_sweeps), &Budget::unlimited())
}

/// [`until`] within a budget.
pub(crate) fn until_within(
    m: &Model,
    phi: &[bool],
    psi: &[bool],
    dir: Dir,
    (eps, max_sweeps): (f64, usize),
    budget: &Budget,
) -> Solved {
    let n = m.num_states();
    let feas: Vec<bool> = (0..m.num_choices()).map(|c| feasible(m, c)).collect();
    let allowed: Vec<bool> = (0..n).map(|s| phi[s] && !psi[s]).collect();
    let (pos, level) = positive_attractor(m, &feas, &allowed, psi, dir);
    // Value 1 where the players that help reaching (the controller if it maximises, nature if
    // it maximises) force `psi` almost surely.
    let yes = almost_sure(m, &feas, &allowed, psi, dir);
    let maybe: Vec<bool> = (0..n).map(|s| pos[s] && !yes[s]).collect();
    let fixed: Vec<f64> = yes.iter().map(|&b| b as u8 as f64).collect();
    let order = order_by_level(&maybe, &level);
    let mut r = solve_lfp(
        m,
        &feas,
        &maybe,
        &order,
        &fixed,
        None,
        dir,
        Some(1.0),
        (eps, max_sweeps),
        budget,
    );
    for x in r.values.iter_mut() {
        *x = x.clamp(0.0, 1.0);
    }
    r
}

/// Robust expected reward accumulated until reaching `target` (`∞` where the target is not
/// reached almost surely under `dir`). `rew` is the reward of each choice.
pub(crate) fn reach_reward(
    m: &Model,
    target: &[bool],
    rew: &[f64],
    dir: Dir,
    (eps, max_sweeps): (f64, usize),
    budget: &Budget,
) -> Result<Solved, String> {
    let n = m.num_states();
    let feas: Vec<bool> = (0..m.num_choices()).map(|c| feasible(m, c)).collect();
    // The reward is finite where reaching the target almost surely is forced: by the
    // controller when it minimises (then nature maximises the reward, i.e. hinders), by nature
    // when it minimises the reward against a maximising controller.
    let reach_dir = Dir {
        ctrl_max: !dir.ctrl_max,
        nature_max: !dir.nature_max,
    };
    let all: Vec<bool> = vec![true; n];
    let finite = almost_sure(m, &feas, &all, target, reach_dir);
    let maybe: Vec<bool> = (0..n).map(|s| finite[s] && !target[s]).collect();
    let fixed: Vec<f64> = (0..n)
        .map(|s| if finite[s] { 0.0 } else { f64::INFINITY })
        .collect();
    // The least fixpoint equals the expected reward only if staying forever among `maybe`
    // states collects infinite reward: zero-reward choices must not close a cycle there.
    if zero_reward_cycle(m, &feas, &maybe, rew) {
        return Err(
            "expected rewards on interval models with zero-reward cycles outside the \
                    target are not supported"
                .into(),
        );
    }
    let (_, level) = positive_attractor(m, &feas, &all, target, Dir::adversarial(true));
    let order = order_by_level(&maybe, &level);
    Ok(solve_lfp(
        m,
        &feas,
        &maybe,
        &order,
        &fixed,
        Some(rew),
        dir,
        None,
        (eps, max_sweeps),
        budget,
    ))
}

/// Is there a cycle through `maybe` states using only zero-reward feasible choices (edges with
/// a positive upper bound)? Kahn's algorithm on that subgraph.
fn zero_reward_cycle(m: &Model, feas: &[bool], maybe: &[bool], rew: &[f64]) -> bool {
    let n = m.num_states();
    let mut succ: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut indeg = vec![0u32; n];
    let mut any = false;
    for s in 0..n {
        if !maybe[s] {
            continue;
        }
        for c in m.choices(s) {
            if !feas[c] || rew[c] != 0.0 {
                continue;
            }
            for t in m.trans(c) {
                let d = m.cols[t] as usize;
                if maybe[d] && bounds(m, t).1 > 0.0 {
                    succ[s].push(d as u32);
                    indeg[d] += 1;
                    any = true;
                }
            }
        }
    }
    if !any {
        return false;
    }
    let mut stack: Vec<usize> = (0..n).filter(|&s| indeg[s] == 0).collect();
    let mut seen = 0;
    while let Some(s) = stack.pop() {
        seen += 1;
        for &d in &succ[s] {
            indeg[d as usize] -= 1;
            if indeg[d as usize] == 0 {
                stack.push(d as usize);
            }
        }
    }
    seen < n
}

/// `k` applications of the robust Bellman operator (Jacobi) to `x`, with `keep` states fixed
/// at their current value and `zero` states at 0.
fn steps(
    m: &Model,
    mut x: Vec<f64>,
    k: usize,
    dir: Dir,
    rew: Option<&[f64]>,
    active: &dyn Fn(usize) -> bool,
    budget: &Budget,
) -> Result<Vec<f64>, Exhausted> {
    let feas: Vec<bool> = (0..m.num_choices()).map(|c| feasible(m, c)).collect();
    let mut y = x.clone();
    let mut buf = Vec::new();
    for _ in 0..k {
        budget.check()?;
        for s in 0..m.num_states() {
            if active(s) {
                y[s] = bellman(m, &feas, s, &x, rew, dir, &mut buf).unwrap_or(0.0);
            } else {
                y[s] = x[s];
            }
        }
        std::mem::swap(&mut x, &mut y);
    }
    Ok(x)
}

/// Checks properties of an interval model (or of a DTMC/MDP, read as point intervals).
pub struct RobustChecker<'a> {
    model: &'a Model,
    prog: &'a Program,
    /// Text of the properties file (to read PRISM's two-word operators `Pmaxmin` etc.).
    src: &'a str,
    opts: CheckOptions,
    names: Arc<Names>,
    sound: bool,
    cooperative: bool,
    /// Fill [`PropertyResult::state_values`].
    keep_values: bool,
}

impl<'a> RobustChecker<'a> {
    /// Whether [`RobustChecker::check`] also reports the value of every state.
    pub fn keep_state_values(&mut self, on: bool) {
        self.keep_values = on;
    }

    pub fn new(
        model: &'a Model,
        prog: &'a Program,
        props: &PropertiesFile,
        props_src: &'a str,
        overrides: &[(String, String)],
        opts: CheckOptions,
    ) -> R<RobustChecker<'a>> {
        let names = Names::new(prog, props, overrides)?;
        Ok(RobustChecker {
            model,
            prog,
            src: props_src,
            opts,
            names,
            sound: true,
            cooperative: false,
            keep_values: false,
        })
    }

    /// Checks one property; the answer is the value in the (first) initial state.
    pub fn check(&mut self, prop: &Property, text: &str) -> R<PropertyResult> {
        let t0 = std::time::Instant::now();
        self.sound = true;
        self.cooperative = false;
        let ev = self.evaluate(&prop.expr, self.keep_values)?;
        let sound = (self.sound, self.cooperative);
        Ok(PropertyResult::new(prop, text, ev, sound, t0))
    }

    /// The value of a numeric or Boolean state formula in every state (Booleans as 0/1).
    pub fn state_values(&mut self, e: &Expr) -> R<Vec<f64>> {
        let (c, _) = self.compile(e)?;
        Ok(crate::build::eval_states_f64(self.model, &c)?)
    }

    /// The atomic propositions of a property: its maximal subformulas without P/R/S operators
    /// and filters, as values per state, and the state rewards of the reward structures it
    /// uses. A partition respecting them is preserved by the bisimulation (Theorem 4).
    pub fn atoms(&mut self, e: &Expr) -> R<Vec<Vec<f64>>> {
        let mut out = Vec::new();
        self.collect_atoms(e, &mut out)?;
        Ok(out)
    }

    fn collect_path_atoms(&mut self, p: &PathFormula, out: &mut Vec<Vec<f64>>) -> R<()> {
        match p {
            PathFormula::Next(a) | PathFormula::Globally(a, _) => self.collect_atoms(a, out),
            PathFormula::Until(a, b, _) => {
                self.collect_atoms(a, out)?;
                self.collect_atoms(b, out)
            }
            PathFormula::Not(inner) => self.collect_path_atoms(inner, out),
            PathFormula::Ltl(l) => {
                for a in l.atoms() {
                    self.collect_atoms(a, out)?;
                }
                Ok(())
            }
        }
    }

    fn collect_atoms(&mut self, e: &Expr, out: &mut Vec<Vec<f64>>) -> R<()> {
        if !has_operator(e) {
            if !matches!(
                e.kind,
                ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Bool(_)
            ) {
                out.push(self.state_values(e)?);
            }
            return Ok(());
        }
        match &e.kind {
            ExprKind::Prob { path, bound, .. } => {
                if let Bound::Cmp(_, b) = bound {
                    self.collect_atoms(b, out)?;
                }
                self.collect_path_atoms(path, out)
            }
            ExprKind::Reward { rew, path, .. } => {
                let r = self.reward_index(rew)?;
                out.push(self.state_rewards(r)?);
                match path.as_ref() {
                    RewardPath::Reach(a) => self.collect_atoms(a, out),
                    _ => Ok(()),
                }
            }
            ExprKind::Steady { expr, .. } => self.collect_atoms(expr, out),
            ExprKind::Filter { prop, states, .. } => {
                self.collect_atoms(prop, out)?;
                if let Some(s) = states {
                    self.collect_atoms(s, out)?;
                }
                Ok(())
            }
            ExprKind::Unary(_, a) => self.collect_atoms(a, out),
            ExprKind::Binary(_, a, b) => {
                self.collect_atoms(a, out)?;
                self.collect_atoms(b, out)
            }
            ExprKind::Ite(a, b, c) => {
                self.collect_atoms(a, out)?;
                self.collect_atoms(b, out)?;
                self.collect_atoms(c, out)
            }
            ExprKind::Call(_, args) => {
                for a in args {
                    self.collect_atoms(a, out)?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// PRISM's explicit nature direction (`Pmaxmin`, `R{"r"}minmax`, …) read from the source.
    fn nature_word(&self, sp: Span) -> Option<bool> {
        let rest = self.src.get(sp.start..)?;
        let ident = |s: &str| -> String {
            s.chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        };
        let head = ident(rest);
        let mut word = head.get(1..).unwrap_or("").to_string();
        if word.is_empty() {
            // `R{"r"}minmax`: the direction follows the braces.
            let after = rest.get(head.len()..)?.trim_start();
            if let Some(b) = after.strip_prefix('{') {
                let close = b.find('}')?;
                word = ident(b.get(close + 1..)?.trim_start());
            }
        }
        match word.as_str() {
            "maxmin" | "minmin" => Some(false),
            "maxmax" | "minmax" => Some(true),
            _ => None,
        }
    }

    fn direction(&self, opt: Opt, bound: &Bound, sp: Span) -> R<Dir> {
        let nondet = self.model.model_type.nondeterministic();
        let from_bound = match bound {
            Bound::Cmp(op, _) => Some(matches!(op, CmpOp::Ge | CmpOp::Gt)),
            Bound::Query => None,
        };
        // A bound without `min`/`max` holds for every scheduler and every resolution of the
        // uncertainty (PRISM): `P≥p` compares the minimum over both with p, `P≤p` the maximum.
        if let (Opt::None, Some(ge), None) = (opt, from_bound, self.nature_word(sp)) {
            return Ok(Dir {
                ctrl_max: !ge,
                nature_max: !ge,
            });
        }
        let ctrl_max = match (opt, from_bound) {
            (Opt::Max, _) => true,
            (Opt::Min, _) => false,
            (Opt::None, Some(ge)) => !ge,
            // A point DTMC has no choice to resolve.
            (Opt::None, None) if !nondet && !self.model.is_interval() => true,
            (Opt::None, None) => {
                return Err(input(
                    sp,
                    if nondet {
                        "for an interval MDP, write Pmax=?/Pmin=? (the controller's optimum \
                         against an adversarial nature) or Pmaxmin=?, Pminmax=?, Pmaxmax=?, \
                         Pminmin=?"
                    } else {
                        "for an interval DTMC, write Pmin=?/Pmax=? (nature's optimum)"
                    },
                ))
            }
        };
        let nature_max = match (self.nature_word(sp), opt) {
            (Some(nm), _) => nm,
            // An interval MDP: nature is adversarial to the controller.
            _ if nondet => !ctrl_max,
            // Without a controller `Pmin`/`Pmax` name nature's direction.
            (None, _) => ctrl_max,
        };
        Ok(Dir {
            ctrl_max,
            nature_max,
        })
    }

    /// [`Self::direction`], noting a nature that cooperates with the controller.
    fn direction_noted(&mut self, opt: Opt, bound: &Bound, sp: Span) -> R<Dir> {
        let d = self.direction(opt, bound, sp)?;
        self.cooperative |= self.model.model_type.nondeterministic() && d.ctrl_max == d.nature_max;
        Ok(d)
    }

    fn prob(&mut self, dir: Dir, path: &PathFormula) -> R<Vec<f64>> {
        let m = self.model;
        match path {
            PathFormula::Next(e) => {
                let set = self.states(e)?;
                let x: Vec<f64> = set.iter().map(|&b| b as u8 as f64).collect();
                Ok(steps(m, x, 1, dir, None, &|_| true, &self.opts.budget)?)
            }
            PathFormula::Globally(e, tb) => {
                let not_e = Expr::new(ExprKind::Unary(UnOp::Not, e.clone()), e.span);
                let f = PathFormula::Until(
                    Box::new(Expr::boolean(true, e.span)),
                    Box::new(not_e),
                    tb.clone(),
                );
                Ok(self
                    .prob(dir.flip(), &f)?
                    .into_iter()
                    .map(|x| 1.0 - x)
                    .collect())
            }
            PathFormula::Ltl(l) => Err(input(
                l.atoms().first().map_or(Span::default(), |e| e.span),
                "LTL path formulas are not supported on interval models",
            )),
            PathFormula::Not(inner) => Ok(self
                .prob(dir.flip(), inner)?
                .into_iter()
                .map(|x| 1.0 - x)
                .collect()),
            PathFormula::Until(l, r, tb) => {
                if let Some(rb) = tb.reward_bound {
                    return Err(input(rb, "reward-bounded path formulas are not supported"));
                }
                let phi = self.states(l)?;
                let psi = self.states(r)?;
                let k1 = self.step_bound(&tb.lower, false)?.unwrap_or(0);
                let k2 = self.step_bound(&tb.upper, true)?;
                if k2.is_some_and(|k2| k2 < k1) {
                    return Ok(vec![0.0; m.num_states()]);
                }
                let x = match k2 {
                    Some(k2) => {
                        let x0: Vec<f64> = psi.iter().map(|&b| b as u8 as f64).collect();
                        steps(
                            m,
                            x0,
                            (k2 - k1) as usize,
                            dir,
                            None,
                            &|s| phi[s] && !psi[s],
                            &self.opts.budget,
                        )?
                    }
                    None => {
                        let lim = (self.opts.eps, self.opts.max_sweeps);
                        let r = until_within(m, &phi, &psi, dir, lim, &self.opts.budget);
                        if let Some(e) = r.exhausted {
                            return Err(ProbError::Exhausted(e));
                        }
                        self.sound &= r.sound;
                        r.values
                    }
                };
                if k1 == 0 {
                    return Ok(x);
                }
                // The first k1 steps stay in phi.
                let mut x = x;
                for _ in 0..k1 {
                    x = steps(m, x, 1, dir, None, &|s| phi[s], &self.opts.budget)?;
                    for (s, v) in x.iter_mut().enumerate() {
                        if !phi[s] {
                            *v = 0.0;
                        }
                    }
                }
                let y = x;
                Ok(y)
            }
        }
    }

    /// State rewards of structure `r` (`None`: one per step).
    pub fn state_rewards(&self, r: Option<usize>) -> R<Vec<f64>> {
        let m = self.model;
        let Some(r) = r else {
            return Ok(vec![1.0; m.num_states()]);
        };
        let Some(rs) = self.prog.rewards.get(r) else {
            return Ok(vec![0.0; m.num_states()]);
        };
        let mut out = vec![0.0; m.num_states()];
        if rs.state.is_empty() {
            return Ok(out);
        }
        let mut cur = vec![0i64; m.vars.len()];
        for (s, o) in out.iter_mut().enumerate() {
            m.valuation(s, &mut cur);
            for (g, v) in &rs.state {
                if g.eval_bool(&cur, s)? {
                    *o += v.eval_f64(&cur, s)?;
                }
            }
        }
        Ok(out)
    }

    /// Reward of every choice: its state's reward plus the action (transition) reward.
    fn choice_rewards(&self, r: Option<usize>) -> R<Vec<f64>> {
        let m = self.model;
        let sr = self.state_rewards(r)?;
        let tr: &[f64] = match r {
            Some(r) => m.trans_rewards.get(r).map_or(&[], |v| v.as_slice()),
            None => &[],
        };
        let mut out = vec![0.0; m.num_choices()];
        for s in 0..m.num_states() {
            for c in m.choices(s) {
                out[c] = sr[s] + tr.get(c).copied().unwrap_or(0.0);
            }
        }
        Ok(out)
    }

    fn reward(&mut self, rew: &RewardRef, dir: Dir, path: &RewardPath, sp: Span) -> R<Vec<f64>> {
        let r = self.reward_index(rew)?;
        let m = self.model;
        match path {
            RewardPath::Reach(e) => {
                let target = self.states(e)?;
                let cr = self.choice_rewards(r)?;
                if cr.iter().any(|&x| x < 0.0) {
                    return Err(input(sp, "negative rewards are not supported"));
                }
                let lim = (self.opts.eps, self.opts.max_sweeps);
                let s = reach_reward(m, &target, &cr, dir, lim, &self.opts.budget)
                    .map_err(|msg| input(sp, msg))?;
                if let Some(e) = s.exhausted {
                    return Err(ProbError::Exhausted(e));
                }
                self.sound &= s.sound;
                Ok(s.values)
            }
            RewardPath::Cumul(e) => {
                let k = self.const_f64(e)?;
                if k.fract() != 0.0 || k < 0.0 {
                    return Err(input(e.span, "step bounds must be non-negative integers"));
                }
                let cr = self.choice_rewards(r)?;
                let x = vec![0.0; m.num_states()];
                Ok(steps(
                    m,
                    x,
                    k as usize,
                    dir,
                    Some(&cr),
                    &|_| true,
                    &self.opts.budget,
                )?)
            }
            RewardPath::Inst(e) => {
                let k = self.const_f64(e)?;
                if k.fract() != 0.0 || k < 0.0 {
                    return Err(input(e.span, "step bounds must be non-negative integers"));
                }
                let x = self.state_rewards(r)?;
                Ok(steps(
                    m,
                    x,
                    k as usize,
                    dir,
                    None,
                    &|_| true,
                    &self.opts.budget,
                )?)
            }
            RewardPath::Steady => Err(input(
                sp,
                "long-run rewards `S` are not supported on interval models",
            )),
            RewardPath::Total => Err(input(
                sp,
                "total rewards `C` are not supported on interval models",
            )),
            RewardPath::Ltl(_, lsp) => Err(input(
                *lsp,
                "rewards of co-safe LTL formulas are not supported on interval models",
            )),
        }
    }
}

/// Does `e` contain a P, R or S operator or a filter?
fn has_operator(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Prob { .. }
        | ExprKind::Reward { .. }
        | ExprKind::Steady { .. }
        | ExprKind::Filter { .. }
        | ExprKind::Ctl { .. } => true,
        ExprKind::Unary(_, a) => has_operator(a),
        ExprKind::Binary(_, a, b) => has_operator(a) || has_operator(b),
        ExprKind::Ite(a, b, c) => has_operator(a) || has_operator(b) || has_operator(c),
        ExprKind::Call(_, args) => args.iter().any(has_operator),
        _ => false,
    }
}

impl<'a> StateFormulas<'a> for RobustChecker<'a> {
    fn parts(&self) -> (&'a Model, &'a Program, &Arc<Names>) {
        (self.model, self.prog, &self.names)
    }
    fn prob_values(&mut self, op: OpAt<'_>, path: &PathFormula) -> R<Vec<f64>> {
        let dir = self.direction_noted(op.opt, op.bound, op.sp)?;
        self.prob(dir, path)
    }
    fn reward_values(&mut self, op: OpAt<'_>, rew: &RewardRef, path: &RewardPath) -> R<Vec<f64>> {
        let dir = self.direction_noted(op.opt, op.bound, op.sp)?;
        self.reward(rew, dir, path, op.sp)
    }
    fn steady_values(&mut self, _expr: &Expr, sp: Span) -> R<Vec<f64>> {
        Err(input(
            sp,
            "the steady-state operator S is not supported on interval models",
        ))
    }
    fn ctl_states(&mut self, _forall: bool, _path: &PathFormula, sp: Span) -> R<Vec<bool>> {
        Err(input(
            sp,
            "CTL's A/E are not supported on interval models (their graph depends on how \
             the intervals are resolved)",
        ))
    }
}
