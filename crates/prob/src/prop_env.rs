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

/// A located input error.
pub(crate) fn input(sp: Span, msg: impl Into<String>) -> ProbError {
    ProbError::Input(Diagnostic::at(sp, msg))
}

/// The names visible to a properties file.
pub(crate) struct Names {
    pub(crate) consts: HashMap<String, Value>,
    pub(crate) formulas: HashMap<String, Expr>,
    pub(crate) labels: HashMap<String, Expr>,
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
        let var_types = prog
            .vars
            .iter()
            .map(|v| if v.is_bool { Type::Bool } else { Type::Int })
            .collect();
        Ok(Arc::new(Names {
            consts,
            formulas,
            labels,
            var_types,
        }))
    }
}

/// Compilation of property expressions over a built model; `special` resolves what plain
/// expression compilation cannot (labels, `P`/`R`/`S` operators, filters) into per-state vectors.
pub(crate) trait StateFormulas<'a> {
    fn model(&self) -> &'a Model;
    fn program(&self) -> &'a Program;
    fn names(&self) -> Arc<Names>;
    fn special(&mut self, e: &Expr) -> R<Option<(CExpr, Type)>>;

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
}
