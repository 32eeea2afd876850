//! The abstract syntax of DVE, DiVinE's modelling language (as BEEM's models use it), with the
//! byte spans every later error points at.

use verikit_diag::Span;

/// A DVE expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Int(i64, Span),
    /// A variable (global, local of the enclosing process, or a constant).
    Var(String, Span),
    /// `a[i]`.
    Index(String, Box<Expr>, Span),
    /// `P.s`: process `P` is in state `s`.
    InState(String, String, Span),
    /// `P->v` or `P->a[i]`: a local variable of another process.
    Remote(String, String, Option<Box<Expr>>, Span),
    Unary(UnOp, Box<Expr>, Span),
    Binary(BinOp, Box<Expr>, Box<Expr>, Span),
}

impl Expr {
    pub fn span(&self) -> Span {
        match self {
            Expr::Int(_, s)
            | Expr::Var(_, s)
            | Expr::Index(_, _, s)
            | Expr::InState(_, _, s)
            | Expr::Remote(_, _, _, s)
            | Expr::Unary(_, _, s)
            | Expr::Binary(_, _, _, s) => *s,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
    BitNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Mul,
    Div,
    Mod,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
    Imply,
}

/// The type of a variable: DiVinE's `byte` (0..255), `int` (16-bit signed); `bool` is a byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Byte,
    Int,
}

/// A variable or constant declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    pub name: String,
    pub ty: Ty,
    pub is_const: bool,
    /// Array length expression (constant), if an array.
    pub len: Option<Expr>,
    pub init: Vec<Expr>,
    pub span: Span,
}

/// `channel c;` (rendezvous), `channel {byte,int} c[n];` (typed, buffered when `n > 0`).
#[derive(Clone, Debug, PartialEq)]
pub struct ChanDecl {
    pub name: String,
    pub types: Vec<Ty>,
    pub capacity: Option<Expr>,
    pub span: Span,
}

/// An assignable place: `v`, `a[i]`.
#[derive(Clone, Debug, PartialEq)]
pub struct LValue {
    pub name: String,
    pub index: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    Send,
    Recv,
}

/// One field of a receive: a place the value is stored in, or (Promela's `c?0`) a value the
/// field must equal for the receive to be executable.
#[derive(Clone, Debug, PartialEq)]
pub enum RecvArg {
    Store(LValue),
    Match(Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub struct SyncAst {
    pub chan: String,
    pub dir: Dir,
    /// Sent values (`c!e` / `c!(e1, e2)`).
    pub values: Vec<Expr>,
    /// Receiving places (`c?v` / `c?(a, b[i])`), one per message field.
    pub targets: Vec<RecvArg>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TransAst {
    pub from: String,
    pub to: String,
    pub guard: Option<Expr>,
    pub sync: Option<SyncAst>,
    pub effect: Vec<(LValue, Expr)>,
    pub span: Span,
    /// The Promela statement a transition was lowered from (`Dve` for DVE's own transitions):
    /// SPIN's dead-variable reset depends on it (`dead_variables`).
    pub origin: Origin,
}

/// What a transition was in the Promela source (SPIN's statement kinds, as its data-flow
/// analysis distinguishes them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Origin {
    /// A DVE transition.
    #[default]
    Dve,
    /// A condition (an expression statement).
    Cond,
    /// `else`.
    Else,
    /// A receive `c?…`.
    Recv,
    /// A `d_step` (one indivisible transition).
    DStep,
    /// An assignment, a send, `skip`, `goto`, `break`, `assert`.
    Other,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ProcessAst {
    pub name: String,
    pub vars: Vec<VarDecl>,
    pub states: Vec<(String, Span)>,
    pub init: (String, Span),
    pub accept: Vec<(String, Span)>,
    pub commit: Vec<(String, Span)>,
    pub asserts: Vec<(String, Expr, Span)>,
    pub trans: Vec<TransAst>,
    pub span: Span,
}

/// A whole DVE file.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct DveAst {
    pub vars: Vec<VarDecl>,
    pub channels: Vec<ChanDecl>,
    pub processes: Vec<ProcessAst>,
    /// `system sync;` (all processes step together) instead of `system async;`.
    pub synchronous: bool,
    /// `system async property P;`
    pub property: Option<(String, Span)>,
    /// Promela's `atomic` (SPIN's rule): when no process can move while one is committed, the
    /// exclusivity is given up and every process may move. DVE's committed states never yield.
    pub atomic_yields: bool,
    /// Promela's assignments truncate to the variable's type as SPIN's C code does: a value out
    /// of a `byte`'s range wraps modulo 256 instead of being an evaluation error (DVE's rule).
    /// Promela's `short` and `int` are stored in 16 bits here, where a value out of range stays
    /// an evaluation error (SPIN's `int` has 32).
    pub wrap_bytes: bool,
    /// Promela's `ltl name { … }` blocks, in file order (DVE has none): the first is checked
    /// when no other question is asked, as SPIN does.
    pub ltl: Vec<LtlProperty>,
}

/// An LTL property written in the model: the formula in Spot's syntax over propositions
/// `aps` (name = DVE expression).
#[derive(Clone, Debug, PartialEq)]
pub struct LtlProperty {
    pub name: String,
    pub formula: String,
    pub aps: Vec<(String, String)>,
    pub span: Span,
}
