//! UPPAAL models lowered onto the one network type ([`Model`]) the zone engine explores:
//! constants folded, typedefs and bounded ints resolved, arrays flattened, functions compiled to
//! frames, templates instantiated (explicit `P = T(args);` with value and reference parameters,
//! and `system T;` over every value of its bounded parameters, named `T(v, …)` as UPPAAL does),
//! `select` expanded into one edge per value, channel expressions resolved (one edge per possible
//! channel when the index depends on variables, guarded by the index), binary channels to one
//! synchronisation vector per sender/receiver pair, broadcast channels to vectors with weak
//! receivers, urgent channels flagged. Records (`struct`) are laid out flat, one integer per
//! field and element (an array of structs keeps one array per field); whole-struct assignment and
//! struct parameters copy field by field; functions with reference parameters are compiled at
//! each call with the parameters bound to the arguments. `scalar[n]` is the range `0..n-1`
//! (every value explored, no symmetry reduction).
//!
//! Seed: SETTA'17 Schivo et al., "How to efficiently build a front-end tool for UPPAAL" (S19),
//! §2–3: the model a front end hands to UPPAAL (templates, instantiation, channels, queries) and
//! the need for a trace that maps back to the user's names (process `T(v)`, locations by name).
//! Constructs this lowering does not implement are refused by name with their location:
//! `double`/`hybrid`/`meta` variables, reference arguments indexed by variables, clock rates,
//! priorities, branchpoints, LSC templates, clock constraints under `||`/`!`.

use crate::expr::BinOp;
use crate::model::{
    ClockAtom, ClockRef, Cmp, Edge, Expr, Func, Guard, IntLv, IntVar, LazyEvent, Location, Model,
    Process, Stmt, Sync, VarBlock,
};
use crate::uppaal_lang::{lex, Base, Decl, Init, Parser, Quant, UExpr, UParam, UStmt, UType, Un};
use crate::uppaal_xml::{read, Text, XDoc, XTemplate};
use rustc_hash::FxHashMap;
use std::sync::Arc;
use verikit_diag::{Diagnostic, Span};

const DEFAULT_INT: (i64, i64) = (-32768, 32767);
/// Edges the model's transitions may expand to (selects × channel indices) before the model is
/// refused.
const MAX_EXPANSION: usize = 200_000;
/// Synchronisation vectors (binary channels: senders × receivers per channel) before the model
/// is refused.
const MAX_SYNCS: usize = 2_000_000;

#[derive(Clone, Debug)]
enum Ty {
    Int(i64, i64),
    Clock,
    Chan {
        urgent: bool,
        broadcast: bool,
    },
    Void,
    /// A record: its fields in declaration order.
    Struct(Vec<(String, FullTy)>),
}

#[derive(Clone, Debug)]
struct FullTy {
    ty: Ty,
    dims: Vec<u32>,
    is_const: bool,
}

/// What a [`Sym::Var`] holds: a bounded integer, a clock or a channel of the network, or an
/// integer in a function's frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum VarKind {
    Int,
    Clock,
    Chan,
    Local,
}

#[derive(Clone, Debug)]
enum Sym {
    Const(i64),
    /// A variable (or array of variables) laid out from `first`, row-major over `dims`.
    Var {
        kind: VarKind,
        first: u32,
        dims: Vec<u32>,
    },
    Type(FullTy),
    Func(Arc<Func>),
    /// A struct variable laid out flat, one symbol per field: a field's dimensions are the
    /// struct's (`dims`, those of an array of structs) followed by its own.
    Struct {
        fields: Vec<(String, Sym)>,
        dims: Vec<u32>,
    },
    /// A function with reference parameters, compiled at each call with the parameters bound to
    /// the arguments' variables.
    RefFunc(Arc<RefFunc>),
}

impl Sym {
    fn dims(&self) -> &[u32] {
        match self {
            Sym::Var { dims, .. } | Sym::Struct { dims, .. } => dims,
            _ => &[],
        }
    }

    /// The symbol with its first `fixed.len()` dimensions fixed to constant indices: in the
    /// row-major layout of every field, that is a contiguous block.
    fn slice(&self, fixed: &[u32]) -> Sym {
        let offset = |dims: &[u32]| {
            let mut off = 0u32;
            for (k, &i) in fixed.iter().enumerate() {
                let stride = product(dims.get(k + 1..).unwrap_or(&[]));
                off = off.saturating_add(i.saturating_mul(stride));
            }
            off
        };
        let rest = |dims: &[u32]| dims.get(fixed.len()..).unwrap_or(&[]).to_vec();
        match self {
            Sym::Var { kind, first, dims } => Sym::Var {
                kind: *kind,
                first: first + offset(dims),
                dims: rest(dims),
            },
            Sym::Struct { fields, dims } => Sym::Struct {
                fields: fields
                    .iter()
                    .map(|(n, f)| (n.clone(), f.slice(fixed)))
                    .collect(),
                dims: rest(dims),
            },
            other => other.clone(),
        }
    }

    /// True if a leaf of the symbol lives in a function's frame.
    fn is_local(&self) -> bool {
        match self {
            Sym::Var {
                kind: VarKind::Local,
                ..
            } => true,
            Sym::Struct { fields, .. } => fields.iter().any(|(_, f)| f.is_local()),
            _ => false,
        }
    }
}

/// The source of a function with reference parameters and the scopes it was declared in.
#[derive(Debug)]
struct RefFunc {
    ret: UType,
    name: String,
    params: Vec<UParam>,
    body: Vec<UStmt>,
    span: Span,
    scopes: Vec<FxHashMap<String, Sym>>,
}

/// Nesting of calls to functions with reference parameters beyond which the model is refused
/// (each call compiles the body again, so recursion must stop here).
const MAX_REF_CALL_DEPTH: usize = 16;

#[derive(Clone, Debug)]
struct Chan {
    name: String,
    urgent: bool,
    broadcast: bool,
}

/// What the queries need after lowering: each process's name, scope and location names.
#[derive(Clone, Debug, Default)]
pub(crate) struct Names {
    types: Vec<String>,
    scopes: Vec<FxHashMap<String, Sym>>,
    globals: FxHashMap<String, Sym>,
    /// `(name, template, argument values)` per process.
    procs: Vec<(String, String, Vec<i64>)>,
}

/// A parsed UPPAAL model: the network, the embedded queries and what resolving queries needs.
#[derive(Clone, Debug)]
pub struct UppaalModel {
    pub model: Model,
    /// Embedded `<query>` formulas (text with file offsets) and their comments.
    pub(crate) queries: Vec<(Text, String)>,
    pub(crate) names: Names,
}

struct Frame {
    slots: Vec<(i64, i64)>,
}

struct Lower {
    model: Model,
    chans: Vec<Chan>,
    scopes: Vec<FxHashMap<String, Sym>>,
    frame: Option<Frame>,
    types: Vec<String>,
    pending_inits: Vec<Stmt>,
    /// Edges per process, before channels become events.
    raw: Vec<Vec<RawEdge>>,
    /// Edges produced so far (select and channel-index expansion).
    expanded: usize,
    /// For queries: processes and their scopes (`P(1).x`, `P(1).loc`).
    names: Option<Names>,
    /// Calls of functions with reference parameters being compiled.
    ref_depth: usize,
}

fn err(span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::at(span, msg)
}

fn parser_for(t: &Text, types: &[String]) -> Result<Parser, Diagnostic> {
    Ok(Parser::new(lex(&t.s, &t.map)?, types.to_vec()))
}

fn cmp_of(op: &str) -> Option<Cmp> {
    Some(match op {
        "<" => Cmp::Lt,
        "<=" => Cmp::Le,
        "==" => Cmp::Eq,
        ">=" => Cmp::Ge,
        ">" => Cmp::Gt,
        _ => return None,
    })
}

fn flip(c: Cmp) -> Cmp {
    match c {
        Cmp::Lt => Cmp::Gt,
        Cmp::Le => Cmp::Ge,
        Cmp::Eq => Cmp::Eq,
        Cmp::Ge => Cmp::Le,
        Cmp::Gt => Cmp::Lt,
    }
}

fn binop(op: &str) -> Option<BinOp> {
    Some(match op {
        "||" => BinOp::Or,
        "&&" => BinOp::And,
        "==" => BinOp::Eq,
        "!=" => BinOp::Ne,
        "<" => BinOp::Lt,
        "<=" => BinOp::Le,
        ">" => BinOp::Gt,
        ">=" => BinOp::Ge,
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "*" => BinOp::Mul,
        "/" => BinOp::Div,
        "%" => BinOp::Mod,
        "&" => BinOp::BitAnd,
        "|" => BinOp::BitOr,
        "^" => BinOp::BitXor,
        "<<" => BinOp::Shl,
        ">>" => BinOp::Shr,
        "<?" => BinOp::Min,
        ">?" => BinOp::Max,
        _ => return None,
    })
}

fn fold(e: Expr) -> Expr {
    if e.is_const() {
        if let Ok(v) = e.eval(&[]) {
            return Expr::Const(v);
        }
    }
    e
}

/// The number of integers of a type (a struct's fields, recursively, times its dimensions).
fn leaf_count(ft: &FullTy) -> u32 {
    let own = match &ft.ty {
        Ty::Struct(fields) => fields
            .iter()
            .fold(0u32, |a, (_, f)| a.saturating_add(leaf_count(f))),
        _ => 1,
    };
    own.saturating_mul(product(&ft.dims))
}

fn product(dims: &[u32]) -> u32 {
    dims.iter().fold(1u32, |a, &d| a.saturating_mul(d))
}

/// Reads an UPPAAL XML model (`text` is the whole file).
pub fn parse_uppaal(text: &str) -> Result<UppaalModel, Diagnostic> {
    let doc = read(text)?;
    if let Some((name, span)) = &doc.other {
        return Err(err(
            *span,
            if name == "lsc" {
                "UPPAAL `<lsc>` scenarios (live sequence charts and their `sat:` queries) are not supported".to_string()
            } else {
                format!("UPPAAL `<{name}>` elements (SMC options and other extensions) are not supported")
            },
        ));
    }
    let mut lw = Lower {
        model: Model {
            name: "uppaal".into(),
            events: vec!["tau".into()],
            ..Model::default()
        },
        chans: Vec::new(),
        scopes: vec![FxHashMap::default()],
        frame: None,
        types: Vec::new(),
        pending_inits: Vec::new(),
        raw: Vec::new(),
        expanded: 0,
        names: None,
        ref_depth: 0,
    };
    if let Some(d) = &doc.declaration {
        lw.declarations(d)?;
    }
    let names = lw.system(&doc)?;
    let queries = doc
        .queries
        .iter()
        .filter(|(f, _)| !f.s.trim().is_empty())
        .map(|(f, c)| (f.clone(), c.s.trim().to_string()))
        .collect();
    Ok(UppaalModel {
        model: lw.model,
        queries,
        names,
    })
}

impl Lower {
    fn lookup(&self, name: &str) -> Option<&Sym> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn bind(&mut self, name: &str, s: Sym) {
        if let Some(top) = self.scopes.last_mut() {
            top.insert(name.to_string(), s);
        }
    }

    fn declarations(&mut self, t: &Text) -> Result<(), Diagnostic> {
        let mut p = parser_for(t, &self.types)?;
        let decls = p.decls()?;
        self.types = p.types;
        for d in &decls {
            self.decl(d, "")?;
        }
        Ok(())
    }

    fn const_int(&mut self, e: &UExpr) -> Result<i64, Diagnostic> {
        let x = self.expr(e)?;
        match fold(x) {
            Expr::Const(v) => Ok(v),
            _ => Err(err(e.span(), "expected a constant expression")),
        }
    }

    fn full_ty(&mut self, t: &UType, dims: &[UExpr]) -> Result<FullTy, Diagnostic> {
        if let Some(u) = &t.unsupported {
            return Err(err(t.span, format!("`{u}` variables are not supported")));
        }
        let mut ft = match &t.base {
            Base::Int(None) => FullTy {
                ty: Ty::Int(DEFAULT_INT.0, DEFAULT_INT.1),
                dims: vec![],
                is_const: false,
            },
            Base::Int(Some((lo, hi))) => {
                let lo = self.const_int(lo)?;
                let hi = self.const_int(hi)?;
                if lo > hi || lo < i64::from(i32::MIN) || hi > i64::from(i32::MAX) {
                    return Err(err(t.span, "empty or too large integer range"));
                }
                FullTy {
                    ty: Ty::Int(lo, hi),
                    dims: vec![],
                    is_const: false,
                }
            }
            Base::Bool => FullTy {
                ty: Ty::Int(0, 1),
                dims: vec![],
                is_const: false,
            },
            Base::Clock => FullTy {
                ty: Ty::Clock,
                dims: vec![],
                is_const: false,
            },
            Base::Chan => FullTy {
                ty: Ty::Chan {
                    urgent: t.urgent,
                    broadcast: t.broadcast,
                },
                dims: vec![],
                is_const: false,
            },
            Base::Void => FullTy {
                ty: Ty::Void,
                dims: vec![],
                is_const: false,
            },
            Base::Named(n) => match self.lookup(n) {
                Some(Sym::Type(ft)) => ft.clone(),
                _ => return Err(err(t.span, format!("unknown type `{n}`"))),
            },
            Base::Struct(fields) => {
                let mut out: Vec<(String, FullTy)> = Vec::new();
                for f in fields {
                    let fty = self.full_ty(&f.ty, &f.dims)?;
                    if !matches!(fty.ty, Ty::Int(..) | Ty::Struct(_)) {
                        return Err(err(
                            f.span,
                            "struct fields must be integers, booleans, scalars or structs",
                        ));
                    }
                    if out.iter().any(|(n, _)| *n == f.name) {
                        return Err(err(f.span, format!("duplicate field `{}`", f.name)));
                    }
                    out.push((f.name.clone(), fty));
                }
                FullTy {
                    ty: Ty::Struct(out),
                    dims: vec![],
                    is_const: false,
                }
            }
            // UPPAAL's scalar set: values only compared for equality and used as indices, so
            // the values 0..n-1 are a faithful encoding (no symmetry reduction: every value
            // is explored)
            Base::Scalar(n) => {
                let n = self.const_int(n)?;
                if !(1..=i64::from(i32::MAX)).contains(&n) {
                    return Err(err(t.span, "a scalar set needs a positive size"));
                }
                FullTy {
                    ty: Ty::Int(0, n - 1),
                    dims: vec![],
                    is_const: false,
                }
            }
            Base::Unsupported(what) => {
                return Err(err(t.span, format!("`{what}` types are not supported")))
            }
        };
        ft.is_const |= t.is_const;
        if let Ty::Chan { urgent, broadcast } = &mut ft.ty {
            *urgent |= t.urgent;
            *broadcast |= t.broadcast;
        }
        let mut extra = Vec::new();
        for d in dims {
            // an array dimension is a size or a (typedef'd) range type
            let size = match d {
                UExpr::Name(n, _) if matches!(self.lookup(n), Some(Sym::Type(_))) => {
                    match self.lookup(n) {
                        Some(Sym::Type(FullTy {
                            ty: Ty::Int(lo, hi),
                            ..
                        // `a[T]` with `T = int[lo,hi]`, lo ≥ 0: elements 0..=hi are allocated
                        // and addressed by value (those below lo stay unused)
                        })) if *lo >= 0 => hi + 1,
                        _ => {
                            return Err(err(
                                d.span(),
                                "array dimension by a type must be a non-negative range",
                            ))
                        }
                    }
                }
                _ => self.const_int(d)?,
            };
            if !(0..=1_000_000).contains(&size) {
                return Err(err(d.span(), "array size out of range"));
            }
            extra.push(size as u32);
        }
        extra.extend(ft.dims);
        ft.dims = extra;
        Ok(ft)
    }

    fn flat_init(
        &mut self,
        init: &Option<Init>,
        n: usize,
        span: Span,
    ) -> Result<Vec<Expr>, Diagnostic> {
        let mut out = Vec::new();
        fn walk(lw: &mut Lower, i: &Init, out: &mut Vec<Expr>) -> Result<(), Diagnostic> {
            match i {
                Init::Expr(e) => {
                    let x = lw.expr(e)?;
                    out.push(fold(x));
                }
                Init::List(items, _) => {
                    for it in items {
                        walk(lw, it, out)?;
                    }
                }
            }
            Ok(())
        }
        match init {
            None => out.resize(n, Expr::Const(0)),
            // a bounded int without initialiser whose range excludes 0 starts at its lower bound
            // (handled by the caller through `default_init`)
            Some(i) => walk(self, i, &mut out)?,
        }
        if out.len() != n {
            return Err(err(
                span,
                format!("initialiser has {} values for {} elements", out.len(), n),
            ));
        }
        Ok(out)
    }

    /// A declaration in the current scope; `prefix` names instance-local variables (`P(1).`).
    fn decl(&mut self, d: &Decl, prefix: &str) -> Result<(), Diagnostic> {
        match d {
            Decl::Typedef { ty, name, dims, .. } => {
                let ft = self.full_ty(ty, dims)?;
                self.bind(name, Sym::Type(ft));
            }
            Decl::Var {
                ty,
                name,
                dims,
                init,
                span,
            } => {
                let ft = self.full_ty(ty, dims)?;
                let n = product(&ft.dims);
                if self.frame.is_some() {
                    return self.local_decl(&ft, name, init, *span);
                }
                // element `k` of the flattened variable, and the block of all its elements
                let elem = |k: u32| {
                    if ft.dims.is_empty() {
                        format!("{prefix}{name}")
                    } else {
                        format!("{prefix}{name}[{k}]")
                    }
                };
                let block = |first: u32| VarBlock {
                    name: format!("{prefix}{name}"),
                    first,
                    size: n,
                    span: *span,
                };
                match ft.ty {
                    Ty::Int(lo, hi) => {
                        let vals = self.flat_init(init, n as usize, *span)?;
                        let mut consts = Vec::new();
                        for v in &vals {
                            match v {
                                Expr::Const(c) if *c >= lo && *c <= hi => consts.push(*c),
                                Expr::Const(0) if init.is_none() => consts.push(lo.max(0).min(hi)),
                                Expr::Const(_) => {
                                    return Err(err(
                                        *span,
                                        "initial value out of the declared range",
                                    ))
                                }
                                _ => return Err(err(*span, "initial value is not a constant")),
                            }
                        }
                        if ft.is_const && ft.dims.is_empty() {
                            self.bind(name, Sym::Const(consts.first().copied().unwrap_or(0)));
                            return Ok(());
                        }
                        let first = self.model.ints.len() as u32;
                        for (k, c) in consts.iter().enumerate() {
                            let (min, max) = if ft.is_const { (*c, *c) } else { (lo, hi) };
                            self.model.ints.push(IntVar {
                                name: elem(k as u32),
                                min: min as i32,
                                max: max as i32,
                                init: *c as i32,
                            });
                        }
                        self.model.int_blocks.push(block(first));
                        self.bind(
                            name,
                            Sym::Var {
                                kind: VarKind::Int,
                                first,
                                dims: ft.dims.clone(),
                            },
                        );
                    }
                    Ty::Clock => {
                        if init.is_some() {
                            return Err(err(*span, "clocks cannot be initialised"));
                        }
                        let first = self.model.clocks.len() as u32 + 1;
                        for k in 0..n {
                            self.model.clocks.push(elem(k));
                        }
                        self.model.clock_blocks.push(block(first));
                        self.bind(
                            name,
                            Sym::Var {
                                kind: VarKind::Clock,
                                first,
                                dims: ft.dims.clone(),
                            },
                        );
                    }
                    Ty::Chan { urgent, broadcast } => {
                        let first = self.chans.len() as u32;
                        for k in 0..n {
                            self.chans.push(Chan {
                                name: elem(k),
                                urgent,
                                broadcast,
                            });
                        }
                        self.bind(
                            name,
                            Sym::Var {
                                kind: VarKind::Chan,
                                first,
                                dims: ft.dims.clone(),
                            },
                        );
                    }
                    Ty::Void => return Err(err(*span, "variable of type void")),
                    Ty::Struct(fields) => {
                        let full = format!("{prefix}{name}");
                        let (dims, is_const) = (ft.dims, ft.is_const);
                        return self
                            .global_struct(&fields, &dims, is_const, &full, name, init, *span);
                    }
                }
            }
            Decl::Func {
                ret,
                name,
                params,
                body,
                span,
            } => {
                let mut generic = false;
                for p in params {
                    generic |=
                        p.by_ref || matches!(self.full_ty(&p.ty, &p.dims)?.ty, Ty::Struct(_));
                }
                if generic {
                    let scopes = self.scopes.clone();
                    self.bind(
                        name,
                        Sym::RefFunc(Arc::new(RefFunc {
                            ret: ret.clone(),
                            name: name.clone(),
                            params: params.clone(),
                            body: body.clone(),
                            span: *span,
                            scopes,
                        })),
                    );
                } else {
                    let f = self.function(ret, name, params, body, *span, &[])?;
                    self.bind(name, Sym::Func(Arc::new(f)));
                }
            }
        }
        Ok(())
    }

    /// Allocates the fields of a struct (of an array of structs with dimensions `outer`): as
    /// integer variables, or as slots of the current function's frame if `local`.
    fn alloc_struct(
        &mut self,
        fields: &[(String, FullTy)],
        outer: &[u32],
        local: bool,
        span: Span,
    ) -> Result<Sym, Diagnostic> {
        let mut out = Vec::new();
        for (fname, fft) in fields {
            let mut dims = outer.to_vec();
            dims.extend(&fft.dims);
            let sym = match &fft.ty {
                Ty::Int(lo, hi) => {
                    let n = product(&dims);
                    if n > 1_000_000 || self.model.ints.len() > 10_000_000 {
                        return Err(err(span, "struct too large"));
                    }
                    if local {
                        let frame = self.frame.as_mut().ok_or_else(|| err(span, "no frame"))?;
                        let first = frame.slots.len() as u32;
                        frame.slots.extend((0..n).map(|_| (*lo, *hi)));
                        Sym::Var {
                            kind: VarKind::Local,
                            first,
                            dims,
                        }
                    } else {
                        let first = self.model.ints.len() as u32;
                        let init = (*lo).max(0).min(*hi) as i32;
                        self.model.ints.extend((0..n).map(|_| IntVar {
                            name: String::new(),
                            min: *lo as i32,
                            max: *hi as i32,
                            init,
                        }));
                        Sym::Var {
                            kind: VarKind::Int,
                            first,
                            dims,
                        }
                    }
                }
                Ty::Struct(fs) => self.alloc_struct(fs, &dims, local, span)?,
                _ => return Err(err(span, "struct fields must be integers or structs")),
            };
            out.push((fname.clone(), sym));
        }
        Ok(Sym::Struct {
            fields: out,
            dims: outer.to_vec(),
        })
    }

    /// Every integer of `sym` under the indices `idx`, in UPPAAL's order (array elements, then
    /// fields in declaration order, recursively), with its name.
    fn leaves(
        &mut self,
        sym: &Sym,
        idx: &[(Expr, Span)],
        name: &str,
        sp: Span,
        out: &mut Vec<(Ref, String)>,
    ) -> Result<(), Diagnostic> {
        let dims = sym.dims().to_vec();
        let rest = dims.get(idx.len()..).unwrap_or(&[]).to_vec();
        let count = product(&rest);
        if count > 1_000_000 || out.len() > 10_000_000 {
            return Err(err(sp, "struct too large"));
        }
        for mut k in 0..count {
            let mut tuple = vec![0u32; rest.len()];
            for (t, &d) in tuple.iter_mut().zip(&rest).rev() {
                *t = k % d.max(1);
                k /= d.max(1);
            }
            let mut full = idx.to_vec();
            full.extend(tuple.iter().map(|&t| (Expr::Const(i64::from(t)), sp)));
            let nm: String = format!(
                "{name}{}",
                tuple.iter().map(|t| format!("[{t}]")).collect::<String>()
            );
            match sym {
                Sym::Struct { fields, .. } => {
                    for (fname, f) in fields {
                        self.leaves(f, &full, &format!("{nm}.{fname}"), sp, out)?;
                    }
                }
                _ => out.push((self.flat(sym, &full, name, sp)?, nm)),
            }
        }
        Ok(())
    }

    /// A global struct variable (or array of structs): its integers, named as UPPAAL names them
    /// (`a[1].f`), initialised in UPPAAL's order.
    #[allow(clippy::too_many_arguments)]
    fn global_struct(
        &mut self,
        fields: &[(String, FullTy)],
        dims: &[u32],
        is_const: bool,
        full_name: &str,
        name: &str,
        init: &Option<Init>,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let sym = self.alloc_struct(fields, dims, false, span)?;
        let mut ls = Vec::new();
        self.leaves(&sym, &[], full_name, span, &mut ls)?;
        let vals = match init {
            Some(_) => Some(self.flat_init(init, ls.len(), span)?),
            None => None,
        };
        for (k, (r, nm)) in ls.iter().enumerate() {
            let v = match r {
                Ref::Int(first, _, None) => *first,
                Ref::Int(first, _, Some(Expr::Const(c))) => first + *c as u32,
                _ => return Err(err(span, "struct layout")),
            };
            let Some(var) = self.model.ints.get_mut(v as usize) else {
                return Err(err(span, "struct layout"));
            };
            var.name = nm.clone();
            if let Some(vals) = &vals {
                match vals.get(k) {
                    Some(Expr::Const(c))
                        if *c >= i64::from(var.min) && *c <= i64::from(var.max) =>
                    {
                        var.init = *c as i32
                    }
                    Some(Expr::Const(_)) => {
                        return Err(err(span, "initial value out of the declared range"))
                    }
                    _ => return Err(err(span, "initial value is not a constant")),
                }
            }
            if is_const {
                var.min = var.init;
                var.max = var.init;
            }
        }
        self.struct_blocks(&sym, full_name, span);
        self.bind(name, sym);
        Ok(())
    }

    /// One variable block per integer field (what the `.tck` writer declares).
    fn struct_blocks(&mut self, sym: &Sym, name: &str, span: Span) {
        match sym {
            Sym::Struct { fields, .. } => {
                for (f, s) in fields {
                    self.struct_blocks(s, &format!("{name}.{f}"), span);
                }
            }
            Sym::Var {
                kind: VarKind::Int,
                first,
                dims,
            } => self.model.int_blocks.push(VarBlock {
                name: name.to_string(),
                first: *first,
                size: product(dims),
                span,
            }),
            _ => {}
        }
    }

    fn local_decl(
        &mut self,
        ft: &FullTy,
        name: &str,
        init: &Option<Init>,
        span: Span,
    ) -> Result<(), Diagnostic> {
        if let Ty::Struct(fields) = &ft.ty {
            let sym = self.alloc_struct(fields, &ft.dims, true, span)?;
            let mut ls = Vec::new();
            self.leaves(&sym, &[], name, span, &mut ls)?;
            let vals = self.flat_init(init, ls.len(), span)?;
            let mut inits = Vec::new();
            for ((r, _), v) in ls.into_iter().zip(vals) {
                self.assign(r, v, span, &mut inits)?;
            }
            self.bind(name, sym);
            self.pending_inits = inits;
            return Ok(());
        }
        let Ty::Int(lo, hi) = ft.ty else {
            return Err(err(
                span,
                "only integer and boolean local variables are supported",
            ));
        };
        let n = product(&ft.dims);
        let vals = self.flat_init(init, n as usize, span)?;
        let frame = self.frame.as_mut().ok_or_else(|| err(span, "no frame"))?;
        let first = frame.slots.len() as u32;
        for _ in 0..n {
            frame.slots.push((lo, hi));
        }
        self.bind(
            name,
            Sym::Var {
                kind: VarKind::Local,
                first,
                dims: ft.dims.clone(),
            },
        );
        // the initialisation is emitted by the caller as statements
        self.pending_inits = vals
            .into_iter()
            .enumerate()
            .map(|(k, v)| Stmt::Local {
                first: first + k as u32,
                size: 1,
                index: None,
                value: v,
            })
            .collect();
        Ok(())
    }
}

/// A variable reached by `chain`: its symbol, the indices applied (with their spans) and its
/// name as written (`a.f`).
type Chain = (Sym, Vec<(Expr, Span)>, String);

/// A resolved reference: base symbol and the flattened index (if any).
enum Ref {
    Int(u32, u32, Option<Expr>),
    Clock(u32, u32, Option<Expr>),
    Chan(u32, u32, Option<Expr>),
    Local(u32, u32, Option<Expr>),
}

impl Lower {
    fn function(
        &mut self,
        ret: &UType,
        name: &str,
        params: &[UParam],
        body: &[UStmt],
        span: Span,
        aliases: &[Option<Sym>],
    ) -> Result<Func, Diagnostic> {
        let rt = self.full_ty(ret, &[])?;
        let ret_range = match rt.ty {
            Ty::Int(lo, hi) if rt.dims.is_empty() => (lo, hi),
            Ty::Void => (0, 0),
            _ => {
                return Err(err(
                    ret.span,
                    "functions may only return integers, booleans or void",
                ))
            }
        };
        let saved = self.frame.replace(Frame { slots: Vec::new() });
        self.scopes.push(FxHashMap::default());
        let mut n_params = 0;
        let r = (|| {
            // struct value parameters arrive as a block of integers (UPPAAL's order), copied
            // into the struct's fields when the body starts
            let mut structs = Vec::new();
            for (k, p) in params.iter().enumerate() {
                if p.by_ref {
                    let Some(Some(a)) = aliases.get(k) else {
                        return Err(err(p.span, "reference parameter without a variable"));
                    };
                    let ft = self.full_ty(&p.ty, &p.dims)?;
                    let same = matches!(
                        (&ft.ty, a),
                        (Ty::Struct(_), Sym::Struct { .. })
                            | (
                                Ty::Int(..),
                                Sym::Var {
                                    kind: VarKind::Int,
                                    ..
                                }
                            )
                    ) && ft.dims.len() == a.dims().len();
                    if !same {
                        return Err(err(
                            p.span,
                            format!("the argument of `{}` has a different type", p.name),
                        ));
                    }
                    self.bind(&p.name, a.clone());
                    continue;
                }
                let ft = self.full_ty(&p.ty, &p.dims)?;
                if !ft.dims.is_empty() {
                    return Err(err(
                        p.span,
                        "array value parameters of functions are not supported",
                    ));
                }
                let (lo, hi, n) = match &ft.ty {
                    Ty::Int(lo, hi) => (*lo, *hi, 1),
                    Ty::Struct(_) => (i64::MIN, i64::MAX, leaf_count(&ft)),
                    _ => {
                        return Err(err(
                            p.span,
                            "function parameters must be integers, booleans or structs",
                        ))
                    }
                };
                let frame = self.frame.as_mut().ok_or_else(|| err(span, "no frame"))?;
                let first = frame.slots.len() as u32;
                frame.slots.extend((0..n).map(|_| (lo, hi)));
                match ft.ty {
                    Ty::Struct(fields) => structs.push((p, fields, first)),
                    _ => self.bind(
                        &p.name,
                        Sym::Var {
                            kind: VarKind::Local,
                            first,
                            dims: vec![],
                        },
                    ),
                }
            }
            n_params = self.frame.as_ref().map_or(0, |f| f.slots.len() as u32);
            let mut out = Vec::new();
            for (p, fields, first) in structs {
                let sym = self.alloc_struct(&fields, &[], true, p.span)?;
                let mut ls = Vec::new();
                self.leaves(&sym, &[], &p.name, p.span, &mut ls)?;
                for (j, (r, _)) in ls.into_iter().enumerate() {
                    self.assign(r, Expr::Local(first + j as u32), p.span, &mut out)?;
                }
                self.bind(&p.name, sym);
            }
            for s in body {
                self.stmt(s, &mut out)?;
            }
            Ok(out)
        })();
        self.scopes.pop();
        let frame = std::mem::replace(&mut self.frame, saved);
        let body = r?;
        Ok(Func {
            name: name.to_string(),
            params: n_params,
            slots: frame.map(|f| f.slots).unwrap_or_default(),
            body,
            ret: ret_range,
        })
    }

    /// A call of a function with reference or struct parameters: the body compiled for these
    /// arguments (references bound to the arguments' variables, structs passed field by field).
    fn ref_call(&mut self, rf: &RefFunc, args: &[UExpr], sp: Span) -> Result<Expr, Diagnostic> {
        if args.len() != rf.params.len() {
            return Err(err(
                sp,
                format!("`{}` takes {} arguments", rf.name, rf.params.len()),
            ));
        }
        if self.ref_depth >= MAX_REF_CALL_DEPTH {
            return Err(err(
                sp,
                "recursive functions with reference parameters are not supported",
            ));
        }
        let mut aliases = Vec::new();
        let mut vals = Vec::new();
        for (p, a) in rf.params.iter().zip(args) {
            if p.by_ref {
                let sym = self.alias(a)?;
                if sym.is_local() {
                    return Err(err(
                        a.span(),
                        "a function's local variable passed by reference is not supported",
                    ));
                }
                aliases.push(Some(sym));
                continue;
            }
            aliases.push(None);
            match self.chain(a)? {
                Some((sym @ Sym::Struct { .. }, idx, n)) => {
                    let mut ls = Vec::new();
                    self.leaves(&sym, &idx, &n, a.span(), &mut ls)?;
                    for (r, _) in ls {
                        vals.push(self.read_ref(&r, a.span())?);
                    }
                }
                _ => vals.push(fold(self.expr(a)?)),
            }
        }
        let saved = std::mem::replace(&mut self.scopes, rf.scopes.clone());
        self.ref_depth += 1;
        let f = self.function(&rf.ret, &rf.name, &rf.params, &rf.body, rf.span, &aliases);
        self.ref_depth -= 1;
        self.scopes = saved;
        let f = f?;
        if vals.len() != f.params as usize {
            return Err(err(
                sp,
                format!("the arguments of `{}` do not match its parameters", rf.name),
            ));
        }
        Ok(Expr::Call(Arc::new(f), vals))
    }

    fn stmt(&mut self, s: &UStmt, out: &mut Vec<Stmt>) -> Result<(), Diagnostic> {
        match s {
            UStmt::Empty => {}
            UStmt::Expr(e) => self.effect(e, out)?,
            UStmt::Decl(d) => {
                self.decl(d, "")?;
                out.append(&mut self.pending_inits);
            }
            UStmt::Block(b) if b.iter().all(|x| matches!(x, UStmt::Decl(_))) => {
                // `int a, b;` inside a block: declarations of the enclosing scope
                b.iter().try_for_each(|x| self.stmt(x, out))?;
            }
            UStmt::Block(b) => {
                self.scopes.push(FxHashMap::default());
                let r = b.iter().try_for_each(|x| self.stmt(x, out));
                self.scopes.pop();
                r?;
            }
            UStmt::If(c, t, e) => {
                let c = self.expr(c)?;
                let mut ts = Vec::new();
                self.stmt(t, &mut ts)?;
                let mut es = Vec::new();
                if let Some(e) = e {
                    self.stmt(e, &mut es)?;
                }
                out.push(Stmt::If(c, ts, es));
            }
            UStmt::While(c, b) => {
                let c = self.expr(c)?;
                let mut bs = Vec::new();
                self.stmt(b, &mut bs)?;
                out.push(Stmt::While(c, bs));
            }
            UStmt::DoWhile(b, c) => {
                let mut bs = Vec::new();
                self.stmt(b, &mut bs)?;
                let c = self.expr(c)?;
                out.extend(bs.iter().cloned());
                out.push(Stmt::While(c, bs));
            }
            UStmt::For(a, c, st, b) => {
                self.scopes.push(FxHashMap::default());
                let r = (|| {
                    if let Some(a) = a {
                        self.effect(a, out)?;
                    }
                    let c = match c {
                        Some(c) => self.expr(c)?,
                        None => Expr::Const(1),
                    };
                    let mut bs = Vec::new();
                    self.stmt(b, &mut bs)?;
                    if let Some(st) = st {
                        self.effect(st, &mut bs)?;
                    }
                    out.push(Stmt::While(c, bs));
                    Ok(())
                })();
                self.scopes.pop();
                r?;
            }
            UStmt::ForRange(name, ty, b, sp) => {
                let ft = self.full_ty(ty, &[])?;
                let Ty::Int(lo, hi) = ft.ty else {
                    return Err(err(*sp, "`for (i : T)` needs an integer range type"));
                };
                let frame = self
                    .frame
                    .as_mut()
                    .ok_or_else(|| err(*sp, "`for (i : T)` outside a function is not supported"))?;
                let k = frame.slots.len() as u32;
                frame.slots.push((lo, hi + 1));
                self.scopes.push(FxHashMap::default());
                self.bind(
                    name,
                    Sym::Var {
                        kind: VarKind::Local,
                        first: k,
                        dims: vec![],
                    },
                );
                let mut bs = Vec::new();
                let r = self.stmt(b, &mut bs);
                self.scopes.pop();
                r?;
                bs.push(Stmt::Local {
                    first: k,
                    size: 1,
                    index: None,
                    value: Expr::Bin(
                        BinOp::Add,
                        Box::new(Expr::Local(k)),
                        Box::new(Expr::Const(1)),
                    ),
                });
                out.push(Stmt::Local {
                    first: k,
                    size: 1,
                    index: None,
                    value: Expr::Const(lo),
                });
                out.push(Stmt::While(
                    Expr::Bin(
                        BinOp::Le,
                        Box::new(Expr::Local(k)),
                        Box::new(Expr::Const(hi)),
                    ),
                    bs,
                ));
            }
            UStmt::Return(e, sp) => {
                if self.frame.is_none() {
                    return Err(err(*sp, "`return` outside a function"));
                }
                let e = match e {
                    Some(e) => Some(self.expr(e)?),
                    None => None,
                };
                out.push(Stmt::Return(e));
            }
        }
        Ok(())
    }

    /// An expression used as a statement (assignment, `++`, call).
    fn effect(&mut self, e: &UExpr, out: &mut Vec<Stmt>) -> Result<(), Diagnostic> {
        match e {
            UExpr::Assign(op, lhs, rhs, sp) => {
                // `a[i++] = e` (a queue's push) and `a[--i] = e` (a pop): a prefix step is done
                // before the assignment and a postfix one after it, which is the same when
                // nothing else in the statement reads `i`
                let mut pre = Vec::new();
                let mut post = Vec::new();
                let hoisted = hoist_steps(lhs, &mut pre, &mut post);
                if !pre.is_empty() || !post.is_empty() {
                    let names: Vec<&str> = pre
                        .iter()
                        .chain(&post)
                        .filter_map(|(_, v, _)| match v {
                            UExpr::Name(n, _) => Some(n.as_str()),
                            _ => None,
                        })
                        .collect();
                    // how often the stepped variables are read
                    let count = |x: &UExpr| {
                        let n = std::cell::Cell::new(0);
                        any_sub(x, &|y| {
                            if matches!(y, UExpr::Name(m, _) if names.contains(&m.as_str())) {
                                n.set(n.get() + 1);
                            }
                            false
                        });
                        n.get()
                    };
                    let steps = pre.len() + post.len();
                    let mut distinct = names.clone();
                    distinct.sort_unstable();
                    distinct.dedup();
                    let alone = count(&hoisted) == steps && count(rhs) == 0;
                    if names.len() == steps && distinct.len() == steps && alone {
                        for (inc, v, s) in pre {
                            self.effect(&UExpr::Step(inc, Box::new(v), s), out)?;
                        }
                        let once = UExpr::Assign(op, Box::new(hoisted), rhs.clone(), *sp);
                        self.effect(&once, out)?;
                        for (inc, v, s) in post {
                            self.effect(&UExpr::Step(inc, Box::new(v), s), out)?;
                        }
                        return Ok(());
                    }
                }
                if let UExpr::Assign(_, inner, _, _) = &**rhs {
                    // `a = b = e`: `b = e`, then `a = b` (the value of an assignment is its
                    // left-hand side afterwards)
                    self.effect(rhs, out)?;
                    let again = UExpr::Assign(op, lhs.clone(), inner.clone(), *sp);
                    return self.effect(&again, out);
                }
                if let Some((lsym @ Sym::Struct { .. }, lidx, ln)) = self.chain(lhs)? {
                    return self.struct_assign(op, (&lsym, &lidx, &ln), rhs, *sp, out);
                }
                let r = self.reference(lhs)?;
                let mut v = self.expr(rhs)?;
                if *op != "=" {
                    let bop =
                        binop(op.trim_end_matches('=')).ok_or_else(|| err(*sp, "bad operator"))?;
                    let cur = self.read_ref(&r, lhs.span())?;
                    v = Expr::Bin(bop, Box::new(cur), Box::new(v));
                }
                self.assign(r, fold(v), *sp, out)
            }
            UExpr::Step(inc, lhs, sp) => {
                let r = self.reference(lhs)?;
                let cur = self.read_ref(&r, lhs.span())?;
                let bop = if *inc { BinOp::Add } else { BinOp::Sub };
                self.assign(
                    r,
                    Expr::Bin(bop, Box::new(cur), Box::new(Expr::Const(1))),
                    *sp,
                    out,
                )
            }
            UExpr::Call(..) => {
                let x = self.expr(e)?;
                out.push(Stmt::Eval(x));
                Ok(())
            }
            _ => {
                // a side-effect free expression statement: evaluated for nothing
                self.expr(e)?;
                Ok(())
            }
        }
    }

    /// `s = t` for structs of the same type: field by field, in UPPAAL's order (an index of
    /// `s` that reads a field of `s` sees the fields already copied).
    fn struct_assign(
        &mut self,
        op: &str,
        (lsym, lidx, ln): (&Sym, &[(Expr, Span)], &str),
        rhs: &UExpr,
        sp: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Diagnostic> {
        if op != "=" {
            return Err(err(sp, format!("`{op}` on a struct")));
        }
        let Some((rsym @ Sym::Struct { .. }, ridx, rn)) = self.chain(rhs)? else {
            return Err(err(
                rhs.span(),
                format!("struct `{ln}` assigned a non-struct value"),
            ));
        };
        let mut ls = Vec::new();
        self.leaves(lsym, lidx, ln, sp, &mut ls)?;
        let mut rs = Vec::new();
        self.leaves(&rsym, &ridx, &rn, sp, &mut rs)?;
        let shape = |v: &[(Ref, String)], n: &str| {
            v.iter()
                .map(|(_, x)| x.strip_prefix(n).unwrap_or(x).to_string())
                .collect::<Vec<_>>()
        };
        if shape(&ls, ln) != shape(&rs, &rn) {
            return Err(err(
                sp,
                format!("`{ln}` and `{rn}` are structs of different types"),
            ));
        }
        for ((l, _), (r, _)) in ls.into_iter().zip(rs) {
            let v = self.read_ref(&r, sp)?;
            self.assign(l, v, sp, out)?;
        }
        Ok(())
    }

    fn assign(&mut self, r: Ref, v: Expr, sp: Span, out: &mut Vec<Stmt>) -> Result<(), Diagnostic> {
        match r {
            Ref::Int(first, size, index) => out.push(Stmt::Int(IntLv { first, size, index }, v)),
            Ref::Local(first, size, index) => out.push(Stmt::Local {
                first,
                size,
                index,
                value: v,
            }),
            Ref::Clock(first, size, index) => {
                if self.frame.is_some() {
                    return Err(err(
                        sp,
                        "clock assignments inside functions are not supported",
                    ));
                }
                out.push(Stmt::Clock(ClockRef { first, size, index }, v))
            }
            Ref::Chan(..) => return Err(err(sp, "cannot assign a channel")),
        }
        Ok(())
    }

    fn read_ref(&self, r: &Ref, sp: Span) -> Result<Expr, Diagnostic> {
        Ok(match r {
            Ref::Int(first, _, None) => Expr::Var(*first),
            Ref::Int(first, size, Some(i)) => Expr::Elem {
                first: *first,
                size: *size,
                index: Box::new(i.clone()),
            },
            Ref::Local(first, _, None) => Expr::Local(*first),
            Ref::Local(first, size, Some(i)) => Expr::LocalElem {
                first: *first,
                size: *size,
                index: Box::new(i.clone()),
            },
            _ => return Err(err(sp, "not an integer")),
        })
    }

    /// Resolves `a`, `a[i][j]`, `s.f`, `a[i].f[j]` to a symbol and the indices applied to it
    /// (fewer than its dimensions for a part of an array). `None` if the chain does not start
    /// at a variable (e.g. `P(1).x`, a process member in a query).
    fn chain(&mut self, e: &UExpr) -> Result<Option<Chain>, Diagnostic> {
        match e {
            UExpr::Name(n, _) => match self.lookup(n) {
                Some(s @ (Sym::Var { .. } | Sym::Struct { .. })) => {
                    Ok(Some((s.clone(), Vec::new(), n.clone())))
                }
                _ => Ok(None),
            },
            UExpr::Index(b, i, _) => {
                let Some((sym, mut idx, n)) = self.chain(b)? else {
                    return Ok(None);
                };
                let d = sym.dims().get(idx.len()).copied().ok_or_else(|| {
                    err(
                        e.span(),
                        format!(
                            "`{n}` has {} dimensions, more indices given",
                            sym.dims().len()
                        ),
                    )
                })?;
                let ie = fold(self.expr(i)?);
                if let Expr::Const(c) = ie {
                    if c < 0 || c >= i64::from(d) {
                        return Err(err(i.span(), format!("index {c} out of bounds (size {d})")));
                    }
                }
                idx.push((ie, i.span()));
                Ok(Some((sym, idx, n)))
            }
            UExpr::Field(b, f, sp) => {
                let Some((sym, idx, n)) = self.chain(b)? else {
                    return Ok(None);
                };
                let Sym::Struct { fields, dims } = &sym else {
                    return Err(err(*sp, format!("`{n}` is not a struct (no field `{f}`)")));
                };
                if idx.len() != dims.len() {
                    return Err(err(
                        *sp,
                        format!("`{n}` is an array of structs: index it before `.{f}`"),
                    ));
                }
                let fsym = fields
                    .iter()
                    .find(|(x, _)| x == f)
                    .map(|(_, s)| s.clone())
                    .ok_or_else(|| err(*sp, format!("`{n}` has no field `{f}`")))?;
                Ok(Some((fsym, idx, format!("{n}.{f}"))))
            }
            _ => Ok(None),
        }
    }

    /// The flattened reference to an element of `sym` (all its dimensions indexed).
    fn flat(&self, sym: &Sym, idx: &[(Expr, Span)], n: &str, sp: Span) -> Result<Ref, Diagnostic> {
        let (first, dims) = match sym {
            Sym::Var { first, dims, .. } => (*first, dims),
            Sym::Struct { .. } => {
                return Err(err(
                    sp,
                    format!(
                        "struct `{n}` used as a value (only whole-struct assignment is supported)"
                    ),
                ))
            }
            _ => return Err(err(sp, format!("`{n}` is not a variable"))),
        };
        if idx.len() != dims.len() {
            return Err(err(
                sp,
                format!(
                    "`{n}` has {} dimensions, {} indices given",
                    dims.len(),
                    idx.len()
                ),
            ));
        }
        let size = product(dims);
        let mut flat: Option<Expr> = None;
        for (k, ((ie, _), _)) in idx.iter().zip(dims).enumerate() {
            let stride = product(dims.get(k + 1..).unwrap_or(&[]));
            let term = if stride == 1 {
                ie.clone()
            } else {
                Expr::Bin(
                    BinOp::Mul,
                    Box::new(ie.clone()),
                    Box::new(Expr::Const(i64::from(stride))),
                )
            };
            flat = Some(match flat {
                None => term,
                Some(f) => Expr::Bin(BinOp::Add, Box::new(f), Box::new(term)),
            });
        }
        let index = flat.map(fold);
        let kind = match sym {
            Sym::Var { kind, .. } => Some(*kind),
            _ => None,
        };
        Ok(match kind {
            Some(VarKind::Int) => Ref::Int(first, size, index),
            Some(VarKind::Clock) => Ref::Clock(first, size, index),
            Some(VarKind::Chan) => Ref::Chan(first, size, index),
            _ => Ref::Local(first, size, index),
        })
    }

    /// Resolves `a`, `a[i]`, `a[i][j]`, `s.f` to a flattened reference.
    fn reference(&mut self, e: &UExpr) -> Result<Ref, Diagnostic> {
        match self.chain(e)? {
            Some((sym, idx, n)) => self.flat(&sym, &idx, &n, e.span()),
            None => {
                let mut root = e;
                while let UExpr::Index(b, _, _) | UExpr::Field(b, _, _) = root {
                    root = b;
                }
                let UExpr::Name(n, sp) = root else {
                    return Err(err(e.span(), "expected a variable"));
                };
                Err(err(
                    *sp,
                    match self.lookup(n) {
                        Some(Sym::Const(_)) => format!("`{n}` is a constant"),
                        Some(Sym::Type(_)) => format!("`{n}` is a type"),
                        Some(Sym::Func(_) | Sym::RefFunc(_)) => format!("`{n}` is a function"),
                        _ => format!("unknown name `{n}`"),
                    },
                ))
            }
        }
    }

    /// A variable passed by reference (to a template or a function): the symbol it denotes,
    /// indices fixed. Indices must be constants (the alias is resolved when lowering).
    fn alias(&mut self, a: &UExpr) -> Result<Sym, Diagnostic> {
        let Some((sym, idx, _)) = self.chain(a)? else {
            return Err(err(a.span(), "a reference argument must be a variable"));
        };
        let mut fixed = Vec::new();
        for (ie, sp) in &idx {
            match ie {
                Expr::Const(c) => fixed.push(*c as u32),
                _ => {
                    return Err(err(
                        *sp,
                        "reference arguments indexed by variables are not supported",
                    ))
                }
            }
        }
        Ok(sym.slice(&fixed))
    }

    /// An integer expression.
    fn expr(&mut self, e: &UExpr) -> Result<Expr, Diagnostic> {
        Ok(match e {
            UExpr::Int(v, _) => Expr::Const(*v),
            UExpr::Name(n, sp) => match self.lookup(n) {
                Some(Sym::Const(v)) => Expr::Const(*v),
                Some(Sym::Var { kind: VarKind::Clock, .. }) => {
                    return Err(err(*sp, format!("clock `{n}` used as an integer (clock constraints must be conjuncts `x ~ e` or `x - y ~ e`)")))
                }
                Some(Sym::Var { kind: VarKind::Chan, .. }) => return Err(err(*sp, format!("channel `{n}` used as an integer"))),
                Some(_) => {
                    let r = self.reference(e)?;
                    self.read_ref(&r, *sp)?
                }
                None => return Err(err(*sp, format!("unknown name `{n}`"))),
            },
            UExpr::Index(..) => {
                let r = self.reference(e)?;
                match r {
                    Ref::Clock(..) | Ref::Chan(..) => {
                        return Err(err(e.span(), "clock or channel used as an integer"))
                    }
                    _ => self.read_ref(&r, e.span())?,
                }
            }
            UExpr::Call(f, args, sp) => {
                // `P.f(…)` in a query: process `P`'s function, arguments in the query's scope
                let (n, nsp, scope) = match &**f {
                    UExpr::Name(n, nsp) => (n, nsp, None),
                    UExpr::Field(base, member, nsp) => match self.process_of(base) {
                        Some((_, scope)) => (member, nsp, Some(scope)),
                        None => return Err(err(*sp, "`.` (structs, process members) is not supported here")),
                    },
                    _ => return Err(err(*sp, "only named functions can be called")),
                };
                let found = match scope {
                    Some(scope) => {
                        self.scopes.push(scope);
                        let f = self.lookup(n).cloned();
                        self.scopes.pop();
                        f
                    }
                    None => self.lookup(n).cloned(),
                };
                let func = match found {
                    Some(Sym::Func(func)) => func,
                    Some(Sym::RefFunc(rf)) => return self.ref_call(&rf, args, *sp),
                    _ => return Err(err(*nsp, format!("`{n}` is not a function"))),
                };
                if args.len() != func.params as usize {
                    return Err(err(*sp, format!("`{n}` takes {} arguments", func.params)));
                }
                let mut a = Vec::new();
                for x in args {
                    a.push(fold(self.expr(x)?));
                }
                Expr::Call(func, a)
            }
            UExpr::Unary(op, x, _) => {
                let x = Box::new(self.expr(x)?);
                match op {
                    Un::Neg => Expr::Neg(x),
                    Un::Not => Expr::Not(x),
                    Un::BitNot => Expr::BitNot(x),
                }
            }
            UExpr::Bin(op, a, b, sp) => {
                let x = self.expr(a)?;
                let y = self.expr(b)?;
                if *op == "imply" {
                    Expr::Bin(BinOp::Or, Box::new(Expr::Not(Box::new(x))), Box::new(y))
                } else {
                    let bop = binop(op).ok_or_else(|| err(*sp, format!("operator `{op}` not supported here")))?;
                    Expr::Bin(bop, Box::new(x), Box::new(y))
                }
            }
            UExpr::Ite(c, a, b, _) => Expr::Ite(
                Box::new(self.expr(c)?),
                Box::new(self.expr(a)?),
                Box::new(self.expr(b)?),
            ),
            UExpr::Quant(q, name, ty, body, sp) => {
                let ft = self.full_ty(ty, &[])?;
                let Ty::Int(lo, hi) = ft.ty else {
                    return Err(err(*sp, "quantifier over a non-integer type"));
                };
                if hi - lo > 10_000 {
                    return Err(err(*sp, "quantifier range too large"));
                }
                let mut acc: Option<Expr> = None;
                for v in lo..=hi {
                    self.scopes.push(FxHashMap::default());
                    self.bind(name, Sym::Const(v));
                    let r = self.expr(body);
                    self.scopes.pop();
                    let x = r?;
                    let x = match q {
                        Quant::Sum => x,
                        _ => Expr::Bin(BinOp::Ne, Box::new(x), Box::new(Expr::Const(0))),
                    };
                    acc = Some(match acc {
                        None => x,
                        Some(a) => Expr::Bin(
                            match q {
                                Quant::Forall => BinOp::And,
                                Quant::Exists => BinOp::Or,
                                Quant::Sum => BinOp::Add,
                            },
                            Box::new(a),
                            Box::new(x),
                        ),
                    });
                }
                acc.unwrap_or(Expr::Const(match q {
                    Quant::Forall => 1,
                    _ => 0,
                }))
            }
            UExpr::Assign(_, _, _, sp) | UExpr::Step(_, _, sp) => {
                return Err(err(*sp, "assignments inside expressions are not supported"))
            }
            UExpr::Field(base, member, sp) => {
                if let Some((sym, idx, n)) = self.chain(e)? {
                    let r = self.flat(&sym, &idx, &n, *sp)?;
                    return match r {
                        Ref::Clock(..) | Ref::Chan(..) => {
                            Err(err(*sp, "clock or channel used as an integer"))
                        }
                        _ => self.read_ref(&r, *sp),
                    };
                }
                let Some((p, scope)) = self.process_of(base) else {
                    return Err(err(*sp, "`.` (structs, process members) is not supported here"));
                };
                if let Some(l) = self.model.processes.get(p).and_then(|pr| pr.locations.iter().position(|l| &l.name == member)) {
                    // a location test: the location is stored before the integers, so it reads
                    // as a comparison on a pseudo variable resolved by the query evaluator
                    return Ok(Expr::Bin(BinOp::Eq, Box::new(Expr::Local(LOC_SLOT + p as u32)), Box::new(Expr::Const(l as i64))));
                }
                self.scopes.push(scope);
                let r = self.expr(&UExpr::Name(member.clone(), *sp));
                self.scopes.pop();
                return r;
            }
            UExpr::Deadlock(sp) => {
                if self.names.is_none() {
                    return Err(err(*sp, "`deadlock` is only allowed in queries"));
                }
                // read by the query evaluator as the truth of `deadlock` in the valuation
                Expr::Local(DEADLOCK_SLOT)
            }
        })
    }

    fn mentions_clock(&self, e: &UExpr) -> bool {
        match e {
            UExpr::Name(n, _) => matches!(
                self.lookup(n),
                Some(Sym::Var {
                    kind: VarKind::Clock,
                    ..
                })
            ),
            UExpr::Index(b, i, _) => self.mentions_clock(b) || self.mentions_clock(i),
            UExpr::Unary(_, x, _) => self.mentions_clock(x),
            UExpr::Bin(_, a, b, _) => self.mentions_clock(a) || self.mentions_clock(b),
            UExpr::Ite(c, a, b, _) => {
                self.mentions_clock(c) || self.mentions_clock(a) || self.mentions_clock(b)
            }
            UExpr::Call(_, args, _) => args.iter().any(|a| self.mentions_clock(a)),
            UExpr::Field(..) => self.process_clock(e).is_some(),
            _ => false,
        }
    }

    /// `P.x` for a clock `x` of process `P` (in queries): the process's scope and `x` as a name.
    fn process_clock(&self, e: &UExpr) -> Option<(FxHashMap<String, Sym>, UExpr)> {
        let UExpr::Field(base, member, sp) = e else {
            return None;
        };
        let (_, scope) = self.process_of(base)?;
        matches!(
            scope.get(member),
            Some(Sym::Var {
                kind: VarKind::Clock,
                ..
            })
        )
        .then(|| (scope, UExpr::Name(member.clone(), *sp)))
    }

    fn clock_ref(&mut self, e: &UExpr) -> Result<Option<ClockRef>, Diagnostic> {
        if !matches!(e, UExpr::Name(..) | UExpr::Index(..)) || !self.mentions_clock(e) {
            return Ok(None);
        }
        match self.reference(e)? {
            Ref::Clock(first, size, index) => Ok(Some(ClockRef { first, size, index })),
            _ => Ok(None),
        }
    }

    /// A guard or invariant: conjuncts without clocks are integer conditions, the others must
    /// be clock constraints.
    fn guard(&mut self, e: &UExpr, g: &mut Guard) -> Result<(), Diagnostic> {
        if let UExpr::Bin("&&", a, b, _) = e {
            self.guard(a, g)?;
            return self.guard(b, g);
        }
        if !self.mentions_clock(e) {
            let x = fold(self.expr(e)?);
            if x != Expr::Const(1) {
                g.ints.push(x);
            }
            return Ok(());
        }
        let UExpr::Bin(op, l, r, sp) = e else {
            return Err(err(
                e.span(),
                "clock constraints must be conjunctions of `x ~ e` or `x - y ~ e` (no `||`, `!`)",
            ));
        };
        let Some(mut cmp) = cmp_of(op) else {
            return Err(err(*sp, format!("`{op}` on clocks is not supported (clock constraints use < <= == >= >, in conjunctions)")));
        };
        let (mut l, mut r) = (&**l, &**r);
        if !self.mentions_clock(l) {
            std::mem::swap(&mut l, &mut r);
            cmp = flip(cmp);
        }
        if self.mentions_clock(r) {
            // x ~ y  →  x - y ~ 0
            let (Some(x), Some(y)) = (self.clock_ref(l)?, self.clock_ref(r)?) else {
                return Err(err(*sp, "unsupported clock constraint"));
            };
            g.clocks.push(ClockAtom {
                x,
                y: Some(y),
                cmp,
                bound: Expr::Const(0),
            });
            return Ok(());
        }
        let bound = fold(self.expr(r)?);
        if let Some(x) = self.clock_ref(l)? {
            g.clocks.push(ClockAtom {
                x,
                y: None,
                cmp,
                bound,
            });
            return Ok(());
        }
        if let UExpr::Bin("-", a, b, _) = l {
            if let (Some(x), Some(y)) = (self.clock_ref(a)?, self.clock_ref(b)?) {
                g.clocks.push(ClockAtom {
                    x,
                    y: Some(y),
                    cmp,
                    bound,
                });
                return Ok(());
            }
        }
        Err(err(
            *sp,
            "unsupported clock constraint (expected `x ~ e` or `x - y ~ e`)",
        ))
    }
}

/// `(channel id, is_send)` of an edge, if it synchronises.
type ChanUse = Option<(u32, bool)>;

/// One edge of a template before channel resolution.
struct RawEdge {
    src: u32,
    tgt: u32,
    guard: Guard,
    stmts: Vec<Stmt>,
    /// `(channel id, is_send)`.
    sync: Option<(u32, bool)>,
    lazy: Option<RawLazy>,
    span: Span,
}

/// A channel-array element chosen by the state.
#[derive(Clone)]
struct RawLazy {
    /// The flattened index.
    index: Expr,
    /// Each value the index can take, with its channel id.
    chans: Vec<(i64, u32)>,
    send: bool,
    /// The synchronisation as written.
    label: String,
}

impl Lower {
    fn values(&mut self, ty: &FullTy, sp: Span) -> Result<Vec<i64>, Diagnostic> {
        match ty.ty {
            Ty::Int(lo, hi) if ty.dims.is_empty() && hi - lo <= 100_000 => Ok((lo..=hi).collect()),
            _ => Err(err(sp, "expected a bounded integer range")),
        }
    }

    fn system(&mut self, doc: &XDoc) -> Result<Names, Diagnostic> {
        let sys = doc
            .system
            .as_ref()
            .ok_or_else(|| err(Span::point(0), "the model has no `<system>` block"))?;
        let mut p = parser_for(sys, &self.types)?;
        let mut insts: FxHashMap<String, (String, Vec<UExpr>, Span)> = FxHashMap::default();
        let mut order: Vec<(String, Span)> = Vec::new();
        loop {
            if p.at_end() {
                return Err(err(sys.span(), "no `system` line"));
            }
            if matches!(p.peek(), crate::uppaal_lang::Tok::Ident(s) if s == "system") {
                p.ident()?;
                loop {
                    let (n, sp) = p.ident()?;
                    order.push((n, sp));
                    if p.is_op("<") {
                        return Err(err(
                            p.span(),
                            "process priorities (`<` in the system line) are not supported",
                        ));
                    }
                    if !p.eat(",") {
                        break;
                    }
                }
                p.expect(";")?;
                break;
            }
            if p.at_type()
                || matches!(p.peek(), crate::uppaal_lang::Tok::Ident(s) if s == "typedef")
            {
                let mut ds = Vec::new();
                p.decl(&mut ds)?;
                self.types = p.types.clone();
                for d in &ds {
                    self.decl(d, "")?;
                }
                continue;
            }
            let (name, sp) = p.ident()?;
            if p.eat("(") {
                // a parameterised instantiation `Name(params) = T(args);` is partial instantiation
                return Err(err(
                    sp,
                    "instantiations with their own parameters are not supported",
                ));
            }
            if !(p.eat("=") || p.eat(":=")) {
                return Err(p.unexpected("`=` (instantiation) or `system`"));
            }
            let (tpl, _) = p.ident()?;
            p.expect("(")?;
            let mut args = Vec::new();
            if !p.is_op(")") {
                loop {
                    args.push(p.expr()?);
                    if !p.eat(",") {
                        break;
                    }
                }
            }
            p.expect(")")?;
            p.expect(";")?;
            insts.insert(name, (tpl, args, sp));
        }
        // what follows the system line: UPPAAL's gantt chart section is display only
        if !p.at_end() && !matches!(p.peek(), crate::uppaal_lang::Tok::Ident(s) if s == "gantt") {
            return Err(p.unexpected("end of the system block"));
        }
        let mut names = Names::default();
        for (n, sp) in order {
            let (tpl_name, args, is_inst) = match insts.get(&n) {
                Some((t, a, _)) => (t.clone(), Some(a.clone()), true),
                None => (n.clone(), None, false),
            };
            let tpl = doc
                .templates
                .iter()
                .find(|t| t.name.s.trim() == tpl_name)
                .ok_or_else(|| err(sp, format!("unknown template `{tpl_name}`")))?;
            let params = match &tpl.parameter {
                Some(t) if !t.s.trim().is_empty() => {
                    let mut pp = parser_for(t, &self.types)?;
                    let ps = pp.params("")?;
                    if !pp.at_end() {
                        return Err(pp.unexpected("`,` or end of the parameter list"));
                    }
                    ps
                }
                _ => Vec::new(),
            };
            match args {
                Some(args) => {
                    if args.len() != params.len() {
                        return Err(err(
                            sp,
                            format!("`{tpl_name}` takes {} arguments", params.len()),
                        ));
                    }
                    let mut binds = Vec::new();
                    for (prm, a) in params.iter().zip(&args) {
                        if prm.by_ref {
                            let sym = self.alias(a)?;
                            binds.push((prm.name.clone(), sym));
                        } else {
                            binds.push((prm.name.clone(), Sym::Const(self.const_int(a)?)));
                        }
                    }
                    let _ = is_inst;
                    self.instance(tpl, &n, &tpl_name, binds, &mut names)?;
                }
                None => {
                    // every combination of the bounded value parameters
                    let mut combos: Vec<Vec<i64>> = vec![vec![]];
                    for prm in &params {
                        if prm.by_ref {
                            return Err(err(
                                prm.span,
                                "`system T;` needs value parameters (T has a reference parameter)",
                            ));
                        }
                        let ft = self.full_ty(&prm.ty, &prm.dims)?;
                        let vals = self.values(&ft, prm.span)?;
                        let mut next = Vec::new();
                        for c in &combos {
                            for v in &vals {
                                let mut c2 = c.clone();
                                c2.push(*v);
                                next.push(c2);
                            }
                        }
                        combos = next;
                        if combos.len() > 10_000 {
                            return Err(err(prm.span, "too many instances"));
                        }
                    }
                    for c in combos {
                        let pname = if params.is_empty() {
                            n.clone()
                        } else {
                            format!(
                                "{n}({})",
                                c.iter()
                                    .map(|v| v.to_string())
                                    .collect::<Vec<_>>()
                                    .join(",")
                            )
                        };
                        let binds = params
                            .iter()
                            .zip(&c)
                            .map(|(p, v)| (p.name.clone(), Sym::Const(*v)))
                            .collect();
                        self.instance(tpl, &pname, &tpl_name, binds, &mut names)?;
                        if let Some(last) = names.procs.last_mut() {
                            last.2 = c.clone();
                        }
                    }
                }
            }
        }
        names.globals = self.scopes.first().cloned().unwrap_or_default();
        names.types = self.types.clone();
        self.channels()?;
        Ok(names)
    }

    fn instance(
        &mut self,
        tpl: &XTemplate,
        pname: &str,
        tpl_name: &str,
        binds: Vec<(String, Sym)>,
        names: &mut Names,
    ) -> Result<(), Diagnostic> {
        if let Some((what, sp)) = &tpl.other {
            return Err(err(
                *sp,
                format!("`<{what}>` in templates (probabilistic branches) is not supported"),
            ));
        }
        self.scopes.push(FxHashMap::default());
        for (n, s) in binds {
            self.bind(&n, s);
        }
        let r = self.instance_body(tpl, pname);
        let scope = self.scopes.pop().unwrap_or_default();
        let (proc_, raw) = r?;
        names.scopes.push(scope);
        names
            .procs
            .push((pname.to_string(), tpl_name.to_string(), Vec::new()));
        self.model.processes.push(proc_);
        self.raw.push(raw);
        Ok(())
    }

    fn instance_body(
        &mut self,
        tpl: &XTemplate,
        pname: &str,
    ) -> Result<(Process, Vec<RawEdge>), Diagnostic> {
        if let Some(d) = &tpl.declaration {
            let mut p = parser_for(d, &self.types)?;
            let decls = p.decls()?;
            let saved = std::mem::replace(&mut self.types, p.types);
            for dcl in &decls {
                self.decl(dcl, &format!("{pname}."))?;
            }
            self.types = saved;
        }
        let mut locations = Vec::new();
        let mut ids: FxHashMap<&str, u32> = FxHashMap::default();
        for (k, l) in tpl.locations.iter().enumerate() {
            if let Some((kind, sp)) = &l.other {
                return Err(err(
                    *sp,
                    if kind == "exponentialrate" {
                        format!("location label `{kind}` (an SMC exit rate) is not supported")
                    } else {
                        format!("location label `{kind}` is not supported")
                    },
                ));
            }
            let mut inv = Guard::default();
            if let Some(t) = &l.invariant {
                if !t.s.trim().is_empty() {
                    let mut p = parser_for(t, &self.types)?;
                    let e = p.expr()?;
                    if !p.at_end() {
                        return Err(p.unexpected("end of the invariant"));
                    }
                    self.guard(&e, &mut inv)?;
                }
            }
            ids.insert(l.id.as_str(), k as u32);
            locations.push(Location {
                name: l
                    .name
                    .as_ref()
                    .map(|n| n.s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| l.id.clone()),
                initial: tpl.init.as_deref() == Some(l.id.as_str()),
                committed: l.committed,
                urgent: l.urgent,
                labels: Vec::new(),
                invariant: inv,
                span: l.span,
            });
        }
        if !locations.iter().any(|l| l.initial) {
            return Err(err(
                tpl.span,
                format!("template `{}` has no initial location", tpl.name.s.trim()),
            ));
        }
        let mut raw = Vec::new();
        for t in &tpl.transitions {
            let src = *ids.get(t.source.as_str()).ok_or_else(|| {
                err(
                    t.span,
                    "transition from an unknown location (branchpoints are not supported)",
                )
            })?;
            let tgt = *ids.get(t.target.as_str()).ok_or_else(|| {
                err(
                    t.span,
                    "transition to an unknown location (branchpoints are not supported)",
                )
            })?;
            self.transition(t, src, tgt, &mut raw)?;
        }
        let n = locations.len();
        Ok((
            Process {
                name: pname.to_string(),
                locations,
                edges: Vec::new(),
                out: vec![Vec::new(); n],
            },
            raw,
        ))
    }

    fn transition(
        &mut self,
        t: &crate::uppaal_xml::XTransition,
        src: u32,
        tgt: u32,
        raw: &mut Vec<RawEdge>,
    ) -> Result<(), Diagnostic> {
        let mut selects: Vec<(String, Vec<i64>)> = Vec::new();
        let mut guard_e = None;
        let mut sync_t = None;
        let mut upd = None;
        for (kind, text) in &t.labels {
            if text.s.trim().is_empty() {
                continue;
            }
            match kind.as_str() {
                "select" => {
                    let mut p = parser_for(text, &self.types)?;
                    loop {
                        let (n, sp) = p.ident()?;
                        p.expect(":")?;
                        let ty = p.ty()?;
                        let ft = self.full_ty(&ty, &[])?;
                        selects.push((n, self.values(&ft, sp)?));
                        if !p.eat(",") {
                            break;
                        }
                    }
                    if !p.at_end() {
                        return Err(p.unexpected("end of the select"));
                    }
                }
                "guard" => guard_e = Some(text),
                "synchronisation" => sync_t = Some(text),
                "assignment" => upd = Some(text),
                "comments" | "testcode" => {}
                other => {
                    return Err(err(
                        text.span(),
                        format!("transition label `{other}` is not supported"),
                    ))
                }
            }
        }
        let mut combos: Vec<Vec<i64>> = vec![vec![]];
        for (_, vals) in &selects {
            let mut next = Vec::new();
            for c in &combos {
                for v in vals {
                    let mut c2 = c.clone();
                    c2.push(*v);
                    next.push(c2);
                }
            }
            combos = next;
            if combos.len() > MAX_EXPANSION {
                return Err(err(t.span, "select ranges too large"));
            }
        }
        for c in combos {
            self.scopes.push(FxHashMap::default());
            for ((n, _), v) in selects.iter().zip(&c) {
                self.bind(n, Sym::Const(*v));
            }
            let r = self.one_edge(t.span, src, tgt, guard_e, sync_t, upd, raw);
            self.scopes.pop();
            r?;
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn one_edge(
        &mut self,
        span: Span,
        src: u32,
        tgt: u32,
        guard_e: Option<&Text>,
        sync_t: Option<&Text>,
        upd: Option<&Text>,
        raw: &mut Vec<RawEdge>,
    ) -> Result<(), Diagnostic> {
        let mut g = Guard::default();
        if let Some(t) = guard_e {
            let mut p = parser_for(t, &self.types)?;
            let e = p.expr()?;
            if !p.at_end() {
                return Err(p.unexpected("end of the guard"));
            }
            self.guard(&e, &mut g)?;
        }
        if g.ints.contains(&Expr::Const(0)) {
            return Ok(()); // statically disabled (e.g. a select value excluded by the guard)
        }
        let mut stmts = Vec::new();
        if let Some(t) = upd {
            let mut p = parser_for(t, &self.types)?;
            loop {
                let e = p.expr()?;
                self.effect(&e, &mut stmts)?;
                if !p.eat(",") {
                    break;
                }
            }
            if !p.at_end() {
                return Err(p.unexpected("`,` or end of the update"));
            }
        }
        let mut sync: ChanUse = None;
        let mut lazy = None;
        if let Some(t) = sync_t {
            let s = t.s.trim_end();
            let send = s.ends_with('!');
            if !send && !s.ends_with('?') {
                return Err(err(t.span(), "a synchronisation must end with `!` or `?`"));
            }
            let cut = Text {
                s: s[..s.len() - 1].to_string(),
                map: t
                    .map
                    .get(..s.len() - 1)
                    .map(|m| m.to_vec())
                    .unwrap_or_default(),
            };
            let mut p = parser_for(&cut, &self.types)?;
            let ce = p.expr()?;
            if !p.at_end() {
                return Err(p.unexpected("end of the channel expression"));
            }
            match self.reference(&ce)? {
                Ref::Chan(first, _, None) => sync = Some((first, send)),
                Ref::Chan(first, size, Some(i)) => {
                    let i = fold(i);
                    if let Expr::Const(k) = i {
                        sync = Some((first + k as u32, send));
                    } else {
                        let hi = i64::from(size) - 1;
                        let values = i
                            .values_within(&self.model.ints, 0, hi, MAX_EXPANSION + 1)
                            .ok_or_else(|| {
                                err(
                                    span,
                                    format!("more than {MAX_EXPANSION} edges after expanding `select` and channel arrays: refused rather than explored"),
                                )
                            })?;
                        // one edge whose event is computed from the state, not one per value
                        let chans = values.into_iter().map(|k| (k, first + k as u32)).collect();
                        lazy = Some(RawLazy {
                            index: i,
                            chans,
                            send,
                            label: t.s.trim().to_string(),
                        });
                    }
                }
                _ => return Err(err(ce.span(), "not a channel")),
            }
        }
        self.expanded += 1;
        if self.expanded > MAX_EXPANSION {
            return Err(err(
                span,
                format!("more than {MAX_EXPANSION} edges after expanding `select`: refused rather than explored"),
            ));
        }
        raw.push(RawEdge {
            src,
            tgt,
            guard: g,
            stmts,
            sync,
            lazy,
            span,
        });
        Ok(())
    }

    /// Events, edges and synchronisation vectors from the channel uses.
    fn channels(&mut self) -> Result<(), Diagnostic> {
        let nc = self.chans.len();
        let mut ev_id: FxHashMap<(u32, bool), u32> = FxHashMap::default();
        // senders[c], receivers[c]: processes using the channel
        let mut senders: Vec<Vec<u32>> = vec![Vec::new(); nc];
        let mut receivers: Vec<Vec<u32>> = vec![Vec::new(); nc];
        // the first transition using each channel, to locate a refusal
        let mut first_use: Vec<Span> = vec![Span::point(0); nc];
        let raws = std::mem::take(&mut self.raw);
        for (pi, raw) in raws.into_iter().enumerate() {
            for r in raw {
                // a channel-array edge chosen by the state: every element it may use
                let uses: Vec<(i64, u32, bool)> = match (&r.sync, &r.lazy) {
                    (Some((c, send)), _) => vec![(0, *c, *send)],
                    (None, Some(l)) => l.chans.iter().map(|&(k, c)| (k, c, l.send)).collect(),
                    (None, None) => Vec::new(),
                };
                let mut events = Vec::with_capacity(uses.len());
                for (k, c, send) in uses {
                    let chan = self
                        .chans
                        .get(c as usize)
                        .ok_or_else(|| err(r.span, "bad channel"))?;
                    let c = c as usize;
                    if let (Some(s), Some(rc), Some(f)) =
                        (senders.get(c), receivers.get(c), first_use.get_mut(c))
                    {
                        if s.is_empty() && rc.is_empty() {
                            *f = r.span;
                        }
                    }
                    let users = if send { &mut senders } else { &mut receivers };
                    if let Some(u) = users.get_mut(c) {
                        if !u.contains(&(pi as u32)) {
                            u.push(pi as u32);
                        }
                    }
                    if chan.urgent && !r.guard.clocks.is_empty() {
                        return Err(err(
                            r.span,
                            "clock guards on urgent channels are not allowed",
                        ));
                    }
                    let names = &mut self.model.events;
                    let ev = *ev_id.entry((c as u32, send)).or_insert_with(|| {
                        names.push(format!("{}{}", chan.name, if send { "!" } else { "?" }));
                        names.len() as u32 - 1
                    });
                    events.push((k, ev));
                }
                let event = events.first().map_or(0, |p| p.1);
                let lazy = r.lazy.map(|l| {
                    Arc::new(LazyEvent {
                        index: l.index,
                        events,
                        label: l.label,
                    })
                });
                let Some(proc_) = self.model.processes.get_mut(pi) else {
                    continue;
                };
                let id = proc_.edges.len() as u32;
                if let Some(o) = proc_.out.get_mut(r.src as usize) {
                    o.push(id);
                }
                proc_.edges.push(Edge {
                    src: r.src,
                    tgt: r.tgt,
                    event,
                    guard: r.guard,
                    stmts: r.stmts,
                    span: r.span,
                    lazy,
                });
            }
        }
        let np = self.model.processes.len();
        let ne = self.model.events.len();
        self.model.synced = vec![vec![false; ne]; np];
        for p in 0..np {
            for e in 1..ne {
                if let Some(s) = self.model.synced.get_mut(p).and_then(|v| v.get_mut(e)) {
                    *s = true;
                }
            }
        }
        for (c, chan) in self.chans.iter().enumerate() {
            let (Some(&snd), Some(&rcv)) =
                (ev_id.get(&(c as u32, true)), ev_id.get(&(c as u32, false)))
            else {
                if chan.broadcast {
                    if let Some(&snd) = ev_id.get(&(c as u32, true)) {
                        for &p in &senders[c] {
                            self.model.syncs.push(Sync {
                                parts: vec![(p, snd, false)],
                                broadcast: true,
                                urgent: chan.urgent,
                                span: Span::point(0),
                            });
                        }
                    }
                }
                continue;
            };
            for &p in &senders[c] {
                if chan.broadcast {
                    let mut parts = vec![(p, snd, false)];
                    for &q in &receivers[c] {
                        if q != p {
                            parts.push((q, rcv, true));
                        }
                    }
                    parts.sort_unstable();
                    self.model.syncs.push(Sync {
                        parts,
                        broadcast: true,
                        urgent: chan.urgent,
                        span: Span::point(0),
                    });
                } else {
                    if self.model.syncs.len() + receivers[c].len() > MAX_SYNCS {
                        return Err(err(
                            first_use.get(c).copied().unwrap_or(Span::point(0)),
                            format!("more than {MAX_SYNCS} synchronisation vectors (sender/receiver pairs per channel): refused rather than explored"),
                        ));
                    }
                    for &q in &receivers[c] {
                        if q != p {
                            let mut parts = vec![(p, snd, false), (q, rcv, false)];
                            parts.sort_unstable();
                            self.model.syncs.push(Sync {
                                parts,
                                broadcast: false,
                                urgent: chan.urgent,
                                span: Span::point(0),
                            });
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// A query: its quantifier and the state formula (an integer expression over the integers, where
/// `Local(p)` is the location of process `p`).
#[derive(Clone, Debug)]
pub struct Query {
    pub text: String,
    pub comment: String,
    pub kind: QueryKind,
    pub(crate) formula: Expr,
    /// `ψ` of `φ --> ψ` (then `formula` is `φ`).
    pub(crate) target: Option<Expr>,
    /// The formula mentions `deadlock` (a property of valuations, not of the discrete state).
    pub(crate) deadlock: bool,
    /// The clock constraints of the formula; atom `k` reads as the pseudo-slot
    /// `ATOM_SLOT + k`.
    pub(crate) clock_atoms: Vec<ClockAtom>,
}

/// At most this many clock constraints per query (the searches split zones along them).
const MAX_QUERY_ATOMS: usize = 16;
/// A lowered query formula reads its state through frame slots (`Expr::Local`): `deadlock`,
/// then the truth of each clock constraint, then the location of each process.
const DEADLOCK_SLOT: u32 = 0;
/// The slot of the first clock constraint of a query.
const ATOM_SLOT: u32 = 1;
/// The slot of process 0's location.
const LOC_SLOT: u32 = ATOM_SLOT + MAX_QUERY_ATOMS as u32;

impl Lower {
    /// A query formula: boolean combinations (`&&`, `||`, `!`, `imply`) of integer conditions,
    /// `deadlock` and clock constraints `x ~ e` (each becomes one atom).
    fn query_formula(&mut self, e: &UExpr, atoms: &mut Vec<ClockAtom>) -> Result<Expr, Diagnostic> {
        if let UExpr::Quant(q @ (Quant::Forall | Quant::Exists), name, ty, body, sp) = e {
            // `forall`/`exists` over clock constraints (`forall (i : …) P(i).t == c`): one
            // formula per value, each with its own atoms
            let ft = self.full_ty(ty, &[])?;
            let Ty::Int(lo, hi) = ft.ty else {
                return Err(err(*sp, "quantifier over a non-integer type"));
            };
            self.scopes.push(FxHashMap::default());
            self.bind(name, Sym::Const(lo));
            let clocks = self.mentions_clock(body);
            self.scopes.pop();
            if clocks {
                let mut acc: Option<Expr> = None;
                for v in lo..=hi {
                    self.scopes.push(FxHashMap::default());
                    self.bind(name, Sym::Const(v));
                    let r = self.query_formula(body, atoms);
                    self.scopes.pop();
                    let x = Expr::Bin(BinOp::Ne, Box::new(r?), Box::new(Expr::Const(0)));
                    acc = Some(match acc {
                        None => x,
                        Some(a) => Expr::Bin(
                            if *q == Quant::Forall {
                                BinOp::And
                            } else {
                                BinOp::Or
                            },
                            Box::new(a),
                            Box::new(x),
                        ),
                    });
                }
                return Ok(acc.unwrap_or(Expr::Const(i64::from(*q == Quant::Forall))));
            }
        }
        if !self.mentions_clock(e) {
            return self.expr(e);
        }
        match e {
            UExpr::Bin(op @ ("&&" | "||" | "imply"), a, b, _) => {
                let x = Box::new(self.query_formula(a, atoms)?);
                let y = Box::new(self.query_formula(b, atoms)?);
                Ok(match *op {
                    "&&" => Expr::Bin(BinOp::And, x, y),
                    "||" => Expr::Bin(BinOp::Or, x, y),
                    _ => Expr::Bin(BinOp::Or, Box::new(Expr::Not(x)), y),
                })
            }
            UExpr::Unary(Un::Not, x, _) => Ok(Expr::Not(Box::new(self.query_formula(x, atoms)?))),
            UExpr::Bin(op, a, b, sp) if *op == "!=" => {
                let eq = UExpr::Bin("==", a.clone(), b.clone(), *sp);
                Ok(Expr::Not(Box::new(self.query_formula(&eq, atoms)?)))
            }
            UExpr::Bin(op, l, r, sp) if cmp_of(op).is_some() => {
                // a process's clock `P.x` reads as `x` in `P`'s scope
                let (mut l, mut r) = ((**l).clone(), (**r).clone());
                let mut scope = None;
                for side in [&mut l, &mut r] {
                    if let Some((sc, name)) = self.process_clock(side) {
                        if scope.is_some() {
                            return Err(err(
                                *sp,
                                "differences of clocks in queries are not supported (ExtraM is unsound for them)",
                            ));
                        }
                        *side = name;
                        scope = Some(sc);
                    }
                }
                let pushed = scope.is_some();
                if let Some(sc) = scope {
                    self.scopes.push(sc);
                }
                let e = UExpr::Bin(op, Box::new(l), Box::new(r), *sp);
                let mut g = Guard::default();
                let res = self.guard(&e, &mut g);
                if pushed {
                    self.scopes.pop();
                }
                res?;
                let [a] = g.clocks.as_slice() else {
                    return Err(err(*sp, "unsupported clock constraint in a query"));
                };
                if a.y.is_some() {
                    return Err(err(
                        *sp,
                        "differences of clocks in queries are not supported (ExtraM is unsound for them)",
                    ));
                }
                if atoms.len() >= MAX_QUERY_ATOMS {
                    return Err(err(
                        *sp,
                        format!("more than {MAX_QUERY_ATOMS} clock constraints in one query are not supported"),
                    ));
                }
                atoms.push(a.clone());
                Ok(Expr::Local(ATOM_SLOT + atoms.len() as u32 - 1))
            }
            _ => Err(err(
                e.span(),
                "clock constraints in queries must be comparisons `x ~ e` combined by `&&`, `||`, `!`, `imply`",
            )),
        }
    }
}

/// The supported path quantifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryKind {
    /// `E<> φ`: some reachable state satisfies φ.
    Reach,
    /// `A[] φ`: every reachable state satisfies φ.
    Invariant,
    /// `E[] φ`: some maximal path has φ in every state.
    Globally,
    /// `A<> φ`: every maximal path reaches φ (`not E[] not φ`).
    Eventually,
    /// `φ --> ψ`: every reachable φ-state is followed by ψ on every maximal path
    /// (`A[] (φ imply A<> ψ)`).
    LeadsTo,
}

impl QueryKind {
    /// `E[]`, `A<>` or `-->`.
    pub fn is_liveness(self) -> bool {
        matches!(
            self,
            QueryKind::Globally | QueryKind::Eventually | QueryKind::LeadsTo
        )
    }
}

impl Lower {
    fn process_of(&self, base: &UExpr) -> Option<(usize, FxHashMap<String, Sym>)> {
        let names = self.names.as_ref()?;
        let idx = match base {
            UExpr::Name(n, _) => names.procs.iter().position(|(pn, _, _)| pn == n)?,
            UExpr::Call(f, args, _) => {
                let UExpr::Name(t, _) = &**f else { return None };
                let mut vals = Vec::new();
                for a in args {
                    match a {
                        UExpr::Int(v, _) => vals.push(*v),
                        UExpr::Name(n, _) => match self.lookup(n) {
                            Some(Sym::Const(v)) => vals.push(*v),
                            _ => return None,
                        },
                        UExpr::Unary(Un::Neg, x, _) => match &**x {
                            UExpr::Int(v, _) => vals.push(-v),
                            _ => return None,
                        },
                        _ => return None,
                    }
                }
                names
                    .procs
                    .iter()
                    .position(|(_, tn, a)| tn == t && *a == vals)?
            }
            _ => return None,
        };
        Some((idx, names.scopes.get(idx)?.clone()))
    }
}

impl UppaalModel {
    /// The embedded queries (`<queries>`), each parsed or refused with its location.
    pub fn embedded_queries(&self) -> Vec<Result<Query, Diagnostic>> {
        self.queries.iter().map(|(t, c)| self.query(t, c)).collect()
    }

    /// The queries of a `.q` file (one per non-comment line; `//` and `/* */` comments).
    pub fn query_file(&self, text: &str) -> Vec<Result<Query, Diagnostic>> {
        let mut out = Vec::new();
        let mut off = 0;
        let mut in_block = false;
        for line in text.split_inclusive('\n') {
            let start = off;
            off += line.len();
            let mut l = line.trim_end();
            if in_block {
                match l.find("*/") {
                    Some(k) => {
                        in_block = false;
                        l = &l[k + 2..];
                    }
                    None => continue,
                }
            }
            if let Some(k) = l.find("/*") {
                if !l[k..].contains("*/") {
                    in_block = true;
                }
                l = &l[..k];
            }
            if let Some(k) = l.find("//") {
                l = &l[..k];
            }
            if l.trim().is_empty() {
                continue;
            }
            let t = Text {
                s: l.to_string(),
                map: (start..start + l.len()).collect(),
            };
            out.push(self.query(&t, ""));
        }
        out
    }

    /// Parses one query text (offsets of `t` locate errors).
    pub fn query_text(&self, text: &str) -> Result<Query, Diagnostic> {
        let t = Text {
            s: text.to_string(),
            map: (0..text.len()).collect(),
        };
        self.query(&t, "")
    }

    fn query(&self, t: &Text, comment: &str) -> Result<Query, Diagnostic> {
        let s = t.s.trim_start();
        let lead = t.s.len() - s.len();
        let sub_text = |from: usize, to: usize| Text {
            s: t.s.get(from..to).unwrap_or("").to_string(),
            map: t.map.get(from..to).map(|m| m.to_vec()).unwrap_or_default(),
        };
        let (kind, body, target) = if let Some(r) = s.strip_prefix("E<>") {
            (QueryKind::Reach, r, None)
        } else if let Some(r) = s.strip_prefix("A[]") {
            (QueryKind::Invariant, r, None)
        } else if let Some(r) = s.strip_prefix("E[]") {
            (QueryKind::Globally, r, None)
        } else if let Some(r) = s.strip_prefix("A<>") {
            (QueryKind::Eventually, r, None)
        } else if let Some(k) = t.s.find("-->") {
            (QueryKind::LeadsTo, "", Some(k))
        } else {
            return Err(err(
                t.span(),
                "unsupported query (expected `E<> φ`, `A[] φ`, `E[] φ`, `A<> φ` or `φ --> ψ`)",
            ));
        };
        let (phi_text, psi_text) = match target {
            Some(k) => (sub_text(0, k), Some(sub_text(k + 3, t.s.len()))),
            None => {
                let skip = lead + (s.len() - body.len());
                (sub_text(skip, t.s.len()), None)
            }
        };
        let mut lw = Lower {
            model: self.model.clone(),
            chans: Vec::new(),
            scopes: vec![self.names.globals.clone()],
            frame: None,
            types: self.names.types.clone(),
            pending_inits: Vec::new(),
            raw: Vec::new(),
            expanded: 0,
            names: Some(self.names.clone()),
            ref_depth: 0,
        };
        let mut clock_atoms = Vec::new();
        let mut deadlock = false;
        let mut formulas = Vec::new();
        for sub in std::iter::once(&phi_text).chain(psi_text.as_ref()) {
            let mut p = parser_for(sub, &self.names.types)?;
            let e = p.expr()?;
            if !p.at_end() {
                return Err(p.unexpected("end of the query"));
            }
            let dl = contains_deadlock(&e);
            let f = fold(lw.query_formula(&e, &mut clock_atoms)?);
            if kind.is_liveness() && dl {
                return Err(err(
                    e.span(),
                    "`deadlock` in liveness queries (`E[]`, `A<>`, `-->`) is not supported yet",
                ));
            }
            deadlock |= dl;
            formulas.push(f);
        }
        let mut formulas = formulas.into_iter();
        let formula = formulas.next().unwrap_or(Expr::Const(0));
        Ok(Query {
            text: t.s.trim().to_string(),
            comment: comment.to_string(),
            kind,
            formula,
            target: formulas.next(),
            deadlock,
            clock_atoms,
        })
    }
}

fn contains_deadlock(e: &UExpr) -> bool {
    any_sub(e, &|x| matches!(x, UExpr::Deadlock(_)))
}

/// Whether `e` or one of its sub-expressions satisfies `pred`.
fn any_sub(e: &UExpr, pred: &dyn Fn(&UExpr) -> bool) -> bool {
    if pred(e) {
        return true;
    }
    match e {
        UExpr::Unary(_, x, _)
        | UExpr::Quant(_, _, _, x, _)
        | UExpr::Field(x, _, _)
        | UExpr::Step(_, x, _) => any_sub(x, pred),
        UExpr::Bin(_, a, b, _) | UExpr::Index(a, b, _) | UExpr::Assign(_, a, b, _) => {
            any_sub(a, pred) || any_sub(b, pred)
        }
        UExpr::Ite(a, b, c, _) => any_sub(a, pred) || any_sub(b, pred) || any_sub(c, pred),
        UExpr::Call(f, args, _) => any_sub(f, pred) || args.iter().any(|a| any_sub(a, pred)),
        _ => false,
    }
}

/// `target` with each step `v++`, `v--`, `++v`, `--v` that is an array index replaced by `v`,
/// the prefix steps collected in `pre` and the postfix ones in `post` (as `(increment, v, span)`).
fn hoist_steps(
    target: &UExpr,
    pre: &mut Vec<(bool, UExpr, Span)>,
    post: &mut Vec<(bool, UExpr, Span)>,
) -> UExpr {
    match target {
        UExpr::Index(base, idx, sp) => {
            let base = hoist_steps(base, pre, post);
            let idx = match &**idx {
                // postfix: the operand starts where the step does (prefix `++v` starts before it)
                UExpr::Step(inc, v, s) => {
                    let list = if s.start == v.span().start {
                        &mut *post
                    } else {
                        &mut *pre
                    };
                    list.push((*inc, (**v).clone(), *s));
                    (**v).clone()
                }
                other => other.clone(),
            };
            UExpr::Index(Box::new(base), Box::new(idx), *sp)
        }
        other => other.clone(),
    }
}

impl Query {
    /// The formula on a discrete state (locations, then integers), `deadlock` read as false.
    pub fn holds(&self, n_procs: usize, disc: &[i32]) -> bool {
        self.holds_with(n_procs, disc, false)
    }

    /// The formula on a discrete state with the truth value of `deadlock` given (clock
    /// constraints read as false).
    pub fn holds_with(&self, n_procs: usize, disc: &[i32], deadlock: bool) -> bool {
        self.holds_atoms(n_procs, disc, deadlock, 0)
    }

    /// The formula with the truth values of `deadlock` and of the clock constraints (bit `k` of
    /// `atoms` for constraint `k`) given.
    pub(crate) fn holds_atoms(
        &self,
        n_procs: usize,
        disc: &[i32],
        deadlock: bool,
        atoms: u32,
    ) -> bool {
        let (locs, ints) = disc.split_at(n_procs.min(disc.len()));
        eval_state(&self.formula, locs, ints, deadlock, atoms) == Ok(true)
    }

    /// `ψ` of `φ --> ψ` on a discrete state (false for other queries).
    pub fn target_holds(&self, n_procs: usize, disc: &[i32]) -> bool {
        self.target_holds_atoms(n_procs, disc, 0)
    }

    /// `ψ` of `φ --> ψ` with the truth values of the query's clock constraints given (bit `k`
    /// for constraint `k`; false for other queries).
    pub(crate) fn target_holds_atoms(&self, n_procs: usize, disc: &[i32], atoms: u32) -> bool {
        let (locs, ints) = disc.split_at(n_procs.min(disc.len()));
        self.target
            .as_ref()
            .is_some_and(|t| eval_state(t, locs, ints, false, atoms) == Ok(true))
    }

    /// `ψ` of `φ --> ψ` on a concrete configuration: discrete state and clock values (index 0
    /// is the zero clock).
    pub fn target_holds_at(
        &self,
        n_procs: usize,
        disc: &[i32],
        clocks: &[num_rational::BigRational],
    ) -> Result<bool, String> {
        Ok(self.target_holds_atoms(n_procs, disc, self.atom_bits(n_procs, disc, clocks)?))
    }

    /// The truth values of the clock constraints on a concrete configuration (bit `k` for
    /// constraint `k`).
    fn atom_bits(
        &self,
        n_procs: usize,
        disc: &[i32],
        clocks: &[num_rational::BigRational],
    ) -> Result<u32, String> {
        let ints = disc.get(n_procs.min(disc.len())..).unwrap_or_default();
        let mut bits = 0u32;
        for (k, a) in self.clock_atoms.iter().enumerate() {
            if crate::replay::atom_holds(a, ints, clocks)? {
                bits |= 1 << k;
            }
        }
        Ok(bits)
    }

    /// The formula on a concrete configuration: discrete state, whether it is a deadlock, and
    /// the clock values (index 0 is the zero clock), e.g. the end of a replayed trace.
    pub fn holds_at(
        &self,
        n_procs: usize,
        disc: &[i32],
        deadlock: bool,
        clocks: &[num_rational::BigRational],
    ) -> Result<bool, String> {
        let bits = self.atom_bits(n_procs, disc, clocks)?;
        Ok(self.holds_atoms(n_procs, disc, deadlock, bits))
    }

    /// The number of clock constraints in the formula.
    pub(crate) fn n_atoms(&self) -> usize {
        self.clock_atoms.len()
    }

    /// True if the formula mentions `deadlock`.
    pub fn mentions_deadlock(&self) -> bool {
        self.deadlock
    }
}

/// Evaluates a state formula on the frame of [`DEADLOCK_SLOT`], the clock constraints' truth
/// values and the locations (the formula is not copied: it is evaluated in every state).
fn eval_state(
    f: &Expr,
    locs: &[i32],
    ints: &[i32],
    deadlock: bool,
    atoms: u32,
) -> Result<bool, crate::model::EvalError> {
    let mut frame = Vec::with_capacity(LOC_SLOT as usize + locs.len());
    frame.push(i64::from(deadlock));
    frame.extend((0..MAX_QUERY_ATOMS).map(|k| i64::from(atoms >> k & 1)));
    frame.extend(locs.iter().map(|&l| i64::from(l)));
    Ok(f.eval_in_frame(ints, &frame)? != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_query;
    use crate::query::Options;
    use crate::replay::replay_state;
    use verikit_diag::Budget;

    /// Two processes, a function with a loop, a select, a binary channel array, a broadcast
    /// channel with a guarded receiver, a committed location and an urgent channel.
    const SMALL: &str = r#"<?xml version="1.0"?>
<nta>
<declaration>const int N = 2;
typedef int[0,N-1] id_t;
int[0,3] done = 0;
int hits[N];
chan go[N];
broadcast chan bc;
urgent chan u;
int sum_hits() { int s = 0; for (i : id_t) { s += hits[i]; } return s; }
</declaration>
<template><name>P</name><parameter>const id_t id</parameter>
<declaration>clock x;</declaration>
<location id="a"><name>idle</name><label kind="invariant">x &lt;= 5</label></location>
<location id="b"><name>busy</name></location>
<location id="c"><name>heard</name><committed/></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="select">k : id_t</label>
<label kind="guard">k == id &amp;&amp; x &gt;= 2</label><label kind="synchronisation">go[k]?</label>
<label kind="assignment">hits[id]++, x := 0</label></transition>
<transition><source ref="b"/><target ref="c"/><label kind="guard">id == 1</label><label kind="synchronisation">bc?</label></transition>
<transition><source ref="c"/><target ref="a"/><label kind="assignment">done = done + 1</label></transition>
</template>
<template><name>Ctl</name>
<location id="s"><name>start</name></location>
<location id="t"><name>mid</name></location>
<location id="e"><name>end</name></location>
<init ref="s"/>
<transition><source ref="s"/><target ref="t"/><label kind="synchronisation">go[0]!</label></transition>
<transition><source ref="t"/><target ref="e"/><label kind="guard">sum_hits() == 2</label><label kind="synchronisation">bc!</label></transition>
<transition><source ref="t"/><target ref="t"/><label kind="synchronisation">go[1]!</label></transition>
</template>
<system>system P, Ctl;</system>
<queries><query><formula>E&lt;&gt; Ctl.end &amp;&amp; P(1).heard</formula><comment>c</comment></query>
<query><formula>A[] done &lt;= 1</formula><comment></comment></query>
<query><formula>E&lt;&gt; P(0).heard</formula><comment></comment></query></queries>
</nta>"#;

    #[test]
    fn lowering_and_queries_on_a_small_model() {
        let um = parse_uppaal(SMALL).unwrap();
        assert_eq!(um.model.processes.len(), 3);
        assert_eq!(um.model.processes[0].name, "P(0)");
        let qs = um.embedded_queries();
        assert_eq!(qs.len(), 3);
        let budget = Budget::unlimited();
        let want = [Some(true), Some(true), Some(false)];
        for (q, w) in qs.into_iter().zip(want) {
            let q = q.unwrap();
            let r = check_query(&um, &q, Options::default(), &budget).unwrap();
            assert_eq!(r.satisfied, w, "{}", q.text);
            if let Some(tt) = &r.search.timed {
                let end = replay_state(&um.model, tt).unwrap();
                assert!(q.holds(3, &end), "{}: the trace ends where φ holds", q.text);
            }
        }
    }

    /// `P(1).f()` in a query calls process `P(1)`'s function on that process's variables (the
    /// gossip models' `Node(1).numSecrets()`); arguments are read in the query's scope.
    #[test]
    fn a_process_function_in_a_query() {
        let m = SMALL.replace(
            "<declaration>clock x;</declaration>",
            "<declaration>clock x; int[0,3] mine = 0;\nint plus(int k) { return mine + k + id; }</declaration>",
        )
        .replace("hits[id]++, x := 0", "hits[id]++, mine = 2, x := 0");
        let um = parse_uppaal(&m).unwrap();
        let budget = Budget::unlimited();
        for (text, want) in [
            ("E<> P(1).plus(0) == 3", true),
            ("E<> P(0).plus(N) == 4", true),
            ("A[] P(0).plus(0) <= 2 && P(1).plus(1) != 5", true),
            ("E<> P(1).busy && P(1).plus(0) == 1", false),
        ] {
            let q = um.query_text(text).unwrap();
            let r = check_query(&um, &q, Options::default(), &budget).unwrap();
            assert_eq!(r.satisfied, Some(want), "{text}");
            if let (Some(tt), QueryKind::Reach) = (&r.search.timed, q.kind) {
                let end = replay_state(&um.model, tt).unwrap();
                assert!(q.holds(3, &end), "{text}: the trace ends where φ holds");
            }
        }
        let e = um.query_text("E<> P(7).plus(0) == 1").unwrap_err();
        assert!(e.message.contains("not supported"), "{}", e.message);
        let e = um.query_text("E<> P(1).nope() == 1").unwrap_err();
        assert!(e.message.contains("not a function"), "{}", e.message);
    }

    /// `a[i++] = e` assigns `a[i]`, then steps `i` (train-gate's queue); `a[--i] = e` steps `i`,
    /// then assigns `a[i]` (scheduling3's queue pop). With `i` read again in the statement the
    /// order would matter, so that stays refused.
    #[test]
    fn a_step_in_an_assigned_index() {
        let with = |n0: i32, upd: &str| {
            SMALL
                .replace(
                    "int hits[N];",
                    &format!("int hits[N];\nint q[3];\nint[0,3] n = {n0};"),
                )
                .replace("done = done + 1</label>", &format!("{upd}</label>"))
        };
        let budget = Budget::unlimited();
        let cases = [
            (
                0,
                "q[n++] = 7",
                "q[n++] = n",
                "E<> q[0] == 7 && n == 1",
                true,
            ),
            (0, "q[n++] = 7", "", "E<> q[1] == 7", false),
            (0, "q[n++] = 7", "", "E<> q[0] == 7 && n == 0", false),
            (
                2,
                "q[--n] = 7",
                "q[--n] = n",
                "E<> q[1] == 7 && n == 1",
                true,
            ),
            (2, "q[--n] = 7", "", "E<> q[2] == 7", false),
            (2, "q[--n] = 7", "", "E<> q[1] == 7 && n == 2", false),
        ];
        for (n0, upd, refused, text, want) in cases {
            let um = parse_uppaal(&with(n0, upd)).unwrap();
            let q = um.query_text(text).unwrap();
            let r = check_query(&um, &q, Options::default(), &budget).unwrap();
            assert_eq!(r.satisfied, Some(want), "{text}");
            if let Some(tt) = &r.search.timed {
                let end = replay_state(&um.model, tt).unwrap();
                assert!(q.holds(3, &end), "{text}: the trace ends where φ holds");
            }
            if !refused.is_empty() {
                let e = parse_uppaal(&with(n0, refused)).unwrap_err();
                let m = &e.message;
                assert!(m.contains("assignments inside expressions"), "{m}");
            }
        }
        // a location label for UPPAAL's test generator is no part of the semantics
        let xml = with(2, "q[--n] = 7").replacen(
            "</location>",
            "<label kind=\"testcodeEnter\">expect();</label></location>",
            1,
        );
        assert!(parse_uppaal(&xml).is_ok());
    }

    /// A channel array indexed by variables: the sender's `c[a][b]!` is one edge whose event is
    /// computed from the state, the receiver's `select k` gives one edge per `k`, each with the
    /// event of `c[k][2]`; only `c[1][2]` matches the sender's indices.
    #[test]
    fn a_channel_array_indexed_by_variables() {
        let xml = r#"<nta><declaration>chan c[3][3]; int[0,2] a = 1; int[0,2] b = 2; int[0,2] got = 0;</declaration>
<template><name>S</name><location id="s0"><name>s0</name></location><location id="s1"><name>s1</name></location><init ref="s0"/>
<transition><source ref="s0"/><target ref="s1"/><label kind="synchronisation">c[a][b]!</label></transition></template>
<template><name>R</name><location id="r0"><name>r0</name></location><location id="r1"><name>r1</name></location><init ref="r0"/>
<transition><source ref="r0"/><target ref="r1"/><label kind="select">k : int[0,2]</label><label kind="synchronisation">c[k][2]?</label><label kind="assignment">got = k</label></transition></template>
<system>system S, R;</system></nta>"#;
        let um = parse_uppaal(xml).unwrap();
        let sender = &um.model.processes[0].edges[0];
        assert_eq!(sender.events().len(), 9, "one edge for the nine elements");
        let budget = Budget::unlimited();
        for (text, want) in [
            ("E<> R.r1 && got == 1", true),
            ("E<> got == 2", false),
            ("E<> S.s1 && R.r0", false),
            ("E<> deadlock && S.s1", true),
        ] {
            let q = um.query_text(text).unwrap();
            let r = check_query(&um, &q, Options::default(), &budget).unwrap();
            assert_eq!(r.satisfied, Some(want), "{text}");
            if let Some(tt) = &r.search.timed {
                // the checker decides deadlock at the end of the trace itself
                let end = crate::replay::replay_end(&um.model, tt).unwrap();
                let holds = q.holds_at(2, &end.state, end.deadlocked, &end.clocks);
                assert_eq!(holds, Ok(true), "{text}");
            }
        }
        // the witness names the element the sender's state selects (c[1][2], flattened as the
        // receiver's edge names it), not the expression
        let q = um.query_text("E<> R.r1 && got == 1").unwrap();
        let r = check_query(&um, &q, Options::default(), &budget).unwrap();
        let a = crate::check::query_answer(&um, &q, &r).to_json();
        let moves = a["witness"]["timed"][0]["move"].to_string();
        assert_eq!(moves, r#"["S:s0->s1:c[5]!","R:r0->r1:c[5]?"]"#);
        let symbolic = a["witness"]["symbolic"][1]["move"].to_string();
        assert_eq!(symbolic, moves);
        // TChecker's format gets one edge per element, guarded by the index
        let tck = crate::tck_write::to_tck(&um.model).unwrap();
        let back = crate::tck::parse_tck(&tck).unwrap();
        assert_eq!(back.processes[0].edges.len(), 9);
        assert!(back.processes[0].edges.iter().all(|e| e.lazy.is_none()));
    }

    /// Records and scalar sets: nested structs, an array of structs indexed by a variable,
    /// initialiser lists, whole-struct assignment, reference and value struct parameters, a
    /// chained assignment, and a `scalar` chosen by `select`.
    const STRUCTS: &str = r#"<?xml version="1.0"?>
<nta>
<declaration>typedef struct { int[0,3] a; bool b; } T;
typedef struct { T inner; int[0,5] arr[2]; } U;
typedef scalar[3] S;
T g = {2, true};
T ts[2];
U u;
S who;
int[0,1] k = 1;
void setT(T &amp;t, int[0,3] v) { t.a = v; t.b = !t.b; }
int[0,3] geta(T t) { return t.a; }
bool same(const T &amp;x, const T &amp;y) { return x.a == y.a &amp;&amp; x.b == y.b; }
void chain(T &amp;t) { t.a = u.arr[1] = 3; }
</declaration>
<template><name>P</name>
<location id="l0"><name>l0</name></location>
<location id="l1"><name>l1</name></location>
<location id="l2"><name>l2</name></location>
<location id="l3"><name>l3</name></location>
<location id="l4"><name>l4</name></location>
<init ref="l0"/>
<transition><source ref="l0"/><target ref="l1"/><label kind="assignment">setT(ts[1], 3)</label></transition>
<transition><source ref="l1"/><target ref="l2"/><label kind="assignment">ts[0] = ts[1], u.inner = g</label></transition>
<transition><source ref="l2"/><target ref="l3"/><label kind="select">s : S</label>
<label kind="guard">same(ts[0], ts[1]) &amp;&amp; geta(u.inner) == 2</label>
<label kind="assignment">chain(g), who = s</label></transition>
<transition><source ref="l3"/><target ref="l4"/><label kind="assignment">ts[k].a = 1, ts[k].b = false</label></transition>
</template>
<system>system P;</system>
</nta>"#;

    #[test]
    fn structs_and_scalars() {
        let um = parse_uppaal(STRUCTS).unwrap();
        let names: Vec<&str> = um.model.ints.iter().map(|v| v.name.as_str()).collect();
        assert!(
            names.contains(&"ts[1].a") && names.contains(&"u.inner.b"),
            "{names:?}"
        );
        assert!(names.contains(&"u.arr[1]"), "{names:?}");
        let budget = Budget::unlimited();
        for (text, want) in [
            ("E<> P.l4", true),
            ("A[] (P.l1 imply ts[1].a == 3 && ts[1].b)", true),
            (
                "E<> P.l2 && ts[0].a == 3 && ts[0].b && u.inner.a == 2 && u.inner.b",
                true,
            ),
            (
                "A[] (P.l3 imply g.a == 3 && u.arr[1] == 3 && u.arr[0] == 0 && g.b)",
                true,
            ),
            ("E<> P.l3 && who == 2", true),
            ("E<> P.l3 && who == 0", true),
            ("E<> who == 3", false),
            (
                "E<> P.l4 && ts[1].a == 1 && !ts[1].b && ts[0].a == 3 && ts[0].b",
                true,
            ),
            ("E<> P.l4 && ts[1].a != 1", false),
            ("E<> P.l0 && (g.a != 2 || !g.b || ts[0].a != 0)", false),
        ] {
            let q = um.query_text(text).unwrap();
            let r = check_query(&um, &q, Options::default(), &budget).unwrap();
            assert_eq!(r.satisfied, Some(want), "{text}");
            if let (Some(tt), QueryKind::Reach) = (&r.search.timed, q.kind) {
                let end = replay_state(&um.model, tt).unwrap();
                assert!(q.holds(1, &end), "{text}: the trace ends where φ holds");
            }
        }
        for (from, to, msg) in [
            ("setT(ts[1], 3)", "setT(ts[k], 3)", "indexed by variables"),
            ("ts[0] = ts[1]", "ts[0] = u", "different types"),
            ("ts[0] = ts[1]", "ts[0] = 1", "non-struct"),
            ("ts[0] = ts[1]", "g.a = g + 1", "used as a value"),
            ("ts[0] = ts[1]", "g.c = 1", "no field `c`"),
            ("ts[0] = ts[1]", "ts.a = 1", "index it before"),
            ("ts[0] = ts[1]", "k.a = 1", "not a struct"),
        ] {
            let bad = STRUCTS.replace(from, to);
            let e = parse_uppaal(&bad).unwrap_err();
            assert!(e.message.contains(msg), "{to}: {}", e.message);
            assert!(e.span.is_some());
        }
        let e = parse_uppaal(&STRUCTS.replace("scalar[3]", "scalar[0]")).unwrap_err();
        assert!(e.message.contains("positive size"), "{}", e.message);
    }

    #[test]
    fn refusals_are_located_and_named() {
        let bad = SMALL.replace("int hits[N];", "double d;");
        let e = parse_uppaal(&bad).unwrap_err();
        assert!(e.message.contains("double"), "{}", e.message);
        assert!(e.span.is_some());
        let bad = SMALL.replace("x &lt;= 5", "x &lt;= 5 || done == 1");
        let e = parse_uppaal(&bad).unwrap_err();
        assert!(e.message.contains("conjunctions"), "{}", e.message);
        let um = parse_uppaal(SMALL).unwrap();
        assert!(um.query_text("E[] Ctl.end").is_ok());
        assert!(um.query_text("E[] deadlock").is_err());
        assert!(um.query_text("E<> Ctl.nowhere").is_err());
    }

    #[test]
    fn parser_is_total() {
        verikit_testkit::assert_parser_total(&[SMALL, STRUCTS], 1000, |s| {
            parse_uppaal(s).map(|um| um.embedded_queries().len())
        });
    }

    #[test]
    fn query_parser_is_total() {
        let um = parse_uppaal(SMALL).unwrap();
        verikit_testkit::assert_parser_total(
            &[
                "E[] Ctl.end",
                "A<> done == 1",
                "P(1).heard --> Ctl.end && done >= 1",
                "E<> Ctl.end && P(0).x > 2",
            ],
            1000,
            |s| um.query_text(s).map(|q| q.kind.is_liveness()),
        );
    }
}
