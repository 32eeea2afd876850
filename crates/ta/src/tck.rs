//! Reader for TChecker's text format (`.tck`), as documented in ticktac-project/tchecker
//! `doc/file-format.md`: one declaration per line (`system`, `event`, `process`, `clock:N:x`,
//! `int:N:min:max:init:x`, `location:P:l{attrs}`, `edge:P:src:tgt:e{attrs}`,
//! `sync:P@e:Q@f?`), `#` comments, attributes `{key:value : key:value}`.
//!
//! Two deliberate extensions over TChecker, both found in the shared TickTac models that TChecker
//! itself rejects: `:=` is read as `=` inside a `do` attribute, and a system name may contain `-`.
//! Errors are [`Diagnostic`]s located at the offending declaration, field or expression.

use crate::expr::{self, Ast, BinOp, StmtAst};
use crate::model::{
    ClockAtom, ClockRef, Cmp, Edge, Expr, Guard, IntLv, IntVar, Location, Model, Process, Stmt,
    Sync, VarBlock,
};
use rustc_hash::FxHashMap;
use verikit_diag::{Diagnostic, Span};

/// Upper limit on declared array sizes and on the total number of clocks / integers.
const MAX_VARS: i64 = 1 << 16;

/// One `:`-separated field of a declaration head.
#[derive(Clone, Debug)]
struct Field<'a> {
    text: &'a str,
    span: Span,
}

/// An attribute `key:value` (value text with its offset).
#[derive(Clone, Debug)]
struct Attr<'a> {
    key: Field<'a>,
    value: Field<'a>,
}

/// Splits `s` (starting at byte `base`) at each `sep` outside a `:=`, trimming the pieces.
fn split_fields(s: &str, base: usize, allow_assign: bool) -> Vec<Field<'_>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    for i in 0..=b.len() {
        let at_sep = i < b.len() && b[i] == b':' && !(allow_assign && b.get(i + 1) == Some(&b'='));
        if i == b.len() || at_sep {
            let piece = &s[start..i];
            let lead = piece.len() - piece.trim_start().len();
            let t = piece.trim();
            out.push(Field {
                text: t,
                span: Span::new(base + start + lead, base + start + lead + t.len()),
            });
            start = i + 1;
        }
    }
    out
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch.is_ascii_alphabetic() || ch == '_')
        && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '.')
}

fn ident<'a>(f: &Field<'a>, what: &str) -> Result<&'a str, Diagnostic> {
    if is_ident(f.text) {
        Ok(f.text)
    } else if f.text.is_empty() {
        Err(Diagnostic::at(f.span, format!("missing {what}")))
    } else {
        Err(Diagnostic::at(
            f.span,
            format!("invalid {what} `{}` (expected an identifier)", f.text),
        ))
    }
}

fn integer(f: &Field<'_>, what: &str) -> Result<i64, Diagnostic> {
    f.text
        .parse::<i64>()
        .map_err(|_| Diagnostic::at(f.span, format!("invalid {what} `{}`", f.text)))
}

/// Which of a name's declarations a symbol refers to.
#[derive(Clone, Copy, Debug)]
enum Sym {
    Clock(usize),
    Int(usize),
}

struct Builder {
    model: Model,
    symbols: FxHashMap<String, Sym>,
    events: FxHashMap<String, u32>,
    procs: FxHashMap<String, u32>,
    locs: Vec<FxHashMap<String, u32>>,
    labels: FxHashMap<String, u32>,
    has_system: bool,
}

/// Parses a `.tck` text into a [`Model`].
pub fn parse_tck(text: &str) -> Result<Model, Diagnostic> {
    let mut b = Builder {
        model: Model::default(),
        symbols: FxHashMap::default(),
        events: FxHashMap::default(),
        procs: FxHashMap::default(),
        locs: Vec::new(),
        labels: FxHashMap::default(),
        has_system: false,
    };
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let line_start = offset;
        offset += raw.len();
        let line = match raw.find('#') {
            Some(i) => &raw[..i],
            None => raw,
        };
        let line = line.trim_end();
        let lead = line.len() - line.trim_start().len();
        let line = line.trim_start();
        if line.is_empty() {
            continue;
        }
        b.declaration(line, line_start + lead)?;
    }
    if !b.has_system {
        return Err(Diagnostic::at(
            Span::point(0),
            "missing `system:` declaration",
        ));
    }
    b.finish()
}

impl Builder {
    fn declaration(&mut self, line: &str, base: usize) -> Result<(), Diagnostic> {
        // head{attrs}
        let (head, attrs_part) = match line.find('{') {
            Some(i) => {
                let rest = &line[i + 1..];
                let Some(rest) = rest.strip_suffix('}') else {
                    return Err(Diagnostic::at(
                        Span::new(base + i, base + line.len()),
                        "expected `}` at the end of the attribute list",
                    ));
                };
                if rest.contains('{') || rest.contains('}') {
                    return Err(Diagnostic::at(
                        Span::new(base + i, base + line.len()),
                        "unbalanced braces in the attribute list",
                    ));
                }
                (&line[..i], Some((rest, base + i + 1)))
            }
            None => (line, None),
        };
        let fields = split_fields(head, base, false);
        let attrs = match attrs_part {
            Some((a, abase)) => parse_attrs(a, abase)?,
            None => Vec::new(),
        };
        let kw = &fields[0];
        let want = |n: usize, form: &str| -> Result<(), Diagnostic> {
            if fields.len() == n {
                Ok(())
            } else {
                Err(Diagnostic::at(
                    Span::new(base, base + head.len()),
                    format!("`{}` declaration expects the form `{form}`", kw.text),
                ))
            }
        };
        if !self.has_system && kw.text != "system" {
            return Err(Diagnostic::at(
                kw.span,
                "the first declaration must be `system:NAME`",
            ));
        }
        match kw.text {
            "system" => {
                want(2, "system:NAME")?;
                if self.has_system {
                    return Err(Diagnostic::at(kw.span, "second `system` declaration"));
                }
                let n = &fields[1];
                if n.text.is_empty()
                    || !n
                        .text
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
                {
                    return Err(Diagnostic::at(n.span, "invalid system name"));
                }
                self.model.name = n.text.to_string();
                self.has_system = true;
            }
            "event" => {
                want(2, "event:NAME")?;
                let n = ident(&fields[1], "event name")?;
                if self.events.contains_key(n) {
                    return Err(Diagnostic::at(
                        fields[1].span,
                        format!("event `{n}` declared twice"),
                    ));
                }
                self.events
                    .insert(n.to_string(), self.model.events.len() as u32);
                self.model.events.push(n.to_string());
            }
            "process" => {
                want(2, "process:NAME")?;
                let n = ident(&fields[1], "process name")?;
                if self.procs.contains_key(n) {
                    return Err(Diagnostic::at(
                        fields[1].span,
                        format!("process `{n}` declared twice"),
                    ));
                }
                self.procs
                    .insert(n.to_string(), self.model.processes.len() as u32);
                self.model.processes.push(Process {
                    name: n.to_string(),
                    locations: Vec::new(),
                    edges: Vec::new(),
                    out: Vec::new(),
                });
                self.locs.push(FxHashMap::default());
            }
            "clock" => {
                want(3, "clock:SIZE:NAME")?;
                let size = integer(&fields[1], "clock array size")?;
                let n = ident(&fields[2], "clock name")?;
                self.check_fresh(n, fields[2].span)?;
                if !(1..=MAX_VARS).contains(&size)
                    || self.model.clocks.len() as i64 + size > MAX_VARS
                {
                    return Err(Diagnostic::at(fields[1].span, "invalid clock array size"));
                }
                let first = self.model.clocks.len() as u32 + 1;
                for k in 0..size {
                    self.model.clocks.push(if size == 1 {
                        n.to_string()
                    } else {
                        format!("{n}[{k}]")
                    });
                }
                self.symbols
                    .insert(n.to_string(), Sym::Clock(self.model.clock_blocks.len()));
                self.model.clock_blocks.push(VarBlock {
                    name: n.to_string(),
                    first,
                    size: size as u32,
                    span: fields[2].span,
                });
            }
            "int" => {
                want(6, "int:SIZE:MIN:MAX:INIT:NAME")?;
                let size = integer(&fields[1], "int array size")?;
                let min = integer(&fields[2], "minimum")?;
                let max = integer(&fields[3], "maximum")?;
                let init = integer(&fields[4], "initial value")?;
                let n = ident(&fields[5], "variable name")?;
                self.check_fresh(n, fields[5].span)?;
                if !(1..=MAX_VARS).contains(&size) || self.model.ints.len() as i64 + size > MAX_VARS
                {
                    return Err(Diagnostic::at(fields[1].span, "invalid int array size"));
                }
                let lim = i64::from(i32::MAX);
                if min < -lim || max > lim || min > max {
                    return Err(Diagnostic::at(
                        fields[2].span.join(fields[3].span),
                        "invalid range (need MIN <= MAX within 32-bit integers)",
                    ));
                }
                if init < min || init > max {
                    return Err(Diagnostic::at(
                        fields[4].span,
                        "initial value outside the declared range",
                    ));
                }
                let first = self.model.ints.len() as u32;
                for k in 0..size {
                    self.model.ints.push(IntVar {
                        name: if size == 1 {
                            n.to_string()
                        } else {
                            format!("{n}[{k}]")
                        },
                        min: min as i32,
                        max: max as i32,
                        init: init as i32,
                    });
                }
                self.symbols
                    .insert(n.to_string(), Sym::Int(self.model.int_blocks.len()));
                self.model.int_blocks.push(VarBlock {
                    name: n.to_string(),
                    first,
                    size: size as u32,
                    span: fields[5].span,
                });
            }
            "location" => {
                want(3, "location:PROCESS:NAME")?;
                let p = self.process(&fields[1])?;
                let n = ident(&fields[2], "location name")?;
                let pi = p as usize;
                if self.locs[pi].contains_key(n) {
                    return Err(Diagnostic::at(
                        fields[2].span,
                        format!("location `{n}` declared twice"),
                    ));
                }
                let mut loc = Location {
                    name: n.to_string(),
                    initial: false,
                    committed: false,
                    urgent: false,
                    labels: Vec::new(),
                    invariant: Guard::default(),
                    span: Span::new(base, base + line.len()),
                };
                for a in &attrs {
                    match a.key.text {
                        "initial" => loc.initial = true,
                        "committed" => loc.committed = true,
                        "urgent" => loc.urgent = true,
                        "invariant" => {
                            let g = self.guard(&a.value)?;
                            loc.invariant.ints.extend(g.ints);
                            loc.invariant.clocks.extend(g.clocks);
                        }
                        "labels" => {
                            for l in split_labels(&a.value) {
                                let name = ident(&l, "label")?;
                                let next = self.labels.len() as u32;
                                let id = *self.labels.entry(name.to_string()).or_insert(next);
                                if id == next {
                                    self.model.labels.push(name.to_string());
                                }
                                if !loc.labels.contains(&id) {
                                    loc.labels.push(id);
                                }
                            }
                        }
                        _ => {} // other attributes (layout, …) are ignored, as TChecker does
                    }
                }
                let proc_ = &mut self.model.processes[pi];
                self.locs[pi].insert(n.to_string(), proc_.locations.len() as u32);
                proc_.locations.push(loc);
                proc_.out.push(Vec::new());
            }
            "edge" => {
                want(5, "edge:PROCESS:SOURCE:TARGET:EVENT")?;
                let p = self.process(&fields[1])?;
                let pi = p as usize;
                let src = self.location(pi, &fields[2])?;
                let tgt = self.location(pi, &fields[3])?;
                let event = self.event(&fields[4])?;
                let mut edge = Edge {
                    src,
                    tgt,
                    event,
                    guard: Guard::default(),
                    stmts: Vec::new(),
                    span: Span::new(base, base + line.len()),
                    lazy: None,
                };
                for a in &attrs {
                    match a.key.text {
                        "provided" => {
                            let g = self.guard(&a.value)?;
                            edge.guard.ints.extend(g.ints);
                            edge.guard.clocks.extend(g.clocks);
                        }
                        "do" => {
                            let s = expr::parse_stmts(a.value.text, a.value.span.start)?;
                            for st in &s {
                                edge.stmts.push(self.stmt(st)?);
                            }
                        }
                        _ => {}
                    }
                }
                let proc_ = &mut self.model.processes[pi];
                let id = proc_.edges.len() as u32;
                proc_.edges.push(edge);
                proc_.out[src as usize].push(id);
            }
            "sync" => {
                if fields.len() < 2 {
                    return Err(Diagnostic::at(kw.span, "`sync` expects `sync:P@e:Q@f…`"));
                }
                let mut parts: Vec<(u32, u32, bool)> = Vec::new();
                for f in &fields[1..] {
                    let (t, weak) = match f.text.strip_suffix('?') {
                        Some(t) => (t, true),
                        None => (f.text, false),
                    };
                    let Some((pn, en)) = t.split_once('@') else {
                        return Err(Diagnostic::at(f.span, "expected `PROCESS@EVENT`"));
                    };
                    let pspan = Span::new(f.span.start, f.span.start + pn.len());
                    let espan = Span::new(pspan.end + 1, pspan.end + 1 + en.len());
                    let p = self.process(&Field {
                        text: pn.trim(),
                        span: pspan,
                    })?;
                    let e = self.event(&Field {
                        text: en.trim(),
                        span: espan,
                    })?;
                    if parts.iter().any(|&(q, _, _)| q == p) {
                        return Err(Diagnostic::at(
                            f.span,
                            format!("process `{pn}` occurs twice in this synchronisation"),
                        ));
                    }
                    parts.push((p, e, weak));
                }
                self.model.syncs.push(Sync {
                    parts,
                    broadcast: false,
                    urgent: false,
                    span: Span::new(base, base + line.len()),
                });
            }
            other => {
                return Err(Diagnostic::at(
                    kw.span,
                    format!("unknown declaration `{other}`"),
                ))
            }
        }
        Ok(())
    }

    fn check_fresh(&self, n: &str, span: Span) -> Result<(), Diagnostic> {
        if self.symbols.contains_key(n) {
            Err(Diagnostic::at(span, format!("`{n}` is already declared")))
        } else {
            Ok(())
        }
    }

    fn process(&self, f: &Field<'_>) -> Result<u32, Diagnostic> {
        let n = ident(f, "process name")?;
        self.procs
            .get(n)
            .copied()
            .ok_or_else(|| Diagnostic::at(f.span, format!("undeclared process `{n}`")))
    }

    fn location(&self, p: usize, f: &Field<'_>) -> Result<u32, Diagnostic> {
        let n = ident(f, "location name")?;
        self.locs
            .get(p)
            .and_then(|m| m.get(n))
            .copied()
            .ok_or_else(|| Diagnostic::at(f.span, format!("undeclared location `{n}`")))
    }

    fn event(&self, f: &Field<'_>) -> Result<u32, Diagnostic> {
        let n = ident(f, "event name")?;
        self.events
            .get(n)
            .copied()
            .ok_or_else(|| Diagnostic::at(f.span, format!("undeclared event `{n}`")))
    }

    fn finish(mut self) -> Result<Model, Diagnostic> {
        let m = &mut self.model;
        for p in &m.processes {
            if !p.locations.iter().any(|l| l.initial) {
                return Err(Diagnostic::error(format!(
                    "process `{}` has no initial location",
                    p.name
                )));
            }
        }
        m.synced = vec![vec![false; m.events.len()]; m.processes.len()];
        for s in &m.syncs {
            for &(p, e, _) in &s.parts {
                if let Some(slot) = m
                    .synced
                    .get_mut(p as usize)
                    .and_then(|v| v.get_mut(e as usize))
                {
                    *slot = true;
                }
            }
        }
        Ok(self.model)
    }

    // ---- expressions ----

    fn int_expr(&self, a: &Ast) -> Result<Expr, Diagnostic> {
        Ok(match a {
            Ast::Int(v, _) => Expr::Const(*v),
            Ast::Name(n, s) => match self.symbols.get(n) {
                Some(Sym::Int(b)) => {
                    let blk = &self.model.int_blocks[*b];
                    if blk.size != 1 {
                        return Err(Diagnostic::at(
                            *s,
                            format!("`{n}` is an array: index it"),
                        ));
                    }
                    Expr::Var(blk.first)
                }
                Some(Sym::Clock(_)) => {
                    return Err(Diagnostic::at(
                        *s,
                        format!("clock `{n}` is not allowed here (only in constraints `x # c`, `x - y # c` and in resets)"),
                    ))
                }
                None => return Err(Diagnostic::at(*s, format!("undeclared variable `{n}`"))),
            },
            Ast::Index(n, s, i) => match self.symbols.get(n) {
                Some(Sym::Int(b)) => {
                    let blk = &self.model.int_blocks[*b];
                    Expr::Elem {
                        first: blk.first,
                        size: blk.size,
                        index: Box::new(self.int_expr(i)?),
                    }
                }
                Some(Sym::Clock(_)) => {
                    return Err(Diagnostic::at(*s, format!("clock `{n}` is not allowed here")))
                }
                None => return Err(Diagnostic::at(*s, format!("undeclared variable `{n}`"))),
            },
            Ast::Neg(e, _) => Expr::Neg(Box::new(self.int_expr(e)?)),
            Ast::Not(e, _) => Expr::Not(Box::new(self.int_expr(e)?)),
            Ast::Bin(op, x, y) => Expr::Bin(
                *op,
                Box::new(self.int_expr(x)?),
                Box::new(self.int_expr(y)?),
            ),
        })
    }

    fn mentions_clock(&self, a: &Ast) -> bool {
        match a {
            Ast::Int(..) => false,
            Ast::Name(n, _) | Ast::Index(n, _, _) => {
                matches!(self.symbols.get(n), Some(Sym::Clock(_)))
                    || matches!(a, Ast::Index(_, _, i) if self.mentions_clock(i))
            }
            Ast::Neg(e, _) | Ast::Not(e, _) => self.mentions_clock(e),
            Ast::Bin(_, x, y) => self.mentions_clock(x) || self.mentions_clock(y),
        }
    }

    fn clock_ref(&self, a: &Ast) -> Option<Result<ClockRef, Diagnostic>> {
        let (n, idx) = match a {
            Ast::Name(n, _) => (n, None),
            Ast::Index(n, _, i) => (n, Some(i)),
            _ => return None,
        };
        let Some(Sym::Clock(b)) = self.symbols.get(n) else {
            return None;
        };
        let blk = &self.model.clock_blocks[*b];
        Some(match idx {
            None if blk.size != 1 => Err(Diagnostic::at(
                a.span(),
                format!("`{n}` is a clock array: index it"),
            )),
            None => Ok(ClockRef {
                first: blk.first,
                size: 1,
                index: None,
            }),
            Some(i) => self.int_expr(i).map(|e| ClockRef {
                first: blk.first,
                size: blk.size,
                index: Some(e),
            }),
        })
    }

    /// `x` or `x - y` as a clock term.
    fn clock_term(&self, a: &Ast) -> Option<Result<(ClockRef, Option<ClockRef>), Diagnostic>> {
        if let Some(r) = self.clock_ref(a) {
            return Some(r.map(|x| (x, None)));
        }
        if let Ast::Bin(BinOp::Sub, x, y) = a {
            if let (Some(x), Some(y)) = (self.clock_ref(x), self.clock_ref(y)) {
                return Some(x.and_then(|x| y.map(|y| (x, Some(y)))));
            }
        }
        None
    }

    fn guard(&self, f: &Field<'_>) -> Result<Guard, Diagnostic> {
        let mut g = Guard::default();
        if f.text.is_empty() {
            return Ok(g);
        }
        let a = expr::parse_expr(f.text, f.span.start)?;
        let mut atoms = Vec::new();
        conjuncts(&a, &mut atoms);
        for atom in atoms {
            if !self.mentions_clock(atom) {
                g.ints.push(self.int_expr(atom)?);
                continue;
            }
            let err = || {
                Diagnostic::at(
                    atom.span(),
                    "unsupported clock constraint (expected `x # c` or `x - y # c` with # one of < <= == >= > and c an integer expression, in a conjunction)",
                )
            };
            let Ast::Bin(op, l, r) = atom else {
                return Err(err());
            };
            let cmp = match op {
                BinOp::Lt => Cmp::Lt,
                BinOp::Le => Cmp::Le,
                BinOp::Eq => Cmp::Eq,
                BinOp::Ge => Cmp::Ge,
                BinOp::Gt => Cmp::Gt,
                _ => return Err(err()),
            };
            let (term, bound, cmp) = if let Some(t) = self.clock_term(l) {
                (t?, r, cmp)
            } else if let Some(t) = self.clock_term(r) {
                let flipped = match cmp {
                    Cmp::Lt => Cmp::Gt,
                    Cmp::Le => Cmp::Ge,
                    Cmp::Eq => Cmp::Eq,
                    Cmp::Ge => Cmp::Le,
                    Cmp::Gt => Cmp::Lt,
                };
                (t?, l, flipped)
            } else {
                return Err(err());
            };
            if self.mentions_clock(bound) {
                return Err(err());
            }
            g.clocks.push(ClockAtom {
                x: term.0,
                y: term.1,
                cmp,
                bound: self.int_expr(bound)?,
            });
        }
        Ok(g)
    }

    fn stmt(&self, s: &StmtAst) -> Result<Stmt, Diagnostic> {
        Ok(match s {
            StmtAst::Nop => Stmt::Nop,
            StmtAst::Assign(lv, e) => {
                if let Some(x) = self.clock_ref(lv) {
                    if self.mentions_clock(e) {
                        return Err(Diagnostic::at(
                            e.span(),
                            "unsupported clock assignment (only `x = c` with c an integer expression)",
                        ));
                    }
                    Stmt::Clock(x?, self.int_expr(e)?)
                } else {
                    let (n, span, idx) = match lv {
                        Ast::Name(n, s) => (n, *s, None),
                        Ast::Index(n, s, i) => (n, *s, Some(i)),
                        _ => return Err(Diagnostic::at(lv.span(), "expected a variable")),
                    };
                    let Some(Sym::Int(b)) = self.symbols.get(n) else {
                        return Err(Diagnostic::at(span, format!("undeclared variable `{n}`")));
                    };
                    let blk = &self.model.int_blocks[*b];
                    let index = match idx {
                        Some(i) => Some(self.int_expr(i)?),
                        None if blk.size != 1 => {
                            return Err(Diagnostic::at(
                                span,
                                format!("`{n}` is an array: index it"),
                            ))
                        }
                        None => None,
                    };
                    Stmt::Int(
                        IntLv {
                            first: blk.first,
                            size: blk.size,
                            index,
                        },
                        self.int_expr(e)?,
                    )
                }
            }
            StmtAst::If(c, t, e) => Stmt::If(
                self.int_expr(c)?,
                t.iter().map(|s| self.stmt(s)).collect::<Result<_, _>>()?,
                e.iter().map(|s| self.stmt(s)).collect::<Result<_, _>>()?,
            ),
            StmtAst::While(c, b) => Stmt::While(
                self.int_expr(c)?,
                b.iter().map(|s| self.stmt(s)).collect::<Result<_, _>>()?,
            ),
        })
    }
}

fn conjuncts<'a>(a: &'a Ast, out: &mut Vec<&'a Ast>) {
    if let Ast::Bin(BinOp::And, x, y) = a {
        conjuncts(x, out);
        conjuncts(y, out);
    } else {
        out.push(a);
    }
}

/// Labels are comma-separated.
fn split_labels<'a>(v: &Field<'a>) -> Vec<Field<'a>> {
    let mut out = Vec::new();
    let mut start = 0;
    for piece in v.text.split(',') {
        let lead = piece.len() - piece.trim_start().len();
        let t = piece.trim();
        if !t.is_empty() {
            let s = v.span.start + start + lead;
            out.push(Field {
                text: t,
                span: Span::new(s, s + t.len()),
            });
        }
        start += piece.len() + 1;
    }
    out
}

fn parse_attrs(s: &str, base: usize) -> Result<Vec<Attr<'_>>, Diagnostic> {
    if s.trim().is_empty() {
        return Ok(Vec::new());
    }
    let pieces = split_fields(s, base, true);
    if pieces.len() % 2 == 1 {
        let last = &pieces[pieces.len() - 1];
        return Err(Diagnostic::at(
            last.span,
            "expected `key:value` attributes separated by `:`",
        ));
    }
    let mut out = Vec::new();
    for kv in pieces.chunks(2) {
        let key = kv[0].clone();
        if !is_ident(key.text) {
            return Err(Diagnostic::at(
                key.span,
                format!("invalid attribute name `{}`", key.text),
            ));
        }
        out.push(Attr {
            key,
            value: kv[1].clone(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "system:s\nevent:a\nint:1:0:2:0:id\nclock:2:x\nprocess:P\n\
        location:P:l0{initial: : invariant: x[0] <= 3}\nlocation:P:l1{labels: done, green}\n\
        edge:P:l0:l1:a{provided: x[0] >= 1 && id == 0 && 2 > x[1] : do: id = id + 1; x[1] = 0}\n";

    #[test]
    fn reads_a_small_model() {
        let m = parse_tck(SMALL).unwrap();
        assert_eq!(m.clocks, vec!["x[0]", "x[1]"]);
        assert_eq!(m.labels, vec!["done", "green"]);
        let e = &m.processes[0].edges[0];
        assert_eq!(e.guard.ints.len(), 1);
        assert_eq!(e.guard.clocks.len(), 2);
        assert_eq!(e.guard.clocks[1].cmp, Cmp::Lt); // 2 > x[1]  ⇔  x[1] < 2
        assert_eq!(e.stmts.len(), 2);
    }

    #[test]
    fn errors_are_located() {
        let bad = "system:s\nevent:a\nprocess:P\nlocation:P:l0{initial:}\nedge:P:l0:l9:a\n";
        let e = parse_tck(bad).unwrap_err();
        let at = bad.find("l9").unwrap();
        assert_eq!(e.span, Some(Span::new(at, at + 2)));
        assert!(e.message.contains("undeclared location"));
        let bad = "system:s\nclock:1:x\nevent:a\nprocess:P\nlocation:P:l{initial:}\nedge:P:l:l:a{provided: x != 1}\n";
        let e = parse_tck(bad).unwrap_err();
        assert!(
            e.message.contains("unsupported clock constraint"),
            "{}",
            e.message
        );
        let bad = "system:s\nprocess:P\nlocation:P:l{initial}\n";
        assert!(parse_tck(bad).is_err());
    }

    #[test]
    fn parser_is_total() {
        verikit_testkit::assert_parser_total(&[SMALL], 2000, parse_tck);
    }
}
