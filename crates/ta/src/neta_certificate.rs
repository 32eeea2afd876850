//! Independent check of a NeTA-I unreachability certificate: the summary table of
//! `neta_summaries` re-verified to be closed under the rules, on clock regions instead of zones.
//!
//! Seed: Wang, Li, Yuen, "Nested timed automata with invariants" (SETTA 2017, S05), §3
//! Definition 4 (push starts the callee at clocks 0; a pushed frame proceeds, an F-pushed one is
//! frozen, `progress(ν, t, 0) = ν`; every frame on the stack must satisfy its local invariant),
//! §5 Definition 8 (`Intv(n)`, the digitization of a clock value by the largest constant `n`:
//! `[i,i]`, `(i,i+1)`, `(n,ω)`) and the region equivalence underneath it (Alur–Dill), read apart
//! from the code that builds the certificate: no DBMs, no ExtraM, no covering.
//!
//! The argument checked is inductive. A certificate claims, for every callee `B` and resumed
//! location `(A, q)`, a set `S(B, A, q)` of `Intv(n)` intervals (the durations of the runs of `B`
//! that pop back to `(A, q)`), and for every automaton `A` a set `R(A)` (durations after which a
//! run of `A` is at a target). The checker explores every automaton reachable by calls from `A0`
//! on the region graph of its local clocks plus a clock `z` that measures the time since its entry,
//! answering every call with the *claimed* sets only: a return of duration in `S` advances all
//! clocks (push) or only `z` (F-push), and the caller's invariant must hold again; a call pending
//! under a target contributes its claimed `R` plus the time spent before. If every pop and every
//! target the exploration meets lies in the claimed sets, an induction on the number of calls
//! nested in a run shows that the true summaries are contained in the claimed ones; with `R(A0)`
//! empty no run of the NeTA-I reaches a target. A region is an integer part per clock (values above
//! `n` collapsed) and the order of the fractional parts.

use crate::model::Cmp;
use crate::neta_parse::{Neta, NetaAtom, NetaClock, NetaOp};
use crate::neta_reach::neta_is_target;
use crate::neta_summaries::NetaSummaries;
use rustc_hash::{FxHashMap, FxHashSet};
use verikit_diag::{Budget, Exhausted};

/// Why a certificate is rejected, or why the check stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CertificateError {
    /// The certificate is not closed under the rules, or does not prove the claim.
    Rejected(String),
    /// The budget ran out before the check ended.
    Exhausted(Exhausted),
}

impl std::fmt::Display for CertificateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CertificateError::Rejected(why) => write!(f, "certificate rejected: {why}"),
            CertificateError::Exhausted(e) => write!(f, "certificate check stopped: {e:?}"),
        }
    }
}

/// A clock region: integer parts (`n + 1` stands for "above `n`") and fractional ranks (0 for
/// a zero fractional part, then 1, 2, … in increasing order; 0 for clocks above `n`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Region {
    int: Vec<i32>,
    frac: Vec<u32>,
}

impl Region {
    fn zero(clocks: usize) -> Region {
        Region {
            int: vec![0; clocks],
            frac: vec![0; clocks],
        }
    }

    fn top(&self, c: usize, n: i32) -> bool {
        self.int.get(c).is_none_or(|&i| i > n)
    }

    /// Collapses values above `n` and makes the ranks dense, keeping `positions` (a rank for every
    /// clock, any increasing scale with 0 for a zero fractional part).
    fn normalized(mut int: Vec<i32>, positions: Vec<u32>, n: i32) -> Region {
        for (i, p) in int.iter_mut().zip(&positions) {
            if *i > n || (*i == n && *p > 0) {
                *i = n + 1;
            }
        }
        let mut ranks: Vec<u32> = int
            .iter()
            .zip(&positions)
            .filter(|(i, p)| **i <= n && **p > 0)
            .map(|(_, p)| *p)
            .collect();
        ranks.sort_unstable();
        ranks.dedup();
        let frac = int
            .iter()
            .zip(&positions)
            .map(|(i, p)| {
                if *i > n || *p == 0 {
                    0
                } else {
                    ranks
                        .iter()
                        .position(|r| r == p)
                        .map_or(0, |x| x as u32 + 1)
                }
            })
            .collect();
        Region { int, frac }
    }

    /// Intv(n) index of clock `c`: `[i,i]` is `2i`, `(i,i+1)` is `2i+1`, `(n,ω)` is `2n+1`.
    fn interval(&self, c: usize, n: i32) -> usize {
        if self.top(c, n) {
            return 2 * n as usize + 1;
        }
        let i = self.int.get(c).copied().unwrap_or(0).max(0) as usize;
        2 * i + usize::from(self.frac.get(c).is_some_and(|&f| f > 0))
    }

    /// The time successor, `None` when every clock is above `n`.
    fn successor(&self, n: i32) -> Option<Region> {
        let clocks = self.int.len();
        let running: Vec<usize> = (0..clocks).filter(|&c| !self.top(c, n)).collect();
        if running.is_empty() {
            return None;
        }
        let mut int = self.int.clone();
        let mut pos = self.frac.clone();
        if running.iter().any(|&c| self.frac.get(c) == Some(&0)) {
            // the integral clocks leave their integer, ahead of nobody
            for &c in &running {
                if let Some(p) = pos.get_mut(c) {
                    *p += 1;
                }
            }
        } else {
            let last = running
                .iter()
                .filter_map(|&c| self.frac.get(c))
                .max()
                .copied()
                .unwrap_or(0);
            for &c in &running {
                if self.frac.get(c) == Some(&last) {
                    if let (Some(i), Some(p)) = (int.get_mut(c), pos.get_mut(c)) {
                        *i += 1;
                        *p = 0;
                    }
                }
            }
        }
        Some(Region::normalized(int, pos, n))
    }

    /// Every region reachable by letting time pass (this one included).
    fn future(&self, n: i32) -> Vec<Region> {
        let mut out = vec![self.clone()];
        while let Some(next) = out.last().and_then(|r| r.successor(n)) {
            out.push(next);
        }
        out
    }

    fn holds(&self, c: usize, a: &NetaAtom, n: i32) -> bool {
        let v = a.value;
        if self.top(c, n) {
            return matches!(a.cmp, Cmp::Gt | Cmp::Ge) || v > n;
        }
        let i = self.int.get(c).copied().unwrap_or(0);
        let zero = self.frac.get(c) == Some(&0);
        match a.cmp {
            Cmp::Lt => i < v,
            Cmp::Le => i < v || (zero && i == v),
            Cmp::Eq => zero && i == v,
            Cmp::Ge => i >= v,
            Cmp::Gt => i > v || (!zero && i == v),
        }
    }

    fn assign(&self, dst: usize, int: i32, frac: Option<u32>, n: i32) -> Region {
        let mut ints = self.int.clone();
        let mut pos: Vec<u32> = self.frac.iter().map(|f| 2 * f).collect();
        if let (Some(i), Some(p)) = (ints.get_mut(dst), pos.get_mut(dst)) {
            *i = int;
            *p = frac.map_or(0, |f| 2 * f);
        }
        Region::normalized(ints, pos, n)
    }

    /// The regions after adding one duration of interval `iv` to clock `z` alone.
    fn shift_one(&self, z: usize, iv: usize, n: i32) -> Vec<Region> {
        let top = 2 * n as usize + 1;
        if self.top(z, n) {
            return vec![self.clone()];
        }
        let zi = self.int.get(z).copied().unwrap_or(0);
        let zf = self.frac.get(z).copied().unwrap_or(0);
        let groups = (0..self.int.len())
            .filter(|&c| !self.top(c, n))
            .filter_map(|c| self.frac.get(c))
            .max()
            .copied()
            .unwrap_or(0);
        let class = |d: i32, offset: i32| -> Option<usize> {
            // d + offset·ε with ε ∈ (0,1): offset 0 exact, 1 just above, −1 just below
            let (base, open) = match offset {
                0 => (d, false),
                1 => (d, true),
                _ => (d - 1, true),
            };
            if base < 0 {
                return None;
            }
            Some(if base > n || (base == n && open) {
                top
            } else {
                2 * base as usize + usize::from(open)
            })
        };
        let mut out = Vec::new();
        // above n: possible when the interval reaches beyond n − z
        let reach_beyond = match iv {
            i if i == top => true,
            i => {
                let hi = (i / 2) as i32 + i32::from(!i.is_multiple_of(2));
                zi + hi > n || (zi + hi == n && zf > 0)
            }
        };
        if reach_beyond {
            let mut ints = self.int.clone();
            if let Some(x) = ints.get_mut(z) {
                *x = n + 1;
            }
            out.push(Region::normalized(
                ints,
                self.frac.iter().map(|f| 2 * f).collect(),
                n,
            ));
        }
        for j in 0..=n {
            for p in 0..=(2 * groups + 1) {
                if j == n && p > 0 {
                    continue;
                }
                let offset = (p as i64 - 2 * i64::from(zf)).signum() as i32;
                if class(j - zi, offset) != Some(iv) {
                    continue;
                }
                let mut ints = self.int.clone();
                let mut pos: Vec<u32> = self.frac.iter().map(|f| 2 * f).collect();
                if let (Some(x), Some(q)) = (ints.get_mut(z), pos.get_mut(z)) {
                    *x = j;
                    *q = p;
                }
                out.push(Region::normalized(ints, pos, n));
            }
        }
        out.sort_by(|a, b| (&a.int, &a.frac).cmp(&(&b.int, &b.frac)));
        out.dedup();
        out
    }

    /// The regions after adding one duration of interval `iv` to every clock (a fresh clock
    /// measures the delay).
    fn shift_all(&self, iv: usize, n: i32) -> Vec<Region> {
        let t = self.int.len();
        let mut with = self.clone();
        with.int.push(0);
        with.frac.push(0);
        let mut out: Vec<Region> = with
            .future(n)
            .into_iter()
            .filter(|r| r.interval(t, n) == iv)
            .map(|r| {
                let mut int = r.int;
                let mut frac = r.frac;
                int.truncate(t);
                frac.truncate(t);
                Region::normalized(int, frac, n)
            })
            .collect();
        out.sort_by(|a, b| (&a.int, &a.frac).cmp(&(&b.int, &b.frac)));
        out.dedup();
        out
    }
}

fn parse_interval(s: &str, n: i32) -> Option<usize> {
    let inner = s.get(1..s.len().checked_sub(1)?)?;
    let (a, b) = inner.split_once(',')?;
    let a: i32 = a.parse().ok()?;
    match (s.starts_with('['), s.ends_with(']'), b) {
        (true, true, b) => {
            (b.parse::<i32>().ok()? == a && (0..=n).contains(&a)).then(|| 2 * a as usize)
        }
        (false, false, "ω") => (a == n).then(|| 2 * n as usize + 1),
        (false, false, b) => {
            (b.parse::<i32>().ok()? == a + 1 && (0..n).contains(&a)).then(|| 2 * a as usize + 1)
        }
        _ => None,
    }
}

struct Checker<'a> {
    net: &'a Neta,
    n: i32,
    k: usize,
    labels: &'a [u32],
    returns: FxHashMap<(usize, usize, u32), Vec<bool>>,
    targets: FxHashMap<usize, Vec<bool>>,
}

impl Checker<'_> {
    fn claimed(set: Option<&Vec<bool>>, i: usize) -> bool {
        set.and_then(|s| s.get(i)).copied().unwrap_or(false)
    }

    fn local(&self, c: NetaClock) -> Option<usize> {
        match c {
            NetaClock::Local(x) if x < self.k => Some(x),
            _ => None,
        }
    }

    fn invariant(&self, a: usize, q: u32, r: &Region) -> bool {
        self.net.location(a, q).is_some_and(|l| {
            l.local_inv
                .iter()
                .all(|at| self.local(at.clock).is_some_and(|c| r.holds(c, at, self.n)))
        })
    }

    fn name(&self, a: usize, q: Option<u32>) -> String {
        let aut = self.net.automata.get(a);
        match (aut, q) {
            (Some(x), Some(q)) => format!(
                "{}.{}",
                x.name,
                x.locations.get(q as usize).map_or("?", |l| l.name.as_str())
            ),
            (Some(x), None) => x.name.clone(),
            _ => "?".into(),
        }
    }

    /// Explores automaton `a` from its entry; returns the automata it calls.
    fn explore(
        &self,
        a: usize,
        ticker: &mut verikit_diag::Ticker<'_>,
    ) -> Result<Vec<usize>, CertificateError> {
        let n = self.n;
        let z = self.k;
        let interval_name = |i: usize| {
            let b = (i / 2) as i32;
            if i == 2 * n as usize + 1 {
                format!("({n},ω)")
            } else if i.is_multiple_of(2) {
                format!("[{b},{b}]")
            } else {
                format!("({b},{})", b + 1)
            }
        };
        let reject = |what: String| Err(CertificateError::Rejected(what));
        let mut callees = Vec::new();
        let Some(init) = self.net.automata.get(a).map(|x| x.initial) else {
            return Ok(callees);
        };
        let start = Region::zero(self.k + 1);
        if !self.invariant(a, init, &start) {
            return Ok(callees);
        }
        let mut seen: FxHashSet<(u32, Region)> = FxHashSet::default();
        let mut work = vec![(init, start)];
        while let Some((q, r)) = work.pop() {
            if !self.invariant(a, q, &r) || !seen.insert((q, r.clone())) {
                continue;
            }
            ticker.tick().map_err(CertificateError::Exhausted)?;
            let here = r.interval(z, n);
            if neta_is_target(self.net, (a, q), self.labels)
                && !Self::claimed(self.targets.get(&a), here)
            {
                return reject(format!(
                    "{} reaches a target at {} after {}, not in R({})",
                    self.name(a, None),
                    self.name(a, Some(q)),
                    interval_name(here),
                    self.name(a, None)
                ));
            }
            if let Some(next) = r.successor(n) {
                work.push((q, next));
            }
            for e in self.net.edges.iter().filter(|e| (e.aut, e.src) == (a, q)) {
                let mut w = r.clone();
                let mut alive = true;
                let mut call = None;
                for op in &e.ops {
                    alive &= match *op {
                        NetaOp::Test(at) => {
                            self.local(at.clock).is_some_and(|c| w.holds(c, &at, n))
                        }
                        NetaOp::Reset(c) => self.local(c).is_some_and(|c| {
                            w = w.assign(c, 0, None, n);
                            true
                        }),
                        NetaOp::Copy { dst, src } => match (self.local(dst), self.local(src)) {
                            (Some(d), Some(s)) => {
                                let (i, f) = (w.int.get(s).copied(), w.frac.get(s).copied());
                                w = w.assign(d, i.unwrap_or(0), f, n);
                                true
                            }
                            _ => false,
                        },
                        other => {
                            call = Some(other);
                            true
                        }
                    };
                    if !alive {
                        break;
                    }
                }
                if !alive {
                    continue;
                }
                match call {
                    None => work.push((e.tgt, w)),
                    Some(NetaOp::Pop) => {
                        let i = w.interval(z, n);
                        if !Self::claimed(self.returns.get(&(a, e.tgt_aut, e.tgt)), i) {
                            return reject(format!(
                                "{} pops to {} after {}, not in S({}, {})",
                                self.name(a, None),
                                self.name(e.tgt_aut, Some(e.tgt)),
                                interval_name(i),
                                self.name(a, None),
                                self.name(e.tgt_aut, Some(e.tgt))
                            ));
                        }
                    }
                    Some(op) => {
                        if !self.invariant(a, q, &w) {
                            continue;
                        }
                        let callee = e.tgt_aut;
                        callees.push(callee);
                        let frozen = op == NetaOp::FPush;
                        let shift = |i: usize| {
                            if frozen {
                                w.shift_one(z, i, n)
                            } else {
                                w.shift_all(i, n)
                            }
                        };
                        let width = 2 * n as usize + 2;
                        for i in 0..width {
                            if Self::claimed(self.returns.get(&(callee, a, q)), i) {
                                for v in shift(i) {
                                    work.push((q, v));
                                }
                            }
                            if Self::claimed(self.targets.get(&callee), i) {
                                for v in shift(i) {
                                    let d = v.interval(z, n);
                                    if self.invariant(a, q, &v)
                                        && !Self::claimed(self.targets.get(&a), d)
                                    {
                                        return reject(format!(
                                            "a call of {} from {} pending under a target ends {} after entry, not in R({})",
                                            self.name(callee, None),
                                            self.name(a, Some(q)),
                                            interval_name(d),
                                            self.name(a, None)
                                        ));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        Ok(callees)
    }
}

/// Checks that `cert` (with its largest constant `max_constant`) proves that no configuration
/// whose working location carries all `labels` is reachable in `net`: the claimed summaries are
/// closed under the rules and `R(A0)` is empty (see the module documentation).
pub fn check_neta_certificate(
    net: &Neta,
    labels: &[u32],
    max_constant: i32,
    cert: &NetaSummaries,
    budget: &Budget,
) -> Result<(), CertificateError> {
    let rejected = |s: String| Err(CertificateError::Rejected(s));
    if !net.globals.is_empty() {
        return rejected("the model has global clocks: no summary certificate applies".into());
    }
    let n = net.max_constant();
    if n != max_constant {
        return rejected(format!(
            "the certificate is over Intv({max_constant}), the model's largest constant is {n}"
        ));
    }
    let width = 2 * n as usize + 2;
    let bits = |names: &[String]| -> Result<Vec<bool>, CertificateError> {
        let mut v = vec![false; width];
        for s in names {
            match parse_interval(s, n).and_then(|i| v.get_mut(i)) {
                Some(b) => *b = true,
                None => {
                    return Err(CertificateError::Rejected(format!(
                        "`{s}` is not an interval of Intv({n})"
                    )))
                }
            }
        }
        Ok(v)
    };
    let mut returns = FxHashMap::default();
    for (key, names) in &cert.returns {
        returns.insert(*key, bits(names)?);
    }
    let mut targets = FxHashMap::default();
    for (a, names) in &cert.targets {
        targets.insert(*a, bits(names)?);
    }
    if targets.get(&0).is_some_and(|t| t.iter().any(|&b| b)) {
        return rejected("R(A0) is not empty: the certificate claims a target reachable".into());
    }
    let checker = Checker {
        net,
        n,
        k: net.locals.len(),
        labels,
        returns,
        targets,
    };
    let mut ticker = budget.ticker(256);
    let mut done = vec![false; net.automata.len()];
    let mut todo = vec![0usize];
    while let Some(a) = todo.pop() {
        match done.get_mut(a) {
            Some(d) if !*d => *d = true,
            _ => continue,
        }
        todo.extend(checker.explore(a, &mut ticker)?);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_round_trip() {
        for (s, i) in [("[0,0]", 0), ("(0,1)", 1), ("[2,2]", 4), ("(2,ω)", 5)] {
            assert_eq!(parse_interval(s, 2), Some(i), "{s}");
        }
        for s in ["[1,2]", "(2,3)", "(1,ω)", "[3,3]", "", "(", "[a,a]"] {
            assert_eq!(parse_interval(s, 2), None, "{s}");
        }
    }

    #[test]
    fn regions_delay_in_order_of_fractional_parts() {
        // x = 0, z = 0 with n = 1: 0 → (0,1) → 1 → above 1
        let r = Region::zero(2);
        let f = r.future(1);
        let z: Vec<usize> = f.iter().map(|r| r.interval(1, 1)).collect();
        assert_eq!(z, vec![0, 1, 2, 3]);
        // shifting z alone by (0,1) from 0 gives (0,1) with x still 0
        let s = r.shift_one(1, 1, 1);
        assert_eq!(s.len(), 1);
        assert_eq!((s[0].interval(0, 1), s[0].interval(1, 1)), (0, 1));
        // shifting both by [1,1] from 0 gives 1, 1
        let s = r.shift_all(2, 1);
        assert_eq!(s.len(), 1);
        assert_eq!((s[0].interval(0, 1), s[0].interval(1, 1)), (2, 2));
    }
}
