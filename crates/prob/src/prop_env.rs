//! The environment properties are compiled in, shared by the core checker (`check`) and the
//! interval-model checker (`robust_check`): the names a properties file sees (model and property
//! constants, formulas, labels, variable types) and the compilation of state formulas, where
//! each checker resolves labels and probabilistic operators itself (`special`).

use crate::error::ProbError;
use crate::lang::ast::*;
use crate::lang::expr::{CExpr, Value};
use crate::lang::typecheck::{compile, eval_constants, Program, Scope};
use crate::model::Model;
use std::collections::HashMap;
use std::sync::Arc;
use verikit_diag::{Diagnostic, Span};

type R<T> = Result<T, ProbError>;

/// The answer of one property.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Bool(bool),
    Num(f64),
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Answer::Bool(b) => write!(f, "{b}"),
            Answer::Num(x) if x.is_infinite() => write!(f, "Infinity"),
            Answer::Num(x) => write!(f, "{x}"),
        }
    }
}

/// A located input error.
pub(crate) fn input(sp: Span, msg: impl Into<String>) -> ProbError {
    ProbError::Input(Diagnostic::at(sp, msg))
}

/// A property's answer from its compiled expression: the value in the first initial state, with
/// the range over all initial states when they differ (Booleans: true iff true in all of them).
pub(crate) fn initial_answer(m: &Model, c: &CExpr, t: Type) -> R<(Answer, Option<(f64, f64)>)> {
    let mut cur = vec![0i64; m.vars.len()];
    let mut vals = Vec::new();
    for &s in &m.initial {
        m.valuation(s as usize, &mut cur);
        vals.push(c.eval(&cur, s as usize).map_err(ProbError::Input)?);
    }
    Ok(if t == Type::Bool {
        (Answer::Bool(vals.iter().all(|v| v.as_bool())), None)
    } else {
        let xs: Vec<f64> = vals.iter().map(|v| v.as_f64()).collect();
        let lo = xs.iter().cloned().fold(f64::INFINITY, f64::min);
        let hi = xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        (
            Answer::Num(xs.first().copied().unwrap_or(f64::NAN)),
            if lo != hi { Some((lo, hi)) } else { None },
        )
    })
}

/// What a property evaluates to ([`StateFormulas::evaluate`]).
pub(crate) struct Evaluated {
    pub(crate) answer: Answer,
    /// Values over all initial states, when there are several and they differ.
    pub(crate) init_range: Option<(f64, f64)>,
    /// Every state's value, when asked for (not for a `filter`).
    pub(crate) state_values: Option<Vec<f64>>,
}

/// The names visible to a properties file.
pub(crate) struct Names {
    pub(crate) consts: HashMap<String, Value>,
    pub(crate) formulas: HashMap<String, Expr>,
    pub(crate) labels: HashMap<String, Expr>,
    /// Named properties (`"p1": …`), which other properties may use as `"p1"`.
    pub(crate) properties: HashMap<String, Expr>,
    pub(crate) var_types: Vec<Type>,
}

impl Names {
    /// The model's constants and formulas extended by the properties file's; undefined property
    /// constants come from `overrides`.
    pub(crate) fn new(
        prog: &Program,
        props: &PropertiesFile,
        overrides: &[(String, String)],
    ) -> R<Arc<Names>> {
        let mut formulas = prog.formulas.clone();
        for f in &props.formulas {
            formulas.insert(f.name.clone(), f.expr.clone());
        }
        let mut consts: HashMap<String, Value> = prog.constants.iter().cloned().collect();
        eval_constants(&props.consts, overrides, &mut consts, &formulas)?;
        let labels = props
            .labels
            .iter()
            .map(|l| (l.name.clone(), l.expr.clone()))
            .collect();
        let properties = property_references(prog, props, &labels)?;
        let var_types = prog
            .vars
            .iter()
            .map(|v| if v.is_bool { Type::Bool } else { Type::Int })
            .collect();
        Ok(Arc::new(Names {
            consts,
            formulas,
            labels,
            properties,
            var_types,
        }))
    }
}

/// The named properties, after checking that references between them (`"p1"` inside another
/// property, where no label of that name exists) form no cycle; a cycle is refused at the
/// reference that closes it, as PRISM refuses cyclic property references.
fn property_references(
    prog: &Program,
    props: &PropertiesFile,
    labels: &HashMap<String, Expr>,
) -> R<HashMap<String, Expr>> {
    let named: HashMap<String, Expr> = props
        .properties
        .iter()
        .filter_map(|p| Some((p.name.clone()?, p.expr.clone())))
        .collect();
    let is_ref = |l: &str| {
        named.contains_key(l)
            && !labels.contains_key(l)
            && !prog.labels.iter().any(|(n, _)| n == l)
            && !matches!(l, "init" | "deadlock")
    };
    // The references of each named property, with their spans.
    let refs: HashMap<&str, Vec<(String, Span)>> = named
        .iter()
        .map(|(n, e)| {
            let mut out = Vec::new();
            e.walk_deep(&mut |x| {
                if let ExprKind::Label(l) = &x.kind {
                    if is_ref(l) {
                        out.push((l.clone(), x.span));
                    }
                }
            });
            (n.as_str(), out)
        })
        .collect();
    // Depth-first search for a cycle (0 = new, 1 = on the stack, 2 = done).
    fn dfs(
        n: &str,
        refs: &HashMap<&str, Vec<(String, Span)>>,
        mark: &mut HashMap<String, u8>,
    ) -> Result<(), Diagnostic> {
        mark.insert(n.to_string(), 1);
        for (m, sp) in refs.get(n).map(|v| v.as_slice()).unwrap_or(&[]) {
            match mark.get(m.as_str()).copied().unwrap_or(0) {
                1 => {
                    return Err(Diagnostic::at(
                        *sp,
                        format!("cyclic reference to property \"{m}\" (from \"{n}\")"),
                    ))
                }
                0 => dfs(m, refs, mark)?,
                _ => {}
            }
        }
        mark.insert(n.to_string(), 2);
        Ok(())
    }
    let mut mark = HashMap::new();
    // In file order, so the error names the first cycle a reader meets.
    for p in &props.properties {
        if let Some(n) = &p.name {
            if mark.get(n.as_str()).copied().unwrap_or(0) == 0 {
                dfs(n, &refs, &mut mark).map_err(ProbError::Input)?;
            }
        }
    }
    Ok(named)
}

/// A `P` or `R` operator as written: its direction word, its bound and where it stands.
#[derive(Clone, Copy)]
pub(crate) struct OpAt<'e> {
    pub(crate) opt: Opt,
    pub(crate) bound: &'e Bound,
    pub(crate) sp: Span,
}

/// Compilation of property expressions over a built model; `special` resolves what plain
/// expression compilation cannot (labels, `P`/`R`/`S` operators, filters, CTL's `A`/`E`) into
/// per-state vectors, each operator's values computed by the checker (`prob_values`, …).
pub(crate) trait StateFormulas<'a> {
    /// The model, its program and the names the properties see.
    fn parts(&self) -> (&'a Model, &'a Program, &Arc<Names>);
    fn model(&self) -> &'a Model {
        self.parts().0
    }
    fn program(&self) -> &'a Program {
        self.parts().1
    }
    fn names(&self) -> Arc<Names> {
        self.parts().2.clone()
    }
    /// The per-state values of `P opt bound [ path ]` (before the bound is applied).
    fn prob_values(&mut self, op: OpAt<'_>, path: &PathFormula) -> R<Vec<f64>>;
    /// The per-state values of `R{rew} opt bound [ path ]` (before the bound is applied).
    fn reward_values(&mut self, op: OpAt<'_>, rew: &RewardRef, path: &RewardPath) -> R<Vec<f64>>;
    /// The per-state long-run values of `S [ expr ]`.
    fn steady_values(&mut self, expr: &Expr, sp: Span) -> R<Vec<f64>>;
    /// The states satisfying `A [ path ]` (`forall`) or `E [ path ]`.
    fn ctl_states(&mut self, forall: bool, path: &PathFormula, sp: Span) -> R<Vec<bool>>;

    /// Labels and the operators of a property, as per-state vectors; `None` for the rest.
    fn special(&mut self, e: &Expr) -> R<Option<(CExpr, Type)>> {
        match &e.kind {
            ExprKind::Label(l) => Ok(Some(self.label(e.span, l)?)),
            ExprKind::Prob { opt, bound, path } => {
                // Rounding can leave sums a few ulps outside [0, 1].
                let op = OpAt {
                    opt: *opt,
                    bound,
                    sp: e.span,
                };
                let v: Vec<f64> = self
                    .prob_values(op, path)?
                    .into_iter()
                    .map(|x| x.clamp(0.0, 1.0))
                    .collect();
                self.bounded(v, bound)
            }
            ExprKind::Reward {
                rew,
                opt,
                bound,
                path,
            } => {
                let op = OpAt {
                    opt: *opt,
                    bound,
                    sp: e.span,
                };
                let v = self.reward_values(op, rew, path)?;
                self.bounded(v, bound)
            }
            ExprKind::Steady { bound, expr } => {
                let v = self.steady_values(expr, e.span)?;
                self.bounded(v, bound)
            }
            ExprKind::Filter { op, prop, states } => {
                self.filter(e.span, op, prop, states.as_deref())
            }
            ExprKind::Ctl { forall, path } => {
                let v = self.ctl_states(*forall, path, e.span)?;
                let bits = v.into_iter().map(|b| b as u8 as f64).collect();
                Ok(Some((
                    CExpr::StateVec(Arc::new(bits), Type::Bool),
                    Type::Bool,
                )))
            }
            _ => Ok(None),
        }
    }

    fn compile(&mut self, e: &Expr) -> R<(CExpr, Type)> {
        let names = self.names();
        let prog = self.program();
        let scope = Scope {
            consts: &names.consts,
            vars: &prog.var_index,
            var_types: &names.var_types,
            formulas: &names.formulas,
        };
        let mut err: Option<ProbError> = None;
        let r = compile(e, &scope, &mut |x: &Expr| match self.special(x) {
            Ok(v) => Ok(v),
            Err(ProbError::Input(d)) => Err(d),
            Err(other) => {
                let d = Diagnostic::error(other.to_string());
                err = Some(other);
                Err(d)
            }
        });
        match (r, err) {
            (_, Some(e)) => Err(e),
            (Ok(v), None) => Ok(v),
            (Err(d), None) => Err(ProbError::Input(d)),
        }
    }

    /// A property's answer: a `filter`'s value, or the value in the (first) initial state with
    /// the range over all initial states; with `keep_values`, every state's value too.
    fn evaluate(&mut self, e: &Expr, keep_values: bool) -> R<Evaluated> {
        let (c, t) = self.compile(e)?;
        if matches!(e.kind, ExprKind::Filter { .. }) {
            let v = c.eval(&[], 0).map_err(ProbError::Input)?;
            let answer = if t == Type::Bool {
                Answer::Bool(v.as_bool())
            } else {
                Answer::Num(v.as_f64())
            };
            return Ok(Evaluated {
                answer,
                init_range: None,
                state_values: None,
            });
        }
        let m = self.model();
        let state_values = if keep_values {
            Some(crate::build::eval_states_f64(m, &c).map_err(ProbError::Input)?)
        } else {
            None
        };
        let (answer, init_range) = initial_answer(m, &c, t)?;
        Ok(Evaluated {
            answer,
            init_range,
            state_values,
        })
    }

    /// A label in a property: `"init"`, `"deadlock"`, a label of the properties file or the
    /// model, or a named property.
    fn label(&mut self, sp: Span, l: &str) -> R<(CExpr, Type)> {
        let m = self.model();
        let set = |states: &[u32]| {
            let mut v = vec![0.0; m.num_states()];
            states.iter().for_each(|&s| v[s as usize] = 1.0);
            (CExpr::StateVec(Arc::new(v), Type::Bool), Type::Bool)
        };
        match l {
            "init" => return Ok(set(&m.initial)),
            "deadlock" => return Ok(set(&m.fixed_deadlocks)),
            _ => {}
        }
        let names = self.names();
        if let Some(le) = names.labels.get(l) {
            return self.compile(le);
        }
        if let Some((_, c)) = self.program().labels.iter().find(|(n, _)| n == l) {
            return Ok((c.clone(), Type::Bool));
        }
        if let Some(pe) = names.properties.get(l) {
            return self.compile(pe);
        }
        Err(input(sp, format!("unknown label \"{l}\"")))
    }

    /// The states satisfying a Boolean state formula.
    fn states(&mut self, e: &Expr) -> R<Vec<bool>> {
        let (c, t) = self.compile(e)?;
        if t != Type::Bool {
            return Err(input(
                e.span,
                format!(
                    "type error: expected a Boolean state formula, found {}",
                    t.name()
                ),
            ));
        }
        Ok(crate::build::eval_states(self.model(), &c)?)
    }

    /// A constant number (a bound, a time, a reward step).
    fn const_f64(&mut self, e: &Expr) -> R<f64> {
        let (c, _) = self.compile(e)?;
        match c.constant() {
            Some(v) if v.ty() != Type::Bool => Ok(v.as_f64()),
            _ => Err(input(e.span, "expected a constant number")),
        }
    }

    /// The per-state values of an operator `P`/`R`/`S`: the numbers for `=?`, else whether
    /// each satisfies the bound.
    fn bounded(&mut self, v: Vec<f64>, bound: &Bound) -> R<Option<(CExpr, Type)>> {
        match bound {
            Bound::Query => Ok(Some((
                CExpr::StateVec(Arc::new(v), Type::Double),
                Type::Double,
            ))),
            Bound::Cmp(op, b) => {
                let p = self.const_f64(b)?;
                let bits = v.iter().map(|&x| op.holds(x, p) as u8 as f64).collect();
                Ok(Some((
                    CExpr::StateVec(Arc::new(bits), Type::Bool),
                    Type::Bool,
                )))
            }
        }
    }

    /// A step bound of a discrete-time path formula as an inclusive step count (`<k` is
    /// `<=k-1`, `>k` is `>=k+1`); the constant must be a non-negative integer.
    fn step_bound(&mut self, b: &Option<(Box<Expr>, bool)>, upper: bool) -> R<Option<i64>> {
        let Some((e, strict)) = b else {
            return Ok(None);
        };
        let x = self.const_f64(e)?;
        if x.fract() != 0.0 || x < 0.0 {
            return Err(input(
                e.span,
                "step bounds of discrete-time models must be non-negative integers",
            ));
        }
        let k = x as i64;
        Ok(Some(match (strict, upper) {
            (true, true) => k - 1,
            (true, false) => k + 1,
            _ => k,
        }))
    }

    /// PRISM's `filter(op, prop, states)`: `prop` over the states of `states` (default: all),
    /// folded by `op`.
    fn filter(
        &mut self,
        sp: Span,
        op: &str,
        prop: &Expr,
        states: Option<&Expr>,
    ) -> R<Option<(CExpr, Type)>> {
        let m = self.model();
        let n = m.num_states();
        let (c, t) = self.compile(prop)?;
        let set = match states {
            Some(s) => self.states(s)?,
            None => vec![true; n],
        };
        let mut cur = vec![0i64; m.vars.len()];
        let mut xs = Vec::new();
        for s in 0..n {
            if set[s] {
                m.valuation(s, &mut cur);
                xs.push(c.eval(&cur, s).map_err(ProbError::Input)?);
            }
        }
        if xs.is_empty() {
            return Err(input(sp, "the filter's state set is empty"));
        }
        let f: Vec<f64> = xs.iter().map(|v| v.as_f64()).collect();
        let num = |x: f64| Some((CExpr::Const(Value::D(x)), Type::Double));
        let boolean = |b: bool| Some((CExpr::Const(Value::B(b)), Type::Bool));
        Ok(match op {
            "min" => num(f.iter().cloned().fold(f64::INFINITY, f64::min)),
            "max" => num(f.iter().cloned().fold(f64::NEG_INFINITY, f64::max)),
            "sum" => num(f.iter().sum()),
            "avg" => num(f.iter().sum::<f64>() / f.len() as f64),
            "count" => num(f.iter().filter(|&&x| x != 0.0).count() as f64),
            "forall" => boolean(f.iter().all(|&x| x != 0.0)),
            "exists" => boolean(f.iter().any(|&x| x != 0.0)),
            "first" | "state" | "print" | "printall" => {
                if t == Type::Bool {
                    boolean(f[0] != 0.0)
                } else {
                    num(f[0])
                }
            }
            other => {
                return Err(input(
                    sp,
                    format!("filter operator `{other}` is not supported"),
                ))
            }
        })
    }

    /// The reward structure's index (`None`: time, i.e. reward 1 per time unit or step).
    fn reward_index(&mut self, rew: &RewardRef) -> R<Option<usize>> {
        let prog = self.program();
        let nr = prog.rewards.len();
        Ok(Some(match rew {
            RewardRef::Time => return Ok(None),
            RewardRef::Default => {
                if nr == 0 {
                    return Err(ProbError::Input(Diagnostic::error(
                        "the model has no reward structure",
                    )));
                }
                0
            }
            RewardRef::Name(name, sp) => prog
                .rewards
                .iter()
                .position(|r| r.name.as_deref() == Some(name.as_str()))
                .ok_or_else(|| input(*sp, format!("unknown reward structure \"{name}\"")))?,
            RewardRef::Index(e) => {
                let i = self.const_f64(e)?;
                if i >= 1.0 && (i as usize) <= nr && i.fract() == 0.0 {
                    i as usize - 1
                } else {
                    return Err(input(e.span, format!("no reward structure number {i}")));
                }
            }
        }))
    }
}
