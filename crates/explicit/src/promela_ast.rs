//! The abstract syntax of the Promela subset that BEEM's translations use (Holzmann, *The SPIN
//! Model Checker*, 2003, ch. 3 and the Promela reference): global and local scalars and arrays,
//! channels, proctypes (`active` or started by `init`), `if`/`do` with guarded options, labels and
//! `goto`, `atomic`, `d_step`, assignments, channel operations, `assert`, `never` claims.
//! Expressions reuse the DVE expression tree (`dve_ast::Expr`): the two languages share C's
//! operators.

use crate::dve_ast::{Expr, LValue, LtlProperty, RecvArg, Ty};
use verikit_diag::Span;

/// A statement with the labels in front of it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Step {
    pub(crate) labels: Vec<(String, Span)>,
    pub(crate) stmt: Stmt,
    pub(crate) span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Stmt {
    /// An expression statement: executable when non-zero.
    Cond(Expr),
    Assign(LValue, Expr),
    Send(String, Vec<Expr>, Span),
    Recv(String, Vec<RecvArg>, Span),
    If(Vec<Vec<Step>>),
    Do(Vec<Vec<Step>>),
    Goto(String, Span),
    Break,
    Skip,
    /// A label with no statement after it (end of a sequence): no step of its own.
    Empty,
    Else,
    Atomic(Vec<Step>),
    DStep(Vec<Step>),
    Assert(Expr),
    /// `run P(args)`: the proctype, its arguments, the span of the call.
    Run(String, Vec<Expr>, Span),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct VarDef {
    pub(crate) name: String,
    pub(crate) ty: Ty,
    pub(crate) len: Option<Expr>,
    pub(crate) init: Option<Expr>,
    pub(crate) span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ChanDef {
    pub(crate) name: String,
    pub(crate) capacity: Expr,
    pub(crate) types: Vec<Ty>,
    pub(crate) span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Proctype {
    pub(crate) name: String,
    /// `active [n]`: the number of instances started at the beginning (0 = not active).
    pub(crate) active: Option<Expr>,
    /// Parameters in order: a scalar (`Some(type)`) or a channel (`None`).
    pub(crate) params: Vec<(String, Option<Ty>, Span)>,
    pub(crate) locals: Vec<VarDef>,
    pub(crate) body: Vec<Step>,
    pub(crate) span: Span,
}

/// A whole Promela file.
#[derive(Clone, Debug, PartialEq, Default)]
pub(crate) struct PromelaAst {
    pub(crate) vars: Vec<VarDef>,
    pub(crate) chans: Vec<ChanDef>,
    pub(crate) procs: Vec<Proctype>,
    pub(crate) init: Option<(Vec<Step>, Span)>,
    pub(crate) never: Option<(Vec<Step>, Span)>,
    /// `ltl name { … }` blocks (`promela_ltl`).
    pub(crate) ltl: Vec<LtlProperty>,
}
