//! An independent DRAT proof checker: backward checking with reverse unit propagation (RUP) and
//! resolution asymmetric tautologies (RAT), core-first, as `drat-trim` does (Wetzler, Heule, Hunt,
//! *DRAT-trim: Efficient checking and trimming using expressive clausal proofs*, SAT 2014, §3–4).
//! It shares nothing with the CDCL core beyond the clause type: its own clause store, watches and
//! propagation.
//!
//! Forward, the proof's additions and deletions are replayed up to the first empty clause (or the
//! end) and the final formula must be refuted by unit propagation. Backward, each addition is
//! undone and — only if the refutation so far used it (it is *marked*) — checked: RUP (assign the
//! negation of the lemma and propagate to a conflict) or else RAT on its first literal (every
//! resolvent with a clause containing the negated pivot is RUP). Propagation prefers marked
//! clauses (core-first), and every clause in a conflict's implication graph is marked. The marked
//! original clauses are an unsatisfiable core; the marked lemmas with the clauses their checks
//! used ([`DratCheck::antecedents`]) form a clause-implication graph of the refutation.

use crate::cdcl::Lit;
use std::collections::HashMap;
use verikit_diag::{Budget, Diagnostic, Exhausted, Span};

/// One proof step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Add(Vec<Lit>),
    Delete(Vec<Lit>),
}

/// A clause of the checked refutation: an original clause (its index in the formula) or a lemma
/// (its index in the proof's steps).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ClauseRef {
    Original(usize),
    Lemma(usize),
}

/// A verified refutation.
#[derive(Clone, Debug, Default)]
pub struct DratCheck {
    /// Indices of the original clauses the refutation uses (an unsatisfiable core), ascending.
    pub core: Vec<usize>,
    /// The used lemmas in proof order (step index), each with the clauses its RUP/RAT check used.
    pub antecedents: Vec<(usize, Vec<ClauseRef>)>,
    /// The clauses of the final conflict (the empty clause's antecedents).
    pub sink: Vec<ClauseRef>,
    /// Lemmas in the proof (additions before the empty clause) and how many were checked.
    pub lemmas: usize,
    pub checked: usize,
    /// Lemmas that needed the RAT check.
    pub rat: usize,
}

/// Why a proof was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DratError {
    /// The formula plus all lemmas is not refuted by unit propagation.
    NoConflict,
    /// Lemma at this step index is neither RUP nor RAT.
    NotImplied(usize),
    Exhausted(Exhausted),
}

impl std::fmt::Display for DratError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DratError::NoConflict => write!(f, "the proof does not derive the empty clause"),
            DratError::NotImplied(i) => write!(f, "proof step {} is neither RUP nor RAT", i + 1),
            DratError::Exhausted(e) => write!(f, "proof check stopped: {e:?}"),
        }
    }
}

/// Reads a DRAT proof, text or binary (detected: binary when the first bytes hold something other
/// than digits, `-`, `d`, `c` and white space). Errors give a line/column (text) or byte offset.
pub fn parse_drat(bytes: &[u8]) -> Result<Vec<Step>, Diagnostic> {
    let binary = bytes.first() == Some(&b'a')
        || (bytes.first() == Some(&b'd') && bytes.get(1).is_some_and(|b| !b.is_ascii_whitespace()))
        || bytes
            .iter()
            .take(16)
            .any(|&b| !(b.is_ascii_graphic() || b.is_ascii_whitespace()));
    if binary {
        parse_binary(bytes)
    } else {
        parse_text(bytes)
    }
}

fn lit_of(n: i64, at: usize, len: usize) -> Result<Lit, Diagnostic> {
    let v = n.unsigned_abs();
    match u32::try_from(v - 1) {
        Ok(var) if var < crate::dimacs::MAX_VARS => Ok(Lit::new(var, n < 0)),
        _ => Err(Diagnostic::error(format!("literal {n} is out of range"))
            .with_span(Span::new(at, at + len), "here")),
    }
}

fn parse_text(bytes: &[u8]) -> Result<Vec<Step>, Diagnostic> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        Diagnostic::error("the proof is neither text nor binary DRAT")
            .with_span(Span::point(e.valid_up_to()), "here")
    })?;
    let mut steps = Vec::new();
    let mut cur: Vec<Lit> = Vec::new();
    let mut delete = false;
    let mut start: Option<usize> = None;
    let mut offset = 0usize;
    for raw in text.split_inclusive('\n') {
        let base = offset;
        offset += raw.len();
        if raw.trim_start().starts_with('c') {
            continue;
        }
        let mut pos = 0usize;
        for tok in raw.split_ascii_whitespace() {
            let rel = raw[pos..].find(tok).map_or(pos, |r| r + pos);
            pos = rel + tok.len();
            let at = base + rel;
            if tok == "d" {
                if start.is_some() {
                    return Err(Diagnostic::error("`d` inside a clause")
                        .with_span(Span::new(at, at + 1), "here"));
                }
                delete = true;
                start = Some(at);
                continue;
            }
            let n: i64 = tok.parse().map_err(|_| {
                Diagnostic::error(format!("`{tok}` is not a literal"))
                    .with_span(Span::new(at, at + tok.len()), "here")
            })?;
            start.get_or_insert(at);
            if n == 0 {
                let c = std::mem::take(&mut cur);
                steps.push(if delete {
                    Step::Delete(c)
                } else {
                    Step::Add(c)
                });
                delete = false;
                start = None;
            } else {
                cur.push(lit_of(n, at, tok.len())?);
            }
        }
    }
    if let Some(at) = start {
        return Err(
            Diagnostic::error("last proof step is not terminated by `0`")
                .with_span(Span::new(at, offset), "this step"),
        );
    }
    Ok(steps)
}

fn parse_binary(bytes: &[u8]) -> Result<Vec<Step>, Diagnostic> {
    let mut steps = Vec::new();
    let mut i = 0usize;
    while i < bytes.len() {
        let at = i;
        let delete = match bytes.get(i) {
            Some(b'a') => false,
            Some(b'd') => true,
            _ => {
                return Err(Diagnostic::error("binary DRAT: expected `a` or `d`")
                    .with_span(Span::new(at, at + 1), "here"))
            }
        };
        i += 1;
        let mut c = Vec::new();
        loop {
            let lit_at = i;
            let mut u: u64 = 0;
            let mut shift = 0u32;
            loop {
                let Some(&b) = bytes.get(i) else {
                    return Err(Diagnostic::error("binary DRAT: truncated step")
                        .with_span(Span::new(at, bytes.len()), "this step"));
                };
                i += 1;
                if shift > 35 {
                    return Err(Diagnostic::error("binary DRAT: literal too large")
                        .with_span(Span::new(lit_at, i), "here"));
                }
                u |= u64::from(b & 127) << shift;
                shift += 7;
                if b & 128 == 0 {
                    break;
                }
            }
            if u == 0 {
                break;
            }
            if u < 2 {
                return Err(Diagnostic::error("binary DRAT: literal 0 with a sign")
                    .with_span(Span::new(lit_at, i), "here"));
            }
            let n = (u >> 1) as i64;
            c.push(lit_of(if u & 1 == 1 { -n } else { n }, lit_at, i - lit_at)?);
        }
        steps.push(if delete {
            Step::Delete(c)
        } else {
            Step::Add(c)
        });
    }
    Ok(steps)
}

struct Clause {
    lits: Vec<Lit>,
    active: bool,
    marked: bool,
}

struct Checker {
    clauses: Vec<Clause>,
    watches: Vec<Vec<usize>>,
    units: Vec<usize>,
    /// Per literal index: 1 when true.
    val: Vec<u8>,
    reason: Vec<Option<usize>>,
    trail: Vec<Lit>,
    seen: Vec<bool>,
    /// A clause with no literals is active.
    empty_active: Option<usize>,
}

impl Checker {
    fn value(&self, l: Lit) -> Option<bool> {
        if self.val[l.idx()] == 1 {
            Some(true)
        } else if self.val[(!l).idx()] == 1 {
            Some(false)
        } else {
            None
        }
    }

    fn assign(&mut self, l: Lit, r: Option<usize>) {
        self.val[l.idx()] = 1;
        self.reason[l.var() as usize] = r;
        self.trail.push(l);
    }

    fn activate(&mut self, c: usize) {
        let Some(cl) = self.clauses.get_mut(c) else {
            return;
        };
        cl.active = true;
        match cl.lits.len() {
            0 => self.empty_active = Some(c),
            1 => self.units.push(c),
            _ => {
                let (a, b) = (cl.lits[0], cl.lits[1]);
                self.watches[a.idx()].push(c);
                self.watches[b.idx()].push(c);
            }
        }
    }

    fn deactivate(&mut self, c: usize) {
        if let Some(cl) = self.clauses.get_mut(c) {
            cl.active = false;
            if cl.lits.is_empty() && self.empty_active == Some(c) {
                self.empty_active = None;
            }
        }
    }

    fn reset(&mut self) {
        for l in self.trail.drain(..) {
            self.val[l.idx()] = 0;
            self.reason[l.var() as usize] = None;
        }
    }

    /// Visits the clauses watching `f`, which just became false; core-only skips unmarked ones.
    fn visit(&mut self, f: Lit, core_only: bool) -> Option<usize> {
        let mut ws = std::mem::take(&mut self.watches[f.idx()]);
        let mut i = 0;
        let mut confl = None;
        while i < ws.len() {
            let c = ws[i];
            let cl = &self.clauses[c];
            if !cl.active || (cl.lits[0] != f && cl.lits[1] != f) {
                ws.swap_remove(i);
                continue;
            }
            if core_only && !cl.marked {
                i += 1;
                continue;
            }
            if self.clauses[c].lits[0] == f {
                self.clauses[c].lits.swap(0, 1);
            }
            let first = self.clauses[c].lits[0];
            if self.value(first) == Some(true) {
                i += 1;
                continue;
            }
            let n = self.clauses[c].lits.len();
            let mut moved = false;
            for k in 2..n {
                let l = self.clauses[c].lits[k];
                if self.value(l) != Some(false) {
                    self.clauses[c].lits.swap(1, k);
                    self.watches[l.idx()].push(c);
                    moved = true;
                    break;
                }
            }
            if moved {
                ws.swap_remove(i);
                continue;
            }
            i += 1;
            if self.value(first) == Some(false) {
                confl = Some(c);
                break;
            }
            self.assign(first, Some(c));
        }
        let extra = std::mem::take(&mut self.watches[f.idx()]);
        ws.extend(extra);
        self.watches[f.idx()] = ws;
        confl
    }

    /// Unit clauses, then propagation, marked clauses first.
    fn propagate(&mut self) -> Option<usize> {
        if let Some(c) = self.empty_active {
            return Some(c);
        }
        for pass in [true, false] {
            for k in 0..self.units.len() {
                let c = self.units[k];
                let cl = &self.clauses[c];
                if !cl.active || cl.marked != pass {
                    continue;
                }
                let l = cl.lits[0];
                match self.value(l) {
                    Some(false) => return Some(c),
                    Some(true) => {}
                    None => self.assign(l, Some(c)),
                }
            }
        }
        self.units.retain(|&c| self.clauses[c].active);
        let (mut head_core, mut head_all) = (0usize, 0usize);
        loop {
            while head_core < self.trail.len() {
                let p = self.trail[head_core];
                head_core += 1;
                if let Some(c) = self.visit(!p, true) {
                    return Some(c);
                }
            }
            if head_all < self.trail.len() {
                let p = self.trail[head_all];
                head_all += 1;
                if let Some(c) = self.visit(!p, false) {
                    return Some(c);
                }
                continue;
            }
            return None;
        }
    }

    /// Marks the implication graph of a conflict; returns the clauses in it.
    fn analyze(&mut self, confl: usize, used: &mut Vec<ClauseRef>, n_orig: usize) {
        let to_ref = |c: usize| {
            if c < n_orig {
                ClauseRef::Original(c)
            } else {
                ClauseRef::Lemma(c)
            }
        };
        self.clauses[confl].marked = true;
        used.push(to_ref(confl));
        for l in &self.clauses[confl].lits {
            self.seen[l.var() as usize] = true;
        }
        for i in (0..self.trail.len()).rev() {
            let v = self.trail[i].var() as usize;
            if !self.seen[v] {
                continue;
            }
            self.seen[v] = false;
            if let Some(r) = self.reason[v] {
                self.clauses[r].marked = true;
                used.push(to_ref(r));
                for l in &self.clauses[r].lits {
                    if l.var() as usize != v {
                        self.seen[l.var() as usize] = true;
                    }
                }
            }
        }
        for l in &self.clauses[confl].lits {
            self.seen[l.var() as usize] = false;
        }
    }

    /// Is the clause (with the extra literals) RUP? Marks and records what the check used.
    fn rup(
        &mut self,
        lits: &[Lit],
        extra: &[Lit],
        used: &mut Vec<ClauseRef>,
        n_orig: usize,
    ) -> bool {
        for &l in lits.iter().chain(extra) {
            match self.value(l) {
                Some(true) => {
                    self.reset();
                    return true; // tautology
                }
                Some(false) => {}
                None => self.assign(!l, None),
            }
        }
        let r = match self.propagate() {
            Some(c) => {
                self.analyze(c, used, n_orig);
                true
            }
            None => false,
        };
        self.reset();
        r
    }
}

/// Checks that `steps` refute `clauses` (DIMACS variables `0..num_vars`; proof literals beyond it
/// are extension variables), polling `budget`.
pub fn check_drat(
    num_vars: u32,
    clauses: &[Vec<Lit>],
    steps: &[Step],
    budget: &Budget,
) -> Result<DratCheck, DratError> {
    let n_orig = clauses.len();
    let mut max_var = num_vars;
    for c in clauses.iter().chain(steps.iter().map(|s| match s {
        Step::Add(c) | Step::Delete(c) => c,
    })) {
        for l in c {
            max_var = max_var.max(l.var() + 1);
        }
    }
    let nv = max_var as usize;
    let mut ck = Checker {
        clauses: Vec::with_capacity(n_orig + steps.len()),
        watches: vec![Vec::new(); 2 * nv],
        units: Vec::new(),
        val: vec![0; 2 * nv],
        reason: vec![None; nv],
        trail: Vec::new(),
        seen: vec![false; nv],
        empty_active: None,
    };
    let norm = |c: &[Lit]| -> Option<Vec<Lit>> {
        let mut ls = c.to_vec();
        ls.sort();
        ls.dedup();
        if ls.windows(2).any(|w| w[0] == !w[1]) {
            None
        } else {
            Some(ls)
        }
    };
    let mut by_lits: HashMap<Vec<Lit>, Vec<usize>> = HashMap::new();
    for c in clauses {
        let id = ck.clauses.len();
        match norm(c) {
            Some(ls) => {
                by_lits.entry(ls.clone()).or_default().push(id);
                ck.clauses.push(Clause {
                    lits: ls,
                    active: false,
                    marked: false,
                });
                ck.activate(id);
            }
            None => ck.clauses.push(Clause {
                lits: Vec::new(),
                active: false,
                marked: false,
            }),
        }
    }
    // forward: events (true = addition of clause id, false = deletion), the step of each lemma
    let mut events: Vec<(bool, usize)> = Vec::new();
    let mut step_of: Vec<usize> = Vec::new(); // lemma id - n_orig -> step index
    let mut lemmas = 0usize;
    let mut ticker = budget.ticker(1024);
    for (si, s) in steps.iter().enumerate() {
        match s {
            Step::Add(c) => {
                if c.is_empty() {
                    break;
                }
                lemmas += 1;
                let id = ck.clauses.len();
                step_of.push(si);
                match norm(c) {
                    Some(ls) => {
                        // the pivot (first literal as written) goes first for RAT
                        let mut ls2 = ls.clone();
                        if let Some(p) = ls2.iter().position(|&l| l == c[0]) {
                            ls2.swap(0, p);
                        }
                        by_lits.entry(ls).or_default().push(id);
                        ck.clauses.push(Clause {
                            lits: ls2,
                            active: false,
                            marked: false,
                        });
                        ck.activate(id);
                        events.push((true, id));
                    }
                    None => {
                        ck.clauses.push(Clause {
                            lits: Vec::new(),
                            active: false,
                            marked: false,
                        });
                    }
                }
            }
            Step::Delete(c) => {
                let Some(ls) = norm(c) else { continue };
                if let Some(ids) = by_lits.get_mut(&ls) {
                    if let Some(id) = ids.pop() {
                        ck.deactivate(id);
                        events.push((false, id));
                    }
                }
            }
        }
        ticker.tick().map_err(DratError::Exhausted)?;
    }
    let mut out = DratCheck {
        lemmas,
        ..DratCheck::default()
    };
    let mut sink = Vec::new();
    match ck.propagate() {
        Some(c) => ck.analyze(c, &mut sink, n_orig),
        None => {
            ck.reset();
            return Err(DratError::NoConflict);
        }
    }
    ck.reset();
    out.sink = sink;
    let lemma_step = |c: usize| step_of.get(c - n_orig).copied().unwrap_or(0);
    // backward
    for &(add, id) in events.iter().rev() {
        ticker.tick().map_err(DratError::Exhausted)?;
        if !add {
            ck.activate(id);
            continue;
        }
        ck.deactivate(id);
        if !ck.clauses[id].marked {
            continue;
        }
        out.checked += 1;
        let lits = ck.clauses[id].lits.clone();
        let mut used = Vec::new();
        if !ck.rup(&lits, &[], &mut used, n_orig) {
            // RAT on the pivot
            let Some(&pivot) = lits.first() else {
                return Err(DratError::NotImplied(lemma_step(id)));
            };
            let cands: Vec<usize> = (0..ck.clauses.len())
                .filter(|&d| ck.clauses[d].active && ck.clauses[d].lits.contains(&!pivot))
                .collect();
            for d in cands {
                let rest: Vec<Lit> = ck.clauses[d]
                    .lits
                    .iter()
                    .copied()
                    .filter(|&l| l != !pivot)
                    .collect();
                if !ck.rup(&lits, &rest, &mut used, n_orig) {
                    return Err(DratError::NotImplied(lemma_step(id)));
                }
                ck.clauses[d].marked = true;
                used.push(if d < n_orig {
                    ClauseRef::Original(d)
                } else {
                    ClauseRef::Lemma(d)
                });
            }
            out.rat += 1;
        }
        used.sort();
        used.dedup();
        out.antecedents.push((id, used));
    }
    out.antecedents.reverse();
    // lemma ids → step indices
    let fix = |r: &mut ClauseRef| {
        if let ClauseRef::Lemma(c) = r {
            *c = lemma_step(*c);
        }
    };
    for (id, used) in out.antecedents.iter_mut() {
        *id = lemma_step(*id);
        used.iter_mut().for_each(fix);
    }
    out.sink.sort();
    out.sink.dedup();
    out.sink.iter_mut().for_each(fix);
    out.core = (0..n_orig).filter(|&c| ck.clauses[c].marked).collect();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cdcl, NoTheory, ProofLog, SatResult};
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};

    fn lit(n: i64) -> Lit {
        Lit::new((n.unsigned_abs() - 1) as u32, n < 0)
    }
    fn cls(v: &[&[i64]]) -> Vec<Vec<Lit>> {
        v.iter()
            .map(|c| c.iter().map(|&n| lit(n)).collect())
            .collect()
    }

    fn brute(n: u32, cls: &[Vec<Lit>]) -> bool {
        (0u64..1 << n).any(|m| {
            cls.iter()
                .all(|c| c.iter().any(|l| ((m >> l.var()) & 1 == 1) != l.is_neg()))
        })
    }

    /// Solves with a proof; on Unsat returns the proof bytes, on Sat checks the model.
    fn solve(n: u32, cs: &[Vec<Lit>], binary: bool, max_learnts: usize) -> (SatResult, Vec<u8>) {
        let mut s = Cdcl::new();
        s.set_max_learnts(max_learnts);
        s.set_proof(ProofLog::in_memory(binary));
        for _ in 0..n {
            s.new_var();
        }
        for c in cs {
            s.add_clause(&mut NoTheory, c);
        }
        let r = s.solve(&mut NoTheory, &[]);
        if r == SatResult::Sat {
            assert!(cs
                .iter()
                .all(|c| c.iter().any(|&l| s.value(l) == Some(true))));
        }
        let proof = s
            .take_proof()
            .map(|p| p.finish().unwrap())
            .unwrap_or_default();
        (r, proof)
    }

    fn random_3cnf(seed: u64, n: u32, m: usize) -> Vec<Vec<Lit>> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        (0..m)
            .map(|_| {
                (0..3)
                    .map(|_| Lit::new(rng.gen_range(0..n), rng.gen_bool(0.5)))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn checks_text_and_binary_proofs_of_pigeonhole() {
        // 5 pigeons, 4 holes: p(i,j) = 4i + j + 1
        let mut cs = Vec::new();
        for i in 0..5 {
            cs.push(
                (0..4)
                    .map(|j| Lit::new(4 * i + j, false))
                    .collect::<Vec<_>>(),
            );
        }
        for j in 0..4 {
            for a in 0..5 {
                for b in a + 1..5 {
                    cs.push(vec![Lit::new(4 * a + j, true), Lit::new(4 * b + j, true)]);
                }
            }
        }
        for binary in [false, true] {
            let (r, proof) = solve(20, &cs, binary, 4000);
            assert_eq!(r, SatResult::Unsat);
            let steps = parse_drat(&proof).unwrap();
            let ck = check_drat(20, &cs, &steps, &Budget::unlimited()).unwrap();
            assert!(ck.checked > 0);
            assert!(!brute(
                20,
                &ck.core.iter().map(|&i| cs[i].clone()).collect::<Vec<_>>()
            ));
        }
    }

    #[test]
    fn proofs_with_deletions_check() {
        // an unsatisfiable random 3-CNF large enough for clause-database reductions
        let mut found = false;
        for seed in 0..20 {
            let cs = random_3cnf(seed, 110, 490);
            let (r, proof) = solve(110, &cs, seed % 2 == 0, 20);
            if r == SatResult::Unsat {
                let steps = parse_drat(&proof).unwrap();
                if steps.iter().any(|s| matches!(s, Step::Delete(_))) {
                    found = true;
                }
                check_drat(110, &cs, &steps, &Budget::unlimited()).unwrap();
                if found {
                    break;
                }
            }
        }
        assert!(found, "no proof with deletions");
    }

    #[test]
    fn rat_lemmas_are_accepted_and_wrong_lemmas_rejected() {
        // (1∨2)(¬1∨2)(1∨¬2)(¬1∨¬2): a RAT lemma over a fresh variable 3 ↔ (1 ∧ 2)
        let cs = cls(&[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2]]);
        let proof = b"-3 1 0\n-3 2 0\n3 -1 -2 0\n1 0\n0\n";
        let ck = check_drat(2, &cs, &parse_drat(proof).unwrap(), &Budget::unlimited()).unwrap();
        assert_eq!(ck.core, vec![0, 1, 2, 3]);
        // RAT-only lemma: 3 is fresh, "-3 1" has no RUP proof
        let proof = b"-3 1 0\n1 0\n0\n";
        let ck = check_drat(2, &cs, &parse_drat(proof).unwrap(), &Budget::unlimited()).unwrap();
        assert_eq!(ck.rat, 0); // only "1" was used, which is RUP
                               // a lemma that is not implied: "1" alone from (1∨2)(¬1∨2)
        let sat = cls(&[&[1, 2], &[-1, 2], &[-2, 3]]);
        let bad = b"-2 0\n0\n";
        assert_eq!(
            check_drat(3, &sat, &parse_drat(bad).unwrap(), &Budget::unlimited()).unwrap_err(),
            DratError::NotImplied(0)
        );
        assert_eq!(
            check_drat(
                3,
                &sat,
                &parse_drat(b"2 0\n").unwrap(),
                &Budget::unlimited()
            )
            .unwrap_err(),
            DratError::NoConflict
        );
        // deleting a needed clause breaks the proof
        let proof = b"d 1 2 0\n2 0\n0\n";
        assert!(check_drat(2, &cs, &parse_drat(proof).unwrap(), &Budget::unlimited()).is_err());
        // a RAT lemma that is needed: x3 defined, then used
        let cs2 = cls(&[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2]]);
        let proof = b"3 0\n1 0\n0\n";
        let ck = check_drat(2, &cs2, &parse_drat(proof).unwrap(), &Budget::unlimited()).unwrap();
        assert!(ck.checked >= 1);
    }

    #[test]
    fn needed_rat_lemma_is_checked_by_rat() {
        // (¬1∨2)(2∨3)(2∨¬3)(¬2∨4)(¬2∨¬4): unsatisfiable, nothing propagates at the top.
        // Lemma "1": not RUP (¬1 propagates nothing), RAT on 1 (the resolvent "2" with (¬1∨2)
        // is RUP); the final conflict needs it (1 → 2 → 4, ¬4).
        let f = cls(&[&[-1, 2], &[2, 3], &[2, -3], &[-2, 4], &[-2, -4]]);
        let ck = check_drat(
            4,
            &f,
            &parse_drat(b"1 0\n0\n").unwrap(),
            &Budget::unlimited(),
        )
        .unwrap();
        assert_eq!((ck.checked, ck.rat), (1, 1));
        assert_eq!(ck.core, vec![0, 1, 2, 3, 4]);
        // Without (2∨¬3) the resolvent "2" is not RUP: "1" is neither RUP nor RAT.
        let g = cls(&[&[-1, 2], &[2, 3], &[-2, 4], &[-2, -4]]);
        assert_eq!(
            check_drat(
                4,
                &g,
                &parse_drat(b"1 0\n0\n").unwrap(),
                &Budget::unlimited()
            )
            .unwrap_err(),
            DratError::NotImplied(0)
        );
    }

    #[test]
    fn drat_reader_is_total_and_located() {
        verikit_testkit::assert_parser_total(
            &["1 -2 0\nd 1 -2 0\n0\n", "c x\n-1 0\n"],
            3000,
            |t| parse_drat(t.as_bytes()),
        );
        let e = parse_drat(b"1 x 0\n").unwrap_err();
        let f = verikit_diag::SourceFile::new("p.drat", "1 x 0\n");
        assert_eq!(e.location(&f).unwrap_or_default(), "p.drat:1:3");
        assert!(parse_drat(b"1 2").is_err());
        assert!(parse_drat(b"a\x02\x05").is_err());
        assert_eq!(
            parse_drat(b"a\x02\x05\x00d\x02\x00").unwrap(),
            vec![Step::Add(vec![lit(1), lit(-2)]), Step::Delete(vec![lit(1)])]
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(120))]
        #[test]
        fn random_3cnf_near_threshold(seed in 0u64..100_000, binary in any::<bool>()) {
            let n = 12;
            let cs = random_3cnf(seed, n, 52);
            let (r, proof) = solve(n, &cs, binary, 4000);
            prop_assert_eq!(r == SatResult::Sat, brute(n, &cs));
            if r == SatResult::Unsat {
                let steps = parse_drat(&proof).unwrap();
                let ck = check_drat(n, &cs, &steps, &Budget::unlimited());
                prop_assert!(ck.is_ok(), "{:?}", ck.err());
                let core: Vec<Vec<Lit>> = ck.unwrap().core.iter().map(|&i| cs[i].clone()).collect();
                prop_assert!(!brute(n, &core));
            }
        }
    }
}
