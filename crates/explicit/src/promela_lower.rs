//! Lowering Promela (`promela_ast`) onto the DVE model (`dve_ast`), so that both languages share
//! one compiler (`model`), one successor generator and one independent replay checker.
//!
//! Each proctype instance becomes a DVE process whose states are the control points of its
//! body (named after Promela labels where there are any), and each Promela statement one DVE
//! transition: a condition is a guard, an assignment an effect, `c!e`/`c?x` a synchronisation
//! (constants in a receive are matched, as in SPIN); `goto` after a statement and `break` only
//! redirect that statement (SPIN compiles jumps away too), `if`/`do` are choices at a control
//! point, `else` is the negation of the other options' executability, `d_step { … }` is one
//! transition (its leading conditions the guard, at most one channel operation, the
//! assignments the effect), `atomic { … }` a chain whose inner control points are DVE committed
//! states (except the point after a rendezvous send, which gives up the sequence's exclusivity
//! in SPIN), `assert(e)` an assertion of the control point it stands at. `init` may only
//! initialise globals and `run` processes (the form BEEM's translations use); that prefix is
//! folded into the initial state. `run P(args)` binds each instance's parameters: a scalar
//! parameter is a local initialised to its constant argument, a `chan` parameter renames the
//! body's channel operations to the global channel passed (SPIN, *The SPIN Model Checker*,
//! ch. 3, `run` and `proctype` parameters). A `never` claim becomes the property process, its `accept…`
//! labels accepting states (Holzmann, *The SPIN Model Checker*, ch. 3–4; DiVinE's property
//! processes, Barnat et al., CAV 2006, §2).

use crate::bytecode::bin;
use crate::dve_ast::*;
use crate::promela_ast::*;
use rustc_hash::FxHashMap;
use verikit_diag::{Diagnostic, Span};
use verikit_graph::UnionFind;

fn err(span: Span, msg: impl Into<String>) -> Diagnostic {
    let m = msg.into();
    Diagnostic::at(span, m.clone()).with_span(span, m)
}

/// A constant integer expression.
fn const_val(e: &Expr) -> Result<i64, Diagnostic> {
    match e {
        Expr::Int(v, _) => Ok(*v),
        Expr::Unary(op, a, sp) => {
            let a = const_val(a)?;
            Ok(match op {
                UnOp::Neg => a.checked_neg().ok_or_else(|| err(*sp, "overflow"))?,
                UnOp::Not => i64::from(a == 0),
                UnOp::BitNot => !a,
            })
        }
        Expr::Binary(op, a, b, sp) => {
            let (a, b) = (const_val(a)?, const_val(b)?);
            let (Ok(a), Ok(b)) = (i32::try_from(a), i32::try_from(b)) else {
                return Err(err(*sp, "constant out of range"));
            };
            bin(*op, a, b)
                .map(i64::from)
                .ok_or_else(|| err(*sp, "division by zero in a constant"))
        }
        other => Err(err(
            other.span(),
            "a constant is expected here (a number or an expression of numbers)",
        )),
    }
}

/// Initial values of a declaration (an array initialiser sets every element, as in SPIN).
fn initial_values(d: &VarDef) -> Result<(Option<usize>, Vec<i64>), Diagnostic> {
    let v = d.init.as_ref().map(const_val).transpose()?.unwrap_or(0);
    match &d.len {
        None => Ok((None, vec![v])),
        Some(l) => {
            let n = const_val(l)?;
            if !(1..=65_536).contains(&n) {
                return Err(err(
                    l.span(),
                    format!("array length {n} out of range 1..65536"),
                ));
            }
            Ok((Some(n as usize), vec![v; n as usize]))
        }
    }
}

fn decl(d: &VarDef, len: Option<usize>, vals: &[i64]) -> VarDecl {
    VarDecl {
        name: d.name.clone(),
        ty: d.ty,
        is_const: false,
        len: len.map(|n| Expr::Int(n as i64, d.span)),
        init: vals.iter().map(|&v| Expr::Int(v, d.span)).collect(),
        span: d.span,
    }
}

struct Edge {
    from: usize,
    to: usize,
    guard: Option<Expr>,
    sync: Option<SyncAst>,
    effect: Vec<(LValue, Expr)>,
    span: Span,
    origin: Origin,
}

/// The control-flow graph of one process body; control points are merged with a union-find
/// (a label, a `goto` or a `break` names a point another statement already ends at).
#[derive(Default)]
struct Cfg {
    points: UnionFind,
    commit: Vec<bool>,
    edges: Vec<Edge>,
    labels: FxHashMap<String, (usize, Option<Span>)>,
    label_order: Vec<(String, usize)>,
    uses: Vec<(String, Span)>,
    breaks: Vec<usize>,
    asserts: Vec<(usize, Expr, Span)>,
    /// The rendezvous channels (capacity 0).
    rendezvous: rustc_hash::FxHashSet<String>,
    /// Points after a rendezvous send inside `atomic`: not committed (SPIN: the send loses the
    /// sequence's exclusivity; control passes to the receiver).
    uncommit: Vec<usize>,
}

impl Cfg {
    fn fresh(&mut self, commit: bool) -> usize {
        self.commit.push(commit);
        self.points.push()
    }
    fn find(&mut self, x: usize) -> usize {
        self.points.find(x)
    }
    fn union(&mut self, a: usize, b: usize) {
        if let Some((a, b)) = self.points.union(a, b) {
            let cb = self.commit.get(b).copied().unwrap_or(false);
            if let Some(ca) = self.commit.get_mut(a) {
                *ca |= cb;
            }
        }
    }
    fn label(&mut self, name: &str) -> usize {
        if let Some(&(n, _)) = self.labels.get(name) {
            return n;
        }
        let n = self.fresh(false);
        self.labels.insert(name.to_string(), (n, None));
        n
    }
    fn define(&mut self, name: &str, sp: Span, at: usize) -> Result<(), Diagnostic> {
        let n = self.label(name);
        match self.labels.get_mut(name) {
            Some((_, Some(_))) => return Err(err(sp, format!("label `{name}` is defined twice"))),
            Some((_, def)) => *def = Some(sp),
            None => {}
        }
        self.label_order.push((name.to_string(), n));
        self.union(at, n);
        Ok(())
    }
    fn edge(&mut self, from: usize, to: usize, span: Span) -> &mut Edge {
        self.edges.push(Edge {
            from,
            to,
            guard: None,
            sync: None,
            effect: Vec::new(),
            span,
            origin: Origin::Other,
        });
        let k = self.edges.len() - 1;
        &mut self.edges[k]
    }

    fn seq(
        &mut self,
        steps: &[Step],
        from: usize,
        to: usize,
        atomic: bool,
    ) -> Result<(), Diagnostic> {
        if steps.is_empty() {
            self.union(from, to);
            return Ok(());
        }
        let mut cur = from;
        for (i, st) in steps.iter().enumerate() {
            for (l, sp) in &st.labels {
                self.define(l, *sp, cur)?;
            }
            let last = i + 1 == steps.len();
            if i > 0 {
                match &st.stmt {
                    Stmt::Goto(l, sp) => {
                        self.uses.push((l.clone(), *sp));
                        let t = self.label(l);
                        self.union(cur, t);
                        cur = self.fresh(false);
                        continue;
                    }
                    Stmt::Break => {
                        let Some(&t) = self.breaks.last() else {
                            return Err(err(st.span, "`break` outside a `do` loop"));
                        };
                        self.union(cur, t);
                        cur = self.fresh(false);
                        continue;
                    }
                    _ => {}
                }
            }
            let nxt = if last { to } else { self.fresh(atomic) };
            self.stmt(st, cur, nxt, atomic)?;
            cur = nxt;
        }
        Ok(())
    }

    fn stmt(&mut self, st: &Step, from: usize, to: usize, atomic: bool) -> Result<(), Diagnostic> {
        let sp = st.span;
        match &st.stmt {
            Stmt::Cond(e) => {
                let t = self.edge(from, to, sp);
                t.guard = Some(e.clone());
                t.origin = Origin::Cond;
            }
            Stmt::Assign(lv, e) => self.edge(from, to, sp).effect.push((lv.clone(), e.clone())),
            Stmt::Send(..) | Stmt::Recv(..) => {
                if let Stmt::Send(c, ..) = &st.stmt {
                    if atomic && self.rendezvous.contains(c) {
                        self.uncommit.push(to);
                    }
                }
                let s = sync(&st.stmt)?;
                let t = self.edge(from, to, sp);
                t.sync = Some(s);
                if matches!(st.stmt, Stmt::Recv(..)) {
                    t.origin = Origin::Recv;
                }
            }
            Stmt::Skip => {
                self.edge(from, to, sp);
            }
            Stmt::Empty => self.union(from, to),
            Stmt::Goto(l, lsp) => {
                self.uses.push((l.clone(), *lsp));
                let t = self.label(l);
                self.edge(from, t, sp);
            }
            Stmt::Break => {
                let Some(&t) = self.breaks.last() else {
                    return Err(err(sp, "`break` outside a `do` loop"));
                };
                self.edge(from, t, sp);
            }
            Stmt::Else => return Err(err(sp, "`else` must start an option of `if` or `do`")),
            Stmt::Assert(e) => {
                self.asserts.push((from, e.clone(), sp));
                self.edge(from, to, sp);
            }
            Stmt::Run(_, _, rsp) => {
                return Err(err(
                    *rsp,
                    "`run` is supported only in `init` (processes are started at the beginning)",
                ))
            }
            Stmt::If(opts) => {
                let (opts, els) = with_else(opts, sp)?;
                for (i, o) in opts.iter().enumerate() {
                    self.option(o, from, to, atomic, els == Some(i))?;
                }
            }
            Stmt::Do(opts) => {
                let (opts, els) = with_else(opts, sp)?;
                self.breaks.push(to);
                for (i, o) in opts.iter().enumerate() {
                    self.option(o, from, from, atomic, els == Some(i))?;
                }
                self.breaks.pop();
            }
            Stmt::Atomic(body) => self.seq(body, from, to, true)?,
            Stmt::DStep(body) => {
                let e = dstep(body, sp)?;
                self.edges.push(Edge { from, to, ..e });
            }
        }
        Ok(())
    }

    /// One option of `if`/`do`; the `else` option's first step (its negated guard, one
    /// transition) is marked as SPIN's `else`.
    fn option(
        &mut self,
        o: &[Step],
        from: usize,
        to: usize,
        atomic: bool,
        is_else: bool,
    ) -> Result<(), Diagnostic> {
        let k = self.edges.len();
        self.seq(o, from, to, atomic)?;
        if is_else {
            if let Some(e) = self.edges.get_mut(k) {
                e.origin = Origin::Else;
            }
        }
        Ok(())
    }
}

fn sync(s: &Stmt) -> Result<SyncAst, Diagnostic> {
    Ok(match s {
        Stmt::Send(c, vals, sp) => SyncAst {
            chan: c.clone(),
            dir: Dir::Send,
            values: vals.clone(),
            targets: Vec::new(),
            span: *sp,
        },
        Stmt::Recv(c, args, sp) => SyncAst {
            chan: c.clone(),
            dir: Dir::Recv,
            values: Vec::new(),
            targets: args.clone(),
            span: *sp,
        },
        _ => return Err(Diagnostic::error("internal: not a channel operation")),
    })
}

/// When a step can execute, as an expression (`None`: it depends on a channel).
fn executable(st: &Step) -> Option<Expr> {
    let sp = st.span;
    match &st.stmt {
        Stmt::Cond(e) => Some(e.clone()),
        Stmt::Send(..) | Stmt::Recv(..) | Stmt::Else => None,
        Stmt::Atomic(b) | Stmt::DStep(b) => b.first().map_or(Some(Expr::Int(1, sp)), executable),
        Stmt::If(opts) | Stmt::Do(opts) => {
            let mut acc: Option<Expr> = None;
            for o in opts {
                let e = o.first().map_or(Some(Expr::Int(1, sp)), executable)?;
                acc = Some(match acc {
                    None => e,
                    Some(a) => Expr::Binary(BinOp::Or, Box::new(a), Box::new(e), sp),
                });
            }
            Some(acc.unwrap_or(Expr::Int(0, sp)))
        }
        _ => Some(Expr::Int(1, sp)),
    }
}

/// Replaces a leading `else` by the negation of the other options' executability; returns the
/// options and the index of the `else` option.
fn with_else(opts: &[Vec<Step>], sp: Span) -> Result<(Vec<Vec<Step>>, Option<usize>), Diagnostic> {
    let is_else = |o: &Vec<Step>| o.first().is_some_and(|s| s.stmt == Stmt::Else);
    let Some(els) = opts.iter().position(is_else) else {
        return Ok((opts.to_vec(), None));
    };
    if opts.iter().filter(|o| is_else(o)).count() > 1 {
        return Err(err(sp, "more than one `else` option"));
    }
    let mut any: Option<Expr> = None;
    for o in opts.iter().filter(|o| !is_else(o)) {
        let Some(first) = o.first() else { continue };
        let e = executable(first).ok_or_else(|| {
            err(
                first.span,
                "`else` beside an option that starts with a channel operation is not supported",
            )
        })?;
        any = Some(match any {
            None => e,
            Some(a) => Expr::Binary(BinOp::Or, Box::new(a), Box::new(e), sp),
        });
    }
    let guard = Expr::Unary(UnOp::Not, Box::new(any.unwrap_or(Expr::Int(0, sp))), sp);
    let opts = opts
        .iter()
        .map(|o| {
            let mut o = o.clone();
            if let Some(first) = o.first_mut() {
                if first.stmt == Stmt::Else {
                    first.stmt = Stmt::Cond(guard.clone());
                }
            }
            o
        })
        .collect();
    Ok((opts, Some(els)))
}

/// `d_step { conditions; [one channel operation;] assignments }` as one transition.
fn dstep(body: &[Step], sp: Span) -> Result<Edge, Diagnostic> {
    let mut e = Edge {
        from: 0,
        to: 0,
        guard: None,
        sync: None,
        effect: Vec::new(),
        span: sp,
        origin: Origin::DStep,
    };
    // 0: conditions, 1: after the channel operation or an assignment.
    let mut phase = 0;
    for st in body {
        if let Some((l, lsp)) = st.labels.first() {
            return Err(err(
                *lsp,
                format!("label `{l}` inside `d_step` is not supported"),
            ));
        }
        match &st.stmt {
            Stmt::Cond(c) if phase == 0 => {
                e.guard = Some(match e.guard.take() {
                    None => c.clone(),
                    Some(g) => Expr::Binary(BinOp::And, Box::new(g), Box::new(c.clone()), sp),
                });
            }
            Stmt::Send(..) | Stmt::Recv(..) if e.sync.is_none() && phase == 0 => {
                e.sync = Some(sync(&st.stmt)?);
                phase = 1;
            }
            Stmt::Assign(lv, x) => {
                e.effect.push((lv.clone(), x.clone()));
                phase = 1;
            }
            Stmt::Skip | Stmt::Empty => {}
            _ => {
                return Err(err(
                    st.span,
                    "inside `d_step` only leading conditions, one channel operation and \
                     assignments are supported",
                ))
            }
        }
    }
    Ok(e)
}

/// Lowers one body into a DVE process.
fn process(
    name: &str,
    vars: Vec<VarDecl>,
    body: &[Step],
    span: Span,
    claim: bool,
    rendezvous: &rustc_hash::FxHashSet<String>,
) -> Result<ProcessAst, Diagnostic> {
    let mut g = Cfg {
        rendezvous: rendezvous.clone(),
        ..Cfg::default()
    };
    let entry = g.fresh(false);
    let end = g.fresh(false);
    g.seq(body, entry, end, false)?;
    for p in std::mem::take(&mut g.uncommit) {
        let r = g.find(p);
        if let Some(c) = g.commit.get_mut(r) {
            *c = false;
        }
    }
    for (l, sp) in &g.uses {
        if !matches!(g.labels.get(l), Some((_, Some(_)))) {
            return Err(err(*sp, format!("no label `{l}` in `{name}`")));
        }
    }
    // Names of the control points that are used: the entry and the ends of transitions.
    let mut names: FxHashMap<usize, String> = FxHashMap::default();
    let mut order: Vec<usize> = Vec::new();
    let mut accept = Vec::new();
    for (l, n) in g.label_order.clone() {
        let r = g.find(n);
        names.entry(r).or_insert_with(|| l.clone());
        if claim && l.starts_with("accept") {
            accept.push(r);
        }
    }
    let mut used = vec![g.find(entry)];
    let ends: Vec<(usize, usize)> = g.edges.iter().map(|e| (e.from, e.to)).collect();
    for (a, b) in ends {
        used.push(g.find(a));
        used.push(g.find(b));
    }
    for r in used {
        if !order.contains(&r) {
            order.push(r);
        }
    }
    let mut k = 0;
    let end = g.find(end);
    for &r in &order {
        names.entry(r).or_insert_with(|| {
            if r == end {
                "_end".to_string()
            } else {
                k += 1;
                format!("_p{k}")
            }
        });
    }
    let nm = |r: usize| names.get(&r).cloned().unwrap_or_default();
    let mut trans = Vec::new();
    let edges = std::mem::take(&mut g.edges);
    for e in edges {
        let (f, t) = (g.find(e.from), g.find(e.to));
        trans.push(TransAst {
            from: nm(f),
            to: nm(t),
            guard: e.guard,
            sync: e.sync,
            effect: e.effect,
            span: e.span,
            origin: e.origin,
        });
    }
    let asserts = std::mem::take(&mut g.asserts)
        .into_iter()
        .map(|(n, e, sp)| (nm(g.find(n)), e, sp))
        .collect();
    let commit = order
        .iter()
        .filter(|&&r| g.commit.get(r).copied().unwrap_or(false))
        .map(|&r| (nm(r), span))
        .collect();
    let init = nm(g.find(entry));
    Ok(ProcessAst {
        name: name.to_string(),
        vars,
        states: order.iter().map(|&r| (nm(r), span)).collect(),
        init: (init, span),
        accept: accept.into_iter().map(|r| (nm(r), span)).collect(),
        commit,
        asserts,
        trans,
        span,
    })
}

/// A `run` of `init`'s prefix: the proctype, its arguments, the call's span.
type RunCall = (String, Vec<Expr>, Span);

/// Runs `init`'s prefix: assignments of constants to globals, `run P(args)`.
fn fold_init(
    steps: &[Step],
    globals: &mut FxHashMap<String, Vec<i64>>,
    runs: &mut Vec<RunCall>,
) -> Result<(), Diagnostic> {
    for st in steps {
        if let Some((l, sp)) = st.labels.first() {
            return Err(err(*sp, format!("label `{l}` in `init` is not supported")));
        }
        match &st.stmt {
            Stmt::DStep(b) | Stmt::Atomic(b) => fold_init(b, globals, runs)?,
            Stmt::If(opts) if opts.len() == 1 => {
                if let Some(b) = opts.first() {
                    fold_init(b, globals, runs)?
                }
            }
            Stmt::Skip | Stmt::Empty => {}
            Stmt::Run(p, args, sp) => runs.push((p.clone(), args.clone(), *sp)),
            Stmt::Assign(lv, e) => {
                let v = const_val(e)?;
                let i = lv.index.as_ref().map(const_val).transpose()?.unwrap_or(0);
                let slot = globals
                    .get_mut(&lv.name)
                    .ok_or_else(|| err(lv.span, format!("unknown global `{}`", lv.name)))?;
                let cell = usize::try_from(i)
                    .ok()
                    .and_then(|i| slot.get_mut(i))
                    .ok_or_else(|| err(lv.span, format!("index {i} out of bounds")))?;
                *cell = v;
            }
            _ => {
                return Err(err(
                    st.span,
                    "`init` may only assign constants to globals and `run` processes \
                     (the form of BEEM's translations)",
                ))
            }
        }
    }
    Ok(())
}

/// The parameters of one instance of `p` started with `args` (`None`: an active instance, every
/// parameter 0): scalar parameters become locals initialised to the constant argument, channel
/// parameters a renaming of the body's channel operations to the global channel passed.
fn bind_params(
    p: &Proctype,
    args: Option<&[Expr]>,
    call: Span,
    ast: &PromelaAst,
) -> Result<(Vec<VarDecl>, FxHashMap<String, String>), Diagnostic> {
    let mut locals = Vec::new();
    let mut chans = FxHashMap::default();
    if let Some(a) = args {
        if a.len() != p.params.len() {
            return Err(err(
                call,
                format!(
                    "`{}` takes {} argument(s), {} given",
                    p.name,
                    p.params.len(),
                    a.len()
                ),
            ));
        }
    }
    for (i, (name, ty, sp)) in p.params.iter().enumerate() {
        let arg = args.and_then(|a| a.get(i));
        match ty {
            Some(ty) => {
                let v = arg.map(const_val).transpose()?.unwrap_or(0);
                let d = VarDef {
                    name: name.clone(),
                    ty: *ty,
                    len: None,
                    init: None,
                    span: *sp,
                };
                locals.push(decl(&d, None, &[v]));
            }
            None => {
                let Some(arg) = arg else {
                    return Err(err(
                        *sp,
                        format!(
                            "channel parameter `{name}` of an active proctype has no channel \
                             (start the process with `run` from `init`)"
                        ),
                    ));
                };
                match arg {
                    Expr::Var(c, _) if ast.chans.iter().any(|d| &d.name == c) => {
                        chans.insert(name.clone(), c.clone());
                    }
                    other => {
                        return Err(err(
                            other.span(),
                            format!("the argument for channel parameter `{name}` must name a global channel"),
                        ))
                    }
                }
            }
        }
    }
    Ok((locals, chans))
}

/// The body with the channel names of its sends and receives renamed by `map`.
fn rename_channels(steps: &[Step], map: &FxHashMap<String, String>) -> Vec<Step> {
    let blocks = |opts: &[Vec<Step>]| -> Vec<Vec<Step>> {
        opts.iter().map(|b| rename_channels(b, map)).collect()
    };
    let name = |c: &String| map.get(c).unwrap_or(c).clone();
    steps
        .iter()
        .map(|st| Step {
            labels: st.labels.clone(),
            span: st.span,
            stmt: match &st.stmt {
                Stmt::Send(c, v, sp) => Stmt::Send(name(c), v.clone(), *sp),
                Stmt::Recv(c, v, sp) => Stmt::Recv(name(c), v.clone(), *sp),
                Stmt::If(o) => Stmt::If(blocks(o)),
                Stmt::Do(o) => Stmt::Do(blocks(o)),
                Stmt::Atomic(b) => Stmt::Atomic(rename_channels(b, map)),
                Stmt::DStep(b) => Stmt::DStep(rename_channels(b, map)),
                other => other.clone(),
            },
        })
        .collect()
}

/// Lowers a parsed Promela model to the DVE model the compiler takes.
pub(crate) fn lower(ast: &PromelaAst) -> Result<DveAst, Diagnostic> {
    let mut gvals: FxHashMap<String, Vec<i64>> = FxHashMap::default();
    let mut glens = Vec::new();
    for d in &ast.vars {
        let (len, vals) = initial_values(d)?;
        if gvals.insert(d.name.clone(), vals).is_some() {
            return Err(err(d.span, format!("`{}` is declared twice", d.name)));
        }
        glens.push(len);
    }
    let mut runs = Vec::new();
    if let Some((body, _)) = &ast.init {
        fold_init(body, &mut gvals, &mut runs)?;
    }
    let vars = ast
        .vars
        .iter()
        .zip(&glens)
        .map(|(d, &len)| decl(d, len, gvals.get(&d.name).map_or(&[][..], |v| v)))
        .collect();
    let channels = ast
        .chans
        .iter()
        .map(|c| ChanDecl {
            name: c.name.clone(),
            types: c.types.clone(),
            capacity: Some(c.capacity.clone()),
            span: c.span,
        })
        .collect();
    let rendezvous = ast
        .chans
        .iter()
        .filter(|c| const_val(&c.capacity).is_ok_and(|n| n == 0))
        .map(|c| c.name.clone())
        .collect();
    // Instances: active ones in declaration order (parameters 0, as in SPIN), then those
    // `init` runs.
    let mut inst: Vec<(&Proctype, Option<&[Expr]>, Span)> = Vec::new();
    for p in &ast.procs {
        if let Some(n) = &p.active {
            let n = const_val(n)?;
            if !(0..=255).contains(&n) {
                return Err(err(p.span, format!("`active [{n}]` out of range 0..255")));
            }
            for _ in 0..n {
                inst.push((p, None, p.span));
            }
        }
    }
    for (r, args, sp) in &runs {
        let p = ast
            .procs
            .iter()
            .find(|p| &p.name == r)
            .ok_or_else(|| err(*sp, format!("no proctype `{r}`")))?;
        inst.push((p, Some(args), *sp));
    }
    let mut processes = Vec::new();
    for (k, (p, args, sp)) in inst.iter().enumerate() {
        let count = inst.iter().filter(|q| q.0.name == p.name).count();
        let name = if count == 1 {
            p.name.clone()
        } else {
            let nth = inst[..k].iter().filter(|q| q.0.name == p.name).count();
            format!("{}_{nth}", p.name)
        };
        let (mut locals, chans) = bind_params(p, *args, *sp, ast)?;
        for d in &p.locals {
            let (len, vals) = initial_values(d)?;
            locals.push(decl(d, len, &vals));
        }
        let body = if chans.is_empty() {
            p.body.clone()
        } else {
            rename_channels(&p.body, &chans)
        };
        processes.push(process(&name, locals, &body, p.span, false, &rendezvous)?);
    }
    let mut property = None;
    if let Some((body, sp)) = &ast.never {
        processes.push(process("never", Vec::new(), body, *sp, true, &rendezvous)?);
        property = Some(("never".to_string(), *sp));
    }
    if processes.is_empty() {
        return Err(Diagnostic::error(
            "the model starts no process (no `active proctype` and no `run` in `init`)",
        ));
    }
    Ok(DveAst {
        vars,
        channels,
        processes,
        synchronous: false,
        property,
        atomic_yields: true,
        wrap_bytes: true,
        ltl: ast.ltl.clone(),
    })
}
