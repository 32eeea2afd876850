//! Abstract syntax of PRISM models and properties (PRISM manual, "The PRISM Language" and
//! "Property Specification"). Every node carries the byte span it was parsed from.

use verikit_diag::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Implies,
    Iff,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Not,
    Neg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    Min,
    Max,
    Floor,
    Ceil,
    Round,
    Pow,
    Mod,
    Log,
}

impl Func {
    pub fn from_name(s: &str) -> Option<Func> {
        Some(match s {
            "min" => Func::Min,
            "max" => Func::Max,
            "floor" => Func::Floor,
            "ceil" => Func::Ceil,
            "round" => Func::Round,
            "pow" => Func::Pow,
            "mod" => Func::Mod,
            "log" => Func::Log,
            _ => return None,
        })
    }
}

/// Optimisation direction of a `=?` query (`Pmin=?`, `R{"r"}max=?`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opt {
    None,
    Min,
    Max,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    pub fn holds(self, a: f64, b: f64) -> bool {
        match self {
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
}

/// `=?` or `~ bound` of a P/R/S operator.
#[derive(Clone, Debug)]
pub enum Bound {
    Query,
    Cmp(CmpOp, Box<Expr>),
}

/// A time/step bound on a temporal operator: `<=k`, `<k`, `>=t`, `>t`, `[a,b]`.
#[derive(Clone, Debug, Default)]
pub struct TimeBound {
    pub lower: Option<(Box<Expr>, bool)>,
    pub upper: Option<(Box<Expr>, bool)>,
    /// The span of a reward bound `^{rew{"r"}<=b}` or `{"r"}<=b` (checkers that do not support
    /// reward bounds refuse it here).
    pub reward_bound: Option<Span>,
    /// The reward bound itself (set together with `reward_bound`).
    pub reward: Option<RewardBound>,
}

/// A bound on the reward accumulated along a path: `rew{"r"} <= b` (upper, `strict` for `<`)
/// or `rew{"r"} >= b` (lower, `strict` for `>`).
#[derive(Clone, Debug)]
pub struct RewardBound {
    pub rew: RewardRef,
    pub upper: bool,
    pub strict: bool,
    pub bound: Box<Expr>,
    pub span: Span,
}

impl TimeBound {
    pub fn is_none(&self) -> bool {
        self.lower.is_none() && self.upper.is_none() && self.reward_bound.is_none()
    }
}

#[derive(Clone, Debug)]
pub enum PathFormula {
    Next(Box<Expr>),
    /// `lhs U rhs` (`F rhs` is `true U rhs`).
    Until(Box<Expr>, Box<Expr>, TimeBound),
    /// `G e` with its bound.
    Globally(Box<Expr>, TimeBound),
    /// The complement of a path formula: weak until `a W b` is read as
    /// `!((a & !b) U (!a & !b))` and release `a R b` as `!(!a U !b)`, bounds kept, as PRISM
    /// does (`ExpressionTemporal.convertToUntilForm`). `P=?` of it is one minus `P=?` of the
    /// inner formula with min and max exchanged.
    Not(Box<PathFormula>),
    /// A general LTL path formula (PRISM manual, "Property Specification: LTL"): any nesting
    /// of temporal and Boolean operators over state formulas. Path formulas of the PCTL shapes
    /// above never take this form.
    Ltl(Box<Ltl>),
}

/// An LTL path formula over state formulas (PRISM's `ExpressionTemporal` trees). Bounds are
/// kept as written; the checker expands step bounds into `X` or refuses them.
#[derive(Clone, Debug)]
pub enum Ltl {
    /// A state formula (a label, an expression, a nested `P`/`R` operator).
    Atom(Box<Expr>),
    Not(Box<Ltl>),
    And(Box<Ltl>, Box<Ltl>),
    Or(Box<Ltl>, Box<Ltl>),
    Implies(Box<Ltl>, Box<Ltl>),
    Iff(Box<Ltl>, Box<Ltl>),
    Next(Box<Ltl>, Span),
    Finally(Box<Ltl>, TimeBound, Span),
    Globally(Box<Ltl>, TimeBound, Span),
    Until(Box<Ltl>, Box<Ltl>, TimeBound, Span),
    WeakUntil(Box<Ltl>, Box<Ltl>, TimeBound, Span),
    Release(Box<Ltl>, Box<Ltl>, TimeBound, Span),
}

impl Ltl {
    /// The operands of the top operator (none for an atom), left to right.
    fn operands(&self) -> [Option<&Ltl>; 2] {
        match self {
            Ltl::Atom(_) => [None, None],
            Ltl::Not(a) | Ltl::Next(a, _) | Ltl::Finally(a, _, _) | Ltl::Globally(a, _, _) => {
                [Some(a), None]
            }
            Ltl::And(a, b)
            | Ltl::Or(a, b)
            | Ltl::Implies(a, b)
            | Ltl::Iff(a, b)
            | Ltl::Until(a, b, _, _)
            | Ltl::WeakUntil(a, b, _, _)
            | Ltl::Release(a, b, _, _) => [Some(a), Some(b)],
        }
    }

    /// The state formulas at the leaves, left to right.
    pub fn atoms(&self) -> Vec<&Expr> {
        let mut out = Vec::new();
        let mut todo = vec![self];
        while let Some(l) = todo.pop() {
            if let Ltl::Atom(e) = l {
                out.push(e.as_ref());
            }
            todo.extend(l.operands().into_iter().rev().flatten());
        }
        out
    }

    /// Visits the state formulas ([`Expr::walk_deep`]).
    pub fn walk_deep(&self, f: &mut dyn FnMut(&Expr)) {
        for e in self.atoms() {
            e.walk_deep(f)
        }
    }
}

#[derive(Clone, Debug)]
pub enum RewardPath {
    /// `F e`
    Reach(Box<Expr>),
    /// `C<=k`
    Cumul(Box<Expr>),
    /// `I=k`
    Inst(Box<Expr>),
    /// `S` (long-run average)
    Steady,
    /// `C` without a bound: the total reward accumulated along the whole path.
    Total,
    /// Any other path formula: the reward accumulated until a co-safe LTL formula is satisfied
    /// (PRISM's `checkRewardCoSafeLTL`), with the span of the formula.
    Ltl(Box<Ltl>, Span),
}

#[derive(Clone, Debug)]
pub enum RewardRef {
    Default,
    /// `T=? […]`: expected time (CTMC) or steps (DTMC/MDP), as in Storm.
    Time,
    Name(String, Span),
    Index(Box<Expr>),
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    Real(f64),
    Bool(bool),
    Ident(String),
    /// A label reference `"name"` (properties only).
    Label(String),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    Call(Func, Vec<Expr>),
    Prob {
        opt: Opt,
        bound: Bound,
        path: Box<PathFormula>,
    },
    Reward {
        rew: RewardRef,
        opt: Opt,
        bound: Bound,
        path: Box<RewardPath>,
    },
    Steady {
        bound: Bound,
        expr: Box<Expr>,
    },
    Filter {
        op: String,
        prop: Box<Expr>,
        states: Option<Box<Expr>>,
    },
    /// CTL's path quantifiers `A [ … ]` (`forall`) and `E [ … ]` over the paths of the model's
    /// underlying graph (every choice, every transition of positive probability).
    Ctl {
        forall: bool,
        path: Box<PathFormula>,
    },
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
    pub fn boolean(b: bool, span: Span) -> Expr {
        Expr::new(ExprKind::Bool(b), span)
    }
    /// Visits every sub-expression (pre-order), including those inside property operators.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Unary(_, a) => a.walk(f),
            ExprKind::Binary(_, a, b) => {
                a.walk(f);
                b.walk(f)
            }
            ExprKind::Ite(a, b, c) => {
                a.walk(f);
                b.walk(f);
                c.walk(f)
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| a.walk(f)),
            _ => {}
        }
    }
    /// Visits every sub-expression (pre-order), inside P/R/S operators, CTL quantifiers and
    /// filters too.
    pub fn walk_deep(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Unary(_, a) => a.walk_deep(f),
            ExprKind::Binary(_, a, b) => {
                a.walk_deep(f);
                b.walk_deep(f)
            }
            ExprKind::Ite(a, b, c) => {
                a.walk_deep(f);
                b.walk_deep(f);
                c.walk_deep(f)
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| a.walk_deep(f)),
            ExprKind::Prob { path, .. } | ExprKind::Ctl { path, .. } => path.walk_deep(f),
            ExprKind::Reward { path, .. } => match path.as_ref() {
                RewardPath::Reach(a) => a.walk_deep(f),
                RewardPath::Ltl(l, _) => l.walk_deep(f),
                _ => {}
            },
            ExprKind::Steady { expr, .. } => expr.walk_deep(f),
            ExprKind::Filter { prop, states, .. } => {
                prop.walk_deep(f);
                if let Some(s) = states {
                    s.walk_deep(f)
                }
            }
            _ => {}
        }
    }
}

impl PathFormula {
    /// Visits the state formulas of the path formula ([`Expr::walk_deep`]).
    pub fn walk_deep(&self, f: &mut dyn FnMut(&Expr)) {
        match self {
            PathFormula::Next(a) | PathFormula::Globally(a, _) => a.walk_deep(f),
            PathFormula::Until(a, b, _) => {
                a.walk_deep(f);
                b.walk_deep(f)
            }
            PathFormula::Not(inner) => inner.walk_deep(f),
            PathFormula::Ltl(l) => l.walk_deep(f),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelType {
    Dtmc,
    Ctmc,
    Mdp,
    /// Interval DTMC (`idtmc`): transition probabilities are intervals `[l,u]`.
    Idtmc,
    /// Interval MDP (`imdp`).
    Imdp,
}

impl ModelType {
    pub fn name(self) -> &'static str {
        match self {
            ModelType::Dtmc => "DTMC",
            ModelType::Ctmc => "CTMC",
            ModelType::Mdp => "MDP",
            ModelType::Idtmc => "IDTMC",
            ModelType::Imdp => "IMDP",
        }
    }
    pub fn nondeterministic(self) -> bool {
        matches!(self, ModelType::Mdp | ModelType::Imdp)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    Int,
    Double,
    Bool,
}

impl Type {
    pub fn name(self) -> &'static str {
        match self {
            Type::Int => "int",
            Type::Double => "double",
            Type::Bool => "bool",
        }
    }
}

#[derive(Clone, Debug)]
pub struct ConstDecl {
    pub name: String,
    pub ty: Type,
    pub value: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum VarType {
    Bool,
    Range(Expr, Expr),
    /// `x : int` (PRISM) / JANI `int`: no declared bounds; the builder grows the variable's range
    /// as it finds values.
    Unbounded,
}

#[derive(Clone, Debug)]
pub struct VarDecl {
    pub name: String,
    pub ty: VarType,
    pub init: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ProbSpec {
    Point(Expr),
    Interval(Expr, Expr),
}

#[derive(Clone, Debug)]
pub struct Assign {
    pub var: String,
    pub span: Span,
    pub value: Expr,
}

#[derive(Clone, Debug)]
pub struct Update {
    /// `None` for the single-update form `guard -> (x'=1);` (probability/rate 1).
    pub prob: Option<ProbSpec>,
    pub assigns: Vec<Assign>,
    /// Rewards earned when this update is taken, by reward-structure name (no PRISM syntax:
    /// JANI's assignments to transient variables on edge destinations).
    pub rewards: Vec<(String, Expr)>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Command {
    pub action: Option<String>,
    pub action_span: Span,
    pub guard: Expr,
    pub updates: Vec<Update>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Module {
    pub name: String,
    pub vars: Vec<VarDecl>,
    pub commands: Vec<Command>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Renaming {
    pub name: String,
    pub base: String,
    pub base_span: Span,
    pub pairs: Vec<(String, String, Span)>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ModuleDecl {
    Plain(Module),
    Renamed(Renaming),
}

#[derive(Clone, Debug)]
pub struct RewardItem {
    /// `None` for a state reward; `Some(None)` for `[]`, `Some(Some(a))` for `[a]`.
    pub action: Option<Option<String>>,
    pub guard: Expr,
    pub value: Expr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct RewardStruct {
    pub name: Option<String>,
    pub items: Vec<RewardItem>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct NamedExpr {
    pub name: String,
    pub expr: Expr,
    pub span: Span,
}

/// A process-algebra term of `system … endsystem` (PRISM manual, "Process Algebra Operators").
#[derive(Clone, Debug)]
pub enum SysExpr {
    Module(String, Span),
    /// `M1 || M2 || …`: synchronisation on the actions both sides have.
    Full(Vec<SysExpr>),
    /// `M1 ||| M2 ||| …`: interleaving, no synchronisation.
    Interleave(Vec<SysExpr>),
    /// `M1 |[a,b]| M2`: synchronisation on the listed actions only.
    Restricted(Box<SysExpr>, Vec<(String, Span)>, Box<SysExpr>),
    /// `M / {a,b}`: the listed actions become unlabelled.
    Hide(Box<SysExpr>, Vec<(String, Span)>),
    /// `M {a<-b}`: action `a` is renamed to `b`.
    Rename(Box<SysExpr>, Vec<(String, String, Span)>),
}

/// A parsed model file.
#[derive(Clone, Debug)]
pub struct ModelFile {
    pub model_type: ModelType,
    pub consts: Vec<ConstDecl>,
    pub formulas: Vec<NamedExpr>,
    pub labels: Vec<NamedExpr>,
    pub globals: Vec<VarDecl>,
    pub modules: Vec<ModuleDecl>,
    pub init: Option<Expr>,
    pub rewards: Vec<RewardStruct>,
    /// The `system … endsystem` block, if any (with its span).
    pub system: Option<(SysExpr, Span)>,
}

#[derive(Clone, Debug)]
pub struct Property {
    pub name: Option<String>,
    pub expr: Expr,
    pub span: Span,
}

/// A parsed properties file.
#[derive(Clone, Debug, Default)]
pub struct PropertiesFile {
    pub consts: Vec<ConstDecl>,
    pub formulas: Vec<NamedExpr>,
    pub labels: Vec<NamedExpr>,
    pub properties: Vec<Property>,
}
