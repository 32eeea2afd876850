//! Semantic analysis of a PRISM model: constants (defined in the file or given with `--const`),
//! formula expansion, module renaming, variable ranges, action alphabets, and type checking of
//! every expression (int/double/bool) — all reported with spans before any state is built.

use super::ast::*;
use super::expr::{CExpr, Value};
use std::collections::HashMap;
use verikit_diag::{Diagnostic, Span};

#[derive(Clone, Debug)]
pub struct VarInfo {
    pub name: String,
    pub lo: i64,
    pub hi: i64,
    /// Initial value (absent when the model has an `init … endinit` block).
    pub init: Option<i64>,
    pub is_bool: bool,
    /// Index of the owning module, `None` for globals.
    pub module: Option<usize>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum CProb {
    One,
    Point(CExpr),
    Interval(CExpr, CExpr),
}

#[derive(Clone, Debug)]
pub struct CUpdate {
    pub prob: CProb,
    pub assigns: Vec<(u32, CExpr)>,
    /// Rewards earned by taking this update: (reward structure index, value).
    pub rewards: Vec<(u32, CExpr)>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct CCommand {
    pub action: Option<u32>,
    pub guard: CExpr,
    pub updates: Vec<CUpdate>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct CModule {
    pub name: String,
    pub commands: Vec<CCommand>,
    /// Actions (indices into `Program::actions`) this module synchronises on.
    pub alphabet: Vec<u32>,
}

#[derive(Clone, Debug)]
pub struct CRewards {
    pub name: Option<String>,
    pub state: Vec<(CExpr, CExpr)>,
    /// `(action, guard, value)`; action `None` is `[]`.
    pub trans: Vec<(Option<u32>, CExpr, CExpr)>,
    /// Where each value of `state` and of `trans` is written (for build-time errors).
    pub state_spans: Vec<Span>,
    pub trans_spans: Vec<Span>,
}

/// A resolved `system … endsystem` term (PRISM manual, "Process Algebra Operators"); actions
/// are indices into `Program::actions`.
#[derive(Clone, Debug)]
pub enum STerm {
    Module(usize),
    /// Parallel composition synchronising on `sync` (the shared actions for `||`, none for
    /// `|||`, the listed ones for `|[…]|`); other actions interleave.
    Par(Box<STerm>, Box<STerm>, Vec<u32>),
    /// The listed actions become unlabelled.
    Hide(Box<STerm>, Vec<u32>),
    /// `(from, to)` action renaming.
    Rename(Box<STerm>, Vec<(u32, u32)>),
}

impl STerm {
    /// The actions the term can synchronise on.
    pub fn alphabet(&self, modules: &[CModule]) -> Vec<u32> {
        let mut out = match self {
            STerm::Module(m) => modules.get(*m).map_or(Vec::new(), |m| m.alphabet.clone()),
            STerm::Par(a, b, _) => {
                let mut x = a.alphabet(modules);
                x.extend(b.alphabet(modules));
                x
            }
            STerm::Hide(a, h) => {
                let mut x = a.alphabet(modules);
                x.retain(|y| !h.contains(y));
                x
            }
            STerm::Rename(a, map) => a
                .alphabet(modules)
                .into_iter()
                .map(|y| map.iter().find(|(f, _)| *f == y).map_or(y, |(_, t)| *t))
                .collect(),
        };
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Resolves a system term; returns it with a flag saying whether it only uses `||` (then it
/// equals PRISM's default composition of all modules).
fn resolve_system(
    t: &SysExpr,
    modules: &[CModule],
    actions: &mut Vec<String>,
    action_ix: &mut HashMap<String, u32>,
) -> Result<(STerm, bool), Diagnostic> {
    fn intern(n: &str, actions: &mut Vec<String>, action_ix: &mut HashMap<String, u32>) -> u32 {
        *action_ix.entry(n.to_string()).or_insert_with(|| {
            actions.push(n.to_string());
            actions.len() as u32 - 1
        })
    }
    Ok(match t {
        SysExpr::Module(n, sp) => {
            let m = modules
                .iter()
                .position(|m| m.name == *n)
                .ok_or_else(|| Diagnostic::at(*sp, format!("unknown module `{n}`")))?;
            (STerm::Module(m), true)
        }
        SysExpr::Full(parts) | SysExpr::Interleave(parts) => {
            let full = matches!(t, SysExpr::Full(_));
            let mut it = parts.iter();
            let first = it
                .next()
                .ok_or_else(|| Diagnostic::error("empty parallel composition"))?;
            let (mut acc, mut plain) = resolve_system(first, modules, actions, action_ix)?;
            for p in it {
                let (b, pb) = resolve_system(p, modules, actions, action_ix)?;
                let sync = if full {
                    let bb = b.alphabet(modules);
                    let mut s = acc.alphabet(modules);
                    s.retain(|x| bb.contains(x));
                    s
                } else {
                    Vec::new()
                };
                plain &= pb && full;
                acc = STerm::Par(Box::new(acc), Box::new(b), sync);
            }
            (acc, plain)
        }
        SysExpr::Restricted(a, list, b) => {
            let (a, _) = resolve_system(a, modules, actions, action_ix)?;
            let (b, _) = resolve_system(b, modules, actions, action_ix)?;
            let mut sync: Vec<u32> = list
                .iter()
                .map(|(n, _)| intern(n, actions, action_ix))
                .collect();
            sync.sort_unstable();
            sync.dedup();
            (STerm::Par(Box::new(a), Box::new(b), sync), false)
        }
        SysExpr::Hide(a, list) => {
            let (a, _) = resolve_system(a, modules, actions, action_ix)?;
            let hidden = list
                .iter()
                .map(|(n, _)| intern(n, actions, action_ix))
                .collect();
            (STerm::Hide(Box::new(a), hidden), false)
        }
        SysExpr::Rename(a, pairs) => {
            let mut map: Vec<(u32, u32)> = Vec::new();
            for (f, to, sp) in pairs {
                let (fi, ti) = (
                    intern(f, actions, action_ix),
                    intern(to, actions, action_ix),
                );
                if map.iter().any(|(x, _)| *x == fi) {
                    return Err(Diagnostic::at(
                        *sp,
                        format!("action `{f}` is renamed twice"),
                    ));
                }
                map.push((fi, ti));
            }
            let (a, _) = resolve_system(a, modules, actions, action_ix)?;
            (STerm::Rename(Box::new(a), map), false)
        }
    })
}

/// A resolved, type-checked model ready to be explored.
#[derive(Clone, Debug)]
pub struct Program {
    pub model_type: ModelType,
    pub vars: Vec<VarInfo>,
    pub modules: Vec<CModule>,
    pub actions: Vec<String>,
    pub init: Option<CExpr>,
    pub labels: Vec<(String, CExpr)>,
    pub rewards: Vec<CRewards>,
    pub constants: Vec<(String, Value)>,
    /// Formulas of the model (unexpanded AST), for use in properties.
    pub formulas: HashMap<String, Expr>,
    pub var_index: HashMap<String, u32>,
    /// The composition of a `system … endsystem` block; `None` for PRISM's default (all modules
    /// in `||`, also used when the block only uses `||`).
    pub system: Option<STerm>,
    /// Variables declared without bounds (`x : int`): their range in `vars` is only the initial
    /// value, and the builder grows it as it finds values.
    pub unbounded: Vec<u32>,
}

/// Name resolution for [`compile`].
pub(crate) struct Scope<'a> {
    pub consts: &'a HashMap<String, Value>,
    pub vars: &'a HashMap<String, u32>,
    pub var_types: &'a [Type],
    pub formulas: &'a HashMap<String, Expr>,
}

/// A hook that may resolve special nodes (labels, P/R/S operators) itself.
pub(crate) type Hook<'h> = &'h mut dyn FnMut(&Expr) -> Result<Option<(CExpr, Type)>, Diagnostic>;

fn tyerr(sp: Span, msg: String) -> Diagnostic {
    Diagnostic::at(sp, format!("type error: {msg}"))
}

fn numeric(t: Type) -> bool {
    matches!(t, Type::Int | Type::Double)
}

/// Resolves names and checks types of `e`, returning the folded expression and its type.
pub(crate) fn compile(e: &Expr, scope: &Scope, hook: Hook) -> Result<(CExpr, Type), Diagnostic> {
    compile_d(e, scope, hook, 0)
}

fn compile_d(
    e: &Expr,
    scope: &Scope,
    hook: Hook,
    depth: usize,
) -> Result<(CExpr, Type), Diagnostic> {
    if depth > 200 {
        return Err(Diagnostic::at(
            e.span,
            "formulas are nested too deeply (cyclic formula definition?)",
        ));
    }
    if let Some(r) = hook(e)? {
        return Ok(r);
    }
    let sp = e.span;
    let r = match &e.kind {
        ExprKind::Int(i) => (CExpr::Const(Value::I(*i)), Type::Int),
        ExprKind::Real(r) => (CExpr::Const(Value::D(*r)), Type::Double),
        ExprKind::Bool(b) => (CExpr::Const(Value::B(*b)), Type::Bool),
        ExprKind::Ident(name) => {
            if let Some(&v) = scope.vars.get(name) {
                let t = scope
                    .var_types
                    .get(v as usize)
                    .copied()
                    .unwrap_or(Type::Int);
                (CExpr::Var(v), t)
            } else if let Some(v) = scope.consts.get(name) {
                (CExpr::Const(*v), v.ty())
            } else if let Some(f) = scope.formulas.get(name) {
                compile_d(f, scope, hook, depth + 1)?
            } else {
                return Err(Diagnostic::at(sp, format!("unknown identifier `{name}`"))
                    .with_span(sp, "not a variable, constant or formula"));
            }
        }
        ExprKind::Label(l) => return Err(Diagnostic::at(sp, format!("unknown label \"{l}\""))),
        ExprKind::Unary(op, a) => {
            let (ca, ta) = compile_d(a, scope, hook, depth + 1)?;
            match op {
                UnOp::Not if ta != Type::Bool => {
                    return Err(tyerr(
                        a.span,
                        format!("`!` expects bool, found {}", ta.name()),
                    ))
                }
                UnOp::Neg if !numeric(ta) => {
                    return Err(tyerr(
                        a.span,
                        format!("`-` expects a number, found {}", ta.name()),
                    ))
                }
                _ => {}
            }
            (CExpr::Unary(*op, Box::new(ca)), ta)
        }
        ExprKind::Binary(op, a, b) => {
            let (ca, ta) = compile_d(a, scope, hook, depth + 1)?;
            let (cb, tb) = compile_d(b, scope, hook, depth + 1)?;
            let t = match op {
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => {
                    for (t, x) in [(ta, a), (tb, b)] {
                        if !numeric(t) {
                            return Err(tyerr(
                                x.span,
                                format!("arithmetic expects numbers, found {}", t.name()),
                            ));
                        }
                    }
                    if *op != BinOp::Div && ta == Type::Int && tb == Type::Int {
                        Type::Int
                    } else {
                        Type::Double
                    }
                }
                BinOp::Eq | BinOp::Ne => {
                    if (ta == Type::Bool) != (tb == Type::Bool) {
                        return Err(tyerr(
                            sp,
                            format!("cannot compare {} with {}", ta.name(), tb.name()),
                        ));
                    }
                    Type::Bool
                }
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                    for (t, x) in [(ta, a), (tb, b)] {
                        if !numeric(t) {
                            return Err(tyerr(
                                x.span,
                                format!("comparison expects numbers, found {}", t.name()),
                            ));
                        }
                    }
                    Type::Bool
                }
                BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Iff => {
                    for (t, x) in [(ta, a), (tb, b)] {
                        if t != Type::Bool {
                            return Err(tyerr(
                                x.span,
                                format!("Boolean operator expects bool, found {}", t.name()),
                            ));
                        }
                    }
                    Type::Bool
                }
            };
            (CExpr::Binary(*op, Box::new(ca), Box::new(cb), sp), t)
        }
        ExprKind::Ite(c, a, b) => {
            let (cc, tc) = compile_d(c, scope, hook, depth + 1)?;
            if tc != Type::Bool {
                return Err(tyerr(
                    c.span,
                    format!("condition must be bool, found {}", tc.name()),
                ));
            }
            let (ca, ta) = compile_d(a, scope, hook, depth + 1)?;
            let (cb, tb) = compile_d(b, scope, hook, depth + 1)?;
            let t = if ta == tb {
                ta
            } else if numeric(ta) && numeric(tb) {
                Type::Double
            } else {
                return Err(tyerr(
                    sp,
                    format!("branches have types {} and {}", ta.name(), tb.name()),
                ));
            };
            (CExpr::Ite(Box::new(cc), Box::new(ca), Box::new(cb)), t)
        }
        ExprKind::Call(f, args) => {
            let mut cs = Vec::new();
            let mut all_int = true;
            for a in args {
                let (c, t) = compile_d(a, scope, hook, depth + 1)?;
                if !numeric(t) {
                    return Err(tyerr(
                        a.span,
                        format!("function arguments must be numbers, found {}", t.name()),
                    ));
                }
                all_int &= t == Type::Int;
                cs.push(c);
            }
            let t = match f {
                Func::Min | Func::Max | Func::Pow => {
                    if all_int {
                        Type::Int
                    } else {
                        Type::Double
                    }
                }
                Func::Floor | Func::Ceil | Func::Round => Type::Int,
                Func::Mod => {
                    if !all_int {
                        return Err(tyerr(sp, "`mod` expects integers".into()));
                    }
                    Type::Int
                }
                Func::Log => Type::Double,
            };
            (CExpr::Call(*f, cs, sp), t)
        }
        ExprKind::Prob { .. }
        | ExprKind::Reward { .. }
        | ExprKind::Steady { .. }
        | ExprKind::Filter { .. }
        | ExprKind::Ctl { .. } => {
            return Err(Diagnostic::at(
                sp,
                "probabilistic operators are only allowed in properties",
            ))
        }
    };
    Ok((r.0.fold(), r.1))
}

fn no_hook() -> impl FnMut(&Expr) -> Result<Option<(CExpr, Type)>, Diagnostic> {
    |_e: &Expr| Ok(None)
}

/// Renames identifiers in an expression (module renaming).
fn rename_expr(e: &Expr, map: &HashMap<String, String>) -> Expr {
    let r = |x: &Expr| Box::new(rename_expr(x, map));
    let kind = match &e.kind {
        ExprKind::Ident(n) => ExprKind::Ident(map.get(n).cloned().unwrap_or_else(|| n.clone())),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, r(a)),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, r(a), r(b)),
        ExprKind::Ite(a, b, c) => ExprKind::Ite(r(a), r(b), r(c)),
        ExprKind::Call(f, args) => {
            ExprKind::Call(*f, args.iter().map(|a| rename_expr(a, map)).collect())
        }
        k => k.clone(),
    };
    Expr::new(kind, e.span)
}

/// Replaces formula names by their (recursively expanded) bodies.
fn expand_formulas(e: &Expr, f: &HashMap<String, Expr>, depth: usize) -> Result<Expr, Diagnostic> {
    if depth > 200 {
        return Err(Diagnostic::at(
            e.span,
            "formulas are nested too deeply (cyclic formula definition?)",
        ));
    }
    let r = |x: &Expr| -> Result<Box<Expr>, Diagnostic> {
        Ok(Box::new(expand_formulas(x, f, depth + 1)?))
    };
    let kind = match &e.kind {
        ExprKind::Ident(n) => match f.get(n) {
            Some(body) => return expand_formulas(body, f, depth + 1),
            None => ExprKind::Ident(n.clone()),
        },
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, r(a)?),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, r(a)?, r(b)?),
        ExprKind::Ite(a, b, c) => ExprKind::Ite(r(a)?, r(b)?, r(c)?),
        ExprKind::Call(fun, args) => {
            let mut v = Vec::new();
            for a in args {
                v.push(expand_formulas(a, f, depth + 1)?);
            }
            ExprKind::Call(*fun, v)
        }
        k => k.clone(),
    };
    Ok(Expr::new(kind, e.span))
}

/// Parses `--const` text `N=3,K=2` into name/value-text pairs.
pub fn parse_const_overrides(text: &str) -> Result<Vec<(String, String)>, Diagnostic> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once('=') {
            Some((n, v)) if !n.trim().is_empty() => {
                out.push((n.trim().to_string(), v.trim().to_string()))
            }
            _ => {
                return Err(Diagnostic::error(format!(
                    "bad constant definition `{part}` (expected NAME=VALUE)"
                )))
            }
        }
    }
    Ok(out)
}

/// Evaluates constant declarations in dependency order, taking undefined ones from `overrides`.
pub(crate) fn eval_constants(
    decls: &[ConstDecl],
    overrides: &[(String, String)],
    known: &mut HashMap<String, Value>,
    formulas: &HashMap<String, Expr>,
) -> Result<(), Diagnostic> {
    let empty_vars = HashMap::new();
    let mut pending: Vec<&ConstDecl> = Vec::new();
    for d in decls {
        if known.contains_key(&d.name) {
            return Err(Diagnostic::at(
                d.span,
                format!("constant `{}` is defined twice", d.name),
            ));
        }
        if let Some((_, txt)) = overrides.iter().find(|(n, _)| *n == d.name) {
            let e = super::parser::parse_expr(txt).map_err(|x| {
                Diagnostic::error(format!(
                    "bad value `{txt}` for constant `{}`: {}",
                    d.name, x.message
                ))
            })?;
            let scope = Scope {
                consts: known,
                vars: &empty_vars,
                var_types: &[],
                formulas,
            };
            let (c, _) = compile(&e, &scope, &mut no_hook()).map_err(|x| {
                Diagnostic::error(format!(
                    "bad value `{txt}` for constant `{}`: {}",
                    d.name, x.message
                ))
            })?;
            let v = c.constant().ok_or_else(|| {
                Diagnostic::error(format!("value of `{}` is not constant", d.name))
            })?;
            let v = v.coerce(d.ty).ok_or_else(|| {
                Diagnostic::at(
                    d.span,
                    format!(
                        "constant `{}` has type {} but `{txt}` is {}",
                        d.name,
                        d.ty.name(),
                        v.ty().name()
                    ),
                )
            })?;
            known.insert(d.name.clone(), v);
        } else if d.value.is_none() {
            // Name every undefined constant at once, as PRISM does.
            let missing: Vec<&ConstDecl> = decls
                .iter()
                .filter(|c| c.value.is_none() && !overrides.iter().any(|(n, _)| *n == c.name))
                .collect();
            let names: Vec<String> = missing.iter().map(|c| format!("`{}`", c.name)).collect();
            let example: Vec<String> = missing.iter().map(|c| format!("{}=…", c.name)).collect();
            let diag = Diagnostic::error(if missing.len() > 1 {
                format!(
                    "undefined constants {} (give them with --const {})",
                    names.join(", "),
                    example.join(",")
                )
            } else {
                format!(
                    "undefined constant `{}` (give it with --const {}=…)",
                    d.name, d.name
                )
            })
            .with_span(d.span, "no value");
            return Err(diag);
        } else {
            pending.push(d);
        }
    }
    // Resolve in dependency order: repeat while progress is made.
    while !pending.is_empty() {
        let mut next = Vec::new();
        let mut first_err = None;
        for d in &pending {
            let scope = Scope {
                consts: known,
                vars: &empty_vars,
                var_types: &[],
                formulas,
            };
            let Some(value) = d.value.as_ref() else {
                continue;
            };
            match compile(value, &scope, &mut no_hook()) {
                Ok((c, _)) => match c {
                    CExpr::Const(v) => {
                        let v = v.coerce(d.ty).ok_or_else(|| {
                            tyerr(
                                value.span,
                                format!(
                                    "constant `{}` is declared {} but its value is {}",
                                    d.name,
                                    d.ty.name(),
                                    v.ty().name()
                                ),
                            )
                        })?;
                        known.insert(d.name.clone(), v);
                    }
                    other => match other.eval(&[], 0) {
                        Err(e) => return Err(e),
                        Ok(_) => {
                            return Err(Diagnostic::at(
                                value.span,
                                format!("value of constant `{}` is not constant", d.name),
                            ))
                        }
                    },
                },
                Err(e) => {
                    if first_err.is_none() {
                        first_err = Some(e);
                    }
                    next.push(*d);
                }
            }
        }
        if next.len() == pending.len() {
            return Err(first_err.unwrap_or_else(|| Diagnostic::error("cannot evaluate constants")));
        }
        pending = next;
    }
    Ok(())
}

const MAX_RANGE: i64 = 1 << 40;

/// Checks and resolves a parsed model.
pub fn check_model(mf: &ModelFile, overrides: &[(String, String)]) -> Result<Program, Diagnostic> {
    let mut formulas: HashMap<String, Expr> = HashMap::new();
    for f in &mf.formulas {
        if formulas.insert(f.name.clone(), f.expr.clone()).is_some() {
            return Err(Diagnostic::at(
                f.span,
                format!("formula `{}` is defined twice", f.name),
            ));
        }
    }
    let mut consts = HashMap::new();
    eval_constants(&mf.consts, overrides, &mut consts, &formulas)?;

    // Expand module renamings into plain modules.
    let mut modules: Vec<Module> = Vec::new();
    let mut plain: HashMap<String, Module> = HashMap::new();
    for m in &mf.modules {
        if let ModuleDecl::Plain(md) = m {
            if plain.insert(md.name.clone(), md.clone()).is_some() {
                return Err(Diagnostic::at(
                    md.span,
                    format!("module `{}` is defined twice", md.name),
                ));
            }
        }
    }
    for m in &mf.modules {
        match m {
            ModuleDecl::Plain(md) => modules.push(md.clone()),
            ModuleDecl::Renamed(r) => {
                let base = plain.get(&r.base).ok_or_else(|| {
                    Diagnostic::at(r.base_span, format!("unknown module `{}`", r.base))
                })?;
                let mut map = HashMap::new();
                for (a, b, sp) in &r.pairs {
                    if map.insert(a.clone(), b.clone()).is_some() {
                        return Err(Diagnostic::at(*sp, format!("`{a}` is renamed twice")));
                    }
                }
                let ren = |e: &Expr| -> Result<Expr, Diagnostic> {
                    Ok(rename_expr(&expand_formulas(e, &formulas, 0)?, &map))
                };
                let mut vars = Vec::new();
                for v in &base.vars {
                    let name = map.get(&v.name).cloned().ok_or_else(|| {
                        Diagnostic::at(
                            r.span,
                            format!(
                                "renamed module `{}` must rename variable `{}`",
                                r.name, v.name
                            ),
                        )
                    })?;
                    let ty = match &v.ty {
                        VarType::Bool => VarType::Bool,
                        VarType::Range(a, b) => VarType::Range(ren(a)?, ren(b)?),
                        VarType::Unbounded => VarType::Unbounded,
                    };
                    let init = match &v.init {
                        Some(i) => Some(ren(i)?),
                        None => None,
                    };
                    vars.push(VarDecl {
                        name,
                        ty,
                        init,
                        span: v.span,
                    });
                }
                let mut commands = Vec::new();
                for c in &base.commands {
                    let mut updates = Vec::new();
                    for u in &c.updates {
                        let prob = match &u.prob {
                            None => None,
                            Some(ProbSpec::Point(p)) => Some(ProbSpec::Point(ren(p)?)),
                            Some(ProbSpec::Interval(a, b)) => {
                                Some(ProbSpec::Interval(ren(a)?, ren(b)?))
                            }
                        };
                        let mut assigns = Vec::new();
                        for a in &u.assigns {
                            assigns.push(Assign {
                                var: map.get(&a.var).cloned().unwrap_or_else(|| a.var.clone()),
                                span: a.span,
                                value: ren(&a.value)?,
                            });
                        }
                        let mut rewards = Vec::new();
                        for (r, e) in &u.rewards {
                            rewards.push((r.clone(), ren(e)?));
                        }
                        updates.push(Update {
                            prob,
                            assigns,
                            rewards,
                            span: u.span,
                        });
                    }
                    commands.push(Command {
                        action: c
                            .action
                            .as_ref()
                            .map(|a| map.get(a).cloned().unwrap_or_else(|| a.clone())),
                        action_span: c.action_span,
                        guard: ren(&c.guard)?,
                        updates,
                        span: c.span,
                    });
                }
                modules.push(Module {
                    name: r.name.clone(),
                    vars,
                    commands,
                    span: r.span,
                });
            }
        }
    }

    // Variables: globals first, then module variables in module order.
    let empty_vars = HashMap::new();
    let cscope = Scope {
        consts: &consts,
        vars: &empty_vars,
        var_types: &[],
        formulas: &formulas,
    };
    let mut vars: Vec<VarInfo> = Vec::new();
    let mut unbounded: Vec<u32> = Vec::new();
    let mut var_index: HashMap<String, u32> = HashMap::new();
    let decls = mf.globals.iter().map(|v| (v, None)).chain(
        modules
            .iter()
            .enumerate()
            .flat_map(|(i, m)| m.vars.iter().map(move |v| (v, Some(i)))),
    );
    let const_int = |e: &Expr, what: &str| -> Result<i64, Diagnostic> {
        let (c, t) = compile(e, &cscope, &mut no_hook())?;
        match (c.constant(), t) {
            (Some(Value::I(i)), _) => Ok(i),
            (Some(_), t) => Err(tyerr(
                e.span,
                format!("{what} must be an int, found {}", t.name()),
            )),
            (None, _) => match c.eval(&[], 0) {
                Err(d) => Err(d),
                Ok(_) => Err(Diagnostic::at(e.span, format!("{what} must be constant"))),
            },
        }
    };
    for (v, module) in decls {
        if var_index.contains_key(&v.name) || consts.contains_key(&v.name) {
            return Err(Diagnostic::at(
                v.span,
                format!("`{}` is declared twice", v.name),
            ));
        }
        let (lo, hi, is_bool) = match &v.ty {
            VarType::Bool => (0, 1, true),
            VarType::Range(a, b) => (
                const_int(a, "a range bound")?,
                const_int(b, "a range bound")?,
                false,
            ),
            VarType::Unbounded => {
                if mf.init.is_some() {
                    return Err(Diagnostic::at(
                        v.span,
                        format!(
                            "unbounded variable `{}` cannot be used with `init … endinit`",
                            v.name
                        ),
                    ));
                }
                let i = match &v.init {
                    Some(e) => const_int(e, "the initial value of an unbounded variable")?,
                    None => 0,
                };
                unbounded.push(vars.len() as u32);
                (i, i, false)
            }
        };
        if hi < lo || hi.saturating_sub(lo) > MAX_RANGE {
            return Err(Diagnostic::at(
                v.span,
                format!("bad range [{lo}..{hi}] for `{}`", v.name),
            ));
        }
        let init = match &v.init {
            None if mf.init.is_some() => None,
            None => Some(lo),
            Some(e) => {
                if mf.init.is_some() {
                    return Err(Diagnostic::at(
                        e.span,
                        "variables cannot have `init` when the model has `init … endinit`",
                    ));
                }
                let (c, t) = compile(e, &cscope, &mut no_hook())?;
                let val = c
                    .constant()
                    .ok_or_else(|| Diagnostic::at(e.span, "initial value must be constant"))?;
                if is_bool != (t == Type::Bool) || t == Type::Double {
                    return Err(tyerr(
                        e.span,
                        format!("initial value of `{}` has type {}", v.name, t.name()),
                    ));
                }
                let i = val.as_int();
                if i < lo || i > hi {
                    return Err(Diagnostic::at(
                        e.span,
                        format!("initial value {i} of `{}` is outside [{lo}..{hi}]", v.name),
                    ));
                }
                Some(i)
            }
        };
        var_index.insert(v.name.clone(), vars.len() as u32);
        vars.push(VarInfo {
            name: v.name.clone(),
            lo,
            hi,
            init,
            is_bool,
            module,
            span: v.span,
        });
    }
    let var_types: Vec<Type> = vars
        .iter()
        .map(|v| if v.is_bool { Type::Bool } else { Type::Int })
        .collect();
    let scope = Scope {
        consts: &consts,
        vars: &var_index,
        var_types: &var_types,
        formulas: &formulas,
    };
    let expect = |e: &Expr, want: Type, what: &str| -> Result<CExpr, Diagnostic> {
        let (c, t) = compile(e, &scope, &mut no_hook())?;
        let ok = match want {
            Type::Bool => t == Type::Bool,
            _ => numeric(t),
        };
        if !ok {
            return Err(tyerr(
                e.span,
                format!(
                    "{what} must be {}, found {}",
                    if want == Type::Bool {
                        "bool"
                    } else {
                        "a number"
                    },
                    t.name()
                ),
            ));
        }
        Ok(c)
    };

    let mut actions: Vec<String> = Vec::new();
    let mut action_ix: HashMap<String, u32> = HashMap::new();
    let interval_model = matches!(mf.model_type, ModelType::Idtmc | ModelType::Imdp);
    let mut cmodules = Vec::new();
    for (mi, m) in modules.iter().enumerate() {
        let mut commands = Vec::new();
        let mut alphabet = Vec::new();
        for c in &m.commands {
            let action = match &c.action {
                None => None,
                Some(a) => {
                    let ix = *action_ix.entry(a.clone()).or_insert_with(|| {
                        actions.push(a.clone());
                        actions.len() as u32 - 1
                    });
                    if !alphabet.contains(&ix) {
                        alphabet.push(ix);
                    }
                    Some(ix)
                }
            };
            let guard = expect(&c.guard, Type::Bool, "a guard")?;
            let mut updates = Vec::new();
            for u in &c.updates {
                let prob = match &u.prob {
                    None => CProb::One,
                    Some(ProbSpec::Point(p)) => {
                        CProb::Point(expect(p, Type::Double, "a probability or rate")?)
                    }
                    Some(ProbSpec::Interval(a, b)) => {
                        if !interval_model && mf.model_type != ModelType::Mdp {
                            return Err(Diagnostic::at(
                                u.span,
                                "interval probabilities `[l,u]:` need an `idtmc` or `imdp` model",
                            ));
                        }
                        CProb::Interval(
                            expect(a, Type::Double, "an interval bound")?,
                            expect(b, Type::Double, "an interval bound")?,
                        )
                    }
                };
                let mut assigns: Vec<(u32, CExpr)> = Vec::new();
                for a in &u.assigns {
                    let vi = *var_index.get(&a.var).ok_or_else(|| {
                        Diagnostic::at(a.span, format!("unknown variable `{}`", a.var))
                    })?;
                    let owner = vars[vi as usize].module;
                    if owner.is_some() && owner != Some(mi) {
                        return Err(Diagnostic::at(
                            a.span,
                            format!(
                                "module `{}` cannot modify variable `{}` of another module",
                                m.name, a.var
                            ),
                        ));
                    }
                    if assigns.iter().any(|(x, _)| *x == vi) {
                        return Err(Diagnostic::at(
                            a.span,
                            format!("`{}` is assigned twice in one update", a.var),
                        ));
                    }
                    let (cv, t) = compile(&a.value, &scope, &mut no_hook())?;
                    let want = var_types[vi as usize];
                    if t != want {
                        return Err(tyerr(
                            a.value.span,
                            format!(
                                "`{}` is {} but is assigned a value of type {}",
                                a.var,
                                want.name(),
                                t.name()
                            ),
                        ));
                    }
                    assigns.push((vi, cv));
                }
                let mut rewards = Vec::new();
                for (r, e) in &u.rewards {
                    let ri = mf
                        .rewards
                        .iter()
                        .position(|x| x.name.as_deref() == Some(r.as_str()))
                        .ok_or_else(|| {
                            Diagnostic::at(e.span, format!("unknown reward structure \"{r}\""))
                        })?;
                    rewards.push((ri as u32, expect(e, Type::Double, "a reward")?));
                }
                updates.push(CUpdate {
                    prob,
                    assigns,
                    rewards,
                    span: u.span,
                });
            }
            commands.push(CCommand {
                action,
                guard,
                updates,
                span: c.span,
            });
        }
        cmodules.push(CModule {
            name: m.name.clone(),
            commands,
            alphabet,
        });
    }
    let system = match &mf.system {
        Some((t, _)) => {
            let (st, plain) = resolve_system(t, &cmodules, &mut actions, &mut action_ix)?;
            (!plain).then_some(st)
        }
        None => None,
    };
    let init = match &mf.init {
        Some(e) => Some(expect(e, Type::Bool, "the initial-states expression")?),
        None => None,
    };
    let mut labels = Vec::new();
    for l in &mf.labels {
        if labels.iter().any(|(n, _): &(String, CExpr)| *n == l.name) {
            return Err(Diagnostic::at(
                l.span,
                format!("label \"{}\" is defined twice", l.name),
            ));
        }
        labels.push((l.name.clone(), expect(&l.expr, Type::Bool, "a label")?));
    }
    let mut rewards = Vec::new();
    for r in &mf.rewards {
        let mut cr = CRewards {
            name: r.name.clone(),
            state: vec![],
            trans: vec![],
            state_spans: vec![],
            trans_spans: vec![],
        };
        for it in &r.items {
            let g = expect(&it.guard, Type::Bool, "a reward guard")?;
            let v = expect(&it.value, Type::Double, "a reward")?;
            match &it.action {
                None => {
                    cr.state.push((g, v));
                    cr.state_spans.push(it.value.span);
                }
                Some(None) => {
                    cr.trans.push((None, g, v));
                    cr.trans_spans.push(it.value.span);
                }
                Some(Some(a)) => match action_ix.get(a) {
                    Some(&ix) => {
                        cr.trans.push((Some(ix), g, v));
                        cr.trans_spans.push(it.value.span);
                    }
                    // An action no module uses never fires: the item contributes nothing.
                    None => tracing::warn!("reward item for unused action `{a}`"),
                },
            }
        }
        rewards.push(cr);
    }
    let mut constants: Vec<(String, Value)> = mf
        .consts
        .iter()
        .filter_map(|c| consts.get(&c.name).map(|v| (c.name.clone(), *v)))
        .collect();
    constants.sort_by_key(|(n, _)| mf.consts.iter().position(|c| &c.name == n));
    Ok(Program {
        model_type: mf.model_type,
        vars,
        modules: cmodules,
        actions,
        init,
        labels,
        rewards,
        constants,
        formulas,
        var_index,
        system,
        unbounded,
    })
}
