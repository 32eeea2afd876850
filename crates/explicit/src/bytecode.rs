//! Expressions and effects compiled once per model to a small stack bytecode over the packed
//! state (no syntax tree is walked per transition). DVE semantics (DiVinE's interpreter): values
//! are computed as 32-bit integers; storing into a `byte` keeps the low 8 bits and into an `int`
//! the low 16 bits (two's complement); division or remainder by zero and an array index out of
//! bounds are evaluation errors, reported with the offending expression, never ignored.

use crate::dve_ast::{BinOp, UnOp};
use verikit_diag::Span;

/// Width of a stored value: 1 = unsigned byte, 2 = signed 16-bit little-endian.
pub(crate) type Width = u8;

#[derive(Clone, Debug)]
pub(crate) enum Op {
    Const(i32),
    Load {
        off: u32,
        w: Width,
    },
    /// Pops an index.
    LoadIdx {
        off: u32,
        w: Width,
        len: u32,
    },
    InState {
        off: u32,
        st: u8,
    },
    Un(UnOp),
    /// A non-short-circuit binary operator.
    Bin(BinOp),
    /// If the top is 0, jump keeping it; else pop it.
    JzKeep(u32),
    /// If the top is non-0, replace it by 1 and jump; else pop it.
    JnzOne(u32),
    /// Normalises the top to 0/1.
    Bool,
    /// Pops a value and stores it.
    Store {
        off: u32,
        w: Width,
    },
    /// Pops an index, then a value, and stores it.
    StoreIdx {
        off: u32,
        w: Width,
        len: u32,
    },
    /// Fused `Load; Const(c); Bin(op)`: pushes `var op c` (one dispatch for the common
    /// `var == const` guard and the right-hand side of `var = var + const`).
    LoadBinConst {
        off: u32,
        w: Width,
        op: BinOp,
        c: i32,
    },
    /// Fused `Load; Load; Bin(op)`: pushes `a op b` of two variables.
    LoadBinLoad {
        off: u32,
        w: Width,
        op: BinOp,
        off2: u32,
        w2: Width,
    },
    /// Fused `Const(c); Store`: stores a constant.
    StoreConst {
        off: u32,
        w: Width,
        c: i32,
    },
    /// Fused `Load; Store`: `dst = src` (the common `x = y`).
    Copy {
        off: u32,
        w: Width,
        src: u32,
        sw: Width,
    },
    /// Fused `LoadBinConst; Store`: `dst = src op c` (the common `x = x + 1`), for an `op` that
    /// cannot fail (not `/` or `%`, whose errors name the operator's own span).
    AssignBinConst {
        off: u32,
        w: Width,
        src: u32,
        sw: Width,
        op: BinOp,
        c: i32,
    },
}

/// What went wrong while evaluating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalErrorKind {
    DivisionByZero,
    IndexOutOfBounds,
    /// A value outside the range of the variable it is assigned to.
    OutOfRange,
}

impl EvalErrorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EvalErrorKind::DivisionByZero => "division by zero",
            EvalErrorKind::IndexOutOfBounds => "array index out of bounds",
            EvalErrorKind::OutOfRange => "value out of the variable's range",
        }
    }
}

/// An evaluation error and the expression it happened in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalError {
    pub kind: EvalErrorKind,
    pub span: Span,
}

/// A compiled expression or statement list.
#[derive(Clone, Debug, Default)]
pub(crate) struct Prog {
    pub(crate) ops: Vec<Op>,
    /// The source span of each op (for evaluation errors).
    pub(crate) spans: Vec<Span>,
    /// When the program is a conjunction of comparisons of a variable with a constant or with
    /// another variable (the common guard `a == 1 && b < c`): those comparisons, evaluated
    /// without the operand stack and without dispatch on each op.
    conj: Option<Vec<Atom>>,
    /// Stores of a byte wrap modulo 256 instead of failing (`DveAst::wrap_bytes`).
    wrap_bytes: bool,
}

/// One comparison of a conjunctive guard.
#[derive(Clone, Copy, Debug)]
enum Atom {
    Const {
        off: u32,
        w: Width,
        op: BinOp,
        c: i32,
    },
    Var {
        off: u32,
        w: Width,
        op: BinOp,
        off2: u32,
        w2: Width,
    },
}

fn is_comparison(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    )
}

#[inline(always)]
fn compare(op: BinOp, a: i32, b: i32) -> bool {
    match op {
        BinOp::Eq => a == b,
        BinOp::Ne => a != b,
        BinOp::Lt => a < b,
        BinOp::Le => a <= b,
        BinOp::Gt => a > b,
        _ => a >= b,
    }
}

impl Atom {
    #[inline(always)]
    fn holds(&self, st: &[u8]) -> bool {
        match *self {
            Atom::Const { off, w, op, c } => compare(op, load(st, off as usize, w), c),
            Atom::Var {
                off,
                w,
                op,
                off2,
                w2,
            } => compare(op, load(st, off as usize, w), load(st, off2 as usize, w2)),
        }
    }
}

/// The comparisons of `ops` if it is a tree of `&&` over comparisons (the only ops `&&`
/// compiles to are `JzKeep` and `Bool`; `||` and `=>` add `JnzOne`, negation `Un`).
fn conjunction(ops: &[Op]) -> Option<Vec<Atom>> {
    let mut atoms = Vec::new();
    for op in ops {
        match *op {
            Op::LoadBinConst { off, w, op, c } if is_comparison(op) => {
                atoms.push(Atom::Const { off, w, op, c })
            }
            Op::LoadBinLoad {
                off,
                w,
                op,
                off2,
                w2,
            } if is_comparison(op) => atoms.push(Atom::Var {
                off,
                w,
                op,
                off2,
                w2,
            }),
            Op::JzKeep(_) | Op::Bool => {}
            _ => return None,
        }
    }
    (!atoms.is_empty()).then_some(atoms)
}

#[inline(always)]
pub(crate) fn load(st: &[u8], off: usize, w: Width) -> i32 {
    if w == 1 {
        st.get(off).map_or(0, |&b| i32::from(b))
    } else {
        match (st.get(off), st.get(off + 1)) {
            (Some(&a), Some(&b)) => i32::from(i16::from_le_bytes([a, b])),
            _ => 0,
        }
    }
}

#[inline]
pub(crate) fn store(st: &mut [u8], off: usize, w: Width, v: i32) {
    if w == 1 {
        if let Some(b) = st.get_mut(off) {
            *b = v as u8;
        }
    } else {
        let [a, b] = (v as i16).to_le_bytes();
        if let Some(x) = st.get_mut(off) {
            *x = a;
        }
        if let Some(x) = st.get_mut(off + 1) {
            *x = b;
        }
    }
}

/// Does `v` fit a variable of width `w` (byte 0..=255, int -32768..=32767)?
#[inline]
pub(crate) fn fits(v: i32, w: Width) -> bool {
    if w == 1 {
        (0..=255).contains(&v)
    } else {
        (-32768..=32767).contains(&v)
    }
}

#[inline]
pub(crate) fn bin(op: BinOp, a: i32, b: i32) -> Option<i32> {
    Some(match op {
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div => {
            if b == 0 {
                return None;
            }
            a.wrapping_div(b)
        }
        BinOp::Mod => {
            if b == 0 {
                return None;
            }
            a.wrapping_rem(b)
        }
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Shl => a.wrapping_shl(b as u32),
        BinOp::Shr => a.wrapping_shr(b as u32),
        BinOp::Lt => i32::from(a < b),
        BinOp::Le => i32::from(a <= b),
        BinOp::Gt => i32::from(a > b),
        BinOp::Ge => i32::from(a >= b),
        BinOp::Eq => i32::from(a == b),
        BinOp::Ne => i32::from(a != b),
        BinOp::BitAnd => a & b,
        BinOp::BitXor => a ^ b,
        BinOp::BitOr => a | b,
        BinOp::And => i32::from(a != 0 && b != 0),
        BinOp::Or => i32::from(a != 0 || b != 0),
        BinOp::Imply => i32::from(a == 0 || b != 0),
    })
}

pub(crate) fn un(op: UnOp, a: i32) -> i32 {
    match op {
        UnOp::Neg => a.wrapping_neg(),
        UnOp::Not => i32::from(a == 0),
        UnOp::BitNot => !a,
    }
}

impl Prog {
    /// Appends an op, fusing it with the ops before it into one superinstruction where the
    /// shape allows (`Load; Const; Bin`, `Load; Load; Bin`, `Const; Store`, `Load; Store`,
    /// `LoadBinConst; Store` with an operator that cannot fail). Fusion only
    /// rewrites the last ops of the program, which no jump targets: jumps point to the end of a
    /// finished sub-expression, whose last op is `Bool`.
    pub(crate) fn push(&mut self, op: Op, span: Span) {
        self.push_fused(op, span);
        self.conj = conjunction(&self.ops);
    }

    /// Replaces the op at `at` (a jump placeholder, once its target is known).
    pub(crate) fn patch(&mut self, at: usize, op: Op) {
        if let Some(o) = self.ops.get_mut(at) {
            *o = op;
        }
        self.conj = conjunction(&self.ops);
    }

    fn push_fused(&mut self, op: Op, span: Span) {
        // A constant index in range addresses one element: `Const(i); LoadIdx` is a `Load`,
        // `Const(i); StoreIdx` a `Store` (which may fuse further with the ops before).
        if let (Some(&Op::Const(i)), Op::LoadIdx { off, w, len } | Op::StoreIdx { off, w, len }) =
            (self.ops.last(), &op)
        {
            if (0..*len as i64).contains(&i64::from(i)) {
                let off = *off + i as u32 * u32::from(*w);
                let w = *w;
                let single = match op {
                    Op::LoadIdx { .. } => Op::Load { off, w },
                    _ => Op::Store { off, w },
                };
                self.ops.pop();
                self.spans.pop();
                return self.push_fused(single, span);
            }
        }
        let n = self.ops.len();
        let fused = match (n.checked_sub(2).and_then(|i| self.ops.get(i..)), &op) {
            (Some([Op::Load { off, w }, Op::Const(c)]), Op::Bin(b)) => Some(Op::LoadBinConst {
                off: *off,
                w: *w,
                op: *b,
                c: *c,
            }),
            (Some([Op::Load { off, w }, Op::Load { off: off2, w: w2 }]), Op::Bin(b)) => {
                Some(Op::LoadBinLoad {
                    off: *off,
                    w: *w,
                    op: *b,
                    off2: *off2,
                    w2: *w2,
                })
            }
            _ => None,
        };
        if let Some(f) = fused {
            self.ops.truncate(n - 2);
            self.spans.truncate(n - 2);
            self.ops.push(f);
            self.spans.push(span);
            return;
        }
        let assign = match (self.ops.last(), &op) {
            (Some(Op::Const(c)), Op::Store { off, w }) => Some(Op::StoreConst {
                off: *off,
                w: *w,
                c: *c,
            }),
            (Some(Op::Load { off: src, w: sw }), Op::Store { off, w }) => Some(Op::Copy {
                off: *off,
                w: *w,
                src: *src,
                sw: *sw,
            }),
            (
                Some(Op::LoadBinConst {
                    off: src,
                    w: sw,
                    op: b,
                    c,
                }),
                Op::Store { off, w },
            ) if !matches!(b, BinOp::Div | BinOp::Mod) => Some(Op::AssignBinConst {
                off: *off,
                w: *w,
                src: *src,
                sw: *sw,
                op: *b,
                c: *c,
            }),
            _ => None,
        };
        if let Some(f) = assign {
            self.ops.pop();
            self.spans.pop();
            self.ops.push(f);
            self.spans.push(span);
            return;
        }
        self.ops.push(op);
        self.spans.push(span);
    }

    /// An empty program whose byte stores wrap when `wrap_bytes` (`DveAst::wrap_bytes`).
    pub(crate) fn storing(wrap_bytes: bool) -> Prog {
        Prog {
            wrap_bytes,
            ..Prog::default()
        }
    }

    /// The value a store of `v` into a variable of width `w` writes: `v` if it fits, wrapped
    /// for a byte under [`Prog::wrap_bytes`], else the out-of-range error of the op before `pc`.
    #[inline]
    fn fit(&self, v: i32, w: Width, pc: usize) -> Result<i32, EvalError> {
        if fits(v, w) {
            Ok(v)
        } else if self.wrap_bytes && w == 1 {
            Ok(v & 0xff)
        } else {
            Err(self.fail(pc - 1, EvalErrorKind::OutOfRange))
        }
    }

    fn fail(&self, pc: usize, kind: EvalErrorKind) -> EvalError {
        EvalError {
            kind,
            span: self.spans.get(pc).copied().unwrap_or_default(),
        }
    }

    /// Runs the program on `st` (stores write into it) with `stack` as the operand stack (values
    /// already on it are operands of the first stores). Returns the top of the stack (0 if empty).
    pub(crate) fn exec(&self, st: &mut [u8], stack: &mut Vec<i32>) -> Result<i32, EvalError> {
        if let Some(atoms) = &self.conj {
            return Ok(i32::from(atoms.iter().all(|a| a.holds(st))));
        }
        let mut pc = 0;
        while let Some(op) = self.ops.get(pc) {
            pc += 1;
            match *op {
                Op::Const(c) => stack.push(c),
                Op::Load { off, w } => stack.push(load(st, off as usize, w)),
                Op::LoadIdx { off, w, len } => {
                    let i = stack.pop().unwrap_or(0);
                    if i < 0 || i as u32 >= len {
                        return Err(self.fail(pc - 1, EvalErrorKind::IndexOutOfBounds));
                    }
                    stack.push(load(st, off as usize + i as usize * w as usize, w));
                }
                Op::InState { off, st: s } => {
                    stack.push(i32::from(st.get(off as usize) == Some(&s)))
                }
                Op::Un(u) => {
                    let a = stack.pop().unwrap_or(0);
                    stack.push(un(u, a));
                }
                Op::Bin(b) => {
                    let y = stack.pop().unwrap_or(0);
                    let x = stack.pop().unwrap_or(0);
                    match bin(b, x, y) {
                        Some(v) => stack.push(v),
                        None => return Err(self.fail(pc - 1, EvalErrorKind::DivisionByZero)),
                    }
                }
                Op::JzKeep(t) => {
                    if stack.last().copied().unwrap_or(0) == 0 {
                        pc = t as usize;
                    } else {
                        stack.pop();
                    }
                }
                Op::JnzOne(t) => {
                    if stack.last().copied().unwrap_or(0) != 0 {
                        if let Some(x) = stack.last_mut() {
                            *x = 1;
                        }
                        pc = t as usize;
                    } else {
                        stack.pop();
                    }
                }
                Op::Bool => {
                    if let Some(x) = stack.last_mut() {
                        *x = i32::from(*x != 0);
                    }
                }
                Op::Store { off, w } => {
                    let v = self.fit(stack.pop().unwrap_or(0), w, pc)?;
                    store(st, off as usize, w, v);
                }
                Op::LoadBinConst { off, w, op, c } => match bin(op, load(st, off as usize, w), c) {
                    Some(v) => stack.push(v),
                    None => return Err(self.fail(pc - 1, EvalErrorKind::DivisionByZero)),
                },
                Op::LoadBinLoad {
                    off,
                    w,
                    op,
                    off2,
                    w2,
                } => match bin(op, load(st, off as usize, w), load(st, off2 as usize, w2)) {
                    Some(v) => stack.push(v),
                    None => return Err(self.fail(pc - 1, EvalErrorKind::DivisionByZero)),
                },
                Op::StoreConst { off, w, c } => {
                    let c = self.fit(c, w, pc)?;
                    store(st, off as usize, w, c);
                }
                Op::Copy { off, w, src, sw } => {
                    let v = self.fit(load(st, src as usize, sw), w, pc)?;
                    store(st, off as usize, w, v);
                }
                Op::AssignBinConst {
                    off,
                    w,
                    src,
                    sw,
                    op,
                    c,
                } => {
                    let v = self.fit(bin(op, load(st, src as usize, sw), c).unwrap_or(0), w, pc)?;
                    store(st, off as usize, w, v);
                }
                Op::StoreIdx { off, w, len } => {
                    let i = stack.pop().unwrap_or(0);
                    let v = stack.pop().unwrap_or(0);
                    if i < 0 || i as u32 >= len {
                        return Err(self.fail(pc - 1, EvalErrorKind::IndexOutOfBounds));
                    }
                    let v = self.fit(v, w, pc)?;
                    store(st, off as usize + i as usize * w as usize, w, v);
                }
            }
        }
        Ok(stack.pop().unwrap_or(0))
    }
}
