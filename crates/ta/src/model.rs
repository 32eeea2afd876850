//! The resolved network of timed automata: processes, locations, edges, synchronisation vectors,
//! bounded integer variables and clocks; evaluation of integer expressions and execution of
//! statements on a discrete valuation (shared by the zone-graph engine and the trace checker).

use crate::expr::BinOp;
use std::sync::Arc;
use verikit_diag::Span;

/// A block of variables (a scalar is a block of size 1): clocks or integers.
#[derive(Clone, Debug)]
pub struct VarBlock {
    pub name: String,
    /// Index of the first element (integers: position in the valuation; clocks: DBM index ≥ 1).
    pub first: u32,
    pub size: u32,
    pub span: Span,
}

/// One bounded integer (an array element counts as one).
#[derive(Clone, Debug)]
pub struct IntVar {
    pub name: String,
    pub min: i32,
    pub max: i32,
    pub init: i32,
}

/// A resolved integer expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Const(i64),
    Var(u32),
    /// Element of an integer array: `first + index` when `index < size`.
    Elem {
        first: u32,
        size: u32,
        index: Box<Expr>,
    },
    Neg(Box<Expr>),
    Not(Box<Expr>),
    /// Bitwise complement (UPPAAL's `~`).
    BitNot(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A local variable (slot of the current function's frame).
    Local(u32),
    /// Element of a local array: slot `first + index` when `index < size`.
    LocalElem {
        first: u32,
        size: u32,
        index: Box<Expr>,
    },
    /// A call of a user function (UPPAAL declarations) with value arguments.
    Call(Arc<Func>, Vec<Expr>),
}

/// A user function: the first `params` slots of its frame are the arguments, the others its
/// local variables; each slot has a range, checked on every assignment.
#[derive(Clone, Debug, PartialEq)]
pub struct Func {
    pub name: String,
    pub params: u32,
    /// Range of each frame slot (parameters first).
    pub slots: Vec<(i64, i64)>,
    /// Initial value of each slot beyond the parameters.
    pub body: Vec<Stmt>,
    /// Range of the returned value (`(0, 0)` for `void`).
    pub ret: (i64, i64),
}

/// Why an evaluation failed: the transition carrying it is disabled (as in TChecker, where such a
/// state is not built).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    IndexOutOfBounds,
    DivisionByZero,
    Overflow,
    OutOfRange,
    LoopLimit,
    /// A function called from a guard or invariant assigned a global variable.
    SideEffect,
    /// A non-void function ended without `return`.
    NoReturn,
}

fn ck(v: Option<i64>) -> Result<i64, EvalError> {
    v.ok_or(EvalError::Overflow)
}

/// Where global integers are read and written during an evaluation.
pub(crate) trait IntStore {
    fn get(&self, k: usize) -> Option<i32>;
    fn set(&mut self, k: usize, v: i64) -> Result<(), EvalError>;
}

/// Read-only globals (guards, invariants, state formulas).
struct Ro<'a>(&'a [i32]);

impl IntStore for Ro<'_> {
    fn get(&self, k: usize) -> Option<i32> {
        self.0.get(k).copied()
    }
    fn set(&mut self, _: usize, _: i64) -> Result<(), EvalError> {
        Err(EvalError::SideEffect)
    }
}

/// Writable globals, range-checked against their declarations (updates).
struct Rw<'a> {
    ints: &'a mut [i32],
    vars: &'a [IntVar],
}

impl IntStore for Rw<'_> {
    fn get(&self, k: usize) -> Option<i32> {
        self.ints.get(k).copied()
    }
    fn set(&mut self, k: usize, v: i64) -> Result<(), EvalError> {
        let var = self.vars.get(k).ok_or(EvalError::IndexOutOfBounds)?;
        if v < i64::from(var.min) || v > i64::from(var.max) {
            return Err(EvalError::OutOfRange);
        }
        let slot = self.ints.get_mut(k).ok_or(EvalError::IndexOutOfBounds)?;
        *slot = v as i32;
        Ok(())
    }
}

fn index_in(i: i64, size: u32) -> Result<usize, EvalError> {
    if i < 0 || i >= i64::from(size) {
        Err(EvalError::IndexOutOfBounds)
    } else {
        Ok(i as usize)
    }
}

fn shift(x: i64, y: i64, left: bool) -> Result<i64, EvalError> {
    if !(0..63).contains(&y) {
        return Err(EvalError::Overflow);
    }
    if left {
        ck(x.checked_mul(1i64 << y))
    } else {
        Ok(x >> y)
    }
}

/// Calls `f` on the argument values: runs its body in a fresh frame.
fn call<S: IntStore>(f: &Func, args: &[i64], s: &mut S, depth: usize) -> Result<i64, EvalError> {
    let mut frame = vec![0i64; f.slots.len()];
    for (k, (slot, &v)) in frame.iter_mut().zip(args).enumerate() {
        let (lo, hi) = f.slots.get(k).copied().unwrap_or((i64::MIN, i64::MAX));
        if v < lo || v > hi {
            return Err(EvalError::OutOfRange);
        }
        *slot = v;
    }
    match run(&f.body, s, &f.slots, &mut frame, &mut Vec::new(), depth)? {
        Flow::Return(Some(v)) => {
            if v < f.ret.0 || v > f.ret.1 {
                return Err(EvalError::OutOfRange);
            }
            Ok(v)
        }
        _ if f.ret == (0, 0) => Ok(0),
        _ => Err(EvalError::NoReturn),
    }
}

/// Depth of nested calls beyond which evaluation fails (recursion is not bounded otherwise).
const MAX_CALL_DEPTH: usize = 64;

impl Expr {
    pub fn eval(&self, ints: &[i32]) -> Result<i64, EvalError> {
        self.ev(&mut Ro(ints), &[], 0)
    }

    /// The value on `ints` with `Local(k)` read from `frame` (read-only).
    pub(crate) fn eval_in_frame(&self, ints: &[i32], frame: &[i64]) -> Result<i64, EvalError> {
        self.ev(&mut Ro(ints), frame, 0)
    }

    fn ev<S: IntStore>(&self, s: &mut S, frame: &[i64], depth: usize) -> Result<i64, EvalError> {
        Ok(match self {
            Expr::Const(c) => *c,
            Expr::Var(v) => i64::from(s.get(*v as usize).ok_or(EvalError::IndexOutOfBounds)?),
            Expr::Elem { first, size, index } => {
                let i = index_in(index.ev(s, frame, depth)?, *size)?;
                i64::from(
                    s.get(*first as usize + i)
                        .ok_or(EvalError::IndexOutOfBounds)?,
                )
            }
            Expr::Local(k) => *frame.get(*k as usize).ok_or(EvalError::IndexOutOfBounds)?,
            Expr::LocalElem { first, size, index } => {
                let i = index_in(index.ev(s, frame, depth)?, *size)?;
                *frame
                    .get(*first as usize + i)
                    .ok_or(EvalError::IndexOutOfBounds)?
            }
            Expr::Call(f, args) => {
                if depth >= MAX_CALL_DEPTH {
                    return Err(EvalError::LoopLimit);
                }
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(a.ev(s, frame, depth)?);
                }
                call(f, &vals, s, depth + 1)?
            }
            Expr::Neg(e) => ck(e.ev(s, frame, depth)?.checked_neg())?,
            Expr::Not(e) => i64::from(e.ev(s, frame, depth)? == 0),
            Expr::BitNot(e) => !e.ev(s, frame, depth)?,
            Expr::Ite(c, a, b) => {
                if c.ev(s, frame, depth)? != 0 {
                    a.ev(s, frame, depth)?
                } else {
                    b.ev(s, frame, depth)?
                }
            }
            Expr::Bin(op, a, b) => {
                let x = a.ev(s, frame, depth)?;
                // short-circuit as C does
                match op {
                    BinOp::And if x == 0 => return Ok(0),
                    BinOp::Or if x != 0 => return Ok(1),
                    _ => {}
                }
                let y = b.ev(s, frame, depth)?;
                match op {
                    BinOp::Or | BinOp::And => i64::from(y != 0),
                    BinOp::Eq => i64::from(x == y),
                    BinOp::Ne => i64::from(x != y),
                    BinOp::Lt => i64::from(x < y),
                    BinOp::Le => i64::from(x <= y),
                    BinOp::Gt => i64::from(x > y),
                    BinOp::Ge => i64::from(x >= y),
                    BinOp::Add => ck(x.checked_add(y))?,
                    BinOp::Sub => ck(x.checked_sub(y))?,
                    BinOp::Mul => ck(x.checked_mul(y))?,
                    BinOp::Div => {
                        if y == 0 {
                            return Err(EvalError::DivisionByZero);
                        }
                        ck(x.checked_div(y))?
                    }
                    BinOp::Mod => {
                        if y == 0 {
                            return Err(EvalError::DivisionByZero);
                        }
                        ck(x.checked_rem(y))?
                    }
                    BinOp::BitAnd => x & y,
                    BinOp::BitOr => x | y,
                    BinOp::BitXor => x ^ y,
                    BinOp::Shl => shift(x, y, true)?,
                    BinOp::Shr => shift(x, y, false)?,
                    BinOp::Min => x.min(y),
                    BinOp::Max => x.max(y),
                }
            }
        })
    }

    /// An interval containing every value the expression can take when each variable ranges over
    /// its declared domain (used for the static clock bounds).
    /// The values the expression can take within `lo..=hi`, sorted (a superset, exact on sums
    /// and constant multiples of variables, as in a flattened array index `i * n + j`), or
    /// `None` beyond `limit` values. A channel array indexed by variables gets one edge per
    /// value, so counting the values of `i * n + j` by its interval would add every
    /// unreachable index in between.
    pub fn values_within(
        &self,
        vars: &[IntVar],
        lo: i64,
        hi: i64,
        limit: usize,
    ) -> Option<Vec<i64>> {
        if let Some(mut out) = self.values(vars, limit) {
            out.retain(|v| (lo..=hi).contains(v));
            return Some(out);
        }
        // too many values to list, or an operator whose values are not enumerated: the
        // interval, cut to `lo..=hi`
        let (a, b) = self.range(vars);
        let (a, b) = (a.max(lo), b.min(hi));
        if b < a {
            return Some(Vec::new());
        }
        ((b - a) as u64 <= limit as u64).then(|| (a..=b).collect())
    }

    fn values(&self, vars: &[IntVar], limit: usize) -> Option<Vec<i64>> {
        let mut out: Vec<i64> = match self {
            Expr::Const(c) => vec![*c],
            Expr::Bin(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b) => {
                let va = a.values(vars, limit)?;
                let vb = b.values(vars, limit)?;
                if va.len().saturating_mul(vb.len()) > limit.saturating_mul(16) {
                    return None;
                }
                let mut v = Vec::with_capacity(va.len() * vb.len());
                for &x in &va {
                    for &y in &vb {
                        v.push(match op {
                            BinOp::Add => x.checked_add(y)?,
                            BinOp::Sub => x.checked_sub(y)?,
                            _ => x.checked_mul(y)?,
                        });
                    }
                }
                v
            }
            _ => {
                let (a, b) = self.range(vars);
                if b < a || (b - a) as u64 >= limit as u64 {
                    return None;
                }
                (a..=b).collect()
            }
        };
        out.sort_unstable();
        out.dedup();
        (out.len() <= limit).then_some(out)
    }

    pub fn range(&self, vars: &[IntVar]) -> (i64, i64) {
        const BIG: i64 = 1 << 40;
        let clamp = |(a, b): (i64, i64)| (a.clamp(-BIG, BIG), b.clamp(-BIG, BIG));
        clamp(match self {
            Expr::Const(c) => (*c, *c),
            Expr::Var(v) => vars
                .get(*v as usize)
                .map_or((-BIG, BIG), |x| (i64::from(x.min), i64::from(x.max))),
            Expr::Elem { first, size, .. } => {
                let mut lo = BIG;
                let mut hi = -BIG;
                for k in *first..first + size {
                    if let Some(x) = vars.get(k as usize) {
                        lo = lo.min(i64::from(x.min));
                        hi = hi.max(i64::from(x.max));
                    }
                }
                if lo > hi {
                    (-BIG, BIG)
                } else {
                    (lo, hi)
                }
            }
            Expr::Local(_) | Expr::LocalElem { .. } | Expr::BitNot(_) => (-BIG, BIG),
            Expr::Call(f, _) => f.ret,
            Expr::Ite(_, a, b) => {
                let (a0, a1) = a.range(vars);
                let (b0, b1) = b.range(vars);
                (a0.min(b0), a1.max(b1))
            }
            Expr::Neg(e) => {
                let (a, b) = e.range(vars);
                (-b, -a)
            }
            Expr::Not(_) => (0, 1),
            Expr::Bin(op, a, b) => {
                let (a0, a1) = a.range(vars);
                let (b0, b1) = b.range(vars);
                match op {
                    BinOp::Add => (a0.saturating_add(b0), a1.saturating_add(b1)),
                    BinOp::Sub => (a0.saturating_sub(b1), a1.saturating_sub(b0)),
                    BinOp::Mul => {
                        let c = [
                            a0.saturating_mul(b0),
                            a0.saturating_mul(b1),
                            a1.saturating_mul(b0),
                            a1.saturating_mul(b1),
                        ];
                        (
                            c.iter().copied().min().unwrap_or(-BIG),
                            c.iter().copied().max().unwrap_or(BIG),
                        )
                    }
                    BinOp::Div | BinOp::Mod => {
                        let m = a0.abs().max(a1.abs());
                        (-m, m)
                    }
                    BinOp::Min => (a0.min(b0), a1.min(b1)),
                    BinOp::Max => (a0.max(b0), a1.max(b1)),
                    BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr => {
                        (-BIG, BIG)
                    }
                    _ => (0, 1),
                }
            }
        })
    }

    /// True if the expression reads no variable.
    pub fn is_const(&self) -> bool {
        match self {
            Expr::Const(_) => true,
            Expr::Var(_)
            | Expr::Elem { .. }
            | Expr::Local(_)
            | Expr::LocalElem { .. }
            | Expr::Call(..) => false,
            Expr::Neg(e) | Expr::Not(e) | Expr::BitNot(e) => e.is_const(),
            Expr::Bin(_, a, b) => a.is_const() && b.is_const(),
            Expr::Ite(c, a, b) => c.is_const() && a.is_const() && b.is_const(),
        }
    }
}

/// A clock reference: `x` or `x[i]` (DBM index `first + i`).
#[derive(Clone, Debug, PartialEq)]
pub struct ClockRef {
    pub first: u32,
    pub size: u32,
    pub index: Option<Expr>,
}

impl ClockRef {
    /// The DBM index of the clock.
    pub fn resolve(&self, ints: &[i32]) -> Result<usize, EvalError> {
        match &self.index {
            None => Ok(self.first as usize),
            Some(e) => {
                let i = e.eval(ints)?;
                if i < 0 || i >= i64::from(self.size) {
                    Err(EvalError::IndexOutOfBounds)
                } else {
                    Ok(self.first as usize + i as usize)
                }
            }
        }
    }
    /// Every DBM index the reference may denote.
    pub fn all(&self) -> std::ops::Range<usize> {
        match &self.index {
            None => self.first as usize..self.first as usize + 1,
            Some(_) => self.first as usize..(self.first + self.size) as usize,
        }
    }
}

/// Comparison of a clock constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Lt,
    Le,
    Eq,
    Ge,
    Gt,
}

/// `x − y ⋈ bound` (`y` absent: `x ⋈ bound`).
#[derive(Clone, Debug, PartialEq)]
pub struct ClockAtom {
    pub x: ClockRef,
    pub y: Option<ClockRef>,
    pub cmp: Cmp,
    pub bound: Expr,
}

/// Marks, in a move, a broadcast receiver that stays out although one of its edges has the
/// channel's event and a true integer guard: the entry `(STAY_OUT | p, code)` stands for "the
/// clock atom `code` names (edge, atom, side) is false", see [`stay_out_atom`]. Such entries sort
/// after the real participants and change nothing but the zone.
pub(crate) const STAY_OUT: u32 = 1 << 31;

/// The negated clock atom a stay-out entry stands for: `code = edge << 8 | atom << 1 | side`
/// (`side` picks `<` or `>` for the negation of `==`).
pub(crate) fn stay_out_atom(model: &Model, p: u32, code: u32) -> Option<ClockAtom> {
    let (e, k, side) = (code >> 8, (code >> 1) & 127, code & 1);
    let a = model
        .processes
        .get((p & !STAY_OUT) as usize)?
        .edges
        .get(e as usize)?
        .guard
        .clocks
        .get(k as usize)?;
    let cmp = match (a.cmp, side) {
        (Cmp::Lt, _) => Cmp::Ge,
        (Cmp::Le, _) => Cmp::Gt,
        (Cmp::Ge, _) => Cmp::Lt,
        (Cmp::Gt, _) => Cmp::Le,
        (Cmp::Eq, 0) => Cmp::Lt,
        (Cmp::Eq, _) => Cmp::Gt,
    };
    Some(ClockAtom { cmp, ..a.clone() })
}

/// The ways a broadcast receiver `p` whose candidate edges (event and integer guard right) are
/// `edges` can stay out: each is a conjunction of negated clock atoms, one per candidate edge
/// (empty list: it cannot stay out, some candidate has no clock guard).
pub(crate) fn stay_out_options(model: &Model, p: u32, edges: &[u32]) -> Vec<Vec<(u32, u32)>> {
    let mut out: Vec<Vec<(u32, u32)>> = vec![Vec::new()];
    for &e in edges {
        let Some(ed) = model
            .processes
            .get(p as usize)
            .and_then(|pr| pr.edges.get(e as usize))
        else {
            return Vec::new();
        };
        if ed.guard.clocks.is_empty() || ed.guard.clocks.len() > 127 || e >= 1 << 23 {
            return Vec::new();
        }
        let mut next = Vec::new();
        for o in &out {
            for (k, a) in ed.guard.clocks.iter().enumerate() {
                let sides: &[u32] = if a.cmp == Cmp::Eq { &[0, 1] } else { &[0] };
                for &side in sides {
                    let mut v = o.clone();
                    v.push((p | STAY_OUT, e << 8 | (k as u32) << 1 | side));
                    next.push(v);
                }
            }
        }
        out = next;
    }
    out
}

/// A guard or invariant: integer conditions and a conjunction of clock constraints.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Guard {
    pub ints: Vec<Expr>,
    pub clocks: Vec<ClockAtom>,
}

impl Guard {
    /// Evaluates the integer part.
    pub fn ints_hold(&self, ints: &[i32]) -> Result<bool, EvalError> {
        for e in &self.ints {
            if e.eval(ints)? == 0 {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// An integer left-hand side.
#[derive(Clone, Debug, PartialEq)]
pub struct IntLv {
    pub first: u32,
    pub size: u32,
    pub index: Option<Expr>,
}

/// A resolved statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Nop,
    Int(IntLv, Expr),
    /// `x = e`: the clock gets the (non-negative) value of `e`.
    Clock(ClockRef, Expr),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    While(Expr, Vec<Stmt>),
    /// Assignment of a local variable of a function (`index`: element of a local array).
    Local {
        first: u32,
        size: u32,
        index: Option<Expr>,
        value: Expr,
    },
    /// An expression evaluated for its effect (a call).
    Eval(Expr),
    /// `return [e]` (inside a function).
    Return(Option<Expr>),
}

/// Iterations after which a `while` loop is taken as diverging (the transition is disabled).
pub(crate) const LOOP_LIMIT: u32 = 100_000;

enum Flow {
    Normal,
    Return(Option<i64>),
}

/// Runs statements on a store and a frame (`slots`: the frame's ranges); clock assignments are
/// appended to `resets`.
fn run<S: IntStore>(
    stmts: &[Stmt],
    s: &mut S,
    slots: &[(i64, i64)],
    frame: &mut [i64],
    resets: &mut Vec<(usize, i64)>,
    depth: usize,
) -> Result<Flow, EvalError> {
    for st in stmts {
        match st {
            Stmt::Nop => {}
            Stmt::Int(lv, e) => {
                let v = e.ev(s, frame, depth)?;
                let k = match &lv.index {
                    None => lv.first as usize,
                    Some(i) => lv.first as usize + index_in(i.ev(s, frame, depth)?, lv.size)?,
                };
                s.set(k, v)?;
            }
            Stmt::Local {
                first,
                size,
                index,
                value,
            } => {
                let v = value.ev(s, frame, depth)?;
                let k = match index {
                    None => *first as usize,
                    Some(i) => *first as usize + index_in(i.ev(s, frame, depth)?, *size)?,
                };
                let (lo, hi) = slots.get(k).copied().ok_or(EvalError::IndexOutOfBounds)?;
                if v < lo || v > hi {
                    return Err(EvalError::OutOfRange);
                }
                *frame.get_mut(k).ok_or(EvalError::IndexOutOfBounds)? = v;
            }
            Stmt::Clock(x, e) => {
                let k = match &x.index {
                    None => x.first as usize,
                    Some(i) => x.first as usize + index_in(i.ev(s, frame, depth)?, x.size)?,
                };
                let v = e.ev(s, frame, depth)?;
                if !(0..=crate::dbm::MAX_CONST).contains(&v) {
                    return Err(EvalError::OutOfRange);
                }
                resets.push((k, v));
            }
            Stmt::Eval(e) => {
                e.ev(s, frame, depth)?;
            }
            Stmt::Return(e) => {
                let v = match e {
                    Some(e) => Some(e.ev(s, frame, depth)?),
                    None => None,
                };
                return Ok(Flow::Return(v));
            }
            Stmt::If(c, t, e) => {
                let branch = if c.ev(s, frame, depth)? != 0 { t } else { e };
                if let Flow::Return(v) = run(branch, s, slots, frame, resets, depth)? {
                    return Ok(Flow::Return(v));
                }
            }
            Stmt::While(c, b) => {
                let mut n = 0;
                while c.ev(s, frame, depth)? != 0 {
                    n += 1;
                    if n > LOOP_LIMIT {
                        return Err(EvalError::LoopLimit);
                    }
                    if let Flow::Return(v) = run(b, s, slots, frame, resets, depth)? {
                        return Ok(Flow::Return(v));
                    }
                }
            }
        }
    }
    Ok(Flow::Normal)
}

/// Executes statements: integers are updated in place (range-checked), clock assignments are
/// appended to `resets` as `(DBM index, value)` in execution order.
pub(crate) fn exec(
    stmts: &[Stmt],
    vars: &[IntVar],
    ints: &mut [i32],
    resets: &mut Vec<(usize, i64)>,
) -> Result<(), EvalError> {
    let mut s = Rw { ints, vars };
    run(stmts, &mut s, &[], &mut [], resets, 0)?;
    Ok(())
}

#[derive(Clone, Debug)]
pub struct Location {
    pub name: String,
    pub initial: bool,
    pub committed: bool,
    pub urgent: bool,
    pub labels: Vec<u32>,
    pub invariant: Guard,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Edge {
    pub src: u32,
    pub tgt: u32,
    /// The event; for an edge with a [`LazyEvent`], the event of its first index value (read
    /// the event through [`Edge::event_at`] or [`Edge::events`]).
    pub event: u32,
    pub guard: Guard,
    pub stmts: Vec<Stmt>,
    pub span: Span,
    /// A synchronisation on a channel array indexed by variables (`c[i]!`): the event depends
    /// on the state.
    pub lazy: Option<Arc<LazyEvent>>,
}

/// The event of a channel-array edge, computed from the state: `events` pairs each value the
/// index can take with the event of that channel element, sorted by value. One edge stands for
/// what would otherwise be one edge per value, each guarded by `index == value` (UPPAAL's
/// gossip models index a 128×128 channel array by two variables).
#[derive(Clone, Debug)]
pub struct LazyEvent {
    pub index: Expr,
    pub events: Vec<(i64, u32)>,
    /// The synchronisation as written, for names (`call[j][secrets]!`).
    pub label: String,
}

impl Edge {
    /// The event of the edge in a state with integers `ints` (`None`: the index has no channel
    /// element or fails to evaluate, so the edge cannot fire).
    #[inline]
    pub fn event_at(&self, ints: &[i32]) -> Option<u32> {
        match &self.lazy {
            None => Some(self.event),
            Some(l) => {
                let k = l.index.eval(ints).ok()?;
                let i = l.events.binary_search_by_key(&k, |p| p.0).ok()?;
                l.events.get(i).map(|p| p.1)
            }
        }
    }

    /// Every event the edge can have.
    pub fn events(&self) -> Vec<u32> {
        match &self.lazy {
            None => vec![self.event],
            Some(l) => l.events.iter().map(|p| p.1).collect(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Process {
    pub name: String,
    pub locations: Vec<Location>,
    pub edges: Vec<Edge>,
    /// Outgoing edge ids per location.
    pub out: Vec<Vec<u32>>,
}

/// A synchronisation vector: `(process, event, weak)` per participant.
#[derive(Clone, Debug)]
pub struct Sync {
    pub parts: Vec<(u32, u32, bool)>,
    /// UPPAAL broadcast: a weak participant takes part iff one of its edges with the event has
    /// an integer guard that holds (TChecker's weak participants: iff it has such an edge).
    pub broadcast: bool,
    /// UPPAAL urgent channel: no delay while the synchronisation is enabled.
    pub urgent: bool,
    pub span: Span,
}

/// A network of timed automata.
#[derive(Clone, Debug, Default)]
pub struct Model {
    pub name: String,
    pub events: Vec<String>,
    /// Clock names by DBM index − 1 (array elements as `x[i]`).
    pub clocks: Vec<String>,
    pub clock_blocks: Vec<VarBlock>,
    pub ints: Vec<IntVar>,
    pub int_blocks: Vec<VarBlock>,
    pub labels: Vec<String>,
    pub processes: Vec<Process>,
    pub syncs: Vec<Sync>,
    /// `synced[p][e]`: event `e` of process `p` occurs in some synchronisation vector (so it never
    /// moves alone).
    pub synced: Vec<Vec<bool>>,
}

impl Model {
    /// Number of DBM rows (clocks + 1).
    pub fn dim(&self) -> usize {
        self.clocks.len() + 1
    }
    /// The id of a label, if some location carries it.
    pub fn label(&self, name: &str) -> Option<u32> {
        self.labels.iter().position(|l| l == name).map(|i| i as u32)
    }
    /// Initial integer valuation.
    pub fn initial_ints(&self) -> Vec<i32> {
        self.ints.iter().map(|v| v.init).collect()
    }
    /// Initial location tuples (TChecker allows several initial locations per process).
    pub fn initial_locations(&self) -> Vec<Vec<u32>> {
        let mut out: Vec<Vec<u32>> = vec![Vec::new()];
        for p in &self.processes {
            let inits: Vec<u32> = p
                .locations
                .iter()
                .enumerate()
                .filter(|(_, l)| l.initial)
                .map(|(i, _)| i as u32)
                .collect();
            let mut next = Vec::new();
            for t in &out {
                for &l in &inits {
                    let mut u = t.clone();
                    u.push(l);
                    next.push(u);
                }
            }
            out = next;
        }
        out
    }
    /// `Process:location` names of a location tuple.
    pub fn location_names(&self, locs: &[u32]) -> Vec<String> {
        locs.iter()
            .zip(&self.processes)
            .map(|(&l, p)| {
                let n = p.locations.get(l as usize).map_or("?", |l| l.name.as_str());
                format!("{}.{}", p.name, n)
            })
            .collect()
    }
    /// `process:src->tgt:event` of an edge.
    pub fn edge_name(&self, p: u32, e: u32) -> String {
        self.edge_name_at(p, e, None)
    }

    /// `process:src->tgt:event` of an edge taken in a state with integers `ints`: a
    /// channel-array edge names the channel element the state selects (`call[2][5]`), else the
    /// synchronisation as written (`call[j][secrets]!`).
    pub fn edge_name_at(&self, p: u32, e: u32, ints: Option<&[i32]>) -> String {
        let Some(proc_) = self.processes.get(p as usize) else {
            return "?".into();
        };
        let Some(edge) = proc_.edges.get(e as usize) else {
            return "?".into();
        };
        let loc = |l: u32| {
            proc_
                .locations
                .get(l as usize)
                .map_or("?", |x| x.name.as_str())
        };
        format!(
            "{}:{}->{}:{}",
            proc_.name,
            loc(edge.src),
            loc(edge.tgt),
            match (&edge.lazy, ints.and_then(|v| edge.event_at(v))) {
                (Some(_), Some(ev)) => self.events.get(ev as usize).map_or("?", |s| s.as_str()),
                (Some(l), None) => l.label.as_str(),
                (None, _) => self
                    .events
                    .get(edge.event as usize)
                    .map_or("?", |s| s.as_str()),
            }
        )
    }

    /// The model with each channel-array edge whose event depends on the state replaced by one
    /// edge per index value, guarded by `index == value` (for the writers: TChecker's format
    /// has no such edges). Borrowed when there is none.
    pub fn expand_lazy(&self) -> std::borrow::Cow<'_, Model> {
        if self
            .processes
            .iter()
            .all(|p| p.edges.iter().all(|e| e.lazy.is_none()))
        {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut m = self.clone();
        for p in &mut m.processes {
            let mut edges = Vec::new();
            for e in std::mem::take(&mut p.edges) {
                let Some(l) = e.lazy.clone() else {
                    edges.push(e);
                    continue;
                };
                for &(k, ev) in &l.events {
                    let mut g = e.guard.clone();
                    g.ints.push(Expr::Bin(
                        BinOp::Eq,
                        Box::new(l.index.clone()),
                        Box::new(Expr::Const(k)),
                    ));
                    edges.push(Edge {
                        src: e.src,
                        tgt: e.tgt,
                        event: ev,
                        guard: g,
                        stmts: e.stmts.clone(),
                        span: e.span,
                        lazy: None,
                    });
                }
            }
            for o in &mut p.out {
                o.clear();
            }
            for (k, e) in edges.iter().enumerate() {
                if let Some(o) = p.out.get_mut(e.src as usize) {
                    o.push(k as u32);
                }
            }
            p.edges = edges;
        }
        std::borrow::Cow::Owned(m)
    }
    /// An error naming the diagonal constraints when the model has some: the zone
    /// abstractions the searches use (ExtraLU+, ExtraM) are unsound with them.
    pub(crate) fn refuse_diagonals(&self) -> Result<(), verikit_diag::Diagnostic> {
        if self.has_diagonals() {
            return Err(verikit_diag::Diagnostic::error(
                "diagonal clock constraints (`x - y # c`) are not supported: ExtraLU+ and ExtraM are unsound with them",
            ));
        }
        Ok(())
    }

    /// True if some clock constraint compares two clocks.
    pub fn has_diagonals(&self) -> bool {
        self.processes.iter().any(|p| {
            p.locations
                .iter()
                .any(|l| l.invariant.clocks.iter().any(|a| a.y.is_some()))
                || p.edges
                    .iter()
                    .any(|e| e.guard.clocks.iter().any(|a| a.y.is_some()))
        })
    }
}
