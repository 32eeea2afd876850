//! Explicit-state construction: breadth-first exploration of the reachable states of a resolved
//! PRISM program (PRISM manual, "Synchronisation", "DTMCs/CTMCs/MDPs" semantics): unlabelled
//! commands interleave, labelled commands synchronise across every module whose alphabet has the
//! action (probabilities multiply; rates multiply for CTMCs); in a DTMC several enabled choices are
//! combined uniformly, in a CTMC their rates add. States are packed into words and interned in an
//! open-addressing hash table; transitions go straight into compressed sparse rows.

use crate::error::ProbError;
use crate::lang::ast::ModelType;
use crate::lang::expr::CExpr;
use crate::lang::typecheck::{CProb, Program, STerm};
use crate::model::{Layout, Model};
use verikit_diag::{Budget, Diagnostic, Span};

#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Add self-loops to deadlock states (as PRISM does by default) instead of failing.
    pub fix_deadlocks: bool,
    pub max_states: usize,
    /// Polled once per explored state (deadline, cancellation, work: one unit per state).
    /// Also told the number of states explored and found (`budget.progress()`).
    pub budget: Budget,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            fix_deadlocks: true,
            max_states: (u32::MAX - 2) as usize,
            budget: Budget::unlimited(),
        }
    }
}

/// A reward value as PRISM accepts it: finite and non-negative; otherwise an error located at
/// the reward's expression.
fn checked_reward(x: f64, span: Span, prog: &Program, cur: &[i64]) -> Result<f64, ProbError> {
    if x.is_finite() && x >= 0.0 {
        return Ok(x);
    }
    let what = if x.is_nan() {
        "NaN"
    } else if x.is_infinite() {
        "not finite"
    } else {
        "negative"
    };
    Err(ProbError::Input(
        Diagnostic::at(
            span,
            format!(
                "reward evaluates to {x} ({what}) in state {}: rewards must be finite and \
                 non-negative (as in PRISM)",
                describe_state(prog, cur)
            ),
        )
        .with_span(span, "this reward"),
    ))
}

/// Checks the state rewards of every structure in the state `cur` (items with a constant
/// valid value are skipped by the caller's `needs_check`).
fn check_state_rewards(
    prog: &Program,
    needs_check: &[(usize, usize)],
    cur: &[i64],
    s: usize,
) -> Result<(), ProbError> {
    for &(r, i) in needs_check {
        let (Some((g, v)), Some(&sp)) = (
            prog.rewards[r].state.get(i),
            prog.rewards[r].state_spans.get(i),
        ) else {
            continue;
        };
        if g.eval_bool(cur, s)? {
            checked_reward(v.eval_f64(cur, s)?, sp, prog, cur)?;
        }
    }
    Ok(())
}

/// Interning of packed states.
struct StateTable {
    words: usize,
    states: Vec<u64>,
    table: Vec<u32>,
    mask: usize,
    len: usize,
}

const EMPTY: u32 = u32::MAX;

impl StateTable {
    fn new(words: usize) -> Self {
        StateTable {
            words,
            states: Vec::new(),
            table: vec![EMPTY; 1 << 12],
            mask: (1 << 12) - 1,
            len: 0,
        }
    }
    fn hash(key: &[u64]) -> usize {
        let mut h: u64 = 0x243f_6a88_85a3_08d3;
        for &w in key {
            h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            h ^= h >> 29;
        }
        h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        (h ^ (h >> 32)) as usize
    }
    /// Index of `key`, inserting it if new; the flag says whether it was new.
    fn intern(&mut self, key: &[u64]) -> (u32, bool) {
        if (self.len + 1) * 2 > self.table.len() {
            self.grow();
        }
        let w = self.words;
        let mut i = Self::hash(key) & self.mask;
        loop {
            let e = self.table[i];
            if e == EMPTY {
                let ix = self.len as u32;
                self.table[i] = ix;
                self.states.extend_from_slice(key);
                self.len += 1;
                return (ix, true);
            }
            let off = e as usize * w;
            if &self.states[off..off + w] == key {
                return (e, false);
            }
            i = (i + 1) & self.mask;
        }
    }
    /// Re-inserts every state (after their encoding changed), keeping the capacity.
    fn rehash(&mut self) {
        let w = self.words;
        self.table.iter_mut().for_each(|e| *e = EMPTY);
        for ix in 0..self.len {
            let mut i = Self::hash(&self.states[ix * w..(ix + 1) * w]) & self.mask;
            while self.table[i] != EMPTY {
                i = (i + 1) & self.mask;
            }
            self.table[i] = ix as u32;
        }
    }
    fn grow(&mut self) {
        let cap = self.table.len() * 2;
        let mut table = vec![EMPTY; cap];
        let mask = cap - 1;
        let w = self.words;
        for ix in 0..self.len {
            let mut i = Self::hash(&self.states[ix * w..(ix + 1) * w]) & mask;
            while table[i] != EMPTY {
                i = (i + 1) & mask;
            }
            table[i] = ix as u32;
        }
        self.table = table;
        self.mask = mask;
    }
}

/// A guard split into conjuncts: `var op constant` atoms (checked first, cheaply) and the rest.
struct FastGuard {
    atoms: Vec<(u32, u8, i64)>,
    rest: Vec<CExpr>,
}

const OP_EQ: u8 = 0;
const OP_NE: u8 = 1;
const OP_LT: u8 = 2;
const OP_LE: u8 = 3;
const OP_GT: u8 = 4;
const OP_GE: u8 = 5;

impl FastGuard {
    fn new(e: &CExpr) -> FastGuard {
        let mut g = FastGuard {
            atoms: Vec::new(),
            rest: Vec::new(),
        };
        g.split(e);
        g
    }
    fn split(&mut self, e: &CExpr) {
        use crate::lang::ast::{BinOp, UnOp};
        use crate::lang::expr::Value;
        match e {
            CExpr::Binary(BinOp::And, a, b, _) => {
                self.split(a);
                self.split(b);
            }
            CExpr::Const(v) if v.as_bool() => {}
            CExpr::Var(v) => self.atoms.push((*v, OP_NE, 0)),
            CExpr::Unary(UnOp::Not, a) if matches!(**a, CExpr::Var(_)) => {
                if let CExpr::Var(v) = **a {
                    self.atoms.push((v, OP_EQ, 0));
                }
            }
            CExpr::Binary(op, a, b, _) => {
                let code = |op: &BinOp, flip: bool| -> Option<u8> {
                    Some(match (op, flip) {
                        (BinOp::Eq, _) => OP_EQ,
                        (BinOp::Ne, _) => OP_NE,
                        (BinOp::Lt, false) | (BinOp::Gt, true) => OP_LT,
                        (BinOp::Le, false) | (BinOp::Ge, true) => OP_LE,
                        (BinOp::Gt, false) | (BinOp::Lt, true) => OP_GT,
                        (BinOp::Ge, false) | (BinOp::Le, true) => OP_GE,
                        _ => return None,
                    })
                };
                let int = |v: &Value| match v {
                    Value::I(i) => Some(*i),
                    Value::B(b) => Some(*b as i64),
                    Value::D(_) => None,
                };
                match (&**a, &**b) {
                    (CExpr::Var(v), CExpr::Const(c)) => {
                        if let (Some(o), Some(k)) = (code(op, false), int(c)) {
                            self.atoms.push((*v, o, k));
                            return;
                        }
                    }
                    (CExpr::Const(c), CExpr::Var(v)) => {
                        if let (Some(o), Some(k)) = (code(op, true), int(c)) {
                            self.atoms.push((*v, o, k));
                            return;
                        }
                    }
                    _ => {}
                }
                self.rest.push(e.clone());
            }
            _ => self.rest.push(e.clone()),
        }
    }
    #[inline]
    fn holds(&self, vals: &[i64], s: usize) -> Result<bool, Diagnostic> {
        for &(v, op, k) in &self.atoms {
            let x = vals.get(v as usize).copied().unwrap_or(0);
            let ok = match op {
                OP_EQ => x == k,
                OP_NE => x != k,
                OP_LT => x < k,
                OP_LE => x <= k,
                OP_GT => x > k,
                _ => x >= k,
            };
            if !ok {
                return Ok(false);
            }
        }
        for r in &self.rest {
            if !r.eval_bool(vals, s)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// The ways of leaving a state along one choice before merging: probability bounds and the
/// next variable values (flat, `nvars` per branch), in reusable buffers.
#[derive(Default)]
struct Branches {
    lo: Vec<f64>,
    hi: Vec<f64>,
    vals: Vec<i64>,
    /// Rewards earned along each branch (`nrew` per branch; `nrew` is 0 unless some update
    /// earns rewards).
    rew: Vec<f64>,
    nrew: usize,
}

impl Branches {
    fn clear(&mut self) {
        self.lo.clear();
        self.hi.clear();
        self.vals.clear();
        self.rew.clear();
    }
    fn len(&self) -> usize {
        self.lo.len()
    }
    fn unit(&mut self, cur: &[i64], nrew: usize) {
        self.clear();
        self.lo.push(1.0);
        self.hi.push(1.0);
        self.vals.extend_from_slice(cur);
        self.nrew = nrew;
        self.rew.resize(nrew, 0.0);
    }
    /// The expected reward `r` of the choice: Σ over branches of weight × reward.
    fn expected_reward(&self, r: usize) -> f64 {
        if self.nrew == 0 {
            return 0.0;
        }
        (0..self.len())
            .map(|b| self.lo[b] * self.rew.get(b * self.nrew + r).copied().unwrap_or(0.0))
            .sum()
    }
}

fn eval_prob(p: &CProb, vals: &[i64]) -> Result<(f64, f64), Diagnostic> {
    Ok(match p {
        CProb::One => (1.0, 1.0),
        CProb::Point(e) => {
            let x = e.eval_f64(vals, usize::MAX)?;
            (x, x)
        }
        CProb::Interval(a, b) => (a.eval_f64(vals, usize::MAX)?, b.eval_f64(vals, usize::MAX)?),
    })
}

fn describe_state(prog: &Program, vals: &[i64]) -> String {
    let parts: Vec<String> = prog
        .vars
        .iter()
        .zip(vals)
        .map(|(v, &x)| {
            if v.is_bool {
                format!("{}={}", v.name, x != 0)
            } else {
                format!("{}={x}", v.name)
            }
        })
        .collect();
    format!("({})", parts.join(","))
}

/// The initial states' valuations.
fn initial_valuations(prog: &Program) -> Result<Vec<Vec<i64>>, ProbError> {
    match &prog.init {
        None => Ok(vec![prog
            .vars
            .iter()
            .map(|v| v.init.unwrap_or(v.lo))
            .collect()]),
        Some(e) => {
            let total: f64 = prog.vars.iter().map(|v| (v.hi - v.lo + 1) as f64).product();
            if total > 5e7 {
                return Err(ProbError::Limit(format!(
                    "`init … endinit` ranges over {total:.0} valuations (limit 5e7)"
                )));
            }
            let mut out = Vec::new();
            let mut cur: Vec<i64> = prog.vars.iter().map(|v| v.lo).collect();
            loop {
                if e.eval_bool(&cur, usize::MAX)? {
                    out.push(cur.clone());
                }
                let mut i = 0;
                loop {
                    if i == cur.len() {
                        return Ok(out);
                    }
                    if cur[i] < prog.vars[i].hi {
                        cur[i] += 1;
                        break;
                    }
                    cur[i] = prog.vars[i].lo;
                    i += 1;
                }
            }
        }
    }
}

/// The estimated memory (state table and sparse rows) a model with unbounded variables may use
/// before exploration stops with a resource-limit error.
const UNBOUNDED_MEMORY_BUDGET: usize = 4 << 30;

/// Widens the ranges of unbounded variables so that `vals` fits (each widening at least doubles
/// the range, so a variable is re-encoded O(log range) times), re-encoding every state found so
/// far with the new bit layout.
/// The state index of successor valuation `bv` (a new state is added to `table`; unbounded
/// variables `unb` widen their ranges first, re-packing the table when they do).
#[inline]
fn intern_successor(
    bv: &[i64],
    unb: &[usize],
    vars: &mut [crate::lang::typecheck::VarInfo],
    layout: &mut Layout,
    table: &mut StateTable,
    key: &mut Vec<u64>,
) -> Result<u32, ProbError> {
    if !unb.is_empty() {
        grow_ranges(bv, unb, vars, layout, table, key)?;
    }
    layout.pack(bv, key);
    Ok(table.intern(key).0)
}

fn grow_ranges(
    vals: &[i64],
    unb: &[usize],
    vars: &mut [crate::lang::typecheck::VarInfo],
    layout: &mut Layout,
    table: &mut StateTable,
    key: &mut Vec<u64>,
) -> Result<(), ProbError> {
    let mut changed = false;
    for &v in unb {
        let (Some(&x), Some(info)) = (vals.get(v), vars.get_mut(v)) else {
            continue;
        };
        if x >= info.lo && x <= info.hi {
            continue;
        }
        if x.unsigned_abs() > 1 << 40 {
            return Err(ProbError::Limit(format!(
                "unbounded variable `{}` reached the value {x}, beyond the supported range ±2^40",
                info.name
            )));
        }
        let width = info.hi.saturating_sub(info.lo).saturating_add(1).max(1);
        if x < info.lo {
            info.lo = info.lo.saturating_sub(width).min(x);
        }
        if x > info.hi {
            info.hi = info.hi.saturating_add(width).max(x);
        }
        changed = true;
    }
    if !changed {
        return Ok(());
    }
    let new = Layout::new(vars);
    let (ow, nw) = (layout.words, new.words);
    let mut cur = vec![0i64; vars.len()];
    let mut packed = vec![0u64; nw];
    let mut states = Vec::with_capacity(table.len * nw);
    for s in 0..table.len {
        layout.unpack(&table.states[s * ow..(s + 1) * ow], &mut cur);
        new.pack(&cur, &mut packed);
        states.extend_from_slice(&packed);
    }
    table.words = nw;
    table.states = states;
    table.rehash();
    *layout = new;
    key.resize(nw, 0);
    Ok(())
}

/// Builds the reachable state space of `prog`.
pub fn build(prog: &Program, opts: &BuildOptions) -> Result<Model, ProbError> {
    let mut vars = prog.vars.clone();
    let mut layout = Layout::new(&vars);
    let unb: Vec<usize> = prog.unbounded.iter().map(|&v| v as usize).collect();
    let nvars = prog.vars.len();
    let mt = prog.model_type;
    let is_ctmc = mt == ModelType::Ctmc;
    let nondet = mt.nondeterministic();
    let interval_syntax = prog.modules.iter().any(|m| {
        m.commands.iter().any(|c| {
            c.updates
                .iter()
                .any(|u| matches!(u.prob, CProb::Interval(..)))
        })
    });
    let interval = matches!(mt, ModelType::Idtmc | ModelType::Imdp) || interval_syntax;

    let mut table = StateTable::new(layout.words);
    let mut key = vec![0u64; layout.words];
    let mut initial = Vec::new();
    for v in initial_valuations(prog)? {
        layout.pack(&v, &mut key);
        let (ix, new) = table.intern(&key);
        if new {
            initial.push(ix);
        }
    }
    if initial.is_empty() {
        return Err(ProbError::Input(Diagnostic::error(
            "the model has no initial state",
        )));
    }

    // Which modules take part in each action.
    let nact = prog.actions.len();
    let mut act_modules: Vec<Vec<usize>> = vec![Vec::new(); nact];
    for (mi, m) in prog.modules.iter().enumerate() {
        for &a in &m.alphabet {
            act_modules[a as usize].push(mi);
        }
    }
    let mut trans_rew: Vec<bool> = prog.rewards.iter().map(|r| !r.trans.is_empty()).collect();
    let mut update_rew = false;
    for m in &prog.modules {
        for c in &m.commands {
            for u in &c.updates {
                for (r, _) in &u.rewards {
                    if let Some(x) = trans_rew.get_mut(*r as usize) {
                        *x = true;
                        update_rew = true;
                    }
                }
            }
        }
    }
    let nrew = if update_rew { prog.rewards.len() } else { 0 };

    let mut row_choices: Vec<u32> = vec![0];
    let mut choice_start: Vec<u64> = vec![0];
    let mut cols: Vec<u32> = Vec::new();
    let mut vals: Vec<f64> = Vec::new();
    let mut upper: Vec<f64> = Vec::new();
    let mut choice_action: Vec<u32> = Vec::new();
    let mut trans_rewards: Vec<Vec<f64>> = vec![Vec::new(); prog.rewards.len()];
    let mut fixed_deadlocks = Vec::new();
    let mut first_deadlock: Option<String> = None;

    let guards: Vec<Vec<FastGuard>> = prog
        .modules
        .iter()
        .map(|m| {
            m.commands
                .iter()
                .map(|c| FastGuard::new(&c.guard))
                .collect()
        })
        .collect();
    let mut cur = vec![0i64; nvars];
    // enabled[m][a]: enabled command indices of module m for action a (scratch).
    let mut enabled: Vec<Vec<Vec<usize>>> = prog
        .modules
        .iter()
        .map(|_| vec![Vec::new(); nact])
        .collect();
    let mut pool: Vec<Branches> = Vec::new();
    let mut acts: Vec<Option<u32>> = Vec::new();
    let mut lvl_a: Vec<Branches> = Vec::new();
    let mut lvl_b: Vec<Branches> = Vec::new();
    let mut one = Branches::default();
    let mut entries: Vec<(u32, f64, f64)> = Vec::new();
    let mut next = 0usize;
    let mut last_log = std::time::Instant::now();
    let progress = opts.budget.progress();
    progress.phase("building states", None);
    // State-reward items whose value is not a valid constant are checked in every state.
    let state_rew_checks: Vec<(usize, usize)> = prog
        .rewards
        .iter()
        .enumerate()
        .flat_map(|(r, rs)| {
            rs.state.iter().enumerate().filter_map(move |(i, (_, v))| {
                let valid = v
                    .constant()
                    .is_some_and(|c| c.as_f64().is_finite() && c.as_f64() >= 0.0);
                (!valid).then_some((r, i))
            })
        })
        .collect();
    let mut ticker = opts.budget.ticker(256);

    while next < table.len {
        ticker.tick()?;
        let s = next;
        next += 1;
        let w = layout.words;
        layout.unpack(&table.states[s * w..(s + 1) * w], &mut cur);
        check_state_rewards(prog, &state_rew_checks, &cur, s)?;
        one.unit(&cur, nrew);
        let mut nch = 0usize;
        if let Some(sys) = &prog.system {
            for (a, br) in term_choices(sys, prog, &guards, &cur, s, &one, is_ctmc)? {
                if pool.len() == nch {
                    pool.push(Branches::default());
                    acts.push(None);
                }
                pool[nch] = br;
                acts[nch] = a;
                nch += 1;
            }
        }
        for (mi, m) in prog
            .modules
            .iter()
            .enumerate()
            .filter(|_| prog.system.is_none())
        {
            for &a in &m.alphabet {
                enabled[mi][a as usize].clear();
            }
            for (ci, c) in m.commands.iter().enumerate() {
                if !guards[mi][ci].holds(&cur, s).map_err(ProbError::Input)? {
                    continue;
                }
                match c.action {
                    None => {
                        if pool.len() == nch {
                            pool.push(Branches::default());
                            acts.push(None);
                        }
                        pool[nch].clear();
                        apply_command(prog, mi, ci, &cur, &one, &mut pool[nch], is_ctmc)?;
                        acts[nch] = None;
                        nch += 1;
                    }
                    Some(a) => enabled[mi][a as usize].push(ci),
                }
            }
        }
        for a in (0..nact).filter(|_| prog.system.is_none()) {
            let mods = &act_modules[a];
            if mods.iter().any(|&mi| enabled[mi][a].is_empty()) {
                continue;
            }
            // Cartesian product over the modules' enabled commands.
            if lvl_a.is_empty() {
                lvl_a.push(Branches::default());
            }
            lvl_a[0].unit(&cur, nrew);
            let mut na = 1usize;
            for &mi in mods {
                let mut nb = 0usize;
                for p in 0..na {
                    for &ci in &enabled[mi][a] {
                        if lvl_b.len() == nb {
                            lvl_b.push(Branches::default());
                        }
                        lvl_b[nb].clear();
                        apply_command(prog, mi, ci, &cur, &lvl_a[p], &mut lvl_b[nb], is_ctmc)?;
                        nb += 1;
                    }
                }
                std::mem::swap(&mut lvl_a, &mut lvl_b);
                na = nb;
            }
            for br in lvl_a.iter_mut().take(na) {
                if pool.len() == nch {
                    pool.push(Branches::default());
                    acts.push(None);
                }
                std::mem::swap(&mut pool[nch], br);
                acts[nch] = Some(a as u32);
                nch += 1;
            }
        }
        let choices = &pool[..nch];

        // Emit choices.
        let state_rew = |choice_act: Option<u32>, r: usize| -> Result<f64, ProbError> {
            let mut x = 0.0;
            let rs = &prog.rewards[r];
            for (i, (act, g, v)) in rs.trans.iter().enumerate() {
                if *act == choice_act && g.eval_bool(&cur, s)? {
                    let sp = rs.trans_spans.get(i).copied().unwrap_or_default();
                    x += checked_reward(v.eval_f64(&cur, s)?, sp, prog, &cur)?;
                }
            }
            Ok(x)
        };
        if choices.is_empty() {
            // Without fixing, exploration goes on to count every deadlock (as PRISM reports
            // them), then fails below.
            if !opts.fix_deadlocks && first_deadlock.is_none() {
                first_deadlock = Some(describe_state(prog, &cur));
            }
            fixed_deadlocks.push(s as u32);
            // A fixed deadlock earns no transition reward.
            cols.push(s as u32);
            vals.push(1.0);
            if interval {
                upper.push(1.0);
            }
            choice_start.push(cols.len() as u64);
            choice_action.push(u32::MAX);
            for (r, has) in trans_rew.iter().enumerate() {
                if *has {
                    trans_rewards[r].push(0.0);
                }
            }
            row_choices.push(choice_start.len() as u32 - 1);
            continue;
        }
        let k = choices.len() as f64;
        if nondet {
            for (ix, br) in choices.iter().enumerate() {
                let act = &acts[ix];
                entries.clear();
                for b in 0..br.len() {
                    let bv = &br.vals[b * nvars..(b + 1) * nvars];
                    let t =
                        intern_successor(bv, &unb, &mut vars, &mut layout, &mut table, &mut key)?;
                    entries.push((t, br.lo[b], br.hi[b]));
                }
                emit(&mut entries, &mut cols, &mut vals, &mut upper, interval);
                choice_start.push(cols.len() as u64);
                choice_action.push(act.unwrap_or(u32::MAX));
                for (r, has) in trans_rew.iter().enumerate() {
                    if *has {
                        let x = state_rew(*act, r)? + br.expected_reward(r);
                        trans_rewards[r].push(x);
                    }
                }
            }
        } else {
            entries.clear();
            let mut weights = Vec::with_capacity(choices.len());
            let mut total = 0.0;
            for br in choices {
                let wsum: f64 = br.lo.iter().sum();
                weights.push(wsum);
                total += wsum;
                for b in 0..br.len() {
                    let bv = &br.vals[b * nvars..(b + 1) * nvars];
                    let t =
                        intern_successor(bv, &unb, &mut vars, &mut layout, &mut table, &mut key)?;
                    if is_ctmc {
                        entries.push((t, br.lo[b], br.hi[b]));
                    } else {
                        entries.push((t, br.lo[b] / k, br.hi[b] / k));
                    }
                }
            }
            emit(&mut entries, &mut cols, &mut vals, &mut upper, interval);
            choice_start.push(cols.len() as u64);
            let act = if choices.len() == 1 {
                acts[0].unwrap_or(u32::MAX)
            } else {
                u32::MAX
            };
            choice_action.push(act);
            for (r, has) in trans_rew.iter().enumerate() {
                if *has {
                    let mut x = 0.0;
                    for (i, a) in acts.iter().take(nch).enumerate() {
                        let ri = state_rew(*a, r)?;
                        let ui = choices[i].expected_reward(r);
                        if ui != 0.0 {
                            x += if is_ctmc { ui / total } else { ui / k };
                        }
                        if ri != 0.0 {
                            x += if is_ctmc {
                                ri * weights[i] / total
                            } else {
                                ri / k
                            };
                        }
                    }
                    trans_rewards[r].push(x);
                }
            }
        }
        row_choices.push(choice_start.len() as u32 - 1);
        if !unb.is_empty() {
            let bytes = table.states.len() * 8
                + table.table.len() * 4
                + cols.len() * 12
                + choice_start.len() * 12
                + row_choices.len() * 4;
            if bytes > UNBOUNDED_MEMORY_BUDGET {
                let names: Vec<String> = unb
                    .iter()
                    .filter_map(|&v| vars.get(v))
                    .map(|v| format!("`{}` in [{}..{}]", v.name, v.lo, v.hi))
                    .collect();
                return Err(ProbError::Limit(format!(
                    "the state space did not close within the memory budget of {} GiB                      ({} states found, {next} explored; unbounded variables {}): the model is                      probably infinite; bound the variables or give --max-states",
                    UNBOUNDED_MEMORY_BUDGET >> 30,
                    table.len,
                    names.join(", ")
                )));
            }
        }
        if table.len > opts.max_states {
            let why = if unb.is_empty() {
                String::new()
            } else {
                let names: Vec<String> = unb
                    .iter()
                    .filter_map(|&v| vars.get(v))
                    .map(|v| format!("`{}` in [{}..{}]", v.name, v.lo, v.hi))
                    .collect();
                format!(
                    " (unbounded variables {} so far: the state space may be infinite)",
                    names.join(", ")
                )
            };
            return Err(ProbError::Limit(format!(
                "more than {} states{why}",
                opts.max_states
            )));
        }
        progress.set(next as u64);
        if progress.wanted() && last_log.elapsed().as_millis() >= 200 {
            last_log = std::time::Instant::now();
            progress.detail(&format!("{} found, {} transitions", table.len, cols.len()));
        }
    }
    if let Some(first) = first_deadlock {
        let others = fixed_deadlocks.len() - 1;
        return Err(ProbError::Input(Diagnostic::error(format!(
            "deadlock in state {first}{} (no command is enabled); use --fix-deadlocks to add \
             self-loops",
            if others > 0 {
                format!(" and {others} other states")
            } else {
                String::new()
            }
        ))));
    }
    let model_type = match mt {
        ModelType::Mdp if interval => ModelType::Imdp,
        ModelType::Dtmc if interval => ModelType::Idtmc,
        other => other,
    };
    Ok(Model {
        model_type,
        vars,
        layout,
        states: table.states,
        initial,
        row_choices,
        choice_start,
        cols,
        vals,
        upper,
        choice_action,
        actions: prog.actions.clone(),
        trans_rewards,
        fixed_deadlocks,
    })
}

/// The labelled choices of a `system … endsystem` term in the state `cur` (PRISM manual,
/// "Process Algebra Operators"): a module offers its enabled commands; a parallel composition
/// offers each side's choices whose action is not synchronised, and for each synchronised action
/// the product of both sides' choices (probabilities/rates multiply, each side updates its own
/// variables); hiding unlabels actions, renaming relabels them.
fn term_choices(
    t: &STerm,
    prog: &Program,
    guards: &[Vec<FastGuard>],
    cur: &[i64],
    s: usize,
    unit: &Branches,
    is_ctmc: bool,
) -> Result<Vec<(Option<u32>, Branches)>, ProbError> {
    Ok(match t {
        STerm::Module(mi) => {
            let mut out = Vec::new();
            let (Some(m), Some(gs)) = (prog.modules.get(*mi), guards.get(*mi)) else {
                return Ok(out);
            };
            for (ci, (c, g)) in m.commands.iter().zip(gs).enumerate() {
                if g.holds(cur, s).map_err(ProbError::Input)? {
                    let mut b = Branches::default();
                    apply_command(prog, *mi, ci, cur, unit, &mut b, is_ctmc)?;
                    out.push((c.action, b));
                }
            }
            out
        }
        STerm::Par(a, b, sync) => {
            let left = term_choices(a, prog, guards, cur, s, unit, is_ctmc)?;
            let right = term_choices(b, prog, guards, cur, s, unit, is_ctmc)?;
            let synced = |x: &Option<u32>| x.is_some_and(|x| sync.binary_search(&x).is_ok());
            let mut out = Vec::new();
            for (la, lb) in &left {
                if !synced(la) {
                    continue;
                }
                for (ra, rb) in &right {
                    if ra == la {
                        out.push((*la, product(prog, lb, rb, cur)?));
                    }
                }
            }
            out.extend(left.into_iter().filter(|(x, _)| !synced(x)));
            out.extend(right.into_iter().filter(|(x, _)| !synced(x)));
            out
        }
        STerm::Hide(a, hidden) => {
            let mut out = term_choices(a, prog, guards, cur, s, unit, is_ctmc)?;
            for (x, _) in out.iter_mut() {
                if x.is_some_and(|y| hidden.contains(&y)) {
                    *x = None;
                }
            }
            out
        }
        STerm::Rename(a, map) => {
            let mut out = term_choices(a, prog, guards, cur, s, unit, is_ctmc)?;
            for (x, _) in out.iter_mut() {
                if let Some(y) = x {
                    if let Some((_, to)) = map.iter().find(|(f, _)| f == y) {
                        *y = *to;
                    }
                }
            }
            out
        }
    })
}

/// The synchronised product of two choices: every pair of branches, each side contributing the
/// variables it changes.
fn product(prog: &Program, a: &Branches, b: &Branches, cur: &[i64]) -> Result<Branches, ProbError> {
    let n = cur.len();
    let mut out = Branches {
        nrew: a.nrew,
        ..Branches::default()
    };
    for i in 0..a.len() {
        for j in 0..b.len() {
            let (va, vb) = (&a.vals[i * n..(i + 1) * n], &b.vals[j * n..(j + 1) * n]);
            for v in 0..n {
                let x = if va[v] != cur[v] {
                    if vb[v] != cur[v] && vb[v] != va[v] {
                        let name = prog.vars.get(v).map_or("?", |x| x.name.as_str());
                        return Err(ProbError::Input(Diagnostic::error(format!(
                            "synchronising commands assign different values to `{name}` in state {}",
                            describe_state(prog, cur)
                        ))));
                    }
                    va[v]
                } else {
                    vb[v]
                };
                out.vals.push(x);
            }
            out.lo.push(a.lo[i] * b.lo[j]);
            out.hi.push(a.hi[i] * b.hi[j]);
            for r in 0..a.nrew {
                let x = a.rew.get(i * a.nrew + r).copied().unwrap_or(0.0)
                    + b.rew.get(j * b.nrew + r).copied().unwrap_or(0.0);
                out.rew.push(x);
            }
        }
    }
    Ok(out)
}

/// Sorts by target, merges duplicates and appends to the CSR arrays.
fn emit(
    entries: &mut [(u32, f64, f64)],
    cols: &mut Vec<u32>,
    vals: &mut Vec<f64>,
    upper: &mut Vec<f64>,
    interval: bool,
) {
    entries.sort_unstable_by_key(|e| e.0);
    let mut i = 0;
    while i < entries.len() {
        let (t, mut lo, mut hi) = entries[i];
        let mut j = i + 1;
        while j < entries.len() && entries[j].0 == t {
            lo += entries[j].1;
            hi += entries[j].2;
            j += 1;
        }
        cols.push(t);
        vals.push(lo);
        if interval {
            upper.push(hi.min(1.0));
        }
        i = j;
    }
}

/// Extends each partial branch by each update of command `ci` of module `mi`.
fn apply_command(
    prog: &Program,
    mi: usize,
    ci: usize,
    cur: &[i64],
    partial: &Branches,
    out: &mut Branches,
    is_ctmc: bool,
) -> Result<(), ProbError> {
    let c = &prog.modules[mi].commands[ci];
    let nvars = cur.len();
    let mut assigned: Vec<(usize, i64)> = Vec::new();
    let nrew = partial.nrew;
    out.nrew = nrew;
    let mut urew = vec![0.0; nrew];
    let mut sum = 0.0;
    let mut point = true;
    for u in &c.updates {
        let (lo, hi) = eval_prob(&u.prob, cur)?;
        if !(lo.is_finite() && hi.is_finite()) || lo < 0.0 || hi < lo {
            return Err(ProbError::Input(
                Diagnostic::at(
                    u.span,
                    format!(
                        "invalid probability/rate {lo} in state {}",
                        describe_state(prog, cur)
                    ),
                )
                .with_span(u.span, "this update"),
            ));
        }
        point &= matches!(u.prob, CProb::One | CProb::Point(_));
        sum += lo;
        if lo == 0.0 && hi == 0.0 {
            continue;
        }
        assigned.clear();
        for (v, e) in &u.assigns {
            let x = e.eval(cur, usize::MAX)?.as_int();
            let info = &prog.vars[*v as usize];
            if (x < info.lo || x > info.hi) && !prog.unbounded.contains(v) {
                return Err(ProbError::Input(Diagnostic::at(
                    u.span,
                    format!(
                        "variable `{}` would get value {x}, outside its range [{}..{}], in state {}",
                        info.name,
                        info.lo,
                        info.hi,
                        describe_state(prog, cur)
                    ),
                )));
            }
            assigned.push((*v as usize, x));
        }
        if nrew > 0 {
            urew.iter_mut().for_each(|x| *x = 0.0);
            for (r, e) in &u.rewards {
                if let Some(x) = urew.get_mut(*r as usize) {
                    *x += checked_reward(e.eval_f64(cur, usize::MAX)?, u.span, prog, cur)?;
                }
            }
        }
        for p in 0..partial.len() {
            for r in 0..nrew {
                let x = partial.rew.get(p * nrew + r).copied().unwrap_or(0.0);
                out.rew.push(x + urew[r]);
            }
            let start = out.vals.len();
            out.vals
                .extend_from_slice(&partial.vals[p * nvars..(p + 1) * nvars]);
            for &(v, x) in &assigned {
                out.vals[start + v] = x;
            }
            out.lo.push(partial.lo[p] * lo);
            out.hi.push(partial.hi[p] * hi);
        }
    }
    if !is_ctmc && point && (sum - 1.0).abs() > 1e-6 {
        return Err(ProbError::Input(Diagnostic::at(
            c.span,
            format!(
                "probabilities sum to {sum} instead of 1 in state {}",
                describe_state(prog, cur)
            ),
        )));
    }
    Ok(())
}

/// Evaluates a Boolean state predicate on every state.
pub fn eval_states(model: &Model, e: &CExpr) -> Result<Vec<bool>, Diagnostic> {
    let mut cur = vec![0i64; model.vars.len()];
    let mut out = Vec::with_capacity(model.num_states());
    if let Some(v) = e.constant() {
        return Ok(vec![v.as_bool(); model.num_states()]);
    }
    for s in 0..model.num_states() {
        model.valuation(s, &mut cur);
        out.push(e.eval_bool(&cur, s)?);
    }
    Ok(out)
}

/// Evaluates a numeric state expression on every state.
pub(crate) fn eval_states_f64(model: &Model, e: &CExpr) -> Result<Vec<f64>, Diagnostic> {
    let mut cur = vec![0i64; model.vars.len()];
    let mut out = Vec::with_capacity(model.num_states());
    for s in 0..model.num_states() {
        model.valuation(s, &mut cur);
        out.push(e.eval_f64(&cur, s)?);
    }
    Ok(out)
}
