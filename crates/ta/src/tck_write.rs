//! Writers for a lowered network ([`Model`]): TChecker's text format (`.tck`, the same
//! declarations `tck` reads, so that `verikit ta convert --to tck` turns an UPPAAL model into a
//! TChecker model with the same processes, locations, edges, variables and synchronisation vectors
//! in the same order) and Graphviz DOT (one cluster per process).
//!
//! What TChecker's format cannot say is refused by name, located at the construct in the source
//! model: user functions, urgent channels, broadcast receivers with guards (TChecker's weak
//! synchronisation ignores them), UPPAAL's bitwise, min/max and conditional operators, and integer
//! arrays whose elements differ in range or initial value (a `.tck` array has one of each).
//!
//! Seed: SETTA'17 Schivo et al., "How to efficiently build a front-end tool for UPPAAL" (S19),
//! §3: a front end exports the user's model to the checker's input language, keeping the user's
//! names so that traces map back; TChecker's `doc/file-format.md` for the target syntax.

use crate::expr::BinOp;
use crate::model::{ClockRef, Cmp, Expr, Guard, IntLv, Model, Stmt, VarBlock};
use rustc_hash::FxHashSet;
use std::fmt::Write;
use verikit_diag::{Diagnostic, Span};

/// An identifier TChecker accepts, made from `s` (other characters become `_`).
fn sanitize(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    out
}

/// Unique sanitized names, in order.
fn unique_names<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut seen = FxHashSet::default();
    names
        .map(|n| {
            let base = sanitize(n);
            let mut name = base.clone();
            let mut k = 1;
            while !seen.insert(name.clone()) {
                name = format!("{base}_{k}");
                k += 1;
            }
            name
        })
        .collect()
}

/// The names of a network in the written text, and whether unsupported constructs are refused
/// (`.tck`) or written in UPPAAL's syntax (DOT).
struct Writer<'m> {
    model: &'m Model,
    ints: Vec<String>,
    clocks: Vec<String>,
    strict: bool,
}

fn refuse(span: Span, what: &str) -> Diagnostic {
    Diagnostic::at(
        span,
        format!("{what} cannot be written in TChecker's format: not converted"),
    )
}

/// The block holding element `k` (`first` the index of element 0), its name and offset.
fn block_of(blocks: &[VarBlock], names: &[String], k: u32) -> Option<(String, u32, u32)> {
    blocks
        .iter()
        .zip(names)
        .find(|(b, _)| b.first <= k && k < b.first + b.size)
        .map(|(b, n)| (n.clone(), k - b.first, b.size))
}

impl Writer<'_> {
    fn var(
        &self,
        blocks: &[VarBlock],
        names: &[String],
        k: u32,
        span: Span,
    ) -> Result<String, Diagnostic> {
        match block_of(blocks, names, k) {
            Some((n, _, 1)) => Ok(n),
            Some((n, off, _)) => Ok(format!("{n}[{off}]")),
            None => Err(refuse(span, "a variable outside every declared block")),
        }
    }

    fn array(
        &self,
        blocks: &[VarBlock],
        names: &[String],
        first: u32,
        index: &Expr,
        span: Span,
    ) -> Result<String, Diagnostic> {
        match block_of(blocks, names, first) {
            Some((n, 0, _)) => Ok(format!("{n}[{}]", self.expr(index, span)?)),
            _ => Err(refuse(span, "an array access inside an array element")),
        }
    }

    fn int_var(&self, k: u32, span: Span) -> Result<String, Diagnostic> {
        self.var(&self.model.int_blocks, &self.ints, k, span)
    }

    fn clock(&self, c: &ClockRef, span: Span) -> Result<String, Diagnostic> {
        let blocks = &self.model.clock_blocks;
        match &c.index {
            None => self.var(blocks, &self.clocks, c.first, span),
            Some(i) => self.array(blocks, &self.clocks, c.first, i, span),
        }
    }

    fn lvalue(&self, lv: &IntLv, span: Span) -> Result<String, Diagnostic> {
        match &lv.index {
            None => self.int_var(lv.first, span),
            Some(i) => self.array(&self.model.int_blocks, &self.ints, lv.first, i, span),
        }
    }

    /// UPPAAL-only syntax: refused for `.tck`, written as is for DOT.
    fn uppaal_only(&self, span: Span, what: &str, text: String) -> Result<String, Diagnostic> {
        if self.strict {
            Err(refuse(span, what))
        } else {
            Ok(text)
        }
    }

    fn expr(&self, e: &Expr, span: Span) -> Result<String, Diagnostic> {
        Ok(match e {
            Expr::Const(c) if *c < 0 => format!("(-{})", c.unsigned_abs()),
            Expr::Const(c) => c.to_string(),
            Expr::Var(k) => self.int_var(*k, span)?,
            Expr::Elem { first, index, .. } => {
                self.array(&self.model.int_blocks, &self.ints, *first, index, span)?
            }
            Expr::Neg(x) => format!("(-{})", self.expr(x, span)?),
            Expr::Not(x) => format!("!({})", self.expr(x, span)?),
            Expr::Bin(op, a, b) => {
                let (a, b) = (self.expr(a, span)?, self.expr(b, span)?);
                let text = format!("({a} {} {b})", op.text());
                match op {
                    BinOp::BitAnd
                    | BinOp::BitOr
                    | BinOp::BitXor
                    | BinOp::Shl
                    | BinOp::Shr
                    | BinOp::Min
                    | BinOp::Max => {
                        self.uppaal_only(span, &format!("UPPAAL's operator `{}`", op.text()), text)?
                    }
                    _ => text,
                }
            }
            Expr::BitNot(x) => {
                let t = format!("~({})", self.expr(x, span)?);
                self.uppaal_only(span, "UPPAAL's operator `~`", t)?
            }
            Expr::Ite(c, a, b) => {
                let t = format!(
                    "({} ? {} : {})",
                    self.expr(c, span)?,
                    self.expr(a, span)?,
                    self.expr(b, span)?
                );
                self.uppaal_only(span, "the conditional operator `c ? a : b`", t)?
            }
            Expr::Call(f, args) => {
                let args: Result<Vec<_>, _> = args.iter().map(|a| self.expr(a, span)).collect();
                let t = format!("{}({})", f.name, args?.join(", "));
                self.uppaal_only(span, &format!("a call of the function `{}`", f.name), t)?
            }
            Expr::Local(_) | Expr::LocalElem { .. } => {
                self.uppaal_only(span, "a function's local variable", "local".into())?
            }
        })
    }

    fn guard(&self, g: &Guard, span: Span) -> Result<Vec<String>, Diagnostic> {
        let mut out = Vec::new();
        for e in &g.ints {
            out.push(self.expr(e, span)?);
        }
        for a in &g.clocks {
            let mut lhs = self.clock(&a.x, span)?;
            if let Some(y) = &a.y {
                lhs = format!("{lhs}-{}", self.clock(y, span)?);
            }
            let op = match a.cmp {
                Cmp::Lt => "<",
                Cmp::Le => "<=",
                Cmp::Eq => "==",
                Cmp::Ge => ">=",
                Cmp::Gt => ">",
            };
            out.push(format!("{lhs}{op}{}", self.expr(&a.bound, span)?));
        }
        Ok(out)
    }

    fn stmts(&self, ss: &[Stmt], span: Span) -> Result<Vec<String>, Diagnostic> {
        let mut out = Vec::new();
        for s in ss {
            out.push(match s {
                Stmt::Nop => "nop".into(),
                Stmt::Int(lv, e) => format!("{}={}", self.lvalue(lv, span)?, self.expr(e, span)?),
                Stmt::Clock(c, e) => format!("{}={}", self.clock(c, span)?, self.expr(e, span)?),
                Stmt::If(c, a, b) => {
                    let (a, b) = (self.stmts(a, span)?, self.stmts(b, span)?);
                    let c = self.expr(c, span)?;
                    let a = if a.is_empty() {
                        "nop".into()
                    } else {
                        a.join("; ")
                    };
                    if b.is_empty() {
                        format!("if {c} then {a} end")
                    } else {
                        format!("if {c} then {a} else {} end", b.join("; "))
                    }
                }
                Stmt::While(c, body) => {
                    let body = self.stmts(body, span)?;
                    let body = if body.is_empty() {
                        "nop".into()
                    } else {
                        body.join("; ")
                    };
                    format!("while {} do {body} end", self.expr(c, span)?)
                }
                Stmt::Eval(e) => self.expr(e, span)?,
                Stmt::Local { .. } | Stmt::Return(_) => {
                    self.uppaal_only(span, "a function body statement", "…".into())?
                }
            });
        }
        Ok(out)
    }
}

fn writer(model: &Model, strict: bool) -> Writer<'_> {
    Writer {
        model,
        ints: unique_names(model.int_blocks.iter().map(|b| b.name.as_str())),
        clocks: unique_names(model.clock_blocks.iter().map(|b| b.name.as_str())),
        strict,
    }
}

/// The network in TChecker's text format, or the first construct that format cannot express.
pub fn to_tck(model: &Model) -> Result<String, Diagnostic> {
    // TChecker's edges have fixed events: one per channel-array element
    let expanded = model.expand_lazy();
    let model: &Model = &expanded;
    let w = writer(model, true);
    let procs = unique_names(model.processes.iter().map(|p| p.name.as_str()));
    let events = unique_names(model.events.iter().map(String::as_str));
    let labels = unique_names(model.labels.iter().map(String::as_str));
    let mut out = String::new();
    let sys = if model.name.is_empty() {
        "converted"
    } else {
        &model.name
    };
    let _ = writeln!(out, "system:{}\n", sanitize(sys));
    for e in &events {
        let _ = writeln!(out, "event:{e}");
    }
    for (b, name) in model.clock_blocks.iter().zip(&w.clocks) {
        let _ = writeln!(out, "clock:{}:{name}", b.size);
    }
    for (b, name) in model.int_blocks.iter().zip(&w.ints) {
        let elems = model
            .ints
            .get(b.first as usize..(b.first + b.size) as usize)
            .unwrap_or(&[]);
        let Some(v) = elems.first() else {
            return Err(refuse(b.span, "an empty integer block"));
        };
        if elems
            .iter()
            .any(|x| (x.min, x.max, x.init) != (v.min, v.max, v.init))
        {
            return Err(refuse(
                b.span,
                &format!(
                    "the array `{}` (its elements differ in range or initial value)",
                    b.name
                ),
            ));
        }
        let _ = writeln!(out, "int:{}:{}:{}:{}:{name}", b.size, v.min, v.max, v.init);
    }
    for (p, pn) in model.processes.iter().zip(&procs) {
        let _ = writeln!(out, "\nprocess:{pn}");
        let locs = unique_names(p.locations.iter().map(|l| l.name.as_str()));
        for (l, ln) in p.locations.iter().zip(&locs) {
            let mut attrs = Vec::new();
            if l.initial {
                attrs.push("initial:".to_string());
            }
            if l.committed {
                attrs.push("committed:".to_string());
            }
            if l.urgent {
                attrs.push("urgent:".to_string());
            }
            let inv = w.guard(&l.invariant, l.span)?;
            if !inv.is_empty() {
                attrs.push(format!("invariant:{}", inv.join(" && ")));
            }
            let labs: Vec<&str> = l
                .labels
                .iter()
                .filter_map(|&k| labels.get(k as usize).map(String::as_str))
                .collect();
            if !labs.is_empty() {
                attrs.push(format!("labels:{}", labs.join(",")));
            }
            let _ = writeln!(out, "location:{pn}:{ln}{{{}}}", attrs.join(" : "));
        }
        for e in &p.edges {
            let name = |l: u32| locs.get(l as usize).map_or("?", String::as_str);
            let ev = events.get(e.event as usize).map_or("?", String::as_str);
            let mut attrs = Vec::new();
            let g = w.guard(&e.guard, e.span)?;
            if !g.is_empty() {
                attrs.push(format!("provided:{}", g.join(" && ")));
            }
            let s = w.stmts(&e.stmts, e.span)?;
            if !s.is_empty() {
                attrs.push(format!("do:{}", s.join("; ")));
            }
            let _ = writeln!(
                out,
                "edge:{pn}:{}:{}:{ev}{{{}}}",
                name(e.src),
                name(e.tgt),
                attrs.join(" : ")
            );
        }
    }
    if !model.syncs.is_empty() {
        out.push('\n');
    }
    for s in &model.syncs {
        if s.urgent {
            let at = s
                .parts
                .first()
                .map_or(s.span, |&(p, e, _)| edge_span(model, p, e, s.span));
            return Err(refuse(at, "an urgent channel"));
        }
        let mut parts = Vec::new();
        for &(p, e, weak) in &s.parts {
            if weak && s.broadcast && receiver_guarded(model, p, e) {
                let at = edge_span(model, p, e, s.span);
                return Err(refuse(at, "a guarded broadcast receiver"));
            }
            let pn = procs.get(p as usize).map_or("?", String::as_str);
            let ev = events.get(e as usize).map_or("?", String::as_str);
            parts.push(format!("{pn}@{ev}{}", if weak { "?" } else { "" }));
        }
        let _ = writeln!(out, "sync:{}", parts.join(":"));
    }
    Ok(out)
}

/// Where the first edge of process `p` with event `e` is (else `or`).
fn edge_span(model: &Model, p: u32, e: u32, or: Span) -> Span {
    model
        .processes
        .get(p as usize)
        .and_then(|pr| pr.edges.iter().find(|x| x.event == e))
        .map_or(or, |x| x.span)
}

/// Some edge of process `p` with event `e` has a guard.
fn receiver_guarded(model: &Model, p: u32, e: u32) -> bool {
    model.processes.get(p as usize).is_some_and(|pr| {
        pr.edges
            .iter()
            .any(|x| x.event == e && (!x.guard.ints.is_empty() || !x.guard.clocks.is_empty()))
    })
}

fn dot_quote(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The network as one Graphviz digraph, a cluster per process: locations (initial ones bold,
/// committed `C`, urgent `U`, invariants under the name), edges labelled with event, guard and
/// updates in TChecker's syntax (UPPAAL's where TChecker has none).
pub fn to_dot(model: &Model) -> Result<String, Diagnostic> {
    let expanded = model.expand_lazy();
    let model: &Model = &expanded;
    let w = writer(model, false);
    let mut out = String::from("digraph network {\n  node [shape=ellipse];\n");
    for (pi, p) in model.processes.iter().enumerate() {
        let _ = writeln!(
            out,
            "  subgraph cluster_{pi} {{\n    label=\"{}\";",
            dot_quote(&p.name)
        );
        for (li, l) in p.locations.iter().enumerate() {
            let mut label = l.name.clone();
            if l.committed {
                label.push_str(" (C)");
            }
            if l.urgent {
                label.push_str(" (U)");
            }
            let mut label = dot_quote(&label);
            let inv = w.guard(&l.invariant, l.span)?;
            if !inv.is_empty() {
                label = format!("{label}\\n{}", dot_quote(&inv.join(" && ")));
            }
            let style = if l.initial { ", style=bold" } else { "" };
            let _ = writeln!(out, "    p{pi}_{li} [label=\"{label}\"{style}];");
        }
        for e in &p.edges {
            let mut parts = vec![model
                .events
                .get(e.event as usize)
                .cloned()
                .unwrap_or_default()];
            let g = w.guard(&e.guard, e.span)?;
            if !g.is_empty() {
                parts.push(g.join(" && "));
            }
            let s = w.stmts(&e.stmts, e.span)?;
            if !s.is_empty() {
                parts.push(s.join("; "));
            }
            let label: Vec<String> = parts.iter().map(|t| dot_quote(t)).collect();
            let _ = writeln!(
                out,
                "    p{pi}_{} -> p{pi}_{} [label=\"{}\"];",
                e.src,
                e.tgt,
                label.join("\\n")
            );
        }
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    Ok(out)
}
