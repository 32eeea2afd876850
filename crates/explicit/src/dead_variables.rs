//! Dead-variable reset: a variable whose value no later step can read is set back to its initial
//! value, so that states differing only in such values are one state. This is SPIN's data-flow
//! optimisation of the verifier (dead-variable elimination and the hiding of write-only
//! variables, on by default in `spin -a`, off with `-o1`/`-o2`; Holzmann, *The SPIN Model
//! Checker*, 2003, the verifier's optimisations; Holzmann, "The engineering of a model checker:
//! the Gnu i-protocol case study revisited", SPIN 1999, §3 dead variable elimination).
//!
//! On the DVE syntax tree a Promela model is lowered to (`promela_lower`), two rules:
//! - a variable that nothing reads (no guard, effect, index, sent value, receive match,
//!   assertion, property process nor the names of the question asked) is reset right after every
//!   assignment to it: it keeps its initial value in every stored state (SPIN hides it);
//! - a local scalar of a process is reset at the end of every transition after which it is dead
//!   (classic backward liveness on the process's control states: live at `p` if some transition
//!   from `p` reads it before it writes it, or it is live at the target and not written).
//!
//! That is the rule `all` (`-x mc.dataflow=all`). The default, `spin`, is SPIN's own, narrower
//! one (its `pan.m` marks the resets `/* dead 1|2: x */`), so that the state counts are SPIN's:
//! only globals are hidden, and a receive into a variable counts as a read; a dead local is reset
//! to 0 only by a transition that uses it — one that writes it, or a condition or a receive that
//! reads it (the Promela origin of the transition, `TransAst::origin`) — never by an assignment or
//! a send that only reads it, by `else`, or inside a `d_step`.
//!
//! By induction a dead variable holds its initial value in every reachable state, and a state is
//! mapped to one whose live and observed variables are equal: the two graphs are bisimilar for
//! every proposition over the observed variables and control states, so deadlocks, assertions,
//! evaluation errors and every LTL formula (with next-time too) keep their answers. A write is
//! still executed before its reset, so its index and range errors remain. The caller passes the
//! names its question observes (LTL propositions); those variables are never reset. Under `spin`
//! a dead local holds 0 or its last value, depending on the path; the relation "equal control
//! states and live variables" is still a bisimulation between the two graphs, so the answers are
//! the same; the exact check of that rule is SPIN's counts (`tests/promela.rs`).

use crate::dve_ast::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// A variable: `None` a global, `Some(p)` a local of process `p`; and its name.
type Var = (Option<usize>, String);

/// What a process body reads and writes, with names resolved (a local hides a global).
struct Scope<'a> {
    proc: usize,
    locals: FxHashSet<&'a str>,
    process_index: &'a FxHashMap<&'a str, usize>,
}

impl Scope<'_> {
    fn var(&self, name: &str) -> Var {
        if self.locals.contains(name) {
            (Some(self.proc), name.to_string())
        } else {
            (None, name.to_string())
        }
    }

    fn reads(&self, e: &Expr, out: &mut Vec<Var>) {
        match e {
            Expr::Int(..) | Expr::InState(..) => {}
            Expr::Var(n, _) => out.push(self.var(n)),
            Expr::Index(n, i, _) => {
                out.push(self.var(n));
                self.reads(i, out);
            }
            Expr::Remote(p, v, i, _) => {
                // A remote reference reads the other process's local (or, when the process has
                // no such local, nothing this pass resets).
                if let Some(&k) = self.process_index.get(p.as_str()) {
                    out.push((Some(k), v.clone()));
                }
                if let Some(i) = i {
                    self.reads(i, out);
                }
            }
            Expr::Unary(_, a, _) => self.reads(a, out),
            Expr::Binary(_, a, b, _) => {
                self.reads(a, out);
                self.reads(b, out);
            }
        }
    }

    /// Everything transition `t` reads, in any order.
    fn trans_reads(&self, t: &TransAst, out: &mut Vec<Var>) {
        if let Some(g) = &t.guard {
            self.reads(g, out);
        }
        if let Some(s) = &t.sync {
            for v in &s.values {
                self.reads(v, out);
            }
            for a in &s.targets {
                match a {
                    RecvArg::Store(lv) => {
                        if let Some(i) = &lv.index {
                            self.reads(i, out);
                        }
                    }
                    RecvArg::Match(e) => self.reads(e, out),
                }
            }
        }
        for (lv, e) in &t.effect {
            if let Some(i) = &lv.index {
                self.reads(i, out);
            }
            self.reads(e, out);
        }
    }
}

/// The value a variable is reset to: its one initial value (every element of an array must
/// start equal), or `None` when it cannot be reset.
fn reset_value(d: &VarDecl) -> Option<Expr> {
    if d.is_const {
        return None;
    }
    match d.init.first() {
        None => Some(Expr::Int(0, d.span)),
        Some(Expr::Int(v, _)) => d
            .init
            .iter()
            .all(|e| matches!(e, Expr::Int(w, _) if w == v))
            .then_some(Expr::Int(*v, d.span)),
        Some(_) => None,
    }
}

/// What [`reset_dead_variables`] decided, with variables named as in `DecodedState` (`x` a
/// global, `P.x` a local) and their reset values.
#[derive(Debug, Default)]
pub(crate) struct Resets {
    /// Variables nothing reads: always at their initial value.
    pub(crate) hidden: Vec<(String, i64)>,
    /// (process, control state) → the local scalars dead there.
    pub(crate) dead: FxHashMap<(String, String), Vec<(String, i64)>>,
    /// Transitions that got a reset of a dead local appended.
    pub(crate) transitions: usize,
}

fn key(ast: &DveAst, v: &Var) -> String {
    match v.0.and_then(|k| ast.processes.get(k)) {
        Some(p) => format!("{}.{}", p.name, v.1),
        None => v.1.clone(),
    }
}

fn int(e: &Expr) -> i64 {
    match e {
        Expr::Int(v, _) => *v,
        _ => 0,
    }
}

/// Which dead locals are reset, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rule {
    /// At the end of every transition after which a local is dead, to its initial value.
    Every,
    /// SPIN's rule: to 0, only by a transition that uses the local — one that writes it, or a
    /// condition or receive that reads it — never by `else` or `d_step` (see the module docs).
    Spin,
}

/// Resets the dead variables of `ast` (see the module docs); `observed` are the names the
/// question reads (never reset).
pub(crate) fn reset_dead_variables(
    ast: &mut DveAst,
    observed: &FxHashSet<String>,
    rule: Rule,
) -> Resets {
    let names: Vec<String> = ast.processes.iter().map(|p| p.name.clone()).collect();
    let process_index: FxHashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(k, n)| (n.as_str(), k))
        .collect();
    // Every read anywhere, and the variables a receive writes through an index (their reset
    // would need the index as it was at the store: never reset).
    let mut read: FxHashSet<Var> = FxHashSet::default();
    let mut pinned: FxHashSet<Var> = FxHashSet::default();
    // Locals another process reads (`P->x`): live everywhere.
    let mut remote: FxHashSet<Var> = FxHashSet::default();
    let scopes: Vec<Scope> = ast
        .processes
        .iter()
        .enumerate()
        .map(|(k, p)| Scope {
            proc: k,
            locals: p.vars.iter().map(|d| d.name.as_str()).collect(),
            process_index: &process_index,
        })
        .collect();
    let mut buf = Vec::new();
    for (p, sc) in ast.processes.iter().zip(&scopes) {
        for t in &p.trans {
            sc.trans_reads(t, &mut buf);
            if let Some(s) = &t.sync {
                for a in &s.targets {
                    if let RecvArg::Store(lv) = a {
                        if lv.index.is_some() {
                            pinned.insert(sc.var(&lv.name));
                        }
                    }
                }
            }
        }
        for (_, e, _) in &p.asserts {
            sc.reads(e, &mut buf);
        }
        for v in buf.drain(..) {
            if v.0.is_some_and(|q| q != sc.proc) {
                remote.insert(v.clone());
            }
            read.insert(v);
        }
    }
    let property = ast
        .property
        .as_ref()
        .and_then(|(n, _)| process_index.get(n.as_str()).copied());

    // SPIN hides only globals, and counts a receive into a variable as a read of it.
    let mut received: FxHashSet<Var> = FxHashSet::default();
    if rule == Rule::Spin {
        for (p, sc) in ast.processes.iter().zip(&scopes) {
            for s in p.trans.iter().filter_map(|t| t.sync.as_ref()) {
                for a in &s.targets {
                    if let RecvArg::Store(lv) = a {
                        received.insert(sc.var(&lv.name));
                    }
                }
            }
        }
    }

    // Write-only variables: globals and locals nothing reads.
    let mut hidden: FxHashMap<Var, Expr> = FxHashMap::default();
    for d in &ast.vars {
        let v = (None, d.name.clone());
        if !read.contains(&v)
            && !pinned.contains(&v)
            && !received.contains(&v)
            && !observed.contains(&d.name)
        {
            if let Some(r) = reset_value(d) {
                hidden.insert(v, r);
            }
        }
    }
    for (k, p) in ast.processes.iter().enumerate() {
        if Some(k) == property || rule == Rule::Spin {
            continue;
        }
        for d in &p.vars {
            let v = (Some(k), d.name.clone());
            if !read.contains(&v) && !pinned.contains(&v) && !observed.contains(&d.name) {
                if let Some(r) = reset_value(d) {
                    hidden.insert(v, r);
                }
            }
        }
    }

    // Liveness of the read local scalars, per process.
    let mut resets = Resets::default();
    let mut plans: Vec<Vec<Vec<(LValue, Expr)>>> = Vec::new();
    for (k, (p, sc)) in ast.processes.iter().zip(&scopes).enumerate() {
        let cands: Vec<(&VarDecl, Expr)> = p
            .vars
            .iter()
            .filter(|d| {
                d.len.is_none()
                    && Some(k) != property
                    && !observed.contains(&d.name)
                    && !hidden.contains_key(&(Some(k), d.name.clone()))
            })
            .filter_map(|d| match rule {
                Rule::Every => reset_value(d).map(|r| (d, r)),
                Rule::Spin => (!d.is_const).then_some((d, Expr::Int(0, d.span))),
            })
            .take(64)
            .collect();
        let bit: FxHashMap<&str, u64> = cands
            .iter()
            .enumerate()
            .map(|(i, (d, _))| (d.name.as_str(), 1u64 << i))
            .collect();
        let mask = |vs: &[Var]| -> u64 {
            vs.iter()
                .filter(|(q, _)| *q == Some(k))
                .map(|(_, n)| bit.get(n.as_str()).copied().unwrap_or(0))
                .fold(0, |a, b| a | b)
        };
        let state: FxHashMap<&str, usize> = p
            .states
            .iter()
            .enumerate()
            .map(|(i, (n, _))| (n.as_str(), i))
            .collect();
        let mut live = vec![0u64; p.states.len()];
        for (s, e, _) in &p.asserts {
            let mut b = Vec::new();
            sc.reads(e, &mut b);
            if let Some(&i) = state.get(s.as_str()) {
                live[i] |= mask(&b);
            }
        }
        // A local a remote reference reads is live everywhere.
        let everywhere = cands
            .iter()
            .filter(|(d, _)| remote.contains(&(Some(k), d.name.clone())))
            .fold(0, |a, (d, _)| {
                a | bit.get(d.name.as_str()).copied().unwrap_or(0)
            });
        for l in &mut live {
            *l |= everywhere;
        }
        // (gen, kill, written) of each transition, backward through its parts.
        let trans_live = |t: &TransAst, out: u64| -> u64 {
            let mut l = out;
            let mut b = Vec::new();
            for (lv, e) in t.effect.iter().rev() {
                if lv.index.is_none() {
                    l &= !bit.get(lv.name.as_str()).copied().unwrap_or(0);
                }
                b.clear();
                if let Some(i) = &lv.index {
                    sc.reads(i, &mut b);
                }
                sc.reads(e, &mut b);
                l |= mask(&b);
            }
            if let Some(s) = &t.sync {
                for a in s.targets.iter().rev() {
                    b.clear();
                    match a {
                        RecvArg::Store(lv) => {
                            if lv.index.is_none() {
                                l &= !bit.get(lv.name.as_str()).copied().unwrap_or(0);
                            } else if let Some(i) = &lv.index {
                                sc.reads(i, &mut b);
                            }
                        }
                        RecvArg::Match(e) => sc.reads(e, &mut b),
                    }
                    l |= mask(&b);
                }
                b.clear();
                for v in &s.values {
                    sc.reads(v, &mut b);
                }
                l |= mask(&b);
            }
            if let Some(g) = &t.guard {
                b.clear();
                sc.reads(g, &mut b);
                l |= mask(&b);
            }
            l
        };
        let ends: Vec<(usize, usize)> = p
            .trans
            .iter()
            .map(|t| {
                (
                    state.get(t.from.as_str()).copied().unwrap_or(usize::MAX),
                    state.get(t.to.as_str()).copied().unwrap_or(usize::MAX),
                )
            })
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            for (t, &(f, to)) in p.trans.iter().zip(&ends) {
                let out = live.get(to).copied().unwrap_or(u64::MAX);
                let l = trans_live(t, out);
                if let Some(x) = live.get_mut(f) {
                    if *x | l != *x {
                        *x |= l;
                        changed = true;
                    }
                }
            }
        }
        for ((sn, _), &l) in p.states.iter().zip(&live) {
            let d: Vec<(String, i64)> = cands
                .iter()
                .enumerate()
                .filter(|(i, _)| l & (1 << i) == 0)
                .map(|(_, (d, v))| (format!("{}.{}", p.name, d.name), int(v)))
                .collect();
            if !d.is_empty() {
                resets.dead.insert((p.name.clone(), sn.clone()), d);
            }
        }
        // The resets appended to each transition.
        let mut plan = Vec::with_capacity(p.trans.len());
        for (t, &(f, to)) in p.trans.iter().zip(&ends) {
            let (Some(&lf), Some(&lt)) = (live.get(f), live.get(to)) else {
                plan.push(Vec::new());
                continue;
            };
            let mut written = 0u64;
            for (lv, _) in &t.effect {
                if lv.index.is_none() {
                    written |= bit.get(lv.name.as_str()).copied().unwrap_or(0);
                }
            }
            if let Some(s) = &t.sync {
                for a in &s.targets {
                    if let RecvArg::Store(lv) = a {
                        if lv.index.is_none() {
                            written |= bit.get(lv.name.as_str()).copied().unwrap_or(0);
                        }
                    }
                }
            }
            let reset = match (rule, t.origin) {
                (Rule::Every, _) => (lf | written) & !lt,
                (Rule::Spin, Origin::Cond | Origin::Recv) => {
                    let mut b = Vec::new();
                    sc.trans_reads(t, &mut b);
                    (written | mask(&b)) & !lt
                }
                (Rule::Spin, Origin::DStep | Origin::Dve) => 0,
                (Rule::Spin, Origin::Else | Origin::Other) => written & !lt,
            };
            let mut r = Vec::new();
            for (i, (d, v)) in cands.iter().enumerate() {
                if reset & (1 << i) != 0 {
                    r.push((
                        LValue {
                            name: d.name.clone(),
                            index: None,
                            span: t.span,
                        },
                        v.clone(),
                    ));
                }
            }
            resets.transitions += usize::from(!r.is_empty());
            plan.push(r);
        }
        plans.push(plan);
    }

    // Rewrite: hidden variables reset after each write, then the dead locals.
    resets.hidden = hidden.iter().map(|(v, e)| (key(ast, v), int(e))).collect();
    resets.hidden.sort();
    for (k, (p, plan)) in ast.processes.iter_mut().zip(plans).enumerate() {
        let locals: FxHashSet<String> = p.vars.iter().map(|d| d.name.clone()).collect();
        let var = |n: &str| -> Var {
            if locals.contains(n) {
                (Some(k), n.to_string())
            } else {
                (None, n.to_string())
            }
        };
        for (t, extra) in p.trans.iter_mut().zip(plan) {
            let mut eff = Vec::with_capacity(t.effect.len() + extra.len());
            if let Some(s) = &t.sync {
                for a in &s.targets {
                    if let RecvArg::Store(lv) = a {
                        if let Some(r) = hidden.get(&var(&lv.name)) {
                            eff.push((lv.clone(), r.clone()));
                        }
                    }
                }
            }
            for (lv, e) in t.effect.drain(..) {
                let reset = hidden.get(&var(&lv.name)).map(|r| (lv.clone(), r.clone()));
                eff.push((lv, e));
                eff.extend(reset);
            }
            eff.extend(extra);
            t.effect = eff;
        }
    }
    resets
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::DecodedState;
    use crate::replay::reference_states;
    use crate::task::parse_promela;

    /// The state a state of the unreduced model is mapped to: dead locals and hidden variables
    /// at their reset value.
    fn canon(r: &Resets, mut s: DecodedState) -> String {
        for (v, x) in &r.hidden {
            if let Some(slot) = s.vars.get_mut(v) {
                slot.iter_mut().for_each(|e| *e = *x);
            }
        }
        let at: Vec<(String, String)> = s.processes.clone().into_iter().collect();
        for k in at {
            for (v, x) in r.dead.get(&k).into_iter().flatten() {
                if let Some(e) = s.vars.get_mut(v).and_then(|slot| slot.first_mut()) {
                    *e = *x;
                }
            }
        }
        format!("{s:?}")
    }

    /// The reduced model's reachable states (by the independent interpreter) are exactly the
    /// images of the unreduced model's states: the reset loses no behaviour and adds none.
    fn check(name: &str, text: &str, observed: &[&str]) -> (usize, usize) {
        let ast = parse_promela(text).unwrap_or_else(|d| panic!("{name}: {}", d.message));
        let mut red = ast.clone();
        let obs = observed.iter().map(|s| s.to_string()).collect();
        let r = reset_dead_variables(&mut red, &obs, Rule::Every);
        let (Some(full), Some(small)) = (
            reference_states(&ast, 40_000),
            reference_states(&red, 40_000),
        ) else {
            return (0, 0);
        };
        let image: std::collections::BTreeSet<String> =
            full.iter().map(|s| canon(&r, s.clone())).collect();
        let got: std::collections::BTreeSet<String> =
            small.iter().map(|s| format!("{s:?}")).collect();
        assert_eq!(
            image, got,
            "{name}: reduced states are not the image of the full ones"
        );
        // The compiled model explores the same number of states (every single step's state:
        // the interpreter stores the states inside atomic sequences too).
        let mut m = crate::model::compile(red).unwrap();
        m.through_atomic = false;
        let e = crate::bfs::bfs(
            &m,
            crate::bfs::Goal::Explore,
            &verikit_diag::Budget::unlimited(),
        );
        assert_eq!(e.states as usize, got.len(), "{name}: compiled count");
        (full.len(), got.len())
    }

    const MODEL: &str = "byte g; byte w; byte a[2];\n\
        chan c = [1] of {byte};\n\
        active proctype P() { byte i; byte t; byte u;\n\
          do :: i < 2 -> t = i + 1; a[i] = t; w = t; i++\n\
             :: i == 2 -> c!g; i = 0; u = 3\n\
             :: else -> skip od }\n\
        active proctype Q() { byte v; byte z;\n\
          do :: c?v -> g = (g + v) % 3; z = v :: atomic { g > 0; v = g; g = 0 }; v = 0 od }\n";

    #[test]
    fn reduced_states_are_the_image_of_the_full_ones() {
        let (full, small) = check("model", MODEL, &[]);
        assert!(small < full, "{small} of {full}: nothing reduced");
        for f in [
            "pipeline.pml",
            "run_args.pml",
            "mutex.pml",
            "phases.pml",
            "counter.pml",
        ] {
            let p = format!("{}/tests/expected/promela/{f}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&p).unwrap();
            check(f, &text, &[]);
        }
    }

    #[test]
    fn observed_names_are_never_reset() {
        let mut ast = parse_promela(MODEL).unwrap();
        let obs = ["w", "u"].iter().map(|s| s.to_string()).collect();
        let r = reset_dead_variables(&mut ast, &obs, Rule::Every);
        assert!(r.hidden.iter().all(|(v, _)| v != "w"), "{:?}", r.hidden);
        assert!(r.dead.values().flatten().all(|(v, _)| v != "P.u"));
        // Without them, `w` and `P.u` (never read) are hidden.
        let mut ast = parse_promela(MODEL).unwrap();
        let r = reset_dead_variables(&mut ast, &FxHashSet::default(), Rule::Every);
        assert!(r.hidden.iter().any(|(v, _)| v == "w"), "{:?}", r.hidden);
        assert!(r.hidden.iter().any(|(v, _)| v == "P.u"), "{:?}", r.hidden);
    }

    #[test]
    fn beem_promela_models_reduce_to_the_image_of_their_full_space() {
        let dir = verikit_testkit::require_data!("beem");
        for f in [
            "bakery/bakery.1.pm",
            "needham/needham.1.pm",
            "protocols/protocols.1.pm",
            "public_subscribe/public_subscribe.1.pm",
            "peterson/peterson.1.pm",
            "fischer/fischer.1.pm",
            "msmie/msmie.1.pm",
            "telephony/telephony.1.pm",
        ] {
            let Ok(text) = std::fs::read_to_string(dir.join(f)) else {
                continue;
            };
            let (full, small) = check(f, &text, &[]);
            eprintln!("{f}\t{full}\t{small}");
        }
    }
}
