//! Inlining of predicates defined by a single clause — the rule inliner z3 runs before Spacer
//! (`fp.xform.inline_eager`, `src/muz/transforms/dl_mk_rule_inliner.cpp`; N. Bjørner, A.
//! Gurfinkel, K. McMillan, A. Rybalchenko, *Horn Clause Solvers for Program Verification*, 2015,
//! §5 "unfolding"). A predicate `P` that is the head of exactly one clause `C: B(y) ∧ φ(y) ⇒
//! P(t(y))`, and does not occur in `B`, is replaced in every body by `C`'s body: an occurrence
//! `P(s)` in `U` becomes `B(y′) ∧ φ(y′) ∧ s = t(y′)` over fresh copies `y′` of `C`'s variables
//! (a variable `y` that is a head argument is replaced by the argument `s` instead of being
//! copied). `P` and `C` disappear; Lustre node compositions (kind2) become one transition
//! clause.
//!
//! Answers are translated back to the original clauses:
//! - **model**: `P` is interpreted by `C`'s image, `∃y. B(y) ∧ φ(y) ∧ p = t(y)`, written without
//!   the quantifier — variables of the head are its parameters, the others are eliminated by
//!   the top-level equalities of the constraint (`y = term`); a predicate whose image keeps a
//!   variable that no equality defines is not inlined (the independent checker has no
//!   quantifiers), except a 0-ary one used only by queries, which is `false` in every model;
//! - **derivation**: every clause of the result records its origin (the original clause, a term
//!   per original variable over the new clause's variables, and the origins of the clauses
//!   inlined into it); a step is expanded into the steps of the inlined clauses (facts evaluated
//!   from the original heads, a fact derived twice listed once) followed by its own.

use crate::horn::{
    apply, eval, mentions, print, size, substitute, symbol, App, Clause, HornSystem,
};
use crate::horn_check::{define, ChcModel, ChcStep};
use std::collections::{HashMap, HashSet};
use verikit_diag::Span;
use verikit_smt::{SExpr, SExprKind};

/// Largest clause (S-expression nodes) an inlining may produce.
const MAX_CLAUSE_NODES: usize = 200_000;
/// Most body applications a clause may have after inlining.
const MAX_BODY: usize = 16;
/// Most clauses a predicate may be used in to be inlined.
const MAX_USES: usize = 8;

/// Where a clause of the result comes from.
#[derive(Clone, Debug)]
struct Origin {
    /// The original clause.
    clause: usize,
    /// Per variable of the original clause, its term over the new clause's variables.
    vars: Vec<SExpr>,
    /// The clauses inlined into it.
    inlined: Vec<Origin>,
}

impl Origin {
    /// The node at `path` (child indices from this one).
    fn at(&mut self, path: &[usize]) -> Option<&mut Origin> {
        match path.split_first() {
            None => Some(self),
            Some((&i, rest)) => self.inlined.get_mut(i)?.at(rest),
        }
    }

    fn substitute(&self, map: &HashMap<String, SExpr>) -> Origin {
        Origin {
            clause: self.clause,
            vars: self.vars.iter().map(|t| substitute(t, map)).collect(),
            inlined: self.inlined.iter().map(|o| o.substitute(map)).collect(),
        }
    }
}

/// The system after inlining, with what translates its answers back.
pub(crate) struct Inlined {
    pub(crate) sys: HornSystem,
    /// Per clause of `sys`, its origin.
    origins: Vec<Origin>,
    /// Per predicate of `sys`, the original predicate.
    kept: Vec<usize>,
    /// The inlined predicates in inlining order, each with its interpretation (SMT-LIB over
    /// `|p!i|`, calling only predicates present when it was inlined).
    defs: Vec<(usize, String)>,
}

impl Inlined {
    /// Number of predicates inlined.
    pub(crate) fn count(&self) -> usize {
        self.defs.len()
    }

    /// The model of the original system from the interpretations (bodies over `|p!i|`) of the
    /// result's predicates: theirs first, then the inlined ones, last inlined first (each calls
    /// only predicates defined before it).
    pub(crate) fn model(&self, orig: &HornSystem, bodies: &[String]) -> ChcModel {
        let mut defs: Vec<String> = self
            .kept
            .iter()
            .zip(bodies)
            .map(|(&p, b)| define(orig, p, b))
            .collect();
        defs.extend(self.defs.iter().rev().map(|(p, b)| define(orig, *p, b)));
        ChcModel { defs }
    }

    /// The derivation over the original clauses; `None` when a value cannot be evaluated.
    pub(crate) fn derivation(&self, orig: &HornSystem, steps: &[ChcStep]) -> Option<Vec<ChcStep>> {
        let mut out = Vec::new();
        let mut seen: HashSet<(usize, Vec<i128>)> = HashSet::new();
        for st in steps {
            let c = self.sys.clauses.get(st.clause)?;
            let o = self.origins.get(st.clause)?;
            let env = |n: &str| {
                c.vars
                    .iter()
                    .position(|(v, _)| v == n)
                    .and_then(|i| st.vars.get(i).copied())
            };
            expand(orig, o, &env, &mut out, &mut seen)?;
        }
        Some(out)
    }
}

/// The steps of an origin tree under values of the new clause's variables: inlined clauses
/// first.
fn expand(
    orig: &HornSystem,
    o: &Origin,
    env: &dyn Fn(&str) -> Option<i128>,
    out: &mut Vec<ChcStep>,
    seen: &mut HashSet<(usize, Vec<i128>)>,
) -> Option<()> {
    for child in &o.inlined {
        expand(orig, child, env, out, seen)?;
    }
    let c = orig.clauses.get(o.clause)?;
    let vars = o
        .vars
        .iter()
        .map(|t| eval(t, env))
        .collect::<Option<Vec<i128>>>()?;
    let own = |n: &str| {
        c.vars
            .iter()
            .position(|(v, _)| v == n)
            .and_then(|i| vars.get(i).copied())
    };
    match &c.head {
        Some(h) => {
            let fact = h
                .args
                .iter()
                .map(|a| eval(a, &own))
                .collect::<Option<Vec<i128>>>()?;
            if seen.insert((h.pred, fact.clone())) {
                out.push(ChcStep {
                    clause: o.clause,
                    vars,
                    fact,
                });
            }
        }
        None => out.push(ChcStep {
            clause: o.clause,
            vars,
            fact: Vec::new(),
        }),
    }
    Some(())
}

fn clause_size(c: &Clause) -> usize {
    let apps = |a: &App| a.args.iter().map(size).sum::<usize>() + 1;
    c.constraint.iter().map(size).sum::<usize>()
        + c.body.iter().map(apps).sum::<usize>()
        + c.head.as_ref().map_or(1, apps)
}

/// `a` and `b` are the same term (spans aside).
fn same(a: &SExpr, b: &SExpr) -> bool {
    match (&a.kind, &b.kind) {
        (SExprKind::Atom(x), SExprKind::Atom(y)) => x == y,
        (SExprKind::List(x), SExprKind::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        _ => false,
    }
}

/// `(= v t)` or `(= t v)` with `v` among `free` and not in `t`; a Boolean `v` (`v = true`) or
/// `(not v)` (`v = false`).
fn equation<'e>(e: &'e SExpr, free: &[&str]) -> Option<(&'e str, SExpr)> {
    if let Some(v) = e.symbol().filter(|v| free.contains(v)) {
        return Some((v, symbol("true", e.span)));
    }
    let l = e.list()?;
    if let [op, x] = l {
        let v = x.symbol().filter(|v| free.contains(v))?;
        return (op.symbol() == Some("not")).then(|| (v, symbol("false", e.span)));
    }
    let [op, a, b] = l else { return None };
    if op.symbol() != Some("=") {
        return None;
    }
    [(a, b), (b, a)].into_iter().find_map(|(x, t)| {
        let v = x.symbol()?;
        (free.contains(&v) && !mentions(t, v)).then(|| (v, t.clone()))
    })
}

/// `(or g eq)` or `(or eq g)` with `eq` an equation of a free variable not in `g`.
fn guarded<'e>(e: &'e SExpr, free: &[&str]) -> Option<(&'e SExpr, &'e str, SExpr)> {
    let [op, a, b] = e.list()? else { return None };
    if op.symbol() != Some("or") {
        return None;
    }
    [(a, b), (b, a)].into_iter().find_map(|(g, q)| {
        let (v, t) = equation(q, free)?;
        (!mentions(g, v)).then_some((g, v, t))
    })
}

/// A conjunct (or a guarded pair of conjuncts) that defines a free variable: the conjuncts'
/// positions, the variable and its definition.
fn defining(conj: &[SExpr], free: &[&str]) -> Option<(Vec<usize>, String, SExpr)> {
    for (k, e) in conj.iter().enumerate() {
        if let Some((v, t)) = equation(e, free) {
            return Some((vec![k], v.to_string(), t));
        }
    }
    let negation = |g: &SExpr| match g.list() {
        Some([n, x]) if n.symbol() == Some("not") => Some(x.clone()),
        _ => None,
    };
    for (k, e) in conj.iter().enumerate() {
        let Some((g, v, t1)) = guarded(e, free) else {
            continue;
        };
        for (j, f) in conj.iter().enumerate().skip(k + 1) {
            let Some((h, w, t2)) = guarded(f, free) else {
                continue;
            };
            if v != w {
                continue;
            }
            // `g ∨ v = t1` and `¬g ∨ v = t2`: `v = ite(g, t2, t1)` (or the other way round).
            let t = if negation(h).is_some_and(|x| same(&x, g)) {
                apply("ite", vec![g.clone(), t2, t1], g.span)
            } else if negation(g).is_some_and(|x| same(&x, h)) {
                apply("ite", vec![h.clone(), t1, t2], h.span)
            } else {
                continue;
            };
            return Some((vec![k, j], v.to_string(), t));
        }
    }
    None
}

/// `P`'s interpretation from its defining clause `c` (see the module documentation), or `None`
/// when a variable outside the head is not defined by an equality.
fn definition(sys: &HornSystem, c: &Clause, only_queries: bool) -> Option<String> {
    let h = c.head.as_ref()?;
    if c.vars.iter().any(|(n, _)| n.starts_with("p!")) {
        return None;
    }
    let span = h.args.first().map_or(c.span, |a| a.span);
    let mut params: HashMap<String, SExpr> = HashMap::new();
    let mut conj: Vec<SExpr> = c.constraint.clone();
    for (i, a) in h.args.iter().enumerate() {
        let p = symbol(&format!("p!{i}"), span);
        match a.symbol() {
            Some(v) if c.vars.iter().any(|(n, _)| n == v) && !params.contains_key(v) => {
                params.insert(v.to_string(), p);
            }
            _ => conj.push(apply("=", vec![p, a.clone()], span)),
        }
    }
    let mut apps: Vec<App> = c.body.clone();
    let mut free: Vec<&str> = c
        .vars
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| !params.contains_key(*n))
        .collect();
    // Eliminate the other variables by the constraint's top-level equalities `y = term` and
    // guarded pairs `(c ∨ y = t₁) ∧ (¬c ∨ y = t₂)` (Lustre's `->` and `pre`: `y = ite(c, t₂, t₁)`).
    while let Some((ks, v, t)) = defining(&conj, &free) {
        let mut ks = ks;
        ks.sort_unstable();
        for k in ks.into_iter().rev() {
            conj.remove(k);
        }
        let m = HashMap::from([(v.clone(), t)]);
        conj = conj.iter().map(|e| substitute(e, &m)).collect();
        for a in &mut apps {
            a.args = a.args.iter().map(|e| substitute(e, &m)).collect();
        }
        free.retain(|f| *f != v);
        if conj.iter().map(size).sum::<usize>() > MAX_CLAUSE_NODES {
            return None;
        }
    }
    let left = free.iter().any(|v| {
        conj.iter().any(|e| mentions(e, v))
            || apps.iter().flat_map(|a| &a.args).any(|e| mentions(e, v))
    });
    if left {
        return (only_queries && h.args.is_empty()).then(|| "false".to_string());
    }
    let mut parts: Vec<String> = apps
        .iter()
        .map(|a| {
            let name = sys.preds.get(a.pred).map_or("", |p| p.name.as_str());
            let args: Vec<SExpr> = a.args.iter().map(|e| substitute(e, &params)).collect();
            if args.is_empty() {
                print(&symbol(name, span))
            } else {
                print(&apply(name, args, span))
            }
        })
        .collect();
    parts.extend(conj.iter().map(|e| print(&substitute(e, &params))));
    Some(match parts.len() {
        0 => "true".into(),
        1 => parts.concat(),
        _ => format!("(and {})", parts.join(" ")),
    })
}

/// Spans of the copies of inlined terms: beyond any input, one per node of the defining
/// clause and copy. The clause translation (`horn_cfa`) shares the work on equal spans, so two
/// copies (different renamings) of one term must not share a span.
const COPY_SPANS: usize = usize::MAX / 2;

/// `e` with the variables of `map` replaced and every other node given the span of its copy.
fn copy(
    e: &SExpr,
    map: &HashMap<String, SExpr>,
    spans: &mut HashMap<(usize, usize), Span>,
    next: &mut usize,
) -> SExpr {
    if let Some(t) = e.symbol().and_then(|v| map.get(v)) {
        return t.clone();
    }
    let span = *spans.entry((e.span.start, e.span.end)).or_insert_with(|| {
        *next += 1;
        let at = COPY_SPANS.saturating_add(*next);
        Span::new(at, at)
    });
    match &e.kind {
        SExprKind::List(items) => SExpr {
            kind: SExprKind::List(items.iter().map(|i| copy(i, map, spans, next)).collect()),
            span,
        },
        SExprKind::Atom(a) => SExpr {
            kind: SExprKind::Atom(a.clone()),
            span,
        },
    }
}

/// A clause being inlined into: the clause, its origin, and per body application the path of
/// the origin node whose clause it belongs to (so that a clause inlined for it becomes that
/// node's child, and the expanded derivation lists it before the step that uses it).
type Work = (Clause, Origin, Vec<Vec<usize>>);

/// Replaces the occurrence `at` of the body of `u` by the body of `c` (which defines it).
fn compose(u: &Work, at: usize, c: &Work, fresh: &mut usize) -> Option<Work> {
    let (u, uo, uown) = u;
    let (c, co, cown) = c;
    let occ = u.body.get(at)?;
    let h = c.head.as_ref()?;
    let taken: HashSet<&str> = u.vars.iter().map(|(n, _)| n.as_str()).collect();
    let mut map: HashMap<String, SExpr> = HashMap::new();
    let mut constraint = u.constraint.clone();
    // Head variables take the occurrence's arguments.
    let mut eqs = Vec::new();
    for (t, s) in h.args.iter().zip(&occ.args) {
        match t.symbol() {
            Some(v) if c.vars.iter().any(|(n, _)| n == v) && !map.contains_key(v) => {
                map.insert(v.to_string(), s.clone());
            }
            _ => eqs.push((s.clone(), t.clone())),
        }
    }
    let mut vars = u.vars.clone();
    for (n, b) in &c.vars {
        if map.contains_key(n) {
            continue;
        }
        let name = loop {
            *fresh += 1;
            let f = format!("{n}!i{fresh}");
            if !taken.contains(f.as_str()) {
                break f;
            }
        };
        *fresh += 1;
        let at = COPY_SPANS.saturating_add(*fresh);
        map.insert(n.clone(), symbol(&name, Span::new(at, at)));
        vars.push((name, *b));
    }
    let mut spans = HashMap::new();
    constraint.extend(
        c.constraint
            .iter()
            .map(|e| copy(e, &map, &mut spans, fresh)),
    );
    for (s, t) in eqs {
        let t = copy(&t, &map, &mut spans, fresh);
        *fresh += 1;
        let at = COPY_SPANS.saturating_add(*fresh);
        constraint.push(apply("=", vec![s, t], Span::new(at, at)));
    }
    let mut body: Vec<App> = u.body.clone();
    body.remove(at);
    body.extend(c.body.iter().map(|a| {
        App {
            pred: a.pred,
            args: a
                .args
                .iter()
                .map(|e| copy(e, &map, &mut spans, fresh))
                .collect(),
        }
    }));
    let mut origin = uo.clone();
    let path = uown.get(at)?.clone();
    let node = origin.at(&path)?;
    node.inlined.push(co.substitute(&map));
    let k = node.inlined.len() - 1;
    let mut owners = uown.clone();
    owners.remove(at);
    owners.extend(cown.iter().map(|p| {
        let mut q = path.clone();
        q.push(k);
        q.extend(p);
        q
    }));
    let clause = Clause {
        vars,
        body,
        constraint,
        head: u.head.clone(),
        matrix: u.matrix,
        span: u.span,
    };
    Some((clause, origin, owners))
}

/// Inlines every predicate defined by a single clause (repeatedly, as long as one qualifies).
pub(crate) fn inline(sys: &HornSystem) -> Inlined {
    let mut clauses: Vec<Work> = sys
        .clauses
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let span = c.span;
            let vars = c.vars.iter().map(|(n, _)| symbol(n, span)).collect();
            (
                c.clone(),
                Origin {
                    clause: i,
                    vars,
                    inlined: Vec::new(),
                },
                vec![Vec::new(); c.body.len()],
            )
        })
        .collect();
    let npreds = sys.preds.len();
    let mut gone = vec![false; npreds];
    let mut defs = Vec::new();
    let mut fresh = 0usize;
    let mut changed = true;
    while changed {
        changed = false;
        for p in 0..npreds {
            let heads: Vec<usize> = clauses
                .iter()
                .enumerate()
                .filter(|(_, (c, _, _))| c.head.as_ref().is_some_and(|h| h.pred == p))
                .map(|(i, _)| i)
                .collect();
            let [d] = heads[..] else { continue };
            let Some(def_clause) = clauses.get(d).cloned() else {
                continue;
            };
            let c = &def_clause.0;
            if c.body.iter().any(|a| a.pred == p) {
                continue;
            }
            let users: Vec<usize> = clauses
                .iter()
                .enumerate()
                .filter(|(_, (u, _, _))| u.body.iter().any(|a| a.pred == p))
                .map(|(i, _)| i)
                .collect();
            if users.len() > MAX_USES {
                continue;
            }
            // `false` interprets a 0-ary `P` whose uses are all `P ⇒ false`.
            let only_queries = !users.is_empty()
                && users.iter().all(|&i| {
                    clauses.get(i).is_some_and(|(u, _, _)| {
                        u.head.is_none()
                            && u.constraint.is_empty()
                            && u.body.iter().all(|a| a.pred == p)
                    })
                });
            let Some(def) = definition(sys, c, only_queries) else {
                continue;
            };
            // Compose every use; give up on this predicate if a result grows too large.
            let mut new: Vec<(usize, Work)> = Vec::new();
            let mut ok = true;
            for &i in &users {
                let Some(mut cur) = clauses.get(i).cloned() else {
                    ok = false;
                    break;
                };
                while let Some(at) = cur.0.body.iter().position(|a| a.pred == p) {
                    match compose(&cur, at, &def_clause, &mut fresh) {
                        Some(n) => cur = n,
                        None => {
                            ok = false;
                            break;
                        }
                    }
                }
                if !ok || cur.0.body.len() > MAX_BODY || clause_size(&cur.0) > MAX_CLAUSE_NODES {
                    ok = false;
                    break;
                }
                new.push((i, cur));
            }
            if !ok {
                continue;
            }
            for (i, n) in new {
                if let Some(slot) = clauses.get_mut(i) {
                    *slot = n;
                }
            }
            clauses.remove(d);
            if let Some(g) = gone.get_mut(p) {
                *g = true;
            }
            defs.push((p, def));
            changed = true;
        }
    }
    // Renumber the predicates that stay.
    let kept: Vec<usize> = (0..npreds)
        .filter(|&p| !gone.get(p).copied().unwrap_or(true))
        .collect();
    let index: HashMap<usize, usize> = kept.iter().enumerate().map(|(i, &p)| (p, i)).collect();
    let renumber = |a: &App| App {
        pred: index.get(&a.pred).copied().unwrap_or(usize::MAX),
        args: a.args.clone(),
    };
    let (cs, origins): (Vec<Clause>, Vec<Origin>) = clauses
        .into_iter()
        .map(|(c, o, _)| {
            let c = Clause {
                body: c.body.iter().map(renumber).collect(),
                head: c.head.as_ref().map(renumber),
                ..c
            };
            (c, o)
        })
        .unzip();
    Inlined {
        sys: HornSystem {
            preds: kept
                .iter()
                .filter_map(|&p| sys.preds.get(p).cloned())
                .collect(),
            clauses: cs,
        },
        origins,
        kept,
        defs,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::cfa::smt_int;
    use crate::chc_task::{run_spacer, Preprocess};
    use crate::horn::read_horn;
    use proptest::prelude::*;
    use std::collections::HashSet;
    use std::time::Duration;
    use verikit_diag::Budget;

    /// Variables of every random clause (`x0 … x3`, all `Int`), values 0..=3.
    const VARS: usize = 4;

    /// A head argument: a variable or a constant.
    #[derive(Clone, Debug)]
    pub(crate) enum Arg {
        Var(usize),
        Const(i64),
    }

    /// A random clause: head (`None`: a query), body applications over variables, atoms
    /// `(kind, a, b, c)`.
    #[derive(Clone, Debug)]
    pub(crate) struct RandClause {
        head: Option<(usize, Vec<Arg>)>,
        body: Vec<(usize, Vec<usize>)>,
        atoms: Vec<(u8, usize, usize, i64)>,
    }

    /// A random system over predicates `p0 …` of small arities: every variable that no body
    /// application binds is bounded to 0..=3, so the least model is finite and brute force
    /// decides it.
    #[derive(Clone, Debug)]
    pub(crate) struct RandSys {
        arity: Vec<usize>,
        clauses: Vec<RandClause>,
    }

    fn atom_text(&(k, a, b, c): &(u8, usize, usize, i64)) -> String {
        match k % 4 {
            0 => format!("(<= (+ x{a} x{b}) {})", smt_int(c.into())),
            1 => format!("(= x{a} (+ x{b} {}))", smt_int(c.into())),
            2 => format!("(distinct x{a} x{b})"),
            _ => format!("(>= x{a} {})", smt_int(c.into())),
        }
    }

    fn atom_holds(&(k, a, b, c): &(u8, usize, usize, i64), v: &[i64]) -> bool {
        let (x, y) = (v[a], v[b]);
        match k % 4 {
            0 => x + y <= c,
            1 => x == y + c,
            2 => x != y,
            _ => x >= c,
        }
    }

    impl RandClause {
        /// The variables that need a bound: read by the head or an atom, bound by no body
        /// application (the others are bounded by their facts or irrelevant).
        fn bound(&self) -> Vec<usize> {
            let read = |x: &usize| {
                self.atoms.iter().any(|&(_, a, b, _)| a == *x || b == *x)
                    || self
                        .head
                        .as_ref()
                        .is_some_and(|(_, h)| h.iter().any(|a| matches!(a, Arg::Var(y) if y == x)))
            };
            (0..VARS)
                .filter(|x| read(x) && !self.body.iter().any(|(_, a)| a.contains(x)))
                .collect()
        }
    }

    impl RandSys {
        pub(crate) fn text(&self) -> String {
            let mut s = String::from("(set-logic HORN)\n");
            for (p, n) in self.arity.iter().enumerate() {
                s += &format!("(declare-fun p{p} ({}) Bool)\n", vec!["Int"; *n].join(" "));
            }
            let app = |p: usize, args: Vec<String>| {
                if args.is_empty() {
                    format!("p{p}")
                } else {
                    format!("(p{p} {})", args.join(" "))
                }
            };
            for c in &self.clauses {
                let mut body: Vec<String> = c
                    .body
                    .iter()
                    .map(|(p, a)| app(*p, a.iter().map(|x| format!("x{x}")).collect()))
                    .collect();
                body.extend(c.bound().iter().map(|x| format!("(<= 0 x{x} 3)")));
                body.extend(c.atoms.iter().map(atom_text));
                let head = match &c.head {
                    None => "false".to_string(),
                    Some((p, a)) => app(
                        *p,
                        a.iter()
                            .map(|a| match a {
                                Arg::Var(x) => format!("x{x}"),
                                Arg::Const(k) => k.to_string(),
                            })
                            .collect(),
                    ),
                };
                s += &format!(
                    "(assert (forall ((x0 Int) (x1 Int) (x2 Int) (x3 Int)) (=> (and true {}) {head})))\n",
                    body.join(" ")
                );
            }
            s + "(check-sat)\n"
        }

        /// Brute force: `unsat` when the least model reaches a query.
        pub(crate) fn truth(&self) -> &'static str {
            let mut facts: Vec<HashSet<Vec<i64>>> = vec![HashSet::new(); self.arity.len()];
            loop {
                let mut new = false;
                for c in &self.clauses {
                    for code in 0..4usize.pow(VARS as u32) {
                        let v: Vec<i64> =
                            (0..VARS).map(|i| ((code >> (2 * i)) & 3) as i64).collect();
                        let body = c.body.iter().all(|(p, a)| {
                            facts[*p].contains(&a.iter().map(|&x| v[x]).collect::<Vec<_>>())
                        });
                        if !body || !c.atoms.iter().all(|a| atom_holds(a, &v)) {
                            continue;
                        }
                        match &c.head {
                            None => return "unsat",
                            Some((p, a)) => {
                                let f = a
                                    .iter()
                                    .map(|a| match a {
                                        Arg::Var(x) => v[*x],
                                        Arg::Const(k) => *k,
                                    })
                                    .collect();
                                new |= facts[*p].insert(f);
                            }
                        }
                    }
                }
                if !new {
                    return "sat";
                }
            }
        }
    }

    pub(crate) fn arb_system() -> impl Strategy<Value = RandSys> {
        let arity = proptest::collection::vec(0usize..3, 2..4);
        arity.prop_flat_map(|arity| {
            let n = arity.len();
            let ar = arity.clone();
            let app = move |p: usize| {
                let k = ar[p % ar.len()];
                proptest::collection::vec(0..VARS, k).prop_map(move |a| (p % n, a))
            };
            let atoms = proptest::collection::vec((0u8..4, 0..VARS, 0..VARS, -1i64..3), 0..3);
            let ar2 = arity.clone();
            let head = (0..n).prop_flat_map(move |p| {
                proptest::collection::vec(
                    prop_oneof![
                        3 => (0..VARS).prop_map(Arg::Var),
                        1 => (0i64..4).prop_map(Arg::Const)
                    ],
                    ar2[p],
                )
                .prop_map(move |a| Some((p, a)))
            });
            let body = proptest::collection::vec((0..n).prop_flat_map(app.clone()), 0..3);
            let clause = (head, body, atoms.clone()).prop_map(|(head, body, atoms)| RandClause {
                head,
                body,
                atoms,
            });
            let query = (
                proptest::collection::vec((0..n).prop_flat_map(app), 1..3),
                atoms,
            )
                .prop_map(|(body, atoms)| RandClause {
                    head: None,
                    body,
                    atoms,
                });
            (proptest::collection::vec(clause, 2..6), query).prop_map(move |(mut clauses, q)| {
                clauses.push(q);
                RandSys {
                    arity: arity.clone(),
                    clauses,
                }
            })
        })
    }

    /// Spacer after the preprocessing `pre` on a random system: when it answers, the answer is
    /// brute force's and its witness, translated back, passed `horn_check` (`run_spacer` checks
    /// it on the clauses as written); otherwise it only ran out of budget.
    pub(crate) fn agrees(sys: &RandSys, pre: Preprocess) -> Result<(), TestCaseError> {
        let text = sys.text();
        let h = read_horn(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let budget = Budget::with_timeout(Duration::from_secs(20)).with_work_limit(20_000);
        match run_spacer(&h, &text, &budget, pre) {
            Ok(a) => {
                let r = a
                    .detail
                    .get("result")
                    .and_then(|v| v.as_str())
                    .unwrap_or("");
                prop_assert_eq!(r, sys.truth(), "{}", text);
            }
            Err(why) => prop_assert!(
                why.contains("resource") || why.contains("timeout"),
                "{why}\n{text}"
            ),
        }
        Ok(())
    }

    proptest! {
        // About one system in six has a predicate to inline.
        #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]
        #[test]
        fn inlining_keeps_the_answer_and_translates_the_witness_back(sys in arb_system()) {
            agrees(&sys, Preprocess { inline: true, slice: false })?;
        }
    }

    #[test]
    fn a_single_clause_definition_is_inlined_and_its_image_is_the_model() {
        // `q` is defined by one clause (`q(x, y) ← y = x + 1`); `p` counts with it.
        let text = "(set-logic HORN)
(declare-fun q (Int Int) Bool)
(declare-fun p (Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (= y (+ x 1)) (q x y))))
(assert (forall ((x Int)) (=> (= x 0) (p x))))
(assert (forall ((x Int) (y Int)) (=> (and (p x) (q x y) (< x 5)) (p y))))
(assert (forall ((x Int)) (=> (and (p x) (> x 5)) false)))
(check-sat)
";
        let sys = read_horn(text).expect("read");
        let inl = super::inline(&sys);
        assert_eq!(inl.count(), 1);
        assert_eq!(inl.sys.preds.len(), 1);
        let budget = Budget::unlimited().with_work_limit(20_000);
        let pre = Preprocess {
            inline: true,
            slice: false,
        };
        let a = run_spacer(&sys, text, &budget, pre).expect("decided");
        assert_eq!(a.detail.get("result").and_then(|v| v.as_str()), Some("sat"));
        // Reachable at 6 once the guard is `x ≤ 5`: a derivation through the inlined clause.
        let bad = text.replace("(< x 5)", "(<= x 5)");
        let sys = read_horn(&bad).expect("read");
        let a = run_spacer(&sys, &bad, &budget, pre).expect("decided");
        assert_eq!(
            a.detail.get("result").and_then(|v| v.as_str()),
            Some("unsat")
        );
    }
}
