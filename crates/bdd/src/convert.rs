//! `BoolExpr` → BDD: the one conversion of the workspace (automaton labels, `@NFA-bits` guards,
//! Boolean-network update functions and their compositions).

use crate::limits::{BddError, Limits};
use biodivine_lib_bdd::{op_function, Bdd, BddVariableSet};
use verikit_logic::BoolExpr;

/// The BDD of `e` over `vars`, variable `v` of the formula being `leaf(v)` (a BDD variable, a
/// literal, or any BDD when composing functions). Every intermediate BDD stays within
/// `limits.nodes` and the budget is polled after every operation.
pub fn from_expr(
    e: &BoolExpr,
    vars: &BddVariableSet,
    leaf: &dyn Fn(u32) -> Bdd,
    limits: &Limits,
) -> Result<Bdd, BddError> {
    let r = match e {
        BoolExpr::Const(true) => vars.mk_true(),
        BoolExpr::Const(false) => vars.mk_false(),
        BoolExpr::Var(v) => leaf(*v),
        BoolExpr::Not(a) => from_expr(a, vars, leaf, limits)?.not(),
        BoolExpr::And(xs) => {
            let mut acc = vars.mk_true();
            for a in xs {
                acc = limits.apply(&acc, &from_expr(a, vars, leaf, limits)?, op_function::and)?;
            }
            acc
        }
        BoolExpr::Or(xs) => {
            let mut acc = vars.mk_false();
            for a in xs {
                acc = limits.apply(&acc, &from_expr(a, vars, leaf, limits)?, op_function::or)?;
            }
            acc
        }
        BoolExpr::Xor(a, b) => binary(a, b, vars, leaf, limits, op_function::xor)?,
        BoolExpr::Imp(a, b) => binary(a, b, vars, leaf, limits, op_function::imp)?,
        BoolExpr::Iff(a, b) => binary(a, b, vars, leaf, limits, op_function::iff)?,
    };
    limits.check(&r)?;
    Ok(r)
}

fn binary(
    a: &BoolExpr,
    b: &BoolExpr,
    vars: &BddVariableSet,
    leaf: &dyn Fn(u32) -> Bdd,
    limits: &Limits,
    op: fn(Option<bool>, Option<bool>) -> Option<bool>,
) -> Result<Bdd, BddError> {
    let x = from_expr(a, vars, leaf, limits)?;
    let y = from_expr(b, vars, leaf, limits)?;
    limits.apply(&x, &y, op)
}
