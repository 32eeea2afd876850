//! The independent checker of witnesses: a direct interpreter of the DVE syntax tree over decoded
//! states (names → values, no packed layout, no bytecode), with its own implementation of the
//! semantics (`successors`' module docs). A trace replays when it starts in the initial state and
//! every step is a successor; a lasso also needs its cycle to close and to visit an accepting
//! state (of the property process, or of the Büchi automaton, checked edge by edge on its labels);
//! in lassos a state without successor may repeat (the stuttering of deadlocks). On a Promela
//! model SPIN's exclusivity in `atomic` sequences is followed along traces and around lassos: the
//! processes it may belong to are recomputed from the decoded states, never read from the engine.

use crate::dve_ast::*;
use crate::model::DecodedState;
use std::collections::{BTreeMap, HashMap};
use verikit_omega::Twa;

struct Interp<'a> {
    ast: &'a DveAst,
    consts: HashMap<String, i64>,
    /// Variable name → (type, array length) for globals and `P.x` locals.
    types: HashMap<String, (Ty, Option<usize>)>,
    chans: HashMap<String, (usize, Vec<Ty>)>,
}

type St = DecodedState;

/// Which processes may start a step.
#[derive(Clone, Copy)]
enum Rule<'a> {
    /// DVE's: while some process is committed, only committed ones (a rendezvous needs one
    /// committed partner; Promela: a committed sender); `yielded`: the committed processes are
    /// blocked and every process moves (Promela).
    Committed { yielded: bool },
    /// SPIN's `atomic`: only the exclusive process (the last to move inside its sequence) starts
    /// a step, its rendezvous send meets any receiver; every process when it is blocked or when
    /// there is none.
    Exclusive(Option<&'a str>),
}

fn fits(t: Ty, v: i64) -> bool {
    match t {
        Ty::Byte => (0..=255).contains(&v),
        Ty::Int => (-32768..=32767).contains(&v),
    }
}

impl<'a> Interp<'a> {
    fn new(ast: &'a DveAst) -> Result<Interp<'a>, String> {
        let mut it = Interp {
            ast,
            consts: HashMap::new(),
            types: HashMap::new(),
            chans: HashMap::new(),
        };
        let empty = St::default();
        let decls = |it: &mut Interp, vars: &[VarDecl], prefix: &str| -> Result<(), String> {
            for d in vars {
                if d.is_const {
                    let e = d.init.first().ok_or("constant without value")?;
                    let v = it.eval(&empty, None, e)?;
                    it.consts.insert(d.name.clone(), v);
                } else {
                    let len = match &d.len {
                        Some(e) => Some(it.eval(&empty, None, e)? as usize),
                        None => None,
                    };
                    it.types.insert(format!("{prefix}{}", d.name), (d.ty, len));
                }
            }
            Ok(())
        };
        decls(&mut it, &ast.vars, "")?;
        for p in &ast.processes {
            decls(&mut it, &p.vars, &format!("{}.", p.name))?;
        }
        for c in &ast.channels {
            let cap = match &c.capacity {
                Some(e) => it.eval(&empty, None, e)? as usize,
                None => 0,
            };
            it.chans.insert(c.name.clone(), (cap, c.types.clone()));
        }
        Ok(it)
    }

    fn initial(&self) -> Result<St, String> {
        let mut s = St::default();
        let empty = St::default();
        let add = |vars: &[VarDecl], prefix: &str, s: &mut St| -> Result<(), String> {
            for d in vars.iter().filter(|d| !d.is_const) {
                let n = match &d.len {
                    Some(e) => self.eval(&empty, None, e)? as usize,
                    None => 1,
                };
                let mut vals = Vec::new();
                for k in 0..n {
                    let v = match d.init.get(k) {
                        Some(e) => self.eval(&empty, None, e)?,
                        None => 0,
                    };
                    vals.push(match d.ty {
                        Ty::Byte => i64::from(v as u8),
                        Ty::Int => i64::from(v as i16),
                    });
                }
                s.vars.insert(format!("{prefix}{}", d.name), vals);
            }
            Ok(())
        };
        add(&self.ast.vars, "", &mut s)?;
        for p in &self.ast.processes {
            s.processes.insert(p.name.clone(), p.init.0.clone());
            add(&p.vars, &format!("{}.", p.name), &mut s)?;
        }
        for (name, (cap, _)) in &self.chans {
            if *cap > 0 {
                s.channels.insert(name.clone(), Vec::new());
            }
        }
        Ok(s)
    }

    /// The storage name of a variable seen from process `p`.
    fn key(&self, p: Option<&str>, name: &str) -> Option<String> {
        if let Some(p) = p {
            let k = format!("{p}.{name}");
            if self.types.contains_key(&k) {
                return Some(k);
            }
        }
        self.types.contains_key(name).then(|| name.to_string())
    }

    fn read(&self, s: &St, key: &str, idx: i64) -> Result<i64, String> {
        let v = s
            .vars
            .get(key)
            .ok_or_else(|| format!("no variable {key}"))?;
        if idx < 0 {
            return Err("index out of bounds".into());
        }
        v.get(idx as usize)
            .copied()
            .ok_or_else(|| "index out of bounds".into())
    }

    fn eval(&self, s: &St, p: Option<&str>, e: &Expr) -> Result<i64, String> {
        Ok(match e {
            Expr::Int(v, _) => *v,
            Expr::Var(n, _) => match self.key(p, n) {
                Some(k) => self.read(s, &k, 0)?,
                None => *self.consts.get(n).ok_or_else(|| format!("unknown `{n}`"))?,
            },
            Expr::Index(n, i, _) => {
                let k = self.key(p, n).ok_or_else(|| format!("unknown `{n}`"))?;
                let i = self.eval(s, p, i)?;
                self.read(s, &k, i)?
            }
            Expr::InState(q, st, _) => i64::from(s.processes.get(q) == Some(st)),
            Expr::Remote(q, v, i, _) => {
                let i = match i {
                    Some(i) => self.eval(s, p, i)?,
                    None => 0,
                };
                self.read(s, &format!("{q}.{v}"), i)?
            }
            Expr::Unary(op, a, _) => {
                let a = self.eval(s, p, a)? as i32;
                i64::from(match op {
                    UnOp::Neg => a.wrapping_neg(),
                    UnOp::Not => i32::from(a == 0),
                    UnOp::BitNot => !a,
                })
            }
            Expr::Binary(op, a, b, _) => {
                let x = self.eval(s, p, a)? as i32;
                match op {
                    BinOp::And if x == 0 => return Ok(0),
                    BinOp::Or if x != 0 => return Ok(1),
                    BinOp::Imply if x == 0 => return Ok(1),
                    _ => {}
                }
                let y = self.eval(s, p, b)? as i32;
                i64::from(match op {
                    BinOp::Mul => x.wrapping_mul(y),
                    BinOp::Div | BinOp::Mod if y == 0 => return Err("division by zero".into()),
                    BinOp::Div => x.wrapping_div(y),
                    BinOp::Mod => x.wrapping_rem(y),
                    BinOp::Add => x.wrapping_add(y),
                    BinOp::Sub => x.wrapping_sub(y),
                    BinOp::Shl => x.wrapping_shl(y as u32),
                    BinOp::Shr => x.wrapping_shr(y as u32),
                    BinOp::Lt => i32::from(x < y),
                    BinOp::Le => i32::from(x <= y),
                    BinOp::Gt => i32::from(x > y),
                    BinOp::Ge => i32::from(x >= y),
                    BinOp::Eq => i32::from(x == y),
                    BinOp::Ne => i32::from(x != y),
                    BinOp::BitAnd => x & y,
                    BinOp::BitXor => x ^ y,
                    BinOp::BitOr => x | y,
                    BinOp::And | BinOp::Or | BinOp::Imply => i32::from(y != 0),
                })
            }
        })
    }

    fn assign(&self, s: &mut St, p: &str, lv: &LValue, v: i64, from: &St) -> Result<(), String> {
        let k = self.key(Some(p), &lv.name).ok_or("unknown variable")?;
        let (ty, _) = self.types[&k];
        let i = match &lv.index {
            Some(e) => self.eval(from, Some(p), e)?,
            None => 0,
        };
        let v = if fits(ty, v) {
            v
        } else if self.ast.wrap_bytes && ty == Ty::Byte {
            v.rem_euclid(256)
        } else {
            return Err("out of range".into());
        };
        let slot = s.vars.get_mut(&k).ok_or("no variable")?;
        if i < 0 || i as usize >= slot.len() {
            return Err("index out of bounds".into());
        }
        slot[i as usize] = v;
        Ok(())
    }

    /// Runs an effect list sequentially (each assignment sees the previous ones).
    fn effect(&self, s: &mut St, p: &str, eff: &[(LValue, Expr)]) -> Result<(), String> {
        for (lv, e) in eff {
            let v = self.eval(s, Some(p), e)?;
            let snapshot = s.clone();
            self.assign(s, p, lv, v, &snapshot)?;
        }
        Ok(())
    }

    fn enabled(&self, s: &St, p: &ProcessAst, t: &TransAst) -> bool {
        s.processes.get(&p.name) == Some(&t.from)
            && t.guard
                .as_ref()
                .is_none_or(|g| self.eval(s, Some(&p.name), g).is_ok_and(|v| v != 0))
    }

    fn committed(&self, s: &St, p: &ProcessAst) -> bool {
        s.processes
            .get(&p.name)
            .is_some_and(|st| p.commit.iter().any(|c| &c.0 == st))
    }

    fn successors(&self, s: &St, stutter: bool) -> Vec<St> {
        self.successors_by(s, stutter, Rule::Committed { yielded: false })
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    }

    /// The process that holds the exclusivity after a step of `movers` (sender, then receiver)
    /// to `n`: the last of them standing in a committed state (inside its sequence).
    fn exclusive_after(&self, n: &St, movers: &[&'a ProcessAst]) -> Option<&'a str> {
        movers
            .iter()
            .rev()
            .find(|q| self.committed(n, q))
            .map(|q| q.name.as_str())
    }

    /// The successors of `s` under `rule`, each with the process holding the exclusivity after
    /// the step (SPIN's rule; `None`: the step left every sequence).
    fn successors_by(&self, s: &St, stutter: bool, rule: Rule<'a>) -> Vec<(St, Option<&'a str>)> {
        let prop = self.ast.property.as_ref().map(|p| p.0.as_str());
        let sys: Vec<&ProcessAst> = self
            .ast
            .processes
            .iter()
            .filter(|p| Some(p.name.as_str()) != prop)
            .collect();
        let (any_commit, only) = match rule {
            Rule::Committed { yielded } => {
                (!yielded && sys.iter().any(|p| self.committed(s, p)), None)
            }
            Rule::Exclusive(x) => (false, x),
        };
        let mut out = Vec::new();
        for p in &sys {
            if only.is_some_and(|x| x != p.name) {
                continue;
            }
            for t in p.trans.iter().filter(|t| self.enabled(s, p, t)) {
                let mine = self.committed(s, p);
                let mut n = s.clone();
                let ok: Result<(), String> = (|| {
                    match &t.sync {
                        None => {
                            if any_commit && !mine {
                                return Err("committed".into());
                            }
                        }
                        Some(sy) => {
                            let (cap, _) = self.chans.get(&sy.chan).cloned().unwrap_or_default();
                            if cap == 0 {
                                if sy.dir == Dir::Recv {
                                    return Err("taken with its sender".into());
                                }
                                let vals: Vec<i64> = sy
                                    .values
                                    .iter()
                                    .map(|v| self.eval(s, Some(&p.name), v))
                                    .collect::<Result<_, _>>()?;
                                for q in &sys {
                                    if q.name == p.name {
                                        continue;
                                    }
                                    // Promela: only a committed sender starts a
                                    // rendezvous while a process is committed.
                                    if any_commit
                                        && !mine
                                        && (self.ast.atomic_yields || !self.committed(s, q))
                                    {
                                        continue;
                                    }
                                    for r in q.trans.iter().filter(|r| {
                                        r.sync.as_ref().is_some_and(|rs| {
                                            rs.chan == sy.chan && rs.dir == Dir::Recv
                                        }) && self.enabled(s, q, r)
                                    }) {
                                        let mut n = s.clone();
                                        let res: Result<(), String> = (|| {
                                            if let Some(rs) = &r.sync {
                                                for (k, a) in rs.targets.iter().enumerate() {
                                                    let v = vals.get(k).copied().unwrap_or(0);
                                                    match a {
                                                        RecvArg::Store(lv) => {
                                                            let snap = n.clone();
                                                            self.assign(
                                                                &mut n, &q.name, lv, v, &snap,
                                                            )?;
                                                        }
                                                        RecvArg::Match(e) => {
                                                            if self.eval(s, Some(&q.name), e)? != v
                                                            {
                                                                return Err("no match".into());
                                                            }
                                                        }
                                                    }
                                                }
                                            }
                                            self.effect(&mut n, &p.name, &t.effect)?;
                                            n.processes.insert(p.name.clone(), t.to.clone());
                                            self.effect(&mut n, &q.name, &r.effect)?;
                                            n.processes.insert(q.name.clone(), r.to.clone());
                                            Ok(())
                                        })(
                                        );
                                        if res.is_ok() {
                                            let x = self.exclusive_after(&n, &[p, q]);
                                            out.push((n, x));
                                        }
                                    }
                                }
                                return Err("rendezvous done".into());
                            }
                            if any_commit && !mine {
                                return Err("committed".into());
                            }
                            let q = n.channels.entry(sy.chan.clone()).or_default();
                            match sy.dir {
                                Dir::Send => {
                                    if q.len() >= cap {
                                        return Err("full".into());
                                    }
                                    let vals: Vec<i64> = sy
                                        .values
                                        .iter()
                                        .map(|v| self.eval(s, Some(&p.name), v))
                                        .collect::<Result<_, _>>()?;
                                    let (_, tys) = &self.chans[&sy.chan];
                                    let vals = vals
                                        .iter()
                                        .zip(tys)
                                        .map(|(&v, t)| match t {
                                            Ty::Byte => i64::from(v as u8),
                                            Ty::Int => i64::from(v as i16),
                                        })
                                        .collect();
                                    q.push(vals);
                                }
                                Dir::Recv => {
                                    if q.is_empty() {
                                        return Err("empty".into());
                                    }
                                    let item = q.remove(0);
                                    for (k, a) in sy.targets.iter().enumerate() {
                                        let v = item.get(k).copied().unwrap_or(0);
                                        match a {
                                            RecvArg::Store(lv) => {
                                                let snap = n.clone();
                                                self.assign(&mut n, &p.name, lv, v, &snap)?;
                                            }
                                            RecvArg::Match(e) => {
                                                if self.eval(s, Some(&p.name), e)? != v {
                                                    return Err("no match".into());
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    self.effect(&mut n, &p.name, &t.effect)?;
                    n.processes.insert(p.name.clone(), t.to.clone());
                    Ok(())
                })();
                if ok.is_ok() {
                    let x = self.exclusive_after(&n, &[p]);
                    out.push((n, x));
                }
            }
        }
        if out.is_empty() {
            match rule {
                Rule::Committed { yielded: false } if any_commit && self.ast.atomic_yields => {
                    return self.successors_by(s, stutter, Rule::Committed { yielded: true });
                }
                Rule::Exclusive(Some(_)) => {
                    return self.successors_by(s, stutter, Rule::Exclusive(None));
                }
                _ => {}
            }
        }
        if stutter && out.is_empty() {
            out.push((s.clone(), None));
        }
        let Some(pn) = prop else { return out };
        let Some(pp) = self.ast.processes.iter().find(|p| p.name == pn) else {
            return out;
        };
        let mut paired = Vec::new();
        for t in pp.trans.iter().filter(|t| self.enabled(s, pp, t)) {
            for (n, x) in &out {
                let mut n = n.clone();
                if self.effect(&mut n, pn, &t.effect).is_ok() {
                    n.processes.insert(pn.to_string(), t.to.clone());
                    paired.push((n, *x));
                }
            }
        }
        paired
    }
}

/// Does a trace of `ast` follow SPIN's exclusivity (a Promela model without a property process,
/// whose `atomic` sequences the generator explores through) rather than DVE's committed states?
fn exclusive_rule(ast: &DveAst) -> bool {
    ast.atomic_yields && ast.property.is_none()
}

/// Checks that `states` is a path of the model from its initial state (a Promela model's under
/// SPIN's exclusivity in `atomic` sequences, `successors`' module docs).
pub fn replay_trace(ast: &DveAst, states: &[DecodedState]) -> Result<(), String> {
    replay_path(ast, states, false)
}

/// Checks a path; with `stutter`, a state without system successor may repeat (LTL semantics).
fn replay_path(ast: &DveAst, states: &[DecodedState], stutter: bool) -> Result<(), String> {
    if ast.synchronous {
        return Err("the replay does not cover `system sync` models".into());
    }
    let it = Interp::new(ast)?;
    let init = it.initial()?;
    match states.first() {
        Some(s) if *s == init => {}
        _ => return Err("the trace does not start in the initial state".into()),
    }
    if exclusive_rule(ast) {
        // SPIN's exclusivity is a property of the path: every process it may belong to.
        holders_along(&it, states, vec![None], stutter, 0)?;
        return Ok(());
    }
    for (k, w) in states.windows(2).enumerate() {
        if !it.successors(&w[0], stutter).contains(&w[1]) {
            return Err(format!("step {} is not a transition of the model", k + 1));
        }
    }
    Ok(())
}

/// The processes SPIN's exclusivity may belong to after the path `states`, starting with the
/// possible holders `holders` in its first state (`None`: no process is exclusive); an error
/// names the first step that is not a transition under any of them.
fn holders_along<'a>(
    it: &Interp<'a>,
    states: &[DecodedState],
    mut holders: Vec<Option<&'a str>>,
    stutter: bool,
    offset: usize,
) -> Result<Vec<Option<&'a str>>, String> {
    for (k, w) in states.windows(2).enumerate() {
        let mut next = Vec::new();
        for &h in &holders {
            for (n, x) in it.successors_by(&w[0], stutter, Rule::Exclusive(h)) {
                if n == w[1] && !next.contains(&x) {
                    next.push(x);
                }
            }
        }
        if next.is_empty() {
            return Err(format!(
                "step {} is not a transition of the model",
                offset + k + 1
            ));
        }
        holders = next;
    }
    Ok(holders)
}

/// Checks that `stem` then `cycle` is a path from the initial state whose cycle closes (back to
/// `cycle[0]`) and can be repeated: under SPIN's exclusivity, some process the exclusivity may
/// belong to when the cycle is entered holds it again when it closes.
fn replay_lasso_path(
    ast: &DveAst,
    stem: &[DecodedState],
    cycle: &[DecodedState],
) -> Result<(), String> {
    let Some(first) = cycle.first() else {
        return Err("empty cycle".into());
    };
    let mut path: Vec<DecodedState> = stem.iter().chain(cycle).cloned().collect();
    path.push(first.clone());
    if ast.synchronous || !exclusive_rule(ast) {
        return replay_path(ast, &path, true);
    }
    let it = Interp::new(ast)?;
    match path.first() {
        Some(s) if *s == it.initial()? => {}
        _ => return Err("the trace does not start in the initial state".into()),
    }
    let entry = holders_along(
        &it,
        path.get(..=stem.len()).unwrap_or(&[]),
        vec![None],
        true,
        0,
    )?;
    let round = path.get(stem.len()..).unwrap_or(&[]);
    let mut closes = Ok(false);
    for h in entry {
        closes = holders_along(&it, round, vec![h], true, stem.len()).map(|end| end.contains(&h));
        if closes == Ok(true) {
            return Ok(());
        }
    }
    closes.and(Err(
        "the cycle does not return with the exclusivity it started with".into(),
    ))
}

/// Checks a lasso of a model with a property process: a path, a closing cycle, and an accepting
/// state of the property process on the cycle.
pub fn replay_property_lasso(
    ast: &DveAst,
    stem: &[DecodedState],
    cycle: &[DecodedState],
) -> Result<(), String> {
    let (Some(prop), Some(_)) = (&ast.property, cycle.first()) else {
        return Err("no property process or empty cycle".into());
    };
    replay_lasso_path(ast, stem, cycle)?;
    let p = ast
        .processes
        .iter()
        .find(|p| p.name == prop.0)
        .ok_or("unknown property process")?;
    if cycle.iter().any(|s| {
        s.processes
            .get(&p.name)
            .is_some_and(|st| p.accept.iter().any(|a| &a.0 == st))
    }) {
        Ok(())
    } else {
        Err("no accepting state on the cycle".into())
    }
}

/// Checks a lasso of model × automaton: the model states form a path with a closing cycle, the
/// automaton states follow edges whose labels hold for the propositions (given as expressions over
/// the model, one per automaton AP) of the model state left, and the cycle has an accepting state
/// (under SPIN's exclusivity, a Promela model's cycle must also return with the exclusivity it
/// started with).
pub fn replay_automaton_lasso(
    ast: &DveAst,
    aut: &Twa,
    aps: &BTreeMap<String, Expr>,
    stem: &[(DecodedState, u32)],
    cycle: &[(DecodedState, u32)],
) -> Result<(), String> {
    let Some(first) = cycle.first() else {
        return Err("empty cycle".into());
    };
    let mut path: Vec<(DecodedState, u32)> = stem.iter().chain(cycle).cloned().collect();
    path.push(first.clone());
    let (s0, c0): (Vec<DecodedState>, Vec<DecodedState>) = (
        stem.iter().map(|p| p.0.clone()).collect(),
        cycle.iter().map(|p| p.0.clone()).collect(),
    );
    replay_lasso_path(ast, &s0, &c0)?;
    if path.first().map(|p| p.1) != aut.init.first().copied() {
        return Err("the automaton does not start in its initial state".into());
    }
    let it = Interp::new(ast)?;
    for w in path.windows(2) {
        let mut bits = 0u64;
        for (i, ap) in aut.aps.iter().enumerate() {
            let e = aps
                .get(ap)
                .ok_or_else(|| format!("no expression for `{ap}`"))?;
            if it.eval(&w[0].0, None, e).unwrap_or(0) != 0 {
                bits |= 1 << i;
            }
        }
        let ok = aut.states.get(w[0].1 as usize).is_some_and(|es| {
            es.iter()
                .any(|e| e.dst == w[1].1 && aut.eval_label(&e.label, bits))
        });
        if !ok {
            return Err("an automaton step does not match the propositions".into());
        }
    }
    let all = aut.all_marks();
    if aut.acc_false || !cycle.iter().any(|(_, q)| aut.state_marks(*q) & all == all) {
        return Err("no accepting automaton state on the cycle".into());
    }
    Ok(())
}

/// The number of reachable states by the reference interpreter (a brute-force oracle for tests),
/// or `None` beyond `limit` states or for models it does not cover.
pub fn reference_state_count(ast: &DveAst, limit: usize) -> Option<usize> {
    reference_states(ast, limit).map(|s| s.len())
}

/// Every reachable state of `ast` by the independent interpreter (`None` beyond `limit` states
/// or for synchronous systems).
pub(crate) fn reference_states(ast: &DveAst, limit: usize) -> Option<Vec<St>> {
    if ast.synchronous {
        return None;
    }
    let it = Interp::new(ast).ok()?;
    let init = it.initial().ok()?;
    let mut seen = std::collections::HashSet::new();
    let key = |s: &St| format!("{s:?}");
    seen.insert(key(&init));
    let mut all = vec![init.clone()];
    let mut queue = vec![init];
    while let Some(s) = queue.pop() {
        for t in it.successors(&s, false) {
            if seen.insert(key(&t)) {
                if seen.len() > limit {
                    return None;
                }
                all.push(t.clone());
                queue.push(t);
            }
        }
    }
    Some(all)
}
